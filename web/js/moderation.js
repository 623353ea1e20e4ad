// The moderators' page (#/moderation): the open reports with their context (the game's chat,
// the player's recent games, ratings and earlier moderation), each resolved with a note; a form
// for actions on a player (warn, mute, suspend, ban, unban) and on a game (annul); and the audit
// log. The server refuses all of it to anyone but moderators and admins (`not_moderator`).

import * as api from './api.js';

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

const when = (secs) => (secs ? new Date(secs * 1000).toLocaleString() : '');

function reportHtml(r) {
  const c = r.context || {};
  const chat = (c.chat || [])
    .map((l) => `<li${l.seq === r.chat ? ' class="reported"' : ''}><strong>${esc(l.from)}:</strong> ${esc(l.text) || '<em>hidden</em>'}</li>`)
    .join('');
  const games = (c.recent_games || []).map((g) => `<a href="#/game/${g.id}">${g.id}</a> ${esc(g.result || g.status)}`).join(', ');
  const ratings = (c.ratings || []).map((p) => Math.round(p.rating)).join(' → ');
  const earlier = (c.moderation || []).map((e) => `${esc(e.action)} (${when(e.at)}): ${esc(e.reason)}`).join('<br>');
  return `<article class="panel stack" data-report="${r.id}">
    <h3>#${r.id}: <a href="#/user/${encodeURIComponent(r.user)}">${esc(r.user)}</a>, reported by ${esc(r.reporter)} on ${when(r.at)}</h3>
    <p>${esc(r.reason)}</p>
    ${c.game && c.game.id ? `<p>Game <a href="#/game/${c.game.id}">${c.game.id}</a>: ${esc(c.game.result || c.game.status)}${c.game.annulled ? ' (annulled)' : ''}</p>` : ''}
    ${chat ? `<ol class="chat-log">${chat}</ol>` : ''}
    ${c.message ? `<blockquote class="reported" data-testid="reported-message"><strong>${esc(c.message.from)} to ${esc(c.message.to)}:</strong> ${esc(c.message.text)}</blockquote>` : ''}
    <p class="small">Recent games: ${games || 'none'}. Ratings: ${ratings || 'none'}.</p>
    <p class="small">Escapes among them: ${c.escapes ?? 0}. Largest rating jump in one game: ${Math.round(c.largest_rating_jump ?? 0)}.</p>
    ${earlier ? `<p class="small">Earlier: ${earlier}</p>` : ''}
    ${r.resolved_at ? `<p class="muted">Resolved by ${esc(r.resolved_by)} on ${when(r.resolved_at)}: ${esc(r.note)}</p>`
      : `<form class="row resolve"><input name="note" required maxlength="1000" placeholder="Note" aria-label="Note"><button type="submit">Resolve</button></form>`}
  </article>`;
}

export async function moderationPage(main, app) {
  if (!app.moderates()) {
    main.innerHTML = '<p class="error">This page is for moderators.</p>';
    return null;
  }
  main.innerHTML = `
    <h2>Moderation</h2>
    <section class="stack" aria-labelledby="act-h">
      <h3 id="act-h">Act on a player</h3>
      <form class="row" id="act">
        <input name="user" required placeholder="Player" aria-label="Player">
        <select name="action" aria-label="Action"><option>warn</option><option>mute</option><option>suspend</option><option>ban</option><option>unban</option></select>
        <label>until <input name="until" type="datetime-local" aria-label="Until"></label>
        <input name="reason" required maxlength="1000" placeholder="Reason (the player is told)" aria-label="Reason">
        <button type="submit">Do it</button>
      </form>
      <form class="row" id="annul">
        <input name="game" type="number" min="1" required placeholder="Game" aria-label="Game to annul">
        <input name="reason" required maxlength="1000" placeholder="Reason" aria-label="Why annul">
        <button type="submit">Annul the game</button>
      </form>
    </section>
    <section class="stack" aria-labelledby="reports-h">
      <h3 id="reports-h">Reports</h3>
      <label class="inline"><input type="checkbox" id="all"> Resolved ones too</label>
      <div id="reports" class="stack"></div>
    </section>
    <section class="stack" aria-labelledby="log-h">
      <h3 id="log-h">Audit log</h3>
      <table><thead><tr><th>When</th><th>Moderator</th><th>Action</th><th>Player</th><th>Game</th><th>Until</th><th>Why</th></tr></thead><tbody id="log"></tbody></table>
    </section>`;
  const q = (s) => main.querySelector(s);

  async function load() {
    try {
      const [{ reports }, { entries }] = await Promise.all([api.modReports(q('#all').checked), api.modLog()]);
      q('#reports').innerHTML = reports.map(reportHtml).join('') || '<p class="muted">No reports waiting.</p>';
      for (const f of q('#reports').querySelectorAll('form.resolve')) {
        f.onsubmit = async (e) => {
          e.preventDefault();
          const id = Number(f.closest('[data-report]').dataset.report);
          try {
            await api.modResolve(id, f.elements.note.value);
            await load();
          } catch (err) {
            app.error(err);
          }
        };
      }
      q('#log').innerHTML = entries
        .map((e) => `<tr><td>${when(e.at)}</td><td>${esc(e.moderator)}</td><td>${esc(e.action)}</td><td>${esc(e.user)}</td><td>${e.game ?? ''}</td><td>${e.until && e.until < 253402300799 ? when(e.until) : ''}</td><td>${esc(e.reason)}</td></tr>`)
        .join('');
    } catch (e) {
      app.error(e);
    }
  }

  q('#all').onchange = load;
  q('#act').onsubmit = async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const body = { user: f.user.value.trim(), action: f.action.value, reason: f.reason.value };
    if (f.until.value) body.until = Math.floor(new Date(f.until.value).getTime() / 1000);
    try {
      await api.modAct(body);
      app.toast(`${body.action}: ${body.user}`);
      e.target.reset();
      await load();
    } catch (err) {
      app.error(err);
    }
  };
  q('#annul').onsubmit = async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    try {
      const r = await api.modAnnul(Number(f.game.value), f.reason.value);
      app.toast(`Game ${r.game} annulled${r.points_recomputed ? '' : ' (promotion points left as they were)'}`);
      e.target.reset();
      await load();
    } catch (err) {
      app.error(err);
    }
  };
  await load();
  return null;
}
