//! Conflict at Cache on the table: its game in play and its flow
//! ([`play`]), its bots and hints, its keys and files; its looks: the
//! squares, terrain pieces, bases, miniatures and stashes drawn in code or
//! from the scenario's own model files, the lights, and the marks of
//! reachable squares, of the acting unit and of a stash's choice; its play
//! panel ([`panel`]); its layout mode, the editor and the measuring tool
//! ([`layout`]). The entities they dress are the shared table's
//! (`crate::table`).

use bevy::prelude::*;

pub mod bots;
pub mod builtin;
pub mod files;
pub mod keys;
pub mod layout;
pub mod looks;
pub mod models;
pub mod panel;
pub mod picking;
pub mod play;
pub mod table;

pub use play::{ActiveGame, CommandRequest, PlayEvent};

/// Cache's game flow, without rendering or input devices.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((play::plugin, bots::plugin, table::plugin, layout::plugin));
    crate::session::open::join_table::<play::Cache>(app, files::opener());
}

/// Cache's looks and its panel, for a table with a window.
pub fn window_plugin(app: &mut App) {
    app.add_plugins((
        looks::plugin,
        panel::plugin,
        picking::plugin,
        layout::window_plugin,
    ));
}
