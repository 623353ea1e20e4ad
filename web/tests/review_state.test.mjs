// The review board's state (web/js/review-state.js) with no browser: the tree from the server's
// flat list, positions along paths, the board's layers, navigation, and the reducer for what the
// owner and a follower do. Run: node --test tests/review_state.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  sgfText, sgfPoint, withTree, nodeAt, positionAt, branchesOf, marksOf, nextLetter, ownershipGrid, lineOf,
  treeLayout, chartLines, initial, reduce, own, onMain, analysed, finalAnalysis, boardLayers, pathTo, branchAt,
  editAt, moveOf,
} from '../js/review-state.js';

// A 9x9 record with a variation at move 3, as the server sends it: the root first, children as
// indices. ;B[ee]C[the centre];W[cc](;B[gg];W[gc];B[cg])(;B[gc])
const NODES = [
  { props: { SZ: ['9'], GM: ['1'] }, children: [1] },
  { props: { B: ['ee'], C: ['the centre'] }, children: [2] },
  { props: { W: ['cc'] }, children: [3, 6] },
  { props: { B: ['gg'] }, children: [4] },
  { props: { W: ['gc'] }, children: [5] },
  { props: { B: ['cg'], TR: ['aa'], LB: ['bb:A', 'cc:B'] }, children: [] },
  { props: { B: ['gc'] }, children: [] },
];

/** Positions analysed along the main line (moves 0 to 3; the game over at 4). */
const POSITIONS = [
  { black_winrate: 0.5, black_lead: 0.5, to_move: 'black', best: [{ move: 'E5', winrate: 0.5, visits: 10, pv: ['E5', 'C7'] }], ownership: 'k'.repeat(81) },
  { black_winrate: 0.6, black_lead: 2, to_move: 'white', best: [{ move: 'C7', winrate: 0.4, visits: 10, pv: ['C7', 'G3', 'C7'] }, { move: 'G7', winrate: 0.3, visits: 5 }], ownership: 'u'.repeat(81) },
  { black_winrate: 0.55, black_lead: -1, to_move: 'black', best: [{ move: 'G3', winrate: 0.55, visits: 9 }] },
  { black_winrate: 0.7, black_lead: 30, to_move: 'white', best: [], ownership: 'a'.repeat(81) },
  null,
];

function review(over = {}) {
  return { id: 1, owner: 'ann', version: 3, cursor: [0], nodes: NODES, chat: [], sgf: '/x', analysis: { state: 'done', positions: POSITIONS }, ...over };
}

test('SGF values and points', () => {
  assert.equal(sgfText('a\\]b\\\\c\\\nd'), 'a]b\\cd');
  assert.deepEqual(sgfPoint(9, 'cg'), { x: 2, y: 6 });
  assert.equal(sgfPoint(9, 'tt'), null);
  assert.equal(sgfPoint(9, ''), null);
  assert.equal(sgfPoint(9, 'zz'), null);
});

test('the tree from the flat list, and the position along a path with captures', () => {
  const { tree } = withTree(review());
  assert.equal(nodeAt(tree, [0, 0, 1]).props.B[0], 'gc');
  assert.equal(nodeAt(tree, [0, 0, 2]), null);
  const { grid, last } = positionAt(tree, 9, [0, 0, 0, 0, 0]);
  assert.deepEqual(last, { x: 2, y: 6 });
  assert.deepEqual([grid[4][4], grid[2][2], grid[6][6], grid[2][6], grid[6][2]], ['b', 'w', 'b', 'w', 'b']);
  assert.deepEqual(moveOf(nodeAt(tree, [0]), 9), { color: 'B', point: { x: 4, y: 4 } });
  assert.equal(moveOf(tree, 9), null);
  // A capture: White's lone stone in the corner taken.
  const corner = withTree({ nodes: [{ props: { AW: ['aa'], AB: ['ba'] }, children: [1] }, { props: { B: ['ab'] }, children: [] }] }).tree;
  assert.equal(positionAt(corner, 9, [0]).grid[0][0], null);
});

test('branches, markup and the next free label', () => {
  const { tree } = withTree(review());
  assert.deepEqual(branchesOf(nodeAt(tree, [0, 0]), 9), [
    { x: 6, y: 6, color: 'b', label: 'A', child: 0 },
    { x: 6, y: 2, color: 'b', label: 'B', child: 1 },
  ]);
  assert.deepEqual(branchesOf(nodeAt(tree, [0]), 9), []);
  const end = nodeAt(tree, [0, 0, 0, 0, 0]);
  assert.deepEqual(marksOf(end, 9), [
    { x: 0, y: 0, kind: 'TR', label: '' },
    { x: 1, y: 1, kind: 'LB', label: 'A' },
    { x: 2, y: 2, kind: 'LB', label: 'B' },
  ]);
  assert.equal(nextLetter(end), 'C');
  assert.equal(ownershipGrid('k'.repeat(81), 9)[0][0], 0);
  assert.equal(ownershipGrid('u'.repeat(81), 9)[8][8], 1);
  assert.equal(ownershipGrid('abc', 9), null);
});

test('the line through a path, with the variations beside each move', () => {
  const { tree } = withTree(review());
  const line = lineOf(tree, [0, 0, 1]);
  assert.deepEqual(line.map((m) => [m.path.join('.'), m.others]), [['0', 0], ['0.0', 0], ['0.0.1', 1]]);
  // From the root: on along the main line to its end.
  assert.deepEqual(lineOf(tree, []).map((m) => m.path.length), [1, 2, 3, 4, 5]);
});

test('the tree laid out: the main line on the first row, a variation below', () => {
  const { tree } = withTree(review());
  const { nodes, edges, rows, depth } = treeLayout(tree);
  assert.equal(nodes.length, 7);
  assert.equal(edges.length, 6);
  assert.deepEqual([rows, depth], [1, 5]);
  assert.deepEqual(nodes.map((n) => `${n.path.join('.')}@${n.depth},${n.row}`), ['@0,0', '0@1,0', '0.0@2,0', '0.0.0@3,0', '0.0.0.0@4,0', '0.0.0.0.0@5,0', '0.0.1@3,1']);
});

test('the graph skips the positions the game was over at and scales the lead', () => {
  const { rates, leads, x } = chartLines(POSITIONS, 320, 90);
  assert.equal(rates.length, 4);
  assert.equal(leads.length, 4);
  assert.equal(x(4), 320);
  assert.equal(rates[0], '0,45');
  // The largest lead (30) fills the half height.
  assert.equal(leads[3], '240,0');
});

test('the owner leads: the cursor follows the review, edits and marks at the path shown', () => {
  let s = initial(review(), 'ann');
  assert.equal(own(s), true);
  assert.deepEqual(s.path, [0]);
  assert.equal(s.size, 9);
  assert.deepEqual(editAt(s, 'C7'), { type: 'play', path: [0], point: 'C7' });
  s = reduce(s, { type: 'tool', tool: 'LB' });
  assert.deepEqual(editAt(s, 'C7'), { type: 'mark', path: [0], kind: 'LB', point: 'C7', label: 'A' });
  s = reduce(s, { type: 'go', path: [0, 0] });
  assert.equal(s.follow, true, 'the owner is not a follower');
  // An edit in flight: the answer does not move the cursor back.
  s = reduce(s, { type: 'sent' });
  s = reduce(s, { type: 'review', review: review({ cursor: [0] }), keepPath: s.pending > 0 });
  assert.deepEqual(s.path, [0, 0]);
  s = reduce(s, { type: 'answered' });
  s = reduce(s, { type: 'review', review: review({ cursor: [0, 0, 1] }) });
  assert.deepEqual(s.path, [0, 0, 1]);
  // A path the newer tree lacks goes to the root.
  s = reduce(s, { type: 'review', review: review({ cursor: [0, 0, 7] }) });
  assert.deepEqual(s.path, []);
});

test('a follower follows, browses on their own, and follows again', () => {
  let s = initial(review(), 'bob');
  assert.equal(own(s), false);
  s = reduce(s, { type: 'review', review: review({ cursor: [0, 0] }) });
  assert.deepEqual(s.path, [0, 0]);
  s = reduce(s, { type: 'go', path: [0, 0, 1] });
  assert.deepEqual([s.path, s.follow, onMain(s)], [[0, 0, 1], false, false]);
  s = reduce(s, { type: 'review', review: review({ cursor: [0] }) });
  assert.deepEqual(s.path, [0, 0, 1], 'not following: the owner\'s cursor does not move the board');
  assert.equal(reduce(s, { type: 'go', path: [9] }), s, 'no such node: nothing changes');
  s = reduce(s, { type: 'follow', on: true });
  assert.deepEqual([s.path, s.follow], [[0], true]);
  // A click on a branch's next move goes down it.
  s = reduce(s, { type: 'go', path: [0, 0] });
  assert.deepEqual(branchAt(s, 'G7'), [0, 0, 1]);
  assert.equal(branchAt(s, 'A1'), null);
});

test('navigation: first, back, next, last and the sibling variations', () => {
  const s = reduce(initial(review(), 'bob'), { type: 'go', path: [0, 0, 1] });
  assert.deepEqual(pathTo(s, 'first'), []);
  assert.deepEqual(pathTo(s, 'back'), [0, 0]);
  assert.equal(pathTo(s, 'next'), null);
  assert.deepEqual(pathTo(s, 'up'), [0, 0, 0]);
  assert.equal(pathTo(s, 'down'), null);
  const root = reduce(s, { type: 'go', path: [] });
  assert.equal(pathTo(root, 'back'), null);
  assert.equal(pathTo(root, 'up'), null);
  assert.deepEqual(pathTo(root, 'next'), [0]);
  assert.deepEqual(pathTo(root, 'last'), [0, 0, 0, 0, 0]);
});

test('candidates: a hover shows a variation, a click pins it, a second click lets it go', () => {
  let s = initial(review(), 'bob');
  assert.equal(analysed(s), POSITIONS[1]);
  s = reduce(s, { type: 'hover', point: 'C7' });
  assert.equal(s.pv, POSITIONS[1].best[0]);
  assert.equal(reduce(s, { type: 'hover', point: 'C7' }), s, 'the same candidate: nothing to redraw');
  // The variation: alternate colours from the side to move, each point once.
  assert.deepEqual(boardLayers(s).variation, [{ x: 2, y: 2, color: 'w', n: 1 }, { x: 6, y: 6, color: 'b', n: 2 }]);
  s = reduce(s, { type: 'pick', point: 'G7' });
  assert.deepEqual([s.pv.move, s.pinned], ['G7', true]);
  // The move alone stands for an analysis without variations.
  assert.deepEqual(boardLayers(s).variation, [{ x: 6, y: 2, color: 'w', n: 1 }]);
  assert.equal(reduce(s, { type: 'hover', point: 'C7' }), s, 'pinned: a hover changes nothing');
  s = reduce(s, { type: 'pick', point: 'G7' });
  assert.deepEqual([s.pv, s.pinned], [null, false]);
  s = reduce(s, { type: 'go', path: [0, 0, 1] });
  assert.equal(analysed(s), null, 'a variation is not analysed');
  assert.deepEqual(boardLayers(s).candidates, []);
});

test('the board\'s layers: candidates, branches, and the territory at the end of the game', () => {
  let s = reduce(initial(review(), 'bob'), { type: 'go', path: [0, 0] });
  const layers = boardLayers(s);
  assert.deepEqual(layers.candidates, [{ x: 6, y: 6, winrate: 0.55, visits: 9, best: true, move: 'G3' }]);
  assert.equal(layers.branches.length, 2);
  assert.equal(layers.ownership, null);
  // At move 4 the game was over: the last position analysed (move 3) stands for it.
  s = reduce(reduce(s, { type: 'go', path: [0, 0, 0, 0] }), { type: 'ownership', on: true });
  assert.equal(analysed(s), null);
  assert.equal(finalAnalysis(s).at, 3);
  assert.equal(boardLayers(s).ownership[0][0], -1);
  assert.deepEqual(boardLayers(s).last, { x: 6, y: 2 });
});
