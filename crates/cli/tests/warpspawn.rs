//! The shipped Warpspawn battles played to their end by random seats
//! through the contract, as `play --bot 0=random --bot 1=random` plays
//! them; and the legal list at its largest, which a search must go
//! through at every decision.

use std::path::PathBuf;

use rand::SeedableRng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, Ending, GameState, Seat, next_seat};
use sandtable_scenario::{Loaded, load_any};
use sandtable_warpspawn::{Game, Outcome, Side};

fn battles() -> Vec<(String, sandtable_scenario::battle::Battle)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn");
    let mut out = Vec::new();
    for name in ["open-field.ron", "river-bridge.ron", "capture-the-flag.ron"] {
        match load_any(&dir.join(name)).unwrap_or_else(|e| panic!("{e}")) {
            Loaded::Warpspawn(b) => out.push((name.to_owned(), b)),
            _ => panic!("{name} is a battle"),
        }
    }
    out
}

#[test]
fn random_seats_play_every_shipped_battle_to_its_end() {
    let mut largest = 0;
    let mut played = 0u32;
    for (name, battle) in battles() {
        for seed in 0..8u64 {
            let mut game = Game::new(&battle.setup, Dice::seeded(seed)).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut legal = Vec::new();
            let mut commands = 0u32;
            while let Some(seat) = next_seat(&game) {
                game.legal_into(seat, &mut legal);
                largest = largest.max(legal.len());
                let command = sandtable_bots::contract::random(&game, seat, &mut rng)
                    .unwrap_or_else(|| panic!("{name}: {seat:?} owes a decision with none listed"));
                game.apply_into(seat, &command, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("{name}: `{command}`: {e}"));
                commands += 1;
                assert!(commands < 100_000, "{name}: the battle does not end");
            }
            played += commands;
            let (outcome, _) = game.ending().expect("over");
            let (red, blue) = (game.vp(Side(0)), game.vp(Side(1)));
            let expected = match red.cmp(&blue) {
                std::cmp::Ordering::Greater => Decision::Over(Ending::Won(Seat(0))),
                std::cmp::Ordering::Less => Decision::Over(Ending::Won(Seat(1))),
                std::cmp::Ordering::Equal => {
                    assert_eq!(outcome, Outcome::Draw);
                    game.decision()
                }
            };
            assert_eq!(game.decision(), expected, "{name}: more points win (R64)");
            assert!(
                game.turn() <= battle.setup.turns,
                "{name}: within its turns"
            );
        }
    }
    println!(
        "the largest legal list in 24 random games of the shipped battles ({played} commands): {largest}"
    );
    assert!(played > 24 * 80, "every battle runs its phases: {played}");
    assert!(
        largest <= 400,
        "a legal list stays small enough to search: {largest}"
    );
}
