//! Game databases on every core: record files read in pieces of whole games, the pieces
//! replayed (and judged) in parallel, and what was found given back in file order.
//!
//! [`stream`] is the [`records`] path for many files and long ones: the
//! same games, numbered alike, with the same places and remarks, but
//!
//! - a file is read a piece at a time: a piece ends before a line that holds a tag pair
//!   (where the records path starts a game anyway) and not inside a run of tag lines, so
//!   memory is bounded by the largest game and the pieces in flight, not by the file;
//! - pieces are replayed on all the threads of the current rayon pool (or `threads` of a
//!   pool of its own), each with a [`Replayer`] of its own thread;
//! - while one window of pieces is replayed, the next is read.
//!
//! Each piece is decoded on its own with its `Base` (the lines, bytes and text before
//! it), so that every place, remark and error message is told in the file's terms. Memory
//! is bounded by three windows of 4 MiB and the largest game, not by the file nor the
//! number of files: a piece keeps its own bytes (not the buffer it was read into), and a
//! window counts each piece as at least 16 KiB, so a window of small files holds at most 256
//! of them. Two windows are in flight while the calling thread reads the next and hands the
//! values of the oldest to the sink.
//!
//! What the caller keeps of a game is its `work`'s value, computed on the worker from the
//! game as read and replayed; the `sink` gets everything in input order on the calling
//! thread. A file that holds a NUL byte in its first piece (UTF-16, or binary junk) is read
//! whole, as the records path reads it, within [`MAX_FILE_BYTES`].

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use encoding_rs::Encoding;
use rayon::prelude::*;

use super::records::{self, Base, Ending, Entry, FileError, GameEntry, NotAGame, RecordFile};
use super::replay::{GameReplay, Replayer};
use crate::input::MAX_FILE_BYTES;
use crate::vm::Rules;

/// How files are streamed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The files' encoding; detected piece by piece when `None`.
    pub encoding: Option<&'static Encoding>,
    /// Threads of a pool of its own (from 1 to [`max_threads`], taken into that range);
    /// `None` runs on the current rayon pool (all cores, or `RAYON_NUM_THREADS`).
    pub threads: Option<usize>,
    /// About how many bytes a piece holds (a game longer than this is one piece).
    pub piece_bytes: usize,
    /// About how many bytes of pieces a window holds (two windows are in memory: one
    /// replayed, the next read).
    pub window_bytes: usize,
    /// Set (by another thread) to stop: no window is read after it; the windows in flight
    /// are given to the sink, and the stream returns.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            encoding: None,
            threads: None,
            piece_bytes: 256 << 10,
            window_bytes: 4 << 20,
            stop: None,
        }
    }
}

/// What the stream found, in input order. `file` is the index of the file in the list.
#[derive(Debug)]
pub enum Found<W> {
    /// How a piece of the file was read when it is not all UTF-8 (`read as gb18030`); said
    /// once for a file unless a later piece is read otherwise.
    Note {
        /// The file.
        file: usize,
        /// The note.
        note: String,
    },
    /// A game, numbered among the games of its file, and what `work` kept of it.
    Game {
        /// The file.
        file: usize,
        /// 1-based among the file's games.
        number: usize,
        /// What `work` gave.
        work: W,
    },
    /// Text that is no game.
    NotAGame {
        /// The file.
        file: usize,
        /// Where and what.
        problem: NotAGame,
    },
    /// A file (or the rest of one) that could not be read.
    Unread {
        /// The file.
        file: usize,
        /// Why.
        error: FileError,
    },
    /// A file is done: its bytes read.
    Done {
        /// The file.
        file: usize,
        /// Bytes read.
        bytes: u64,
    },
}

/// Threads a stream may be given per core of the machine ([`max_threads`]).
pub const THREADS_PER_CORE: usize = 4;

/// The most threads a stream runs on: `THREADS_PER_CORE` per core of this machine.
/// Replay is bound by the processor, so threads beyond the cores only take turns on them,
/// and each costs a stack and a replayer of its own before any game is read (3,000 took
/// half a minute to start on a 2-core machine); a few per core leave room for a machine
/// busy with other work.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * THREADS_PER_CORE
}

/// A number of threads asked for (`--threads N`), refused with the reason when it is 0 or
/// more than [`max_threads`].
pub fn check_threads(n: usize) -> Result<usize, String> {
    let most = max_threads();
    if n == 0 {
        return Err("at least 1 thread replays the games".into());
    }
    if n > most {
        return Err(format!(
            "at most {most}: {THREADS_PER_CORE} per core of this machine ({} cores); replay is bound by the processor, so more threads only take turns on the cores, and each costs time and memory to start",
            most / THREADS_PER_CORE
        ));
    }
    Ok(n)
}

/// The most units a window holds: each counts for at least `window_bytes / UNITS` of
/// the window's bytes (16 KiB of the default 4 MiB), since a small file costs more than
/// its bytes (its path, its decoded text, what was found in it); so memory does not grow
/// with the number of files.
const UNITS: usize = 256;

/// Windows being replayed at once, besides the one the sink is given.
const WINDOWS_IN_FLIGHT: usize = 2;

/// A unit of work: a piece of a file, or a file that could not be read.
enum Unit {
    Piece {
        file: usize,
        piece: RecordFile,
        last: bool,
    },
    Unread {
        file: usize,
        error: FileError,
        bytes: u64,
    },
}

impl Unit {
    fn bytes(&self) -> usize {
        match self {
            Unit::Piece { piece, .. } => piece.len(),
            Unit::Unread { .. } => 0,
        }
    }
}

/// A file being read.
struct Open {
    index: usize,
    file: File,
    /// Bytes read and not yet cut into a piece.
    carry: Vec<u8>,
    base: Base,
    eof: bool,
    /// Whether a piece was cut from it yet.
    started: bool,
}

/// The files, read piece by piece.
struct Reader<'a> {
    files: &'a [PathBuf],
    next: usize,
    open: Option<Open>,
    opts: &'a Options,
}

impl Reader<'_> {
    /// Up to `window_bytes` of pieces (at least one unit unless all is read).
    fn window(&mut self) -> Vec<Unit> {
        let mut units = Vec::new();
        let stopped = |s: &std::sync::Arc<std::sync::atomic::AtomicBool>| {
            s.load(std::sync::atomic::Ordering::Relaxed)
        };
        if self.opts.stop.as_ref().is_some_and(stopped) {
            return units;
        }
        let mut bytes = 0;
        while bytes < self.opts.window_bytes {
            let Some(u) = self.unit() else { break };
            bytes += u.bytes().max(self.opts.window_bytes / UNITS);
            units.push(u);
        }
        units
    }

    /// The next piece of the open file, or of the next file; a file that cannot be opened
    /// (or read further) is a unit of its own.
    fn unit(&mut self) -> Option<Unit> {
        if self.open.is_none() {
            let index = self.next;
            let path = self.files.get(index)?;
            self.next += 1;
            let refused = |message: String| {
                Some(Unit::Unread {
                    file: index,
                    error: FileError {
                        path: path.clone(),
                        message,
                    },
                    bytes: 0,
                })
            };
            if path.is_dir() {
                return refused("is a directory, not a record file".into());
            }
            match File::open(path) {
                Ok(file) => {
                    self.open = Some(Open {
                        index,
                        file,
                        carry: Vec::new(),
                        base: Base::default(),
                        eof: false,
                        started: false,
                    })
                }
                Err(e) => return refused(format!("cannot read: {e}")),
            }
        }
        let open = self.open.as_mut().expect("a file is open");
        let path = &self.files[open.index];
        let index = open.index;
        match next_piece(open, path, self.opts) {
            Ok((piece, last)) => {
                if last {
                    self.open = None;
                }
                Some(Unit::Piece {
                    file: index,
                    piece,
                    last,
                })
            }
            Err(message) => {
                let bytes = open.base.byte as u64;
                self.open = None;
                Some(Unit::Unread {
                    file: index,
                    error: FileError {
                        path: path.clone(),
                        message,
                    },
                    bytes,
                })
            }
        }
    }
}

/// Reads into `carry` until it holds `want` bytes or the file ends. The buffer grows with
/// what is read (never to `want` ahead of it): a small file keeps a small buffer.
fn fill(open: &mut Open, want: usize) -> Result<(), String> {
    let have = open.carry.len();
    if have >= want || open.eof {
        return Ok(());
    }
    let asked = (want - have) as u64;
    match (&mut open.file).take(asked).read_to_end(&mut open.carry) {
        Ok(n) if (n as u64) < asked => open.eof = true,
        Ok(_) => {}
        Err(e) => return Err(format!("cannot read: {e}")),
    }
    Ok(())
}

/// The next piece of an open file, and whether it is the last (an empty piece ends a file
/// that ends where a piece did). A file that is not ASCII-compatible text (a NUL byte in its first piece) is one
/// piece.
fn next_piece(open: &mut Open, path: &Path, opts: &Options) -> Result<(RecordFile, bool), String> {
    let limit = MAX_FILE_BYTES as usize;
    fill(open, opts.piece_bytes)?;
    let whole = !open.started
        && (open.carry.contains(&0) || opts.encoding.is_some_and(|e| e.output_encoding() != e));
    let cut = if whole {
        fill(open, limit + 1)?;
        if open.carry.len() > limit {
            return Err(format!(
                "larger than the limit of {} MiB",
                MAX_FILE_BYTES >> 20
            ));
        }
        open.carry.len()
    } else {
        loop {
            if open.eof {
                break open.carry.len();
            }
            if let Some(at) = last_cut(&open.carry) {
                break at;
            }
            if open.carry.len() > limit {
                return Err(format!(
                    "the game from byte {} on is larger than the limit of {} MiB",
                    open.base.byte,
                    MAX_FILE_BYTES >> 20
                ));
            }
            let want = open.carry.len() * 2;
            fill(open, want)?;
        }
    };
    let rest = open.carry.split_off(cut);
    let mut bytes = std::mem::replace(&mut open.carry, rest);
    // A piece keeps what it holds, not the room it was read into: the window counts its
    // length, and thousands of small files would otherwise each keep a read buffer.
    bytes.shrink_to_fit();
    let last = open.eof && open.carry.is_empty();
    let piece = records::piece(path, bytes, opts.encoding, open.base);
    open.started = true;
    open.base.lines += piece.text().bytes().filter(|&b| b == b'\n').count();
    open.base.byte += piece.len();
    open.base.text += piece.text().len();
    Ok((piece, last))
}

/// Whether a line holds a tag pair and nothing else (`[Event "…"]`).
fn tag_line(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    line.len() >= 4
        && line[0] == b'['
        && line[1].is_ascii_alphabetic()
        && line[line.len() - 1] == b']'
}

/// The last place in `bytes` where a piece may end: the start of a tag line that follows a
/// line that is no tag line, with a complete line after it; not at 0.
fn last_cut(bytes: &[u8]) -> Option<usize> {
    // Line starts, from the last complete line backwards.
    let end = bytes.iter().rposition(|&b| b == b'\n')?;
    let mut line_end = end;
    loop {
        let start = bytes[..line_end]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if start == 0 {
            return None;
        }
        if tag_line(&bytes[start..line_end]) {
            let prev_start = bytes[..start - 1]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            if !tag_line(&bytes[prev_start..start - 1]) {
                return Some(start);
            }
        }
        line_end = start - 1;
    }
}

/// What a worker found in a piece.
enum Out<W> {
    Note(String),
    Game(W),
    NotAGame(NotAGame),
}

/// Streams `files`: every game replayed with the rules and judged by `judge` (its verdict
/// and the end it found, as [`records::games`] takes them), `work` applied to each game on
/// its worker, and everything handed to `sink` in input order on this thread.
pub fn stream<V, W>(
    rules: &Rules,
    files: &[PathBuf],
    opts: &Options,
    judge: &(dyn Fn(&GameReplay) -> (V, Option<Ending>) + Sync),
    work: &(dyn Fn(GameEntry<'_, V>) -> W + Sync),
    sink: &mut dyn FnMut(Found<W>),
) where
    V: Send,
    W: Send,
{
    let pool = opts.threads.and_then(|n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.clamp(1, max_threads()))
            .build()
            .ok()
    });
    let threads = pool
        .as_ref()
        .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let replayers: Vec<Mutex<Replayer>> = (0..threads)
        .map(|_| Mutex::new(Replayer::new(rules)))
        .collect();
    let process = |unit: &Unit| -> Vec<Out<W>> { replay_unit(unit, &replayers, judge, work) };
    let mut place = SinkPlace {
        file: usize::MAX,
        number: 0,
        bytes: 0,
        note: None,
    };
    // This thread reads windows and drains them in order; the pool replays them, two
    // windows in flight, so that neither reading nor the sink leaves a core idle.
    in_place(pool.as_ref(), |scope| {
        let mut reader = Reader {
            files,
            next: 0,
            open: None,
            opts,
        };
        let mut pending = std::collections::VecDeque::new();
        let mut read_all = false;
        loop {
            while !read_all && pending.len() < WINDOWS_IN_FLIGHT {
                let window = reader.window();
                if window.is_empty() {
                    read_all = true;
                    break;
                }
                let (tx, rx) = std::sync::mpsc::sync_channel(1);
                let process = &process;
                scope.spawn(move |_| {
                    let found: Vec<Vec<Out<W>>> = window.par_iter().map(process).collect();
                    let _ = tx.send((window, found));
                });
                pending.push_back(rx);
            }
            let Some(rx) = pending.pop_front() else { break };
            // A worker that panicked sends nothing: the scope raises its panic here.
            let Ok((window, found)) = rx.recv() else {
                break;
            };
            place.drain(window, found, sink);
        }
    })
}

/// What a worker finds in a unit of a window: a piece's encoding note, then each game
/// replayed, judged and worked on (or why it is not a game); nothing for a file not read.
fn replay_unit<V, W>(
    unit: &Unit,
    replayers: &[Mutex<Replayer>],
    judge: &(dyn Fn(&GameReplay) -> (V, Option<Ending>) + Sync),
    work: &(dyn Fn(GameEntry<'_, V>) -> W + Sync),
) -> Vec<Out<W>> {
    let Unit::Piece { piece, .. } = unit else {
        return Vec::new();
    };
    let slot = rayon::current_thread_index().unwrap_or(0) % replayers.len();
    // A worker that panicked poisons nothing another needs: its replayer's cache
    // holds parsed move texts only.
    let mut replayer = replayers[slot].lock().unwrap_or_else(|p| p.into_inner());
    let mut out = Vec::new();
    if let Some(note) = piece.encoding_note() {
        out.push(Out::Note(note));
    }
    for entry in records::games(piece, &mut replayer, judge) {
        out.push(match entry {
            Entry::Game(g) => Out::Game(work(*g)),
            Entry::NotAGame(n) => Out::NotAGame(n),
        });
    }
    out
}

/// Where the sink stands in the file being handed over: the file, its games numbered so
/// far, its bytes read, the last encoding note said.
struct SinkPlace {
    file: usize,
    number: usize,
    bytes: u64,
    note: Option<String>,
}

impl SinkPlace {
    /// What a window found, handed to the sink in order (on this thread): a note when it
    /// changes, games numbered within their file, a file's end once its last piece is done.
    fn drain<W>(
        &mut self,
        window: Vec<Unit>,
        found: Vec<Vec<Out<W>>>,
        sink: &mut dyn FnMut(Found<W>),
    ) {
        for (unit, outs) in window.iter().zip(found) {
            let (this, last) = match unit {
                Unit::Piece { file, last, .. } => (*file, *last),
                Unit::Unread { file, .. } => (*file, false),
            };
            if this != self.file {
                *self = SinkPlace {
                    file: this,
                    number: 0,
                    bytes: 0,
                    note: None,
                };
            }
            let file = self.file;
            self.bytes += unit.bytes() as u64;
            for o in outs {
                match o {
                    Out::Note(n) => {
                        if self.note.as_ref() != Some(&n) {
                            self.note = Some(n.clone());
                            sink(Found::Note { file, note: n });
                        }
                    }
                    Out::Game(work) => {
                        self.number += 1;
                        let number = self.number;
                        sink(Found::Game { file, number, work });
                    }
                    Out::NotAGame(problem) => sink(Found::NotAGame { file, problem }),
                }
            }
            if let Unit::Unread {
                error, bytes: read, ..
            } = unit
            {
                sink(Found::Unread {
                    file,
                    error: error.clone(),
                });
                sink(Found::Done { file, bytes: *read });
            } else if last {
                sink(Found::Done {
                    file,
                    bytes: self.bytes,
                });
            }
        }
    }
}

/// A rayon scope whose body runs on this thread: in `pool`, or in the current pool.
fn in_place<'scope, R>(
    pool: Option<&rayon::ThreadPool>,
    body: impl FnOnce(&rayon::Scope<'scope>) -> R,
) -> R {
    match pool {
        Some(p) => p.in_place_scope(body),
        None => rayon::in_place_scope(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_end_before_the_first_of_a_run_of_tag_lines() {
        let text = b"[Event \"a\"]\n[Site \"b\"]\n\n1. h2e2 *\n\n[Event \"c\"]\n[Site \"d\"]\n\n1. h2e2 *\n";
        let at = last_cut(text).unwrap();
        assert!(text[at..].starts_with(b"[Event \"c\"]"));
        // A line that starts with `[` but is no tag pair, a lone game, an unfinished line.
        assert_eq!(last_cut(b"1. h2e2 {\n[not a tag\n}\n"), None);
        assert_eq!(last_cut(b"[Event \"a\"]\n\n1. h2e2 *\n"), None);
        assert_eq!(last_cut(b"1. h2e2 *\n[Event \"c\"]"), None);
        assert_eq!(last_cut(b"1. h2e2 *\n[Event \"c\"]\n"), Some(10));
    }
}
