//! Rules engine for Conflict at Cache (V100) and The Snyder Skirmish (V101): a
//! pure, seeded, deterministic game that checks every command against the
//! rulings of RULINGS.md and explains every refusal. No Bevy, no IO: the scenario crate reads files, the
//! CLI and the app drive a [`Game`] with [`Command`]s and follow its [`Event`]s.
//!
//! ```
//! use sandtable_cache::{Board, Command, FactorSetup, Facing, Game, PlayerSetup, Setup, UnitSetup};
//!
//! let unit = |at: &str, facing| UnitSetup { at: at.parse().unwrap(), facing, name: None };
//! let setup = Setup {
//!     board: Board { columns: 8, rows: 8 },
//!     players: vec![
//!         PlayerSetup { name: "Red".into(), factors: vec![FactorSetup {
//!             base: "B2".parse().unwrap(), units: vec![unit("C3", Facing::N)] }] },
//!         PlayerSetup { name: "Blue".into(), factors: vec![FactorSetup {
//!             base: "G7".parse().unwrap(), units: vec![unit("F6", Facing::S)] }] },
//!     ],
//!     terrain: vec![],
//!     first_player: Some(0),
//!     seed: 42,
//!     turn_limit: None,
//!     stashes: vec![],
//!     stash_list: Default::default(),
//! };
//! let mut game = Game::new(&setup).unwrap();
//! game.apply("activate C3".parse().unwrap()).unwrap();
//! game.apply(Command::Advance).unwrap();
//! assert_eq!(game.activation().unwrap().left().0, 3);
//! let refused = game.apply(Command::Activate("F6".parse().unwrap())).unwrap_err();
//! assert_eq!(refused.to_string(), "the unit on C4 is still acting: no other unit acts until it ends its activation (R7)");
//! ```
//!
//! # State summary
//! [`Game::summary`] gives a [`StateSummary`], serialized by the CLI's `--json`
//! with these fields: `turn` (1 for the first player's first turn, +1 at every
//! pass), `current_player` (name), `over` (bool), `winner` (name or null),
//! `units` (on the board: `player`, `factor` index among that player's
//! Factors, `square` like `"C7"`, `facing` as `"N"`/`"E"`/`"S"`/`"W"`),
//! `bases` (`player`, `factor`, `square`, `active`), `custody` (`holder`,
//! `player`, `factor`), `removed` (`player`, `factor`), `activation` (null, or
//! `square` and `actions_left`), `activations_left`, `stashes` (squares of
//! undiscovered stashes) and `pending` (null, or the kind of choice a stash
//! result waits for: `place_anywhere`, `pick_for_extra_actions`,
//! `pick_unfriendly`, `return_unfriendly`, `return_captured_friend`,
//! `return_this_unit`), and `draw_offer` (the name of the player whose draw
//! offer stands, R24; left out when none does).
//!
//! # Speed
//! Measured with `cargo bench -p sandtable-cache` (benches/playouts.rs) on a
//! 24 x 15 board, two players of ten units each, with walls, water, woods and
//! a road, on one core of the 2-core development machine:
//!
//! | what | measured | target |
//! | --- | --- | --- |
//! | random playout: commands listed, one chosen, checked and applied | 18.9 million commands/s (53 ns each) | 10 million/s |
//! | the same with six stashes (The Snyder Skirmish) | 17.6 million commands/s (57 ns each) | |
//! | `legal_commands()` at the start of a turn (7 commands), into a buffer / new `Vec` | 10 ns / 51 ns | under 1 µs |
//! | `legal_commands()` right after an activation, into a buffer / new `Vec` | 14 ns / 41 ns | under 1 µs |
//! | `undo()` after three commands of a turn | 0.26 µs | |
//!
//! The playout restarts from the setup when a game ends (turn limit 200).

mod apply;
mod check;
mod choice;
mod command;
mod contract;
mod discovery;
mod event;
mod game;
mod geometry;
mod legal;
mod notation;
mod pieces;
mod ruling;
pub mod samples;
mod setup;
mod stash;
mod summary;
mod terrain;
mod text;

pub use choice::Choice;
pub use command::{CacheLegal, Captive, Command, CommandError, LegalCommand, MoveKind};
pub use event::{CaptureSide, Event};
pub use game::Game;
pub use geometry::{Board, Facing, MAX_BOARD_SIDE, ParseFacingError, ParseSquareError, Square};
pub use notation::{ParseCommandError, Record};
pub use pieces::{
    Actions, Activation, DrawOffer, DrawReason, Factor, FactorId, Occupant, Outcome, Place, Player,
    PlayerId, Unit, UnitId, activation_limit,
};
pub use ruling::Ruling;
pub use sandtable_core::record::ParseRecordError;
pub use setup::{
    Counts, FactorSetup, MAX_PIECES, MAX_PROBLEMS_KEPT, MAX_STASHES, MAX_TERRAIN_SQUARES,
    MAX_TURN_LIMIT, PlayerSetup, STANDARD_FACTOR_UNITS, Setup, SetupError, SetupProblem, UnitSetup,
    count_problems,
};
pub use stash::{DEFAULT_STASH_LIST, MAX_EXTRA_ACTIONS, StashList, StashResult, StashRow};
pub use summary::{
    ActivationSummary, BaseSummary, CustodySummary, RemovedSummary, StateSummary, UnitSummary,
};
pub use terrain::{Ground, TerrainClass, TerrainKind, TerrainPiece};
