//! `xqspec web`: the arbiter's desk, a page served on this machine that sets up a position or
//! loads a game record, steps through it, and shows the rules' answers (legal moves, the
//! game's status, where and why it ended, the 棋例 ruling with its articles).
//!
//! - [`Desk::handle`]: one HTTP request (method, path, body) to one [`Reply`]; no socket,
//!   so tests and `--bench` call it directly. The page's files are compiled in (`page/`).
//! - [`run`]: the server, sharing one [`Desk`] between its workers. Its socket side (hyper,
//!   axum, tower-http) and the bounds it applies are the binary's
//!   (`src/bin/xqspec/server.rs`, whose module doc says why), handed to
//!   [`crate::cli::main`] as a [`Server`]. [`Desk`] and [`Reply`] are public for it alone.
//!
//! The API (PROTOCOL.md §9) carries the protocol's own queries: `/api/ask` answers exactly
//! what `xqspec serve` answers, through [`protocol::answer_ask`]; the other routes are what a
//! page needs beyond one query (a record read, a line in a notation, SVG). Every body is
//! read through `crate::input` and bounded by the protocol's longest line
//! ([`protocol::MAX_LINE_BYTES`], the server's `body_bytes`); the work of one request is
//! bounded as `serve`'s is (the reference's limits). No request names a file: the server
//! reads and writes none.
//!
//! The routes: `/api/ask` (above); `/api/status`, `reference::record_status` (the
//! `game_status` answer of a record judged up to its end, `AfterEnd::Stop`); `/api/sheet`,
//! `RuleSet::rule_line` and `diagram::sheet::line_sheet`, the code of `ruling --svg`; `/api/record`,
//! the replay of `replay`; `/api/diff?from=A&to=B`, `report::diff::diff`
//! (`DiffReport::to_json` with the Markdown and the diagrams), computed once per pair of the
//! spec's rule sets and kept (at most `DIFFS`, 16). Bodies are read by `input::text` and
//! `input::json` (UTF-8, depth, duplicate keys, unknown fields); a loopback server answers
//! only requests whose `Host` (and `:authority`) is exactly this machine.
//!
//! The page (`page/index.html`, `app.js`, `app.css`) is plain HTML, CSS and JavaScript
//! compiled in with `include_str!`: no build step, no framework, no file read at run time;
//! it only asks the API and shows the answers (labels in English and Chinese; the rule words
//! come from the answers). `bench-game.pgn` is the 198-ply master game `--bench` times the
//! requests on.
//!
//! Tests: `tests/it/web.rs` (the API over real sockets, 1,000 mixed good and bad requests,
//! and the page in headless Chromium through ChromeDriver, WebDriver spoken over `std::net`)
//! and `tests/it/hostile_web.rs` (an attack of each kind of issue 45 on a server of its own —
//! slow bodies, deaf clients, unfinished huge heads, HTTP/2 prior knowledge in raw frames,
//! bad header bytes, `Host` forms and doubles, the connection and request bounds, overlay
//! cache poisoning from 8 threads, 1,200 distinct overlays against the resident memory,
//! huge captions — each followed by a good request answered right within a second).

use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

mod state;

use serde_json::{json, Map, Value};

use crate::arbiter::StatusQuery;
use crate::conform::protocol::{self, About, Implementation};
use crate::diagram::{position_after, svg_oriented, Arrow, DiagramOptions};
use crate::input::{self, Origin};
use crate::notation::records;
use crate::notation::replay::Replayer;
use crate::notation::{format_move, notation_by_id};
use crate::query::Answer;
use crate::reference::cache::Bounded;
use crate::reference::{record_status, Reference, MAX_GAME_MOVES};
use crate::ruleset::RuleSet;
use crate::spec::{Overlay, Spec};

/// The most `/api/diff` answers kept (each a few hundred kilobytes with its diagrams): the
/// spec's rule sets make a few dozen pairs, the page asks for one at a time.
const DIFFS: usize = 16;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const APP_CSS: &str = include_str!("page/app.css");
const FAVICON: &str = include_str!("page/favicon.svg");

/// Options of `xqspec web`.
#[derive(clap::Args, Debug)]
pub(crate) struct WebArgs {
    /// The address to listen on. The default answers this machine only; another address
    /// lets anyone who can reach it use the page (there is nothing to log in to).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The port; 0 picks a free one (the address printed says which).
    #[arg(long, default_value_t = 8357)]
    pub port: u16,
    /// Time the page's main requests (page, ruling, a whole record adjudicated) on a real
    /// 200-ply game, print the figures and exit, without serving.
    #[arg(long)]
    pub bench: bool,
    /// Print the server's bounds (connections, time-outs, sizes; PROTOCOL.md §9) as a
    /// Markdown table and exit.
    #[arg(long)]
    pub limits: bool,
}

/// An answer to one request.
#[derive(Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The media type of `body`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, v: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body: v.to_string().into_bytes(),
        }
    }

    /// A protocol answer (`result`, `reject`, `unsupported`, `error`): always 200, as
    /// `serve` answers every line; the request was read, the answer says the rest.
    fn answer(a: &Answer) -> Reply {
        Reply::json(200, &protocol::answer_json(a))
    }

    /// A request that could not be read: `{"error": {"message"}}` with an HTTP status.
    pub fn refused(status: u16, message: impl Into<String>) -> Reply {
        Reply::json(status, &json!({"error": {"message": message.into()}}))
    }

    fn text(content_type: &'static str, text: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
        }
    }
}

shapes! {
    /// What the page sends about a game: the rule set, the position and the moves; the other
    /// fields are read by the routes that draw (`arrows`, `caption`), write a line
    /// (`notation`), or judge every move (`every_move`).
    struct GameBody {
        edition: String,
        overlay: Option<Overlay>,
        #[serde(default = "startpos")]
        fen: String,
        #[serde(default)]
        moves: Vec<String>,
        notation: Option<String>,
        #[serde(default)]
        arrows: Vec<String>,
        caption: Option<String>,
        #[serde(default)]
        every_move: bool,
        /// `/api/board`: the board turned round, Black at the bottom.
        #[serde(default)]
        flip: bool,
    }
}

fn startpos() -> String {
    "startpos".into()
}

shapes! {
    /// One ask, as the protocol's `ask` request without `type` and `id`.
    struct AskBody {
        edition: String,
        overlay: Option<Overlay>,
        query: String,
        #[serde(default)]
        input: Map<String, Value>,
    }

    /// A clause asked for by id under a rule set.
    struct ClauseBody {
        edition: String,
        overlay: Option<Overlay>,
        id: String,
    }
}

/// The server's state: the spec and the reference over it (every edition compiled once;
/// rule sets with an overlay compiled on first use and kept).
pub struct Desk {
    spec: Spec,
    reference: Reference,
    about: About,
    /// The suite the differences' behaviour is read from (the built-in copy).
    suite: crate::conform::suite::Suite,
    /// `/api/diff` answers by the pair of rule-set ids (which name their content: the
    /// spec and the suite are the desk's own, fixed for its life), at most [`DIFFS`]: a
    /// diff runs the reference over the suite, so once. Only a pair of known rule sets is
    /// kept (an unknown one is answered at once).
    diffs: Bounded<(String, String), Result<Value, String>>,
}

impl Desk {
    /// A desk over `spec`.
    pub fn new(spec: &Spec) -> Desk {
        let reference = Reference::new(spec);
        let about = reference.about();
        Desk {
            spec: spec.clone(),
            reference,
            about,
            suite: crate::conform::suite::Suite::embedded(),
            diffs: Bounded::new(DIFFS),
        }
    }

    /// Answers one request: `method` and `url` (path and query string) as sent, `body` at
    /// most [`protocol::MAX_LINE_BYTES`] (the server refuses a longer one before this).
    pub fn handle(&self, method: &str, url: &str, body: &[u8]) -> Reply {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let get = method == "GET" || method == "HEAD";
        match (path, get, method == "POST") {
            ("/" | "/index.html", true, _) => Reply::text("text/html; charset=utf-8", INDEX_HTML),
            ("/app.js", true, _) => Reply::text("text/javascript; charset=utf-8", APP_JS),
            ("/app.css", true, _) => Reply::text("text/css; charset=utf-8", APP_CSS),
            ("/favicon.svg" | "/favicon.ico", true, _) => Reply::text("image/svg+xml", FAVICON),
            ("/api/hello", true, _) => Reply::json(200, &protocol::hello_json(&self.about)),
            ("/api/rulesets", true, _) => Reply::json(200, &self.rulesets()),
            ("/api/ask", _, true) => self.read(path, body, |b: AskBody| self.ask(b)),
            ("/api/status", _, true) => self.read(path, body, |b: GameBody| self.status(b)),
            ("/api/state", _, true) => self.read(path, body, |b: state::StateBody| self.state(b)),
            ("/api/pgn", _, true) => self.read(path, body, |b: state::StateBody| self.pgn(b)),
            ("/api/line", _, true) => self.read(path, body, |b: GameBody| self.line(b)),
            ("/api/board", _, true) => self.read(path, body, |b: GameBody| self.board(b)),
            ("/api/sheet", _, true) => self.read(path, body, |b: GameBody| self.sheet(b)),
            ("/api/clause", _, true) => self.read(path, body, |b: ClauseBody| self.clause(b)),
            ("/api/record", _, true) => self.record(query, body),
            ("/api/diff", true, _) => self.diff(query),
            ("/" | "/index.html" | "/app.js" | "/app.css" | "/favicon.svg" | "/favicon.ico" | "/api/hello" | "/api/rulesets" | "/api/diff", ..)
            | ("/api/ask" | "/api/status" | "/api/state" | "/api/pgn" | "/api/line" | "/api/board" | "/api/sheet" | "/api/clause" | "/api/record", ..) => {
                Reply::refused(405, format!("{method} {path}: not allowed here (GET for pages, /api/hello and /api/rulesets; POST for the other /api routes)"))
            }
            _ => Reply::refused(404, format!("{path}: no such page or API route (PROTOCOL.md §9 lists them)")),
        }
    }

    /// Reads a JSON body into `T` through the input layer (UTF-8, depth, duplicate keys,
    /// unknown fields), then answers it; an unreadable body is a 400 naming where.
    fn read<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        body: &[u8],
        then: impl FnOnce(T) -> Reply,
    ) -> Reply {
        let origin = Origin::named(format!("request body of {path}"));
        let parsed = input::text(body, &origin).and_then(|t| input::json::<T>(t, &origin));
        match parsed {
            Ok(b) => then(b),
            Err(e) => Reply::refused(400, e.to_string()),
        }
    }

    /// The rule set of an edition with an overlay, or the answer saying why there is none.
    fn ruleset(
        &self,
        edition: &str,
        overlay: Option<&Overlay>,
    ) -> Result<std::sync::Arc<RuleSet>, Reply> {
        self.reference
            .ruleset(edition, overlay)
            .map_err(|e| Reply::answer(&Answer::unsupported(e)))
    }

    fn rulesets(&self) -> Value {
        json!({
            "default": crate::ruleset::DEFAULT,
            "rulesets": self.spec.editions().iter().map(|e| e.to_json()).collect::<Vec<_>>(),
            "overlays": self.spec.overlays(),
            "words": self.spec.words().to_json(),
        })
    }

    fn ask(&self, b: AskBody) -> Reply {
        let mut imp = &self.reference;
        Reply::answer(&protocol::answer_ask(
            &mut imp,
            &self.about,
            &b.edition,
            b.overlay.as_ref(),
            &b.query,
            &b.input,
            "the request",
        ))
    }

    /// The position and moves as a FEN and ICCS moves (moves in any notation the grammar
    /// reads), at most [`MAX_GAME_MOVES`] of them.
    fn line_of(
        &self,
        rs: &RuleSet,
        fen: &str,
        moves: &[String],
    ) -> Result<(String, Vec<String>), Reply> {
        if moves.len() > MAX_GAME_MOVES {
            return Err(Reply::answer(&Answer::unsupported(format!(
                "{} moves: at most {MAX_GAME_MOVES} (limits.game_moves)",
                moves.len()
            ))));
        }
        // The position first, so that a bad FEN is answered with its own reject kind.
        let fen = super::fen_text(rs, fen);
        crate::line::after(&rs.vm, &fen, &[])
            .map_err(|e| Reply::answer(&Answer::reject(e.reject_kind(), e.to_string())))?;
        super::iccs_line(rs, &fen, moves)
            .map_err(|e| Reply::answer(&Answer::reject("move.illegal", e)))
    }

    /// `/api/status`: the game status of a record judged up to where the game ended.
    fn status(&self, b: GameBody) -> Reply {
        let go = || -> Result<Reply, Reply> {
            let rs = self.ruleset(&b.edition, b.overlay.as_ref())?;
            let (fen, moves) = self.line_of(&rs, &b.fen, &b.moves)?;
            Ok(Reply::answer(&record_status(
                &rs,
                &StatusQuery { fen, moves },
            )))
        };
        go().unwrap_or_else(|r| r)
    }

    /// The line of `moves` from `fen` (any notation, as [`Self::line_of`] reads them) and
    /// each move written in the notation `id` (`chinese` when absent).
    fn written(
        &self,
        rs: &RuleSet,
        fen: &str,
        moves: &[String],
        id: Option<&str>,
    ) -> Result<(crate::line::Line, Vec<String>), Reply> {
        let id = id.unwrap_or("chinese");
        let (notation, style) = notation_by_id(id).ok_or_else(|| {
            Reply::answer(&Answer::unsupported(format!(
                "notation {id} is not one of conformance/vocabulary.yaml's"
            )))
        })?;
        let (fen, moves) = self.line_of(rs, fen, moves)?;
        let line = crate::line::line(&rs.vm, &fen, &moves)
            .map_err(|e| Reply::answer(&Answer::reject(e.reject_kind(), e.to_string())))?;
        let texts = line
            .moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                format_move(&rs.vm, &line.positions[i], m, notation, style)
                    .unwrap_or_else(|_| m.iccs())
            })
            .collect();
        Ok((line, texts))
    }

    /// `/api/line`: every move in a notation, with the position after it.
    fn line(&self, b: GameBody) -> Reply {
        let go = || -> Result<Reply, Reply> {
            let rs = self.ruleset(&b.edition, b.overlay.as_ref())?;
            let (line, texts) = self.written(&rs, &b.fen, &b.moves, b.notation.as_deref())?;
            let plies: Vec<Value> = line
                .moves
                .iter()
                .zip(texts)
                .enumerate()
                .map(|(i, (&m, text))| {
                    json!({"ply": i + 1, "move": m.iccs(), "text": text, "fen": line.positions[i + 1].to_fen(&rs.vm)})
                })
                .collect();
            Ok(Reply::answer(&Answer::one(
                "line",
                json!({"fen": line.positions[0].to_fen(&rs.vm), "plies": plies}),
            )))
        };
        go().unwrap_or_else(|r| r)
    }

    /// `/api/board`: the position after the moves as SVG, the last move marked.
    fn board(&self, b: GameBody) -> Reply {
        let go = || -> Result<Reply, Reply> {
            let rs = self.ruleset(&b.edition, b.overlay.as_ref())?;
            let (fen, moves) = self.line_of(&rs, &b.fen, &b.moves)?;
            let (pos, last_move) = position_after(&rs, &fen, &moves)
                .map_err(|e| Reply::answer(&Answer::reject("move.illegal", e)))?;
            let arrows = b
                .arrows
                .iter()
                .map(|t| {
                    Arrow::parse(t).ok_or_else(|| {
                        Reply::answer(&Answer::error(format!(
                            "arrow `{t}`: write two points, like h2e2 or h2e2:chase"
                        )))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let opts = DiagramOptions {
                last_move,
                arrows,
                caption: b.caption.clone(),
            };
            opts.check()
                .map_err(|e| Reply::answer(&Answer::unsupported(e)))?;
            let text = svg_oriented(&rs, &pos, &opts, b.flip);
            Ok(Reply::text("image/svg+xml", &text))
        };
        go().unwrap_or_else(|r| r)
    }

    /// `/api/sheet`: the ruling sheet of `ruling --svg` for the moves, judged up to where
    /// the game ended.
    fn sheet(&self, b: GameBody) -> Reply {
        let go = || -> Result<Reply, Reply> {
            let rs = self.ruleset(&b.edition, b.overlay.as_ref())?;
            let (fen, moves) = self.line_of(&rs, &b.fen, &b.moves)?;
            if moves.len() > crate::reference::MAX_RULING_PLIES {
                return Err(Reply::answer(&Answer::unsupported(format!(
                    "{} moves: a ruling takes at most {} (limits.ruling_plies)",
                    moves.len(),
                    crate::reference::MAX_RULING_PLIES
                ))));
            }
            let j = rs
                .rule_line(fen, moves, b.every_move, true)
                .map_err(|e| Reply::answer(&Answer::reject("ruling", e)))?;
            let sheet = crate::diagram::sheet::line_sheet(&rs, &j)
                .map_err(|e| Reply::answer(&Answer::unsupported(e)))?;
            Ok(Reply::text("image/svg+xml", &sheet))
        };
        go().unwrap_or_else(|r| r)
    }

    /// `/api/clause`: one clause of a rule set, with its summary and provenance.
    fn clause(&self, b: ClauseBody) -> Reply {
        match self.ruleset(&b.edition, b.overlay.as_ref()) {
            Err(r) => r,
            Ok(rs) => match rs.edition.clause(&b.id) {
                Some(c) => Reply::answer(&Answer::one("clause", self.spec.clause_json(c))),
                None => Reply::answer(&Answer::unsupported(format!(
                    "rule set {} has no clause {}",
                    rs.id(),
                    b.id
                ))),
            },
        }
    }

    /// `/api/diff?from=A&to=B`: how two rule sets differ, as `xqspec diff --json` says it,
    /// with the report's Markdown and the diagrams of its behaviour cases (file name → SVG).
    fn diff(&self, query: &str) -> Reply {
        let param = |name: &str| {
            query
                .split('&')
                .find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
                .map(percent_decoded)
        };
        let (Some(from), Some(to)) = (param("from"), param("to")) else {
            return Reply::refused(
                400,
                "/api/diff needs ?from=RULESET&to=RULESET (for example from=cxa-2011&to=cxa-2020)",
            );
        };
        // Only ids of the spec's rule sets make a key: another is refused at once, with
        // the diff's own words, and never kept.
        for id in [&from, &to] {
            if let Err(e) = self.spec.ruleset(id) {
                return Reply::answer(&Answer::unsupported(e.to_string()));
            }
        }
        let made = self.diffs.get_or_make((from.clone(), to.clone()), || {
            let d = crate::report::diff::diff(&self.spec, &self.suite, &from, &to)?;
            let mut v = d.to_json();
            v["markdown"] = Value::String(d.markdown.clone());
            v["diagrams"] = Value::Object(
                d.diagrams
                    .iter()
                    .map(|(n, svg)| (n.clone(), Value::String(svg.clone())))
                    .collect(),
            );
            Ok(v)
        });
        match made {
            Err(e) => Reply::answer(&Answer::unsupported(e)),
            Ok(v) => Reply::answer(&Answer::one("diff", v)),
        }
    }

    /// `/api/record?edition=ID`: a game record as sent (the file's bytes, any encoding
    /// `replay` reads), read as `replay` reads a file: every game with its start, its moves
    /// as ICCS, its first error and its remarks, and the text that is no game, with places.
    fn record(&self, query: &str, body: &[u8]) -> Reply {
        let edition = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("edition="))
            .map_or_else(|| crate::ruleset::DEFAULT.to_string(), percent_decoded);
        // A rule set's id: an edition, or `EDITION+OVERLAY` of an overlay the spec ships.
        let (edition, overlay) = match edition.split_once('+') {
            Some((e, o)) => match self.spec.overlay(o) {
                Some(found) => (e.to_string(), Some(found)),
                None => {
                    return Reply::answer(&Answer::unsupported(format!(
                        "rule set {edition}: the spec ships no overlay {o}"
                    )))
                }
            },
            None => (edition, None),
        };
        let rs = match self.ruleset(&edition, overlay) {
            Ok(r) => r,
            Err(r) => return r,
        };
        // Read as `replay` reads a file: the same games, numbers, problems and remarks.
        let file = records::from_bytes(std::path::Path::new("the record"), body.to_vec(), None);
        let mut replayer = Replayer::new(&rs.vm);
        let mut games = Vec::new();
        let mut not_games = Vec::new();
        let ending = crate::batch::final_position(&rs);
        for entry in records::games(&file, &mut replayer, |r| ((), ending(r))) {
            match entry {
                records::Entry::Game(g) => {
                    let r = &g.replay;
                    let start = r.start.as_ref().map_or_else(
                        || rs.vm.start_position().to_fen(&rs.vm),
                        |p| p.to_fen(&rs.vm),
                    );
                    let tags: Vec<[&str; 2]> = g.game.tags().map(|(k, v)| [k, v]).collect();
                    // The arbiter's events this page wrote into comments (`/api/pgn`), within
                    // the moves replayed.
                    let events: Vec<Value> = g
                        .game
                        .comments()
                        .filter(|(ply, _)| *ply <= r.moves.len())
                        .filter_map(|(ply, text)| {
                            state::event_of_text(text).map(|e| json!({"ply": ply, "event": e}))
                        })
                        .take(state::MAX_EVENTS)
                        .collect();
                    games.push(json!({
                        "number": g.number,
                        "title": r.title,
                        "tags": tags,
                        "fen": start,
                        "moves": r.moves.iter().map(|m| m.iccs()).collect::<Vec<_>>(),
                        "events": events,
                        "error": g.failure().map(|e| e.to_string()),
                        "remarks": g.remarks.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                    }));
                }
                records::Entry::NotAGame(n) => {
                    not_games.push(json!({"place": n.place.to_string(), "message": n.message}))
                }
            }
        }
        let encoding = file
            .encoding_note()
            .unwrap_or_else(|| "read as utf-8".into());
        Reply::answer(&Answer::one(
            "record",
            json!({"encoding": encoding, "games": games, "not_games": not_games}),
        ))
    }
}

/// A query-string value with its `%XX` escapes decoded (`cxa-2011%2Bprovincial-2012-open`);
/// an escape that is not one, or bytes that are not UTF-8, are kept as written.
fn percent_decoded(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| v.to_string())
}

/// The socket side of the server, which the binary gives.
pub(crate) struct Server {
    /// Serves a desk on a listener (bound to a loopback address or not) until the process
    /// ends.
    pub serve: fn(Desk, std::net::TcpListener, bool) -> Result<(), String>,
    /// The server's bounds as the rows of PROTOCOL.md §9's table (name, value, what it
    /// bounds, what happens beyond it): `--limits`.
    pub bounds: fn() -> Vec<[String; 4]>,
}

/// Runs `xqspec web`: serves until the process is stopped, or times the requests
/// (`--bench`), or prints the server's bounds (`--limits`).
pub(crate) fn run(spec: &Spec, a: &WebArgs, server: &Server) -> Result<(), String> {
    if a.limits {
        println!("| bound | value | what it bounds | beyond it |\n|---|---|---|---|");
        for row in (server.bounds)() {
            println!("| {} |", row.join(" | "));
        }
        return Ok(());
    }
    let desk = Desk::new(spec);
    if a.bench {
        return bench(&desk);
    }
    let addr = SocketAddr::new(a.bind, a.port);
    let listener =
        std::net::TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().unwrap_or(addr);
    if !a.bind.is_loopback() {
        eprintln!(
            "warning: listening on {bound}: anyone who can reach this address can use the page"
        );
    }
    println!("xqspec web: http://{bound}/ (stop with Ctrl-C)");
    (server.serve)(desk, listener, a.bind.is_loopback())
}

/// The longest a request `--bench` times may take on average (issue 35: a ruling or a whole
/// record adjudicated in under 100 ms).
const BENCH_BOUND: std::time::Duration = std::time::Duration::from_millis(100);

/// `--bench`: the page's main requests on a real 200-ply game, timed in process.
fn bench(desk: &Desk) -> Result<(), String> {
    let record = include_str!("bench-game.pgn");
    let time = |what: &str, runs: u32, f: &dyn Fn() -> Reply| -> Result<(), String> {
        let r = f();
        if r.status != 200
            || r.body.starts_with(br#"{"error""#)
            || r.body.starts_with(br#"{"reject""#)
        {
            return Err(format!("{what}: {}", String::from_utf8_lossy(&r.body)));
        }
        let t = Instant::now();
        for _ in 0..runs {
            std::hint::black_box(f());
        }
        let each = t.elapsed() / runs;
        println!("{what:<52} {:>9.2} ms", each.as_secs_f64() * 1e3);
        if each > BENCH_BOUND {
            return Err(format!(
                "{what}: {each:?} a request, over the bound of {BENCH_BOUND:?}"
            ));
        }
        Ok(())
    };
    let rec = desk.handle("POST", "/api/record", record.as_bytes());
    let v: Value = serde_json::from_slice(&rec.body).map_err(|e| e.to_string())?;
    let game = &v["result"]["record"]["games"][0];
    let moves: Vec<String> =
        serde_json::from_value(game["moves"].clone()).map_err(|e| e.to_string())?;
    let body = json!({"edition": "cxa-2020", "fen": game["fen"], "moves": moves}).to_string();
    println!(
        "a {}-ply game ({}); each request's mean time",
        moves.len(),
        game["title"].as_str().unwrap_or("?")
    );
    time(
        "page: GET / + app.js + app.css + /api/rulesets",
        100,
        &|| {
            for p in ["/", "/app.js", "/app.css"] {
                std::hint::black_box(desk.handle("GET", p, b""));
            }
            desk.handle("GET", "/api/rulesets", b"")
        },
    )?;
    // What the page asks at every step: the record with an arbiter's event judged whole and
    // at a ply, the cycle there ruled, with words.
    let state = json!({"edition": "cxa-2020", "fen": game["fen"], "moves": moves, "ply": moves.len() / 2,
        "events": [{"ply": 40, "event": {"claim_natural_limit": "red"}}, {"ply": moves.len(), "event": {"resign": if moves.len().is_multiple_of(2) { "red" } else { "black" }}}]}).to_string();
    let ask = json!({"edition": "cxa-2020", "query": "ruling", "input": {"fen": game["fen"], "moves": moves}}).to_string();
    // The game above repeats no position at its end: a cycle that does, with a chase.
    let cycle = json!({"edition": "cxa-2020", "query": "ruling", "input": {"fen": "5k3/9/cn7/9/8r/9/9/9/R8/3K5 w - - 0 1",
        "moves": ["a1b1", "f9f8", "b1a1", "f8f9", "a1b1", "f9f8", "b1a1", "f8f9"]}}).to_string();
    let legal = json!({"edition": "cxa-2020", "query": "legal_moves", "input": {"fen": game["fen"], "moves": moves}}).to_string();
    for (what, path, body) in [
        (
            "record read and replayed (/api/record)",
            "/api/record",
            record,
        ),
        (
            "whole record adjudicated (/api/status)",
            "/api/status",
            &body,
        ),
        (
            "the page's state at a ply, with events (/api/state)",
            "/api/state",
            &state,
        ),
        (
            "ruling of the whole line (/api/ask ruling)",
            "/api/ask",
            &ask,
        ),
        (
            "move list in Chinese notation (/api/line)",
            "/api/line",
            &body,
        ),
        ("board at the last ply (/api/board)", "/api/board", &body),
        (
            "ruling of an 8-ply perpetual chase (/api/ask ruling)",
            "/api/ask",
            &cycle,
        ),
        (
            "legal moves at the last ply (/api/ask legal_moves)",
            "/api/ask",
            &legal,
        ),
    ] {
        time(what, 20, &|| desk.handle("POST", path, body.as_bytes()))?;
    }
    Ok(())
}
