//! Looking back at a game at the table, measured in the dev build (the
//! build `cargo run` plays in): opening the review of a skirmish of
//! 1,000 commands (its record replayed through the table's game, a copy
//! kept every 32 commands), the jump from its first position to its last,
//! the slowest jump to any position, and the memory the review holds.
//! The game is 1,000 random legal commands of `scenarios/frontiers/skirmish.ron`
//! at the relay with its turn limit raised to 60, played through the
//! table's game as the table plays them.
//!
//! Run: `cargo bench --bench review --profile dev`.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use sandtable::frontiers::ActiveSkirmish;
use sandtable::session::review::Review;
use sandtable::session::{Seat, Seats};
use sandtable_core::game::{GameState, next_seat};

/// The commands of the game reviewed.
const COMMANDS: usize = 1_000;

/// The resident memory of this process, in bytes (Linux), if it can be
/// read.
fn resident() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let skirmish =
        match sandtable_scenario::load_any(&root.join("scenarios/frontiers/skirmish.ron"))
            .expect("the skirmish")
        {
            sandtable_scenario::Loaded::Frontiers(s) => s,
            _ => panic!("a skirmish"),
        };
    let mut setup = skirmish.setup.clone();
    setup.turns = 60;
    let dice = sandtable_core::dice::Dice::seeded(setup.seed);
    let mut whole = ActiveSkirmish::start(skirmish, &setup, dice).expect("starts");
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    while whole.record.len() < COMMANDS {
        let game = whole.game.game();
        let seat = next_seat(game).expect("the game lasts 1,000 commands");
        let command = game.random_command(seat, &mut rng).expect("a command");
        whole.play(command).expect("legal");
    }
    let turns = whole.game.game().turn();
    let seats = Seats(vec![Seat::Person; 2]);

    // The memory first, before any review's was freed for the next.
    let before = resident();
    let review = Review::of(&whole, &seats).expect("reviewed");
    let held = resident().zip(before).map(|(a, b)| a.saturating_sub(b));
    let mut opening = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let again = Review::of(&whole, &seats).expect("reviewed");
        opening.push(start.elapsed());
        drop(again);
    }

    // From the first position to the last, as the bar's ">|" does.
    let mut jumps = Vec::new();
    for _ in 0..21 {
        let first = review.position(0, false);
        let start = Instant::now();
        let last = review.position(COMMANDS, false);
        jumps.push(start.elapsed());
        assert_eq!(last.0.record.len(), COMMANDS);
        drop(first);
    }
    // The slowest jump: to each position once.
    let mut slowest = (Duration::ZERO, 0);
    for k in 0..=COMMANDS {
        let start = Instant::now();
        let at = review.position(k, false);
        let took = start.elapsed();
        assert_eq!(at.0.record.len(), k);
        if took > slowest.0 {
            slowest = (took, k);
        }
    }
    println!("a skirmish of {COMMANDS} random commands ({turns} turns), in the dev build:");
    println!(
        "  opening its review (every command replayed, a copy kept every {}): median {:.1} ms of 5",
        sandtable::session::review::EVERY,
        median(opening).as_secs_f64() * 1e3
    );
    println!(
        "  a jump from the first position to the last: median {:.2} ms of 21",
        median(jumps).as_secs_f64() * 1e3
    );
    println!(
        "  the slowest jump, to position {}: {:.2} ms",
        slowest.1,
        slowest.0.as_secs_f64() * 1e3
    );
    match held {
        Some(bytes) => println!(
            "  the memory the review holds: about {:.1} MB resident",
            bytes as f64 / 1e6
        ),
        None => println!("  the memory the review holds: not readable here"),
    }
}
