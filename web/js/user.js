// A player's page: the seeds' rank and promotion points beside the Glicko-2 rating, its
// history as a chart, the record by board size and by how games ended, and recent games with
// links to each game and its SGF. On one's own page: a vacation for correspondence games, and
// the account itself (a new password, an export of one's data, deleting the account); on
// another's, a report to the moderators, a block, a message and adding them as a friend.

import * as api from './api.js';

const NS = 'http://www.w3.org/2000/svg';

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function svg(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** The rating history as an SVG line with its deviation band, drawn with DOM calls. */
export function ratingChart(history) {
  const W = 600, H = 200, L = 44, R = 8, T = 10, B = 22;
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': `Rating after each of ${history.length} rated games` });
  if (!history.length) return chart;
  const lo = Math.min(...history.map((p) => p.rating - p.deviation));
  const hi = Math.max(...history.map((p) => p.rating + p.deviation));
  const pad = Math.max(20, (hi - lo) * 0.05);
  const [y0, y1] = [lo - pad, hi + pad];
  const x = (i) => L + (history.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (history.length - 1));
  const y = (r) => T + ((y1 - r) * (H - T - B)) / (y1 - y0);
  svg('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' }, chart);
  svg('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis' }, chart);
  for (const r of [y0 + pad, (y0 + y1) / 2, y1 - pad]) {
    const t = svg('text', { x: L - 4, y: y(r) + 4, 'text-anchor': 'end' }, chart);
    t.textContent = Math.round(r);
  }
  const first = svg('text', { x: L, y: H - 6 }, chart);
  first.textContent = new Date(history[0].at * 1000).toLocaleDateString();
  const last = svg('text', { x: W - R, y: H - 6, 'text-anchor': 'end' }, chart);
  last.textContent = new Date(history[history.length - 1].at * 1000).toLocaleDateString();
  const upper = history.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`);
  const lower = history.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse();
  svg('polygon', { points: [...upper, ...lower].join(' '), class: 'band' }, chart);
  svg('polyline', { points: history.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '), class: 'rating', 'data-points': history.length }, chart);
  history.forEach((p, i) => {
    const d = svg('circle', { cx: x(i), cy: y(p.rating), r: 3, class: 'dot' }, chart);
    const title = svg('title', {}, d);
    title.textContent = `Game ${p.game_id}: ${Math.round(p.rating)} ± ${Math.round(p.deviation)} (${p.rank})`;
  });
  return chart;
}

function tallyRow(label, t) {
  return `<tr><th scope="row">${esc(label)}</th><td>${t.wins}</td><td>${t.losses}</td><td>${t.draws}</td></tr>`;
}

const ENDINGS = { count: 'by counting', resignation: 'by resignation', time: 'on time', forfeit: 'by forfeit', first_capture: 'by first capture', draw: 'draws' };

function outcome(g, name) {
  if (!g.result) return `<a href="#/game/${g.id}">live</a>`;
  const r = g.result;
  if (r === '0' || r === 'Draw') return 'draw';
  if (r === 'Void') return 'no result';
  const mine = (r[0] === 'B' && g.black === name) || (r[0] === 'W' && g.white === name);
  return `${mine ? 'won' : 'lost'} <span class="muted">${esc(r)}</span>`;
}

export async function userPage(main, app, name) {
  const [{ user, games }, ratings, { record }] = await Promise.all([api.userGames(name), api.userRatings(name), api.userRecord(name)]);
  const own = app.user && app.user.username === user.username;
  const kind = user.guest ? 'guest' : user.bot ? 'bot' : null;
  main.innerHTML = `
    <section class="panel stack">
      <h1>${esc(user.username)}${kind ? ` <span class="muted small">${kind}</span>` : ''}</h1>
      <div class="stats">
        <div class="stat" data-testid="standing"><div class="muted small">Rank (seed rules)</div><div class="big">${esc(user.rank)}</div>${user.guest || user.bot ? '' : `<div class="small">${user.points} promotion points (100 promotes, 0 demotes)</div>`}</div>
        <div class="stat" data-testid="rating"><div class="muted small">Rating (Glicko-2)</div><div class="big">${Math.round(user.rating)} <span class="small muted">± ${Math.round(user.deviation)}</span></div><div class="small">shows <strong>${esc(user.rating_rank)}</strong>${user.rating_rank.endsWith('?') ? ' (provisional until the deviation is under 160)' : ''}</div></div>
        <div class="stat" data-testid="total"><div class="muted small">Record</div><div class="big">${record.total.wins}–${record.total.losses}${record.total.draws ? `–${record.total.draws}` : ''}</div><div class="small">wins–losses${record.total.draws ? '–draws' : ''}</div></div>
      </div>
      <h2>Rating history</h2>
      <div id="chart"></div>
      <p class="muted small" id="chart-note"></p>
      ${own && !user.guest ? `<form class="row" id="upload"><label>Review an SGF record <input type="file" name="sgf" accept=".sgf,application/x-go-sgf,text/plain"></label><button type="submit">Open the review board</button></form>` : ''}
      ${app.user && !own && !app.user.guest ? `<div class="row"><button class="link" id="report-user">Report ${esc(user.username)} to the moderators</button><button class="link" id="block-user" hidden></button></div>
        <div class="row">${kind ? '' : `<a class="button" id="message-user" href="#/messages/${encodeURIComponent(user.username)}">Message</a>`}<button id="friend-user" hidden></button></div>` : ''}
      ${own && !user.guest ? `<div class="row" id="vacation"><button id="vacation-on">Vacation: stop my correspondence clocks for 7 days</button><button id="vacation-off">End my vacation</button></div>` : ''}
      ${own && !user.guest ? `<details class="panel" id="account"><summary>My account</summary>
        <form class="row" id="password"><input type="password" name="current" required autocomplete="current-password" placeholder="Password now" aria-label="Password now"><input type="password" name="new" required minlength="6" maxlength="200" autocomplete="new-password" placeholder="New password" aria-label="New password"><button type="submit">Change the password</button></form>
        <p class="small">Changing it logs out every other browser and device.</p>
        <p><a href="/api/me/export" download="tengen-data.json">Download my data (JSON)</a></p>
        <form class="row" id="delete-account"><input type="password" name="password" required autocomplete="current-password" placeholder="Password" aria-label="Password to delete the account"><button type="submit" class="danger">Delete my account</button></form>
        <p class="small">Your games stay, under the name deleted-N; live games are resigned.</p>
      </details>` : ''}
      <div class="grid">
        <div><h2>By board</h2><div class="scroll-x"><table data-testid="by-size"><thead><tr><th></th><th>won</th><th>lost</th><th>drawn</th></tr></thead><tbody>${Object.entries(record.by_size).map(([s, t]) => tallyRow(`${s}×${s}`, t)).join('') || '<tr><td colspan="4" class="muted">No finished games.</td></tr>'}</tbody></table></div></div>
        <div><h2>By result</h2><div class="scroll-x"><table data-testid="by-result"><thead><tr><th></th><th>won</th><th>lost</th><th>drawn</th></tr></thead><tbody>${Object.entries(record.by_result).map(([k, t]) => tallyRow(ENDINGS[k] || k, t)).join('') || '<tr><td colspan="4" class="muted">No finished games.</td></tr>'}</tbody></table></div></div>
      </div>
      <h2>Recent games</h2>
      <div class="scroll-x"><table data-testid="games">
        <thead><tr><th>Black</th><th>White</th><th>Board</th><th>Result</th><th></th></tr></thead>
        <tbody>${games.map((g) => `<tr><td><a href="#/user/${encodeURIComponent(g.black)}">${esc(g.black)}</a></td><td><a href="#/user/${encodeURIComponent(g.white)}">${esc(g.white)}</a></td><td>${g.terms.size}×${g.terms.size} ${esc(g.terms.rules)}</td><td>${outcome(g, user.username)}</td><td><a href="#/game/${g.id}">view</a> · <a href="${g.sgf}" download>SGF</a>${g.result && app.user && !app.user.guest ? ` · <button class="link" data-review="${g.id}">review</button>` : ''}</td></tr>`).join('') || '<tr><td colspan="5" class="muted">No games yet.</td></tr>'}</tbody>
      </table></div>
    </section>`;
  main.querySelector('#chart').appendChild(ratingChart(ratings.history));
  main.querySelector('#chart-note').textContent = ratings.history.length
    ? `${ratings.history.length} rated game${ratings.history.length === 1 ? '' : 's'}; the band is the deviation.`
    : 'No rated game yet: the rating is seeded from the declared rank.';
  const openReview = async (body) => {
    try {
      const r = await api.newReview(body);
      app.go(`#/review/${r.id}`);
    } catch (e) {
      app.error(e);
    }
  };
  for (const b of main.querySelectorAll('[data-review]')) b.onclick = () => openReview({ game: Number(b.dataset.review) });
  const reportUser = main.querySelector('#report-user');
  if (reportUser) reportUser.onclick = () => app.report(user.username);
  // Block or unblock: no games and no chat between the two while it lasts.
  const blockUser = main.querySelector('#block-user');
  if (blockUser) {
    let blocked = false;
    const show = () => {
      blockUser.textContent = blocked ? `Unblock ${user.username}` : `Block ${user.username}`;
      blockUser.hidden = false;
    };
    api.blocks().then((b) => { blocked = b.blocks.includes(user.username); show(); }, app.error);
    blockUser.onclick = async () => {
      try {
        if (blocked) await api.unblock(user.username);
        else await api.block(user.username);
        blocked = !blocked;
        show();
        app.toast(blocked ? `${user.username} is blocked: no games and no chat between you.` : `${user.username} is unblocked.`);
      } catch (e) {
        app.error(e);
      }
    };
  }
  // Friends: one's list in the lobby shows who of them is online.
  const friendUser = main.querySelector('#friend-user');
  if (friendUser) {
    let friend = false;
    const show = () => {
      friendUser.textContent = friend ? 'Remove friend' : 'Add friend';
      friendUser.hidden = false;
    };
    api.friends().then((f) => { friend = f.friends.some((x) => x.name === user.username); show(); }, app.error);
    friendUser.onclick = async () => {
      try {
        if (friend) await api.removeFriend(user.username);
        else await api.addFriend(user.username);
        friend = !friend;
        show();
        app.toast(friend ? `${user.username} is one of your friends.` : `${user.username} is no longer among your friends.`);
      } catch (e) {
        app.error(e);
      }
    };
  }
  const password = main.querySelector('#password');
  if (password) {
    password.onsubmit = async (e) => {
      e.preventDefault();
      try {
        await api.changePassword(password.elements.current.value, password.elements.new.value);
        password.reset();
        app.toast('Password changed; your other sessions are logged out.');
      } catch (err) {
        app.error(err);
      }
    };
    const del = main.querySelector('#delete-account');
    del.onsubmit = async (e) => {
      e.preventDefault();
      if (!window.confirm('Delete your account for good? Your games stay, under an anonymous name.')) return;
      try {
        await api.deleteAccount(del.elements.password.value);
        app.socket && app.socket.close();
        app.socket = null;
        await app.refreshUser();
        app.go('#/login');
      } catch (err) {
        app.error(err);
      }
    };
  }
  if (own && !user.guest) {
    main.querySelector('#upload').onsubmit = async (e) => {
      e.preventDefault();
      const file = new FormData(e.target).get('sgf');
      if (!file || !file.size) {
        app.toast('Choose an SGF file first.', 'error');
        return;
      }
      openReview({ sgf: await file.text() });
    };
    main.querySelector('#vacation-on').onclick = async () => {
      try {
        const r = await api.vacation(7);
        app.toast(`Vacation until ${new Date(r.until).toLocaleString()}: ${r.games.length} correspondence game(s) paused.`);
      } catch (e) {
        app.error(e);
      }
    };
    main.querySelector('#vacation-off').onclick = async () => {
      try {
        const r = await api.endVacation();
        app.toast(`Welcome back: ${r.games.length} correspondence game(s) running again.`);
      } catch (e) {
        app.error(e);
      }
    };
  }
  return null;
}
