// The review board (#/review/ID): a game tree on a board with move navigation, variations and
// comments. Its owner leads (every click, move, mark and comment is stored and shown to
// followers at once); followers follow the owner's cursor, or browse on their own. The network's
// analysis of the main line runs in the background: Black's win rate and the score lead along
// the game (a graph to click), the candidate moves on the board with their variations, and the
// territory each side owns. Arrow keys and the mouse wheel step, as in Sabaki, KaTrain and OGS's
// review boards; markup is SGF's (LB, TR, SQ, CR, MA); a chat runs beside the board.
// The page's state lives in review-state.js (the tree, the path shown, what the viewer does);
// every click goes `state = reduce(state, msg)`, then the view below draws the state.

import * as api from './api.js';
import { createBoard } from './board.js';
import { vertexName } from './go.js';
import { t, tn } from './i18n.js';
import { esc } from './html.js';
import {
  initial, reduce, own, onMain, analysed, finalAnalysis, boardLayers, pathTo, branchAt, editAt,
  nodeAt, moveOf, moveColor, lineOf, treeLayout, chartLines, mainPath, sgfText,
} from './review-state.js';

// The board's position was first computed here.
export { positionAt } from './review-state.js';

const NS = 'http://www.w3.org/2000/svg';
const TOOLS = ['play', 'TR', 'SQ', 'CR', 'MA', 'LB'];
// The keys that step through the review, as in Sabaki: to a place the state names.
const KEYS = { ArrowLeft: 'back', ArrowRight: 'next', ArrowUp: 'up', ArrowDown: 'down', Home: 'first', End: 'last' };

/** The move a node holds, for people: "B D4", "W pass", or "" for none. */
function moveLabel(node, size) {
  const m = moveOf(node, size);
  return m ? `${m.color} ${m.point ? vertexName(size, m.point.x, m.point.y) : t('review.pass')}` : '';
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
  const { rates, leads, x, n } = chartLines(positions, W, H);
  const lead = svgEl('polyline', { points: leads.join(' '), class: 'lead' }, svg);
  lead.dataset.points = String(leads.length);
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

/** The variation tree as SVG (review-state.js lays it out); click a node to go there. */
function treeView(tree, current, onPick) {
  const STEP = 16;
  const { nodes, edges, rows, depth } = treeLayout(tree);
  const svg = svgEl('svg', { width: (depth + 1) * STEP + 8, height: (rows + 1) * STEP + 8, 'aria-label': t('review.tree'), role: 'tree' });
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

/** The review board's page: its frame, its wiring, and the loop that follows the review. */
export async function reviewPage(main, app, id) {
  const c = { main, app, id, alive: true };
  c.state = initial(await api.review(id), app.user && app.user.username);
  main.innerHTML = skeleton(c.state.review);
  c.q = (sel) => main.querySelector(sel);
  c.dispatch = (msg) => {
    c.state = reduce(c.state, msg);
    render(c);
  };
  c.board = createBoard(c.q('#review-board'), c.state.size, {
    onPlay: (v) => boardClick(c, v),
    onHover: (v) => {
      const before = c.state;
      c.state = reduce(c.state, { type: 'hover', point: v });
      if (c.state !== before) render(c);
    },
    label: t('review.board_label', { size: c.state.size }),
  });
  const onKey = wireNavigation(c);
  wireControls(c);
  render(c);
  follow(c);
  return () => {
    c.alive = false;
    document.removeEventListener('keydown', onKey);
  };
}

function skeleton(review) {
  const titleLink = review.game ? `<a href="#/game/${review.game}">${esc(t('review.title_game', { id: review.game }))}</a>` : esc(t('review.title_record'));
  return `
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
        ${analysisSkeleton()}
        <h2>${esc(t('review.chat'))}</h2>
        <ul id="chat" class="chat" data-testid="review-chat" aria-live="polite"></ul>
        <form id="chat-form" class="row"><input id="chat-text" maxlength="500" autocomplete="off" placeholder="${esc(t('review.chat_placeholder'))}" aria-label="${esc(t('review.chat'))}"><button type="submit">${esc(t('review.say'))}</button></form>
        <p id="chat-login" class="muted small">${esc(t('review.chat_login'))}</p>
        <p><a href="${review.sgf}" download>${esc(t('review.download'))}</a></p>
      </aside>
    </div>`;
}

function analysisSkeleton() {
  return `<h2>${esc(t('review.analysis'))}</h2>
        <div class="row"><button id="analyse">${esc(t('review.analyse'))}</button><progress id="progress" max="1" value="0" hidden></progress></div>
        <label class="inline"><input type="checkbox" id="ownership"> ${esc(t('review.ownership'))}</label>
        <div id="winrate"></div>
        <p id="graph-at" class="small muted" data-testid="graph-at"></p>
        <p id="best" class="small" data-testid="best"></p>
        <ol id="candidates" class="small" data-testid="candidates"></ol>`;
}

/**
 * Sends the owner's edit. While later ones are on their way, an answer does not move the
 * cursor back: keys pressed quickly step on from where the board shows.
 */
async function send(c, edit) {
  c.state = reduce(c.state, { type: 'sent' });
  try {
    const r = await api.reviewEdit(c.id, edit);
    c.state = reduce(c.state, { type: 'answered' });
    c.dispatch({ type: 'review', review: r, keepPath: c.state.pending > 0 });
  } catch (e) {
    c.state = reduce(c.state, { type: 'answered' });
    c.app.error(e);
  }
}

/** A click on the board: the owner's move or mark; a follower's goes down a branch, or shows
 * (or hides) a candidate's variation. */
async function boardClick(c, v) {
  if (!own(c.state)) {
    const down = branchAt(c.state, v);
    if (down) go(c, down);
    else c.dispatch({ type: 'pick', point: v });
    return;
  }
  const edit = editAt(c.state, v);
  // No redraw: the edit's answer brings one.
  c.state = reduce(c.state, { type: 'pick', point: null });
  await send(c, edit);
}

/** Goes to `path`: the owner moves the review's cursor; a follower stops following. */
async function go(c, path) {
  if (!path || !nodeAt(c.state.review.tree, path)) return;
  c.dispatch({ type: 'go', path });
  if (own(c.state)) await send(c, { type: 'navigate', path });
  else c.q('#follow').checked = false;
}

/** The buttons, the keys anywhere on the page but in a text field or on the board (whose
 * arrows move its cursor), and the wheel over the board. Returns the key listener. */
function wireNavigation(c) {
  for (const b of c.main.querySelectorAll('[data-nav]')) b.onclick = () => go(c, pathTo(c.state, b.dataset.nav));
  const onKey = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest('input, textarea, select, svg.board')) return;
    if (!KEYS[e.key]) return;
    e.preventDefault();
    go(c, pathTo(c.state, KEYS[e.key]));
  };
  document.addEventListener('keydown', onKey);
  c.q('#review-board').addEventListener('wheel', (e) => {
    if (!e.deltaY) return;
    e.preventDefault();
    go(c, pathTo(c.state, e.deltaY > 0 ? 'next' : 'back'));
  }, { passive: false });
  return onKey;
}

/** Following, the territory, the analysis, the chat and the markup tools. */
function wireControls(c) {
  c.q('#follow').onchange = (e) => c.dispatch({ type: 'follow', on: e.target.checked });
  c.q('#ownership').onchange = (e) => c.dispatch({ type: 'ownership', on: e.target.checked });
  c.q('#analyse').onclick = async () => {
    try {
      c.dispatch({ type: 'review', review: await api.reviewAnalyse(c.id) });
    } catch (e) {
      c.app.error(e);
    }
  };
  c.q('#chat-form').onsubmit = async (e) => {
    e.preventDefault();
    const input = c.q('#chat-text');
    const text = input.value.trim();
    if (!text) return;
    try {
      await api.reviewChat(c.id, text);
      input.value = '';
    } catch (err) {
      c.app.error(err);
    }
  };
  for (const k of TOOLS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.tool = k;
    b.textContent = t(`review.tool_${k}`);
    b.onclick = () => c.dispatch({ type: 'tool', tool: k });
    c.q('#tools').appendChild(b);
  }
}

/** Follows the review: each answer comes when it changes (or after 25 s). */
async function follow(c) {
  while (c.alive) {
    try {
      const r = await api.review(c.id, c.state.review.version);
      if (c.alive && r.version !== c.state.review.version) c.dispatch({ type: 'review', review: r, keepPath: own(c.state) && c.state.pending > 0 });
    } catch {
      await new Promise((ok) => setTimeout(ok, 2000));
    }
  }
}

function render(c) {
  const s = c.state;
  const node = nodeAt(s.review.tree, s.path);
  renderAnalysis(c);
  c.board.render(boardLayers(s));
  c.q('#lead').textContent = own(s) ? t('review.you_lead') : t('review.leads', { name: s.review.owner });
  c.q('#follow-box').hidden = own(s);
  c.q('#tools').hidden = !own(s);
  for (const b of c.q('#tools').children) b.setAttribute('aria-pressed', String(b.dataset.tool === s.tool));
  c.q('#where').textContent = `${t('review.move', { n: s.path.length })}${s.path.length ? ` (${moveLabel(node, s.size)})` : ''}${onMain(s) ? '' : ` · ${t('review.in_variation')}`}`;
  renderVariations(c, node);
  renderComment(c, node);
  renderMoves(c);
  renderTree(c);
  const loggedIn = !!c.app.user && !c.app.user.guest;
  c.q('#chat-form').hidden = !loggedIn;
  c.q('#chat-login').hidden = loggedIn;
  renderChat(c);
}

/** The next move and the variations beside it, a button each. */
function renderVariations(c, node) {
  const vars = c.q('#variations');
  vars.replaceChildren();
  node.children.forEach((child, i) => {
    const b = document.createElement('button');
    b.textContent = t(i === 0 ? 'review.next_move' : 'review.variation', { move: moveLabel(child, c.state.size) || t('review.node') });
    b.dataset.child = String(i);
    b.onclick = () => go(c, [...c.state.path, i]);
    vars.appendChild(b);
  });
}

/** The node's comment: a field for the owner, the text for followers. */
function renderComment(c, node) {
  const comment = c.q('#comment');
  const text = sgfText((node.props.C || [''])[0]);
  const { path } = c.state;
  if (!own(c.state)) {
    comment.innerHTML = text ? `<p class="comment" data-testid="comment"><bdi>${esc(text)}</bdi></p>` : `<p class="muted">${esc(t('review.no_comment'))}</p>`;
    return;
  }
  const editing = comment.querySelector('#comment-text');
  // Not while the owner types: a follower's chat line redraws the page.
  if (editing && document.activeElement === editing && comment.dataset.path === path.join('.')) return;
  comment.innerHTML = `<label>${esc(t('review.comment'))} <textarea id="comment-text" rows="3"></textarea></label><button id="comment-save">${esc(t('review.save_comment'))}</button>`;
  comment.querySelector('#comment-text').value = text;
  comment.dataset.path = path.join('.');
  comment.querySelector('#comment-save').onclick = () => send(c, { type: 'comment', path, text: comment.querySelector('#comment-text').value });
}

/** The current line: the root to the current node, then on along first children. */
function renderMoves(c) {
  const list = c.q('#moves');
  list.replaceChildren();
  const { path, size } = c.state;
  lineOf(c.state.review.tree, path).forEach((m, i) => {
    const b = document.createElement('button');
    const noted = m.node.props.C ? ' ✎' : '';
    // A move with other variations beside it says how many: the tree branches before it.
    b.textContent = `${i + 1}. ${moveLabel(m.node, size) || t('review.node')}${noted}${m.others ? ` +${m.others}` : ''}`;
    const titles = [];
    if (noted) titles.push(t('review.commented'));
    if (m.others) {
      titles.push(tn('review.other_variations', m.others));
      b.dataset.branches = String(m.others);
    }
    if (titles.length) b.title = titles.join(' · ');
    b.dataset.move = String(i + 1);
    if (i === path.length - 1) b.classList.add('current');
    b.onclick = () => go(c, m.path);
    list.appendChild(b);
  });
  const current = list.querySelector('.current');
  if (current && current.scrollIntoView) current.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function renderTree(c) {
  const box = c.q('#tree');
  box.replaceChildren(treeView(c.state.review.tree, c.state.path, (p) => go(c, p)));
  const cur = box.querySelector('circle.current');
  if (cur) box.scrollLeft = Math.max(0, Number(cur.getAttribute('cx')) - box.clientWidth / 2);
}

/** The analysis: its progress, the graph, the position's figures and the candidates. */
function renderAnalysis(c) {
  const a = c.state.review.analysis;
  const progress = c.q('#progress');
  progress.hidden = a.state !== 'running';
  if (a.state === 'running') {
    progress.max = a.total;
    progress.value = a.done;
  }
  const analyse = c.q('#analyse');
  analyse.disabled = a.state === 'running';
  analyse.textContent = a.state === 'running' ? t('review.analysing', { done: a.done, total: a.total }) : a.state === 'done' ? t('review.analyse_again') : t('review.analyse');
  renderGraph(c, a.positions || []);
  c.q('#best').textContent = bestText(c.state);
  renderCandidates(c);
}

function renderGraph(c, positions) {
  const describe = (i) => {
    const p = positions[i];
    return p ? `${t('review.move', { n: i })}: ${t('review.black_wins', { rate: Math.round(p.black_winrate * 100) })} · ${leadText(p.black_lead)}` : '';
  };
  const at = onMain(c.state) ? c.state.path.length : null;
  c.q('#winrate').replaceChildren(positions.length ? winrateChart(positions, at, (i) => go(c, mainPath(i)), (i) => {
    c.q('#graph-at').textContent = describe(i);
  }) : document.createTextNode(''));
  c.q('#graph-at').textContent = positions.length ? t('review.graph_hint') : '';
}

/** The position's figures: Black's win rate, the lead and the best moves; at a position the
 * game was over at, the last one analysed before it. */
function bestText(s) {
  const here = analysed(s);
  const final = finalAnalysis(s);
  const positions = s.review.analysis.positions || [];
  if (here) {
    const color = here.to_move === 'black' ? t('review.black') : t('review.white');
    return `${t('review.black_wins', { rate: Math.round(here.black_winrate * 100) })} · ${leadText(here.black_lead)} · ${t('review.best_for', { color, moves: here.best.map((b) => `${b.move} (${Math.round(b.winrate * 100)}%)`).join(', ') })}${here.engine === 'mcts' ? ` ${t('review.engine_mcts')}` : ''}`;
  }
  if (final) return t('review.game_over_analysis', { n: final.at, rate: Math.round(final.black_winrate * 100), lead: leadText(final.black_lead) });
  return positions.length ? t('review.no_analysis') : '';
}

/** The candidate moves, each showing its variation under the pointer and pinning it on a click.
 * Analyses stored before the network's have no variations: the move alone stands for one. */
function renderCandidates(c) {
  const list = c.q('#candidates');
  list.replaceChildren();
  const here = analysed(c.state);
  for (const b of here ? here.best : []) {
    const li = document.createElement('li');
    li.textContent = t('review.candidate', { move: b.move, rate: Math.round(b.winrate * 100), visits: b.visits, lead: leadText(b.black_lead), pv: (b.pv || [b.move]).join(' ') });
    li.dataset.candidate = b.move;
    li.onmouseenter = () => {
      if (!c.state.pinned) c.dispatch({ type: 'hover', point: b.move });
    };
    li.onclick = () => c.dispatch({ type: 'pick', point: b.move });
    list.appendChild(li);
  }
}

function renderChat(c) {
  const ul = c.q('#chat');
  const lines = c.state.review.chat || [];
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
