// The review board's state, pure: the game tree read from the server's flat list, the position
// at a path through it, the markup, branches and candidates drawn on the board, and a reducer for
// what the viewer does (`initial(review, me)`, `reduce(state, msg)`). Plain data in and out (no
// DOM, no timers, no catalogue): review.js draws it. Tests: web/tests/review_state.test.mjs
// (`node --test`, no browser).
//
// A path is the list of child indices from the root (`[]` the root, `[0, 0]` the main line's
// second move); the main line is all zeros.

import { play, parseVertex } from './go.js';

/** An SGF Text value as written (escapes intact) -> the text. */
export function sgfText(v) {
  return String(v ?? '').replace(/\\\r?\n/g, '').replace(/\\(.)/g, '$1');
}

/** An SGF point ("dd") -> {x, y}, or null for a pass. */
export function sgfPoint(size, v) {
  if (!v || v.length < 2 || (v === 'tt' && size <= 19)) return null;
  const x = v.charCodeAt(0) - 97;
  const y = v.charCodeAt(1) - 97;
  return x >= 0 && y >= 0 && x < size && y < size ? { x, y } : null;
}

/**
 * The review's tree from the server's flat list of nodes (the root first, children as indices
 * into the list): each node an object with its props and its children, which paths walk. The
 * review is returned with `tree` added.
 */
export function withTree(r) {
  const nodes = r.nodes.map((n) => ({ props: n.props, children: [] }));
  r.nodes.forEach((n, i) => {
    nodes[i].children = n.children.map((c) => nodes[c]);
  });
  return { ...r, tree: nodes[0] };
}

/** The board's size from the root's SZ (19 when absent or unreadable). */
export function boardSize(tree) {
  return Number((tree.props.SZ || ['19'])[0]) || 19;
}

/** The node at `path`, or null when the tree has none there. */
export function nodeAt(tree, path) {
  let n = tree;
  for (const i of path) {
    n = n && n.children[i];
  }
  return n || null;
}

/** The board after the nodes along `path`: set-up (AB, AW, AE) and moves, with captures. */
export function positionAt(tree, size, path) {
  let grid = Array.from({ length: size }, () => Array(size).fill(null));
  let last = null;
  let n = tree;
  const nodes = [tree];
  for (const i of path) {
    n = n.children[i];
    nodes.push(n);
  }
  for (const node of nodes) {
    const p = node.props;
    for (const [id, c] of [['AB', 'b'], ['AW', 'w'], ['AE', null]]) {
      for (const v of p[id] || []) {
        const q = sgfPoint(size, v);
        if (q) grid[q.y][q.x] = c;
      }
    }
    for (const [id, c] of [['B', 'b'], ['W', 'w']]) {
      if (!p[id]) continue;
      const q = sgfPoint(size, p[id][0]);
      last = q;
      if (q) grid = play(grid, size, c, q.x, q.y);
    }
  }
  return { grid, last };
}

/** The colour a node's move is played by ('b', 'w') or null. */
export function moveColor(node) {
  return node.props.B ? 'b' : node.props.W ? 'w' : null;
}

/** The move a node holds: { color: 'B' or 'W', point: {x, y} or null for a pass }, or null. */
export function moveOf(node, size) {
  for (const id of ['B', 'W']) {
    if (node.props[id]) return { color: id, point: sgfPoint(size, node.props[id][0]) };
  }
  return null;
}

/** The next moves where `node` branches (several children): [{x, y, color, label, child}],
 * lettered A (the main line's), B, … in the tree's order; none where it does not branch. */
export function branchesOf(node, size) {
  if (!node || node.children.length < 2) return [];
  const out = [];
  node.children.forEach((c, i) => {
    const color = moveColor(c);
    const q = color && sgfPoint(size, c.props[color.toUpperCase()][0]);
    if (q) out.push({ ...q, color, label: String.fromCharCode(65 + Math.min(i, 25)), child: i });
  });
  return out;
}

/** SGF markup at a node -> [{x, y, kind, label}]. */
export function marksOf(node, size) {
  const out = [];
  for (const kind of ['TR', 'SQ', 'CR', 'MA', 'LB']) {
    for (const v of node.props[kind] || []) {
      const [at, label] = String(v).split(':');
      const q = sgfPoint(size, at);
      if (q) out.push({ ...q, kind, label: label ? sgfText(label) : '' });
    }
  }
  return out;
}

/** The first letter from A that no label of `node` uses yet. */
export function nextLetter(node) {
  const used = new Set((node.props.LB || []).map((v) => String(v).split(':')[1]));
  for (let i = 0; i < 26; i++) {
    const l = String.fromCharCode(65 + i);
    if (!used.has(l)) return l;
  }
  return 'A';
}

/** Ownership as the server writes it (a letter a point, `a` White's to `u` Black's) -> rows. */
export function ownershipGrid(text, size) {
  if (!text || text.length !== size * size) return null;
  return Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => (text.charCodeAt(y * size + x) - 107) / 10));
}

/**
 * The line through `path`: the root's children down to the current node, then on along first
 * children. Each move with its path and how many other variations stand beside it.
 */
export function lineOf(tree, path) {
  const line = [];
  let n = tree;
  let p = [];
  for (let i = 0; n && (i < path.length || n.children.length); i++) {
    const parent = n;
    p = [...p, i < path.length ? path[i] : 0];
    n = n.children[p[p.length - 1]];
    if (n) line.push({ node: n, path: p, others: parent.children.length - 1 });
  }
  return line;
}

/**
 * The variation tree laid out as Sabaki draws it: a node a column step, the main line on the
 * first row, each other variation on a row of its own (below every row the earlier ones took).
 * Nodes: {node, path, depth, row}, root first; edges: [parent, child] pairs.
 */
export function treeLayout(tree) {
  const nodes = [];
  const edges = [];
  let rows = 0;
  // Depth first without recursion: a long game is hundreds of nodes deep.
  const stack = [{ node: tree, path: [], depth: 0, row: 0, parent: null }];
  while (stack.length) {
    const item = stack.pop();
    if (item.row == null) item.row = ++rows;
    nodes.push(item);
    if (item.parent) edges.push([item.parent, item]);
    // The first child keeps its parent's row; the others get rows when first reached. Pushed
    // last first: the first child comes out first.
    for (let i = item.node.children.length - 1; i >= 0; i--) {
      stack.push({ node: item.node.children[i], path: [...item.path, i], depth: item.depth + 1, row: i === 0 ? item.row : null, parent: item });
    }
  }
  return { nodes, edges, rows, depth: Math.max(...nodes.map((i) => i.depth)) };
}

/**
 * The win-rate graph's lines in a `w` by `h` box: Black's win rate (0 at the bottom) and the
 * score lead (dashed, scaled to the largest lead, at least 10 points), as SVG point lists.
 * Positions the game was over at (null) are skipped. `x(i)` is move i's abscissa.
 */
export function chartLines(positions, w, h) {
  const n = Math.max(positions.length - 1, 1);
  const x = (i) => (i * w) / n;
  const rates = positions.map((p, i) => (p ? `${x(i)},${h - p.black_winrate * h}` : null)).filter(Boolean);
  const scale = Math.max(10, ...positions.map((p) => (p && p.black_lead != null ? Math.abs(p.black_lead) : 0)));
  const leads = positions.map((p, i) => (p && p.black_lead != null ? `${x(i)},${h / 2 - (p.black_lead / scale) * (h / 2)}` : null)).filter(Boolean);
  return { rates, leads, x, n };
}

/** The main line's path to move `i`. */
export function mainPath(i) {
  return Array(i).fill(0);
}

/**
 * The state of the page: the review (with its tree), its board size, who looks (`me`, a
 * username or null) and what they do: the path shown, following the owner's cursor or not,
 * the markup tool, the territory shown, the candidate whose variation is shown (`pv`, `pinned`
 * when a click chose it, not a hover), and the owner's edits not answered yet (`pending`).
 */
export function initial(review, me) {
  const r = withTree(review);
  return { review: r, size: boardSize(r.tree), me, path: r.cursor.slice(), follow: true, tool: 'play', ownership: false, pv: null, pinned: false, pending: 0 };
}

/** Whether the viewer owns the review (and so leads it). */
export function own(s) {
  return !!s.me && s.me === s.review.owner;
}

/** Whether the path shown is on the main line (the only one analysed). */
export function onMain(s) {
  return s.path.every((i) => i === 0);
}

/** The analysis of the position shown (main line only), or null. */
export function analysed(s) {
  const positions = (s.review.analysis && s.review.analysis.positions) || [];
  return onMain(s) ? positions[s.path.length] || null : null;
}

/**
 * At a position the game was over at (the last pass: the server analyses no position after the
 * end), the last position analysed before it, which stands for it: {at, ...position}; else null.
 */
export function finalAnalysis(s) {
  const positions = (s.review.analysis && s.review.analysis.positions) || [];
  if (!onMain(s) || analysed(s) || s.path.length >= positions.length) return null;
  for (let i = s.path.length - 1; i >= 0; i--) {
    if (positions[i]) return { at: i, ...positions[i] };
  }
  return null;
}

/** The candidate move at vertex `v` ("D4") in the analysis shown, or null. */
export function candidateAt(s, v) {
  const here = analysed(s);
  return here ? here.best.find((b) => b.move === v) || null : null;
}

/** What the board draws for the state: stones, last move, territory, markup, candidates, the
 * variation shown (numbered, each point once) and the branches' next moves. */
export function boardLayers(s) {
  const { size } = s;
  const { grid, last } = positionAt(s.review.tree, size, s.path);
  const node = nodeAt(s.review.tree, s.path);
  const here = analysed(s);
  const owner = here || finalAnalysis(s);
  const candidates = here ? here.best.map((b, i) => ({ ...parseVertex(size, b.move), winrate: b.winrate, visits: b.visits, best: i === 0, move: b.move })).filter((c) => c.x != null) : [];
  let variation = null;
  if (s.pv && here) {
    const toMove = here.to_move === 'black' ? 'b' : 'w';
    variation = [];
    (s.pv.pv || [s.pv.move]).forEach((v, i) => {
      const q = parseVertex(size, v);
      const color = i % 2 === 0 ? toMove : toMove === 'b' ? 'w' : 'b';
      if (q && !variation.some((m) => m.x === q.x && m.y === q.y)) variation.push({ ...q, color, n: i + 1 });
    });
  }
  return {
    grid,
    last,
    ownership: s.ownership && owner ? ownershipGrid(owner.ownership, size) : null,
    marks: marksOf(node, size),
    candidates,
    variation,
    branches: branchesOf(node, size),
  };
}

/** The path a key or button leads to from the state: 'first', 'back', 'next', 'last', 'up' and
 * 'down' (the sibling variations beside the current node); null where there is none. */
export function pathTo(s, where) {
  const { tree } = s.review;
  const { path } = s;
  const node = nodeAt(tree, path);
  if (where === 'first') return [];
  if (where === 'back') return path.length ? path.slice(0, -1) : null;
  if (where === 'next') return node && node.children.length ? [...path, 0] : null;
  if (where === 'last') {
    const to = path.slice();
    for (let n = node; n && n.children.length; n = n.children[0]) to.push(0);
    return to;
  }
  if (!path.length) return null;
  const i = path[path.length - 1] + (where === 'up' ? -1 : 1);
  return i >= 0 && i < nodeAt(tree, path.slice(0, -1)).children.length ? [...path.slice(0, -1), i] : null;
}

/** The path a follower's click at vertex `v` leads to: down a branch whose next move is there. */
export function branchAt(s, v) {
  const q = parseVertex(s.size, v);
  const b = q && branchesOf(nodeAt(s.review.tree, s.path), s.size).find((m) => m.x === q.x && m.y === q.y);
  return b ? [...s.path, b.child] : null;
}

/** The owner's edit for a click at vertex `v`: a move, or the tool's mark (a label the next
 * free letter). */
export function editAt(s, v) {
  if (s.tool === 'play') return { type: 'play', path: s.path, point: v };
  const label = s.tool === 'LB' ? { label: nextLetter(nodeAt(s.review.tree, s.path)) } : {};
  return { type: 'mark', path: s.path, kind: s.tool, point: v, ...label };
}

/**
 * The state after `msg`; the same object when nothing changed (the page need not redraw).
 * - `review` {review, keepPath}: a newer review; the cursor moves with it (for its owner, or a
 *   follower following) unless `keepPath` (the owner's edits in flight: keys pressed quickly
 *   step on from where the board shows).
 * - `go` {path}: the viewer goes there; a follower stops following.
 * - `follow` {on}, `ownership` {on}, `tool` {tool}.
 * - `hover` {point}: the candidate there shows its variation, unless one is pinned.
 * - `pick` {point}: a click pins the candidate there, or unpins it; elsewhere, none is shown.
 * - `sent`, `answered`: an owner's edit went out, its answer (or error) came back.
 */
export function reduce(s, msg) {
  switch (msg.type) {
    case 'review': {
      const review = withTree(msg.review);
      let path = !msg.keepPath && (own(s) || s.follow) ? review.cursor.slice() : s.path;
      if (!nodeAt(review.tree, path)) path = [];
      return { ...s, review, path };
    }
    case 'go':
      if (!nodeAt(s.review.tree, msg.path)) return s;
      return { ...s, path: msg.path, pv: null, pinned: false, follow: own(s) ? s.follow : false };
    case 'follow':
      return { ...s, follow: msg.on, path: msg.on ? s.review.cursor.slice() : s.path };
    case 'ownership':
      return { ...s, ownership: msg.on };
    case 'tool':
      return { ...s, tool: msg.tool };
    case 'hover': {
      if (s.pinned) return s;
      const pv = msg.point ? candidateAt(s, msg.point) : null;
      return pv === s.pv ? s : { ...s, pv };
    }
    case 'pick': {
      const c = msg.point ? candidateAt(s, msg.point) : null;
      const pv = c && !(s.pinned && s.pv === c) ? c : null;
      return { ...s, pv, pinned: !!pv };
    }
    case 'sent':
      return { ...s, pending: s.pending + 1 };
    case 'answered':
      return { ...s, pending: s.pending - 1 };
    default:
      return s;
  }
}
