//! A per-thread cache of the search's static evaluations, keyed by the exact position.
//!
//! Why: iterative deepening evaluates the same positions again and again (the leaves of one
//! iteration are the null-move tests and the quiescence stand-pats of the next one), and an
//! evaluation (capture scan, swarm features, near the round limit a one-ply solve) costs far
//! more than one cache line. The key is everything the value depends on: both fish
//! bitboards, the Kraken, the turn, the weights (interned, so their address identifies them)
//! and the round-limit solve depth; a hit is therefore always the value that would have been
//! computed, and node counts do not change.

/// Log2 of the entries per thread (8,192 entries of 64 bytes: 512 KiB, inside L2).
const BITS: u32 = 13;

/// One entry: the exact key and the value, one cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Entry {
    red: u128,
    blue: u128,
    /// Kraken bits 0..99, turn in bits 100..107, solve depth in bits 108..111.
    rest: u128,
    /// Address of the interned weights; never 0 for a filled entry.
    params: usize,
    score: i32,
}

thread_local! {
    static CACHE: std::cell::RefCell<Box<[Entry]>> =
        std::cell::RefCell::new(vec![Entry::default(); 1 << BITS].into_boxed_slice());
}

/// The key of a position: (red, blue, rest, params).
#[inline(always)]
fn key(state: &crate::State, params: usize, end_plies: u32) -> (u128, u128, u128, usize) {
    let b = state.board();
    let rest = b.kraken.0 | (state.turn() as u128 & 0xff) << 100 | (end_plies as u128 & 0xf) << 108;
    (b.fish[0].0, b.fish[1].0, rest, params)
}

/// The value of `eval()` for this position, from the cache or computed (and stored).
/// `params` must identify the weights that `eval` uses (the address of the interned
/// weights), `end_plies` the round-limit solve depth; `hash` is the position's Zobrist hash
/// (it only picks the slot).
#[inline]
pub(crate) fn cached_eval(
    state: &crate::State,
    params: usize,
    end_plies: u32,
    eval: impl FnOnce() -> i32,
) -> i32 {
    let (red, blue, rest, params) = key(state, params, end_plies);
    let slot = (state.hash() >> (64 - BITS)) as usize & ((1 << BITS) - 1);
    let hit = CACHE.with(|c| {
        let c = c.borrow();
        let e = &c[slot];
        (e.red == red && e.blue == blue && e.rest == rest && e.params == params).then_some(e.score)
    });
    if let Some(score) = hit {
        return score;
    }
    let score = eval();
    CACHE.with(|c| {
        c.borrow_mut()[slot] = Entry {
            red,
            blue,
            rest,
            params,
            score,
        }
    });
    score
}
