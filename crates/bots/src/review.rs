//! A game looked back at, for the CLI's `review` and the table's review
//! panel alike: after every decision of a record, the tree search of the
//! seat to decide estimates each side's chance of winning (its chosen
//! line's mean value), and a finished game's result stands where it has
//! ended. A finished game is weighed with the referee's knowledge
//! ([`Sight::All`]: every secret as it stood, only the dice to come drawn
//! afresh); one going on only from what the deciding seat could see then
//! ([`Sight::Own`]: every playout deals again what it may not see, R30,
//! R57, R149), so that a review of an unfinished game tells no secret.
//! The decisions with a choice where the estimate moved most are its
//! turning points, each with the command the search would have played
//! there and its estimate.

use sandtable_core::game::{Decision as Turn, GameState, Seat, next_seat, seat_seed};

use crate::search::{Sight, result_for};
use crate::{BotConfig, BotKind, Budget, Decision};

/// The default iterations of the search at each position.
pub const DEFAULT_ITERATIONS: u32 = 100;

/// How many turning points are named.
pub const TURNING_POINTS: usize = 3;

/// One decision of the record and the estimates after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Where the command stands: the record's line, or its number.
    pub line: usize,
    /// The seat that gave it.
    pub seat: Seat,
    /// The command, as the record holds it.
    pub command: String,
    /// Each seat's chance of winning after it, from 0 to 1; `None` for a
    /// seat of more than two whose chances the search did not weigh.
    pub chances: Vec<Option<f32>>,
    /// The command the search would have given in its place, and its
    /// estimate of the seat's chance with it; `None` where nothing was to
    /// choose (one legal command).
    pub instead: Option<(String, f32)>,
}

/// A record reviewed: the chances at the start and after each decision.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// The seats' names.
    pub names: Vec<String>,
    /// Each seat's chance at the start.
    pub start: Vec<Option<f32>>,
    /// The decisions, in order.
    pub steps: Vec<Step>,
    /// What the search knew: the referee's knowledge (a finished game) or
    /// the deciding seat's view.
    pub sight: Sight,
}

impl Review {
    /// The chances before decision `k` (from 0): the start's, or those
    /// after the decision before it.
    pub fn before(&self, k: usize) -> &[Option<f32>] {
        match k {
            0 => &self.start,
            _ => &self.steps[k - 1].chances,
        }
    }

    /// How far decision `k` moved its own seat's chance: after less
    /// before, where both are known.
    pub fn swing(&self, k: usize) -> Option<f32> {
        let s = self.steps[k].seat.index();
        Some(self.steps[k].chances.get(s).copied()?? - self.before(k).get(s).copied()??)
    }

    /// The decisions that moved their seat's chance most, largest first
    /// (at most `n`): decisions with a choice (more than one legal
    /// command), since a forced one turned nothing; a decision that moved
    /// nothing is none.
    pub fn turning_points(&self, n: usize) -> Vec<usize> {
        let mut ks: Vec<(usize, f32)> = (0..self.steps.len())
            .filter(|k| self.steps[*k].instead.is_some())
            .filter_map(|k| self.swing(k).map(|d| (k, d.abs())))
            .filter(|(_, d)| *d > 0.0)
            .collect();
        // Largest first; the earlier of two equal swings first.
        ks.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ks.into_iter().take(n).map(|(k, _)| k).collect()
    }
}

/// A chance in words: `62%`, or `-` where it was not weighed.
pub fn percent(c: Option<f32>) -> String {
    c.map_or_else(|| "-".to_owned(), |c| format!("{:.0}%", 100.0 * c))
}

/// Why a record could not be reviewed: its command at `line` comes after
/// the game's end, or the rules refuse it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewError {
    /// Where the command stands: the record's line, or its number.
    pub line: usize,
    /// The command.
    pub command: String,
    /// Why: `None` after the game's end, else the rules' refusal.
    pub refused: Option<String>,
}

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.refused {
            None => write!(f, "`{}` comes after the game's end", self.command),
            Some(why) => write!(f, "`{}` is refused: {why}", self.command),
        }
    }
}

impl std::error::Error for ReviewError {}

/// The chances a finished game gives each seat (`result_for`: 1 a win,
/// 0 a loss, 0.5 each in a draw).
fn results<G: GameState>(game: &G) -> Option<Vec<Option<f32>>> {
    matches!(game.decision(), Turn::Over(_)).then(|| {
        (0..game.seats())
            .map(|s| result_for(game, Seat(s as u16)))
            .collect()
    })
}

/// How a bot decides: the system's own (`crate::decide`, or the CLI's
/// front for it).
pub type Decide<'a, G> =
    &'a (dyn Fn(&G, Seat, &BotConfig) -> Option<Decision<<G as GameState>::Command>> + Sync);

/// Each seat's chance at `game` and the search's choice there, by the
/// search of the seat to decide: for two seats the other's is the rest;
/// where the search weighed nothing (one legal command) the chances stay
/// `last`.
#[allow(clippy::type_complexity)]
fn estimate<G: GameState>(
    decide: Decide<'_, G>,
    game: &G,
    (iterations, seed, sight): (u32, u64, Sight),
    last: &[Option<f32>],
) -> (Vec<Option<f32>>, Option<(G::Command, f32)>) {
    if let Some(done) = results(game) {
        return (done, None);
    }
    let Some(seat) = next_seat(game) else {
        return (last.to_vec(), None);
    };
    let config = BotConfig::new(BotKind::Mcts, seat_seed(seed, seat))
        .with_budget(Budget::Iterations(iterations))
        .with_sight(sight);
    let Some(decision) = decide(game, seat, &config) else {
        return (last.to_vec(), None);
    };
    let Some(v) = decision.value else {
        return (last.to_vec(), None);
    };
    let v = v.clamp(0.0, 1.0);
    let seats = game.seats();
    let chances = (0..seats)
        .map(|s| match (s == seat.index(), seats) {
            (true, _) => Some(v),
            (false, 2) => Some(1.0 - v),
            (false, _) => None,
        })
        .collect();
    (chances, Some((decision.command, v)))
}

/// Whether `commands` played from `game` end the game: then the review
/// weighs it as its referee.
pub fn sight_for<G: GameState>(game: &G, commands: &[(usize, G::Command)]) -> Sight {
    let mut end = game.clone();
    let mut events = Vec::new();
    let ended = commands.iter().all(|(_, c)| {
        next_seat(&end).is_some_and(|seat| end.apply_into(seat, c, &mut events).is_ok())
    }) && matches!(end.decision(), Turn::Over(_));
    if ended { Sight::All } else { Sight::Own }
}

/// Reviews `commands` (each with its line) played from `game`, the
/// record's start, as `names` are seated: the search of `iterations` at
/// every position, seeded from `seed`, deciding as `decide` does.
/// `progress` is told how many positions are weighed, after each; it
/// returns `false` to stop, and then the review so far is returned.
pub fn review<G: GameState>(
    decide: Decide<'_, G>,
    names: Vec<String>,
    mut game: G,
    commands: &[(usize, G::Command)],
    (iterations, seed): (u32, u64),
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Review, ReviewError> {
    let sight = sight_for(&game, commands);
    let how = (iterations, seed, sight);
    let even = vec![Some(1.0 / names.len().max(1) as f32); names.len()];
    let (start, mut instead) = estimate(decide, &game, how, &even);
    let mut steps = Vec::with_capacity(commands.len());
    let mut go_on = progress(1);
    let mut last = start.clone();
    let mut events = Vec::new();
    for (line, command) in commands {
        if !go_on {
            break;
        }
        let refused = |why: Option<String>| ReviewError {
            line: *line,
            command: command.to_string(),
            refused: why,
        };
        let seat = next_seat(&game).ok_or_else(|| refused(None))?;
        events.clear();
        game.apply_into(seat, command, &mut events)
            .map_err(|e| refused(Some(e.to_string())))?;
        let (chances, next) = estimate(decide, &game, how, &last);
        steps.push(Step {
            line: *line,
            seat,
            command: command.to_string(),
            chances: chances.clone(),
            instead: instead.take().map(|(c, v)| (c.to_string(), v)),
        });
        instead = next;
        last = chances;
        go_on = progress(steps.len() + 1);
    }
    Ok(Review {
        names,
        start,
        steps,
        sight,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_of_cache_is_weighed_after_every_decision_and_stops_when_told() {
        let game =
            sandtable_cache::Game::new(&sandtable_cache::samples::table_a_skirmish(7, Some(200)))
                .expect("the sample starts");
        let mut play = game.clone();
        let mut commands = Vec::new();
        for k in 0..6 {
            let seat = next_seat(&play).expect("not over");
            let c =
                crate::choose(&play, seat, &BotConfig::new(BotKind::Greedy, k)).expect("a command");
            GameState::apply_into(&mut play, seat, &c, &mut Vec::new()).expect("legal");
            commands.push((k as usize + 1, c));
        }
        let names = vec!["A".to_owned(), "B".to_owned()];
        let mut seen = Vec::new();
        let whole = review(
            &crate::decide,
            names.clone(),
            game.clone(),
            &commands,
            (20, 3),
            &mut |k| {
                seen.push(k);
                true
            },
        )
        .expect("legal");
        assert_eq!(whole.steps.len(), 6);
        assert_eq!(seen, (1..=7).collect::<Vec<_>>());
        assert_eq!(whole.sight, Sight::Own, "the game goes on");
        for step in &whole.steps {
            let sum: f32 = step.chances.iter().map(|c| c.expect("two seats")).sum();
            assert!((sum - 1.0).abs() < 1e-5, "{step:?}");
        }
        // Stopped after three positions weighed: the start and two
        // decisions.
        let part = review(&crate::decide, names, game, &commands, (20, 3), &mut |k| {
            k < 3
        })
        .expect("legal");
        assert_eq!(part.steps, whole.steps[..2]);
    }
}
