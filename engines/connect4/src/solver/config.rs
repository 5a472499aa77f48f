//! The solver's tunables, with the defaults the product uses (and the measurements behind
//! the less obvious ones in their doc comments).

/// Tunables of the solver.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Probe children for a cutoff before searching them while at least this many cells are
    /// empty.
    pub etc_min_empty: u32,
    /// Share table entries between mirror images while at most this many stones are down.
    pub symmetry_max_moves: u32,
    /// Nodes between two reads of the clock (a power of two).
    pub check_every: u64,
    /// Weight of a threat on a row favouring the mover, relative to 4 for any threat.
    pub parity_weight: u32,
    /// Break ties between equally threatening moves by a history of cutoffs.
    pub history: bool,
    /// Use the table only while at least this many cells are empty.
    pub tt_min_empty: u32,
    /// Prefetch the table buckets of all children before searching them.
    pub prefetch: bool,
    /// How the root picks null windows: 0 Pons (probe at half the bound towards the side of
    /// zero), 1 the same after a first "win or not" probe, 2 MTD(f) from 0.
    pub probe_rule: u32,
    /// Ordering bonus of a move that makes a threat the opponent must answer at once.
    pub forcing_weight: u32,
    /// Ordering bonus of a move that does not play directly below a threat of the mover's
    /// that was there before it (the opponent would kill that threat by answering on top).
    pub keep_threat_weight: u32,
    /// Ordering bonus of a move that stacks three of the mover's stones in a column with
    /// room above: a threat the opponent must block at once, so the reply is known.
    pub stack_weight: u32,
    /// Positions with fewer empty cells than this live in a small separate table (the "near"
    /// table, [`Self::near_kb`]) that stays in the CPU caches: they are most of the nodes
    /// and their subtrees are cheap, so a cache miss costs more than the work it saves.
    /// 0: one table for all.
    ///
    /// Default 16 (issue 39, session 13): since a node costs 14 % fewer instructions, a
    /// probe that misses the L2 cache weighs more than the nodes the small table costs.
    /// `kibitz connect4 bench` on Test_L1_R2 (first 200; settings alternated, 5–6 runs, ms
    /// per position): 1 thread 102.1 at 0, 86.7 at 16 (0.85×, 637 k nodes against 562 k);
    /// 2 threads 65.5 against 54.0 (0.82×). 12, 14, 18 and 20 were between; 18 with a
    /// 512 KiB near table was slower. The first 25 of Test_L1_R3, at 14: 1 thread 4.34 →
    /// 3.72 s, 2 threads 2.73 → 2.38 s (one run).
    pub near_empty: u32,
    /// Size of the near table in KiB.
    pub near_kb: usize,
    /// Decide wins with the mover's next stone without search (exact score at once) and,
    /// when there is none, lower the upper bound by one stone.
    pub next_win_bound: bool,
    /// In a parallel solve, defer a child another thread is searching (ABDADA) at nodes with
    /// at least this many empty cells (`u32::MAX`: never, plain Lazy SMP).
    pub abdada_min_empty: u32,
    /// In a parallel solve, ABDADA defers a busy child only from this index in the move
    /// order on (1: every child after the first; 2: only once two children failed to
    /// cut off, when the node is likely one where every child must be searched).
    pub abdada_min_index: u32,
    /// In a parallel solve, defer even the first child (the eldest brother, which ABDADA
    /// always searches) when another thread is searching it, at nodes with at least this
    /// many empty cells (and at least [`Self::abdada_min_empty`]); `u32::MAX`: never.
    pub abdada_first_min_empty: u32,
    /// In a parallel solve, odd-numbered helpers break ties between equally threatening
    /// moves right of centre first (the main thread left of centre first), so that the
    /// threads start apart; off, every thread orders the moves alike and they part only
    /// where ABDADA defers a child another thread is searching. Off by default: at 2 threads
    /// on Test_L1_R3 (25) 27.2 M nodes against 28.0 M (mean of 4 runs each), on Test_L1_R2
    /// (100) 629 k against 667 k, and 34.5 ms against 36.5 ms per position.
    pub helper_mirror: bool,
    /// In a parallel solve, nodes between two looks at the stop flag while the threads
    /// search a root test together (a power of two): once one thread answers, the others
    /// stop within this many nodes (the main thread waits for the helpers only when one of
    /// them answered, or before the next parallel test).
    pub parallel_check_every: u64,
    /// In a parallel solve, the second thread tests another null window than the main
    /// thread (the one nearest zero, or next to the main's) when a root test goes parallel;
    /// every finished answer narrows the score range. Off by default: on 12 lines of
    /// Test_L1_R3 it cost +39 % nodes over one thread against +22 % for plain Lazy SMP.
    pub split_windows: bool,
    /// In a parallel solve, odd-numbered helpers search the root moves from the second one
    /// on (with ABDADA, [`Self::abdada_min_empty`]), so two threads start on different root
    /// subtrees.
    pub split_root: bool,
    /// In a parallel solve, nodes the main thread searches a root test alone before the
    /// helpers join (the finished part stays in the table): most tests are over before a
    /// thread would have started, and on a busy machine a thread start waits for a core.
    pub serial_nodes: u64,
    /// Start the table small after every clear and let it double as it fills (cheap for
    /// many short solves); off, it has its full size from the start, so no move ever pays
    /// for a doubling between two clock checks (the bot's choice). A parallel solve's shared
    /// table grows between root tests instead (see [`super::parallel::ParallelSolver::new`]).
    pub grow_table: bool,
}

impl SolverConfig {
    /// The solver of an [`crate::Engine`] of `engine_mb` MiB: three quarters of the tables
    /// (at least 1 MiB) and no table growth, since a move runs under a clock and a doubling
    /// in the middle of one would cost it. Research tools that want "what the engine's
    /// solver phase does" build their solver from this, so they follow the engine.
    ///
    /// The near table is on as in [`Self::default`]: a proof costs about 13 % more nodes,
    /// but the bot's 100 ms solver phase searches 1.6× the nodes with it, so it proves more
    /// within the clock (`examples/keep_budget.rs`).
    ///
    /// ```
    /// use kibitz_connect4::SolverConfig;
    /// let c = SolverConfig::for_engine(64);
    /// assert_eq!((c.hash_mb, c.grow_table, c.near_empty), (48, false, 16));
    /// ```
    pub fn for_engine(engine_mb: usize) -> Self {
        Self {
            hash_mb: (engine_mb * 3 / 4).max(1),
            grow_table: false,
            ..Default::default()
        }
    }
}

impl Default for SolverConfig {
    fn default() -> Self {
        Self {
            hash_mb: 64,
            etc_min_empty: 14,
            symmetry_max_moves: 14,
            check_every: 4096,
            parity_weight: 1,
            history: false,
            tt_min_empty: 0,
            prefetch: true,
            next_win_bound: true,
            grow_table: true,
            near_empty: 16,
            forcing_weight: 0,
            keep_threat_weight: 1,
            stack_weight: 2,
            probe_rule: 0,
            near_kb: 256,
            abdada_min_empty: 20,
            abdada_first_min_empty: u32::MAX,
            abdada_min_index: 1,
            helper_mirror: false,
            parallel_check_every: 256,
            split_windows: false,
            split_root: false,
            serial_nodes: super::parallel::SERIAL_NODES,
        }
    }
}
