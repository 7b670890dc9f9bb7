//! A game served by `sandtable-serve` on the table: the table shows what
//! the server sends this client (`sandtable_net`), its seat's masked game
//! when it holds a seat, else the public's, built from the scenario the
//! server sent for that viewer. Nothing of the game is worked out here:
//! each view the server sends replaces the game on the table.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use sandtable_core::game::{Seat, Viewer};
use sandtable_core::undo::Undoable;
use sandtable_core::wire::{Wire, read};
use sandtable_net::invite::{Invitation, Place};
use sandtable_net::{Logs, Play, PublicView, Refused, ScenarioText, SeatStatus, SeatView, Undo};

use super::game::{ActiveGame, TableSystem};
use super::open::Openers;
use super::{LogLine, Notice, ScenarioSource};

/// This table is joined to a server: the seat it claimed, if any, the
/// view last put on the table, and who sits where as the server last
/// said.
#[derive(Resource, Debug, Clone, Default)]
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
    /// Connected, but nothing heard from the server for
    /// [`sandtable_net::udp::SERVER_SILENCE`]: it may be gone. What it
    /// last said of the other seats is not shown as holding.
    Silent,
    /// The connection dropped: the table tries again, and its seat waits
    /// for it on the server.
    Lost,
    /// The server could not be reached, and why.
    Failed(String),
}

/// What a table serving the game (`sandtable --host`) tells the players.
#[derive(Debug, Clone)]
pub struct Hosting {
    /// The address the other players join.
    pub address: std::net::SocketAddr,
    /// The server listens on this machine alone (no `--public`).
    pub local_only: bool,
    /// Each seat: its player's name, its bot's strength if a bot plays
    /// it, and a person's invitation with the file it is written to.
    pub seats: Vec<(String, Option<u8>, Option<(Invitation, std::path::PathBuf)>)>,
    /// The spectators' invitations, each with its file.
    pub spectators: Vec<(Invitation, std::path::PathBuf)>,
    /// The server's minter: more invitations for spectators.
    pub minter: sandtable_net::invite::Minter,
    /// The spectator code the spectators' invitations carry.
    pub spectator_code: String,
    /// The referee's record.
    pub record: std::path::PathBuf,
    /// Set, the server's loop ends.
    pub stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// The server's thread, until it is stopped.
    pub thread: std::sync::Arc<std::sync::Mutex<Option<std::thread::JoinHandle<()>>>>,
}

impl Hosting {
    /// Stops the server this table runs and waits for it, at most
    /// [`STOP_WAIT`]: its app's last update tells the other tables it is
    /// gone (netcode's disconnect), and its port is free again. Whether it
    /// stopped in time (a bot deep in thought holds it longer).
    pub fn stop_server(&self) -> bool {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let Some(thread) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() else {
            return true;
        };
        let began = std::time::Instant::now();
        while !thread.is_finished() && began.elapsed() < STOP_WAIT {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        if thread.is_finished() {
            let _ = thread.join();
            true
        } else {
            false
        }
    }
}

/// How long leaving a hosted game waits for its server to stop.
pub const STOP_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Stops the server this table hosts when the app exits.
fn stop_hosted_server(exit: MessageReader<AppExit>, remote: Option<Res<Remote>>) {
    if !exit.is_empty()
        && let Some(hosting) = remote.as_ref().and_then(|r| r.hosting.as_ref())
    {
        hosting.stop_server();
    }
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

    /// The seat whose view is on the table: claimed, and the server's
    /// view of it received (a refused claim never is).
    pub fn seated_at(&self) -> Option<u16> {
        match self.shown {
            Some((Viewer::Player(Seat(k)), _)) if self.seat == Some(k) => Some(k),
            _ => None,
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
        Some(j) if j.silent && connected => Connection::Silent,
        Some(j) if !connected && j.failed.is_some() => {
            Connection::Failed(j.failed.clone().unwrap_or_default())
        }
        _ if connected => Connection::Connected,
        _ => Connection::Joining,
    }
}

/// The network's side of a table: replicon's client with renet, the
/// views kept ([`sandtable_net::ViewPlugin`]), the connection watched and
/// made again after a drop ([`sandtable_net::udp::JoinPlugin`]). The app
/// has them from its start, so that its panel can join a game.
pub fn network_plugins(app: &mut App) {
    app.add_plugins((
        bevy_replicon::prelude::RepliconPlugins,
        bevy_replicon_renet::RepliconRenetPlugins,
        sandtable_net::ViewPlugin,
        sandtable_net::udp::JoinPlugin,
    ));
    sandtable_net::protocol(app);
}

/// Makes `app` a table joined over UDP with `invitation`
/// ([`network_plugins`], then [`connect`]), as a seat's player or a
/// spectator.
pub fn join(app: &mut App, invitation: &Invitation) -> Result<(), String> {
    network_plugins(app);
    connect(app.world_mut(), invitation)
}

/// Joins the table (with [`network_plugins`]) to the server that minted
/// `invitation`, as the seat's player or a spectator it is for: the
/// code sealed in its token comes with the connection, so that the
/// server seats the table as it lets it in, and the table claims the
/// place again whenever it connects again.
pub fn connect(world: &mut World, invitation: &Invitation) -> Result<(), String> {
    sandtable_net::udp::join_invited(world, invitation)?;
    // Nothing of the table's own game stays to be played meanwhile.
    clear_table(world);
    // The table's own bots sit out: the server seats a served game's.
    if let Some(mut seats) = world.get_resource_mut::<super::Seats>() {
        for seat in &mut seats.0 {
            *seat = super::Seat::Person;
        }
    }
    let seat = match invitation.place {
        Place::Seat(k) => Some(k),
        Place::Watch => None,
    };
    world.insert_resource(Remote::joined(invitation.server(), seat));
    Ok(())
}

/// Serves `host.scenario` from this table: the server of `sandtable-serve`
/// on a thread of its own, listening on `host.port` (loopback alone
/// without `host.public`), with `bots` seated; then the table joins it at
/// `host.seat` with that seat's code, as any other table would. Returns
/// what the host tells the players, a line each.
pub fn host(
    world: &mut World,
    host: &crate::options::Host,
    bots: &[(usize, u8)],
) -> Result<Vec<String>, String> {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
    use std::sync::atomic::{AtomicBool, Ordering};
    // The host's own table joins on loopback, which needs no router to
    // carry its packets back in; other machines join the public address.
    // Netcode takes clients of the addresses listed alone: both are.
    let (listen, loopback) = match host.public {
        Some(SocketAddr::V6(_)) => (
            IpAddr::V6(Ipv6Addr::UNSPECIFIED),
            IpAddr::V6(Ipv6Addr::LOCALHOST),
        ),
        Some(SocketAddr::V4(_)) => (
            IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            IpAddr::V4(Ipv4Addr::LOCALHOST),
        ),
        None => (
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::LOCALHOST),
        ),
    };
    let args = sandtable_serve::Args {
        scenario: host.scenario.clone(),
        port: host.port,
        listen,
        public: match host.public {
            Some(public) => vec![public, SocketAddr::new(loopback, host.port)],
            None => Vec::new(),
        },
        save: host.save.clone(),
        bots: bots.iter().map(|(p, l)| format!("{p}={l}")).collect(),
        turn_limit: None,
        invitations: None,
        max_unclaimed: sandtable_net::Limits::default().unclaimed,
        max_spectators: sandtable_net::Limits::default().spectators,
    };
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("sandtable-host".into())
        .spawn(move || {
            match sandtable_serve::prepare(&args, sandtable_serve::Logging::Shared) {
                Ok(mut prepared) => {
                    // The table stops its server when it leaves the game.
                    prepared
                        .app
                        .add_systems(Update, move |mut exit: MessageWriter<AppExit>| {
                            if stopped.load(Ordering::Relaxed) {
                                exit.write(AppExit::Success);
                            }
                        });
                    let told = (
                        prepared.listening,
                        prepared.seats.clone(),
                        prepared.record.clone(),
                        prepared.lines(&args.scenario),
                        prepared.spectators.clone(),
                        prepared.minter.clone(),
                    );
                    if tx.send(Ok(told)).is_ok() {
                        prepared.app.run();
                    }
                }
                Err(failure) => {
                    let _ = tx.send(Err(failure.message));
                }
            }
        })
        .map_err(|e| format!("no thread for the server: {e}"))?;
    let (listening, seats, record, lines, spectators, minter) = rx
        .recv()
        .map_err(|_| "the server stopped before it began".to_owned())??;
    let thread = std::sync::Arc::new(std::sync::Mutex::new(Some(thread)));
    let refuse = |why: String| {
        stop.store(true, Ordering::Relaxed);
        Err(why)
    };
    let Some(seat) = seats.get(usize::from(host.seat)) else {
        return refuse(format!(
            "seat {}: the scenario has {} players, numbered 0 to {}",
            host.seat,
            seats.len(),
            seats.len().saturating_sub(1)
        ));
    };
    if seat.player != sandtable_core::record::SeatPlayer::Person {
        return refuse(format!(
            "seat {}: a bot plays {}: the host plays another seat",
            host.seat, seat.name
        ));
    }
    let local = SocketAddr::new(loopback, listening.port());
    let address = host.public.unwrap_or(local);
    // The host's own table reaches its server on loopback, with a token
    // of its own for that address.
    let own = minter.reached_at(vec![local]).invite(
        Place::Seat(host.seat),
        &seat.code,
        sandtable_net::udp::since_epoch(),
    );
    if let Err(e) = own.and_then(|own| connect(world, &own)) {
        return refuse(format!("{local}: {e}"));
    }
    world.resource_mut::<Remote>().hosting = Some(Hosting {
        address,
        local_only: host.public.is_none(),
        seats: seats
            .iter()
            .map(|s| {
                let bot = match s.player {
                    sandtable_core::record::SeatPlayer::Bot(level) => Some(level),
                    sandtable_core::record::SeatPlayer::Person => None,
                };
                (s.name.clone(), bot, s.invitation.clone())
            })
            .collect(),
        spectator_code: spectators
            .first()
            .map(|(i, _)| i.code.clone())
            .unwrap_or_default(),
        spectators,
        minter,
        record,
        stop,
        thread,
    });
    Ok(lines)
}

/// What is typed in the panel's network fields.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct NetworkField {
    /// The invitation to join with: its link, or its file's path.
    pub invitation: String,
    /// The port to host on.
    pub port: String,
    /// The seat the host plays.
    pub host_seat: String,
}

impl Default for NetworkField {
    fn default() -> NetworkField {
        NetworkField {
            invitation: String::new(),
            port: "5000".to_owned(),
            host_seat: "0".to_owned(),
        }
    }
}

impl NetworkField {
    /// The join the fields ask for, or why they do not make one.
    pub fn join(&self) -> Result<NetworkRequest, String> {
        if self.invitation.trim().is_empty() {
            return Err(
                "paste the invitation the host gave (its sandtable://join/ link), or its file's path"
                    .to_owned(),
            );
        }
        let invitation = Invitation::from_link_or_file(&self.invitation)?;
        Ok(NetworkRequest::Join {
            invitation: Box::new(invitation),
        })
    }

    /// The hosting the fields ask for, or why they do not make one.
    pub fn host(&self) -> Result<NetworkRequest, String> {
        let (port, seat) = (self.port.trim(), self.host_seat.trim());
        Ok(NetworkRequest::Host {
            port: port
                .parse()
                .map_err(|_| format!("the port is a number from 0 to 65535, not `{port}`"))?,
            seat: seat.parse().map_err(|_| {
                format!("the seat is a player's index (0 is the first), not `{seat}`")
            })?,
        })
    }
}

/// What the panel asks of the network.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum NetworkRequest {
    /// Join the server that gave this invitation, at the place it is
    /// for.
    Join {
        /// The invitation.
        invitation: Box<Invitation>,
    },
    /// Serve the scenario in play from this table on this port, and play
    /// this seat; the panel's bot seats are the server's bots.
    Host {
        /// The UDP port.
        port: u16,
        /// The seat the host plays.
        seat: u16,
    },
    /// Leave the served game (stopping the server when this table hosts
    /// it): the built-in table comes back.
    Leave,
    /// Leave the served game, over, and look back at it: its record and
    /// scenario as the server sent them ([`ServedRecord`]), in review.
    ReviewRecord,
    /// Join as the panel's fields say ([`NetworkField::join`]).
    JoinTyped,
    /// Host as the panel's fields say ([`NetworkField::host`]).
    HostTyped,
}

/// Carries out what the panel asked of the network.
fn answer_network_requests(world: &mut World) {
    let Some(requests) = world
        .get_resource_mut::<Messages<NetworkRequest>>()
        .map(|mut m| m.drain().collect::<Vec<_>>())
    else {
        return;
    };
    for request in requests {
        let typed = match request {
            NetworkRequest::JoinTyped => world.resource::<NetworkField>().join(),
            NetworkRequest::HostTyped => world.resource::<NetworkField>().host(),
            other => Ok(other),
        };
        let result = match typed {
            Err(why) => Err(why),
            Ok(NetworkRequest::JoinTyped | NetworkRequest::HostTyped) => Ok(()),
            Ok(NetworkRequest::Join { invitation }) => join_server(world, &invitation),
            Ok(NetworkRequest::Host { port, seat }) => host_from_panel(world, port, seat),
            Ok(NetworkRequest::Leave) => {
                leave(world);
                Ok(())
            }
            Ok(NetworkRequest::ReviewRecord) => review_served(world),
        };
        if let Err(why) = result {
            world.resource_mut::<Notice>().error(why);
        }
    }
}

/// Why the table cannot join or host now, if it cannot.
fn may_join(world: &World) -> Result<(), String> {
    if world.contains_resource::<Remote>() {
        return Err("this table is in a served game already: leave it first".to_owned());
    }
    if !world.contains_resource::<bevy_replicon::prelude::RepliconChannels>() {
        return Err("this table has no network".to_owned());
    }
    let openers = world.resource::<Openers>().clone();
    if openers.0.iter().any(|o| (o.unsaved)(world)) {
        return Err(
                        "the game in play has moves not saved: save it (or start a new game) before joining or hosting"
                .to_owned(),
        );
    }
    Ok(())
}

/// Joins the table with `invitation`, as the seat's player or the
/// spectator it is for (`--join` and the panel's Join): refused while
/// the table is in a served game or has moves not saved.
pub fn join_server(world: &mut World, invitation: &Invitation) -> Result<(), String> {
    may_join(world)?;
    connect(world, invitation)?;
    let place = match invitation.place {
        Place::Seat(k) => format!("seat {k}"),
        Place::Watch => "a spectator".to_owned(),
    };
    world.resource_mut::<Notice>().info(format!(
        "joining {} served at {} as {place} (encrypted)",
        invitation.title,
        invitation.server()
    ));
    Ok(())
}

fn host_from_panel(world: &mut World, port: u16, seat: u16) -> Result<(), String> {
    may_join(world)?;
    let openers = world.resource::<Openers>().clone();
    let source = openers.0.iter().find_map(|o| (o.scenario)(world));
    let scenario = match source {
        Some(ScenarioSource::File(path)) => path,
        Some(ScenarioSource::Embedded) => {
            return Err(
                "the built-in table has no file to serve: open scenarios/standard.ron, then host"
                    .to_owned(),
            );
        }
        Some(ScenarioSource::Unsaved) => {
            return Err(
                "save the layout to a file first: the server reads it from there".to_owned(),
            );
        }
        None => return Err("open a scenario to host".to_owned()),
    };
    let bots: Vec<(usize, u8)> = world
        .resource::<super::Seats>()
        .0
        .iter()
        .enumerate()
        .filter_map(|(k, s)| match s {
            super::Seat::Bot(level) => Some((k, *level)),
            super::Seat::Person => None,
        })
        .collect();
    let plan = crate::options::Host {
        scenario,
        port,
        public: None,
        seat,
        save: None,
    };
    let lines = host(world, &plan, &bots)?;
    for line in &lines {
        info!("{line}");
    }
    world
        .resource_mut::<Notice>()
        .info(format!("serving this scenario on port {port}"));
    Ok(())
}

/// Puts `opened` on the table, in play mode, every other game gone first:
/// one game is on the table at a time.
fn on_table_alone(world: &mut World, opened: Box<dyn super::open::OpenedGame>) {
    if let Some(mut next) = world.get_resource_mut::<NextState<crate::mode::Mode>>() {
        next.set(crate::mode::Mode::Play);
    }
    let openers = world.resource::<Openers>().clone();
    openers.leave_all_but(opened.system(), world);
    opened.put_on_table(world);
}

/// Takes every game off the table: a table joining a server shows
/// nothing of its own until the server's view comes.
fn clear_table(world: &mut World) {
    let openers = world.resource::<Openers>().clone();
    openers.leave_all_but("", world);
    if let Some(mut next) = world.get_resource_mut::<NextState<super::open::OnTable>>() {
        next.set(super::open::OnTable(None));
    }
}

/// Leaves the served game: the connection ends (the server keeps the
/// seat for its code), the server stops when this table hosts it, and
/// the built-in table comes back.
fn leave(world: &mut World) {
    let Some(remote) = world.remove_resource::<Remote>() else {
        return;
    };
    world.remove_resource::<ServedRecord>();
    sandtable_net::udp::leave_world(world);
    if let Some(mut logs) = world.get_resource_mut::<Logs>() {
        *logs = Logs::default();
    }
    let stopped = remote.hosting.as_ref().map(Hosting::stop_server);
    let openers = world.resource::<Openers>().clone();
    match openers.open(std::path::Path::new(super::files::EMBEDDED), None) {
        Ok(opened) => on_table_alone(world, opened),
        Err(e) => world.resource_mut::<Notice>().error(e.message),
    }
    let words = match (&remote.hosting, stopped, remote.seated_at()) {
        (Some(h), Some(true), _) => format!(
            "left the game and stopped its server; its record is in {}",
            h.record.display()
        ),
        (Some(h), _, _) => format!(
            "left the game; its server is stopping (a bot was thinking); its record is in {}",
            h.record.display()
        ),
        (None, _, Some(_)) => {
            "left the served game: the server keeps the seat for its code".to_owned()
        }
        (None, _, None) => "left the server".to_owned(),
    };
    world.resource_mut::<Notice>().info(words);
}

/// The record of a served game that is over and its scenario, as the
/// server sent them to every seat, kept in [`ServedFolder`] so that the
/// table can look back at the game as its referee: the record's file, or
/// why they could not be kept.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct ServedRecord(pub Result<PathBuf, String>);

/// Where the records of served games are kept: `received` in the data
/// folder ([`super::files::data_folder`]), apart from the `served`
/// folder where a server writes its referee's records.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct ServedFolder(pub PathBuf);

impl Default for ServedFolder {
    fn default() -> Self {
        ServedFolder(super::files::data_folder().join("received"))
    }
}

/// The most a record or a scenario a server sends may hold: anything
/// longer is not kept.
pub const MOST_SENT: usize = 8 << 20;

/// Once the served game is over, keeps the record and the scenario the
/// server sent every seat, once.
fn keep_served_record(world: &mut World) {
    if world.contains_resource::<ServedRecord>() {
        return;
    }
    let sent = {
        let mut public = world.query::<&PublicView>();
        public
            .iter(world)
            .next()
            .and_then(|v| Some((v.record.clone()?, v.scenario.clone()?)))
    };
    let Some((record, scenario)) = sent else {
        return;
    };
    let folder = world.get_resource_or_init::<ServedFolder>().0.clone();
    let kept = write_served(&folder, &record, &scenario);
    match &kept {
        Ok(path) => world.resource_mut::<Notice>().info(format!(
            "the game is over: the server sent its record and scenario, kept as {}; Review looks back at it as its referee",
            path.display()
        )),
        Err(why) => world
            .resource_mut::<Notice>()
            .error(format!("the served game's record was not kept: {why}")),
    }
    world.insert_resource(ServedRecord(kept));
}

/// Writes the `record` and `scenario` a server sent into `folder`, under
/// a name no file there has (the record's scenario's name, in letters,
/// digits, `-` and `_`), the record naming the scenario beside it.
/// Returns the record's file. What a stranger sent is only written as
/// text, under a name of the table's own making.
pub fn write_served(folder: &Path, record: &str, scenario: &str) -> Result<PathBuf, String> {
    for (what, text) in [("record", record), ("scenario", scenario)] {
        if text.len() > MOST_SENT {
            return Err(format!(
                "its {what} is {} bytes, more than the {MOST_SENT} a table keeps",
                text.len()
            ));
        }
    }
    let named = record
        .lines()
        .find_map(|l| l.trim().strip_prefix("[Scenario \"")?.strip_suffix("\"]"))
        .and_then(|n| {
            Path::new(n)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let mut stem: String = named
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(60)
        .collect();
    if stem.is_empty() {
        stem = "served".to_owned();
    }
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let name = (1..10_000)
        .map(|k| match k {
            1 => stem.clone(),
            k => format!("{stem}-{k}"),
        })
        .find(|n| {
            !folder.join(format!("{n}.ron")).exists() && !folder.join(format!("{n}.moves")).exists()
        })
        .ok_or_else(|| format!("{}: no free name for {stem}", folder.display()))?;
    let scenario_file = folder.join(format!("{name}.ron"));
    let record_file = folder.join(format!("{name}.moves"));
    // The record names the scenario beside it.
    let header = format!(
        "[{} \"{name}.ron\"]",
        sandtable_core::record::header::SCENARIO
    );
    let mut lines: Vec<&str> = record
        .lines()
        .filter(|l| !l.trim().starts_with("[Scenario \""))
        .collect();
    lines.insert(0, &header);
    let text = lines.join("\n") + "\n";
    let write = |path: &Path, bytes: &[u8]| {
        sandtable_scenario::files::write_atomically(
            path,
            bytes,
            sandtable_scenario::files::Backups::None,
        )
        .map_err(|e| format!("{}: {e}", path.display()))
    };
    write(&scenario_file, scenario.as_bytes())?;
    write(&record_file, text.as_bytes())?;
    Ok(record_file)
}

/// Leaves the served game, over, and opens its record in review.
fn review_served(world: &mut World) -> Result<(), String> {
    let path = match world.get_resource::<ServedRecord>().map(|r| r.0.clone()) {
        Some(Ok(path)) => path,
        Some(Err(why)) => return Err(format!("the served game's record was not kept: {why}")),
        None => {
            return Err(
                "the served game is reviewed from its record, which the server sends every seat at its end"
                    .to_owned(),
            );
        }
    };
    leave(world);
    super::open::open_requested(
        world,
        &super::LoadRequest {
            path,
            until_line: None,
            discard_unsaved: true,
        },
    );
    world.write_message(super::review::ReviewRequest::Open);
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
    app.add_message::<NetworkRequest>()
        .init_resource::<NetworkField>()
        .add_systems(Last, stop_hosted_server)
        .add_systems(
            Update,
            (
                follow_server.in_set(crate::schedule::FlowSteps::Open),
                send_outgoing.after(crate::schedule::FlowSteps::Play),
                show_refusals
                    .run_if(resource_exists::<Messages<Refused>>)
                    .in_set(crate::schedule::FlowSteps::Open),
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
    let Some((may_send, connection)) = world
        .get_resource::<Remote>()
        .map(|r| (r.may_send(), r.connection.clone()))
    else {
        return;
    };
    let openers = world.resource::<Openers>().clone();
    for opener in &openers.0 {
        for asked in (opener.outgoing)(world) {
            if !may_send {
                // Sent now, it would be lost with the connection; the
                // table's game is the server's last view, unchanged.
                let why = match &connection {
                    Connection::Lost => {
                        "not sent: the connection to the server dropped (the table is connecting again)"
                    }
                    Connection::Silent => {
                        "not sent: nothing heard from the server for a while (it may have stopped)"
                    }
                    Connection::Failed(_) => "not sent: the table could not join the server",
                    _ => "not sent: the table is not connected to the server yet",
                };
                world.resource_mut::<Notice>().error(why);
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
    answer_network_requests(world);
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
            let back = matches!(remote.connection, Connection::Lost | Connection::Silent);
            let words = match (remote.seat, back) {
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
    keep_served_record(world);
    let Some(sent) = sent(world, remote.seat) else {
        return;
    };
    // Back after a drop, the seat's view comes once the claim is taken
    // again: until then the table keeps the seat's last view rather than
    // the public's.
    if sent.viewer == Viewer::Public && remote.seated_at().is_some() {
        return;
    }
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
            Ok(opened) => on_table_alone(world, opened),
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
    let mut shown = world
        .get_resource_mut::<ActiveGame<S>>()
        .ok_or_else(|| format!("no game of {} on the table", S::KEY))?;
    // In review, the game comes to the one reviewed, and the position
    // shown stays.
    let active = match shown.reviewing.as_deref_mut() {
        Some(whole) => whole,
        None => &mut *shown,
    };
    active.game = Undoable::new(game);
    active.outbox.get_or_insert_with(Vec::new);
    active.viewer = sent.viewer;
    active.handover = None;
    if let Some(lines) = lines {
        active.log = lines.into_iter().map(|l| LogLine::new(l, false)).collect();
    }
    active.revision += 1;
    // The views are of the game kept up to date: the one reviewed, in
    // review.
    let (id, game, log) = (active.id, active.game.game().clone(), active.log.clone());
    world
        .get_resource_or_insert_with(ServedViews::<S>::default)
        .keep(id, sent.revision, game, &log);
    Ok(())
}

/// Every view of a served game this table was sent, as it came: what its
/// seat (or the public) saw at each moment, for a review while the game
/// goes on ([`super::review`]). The log's lines are kept once each.
#[derive(Resource)]
pub struct ServedViews<S: TableSystem> {
    /// The game on the table they are of, by its id.
    pub id: u64,
    /// Each view: the revision the server gave it, its game, and its log
    /// as lines of [`ServedViews::lines`].
    pub views: Vec<(u32, S::Game, Vec<u32>)>,
    /// Every line any view's log held.
    pub lines: Vec<String>,
    known: std::collections::HashMap<String, u32>,
}

impl<S: TableSystem> Default for ServedViews<S> {
    fn default() -> Self {
        ServedViews {
            id: 0,
            views: Vec::new(),
            lines: Vec::new(),
            known: std::collections::HashMap::new(),
        }
    }
}

impl<S: TableSystem> ServedViews<S> {
    /// Keeps a view of the game `id`: a new one for a new revision, else
    /// the last one's log brought up to date (the log came after its
    /// game). Another game's views are let go.
    fn keep(&mut self, id: u64, revision: u32, game: S::Game, log: &[LogLine]) {
        if self.id != id {
            *self = ServedViews::default();
            self.id = id;
        }
        let mut ids = Vec::with_capacity(log.len());
        for line in log {
            let next = self.lines.len() as u32;
            let k = *self.known.entry(line.text.clone()).or_insert(next);
            if k == next {
                self.lines.push(line.text.clone());
            }
            ids.push(k);
        }
        match self.views.last_mut() {
            Some(last) if last.0 == revision => {
                last.1 = game;
                last.2 = ids;
            }
            _ => self.views.push((revision, game, ids)),
        }
    }

    /// The log of view `k`, as its viewer read it then.
    pub fn log(&self, k: usize) -> Vec<LogLine> {
        self.views.get(k).map_or_else(Vec::new, |(_, _, ids)| {
            ids.iter()
                .map(|&i| LogLine::new(self.lines[i as usize].clone(), false))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_a_server_sent_is_kept_under_a_name_of_the_table_s_own_making() {
        let folder =
            std::env::temp_dir().join(format!("sandtable-received-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        let scenario = "(rules: \"cache\")";
        // A name that climbs out of the folder, or holds anything but
        // letters, digits, - and _, is cut down to what it may hold.
        let sent = "[Scenario \"../../../etc/pass wd;rm.ron\"]\n[Seed \"4\"]\nactivate E7\n";
        let first = write_served(&folder, sent, scenario).expect("kept");
        assert_eq!(first, folder.join("passwdrm.moves"));
        let text = std::fs::read_to_string(&first).expect("written");
        assert_eq!(
            text,
            "[Scenario \"passwdrm.ron\"]\n[Seed \"4\"]\nactivate E7\n"
        );
        assert_eq!(
            std::fs::read_to_string(folder.join("passwdrm.ron")).expect("written"),
            scenario
        );
        // Never over a file kept before.
        let second = write_served(&folder, sent, scenario).expect("kept");
        assert_eq!(second, folder.join("passwdrm-2.moves"));
        assert_eq!(std::fs::read_to_string(&first).expect("kept"), text);
        // No [Scenario] header: a name of its own, the header added.
        let bare = write_served(&folder, "activate E7\n", scenario).expect("kept");
        assert_eq!(bare, folder.join("served.moves"));
        assert!(
            std::fs::read_to_string(&bare)
                .expect("written")
                .starts_with("[Scenario \"served.ron\"]\n")
        );
        // Too long: nothing written.
        let huge = "x".repeat(MOST_SENT + 1);
        let why = write_served(&folder, &huge, scenario).expect_err("refused");
        assert!(why.contains("more than"), "{why}");
        assert!(!folder.join("served-2.moves").exists());
        let _ = std::fs::remove_dir_all(&folder);
    }
}
