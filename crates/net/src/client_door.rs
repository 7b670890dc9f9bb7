//! A client's door on UDP: renet's netcode client (`renetcode`) behind a
//! check of every datagram, as the server's [`crate::door`] checks its.
//!
//! A client takes datagrams from its server's address alone, but an
//! address is easy to forge: a datagram that `renetcode` 2.0.0 cannot
//! parse (a sequence of more than 8 bytes) panics it before any key is
//! tried. So every datagram is read first ([`crate::door::read_from_server`])
//! and what netcode could not take is dropped unread. What is left is
//! netcode's to open with the connection's keys: in secure mode a forged
//! or replayed packet does not open and is dropped too.

use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

use bevy::prelude::*;
use bevy_replicon_renet::{RenetClient, RenetClientPlugin, RenetReceive, RenetSend};
use renetcode::{ClientAuthentication, NetcodeClient};

use crate::door::{PACKET_BYTES, read_from_server};

/// The client's UDP transport: a socket and netcode's client.
#[derive(Resource)]
pub struct ClientDoor {
    socket: UdpSocket,
    netcode: NetcodeClient,
    buffer: Box<[u8; PACKET_BYTES]>,
    /// Datagrams dropped unread.
    dropped: u64,
    /// How long the client's clock ran, over its updates, since the last
    /// update that heard from the server.
    silence: Duration,
}

impl std::fmt::Debug for ClientDoor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientDoor")
            .field("socket", &self.socket)
            .field("client_id", &self.netcode.client_id())
            .field("dropped", &self.dropped)
            .finish_non_exhaustive()
    }
}

impl ClientDoor {
    /// A client on `socket` connecting as `authentication` says, at
    /// `now` (since 1970).
    pub fn new(
        now: Duration,
        authentication: ClientAuthentication,
        socket: UdpSocket,
    ) -> std::io::Result<ClientDoor> {
        socket.set_nonblocking(true)?;
        let netcode = NetcodeClient::new(now, authentication).map_err(std::io::Error::other)?;
        Ok(ClientDoor {
            socket,
            netcode,
            buffer: Box::new([0; PACKET_BYTES]),
            dropped: 0,
            silence: Duration::ZERO,
        })
    }

    /// The connection's client id.
    pub fn client_id(&self) -> u64 {
        self.netcode.client_id()
    }

    /// Its socket.
    pub fn socket(&self) -> &UdpSocket {
        &self.socket
    }

    /// Datagrams dropped before netcode read them.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// How long the server has said nothing: the time the client's updates
    /// covered since the last one that read a packet of it (netcode's
    /// keep-alive comes four times a second). An update that reads one
    /// counts none, however long its frame was, so a slow frame does not
    /// read as silence.
    pub fn silence(&self) -> Duration {
        self.silence
    }

    /// Ends the connection at once, telling the server.
    pub fn disconnect(&mut self) {
        if self.netcode.is_disconnected() {
            return;
        }
        if let Ok((addr, packet)) = self.netcode.disconnect() {
            send(&self.socket, packet, addr);
        }
    }

    /// Advances netcode's clock by `delta`, reads every datagram waiting
    /// and hands renet what netcode made of them. Nothing a datagram
    /// holds stops the client.
    pub fn update(&mut self, delta: Duration, client: &mut RenetClient) {
        if self.netcode.disconnect_reason().is_some() {
            client.disconnect_due_to_transport();
            return;
        }
        if client.disconnect_reason().is_some() {
            self.disconnect();
            return;
        }
        if self.netcode.is_connected() {
            client.set_connected();
        } else if self.netcode.is_connecting() {
            client.set_connecting();
        }
        loop {
            let (len, addr) = match self.socket.recv_from(&mut self.buffer[..]) {
                Ok(got) => got,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => break,
                // The server's port was closed: ICMP, not a datagram.
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => continue,
                Err(e) => {
                    warn!("the client's socket: {e}");
                    break;
                }
            };
            if addr != self.netcode.server_addr() || read_from_server(&self.buffer[..len]).is_err()
            {
                self.dropped += 1;
                continue;
            }
            if let Some(payload) = self.netcode.process_packet(&mut self.buffer[..len]) {
                client.process_packet(payload);
            }
        }
        // Netcode marks the time of a packet it took as now, before the
        // clock moves on below.
        self.silence = if self.netcode.time_since_last_received_packet() == Duration::ZERO {
            Duration::ZERO
        } else {
            self.silence + delta
        };
        if let Some((packet, addr)) = self.netcode.update(delta) {
            send(&self.socket, packet, addr);
        }
    }

    /// Sends renet's packets to the server, sealed by netcode.
    pub fn send_packets(&mut self, client: &mut RenetClient) {
        if self.netcode.disconnect_reason().is_some() {
            return;
        }
        for packet in client.get_packets_to_send() {
            match self.netcode.generate_payload_packet(&packet) {
                Ok((addr, payload)) => send(&self.socket, payload, addr),
                Err(e) => {
                    debug!("a packet for the server was not sealed: {e}");
                    break;
                }
            }
        }
    }
}

fn send(socket: &UdpSocket, payload: &[u8], addr: SocketAddr) {
    if let Err(e) = socket.send_to(payload, addr) {
        debug!("a packet to {addr} was not sent: {e}");
    }
}

/// The client door's systems, where renet's netcode transport would
/// have them.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        receive
            .in_set(RenetReceive)
            .run_if(resource_exists::<ClientDoor>)
            .run_if(resource_exists::<RenetClient>)
            .after(RenetClientPlugin::update_system),
    )
    .add_systems(
        PostUpdate,
        send_packets
            .in_set(RenetSend)
            .run_if(resource_exists::<ClientDoor>)
            .run_if(resource_exists::<RenetClient>),
    )
    .add_systems(Last, close.run_if(resource_exists::<ClientDoor>));
}

fn receive(mut door: ResMut<ClientDoor>, mut client: ResMut<RenetClient>, time: Res<Time<Real>>) {
    door.update(time.delta(), &mut client);
}

fn send_packets(mut door: ResMut<ClientDoor>, mut client: ResMut<RenetClient>) {
    door.send_packets(&mut client);
}

fn close(exit: MessageReader<AppExit>, mut door: ResMut<ClientDoor>) {
    if !exit.is_empty() {
        door.disconnect();
    }
}
