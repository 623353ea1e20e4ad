// The client's bar (issue 42): no function in web/js runs past 200 lines, and the pages split
// into a state and a view (the game, the lobby, the review board) keep theirs under 60. The
// lengths come from tests/functions.mjs (every function, arrow functions and nested ones too).
// Run: node --test tests/functions.test.mjs; the table: node tests/functions.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { functions, clientScripts } from './functions.mjs';

const SPLIT = ['game.js', 'game-state.js', 'lobby.js', 'lobby-state.js', 'review.js', 'review-state.js'];

test('no function in web/js is over 200 lines; the split pages\' under 60', () => {
  const long = [];
  for (const file of clientScripts()) {
    const name = basename(file);
    const limit = SPLIT.includes(name) ? 60 : 200;
    for (const f of functions(readFileSync(file, 'utf8'))) if (f.lines > limit) long.push(`${name}:${f.start} ${f.name} ${f.lines} lines`);
  }
  assert.deepEqual(long, []);
});

test('the measure finds declarations, methods and arrow functions, nested or not', () => {
  const src = [
    'export async function page(a) {',
    "  const re = /[}{]/g; const s = `${a ? '}' : `{`}`;",
    '  const f = (x) => {',
    '    return x;',
    '  };',
    '  const g = async (y) =>',
    '    y + 1;',
    '  return { go(z) { return z; }, h: function () {} };',
    '}',
    '// function inComment() {',
  ].join('\n');
  const found = functions(src).map((f) => `${f.name}:${f.start}-${f.end}`);
  assert.deepEqual(found, ['page:1-9', 'f:3-5', 'g:6-7', 'go:8-8', 'h:8-8']);
});
