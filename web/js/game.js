// The game page: the board, both players with their clocks and captures, the actions, the
// dead-stone phase, the result, stepping through the moves afterwards, and chat. The page's
// state lives in game-state.js (the server's snapshot, the events after it, what the viewer is
// doing); every socket message and every click goes `state = reduce(state, msg)`, then the view
// below draws the state. After each burst of events the page reads the snapshot again, so the
// server stays the authority on legality and the count.

import * as api from './api.js';
import { createBoard, getPref, setPref } from './board.js';
import { gridFromRows, gridWith, parseVertex, replay } from './go.js';
import { t, rankName, language } from './i18n.js';
import { ask } from './dialog.js';
import { esc } from './html.js';
import { initial, reduce, sideOf, myTurn, openUnsure, hintsOffered } from './game-state.js';
import { clockText, komiNote, reasonText, resultWords, rulesName, timeWords } from './format.js';

// The formatters were first written here; other pages (and tests) import them from this module.
export { clockText, dayClock, durationWords, komiNote, resultWords, rulesName, timeWords } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';

/** A navigation icon drawn as SVG (fonts may lack ⏮ and ⏭): 'first', 'prev', 'next', 'last'. */
function navIcon(kind) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const shape = (name, attrs) => {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
  };
  const left = 'M12 3 L5 8 L12 13 Z';
  const right = 'M4 3 L11 8 L4 13 Z';
  if (kind === 'first') {
    shape('rect', { x: 3, y: 3, width: 2, height: 10 });
    shape('path', { d: 'M13 3 L6 8 L13 13 Z' });
  } else if (kind === 'prev') {
    shape('path', { d: left });
  } else if (kind === 'next') {
    shape('path', { d: right });
  } else {
    shape('path', { d: 'M3 3 L10 8 L3 13 Z' });
    shape('rect', { x: 11, y: 3, width: 2, height: 10 });
  }
  return svg;
}

/**
 * The move click: a short burst of noise through a band-pass filter, made with WebAudio (no
 * audio file), like a stone set on wood.
 */
let audio = null;
let clickBuffer = null;
function moveSound() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  audio = audio || new Ctx();
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  if (!clickBuffer) {
    const n = Math.floor(audio.sampleRate * 0.07);
    clickBuffer = audio.createBuffer(1, n, audio.sampleRate);
    const d = clickBuffer.getChannelData(0);
    for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * Math.exp(-i / (n / 9));
  }
  const src = audio.createBufferSource();
  src.buffer = clickBuffer;
  const band = audio.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.value = 2200;
  band.Q.value = 1.5;
  const gain = audio.createGain();
  gain.gain.value = 0.8;
  src.connect(band).connect(gain).connect(audio.destination);
  src.start();
  return true;
}

/** The built-in bots' chat lines (the server's `manners::NOT_SETTLED`), by catalogue key. */
const BOT_LINES = {
  'Not yet, thank you: some stones or borders are still open. Let\'s play on, then count.': 'game.bot_not_settled',
};
export async function gamePage(main, app, id) {
  const snap = await api.game(id);
  const me = sideOf(snap, app.user && app.user.username);
  const c = {
    main,
    app,
    id,
    size: snap.terms.size,
    state: initial(snap, me, performance.now(), matchMedia('(pointer: coarse)').matches),
    sound: getPref('sound') === 'on',
    sounds: 0, // clicks played, shown as data-sounds for the tests
    listKey: '',
    chatShown: new Map(), // seq -> the line's element
    alive: true,
    refreshing: null,
    queued: false,
    drawing: false,
  };
  main.innerHTML = skeleton(c);
  c.q = (s) => main.querySelector(s);
  c.gameEl = c.q('.game');
  c.dispatch = (m) => {
    c.state = reduce(c.state, m);
    for (const n of c.state.toasts) app.toast(t(n.key, n.vars), 'info', true);
    render(c);
  };
  c.send = async (msg, okText) => {
    try {
      await app.socket.request({ ...msg, game: id });
      if (okText) app.toast(okText, 'info', true);
    } catch (e) {
      app.error(e);
    }
  };
  c.board = createBoard(c.q('#board'), c.size, {
    label: t('game.board_label', { black: snap.black.username, white: snap.white.username }),
    onPlay: (v) => click(c, v),
    onHover: (v) => c.dispatch({ type: 'hover', point: v }),
  });
  wirePrefs(c);
  wireChat(c);
  app.socket.watch(id, (m) => onMessage(c, m));
  const keys = (e) => {
    if (c.state.game.phase !== 'finished' || e.target.closest('svg, input, textarea')) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') c.dispatch({ type: 'step', by: e.key === 'ArrowLeft' ? -1 : 1 });
  };
  document.addEventListener('keydown', keys);
  const ticker = setInterval(() => renderClocks(c), 250);
  render(c);
  return () => {
    c.alive = false;
    clearInterval(ticker);
    document.removeEventListener('keydown', keys);
    app.socket && app.socket.unwatch(id);
  };
}

/** The page's frame, filled in by `render`. */
function skeleton(c) {
  const { app, state: s } = c;
  const player = (side) => `
          <div class="player" id="p-${side}">
            <div class="name"></div><div class="muted meta"></div>
            <div class="clock" data-clock="${side}"><span class="main"></span><span class="extra"></span></div>
            <div class="vacation" data-testid="vacation-${side}" hidden></div>
          </div>`;
  return `
    <div class="game" data-sounds="0">
      <div class="board-wrap" id="board"></div>
      <aside class="stack side">
        <div class="players">${player('black')}${player('white')}</div>
        <div class="info">
          <div data-testid="terms"></div>
          <div><span data-testid="time-setting"></span> · <strong data-testid="move-number"></strong></div>
          <div class="muted small" data-testid="komi-note" hidden></div>
        </div>
        <div id="status" role="status" aria-live="polite"></div>
        <div id="notice" class="notice" data-testid="notice" aria-live="polite" hidden></div>
        <div id="banners" class="stack"></div>
        <div id="controls" class="stack"></div>
        <section class="stack moves" aria-labelledby="moves-h">
          <h3 id="moves-h">${t('game.moves')}</h3>
          <ol class="movelist" id="movelist" data-testid="movelist"></ol>
        </section>
        <fieldset class="plain prefs">
          <legend>${t('game.settings')}</legend>
          <label class="inline"><input type="checkbox" id="confirm" ${s.confirmMoves ? 'checked' : ''}> ${t('game.confirm_moves')}</label>
          <label class="inline"><input type="checkbox" id="coords" ${getPref('coords') !== 'off' ? 'checked' : ''}> ${t('game.coordinates')}</label>
          <label class="inline"><input type="checkbox" id="sound" ${c.sound ? 'checked' : ''}> ${t('game.sound')}</label>
          <label class="inline">${t('game.stones')} <select id="stones"><option value="shaded">${t('game.stones_shaded')}</option><option value="flat" ${getPref('stones') === 'flat' ? 'selected' : ''}>${t('game.stones_flat')}</option></select></label>
        </fieldset>
        <section class="stack" aria-labelledby="chat-h">
          <h3 id="chat-h">${t('game.chat')}</h3>
          <div class="chat-log" id="chat" aria-live="polite"></div>
          <form class="chat-form" id="chat-form"><input name="text" maxlength="500" placeholder="${t('game.say_placeholder')}" aria-label="${t('game.chat_message')}"><button type="submit">${t('game.send')}</button></form>
        </section>
        ${s.me && !app.user.guest ? `<button class="link small" id="report-game">${esc(t('game.report', { name: s.game[s.me === 'black' ? 'white' : 'black'].username }))}</button>` : ''}
      </aside>
    </div>`;
}

/** The display settings: confirming moves, coordinates, stones, the move sound. */
function wirePrefs(c) {
  const { q, board } = c;
  q('#confirm').onchange = (e) => c.dispatch({ type: 'confirm_moves', on: e.target.checked });
  q('#coords').onchange = (e) => {
    setPref('coords', e.target.checked ? 'on' : 'off');
    board.setCoords(e.target.checked);
  };
  q('#stones').onchange = (e) => {
    setPref('stones', e.target.value);
    board.setStones(e.target.value);
  };
  q('#sound').onchange = (e) => {
    c.sound = e.target.checked;
    setPref('sound', c.sound ? 'on' : 'off');
    // The first click comes from the user's own gesture, which lets the audio start.
    if (c.sound) playClick(c);
  };
}

function playClick(c) {
  try {
    if (moveSound()) c.gameEl.dataset.sounds = String(++c.sounds);
  } catch {
    // No sound where the browser has none to give.
  }
}

/** The chat form, and reporting the game. */
function wireChat(c) {
  const { q, app, id } = c;
  const s = c.state;
  if (q('#report-game')) q('#report-game').onclick = () => app.report(s.game[s.me === 'black' ? 'white' : 'black'].username, id);
  q('#chat-form').onsubmit = (e) => {
    e.preventDefault();
    const input = e.target.elements.text;
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    c.send({ type: 'chat', text });
  };
}

/**
 * A message about this game from the socket. Events are reduced into the state and drawn
 * (one redraw for a burst); a burst of them is followed by one read of the snapshot (the server's count, score and
 * clocks). The socket closed for good (a ban, a log-out): no event will come, so the page reads
 * the game once more, so that it shows the end a ban's resignation gave it; a player no longer
 * logged in keeps no controls.
 */
function onMessage(c, m) {
  if (!c.alive) return;
  if (m.type === 'closed') {
    c.dispatch({ type: 'closed', loggedIn: !!c.app.user });
    if (!c.app.user) c.q('#report-game')?.remove();
    refresh(c);
    return;
  }
  if (m.type !== 'event') return;
  // The socket replays a game's whole history when the page opens: reduce each event at once,
  // draw once for the burst.
  c.state = reduce(c.state, m);
  for (const n of c.state.toasts) c.app.toast(t(n.key, n.vars), 'info', true);
  if (!c.drawing) {
    c.drawing = true;
    setTimeout(() => {
      c.drawing = false;
      if (c.alive) render(c);
    }, 0);
  }
  if (m.event.type === 'move' && c.sound) playClick(c);
  // Coalesce a burst of events into one read of the snapshot.
  if (!c.queued) {
    c.queued = true;
    setTimeout(() => {
      c.queued = false;
      refresh(c);
    }, 30);
  }
}

function refresh(c) {
  if (c.refreshing) return c.refreshing;
  c.refreshing = (async () => {
    try {
      const state = await api.game(c.id);
      c.dispatch({ type: 'snapshot', state, at: performance.now() });
      if (state.phase === 'finished') c.app.refreshUser();
    } catch (e) {
      c.app.error(e);
    } finally {
      c.refreshing = null;
    }
  })();
  return c.refreshing;
}

/** Asks whether to dispute the partner's stones at `v`, and does. */
async function dispute(c, v) {
  const engine = c.state.game.terms.disputes === 'engine';
  if (await ask(t(engine ? 'count.dispute_engine' : 'count.dispute_play'), { ok: t('count.dispute') })) {
    c.send({ type: 'dispute', point: v });
  }
}

function click(c, v) {
  const s = c.state;
  const g = s.game;
  if (s.review !== null) return;
  if (g.phase === 'scoring' && s.me) {
    // One's own stones are marked; the partner's, left alive, are disputed: settled by play
    // or by the engine, as the room's terms chose, never by the side that gains alone.
    const p = parseVertex(c.size, v);
    const stone = p && gridFromRows(g.board)[p.y][p.x];
    const mine = s.me === 'black' ? 'b' : 'w';
    if (stone && stone !== mine && !(g.dead || []).includes(v)) {
      dispute(c, v);
      return;
    }
    c.send({ type: 'toggle_dead', point: v });
    return;
  }
  if (!myTurn(s)) {
    if (s.me && g.phase === 'play') c.app.toast(t('error.not_your_turn'), 'info', true);
    return;
  }
  if (s.confirmMoves && s.pending !== v) {
    c.dispatch({ type: 'pending', point: v });
    return;
  }
  // No redraw: the move's event brings one.
  c.state = reduce(c.state, { type: 'pending', point: null });
  c.send({ type: 'move', point: v });
}

function button(text, onclick, cls = '') {
  const b = document.createElement('button');
  b.textContent = text;
  b.className = cls;
  b.onclick = onclick;
  return b;
}

/** The actions: the result and the stepper once finished, the count panel, or play's buttons. */
function renderControls(c) {
  const box = c.q('#controls');
  const s = c.state;
  const g = s.game;
  box.replaceChildren();
  if (g.phase === 'finished') {
    renderFinished(c, box);
    return;
  }
  if (g.phase === 'scoring') {
    if (g.score) box.appendChild(countPanel(c, g.score));
    if (s.me) box.appendChild(countActions(c));
    return;
  }
  if (!s.me) {
    box.appendChild(Object.assign(document.createElement('p'), { className: 'muted', textContent: t('game.watching') }));
    box.appendChild(estimateButton(c));
    renderEstimate(c, box);
    return;
  }
  renderPlayControls(c, box);
  renderEstimate(c, box);
}

function renderPlayControls(c, box) {
  const s = c.state;
  const g = s.game;
  if (s.pending) {
    const b = button(t('game.confirm', { point: s.pending }), () => click(c, s.pending), 'primary');
    b.dataset.action = 'confirm';
    box.appendChild(b);
  }
  // Pass and resign on one line at opposite ends, so that one is not hit for the other; the
  // requests (take-back, count, estimate) on a line of their own below.
  const row = document.createElement('div');
  row.className = 'actions';
  const pass = button(t('game.pass'), () => c.send({ type: 'pass' }));
  pass.disabled = !myTurn(s);
  pass.dataset.action = 'pass';
  const resign = button(t('game.resign'), async () => {
    if (await ask(t('game.resign_confirm'), { ok: t('game.resign'), danger: true })) c.send({ type: 'resign' });
  }, 'danger');
  resign.dataset.action = 'resign';
  row.append(pass, Object.assign(document.createElement('span'), { className: 'spacer' }), resign);
  const more = document.createElement('div');
  more.className = 'actions requests';
  if (g.terms.take_back) {
    const tb = button(t('game.takeback'), () => c.send({ type: 'takeback' }, t('game.takeback_requested')));
    tb.dataset.action = 'takeback';
    more.append(tb);
  }
  const count = button(t('game.count'), () => c.send({ type: 'score_request' }, t('game.count_requested')));
  count.title = t('game.count_title');
  count.dataset.action = 'count';
  more.append(count);
  if (g.terms.estimate) more.append(estimateButton(c));
  if (hintsOffered(s)) more.append(hintButton(c));
  box.append(row, more);
  renderHint(c, box);
}

/**
 * The hint button of a learner's first game: the engine's move for this position, a few a
 * game (the server counts them and refuses past its limit).
 */
function hintButton(c) {
  const s = c.state;
  const b = button(t('game.hint', { n: s.hintsLeft }), async () => {
    b.disabled = true;
    try {
      c.dispatch({ type: 'hint', hint: await api.hint(c.id) });
    } catch (e) {
      if (e.code === 'no_hints_left') c.dispatch({ type: 'no_hints' });
      c.app.error(e);
    }
  });
  b.dataset.action = 'hint';
  b.title = t('game.hint_title');
  b.disabled = !myTurn(s) || s.hintsLeft <= 0 || !!s.hint;
  return b;
}

function renderHint(c, box) {
  const hint = c.state.hint;
  if (!hint) return;
  const p = document.createElement('p');
  p.className = 'hint';
  p.dataset.testid = 'hint';
  p.dataset.move = hint.move;
  p.textContent = hint.move === 'pass' ? t('game.pass') : t('game.hint_shown', { point: hint.move });
  box.appendChild(p);
}

/** A finished game: the result, why it counts for nobody, the count, the stepper, the links. */
function renderFinished(c, box) {
  const g = c.state.game;
  const r = document.createElement('div');
  r.className = 'result';
  r.dataset.testid = 'result';
  r.dataset.result = g.result || '';
  r.textContent = resultWords(g.result, g.end_reason);
  const how = document.createElement('div');
  how.className = 'muted small';
  how.textContent = `${g.result}${g.end_reason ? ` · ${reasonText(g.end_reason)}` : ''}`;
  box.append(r, how);
  if (g.annulled) {
    const a = document.createElement('div');
    a.className = 'muted small';
    a.dataset.testid = 'annulled';
    a.textContent = t('game.annulled', { why: ['no_show', 'too_few_moves', 'abandoned', 'moderator'].includes(g.annulled) ? t(`game.annulled_${g.annulled}`) : g.annulled });
    box.append(a);
  }
  if (g.score && g.end_reason === 'count') {
    const p = document.createElement('div');
    p.className = 'score panel';
    p.dataset.testid = 'final-score';
    p.appendChild(scoreTable(g.score));
    box.appendChild(p);
  }
  box.appendChild(stepper(c));
  const a = document.createElement('a');
  a.href = `/api/games/${c.id}/sgf`;
  a.textContent = t('game.download_sgf');
  a.setAttribute('download', `tengen-${c.id}.sgf`);
  box.appendChild(a);
  // The game on a review board (variations, comments, the engine's analysis), as the
  // player's page offers it for each finished game.
  if (c.app.user && !c.app.user.guest) box.appendChild(reviewButton(c));
}

/** First, previous, where, next, last: stepping through a finished game's moves. */
function stepper(c) {
  const s = c.state;
  const moves = s.game.moves.length;
  const el = document.createElement('div');
  el.className = 'stepper';
  const at = s.review === null ? moves : s.review;
  const nav = (kind, label, n, off) => {
    const b = button('', () => c.dispatch({ type: 'review', at: n }));
    b.className = 'icon-button';
    b.append(navIcon(kind));
    b.setAttribute('aria-label', label);
    b.title = label;
    b.dataset.nav = kind;
    b.disabled = off;
    return b;
  };
  const where = Object.assign(document.createElement('span'), { textContent: t('game.stepper_at', { at, moves }), className: 'muted' });
  where.dataset.testid = 'stepper-at';
  el.append(
    nav('first', t('game.first_move'), 0, at === 0),
    nav('prev', t('game.previous_move'), at - 1, at === 0),
    where,
    nav('next', t('game.next_move'), at + 1, at === moves),
    nav('last', t('game.last_move'), moves, at === moves),
  );
  return el;
}

function reviewButton(c) {
  const rv = button(t('game.review'), async () => {
    rv.disabled = true;
    try {
      const r = await api.newReview({ game: c.id });
      c.app.go(`#/review/${r.id}`);
    } catch (e) {
      rv.disabled = false;
      c.app.error(e);
    }
  }, 'link');
  rv.dataset.action = 'review';
  return rv;
}

/** The estimate button: spectators always have it, players when the game's terms allow. */
function estimateButton(c) {
  const b = button(t('game.estimate'), async () => {
    try {
      c.dispatch({ type: 'estimate', estimate: await api.estimate(c.id) });
    } catch (e) {
      c.app.error(e);
    }
  });
  b.dataset.action = 'estimate';
  b.title = t('game.estimate_title');
  return b;
}

function renderEstimate(c, box) {
  const estimate = c.state.estimate;
  if (!estimate) return;
  const p = document.createElement('div');
  p.className = 'estimate panel';
  p.dataset.testid = 'estimate';
  const [lo, hi] = estimate.lead_range;
  const lead = (x) => `${x > 0 ? 'B' : x < 0 ? 'W' : ''}+${Math.abs(x)}`;
  // Before the middle game the estimate is a range, not a verdict.
  const verdict = estimate.verdict || (estimate.winner_sure ? 'clear' : 'uncertain');
  p.dataset.verdict = verdict;
  p.innerHTML = `${esc(t('game.estimate_label'))} <strong>${esc(estimate.result)}</strong> · ${esc(t(`game.winner_${verdict}`))}${lo !== hi ? ` ${esc(t('game.estimate_range', { from: lead(lo), to: lead(hi), n: estimate.unsure.length }))}` : ''}`;
  box.appendChild(p);
}

/**
 * The dead-stone phase's panel: how this game's rules mark dead stones, the count, who has
 * accepted, and the stones the engine was unsure of. When those decide the winner (the server's
 * `unsure_decides`: counted both ways they name different winners) it says so plainly, so that
 * nobody accepts a count that may name the wrong winner (issue 29 item 3).
 */
function countPanel(c, s) {
  const g = c.state.game;
  const p = document.createElement('div');
  p.className = 'score panel stack';
  p.dataset.testid = 'score';
  const how = document.createElement('p');
  how.dataset.testid = 'count-rules';
  how.innerHTML = `<strong>${esc(t('count.mark_own'))}</strong> ${esc(t(countRuleKey(g.terms.rules)))}`;
  p.appendChild(how);
  p.appendChild(scoreTable(s));
  const foot = document.createElement('div');
  const yes = (side) => (g.accepted[side] ? '✓' : '–');
  foot.innerHTML = `${esc(t('count.result'))} <strong>${esc(resultWords(s.result))}</strong> (${esc(s.result)})<br><span class="muted">${esc(t('count.accepted', { black: yes('black'), white: yes('white') }))}</span>`;
  // Only the unsure stones nobody has marked dead yet: a stone marked is decided, and the
  // note (and its red warning) goes once every one of them is.
  const unsure = openUnsure(g).length;
  if (unsure) {
    const note = document.createElement('p');
    note.dataset.testid = g.unsure_decides ? 'unsure-decides' : 'unsure-note';
    note.className = g.unsure_decides ? 'warning' : 'muted';
    note.textContent = g.unsure_decides ? t('count.unsure_decides', { n: unsure }) : t('count.unsure', { n: unsure });
    foot.appendChild(note);
  }
  p.appendChild(foot);
  return p;
}

/** Accept and back to play; accepting is not the main action while unsure stones decide. */
function countActions(c) {
  const s = c.state;
  const g = s.game;
  const row = document.createElement('div');
  row.className = 'actions';
  const accept = button(t('count.accept'), () => c.send({ type: 'accept_score' }), g.unsure_decides && openUnsure(g).length ? '' : 'primary');
  accept.disabled = g.accepted[s.me];
  accept.dataset.action = 'accept';
  const resume = button(t('count.resume'), () => c.send({ type: 'resume' }));
  resume.dataset.action = 'resume';
  row.append(accept, resume);
  return row;
}

/** The catalogue key of the sentence on how the game's rule set treats dead stones. */
function countRuleKey(rules) {
  const known = ['korean', 'wga', 'arena', 'japanese', 'chinese', 'aga', 'nz', 'igz'];
  return known.includes(rules) ? `count.rules.${rules}` : 'count.rules.other';
}

/** The count per side: territory, stones, prisoners, komi (a handicap bonus if any), total. */
function scoreTable(s) {
  const table = document.createElement('table');
  table.className = 'score-table';
  const rows = ['territory', 'stones', 'prisoners', 'komi'];
  if (s.black.handicap_bonus || s.white.handicap_bonus) rows.push('handicap_bonus');
  rows.push('total');
  table.innerHTML = `<thead><tr><th scope="col"><span class="sr-only">${esc(t('count.table'))}</span></th><th scope="col">${esc(t('count.col_black'))}</th><th scope="col">${esc(t('count.col_white'))}</th></tr></thead><tbody>${rows
    .map((key) => `<tr data-row="${key}"${key === 'total' ? ' class="total"' : ''}><th scope="row">${esc(t(`count.row_${key}`))}</th><td data-side="black">${esc(s.black[key])}</td><td data-side="white">${esc(s.white[key])}</td></tr>`)
    .join('')}</tbody>`;
  return table;
}

// The move list is rebuilt only when the moves, the phase or the move shown change (render
// runs on every hover).
function renderMoveList(c) {
  const s = c.state;
  const g = s.game;
  const list = c.q('#movelist');
  const moves = g.moves;
  const navigable = g.phase === 'finished';
  const current = s.review === null ? moves.length : s.review;
  const key = `${g.seq}|${moves.length}|${navigable}|${current}`;
  if (key === c.listKey) return;
  c.listKey = key;
  list.replaceChildren();
  moves.forEach((m, i) => list.appendChild(moveItem(c, m, i + 1, navigable, current)));
  if (!moves.length) list.appendChild(Object.assign(document.createElement('li'), { className: 'muted empty', textContent: t('game.no_moves') }));
  // Keep the move shown in view, inside the list only (the page does not scroll).
  const cur = list.querySelector('.current');
  if (cur) list.scrollTop = cur.offsetTop - list.clientHeight / 2 + cur.offsetHeight / 2;
  else if (current === moves.length) list.scrollTop = list.scrollHeight;
}

function moveItem(c, m, n, navigable, current) {
  const li = document.createElement('li');
  const item = document.createElement(navigable ? 'button' : 'span');
  item.className = 'move';
  item.dataset.move = String(n);
  item.dataset.color = m.color;
  item.dataset.point = m.point;
  const colour = t(m.color === 'black' ? 'color.black' : 'color.white');
  // A pass is a word in the player's language; a point stays a coordinate.
  const point = m.point === 'pass' ? t('game.pass') : m.point;
  item.setAttribute('aria-label', t('game.move_label', { n, color: colour, point }));
  const num = Object.assign(document.createElement('span'), { className: 'n', textContent: String(n) });
  const dot = Object.assign(document.createElement('span'), { className: `dot ${m.color === 'black' ? 'b' : 'w'}`, title: colour });
  const v = Object.assign(document.createElement('span'), { className: `v${m.point === 'pass' ? ' pass' : ''}`, textContent: point });
  item.append(num, dot, v);
  if (navigable) {
    item.type = 'button';
    item.onclick = () => c.dispatch({ type: 'review', at: n });
  }
  if (n === current) {
    li.className = 'current';
    item.setAttribute('aria-current', 'step');
  }
  li.appendChild(item);
  return li;
}

/** The partner's requests: a take-back to allow or refuse, a count to join. */
function renderBanners(c) {
  const s = c.state;
  const g = s.game;
  const box = c.q('#banners');
  box.replaceChildren();
  const other = s.me === 'black' ? 'white' : 'black';
  if (s.me && g.takeback_requested_by === other && g.phase === 'play') {
    const b = document.createElement('div');
    b.className = 'banner';
    b.dataset.testid = 'takeback-request';
    b.append(`${t('game.takeback_asked', { name: g[other].username })} `);
    const yes = button(t('game.allow'), () => c.send({ type: 'takeback_answer', accept: true }), 'primary');
    yes.dataset.action = 'takeback-yes';
    const no = button(t('game.refuse'), () => c.send({ type: 'takeback_answer', accept: false }));
    no.dataset.action = 'takeback-no';
    b.append(yes, ' ', no);
    box.appendChild(b);
  }
  if (s.me && g.phase === 'play' && g.scoring_requested[other] && !g.scoring_requested[s.me]) {
    const b = document.createElement('div');
    b.className = 'banner';
    b.append(`${t('game.thinks_over', { name: g[other].username })} `);
    b.append(button(t('game.count_now'), () => c.send({ type: 'score_request' }), 'primary'));
    box.appendChild(b);
  }
}

/** The whole page from the state. */
function render(c) {
  const s = c.state;
  const shown = s.review !== null ? s.game.moves.slice(0, s.review) : s.game.moves;
  renderBoard(c, shown);
  renderPlayers(c);
  renderClocks(c);
  renderStatus(c);
  renderInfo(c, shown.length);
  renderNotice(c, shown);
  renderBanners(c);
  renderControls(c);
  renderMoveList(c);
  renderChat(c);
}

/** The board: the position (or the move shown), the last stone, the ghost, marks and territory. */
function renderBoard(c, shown) {
  const s = c.state;
  const g = s.game;
  const size = c.size;
  const reviewing = s.review !== null;
  const grid = reviewing ? replay(size, gridWith(size, g.handicap_stones || []), g.moves)[s.review] : gridFromRows(g.board);
  const lastMove = [...shown].reverse().find((m) => m.point !== 'pass');
  const last = lastMove ? parseVertex(size, lastMove.point) : null;
  let ghost = null;
  const at = s.pending || s.hover;
  if (at && myTurn(s)) {
    const p = parseVertex(size, at);
    if (p) ghost = { ...p, color: s.me === 'black' ? 'b' : 'w' };
  }
  const points = (vs) => new Set(vs.map((v) => parseVertex(size, v)).filter(Boolean).map((p) => `${p.x},${p.y}`));
  const dead = points(reviewing ? [] : g.dead || []);
  let territory = null;
  if (!reviewing && g.score && g.phase !== 'play') {
    territory = [];
    for (const [key, color] of [['black_territory', 'b'], ['white_territory', 'w']]) {
      for (const v of g.score[key]) {
        const p = parseVertex(size, v);
        if (p) territory.push([[p.x, p.y], color]);
      }
    }
  }
  let unsure = points(reviewing || g.phase !== 'scoring' ? [] : openUnsure(g));
  // The estimate, while the position is the one it was made for (the state drops it after).
  if (s.estimate) {
    territory = [];
    s.estimate.ownership.forEach((row, y) => row.forEach((o, x) => {
      if (Math.abs(o) >= 0.5 && !(grid[y][x] && (grid[y][x] === 'b') === (o > 0))) territory.push([[x, y], o > 0 ? 'b' : 'w']);
    }));
    unsure = points(s.estimate.unsure);
  }
  // A hint, while its position is on the board: a circle where the engine would play.
  const hinted = s.hint && s.hint.move !== 'pass' ? parseVertex(size, s.hint.move) : null;
  const marks = hinted ? [{ ...hinted, kind: 'CR' }] : [];
  c.board.render({ grid, last, ghost, dead, unsure, territory, marks });
}

function renderPlayers(c) {
  const s = c.state;
  const g = s.game;
  for (const side of ['black', 'white']) {
    const el = c.q(`#p-${side}`);
    const who = document.createElement('bdi');
    who.textContent = g[side].username;
    el.querySelector('.name').replaceChildren(`${side === 'black' ? '●' : '○'} `, who, ` (${rankName(g[side].rank)})`);
    el.querySelector('.meta').textContent = `${t('game.captures', { n: g.captures[side] })}${s.me === side ? ` · ${t('game.you')}` : ''}`;
    el.classList.toggle('to-move', g.phase === 'play' && g.to_move === side);
  }
}

function renderStatus(c) {
  const s = c.state;
  const g = s.game;
  c.q('#status').textContent = g.phase === 'play'
    ? (myTurn(s) ? t('game.your_move') : t('game.to_move', { name: g[g.to_move].username }))
    : g.phase === 'scoring' ? t('game.removing_dead') : '';
}

/** A pass leaves nothing on the board: say so while it is the last move shown. */
function renderNotice(c, shown) {
  const s = c.state;
  const g = s.game;
  const reviewing = s.review !== null;
  const notice = c.q('#notice');
  const lastShown = shown[shown.length - 1];
  const passed = lastShown && lastShown.point === 'pass' && (reviewing || g.phase === 'play');
  notice.hidden = !passed;
  notice.textContent = passed
    ? `${t('game.passed', { color: t(`color.${lastShown.color}`), name: g[lastShown.color].username })}${!reviewing && s.me && g.to_move === s.me ? ` ${t('game.pass_too')}` : ''}`
    : '';
}

/** The terms in words, and the move number (while stepping: the move shown of how many). */
function renderInfo(c, at) {
  const s = c.state;
  const terms = s.game.terms;
  const parts = [`${c.size}×${c.size}`, t('game.rules', { rules: rulesName(terms.rules) }), t('game.komi', { komi: terms.komi })];
  if (terms.handicap) parts.push(t('game.handicap', { n: terms.handicap }));
  c.q('[data-testid=terms]').textContent = parts.join(' · ');
  // Half a point of komi surprises a player who knows 6.5 or 7: say why it is 0.5 here.
  const note = c.q('[data-testid=komi-note]');
  const why = komiNote(terms);
  note.hidden = !why;
  note.textContent = why;
  c.q('[data-testid=time-setting]').textContent = timeWords(terms.time);
  const moves = s.game.moves.length;
  c.q('[data-testid=move-number]').textContent = s.review === null ? t('game.move_n', { n: moves }) : t('game.move_of', { at, moves });
}

/** Both clocks as they run since the state's reading, and a vacation or an absence. */
function renderClocks(c) {
  const s = c.state;
  const g = s.game;
  for (const side of ['black', 'white']) {
    const el = c.q(`[data-clock="${side}"]`);
    const away = c.q(`[data-testid=vacation-${side}]`);
    const k = g.clocks;
    const until = k && k.vacation && k.vacation[side];
    // A disconnected player: the grace period's countdown, until they are back.
    const p = g.presence && g.presence[side];
    const gone = g.phase !== 'finished' && p && !p.connected && p.until;
    away.hidden = !until && !gone;
    away.textContent = until ? t('game.vacation_until', { until: vacationDate(until) })
      : gone ? t(p.arrived ? 'game.disconnected' : 'game.not_here', { n: Math.max(0, Math.ceil((p.until - Date.now()) / 1000)) }) : '';
    if (!k) {
      el.querySelector('.main').textContent = '';
      el.querySelector('.extra').textContent = '';
      continue;
    }
    const elapsed = k.running === side ? performance.now() - s.fetchedAt : 0;
    const shown = clockText(g.terms.time, k[side], elapsed, !!k.correspondence);
    el.querySelector('.main').textContent = shown ? shown.main : '';
    el.querySelector('.extra').textContent = shown ? shown.extra : '';
    el.classList.toggle('low', !!(shown && shown.low && k.running === side));
    el.classList.toggle('running', k.running === side);
  }
}

function vacationDate(ms) {
  // The weekday too: a correspondence player plans by days.
  return new Date(ms).toLocaleString(language(), { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** The chat as the state has it: new lines appended, hidden ones removed. */
function renderChat(c) {
  const box = c.q('#chat');
  const want = new Set(c.state.chat.map((l) => l.seq));
  for (const [seq, el] of c.chatShown) {
    if (!want.has(seq)) {
      el.remove();
      c.chatShown.delete(seq);
    }
  }
  let added = false;
  for (const line of c.state.chat) {
    if (c.chatShown.has(line.seq)) continue;
    const p = chatLine(c, line);
    c.chatShown.set(line.seq, p);
    box.appendChild(p);
    added = true;
  }
  if (added) box.scrollTop = box.scrollHeight;
}

// A line keeps its seq, so that a moderator's `chat_hidden` removes it; a line hidden before
// it reached us comes with no text and is not shown. Others' lines can be reported, and
// moderators can hide any.
function chatLine(c, { seq, user, text }) {
  const { app, id } = c;
  const g = c.state.game;
  const p = document.createElement('p');
  p.dataset.seq = seq;
  // A bot's lines are its manners, in the player's words, and nothing to report.
  const bot = ['black', 'white'].some((side) => g[side].bot && g[side].username === user);
  const said = bot && BOT_LINES[text] ? t(BOT_LINES[text]) : text;
  if (bot) p.dataset.bot = '1';
  p.innerHTML = `<strong>${esc(user)}:</strong> <bdi>${esc(said)}</bdi>`;
  if (app.user && user !== app.user.username && !app.user.guest && !bot) {
    const b = document.createElement('button');
    b.className = 'link small';
    b.textContent = t('game.report_line');
    b.title = t('game.report_line_title', { name: user });
    b.onclick = () => app.report(user, id, seq);
    p.append(' ', b);
  }
  if (app.moderates()) {
    const h = document.createElement('button');
    h.className = 'link small';
    h.textContent = t('game.hide_line');
    h.onclick = async () => {
      const reason = await ask(t('game.hide_why'), { input: true });
      if (!reason) return;
      try {
        await api.modHideChat(id, seq, reason);
      } catch (e) {
        c.app.error(e);
      }
    };
    p.append(' ', h);
  }
  return p;
}
