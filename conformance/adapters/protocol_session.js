/*
 * The protocol-2 session (conformance/PROTOCOL.md §2) shared by the Node.js adapters of this
 * folder that are written on it (elephantops_adapter.js, jocly_adapter.js): read requests
 * line by line, answer `hello` with what the adapter declares, put each `ask` to the
 * adapter's `answer(edition, query, input, limits)` (which may return a promise), stop at
 * `stop`. Asks are answered one at a time, in order.
 *
 * `answer` returns the answer's field (`{result: {...}}`), or throws `new Rejected(kind,
 * message)` for a rejection or `new Unsupported(reason)` for a query it declines; any other
 * exception is the library's (or the adapter's) failure, answered as an `error`, and the
 * session goes on. `limits.timeout_ms` is the runner's time limit for one answer when its
 * hello gave one (`limits` in the runner's hello), else 10,000 ms. An adapter that keeps a
 * session of its own (xiangqijs_adapter.js) reads its lines with `parseRequest` and answers
 * with `send`.
 */
'use strict';

const readline = require('readline');

class Rejected extends Error {
  constructor(kind, message) {
    super(message || '');
    this.kind = kind;
  }
}

class Unsupported extends Error {}

/** A perft's budget: `spend()` once per move generation; past `deadline` (ms since the
 * epoch; the adapters give it half the runner's time limit, as protocol_session.py does) it
 * throws `Unsupported`, so that a perft too big for the time limit is declined, not timed
 * out. */
class Budget {
  constructor(depth, deadline) {
    this.depth = depth;
    this.deadline = deadline;
    this.spent = 0;
  }

  spend() {
    this.spent += 1;
    if ((this.spent & 63) === 0 && Date.now() > this.deadline) {
      throw new Unsupported(`perft ${this.depth} stopped after ${this.spent} move generations: `
        + 'the time limit (limits.timeout_ms) would pass first');
    }
  }
}

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

/** The request object on one line; `null` after answering, with an error, a line that is
 * not a JSON object. */
function parseRequest(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    send({ id: null, error: { message: `not JSON: ${e.message}` } });
    return null;
  }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    send({ id: null, error: { message: 'not a JSON object' } });
    return null;
  }
  return req;
}

async function replyTo(req, answer, limits) {
  try {
    return Object.assign({ id: req.id }, await answer(req.edition, req.query, req.input || {}, limits));
  } catch (e) {
    if (e instanceof Rejected) return { id: req.id, reject: { kind: e.kind, message: e.message } };
    if (e instanceof Unsupported) return { id: req.id, unsupported: { reason: e.message } };
    const where = e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : String(e);
    return { id: req.id, error: { message: `threw: ${where}` } };
  }
}

/** Runs the session: `implementation` is the hello's object (name, version …). */
function serve(implementation, editions, queries, answer) {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  const limits = { timeout_ms: 10000 };
  let chain = Promise.resolve();
  rl.on('line', (line) => {
    if (!line.trim()) return;
    chain = chain.then(async () => {
      const req = parseRequest(line);
      if (req === null) {
        return;
      } else if (req.type === 'hello') {
        if (req.protocol !== 2) {
          send({ type: 'error', message: 'this adapter speaks protocol 2' });
          process.exit(1);
        }
        const ms = req.limits && Number(req.limits.timeout_ms);
        if (ms > 0) limits.timeout_ms = ms;
        send({ type: 'hello', protocol: 2, implementation, editions, queries });
      } else if (req.type === 'stop') {
        process.stdout.write('', () => process.exit(0));
      } else {
        send(await replyTo(req, answer, limits));
      }
    });
  });
}

module.exports = { Rejected, Unsupported, Budget, parseRequest, send, serve };
