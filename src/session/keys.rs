//! What the keyboard is doing: a panel's text field may have it, and then
//! no shortcut of the table acts.

use bevy::prelude::*;

/// Whether a text field or another panel widget is using the keyboard.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct KeyboardTaken(pub bool);
