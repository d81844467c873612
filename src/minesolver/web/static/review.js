// minesolver web page: the Replays view. A replay file (or a finished game of the Play tab)
// is graded by the server, every click from the position the player saw; the view steps
// through the graded clicks, showing each position with its heat map (app.js's render, in
// the "review" mode), the click marked by its risk and the best move framed.
// Loaded after app.js: uses its state, render, api, $, showError, parseText, exactPercent.
"use strict";

const review = {
  report: null,  // the graded replay (POST /api/replays or GET /api/games/{id}/review)
  step: 0,       // the index in report.positions shown
  seq: 0,        // the latest request: an older answer arriving late is dropped
};

// How much of the window the figures beside the board take (app.js's cellSize leaves it);
// on a narrow screen they go below the board instead (style.css, the same 900 pixels).
function reviewSideWidth() {
  return window.innerWidth >= 900 ? 336 : 0;
}

// The figures stand right beside the board's frame on a wide screen (no gap between them,
// whatever the board's width), and follow the board and its legend on a narrow one, so
// that a phone shows the board first. Outside the view style.css hides them.
function placeSide() {
  const side = $("review-side");
  const anchor = reviewSideWidth() ? $("board-frame") : $("hint-info");
  if (side.previousElementSibling !== anchor) anchor.after(side);
}

// -- risk in words ----------------------------------------------------------------------

function fractionParts(p) {
  return p.includes("/") ? p.split("/").map(BigInt) : [BigInt(p), 1n];
}

// A graded click's risk: its kind (the colour: safe, low, high), the exact risk in words,
// e.g. "guess, 1/3 = 33.33% risk", and why a needless guess is one. Low is at most 1/5,
// compared in BigInt arithmetic (the fraction may have hundreds of digits).
function riskOf(entry) {
  const p = entry.p;
  if (entry.first && p === "0") return { kind: "safe", text: "certainly safe (the first click is protected)", why: "" };
  if (p === "0") return { kind: "safe", text: "certainly safe", why: "" };
  const [n, d] = fractionParts(p);
  const kind = 5n * n <= d ? "low" : "high";
  const why = entry.needless ? " (a certainly safe cell was there to open)" : "";
  if (p === "1") return { kind, text: "a certain mine", why };
  const what = entry.needless ? "needless guess" : "guess";
  return { kind, text: `${what}, ${fractionPercent(p)} risk`, why };
}

function lostAt(entry) {
  const r = review.report;
  return r.status === "lost" && r.exploded && entry === r.positions[r.positions.length - 1] &&
    entry.x === r.exploded[0] && entry.y === r.exploded[1];
}

function cellText(x, y) { return `(${x}, ${y})`; }

// -- one step ---------------------------------------------------------------------------

// The position's analysis, with the best player's move (where the grader asked for it) as
// the move render frames; elsewhere render frames the safest cell.
function stepAnalysis(entry) {
  const b = entry.best;
  if (!b) return { ...entry.analysis, move: null };
  const reason = "the best player's move in this position";
  return { ...entry.analysis, move: { kind: b.action, x: b.x, y: b.y, reason, player: "best" } };
}

function showStep(k) {
  const r = review.report;
  if (!r || !r.positions.length) return;
  review.step = Math.max(0, Math.min(r.positions.length - 1, k));
  const entry = r.positions[review.step];
  const risk = riskOf(entry);
  const lost = lostAt(entry);
  const cls = ["action", `risk-${risk.kind}`];
  if (entry.needless) cls.push("needless");
  if (lost) cls.push("mine", "exploded");
  const label = `, ${lost ? "the losing click" : `this ${entry.action}`}: ${risk.text}`;
  state.rows = parseText(entry.position).rows;
  state.analysis = stepAnalysis(entry);
  state.marks = new Map([[`${entry.x},${entry.y}`, { cls, label }]]);
  $("review-slider").value = String(review.step);
  const words = document.createElement("span");
  words.className = "count-words";  // left out on a phone, where the row has no room
  words.textContent = "graded click ";
  $("review-count").replaceChildren(words, `${review.step + 1} of ${r.positions.length}`);
  showAction(entry, risk, lost);
  for (const li of $("review-guesses").children) {
    li.classList.toggle("current", +li.dataset.step === review.step);
  }
  for (const li of $("review-wasted").children) {  // the wasted click that made this action
    li.classList.toggle("current", !entry.first && li.dataset.action === String(entry.index));
  }
  render();
}

function showAction(entry, risk, lost) {
  const head = document.createElement("span");
  head.textContent = `${lost ? "The losing click, at" : entry.first ? "The first click, at" : "At"} ${entry.time.toFixed(2)} s: ` +
    `${entry.action} ${cellText(entry.x, entry.y)} — `;
  const words = document.createElement("span");
  words.id = "review-risk";
  words.className = `risk-${risk.kind}`;
  words.textContent = risk.text;
  words.title = `mine probability ${entry.p}`;
  const parts = [head, words, document.createTextNode(risk.why)];
  const b = entry.best;
  if (b && (b.x !== entry.x || b.y !== entry.y || b.action !== entry.action)) {
    const best = document.createElement("span");
    best.textContent = `. Best: ${b.action} ${cellText(b.x, b.y)} (framed)` +
      (entry.win && entry.best_win ? `, win ${exactPercent(entry.best_win)} against ` +
        `${exactPercent(entry.win)} for this click` : "");
    parts.push(best);
  }
  if (entry.wasted) {
    const wasted = document.createElement("span");
    wasted.className = "wasted";
    wasted.textContent = `. A wasted click: ${WASTE_WORDS[entry.wasted][0]}`;
    parts.push(wasted);
  }
  if (entry.safest !== null && entry.safest !== "0" && entry.safest !== entry.p) {
    const safest = document.createElement("span");
    safest.textContent = `. The safest cell was at ${fractionPercent(entry.safest)}`;
    safest.title = `mine probability ${entry.safest}`;
    parts.push(safest);
  }
  $("review-action").replaceChildren(...parts);
}

// -- the figures beside the board -------------------------------------------------------

function num(v, digits = 3) { return v === null || v === undefined ? "—" : v.toFixed(digits); }

// Why a click was wasted, in words: for one click, and for several.
const WASTE_WORDS = {
  nothing: ["a click that did nothing", "clicks that did nothing"],
  unused_flag: ["a flag no chord used", "flags no chord used"],
  unflag: ["a click that took a flag away", "clicks that took a flag away"],
  one_cell_chord: ["a chord that opened one cell", "chords that opened one cell"],
};
const BUTTON_WORDS = { left: "left click", right: "right click", double: "chord" };

// The efficiency rows: the board's ZiNi and fewest clicks beside the player's, the
// efficiency lost (at least, when the fewest clicks were not proved in the budget), the wasted
// clicks by kind.
function efficiencyRows(r) {
  const e = r.efficiency;
  if (!e) return [];
  const more = e.extra_clicks === null ? "" : `, ${e.extra_clicks} more`;
  const why = e.cut === "deadline"
    ? "the search was cut by its safety deadline: another run may find more"
    : `not proved within ${e.work} steps of search`;
  const fewest = e.optimal ? `${e.min_clicks} (proved)`
    : `${e.min_clicks} found, at least ${e.lower_bound} (${why})`;
  const best = e.optimal ? num(e.best_efficiency)
    : `${num(e.best_efficiency)} to ${num(e.best_efficiency_bound)}`;
  const lost = `${e.optimal ? "" : "at least "}${num(e.efficiency_lost)} lost`;
  const kinds = Object.entries(e.wasted_by_kind).filter(([, n]) => n)
    .map(([k, n]) => `${n} ${n === 1 ? WASTE_WORDS[k][0].replace(/^a /, "") : WASTE_WORDS[k][1]}`);
  const zini = r.zne === null ? `${e.zini}, HZiNi ${e.hzini}`
    : `${e.zini}, HZiNi ${e.hzini}; ZiNi/s ${num(r.zini_per_second)}, ZNE ${num(r.zne)}, ZNT ${num(r.znt)}`;
  return [
    ["Speed", `RQP ${num(r.rqp)}, IOS ${num(r.ios)}, STNB ${num(r.stnb)}`],
    ["ZiNi", zini],
    ["Fewest clicks", `${fewest}; ${e.player_clicks} used${more}`],
    ["Efficiency", `${num(e.efficiency)}, best ${best}: ${lost}`],
    ["Wasted", kinds.length ? `${e.wasted}: ${kinds.join(", ")}` : "none"],
  ];
}

// The first-click rule the replay states (its game mode), in words (as the command line's).
const FIRST_CLICK_WORDS = {
  safe: "protected (never a mine)",
  opening: "protected (always an opening)",
  none: "unprotected (may hit a mine)",
  unknown: "rule unknown (not graded)",
};

function summaryRows(r) {
  const c = r.clicks;
  const result = r.won ? "won" : r.status === "lost"
    ? `lost at ${cellText(...r.exploded)}` : "unfinished";
  const pluck = r.pluck !== null ? num(r.pluck, 4) : r.status === "lost" ? "infinite (lost)" : "—";
  return [
    ["Player", r.player || "—"],
    ["Software", `${r.software} (${r.format.toUpperCase()} ${r.version})`],
    ["Board", `${r.width}×${r.height}, ${r.mines} mines`],
    ["First click", FIRST_CLICK_WORDS[r.first_click ?? "unknown"]],
    ["Result", result],
    ["Time", `${num(r.time)} s`],
    ["3BV", `${r.bbbv} (${r.bbbv_solved} solved)`],
    ["3BV/s", num(r.bbbv_per_second)],
    ["Clicks", `${c.left} left, ${c.right} right, ${c.double} double: ${c.total} in all, ` +
      `${c.effective} effective`],
    ["IOE", num(r.ioe)],
    ["Correctness", num(r.correctness)],
    ...efficiencyRows(r),
    ["Pluck", pluck],
    ["Guesses", `${r.guesses}, ${r.needless_guesses} needless`],
    ...r.warnings.map((w) => ["Warning", w]),
  ];
}

function showSummary(r, title) {
  $("review-title").textContent = title;
  const items = summaryRows(r).flatMap(([k, v]) => {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    dd.dataset.key = k;
    return [dt, dd];
  });
  $("review-summary").replaceChildren(...items);
  const guesses = r.positions.flatMap((entry, k) => {
    if (!entry.guess) return [];
    const li = document.createElement("li");
    const risk = riskOf(entry);
    li.dataset.step = k;
    li.className = `risk-${risk.kind}${entry.needless ? " needless" : ""}`;
    const b = document.createElement("button");
    b.textContent = `${entry.time.toFixed(2)} s, ${entry.action} ${cellText(entry.x, entry.y)}: ` +
      `${risk.text}${lostAt(entry) ? " (lost)" : ""}`;
    b.title = `mine probability ${entry.p}`;
    b.addEventListener("click", () => showStep(k));
    li.appendChild(b);
    return [li];
  });
  showList("review-guesses", guesses, "None: every graded click was certainly safe.");
  showList("review-wasted", wastedItems(r), "None: every click counted.");
}

// The step a wasted click goes to: the graded action it made, else the last graded
// position before it (the board as it was when the click was wasted, or just after).
function stepOfClick(w) {
  const positions = review.report.positions;
  const made = positions.findIndex((entry) => !entry.first && w.action !== null && entry.index === w.action);
  if (made >= 0) return made;
  let k = 0;
  positions.forEach((entry, j) => { if (entry.time <= w.time) k = j; });
  return k;
}

// The list of wasted clicks, each a button to its step.
function wastedItems(r) {
  const items = (r.wasted_clicks || []).map((w) => {
    const li = document.createElement("li");
    li.dataset.number = w.number;
    if (w.action !== null) li.dataset.action = w.action;
    li.className = `waste-${w.why}`;
    const b = document.createElement("button");
    const where = w.x === null ? "off the board" : cellText(w.x, w.y);
    b.textContent = `${w.time.toFixed(2)} s, ${BUTTON_WORDS[w.button]} ${where}: ${WASTE_WORDS[w.why][0]}`;
    b.addEventListener("click", () => showStep(stepOfClick(w)));
    li.appendChild(b);
    return li;
  });
  return items;
}

// A numbered list of the figures, or, when it is empty, a line saying so in its place (a
// list of one item numbered "1. none" reads as one guess).
function showList(id, items, empty) {
  const list = $(id);
  list.replaceChildren(...items);
  list.hidden = !items.length;
  const note = $(`${id}-none`);
  note.textContent = empty;
  note.hidden = items.length > 0;
}

// -- loading ----------------------------------------------------------------------------

// The first click, which has no position of its own (nothing is known before it), as a
// step on the blank board when the grader graded it: the replay states its first-click
// rule (report.first_click, from its game mode: a game of this page, downloaded or not,
// says it; a protected click is certainly safe, an unprotected one has the risk mines /
// cells). Where the file leaves the rule unknown the first click stays ungraded.
function firstStep(report) {
  const first = (report.moves || []).find((m) => m.action === "open" || m.action === "chord");
  if (!first || !first.graded || report.positions.some((e) => e.index === first.index)) return null;
  const row = "H".repeat(report.width);
  const position = `${report.width}x${report.height}x${report.mines}\n${Array(report.height).fill(row).join("\n")}\n`;
  const analysis = { width: report.width, height: report.height, mines: report.mines, exact: true,
    engine: "exact", layouts: null, cells: [], safe: [], mines_found: [], best: null, move: null };
  return { ...first, first: true, position, analysis };
}

// Show a graded replay: its figures, and the step ``at`` ("first" or "last").
function loadReview(report, title, at) {
  setLevel(report.width, report.height, report.mines);  // the face in Play starts this size
  const first = firstStep(report);
  if (first) report.positions = [first, ...report.positions];
  review.report = report;
  const n = report.positions.length;
  review.step = at === "last" ? Math.max(0, n - 1) : 0;
  $("review-slider").max = String(Math.max(0, n - 1));
  $("review-slider").disabled = n < 2;
  showSummary(report, title);
  if (state.mode === "review") showReview();
}

// Entering the view (setMode("review") in app.js): the loaded replay's step, or an empty
// board waiting for a file.
function showReview() {
  const r = review.report;
  $("review-body").hidden = !r;
  $("review-side").hidden = !r;
  placeSide();
  if (r && r.positions.length) { showStep(review.step); return; }
  state.rows = [];
  state.analysis = null;
  $("mine-counter").textContent = "---";
  $("timer").textContent = "";
  board.replaceChildren();
  board.dataset.size = "";
  $("legend").hidden = true;
  hideTile();
  $("review-action").textContent = r ? "No click to grade: the first click of a game " +
    "cannot be judged, and this game had no other." : "";
}

async function grade(request, title, at) {
  const seq = ++review.seq;
  showError(null);
  $("review-error").textContent = "";
  $("review-busy").textContent = "grading every click…";
  try {
    const report = await request();
    if (seq === review.seq) loadReview(report, title, at);
  } catch (e) {
    // said where the file was chosen; the view keeps what it showed
    if (seq === review.seq) $("review-error").textContent = `${title} was not graded: ${e.message || e}`;
  } finally {
    if (seq === review.seq) $("review-busy").textContent = "";
  }
}

async function openReplayFile(file) {
  if (state.mode !== "review") setMode("review");
  const bytes = await file.arrayBuffer();
  await grade(() => api("POST", "/api/replays", bytes), file.name, "first");
}

// Who played a game of this page, from the moves the page counted.
function playerOf(g) {
  const m = state.moves.id === g.id ? state.moves : { you: 0, ai: 0, autoplay: false };
  if (!m.ai) return "you";
  const how = m.autoplay ? "autoplay" : "AI moves";
  return m.you ? `you, with ${m.ai} of ${m.you + m.ai} moves by the AI (${how})` : `the AI (${how})`;
}

function reviewGame() {
  const g = state.game;
  if (!g || g.status === "playing") return;
  setMode("review");
  const title = g.status === "won" ? "This game (won)" : "This game (lost)";
  // graded from the game's EVF file, as the download is: the player named, the rule's mode
  const player = encodeURIComponent(playerOf(g));
  grade(() => api("GET", `/api/games/${g.id}/review?player=${player}`), title, "last");
}

// -- input ------------------------------------------------------------------------------

$("tab-review").addEventListener("click", () => setMode("review"));
window.addEventListener("resize", placeSide);
$("review-game").addEventListener("click", reviewGame);
$("replay-file").addEventListener("change", (ev) => {
  const file = ev.target.files[0];
  ev.target.blur();  // the arrow keys step through the moves, not the file picker
  if (file) openReplayFile(file);
  ev.target.value = "";  // the same file may be opened again
});
$("review-slider").addEventListener("input", (ev) => showStep(+ev.target.value));
$("review-first").addEventListener("click", () => showStep(0));
$("review-prev").addEventListener("click", () => showStep(review.step - 1));
$("review-next").addEventListener("click", () => showStep(review.step + 1));
$("review-last").addEventListener("click", () => showStep(Infinity));

document.addEventListener("keydown", (ev) => {
  if (state.mode !== "review" || !review.report || ev.defaultPrevented) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest("input, textarea, select")) return;  // the slider steps by itself
  const to = { ArrowLeft: review.step - 1, ArrowRight: review.step + 1, Home: 0, End: Infinity };
  if (!(ev.key in to)) return;
  ev.preventDefault();
  showStep(to[ev.key]);
});

// A file dropped anywhere on the page, from any tab, opens in the Replays view (an image
// opens in Analyse: vision.js).
function carriesFiles(ev) {
  return !!ev.dataTransfer && Array.from(ev.dataTransfer.types || []).includes("Files");
}
document.addEventListener("dragover", (ev) => {
  if (!carriesFiles(ev)) return;
  ev.preventDefault();
  ev.dataTransfer.dropEffect = "copy";
  document.body.classList.add("dropping");
});
document.addEventListener("dragleave", (ev) => {
  if (!ev.relatedTarget) document.body.classList.remove("dropping");
});
document.addEventListener("drop", (ev) => {
  document.body.classList.remove("dropping");
  const file = ev.dataTransfer && ev.dataTransfer.files[0];
  if (!file || /^image\//.test(file.type)) return;  // a screenshot: vision.js reads it
  ev.preventDefault();
  openReplayFile(file);
});
