//! The table's mode: play, or the layout at its real size. One state,
//! entered and left through [`SetLayoutMode`]; what each mode needs is set
//! up on entering it and put away on leaving (`OnEnter`, `OnExit`), and the
//! systems of a mode run only in it (`in_state`).

use bevy::prelude::*;

/// What the table is for now.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// The game is played: clicks and keys become commands, bots think.
    #[default]
    Play,
    /// The scenario's layout at its real size: rulers, measuring and the
    /// editor; nothing is played.
    Layout,
}

/// A request to switch layout mode on or off. On, the layout of the game's
/// scenario is shown and can be edited; off, the game comes back, or a new
/// game of the edited layout starts (asking first if the game in play has
/// unsaved moves). The layout feature decides whether the switch may be
/// made; the switch itself is a change of [`Mode`].
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetLayoutMode {
    /// On or off.
    pub on: bool,
    /// The person said the game in play may go with its unsaved moves.
    pub discard_unsaved: bool,
}

impl SetLayoutMode {
    /// Layout mode on.
    pub const ON: SetLayoutMode = SetLayoutMode {
        on: true,
        discard_unsaved: false,
    };
    /// Layout mode off.
    pub const OFF: SetLayoutMode = SetLayoutMode {
        on: false,
        discard_unsaved: false,
    };
}

/// The table was started in layout mode (`sandtable FILE --layout`): the
/// person at it asked for the scenario's layout as its referee, so the
/// first switch to layout mode opens it even where the layout shows what
/// the rules hide from the players (R57). Used once.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefereeLayout;

pub(super) fn plugin(app: &mut App) {
    // Headless apps start from `MinimalPlugins`, which have no states.
    if !app.is_plugin_added::<bevy::state::app::StatesPlugin>() {
        app.add_plugins(bevy::state::app::StatesPlugin);
    }
    app.init_state::<Mode>().add_message::<SetLayoutMode>();
}

/// Whether a change of mode is on its way (it takes effect at the start of
/// the next frame): work that the new mode would redo waits for it.
pub fn mode_change_pending(next: Res<NextState<Mode>>) -> bool {
    matches!(*next, NextState::Pending(_) | NextState::PendingIfNeq(_))
}
