//! Monte Carlo tree search over whole activations (UCT). A move of the tree
//! is one line of commands from `lines`: a unit's activation from its
//! `activate` to its end, one of the best few by the greedy scoring, or a
//! pass; a stash result's choice (R22) is a move of one command. Children are
//! added best-first as a node's visits grow (progressive widening). Playouts
//! let both sides play the best activation line of every activation (the
//! greedy bot's play, whole activations at a time) until the end of the turn
//! after the root's, so the opponent's reply is played, not guessed; the
//! settled evaluation (`eval::settled_scores`: a Base's threats by its exact
//! capture costs, an unanswered one in full) then gives every player a value
//! between 0 and 1.
//!
//! Chance (R21 stash rolls) is sampled: every iteration plays on a copy of the
//! game given a generator of its own (`Game::reseed`), so the search never sees
//! the real dice, and the tree is open-loop: a node is reached by its lines,
//! lines end where a stash is rolled, and a line that is not legal after the
//! sampled rolls is skipped. Several trees can grow on several threads (root
//! parallelism); their root visits are summed line by line in tree order, so
//! the choice depends only on the seed, the iteration budget and the number of
//! trees.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_cache::{Command, Event, Game, PlayerId};

use crate::eval::{self, Maps};
use crate::lines::{Line, Lines, MIN_GAIN};
use crate::{Budget, mix};

/// Exploration constant of UCT, for values in 0..=1.
const EXPLORATION: f32 = 0.15;
/// Activation lines kept as moves of one node (a pass comes on top).
const WIDTH: usize = 10;
/// Score difference (in evaluation points) that moves a value from 0.5 to 0.73.
const SCALE: f32 = 8.0;
/// Units whose activations a playout tries, the most promising by the quick
/// score of their activation.
const PLAYOUT_UNITS: usize = 4;
/// Most activations (and single commands) in one playout.
const PLAYOUT_LIMIT: usize = 64;
/// A root line counts for the final choice with at least 1/TRUSTED of the
/// visits of the most visited one.
const TRUSTED: u64 = 4;
/// Iterations between two looks at the clock under a time budget.
const CLOCK_EVERY: u32 = 4;
/// Playout lines a tree keeps before it forgets them all.
const PLAYED_LIMIT: usize = 1 << 18;
/// Plans kept for a time budget before the store is emptied.
const PLAN_LIMIT: usize = 4096;

/// One node: the line that led to it, who gave it, and its statistics.
struct Node {
    line: Vec<Command>,
    mover: PlayerId,
    visits: u32,
    /// Sum of the values, for `mover`, of the playouts through this node.
    total: f32,
    children: Vec<u32>,
    /// Lines not yet tried here, best score last; `None` until the node is
    /// first expanded.
    untried: Option<Vec<Vec<Command>>>,
}

impl Node {
    fn new(line: Vec<Command>, mover: PlayerId) -> Node {
        Node {
            line,
            mover,
            visits: 0,
            total: 0.0,
            children: Vec::new(),
            untried: None,
        }
    }
}

/// Visits and value sum of one line at the root of a tree.
#[derive(Debug, Clone)]
pub(crate) struct RootStat {
    pub(crate) line: Vec<Command>,
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
    lines: Lines<'a>,
    events: Vec<Event>,
    path: Vec<u32>,
    values: Vec<f32>,
    scores: Vec<f32>,
    /// The line a playout played in each position met before, by its
    /// `state_hash()`: playouts are greedy play, a function of the position,
    /// and the tree's nodes are added best line first, so a playout mostly
    /// walks positions that earlier playouts walked.
    played: HashMap<u64, Vec<Command>>,
    /// The moves of each position expanded before, by its `state_hash()`.
    expanded: HashMap<u64, Vec<Vec<Command>>>,
}

impl<'a> Tree<'a> {
    fn new(root: &'a Game, maps: &'a Maps, seed: u64) -> Tree<'a> {
        Tree {
            root,
            maps,
            chance: root.stashes().next().is_some(),
            nodes: vec![Node::new(Vec::new(), root.current_player())],
            rng: ChaCha8Rng::seed_from_u64(seed),
            game: root.clone(),
            lines: Lines::new(maps),
            events: Vec::with_capacity(16),
            path: Vec::with_capacity(64),
            values: Vec::new(),
            scores: Vec::new(),
            played: HashMap::new(),
            expanded: HashMap::new(),
        }
    }

    /// Applies a line; false when one of its commands is not legal here
    /// (after other sampled rolls), the commands before it being applied.
    fn apply_line(&mut self, line: &[Command]) -> bool {
        for &command in line {
            self.events.clear();
            if self.game.apply_into(command, &mut self.events).is_err() {
                return false;
            }
        }
        true
    }

    /// The moves of the position in `game`, best last: the best activation
    /// lines and a pass, or, where a choice is awaited or no line is found,
    /// the single legal commands.
    fn moves(&mut self) -> Vec<Vec<Command>> {
        let legal = self.game.legal_commands();
        if self.game.pending().is_none() {
            self.lines
                .search(&self.game, false, usize::MAX, &mut self.rng);
            if !self.lines.out.is_empty() {
                let mut ranked = std::mem::take(&mut self.lines.out);
                ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
                ranked.truncate(WIDTH);
                if self.game.activation().is_none()
                    && legal.iter().any(|l| l.command == Command::Pass)
                {
                    let stay = self.lines.value(&self.game) + MIN_GAIN;
                    ranked.push(Line {
                        score: stay,
                        commands: vec![Command::Pass],
                    });
                    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
                }
                return ranked.into_iter().rev().map(|l| l.commands).collect();
            }
        }
        // Single commands, ranked by the position each leaves.
        let me = self.game.current_player();
        let opponent = eval::following(&self.game, me);
        let mut ranked: Vec<(f32, Vec<Command>)> = legal
            .iter()
            .map(|l| {
                let mut next = self.game.clone();
                next.apply(l.command)
                    .expect("a command from legal_commands() is legal");
                eval::scores(&next, self.maps, opponent, &mut self.scores);
                (self.scores[usize::from(me.0)], vec![l.command])
            })
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
                // The same position is often reached by the same activations
                // in another order.
                let key = self.game.state_hash();
                let moves = match self.expanded.get(&key) {
                    Some(moves) => moves.clone(),
                    None => {
                        let moves = self.moves();
                        self.expanded.insert(key, moves.clone());
                        moves
                    }
                };
                self.nodes[node].untried = Some(moves);
            }
            // Progressive widening: one more child each time the visits
            // pass a square.
            let allowed = 1 + (self.nodes[node].visits as f32).sqrt() as usize;
            let n = &mut self.nodes[node];
            let untried = n.untried.as_mut().expect("set above");
            if n.children.len() < allowed
                && let Some(line) = untried.pop()
            {
                let mover = self.game.current_player();
                let whole = self.apply_line(&line);
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new(line, mover));
                self.nodes[node].children.push(child);
                if whole {
                    self.path.push(child);
                }
                break;
            }
            // Select by UCT among the children.
            let log_n = (self.nodes[node].visits.max(1) as f32).ln();
            let mut best: Option<(f32, u32)> = None;
            for &c in &self.nodes[node].children {
                let child = &self.nodes[c as usize];
                if self.chance && self.game.check(&child.line[0]).is_err() {
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
            let line = std::mem::take(&mut self.nodes[c as usize].line);
            let whole = self.apply_line(&line);
            self.nodes[c as usize].line = line;
            if !whole {
                break;
            }
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

    /// Both sides play their best activation lines (a pass when none gains),
    /// until the turn after the root's has ended; then the position is valued
    /// for every player by the settled evaluation, the threats of the player
    /// to move next weighing most, and unanswered threats on a Base in full.
    fn playout(&mut self) {
        let stop_turn = self.root.turn() + 2;
        for _ in 0..PLAYOUT_LIMIT {
            if self.game.is_over() || self.game.turn() >= stop_turn {
                break;
            }
            if self.game.pending().is_some() {
                let moves = self.moves();
                let line = moves.last().expect("a choice has answers").clone();
                self.apply_line(&line);
                continue;
            }
            let key = self.game.state_hash();
            let line = match self.played.get(&key) {
                Some(line) => line.clone(),
                None => {
                    let line = self.best_line();
                    if self.played.len() >= PLAYED_LIMIT {
                        self.played.clear();
                    }
                    self.played.insert(key, line.clone());
                    line
                }
            };
            if !self.apply_line(&line) {
                break;
            }
        }
        eval::settled_scores(
            &self.game,
            self.maps,
            eval::next_mover(&self.game),
            &mut self.scores,
        );
        self.values.clear();
        self.values
            .extend(self.scores.iter().map(|s| 1.0 / (1.0 + (-s / SCALE).exp())));
    }

    /// The greedy play of the position in `game`: its best activation line,
    /// or a pass (or an end) when no line gains on staying put.
    fn best_line(&mut self) -> Vec<Command> {
        self.lines
            .search(&self.game, true, PLAYOUT_UNITS, &mut self.rng);
        match self.lines.out.pop() {
            Some(best)
                if self.game.activation().is_some()
                    || best.score > self.lines.value(&self.game) + MIN_GAIN =>
            {
                best.commands
            }
            _ => vec![if self.game.activation().is_some() {
                Command::End
            } else {
                Command::Pass
            }],
        }
    }

    fn root_stats(&self) -> Vec<RootStat> {
        self.nodes[0]
            .children
            .iter()
            .map(|&c| {
                let n = &self.nodes[c as usize];
                RootStat {
                    line: n.line.clone(),
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

thread_local! {
    /// Under a time budget: the rest of the line last chosen, keyed by the
    /// bot's seed and the position before each of its commands.
    static PLANS: RefCell<HashMap<(u64, u64), Command>> = RefCell::new(HashMap::new());
}

/// The search's command and the playouts it ran, or `None` when nothing is legal.
pub(crate) fn choose(
    game: &Game,
    seed: u64,
    plan_key: u64,
    budget: Budget,
    threads: u8,
) -> Option<(Command, u64)> {
    let legal = game.legal_commands();
    if legal.len() <= 1 {
        return legal.first().map(|l| (l.command, 0));
    }
    let timed = matches!(budget, Budget::Time(_));
    if timed {
        // A time budget gives up determinism anyway: the line chosen for this
        // activation is followed without thinking again, as long as the game
        // goes where it was expected to.
        let planned = PLANS.with(|p| p.borrow().get(&(plan_key, game.state_hash())).copied());
        if let Some(command) = planned
            && legal.iter().any(|l| l.command == command)
        {
            return Some((command, 0));
        }
    }
    let maps = Maps::new(game).with_base_reach(game);
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
    // Merge line by line in tree order. Playouts vary little (greedy play,
    // sampled dice), so the line of the best mean value wins among those
    // visited enough to trust it; ties to the one met first.
    let mut merged: Vec<(Vec<Command>, u64, f64)> = Vec::new();
    let mut playouts = 0;
    for (stats, done) in &results {
        playouts += done;
        for s in stats {
            match merged.iter_mut().find(|(line, ..)| *line == s.line) {
                Some(m) => {
                    m.1 += u64::from(s.visits);
                    m.2 += f64::from(s.total);
                }
                None => merged.push((s.line.clone(), u64::from(s.visits), f64::from(s.total))),
            }
        }
    }
    merged.retain(|m| m.1 > 0 && legal.iter().any(|l| Some(&l.command) == m.0.first()));
    let most = merged.iter().map(|m| m.1).max().unwrap_or(0);
    let trusted = (most / TRUSTED).max(1);
    let mut best: Option<&(Vec<Command>, u64, f64)> = None;
    for m in merged.iter().filter(|m| m.1 >= trusted) {
        if best.is_none_or(|b| m.2 / m.1 as f64 > b.2 / b.1 as f64) {
            best = Some(m);
        }
    }
    let Some((line, ..)) = best else {
        return Some((legal[0].command, playouts));
    };
    if timed && line.len() > 1 {
        // The positions before each later command of the line, reached on a
        // plain copy: a line ends at a roll, so no dice are rolled on the way.
        let mut ahead = game.clone();
        PLANS.with(|p| {
            let mut plans = p.borrow_mut();
            if plans.len() > PLAN_LIMIT {
                plans.clear();
            }
            for pair in line.windows(2) {
                if ahead.apply(pair[0]).is_err() {
                    break;
                }
                plans.insert((plan_key, ahead.state_hash()), pair[1]);
            }
        });
    }
    Some((line[0], playouts))
}
