//! Monte Carlo tree search over commands (UCT), with playouts guided by the
//! quick command scores of `eval` and cut at the end of the current turn,
//! where the static evaluation gives every player a value between 0 and 1.
//!
//! Chance (R21 stash rolls) is sampled: every iteration plays on a copy of the
//! game given a generator of its own (`Game::reseed`), so the search never sees
//! the real dice, and the tree is open-loop: a node is reached by its commands,
//! and a child whose command is not legal after the sampled rolls is skipped.
//! Several trees can grow on several threads (root parallelism); their root
//! visits are summed in tree order, so the choice depends only on the seed, the
//! iteration budget and the number of trees.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_rules::{Command, Game, LegalCommand, PlayerId};

use crate::eval::{self, Maps};
use crate::{Budget, mix};

/// Exploration constant of UCT, for values in 0..=1.
const EXPLORATION: f32 = 0.35;
/// Share of playout commands chosen uniformly at random instead of by score.
const EPSILON: f64 = 0.05;
/// Most commands in one playout.
const PLAYOUT_LIMIT: usize = 400;
/// Score difference (in evaluation points) that moves a value from 0.5 to 0.73.
const SCALE: f32 = 4.0;
/// Iterations between two looks at the clock under a time budget.
const CLOCK_EVERY: u32 = 16;

/// Commands the tree never tries while others are legal: a turn undone by the
/// opposite turn, three quarter turns the same way (one the other way costs
/// less), and passing while units may still act.
fn wasteful(game: &Game, [last, before]: [Option<Command>; 2], command: Command) -> bool {
    match command {
        Command::TurnLeft => {
            last == Some(Command::TurnRight)
                || (last == Some(Command::TurnLeft) && before == Some(Command::TurnLeft))
        }
        Command::TurnRight => {
            last == Some(Command::TurnLeft)
                || (last == Some(Command::TurnRight) && before == Some(Command::TurnRight))
        }
        Command::Pass => game.activations_left() > 0,
        _ => false,
    }
}

/// One node: the command that led to it, who gave it, and its statistics.
struct Node {
    command: Command,
    mover: PlayerId,
    visits: u32,
    /// Sum of the values, for `mover`, of the playouts through this node.
    total: f32,
    children: Vec<u32>,
    /// Commands not yet tried here, best quick score last; `None` until the
    /// node is first expanded.
    untried: Option<Vec<Command>>,
}

impl Node {
    fn new(command: Command, mover: PlayerId) -> Node {
        Node {
            command,
            mover,
            visits: 0,
            total: 0.0,
            children: Vec::new(),
            untried: None,
        }
    }
}

/// Visits and value sum of one command at the root of a tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RootStat {
    pub(crate) command: Command,
    pub(crate) visits: u32,
    pub(crate) total: f32,
}

/// One search tree and the buffers its iterations reuse.
struct Tree<'a> {
    root: &'a Game,
    maps: &'a Maps,
    /// Whether stashes lie on the board: then the tree is open-loop.
    chance: bool,
    nodes: Vec<Node>,
    rng: ChaCha8Rng,
    game: Game,
    legal: Vec<LegalCommand>,
    events: Vec<sandtable_rules::Event>,
    path: Vec<u32>,
    values: Vec<f32>,
    scores: Vec<f32>,
}

impl<'a> Tree<'a> {
    fn new(root: &'a Game, maps: &'a Maps, seed: u64) -> Tree<'a> {
        Tree {
            root,
            maps,
            chance: root.stashes().next().is_some(),
            nodes: vec![Node::new(Command::Pass, root.current_player())],
            rng: ChaCha8Rng::seed_from_u64(seed),
            game: root.clone(),
            legal: Vec::with_capacity(64),
            events: Vec::with_capacity(16),
            path: Vec::with_capacity(64),
            values: Vec::new(),
            scores: Vec::new(),
        }
    }

    fn apply(&mut self, command: Command) {
        self.events.clear();
        self.game
            .apply_into(command, &mut self.events)
            .expect("the search only gives commands from legal_commands()");
    }

    /// The last two commands given before the node at the end of the path.
    fn history(&self) -> [Option<Command>; 2] {
        let mut given = self.path[1..]
            .iter()
            .rev()
            .map(|&n| self.nodes[n as usize].command)
            .chain(self.root.turn_commands().iter().rev().copied());
        [given.next(), given.next()]
    }

    /// Commands legal now and worth trying, ordered so that the best quick
    /// score comes last.
    fn ranked(&mut self) -> Vec<Command> {
        self.game.legal_commands_into(&mut self.legal);
        let history = self.history();
        let keep = |c: &Command| !wasteful(&self.game, history, *c);
        let any_kept = self.legal.iter().any(|l| keep(&l.command));
        let mut ranked: Vec<(f32, Command)> = self
            .legal
            .iter()
            .filter(|l| !any_kept || keep(&l.command))
            .map(|l| (eval::quick_score(&self.game, self.maps, l), l.command))
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        ranked.into_iter().map(|(_, c)| c).collect()
    }

    /// One iteration: select, expand one node, play out, back up.
    fn iterate(&mut self) {
        self.game.clone_from(self.root);
        if self.chance {
            let seed = self.rng.random();
            self.game.reseed(seed);
        }
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        while !self.game.is_over() {
            if self.nodes[node].untried.is_none() {
                let ranked = self.ranked();
                self.nodes[node].untried = Some(ranked);
            }
            if self.chance {
                self.game.legal_commands_into(&mut self.legal);
            }
            // Expand the best untried command legal now, if any.
            let untried = self.nodes[node].untried.as_mut().expect("set above");
            let pick = if self.chance {
                let legal = &self.legal;
                untried
                    .iter()
                    .rposition(|c| legal.iter().any(|l| l.command == *c))
            } else {
                untried.len().checked_sub(1)
            };
            if let Some(k) = pick {
                let command = untried.remove(k);
                let mover = self.game.current_player();
                self.apply(command);
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new(command, mover));
                self.nodes[node].children.push(child);
                self.path.push(child);
                break;
            }
            // Select by UCT among the children legal now.
            let parent_visits = self.nodes[node].visits.max(1) as f32;
            let log_n = parent_visits.ln();
            let mut best: Option<(f32, u32)> = None;
            for &c in &self.nodes[node].children {
                let child = &self.nodes[c as usize];
                if self.chance && !self.legal.iter().any(|l| l.command == child.command) {
                    continue;
                }
                let n = child.visits.max(1) as f32;
                let ucb = child.total / n + EXPLORATION * (log_n / n).sqrt();
                if best.is_none_or(|(b, _)| ucb > b) {
                    best = Some((ucb, c));
                }
            }
            let Some((_, c)) = best else {
                // Nothing tried is legal after these rolls: play out from here.
                break;
            };
            let command = self.nodes[c as usize].command;
            self.apply(command);
            node = c as usize;
            self.path.push(c);
        }
        self.playout();
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += self.values[usize::from(node.mover.0)];
        }
    }

    /// Plays guided commands until the root's turn ends, then values the
    /// position for every player, the threats of the player to move next
    /// weighing most.
    fn playout(&mut self) {
        let stop_turn = self.root.turn() + 1;
        for _ in 0..PLAYOUT_LIMIT {
            if self.game.is_over() || self.game.turn() >= stop_turn {
                break;
            }
            self.game.legal_commands_into(&mut self.legal);
            let command = if self.legal.len() == 1 {
                self.legal[0].command
            } else if self.rng.random_bool(EPSILON) {
                self.legal[self.rng.random_range(0..self.legal.len())].command
            } else {
                let offset = self.rng.random_range(0..self.legal.len());
                let mut best = (f32::MIN, self.legal[offset].command);
                for k in 0..self.legal.len() {
                    let l = &self.legal[(offset + k) % self.legal.len()];
                    let s = eval::quick_score(&self.game, self.maps, l);
                    if s > best.0 {
                        best = (s, l.command);
                    }
                }
                best.1
            };
            self.apply(command);
        }
        eval::scores(
            &self.game,
            self.maps,
            eval::next_mover(&self.game),
            &mut self.scores,
        );
        self.values.clear();
        self.values
            .extend(self.scores.iter().map(|s| 1.0 / (1.0 + (-s / SCALE).exp())));
    }

    fn root_stats(&self) -> Vec<RootStat> {
        self.nodes[0]
            .children
            .iter()
            .map(|&c| {
                let n = &self.nodes[c as usize];
                RootStat {
                    command: n.command,
                    visits: n.visits,
                    total: n.total,
                }
            })
            .collect()
    }
}

/// Grows one tree within the budget; returns its root statistics and the
/// number of iterations (playouts) run.
fn grow(game: &Game, maps: &Maps, seed: u64, budget: Budget, trees: u32) -> (Vec<RootStat>, u64) {
    let mut tree = Tree::new(game, maps, seed);
    let mut done: u64 = 0;
    match budget {
        Budget::Iterations(n) => {
            let share = n.div_ceil(trees).max(1);
            for _ in 0..share {
                tree.iterate();
            }
            done = u64::from(share);
        }
        Budget::Time(limit) => {
            let start = Instant::now();
            loop {
                for _ in 0..CLOCK_EVERY {
                    tree.iterate();
                }
                done += u64::from(CLOCK_EVERY);
                if start.elapsed() >= limit {
                    break;
                }
            }
        }
    }
    (tree.root_stats(), done)
}

/// The search's command and the playouts it ran, or `None` when nothing is legal.
pub(crate) fn choose(
    game: &Game,
    seed: u64,
    budget: Budget,
    threads: u8,
) -> Option<(Command, u64)> {
    let legal = game.legal_commands();
    if legal.len() <= 1 {
        return legal.first().map(|l| (l.command, 0));
    }
    let maps = Maps::new(game);
    let trees = u32::from(threads.max(1));
    let results: Vec<(Vec<RootStat>, u64)> = if trees == 1 {
        vec![grow(game, &maps, mix(seed, 0), budget, 1)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..trees)
                .map(|t| {
                    let maps = &maps;
                    scope.spawn(move || grow(game, maps, mix(seed, u64::from(t)), budget, trees))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread does not panic"))
                .collect()
        })
    };
    // Merge in tree order; the most visited command wins, ties to the one
    // listed first by legal_commands().
    let mut merged: Vec<(u64, f64)> = vec![(0, 0.0); legal.len()];
    let mut playouts = 0;
    for (stats, done) in &results {
        playouts += done;
        for s in stats {
            if let Some(k) = legal.iter().position(|l| l.command == s.command) {
                merged[k].0 += u64::from(s.visits);
                merged[k].1 += f64::from(s.total);
            }
        }
    }
    let mut best = 0;
    for k in 1..legal.len() {
        if merged[k].0 > merged[best].0 {
            best = k;
        }
    }
    Some((legal[best].command, playouts))
}
