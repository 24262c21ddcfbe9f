// cpknight playground: the editor, the questions, the race rows and the player.
// Plain JavaScript, no build step, nothing loaded from the internet. It speaks the
// JSON API of cpknight/web/app.py (the one schema the command line prints); the
// drawing is board.js, touring by hand, undo and the keyboard hand.js.
"use strict";

const state = {
  w: 8, h: 8, d: 1, blocked: new Set(), start: null, end: null, target: null,
  food: [], question: "tour", meta: null, run: null, source: null,
  row: null, path: [], from: 0, closed: false, step: 0, playing: false, timer: null,
  distances: null, painting: null, named: "", swap: null, cover: null, puzzle: null,
  mode: "block", hand: [], legal: null, hints: false, graph: null,
  history: [], future: [], zoom: 1, focus: null, spots: null, userBoard: null,
  fields: null, hover: null,
};
// the player's frames: the moves of a swap, else the cells of a path
function frames() { return state.swap ? state.swap.steps.length : state.path.length; }

// ------------------------------------------------------------------- editing
function dropRun() {
  // a run still going answers a question no longer asked: stop it, forget it
  if (state.source) { state.source.close(); state.source = null; }
  if (state.run && !state.run.over) {
    fetch(`/api/runs/${state.run.id}/cancel`, { method: "POST" }).catch(() => {});
  }
  state.run = null;
  finish();
}
function clearAnswer() {
  stop();
  dropRun();
  state.row = null; state.path = []; state.step = 0; state.from = 0; state.distances = null; state.cover = null;
  state.swap = state.puzzle ? puzzleFrames(state.puzzle) : null;
  $("#answer").dataset.result = "";
  $("#answer").textContent = "";
  $("#rows tbody").textContent = "";
  setStatus("");
  say("");
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
function boardEdited() {
  // the board changed: its hand path and its answers no longer hold
  state.hand = []; state.legal = null;
  state.named = ""; $("#named").value = "";
}
function paint(rect, blocked) {
  const k = rect.dataset.key;
  if (blocked) {
    state.blocked.add(k); rect.dataset.blocked = "true";
    for (const name of ["start", "end", "target"]) if (state[name] && key(state[name]) === k) state[name] = null;
    state.food = state.food.filter((c) => key(c) !== k);
  } else { state.blocked.delete(k); delete rect.dataset.blocked; }
}
function actOnCell(rect, event) {
  // a click, a tap, or Enter on a focused cell: what the click mode says
  const cell = fromKey(rect.dataset.key);
  if (state.focus !== rect.dataset.key) {
    const old = rectOfKey(state.focus);
    if (old) old.setAttribute("tabindex", "-1");
    state.focus = rect.dataset.key; rect.setAttribute("tabindex", "0");
  }
  const mode = event.shiftKey ? "start" : event.altKey ? "end" : state.mode;
  if (mode === "hand") { handClick(cell); return false; }
  record();
  clearAnswer();
  if (mode !== "block") {
    setCellMark(cell, mode);
    // the start set, a distance asks for its target next, a route for its food
    const next = { distance: "target", route: "food" }[state.question];
    if (mode === "start" && !event.shiftKey && next && state.start) setMode(next);
    drawOverlay();
    return false;
  }
  boardEdited();
  const blocking = !state.blocked.has(rect.dataset.key);
  paint(rect, blocking);
  showCells();
  drawOverlay();
  return blocking;
}
function onPointerDown(event) {
  const rect = event.target.closest("rect.sq");
  if (!rect || event.button > 0) return;
  event.preventDefault();
  const blocking = actOnCell(rect, event);
  if (state.mode === "block" && !event.shiftKey && !event.altKey) state.painting = blocking;
}
function onPointerOver(event) {
  if (state.painting === null) return;
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const rect = target && target.closest ? target.closest("rect.sq") : null;
  if (rect && (rect.dataset.blocked === "true") !== state.painting) { paint(rect, state.painting); drawOverlay(); }
}
function resize() {
  record();
  const w = clampInt($("#width").value, 1, 200, 8), h = clampInt($("#height").value, 1, 200, 8);
  const d = clampInt($("#depth").value, 1, 8, 1);
  state.w = w; state.h = h; state.d = d;
  state.blocked = new Set(); state.start = state.end = state.target = null; state.food = [];
  boardEdited(); clearAnswer(); showCells(); drawBoard();
  if (handShown()) startHand();
}
function clampInt(text, lo, hi, dflt) {
  const v = parseInt(text, 10);
  return Number.isFinite(v) ? Math.max(lo, Math.min(hi, v)) : dflt;
}
function loadBoard(document_, remember) {
  if (remember !== false) record();
  const b = document_.boards[0];
  const dims = b.shape;
  state.d = dims.length === 3 ? dims[0] : 1;
  state.h = dims[dims.length - 2] || 1; state.w = dims[dims.length - 1];
  if (dims.length === 1) { state.h = 1; state.w = dims[0]; }
  state.blocked = new Set(b.blocked.map((c) => key(dims.length === 1 ? [0, c[0]] : c)));
  $("#width").value = state.w; $("#height").value = state.h; $("#depth").value = state.d;
  state.start = b.start_hint; state.end = state.target = null; state.food = [];
  boardEdited(); clearAnswer(); showCells(); drawBoard();
  if (handShown()) startHand();
}
function setMode(mode) {
  state.mode = mode;
  for (const b of $$(".modes button")) b.setAttribute("aria-pressed", String(b.dataset.action === `mode-${mode}`));
  if (mode !== "hand") { state.legal = null; $("#message").dataset.verdict = ""; }
  refreshHand();
}
function zoom(by) {
  state.zoom = Math.max(0.5, Math.min(8, state.zoom * by));
  $("#zoom-level").textContent = `${Math.round(state.zoom * 100)}%`;
  drawBoard();
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
    return {
      question: q, puzzle: puzzleSpec(), piece: pieceSpec(),
      topology: $("#topology").value, methods: checkedMethods(),
      time_limit: parseFloat($("#time-limit").value) || 10,
    };
  }
  return body;
}
function puzzleSpec() { const p = $("#puzzle").value; return p === "text" ? $("#puzzle-text").value : p; }
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
function setStatus(word, shown) {
  $("#status").dataset.status = word;
  $("#status").textContent = shown === undefined ? word : shown;
}

// ------------------------------------------------------------------- solving
function effortText(effort) {
  return Object.entries(effort || {}).map(([k, v]) => `${k} ${v}`).join(", ");
}
const cancelled = (row) => row.status === "unknown" && (row.reason || "").startsWith("cancelled");
function showRows(methods, rows) {
  const body = $("#rows tbody");
  body.textContent = "";
  for (const method of methods) {
    const row = rows.find((r) => r.engine === method);
    const tr = document.createElement("tr");
    tr.dataset.method = method;
    const word = row ? (cancelled(row) ? "cancelled" : row.status) : "running";
    const cells = [method, word, row ? row.seconds.toFixed(3) : "", row ? effortText(row.effort) : ""];
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
async function solve(asked) {
  const hand = asked && asked.question === "complete";
  if (!hand && handShown()) setMode("block");  // the answer's path, not the hand's
  clearAnswer();
  const body = asked || jobBody();
  if (state.question === "distance" && !state.target && !hand) {  // the map alone
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
  if (state.question === "distance" && !hand) showMap(body);
  const source = new EventSource(`/api/runs/${run.id}/events`);
  state.source = source;
  source.addEventListener("row", (e) => {
    if (state.run !== run) return;
    rows.push(JSON.parse(e.data));
    showRows(methods, rows);
  });
  source.addEventListener("done", (e) => {
    source.close();
    if (state.run !== run) return;
    state.source = null; run.over = true;
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
    poll(run, methods);
  };
}
async function poll(run, methods) {
  if (state.run !== run) return;
  try {
    const response = await fetch(`/api/runs/${run.id}`);
    if (!response.ok) throw new Error((await response.json()).error);
    const doc = await response.json();
    if (state.run !== run) return;
    showRows(methods, doc.rows);
    if (doc.state === "done") { run.over = true; showAnswer(doc); finish(); return; }
    setTimeout(() => poll(run, methods), 250);
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
function showAnswer(doc) {
  const row = bestRow(doc.rows);
  state.row = row;
  const word = row ? row.status : "unknown";
  setStatus(word, doc.cancelled && word === "unknown" ? "cancelled" : word);
  if (doc.errors) say(doc.errors.join("; "), true);
  if (!row) return;
  $("#answer").dataset.result = JSON.stringify(row);
  const lines = [];
  const by = `${row.winner ? `race (${row.winner} won)` : row.method} in ${row.seconds.toFixed(3)} s`;
  if (row.board_shape) showSwap(row);
  if (row.steps) {
    lines.push(`${row.status} by ${by}: ${row.moves} moves`);
    lines.push(row.steps.map(([a, b]) => `${cellName(a)}-${cellName(b)}`).join(" "));
  } else if (row.cells && (state.question === "dominate" || state.question === "independent")) {
    state.cover = { knights: row.cells, dominated: row.dominated || [] };
    const bound = row.status === "feasible" && row.bound !== undefined ? ` (at least ${row.bound})` : "";
    const lp = row.lp_bound !== null && row.lp_bound !== undefined ? `; LP bound ${row.lp_bound}` : "";
    lines.push(`${row.status} by ${row.method} in ${row.seconds.toFixed(3)} s: ${row.size} knights${bound}, ${row.kind}${lp}`);
    lines.push(row.cells.map(cellName).join(" "));
  } else if (row.cells && doc.question === "complete") {
    // a way to finish, from the knight's cell on: played from there
    state.path = row.cells; state.from = doc.instance.path.length; state.step = row.cells.length; state.closed = !!row.closed;
    const kind = row.closed ? "a closed" : "an open";
    lines.push(`yes: ${kind} tour goes on from ${cellName(row.cells[state.from - 1])}, ${row.cells.length - state.from} more moves (${by}); play or step through it`);
    tell(`${lines[0]} (Home: back to your moves)`, "can-finish");
    if (row.cells.length <= 400) lines.push(row.cells.slice(state.from).map(cellName).join(" "));
  } else if (row.cells) {
    state.path = row.cells; state.step = row.cells.length; state.closed = !!row.closed;
    const what = state.question === "distance" ? `${row.distance} moves` :
      state.question === "route" ? `${row.moves} moves` :
      state.question === "longest" ? `${row.moves} moves` : `${row.cells.length} cells`;
    const score = ["turns", "crossings"].filter((k) => row[k] !== undefined && row[k] !== null).map((k) => `, ${row[k]} ${k}`).join("");
    lines.push(`${row.status} by ${by}: ${what}${score}`);
    if (row.cells.length <= 400) lines.push(row.cells.map(cellName).join(" "));
  } else if (row.directed !== undefined && row.directed !== null) {
    lines.push(`${row.status}: ${row.directed} directed, ${row.undirected} undirected tours (${row.method}, ${row.seconds.toFixed(3)} s)`);
  } else {
    lines.push(`${cancelled(row) ? "cancelled" : row.status}${row.reason ? ": " + row.reason : ""}`);
  }
  if (row.status === "infeasible" && row.reason) lines[0] = `why not: ${row.reason}`;
  if (doc.question === "complete" && !row.cells) {
    const verdict = row.status === "infeasible" ? "cannot-finish" : "";
    tell(row.status === "infeasible" ? `no: ${row.reason}` : lines[0], verdict, row.status === "infeasible");
  }
  $("#answer").textContent = lines.join("\n");
  drawOverlay();
}

// ------------------------------------------------------------------- player
// Every answer is shown whole (its last step); play starts it over from its
// first step (a way to finish: from the knight's cell).
function delay() { return 1000 / (parseInt($("#speed").value, 10) || 8); }
function play() {
  if (!frames()) return;
  if (state.playing) { stop(); return; }
  if (state.step >= frames()) state.step = state.from;
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
  state.step = Math.max(state.from, Math.min(frames(), state.step + by));
  drawOverlay();
}

// ------------------------------------------------------------------- swap puzzles
function puzzleFrames(doc) {
  const now = new Map();
  for (const [colour, cells] of Object.entries(doc.start_knights)) for (const c of cells) now.set(key(c), colour);
  return { steps: [], placements: [now], colours: doc.colours };
}
function puzzleBoard(doc) {
  // the puzzle's own board (the user's board is kept for when the question changes)
  if (!state.userBoard) state.userBoard = snapshot();
  state.d = 1; state.h = doc.board_shape[0]; state.w = doc.board_shape[1];
  state.blocked = new Set((doc.board_blocked || []).map(key));
  $("#width").value = state.w; $("#height").value = state.h; $("#depth").value = 1;
  state.start = state.end = state.target = null; state.food = []; state.hand = [];
  showCells(); drawBoard();
}
async function loadPuzzle() {
  // drawn as soon as it is picked: the board and its knights at the start
  try {
    const doc = await post("/api/puzzle", { question: "swap", puzzle: puzzleSpec(), topology: $("#topology").value });
    if (state.question !== "swap") return;
    state.puzzle = doc;
    clearAnswer();
    puzzleBoard(doc);
  } catch (err) { say(err.message, true); }
}
function showSwap(row) {
  puzzleBoard(row);
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
  state.step = row.steps.length;
}
function leaveSwap() {
  state.puzzle = null; state.swap = null;
  const kept = state.userBoard;
  state.userBoard = null;
  if (kept) {
    Object.assign(state, { w: kept.w, h: kept.h, d: kept.d, start: kept.start, end: kept.end, target: kept.target });
    state.blocked = new Set(kept.blocked); state.food = kept.food.slice(); state.hand = kept.hand.slice();
    $("#width").value = kept.w; $("#height").value = kept.h; $("#depth").value = kept.d;
    showCells(); drawBoard();
  }
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
        if (state.row.closed !== undefined && state.question === "tour") body.closed = state.row.closed;
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
  const was = state.question;
  state.question = q;
  for (const b of $$(".questions button")) {
    const on = b.dataset.action === `question-${q}`;
    b.classList.toggle("on", on);
    b.setAttribute("aria-pressed", String(on));
  }
  for (const el of $$("[data-for]")) el.hidden = !el.dataset.for.split(" ").includes(q);
  if (q === "longest") $("#open").checked = true;
  else if (q === "tour") $("#closed").checked = true;
  if (state.mode !== "hand") {
    if (q === "distance") setMode(state.start ? "target" : "start");
    else if (q === "route") setMode(state.start ? "food" : "start");
    else setMode("block");
  }
  const box = $("#engines");
  box.textContent = "";
  clearAnswer();
  if (was === "swap" && q !== "swap") leaveSwap();
  if (q === "swap") loadPuzzle();
  drawOverlay();
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
}

// ------------------------------------------------------------------- start-up
const ACTIONS = {
  solve: () => solve(), cancel, play, step: () => step(1), back: () => step(-1), clear: resize,
  model: showModel, "load-text": () => loadText(), "show-text": showText,
  undo, redo, hints: toggleHints, "can-finish": canFinish,
  "mode-hand": () => { if (!handShown()) clearAnswer(); startHand(); },
  "zoom-in": () => zoom(1.5), "zoom-out": () => zoom(1 / 1.5),
};
function fieldValues() { return { topology: $("#topology").value, piece: $("#piece").value, vector: $("#piece-vector").value }; }
async function init() {
  document.body.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action.startsWith("question-")) setQuestion(action.slice(9));
    else if (action.startsWith("download-")) download(action.slice(9));
    else if (action in ACTIONS) ACTIONS[action]();
    else if (action.startsWith("mode-")) setMode(action.slice(5));
  });
  const board = $("#board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("focusin", (event) => { const r = event.target.closest("rect.sq"); if (r) labelOne(r); });
  board.addEventListener("pointerover", (event) => {
    const r = event.target.closest && event.target.closest("rect.sq");
    if (r) { state.hover = r.dataset.key; labelOne(r); showHover(); }
  });
  board.addEventListener("pointerleave", () => { state.hover = null; showHover(); });
  document.addEventListener("pointermove", onPointerOver);
  document.addEventListener("pointerup", () => { state.painting = null; });
  for (const id of ["#width", "#height", "#depth"]) $(id).addEventListener("change", resize);
  for (const id of ["#topology", "#piece", "#piece-vector"]) $(id).addEventListener("change", () => {
    $("#piece-vector").hidden = $("#piece").value !== "custom";
    record(state.fields);  // the fields as they were before this change
    state.fields = fieldValues();
    boardEdited(); clearAnswer();
    if (state.question === "swap") loadPuzzle();
    if (handShown()) startHand(); else drawOverlay();
  });
  $("#named").addEventListener("change", loadNamed);
  $("#puzzle").addEventListener("change", () => { if (state.question === "swap") loadPuzzle(); });
  $("#puzzle-text").addEventListener("change", () => { if (state.question === "swap" && $("#puzzle").value === "text") loadPuzzle(); });
  for (const el of $$("#ask input, #ask select, #ask textarea")) el.addEventListener("change", () => { if (!el.closest("#engines")) clearAnswer(); drawOverlay(); });
  document.addEventListener("keydown", onKey);
  let resizing = null;
  window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(drawBoard, 100); });
  state.fields = fieldValues();
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
