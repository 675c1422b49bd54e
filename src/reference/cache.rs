//! Caches that live across requests (`serve`'s session, `xqspec web`, the Python package):
//! found by a digest of what the answer depends on, never by a name the client chose, and
//! bounded, the least recently used entry going first.
//!
//! - [`Bounded`]: at most `capacity` entries; each value is made once, outside the lock (a
//!   slow value holds up only the callers waiting for that same value), and callers on
//!   many threads asking for one key share it.
//! - [`Digest`]: 128 bits of two keyed SipHash passes over the bytes of a value's content,
//!   keyed afresh in every process: a client cannot choose two contents with one digest.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// A digest of some content: equal contents give equal digests; different contents give
/// different ones but with a chance of 2⁻¹²⁸ per pair (two SipHash passes with keys drawn
/// at random for this process, so the chance cannot be steered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(u128);

/// The two hashers' keys, drawn once per process.
fn keys() -> &'static (RandomState, RandomState) {
    static KEYS: OnceLock<(RandomState, RandomState)> = OnceLock::new();
    KEYS.get_or_init(|| (RandomState::new(), RandomState::new()))
}

impl Digest {
    /// The digest of the bytes `write` writes (a serializer's output, say), taken as they
    /// are written: the content is never held whole.
    pub fn of(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Digest {
        struct Both<A, B>(A, B, u64);
        impl<A: Hasher, B: Hasher> std::io::Write for Both<A, B> {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.write(buf);
                self.1.write(buf);
                self.2 += buf.len() as u64;
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let (a, b) = keys();
        let mut both = Both(a.build_hasher(), b.build_hasher(), 0);
        // Writing into hashers cannot fail; a serializer that fails midway still gives
        // the digest of what it wrote, and its length.
        let _ = write(&mut both);
        let Both(mut a, mut b, len) = both;
        // The length closes the content, so that no content is a prefix of another's.
        len.hash(&mut a);
        len.hash(&mut b);
        Digest((u128::from(a.finish()) << 64) | u128::from(b.finish()))
    }

    /// The digest of some bytes.
    #[cfg(test)]
    pub fn of_bytes(bytes: &[u8]) -> Digest {
        Digest::of(|w| w.write_all(bytes))
    }
}

/// One entry: its value (made once) and when it was last asked for.
struct Entry<V> {
    value: Arc<OnceLock<V>>,
    used: u64,
}

/// A cache of at most `capacity` values by key; when full, a new key evicts the least
/// recently used. Safe to share between threads.
pub struct Bounded<K, V> {
    capacity: usize,
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    entries: HashMap<K, Entry<V>>,
    clock: u64,
}

impl<K: Eq + Hash + Clone, V: Clone> Bounded<K, V> {
    /// An empty cache holding at most `capacity` values (at least one).
    pub fn new(capacity: usize) -> Self {
        Bounded {
            capacity: capacity.max(1),
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                clock: 0,
            }),
        }
    }

    /// How many values it holds now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<K, V>> {
        // A panic while the lock was held left the map whole (no step of ours panics
        // midway), so a poisoned lock is taken as it is.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The value of `key`, made by `make` if the cache does not hold it. `make` runs
    /// without the cache's lock; callers asking for the same key meanwhile wait for it and
    /// share its value. A `make` that panics leaves no value: the next caller makes it.
    pub fn get_or_make(&self, key: K, make: impl FnOnce() -> V) -> V {
        let cell = {
            let mut inner = self.lock();
            inner.clock += 1;
            let now = inner.clock;
            if let Some(e) = inner.entries.get_mut(&key) {
                e.used = now;
                e.value.clone()
            } else {
                if inner.entries.len() >= self.capacity {
                    let oldest = inner
                        .entries
                        .iter()
                        .min_by_key(|(_, e)| e.used)
                        .map(|(k, _)| k.clone());
                    if let Some(k) = oldest {
                        inner.entries.remove(&k);
                    }
                }
                let value = Arc::new(OnceLock::new());
                inner.entries.insert(
                    key,
                    Entry {
                        value: value.clone(),
                        used: now,
                    },
                );
                value
            }
        };
        cell.get_or_init(make).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_tell_contents_apart_and_agree_on_equal_ones() {
        assert_eq!(Digest::of_bytes(b"abc"), Digest::of_bytes(b"abc"));
        assert_ne!(Digest::of_bytes(b"abc"), Digest::of_bytes(b"abd"));
        // Written in pieces or at once: the same content.
        let pieces = Digest::of(|w| {
            w.write_all(b"ab")?;
            w.write_all(b"c")
        });
        assert_eq!(pieces, Digest::of_bytes(b"abc"));
        assert_ne!(Digest::of_bytes(b""), Digest::of_bytes(b"\0"));
    }

    #[test]
    fn the_least_recently_used_goes_first_and_the_bound_holds() {
        let c: Bounded<u32, u32> = Bounded::new(3);
        let made = std::cell::Cell::new(0);
        let get = |k: u32| {
            c.get_or_make(k, || {
                made.set(made.get() + 1);
                k * 10
            })
        };
        assert_eq!((get(1), get(2), get(3)), (10, 20, 30));
        assert_eq!(get(1), 10); // 1 used again: 2 is now the oldest
        assert_eq!(get(4), 40); // evicts 2
        assert_eq!(c.len(), 3);
        assert_eq!(made.get(), 4);
        assert_eq!(get(1) + get(3) + get(4), 80);
        assert_eq!(made.get(), 4, "1, 3 and 4 are held");
        assert_eq!(get(2), 20);
        assert_eq!(made.get(), 5, "2 was evicted and made again");
        for k in 0..1000 {
            get(k);
        }
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn many_threads_share_one_value_per_key_and_get_their_own_key_s() {
        let c: Bounded<u32, Arc<u32>> = Bounded::new(4);
        let made = std::sync::atomic::AtomicU32::new(0);
        std::thread::scope(|s| {
            for t in 0..8u32 {
                let (c, made) = (&c, &made);
                s.spawn(move || {
                    for i in 0..2000u32 {
                        let k = (t + i) % 6;
                        let v = c.get_or_make(k, || {
                            made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            Arc::new(k * 7)
                        });
                        assert_eq!(*v, k * 7);
                    }
                });
            }
        });
        assert!(c.len() <= 4);
        assert!(made.load(std::sync::atomic::Ordering::Relaxed) >= 6);
    }

    #[test]
    fn a_panicking_make_leaves_no_value() {
        let c: Bounded<u8, u8> = Bounded::new(2);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            c.get_or_make(1, || panic!("no"))
        }));
        assert!(r.is_err());
        assert_eq!(c.get_or_make(1, || 5), 5);
    }
}
