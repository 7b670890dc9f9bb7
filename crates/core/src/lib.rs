//! What every rule system of Sandtable shares, written once: the dice
//! source, and files read and written under one set of rules. The shared
//! game contract (decisions, legal commands, views, records) grows here, so
//! that each rule system's crate plugs into one CLI, one set of bots and one
//! table.

pub mod dice;
pub mod files;
pub mod game;
pub mod grid;
pub mod hash;
pub mod record;
pub mod replay;
pub mod setup;
pub mod text;
pub mod undo;
pub mod wire;
