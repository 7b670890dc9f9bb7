//! The server's door on UDP: renet's netcode (`renetcode`) behind a
//! check of every datagram and a count of who comes in.
//!
//! Every datagram is read here before netcode reads it
//! ([`read_datagram`]): its kind, its length for that kind, its sequence
//! number's bytes and value. What netcode's own parser cannot take (a
//! sequence of more than 8 bytes, which `renetcode` 2.0.0 reads into an
//! array of 8 and panics; a sequence so large that its replay check
//! overflows) never reaches it, nor does any kind a server never
//! receives. A connection request's token is opened here too
//! ([`open_token`]): the code it carries says who comes (a seat, a
//! spectator, or a stranger, [`Admission::kind_of`]), and strangers are
//! let in only while there is room for them ([`Limits`]), counting both
//! those connected and those half way through netcode's handshake. So
//! strangers never fill netcode's slots or its table of pending
//! requests, and a player with a seat's code always finds a slot.
//!
//! What the door does not do: claims made after connecting, spectators'
//! places and the wait for a claim are the server's ([`crate::ServePlugin`]),
//! which tells the door who each connection is every update.

use std::collections::BTreeMap;
use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

use bevy::prelude::*;
use bevy_replicon_renet::renet::RenetServer;
use bevy_replicon_renet::{RenetReceive, RenetSend, RenetServerPlugin};

/// The server's renet as a resource.
type Renet = bevy_replicon_renet::RenetServer;
use chacha20poly1305::aead::AeadInPlace;
use chacha20poly1305::{KeyInit, Tag, XChaCha20Poly1305, XNonce};
use renetcode::{NetcodeServer, ServerAuthentication, ServerConfig, ServerResult};

use crate::{Admission, Kind};

/// The largest datagram netcode sends or takes, in bytes.
pub const PACKET_BYTES: usize = 1400;
/// The largest payload of one packet, in bytes.
pub const PAYLOAD_BYTES: usize = 1300;
/// The bytes of an encrypted packet's tag.
const MAC_BYTES: usize = 16;
/// The bytes of a connect token's sealed part.
const TOKEN_BYTES: usize = 1024;
/// The bytes of a connection request: prefix, version, protocol id,
/// expiry, nonce, token.
pub const REQUEST_BYTES: usize = 1 + 13 + 8 + 8 + 24 + TOKEN_BYTES;
/// The bytes of a challenge token in a response.
const CHALLENGE_BYTES: usize = 300;
/// Netcode's version, as a request spells it.
const VERSION: &[u8; 13] = b"NETCODE 1.02\0";
/// The most bytes a sequence number has on the wire.
const SEQUENCE_BYTES: usize = 8;
/// The largest sequence number taken: far beyond any connection's
/// (a packet every millisecond for ten million years), far below where
/// netcode's replay check overflows.
pub const MAX_SEQUENCE: u64 = 1 << 62;
/// The longest a connect token of netcode's unsecured mode may still be
/// valid, in seconds: its clients make theirs for 300 s; a token that
/// lasts longer would keep a half-made connection in netcode's table for
/// as long. A server with a private key mints every token itself, and
/// sets their lives ([`mint_token`]).
pub const MAX_TOKEN_LIFE: u64 = 360;
/// How long a request let in may take to become a connection before its
/// place is given to another.
pub const HANDSHAKE_WAIT: Duration = Duration::from_secs(5);
/// Requests with one seat's code that may be half way at once: a player
/// trying from a few places, never a flood that fills netcode's table.
pub const PENDING_A_SEAT: usize = 4;

/// Why a datagram's frame was refused before netcode read it. The door
/// drops a request besides whose token has expired, lasts too long, does
/// not open with its key, or whose kind of place is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dropped {
    /// Shorter or longer than any packet of its kind.
    Size,
    /// A kind a server never receives, or none.
    Kind,
    /// A sequence number of more than 8 bytes.
    SequenceBytes,
    /// A sequence number beyond [`MAX_SEQUENCE`].
    Sequence,
    /// A request of another netcode version.
    Version,
    /// A request of another build ([`crate::protocol_id`]).
    Protocol,
}

/// A datagram from a client as the door reads it.
#[derive(Debug, PartialEq, Eq)]
pub enum Datagram<'a> {
    /// A connection request, its token still sealed.
    Request(Request<'a>),
    /// A packet of a connection, for netcode to open with its keys.
    Sealed,
}

/// A connection request's parts.
#[derive(Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// When its token expires, in seconds since 1970.
    pub expire: u64,
    nonce: &'a [u8],
    token: &'a [u8],
}

/// Reads a datagram's frame as netcode 1.02 writes it, and refuses
/// anything else: the kind (the prefix's low 4 bits), the sequence
/// number's bytes (its high 4 bits, at most 8) and value, and the exact
/// length of each kind. A request must be of this netcode version and
/// of `protocol_id`.
pub fn read_datagram(bytes: &[u8], protocol_id: u64) -> Result<Datagram<'_>, Dropped> {
    let (&prefix, rest) = bytes.split_first().ok_or(Dropped::Size)?;
    let kind = prefix & 0x0f;
    if kind == 0 {
        if bytes.len() != REQUEST_BYTES {
            return Err(Dropped::Size);
        }
        if &rest[..13] != VERSION {
            return Err(Dropped::Version);
        }
        if u64_at(rest, 13) != protocol_id {
            return Err(Dropped::Protocol);
        }
        return Ok(Datagram::Request(Request {
            expire: u64_at(rest, 21),
            nonce: &rest[29..53],
            token: &rest[53..],
        }));
    }
    read_sealed(bytes, |kind, body| match kind {
        // A challenge's response: its sequence and token.
        3 => Some(body == 8 + CHALLENGE_BYTES as isize),
        // A keep-alive: the client's slot and the slots.
        4 => Some(body == 8),
        5 => Some((1..=PAYLOAD_BYTES as isize).contains(&body)),
        6 => Some(body == 0),
        // Denials and challenges go from servers to clients; the rest
        // are no kind at all.
        _ => None,
    })?;
    Ok(Datagram::Sealed)
}

/// Reads a datagram from the server as netcode 1.02 writes it, and
/// refuses anything else, as [`read_datagram`] does a client's: a
/// denial, a challenge, a keep-alive, a payload or a disconnection, each
/// of its exact length, its sequence number of at most 8 bytes and at
/// most [`MAX_SEQUENCE`]. A client reads nothing else: `renetcode`'s
/// own parser would panic on the same datagrams as a server's.
pub fn read_from_server(bytes: &[u8]) -> Result<(), Dropped> {
    read_sealed(bytes, |kind, body| match kind {
        // A denial and a disconnection: nothing but the tag.
        1 | 6 => Some(body == 0),
        // A challenge: its sequence and token.
        2 => Some(body == 8 + CHALLENGE_BYTES as isize),
        4 => Some(body == 8),
        5 => Some((1..=PAYLOAD_BYTES as isize).contains(&body)),
        // A request or a response goes from clients to servers.
        _ => None,
    })
}

/// Reads a sealed packet's frame: the prefix's kind and sequence bytes,
/// the body's length (what is left once the prefix, the sequence and
/// the tag are off) as `fits` takes it for the kind (`None`: a kind not
/// taken), and the sequence's value.
fn read_sealed(bytes: &[u8], fits: impl Fn(u8, isize) -> Option<bool>) -> Result<(), Dropped> {
    let (&prefix, rest) = bytes.split_first().ok_or(Dropped::Size)?;
    let sequence_bytes = usize::from(prefix >> 4);
    if sequence_bytes > SEQUENCE_BYTES {
        return Err(Dropped::SequenceBytes);
    }
    let body = (bytes.len() as isize) - 1 - (sequence_bytes + MAC_BYTES) as isize;
    match fits(prefix & 0x0f, body) {
        None => return Err(Dropped::Kind),
        Some(false) => return Err(Dropped::Size),
        Some(true) => {}
    }
    let mut sequence = [0u8; 8];
    sequence[..sequence_bytes].copy_from_slice(&rest[..sequence_bytes]);
    if u64::from_le_bytes(sequence) > MAX_SEQUENCE {
        return Err(Dropped::Sequence);
    }
    Ok(())
}

/// The little-endian `u64` at `at` of `bytes`, which holds it.
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// What the door reads of a connect token it opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The client's id.
    pub client_id: u64,
    /// What the client asked the server for: the code it carries.
    pub user_data: [u8; USER_DATA_BYTES],
    /// The keys of the connection's packets: the client's to the server,
    /// the server's to the client. Whoever opens a token holds them: in
    /// netcode's unsecured mode, anyone who reads the request (its key is
    /// all zeros).
    pub keys: ([u8; 32], [u8; 32]),
}

/// The bytes of a token's user data.
pub const USER_DATA_BYTES: usize = 256;

/// Opens a request's token with `key` as netcode does (XChaCha20-Poly1305,
/// the version, protocol id and expiry as associated data) and reads the
/// client's id and user data; `None` when it does not open or is not a
/// token's shape.
pub fn open_token(request: &Request, protocol_id: u64, key: &[u8; 32]) -> Option<Token> {
    let mut data = [0u8; TOKEN_BYTES];
    data.copy_from_slice(request.token);
    let (sealed, tag) = data.split_at_mut(TOKEN_BYTES - MAC_BYTES);
    let mut aad = [0u8; 13 + 8 + 8];
    aad[..13].copy_from_slice(VERSION);
    aad[13..21].copy_from_slice(&protocol_id.to_le_bytes());
    aad[21..].copy_from_slice(&request.expire.to_le_bytes());
    XChaCha20Poly1305::new(key.into())
        .decrypt_in_place_detached(
            XNonce::from_slice(request.nonce),
            &aad,
            sealed,
            Tag::from_slice(tag),
        )
        .ok()?;
    // The client's id, its timeout, its servers' addresses, two keys, the
    // user data.
    let client_id = u64_at(sealed, 0);
    let servers = u32::from_le_bytes(sealed[12..16].try_into().ok()?);
    let mut at = 16;
    for _ in 0..servers.min(32) {
        at += match sealed.get(at)? {
            0 => 1,
            1 => 1 + 4 + 2,
            2 => 1 + 16 + 2,
            _ => return None,
        };
    }
    let keys = (
        sealed.get(at..at + 32)?.try_into().ok()?,
        sealed.get(at + 32..at + 64)?.try_into().ok()?,
    );
    at += 64;
    let user_data = sealed.get(at..at + USER_DATA_BYTES)?.try_into().ok()?;
    Some(Token {
        client_id,
        user_data,
        keys,
    })
}

/// A connect token for a server that holds `key`, sealed with it:
/// netcode's secure mode, where only the key's holder makes tokens. It
/// names `client_id`, carries `code` (a seat's or the spectator code),
/// names the addresses the client may connect to (`servers`, which must
/// be among the server's public ones), and is valid for `life` from
/// `now` (seconds since 1970).
pub fn mint_token(
    key: &[u8; 32],
    protocol_id: u64,
    servers: Vec<SocketAddr>,
    client_id: u64,
    code: &str,
    life: Duration,
    now: Duration,
) -> Result<renetcode::ConnectToken, String> {
    renetcode::ConnectToken::generate(
        now,
        protocol_id,
        life.as_secs(),
        client_id,
        15,
        servers,
        Some(&code_data(code)),
        key,
    )
    .map_err(|e| format!("no connect token: {e}"))
}

/// The user data that carries `code`: its length, then its bytes.
pub fn code_data(code: &str) -> [u8; USER_DATA_BYTES] {
    let mut data = [0u8; USER_DATA_BYTES];
    let bytes = &code.as_bytes()[..code.len().min(crate::MAX_CODE_BYTES)];
    data[0] = bytes.len() as u8;
    data[1..=bytes.len()].copy_from_slice(bytes);
    data
}

/// The code user data carries ([`code_data`]): empty when it carries
/// none or is not of that shape.
pub fn data_code(data: &[u8; USER_DATA_BYTES]) -> &str {
    let len = usize::from(data[0]);
    if len > crate::MAX_CODE_BYTES {
        return "";
    }
    std::str::from_utf8(&data[1..=len]).unwrap_or("")
}

/// The door's connections, by netcode's client id.
#[derive(Debug, Default)]
struct Clients {
    /// Who each is: set as it connects, then by the server as claims
    /// change it.
    kinds: BTreeMap<u64, Kind>,
    /// Those that came with a code that is nobody's.
    wrong_codes: std::collections::BTreeSet<u64>,
}

/// A request let in and not yet a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pending {
    kind: Kind,
    since: Duration,
}

/// The server's UDP transport: a socket, netcode's server, and the
/// count of who is in and who is on the way.
#[derive(Resource)]
pub struct Door {
    socket: UdpSocket,
    netcode: NetcodeServer,
    protocol_id: u64,
    key: [u8; 32],
    buffer: Box<[u8; PACKET_BYTES]>,
    /// Netcode's clock: seconds since 1970.
    now: Duration,
    /// Who each connection is.
    clients: Clients,
    /// Requests let in, by address, until they connect or
    /// [`HANDSHAKE_WAIT`] passes.
    pending: BTreeMap<SocketAddr, Pending>,
    /// Datagrams dropped unread.
    dropped: u64,
}

impl Door {
    /// A door on `socket` for netcode's `protocol_id`, taking clients
    /// that connect to one of `public` with tokens sealed with `key` (all
    /// zeros: netcode's unsecured mode). Its slots: as many as the
    /// seats twice over (a player back on a new connection before the
    /// old one timed out) and every stranger's and spectator's place.
    pub fn new(
        socket: UdpSocket,
        protocol_id: u64,
        public: Vec<SocketAddr>,
        key: [u8; 32],
        slots: usize,
        now: Duration,
    ) -> std::io::Result<Door> {
        socket.set_nonblocking(true)?;
        let authentication = if key == [0; 32] {
            ServerAuthentication::Unsecure
        } else {
            ServerAuthentication::Secure { private_key: key }
        };
        let netcode = NetcodeServer::new(ServerConfig {
            current_time: now,
            max_clients: slots.min(1024),
            protocol_id,
            public_addresses: public,
            authentication,
        });
        Ok(Door {
            socket,
            netcode,
            protocol_id,
            key,
            buffer: Box::new([0; PACKET_BYTES]),
            now,
            clients: Clients::default(),
            pending: BTreeMap::new(),
            dropped: 0,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// How long since the client last sent a packet, while connected.
    pub fn time_since_last_received_packet(&self, client_id: u64) -> Option<Duration> {
        self.netcode.time_since_last_received_packet(client_id)
    }

    /// Datagrams dropped before netcode read them, in all.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Connections of each kind now: (seated, spectators, unclaimed).
    pub fn counts(&self) -> (usize, usize, usize) {
        let count = |f: fn(&Kind) -> bool| self.clients.kinds.values().filter(|k| f(k)).count();
        (
            count(|k| matches!(k, Kind::Seat(_))),
            count(|k| *k == Kind::Spectator),
            count(|k| *k == Kind::Stranger),
        )
    }

    /// Who a connection is: as its code said when it connected, or as
    /// the server said since.
    pub fn kind(&self, client_id: u64) -> Kind {
        self.clients
            .kinds
            .get(&client_id)
            .copied()
            .unwrap_or(Kind::Stranger)
    }

    /// Whether a connection came with a code that is no seat's and not
    /// the spectator code.
    pub fn came_with_a_wrong_code(&self, client_id: u64) -> bool {
        self.clients.wrong_codes.contains(&client_id)
    }

    /// Says who a connection is now: the server's word after a claim.
    pub fn set_kind(&mut self, client_id: u64, kind: Kind) {
        if let Some(k) = self.clients.kinds.get_mut(&client_id) {
            *k = kind;
        }
    }

    /// Whether one more of `kind` fits, counting those connected and
    /// those on the way, less the request from `from` itself.
    fn room_for(&self, kind: Kind, from: SocketAddr, admission: &Admission) -> bool {
        let same = |k: &Kind| *k == kind;
        let on_the_way = self
            .pending
            .iter()
            .filter(|(addr, p)| **addr != from && same(&p.kind))
            .count();
        let connected = self.clients.kinds.values().filter(|k| same(k)).count();
        match kind {
            Kind::Seat(_) => on_the_way < PENDING_A_SEAT,
            Kind::Spectator => on_the_way + connected < admission.limits.spectators,
            Kind::Stranger => on_the_way + connected < admission.limits.unclaimed,
        }
    }

    fn drop_datagram(&mut self) {
        self.dropped += 1;
    }

    /// Advances netcode's clock by `delta`, reads every datagram waiting,
    /// and hands renet what netcode made of them. An error of the socket
    /// is logged and the update goes on: nothing a client sends stops
    /// the server.
    pub fn update(&mut self, delta: Duration, admission: &Admission, server: &mut RenetServer) {
        self.now += delta;
        self.netcode.update(delta);
        let now = self.now;
        self.pending
            .retain(|_, p| now.saturating_sub(p.since) < HANDSHAKE_WAIT);
        loop {
            match self.socket.recv_from(&mut self.buffer[..]) {
                Ok((len, addr)) => self.take(addr, len, admission, server),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => break,
                // A client's port that went away: ICMP, not its datagram.
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => continue,
                Err(e) => {
                    warn!("the server's socket: {e}");
                    break;
                }
            }
        }
        for client_id in self.netcode.clients_id() {
            let result = self.netcode.update_client(client_id);
            settle(&self.socket, &mut self.clients, result, server);
        }
        for client_id in server.disconnections_id() {
            let result = self.netcode.disconnect(client_id);
            settle(&self.socket, &mut self.clients, result, server);
        }
    }

    /// One datagram of `len` bytes from `addr`, in the buffer.
    fn take(
        &mut self,
        addr: SocketAddr,
        len: usize,
        admission: &Admission,
        server: &mut RenetServer,
    ) {
        let connected = self
            .netcode
            .clients_id_iter()
            .any(|id| self.netcode.client_addr(id) == Some(addr));
        match read_datagram(&self.buffer[..len], self.protocol_id) {
            Err(_) => return self.drop_datagram(),
            Ok(Datagram::Request(request)) if !connected => {
                let now = self.now.as_secs();
                let unsecured = self.key == [0; 32];
                if request.expire <= now || (unsecured && request.expire > now + MAX_TOKEN_LIFE) {
                    return self.drop_datagram();
                }
                let Some(token) = open_token(&request, self.protocol_id, &self.key) else {
                    return self.drop_datagram();
                };
                let kind = admission.kind_of(data_code(&token.user_data));
                if !self.room_for(kind, addr, admission) {
                    return self.drop_datagram();
                }
                let since = self.pending.get(&addr).map_or(self.now, |p| p.since);
                self.pending.insert(addr, Pending { kind, since });
            }
            Ok(_) => {}
        }
        let result = self.netcode.process_packet(addr, &mut self.buffer[..len]);
        let joined = match &result {
            ServerResult::ClientConnected {
                client_id,
                user_data,
                ..
            } => {
                let code = data_code(user_data);
                let kind = admission.kind_of(code);
                Some((*client_id, kind, kind == Kind::Stranger && !code.is_empty()))
            }
            _ => None,
        };
        let Some((client_id, kind, wrong_code)) = joined else {
            settle(&self.socket, &mut self.clients, result, server);
            return;
        };
        // Its first keep-alive goes out either way.
        if let ServerResult::ClientConnected { payload, addr, .. } = result {
            send(&self.socket, payload, addr);
        }
        self.pending.remove(&addr);
        if self.room_for(kind, addr, admission) || matches!(kind, Kind::Seat(_)) {
            self.clients.kinds.insert(client_id, kind);
            if wrong_code {
                self.clients.wrong_codes.insert(client_id);
            }
            server.add_connection(client_id);
        } else {
            // Its place was taken meanwhile: out at once, before renet
            // or the server know of it.
            let result = self.netcode.disconnect(client_id);
            if let ServerResult::ClientDisconnected {
                payload: Some(payload),
                addr,
                ..
            } = result
            {
                send(&self.socket, payload, addr);
            }
            self.drop_datagram();
        }
    }

    /// Sends renet's packets to their clients, sealed by netcode.
    pub fn send_packets(&mut self, server: &mut RenetServer) {
        for client_id in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(client_id) else {
                continue;
            };
            for packet in packets {
                match self.netcode.generate_payload_packet(client_id, &packet) {
                    Ok((addr, payload)) => send(&self.socket, payload, addr),
                    Err(e) => {
                        warn!("a packet for client {client_id} was not sealed: {e}");
                        break;
                    }
                }
            }
        }
    }

    /// Tells every client the server is going, at once.
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        for client_id in self.netcode.clients_id() {
            let result = self.netcode.disconnect(client_id);
            settle(&self.socket, &mut self.clients, result, server);
        }
    }
}

/// Sends `payload` to `addr`; a failure is logged.
fn send(socket: &UdpSocket, payload: &[u8], addr: SocketAddr) {
    if let Err(e) = socket.send_to(payload, addr) {
        debug!("a packet to {addr} was not sent: {e}");
    }
}

/// Hands renet what netcode made of a packet, and sends netcode's reply.
fn settle(
    socket: &UdpSocket,
    clients: &mut Clients,
    result: ServerResult,
    server: &mut RenetServer,
) {
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => send(socket, payload, addr),
        ServerResult::Payload { client_id, payload } => {
            // A payload renet cannot read is renet's to drop.
            let _ = server.process_packet_from(payload, client_id);
        }
        ServerResult::ClientConnected {
            client_id,
            payload,
            addr,
            ..
        } => {
            // Only a packet makes a connection, and `Door::take` admits
            // it by its code; a connection settled here (never, from a
            // client's update or a disconnection) is a stranger.
            clients.kinds.insert(client_id, Kind::Stranger);
            server.add_connection(client_id);
            send(socket, payload, addr);
        }
        ServerResult::ClientDisconnected {
            client_id,
            addr,
            payload,
        } => {
            clients.kinds.remove(&client_id);
            clients.wrong_codes.remove(&client_id);
            server.remove_connection(client_id);
            if let Some(payload) = payload {
                send(socket, payload, addr);
            }
        }
    }
}

/// The door's systems, where renet's netcode transport would have them.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        receive
            .in_set(RenetReceive)
            .run_if(resource_exists::<Door>)
            .run_if(resource_exists::<Renet>)
            .after(RenetServerPlugin::update_system)
            .before(RenetServerPlugin::emit_server_events_system),
    )
    .add_systems(
        PostUpdate,
        send_packets
            .in_set(RenetSend)
            .run_if(resource_exists::<Door>)
            .run_if(resource_exists::<Renet>),
    )
    .add_systems(
        Last,
        close
            .run_if(resource_exists::<Door>)
            .run_if(resource_exists::<Renet>),
    );
}

fn receive(
    mut door: ResMut<Door>,
    admission: Res<Admission>,
    mut server: ResMut<Renet>,
    time: Res<Time<Real>>,
) {
    door.update(time.delta(), &admission, &mut server);
}

fn send_packets(mut door: ResMut<Door>, mut server: ResMut<Renet>) {
    door.send_packets(&mut server);
}

fn close(exit: MessageReader<AppExit>, mut door: ResMut<Door>, mut server: ResMut<Renet>) {
    if !exit.is_empty() {
        door.disconnect_all(&mut server);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(protocol_id: u64, expire: u64) -> Vec<u8> {
        let mut bytes = vec![0u8];
        bytes.extend_from_slice(VERSION);
        bytes.extend_from_slice(&protocol_id.to_le_bytes());
        bytes.extend_from_slice(&expire.to_le_bytes());
        bytes.resize(REQUEST_BYTES, 7);
        bytes
    }

    #[test]
    fn a_sequence_of_more_than_eight_bytes_is_dropped_unread() {
        // The datagram that stopped renetcode 2.0.0: a keep-alive whose
        // prefix says 9 sequence bytes.
        let mut bytes = vec![0x94u8];
        bytes.extend_from_slice(&[0xab; 19]);
        assert_eq!(read_datagram(&bytes, 1), Err(Dropped::SequenceBytes));
        for n in 9..16u8 {
            let mut bytes = vec![(n << 4) | 5];
            bytes.resize(60, 1);
            assert_eq!(
                read_datagram(&bytes, 1),
                Err(Dropped::SequenceBytes),
                "{n} bytes"
            );
        }
    }

    #[test]
    fn each_kind_has_its_one_length_and_servers_take_no_denial_or_challenge() {
        // A keep-alive with a 1-byte sequence: prefix, sequence, 8, tag.
        let keep_alive = |body: usize| {
            let mut b = vec![(1 << 4) | 4, 3];
            b.resize(2 + body + MAC_BYTES, 0);
            b
        };
        assert_eq!(read_datagram(&keep_alive(8), 1), Ok(Datagram::Sealed));
        assert_eq!(read_datagram(&keep_alive(7), 1), Err(Dropped::Size));
        assert_eq!(read_datagram(&keep_alive(9), 1), Err(Dropped::Size));
        let disconnect = vec![6u8; 1 + MAC_BYTES];
        assert_eq!(read_datagram(&disconnect, 1), Ok(Datagram::Sealed));
        let mut payload = vec![5u8];
        payload.resize(1 + PAYLOAD_BYTES + MAC_BYTES, 0);
        assert_eq!(read_datagram(&payload, 1), Ok(Datagram::Sealed));
        payload.push(0);
        assert_eq!(read_datagram(&payload, 1), Err(Dropped::Size));
        assert_eq!(read_datagram(&[5u8; 1 + MAC_BYTES], 1), Err(Dropped::Size));
        for kind in [1u8, 2, 7, 8, 15] {
            let mut b = vec![kind];
            b.resize(400, 0);
            assert_eq!(read_datagram(&b, 1), Err(Dropped::Kind), "kind {kind}");
        }
        assert_eq!(read_datagram(&[], 1), Err(Dropped::Size));
    }

    #[test]
    fn a_sequence_beyond_the_largest_is_dropped() {
        let mut b = vec![(8 << 4) | 4];
        b.extend_from_slice(&u64::MAX.to_le_bytes());
        b.resize(1 + 8 + 8 + MAC_BYTES, 0);
        assert_eq!(read_datagram(&b, 1), Err(Dropped::Sequence));
        b[1..9].copy_from_slice(&MAX_SEQUENCE.to_le_bytes());
        assert_eq!(read_datagram(&b, 1), Ok(Datagram::Sealed));
    }

    #[test]
    fn a_request_is_read_only_whole_of_this_version_and_protocol() {
        let good = request(42, 1000);
        match read_datagram(&good, 42) {
            Ok(Datagram::Request(r)) => assert_eq!(r.expire, 1000),
            other => panic!("a request, not {other:?}"),
        }
        assert_eq!(read_datagram(&good, 43), Err(Dropped::Protocol));
        assert_eq!(
            read_datagram(&good[..REQUEST_BYTES - 1], 42),
            Err(Dropped::Size)
        );
        let mut other = good.clone();
        other[5] = b'X';
        assert_eq!(read_datagram(&other, 42), Err(Dropped::Version));
    }

    #[test]
    fn a_token_made_by_netcode_opens_with_its_key_and_carries_the_code() {
        let key = [9u8; 32];
        let server: SocketAddr = "127.0.0.1:5000".parse().expect("an address");
        let token = renetcode::ConnectToken::generate(
            Duration::from_secs(1000),
            42,
            300,
            77,
            15,
            vec![server, "[::1]:5000".parse().expect("an address")],
            Some(&code_data("red-7f3a")),
            &key,
        )
        .expect("a token");
        let mut bytes = vec![0u8];
        bytes.extend_from_slice(VERSION);
        bytes.extend_from_slice(&42u64.to_le_bytes());
        bytes.extend_from_slice(&token.expire_timestamp.to_le_bytes());
        bytes.extend_from_slice(&token.xnonce);
        bytes.extend_from_slice(&token.private_data);
        let Ok(Datagram::Request(request)) = read_datagram(&bytes, 42) else {
            panic!("a request");
        };
        let opened = open_token(&request, 42, &key).expect("it opens");
        assert_eq!(opened.client_id, 77);
        assert_eq!(
            opened.keys,
            (token.client_to_server_key, token.server_to_client_key)
        );
        assert_eq!(data_code(&opened.user_data), "red-7f3a");
        assert_eq!(open_token(&request, 42, &[0; 32]), None, "another key");
        assert_eq!(open_token(&request, 41, &key), None, "another protocol");
    }

    #[test]
    fn codes_ride_in_user_data_and_anything_else_reads_as_none() {
        assert_eq!(data_code(&code_data("abcde-fghjk")), "abcde-fghjk");
        assert_eq!(data_code(&code_data("")), "");
        assert_eq!(data_code(&[0xff; USER_DATA_BYTES]), "");
        let mut bad = [0u8; USER_DATA_BYTES];
        bad[0] = 2;
        bad[1] = 0xc3;
        assert_eq!(data_code(&bad), "", "not UTF-8");
    }
}
