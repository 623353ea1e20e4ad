// The client's languages: English, Korean, Japanese and Chinese (the seed servers were Korean
// and Japanese). Every string a player reads comes from a message catalogue (`lang-XX.js`,
// keys in dotted areas: `nav.lobby`, `game.pass`, `error.not_your_turn`), through `t`.
// The choice is remembered in localStorage; until a player makes one, the browser's own
// languages decide, and English is the fallback for a language or a key a catalogue lacks.
//
// Only English (the fallback, imported here) and the chosen language's catalogue are loaded:
// `loadLanguage()` fetches the chosen one before the first page is drawn, and `setLanguage`
// fetches a new one before the page is drawn again, so that `t` stays synchronous.

import en from './lang-en.js';

/** Code and the language's own name (shown in the menu). */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'ko', name: '한국어' },
  { code: 'ja', name: '日本語' },
  { code: 'zh', name: '中文' },
];

const KEY = 'tengen.lang';
// The catalogues loaded, by code: English always, the others once chosen.
const loaded = { en };
let current = pick();
// The last language asked for: a slow catalogue does not override a later choice.
let asked = current;

/** The language a player chose, else the first of the browser's that Tengen speaks. */
function pick() {
  let saved = null;
  try {
    saved = globalThis.localStorage && localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (saved && LANGUAGES.some((l) => l.code === saved)) return saved;
  const wanted = (globalThis.navigator && (navigator.languages || [navigator.language])) || [];
  for (const tag of wanted) {
    const code = String(tag || '').toLowerCase().split('-')[0];
    if (LANGUAGES.some((l) => l.code === code)) return code;
  }
  return 'en';
}

/** The current language's code. */
export function language() {
  return current;
}

/** The catalogue of `code`, fetched once (a dynamic import: the browser asks for that file
 * alone). */
async function load(code) {
  if (!loaded[code]) loaded[code] = (await import(`./lang-${code}.js`)).default;
  return loaded[code];
}

/** Loads the current language's catalogue; the shell awaits it before drawing the first page.
 * A catalogue that cannot be fetched leaves English, the fallback. */
export async function loadLanguage() {
  try {
    await load(current);
  } catch {
    // `t` falls back to English for every key.
  }
}

/** Switches language, loading its catalogue first, and remembers the choice; the caller
 * re-renders once it resolves. Of several quick switches the last one wins. */
export async function setLanguage(code) {
  if (!LANGUAGES.some((l) => l.code === code)) return;
  asked = code;
  await load(code);
  if (asked !== code) return;
  current = code;
  try {
    localStorage.setItem(KEY, code);
  } catch {
    // A browser without storage keeps the choice for this page only.
  }
  if (globalThis.document) document.documentElement.lang = code;
}

/** The catalogue of `code` if loaded, else English. */
function catalogue(code) {
  return loaded[code] || en;
}

/** The message `key` in the current language, `{name}` replaced from `vars`. A key no
 * catalogue has is returned as it is, so that a missing message shows, not disappears. */
export function t(key, vars = {}) {
  const text = catalogue(current)[key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** A message that depends on a count: `key.one` where the language says "one" for `n`
 * (English: 1), else `key.other`; `{n}` is the count written in the language. */
export function tn(key, n, vars = {}) {
  const form = new Intl.PluralRules(current).select(n) === 'one' ? 'one' : 'other';
  return t(`${key}.${form}`, { ...vars, n: number(n) });
}

/** A rank in the language's own words: `5k` is 5 kyu, 5급, 5級, 5级; `3d` 3 dan; `[P]` pro. */
export function rankName(rank) {
  const m = /^(\d+)([kdp])( ?\[P\])?$/.exec(String(rank || ''));
  if (!m) return String(rank ?? '');
  const kind = m[3] || m[2] === 'p' ? 'pro' : m[2] === 'k' ? 'kyu' : 'dan';
  return t(`rank.${kind}`, { n: m[1] });
}

/** A number written in the current language. */
export function number(n) {
  return Number(n).toLocaleString(current);
}

/** A date and time (milliseconds since the epoch) in the current language. */
export function dateTime(ms) {
  return new Date(ms).toLocaleString(current, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A date (milliseconds since the epoch) in the current language. */
export function date(ms) {
  return new Date(ms).toLocaleDateString(current, { dateStyle: 'medium' });
}

/** Whether a key exists (in English, the reference catalogue). */
export function has(key) {
  return key in en;
}

/** The player-facing message for a server error code, or `fallback` (the server's own
 * English message) for a code the catalogues do not know. */
export function errorMessage(code, fallback) {
  // `illegal_move` carries the rules' own reason only in the server's sentence (the review
  // board's edits: "the point is occupied"); in English that sentence says more.
  if (code === 'illegal_move' && fallback && current === 'en') return fallback;
  const key = `error.${code}`;
  return key in en ? t(key) : fallback;
}

if (globalThis.document) document.documentElement.lang = current;
