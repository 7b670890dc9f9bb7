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
use sandtable_warpspawn::offboard::event::RingEvent;
use sandtable_warpspawn::offboard::fight::{Outcome as FightOutcome, Party};
use sandtable_warpspawn::{Command, Event, Fate, Game, MAX_TURNS};

use crate::{Front, Tallies};

const MELEE: &str = "melee: ";
const FATE: &str = "fate: ";
const VP: &str = "vp: ";

impl Front for Battle {
    type Game = Game;

    fn rules(&self) -> &'static str {
        "warpspawn"
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

    fn scenario_for(&self, masked: &Game) -> String {
        let mut battle = self.clone();
        battle.setup = masked.battle().setup.clone();
        battle.setup.seed = 0;
        battle.to_ron()
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
            Event::Ring(ring) => tally_ring(ring, &mut add),
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
        if self.setup.offboard.is_some() {
            let fights = count(RING_FIGHTS);
            let defended = count(RING_DEFENDED);
            let _ = writeln!(
                out,
                "off-board grid (R47-R56): {fights} fights ({:.2} a game), {} won by the defender of {defended} with one ({}), {} standoffs; {} scouts revealed; {} shots at counters; {} entries, {} marches off",
                fights as f64 / games as f64,
                count(RING_DEFENDER_WINS),
                percent(count(RING_DEFENDER_WINS), defended),
                count(RING_STANDOFFS),
                count(RING_SCOUTS),
                count(RING_SHOTS),
                count(RING_ENTRIES),
                count(RING_MARCHES_OFF),
            );
        }
        out
    }
}

const RING_FIGHTS: &str = "ring: fights";
const RING_DEFENDED: &str = "ring: fights with a defender";
const RING_DEFENDER_WINS: &str = "ring: defender wins";
const RING_STANDOFFS: &str = "ring: standoffs";
const RING_SCOUTS: &str = "ring: scouts";
const RING_SHOTS: &str = "ring: shots";
const RING_ENTRIES: &str = "ring: entries";
const RING_MARCHES_OFF: &str = "ring: marches off";

/// `part` of `whole` as a percentage, or a dash of nothing.
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_owned()
    } else {
        format!("{:.0}%", part as f64 * 100.0 / whole as f64)
    }
}

/// What the ring did, counted for `simulate` (R47-R56).
fn tally_ring(event: &RingEvent, add: &mut impl FnMut(String, u64)) {
    match event {
        RingEvent::Fought {
            defender, outcome, ..
        } => {
            add(RING_FIGHTS.to_owned(), 1);
            if let Some(d) = defender {
                add(RING_DEFENDED.to_owned(), 1);
                let won = matches!(
                    (outcome, d),
                    (FightOutcome::Won(Party::A), 0) | (FightOutcome::Won(Party::B), 1)
                );
                add(RING_DEFENDER_WINS.to_owned(), u64::from(won));
            }
            add(
                RING_STANDOFFS.to_owned(),
                u64::from(*outcome == FightOutcome::Standoff),
            );
        }
        RingEvent::ForcesRevealed { forces, .. } => add(
            RING_SCOUTS.to_owned(),
            forces.iter().filter(|(_, _, scout)| *scout).count() as u64,
        ),
        RingEvent::ShotAt { .. } => add(RING_SHOTS.to_owned(), 1),
        RingEvent::Entered { .. } => add(RING_ENTRIES.to_owned(), 1),
        RingEvent::MarchedOff { .. } => add(RING_MARCHES_OFF.to_owned(), 1),
        _ => {}
    }
}
