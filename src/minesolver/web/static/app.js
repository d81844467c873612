// minesolver web page: play with the solver at your side, or analyse a position.
// Plain JavaScript, no build step. Talks to the JSON API described at /openapi.json.
"use strict";

const $ = (id) => document.getElementById(id);
const board = $("board");

const state = {
  mode: "play",
  game: null,        // the game's JSON (a running game carries no layout)
  analysis: null,    // the analysis shown over the board (hints or analyse mode)
  rows: [],          // the board's rows (strings of H, F, 0-8)
  cursor: [0, 0],
  hintsSeq: 0,
  autoplay: false,
  timer: null,
  clockBase: 0,      // performance.now() at elapsed 0
  edit: { width: 5, height: 5, mines: 5, cells: [] },
  tool: "inspect",   // Analyse: what a click does (inspect, or the cell kind it sets)
  seed: null,
  moves: { id: null, you: 0, ai: 0, autoplay: false, last: null },
  probs: new Map(),  // the shown analysis's cells, by "x,y" (for the tile panel)
  endNote: "",       // the line under a finished game's board (kept across the tabs)
  stopGuess: null,   // the guess autoplay stopped before: {move, game id}
  unsure: new Set(), // Analyse: the cells of a screenshot read unsure (vision.js), by "x,y"
  newGameChain: Promise.resolve(),  // new games one after another (each deletes the last)
};

// -- API ----------------------------------------------------------------------------

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body instanceof ArrayBuffer) {  // a file's bytes (a replay)
    opts.headers["Content-Type"] = "application/octet-stream";
    opts.body = body;
  } else if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    // a seed travels as its digits (a JavaScript number holds no 63-bit seed exactly)
    opts.body = JSON.stringify(body).replace(/"seed":"(\d+)"/, '"seed":$1');
  }
  const res = await fetch(path, opts);
  const data = res.status === 204 ? null : await res.json();
  if (!res.ok) {
    const err = new Error((data && data.detail) || res.statusText);
    err.code = data && data.error;
    err.line = data && data.line;
    err.column = data && data.column;
    throw err;
  }
  return data;
}

function showError(err) {
  $("error").textContent = err ? (err.message || String(err)) : "";
}

// -- rendering ------------------------------------------------------------------------

function cellSize(width) {
  const chosen = $("tile-size").value;  // a size the player chose; a wide board then scrolls
  if (chosen !== "auto") return +chosen;
  // the room beside the board: review.js's figures, Analyse's text on a wide screen
  const side = state.mode === "review" ? reviewSideWidth()
    : state.mode === "analyse" && window.innerWidth >= 1000 ? 346 : 0;
  const frame = 18;  // the frame's bevel and padding
  const room = Math.min(window.innerWidth, document.documentElement.clientWidth || 9999) - 24 - side - frame;
  // a finger needs a bigger cell than a mouse: a wide board scrolls rather than shrinks
  const least = window.matchMedia("(pointer: coarse)").matches ? 28 : 18;
  return Math.max(least, Math.min(32, Math.floor(room / width) - 1));
}

function buildBoard(width, height) {
  if (board.dataset.size === `${width}x${height}`) return;
  board.dataset.size = `${width}x${height}`;
  board.style.setProperty("--cell", `${cellSize(width)}px`);
  board.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
  board.replaceChildren();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = document.createElement("div");
      c.className = "cell";
      c.dataset.x = x;
      c.dataset.y = y;
      c.setAttribute("role", "gridcell");
      c.tabIndex = -1;
      board.appendChild(c);
    }
  }
  state.cursor = [Math.min(state.cursor[0], width - 1), Math.min(state.cursor[1], height - 1)];
  const cur = cellAt(...state.cursor);
  if (cur) cur.tabIndex = 0;
}

function cellAt(x, y) {
  const w = state.rows.length ? state.rows[0].length : 0;
  return board.children[y * w + x] || null;
}

// The risk scale: pale yellow, orange, rose, then a deep violet (never the bright red of the
// exploded mine). Its stops, one every 5 points, were laid out in CIE LCh (lightness falling
// steadily from 97 to 25, hue turning from yellow to violet) and checked in CIEDE2000: two
// risks 10 points apart anywhere in 0-60% differ by at least 9.5, so the order reads at a
// glance, and even a small risk is a yellow no one takes for the green of a safe cell.
// Between two stops the colour is mixed linearly in sRGB (stops this close make the mix
// smooth); tests/web/test_web_e2e_colours.py measures the colours this function returns.
const RAMP = [
  "#fff8bd", "#ffec9f", "#ffde82", "#ffcf6d", "#ffbe5a", "#ffab51", "#ff984c", "#ff8550",
  "#f87354", "#ef605f", "#e1516a", "#d04572", "#bb3d78", "#ae397a", "#9f377b", "#91357c",
  "#81337b", "#733279", "#643176", "#553072", "#462f6e",
];
// Above this risk a number on the tile is white (the tile is dark enough to carry it).
const DARK_TILE = 0.55;

function heat(p) {
  const t = Math.max(0, Math.min(1, p)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(t));
  const f = t - i;
  const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const [a, b] = [rgb(RAMP[i]), rgb(RAMP[i + 1])];
  return `rgb(${a.map((v, k) => Math.round(v + (b[k] - v) * f)).join(", ")})`;
}

// The legend's ramp: the scale from 0 to 100% with its numbers under it.
function buildRamp() {
  const ramp = document.querySelector("#legend .ramp");
  const bar = document.createElement("span");
  bar.className = "ramp-bar";
  bar.style.background = `linear-gradient(to right, ${RAMP.join(", ")})`;
  const ticks = [0, 10, 20, 30, 40, 50, 60, 80, 100].map((v) => {
    const t = document.createElement("span");
    t.className = "ramp-tick";
    t.style.left = `${v}%`;
    t.textContent = String(v);
    return t;
  });
  ramp.replaceChildren(bar, ...ticks);
}

function pct(prob) {
  const v = prob * 100;
  if (v > 0 && v < 1) return "<1";
  if (v < 100 && v > 99) return ">99";
  return v.toFixed(0);
}

// Whether cell (x, y) touches an opened digit: a frontier cell. Hidden cells away from the
// digits share one probability (no digit speaks of them): they take its tint like any
// other cell, and the legend gives their common value.
function nearDigit(rows, x, y) {
  for (let dy = -1; dy <= 1; dy++) {
    const row = rows[y + dy];
    if (row === undefined) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const ch = row[x + dx];
      if ((dx || dy) && ch !== undefined && ch >= "0" && ch <= "8") return true;
    }
  }
  return false;
}

function render() {
  const rows = state.rows;
  if (!rows.length) return;
  const width = rows[0].length, height = rows.length;
  buildBoard(width, height);
  const game = state.mode === "play" ? state.game : null;
  const showHints = state.mode !== "play" || $("hints").checked;
  const numbers = $("hint-numbers").checked;
  const a = showHints ? state.analysis : null;
  const probs = new Map();
  if (a) for (const c of a.cells) probs.set(`${c.x},${c.y}`, c);
  state.probs = probs;
  let best = a && a.move ? `${a.move.x},${a.move.y}` : (a && a.best ? `${a.best[0]},${a.best[1]}` : null);
  const stop = game && state.stopGuess && state.stopGuess.id === game.id ? state.stopGuess.move : null;
  if (stop) best = `${stop.x},${stop.y}`;  // the guess autoplay stopped before, framed
  const mines = new Set(game && game.layout ? game.layout.map(([x, y]) => `${x},${y}`) : []);
  const exploded = game && game.exploded ? `${game.exploded[0]},${game.exploded[1]}` : null;
  const marks = state.mode === "review" ? state.marks : null;  // review.js: the action's cell
  let interior = null;  // the probability every hidden cell away from the digits shares
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const el = board.children[y * width + x];
      const ch = rows[y][x];
      const key = `${x},${y}`;
      const cls = ["cell"];
      let text = "";
      let label = `(${x}, ${y}) `;
      el.style.removeProperty("--tint");
      el.style.removeProperty("--dot");
      delete el.dataset.p;
      if (ch >= "0" && ch <= "8") {
        cls.push("open", `d${ch}`);
        text = ch === "0" ? "" : ch;
        label += ch === "0" ? "empty" : ch;
      } else if (mines.has(key) && game.status === "won") {
        cls.push("flag");  // a won board shows its mines flagged, as the classic game does
        label += "flag";
      } else if (mines.has(key) && ch !== "F") {
        cls.push("mine");
        if (key === exploded) cls.push("exploded");
        label += "mine";
      } else if (ch === "F") {
        cls.push(game && game.layout && !mines.has(key) ? "wrong-flag" : "flag");
        label += "flag";
        const c = state.mode === "review" ? probs.get(key) : null;  // graded with flags unknown
        if (c) {
          el.dataset.p = c.p;
          label += `, mine probability ${c.p}`;
          // the flag stays drawn; its tint is the risk the grader gives the cell (a flag on
          // a certain mine keeps the plain tile, as a certain mine does)
          if (c.p !== "1") el.style.setProperty("--tint", c.p === "0" ? "#bfe8c4" : heat(c.prob));
        }
      } else {
        label += "hidden";
        const c = probs.get(key);
        if (c) {
          el.dataset.p = c.p;
          label += c.error === undefined ? `, mine probability ${c.p}`  // approximate: no fraction
            : `, mine probability about ${(c.prob * 100).toFixed(2)}%${errorText(c)} (approximate)`;
          if (c.p === "0") cls.push("certain-safe");
          else if (c.p === "1") cls.push("certain-mine");
          else if (!nearDigit(rows, x, y)) {
            // away from the digits: the plain tile with a dot of the scale's colour, quiet
            // beside the filled frontier cells (the legend gives their shared value)
            cls.push("interior");
            el.style.setProperty("--dot", heat(c.prob));
            interior = interior || c;
          } else {
            cls.push("heat");
            el.style.setProperty("--tint", heat(c.prob));
            if (c.prob > DARK_TILE) cls.push("dark");
            if (numbers) text = pct(c.prob);
          }
        }
      }
      if (key === best) { cls.push("best"); label += ", best move"; }
      if (state.mode === "analyse" && state.unsure.has(key)) { cls.push("unsure"); label += ", read unsure"; }
      const mark = marks && marks.get(key);
      if (mark) { cls.push(...mark.cls); label += mark.label; }
      if (x === state.cursor[0] && y === state.cursor[1]) cls.push("cursor");
      el.className = cls.join(" ");
      el.textContent = text;
      el.setAttribute("aria-label", label);
    }
  }
  $("legend").hidden = !a;
  $("legend-interior").hidden = !interior;
  if (interior) {
    $("interior-demo").style.setProperty("--dot", heat(interior.prob));
    $("interior-p").textContent = interior.error === undefined ? exactPercent(interior.p)
      : `≈ ${(interior.prob * 100).toFixed(2)}%`;
  }
  board.classList.toggle("won", !!game && game.status === "won");
  board.classList.toggle("lost", !!game && game.status === "lost");
  const face = $("new-game");
  face.classList.toggle("won", !!game && game.status === "won");
  face.classList.toggle("lost", !!game && game.status === "lost");
  if (state.mode !== "play") viewCounters(rows);
  const panel = $("tile-info");
  if (!panel.hidden) showTile(cellAt(+panel.dataset.x, +panel.dataset.y));
  scrollCue();
}

// -- tile information -----------------------------------------------------------------

// A probability "n/d" (or "0", "1") as an exact percentage with two decimals, rounded half
// up in BigInt arithmetic: the fraction may have hundreds of digits, a float would not do.
function exactPercent(p) {
  const [n, d] = p.includes("/") ? p.split("/").map(BigInt) : [BigInt(p), 1n];
  const q = (n * 20000n + d) / (2n * d);
  return `${q / 100n}.${String(q % 100n).padStart(2, "0")}%`;
}

// A fraction of more characters than this reads badly beside its percentage.
const SHORT_FRACTION = 12;

// "n/d = pp.pp%", or only the percentage when the fraction is long (it stays in a title).
function fractionPercent(p) {
  return p.length <= SHORT_FRACTION ? `${p} = ${exactPercent(p)}` : exactPercent(p);
}

// A mine probability in words: "certainly safe", "a certain mine", else "n/d = pp.pp%".
function riskWords(p) {
  return p === "0" ? "certainly safe" : p === "1" ? "a certain mine" : fractionPercent(p);
}

// "1 cell", "2 cells": a count with its noun, singular for one.
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function complement(p) {
  if (!p.includes("/")) return p === "0" ? "1" : "0";
  const [n, d] = p.split("/").map(BigInt);
  return `${d - n}/${d}`;
}

// An approximate value's error: "± e%", or, when the engine's bound is no tighter than the
// trivial one (a probability is never further than max(p, 1 - p) from the truth), a plain
// "no error bound" instead of a bar that says nothing.
function errorText(c) {
  if (c.error >= Math.max(c.prob, 1 - c.prob) - 1e-12) return " (no error bound)";
  return ` ± ${(c.error * 100).toFixed(2)}%`;
}

function tileLines(x, y, c, a) {
  const lines = [];
  if (c.error !== undefined && c.error === 0 && (c.p === "0" || c.p === "1")) {
    lines.push(["", c.p === "0" ? "Certainly safe (proved)" : "Certain mine (proved)"]);
  } else if (c.error !== undefined) {  // an approximate engine: no exact-looking fraction
    lines.push(["Mine", `≈ ${(c.prob * 100).toFixed(2)}%${errorText(c)}`]);
    lines.push(["Safe", `≈ ${((1 - c.prob) * 100).toFixed(2)}%${errorText(c)}`]);
    lines.push(["", `approximate (${a.engine})`]);
  } else if (c.p === "0") {
    lines.push(["", "Certainly safe"]);
  } else if (c.p === "1") {
    lines.push(["", "Certain mine"]);
  } else {
    lines.push(["Mine", `${c.p} = ${exactPercent(c.p)}`]);
    const safe = complement(c.p);
    lines.push(["Safe", `${safe} = ${exactPercent(safe)}`]);
  }
  const m = a.move;
  if (m && m.x === x && m.y === y) lines.push(["Best move", `${m.kind}: ${m.why || m.reason}`]);
  else if (!m && a.best && a.best[0] === x && a.best[1] === y) lines.push(["Best move", "the lowest mine probability"]);
  return lines;
}

function showTile(el) {
  const panel = $("tile-info");
  const c = el && el.dataset.p !== undefined ? state.probs.get(`${el.dataset.x},${el.dataset.y}`) : null;
  if (!c || !state.analysis) { panel.hidden = true; return; }
  const x = +el.dataset.x, y = +el.dataset.y;
  const head = document.createElement("div");
  head.className = "tile-head";
  head.textContent = `Cell (${x}, ${y})`;
  const rows = tileLines(x, y, c, state.analysis)
    .map(([k, v]) => tileRow(k, v, k === "Best move" ? "tile-best" : ""));  // tile.js
  panel.replaceChildren(head, ...rows);
  panel.dataset.x = x;
  panel.dataset.y = y;
  panel.hidden = false;
  tileDetails(panel, x, y, c);  // the digit chances (tile.js)
  placeTile(panel, el.getBoundingClientRect());
}

// Place the panel clear of the cell and its eight neighbours (the digits a player reads
// with it): to their right, else their left, else below, else above, kept on the screen.
// Beside the board it never rises above the board's top edge, over the controls and the
// counters there, unless the screen has no room below it.
function placeTile(panel, r) {
  const w = panel.offsetWidth, h = panel.offsetHeight;
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const n = { left: r.left - r.width, right: r.right + r.width, top: r.top - r.height, bottom: r.bottom + r.height };
  const floor = Math.min(Math.max(4, board.getBoundingClientRect().top), vh - h - 4);
  const gap = 6, clampX = (v) => Math.max(4, Math.min(vw - w - 4, v)), clampY = (v) => Math.max(floor, Math.min(vh - h - 4, v));
  let left, top;
  if (n.right + gap + w <= vw - 4) { left = n.right + gap; top = clampY(n.top); }
  else if (n.left - gap - w >= 4) { left = n.left - gap - w; top = clampY(n.top); }
  else if (n.bottom + gap + h <= vh - 4 || vh - n.bottom >= n.top) { left = clampX(n.left); top = clampY(n.bottom + gap); }
  else { left = clampX(n.left); top = clampY(n.top - gap - h); }
  panel.style.left = `${left}px`;
  panel.style.top = `${top}px`;
}

function hideTile() { $("tile-info").hidden = true; }

// -- play ------------------------------------------------------------------------------

function levelRequest() {
  const level = $("level").value;
  const rule = $("rule").value;
  const body = level === "custom"
    ? { width: +$("custom-width").value, height: +$("custom-height").value, mines: +$("custom-mines").value, rule }
    : { level, rule };
  if (state.seed !== null) body.seed = state.seed;  // ?seed=N: replay the same layouts
  if ($("no-guess").checked) body.no_guess = true;
  return body;
}

// Who made the moves of the game on the page, so its end can say who played it.
function countMove(by, game) {
  if (!game) return;
  if (state.moves.id !== game.id) state.moves = { id: game.id, you: 0, ai: 0, autoplay: false, last: null };
  state.moves[by === "you" ? "you" : "ai"] += 1;
  if (by === "autoplay") state.moves.autoplay = true;
  state.moves.last = by;
}

function statusText(game) {
  const m = state.moves.id === game.id ? state.moves : { you: 0, ai: 0, autoplay: false, last: null };
  const total = m.you + m.ai;
  const how = m.autoplay ? "autoplay" : "AI moves";
  const share = m.you === 0 ? `all ${total} moves` : `${m.ai} of ${total} moves`;
  const byAi = m.last !== null && m.last !== "you";
  if (game.status === "won") {
    const t = game.elapsed.toFixed(1);
    if (byAi) return `The AI won in ${t} s (${how}, ${share}).`;
    return m.ai ? `You won in ${t} s, with ${m.ai} AI move${m.ai > 1 ? "s" : ""}.` : `You won in ${t} s!`;
  }
  if (game.status === "lost") {
    if (byAi) return `Boom! The AI's guess hit a mine (${how}, ${share}).`;
    return "Boom! You lost — new game?";
  }
  return game.started ? "" : "Click any cell to start";
}

function showGame(game) {
  state.game = game;
  state.rows = game.board;
  const left = game.status === "won" ? 0 : game.mines_left;  // a won board is all flagged
  if (state.mode === "play") $("mine-counter").textContent = counterText(left);
  const status = $("status");
  status.className = game.status;
  status.textContent = statusText(game);
  const m = state.moves;
  status.dataset.by = game.status !== "playing" && m.id === game.id && m.last ? (m.last === "you" ? "you" : "ai") : "";
  const mark = game.revealed ? ["mines downloaded", "This game's file, with its mines, was downloaded while it ran"]
    : game.from_layout ? ["board from a file", "This game is played on a layout file: its mines are known"]
    : game.seeded ? ["seeded", "This game's mines were laid from a chosen seed: its layout is predictable"]
    : game.no_guess ? ["no guess", "Every game of this board can be won without a guess"] : null;
  $("seeded").hidden = !mark;
  if (mark) { $("seeded").textContent = mark[0]; $("seeded").title = mark[1]; }
  $("review-game").hidden = game.status === "playing";
  $("download-evf").disabled = $("download-mbf").disabled = game.moves === 0;
  if (state.stopGuess && (state.stopGuess.id !== game.id || game.moves !== state.stopGuess.moves)) {
    state.stopGuess = null;  // a move was made since autoplay stopped: the line moves on
    delete $("hint-info").dataset.stop;
  }
  setClock(game);
  showSeed(game);
  if (game.status !== "playing") {
    state.endNote = endNote(game, state.analysis);
    $("hint-info").textContent = state.endNote;
    state.analysis = null;
    stopAutoplay();
  } else {
    state.endNote = "";
  }
  render();
}

// What the hints knew of the game's end: after a loss, the exact risk of the losing click
// (from the analysis shown before it, when hints were on) beside the safest one; and where
// to see every click graded.
function endNote(game, a) {
  const review = "Review this game to step through every click with its exact risk.";
  if (game.status !== "lost" || !game.exploded || !a) return review;
  const [x, y] = game.exploded;
  const c = a.cells.find((e) => e.x === x && e.y === y);
  if (!c || c.error !== undefined) return review;
  const low = a.cells.reduce((lo, e) => (e.prob < lo.prob ? e : lo), c);
  // among cells as safe as the lowest, name the one the board frames as the best move
  const framed = a.move && a.cells.find((e) => e.x === a.move.x && e.y === a.move.y);
  const safest = framed && framed.p === low.p ? framed : low;
  const best = safest === c || safest.prob === c.prob ? " (as safe as any cell)"
    : safest.p === "0" ? `; (${safest.x}, ${safest.y}) was certainly safe`
    : `; the safest cell, (${safest.x}, ${safest.y}), had ${fractionPercent(safest.p)}`;
  const was = c.p === "1" ? "it was a certain mine" : `its mine probability was ${fractionPercent(c.p)}`;
  return `The losing click opened (${x}, ${y}): ${was}${best}. ${review}`;
}

function setClock(game) {
  if (state.timer) { clearInterval(state.timer); state.timer = null; }
  state.clockBase = performance.now() - game.elapsed * 1000;
  const show = () => {
    if (state.mode !== "play") return;  // the other views have counters of their own
    const s = game.status === "playing" ? (performance.now() - state.clockBase) / 1000 : game.elapsed;
    $("timer").textContent = counterText(Math.floor(s));
  };
  show();
  if (game.started && game.status === "playing") state.timer = setInterval(show, 250);
}

// New games run one after another, so that a click on the face right after a level change
// does not delete the same game twice; each deletes the running game it replaces, once.
function newGame(body) {
  const request = body || levelRequest();
  state.pendingGames = (state.pendingGames || 0) + 1;
  state.newGameChain = state.newGameChain.then(() => startGame(request))
    .finally(() => { state.pendingGames -= 1; });
  return state.newGameChain;
}

async function startGame(body) {
  showError(null);
  stopAutoplay();
  try {
    const old = state.game;
    const game = await api("POST", "/api/games", body);
    if (old && old.status === "playing" && !old.deleted) {
      old.deleted = true;
      api("DELETE", `/api/games/${old.id}`).catch(() => {});
    }
    state.analysis = null;
    state.stopGuess = null;
    showGame(game);
    syncSize(game);
    await refreshHints();
  } catch (e) {
    showError(e);
    if (state.game) syncSize(state.game);  // a refused size: the fields show the board's again
  }
}

// The seed field: the chosen seed, else empty ("random"). A random game's seed stays on the
// server until it is over; then the line under the controls shows it, to play that board again.
function showSeed(game) {
  const field = $("seed");
  if (document.activeElement !== field) field.value = state.seed === null ? "" : state.seed;
  const again = state.seed === null && game && game.seed_text ? game.seed_text : null;
  $("seed-again").hidden = !again;
  if (again) { $("seed-value").textContent = again; $("seed-again").dataset.seed = again; }
}

// A seed typed in the field: the next games are laid from it (empty: random again).
function chooseSeed() {
  const text = $("seed").value.trim();
  if (text !== "" && !(/^\d{1,19}$/.test(text) && BigInt(text) < 2n ** 63n)) {
    showError(new Error(`seed ${JSON.stringify(text)}: a whole number from 0 to 2^63 - 1, or empty for random`));
    return;
  }
  state.seed = text === "" ? null : String(BigInt(text));  // digits, without leading zeros
  newGame();
}

// A counter's three digits, as the classic game shows them ("-05" below zero, 999 at most).
function counterText(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return "---";
  return n < 0 ? "-" + String(Math.min(99, -n)).padStart(2, "0") : String(Math.min(999, n)).padStart(3, "0");
}

const PRESET_SIZES = { beginner: [9, 9, 10], intermediate: [16, 16, 40], expert: [30, 16, 99] };

// The level menu (and the custom size fields) say the size of the board last loaded or
// played, so that the face starts a new board of that size: a game (after a refused size
// too), a layout file, a replay, a screenshot.
function setLevel(width, height, mines) {
  const preset = Object.keys(PRESET_SIZES).find((k) => PRESET_SIZES[k].join() === [width, height, mines].join());
  $("level").value = preset || "custom";
  $("custom").hidden = !!preset;
  if (preset) return;
  $("custom-width").value = width;
  $("custom-height").value = height;
  $("custom-mines").value = mines;
}
// After a game starts (or a size is refused): unless another new game is on its way, or
// the player is typing a size, which it would overwrite.
function syncSize(game) {
  const typing = document.activeElement && document.activeElement.closest("#custom");
  if (state.pendingGames > 1 || typing) return;
  setLevel(game.width, game.height, game.mines);
}

// The counters over the board in Analyse and in the review: the mines left (the total less
// the flags) and, in the review, the time of the click shown. Play sets its own (showGame).
function viewCounters(rows) {
  const report = state.mode === "review" && typeof review !== "undefined" ? review.report : null;
  const total = state.mode === "review" ? (report ? report.mines : null)
    : state.analysis ? state.analysis.mines : state.edit.mines;
  const flags = rows.reduce((n, row) => n + row.split("F").length - 1, 0);
  $("mine-counter").textContent = total === null || total === undefined ? "---" : counterText(total - flags);
  const entry = report && report.positions[review.step];
  $("timer").textContent = entry ? counterText(Math.floor(entry.time)) : "";
}

async function move(kind, x, y) {
  const g = state.game;
  if (!g || g.status !== "playing" || state.mode !== "play") return;
  showError(null);
  try {
    const next = await api("POST", `/api/games/${g.id}/move`, { kind, x, y });
    countMove("you", next);
    showGame(next);
    await refreshHints();
  } catch (e) { showError(e); }
}

async function refreshHints() {
  const g = state.game;
  const seq = ++state.hintsSeq;
  if (!$("hints").checked || !g || g.status !== "playing") {
    state.analysis = null;
    if (!g || g.status === "playing") $("hint-info").textContent = "";  // else: endNote's
    render();
    return;
  }
  if (!g.started) {  // the probabilities of a board before its first click follow the rule
    state.analysis = null;
    $("hint-info").textContent = g.rule === "none"
      ? `No first-click protection: every cell is a mine with probability ${g.mines}/${g.width * g.height}.`
      : `The first click is safe${g.rule === "opening" ? " and opens an area" : ""}: click anywhere.`;
    render();
    return;
  }
  try {
    const a = await api("GET", `/api/games/${g.id}/hint${playerQuery("?")}`);
    if (seq !== state.hintsSeq) return;
    state.analysis = a;
    if (!state.stopGuess) $("hint-info").textContent = describeMove(a);
    render();
  } catch (e) { showError(e); }
}

// A layout count (a decimal string, possibly hundreds of digits) for people: grouped in
// thousands up to 15 digits, else as d.ddd × 10ⁿ, with no-break spaces: never split.
const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
function countText(digits) {
  if (digits.length <= 15) return digits.replace(/\B(?=(\d{3})+$)/g, ",");
  const power = String(digits.length - 1).replace(/\d/g, (d) => SUPERSCRIPT[+d]);
  return `${digits[0]}.${digits.slice(1, 4)}\u00a0×\u00a010${power}`;
}

function describeMove(a) {
  const left = a.layouts === null ? "" : a.layouts === "1" ? " 1 possible layout remains."
    : ` ${countText(a.layouts)} possible layouts remain.`;
  const certain = `${plural(a.safe.length, "certainly safe cell")}, ${plural(a.mines_found.length, "certain mine")}.${left}`;
  if (!a.move) return certain;
  const m = a.move;
  const what = m.guess ? `guess (mine probability ${(m.risk * 100).toFixed(1)}%)` : "certain";
  return `Best move: ${m.kind} (${m.x}, ${m.y}), ${what}. ${certain}`;
}

// The player the hints and the AI follow: best (the safest play, the server's default) or
// efficient (the same guesses, the certain moves in the fewest clicks).
function playerQuery(sep) {
  return $("hint-player").value === "efficient" ? `${sep}player=efficient` : "";
}

// One move of the server's player; in autoplay with Accept guesses off, a guess is not
// made: autoplay stops and the guess is framed on the board.
async function aiMove() {
  const g = state.game;
  if (!g || g.status !== "playing") return false;
  showError(null);
  try {
    const careful = state.autoplay && !$("accept-guesses").checked;
    const r = await api("POST", `/api/games/${g.id}/ai${careful ? "?guesses=0" : ""}${playerQuery(careful ? "&" : "?")}`);
    if (r.move && !r.applied) {
      state.stopGuess = { id: r.game.id, moves: r.game.moves, move: r.move };
      showGame(r.game);
      const m = r.move;
      $("hint-info").textContent = `Autoplay stopped before a guess: ${m.kind} (${m.x}, ${m.y}), ` +
        `mine probability ${(m.risk * 100).toFixed(1)}% (framed). Turn on Accept guesses to let it guess.`;
      $("hint-info").dataset.stop = "guess";
      return false;
    }
    delete $("hint-info").dataset.stop;
    if (r.move) countMove(state.autoplay ? "autoplay" : "ai", r.game);
    showGame(r.game);
    if (r.move) {
      const end = r.game.status === "playing" ? "" : ` ${$("hint-info").textContent}`;  // endNote
      $("hint-info").textContent = `AI: ${r.move.kind} (${r.move.x}, ${r.move.y}) — ${r.move.why.replace(/\.$/, "")}.${end}`;
    }
    if ($("hints").checked) await refreshHints();
    return r.game.status === "playing";
  } catch (e) { showError(e); stopAutoplay(); return false; }
}

function stopAutoplay() {
  state.autoplay = false;
  $("autoplay").setAttribute("aria-pressed", "false");
  $("autoplay").textContent = "Autoplay";
}

async function toggleAutoplay() {
  if (state.autoplay) { stopAutoplay(); return; }
  state.autoplay = true;
  state.stopGuess = null;
  $("autoplay").setAttribute("aria-pressed", "true");
  $("autoplay").textContent = "Stop";
  while (state.autoplay) {
    const t0 = performance.now();
    if (!(await aiMove())) break;
    const wait = 1000 / +$("speed").value - (performance.now() - t0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  stopAutoplay();
}

// -- analyse -------------------------------------------------------------------------

function parseText(text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l);
  let mines = null;
  const m = lines.length && lines[0].match(/^(\d+)\s*x\s*(\d+)\s*x\s*(\d+)$/i);
  if (m) { mines = +m[3]; lines.shift(); }
  return { rows: lines.map((l) => l.toUpperCase().replace(/[.?]/g, "H")), mines };
}

function editText() {
  const e = state.edit;
  const rows = [];
  for (let y = 0; y < e.height; y++) rows.push(e.cells.slice(y * e.width, (y + 1) * e.width).join(""));
  const head = e.mines === null ? "" : `${e.width}x${e.height}x${e.mines}\n`;  // null: a screenshot's unknown total
  return `${head}${rows.join("\n")}\n`;
}

function loadEdit(rows, mines) {
  const e = state.edit;
  e.height = rows.length;
  e.width = rows[0].length;
  e.mines = mines === null ? e.mines : mines;
  e.cells = rows.join("").split("");
  $("edit-width").value = e.width;
  $("edit-height").value = e.height;
  $("edit-mines").value = e.mines;
}

let analyseSeq = 0;
async function analyse(text) {
  showError(null);
  const seq = ++analyseSeq;
  try {
    const a = await api("POST", "/api/analyze", { position: text, engine: $("engine").value });
    if (seq !== analyseSeq) return;
    showPositionError(null);
    const parsed = parseText(text);
    loadEdit(parsed.rows, a.mines);
    state.rows = parsed.rows;
    state.analysis = a;
    const url = `${location.pathname}?analyse=${parsed.rows.length ? `${a.width}x${a.height}x${a.mines}/` : ""}${parsed.rows.join("/")}`;
    history.replaceState(null, "", url);
    const digits = a.layouts === null ? "not counted (approximate engine)" : countText(a.layouts);
    $("analysis-summary").innerHTML = "";
    const add = (label, value, id) => {
      const p = document.createElement("div");
      p.innerHTML = `<strong>${label}:</strong> `;
      const s = document.createElement("span");
      s.id = id;
      s.textContent = value;
      p.appendChild(s);
      $("analysis-summary").appendChild(p);
    };
    add("Layouts", a.exact ? digits : "not counted", "layout-count");
    add("Engine", a.exact ? a.engine : `${a.engine} (approximate: hover a cell for its error)`, "engine-used");
    add("Certainly safe", cellsText(a.safe, "ticked"), "safe-list");
    add("Certain mines", cellsText(a.mines_found, "marked"), "mine-list");
    const m = a.move;
    add("Best move", m ? `${m.kind} (${m.x}, ${m.y}) — ${m.why}`
      : (a.best ? `open (${a.best[0]}, ${a.best[1]}) — the lowest mine probability${a.exact ? "" : " (approximate)"}` : "none"), "best-move");
    render();
  } catch (e) {
    if (seq !== analyseSeq) return;
    showPositionError(e);
    if (e.code !== "malformed_position") {  // a readable board that has no analysis: show it bare
      const parsed = parseText(text);
      if (parsed.rows.length && parsed.rows.every((r) => r.length === parsed.rows[0].length)) {
        state.rows = parsed.rows;
        loadEdit(parsed.rows, parsed.mines);  // the size fields follow the text
      }
      state.analysis = null;
      $("analysis-summary").textContent = "";
    }
    render();
  }
}

// A parse error keeps the last board that could be read (dimmed), says what is wrong under
// the text, and marks its line (and column) on a backdrop behind the textarea.
function showPositionError(err) {
  const box = $("position-text"), back = $("position-backdrop");
  const stale = !!err && err.code === "malformed_position";
  $("position-error").textContent = err ? (err.message || String(err)) : "";
  box.closest(".editor").classList.toggle("invalid", !!err);
  box.setAttribute("aria-invalid", String(!!err));
  $("analysis-summary").classList.toggle("stale", stale && !!state.analysis);
  board.classList.toggle("stale", stale && state.rows.length > 0);
  back.replaceChildren();
  if (!err || !err.line) return;
  const lines = box.value.split("\n");
  lines.forEach((line, i) => {
    if (i + 1 !== err.line) { back.append(line + "\n"); return; }
    const mark = document.createElement("mark");
    mark.dataset.line = String(err.line);
    if (err.column && err.column <= line.length + 1) {  // one past the end: a missing cell
      const col = document.createElement("mark");
      col.className = "col";
      col.textContent = line[err.column - 1] || " ";
      mark.append(line.slice(0, err.column - 1), col, line.slice(err.column));
    } else {
      mark.textContent = line || " ";
    }
    back.append(mark, "\n");
  });
  back.scrollTop = box.scrollTop;
  back.scrollLeft = box.scrollLeft;
}

// A list of cells for the summary: how many, and which while the list is short (the board
// marks them all).
function cellsText(cells, how) {
  if (!cells.length) return "none";
  const list = cells.map(([x, y]) => `(${x}, ${y})`);
  const n = `${cells.length} cell${cells.length > 1 ? "s" : ""}`;
  return cells.length <= 6 ? `${n}: ${list.join(" ")}` : `${n}, ${how} on the board: ${list.slice(0, 6).join(" ")} …`;
}

function editCell(x, y, value) {
  const e = state.edit;
  e.cells[y * e.width + x] = value;
  state.unsure.delete(`${x},${y}`);
  $("position-text").value = editText();
  state.rows = [];
  for (let r = 0; r < e.height; r++) state.rows.push(e.cells.slice(r * e.width, (r + 1) * e.width).join(""));
  state.analysis = null;
  render();
  analyse(editText());
}

function emptyBoard() {
  const w = +$("edit-width").value, h = +$("edit-height").value, m = +$("edit-mines").value;
  state.edit = { width: w, height: h, mines: m, cells: Array(w * h).fill("H") };
  state.unsure.clear();
  $("position-text").value = editText();
  analyse(editText());
}

function buildTools() {
  const tools = ["inspect", "H", "F", "0", "1", "2", "3", "4", "5", "6", "7", "8"];
  for (const t of tools) {
    const b = document.createElement("button");
    b.setAttribute("role", "radio");
    b.dataset.tool = t;
    b.textContent = t === "inspect" ? "inspect" : t === "H" ? "hidden" : t === "F" ? "⚑ flag" : t;
    b.title = t === "inspect" ? "A click shows the cell's information; the board is not changed"
      : `A click sets the cell to ${t === "H" ? "hidden" : t === "F" ? "a flag" : `the digit ${t}`}`;
    b.setAttribute("aria-checked", String(t === state.tool));
    b.addEventListener("click", () => {
      state.tool = t;
      for (const o of $("tools").children) o.setAttribute("aria-checked", String(o.dataset.tool === t));
    });
    $("tools").appendChild(b);
  }
}

// -- modes, input --------------------------------------------------------------------

function setMode(mode) {
  state.mode = mode;
  document.body.dataset.mode = mode;
  board.dataset.size = "";  // the cell size depends on the mode (room beside the board)
  $("tab-play").setAttribute("aria-selected", String(mode === "play"));
  $("tab-analyse").setAttribute("aria-selected", String(mode === "analyse"));
  $("tab-review").setAttribute("aria-selected", String(mode === "review"));
  $("play-panel").hidden = mode !== "play";
  $("analyse-panel").hidden = mode !== "analyse";
  $("review-panel").hidden = mode !== "review";
  showError(null);
  $("hint-info").textContent = "";
  if (mode === "play") {
    stopAutoplay();
    if (location.search.includes("analyse=")) history.replaceState(null, "", location.pathname);
    if (state.game) {
      state.rows = state.game.board;
      $("mine-counter").textContent = counterText(state.game.status === "won" ? 0 : state.game.mines_left);
      setClock(state.game);
      if (state.game.status !== "playing") $("hint-info").textContent = state.endNote;  // the loss's line
      refreshHints();
    } else newGame();
  } else if (mode === "analyse") {
    stopAutoplay();
    analyse($("position-text").value);
  } else {
    stopAutoplay();
    showReview();  // review.js
  }
}

function cellOf(target) {
  const el = target.closest(".cell");
  return el ? [+el.dataset.x, +el.dataset.y] : null;
}

// Inspect mode: the cell's tile panel, without changing the board (a tap, on a phone).
function inspect(x, y) {
  const old = cellAt(...state.cursor);
  if (old) { old.tabIndex = -1; old.classList.remove("cursor"); }
  state.cursor = [x, y];
  const el = cellAt(x, y);
  el.tabIndex = 0;
  el.classList.add("cursor");
  showTile(el);
}

function primary(x, y) {
  if (state.mode === "analyse" && state.tool === "inspect") { inspect(x, y); return; }  // moves the cursor
  state.cursor = [x, y];
  if (state.mode === "analyse") { editCell(x, y, state.tool); return; }
  if (state.mode === "review") return;
  const ch = state.rows[y][x];
  if ($("flag-mode").checked && (ch === "H" || ch === "F")) move("flag", x, y);
  else if (ch >= "1" && ch <= "8") move("chord", x, y);
  else if (ch === "H") move("open", x, y);
}

let pressTimer = null, pressShown = false;
board.addEventListener("click", (ev) => {
  if (pressShown) { pressShown = false; return; }  // the long press showed the tile panel
  const c = cellOf(ev.target);
  if (c) primary(...c);
});
board.addEventListener("mouseover", (ev) => {
  const el = ev.target.closest(".cell");
  if (el) showTile(el);
});
board.addEventListener("mouseleave", hideTile);
// On a touch screen a tap opens the cell; a long press (half a second) opens its tile panel.
board.addEventListener("touchstart", (ev) => {
  const el = ev.target.closest(".cell");
  pressShown = false;
  clearTimeout(pressTimer);
  if (el) pressTimer = setTimeout(() => { pressShown = true; showTile(el); }, 500);
}, { passive: true });
for (const name of ["touchend", "touchmove", "touchcancel"]) {
  board.addEventListener(name, () => clearTimeout(pressTimer), { passive: true });
}
document.addEventListener("touchstart", (ev) => {
  if (!ev.target.closest("#board, #tile-info")) hideTile();
}, { passive: true });
board.addEventListener("contextmenu", (ev) => {
  const c = cellOf(ev.target);
  if (!c) return;
  ev.preventDefault();
  if (pressShown) return;  // a phone's long press showed the tile panel: it flags nothing
  if (state.mode === "analyse" && state.tool === "inspect") { inspect(...c); return; }
  state.cursor = c;
  if (state.mode === "analyse") editCell(c[0], c[1], state.edit.cells[c[1] * state.edit.width + c[0]] === "F" ? "H" : "F");
  else move("flag", ...c);
});
board.addEventListener("auxclick", (ev) => {
  const c = cellOf(ev.target);
  if (c && ev.button === 1 && state.mode === "play") move("chord", ...c);
});

function moveCursor(dx, dy) {
  const w = state.rows[0].length, h = state.rows.length;
  const old = cellAt(...state.cursor);
  if (old) { old.tabIndex = -1; old.classList.remove("cursor"); }
  state.cursor = [Math.max(0, Math.min(w - 1, state.cursor[0] + dx)), Math.max(0, Math.min(h - 1, state.cursor[1] + dy))];
  const el = cellAt(...state.cursor);
  el.tabIndex = 0;
  el.classList.add("cursor");
  el.focus();
  showTile(el);
}

// The keyboard cursor shows while the keys drive the board (style.css): a key on the board
// shows it, a mouse press or a touch hides it.
board.addEventListener("pointerdown", () => { delete board.dataset.keys; });

board.addEventListener("keydown", (ev) => {
  board.dataset.keys = "";
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const [x, y] = state.cursor;
  if (dirs[ev.key]) { moveCursor(...dirs[ev.key]); ev.preventDefault(); return; }
  if (ev.key === "Enter" || ev.key === " ") { primary(x, y); ev.preventDefault(); ev.stopPropagation(); return; }
  if (state.mode === "analyse") {
    const k = ev.key.toUpperCase();
    if (/^[HF0-8]$/.test(k)) { editCell(x, y, k); ev.stopPropagation(); }
    return;
  }
  if (ev.key === "f" || ev.key === "F") { move("flag", x, y); ev.stopPropagation(); }
  else if (ev.key === "c" || ev.key === "C") { move("chord", x, y); ev.stopPropagation(); }
});

// Whether the key goes to a field that takes text (where N, H and A are letters to type).
function inTextField(target) {
  if (target.isContentEditable || target.closest("textarea")) return true;
  const input = target.closest("input");
  return !!input && !["checkbox", "radio", "range", "button", "submit", "reset", "file", "color"].includes(input.type);
}

// N, H and A work wherever the focus is (a checkbox, a menu, the slider just clicked),
// except in a text field.
document.addEventListener("keydown", (ev) => {
  if (state.mode !== "play" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (inTextField(ev.target)) return;
  const key = ev.key.toLowerCase();
  if (!["n", "h", "a"].includes(key)) return;
  ev.preventDefault();  // a focused menu would otherwise jump to an option starting so
  if (key === "n") newGame();
  else if (key === "h") { $("hints").checked = !$("hints").checked; refreshHints(); }
  else aiMove();
});

$("tab-play").addEventListener("click", () => setMode("play"));
$("tab-analyse").addEventListener("click", () => setMode("analyse"));
$("level").addEventListener("change", () => { $("custom").hidden = $("level").value !== "custom"; newGame(); });
$("rule").addEventListener("change", () => newGame());
$("no-guess").addEventListener("change", () => newGame());
$("seed").addEventListener("change", chooseSeed);
$("seed-again").addEventListener("click", () => { $("seed").value = $("seed-again").dataset.seed; chooseSeed(); });
// The tile size, kept for the next visit.
$("tile-size").addEventListener("change", () => {
  try { localStorage.setItem("minesolver.tileSize", $("tile-size").value); } catch (e) { /* private mode */ }
  board.dataset.size = "";
  render();
});
try {
  const kept = localStorage.getItem("minesolver.tileSize");
  if (kept && [...$("tile-size").options].some((o) => o.value === kept)) $("tile-size").value = kept;
} catch (e) { /* no storage: auto */ }
$("new-game").addEventListener("click", () => newGame());
// The face looks surprised while a button is held on the board, as in the classic game.
board.addEventListener("mousedown", (ev) => {
  if (state.mode === "play" && ev.button === 0 && state.game && state.game.status === "playing") $("new-game").classList.add("pressed");
});
document.addEventListener("mouseup", () => $("new-game").classList.remove("pressed"));
$("download-evf").addEventListener("click", () => download("replay", "evf"));
$("download-mbf").addEventListener("click", () => download("layout", "mbf"));
$("layout-file").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  ev.target.value = "";
  if (file) playLayout(await file.arrayBuffer());
});
$("hints").addEventListener("change", refreshHints);
$("hint-player").addEventListener("change", refreshHints);
$("hint-numbers").addEventListener("change", render);
$("ai-move").addEventListener("click", aiMove);
$("autoplay").addEventListener("click", toggleAutoplay);
$("speed").addEventListener("input", () => { $("speed-value").textContent = $("speed").value; });
$("analyse-button").addEventListener("click", () => analyse($("position-text").value));
$("engine").addEventListener("change", () => analyse($("position-text").value));
$("edit-new").addEventListener("click", emptyBoard);
let typingTimer = null;
$("position-text").addEventListener("input", () => {
  clearTimeout(typingTimer);
  state.unsure.clear();  // the text is the user's now
  typingTimer = setTimeout(() => analyse($("position-text").value), 500);
});
$("position-text").addEventListener("scroll", () => {
  $("position-backdrop").scrollTop = $("position-text").scrollTop;
  $("position-backdrop").scrollLeft = $("position-text").scrollLeft;
});
$("analyse-game").addEventListener("click", analyseGame);
$("board-wrap").addEventListener("scroll", scrollCue, { passive: true });
$("edit-mines").addEventListener("change", () => {
  state.edit.mines = +$("edit-mines").value;
  $("position-text").value = editText();
  analyse(editText());
});
window.addEventListener("resize", () => { board.dataset.size = ""; render(); });

// Download the game as a file: its EVF replay or its MBF layout. During a game the file
// holds the mines: the server marks the game (the page says so beside the status).
async function download(what, ext) {
  const g = state.game;
  if (!g || !g.moves) return;
  showError(null);
  try {
    // the replay names who played (review.js's playerOf), so that it reviews as the page's review does
    const player = what === "replay" ? `player=${encodeURIComponent(playerOf(g))}` : "";
    const query = [g.status === "playing" ? "running=1" : "", player].filter((q) => q).join("&");
    const url = `/api/games/${g.id}/${what}${query ? `?${query}` : ""}`;
    const res = await fetch(url);
    if (!res.ok) { const e = await res.json(); throw new Error(e.detail); }
    const blob = await res.blob();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `minesolver-${g.level}-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.${ext}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    if (g.status === "playing") showGame(await api("GET", `/api/games/${g.id}`));  // now marked
  } catch (e) { showError(e); }
}

// Play the board of an MBF layout file (its first layout), e.g. one downloaded here.
function playLayout(bytes) {
  let text = "";
  const view = new Uint8Array(bytes);
  for (let i = 0; i < view.length; i += 0x8000) text += String.fromCharCode(...view.subarray(i, i + 0x8000));
  if (state.mode !== "play") setMode("play");
  return newGame({ layout: btoa(text) });
}

// "Analyse this game": the game's board (flags as placed, the level's total) in Analyse.
function analyseGame() {
  const g = state.game;
  if (!g) return;
  $("position-text").value = `${g.width}x${g.height}x${g.mines}\n${g.board.join("\n")}\n`;
  setMode("analyse");
}

// A board wider than its box scrolls sideways: fade the cut edge and say so under it.
function scrollCue() {
  const w = $("board-wrap");
  const more = w.scrollWidth - w.clientWidth > 1;
  w.classList.toggle("scroll-left", more && w.scrollLeft > 1);
  w.classList.toggle("scroll-right", more && w.scrollLeft < w.scrollWidth - w.clientWidth - 1);
  $("scroll-cue").hidden = !more;
}

buildTools();
buildRamp();
const params = new URLSearchParams(location.search);
if (/^\d{1,19}$/.test(params.get("seed") || "")) state.seed = String(BigInt(params.get("seed")));
for (const [key, id] of [["level", "level"], ["rule", "rule"]]) {
  if (params.get(key)) $(id).value = params.get(key);
}
$("custom").hidden = $("level").value !== "custom";
const shared = params.get("analyse");
if (shared) {
  $("position-text").value = shared.split("/").join("\n") + "\n";
  setMode("analyse");
} else {
  setMode("play");
}
