// The game page: the board, both players with their clocks and captures, the actions, the
// dead-stone phase, the result, stepping through the moves afterwards, and chat. It watches the
// game over the socket and redraws from the server's snapshot after each event.

import * as api from './api.js';
import { createBoard } from './board.js';
import { gridFromRows, gridWith, parseVertex, replay } from './go.js';

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A clock's text `elapsed` ms after the server's reading, counted as the server does. */
export function clockText(time, c, elapsed) {
  if (!time || time.system === 'none' || !c) return '';
  let { main_ms: main, period_ms: period, periods, stones } = c;
  let e = elapsed;
  const fromMain = Math.min(main, e);
  main -= fromMain;
  e -= fromMain;
  if (time.system === 'byoyomi' && main === 0 && periods > 0) {
    while (e >= period && periods > 1) {
      e -= period;
      periods -= 1;
      period = time.period_ms;
    }
    period = Math.max(0, period - e);
  } else if (time.system === 'canadian' && main === 0) {
    period = Math.max(0, period - e);
  }
  if (main > 0) {
    const extra = time.system === 'byoyomi' && time.periods ? ` + ${periods}×${time.period_ms / 1000}s` : time.system === 'canadian' ? ` + ${time.stones}/${mmss(time.period_ms)}` : '';
    return { text: `${mmss(main)}${extra}`, low: main < 10000 && !(time.periods || time.stones) };
  }
  if (time.system === 'byoyomi' && periods > 0) return { text: `${mmss(period)} (${periods} left)`, low: period < 10000 };
  if (time.system === 'canadian') return { text: `${mmss(period)} / ${stones} stones`, low: period < 20000 };
  return { text: mmss(main), low: true };
}

export async function gamePage(main, app, id) {
  let snap = await api.game(id);
  const size = snap.terms.size;
  const me = app.user && (snap.black.username === app.user.username ? 'black' : snap.white.username === app.user.username ? 'white' : null);
  const coarse = matchMedia('(pointer: coarse)').matches;
  let confirmMoves = coarse;
  let pending = null; // a move waiting for confirmation
  let hover = null;
  let review = null; // move index while stepping through a finished game
  let estimate = null; // the last score estimate asked for, until the position changes
  let fetchedAt = performance.now();

  main.innerHTML = `
    <div class="game">
      <div class="board-wrap" id="board"></div>
      <aside class="stack">
        <div class="players">
          <div class="player" id="p-black"><div class="name"></div><div class="muted meta"></div><div class="clock" data-clock="black"></div></div>
          <div class="player" id="p-white"><div class="name"></div><div class="muted meta"></div><div class="clock" data-clock="white"></div></div>
        </div>
        <div id="status" role="status" aria-live="polite"></div>
        <div id="banners" class="stack"></div>
        <div id="controls" class="stack"></div>
        <label class="inline"><input type="checkbox" id="confirm" ${confirmMoves ? 'checked' : ''}> Confirm each move</label>
        <section class="stack" aria-labelledby="chat-h">
          <h3 id="chat-h">Chat</h3>
          <div class="chat-log" id="chat" aria-live="polite"></div>
          <form class="chat-form" id="chat-form"><input name="text" maxlength="500" placeholder="Say something" aria-label="Chat message"><button type="submit">Send</button></form>
        </section>
      </aside>
    </div>`;

  const q = (s) => main.querySelector(s);
  const board = createBoard(q('#board'), size, {
    label: `${snap.black.username} (black) against ${snap.white.username} (white)`,
    onPlay: (v) => click(v),
    onHover: (v) => {
      hover = v;
      render();
    },
  });
  q('#confirm').onchange = (e) => {
    confirmMoves = e.target.checked;
    pending = null;
    render();
  };

  async function send(msg, okText) {
    try {
      await app.socket.request({ ...msg, game: id });
      if (okText) app.toast(okText);
    } catch (e) {
      app.error(e);
    }
  }

  function myTurn() {
    return me && snap.phase === 'play' && snap.to_move === me && review === null;
  }

  function click(v) {
    if (review !== null) return;
    if (snap.phase === 'scoring' && me) {
      send({ type: 'toggle_dead', point: v });
      return;
    }
    if (!myTurn()) {
      if (me && snap.phase === 'play') app.toast('It is not your turn.');
      return;
    }
    if (confirmMoves && pending !== v) {
      pending = v;
      render();
      return;
    }
    pending = null;
    send({ type: 'move', point: v });
  }

  function button(text, onclick, cls = '') {
    const b = document.createElement('button');
    b.textContent = text;
    b.className = cls;
    b.onclick = onclick;
    return b;
  }

  function renderControls() {
    const box = q('#controls');
    box.replaceChildren();
    if (snap.phase === 'finished') {
      const r = document.createElement('div');
      r.className = 'result';
      r.dataset.testid = 'result';
      r.textContent = `Result: ${snap.result}${snap.end_reason ? ` (${reasonText(snap.end_reason)})` : ''}`;
      box.appendChild(r);
      const moves = snap.moves.length;
      const stepper = document.createElement('div');
      stepper.className = 'stepper';
      const at = review === null ? moves : review;
      const to = (n) => {
        review = Math.max(0, Math.min(moves, n));
        render();
      };
      stepper.append(
        button('⏮', () => to(0)),
        button('◀', () => to(at - 1)),
        Object.assign(document.createElement('span'), { textContent: `move ${at} / ${moves}`, className: 'muted' }),
        button('▶', () => to(at + 1)),
        button('⏭', () => to(moves)),
      );
      stepper.querySelectorAll('button').forEach((b, i) => b.setAttribute('aria-label', ['First move', 'Previous move', 'Next move', 'Last move'][i]));
      box.appendChild(stepper);
      const a = document.createElement('a');
      a.href = `/api/games/${id}/sgf`;
      a.textContent = 'Download the SGF record';
      a.setAttribute('download', `tengen-${id}.sgf`);
      box.appendChild(a);
      return;
    }
    if (snap.phase === 'scoring') {
      const s = snap.score;
      const line = (name, c) => `${name}: ${c.total} = territory ${c.territory}${c.stones ? ` + stones ${c.stones}` : ''}${c.prisoners ? ` + prisoners ${c.prisoners}` : ''}${Number(c.komi) ? ` + komi ${c.komi}` : ''}${c.handicap_bonus ? ` + ${c.handicap_bonus}` : ''}`;
      const p = document.createElement('div');
      p.className = 'score panel';
      p.dataset.testid = 'score';
      p.innerHTML = `<strong>Dead stones: click your own dead stones to mark or unmark them.</strong><br>${esc(line('Black', s.black))}<br>${esc(line('White', s.white))}<br>Count: <strong>${esc(s.result)}</strong><br><span class="muted">Accepted: Black ${snap.accepted.black ? '✓' : '–'}, White ${snap.accepted.white ? '✓' : '–'}</span>${(snap.unsure || []).length ? `<br><span data-testid="unsure-note">The engine is unsure of the ${snap.unsure.length} ringed stones: they are not marked; decide them together.</span>` : ''}`;
      box.appendChild(p);
      if (me) {
        const row = document.createElement('div');
        row.className = 'actions';
        const accept = button('Accept the count', () => send({ type: 'accept_score' }), 'primary');
        accept.disabled = snap.accepted[me];
        accept.dataset.action = 'accept';
        const resume = button('Back to play', () => send({ type: 'resume' }));
        resume.dataset.action = 'resume';
        row.append(accept, resume);
        box.appendChild(row);
      }
      return;
    }
    if (!me) {
      box.appendChild(Object.assign(document.createElement('p'), { className: 'muted', textContent: 'You are watching this game.' }));
      box.appendChild(estimateButton());
      renderEstimate(box);
      return;
    }
    if (pending) {
      const c = button(`Confirm ${pending}`, () => click(pending), 'primary');
      c.dataset.action = 'confirm';
      box.appendChild(c);
    }
    // Pass and resign at opposite ends, so that one is not hit for the other.
    const row = document.createElement('div');
    row.className = 'actions';
    const pass = button('Pass', () => send({ type: 'pass' }));
    pass.disabled = !myTurn();
    pass.dataset.action = 'pass';
    const spacer = Object.assign(document.createElement('span'), { className: 'spacer' });
    const resign = button('Resign', () => {
      if (confirm('Resign this game?')) send({ type: 'resign' });
    }, 'danger');
    resign.dataset.action = 'resign';
    row.append(pass, spacer);
    if (snap.terms.take_back) {
      const tb = button('Take back', () => send({ type: 'takeback' }, 'Take-back requested.'));
      tb.dataset.action = 'takeback';
      row.append(tb);
    }
    const count = button('Count', () => send({ type: 'score_request' }, 'You asked to count.'));
    count.title = 'Ask to start removing dead stones';
    row.append(count);
    if (snap.terms.estimate) row.append(estimateButton());
    row.append(Object.assign(document.createElement('span'), { className: 'spacer' }), resign);
    box.appendChild(row);
    renderEstimate(box);
  }

  /** The estimate button: spectators always have it, players when the game's terms allow. */
  function estimateButton() {
    const b = button('Estimate', async () => {
      try {
        estimate = { seq: snap.moves.length, ...(await api.estimate(id)) };
        render();
      } catch (e) {
        app.error(e);
      }
    });
    b.dataset.action = 'estimate';
    b.title = 'Estimate the score: who owns each point, and how sure the engine is';
    return b;
  }

  function renderEstimate(box) {
    if (!estimate) return;
    const p = document.createElement('div');
    p.className = 'estimate panel';
    p.dataset.testid = 'estimate';
    const [lo, hi] = estimate.lead_range;
    const lead = (x) => `${x > 0 ? 'B' : x < 0 ? 'W' : ''}+${Math.abs(x)}`;
    p.innerHTML = `Estimate: <strong>${esc(estimate.result)}</strong> · ${estimate.winner_sure ? 'the winner is clear' : 'the winner is uncertain'}${lo !== hi ? ` (from ${esc(lead(lo))} to ${esc(lead(hi))} over ${estimate.unsure.length} doubtful stones)` : ''}`;
    box.appendChild(p);
  }

  function reasonText(r) {
    return { count: 'by counting', rule: 'by the rules', resign: 'by resignation', left: 'a player left', disconnected: 'a player did not come back', time: 'on time' }[r] || r;
  }

  function renderBanners() {
    const box = q('#banners');
    box.replaceChildren();
    const other = me === 'black' ? 'white' : 'black';
    if (me && snap.takeback_requested_by === other && snap.phase === 'play') {
      const b = document.createElement('div');
      b.className = 'banner';
      b.dataset.testid = 'takeback-request';
      b.append(`${snap[other].username} asks to take back a move. `);
      const yes = button('Allow', () => send({ type: 'takeback_answer', accept: true }), 'primary');
      yes.dataset.action = 'takeback-yes';
      const no = button('Refuse', () => send({ type: 'takeback_answer', accept: false }));
      no.dataset.action = 'takeback-no';
      b.append(yes, ' ', no);
      box.appendChild(b);
    }
    if (me && snap.phase === 'play' && snap.scoring_requested[other] && !snap.scoring_requested[me]) {
      const b = document.createElement('div');
      b.className = 'banner';
      b.append(`${snap[other].username} thinks the game is over. `);
      b.append(button('Count now', () => send({ type: 'score_request' }), 'primary'));
      box.appendChild(b);
    }
  }

  function render() {
    const reviewing = review !== null;
    const grid = reviewing
      ? replay(size, gridWith(size, snap.handicap_stones || []), snap.moves)[review]
      : gridFromRows(snap.board);
    const shown = reviewing ? snap.moves.slice(0, review) : snap.moves;
    const lastMove = [...shown].reverse().find((m) => m.point !== 'pass');
    const last = lastMove ? parseVertex(size, lastMove.point) : null;
    let ghost = null;
    const at = pending || hover;
    if (at && myTurn()) {
      const p = parseVertex(size, at);
      if (p) ghost = { ...p, color: me === 'black' ? 'b' : 'w' };
    }
    const dead = new Set((reviewing ? [] : snap.dead).map((v) => parseVertex(size, v)).filter(Boolean).map((p) => `${p.x},${p.y}`));
    let territory = null;
    if (!reviewing && snap.score && snap.phase !== 'play') {
      territory = [];
      for (const [key, color] of [['black_territory', 'b'], ['white_territory', 'w']]) {
        for (const v of snap.score[key]) {
          const p = parseVertex(size, v);
          if (p) territory.push([[p.x, p.y], color]);
        }
      }
    }
    // The estimate, while the position is the one it was made for.
    if (estimate && (reviewing || snap.phase !== 'play' || estimate.seq !== snap.moves.length)) estimate = null;
    let unsure = new Set((reviewing ? [] : snap.unsure || []).map((v) => parseVertex(size, v)).filter(Boolean).map((p) => `${p.x},${p.y}`));
    if (estimate) {
      territory = [];
      estimate.ownership.forEach((row, y) => row.forEach((o, x) => {
        if (Math.abs(o) >= 0.5 && !(grid[y][x] && (grid[y][x] === 'b') === (o > 0))) territory.push([[x, y], o > 0 ? 'b' : 'w']);
      }));
      unsure = new Set(estimate.unsure.map((v) => parseVertex(size, v)).filter(Boolean).map((p) => `${p.x},${p.y}`));
    }
    board.render({ grid, last, ghost, dead, unsure, territory });
    for (const side of ['black', 'white']) {
      const el = q(`#p-${side}`);
      el.querySelector('.name').textContent = `${side === 'black' ? '●' : '○'} ${snap[side].username} (${snap[side].rank})`;
      el.querySelector('.meta').textContent = `captures: ${snap.captures[side]}${me === side ? ' · you' : ''}`;
      el.classList.toggle('to-move', snap.phase === 'play' && snap.to_move === side);
    }
    renderClocks();
    const status = q('#status');
    status.textContent = snap.phase === 'play'
      ? (myTurn() ? 'Your move.' : `${snap[snap.to_move].username} to move.`)
      : snap.phase === 'scoring' ? 'Removing dead stones.' : '';
    renderBanners();
    renderControls();
  }

  function renderClocks() {
    for (const side of ['black', 'white']) {
      const el = q(`[data-clock="${side}"]`);
      const c = snap.clocks;
      if (!c) {
        el.textContent = '';
        continue;
      }
      const elapsed = c.running === side ? performance.now() - fetchedAt : 0;
      const t = clockText(snap.terms.time, c[side], elapsed);
      el.textContent = t ? t.text : '';
      el.classList.toggle('low', !!(t && t.low && c.running === side));
    }
  }

  const chat = q('#chat');
  function addChat(user, text) {
    const p = document.createElement('p');
    p.innerHTML = `<strong>${esc(user)}:</strong> ${esc(text)}`;
    chat.appendChild(p);
    chat.scrollTop = chat.scrollHeight;
  }
  q('#chat-form').onsubmit = (e) => {
    e.preventDefault();
    const input = e.target.elements.text;
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    send({ type: 'chat', text });
  };

  let refreshing = null;
  async function refresh() {
    if (refreshing) return refreshing;
    refreshing = (async () => {
      try {
        snap = await api.game(id);
        fetchedAt = performance.now();
        if (snap.phase !== 'play') pending = null;
        render();
        if (snap.phase === 'finished') app.refreshUser();
      } catch (e) {
        app.error(e);
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  let queued = false;
  app.socket.watch(id, (m) => {
    if (m.type !== 'event') return;
    if (m.event.type === 'chat') addChat(m.event.user, m.event.text);
    if (m.event.type === 'takeback_requested' && me && m.event.color !== me) app.toast(`${snap[m.event.color].username} asks to take back a move.`);
    if (m.event.type === 'takeback_answered' && me && m.event.color !== me) app.toast(m.event.accepted ? 'Take-back allowed.' : 'Take-back refused.');
    // Coalesce a burst of events into one redraw.
    if (!queued) {
      queued = true;
      setTimeout(() => {
        queued = false;
        refresh();
      }, 30);
    }
  });

  const keys = (e) => {
    if (snap.phase !== 'finished' || e.target.closest('svg, input, textarea')) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const moves = snap.moves.length;
      const at = review === null ? moves : review;
      review = Math.max(0, Math.min(moves, at + (e.key === 'ArrowLeft' ? -1 : 1)));
      render();
    }
  };
  document.addEventListener('keydown', keys);
  const ticker = setInterval(renderClocks, 250);
  render();
  return () => {
    clearInterval(ticker);
    document.removeEventListener('keydown', keys);
    app.socket && app.socket.unwatch(id);
  };
}
