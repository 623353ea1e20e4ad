// The client's languages without a browser: every catalogue has exactly English's keys, in its
// order, with the same {placeholders} and no empty message; every key the code asks for exists;
// and no page script writes an English sentence to the page that bypasses the catalogues.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

import en from '../js/lang-en.js';
import ko from '../js/lang-ko.js';
import ja from '../js/lang-ja.js';
import zh from '../js/lang-zh.js';

const js = fileURLToPath(new URL('../js', import.meta.url));
const OTHERS = { ko, ja, zh };
const placeholders = (s) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

test('every catalogue has English\'s keys, in its order, with its placeholders', () => {
  const keys = Object.keys(en);
  assert.ok(keys.length > 300, `only ${keys.length} English messages`);
  for (const [code, cat] of Object.entries(OTHERS)) {
    const theirs = Object.keys(cat);
    const missing = keys.filter((k) => !(k in cat));
    const extra = theirs.filter((k) => !(k in en));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, `lang-${code}.js`);
    assert.deepEqual(theirs, keys, `lang-${code}.js follows lang-en.js's order`);
    for (const k of keys) {
      assert.equal(typeof cat[k], 'string', `${code} ${k}`);
      assert.ok(cat[k].trim().length > 0, `${code} ${k} is empty`);
      assert.deepEqual(placeholders(cat[k]), placeholders(en[k]), `${code} ${k}: "${cat[k]}" against "${en[k]}"`);
    }
  }
  for (const k of keys) assert.ok(en[k].trim().length > 0, `en ${k} is empty`);
});

test('the other languages are translated, not copies of English', () => {
  // Short words that stay as they are in every language (names, abbreviations, formats).
  const same = /^(rules\.(aga|wga|igz|tromp-taylor)|tour\.results_h9|tour\.system_mcmahon|clock\.fischer|lobby\.clock_fischer|time\..*|rank\..*|clock\.cap|game\.stepper_at|lobby\.turn_line|mod\.message_from_to)$/;
  for (const [code, cat] of Object.entries(OTHERS)) {
    const copied = Object.keys(en).filter((k) => cat[k] === en[k] && /[a-z]{3,}/.test(en[k]) && !same.test(k));
    assert.deepEqual(copied, [], `lang-${code}.js copies English`);
  }
});

/** The page scripts this check covers: all but the catalogues and i18n.js itself. */
function scripts() {
  return readdirSync(js)
    .filter((f) => f.endsWith('.js') && !f.startsWith('lang-') && f !== 'i18n.js')
    .map((f) => ({ file: f, text: readFileSync(join(js, f), 'utf8') }));
}

test('every message key the scripts ask for exists in English', () => {
  const missing = [];
  for (const { file, text } of scripts()) {
    for (const m of text.matchAll(/\bt\(\s*'([a-z0-9_.-]+)'/g)) if (!(m[1] in en)) missing.push(`${file}: ${m[1]}`);
    for (const m of text.matchAll(/\btn\(\s*'([a-z0-9_.-]+)'/g)) {
      for (const form of ['one', 'other']) if (!(`${m[1]}.${form}` in en)) missing.push(`${file}: ${m[1]}.${form}`);
    }
    // Keys built from a prefix (`lobby.join_${guess}`): some key must start with it.
    for (const m of text.matchAll(/\bt\(\s*`([a-z0-9_.-]+)\$\{/g)) if (!Object.keys(en).some((k) => k.startsWith(m[1]))) missing.push(`${file}: ${m[1]}…`);
  }
  assert.deepEqual(missing, []);
});

// What a player reads, written as an English literal: text set on an element, a title, a
// placeholder or label, a prompt, a confirm, a toast, or a text node in an HTML template.
const LEAKS = [
  /\.(textContent|title|placeholder)\s*=\s*['`][^'`$]*[A-Za-z]{3,}/,
  /\b(prompt|confirm|toast|linkToast)\(\s*['`][^'`$]*[A-Za-z]{3,}/,
  /\b(placeholder|title|aria-label)=["'][^"'$]*[A-Za-z]{3,}/,
  /'aria-label':\s*['`][^'`$]*[A-Za-z]{3,}/,
  />\s*[A-Za-z][a-z]+[ .,:!?]?[^<>${}]*</,
  /button\(\s*['`][A-Za-z]{2,}/,
];
// Literals that stay as written in every language: the record format's name and results.
const ALLOWED = [/>SGF</, /<option>(B\+|W\+|Void|B\+F|W\+F)<\/option>/g];

test('no page script writes an English sentence around the catalogues', () => {
  const found = [];
  for (const { file, text } of scripts()) {
    text.split('\n').forEach((raw, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(raw)) return;
      let line = raw;
      for (const a of ALLOWED) line = line.replace(a, '');
      for (const re of LEAKS) if (re.test(line)) found.push(`${file}:${i + 1}: ${raw.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(found, []);
});

test('the check finds a hard-coded sentence', () => {
  const lines = ["b.textContent = 'Resign';", "app.toast(`Paired with ${x}.`);", '<h2>Open rooms</h2>', 'placeholder="Say something"'];
  for (const l of lines) assert.ok(LEAKS.some((re) => re.test(l)), l);
  assert.ok(!LEAKS.some((re) => re.test("b.textContent = t('game.resign');")));
});
