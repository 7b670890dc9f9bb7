//! A game served by `sandtable-serve` on the table: the table shows what
//! the server sends this client (`sandtable_net`), its seat's masked game
//! when it holds a seat, else the public's, built from the scenario the
//! server sent for that viewer. Nothing of the game is worked out here:
//! each view the server sends replaces the game on the table.

use bevy::prelude::*;
use sandtable_core::game::{Seat, Viewer};
use sandtable_core::undo::Undoable;
use sandtable_core::wire::{Wire, read};
use sandtable_net::{Logs, Play, PublicView, Refused, ScenarioText, SeatView, Undo};

use super::game::{ActiveGame, TableSystem};
use super::open::Openers;
use super::{LogLine, Notice, ScenarioSource};

/// This table is joined to a server: the seat it claimed, if any, and
/// the view last put on the table.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Remote {
    /// The seat claimed; `None` watches as the public.
    pub seat: Option<u16>,
    /// The view on the table: whose, and its revision.
    shown: Option<(Viewer, u32)>,
    /// Why the server could not be joined was shown.
    failure_shown: bool,
}

impl Remote {
    /// A table joined at `seat`, or watching as the public.
    pub fn at(seat: Option<u16>) -> Remote {
        Remote {
            seat,
            shown: None,
            failure_shown: false,
        }
    }
}

/// What the table asks of a game a server holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outgoing {
    /// A command, in the move notation.
    Play(String),
    /// Take back this table's seat's last command (R31).
    Undo,
}

/// Follows the server's views, sends what the table asks of the game
/// and shows what the server refused.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            follow_server.in_set(crate::FlowSteps::Open),
            send_outgoing.after(crate::FlowSteps::Play),
            show_refusals
                .run_if(resource_exists::<Messages<Refused>>)
                .in_set(crate::FlowSteps::Open),
        ),
    );
}

/// Says once, as the table's notice, why the server could not be joined.
fn show_join_failure(world: &mut World) {
    let Some(why) = world
        .get_resource::<sandtable_net::udp::Joining>()
        .and_then(|j| j.failed.clone())
    else {
        return;
    };
    let Some(mut remote) = world.get_resource_mut::<Remote>() else {
        return;
    };
    if !remote.failure_shown {
        remote.failure_shown = true;
        world.resource_mut::<Notice>().error(why);
    }
}

/// Sends the server what the table asked of its game.
fn send_outgoing(world: &mut World) {
    if !world.contains_resource::<Remote>() {
        return;
    }
    let openers = world.resource::<Openers>().clone();
    for opener in &openers.0 {
        for asked in (opener.outgoing)(world) {
            match asked {
                Outgoing::Play(text) => {
                    world.write_message(Play { text });
                }
                Outgoing::Undo => {
                    world.write_message(Undo);
                }
            }
        }
    }
}

/// What the server refused, with the ruling's words, shown as the table
/// shows its own refusals.
fn show_refusals(mut refused: MessageReader<Refused>, mut notice: ResMut<Notice>) {
    for r in refused.read() {
        notice.error(r.text.clone());
    }
}

/// What the server sent for this table's viewer: the system, the viewer,
/// the game's bytes, their revision and the scenario.
pub struct Sent {
    rules: String,
    viewer: Viewer,
    game: Vec<u8>,
    revision: u32,
    scenario: Option<String>,
}

fn sent(world: &mut World, seat: Option<u16>) -> Option<Sent> {
    let mut public = world.query::<(&PublicView, Option<&ScenarioText>)>();
    let (view, scenario) = public.iter(world).next()?;
    let public = Sent {
        rules: view.rules.clone(),
        viewer: Viewer::Public,
        game: view.game.clone(),
        revision: view.revision,
        scenario: scenario.map(|s| s.0.clone()),
    };
    let Some(seat) = seat else {
        return Some(public);
    };
    let mut seats = world.query::<(&SeatView, Option<&ScenarioText>)>();
    let mine = seats
        .iter(world)
        .find(|(v, _)| v.seat == seat)
        .map(|(v, s)| Sent {
            rules: public.rules.clone(),
            viewer: Viewer::Player(Seat(seat)),
            game: v.game.clone(),
            revision: v.revision,
            scenario: s.map(|s| s.0.clone()),
        });
    // Until the seat's view comes, the public's.
    Some(mine.unwrap_or(public))
}

/// Puts the view the server sent on the table when it changed: the first
/// time (or for another viewer) a game of the scenario sent, then the
/// game itself, as that viewer may know it.
fn follow_server(world: &mut World) {
    let Some(remote) = world.get_resource::<Remote>().cloned() else {
        return;
    };
    show_join_failure(world);
    let Some(sent) = sent(world, remote.seat) else {
        return;
    };
    if remote.shown == Some((sent.viewer, sent.revision)) {
        return;
    }
    let first = remote.shown.map(|(v, _)| v) != Some(sent.viewer);
    if first {
        let Some(text) = &sent.scenario else {
            return;
        };
        let opened = sandtable_scenario::parse_any_in(text, "the server's scenario", None)
            .map_err(|e| e.to_string())
            .and_then(|loaded| {
                let openers = world.resource::<Openers>().clone();
                openers
                    .start(loaded, ScenarioSource::Unsaved)
                    .map_err(|e| e.to_string())
            });
        match opened {
            Ok(opened) => opened.put_on_table(world),
            Err(why) => {
                world.resource_mut::<Notice>().error(why);
                return;
            }
        }
    }
    let openers = world.resource::<Openers>().clone();
    let adopted = match openers.0.iter().find(|o| o.key == sent.rules) {
        Some(opener) => (opener.adopt)(world, &sent),
        None => Err(format!(
            "the server plays `{}`, which this table does not",
            sent.rules
        )),
    };
    match adopted {
        Ok(()) => world.resource_mut::<Remote>().shown = Some((sent.viewer, sent.revision)),
        Err(why) => world.resource_mut::<Notice>().error(why),
    }
}

/// The game sent, on the table of `S` as its viewer sees it, with the log
/// as that viewer reads it.
pub fn adopt<S: TableSystem>(world: &mut World, sent: &Sent) -> Result<(), String>
where
    S::Game: Wire,
{
    let game: S::Game =
        read(&sent.game).map_err(|e| format!("the server's game does not read: {e}"))?;
    let lines = world.get_resource::<Logs>().map(|logs| match sent.viewer {
        Viewer::Player(_) => logs.seat.clone(),
        _ => logs.public.clone(),
    });
    let mut active = world
        .get_resource_mut::<ActiveGame<S>>()
        .ok_or_else(|| format!("no game of {} on the table", S::KEY))?;
    active.game = Undoable::new(game);
    active.outbox.get_or_insert_with(Vec::new);
    active.viewer = sent.viewer;
    active.handover = None;
    if let Some(lines) = lines {
        active.log = lines.into_iter().map(|l| LogLine::new(l, false)).collect();
    }
    active.revision += 1;
    Ok(())
}
