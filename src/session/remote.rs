//! A game served by `sandtable-serve` on the table: the table shows what
//! the server sends this client (`sandtable_net`), its seat's masked game
//! when it holds a seat, else the public's, built from the scenario the
//! server sent for that viewer. Nothing of the game is worked out here:
//! each view the server sends replaces the game on the table.

use bevy::prelude::*;
use sandtable_core::game::{Seat, Viewer};
use sandtable_core::undo::Undoable;
use sandtable_core::wire::{Wire, read};
use sandtable_net::{Logs, Play, PublicView, Refused, ScenarioText, SeatStatus, SeatView, Undo};

use super::game::{ActiveGame, TableSystem};
use super::open::Openers;
use super::{LogLine, Notice, ScenarioSource};

/// This table is joined to a server: the seat it claimed, if any, the
/// view last put on the table, and who sits where as the server last
/// said.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Remote {
    /// The seat claimed; `None` watches as the public.
    pub seat: Option<u16>,
    /// The server's address, as joined.
    pub server: Option<std::net::SocketAddr>,
    /// Each seat: its player, whether a client or bot holds it, and what
    /// it owes (a sealed decision as committed or owed, never its
    /// content).
    pub seats: Vec<SeatStatus>,
    /// The connection to the server.
    pub connection: Connection,
    /// The game is served from this table (`--host`).
    pub hosting: Option<Hosting>,
    /// The view on the table: whose, and its revision.
    shown: Option<(Viewer, u32)>,
    /// Why the server could not be joined was shown.
    failure_shown: bool,
    /// The logs last put on the table: their revision and lengths.
    log_shown: Option<(u32, usize, usize)>,
}

/// A table's connection to the server, as the panel tells it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Connection {
    /// Not connected yet.
    #[default]
    Joining,
    /// Connected: the table shows the server's game.
    Connected,
    /// The connection dropped: the table tries again, and its seat waits
    /// for it on the server.
    Lost,
    /// The server could not be reached, and why.
    Failed(String),
}

/// What a table serving the game (`sandtable --host`) tells the players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosting {
    /// The address the other players join.
    pub address: std::net::SocketAddr,
    /// The server listens on this machine alone (no `--public`).
    pub local_only: bool,
    /// Each seat: its player's name, its bot's strength if a bot plays
    /// it, and its code.
    pub seats: Vec<(String, Option<u8>, String)>,
    /// The referee's record.
    pub record: std::path::PathBuf,
}

impl Remote {
    /// A table joined at `seat`, or watching as the public.
    pub fn at(seat: Option<u16>) -> Remote {
        Remote {
            seat,
            ..Remote::default()
        }
    }

    /// A table joined to `server` at `seat`.
    pub fn joined(server: std::net::SocketAddr, seat: Option<u16>) -> Remote {
        Remote {
            server: Some(server),
            ..Remote::at(seat)
        }
    }

    /// Whether the table may send the server a command now.
    pub fn may_send(&self) -> bool {
        self.connection == Connection::Connected
    }
}

/// The connection as the client's resources tell it: [`sandtable_net::udp::Joining`]
/// over UDP, else replicon's client state alone (as in tests).
fn connection(world: &World) -> Connection {
    use bevy_replicon::prelude::ClientState;
    let connected = world
        .get_resource::<State<ClientState>>()
        .is_some_and(|s| *s.get() == ClientState::Connected);
    match world.get_resource::<sandtable_net::udp::Joining>() {
        Some(j) if j.lost => Connection::Lost,
        Some(j) if !connected && j.failed.is_some() => {
            Connection::Failed(j.failed.clone().unwrap_or_default())
        }
        _ if connected => Connection::Connected,
        _ => Connection::Joining,
    }
}

/// Makes `app` a table joined to the server at `server` over UDP as
/// `client_id`: replicon's client with renet, the views kept
/// ([`sandtable_net::ViewPlugin`]), the connection watched and made again
/// after a drop ([`sandtable_net::udp::JoinPlugin`]), claiming `claim`'s
/// seat with its code, or watching as the public.
pub fn join(
    app: &mut App,
    server: std::net::SocketAddr,
    claim: Option<(u16, String)>,
    client_id: u64,
) -> std::io::Result<()> {
    use sandtable_net::udp::{Claiming, JoinPlugin};
    app.add_plugins((
        bevy_replicon::prelude::RepliconPlugins,
        bevy_replicon_renet::RepliconRenetPlugins,
        sandtable_net::ViewPlugin,
        JoinPlugin,
    ));
    sandtable_net::protocol(app);
    sandtable_net::udp::join(app, server, client_id)?;
    if let Some((seat, code)) = &claim {
        app.insert_resource(Claiming(sandtable_net::Claim {
            seat: *seat,
            code: code.clone(),
        }));
    }
    app.insert_resource(Remote::joined(server, claim.map(|(s, _)| s)));
    Ok(())
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
    let Some(may_send) = world.get_resource::<Remote>().map(Remote::may_send) else {
        return;
    };
    let openers = world.resource::<Openers>().clone();
    for opener in &openers.0 {
        for asked in (opener.outgoing)(world) {
            if !may_send {
                // Sent now, it would be lost with the connection; the
                // table's game is the server's last view, unchanged.
                world.resource_mut::<Notice>().error(
                    "not sent: the table is not connected to the server (it is connecting again)",
                );
                continue;
            }
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
    let now = connection(world);
    if remote.connection != now {
        if now == Connection::Connected {
            let server = remote
                .server
                .map_or("the server".to_owned(), |s| s.to_string());
            let words = match (remote.seat, remote.connection == Connection::Lost) {
                (_, true) => format!("connected again to {server}"),
                (Some(seat), _) => format!("connected to {server}, claiming seat {seat}"),
                (None, _) => format!("connected to {server}, watching"),
            };
            world.resource_mut::<Notice>().info(words);
        }
        world.resource_mut::<Remote>().connection = now;
    }
    let seats = {
        let mut public = world.query::<&PublicView>();
        public.iter(world).next().map(|v| v.seats.clone())
    };
    if let Some(seats) = seats
        && seats != remote.seats
    {
        world.resource_mut::<Remote>().seats = seats;
    }
    let Some(sent) = sent(world, remote.seat) else {
        return;
    };
    let logs = world
        .get_resource::<Logs>()
        .map(|l| (l.revision, l.seat.len(), l.public.len()));
    if remote.shown == Some((sent.viewer, sent.revision)) && remote.log_shown == logs {
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
        Ok(()) => {
            let mut remote = world.resource_mut::<Remote>();
            remote.shown = Some((sent.viewer, sent.revision));
            remote.log_shown = logs;
        }
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
