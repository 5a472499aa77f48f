//! Zobrist keys, generated at compile time from a fixed SplitMix64 stream.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Keys per colour and square, per turn, and per Kraken square.
pub struct Keys {
    /// `fish[color][sq]`.
    pub fish: [[u64; 100]; 2],
    /// `turn[t]` for t in 0..=63 (the turn also fixes the side to move).
    pub turn: [u64; 64],
    /// `kraken[sq]`.
    pub kraken: [u64; 100],
}

const fn build() -> Keys {
    let mut k = Keys {
        fish: [[0; 100]; 2],
        turn: [0; 64],
        kraken: [0; 100],
    };
    let mut s = 0x005e_ed0f_f15c_u64;
    let mut i = 0;
    while i < 100 {
        let (a, v) = splitmix(s);
        k.fish[0][i] = v;
        let (b, w) = splitmix(a);
        k.fish[1][i] = w;
        let (c, u) = splitmix(b);
        k.kraken[i] = u;
        s = c;
        i += 1;
    }
    let mut t = 0;
    while t < 64 {
        let (a, v) = splitmix(s);
        k.turn[t] = v;
        s = a;
        t += 1;
    }
    k
}

/// The key tables.
pub static KEYS: Keys = build();
