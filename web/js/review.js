// The review board (#/review/ID): a game tree on a board with move navigation, variations and
// comments. Its owner leads (every click, move, mark and comment is stored and shown to
// followers at once); followers follow the owner's cursor, or browse on their own. The network's
// analysis of the main line runs in the background: Black's win rate and the score lead along
// the game (a graph to click), the candidate moves on the board with their variations, and the
// territory each side owns. Arrow keys and the mouse wheel step, as in Sabaki, KaTrain and OGS's
// review boards; markup is SGF's (LB, TR, SQ, CR, MA); a chat runs beside the board.

import * as api from './api.js';
import { createBoard } from './board.js';
import { play, vertexName, parseVertex } from './go.js';
import { t, tn } from './i18n.js';
import { esc } from './html.js';

const NS = 'http://www.w3.org/2000/svg';
const TOOLS = ['play', 'TR', 'SQ', 'CR', 'MA', 'LB'];

/** An SGF Text value as written (escapes intact) -> the text. */
function sgfText(v) {
  return String(v ?? '').replace(/\\\r?\n/g, '').replace(/\\(.)/g, '$1');
}

/** An SGF point ("dd") -> {x, y}, or null for a pass. */
function sgfPoint(size, v) {
  if (!v || v.length < 2 || (v === 'tt' && size <= 19)) return null;
  const x = v.charCodeAt(0) - 97;
  const y = v.charCodeAt(1) - 97;
  return x >= 0 && y >= 0 && x < size && y < size ? { x, y } : null;
}

/**
 * The review's tree from the server's flat list of nodes (the root first, children as indices
 * into the list): each node an object with its props and its children, which paths walk.
 */
function withTree(r) {
  const nodes = r.nodes.map((n) => ({ props: n.props, children: [] }));
  r.nodes.forEach((n, i) => {
    nodes[i].children = n.children.map((c) => nodes[c]);
  });
  r.tree = nodes[0];
  return r;
}

function nodeAt(tree, path) {
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
function moveColor(node) {
  return node.props.B ? 'b' : node.props.W ? 'w' : null;
}

/** The move a node holds, for people: "B D4", "W pass", or "" for none. */
function moveLabel(node, size) {
  for (const [id, c] of [['B', 'B'], ['W', 'W']]) {
    if (node.props[id]) {
      const q = sgfPoint(size, node.props[id][0]);
      return `${c} ${q ? vertexName(size, q.x, q.y) : t('review.pass')}`;
    }
  }
  return '';
}

/** The next moves where `node` branches (several children): [{x, y, color, label, child}],
 * lettered A (the main line's), B, … in the tree's order; none where it does not branch. */
function branchesOf(node, size) {
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
function marksOf(node, size) {
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
function nextLetter(node) {
  const used = new Set((node.props.LB || []).map((v) => String(v).split(':')[1]));
  for (let i = 0; i < 26; i++) {
    const l = String.fromCharCode(65 + i);
    if (!used.has(l)) return l;
  }
  return 'A';
}

/** Ownership as the server writes it (a letter a point, `a` White's to `u` Black's) -> rows. */
function ownershipGrid(text, size) {
  if (!text || text.length !== size * size) return null;
  return Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => (text.charCodeAt(y * size + x) - 107) / 10));
}

/** A lead in points as players write it: "B+2.5", "W+0.5". */
function leadText(lead) {
  if (lead == null) return '';
  return lead >= 0 ? t('review.lead_b', { points: lead.toFixed(1) }) : t('review.lead_w', { points: (-lead).toFixed(1) });
}

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * Black's win rate along the main line (a solid line) and the score lead (dashed, scaled to the
 * largest lead) as SVG; `at` marks the current move. Positions the game was over at are
 * skipped. `onPick(i)` gets the move clicked, `onPoint(i)` the one under the pointer.
 */
function winrateChart(positions, at, onPick, onPoint) {
  const W = 320, H = 90;
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart winrate', role: 'img', 'aria-label': t('review.winrate_label'), 'data-testid': 'winrate-graph' });
  svgEl('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' }, svg);
  const n = Math.max(positions.length - 1, 1);
  const x = (i) => (i * W) / n;
  const rates = positions.map((p, i) => (p ? `${x(i)},${H - p.black_winrate * H}` : null)).filter(Boolean);
  const leads = positions.map((p) => (p && p.black_lead != null ? Math.abs(p.black_lead) : 0));
  const scale = Math.max(10, ...leads);
  const leadPts = positions.map((p, i) => (p && p.black_lead != null ? `${x(i)},${H / 2 - (p.black_lead / scale) * (H / 2)}` : null)).filter(Boolean);
  const lead = svgEl('polyline', { points: leadPts.join(' '), class: 'lead' }, svg);
  lead.dataset.points = String(leadPts.length);
  const line = svgEl('polyline', { points: rates.join(' '), class: 'rating' }, svg);
  line.dataset.points = String(rates.length);
  if (at != null) svgEl('line', { x1: x(at), y1: 0, x2: x(at), y2: H, class: 'axis' }, svg);
  const index = (e) => {
    const r = svg.getBoundingClientRect();
    return Math.min(positions.length - 1, Math.max(0, Math.round(((e.clientX - r.left) / r.width) * n)));
  };
  svg.addEventListener('click', (e) => onPick(index(e)));
  svg.addEventListener('pointermove', (e) => onPoint(index(e)));
  return svg;
}

/**
 * The variation tree as SVG, as Sabaki draws it: a node a column step, the main line on the
 * first row, each other variation on a row of its own; click a node to go there.
 */
function treeView(tree, current, onPick) {
  const STEP = 16;
  const nodes = [];
  const edges = [];
  let rows = 0;
  // Depth first without recursion: a long game is hundreds of nodes deep.
  const stack = [{ node: tree, path: [], depth: 0, row: 0 }];
  while (stack.length) {
    const item = stack.pop();
    if (item.row == null) item.row = ++rows;
    nodes.push(item);
    // The first child keeps its parent's row; the others get rows when first reached (below
    // every row the earlier variations took). Pushed last first: the first child comes out first.
    for (let i = item.node.children.length - 1; i >= 0; i--) {
      stack.push({ node: item.node.children[i], path: [...item.path, i], depth: item.depth + 1, row: i === 0 ? item.row : null });
    }
  }
  const byPath = new Map();
  for (const item of nodes) {
    byPath.set(item.path.join('.'), item);
    if (item.path.length) {
      const parent = byPath.get(item.path.slice(0, -1).join('.'));
      edges.push([parent, item]);
    }
  }
  const maxDepth = Math.max(...nodes.map((i) => i.depth));
  const svg = svgEl('svg', { width: (maxDepth + 1) * STEP + 8, height: (rows + 1) * STEP + 8, 'aria-label': t('review.tree'), role: 'tree' });
  const cx = (i) => 8 + i.depth * STEP;
  const cy = (i) => 8 + i.row * STEP;
  for (const [a, b] of edges) svgEl('line', { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: 'edge' }, svg);
  const here = current.join('.');
  for (const item of nodes) {
    const c = svgEl('circle', { cx: cx(item), cy: cy(item), r: 5, class: `${moveColor(item.node) || 'n'}${item.path.join('.') === here ? ' current' : ''}`, 'data-path': item.path.join('.'), role: 'treeitem' }, svg);
    c.addEventListener('click', () => onPick(item.path));
  }
  return svg;
}

export async function reviewPage(main, app, id) {
  let review = withTree(await api.review(id));
  const size = Number((review.tree.props.SZ || ['19'])[0]) || 19;
  const own = () => app.user && app.user.username === review.owner;
  let path = review.cursor.slice();
  let follow = true;
  let alive = true;
  let tool = 'play';
  let showOwnership = false;
  let pv = null; // the candidate whose variation is shown
  let pinned = false; // shown by a click, not a hover
  let pending = 0; // the owner's edits not answered yet
  let final = null; // at a position the game was over at: the last one analysed before it

  /** Sends the owner's edit. While later ones are on their way, an answer does not move the
   * cursor back: keys pressed quickly step on from where the board shows. */
  async function send(edit) {
    pending++;
    try {
      const r = await api.reviewEdit(id, edit);
      pending--;
      update(r, pending > 0);
    } catch (e) {
      pending--;
      app.error(e);
    }
  }

  const titleLink = review.game ? `<a href="#/game/${review.game}">${esc(t('review.title_game', { id: review.game }))}</a>` : esc(t('review.title_record'));
  main.innerHTML = `
    <div class="game review">
      <div class="board-wrap" id="review-board"></div>
      <aside class="panel stack">
        <h1 class="h2">${titleLink}</h1>
        <p class="muted small" id="lead"></p>
        <div class="row" role="group" aria-label="${esc(t('review.nav'))}">
          <button data-nav="first">${esc(t('review.first'))}</button><button data-nav="back">${esc(t('review.back'))}</button><button data-nav="next">${esc(t('review.next'))}</button><button data-nav="last">${esc(t('review.last'))}</button>
        </div>
        <p class="muted small">${esc(t('review.keys'))}</p>
        <p id="where" data-testid="where"></p>
        <div id="variations" class="row" aria-label="${esc(t('review.variations'))}"></div>
        <label class="inline" id="follow-box"><input type="checkbox" id="follow" checked> ${esc(t('review.follow', { name: review.owner }))}</label>
        <div id="tools" class="row" role="group" aria-label="${esc(t('review.tools'))}"></div>
        <div id="comment"></div>
        <h2>${esc(t('review.moves'))}</h2>
        <div id="moves" class="moves" data-testid="moves"></div>
        <h2>${esc(t('review.tree'))}</h2>
        <div id="tree" class="tree" data-testid="tree"></div>
        <h2>${esc(t('review.analysis'))}</h2>
        <div class="row"><button id="analyse">${esc(t('review.analyse'))}</button><progress id="progress" max="1" value="0" hidden></progress></div>
        <label class="inline"><input type="checkbox" id="ownership"> ${esc(t('review.ownership'))}</label>
        <div id="winrate"></div>
        <p id="graph-at" class="small muted" data-testid="graph-at"></p>
        <p id="best" class="small" data-testid="best"></p>
        <ol id="candidates" class="small" data-testid="candidates"></ol>
        <h2>${esc(t('review.chat'))}</h2>
        <ul id="chat" class="chat" data-testid="review-chat" aria-live="polite"></ul>
        <form id="chat-form" class="row"><input id="chat-text" maxlength="500" autocomplete="off" placeholder="${esc(t('review.chat_placeholder'))}" aria-label="${esc(t('review.chat'))}"><button type="submit">${esc(t('review.say'))}</button></form>
        <p id="chat-login" class="muted small">${esc(t('review.chat_login'))}</p>
        <p><a href="${review.sgf}" download>${esc(t('review.download'))}</a></p>
      </aside>
    </div>`;
  const $ = (sel) => main.querySelector(sel);

  /** The analysis of the position shown (main line only), or null. */
  function analysed() {
    const positions = (review.analysis && review.analysis.positions) || [];
    return path.every((i) => i === 0) ? positions[path.length] || null : null;
  }

  function candidateAt(v) {
    const here = analysed();
    return here ? here.best.find((b) => b.move === v) || null : null;
  }

  const board = createBoard($('#review-board'), size, {
    onPlay: async (v) => {
      if (!own()) {
        // A click on a branch's next move goes down it.
        const q = parseVertex(size, v);
        const b = q && branchesOf(nodeAt(review.tree, path), size).find((s) => s.x === q.x && s.y === q.y);
        if (b) {
          go([...path, b.child]);
          return;
        }
        // A follower's click shows (or hides) a candidate's variation.
        const c = candidateAt(v);
        pv = c && !(pinned && pv === c) ? c : null;
        pinned = !!pv;
        render();
        return;
      }
      const edit = tool === 'play'
        ? { type: 'play', path, point: v }
        : { type: 'mark', path, kind: tool, point: v, ...(tool === 'LB' ? { label: nextLetter(nodeAt(review.tree, path)) } : {}) };
      pv = null;
      pinned = false;
      await send(edit);
    },
    onHover: (v) => {
      if (pinned) return;
      const c = v ? candidateAt(v) : null;
      if (c !== pv) {
        pv = c;
        render();
      }
    },
    label: t('review.board_label', { size }),
  });

  async function go(to) {
    if (!nodeAt(review.tree, to)) return;
    path = to;
    pv = null;
    pinned = false;
    if (own()) {
      render();
      await send({ type: 'navigate', path: to });
    } else {
      follow = false;
      $('#follow').checked = false;
      render();
    }
  }

  const next = () => {
    const n = nodeAt(review.tree, path);
    if (n && n.children.length) go([...path, 0]);
  };
  const back = () => path.length && go(path.slice(0, -1));
  const last = () => {
    const to = path.slice();
    let n = nodeAt(review.tree, to);
    while (n && n.children.length) {
      to.push(0);
      n = n.children[0];
    }
    go(to);
  };
  /** The sibling variation `d` (±1) beside the current node. */
  const sibling = (d) => {
    if (!path.length) return;
    const parent = nodeAt(review.tree, path.slice(0, -1));
    const i = path[path.length - 1] + d;
    if (i >= 0 && i < parent.children.length) go([...path.slice(0, -1), i]);
  };
  /** The main line's path to move `i`. */
  const mainPath = (i) => Array(i).fill(0);

  $('[data-nav=first]').onclick = () => go([]);
  $('[data-nav=back]').onclick = back;
  $('[data-nav=next]').onclick = next;
  $('[data-nav=last]').onclick = last;
  // Keys anywhere on the page but in a text field or on the board (whose arrows move its
  // cursor); the wheel over the board.
  const onKey = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest('input, textarea, select, svg.board')) return;
    const act = { ArrowLeft: back, ArrowRight: next, ArrowUp: () => sibling(-1), ArrowDown: () => sibling(1), Home: () => go([]), End: last }[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  };
  document.addEventListener('keydown', onKey);
  $('#review-board').addEventListener('wheel', (e) => {
    if (!e.deltaY) return;
    e.preventDefault();
    if (e.deltaY > 0) next();
    else back();
  }, { passive: false });
  $('#follow').onchange = (e) => {
    follow = e.target.checked;
    if (follow) {
      path = review.cursor.slice();
      render();
    }
  };
  $('#ownership').onchange = (e) => {
    showOwnership = e.target.checked;
    render();
  };
  $('#analyse').onclick = async () => {
    try {
      update(await api.reviewAnalyse(id));
    } catch (e) {
      app.error(e);
    }
  };
  $('#chat-form').onsubmit = async (e) => {
    e.preventDefault();
    const input = $('#chat-text');
    const text = input.value.trim();
    if (!text) return;
    try {
      await api.reviewChat(id, text);
      input.value = '';
    } catch (err) {
      app.error(err);
    }
  };
  for (const k of TOOLS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.tool = k;
    b.textContent = t(`review.tool_${k}`);
    b.onclick = () => {
      tool = k;
      render();
    };
    $('#tools').appendChild(b);
  }

  /** A newer review; the cursor moves with it unless `keepPath` (the owner's edits in flight). */
  function update(r, keepPath = false) {
    review = withTree(r);
    if (!keepPath && (own() || follow)) path = r.cursor.slice();
    if (!nodeAt(review.tree, path)) path = [];
    render();
  }

  /** The current line: the root to the current node, then on along first children. */
  function moveList(node) {
    const list = $('#moves');
    list.replaceChildren();
    const line = [];
    let n = review.tree;
    for (let i = 0; i < path.length; i++) {
      n = n.children[path[i]];
      line.push({ node: n, path: path.slice(0, i + 1) });
    }
    let p = path.slice();
    while (n.children.length) {
      n = n.children[0];
      p = [...p, 0];
      line.push({ node: n, path: p });
    }
    line.forEach((m, i) => {
      const b = document.createElement('button');
      const noted = m.node.props.C ? ' ✎' : '';
      // A move with other variations beside it says how many: the tree branches before it.
      const parent = i === 0 ? review.tree : line[i - 1].node;
      const others = parent.children.length - 1;
      b.textContent = `${i + 1}. ${moveLabel(m.node, size) || t('review.node')}${noted}${others ? ` +${others}` : ''}`;
      const titles = [];
      if (noted) titles.push(t('review.commented'));
      if (others) {
        titles.push(tn('review.other_variations', others));
        b.dataset.branches = String(others);
      }
      if (titles.length) b.title = titles.join(' · ');
      b.dataset.move = String(i + 1);
      if (m.node === node) b.classList.add('current');
      b.onclick = () => go(m.path);
      list.appendChild(b);
    });
    const current = list.querySelector('.current');
    if (current && current.scrollIntoView) current.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  function renderAnalysis(onMain) {
    const a = review.analysis;
    const progress = $('#progress');
    progress.hidden = a.state !== 'running';
    if (a.state === 'running') {
      progress.max = a.total;
      progress.value = a.done;
    }
    $('#analyse').disabled = a.state === 'running';
    $('#analyse').textContent = a.state === 'running' ? t('review.analysing', { done: a.done, total: a.total }) : a.state === 'done' ? t('review.analyse_again') : t('review.analyse');
    const positions = a.positions || [];
    const describe = (i) => {
      const p = positions[i];
      return p ? `${t('review.move', { n: i })}: ${t('review.black_wins', { rate: Math.round(p.black_winrate * 100) })} · ${leadText(p.black_lead)}` : '';
    };
    $('#winrate').replaceChildren(positions.length ? winrateChart(positions, onMain ? path.length : null, (i) => go(mainPath(i)), (i) => {
      $('#graph-at').textContent = describe(i);
    }) : document.createTextNode(''));
    $('#graph-at').textContent = positions.length ? t('review.graph_hint') : '';
    const here = onMain ? positions[path.length] : null;
    // The game was over at this position (the last pass: the server analyses no position after
    // the end): the last position analysed stands for it, its win rate, lead and territory.
    final = null;
    if (onMain && !here && path.length < positions.length) {
      for (let i = path.length - 1; i >= 0; i--) {
        if (positions[i]) {
          final = { at: i, ...positions[i] };
          break;
        }
      }
    }
    const color = here && (here.to_move === 'black' ? t('review.black') : t('review.white'));
    $('#best').textContent = here
      ? `${t('review.black_wins', { rate: Math.round(here.black_winrate * 100) })} · ${leadText(here.black_lead)} · ${t('review.best_for', { color, moves: here.best.map((b) => `${b.move} (${Math.round(b.winrate * 100)}%)`).join(', ') })}${here.engine === 'mcts' ? ` ${t('review.engine_mcts')}` : ''}`
      : final ? t('review.game_over_analysis', { n: final.at, rate: Math.round(final.black_winrate * 100), lead: leadText(final.black_lead) })
      : positions.length ? t('review.no_analysis') : '';
    const list = $('#candidates');
    list.replaceChildren();
    // Analyses stored before the network's have no variations: the move alone stands for one.
    for (const b of here ? here.best : []) {
      const li = document.createElement('li');
      li.textContent = t('review.candidate', { move: b.move, rate: Math.round(b.winrate * 100), visits: b.visits, lead: leadText(b.black_lead), pv: (b.pv || [b.move]).join(' ') });
      li.dataset.candidate = b.move;
      li.onmouseenter = () => {
        if (!pinned) {
          pv = b;
          render();
        }
      };
      li.onclick = () => {
        pinned = !(pinned && pv === b);
        pv = pinned ? b : null;
        render();
      };
      list.appendChild(li);
    }
    return here;
  }

  function renderChat() {
    const ul = $('#chat');
    const lines = review.chat || [];
    if (ul.dataset.count === String(lines.length) && ul.dataset.last === String(lines.length && lines[lines.length - 1].id)) return;
    ul.replaceChildren();
    for (const l of lines) {
      const li = document.createElement('li');
      li.innerHTML = `<strong>${esc(l.from)}</strong>: <bdi>${esc(l.text)}</bdi>`;
      ul.appendChild(li);
    }
    ul.dataset.count = String(lines.length);
    ul.dataset.last = String(lines.length && lines[lines.length - 1].id);
    ul.scrollTop = ul.scrollHeight;
  }

  function render() {
    const { grid, last: lastMove } = positionAt(review.tree, size, path);
    const node = nodeAt(review.tree, path);
    const onMain = path.every((i) => i === 0);
    const here = renderAnalysis(onMain);
    const toMove = here ? (here.to_move === 'black' ? 'b' : 'w') : null;
    const candidates = here ? here.best.map((b, i) => ({ ...parseVertex(size, b.move), winrate: b.winrate, visits: b.visits, best: i === 0, move: b.move })).filter((c) => c.x != null) : [];
    let variation = null;
    if (pv && here) {
      variation = [];
      (pv.pv || [pv.move]).forEach((v, i) => {
        const q = parseVertex(size, v);
        const color = i % 2 === 0 ? toMove : toMove === 'b' ? 'w' : 'b';
        if (q && !variation.some((s) => s.x === q.x && s.y === q.y)) variation.push({ ...q, color, n: i + 1 });
      });
    }
    board.render({
      grid,
      last: lastMove,
      ownership: showOwnership && (here || final) ? ownershipGrid((here || final).ownership, size) : null,
      marks: marksOf(node, size),
      candidates,
      variation,
      branches: branchesOf(node, size),
    });
    $('#lead').textContent = own() ? t('review.you_lead') : t('review.leads', { name: review.owner });
    $('#follow-box').hidden = own();
    $('#tools').hidden = !own();
    for (const b of $('#tools').children) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
    $('#where').textContent = `${t('review.move', { n: path.length })}${path.length ? ` (${moveLabel(node, size)})` : ''}${onMain ? '' : ` · ${t('review.in_variation')}`}`;
    const vars = $('#variations');
    vars.replaceChildren();
    node.children.forEach((c, i) => {
      const b = document.createElement('button');
      b.textContent = t(i === 0 ? 'review.next_move' : 'review.variation', { move: moveLabel(c, size) || t('review.node') });
      b.dataset.child = String(i);
      b.onclick = () => go([...path, i]);
      vars.appendChild(b);
    });
    const comment = $('#comment');
    const text = sgfText((node.props.C || [''])[0]);
    if (own()) {
      const editing = comment.querySelector('#comment-text');
      // Not while the owner types: a follower's chat line redraws the page.
      if (!editing || document.activeElement !== editing || comment.dataset.path !== path.join('.')) {
        comment.innerHTML = `<label>${esc(t('review.comment'))} <textarea id="comment-text" rows="3"></textarea></label><button id="comment-save">${esc(t('review.save_comment'))}</button>`;
        comment.querySelector('#comment-text').value = text;
        comment.dataset.path = path.join('.');
        comment.querySelector('#comment-save').onclick = () => send({ type: 'comment', path, text: comment.querySelector('#comment-text').value });
      }
    } else {
      comment.innerHTML = text ? `<p class="comment" data-testid="comment"><bdi>${esc(text)}</bdi></p>` : `<p class="muted">${esc(t('review.no_comment'))}</p>`;
    }
    moveList(node);
    const treeBox = $('#tree');
    treeBox.replaceChildren(treeView(review.tree, path, go));
    const cur = treeBox.querySelector('circle.current');
    if (cur) treeBox.scrollLeft = Math.max(0, Number(cur.getAttribute('cx')) - treeBox.clientWidth / 2);
    const loggedIn = !!app.user && !app.user.guest;
    $('#chat-form').hidden = !loggedIn;
    $('#chat-login').hidden = loggedIn;
    renderChat();
  }

  render();
  // Follow the review: each answer comes when it changes (or after 25 s).
  (async () => {
    while (alive) {
      try {
        const r = await api.review(id, review.version);
        if (alive && r.version !== review.version) update(r, own() && pending > 0);
      } catch {
        await new Promise((ok) => setTimeout(ok, 2000));
      }
    }
  })();
  return () => {
    alive = false;
    document.removeEventListener('keydown', onKey);
  };
}
