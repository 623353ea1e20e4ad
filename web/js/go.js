// Go as the client needs it: vertex names, and replaying a finished game's moves so that one can
// step through them. The server is the authority on legality; this only redraws what happened.

export const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

/** "D4" -> {x, y} with y = 0 at the top, or null. */
export function parseVertex(size, v) {
  if (!v || v === 'pass') return null;
  const x = LETTERS.indexOf(v[0].toUpperCase());
  const n = parseInt(v.slice(1), 10);
  if (x < 0 || x >= size || !(n >= 1 && n <= size)) return null;
  return { x, y: size - n };
}

/** {x, y} -> "D4". */
export function vertexName(size, x, y) {
  return `${LETTERS[x]}${size - y}`;
}

/** Board rows ("X.O") -> a grid of 'b', 'w' or null, indexed [y][x]. */
export function gridFromRows(rows) {
  return rows.map((r) => [...r].map((c) => (c === 'X' ? 'b' : c === 'O' ? 'w' : null)));
}

function neighbours(size, x, y) {
  return [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]].filter(([a, b]) => a >= 0 && b >= 0 && a < size && b < size);
}

function chain(grid, size, x, y) {
  const color = grid[y][x];
  const stones = [[x, y]];
  const seen = new Set([`${x},${y}`]);
  let liberties = 0;
  for (let i = 0; i < stones.length; i++) {
    for (const [a, b] of neighbours(size, ...stones[i])) {
      const k = `${a},${b}`;
      if (seen.has(k)) continue;
      seen.add(k);
      if (grid[b][a] === null) liberties++;
      else if (grid[b][a] === color) stones.push([a, b]);
    }
  }
  return { stones, liberties };
}

/** Plays one move on a copy of `grid` with captures (and self-capture). */
export function play(grid, size, color, x, y) {
  const g = grid.map((r) => r.slice());
  g[y][x] = color;
  const other = color === 'b' ? 'w' : 'b';
  let captured = 0;
  for (const [a, b] of neighbours(size, x, y)) {
    if (g[b][a] === other) {
      const c = chain(g, size, a, b);
      if (c.liberties === 0) {
        for (const [p, q] of c.stones) g[q][p] = null;
        captured += c.stones.length;
      }
    }
  }
  if (captured === 0) {
    const own = chain(g, size, x, y);
    if (own.liberties === 0) for (const [p, q] of own.stones) g[q][p] = null;
  }
  return g;
}

/** The positions after each move: positions[0] is the start (handicap stones included). */
export function replay(size, handicapRows, moves) {
  let g = handicapRows;
  const positions = [g];
  for (const m of moves) {
    const v = parseVertex(size, m.point);
    if (v) g = play(g, size, m.color === 'black' ? 'b' : 'w', v.x, v.y);
    positions.push(g);
  }
  return positions;
}

/** An empty grid with Black stones on `vertices` (the handicap). */
export function gridWith(size, vertices) {
  const g = Array.from({ length: size }, () => Array(size).fill(null));
  for (const v of vertices) {
    const p = parseVertex(size, v);
    if (p) g[p.y][p.x] = 'b';
  }
  return g;
}
