//! The front door of the Warpspawn battle: a loaded battle starts its games,
//! random, greedy and mcts seats play it (`sandtable_bots::warpspawn`), and `simulate`
//! counts its melee results, fates, routs, rallies, captures and victory
//! points.

use std::fmt::Write as _;

use sandtable_core::dice::Dice;
use sandtable_core::game::Seat;
use sandtable_core::record::Record;
use sandtable_scenario::battle::Battle;
use sandtable_scenario::records;
use sandtable_warpspawn::{Command, Event, Fate, Game, MAX_TURNS};

use crate::{Front, Tallies};

const MELEE: &str = "melee: ";
const FATE: &str = "fate: ";
const VP: &str = "vp: ";

impl Front for Battle {
    type Game = Game;

    fn title(&self) -> &str {
        &self.name
    }

    fn seat_names(&self) -> Vec<String> {
        self.setup.sides.iter().map(|s| s.name.clone()).collect()
    }

    fn seed(&self) -> u64 {
        self.setup.seed
    }

    /// A battle lasts its `turns` game turns (R64).
    fn turn_limit(&self) -> Option<u32> {
        Some(self.setup.turns)
    }

    /// A battle lasts 1 to [`MAX_TURNS`] game turns (R64).
    fn check_turn_limit(&self, limit: u32) -> Result<(), String> {
        if (1..=MAX_TURNS).contains(&limit) {
            Ok(())
        } else {
            Err(format!(
                "--turn-limit {limit}: a battle lasts 1 to {MAX_TURNS} game turns (R64)"
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

    fn check_pins(&self, record: &Record<Command>) -> Vec<String> {
        records::check_pins_of(record, &self.name, &self.content_hash())
    }

    fn decide(
        &self,
        game: &Game,
        seat: Seat,
        bot: &sandtable_bots::BotConfig,
    ) -> Option<(Command, u64)> {
        sandtable_bots::decide(game, seat, bot).map(|d| (d.command, d.playouts))
    }

    fn as_greedy(&self, game: &Game, seat: Seat, command: &Command) -> Option<bool> {
        sandtable_bots::Plays::as_greedy(game, seat, command)
    }

    fn tally(&self, event: &Event, tallies: &mut Tallies) {
        let mut add = |key: String, n: u64| *tallies.entry(key).or_default() += n;
        match event {
            Event::Attacked { result, .. } => add(format!("{MELEE}{result:?}"), 1),
            Event::FateRolled { fate, .. } => add(format!("{FATE}{}", fate.name()), 1),
            Event::RoutMoved { .. } => add("rout moves".to_owned(), 1),
            Event::Routed { .. } => add("formations routed".to_owned(), 1),
            Event::Panicked { .. } => add("panics".to_owned(), 1),
            Event::Rallied { .. } => add("rallies".to_owned(), 1),
            Event::FledOn { .. } => add("routers fled on".to_owned(), 1),
            Event::Captured {
                cannon,
                baggage,
                flags,
                band,
                ..
            } => {
                add("captures: men".to_owned(), u64::from(band.men.total()));
                add("captures: officers".to_owned(), u64::from(band.officers));
                add("captures: cannon".to_owned(), u64::from(*cannon));
                add("captures: baggage".to_owned(), u64::from(*baggage));
                add("captures: flags".to_owned(), u64::from(*flags));
            }
            Event::Surrendered { band, .. } => {
                add("captures: men".to_owned(), u64::from(band.men.total()));
                add("captures: officers".to_owned(), u64::from(band.officers));
            }
            Event::Killed { band, .. } => add("men killed".to_owned(), u64::from(band.men.total())),
            Event::Ended { vp, .. } => {
                for (side, points) in self.setup.sides.iter().zip(vp) {
                    add(format!("{VP}{}", side.name), u64::from(*points));
                }
            }
            _ => {}
        }
    }

    /// Melee results (R74, R75) and the losers' fates (R76), routs and
    /// rallies (R79, R80), captures, and victory points a game (R81).
    fn report(&self, tallies: &Tallies, games: u64) -> String {
        let count = |key: &str| tallies.get(key).copied().unwrap_or(0);
        let mut out = String::new();
        let melees: u64 = tallies
            .iter()
            .filter(|(k, _)| k.starts_with(MELEE))
            .map(|(_, n)| n)
            .sum();
        let _ = write!(out, "melees: {melees}");
        for result in ["V", "H", "L", "B", "A", "D"] {
            let _ = write!(out, ", {result} {}", count(&format!("{MELEE}{result}")));
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "fates: {}",
            [Fate::Surrender, Fate::Rout, Fate::Slaughter]
                .iter()
                .map(|f| format!("{} {}", f.name(), count(&format!("{FATE}{}", f.name()))))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(
            out,
            "routs: {} formations routed, {} panics, {} rout moves; rallies: {} rallied, {} fled on",
            count("formations routed"),
            count("panics"),
            count("rout moves"),
            count("rallies"),
            count("routers fled on")
        );
        let _ = writeln!(
            out,
            "captures: {} men, {} officers, {} cannon, {} baggage, {} flags; men killed: {}",
            count("captures: men"),
            count("captures: officers"),
            count("captures: cannon"),
            count("captures: baggage"),
            count("captures: flags"),
            count("men killed")
        );
        let vp: Vec<String> = self
            .setup
            .sides
            .iter()
            .map(|s| {
                format!(
                    "{} {:.1}",
                    s.name,
                    count(&format!("{VP}{}", s.name)) as f64 / games as f64
                )
            })
            .collect();
        let _ = writeln!(out, "victory points a game: {}", vp.join(", "));
        out
    }
}
