// xqspec web: the arbiter's desk. Plain JavaScript, no build step; every rule answer
// comes from the server's API (PROTOCOL.md §9), this file only asks and shows.
"use strict";

const $ = (id) => document.getElementById(id);

// Board geometry of src/diagram/mod.rs: points MARGIN px from the edge, CELL px apart.
const MARGIN = 44, CELL = 48;
const FILES = "abcdefghi";

// Labels of the page, English and Chinese. Rule terms (classes, patterns, their statuses,
// the sides as a ruling names them) come from the answers, which carry their Chinese names.
const T = {
  en: {
    title: "Arbiter's desk", ruleset: "Rule set", overlay: "Event rules", notation: "Notation", no_overlay: "none",
    ply: "ply", play: "Play", setup: "Set up a position", start: "Start position", edit: "Edit the board",
    use_fen: "Use FEN", editor_help: "Pick a piece, then click points to place it; the eraser clears a point.",
    side_to_move: "Side to move", red: "Red", black: "Black", clear: "Clear", done: "Use this position",
    record: "Game record", load: "Load", game: "Game", moves: "Moves",
    adjudication: "The whole record, by the rules", status: "Status at this ply", ruling: "棋例 ruling (repetition)",
    rule: "Rule the moves up to this ply", sheet: "Ruling sheet (SVG)",
    footer: "Answers from xqspec's reference implementation; the API is documented in PROTOCOL.md §9.",
    to_move: (s) => `${s} to move`, ended_after: (p) => `ended after ply ${p}`, go_to: (p) => `Go to ply ${p}`,
    no_end: (n) => `No end by the rules in these ${n} plies: the game goes on.`,
    goes_on: (l, a, b) => `The record goes on for ${l} more ${l === 1 ? "ply" : "plies"} after the end (ply ${a}${a === b ? "" : "–" + b}): not judged.`,
    result: "Result", how: "How", clause: "Clause", position: "Position", repeated: "Positions repeated",
    stood: (n, p) => `stood ${n} times (first after ply ${p})`, none: "none", orders: "Ordered to change",
    limit: "Natural move limit", limit_text: (r, l, left) => `${r} of ${l} rounds counted, ${left} to go`,
    judged: (a, b, how) => `Plies ${a}–${b} judged (${how}).`,
    no_cycle: "The moves neither repeat a position nor form a repeating pattern.",
    side: "side", move: "move", class: "class", targets: "targets", reason: "reason", article: "art.",
    pattern: "Pattern", verdict: "Verdict", basis_text: "rests on the rulebook's text",
    basis_inferred: (r) => `rests on our reading: ${r}`, clauses: "Clauses used",
    arbiter_end: (p, r, c, a) => `As the arbiter rules the game: ended after ply ${p}, ${r} by ${c} (art. ${a}).`,
    forbidden: "forbidden", allowed: "allowed",
    summary: "Summary", provenance: "Provenance", source: "Source", inherited: "Inherited from", data: "Data",
    loaded: (n, e) => `${n} ${n === 1 ? "game" : "games"}, ${e}.`, not_a_game: "not a game", not_legal: (t) => `“${t}” is not a legal move here`,
    editor_on: "Editing: click points to place the piece chosen.",
    diff_title: "How two rule sets differ", diff_from: "From", diff_to: "to", diff_show: "Show the differences",
    diff_changes: "What changed", diff_counts: "Clause pairs", diff_renumbered: "Renumbered only",
    diff_behaviour: "Answers that differ", diff_wait: "Comparing the rule sets…", diff_none: "No rule fact differs.",
    diff_assumed: (id, n, all) => `${id}: ${n} of its ${all} clauses are assumed (inherited or inferred: its text is not known).`,
    diff_caused: "Caused by", diff_not_encoded: "Not encoded in one rule set",
    diff_unencoded: "Known differences no clause encodes (not decidable by a program, or too little of the text known):",
  },
  zh: {
    title: "裁判台", ruleset: "规则", overlay: "补充规定", notation: "记谱", no_overlay: "无",
    ply: "半回合", play: "走", setup: "摆局面", start: "初始局面", edit: "编辑棋盘",
    use_fen: "用 FEN", editor_help: "先选棋子，再点棋盘上的点放下；橡皮清除一点。",
    side_to_move: "轮走方", red: "红方", black: "黑方", clear: "清空", done: "用此局面",
    record: "棋谱", load: "读入", game: "对局", moves: "着法",
    adjudication: "全局裁定", status: "此时局面", ruling: "棋例裁决",
    rule: "裁决到此着", sheet: "裁决图 (SVG)",
    footer: "答案来自 xqspec 的参考实现；接口见 PROTOCOL.md §9。",
    to_move: (s) => `${s}走`, ended_after: (p) => `第 ${p} 个半回合后终局`, go_to: (p) => `转到第 ${p} 个半回合`,
    no_end: (n) => `这 ${n} 个半回合内按规则未终局，对局继续。`,
    goes_on: (l, a, b) => `棋谱在终局后还有 ${l} 个半回合（第 ${a}${a === b ? "" : "–" + b} 个），不予裁定。`,
    result: "结果", how: "方式", clause: "条款", position: "局面", repeated: "重复局面",
    stood: (n, p) => `出现 ${n} 次（首次在第 ${p} 个半回合后）`, none: "无", orders: "须变着",
    limit: "自然限着", limit_text: (r, l, left) => `已计 ${r} / ${l} 回合，尚余 ${left}`,
    judged: (a, b, how) => `裁决第 ${a}–${b} 个半回合（${how}）。`,
    no_cycle: "这些着法既未重复局面，也未形成循环。",
    side: "方", move: "着法", class: "类别", targets: "目标", reason: "理由", article: "条",
    pattern: "循环", verdict: "裁决", basis_text: "依据规则原文",
    basis_inferred: (r) => `依据我们的解读：${r}`, clauses: "所用条款",
    arbiter_end: (p, r, c, a) => `按裁判规则：第 ${p} 个半回合后终局，${r}（${c}，第 ${a} 条）。`,
    summary: "概要", provenance: "出处", source: "来源", inherited: "沿用自", data: "数据",
    loaded: (n, e) => `读入 ${n} 局（${e}）。`, not_a_game: "不是对局", not_legal: (t) => `“${t}” 此时不是合法着法`,
    editor_on: "编辑中：点棋盘上的点放下所选棋子。",
    diff_title: "两套规则的差异", diff_from: "从", diff_to: "到", diff_show: "显示差异",
    diff_changes: "改动", diff_counts: "条款对", diff_renumbered: "仅改条号",
    diff_behaviour: "答案不同的用例", diff_wait: "正在比较…", diff_none: "规则事实没有差异。",
    diff_assumed: (id, n, all) => `${id}：${all} 条中 ${n} 条为推定（沿用或推断，原文未见）。`,
    diff_caused: "原因", diff_not_encoded: "一方未编码",
    diff_unencoded: "已知但未编码的差异（程序无法判定，或原文所知太少）：",
  },
};
const WORDS = {
  en: {
    red_wins: "Red wins", black_wins: "Black wins", draw: "Draw", ongoing: "ongoing",
    red_must_change: "Red must change", black_must_change: "Black must change", red_loses: "Red loses",
    black_loses: "Black loses", check: "check", checkmate: "checkmate", stalemate: "stalemate",
  },
  zh: {
    red_wins: "红胜", black_wins: "黑胜", draw: "和棋", ongoing: "未终局",
    red_must_change: "红方须变着", black_must_change: "黑方须变着", red_loses: "红方判负",
    black_loses: "黑方判负", check: "将军", checkmate: "将死", stalemate: "困毙", none: "无",
    perpetual_check: "长将", perpetual_chase: "长捉",
  },
};

const S = {
  lang: "en", rulesets: [], overlays: [], fen: "startpos", moves: [], texts: [], ply: 0,
  legal: [], from: null, end: null, games: [], ruling: null, rulingAt: null,
  editing: false, editorBoard: [], editorPiece: "R",
};

const t = (key, ...args) => {
  const v = T[S.lang][key] ?? T.en[key] ?? key;
  return typeof v === "function" ? v(...args) : v;
};
const word = (w) => (w == null ? "" : WORDS[S.lang][w] ?? WORDS.en[w] ?? String(w).replaceAll("_", " "));
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const sideName = (s) => t(s === "red" || s === "w" ? "red" : "black");

// ---- talking to the server ------------------------------------------------------------

function message(text, note = false) {
  const m = $("message");
  m.hidden = !text;
  m.textContent = text || "";
  m.classList.toggle("note", note);
}

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
  return r.json();
}

function rules() {
  const o = S.overlays.find((x) => x.overlay === $("overlay").value);
  return o ? { edition: $("edition").value, overlay: o } : { edition: $("edition").value };
}
const game = (ply = S.ply) => ({ ...rules(), fen: S.fen, moves: S.moves.slice(0, ply) });
const ask = (query, input) => post("/api/ask", { ...rules(), query, input });

// ---- the line -------------------------------------------------------------------------

async function setGame(fen, moves, ply) {
  S.fen = fen;
  S.moves = moves;
  S.ruling = null;
  await refreshLine();
  await refreshEnd();
  await goTo(ply);
  renderRuling();
}

async function refreshLine() {
  const a = await post("/api/line", { ...rules(), fen: S.fen, moves: S.moves, notation: $("notation").value });
  const why = problem(a);
  if (why) {
    message(why);
    S.texts = S.moves.slice();
    return;
  }
  S.fen = a.result.line.fen;
  S.texts = a.result.line.plies.map((p) => p.text);
}

async function refreshEnd() {
  const a = await post("/api/status", { ...rules(), fen: S.fen, moves: S.moves });
  S.end = a.result ? a.result.game_status : null;
  renderEnd(problem(a));
}

async function goTo(ply) {
  S.ply = Math.max(0, Math.min(S.moves.length, ply));
  S.from = null;
  const g = game();
  const [board, legal, status] = await Promise.all([
    post("/api/board", g),
    ask("legal_moves", { fen: g.fen, moves: g.moves }),
    post("/api/status", g),
  ]);
  if (board.svg) $("board").innerHTML = board.svg;
  else message(problem(board));
  S.legal = legal.result ? legal.result.moves : [];
  renderPoints();
  renderMoves();
  renderStatus(status);
  $("ply").textContent = S.ply;
  $("plies").textContent = S.moves.length;
  $("to-move").textContent = t("to_move", sideName(toMove()));
  // When the page was first ready, in ms since navigation started (the browser test reads it).
  document.body.dataset.readyMs ??= Math.round(performance.now());
}

// The side to move at the current ply: the start position's, flipped at every ply.
function toMove() {
  const first = S.fen.split(" ")[1] === "b" ? "black" : "red";
  return S.ply % 2 === 0 ? first : first === "red" ? "black" : "red";
}

async function play(move) {
  message("");
  await setGame(S.fen, S.moves.slice(0, S.ply).concat([move]), S.ply + 1);
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
  for (let rank = 9; rank >= 0; rank--) {
    for (let f = 0; f < 9; f++) {
      const sq = FILES[f] + rank;
      const d = document.createElement("div");
      d.dataset.square = sq;
      if (S.editing) {
        const piece = S.editorBoard[(9 - rank) * 9 + f];
        d.textContent = piece ? glyph(piece) : "";
        d.className = piece ? (piece === piece.toUpperCase() ? "edit red" : "edit") : "edit";
      } else if (S.from === sq) d.className = "from";
      else if (S.from && S.legal.includes(S.from + sq)) d.className = "to";
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

function renderMoves() {
  const ol = $("moves");
  ol.innerHTML = "";
  const endPly = S.end && S.end.state === "ended" ? S.end.ply : null;
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
        if (endPly && k + 1 === endPly) span.classList.add("end");
        if (endPly && k + 1 > endPly) span.classList.add("after-end");
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

const clauseLink = (id, article) =>
  id ? `<a class="clause" data-clause="${esc(id)}">${esc(id)}</a>${article ? ` (${t("article")} ${esc(article)})` : ""}` : "";

function renderEnd(why) {
  const el = $("end");
  if (why || !S.end) {
    el.innerHTML = `<p>${esc(why || "")}</p>`;
    return;
  }
  const e = S.end;
  if (e.state !== "ended") {
    el.innerHTML = `<p class="verdict">${esc(t("no_end", S.moves.length))}</p>`;
    return;
  }
  let html = `<p class="verdict ended" id="end-verdict">${esc(word(e.result))} — ${esc(t("ended_after", e.ply))}</p>
    <dl class="facts"><dt>${t("how")}</dt><dd>${esc(word(e.how))}</dd>
    <dt>${t("clause")}</dt><dd>${clauseLink(e.clause, e.article)}</dd></dl>
    <div class="row"><button type="button" id="go-end">${esc(t("go_to", e.ply))}</button></div>`;
  if (e.continues) {
    const a = e.continues.from + 1, b = e.continues.from + e.continues.left;
    html += `<p class="quiet">${esc(t("goes_on", e.continues.left, a, b))}</p>`;
  }
  el.innerHTML = html;
  $("go-end").onclick = () => goTo(e.ply);
}

function renderStatus(a) {
  const el = $("status");
  const why = problem(a);
  if (why) {
    el.innerHTML = `<p>${esc(why)}</p>`;
    return;
  }
  const s = a.result.game_status;
  const rows = [[t("position"), `${esc(word(s.position))} · ${esc(t("to_move", sideName(toMove())))}`]];
  if (s.state === "ended") rows.push([t("result"), `${esc(word(s.result))} (${esc(t("ended_after", s.ply))}), ${clauseLink(s.clause, s.article)}`]);
  const rep = s.repeated.length
    ? s.repeated.map((r) => `<a class="clause" data-ply="${r.ply}">${esc(t("stood", r.times, r.ply))}</a>`).join("<br>")
    : t("none");
  rows.push([t("repeated"), rep]);
  const orders = ["red", "black"].filter((x) => s.orders[x]).map((x) => `${sideName(x)}: ${clauseLink(s.orders[x].clause, s.orders[x].article)}`);
  rows.push([t("orders"), orders.length ? orders.join("<br>") : t("none")]);
  if (s.natural_limit) rows.push([t("limit"), esc(t("limit_text", s.natural_limit.rounds, s.natural_limit.limit, s.natural_limit.remaining))]);
  el.innerHTML = `<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>`;
  el.querySelectorAll("a[data-ply]").forEach((x) => (x.onclick = () => goTo(+x.dataset.ply)));
}

async function rule(upTo = S.ply) {
  const g = game(upTo);
  const a = await ask("ruling", { fen: g.fen, moves: g.moves });
  S.ruling = a;
  S.rulingAt = upTo;
  renderRuling();
}

function renderRuling() {
  const el = $("ruling");
  const a = S.ruling;
  if (!a) {
    el.innerHTML = "";
    return;
  }
  const why = problem(a);
  if (why) {
    el.innerHTML = `<p>${esc(why)}</p>`;
    return;
  }
  const r = a.result.ruling;
  if (!r.cycle) {
    el.innerHTML = `<p>${esc(t("no_cycle"))}</p>`;
    return;
  }
  const rows = r.plies
    .map((p) => `<tr data-ply="${p.ply}" data-class="${esc(p.class)}">
      <td><a class="clause" data-ply="${p.ply}">${p.ply}</a></td><td>${esc(sideName(p.side))}</td>
      <td class="move">${esc(S.texts[p.ply - 1] || p.move)}</td>
      <td class="class"><b>${esc(p.zh)}</b> ${esc(p.class)}</td>
      <td>${esc(p.targets.join(" "))}</td><td>${esc(p.reason)}</td>
      <td>${clauseLink(p.clause, null)}${p.article ? ` ${esc(p.article)}` : ""}</td></tr>`)
    .join("");
  const pattern = (side) => {
    const p = r.patterns && r.patterns[side];
    if (!p) return "";
    return `<dt>${esc(sideName(side))}</dt><dd><b>${esc(p.side_zh + p.zh)}</b>，<span class="${p.status}">${esc(p.status_zh)}</span>
      (${esc(p.pattern.replaceAll("_", " "))}, <span class="${p.status}">${esc(T.en[p.status])}</span>)</dd>`;
  };
  const basis = r.rests_on && r.rests_on.length ? t("basis_inferred", r.rests_on.join(", ")) : t("basis_text");
  let arbiter = "";
  const e = S.end;
  if (e && e.state === "ended" && e.ply === S.rulingAt && e.clause) arbiter = `<p>${esc(t("arbiter_end", e.ply, word(e.result), e.clause, e.article || "—"))}</p>`;
  el.innerHTML = `<p>${esc(t("judged", r.cycle[0], r.cycle[1], r.judged))}</p>
    <div class="table-wrap"><table><thead><tr><th>${t("ply")}</th><th>${t("side")}</th><th>${t("move")}</th><th>${t("class")}</th>
    <th>${t("targets")}</th><th>${t("reason")}</th><th>${t("article")}</th></tr></thead><tbody>${rows}</tbody></table></div>
    <dl class="facts"><dt>${t("pattern")}</dt><dd></dd>${pattern("red")}${pattern("black")}
    <dt>${t("verdict")}</dt><dd><b id="ruling-verdict" data-verdict="${esc(r.verdict)}">${esc(word(r.verdict))}</b> — ${esc(basis)}</dd>
    <dt>${t("clauses")}</dt><dd>${r.clauses.map((c) => clauseLink(c.clause, c.article)).join("<br>")}</dd></dl>${arbiter}`;
  el.querySelectorAll("a[data-ply]").forEach((x) => (x.onclick = () => goTo(+x.dataset.ply)));
}

// ---- clauses --------------------------------------------------------------------------

async function showClause(id) {
  const a = await post("/api/clause", { ...rules(), id });
  const why = problem(a);
  const body = $("clause-body");
  if (why) body.innerHTML = `<p>${esc(why)}</p>`;
  else {
    const c = a.result.clause, p = c.provenance;
    body.innerHTML = `<h3>${esc(c.id)}${c.article ? ` · ${t("article")} ${esc(c.article)}` : ""}</h3>
      <p>${esc(c.summary)}</p>
      <dl class="facts"><dt>${t("provenance")}</dt><dd>${esc(p.status)}${p.ref ? ` · ${esc(p.ref)}` : ""}</dd>
      <dt>${t("source")}</dt><dd>${esc(p.source)}${p.source_what ? ` — ${esc(p.source_what)}` : ""}</dd>
      ${p.note ? `<dt></dt><dd>${esc(p.note)}</dd>` : ""}
      ${c.inherited_from ? `<dt>${t("inherited")}</dt><dd>${esc(c.inherited_from)}</dd>` : ""}
      <dt>spec</dt><dd>${esc(c.written_at)}</dd></dl>
      <details><summary>${t("data")}</summary><pre>${esc(JSON.stringify(c.data, null, 1))}</pre></details>`;
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
  if (why) return message(why);
  S.games = a.result.record.games;
  const sel = $("games");
  sel.innerHTML = S.games
    .map((g, i) => `<option value="${i}">${g.number}. ${esc(g.title || "?")} (${g.moves.length})${g.error || g.remarks.length ? " ⚠" : ""}</option>`)
    .join("");
  $("games-label").hidden = S.games.length < 2;
  const skipped = a.result.record.not_games.map((n) => `${n.place}: ${t("not_a_game")}: ${n.message}`);
  message([t("loaded", S.games.length, a.result.record.encoding), ...skipped].join("\n"), !skipped.length);
  if (S.games.length) await pickGame(0);
}

async function pickGame(i) {
  const g = S.games[i];
  if (!g) return;
  const notes = [g.error, ...g.remarks].filter(Boolean);
  if (notes.length) message(`${t("game")} ${g.number}: ${notes.join("\n")}`, !g.error);
  await setGame(g.fen, g.moves, 0);
  // A record that ended by the rules: its last cycle is ruled at once.
  if (S.end && S.end.state === "ended") await rule(S.end.ply);
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
  message(t("editor_on"), true);
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
  const why = problem(a);
  if (why) return message(why);
  if (!a.result.valid) return message(`${fen}: ${a.result.reason || "not a position the rules allow"}`);
  stopEditing();
  message("");
  await setGame(fen, [], 0);
}

// ---- differences between two rule sets (/api/diff) ------------------------------------

// `code` spans and **bold** of the summary lines, the rest escaped.
const inline = (s) => esc(s).replace(/`([^`]*)`/g, "<code>$1</code>").replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>");

async function showDiff() {
  const from = $("diff-from").value, to = $("diff-to").value;
  $("diff").innerHTML = `<p class="quiet">${esc(t("diff_wait"))}</p>`;
  const a = await (await fetch(`/api/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).json();
  if (problem(a)) { $("diff").innerHTML = ""; return message(problem(a)); }
  const d = a.result.diff;
  const art = (c) => c.kind === "added" ? `${d.to} ${c.article_to ?? "—"}` : c.kind === "removed" ? `${d.from} ${c.article_from ?? "—"}`
    : c.article_from === c.article_to ? `${c.article_to}` : `${d.from} ${c.article_from ?? "—"} → ${d.to} ${c.article_to ?? "—"}`;
  let h = `<h3>${esc(t("diff_changes"))}: ${esc(d.from)} → ${esc(d.to)}</h3>`;
  h += d.changes.length ? "<ul class=\"changes\">" + d.changes.map((c) =>
    `<li data-certainty="${esc(c.certainty)}"><b>${esc(art(c))}</b> — ${inline(c.text)} <i class="certainty ${esc(c.certainty)}">${esc(c.certainty_label)}</i>; ${c.sources.map(esc).join(", ")}</li>`).join("") + "</ul>"
    : `<p>${esc(t("diff_none"))}</p>`;
  if (d.unencoded_changes.length) {
    h += `<p class="quiet">${esc(t("diff_unencoded"))}</p><ul class="changes">` + d.unencoded_changes.map((c) =>
      `<li data-certainty="${esc(c.certainty)}"><b>${esc(c.in)} ${esc(c.articles)}</b> — ${inline(c.text)} <i class="certainty ${esc(c.certainty)}">${esc(c.certainty_label)}</i>; ${c.sources.map(esc).join(", ")}</li>`).join("") + "</ul>";
  }
  for (const [id, n] of [[d.from, d.assumed.from], [d.to, d.assumed.to]]) {
    if (n.assumed) h += `<p class="quiet">${esc(t("diff_assumed", id, n.assumed, n.clauses))}</p>`;
  }
  h += `<p><b>${esc(t("diff_counts"))}</b>: ${d.certainties.map((c) => `${c.clauses} ${esc(c.label)}`).join(", ")}</p>`;
  const renum = d.clauses.filter((c) => c.kind === "renumbered");
  if (renum.length) {
    h += `<details><summary>${esc(t("diff_renumbered"))} (${renum.length})</summary><div class="table-wrap"><table><tr><th>clause</th><th>${esc(d.from)} → ${esc(d.to)}</th><th></th></tr>` +
      renum.map((c) => `<tr><td><code>${esc(c.id)}</code></td><td>${esc(c.article_from)} → ${esc(c.article_to)}</td><td>${esc(c.certainty_label)}</td></tr>`).join("") + "</table></div></details>";
  }
  const unenc = d.clauses.filter((c) => c.certainty === "not_encoded");
  if (unenc.length) h += `<p><b>${esc(t("diff_not_encoded"))}</b>: ${unenc.length} (${unenc.map((c) => esc(c.id)).join(", ")})</p>`;
  if (d.behaviour.length) {
    h += `<h3>${esc(t("diff_behaviour"))} (${d.behaviour.length})</h3>`;
    for (const b of d.behaviour) {
      const svg = b.diagram && d.diagrams[b.diagram];
      h += `<details class="behaviour"><summary><code>${esc(b.case)}</code> — ${esc(b.description)}</summary>` +
        (svg ? `<div class="diff-board">${svg}</div>` : "") +
        `<div class="table-wrap"><table><tr><th></th><th>${esc(d.from)}</th><th>${esc(d.to)}</th></tr><tr><td>answer</td><td>${esc(b.answer_from.text)}</td><td>${esc(b.answer_to.text)}</td></tr></table></div>` +
        `<p>${esc(t("diff_caused"))}: ${b.causes.map((c) => `<code>${esc(c.clause)}</code> (${esc(c.kind)})`).join(", ") || "—"} · <i>${esc(b.certainty_label ?? "")}</i></p></details>`;
    }
  }
  $("diff").innerHTML = h;
}

// ---- wiring ---------------------------------------------------------------------------

function applyLabels() {
  document.documentElement.lang = S.lang === "zh" ? "zh-Hans" : "en";
  document.querySelectorAll("[data-t]").forEach((el) => (el.textContent = t(el.dataset.t)));
  $("lang").textContent = S.lang === "zh" ? "English" : "中文";
  const none = $("overlay").querySelector('option[value=""]');
  if (none) none.textContent = t("no_overlay");
}

function fillOverlays() {
  const ed = $("edition").value;
  const mine = S.overlays.filter((o) => o.edition === ed);
  $("overlay").innerHTML = `<option value="">${esc(t("no_overlay"))}</option>` + mine.map((o) => `<option value="${esc(o.overlay)}">${esc(o.name)}</option>`).join("");
  $("overlay").disabled = !mine.length;
}

document.querySelectorAll("#steps button").forEach((b) => {
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
  message(`${t("not_legal", text)} (${first})`);
};
$("fen-form").onsubmit = async (ev) => {
  ev.preventDefault();
  const fen = $("fen").value.trim() || "startpos";
  const a = fen === "startpos" ? { result: { valid: true } } : await ask("validate_fen", { fen });
  const why = problem(a) || (a.result.valid ? null : `${fen}: ${a.result.reason || "not a position the rules allow"}`);
  if (why) return message(why);
  message("");
  await setGame(fen, [], 0);
};
$("start").onclick = () => { stopEditing(); message(""); setGame("startpos", [], 0); };
$("edit").onclick = startEditing;
$("editor-clear").onclick = () => { S.editorBoard = S.editorBoard.map(() => ""); renderPoints(); };
$("editor-done").onclick = finishEditing;
$("record-load").onclick = () => loadRecord().catch((e) => message(String(e)));
$("games").onchange = (ev) => pickGame(+ev.target.value);
$("rule").onclick = () => rule();
$("sheet").onclick = async () => {
  const r = await post("/api/sheet", game());
  if (!r.svg) return message(problem(r));
  const url = URL.createObjectURL(new Blob([r.svg], { type: "image/svg+xml" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: `ruling-${$("edition").value}-ply-${S.ply}.svg` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
$("notation").onchange = async () => { await refreshLine(); renderMoves(); renderRuling(); };
$("edition").onchange = async () => { fillOverlays(); await setGame(S.fen, S.moves, S.ply); };
$("overlay").onchange = () => setGame(S.fen, S.moves, S.ply);
$("diff-form").onsubmit = (ev) => { ev.preventDefault(); showDiff().catch((e) => message(String(e))); };
$("lang").onclick = () => {
  S.lang = S.lang === "zh" ? "en" : "zh";
  applyLabels();
  renderMoves();
  renderEnd();
  renderRuling();
  goTo(S.ply);
};
window.addEventListener("unhandledrejection", (ev) => message(String(ev.reason)));

(async () => {
  const r = await (await fetch("/api/rulesets")).json();
  S.rulesets = r.rulesets;
  S.overlays = r.overlays;
  $("edition").innerHTML = r.rulesets
    .map((e) => `<option value="${esc(e.id)}"${e.id === r.default ? " selected" : ""}>${esc(e.id)} · ${esc(e.name)}</option>`)
    .join("");
  fillOverlays();
  // Every rule set and every edition with a shipped overlay can be compared.
  const ids = [...r.rulesets.map((e) => e.id), ...r.overlays.map((o) => `${o.edition}+${o.overlay}`)];
  $("diff-from").innerHTML = ids.map((id) => `<option${id === "cxa-2011" ? " selected" : ""}>${esc(id)}</option>`).join("");
  $("diff-to").innerHTML = ids.map((id) => `<option${id === r.default ? " selected" : ""}>${esc(id)}</option>`).join("");
  applyLabels();
  await setGame("startpos", [], 0);
})();
