// Log in, register with a declared rank, or play as a guest (18 kyu).

import * as api from './api.js';

const RANKS = [
  ...Array.from({ length: 30 }, (_, i) => `${30 - i}k`),
  ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`),
];

export async function authPage(main, app) {
  main.innerHTML = `
    <div class="grid">
      <form class="panel stack" id="login">
        <h2>Log in</h2>
        <label>Username <input name="username" autocomplete="username" required></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
        <button class="primary" type="submit">Log in</button>
      </form>
      <form class="panel stack" id="register">
        <h2>Register</h2>
        <label>Username <input name="username" autocomplete="username" required minlength="3" maxlength="20"></label>
        <label>Password <input name="password" type="password" autocomplete="new-password" required minlength="6"></label>
        <label>Your rank (a guess is fine) <select name="rank">${RANKS.map((r) => `<option ${r === '15k' ? 'selected' : ''}>${r}</option>`).join('')}</select></label>
        <p class="muted">Professional ranks are set by the server's operator.</p>
        <button class="primary" type="submit">Register</button>
      </form>
      <div class="panel stack">
        <h2>Just play</h2>
        <p class="muted">Guests play at 18 kyu and keep no promotion points.</p>
        <button id="guest" type="button">Play as a guest</button>
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
