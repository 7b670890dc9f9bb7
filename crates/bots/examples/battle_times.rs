//! A decision's time for each battle bot at the first March of a battle:
//! `cargo run --release -p sandtable-bots --example battle_times -- FILE`.
use std::time::{Duration, Instant};

use sandtable_bots::Budget;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat};

fn main() {
    let path = std::env::args().nth(1).expect("a battle file");
    let Ok(sandtable_scenario::Loaded::Warpspawn(battle)) =
        sandtable_scenario::load_any(std::path::Path::new(&path))
    else {
        panic!("{path} loads as a battle");
    };
    let mut game = sandtable_warpspawn::Game::new(&battle.setup, Dice::seeded(battle.setup.seed))
        .expect("the battle starts");
    while game.phase() != sandtable_warpspawn::Phase::March {
        game.apply(&sandtable_warpspawn::Command::End)
            .expect("ends");
    }
    let seat = sandtable_core::game::next_seat(&game).unwrap_or(Seat(0));
    let mut legal = Vec::new();
    game.legal_into(seat, &mut legal);
    println!(
        "{path}: {} stacks, {} legal commands at the first March",
        game.stacks().len(),
        legal.len()
    );
    let t = Instant::now();
    let g = sandtable_bots::warpspawn::greedy(&game, seat, 1);
    println!(
        "greedy: {:?} in {:.3} s",
        g.map(|c| c.to_string()),
        t.elapsed().as_secs_f64()
    );
    for budget in [
        Budget::Iterations(1),
        Budget::Time(Duration::from_millis(200)),
    ] {
        let t = Instant::now();
        let m = sandtable_bots::warpspawn::mcts(&game, seat, budget, 1, 1);
        println!(
            "mcts {budget:?}: {:?} after {} playouts in {:.3} s",
            m.as_ref().map(|s| s.command.to_string()),
            m.as_ref().map_or(0, |s| s.playouts),
            t.elapsed().as_secs_f64()
        );
    }
}
