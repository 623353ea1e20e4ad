// The board view: a pure SVG renderer of layered data that reports clicks on intersections. It
// knows no rules: the game page says what to draw.

import { LETTERS, vertexName } from './go.js';

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
 * Creates a board of `size` in `container`. `onPlay(vertex)` is called when the user clicks an
 * intersection or presses Enter on the keyboard cursor; `onHover(vertex|null)` as the pointer moves.
 * Returns { render(layers) } where layers = { grid, last, ghost, dead, unsure, territory, cursor }
 * (`unsure`: stones the estimator is unsure of, ringed).
 */
export function createBoard(container, size, { onPlay, onHover, label }) {
  const svg = el('svg', { viewBox: `-1.2 -1.2 ${size + 1.4} ${size + 1.4}`, class: 'board', role: 'grid', tabindex: '0', 'aria-label': label || `${size} by ${size} board` });
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

  function render({ grid, last, ghost, dead, unsure, territory, cursorVertex }) {
    layer.replaceChildren();
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
        el('circle', { cx: x, cy: y, r: 0.47, class: `stone ${c}${isDead ? ' dead' : ''}`, 'data-stone': `${vertexName(size, x, y)}:${c}` }, layer);
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
      el('circle', { cx: ghost.x, cy: ghost.y, r: 0.47, class: `stone ${ghost.color} ghost` }, layer);
    }
    if (cursorVertex) {
      el('rect', { x: cursorVertex.x - 0.5, y: cursorVertex.y - 0.5, width: 1, height: 1, class: 'cursor' }, layer);
    }
  }
  return { render, svg };
}
