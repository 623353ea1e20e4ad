// The shell: who is logged in, the header, messages, the socket, and the hash router
// (#/ lobby, or the welcome before one logs in, #/login, #/learn, #/learn/ID/N, #/puzzles, #/puzzles/ID, #/rules, #/game/ID,
// #/user/NAME, #/review/ID, #/tournaments, #/tournament/ID, #/moderation, #/messages,
// #/messages/NAME).

import * as api from './api.js';
import { Socket } from './socket.js';
import { authPage } from './auth.js';
import { lobbyPage } from './lobby.js';
import { gamePage } from './game.js';
import { userPage } from './user.js';
import { reviewPage } from './review.js';
import { tournamentsPage, tournamentPage } from './tournaments.js';
import { moderationPage } from './moderation.js';
import { messagesPage } from './messages.js';
import { welcomePage, learnPage, lessonPage } from './learn.js';
import { puzzlePage } from './puzzles.js';
import { rulesPage } from './rules.js';
import { t, LANGUAGES, language, loadLanguage, setLanguage, dateTime, rankName } from './i18n.js';
import { ask } from './dialog.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const conn = document.getElementById('conn');

export const app = {
  user: null,
  socket: null,
  cleanup: null,
  /** A toast; `page` ones are about the page shown (a take-back asked in this game) and go
   * when the player moves on, so that they never show over another page. */
  toast(text, kind = 'info', page = false) {
    const el = document.createElement('div');
    el.className = `toast ${kind}`;
    el.dataset.testid = 'toast';
    if (page) el.dataset.page = 'true';
    el.textContent = text;
    document.getElementById('toasts').appendChild(el);
    setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3500);
  },
  /** A toast that links to `hash` (the your-turn notice). */
  linkToast(text, hash) {
    const el = document.createElement('div');
    el.className = 'toast info';
    el.dataset.testid = 'your-turn';
    const a = document.createElement('a');
    a.href = hash;
    a.textContent = text;
    a.style.color = 'inherit';
    el.appendChild(a);
    document.getElementById('toasts').appendChild(el);
    setTimeout(() => el.remove(), 10000);
  },
  error(e) {
    app.toast(e && e.message ? e.message : String(e), 'error');
  },
  /** Whether the logged-in account may use the moderators' page and tools. */
  moderates() {
    return !!app.user && (app.user.role === 'moderator' || app.user.role === 'admin');
  },
  /** Asks why, then reports `user` (in `game`, for chat line `chat`, or for private message
   * `message`) to the moderators. */
  async report(user, game, chat, message) {
    const reason = await ask(t('report.why', { user }), { input: true, ok: t('dialog.report') });
    if (!reason) return;
    try {
      await api.report({ user, game: game ?? undefined, chat: chat ?? undefined, message: message ?? undefined, reason });
      app.toast(t('report.done'));
    } catch (e) {
      app.error(e);
    }
  },
  go(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  async refreshUser() {
    try {
      app.user = (await api.session()).user;
    } catch {
      app.user = null;
    }
    renderNav();
  },
};

/** The connection's state in words (kept as data-state, so that a language change rewrites it). */
function renderConn() {
  if (!conn.dataset.state) return;
  const online = conn.dataset.state === 'online';
  conn.textContent = online ? `● ${t('conn.online')}` : `○ ${t('conn.reconnecting')}`;
  conn.classList.toggle('down', !online);
}

/**
 * On a phone the header is the logo, the menu button and the link dot: the links open under it
 * as a list of full-width rows, and close again when one is followed.
 */
const menu = document.createElement('button');
menu.id = 'menu';
menu.type = 'button';
menu.className = 'menu-toggle';
menu.setAttribute('aria-expanded', 'false');
menu.setAttribute('aria-controls', 'nav');
menu.innerHTML = '<span aria-hidden="true">☰</span>';
nav.before(menu);
function openMenu(open) {
  document.querySelector('.top').classList.toggle('open', open);
  menu.setAttribute('aria-expanded', String(open));
}
menu.onclick = () => openMenu(menu.getAttribute('aria-expanded') !== 'true');
nav.addEventListener('click', (e) => {
  if (e.target.closest('a')) openMenu(false);
});

function renderNav() {
  nav.replaceChildren();
  nav.setAttribute('aria-label', t('nav.main'));
  menu.setAttribute('aria-label', t('nav.menu'));
  document.querySelector('.logo')?.setAttribute('aria-label', t('nav.home'));
  renderConn();
  const link = (text, href) => {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    nav.appendChild(a);
  };
  link(t('nav.lobby'), '#/');
  link(t('nav.learn'), '#/learn');
  link(t('nav.tournaments'), '#/tournaments');
  if (app.user) {
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = app.user.username;
    const detail = document.createElement('span');
    detail.className = 'detail';
    detail.textContent = ` (${app.user.guest ? t('nav.guest', { rank: rankName(app.user.rank) }) : t('nav.rank_points', { rank: rankName(app.user.rank), points: app.user.points })})`;
    who.appendChild(detail);
    who.dataset.testid = 'who';
    nav.appendChild(who);
    link(t('nav.my_page'), `#/user/${encodeURIComponent(app.user.username)}`);
    if (!app.user.guest) link(t('nav.messages'), '#/messages');
    if (app.moderates()) link(t('nav.moderation'), '#/moderation');
    const out = document.createElement('button');
    out.textContent = t('nav.log_out');
    out.onclick = async () => {
      try {
        await api.logout();
      } catch (e) {
        app.error(e);
      }
      app.socket && app.socket.close();
      app.socket = null;
      app.user = null;
      renderNav();
      app.go('#/login');
    };
    nav.appendChild(out);
  } else {
    link(t('nav.log_in'), '#/login');
  }
  nav.appendChild(languageMenu());
}

/** The language menu: the current language first chosen by the browser, then the player's. */
function languageMenu() {
  const select = document.createElement('select');
  select.className = 'lang';
  select.dataset.testid = 'language';
  select.setAttribute('aria-label', t('nav.language'));
  for (const l of LANGUAGES) {
    const o = document.createElement('option');
    o.value = l.code;
    o.textContent = l.name;
    o.selected = l.code === language();
    select.appendChild(o);
  }
  // The new catalogue is fetched before anything is drawn again in it.
  select.onchange = async () => {
    try {
      await setLanguage(select.value);
    } catch (e) {
      app.error(e);
    }
    renderNav();
    route();
  };
  return select;
}

/** A browser notification, when the player allowed them and the page is not in view. */
function notify(title, hash) {
  if (!('Notification' in window) || Notification.permission !== 'granted' || !document.hidden) return;
  const n = new Notification(title, { tag: hash });
  n.onclick = () => {
    window.focus();
    app.go(hash);
    n.close();
  };
}

function ensureSocket() {
  if (app.user && !app.socket) {
    app.socket = new Socket({
      onStatus: (s) => {
        conn.dataset.state = s;
        renderConn();
      },
      onError: (m) => app.toast(m, 'error'),
      onNotice: (m) => {
        const action = ['warn', 'mute', 'suspend', 'ban', 'unban'].includes(m.action) ? m.action : 'other';
        const key = m.until && m.until < 253402300799 ? `notice.${action}_until` : `notice.${action}`;
        app.toast(t(key, { until: m.until ? dateTime(m.until * 1000) : '', reason: m.reason, action: m.action }), m.action === 'unban' ? 'info' : 'error');
        if (m.action === 'ban') {
          app.user = null;
          renderNav();
        }
      },
    });
    // A private message: a toast, unless its thread is open (that page shows it). Your turn in
    // a correspondence game: a toast with a link, unless that game is open, and a browser
    // notification when the player allowed them (the lobby's button asks) and the page is out
    // of view, the game's own page too: a correspondence game waits in a tab left open.
    app.socket.onPrivateMessage((m) => {
      if (m.type === 'your_turn') {
        const hash = `#/game/${m.game}`;
        if (location.hash !== hash) app.linkToast(t('notice.your_turn', { opponent: m.opponent }), hash);
        notify(t('notice.your_turn_against', { opponent: m.opponent }), hash);
        return;
      }
      if (m.type !== 'message' || location.hash === `#/messages/${encodeURIComponent(m.from)}`) return;
      app.toast(t('notice.message', { from: m.from, text: m.text.length > 80 ? `${m.text.slice(0, 80)}…` : m.text }));
      notify(t('notice.message_from', { from: m.from }), `#/messages/${encodeURIComponent(m.from)}`);
    });
  }
}

// Each route renders into a fresh view of its own: a page still loading when the player moves on
// finishes into its detached view, harmlessly, and is cleaned up as soon as it returns.
let routeSeq = 0;

async function route() {
  const seq = ++routeSeq;
  if (app.cleanup) {
    app.cleanup();
    app.cleanup = null;
  }
  // The old page's own toasts (a take-back asked in a game left) do not follow the player.
  for (const el of document.querySelectorAll('#toasts [data-page]')) el.remove();
  const hash = location.hash || '#/';
  const parts = hash.slice(2).split('/').map(decodeURIComponent);
  // A visitor not logged in meets the welcome's three ways in (learn, play a bot, watch)
  // before any form; the lessons need no account either.
  const welcome = !app.user && !parts[0];
  if (!app.user && !welcome && !['login', 'learn', 'puzzles', 'rules', 'user', 'review', 'tournaments', 'tournament'].includes(parts[0])) {
    app.go('#/login');
    return;
  }
  ensureSocket();
  const view = document.createElement('div');
  view.className = 'view';
  main.replaceChildren(view);
  let cleanup = null;
  try {
    if (welcome) cleanup = await welcomePage(view, app);
    else if (parts[0] === 'login') cleanup = await authPage(view, app);
    else if (parts[0] === 'learn' && parts[1]) cleanup = await lessonPage(view, app, parts[1], Number(parts[2] || 0));
    else if (parts[0] === 'learn') cleanup = await learnPage(view, app);
    else if (parts[0] === 'puzzles') cleanup = await puzzlePage(view, app, parts[1] || null);
    else if (parts[0] === 'rules') cleanup = await rulesPage(view, app, parts[1] || null);
    else if (parts[0] === 'game' && parts[1]) cleanup = await gamePage(view, app, Number(parts[1]));
    else if (parts[0] === 'user' && parts[1]) cleanup = await userPage(view, app, parts[1]);
    else if (parts[0] === 'review' && parts[1]) cleanup = await reviewPage(view, app, Number(parts[1]));
    else if (parts[0] === 'tournaments') cleanup = await tournamentsPage(view, app);
    else if (parts[0] === 'tournament' && parts[1]) cleanup = await tournamentPage(view, app, Number(parts[1]));
    else if (parts[0] === 'moderation') cleanup = await moderationPage(view, app);
    else if (parts[0] === 'messages') cleanup = await messagesPage(view, app, parts[1] || null);
    else cleanup = await lobbyPage(view, app);
  } catch (e) {
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = e.message || String(e);
    view.replaceChildren(p);
  }
  if (seq === routeSeq) app.cleanup = cleanup;
  else if (cleanup) cleanup();
}

window.addEventListener('hashchange', () => {
  openMenu(false);
  route();
});
// The chosen language's catalogue before the first word is drawn: `t` reads it synchronously.
await loadLanguage();
await app.refreshUser();
route();
