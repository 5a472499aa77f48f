//! Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley &
//! Whitehouse 2012) for games with hidden information and chance.
//!
//! Each iteration samples one **determinization** (a complete state consistent with what the
//! searching player knows), then walks one shared tree whose nodes are keyed by the sequence of
//! actions, not by states. Because a node's actions differ between determinizations, selection
//! uses **availability counts**: a child's UCB term is `sqrt(ln(times the child was available) /
//! visits)` (the subset-armed bandit), and every iteration bumps the availability of each child
//! that is legal in its determinization. Chance (cards drawn, dice) is resolved inside
//! [`IsmctsGame::apply`] with the iteration's generator and never branches the tree.
//!
//! Single-observer is exact when every action is public (the opponents see *which* action was
//! taken, as in Mau-Mau and Kuhhandel bids); what stays hidden (drawn cards, hands) only lives in
//! the determinizations.
//!
//! # Using it for a new game
//!
//! 1. Implement [`IsmctsGame`] for a *determinized* state (everything known): moves, the player
//!    to move, `apply` with chance from the given generator, and `reward` (terminal: the result in
//!    `[0, 1]` for that player; non-terminal: a heuristic estimate, used when a rollout is cut
//!    off after [`IsmctsConfig::max_rollout_steps`]).
//! 2. Write a determinizer: a closure `FnMut(&mut R) -> G` that samples hidden information
//!    consistent with the searching player's observations (card tracking lives in your crate).
//! 3. Optionally implement [`RolloutPolicy`] (default [`UniformRollout`]): good rollouts matter
//!    more than anything else for playing strength.
//! 4. Call [`Ismcts::search`] with a [`TimeControl`] and/or [`IsmctsConfig::max_iterations`].
//!    For several threads, run independent searches with different seeds and combine their
//!    [`SearchStats::children`] with [`merge_root_stats`] (root parallelization).

use crate::time::TimeControl;
use rand::Rng;
use std::fmt::Debug;

/// A determinized game state as ISMCTS needs it.
pub trait IsmctsGame: Clone {
    /// An action as the tree sees it. Two actions that are the same *from the searching
    /// player's point of view* must compare equal.
    type Action: Copy + Eq + Debug;

    /// The player to act (0-based).
    fn player_to_move(&self) -> usize;

    /// True when the game is over.
    fn is_terminal(&self) -> bool;

    /// The legal actions of the player to move (`out` is cleared by the caller). Must not be
    /// empty in a non-terminal state.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Applies `action`, resolving chance with `rng`, and advances to the next decision.
    fn apply<R: Rng + ?Sized>(&mut self, action: Self::Action, rng: &mut R);

    /// `player`'s reward in `[0, 1]`: the result in a terminal state, an estimate otherwise.
    fn reward(&self, player: usize) -> f64;

    /// A heuristic prior for `action` in this state (roughly in `[-1, 1]`, higher = better for
    /// the player to move), for progressive bias: the tree adds
    /// [`IsmctsConfig::progressive_bias`]` · bias / (visits + 1)` to a child's UCB score, so
    /// the heuristic steers the first visits and fades as real statistics accumulate.
    /// Default: no bias.
    fn action_bias(&self, _action: Self::Action) -> f64 {
        0.0
    }
}

/// Chooses actions in rollouts (the simulation phase).
pub trait RolloutPolicy<G: IsmctsGame> {
    /// Picks one of `actions` (non-empty) in `game`.
    fn choose<R: Rng + ?Sized>(
        &mut self,
        game: &G,
        actions: &[G::Action],
        rng: &mut R,
    ) -> G::Action;

    /// Plays one rollout step: picks an action and applies it; false if there was no legal
    /// action. The default lists the legal actions into `buf` and calls
    /// [`RolloutPolicy::choose`]; a game with a cheaper direct policy (bit masks, no action
    /// list) overrides it.
    fn step<R: Rng + ?Sized>(
        &mut self,
        game: &mut G,
        buf: &mut Vec<G::Action>,
        rng: &mut R,
    ) -> bool {
        buf.clear();
        game.legal_actions(buf);
        if buf.is_empty() {
            return false;
        }
        let a = self.choose(game, buf, rng);
        game.apply(a, rng);
        true
    }
}

/// Uniformly random rollouts.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformRollout;

impl<G: IsmctsGame> RolloutPolicy<G> for UniformRollout {
    fn choose<R: Rng + ?Sized>(&mut self, _: &G, actions: &[G::Action], rng: &mut R) -> G::Action {
        actions[rng.random_range(0..actions.len())]
    }
}

/// Search parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// UCB exploration constant `c` in `mean + c·sqrt(ln(avail)/visits)`.
    pub exploration: f64,
    /// Stop after this many iterations (`u64::MAX`: time only).
    pub max_iterations: u64,
    /// Rollout steps before the rollout is cut off and [`IsmctsGame::reward`] estimates.
    pub max_rollout_steps: u32,
    /// Iterations between clock checks.
    pub check_every: u32,
    /// Weight of the progressive-bias term `bias / (visits + 1)` (0 = off).
    pub progressive_bias: f64,
    /// Stop early when the most visited root action cannot be overtaken any more in the
    /// iterations left (estimated from the iteration rate and the soft budget, or from
    /// [`IsmctsConfig::max_iterations`]): the final choice is by visits, so the rest of the
    /// budget could not change it.
    pub early_stop: bool,
    /// Probability that an opponent's move inside the tree is the rollout policy's choice
    /// instead of the UCB choice (0 = plain single-observer ISMCTS). In a determinization the
    /// opponent sees the searching player's real hand, so UCB makes it play as if it knew that
    /// hand; a policy move models an opponent that does not.
    pub opponent_policy: f64,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            exploration: 0.7,
            max_iterations: u64::MAX,
            max_rollout_steps: 200,
            check_every: 32,
            progressive_bias: 0.0,
            early_stop: false,
            opponent_policy: 0.0,
        }
    }
}

/// Statistics of one root action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildStats<A> {
    /// The action.
    pub action: A,
    /// Times it was selected.
    pub visits: u32,
    /// Times it was legal (available).
    pub availability: u32,
    /// Mean reward of the root player after it.
    pub mean_reward: f64,
}

/// Result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats<A> {
    /// Most visited root action (`None` if no iteration ran or the root is terminal).
    pub best: Option<A>,
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Actions applied in tree walks and rollouts (the "node count" of a bench).
    pub steps: u64,
    /// Per root action statistics, most visited first.
    pub children: Vec<ChildStats<A>>,
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node<A> {
    action: A,
    /// Player who took `action` (the reward is from this player's view).
    player: u32,
    visits: u32,
    avail: u32,
    reward: f64,
    /// Progressive-bias prior (already multiplied by the weight).
    bias: f64,
    first_child: u32,
    next_sibling: u32,
}

/// A reusable ISMCTS searcher (keeps its node arena between searches to avoid allocations).
#[derive(Clone, Debug)]
pub struct Ismcts<G: IsmctsGame> {
    /// Parameters.
    pub config: IsmctsConfig,
    nodes: Vec<Node<G::Action>>,
    path: Vec<u32>,
    actions: Vec<G::Action>,
    untried: Vec<G::Action>,
    rewards: Vec<f64>,
    steps: u64,
}

impl<G: IsmctsGame> Ismcts<G>
where
    G::Action: Default,
{
    /// A searcher with `config`.
    pub fn new(config: IsmctsConfig) -> Self {
        Ismcts {
            config,
            nodes: Vec::new(),
            path: Vec::new(),
            actions: Vec::new(),
            untried: Vec::new(),
            rewards: Vec::new(),
            steps: 0,
        }
    }

    /// Runs ISMCTS from the searching player's information set until `tc`'s soft budget or
    /// [`IsmctsConfig::max_iterations`] is used up (at least one iteration unless the hard
    /// deadline has passed). `determinize` samples a full state for each iteration.
    pub fn search<R, D, P>(
        &mut self,
        mut determinize: D,
        policy: &mut P,
        tc: &TimeControl,
        rng: &mut R,
    ) -> SearchStats<G::Action>
    where
        R: Rng + ?Sized,
        D: FnMut(&mut R) -> G,
        P: RolloutPolicy<G>,
    {
        self.nodes.clear();
        self.nodes.push(Node {
            action: G::Action::default(),
            player: u32::MAX,
            visits: 0,
            avail: 0,
            reward: 0.0,
            bias: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        self.steps = 0;
        let mut iterations = 0u64;
        let check = self.config.check_every.max(1) as u64;
        while iterations < self.config.max_iterations {
            if iterations.is_multiple_of(check) {
                let stop = if iterations == 0 {
                    tc.hard_expired()
                } else {
                    tc.soft_expired()
                };
                if stop
                    || (iterations > 0 && self.config.early_stop && self.decided(iterations, tc))
                {
                    break;
                }
            }
            let game = determinize(rng);
            self.iterate(game, policy, rng);
            iterations += 1;
        }
        self.root_stats(iterations)
    }

    /// One iteration: 1. select with availability-aware UCB, 2. expand one untried action,
    /// 3. roll out, 4. back up the rewards.
    fn iterate<R: Rng + ?Sized, P: RolloutPolicy<G>>(
        &mut self,
        mut g: G,
        policy: &mut P,
        rng: &mut R,
    ) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let root_player = g.player_to_move() as u32;
        // 1. + 2. Selection and expansion.
        while !g.is_terminal() {
            self.actions.clear();
            g.legal_actions(&mut self.actions);
            if self.actions.is_empty() {
                break;
            }
            let player = g.player_to_move() as u32;
            // An opponent's move chosen by the rollout policy (see `opponent_policy`).
            let forced = (player != root_player
                && self.config.opponent_policy > 0.0
                && rng.random::<f64>() < self.config.opponent_policy)
                .then(|| policy.choose(&g, &self.actions, rng));
            let mut forced_child = NONE;
            self.untried.clear();
            self.untried.extend_from_slice(&self.actions);
            let ln_scale = self.config.exploration;
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let child = &mut self.nodes[c as usize];
                if let Some(i) = self.untried.iter().position(|a| *a == child.action) {
                    self.untried.swap_remove(i);
                    child.avail += 1;
                    if forced == Some(child.action) {
                        forced_child = c;
                    }
                    let v = child.visits.max(1) as f64;
                    let score = child.reward / v
                        + ln_scale * ((child.avail as f64).ln() / v).sqrt()
                        + child.bias / (child.visits as f64 + 1.0);
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
                c = child.next_sibling;
            }
            if forced_child != NONE {
                best = forced_child;
            } else if let Some(a) = forced.or_else(|| {
                (!self.untried.is_empty())
                    .then(|| self.untried[rng.random_range(0..self.untried.len())])
            }) {
                let idx = self.nodes.len() as u32;
                let bias = if self.config.progressive_bias != 0.0 {
                    self.config.progressive_bias * g.action_bias(a)
                } else {
                    0.0
                };
                let parent = &mut self.nodes[node as usize];
                let sibling = parent.first_child;
                parent.first_child = idx;
                self.nodes.push(Node {
                    action: a,
                    player,
                    visits: 0,
                    avail: 1,
                    reward: 0.0,
                    bias,
                    first_child: NONE,
                    next_sibling: sibling,
                });
                g.apply(a, rng);
                self.steps += 1;
                self.path.push(idx);
                break;
            }
            let a = self.nodes[best as usize].action;
            g.apply(a, rng);
            self.steps += 1;
            node = best;
            self.path.push(node);
        }
        // 3. Rollout.
        let mut steps = 0;
        while !g.is_terminal() && steps < self.config.max_rollout_steps {
            if !policy.step(&mut g, &mut self.actions, rng) {
                break;
            }
            steps += 1;
        }
        self.steps += steps as u64;
        // 4. Backpropagation (rewards cached per player).
        self.rewards.clear();
        for &n in &self.path[1..] {
            let p = self.nodes[n as usize].player as usize;
            if self.rewards.len() <= p {
                self.rewards.resize(p + 1, f64::NAN);
            }
            if self.rewards[p].is_nan() {
                self.rewards[p] = g.reward(p);
            }
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += self.rewards[p];
        }
        self.nodes[0].visits += 1;
    }

    /// Whether the most visited root child is out of reach for the iterations still to come.
    fn decided(&self, done: u64, tc: &TimeControl) -> bool {
        let mut left = self.config.max_iterations.saturating_sub(done);
        if let Some(soft) = tc.soft() {
            let el = tc.elapsed().as_secs_f64();
            if el > 0.0 {
                let rate = done as f64 / el;
                let by_time = (rate * (soft.as_secs_f64() - el).max(0.0)) as u64;
                left = left.min(by_time);
            }
        }
        if left == u64::MAX {
            return false;
        }
        let (mut first, mut second) = (0u32, 0u32);
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let v = self.nodes[c as usize].visits;
            if v > first {
                second = first;
                first = v;
            } else if v > second {
                second = v;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        (first - second) as u64 > left
    }

    fn root_stats(&self, iterations: u64) -> SearchStats<G::Action> {
        let mut children = Vec::new();
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            children.push(ChildStats {
                action: n.action,
                visits: n.visits,
                availability: n.avail,
                mean_reward: if n.visits > 0 {
                    n.reward / n.visits as f64
                } else {
                    0.0
                },
            });
            c = n.next_sibling;
        }
        sort_children(&mut children);
        SearchStats {
            best: children.first().map(|c| c.action),
            iterations,
            nodes: self.nodes.len(),
            steps: self.steps,
            children,
        }
    }
}

fn sort_children<A>(children: &mut [ChildStats<A>]) {
    children.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.mean_reward.total_cmp(&a.mean_reward))
    });
}

/// Combines the root statistics of independent searches (root parallelization): visits and
/// availabilities add up, mean rewards are visit-weighted. The best action is the most visited.
pub fn merge_root_stats<A: Copy + Eq>(results: &[SearchStats<A>]) -> SearchStats<A> {
    let mut children: Vec<ChildStats<A>> = Vec::new();
    let mut iterations = 0;
    let mut nodes = 0;
    let mut steps = 0;
    for r in results {
        iterations += r.iterations;
        nodes += r.nodes;
        steps += r.steps;
        for c in &r.children {
            match children.iter_mut().find(|m| m.action == c.action) {
                Some(m) => {
                    let v = m.visits + c.visits;
                    if v > 0 {
                        m.mean_reward = (m.mean_reward * m.visits as f64
                            + c.mean_reward * c.visits as f64)
                            / v as f64;
                    }
                    m.visits = v;
                    m.availability += c.availability;
                }
                None => children.push(*c),
            }
        }
    }
    sort_children(&mut children);
    SearchStats {
        best: children.first().map(|c| c.action),
        iterations,
        nodes,
        steps,
        children,
    }
}
