//! Random playouts on the seed's Table A (24 x 15, ten units a side, terrain):
//! commands listed, chosen, checked and applied per second, and the time of
//! `legal_commands()` before and right after an activation.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sandtable_cache::{Command, Game, samples};
use sandtable_core::game::{Decision, GameState, Seat, perft};
use sandtable_core::undo::Undoable;
use std::hint::black_box;

const COMMANDS: u64 = 10_000;

/// Plays `COMMANDS` random legal commands, starting new games as games end.
fn playout(start: &Game, game: &mut Game, rng: &mut SmallRng) -> u64 {
    let mut legal = Vec::with_capacity(64);
    let mut events = Vec::with_capacity(16);
    let mut captures = 0;
    for _ in 0..COMMANDS {
        game.legal_commands_into(&mut legal);
        if legal.is_empty() {
            game.clone_from(start);
            game.legal_commands_into(&mut legal);
        }
        let pick = legal[rng.random_range(0..legal.len())].command;
        events.clear();
        game.apply_into(pick, &mut events)
            .expect("a listed command is legal");
        captures += events.len() as u64;
    }
    captures
}

/// As [`playout`], through the game contract: whose decision it is, the
/// seat's legal list, apply as that seat.
fn contract_playout<G: GameState>(start: &G, game: &mut G, rng: &mut SmallRng) -> u64 {
    let mut legal = Vec::with_capacity(64);
    let mut events = Vec::with_capacity(16);
    let mut count = 0;
    for _ in 0..COMMANDS {
        let seat = match game.decision() {
            Decision::One(seat) => seat,
            _ => {
                game.clone_from(start);
                continue;
            }
        };
        game.legal_into(seat, &mut legal);
        let pick = legal[rng.random_range(0..legal.len())].command;
        events.clear();
        game.apply_into(seat, &pick, &mut events)
            .expect("a listed command is legal");
        count += events.len() as u64;
    }
    count
}

fn bench(c: &mut Criterion) {
    let start = Game::new(&samples::table_a_skirmish(7, Some(200))).expect("sample setup is valid");
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(COMMANDS));
    group.bench_function("random commands on table A", |b| {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut game = start.clone();
        b.iter(|| black_box(playout(&start, &mut game, &mut rng)));
    });
    group.bench_function("random commands on table A, through the contract", |b| {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut game = start.clone();
        b.iter(|| black_box(contract_playout(&start, &mut game, &mut rng)));
    });
    let snyder = Game::new(&samples::table_a_snyder(7, Some(200))).expect("sample setup is valid");
    group.bench_function("random commands on table A with stashes", |b| {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut game = snyder.clone();
        b.iter(|| black_box(playout(&snyder, &mut game, &mut rng)));
    });
    group.finish();

    let mut group = c.benchmark_group("legal_commands");
    let mut buf = Vec::with_capacity(64);
    group.bench_function("turn start, into a buffer", |b| {
        b.iter(|| {
            black_box(&start).legal_commands_into(&mut buf);
            black_box(buf.len())
        })
    });
    group.bench_function("turn start, new Vec", |b| {
        b.iter(|| black_box(black_box(&start).legal_commands()))
    });
    let mut active = start.clone();
    active
        .apply(Command::Activate("F7".parse().expect("square")))
        .expect("F7 holds a Red unit");
    group.bench_function("activation start, into a buffer", |b| {
        b.iter(|| {
            black_box(&active).legal_commands_into(&mut buf);
            black_box(buf.len())
        })
    });
    group.bench_function("activation start, new Vec", |b| {
        b.iter(|| black_box(black_box(&active).legal_commands()))
    });
    group.finish();

    let mut group = c.benchmark_group("perft");
    let copies = perft(&start, 5).copies;
    group.throughput(Throughput::Elements(copies));
    group.bench_function("perft(5) on table A, a copy a node", |b| {
        b.iter(|| black_box(perft(black_box(&start), 5)))
    });
    group.finish();

    let mut group = c.benchmark_group("copy");
    let mut played = start.clone();
    played
        .apply(Command::Activate("F7".parse().expect("square")))
        .expect("F7 holds a Red unit");
    played.apply(Command::Advance).expect("F7 east is open");
    let mut into = start.clone();
    group.bench_function("a game into a game of the same table (clone_from)", |b| {
        b.iter(|| into.clone_from(black_box(&played)))
    });
    group.bench_function("a new game (clone)", |b| {
        b.iter(|| black_box(black_box(&played).clone()))
    });
    group.finish();

    c.bench_function("undo after three commands", |b| {
        let mut game = Undoable::new(start.clone());
        for command in [
            Command::Activate("F7".parse().expect("square")),
            Command::Advance,
            Command::TurnLeft,
        ] {
            game.apply(Seat(0), &command)
                .expect("F7 holds a Red unit, east is open");
        }
        b.iter_batched(
            || game.clone(),
            |mut g| black_box(g.undo()),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
