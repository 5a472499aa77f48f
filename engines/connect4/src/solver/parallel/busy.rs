//! ABDADA's shared view of the positions being searched right now: each thread's current
//! path, by stone count.
//!
//! A position with `m` stones can only be on a thread's path at depth `m` (every move adds
//! one stone), so each thread publishes the key of the child it is in at each stone count,
//! in an array of its own, and "is another thread in this position?" is one load per other
//! thread, with no hashing and no collision. Issue 39: the hashed set of 16 Ki slots this
//! replaces (128 KiB, shared by all threads) cost a single thread 7 % wall time for 1 %
//! more instructions; the paths of two threads are a few cache lines.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Stone counts a path has room for (a board has at most 128 cells).
const DEPTHS: usize = 129;

/// One thread's path: the key of the position it is in at each stone count (0: none), on
/// cache lines of its own.
#[repr(align(128))]
struct Path([AtomicU64; DEPTHS]);

impl Path {
    fn new() -> Self {
        Self(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// One thread's view of the positions the threads of a parallel solve are searching: its
/// own path, which it writes, and the others', which it reads.
pub struct Busy {
    mine: Arc<Path>,
    others: Vec<Arc<Path>>,
}

impl Busy {
    /// The views of `threads` threads, one each, over one set of paths.
    pub(super) fn crew(threads: usize) -> Vec<Busy> {
        let paths: Vec<Arc<Path>> = (0..threads).map(|_| Arc::new(Path::new())).collect();
        (0..threads)
            .map(|k| Busy {
                mine: Arc::clone(&paths[k]),
                others: paths
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, p)| Arc::clone(p))
                    .collect(),
            })
            .collect()
    }

    /// Whether another thread is searching the position of `key` with `moves` stones.
    #[inline(always)]
    pub fn is_busy(&self, key: u64, moves: u32) -> bool {
        let d = moves as usize;
        d < DEPTHS
            && self
                .others
                .iter()
                .any(|p| p.0[d].load(Ordering::Relaxed) == key)
    }

    /// This thread enters the position of `key` with `moves` stones.
    #[inline(always)]
    pub fn enter(&self, key: u64, moves: u32) {
        if let Some(s) = self.mine.0.get(moves as usize) {
            s.store(key, Ordering::Relaxed);
        }
    }

    /// This thread leaves the position it entered with `moves` stones.
    #[inline(always)]
    pub fn leave(&self, moves: u32) {
        if let Some(s) = self.mine.0.get(moves as usize) {
            s.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Busy;

    #[test]
    fn a_thread_sees_the_others_positions_at_their_depth_only() {
        let crew = Busy::crew(3);
        crew[0].enter(77, 10);
        assert!(!crew[0].is_busy(77, 10), "not its own");
        assert!(crew[1].is_busy(77, 10) && crew[2].is_busy(77, 10));
        assert!(!crew[1].is_busy(77, 11), "another stone count");
        assert!(!crew[1].is_busy(78, 10), "another position");
        crew[0].leave(10);
        assert!(!crew[1].is_busy(77, 10), "left");
        crew[2].enter(5, 200); // beyond any board: ignored
        assert!(!crew[0].is_busy(5, 200));
    }
}
