// xqspec web: the arbiter's desk. Plain JavaScript, no build step; every rule answer
// comes from the server's API (PROTOCOL.md §9), this file only asks and shows.
"use strict";

const $ = (id) => document.getElementById(id);

// Board geometry of src/diagram/mod.rs: points MARGIN px from the edge, CELL px apart.
const MARGIN = 44, CELL = 48;
const FILES = "abcdefghi";

// Labels of the page, each in English and Chinese ({en, zh}, as the rule words are). Rule
// words (results, decisions, classes, patterns, verdicts, events …) are never here: they come
// from the answers, each code with its `words: {field: {en, zh}}` (spec/words.yaml and the
// rule set's 棋例 data).
const T = {
  title: { en: "Arbiter's desk", zh: "裁判台" },
  ruleset: { en: "Rule set", zh: "规则" },
  overlay: { en: "Event rules", zh: "补充规定" },
  notation: { en: "Notation", zh: "记谱" },
  no_overlay: { en: "none", zh: "无" },
  ply: { en: "ply", zh: "半回合" },
  play: { en: "Play", zh: "走" },
  flip: { en: "Flip", zh: "翻转棋盘" },
  setup: { en: "Set up a position", zh: "摆局面" },
  start: { en: "Start position", zh: "初始局面" },
  edit: { en: "Edit the board", zh: "编辑棋盘" },
  use_fen: { en: "Use FEN", zh: "用 FEN" },
  editor_help: { en: "Pick a piece, then click points to place it; the eraser clears a point.", zh: "先选棋子，再点棋盘上的点放下；橡皮清除一点。" },
  side_to_move: { en: "Side to move", zh: "轮走方" },
  red: { en: "Red", zh: "红方" },
  black: { en: "Black", zh: "黑方" },
  clear: { en: "Clear", zh: "清空" },
  done: { en: "Use this position", zh: "用此局面" },
  record: { en: "Game record", zh: "棋谱" },
  load: { en: "Load", zh: "读入" },
  game: { en: "Game", zh: "对局" },
  headers: { en: "The record", zh: "棋谱信息" },
  moves_events: { en: "Moves and the arbiter's events", zh: "着法与裁判记录" },
  decision: { en: "The decision", zh: "裁定" },
  ruling: { en: "棋例 ruling (repetition)", zh: "棋例裁决" },
  ruling_upto: { en: (p) => `棋例 ruling (repetition) of the moves up to ply ${p}`, zh: (p) => `第 ${p} 个半回合止的棋例裁决` },
  at_ply: { en: (p) => `At ply ${p}`, zh: (p) => `第 ${p} 个半回合时` },
  sheet: { en: "Ruling sheet (SVG)", zh: "裁决图 (SVG)" },
  copy_link: { en: "Copy link", zh: "复制链接" },
  fen: { en: "FEN", zh: "FEN" },
  pgn: { en: "PGN", zh: "PGN" },
  print: { en: "Print the decision", zh: "打印裁定" },
  copy: { en: "Copy", zh: "复制" },
  save: { en: "Save", zh: "保存" },
  copied: { en: "Copied.", zh: "已复制。" },
  link_copied: { en: "The link to this page, its game and its events is copied.", zh: "本页链接（对局与裁判记录）已复制。" },
  footer: { en: "Answers from xqspec's reference implementation; the API is documented in PROTOCOL.md §9.", zh: "答案来自 xqspec 的参考实现；接口见 PROTOCOL.md §9。" },
  print_title: { en: "The arbiter's decision", zh: "裁判裁定书" },
  signature: { en: "Arbiter", zh: "裁判员签名" },
  signed_date: { en: "Date", zh: "日期" },
  to_move: { en: (s) => `${s} to move`, zh: (s) => `${s}走` },
  go_to: { en: (p) => `Go to ply ${p}`, zh: (p) => `转到第 ${p} 个半回合` },
  no_moves: { en: "No moves yet: set up a position, play, or load a record.", zh: "尚无着法：请摆局面、走棋或读入棋谱。" },
  no_end: { en: (n, e) => `No end by the rules in these ${n} ${n === 1 ? "ply" : "plies"}${e ? ` and ${e} ${e === 1 ? "event" : "events"}` : ""}: the game goes on.`, zh: (n, e) => `这 ${n} 个半回合${e ? `及 ${e} 项记录` : ""}内按规则未终局，对局继续。` },
  ended_after: { en: (p) => `ended after ply ${p}`, zh: (p) => `第 ${p} 个半回合后终局` },
  goes_on: { en: (l, a, e) => `The record goes on after the end${l ? ` for ${l} more ${l === 1 ? "ply" : "plies"}${a ? ` (from ply ${a})` : ""}` : ""}${e ? `${l ? " and" : " with"} ${e} ${e === 1 ? "event" : "events"}` : ""}: not judged.`, zh: (l, a, e) => `棋谱在终局后${l ? `还有 ${l} 个半回合${a ? `（自第 ${a} 个起）` : ""}` : ""}${e ? `${l ? "及" : "还有"} ${e} 项记录` : ""}，不予裁定。` },
  result: { en: "Result", zh: "结果" },
  how: { en: "How", zh: "方式" },
  clause: { en: "Clause", zh: "条款" },
  by: { en: "Repetition", zh: "重复局面" },
  basis: { en: "Rests on", zh: "依据" },
  ended_by_event: { en: "By the event", zh: "所因记录" },
  state: { en: "The game", zh: "对局" },
  position: { en: "Position", zh: "局面" },
  repeated: { en: "Positions repeated", zh: "重复局面" },
  stood: { en: (n, p) => `stood ${n} times (first after ply ${p})`, zh: (n, p) => `出现 ${n} 次（首次在第 ${p} 个半回合后）` },
  none: { en: "none", zh: "无" },
  orders: { en: "Ordered to change", zh: "须变着" },
  next: { en: "Next ruling", zh: "下次裁决" },
  limit: { en: "Natural move limit", zh: "自然限着" },
  limit_text: { en: (r, l, left) => `${r} of ${l} rounds counted, ${left} to go`, zh: (r, l, left) => `已计 ${r} / ${l} 回合，尚余 ${left}` },
  fouls: { en: "Fouls", zh: "犯规" },
  fouls_text: { en: (r, b) => `Red ${r}, Black ${b}`, zh: (r, b) => `红方 ${r} 次，黑方 ${b} 次` },
  check_at: { en: (sq) => `the general on ${sq} is in check`, zh: (sq) => `${sq} 的将帅被将军` },
  over_at: { en: (p) => `the game ended after ply ${p}`, zh: (p) => `对局已于第 ${p} 个半回合后终局` },
  after_end_ply: { en: (p) => `this ply comes after the end (ply ${p}): not judged`, zh: (p) => `此着在终局（第 ${p} 个半回合）之后，不予裁定` },
  board_rules: { en: (c, p, t) => `If the last ${c} plies are played again, after ply ${p} a position stands for the ${ordinal(t)} time and the board rules`, zh: (c, p, t) => `若重走最后 ${c} 个半回合，第 ${p} 个半回合后某局面第 ${t} 次出现，即按棋例裁决` },
  next_decides: { en: "The next repetition of this position decides", zh: "此局面再重复一次即作裁决" },
  order_now: { en: (s) => `${s} is ordered to change now`, zh: (s) => `${s}已被判须变着` },
  order_later: { en: (s, p) => `The ruling says so, but the order comes only after ply ${p}`, zh: (s, p) => `裁决如此，但须到第 ${p} 个半回合后才判变着` },
  order_no: { en: "The ruling says so; the board has not ruled it (no position has stood often enough)", zh: "裁决如此；局面重复次数未到，尚未判定" },
  judged: { en: (a, b, how) => `Plies ${a}–${b} judged (${how}).`, zh: (a, b, how) => `裁决第 ${a}–${b} 个半回合（${how}）。` },
  no_cycle: { en: "The moves neither repeat a position nor form a repeating pattern.", zh: "这些着法既未重复局面，也未形成循环。" },
  side: { en: "side", zh: "方" },
  move: { en: "move", zh: "着法" },
  class: { en: "class", zh: "类别" },
  targets: { en: "targets", zh: "目标" },
  reason: { en: "reason", zh: "理由" },
  article: { en: "art.", zh: "条" },
  pattern: { en: "Pattern", zh: "循环" },
  verdict: { en: "Verdict", zh: "裁决" },
  clauses: { en: "Clauses used", zh: "所用条款" },
  readings: { en: "readings", zh: "解读" },
  summary: { en: "Summary", zh: "概要" },
  provenance: { en: "Provenance", zh: "出处" },
  source: { en: "Source", zh: "来源" },
  inherited: { en: "Inherited from", zh: "沿用自" },
  data: { en: "Data", zh: "数据" },
  loaded: { en: (n, e) => `${n} ${n === 1 ? "game" : "games"}, read as ${e}.`, zh: (n, e) => `读入 ${n} 局（编码 ${e}）。` },
  not_a_game: { en: "not a game", zh: "不是对局" },
  not_legal: { en: (t) => `“${t}” is not a legal move here`, zh: (t) => `“${t}” 此时不是合法着法` },
  bad_fen: { en: "not a position the rules allow", zh: "规则不允许的局面" },
  editor_on: { en: "Editing: click points to place the piece chosen.", zh: "编辑中：点棋盘上的点放下所选棋子。" },
  add_after: { en: (p) => `Add after ply ${p}`, zh: (p) => `记在第 ${p} 个半回合后` },
  after_ply: { en: (p) => `after ply ${p}`, zh: (p) => `第 ${p} 个半回合后` },
  event_n: { en: (n) => `event ${n}`, zh: (n) => `第 ${n} 项记录` },
  not_judged: { en: "not judged (after the end)", zh: "终局之后，不予裁定" },
  note_only: { en: "recorded; no query judges it", zh: "仅作记录，不影响胜负判定" },
  clock_text: { en: (r, b) => `Red ${r}, Black ${b}`, zh: (r, b) => `红方 ${r}，黑方 ${b}` },
  points_needed: { en: "Give the points touched, like e3 b9.", zh: "请写出所摸棋子的位置，如 e3 b9。" },
  clock_needed: { en: "Give both clocks, like 1:02:03.", zh: "请写出双方钟面时间，如 1:02:03。" },
  time_needed: { en: "Give a time, like 10:00.", zh: "请写出时间，如 10:00。" },
  move_needed: { en: "Give the move, like h0h5.", zh: "请写出着法，如 h0h5。" },
  head_event: { en: "Event", zh: "赛事" },
  head_site: { en: "Site", zh: "地点" },
  head_date: { en: "Date", zh: "日期" },
  head_round: { en: "Round", zh: "轮次" },
  head_red: { en: "Red", zh: "红方" },
  head_black: { en: "Black", zh: "黑方" },
  head_result: { en: "Result recorded", zh: "棋谱所记结果" },
  print_rules: { en: (r, o) => `Rule set: ${r}. Event rules: ${o}.`, zh: (r, o) => `规则：${r}。补充规定：${o}。` },
  diff_title: { en: "How two rule sets differ", zh: "两套规则的差异" },
  diff_from: { en: "From", zh: "从" },
  diff_to: { en: "to", zh: "到" },
  diff_show: { en: "Show the differences", zh: "显示差异" },
  diff_changes: { en: "What changed", zh: "改动" },
  diff_counts: { en: "Clause pairs", zh: "条款对" },
  diff_renumbered: { en: "Renumbered only", zh: "仅改条号" },
  diff_behaviour: { en: "Answers that differ", zh: "答案不同的用例" },
  diff_wait: { en: "Comparing the rule sets…", zh: "正在比较…" },
  diff_none: { en: "No rule fact differs.", zh: "规则事实没有差异。" },
  diff_assumed: { en: (id, n, all) => `${id}: ${n} of its ${all} clauses are assumed (inherited or inferred: its text is not known).`, zh: (id, n, all) => `${id}：${all} 条中 ${n} 条为推定（沿用或推断，原文未见）。` }, // id: HTML
  diff_caused: { en: "Caused by", zh: "原因" },
  diff_not_encoded: { en: "Not encoded in one rule set", zh: "一方未编码" },
  diff_answer: { en: "answer", zh: "答案" },
  diff_clause: { en: "clause", zh: "条款" },
  diff_unencoded: { en: "Known differences no clause encodes (not decidable by a program, or too little of the text known):", zh: "已知但未编码的差异（程序无法判定，或原文所知太少）：" },
};

// The kinds of event the page offers (the `outcome` query's, and the two notes no query
// judges); their names come from the spec's words (`event`, `note`).
const EVENT_KINDS = ["claim_natural_limit", "offer_draw", "accept_draw", "decline_draw", "touch", "flag", "clock_reading",
  "illegal_move", "late", "colours_reversed", "disturb", "stop_clock", "press_without_move", "player_rules", "refuse_rules",
  "resign", "warning"];
// The kinds that take one more value (a move, a time), its placeholder, and whether a side goes with it.
const VALUE_KINDS = { illegal_move: ["h0h5", false], late: ["10:00", true], colours_reversed: ["6:00", false] };
// `1:02:03`, `10:00` or `45` as seconds (NaN when it is none of these).
const seconds = (t) => /^\d+(:\d{1,2}){0,2}$/.test(t) ? t.split(":").reduce((a, x) => a * 60 + Number(x), 0) : NaN;
const NOTE_KINDS = ["warning", "clock_reading"];

const S = {
  lang: "en", rulesets: [], overlays: [], words: {}, fen: "startpos", moves: [], texts: [], ply: 0,
  events: [], tags: [], legal: [], from: null, flip: false, state: null, games: [], game: null, upload: null, diff: null,
  editing: false, editorBoard: [], editorPiece: "R",
};

const ordinal = (n) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;
const t = (key, ...args) => {
  const v = T[key]?.[S.lang] ?? T[key]?.en ?? key;
  return typeof v === "function" ? v(...args) : v;
};
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const sideLabel = (s) => t(s === "red" || s === "w" ? "red" : "black");

// A rule word as HTML: the words of `w` ({en, zh}) in the page's language; in Chinese a
// word the data has only in English is shown marked (`untranslated`), never silently.
function say(w, code) {
  const mine = w && w[S.lang];
  if (mine) return esc(mine);
  const en = (w && w.en) || String(code ?? "").replaceAll("_", " ");
  return S.lang === "en" ? esc(en) : `<span lang="en" class="untranslated">${esc(en)}</span>`;
}
// The words of an answer object's `field`.
const W = (obj, field) => (obj ? say(obj.words && obj.words[field], obj[field]) : "");
// The words of a code of the spec's groups (`/api/rulesets` words).
const word = (group, code) => say(S.words[group] && S.words[group][code], code);

// A clause cited: its article in words, the clause id a link to its summary and provenance.
function cite(id, article) {
  if (!id) return "";
  if (S.lang === "zh") {
    return article ? `<a class="clause" data-clause="${esc(id)}" title="${esc(id)}">第 ${esc(article)} 条</a>`
      : `<a class="clause" data-clause="${esc(id)}" translate="no">${esc(id)}</a>`;
  }
  return `<a class="clause" data-clause="${esc(id)}" translate="no">${esc(id)}</a>${article ? ` (${t("article")} ${esc(article)})` : ""}`;
}

// Parentheses as each language writes them.
const paren = (html) => (S.lang === "zh" ? `（${html}）` : ` (${html})`);
// A clause cited inside parentheses: `result.time, art. 4.1.6`.
function citeIn(id, article) {
  if (!id || S.lang === "zh" || !article) return cite(id, article);
  return `<a class="clause" data-clause="${esc(id)}" translate="no">${esc(id)}</a>, ${t("article")} ${esc(article)}`;
}

// A decision of the arbiter in words: `Red: must change (result.change_refused, art. 4.1.5)`.
function decisionText(r) {
  const side = r.side ? (S.lang === "zh" ? W(r, "side") : `${W(r, "side")}: `) : "";
  return `${side}${W(r, "decision")}${r.clause ? paren(citeIn(r.clause, r.article)) : ""}`;
}

// ---- messages, each where its cause is -------------------------------------------------

// One message in its own place: `el` shows `text` (or hides when none); `kind` is `error`
// or `note`.
function say_in(el, text, kind = "error") {
  const e = typeof el === "string" ? $(el) : el;
  e.hidden = !text;
  e.textContent = text || "";
  e.classList.toggle("error", kind === "error");
}
// The page's own failures (the server unreachable …): the banner, until dismissed.
function banner(text) {
  $("message").hidden = !text;
  $("message-text").textContent = text || "";
}
// Notes that stay until dismissed (an upload's report), in the list `el`: each `[html,
// kind]`.
function notes(el, items) {
  $(el).innerHTML = items.map(([html, kind]) =>
    `<p class="note ${kind}">${html} <button type="button" class="dismiss" aria-label="dismiss">×</button></p>`).join("");
}
// A text the server writes in English about a file (a remark, text that is no game): no rule
// word, shown marked in Chinese.
const prose = (text) => say({ en: text }, text);
document.addEventListener("click", (ev) => {
  const b = ev.target.closest(".dismiss");
  if (!b) return;
  if (b.dataset.dismiss) $(b.dataset.dismiss).hidden = true;
  else b.parentElement.remove();
});

// What went wrong with an answer, in one line, or null for a `result`.
function problem(a) {
  if (!a || a.result) return null;
  if (a.reject) return `${a.reject.kind}: ${a.reject.message}`;
  if (a.unsupported) return `unsupported: ${a.unsupported.reason}`;
  if (a.error) return a.error.message;
  return "unreadable answer";
}

async function post(path, body, raw = false) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": raw ? "application/octet-stream" : "application/json" },
    body: raw ? body : JSON.stringify(body),
  });
  const type = r.headers.get("Content-Type") || "";
  if (type.startsWith("image/svg")) return { svg: await r.text() };
  if (type.startsWith("application/x-chess-pgn")) return { pgn: await r.text() };
  return r.json();
}

function rules() {
  const o = S.overlays.find((x) => x.overlay === $("overlay").value && x.edition === $("edition").value);
  return o ? { edition: $("edition").value, overlay: o } : { edition: $("edition").value };
}
const game = (ply = S.ply) => ({ ...rules(), fen: S.fen, moves: S.moves.slice(0, ply) });
const ask = (query, input) => post("/api/ask", { ...rules(), query, input });
const stateBody = (events = S.events, ply = S.ply) => ({ ...rules(), fen: S.fen, moves: S.moves, events, ply });

// ---- the game ---------------------------------------------------------------------------

// A new game (or the same game changed): its moves in the notation, then the ply shown.
async function setGame(fen, moves, ply, events = S.events) {
  S.fen = fen;
  S.moves = moves;
  S.events = events.filter((e) => e.ply <= moves.length);
  await refreshLine();
  await goTo(ply);
}

async function refreshLine() {
  const a = await post("/api/line", { ...rules(), fen: S.fen, moves: S.moves, notation: $("notation").value });
  const why = problem(a);
  if (why) {
    banner(why);
    S.texts = S.moves.slice();
    return;
  }
  S.fen = a.result.line.fen;
  S.moves = a.result.line.plies.map((p) => p.move);
  S.texts = a.result.line.plies.map((p) => p.text);
}

async function goTo(ply) {
  S.ply = Math.max(0, Math.min(S.moves.length, ply));
  S.from = null;
  say_in("typed-error", "");
  const g = game();
  const [board, legal, state] = await Promise.all([
    post("/api/board", { ...g, flip: S.flip }),
    ask("legal_moves", { fen: g.fen, moves: g.moves }),
    post("/api/state", stateBody()),
  ]);
  if (board.svg) $("board").innerHTML = board.svg;
  else banner(problem(board));
  S.legal = legal.result ? legal.result.moves : [];
  S.state = state.result ? state.result.state : null;
  if (!S.state) banner(problem(state));
  render();
  keepInUrl();
  // When the page was first ready, in ms since navigation started (the browser test reads it).
  document.body.dataset.readyMs ??= Math.round(performance.now());
}

function render() {
  renderPoints();
  renderMoves();
  renderEvents();
  renderHeaders();
  renderEnd();
  renderStatus();
  renderRuling();
  renderToMove();
  renderPrintHead();
  $("ply").textContent = S.ply;
  $("plies").textContent = S.moves.length;
  $("event-add").textContent = t("add_after", S.ply);
}

async function play(move) {
  say_in("typed-error", "");
  await setGame(S.fen, S.moves.slice(0, S.ply).concat([move]), S.ply + 1, S.events.filter((e) => e.ply <= S.ply));
}

// ---- the page's state in its link -------------------------------------------------------

// Everything needed to reopen the page as it is: rule set, event rules, notation, language,
// orientation, the position, the moves, the ply shown, the events and the record's tags.
function keepInUrl() {
  const p = new URLSearchParams();
  p.set("r", $("edition").value);
  if ($("overlay").value) p.set("o", $("overlay").value);
  if ($("notation").value !== "chinese") p.set("n", $("notation").value);
  if (S.lang !== "en") p.set("l", S.lang);
  if (S.flip) p.set("flip", "1");
  if (S.fen !== startFen()) p.set("f", S.fen);
  if (S.moves.length) p.set("m", S.moves.join(" "));
  p.set("p", S.ply);
  if (S.events.length) p.set("e", JSON.stringify(S.events));
  if (S.tags.length) p.set("t", JSON.stringify(S.tags));
  history.replaceState(null, "", `#${p.toString()}`);
}
const startFen = () => "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

function fromUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (![...p.keys()].length) return null;
  const json = (k, d) => { try { return JSON.parse(p.get(k) || "null") ?? d; } catch { return d; } };
  return {
    r: p.get("r"), o: p.get("o"), n: p.get("n"), l: p.get("l"), flip: p.get("flip") === "1",
    fen: p.get("f") || "startpos", moves: (p.get("m") || "").split(" ").filter(Boolean),
    ply: +(p.get("p") ?? 0), events: json("e", []), tags: json("t", []),
  };
}

// ---- the board ------------------------------------------------------------------------

function renderPoints() {
  const svg = $("board").querySelector("svg");
  const pts = $("points");
  if (!svg) return;
  const w = +svg.getAttribute("width"), h = +svg.getAttribute("height");
  Object.assign(pts.style, {
    left: `${((MARGIN - CELL / 2) / w) * 100}%`, width: `${((9 * CELL) / w) * 100}%`,
    top: `${((MARGIN - CELL / 2) / h) * 100}%`, height: `${((10 * CELL) / h) * 100}%`,
  });
  pts.innerHTML = "";
  const check = S.state && S.state.at && S.state.ply === S.ply ? S.state.at.check : null;
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 9; col++) {
      const [f, rank] = S.flip ? [8 - col, row] : [col, 9 - row];
      const sq = FILES[f] + rank;
      const d = document.createElement("div");
      d.dataset.square = sq;
      if (S.editing) {
        const piece = S.editorBoard[(9 - rank) * 9 + f];
        d.textContent = piece ? glyph(piece) : "";
        d.className = piece ? (piece === piece.toUpperCase() ? "edit red" : "edit") : "edit";
      } else if (S.from === sq) d.className = "from";
      else if (S.from && S.legal.includes(S.from + sq)) d.className = "to";
      if (!S.editing && check === sq) {
        d.classList.add("check");
        d.title = t("check_at", sq);
      }
      d.onclick = () => clickPoint(sq);
      pts.appendChild(d);
    }
  }
}

function clickPoint(sq) {
  if (S.editing) return placePiece(sq);
  if (S.from && S.legal.includes(S.from + sq)) return play(S.from + sq);
  S.from = S.legal.some((m) => m.startsWith(sq)) && S.from !== sq ? sq : null;
  renderPoints();
}

// ---- the answers ----------------------------------------------------------------------

const endPly = () => (S.state && S.state.game.end ? S.state.game.end.ply : null);

function renderMoves() {
  const ol = $("moves");
  ol.innerHTML = "";
  const end = endPly();
  const marked = new Set(S.events.map((e) => e.ply));
  const start = S.fen.split(" ")[1] === "b" ? 1 : 0; // Black to move first: the first line has one move
  for (let i = -start; i < S.moves.length; i += 2) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="n">${(i + start) / 2 + 1}.</span>`;
    for (const k of [i, i + 1]) {
      const span = document.createElement("span");
      if (k >= 0 && k < S.moves.length) {
        span.className = "mv";
        span.textContent = S.texts[k] || S.moves[k];
        span.title = `${t("ply")} ${k + 1} · ${S.moves[k]}`;
        span.dataset.ply = k + 1;
        if (k + 1 === S.ply) span.classList.add("current");
        if (end && k + 1 === end) span.classList.add("end");
        if (end != null && k + 1 > end) span.classList.add("after-end");
        if (marked.has(k + 1)) span.classList.add("has-event");
        span.onclick = () => goTo(k + 1);
      } else if (k < 0) span.textContent = "…";
      li.appendChild(span);
    }
    ol.appendChild(li);
  }
  // Keep the current move in view inside the list, without scrolling the page.
  const cur = ol.querySelector(".current");
  if (cur && (cur.offsetTop < ol.scrollTop || cur.offsetTop + cur.offsetHeight > ol.scrollTop + ol.clientHeight)) {
    ol.scrollTop = cur.offsetTop - ol.clientHeight / 2;
  }
}

// What an event says besides its kind: the side, the points touched, the clock reading.
function eventDetail(e, v) {
  const kind = Object.keys(e.event)[0];
  const x = e.event[kind];
  const parts = [];
  if (v && v.side) parts.push(W(v, "side"));
  if (kind === "touch" && x.points) parts.push(`<span translate="no">${esc(x.points.join(" "))}</span>`);
  if (kind === "clock_reading") parts.push(`<span translate="no">${esc(t("clock_text", x.red, x.black))}</span>`);
  return parts.join(" · ");
}

function renderEvents() {
  const judged = S.state ? S.state.events : [];
  const order = S.events.map((e, j) => [e, j]).sort((a, b) => a[0].ply - b[0].ply || a[1] - b[1]);
  $("events").innerHTML = order.map(([e, j]) => {
    const v = judged[j] || {};
    const kind = Object.keys(e.event)[0];
    const name = NOTE_KINDS.includes(kind) ? W(v, "note_kind") || word("note", kind) : W(v, "event_kind") || word("event", kind);
    const decided = (v.rulings || []).map(decisionText).join("; ");
    const after = v.after_end ? ` <i class="quiet">${esc(t("not_judged"))}</i>` : v.note ? ` <i class="quiet">${esc(t("note_only"))}</i>` : "";
    return `<li data-event="${j}" class="${v.after_end ? "after-end" : ""}${v.ends_game ? " ends" : ""}">
      <a class="ply-link" data-ply="${e.ply}">${esc(t("after_ply", e.ply))}</a> · <b>${name}</b>${eventDetail(e, v) ? ` · ${eventDetail(e, v)}` : ""}
      ${decided ? `<br>→ ${decided}` : ""}${after}
      <button type="button" class="remove no-print" data-remove="${j}" aria-label="remove">×</button></li>`;
  }).join("");
  $("events").querySelectorAll("a[data-ply]").forEach((x) => (x.onclick = () => goTo(+x.dataset.ply)));
  $("events").querySelectorAll("button[data-remove]").forEach((b) => (b.onclick = () => removeEvent(+b.dataset.remove)));
}

function renderHeaders() {
  const shown = [["Event", "head_event"], ["Site", "head_site"], ["Date", "head_date"], ["Round", "head_round"],
    ["Red", "head_red"], ["Black", "head_black"], ["Result", "head_result"]];
  const tag = (k) => (S.tags.find(([n]) => n.toLowerCase() === k.toLowerCase()) || [])[1];
  // Every header editable in place (the arbiter fills in or corrects the record); the empty
  // ones are not printed.
  $("headers").innerHTML = shown.map(([k, label]) => {
    const empty = tag(k) ? "" : ` class="empty"`;
    return `<dt${empty}>${esc(t(label))}</dt><dd${empty} translate="no" contenteditable="plaintext-only" data-tag="${k}">${esc(tag(k) || "")}</dd>`;
  }).join("");
  $("headers-card").classList.toggle("all-empty", !shown.some(([k]) => tag(k)));
  $("headers").querySelectorAll("dd[data-tag]").forEach((dd) => (dd.onblur = () => setTag(dd.dataset.tag, dd.textContent)));
}

// A header of the record set (or removed when empty), kept in the link and the PGN.
function setTag(name, value) {
  const v = value.replace(/\s+/g, " ").trim();
  const i = S.tags.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
  if (i >= 0 && v) S.tags[i] = [S.tags[i][0], v];
  else if (i >= 0) S.tags.splice(i, 1);
  else if (v) S.tags.push([name, v]);
  renderHeaders();
  keepInUrl();
}

function renderEnd() {
  const el = $("end");
  const s = S.state;
  if (!s) {
    el.innerHTML = "";
    return;
  }
  const g = s.game;
  const fouls = g.fouls && (g.fouls.red || g.fouls.black) ? `<dt>${t("fouls")}</dt><dd>${esc(t("fouls_text", g.fouls.red, g.fouls.black))}</dd>` : "";
  if (!g.end) {
    if (!S.moves.length && !S.events.length) el.innerHTML = `<p class="verdict">${esc(t("no_moves"))}</p>`;
    else el.innerHTML = `<p class="verdict">${esc(t("no_end", S.moves.length, S.events.length))}</p>${fouls ? `<dl class="facts">${fouls}</dl>` : ""}`;
    return;
  }
  const e = g.end;
  const rows = [];
  if (e.how) rows.push([t("how"), word("how", e.how)]);
  rows.push([t("clause"), cite(g.clause, g.article)]);
  if (e.event != null) {
    const ev = s.events[e.event] || {};
    rows.push([t("ended_by_event"), `${esc(t("event_n", e.event + 1))}: ${W(ev, "event_kind")}${ev.side ? ` · ${W(ev, "side")}` : ""}`]);
  }
  if (g.by) rows.push([t("by"), W(g, "by")]);
  if (g.basis) rows.push([t("basis"), `${W(g, "basis")}${g.rests_on && g.rests_on.length ? paren(`${t("readings")}: <span translate="no">${esc(g.rests_on.join(", "))}</span>`) : ""}`]);
  let html = `<p class="verdict ended" id="end-verdict" data-result="${esc(g.result)}">${W(g, "result")} — ${esc(t("ended_after", e.ply))}</p>
    <dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}${fouls}</dl>
    <div class="row no-print"><button type="button" id="go-end">${esc(t("go_to", e.ply))}</button></div>`;
  if (g.continues) html += `<p class="quiet" id="goes-on">${esc(t("goes_on", g.continues.plies, g.continues.from_ply, g.continues.events))}</p>`;
  el.innerHTML = html;
  $("go-end").onclick = () => goTo(e.ply);
}

// The board's next ruling, in words: when, by which clause, and what it decides.
function nextText(n) {
  const acts = n.rulings.filter((r) => r.decision !== "pending_position");
  const what = (acts.length ? acts : n.rulings).map(decisionText).join("; ");
  return { when: `${esc(t("board_rules", n.cycle, n.ply, n.times))}${paren(citeIn(n.clause, n.article))}`, what };
}

function renderStatus() {
  const el = $("status");
  const s = S.state;
  $("status-title").textContent = t("at_ply", S.ply);
  if (!s) {
    el.innerHTML = "";
    return;
  }
  const a = s.at;
  const rows = [];
  if (a.state === "ended") {
    // One story: a game that is over is over, whatever the position's own status.
    rows.push([t("state"), `<b>${W(a, "result")}</b> — ${esc(t("over_at", a.ply))}${a.how ? `: ${word("how", a.how)}` : ""}${paren(citeIn(a.clause, a.article))}`]);
    if (S.ply > a.ply) rows.push([t("position"), esc(t("after_end_ply", a.ply))]);
  } else {
    rows.push([t("state"), W(a, "state")]);
    rows.push([t("position"), `${esc(t("to_move", sideLabel(s.to_move)))} · ${W(a, "position")}${a.check ? ` (<span translate="no">${esc(a.check)}</span>)` : ""}`]);
  }
  const rep = a.repeated.length
    ? a.repeated.map((r) => `<a class="ply-link" data-ply="${r.ply}">${esc(t("stood", r.times, r.ply))}</a>`).join("<br>")
    : esc(t("none"));
  rows.push([t("repeated"), rep]);
  const orders = ["red", "black"].filter((x) => a.orders[x]).map((x) => `${esc(sideLabel(x))}: ${cite(a.orders[x].clause, a.orders[x].article)}`);
  rows.push([t("orders"), orders.length ? orders.join("<br>") : esc(t("none"))]);
  if (a.next) {
    const n = nextText(a.next);
    rows.push([t("next"), `${n.when}: ${n.what}`]);
  }
  if (a.fouls && (a.fouls.red || a.fouls.black)) rows.push([t("fouls"), esc(t("fouls_text", a.fouls.red, a.fouls.black))]);
  if (a.natural_limit) rows.push([t("limit"), esc(t("limit_text", a.natural_limit.rounds, a.natural_limit.limit, a.natural_limit.remaining))]);
  el.innerHTML = `<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>`;
  el.querySelectorAll("a[data-ply]").forEach((x) => (x.onclick = () => goTo(+x.dataset.ply)));
}

function renderToMove() {
  const s = S.state;
  const a = s && s.at;
  $("to-move").innerHTML = !a ? "" : a.state === "ended"
    ? `<b>${W(a, "result")}</b> — ${esc(t("over_at", a.ply))}`
    : `${esc(t("to_move", sideLabel(s.to_move)))} · ${W(a, "position")}`;
  // A warning before the repetition that decides.
  const n = a && a.state !== "ended" ? a.next : null;
  const w = $("next-warning");
  w.hidden = !(n && n.plies <= n.cycle);
  w.innerHTML = w.hidden ? "" : `${esc(t("next_decides"))}: ${nextText(n).what}`;
}

function renderRuling() {
  const el = $("ruling");
  const s = S.state;
  const r = s && s.ruling;
  $("ruling-title").textContent = r && r.upto ? t("ruling_upto", r.upto) : t("ruling");
  if (!r) {
    el.innerHTML = "";
    return;
  }
  const why = problem(r.verdict ? { result: true } : r);
  if (why) {
    el.innerHTML = `<p>${esc(why)}</p>`;
    return;
  }
  if (!r.cycle) {
    el.innerHTML = `<p>${esc(t("no_cycle"))}</p>`;
    return;
  }
  const rows = r.plies
    .map((p) => `<tr data-ply="${p.ply}" data-class="${esc(p.class)}">
      <td><a class="ply-link" data-ply="${p.ply}">${p.ply}</a></td><td>${esc(sideLabel(p.side))}</td>
      <td class="move" translate="no">${esc(S.texts[p.ply - 1] || p.move)}</td>
      <td class="class"><b>${esc(p.zh)}</b>${S.lang === "zh" ? "" : ` ${W(p, "class")}`}</td>
      <td translate="no">${esc(p.targets.join(" "))}</td><td class="reason">${W(p, "reason")}</td>
      <td>${cite(p.clause, p.article)}</td></tr>`)
    .join("");
  const pattern = (side) => {
    const p = r.patterns && r.patterns[side];
    if (!p) return "";
    // The pattern's English gloss only where the data gives one (a code is no gloss).
    const en = p.words && p.words.pattern && p.words.pattern.en;
    const gloss = S.lang === "zh" ? "" : ` (${en ? `${esc(en)}, ` : ""}<span class="${esc(p.status)}">${W(p, "status")}</span>)`;
    return `<dt>${esc(sideLabel(side))}</dt><dd><b>${esc((p.side_zh || "") + p.zh)}</b>，<span class="${esc(p.status)}">${esc(p.status_zh || "")}</span>${gloss}</dd>`;
  };
  const basis = `${W(r, "basis")}${r.rests_on && r.rests_on.length ? paren(`${t("readings")}: <span translate="no">${esc(r.rests_on.join(", "))}</span>`) : ""}`;
  el.innerHTML = `<p>${t("judged", r.cycle[0], r.cycle[1], W(r, "judged"))}</p>
    <div class="table-wrap"><table><thead><tr><th>${t("ply")}</th><th>${t("side")}</th><th>${t("move")}</th><th>${t("class")}</th>
    <th>${t("targets")}</th><th>${t("reason")}</th><th>${t("article")}</th></tr></thead><tbody>${rows}</tbody></table></div>
    <dl class="facts"><dt>${t("pattern")}</dt><dd></dd>${pattern("red")}${pattern("black")}
    <dt>${t("verdict")}</dt><dd><b id="ruling-verdict" data-verdict="${esc(r.verdict)}">${W(r, "verdict")}</b> — ${basis}</dd>
    ${orderNote(r)}
    <dt>${t("clauses")}</dt><dd>${r.clauses.map((c) => cite(c.clause, c.article)).join("<br>")}</dd></dl>`;
  el.querySelectorAll("a[data-ply]").forEach((x) => (x.onclick = () => goTo(+x.dataset.ply)));
}

// Where the ruling and the board's order differ in time: when the order comes, and by
// which clause (the ruling judges the cycle now; the board orders when a position has
// stood as often as `repetition.cycle` says).
function orderNote(r) {
  const side = { red_must_change: "red", black_must_change: "black" }[r.verdict];
  const a = S.state.at;
  if (!side || a.state === "ended") return "";
  let text;
  if (a.orders[side]) text = `${esc(t("order_now", sideLabel(side)))}${paren(citeIn(a.orders[side].clause, a.orders[side].article))}`;
  else if (a.next) text = `${esc(t("order_later", sideLabel(side), a.next.ply))}: ${nextText(a.next).when}.`;
  else text = esc(t("order_no"));
  return `<dt>${t("orders")}</dt><dd id="order-note">${text}</dd>`;
}

function renderPrintHead() {
  const ed = S.rulesets.find((e) => e.id === $("edition").value);
  const o = S.overlays.find((x) => x.overlay === $("overlay").value);
  const name = ed ? (S.lang === "zh" ? ed.name : ed.name_en) || ed.name : $("edition").value;
  $("print-rules").innerHTML = `${esc(t("print_rules", `${name} (${ed ? ed.id : ""})`, o ? o.name || o.overlay : t("no_overlay")))}`;
}

// ---- the arbiter's events -----------------------------------------------------------------

function fillEventKinds() {
  const sel = $("event-kind");
  const was = sel.value;
  sel.innerHTML = EVENT_KINDS.map((k) => {
    const w = (S.words[NOTE_KINDS.includes(k) ? "note" : "event"] || {})[k];
    return `<option value="${k}">${esc((w && (w[S.lang] || w.en)) || k)}</option>`;
  }).join("");
  if (was) sel.value = was;
  eventFormFields();
}

function eventFormFields() {
  const k = $("event-kind").value;
  $("event-points-row").hidden = k !== "touch";
  $("event-clock-row").hidden = k !== "clock_reading";
  $("event-value-row").hidden = !VALUE_KINDS[k];
  if (VALUE_KINDS[k]) $("event-value").placeholder = VALUE_KINDS[k][0];
  $("event-side").hidden = k === "clock_reading" || (VALUE_KINDS[k] && !VALUE_KINDS[k][1]);
}

async function judgeEvents(events) {
  const a = await post("/api/state", stateBody(events));
  if (a.result) {
    S.events = events;
    await goTo(S.ply);
    return null;
  }
  return problem(a);
}

async function addEvent() {
  const kind = $("event-kind").value, side = $("event-side").value;
  let value = side;
  if (kind === "touch") {
    const points = $("event-points").value.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
    if (!points.length) return say_in("event-error", t("points_needed"));
    value = { side, points };
  }
  if (VALUE_KINDS[kind]) {
    const v = $("event-value").value.trim();
    if (!v) return say_in("event-error", t(kind === "illegal_move" ? "move_needed" : "time_needed"));
    if (kind === "illegal_move") value = { move: v.toLowerCase() };
    else if (Number.isNaN(seconds(v))) return say_in("event-error", t("time_needed"));
    else value = kind === "late" ? { [side]: seconds(v) } : { found_after_seconds: seconds(v) };
  }
  if (kind === "clock_reading") {
    const red = $("event-clock-red").value.trim(), black = $("event-clock-black").value.trim();
    if (!red || !black) return say_in("event-error", t("clock_needed"));
    value = { red, black };
  }
  const why = await judgeEvents([...S.events, { ply: S.ply, event: { [kind]: value } }]);
  say_in("event-error", why);
}

async function removeEvent(j) {
  say_in("event-error", "");
  const why = await judgeEvents(S.events.filter((_, i) => i !== j));
  if (why) say_in("event-error", why);
}

// ---- clauses --------------------------------------------------------------------------

async function showClause(id) {
  const a = await post("/api/clause", { ...rules(), id });
  const why = problem(a);
  const body = $("clause-body");
  if (why) body.innerHTML = `<p>${esc(why)}</p>`;
  else {
    const c = a.result.clause, p = c.provenance;
    body.innerHTML = `<h3><span translate="no">${esc(c.id)}</span>${c.article ? ` · ${t("article")} ${esc(c.article)}` : ""}</h3>
      <p class="summary">${say({ en: c.summary, zh: c.summary_zh }, c.summary)}</p>
      <dl class="facts"><dt>${t("provenance")}</dt><dd translate="no">${esc(p.status)}${p.ref ? ` · ${esc(p.ref)}` : ""}</dd>
      <dt>${t("source")}</dt><dd translate="no">${esc(p.source)}${p.source_what ? ` — ${esc(p.source_what)}` : ""}</dd>
      ${p.note ? `<dt></dt><dd translate="no">${esc(p.note)}</dd>` : ""}
      ${c.inherited_from ? `<dt>${t("inherited")}</dt><dd translate="no">${esc(c.inherited_from)}</dd>` : ""}
      <dt>spec</dt><dd translate="no">${esc(c.written_at)}</dd></dl>
      <details><summary>${t("data")}</summary><pre translate="no">${esc(JSON.stringify(c.data, null, 1))}</pre></details>`;
  }
  $("clause").showModal();
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-clause]");
  if (a) showClause(a.dataset.clause);
});

// ---- records --------------------------------------------------------------------------

async function loadRecord() {
  const file = $("record-file").files[0];
  const bytes = file ? new Uint8Array(await file.arrayBuffer()) : new TextEncoder().encode($("record-text").value);
  const a = await post(`/api/record?edition=${encodeURIComponent($("edition").value)}`, bytes, true);
  const why = problem(a);
  S.upload = why ? { error: why } : a.result.record;
  renderUpload();
  if (why) return;
  S.games = a.result.record.games;
  const sel = $("games");
  sel.innerHTML = S.games
    .map((g, i) => `<option value="${i}">${g.number}. ${esc(g.title || "?")} (${g.moves.length})${g.error || g.remarks.length ? " ⚠" : ""}</option>`)
    .join("");
  $("games-label").hidden = S.games.length < 2;
  if (S.games.length) await pickGame(0);
}

// The upload's report: it stays until dismissed or the next upload (text that is no game is
// a notice about the file, not about a game).
function renderUpload() {
  const u = S.upload;
  if (!u) return;
  if (u.error) return notes("upload-notes", [[prose(u.error), "error"]]);
  const name = /^read as (\S+)$/.exec(u.encoding);
  const enc = name ? `<span translate="no">${esc(name[1])}</span>` : prose(u.encoding);
  notes("upload-notes", [[t("loaded", u.games.length, enc), "note"],
    ...u.not_games.map((n) => [`<span translate="no">${esc(n.place)}</span>: ${esc(t("not_a_game"))}: ${prose(n.message)}`, "warn"])]);
}

async function pickGame(i) {
  const g = S.games[i];
  if (!g) return;
  S.game = i;
  $("games").value = i;
  renderGameNotes();
  S.tags = g.tags || [];
  await setGame(g.fen, g.moves, 0, g.events || []);
  // A record that ended by the rules is shown where it ended.
  if (endPly()) await goTo(endPly());
}

// The game's own error and remarks, in its place: gone when another game is picked or a
// position is set up by hand.
function renderGameNotes() {
  const g = S.game == null ? null : S.games[S.game];
  if (!g) return ($("game-notes").innerHTML = "");
  notes("game-notes", [...(g.error ? [[`${esc(t("game"))} ${g.number}: ${prose(g.error)}`, "error"]] : []),
    ...g.remarks.map((r) => [`${esc(t("game"))} ${g.number}: ${prose(r)}`, "note"])]);
}

// A position set up by hand: the record's game, its tags and its notes go.
function leaveGame() {
  S.game = null;
  S.tags = [];
  $("game-notes").innerHTML = "";
}

// ---- the board editor -----------------------------------------------------------------

const PIECES = "KABNRCPkabnrcp";
const GLYPHS = { K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵", k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒" };
const glyph = (p) => GLYPHS[p] || "";

function startEditing() {
  S.editing = true;
  $("board-wrap").classList.add("editing");
  $("editor").hidden = false;
  const rows = S.fen.split(" ")[0].split("/");
  S.editorBoard = [];
  for (const row of rows) for (const ch of row) {
    if (/\d/.test(ch)) for (let k = 0; k < +ch; k++) S.editorBoard.push("");
    else S.editorBoard.push(ch);
  }
  const pal = $("palette");
  pal.innerHTML = "";
  for (const p of PIECES + "·") {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = p === "·" ? "⌫" : glyph(p);
    b.className = p === p.toUpperCase() && p !== "·" ? "red" : "";
    b.classList.toggle("pressed", S.editorPiece === p);
    b.onclick = () => { S.editorPiece = p; [...pal.children].forEach((c) => c.classList.toggle("pressed", c === b)); };
    pal.appendChild(b);
  }
  say_in("setup-error", t("editor_on"), "note");
  renderPoints();
}

function stopEditing() {
  S.editing = false;
  $("editor").hidden = true;
  $("board-wrap").classList.remove("editing");
}

function placePiece(sq) {
  const i = (9 - +sq[1]) * 9 + FILES.indexOf(sq[0]);
  S.editorBoard[i] = S.editorPiece === "·" || S.editorBoard[i] === S.editorPiece ? "" : S.editorPiece;
  renderPoints();
}

function editorFen() {
  const rows = [];
  for (let r = 0; r < 10; r++) {
    let row = "", empty = 0;
    for (let f = 0; f < 9; f++) {
      const p = S.editorBoard[r * 9 + f];
      if (!p) empty++;
      else { if (empty) row += empty; row += p; empty = 0; }
    }
    rows.push(row + (empty ? empty : ""));
  }
  return `${rows.join("/")} ${$("editor-side").value} - - 0 1`;
}

async function finishEditing() {
  const fen = editorFen();
  const a = await ask("validate_fen", { fen });
  const why = problem(a) || (a.result.valid ? null : `${fen}: ${a.result.reason || t("bad_fen")}`);
  if (why) return say_in("setup-error", why);
  stopEditing();
  say_in("setup-error", "");
  leaveGame();
  await setGame(fen, [], 0, []);
}

// ---- export: FEN, PGN, print -------------------------------------------------------------

function showExport(text, file) {
  $("share-out").hidden = false;
  $("share-text").value = text;
  const save = $("share-save");
  save.hidden = !file;
  if (file) {
    if (save.href) URL.revokeObjectURL(save.href);
    save.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
    save.download = file;
  }
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch { return false; }
}

// ---- differences between two rule sets (/api/diff) ------------------------------------

// `code` spans (notation, clause ids, data keys: not translated) and **bold** of the
// summary lines, the rest escaped.
const inline = (s) => esc(s).replace(/`([^`]*)`/g, '<code translate="no">$1</code>').replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>");
// A text of the diff in the page's language: `x[key]` in English, `x[key + "_zh"]` in Chinese.
const inLang = (x, key) => inline(S.lang === "zh" ? x[`${key}_zh`] ?? x[key] : x[key]);
// Ids (rule sets, sources, clauses, cases) as they are written.
const id = (s) => `<span translate="no">${esc(s)}</span>`;

async function showDiff() {
  const from = $("diff-from").value, to = $("diff-to").value;
  say_in("diff-error", "");
  $("diff").innerHTML = `<p class="quiet">${esc(t("diff_wait"))}</p>`;
  const a = await (await fetch(`/api/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).json();
  if (problem(a)) { $("diff").innerHTML = ""; return say_in("diff-error", problem(a)); }
  S.diff = a.result.diff;
  renderDiff();
}

// The differences last asked for, in the page's language.
function renderDiff() {
  const d = S.diff;
  if (!d) return;
  const art = (c) => c.kind === "added" ? `${d.to} ${c.article_to ?? "—"}` : c.kind === "removed" ? `${d.from} ${c.article_from ?? "—"}`
    : c.article_from === c.article_to ? `${c.article_to}` : `${d.from} ${c.article_from ?? "—"} → ${d.to} ${c.article_to ?? "—"}`;
  const sure = (c) => `<i class="certainty ${esc(c)}">${word("certainty", c)}</i>`;
  const zh = S.lang === "zh", colon = zh ? "：" : ": ", semi = zh ? "；" : "; ", comma = zh ? "，" : ", ";
  let h = `<h3>${esc(t("diff_changes"))}${colon}${id(d.from)} → ${id(d.to)}</h3>`;
  h += d.changes.length ? "<ul class=\"changes\">" + d.changes.map((c) =>
    `<li data-certainty="${esc(c.certainty)}"><b translate="no">${esc(art(c))}</b> — ${inLang(c, "text")} ${sure(c.certainty)}${semi}${c.sources.map(id).join(comma)}</li>`).join("") + "</ul>"
    : `<p>${esc(t("diff_none"))}</p>`;
  if (d.unencoded_changes.length) {
    h += `<p class="quiet">${esc(t("diff_unencoded"))}</p><ul class="changes">` + d.unencoded_changes.map((c) =>
      `<li data-certainty="${esc(c.certainty)}"><b translate="no">${esc(c.in)} ${esc(c.articles)}</b> — ${inLang(c, "text")} ${sure(c.certainty)}${semi}${c.sources.map(id).join(comma)}</li>`).join("") + "</ul>";
  }
  for (const [rs, n] of [[d.from, d.assumed.from], [d.to, d.assumed.to]]) {
    if (n.assumed) h += `<p class="quiet">${t("diff_assumed", id(rs), n.assumed, n.clauses)}</p>`;
  }
  h += `<p><b>${esc(t("diff_counts"))}</b>${colon}${d.certainties.map((c) => `${c.clauses} ${word("certainty", c.certainty)}`).join(comma)}</p>`;
  const renum = d.clauses.filter((c) => c.kind === "renumbered");
  if (renum.length) {
    h += `<details><summary>${esc(t("diff_renumbered"))} (${renum.length})</summary><div class="table-wrap"><table><tr><th>${esc(t("diff_clause"))}</th><th>${id(d.from)} → ${id(d.to)}</th><th></th></tr>` +
      renum.map((c) => `<tr><td>${id(c.id)}</td><td translate="no">${esc(c.article_from)} → ${esc(c.article_to)}</td><td>${word("certainty", c.certainty)}</td></tr>`).join("") + "</table></div></details>";
  }
  const unenc = d.clauses.filter((c) => c.certainty === "not_encoded");
  if (unenc.length) h += `<p><b>${esc(t("diff_not_encoded"))}</b>${colon}${unenc.length}${paren(unenc.map((c) => id(c.id)).join(comma))}</p>`;
  if (d.behaviour.length) {
    h += `<h3>${esc(t("diff_behaviour"))} (${d.behaviour.length})</h3>`;
    for (const b of d.behaviour) {
      const svg = b.diagram && d.diagrams[b.diagram];
      // A case's description is the suite's English: in 中文 it stays on the case id's tooltip.
      const about = S.lang === "zh" ? "" : ` — ${esc(b.description)}`;
      h += `<details class="behaviour"><summary><code translate="no" title="${esc(b.description)}">${esc(b.case)}</code>${about}</summary>` +
        (svg ? `<div class="diff-board">${svg}</div>` : "") +
        `<div class="table-wrap"><table><tr><th></th><th>${id(d.from)}</th><th>${id(d.to)}</th></tr><tr><td>${esc(t("diff_answer"))}</td><td>${inLang(b.answer_from, "text")}</td><td>${inLang(b.answer_to, "text")}</td></tr></table></div>` +
        `<p>${esc(t("diff_caused"))}${colon}${b.causes.map((c) => `${id(c.clause)}${paren(word("change", c.kind))}`).join(comma) || "—"}${b.certainty ? ` · ${sure(b.certainty)}` : ""}</p></details>`;
    }
  }
  $("diff").innerHTML = h;
}

// ---- wiring ---------------------------------------------------------------------------

function applyLabels() {
  document.documentElement.lang = S.lang === "zh" ? "zh-Hans" : "en";
  document.body.classList.toggle("zh", S.lang === "zh");
  document.querySelectorAll("[data-t]").forEach((el) => (el.textContent = t(el.dataset.t)));
  $("lang").textContent = S.lang === "zh" ? "English" : "中文";
  fillRulesets();
  fillOverlays();
  fillEventKinds();
}

function fillRulesets() {
  const sel = $("edition");
  const was = sel.value;
  sel.innerHTML = S.rulesets
    .map((e) => `<option value="${esc(e.id)}">${esc(e.id)} · ${esc(S.lang === "zh" ? e.name : e.name_en || e.name)}</option>`)
    .join("");
  if (was) sel.value = was;
}

function fillOverlays() {
  const ed = $("edition").value;
  const was = $("overlay").value;
  const mine = S.overlays.filter((o) => o.edition === ed);
  $("overlay").innerHTML = `<option value="">${esc(t("no_overlay"))}</option>` + mine.map((o) => `<option value="${esc(o.overlay)}">${esc(o.name || o.overlay)}</option>`).join("");
  $("overlay").disabled = !mine.length;
  if (mine.some((o) => o.overlay === was)) $("overlay").value = was;
}

document.querySelectorAll("#steps button[data-step]").forEach((b) => {
  b.onclick = () => {
    const n = { first: 0, back: S.ply - 1, forward: S.ply + 1, last: S.moves.length }[b.dataset.step];
    goTo(n);
  };
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select")) return;
  if (ev.key === "ArrowLeft") goTo(S.ply - 1);
  if (ev.key === "ArrowRight") goTo(S.ply + 1);
});
$("typed").onsubmit = async (ev) => {
  ev.preventDefault();
  const text = $("typed-move").value.trim();
  if (!text) return;
  const g = game();
  let first = null;
  for (const notation of [...new Set([$("notation").value, "chinese", "wxf", "iccs"])]) {
    const a = await ask("parse_move", { fen: g.fen, moves: g.moves, notation, text });
    if (a.result) {
      $("typed-move").value = "";
      return play(a.result.move);
    }
    first = first || problem(a);
  }
  // The error beside the box that caused it.
  say_in("typed-error", `${t("not_legal", text)} (${first})`);
};
$("typed-move").oninput = () => say_in("typed-error", "");
$("fen-form").onsubmit = async (ev) => {
  ev.preventDefault();
  const fen = $("fen").value.trim() || "startpos";
  const a = fen === "startpos" ? { result: { valid: true } } : await ask("validate_fen", { fen });
  const why = problem(a) || (a.result.valid ? null : `${fen}: ${a.result.reason || t("bad_fen")}`);
  if (why) return say_in("setup-error", why);
  say_in("setup-error", "");
  leaveGame();
  await setGame(fen, [], 0, []);
};
$("fen").oninput = () => say_in("setup-error", "");
$("start").onclick = () => { stopEditing(); say_in("setup-error", ""); leaveGame(); setGame("startpos", [], 0, []); };
$("edit").onclick = startEditing;
$("editor-clear").onclick = () => { S.editorBoard = S.editorBoard.map(() => ""); renderPoints(); };
$("editor-done").onclick = finishEditing;
$("record-load").onclick = () => loadRecord().catch((e) => notes("upload-notes", [[esc(String(e)), "error"]]));
$("games").onchange = (ev) => pickGame(+ev.target.value);
$("event-kind").onchange = () => { eventFormFields(); say_in("event-error", ""); };
$("event-form").onsubmit = (ev) => { ev.preventDefault(); addEvent(); };
$("flip").onclick = () => { S.flip = !S.flip; $("flip").classList.toggle("pressed", S.flip); goTo(S.ply); };
$("sheet").onclick = async () => {
  const r = await post("/api/sheet", game(S.state && S.state.ruling && S.state.ruling.upto ? S.state.ruling.upto : S.ply));
  if (!r.svg) return banner(problem(r));
  const url = URL.createObjectURL(new Blob([r.svg], { type: "image/svg+xml" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: `ruling-${$("edition").value}-ply-${S.ply}.svg` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
$("copy-link").onclick = async () => {
  keepInUrl();
  showExport(location.href);
  if (await copy(location.href)) say_in("typed-error", t("link_copied"), "note");
};
$("show-fen").onclick = () => showExport(S.state ? S.state.fen : S.fen);
$("get-pgn").onclick = async () => {
  const a = await post("/api/pgn", { ...stateBody(), ply: undefined, notation: $("notation").value, tags: S.tags });
  if (!a.pgn) return banner(problem(a));
  showExport(a.pgn, `${(S.tags.find(([k]) => k === "Event") || [, "game"])[1].replace(/[^\p{L}\p{N}_-]+/gu, "-")}.pgn`);
};
$("share-copy").onclick = () => copy($("share-text").value);
$("print").onclick = () => window.print();
$("notation").onchange = async () => { await refreshLine(); render(); keepInUrl(); };
$("edition").onchange = async () => { fillOverlays(); await setGame(S.fen, S.moves, S.ply); };
$("overlay").onchange = () => setGame(S.fen, S.moves, S.ply);
$("diff-form").onsubmit = (ev) => { ev.preventDefault(); showDiff().catch((e) => say_in("diff-error", String(e))); };
$("lang").onclick = () => {
  S.lang = S.lang === "zh" ? "en" : "zh";
  applyLabels();
  render();
  renderUpload();
  renderGameNotes();
  renderDiff();
  keepInUrl();
};
window.addEventListener("unhandledrejection", (ev) => banner(String(ev.reason)));

(async () => {
  const r = await (await fetch("/api/rulesets")).json();
  S.rulesets = r.rulesets;
  S.overlays = r.overlays;
  S.words = r.words || {};
  const saved = fromUrl();
  if (saved && saved.l === "zh") S.lang = "zh";
  applyLabels();
  $("edition").value = r.default;
  if (saved && S.rulesets.some((e) => e.id === saved.r)) $("edition").value = saved.r;
  fillOverlays();
  if (saved && saved.o) $("overlay").value = saved.o;
  if (saved && saved.n) $("notation").value = saved.n;
  // Every rule set and every edition with a shipped overlay can be compared.
  const ids = [...r.rulesets.map((e) => e.id), ...r.overlays.map((o) => `${o.edition}+${o.overlay}`)];
  $("diff-from").innerHTML = ids.map((id) => `<option${id === "cxa-2011" ? " selected" : ""}>${esc(id)}</option>`).join("");
  $("diff-to").innerHTML = ids.map((id) => `<option${id === r.default ? " selected" : ""}>${esc(id)}</option>`).join("");
  if (saved) {
    S.flip = saved.flip;
    $("flip").classList.toggle("pressed", S.flip);
    S.tags = Array.isArray(saved.tags) ? saved.tags : [];
    await setGame(saved.fen, saved.moves, saved.ply, Array.isArray(saved.events) ? saved.events : []);
  } else {
    await setGame("startpos", [], 0, []);
  }
})();
