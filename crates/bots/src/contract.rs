//! Bots for any rule system, over the game contract alone: a random player
//! and a Monte Carlo tree search (UCT) with random playouts. They play
//! whole decisions of any kind: a player's move, an answer owed to another
//! player, a sealed order among several. What a seat may not see is never
//! read: every iteration searches a private copy redealt from the seat's
//! own view (`GameState::redeal`: hidden hands and unrevealed orders dealt
//! again, dice reseeded; R30, R57).
//!
//! The Cache bots (`crate::choose`) keep their own evaluation and search,
//! tuned for that game.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{Decision, Ending, GameState, Legal, Seat, next_seat};

/// A legal command of `seat`, chosen uniformly with `rng`; `None` when the
/// seat owes no decision.
pub fn random<G: GameState>(game: &G, seat: Seat, rng: &mut impl Rng) -> Option<G::Command> {
    let mut legal = Vec::new();
    game.legal_into(seat, &mut legal);
    (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())].command)
}

/// Playouts longer than this many commands are scored as they stand.
const MAX_PLAYOUT: u32 = 1_000;

/// A node of the search tree: the decisions of one seat at one position
/// (as that seat's redealt copies reach it), each with its statistics.
struct Node<C> {
    seat: Seat,
    moves: Vec<Edge<C>>,
    visits: u32,
}

impl<C: Copy> Node<C> {
    /// A node not yet visited, with the seat's legal commands.
    fn new(seat: Seat, legal: &[Legal<C>]) -> Node<C> {
        Node {
            seat,
            moves: legal
                .iter()
                .map(|l| Edge {
                    command: l.command,
                    visits: 0,
                    value: 0.0,
                    child: None,
                })
                .collect(),
            visits: 0,
        }
    }
}

struct Edge<C> {
    command: C,
    visits: u32,
    /// Sum of the acting seat's results: 1 a win, 0.5 a draw, 0 a loss.
    value: f64,
    child: Option<usize>,
}

/// The result of a finished game for `seat`: 1 a win, 0.5 a draw, 0 a loss.
fn result_for<G: GameState>(game: &G, seat: Seat) -> f64 {
    match game.decision() {
        Decision::Over(Ending::Won(winner)) if winner == seat => 1.0,
        Decision::Over(Ending::Won(_)) => 0.0,
        _ => 0.5,
    }
}

/// Chooses a command for `seat` by UCT over `iterations` playouts, each on
/// a copy of the game redealt from the seat's view; the same game, seat,
/// iterations and seed give the same command. `None` when the seat owes no
/// decision.
pub fn mcts<G: GameState>(game: &G, seat: Seat, iterations: u32, seed: u64) -> Option<G::Command> {
    let mut legal: Vec<Legal<G::Command>> = Vec::new();
    game.legal_into(seat, &mut legal);
    match legal.len() {
        0 => return None,
        1 => return Some(legal[0].command),
        _ => {}
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut nodes: Vec<Node<G::Command>> = vec![Node::new(seat, &legal)];
    let mut copy = game.clone();
    let mut events = Vec::new();
    let mut path: Vec<(usize, usize)> = Vec::new();
    for _ in 0..iterations {
        copy.clone_from(game);
        copy.redeal(seat, rng.random());
        path.clear();
        let mut node = 0;
        // Selection and expansion: down the tree while its moves apply.
        loop {
            let n = &nodes[node];
            let Some(acting) = next_seat(&copy) else {
                break;
            };
            if acting != n.seat {
                break;
            }
            let ln = f64::from(n.visits.max(1)).ln();
            let pick = n
                .moves
                .iter()
                .enumerate()
                .filter(|(_, e)| copy.check(acting, &e.command).is_ok())
                .map(|(k, e)| {
                    let score = if e.visits == 0 {
                        f64::INFINITY
                    } else {
                        e.value / f64::from(e.visits) + (2.0 * ln / f64::from(e.visits)).sqrt()
                    };
                    (k, score)
                })
                .fold(None, |best: Option<(usize, f64)>, (k, s)| match best {
                    Some((_, b)) if b >= s => best,
                    _ => Some((k, s)),
                });
            let Some((k, _)) = pick else {
                break;
            };
            let command = nodes[node].moves[k].command;
            events.clear();
            copy.apply_into(acting, &command, &mut events)
                .expect("checked above");
            path.push((node, k));
            match nodes[node].moves[k].child {
                Some(child) => node = child,
                None => {
                    if let Some(next) = next_seat(&copy) {
                        copy.legal_into(next, &mut legal);
                        nodes.push(Node::new(next, &legal));
                        let id = nodes.len() - 1;
                        nodes[node].moves[k].child = Some(id);
                    }
                    break;
                }
            }
        }
        // Playout: random commands to the end.
        let mut steps = 0;
        while let Some(acting) = next_seat(&copy) {
            if steps == MAX_PLAYOUT {
                break;
            }
            let command = random(&copy, acting, &mut rng).expect("a seat to act has a command");
            events.clear();
            copy.apply_into(acting, &command, &mut events)
                .expect("a listed command is legal");
            steps += 1;
        }
        // Backup: each edge scored for the seat that took it.
        for &(node, k) in &path {
            let result = result_for(&copy, nodes[node].seat);
            let n = &mut nodes[node];
            n.visits += 1;
            n.moves[k].visits += 1;
            n.moves[k].value += result;
        }
    }
    nodes[0]
        .moves
        .iter()
        .enumerate()
        .max_by_key(|(k, e)| (e.visits, std::cmp::Reverse(*k)))
        .map(|(_, e)| e.command)
}
