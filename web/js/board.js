// The board view: a pure SVG renderer of layered data that reports clicks on intersections. It
// knows no rules: the game page says what to draw.

import { LETTERS, vertexName } from './go.js';
import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 12 ? 3 : 2;
  const lo = edge, hi = size - 1 - edge, mid = (size - 1) / 2;
  const pts = [[lo, lo], [lo, hi], [hi, lo], [hi, hi]];
  if (size % 2 === 1) pts.push([mid, mid]);
  if (size % 2 === 1 && size >= 15) pts.push([lo, mid], [hi, mid], [mid, lo], [mid, hi]);
  return pts;
}

/**
 * The viewer's display preferences, kept in localStorage: `stones` ('shaded' or 'flat'),
 * `coords` (shown or not), `sound` (a click for each move). Every board reads them when created.
 */
const PREFS = { stones: ['tengen.stones', 'shaded'], coords: ['tengen.coords', 'on'], sound: ['tengen.sound', 'off'] };

export function getPref(name) {
  const [key, fallback] = PREFS[name];
  try {
    return localStorage.getItem(key) || fallback;
  } catch {
    return fallback;
  }
}

export function setPref(name, value) {
  try {
    localStorage.setItem(PREFS[name][0], value);
  } catch {
    // Private windows may refuse storage: the setting then lasts for this page only.
  }
}

/**
 * The gradients of shaded stones and their shadows, defined once a board. The ids are fixed:
 * a page shows one board.
 */
function defs(svg) {
  const d = el('defs', {}, svg);
  const radial = (id, attrs, stops) => {
    const g = el('radialGradient', { id, ...attrs }, d);
    for (const [offset, color, opacity] of stops) el('stop', { offset, 'stop-color': color, 'stop-opacity': opacity ?? 1 }, g);
  };
  // The light comes from the upper left, as on OGS and Sabaki.
  radial('tengen-stone-b', { cx: '0.36', cy: '0.32', r: '0.7', fx: '0.32', fy: '0.28' }, [['0', '#6a6a6a'], ['0.35', '#2b2b2b'], ['1', '#050505']]);
  radial('tengen-stone-w', { cx: '0.38', cy: '0.34', r: '0.72', fx: '0.34', fy: '0.3' }, [['0', '#ffffff'], ['0.6', '#efefe8'], ['1', '#bdbcb2']]);
  radial('tengen-stone-shadow', {}, [['0.55', '#000', 0.38], ['1', '#000', 0]]);
}

/** The mark's shape at x, y, in the colour that shows on what lies there (`on`: b, w or ''). */
function mark(parent, kind, x, y, on, label) {
  const cls = `mark on-${on || 'e'}`;
  const at = { 'data-mark': `${kind}:${label || ''}` };
  if (kind === 'TR') return el('polygon', { points: `${x},${y - 0.28} ${x - 0.25},${y + 0.16} ${x + 0.25},${y + 0.16}`, class: cls, ...at }, parent);
  if (kind === 'SQ') return el('rect', { x: x - 0.2, y: y - 0.2, width: 0.4, height: 0.4, class: cls, ...at }, parent);
  if (kind === 'CR') return el('circle', { cx: x, cy: y, r: 0.24, class: cls, ...at }, parent);
  if (kind === 'MA') {
    const g = el('g', { class: cls, ...at }, parent);
    el('line', { x1: x - 0.2, y1: y - 0.2, x2: x + 0.2, y2: y + 0.2 }, g);
    el('line', { x1: x - 0.2, y1: y + 0.2, x2: x + 0.2, y2: y - 0.2 }, g);
    return g;
  }
  // A label hides the lines below it on an empty point, as SGF editors draw it.
  if (!on) el('circle', { cx: x, cy: y, r: 0.3, class: 'label-bg' }, parent);
  const t = el('text', { x, y, class: `${cls} label`, ...at }, parent);
  t.textContent = label;
  return t;
}

/**
 * The review board's layers, above the stones: `ownership` (size x size, +1 Black to -1 White,
 * rows from the top) as small squares whose size and shade grow with the confidence, as
 * KataGo's tools draw it; `marks` [{x, y, kind: LB|TR|SQ|CR|MA, label}]; `candidates`
 * [{x, y, winrate (0-1, for the player to move), visits, best}] as circles with their win rate
 * and visits (Lizzie's and KaTrain's way); `variation` [{x, y, color, n}] as numbered ghost stones;
 * `branches` [{x, y, color, label}] as lettered ghost stones, the next moves where the tree branches.
 */
function drawReview(layer, size, grid, { ownership, marks, candidates, variation, branches }) {
  if (ownership) {
    const g = el('g', { class: 'ownership' }, layer);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const o = ownership[y][x];
        if (Math.abs(o) < 0.15) continue;
        const side = 0.2 + 0.35 * Math.abs(o);
        el('rect', { x: x - side / 2, y: y - side / 2, width: side, height: side, class: `own ${o > 0 ? 'b' : 'w'}`, 'fill-opacity': (0.35 + 0.5 * Math.abs(o)).toFixed(2) }, g);
      }
    }
  }
  const variationAt = new Set((variation || []).map((s) => `${s.x},${s.y}`));
  // Where the tree branches: each next move as a faint stone lettered A (the main line), B, …
  // (not while a candidate's variation is shown, whose stones are numbered).
  const branchAt = new Set();
  for (const b of variationAt.size ? [] : branches || []) {
    if (grid[b.y][b.x] || branchAt.has(`${b.x},${b.y}`)) continue;
    branchAt.add(`${b.x},${b.y}`);
    const g = el('g', { class: `branch ${b.color}`, 'data-branch': `${b.label}:${vertexName(size, b.x, b.y)}` }, layer);
    el('circle', { cx: b.x, cy: b.y, r: 0.47, class: `stone ${b.color} ghost` }, g);
    const t = el('text', { x: b.x, y: b.y, class: `pv-n on-${b.color}` }, g);
    t.textContent = b.label;
  }
  for (const c of candidates || []) {
    if (grid[c.y][c.x] || variationAt.size || branchAt.has(`${c.x},${c.y}`)) continue;
    const g = el('g', { class: `cand${c.best ? ' best' : ''}`, 'data-candidate': vertexName(size, c.x, c.y) }, layer);
    el('circle', { cx: c.x, cy: c.y, r: 0.46 }, g);
    const w = el('text', { x: c.x, y: c.y - 0.08, class: 'cand-rate' }, g);
    w.textContent = `${Math.round(c.winrate * 100)}`;
    const v = el('text', { x: c.x, y: c.y + 0.24, class: 'cand-visits' }, g);
    v.textContent = c.visits >= 1000 ? `${(c.visits / 1000).toFixed(1)}k` : String(c.visits);
  }
  for (const s of variation || []) {
    if (grid[s.y][s.x]) continue;
    const g = el('g', { class: `pv ${s.color}`, 'data-pv': `${s.n}:${vertexName(size, s.x, s.y)}` }, layer);
    el('circle', { cx: s.x, cy: s.y, r: 0.47, class: `stone ${s.color} ghost` }, g);
    const t = el('text', { x: s.x, y: s.y, class: `pv-n on-${s.color}` }, g);
    t.textContent = String(s.n);
  }
  for (const m of marks || []) mark(layer, m.kind, m.x, m.y, grid[m.y][m.x], m.label);
}

/** Viewbox of a board with coordinates (a wider margin) or without. */
function viewBox(size, coords) {
  const m = coords ? 1.2 : 0.62;
  return `${-m} ${-m} ${size - 1 + 2 * m} ${size - 1 + 2 * m}`;
}

/**
 * Creates a board of `size` in `container`. `onPlay(vertex)` is called when the user clicks an
 * intersection or presses Enter on the keyboard cursor; `onHover(vertex|null)` as the pointer moves.
 * Returns { render(layers), setStones(style), setCoords(on), svg } where layers = { grid, last,
 * ghost, dead, unsure, territory, cursor } (`unsure`: stones the estimator is unsure of, ringed)
 * and the review board's { ownership, marks, candidates, variation } (see `drawReview`).
 * Stones are 'shaded' (gradients and a shadow) or 'flat'; both start from the stored preferences.
 */
export function createBoard(container, size, { onPlay, onHover, label }) {
  let stoneStyle = getPref('stones') === 'flat' ? 'flat' : 'shaded';
  let coords = getPref('coords') !== 'off';
  const svg = el('svg', { viewBox: viewBox(size, coords), class: `board ${stoneStyle}${coords ? '' : ' no-coords'}`, role: 'grid', tabindex: '0', 'aria-label': label || t('board.label', { size }) });
  defs(svg);
  el('rect', { x: -1.2, y: -1.2, width: size + 1.4, height: size + 1.4, class: 'wood' }, svg);
  for (let i = 0; i < size; i++) {
    el('line', { x1: 0, y1: i, x2: size - 1, y2: i, class: 'line' }, svg);
    el('line', { x1: i, y1: 0, x2: i, y2: size - 1, class: 'line' }, svg);
    for (const [x, y, t] of [[i, -0.75, LETTERS[i]], [i, size - 0.25, LETTERS[i]], [-0.75, i, String(size - i)], [size - 0.25, i, String(size - i)]]) {
      const c = el('text', { x, y, class: 'coord' }, svg);
      c.textContent = t;
    }
  }
  for (const [x, y] of starPoints(size)) el('circle', { cx: x, cy: y, r: 0.1, class: 'star' }, svg);
  const layer = el('g', {}, svg);
  const hits = el('g', {}, svg);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const v = vertexName(size, x, y);
      const r = el('rect', { x: x - 0.5, y: y - 0.5, width: 1, height: 1, class: 'hit', 'data-vertex': v, role: 'gridcell', 'aria-label': v }, hits);
      r.addEventListener('click', () => onPlay(v));
      r.addEventListener('pointerenter', () => onHover && onHover(v));
    }
  }
  svg.addEventListener('pointerleave', () => onHover && onHover(null));
  // Keyboard: arrows move a cursor, Enter or Space plays there.
  let cursor = null;
  svg.addEventListener('keydown', (e) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      e.preventDefault();
      // The first press shows the cursor at tengen; later presses move it.
      const [dx, dy] = cursor ? moves[e.key] : [0, 0];
      cursor = cursor || { x: Math.floor(size / 2), y: Math.floor(size / 2) };
      cursor = { x: Math.min(size - 1, Math.max(0, cursor.x + dx)), y: Math.min(size - 1, Math.max(0, cursor.y + dy)) };
      onHover && onHover(vertexName(size, cursor.x, cursor.y), true);
    } else if ((e.key === 'Enter' || e.key === ' ') && cursor) {
      e.preventDefault();
      onPlay(vertexName(size, cursor.x, cursor.y));
    }
  });
  container.replaceChildren(svg);

  let shown = null; // the last layers drawn, to redraw them in another style
  let shadows = null; // the group of stone shadows, below every stone
  // A stone: in the shaded style its gradient and, below it, a soft shadow to the lower right
  // (none for ghost and dead stones, which are drawn faint).
  function stone(x, y, c, cls, attrs) {
    const shaded = stoneStyle === 'shaded';
    if (shaded && !cls) el('circle', { cx: x + 0.06, cy: y + 0.08, r: 0.5, class: 'shadow', fill: 'url(#tengen-stone-shadow)' }, shadows);
    return el('circle', { cx: x, cy: y, r: 0.47, class: `stone ${c}${cls}`, ...(shaded ? { fill: `url(#tengen-stone-${c})` } : {}), ...attrs }, layer);
  }

  function render(layers) {
    shown = layers;
    const { grid, last, ghost, dead, unsure, territory, cursorVertex } = layers;
    layer.replaceChildren();
    shadows = el('g', { class: 'shadows' }, layer);
    if (territory) {
      for (const [v, color] of territory) {
        const [x, y] = v;
        el('rect', { x: x - 0.18, y: y - 0.18, width: 0.36, height: 0.36, class: `terr ${color}` }, layer);
      }
    }
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const c = grid[y][x];
        if (!c) continue;
        const isDead = dead && dead.has(`${x},${y}`);
        stone(x, y, c, isDead ? ' dead' : '', { 'data-stone': `${vertexName(size, x, y)}:${c}` });
        if (unsure && unsure.has(`${x},${y}`)) {
          el('circle', { cx: x, cy: y, r: 0.5, class: 'unsure', 'data-unsure': vertexName(size, x, y) }, layer);
        }
        if (isDead) {
          el('line', { x1: x - 0.2, y1: y - 0.2, x2: x + 0.2, y2: y + 0.2, class: 'deadmark' }, layer);
          el('line', { x1: x - 0.2, y1: y + 0.2, x2: x + 0.2, y2: y - 0.2, class: 'deadmark' }, layer);
        }
      }
    }
    if (last && grid[last.y][last.x]) {
      el('circle', { cx: last.x, cy: last.y, r: 0.22, class: `last on-${grid[last.y][last.x]}` }, layer);
    }
    if (ghost && !grid[ghost.y][ghost.x]) {
      stone(ghost.x, ghost.y, ghost.color, ' ghost', {});
    }
    drawReview(layer, size, grid, layers);
    if (cursorVertex) {
      el('rect', { x: cursorVertex.x - 0.5, y: cursorVertex.y - 0.5, width: 1, height: 1, class: 'cursor' }, layer);
    }
  }
  /** 'shaded' or 'flat'. */
  function setStones(style) {
    stoneStyle = style === 'flat' ? 'flat' : 'shaded';
    svg.classList.toggle('flat', stoneStyle === 'flat');
    svg.classList.toggle('shaded', stoneStyle === 'shaded');
    if (shown) render(shown);
  }
  function setCoords(on) {
    coords = !!on;
    svg.classList.toggle('no-coords', !coords);
    svg.setAttribute('viewBox', viewBox(size, coords));
  }
  return { render, setStones, setCoords, svg };
}
