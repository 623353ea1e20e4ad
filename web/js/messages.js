// Private messages: #/messages lists one's conversations (newest first, unread counted);
// #/messages/NAME is the thread with one player, read on opening, with a box to write in.
// New messages arrive over the socket and are added to the open thread.

import * as api from './api.js';
import { t, dateTime } from './i18n.js';
import { esc } from './html.js';

const when = (at) => dateTime(at * 1000);

export async function messagesPage(main, app, name) {
  if (name) return threadPage(main, app, name);
  const { conversations } = await api.conversations();
  main.innerHTML = `
    <section class="panel stack">
      <h1>${t('messages.title')}</h1>
      <form class="row" id="new-thread">
        <input name="to" required placeholder="${t('messages.player_name')}" aria-label="${t('messages.player_name')}">
        <button type="submit">${t('messages.write')}</button>
      </form>
      <ul class="list" data-testid="conversations">
        ${conversations.length ? conversations.map((c) => `
          <li data-with="${esc(c.with)}">
            <a href="#/messages/${encodeURIComponent(c.with)}"><strong>${esc(c.with)}</strong></a>
            ${c.unread ? `<span class="badge" data-testid="unread">${t('messages.unread', { n: c.unread })}</span>` : ''}
            <div class="small muted">${c.last.from === app.user.username ? esc(t('messages.you_prefix')) : ''}<bdi>${esc(c.last.text.slice(0, 120))}</bdi> · ${esc(when(c.last.at))}</div>
          </li>`).join('') : `<li class="muted">${t('messages.none')}</li>`}
      </ul>
    </section>`;
  main.querySelector('#new-thread').onsubmit = (e) => {
    e.preventDefault();
    const to = e.target.to.value.trim();
    if (to) app.go(`#/messages/${encodeURIComponent(to)}`);
  };
  // A message to this player: the list is out of date; read it again.
  const stop = app.socket ? app.socket.onPrivateMessage((m) => m.type === 'message' && app.go('#/messages')) : null;
  return () => stop && stop();
}

async function threadPage(main, app, name) {
  const thread = await api.thread(name);
  main.innerHTML = `
    <section class="panel stack">
      <h1>${t('messages.with')} <a href="#/user/${encodeURIComponent(thread.with)}">${esc(thread.with)}</a></h1>
      <p><a class="back" href="#/messages">${t('messages.all')}</a></p>
      <ol class="thread" data-testid="thread"></ol>
      <form class="stack" id="write">
        <textarea name="text" required maxlength="1000" rows="3" placeholder="${t('messages.placeholder')}" aria-label="${t('messages.message')}"></textarea>
        <div class="row"><button type="submit">${t('messages.send')}</button></div>
      </form>
    </section>`;
  const list = main.querySelector('.thread');
  const add = (m) => {
    const li = document.createElement('li');
    li.className = m.from === app.user.username ? 'mine' : 'theirs';
    li.dataset.id = m.id;
    const who = document.createElement('strong');
    who.textContent = `${m.from}: `;
    const text = document.createElement('bdi');
    text.className = 'text';
    text.textContent = m.text;
    const at = document.createElement('div');
    at.className = 'small muted';
    at.textContent = when(m.at);
    li.append(who, text, at);
    // Another's message may be reported to the moderators.
    if (m.from !== app.user.username) {
      const b = document.createElement('button');
      b.className = 'link small';
      b.textContent = t('game.report_line');
      b.onclick = () => app.report(m.from, null, null, m.id);
      at.append(' ', b);
    }
    list.appendChild(li);
    li.scrollIntoView({ block: 'nearest' });
  };
  thread.messages.forEach(add);
  const form = main.querySelector('#write');
  form.onsubmit = async (e) => {
    e.preventDefault();
    const text = form.text.value.trim();
    if (!text) return;
    try {
      add(await api.sendMessage(thread.with, text));
      form.text.value = '';
    } catch (err) {
      app.error(err);
    }
  };
  // Their new messages appear here (and are read: the thread is open).
  const stop = app.socket
    ? app.socket.onPrivateMessage((m) => {
        if (m.type === 'message' && m.from === thread.with) add(m);
      })
    : null;
  return () => stop && stop();
}
