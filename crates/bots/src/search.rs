//! The tree search over the game contract: UCT over lines of commands,
//! for any rule system. A system adds only what is its own, a [`Judge`]:
//! how to value a position for every seat, which lines of commands are
//! worth trying (a whole phase, an activation, or single commands), what a
//! playout plays, and where a playout may stop and be valued.
//!
//! - **Moves.** A move of the tree is a line of commands given by one seat
//!   (until the decision passes to another seat, or its line ends). A node's
//!   lines come from [`Judge::lines`], most promising first, and are added
//!   as children best first as the node's visits grow (progressive
//!   widening: one more child each time the visits pass a square). A judge
//!   that can guess a line's worth before any playout ([`Judge::priors`])
//!   starts each child with that guess, counted as so many visits (UCT
//!   with prior knowledge).
//! - **Chance and secrets.** Unless the judge says the position leaves
//!   nothing to chance and hides nothing ([`Judge::open_loop`]), every
//!   iteration plays on a copy redealt from the searching seat's view
//!   (`GameState::redeal`: dice reseeded, hidden things dealt again; R30,
//!   R57), so the search never reads the real dice or another seat's
//!   secrets. The tree is then open-loop: a node is reached by its lines,
//!   and a line that is not legal after other sampled dice is passed over,
//!   or the playout starts where it stopped being legal.
//! - **Playouts.** From the new node, each seat to act plays the line of
//!   [`Judge::playout_line`] until the game ends, [`Judge::settled`] says
//!   the position may be valued as it stands, or a length limit is reached.
//!   The position is then valued for every seat by [`Judge::values`]
//!   (for a finished game [`result_for`] gives 1 a win, 0 a loss, 0.5 a
//!   draw).
//! - **Choice.** The root line with the best mean value among those with
//!   at least a quarter of the most visits; its first command is played,
//!   and the next call searches again.
//! - **Threads.** Several trees can grow at once, one a thread, each with
//!   a judge of its own and a seed of its own (root parallelism); their
//!   root visits and values are added up line by line in tree order, so
//!   the choice depends only on the seed, the iteration budget (split
//!   between the trees) and the number of trees.
//!
//! The same game, seat, budget of iterations and seed give the same
//! command; a time budget trades that for a fixed thinking time.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{Decision, Ending, GameState, Legal, Seat, next_seat};

use crate::{Budget, mix};

/// What a rule system tells the search (see the module doc).
pub trait Judge<G: GameState> {
    /// The worth of `game` for every seat, each from 0 (lost) to 1 (won),
    /// into `out` (cleared first), where a playout stopped: a finished game
    /// too ([`result_for`] gives its results).
    fn values(&mut self, game: &G, out: &mut Vec<f32>);

    /// The lines worth trying for `seat` at `game`, most promising first;
    /// each line is legal as it stands and given by `seat` alone. By
    /// default each legal command is a line of its own.
    fn lines(
        &mut self,
        game: &G,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Vec<G::Command>>,
    ) {
        let _ = rng;
        let mut legal = Vec::new();
        game.legal_into(seat, &mut legal);
        out.clear();
        out.extend(legal.iter().map(|l| vec![l.command]));
    }

    /// What each line the last [`Judge::lines`] gave is worth to the seat
    /// that gives it, guessed before any playout, in the same order, into
    /// `out` (cleared first); and how many playouts that guess counts for.
    /// A child then starts with that many visits at its guessed value
    /// (UCT with prior knowledge), so that a few noisy playouts do not
    /// outweigh what the judge knows exactly. By default no guesses.
    fn priors(&mut self, out: &mut Vec<f32>) -> u32 {
        out.clear();
        0
    }

    /// The line a playout plays for `seat` at `game`, into `out` (cleared
    /// first): by default one random legal command.
    fn playout_line(
        &mut self,
        game: &G,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<G::Command>,
    ) {
        out.clear();
        out.extend(game.random_command(seat, rng));
    }

    /// Whether a playout that began at `root` may stop at `game` and value
    /// it as it stands: by default only a finished game stops one.
    fn settled(&mut self, root: &G, game: &G) -> bool {
        let _ = (root, game);
        false
    }

    /// Whether anything at `root` is left to chance or hidden from `seat`:
    /// then every iteration redeals its copy and the tree is open-loop. By
    /// default always; a system that knows a position holds no dice to
    /// come and no secrets may say no, and the search skips the redeal and
    /// the checks of lines it does not need.
    fn open_loop(&self, root: &G, seat: Seat) -> bool {
        let _ = (root, seat);
        true
    }

    /// The exploration constant of UCT, for values in 0..=1.
    fn exploration(&self) -> f32 {
        0.1
    }

    /// Most lines (or single commands) one playout plays.
    fn playout_limit(&self) -> usize {
        400
    }

    /// The time by which the search must answer, under a time budget; a
    /// judge whose lines or playouts can be long (a battle of thousands of
    /// formations) cuts them short there. By default ignored.
    fn deadline(&mut self, at: Option<Instant>) {
        let _ = at;
    }

    /// Whether a node's lines are added one at a time as its visits grow,
    /// best first (progressive widening): for lines that come ranked. Where
    /// they come in no order, every line is tried once before any twice.
    fn widening(&self) -> bool {
        true
    }
}

/// A root line counts for the final choice with at least 1/TRUSTED of the
/// visits of the most visited one.
const TRUSTED: u64 = 4;

struct Node<C> {
    /// The line that led here.
    line: Vec<C>,
    /// The seat that gave it.
    mover: Seat,
    visits: u32,
    /// Sum of the values, for `mover`, of the playouts through this node.
    total: f32,
    children: Vec<usize>,
    /// Lines not yet tried here, best last; `None` until first expanded.
    untried: Option<Vec<Vec<C>>>,
    /// The judge's guesses of the untried lines' values, in their order
    /// (empty without guesses), and how many visits a guess counts for.
    priors: Vec<f32>,
    prior_weight: u32,
}

impl<C> Node<C> {
    fn new(line: Vec<C>, mover: Seat) -> Node<C> {
        Node {
            line,
            mover,
            visits: 0,
            total: 0.0,
            children: Vec::new(),
            untried: None,
            priors: Vec::new(),
            prior_weight: 0,
        }
    }
}

/// A finished game's result for `seat`: 1 a win, 0.5 a draw, 0 a loss.
pub fn result_for<G: GameState>(game: &G, seat: Seat) -> Option<f32> {
    match game.decision() {
        Decision::Over(Ending::Won(winner)) => Some(if winner == seat { 1.0 } else { 0.0 }),
        Decision::Over(Ending::Draw(_)) => Some(0.5),
        _ => None,
    }
}

/// What a search may know of the position: the searching seat's view, as
/// a player at the table (every iteration deals again what the seat may
/// not see, and the dice to come; R30, R57), or everything but the dice to
/// come, as the referee of a finished game looking back at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Sight {
    /// The seat's own view: what a bot at the table knows.
    #[default]
    Own,
    /// Every secret as it stands; only the dice are drawn afresh.
    All,
}

/// What a search decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Searched<C> {
    /// The first command of the chosen line: legal now for the seat.
    pub command: C,
    /// The whole line chosen, from `command` on.
    pub line: Vec<C>,
    /// Playouts run (0 when the seat had one legal command only).
    pub playouts: u64,
    /// The chosen line's mean value for the seat, from 0 (lost) to 1
    /// (won) as [`Judge::values`] gives it: the search's estimate of the
    /// seat's chances with its best play; `None` without a search.
    pub value: Option<f32>,
}

/// Applies `line` for the seats whose decision each command is; false when
/// a command is not legal here (those before it stay applied).
fn apply_line<G: GameState>(game: &mut G, line: &[G::Command], events: &mut Vec<G::Event>) -> bool {
    for command in line {
        let Some(seat) = next_seat(game) else {
            return false;
        };
        events.clear();
        if game.apply_into(seat, command, events).is_err() {
            return false;
        }
    }
    true
}

/// One tree and the buffers its iterations reuse.
struct Tree<'a, G: GameState, J> {
    root: &'a G,
    seat: Seat,
    judge: J,
    open: bool,
    sight: Sight,
    exploration: f32,
    playout_limit: usize,
    widening: bool,
    nodes: Vec<Node<G::Command>>,
    rng: ChaCha8Rng,
    game: G,
    events: Vec<G::Event>,
    path: Vec<usize>,
    values: Vec<f32>,
    priors: Vec<f32>,
    line: Vec<G::Command>,
    /// When a time budget runs out.
    deadline: Option<Instant>,
}

impl<'a, G: GameState, J: Judge<G>> Tree<'a, G, J> {
    fn new(root: &'a G, seat: Seat, judge: J, seed: u64, sight: Sight) -> Tree<'a, G, J> {
        Tree {
            root,
            seat,
            open: judge.open_loop(root, seat),
            sight,
            exploration: judge.exploration(),
            playout_limit: judge.playout_limit(),
            widening: judge.widening(),
            judge,
            nodes: vec![Node::new(Vec::new(), seat)],
            rng: ChaCha8Rng::seed_from_u64(seed),
            game: root.clone(),
            events: Vec::new(),
            path: Vec::with_capacity(64),
            values: Vec::new(),
            priors: Vec::new(),
            line: Vec::new(),
            deadline: None,
        }
    }

    /// Sets the deadline `time` from now, for the tree's playouts and the
    /// judge's lines alike; returns it.
    fn answer_by(&mut self, time: std::time::Duration) -> Instant {
        let deadline = Instant::now() + time;
        self.deadline = Some(deadline);
        self.judge.deadline(Some(deadline));
        deadline
    }

    /// Whether `acting`, not the searcher, owes a sealed decision now.
    fn sealed_other(&self, acting: Seat) -> bool {
        acting != self.seat && matches!(self.game.decision(), Decision::Sealed(_))
    }

    /// Plays `acting`'s sealed decision as the playout's judge chooses it
    /// on a copy dealt again from that seat's own view (R57): the
    /// searcher's unrevealed commands are not in it. `false` when no line
    /// could be played.
    fn sealed_reply(&mut self, acting: Seat) -> bool {
        let mut view = self.game.clone();
        view.redeal(acting, self.rng.random());
        self.judge
            .playout_line(&view, acting, &mut self.rng, &mut self.line);
        !self.line.is_empty() && apply_line(&mut self.game, &self.line, &mut self.events)
    }

    /// One iteration: select, expand one node, play out, back up.
    fn iterate(&mut self) {
        self.game.clone_from(self.root);
        if self.open {
            let seed = self.rng.random();
            match self.sight {
                Sight::Own => self.game.redeal(self.seat, seed),
                // The referee's: the secrets as they are, the dice anew.
                Sight::All => self.game.reseed(seed),
            }
        }
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        while let Some(acting) = next_seat(&self.game) {
            // Another seat's sealed decision is never a node of the tree:
            // it would be chosen as the best reply to the searcher's own
            // sealed commands, which that seat cannot see (R57).
            if self.sealed_other(acting) {
                if self.sealed_reply(acting) {
                    continue;
                }
                break;
            }
            if self.nodes[node].untried.is_none() {
                let mut lines = Vec::new();
                self.judge
                    .lines(&self.game, acting, &mut self.rng, &mut lines);
                lines.reverse();
                let weight = self.judge.priors(&mut self.priors);
                let n = &mut self.nodes[node];
                n.priors.clear();
                // Guesses that do not match the lines one for one are not used.
                if weight > 0 && self.priors.len() == lines.len() {
                    n.priors.extend(self.priors.iter().rev());
                    n.prior_weight = weight;
                }
                n.untried = Some(lines);
            }
            // Progressive widening: one more child each time the visits
            // pass a square.
            let allowed = if self.widening {
                1 + (self.nodes[node].visits as f32).sqrt() as usize
            } else {
                usize::MAX
            };
            let n = &mut self.nodes[node];
            let untried = n.untried.as_mut().expect("set above");
            if n.children.len() < allowed
                && let Some(line) = untried.pop()
            {
                let mut new = Node::new(Vec::new(), acting);
                if let Some(prior) = n.priors.pop() {
                    new.visits = n.prior_weight;
                    new.total = prior * n.prior_weight as f32;
                }
                let whole = apply_line(&mut self.game, &line, &mut self.events);
                new.line = line;
                let child = self.nodes.len();
                self.nodes.push(new);
                self.nodes[node].children.push(child);
                if whole {
                    self.path.push(child);
                }
                break;
            }
            // UCT among the children whose line this copy allows.
            let log_n = (self.nodes[node].visits.max(1) as f32).ln();
            let mut best: Option<(f32, usize)> = None;
            for &c in &self.nodes[node].children {
                let child = &self.nodes[c];
                // Without chance a node is always reached in the same
                // position, its lines legal there.
                if self.open
                    && (child.mover != acting
                        || child
                            .line
                            .first()
                            .is_none_or(|first| self.game.check(acting, first).is_err()))
                {
                    continue;
                }
                let n = child.visits.max(1) as f32;
                let ucb = child.total / n + self.exploration * (log_n / n).sqrt();
                if best.is_none_or(|(b, _)| ucb > b) {
                    best = Some((ucb, c));
                }
            }
            let Some((_, c)) = best else {
                // Nothing tried is legal after these rolls: play out from here.
                break;
            };
            let line = std::mem::take(&mut self.nodes[c].line);
            let whole = apply_line(&mut self.game, &line, &mut self.events);
            self.nodes[c].line = line;
            if !whole {
                break;
            }
            node = c;
            self.path.push(c);
        }
        // Playout: to a settled position, or to the deadline, where the
        // position is valued as it stands.
        let mut steps = 0;
        while let Some(acting) = next_seat(&self.game) {
            if steps == self.playout_limit
                || self.judge.settled(self.root, &self.game)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            if self.sealed_other(acting) {
                if !self.sealed_reply(acting) {
                    break;
                }
            } else {
                self.judge
                    .playout_line(&self.game, acting, &mut self.rng, &mut self.line);
                if self.line.is_empty() || !apply_line(&mut self.game, &self.line, &mut self.events)
                {
                    break;
                }
            }
            steps += 1;
        }
        // Values for every seat, then the backup.
        self.judge.values(&self.game, &mut self.values);
        for &id in &self.path {
            let n = &mut self.nodes[id];
            n.visits += 1;
            n.total += self.values.get(n.mover.index()).copied().unwrap_or(0.5);
        }
    }

    /// Grows the tree within the budget (an iteration budget's share of
    /// `trees`); returns its root lines with their visits and value sums,
    /// and the iterations run.
    fn grow(mut self, budget: Budget, trees: u32) -> Grown<G::Command> {
        let mut done: u64 = 0;
        match budget {
            Budget::Iterations(n) => {
                let share = n.div_ceil(trees).max(1);
                for _ in 0..share {
                    self.iterate();
                }
                done = u64::from(share);
            }
            Budget::Within { iterations, time } => {
                let deadline = self.answer_by(time);
                for _ in 0..iterations.div_ceil(trees).max(1) {
                    self.iterate();
                    done += 1;
                    if Instant::now() >= deadline {
                        break;
                    }
                }
            }
            Budget::Time(limit) => {
                // The clock is read after every iteration, and the judge's
                // lines and the playouts stop at the deadline too: on a
                // battle of thousands of formations one iteration could
                // take longer than the whole budget.
                let deadline = self.answer_by(limit);
                loop {
                    self.iterate();
                    done += 1;
                    if Instant::now() >= deadline {
                        break;
                    }
                }
            }
        }
        let stats = self.nodes[0]
            .children
            .iter()
            .map(|&c| {
                let n = &self.nodes[c];
                (n.line.clone(), u64::from(n.visits), f64::from(n.total))
            })
            .collect();
        (stats, done)
    }
}

/// Where a search starts: the legal commands of a seat that owes a
/// decision and has more than one, or the answer without a search.
enum Start<C> {
    Search(Vec<Legal<C>>),
    Answer(Option<Searched<C>>),
}

fn start<G: GameState>(game: &G, seat: Seat) -> Start<G::Command> {
    if next_seat(game) != Some(seat) {
        return Start::Answer(None);
    }
    let mut legal: Vec<Legal<G::Command>> = Vec::new();
    game.legal_into(seat, &mut legal);
    if legal.len() <= 1 {
        return Start::Answer(legal.first().map(|l| Searched {
            command: l.command,
            line: vec![l.command],
            playouts: 0,
            value: None,
        }));
    }
    Start::Search(legal)
}

/// `budget` with `spent` taken from its time, where it has one: a
/// decision's time counts from its call, the listing of its commands
/// included.
pub fn less_time(budget: Budget, spent: std::time::Duration) -> Budget {
    match budget {
        Budget::Iterations(n) => Budget::Iterations(n),
        Budget::Time(time) => Budget::Time(time.saturating_sub(spent)),
        Budget::Within { iterations, time } => Budget::Within {
            iterations,
            time: time.saturating_sub(spent),
        },
    }
}

/// Root lines with their visits and value sums, and the iterations run.
type Grown<C> = (Vec<(Vec<C>, u64, f64)>, u64);

/// The trees' root lines merged line by line in tree order; the best mean
/// value among the lines visited often enough to trust, ties to the one
/// met first. A line the real position refuses is never played.
fn choose<G: GameState>(
    game: &G,
    seat: Seat,
    legal: &[Legal<G::Command>],
    results: Vec<Grown<G::Command>>,
) -> Searched<G::Command> {
    let mut merged: Vec<(Vec<G::Command>, u64, f64)> = Vec::new();
    let mut playouts = 0;
    for (stats, done) in results {
        playouts += done;
        for (line, visits, total) in stats {
            match merged.iter_mut().find(|m| m.0 == line) {
                Some(m) => {
                    m.1 += visits;
                    m.2 += total;
                }
                None => merged.push((line, visits, total)),
            }
        }
    }
    merged.retain(|m| m.1 > 0 && m.0.first().is_some_and(|c| game.check(seat, c).is_ok()));
    let most = merged.iter().map(|m| m.1).max().unwrap_or(0);
    let trusted = (most / TRUSTED).max(1);
    let mut best: Option<&(Vec<G::Command>, u64, f64)> = None;
    for m in merged.iter().filter(|m| m.1 >= trusted) {
        if best.is_none_or(|b| m.2 / m.1 as f64 > b.2 / b.1 as f64) {
            best = Some(m);
        }
    }
    match best {
        Some((line, visits, total)) => Searched {
            command: line[0],
            line: line.clone(),
            playouts,
            value: Some((total / *visits as f64) as f32),
        },
        None => Searched {
            command: legal[0].command,
            line: vec![legal[0].command],
            playouts,
            value: None,
        },
    }
}

/// Chooses a line for `seat` by UCT over `judge`'s lines, one tree (see
/// the module doc); `None` when the seat owes no decision. Never changes
/// `game`.
pub fn search<G: GameState, J: Judge<G>>(
    game: &G,
    seat: Seat,
    judge: J,
    budget: Budget,
    seed: u64,
) -> Option<Searched<G::Command>> {
    let began = Instant::now();
    let legal = match start(game, seat) {
        Start::Search(legal) => legal,
        Start::Answer(answer) => return answer,
    };
    let budget = less_time(budget, began.elapsed());
    let grown = Tree::new(game, seat, judge, mix(seed, 0), Sight::Own).grow(budget, 1);
    Some(choose(game, seat, &legal, vec![grown]))
}

/// As [`search`], with `trees` trees at once, one a thread, each with a
/// judge that `judge` makes (see the module doc), knowing what `sight`
/// says.
pub fn search_seeing<G, J>(
    game: &G,
    seat: Seat,
    judge: impl Fn() -> J + Sync,
    budget: Budget,
    seed: u64,
    trees: u8,
    sight: Sight,
) -> Option<Searched<G::Command>>
where
    G: GameState,
    J: Judge<G>,
{
    let trees = u32::from(trees.max(1));
    let began = Instant::now();
    let legal = match start(game, seat) {
        Start::Search(legal) => legal,
        Start::Answer(answer) => return answer,
    };
    let budget = less_time(budget, began.elapsed());
    if trees == 1 {
        // One tree: grown here, as `search` grows it.
        let grown = Tree::new(game, seat, judge(), mix(seed, 0), sight).grow(budget, 1);
        return Some(choose(game, seat, &legal, vec![grown]));
    }
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..trees)
            .map(|t| {
                let judge = &judge;
                scope.spawn(move || {
                    Tree::new(game, seat, judge(), mix(seed, u64::from(t)), sight)
                        .grow(budget, trees)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .collect()
    });
    Some(choose(game, seat, &legal, results))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::dice::Dice;
    use sandtable_warpspawn::{Command, Game, samples};

    /// Playouts that tell nothing (every position a draw), the first three
    /// legal commands as lines, and guesses of their worth.
    struct Guessing {
        guesses: Vec<f32>,
        weight: u32,
    }

    impl Judge<Game> for Guessing {
        fn values(&mut self, _: &Game, out: &mut Vec<f32>) {
            out.clear();
            out.extend([0.5, 0.5]);
        }

        fn lines(
            &mut self,
            game: &Game,
            seat: Seat,
            _: &mut ChaCha8Rng,
            out: &mut Vec<Vec<Command>>,
        ) {
            let mut legal = Vec::new();
            game.legal_into(seat, &mut legal);
            out.clear();
            out.extend(legal.iter().take(3).map(|l| vec![l.command]));
        }

        fn priors(&mut self, out: &mut Vec<f32>) -> u32 {
            out.clone_from(&self.guesses);
            self.weight
        }

        fn settled(&mut self, _: &Game, _: &Game) -> bool {
            true
        }
    }

    #[test]
    fn a_line_starts_with_the_visits_and_value_of_the_judges_guess() {
        // The first decision of three commands or more (the March).
        let mut game = Game::new(&samples::open_field(), Dice::seeded(1)).expect("a battle");
        let (mut legal, mut events) = (Vec::new(), Vec::new());
        let seat = loop {
            let seat = next_seat(&game).expect("a seat to move");
            game.legal_into(seat, &mut legal);
            if legal.len() >= 3 {
                break seat;
            }
            game.apply_into(seat, &legal[0].command, &mut events)
                .expect("legal");
        };
        let chosen = |guesses: Vec<f32>, weight| {
            search(
                &game,
                seat,
                Guessing { guesses, weight },
                Budget::Iterations(60),
                3,
            )
            .expect("a choice")
            .command
        };
        // Playouts alone find every line alike: the first is chosen.
        assert_eq!(chosen(vec![0.1, 0.9, 0.2], 0), legal[0].command);
        // The guess decides between lines the playouts cannot tell apart.
        assert_eq!(chosen(vec![0.1, 0.9, 0.2], 10), legal[1].command);
        assert_eq!(chosen(vec![0.1, 0.2, 0.9], 10), legal[2].command);
        // Guesses that do not match the lines one for one are not used.
        assert_eq!(chosen(vec![0.1, 0.9], 10), legal[0].command);
    }
}
