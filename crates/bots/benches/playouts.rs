//! Random playouts to the end through the contract, Frontiers' shipped
//! skirmish beside the Warpspawn battle's open field (there is no other
//! rules-enforcing skirmish on an open table to measure against), and how
//! fast Frontiers checks a move and lists its families.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Legal, Seat, next_seat};
use sandtable_scenario::Loaded;

/// Plays `game` to its end with the contract's random player; the
/// commands played.
fn playout<G: GameState>(game: &G, seed: u64) -> u32 {
    let mut g = game.clone();
    g.reseed(seed);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut events = Vec::new();
    let mut n = 0;
    while let Some(seat) = next_seat(&g) {
        let Some(c) = g.random_command(seat, &mut rng) else {
            break;
        };
        events.clear();
        g.apply_into(seat, &c, &mut events)
            .expect("a drawn command is legal");
        n += 1;
        if n > 5_000 {
            break;
        }
    }
    n
}

fn load(name: &str) -> Loaded {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    sandtable_scenario::load_any(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn bench(c: &mut Criterion) {
    let Loaded::Frontiers(skirmish) = load("frontiers/skirmish.ron") else {
        panic!("a skirmish");
    };
    let Loaded::Warpspawn(battle) = load("warpspawn/open-field.ron") else {
        panic!("a battle");
    };
    let sk = sandtable_frontiers::Game::new(&skirmish.setup, Dice::seeded(1)).expect("starts");
    let field = sandtable_warpspawn::Game::new(&battle.setup, Dice::seeded(1)).expect("starts");

    let mut group = c.benchmark_group("random playouts to the end");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("frontiers skirmish.ron", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(black_box(&sk), seed))
        })
    });
    group.bench_function("warpspawn open-field.ron", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(black_box(&field), seed))
        })
    });
    group.finish();

    // Turn 1 played up to T1's move: both Preparations, the orders (T1
    // and K1 marker 1), the names (T1 is slower: the Legion first) and the
    // Step window passed.
    let mut sk = sk;
    for (seat, text) in [
        (0, "discard"),
        (1, "discard"),
        (0, "orders T1:1 CP:decoy S1:decoy"),
        (1, "orders K1:1 P1:decoy ST:decoy"),
        (0, "name T1 move"),
        (1, "name K1 shoot"),
    ] {
        let c: sandtable_frontiers::Command = text.parse().expect("notation");
        sk.apply_into(Seat(seat), &c, &mut Vec::new())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    while let sandtable_core::game::Decision::One(seat) = sk.decision() {
        if sk.flow().phase != sandtable_frontiers::flow::Phase::Window {
            break;
        }
        let pass: sandtable_frontiers::Command = "pass".parse().expect("notation");
        sk.apply_into(seat, &pass, &mut Vec::new()).expect("a pass");
    }
    // A move checked: one straight leg of T1 to a point within 150 mm,
    // most of them legal, some through the wall, a unit or off reach.
    let mut rng = SmallRng::seed_from_u64(3);
    let moves: Vec<sandtable_frontiers::Command> = (0..1024)
        .map(|_| {
            let x = rng.random_range(330..630);
            let y = rng.random_range(20..300);
            format!("move T1 {x},{y}").parse().expect("notation")
        })
        .collect();
    let mut group = c.benchmark_group("frontiers commands");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("moves checked, skirmish.ron at T1's move in step 1", |b| {
        b.iter(|| {
            moves
                .iter()
                .filter(|m| sk.check(Seat(0), black_box(m)).is_ok())
                .count()
        })
    });
    group.throughput(Throughput::Elements(1));
    let mut legal: Vec<Legal<sandtable_frontiers::Command>> = Vec::new();
    group.bench_function("the legal list, skirmish.ron at T1's move in step 1", |b| {
        b.iter(|| {
            sk.legal_into(Seat(0), &mut legal);
            legal.len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
