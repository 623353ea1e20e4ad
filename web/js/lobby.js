// The lobby: quick match, the games waiting for your move, play a bot, open a room, join a
// room, watch a live game, see who is online (and which friends), chat in the lobby. It
// refreshes every few seconds. On phones the panels stack in this order: the quick ways to a
// game come before the long room form.

import * as api from './api.js';

const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz', 'first-capture'];

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

const RANKS = [...Array.from({ length: 30 }, (_, i) => `${30 - i}k`), ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`)];

/** A duration for people: "2d 23h", "5h 10m", "12 min". */
export function span(ms) {
  const h = Math.floor(ms / 3600000);
  if (h >= 24 && h % 24 === 0 && ms % 3600000 === 0) return `${h / 24} day${h === 24 ? '' : 's'}`;
  if (h >= 24) return `${Math.floor(h / 24)}d ${h % 24}h`;
  if (h >= 1) return `${h}h ${Math.floor((ms % 3600000) / 60000)}m`;
  return `${Math.max(0, Math.round(ms / 60000))} min`;
}

function timeLabel(t) {
  if (!t || t.system === 'none') return 'no clock';
  if (t.system === 'correspondence') return `${span(t.per_move_ms)} a move`;
  const m = (ms) => `${Math.round(ms / 60000)} min`;
  if (t.system === 'absolute') return m(t.main_ms);
  if (t.system === 'byoyomi') return t.periods ? `${m(t.main_ms)} + ${t.periods}×${t.period_ms / 1000}s` : m(t.main_ms);
  if (t.system === 'canadian') return `${m(t.main_ms)} + ${t.stones} stones / ${m(t.period_ms)}`;
  return `${m(t.main_ms)} + ${t.increment_ms / 1000}s`;
}

export async function lobbyPage(main, app) {
  main.innerHTML = `
    <div class="grid">
      <section class="panel stack" aria-labelledby="qm-h" id="quick">
        <h2 id="qm-h">Quick match</h2>
        <form class="stack" id="qm-form">
          <fieldset class="row plain"><legend>Board</legend>
            ${[9, 13, 19].map((s) => `<label class="inline"><input type="checkbox" name="size" value="${s}"${s === 19 ? ' checked' : ''}> ${s}×${s}</label>`).join('')}
          </fieldset>
          <div class="row">
            <label>Speed <select name="speed">
              <option value="live">live (20 min + 5×30 s)</option>
              <option value="blitz">blitz (3 min + 5 s a move)</option>
              <option value="correspondence">correspondence (3 days a move)</option>
            </select></label>
            <label>Rules <select name="rules">${RULES.filter((r) => r !== 'first-capture' && r !== 'wga').map((r) => `<option>${r}</option>`).join('')}</select></label>
          </div>
          <div class="row">
            <label>Opponents from <select name="min_rank"><option value="">any</option>${RANKS.map((r) => `<option>${r}</option>`).join('')}</select></label>
            <label>to <select name="max_rank"><option value="">any</option>${RANKS.map((r) => `<option>${r}</option>`).join('')}</select></label>
            <label>A bot after <select name="bot_after_s"><option value="">never</option><option value="10">10 s</option><option value="30" selected>30 s</option><option value="60">1 min</option><option value="120">2 min</option><option value="300">5 min</option></select></label>
          </div>
          <p class="muted small">Paired players play as a room would set them up: HO-SUN at the same rank, JUNG-SUN one or two ranks apart, HANDICAP beyond.</p>
          <div class="row"><button class="primary" type="submit" id="qm-go">Find a game</button><button type="button" id="qm-cancel" hidden>Cancel</button></div>
          <p id="qm-status" role="status" aria-live="polite" class="muted"></p>
        </form>
      </section>
      <section class="panel stack" aria-labelledby="turns-h">
        <h2 id="turns-h">Your move</h2>
        <ul class="list" id="turns"></ul>
        <button class="link" id="notify-allow" hidden>Tell me through the browser's notifications when it is my turn</button>
      </section>
      <section class="panel stack" aria-labelledby="bots-h">
        <h2 id="bots-h">Play a bot</h2>
        <form class="row" id="bot-terms">
          <label>Board <select name="size">${[9, 13, 19].map((s) => `<option value="${s}">${s}×${s}</option>`).join('')}</select></label>
          <label>Rules <select name="rules">${['chinese', ...RULES.filter((r) => r !== 'chinese')].map((r) => `<option>${r}</option>`).join('')}</select></label>
          <label>You play <select name="color"><option value="black">black</option><option value="white">white</option><option value="">either</option></select></label>
          <label>Handicap <select name="handicap"><option value="">none</option>${[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `<option>${n}</option>`).join('')}</select></label>
        </form>
        <div id="bots" class="row"></div>
      </section>
      <form class="panel stack" id="create" aria-labelledby="create-h">
        <h2 id="create-h">Open a game room</h2>
        <div class="row">
          <label>Board <select name="size">${[9, 13, 19, 5, 7, 11, 15, 17].map((s) => `<option value="${s}">${s}×${s}</option>`).join('')}</select></label>
          <label>Rules <select name="rules">${RULES.map((r) => `<option>${r}</option>`).join('')}</select></label>
          <label>Komi <input name="komi" placeholder="default" size="6" inputmode="decimal"></label>
        </div>
        <div class="row">
          <label>Clock <select name="system">
            <option value="byoyomi">main time + extra timers</option>
            <option value="canadian">main time + byo-yomi stones</option>
            <option value="absolute">sudden death</option>
            <option value="fischer">Fischer</option>
            <option value="correspondence">correspondence (days a move)</option>
            <option value="none">no clock</option>
          </select></label>
          <label data-for="live">Main (min) <input name="main" type="number" min="0" max="720" value="30" size="4"></label>
          <label data-for="live">Timers / stones <input name="count" type="number" min="0" max="100" value="0" size="4"></label>
          <label data-for="live">Seconds each <input name="seconds" type="number" min="0" max="3600" value="30" size="4"></label>
          <label data-for="correspondence" hidden>Days a move <input name="days" type="number" min="1" max="30" value="3" size="4"></label>
        </div>
        <div class="row">
          <label class="inline"><input type="checkbox" name="take_back"> Allow take-backs</label>
          <label class="inline"><input type="checkbox" name="estimate"> Players may ask for a score estimate</label>
          <label>Handicap <select name="handicap"><option value="">from the ranks</option>${[2, 3, 4, 5, 6, 7, 9, 13, 21, 25].map((n) => `<option>${n}</option>`).join('')}</select></label>
          <label>HO-SUN: your secret choice <select name="parity"><option>odd</option><option>even</option></select></label>
        </div>
        <p class="muted small">HO-SUN (a partner of your rank): you secretly choose odd or even, your partner guesses; a right guess gives them Black.</p>
        <button class="primary" type="submit">Open room</button>
      </form>
    </div>
    <div class="grid spaced">
      <section class="panel"><h2>Open rooms</h2><ul class="list" id="rooms"></ul></section>
      <section class="panel"><h2>Live games</h2><ul class="list" id="live"></ul></section>
      <section class="panel"><h2>Players online</h2><ul class="list" id="online"></ul></section>
      ${app.user && !app.user.guest ? '<section class="panel"><h2>Friends</h2><ul class="list" id="friends"></ul></section>' : ''}
      <section class="panel stack"><h2>Lobby chat</h2>
        <ol class="thread" id="lobby-chat" data-testid="lobby-chat"></ol>
        ${app.user && !app.user.guest ? '<form class="row" id="lobby-say"><input name="text" required maxlength="500" placeholder="Say something to everyone" aria-label="Lobby chat"><button type="submit">Say</button></form>' : '<p class="muted small">Register to chat.</p>'}
      </section>
    </div>`;

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
      app.toast(`Paired with ${m.opponent ? m.opponent.username : 'an opponent'}.`);
      app.go(`#/game/${m.game}`);
      return;
    }
    const waiting = m.state === 'waiting';
    qmSince = waiting ? m.since : null;
    qmCancel.hidden = !waiting;
    qmGo.disabled = waiting;
    qmStatus.textContent = waiting ? 'Looking for an opponent…' : (m.state === 'failed' || m.state === 'withdrawn') ? m.message : '';
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
      app.toast('Choose at least one board size.', 'error');
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
    if (qmSince) qmStatus.textContent = `Looking for an opponent… ${Math.round((Date.now() - qmSince) / 1000)} s`;
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
    const terms = { size: Number(f.get('size')), rules: f.get('rules'), take_back: f.get('take_back') === 'on', estimate: f.get('estimate') === 'on', parity: f.get('parity'), time };
    if (f.get('komi')) terms.komi = f.get('komi');
    if (f.get('handicap')) terms.handicap = Number(f.get('handicap'));
    try {
      await api.createRoom(terms);
      app.toast('Room open: waiting for a partner.');
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
      btn.textContent = `Play ${b.name} (${b.rank})`;
      btn.dataset.bot = b.name;
      btn.onclick = async () => {
        // The board, rules, colour and handicap chosen above; a handicap means playing Black.
        const f = new FormData(main.querySelector('#bot-terms'));
        const body = { size: Number(f.get('size')), rules: f.get('rules') };
        if (f.get('handicap')) {
          body.handicap = Number(f.get('handicap'));
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
      // A request waiting (perhaps from another tab), or the outcome of the one this page is
      // waiting for; an old outcome does not send the player back to an old game.
      if (match && (match.state === 'waiting' || (qmSince && match.state !== 'idle'))) showMatch(match);
      main.querySelector('#turns').innerHTML = turns.games.length
        ? turns.games.map((g) => `<li><span>vs ${esc(g.opponent)} · ${g.size}×${g.size} · move ${g.move_number + 1}${g.time_left_ms != null ? ` · ${esc(span(g.time_left_ms))} left` : ''}</span><a href="#/game/${g.game}" data-turn="${g.game}">Play</a></li>`).join('')
        : '<li class="muted">No game waits for you.</li>';
      const roomsEl = main.querySelector('#rooms');
      roomsEl.replaceChildren();
      for (const r of rooms) {
        const li = document.createElement('li');
        li.innerHTML = `<span>${esc(r.owner.username)} (${esc(r.owner.rank)}) · ${r.size}×${r.size} ${esc(r.rules)} · ${esc(timeLabel(r.time))}${r.take_back ? ' · take-backs' : ''}${r.estimate ? ' · estimates' : ''}</span>`;
        const actions = document.createElement('span');
        if (app.user && r.owner.username === app.user.username) {
          const c = document.createElement('button');
          c.textContent = 'Close';
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
          if (same) {
            const hint = document.createElement('span');
            hint.className = 'muted small';
            hint.textContent = 'Same rank: guess the owner\'s odd or even; right gives you Black.';
            actions.appendChild(hint);
          }
          for (const guess of same ? ['odd', 'even'] : [null]) {
            const j = document.createElement('button');
            j.className = 'primary';
            j.textContent = guess ? `Join, guess ${guess}` : 'Join';
            j.dataset.join = `${r.id}${guess ? `-${guess}` : ''}`;
            j.onclick = async () => {
              try {
                const res = await api.joinRoom(r.id, guess ? { guess } : {});
                if (res.game_type === 'ho_sun') app.toast(`The owner chose ${res.owner_parity}: you play ${res.game.black.username === app.user.username ? 'Black' : 'White'}.`);
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
      if (!rooms.length) roomsEl.innerHTML = '<li class="muted">No open rooms. Open one!</li>';
      const liveEl = main.querySelector('#live');
      liveEl.innerHTML = games.length
        ? games.map((g) => `<li><span>${esc(g.black)} – ${esc(g.white)} · ${g.terms.size}×${g.terms.size}</span><a href="#/game/${g.id}">${app.user && (g.black === app.user.username || g.white === app.user.username) ? 'Play' : 'Watch'}</a></li>`).join('')
        : '<li class="muted">No game is being played.</li>';
      // Friends, online first, each with a dot.
      const friendsEl = main.querySelector('#friends');
      if (friendsEl) {
        const sorted = [...friends].sort((a, b) => Number(b.online) - Number(a.online));
        friendsEl.innerHTML = sorted.map((f) => `<li data-friend="${esc(f.name)}" data-online="${f.online}"><span><span class="dot ${f.online ? 'on' : 'off'}" title="${f.online ? 'online' : 'offline'}">●</span> <a href="#/user/${encodeURIComponent(f.name)}">${esc(f.name)}</a></span><a href="#/messages/${encodeURIComponent(f.name)}">Message</a></li>`).join('') || '<li class="muted">No friends yet: add them from their pages.</li>';
      }
      main.querySelector('#online').innerHTML = users.map((u) => `<li><a href="#/user/${encodeURIComponent(u.username)}">${esc(u.username)}</a><span class="muted">${esc(u.rank)}</span></li>`).join('') || '<li class="muted">Nobody yet.</li>';
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
      app.toast(answer === 'granted' ? 'You will be notified when it is your turn.' : 'Notifications stay off.');
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
    li.append(who, `: ${l.text}`);
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
