//! Real dice at the table, for every rule system (R30): two people may roll
//! real dice beside the table and type each roll in before they play, in
//! place of the game's generator. The game holds them as the contract's
//! scripted dice, one command's rolls at a time. Every die a game rolls,
//! by the generator or typed in, is kept in order ([`DiceBook::rolled`]):
//! a game that had real dice is saved with all of them (`[Dice]`) and
//! replays roll for roll, since every random result of every system is a
//! run of dice ([`sandtable_core::dice::Dice::draw`]).

use bevy::prelude::*;
use sandtable_core::dice::{Dice, parse_rolls, write_rolls};
use sandtable_core::game::{GameState, Refusal, next_seat};
use sandtable_core::record::header;

use super::game::{ActiveGame, CommandOf, TableSystem};
use super::{LogLine, Seats};

/// What the table keeps of a game's dice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiceBook {
    /// Whether the dice are real dice rolled beside the table and typed
    /// in, rather than the generator.
    pub real: bool,
    /// Every roll of real dice typed in, oldest first.
    pub typed: Vec<u8>,
    /// Every die rolled in the game, by the generator or typed in, oldest
    /// first, the start's own rolls included (a first player drawn, a
    /// deck shuffled).
    pub rolled: Vec<u8>,
    /// Whether the game was replayed from a record of every roll (its
    /// `[Dice]`): the seed alone does not replay it, whoever rolls now.
    pub replayed: bool,
}

impl DiceBook {
    /// Whether a save keeps every roll (`[Dice]`): once real dice were
    /// used, the seed alone no longer replays the game.
    pub fn kept(&self) -> bool {
        self.real || self.replayed || !self.typed.is_empty()
    }

    /// The `[Dice]` header's value of a save, when it has one.
    pub fn header(&self) -> Option<String> {
        self.kept().then(|| write_rolls(&self.rolled))
    }

    /// The headers a save writes of the dice: every roll (`[Dice]`), and
    /// what rolls after them (`[DiceAfter]`: real dice, or the generator
    /// for a game that went on with it, a branch of a review say), once
    /// the seed alone no longer replays the game.
    pub fn headers(&self) -> Vec<(String, String)> {
        let Some(rolls) = self.header() else {
            return Vec::new();
        };
        vec![
            (header::DICE.to_owned(), rolls),
            (
                header::DICE_AFTER.to_owned(),
                if self.real { REAL } else { GENERATOR }.to_owned(),
            ),
        ]
    }
}

/// `[DiceAfter]`'s word for real dice.
pub const REAL: &str = "real";
/// `[DiceAfter]`'s word for the generator.
pub const GENERATOR: &str = "generator";

/// Whether a record's game goes on with real dice after its list of
/// rolls: unless its `[DiceAfter]` says the generator (a record written
/// before that header said nothing, and only real dice wrote a list).
pub fn real_after<C>(record: &sandtable_core::record::Record<C>) -> bool {
    record.header(header::DICE_AFTER) != Some(GENERATOR)
}

/// The rolls of real dice typed in the panel for the next command, as `4`
/// or `4 2` (R30).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct TypedRolls(pub String);

impl<S: TableSystem> ActiveGame<S> {
    /// Takes the dice the game was started with, for the rolls its start
    /// made (a first player drawn, a deck shuffled): the first of
    /// [`DiceBook::rolled`].
    pub fn rolled_from(mut self, before: &Dice) -> Self {
        self.dice.rolled = GameState::dice(self.game.game()).rolls_since(before);
        self
    }

    /// Turns real dice on or off (R30): on, every roll is typed in from
    /// dice rolled beside the table; off, the generator rolls again, from
    /// a stream of its own. Undo stops here, as at a roll (R31). A bot
    /// cannot read real dice, so a game with a bot keeps the generator.
    pub fn use_real_dice(&mut self, on: bool, seats: &Seats, seed: u64) -> Result<String, String> {
        if on == self.dice.real {
            return Ok("nothing changed".to_owned());
        }
        if self.reviewing.is_some() {
            return Err(super::game::IN_REVIEW.to_owned());
        }
        let players = GameState::seats(self.game.game());
        if on && (0..players).any(|k| seats.of(k) != super::Seat::Person) {
            return Err(
                "real dice are for games of people only: a bot's rolls come from the generator (R30)"
                    .to_owned(),
            );
        }
        if on {
            self.game.set_dice(Dice::scripted(Vec::new()));
        } else {
            self.game
                .reseed(seed.wrapping_add(1 + self.dice.rolled.len() as u64));
        }
        self.dice.real = on;
        self.revision += 1;
        Ok(if on {
            "real dice: roll them beside the table and type each roll before you play (R30)"
                .to_owned()
        } else {
            "the generator rolls the dice again (R30)".to_owned()
        })
    }

    /// Plays a command with rolls of real dice typed in (R30): exactly as
    /// many as it rolls, no fewer and no more; otherwise nothing changes
    /// and the refusal says how many it needs.
    pub fn play_with_rolls(
        &mut self,
        command: CommandOf<S>,
        rolls: Vec<u8>,
    ) -> Result<Vec<<S::Game as GameState>::Event>, String> {
        let Some(seat) = next_seat(self.game.game()) else {
            return Err("the game is over".to_owned());
        };
        let mut trial = self.game.game().clone();
        trial.set_dice(Dice::scripted(rolls.clone()));
        let mut events = Vec::new();
        if let Err(e) = trial.apply_into(seat, &command, &mut events) {
            if !(GameState::dice(&trial).left().is_some() && e.ruling().0 == 30) {
                return Err(e.to_string());
            }
            // How many it rolls: the rolls typed, then as many more as it
            // takes (a roll again may need more, so "at least").
            let mut more = self.game.game().clone();
            let mut filled = rolls.clone();
            filled.extend(std::iter::repeat_n(3, 256));
            more.set_dice(Dice::scripted(filled));
            let rolled = more
                .apply_into(seat, &command, &mut Vec::new())
                .ok()
                .and_then(|_| GameState::dice(&more).script().map(|s| s.used().len()));
            return Err(match rolled {
                Some(n) => format!(
                    "`{command}` rolls {n} di{} here and {} typed: roll them and type every roll first (R30)",
                    if n == 1 { "e" } else { "ce" },
                    match rolls.len() {
                        0 => "none was".to_owned(),
                        1 => "1 was".to_owned(),
                        k => format!("{k} were"),
                    }
                ),
                None => format!("`{command}` rolls dice: roll them and type every roll first; {e}"),
            });
        }
        let used = GameState::dice(&trial)
            .script()
            .map_or(0, |s| s.used().len());
        if used < rolls.len() {
            return Err(format!(
                "`{command}` rolls {used} di{}, and {} rolls were typed: type exactly the rolls it makes (R30)",
                if used == 1 { "e" } else { "ce" },
                rolls.len()
            ));
        }
        if used > 0 {
            self.game.set_dice(Dice::scripted(rolls.clone()));
        }
        let events = self.play(command)?;
        if used > 0 {
            self.dice.typed.extend_from_slice(&rolls);
            self.log.push(LogLine::new(
                format!("real dice: {}", write_rolls(&rolls)),
                false,
            ));
        }
        Ok(events)
    }

    /// Plays a person's command: with the rolls typed in when the dice are
    /// real, which are cleared once it is played.
    pub fn play_typed(
        &mut self,
        command: CommandOf<S>,
        typed: &mut TypedRolls,
    ) -> Result<Vec<<S::Game as GameState>::Event>, String> {
        let events = if self.dice.real {
            let rolls = parse_rolls(&typed.0).map_err(|e| format!("the rolls typed: {e}"))?;
            self.play_with_rolls(command, rolls)?
        } else {
            self.play(command)?
        };
        typed.0.clear();
        Ok(events)
    }

    /// After a saved game is replayed: a game saved with every roll
    /// (`listed`) goes on with real dice when the record says so
    /// (`real_after`) and people hold every seat, else the generator rolls
    /// from here, seeded from `seed` (R30).
    pub fn go_on_after_replay(&mut self, listed: bool, real_after: bool, persons: bool, seed: u64) {
        if !listed {
            return;
        }
        self.dice.replayed = true;
        if persons && real_after {
            self.dice.real = true;
            self.game.set_dice(Dice::scripted(Vec::new()));
        } else {
            self.game
                .reseed(seed.wrapping_add(1 + self.dice.rolled.len() as u64));
        }
    }
}

/// The panel's row for real dice: the switch, and the field for the next
/// command's rolls while they are on. Returns the switch when it changed.
pub fn real_dice_row(
    ui: &mut bevy_egui::egui::Ui,
    book: &DiceBook,
    typed: &mut TypedRolls,
) -> Option<bool> {
    let mut changed = None;
    ui.horizontal(|ui| {
        let mut real = book.real;
        if ui
            .checkbox(&mut real, "Real dice")
            .on_hover_text(
                "Roll real dice beside the table and type each roll before you play (R30)",
            )
            .changed()
        {
            changed = Some(real);
        }
        if book.real {
            ui.label("rolls:");
            ui.add(
                bevy_egui::egui::TextEdit::singleline(&mut typed.0)
                    .desired_width(90.0)
                    .hint_text("4 2"),
            );
        }
    });
    changed
}
