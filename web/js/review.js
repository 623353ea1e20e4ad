// The review board (#/review/ID): a game tree on a board with move navigation, variations and
// comments. Its owner leads (every click, move and comment is stored and shown to followers at
// once); followers follow the owner's cursor, or browse on their own. The engine's analysis of
// the main line runs in the background: a progress bar, Black's win rate along the game, and
// the best moves at each analysed position.

import * as api from './api.js';
import { createBoard } from './board.js';
import { play, vertexName } from './go.js';

const NS = 'http://www.w3.org/2000/svg';

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

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

/** The move a node holds, for people: "B D4", "W pass", or "" for none. */
function moveLabel(node, size) {
  for (const [id, c] of [['B', 'B'], ['W', 'W']]) {
    if (node.props[id]) {
      const q = sgfPoint(size, node.props[id][0]);
      return `${c} ${q ? vertexName(size, q.x, q.y) : 'pass'}`;
    }
  }
  return '';
}

/** Black's win rate along the main line as an SVG line; `at` marks the current move. */
function winrateChart(positions, at) {
  const W = 320, H = 90;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'chart winrate');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', "Black's win rate along the game");
  const mid = document.createElementNS(NS, 'line');
  Object.entries({ x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' }).forEach(([k, v]) => mid.setAttribute(k, v));
  svg.appendChild(mid);
  const n = Math.max(positions.length - 1, 1);
  const pts = positions
    .map((p, i) => (p ? `${(i * W) / n},${H - p.black_winrate * H}` : null))
    .filter(Boolean);
  const line = document.createElementNS(NS, 'polyline');
  line.setAttribute('points', pts.join(' '));
  line.setAttribute('class', 'rating');
  line.dataset.points = String(pts.length);
  svg.appendChild(line);
  if (at != null) {
    const m = document.createElementNS(NS, 'line');
    Object.entries({ x1: (at * W) / n, y1: 0, x2: (at * W) / n, y2: H, class: 'axis' }).forEach(([k, v]) => m.setAttribute(k, v));
    svg.appendChild(m);
  }
  return svg;
}

export async function reviewPage(main, app, id) {
  let review = await api.review(id);
  const size = Number((review.tree.props.SZ || ['19'])[0]) || 19;
  const own = () => app.user && app.user.username === review.owner;
  let path = review.cursor.slice();
  let follow = true;
  let alive = true;

  main.innerHTML = `
    <div class="game review">
      <div class="board-wrap" id="review-board"></div>
      <aside class="panel stack">
        <h1 class="h2">Review ${review.game ? `of <a href="#/game/${review.game}">game ${review.game}</a>` : 'of a record'}</h1>
        <p class="muted small" id="lead"></p>
        <div class="row" role="group" aria-label="Move navigation">
          <button data-nav="first">First</button><button data-nav="back">Back</button><button data-nav="next">Next</button><button data-nav="last">Last</button>
        </div>
        <p id="where" data-testid="where"></p>
        <div id="variations" class="row" aria-label="Moves from here"></div>
        <label class="inline" id="follow-box"><input type="checkbox" id="follow" checked> Follow ${esc(review.owner)}</label>
        <div id="comment"></div>
        <h2>Analysis</h2>
        <div class="row"><button id="analyse">Analyse the game</button><progress id="progress" max="1" value="0" hidden></progress></div>
        <div id="winrate"></div>
        <p id="best" class="small" data-testid="best"></p>
        <p><a href="${review.sgf}" download>Download SGF (with variations and comments)</a></p>
      </aside>
    </div>`;

  const board = createBoard(main.querySelector('#review-board'), size, {
    onPlay: async (v) => {
      if (!own()) return;
      try {
        update(await api.reviewEdit(id, { type: 'play', path, point: v }));
      } catch (e) {
        app.error(e);
      }
    },
    label: `Review board, ${size} by ${size}`,
  });

  async function go(to) {
    path = to;
    if (own()) {
      try {
        update(await api.reviewEdit(id, { type: 'navigate', path: to }));
      } catch (e) {
        app.error(e);
      }
    } else {
      follow = false;
      main.querySelector('#follow').checked = false;
      render();
    }
  }

  main.querySelector('[data-nav=first]').onclick = () => go([]);
  main.querySelector('[data-nav=back]').onclick = () => path.length && go(path.slice(0, -1));
  main.querySelector('[data-nav=next]').onclick = () => {
    const n = nodeAt(review.tree, path);
    if (n && n.children.length) go([...path, 0]);
  };
  main.querySelector('[data-nav=last]').onclick = () => {
    const to = path.slice();
    let n = nodeAt(review.tree, to);
    while (n && n.children.length) {
      to.push(0);
      n = n.children[0];
    }
    go(to);
  };
  main.querySelector('#follow').onchange = (e) => {
    follow = e.target.checked;
    if (follow) {
      path = review.cursor.slice();
      render();
    }
  };
  main.querySelector('#analyse').onclick = async () => {
    try {
      update(await api.reviewAnalyse(id));
    } catch (e) {
      app.error(e);
    }
  };

  function update(r) {
    review = r;
    if (own() || follow) path = r.cursor.slice();
    if (!nodeAt(review.tree, path)) path = [];
    render();
  }

  function render() {
    const { grid, last } = positionAt(review.tree, size, path);
    board.render({ grid, last });
    const node = nodeAt(review.tree, path);
    const onMain = path.every((i) => i === 0);
    main.querySelector('#lead').textContent = own()
      ? 'You lead this review: click the board to try a move; followers see every step.'
      : `${review.owner} leads this review.`;
    main.querySelector('#follow-box').hidden = own();
    main.querySelector('#where').textContent = `Move ${path.length}${path.length ? ` (${moveLabel(node, size)})` : ''}${onMain ? '' : ' · in a variation'}`;
    const vars = main.querySelector('#variations');
    vars.replaceChildren();
    node.children.forEach((c, i) => {
      const b = document.createElement('button');
      b.textContent = `${i === 0 ? 'Next: ' : 'Variation: '}${moveLabel(c, size) || 'node'}`;
      b.dataset.child = String(i);
      b.onclick = () => go([...path, i]);
      vars.appendChild(b);
    });
    const comment = main.querySelector('#comment');
    const text = sgfText((node.props.C || [''])[0]);
    if (own()) {
      comment.innerHTML = '<label>Comment <textarea id="comment-text" rows="3"></textarea></label><button id="comment-save">Save comment</button>';
      comment.querySelector('#comment-text').value = text;
      comment.querySelector('#comment-save').onclick = async () => {
        try {
          update(await api.reviewEdit(id, { type: 'comment', path, text: comment.querySelector('#comment-text').value }));
        } catch (e) {
          app.error(e);
        }
      };
    } else {
      comment.innerHTML = text ? `<p class="comment" data-testid="comment">${esc(text)}</p>` : '<p class="muted">No comment here.</p>';
    }
    const a = review.analysis;
    const progress = main.querySelector('#progress');
    progress.hidden = a.state !== 'running';
    if (a.state === 'running') {
      progress.max = a.total;
      progress.value = a.done;
    }
    main.querySelector('#analyse').disabled = a.state === 'running';
    main.querySelector('#analyse').textContent = a.state === 'running' ? `Analysing… ${a.done} of ${a.total}` : a.state === 'done' ? 'Analyse again' : 'Analyse the game';
    const positions = a.positions || [];
    main.querySelector('#winrate').replaceChildren(positions.length ? winrateChart(positions, onMain ? path.length : null) : document.createTextNode(''));
    const here = onMain ? positions[path.length] : null;
    main.querySelector('#best').textContent = here
      ? `Black wins ${Math.round(here.black_winrate * 100)}% · best for ${here.to_move}: ${here.best.map((b) => `${b.move} (${Math.round(b.winrate * 100)}%)`).join(', ')}`
      : positions.length ? 'No analysis for this position.' : '';
  }

  render();
  // Follow the review: each answer comes when it changes (or after 25 s).
  (async () => {
    while (alive) {
      try {
        const r = await api.review(id, review.version);
        if (alive && r.version !== review.version) update(r);
      } catch {
        await new Promise((ok) => setTimeout(ok, 2000));
      }
    }
  })();
  return () => {
    alive = false;
  };
}
