// Tournaments: the list of open, running and finished events with a form to organise one
// (#/tournaments), and an event's page (#/tournament/ID): its terms, players, each round's
// pairings linked to the games, the standings (live over the WebSocket), a bracket for a
// knockout, registration, and the organiser's controls.

import * as api from './api.js';
import { t, rankName, dateTime } from './i18n.js';
import { rulesName } from './game.js';
import { esc } from './html.js';

const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz'];
const SYSTEMS = ['mcmahon', 'swiss', 'round_robin', 'knockout', 'ladder'];
const systemName = (s) => (SYSTEMS.includes(s) ? t(`tour.system_${s}`) : s);
const statusName = (s) => t(`tour.status_${s}`);

function when(secs) {
  return secs ? dateTime(secs * 1000) : t('tour.when_organiser');
}

/** The list of events and the form to organise one. */
export async function tournamentsPage(view, app) {
  view.innerHTML = `
    <div class="grid">
      <section class="panel stack" aria-labelledby="t-list-h">
        <h2 id="t-list-h">${t('nav.tournaments')}</h2>
        <div id="t-lists"></div>
      </section>
      <form class="panel stack" id="t-create" aria-labelledby="t-create-h">
        <h2 id="t-create-h">${t('tour.organise')}</h2>
        <label>${t('tour.name')} <input name="name" required maxlength="80"></label>
        <div class="row">
          <label>${t('tour.system')} <select name="system">${SYSTEMS.map((k) => `<option value="${k}">${systemName(k)}</option>`).join('')}</select></label>
          <label data-for="rounds">${t('tour.rounds')} <input name="rounds" type="number" min="1" max="20" value="4" size="3"></label>
          <label data-for="ladder">${t('tour.reach')} <input name="reach" type="number" min="1" max="20" value="3" size="3" title="${t('tour.reach_title')}"></label>
          <label>${t('lobby.board')} <select name="size"><option>19</option><option>13</option><option>9</option></select></label>
          <label>${t('lobby.rules')} <select name="rules">${RULES.map((r) => `<option value="${r}">${rulesName(r)}</option>`).join('')}</select></label>
        </div>
        <div class="row" data-for="mcmahon">
          <label>${t('tour.bar')} <input name="bar" value="3d" size="4"></label>
          <label>${t('tour.floor')} <input name="floor" value="20k" size="4"></label>
          <label>${t('tour.handicap_less')} <select name="handicap_reduction"><option value="">${t('tour.no_handicap')}</option>${[0, 1, 2, 3].map((n) => `<option>${n}</option>`).join('')}</select></label>
        </div>
        <div class="row">
          <label>${t('tour.main_time')} <input name="main" type="number" min="1" max="180" value="20" size="4"></label>
          <label>${t('tour.periods')} <input name="periods" type="number" min="0" max="6" value="3" size="3"></label>
          <label>${t('lobby.seconds_each')} <input name="period" type="number" min="10" max="60" value="30" size="4"></label>
        </div>
        <div class="row">
          <label>${t('tour.max_players')} <input name="max_players" type="number" min="2" max="512" value="64" size="4"></label>
          <label>${t('tour.starts')} <input name="starts_at" type="datetime-local"></label>
          <label class="inline"><input type="checkbox" name="rated" checked> ${t('tour.rated')}</label>
        </div>
        <div class="row"><button class="primary" type="submit">${t('tour.create')}</button></div>
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
    const rows = all.filter((e) => e.status === status);
    return `<h3>${statusName(status)}</h3>${rows.length ? `<ul class="list" data-testid="t-${status}">${rows.map((e) =>
      `<li><a href="#/tournament/${e.id}"><bdi>${esc(e.name)}</bdi></a> <span class="muted">${esc(systemName(e.system))}, ${e.size}×${e.size}${status === 'running' ? `, ${t('tour.round_n', { n: e.round })}` : ''}</span></li>`).join('')}</ul>` : `<p class="muted">${t('tour.none')}</p>`}`;
  }).join('');
  return null;
}

function pairingsHtml(ev) {
  if (!ev.pairings.length) return `<p class="muted">${ev.terms.system === 'ladder' ? t('tour.no_challenge') : t('tour.not_paired')}</p>`;
  return ev.pairings.slice().reverse().map((r) => `
    <h3>${t(ev.terms.system === 'ladder' ? 'tour.challenge_n' : 'tour.round_n', { n: r.round })}</h3>
    <table class="score-table pairings"><thead><tr><th>${t('tour.board')}</th><th>${t('color.white')}</th><th>${t('color.black')}</th><th>${t('lobby.handicap')}</th><th>${t('user.result')}</th></tr></thead><tbody>
    ${r.boards.map((b) => b.bye
      ? `<tr><td>${b.board}</td><td>${esc(b.white)}</td><td colspan="2" class="muted">${t('tour.bye')}</td><td>${t('tour.one_point')}</td></tr>`
      : `<tr><td>${b.board}</td><td>${esc(b.white)}</td><td>${esc(b.black)}</td><td>${b.handicap || ''}</td><td><a href="#/game/${b.game_id}">${esc(b.result || t('tour.playing'))}</a>${b.correction && b.correction.board_result ? ` <span class="small muted">(${esc(t('tour.board_result', { result: b.correction.board_result }))})</span>` : ''}</td></tr>`).join('')}
    </tbody></table>`).join('');
}

function standingsHtml(ev, app) {
  const s = ev.standings;
  if (!s.lines.length) return `<p class="muted">${t('tour.after_first')}</p>`;
  // On a running ladder, the players one may challenge get a button.
  const me = app.user && app.user.username;
  const mine = s.lines.findIndex((l) => l.name === me);
  const canChallenge = (i) => ev.terms.system === 'ladder' && ev.status === 'running' && mine > i && mine - i <= ev.terms.reach;
  return `<table class="score-table standings" data-testid="standings"><thead><tr><th>${t('tour.place')}</th><th>${t('mod.player')}</th><th>${t('tour.rank')}</th>${s.criteria.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>
    ${s.lines.map((l, i) => `<tr><td>${l.tied ? '' : l.place}</td><td><a href="#/user/${encodeURIComponent(l.name)}">${esc(l.name)}</a></td><td>${esc(rankName(l.rank))}</td>${l.values.map((v) => `<td>${esc(v)}</td>`).join('')}${canChallenge(i) ? `<td><button data-challenge="${esc(l.name)}">${t('tour.challenge')}</button></td>` : ''}</tr>`).join('')}
    </tbody></table>`;
}

/** A knockout's bracket: a column a round, a box a game, winners in bold. */
function bracketHtml(ev) {
  if (ev.terms.system !== 'knockout' || !ev.pairings.length) return '';
  const cols = ev.pairings.map((r) => `<div class="bracket-round"><h4>${t('tour.round_n', { n: r.round })}</h4>${r.boards.map((b) => {
    const won = (side) => b.result && ((side === 'white' && b.result.startsWith('W')) || (side === 'black' && b.result.startsWith('B')));
    return b.bye ? `<div class="bracket-game"><b>${esc(b.white)}</b><span class="muted">${t('tour.bye')}</span></div>`
      : `<div class="bracket-game">${won('white') ? `<b>${esc(b.white)}</b>` : esc(b.white)}${won('black') ? `<b>${esc(b.black)}</b>` : `<span>${esc(b.black)}</span>`}</div>`;
  }).join('')}</div>`).join('');
  return `<section class="panel stack"><h2>${t('tour.bracket')}</h2><div class="bracket">${cols}</div></section>`;
}

function controlsHtml(ev, app) {
  const me = app.user && app.user.username;
  const registered = ev.players.some((p) => p.name === me && p.withdrawn_after == null);
  const parts = [];
  const joinable = ev.status === 'open' || (ev.terms.system === 'ladder' && ev.status === 'running');
  if (joinable && !registered) parts.push(`<button class="primary" data-act="register">${t('tour.register')}</button>`);
  if (ev.status !== 'finished' && registered) parts.push(`<button data-act="withdraw">${t('tour.withdraw')}</button>`);
  if (me && me === ev.organiser && ev.status === 'open') parts.push(`<button data-act="start">${t('tour.start')}</button>`);
  if (me && me === ev.organiser && ev.status === 'running' && ev.terms.system === 'ladder') parts.push(`<button data-act="finish">${t('tour.close_ladder')}</button>`);
  parts.push(`<a href="/api/tournaments/${ev.id}/h9" download>${t('tour.results_h9')}</a>`);
  const fix = me && me === ev.organiser && ev.round > 0 ? `
    <form class="row" id="t-fix"><label>${t('tour.round')} <input name="round" type="number" min="1" value="${ev.round}" size="3"></label>
      <label>${t('tour.board')} <input name="board" type="number" min="1" value="1" size="3"></label>
      <label>${t('user.result')} <select name="result"><option>B+</option><option>W+</option><option value="0">${t('tour.jigo')}</option><option>Void</option><option>B+F</option><option>W+F</option></select></label>
      <label>${t('mod.reason')} <input name="reason" required></label><button type="submit">${t('tour.correct')}</button></form>` : '';
  return `<div class="row">${parts.join('')}</div>${fix}`;
}

function render(view, ev, app) {
  view.innerHTML = `
    <section class="panel stack" aria-labelledby="t-h">
      <h2 id="t-h"><bdi>${esc(ev.name)}</bdi></h2>
      <p data-testid="t-status"><b>${statusName(ev.status)}</b>${ev.status === 'running' ? esc(t('tour.round_of', { n: ev.round, of: ev.rounds })) : ''}. ${esc(t('tour.summary', { system: systemName(ev.terms.system), size: `${ev.terms.size}×${ev.terms.size}`, rules: rulesName(ev.terms.rules), rated: t(ev.terms.rated ? 'tour.rated_lower' : 'tour.unrated'), organiser: ev.organiser }))} ${ev.status === 'open' ? esc(t('tour.starts_at', { when: when(ev.terms.starts_at) })) : ''}</p>
      ${controlsHtml(ev, app)}
      ${ev.log && ev.log.length ? `<details><summary>${t('tour.corrections', { n: ev.log.length })}</summary><ul class="list">${ev.log.map((l) => `<li>${esc(dateTime(l.at * 1000))}, <bdi>${esc(l.by)}</bdi>: <bdi>${esc(l.detail)}</bdi></li>`).join('')}</ul></details>` : ''}
    </section>
    <div class="grid spaced">
      <section class="panel stack"><h2>${ev.terms.system === 'ladder' ? t('tour.system_ladder') : t('tour.standings')}</h2>${standingsHtml(ev, app)}</section>
      <section class="panel stack"><h2>${t('tour.pairings')}</h2>${pairingsHtml(ev)}</section>
      <section class="panel stack"><h2>${t('tour.players', { n: ev.players.length })}</h2><ul class="list">${ev.players.map((p) => `<li><bdi>${esc(p.name)}</bdi> <span class="muted">${esc(rankName(p.rank))}${p.withdrawn_after != null ? `, ${t('tour.withdrawn')}` : ''}</span></li>`).join('')}</ul></section>
    </div>
    ${bracketHtml(ev)}`;
  const act = { register: api.registerTournament, withdraw: api.withdrawTournament, start: api.startTournament, finish: api.finishLadder };
  for (const b of view.querySelectorAll('button[data-challenge]')) {
    b.onclick = async () => {
      try {
        const { game_id } = await api.challenge(ev.id, b.dataset.challenge);
        app.go(`#/game/${game_id}`);
      } catch (e) {
        app.error(e);
      }
    };
  }
  for (const b of view.querySelectorAll('button[data-act]')) {
    b.onclick = async () => {
      try {
        await act[b.dataset.act](ev.id);
        render(view, await api.tournament(ev.id), app);
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
        await api.correctResult(ev.id, { round: Number(fix.round.value), board: Number(fix.board.value), result: fix.result.value, reason: fix.reason.value });
        render(view, await api.tournament(ev.id), app);
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
  app.socket.watchTournament(id, (ev) => {
    if (!view.querySelector('#t-fix')?.contains(document.activeElement)) render(view, ev, app);
  });
  return () => app.socket && app.socket.unwatchTournament(id);
}
