// minesolver web page: the tile panel's digit chances, opening and progress.
// Loaded after app.js (classic scripts share one global scope: state, api, exactPercent…).
//
// When the panel opens on a hidden cell that is not certain, the exact tile information
// comes from POST /api/tile: fetched lazily, cached per (position, cell), one request in
// flight at a time and only after the pointer rests a moment, so sweeping the mouse over
// the board sends no storm of requests. While it loads the panel shows "…".
"use strict";

const TILE_DELAY = 120;      // ms the pointer rests on a cell before its request is sent
const TILE_CACHE_MAX = 500;  // answers kept (the cache is emptied past this)
const TILE_RETRY = new Set(["too_many_requests", "busy"]);  // worth asking again later

const tileInfo = {
  cache: new Map(),  // key -> { data } or { error }
  busy: false,       // a request is in flight
  timer: null,       // the pending debounced request
};

// The position the shown analysis is of, as JSMinesweeper text (its total in the header).
function tilePositionText() {
  const a = state.analysis;
  if (!a || !state.rows.length) return null;
  const header = a.mines === null || a.mines === undefined ? "" : `${a.width}x${a.height}x${a.mines}\n`;
  return `${header}${state.rows.join("\n")}\n`;
}

// A replay's positions are graded with the player's flags untrusted (unknown cells).
function tileTrustsFlags() { return state.mode !== "review"; }

function tileKey(text, x, y) { return `${x},${y},${tileTrustsFlags()}\n${text}`; }

// Whether the panel still shows cell (x, y) of the position `text`.
function tileShowing(text, x, y) {
  const panel = $("tile-info");
  return !panel.hidden && +panel.dataset.x === x && +panel.dataset.y === y && tilePositionText() === text;
}

// Ask for the tile of the cell the panel shows, unless cached, in flight or already waiting.
function requestTile(text, x, y) {
  clearTimeout(tileInfo.timer);
  tileInfo.timer = setTimeout(() => sendTile(text, x, y), TILE_DELAY);
}

async function sendTile(text, x, y) {
  const key = tileKey(text, x, y);
  if (tileInfo.busy || tileInfo.cache.has(key) || !tileShowing(text, x, y)) return;
  tileInfo.busy = true;
  let entry;
  try {
    const body = { position: text, x, y, trust_flags: tileTrustsFlags() };
    entry = { data: await api("POST", "/api/tile", body) };
  } catch (e) {
    entry = { error: e.message || String(e), retry: TILE_RETRY.has(e.code) };
  }
  tileInfo.busy = false;
  if (tileInfo.cache.size >= TILE_CACHE_MAX) tileInfo.cache.clear();
  if (!entry.retry) tileInfo.cache.set(key, entry);
  const panel = $("tile-info");
  if (panel.hidden) return;
  if (entry.retry && tileShowing(text, x, y)) { showTileError(entry.error); return; }
  // the panel may have moved on while this one loaded: show (and ask for) what it shows now
  showTile(cellAt(+panel.dataset.x, +panel.dataset.y));
}

function showTileError(message) {
  const slot = $("tile-info").querySelector(".tile-chances");
  if (slot) slot.replaceChildren(tileRow("Digit chances", `not available: ${message}`));
}

function tileRow(key, value, cls) {
  const row = document.createElement("div");
  if (cls) row.className = cls;
  if (key) {
    const k = document.createElement("span");
    k.className = "tile-key";
    k.textContent = `${key}: `;
    row.appendChild(k);
  }
  const v = document.createElement("span");
  v.className = "tile-value";
  v.textContent = value;
  row.appendChild(v);
  return row;
}

// exactPercent, except that a chance neither 0 nor 1 never reads as 0.00% or 100.00%.
function chancePercent(p) {
  const shown = exactPercent(p);
  if (shown === "0.00%" && p !== "0") return "<0.01%";
  if (shown === "100.00%" && p !== "1") return ">99.99%";
  return shown;
}

// A percentage and, when the panel's fractions are all short enough to read (`frac`), the
// exact fraction beside it; the fraction is always in data-p (and in the row's title).
function chanceRow(key, p, cls, frac) {
  const row = tileRow(key, chancePercent(p), cls);
  row.dataset.p = p;
  row.title = p;
  if (frac && p.includes("/")) {
    const f = document.createElement("span");
    f.className = "tile-frac";
    f.textContent = ` (${p})`;
    row.appendChild(f);
  }
  return row;
}

// One bar per digit the cell can show: the digit in its classic colour, a bar as long as
// the chance, the percentage (and the fraction when short).
function digitRows(data, frac) {
  const box = document.createElement("div");
  box.className = "tile-digits";
  const floats = data.floats.digits;
  for (const [d, p] of Object.entries(data.digits)) {
    const row = chanceRow("", p, "tile-digit", frac);
    row.dataset.digit = d;
    const label = document.createElement("span");
    label.className = `tile-d d${d}`;
    label.textContent = d;
    const bar = document.createElement("span");
    bar.className = "tile-bar";
    const fill = document.createElement("span");
    fill.style.width = `${Math.max(1, Math.round(floats[d] * 100))}%`;
    bar.appendChild(fill);
    row.prepend(label, bar);
    box.appendChild(row);
  }
  return box;
}

// `approximate`: the board's analysis is an approximate engine's; these chances are still
// counted exactly, and the heading says so.
function chanceRows(data, approximate) {
  if (!Object.keys(data.digits).length) return [tileRow("", "A certain mine: it shows no digit")];
  const all = [...Object.values(data.digits), data.opening, data.progress];
  const frac = all.every((p) => p.length <= SHORT_FRACTION);  // fractions on every row or none
  const progress = chanceRow("Progress", data.progress, "tile-progress", frac);
  progress.title = `${data.progress}: the chance that it is safe and its number proves another cell safe`;
  return [
    tileRow("", approximate ? "If safe, it shows (counted exactly):" : "If safe, it shows:", "tile-sub"),
    digitRows(data, frac),
    chanceRow("Opens an area", data.opening, "tile-opening", frac),
    progress,
  ];
}

// Called by showTile (app.js) for a hidden cell: fills the panel's digit-chance section
// from the cache, or shows "…" and asks for it.
function tileDetails(panel, x, y, c) {
  if (c.p === "1" && (c.error === undefined || c.error === 0)) return;  // a mine shows no digit
  const text = tilePositionText();
  if (text === null) return;
  const slot = document.createElement("div");
  slot.className = "tile-chances";
  const entry = tileInfo.cache.get(tileKey(text, x, y));
  if (!entry) {
    slot.appendChild(tileRow("Digit chances", "…", "tile-loading"));
    requestTile(text, x, y);
  } else if (entry.error) {
    slot.appendChild(tileRow("Digit chances", `not available: ${entry.error}`));
  } else {
    slot.append(...chanceRows(entry.data, c.error !== undefined));
  }
  const best = panel.querySelector(".tile-best");
  panel.insertBefore(slot, best);
}
