// Every error code the server can send a client has a message in the client's catalogue: the
// codes are read from the server's sources (each `ApiError::Kind("code", ...)`), so a new
// refusal without a translation fails here, not in front of a player.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import en from '../js/lang-en.js';

const ROOT = new URL('../../crates/server', import.meta.url).pathname;

// Codes only the operator's command line sees (`tengen tournament import`, `tengen admin`), or
// only another node of the cluster.
const NOT_FOR_CLIENTS = new Set(['bad_terms', 'both_win', 'name_taken', 'unknown_organiser', 'not_a_bot']);

function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'tests' && name !== 'target') out.push(...sources(path));
    } else if (name.endsWith('.rs')) {
      out.push(path);
    }
  }
  return out;
}

test('every error code the server sends has a message', () => {
  const codes = new Set();
  for (const file of sources(ROOT)) {
    const text = readFileSync(file, 'utf8');
    // `Internal(message)` carries a message, not a code.
    for (const m of text.matchAll(/ApiError::(?!Internal)[A-Za-z]+\(\s*"([a-z_]+)"/g)) codes.add(m[1]);
  }
  assert.ok(codes.size > 50, `found only ${codes.size} codes: is the pattern still right?`);
  const missing = [...codes].filter((c) => !NOT_FOR_CLIENTS.has(c) && !(`error.${c}` in en)).sort();
  assert.deepEqual(missing, []);
});
