//! The game in play of any rule system: the contract's game with its undo
//! history, the setup it was started from, its record and log, the hot-seat
//! hand-over and what the system keeps beside it. Commands are played and
//! undone here, through the contract only.

use std::path::PathBuf;

use bevy::prelude::*;
use sandtable_core::game::{GameState, Seat, next_seat};
use sandtable_core::undo::Undoable;

use super::{LogLine, Notice, ScenarioSource, Seats, StartTurn};

/// A rule system on the table: its game, the setup its games start from,
/// and what the table keeps beside a game of it.
pub trait TableSystem: Sized + Send + Sync + 'static {
    /// The system's name on the table ([`super::open::OnTable`]).
    const KEY: &'static str;
    /// The system's game, through the contract, which its bots play.
    type Game: sandtable_bots::Plays;
    /// What a game starts from: a scenario, a battle.
    type Setup: Clone + Send + Sync + 'static;
    /// What the table keeps beside the game: the last dice rolled, the
    /// seats, the dice typed in.
    type Extra: Clone + Send + Sync + 'static;

    /// What a command played leaves beside the game, past the record and
    /// the log: `dice` are the game's dice before it, `events` what it
    /// caused. Nothing by default.
    fn after_play(
        active: &mut ActiveGame<Self>,
        seat: Seat,
        dice: &sandtable_core::dice::Dice,
        events: &[<Self::Game as GameState>::Event],
    ) {
        let _ = (active, seat, dice, events);
    }

    /// The seat the table is handed to after `seat` played and caused
    /// `events` (hot-seat), if it is handed over.
    fn hand_over(
        active: &ActiveGame<Self>,
        seat: Seat,
        events: &[<Self::Game as GameState>::Event],
    ) -> Option<Seat>;

    /// The message that plays a bot's command through the system's own
    /// flow ([`super::bots`]).
    type BotRequest: Message;

    /// The request that plays a bot's `command`.
    fn bot_request(command: <Self::Game as GameState>::Command) -> Self::BotRequest;

    /// The seed a bot's own choices are drawn from, with its seat mixed in
    /// ([`super::bots::bot_command`]).
    fn bot_seed(active: &ActiveGame<Self>) -> u64;

    /// Says that a game of the system was put on the table (its message
    /// that the table is built anew).
    fn loaded(world: &mut World);

    /// Takes what the table keeps for the system's game, besides the game,
    /// off the table when another system's game comes. Nothing by default.
    fn left(world: &mut World) {
        let _ = world;
    }

    /// Whether layout mode stays on when another game of the system is
    /// opened in it (it edits the new one); by default layout mode ends.
    fn keeps_layout_on_open() -> bool {
        false
    }

    /// Whether a hand-over to `next` waits for a person to take the table,
    /// with these seats: by default when a person sits there (a bot takes
    /// its turn at once).
    fn waits_for(seats: &Seats, next: Seat) -> bool {
        seats.of(usize::from(next.0)) == super::Seat::Person
    }
}

/// A command of a system's game.
pub type CommandOf<S> = <<S as TableSystem>::Game as GameState>::Command;

/// The game in play of the system `S`: the contract's game, its setup and
/// its history.
#[derive(Resource)]
pub struct ActiveGame<S: TableSystem> {
    /// The game with its undo history (R31); changed only through
    /// [`ActiveGame::play`] and undo.
    pub game: Undoable<S::Game>,
    /// The setup it was started from.
    pub setup: S::Setup,
    /// Where that setup came from, for saved games.
    pub source: ScenarioSource,
    /// Every command played since the start, in the move notation.
    pub record: Vec<CommandOf<S>>,
    /// The log shown in the panel: commands and what they caused.
    pub log: Vec<LogLine>,
    /// The seat the table is being handed to, until it confirms (hot-seat).
    pub handover: Option<Seat>,
    /// Grows by one at every change of the game, so that the table follows.
    pub revision: u64,
    /// A number no other game of this run has, so that work begun for one
    /// game (a bot's thought, a hint) is never applied to another.
    pub id: u64,
    /// The game's own record file, where Save writes: the file it was
    /// opened from or last saved to; `None` until it has one.
    pub file: Option<PathBuf>,
    /// The commands that file holds, to tell whether moves are unsaved.
    pub saved: Vec<CommandOf<S>>,
    /// What the system keeps beside the game.
    pub extra: S::Extra,
}

impl<S: TableSystem> Clone for ActiveGame<S> {
    fn clone(&self) -> Self {
        ActiveGame {
            game: self.game.clone(),
            setup: self.setup.clone(),
            source: self.source.clone(),
            record: self.record.clone(),
            log: self.log.clone(),
            handover: self.handover,
            revision: self.revision,
            id: self.id,
            file: self.file.clone(),
            saved: self.saved.clone(),
            extra: self.extra.clone(),
        }
    }
}

impl<S: TableSystem> ActiveGame<S> {
    /// A game just started: nothing played, no file of its own, handed to
    /// the seat that decides first.
    pub fn started(
        game: S::Game,
        setup: S::Setup,
        source: ScenarioSource,
        extra: S::Extra,
    ) -> Self {
        let first = next_seat(&game);
        ActiveGame {
            game: Undoable::new(game),
            setup,
            source,
            record: Vec::new(),
            log: Vec::new(),
            handover: first,
            revision: 0,
            id: super::next_game_id(),
            file: None,
            saved: Vec::new(),
            extra,
        }
    }

    /// Whether leaving the game now would lose work: moves played (or
    /// undone) since it was last saved or opened, or a setup that has no
    /// file of its own.
    pub fn has_unsaved_work(&self) -> bool {
        self.record != self.saved || self.source == ScenarioSource::Unsaved
    }

    /// Plays a command of the seat that decides now through the contract,
    /// keeping the record, the log, what the system keeps beside it and the
    /// hand-over; a refused command changes nothing and says why, with its
    /// ruling. Returns what it caused.
    pub fn play(
        &mut self,
        command: CommandOf<S>,
    ) -> Result<Vec<<S::Game as GameState>::Event>, String> {
        // Over, no seat decides: the rules say why nothing is played.
        let seat = next_seat(self.game.game()).unwrap_or(Seat(0));
        let dice = self.game.game().dice().clone();
        let events = self.game.apply(seat, &command).map_err(|e| e.to_string())?;
        self.record.push(command);
        self.log.push(LogLine {
            text: command.to_string(),
            command: true,
        });
        for event in &events {
            if self.game.logged(event) {
                self.log.push(LogLine {
                    text: self.game.describe(event),
                    command: false,
                });
            }
        }
        S::after_play(self, seat, &dice, &events);
        if let Some(next) = S::hand_over(self, seat, &events) {
            self.handover = Some(next);
        }
        self.revision += 1;
        Ok(events)
    }

    /// Drops a hand-over that nobody needs to take with these seats
    /// ([`TableSystem::waits_for`]).
    pub fn settle_handover(&mut self, seats: &Seats) {
        if self.handover.is_some_and(|next| !S::waits_for(seats, next)) {
            self.handover = None;
        }
    }

    /// Undo (R31): one command back, taken off the record and logged as
    /// `undo ...`; the notice says what was undone or, in the system's
    /// words, why undo stops. Whether it undid.
    pub fn undo(&mut self, notice: &mut Notice) -> bool {
        let undid = super::undo_one(&mut self.game, &mut self.record, &mut self.log, notice);
        if undid {
            self.revision += 1;
        }
        undid
    }
}

/// A hand-over to a seat nobody needs to take (a bot's) is dropped at once.
pub fn settle_handover<S: TableSystem>(
    mut active: Option<ResMut<ActiveGame<S>>>,
    seats: Res<Seats>,
) {
    if let Some(active) = active.as_deref_mut() {
        active.settle_handover(&seats);
    }
}

/// The hand-over is confirmed: the seat it was made to plays now.
pub fn start_turn<S: TableSystem>(
    mut requests: MessageReader<StartTurn>,
    mut active: Option<ResMut<ActiveGame<S>>>,
) {
    if requests.read().count() > 0
        && let Some(active) = active.as_deref_mut()
    {
        active.handover = None;
    }
}
