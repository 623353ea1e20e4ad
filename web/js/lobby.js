// The lobby: quick match, the games waiting for your move, play a bot, open a room, join a
// room, watch a live game, see who is online (and which friends), chat in the lobby. It
// refreshes every few seconds. On phones the panels stack in this order: the quick ways to a
// game come before the long room form. What the forms ask for, where a quick match stands and
// who may join a room is lobby-state.js's (pure); this file draws it and wires the page.

import * as api from './api.js';
import { t, rankName, errorMessage } from './i18n.js';
import { rulesName, span, timeLabel } from './format.js';
import { esc } from './html.js';
import {
  RULES, RANKS, CHAT_LINES, matchRequest, matchStep, matchNews, roomTerms, botHandicap, botRank, botRequest,
  botAway, roomChoices, hoSunColor, playsIn, friendsInOrder,
} from './lobby-state.js';
import { dailyCard } from './puzzles.js';

// The formatter was first written here.
export { span } from './format.js';

const rankOptions = () => RANKS.map((r) => `<option value="${r}">${rankName(r)}</option>`).join('');
const rulesOptions = (rules) => rules.map((r) => `<option value="${r}">${esc(rulesName(r))}</option>`).join('');
const sizeOptions = (sizes) => sizes.map((n) => `<option value="${n}">${n}×${n}</option>`).join('');

/** Why a quick-match request ended without a game, in the player's words (the server's code,
 * its English sentence for a code the catalogues lack). */
function matchMessage(m) {
  return m.code ? errorMessage(m.code, m.message) : m.message;
}

/** A form's fields as plain data (a field named twice keeps its last value). */
function fieldsOf(form) {
  return Object.fromEntries(new FormData(form));
}

// The game the last "paired with" notice was for: the socket, the request's answer and the
// lobby's polling all report the same pairing, and the player may come back to the lobby.
let pairedGame = null;

/**
 * The lobby's page. The sections are assembled here, in the order the page shows them: the
 * quick ways to a game, then the lists and the chat; each section's markup and wiring are the
 * functions below, which share the page's context `c`.
 */
export async function lobbyPage(main, app) {
  const c = { main, app, alive: true, guestOrOut: !app.user || app.user.guest, q: (s) => main.querySelector(s), stops: [] };
  main.innerHTML = `
    <div class="grid">${quickMatchPanel()}${turnsPanel()}${botsPanel()}${roomForm()}</div>
    <div class="grid spaced">${listPanels(c)}${chatPanel(c)}</div>`;
  c.refresh = () => refresh(c);
  wireQuickMatch(c);
  wireRoomForm(c);
  await wireBots(c);
  wireNotifications(c);
  wireChat(c);
  dailyCard(c.q('#daily'));
  await c.refresh();
  const timer = setInterval(c.refresh, 3000);
  return () => {
    c.alive = false;
    clearInterval(timer);
    c.stops.forEach((stop) => stop());
  };
}

function quickMatchPanel() {
  const botAfter = [10, 30, 60, 120, 300].map((n) => `<option value="${n}"${n === 30 ? ' selected' : ''}>${n < 60 ? t('time.s', { n }) : t('time.min', { n: n / 60 })}</option>`).join('');
  return `
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
            <label>${t('lobby.bot_after')} <select name="bot_after_s"><option value="">${t('lobby.never')}</option>${botAfter}</select></label>
          </div>
          <p class="muted small">${t('lobby.qm_note')}</p>
          <div class="row"><button class="primary" type="submit" id="qm-go">${t('lobby.find_game')}</button><button type="button" id="qm-cancel" hidden>${t('lobby.cancel')}</button></div>
          <p id="qm-status" role="status" aria-live="polite" class="muted"></p>
        </form>
      </section>`;
}

function turnsPanel() {
  return `
      <section class="panel stack" aria-labelledby="turns-h">
        <h2 id="turns-h">${t('lobby.your_move')}</h2>
        <ul class="list" id="turns"></ul>
        <button class="link" id="notify-allow" hidden>${t('lobby.notify_ask')}</button>
        <p id="daily"></p>
      </section>`;
}

function botsPanel() {
  return `
      <section class="panel stack" aria-labelledby="bots-h">
        <h2 id="bots-h">${t('lobby.play_bot')}</h2>
        <form class="row" id="bot-terms">
          <label>${t('lobby.board')} <select name="size">${sizeOptions([9, 13, 19])}</select></label>
          <label>${t('lobby.rules')} <select name="rules">${rulesOptions(['chinese', ...RULES.filter((r) => r !== 'chinese')])}</select></label>
          <label>${t('lobby.you_play')} <select name="color"><option value="black">${t('color.black')}</option><option value="white">${t('color.white')}</option><option value="">${t('lobby.either')}</option></select></label>
          <label>${t('lobby.handicap')} <select name="handicap"><option value="">${t('lobby.none')}</option>${[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `<option>${n}</option>`).join('')}</select></label>
        </form>
        <div id="bots" class="row"></div>
      </section>`;
}

function roomForm() {
  return `
      <form class="panel stack" id="create" aria-labelledby="create-h">
        <h2 id="create-h">${t('lobby.open_room')}</h2>
        <div class="row">
          <label>${t('lobby.board')} <select name="size">${sizeOptions([9, 13, 19, 5, 7, 11, 15, 17])}</select></label>
          <label>${t('lobby.rules')} <select name="rules">${rulesOptions(RULES)}</select></label>
          <label>${t('lobby.komi')} <input name="komi" placeholder="${t('lobby.default')}" size="6" inputmode="decimal"></label>
        </div>
        ${roomClockRow()}
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
      </form>`;
}

function roomClockRow() {
  return `<div class="row">
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
        </div>`;
}

function listPanels(c) {
  return `
      <section class="panel"><h2>${t('lobby.open_rooms')}</h2><ul class="list" id="rooms"></ul></section>
      <section class="panel"><h2>${t('lobby.live_games')}</h2><ul class="list" id="live"></ul></section>
      <section class="panel"><h2>${t('lobby.online')}</h2><ul class="list" id="online"></ul></section>
      ${c.guestOrOut ? '' : `<section class="panel"><h2>${t('lobby.friends')}</h2><ul class="list" id="friends"></ul></section>`}`;
}

function chatPanel(c) {
  const say = c.guestOrOut
    ? `<p class="muted small">${t('lobby.register_to_chat')}</p>`
    : `<form class="row" id="lobby-say"><input name="text" required maxlength="500" placeholder="${t('lobby.say_placeholder')}" aria-label="${t('lobby.chat')}"><button type="submit">${t('lobby.say')}</button></form>`;
  return `
      <section class="panel stack"><h2>${t('lobby.chat')}</h2>
        <ol class="thread" id="lobby-chat" data-testid="lobby-chat"></ol>
        ${say}
      </section>`;
}

/**
 * Quick match: the request goes over the socket when it is up (the pairing comes back on it),
 * else over HTTP; the page also asks the server where the request stands on every refresh.
 */
function wireQuickMatch(c) {
  const { app } = c;
  const form = c.q('#qm-form');
  c.qm = { since: null, paired: pairedGame };
  c.showMatch = (m) => showMatch(c, m);
  if (app.socket) c.stops.push(app.socket.onMatched((m) => c.showMatch(m.match)));
  form.onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const body = matchRequest({ ...Object.fromEntries(f), sizes: f.getAll('size') });
    if (!body) {
      app.toast(t('lobby.choose_size'), 'error');
      return;
    }
    try {
      c.showMatch(app.socket ? (await app.socket.request({ type: 'match', ...body })).match : await api.requestMatch(body));
    } catch (err) {
      app.error(err);
    }
  };
  c.q('#qm-cancel').onclick = async () => {
    try {
      await api.cancelMatch();
    } catch (err) {
      if (err.code !== 'no_match_request') app.error(err);
    }
    c.showMatch({ state: 'idle' });
  };
  const status = c.q('#qm-status');
  const ticker = setInterval(() => {
    if (c.qm.since) status.textContent = `${t('lobby.looking')} ${t('time.s', { n: Math.round((Date.now() - c.qm.since) / 1000) })}`;
  }, 1000);
  c.stops.push(() => clearInterval(ticker));
}

/** The server's word on the quick-match request: a notice and the game once paired, else the
 * panel's buttons and status. */
function showMatch(c, m) {
  if (!m) return;
  c.qm = matchStep(c.qm, m);
  pairedGame = c.qm.paired;
  if (c.qm.go) {
    if (c.qm.notice) c.app.toast(m.opponent ? t('lobby.paired_with', { name: m.opponent.username }) : t('lobby.paired'));
    c.app.go(`#/game/${c.qm.go}`);
    return;
  }
  c.q('#qm-cancel').hidden = !c.qm.waiting;
  c.q('#qm-go').disabled = c.qm.waiting;
  c.q('#qm-status').textContent = c.qm.status === 'looking' ? t('lobby.looking') : c.qm.status === 'outcome' ? matchMessage(m) : '';
}

/** The "open a room" form: the clock fields that apply to the chosen system, and the room. */
function wireRoomForm(c) {
  const form = c.q('#create');
  const systemSel = form.querySelector('select[name=system]');
  systemSel.onchange = () => {
    const corr = systemSel.value === 'correspondence';
    for (const l of form.querySelectorAll('[data-for]')) l.hidden = (l.dataset.for === 'correspondence') !== corr;
  };
  form.onsubmit = async (e) => {
    e.preventDefault();
    try {
      await api.createRoom(roomTerms(fieldsOf(form)));
      c.app.toast(t('lobby.room_open'));
      c.refresh();
    } catch (err) {
      c.app.error(err);
    }
  };
}

/** A button a bot, with the rank it plays at on the board chosen and the handicap that gives
 * the player; a new board or rules relabels them. */
async function wireBots(c) {
  const box = c.q('#bots');
  const terms = c.q('#bot-terms');
  try {
    const { bots } = await api.bots();
    const draw = () => {
      // A remote bot's presence is the lobby refresh's news: a relabelled button keeps it.
      const was = new Map([...box.children].map((x) => [x.dataset.bot, x]));
      box.replaceChildren(...bots.map((b) => {
        const btn = botButton(c, b, fieldsOf(terms));
        const old = was.get(b.name);
        if (old && btn.dataset.remote) Object.assign(btn, { disabled: old.disabled, title: old.title });
        return btn;
      }));
    };
    draw();
    terms.querySelector('[name=size]').addEventListener('change', draw);
    terms.querySelector('[name=rules]').addEventListener('change', draw);
  } catch (err) {
    c.app.error(err);
  }
}

function botButton(c, b, f) {
  const { app } = c;
  const btn = document.createElement('button');
  const stones = botHandicap(app.user, b, Number(f.size), f.rules);
  btn.textContent = t('lobby.play_bot_named', { name: b.name, rank: rankName(botRank(b, Number(f.size), f.rules)) })
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
    // The board, rules, colour and handicap chosen above.
    try {
      const r = await api.playBot(b.name, botRequest(fieldsOf(c.q('#bot-terms')), stones));
      app.go(`#/game/${r.game_id}`);
    } catch (err) {
      app.error(err);
    }
  };
  return btn;
}

/** Browser notifications for one's turn (and messages), asked behind a button as browsers want. */
function wireNotifications(c) {
  const allow = c.q('#notify-allow');
  if (!allow || !('Notification' in window) || Notification.permission !== 'default') return;
  allow.hidden = false;
  allow.onclick = async () => {
    const answer = await Notification.requestPermission();
    allow.hidden = true;
    c.app.toast(answer === 'granted' ? t('lobby.notify_on') : t('lobby.notify_off'));
  };
}

/** The lobby chat: the last lines, then each as it is said; your turn somewhere refreshes. */
function wireChat(c) {
  const { app } = c;
  const chatEl = c.q('#lobby-chat');
  if (app.socket) {
    const join = () => app.socket.request({ type: 'lobby_join' }).then((r) => {
      chatEl.replaceChildren();
      r.lines.forEach((l) => addLine(c, l));
    });
    // The socket may still be opening: try again in a moment.
    join().catch(() => setTimeout(() => c.alive && join().catch(() => {}), 1000));
  }
  const sayForm = c.q('#lobby-say');
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
  // Your turn somewhere: the list is out of date. A lobby line: shown; the lobby's last lines
  // (sent again after lines were missed): shown instead of what was there.
  if (app.socket) {
    c.stops.push(app.socket.onPrivateMessage((m) => {
      if (m.type === 'your_turn') c.refresh();
      else if (m.type === 'lobby_chat') addLine(c, m);
      else if (m.type === 'lobby') {
        // Lines were missed (the connection fell behind): the last ones, afresh.
        c.q('#lobby-chat').replaceChildren();
        m.lines.forEach((l) => addLine(c, l));
      }
    }));
  }
}

function addLine(c, l) {
  const chatEl = c.q('#lobby-chat');
  const li = document.createElement('li');
  li.className = c.app.user && l.from === c.app.user.username ? 'mine' : 'theirs';
  const who = document.createElement('a');
  who.href = `#/user/${encodeURIComponent(l.from)}`;
  who.textContent = l.from;
  const text = document.createElement('bdi');
  text.textContent = l.text;
  li.append(who, ': ', text);
  chatEl.appendChild(li);
  while (chatEl.children.length > CHAT_LINES) chatEl.firstChild.remove();
  li.scrollIntoView({ block: 'nearest' });
}

/** Reads the lobby's lists and the quick-match request's state, and draws them. */
async function refresh(c) {
  const { app } = c;
  const member = app.user && !app.user.guest;
  try {
    const [{ rooms }, { games }, { users }, turns, match, { friends }] = await Promise.all([
      api.rooms(),
      api.liveGames(),
      api.online(),
      member ? api.turns() : { games: [] },
      app.user ? api.matchStatus() : null,
      member ? api.friends() : { friends: [] },
    ]);
    // The player may have left the lobby while the answers were on their way.
    if (!c.alive) return;
    for (const btn of c.main.querySelectorAll('#bots button[data-remote]')) {
      const away = botAway(users, btn.dataset.bot);
      btn.disabled = away;
      btn.title = away ? t('lobby.bot_away', { name: btn.dataset.bot }) : '';
    }
    if (matchNews(c.qm, match)) c.showMatch(match);
    renderTurns(c, turns.games);
    renderRooms(c, rooms);
    renderLive(c, games);
    renderFriends(c, friends);
    c.q('#online').innerHTML = users.map((u) => `<li><a href="#/user/${encodeURIComponent(u.username)}">${esc(u.username)}</a><span class="muted">${esc(rankName(u.rank))}</span></li>`).join('') || `<li class="muted">${t('lobby.nobody')}</li>`;
  } catch (err) {
    app.error(err);
  }
}

function renderTurns(c, games) {
  c.q('#turns').innerHTML = games.length
    ? games.map((g) => `<li><span>${esc(t('lobby.turn_line', { opponent: g.opponent, size: `${g.size}×${g.size}`, move: g.move_number + 1 }))}${g.time_left_ms != null ? ` · ${esc(t('lobby.time_left', { time: span(g.time_left_ms) }))}` : ''}</span><a href="#/game/${g.game}" data-turn="${g.game}">${t('lobby.play')}</a></li>`).join('')
    : `<li class="muted">${t('lobby.no_turns')}</li>`;
}

function renderLive(c, games) {
  c.q('#live').innerHTML = games.length
    ? games.map((g) => `<li><span><bdi>${esc(g.black)}</bdi> – <bdi>${esc(g.white)}</bdi> · ${g.terms.size}×${g.terms.size}</span><a href="#/game/${g.id}">${playsIn(g, c.app.user) ? t('lobby.play') : t('lobby.watch')}</a></li>`).join('')
    : `<li class="muted">${t('lobby.no_live')}</li>`;
}

/** Friends, online first, each with a dot. */
function renderFriends(c, friends) {
  const box = c.q('#friends');
  if (!box) return;
  box.innerHTML = friendsInOrder(friends).map((f) => `<li data-friend="${esc(f.name)}" data-online="${f.online}"><span><span class="dot ${f.online ? 'on' : 'off'}" title="${f.online ? t('lobby.friend_online') : t('lobby.friend_offline')}">●</span> <a href="#/user/${encodeURIComponent(f.name)}">${esc(f.name)}</a></span><a href="#/messages/${encodeURIComponent(f.name)}">${t('lobby.message')}</a></li>`).join('') || `<li class="muted">${t('lobby.no_friends')}</li>`;
}

function renderRooms(c, rooms) {
  const box = c.q('#rooms');
  box.replaceChildren();
  for (const r of rooms) {
    const li = document.createElement('li');
    li.innerHTML = `<span><bdi>${esc(r.owner.username)}</bdi> (${esc(rankName(r.owner.rank))}) · ${r.size}×${r.size} ${esc(rulesName(r.rules))} · ${esc(timeLabel(r.time))}${r.take_back ? ` · ${t('lobby.takebacks')}` : ''}${r.estimate ? ` · ${t('lobby.estimates')}` : ''}${r.disputes === 'engine' ? ` · ${t('lobby.engine_judges')}` : ''}</span>`;
    li.appendChild(roomActions(c, r));
    box.appendChild(li);
  }
  if (!rooms.length) box.innerHTML = `<li class="muted">${t('lobby.no_rooms')}</li>`;
}

/** A room's buttons: close one's own (and wait for a partner), or join another's. */
function roomActions(c, r) {
  const { app } = c;
  const choice = roomChoices(r, app.user);
  const actions = document.createElement('span');
  if (choice.mine) {
    actions.appendChild(action('button', '', t('lobby.close'), async () => {
      try {
        await api.cancelRoom(r.id);
        c.refresh();
      } catch (err) {
        app.error(err);
      }
    }));
    watchRoom(c, r.id);
    return actions;
  }
  actions.className = 'joins';
  if (choice.away) actions.appendChild(action('span', 'muted small', t('lobby.owner_away'))).dataset.testid = 'owner-away';
  if (choice.same) actions.appendChild(action('span', 'muted small', t('lobby.same_rank_hint')));
  for (const { guess, id } of choice.joins) {
    const j = action('button', 'primary', guess ? t(`lobby.join_${guess}`) : t('lobby.join'), () => join(c, r, guess));
    j.dataset.join = id;
    j.disabled = choice.away;
    actions.appendChild(j);
  }
  return actions;
}

/** An element `tag` with class `cls` and text, clicked with `onclick` when given. */
function action(tag, cls, text, onclick) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.textContent = text;
  if (onclick) e.onclick = onclick;
  return e;
}

/** Joins room `r` (with a guess of the owner's parity for HO-SUN), then opens the game. */
async function join(c, r, guess) {
  const { app } = c;
  try {
    const res = await api.joinRoom(r.id, guess ? { guess } : {});
    if (res.game_type === 'ho_sun') app.toast(t('lobby.hosun_result', { parity: t(`lobby.${res.owner_parity}`), color: t(`color.${hoSunColor(res, app.user.username)}`) }));
    app.go(`#/game/${res.game_id}`);
  } catch (err) {
    app.error(err);
  }
}

/** The owner of a room goes to the game as soon as a partner joins. */
function watchRoom(c, id) {
  c.watched = c.watched || new Set();
  if (c.watched.has(id)) return;
  c.watched.add(id);
  const timer = setInterval(async () => {
    try {
      const r = await api.api('GET', `/api/rooms/${id}`);
      if (r.game_id) c.app.go(`#/game/${r.game_id}`);
    } catch {
      /* the next tick tries again */
    }
  }, 1000);
  c.stops.push(() => clearInterval(timer));
}
