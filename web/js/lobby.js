// The lobby: quick match, the games waiting for your move, play a bot, open a room, join a
// room, watch a live game, see who is online (and which friends), chat in the lobby. It
// refreshes every few seconds. On phones the panels stack in this order: the quick ways to a
// game come before the long room form.

import * as api from './api.js';
import { t, tn, rankName, errorMessage } from './i18n.js';
import { rulesName } from './game.js';
import { esc } from './html.js';
import { dailyCard } from './puzzles.js';

const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz', 'first-capture'];

const RANKS = [...Array.from({ length: 30 }, (_, i) => `${30 - i}k`), ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`)];

/** A duration for people: "2d 23h", "5h 10m", "12 min". */
export function span(ms) {
  const h = Math.floor(ms / 3600000);
  if (h >= 24 && h % 24 === 0 && ms % 3600000 === 0) return tn('time.days', h / 24);
  if (h >= 24) return t('time.d_h', { d: Math.floor(h / 24), h: h % 24 });
  if (h >= 1) return t('time.h_m', { h, m: Math.floor((ms % 3600000) / 60000) });
  return t('time.min', { n: Math.max(0, Math.round(ms / 60000)) });
}

function timeLabel(c) {
  if (!c || c.system === 'none') return t('lobby.no_clock');
  if (c.system === 'correspondence') return t('time.a_move', { time: span(c.per_move_ms) });
  const m = (ms) => t('time.min', { n: Math.round(ms / 60000) });
  const s = (ms) => t('time.s', { n: ms / 1000 });
  if (c.system === 'absolute') return m(c.main_ms);
  if (c.system === 'byoyomi') return c.periods ? `${m(c.main_ms)} + ${c.periods}×${s(c.period_ms)}` : m(c.main_ms);
  if (c.system === 'canadian') return t('time.canadian_short', { main: m(c.main_ms), stones: c.stones, period: m(c.period_ms) });
  return `${m(c.main_ms)} + ${s(c.increment_ms)}`;
}

const rankOptions = () => RANKS.map((r) => `<option value="${r}">${rankName(r)}</option>`).join('');
const rulesOptions = (rules) => rules.map((r) => `<option value="${r}">${esc(rulesName(r))}</option>`).join('');
const sizeOptions = (sizes) => sizes.map((n) => `<option value="${n}">${n}×${n}</option>`).join('');

/** Why a quick-match request ended without a game, in the player's words (the server's code,
 * its English sentence for a code the catalogues lack). */
function matchMessage(m) {
  return m.code ? errorMessage(m.code, m.message) : m.message;
}

// The game the last "paired with" notice was for: the socket, the request's answer and the
// lobby's polling all report the same pairing.
let pairedGame = null;

export async function lobbyPage(main, app) {
  const guestOrOut = !app.user || app.user.guest;
  main.innerHTML = `
    <div class="grid">
      <section class="panel stack" aria-labelledby="qm-h" id="quick">
        <h2 id="qm-h">${t('lobby.quick_match')}</h2>
        <form class="stack" id="qm-form">
          <fieldset class="row plain"><legend>${t('lobby.board')}</legend>
            ${[9, 13, 19].map((s) => `<label class="inline"><input type="checkbox" name="size" value="${s}"${s === 19 ? ' checked' : ''}> ${s}×${s}</label>`).join('')}
          </fieldset>
          <div class="row">
            <label>${t('lobby.speed')} <select name="speed" data-testid="qm-speed">
              <option value="live">${t('lobby.speed_live')}</option>
              <option value="blitz">${t('lobby.speed_blitz')}</option>
              <option value="correspondence">${t('lobby.speed_correspondence')}</option>
            </select></label>
            <label>${t('lobby.rules')} <select name="rules">${rulesOptions(RULES.filter((r) => r !== 'first-capture' && r !== 'wga'))}</select></label>
          </div>
          <div class="row">
            <label>${t('lobby.opponents_from')} <select name="min_rank"><option value="">${t('lobby.any')}</option>${rankOptions()}</select></label>
            <label>${t('lobby.to')} <select name="max_rank"><option value="">${t('lobby.any')}</option>${rankOptions()}</select></label>
            <label>${t('lobby.bot_after')} <select name="bot_after_s"><option value="">${t('lobby.never')}</option>${[10, 30, 60, 120, 300].map((n) => `<option value="${n}"${n === 30 ? ' selected' : ''}>${n < 60 ? t('time.s', { n }) : t('time.min', { n: n / 60 })}</option>`).join('')}</select></label>
          </div>
          <p class="muted small">${t('lobby.qm_note')}</p>
          <div class="row"><button class="primary" type="submit" id="qm-go">${t('lobby.find_game')}</button><button type="button" id="qm-cancel" hidden>${t('lobby.cancel')}</button></div>
          <p id="qm-status" role="status" aria-live="polite" class="muted"></p>
        </form>
      </section>
      <section class="panel stack" aria-labelledby="turns-h">
        <h2 id="turns-h">${t('lobby.your_move')}</h2>
        <ul class="list" id="turns"></ul>
        <button class="link" id="notify-allow" hidden>${t('lobby.notify_ask')}</button>
        <p id="daily"></p>
      </section>
      <section class="panel stack" aria-labelledby="bots-h">
        <h2 id="bots-h">${t('lobby.play_bot')}</h2>
        <form class="row" id="bot-terms">
          <label>${t('lobby.board')} <select name="size">${sizeOptions([9, 13, 19])}</select></label>
          <label>${t('lobby.rules')} <select name="rules">${rulesOptions(['chinese', ...RULES.filter((r) => r !== 'chinese')])}</select></label>
          <label>${t('lobby.you_play')} <select name="color"><option value="black">${t('color.black')}</option><option value="white">${t('color.white')}</option><option value="">${t('lobby.either')}</option></select></label>
          <label>${t('lobby.handicap')} <select name="handicap"><option value="">${t('lobby.none')}</option>${[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `<option>${n}</option>`).join('')}</select></label>
        </form>
        <div id="bots" class="row"></div>
      </section>
      <form class="panel stack" id="create" aria-labelledby="create-h">
        <h2 id="create-h">${t('lobby.open_room')}</h2>
        <div class="row">
          <label>${t('lobby.board')} <select name="size">${sizeOptions([9, 13, 19, 5, 7, 11, 15, 17])}</select></label>
          <label>${t('lobby.rules')} <select name="rules">${rulesOptions(RULES)}</select></label>
          <label>${t('lobby.komi')} <input name="komi" placeholder="${t('lobby.default')}" size="6" inputmode="decimal"></label>
        </div>
        <div class="row">
          <label>${t('lobby.clock')} <select name="system">
            <option value="byoyomi">${t('lobby.clock_byoyomi')}</option>
            <option value="canadian">${t('lobby.clock_canadian')}</option>
            <option value="absolute">${t('lobby.clock_absolute')}</option>
            <option value="fischer">${t('lobby.clock_fischer')}</option>
            <option value="correspondence">${t('lobby.clock_correspondence')}</option>
            <option value="none">${t('lobby.no_clock')}</option>
          </select></label>
          <label data-for="live">${t('lobby.main_min')} <input name="main" type="number" min="0" max="720" value="30" size="4"></label>
          <label data-for="live">${t('lobby.timers')} <input name="count" type="number" min="0" max="100" value="0" size="4"></label>
          <label data-for="live">${t('lobby.seconds_each')} <input name="seconds" type="number" min="0" max="3600" value="30" size="4"></label>
          <label data-for="correspondence" hidden>${t('lobby.days_a_move')} <input name="days" type="number" min="1" max="30" value="3" size="4"></label>
        </div>
        <div class="row">
          <label class="inline"><input type="checkbox" name="take_back"> ${t('lobby.allow_takebacks')}</label>
          <label class="inline"><input type="checkbox" name="estimate"> ${t('lobby.allow_estimate')}</label>
          <label class="inline" title="${t('lobby.engine_disputes_title')}"><input type="checkbox" name="disputes"> ${t('lobby.engine_disputes')}</label>
          <label>${t('lobby.handicap')} <select name="handicap"><option value="">${t('lobby.from_ranks')}</option>${[2, 3, 4, 5, 6, 7, 9, 13, 21, 25].map((n) => `<option>${n}</option>`).join('')}</select></label>
          <label>${t('lobby.parity')} <select name="parity"><option value="odd">${t('lobby.odd')}</option><option value="even">${t('lobby.even')}</option></select></label>
        </div>
        <p class="muted small">${t('lobby.hosun_note')}</p>
        <details class="glossary" data-testid="glossary"><summary>${t('glossary.title')}</summary>
          ${['hosun', 'jungsun', 'komi', 'byoyomi', 'timers'].map((k) => `<p class="small">${t(`glossary.${k}`)}</p>`).join('')}
          <p class="row"><a href="#/rules">${t('rulespage.link')}</a></p>
        </details>
        <button class="primary" type="submit">${t('lobby.open_room_button')}</button>
      </form>
    </div>
    <div class="grid spaced">
      <section class="panel"><h2>${t('lobby.open_rooms')}</h2><ul class="list" id="rooms"></ul></section>
      <section class="panel"><h2>${t('lobby.live_games')}</h2><ul class="list" id="live"></ul></section>
      <section class="panel"><h2>${t('lobby.online')}</h2><ul class="list" id="online"></ul></section>
      ${guestOrOut ? '' : `<section class="panel"><h2>${t('lobby.friends')}</h2><ul class="list" id="friends"></ul></section>`}
      <section class="panel stack"><h2>${t('lobby.chat')}</h2>
        <ol class="thread" id="lobby-chat" data-testid="lobby-chat"></ol>
        ${guestOrOut ? `<p class="muted small">${t('lobby.register_to_chat')}</p>` : `<form class="row" id="lobby-say"><input name="text" required maxlength="500" placeholder="${t('lobby.say_placeholder')}" aria-label="${t('lobby.chat')}"><button type="submit">${t('lobby.say')}</button></form>`}
      </section>
    </div>`;
  dailyCard(main.querySelector('#daily'));

  // The clock fields that apply to the chosen system.
  const systemSel = main.querySelector('#create select[name=system]');
  systemSel.onchange = () => {
    const corr = systemSel.value === 'correspondence';
    for (const l of main.querySelectorAll('#create [data-for]')) l.hidden = (l.dataset.for === 'correspondence') !== corr;
  };

  // Quick match: the request goes over the socket when it is up (the pairing comes back on it),
  // else over HTTP; the page also asks the server where the request stands on every refresh.
  const qmForm = main.querySelector('#qm-form');
  const qmStatus = main.querySelector('#qm-status');
  const qmCancel = main.querySelector('#qm-cancel');
  const qmGo = main.querySelector('#qm-go');
  let qmSince = null;
  function showMatch(m) {
    if (!m) return;
    if (m.state === 'matched' && m.game) {
      // The pairing arrives on the socket, in the request's answer and in the status the page
      // polls: one notice a game, whichever comes first.
      if (pairedGame !== m.game) {
        pairedGame = m.game;
        app.toast(m.opponent ? t('lobby.paired_with', { name: m.opponent.username }) : t('lobby.paired'));
      }
      app.go(`#/game/${m.game}`);
      return;
    }
    const waiting = m.state === 'waiting';
    qmSince = waiting ? m.since : null;
    qmCancel.hidden = !waiting;
    qmGo.disabled = waiting;
    qmStatus.textContent = waiting ? t('lobby.looking') : (m.state === 'failed' || m.state === 'withdrawn') ? matchMessage(m) : '';
  }
  const stopMatched = app.socket ? app.socket.onMatched((m) => showMatch(m.match)) : () => {};
  qmForm.onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(qmForm);
    const body = { sizes: f.getAll('size').map(Number), speed: f.get('speed'), rules: f.get('rules') };
    if (f.get('min_rank')) body.min_rank = f.get('min_rank');
    if (f.get('max_rank')) body.max_rank = f.get('max_rank');
    if (f.get('bot_after_s')) body.bot_after_s = Number(f.get('bot_after_s'));
    if (!body.sizes.length) {
      app.toast(t('lobby.choose_size'), 'error');
      return;
    }
    try {
      const r = app.socket ? (await app.socket.request({ type: 'match', ...body })).match : await api.requestMatch(body);
      showMatch(r);
    } catch (err) {
      app.error(err);
    }
  };
  qmCancel.onclick = async () => {
    try {
      await api.cancelMatch();
    } catch (err) {
      if (err.code !== 'no_match_request') app.error(err);
    }
    showMatch({ state: 'idle' });
  };
  const qmTicker = setInterval(() => {
    if (qmSince) qmStatus.textContent = `${t('lobby.looking')} ${t('time.s', { n: Math.round((Date.now() - qmSince) / 1000) })}`;
  }, 1000);

  const form = main.querySelector('#create');
  form.onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const system = f.get('system');
    const main_ms = Number(f.get('main')) * 60000;
    const count = Number(f.get('count'));
    const secs = Number(f.get('seconds')) * 1000;
    const time =
      system === 'none' ? { system } :
      system === 'absolute' ? { system, main_ms } :
      system === 'byoyomi' ? { system, main_ms, periods: count, period_ms: secs } :
      system === 'canadian' ? { system, main_ms, stones: count, period_ms: secs } :
      system === 'correspondence' ? { system, per_move_ms: Number(f.get('days')) * 86400000 } :
      { system, main_ms, increment_ms: secs };
    const terms = { size: Number(f.get('size')), rules: f.get('rules'), take_back: f.get('take_back') === 'on', estimate: f.get('estimate') === 'on', disputes: f.get('disputes') === 'on' ? 'engine' : 'play', parity: f.get('parity'), time };
    if (f.get('komi')) terms.komi = f.get('komi');
    if (f.get('handicap')) terms.handicap = Number(f.get('handicap'));
    try {
      await api.createRoom(terms);
      app.toast(t('lobby.room_open'));
      refresh();
    } catch (err) {
      app.error(err);
    }
  };

  const botsEl = main.querySelector('#bots');
  try {
    const { bots } = await api.bots();
    for (const b of bots) {
      const btn = document.createElement('button');
      // A bot two ranks or more stronger gives a player the handicap the ranks call for (seed
      // 002: a stone a rank), unless they choose one above. Not a guest: a guest's rank is the
      // server's guess, not theirs.
      const stones = app.user && !app.user.guest ? suggestedHandicap(app.user.rank, b.rank) : 0;
      btn.textContent = t('lobby.play_bot_named', { name: b.name, rank: rankName(b.rank) })
        + (stones ? ` · ${t('lobby.bot_handicap', { n: stones })}` : '');
      btn.dataset.bot = b.name;
      if (stones) btn.dataset.handicap = String(stones);
      // A remote bot whose engine is not connected cannot start a game (`bot_offline`); the
      // lobby's refresh follows it coming and going (it is online while connected).
      if (b.engine === 'remote') btn.dataset.remote = '1';
      if (b.available === false) {
        btn.disabled = true;
        btn.title = t('lobby.bot_away', { name: b.name });
      }
      btn.onclick = async () => {
        // The board, rules, colour and handicap chosen above; a handicap means playing Black.
        const f = new FormData(main.querySelector('#bot-terms'));
        const body = { size: Number(f.get('size')), rules: f.get('rules') };
        if (f.get('handicap') || stones) {
          body.handicap = Number(f.get('handicap') || stones);
        } else if (f.get('color')) {
          body.color = f.get('color');
        }
        try {
          const r = await api.playBot(b.name, body);
          app.go(`#/game/${r.game_id}`);
        } catch (err) {
          app.error(err);
        }
      };
      botsEl.appendChild(btn);
    }
  } catch (err) {
    app.error(err);
  }

  const watching = [];
  let alive = true;
  async function refresh() {
    try {
      const [{ rooms }, { games }, { users }, turns, match, { friends }] = await Promise.all([
        api.rooms(),
        api.liveGames(),
        api.online(),
        app.user && !app.user.guest ? api.turns() : { games: [] },
        app.user ? api.matchStatus() : null,
        app.user && !app.user.guest ? api.friends() : { friends: [] },
      ]);
      // The player may have left the lobby while the answers were on their way.
      if (!alive) return;
      for (const btn of main.querySelectorAll('#bots button[data-remote]')) {
        const away = !users.some((u) => u.username === btn.dataset.bot);
        btn.disabled = away;
        btn.title = away ? t('lobby.bot_away', { name: btn.dataset.bot }) : '';
      }
      // A request waiting (perhaps from another tab), or the outcome of the one this page is
      // waiting for; an old outcome does not send the player back to an old game.
      if (match && (match.state === 'waiting' || (qmSince && match.state !== 'idle'))) showMatch(match);
      main.querySelector('#turns').innerHTML = turns.games.length
        ? turns.games.map((g) => `<li><span>${esc(t('lobby.turn_line', { opponent: g.opponent, size: `${g.size}×${g.size}`, move: g.move_number + 1 }))}${g.time_left_ms != null ? ` · ${esc(t('lobby.time_left', { time: span(g.time_left_ms) }))}` : ''}</span><a href="#/game/${g.game}" data-turn="${g.game}">${t('lobby.play')}</a></li>`).join('')
        : `<li class="muted">${t('lobby.no_turns')}</li>`;
      const roomsEl = main.querySelector('#rooms');
      roomsEl.replaceChildren();
      for (const r of rooms) {
        const li = document.createElement('li');
        li.innerHTML = `<span><bdi>${esc(r.owner.username)}</bdi> (${esc(rankName(r.owner.rank))}) · ${r.size}×${r.size} ${esc(rulesName(r.rules))} · ${esc(timeLabel(r.time))}${r.take_back ? ` · ${t('lobby.takebacks')}` : ''}${r.estimate ? ` · ${t('lobby.estimates')}` : ''}${r.disputes === 'engine' ? ` · ${t('lobby.engine_judges')}` : ''}</span>`;
        const actions = document.createElement('span');
        if (app.user && r.owner.username === app.user.username) {
          const c = document.createElement('button');
          c.textContent = t('lobby.close');
          c.onclick = async () => {
            try {
              await api.cancelRoom(r.id);
              refresh();
            } catch (err) {
              app.error(err);
            }
          };
          actions.appendChild(c);
          watchRoom(r.id);
        } else {
          // Same rank: HO-SUN, the partner guesses the owner's odd or even.
          const same = app.user && app.user.rank === r.owner.rank;
          actions.className = 'joins';
          // An owner who left: the room closes in a moment; joining would only wait for them.
          const away = r.owner.here === false;
          if (away) {
            const note = document.createElement('span');
            note.className = 'muted small';
            note.dataset.testid = 'owner-away';
            note.textContent = t('lobby.owner_away');
            actions.appendChild(note);
          }
          if (same) {
            const hint = document.createElement('span');
            hint.className = 'muted small';
            hint.textContent = t('lobby.same_rank_hint');
            actions.appendChild(hint);
          }
          for (const guess of same ? ['odd', 'even'] : [null]) {
            const j = document.createElement('button');
            j.className = 'primary';
            j.textContent = guess ? t(`lobby.join_${guess}`) : t('lobby.join');
            j.dataset.join = `${r.id}${guess ? `-${guess}` : ''}`;
            j.disabled = away;
            j.onclick = async () => {
              try {
                const res = await api.joinRoom(r.id, guess ? { guess } : {});
                if (res.game_type === 'ho_sun') app.toast(t('lobby.hosun_result', { parity: t(`lobby.${res.owner_parity}`), color: t(res.game.black.username === app.user.username ? 'color.black' : 'color.white') }));
                app.go(`#/game/${res.game_id}`);
              } catch (err) {
                app.error(err);
              }
            };
            actions.appendChild(j);
          }
        }
        li.appendChild(actions);
        roomsEl.appendChild(li);
      }
      if (!rooms.length) roomsEl.innerHTML = `<li class="muted">${t('lobby.no_rooms')}</li>`;
      const liveEl = main.querySelector('#live');
      liveEl.innerHTML = games.length
        ? games.map((g) => `<li><span><bdi>${esc(g.black)}</bdi> – <bdi>${esc(g.white)}</bdi> · ${g.terms.size}×${g.terms.size}</span><a href="#/game/${g.id}">${app.user && (g.black === app.user.username || g.white === app.user.username) ? t('lobby.play') : t('lobby.watch')}</a></li>`).join('')
        : `<li class="muted">${t('lobby.no_live')}</li>`;
      // Friends, online first, each with a dot.
      const friendsEl = main.querySelector('#friends');
      if (friendsEl) {
        const sorted = [...friends].sort((a, b) => Number(b.online) - Number(a.online));
        friendsEl.innerHTML = sorted.map((f) => `<li data-friend="${esc(f.name)}" data-online="${f.online}"><span><span class="dot ${f.online ? 'on' : 'off'}" title="${f.online ? t('lobby.friend_online') : t('lobby.friend_offline')}">●</span> <a href="#/user/${encodeURIComponent(f.name)}">${esc(f.name)}</a></span><a href="#/messages/${encodeURIComponent(f.name)}">${t('lobby.message')}</a></li>`).join('') || `<li class="muted">${t('lobby.no_friends')}</li>`;
      }
      main.querySelector('#online').innerHTML = users.map((u) => `<li><a href="#/user/${encodeURIComponent(u.username)}">${esc(u.username)}</a><span class="muted">${esc(rankName(u.rank))}</span></li>`).join('') || `<li class="muted">${t('lobby.nobody')}</li>`;
    } catch (err) {
      app.error(err);
    }
  }

  // The owner of a room goes to the game as soon as a partner joins.
  const watched = new Set();
  async function watchRoom(id) {
    if (watched.has(id)) return;
    watched.add(id);
    watching.push(setInterval(async () => {
      try {
        const r = await api.api('GET', `/api/rooms/${id}`);
        if (r.game_id) app.go(`#/game/${r.game_id}`);
      } catch {
        /* the next tick tries again */
      }
    }, 1000));
  }

  // Browser notifications for one's turn (and messages), asked behind a button as browsers want.
  const allow = main.querySelector('#notify-allow');
  if (allow && 'Notification' in window && Notification.permission === 'default') {
    allow.hidden = false;
    allow.onclick = async () => {
      const answer = await Notification.requestPermission();
      allow.hidden = true;
      app.toast(answer === 'granted' ? t('lobby.notify_on') : t('lobby.notify_off'));
    };
  }
  // The lobby chat: the last lines, then each as it is said.
  const chatEl = main.querySelector('#lobby-chat');
  const addLine = (l) => {
    const li = document.createElement('li');
    li.className = app.user && l.from === app.user.username ? 'mine' : 'theirs';
    const who = document.createElement('a');
    who.href = `#/user/${encodeURIComponent(l.from)}`;
    who.textContent = l.from;
    const text = document.createElement('bdi');
    text.textContent = l.text;
    li.append(who, ': ', text);
    chatEl.appendChild(li);
    while (chatEl.children.length > 50) chatEl.firstChild.remove();
    li.scrollIntoView({ block: 'nearest' });
  };
  if (app.socket) {
    const join = () => app.socket.request({ type: 'lobby_join' }).then((r) => {
      chatEl.replaceChildren();
      r.lines.forEach(addLine);
    });
    // The socket may still be opening: try again in a moment.
    join().catch(() => setTimeout(() => alive && join().catch(() => {}), 1000));
  }
  const sayForm = main.querySelector('#lobby-say');
  if (sayForm) {
    sayForm.onsubmit = async (e) => {
      e.preventDefault();
      const text = sayForm.text.value.trim();
      if (!text) return;
      try {
        await app.socket.request({ type: 'lobby_chat', text });
        sayForm.text.value = '';
      } catch (err) {
        app.error(err);
      }
    };
  }
  // Your turn somewhere: the list is out of date. A lobby line: shown.
  const stopTurns = app.socket
    ? app.socket.onPrivateMessage((m) => {
        if (m.type === 'your_turn') refresh();
        else if (m.type === 'lobby_chat') addLine(m);
      })
    : () => {};

  await refresh();
  const timer = setInterval(refresh, 3000);
  return () => {
    alive = false;
    clearInterval(timer);
    clearInterval(qmTicker);
    stopMatched();
    stopTurns();
    watching.forEach(clearInterval);
  };
}

/** A rank's place on one scale: 30k is -29, 1k 0, 1d 1, a professional above 9d. */
function rankLevel(rank) {
  const m = /^(\d+)([kdp])/.exec(String(rank || ''));
  if (!m) return null;
  const n = Number(m[1]);
  return m[2] === 'k' ? 1 - n : m[2] === 'd' ? n : 9 + n;
}

/** The handicap a player of rank `mine` takes from a bot of rank `theirs`: the largest usual
 * number of stones no greater than the rank difference, when it is two or more; else none. */
function suggestedHandicap(mine, theirs) {
  const a = rankLevel(mine);
  const b = rankLevel(theirs);
  if (a === null || b === null || b - a < 2) return 0;
  return [2, 3, 4, 5, 6, 7, 9].filter((n) => n <= b - a).pop();
}
