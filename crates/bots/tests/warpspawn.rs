//! The Warpspawn bots against the rules: only legal commands, the same
//! choice for the same seed and budget, the game left as it was, battles
//! that end within their turns on the shipped scenarios, and a free capture
//! taken (R63, R69, R81).

use std::path::PathBuf;

use proptest::prelude::*;
use rand::SeedableRng;
use sandtable_bots::Budget;
use sandtable_bots::warpspawn::{greedy, mcts};
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat, next_seat};
use sandtable_warpspawn::{Command, Game, Hex, PiecesSetup, Side, samples};

fn hex(name: &str) -> Hex {
    name.parse().expect("a hex")
}

fn open_field() -> Game {
    Game::new(&samples::open_field(), Dice::seeded(42)).expect("the sample is valid")
}

/// A position `steps` random legal commands into the open field.
fn position(steps: usize, seed: u64) -> Game {
    let mut game = open_field();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut events = Vec::new();
    for _ in 0..steps {
        let Some(seat) = next_seat(&game) else {
            break;
        };
        let command = sandtable_bots::contract::random(&game, seat, &mut rng)
            .expect("a seat to act has a command");
        events.clear();
        game.apply_into(seat, &command, &mut events)
            .expect("a listed command is legal");
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Greedy and mcts give a command the rules accept, for the seat to act,
    /// anywhere in a battle, and leave the battle as it was.
    #[test]
    fn bots_give_legal_commands_and_change_nothing(steps in 0usize..300, seed in 0u64..1000) {
        let game = position(steps, seed);
        let hash = game.state_hash();
        if let Some(seat) = next_seat(&game) {
            let g = greedy(&game, seat, seed).expect("a seat to act gets a command");
            prop_assert!(game.check(seat, &g).is_ok(), "greedy gave `{g}`");
            let m = mcts(&game, seat, Budget::Iterations(6), seed, 1, 0.5)
                .expect("a seat to act gets a command");
            prop_assert!(game.check(seat, &m.command).is_ok(), "mcts gave `{}`", m.command);
            prop_assert!(m.playouts <= 6);
            // The other seat owes nothing: neither bot answers for it.
            let other = Seat(1 - seat.0);
            prop_assert_eq!(greedy(&game, other, seed), None);
            prop_assert!(mcts(&game, other, Budget::Iterations(6), seed, 1, 0.5).is_none());
        }
        prop_assert_eq!(game.state_hash(), hash, "the bots think on copies");
    }
}

#[test]
fn a_seed_and_a_budget_give_the_same_choice() {
    let mut searched = 0;
    for steps in [0, 40, 120, 200] {
        let game = position(steps, 5);
        let Some(seat) = next_seat(&game) else {
            continue;
        };
        let a = mcts(&game, seat, Budget::Iterations(30), 9, 1, 0.5).expect("a command");
        let b = mcts(&game, seat, Budget::Iterations(30), 9, 1, 0.5).expect("a command");
        assert_eq!(a, b, "mcts after {steps} commands");
        // Two trees, one a thread, add up the same way every time.
        let c = mcts(&game, seat, Budget::Iterations(30), 9, 2, 0.5).expect("a command");
        let d = mcts(&game, seat, Budget::Iterations(30), 9, 2, 0.5).expect("a command");
        assert_eq!(c, d, "two trees after {steps} commands");
        assert_eq!(
            c.playouts, a.playouts,
            "the budget is split between the trees (none is run for a single legal command)"
        );
        searched += usize::from(a.playouts == 30);
        assert_eq!(
            greedy(&game, seat, 9),
            greedy(&game, seat, 9),
            "greedy after {steps} commands"
        );
    }
    assert!(
        searched >= 2,
        "positions with a choice were searched: {searched}"
    );
}

#[test]
fn a_finished_battle_gets_no_command() {
    let mut game = position(0, 1);
    let mut events = Vec::new();
    while let Some(seat) = next_seat(&game) {
        let command = greedy(&game, seat, 3).expect("a seat to act gets a command");
        events.clear();
        game.apply_into(seat, &command, &mut events)
            .expect("greedy gives legal commands");
    }
    for seat in [Seat(0), Seat(1)] {
        assert_eq!(greedy(&game, seat, 3), None);
        assert!(mcts(&game, seat, Budget::Iterations(10), 3, 1, 0.5).is_none());
    }
}

/// Greedy against mcts on every shipped scenario: the battle ends by its
/// own rules (R64) within its turns, every command accepted.
#[test]
fn bots_finish_every_shipped_battle_within_its_turns() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn");
    for name in ["open-field.ron", "river-bridge.ron", "capture-the-flag.ron"] {
        let Ok(sandtable_scenario::Loaded::Warpspawn(battle)) =
            sandtable_scenario::load_any(&dir.join(name))
        else {
            panic!("{name} loads as a battle");
        };
        let turns = battle.setup.turns;
        let mut game = Game::new(&battle.setup, Dice::seeded(battle.setup.seed))
            .unwrap_or_else(|e| panic!("{name} starts: {e}"));
        let mut events = Vec::new();
        let mut commands = 0;
        while let Some(seat) = next_seat(&game) {
            let command = if seat.0 == 0 {
                greedy(&game, seat, 11).expect("a command")
            } else {
                mcts(&game, seat, Budget::Iterations(4), 11, 1, 0.5)
                    .expect("a command")
                    .command
            };
            events.clear();
            game.apply_into(seat, &command, &mut events)
                .unwrap_or_else(|e| panic!("{name}: a bot gave `{command}`: {e}"));
            commands += 1;
            assert!(commands < 5_000, "{name}: the battle does not end");
        }
        assert!(game.ending().is_some(), "{name} is over");
        assert!(game.turn() <= turns, "{name} ended on turn {}", game.turn());
    }
}

/// A Blue officer holds Blue's flag alone in D5 (R63): Red's cavalry two
/// hexes off takes both in its March (R69), for 25 points (R81).
#[test]
fn greedy_takes_a_free_flag() {
    let setup = samples::field(
        8,
        8,
        vec![
            samples::pieces(0, "D3", 0, 6, 0),
            samples::pieces(0, "B1", 10, 0, 1),
            samples::pieces(1, "G8", 10, 0, 0),
            PiecesSetup {
                flag: true,
                ..samples::pieces(1, "D5", 0, 0, 1)
            },
        ],
        Vec::new(),
    );
    let mut game = Game::new(&setup, Dice::seeded(1)).expect("a valid battle");
    let red = Side(0);
    let mut events = Vec::new();
    while game.active() == red && game.vp(red) == 0 {
        let seat = next_seat(&game).expect("the battle goes on");
        let command = greedy(&game, seat, 1).expect("a command");
        events.clear();
        game.apply_into(seat, &command, &mut events)
            .expect("greedy gives legal commands");
        if let Command::March { from, .. } = command {
            assert_eq!(from, hex("D3"), "only the cavalry can reach the flag");
        }
    }
    assert_eq!(game.vp(red), 25, "the officer (5) and the flag (20)");
    assert_eq!(game.stack(hex("D5"), red).map(|s| s.flags), Some(1));
}

/// A budget of iterations within a time is the iterations' choice where
/// they take less (the same command, line and playouts), and stops at its
/// time where they would not: with no time to speak of, after the one
/// iteration every search runs.
#[test]
fn iterations_within_a_time_keep_to_both() {
    use std::time::Duration;
    let game = position(40, 3);
    let seat = next_seat(&game).expect("a seat to act");
    let plain = mcts(&game, seat, Budget::Iterations(60), 5, 1, 0.5).expect("a command");
    let within = mcts(
        &game,
        seat,
        Budget::Within {
            iterations: 60,
            time: Duration::from_secs(3600),
        },
        5,
        1,
        0.5,
    )
    .expect("a command");
    assert_eq!(within, plain, "time to spare: the iterations decide");
    let rushed = mcts(
        &game,
        seat,
        Budget::Within {
            iterations: 60,
            time: Duration::from_nanos(1),
        },
        5,
        1,
        0.5,
    )
    .expect("a command");
    assert_eq!(rushed.playouts, 1, "stopped at its time");
    assert!(game.check(seat, &rushed.command).is_ok());
}

#[test]
fn the_random_bot_draws_anew_at_every_position_with_one_seed() {
    // The first March: the same legal list under other dice is another
    // position (the dice are part of its state).
    let mut game = open_field();
    let mut events = Vec::new();
    let seat = loop {
        let seat = next_seat(&game).expect("a seat to act");
        let mut legal = Vec::new();
        game.legal_into(seat, &mut legal);
        if legal.len() > 10 {
            break seat;
        }
        game.apply_into(seat, &Command::End, &mut events)
            .expect("a phase ends");
    };
    let config = sandtable_bots::BotConfig::new(sandtable_bots::BotKind::Random, 9);
    let mut seen = std::collections::HashSet::new();
    for rolls in 0..40 {
        let mut copy = game.clone();
        let mut dice = Dice::seeded(1);
        for _ in 0..rolls {
            dice.d6().expect("a seeded die");
        }
        copy.set_dice(dice);
        let command = sandtable_bots::choose(&copy, seat, &config).expect("a command");
        seen.insert(command.to_string());
    }
    // One seed for a whole game, as a seat's bot has: drawn with the seed
    // alone, every position would take the same first draw.
    assert!(seen.len() > 5, "{} commands over 40 positions", seen.len());
}

/// Positions of the flank march with the off-board grid (R40-R57): random
/// legal commands from the start, each game a different seed.
fn flank_positions() -> Vec<Game> {
    let setup = samples::flank_march();
    let mut out = Vec::new();
    for seed in 0..6u64 {
        let mut game = Game::new(&setup, Dice::seeded(seed)).expect("the sample is valid");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut events = Vec::new();
        for step in 0..120 {
            let Some(seat) = next_seat(&game) else {
                break;
            };
            if step % 20 == 0 {
                out.push(game.clone());
            }
            let command = sandtable_bots::contract::random(&game, seat, &mut rng)
                .expect("a seat to act has a command");
            events.clear();
            game.apply_into(seat, &command, &mut events)
                .expect("a listed command is legal");
        }
    }
    out
}

#[test]
fn r57_greedy_and_mcts_choose_the_same_on_a_game_and_on_a_copy_dealt_from_their_view() {
    let mut dealt_differently = false;
    for (i, game) in flank_positions().iter().enumerate() {
        let Some(seat) = next_seat(game) else {
            continue;
        };
        for seed in 0..2u64 {
            let mut copy = game.clone();
            copy.redeal(seat, 1000 + seed);
            dealt_differently |= copy.view_json(sandtable_core::game::Viewer::Referee)
                != game.view_json(sandtable_core::game::Viewer::Referee);
            assert_eq!(
                greedy(&copy, seat, 7),
                greedy(game, seat, 7),
                "position {i}"
            );
            let chosen =
                |g: &Game| mcts(g, seat, Budget::Iterations(24), 7, 1, 0.0).map(|s| s.command);
            assert_eq!(chosen(&copy), chosen(game), "position {i}");
        }
    }
    // The control: the copies held other secrets than the game, so the
    // bots could have told them apart.
    assert!(dealt_differently, "no copy differed from its game");
}
