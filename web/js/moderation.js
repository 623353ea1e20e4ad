// The moderators' page (#/moderation): the open reports with their context (the game's chat,
// the player's recent games, ratings and earlier moderation), each resolved with a note; a form
// for actions on a player (warn, mute, suspend, ban, unban) and on a game (annul); and the audit
// log. The server refuses all of it to anyone but moderators and admins (`not_moderator`).

import * as api from './api.js';
import { t, dateTime, number } from './i18n.js';
import { esc } from './html.js';

const when = (secs) => (secs ? dateTime(secs * 1000) : '');
const ACTIONS = ['warn', 'mute', 'suspend', 'ban', 'unban'];
const actionName = (a) => (ACTIONS.includes(a) ? t(`mod.action_${a}`) : a);

function reportHtml(r) {
  const c = r.context || {};
  const chat = (c.chat || [])
    .map((l) => `<li${l.seq === r.chat ? ' class="reported"' : ''}><strong>${esc(l.from)}:</strong> ${l.text ? `<bdi>${esc(l.text)}</bdi>` : `<em>${t('mod.hidden')}</em>`}</li>`)
    .join('');
  const games = (c.recent_games || []).map((g) => `<a href="#/game/${g.id}">${g.id}</a> ${esc(g.result || g.status)}`).join(', ');
  const ratings = (c.ratings || []).map((p) => number(Math.round(p.rating))).join(' → ');
  const earlier = (c.moderation || []).map((e) => `${esc(actionName(e.action))} (${when(e.at)}): <bdi>${esc(e.reason)}</bdi>`).join('<br>');
  return `<article class="panel stack" data-report="${r.id}">
    <h3>#${r.id}: <a href="#/user/${encodeURIComponent(r.user)}">${esc(r.user)}</a>, ${esc(t('mod.reported_by', { name: r.reporter, at: when(r.at) }))}</h3>
    <p><bdi>${esc(r.reason)}</bdi></p>
    ${c.game && c.game.id ? `<p>${t('mod.game')} <a href="#/game/${c.game.id}">${c.game.id}</a>: ${esc(c.game.result || c.game.status)}${c.game.annulled ? ` ${t('mod.annulled_mark')}` : ''}</p>` : ''}
    ${chat ? `<ol class="chat-log">${chat}</ol>` : ''}
    ${c.message ? `<blockquote class="reported" data-testid="reported-message"><strong>${esc(t('mod.message_from_to', { from: c.message.from, to: c.message.to }))}</strong> <bdi>${esc(c.message.text)}</bdi></blockquote>` : ''}
    <p class="small">${t('mod.recent_games')} ${games || t('mod.none')}. ${t('mod.ratings')} ${ratings || t('mod.none')}.</p>
    <p class="small">${esc(t('mod.escapes', { n: c.escapes ?? 0, jump: Math.round(c.largest_rating_jump ?? 0) }))}</p>
    ${earlier ? `<p class="small">${t('mod.earlier')} ${earlier}</p>` : ''}
    ${r.resolved_at ? `<p class="muted">${esc(t('mod.resolved_by', { name: r.resolved_by, at: when(r.resolved_at) }))} <bdi>${esc(r.note)}</bdi></p>`
      : `<form class="row resolve"><input name="note" required maxlength="1000" placeholder="${t('mod.note')}" aria-label="${t('mod.note')}"><button type="submit">${t('mod.resolve')}</button></form>`}
  </article>`;
}

export async function moderationPage(main, app) {
  if (!app.moderates()) {
    main.innerHTML = `<p class="error">${t('error.not_moderator')}</p>`;
    return null;
  }
  main.innerHTML = `
    <h2>${t('nav.moderation')}</h2>
    <section class="stack" aria-labelledby="act-h">
      <h3 id="act-h">${t('mod.act')}</h3>
      <form class="row" id="act">
        <input name="user" required placeholder="${t('mod.player')}" aria-label="${t('mod.player')}">
        <select name="action" aria-label="${t('mod.action')}">${ACTIONS.map((a) => `<option value="${a}">${actionName(a)}</option>`).join('')}</select>
        <label>${t('mod.until')} <input name="until" type="datetime-local" aria-label="${t('mod.until')}"></label>
        <input name="reason" required maxlength="1000" placeholder="${t('mod.reason_told')}" aria-label="${t('mod.reason')}">
        <button type="submit">${t('mod.do_it')}</button>
      </form>
      <form class="row" id="annul">
        <input name="game" type="number" min="1" required placeholder="${t('mod.game')}" aria-label="${t('mod.game_to_annul')}">
        <input name="reason" required maxlength="1000" placeholder="${t('mod.reason')}" aria-label="${t('mod.why_annul')}">
        <button type="submit">${t('mod.annul')}</button>
      </form>
    </section>
    <section class="stack" aria-labelledby="reports-h">
      <h3 id="reports-h">${t('mod.reports')}</h3>
      <label class="inline"><input type="checkbox" id="all"> ${t('mod.resolved_too')}</label>
      <div id="reports" class="stack"></div>
    </section>
    <section class="stack" aria-labelledby="log-h">
      <h3 id="log-h">${t('mod.log')}</h3>
      <div class="scroll-x"><table><thead><tr><th>${t('mod.when')}</th><th>${t('mod.moderator')}</th><th>${t('mod.action')}</th><th>${t('mod.player')}</th><th>${t('mod.game')}</th><th>${t('mod.until')}</th><th>${t('mod.why')}</th></tr></thead><tbody id="log"></tbody></table></div>
    </section>`;
  const q = (s) => main.querySelector(s);

  async function load() {
    try {
      const [{ reports }, { entries }] = await Promise.all([api.modReports(q('#all').checked), api.modLog()]);
      q('#reports').innerHTML = reports.map(reportHtml).join('') || `<p class="muted">${t('mod.no_reports')}</p>`;
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
        .map((e) => `<tr><td>${when(e.at)}</td><td>${esc(e.moderator)}</td><td>${esc(actionName(e.action))}</td><td>${esc(e.user)}</td><td>${e.game ?? ''}</td><td>${e.until && e.until < 253402300799 ? when(e.until) : ''}</td><td>${esc(e.reason)}</td></tr>`)
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
      app.toast(`${actionName(body.action)}: ${body.user}`);
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
      app.toast(t(r.points_recomputed ? 'mod.annulled' : 'mod.annulled_points_kept', { game: r.game }));
      e.target.reset();
      await load();
    } catch (err) {
      app.error(err);
    }
  };
  await load();
  return null;
}
