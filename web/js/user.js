// A player's page: rank, promotion points, and their games with SGF links.

import * as api from './api.js';

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

export async function userPage(main, app, name) {
  const { user, games } = await api.userGames(name);
  main.innerHTML = `
    <section class="panel stack">
      <h1>${esc(user.username)}</h1>
      <p data-testid="standing">Rank <strong>${esc(user.rank)}</strong>${user.guest ? ' · guest' : user.bot ? ' · bot' : ` · <strong>${user.points}</strong> promotion points (100 promotes, 0 demotes)`}</p>
      <h2>Games</h2>
      <div class="scroll-x"><table>
        <thead><tr><th>Black</th><th>White</th><th>Board</th><th>Result</th><th></th></tr></thead>
        <tbody>${games.map((g) => `<tr><td>${esc(g.black)}</td><td>${esc(g.white)}</td><td>${g.terms.size}×${g.terms.size} ${esc(g.terms.rules)}</td><td>${g.result ? esc(g.result) : `<a href="#/game/${g.id}">live</a>`}</td><td><a href="#/game/${g.id}">view</a> · <a href="${g.sgf}" download>SGF</a></td></tr>`).join('') || '<tr><td colspan="5" class="muted">No games yet.</td></tr>'}</tbody>
      </table></div>
    </section>`;
  return null;
}
