//! The Warpspawn set-piece battle (seed `003`, rulings R60-R81 in
//! `rulings/warpspawn.md`): a horse-and-musket battle on flat-topped hexes,
//! with formations of men, four phases a player turn (Cannonade, March,
//! Melee, Rally), cannon fire with modifiers, melee on a ratio table,
//! routs, prisoners, rallies and victory points. Pure, seeded and
//! deterministic, like the Cache crate: no Bevy, no IO. The scenario crate
//! reads files into a [`Setup`]; the CLI, the bots and the table drive a
//! [`Game`] through the game contract with [`Command`]s and follow its
//! [`Event`]s.
//!
//! ```
//! use sandtable_core::dice::Dice;
//! use sandtable_warpspawn::{Game, Side, samples};
//!
//! let mut game = Game::new(&samples::skirmish(), Dice::scripted(vec![5])).unwrap();
//! // Red's cannon in C3 fires at Blue's formation in C6: a 5 rolled.
//! let events = game.apply(&"fire C3 C6".parse().unwrap()).unwrap();
//! assert!(game.describe(&events[0]).starts_with("the cannon in C3 fires directly"));
//! let refused = game.apply(&"fire C3 C6".parse().unwrap()).unwrap_err();
//! assert_eq!(refused.to_string(), "the cannon in C3 has fired this turn (R65)");
//! assert_eq!(game.vp(Side(0)), 4);
//! ```
//!
//! # State summary
//! [`Game::summary`] gives a [`Summary`], serialized by the CLI's `--json`
//! with exactly these fields: `turn` (the game turn, from 1),
//! `current_player` (the side whose player turn it is), `phase`
//! (`cannonade`, `march`, `melee`, `rally`), `over`, `winner` (null for a
//! draw or an unfinished battle), `vp` (victory points by side name),
//! `pieces` (one entry a hex, side and state: `hex`, `player`, `state` as
//! `armed`, `routing`, `prisoner` or `unarmed`, `infantry`, `cavalry`,
//! `officers`, `cannon`, `baggage`, `flag`, `held_by` (the holder of
//! prisoners, else null), `crew_marked`) and `awaiting` (null, or `player`
//! and `choice`: `casualties`, `advance`, `rout` or `surrender`).
//!
//! # Speed
//! `cargo bench -p sandtable-warpspawn` (benches/playouts.rs) plays random
//! commands on the open-field battle through the contract: 1.59 million
//! commands a second on one core of the 2-core development machine (the
//! target is 2 million); the legal list at the start of a March phase (63
//! commands) takes 0.64 to 0.68 µs; figures in docs/warpspawn.md.

mod check;
mod command;
mod contract;
mod event;
mod game;
mod hex;
mod legal;
mod made;
mod men;
mod odds;
pub mod off_map;
pub mod off_map_rules;
pub mod offboard;
mod pieces;
mod plans;
mod play;
pub mod samples;
mod setup;
mod summary;
mod tables;
mod terms;
mod text;
mod words;

pub use check::rout_words;
pub use command::CommandError;
pub use command::{Hexes, ParseCommandError, Parts, RoutTo};
pub use event::{band_words, marching_words};
pub use game::{Marks, PATHS_UP_TO, Stack, is_cover};
pub use hex::{Edge, Hex, MAX_MAP_SIDE, Map, ParseHexError, between};
pub use men::{Men, Pick};
pub use offboard::plug::{Battle, Command, Event, Game, Setup, State, Switches};
pub use plans::{AttackPlan, FirePlan};
pub use setup::{
    Cover, EvenRow, HalfRound, MAX_COUNT, MAX_PIECE_ENTRIES, MAX_PROBLEMS_KEPT, MAX_TURNS,
    MeleeResult, MeleeRows, PiecesSetup, RallyLow, SetupError, SetupProblem, SideSetup, Terrain,
    points_doubled, points_text, validate, warnings,
};
pub use summary::{Awaiting, PieceSummary, Summary};
pub use tables::{
    RallyResult, casualties, density_modifier, rally_result, range_modifier, ratio_row,
};
pub use terms::{Band, Cause, EndReason, Fate, Group, Outcome, Phase, RoutWhy, Side, Step, Which};
pub use text::{draw as draw_text, terrain_mark};
