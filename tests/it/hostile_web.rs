//! Hostile clients of `xqspec web` (issue 45), each against a server of its own on loopback:
//! slow bodies, clients that never read, unfinished huge heads, HTTP/2 prior knowledge, bad
//! header bytes, bad and doubled `Host`s, more connections or requests than the bounds,
//! overlays that try to poison the cache, thousands of distinct overlays, huge captions.
//! After every attack the server answers a good request right, and quickly; no test takes
//! more than 10 s. The bounds are those of `xqspec web --limits` (PROTOCOL.md §9).

use crate::assert::assert_contains;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::web::{http, Server, START};

/// The server's bounds this file relies on (`xqspec web --limits`; checked against the
/// printed table by `the_limits_are_printed_and_in_protocol_md`).
const CONNECTIONS: usize = 512;
const REQUESTS: usize = 256;
const BODY_IDLE: Duration = Duration::from_secs(5);
const WRITE_STALL: Duration = Duration::from_secs(5);

/// How long a good request may take while an attack goes on.
const QUICK: Duration = Duration::from_secs(1);

/// A good request (the legal replies to 炮二平五: 45) answered right; how long it took.
fn good(s: &Server) -> Duration {
    let t = Instant::now();
    let (code, v) = s.post(
        "/api/ask",
        &json!({"edition": "cxa-2020", "query": "legal_moves", "input": {"fen": START, "moves": ["h2e2"]}}),
    );
    assert_eq!(
        (code, v["result"]["moves"].as_array().map(Vec::len)),
        (200, Some(45)),
        "{v}"
    );
    t.elapsed()
}

/// A good request answered right within [`QUICK`].
fn good_and_quick(s: &Server, during: &str) {
    let took = good(s);
    assert!(took < QUICK, "a good request took {took:?} {during}");
}

/// Sends `bytes` on a new connection and reads until the server closes it or `wait`
/// passes (a reset ends the reading too): what it answered.
fn exchange(addr: SocketAddr, bytes: &[u8], wait: Duration) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).unwrap();
    let _ = s.set_write_timeout(Some(wait));
    let _ = s.write_all(bytes);
    read_until_closed(&mut s, wait)
}

fn read_until_closed(s: &mut TcpStream, wait: Duration) -> Vec<u8> {
    let end = Instant::now() + wait;
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        let _ = s.set_read_timeout(Some(left.max(Duration::from_millis(1))));
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    out
}

/// The status of the first response in `bytes`.
fn status(bytes: &[u8]) -> Option<u16> {
    let text = String::from_utf8_lossy(bytes);
    text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// The answer `got` has the status `code`; a failure shows the whole answer.
#[track_caller]
fn assert_status(got: &[u8], code: u16) {
    assert_eq!(status(got), Some(code), "{}", String::from_utf8_lossy(got));
}

/// A header of the first response in `bytes`.
fn header(bytes: &[u8], name: &str) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let head = text.split("\r\n\r\n").next()?;
    head.lines().find_map(|l| {
        l.split_once(':')
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_string())
    })
}

/// The body of the first response in `bytes`, as JSON.
fn json_body(bytes: &[u8]) -> Value {
    let text = String::from_utf8_lossy(bytes);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or_else(|_| json!({"raw": body}))
}

/// The server's resident memory, in MB (Linux).
fn resident_mb(s: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.child.id())).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb / 1024
}

/// An attack on a server of its own (`tag` names its files): `f` makes it; after it a good
/// request is answered right and quickly, and the whole took less than 10 s.
fn attack(name: &str, tag: &str, f: impl FnOnce(&Server)) {
    let t = Instant::now();
    let s = Server::start(tag);
    f(&s);
    good_and_quick(&s, &format!("after {name}"));
    let took = t.elapsed();
    assert!(took < Duration::from_secs(10), "{name} took {took:?}");
}

/// A request's head announcing a body of 100,000 bytes, and its first byte.
fn slow_body_head(s: &Server) -> Vec<u8> {
    format!(
        "POST /api/ask HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{",
        s.addr
    )
    .into_bytes()
}

/// Connections that send `bytes` and then nothing, held open.
fn holding(s: &Server, n: usize, bytes: &[u8]) -> Vec<TcpStream> {
    (0..n)
        .map(|_| {
            let mut c = TcpStream::connect(s.addr).unwrap();
            c.write_all(bytes).unwrap();
            c
        })
        .collect()
}

#[test]
fn a_slow_body_is_answered_408_and_holds_no_one_else_up() {
    attack("the slow bodies", "hostile-slow-body", |s| {
        let t = Instant::now();
        let mut slow = holding(s, 8, &slow_body_head(s));
        good_and_quick(s, "while 8 bodies stall");
        for c in &mut slow {
            let got = read_until_closed(c, BODY_IDLE + Duration::from_secs(3));
            assert_status(&got, 408);
            let m = json_body(&got)["error"]["message"].to_string();
            assert_contains(&m, "no byte for 5 s");
        }
        let took = t.elapsed();
        assert!(
            took >= BODY_IDLE && took < BODY_IDLE + Duration::from_secs(3),
            "{took:?}"
        );
    });
}

/// The issue's target: 64 slow clients (32 stalled bodies, 32 unfinished heads) hold
/// connections, and a good request is answered within a second all the same.
#[test]
fn sixty_four_slow_clients_keep_no_good_request_waiting() {
    attack("the slow clients", "hostile-sixty-four", |s| {
        let mut held = holding(s, 32, &slow_body_head(s));
        held.extend(holding(
            s,
            32,
            format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: aaaa", s.addr).as_bytes(),
        ));
        let worst = (0..20).map(|_| good(s)).max().unwrap();
        eprintln!("64 slow clients: the slowest of 20 good requests took {worst:?}");
        assert!(worst < QUICK, "{worst:?}");
        drop(held);
    });
}

#[test]
fn a_client_that_never_reads_its_answers_is_dropped_and_holds_no_one_else_up() {
    attack("the deaf clients", "hostile-never-reads", |s| {
        // 300 pipelined requests for the page's script (31 KB each): 9 MB of answers, never read.
        let pipelined = format!("GET /app.js HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).repeat(300);
        let mut deaf: Vec<TcpStream> = (0..4)
            .map(|_| {
                let mut c = TcpStream::connect(s.addr).unwrap();
                c.set_write_timeout(Some(Duration::from_secs(1))).unwrap();
                let _ = c.write_all(pipelined.as_bytes());
                c
            })
            .collect();
        good_and_quick(s, "while 4 clients read nothing");
        std::thread::sleep(WRITE_STALL + Duration::from_millis(1500));
        good_and_quick(s, "after the deaf clients");
        // Reading now finds what the server had sent, then the end: it gave up long before the
        // 300th answer.
        let got = read_until_closed(&mut deaf[0], Duration::from_secs(2));
        let answers = String::from_utf8_lossy(&got)
            .matches("HTTP/1.1 200")
            .count();
        assert!((1..300).contains(&answers), "{answers} answers");
    });
}

#[test]
fn unfinished_huge_heads_are_refused_at_the_head_bound() {
    attack("the huge heads", "hostile-huge-heads", |s| {
        let before = resident_mb(s);
        let mut heads: Vec<TcpStream> = (0..4)
            .map(|_| {
                let mut c = TcpStream::connect(s.addr).unwrap();
                c.set_write_timeout(Some(Duration::from_secs(1))).unwrap();
                let _ = c.write_all(b"GET / HTTP/1.1\r\nX-Big: ");
                // 4 MB of one header value, never finished: the server stops reading at 32 KiB.
                let _ = c.write_all(&vec![b'a'; 4 << 20]);
                c
            })
            .collect();
        for c in &mut heads {
            let got = read_until_closed(c, Duration::from_secs(3));
            assert_status(&got, 431);
        }
        let after = resident_mb(s);
        assert!(after < before + 50, "{before} MB -> {after} MB");
        // Too many header fields, each small.
        let many: String = (0..100).map(|i| format!("X-{i}: {i}\r\n")).collect();
        let got = exchange(
            s.addr,
            format!("GET / HTTP/1.1\r\nHost: {}\r\n{many}\r\n", s.addr).as_bytes(),
            Duration::from_secs(3),
        );
        assert_status(&got, 431);
    });
}

/// One HTTP/2 frame.
fn h2_frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let n = payload.len();
    let mut f = vec![(n >> 16) as u8, (n >> 8) as u8, n as u8, kind, flags];
    f.extend_from_slice(&stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// `GET path` over HTTP/2 with prior knowledge, as `curl --http2-prior-knowledge` asks:
/// the preface, SETTINGS, one HEADERS frame (HPACK without Huffman or indexing). The
/// status (when the static table has it: 200, 400, 404, 500) and the body.
fn h2_get(addr: SocketAddr, path: &str, authority: &str) -> (Option<u16>, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut out = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    out.extend(h2_frame(4, 0, 0, &[]));
    // :method GET, :scheme http (indexed), :path and :authority (literal, indexed name).
    let mut block = vec![0x82, 0x86];
    for (name, value) in [(4u8, path), (1, authority)] {
        block.extend([name, value.len() as u8]);
        block.extend(value.bytes());
    }
    out.extend(h2_frame(1, 0x4 | 0x1, 1, &block));
    s.write_all(&out).unwrap();
    let (mut status, mut body) = (None, Vec::new());
    loop {
        let mut head = [0u8; 9];
        if s.read_exact(&mut head).is_err() {
            break;
        }
        let len = (head[0] as usize) << 16 | (head[1] as usize) << 8 | head[2] as usize;
        let (kind, flags) = (head[3], head[4]);
        let stream = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
        let mut payload = vec![0; len];
        s.read_exact(&mut payload).unwrap();
        match kind {
            // The server's SETTINGS, acknowledged.
            4 if flags & 1 == 0 => s.write_all(&h2_frame(4, 1, 0, &[])).unwrap(),
            1 if stream == 1 => {
                status = payload.first().map(|&b| match b {
                    0x88 => 200,
                    0x8c => 400,
                    0x8d => 404,
                    0x8e => 500,
                    _ => 0,
                });
                if flags & 1 != 0 {
                    break;
                }
            }
            0 if stream == 1 => {
                body.extend_from_slice(&payload);
                if flags & 1 != 0 {
                    break;
                }
            }
            // GOAWAY or RST_STREAM: no answer coming.
            7 | 3 => break,
            _ => {}
        }
    }
    (status, body)
}

#[test]
fn http2_with_prior_knowledge_is_answered_and_a_http2_request_line_gets_a_status() {
    attack("HTTP/2", "hostile-h2", |s| {
        let (code, body) = h2_get(s.addr, "/api/hello", &s.addr.to_string());
        let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        assert_eq!((code, &v["type"]), (Some(200), &json!("hello")), "{v}");
        // The Host check reads HTTP/2's :authority.
        let (_, body) = h2_get(s.addr, "/api/hello", "[::1].evil.example");
        assert!(
            String::from_utf8_lossy(&body).contains("this machine only"),
            "{}",
            String::from_utf8_lossy(&body)
        );
        // `HTTP/2.0` on an HTTP/1 request line: 400, and the connection closed.
        let got = exchange(
            s.addr,
            format!("GET / HTTP/2.0\r\nHost: {}\r\n\r\n", s.addr).as_bytes(),
            Duration::from_secs(3),
        );
        assert_status(&got, 400);
        // A preface cut short is closed when the connection has been idle long enough; a
        // good request meanwhile is answered.
        let _cut = holding(s, 4, b"PRI * HTTP/2.0\r\n");
    });
}

#[test]
fn bad_header_bytes_are_answered_with_a_status() {
    attack("bad bytes", "hostile-bytes", |s| {
        let host = s.addr.to_string();
        let cases: Vec<(Vec<u8>, u16)> = vec![
            // Bytes that are not UTF-8 in a header the server does not read: answered.
            (
                [
                    b"GET /api/hello HTTP/1.1\r\nHost: ".as_slice(),
                    host.as_bytes(),
                    b"\r\nX-Junk: \xff\xfe\r\nConnection: close\r\n\r\n",
                ]
                .concat(),
                200,
            ),
            // In the Host: 400.
            (
                [
                    b"GET /api/hello HTTP/1.1\r\nHost: \xff".as_slice(),
                    host.as_bytes(),
                    b"\r\nConnection: close\r\n\r\n",
                ]
                .concat(),
                400,
            ),
            // In a header's name, a NUL in a value, a TLS hello, garbage: 400.
            (
                [
                    b"GET /api/hello HTTP/1.1\r\nHo\xffst: ".as_slice(),
                    host.as_bytes(),
                    b"\r\n\r\n",
                ]
                .concat(),
                400,
            ),
            (
                [
                    b"GET /api/hello HTTP/1.1\r\nHost: ".as_slice(),
                    host.as_bytes(),
                    b"\r\nX-Nul: a\x00b\r\n\r\n",
                ]
                .concat(),
                400,
            ),
            (
                b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n".to_vec(),
                400,
            ),
            (b"\x00\x01\x02 GARBAGE\r\n\r\n".to_vec(), 400),
        ];
        for (request, want) in cases {
            let got = exchange(s.addr, &request, Duration::from_secs(3));
            assert_eq!(
                status(&got),
                Some(want),
                "{:?} -> {}",
                String::from_utf8_lossy(&request),
                String::from_utf8_lossy(&got)
            );
        }
    });
}

#[test]
fn the_host_is_checked_exactly_and_only_once() {
    attack("bad hosts", "hostile-host", |s| {
        let port = s.addr.port();
        let ask = |head: &str| {
            exchange(
                s.addr,
                format!("GET /api/hello HTTP/1.1\r\n{head}Connection: close\r\n\r\n").as_bytes(),
                Duration::from_secs(3),
            )
        };
        for (host, want) in [
            (format!("127.0.0.1:{port}"), 200),
            (format!("LOCALHOST:{port}"), 200),
            ("localhost".to_string(), 200),
            (format!("[::1]:{port}"), 200),
            ("[::1]".to_string(), 200),
            ("[::1].evil.example".to_string(), 403),
            (format!("[::1].evil.example:{port}"), 403),
            ("localhost.evil.example".to_string(), 403),
            ("127.0.0.1.nip.io".to_string(), 403),
            ("127.0.0.1:80:80".to_string(), 403),
            ("127.0.0.1:8o".to_string(), 403),
            ("localhost@evil.example".to_string(), 403),
            ("evil.example".to_string(), 403),
            ("[::1".to_string(), 403),
            ("".to_string(), 400),
        ] {
            let got = ask(&format!("Host: {host}\r\n"));
            assert_eq!(
                status(&got),
                Some(want),
                "Host: {host:?} -> {}",
                String::from_utf8_lossy(&got)
            );
            if want != 200 {
                assert!(json_body(&got)["error"]["message"].is_string(), "{host}");
            }
        }
        // Two Host fields (RFC 9112: 400), the same or not; none in HTTP/1.1 (400).
        let two = ask(&format!(
            "Host: 127.0.0.1:{port}\r\nHost: 127.0.0.1:{port}\r\n"
        ));
        assert_status(&two, 400);
        assert!(json_body(&two)["error"]["message"]
            .to_string()
            .contains("2 Host header fields"));
        let two = ask("Host: localhost\r\nHost: evil.example\r\n");
        assert_eq!(status(&two), Some(400));
        assert_eq!(status(&ask("")), Some(400));
        // An absolute-form target names its host too.
        let got = exchange(
            s.addr,
            format!("GET http://evil.example/api/hello HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n")
                .as_bytes(),
            Duration::from_secs(3),
        );
        assert_status(&got, 403);
    });
}

#[test]
fn connections_past_the_bound_are_answered_503_with_retry_after() {
    attack("the connections closed", "hostile-connections", |s| {
        let held: Vec<TcpStream> = (0..CONNECTIONS)
            .map(|_| TcpStream::connect(s.addr).unwrap())
            .collect();
        let got = exchange(
            s.addr,
            format!("GET /api/hello HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes(),
            Duration::from_secs(3),
        );
        assert_status(&got, 503);
        assert_eq!(header(&got, "retry-after").as_deref(), Some("1"));
        assert!(json_body(&got)["error"]["message"]
            .to_string()
            .contains("512 connections"));
        drop(held);
        std::thread::sleep(Duration::from_millis(300));
    });
}

#[test]
fn requests_past_the_bound_are_shed_with_503_then_served_again() {
    attack("the shed requests", "hostile-requests", |s| {
        let held = holding(s, REQUESTS, &slow_body_head(s));
        std::thread::sleep(Duration::from_millis(500));
        let got = exchange(
            s.addr,
            format!(
                "GET /api/hello HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                s.addr
            )
            .as_bytes(),
            Duration::from_secs(3),
        );
        assert_status(&got, 503);
        assert_eq!(header(&got, "retry-after").as_deref(), Some("1"));
        // The stalled bodies are refused (408) once idle for their bound; then all is served.
        std::thread::sleep(BODY_IDLE + Duration::from_millis(1000));
        good_and_quick(s, "after the shed requests");
        drop(held);
    });
}

/// The shipped overlay `provincial-2012-open` with its natural limit set to `rounds`, or
/// with a change of a clause its edition lacks; its id unchanged.
fn overlay(rounds: Option<u64>) -> Value {
    let mut o: Value = serde_json::from_str(
        r#"{"overlay":"provincial-2012-open","name":"2012 provincial amateur open","edition":"cxa-2011",
            "provenance":{"status":"verified","source":"digest","ref":"§10"},
            "changes":[{"clause":"draw.natural_limit","data":{"rounds":40,"checks_counted":8}}]}"#,
    )
    .unwrap();
    match rounds {
        Some(n) => o["changes"][0]["data"]["rounds"] = n.into(),
        None => o["changes"][0]["clause"] = "no.such_clause".into(),
    }
    o
}

/// The natural limit `/api/clause` gives under an overlay, or the reason it gives none.
fn natural_limit(s: &Server, overlay: &Value) -> Result<u64, String> {
    let (code, v) = s.post(
        "/api/clause",
        &json!({"edition": "cxa-2011", "overlay": overlay, "id": "draw.natural_limit"}),
    );
    assert_eq!(code, 200, "{v}");
    v["result"]["clause"]["data"]["rounds"]
        .as_u64()
        .ok_or_else(|| v.to_string())
}

#[test]
fn overlays_with_one_id_and_other_data_each_get_their_own_answer() {
    attack("the overlays", "hostile-overlay-id", |s| {
        let (fifty, thirty, bad) = (overlay(Some(50)), overlay(Some(30)), overlay(None));
        assert_eq!(natural_limit(s, &fifty), Ok(50));
        assert_eq!(natural_limit(s, &thirty), Ok(30));
        assert_eq!(natural_limit(s, &fifty), Ok(50));
        // Invalid after valid with its id: refused; valid after invalid: accepted.
        let e = natural_limit(s, &bad).unwrap_err();
        assert_contains(&e, "no.such_clause");
        assert_eq!(natural_limit(s, &thirty), Ok(30));
        // From 8 threads at once, two overlays of one id: each gets its own, every time.
        std::thread::scope(|scope| {
            for t in 0..8u64 {
                let (s, fifty, thirty) = (s, &fifty, &thirty);
                scope.spawn(move || {
                    for i in 0..25 {
                        let (o, want) = if (t + i) % 2 == 0 {
                            (fifty, 50)
                        } else {
                            (thirty, 30)
                        };
                        assert_eq!(natural_limit(s, o), Ok(want), "thread {t}, call {i}");
                    }
                });
            }
        });
    });
}

#[test]
fn thousands_of_distinct_overlays_keep_memory_bounded() {
    attack("1,200 overlays", "hostile-overlays-many", |s| {
        assert_eq!(natural_limit(s, &overlay(Some(31))), Ok(31));
        let before = resident_mb(s);
        // 1,200 rule sets of some 0.6 MB each would be 700 MB kept; the cache keeps 64.
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let s = &s;
                scope.spawn(move || {
                    for i in 0..300 {
                        let n = 1000 + t * 1000 + i;
                        assert_eq!(natural_limit(s, &overlay(Some(n))), Ok(n));
                    }
                });
            }
        });
        let after = resident_mb(s);
        eprintln!("1,200 distinct overlays: {before} MB -> {after} MB resident");
        assert!(after < before + 150, "{before} MB -> {after} MB");
        // The first is made again, right.
        assert_eq!(natural_limit(s, &overlay(Some(31))), Ok(31));
    });
}

#[test]
fn a_huge_caption_or_too_many_arrows_is_refused_naming_the_bound() {
    attack("the huge captions", "hostile-caption", |s| {
        let before = resident_mb(s);
        let board = |extra: Value| {
            let mut b = json!({"edition": "cxa-2020", "moves": ["h2e2"]});
            b.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            let (code, bytes) = http(
                s.addr,
                "POST",
                "/api/board",
                &s.addr.to_string(),
                b.to_string().as_bytes(),
            );
            (code, String::from_utf8_lossy(&bytes).into_owned())
        };
        for (extra, bound) in [
            (
                json!({"caption": "捉".repeat(3_000_000)}),
                "MAX_CAPTION_CHARS",
            ),
            (json!({"arrows": vec!["a0a9"; 10_000]}), "MAX_ARROWS"),
            (
                json!({"arrows": [format!("a0a9:{}", "x".repeat(100_000))]}),
                "MAX_LABEL_CHARS",
            ),
        ] {
            let (code, text) = board(extra);
            assert!(
                code == 200 && text.contains("unsupported") && text.contains(bound),
                "{code} {}",
                &text[..text.len().min(300)]
            );
            assert!(text.len() < 1000, "{} bytes", text.len());
        }
        // Within the bounds: drawn, and small.
        let (code, text) =
            board(json!({"caption": "c".repeat(200), "arrows": vec!["a0a9:捉"; 90]}));
        assert!(
            code == 200 && text.starts_with("<svg") && text.len() < 100_000,
            "{code} {} bytes",
            text.len()
        );
        let after = resident_mb(s);
        assert!(after < before + 200, "{before} MB -> {after} MB");
    });
}

/// The server's bounds are data: `xqspec web --limits` prints them, and PROTOCOL.md §9
/// lists the same table; this file's constants are the printed ones.
#[test]
fn the_limits_are_printed_and_in_protocol_md() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(["web", "--limits"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/PROTOCOL.md"),
    )
    .unwrap();
    let section = doc.split("## 9. ").nth(1).unwrap();
    for row in table.lines() {
        assert!(section.contains(row), "PROTOCOL.md §9 lacks the row {row}");
    }
    for (name, value) in [
        ("connections", CONNECTIONS.to_string()),
        ("requests", REQUESTS.to_string()),
        ("body_idle", format!("{} s", BODY_IDLE.as_secs())),
        ("write_stall", format!("{} s", WRITE_STALL.as_secs())),
    ] {
        assert!(
            table.contains(&format!("| `{name}` | {value} |")),
            "{name}: {table}"
        );
    }
}
