//! What the keyboard is doing: a panel's text field may have it, and then
//! no shortcut of the table acts.

use bevy::prelude::*;
use sandtable_core::game::next_seat;

use super::game::{ActiveGame, TableSystem};
use super::{Seat, Seats, UndoRequest};

/// Whether a text field or another panel widget is using the keyboard.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct KeyboardTaken(pub bool);

/// U or Ctrl+Z undoes, on every system's table: also while the table waits
/// to be handed over (the person still at it takes back what handed it
/// over), never while a panel has the keyboard or a bot is to decide.
pub fn read_undo_keys<S: TableSystem>(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Option<Res<KeyboardTaken>>,
    active: Option<Res<ActiveGame<S>>>,
    seats: Option<Res<Seats>>,
    mut undo: MessageWriter<UndoRequest>,
) {
    let (Some(keys), Some(active)) = (keys, active) else {
        return;
    };
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let pressed = keys.just_pressed(KeyCode::KeyU) || (ctrl && keys.just_pressed(KeyCode::KeyZ));
    if !pressed || taken.is_some_and(|t| t.0) {
        return;
    }
    let bot_to_decide = next_seat(active.game.game())
        .is_some_and(|seat| seats.is_some_and(|s| matches!(s.of(seat.index()), Seat::Bot(_))));
    if !bot_to_decide {
        undo.write(UndoRequest);
    }
}
