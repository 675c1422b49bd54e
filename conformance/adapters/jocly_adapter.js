#!/usr/bin/env node
/*
 * Jocly (npm `jocly`, a board-games library whose `xiangqi` game has its own move generator
 * and AI) under the xqspec conformance protocol, version 2 (see ../PROTOCOL.md).
 *
 *     npm install jocly                  # in any folder Node's module lookup reaches,
 *     NODE_PATH=$PWD/node_modules xqspec conform \
 *         --adapter "node conformance/adapters/jocly_adapter.js"
 *
 * An adapter for implementers and for `measure.py`, run by hand; the repository's tests do
 * not use it. It only translates; every answer comes from the library, through the match
 * object of its node.js API (`createMatch('xiangqi')`, `load`, `getPossibleMoves`,
 * `getMoveString`, `applyMove`) and, where that API has no call, the board's own methods:
 *  - `legal_moves`: `getPossibleMoves()`, written by `getMoveString()` (ICCS, ranks 0–9).
 *    A move of the input is played when it is one of those moves (the library's
 *    `pickMove` would take the nearest one), else it is rejected as `move.illegal`.
 *  - `status`: no move left is checkmate when in check, else stalemate; in check is the
 *    board's `check` (set by the move played), or, for a position set up from a FEN, the
 *    board's `cbGetAttackers` on the general of the side to move.
 *  - `perft`: counted with the board's `GenerateMoves` and `ApplyMove` on copies
 *    (`CopyFrom`), declined (`unsupported`) when it would outlast the runner's time limit.
 * Jocly writes horses and elephants `h`/`e` in its FEN (`rheakaehr`) and refuses `n`/`b`, so
 * the board field's letters are translated; nothing else of the FEN is touched. Jocly does
 * not validate a FEN (it reads what it can), so `validate_fen` is not declared.
 * Editions: all four (the movement rules are the same in all of them).
 */
'use strict';

const path = require('path');
const { Rejected, Unsupported, Budget, serve } = require(path.join(__dirname, 'protocol_session.js'));
const Jocly = require('jocly');

const ICCS = /^[a-i][0-9][a-i][0-9]$/;

const toJocly = (fen) => {
  const [board, ...rest] = String(fen).split(' ');
  return [board.replace(/[nNbB]/g, (c) => ({ n: 'h', N: 'H', b: 'e', B: 'E' })[c]), ...rest].join(' ');
};

let match = null;

async function played(inp) {
  try {
    await match.load({ initialBoard: toJocly(inp.fen), playedMoves: [] });
  } catch (e) {
    throw new Rejected('fen', `Jocly load(): ${e.message}`);
  }
  const moves = inp.moves || [];
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    if (typeof m !== 'string' || !ICCS.test(m)) throw new Rejected('move.syntax', `move ${i + 1} is not ICCS`);
    const legal = await match.getPossibleMoves();
    const texts = await match.getMoveString(legal);
    const at = texts.indexOf(m);
    if (at < 0) throw new Rejected('move.illegal', `move ${i + 1} (${m}) is not among getPossibleMoves()`);
    await match.applyMove(legal[at]);
  }
  return match.game;
}

function inCheck(g) {
  const b = g.mBoard;
  if (b.check !== undefined) return b.check;
  return b.cbGetAttackers(g, b.kings[b.mWho], b.mWho, true).length > 0;
}

function perft(g, b, depth, budget) {
  budget.spend();
  b.GenerateMoves(g);
  const moves = b.mMoves;
  if (depth === 1) return moves.length;
  let n = 0;
  for (const mv of moves) {
    const next = new g.mBoardClass();
    next.Init(g);
    next.CopyFrom(b);
    next.ApplyMove(g, mv);
    next.mWho = -b.mWho;
    next.mMoves = [];
    n += perft(g, next, depth - 1, budget);
  }
  return n;
}

async function answer(edition, query, inp, limits) {
  switch (query) {
    case 'legal_moves': {
      await played(inp);
      return { result: { moves: await match.getMoveString(await match.getPossibleMoves()) } };
    }
    case 'status': {
      const g = await played(inp);
      const n = (await match.getPossibleMoves()).length;
      const check = inCheck(g);
      const status = n ? (check ? 'check' : 'ongoing') : (check ? 'checkmate' : 'stalemate');
      return { result: { status } };
    }
    case 'perft': {
      const g = await played(inp);
      if (inp.depth === 0) return { result: { nodes: 1 } };
      const budget = new Budget(inp.depth, Date.now() + 0.5 * limits.timeout_ms);
      return { result: { nodes: perft(g, g.mBoard, inp.depth, budget) } };
    }
    default:
      throw new Unsupported(`Jocly has no ${query}`);
  }
}

const version = require('jocly/package.json').version;
Jocly.createMatch('xiangqi').then((m) => {
  match = m;
  serve({ name: 'Jocly', version, language: 'JavaScript', homepage: 'https://github.com/mi-g/jocly' },
    ['cxa-1999', 'cxa-2011', 'cxa-2020', 'axf'],
    ['legal_moves', 'perft', 'status'],
    answer);
});
