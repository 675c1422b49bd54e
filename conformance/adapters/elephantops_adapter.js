#!/usr/bin/env node
/*
 * elephantops (npm `elephantops`, a TypeScript port of chessops to xiangqi) under the xqspec
 * conformance protocol, version 2 (see ../PROTOCOL.md).
 *
 *     npm install elephantops            # in any folder Node's module lookup reaches,
 *     NODE_PATH=$PWD/node_modules xqspec conform \
 *         --adapter "node conformance/adapters/elephantops_adapter.js"
 *
 * An adapter for implementers and for `measure.py`, run by hand; the repository's tests do
 * not use it. It only translates; every answer comes from the library:
 *  - `legal_moves`: `Position.allDests()`; `status`: `isCheckmate()`, `isStalemate()`,
 *    `isCheck()`; `perft`: counted over `allDests()` and `play()`, declined (`unsupported`)
 *    when it would outlast the runner's time limit.
 *  - `validate_fen`: `parseFen` then `Xiangqi.fromSetup`; their error codes are mapped to the
 *    suite's reject kinds where one fits. A piece error (`ERR_ADVISORS` …) says neither
 *    "too many" nor "on a forbidden point", so it is answered with the family `fen` alone.
 *  - Moves: elephantops numbers ranks 1–10 (`a1a2`), ICCS 0–9 (`a0a1`); a move of the input
 *    that `isLegal()` refuses is rejected as `move.illegal`.
 * Editions: all four (the movement rules are the same in all of them).
 */
'use strict';

const path = require('path');
const { Rejected, Unsupported, Budget, serve } = require(path.join(__dirname, 'protocol_session.js'));

// The package is an ES module whose CommonJS build does not load (its package.json says
// `"type": "module"`): its ES modules are imported from the folder Node's lookup finds
// (NODE_PATH included), or from ELEPHANTOPS=/path/to/node_modules/elephantops.
const fs = require('fs');
const { pathToFileURL } = require('url');
const PACKAGE = process.env.ELEPHANTOPS
  || path.join(path.dirname(require.resolve('elephantops')), '..', '..');
const load = (name) => import(pathToFileURL(path.join(PACKAGE, 'dist', 'esm', `${name}.js`)).href);
let parseFen, Xiangqi, parseUci, makeUci;

const ICCS = /^[a-i][0-9][a-i][0-9]$/;

// parseFen's and fromSetup's error codes → the suite's reject kinds. ERR_BOARD (a bad
// character or a bad shape) and ERR_KINGS (a general missing or outside its palace) say
// less than one kind: they are answered with the family `fen`.
const KINDS = {
  ERR_FEN: 'fen.syntax',
  ERR_TURN: 'fen.side_to_move',
  ERR_HALFMOVES: 'fen.counters',
  ERR_FULLMOVES: 'fen.counters',
  ERR_EMPTY: 'fen.piece_count',
  ERR_FACING_KINGS: 'fen.opponent_in_check',
  ERR_OPPOSITE_CHECK: 'fen.opponent_in_check',
};

const toLib = (m) => `${m[0]}${Number(m[1]) + 1}${m[2]}${Number(m[3]) + 1}`;
const toIccs = (u) => {
  const x = /^([a-i])(\d+)([a-i])(\d+)$/.exec(u);
  return `${x[1]}${Number(x[2]) - 1}${x[3]}${Number(x[4]) - 1}`;
};

function position(fen) {
  const setup = parseFen(fen);
  if (setup.isErr) throw new Rejected(KINDS[setup.error.message] || 'fen', `parseFen: ${setup.error.message}`);
  const pos = Xiangqi.fromSetup(setup.value);
  if (pos.isErr) throw new Rejected(KINDS[pos.error.message] || 'fen', `Xiangqi.fromSetup: ${pos.error.message}`);
  return pos.value;
}

function played(inp) {
  const pos = position(inp.fen);
  (inp.moves || []).forEach((m, i) => {
    if (typeof m !== 'string' || !ICCS.test(m)) throw new Rejected('move.syntax', `move ${i + 1} is not ICCS`);
    const move = parseUci(toLib(m));
    if (!move || !pos.isLegal(move)) throw new Rejected('move.illegal', `move ${i + 1} (${m}): isLegal() refuses it`);
    pos.play(move);
  });
  return pos;
}

function legal(pos) {
  const out = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) out.push({ from, to });
  }
  return out;
}

function perft(pos, depth, budget) {
  budget.spend();
  const moves = legal(pos);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    const next = pos.clone();
    next.play(m);
    n += perft(next, depth - 1, budget);
  }
  return n;
}

function answer(edition, query, inp, limits) {
  switch (query) {
    case 'validate_fen':
      position(inp.fen);
      return { result: { valid: true } };
    case 'legal_moves':
      return { result: { moves: legal(played(inp)).map((m) => toIccs(makeUci(m))) } };
    case 'status': {
      const pos = played(inp);
      const status = pos.isCheckmate() ? 'checkmate' : pos.isStalemate() ? 'stalemate'
        : pos.isCheck() ? 'check' : 'ongoing';
      return { result: { status } };
    }
    case 'perft': {
      const pos = played(inp);
      if (inp.depth === 0) return { result: { nodes: 1 } };
      const budget = new Budget(inp.depth, Date.now() + 0.5 * limits.timeout_ms);
      return { result: { nodes: perft(pos, inp.depth, budget) } };
    }
    default:
      throw new Unsupported(`elephantops has no ${query}`);
  }
}

const version = JSON.parse(fs.readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')).version;
Promise.all([load('fen'), load('xiangqi'), load('util')]).then(([fen, xiangqi, util]) => {
  ({ parseFen } = fen);
  ({ Xiangqi } = xiangqi);
  ({ parseUci, makeUci } = util);
  serve({ name: 'elephantops', version, language: 'TypeScript', homepage: 'https://github.com/lucaferranti/elephantops' },
    ['cxa-1999', 'cxa-2011', 'cxa-2020', 'axf'],
    ['legal_moves', 'perft', 'status', 'validate_fen'],
    answer);
});
