// The rules page (#/rules, #/rules/NAME): every rule preset Tengen plays, in plain words built
// from its parameters as the server's rules engine holds them (GET /api/rules), with the seed
// documents it implements. On a preset's own page, the rules that need a picture (capture, ko,
// suicide, the count) as diagrams the board component draws: the position and its moves as
// the server's engine played them by the preset's rules, each with the seed passage it shows.
// Open to visitors who are not logged in.

import * as api from './api.js';
import { t } from './i18n.js';
import { rulesName } from './game.js';
import { esc } from './html.js';
import { createBoard } from './board.js';
import { gridFromRows, parseVertex } from './go.js';

/** The sentences that say preset `p` in plain words. */
function sentences(p) {
  const out = [t('rulespage.board', { min: p.sizes[0], max: p.sizes[1], size: p.size })];
  out.push(t(`rulespage.end.${p.end}`));
  if (p.end === 'two_passes') {
    out.push(t(`rulespage.scoring.${p.scoring}`));
    out.push(t('rulespage.komi', { komi: p.komi }));
    out.push(t(`rulespage.dead.${p.dead_stones}`));
  }
  out.push(t(`rulespage.ko.${p.ko}`));
  if (p.ko === 'simple' && p.repetition !== 'nothing') out.push(t(`rulespage.repetition.${p.repetition}`));
  out.push(t(`rulespage.suicide.${p.suicide}`));
  if (p.handicap[1] >= 2) out.push(t(`rulespage.handicap.${p.handicap_placement}`, { min: p.handicap[0], max: p.handicap[1] }));
  out.push(p.seeds.length ? t('rulespage.seeds', { seeds: p.seeds.join(', ') }) : t('rulespage.no_seed'));
  return out;
}

/** What happened to a diagram's move, in words. */
function moveWords(m) {
  return t(`rulespage.outcome.${m.outcome}`, { color: t(`rulespage.${m.color}`), move: m.move, n: m.captured });
}

/** A count's line for one side. */
function countWords(side, c) {
  return t('rulespage.count_side', { color: t(`rulespage.${side}`), territory: c.territory, stones: c.stones, prisoners: c.prisoners, komi: c.komi, total: c.total });
}

/** One diagram: the position with its moves numbered (a refused one crossed), the board after. */
function diagramFigure(d) {
  const fig = document.createElement('figure');
  fig.className = 'rule-diagram panel stack';
  fig.dataset.rule = d.rule;
  const boards = document.createElement('div');
  boards.className = 'diagram-boards';
  const marks = d.moves.map((m, i) => {
    const p = parseVertex(d.size, m.move);
    const refused = !['played', 'captures', 'wins', 'self_capture', 'loses'].includes(m.outcome);
    return p && { ...p, kind: refused ? 'MA' : 'LB', label: refused ? '' : String(i + 1) };
  }).filter(Boolean);
  const shown = d.moves.length ? [[d.before, marks, 'before'], [d.after, [], 'after']] : [[d.before, [], 'before']];
  for (const [rows, m, which] of shown) {
    const wrap = document.createElement('div');
    wrap.className = 'diagram-board';
    wrap.dataset.board = which;
    const b = createBoard(wrap, d.size, { onPlay: () => {}, label: t(`rulespage.${which}`) });
    b.render({ grid: gridFromRows(rows), last: null, ghost: null, dead: new Set(), unsure: new Set(), territory: null, marks: m });
    boards.appendChild(wrap);
  }
  const cap = document.createElement('figcaption');
  const lines = [t(`rulespage.diagram.${d.rule}`), ...d.moves.map(moveWords)];
  if (d.count) lines.push(countWords('black', d.count.black), countWords('white', d.count.white), t('rulespage.count_result', { result: d.count.result }));
  cap.innerHTML = `<h3>${esc(lines[0])}</h3>${lines.slice(1).map((l) => `<p>${esc(l)}</p>`).join('')}${d.seed ? `<blockquote data-seed="${esc(d.seed.seed)}"><p lang="en">“${esc(d.seed.quote)}”</p><footer><cite>${esc(t('rulespage.seed_cite', { seed: d.seed.seed }))}</cite></footer></blockquote>` : `<p class="muted">${esc(t('rulespage.no_seed_passage'))}</p>`}`;
  fig.append(boards, cap);
  return fig;
}

export async function rulesPage(view, app, name) {
  const { presets } = await api.rules();
  const shown = name ? presets.filter((p) => p.name === name) : presets;
  view.innerHTML = `
    <section class="stack rules-page">
      <h1>${t('rulespage.title')}</h1>
      <p>${t('rulespage.lead')}</p>
      <nav class="row" aria-label="${t('rulespage.title')}">${presets.map((p) => `<a class="button" href="#/rules/${esc(p.name)}">${esc(rulesName(p.name))}</a>`).join('')}</nav>
      ${shown.map((p) => `
        <article class="panel stack" data-preset="${esc(p.name)}">
          <h2>${esc(rulesName(p.name))}</h2>
          <ul>${sentences(p).map((s) => `<li>${esc(s)}</li>`).join('')}</ul>
          ${name ? `<div class="stack diagrams" data-testid="diagrams"></div>` : ''}
        </article>`).join('')}
    </section>`;
  if (name) {
    for (const p of shown) {
      const box = view.querySelector(`[data-preset="${p.name}"] [data-testid=diagrams]`);
      for (const d of p.diagrams || []) box.appendChild(diagramFigure(d));
    }
  }
  return null;
}
