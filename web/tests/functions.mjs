// Every function in a script and its length in lines: declarations, expressions, methods and
// arrow functions, nested ones each counted on their own (a nested function's lines count in
// its parent too). No parser is installed (the client has no build step and no dependencies but
// the browser driver), so this walks the tokens: comments, strings, template literals (with
// their `${}`), regular expressions and brackets, which is all it takes to find where a body
// ends in the client's code.
//
// Run: node tests/functions.mjs [files...]   (default: every web/js/*.js but the catalogues)
// prints the longest function of each file, longest first.

import { readdirSync, readFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'typeof', 'new', 'delete', 'void', 'in', 'of', 'instanceof', 'do', 'else', 'case', 'throw', 'await', 'yield', 'with']);
// After these a `/` starts a regular expression, not a division.
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '=>', '&&', '||', '??', '==', '===', '!=', '!==', '<=', '>=', '+=', '-=', 'return', 'typeof', 'case', 'in', 'of', 'new', 'delete', 'void', 'throw', 'await', 'yield', 'else', 'do']);

/** The tokens of `src`: { v, line } with strings, templates and regexes as single tokens. */
export function tokens(src) {
  const out = [];
  let i = 0;
  let line = 1;
  const push = (v, at) => out.push({ v, line: at });
  const prev = () => (out.length ? out[out.length - 1].v : ';');
  // A template literal from its opening backtick; returns the index after its closing one.
  function template(j) {
    j++;
    while (j < src.length && src[j] !== '`') {
      if (src[j] === '\\') j += 2;
      else if (src[j] === '$' && src[j + 1] === '{') {
        // The expression inside: count braces, skipping its own strings and templates.
        j += 2;
        let depth = 1;
        while (j < src.length && depth) {
          const c = src[j];
          if (c === '\n') line++;
          if (c === '`') { j = template(j); continue; }
          if (c === "'" || c === '"') { j = quoted(j); continue; }
          if (c === '{') depth++;
          else if (c === '}') depth--;
          j++;
        }
      } else {
        if (src[j] === '\n') line++;
        j++;
      }
    }
    return j + 1;
  }
  function quoted(j) {
    const q = src[j++];
    while (j < src.length && src[j] !== q) j += src[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { while (i < src.length && src[i] !== '\n') i++; continue; }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? src.length : end + 2;
      for (let k = i; k < stop; k++) if (src[k] === '\n') line++;
      i = stop;
      continue;
    }
    const at = line;
    if (c === "'" || c === '"') { i = quoted(i); push('"str"', at); continue; }
    if (c === '`') { i = template(i); push('"str"', at); continue; }
    if (c === '/' && BEFORE_REGEX.has(prev())) {
      let j = i + 1;
      let cls = false;
      while (j < src.length && (cls || src[j] !== '/')) {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') cls = true;
        else if (src[j] === ']') cls = false;
        j++;
      }
      j++;
      while (/[a-z]/.test(src[j] || '')) j++;
      i = j;
      push('"re"', at);
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(src.slice(i, i + 80));
    if (word) { push(word[0], at); i += word[0].length; continue; }
    const num = /^\d[\w.]*/.exec(src.slice(i, i + 40));
    if (num) { push('0', at); i += num[0].length; continue; }
    const op = /^(=>|===|!==|\.\.\.|&&|\|\||\?\?|==|!=|<=|>=|\+=|-=|\?\.)/.exec(src.slice(i, i + 3));
    if (op) { push(op[0], at); i += op[0].length; continue; }
    push(c, at);
    i++;
  }
  return out;
}

const OPEN = new Set(['(', '[', '{']);

/** The index of the bracket that closes the one at `k`. */
function closing(toks, k) {
  let depth = 0;
  for (let j = k; j < toks.length; j++) {
    if (OPEN.has(toks[j].v)) depth++;
    else if (')]}'.includes(toks[j].v) && toks[j].v.length === 1) {
      depth--;
      if (depth === 0) return j;
    }
  }
  return toks.length - 1;
}

/** The index of the bracket that opens the one closing at `k`. */
function opening(toks, k) {
  let depth = 0;
  for (let j = k; j >= 0; j--) {
    if (')]}'.includes(toks[j].v) && toks[j].v.length === 1) depth++;
    else if (OPEN.has(toks[j].v)) {
      depth--;
      if (depth === 0) return j;
    }
  }
  return 0;
}

/** The last token of an arrow function's expression body starting at `k`. */
function expressionEnd(toks, k) {
  let depth = 0;
  for (let j = k; j < toks.length; j++) {
    const v = toks[j].v;
    if (OPEN.has(v)) depth++;
    else if (v === ')' || v === ']' || v === '}') {
      if (depth === 0) return j - 1;
      depth--;
    } else if (depth === 0 && (v === ',' || v === ';')) return j - 1;
  }
  return toks.length - 1;
}

/** The name a function is known by: its own, the variable or property it is assigned to. */
function nameBefore(toks, k) {
  const a = toks[k - 1] && toks[k - 1].v;
  const b = toks[k - 2] && toks[k - 2].v;
  if ((a === '=' || a === ':') && /^[\w$]+$/.test(b || '')) return b;
  if (a === 'async' && (toks[k - 2] || {}).v === '=') return toks[k - 3].v;
  return '(anonymous)';
}

/** Every function in `src`: { name, start, end, lines }, in the order they begin. */
export function functions(src) {
  const toks = tokens(src);
  const found = [];
  for (let k = 0; k < toks.length; k++) {
    const v = toks[k].v;
    if (v === 'function') {
      let j = k + 1;
      if (toks[j].v === '*') j++;
      const name = toks[j].v !== '(' ? toks[j].v : nameBefore(toks, toks[k - 1] && toks[k - 1].v === 'async' ? k - 1 : k);
      while (toks[j].v !== '(') j++;
      const body = closing(toks, j) + 1;
      found.push({ name, start: toks[k].line, end: toks[closing(toks, body)].line });
    } else if (v === '=>') {
      // Parameters: one name, or the bracketed list before the arrow.
      let p = k - 1;
      if (toks[p].v === ')') p = opening(toks, p);
      if (toks[p - 1] && toks[p - 1].v === 'async') p--;
      const endTok = toks[k + 1].v === '{' ? closing(toks, k + 1) : expressionEnd(toks, k + 1);
      found.push({ name: nameBefore(toks, p), start: toks[p].line, end: toks[endTok].line });
    } else if (/^[A-Za-z_$][\w$]*$/.test(v) && !KEYWORDS.has(v) && toks[k + 1] && toks[k + 1].v === '(' && (k === 0 || !['.', 'function', '?.'].includes(toks[k - 1].v))) {
      // A method: `name(params) {` in an object literal or a class.
      const close = closing(toks, k + 1);
      if (toks[close + 1] && toks[close + 1].v === '{' && (k === 0 || ['{', ',', ';', '}', 'async', 'static', 'get', 'set'].includes(toks[k - 1].v))) {
        found.push({ name: v, start: toks[k].line, end: toks[closing(toks, close + 1)].line });
      }
    }
  }
  return found.map((f) => ({ ...f, lines: f.end - f.start + 1 })).sort((a, b) => a.start - b.start);
}

/** The client's scripts: web/js/*.js but the catalogues (data, not code). */
export function clientScripts() {
  const dir = fileURLToPath(new URL('../js/', import.meta.url));
  return readdirSync(dir).filter((f) => f.endsWith('.js') && !f.startsWith('lang-')).sort().map((f) => join(dir, f));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = process.argv.length > 2 ? process.argv.slice(2) : clientScripts();
  const rows = files.map((f) => {
    const fns = functions(readFileSync(f, 'utf8'));
    const top = fns.reduce((a, b) => (b.lines > a.lines ? b : a), { name: '-', lines: 0, start: 0 });
    return { file: basename(f), ...top, count: fns.length };
  });
  rows.sort((a, b) => b.lines - a.lines);
  for (const r of rows) console.log(`${String(r.lines).padStart(4)}  ${r.file}:${r.start}  ${r.name}  (${r.count} functions)`);
}
