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
//!   widening: one more child each time the visits pass a square).
//! - **Chance and secrets.** Every iteration plays on a copy redealt from
//!   the searching seat's view (`GameState::redeal`: dice reseeded, hidden
//!   things dealt again; R30, R57), so the search never reads the real dice
//!   or another seat's secrets. The tree is open-loop: a node is reached by
//!   its lines, and a line that is not legal after other sampled dice is
//!   passed over, or the playout starts where it stopped being legal.
//! - **Playouts.** From the new node, each seat to act plays the line of
//!   [`Judge::playout_line`] until the game ends, [`Judge::settled`] says
//!   the position may be valued as it stands, or a length limit is reached.
//!   The position is then valued for every seat by [`Judge::values`]
//!   (a finished game: 1 a win, 0 a loss, 0.5 a draw).
//! - **Choice.** The root line with the best mean value among those with
//!   at least a quarter of the most visits; its first command is played,
//!   and the next call searches again.
//!
//! The same game, seat, budget of iterations and seed give the same
//! command; a time budget trades that for a fixed thinking time.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{Decision, Ending, GameState, Legal, Seat, next_seat};

use crate::Budget;

/// What a rule system tells the search (see the module doc).
pub trait Judge<G: GameState> {
    /// The worth of `game` for every seat, each from 0 (lost) to 1 (won),
    /// into `out` (cleared first). Called on positions that are not over.
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

    /// The line a playout plays for `seat` at `game`, into `out` (cleared
    /// first): by default one random legal command.
    fn playout_line(
        &mut self,
        game: &G,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<G::Command>,
    ) {
        let mut legal: Vec<Legal<G::Command>> = Vec::new();
        game.legal_into(seat, &mut legal);
        out.clear();
        if !legal.is_empty() {
            out.push(legal[rng.random_range(0..legal.len())].command);
        }
    }

    /// Whether a playout that began at `root` may stop at `game` and value
    /// it as it stands: by default only a finished game stops one.
    fn settled(&mut self, root: &G, game: &G) -> bool {
        let _ = (root, game);
        false
    }
}

/// Exploration constant of UCT, for values in 0..=1.
const EXPLORATION: f32 = 0.1;
/// A root line counts for the final choice with at least 1/TRUSTED of the
/// visits of the most visited one.
const TRUSTED: u32 = 4;
/// Most lines (or single commands) one playout plays.
const PLAYOUT_LIMIT: usize = 400;
/// Iterations between two looks at the clock under a time budget.
const CLOCK_EVERY: u32 = 4;

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

/// What a search decided: the command and the playouts it ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Searched<C> {
    /// The first command of the chosen line: legal now for the seat.
    pub command: C,
    /// Playouts run (0 when the seat had one line only).
    pub playouts: u64,
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

/// Chooses a command for `seat` by UCT over `judge`'s lines (see the
/// module doc); `None` when the seat owes no decision. Never changes
/// `game`.
pub fn search<G: GameState, J: Judge<G>>(
    game: &G,
    seat: Seat,
    judge: &mut J,
    budget: Budget,
    seed: u64,
) -> Option<Searched<G::Command>> {
    if next_seat(game) != Some(seat) {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut root_lines = Vec::new();
    {
        let mut own = game.clone();
        own.redeal(seat, rng.random());
        judge.lines(&own, seat, &mut rng, &mut root_lines);
    }
    // A line the real position refuses (a system's mistake) is never played.
    root_lines.retain(|line| line.first().is_some_and(|c| game.check(seat, c).is_ok()));
    match root_lines.len() {
        0 => {
            // The judge offered nothing: any legal command is better than none.
            let mut legal = Vec::new();
            game.legal_into(seat, &mut legal);
            return legal.first().map(|l| Searched {
                command: l.command,
                playouts: 0,
            });
        }
        1 => {
            return Some(Searched {
                command: root_lines[0][0],
                playouts: 0,
            });
        }
        _ => {}
    }
    root_lines.reverse();
    let mut nodes: Vec<Node<G::Command>> = vec![Node::new(Vec::new(), seat)];
    nodes[0].untried = Some(root_lines);
    let mut copy = game.clone();
    let mut events = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    let mut values = Vec::new();
    let mut line = Vec::new();
    let started = Instant::now();
    let mut playouts: u64 = 0;
    loop {
        match budget {
            Budget::Iterations(n) if playouts >= u64::from(n) => break,
            Budget::Time(limit)
                if playouts.is_multiple_of(u64::from(CLOCK_EVERY))
                    && playouts > 0
                    && started.elapsed() >= limit =>
            {
                break;
            }
            _ => {}
        }
        playouts += 1;
        copy.clone_from(game);
        copy.redeal(seat, rng.random());
        path.clear();
        path.push(0);
        let mut node = 0;
        // Selection and expansion.
        while let Some(acting) = next_seat(&copy) {
            if nodes[node].untried.is_none() {
                let mut lines = Vec::new();
                judge.lines(&copy, acting, &mut rng, &mut lines);
                lines.reverse();
                nodes[node].untried = Some(lines);
            }
            let n = &nodes[node];
            let widen = n.children.len() * n.children.len() <= n.visits as usize;
            let untried = n.untried.as_ref().map_or(0, Vec::len);
            if widen && untried > 0 {
                let line = nodes[node]
                    .untried
                    .as_mut()
                    .and_then(Vec::pop)
                    .expect("counted above");
                if !apply_line(&mut copy, &line, &mut events) {
                    break;
                }
                nodes.push(Node::new(line, acting));
                let id = nodes.len() - 1;
                nodes[node].children.push(id);
                path.push(id);
                break;
            }
            // UCT among the children whose line this copy allows.
            let ln = (n.visits.max(1) as f32).ln();
            let mut best: Option<(usize, f32)> = None;
            for &child in &n.children {
                let c = &nodes[child];
                if c.mover != acting
                    || c.line
                        .first()
                        .is_none_or(|first| copy.check(acting, first).is_err())
                {
                    continue;
                }
                let score = if c.visits == 0 {
                    f32::INFINITY
                } else {
                    c.total / c.visits as f32 + EXPLORATION * (ln / c.visits as f32).sqrt()
                };
                if best.is_none_or(|(_, b)| score > b) {
                    best = Some((child, score));
                }
            }
            let Some((child, _)) = best else {
                break;
            };
            let whole = apply_line(&mut copy, &nodes[child].line, &mut events);
            path.push(child);
            node = child;
            if !whole {
                break;
            }
        }
        // Playout.
        let mut steps = 0;
        while let Some(acting) = next_seat(&copy) {
            if steps == PLAYOUT_LIMIT || judge.settled(game, &copy) {
                break;
            }
            judge.playout_line(&copy, acting, &mut rng, &mut line);
            if line.is_empty() || !apply_line(&mut copy, &line, &mut events) {
                break;
            }
            steps += 1;
        }
        // Values for every seat, then the backup.
        values.clear();
        if next_seat(&copy).is_some() {
            judge.values(&copy, &mut values);
        } else {
            for s in 0..copy.seats() {
                values.push(result_for(&copy, Seat(s as u16)).unwrap_or(0.5));
            }
        }
        for &id in &path {
            let n = &mut nodes[id];
            n.visits += 1;
            n.total += values.get(n.mover.index()).copied().unwrap_or(0.5);
        }
    }
    // The best mean value among the lines visited often enough to trust,
    // ties to the line tried first.
    let root = &nodes[0];
    let most = root.children.iter().map(|c| nodes[*c].visits).max()?;
    let chosen = root
        .children
        .iter()
        .map(|c| &nodes[*c])
        .filter(|c| c.visits > 0 && c.visits * TRUSTED >= most)
        .fold(None, |best: Option<(&Node<G::Command>, f32)>, c| {
            let mean = c.total / c.visits as f32;
            match best {
                Some((_, b)) if b >= mean => best,
                _ => Some((c, mean)),
            }
        })
        .map(|(c, _)| c.line[0])?;
    Some(Searched {
        command: chosen,
        playouts,
    })
}
