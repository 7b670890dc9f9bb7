//! Monte Carlo tree search over whole activations (UCT), on the shared
//! search over the game contract ([`crate::search`]): this module is Cache's
//! judge of it (the moves of a node, the playouts' lines, the values, what
//! a tree remembers by position) and the plans kept under a time budget.
//! A move of the tree
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
//! game given a generator of its own (`GameState::redeal`, which reseeds it), so the search never sees
//! the real dice, and the tree is open-loop: a node is reached by its lines,
//! lines end where a stash is rolled, and a line that is not legal after the
//! sampled rolls is skipped. Several trees can grow on several threads (root
//! parallelism); their root visits are summed line by line in tree order, so
//! the choice depends only on the seed, the iteration budget and the number of
//! trees.

use std::cell::RefCell;
use std::collections::HashMap;

use rand_chacha::ChaCha8Rng;
use sandtable_cache::{Command, Game};
use sandtable_core::game::Seat;

use crate::Budget;
use crate::eval::{self, Maps};
use crate::lines::{Line, Lines, MIN_GAIN};
use crate::search::Judge;

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
/// Playout lines a tree keeps before it forgets them all.
const PLAYED_LIMIT: usize = 1 << 18;
/// Plans kept for a time budget before the store is emptied.
const PLAN_LIMIT: usize = 4096;

/// Conflict at Cache as the shared search ([`crate::search`]) sees it: the
/// moves of a node, the playout's greedy lines and the settled evaluation,
/// with what a tree remembers by position.
struct Cache<'a> {
    maps: &'a Maps,
    /// Whether stashes lie on the board: then the tree is open-loop.
    chance: bool,
    lines: Lines<'a>,
    scores: Vec<f32>,
    /// The line a playout played in each position met before, by its
    /// `state_hash()`: playouts are greedy play, a function of the position,
    /// and the tree's nodes are added best line first, so a playout mostly
    /// walks positions that earlier playouts walked.
    played: HashMap<u64, Vec<Command>>,
    /// The moves of each position expanded before, by its `state_hash()`,
    /// most promising first.
    expanded: HashMap<u64, Vec<Vec<Command>>>,
}

impl<'a> Cache<'a> {
    fn new(root: &Game, maps: &'a Maps) -> Cache<'a> {
        Cache {
            maps,
            chance: root.stashes().next().is_some(),
            lines: Lines::new(maps),
            scores: Vec::new(),
            played: HashMap::new(),
            expanded: HashMap::new(),
        }
    }

    /// The moves of the position in `game`, best last: the best activation
    /// lines and a pass, or, where a choice is awaited or no line is found,
    /// the single legal commands.
    fn moves(&mut self, game: &Game, rng: &mut ChaCha8Rng) -> Vec<Vec<Command>> {
        let legal = game.legal_commands();
        if game.pending().is_none() {
            self.lines.search(game, false, usize::MAX, rng);
            if !self.lines.out.is_empty() {
                let mut ranked = std::mem::take(&mut self.lines.out);
                ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
                ranked.truncate(WIDTH);
                if game.activation().is_none() && legal.iter().any(|l| l.command == Command::Pass) {
                    let stay = self.lines.value(game) + MIN_GAIN;
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
        let me = game.current_player();
        let opponent = eval::following(game, me);
        let mut ranked: Vec<(f32, Vec<Command>)> = legal
            .iter()
            .map(|l| {
                let mut next = game.clone();
                next.apply(l.command)
                    .expect("a command from legal_commands() is legal");
                eval::scores(&next, self.maps, opponent, &mut self.scores);
                (self.scores[usize::from(me.0)], vec![l.command])
            })
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        ranked.into_iter().map(|(_, c)| c).collect()
    }

    /// The greedy play of the position in `game`: its best activation line,
    /// or a pass (or an end) when no line gains on staying put.
    fn best_line(&mut self, game: &Game, rng: &mut ChaCha8Rng) -> Vec<Command> {
        self.lines.search(game, true, PLAYOUT_UNITS, rng);
        match self.lines.out.pop() {
            Some(best)
                if game.activation().is_some()
                    || best.score > self.lines.value(game) + MIN_GAIN =>
            {
                best.commands
            }
            _ => vec![if game.activation().is_some() {
                Command::End
            } else {
                Command::Pass
            }],
        }
    }
}

impl Judge<Game> for Cache<'_> {
    /// Every player valued by the settled evaluation, the threats of the
    /// player to move next weighing most, and unanswered threats on a Base
    /// in full.
    fn values(&mut self, game: &Game, out: &mut Vec<f32>) {
        eval::settled_scores(game, self.maps, eval::next_mover(game), &mut self.scores);
        out.clear();
        out.extend(self.scores.iter().map(|s| 1.0 / (1.0 + (-s / SCALE).exp())));
    }

    /// The moves of the position, most promising first; the same position
    /// is often reached by the same activations in another order.
    fn lines(&mut self, game: &Game, _: Seat, rng: &mut ChaCha8Rng, out: &mut Vec<Vec<Command>>) {
        let key = game.state_hash();
        *out = match self.expanded.get(&key) {
            Some(moves) => moves.clone(),
            None => {
                let mut moves = self.moves(game, rng);
                moves.reverse();
                self.expanded.insert(key, moves.clone());
                moves
            }
        };
    }

    /// Both sides play their best activation lines (a pass when none
    /// gains); an awaited choice gets its best answer.
    fn playout_line(&mut self, game: &Game, _: Seat, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        if game.pending().is_some() {
            let moves = self.moves(game, rng);
            *out = moves.last().expect("a choice has answers").clone();
            return;
        }
        let key = game.state_hash();
        *out = match self.played.get(&key) {
            Some(line) => line.clone(),
            None => {
                let line = self.best_line(game, rng);
                if self.played.len() >= PLAYED_LIMIT {
                    self.played.clear();
                }
                self.played.insert(key, line.clone());
                line
            }
        };
    }

    /// A playout stops once the turn after the root's has ended.
    fn settled(&mut self, root: &Game, game: &Game) -> bool {
        game.turn() >= root.turn() + 2
    }

    fn open_loop(&self, _: &Game, _: Seat) -> bool {
        self.chance
    }

    fn exploration(&self) -> f32 {
        EXPLORATION
    }

    fn playout_limit(&self) -> usize {
        PLAYOUT_LIMIT
    }
}

thread_local! {
    /// Under a time budget: the rest of the line last chosen, keyed by the
    /// bot's seed and the position before each of its commands.
    static PLANS: RefCell<HashMap<(u64, u64), Command>> = RefCell::new(HashMap::new());
}

/// The search's command, the playouts it ran and its estimate of the
/// seat's chances, or `None` when nothing is legal.
pub(crate) fn choose(
    game: &Game,
    seed: u64,
    config: &crate::BotConfig,
) -> Option<(Command, u64, Option<f32>)> {
    let (plan_key, budget, threads) = (config.seed, config.budget, config.threads);
    let legal = game.legal_commands();
    if legal.len() <= 1 {
        return legal.first().map(|l| (l.command, 0, None));
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
            return Some((command, 0, None));
        }
    }
    let maps = Maps::new(game).with_base_reach(game);
    let seat = Seat(game.current_player().0);
    let searched = crate::search::search_seeing(
        game,
        seat,
        || Cache::new(game, &maps),
        budget,
        seed,
        threads,
        config.sight,
    )?;
    let (line, playouts, value) = (searched.line, searched.playouts, searched.value);
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
    Some((line[0], playouts, value))
}
