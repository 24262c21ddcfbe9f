// cpknight playground: the board editor, the questions, the race rows and the player.
// Plain JavaScript, no build step, nothing loaded from the internet. It speaks the
// JSON API of cpknight/web/app.py (the one schema the command line prints).
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijklmnopqrstuvwxyz";
const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));

const state = {
  w: 8, h: 8, d: 1, blocked: new Set(), start: null, end: null, target: null,
  food: [], question: "tour", meta: null, run: null, source: null,
  row: null, path: [], closed: false, step: 0, playing: false, timer: null,
  distances: null, painting: null, named: "", swap: null, cover: null,
};
const KNIGHT_COLOURS = ["#f0f0f0", "#222222", "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9"];
// the player's frames: the moves of a swap, else the cells of a path
function frames() { return state.swap ? state.swap.steps.length : state.path.length; }

// ------------------------------------------------------------------- cells
const key = (cell) => cell.join(",");
const fromKey = (k) => k.split(",").map(Number);
function cellName(cell) {
  if (state.d === 1 && state.w <= 26) return FILES[cell[1]] + (cell[0] + 1);
  return cell.join(",");
}
function shape() { return state.d > 1 ? [state.d, state.h, state.w] : [state.h, state.w]; }
function allCells() {
  const out = [];
  for (let l = 0; l < state.d; l++)
    for (let r = 0; r < state.h; r++)
      for (let c = 0; c < state.w; c++) out.push(state.d > 1 ? [l, r, c] : [r, c]);
  return out;
}
function rectOf(cell) { return document.querySelector(`rect[data-cell="${cellName(cell)}"]`); }

// ------------------------------------------------------------------- drawing
function cellSize() {
  const side = Math.max(state.w, state.h);
  const room = Math.min(560, (window.innerWidth || 600) - 40);
  return Math.max(3, Math.min(48, Math.floor(room / side / (state.d > 1 ? Math.min(state.d, 2) : 1))));
}
function drawBoard() {
  const board = $("#board");
  board.textContent = "";
  const s = cellSize();
  for (let l = 0; l < state.d; l++) {
    const wrap = document.createElement("div");
    if (state.d > 1) {
      const t = document.createElement("div");
      t.className = "layer-title"; t.textContent = `layer ${l}`;
      wrap.appendChild(t);
    }
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${state.w * s} ${state.h * s}`);
    svg.setAttribute("width", state.w * s);
    svg.setAttribute("height", state.h * s);
    svg.dataset.layer = l;
    const cells = document.createElementNS(SVGNS, "g");
    for (let r = 0; r < state.h; r++) {
      for (let c = 0; c < state.w; c++) {
        const cell = state.d > 1 ? [l, r, c] : [r, c];
        const rect = document.createElementNS(SVGNS, "rect");
        rect.setAttribute("x", c * s);
        rect.setAttribute("y", (state.h - 1 - r) * s);
        rect.setAttribute("width", s);
        rect.setAttribute("height", s);
        rect.setAttribute("class", "sq " + ((r + c + l) % 2 ? "light" : "dark"));
        rect.dataset.cell = cellName(cell);
        rect.dataset.key = key(cell);
        if (state.blocked.has(key(cell))) rect.dataset.blocked = "true";
        cells.appendChild(rect);
      }
    }
    svg.appendChild(cells);
    const over = document.createElementNS(SVGNS, "g");
    over.setAttribute("class", "over");
    svg.appendChild(over);
    wrap.appendChild(svg);
    board.appendChild(wrap);
  }
  drawOverlay();
}
function centre(cell) {
  const s = cellSize();
  const r = cell[cell.length - 2], c = cell[cell.length - 1];
  return [c * s + s / 2, (state.h - 1 - r) * s + s / 2];
}
function layerOf(cell) { return state.d > 1 ? cell[0] : 0; }
function svgText(g, x, y, text, cls, size, fill) {
  const t = document.createElementNS(SVGNS, "text");
  t.setAttribute("x", x); t.setAttribute("y", y);
  t.setAttribute("class", cls);
  t.setAttribute("font-size", size);
  if (fill) t.setAttribute("fill", fill);
  t.textContent = text;
  g.appendChild(t);
}
function heat(value, max) {
  // light to dark blue (sequential, colour-blind safe); numbers flip to white
  const t = max > 0 ? value / max : 0;
  const from = [239, 246, 255], to = [8, 48, 107];
  const mix = from.map((v, i) => Math.round(v + (to[i] - v) * t));
  return [`rgb(${mix.join(",")})`, t > 0.55 ? "#fff" : "#111"];
}
function drawOverlay() {
  const s = cellSize();
  const layers = $$("#board svg");
  for (const svg of layers) svg.querySelector("g.over").textContent = "";
  for (const rect of $$("rect.sq")) {
    rect.classList.remove("why", "dominated");
    rect.style.fill = "";
  }
  const over = (cell) => layers[layerOf(cell)].querySelector("g.over");
  // the heat map of a distance
  if (state.distances) {
    let max = 0;
    for (const cell of allCells()) { const v = distanceAt(cell); if (v !== null && v > max) max = v; }
    for (const cell of allCells()) {
      const v = distanceAt(cell);
      const rect = rectOf(cell);
      if (!rect || state.blocked.has(key(cell))) continue;
      if (v === null) { rect.style.fill = "#fff"; continue; }
      const [fill, ink] = heat(v, max);
      rect.style.fill = fill;
      if (s >= 12) { const [x, y] = centre(cell); svgText(over(cell), x, y, String(v), "num", s * 0.45, ink); }
    }
  }
  // why not: the cells the reason names
  if (state.row && state.row.highlight) {
    for (const cell of state.row.highlight) { const rect = rectOf(cell); if (rect) rect.classList.add("why"); }
  }
  // the path so far, numbered when the cells are big enough
  const path = state.path.slice(0, state.step);
  if (path.length) {
    const byLayer = new Map();
    let runCells = [];
    const flush = () => { if (runCells.length > 1) drawLine(over(runCells[0]), runCells, s); runCells = []; };
    for (let i = 0; i < path.length; i++) {
      const cell = path[i];
      if (runCells.length && !isNear(runCells[runCells.length - 1], cell)) flush();
      runCells.push(cell);
      byLayer.set(layerOf(cell), true);
    }
    flush();
    if (state.closed && state.step === frames() && path.length > 2 && isNear(path[path.length - 1], path[0])) {
      drawLine(over(path[0]), [path[path.length - 1], path[0]], s, true);
    }
    if (s >= 14 && path.length <= 900) {
      path.forEach((cell, i) => { const [x, y] = centre(cell); svgText(over(cell), x, y - s * 0.22, String(i + 1), "num", s * 0.3); });
    }
    const last = path[path.length - 1];
    const [x, y] = centre(last);
    const k = document.createElementNS(SVGNS, "circle");
    k.setAttribute("cx", x); k.setAttribute("cy", y); k.setAttribute("r", Math.max(2, s * 0.3));
    k.setAttribute("class", "knight");
    k.dataset.knight = cellName(last);
    over(last).appendChild(k);
  }
  if (state.swap) drawSwap(over, s);
  if (state.cover) drawCover(over, s);
  // the marks: start, end, target, food
  const marks = [[state.start, "S", "#0072b2"], [state.end, "E", "#e69f00"], [state.target, "T", "#cc79a7"]];
  for (const cell of state.food) marks.push([cell, "F", "#009e73"]);
  for (const [cell, letter, colour] of marks) {
    if (!cell) continue;
    const [x, y] = centre(cell);
    const g = over(cell);
    const ring = document.createElementNS(SVGNS, "circle");
    ring.setAttribute("cx", x); ring.setAttribute("cy", y); ring.setAttribute("r", Math.max(2, s * 0.42));
    ring.setAttribute("fill", "none"); ring.setAttribute("stroke", colour);
    ring.setAttribute("stroke-width", Math.max(1.5, s * 0.08));
    ring.style.pointerEvents = "none";
    g.appendChild(ring);
    if (s >= 14) svgText(g, x + s * 0.28, y + s * 0.28, letter, "mark", s * 0.3, colour);
  }
  $("#step-label").textContent = `step ${state.step} / ${frames()}`;
}
function drawSwap(over, s) {
  // the knights where they stand after state.step moves, the last move drawn
  const sw = state.swap;
  const now = sw.placements[state.step];
  if (state.step > 0) {
    const [a, b] = sw.steps[state.step - 1];
    drawLine(over(a), [a, b], s, true);
  }
  for (const [k, colour] of now) {
    const cell = fromKey(k);
    const [x, y] = centre(cell);
    const dot = document.createElementNS(SVGNS, "circle");
    dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", Math.max(3, s * 0.34));
    // white knights light, black knights dark, other colours from the palette
    const named = { W: 0, B: 1 }[colour];
    const i = named !== undefined ? named : 2 + (sw.colours.indexOf(colour) % (KNIGHT_COLOURS.length - 2));
    dot.setAttribute("fill", KNIGHT_COLOURS[i]);
    dot.setAttribute("stroke", "#111"); dot.setAttribute("stroke-width", Math.max(1, s * 0.05));
    dot.setAttribute("class", "swap-knight");
    dot.dataset.knight = cellName(cell);
    dot.dataset.colour = colour;
    over(cell).appendChild(dot);
    if (s >= 14) svgText(over(cell), x, y + s * 0.1, colour, "num", s * 0.32, i === 1 ? "#fff" : "#111");
  }
}
function drawCover(over, s) {
  // the dominated cells shaded, the knights on their cells
  for (const cell of state.cover.dominated) {
    const rect = rectOf(cell);
    if (rect) { rect.style.fill = "#9ecae1"; rect.classList.add("dominated"); }
  }
  for (const cell of state.cover.knights) {
    const [x, y] = centre(cell);
    const dot = document.createElementNS(SVGNS, "circle");
    dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", Math.max(2, s * 0.32));
    dot.setAttribute("fill", "#d55e00"); dot.setAttribute("stroke", "#111");
    dot.setAttribute("class", "cover-knight");
    dot.dataset.knight = cellName(cell);
    over(cell).appendChild(dot);
  }
}
function showSwap(row) {
  // the puzzle's own board, then each placement after 0, 1, ... moves
  const dims = row.board_shape;
  state.d = 1; state.h = dims[0]; state.w = dims[1];
  state.blocked = new Set((row.board_blocked || []).map(key));
  $("#width").value = state.w; $("#height").value = state.h; $("#depth").value = 1;
  state.start = state.end = state.target = null; state.food = [];
  showCells(); drawBoard();
  if (!row.steps) { state.swap = null; return; }
  let now = new Map();
  for (const [colour, cells] of Object.entries(row.start_knights)) for (const c of cells) now.set(key(c), colour);
  const placements = [new Map(now)];
  for (const [a, b] of row.steps) {
    const colour = now.get(key(a));
    now.delete(key(a)); now.set(key(b), colour);
    placements.push(new Map(now));
  }
  state.swap = { steps: row.steps, placements, colours: row.colours };
  state.step = 0;
}
function isNear(a, b) {
  // draw a straight segment unless the move wraps around a torus or cylinder
  if (layerOf(a) !== layerOf(b)) return false;
  const n = a.length;
  return Math.abs(a[n - 1] - b[n - 1]) <= 4 && Math.abs(a[n - 2] - b[n - 2]) <= 4;
}
function drawLine(g, cells, s, ghost) {
  const line = document.createElementNS(SVGNS, "polyline");
  line.setAttribute("points", cells.map((c) => centre(c).join(",")).join(" "));
  line.setAttribute("class", ghost ? "path ghost" : "path");
  line.setAttribute("stroke-width", Math.max(1, s * 0.08));
  g.appendChild(line);
}
function distanceAt(cell) {
  let v = state.distances;
  for (const i of cell) { if (v === null || v === undefined) return null; v = v[i]; }
  return v === undefined ? null : v;
}

// ------------------------------------------------------------------- editing
function clearAnswer() {
  stop();
  state.row = null; state.path = []; state.step = 0; state.distances = null; state.swap = null; state.cover = null;
  $("#answer").dataset.result = "";
  $("#answer").textContent = "";
}
function setCellMark(cell, mode) {
  const k = key(cell);
  const same = (other) => other && key(other) === k;
  if (state.blocked.has(k)) return;
  if (mode === "start") state.start = same(state.start) ? null : cell;
  else if (mode === "end") state.end = same(state.end) ? null : cell;
  else if (mode === "target") state.target = same(state.target) ? null : cell;
  else if (mode === "food") {
    const i = state.food.findIndex(same);
    if (i >= 0) state.food.splice(i, 1); else state.food.push(cell);
  }
  showCells();
}
function showCells() {
  $("#start-out").textContent = state.start ? cellName(state.start) : "free";
  $("#end-out").textContent = state.end ? cellName(state.end) : "free";
  $("#target-out").textContent = state.target ? cellName(state.target) : "none";
  $("#food-out").textContent = state.food.length ? state.food.map(cellName).join(" ") : "none";
}
function paint(rect, blocked) {
  const k = rect.dataset.key;
  if (blocked) {
    state.blocked.add(k); rect.dataset.blocked = "true";
    for (const name of ["start", "end", "target"]) if (state[name] && key(state[name]) === k) state[name] = null;
    state.food = state.food.filter((c) => key(c) !== k);
  } else { state.blocked.delete(k); delete rect.dataset.blocked; }
  state.named = "";
  $("#named").value = "";
}
function onPointerDown(event) {
  const rect = event.target.closest("rect.sq");
  if (!rect) return;
  event.preventDefault();
  clearAnswer();
  const cell = fromKey(rect.dataset.key);
  const mode = event.shiftKey ? "start" : event.altKey ? "end" : $("#mode").value;
  if (mode !== "block") {
    setCellMark(cell, mode);
    // the start set, a distance asks for its target next, a route for its food
    const next = { distance: "target", route: "food" }[state.question];
    if (mode === "start" && !event.shiftKey && next && state.start) $("#mode").value = next;
    drawOverlay();
    return;
  }
  state.painting = !state.blocked.has(rect.dataset.key);
  paint(rect, state.painting);
  showCells();
  drawOverlay();
}
function onPointerOver(event) {
  if (state.painting === null) return;
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const rect = target && target.closest ? target.closest("rect.sq") : null;
  if (rect && (rect.dataset.blocked === "true") !== state.painting) { paint(rect, state.painting); drawOverlay(); }
}
function resize() {
  const w = clampInt($("#width").value, 1, 200, 8), h = clampInt($("#height").value, 1, 200, 8);
  const d = clampInt($("#depth").value, 1, 8, 1);
  state.w = w; state.h = h; state.d = d;
  state.blocked = new Set(); state.start = state.end = state.target = null; state.food = [];
  clearAnswer(); showCells(); drawBoard();
}
function clampInt(text, lo, hi, dflt) {
  const v = parseInt(text, 10);
  return Number.isFinite(v) ? Math.max(lo, Math.min(hi, v)) : dflt;
}
function loadBoard(document_) {
  const b = document_.boards[0];
  const dims = b.shape;
  state.d = dims.length === 3 ? dims[0] : 1;
  state.h = dims[dims.length - 2] || 1; state.w = dims[dims.length - 1];
  if (dims.length === 1) { state.h = 1; state.w = dims[0]; }
  state.blocked = new Set(b.blocked.map((c) => key(dims.length === 1 ? [0, c[0]] : c)));
  $("#width").value = state.w; $("#height").value = state.h; $("#depth").value = state.d;
  state.start = b.start_hint; state.end = state.target = null; state.food = [];
  clearAnswer(); showCells(); drawBoard();
}

// ------------------------------------------------------------------- requests
function boardSpec() {
  const spec = { shape: shape(), blocked: Array.from(state.blocked, fromKey), topology: $("#topology").value };
  if (state.named) spec.name = state.named;
  return spec;
}
function pieceSpec() {
  const p = $("#piece").value;
  return p === "custom" ? ($("#piece-vector").value.trim() || "1,2") : p;
}
function words(id) { return $(id).value.split(/[\s;]+/).filter(Boolean); }
function checkedMethods() { return $$("#engines input:checked").map((i) => i.value); }
function jobBody() {
  const q = state.question;
  const body = {
    question: q, board: boardSpec(), piece: pieceSpec(), methods: checkedMethods(),
    time_limit: parseFloat($("#time-limit").value) || 10,
  };
  if (q === "tour" || q === "count" || q === "longest") body.closed = $("#closed").checked;
  if (["tour", "count", "distance", "route"].includes(q) && state.start) body.start = state.start;
  if (q === "dominate") body.kind = $("#cover-kind").value;
  if ((q === "tour" || q === "count" || q === "route") && state.end) body.end = state.end;
  if (q === "distance" && state.target) body.target = state.target;
  if (q === "route") { body.food = state.food; body.simple = $("#simple").checked; }
  if (q === "longest") body.kind = $("#induced").checked ? "induced" : "uncrossed";
  if (q === "tour") {
    const c = { via: words("#via"), require: words("#require"), forbid: words("#forbid") };
    if ($("#symmetric").value) c.symmetric = $("#symmetric").value;
    if (c.via.length || c.require.length || c.forbid.length || c.symmetric) body.constraints = c;
    if ($("#min").value !== "none") body.min = $("#min").value;
    if ($("#magic").checked) body.magic = true;
  }
  if (q === "swap") {
    const p = $("#puzzle").value;
    return {
      question: q, puzzle: p === "text" ? $("#puzzle-text").value : p, piece: pieceSpec(),
      topology: $("#topology").value, methods: checkedMethods(),
      time_limit: parseFloat($("#time-limit").value) || 10,
    };
  }
  return body;
}
async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error((data && data.error) || `HTTP ${response.status}`);
  return data;
}
function say(text, error) {
  const m = $("#message");
  m.textContent = text || "";
  m.classList.toggle("error", !!error);
}
function setStatus(word) { $("#status").dataset.status = word; $("#status").textContent = word; }

// ------------------------------------------------------------------- solving
function effortText(effort) {
  return Object.entries(effort || {}).map(([k, v]) => `${k} ${v}`).join(", ");
}
function showRows(methods, rows) {
  const body = $("#rows tbody");
  body.textContent = "";
  for (const method of methods) {
    const row = rows.find((r) => r.engine === method);
    const tr = document.createElement("tr");
    tr.dataset.method = method;
    const cells = [method, row ? row.status : "running", row ? row.seconds.toFixed(3) : "", row ? effortText(row.effort) : ""];
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (i === 1) td.dataset.rowStatus = row ? row.status : "running";
      if (i === 2) td.className = "num-col";
      tr.appendChild(td);
    });
    if (row && row.reason) tr.title = row.reason;
    body.appendChild(tr);
  }
}
const RANK = { found: 0, optimal: 0, infeasible: 1, feasible: 2, unknown: 3, refused: 4 };
function bestRow(rows) {
  return rows.slice().sort((a, b) => (RANK[a.status] - RANK[b.status]) || (a.seconds - b.seconds))[0] || null;
}
async function solve() {
  clearAnswer();
  say("");
  const body = jobBody();
  if (state.question === "distance" && !state.target) {  // the map alone
    await showMap(body);
    return;
  }
  setStatus("running");
  $('[data-action="cancel"]').disabled = false;
  $('[data-action="solve"]').disabled = true;
  let run;
  try {
    run = await post("/api/runs", body);
  } catch (err) { finish(); setStatus("refused"); say(err.message, true); return; }
  state.run = run;
  const methods = run.running.slice();
  const rows = [];
  showRows(methods, rows);
  if (state.question === "distance") showMap(body);
  const source = new EventSource(`/api/runs/${run.id}/events`);
  state.source = source;
  source.addEventListener("row", (e) => {
    const row = JSON.parse(e.data);
    rows.push(row);
    showRows(methods, rows);
  });
  source.addEventListener("done", (e) => {
    source.close();
    state.source = null;
    const doc = JSON.parse(e.data);
    showRows(methods, doc.rows);
    showAnswer(doc);
    finish();
  });
  source.onerror = () => {
    // the stream broke (a proxy, a sleeping laptop): read the run until it is done
    if (state.source !== source) return;
    source.close();
    state.source = null;
    poll(run.id, methods);
  };
}
async function poll(id, methods) {
  try {
    const response = await fetch(`/api/runs/${id}`);
    if (!response.ok) throw new Error((await response.json()).error);
    const doc = await response.json();
    showRows(methods, doc.rows);
    if (doc.state === "done") { showAnswer(doc); finish(); return; }
    setTimeout(() => poll(id, methods), 250);
  } catch (err) { finish(); setStatus(""); say(err.message, true); }
}
function finish() {
  $('[data-action="cancel"]').disabled = true;
  $('[data-action="solve"]').disabled = false;
}
async function cancel() {
  if (!state.run) return;
  try { await post(`/api/runs/${state.run.id}/cancel`, {}); } catch (err) { say(err.message, true); }
}
async function showMap(body) {
  try {
    const doc = await post("/api/map", body);
    state.distances = doc.distances;
    if (!state.target) {
      setStatus("found");
      $("#answer").dataset.result = JSON.stringify(doc);
      $("#answer").textContent = `moves from ${cellName(doc.source)}: at most ${maxOf(doc.distances)}`;
    }
    drawOverlay();
  } catch (err) { setStatus("refused"); say(err.message, true); }
}
function maxOf(nested) {
  let max = 0;
  const walk = (v) => { if (Array.isArray(v)) v.forEach(walk); else if (v !== null && v > max) max = v; };
  walk(nested);
  return max;
}
function showAnswer(doc) {
  const row = bestRow(doc.rows);
  state.row = row;
  const word = row ? row.status : "unknown";
  setStatus(word);
  if (doc.errors) say(doc.errors.join("; "), true);
  if (!row) return;
  $("#answer").dataset.result = JSON.stringify(row);
  const lines = [];
  if (row.board_shape) showSwap(row);
  if (row.steps) {
    lines.push(`${row.status} by ${row.method} in ${row.seconds.toFixed(3)} s: ${row.moves} moves`);
    lines.push(row.steps.map(([a, b]) => `${cellName(a)}-${cellName(b)}`).join(" "));
  } else if (row.cells && (state.question === "dominate" || state.question === "independent")) {
    state.cover = { knights: row.cells, dominated: row.dominated || [] };
    const bound = row.status === "feasible" && row.bound !== undefined ? ` (at least ${row.bound})` : "";
    const lp = row.lp_bound !== null && row.lp_bound !== undefined ? `; LP bound ${row.lp_bound}` : "";
    lines.push(`${row.status} by ${row.method} in ${row.seconds.toFixed(3)} s: ${row.size} knights${bound}, ${row.kind}${lp}`);
    lines.push(row.cells.map(cellName).join(" "));
  } else if (row.cells) {
    state.path = row.cells; state.step = row.cells.length; state.closed = !!row.closed;
    const what = state.question === "distance" ? `${row.distance} moves` :
      state.question === "route" ? `${row.moves} moves` :
      state.question === "longest" ? `${row.moves} moves` : `${row.cells.length} cells`;
    const score = ["turns", "crossings"].filter((k) => row[k] !== undefined && row[k] !== null).map((k) => `, ${row[k]} ${k}`).join("");
    lines.push(`${row.status} by ${row.winner ? `race (${row.winner} won)` : row.method} in ${row.seconds.toFixed(3)} s: ${what}${score}`);
    if (row.cells.length <= 400) lines.push(row.cells.map(cellName).join(" "));
  } else if (row.directed !== undefined && row.directed !== null) {
    lines.push(`${row.status}: ${row.directed} directed, ${row.undirected} undirected tours (${row.method}, ${row.seconds.toFixed(3)} s)`);
  } else {
    lines.push(`${row.status}${row.reason ? ": " + row.reason : ""}`);
  }
  if (row.status === "infeasible" && row.reason) lines[0] = `why not: ${row.reason}`;
  $("#answer").textContent = lines.join("\n");
  drawOverlay();
}

// ------------------------------------------------------------------- player
function delay() { return 1000 / (parseInt($("#speed").value, 10) || 8); }
function play() {
  if (!frames()) return;
  if (state.playing) { stop(); return; }
  if (state.step >= frames()) state.step = 0;
  state.playing = true;
  $('[data-action="play"]').textContent = "\u275a\u275a pause";
  const tick = () => {
    if (!state.playing) return;
    if (state.step >= frames()) { stop(); return; }
    state.step += 1; drawOverlay();
    state.timer = setTimeout(tick, delay());
  };
  tick();
}
function stop() {
  state.playing = false;
  clearTimeout(state.timer);
  const button = $('[data-action="play"]');
  if (button) button.textContent = "\u25b6 play";
}
function step(by) {
  if (!frames()) return;
  stop();
  state.step = Math.max(0, Math.min(frames(), state.step + by));
  drawOverlay();
}

// ------------------------------------------------------------------- model, files
async function showModel() {
  const pre = $("#model");
  try {
    const doc = await post("/api/formulation", jobBody());
    pre.textContent = doc.formulation; pre.hidden = false;
  } catch (err) { pre.textContent = err.message; pre.hidden = false; }
}
function saveText(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
}
async function download(kind) {
  try {
    if (kind === "json") {
      const text = $("#answer").dataset.result;
      if (!text) throw new Error("no answer yet");
      saveText("answer.json", text, "application/json");
      return;
    }
    if (kind === "tour" || kind === "svg") {
      const body = jobBody();
      if (["tour", "route", "longest"].includes(state.question)) {
        if (!state.row || !state.row.cells) throw new Error("no answer yet");
        body.cells = state.row.cells;
      }
      const response = await fetch(`/api/picture?format=${kind}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error((await response.json()).error);
      saveText(kind === "svg" ? "cpknight.svg" : "tour.txt", await response.text(), kind === "svg" ? "image/svg+xml" : "text/plain");
      return;
    }
    const response = await fetch(`/api/export?format=${kind}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(jobBody()) });
    if (!response.ok) throw new Error((await response.json()).error);
    saveText(`model.${kind}`, await response.text(), "text/plain");
  } catch (err) { say(err.message, true); }
}

// ------------------------------------------------------------------- questions
function setQuestion(q) {
  state.question = q;
  for (const b of $$(".questions button")) b.classList.toggle("on", b.dataset.action === `question-${q}`);
  for (const el of $$("[data-for]")) el.hidden = !el.dataset.for.split(" ").includes(q);
  if (q === "longest") $("#open").checked = true;
  else if (q === "tour") $("#closed").checked = true;
  if (q === "distance") $("#mode").value = state.start ? "target" : "start";
  else if (q === "route") $("#mode").value = state.start ? "food" : "start";
  else $("#mode").value = "block";
  const box = $("#engines");
  box.textContent = "";
  if (!state.meta) return;
  const info = state.meta.questions[q];
  const names = (info.auto ? ["auto"] : []).concat(info.methods.map((m) => m.name));
  names.forEach((name, i) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox"; input.value = name; input.checked = i === 0;
    input.dataset.field = `engine-${name}`;
    const m = info.methods.find((x) => x.name === name);
    label.title = m ? m.summary : "let cpknight pick";
    label.appendChild(input); label.append(" " + name);
    box.appendChild(label);
  });
  clearAnswer();
  drawOverlay();
}

// ------------------------------------------------------------------- start-up
async function init() {
  document.body.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action.startsWith("question-")) setQuestion(action.slice(9));
    else if (action === "solve") solve();
    else if (action === "cancel") cancel();
    else if (action === "play") play();
    else if (action === "step") step(1);
    else if (action === "back") step(-1);
    else if (action === "clear") resize();
    else if (action === "model") showModel();
    else if (action.startsWith("download-")) download(action.slice(9));
    else if (action === "load-text") loadText();
    else if (action === "show-text") showText();
  });
  const board = $("#board");
  board.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerOver);
  document.addEventListener("pointerup", () => { state.painting = null; });
  for (const id of ["#width", "#height", "#depth"]) $(id).addEventListener("change", resize);
  $("#piece").addEventListener("change", () => { $("#piece-vector").hidden = $("#piece").value !== "custom"; });
  $("#named").addEventListener("change", loadNamed);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    if (event.key === " ") { event.preventDefault(); play(); }
    else if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
    else if (event.key === "+" || event.key === "=") $("#speed").value = String(parseInt($("#speed").value, 10) + 2);
    else if (event.key === "-") $("#speed").value = String(parseInt($("#speed").value, 10) - 2);
  });
  drawBoard();
  try {
    state.meta = await (await fetch("/api/meta")).json();
    for (const name of Object.keys(state.meta.boards)) {
      const o = document.createElement("option"); o.value = name; o.textContent = name; $("#named").appendChild(o);
    }
    for (const name of state.meta.symmetries) {
      const o = document.createElement("option"); o.value = name; o.textContent = name; $("#symmetric").appendChild(o);
    }
  } catch (err) { say("cannot reach the server: " + err.message, true); }
  setQuestion("tour");
  document.body.dataset.ready = "true";
}
async function loadNamed() {
  const name = $("#named").value;
  if (!name) return;
  try {
    loadBoard(await post("/api/board", { board: name, topology: $("#topology").value }));
    state.named = name; $("#named").value = name;
  } catch (err) { say(err.message, true); }
}
async function loadText() {
  try { loadBoard(await post("/api/board", { board_text: $("#board-text").value })); say(""); }
  catch (err) { say(err.message, true); }
}
function showText() {
  const layers = [];
  for (let l = 0; l < state.d; l++) {
    const lines = [];
    for (let r = state.h - 1; r >= 0; r--) {
      const row = [];
      for (let c = 0; c < state.w; c++) row.push(state.blocked.has(key(state.d > 1 ? [l, r, c] : [r, c])) ? "#" : ".");
      lines.push(row.join(" "));
    }
    layers.push(lines.join("\n"));
  }
  $("#board-text").value = layers.join("\n\n");
}
init();
