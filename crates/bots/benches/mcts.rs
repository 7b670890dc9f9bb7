//! Playouts a second of the tree search at the start of `scenarios/standard.ron`
//! on one thread, and the time of one greedy decision. An iteration (playout)
//! selects down the tree of activation lines, expands one node (every
//! activation line of its position searched), plays whole greedy activations
//! for both sides to the end of the opponent's reply, and backs up. Timed for
//! a short search (100 iterations), the default budget (300, strength 5) and
//! about a second's worth (20,000). The same for the Warpspawn battle at
//! first March phase of `scenarios/warpspawn/open-field.ron` (the first
//! Cannonade has nothing in range, so that is the first choice): an iteration there
//! plays greedy phase lines to the end of the player turn after the root's.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sandtable_bots::{BotConfig, BotKind, Budget, choose};
use sandtable_core::dice::Dice;
use sandtable_core::game::Seat;

/// A short search, the default budget, and about one second's worth at the
/// start.
const ITERATIONS: [u32; 3] = [100, 300, 20_000];

fn bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/standard.ron");
    let start = sandtable_scenario::load(&path)
        .expect("the standard scenario loads")
        .game();
    for iterations in ITERATIONS {
        let mut group = c.benchmark_group(format!("mcts, {iterations} iterations"));
        group.sample_size(if iterations > 1_000 { 10 } else { 20 });
        group.throughput(Throughput::Elements(u64::from(iterations)));
        group.bench_function("playouts at the start of standard.ron, one thread", |b| {
            let config =
                BotConfig::new(BotKind::Mcts, 1).with_budget(Budget::Iterations(iterations));
            b.iter(|| {
                black_box(choose(
                    black_box(&start),
                    sandtable_core::game::Seat(start.current_player().0),
                    &config,
                ))
            })
        });
        group.finish();
    }

    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn/open-field.ron");
    let Ok(sandtable_scenario::Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path)
    else {
        panic!("the open field loads as a battle");
    };
    let mut field = sandtable_warpspawn::Game::new(&battle.setup, Dice::seeded(battle.setup.seed))
        .expect("the open field starts");
    // The first Cannonade has no shot in range: the first choice is the
    // first March.
    field
        .apply(&sandtable_warpspawn::Command::End)
        .expect("the Cannonade may end");
    assert_eq!(field.phase(), sandtable_warpspawn::Phase::March);
    let seat = sandtable_core::game::next_seat(&field).unwrap_or(Seat(0));
    let mut group = c.benchmark_group("warpspawn mcts, 300 iterations");
    group.sample_size(10);
    group.throughput(Throughput::Elements(300));
    group.bench_function(
        "playouts at the first March of open-field.ron, one thread",
        |b| {
            b.iter(|| {
                black_box(sandtable_bots::warpspawn::mcts(
                    black_box(&field),
                    seat,
                    Budget::Iterations(300),
                    1,
                    1,
                    0.5,
                ))
            })
        },
    );
    group.finish();
    let mut group = c.benchmark_group("warpspawn greedy");
    group.sample_size(20);
    group.bench_function("decision at the first March of open-field.ron", |b| {
        b.iter(|| {
            black_box(sandtable_bots::warpspawn::greedy(
                black_box(&field),
                seat,
                1,
            ))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("greedy");
    group.sample_size(20);
    group.bench_function("decision at the start of standard.ron", |b| {
        let config = BotConfig::new(BotKind::Greedy, 1);
        b.iter(|| {
            black_box(choose(
                black_box(&start),
                sandtable_core::game::Seat(start.current_player().0),
                &config,
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
