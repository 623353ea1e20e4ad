// Learning to play (issue 43): the lessons' list (#/learn), a lesson a step at a time
// (#/learn/ID/N), and the welcome a first visit gets (#/ before any login form). The lessons
// come from the server (SGF files under learn/lessons), which also judges every try with the
// rules engine: this page draws the position it is sent and words the verdict. No account is
// needed; progress stays in this browser.

import * as api from './api.js';
import { createBoard } from './board.js';
import { gridFromRows, parseVertex } from './go.js';
import { t, language } from './i18n.js';
import { esc } from './html.js';

const PROGRESS = 'tengen.learn';

/** { done: { lessonId: [step indexes solved] }, wins: { size: First Capture games won } }. */
export function progress() {
  try {
    const p = JSON.parse(localStorage.getItem(PROGRESS) || '{}');
    return { done: p.done || {}, wins: p.wins || {} };
  } catch {
    return { done: {}, wins: {} };
  }
}

function save(p) {
  try {
    localStorage.setItem(PROGRESS, JSON.stringify(p));
  } catch {
    // A private window may refuse storage: progress then lasts for this visit only.
  }
}

const PUZZLES = 'tengen.puzzles';

/** { rating: { rating, deviation, volatility } | null, seen: [ids], tries: n }. */
export function puzzleProgress() {
  try {
    const p = JSON.parse(localStorage.getItem(PUZZLES) || '{}');
    return { rating: p.rating || null, seen: p.seen || [], tries: p.tries || 0 };
  } catch {
    return { rating: null, seen: [], tries: 0 };
  }
}

export function savePuzzleProgress(p) {
  try {
    localStorage.setItem(PUZZLES, JSON.stringify(p));
  } catch {
    // As for the lessons: this visit only.
  }
}

/**
 * Once logged in, what this browser kept is merged into the account (steps solved anywhere
 * stay solved; the account's puzzle rating wins), and the browser keeps the account's copy.
 */
export async function syncWithAccount(app) {
  if (!app.user) return;
  try {
    const r = await api.mergeLearning({ lessons: progress(), rating: puzzleProgress().rating });
    save({ done: r.lessons.done || {}, wins: r.lessons.wins || {} });
    if (r.rating) savePuzzleProgress({ ...puzzleProgress(), rating: r.rating });
  } catch {
    // The browser's copy still works; the next page tries again.
  }
}

function solved(id, step) {
  const p = progress();
  const done = new Set(p.done[id] || []);
  done.add(step);
  p.done[id] = [...done].sort((a, b) => a - b);
  save(p);
}

/** A lesson text ({ en, ko, ja, zh }) in the reader's language. */
const words = (text) => (text ? text[language()] || text.en : '');

/** The welcome a visitor who is not logged in gets at #/: three ways in, then the forms. */
export async function welcomePage(view, app) {
  view.innerHTML = `
    <section class="panel stack welcome">
      <h1>${t('welcome.title')}</h1>
      <p>${t('welcome.lead')}</p>
      <div class="ways">
        <a class="way primary" href="#/learn" data-testid="way-learn"><strong>${t('welcome.learn')}</strong><span>${t('welcome.learn_note')}</span></a>
        <button class="way" type="button" id="way-bot" data-testid="way-bot"><strong>${t('welcome.bot')}</strong><span>${t('welcome.bot_note')}</span></button>
        <button class="way" type="button" id="way-watch" data-testid="way-watch"><strong>${t('welcome.watch')}</strong><span>${t('welcome.watch_note')}</span></button>
      </div>
      <p class="muted">${t('welcome.have_account')} <a href="#/login">${t('welcome.log_in')}</a></p>
    </section>`;
  view.querySelector('#way-bot').onclick = () => playFirstGame(app);
  view.querySelector('#way-watch').onclick = async () => {
    try {
      await asGuest(app);
      const live = (await api.liveGames()).games || [];
      if (live.length) app.go(`#/game/${live[0].id}`);
      else {
        app.toast(t('welcome.no_live'));
        app.go('#/');
      }
    } catch (e) {
      app.error(e);
    }
  };
  return null;
}

/** Logs in as a guest unless someone is logged in. */
async function asGuest(app) {
  if (app.user) return;
  await api.guest();
  await app.refreshUser();
}

/** A 9x9 game of regular Go against the weakest built-in bot, the learner Black. */
async function playFirstGame(app) {
  try {
    await asGuest(app);
    const r = await api.playBot('tengen-bot', { size: 9, rules: 'japanese', color: 'black' });
    app.go(`#/game/${r.game_id}`);
  } catch (e) {
    app.error(e);
  }
}

/** #/learn: every lesson with how far the learner got. */
export async function learnPage(view, app) {
  await syncWithAccount(app);
  const { lessons } = await api.lessons();
  const p = progress();
  const next = lessons.find((l) => (p.done[l.id] || []).length < l.steps);
  view.innerHTML = `
    <section class="panel stack learn-index">
      <h1>${t('learn.title')}</h1>
      <p>${t('learn.lead')}</p>
      ${next ? `<a class="button primary" href="#/learn/${esc(next.id)}/${firstOpen(p, next)}" data-testid="learn-continue">${t('learn.continue')}</a>` : `<p data-testid="learn-all-done">${t('learn.all_done')}</p>`}
      <p class="row"><a class="button" href="#/puzzles" data-testid="puzzles-link">${t('puzzles.link')}</a> <a class="button" href="#/rules" data-testid="rules-link">${t('rulespage.link')}</a></p>
      <ol class="lessons" data-testid="lessons">
        ${lessons.map((l) => {
          const n = (p.done[l.id] || []).length;
          return `<li><a href="#/learn/${esc(l.id)}/0">${esc(words(l.title))}</a> <span class="muted small">${t('learn.steps_done', { done: Math.min(n, l.steps), steps: l.steps })}</span></li>`;
        }).join('')}
      </ol>
    </section>`;
  return null;
}

function firstOpen(p, lesson) {
  const done = new Set(p.done[lesson.id] || []);
  for (let i = 0; i < lesson.steps; i++) if (!done.has(i)) return i;
  return 0;
}

/** #/learn/ID/N: step N of a lesson. */
export async function lessonPage(view, app, id, index) {
  const [lesson, { lessons }] = await Promise.all([api.lesson(id), api.lessons()]);
  const n = Math.min(Math.max(0, index || 0), lesson.steps.length - 1);
  const step = lesson.steps[n];
  const after = nextPlace(lessons, lesson, n);
  view.innerHTML = `
    <section class="lesson">
      <div class="board-wrap" id="lesson-board"></div>
      <div class="panel stack lesson-side">
        <p class="muted small"><a href="#/learn">${t('learn.title')}</a> · ${t('learn.step_of', { n: n + 1, steps: lesson.steps.length })}</p>
        <h1>${esc(words(lesson.title))}</h1>
        <p class="prompt" data-testid="prompt">${esc(words(step.prompt))}</p>
        <p class="feedback" role="status" aria-live="polite" data-testid="feedback"></p>
        <div class="stack" id="step-tools"></div>
        <div class="row">
          <button type="button" id="again" hidden>${t('learn.again')}</button>
          <a class="button primary" id="next" hidden href="${after}" data-testid="next">${t('learn.next')}</a>
        </div>
      </div>
    </section>`;
  const feedback = view.querySelector('[data-testid=feedback]');
  const say = (text, kind) => {
    feedback.textContent = text;
    feedback.className = `feedback ${kind || ''}`;
  };
  const done = () => {
    solved(id, n);
    view.querySelector('#next').hidden = false;
    view.querySelector('#again').hidden = true;
  };
  const ctx = { view, app, step, lessonId: id, index: n, say, done };
  if (step.goal === 'win') return firstCaptureGame(ctx);
  if (step.goal === 'play') return realGame(ctx);
  if (step.goal === 'count') return countStep(ctx);
  return moveStep(ctx);
}

/** Where "next" leads: the next step, the next lesson's first, or the list. */
function nextPlace(lessons, lesson, n) {
  if (n + 1 < lesson.steps.length) return `#/learn/${lesson.id}/${n + 1}`;
  const i = lessons.findIndex((l) => l.id === lesson.id);
  return lessons[i + 1] ? `#/learn/${lessons[i + 1].id}/0` : '#/learn';
}

/** The board of a step, drawn from the server's rows with the step's marks. */
function stepBoard(ctx, onPlay) {
  const { step } = ctx;
  const board = createBoard(ctx.view.querySelector('#lesson-board'), step.size, { onPlay });
  const marks = step.marks.map((m) => ({ ...parseVertex(step.size, m.point), kind: m.kind, label: m.label }));
  return {
    draw(rows, last, showMarks = true) {
      const lastAt = last ? parseVertex(step.size, last) : null;
      board.render({ grid: gridFromRows(rows), last: lastAt, marks: showMarks ? marks : [] });
    },
  };
}

/** A step answered by moves: each try goes to the server, which judges it with the rules. */
function moveStep(ctx) {
  const { step, view, say, done } = ctx;
  let path = [];
  let waiting = false; // a try is out, or a wrong one waits for "try again"
  const again = view.querySelector('#again');
  const reset = () => {
    path = [];
    waiting = false;
    again.hidden = true;
    say('');
    b.draw(step.board, step.last);
  };
  const b = stepBoard(ctx, async (v) => {
    if (waiting) return;
    waiting = true;
    try {
      const r = await api.tryStep(ctx.lessonId, ctx.index, { moves: [...path, v] });
      verdict(r, v);
    } catch (e) {
      ctx.app.error(e);
      waiting = false;
    }
  });
  function verdict(r, v) {
    if (r.outcome === 'illegal') {
      say(`${t('learn.refused')} ${t(`learn.why.${r.refused}`)}`, 'wrong');
      waiting = false;
      return;
    }
    b.draw(r.board, r.reply || v, r.outcome !== 'solved');
    if (r.outcome === 'solved') {
      say(`${t('learn.right')} ${words(r.says)}`.trim(), 'right');
      done();
    } else if (r.outcome === 'continue') {
      path.push(v);
      say(`${t('learn.right')} ${words(r.says)} ${words(r.next)}`.trim(), 'right');
      waiting = false;
    } else {
      say(`${t('learn.wrong')} ${r.says ? words(r.says) : missWords(r.miss)}`.trim(), 'wrong');
      again.hidden = false;
    }
  }
  again.onclick = reset;
  reset();
  return null;
}

function missWords(miss) {
  if (!miss) return '';
  return t(`learn.miss.${miss.code}`, { liberties: miss.liberties ?? 0 });
}

/** A counting step: the learner gives the result; the server counts with the rules. */
function countStep(ctx) {
  const { step, view, say, done } = ctx;
  const b = stepBoard(ctx, () => {});
  b.draw(step.board, null);
  const tools = view.querySelector('#step-tools');
  tools.innerHTML = `
    <p class="muted small">${t('learn.count_rules', { komi: step.komi, black: step.prisoners.black, white: step.prisoners.white })}</p>
    <form class="row" id="count-form">
      <label>${t('learn.winner')} <select name="winner"><option value="B">${t('color.black')}</option><option value="W">${t('color.white')}</option></select></label>
      <label>${t('learn.by')} <input name="margin" type="number" min="0" step="0.5" required inputmode="decimal" size="5"></label>
      <button class="primary" type="submit">${t('learn.check')}</button>
    </form>
    <p class="small" id="count-why" data-testid="count-why"></p>`;
  tools.querySelector('#count-form').onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    try {
      const r = await api.tryStep(ctx.lessonId, ctx.index, { count: `${f.get('winner')}+${Number(f.get('margin'))}` });
      const side = (s) => t('learn.count_side', { territory: s.territory, stones: s.stones, prisoners: s.prisoners, total: s.total });
      tools.querySelector('#count-why').textContent = `${t('color.black')}: ${side(r.black)} · ${t('color.white')}: ${side(r.white)} (${t('learn.komi', { komi: r.white.komi })})`;
      if (r.right) {
        say(t('learn.right'), 'right');
        done();
      } else say(`${t('learn.wrong')} ${t('learn.count_again')}`, 'wrong');
    } catch (err) {
      ctx.app.error(err);
    }
  };
  return null;
}

/** A First Capture game against the lessons' bot, which grows stronger with each win. */
function firstCaptureGame(ctx) {
  const { step, view, say, done } = ctx;
  const tools = view.querySelector('#step-tools');
  const level = () => Math.min(5, progress().wins[step.size] || 0);
  let moves = [];
  let over = false;
  let busy = false;
  tools.innerHTML = `<p class="muted small" data-testid="fc-level"></p><button type="button" id="new-game" hidden>${t('learn.new_game')}</button>`;
  const newGame = tools.querySelector('#new-game');
  const start = () => {
    moves = [];
    over = false;
    newGame.hidden = true;
    tools.querySelector('[data-testid=fc-level]').textContent = t('learn.bot_level', { level: level() + 1 });
    say(t('learn.your_move'));
    b.draw(step.board, null, false);
  };
  const b = stepBoard(ctx, async (v) => {
    if (over || busy) return;
    busy = true;
    try {
      const r = await api.firstCapture({ size: step.size, moves: [...moves, v], level: level() });
      moves.push(v);
      if (r.reply) moves.push(r.reply);
      b.draw(r.board, r.reply || v, false);
      if (r.winner) finish(r.winner);
      else say(t('learn.your_move'));
    } catch (e) {
      if (e.code === 'illegal_move') say(`${t('learn.refused')} ${t('learn.why.occupied')}`, 'wrong');
      else ctx.app.error(e);
    } finally {
      busy = false;
    }
  });
  function finish(winner) {
    over = true;
    newGame.hidden = false;
    if (winner === 'black') {
      const p = progress();
      p.wins[step.size] = (p.wins[step.size] || 0) + 1;
      save(p);
      say(t('learn.fc_won'), 'right');
      done();
    } else say(winner === 'white' ? t('learn.fc_lost') : t('learn.fc_draw'), 'wrong');
  }
  newGame.onclick = start;
  start();
  return null;
}

/** The last step: a real game against the weakest bot. */
function realGame(ctx) {
  const { step, view } = ctx;
  const b = stepBoard(ctx, () => {});
  b.draw(step.board, null);
  const tools = view.querySelector('#step-tools');
  tools.innerHTML = `<button class="primary" type="button" id="first-game" data-testid="first-game">${t('learn.play_first_game')}</button>`;
  tools.querySelector('#first-game').onclick = () => {
    solved(ctx.lessonId, ctx.index);
    playFirstGame(ctx.app);
  };
  return null;
}
