//! A frame's cost of Sandtable's own systems: the table's logic (the game
//! flow, the table's entities following the game, the legal moves shown,
//! the hidden log, the bots' scheduling) without a window, as
//! [`sandtable::logic_plugin`] runs on `MinimalPlugins`; rendering, which
//! is Bevy's and the GPU's, is left out. Measured on shipped scenarios of
//! each system, the stress boards among them:
//!
//! - a quiet frame: nothing happens, the person looks at the table;
//! - a command's frame: a random legal command of the seat to move reaches
//!   the table as a bot's does, and in that one frame it is checked,
//!   played, logged and the table's entities follow it (the bench fails if
//!   the game did not move in that frame).
//!
//! Each is measured twice: with Bevy's multi-threaded executor, as the
//! app runs (what a frame takes, the hand-overs between its threads
//! included), and with every schedule on one thread (the systems' own
//! work, summed, without those hand-overs).
//!
//! Run in the profile measured, for example
//! `cargo bench --bench frame --profile release` (the release profile the
//! package ships) or `--profile dev` (the build `cargo run` plays in).

use std::path::Path;
use std::time::{Duration, Instant};

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use rand::SeedableRng;
use sandtable::session::game::{ActiveGame, TableSystem};
use sandtable::session::{LoadRequest, Seat as TableSeat, Seats, StartTurn};
use sandtable_core::game::{GameState, next_seat};

/// Quiet frames measured on each scenario.
const QUIET: usize = 300;

/// Commands measured on each scenario, at most (fewer if the game ends).
const COMMANDS: usize = 300;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    println!("a frame of Sandtable's own systems, headless: median, 95th percentile, worst");
    // What Bevy's own frame costs with nothing of Sandtable's in it.
    let mut bare = App::new();
    bare.add_plugins(MinimalPlugins);
    bare.update();
    let times = (0..QUIET)
        .map(|_| {
            let start = Instant::now();
            bare.update();
            start.elapsed()
        })
        .collect();
    println!("MinimalPlugins alone, no table: {}", spread(times));
    for one_thread in [false, true] {
        let cache = measure::<sandtable::cache::play::Cache>;
        let battle = measure::<sandtable::warpspawn::table::Warpspawn>;
        cache(&root.join("standard.ron"), one_thread);
        cache(&root.join("stress-100x100.ron"), one_thread);
        battle(&root.join("warpspawn/open-field.ron"), one_thread);
        battle(&root.join("warpspawn/flank-march.ron"), one_thread);
        battle(&root.join("warpspawn/stress-60x40.ron"), one_thread);
        measure::<sandtable::frontiers::Frontiers>(
            &root.join("frontiers/skirmish.ron"),
            one_thread,
        );
    }
}

/// The table without a window, `path` open on it, every seat a person's.
fn table<S: TableSystem>(path: &Path) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.update();
    app.world_mut().write_message(LoadRequest::new(path));
    for _ in 0..3 {
        app.update();
    }
    let seats = app
        .world()
        .get_resource::<ActiveGame<S>>()
        .unwrap_or_else(|| panic!("{} opens", path.display()))
        .game
        .game()
        .seats();
    app.insert_resource(Seats(vec![TableSeat::Person; seats]));
    take_table::<S>(&mut app);
    app
}

/// The person the table is handed to takes it, as the curtain's button
/// does (a skirmish's empty card windows pass on their own, and may hand
/// it on again).
fn take_table<S: TableSystem>(app: &mut App) {
    for _ in 0..10 {
        if app.world().resource::<ActiveGame<S>>().handover.is_none() {
            return;
        }
        app.world_mut().write_message(StartTurn);
        app.update();
    }
    panic!("the table is never taken");
}

fn measure<S: TableSystem>(path: &Path, one_thread: bool) {
    let mut app = table::<S>(path);
    let file = path.file_name().expect("a file").to_string_lossy();
    let name = if one_thread {
        for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
        format!("{file}, one thread")
    } else {
        file.into_owned()
    };

    let revision = app.world().resource::<ActiveGame<S>>().revision;
    let mut quiet = Vec::with_capacity(QUIET);
    for _ in 0..QUIET {
        let start = Instant::now();
        app.update();
        quiet.push(start.elapsed());
    }
    assert_eq!(
        revision,
        app.world().resource::<ActiveGame<S>>().revision,
        "nothing happened in the quiet frames"
    );

    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    let mut commands = Vec::with_capacity(COMMANDS);
    while commands.len() < COMMANDS {
        take_table::<S>(&mut app);
        let active = app.world().resource::<ActiveGame<S>>();
        let game = active.game.game();
        let Some(seat) = next_seat(game) else {
            break;
        };
        let command = game
            .random_command(seat, &mut rng)
            .expect("a legal command");
        let before = active.revision;
        app.world_mut().write_message(S::bot_request(command));
        let start = Instant::now();
        app.update();
        commands.push(start.elapsed());
        assert!(
            app.world().resource::<ActiveGame<S>>().revision > before,
            "{name}: the command was played in its frame"
        );
    }
    println!("{name}: quiet {}", spread(quiet));
    println!(
        "{name}: a command's frame, {} commands: {}",
        commands.len(),
        spread(commands)
    );
}

fn spread(mut times: Vec<Duration>) -> String {
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    format!(
        "{:.0} µs, {:.0} µs, {:.0} µs",
        us(times[times.len() / 2]),
        us(times[times.len() * 95 / 100]),
        us(times[times.len() - 1])
    )
}
