//! Conflict at Cache's keyboard shortcuts for play: Q and E turn, Enter ends the activation, P
//! passes the turn (U or Ctrl+Z undoes, as on every table:
//! `session::keys::read_undo_keys`). Ignored while a panel has the keyboard.

use bevy::prelude::*;
use sandtable_cache::Command;

use super::play::{ActiveGame, CommandRequest};
use crate::session::Seats;
use crate::session::keys::KeyboardTaken;

pub(super) fn read_play_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Option<Res<KeyboardTaken>>,
    active: Option<Res<ActiveGame>>,
    seats: Option<Res<Seats>>,
    mut requests: MessageWriter<CommandRequest>,
) {
    let (Some(keys), Some(active)) = (keys, active) else {
        return;
    };
    // A bot's turn takes no keys (layout mode has keys of its own, and this
    // runs only in play).
    if taken.is_some_and(|t| t.0)
        || active.handover.is_some()
        || seats.is_some_and(|s| super::bots::bot_to_move(&s, &active.game))
    {
        return;
    }
    let command = if keys.just_pressed(KeyCode::KeyQ) {
        Command::TurnLeft
    } else if keys.just_pressed(KeyCode::KeyE) {
        Command::TurnRight
    } else if keys.just_pressed(KeyCode::Enter) {
        Command::End
    } else if keys.just_pressed(KeyCode::KeyP) {
        Command::Pass
    } else if keys.just_pressed(KeyCode::KeyF) && active.game.activation().is_some() {
        Command::Advance
    } else {
        return;
    };
    requests.write(CommandRequest(command));
}
