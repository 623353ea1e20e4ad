// Puzzles (issue 43): life and death, capturing races and tesuji mined by the engine from its
// own games (learn/puzzles). #/puzzles gives the next puzzle at the learner's Glicko-2 puzzle
// rating, #/puzzles/ID one puzzle (the lobby's puzzle of the day links there). The server
// judges every try and rates each attempt; this page keeps the rating in this browser and
// sends it with an attempt's tries; once logged in, the account keeps it (learn.js merges).

import * as api from './api.js';
import { createBoard } from './board.js';
import { gridFromRows, parseVertex } from './go.js';
import { t, language } from './i18n.js';
import { esc } from './html.js';
import { puzzleProgress, savePuzzleProgress as save, syncWithAccount } from './learn.js';

/** Ids remembered as seen, so that `next` offers others. */
const SEEN = 100;

const words = (text) => (text ? text[language()] || text.en : '');

/** The rank a rating shows, as the server's ratings show it (rank = 23.15 ln(r / 525)). */
export function rankOf(rating) {
  const level = Math.floor(23.15 * Math.log(Math.max(1, rating) / 525));
  const l = Math.min(38, Math.max(0, level));
  return l < 30 ? `${30 - l}k` : `${l - 29}d`;
}

/** The lobby's card: the puzzle of the day. */
export async function dailyCard(el) {
  try {
    const p = await api.dailyPuzzle();
    el.innerHTML = `<a class="button" href="#/puzzles/${esc(p.id)}" data-testid="daily-puzzle">${t('puzzles.daily')}: ${esc(t(`puzzles.kind.${p.kind}`))}, ${esc(p.level)}</a>`;
  } catch {
    el.hidden = true; // the lobby works without it
  }
}

/** #/puzzles (the next at the learner's level) and #/puzzles/ID. */
export async function puzzlePage(view, app, id) {
  await syncWithAccount(app);
  const mine = puzzleProgress();
  const p = id
    ? await api.puzzle(id)
    : await api.nextPuzzle({ rating: mine.rating?.rating, seen: mine.seen.join(','), turn: mine.tries });
  const step = p.step;
  view.innerHTML = `
    <section class="lesson puzzle">
      <div class="board-wrap" id="lesson-board"></div>
      <div class="panel stack lesson-side">
        <p class="muted small"><a href="#/learn">${t('learn.title')}</a> · ${t('puzzles.title')}</p>
        <h1>${esc(t(`puzzles.kind.${p.kind}`))} <span class="muted small" data-testid="puzzle-level">${t('puzzles.level', { level: esc(p.level) })}</span></h1>
        <p class="prompt" data-testid="prompt">${esc(words(step.prompt))}</p>
        <p class="feedback" role="status" aria-live="polite" data-testid="feedback"></p>
        <p class="muted small" data-testid="puzzle-rating"></p>
        <div class="row">
          <button type="button" id="again" hidden>${t('learn.again')}</button>
          <a class="button primary" id="next" href="#/puzzles" data-testid="next-puzzle">${t('puzzles.next')}</a>
        </div>
      </div>
    </section>`;
  const feedback = view.querySelector('[data-testid=feedback]');
  const say = (text, kind) => {
    feedback.textContent = text;
    feedback.className = `feedback ${kind || ''}`;
  };
  const showRating = () => {
    const r = puzzleProgress().rating;
    view.querySelector('[data-testid=puzzle-rating]').textContent = r
      ? t('puzzles.rating', { rank: rankOf(r.rating), rating: Math.round(r.rating) })
      : t('puzzles.unrated');
  };
  showRating();
  const next = view.querySelector('#next');
  // #/puzzles to #/puzzles is no hash change: draw the next one here.
  next.onclick = (e) => {
    if (location.hash === '#/puzzles') {
      e.preventDefault();
      puzzlePage(view, app);
    }
  };
  solveOnBoard({ view, app, p, say, showRating });
  return null;
}

/** The board: each try to the server; the first try of the attempt carries the rating. */
function solveOnBoard({ view, app, p, say, showRating }) {
  const step = p.step;
  const again = view.querySelector('#again');
  const marks = step.marks.map((m) => ({ ...parseVertex(step.size, m.point), kind: m.kind, label: m.label }));
  let path = [];
  let waiting = false;
  let rated = false; // this attempt has moved the rating
  const board = createBoard(view.querySelector('#lesson-board'), step.size, { onPlay: play });
  const draw = (rows, last, showMarks = true) => {
    board.render({ grid: gridFromRows(rows), last: last ? parseVertex(step.size, last) : null, marks: showMarks ? marks : [] });
  };
  const reset = () => {
    path = [];
    waiting = false;
    again.hidden = true;
    say('');
    draw(step.board, step.last);
  };
  async function play(v) {
    if (waiting) return;
    waiting = true;
    const body = { moves: [...path, v] };
    try {
      // A learner's first attempt is rated from the server's starting rating.
      if (!rated) body.rating = puzzleProgress().rating || (await api.puzzleSummary()).start;
      const r = await api.tryPuzzle(p.id, body);
      if (r.outcome !== 'illegal' && r.outcome !== 'continue' && !rated) record(r);
      verdict(r, v);
    } catch (e) {
      // A rating the server cannot use (a damaged store) is dropped: the next try starts anew.
      if (e.code === 'bad_rating') save({ ...puzzleProgress(), rating: null });
      app.error(e);
      waiting = false;
    }
  }
  function record(r) {
    rated = true;
    const mine = puzzleProgress();
    if (r.rating) mine.rating = r.rating;
    mine.seen = [p.id, ...mine.seen.filter((s) => s !== p.id)].slice(0, SEEN);
    mine.tries += 1;
    save(mine);
    showRating();
  }
  function verdict(r, v) {
    if (r.outcome === 'illegal') {
      say(`${t('learn.refused')} ${t(`learn.why.${r.refused}`)}`, 'wrong');
      waiting = false;
      return;
    }
    draw(r.board, r.reply || v, r.outcome !== 'solved');
    if (r.outcome === 'solved') say(t('puzzles.solved'), 'right');
    else if (r.outcome === 'continue') {
      path.push(v);
      say(t('puzzles.continue'), 'right');
      waiting = false;
    } else {
      say(r.reply ? t('puzzles.wrong') : t('puzzles.not_it'), 'wrong');
      again.hidden = false;
    }
  }
  again.onclick = reset;
  reset();
}
