//! A record looked back at (`sandtable_core::replay::Positions`): the time
//! to open a record of 1,000 commands, its positions kept every 32
//! commands, and to jump to any position (the first to the last, and the
//! farthest from a kept one), on a Frontiers skirmish, the rule system
//! whose commands cost most to play (the relay's, 60 turns long).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, next_seat};
use sandtable_core::replay::{DEFAULT_EVERY, Positions};
use sandtable_scenario::Loaded;

/// 1,000 commands of random play on the relay skirmish, its game made
/// long enough (60 turns): the first seed whose game lasts that long.
fn record() -> (sandtable_frontiers::Game, Vec<sandtable_frontiers::Command>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/frontiers/skirmish.ron");
    let Loaded::Frontiers(skirmish) = sandtable_scenario::load_any(&path).expect("it loads") else {
        panic!("a skirmish");
    };
    let mut setup = skirmish.setup.clone();
    setup.turns = 60;
    for seed in 0..100 {
        let start = sandtable_frontiers::Game::new(&setup, Dice::seeded(seed)).expect("it starts");
        let mut game = start.clone();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut commands = Vec::new();
        let mut events = Vec::new();
        while commands.len() < 1000 {
            let Some(seat) = next_seat(&game) else {
                break;
            };
            let c = game.random_command(seat, &mut rng).expect("a command");
            events.clear();
            game.apply_into(seat, &c, &mut events).expect("legal");
            commands.push(c);
        }
        if commands.len() == 1000 {
            return (start, commands);
        }
    }
    panic!("no game of 1,000 commands in 100 seeds");
}

fn bench(c: &mut Criterion) {
    let (start, commands) = record();
    let mut group = c.benchmark_group("a record of 1,000 commands looked back at");
    group.sample_size(20);
    group.bench_function("opened: its positions kept every 32", |b| {
        b.iter(|| {
            Positions::new(start.clone(), black_box(&commands), DEFAULT_EVERY).expect("plays")
        })
    });
    let positions = Positions::new(start.clone(), &commands, DEFAULT_EVERY).expect("plays");
    group.bench_function("a jump from the first position to the last", |b| {
        b.iter(|| positions.at(black_box(commands.len())))
    });
    // The farthest from a kept position: 32 commands played.
    group.bench_function("a jump to the position farthest from a kept one", |b| {
        b.iter(|| positions.at(black_box(DEFAULT_EVERY * 10)))
    });
    group.bench_function(
        "without kept positions: the last replayed from the start",
        |b| {
            let whole = Positions::new(start.clone(), &commands, usize::MAX).expect("plays");
            b.iter(|| whole.at(black_box(commands.len())))
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
