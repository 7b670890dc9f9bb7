//! Random playouts of the open-field battle (`scenarios/warpspawn/
//! open-field.ron`, 16 x 12 hexes, 100 points a side): commands drawn,
//! checked and applied per second through the game contract, as a random
//! player and a random playout play them (`GameState::random_command`),
//! and the same with every decision listed whole and one command chosen
//! from the list; the same drawn on the flank march, the open field with
//! the off-board grid (`flank-march.ron`, R40-R57), side by side; the
//! legal list at the start of a March phase and the longest Orders-phase
//! list of random flank marches; perft; copying a battle.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat, next_seat, perft};
use sandtable_warpspawn::{Command, Game, Phase, samples};
use std::hint::black_box;

const COMMANDS: u64 = 10_000;

/// Plays `COMMANDS` random legal commands through the contract, starting a
/// new battle as one ends: each drawn by `random_command`, or, with
/// `listed`, chosen from the whole legal list.
fn playout(start: &Game, game: &mut Game, rng: &mut SmallRng, listed: bool) -> u64 {
    let mut legal = Vec::with_capacity(160);
    let mut events = Vec::with_capacity(16);
    let mut count = 0;
    for _ in 0..COMMANDS {
        // A sealed decision (the grid's orders and forces) is given seat
        // by seat, as records write it.
        let Some(seat) = next_seat(game) else {
            game.clone_from(start);
            continue;
        };
        let pick = if listed {
            GameState::legal_into(game, seat, &mut legal);
            legal[rng.random_range(0..legal.len())].command
        } else {
            GameState::random_command(game, seat, rng).expect("a seat that decides has a command")
        };
        events.clear();
        GameState::apply_into(game, seat, &pick, &mut events).expect("a listed command is legal");
        count += events.len() as u64;
    }
    count
}

fn bench(c: &mut Criterion) {
    let start = Game::new(&samples::open_field(), Dice::seeded(42)).expect("the sample is valid");
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(COMMANDS));
    for (name, listed) in [
        (
            "random commands on the open field, drawn, through the contract",
            false,
        ),
        (
            "random commands on the open field, listed whole, through the contract",
            true,
        ),
    ] {
        group.bench_function(name, |b| {
            let mut rng = SmallRng::seed_from_u64(1);
            let mut game = start.clone();
            b.iter(|| black_box(playout(&start, &mut game, &mut rng, listed)));
        });
    }
    let flank = Game::new(&samples::flank_march(), Dice::seeded(42)).expect("the sample is valid");
    group.bench_function(
        "random commands on the flank march (off-board grid), drawn, through the contract",
        |b| {
            let mut rng = SmallRng::seed_from_u64(1);
            let mut game = flank.clone();
            b.iter(|| black_box(playout(&flank, &mut game, &mut rng, false)));
        },
    );
    group.finish();
    println!(
        "the longest Orders-phase legal list in 200 random flank marches: {} commands",
        longest_orders_list(&flank)
    );

    let mut march = start.clone();
    march.apply(&Command::End).expect("the cannonade may end");
    assert_eq!(march.phase(), Phase::March);
    let seat = Seat(u16::from(march.active().0));
    let mut legal = Vec::with_capacity(160);
    GameState::legal_into(&march, seat, &mut legal);
    println!(
        "the legal list at the start of the first March phase: {} commands",
        legal.len()
    );
    let mut group = c.benchmark_group("legal_commands");
    group.bench_function("start of a March phase, into a buffer", |b| {
        b.iter(|| {
            GameState::legal_into(black_box(&march), seat, &mut legal);
            legal.len()
        });
    });
    group.finish();

    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(perft(&march, 2).leaves));
    group.bench_function(
        "perft(2) from the start of the March phase, a copy a node",
        |b| {
            b.iter(|| black_box(perft(black_box(&march), 2)));
        },
    );
    group.finish();

    let mut group = c.benchmark_group("copy");
    let mut into = march.clone();
    group.bench_function("a battle into a battle of the same map (clone_from)", |b| {
        b.iter(|| {
            into.clone_from(black_box(&march));
            into.turn()
        });
    });
    group.finish();
}

/// The longest legal list of a side writing its orders (R47), over 200
/// random flank marches.
fn longest_orders_list(start: &Game) -> usize {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut longest = 0;
    for _ in 0..200 {
        let mut game = start.clone();
        while let Some(seat) = next_seat(&game) {
            GameState::legal_into(&game, seat, &mut legal);
            if game
                .summary()
                .awaiting
                .is_some_and(|a| a.choice == "orders")
            {
                longest = longest.max(legal.len());
            }
            let pick = legal[rng.random_range(0..legal.len())].command;
            events.clear();
            GameState::apply_into(&mut game, seat, &pick, &mut events).expect("listed");
        }
    }
    longest
}

criterion_group!(benches, bench);
criterion_main!(benches);
