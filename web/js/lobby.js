// The lobby: open a room, play a bot, join a room, watch a live game, see who is online. It
// refreshes every few seconds.

import * as api from './api.js';

const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz', 'first-capture'];

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function timeLabel(t) {
  if (!t || t.system === 'none') return 'no clock';
  const m = (ms) => `${Math.round(ms / 60000)} min`;
  if (t.system === 'absolute') return m(t.main_ms);
  if (t.system === 'byoyomi') return t.periods ? `${m(t.main_ms)} + ${t.periods}×${t.period_ms / 1000}s` : m(t.main_ms);
  if (t.system === 'canadian') return `${m(t.main_ms)} + ${t.stones} stones / ${m(t.period_ms)}`;
  return `${m(t.main_ms)} + ${t.increment_ms / 1000}s`;
}

export async function lobbyPage(main, app) {
  main.innerHTML = `
    <div class="grid">
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
            <option value="none">no clock</option>
          </select></label>
          <label>Main (min) <input name="main" type="number" min="0" max="720" value="30" size="4"></label>
          <label>Timers / stones <input name="count" type="number" min="0" max="100" value="0" size="4"></label>
          <label>Seconds each <input name="seconds" type="number" min="0" max="3600" value="30" size="4"></label>
        </div>
        <div class="row">
          <label class="inline"><input type="checkbox" name="take_back"> Allow take-backs</label>
          <label class="inline"><input type="checkbox" name="estimate"> Players may ask for a score estimate</label>
          <label>Handicap <select name="handicap"><option value="">from the ranks</option>${[2, 3, 4, 5, 6, 7, 9, 13, 21, 25].map((n) => `<option>${n}</option>`).join('')}</select></label>
          <label>HO-SUN: your choice <select name="parity"><option>odd</option><option>even</option></select></label>
        </div>
        <button class="primary" type="submit">Open room</button>
      </form>
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
    </div>
    <div class="grid spaced">
      <section class="panel"><h2>Open rooms</h2><ul class="list" id="rooms"></ul></section>
      <section class="panel"><h2>Live games</h2><ul class="list" id="live"></ul></section>
      <section class="panel"><h2>Players online</h2><ul class="list" id="online"></ul></section>
    </div>`;

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
  async function refresh() {
    try {
      const [{ rooms }, { games }, { users }] = await Promise.all([api.rooms(), api.liveGames(), api.online()]);
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

  await refresh();
  const timer = setInterval(refresh, 3000);
  return () => {
    clearInterval(timer);
    watching.forEach(clearInterval);
  };
}
