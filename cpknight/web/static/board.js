// cpknight playground: the board drawing. One drawing, no overlap: every cell has
// one centre number (a visit, a step, a distance; every visit of a cell revisited),
// one corner for a second number (onward moves, top left) and one for a mark
// letter (S E T F, bottom right); rings sit on the cell's edge and the knight's
// disc under the numbers, so nothing is drawn over a number. Numbers that would be
// smaller than MIN_FONT px are not drawn (the legend says so and offers the zoom);
// every cell's label (aria-label, and the tooltip) still says them all.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijklmnopqrstuvwxyz";
const MIN_FONT = 9;  // px: below this a number is speckle, not text
const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));
const key = (cell) => cell.join(",");
const fromKey = (k) => k.split(",").map(Number);
const KNIGHT_COLOURS = ["#f0f0f0", "#222222", "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9"];
const MARKS = { start: ["S", "#0072b2", "start"], end: ["E", "#e69f00", "end"], target: ["T", "#cc79a7", "target"], food: ["F", "#009e73", "food"] };

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
function rectOf(cell) { return document.querySelector(`rect.sq[data-key="${key(cell)}"]`); }
function layerOf(cell) { return state.d > 1 ? cell[0] : 0; }

// ------------------------------------------------------------------- geometry
function cellSize() {
  const side = Math.max(state.w, state.h);
  const room = Math.min(560, (window.innerWidth || 600) - 60);
  const fit = Math.floor(room / side / (state.d > 1 ? Math.min(state.d, 2) : 1));
  return Math.max(3, Math.min(48 * state.zoom, Math.round(fit * state.zoom)));
}
function margins(s) {
  // room for the rank numbers on the left and the file letters below
  const font = axisFont(s);
  const digits = String(Math.max(state.h, state.w)).length;
  return { left: Math.ceil(font * (0.62 * digits + 0.6)), bottom: Math.ceil(font * 1.5), font };
}
function axisFont(s) { return Math.max(MIN_FONT, Math.min(12, s * 0.5)); }
function centre(cell) {
  const s = cellSize(), m = margins(s);
  const r = cell[cell.length - 2], c = cell[cell.length - 1];
  return [m.left + c * s + s / 2, (state.h - 1 - r) * s + s / 2];
}
function numberFont(s, text) {
  // as large as fits the cell, text's width included
  return Math.min(s * 0.42, (0.86 * s) / (0.58 * Math.max(2, text.length)));
}

// ------------------------------------------------------------------- the board
function drawBoard() {
  const board = $("#board");
  const keep = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  board.textContent = "";
  const s = cellSize(), m = margins(s);
  const W = m.left + state.w * s, H = state.h * s + m.bottom;
  for (let l = 0; l < state.d; l++) {
    const wrap = document.createElement("div");
    wrap.className = "layer";
    if (state.d > 1) {
      const t = document.createElement("div");
      t.className = "layer-title"; t.textContent = `layer ${l}`;
      wrap.appendChild(t);
    }
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("width", W);
    svg.setAttribute("height", H);
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", state.d > 1 ? `board, layer ${l}` : "board");
    svg.dataset.layer = l;
    const cells = document.createElementNS(SVGNS, "g");
    for (let r = 0; r < state.h; r++) {
      for (let c = 0; c < state.w; c++) {
        const cell = state.d > 1 ? [l, r, c] : [r, c];
        const rect = document.createElementNS(SVGNS, "rect");
        rect.setAttribute("x", m.left + c * s);
        rect.setAttribute("y", (state.h - 1 - r) * s);
        rect.setAttribute("width", s);
        rect.setAttribute("height", s);
        rect.setAttribute("class", "sq " + ((r + c + l) % 2 ? "light" : "dark"));
        rect.setAttribute("role", "button");
        rect.setAttribute("tabindex", "-1");
        rect.dataset.cell = cellName(cell);
        rect.dataset.key = key(cell);
        if (state.blocked.has(key(cell))) rect.dataset.blocked = "true";
        cells.appendChild(rect);
      }
    }
    svg.appendChild(cells);
    svg.appendChild(axes(s, m));
    for (const name of ["under", "lines", "over", "marks"]) {
      const g = document.createElementNS(SVGNS, "g");
      g.setAttribute("class", name);
      svg.appendChild(g);
    }
    wrap.appendChild(svg);
    board.appendChild(wrap);
  }
  if (!state.focus || !rectOfKey(state.focus)) state.focus = key(state.d > 1 ? [0, 0, 0] : [0, 0]);
  const focus = rectOfKey(state.focus);
  if (focus) focus.setAttribute("tabindex", "0");
  if (keep && keep === state.focus && focus) focus.focus();
  drawOverlay();
}
function rectOfKey(k) { return document.querySelector(`rect.sq[data-key="${k}"]`); }
function axes(s, m) {
  // file letters (or column numbers past 26 files) below, rank numbers left
  const g = document.createElementNS(SVGNS, "g");
  g.setAttribute("class", "axes");
  g.setAttribute("aria-hidden", "true");
  const letters = state.d === 1 && state.w <= 26;
  const every = Math.max(1, Math.ceil((m.font * 1.6) / s));
  for (let c = 0; c < state.w; c++) {
    if (c % every) continue;
    svgText(g, m.left + c * s + s / 2, state.h * s + m.bottom / 2, letters ? FILES[c] : String(c), "axis", m.font);
  }
  for (let r = 0; r < state.h; r++) {
    if (r % every) continue;
    svgText(g, m.left / 2, (state.h - 1 - r) * s + s / 2, letters ? String(r + 1) : String(r), "axis", m.font);
  }
  return g;
}
function svgText(g, x, y, text, cls, size, fill) {
  const t = document.createElementNS(SVGNS, "text");
  t.setAttribute("x", x); t.setAttribute("y", y);
  t.setAttribute("class", cls);
  t.setAttribute("font-size", size.toFixed(1));
  if (fill) t.setAttribute("fill", fill);
  t.textContent = text;
  g.appendChild(t);
  return t;
}
function heat(value, max) {
  // light to dark blue (sequential, colour-blind safe); numbers flip to white
  const t = max > 0 ? value / max : 0;
  const from = [239, 246, 255], to = [8, 48, 107];
  const mix = from.map((v, i) => Math.round(v + (to[i] - v) * t));
  return [`rgb(${mix.join(",")})`, t > 0.55 ? "#fff" : "#111"];
}
function distanceAt(cell) {
  let v = state.distances;
  for (const i of cell) { if (v === null || v === undefined) return null; v = v[i]; }
  return v === undefined ? null : v;
}

// ------------------------------------------------------------------- the layers
// What each cell shows, gathered first, then drawn once: so no two layers can
// put a number in the same place.
function gather() {
  const cells = new Map();  // key -> {centre: [numbers], corner, mark, ...}
  const at = (cell) => {
    const k = key(cell);
    if (!cells.has(k)) cells.set(k, { cell, visits: [], steps: [] });
    return cells.get(k);
  };
  const shown = { legend: new Set(), max: 0, source: null };
  if (state.distances) {
    for (const cell of allCells()) {
      const v = distanceAt(cell);
      if (v === null || state.blocked.has(key(cell))) continue;
      at(cell).distance = v;
      if (v > shown.max) shown.max = v;
    }
    shown.legend.add("heat");
  }
  const hand = handShown() ? state.hand : [];
  hand.forEach((cell, i) => { at(cell).visits.push(i + 1); });
  if (hand.length) shown.legend.add("hand");
  // the answer's path up to the player's step; a completion continues the hand
  const path = state.path.slice(0, state.step);
  const first = state.from;
  path.forEach((cell, i) => {
    if (i < first && hand.length) return;  // the hand path shows these
    const spot = at(cell);
    if (state.question === "distance" && spot.distance === i) spot.onPath = i;
    else spot.steps.push(i + 1);
  });
  if (path.length > first) shown.legend.add(hand.length ? "completion" : state.question === "distance" ? "distance-path" : "path");
  // the knight's next moves, unless a way to finish is drawn on from its cell
  const legal = state.legal && !(hand.length && state.step > state.from) ? state.legal : null;
  if (legal) for (const k of legal) { const spot = at(fromKey(k)); spot.legal = true; if (state.hints) spot.onward = onwardCount(k); }
  if (legal && legal.size) shown.legend.add(state.hints ? "hints" : "legal");
  for (const [name, [letter, colour, word]] of Object.entries(MARKS)) {
    const list = name === "food" ? state.food : state[name] ? [state[name]] : [];
    for (const cell of list) { const spot = at(cell); spot.marks = (spot.marks || []).concat([[letter, colour, word]]); shown.legend.add(name); }
  }
  return { cells, shown };
}
function drawOverlay() {
  const s = cellSize(), m = margins(s);
  const layers = $$("#board svg");
  if (!layers.length) return;
  for (const svg of layers) for (const g of svg.querySelectorAll("g.under, g.lines, g.over, g.marks")) g.textContent = "";
  for (const rect of $$("rect.sq")) {
    rect.classList.remove("why", "dominated", "legal", "visited");
    rect.style.fill = "";
    for (const name of ["visit", "step", "legal", "knight", "onward"]) delete rect.dataset[name];
  }
  const g = (cell, name) => layers[layerOf(cell)].querySelector(`g.${name}`);
  const { cells, shown } = gather();
  let hidden = false;
  // the heat map: fills
  if (state.distances) {
    for (const spot of cells.values()) {
      if (spot.distance === undefined) continue;
      const rect = rectOf(spot.cell);
      if (rect) rect.style.fill = heat(spot.distance, shown.max)[0];
    }
    for (const cell of allCells()) if (distanceAt(cell) === null && !state.blocked.has(key(cell))) { const r = rectOf(cell); if (r) r.style.fill = "#fff"; }
  }
  // why not: the cells the reason names
  if (state.row && state.row.highlight) {
    for (const cell of state.row.highlight) { const rect = rectOf(cell); if (rect) rect.classList.add("why"); }
    shown.legend.add("why");
  }
  if (state.cover) { drawCover(g, s); shown.legend.add("cover"); }
  if (state.swap) { drawSwap(g, s); shown.legend.add("swap"); }
  // the lines: the hand path solid, the answer (or the completion) beyond it
  const hand = handShown() ? state.hand : [];
  if (hand.length > 1) drawPath(g, hand, s, "path hand");
  const path = state.path.slice(0, state.step);
  const from = hand.length ? Math.max(0, state.from - 1) : 0;
  if (path.length - from > 1) drawPath(g, path.slice(from), s, hand.length ? "path completion" : "path");
  if (state.closed && state.step === frames() && path.length > 2 && isNear(path[path.length - 1], path[0]) && !state.swap) {
    drawLine(g(path[0], "lines"), [path[path.length - 1], path[0]], s, "path ghost");
  }
  // the knight: a disc under the numbers (the hand's knight, else the answer's)
  const knight = hand.length && !(path.length > state.from) ? hand[hand.length - 1] : path.length ? path[path.length - 1] : null;
  if (knight && !state.swap) {
    const [x, y] = centre(knight);
    const disc = circle(g(knight, "under"), x, y, Math.max(2, s * 0.36), "knight");
    disc.dataset.knight = cellName(knight);
    shown.legend.add("knight");
    if (hand.length && key(knight) === key(hand[hand.length - 1])) { const r = rectOf(knight); if (r) r.dataset.knight = "true"; }
  }
  // the numbers and marks, one place each
  for (const spot of cells.values()) {
    const rect = rectOf(spot.cell);
    if (!rect) continue;
    const [x, y] = centre(spot.cell);
    const over = g(spot.cell, "over");
    const ink = spot.distance !== undefined ? heat(spot.distance, shown.max)[1] : null;
    let main = null, cls = "num";
    const numbers = spot.visits.concat(spot.steps);
    if (numbers.length) { main = numbers.join(","); cls = spot.visits.length ? "num visit" : "num step"; }
    else if (spot.onPath !== undefined) { main = String(spot.onPath); cls = "num on-path"; }
    else if (spot.distance !== undefined) { main = String(spot.distance); cls = "num dist"; }
    if (main !== null) {
      let text = main, font = numberFont(s, text);
      if (font < MIN_FONT && numbers.length > 1) { text = `${numbers[0]}+`; font = numberFont(s, text); }
      if (font >= MIN_FONT) {
        const t = svgText(over, x, y, text, cls, font, numbers.length || spot.onPath !== undefined ? null : ink);
        t.dataset.cell = cellName(spot.cell);
        t.dataset.role = cls.split(" ")[1] || "num";
      } else hidden = true;
    }
    if (spot.visits.length) { rect.dataset.visit = String(spot.visits[0]); rect.classList.add("visited"); }
    if (spot.steps.length) rect.dataset.step = spot.steps.join(" ");
    else if (spot.onPath !== undefined) rect.dataset.step = String(spot.onPath);
    if (spot.legal) { rect.dataset.legal = "true"; rect.classList.add("legal"); }
    if (spot.onward !== undefined) {
      rect.dataset.onward = String(spot.onward);
      const font = Math.min(s * 0.3, 13);
      if (font >= MIN_FONT) {
        const t = svgText(over, rect.x.baseVal.value + font * 0.55, y - s / 2 + font * 0.7, String(spot.onward), "num onward", font);
        t.dataset.cell = cellName(spot.cell); t.dataset.role = "onward";
      } else hidden = true;
    }
    if (spot.marks) {
      spot.marks.forEach(([letter, colour], i) => {
        const ring = circle(g(spot.cell, "marks"), x, y, Math.max(2, s * 0.47 - i * Math.max(1.5, s * 0.09)), "ring");
        ring.setAttribute("stroke", colour);
        ring.setAttribute("stroke-width", Math.max(1.5, s * 0.07));
        const font = Math.min(s * 0.28, 13);
        if (font >= MIN_FONT) svgText(g(spot.cell, "marks"), x + s / 2 - font * 0.5 - i * font * 0.8, y + s / 2 - font * 0.55, letter, "mark", font, colour);
      });
    }
  }
  if (hidden) shown.legend.add("hidden");
  labelCells(cells);
  drawLegend(shown);
  $("#step-label").textContent = `step ${state.step} / ${frames()}`;
}
function circle(g, x, y, r, cls) {
  const c = document.createElementNS(SVGNS, "circle");
  c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", r);
  c.setAttribute("class", cls);
  g.appendChild(c);
  return c;
}
function drawPath(g, cells, s, cls) {
  // one polyline per run of cells drawn side by side (a wrap or a layer breaks it)
  let run = [];
  const flush = () => { if (run.length > 1) drawLine(g(run[0], "lines"), run, s, cls); run = []; };
  for (const cell of cells) {
    if (run.length && !isNear(run[run.length - 1], cell)) flush();
    run.push(cell);
  }
  flush();
}
function isNear(a, b) {
  // draw a straight segment unless the move wraps around a torus or cylinder
  if (layerOf(a) !== layerOf(b)) return false;
  const n = a.length;
  return Math.abs(a[n - 1] - b[n - 1]) <= 4 && Math.abs(a[n - 2] - b[n - 2]) <= 4;
}
function drawLine(g, cells, s, cls) {
  const line = document.createElementNS(SVGNS, "polyline");
  line.setAttribute("points", cells.map((c) => centre(c).join(",")).join(" "));
  line.setAttribute("class", cls);
  line.setAttribute("stroke-width", Math.max(1, s * 0.08));
  g.appendChild(line);
}
function drawSwap(g, s) {
  // the knights where they stand after state.step moves, the last move drawn
  const sw = state.swap;
  const now = sw.placements[state.step];
  if (state.step > 0) {
    const [a, b] = sw.steps[state.step - 1];
    drawLine(g(a, "lines"), [a, b], s, "path ghost");
  }
  for (const [k, colour] of now) {
    const cell = fromKey(k);
    const [x, y] = centre(cell);
    const named = { W: 0, B: 1 }[colour];
    const i = named !== undefined ? named : 2 + (sw.colours.indexOf(colour) % (KNIGHT_COLOURS.length - 2));
    const dot = circle(g(cell, "under"), x, y, Math.max(3, s * 0.34), "swap-knight");
    dot.setAttribute("fill", KNIGHT_COLOURS[i]);
    dot.setAttribute("stroke", "#111"); dot.setAttribute("stroke-width", Math.max(1, s * 0.05));
    dot.dataset.knight = cellName(cell);
    dot.dataset.colour = colour;
    const font = s * 0.32;
    if (font >= MIN_FONT) svgText(g(cell, "over"), x, y, colour, "num letter", font, i === 1 ? "#fff" : "#111");
  }
}
function drawCover(g, s) {
  // the dominated cells shaded, the knights on their cells
  for (const cell of state.cover.dominated) {
    const rect = rectOf(cell);
    if (rect) { rect.style.fill = "#9ecae1"; rect.classList.add("dominated"); }
  }
  for (const cell of state.cover.knights) {
    const [x, y] = centre(cell);
    const dot = circle(g(cell, "under"), x, y, Math.max(2, s * 0.32), "cover-knight");
    dot.dataset.knight = cellName(cell);
  }
}

// ------------------------------------------------------------------- labels
// Every cell names itself and says what it shows (screen readers, the tooltip).
function cellLabel(rect, spot) {
  const k = rect.dataset.key;
  const words = [rect.dataset.cell];
  if (state.blocked.has(k)) words.push("blocked");
  if (spot) {
    if (spot.visits.length) words.push(`visited, move ${spot.visits[0]}`);
    if (spot.steps.length) words.push(`step ${spot.steps.join(" and ")} of the answer`);
    if (spot.onPath !== undefined) words.push(`step ${spot.onPath} of the path`);
    if (spot.distance !== undefined) words.push(`${spot.distance} moves from the start`);
    if (spot.legal) words.push("a legal move" + (spot.onward !== undefined ? `, ${spot.onward} onward` : ""));
    for (const [, , word] of spot.marks || []) words.push(word);
  }
  if (rect.dataset.knight === "true") words.push("the knight");
  if (rect.classList.contains("why")) words.push("named by the reason");
  if (rect.classList.contains("dominated")) words.push("attacked");
  return words.join(", ");
}
function labelCells(cells) {
  const rects = $$("rect.sq");
  const all = rects.length <= 4096;  // past that, each cell is labelled when focused
  for (const rect of rects) {
    const spot = cells.get(rect.dataset.key);
    if (all || spot || rect.getAttribute("tabindex") === "0") rect.setAttribute("aria-label", cellLabel(rect, spot));
  }
  state.spots = cells;
  showHover();
}
function labelOne(rect) {
  rect.setAttribute("aria-label", cellLabel(rect, state.spots ? state.spots.get(rect.dataset.key) : null));
}
function showHover() {
  // the cell under the pointer, said in words (a tooltip that touch screens lack)
  const rect = state.hover ? rectOfKey(state.hover) : null;
  if (rect) labelOne(rect);
  $("#hover").textContent = rect ? `pointing at ${rect.getAttribute("aria-label")}` : "";
}

// ------------------------------------------------------------------- legend
const LEGEND = {
  heat: () => [`<span class="sw heat"></span>moves from ${state.start ? cellName(state.start) : "the start"}: 0 (light) to ${maxOf(state.distances)} (dark)`],
  "distance-path": () => ["<span class=\"sw line\"></span>a shortest path; its cells' numbers are their moves from the start"],
  path: () => [`<span class="sw line"></span>the answer's path; numbers: ${state.question === "route" ? "the step of each visit (a cell visited twice shows both)" : "the visit number of each cell"}`],
  hand: () => ["<span class=\"sw line hand\"></span>your moves; numbers: the visit number of each cell"],
  completion: () => ["<span class=\"sw line completion\"></span>a way to finish from the knight's cell on"],
  legal: () => ["<span class=\"sw legal\"></span>lit: where the knight may move next"],
  hints: () => ["<span class=\"sw legal\"></span>lit: where the knight may move; corner number: its onward moves (Warnsdorff: fewest first)"],
  knight: () => ["<span class=\"sw knight\"></span>the knight"],
  start: () => ["<span class=\"sw ring start\"></span>S start"],
  end: () => ["<span class=\"sw ring end\"></span>E end"],
  target: () => ["<span class=\"sw ring target\"></span>T target"],
  food: () => ["<span class=\"sw ring food\"></span>F a cell to visit"],
  why: () => ["<span class=\"sw why\"></span>the cells the reason is about"],
  cover: () => ["<span class=\"sw cover\"></span>a knight", "<span class=\"sw dominated\"></span>a cell it attacks"],
  swap: () => ["<span class=\"sw swap-w\"></span>W white knights", "<span class=\"sw swap-b\"></span>B black knights"],
  hidden: () => ["<span class=\"sw\"></span>numbers too small to read are left out: zoom in (+), or point at a cell"],
};
function drawLegend(shown) {
  const box = $("#legend");
  box.textContent = "";
  if (state.blocked.size) shown.legend.add("blocked");
  const order = Object.keys(LEGEND).concat(["blocked"]);
  for (const name of order) {
    if (!shown.legend.has(name)) continue;
    const parts = name === "blocked" ? ["<span class=\"sw blocked\"></span>blocked"] : LEGEND[name]();
    for (const html of parts) {
      const item = document.createElement("span");
      item.className = "item";
      item.dataset.legendItem = name;
      item.innerHTML = html;
      box.appendChild(item);
    }
  }
}
function maxOf(nested) {
  let max = 0;
  const walk = (v) => { if (Array.isArray(v)) v.forEach(walk); else if (v !== null && v > max) max = v; };
  walk(nested);
  return max;
}
