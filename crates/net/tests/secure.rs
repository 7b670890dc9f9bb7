//! Encrypted, authenticated play over UDP on loopback: a whole served
//! game, every datagram of it captured on the way by a relay, searched
//! by an eavesdropper for the seats' codes and the views the server
//! sent; with a control run in netcode's unsecured mode, where the same
//! eavesdropper reads them. And the refusals: an invitation of another
//! key, an expired one, a token used again from another address; and a
//! client door that a forged datagram from its server's address does not
//! stop.

#[path = "common/udp.rs"]
mod net;

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::path::Path;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::{RenetClient, RepliconRenetPlugins};
use chacha20poly1305::aead::AeadInPlace;
use chacha20poly1305::{ChaCha20Poly1305, KeyInit, Nonce, Tag};
use rand::{Rng, SeedableRng};
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, GameState};
use sandtable_net::door::{Datagram, open_token, read_datagram};
use sandtable_net::invite::{Invitation, Minter, Place};
use sandtable_net::udp::{JoinPlugin, Joining, join, join_invited};
use sandtable_net::{Hosted, Play, PublicView, SeatView, ServePlugin, protocol, protocol_id};

/// The battle served.
type Battle = sandtable_warpspawn::Game;

/// Red's and Blue's codes.
const CODES: [&str; 2] = ["red-7f3a9", "blue-91c2b"];

/// The server's private key.
const KEY: [u8; 32] = [0x3c; 32];

/// How long a step may wait for the network.
const DEADLINE: Duration = Duration::from_secs(20);

/// How long a whole game may take.
const GAME_DEADLINE: Duration = Duration::from_secs(240);

fn battle(seed: u64) -> Battle {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn/flank-march.ron");
    let mut setup = match sandtable_scenario::load_any(&path).expect("the flank march") {
        sandtable_scenario::Loaded::Warpspawn(b) => b.setup,
        _ => panic!("a battle"),
    };
    setup.seed = seed;
    Battle::new(&setup, Dice::seeded(seed)).expect("starts")
}

/// Which way a captured datagram went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    ToServer,
    ToClient,
}

/// A UDP relay between the clients and the server that keeps a copy of
/// every datagram: the path a stranger could listen on.
struct Relay {
    front: UdpSocket,
    server: SocketAddr,
    /// A socket towards the server for each client, by the client's
    /// address.
    backs: BTreeMap<SocketAddr, UdpSocket>,
    captured: Vec<(Way, Vec<u8>)>,
}

impl Relay {
    fn new(server: SocketAddr) -> Relay {
        let front = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
        front.set_nonblocking(true).expect("non-blocking");
        Relay {
            front,
            server,
            backs: BTreeMap::new(),
            captured: Vec::new(),
        }
    }

    fn address(&self) -> SocketAddr {
        self.front.local_addr().expect("an address")
    }

    /// Carries every datagram waiting, each way.
    fn pump(&mut self) {
        let mut buffer = [0u8; 1500];
        while let Ok((len, from)) = self.front.recv_from(&mut buffer) {
            let back = self.backs.entry(from).or_insert_with(|| {
                let s = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
                s.set_nonblocking(true).expect("non-blocking");
                s
            });
            let _ = back.send_to(&buffer[..len], self.server);
            self.captured.push((Way::ToServer, buffer[..len].to_vec()));
        }
        for (client, back) in &self.backs {
            while let Ok((len, _)) = back.recv_from(&mut buffer) {
                let _ = self.front.send_to(&buffer[..len], client);
                self.captured.push((Way::ToClient, buffer[..len].to_vec()));
            }
        }
    }
}

/// A server of the flank march for Red and Blue, with `key` (all zeros:
/// unsecured), which clients reach through `public`.
fn server(key: [u8; 32], public: &[SocketAddr], seed: u64) -> (App, SocketAddr) {
    let mut server = net::app();
    server
        .insert_resource(Hosted::new(battle(seed), CODES.map(str::to_owned).to_vec()))
        .add_plugins(ServePlugin::<Battle>::default());
    server.finish();
    let at = sandtable_net::udp::listen_with_key(
        &mut server,
        SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 0),
        public,
        key,
    )
    .expect("listens");
    (server, at)
}

/// A client app as a table is, not yet joined.
fn client() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
        RepliconRenetPlugins,
        JoinPlugin,
        sandtable_net::ViewPlugin,
    ));
    protocol(&mut app);
    app.finish();
    app
}

fn invited(invitation: &Invitation) -> App {
    let mut app = client();
    join_invited(app.world_mut(), invitation).expect("joins");
    app
}

fn seat_view(app: &mut App) -> Option<SeatView> {
    let mut q = app.world_mut().query::<&SeatView>();
    q.iter(app.world()).next().cloned()
}

fn public_view(app: &mut App) -> Option<PublicView> {
    let mut q = app.world_mut().query::<&PublicView>();
    q.iter(app.world()).next().cloned()
}

fn connected(app: &App) -> bool {
    app.world()
        .get_resource::<RenetClient>()
        .is_some_and(|c| c.is_connected())
}

/// Updates everything until `done` holds, for at most `deadline`.
fn until(
    server: &mut App,
    relay: &mut Relay,
    clients: &mut [&mut App],
    deadline: Duration,
    what: &str,
    mut done: impl FnMut(&mut App, &mut [&mut App]) -> bool,
) {
    let start = Instant::now();
    while !done(server, clients) {
        assert!(
            start.elapsed() < deadline,
            "{what}: not within {deadline:?}"
        );
        server.update();
        relay.pump();
        for c in clients.iter_mut() {
            c.update();
        }
        relay.pump();
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// What a run left: every datagram, and every view the clients got.
struct Run {
    captured: Vec<(Way, Vec<u8>)>,
    views: Vec<Vec<u8>>,
    commands: usize,
}

/// A whole game of the flank march through the relay, Red and Blue each
/// playing random legal commands: with invitations where the server
/// holds `key`, with codes in netcode's unsecured mode otherwise.
fn play_a_game(secure: bool, seed: u64) -> Run {
    // The relay is made first, for the server to name its address as
    // the one clients reach it at.
    let mut relay = Relay::new(SocketAddr::new(Ipv4Addr::LOCALHOST.into(), 1));
    let public = relay.address();
    let key = if secure { KEY } else { [0; 32] };
    let (mut server, at) = server(key, &[public], seed);
    relay.server = at;
    let (mut red, mut blue) = if secure {
        let minter = Minter::new(KEY, vec![public], "the flank march");
        let now = sandtable_net::udp::since_epoch();
        let invite = |k: u16| {
            minter
                .invite(Place::Seat(k), CODES[usize::from(k)], now)
                .expect("minted")
        };
        (invited(&invite(0)), invited(&invite(1)))
    } else {
        let (mut red, mut blue) = (client(), client());
        join(&mut red, public, 1, CODES[0]).expect("joins");
        join(&mut blue, public, 2, CODES[1]).expect("joins");
        for (c, k) in [(&mut red, 0u16), (&mut blue, 1)] {
            c.world_mut().write_message(sandtable_net::Claim::Seat {
                seat: k,
                code: CODES[usize::from(k)].into(),
            });
        }
        (red, blue)
    };
    until(
        &mut server,
        &mut relay,
        &mut [&mut red, &mut blue],
        DEADLINE,
        "both seated",
        |_, cs| cs.iter_mut().all(|c| seat_view(c).is_some()),
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut views: Vec<Vec<u8>> = Vec::new();
    let mut sent = [None, None];
    let mut commands = 0;
    until(
        &mut server,
        &mut relay,
        &mut [&mut red, &mut blue],
        GAME_DEADLINE,
        "the game ends",
        |server, cs| {
            for (k, c) in cs.iter_mut().enumerate() {
                let Some(view) = seat_view(c) else { continue };
                let bytes = postcard::to_allocvec(&view).expect("encodes");
                if views.last() != Some(&bytes) && !views.contains(&bytes) {
                    views.push(bytes);
                }
                if view.legal.is_empty() || sent[k] == Some(view.revision) {
                    continue;
                }
                let text = view.legal[rng.random_range(0..view.legal.len())].clone();
                c.world_mut().write_message(Play { text });
                sent[k] = Some(view.revision);
                commands += 1;
            }
            matches!(
                server
                    .world()
                    .resource::<Hosted<Battle>>()
                    .game()
                    .decision(),
                Decision::Over(_)
            ) && cs
                .iter_mut()
                .all(|c| public_view(c).is_some_and(|v| v.record.is_some()))
        },
    );
    Run {
        captured: relay.captured,
        views,
        commands,
    }
}

/// What a stranger on the path reads of the capture: every datagram as
/// it is, and every packet of a connection it can open. It opens the
/// connection requests it sees with the key of netcode's unsecured mode
/// (all zeros, known to all), which hold the connection's keys; a
/// server's private key it does not have.
fn overheard(captured: &[(Way, Vec<u8>)]) -> Vec<Vec<u8>> {
    let mut keys = Vec::new();
    for (_, datagram) in captured {
        if let Ok(Datagram::Request(request)) = read_datagram(datagram, protocol_id())
            && let Some(token) = open_token(&request, protocol_id(), &[0; 32])
        {
            keys.push(token.keys);
        }
    }
    let mut read = Vec::new();
    for (way, datagram) in captured {
        read.push(datagram.clone());
        // A payload packet: its prefix, its sequence, the sealed body.
        let prefix = datagram[0];
        if prefix & 0x0f != 5 {
            continue;
        }
        let sequence_bytes = usize::from(prefix >> 4);
        let mut sequence = [0u8; 8];
        sequence[..sequence_bytes].copy_from_slice(&datagram[1..1 + sequence_bytes]);
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&sequence);
        let mut aad = Vec::from(&b"NETCODE 1.02\0"[..]);
        aad.extend_from_slice(&protocol_id().to_le_bytes());
        aad.push(prefix);
        for (to_server, to_client) in &keys {
            let key = if *way == Way::ToServer {
                to_server
            } else {
                to_client
            };
            let mut body = datagram[1 + sequence_bytes..].to_vec();
            let (sealed, tag) = body.split_at_mut(datagram.len() - 1 - sequence_bytes - 16);
            let tag = *Tag::from_slice(tag);
            if ChaCha20Poly1305::new(key.into())
                .decrypt_in_place_detached(&Nonce::from(nonce), &aad, sealed, &tag)
                .is_ok()
            {
                read.push(sealed.to_vec());
                break;
            }
        }
    }
    read
}

/// How many of the 16-byte windows of `views` turn up in `read`, of
/// how many; and which codes turn up.
fn found(read: &[Vec<u8>], views: &[Vec<u8>]) -> (usize, usize, Vec<&'static str>) {
    let mut haystack = std::collections::HashSet::new();
    for bytes in read {
        for window in bytes.windows(16) {
            haystack.insert(window.to_vec());
        }
    }
    let (mut hits, mut windows) = (0, 0);
    for view in views {
        for window in view.windows(16) {
            windows += 1;
            hits += usize::from(haystack.contains(window));
        }
    }
    let codes = CODES
        .into_iter()
        .filter(|code| {
            read.iter()
                .any(|bytes| bytes.windows(code.len()).any(|w| w == code.as_bytes()))
        })
        .collect();
    (hits, windows, codes)
}

#[test]
fn a_whole_encrypted_game_shows_a_listener_no_code_and_no_view_and_the_unsecured_control_shows_both()
 {
    let secure = play_a_game(true, 11);
    assert!(
        secure.commands > 20,
        "a whole game: {} commands",
        secure.commands
    );
    assert!(secure.views.len() > 20, "{} views", secure.views.len());
    let read = overheard(&secure.captured);
    assert_eq!(
        read.len(),
        secure.captured.len(),
        "the listener opened nothing of the encrypted game"
    );
    let (hits, windows, codes) = found(&read, &secure.views);
    assert!(windows > 10_000, "{windows} windows searched");
    assert_eq!(
        hits, 0,
        "no 16 bytes of any view cross the wire as they are"
    );
    assert!(codes.is_empty(), "no code crosses the wire: {codes:?}");
    eprintln!(
        "encrypted: {} commands, {} datagrams, {} views, {windows} windows, {hits} found",
        secure.commands,
        secure.captured.len(),
        secure.views.len()
    );

    // The control: the same game in netcode's unsecured mode. Its packets
    // are sealed too, but with keys its requests carry under a key of
    // zeros: the listener opens them and reads the codes and the views.
    let open = play_a_game(false, 11);
    let read = overheard(&open.captured);
    assert!(
        read.len() > open.captured.len(),
        "the listener opened the packets"
    );
    let (hits, windows, codes) = found(&read, &open.views);
    eprintln!(
        "unsecured: {} commands, {} datagrams, {} opened, {hits} of {windows} windows found",
        open.commands,
        open.captured.len(),
        read.len() - open.captured.len()
    );
    assert_eq!(codes, CODES.to_vec(), "both codes read off the wire");
    assert!(
        hits * 2 > windows,
        "most of the views read off the wire: {hits} of {windows} windows"
    );
    // As they are, without opening anything, even the control's datagrams
    // hold neither.
    let raw: Vec<Vec<u8>> = open.captured.iter().map(|(_, d)| d.clone()).collect();
    let (raw_hits, _, raw_codes) = found(&raw, &open.views);
    assert_eq!((raw_hits, raw_codes.len()), (0, 0));
}

/// Updates the server and the clients for `time`.
fn run_for(server: &mut App, clients: &mut [&mut App], time: Duration) {
    let start = Instant::now();
    while start.elapsed() < time {
        server.update();
        for c in clients.iter_mut() {
            c.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn an_invitation_of_another_key_or_one_expired_is_refused_and_the_right_one_gets_in() {
    let (mut server, at) = server(KEY, &[], 3);
    let now = sandtable_net::udp::since_epoch();
    let forged = Minter::new([0x77; 32], vec![at], "forged")
        .invite(Place::Seat(0), CODES[0], now)
        .expect("minted");
    let mut stranger = invited(&forged);
    // Expired a second ago: the table refuses it before it connects, and
    // a token of it sent anyway is dropped at the door.
    let expired = Minter::new(KEY, vec![at], "old")
        .invite(
            Place::Seat(0),
            CODES[0],
            now - sandtable_net::invite::INVITATION_LIFE - Duration::from_secs(1),
        )
        .expect("minted");
    let mut late = client();
    let why = join_invited(late.world_mut(), &expired).expect_err("refused");
    assert!(why.contains("expired on"), "{why}");
    assert!(late.world().get_resource::<Joining>().is_none());
    // As a client that did not check: netcode's own, sending the token.
    let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
    socket.set_nonblocking(true).expect("non-blocking");
    let mut sent_anyway = renetcode::NetcodeClient::new(
        now,
        renetcode::ClientAuthentication::Secure {
            connect_token: expired.token.clone(),
        },
    )
    .expect("a netcode client");
    let dropped_before = server
        .world()
        .resource::<sandtable_net::door::Door>()
        .dropped();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        server.update();
        stranger.update();
        if let Some((packet, addr)) = sent_anyway.update(Duration::from_millis(20)) {
            let _ = socket.send_to(packet, addr);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!sent_anyway.is_connected());
    assert!(
        server
            .world()
            .resource::<sandtable_net::door::Door>()
            .dropped()
            > dropped_before,
        "the expired requests were dropped at the door"
    );
    assert!(!connected(&stranger));
    assert_eq!(
        server
            .world()
            .resource::<bevy_replicon_renet::RenetServer>()
            .clients_id()
            .len(),
        0
    );
    // The right one.
    let good = Minter::new(KEY, vec![at], "t")
        .invite(Place::Seat(0), CODES[0], now)
        .expect("minted");
    let mut red = invited(&good);
    net::until(&mut [&mut server, &mut red], "Red seated", |apps| {
        seat_view(apps[1]).is_some()
    });
    // After the wait, the refused say why they may have failed.
    run_for(
        &mut server,
        &mut [&mut stranger],
        sandtable_net::udp::JOIN_WAIT,
    );
    let failed = stranger
        .world()
        .resource::<Joining>()
        .failed
        .clone()
        .expect("failed");
    assert!(failed.contains("did not answer the invitation"), "{failed}");
}

#[test]
fn a_token_used_again_from_another_address_is_refused() {
    let (mut server, at) = server(KEY, &[], 3);
    let invitation = Minter::new(KEY, vec![at], "t")
        .invite(Place::Seat(1), CODES[1], sandtable_net::udp::since_epoch())
        .expect("minted");
    let mut blue = invited(&invitation);
    net::until(&mut [&mut server, &mut blue], "Blue seated", |apps| {
        seat_view(apps[1]).is_some()
    });
    // A copy of the invitation (read off Blue's screen, or a file left
    // about), used from another address: netcode bound the token to
    // Blue's.
    let mut copy = invited(&invitation);
    run_for(
        &mut server,
        &mut [&mut blue, &mut copy],
        Duration::from_secs(2),
    );
    assert!(!connected(&copy), "the copy is not let in");
    assert!(seat_view(&mut copy).is_none());
    assert!(
        connected(&blue) && seat_view(&mut blue).is_some(),
        "Blue plays on"
    );
}

#[test]
fn a_forged_datagram_from_the_server_s_address_does_not_stop_the_client() {
    // A stranger who answers in the server's name: it holds the
    // server's address (here, it is the address the invitation names).
    let fake = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
    fake.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("a timeout");
    let at = fake.local_addr().expect("an address");
    let invitation = Minter::new(KEY, vec![at], "t")
        .invite(Place::Seat(0), CODES[0], sandtable_net::udp::since_epoch())
        .expect("minted");
    // The datagram that stops renetcode 2.0.0: a keep-alive whose prefix
    // says 9 sequence bytes. netcode's own client panics on it.
    let mut poison = vec![0x94u8];
    poison.extend_from_slice(&[0xab; 19]);
    let mut bare = renetcode::NetcodeClient::new(
        sandtable_net::udp::since_epoch(),
        renetcode::ClientAuthentication::Secure {
            connect_token: invitation.token.clone(),
        },
    )
    .expect("a netcode client");
    let mut copy = poison.clone();
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = bare.process_packet(&mut copy);
    }))
    .is_err();
    assert!(
        panicked,
        "renetcode's client no longer panics on it: say so in client_door.rs"
    );
    let mut red = invited(&invitation);
    red.update();
    let mut buffer = [0u8; 1500];
    let (_, client) = fake.recv_from(&mut buffer).expect("the client's request");
    for _ in 0..20 {
        fake.send_to(&poison, client).expect("sent");
        red.update();
    }
    let door = red
        .world()
        .resource::<sandtable_net::client_door::ClientDoor>();
    assert!(
        door.dropped() >= 20,
        "dropped at the client's door: {}",
        door.dropped()
    );
}
