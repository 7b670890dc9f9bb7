//! `balance`: how fair a Frontiers scenario is, measured. The same bot
//! plays both sides; each deal (its seed) is played twice, the second
//! time on the ground turned half a turn ([`Setup::ground_turned`]: the
//! sides' zones exchanged, the terrain as it is), so that the ground
//! favours neither faction. It prints what decided the games (the AP each
//! faction destroyed, the units lost by type, the objectives held, the
//! turns played) and ends with one line that other tools read:
//!
//! `balance: Legion 48.5% (41.7-55.4) Zirl 45.0% (38.3-51.9) drawn 6.5% over 200 games`
//!
//! each faction's wins with its Wilson 95% interval. Given a Cameron
//! match's two games (R148) it plays matches, and the line adds the mean
//! turns each faction survived as the defender.
//!
//! [`Setup::ground_turned`]: sandtable_frontiers::setup::Setup::ground_turned

use sandtable_bots::BotKind;
use sandtable_core::dice::Dice;
use sandtable_core::game::Seat;
use sandtable_core::text::path_shown;
use sandtable_frontiers::data::Faction;
use sandtable_frontiers::setup::Victory;
use sandtable_frontiers::{Event, Game};
use sandtable_scenario::skirmish::Skirmish;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;

use crate::bots::{DEFAULT_TURN_LIMIT, Thinking, play_game_watched, run_jobs, wilson};
use crate::{Failure, Front};

/// Options of `balance`.
pub struct BalanceOptions {
    /// The bot on both sides.
    pub bot: BotKind,
    /// Games (or matches) in all; deal k / 2 is played twice.
    pub games: u32,
    /// The seed of the first deal.
    pub seed: Option<u64>,
    /// The turn limit of every game.
    pub turn_limit: Option<u32>,
    /// Games played at once.
    pub threads: Option<usize>,
    /// How mcts thinks.
    pub thinking: Thinking,
}

/// The factions in the order the report gives them.
const FACTIONS: [(Faction, &str); 2] = [(Faction::Legion, "Legion"), (Faction::Zirl, "Zirl")];

/// A faction's column in the report: 0 the Legion, 1 the Zirl.
fn column(f: Faction) -> usize {
    usize::from(f == Faction::Zirl)
}

/// Running sums of the games (or matches) played, by faction column.
#[derive(Debug, Clone, Default)]
struct Tally {
    /// Games (or matches) played.
    played: u32,
    /// Wins by faction.
    wins: [u32; 2],
    /// Wins on the ground as set (0) and turned (1), by faction.
    by_ground: [[u32; 2]; 2],
    /// AP destroyed by each faction (R145).
    ap: [u64; 2],
    /// Units lost, by data id (each id names its faction: `lg_`, `zr_`).
    lost: BTreeMap<&'static str, u32>,
    /// Units lost by each faction.
    lost_by: [u32; 2],
    /// Game turns played, every game's.
    turns: u64,
    /// The scenario's goals reached at a game's end, by faction: every
    /// objective held by the attacker (R148), crates banked (R143), the
    /// diskette on the teleprinter's space (R147).
    goals: [u32; 2],
    /// A Cameron match's turns survived as the defender (R148), and the
    /// games defended, by faction.
    survived: [u64; 2],
    defended: [u32; 2],
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.played += other.played;
        for f in 0..2 {
            self.wins[f] += other.wins[f];
            self.by_ground[0][f] += other.by_ground[0][f];
            self.by_ground[1][f] += other.by_ground[1][f];
            self.ap[f] += other.ap[f];
            self.lost_by[f] += other.lost_by[f];
            self.goals[f] += other.goals[f];
            self.survived[f] += other.survived[f];
            self.defended[f] += other.defended[f];
        }
        for (id, n) in &other.lost {
            *self.lost.entry(id).or_default() += n;
        }
        self.turns += other.turns;
    }
}

/// What a scenario's goals are called in the report, by its victory;
/// `None` where it has none but the AP destroyed.
fn goals_named(victory: Victory) -> Option<&'static str> {
    match victory {
        Victory::AttackDefense => Some("every objective held at the end (R148)"),
        Victory::TreasureHunt => Some("crates banked a game (R143)"),
        Victory::DataRecovery => Some("the diskette delivered (R147)"),
        _ => None,
    }
}

/// One game of `skirmish` from `seed`, on its ground as set or turned,
/// `o.bot` on both sides: its figures, and the turns its defender
/// survived (R148) with the defender's faction column.
fn one_game(
    skirmish: &Skirmish,
    turned: bool,
    seed: u64,
    limit: u32,
    o: &BalanceOptions,
) -> (Tally, (u32, usize)) {
    let mut s = skirmish.clone();
    if turned {
        s.setup = s.setup.ground_turned();
    }
    let game = s
        .start(seed, Some(limit), Dice::seeded(seed))
        .expect("both grounds were checked to start");
    let faction = |side: u8| column(s.setup.sides[usize::from(side)].faction);
    let configs = [0u64, 1].map(|seat| {
        o.thinking
            .config(o.bot, seed.wrapping_mul(2).wrapping_add(seat))
    });
    let mut t = Tally {
        played: 1,
        ..Tally::default()
    };
    let (winner, played, end) =
        play_game_watched(&s, game, configs, |g: &Game, events: &[Event]| {
            for e in events {
                if let Event::Destroyed { unit, .. } = e {
                    let u = &g.units()[*unit];
                    *t.lost.entry(u.data.id).or_default() += 1;
                    t.lost_by[faction(u.side)] += 1;
                }
            }
        });
    t.turns = u64::from(played.turns);
    let ap = end.ap_destroyed();
    for side in 0..2u8 {
        t.ap[faction(side)] += u64::from(ap[usize::from(side)]);
    }
    let won = winner.map(|w: Seat| faction(w.0 as u8));
    if let Some(f) = won {
        t.wins[f] += 1;
        t.by_ground[usize::from(turned)][f] += 1;
    }
    match s.setup.victory {
        Victory::AttackDefense if end.objectives_held() => {
            t.goals[faction(s.setup.attacker)] += 1;
        }
        Victory::TreasureHunt => {
            let banked = end.banked();
            for side in 0..2u8 {
                t.goals[faction(side)] += u32::from(banked[usize::from(side)]);
            }
        }
        Victory::DataRecovery => {
            if let Some(c) = end.diskette().and_then(|d| d.carrier) {
                let u = &end.units()[usize::from(c)];
                if u.alive && u.inside.is_some() && u.inside == s.setup.teleprinter {
                    t.goals[faction(u.side)] += 1;
                }
            }
        }
        _ => {}
    }
    let defender = 1 - s.setup.attacker;
    let survived = crate::frontiers::survived(&s, played.turns, winner);
    (t, (survived, faction(defender)))
}

/// Checks that `s` is a Frontiers scenario of the Legion against the
/// Zirl whose ground may be turned: both grounds start a game.
fn check(s: &Skirmish, file: &Path, limit: u32, seed: u64) -> Result<(), Failure> {
    let factions: Vec<Faction> = s.setup.sides.iter().map(|x| x.faction).collect();
    if factions.len() != 2 || factions[0] == factions[1] {
        return Err(Failure::new(
            1,
            format!(
                "{}: balance weighs the Legion against the Zirl; this scenario's sides are {}",
                path_shown(file),
                factions
                    .iter()
                    .map(|f| format!("{f:?}"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        ));
    }
    let mut turned = s.clone();
    turned.setup = s.setup.ground_turned();
    if let Err(e) = turned.start(seed, Some(limit), Dice::seeded(seed)) {
        return Err(Failure::new(
            1,
            format!(
                "{}: with its ground turned half a turn (the sides' zones exchanged) it does not start: {e}",
                path_shown(file)
            ),
        ));
    }
    Ok(())
}

/// The last line: each faction's share of `t.played` won, with its Wilson
/// 95% interval, and the drawn share.
fn last_line(t: &Tally, what: &str) -> String {
    let n = t.played;
    let share = |w: u32| 100.0 * f64::from(w) / f64::from(n.max(1));
    let mut out = String::from("balance:");
    for (f, (_, name)) in FACTIONS.iter().enumerate() {
        let (lo, hi) = wilson(t.wins[f], n);
        let _ = write!(
            out,
            " {name} {:.1}% ({:.1}-{:.1})",
            share(t.wins[f]),
            100.0 * lo,
            100.0 * hi
        );
    }
    let drawn = n - t.wins[0] - t.wins[1];
    let _ = write!(out, " drawn {:.1}% over {n} {what}", share(drawn));
    out
}

/// `balance FILE [SECOND]` (see the module doc).
pub fn balance(file: &Path, second: Option<&Path>, o: BalanceOptions) -> Result<String, Failure> {
    if o.games == 0 {
        return Err(Failure::new(1, "--games must be at least 1"));
    }
    if o.threads == Some(0) {
        return Err(Failure::new(1, "--threads must be at least 1"));
    }
    let parts: Vec<(Skirmish, &Path)> = match second {
        Some(b) => {
            let (sa, sb) = crate::frontiers::load_match(file, b)?;
            vec![(sa, file), (sb, b)]
        }
        None => match crate::replay::load_any(file)? {
            sandtable_scenario::Loaded::Frontiers(s) => vec![(s, file)],
            _ => {
                return Err(Failure::new(
                    1,
                    format!(
                        "{}: balance weighs a Frontiers scenario's two factions; this is another system's",
                        path_shown(file)
                    ),
                ));
            }
        },
    };
    let first_seed = o.seed.unwrap_or(parts[0].0.seed());
    let mut limits = Vec::new();
    for (s, f) in &parts {
        crate::replay::check_turn_limit(s, o.turn_limit)?;
        let limit = o
            .turn_limit
            .or(s.turn_limit())
            .unwrap_or(DEFAULT_TURN_LIMIT);
        check(s, f, limit, first_seed)?;
        limits.push(limit);
    }
    let matches = parts.len() == 2;
    let what = if matches { "matches" } else { "games" };
    let total = Mutex::new(Tally::default());
    let (threads, seconds) = run_jobs(u64::from(o.games), o.threads, what, |k| {
        // Deal k / 2, on the ground as set, then turned.
        let seed = first_seed.wrapping_add(k / 2);
        let turned = k % 2 == 1;
        let mut t = Tally::default();
        let mut survived = Vec::new();
        for ((s, _), limit) in parts.iter().zip(&limits) {
            let (g, defence) = one_game(s, turned, seed, *limit, &o);
            t.add(&g);
            survived.push(defence);
        }
        if matches {
            // One match of two games: the side that survived more turns
            // as the defender wins it (R148).
            t.played = 1;
            t.wins = [0; 2];
            t.by_ground = [[0; 2]; 2];
            for &(turns, f) in &survived {
                t.survived[f] += u64::from(turns);
                t.defended[f] += 1;
            }
            let (a, b) = (survived[0], survived[1]);
            let won = match a.0.cmp(&b.0) {
                std::cmp::Ordering::Greater => Some(a.1),
                std::cmp::Ordering::Less => Some(b.1),
                std::cmp::Ordering::Equal => None,
            };
            if let Some(f) = won {
                t.wins[f] += 1;
                t.by_ground[usize::from(turned)][f] += 1;
            }
        }
        total.lock().expect("no panics hold this lock").add(&t);
    });
    let t = total.into_inner().expect("threads are done");
    Ok(report(
        &parts, &limits, first_seed, &o, &t, seconds, threads,
    ))
}

/// The report of `t` (see the module doc).
fn report(
    parts: &[(Skirmish, &Path)],
    limits: &[u32],
    first_seed: u64,
    o: &BalanceOptions,
    t: &Tally,
    seconds: f64,
    threads: usize,
) -> String {
    let matches = parts.len() == 2;
    let what = if matches { "matches" } else { "games" };
    let games_a = if matches { 2 * t.played } else { t.played };
    let per_game = f64::from(games_a.max(1));
    // A Cameron match's mean turns survived as the defender (R148).
    let turns = |f: usize| t.survived[f] as f64 / f64::from(t.defended[f].max(1));
    let mut out = String::new();
    let titles: Vec<String> = parts
        .iter()
        .map(|(s, _)| format!("\"{}\"", s.title()))
        .collect();
    let limits: Vec<String> = limits.iter().map(u32::to_string).collect();
    let _ = writeln!(
        out,
        "balance of {}: {} on both sides, {} {what}, deals from seed {first_seed} each played on the ground as set and again turned half a turn (the sides' zones exchanged, the terrain as it is), turn limit {}",
        titles.join(" and "),
        o.bot,
        t.played,
        limits.join(" and ")
    );
    if o.bot == BotKind::Mcts {
        let _ = writeln!(out, "mcts: {}", o.thinking.describe());
    }
    let _ = writeln!(out, "{:<34} {:>8} {:>8}", "", FACTIONS[0].1, FACTIONS[1].1);
    let drawn = t.played - t.wins[0] - t.wins[1];
    let _ = writeln!(
        out,
        "{:<34} {:>8} {:>8}   drawn {drawn}",
        format!("{what} won"),
        t.wins[0],
        t.wins[1]
    );
    for (g, name) in ["  on the ground as set", "  on the ground turned"]
        .iter()
        .enumerate()
    {
        let _ = writeln!(
            out,
            "{name:<34} {:>8} {:>8}",
            t.by_ground[g][0], t.by_ground[g][1]
        );
    }
    let mean = |x: u64| x as f64 / per_game;
    let _ = writeln!(
        out,
        "{:<34} {:>8.1} {:>8.1}",
        "AP destroyed by it a game (R145)",
        mean(t.ap[0]),
        mean(t.ap[1])
    );
    let _ = writeln!(
        out,
        "{:<34} {:>8.2} {:>8.2}",
        "its units destroyed a game",
        mean(u64::from(t.lost_by[0])),
        mean(u64::from(t.lost_by[1]))
    );
    let victories: Vec<Victory> = parts.iter().map(|(s, _)| s.setup.victory).collect();
    if let Some(name) = goals_named(victories[0]) {
        let _ = writeln!(
            out,
            "{:<34} {:>8.2} {:>8.2}",
            name,
            mean(u64::from(t.goals[0])),
            mean(u64::from(t.goals[1]))
        );
    }
    if matches {
        let _ = writeln!(
            out,
            "{:<34} {:>8.1} {:>8.1}",
            "turns survived as the defender",
            turns(0),
            turns(1)
        );
    }
    let _ = writeln!(out, "turns a game: {:.1}", mean(t.turns));
    for (f, (_, name)) in FACTIONS.iter().enumerate() {
        let prefix = if f == 0 { "lg_" } else { "zr_" };
        let lost: Vec<String> = t
            .lost
            .iter()
            .filter(|(id, _)| id.starts_with(prefix))
            .map(|(id, k)| format!("{id} {:.2}", f64::from(*k) / per_game))
            .collect();
        let _ = writeln!(
            out,
            "{name} units destroyed by type, a game: {}",
            if lost.is_empty() {
                "none".to_owned()
            } else {
                lost.join(", ")
            }
        );
    }
    let _ = writeln!(
        out,
        "{games_a} games in {seconds:.1} s on {threads} thread{}",
        if threads == 1 { "" } else { "s" }
    );
    let mut last = last_line(t, what);
    if matches {
        let _ = write!(
            last,
            "; as the defender {} {:.1} turns, {} {:.1}",
            FACTIONS[0].1,
            turns(0),
            FACTIONS[1].1,
            turns(1)
        );
    }
    out.push_str(&last);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_gives_each_faction_s_share_and_wilson_interval() {
        let t = Tally {
            played: 200,
            wins: [97, 90],
            ..Tally::default()
        };
        assert_eq!(
            last_line(&t, "games"),
            "balance: Legion 48.5% (41.7-55.4) Zirl 45.0% (38.3-51.9) drawn 6.5% over 200 games"
        );
    }
}
