//! The server and its clients over UDP on loopback (renet's netcode,
//! `ServerAuthentication::Unsecure`): a seat claimed and a command played
//! through real sockets, each test bounded by a deadline.

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant, SystemTime};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{
    ClientAuthentication, NetcodeClientTransport, NetcodeServerTransport, ServerAuthentication,
    ServerConfig,
};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetChannelsExt, RenetClient, RenetServer, RepliconRenetPlugins};
use sandtable_core::game::{GameState, Seat, Viewer};
use sandtable_core::wire::read;
use sandtable_net::{Claim, Hosted, Play, SeatView, ServePlugin, protocol_id};

mod common;

use common::{Cache, cache_game};

/// How long a test may wait for the network.
const DEADLINE: Duration = Duration::from_secs(10);

fn app() -> App {
    app_of(sandtable_core::record::ENGINE)
}

/// An app of the build `engine`.
fn app_of(engine: &str) -> App {
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

fn connection(app: &App) -> ConnectionConfig {
    sandtable_net::udp::connection(app.world().resource::<RepliconChannels>())
}

fn now() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .expect("after 1970")
}

/// A server of `game` listening on a free port of loopback; its port.
fn server(game: Cache) -> (App, u16) {
    let mut server = app();
    server
        .insert_resource(Hosted::new(
            game,
            vec!["red-7f3a".into(), "blue-91c2".into()],
        ))
        .add_plugins(ServePlugin::<Cache>::default());
    server.finish();
    let socket = UdpSocket::bind(SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 0)).expect("a port");
    let address = socket.local_addr().expect("its address");
    let transport = NetcodeServerTransport::new(
        ServerConfig {
            current_time: now(),
            max_clients: 8,
            protocol_id: protocol_id(),
            public_addresses: vec![address],
            authentication: ServerAuthentication::Unsecure,
        },
        socket,
    )
    .expect("a server transport");
    let renet = RenetServer::new(connection(&server));
    server.insert_resource(renet).insert_resource(transport);
    (server, address.port())
}

fn client(port: u16, id: u64) -> App {
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
            user_data: None,
        },
        socket,
    )
    .expect("a client transport");
    let renet = RenetClient::new(connection(&client));
    client.insert_resource(renet).insert_resource(transport);
    client
}

/// Updates the apps until `done` holds, for at most [`DEADLINE`].
fn until(apps: &mut [&mut App], what: &str, mut done: impl FnMut(&mut [&mut App]) -> bool) {
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

fn seat_view(app: &mut App) -> Option<SeatView> {
    let mut q = app.world_mut().query::<&SeatView>();
    q.iter(app.world()).next().cloned()
}

#[test]
fn a_seat_is_claimed_and_played_over_udp_on_loopback() {
    let (mut server, port) = server(cache_game());
    let (mut red, mut blue) = (client(port, 1), client(port, 2));
    until(
        &mut [&mut server, &mut red, &mut blue],
        "both connect",
        |apps| {
            apps[1..]
                .iter()
                .all(|c| c.world().resource::<RenetClient>().is_connected())
        },
    );
    for (c, seat, code) in [(&mut red, 0, "red-7f3a"), (&mut blue, 1, "blue-91c2")] {
        c.world_mut().write_message(Claim {
            seat,
            code: code.into(),
        });
    }
    until(
        &mut [&mut server, &mut red, &mut blue],
        "both seated",
        |apps| {
            let (_, clients) = apps.split_at_mut(1);
            clients.iter_mut().all(|c| seat_view(c).is_some())
        },
    );
    let first = seat_view(&mut red).expect("Red's view").legal[0].clone();
    red.world_mut().write_message(Play { text: first });
    until(
        &mut [&mut server, &mut red, &mut blue],
        "the command reaches both",
        |apps| {
            let (_, clients) = apps.split_at_mut(1);
            clients
                .iter_mut()
                .all(|c| seat_view(c).is_some_and(|v| v.revision == 1))
        },
    );
    let game = server.world().resource::<Hosted<Cache>>().game().clone();
    for (c, seat) in [(&mut red, 0u16), (&mut blue, 1)] {
        let view = seat_view(c).expect("a view");
        assert_eq!(view.seat, seat);
        let copy: Cache = read(&view.game).expect("a game");
        assert!(copy == game.masked(Viewer::Player(Seat(seat))));
    }
    assert_ne!(game.state_hash(), cache_game().state_hash());
}

#[test]
fn garbage_datagrams_and_malformed_messages_leave_the_server_and_the_game_as_they_were() {
    use rand::{Rng, SeedableRng};
    let (mut server, port) = server(cache_game());
    let mut red = client(port, 1);
    until(&mut [&mut server, &mut red], "Red connects", |apps| {
        apps[1].world().resource::<RenetClient>().is_connected()
    });
    red.world_mut().write_message(Claim {
        seat: 0,
        code: "red-7f3a".into(),
    });
    until(&mut [&mut server, &mut red], "Red seated", |apps| {
        seat_view(apps[1]).is_some()
    });
    let before = server
        .world()
        .resource::<Hosted<Cache>>()
        .game()
        .state_hash();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(46);
    // 1,000 datagrams of random bytes from a stranger's socket.
    let stranger = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
    for _ in 0..1000 {
        let len = rng.random_range(1..1200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        stranger
            .send_to(&bytes, (Ipv4Addr::LOCALHOST, port))
            .expect("sent");
        server.update();
    }
    // 1,000 malformed messages from the connected client, on every
    // channel it has.
    let channels = red
        .world()
        .resource::<RepliconChannels>()
        .client_configs()
        .len() as u8;
    for k in 0..1000 {
        let len = rng.random_range(0..200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        red.world_mut()
            .resource_mut::<RenetClient>()
            .send_message(k as u8 % channels, bytes);
        if k % 50 == 0 {
            red.update();
            server.update();
        }
    }
    // And a command that is not in the notation, if Red is still
    // connected: garbage on replicon's own channel of the protocol check
    // is a protocol mismatch, and the server drops the sender.
    red.world_mut().write_message(Play {
        text: "fly to the moon".into(),
    });
    for _ in 0..20 {
        red.update();
        server.update();
    }
    assert_eq!(
        *server.world().resource::<State<ServerState>>(),
        ServerState::Running
    );
    let hosted = server.world().resource::<Hosted<Cache>>();
    assert_eq!(hosted.game().state_hash(), before, "the game is unchanged");
    // The server still plays: Red, back with its code on a new
    // connection, gets its seat and plays its first legal command.
    let mut again = client(port, 3);
    until(
        &mut [&mut server, &mut again],
        "Red connects again",
        |apps| apps[1].world().resource::<RenetClient>().is_connected(),
    );
    again.world_mut().write_message(Claim {
        seat: 0,
        code: "red-7f3a".into(),
    });
    until(&mut [&mut server, &mut again], "Red seated again", |apps| {
        seat_view(apps[1]).is_some()
    });
    let first = seat_view(&mut again).expect("Red's view").legal[0].clone();
    again.world_mut().write_message(Play { text: first });
    until(
        &mut [&mut server, &mut again],
        "the command is played",
        |apps| seat_view(apps[1]).is_some_and(|v| v.revision == 1),
    );
    assert_ne!(
        server
            .world()
            .resource::<Hosted<Cache>>()
            .game()
            .state_hash(),
        before
    );
}

#[test]
fn a_client_of_another_version_is_told_so_within_the_wait() {
    use sandtable_net::udp::{JOIN_WAIT, JoinPlugin, Joining, join, not_joined};
    // A server of another build: netcode's protocol id differs, so it
    // drops the request unanswered.
    let mut other = app_of("sandtable 0.0.0");
    other
        .insert_resource(Hosted::new(cache_game(), vec!["a".into(), "b".into()]))
        .add_plugins(ServePlugin::<Cache>::default());
    other.finish();
    let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
    let address = socket.local_addr().expect("its address");
    let transport = NetcodeServerTransport::new(
        ServerConfig {
            current_time: now(),
            max_clients: 8,
            protocol_id: protocol_id() ^ 1,
            public_addresses: vec![address],
            authentication: ServerAuthentication::Unsecure,
        },
        socket,
    )
    .expect("a server transport");
    let renet = RenetServer::new(connection(&other));
    other.insert_resource(renet).insert_resource(transport);

    let mut ours = app();
    ours.add_plugins(JoinPlugin);
    ours.finish();
    join(&mut ours, address, 7).expect("a client socket");
    let start = Instant::now();
    until(
        &mut [&mut other, &mut ours],
        "the client gives up",
        |apps| apps[1].world().resource::<Joining>().failed.is_some(),
    );
    let joining = ours.world().resource::<Joining>();
    assert!(start.elapsed() >= JOIN_WAIT);
    assert!(!joining.connected);
    assert_eq!(
        joining.failed.as_deref(),
        Some(not_joined(address).as_str())
    );
    assert!(not_joined(address).contains(&format!("{address} is not a Sandtable server")));
}

#[test]
fn a_client_claims_its_seat_each_time_it_connects() {
    use sandtable_net::udp::{Claiming, JoinPlugin, join};
    let (mut server, port) = server(cache_game());
    let address = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), port);
    let claim = Claim {
        seat: 1,
        code: "blue-91c2".into(),
    };
    for id in [21, 22] {
        // A first connection, then the player back on a new one.
        let mut blue = app();
        blue.add_plugins(JoinPlugin)
            .insert_resource(Claiming(claim.clone()));
        blue.finish();
        join(&mut blue, address, id).expect("a client socket");
        until(&mut [&mut server, &mut blue], "Blue seated", |apps| {
            seat_view(apps[1]).is_some_and(|v| v.seat == 1)
        });
    }
}
