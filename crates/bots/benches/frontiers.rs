//! Frontiers' bots on Confrontation (`scenarios/frontiers/confrontation.ron`,
//! its own seed): every unit deployed by the greedy bot, then the first
//! decision of the first turn's Order phase and the first action of a
//! step. At each: a greedy decision, mcts at 200 iterations (the
//! tournaments' budget) and the hint the table asks for (strength 3).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable_bots::frontiers::forget_plans;
use sandtable_bots::{BotConfig, Budget, decide};
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, next_seat};
use sandtable_frontiers::Game;
use sandtable_frontiers::flow::Phase;

/// Plays greedy for both seats until `stop` holds.
fn play_until(game: &mut Game, stop: impl Fn(&Game) -> bool) {
    let greedy = BotConfig::new(sandtable_bots::BotKind::Greedy, 1);
    let mut events = Vec::new();
    while !stop(game) {
        let seat = next_seat(game).expect("a seat decides");
        let c = decide(game, seat, &greedy).expect("a command").command;
        game.apply_into(seat, &c, &mut events).expect("legal");
    }
}

fn bench(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/frontiers/confrontation.ron");
    let text = std::fs::read_to_string(&path).expect("the scenario");
    let skirmish = sandtable_scenario::skirmish::parse(&text, "confrontation").expect("loads");
    let mut game = Game::new(&skirmish.setup, Dice::seeded(skirmish.setup.seed)).expect("starts");
    play_until(&mut game, |g| matches!(g.flow().phase, Phase::Order));
    let order = game.clone();
    play_until(&mut game, |g| matches!(g.flow().phase, Phase::Act));
    let act = game;

    let mut group = c.benchmark_group("frontiers bots, confrontation");
    group.sample_size(10);
    for (name, position) in [("order", &order), ("act", &act)] {
        let seat = next_seat(position).expect("a seat decides");
        for (bot, config) in [
            ("greedy", BotConfig::new(sandtable_bots::BotKind::Greedy, 7)),
            (
                "mcts 200",
                BotConfig::new(sandtable_bots::BotKind::Mcts, 7)
                    .with_budget(Budget::Iterations(200)),
            ),
            ("hint (strength 3)", BotConfig::strength(3, 7)),
        ] {
            group.bench_function(format!("{bot} at the first {name}"), |b| {
                // Each decision starts without the plans of shots the
                // last one worked out, as the first of a game does.
                b.iter(|| {
                    forget_plans();
                    black_box(decide(black_box(position), seat, &config))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
