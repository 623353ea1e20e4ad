// The formatters the pages share: clocks, durations, time settings, rule sets, komi notes and
// results, in the player's language.

import { t, tn } from './i18n.js';

export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A correspondence clock: days and hours ("2d 23h"), hours and minutes under a day, then m:ss. */
export function dayClock(ms) {
  const m = Math.max(0, Math.ceil(ms / 60000));
  if (ms >= 86400000) return t('time.d_h', { d: Math.floor(m / 1440), h: Math.floor((m % 1440) / 60) });
  if (ms >= 3600000) return t('time.h_m', { h: Math.floor(m / 60), m: m % 60 });
  return mmss(ms);
}

/** A duration in words: "30 s", "5 min", "1 h 30 min", "3 days", "1 day 12 h". */
export function durationWords(ms) {
  const s = Math.round(ms / 1000);
  const sec = (n) => t('time.s', { n });
  const min = (n) => t('time.min', { n });
  const hour = (n) => t('time.h', { n });
  if (s < 60) return sec(s);
  if (s >= 86400) return s % 86400 === 0 ? tn('time.days', s / 86400) : `${tn('time.days', Math.floor(s / 86400))} ${hour(Math.round((s % 86400) / 3600))}`;
  if (s >= 3600) return s % 3600 === 0 ? hour(s / 3600) : `${hour(Math.floor(s / 3600))} ${min(Math.round((s % 3600) / 60))}`;
  return s % 60 === 0 ? min(s / 60) : `${min(Math.floor(s / 60))} ${sec(s % 60)}`;
}

/** A duration for people: "2d 23h", "5h 10m", "12 min" (the lobby's your-move list). */
export function span(ms) {
  const h = Math.floor(ms / 3600000);
  if (h >= 24 && h % 24 === 0 && ms % 3600000 === 0) return tn('time.days', h / 24);
  if (h >= 24) return t('time.d_h', { d: Math.floor(h / 24), h: h % 24 });
  if (h >= 1) return t('time.h_m', { h, m: Math.floor((ms % 3600000) / 60000) });
  return t('time.min', { n: Math.max(0, Math.round(ms / 60000)) });
}

/** A room's clock, short, as the lobby's list shows it: "30 min + 5×30 s", "3 days a move". */
export function timeLabel(c) {
  if (!c || c.system === 'none') return t('lobby.no_clock');
  if (c.system === 'correspondence') return t('time.a_move', { time: span(c.per_move_ms) });
  const m = (ms) => t('time.min', { n: Math.round(ms / 60000) });
  const s = (ms) => t('time.s', { n: ms / 1000 });
  if (c.system === 'absolute') return m(c.main_ms);
  if (c.system === 'byoyomi') return c.periods ? `${m(c.main_ms)} + ${c.periods}×${s(c.period_ms)}` : m(c.main_ms);
  if (c.system === 'canadian') return t('time.canadian_short', { main: m(c.main_ms), stones: c.stones, period: m(c.period_ms) });
  return `${m(c.main_ms)} + ${s(c.increment_ms)}`;
}

/** A game's time setting in words: "Byo-yomi 20 min + 5×30 s", "3 days a move (correspondence)". */
export function timeWords(c) {
  const d = durationWords;
  const tr = t;
  switch (c && c.system) {
    case 'absolute': return tr('clock.absolute', { main: d(c.main_ms) });
    case 'byoyomi': return c.periods ? tr('clock.byoyomi', { main: d(c.main_ms), periods: c.periods, period: d(c.period_ms) }) : tr('clock.absolute', { main: d(c.main_ms) });
    case 'canadian': return tr('clock.canadian', { main: d(c.main_ms), stones: c.stones, period: d(c.period_ms) });
    case 'fischer': return `${tr('clock.fischer', { main: d(c.main_ms), increment: d(c.increment_ms) })}${c.cap_ms ? tr('clock.cap', { cap: d(c.cap_ms) }) : ''}${c.increment_ms >= 3600000 ? tr('clock.correspondence_mark') : ''}`;
    case 'correspondence': return tr('clock.correspondence', { time: d(c.per_move_ms) });
    default: return tr('clock.none');
  }
}

const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz', 'first-capture'];

/** A rule set's name in the player's language (the server's code for one the client lacks). */
export function rulesName(r) {
  return RULES.includes(r) ? t(`rules.${r}`) : String(r);
}

/**
 * Why a game's komi is 0.5, or '' when it is not: the server's default for an even game on
 * 9x9 and 13x13 (seed 002's Korean rules), for players one or two ranks apart (JUNG-SUN) and
 * for handicap games (crates/server/core/src/domain/game_type.rs, `default_komi`).
 */
export function komiNote(terms) {
  if (!terms || Number(terms.komi) !== 0.5) return '';
  if (terms.game_type === 'handicap' || terms.handicap > 0) return t('game.komi_half_handicap');
  if (terms.game_type === 'jung_sun') return t('game.komi_half_jung_sun');
  if (terms.size < 19) return t('game.komi_half_small');
  return t('game.komi_half');
}

const COLOR = { B: 'color.black', W: 'color.white' };

/** A result in words, from its SGF form: "White wins by 9.5 points", "Black wins on time". */
export function resultWords(result, reason) {
  const m = /^([BW])\+(.*)$/.exec(result || '');
  if (m) {
    const who = t(COLOR[m[1]]);
    if (m[2] === 'R') return t('result.resignation', { who });
    if (m[2] === 'T') return t('result.time', { who });
    if (m[2] === 'F') return t('result.forfeit', { who });
    if (m[2] === '') return reason === 'rule' ? t('result.first_capture', { who }) : t('result.wins', { who });
    return tn('result.points', Number(m[2]), { who, points: m[2] });
  }
  if (result === '0') return t('result.draw');
  if (result === 'Void') return reason === 'rule' ? t('result.void_repeat') : t('result.void');
  return String(result ?? '');
}

/**
 * A clock's text `elapsed` ms after the server's reading, counted as the server does: the time
 * (`main`), what follows it (`extra`: byo-yomi periods, Canadian stones) and both as `text`.
 * Correspondence clocks (`days`) count in days and hours.
 */
export function clockText(time, c, elapsed, days = false) {
  if (!time || time.system === 'none' || !c) return '';
  let { main_ms: main, period_ms: period, periods, stones } = c;
  let e = elapsed;
  const fromMain = Math.min(main, e);
  main -= fromMain;
  e -= fromMain;
  if (time.system === 'byoyomi' && main === 0 && periods > 0) {
    while (e >= period && periods > 1) {
      e -= period;
      periods -= 1;
      period = time.period_ms;
    }
    period = Math.max(0, period - e);
  } else if (time.system === 'canadian' && main === 0) {
    period = Math.max(0, period - e);
  }
  const out = (m, extra, low) => ({ main: m, extra, text: `${m}${extra}`, low });
  if (days) return out(dayClock(main), '', main < 12 * 3600000);
  if (main > 0) {
    const extra = time.system === 'byoyomi' && time.periods ? ` + ${periods}×${time.period_ms / 1000}s` : time.system === 'canadian' ? ` + ${time.stones}/${mmss(time.period_ms)}` : '';
    return out(mmss(main), extra, main < 10000 && !(time.periods || time.stones));
  }
  if (time.system === 'byoyomi' && periods > 0) return out(mmss(period), ` ${t('clock.periods_left', { n: periods })}`, period < 10000);
  if (time.system === 'canadian') return out(mmss(period), ` / ${t('clock.stones', { n: stones })}`, period < 20000);
  return out(mmss(main), '', true);
}

/** Why a game ended, in words (the server's code for one the client lacks). */
export function reasonText(r) {
  return ['count', 'rule', 'resign', 'left', 'disconnected', 'time', 'abandoned'].includes(r) ? t(`game.reason_${r}`) : r;
}
