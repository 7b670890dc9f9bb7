//! Games as bytes (`sandtable_core::wire::{write, read}`): a game read back is the game,
//! hash for hash; a masked copy reads back as itself; bytes that are not a
//! game, or a game's bytes with one byte changed, are refused or read into
//! a game the rules can still look at, and never crash the reader.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{GameState, Seat, Viewer, next_seat};
use sandtable_core::wire::{Wire, WireError, read, write};
use sandtable_scenario::{Loaded, load_any};

fn cache_game(path: &str) -> sandtable_cache::Game {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match load_any(&root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}")) {
        Loaded::Cache(scenario) => scenario.game(),
        _ => panic!("{path}: a Cache scenario"),
    }
}

/// Positions of a random game from `seed`: every `every`th of at most
/// `most` commands.
fn positions<G: GameState>(mut game: G, seed: u64, every: usize, most: usize) -> Vec<G> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for k in 0..most {
        if k % every == 0 {
            out.push(game.clone());
        }
        let Some(seat) = next_seat(&game) else { break };
        let command = game.random_command(seat, &mut rng).expect("a command");
        GameState::apply_into(&mut game, seat, &command, &mut Vec::new()).expect("legal");
    }
    out.push(game);
    out
}

/// What a reader does with a game: its lists and views, for every seat.
fn look<G: GameState>(game: &G) {
    let mut legal = Vec::new();
    for s in 0..game.seats() {
        let seat = Seat(s as u16);
        game.legal_into(seat, &mut legal);
        let _ = game.view_json(Viewer::Player(seat));
        let _ = game.draw_text(Viewer::Player(seat));
    }
    let _ = game.decision();
    let _ = game.state_hash();
}

/// Every position reads back as itself, hash for hash, and so does its
/// masked copy for each viewer, without dice.
fn reads_back<G>(positions: &[G], what: &str)
where
    G: GameState + PartialEq + Wire,
{
    for (k, game) in positions.iter().enumerate() {
        let back: G = read(&write(game)).unwrap_or_else(|e| panic!("{what} {k}: {e}"));
        assert!(back == *game, "{what} {k}");
        assert_eq!(back.state_hash(), game.state_hash(), "{what} {k}");
        for viewer in [
            Viewer::Public,
            Viewer::Player(Seat(0)),
            Viewer::Player(Seat(1)),
        ] {
            let masked = game.masked(viewer);
            let back: G = read(&write(&masked)).unwrap_or_else(|e| panic!("{what} {k}: {e}"));
            assert!(back == masked, "{what} {k}: the masked copy of {viewer:?}");
            assert_eq!(back.dice().left(), Some(0), "no dice on the wire");
        }
    }
}

/// Random bytes, and `game`'s bytes with one byte changed, are refused
/// with a reason or read into a game the rules can look at; returns how
/// many changed encodings were refused and how many read into a game.
fn survives<G>(game: &G, seed: u64) -> (usize, usize)
where
    G: GameState + Wire,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for len in 0..300 {
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        if let Ok(game) = read::<G>(&bytes) {
            look(&game);
        }
    }
    let bytes = write(game);
    let (mut refused, mut kept) = (0, 0);
    for _ in 0..3000 {
        let mut changed = bytes.clone();
        let k = rng.random_range(0..changed.len());
        changed[k] = rng.random();
        match read::<G>(&changed) {
            Ok(game) => {
                look(&game);
                kept += 1;
            }
            Err(WireError::Malformed(why)) => {
                assert!(!why.is_empty());
                refused += 1;
            }
            Err(WireError::Version { found }) => assert_ne!(found, 1),
        }
    }
    (refused, kept)
}

fn skirmish(path: &str) -> sandtable_frontiers::Game {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match load_any(&root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}")) {
        Loaded::Frontiers(s) => sandtable_frontiers::Game::new(
            &s.setup,
            sandtable_core::dice::Dice::seeded(s.setup.seed),
        )
        .expect("starts"),
        _ => panic!("{path}: a skirmish"),
    }
}

#[test]
fn a_cache_game_reads_back_as_itself() {
    for (path, seed) in [
        ("scenarios/standard.ron", 1),
        ("scenarios/snyder-skirmish.ron", 2),
    ] {
        reads_back(&positions(cache_game(path), seed, 4, 120), path);
    }
}

#[test]
fn bytes_that_are_not_a_cache_game_are_refused_without_a_crash() {
    let game = positions(cache_game("scenarios/snyder-skirmish.ron"), 4, 30, 30)
        .pop()
        .expect("a position");
    let (refused, read) = survives(&game, 9);
    // The control: both kinds happened.
    assert!(refused > 0 && read > 0, "refused {refused}, read {read}");
}

#[test]
fn a_skirmish_reads_back_as_itself() {
    for (path, seed) in [
        ("scenarios/frontiers/confrontation.ron", 1),
        ("scenarios/frontiers/cameron-1.ron", 2),
        ("scenarios/frontiers/treasure-hunt.ron", 3),
        ("scenarios/frontiers/data-recovery.ron", 4),
    ] {
        reads_back(&positions(skirmish(path), seed, 10, 300), path);
    }
}

#[test]
fn bytes_that_are_not_a_skirmish_are_refused_without_a_crash() {
    let game = positions(
        skirmish("scenarios/frontiers/treasure-hunt.ron"),
        5,
        120,
        120,
    )
    .pop()
    .expect("a position");
    let (refused, read) = survives(&game, 10);
    assert!(refused > 0 && read > 0, "refused {refused}, read {read}");
}

fn battle(path: &str) -> sandtable_warpspawn::Game {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match load_any(&root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}")) {
        Loaded::Warpspawn(b) => sandtable_warpspawn::Game::new(
            &b.setup,
            sandtable_core::dice::Dice::seeded(b.setup.seed),
        )
        .expect("starts"),
        _ => panic!("{path}: a battle"),
    }
}

/// The flank march after each command of its shipped record.
fn flank_march() -> Vec<sandtable_warpspawn::Game> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(root.join("tests/data/flank-march.moves")).expect("the record");
    let mut game = battle("scenarios/warpspawn/flank-march.ron");
    let mut out = vec![game.clone()];
    for l in text.lines().map(str::trim) {
        if l.is_empty() || l.starts_with('#') || l.starts_with('[') {
            continue;
        }
        let command: sandtable_warpspawn::Command = l.parse().expect("the notation");
        let seat = next_seat(&game).expect("the record ends before the battle");
        GameState::apply_into(&mut game, seat, &command, &mut Vec::new()).expect("legal");
        out.push(game.clone());
    }
    out
}

#[test]
fn a_battle_reads_back_as_itself() {
    reads_back(
        &positions(battle("scenarios/warpspawn/open-field.ron"), 1, 10, 300),
        "open field",
    );
    reads_back(&flank_march(), "flank march");
}

#[test]
fn bytes_that_are_not_a_battle_are_refused_without_a_crash() {
    // In the middle of the ring's movement, with orders revealed.
    let game = flank_march()
        .into_iter()
        .find(|g| g.grid().is_some_and(|r| !r.revealed.is_empty()))
        .expect("a position with orders revealed");
    let (refused, read) = survives(&game, 11);
    assert!(refused > 0 && read > 0, "refused {refused}, read {read}");
}
