//! The front door of a Frontiers skirmish: a loaded skirmish starts its
//! games, random, greedy and mcts seats play it
//! (`sandtable_bots::frontiers`), and `simulate` counts its moves, shots,
//! steps and units destroyed.

use std::fmt::Write as _;

use sandtable_core::dice::Dice;
use sandtable_core::game::{Seat, Viewer};
use sandtable_core::record::Record;
use sandtable_frontiers::attack::Outcome;
use sandtable_frontiers::event::Struck;
use sandtable_frontiers::setup::MAX_TURNS;
use sandtable_frontiers::{Command, Event, Game};
use sandtable_scenario::records;
use sandtable_scenario::skirmish::Skirmish;

use crate::{Front, Tallies};

const AP: &str = "ap destroyed: ";

impl Front for Skirmish {
    type Game = Game;

    fn rules(&self) -> &'static str {
        "frontiers"
    }

    fn title(&self) -> &str {
        &self.name
    }

    fn seat_names(&self) -> Vec<String> {
        self.setup.sides.iter().map(|s| s.name.clone()).collect()
    }

    fn seed(&self) -> u64 {
        self.setup.seed
    }

    /// A skirmish lasts its `turns` game turns (R145).
    fn turn_limit(&self) -> Option<u32> {
        Some(self.setup.turns)
    }

    fn check_turn_limit(&self, limit: u32) -> Result<(), String> {
        if (1..=MAX_TURNS).contains(&limit) {
            Ok(())
        } else {
            Err(format!(
                "--turn-limit {limit}: a skirmish lasts 1 to {MAX_TURNS} game turns (R145)"
            ))
        }
    }

    fn start(&self, seed: u64, turn_limit: Option<u32>, dice: Dice) -> Result<Game, String> {
        let mut setup = self.setup.clone();
        setup.seed = seed;
        if let Some(turns) = turn_limit {
            setup.turns = turns;
        }
        Game::new(&setup, dice).map_err(|e| e.to_string())
    }

    fn pins(&self) -> Vec<(String, String)> {
        records::pins_of(&self.content_hash())
    }

    fn scenario_for(&self, masked: &Game) -> String {
        let mut skirmish = self.clone();
        skirmish.setup = masked.setup().clone();
        skirmish.setup.seed = 0;
        skirmish.to_ron()
    }

    fn check_pins(&self, record: &Record<Command>) -> Vec<String> {
        records::check_pins_of(record, &self.name, &self.content_hash())
    }

    fn decide(
        &self,
        game: &Game,
        seat: Seat,
        bot: &sandtable_bots::BotConfig,
    ) -> Option<sandtable_bots::Decision<Command>> {
        sandtable_bots::decide(game, seat, bot)
    }

    fn perft_note(&self) -> Option<&'static str> {
        Some(
            "these count families, one a unit and action (`move T3`, `shoot G1 C4`), each by its listed command: a move's end points on the open table are drawn, not listed",
        )
    }

    fn draw_at_scale(&self, game: &Game, viewer: Viewer, cell_mm: u16) -> Option<String> {
        let viewer = sandtable_frontiers::viewer_side(viewer);
        Some(sandtable_frontiers::text::draw(game, cell_mm, viewer))
    }

    fn tally(&self, event: &Event, tallies: &mut Tallies) {
        let mut add = |key: &str, n: u64| *tallies.entry(key.to_owned()).or_default() += n;
        match event {
            Event::Moved { from, to, .. } if from != to => add("moves", 1),
            Event::Moved { .. } => add("stays", 1),
            Event::Sighted { .. } => add("shots", 1),
            Event::Attacked {
                struck, outcome, ..
            } => {
                add("attacks", 1);
                if matches!(struck, Struck::Element(_)) {
                    add("attacks on buildings", 1);
                }
                match outcome {
                    Outcome::Miss => add("misses", 1),
                    Outcome::Step => add("steps", 1),
                    Outcome::Double => add("doubles", 1),
                }
            }
            Event::Sniped { .. } => add("sniper shots", 1),
            Event::Template { .. } => add("templates", 1),
            Event::Scattered { .. } => add("drops", 1),
            Event::Smoked { .. } => add("clouds", 1),
            Event::Destroyed { .. } => add("units destroyed", 1),
            Event::Ruined { .. } => add("buildings ruined", 1),
            Event::CardPlayed { card, .. } => {
                add("cards played", 1);
                add(
                    &format!("card {}", sandtable_frontiers::cards::card_id(*card)),
                    1,
                );
            }
            Event::Covered { .. } => add("steps covered", 1),
            Event::CrateOpened { content, .. } => {
                add("crates opened", 1);
                if *content == sandtable_frontiers::crates::Content::Trap {
                    add("traps", 1);
                }
            }
            Event::Banked { .. } => add("crates banked", 1),
            Event::Ended { ap, .. } => {
                for (side, points) in self.setup.sides.iter().zip(ap) {
                    add(&format!("{AP}{}", side.name), u64::from(*points));
                }
            }
            _ => {}
        }
    }

    /// Moves, shots and their results (R113, R120-R129), and AP destroyed
    /// a game (R145).
    fn report(&self, tallies: &Tallies, games: u64) -> String {
        let count = |key: &str| tallies.get(key).copied().unwrap_or(0);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "moves: {} moved, {} stayed; shots: {} aimed, {} by snipers, {} templates ({} drops), {} clouds",
            count("moves"),
            count("stays"),
            count("shots"),
            count("sniper shots"),
            count("templates"),
            count("drops"),
            count("clouds"),
        );
        let _ = writeln!(
            out,
            "attacks: {} ({} on buildings): {} missed, {} steps, {} doubles; {} units destroyed, {} buildings ruined",
            count("attacks"),
            count("attacks on buildings"),
            count("misses"),
            count("steps"),
            count("doubles"),
            count("units destroyed"),
            count("buildings ruined"),
        );
        let ap: Vec<String> = self
            .setup
            .sides
            .iter()
            .map(|s| {
                format!(
                    "{} {:.1}",
                    s.name,
                    count(&format!("{AP}{}", s.name)) as f64 / games as f64
                )
            })
            .collect();
        let _ = writeln!(out, "AP destroyed a game: {}", ap.join(", "));
        let each: Vec<String> = sandtable_frontiers::data::CARDS
            .iter()
            .map(|c| format!("{} {}", c.id, count(&format!("card {}", c.id))))
            .collect();
        let _ = writeln!(
            out,
            "cards played: {} ({}); steps covered: {}",
            count("cards played"),
            each.join(", "),
            count("steps covered"),
        );
        if count("crates opened") > 0 {
            let _ = writeln!(
                out,
                "crates: {} opened ({} traps), {} banked",
                count("crates opened"),
                count("traps"),
                count("crates banked"),
            );
        }
        out
    }
}

/// `simulate A B`: a Cameron match (R148), two games a seed with the roles
/// swapped, each scenario's games reported as `simulate` reports them,
/// then the match: the side that survived more turns as the defender wins
/// it (a defender destroyed in turn t survived t - 1; one standing after
/// the last turn survived them all), equal turns drawn.
pub fn simulate_match(
    a: &std::path::Path,
    b: &std::path::Path,
    games: u32,
    seed: Option<u64>,
    turn_limit: Option<u32>,
) -> Result<String, crate::Failure> {
    let (sa, sb) = load_match(a, b)?;
    let (out_a, ends_a) = crate::simulate::run_with_ends(&sa, a, games, seed, turn_limit, None)?;
    let (out_b, ends_b) = crate::simulate::run_with_ends(&sb, b, games, seed, turn_limit, None)?;
    let survived = |s: &Skirmish, (_, turns, winner): &crate::simulate::End| -> u32 {
        survived(s, *turns, *winner)
    };
    let (da, db) = (1 - sa.setup.attacker, 1 - sb.setup.attacker);
    let side = |k: u8| sa.setup.sides[usize::from(k)].name.clone();
    let mut wins = [0u32; 2];
    let mut drawn = 0;
    let (mut total_a, mut total_b) = (0u64, 0u64);
    for (ea, eb) in ends_a.iter().zip(&ends_b) {
        let (ta, tb) = (survived(&sa, ea), survived(&sb, eb));
        total_a += u64::from(ta);
        total_b += u64::from(tb);
        match ta.cmp(&tb) {
            std::cmp::Ordering::Greater => wins[usize::from(da)] += 1,
            std::cmp::Ordering::Less => wins[usize::from(db)] += 1,
            std::cmp::Ordering::Equal => drawn += 1,
        }
    }
    let n = f64::from(games.max(1));
    let mut out = format!("{out_a}{out_b}");
    let _ = writeln!(
        out,
        "match (R148), {games} of two games: {} survived {:.1} turns as the defender, {} {:.1}; matches won: {} {}, {} {}; drawn {drawn}",
        side(da),
        total_a as f64 / n,
        side(db),
        total_b as f64 / n,
        side(0),
        wins[0],
        side(1),
        wins[1],
    );
    Ok(out)
}

/// The two games of a Cameron match (R148), checked: both Cameron, the
/// same sides, each attacking in one.
pub(crate) fn load_match(
    a: &std::path::Path,
    b: &std::path::Path,
) -> Result<(Skirmish, Skirmish), crate::Failure> {
    use sandtable_frontiers::setup::Victory;
    let load = |p: &std::path::Path| match crate::replay::load_any(p)? {
        sandtable_scenario::Loaded::Frontiers(s) if s.setup.victory == Victory::Cameron => Ok(s),
        _ => Err(crate::Failure::new(
            1,
            format!(
                "{}: a match is two Frontiers scenarios of Cameron (`victory: Cameron`), the roles swapped (R148)",
                sandtable_core::text::path_shown(p)
            ),
        )),
    };
    let (sa, sb) = (load(a)?, load(b)?);
    let names = |s: &Skirmish| {
        s.setup
            .sides
            .iter()
            .map(|x| x.name.clone())
            .collect::<Vec<_>>()
    };
    if names(&sa) != names(&sb) || sa.setup.attacker == sb.setup.attacker {
        return Err(crate::Failure::new(
            1,
            "a match's two games have the same sides with the roles swapped: each side attacks in one (R148)",
        ));
    }
    Ok((sa, sb))
}

/// The turns a Cameron game's defender survived (R148): a defender
/// destroyed in turn t survived t - 1; one standing after the last turn
/// survived them all.
pub(crate) fn survived(
    s: &Skirmish,
    turns: u32,
    winner: Option<sandtable_core::game::Seat>,
) -> u32 {
    let defender = 1 - s.setup.attacker;
    match winner {
        Some(w) if w.0 == u16::from(defender) => turns,
        Some(_) => turns.saturating_sub(1),
        None => turns,
    }
}

/// `tournament A B`: a Cameron match (R148) for each deal and pairing,
/// each bot keeping its side in both games, the roles swapped between
/// them; the bot whose side survived more turns as the defender wins the
/// match, equal turns draw it. Each deal is played twice, the first bot
/// on each side in turn.
pub fn tournament_match(
    a: &std::path::Path,
    b: &std::path::Path,
    bots: &[sandtable_bots::BotKind],
    o: crate::bots::TournamentOptions,
) -> Result<String, crate::Failure> {
    use crate::Front;
    use sandtable_core::dice::Dice;
    let (sa, sb) = load_match(a, b)?;
    crate::replay::check_turn_limit(&sa, o.turn_limit)?;
    crate::replay::check_turn_limit(&sb, o.turn_limit)?;
    let limit = |s: &Skirmish| {
        o.turn_limit
            .or(s.turn_limit())
            .unwrap_or(crate::bots::DEFAULT_TURN_LIMIT)
    };
    let (la, lb) = (limit(&sa), limit(&sb));
    let first_seed = o.seed.unwrap_or(sa.seed());
    let head = format!(
        "tournament of Cameron matches (R148) on \"{}\" and \"{}\": {} matches a pairing, deals from seed {first_seed} each played from both sides, turn limits {la} and {lb}; a match is won by the side that survived more turns as the defender, its turns both games'",
        sa.title(),
        sb.title(),
        o.games
    );
    let thinking = &o.thinking;
    let words = crate::bots::Words {
        played: "matches",
        draw: "a draw is a match of equal turns survived (R148)",
    };
    crate::bots::run_tournament(bots, &o, first_seed, head, words, |seed, kinds| {
        let game = |s: &Skirmish, limit: u32| {
            let g = s
                .start(seed, Some(limit), Dice::seeded(seed))
                .expect("a loaded scenario is valid with any seed");
            let configs = [0, 1].map(|seat| {
                thinking.config(kinds[seat], seed.wrapping_mul(2).wrapping_add(seat as u64))
            });
            let (winner, played) = crate::bots::play_game(s, g, configs);
            (survived(s, played.turns, winner), played)
        };
        let (ta, pa) = game(&sa, la);
        let (tb, pb) = game(&sb, lb);
        let (da, db) = (1 - sa.setup.attacker, 1 - sb.setup.attacker);
        let winner = match ta.cmp(&tb) {
            std::cmp::Ordering::Greater => Some(sandtable_core::game::Seat(u16::from(da))),
            std::cmp::Ordering::Less => Some(sandtable_core::game::Seat(u16::from(db))),
            std::cmp::Ordering::Equal => None,
        };
        (winner, pa.and(pb))
    })
}
