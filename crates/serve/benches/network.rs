//! The figures of `docs/network.md`, measured on loopback:
//!
//! - latency: from one client's `Play` to the other client's changed
//!   entity, over 200 commands of a served game (median and 95th
//!   percentile);
//! - bytes a command: what replicon hands each client for each command,
//!   for each rule system (in one process, every message kept as bytes;
//!   netcode and UDP add their headers to each packet);
//! - a `sandtable-serve` process's memory and CPU, at rest and in play,
//!   and 15 of them at rest, each with its two players seated;
//! - the handshake: from a client's join to its seat's view, in netcode's
//!   unsecured mode and encrypted (with an invitation), side by side.
//!
//! Run: `cargo bench --workspace --bench network --profile dev`.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon::test_app::ServerTestAppExt;
use rand::{Rng, SeedableRng};
use sandtable_cli::{Front, with_front};
use sandtable_core::dice::Dice;
use sandtable_core::game::GameState;
use sandtable_core::wire::Wire;
use sandtable_net::{Claim, Hosted, Play, Refused, SeatView, ServePlugin, protocol};

#[path = "../tests/common/mod.rs"]
#[allow(dead_code)]
mod common;

use common::{client, root, seat, seat_view, serve};

/// Commands measured.
const COMMANDS: usize = 200;

fn main() {
    handshakes();
    println!();
    latency_and_process();
    println!();
    fifteen_at_rest();
    println!();
    println!(
        "bytes a command, as replicon hands them to each client ({COMMANDS} random legal commands or the game's end)"
    );
    println!(
        "{:<40} {:>9} {:>12} {:>12}",
        "scenario", "commands", "seat, B/cmd", "public, B/cmd"
    );
    for scenario in [
        "scenarios/standard.ron",
        "scenarios/snyder-skirmish.ron",
        "scenarios/warpspawn/open-field.ron",
        "scenarios/warpspawn/flank-march.ron",
        "scenarios/frontiers/confrontation.ron",
    ] {
        let path = root().join(scenario);
        let result: Result<(), sandtable_cli::Failure> = with_front!(&path, |front| {
            bytes_per_command(front, scenario);
            Ok(())
        });
        result.expect("the scenario loads");
    }
}

/// The CPU time a process used so far, in seconds, from `/proc`.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line.
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| {
        f.iter().filter_map(|x| x.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}

/// The resident memory of a process, in KiB, from `/proc`.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn latency_and_process() {
    let deadline = Duration::from_secs(30);
    let server = serve("scenarios/standard.ron", &[]);
    let pid = server.child.id();
    let (mut red, mut blue) = (client(&server, 0), client(&server, 1));
    seat(&server, &mut [&mut red, &mut blue], deadline);
    // At rest: two clients seated, nobody playing.
    let rest = Duration::from_secs(5);
    let (cpu0, t0) = (cpu_seconds(pid), Instant::now());
    while t0.elapsed() < rest {
        red.update();
        blue.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let at_rest = (cpu_seconds(pid) - cpu0) / t0.elapsed().as_secs_f64();
    let rss_rest = rss_kib(pid);

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(46);
    let mut samples = Vec::new();
    let (cpu1, t1) = (cpu_seconds(pid), Instant::now());
    while samples.len() < COMMANDS {
        let views = [seat_view(&mut red), seat_view(&mut blue)];
        let Some(k) = (0..2).find(|&k| views[k].as_ref().is_some_and(|v| !v.legal.is_empty()))
        else {
            red.update();
            blue.update();
            continue;
        };
        let view = views[k].clone().expect("a view");
        let text = view.legal[rng.random_range(0..view.legal.len())].clone();
        let (player, watcher) = if k == 0 {
            (&mut red, &mut blue)
        } else {
            (&mut blue, &mut red)
        };
        let before = seat_view(watcher).expect("a view").revision;
        let sent = Instant::now();
        player.world_mut().write_message(Play { text });
        loop {
            player.update();
            watcher.update();
            if seat_view(watcher).is_some_and(|v| v.revision > before) {
                break;
            }
            if !common::refusals(player).is_empty() {
                break;
            }
            assert!(sent.elapsed() < deadline, "no change within {deadline:?}");
        }
        if seat_view(watcher).is_some_and(|v| v.revision > before) {
            samples.push(sent.elapsed());
        }
        // Let the player's own view catch up before it plays again.
        while seat_view(player).is_some_and(|v| v.revision <= before) {
            player.update();
        }
    }
    let in_play = (cpu_seconds(pid) - cpu1) / t1.elapsed().as_secs_f64();
    let rss_play = rss_kib(pid);
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "latency over {} commands of scenarios/standard.ron: median {:.1} ms, 95th percentile {:.1} ms, worst {:.1} ms",
        samples.len(),
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() * 95 / 100]),
        ms(samples[samples.len() - 1])
    );
    println!(
        "sandtable-serve: at rest {:.1}% of a core, {} KiB resident; in play {:.1}% of a core, {} KiB resident",
        at_rest * 100.0,
        rss_rest,
        in_play * 100.0,
        rss_play
    );
}

/// The median and 95th percentile of `samples`, in ms.
fn spread(samples: &mut [Duration]) -> (f64, f64) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() * 95 / 100]),
    )
}

/// From a client's join to its seat's view, over 40 connections to one
/// server in this process, updated in turn with the client: in netcode's
/// unsecured mode with a code, and with a private key and an invitation.
fn handshakes() {
    use sandtable_net::invite::{Minter, Place};
    use sandtable_net::udp::{JoinPlugin, join, join_invited, leave_world, listen_with_key};
    let path = root().join("scenarios/standard.ron");
    let game = match sandtable_scenario::load_any(&path).expect("the standard scenario") {
        sandtable_scenario::Loaded::Cache(s) => s.game(),
        _ => panic!("a Cache scenario"),
    };
    println!(
        "handshake, from a client's join to its seat's view (40 connections, loopback, in one process)"
    );
    for (label, key) in [("unsecured", [0u8; 32]), ("encrypted", [0x4b; 32])] {
        let mut server = app();
        server.add_plugins(bevy_replicon_renet::RepliconRenetPlugins);
        server
            .insert_resource(Hosted::new(
                game.clone(),
                vec!["red-code".into(), "blue-code".into()],
            ))
            .add_plugins(ServePlugin::<sandtable_cache::Game>::default());
        server.finish();
        let at = listen_with_key(
            &mut server,
            (std::net::Ipv4Addr::LOCALHOST, 0).into(),
            &[],
            key,
        )
        .expect("listens");
        let minter = Minter::new(key, vec![at], "bench");
        let mut samples = Vec::new();
        for n in 0..40u64 {
            let mut client = app();
            client.add_plugins((bevy_replicon_renet::RepliconRenetPlugins, JoinPlugin));
            client.finish();
            let began = Instant::now();
            if key == [0; 32] {
                join(&mut client, at, 1000 + n, "red-code").expect("joins");
                client.insert_resource(sandtable_net::udp::Claiming(Claim::Seat {
                    seat: 0,
                    code: "red-code".into(),
                }));
            } else {
                let invitation = minter
                    .invite(
                        Place::Seat(0),
                        "red-code",
                        sandtable_net::udp::since_epoch(),
                    )
                    .expect("minted");
                join_invited(client.world_mut(), &invitation).expect("joins");
            }
            while seat_view(&mut client).is_none() {
                server.update();
                client.update();
                assert!(
                    began.elapsed() < Duration::from_secs(10),
                    "{label}: no seat"
                );
            }
            samples.push(began.elapsed());
            leave_world(client.world_mut());
            client.update();
            for _ in 0..3 {
                server.update();
            }
        }
        let (median, p95) = spread(&mut samples);
        println!("  {label:<10} median {median:.1} ms, 95th percentile {p95:.1} ms");
    }
}

/// 15 `sandtable-serve` processes, each serving the standard game with
/// its two players seated, at rest for 10 s: their CPU together.
fn fifteen_at_rest() {
    let deadline = Duration::from_secs(30);
    let servers: Vec<_> = (0..15)
        .map(|_| serve("scenarios/standard.ron", &[]))
        .collect();
    let mut clients: Vec<App> = Vec::new();
    for server in &servers {
        let (mut red, mut blue) = (client(server, 0), client(server, 1));
        seat(server, &mut [&mut red, &mut blue], deadline);
        clients.push(red);
        clients.push(blue);
    }
    let pids: Vec<u32> = servers.iter().map(|s| s.child.id()).collect();
    let cpu = |pids: &[u32]| pids.iter().map(|&p| cpu_seconds(p)).sum::<f64>();
    let (cpu0, t0) = (cpu(&pids), Instant::now());
    while t0.elapsed() < Duration::from_secs(10) {
        for c in &mut clients {
            c.update();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let share = (cpu(&pids) - cpu0) / t0.elapsed().as_secs_f64();
    let rss: u64 = pids.iter().map(|&p| rss_kib(p)).sum();
    println!(
        "15 sandtable-serve processes at rest, two players seated in each: {:.1}% of a core together ({:.1}% each), {} MiB resident together",
        share * 100.0,
        share * 100.0 / 15.0,
        rss / 1024
    );
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
    ));
    protocol(&mut app);
    app
}

/// replicon's exchange between the server and one client, counting the
/// bytes the client received.
fn exchange(server: &mut App, client: &mut App, received: &mut usize) {
    sandtable_net::exchange_seeing(server, client, |bytes| *received += bytes.len());
}

fn bytes_per_command<F: Front>(front: &F, scenario: &str)
where
    F::Game: Wire,
{
    let game = front
        .start(front.seed(), front.turn_limit(), Dice::seeded(front.seed()))
        .expect("starts");
    let seats = front.seats();
    let mut server = app();
    let codes: Vec<String> = (0..seats).map(|k| format!("code-{k}")).collect();
    server
        .insert_resource(Hosted::new(game, codes.clone()))
        .add_plugins(ServePlugin::<F::Game>::default());
    server.finish();
    // The seats, and a spectator last.
    let mut clients: Vec<App> = (0..=seats).map(|_| app()).collect();
    for c in &mut clients {
        c.finish();
        server.connect_client(c);
    }
    for (k, code) in codes.iter().enumerate() {
        clients[k].world_mut().write_message(Claim::Seat {
            seat: k as u16,
            code: code.clone(),
        });
    }
    let mut received = vec![0usize; clients.len()];
    let round = |server: &mut App, clients: &mut [App], received: &mut [usize]| {
        for (k, c) in clients.iter_mut().enumerate() {
            c.update();
            exchange(server, c, &mut received[k]);
        }
        server.update();
        for (k, c) in clients.iter_mut().enumerate() {
            exchange(server, c, &mut received[k]);
            c.update();
        }
    };
    round(&mut server, &mut clients, &mut received);
    let start = received.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(46);
    let mut sent: Vec<Option<u32>> = vec![None; seats];
    let mut commands = 0;
    for _ in 0..COMMANDS * 4 {
        for k in 0..seats {
            let refused = clients[k]
                .world_mut()
                .resource_mut::<Messages<Refused>>()
                .drain()
                .count();
            if refused > 0 {
                sent[k] = None;
            }
            let mut q = clients[k].world_mut().query::<&SeatView>();
            let view = q.iter(clients[k].world()).next().cloned();
            if let Some(view) = view
                && !view.legal.is_empty()
                && sent[k] != Some(view.revision)
            {
                let text = view.legal[rng.random_range(0..view.legal.len())].clone();
                clients[k].world_mut().write_message(Play { text });
                sent[k] = Some(view.revision);
            }
        }
        round(&mut server, &mut clients, &mut received);
        commands = server.world().resource::<Hosted<F::Game>>().revision();
        let over = matches!(
            server
                .world()
                .resource::<Hosted<F::Game>>()
                .game()
                .decision(),
            sandtable_core::game::Decision::Over(_)
        );
        if commands as usize >= COMMANDS || over {
            break;
        }
    }
    let per = |k: usize| (received[k] - start[k]) as f64 / f64::from(commands.max(1));
    println!(
        "{scenario:<40} {commands:>9} {:>12.0} {:>12.0}",
        per(0),
        per(seats)
    );
}
