//! Bots for Frontiers, on the open table.
//!
//! - **What a position is worth** ([`balance`], in AP): the AP each side
//!   has destroyed (R145), plus half of what each side threatens now: each
//!   standing unit's best shot, worth the AP it is expected to destroy
//!   (the attack's odds from the rules' own numbers, R123-R129, R142: a
//!   step on a unit with a damaged side half its AP, a step on a vehicle
//!   a quarter), the best shots of as many units as the side has
//!   numbered markers (R106) counted. Cover counts through those odds: a
//!   unit behind a light structure or in vegetation is harder to hit.
//!   A unit with no shot at all loses a little for each LNS between it
//!   and the nearest enemy, and a scenario's goals count (crates banked,
//!   the diskette carried, objectives held: R147, R148).
//! - **Candidates** ([`candidates`]): each listed family of the rules
//!   crate, members of each move drawn over the unit's reach
//!   (`GameState::sample_into`), and points worth trying: toward the
//!   nearest enemy, into the nearest vegetation, behind the light
//!   structures between it and the enemy, toward a crate or the diskette.
//! - **Greedy** ([`greedy`]): a shot, a grenade or a charge is worth the
//!   AP it is expected to destroy, any other action what it changes in
//!   the position's worth; the best is played. Its orders give the
//!   numbered markers to the units with the best shots, the best first,
//!   and the decoys to the rest (R107); an active unit names Shoot when it
//!   has a shot worth taking, else Move (R110). Cards are played where
//!   they help: reinforce in the Order phase, aim at its own shot, jam at
//!   the enemy's, cover on a hit, sprint on a move, rally an unmarked
//!   unit with a shot, resupply in the Preparation; the cards it never
//!   plays are discarded (R105, R152).
//! - **Mcts** ([`mcts`]): the shared search, its lines the greedy's
//!   candidates best first (progressive widening), at the orders other
//!   orders made from the greedy's, its playouts short and valued by
//!   [`worth`].
//!
//! Every bot decides on a copy redealt from its seat's view (R149): it
//! never reads the other hand, the marker numbers, the deck or a crate's
//! contents.

mod candidates;
mod worth;

pub use candidates::{candidates, greedy, ranked};
pub use worth::{Shots, balance, best_shot, forget_plans, shot_take, standing_worth, worth};

use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{GameState, Legal, Seat};
use sandtable_frontiers::command::Kind;
use sandtable_frontiers::flow::Phase;
use sandtable_frontiers::{Command, Game};

use crate::search::{Judge, Sight, less_time, result_for, search_seeing};
use crate::{Budget, mix};
use candidates::{choose, greedy_by, listed, other_orders, ranked_by, reserve_group};
use worth::{balance_with, side_of};

/// A hash of what `seat` may know of `game` (R149): the game's state as
/// that seat's player reads it (`text::json`), so that two games that
/// differ only in what `seat` may not see hash alike. The bots seed their
/// own choices with it: a choice never turns on a secret, not even by
/// way of a random draw.
pub fn view_hash(game: &Game, seat: Seat) -> u64 {
    let side = u8::try_from(seat.index().min(1)).unwrap_or(0);
    let view = sandtable_frontiers::text::json(game, Some(side));
    // The state hash's own mixer, stable across runs and builds.
    let mut h = sandtable_core::hash::Mix::new();
    for chunk in view.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h.u64(u64::from_le_bytes(word));
    }
    h.u64(view.len() as u64);
    h.finish()
}

/// Members drawn of each move family besides its listed command and the
/// points worth trying.
pub const DRAWN: usize = 4;
/// Copies a command that rolls at once (a window's grenade, a smoke
/// bomb, a crate opened) is weighed over.
pub const ROLLS: u64 = 3;
/// The share of what each side threatens that a position counts.
pub const THREAT: f32 = 0.5;
/// The least expected AP for which an active unit names Shoot (R110).
const SHOOT_MIN: f32 = 1.0;

/// The judge of Frontiers' search: the greedy's candidates best first as
/// lines, each starting from its greedy score as a prior (its own choice
/// alone first where it follows a policy: orders, names, cards; at the
/// orders, [`other_orders`] after it); short
/// playouts of [`playout_command`]s valued by [`worth`].
#[derive(Debug, Clone, Default)]
pub struct Balance {
    /// The guesses of the last lines, as worths.
    priors: Vec<f32>,
    /// When the search must answer, under a time budget: past it, a
    /// node's lines are the legal list's families unweighed and its value
    /// an even one, so that one iteration does not run on for a whole
    /// weighing of a big army.
    deadline: Option<std::time::Instant>,
}

impl Balance {
    /// The first [`LINES`] of the list's families as lines, unweighed:
    /// each an even guess.
    fn unweighed(&mut self, legal: &[Legal<Command>], out: &mut Vec<Vec<Command>>) {
        for l in legal.iter().take(LINES) {
            out.push(vec![l.command]);
            self.priors.push(0.5);
        }
    }

    /// Whether the search's time is up.
    fn late(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    }
}

/// Lines a node of the search tries at most.
const LINES: usize = 8;
/// Commands a playout plays at most.
const PLAYOUT: usize = 30;
/// How much better than the rest a policy's choice is guessed, of a
/// worth.
const POLICY_LEAN: f32 = 0.02;
/// Playouts a line's greedy score counts for.
const PRIOR_WEIGHT: u32 = 24;
/// The exploration constant of UCT: lines' worths differ by hundredths
/// (a few AP of a few hundred), so the search leans on what it measured.
const EXPLORATION: f32 = 0.05;

impl Judge<Game> for Balance {
    fn deadline(&mut self, at: Option<std::time::Instant>) {
        self.deadline = at;
    }

    fn values(&mut self, game: &Game, out: &mut Vec<f32>) {
        out.clear();
        // One side's balance is the other's negated: worked out once.
        // Out of time (before or while the shots are worked out): even.
        let first = match result_for(game, Seat(0)) {
            Some(r) => r,
            None if self.late() => 0.5,
            None => match Shots::of_by(game, self.deadline) {
                Some(shots) => (0.5
                    + 0.5 * balance_with(game, &shots.bests(game), 0) / scale(game))
                .clamp(0.0, 1.0),
                None => 0.5,
            },
        };
        out.extend([first, 1.0 - first]);
    }

    fn lines(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Vec<Command>>,
    ) {
        out.clear();
        self.priors.clear();
        let side = side_of(seat);
        let legal = listed(game, seat, self.deadline);
        // Out of time, or running out while the position's shots (which
        // every weighing below reads, and keeps) are worked out: the
        // list's families, unweighed.
        if self.late() || (self.deadline.is_some() && Shots::of_by(game, self.deadline).is_none()) {
            self.unweighed(&legal, out);
            return;
        }
        let policy = match game.flow().phase {
            Phase::Deploy(_) | Phase::Act | Phase::Shots | Phase::Reserve(_)
                if game.pending().is_none() && game.picks().is_empty() =>
            {
                None
            }
            _ => Some(choose(game, seat, rng)),
        };
        match policy {
            Some(first) => {
                let here = worth(game, seat);
                out.extend(first.map(|c| vec![c]));
                // The other listed commands after it, and other orders.
                if matches!(game.flow().phase, Phase::Order) {
                    out.extend(
                        other_orders(game, side)
                            .into_iter()
                            .filter(|c| Some(*c) != first && game.check(seat, c).is_ok())
                            .map(|c| vec![c]),
                    );
                }
                for l in &legal {
                    if out.len() >= LINES {
                        break;
                    }
                    if first != Some(l.command) {
                        out.push(vec![l.command]);
                    }
                }
                // The policy's choice is guessed a little better than the
                // rest: a few noisy playouts do not overturn it.
                self.priors.extend((0..out.len()).map(|k| {
                    let lean = if k == 0 && first.is_some() {
                        POLICY_LEAN
                    } else {
                        -POLICY_LEAN
                    };
                    (here + lean).clamp(0.0, 1.0)
                }));
            }
            None => {
                let here = worth(game, seat);
                let scale = scale(game);
                for (v, c) in ranked_by(game, seat, &legal, rng, self.deadline)
                    .into_iter()
                    .take(LINES)
                {
                    out.push(vec![c]);
                    self.priors.push((here + 0.5 * v / scale).clamp(0.0, 1.0));
                }
                // Stopped at the deadline before any was weighed: the
                // list's families, unweighed.
                if out.is_empty() && self.late() {
                    self.unweighed(&legal, out);
                }
            }
        }
    }

    fn priors(&mut self, out: &mut Vec<f32>) -> u32 {
        out.clear();
        out.extend(self.priors.iter().copied());
        if out.is_empty() { 0 } else { PRIOR_WEIGHT }
    }

    fn playout_line(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Command>,
    ) {
        out.clear();
        // Under a time budget, the position's shots (which the orders and
        // the shots of a playout read, and keep) are worked out by the
        // deadline, else the playout stops and is valued as it stands.
        if self.deadline.is_some() && Shots::of_by(game, self.deadline).is_none() {
            return;
        }
        out.extend(playout_command(game, seat, rng));
    }

    fn playout_limit(&self) -> usize {
        PLAYOUT
    }

    fn exploration(&self) -> f32 {
        EXPLORATION
    }
}

/// A playout's command: the greedy's policies where they are cheap
/// (orders, names, cards, discards), an actor's best shot where it has
/// one worth [`SHOOT_MIN`] (any shot where its shot is owed), else its
/// action or Reserve let go; a random command where none of these is
/// legal.
pub fn playout_command(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Command> {
    let side = side_of(seat);
    let phase = game.flow().phase;
    if game.pending().is_none() && game.picks().is_empty() {
        match phase {
            Phase::Prepare(_) | Phase::Order | Phase::Name(_) | Phase::Window => {
                return choose(game, seat, rng);
            }
            Phase::Act | Phase::Shots | Phase::Reserve(_) => {
                let actors = game.actors(side);
                for (i, kinds, weapon) in &actors {
                    if kinds.contains(&Kind::Shoot)
                        && !game.units()[*i].handed
                        && let (v, Some(c)) = best_shot(game, *i, *weapon)
                        && (v >= SHOOT_MIN || phase == Phase::Shots)
                        && game.check(seat, &c).is_ok()
                    {
                        return Some(c);
                    }
                }
                // Else the unit stays where it stands: a playout weighs
                // the shots exchanged from the positions its line made.
                let stay = match (phase, actors.first()) {
                    (Phase::Reserve(_), Some((i, ..))) => Command::Pass {
                        unit: Some(game.units()[*i].tag),
                    },
                    _ => Command::Pass { unit: None },
                };
                if game.check(seat, &stay).is_ok() {
                    return Some(stay);
                }
            }
            Phase::Deploy(_) => {}
        }
    }
    game.random_command(seat, rng)
}

/// The larger army's AP: what a balance is measured against.
fn scale(game: &Game) -> f32 {
    let mut list = [0u32; 2];
    for u in game.units() {
        list[usize::from(u.side.min(1))] += u32::from(u.data.ap);
    }
    list[0].max(list[1]).max(1) as f32
}

/// The search stops at its time budget less the budget over this (a
/// tenth of it): the deadline is checked between steps (a weighing, a playout's
/// command), and the step under way when it passes ends within what is
/// kept, so that the decision is made within its budget.
const OVERRUN_SHARE: u32 = 10;

/// The mcts bot's command and its playouts. A decision of one listed
/// family (the orders with no card to play, a lone unit's move or
/// deployment) is the greedy's: the shared search takes a lone listed
/// command as it stands.
pub fn mcts(
    game: &Game,
    seat: Seat,
    budget: Budget,
    seed: u64,
) -> Option<(Command, u64, Option<f32>)> {
    mcts_seeing(game, seat, budget, seed, Sight::Own)
}

/// As [`mcts`], knowing what `sight` says.
pub fn mcts_seeing(
    game: &Game,
    seat: Seat,
    budget: Budget,
    seed: u64,
    sight: Sight,
) -> Option<(Command, u64, Option<f32>)> {
    let start = std::time::Instant::now();
    // A share of the time kept for the step under way when it runs out.
    let budget = match budget {
        Budget::Iterations(_) => budget,
        Budget::Within { time, .. } | Budget::Time(time) => less_time(budget, time / OVERRUN_SHARE),
    };
    // A Reserve group has more than one family, known without listing
    // every unit's shots.
    let one = reserve_group(game, side_of(seat)).is_none() && {
        let mut legal: Vec<Legal<Command>> = Vec::new();
        game.legal_into(seat, &mut legal);
        legal.len() == 1
    };
    if one && sandtable_core::game::next_seat(game) == Some(seat) {
        // One family: greedy's member of it, weighed within the time
        // budget where there is one.
        let deadline = match budget {
            Budget::Iterations(_) => None,
            Budget::Within { time, .. } | Budget::Time(time) => Some(start + time),
        };
        return greedy_by(game, seat, seed, deadline).map(|c| (c, 0, None));
    }
    // The time budget counts from the call: what the listing took is
    // taken from it.
    let budget = less_time(budget, start.elapsed());
    search_seeing(
        game,
        seat,
        Balance::default,
        budget,
        mix(seed, view_hash(game, seat)),
        1,
        sight,
    )
    .map(|s| (s.command, s.playouts, s.value))
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::candidates::orders;
    use super::worth::{PLANS, fresh_plan, pair_bound, pair_take, plan};
    use super::*;
    use sandtable_core::dice::Dice;
    use sandtable_core::game::next_seat;

    /// Confrontation at its start, its dice seeded with 3.
    fn confrontation() -> Game {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios/frontiers/confrontation.ron");
        let text = std::fs::read_to_string(path).expect("the scenario");
        let skirmish =
            sandtable_scenario::skirmish::parse(&text, "confrontation").expect("it loads");
        Game::new(&skirmish.setup, Dice::seeded(3)).expect("it starts")
    }

    /// Confrontation with every unit deployed by greedy, at the first
    /// Order phase.
    fn first_orders() -> Game {
        let mut game = confrontation();
        let mut events = Vec::new();
        while !matches!(game.flow().phase, Phase::Order) {
            let seat = next_seat(&game).expect("a seat decides");
            let c = greedy(&game, seat, 5).expect("a command");
            game.apply_into(seat, &c, &mut events).expect("legal");
        }
        game
    }

    /// The other orders mcts weighs are legal, each unlike greedy's and
    /// unlike each other, and number as many markers (R106, R107).
    #[test]
    fn other_orders_are_legal_and_differ() {
        let game = first_orders();
        for side in 0..2u8 {
            let seat = Seat(u16::from(side));
            let mine = orders(&game, side).expect("greedy's orders");
            let others = other_orders(&game, side);
            assert_eq!(others.len(), 3, "side {side}: {others:?}");
            let numbered = |c: &Command| match c {
                Command::Orders { orders, n } => orders[..usize::from(*n)]
                    .iter()
                    .filter(|o| matches!(o.marker, sandtable_frontiers::army::Marker::Numbered(_)))
                    .count(),
                _ => panic!("not orders: {c:?}"),
            };
            for (k, c) in others.iter().enumerate() {
                assert!(
                    game.check(seat, c).is_ok(),
                    "side {side}: {c:?}: {:?}",
                    game.check(seat, c)
                );
                assert_ne!(*c, mine, "side {side}: other orders {k} are greedy's");
                assert!(!others[..k].contains(c), "side {side}: {k} twice");
                assert_eq!(numbered(c), numbered(&mine), "side {side}: {c:?}");
            }
        }
    }

    /// A plan from the cache is the plan the rules work out, at every
    /// tenth position of a greedy game on Confrontation: the positions
    /// are visited forward and then backward, so that plans worked out at
    /// one position are looked up at others where units moved, fired,
    /// took hits or fell.
    #[test]
    fn a_cached_plan_is_the_rules_plan() {
        let states = greedy_positions();
        assert!(states.len() > 20, "{} positions", states.len());
        let mut looked_up = 0;
        for g in states.iter().chain(states.iter().rev()) {
            let n = g.units().len();
            for i in 0..n {
                let weapons = u8::try_from(g.units()[i].data.weapons.len().max(1)).unwrap_or(1);
                for t in 0..n {
                    for w in 0..weapons {
                        assert_eq!(
                            plan(g, i, t, w),
                            fresh_plan(g, i, t, w),
                            "unit {i} at {t} with weapon {w}, turn {}",
                            g.turn_number()
                        );
                        looked_up += 1;
                    }
                }
            }
        }
        let kept = PLANS.with_borrow(|p| p.map.len());
        assert!(
            kept < looked_up,
            "{kept} plans kept of {looked_up} looked up"
        );
    }

    /// Positions of a greedy game of Confrontation, one every ten
    /// commands.
    fn greedy_positions() -> Vec<Game> {
        let mut game = confrontation();
        let mut states = Vec::new();
        let mut events = Vec::new();
        let mut k = 0;
        while let Some(seat) = next_seat(&game) {
            if k % 10 == 0 {
                states.push(game.clone());
            }
            let c = greedy(&game, seat, 5).expect("a command");
            game.apply_into(seat, &c, &mut events).expect("legal");
            k += 1;
        }
        states
    }

    /// Every shot of `game` worked out, shooter by target: the table
    /// without bounds.
    fn whole_table(game: &Game) -> Vec<Vec<f32>> {
        let n = game.units().len();
        (0..n)
            .map(|i| (0..n).map(|t| pair_take(game, i, t)).collect())
            .collect()
    }

    fn row_maxima(table: &[Vec<f32>]) -> Vec<f32> {
        table
            .iter()
            .map(|row| row.iter().copied().fold(0.0, f32::max))
            .collect()
    }

    /// No shot is worth more than its bound, so the bests and the best
    /// shots at each unit found by bounds are the whole table's.
    #[test]
    fn a_shot_is_never_above_its_bound_and_the_bests_are_the_whole_table_s() {
        let states = greedy_positions();
        assert!(states.len() > 20, "{} positions", states.len());
        let (mut pairs, mut worked) = (0, 0);
        for g in &states {
            let table = whole_table(g);
            let n = table.len();
            let shots = Shots::fresh(g, None).expect("no deadline");
            for (i, row) in table.iter().enumerate() {
                for (t, v) in row.iter().enumerate() {
                    assert!(
                        *v <= pair_bound(g, i, t),
                        "unit {i} at {t}: {v} above its bound {}, turn {}",
                        pair_bound(g, i, t),
                        g.turn_number()
                    );
                }
            }
            assert_eq!(
                shots.bests(g),
                row_maxima(&table),
                "turn {}",
                g.turn_number()
            );
            for t in 0..n {
                let worst = table.iter().map(|row| row[t]).fold(0.0, f32::max);
                assert_eq!(shots.worst_at(g, t), worst, "at unit {t}");
            }
            pairs += n * n;
            worked += shots.take.iter().filter(|c| !c.get().is_nan()).count();
        }
        // The bounds spare work, or they would be no use.
        assert!(worked < pairs, "{worked} shots worked out of {pairs}");
    }

    /// The bests after a command, from the shots before it, are the
    /// whole table's with the rows and columns of the units it changed
    /// worked out again (all of it where more than three changed or a
    /// cloud came or went).
    #[test]
    fn the_bests_after_a_command_are_those_of_the_table_worked_out_again() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut weighed = 0;
        for g in &greedy_positions() {
            let Some(seat) = next_seat(g) else { continue };
            let shots = Shots::of(g);
            let before = whole_table(g);
            for c in candidates(g, seat, &mut rng).iter().take(12) {
                let mut after = g.clone();
                if after.apply_into(seat, c, &mut Vec::new()).is_err() {
                    continue;
                }
                let n = before.len();
                let changed: Vec<usize> = (0..n)
                    .filter(|k| g.units()[*k] != after.units()[*k])
                    .collect();
                let expected = if changed.len() > 3 || g.clouds() != after.clouds() {
                    row_maxima(&whole_table(&after))
                } else {
                    let mut table = before.clone();
                    for &k in &changed {
                        table[k] = (0..n).map(|t| pair_take(&after, k, t)).collect();
                        for (t, row) in table.iter_mut().enumerate() {
                            row[k] = pair_take(&after, t, k);
                        }
                    }
                    row_maxima(&table)
                };
                assert_eq!(shots.bests_after(g, &after, None), Some(expected), "{c}");
                weighed += 1;
            }
        }
        assert!(weighed > 50, "{weighed} commands weighed");
    }
}
