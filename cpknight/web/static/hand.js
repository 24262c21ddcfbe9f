// cpknight playground: touring by hand, undo and redo, and the keyboard.
// The moves come from the server's move graph (POST /api/moves): the page applies
// no move vector itself, so holes, wraps, layers and other leapers are the
// library's. A finished tour is checked by the library's checker (POST /api/check).
"use strict";

// ------------------------------------------------------------------- the graph
function handShown() { return state.mode === "hand"; }
function graphSignature() { return JSON.stringify([boardSpec(), pieceSpec()]); }
async function loadGraph() {
  const sign = graphSignature();
  if (state.graph && state.graph.sign === sign) return state.graph;
  const doc = await post("/api/moves", { question: "tour", board: boardSpec(), piece: pieceSpec() });
  const index = new Map(doc.cells.map((c, i) => [key(c), i]));
  state.graph = { sign, index, cells: doc.cells, indptr: doc.indptr, indices: doc.indices };
  return state.graph;
}
function neighbours(k) {
  const g = state.graph;
  const i = g ? g.index.get(k) : undefined;
  if (i === undefined) return [];
  const out = [];
  for (let j = g.indptr[i]; j < g.indptr[i + 1]; j++) out.push(key(g.cells[g.indices[j]]));
  return out;
}
function visitedSet() { return new Set(state.hand.map(key)); }
function legalMoves() {
  if (!state.hand.length) return new Set();
  const seen = visitedSet();
  return new Set(neighbours(key(state.hand[state.hand.length - 1])).filter((k) => !seen.has(k)));
}
function onwardCount(k) {
  // Warnsdorff's count: the free cells one move on from k (the knight's cell left out)
  const seen = visitedSet();
  return neighbours(k).filter((w) => !seen.has(w) && w !== k).length;
}
function openCount() { return state.graph ? state.graph.cells.length : 0; }
function pieceWord() { return $("#piece").selectedOptions[0].textContent.split(" ")[0]; }

// ------------------------------------------------------------------- playing
async function startHand() {
  setMode("hand");
  try { await loadGraph(); } catch (err) { tell(err.message, "refused", true); return; }
  refreshHand();
  if (!state.hand.length) tell("place the knight: click (or press Enter on) any open cell", "");
}
function refreshHand() {
  state.legal = handShown() ? legalMoves() : null;
  drawOverlay();
  for (const b of $$('[data-action="hints"], [data-action="can-finish"]')) b.hidden = !handShown();
}
function tell(text, verdict, error) {
  say(text, error);
  $("#message").dataset.verdict = verdict || "";
}
async function handClick(cell) {
  if (!state.graph || state.graph.sign !== graphSignature()) {
    try { await loadGraph(); } catch (err) { tell(err.message, "refused", true); return; }
  }
  const k = key(cell), name = cellName(cell);
  if (state.blocked.has(k)) { tell(`${name} is blocked: the knight cannot stand there`, "refused", true); return; }
  if (!state.hand.length) { record(); state.hand = [cell]; afterMove(); return; }
  const last = state.hand[state.hand.length - 1];
  if (key(last) === k) { tell(`the knight is on ${name} already`, "refused", true); return; }
  const place = state.hand.findIndex((c) => key(c) === k);
  if (place >= 0) { tell(`${name} is visited already (move ${place + 1}): each cell once`, "refused", true); return; }
  if (!neighbours(key(last)).includes(k)) {
    tell(`${name} is not one ${pieceWord()} move from ${cellName(last)}`, "refused", true);
    return;
  }
  record();
  state.hand.push(cell);
  afterMove();
}
function afterMove() {
  clearAnswer();
  refreshHand();
  const n = state.hand.length, total = openCount();
  const here = cellName(state.hand[n - 1]);
  if (n === total) { finishedTour(); return; }
  if (!state.legal.size) {
    tell(`dead end: no free cell is one ${pieceWord()} move from ${here} (${n} of ${total} cells visited); undo (Ctrl-Z) to go back`, "dead-end", true);
    return;
  }
  tell(`move ${n}: the knight is on ${here}; ${state.legal.size} way${state.legal.size > 1 ? "s" : ""} on, ${total - n} cells to go`, "");
}
async function finishedTour() {
  // every cell visited: closed if the last cell is one move from the first
  const path = state.hand;
  const closes = path.length >= 3 && neighbours(key(path[path.length - 1])).includes(key(path[0]));
  tell("every cell visited: checking the tour ...", "");
  try {
    const body = { question: "tour", board: boardSpec(), piece: pieceSpec(), closed: closes, cells: path };
    const doc = await post("/api/check", body);
    if (doc.tour) {
      const kind = closes ? "closed" : "open";
      tell(`a ${kind} tour of ${path.length} cells, checked by cpknight's tour checker` + (closes ? "" : " (the last cell is not one move from the first)"), `${kind}-tour`);
    } else tell(`not a tour: ${doc.reason}`, "refused", true);
  } catch (err) { tell(err.message, "refused", true); }
}
function toggleHints() {
  state.hints = !state.hints;
  $('[data-action="hints"]').setAttribute("aria-pressed", String(state.hints));
  refreshHand();
}
async function canFinish() {
  if (!state.hand.length) { tell("place the knight first, then ask", "refused", true); return; }
  const body = {
    question: "complete", board: boardSpec(), piece: pieceSpec(), closed: $("#closed").checked,
    path: state.hand, methods: ["auto"], time_limit: parseFloat($("#time-limit").value) || 10,
  };
  if (!body.closed && state.end) body.end = state.end;
  await solve(body);
}

// ------------------------------------------------------------------- undo, redo
// One history for moves and board edits: each entry is the state before an action.
function snapshot(fields) {
  const f = fields || state.fields;
  return {
    w: state.w, h: state.h, d: state.d, blocked: Array.from(state.blocked), named: state.named,
    start: state.start, end: state.end, target: state.target, food: state.food.slice(),
    hand: state.hand.slice(), topology: f.topology, piece: f.piece, vector: f.vector,
  };
}
function record(fields) {
  state.history.push(snapshot(fields));
  if (state.history.length > 500) state.history.shift();
  state.future = [];
}
function restore(snap) {
  const resized = snap.w !== state.w || snap.h !== state.h || snap.d !== state.d;
  Object.assign(state, { w: snap.w, h: snap.h, d: snap.d, named: snap.named, start: snap.start, end: snap.end, target: snap.target });
  state.blocked = new Set(snap.blocked); state.food = snap.food.slice(); state.hand = snap.hand.slice();
  $("#width").value = snap.w; $("#height").value = snap.h; $("#depth").value = snap.d;
  $("#topology").value = snap.topology; $("#piece").value = snap.piece; $("#piece-vector").value = snap.vector;
  $("#piece-vector").hidden = snap.piece !== "custom";
  state.fields = { topology: snap.topology, piece: snap.piece, vector: snap.vector };
  $("#named").value = snap.named || "";
  clearAnswer(); showCells();
  if (resized) drawBoard();
  else for (const rect of $$("rect.sq")) { if (state.blocked.has(rect.dataset.key)) rect.dataset.blocked = "true"; else delete rect.dataset.blocked; }
  if (handShown()) loadGraph().then(refreshHand, (err) => say(err.message, true)); else drawOverlay();
}
function undo() {
  if (!state.history.length) { tell("nothing to undo", ""); return; }
  state.future.push(snapshot());
  restore(state.history.pop());
  tell(`undone (${state.history.length} more to undo)`, "");
}
function redo() {
  if (!state.future.length) { tell("nothing to redo", ""); return; }
  state.history.push(snapshot());
  restore(state.future.pop());
  tell(`redone (${state.future.length} more to redo)`, "");
}

// ------------------------------------------------------------------- keyboard
// The board is one tab stop; the arrows move between cells (Page Up and Page
// Down between layers), Enter or Space acts on the cell as a click would.
function focusCell(rect) {
  const old = rectOfKey(state.focus);
  if (old) old.setAttribute("tabindex", "-1");
  state.focus = rect.dataset.key;
  rect.setAttribute("tabindex", "0");
  rect.parentNode.appendChild(rect);  // painted last: its focus ring whole
  labelOne(rect);
  rect.focus();
}
function onCellKey(event, rect) {
  const cell = fromKey(rect.dataset.key);
  const n = cell.length;
  const moves = { ArrowRight: [n - 1, 1], ArrowLeft: [n - 1, -1], ArrowUp: [n - 2, 1], ArrowDown: [n - 2, -1], PageUp: [0, 1], PageDown: [0, -1] };
  if (event.key in moves) {
    const [axis, by] = moves[event.key];
    if (event.key.startsWith("Page") && state.d === 1) return false;
    const next = cell.slice();
    next[axis] += by;
    const limit = [state.d, state.h, state.w].slice(3 - n)[axis];
    if (next[axis] < 0 || next[axis] >= limit) return true;
    const target = rectOfKey(key(next));
    if (target) focusCell(target);
    return true;
  }
  if (event.key === "Enter" || event.key === " ") { actOnCell(rect, {}); return true; }
  return false;
}
function onKey(event) {
  const typing = event.target.closest && event.target.closest("input, textarea, select");
  const mod = event.ctrlKey || event.metaKey;
  if (mod && !typing && (event.key === "z" || event.key === "Z")) { event.preventDefault(); if (event.shiftKey) redo(); else undo(); return; }
  if (mod && !typing && (event.key === "y" || event.key === "Y")) { event.preventDefault(); redo(); return; }
  if (typing || mod || event.altKey) return;
  const rect = event.target.closest && event.target.closest("rect.sq");
  if (rect && onCellKey(event, rect)) { event.preventDefault(); return; }
  if (event.target.closest && event.target.closest("button") && (event.key === " " || event.key === "Enter")) return;
  if (event.key === " ") { event.preventDefault(); play(); }
  else if (event.key === "ArrowRight") step(1);
  else if (event.key === "ArrowLeft") step(-1);
  else if (event.key === "Home") { event.preventDefault(); step(-frames()); }
  else if (event.key === "End") { event.preventDefault(); step(frames()); }
  else if (event.key === "+" || event.key === "=") $("#speed").value = String(parseInt($("#speed").value, 10) + 2);
  else if (event.key === "-") $("#speed").value = String(parseInt($("#speed").value, 10) - 2);
}
