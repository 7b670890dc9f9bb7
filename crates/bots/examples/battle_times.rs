//! A decision's time for each battle bot at the first March of a battle,
//! and random commands a second from the start:
//! `cargo run --release -p sandtable-bots --example battle_times -- FILE`,
//! or `-- limits` for a generated battle at the documented limits (a
//! 100 x 100 map, 5,000 formations a side).
use std::time::{Duration, Instant};

use rand::SeedableRng;
use sandtable_bots::Budget;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat, next_seat};
use sandtable_warpspawn::{Command, Game, Hex, Phase, Setup, samples};

/// 100 x 100 hexes; each side's 5,000 formations of 10 infantry fill the
/// 50 rows on its side of the middle.
fn at_the_limits() -> Setup {
    let mut pieces = Vec::new();
    for col in 0..100u8 {
        for row in 0..50u8 {
            let hex = Hex::new(col, row);
            pieces.push(samples::pieces(0, &hex.to_string(), 10, 0, 0));
            let hex = Hex::new(col, 99 - row);
            pieces.push(samples::pieces(1, &hex.to_string(), 10, 0, 0));
        }
    }
    let mut setup = samples::field(100, 100, pieces, Vec::new());
    for side in &mut setup.sides {
        side.points = u32::MAX / 4;
    }
    setup
}

fn main() {
    let arg = std::env::args().nth(1).expect("a battle file, or `limits`");
    let setup = if arg == "limits" {
        let setup = at_the_limits();
        // `limits FILE` writes the battle for the CLI's `simulate`.
        if let Some(out) = std::env::args().nth(2) {
            let battle = sandtable_scenario::battle::Battle {
                name: "At the limits".into(),
                setup: setup.clone(),
                colours: vec![
                    sandtable_scenario::Colour([200, 60, 40]),
                    sandtable_scenario::Colour([40, 90, 200]),
                ],
                physical: None,
                warnings: Vec::new(),
            };
            std::fs::write(&out, battle.to_ron()).expect("written");
        }
        setup
    } else {
        let Ok(sandtable_scenario::Loaded::Warpspawn(battle)) =
            sandtable_scenario::load_any(std::path::Path::new(&arg))
        else {
            panic!("{arg} loads as a battle");
        };
        battle.setup
    };
    let start = Game::new(&setup, Dice::seeded(setup.seed)).expect("the battle starts");
    // Random commands a second from the start, for up to 20 s.
    let mut game = start.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut events = Vec::new();
    let (t, mut commands) = (Instant::now(), 0u64);
    while let Some(seat) = next_seat(&game) {
        let Some(command) = sandtable_bots::contract::random(&game, seat, &mut rng) else {
            break;
        };
        events.clear();
        game.apply_into(seat, &command, &mut events).expect("legal");
        commands += 1;
        if t.elapsed() > Duration::from_secs(20) {
            break;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "random play: {commands} commands in {secs:.2} s, {:.0} a second, to turn {}",
        commands as f64 / secs,
        game.turn()
    );
    let mut game = start;
    while game.phase() != Phase::March {
        game.apply(&Command::End).expect("ends");
    }
    let seat = next_seat(&game).unwrap_or(Seat(0));
    let mut legal = Vec::new();
    let t = Instant::now();
    game.legal_into(seat, &mut legal);
    println!(
        "{arg}: {} stacks, {} legal commands at the first March, listed in {:.3} s",
        game.stacks().len(),
        legal.len(),
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let g = sandtable_bots::warpspawn::greedy(&game, seat, 1);
    println!(
        "greedy: {:?} in {:.3} s",
        g.map(|c| c.to_string()),
        t.elapsed().as_secs_f64()
    );
    // One iteration; `--mcts-ms 200`; the strength levels 3 to 5.
    let levels = (3..=5).map(|level| sandtable_bots::BotConfig::strength(level, 1).budget);
    for budget in [
        Budget::Iterations(1),
        Budget::Time(Duration::from_millis(200)),
    ]
    .into_iter()
    .chain(levels)
    {
        let t = Instant::now();
        let m = sandtable_bots::warpspawn::mcts(&game, seat, budget, 1, 1, 0.5);
        println!(
            "mcts {budget:?}: {:?} after {} playouts in {:.3} s",
            m.as_ref().map(|s| s.command.to_string()),
            m.as_ref().map_or(0, |s| s.playouts),
            t.elapsed().as_secs_f64()
        );
    }
}
