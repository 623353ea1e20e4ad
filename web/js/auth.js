// Log in, register with a declared rank, or play as a guest (18 kyu).

import * as api from './api.js';
import { t, rankName } from './i18n.js';

const RANKS = [
  ...Array.from({ length: 30 }, (_, i) => `${30 - i}k`),
  ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`),
];

export async function authPage(main, app) {
  main.innerHTML = `
    <div class="grid">
      <form class="panel stack" id="login">
        <h2>${t('auth.log_in')}</h2>
        <label>${t('auth.username')} <input name="username" autocomplete="username" required></label>
        <label>${t('auth.password')} <input name="password" type="password" autocomplete="current-password" required></label>
        <button class="primary" type="submit">${t('auth.log_in')}</button>
      </form>
      <form class="panel stack" id="register">
        <h2>${t('auth.register')}</h2>
        <label>${t('auth.username')} <input name="username" autocomplete="username" required minlength="3" maxlength="20"></label>
        <label>${t('auth.password')} <input name="password" type="password" autocomplete="new-password" required minlength="6"></label>
        <label>${t('auth.rank')} <select name="rank">${RANKS.map((r) => `<option value="${r}" ${r === '15k' ? 'selected' : ''}>${rankName(r)}</option>`).join('')}</select></label>
        <p class="muted">${t('auth.pro_ranks')}</p>
        <button class="primary" type="submit">${t('auth.register')}</button>
      </form>
      <div class="panel stack">
        <h2>${t('auth.just_play')}</h2>
        <p class="muted">${t('auth.guest_note')}</p>
        <button id="guest" type="button">${t('auth.guest')}</button>
      </div>
    </div>`;
  const done = async () => {
    await app.refreshUser();
    app.go('#/');
  };
  main.querySelector('#login').onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    try {
      await api.login(f.get('username'), f.get('password'));
      await done();
    } catch (err) {
      app.error(err);
    }
  };
  main.querySelector('#register').onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    try {
      await api.register(f.get('username'), f.get('password'), f.get('rank'));
      await done();
    } catch (err) {
      app.error(err);
    }
  };
  main.querySelector('#guest').onclick = async () => {
    try {
      await api.guest();
      await done();
    } catch (err) {
      app.error(err);
    }
  };
  return null;
}
