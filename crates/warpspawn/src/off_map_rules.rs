//! What the battle's rules ask of a system played off the map
//! ([`crate::off_map`]), at fixed points of the turn: a game turn begins,
//! pieces moved, a command of its own, the commands that reach off the
//! map (entries, marches off, shots at pieces off it) checked, carried out
//! and listed, and a counter's losses.

use sandtable_core::game::Legal;

use crate::command::{Command, CommandError};
use crate::event::Event;
use crate::game::Game;
use crate::hex::Hex;
use crate::men::{Men, Pick};
use crate::off_map::OffMap;
use crate::terms::Side;

/// What the battle's rules ask of a system played off the map.
pub trait OffMapRules: OffMap {
    /// A game turn begins (and the first one, when the battle is made).
    fn begin_turn(game: &mut Game<Self>, events: &mut Vec<Event<Self>>);

    /// A side's pieces on the map moved (a march or an entry): what the
    /// system sees of them changes.
    fn after_move(game: &mut Game<Self>, side: Side, events: &mut Vec<Event<Self>>);

    /// Checks one of the system's own commands of `side`.
    fn check(game: &Game<Self>, side: Side, command: &Self::Command) -> Result<(), CommandError>;

    /// The system's own commands of `side` while it decides before the
    /// table.
    fn legal(game: &Game<Self>, side: Side) -> Vec<Self::Command>;

    /// The battle's commands that reach off the map (entries, marches off,
    /// shots at pieces off it) of `side` in its phase, appended.
    fn commands_into(game: &Game<Self>, side: Side, out: &mut Vec<Legal<Command<Self>>>);

    /// The listed command of the family of one of those, if it is one.
    fn listed_as(game: &Game<Self>, command: &Command<Self>) -> Option<Command<Self>>;

    /// What `side` owes the system, in words for `viewer`.
    fn owed_words(game: &Game<Self>, side: usize, viewer: Option<usize>) -> String;

    /// Checks an entry of pieces of counter `counter` onto `hex`.
    fn plan_enter(
        game: &Game<Self>,
        counter: u16,
        hex: Hex,
        pieces: Option<Self::Pieces>,
    ) -> Result<Self::EnterPlan, CommandError>;

    /// Carries out an entry.
    fn enter(game: &mut Game<Self>, plan: &Self::EnterPlan, events: &mut Vec<Event<Self>>);

    /// Checks a march off the map from `from`.
    fn plan_march_off(
        game: &Game<Self>,
        from: Hex,
        place: Option<Self::Place>,
        pick: Option<Pick>,
    ) -> Result<Self::MarchOffPlan, CommandError>;

    /// Carries out a march off the map.
    fn march_off(game: &mut Game<Self>, plan: &Self::MarchOffPlan, events: &mut Vec<Event<Self>>);

    /// Checks a shot of the cannon in `cannon` at counter `counter` in
    /// `place`.
    fn plan_fire(
        game: &Game<Self>,
        cannon: Hex,
        place: Self::Place,
        counter: u16,
        crew: Option<Men>,
    ) -> Result<Self::FirePlan, CommandError>;

    /// Carries out a shot with its roll.
    fn fire(game: &mut Game<Self>, plan: &Self::FirePlan, roll: u8, events: &mut Vec<Event<Self>>);

    /// The men of `side`'s counter `counter` who may be lost.
    fn men(game: &Game<Self>, side: Side, counter: u16) -> Men;

    /// Checks the owner's choice of which of a counter's men die.
    fn plan_lose(game: &Game<Self>, counter: u16, men: Men) -> Result<(), CommandError>;

    /// `men` of `side`'s counter `counter` die.
    fn kill(
        game: &mut Game<Self>,
        side: Side,
        counter: u16,
        men: Men,
        events: &mut Vec<Event<Self>>,
    );
}
