//! The front door of Conflict at Cache and The Snyder Skirmish: a loaded
//! scenario starts their games, their own bots play them, and `simulate`
//! counts their captures and stash results.

use std::fmt::Write as _;

use sandtable_cache::{Event, Game, MAX_TURN_LIMIT};
use sandtable_core::dice::Dice;
use sandtable_core::game::Seat;
use sandtable_core::record::Record;
use sandtable_scenario::{Scenario, records};

use crate::{Front, Tallies};

const UNITS: &str = "captures: units";
const BASES: &str = "captures: bases";
const STASH: &str = "stash: ";

impl Front for Scenario {
    type Game = Game;

    fn rules(&self) -> &'static str {
        "cache"
    }

    fn title(&self) -> &str {
        &self.name
    }

    fn seat_names(&self) -> Vec<String> {
        self.setup.players.iter().map(|p| p.name.clone()).collect()
    }

    fn seed(&self) -> u64 {
        self.setup.seed
    }

    fn turn_limit(&self) -> Option<u32> {
        self.setup.turn_limit
    }

    /// A turn limit is 1 to [`MAX_TURN_LIMIT`] player turns (R11).
    fn check_turn_limit(&self, limit: u32) -> Result<(), String> {
        if (1..=MAX_TURN_LIMIT).contains(&limit) {
            Ok(())
        } else {
            Err(format!(
                "--turn-limit {limit}: a turn limit is 1 to {MAX_TURN_LIMIT} turns (R11)"
            ))
        }
    }

    fn start(&self, seed: u64, turn_limit: Option<u32>, dice: Dice) -> Result<Game, String> {
        let mut setup = self.setup.clone();
        setup.seed = seed;
        setup.turn_limit = turn_limit;
        Game::with_dice(&setup, dice).map_err(|e| e.to_string())
    }

    fn pins(&self) -> Vec<(String, String)> {
        records::pins(self)
    }

    /// Cache hides nothing: the scenario, without its seed.
    fn scenario_for(&self, _masked: &Game) -> String {
        let mut scenario = self.clone();
        scenario.setup.seed = 0;
        scenario.to_ron()
    }

    fn check_pins(&self, record: &Record<sandtable_cache::Command>) -> Vec<String> {
        records::check_pins(record, self)
    }

    fn decide(
        &self,
        game: &Game,
        seat: Seat,
        bot: &sandtable_bots::BotConfig,
    ) -> Option<sandtable_bots::Decision<sandtable_cache::Command>> {
        sandtable_bots::decide(game, seat, bot)
    }

    fn tally(&self, event: &Event, tallies: &mut Tallies) {
        let key = match event {
            Event::Captured { .. } => UNITS.to_owned(),
            Event::BaseCaptured { .. } => BASES.to_owned(),
            Event::StashRolled { result, .. } => format!("{STASH}{result}"),
            _ => return,
        };
        *tallies.entry(key).or_default() += 1;
    }

    /// Captures of units and bases (R9, R10), then each stash result rolled
    /// (R21).
    fn report(&self, tallies: &Tallies, games: u64) -> String {
        let count = |key: &str| tallies.get(key).copied().unwrap_or(0);
        let (units, bases) = (count(UNITS), count(BASES));
        let mut out = format!(
            "captures: {units} units and {bases} bases ({:.1} units a game)\n",
            units as f64 / games as f64
        );
        let stashes: Vec<(&str, u64)> = tallies
            .iter()
            .filter_map(|(k, n)| Some((k.strip_prefix(STASH)?, *n)))
            .collect();
        if !stashes.is_empty() {
            let rolled: u64 = stashes.iter().map(|(_, n)| n).sum();
            let _ = writeln!(out, "stashes discovered: {rolled}");
            for (kind, n) in stashes {
                let _ = writeln!(out, "  {n:>6}  {kind}");
            }
        }
        out
    }
}
