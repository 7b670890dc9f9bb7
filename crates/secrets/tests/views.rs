//! Every view of every shipped scenario with hidden things, at every
//! position of random games, against the secrets oracle: for each seat
//! and the public, the JSON and text views of the game and of its masked
//! copy (what the server sends that viewer) and every log line written
//! for it hold nothing the oracle says it may not know. The controls:
//! the referee's views shown as a seat's, and views with one masking step
//! taken out (an order through the enemy's reserve listed, R46; the first
//! side's markers described before both have placed, R107), are caught.
//!
//! The test command plays a few hundred games; for more:
//!
//! SANDTABLE_FUZZ_CASES=2000 cargo test --release -p sandtable-secrets --test views

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat, Viewer, next_seat};
use sandtable_scenario::{Loaded, load_any};
use sandtable_secrets::{Leak, Oracle, json_leaks_of, leaks_of, log_leaks};

const VIEWERS: [Viewer; 3] = [
    Viewer::Player(Seat(0)),
    Viewer::Player(Seat(1)),
    Viewer::Public,
];

/// Games to play over all the scenarios: `SANDTABLE_FUZZ_CASES`, else a
/// few hundred.
fn games() -> usize {
    std::env::var("SANDTABLE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(240)
}

fn load(path: &str) -> Loaded {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    load_any(&root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn battle(path: &str) -> sandtable_warpspawn::Game {
    let Loaded::Warpspawn(b) = load(path) else {
        panic!("{path}: a battle")
    };
    sandtable_warpspawn::Game::new(&b.setup, Dice::seeded(b.setup.seed)).expect("starts")
}

fn skirmish(path: &str) -> sandtable_frontiers::Game {
    let Loaded::Frontiers(s) = load(path) else {
        panic!("{path}: a skirmish")
    };
    sandtable_frontiers::Game::new(&s.setup, Dice::seeded(s.setup.seed)).expect("starts")
}

/// Plays `game` with random legal commands for at most `most` commands,
/// its dice dealt again from `seed`; at every position, every viewer's
/// JSON views (of the game and of its masked copy) and new log lines are
/// checked, and its text view at every `text_every`-th. The positions
/// checked.
fn play_and_check<G: Oracle>(
    mut game: G,
    seed: u64,
    most: usize,
    text_every: usize,
    name: &str,
) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    game.reseed(seed);
    let mut positions = 0;
    for k in 0..most {
        for viewer in VIEWERS {
            let leaks = if k % text_every == 0 {
                leaks_of(&game, viewer, &[])
            } else {
                json_leaks_of(&game, viewer)
            };
            assert!(
                leaks.is_empty(),
                "{name}, game {seed}, command {k}: {viewer:?} is shown {}",
                show(&leaks)
            );
        }
        positions += 1;
        let Some(seat) = next_seat(&game) else { break };
        let Some(command) = game.random_command(seat, &mut rng) else {
            break;
        };
        let before = game.clone();
        let mut events = Vec::new();
        GameState::apply_into(&mut game, seat, &command, &mut events)
            .unwrap_or_else(|e| panic!("{name}: a drawn command is legal: {e}"));
        for viewer in VIEWERS {
            let mut log: Vec<String> = game
                .command_for(seat, &command, viewer)
                .into_iter()
                .collect();
            log.extend(events.iter().filter_map(|e| game.describe_for(e, viewer)));
            let leaks = log_leaks(&before, &game, viewer, &log);
            assert!(
                leaks.is_empty(),
                "{name}, game {seed}, command {k} ({command}): {viewer:?}'s log says {}",
                show(&leaks)
            );
        }
    }
    positions
}

/// `game` after `lines` of the move notation, each played as the seat
/// that acts next.
fn played<G: GameState>(mut game: G, lines: &[&str]) -> G {
    for line in lines {
        let seat = next_seat(&game).expect("the game goes on");
        let command = line
            .parse()
            .unwrap_or_else(|_| panic!("`{line}` is in the notation"));
        game.apply_into(seat, &command, &mut Vec::new())
            .unwrap_or_else(|e| panic!("`{line}`: {e}"));
    }
    game
}

fn show(leaks: &[Leak]) -> String {
    leaks
        .iter()
        .map(|l| format!("{} ({}) in `{}`", l.what, l.ruling, l.found))
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn r46_r51_r55_r57_no_view_of_the_flank_march_shows_a_side_what_the_rules_hide_from_it() {
    let start = battle("scenarios/warpspawn/flank-march.ron");
    let count = games() / 4;
    let mut positions = 0;
    for g in 0..count as u64 {
        positions += play_and_check(start.clone(), 100 + g, 160, 1, "flank march");
    }
    assert!(positions > count * 50, "{positions} positions");
}

#[test]
fn r107_r143_r149_no_view_of_a_frontiers_scenario_shows_a_side_what_the_rules_hide_from_it() {
    let scenarios = [
        "scenarios/frontiers/skirmish.ron",
        "scenarios/frontiers/confrontation.ron",
        "scenarios/frontiers/attack-defense.ron",
        "scenarios/frontiers/attack-defense-easy.ron",
        "scenarios/frontiers/attack-defense-difficult.ron",
        "scenarios/frontiers/data-recovery.ron",
        "scenarios/frontiers/treasure-hunt.ron",
        "scenarios/frontiers/cameron-1.ron",
        "scenarios/frontiers/cameron-2.ron",
    ];
    let each = (games() * 3 / 4 / scenarios.len()).max(1);
    let mut positions = 0;
    for path in scenarios {
        let start = skirmish(path);
        for g in 0..each as u64 {
            positions += play_and_check(start.clone(), 200 + g, 60, 10, path);
        }
    }
    assert!(
        positions > each * scenarios.len() * 20,
        "{positions} positions"
    );
}

#[test]
fn the_oracle_catches_the_referee_s_views_shown_to_a_seat() {
    // The flank march once the ring has moved: each side's counters in
    // its reserve, unseen by the other.
    let game = played(
        battle("scenarios/warpspawn/flank-march.ron"),
        &[
            "order 1 hold",
            "order 2 hold",
            "commit",
            "order 2 hold",
            "order 1 hold",
            "commit",
        ],
    );
    let blue = Viewer::Player(Seat(1));
    let json: serde_json::Value =
        serde_json::from_str(&game.view_json(Viewer::Referee)).expect("JSON");
    assert!(
        !game.leaks_in_json(blue, &json).is_empty(),
        "Blue shown the referee's ring"
    );
    let text = game.draw_text(Viewer::Referee);
    assert!(
        !game
            .leaks_in_lines(blue, &text.lines().collect::<Vec<_>>())
            .is_empty()
    );
    // The referee's hover text over Red's squares, shown to Blue.
    let hovers: Vec<String> = game
        .hover_spots()
        .into_iter()
        .filter_map(|spot| game.describe_spot(spot, Viewer::Referee))
        .collect();
    let leaks = game.leaks_in_lines(blue, &hovers.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        leaks.iter().any(|l| l.ruling == "R46, R55"),
        "Blue hovering over Red's reserve: {}",
        show(&leaks)
    );
    // A skirmish after the first draws: the Zirl shown the Legion's hand.
    let game = played(
        skirmish("scenarios/frontiers/skirmish.ron"),
        &["discard", "discard"],
    );
    let zirl = Viewer::Player(Seat(1));
    let text = game.draw_text(Viewer::Referee);
    let leaks = game.leaks_in_lines(zirl, &text.lines().collect::<Vec<_>>());
    assert!(
        leaks.iter().any(|l| l.ruling == "R149"),
        "the Zirl shown the Legion's hand: {}",
        show(&leaks)
    );
}

#[test]
fn the_oracle_catches_a_view_with_one_masking_step_taken_out() {
    // R46: Red's horse rides 1T 2S 2T in its own reserve; the view as
    // it was, which listed a revealed order of any counter Blue located,
    // is caught.
    let game = played(
        battle("scenarios/warpspawn/flank-march.ron"),
        &[
            "order 1 1T 2S 2T",
            "order 2 hold",
            "commit",
            "order 2 hold",
            "order 1 hold",
            "commit",
        ],
    );
    let blue = Viewer::Player(Seat(1));
    assert!(
        leaks_of(&game, blue, &[]).is_empty(),
        "the view as it is now"
    );
    let mut json: serde_json::Value = serde_json::from_str(&game.view_json(blue)).expect("JSON");
    json["offboard"]["orders"]
        .as_array_mut()
        .expect("orders")
        .push(
            serde_json::json!({"player": "Red", "number": 1, "order": "1T 2S 2T", "scout": false}),
        );
    assert!(!game.leaks_in_json(blue, &json).is_empty(), "the R46 leak");
    let mut text = game.draw_text(blue);
    text.push_str("\n  order: Red 1 1T 2S 2T\n");
    assert!(
        !game
            .leaks_in_lines(blue, &text.lines().collect::<Vec<_>>())
            .is_empty()
    );
    // R107: the Zirl's view of the Legion's units as it was, with a
    // face-down marker on each unit the Legion had placed on.
    let game = played(
        skirmish("scenarios/frontiers/skirmish.ron"),
        &["discard", "discard", "orders T1:1 T2:2 CP:decoy S1:decoy"],
    );
    let zirl = Viewer::Player(Seat(1));
    assert!(
        leaks_of(&game, zirl, &[]).is_empty(),
        "the view as it is now"
    );
    let old = game
        .draw_text(zirl)
        .lines()
        .map(|l| {
            if ["T1 ", "T2 ", "CP ", "S1 "]
                .iter()
                .any(|t| l.starts_with(t))
            {
                format!("{l}, a face-down marker")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>();
    let lines: Vec<&str> = old.iter().map(String::as_str).collect();
    let leaks = game.leaks_in_lines(zirl, &lines);
    assert_eq!(
        leaks.len(),
        4,
        "the R107 leak, once a unit: {}",
        show(&leaks)
    );
}
