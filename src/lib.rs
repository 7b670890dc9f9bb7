//! Sandtable's 3D table: a Bevy app that shows a game of a rule system and
//! turns mouse and keyboard input into its commands. The rules live in the
//! rules crates (`sandtable-cache`, `sandtable-warpspawn`,
//! `sandtable-frontiers`), reached through
//! the game contract of `sandtable-core`; scenarios in
//! `sandtable-scenario`. This crate only shows, asks and forwards: systems
//! never change rules state behind the rules crate's back. The rule
//! systems on the table are listed once, in [`SYSTEMS`].
//!
//! [`logic_plugin`] is everything that runs without a window (headless tests
//! use it with `MinimalPlugins`); [`plugin`] adds the looks, the camera,
//! picking and the panels.
//!
//! Imports run one way, from a rule system's folder to the shared table,
//! and from this file, which registers the rule systems ([`SYSTEMS`]), to
//! the folders, never back (`tests/imports.rs` fails on a circle, on a
//! shared folder naming a rule system or its rules crate, and on a folder
//! naming anything of this file):
//!
//! ```text
//! shared:   session -> mode      hud -> session, mode     camera -> table, hud, session
//!           table, picking, mode (import no other folder)
//! all:      any folder -> schedule (the sets of a frame; it imports none)
//! systems:  cache -> hud, session, table, picking, mode
//!           warpspawn -> camera, hud, session, table, picking, mode
//!           frontiers -> hud, session, table, picking, mode
//! ```

use bevy::prelude::*;

pub mod cache;
pub mod camera;
pub mod frontiers;
pub mod hud;
pub mod mode;
pub mod options;
pub mod picking;
pub mod schedule;
pub mod session;
pub mod table;
pub mod warpspawn;

pub use mode::Mode;

/// The game flow and the table's entities, without rendering or input devices.
pub fn logic_plugin(app: &mut App) {
    app.add_plugins((
        schedule::plugin,
        mode::plugin,
        session::plugin,
        table::plugin,
    ));
    for system in SYSTEMS {
        (system.logic)(app);
    }
}

/// The whole app on top of `DefaultPlugins`: logic, looks, camera, picking, panels.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        logic_plugin,
        table::models::plugin,
        camera::plugin,
        picking::plugin,
        hud::plugin,
    ));
    for system in SYSTEMS {
        (system.window)(app);
    }
}

/// A rule system on the table: its game flow, which runs headless too,
/// and what it adds with a window (its looks, panels and labels).
#[derive(Debug, Clone, Copy)]
pub struct TableSystemPlugins {
    /// The game flow, its table's entities and its files.
    pub logic: fn(&mut App),
    /// Its looks, its panels and its picking, for a table with a window.
    pub window: fn(&mut App),
}

/// The rule systems the table plays: a system joins the table with its
/// folder and one line here.
pub const SYSTEMS: [TableSystemPlugins; 3] = [
    TableSystemPlugins {
        logic: cache::plugin,
        window: cache::window_plugin,
    },
    TableSystemPlugins {
        logic: warpspawn::plugin,
        window: warpspawn::window_plugin,
    },
    TableSystemPlugins {
        logic: frontiers::plugin,
        window: frontiers::window_plugin,
    },
];
