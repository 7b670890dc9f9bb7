//! Servers and clients over UDP on loopback for the tests: apps of this
//! build, a server behind its door on a free port, replicon clients with
//! a code, raw netcode clients that send what a test wants, and a loop
//! that updates apps until something holds.

#![allow(dead_code)]

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant, SystemTime};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetClient, RepliconRenetPlugins};
use sandtable_core::game::GameState;
use sandtable_core::wire::Wire;
use sandtable_net::{Hosted, SeatView, ServePlugin, protocol_id};

/// How long a test may wait for the network.
pub const DEADLINE: Duration = Duration::from_secs(10);

pub fn app() -> App {
    app_of(sandtable_core::record::ENGINE)
}

/// An app of the build `engine`.
pub fn app_of(engine: &str) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
        RepliconRenetPlugins,
    ));
    sandtable_net::protocol_of(&mut app, engine);
    app
}

pub fn connection(app: &App) -> ConnectionConfig {
    sandtable_net::udp::connection(app.world().resource::<RepliconChannels>())
}

pub fn now() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .expect("after 1970")
}

/// Red's and Blue's codes on the tests' servers.
pub const CODES: [&str; 2] = ["red-7f3a", "blue-91c2"];

/// A server of `game` for Red and Blue ([`CODES`]), open to watch,
/// listening on a free port of loopback; its port.
pub fn server<G: GameState + Wire>(game: G) -> (App, u16) {
    server_of(Hosted::new(game, CODES.map(str::to_owned).to_vec()))
}

/// A server of `hosted` listening on a free port of loopback, behind its
/// door; its port.
pub fn server_of<G: GameState + Wire>(hosted: Hosted<G>) -> (App, u16) {
    server_keyed(hosted, [0; 32])
}

/// [`server_of`], holding the private `key` of netcode's secure mode (all
/// zeros: unsecured).
pub fn server_keyed<G: GameState + Wire>(hosted: Hosted<G>, key: [u8; 32]) -> (App, u16) {
    let mut server = app();
    server
        .insert_resource(hosted)
        .add_plugins(ServePlugin::<G>::default());
    server.finish();
    let address = sandtable_net::udp::listen_with_key(
        &mut server,
        SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 0),
        &[],
        key,
    )
    .expect("listens");
    (server, address.port())
}

/// A replicon client of the server on `port`, as `id`, coming with no
/// code.
pub fn client(port: u16, id: u64) -> App {
    client_with(port, id, "")
}

/// A replicon client of the server on `port`, as `id`, coming with
/// `code`.
pub fn client_with(port: u16, id: u64, code: &str) -> App {
    let mut client = app();
    client.finish();
    let ip = Ipv4Addr::LOCALHOST.into();
    let socket = UdpSocket::bind((ip, 0)).expect("a port");
    let transport = NetcodeClientTransport::new(
        now(),
        ClientAuthentication::Unsecure {
            client_id: id,
            protocol_id: protocol_id(),
            server_addr: SocketAddr::new(ip, port),
            user_data: Some(sandtable_net::door::code_data(code)),
        },
        socket,
    )
    .expect("a client transport");
    let renet = RenetClient::new(connection(&client));
    client.insert_resource(renet).insert_resource(transport);
    client
}

/// Updates the apps until `done` holds, for at most [`DEADLINE`].
pub fn until(apps: &mut [&mut App], what: &str, mut done: impl FnMut(&mut [&mut App]) -> bool) {
    let start = Instant::now();
    while !done(apps) {
        assert!(
            start.elapsed() < DEADLINE,
            "{what}: not within {DEADLINE:?}"
        );
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

pub fn seat_view(app: &mut App) -> Option<SeatView> {
    let mut q = app.world_mut().query::<&SeatView>();
    q.iter(app.world()).next().cloned()
}

/// A netcode client without renet or replicon, on a socket of its own:
/// it connects and keeps its connection alive as netcode does, and sends
/// whatever payload or datagram a test gives it.
pub struct Raw {
    pub socket: UdpSocket,
    pub netcode: renetcode::NetcodeClient,
    server: SocketAddr,
    buffer: Vec<u8>,
    /// Every datagram it sent, for replays.
    pub sent: Vec<Vec<u8>>,
}

impl Raw {
    /// A client of the server on `port` as `id`, coming with `code`.
    pub fn new(port: u16, id: u64, code: &str) -> Raw {
        let server = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), port);
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
        socket.set_nonblocking(true).expect("non-blocking");
        let netcode = renetcode::NetcodeClient::new(
            now(),
            renetcode::ClientAuthentication::Unsecure {
                protocol_id: protocol_id(),
                client_id: id,
                server_addr: server,
                user_data: Some(sandtable_net::door::code_data(code)),
            },
        )
        .expect("a netcode client");
        Raw {
            socket,
            netcode,
            server,
            buffer: vec![0; 1500],
            sent: Vec::new(),
        }
    }

    /// Reads what the server sent, and sends what netcode has to send
    /// after `delta` (a request, a response, a keep-alive).
    pub fn pump(&mut self, delta: Duration) {
        while let Ok((len, _)) = self.socket.recv_from(&mut self.buffer) {
            let _ = self.netcode.process_packet(&mut self.buffer[..len]);
        }
        if let Some((packet, addr)) = self.netcode.update(delta) {
            let packet = packet.to_vec();
            let _ = self.socket.send_to(&packet, addr);
            self.sent.push(packet);
        }
    }

    /// Sends `payload` sealed as a packet of its connection.
    pub fn send_payload(&mut self, payload: &[u8]) {
        if let Ok((addr, packet)) = self.netcode.generate_payload_packet(payload) {
            let packet = packet.to_vec();
            let _ = self.socket.send_to(&packet, addr);
            self.sent.push(packet);
        }
    }

    /// Sends `bytes` as they are, from its address.
    pub fn send_raw(&self, bytes: &[u8]) {
        let _ = self.socket.send_to(bytes, self.server);
    }

    /// Connected now.
    pub fn connected(&self) -> bool {
        self.netcode.is_connected()
    }

    /// Refused or dropped by the server.
    pub fn refused(&self) -> bool {
        self.netcode.disconnect_reason().is_some()
    }
}
