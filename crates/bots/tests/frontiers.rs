//! Frontiers' bots never read a secret (R149): at every decision of a
//! shipped game, their choice is the same on a copy where everything the
//! deciding seat may not see (the other side's hand and face-down
//! markers, a sealed command not yet revealed, crates' hidden contents,
//! the decks' order, the dice to come) was dealt again. And a fixed seed
//! and budget give the same choice.

use std::path::Path;

use sandtable_bots::Budget;
use sandtable_bots::frontiers::{greedy, mcts, view_hash};
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, next_seat};
use sandtable_core::record::Record;
use sandtable_frontiers::{Command, Game};

/// The states of a shipped game in which a seat decides, every `every`th.
fn states(name: &str, every: usize) -> Vec<Game> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join(format!("scenarios/frontiers/{name}.ron")))
        .expect("the scenario");
    let skirmish = sandtable_scenario::skirmish::parse(&text, name).expect("it loads");
    let record: Record<Command> = sandtable_scenario::records::read(
        &root.join(format!("crates/cli/tests/data/frontiers-{name}.moves")),
    )
    .expect("the record");
    let seed: u64 = record
        .header("Seed")
        .map_or(skirmish.setup.seed, |s| s.parse().expect("a seed"));
    let mut game = Game::new(&skirmish.setup, Dice::seeded(seed)).expect("it starts");
    let mut out = Vec::new();
    for (k, (_, c)) in record.commands.iter().enumerate() {
        if k % every == 0 {
            out.push(game.clone());
        }
        let seat = next_seat(&game).expect("a seat decides");
        let mut events = Vec::new();
        game.apply_into(seat, c, &mut events)
            .expect("the record plays");
    }
    out
}

#[test]
fn a_bot_s_choice_is_the_same_whatever_it_may_not_see() {
    let (mut checked, mut hidden_differs) = (0, 0);
    for name in ["confrontation", "cameron-1"] {
        for game in states(name, 37) {
            let Some(seat) = next_seat(&game) else {
                continue;
            };
            let mut other = game.clone();
            other.redeal(seat, 99);
            // What the seat sees is the same; what it does not may differ.
            assert_eq!(view_hash(&game, seat), view_hash(&other, seat));
            hidden_differs += usize::from(game.state_hash() != other.state_hash());
            assert_eq!(
                greedy(&game, seat, 5),
                greedy(&other, seat, 5),
                "{name}: greedy at {}",
                sandtable_frontiers::text::status(&game)
            );
            assert_eq!(
                mcts(&game, seat, Budget::Iterations(40), 5).map(|c| c.0),
                mcts(&other, seat, Budget::Iterations(40), 5).map(|c| c.0),
                "{name}: mcts at {}",
                sandtable_frontiers::text::status(&game)
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} positions");
    assert!(
        hidden_differs * 2 >= checked,
        "{hidden_differs} of {checked} dealt anew"
    );
}

#[test]
fn a_fixed_seed_and_budget_give_the_same_choice() {
    for game in states("confrontation", 53) {
        let Some(seat) = next_seat(&game) else {
            continue;
        };
        assert_eq!(greedy(&game, seat, 3), greedy(&game, seat, 3));
        assert_eq!(
            mcts(&game, seat, Budget::Iterations(60), 3),
            mcts(&game, seat, Budget::Iterations(60), 3)
        );
    }
}
