//! Helpers shared by the app's integration tests.

#![allow(dead_code)]

use std::path::PathBuf;

use bevy::prelude::*;
use sandtable::session::Notice;

/// A fresh folder under the system's temporary folder for one test of one
/// suite (`suite` keeps suites that run at once apart).
pub fn temp_dir(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sandtable-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The notice's text, or an empty string.
pub fn notice(app: &App) -> String {
    app.world()
        .resource::<Notice>()
        .text
        .clone()
        .unwrap_or_default()
}

/// The window's close button, as the window manager sends it.
pub fn close_window(app: &mut App) {
    app.world_mut()
        .write_message(bevy::window::WindowCloseRequested {
            window: Entity::PLACEHOLDER,
        });
    app.update();
}

/// What Frontiers' panel and labels write for the person at the table:
/// its state lines, its crates' lines and every unit's label, as the
/// table's viewer reads them.
pub fn skirmish_lines(app: &App) -> Vec<String> {
    use sandtable::frontiers::hand::OrdersDraft;
    use sandtable::frontiers::panel::{crate_lines, state_lines, unit_label};
    use sandtable_core::game::Viewer;
    let active = app
        .world()
        .resource::<sandtable::frontiers::ActiveSkirmish>();
    let game = active.game.game();
    let side = match active.viewer {
        Viewer::Player(s) => Some(s.0 as u8),
        _ => None,
    };
    let draft = app.world().resource::<OrdersDraft>();
    let mut lines = state_lines(active);
    lines.extend(crate_lines(active));
    lines.extend((0..game.units().len()).map(|i| unit_label(game, i, side, draft)));
    lines
}
