// The game page: the board, both players with their clocks and captures, the actions, the
// dead-stone phase, the result, stepping through the moves afterwards, and chat. It watches the
// game over the socket and redraws from the server's snapshot after each event.

import * as api from './api.js';
import { createBoard, getPref, setPref } from './board.js';
import { gridFromRows, gridWith, parseVertex, replay } from './go.js';
import { t, tn, rankName, language } from './i18n.js';
import { ask } from './dialog.js';
import { esc } from './html.js';

function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A correspondence clock: days and hours ("2d 23h"), hours and minutes under a day, then m:ss. */
export function dayClock(ms) {
  const m = Math.max(0, Math.ceil(ms / 60000));
  if (ms >= 86400000) return t('time.d_h', { d: Math.floor(m / 1440), h: Math.floor((m % 1440) / 60) });
  if (ms >= 3600000) return t('time.h_m', { h: Math.floor(m / 60), m: m % 60 });
  return mmss(ms);
}

/** A duration in words: "30 s", "5 min", "1 h 30 min", "3 days", "1 day 12 h". */
export function durationWords(ms) {
  const s = Math.round(ms / 1000);
  const sec = (n) => t('time.s', { n });
  const min = (n) => t('time.min', { n });
  const hour = (n) => t('time.h', { n });
  if (s < 60) return sec(s);
  if (s >= 86400) return s % 86400 === 0 ? tn('time.days', s / 86400) : `${tn('time.days', Math.floor(s / 86400))} ${hour(Math.round((s % 86400) / 3600))}`;
  if (s >= 3600) return s % 3600 === 0 ? hour(s / 3600) : `${hour(Math.floor(s / 3600))} ${min(Math.round((s % 3600) / 60))}`;
  return s % 60 === 0 ? min(s / 60) : `${min(Math.floor(s / 60))} ${sec(s % 60)}`;
}

/** A game's time setting in words: "Byo-yomi 20 min + 5×30 s", "3 days a move (correspondence)". */
export function timeWords(c) {
  const d = durationWords;
  const tr = t;
  switch (c && c.system) {
    case 'absolute': return tr('clock.absolute', { main: d(c.main_ms) });
    case 'byoyomi': return c.periods ? tr('clock.byoyomi', { main: d(c.main_ms), periods: c.periods, period: d(c.period_ms) }) : tr('clock.absolute', { main: d(c.main_ms) });
    case 'canadian': return tr('clock.canadian', { main: d(c.main_ms), stones: c.stones, period: d(c.period_ms) });
    case 'fischer': return `${tr('clock.fischer', { main: d(c.main_ms), increment: d(c.increment_ms) })}${c.cap_ms ? tr('clock.cap', { cap: d(c.cap_ms) }) : ''}${c.increment_ms >= 3600000 ? tr('clock.correspondence_mark') : ''}`;
    case 'correspondence': return tr('clock.correspondence', { time: d(c.per_move_ms) });
    default: return tr('clock.none');
  }
}

const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz', 'first-capture'];

/** A rule set's name in the player's language (the server's code for one the client lacks). */
export function rulesName(r) {
  return RULES.includes(r) ? t(`rules.${r}`) : String(r);
}

/**
 * Why a game's komi is 0.5, or '' when it is not: the server's default for an even game on
 * 9x9 and 13x13 (seed 002's Korean rules), for players one or two ranks apart (JUNG-SUN) and
 * for handicap games (crates/server/core/src/domain/game_type.rs, `default_komi`).
 */
export function komiNote(terms) {
  if (!terms || Number(terms.komi) !== 0.5) return '';
  if (terms.game_type === 'handicap' || terms.handicap > 0) return t('game.komi_half_handicap');
  if (terms.game_type === 'jung_sun') return t('game.komi_half_jung_sun');
  if (terms.size < 19) return t('game.komi_half_small');
  return t('game.komi_half');
}

const COLOR = { B: 'color.black', W: 'color.white' };

/** A result in words, from its SGF form: "White wins by 9.5 points", "Black wins on time". */
export function resultWords(result, reason) {
  const m = /^([BW])\+(.*)$/.exec(result || '');
  if (m) {
    const who = t(COLOR[m[1]]);
    if (m[2] === 'R') return t('result.resignation', { who });
    if (m[2] === 'T') return t('result.time', { who });
    if (m[2] === 'F') return t('result.forfeit', { who });
    if (m[2] === '') return reason === 'rule' ? t('result.first_capture', { who }) : t('result.wins', { who });
    return tn('result.points', Number(m[2]), { who, points: m[2] });
  }
  if (result === '0') return t('result.draw');
  if (result === 'Void') return reason === 'rule' ? t('result.void_repeat') : t('result.void');
  return String(result ?? '');
}

/**
 * A clock's text `elapsed` ms after the server's reading, counted as the server does: the time
 * (`main`), what follows it (`extra`: byo-yomi periods, Canadian stones) and both as `text`.
 * Correspondence clocks (`days`) count in days and hours.
 */
export function clockText(time, c, elapsed, days = false) {
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
  const out = (m, extra, low) => ({ main: m, extra, text: `${m}${extra}`, low });
  if (days) return out(dayClock(main), '', main < 12 * 3600000);
  if (main > 0) {
    const extra = time.system === 'byoyomi' && time.periods ? ` + ${periods}×${time.period_ms / 1000}s` : time.system === 'canadian' ? ` + ${time.stones}/${mmss(time.period_ms)}` : '';
    return out(mmss(main), extra, main < 10000 && !(time.periods || time.stones));
  }
  if (time.system === 'byoyomi' && periods > 0) return out(mmss(period), ` ${t('clock.periods_left', { n: periods })}`, period < 10000);
  if (time.system === 'canadian') return out(mmss(period), ` / ${t('clock.stones', { n: stones })}`, period < 20000);
  return out(mmss(main), '', true);
}

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
  let snap = await api.game(id);
  const size = snap.terms.size;
  let me = app.user && (snap.black.username === app.user.username ? 'black' : snap.white.username === app.user.username ? 'white' : null);
  const coarse = matchMedia('(pointer: coarse)').matches;
  let confirmMoves = coarse;
  let pending = null; // a move waiting for confirmation
  let hover = null;
  let review = null; // move index while stepping through a finished game
  let estimate = null; // the last score estimate asked for, until the position changes
  let fetchedAt = performance.now();
  let sound = getPref('sound') === 'on';
  let sounds = 0; // clicks played, shown as data-sounds for the tests

  const player = (side) => `
          <div class="player" id="p-${side}">
            <div class="name"></div><div class="muted meta"></div>
            <div class="clock" data-clock="${side}"><span class="main"></span><span class="extra"></span></div>
            <div class="vacation" data-testid="vacation-${side}" hidden></div>
          </div>`;
  main.innerHTML = `
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
          <label class="inline"><input type="checkbox" id="confirm" ${confirmMoves ? 'checked' : ''}> ${t('game.confirm_moves')}</label>
          <label class="inline"><input type="checkbox" id="coords" ${getPref('coords') !== 'off' ? 'checked' : ''}> ${t('game.coordinates')}</label>
          <label class="inline"><input type="checkbox" id="sound" ${sound ? 'checked' : ''}> ${t('game.sound')}</label>
          <label class="inline">${t('game.stones')} <select id="stones"><option value="shaded">${t('game.stones_shaded')}</option><option value="flat" ${getPref('stones') === 'flat' ? 'selected' : ''}>${t('game.stones_flat')}</option></select></label>
        </fieldset>
        <section class="stack" aria-labelledby="chat-h">
          <h3 id="chat-h">${t('game.chat')}</h3>
          <div class="chat-log" id="chat" aria-live="polite"></div>
          <form class="chat-form" id="chat-form"><input name="text" maxlength="500" placeholder="${t('game.say_placeholder')}" aria-label="${t('game.chat_message')}"><button type="submit">${t('game.send')}</button></form>
        </section>
        ${me && !app.user.guest ? `<button class="link small" id="report-game">${esc(t('game.report', { name: snap[me === 'black' ? 'white' : 'black'].username }))}</button>` : ''}
      </aside>
    </div>`;

  const q = (s) => main.querySelector(s);
  const board = createBoard(q('#board'), size, {
    label: t('game.board_label', { black: snap.black.username, white: snap.white.username }),
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
  q('#coords').onchange = (e) => {
    setPref('coords', e.target.checked ? 'on' : 'off');
    board.setCoords(e.target.checked);
  };
  q('#stones').onchange = (e) => {
    setPref('stones', e.target.value);
    board.setStones(e.target.value);
  };
  const gameEl = q('.game');
  function playClick() {
    try {
      if (moveSound()) gameEl.dataset.sounds = String(++sounds);
    } catch {
      // No sound where the browser has none to give.
    }
  }
  q('#sound').onchange = (e) => {
    sound = e.target.checked;
    setPref('sound', sound ? 'on' : 'off');
    // The first click comes from the user's own gesture, which lets the audio start.
    if (sound) playClick();
  };

  async function send(msg, okText) {
    try {
      await app.socket.request({ ...msg, game: id });
      if (okText) app.toast(okText, 'info', true);
    } catch (e) {
      app.error(e);
    }
  }

  /** Asks whether to dispute the partner's stones at `v`, and does. */
  async function dispute(v) {
    const engine = snap.terms.disputes === 'engine';
    if (await ask(t(engine ? 'count.dispute_engine' : 'count.dispute_play'), { ok: t('count.dispute') })) {
      send({ type: 'dispute', point: v });
    }
  }

  function myTurn() {
    return me && snap.phase === 'play' && snap.to_move === me && review === null;
  }

  function click(v) {
    if (review !== null) return;
    if (snap.phase === 'scoring' && me) {
      // One's own stones are marked; the partner's, left alive, are disputed: settled by play
      // or by the engine, as the room's terms chose, never by the side that gains alone.
      const p = parseVertex(size, v);
      const stone = p && gridFromRows(snap.board)[p.y][p.x];
      const mine = me === 'black' ? 'b' : 'w';
      if (stone && stone !== mine && !(snap.dead || []).includes(v)) {
        dispute(v);
        return;
      }
      send({ type: 'toggle_dead', point: v });
      return;
    }
    if (!myTurn()) {
      if (me && snap.phase === 'play') app.toast(t('error.not_your_turn'), 'info', true);
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
      r.dataset.result = snap.result || '';
      r.textContent = resultWords(snap.result, snap.end_reason);
      const how = document.createElement('div');
      how.className = 'muted small';
      how.textContent = `${snap.result}${snap.end_reason ? ` · ${reasonText(snap.end_reason)}` : ''}`;
      box.append(r, how);
      if (snap.annulled) {
        const a = document.createElement('div');
        a.className = 'muted small';
        a.dataset.testid = 'annulled';
        a.textContent = t('game.annulled', { why: ['no_show', 'too_few_moves', 'abandoned', 'moderator'].includes(snap.annulled) ? t(`game.annulled_${snap.annulled}`) : snap.annulled });
        box.append(a);
      }
      if (snap.score && snap.end_reason === 'count') {
        const p = document.createElement('div');
        p.className = 'score panel';
        p.dataset.testid = 'final-score';
        p.appendChild(scoreTable(snap.score));
        box.appendChild(p);
      }
      const moves = snap.moves.length;
      const stepper = document.createElement('div');
      stepper.className = 'stepper';
      const at = review === null ? moves : review;
      const to = (n) => {
        review = Math.max(0, Math.min(moves, n));
        render();
      };
      const nav = (kind, label, n, off) => {
        const b = button('', () => to(n));
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
      stepper.append(
        nav('first', t('game.first_move'), 0, at === 0),
        nav('prev', t('game.previous_move'), at - 1, at === 0),
        where,
        nav('next', t('game.next_move'), at + 1, at === moves),
        nav('last', t('game.last_move'), moves, at === moves),
      );
      box.appendChild(stepper);
      const a = document.createElement('a');
      a.href = `/api/games/${id}/sgf`;
      a.textContent = t('game.download_sgf');
      a.setAttribute('download', `tengen-${id}.sgf`);
      box.appendChild(a);
      // The game on a review board (variations, comments, the engine's analysis), as the
      // player's page offers it for each finished game.
      if (app.user && !app.user.guest) {
        const rv = button(t('game.review'), async () => {
          rv.disabled = true;
          try {
            const r = await api.newReview({ game: id });
            app.go(`#/review/${r.id}`);
          } catch (e) {
            rv.disabled = false;
            app.error(e);
          }
        }, 'link');
        rv.dataset.action = 'review';
        box.appendChild(rv);
      }
      return;
    }
    if (snap.phase === 'scoring') {
      box.appendChild(countPanel(snap.score));
      if (me) box.appendChild(countActions());
      return;
    }
    if (!me) {
      box.appendChild(Object.assign(document.createElement('p'), { className: 'muted', textContent: t('game.watching') }));
      box.appendChild(estimateButton());
      renderEstimate(box);
      return;
    }
    if (pending) {
      const c = button(t('game.confirm', { point: pending }), () => click(pending), 'primary');
      c.dataset.action = 'confirm';
      box.appendChild(c);
    }
    // Pass and resign on one line at opposite ends, so that one is not hit for the other; the
    // requests (take-back, count, estimate) on a line of their own below.
    const row = document.createElement('div');
    row.className = 'actions';
    const pass = button(t('game.pass'), () => send({ type: 'pass' }));
    pass.disabled = !myTurn();
    pass.dataset.action = 'pass';
    const resign = button(t('game.resign'), async () => {
      if (await ask(t('game.resign_confirm'), { ok: t('game.resign'), danger: true })) send({ type: 'resign' });
    }, 'danger');
    resign.dataset.action = 'resign';
    row.append(pass, Object.assign(document.createElement('span'), { className: 'spacer' }), resign);
    const more = document.createElement('div');
    more.className = 'actions requests';
    if (snap.terms.take_back) {
      const tb = button(t('game.takeback'), () => send({ type: 'takeback' }, t('game.takeback_requested')));
      tb.dataset.action = 'takeback';
      more.append(tb);
    }
    const count = button(t('game.count'), () => send({ type: 'score_request' }, t('game.count_requested')));
    count.title = t('game.count_title');
    count.dataset.action = 'count';
    more.append(count);
    if (snap.terms.estimate) more.append(estimateButton());
    box.append(row, more);
    renderEstimate(box);
  }

  /** The estimate button: spectators always have it, players when the game's terms allow. */
  function estimateButton() {
    const b = button(t('game.estimate'), async () => {
      try {
        estimate = { seq: snap.moves.length, ...(await api.estimate(id)) };
        render();
      } catch (e) {
        app.error(e);
      }
    });
    b.dataset.action = 'estimate';
    b.title = t('game.estimate_title');
    return b;
  }

  function renderEstimate(box) {
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
  function countPanel(s) {
    const p = document.createElement('div');
    p.className = 'score panel stack';
    p.dataset.testid = 'score';
    const how = document.createElement('p');
    how.dataset.testid = 'count-rules';
    how.innerHTML = `<strong>${esc(t('count.mark_own'))}</strong> ${esc(t(countRuleKey(snap.terms.rules)))}`;
    p.appendChild(how);
    p.appendChild(scoreTable(s));
    const foot = document.createElement('div');
    const yes = (c) => (snap.accepted[c] ? '✓' : '–');
    foot.innerHTML = `${esc(t('count.result'))} <strong>${esc(resultWords(s.result))}</strong> (${esc(s.result)})<br><span class="muted">${esc(t('count.accepted', { black: yes('black'), white: yes('white') }))}</span>`;
    // Only the unsure stones nobody has marked dead yet: a stone marked is decided, and the
    // note (and its red warning) goes once every one of them is.
    const unsure = openUnsure().length;
    if (unsure) {
      const note = document.createElement('p');
      note.dataset.testid = snap.unsure_decides ? 'unsure-decides' : 'unsure-note';
      note.className = snap.unsure_decides ? 'warning' : 'muted';
      note.textContent = snap.unsure_decides ? t('count.unsure_decides', { n: unsure }) : t('count.unsure', { n: unsure });
      foot.appendChild(note);
    }
    p.appendChild(foot);
    return p;
  }

  /** The stones the engine was unsure of that are not marked dead (yet). */
  function openUnsure() {
    const dead = new Set(snap.dead || []);
    return (snap.unsure || []).filter((v) => !dead.has(v));
  }

  /** Accept and back to play; accepting is not the main action while unsure stones decide. */
  function countActions() {
    const row = document.createElement('div');
    row.className = 'actions';
    const accept = button(t('count.accept'), () => send({ type: 'accept_score' }), snap.unsure_decides && openUnsure().length ? '' : 'primary');
    accept.disabled = snap.accepted[me];
    accept.dataset.action = 'accept';
    const resume = button(t('count.resume'), () => send({ type: 'resume' }));
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
  let listKey = '';
  function renderMoveList() {
    const list = q('#movelist');
    const moves = snap.moves;
    const navigable = snap.phase === 'finished';
    const current = review === null ? moves.length : review;
    const key = `${snap.seq}|${moves.length}|${navigable}|${current}`;
    if (key === listKey) return;
    listKey = key;
    list.replaceChildren();
    moves.forEach((m, i) => {
      const li = document.createElement('li');
      const n = i + 1;
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
        item.onclick = () => {
          review = n;
          render();
        };
      }
      if (n === current) {
        li.className = 'current';
        item.setAttribute('aria-current', 'step');
      }
      li.appendChild(item);
      list.appendChild(li);
    });
    if (!moves.length) list.appendChild(Object.assign(document.createElement('li'), { className: 'muted empty', textContent: t('game.no_moves') }));
    // Keep the move shown in view, inside the list only (the page does not scroll).
    const cur = list.querySelector('.current');
    if (cur) list.scrollTop = cur.offsetTop - list.clientHeight / 2 + cur.offsetHeight / 2;
    else if (current === moves.length) list.scrollTop = list.scrollHeight;
  }

  function reasonText(r) {
    return ['count', 'rule', 'resign', 'left', 'disconnected', 'time', 'abandoned'].includes(r) ? t(`game.reason_${r}`) : r;
  }

  function renderBanners() {
    const box = q('#banners');
    box.replaceChildren();
    const other = me === 'black' ? 'white' : 'black';
    if (me && snap.takeback_requested_by === other && snap.phase === 'play') {
      const b = document.createElement('div');
      b.className = 'banner';
      b.dataset.testid = 'takeback-request';
      b.append(`${t('game.takeback_asked', { name: snap[other].username })} `);
      const yes = button(t('game.allow'), () => send({ type: 'takeback_answer', accept: true }), 'primary');
      yes.dataset.action = 'takeback-yes';
      const no = button(t('game.refuse'), () => send({ type: 'takeback_answer', accept: false }));
      no.dataset.action = 'takeback-no';
      b.append(yes, ' ', no);
      box.appendChild(b);
    }
    if (me && snap.phase === 'play' && snap.scoring_requested[other] && !snap.scoring_requested[me]) {
      const b = document.createElement('div');
      b.className = 'banner';
      b.append(`${t('game.thinks_over', { name: snap[other].username })} `);
      b.append(button(t('game.count_now'), () => send({ type: 'score_request' }), 'primary'));
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
    let unsure = new Set((reviewing || snap.phase !== 'scoring' ? [] : openUnsure()).map((v) => parseVertex(size, v)).filter(Boolean).map((p) => `${p.x},${p.y}`));
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
      const who = document.createElement('bdi');
      who.textContent = snap[side].username;
      el.querySelector('.name').replaceChildren(`${side === 'black' ? '●' : '○'} `, who, ` (${rankName(snap[side].rank)})`);
      el.querySelector('.meta').textContent = `${t('game.captures', { n: snap.captures[side] })}${me === side ? ` · ${t('game.you')}` : ''}`;
      el.classList.toggle('to-move', snap.phase === 'play' && snap.to_move === side);
    }
    renderClocks();
    const status = q('#status');
    status.textContent = snap.phase === 'play'
      ? (myTurn() ? t('game.your_move') : t('game.to_move', { name: snap[snap.to_move].username }))
      : snap.phase === 'scoring' ? t('game.removing_dead') : '';
    renderInfo(shown.length);
    // A pass leaves nothing on the board: say so while it is the last move shown.
    const notice = q('#notice');
    const lastShown = shown[shown.length - 1];
    const passed = lastShown && lastShown.point === 'pass' && (reviewing || snap.phase === 'play');
    notice.hidden = !passed;
    notice.textContent = passed
      ? `${t('game.passed', { color: t(`color.${lastShown.color}`), name: snap[lastShown.color].username })}${!reviewing && me && snap.to_move === me ? ` ${t('game.pass_too')}` : ''}`
      : '';
    renderBanners();
    renderControls();
    renderMoveList();
  }

  /** The terms in words, and the move number (while stepping: the move shown of how many). */
  function renderInfo(at) {
    const terms = snap.terms;
    const parts = [`${size}×${size}`, t('game.rules', { rules: rulesName(terms.rules) }), t('game.komi', { komi: terms.komi })];
    if (terms.handicap) parts.push(t('game.handicap', { n: terms.handicap }));
    q('[data-testid=terms]').textContent = parts.join(' · ');
    // Half a point of komi surprises a player who knows 6.5 or 7: say why it is 0.5 here.
    const note = q('[data-testid=komi-note]');
    const why = komiNote(terms);
    note.hidden = !why;
    note.textContent = why;
    q('[data-testid=time-setting]').textContent = timeWords(terms.time);
    const moves = snap.moves.length;
    q('[data-testid=move-number]').textContent = review === null ? t('game.move_n', { n: moves }) : t('game.move_of', { at, moves });
  }

  function renderClocks() {
    for (const side of ['black', 'white']) {
      const el = q(`[data-clock="${side}"]`);
      const away = q(`[data-testid=vacation-${side}]`);
      const c = snap.clocks;
      const until = c && c.vacation && c.vacation[side];
      // A disconnected player: the grace period's countdown, until they are back.
      const p = snap.presence && snap.presence[side];
      const gone = snap.phase !== 'finished' && p && !p.connected && p.until;
      away.hidden = !until && !gone;
      away.textContent = until ? t('game.vacation_until', { until: vacationDate(until) })
        : gone ? t(p.arrived ? 'game.disconnected' : 'game.not_here', { n: Math.max(0, Math.ceil((p.until - Date.now()) / 1000)) }) : '';
      if (!c) {
        el.querySelector('.main').textContent = '';
        el.querySelector('.extra').textContent = '';
        continue;
      }
      const elapsed = c.running === side ? performance.now() - fetchedAt : 0;
      const shown = clockText(snap.terms.time, c[side], elapsed, !!c.correspondence);
      el.querySelector('.main').textContent = shown ? shown.main : '';
      el.querySelector('.extra').textContent = shown ? shown.extra : '';
      el.classList.toggle('low', !!(shown && shown.low && c.running === side));
      el.classList.toggle('running', c.running === side);
    }
  }

  function vacationDate(ms) {
    // The weekday too: a correspondence player plans by days.
    return new Date(ms).toLocaleString(language(), { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  }

  const chat = q('#chat');
  // A line keeps its seq, so that a moderator's `chat_hidden` removes it; a line hidden before
  // it reached us comes with no text and is not shown. Others' lines can be reported, and
  // moderators can hide any.
  function addChat(user, text, seq) {
    if (!text) return;
    const p = document.createElement('p');
    p.dataset.seq = seq;
    // A bot's lines are its manners, in the player's words, and nothing to report.
    const bot = ['black', 'white'].some((c) => snap[c].bot && snap[c].username === user);
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
          app.error(e);
        }
      };
      p.append(' ', h);
    }
    chat.appendChild(p);
    chat.scrollTop = chat.scrollHeight;
  }
  if (q('#report-game')) q('#report-game').onclick = () => app.report(snap[me === 'black' ? 'white' : 'black'].username, id);
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

  // Events up to the page's snapshot are history the socket replays (the watch starts from the
  // first event, for the chat): they redraw, but a take-back asked long ago is no news.
  const openedAt = snap.seq;
  let queued = false;
  let alive = true;
  app.socket.watch(id, (m) => {
    if (!alive) return;
    // The socket closed for good (a ban, a log-out): no event will come. The page reads the
    // game once more, so that it shows the end a ban's resignation gave it; a player no longer
    // logged in keeps no controls.
    if (m.type === 'closed') {
      if (!app.user) {
        me = null;
        q('#report-game')?.remove();
      }
      pending = null;
      refresh();
      return;
    }
    if (m.type !== 'event') return;
    if (m.event.type === 'chat') addChat(m.event.user, m.event.text, m.seq);
    if (m.event.type === 'chat_hidden') chat.querySelector(`p[data-seq="${Number(m.event.seq)}"]`)?.remove();
    if (m.event.type === 'move' && sound) playClick();
    const news = m.seq > openedAt && snap.phase !== 'finished';
    if (news && m.event.type === 'takeback_requested' && me && m.event.color !== me) app.toast(t('game.takeback_asked', { name: snap[m.event.color].username }), 'info', true);
    if (news && m.event.type === 'disputed') app.toast(t(`count.disputed_${m.event.verdict}`, { name: snap[m.event.color].username, n: m.event.points.length }), 'info', true);
    if (news && m.event.type === 'takeback_answered' && me && m.event.color !== me) app.toast(m.event.accepted ? t('game.takeback_allowed') : t('game.takeback_refused'), 'info', true);
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
    alive = false;
    clearInterval(ticker);
    document.removeEventListener('keydown', keys);
    app.socket && app.socket.unwatch(id);
  };
}
