// The rules page (#/rules, #/rules/NAME): every rule preset Tengen plays, in plain words built
// from its parameters as the server's rules engine holds them (GET /api/rules), with the seed
// documents it implements. Open to visitors who are not logged in.

import * as api from './api.js';
import { t } from './i18n.js';
import { rulesName } from './game.js';
import { esc } from './html.js';

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
        </article>`).join('')}
    </section>`;
  return null;
}
