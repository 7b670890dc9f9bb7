//! The battle on the game contract ([`GameState`]): what the CLI, the bots
//! and the table read of any system.

use std::sync::Arc;

use sandtable_core::dice::Dice;
use sandtable_core::game::{
    Applied, Barrier, Decision, Ending, GameState, Legal, Odds, Refusal, Ruling, Seat, Surface,
    Viewer,
};

use crate::command::Command;
use crate::event::Event;
use crate::game::{Game, Outcome, Side};
use crate::play::CommandError;

impl Refusal for CommandError {
    fn ruling(&self) -> Ruling {
        Ruling(self.ruling)
    }
}

fn side(seat: Seat) -> Option<Side> {
    (seat.0 < 2).then_some(Side(seat.0 as u8))
}

impl Game {
    /// Checks and applies a command of `side`, appending its events, and
    /// keeps what undo needs (R31).
    pub fn apply_as(
        &mut self,
        side: Side,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Applied, CommandError> {
        let (rolled, turn_ended) = self.execute(side, command, events)?;
        let barrier = if turn_ended {
            self.set_mark("undo goes back no further than the start of the player turn (R31)");
            Some(Barrier::TurnStart)
        } else if rolled {
            self.set_mark("undo never goes back past a roll of the dice (R31)");
            Some(Barrier::Roll)
        } else {
            self.since_mark.push(*command);
            None
        };
        Ok(Applied { barrier })
    }

    /// Checks and applies a command of the side that decides now.
    pub fn apply(&mut self, command: &Command) -> Result<Vec<Event>, CommandError> {
        let side = self.decider().unwrap_or(self.state.active);
        let mut events = Vec::new();
        self.apply_as(side, command, &mut events)?;
        Ok(events)
    }

    fn set_mark(&mut self, why: &'static str) {
        match Arc::get_mut(&mut self.mark) {
            Some(mark) => mark.clone_from(&self.state),
            None => self.mark = Arc::new(self.state.clone()),
        }
        self.since_mark.clear();
        self.mark_why = why;
    }

    /// Steps back one command within the player turn, never past a roll
    /// (R31), returning it.
    pub fn undo(&mut self) -> Result<Command, String> {
        let Some(undone) = self.since_mark.pop() else {
            return Err(self.mark_why.to_owned());
        };
        let replay = std::mem::take(&mut self.since_mark);
        self.state.clone_from(&self.mark);
        let mut events = Vec::new();
        for command in &replay {
            let side = self.decider().unwrap_or(self.state.active);
            events.clear();
            self.execute(side, command, &mut events)
                .expect("a command of this turn replays as it was first applied");
        }
        self.since_mark = replay;
        Ok(undone)
    }

    /// Replaces the dice with a generator seeded with `seed` (R30), for a
    /// bot's private copy; undo stops here.
    pub fn reseed(&mut self, seed: u64) {
        self.state.dice = Dice::seeded(seed);
        self.set_mark("undo never goes back past a reseed of the dice (R31)");
    }
}

impl GameState for Game {
    type Command = Command;
    type Refusal = CommandError;
    type Event = Event;

    fn system(&self) -> &'static str {
        "Warpspawn"
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &str {
        &self.battle.names[seat.index()]
    }

    fn decision(&self) -> Decision {
        match self.state.ending {
            Some((Outcome::Won(s), _)) => Decision::Over(Ending::Won(Seat(u16::from(s.0)))),
            Some((Outcome::Draw, _)) => Decision::Over(Ending::Draw(
                "the sides have equal victory points (R64, R81)",
            )),
            None => Decision::One(Seat(u16::from(
                self.decider().expect("a battle not over has a decider").0,
            ))),
        }
    }

    fn legal_into(&self, seat: Seat, out: &mut Vec<Legal<Command>>) {
        match side(seat) {
            Some(s) => self.legal_commands_into(s, out),
            None => out.clear(),
        }
    }

    fn listed_as(&self, command: &Command) -> Command {
        Game::listed_as(self, command)
    }

    fn check(&self, seat: Seat, command: &Command) -> Result<(), CommandError> {
        let s = side(seat).ok_or_else(|| CommandError {
            ruling: 64,
            reason: format!("a battle has two sides; there is no seat {}", seat.0),
        })?;
        self.plan(s, command).map(|_| ())
    }

    fn apply_into(
        &mut self,
        seat: Seat,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Applied, CommandError> {
        let s = side(seat).ok_or_else(|| CommandError {
            ruling: 64,
            reason: format!("a battle has two sides; there is no seat {}", seat.0),
        })?;
        self.apply_as(s, command, events)
    }

    fn describe(&self, event: &Event) -> String {
        Game::describe(self, event)
    }

    fn undo(&mut self) -> Result<Command, String> {
        Game::undo(self)
    }

    fn odds(&self, seat: Seat, command: &Command) -> Vec<Odds> {
        side(seat).map_or_else(Vec::new, |s| self.odds_of(s, command))
    }

    fn dice(&self) -> &Dice {
        &self.state.dice
    }

    fn reseed(&mut self, seed: u64) {
        Game::reseed(self, seed);
    }

    fn state_hash(&self) -> u64 {
        Game::state_hash(self)
    }

    /// Game turns: the first player's turn and the other's (R64).
    fn turn(&self) -> u32 {
        self.state.turn
    }

    fn surface(&self) -> Surface {
        Surface::Hexes {
            columns: self.battle.map.columns,
            rows: self.battle.map.rows,
        }
    }

    /// The battle hides nothing from either side: every viewer sees the
    /// referee's summary.
    fn view_json(&self, _viewer: Viewer) -> String {
        serde_json::to_string_pretty(&self.summary()).expect("a summary is plain data")
    }

    fn draw_text(&self, _viewer: Viewer) -> String {
        crate::text::draw(self)
    }

    fn warnings(&self) -> Vec<String> {
        self.battle.warnings.clone()
    }
}
