//! The server and its clients over UDP: renet's netcode with
//! `ServerAuthentication::Unsecure` (neither encrypted nor authenticated:
//! the seat codes are the only guard), each channel's memory bounded.
//! The server listens behind its door ([`crate::door`]), which reads
//! every datagram before netcode does; a client comes with its code in
//! its connection's user data, so that a seat's player always gets in.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetChannelsExt, RenetClient, RenetServer};

use crate::protocol_id;

/// The most bytes a channel from a client may hold: commands are at most
/// [`crate::MAX_PLAY_BYTES`], so this is a few hundred of them. A client
/// that sends more than renet can hold is disconnected.
pub const CLIENT_CHANNEL_BYTES: usize = 64 * 1024;

/// The most bytes a channel from the server may hold for one client: a
/// seat's view is a few kilobytes and its log grows with the game.
pub const SERVER_CHANNEL_BYTES: usize = 2 * 1024 * 1024;

/// How long a client tries to connect before it says why it could not.
pub const JOIN_WAIT: Duration = Duration::from_secs(5);

/// How long a seated client may send nothing before its seat shows as
/// not held ([`crate::Silent`]): netcode's own timeout, which ends the
/// connection, is 15 s. A table sends at least once a frame.
pub const SILENCE: Duration = Duration::from_secs(3);

/// The silence after which a client's seat shows as not held: [`SILENCE`]
/// unless set otherwise (tests).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SilenceLimit(pub Duration);

impl Default for SilenceLimit {
    fn default() -> SilenceLimit {
        SilenceLimit(SILENCE)
    }
}

/// Marks the clients the server has not heard from for the
/// [`SilenceLimit`] as [`crate::Silent`], and unmarks them when they are
/// heard from again.
fn watch_silence(
    transport: Option<Res<crate::door::Door>>,
    limit: Res<SilenceLimit>,
    clients: Query<(
        Entity,
        &bevy_replicon::shared::backend::connected_client::NetworkId,
        Has<crate::Silent>,
    )>,
    mut commands: Commands,
) {
    let Some(transport) = transport else {
        return;
    };
    for (entity, id, silent) in &clients {
        let quiet = transport
            .time_since_last_received_packet(id.get())
            .is_some_and(|t| t >= limit.0);
        match (quiet, silent) {
            (true, false) => {
                commands.entity(entity).insert(crate::Silent);
            }
            (false, true) => {
                commands.entity(entity).remove::<crate::Silent>();
            }
            _ => {}
        }
    }
}

/// How long a client whose connection dropped waits before each new
/// attempt to connect again.
pub const REJOIN_WAIT: Duration = Duration::from_secs(1);

/// Renet's connection for the channels the protocol registered, with
/// each channel's memory bounded ([`CLIENT_CHANNEL_BYTES`],
/// [`SERVER_CHANNEL_BYTES`]).
pub fn connection(channels: &RepliconChannels) -> ConnectionConfig {
    let mut server = channels.server_configs();
    for c in &mut server {
        c.max_memory_usage_bytes = SERVER_CHANNEL_BYTES;
    }
    let mut client = channels.client_configs();
    for c in &mut client {
        c.max_memory_usage_bytes = CLIENT_CHANNEL_BYTES;
    }
    ConnectionConfig {
        server_channels_config: server,
        client_channels_config: client,
        ..Default::default()
    }
}

fn since_epoch() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
}

/// Makes `app` (with [`crate::protocol`] registered, a
/// [`crate::ServePlugin`] added, and finished) a server listening on
/// `address` behind its door ([`crate::door::Door`]); the address it
/// listens on (a port of 0 takes a free one). Netcode takes only clients
/// that connect to one of its `public` addresses: empty, the address it
/// listens on.
pub fn listen(
    app: &mut App,
    address: SocketAddr,
    public: &[SocketAddr],
) -> std::io::Result<SocketAddr> {
    listen_with_key(app, address, public, [0; 32])
}

/// [`listen`], the server holding the private `key` of netcode's secure
/// mode (all zeros: unsecured): it takes only clients whose connect
/// tokens it minted with that key ([`crate::door::mint_token`]), and
/// every packet after the handshake is encrypted and authenticated.
pub fn listen_with_key(
    app: &mut App,
    address: SocketAddr,
    public: &[SocketAddr],
    key: [u8; 32],
) -> std::io::Result<SocketAddr> {
    let socket = UdpSocket::bind(address)?;
    let address = socket.local_addr()?;
    let public_addresses = if public.is_empty() {
        vec![address]
    } else {
        public.to_vec()
    };
    let admission = app
        .world()
        .get_resource::<crate::Admission>()
        .cloned()
        .ok_or_else(|| {
            std::io::Error::other(
                "the server has no admission rules: add ServePlugin and finish the app first",
            )
        })?;
    let door = crate::door::Door::new(
        socket,
        protocol_id(),
        public_addresses,
        key,
        admission.slots(),
        since_epoch(),
    )?;
    let renet = RenetServer::new(connection(app.world().resource::<RepliconChannels>()));
    app.insert_resource(renet)
        .insert_resource(door)
        .init_resource::<SilenceLimit>()
        .add_systems(Update, watch_silence.before(crate::Serving));
    crate::door::plugin(app);
    Ok(address)
}

/// A client trying to connect, and what it says when it cannot.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Joining {
    /// The server's address, as the player gave it.
    pub server: SocketAddr,
    /// When it began, on the real clock.
    began: Option<Duration>,
    /// Connected once.
    pub connected: bool,
    /// Why it could not connect within [`JOIN_WAIT`], in words.
    pub failed: Option<String>,
    /// Its connection dropped and it has not connected again yet.
    pub lost: bool,
    /// Connections made again after a drop.
    pub rejoined: u32,
    /// The server dropped it and said why ([`crate::TurnedAway`]): it
    /// does not connect again by itself.
    pub turned_away: bool,
    /// The id of the client's last connection.
    client_id: u64,
    /// The code it comes with: a seat's, the spectator code, or empty.
    code: String,
    /// When the last attempt to connect again began, on the real clock.
    retried: Option<Duration>,
}

/// The transport and renet's client of a new connection to `server`.
fn connect(
    channels: &RepliconChannels,
    server: SocketAddr,
    client_id: u64,
    code: &str,
) -> std::io::Result<(RenetClient, NetcodeClientTransport)> {
    let local: SocketAddr = match server {
        SocketAddr::V4(_) => (std::net::Ipv4Addr::UNSPECIFIED, 0).into(),
        SocketAddr::V6(_) => (std::net::Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    let socket = UdpSocket::bind(local)?;
    let transport = NetcodeClientTransport::new(
        since_epoch(),
        ClientAuthentication::Unsecure {
            client_id,
            protocol_id: protocol_id(),
            server_addr: server,
            user_data: Some(crate::door::code_data(code)),
        },
        socket,
    )
    .map_err(std::io::Error::other)?;
    Ok((RenetClient::new(connection(channels)), transport))
}

/// The id of a connection made again: another than the last (the server
/// may still hold the last until it times out), from the last and the
/// clock.
fn next_client_id(last: u64) -> u64 {
    let mut z = last ^ (since_epoch().as_nanos() as u64);
    // splitmix64's finaliser.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    let id = z ^ (z >> 31);
    if id == last { id.wrapping_add(1) } else { id }
}

/// Makes `app` (with [`crate::protocol`] registered and finished) a
/// client of the server at `server`, as `client_id` (unique among the
/// server's clients; a random number will do), coming with `code`: a
/// seat's, which seats it, the spectator code, which lets it watch, or
/// empty (it watches where watching is open, and must claim a place
/// within [`crate::CLAIM_WITHIN`] otherwise). Add [`JoinPlugin`] to be
/// told when it does not connect.
pub fn join(app: &mut App, server: SocketAddr, client_id: u64, code: &str) -> std::io::Result<()> {
    join_world(app.world_mut(), server, client_id, code)
}

/// [`join`] on a running app's world: a table that joins from its panel.
pub fn join_world(
    world: &mut World,
    server: SocketAddr,
    client_id: u64,
    code: &str,
) -> std::io::Result<()> {
    let (renet, transport) = connect(
        world.resource::<RepliconChannels>(),
        server,
        client_id,
        code,
    )?;
    // Removed first, so that the client is an added resource (replicon's
    // client begins connecting then).
    world.remove_resource::<RenetClient>();
    world.remove_resource::<NetcodeClientTransport>();
    world.insert_resource(renet);
    world.insert_resource(transport);
    world.insert_resource(Joining {
        server,
        began: None,
        connected: false,
        failed: None,
        lost: false,
        rejoined: 0,
        turned_away: false,
        client_id,
        code: code.to_owned(),
        retried: None,
    });
    Ok(())
}

/// Ends a client's connection: netcode tells the server at once, and
/// what the server replicated is despawned. The client can join again.
pub fn leave_world(world: &mut World) {
    if let Some(mut transport) = world.get_resource_mut::<NetcodeClientTransport>() {
        transport.disconnect();
    }
    world.remove_resource::<NetcodeClientTransport>();
    world.remove_resource::<RenetClient>();
    world.remove_resource::<Joining>();
    world.remove_resource::<Claiming>();
    let sent: Vec<Entity> = world
        .query_filtered::<Entity, With<bevy_replicon::client::Remote>>()
        .iter(world)
        .collect();
    for entity in sent {
        world.despawn(entity);
    }
    if let Some(mut state) = world.get_resource_mut::<NextState<ClientState>>() {
        state.set(ClientState::Disconnected);
    }
}

/// A client's watch on its connection: a server of another version
/// answers nothing a client can read (netcode drops the request, and
/// replicon's protocol mismatch travels unreliably), so after
/// [`JOIN_WAIT`] without a connection the client says what may be wrong.
/// A connection that drops is made again, every [`REJOIN_WAIT`] until
/// the server answers, and the client claims its seat again
/// ([`Claiming`]); what the server sent before the drop is despawned,
/// so that the views are the server's new ones alone.
pub struct JoinPlugin;

impl Plugin for JoinPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (hear_turned_away, watch_joining).chain())
            .add_systems(OnEnter(ClientState::Connected), claim_on_connect)
            .add_systems(OnEnter(ClientState::Disconnected), forget_what_was_sent);
    }
}

/// Despawns what the server replicated: after a drop, replicon forgets
/// which entity was which, and the server sends them all again.
fn forget_what_was_sent(
    sent: Query<Entity, With<bevy_replicon::client::Remote>>,
    mut commands: Commands,
) {
    for entity in &sent {
        commands.entity(entity).despawn();
    }
}

/// The seat a client claims whenever it connects (with [`JoinPlugin`]):
/// a client back after a dropped connection gets its seat and its view
/// again.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Claiming(pub crate::Claim);

fn claim_on_connect(claiming: Option<Res<Claiming>>, mut claims: MessageWriter<crate::Claim>) {
    if let Some(claiming) = claiming {
        claims.write(claiming.0.clone());
    }
}

/// What a client says when it could not connect to `server` in time.
pub fn not_joined(server: SocketAddr) -> String {
    format!(
        "{server} is not a Sandtable server of this version ({}), or is unreachable",
        sandtable_core::record::ENGINE
    )
}

/// A server that drops the client says why first: the client keeps the
/// words as its failure and stops trying.
fn hear_turned_away(
    mut turned: MessageReader<crate::TurnedAway>,
    joining: Option<ResMut<Joining>>,
) {
    let Some(mut joining) = joining else {
        turned.clear();
        return;
    };
    if let Some(last) = turned.read().last() {
        warn!("the server turned this client away: {}", last.text);
        joining.failed = Some(format!("{}: {}", joining.server, last.text));
        joining.turned_away = true;
    }
}

fn watch_joining(
    time: Res<Time<Real>>,
    joining: Option<ResMut<Joining>>,
    client: Option<Res<RenetClient>>,
    channels: Res<RepliconChannels>,
    mut commands: Commands,
) {
    let (Some(mut joining), Some(client)) = (joining, client) else {
        return;
    };
    let now = time.elapsed();
    let began = *joining.began.get_or_insert(now);
    if client.is_connected() {
        if !joining.connected {
            joining.connected = true;
        }
        if joining.lost {
            joining.lost = false;
            joining.rejoined += 1;
            info!("connected again to {}", joining.server);
        }
        return;
    }
    if joining.connected && client.is_disconnected() {
        if joining.turned_away {
            return;
        }
        if !joining.lost {
            joining.lost = true;
            warn!(
                "the connection to {} dropped: connecting again",
                joining.server
            );
        }
        let due = joining
            .retried
            .is_none_or(|at| now.saturating_sub(at) >= REJOIN_WAIT);
        if due {
            joining.retried = Some(now);
            let id = next_client_id(joining.client_id);
            match connect(&channels, joining.server, id, &joining.code) {
                Ok((renet, transport)) => {
                    joining.client_id = id;
                    // Removed first, so that the new client is an added
                    // resource: replicon's client begins connecting then.
                    // Not when the client left meanwhile (no `Joining`).
                    commands.queue(move |world: &mut World| {
                        if world.contains_resource::<Joining>() {
                            world.remove_resource::<RenetClient>();
                            world.remove_resource::<NetcodeClientTransport>();
                            world.insert_resource(renet);
                            world.insert_resource(transport);
                        }
                    });
                }
                Err(e) => warn!("cannot connect again to {}: {e}", joining.server),
            }
        }
        return;
    }
    if !joining.connected && joining.failed.is_none() && now.saturating_sub(began) >= JOIN_WAIT {
        let why = not_joined(joining.server);
        error!("{why}");
        joining.failed = Some(why);
    }
}
