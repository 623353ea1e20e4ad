// A player's page: the seeds' rank and promotion points beside the Glicko-2 rating, its
// history as a chart, the record by board size and by how games ended, and recent games with
// links to each game and its SGF. On one's own page: a vacation for correspondence games, and
// the account itself (a new password, one's sessions, an export of one's data, deleting the
// account); on
// another's, a report to the moderators, a block, a message and adding them as a friend.

import * as api from './api.js';
import { t, tn, rankName, number, date, dateTime } from './i18n.js';
import { rulesName } from './game.js';
import { ask } from './dialog.js';
import { esc } from './html.js';

const NS = 'http://www.w3.org/2000/svg';

function svg(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** The rating history as an SVG line with its deviation band, drawn with DOM calls. */
export function ratingChart(history) {
  const W = 600, H = 200, L = 44, R = 8, T = 10, B = 22;
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': t('user.chart_label', { n: history.length }) });
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
    const tick = svg('text', { x: L - 4, y: y(r) + 4, 'text-anchor': 'end' }, chart);
    tick.textContent = number(Math.round(r));
  }
  const first = svg('text', { x: L, y: H - 6 }, chart);
  first.textContent = date(history[0].at * 1000);
  const last = svg('text', { x: W - R, y: H - 6, 'text-anchor': 'end' }, chart);
  last.textContent = date(history[history.length - 1].at * 1000);
  const upper = history.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`);
  const lower = history.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse();
  svg('polygon', { points: [...upper, ...lower].join(' '), class: 'band' }, chart);
  svg('polyline', { points: history.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '), class: 'rating', 'data-points': history.length }, chart);
  history.forEach((p, i) => {
    const d = svg('circle', { cx: x(i), cy: y(p.rating), r: 3, class: 'dot' }, chart);
    const title = svg('title', {}, d);
    title.textContent = `${t('user.chart_point', { game: p.game_id })} ${ratingText(p)}`;
  });
  return chart;
}

/** The Glicko-2 rating as what it is, a number with its deviation: "Rating 1547 ± 112". It is
 * never turned into a second rank beside the seeds' one (issue 29 item 7). */
export function ratingText(r) {
  return t('rating.label', { rating: number(Math.round(r.rating)), deviation: number(Math.round(r.deviation)) });
}

function tallyRow(label, c) {
  return `<tr><th scope="row">${esc(label)}</th><td>${number(c.wins)}</td><td>${number(c.losses)}</td><td>${number(c.draws)}</td></tr>`;
}

const ENDINGS = ['count', 'resignation', 'time', 'forfeit', 'first_capture', 'draw'];

function outcome(g, name) {
  if (!g.result) return `<a href="#/game/${g.id}">${t('user.live')}</a>`;
  const r = g.result;
  if (r === '0' || r === 'Draw') return t('user.draw');
  if (r === 'Void') return t('user.no_result');
  const mine = (r[0] === 'B' && g.black === name) || (r[0] === 'W' && g.white === name);
  return `${mine ? t('user.won') : t('user.lost')} <span class="muted">${esc(r)}</span>`;
}

/** When a game began (seconds since the epoch), in the player's language. */
function when(secs) {
  return secs ? dateTime(secs * 1000) : '';
}

export async function userPage(main, app, name) {
  const [{ user, games }, ratings, { record }] = await Promise.all([api.userGames(name), api.userRatings(name), api.userRecord(name)]);
  const own = app.user && app.user.username === user.username;
  const kind = user.guest ? 'guest' : user.bot ? 'bot' : null;
  const noGames = (cols) => `<tr><td colspan="${cols}" class="muted">${t('user.no_finished')}</td></tr>`;
  const tallyHead = `<thead><tr><th></th><th>${t('user.won')}</th><th>${t('user.lost')}</th><th>${t('user.drawn')}</th></tr></thead>`;
  const other = app.user && !own && !app.user.guest;
  main.innerHTML = `
    <section class="panel stack">
      <h1>${esc(user.username)}${kind ? ` <span class="muted small">${t(`user.${kind}`)}</span>` : ''}</h1>
      <div class="stats">
        <div class="stat" data-testid="standing"><div class="muted small">${t('user.rank')}</div><div class="big">${esc(rankName(user.rank))}</div>${user.guest || user.bot ? '' : `<div class="small">${t('user.points', { points: number(user.points) })}</div>`}</div>
        <div class="stat" data-testid="rating"><div class="muted small">${t('rating.name')}</div><div class="big" data-testid="rating-value">${esc(ratingText(user))}</div><div class="small muted">${t('rating.note')}</div></div>
        <div class="stat" data-testid="total"><div class="muted small">${t('user.record')}</div><div class="big">${record.total.wins}–${record.total.losses}${record.total.draws ? `–${record.total.draws}` : ''}</div><div class="small">${record.total.draws ? t('user.wins_losses_draws') : t('user.wins_losses')}</div></div>
      </div>
      <h2>${t('user.rating_history')}</h2>
      <div id="chart"></div>
      <p class="muted small" id="chart-note"></p>
      ${own && !user.guest ? `<form class="row" id="upload"><label>${t('user.review_sgf')} <input type="file" name="sgf" accept=".sgf,application/x-go-sgf,text/plain"></label><button type="submit">${t('user.open_review')}</button></form>` : ''}
      ${other ? `<div class="row"><button class="link" id="report-user">${esc(t('user.report', { name: user.username }))}</button><button class="link" id="block-user" hidden></button></div>
        <div class="row">${kind ? '' : `<a class="button" id="message-user" href="#/messages/${encodeURIComponent(user.username)}">${t('user.message')}</a>`}<button id="friend-user" hidden></button></div>` : ''}
      ${own && !user.guest ? `<div class="row" id="vacation"><button id="vacation-on">${t('user.vacation_on')}</button><button id="vacation-off">${t('user.vacation_off')}</button></div>` : ''}
      ${own && !user.guest ? `<details class="panel" id="account"><summary>${t('user.account')}</summary>
        <form class="row" id="password"><input type="password" name="current" required autocomplete="current-password" placeholder="${t('user.password_now')}" aria-label="${t('user.password_now')}"><input type="password" name="new" required minlength="6" maxlength="200" autocomplete="new-password" placeholder="${t('user.password_new')}" aria-label="${t('user.password_new')}"><button type="submit">${t('user.change_password')}</button></form>
        <p class="small">${t('user.password_note')}</p>
        <h3>${t('user.sessions')}</h3>
        <p class="small muted">${t('user.sessions_note')}</p>
        <ul class="list sessions" id="sessions" data-testid="sessions"></ul>
        <p><button class="danger" id="end-all-sessions">${t('user.logout_everywhere')}</button></p>
        <p><a href="/api/me/export" download="tengen-data.json">${t('user.export')}</a></p>
        <form class="row" id="delete-account"><input type="password" name="password" required autocomplete="current-password" placeholder="${t('auth.password')}" aria-label="${t('user.delete_password')}"><button type="submit" class="danger">${t('user.delete')}</button></form>
        <p class="small">${t('user.delete_note')}</p>
      </details>` : ''}
      <div class="grid">
        <div><h2>${t('user.by_board')}</h2><div class="scroll-x"><table data-testid="by-size">${tallyHead}<tbody>${Object.entries(record.by_size).map(([s, c]) => tallyRow(`${s}×${s}`, c)).join('') || noGames(4)}</tbody></table></div></div>
        <div><h2>${t('user.by_result')}</h2><div class="scroll-x"><table data-testid="by-result">${tallyHead}<tbody>${Object.entries(record.by_result).map(([k, c]) => tallyRow(ENDINGS.includes(k) ? t(`user.ending_${k}`) : k, c)).join('') || noGames(4)}</tbody></table></div></div>
      </div>
      <h2>${t('user.recent_games')}</h2>
      <div class="scroll-x" data-testid="games-scroll"><table data-testid="games">
        <thead><tr><th>${t('user.date')}</th><th>${t('color.black')}</th><th>${t('color.white')}</th><th>${t('user.board')}</th><th>${t('user.result')}</th><th></th></tr></thead>
        <tbody>${games.map((g) => `<tr><td class="nowrap" data-testid="game-date">${esc(when(g.created_at))}</td><td><a href="#/user/${encodeURIComponent(g.black)}">${esc(g.black)}</a></td><td><a href="#/user/${encodeURIComponent(g.white)}">${esc(g.white)}</a></td><td>${g.terms.size}×${g.terms.size} ${esc(rulesName(g.terms.rules))}</td><td>${outcome(g, user.username)}</td><td><a href="#/game/${g.id}">${t('user.view')}</a> · <a href="${g.sgf}" download>SGF</a>${g.result && app.user && !app.user.guest ? ` · <button class="link" data-review="${g.id}">${t('user.review')}</button>` : ''}</td></tr>`).join('') || `<tr><td colspan="6" class="muted">${t('user.no_games')}</td></tr>`}</tbody>
      </table></div>
    </section>`;
  main.querySelector('#chart').appendChild(ratingChart(ratings.history));
  main.querySelector('#chart-note').textContent = ratings.history.length
    ? tn('user.rated_games', ratings.history.length)
    : t('user.no_rated');
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
      blockUser.textContent = t(blocked ? 'user.unblock' : 'user.block', { name: user.username });
      blockUser.hidden = false;
    };
    api.blocks().then((b) => { blocked = b.blocks.includes(user.username); show(); }, app.error);
    blockUser.onclick = async () => {
      try {
        if (blocked) await api.unblock(user.username);
        else await api.block(user.username);
        blocked = !blocked;
        show();
        app.toast(t(blocked ? 'user.blocked' : 'user.unblocked', { name: user.username }));
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
      friendUser.textContent = friend ? t('user.remove_friend') : t('user.add_friend');
      friendUser.hidden = false;
    };
    api.friends().then((f) => { friend = f.friends.some((x) => x.name === user.username); show(); }, app.error);
    friendUser.onclick = async () => {
      try {
        if (friend) await api.removeFriend(user.username);
        else await api.addFriend(user.username);
        friend = !friend;
        show();
        app.toast(t(friend ? 'user.friend_added' : 'user.friend_removed', { name: user.username }));
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
        app.toast(t('user.password_changed'));
      } catch (err) {
        app.error(err);
      }
    };
    sessionsPanel(main, app);
    const del = main.querySelector('#delete-account');
    del.onsubmit = async (e) => {
      e.preventDefault();
      if (!(await ask(t('user.delete_confirm'), { danger: true }))) return;
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
        app.toast(t('user.choose_sgf'), 'error');
        return;
      }
      openReview({ sgf: await file.text() });
    };
    main.querySelector('#vacation-on').onclick = async () => {
      try {
        const r = await api.vacation(7);
        app.toast(tn('user.vacation_started', r.games.length, { until: dateTime(r.until) }));
      } catch (e) {
        app.error(e);
      }
    };
    main.querySelector('#vacation-off').onclick = async () => {
      try {
        const r = await api.endVacation();
        app.toast(tn('user.vacation_ended', r.games.length));
      } catch (e) {
        app.error(e);
      }
    };
  }
  return null;
}

/** A session's device in the reader's words: "Firefox on Android", or what is known of it. */
function deviceName(s) {
  if (s.browser && s.system) return t('user.device_on', { browser: s.browser, system: s.system });
  return s.browser || s.system || t('user.device_unknown');
}

function sessionRow(s) {
  const when = t('user.session_when', { created: dateTime(s.created_at * 1000), seen: dateTime(s.last_seen * 1000) });
  // This device is marked beside its name (it is ended by logging out, or everywhere at once).
  const mark = s.current ? ` <span class="small">(${t('user.session_current')})</span>` : '';
  const end = s.current ? '' : `<button data-end-session="${esc(s.id)}">${t('user.session_end')}</button>`;
  return `<li class="session-row" data-testid="session"><div><strong>${esc(deviceName(s))}</strong>${mark}<div class="small muted">${esc(s.address || '')} ${esc(when)}</div></div>${end}</li>`;
}

/** One's sessions in the account panel: each but this one can be ended, or all at once. */
function sessionsPanel(main, app) {
  const list = main.querySelector('#sessions');
  const show = async () => {
    try {
      const r = await api.sessions();
      list.innerHTML = r.sessions.map(sessionRow).join('');
      for (const b of list.querySelectorAll('[data-end-session]')) {
        b.onclick = async () => {
          try {
            await api.endSession(b.dataset.endSession);
            app.toast(t('user.session_ended'));
            show();
          } catch (e) {
            app.error(e);
          }
        };
      }
    } catch (e) {
      app.error(e);
    }
  };
  // Read when the account panel opens, not with every visit to one's page.
  main.querySelector('#account').addEventListener('toggle', (e) => { if (e.target.open) show(); });
  main.querySelector('#end-all-sessions').onclick = async () => {
    if (!(await ask(t('user.logout_everywhere_confirm'), { danger: true }))) return;
    try {
      await api.endAllSessions();
      app.socket && app.socket.close();
      app.socket = null;
      await app.refreshUser();
      app.go('#/login');
    } catch (e) {
      app.error(e);
    }
  };
}
