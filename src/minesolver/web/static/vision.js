// minesolver web page: a screenshot of a board, pasted (Ctrl+V), dropped or picked, is read
// by the server in the background (POST /api/reads, then GET /api/reads/{id} until it is
// done), the status saying the reader's stage meanwhile, and opens in Analyse: the board
// as read is drawn at once, each cell the reader is unsure of outlined (with its nearest
// reading), in the editor to correct with the tools or the text; a board read surely,
// with its total known, is then analysed.
// Uses app.js's state, api, setMode, loadEdit, analyse and render.
"use strict";

const vision = {
  seq: 0,  // the latest screenshot sent: an older answer arriving late is dropped
  poll: 250,  // milliseconds between two questions about a read under way
};

// What the editor holds for a label read: a question mark, a mine shown after a loss or
// a crossed-out flag are hidden cells for the analysis.
function editorLabel(label) {
  return /^[HF0-8]$/.test(label) ? label : "H";
}

function imageFile(list) {
  for (const item of Array.from(list || [])) {
    const file = item instanceof File ? item : item.kind === "file" ? item.getAsFile() : null;
    if (file && /^image\//.test(file.type)) return file;
  }
  return null;
}

function visionStatus(text, error) {
  const el = $("vision-status");
  el.textContent = text;
  el.classList.toggle("vision-error", !!error);
}

// The read's stage, as the status says it while the server reads.
function readingStage(job) {
  visionStatus(`Reading the screenshot: ${job.stage}…`);
}

async function readScreenshot(file) {
  const seq = ++vision.seq;
  if (state.mode !== "analyse") setMode("analyse");
  visionStatus("Reading the screenshot…");
  try {
    const bytes = await file.arrayBuffer();
    let job = await api("POST", "/api/reads", bytes);
    while (job.state !== "done") {  // a failed read answers its error: api() throws it
      if (seq !== vision.seq) return;
      readingStage(job);
      await new Promise((done) => setTimeout(done, vision.poll));
      job = await api("GET", `/api/reads/${encodeURIComponent(job.id)}`);
    }
    if (seq !== vision.seq) return;
    showReading(job.reading);
  } catch (e) {
    if (seq !== vision.seq) return;
    visionStatus(`The screenshot could not be read: ${e.message}`, true);
  }
}

// The board read, in the editor and on the board at once; then analysed when nothing is in
// doubt (the analysis fills the board in when it comes).
function showReading(r) {
  const rows = r.rows.map((row) => Array.from(row, editorLabel));
  state.unsure = new Set();
  for (const u of r.unsure) {
    const known = u.candidates.map((c) => c[0]).find((l) => /^[HF0-8]$/.test(l));
    rows[u.y][u.x] = known || "H";
    state.unsure.add(`${u.x},${u.y}`);
  }
  const lines = rows.map((row) => row.join(""));
  const mines = r.mines === undefined ? null : r.mines;
  $("position-text").value = `${mines === null ? "" : `${r.width}x${r.height}x${mines}\n`}${lines.join("\n")}\n`;
  state.edit.mines = mines;
  loadEdit(lines, mines);
  if (mines === null) $("edit-mines").value = "";
  else setLevel(r.width, r.height, mines);  // the face in Play starts a board of this size
  const said = [`Read a ${r.width}×${r.height} board (${r.skin} skin).`];
  if (r.unsure.length) {
    said.push(`${plural(r.unsure.length, "cell")} could not be read surely: outlined on the board, each holding its nearest reading. Check them (a tool above sets a cell), then Analyse.`);
  } else if (r.lost) {
    said.push("The game is lost: its mines are hidden cells here, and the position is analysed as it was before the losing click.");
  } else if (r.problem) {
    said.push(r.problem.charAt(0).toUpperCase() + r.problem.slice(1) + ".");
  }
  if (mines === null) said.push("The total of mines is not shown: enter it under Mines.");
  // only a board that cannot be analysed as read is an error; cells to check and a lost
  // game are notes
  visionStatus(said.join(" "), !r.unsure.length && !r.lost && !!r.problem);
  state.rows = lines;
  state.analysis = null;
  const sure = !r.unsure.length && mines !== null;
  $("analysis-summary").textContent = sure ? "Analysing…" : "";
  render();
  if (sure) analyse($("position-text").value);
}

document.addEventListener("paste", (ev) => {
  const file = ev.clipboardData && imageFile(ev.clipboardData.items);
  if (!file) return;  // text pastes go where they go
  ev.preventDefault();
  readScreenshot(file);
});

// review.js opens any other file dropped on the page as a replay.
document.addEventListener("drop", (ev) => {
  const file = ev.dataTransfer && imageFile(ev.dataTransfer.files);
  if (!file) return;
  ev.preventDefault();
  document.body.classList.remove("dropping");
  readScreenshot(file);
});

$("screenshot-file").addEventListener("change", (ev) => {
  const file = imageFile(ev.target.files);
  ev.target.value = "";
  if (file) readScreenshot(file);
});
