//! `xqspec web` through real sockets: the API answers as `serve` does, bad requests are
//! refused with a clear error and the server keeps serving, no request touches a file; and
//! the page itself driven in headless Chromium through ChromeDriver (WebDriver): a record
//! with a perpetual check loaded, its verdict and end ply shown, a cycle entered by clicking
//! the board and each move's class checked, screenshots at a laptop's and a phone's width.
//!
//! The browser test needs `chromedriver` and `chromium` (Debian's chromium-driver and
//! chromium, which `.ci/run` installs); without them it says so and passes, unless
//! `XQSPEC_REQUIRE_BROWSER` is set (CI sets it), when it fails.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_xqspec");

/// A running `xqspec web --port 0` in its own empty working folder, killed when dropped.
pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) addr: SocketAddr,
    dir: PathBuf,
}

impl Server {
    pub(crate) fn start(name: &str) -> Server {
        let dir = std::env::temp_dir().join(format!("xqspec-web-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut child = Command::new(BIN)
            .args(["web", "--port", "0"])
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // `xqspec web: http://127.0.0.1:PORT/ (stop with Ctrl-C)`
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server {
            child,
            addr: addr.parse().unwrap(),
            dir,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    pub(crate) fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, bytes) = http(
            self.addr,
            "POST",
            path,
            &self.addr.to_string(),
            body.to_string().as_bytes(),
        );
        (
            status,
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| json!({"raw": String::from_utf8_lossy(&bytes)})),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One HTTP/1.1 request on its own connection; the status and the body. Chunked bodies
/// (ChromeDriver's) are joined.
pub(crate) fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    host: &str,
    body: &[u8],
) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before reading all of a long body and close.
    let _ = s.write_all(body);
    read_response(&mut BufReader::new(s))
}

/// Reads one response: the head, then the body by its length, chunks, or to the end. (A
/// server may keep the connection open whatever the request asked: ChromeDriver does.)
pub(crate) fn read_response(r: &mut impl BufRead) -> (u16, Vec<u8>) {
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push(line.trim_end().to_string());
    }
    let status: u16 = head
        .first()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {head:?}"));
    let header = |name: &str| {
        head.iter().find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_string())
        })
    };
    let mut body = Vec::new();
    if let Some(n) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(n, 0);
        r.read_exact(&mut body).unwrap();
    } else if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        let _ = r.read_to_end(&mut body);
    }
    (status, body)
}

pub(crate) const START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A record with a perpetual check by Red (plies 1–13) that goes on for two more plies.
const PERPETUAL_CHECK_PGN: &str = "[Event \"perpetual check\"]\n[FEN \"4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1\"]\n\n\
1. a1a9 e9e8 2. a9a8 e8e9 3. a8a9 e9e8 4. a9a8 e8e9 5. a8a9 e9e8 6. a9a8 e8e9 7. a8a9 e9e8 8. a9a8 *\n";

#[test]
fn the_api_answers_as_serve_does_and_reads_real_records() {
    let s = Server::start("api");
    // `/api/ask` is `serve`'s answer without the id.
    let (code, a) = s.post(
        "/api/ask",
        &json!({"edition": "cxa-2020", "query": "legal_moves", "input": {"fen": START}}),
    );
    assert_eq!(
        (code, a["result"]["moves"].as_array().map(Vec::len)),
        (200, Some(44)),
        "{a}"
    );
    let (_, a) = s.post("/api/ask", &json!({"edition": "cxa-2020", "query": "ruling", "input": {"fen": "5k3/9/cn7/9/8r/9/9/9/R8/3K5 w - - 0 1", "moves": ["a1b1", "f9f8", "b1a1", "f8f9"]}}));
    let r = &a["result"]["ruling"];
    assert_eq!(r["verdict"], "red_must_change", "{a}");
    assert_eq!(
        (
            r["plies"][0]["class"].as_str(),
            r["plies"][0]["article"].as_str(),
            r["plies"][0]["clause"].as_str()
        ),
        (Some("chase"), Some("24.3"), Some("repetition.chase"))
    );
    // A record read as sent, any encoding: GBK bytes here.
    let (gbk, _, _) = encoding_rs::GBK
        .encode("[Event \"对局\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n");
    let (code, bytes) = http(
        s.addr,
        "POST",
        "/api/record?edition=cxa-2020",
        &s.addr.to_string(),
        &gbk,
    );
    let a: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(code, 200);
    assert_eq!(a["result"]["record"]["encoding"], "read as gb18030", "{a}");
    assert_eq!(
        a["result"]["record"]["games"][0]["moves"],
        json!(["h2e2", "h9g7", "h0g2", "i9h9"]),
        "{a}"
    );
    // Text that is no game and a remark, with their places, as `replay` reports them.
    let (_, bytes) = http(
        s.addr,
        "POST",
        "/api/record",
        &s.addr.to_string(),
        b"\x01\x02junk [Event \"b\"]\n\n1. h2e2 h9g7 3. h0g2 *\n",
    );
    let a: Value = serde_json::from_slice(&bytes).unwrap();
    let r = &a["result"]["record"];
    assert_eq!(
        (
            r["games"].as_array().map(Vec::len),
            r["games"][0]["moves"].as_array().map(Vec::len)
        ),
        (Some(1), Some(3)),
        "{a}"
    );
    assert!(
        r["not_games"][0]["place"]
            .as_str()
            .is_some_and(|p| p.starts_with("line 1, column 1")),
        "{a}"
    );
    assert!(
        r["games"][0]["remarks"][0]
            .as_str()
            .is_some_and(|m| m.contains("line 3")),
        "{a}"
    );
    // A rule set's id escaped in the query string, as a browser writes it.
    let (_, bytes) = http(
        s.addr,
        "POST",
        "/api/record?edition=cxa-2011%2Bprovincial-2012-open",
        &s.addr.to_string(),
        b"1. h2e2 *",
    );
    let a: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        a["result"]["record"]["games"][0]["moves"],
        json!(["h2e2"]),
        "{a}"
    );
    // A record that goes on after the perpetual check is judged up to its end.
    let (_, a) = s.post("/api/status", &json!({"edition": "cxa-2020", "fen": "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
        "moves": "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8".split(' ').collect::<Vec<_>>()}));
    let g = &a["result"]["game_status"];
    assert_eq!(
        (
            g["result"].as_str(),
            g["ply"].as_u64(),
            g["clause"].as_str()
        ),
        (Some("black_wins"), Some(13), Some("result.perpetual_check")),
        "{a}"
    );
    assert_eq!(g["continues"], json!({"from": 13, "left": 2}));
    // The move list in any notation; moves may be given in any notation too.
    let (_, a) = s.post("/api/line", &json!({"edition": "cxa-2020", "fen": "startpos", "moves": ["炮二平五", "h9g7"], "notation": "wxf"}));
    let texts: Vec<&str> = a["result"]["line"]["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["C2.5", "H8+7"], "{a}");
    // Drawings: a board and the ruling sheet, SVG.
    for path in ["/api/board", "/api/sheet"] {
        let body = json!({"edition": "cxa-2020", "fen": "5k3/9/cn7/9/8r/9/9/9/R8/3K5 w - - 0 1", "moves": ["a1b1", "f9f8", "b1a1", "f8f9"]});
        let (code, bytes) = http(
            s.addr,
            "POST",
            path,
            &s.addr.to_string(),
            body.to_string().as_bytes(),
        );
        assert!(
            code == 200 && bytes.starts_with(b"<svg"),
            "{path}: {code} {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
        );
    }
    // A clause with its summary and provenance; the rule sets and the overlays for the page.
    let (_, a) = s.post(
        "/api/clause",
        &json!({"edition": "cxa-2020", "id": "repetition.chase"}),
    );
    assert_eq!(a["result"]["clause"]["article"], "24.3", "{a}");
    assert!(
        a["result"]["clause"]["summary"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
            && a["result"]["clause"]["provenance"]["status"].is_string(),
        "{a}"
    );
    let (code, bytes) = http(s.addr, "GET", "/api/rulesets", &s.addr.to_string(), b"");
    let a: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(code, 200);
    assert!(
        a["rulesets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["id"] == "axf")
            && !a["overlays"].as_array().unwrap().is_empty(),
        "{a}"
    );
    // An overlay sent with the ask is applied, as `serve` applies it.
    let overlay = &a["overlays"][0];
    let (_, b) = s.post("/api/ask", &json!({"edition": overlay["edition"], "overlay": overlay, "query": "legal_moves", "input": {"fen": START}}));
    assert!(b["result"]["moves"].is_array(), "{b}");
}

/// A request that goes wrong: method, path, `Host`, body, and the status and words its
/// answer must have.
type Bad = (&'static str, String, String, Vec<u8>, u16, &'static str);

/// Requests that go wrong, each with what its answer must say.
fn bad_requests(s: &Server) -> Vec<Bad> {
    let host = s.addr.to_string();
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    vec![
        ("POST", "/api/ask".into(), host.clone(), b"{not json".to_vec(), 400, "request body of /api/ask:1:"),
        ("POST", "/api/ask".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"query\":\"perft\",\"input\":{},\"extra\":1}".to_vec(), 400, "unknown field `extra`"),
        ("POST", "/api/ask".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"edition\":\"axf\",\"query\":\"perft\"}".to_vec(), 400, "duplicate"),
        ("POST", "/api/ask".into(), host.clone(), format!("{{\"edition\":\"cxa-2020\",\"query\":\"legal_moves\",\"input\":{{\"fen\":{deep}}}}}").into_bytes(), 400, "nested deeper"),
        ("POST", "/api/status".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"fen\":\"\xff\xfe\"}".to_vec(), 400, "not UTF-8 at byte"),
        ("POST", "/api/ask".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"query\":\"legal_moves\",\"input\":{\"fen\":\"rnbakabnr/9 w\"}}".to_vec(), 200, "\"reject\""),
        ("POST", "/api/ask".into(), host.clone(), b"{\"edition\":\"cxa-1066\",\"query\":\"legal_moves\",\"input\":{\"fen\":\"x\"}}".to_vec(), 200, "edition cxa-1066 is not supported"),
        ("POST", "/api/ask".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"query\":\"perft\",\"input\":{\"fen\":\"startpos\",\"depth\":9}}".to_vec(), 200, "limits.perft_nodes"),
        ("POST", "/api/board".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"moves\":[\"e0e2\"]}".to_vec(), 200, "\"reject\""),
        ("POST", "/api/line".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"moves\":[\"e3e4\"],\"notation\":\"klingon\"}".to_vec(), 200, "notation klingon"),
        ("POST", "/api/status".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"fen\":\"rnbakabnr/9 w\",\"moves\":[\"\\u70ae\\u4e8c\\u5e73\\u4e94\"]}".to_vec(), 200, "\"kind\":\"fen."),
        ("POST", "/api/clause".into(), host.clone(), b"{\"edition\":\"cxa-2020\",\"id\":\"no.such\"}".to_vec(), 200, "has no clause no.such"),
        ("GET", "/api/ask".into(), host.clone(), Vec::new(), 405, "not allowed here"),
        ("GET", "/../Cargo.toml".into(), host.clone(), Vec::new(), 404, "no such page"),
        ("GET", "/spec/cxa-2020/movement.yaml".into(), host.clone(), Vec::new(), 404, "no such page"),
        ("GET", "/".into(), "evil.example:80".into(), Vec::new(), 403, "this machine only"),
        ("POST", "/api/record?edition=nope".into(), host.clone(), b"1. h2e2".to_vec(), 200, "unknown edition nope"),
        ("POST", "/api/record?edition=cxa-2020%2Bnope".into(), host.clone(), b"1. h2e2".to_vec(), 200, "ships no overlay nope"),
    ]
}

#[test]
fn a_thousand_requests_good_and_bad_every_good_one_answered_right() {
    let s = Server::start("thousand");
    let bad = bad_requests(&s);
    let host = s.addr.to_string();
    let good_ask = json!({"edition": "cxa-2020", "query": "legal_moves", "input": {"fen": START, "moves": ["h2e2"]}}).to_string();
    let mut good = 0;
    for i in 0..1000 {
        if i % 2 == 0 {
            let (method, path, h, body, code, says) = &bad[(i / 2) % bad.len()];
            let (got, bytes) = http(s.addr, method, path, h, body);
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                got == *code && text.contains(says),
                "request {i} ({method} {path}): {got} {text}"
            );
            if *code >= 400 {
                let v: Value = serde_json::from_slice(&bytes)
                    .unwrap_or_else(|_| panic!("request {i}: not JSON: {text}"));
                assert!(v["error"]["message"].is_string(), "request {i}: {v}");
            }
        } else {
            let (got, bytes) = http(s.addr, "POST", "/api/ask", &host, good_ask.as_bytes());
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            // Black has 45 answers to 炮二平五 (`xqspec moves --moves h2e2`).
            assert_eq!(
                (got, v["result"]["moves"].as_array().map(Vec::len)),
                (200, Some(45)),
                "request {i}: {v}"
            );
            good += 1;
        }
    }
    assert_eq!(good, 500);
    // Junk that is not HTTP, and a body past the bound, then the server still answers.
    let mut junk = TcpStream::connect(s.addr).unwrap();
    junk.write_all(b"\x00\x01\x02 GARBAGE\r\n\r\n").unwrap();
    drop(junk);
    let big = vec![b' '; (16 << 20) + 10];
    let (code, bytes) = http(s.addr, "POST", "/api/ask", &host, &big);
    assert_eq!(code, 413, "{}", String::from_utf8_lossy(&bytes));
    let (got, bytes) = http(s.addr, "POST", "/api/ask", &host, good_ask.as_bytes());
    assert_eq!(got, 200, "{}", String::from_utf8_lossy(&bytes));
    // No request wrote a file where the server runs.
    assert_eq!(
        std::fs::read_dir(&s.dir).unwrap().count(),
        0,
        "the server wrote into its folder"
    );
}

#[test]
fn the_page_is_served_from_the_binary() {
    let s = Server::start("page");
    let host = s.addr.to_string();
    for (path, has) in [
        ("/", "<script src=\"app.js\">"),
        ("/app.js", "/api/ask"),
        ("/app.css", "#board"),
    ] {
        let (code, bytes) = http(s.addr, "GET", path, &host, b"");
        assert!(
            code == 200 && String::from_utf8_lossy(&bytes).contains(has),
            "{path}: {code}"
        );
    }
}

/// PROTOCOL.md §9's table names every route the server has, with its method, and its
/// example is answered as shown.
#[test]
fn protocol_md_section_9_is_the_server_s_api() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/PROTOCOL.md"),
    )
    .unwrap();
    let section = doc
        .split("## 9. ")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap();
    let s = Server::start("doc");
    let host = s.addr.to_string();
    let mut routes = 0;
    for row in section
        .lines()
        .filter(|l| l.starts_with("| `GET ") || l.starts_with("| `POST "))
    {
        let route = row.split('`').nth(1).unwrap();
        let (method, path) = route.split_once(' ').unwrap();
        let path = path.split('?').next().unwrap();
        // The route exists: the other method is refused as a method, not as a path.
        let other = if method == "GET" { "POST" } else { "GET" };
        let (code, body) = http(s.addr, other, path, &host, b"");
        assert_eq!(
            code,
            405,
            "{other} {path}: {}",
            String::from_utf8_lossy(&body)
        );
        let (code, _) = http(s.addr, method, path, &host, b"{}");
        assert_ne!(code, 404, "{route}");
        routes += 1;
    }
    assert_eq!(routes, 10, "the table lists the ten routes");
    let (code, _) = http(s.addr, "GET", "/api/nothing", &host, b"");
    assert_eq!(code, 404);
    let lines: Vec<&str> = section.lines().collect();
    let ask = lines
        .iter()
        .find_map(|l| l.strip_prefix("POST /api/ask "))
        .unwrap();
    let shown = lines.iter().find_map(|l| l.strip_prefix("200 ")).unwrap();
    let (code, got) = s.post("/api/ask", &serde_json::from_str(ask).unwrap());
    assert_eq!(
        (code, got),
        (200, serde_json::from_str::<Value>(shown).unwrap())
    );
}

#[test]
fn the_server_listens_on_loopback_unless_told() {
    let out = Command::new(BIN).args(["web", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("[default: 127.0.0.1]"), "{help}");
}

// ---- the page in a browser ------------------------------------------------------------------

/// A WebDriver session of ChromeDriver driving headless Chromium.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    fn start() -> Option<Browser> {
        let found = |p: &str| Path::new(p).exists();
        let (driver, chromium) = ("/usr/bin/chromedriver", "/usr/bin/chromium");
        if !found(driver) || !found(chromium) {
            let why = format!(
                "{driver} or {chromium} missing (apt-get install chromium chromium-driver)"
            );
            assert!(
                std::env::var_os("XQSPEC_REQUIRE_BROWSER").is_none(),
                "the browser test is required: {why}"
            );
            eprintln!("skipped: {why}");
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < until, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = std::env::temp_dir().join(format!("xqspec-chromium-{}", std::process::id()));
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {"binary": chromium, "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", format!("--user-data-dir={}", profile.display())]}}}});
        let mut b = Browser {
            driver: child,
            addr,
            session: String::new(),
        };
        let v = b.call("POST", "/session", &caps);
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        Some(b)
    }

    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        let path = if path.starts_with("/session/") || path == "/session" {
            path.to_string()
        } else {
            format!("/session/{}{path}", self.session)
        };
        let body = if method == "GET" {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let (_, bytes) = http(self.addr, method, &path, &self.addr.to_string(), &body);
        let v: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{path}: {}", String::from_utf8_lossy(&bytes)));
        if v["value"]["error"].is_string() && path != "/session" {
            panic!("{method} {path}: {}", v["value"]);
        }
        v.get("value").cloned().unwrap_or(v)
    }

    fn script(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            &json!({"script": script, "args": args}),
        )
    }

    /// Waits until `condition` (a JavaScript expression) is true; panics with `what` after 15 s.
    fn wait(&self, condition: &str, what: &str) {
        let until = Instant::now() + Duration::from_secs(15);
        loop {
            if self.script(&format!("return !!({condition});"), json!([])) == json!(true) {
                return;
            }
            assert!(
                Instant::now() < until,
                "waited 15 s for {what} ({condition})"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn click(&self, css: &str) {
        let e = self.call(
            "POST",
            "/element",
            &json!({"using": "css selector", "value": css}),
        );
        let id = e[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {e}"))
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), &json!({}));
    }

    fn text(&self, css: &str) -> String {
        self.script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
            json!([css]),
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    fn size(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            &json!({"width": width, "height": height}),
        );
    }

    fn screenshot(&self, path: &Path) {
        let v = self.call("GET", "/screenshot", &json!({}));
        std::fs::write(path, base64(v.as_str().unwrap())).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(
                self.addr,
                "DELETE",
                &format!("/session/{}", self.session),
                &self.addr.to_string(),
                b"",
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
            n.to_be_bytes()[1..c.len()].to_vec()
        })
        .collect()
}

#[test]
fn an_arbiter_rules_a_record_and_a_clicked_cycle_in_a_browser() {
    let Some(b) = Browser::start() else { return };
    let s = Server::start("browser");
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web");
    std::fs::create_dir_all(&shots).unwrap();
    b.size(1280, 1000);
    b.call("POST", "/url", &json!({"url": s.url()}));
    b.wait("document.body.dataset.readyMs", "the page to be ready");
    let ready: f64 = b
        .script("return +document.body.dataset.readyMs;", json!([]))
        .as_f64()
        .unwrap();
    eprintln!("page ready {ready:.0} ms after navigation started (the start position drawn, its legal moves and status asked)");
    assert!(ready < 5_000.0, "the page took {ready} ms");

    // A record with a perpetual check, pasted and loaded: the verdict and the ply it ended.
    b.script(
        "document.getElementById('record-text').value = arguments[0];",
        json!([PERPETUAL_CHECK_PGN]),
    );
    b.click("#record-load");
    b.wait("document.getElementById('end-verdict')", "the adjudication");
    let verdict = b.text("#end-verdict");
    assert!(
        verdict.contains("Black wins") && verdict.contains("ended after ply 13"),
        "{verdict}"
    );
    assert!(
        b.text("#end").contains("result.perpetual_check") && b.text("#end").contains("4.1.4"),
        "{}",
        b.text("#end")
    );
    assert!(
        b.text("#end").contains("goes on for 2 more plies"),
        "{}",
        b.text("#end")
    );
    b.wait(
        "document.getElementById('ruling-verdict')",
        "the ruling of the cycle where the game ended",
    );
    assert_eq!(
        b.script(
            "return document.getElementById('ruling-verdict').dataset.verdict;",
            json!([])
        ),
        "red_loses"
    );
    b.click("#go-end");
    b.wait(
        "document.getElementById('ply').textContent === '13'",
        "the page to show ply 13",
    );
    assert_eq!(
        b.text("#moves .mv.current"),
        "车九进一",
        "the move of ply 13, in Chinese notation"
    );
    // The README's picture: the whole page at a laptop's width.
    b.size(1280, 1500);
    b.script("window.scrollTo(0, 0);", json!([]));
    b.screenshot(&shots.join("record.png"));
    b.size(1280, 1000);

    // A cycle entered by clicking the board: 长捉 by Red's chariot.
    b.click("#setup summary");
    b.script(
        "document.getElementById('fen').value = arguments[0];",
        json!(["5k3/9/cn7/9/8r/9/9/9/R8/3K5 w - - 0 1"]),
    );
    b.click("#fen-form button");
    b.wait("document.getElementById('plies').textContent === '0' && document.querySelector('#points div[data-square=a1]')", "the position");
    for (n, mv) in ["a1b1", "f9f8", "b1a1", "f8f9"].iter().enumerate() {
        b.wait(
            &format!("document.getElementById('ply').textContent === '{n}'"),
            "the move before",
        );
        b.click(&format!("#points div[data-square={}]", &mv[..2]));
        b.wait(
            &format!(
                "document.querySelector('#points div[data-square={}].to')",
                &mv[2..]
            ),
            "the legal target shown",
        );
        b.click(&format!("#points div[data-square={}]", &mv[2..]));
    }
    b.wait(
        "document.getElementById('ply').textContent === '4'",
        "four moves played",
    );
    b.click("#rule");
    b.wait("document.getElementById('ruling-verdict')", "the ruling");
    let classes = b.script("return [...document.querySelectorAll('#ruling tr[data-class]')].map(r => r.dataset.class);", json!([]));
    assert_eq!(classes, json!(["chase", "idle", "chase", "idle"]));
    assert_eq!(
        b.script(
            "return document.getElementById('ruling-verdict').dataset.verdict;",
            json!([])
        ),
        "red_must_change"
    );
    assert!(
        b.text("#ruling").contains("红方长捉，禁止") && b.text("#ruling").contains("24.3"),
        "{}",
        b.text("#ruling")
    );
    b.script("window.scrollTo(0, 0);", json!([]));
    b.screenshot(&shots.join("cycle.png"));

    // Two rule sets compared on the page: what changed from 2011 to 2020, most consequential
    // first with its certainty, how much of 2011 is assumed, the answers that differ with
    // their diagrams.
    b.script("document.getElementById('diff-from').value = 'cxa-2011'; document.getElementById('diff-to').value = 'cxa-2020';", json!([]));
    b.click("#diff-form button");
    b.wait(
        "document.querySelector('#diff ul.changes li')",
        "the differences of 2011 and 2020",
    );
    let first = b.text("#diff ul.changes li");
    assert!(
        first.contains("cxa-2020 4.3") && first.contains("differs (read)"),
        "{first}"
    );
    assert!(
        b.text("#diff")
            .contains("cxa-2011: 98 of its 114 clauses are assumed"),
        "{}",
        b.text("#diff")
    );
    assert!(
        b.script(
            "return document.querySelectorAll('#diff .diff-board svg').length;",
            json!([])
        )
        .as_u64()
        .unwrap()
            > 0,
        "the diagrams of the answers that differ"
    );
    b.script("document.querySelector('#diff details.behaviour').open = true; document.getElementById('diff-section').scrollIntoView();", json!([]));
    b.screenshot(&shots.join("diff.png"));

    // Chinese labels, and a phone's width without sideways scrolling.
    b.click("#lang");
    b.wait(
        "document.querySelector('h1 span').textContent === '裁判台'",
        "the Chinese labels",
    );
    b.size(390, 844);
    b.script("window.scrollTo(0, 0);", json!([]));
    b.screenshot(&shots.join("phone.png"));
    let overflow = b
        .script(
            "return document.documentElement.scrollWidth - window.innerWidth;",
            json!([]),
        )
        .as_i64()
        .unwrap();
    let wide = b.script("return [...document.querySelectorAll('body *')].filter(e => !e.closest('.table-wrap') && e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8);", json!([]));
    assert!(overflow <= 0, "{overflow} px wider than a phone: {wide}");
    eprintln!("screenshots in {}", shots.display());
}

/// `/api/diff`: any two rule sets' differences, as `xqspec diff --json` gives them, with the
/// report's Markdown and the diagrams of its behaviour cases; an unknown rule set is
/// `unsupported`, a missing one a 400.
#[test]
fn the_api_shows_the_differences_of_two_rule_sets() {
    let s = Server::start("diff");
    let host = s.addr.to_string();
    let (code, bytes) = http(
        s.addr,
        "GET",
        "/api/diff?from=cxa-2011&to=cxa-2020",
        &host,
        b"",
    );
    let a: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(code, 200);
    let d = &a["result"]["diff"];
    assert_eq!(
        (d["from"].as_str(), d["to"].as_str()),
        (Some("cxa-2011"), Some("cxa-2020"))
    );
    let change = d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["clause"] == "draw.natural_limit")
        .expect("the natural limit changes");
    assert_eq!(
        (
            change["certainty"].as_str(),
            change["article_from"].as_str(),
            change["article_to"].as_str()
        ),
        (Some("differs_weak"), Some("22.2"), Some("4.2.4")),
        "{change}"
    );
    assert!(d["markdown"]
        .as_str()
        .unwrap()
        .starts_with("# Differences: cxa-2011 → cxa-2020"));
    let b = d["behaviour"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["diagram"].is_string())
        .expect("a behaviour case with its diagram");
    let diagram = b["diagram"].as_str().unwrap();
    assert!(
        d["diagrams"][diagram]
            .as_str()
            .is_some_and(|svg| svg.starts_with("<svg")),
        "{diagram}"
    );
    assert!(
        b["answer_from"]["text"]
            .as_str()
            .is_some_and(|t| !t.contains('{')),
        "{b}"
    );
    // An overlay's rule set, `+` escaped as a browser writes it.
    let (code, bytes) = http(
        s.addr,
        "GET",
        "/api/diff?from=cxa-2011&to=cxa-2011%2Bprovincial-2012-open",
        &host,
        b"",
    );
    let a: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(code, 200);
    assert!(
        a["result"]["diff"]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["clause"] == "draw.natural_limit"),
        "{a}"
    );
    let (code, bytes) = http(
        s.addr,
        "GET",
        "/api/diff?from=cxa-2011&to=cxa-2042",
        &host,
        b"",
    );
    let a: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(code, 200);
    assert!(
        a["unsupported"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("cxa-2042")),
        "{a}"
    );
    let (code, _) = http(s.addr, "GET", "/api/diff?from=cxa-2011", &host, b"");
    assert_eq!(code, 400);
}
