//! Frontiers at the documented limits: the two test tables of
//! `scenarios/tests/` (200 terrain polygons of 64 corners with 5 units a
//! side; 20 such polygons with 60 units a side), and the shipped
//! Confrontation beside them. On each: every shot's plan between the two
//! sides (its lines of sight), a move checked, the legal list of the
//! first unit to act, and a random playout of the first turn.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Legal, Seat, next_seat};
use sandtable_frontiers::flow::Phase;
use sandtable_frontiers::{Command, Game};

fn load(name: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the scenario");
    let skirmish =
        sandtable_scenario::skirmish::parse(&text, name).unwrap_or_else(|e| panic!("{e}"));
    Game::new(&skirmish.setup, Dice::seeded(skirmish.setup.seed)).expect("starts")
}

/// Plays the random player until the first turn ends; the commands.
fn first_turn(game: &Game, seed: u64) -> u32 {
    let mut g = game.clone();
    g.reseed(seed);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut events = Vec::new();
    let mut n = 0;
    while let Some(seat) = next_seat(&g) {
        if g.turn_number() > 1 {
            break;
        }
        let c = g.random_command(seat, &mut rng).expect("a command");
        events.clear();
        g.apply_into(seat, &c, &mut events).expect("legal");
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("frontiers at scale");
    group.sample_size(10);
    for name in [
        "tests/frontiers-200-polygons.ron",
        "tests/frontiers-60-units.ron",
        "frontiers/skirmish.ron",
    ] {
        let game = load(name);
        let units = game.units();
        let pairs: Vec<(usize, usize)> = (0..units.len())
            .flat_map(|i| (0..units.len()).map(move |t| (i, t)))
            .filter(|&(i, t)| units[i].side != units[t].side && units[i].at != units[t].at)
            .collect();
        let short = name.rsplit('/').next().unwrap_or(name);
        let seen = pairs
            .iter()
            .filter(|&&(i, t)| game.aim(i, t, 0, false).is_some())
            .count();
        eprintln!("{short}: {} of {} shots have a line", seen, pairs.len());
        group.bench_function(format!("{short}: one shot's lines of sight (aim)"), |b| {
            let mut k = 0;
            b.iter(|| {
                let (i, t) = pairs[k % pairs.len()];
                k += 1;
                black_box(game.aim(i, t, 0, false))
            })
        });
        // A straight move of each unit a ruler's third toward the enemy.
        let moves: Vec<(usize, Command)> = (0..units.len())
            .filter_map(|i| {
                let u = &units[i];
                let dy = if u.side == 0 { 80 } else { -80 };
                let to = sandtable_frontiers::command::P16::of(
                    sandtable_frontiers::geometry::Pt::new(u.at.x, u.at.y + dy),
                )?;
                Some((i, Command::move_to(u.tag, &[to], None)?))
            })
            .collect();
        group.bench_function(format!("{short}: a move checked"), |b| {
            let mut k = 0;
            b.iter(|| {
                let (i, m) = &moves[k % moves.len()];
                k += 1;
                let Command::Move { legs, face, .. } = m else {
                    unreachable!()
                };
                black_box(game.check_move(*i, legs, *face).is_ok())
            })
        });
        group.bench_function(format!("{short}: a random first turn"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                black_box(first_turn(black_box(&game), seed))
            })
        });
        // The legal list of the first unit to act: random play up to the
        // first action.
        let mut at_act = game.clone();
        let mut rng = SmallRng::seed_from_u64(3);
        let mut events = Vec::new();
        while !matches!(at_act.flow().phase, Phase::Act) {
            let seat = next_seat(&at_act).expect("a seat");
            let c = at_act.random_command(seat, &mut rng).expect("a command");
            at_act.apply_into(seat, &c, &mut events).expect("legal");
        }
        let game = at_act;
        let mut legal: Vec<Legal<Command>> = Vec::new();
        let seat = next_seat(&game).unwrap_or(Seat(0));
        game.legal_into(seat, &mut legal);
        eprintln!(
            "{short}: {} families listed at the first action",
            legal.len()
        );
        group.bench_function(format!("{short}: the first legal list"), |b| {
            b.iter(|| {
                game.legal_into(seat, &mut legal);
                black_box(legal.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
