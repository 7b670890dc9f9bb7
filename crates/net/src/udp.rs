//! The server and its clients over UDP: renet's netcode, each channel's
//! memory bounded. A server with a private key ([`listen_with_key`])
//! takes only clients with a connect token it minted, and every packet
//! after the handshake is encrypted and authenticated: a client comes
//! with an invitation ([`crate::invite`]). A server without
//! ([`listen`]) is netcode's unsecured mode, where the codes are the only
//! guard and everything crosses the network in clear: the tests' and
//! the control runs'. The server listens behind its door
//! ([`crate::door`]) and a client behind its own ([`crate::client_door`]),
//! which read every datagram before netcode does; a client comes with
//! its code in its connection's user data (sealed in secure mode), so
//! that a seat's player always gets in.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::ClientAuthentication;
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetChannelsExt, RenetClient, RenetServer};
use renetcode::ConnectToken;

use crate::client_door::ClientDoor;
use crate::invite::{Invitation, Minter};
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

/// How long a connected client may hear nothing from its server before it
/// says the server is silent ([`Joining::silent`]), within the 3 s a
/// person waits: netcode's keep-alive comes four times a second, and its
/// own timeout, which ends the connection, is 15 s.
pub const SERVER_SILENCE: Duration = Duration::from_secs(2);

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

/// The real clock, since 1970: netcode's.
pub fn since_epoch() -> Duration {
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
/// every packet after the handshake is encrypted and authenticated. A
/// server with a key gives each client that takes a place a fresh token
/// for its next connection ([`crate::Renewal`]), minted by the
/// [`Minter`] it keeps, for the public addresses.
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
    if key != [0; 32] {
        // Fresh tokens need no title: they are no invitations.
        app.insert_resource(Minter::new(key, public_addresses.clone(), ""));
    }
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

/// What a client comes with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pass {
    /// A code (a seat's, the spectator code, or empty), to a server of
    /// netcode's unsecured mode ([`listen`]).
    Code(String),
    /// An invitation, to the server with the key that minted it
    /// ([`listen_with_key`]), and the freshest token that server gave
    /// this client since ([`crate::Renewal`]), for its next connection.
    Invited {
        /// The invitation.
        invitation: Box<Invitation>,
        /// The freshest token given.
        renewal: Option<Box<ConnectToken>>,
    },
}

/// A client trying to connect, and what it says when it cannot.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Joining {
    /// The server's address, as the player gave it (the invitation's
    /// first).
    pub server: SocketAddr,
    /// When it began, on the real clock.
    began: Option<Duration>,
    /// Connected once.
    pub connected: bool,
    /// Why it could not connect within [`JOIN_WAIT`], in words.
    pub failed: Option<String>,
    /// Its connection dropped and it has not connected again yet.
    pub lost: bool,
    /// Connected, it has heard nothing from the server for
    /// [`SERVER_SILENCE`]: the server may be gone, and what it last said
    /// of the other seats may no longer hold.
    pub silent: bool,
    /// Connections made again after a drop.
    pub rejoined: u32,
    /// The server dropped it and said why ([`crate::TurnedAway`]): it
    /// does not connect again by itself.
    pub turned_away: bool,
    /// The id of the client's last connection.
    client_id: u64,
    /// What it comes with.
    pass: Pass,
    /// When the last attempt to connect again began, on the real clock.
    retried: Option<Duration>,
}

impl Joining {
    /// What it comes with, the freshest token given included.
    pub fn pass(&self) -> &Pass {
        &self.pass
    }

    /// The id of its last connection.
    pub fn client_id(&self) -> u64 {
        self.client_id
    }
}

/// The transport and renet's client of a new connection to `server` as
/// `client_id` (with a code) or as its token says (with an invitation).
/// `socket`, when given, is the last connection's: a token is bound to
/// the first address that uses it, so a token tried again is tried from
/// the same address.
fn connect(
    channels: &RepliconChannels,
    server: SocketAddr,
    client_id: u64,
    pass: &Pass,
    socket: Option<UdpSocket>,
) -> std::io::Result<(RenetClient, ClientDoor)> {
    let authentication = match pass {
        Pass::Code(code) => ClientAuthentication::Unsecure {
            client_id,
            protocol_id: protocol_id(),
            server_addr: server,
            user_data: Some(crate::door::code_data(code)),
        },
        Pass::Invited {
            invitation,
            renewal,
        } => ClientAuthentication::Secure {
            connect_token: renewal.as_deref().unwrap_or(&invitation.token).clone(),
        },
    };
    let local: SocketAddr = match server {
        SocketAddr::V4(_) => (std::net::Ipv4Addr::UNSPECIFIED, 0).into(),
        SocketAddr::V6(_) => (std::net::Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    let socket = match socket {
        Some(socket) => socket,
        None => UdpSocket::bind(local)?,
    };
    let door = ClientDoor::new(since_epoch(), authentication, socket)?;
    Ok((RenetClient::new(connection(channels)), door))
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

/// Makes `app` (with [`crate::protocol`] registered, [`JoinPlugin`]
/// added, and finished) a client of the unsecured server at `server`, as
/// `client_id` (unique among the server's clients; a random number will
/// do), coming with `code`: a seat's, which seats it, the spectator
/// code, which lets it watch, or empty (it watches where watching is
/// open, and must claim a place within [`crate::CLAIM_WITHIN`]
/// otherwise).
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
    join_with(world, server, client_id, Pass::Code(code.to_owned()))
}

/// Makes the app of `world` (as for [`join`]) a client of the server
/// that minted `invitation`, claiming the place it is for whenever it
/// connects ([`Claiming`]). An expired invitation is refused here, with
/// the day it expired.
pub fn join_invited(world: &mut World, invitation: &Invitation) -> Result<(), String> {
    invitation.check_time(since_epoch().as_secs())?;
    let server = invitation.server();
    join_with(
        world,
        server,
        invitation.token.client_id,
        Pass::Invited {
            invitation: Box::new(invitation.clone()),
            renewal: None,
        },
    )
    .map_err(|e| format!("{server}: {e}"))?;
    world.insert_resource(Claiming(invitation.claim()));
    Ok(())
}

fn join_with(
    world: &mut World,
    server: SocketAddr,
    client_id: u64,
    pass: Pass,
) -> std::io::Result<()> {
    let (renet, door) = connect(
        world.resource::<RepliconChannels>(),
        server,
        client_id,
        &pass,
        None,
    )?;
    // Removed first, so that the client is an added resource (replicon's
    // client begins connecting then).
    world.remove_resource::<RenetClient>();
    world.remove_resource::<ClientDoor>();
    world.insert_resource(renet);
    world.insert_resource(door);
    world.insert_resource(Joining {
        server,
        began: None,
        connected: false,
        failed: None,
        lost: false,
        silent: false,
        rejoined: 0,
        turned_away: false,
        client_id,
        pass,
        retried: None,
    });
    Ok(())
}

/// Ends a client's connection: netcode tells the server at once, and
/// what the server replicated is despawned. The client can join again.
pub fn leave_world(world: &mut World) {
    if let Some(mut door) = world.get_resource_mut::<ClientDoor>() {
        door.disconnect();
    }
    world.remove_resource::<ClientDoor>();
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

/// A client's transport ([`ClientDoor`]) and its watch on its
/// connection: a server of another version answers nothing a client can
/// read (netcode drops the request, and replicon's protocol mismatch
/// travels unreliably), nor does a server whose key did not mint the
/// invitation, so after [`JOIN_WAIT`] without a connection the client
/// says what may be wrong. A connection that drops is made again, every
/// [`REJOIN_WAIT`] until the server answers, with the freshest token the
/// server gave ([`crate::Renewal`]), and the client claims its seat again
/// ([`Claiming`]); what the server sent before the drop is despawned,
/// so that the views are the server's new ones alone.
pub struct JoinPlugin;

impl Plugin for JoinPlugin {
    fn build(&self, app: &mut App) {
        crate::client_door::plugin(app);
        app.add_systems(
            Update,
            (hear_renewals, hear_turned_away, watch_joining).chain(),
        )
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

/// What a client with an invitation says when it could not connect to
/// `server` in time: the server answers no token it did not mint.
pub fn not_joined_invited(server: SocketAddr) -> String {
    format!(
        "{server} did not answer the invitation: it is not the server that made it (a server started anew without its record makes new ones), not a Sandtable server of this version ({}), or is unreachable",
        sandtable_core::record::ENGINE
    )
}

/// Keeps the freshest token the server gave, for the next connection:
/// one that does not read as a token of this build is dropped.
fn hear_renewals(mut renewals: MessageReader<crate::Renewal>, joining: Option<ResMut<Joining>>) {
    let Some(mut joining) = joining else {
        renewals.clear();
        return;
    };
    for renewal in renewals.read() {
        let Some(token) = crate::invite::token_from_bytes(&renewal.token) else {
            warn!("the server sent a token that is none");
            continue;
        };
        if let Pass::Invited { renewal, .. } = &mut joining.pass {
            *renewal = Some(Box::new(token));
        }
    }
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
    door: Option<Res<ClientDoor>>,
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
        let silent = door.as_ref().is_some_and(|d| d.silence() >= SERVER_SILENCE);
        if silent != joining.silent {
            joining.silent = silent;
            if silent {
                warn!(
                    "nothing heard from {} for {SERVER_SILENCE:?}",
                    joining.server
                );
            }
        }
        if joining.lost {
            joining.lost = false;
            joining.rejoined += 1;
            info!("connected again to {}", joining.server);
        }
        return;
    }
    joining.silent = false;
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
            // A token names its client id; a code's connection takes a
            // new one.
            let id = match &joining.pass {
                Pass::Code(_) => next_client_id(joining.client_id),
                Pass::Invited {
                    invitation,
                    renewal,
                } => renewal.as_deref().unwrap_or(&invitation.token).client_id,
            };
            // The same token again (no fresh one came): from the same
            // address, to which the server bound it.
            let socket = match (&joining.pass, &door) {
                (Pass::Invited { .. }, Some(door)) if id == joining.client_id => {
                    door.socket().try_clone().ok()
                }
                _ => None,
            };
            match connect(&channels, joining.server, id, &joining.pass, socket) {
                Ok((renet, door)) => {
                    joining.client_id = id;
                    // Removed first, so that the new client is an added
                    // resource: replicon's client begins connecting then.
                    // Not when the client left meanwhile (no `Joining`).
                    commands.queue(move |world: &mut World| {
                        if world.contains_resource::<Joining>() {
                            world.remove_resource::<RenetClient>();
                            world.remove_resource::<ClientDoor>();
                            world.insert_resource(renet);
                            world.insert_resource(door);
                        }
                    });
                }
                Err(e) => warn!("cannot connect again to {}: {e}", joining.server),
            }
        }
        return;
    }
    if !joining.connected && joining.failed.is_none() && now.saturating_sub(began) >= JOIN_WAIT {
        let why = match joining.pass {
            Pass::Code(_) => not_joined(joining.server),
            Pass::Invited { .. } => not_joined_invited(joining.server),
        };
        error!("{why}");
        joining.failed = Some(why);
    }
}
