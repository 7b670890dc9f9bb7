//! Frontiers: Liberty or Death! (seed `004_9b7d5b8ed8fe681f.txt`, rulings
//! `rulings/frontiers.md`, R100-R152), the skirmish on the open table.
//!
//! Built so far, the ground every rule in space stands on:
//! - [`geometry`]: the plane's exact predicates (R100-R102, R113, R114,
//!   R120): footprints in whole millimetres, distances edge to edge,
//!   contact, overlap, what a footprint sweeps along a leg and where it
//!   first touches, and whether a line of sight is blocked, grazing within
//!   0.5 mm allowed;
//! - [`moves`]: a move's path checked in space, a refusal saying where
//!   and why (R101, R113-R116);
//! - [`sight`]: the clear lines of sight from a shooter to any point of a
//!   target, and the best of them by the penalties they cross (R120,
//!   R121);
//! - [`templates`]: what a template hits and where a drop lands from its
//!   dice (R126, R129);
//! - [`smoke`]: clouds, their penalty by the turns since they were
//!   thrown, and what a shot crossing enemy clouds pays (R130, R131);
//! - [`attack`]: the attack roll and a sniper's, and their odds over the
//!   die's faces (R123, R142);
//! - [`data`]: the project's units and cards (R150-R152).
//!
//! On them: [`game`] (a skirmish's state and its actions in space),
//! [`turn`] (Preparation, sealed orders, steps and the Reserve,
//! R105-R112), [`army`] (lists, markers, decks), the views each side may
//! see (R149) and the game on the contract.

mod abilities;
mod action;
mod areas;
pub mod army;
pub mod attack;
pub mod building;
pub mod cards;
mod carry;
mod chances;
pub mod command;
mod contract;
pub mod crates;
pub mod data;
pub mod deploy;
pub mod event;
mod families;
pub mod flow;
pub mod game;
pub mod geometry;
pub mod index;
mod indoors;
pub mod marks;
pub mod moves;
mod moving;
pub mod objectives;
pub mod orders;
mod seeing;
pub mod setup;
mod shooting;
pub mod sight;
pub mod smoke;
pub mod templates;
pub mod text;
pub mod transport;
pub mod turn;
pub mod unit;
pub mod victory;
mod words;

pub use command::{Command, ParseCommandError, Tag};
pub use contract::{ONLOOKER, viewer_side};
pub use event::{CommandError, Event};
pub use game::Game;
pub use setup::Setup;
