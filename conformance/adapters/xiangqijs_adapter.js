#!/usr/bin/env node
/*
 * xqspec protocol-2 adapter for xiangqi.js (lengyanyu258/xiangqi.js, a port of
 * chess.js to xiangqi), written from conformance/PROTOCOL.md.
 *
 * Written against xiangqi.js 0.4.3-dev, commit 41a5ecda10ba34a63def3202065a18211f30bf9a
 * (2023-08-31). There is no npm package of this project (`xiangqi.js` is not on
 * the registry; the `xiangqi` package there is an unrelated empty placeholder),
 * so use a clone of https://github.com/lengyanyu258/xiangqi.js.
 *
 * Run (from the repository root):
 *   git clone https://github.com/lengyanyu258/xiangqi.js /tmp/xiangqi.js
 *   XIANGQI_JS=/tmp/xiangqi.js xqspec conform \
 *       --adapter "node conformance/adapters/xiangqijs_adapter.js"
 * XIANGQI_JS is the path of the module file (xiangqi.js) or of the package
 * directory; without it the adapter falls back to require('xiangqi.js').
 * XIANGQI_JS_PERFT_NODES overrides the perft node budget (limits.perft_nodes,
 * default 2,000,000 positions: about 3 s from the start position, 8 s in sparse
 * endgames, under the runner's default 10 s --timeout; raise both together).
 * XIANGQI_JS_PERFT_MS is a wall-clock guard under the runner's time limit
 * (default: half of limits.timeout_ms from the runner's hello, else 9000):
 * a perft still running then is answered `unsupported` (a busy machine can
 * slow the library below its usual 250,000-650,000 positions a second).
 *
 * What the adapter does and does not do: it only translates. Every answer comes
 * from the library (load/validate_fen, move, moves, in_check, in_checkmate,
 * in_stalemate); the adapter adds no rule logic. The translations are:
 *  - FEN side to move: the protocol's `w` is written `r` for the library (its
 *    FEN uses `r`/`b` and refuses `w`); nothing else of the FEN is touched.
 *  - validate_fen error numbers are mapped to the protocol's reject kinds; an
 *    error the library does not pin down (wrong number of fields, a `-` field
 *    that is not `-`) is answered with the family `fen` alone.
 *  - The library's move() answers null both for text that is not a move and
 *    for an illegal move, so a refused move is rejected with the family `move`
 *    (and a refused notation text with the family `notation`).
 *  - perft recurses over moves()/move()/undo(), the last ply counted as the
 *    length of moves(). The library's own perft() is not used: it tests the
 *    wrong general after each move (see reasons/xiangqi.js.txt).
 * Queries: legal_moves, perft, status, validate_fen, parse_move (ICCS only,
 * through move(text, {sloppy: true})), format_move (ICCS only: the library's
 * move_to_iccs). Everything else is answered `unsupported`.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

const { parseRequest, send } = require(path.join(__dirname, 'protocol_session.js'));

const PERFT_NODES = Number(process.env.XIANGQI_JS_PERFT_NODES) > 0
  ? Math.floor(Number(process.env.XIANGQI_JS_PERFT_NODES)) : 2000000;
// The wall-clock guard: XIANGQI_JS_PERFT_MS, else half the runner's time limit from its
// hello (limits.timeout_ms, PROTOCOL.md §2.1), else 9000 ms.
let PERFT_MS = Number(process.env.XIANGQI_JS_PERFT_MS) > 0
  ? Number(process.env.XIANGQI_JS_PERFT_MS) : 9000;

// ---------------------------------------------------------------------------
// Loading the library

let Xiangqi = null;
let loadError = null;
let libVersion = 'unknown';

function gitCommit(dir) {
  try {
    const gitDir = path.join(dir, '.git');
    let head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (head.startsWith('ref: ')) {
      const ref = head.slice(5);
      const refFile = path.join(gitDir, ref);
      if (fs.existsSync(refFile)) return fs.readFileSync(refFile, 'utf8').trim();
      const packed = fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
      for (const line of packed.split('\n')) {
        const [sha, name] = line.split(' ');
        if (name === ref) return sha;
      }
      return null;
    }
    return head;
  } catch (e) {
    return null;
  }
}

(function loadLibrary() {
  const spec = process.env.XIANGQI_JS;
  let target = 'xiangqi.js';
  let dir = null;
  try {
    if (spec) {
      target = path.resolve(spec);
      dir = fs.statSync(target).isDirectory() ? target : path.dirname(target);
    } else {
      try { dir = path.dirname(require.resolve('xiangqi.js/package.json')); } catch (e) { /* no package.json */ }
    }
    const mod = require(target);
    Xiangqi = mod.Xiangqi || (typeof mod === 'function' ? mod : mod.default);
    if (typeof Xiangqi !== 'function') throw new Error(`${target} exports no Xiangqi constructor`);
    if (dir) {
      try {
        libVersion = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version || libVersion;
      } catch (e) { /* version stays unknown */ }
      const sha = gitCommit(dir);
      if (sha) libVersion += '+' + sha.slice(0, 12);
    }
  } catch (e) {
    loadError = `cannot load xiangqi.js from ${target} (set XIANGQI_JS): ${e && e.message}`;
    process.stderr.write(loadError + '\n');
  }
}());

// ---------------------------------------------------------------------------
// Translations between the protocol and the library

// The library's validate_fen error numbers (xiangqi.js validate_fen) → reject kinds.
function fenKind(errorNumber) {
  switch (errorNumber) {
    case 2: case 3: return 'fen.counters';          // move number / half move counter
    case 6: return 'fen.side_to_move';
    case 7: case 8: case 10: return 'fen.board_shape'; // not 10 rows / consecutive digits / row sum
    case 9: return 'fen.syntax';                    // invalid piece character
    default:
      if (errorNumber >= 11 && errorNumber <= 17) return 'fen.piece_count';
      if (errorNumber >= 18 && errorNumber <= 25) return 'fen.piece_placement';
      return 'fen';                                 // 1: not six fields; 4, 5: `-` fields
  }
}

// The protocol writes Red to move `w`; the library only knows `r`.
function toLibFen(fen) {
  return fen.replace(/^(\s*\S*\s+)w(?=\s|$)/, '$1r');
}

function reject(kind, message) {
  return { reject: message ? { kind, message } : { kind } };
}

function unsupported(reason) {
  return { unsupported: { reason } };
}

// Set up the position of `inp.fen` after `inp.moves`; returns {game} or {answer}.
function setUp(inp, withMoves) {
  const fen = inp.fen;
  if (typeof fen !== 'string') return { answer: reject('fen', 'fen is not a string') };
  const libFen = toLibFen(fen);
  const game = new Xiangqi();
  if (!game.load(libFen)) {
    const v = game.validate_fen(libFen);
    return { answer: reject(fenKind(v.error_number), `xiangqi.js validate_fen: ${v.error} (error ${v.error_number})`) };
  }
  if (withMoves) {
    const moves = inp.moves === undefined ? [] : inp.moves;
    if (!Array.isArray(moves)) return { answer: reject('move', 'moves is not a list') };
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i];
      const made = typeof m === 'string' ? game.move(m) : null;
      if (!made) {
        return { answer: reject('move', `moves[${i}] ${JSON.stringify(m)}: refused by xiangqi.js move()`) };
      }
    }
  }
  return { game };
}

class BudgetExceeded extends Error {}
class TimeExceeded extends Error {}

// Number of legal move sequences of exactly `depth` plies, over the library's moves.
function perft(game, depth, counter) {
  const moves = game.moves();
  counter.visited += moves.length;
  if (counter.visited > counter.budget) throw new BudgetExceeded();
  if (Date.now() > counter.deadline) throw new TimeExceeded();
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const m of moves) {
    if (!game.move(m)) throw new Error(`xiangqi.js move() refused its own move ${m}`);
    nodes += perft(game, depth - 1, counter);
    game.undo();
  }
  return nodes;
}

const ICCS_NOTATIONS = new Set(['iccs', 'iccs-upper']);

function answer(query, inp) {
  if (inp === null || typeof inp !== 'object') inp = {};
  switch (query) {
    case 'legal_moves': {
      const s = setUp(inp, true);
      if (s.answer) return s.answer;
      return { result: { moves: s.game.moves() } };
    }
    case 'perft': {
      const depth = inp.depth;
      if (!Number.isInteger(depth) || depth < 0) return { error: { message: `depth ${JSON.stringify(depth)} is not a non-negative integer` } };
      const s = setUp(inp, true);
      if (s.answer) return s.answer;
      if (depth === 0) return { result: { nodes: 1 } };
      const counter = { visited: 0, budget: PERFT_NODES, deadline: Date.now() + PERFT_MS };
      try {
        return { result: { nodes: perft(s.game, depth, counter) } };
      } catch (e) {
        if (e instanceof BudgetExceeded) {
          return unsupported(`perft depth ${depth} stopped: more than ${PERFT_NODES} positions to visit (the node budget), limits.perft_nodes`);
        }
        if (e instanceof TimeExceeded) {
          return unsupported(`perft depth ${depth} stopped after ${PERFT_MS} ms (${counter.visited} positions visited), half the runner's time limit (limits.timeout_ms) or XIANGQI_JS_PERFT_MS`);
        }
        throw e;
      }
    }
    case 'status': {
      const s = setUp(inp, true);
      if (s.answer) return s.answer;
      const g = s.game;
      let status;
      if (g.in_checkmate()) status = 'checkmate';
      else if (g.in_stalemate()) status = 'stalemate';
      else if (g.in_check()) status = 'check';
      else status = 'ongoing';
      return { result: { status } };
    }
    case 'validate_fen': {
      const fen = inp.fen;
      if (typeof fen !== 'string') return reject('fen', 'fen is not a string');
      const libFen = toLibFen(fen);
      const v = new Xiangqi().validate_fen(libFen);
      if (v.valid) return { result: { valid: true } };
      return reject(fenKind(v.error_number), `xiangqi.js validate_fen: ${v.error} (error ${v.error_number})`);
    }
    case 'parse_move': {
      if (!ICCS_NOTATIONS.has(inp.notation)) return unsupported(`xiangqi.js reads ICCS only, not ${inp.notation}`);
      const s = setUp(inp, true);
      if (s.answer) return s.answer;
      const made = typeof inp.text === 'string' ? s.game.move(inp.text, { sloppy: true }) : null;
      if (!made) return reject('notation', `xiangqi.js move(${JSON.stringify(inp.text)}, {sloppy: true}) found no move`);
      return { result: { move: made.iccs } };
    }
    case 'format_move': {
      if (inp.notation !== 'iccs') return unsupported(`xiangqi.js writes lower-case ICCS only, not ${inp.notation}`);
      const s = setUp(inp, true);
      if (s.answer) return s.answer;
      const made = typeof inp.move === 'string' ? s.game.move(inp.move) : null;
      if (!made) return reject('move', `xiangqi.js move(${JSON.stringify(inp.move)}) refused the move`);
      return { result: { text: made.iccs } };
    }
    default:
      return unsupported(`xiangqi.js has no ${query} query`);
  }
}

// ---------------------------------------------------------------------------
// The session

function hello(req) {
  if (loadError) {
    send({ type: 'error', message: loadError });
    return false;
  }
  const limit = req.limits && Number(req.limits.timeout_ms);
  if (!(Number(process.env.XIANGQI_JS_PERFT_MS) > 0) && limit > 0) PERFT_MS = limit / 2;
  const theirs = req.protocol;
  if (theirs !== 1 && theirs !== 2) {
    send({ type: 'error', message: `protocol ${JSON.stringify(theirs)} not spoken; this adapter speaks 2 (and 1)` });
    return false;
  }
  send({
    type: 'hello',
    protocol: theirs,
    implementation: {
      name: 'xiangqi.js',
      version: libVersion,
      language: 'JavaScript',
      homepage: 'https://github.com/lengyanyu258/xiangqi.js',
    },
    editions: ['cxa-1999', 'cxa-2011', 'cxa-2020', 'axf'],
    queries: ['legal_moves', 'perft', 'status', 'validate_fen', 'parse_move', 'format_move'],
    limits: { perft_nodes: PERFT_NODES },
  });
  return true;
}

function finish(status) {
  process.stdout.write('', () => process.exit(status));
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
let stopped = false;

rl.on('line', (line) => {
  if (stopped || !line.trim()) return;
  const req = parseRequest(line);
  if (req === null) return;
  const id = 'id' in req ? req.id : null;
  try {
    if (req.type === 'hello') {
      if (!hello(req)) { stopped = true; rl.close(); finish(1); }
    } else if (req.type === 'stop') {
      stopped = true;
      rl.close();
      finish(0);
    } else if (req.type === 'ask') {
      let out;
      try {
        out = answer(req.query, req.input);
      } catch (e) {
        out = { error: { message: `xiangqi.js threw: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : String(e)}` } };
      }
      send(Object.assign({ id }, out));
    } else {
      send({ id, error: { message: `unknown request type ${JSON.stringify(req.type)}` } });
    }
  } catch (e) {
    send({ id, error: { message: `adapter failure: ${e && e.message}` } });
  }
});

rl.on('close', () => {
  if (!stopped) finish(0);
});
