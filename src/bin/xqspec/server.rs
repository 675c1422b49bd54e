//! The socket side of `xqspec web`: hyper (HTTP/1.1, and HTTP/2 for a client that opens
//! with its preface) on a one-thread tokio runtime, axum's router and tower's and
//! tower-http's layers around [`Desk::handle`], within the bounds of [`LIMITS`].
//!
//! A request goes through, in order:
//! 1. the connection bound (`connections`: beyond it a `503` with `Retry-After`, written
//!    without reading the request, and the connection closed);
//! 2. hyper's bounds on the head (`head_bytes`, `headers`: `431`; a malformed head or a bad
//!    byte in a header's name: `400`; the head not sent within `head_time`: closed) and on
//!    HTTP/2 (`h2_streams`, `head_bytes` for a header list);
//! 3. tower's load shedding (`requests` in progress: `503`), tower-http's time-out of the
//!    whole request (`request_time`: `408`), body length (`body_bytes`: `413`) and idle body
//!    (`body_idle`: `408`);
//! 4. [`answer`]: the `Host` check ([`gate`]), the body read within the budget of bytes in
//!    flight (`bytes_in_flight`: `503`), a worker (`workers`, at most `queue` waiting:
//!    `503`), [`Desk::handle`] on the worker, the answer held within the same budget until
//!    it is written.
//!
//! Under all of it each connection's socket is [`Watched`]: a write that the client does
//! not take for `write_stall`, or no byte either way for `idle`, ends the connection.
//! Every refusal of a layer becomes the API's `{"error": {"message"}}` ([`json_refusal`]).
//! A panic in [`Desk::handle`] costs its request (`500`). All the bounds are [`LIMITS`] (one
//! `const`), printed by `--limits` and listed in PROTOCOL.md §9 (a test compares).
//!
//! Why hyper, axum, tower and tower-http (issue 45): the server must time every connection
//! out, bound heads, bodies, connections and requests, shed load with `503`, and answer
//! HTTP/2's preface; tiny_http (the first server, four synchronous workers) could do none of
//! the time bounds, and four slow clients stopped it. These are the ecosystem's standard
//! pieces for exactly that, and what they do not do (the byte budget, the worker queue, the
//! write stall, the exact Host check) is a few lines each on top. The cost, measured from
//! clean on the 2-core machine (test profile, load average 9): 35 crates more in the tree
//! (tokio, mio, socket2, hyper, hyper-util, h2, http, http-body(-util), httparse, axum,
//! axum-core, matchit, mime, tower, tower-layer, tower-service, tower-http, tokio-util,
//! futures-*, bytes, tracing(-core), slab, smallvec, …) and 4 fewer (tiny_http, ascii,
//! chunked_transfer, log); the new ones build from nothing in 46 s of CPU (1.5 to 2 min of
//! wall time; tiny_http's 4 took 7.4 s of CPU, 16 s of wall time, in the same conditions).
//!
//! Why in the binary (issue 46): the library then never names these crates, so they can
//! build without optimisation without slowing it (`[profile.dev.package]` in Cargo.toml
//! says why they could not otherwise). A request's work is the library's [`Desk::handle`],
//! optimised as the library is.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::error_handling::HandleErrorLayer;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, HOST, RETRY_AFTER};
use axum::http::{HeaderValue, Response, StatusCode, Version};
use axum::Router;
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt as _, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{sleep, Instant, Sleep};
use tower::limit::GlobalConcurrencyLimitLayer;
use tower::ServiceBuilder;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

use xqspec::cli::{Desk, Reply};

/// The server's bounds: what one client may hold or send, and how long it may take.
/// PROTOCOL.md §9 lists them (`xqspec web --limits` prints the table; a test compares).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections open at once; one more is answered `503` with `Retry-After` and closed.
    pub connections: usize,
    /// Requests in progress at once (over every connection; HTTP/2 carries several on
    /// one); one more is answered `503`.
    pub requests: usize,
    /// Answers computed at once ([`Desk::handle`] on its own thread each).
    pub workers: usize,
    /// Requests read and waiting for a worker; one more is answered `503`.
    pub queue: usize,
    /// Bytes of a request's head (request line and headers), and of an HTTP/2 header
    /// list; beyond, `431` (HTTP/1.1) or the stream refused (HTTP/2).
    pub head_bytes: usize,
    /// Header fields of one request; beyond, `431`.
    pub headers: usize,
    /// Bytes of one request body; beyond, `413`.
    pub body_bytes: usize,
    /// Bytes of request bodies read and of answers not yet written, over all requests;
    /// a request that would go beyond is answered `503`.
    pub bytes_in_flight: usize,
    /// Time to send a request's head, from the connection's start or the end of the last
    /// answer (so also how long a kept-alive HTTP/1.1 connection may stay idle); beyond,
    /// the connection is closed.
    pub head_time: Duration,
    /// Time the body may go without a byte; beyond, `408`.
    pub body_idle: Duration,
    /// Time from the head to the answer (body, queue and work); beyond, `408`.
    pub request_time: Duration,
    /// Time an answer's bytes may wait for the client to take them; beyond, the
    /// connection is closed.
    pub write_stall: Duration,
    /// Time a connection may go without a byte either way (HTTP/2's idle connections, a
    /// preface never finished); beyond, it is closed.
    pub idle: Duration,
    /// Streams open at once on one HTTP/2 connection.
    pub h2_streams: u32,
    /// The `Retry-After` of every `503`, in seconds.
    pub retry_after_secs: u32,
}

/// The bounds of `xqspec web`. Every figure is well beyond what the page asks (a handful
/// of requests at once, bodies of a few kilobytes, answers in under 100 ms, `--bench`)
/// and well within what this machine holds: the bytes a client can make the server keep
/// are at most `bytes_in_flight` plus `connections` × (`head_bytes` + socket buffers).
pub const LIMITS: Limits = Limits {
    connections: 512,
    requests: 256,
    workers: 4,
    queue: 64,
    head_bytes: 32 << 10,
    headers: 64,
    // The protocol's longest line: a record of many games fits.
    body_bytes: xqspec::MAX_LINE_BYTES,
    bytes_in_flight: 256 << 20,
    head_time: Duration::from_secs(5),
    body_idle: Duration::from_secs(5),
    request_time: Duration::from_secs(15),
    write_stall: Duration::from_secs(5),
    idle: Duration::from_secs(20),
    h2_streams: 16,
    retry_after_secs: 1,
};

impl Limits {
    /// Each bound as a row of PROTOCOL.md §9's table: name, value, what it bounds, what
    /// happens beyond it.
    pub fn rows(&self) -> Vec<[String; 4]> {
        BOUNDS
            .iter()
            .map(|(n, value, what, beyond)| {
                [
                    format!("`{n}`"),
                    value(self),
                    what.to_string(),
                    beyond.to_string(),
                ]
            })
            .collect()
    }
}

/// A duration in whole seconds (`20 s`).
fn secs(d: Duration) -> String {
    format!("{} s", d.as_secs())
}

/// A size in MiB or KiB where it is a whole number of them, else in bytes.
fn bytes(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// A row of [`BOUNDS`]: name, its value with its unit, what it bounds, what happens beyond.
type Bound = (
    &'static str,
    fn(&Limits) -> String,
    &'static str,
    &'static str,
);

/// The bounds of PROTOCOL.md §9's table, in its order.
const BOUNDS: &[Bound] = &[
    (
        "connections",
        |l| l.connections.to_string(),
        "connections open at once",
        "`503` with `Retry-After`, then closed",
    ),
    (
        "requests",
        |l| l.requests.to_string(),
        "requests in progress at once, over all connections",
        "`503` with `Retry-After`",
    ),
    (
        "workers",
        |l| l.workers.to_string(),
        "answers computed at once",
        "the request waits in the queue",
    ),
    (
        "queue",
        |l| l.queue.to_string(),
        "requests read and waiting for a worker",
        "`503` with `Retry-After`",
    ),
    (
        "head_bytes",
        |l| bytes(l.head_bytes),
        "a request's line and headers (HTTP/2: its header list)",
        "`431`",
    ),
    (
        "headers",
        |l| l.headers.to_string(),
        "header fields of a request",
        "`431`",
    ),
    (
        "body_bytes",
        |l| bytes(l.body_bytes),
        "a request's body",
        "`413`",
    ),
    (
        "bytes_in_flight",
        |l| bytes(l.bytes_in_flight),
        "bodies read and answers not yet written, over all requests",
        "`503` with `Retry-After`",
    ),
    (
        "head_time",
        |l| secs(l.head_time),
        "to send a request's head (also: a kept-alive connection's idle time)",
        "the connection closed",
    ),
    (
        "body_idle",
        |l| secs(l.body_idle),
        "a body without a byte",
        "`408`",
    ),
    (
        "request_time",
        |l| secs(l.request_time),
        "from a request's head to its answer",
        "`408`",
    ),
    (
        "write_stall",
        |l| secs(l.write_stall),
        "an answer's bytes waiting for the client to take them",
        "the connection closed",
    ),
    (
        "idle",
        |l| secs(l.idle),
        "a connection without a byte either way (HTTP/2, a preface left unfinished)",
        "the connection closed",
    ),
    (
        "h2_streams",
        |l| l.h2_streams.to_string(),
        "streams open at once on one HTTP/2 connection",
        "the stream refused",
    ),
    (
        "retry_after_secs",
        |l| l.retry_after_secs.to_string(),
        "the `Retry-After` of a `503`, in seconds",
        "—",
    ),
];

/// What every request shares: the desk, whether the Host check applies, and the pools
/// the bounds draw from.
struct App {
    desk: Arc<Desk>,
    /// Listening on a loopback address: only requests to this machine are answered.
    loopback: bool,
    /// `LIMITS.workers` permits: one per answer being computed.
    workers: Arc<Semaphore>,
    /// Requests waiting for a worker.
    waiting: AtomicUsize,
    /// `LIMITS.bytes_in_flight` permits, one per byte of a body read or an answer unsent.
    bytes: Arc<Semaphore>,
}

/// Serves `desk` on `listener` until the process ends.
pub fn serve(desk: Desk, listener: std::net::TcpListener, loopback: bool) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(LIMITS.workers)
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(accept(desk, listener, loopback))
}

async fn accept(desk: Desk, listener: std::net::TcpListener, loopback: bool) -> Result<(), String> {
    let listener = listener
        .set_nonblocking(true)
        .and_then(|()| tokio::net::TcpListener::from_std(listener))
        .map_err(|e| format!("cannot listen: {e}"))?;
    let service = service(desk, loopback);
    let builder = Arc::new(builder());
    let open = Arc::new(Semaphore::new(LIMITS.connections));
    // Refusals being written: as many again; beyond, a connection is closed unanswered.
    let refusing = Arc::new(Semaphore::new(LIMITS.connections));
    loop {
        let tcp = match listener.accept().await {
            Ok((tcp, _)) => tcp,
            // Out of file descriptors, say: wait for some to close.
            Err(_) => {
                sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        if let Ok(permit) = open.clone().try_acquire_owned() {
            let (builder, service) = (builder.clone(), service.clone());
            tokio::spawn(async move {
                let io = TokioIo::new(Watched::new(tcp));
                let _ = builder
                    .serve_connection(io, TowerToHyperService::new(service))
                    .await;
                drop(permit);
            });
        } else if let Ok(permit) = refusing.clone().try_acquire_owned() {
            tokio::spawn(async move {
                too_many_connections(tcp).await;
                drop(permit);
            });
        }
    }
}

/// The hyper connection builder: HTTP/1.1, or HTTP/2 when the client opens with its
/// preface, each with the bounds of [`LIMITS`].
fn builder() -> auto::Builder<TokioExecutor> {
    let mut b = auto::Builder::new(TokioExecutor::new());
    b.http1()
        .timer(TokioTimer::new())
        .header_read_timeout(LIMITS.head_time)
        .max_buf_size(LIMITS.head_bytes)
        .max_headers(LIMITS.headers)
        .keep_alive(true);
    b.http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(LIMITS.h2_streams)
        .max_header_list_size(LIMITS.head_bytes as u32)
        .max_send_buf_size(1 << 20)
        .max_pending_accept_reset_streams(Some(20))
        .max_local_error_reset_streams(Some(256));
    b
}

/// The service every connection shares: the layers, then the router with one route for
/// everything, [`answer`].
fn service(
    desk: Desk,
    loopback: bool,
) -> impl tower::Service<
    Request<hyper::body::Incoming>,
    Response = Response<Body>,
    Error = std::convert::Infallible,
    Future: Send + 'static,
> + Clone
       + Send
       + 'static {
    let app = Arc::new(App {
        desk: Arc::new(desk),
        loopback,
        workers: Arc::new(Semaphore::new(LIMITS.workers)),
        waiting: AtomicUsize::new(0),
        bytes: Arc::new(Semaphore::new(LIMITS.bytes_in_flight)),
    });
    let router = Router::new().fallback(answer).with_state(app);
    ServiceBuilder::new()
        .map_response(|r: Response<_>| json_refusal(r.map(Body::new)))
        .layer(HandleErrorLayer::new(|_: tower::BoxError| async {
            // The only error of the layers below: load shed.
            response(
                Reply::refused(
                    503,
                    format!(
                        "the server is busy ({} requests in progress): try again shortly",
                        LIMITS.requests
                    ),
                ),
                None,
            )
        }))
        .load_shed()
        .layer(GlobalConcurrencyLimitLayer::with_semaphore(Arc::new(
            tokio::sync::Semaphore::new(LIMITS.requests),
        )))
        .layer(RequestBodyLimitLayer::new(LIMITS.body_bytes))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            LIMITS.request_time,
        ))
        .layer(RequestBodyTimeoutLayer::new(LIMITS.body_idle))
        .service(router)
}

/// Answers a connection beyond the bound: a `503` with `Retry-After`, then closes it after
/// reading (and dropping) what the client sent for a moment, so that the answer is not
/// lost to a reset.
async fn too_many_connections(mut tcp: tokio::net::TcpStream) {
    let body = serde_json::json!({"error": {"message": format!(
        "the server has {} connections open, its bound: try again shortly", LIMITS.connections
    )}})
    .to_string();
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\nretry-after: {}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        LIMITS.retry_after_secs,
        body.len()
    );
    let write = async {
        tcp.write_all(head.as_bytes()).await?;
        tcp.write_all(body.as_bytes()).await?;
        tcp.shutdown().await?;
        let mut sink = [0u8; 4096];
        loop {
            if tokio::io::AsyncReadExt::read(&mut tcp, &mut sink).await? == 0 {
                return Ok::<(), std::io::Error>(());
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// A refusal's or an answer's HTTP response; `held` (bytes of the budget) is kept until the
/// body is written or dropped.
fn response(reply: Reply, held: Option<OwnedSemaphorePermit>) -> Response<Body> {
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = Body::new(Held {
        bytes: Full::new(Bytes::from(reply.body)),
        _permit: held,
    });
    let mut r = Response::new(body);
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    if status == StatusCode::SERVICE_UNAVAILABLE {
        h.insert(RETRY_AFTER, HeaderValue::from(LIMITS.retry_after_secs));
    }
    r
}

/// An answer's bytes with their place in the budget of bytes in flight, given back when
/// the body is dropped (written, or the connection gone).
struct Held {
    bytes: Full<Bytes>,
    _permit: Option<OwnedSemaphorePermit>,
}

impl http_body::Body for Held {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.get_mut().bytes).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.bytes.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.bytes.size_hint()
    }
}

/// A refusal made by a layer (tower-http's `408` and `413` have no body or a text one)
/// as the API's JSON error, saying which bound.
fn json_refusal(r: Response<Body>) -> Response<Body> {
    let json = r
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if r.status().as_u16() < 400 || json {
        return r;
    }
    let message = match r.status() {
        StatusCode::REQUEST_TIMEOUT => format!(
            "the request took longer than its bound ({} s from its head to its answer)",
            LIMITS.request_time.as_secs()
        ),
        StatusCode::PAYLOAD_TOO_LARGE => body_too_long(),
        s => format!("refused: {s}"),
    };
    response(Reply::refused(r.status().as_u16(), message), None)
}

/// The refusal of a request that would take the bytes in flight past their bound.
fn over_budget() -> Reply {
    Reply::refused(
        503,
        format!(
            "the server holds {} MiB of requests and answers, its bound: try again shortly",
            LIMITS.bytes_in_flight >> 20
        ),
    )
}

fn body_too_long() -> String {
    format!(
        "the request body is longer than {} MiB (its bound)",
        LIMITS.body_bytes >> 20
    )
}

/// The one route: the Host check, the body, a worker, [`Desk::handle`].
async fn answer(State(app): State<Arc<App>>, request: Request) -> Response<Body> {
    let (parts, body) = request.into_parts();
    if let Err(refusal) = gate(&parts, app.loopback) {
        return response(refusal, None);
    }
    let (body, held) = match read_body(body, &app.bytes).await {
        Ok(b) => b,
        Err(refusal) => return response(refusal, None),
    };
    // A place in the queue, then a worker.
    struct Waiting<'a>(&'a AtomicUsize);
    impl Drop for Waiting<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }
    if app.waiting.fetch_add(1, Ordering::SeqCst) >= LIMITS.queue {
        app.waiting.fetch_sub(1, Ordering::SeqCst);
        return response(
            Reply::refused(
                503,
                format!(
                    "the server is busy ({} requests wait for its {} workers): try again shortly",
                    LIMITS.queue, LIMITS.workers
                ),
            ),
            None,
        );
    }
    let waiting = Waiting(&app.waiting);
    let Ok(worker) = app.workers.clone().acquire_owned().await else {
        return response(Reply::refused(503, "the server is stopping"), None);
    };
    drop(waiting);
    let method = parts.method.as_str().to_string();
    let url = parts
        .uri
        .path_and_query()
        .map_or_else(|| parts.uri.path().to_string(), |p| p.as_str().to_string());
    let desk = app.desk.clone();
    // The worker's permit goes with the work: a request that timed out still holds it
    // until its answer is made (the work of one request is bounded).
    let work = tokio::task::spawn_blocking(move || {
        let _worker = worker;
        let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            desk.handle(&method, &url, &body)
        }))
        .unwrap_or_else(|_| {
            Reply::refused(
                500,
                format!("internal error (panic) answering {method} {url}"),
            )
        });
        drop(body);
        drop(held);
        reply
    });
    let reply = match work.await {
        Ok(r) => r,
        Err(_) => Reply::refused(500, "internal error: the worker stopped"),
    };
    // The answer is held until written: within the budget, or refused.
    let n = reply.body.len().min(u32::MAX as usize) as u32;
    match app.bytes.clone().try_acquire_many_owned(n) {
        Ok(permit) => response(reply, Some(permit)),
        Err(_) => response(over_budget(), None),
    }
}

/// Reads a request body within the budget of bytes in flight: the bytes and the permit
/// that holds their place, or the refusal (`413`, `408`, `503`, `400`).
async fn read_body(
    mut body: Body,
    budget: &Arc<Semaphore>,
) -> Result<(Vec<u8>, OwnedSemaphorePermit), Reply> {
    let mut held = budget
        .clone()
        .try_acquire_many_owned(0)
        .map_err(|_| over_budget())?;
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| body_error(&e.into_inner()))?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > LIMITS.body_bytes {
                return Err(Reply::refused(413, body_too_long()));
            }
            let more = budget
                .clone()
                .try_acquire_many_owned(data.len() as u32)
                .map_err(|_| over_budget())?;
            held.merge(more);
            bytes.extend_from_slice(&data);
        }
    }
    Ok((bytes, held))
}

/// The refusal for a body that could not be read to its end.
fn body_error(e: &tower::BoxError) -> Reply {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e.as_ref());
    while let Some(c) = cause {
        if c.is::<http_body_util::LengthLimitError>() {
            return Reply::refused(413, body_too_long());
        }
        if c.is::<tower_http::timeout::TimeoutError>() {
            return Reply::refused(
                408,
                format!(
                    "the request body stopped: no byte for {} s (its bound)",
                    LIMITS.body_idle.as_secs()
                ),
            );
        }
        cause = c.source();
    }
    Reply::refused(400, format!("the request body could not be read: {e}"))
}

/// The checks of a request's `Host` (RFC 9112, 3.2): one `Host` field, of visible ASCII,
/// present in HTTP/1.1; on a loopback address, it and the target's authority (HTTP/2's
/// `:authority`, an absolute-form target) name this machine exactly ([`local_host`]), so
/// that a page elsewhere cannot reach the server through a name of its own (DNS
/// rebinding).
fn gate(parts: &axum::http::request::Parts, loopback: bool) -> Result<(), Reply> {
    let fields: Vec<&HeaderValue> = parts.headers.get_all(HOST).iter().collect();
    if fields.len() > 1 {
        return Err(Reply::refused(
            400,
            format!(
                "{} Host header fields: a request has exactly one (RFC 9112, 3.2)",
                fields.len()
            ),
        ));
    }
    let host = match fields.first() {
        Some(v) => Some(v.to_str().ok().filter(|s| !s.is_empty()).ok_or_else(|| {
            Reply::refused(
                400,
                "the Host header is not a host name (empty, or bytes that are not visible ASCII)",
            )
        })?),
        None => None,
    };
    if host.is_none() && parts.version == Version::HTTP_11 {
        return Err(Reply::refused(
            400,
            "an HTTP/1.1 request without a Host header (RFC 9112, 3.2)",
        ));
    }
    if !loopback {
        return Ok(());
    }
    let names: Vec<&str> = host
        .into_iter()
        .chain(parts.uri.authority().map(|a| a.as_str()))
        .collect();
    match names.iter().find(|n| !local_host(n)) {
        None if !names.is_empty() => Ok(()),
        found => Err(Reply::refused(
            403,
            format!(
                "host {}: this server answers requests to this machine only (127.0.0.1, localhost, [::1])",
                found.copied().unwrap_or("(none)")
            ),
        )),
    }
}

/// Whether an authority (`host[:port]`) is exactly `127.0.0.1`, `localhost` or `[::1]`
/// (any case), with at most a port of digits after it: `[::1].evil.example`,
/// `localhost.evil.example` or `127.0.0.1:80:80` are not.
pub(super) fn local_host(authority: &str) -> bool {
    let split = if authority.starts_with('[') {
        authority.find(']').map(|i| i + 1)
    } else {
        Some(authority.find(':').unwrap_or(authority.len()))
    };
    let Some(at) = split else { return false };
    let (name, rest) = authority.split_at(at);
    let port = rest.is_empty()
        || rest
            .strip_prefix(':')
            .is_some_and(|p| p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
    port && ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
}

/// A connection's socket with its time bounds: a write pending for `LIMITS.write_stall`
/// without a byte taken, or any read or write pending for `LIMITS.idle` without a byte
/// moved either way, fails with `TimedOut`, which ends the connection.
struct Watched {
    io: tokio::net::TcpStream,
    read: Alarm,
    write: Alarm,
}

/// A time bound armed when an operation starts to wait and disarmed when a byte moves.
struct Alarm {
    limit: Duration,
    sleep: Pin<Box<Sleep>>,
    armed: bool,
}

impl Alarm {
    fn new(limit: Duration) -> Alarm {
        Alarm {
            limit,
            sleep: Box::pin(sleep(limit)),
            armed: false,
        }
    }

    /// Called when an operation waits: whether its time is up.
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        if !self.armed {
            self.sleep.as_mut().reset(Instant::now() + self.limit);
            self.armed = true;
        }
        self.sleep.as_mut().poll(cx).is_ready()
    }
}

impl Watched {
    fn new(io: tokio::net::TcpStream) -> Watched {
        Watched {
            io,
            read: Alarm::new(LIMITS.idle),
            write: Alarm::new(LIMITS.write_stall),
        }
    }

    fn timed_out(what: &str) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::TimedOut, what.to_string())
    }

    /// A write that waits: an error once the client has taken nothing for `write_stall`.
    fn write_waits<T>(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<T>> {
        if self.write.expired(cx) {
            Poll::Ready(Err(Watched::timed_out(
                "the client takes no byte of the answer",
            )))
        } else {
            Poll::Pending
        }
    }

    /// A write that moved bytes: both alarms start afresh.
    fn wrote(&mut self) {
        self.write.armed = false;
        self.read.armed = false;
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Pending if this.read.expired(cx) => {
                Poll::Ready(Err(Watched::timed_out("the connection is idle")))
            }
            Poll::Pending => Poll::Pending,
            ready => {
                this.read.armed = false;
                ready
            }
        }
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_write(cx, buf) {
            Poll::Pending => this.write_waits(cx),
            ready => {
                this.wrote();
                ready
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_write_vectored(cx, bufs) {
            Poll::Pending => this.write_waits(cx),
            ready => {
                this.wrote();
                ready
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_flush(cx) {
            Poll::Pending => this.write_waits(cx),
            ready => ready,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_shutdown(cx) {
            Poll::Pending => this.write_waits(cx),
            ready => ready,
        }
    }
}
