// Tournaments: the list of open, running and finished events with a form to organise one
// (#/tournaments), and an event's page (#/tournament/ID): its terms, players, each round's
// pairings linked to the games, the standings (live over the WebSocket), a bracket for a
// knockout, registration, and the organiser's controls.

import * as api from './api.js';

const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz'];
const SYSTEMS = { mcmahon: 'McMahon', swiss: 'Swiss', round_robin: 'Round robin', knockout: 'Knockout', ladder: 'Ladder' };
const STATUS = { open: 'Registering', running: 'Running', finished: 'Finished' };

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function when(secs) {
  return secs ? new Date(secs * 1000).toLocaleString() : 'when the organiser starts it';
}

/** The list of events and the form to organise one. */
export async function tournamentsPage(view, app) {
  view.innerHTML = `
    <div class="grid">
      <section class="panel stack" aria-labelledby="t-list-h">
        <h2 id="t-list-h">Tournaments</h2>
        <div id="t-lists"></div>
      </section>
      <form class="panel stack" id="t-create" aria-labelledby="t-create-h">
        <h2 id="t-create-h">Organise a tournament</h2>
        <label>Name <input name="name" required maxlength="80"></label>
        <div class="row">
          <label>System <select name="system">${Object.entries(SYSTEMS).map(([k, v]) => `<option value="${k}">${v}</option>`).join('')}</select></label>
          <label data-for="rounds">Rounds <input name="rounds" type="number" min="1" max="20" value="4" size="3"></label>
          <label data-for="ladder">Reach <input name="reach" type="number" min="1" max="20" value="3" size="3" title="places above oneself one may challenge"></label>
          <label>Board <select name="size"><option>19</option><option>13</option><option>9</option></select></label>
          <label>Rules <select name="rules">${RULES.map((r) => `<option>${r}</option>`).join('')}</select></label>
        </div>
        <div class="row" data-for="mcmahon">
          <label>Bar <input name="bar" value="3d" size="4"></label>
          <label>Floor <input name="floor" value="20k" size="4"></label>
          <label>Handicap less <select name="handicap_reduction"><option value="">no handicap</option>${[0, 1, 2, 3].map((n) => `<option>${n}</option>`).join('')}</select></label>
        </div>
        <div class="row">
          <label>Main time (min) <input name="main" type="number" min="1" max="180" value="20" size="4"></label>
          <label>Byo-yomi periods <input name="periods" type="number" min="0" max="10" value="3" size="3"></label>
          <label>Seconds each <input name="period" type="number" min="5" max="120" value="30" size="4"></label>
        </div>
        <div class="row">
          <label>Players at most <input name="max_players" type="number" min="2" max="512" value="64" size="4"></label>
          <label>Starts <input name="starts_at" type="datetime-local"></label>
          <label class="inline"><input type="checkbox" name="rated" checked> Rated</label>
        </div>
        <div class="row"><button class="primary" type="submit">Create</button></div>
      </form>
    </div>`;
  const form = view.querySelector('#t-create');
  const showFields = () => {
    const system = form.system.value;
    form.querySelector('[data-for="mcmahon"]').hidden = system !== 'mcmahon';
    form.querySelector('[data-for="rounds"]').hidden = ['round_robin', 'knockout', 'ladder'].includes(system);
    form.querySelector('[data-for="ladder"]').hidden = system !== 'ladder';
  };
  form.system.onchange = showFields;
  showFields();
  form.onsubmit = async (e) => {
    e.preventDefault();
    const f = form;
    const terms = {
      name: f.name.value.trim(),
      system: f.system.value,
      rounds: Number(f.rounds.value),
      size: Number(f.size.value),
      rules: f.rules.value,
      max_players: Number(f.max_players.value),
      rated: f.rated.checked,
      time: { system: 'byoyomi', main_ms: Number(f.main.value) * 60000, periods: Number(f.periods.value), period_ms: Number(f.period.value) * 1000 },
    };
    if (terms.system === 'mcmahon') {
      terms.bar = f.bar.value.trim();
      terms.floor = f.floor.value.trim();
      if (f.handicap_reduction.value !== '') terms.handicap_reduction = Number(f.handicap_reduction.value);
    }
    if (terms.system === 'ladder') terms.reach = Number(f.reach.value);
    if (f.starts_at.value) terms.starts_at = Math.floor(new Date(f.starts_at.value).getTime() / 1000);
    try {
      const { id } = await api.createTournament(terms);
      app.go(`#/tournament/${id}`);
    } catch (err) {
      app.error(err);
    }
  };
  const lists = view.querySelector('#t-lists');
  const all = (await api.tournaments()).tournaments;
  lists.innerHTML = ['open', 'running', 'finished'].map((status) => {
    const rows = all.filter((t) => t.status === status);
    return `<h3>${STATUS[status]}</h3>${rows.length ? `<ul class="list" data-testid="t-${status}">${rows.map((t) =>
      `<li><a href="#/tournament/${t.id}">${esc(t.name)}</a> <span class="muted">${SYSTEMS[t.system] || esc(t.system)}, ${t.size}×${t.size}${status === 'running' ? `, round ${t.round}` : ''}</span></li>`).join('')}</ul>` : '<p class="muted">None.</p>'}`;
  }).join('');
  return null;
}

function pairingsHtml(t) {
  if (!t.pairings.length) return `<p class="muted">${t.terms.system === 'ladder' ? 'No challenge yet.' : 'Not paired yet.'}</p>`;
  return t.pairings.slice().reverse().map((r) => `
    <h3>${t.terms.system === 'ladder' ? 'Challenge' : 'Round'} ${r.round}</h3>
    <table class="score-table pairings"><thead><tr><th>Board</th><th>White</th><th>Black</th><th>Handicap</th><th>Result</th></tr></thead><tbody>
    ${r.boards.map((b) => b.bye
      ? `<tr><td>${b.board}</td><td>${esc(b.white)}</td><td colspan="2" class="muted">bye</td><td>1 point</td></tr>`
      : `<tr><td>${b.board}</td><td>${esc(b.white)}</td><td>${esc(b.black)}</td><td>${b.handicap || ''}</td><td><a href="#/game/${b.game_id}">${esc(b.result || 'playing')}</a></td></tr>`).join('')}
    </tbody></table>`).join('');
}

function standingsHtml(t, app) {
  const s = t.standings;
  if (!s.lines.length) return '<p class="muted">After the first round.</p>';
  // On a running ladder, the players one may challenge get a button.
  const me = app.user && app.user.username;
  const mine = s.lines.findIndex((l) => l.name === me);
  const canChallenge = (i) => t.terms.system === 'ladder' && t.status === 'running' && mine > i && mine - i <= t.terms.reach;
  return `<table class="score-table standings" data-testid="standings"><thead><tr><th>Place</th><th>Player</th><th>Rank</th>${s.criteria.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>
    ${s.lines.map((l, i) => `<tr><td>${l.tied ? '' : l.place}</td><td><a href="#/user/${encodeURIComponent(l.name)}">${esc(l.name)}</a></td><td>${esc(l.rank)}</td>${l.values.map((v) => `<td>${esc(v)}</td>`).join('')}${canChallenge(i) ? `<td><button data-challenge="${esc(l.name)}">Challenge</button></td>` : ''}</tr>`).join('')}
    </tbody></table>`;
}

/** A knockout's bracket: a column a round, a box a game, winners in bold. */
function bracketHtml(t) {
  if (t.terms.system !== 'knockout' || !t.pairings.length) return '';
  const cols = t.pairings.map((r) => `<div class="bracket-round"><h4>Round ${r.round}</h4>${r.boards.map((b) => {
    const won = (side) => b.result && ((side === 'white' && b.result.startsWith('W')) || (side === 'black' && b.result.startsWith('B')));
    return b.bye ? `<div class="bracket-game"><b>${esc(b.white)}</b><span class="muted">bye</span></div>`
      : `<div class="bracket-game">${won('white') ? `<b>${esc(b.white)}</b>` : esc(b.white)}${won('black') ? `<b>${esc(b.black)}</b>` : `<span>${esc(b.black)}</span>`}</div>`;
  }).join('')}</div>`).join('');
  return `<section class="panel stack"><h2>Bracket</h2><div class="bracket">${cols}</div></section>`;
}

function controlsHtml(t, app) {
  const me = app.user && app.user.username;
  const registered = t.players.some((p) => p.name === me && p.withdrawn_after == null);
  const parts = [];
  const joinable = t.status === 'open' || (t.terms.system === 'ladder' && t.status === 'running');
  if (joinable && !registered) parts.push('<button class="primary" data-act="register">Register</button>');
  if (t.status !== 'finished' && registered) parts.push('<button data-act="withdraw">Withdraw</button>');
  if (me && me === t.organiser && t.status === 'open') parts.push('<button data-act="start">Start now</button>');
  if (me && me === t.organiser && t.status === 'running' && t.terms.system === 'ladder') parts.push('<button data-act="finish">Close the ladder</button>');
  parts.push(`<a href="/api/tournaments/${t.id}/h9" download>Results (h9)</a>`);
  const fix = me && me === t.organiser && t.round > 0 ? `
    <form class="row" id="t-fix"><label>Round <input name="round" type="number" min="1" value="${t.round}" size="3"></label>
      <label>Board <input name="board" type="number" min="1" value="1" size="3"></label>
      <label>Result <select name="result"><option>B+</option><option>W+</option><option value="0">jigo</option><option>Void</option><option>B+F</option><option>W+F</option></select></label>
      <label>Reason <input name="reason" required></label><button type="submit">Correct</button></form>` : '';
  return `<div class="row">${parts.join('')}</div>${fix}`;
}

function render(view, t, app) {
  view.innerHTML = `
    <section class="panel stack" aria-labelledby="t-h">
      <h2 id="t-h">${esc(t.name)}</h2>
      <p data-testid="t-status"><b>${STATUS[t.status]}</b>${t.status === 'running' ? `, round ${t.round} of ${t.rounds}` : ''}. ${SYSTEMS[t.terms.system]}, ${t.terms.size}×${t.terms.size}, ${esc(t.terms.rules)} rules, ${t.terms.rated ? 'rated' : 'unrated'}, organised by ${esc(t.organiser)}. ${t.status === 'open' ? `Starts ${esc(when(t.terms.starts_at))}.` : ''}</p>
      ${controlsHtml(t, app)}
      ${t.log && t.log.length ? `<details><summary>Organiser's corrections (${t.log.length})</summary><ul class="list">${t.log.map((l) => `<li>${esc(new Date(l.at * 1000).toLocaleString())}, ${esc(l.by)}: ${esc(l.detail)}</li>`).join('')}</ul></details>` : ''}
    </section>
    <div class="grid spaced">
      <section class="panel stack"><h2>${t.terms.system === 'ladder' ? 'Ladder' : 'Standings'}</h2>${standingsHtml(t, app)}</section>
      <section class="panel stack"><h2>Pairings</h2>${pairingsHtml(t)}</section>
      <section class="panel stack"><h2>Players (${t.players.length})</h2><ul class="list">${t.players.map((p) => `<li>${esc(p.name)} <span class="muted">${esc(p.rank)}${p.withdrawn_after != null ? ', withdrawn' : ''}</span></li>`).join('')}</ul></section>
    </div>
    ${bracketHtml(t)}`;
  const act = { register: api.registerTournament, withdraw: api.withdrawTournament, start: api.startTournament, finish: api.finishLadder };
  for (const b of view.querySelectorAll('button[data-challenge]')) {
    b.onclick = async () => {
      try {
        const { game_id } = await api.challenge(t.id, b.dataset.challenge);
        app.go(`#/game/${game_id}`);
      } catch (e) {
        app.error(e);
      }
    };
  }
  for (const b of view.querySelectorAll('button[data-act]')) {
    b.onclick = async () => {
      try {
        await act[b.dataset.act](t.id);
        render(view, await api.tournament(t.id), app);
      } catch (e) {
        app.error(e);
      }
    };
  }
  const fix = view.querySelector('#t-fix');
  if (fix) {
    fix.onsubmit = async (e) => {
      e.preventDefault();
      try {
        await api.correctResult(t.id, { round: Number(fix.round.value), board: Number(fix.board.value), result: fix.result.value, reason: fix.reason.value });
        render(view, await api.tournament(t.id), app);
      } catch (err) {
        app.error(err);
      }
    };
  }
}

/** One event's page, kept up to date over the WebSocket. */
export async function tournamentPage(view, app, id) {
  render(view, await api.tournament(id), app);
  if (!app.socket) return null;
  // (Not while the organiser is typing a correction: the next change brings it anyway.)
  app.socket.watchTournament(id, (t) => {
    if (!view.querySelector('#t-fix')?.contains(document.activeElement)) render(view, t, app);
  });
  return () => app.socket && app.socket.unwatchTournament(id);
}
