//! Datagrams of every shape against the server while two players play a
//! game to its end over UDP: netcode packets of every kind with wrong
//! lengths and sequence bytes, the datagram that stopped netcode's
//! parser, connection requests bent a byte at a time, replays of a
//! client's own packets, sealed payloads of garbage for renet, and
//! random bytes, from strangers half way through the handshake, from a
//! connected client and from nowhere. Nothing may stop or wedge the
//! server: the game reaches its end, and a player with its code still
//! gets in afterwards.
//!
//! The test command sends a few thousand; for longer:
//!
//! SANDTABLE_FUZZ_CASES=50000 cargo test --release -p sandtable-net --test fuzz

use std::net::{Ipv4Addr, UdpSocket};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::RenetClient;
use rand::{Rng, SeedableRng};
use sandtable_core::game::{Decision, GameState};
use sandtable_net::{Hosted, Play};

mod common;
#[path = "common/udp.rs"]
mod net;

use common::Cache;
use net::*;

/// Datagrams to send: `SANDTABLE_FUZZ_CASES`, else a few thousand.
fn cases() -> usize {
    std::env::var("SANDTABLE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

/// The standard table with a turn limit of 6 (R11), so that random play
/// ends.
fn short_game() -> Cache {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/standard.ron");
    let mut setup = match sandtable_scenario::load_any(&path).expect("the standard table") {
        sandtable_scenario::Loaded::Cache(s) => s.setup,
        _ => panic!("a Cache scenario"),
    };
    setup.turn_limit = Some(6);
    Cache::with_dice(&setup, sandtable_core::dice::Dice::seeded(11)).expect("starts")
}

/// `len` random bytes.
fn random(rng: &mut impl Rng, len: usize) -> Vec<u8> {
    let mut b = vec![0u8; len];
    rng.fill_bytes(&mut b);
    b
}

/// One datagram of the fuzz: who sends what.
fn fuzz_one(
    rng: &mut impl Rng,
    port: u16,
    stranger: &UdpSocket,
    halfway: &[Raw],
    inside: &mut Raw,
) {
    let server = (Ipv4Addr::LOCALHOST, port);
    match rng.random_range(0..7) {
        // Random bytes from nowhere.
        0 => {
            let len = rng.random_range(0..1500);
            let _ = stranger.send_to(&random(rng, len), server);
        }
        // A packet of any kind and sequence bytes, of about the length of
        // its kind, from an address half way through the handshake (whose
        // keys netcode would use) or from the connected client's.
        1 | 2 => {
            let kind: u8 = rng.random_range(0..16);
            let sequence_bytes: u8 = rng.random_range(0..16);
            let body = [0usize, 0, 308, 308, 8, 100, 0][usize::from(kind.min(6))];
            let len = (1 + usize::from(sequence_bytes) + body + 16)
                .saturating_add_signed(rng.random_range(-3i64..=3) as isize)
                .max(1);
            let mut bytes = random(rng, len);
            bytes[0] = (sequence_bytes << 4) | kind;
            if rng.random_bool(0.5) {
                halfway[rng.random_range(0..halfway.len())].send_raw(&bytes);
            } else {
                inside.send_raw(&bytes);
            }
        }
        // The datagram that stopped netcode, from a half-way address.
        3 => {
            let mut bytes = vec![0x94u8];
            bytes.extend(random(rng, 19));
            halfway[rng.random_range(0..halfway.len())].send_raw(&bytes);
        }
        // A real connection request bent: a byte changed, cut or grown.
        4 => {
            let from = &halfway[rng.random_range(0..halfway.len())];
            let mut bytes = from.sent[0].clone();
            match rng.random_range(0..3) {
                0 => {
                    let k = rng.random_range(0..bytes.len());
                    bytes[k] ^= 1 << rng.random_range(0..8);
                }
                1 => bytes.truncate(rng.random_range(0..bytes.len())),
                _ => {
                    let more = rng.random_range(1..40);
                    bytes.extend(random(rng, more));
                }
            }
            from.send_raw(&bytes);
        }
        // A replay of the connected client's own packets.
        5 => {
            if !inside.sent.is_empty() {
                let k = rng.random_range(0..inside.sent.len());
                let bytes = inside.sent[k].clone();
                inside.send_raw(&bytes);
            }
        }
        // Garbage sealed properly: it reaches renet's parser.
        _ => {
            let len = rng.random_range(1..1200);
            inside.send_payload(&random(rng, len));
        }
    }
}

#[test]
fn no_datagram_stops_or_wedges_the_server_while_a_game_is_played_to_its_end() {
    let total = cases();
    let (mut server, port) = server(short_game());
    let mut red = client_with(port, 1, CODES[0]);
    let mut blue = client_with(port, 2, CODES[1]);
    until(
        &mut [&mut server, &mut red, &mut blue],
        "both seated",
        |apps| {
            let (_, clients) = apps.split_at_mut(1);
            clients.iter_mut().all(|c| seat_view(c).is_some())
        },
    );
    let stranger = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a port");
    // Strangers half way: each sent its request and never answers.
    let halfway: Vec<Raw> = (0..3)
        .map(|k| {
            let mut raw = Raw::new(port, 900 + k, "");
            raw.pump(Duration::ZERO);
            raw
        })
        .collect();
    let mut next_id = 1000;
    let mut inside = Raw::new(port, next_id, "");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(67);
    let began = Instant::now();
    let (mut sent, mut rounds, mut connections) = (0usize, 0u32, 0u32);
    loop {
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "the game did not end: {sent} datagrams sent, {rounds} rounds"
        );
        rounds += 1;
        // The connected client, made again when the server dropped it
        // (renet drops a client whose packets it cannot read).
        inside.pump(Duration::from_millis(4));
        if inside.refused() {
            next_id += 1;
            inside = Raw::new(port, next_id, "");
            connections += 1;
        }
        if sent < total {
            for _ in 0..40.min(total - sent) {
                fuzz_one(&mut rng, port, &stranger, &halfway, &mut inside);
                sent += 1;
            }
        }
        server.update();
        // The players play a random legal command every few rounds.
        if rounds % 3 == 0 {
            for c in [&mut red, &mut blue] {
                if let Some(view) = seat_view(c)
                    && !view.legal.is_empty()
                {
                    let text = view.legal[rng.random_range(0..view.legal.len())].clone();
                    c.world_mut().write_message(Play { text });
                }
            }
        }
        for c in [&mut red, &mut blue] {
            c.update();
        }
        std::thread::sleep(Duration::from_millis(1));
        let over = matches!(
            server.world().resource::<Hosted<Cache>>().game().decision(),
            Decision::Over(_)
        );
        if over && sent >= total {
            break;
        }
    }
    assert_eq!(
        *server.world().resource::<State<ServerState>>(),
        ServerState::Running
    );
    let dropped = server
        .world()
        .resource::<sandtable_net::door::Door>()
        .dropped();
    assert!(
        dropped > total as u64 / 4,
        "the door dropped {dropped} of {total} unread"
    );
    for c in [&mut red, &mut blue] {
        assert!(c.world().resource::<RenetClient>().is_connected());
    }
    // Not wedged: Red back on a new connection gets its seat and the
    // game's end.
    let mut again = client_with(port, 3, CODES[0]);
    until(&mut [&mut server, &mut again], "Red back", |apps| {
        seat_view(apps[1]).is_some_and(|v| v.seat == 0)
    });
    let revision = server.world().resource::<Hosted<Cache>>().revision();
    assert_eq!(seat_view(&mut again).map(|v| v.revision), Some(revision));
    println!(
        "{sent} datagrams in {rounds} rounds, {dropped} dropped at the door, {connections} garbage connections dropped by renet, {revision} changes of the game"
    );
}
