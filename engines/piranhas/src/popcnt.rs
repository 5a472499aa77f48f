//! Run-time dispatch to copies of the hot bitboard functions compiled with the `popcnt`
//! instruction. The workspace builds for x86-64-v2 (`.cargo/config.toml`), which has
//! `popcnt` already: there both copies are the same code. It matters for a build that overrides
//! that with baseline x86-64 (`RUSTFLAGS=""`), where `count_ones` on a `u128` is a
//! ~30-instruction bit trick and the swarm features count bits about twenty times per call.
//! Other architectures take the portable copy.

/// Whether the CPU has the `popcnt` instruction (std caches the answer).
#[inline(always)]
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Defines `pub(crate) fn $name($args) -> $ret` that calls `$body_fn` (an `#[inline(always)]`
/// function) compiled with `popcnt` when the CPU has it, else the portable build of it.
macro_rules! dispatch {
    ($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $body_fn:path) => {
        $(#[$meta])*
        #[inline]
        pub(crate) fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "popcnt")]
                fn fast($($arg: $ty),*) -> $ret {
                    $body_fn($($arg),*)
                }
                if $crate::popcnt::available() {
                    // SAFETY: the CPU supports popcnt, checked just above.
                    return unsafe { fast($($arg),*) };
                }
            }
            $body_fn($($arg),*)
        }
    };
}
pub(crate) use dispatch;
