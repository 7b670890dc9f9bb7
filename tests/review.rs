//! Looking back at a game at the table, headless, for every system through
//! the same generic path: a record opened and put into review steps
//! forward and back through each position hash for hash as the record
//! replays through the contract; a seat's eyes hold nothing that seat
//! could not see then (the secrets oracle, not the views' own code); a
//! game played on from a position is a record of its own and leaves the
//! one reviewed byte for byte unchanged; the curve has one point a
//! decision, as the search weighs it outside the table.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use bevy::prelude::*;
use sandtable::cache::play::Cache;
use sandtable::frontiers::table::Frontiers;
use sandtable::session::game::{ActiveGame, CommandOf, TableSystem};
use sandtable::session::review::{Review, ReviewPanel, ReviewRequest, Stride};
use sandtable::session::{BotPace, LoadRequest, SaveRequest};
use sandtable::warpspawn::table::Warpspawn;
use sandtable_core::game::{GameState, Seat, Viewer};
use sandtable_core::record::Record;

mod common;

fn headless() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.update();
    // Nothing plays by itself: no window passes, no bot moves.
    app.insert_resource(sandtable::frontiers::play::AutoPass(false))
        .insert_resource(BotPace(Duration::from_secs(3600)));
    app
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/cli/tests/data")
        .join(name)
}

fn game<S: TableSystem>(app: &App) -> &ActiveGame<S> {
    app.world()
        .get_resource::<ActiveGame<S>>()
        .unwrap_or_else(|| panic!("a game of {} is on the table: {}", S::KEY, common::notice(app)))
}

fn load(app: &mut App, request: LoadRequest) {
    app.world_mut().write_message(request);
    app.update();
    app.update();
}

fn ask(app: &mut App, request: ReviewRequest) {
    app.world_mut().write_message(request);
    app.update();
}

fn hash<S: TableSystem>(app: &App) -> u64 {
    game::<S>(app).game.game().state_hash()
}

/// Each position of the record at `path` as it replays through the
/// contract: the start as the table opens the file before its first
/// command, then each command applied to the bare game.
fn replayed<S: TableSystem>(app: &mut App, path: &Path) -> (Vec<u64>, Vec<CommandOf<S>>)
where
    CommandOf<S>: FromStr,
    <CommandOf<S> as FromStr>::Err: std::fmt::Display,
{
    let text = std::fs::read_to_string(path).expect("the record");
    let record: Record<CommandOf<S>> = Record::parse(&text).expect("a record");
    let first = record.commands[0].0;
    load(
        app,
        LoadRequest {
            path: path.to_path_buf(),
            until_line: Some(first - 1),
            discard_unsaved: true,
        },
    );
    let mut bare = game::<S>(app).game.game().clone();
    assert!(game::<S>(app).record.is_empty());
    let mut hashes = vec![bare.state_hash()];
    for (line, command) in &record.commands {
        let seat = sandtable_core::game::next_seat(&bare).expect("not over");
        bare.apply_into(seat, command, &mut Vec::new())
            .unwrap_or_else(|e| panic!("line {line}: {e}"));
        hashes.push(bare.state_hash());
    }
    let commands = record.commands.iter().map(|(_, c)| *c).collect();
    (hashes, commands)
}

/// Opens the record at `path` and puts it into review.
fn review_of<S: TableSystem>(app: &mut App, path: &Path) {
    load(
        app,
        LoadRequest {
            path: path.to_path_buf(),
            until_line: None,
            discard_unsaved: true,
        },
    );
    ask(app, ReviewRequest::Open);
    app.update();
    assert!(
        app.world().get_resource::<Review<S>>().is_some(),
        "in review: {}",
        common::notice(app)
    );
}

fn at<S: TableSystem>(app: &App) -> usize {
    app.world().resource::<Review<S>>().at
}

/// Steps through the record at `path` in review: back from the last
/// position to the first one command at a time, on again, by jumps, by
/// a side's go and a turn, each position hash for hash as the record
/// replays; closed, the game is as it was.
fn steps_hash_for_hash<S: TableSystem>(path: &Path)
where
    CommandOf<S>: FromStr,
    <CommandOf<S> as FromStr>::Err: std::fmt::Display,
{
    let mut app = headless();
    let (hashes, commands) = replayed::<S>(&mut app, path);
    let n = commands.len();
    review_of::<S>(&mut app, path);
    let before = app.world().resource::<Review<S>>().id;
    let whole = game::<S>(&app).reviewing.clone().expect("the game reviewed");
    assert_eq!(whole.record, commands, "{}", S::KEY);
    assert_eq!(at::<S>(&app), n, "a review opens at the last position");
    assert_eq!(hash::<S>(&app), hashes[n]);
    for k in (0..n).rev() {
        ask(&mut app, ReviewRequest::Step(Stride::Command, false));
        assert_eq!(at::<S>(&app), k);
        assert_eq!(hash::<S>(&app), hashes[k], "{}: back to position {k}", S::KEY);
        assert_eq!(game::<S>(&app).record, commands[..k]);
    }
    for k in 1..=n {
        ask(&mut app, ReviewRequest::Step(Stride::Command, true));
        assert_eq!(hash::<S>(&app), hashes[k], "{}: on to position {k}", S::KEY);
    }
    // Jumps, each to a position away from the copies kept.
    let mut k = 0usize;
    for _ in 0..12 {
        k = (k * 7 + 13) % (n + 1);
        ask(&mut app, ReviewRequest::To(k));
        assert_eq!(hash::<S>(&app), hashes[k], "{}: jumped to {k}", S::KEY);
    }
    // A turn and a side's go at a time, on to the end and back.
    for stride in [Stride::Turn, Stride::Go] {
        ask(&mut app, ReviewRequest::Step(Stride::End, false));
        assert_eq!(at::<S>(&app), 0);
        let mut stops = vec![0];
        while at::<S>(&app) < n {
            let (turn, deciding) = {
                let g = game::<S>(&app).game.game();
                (g.turn(), sandtable_core::game::next_seat(g))
            };
            ask(&mut app, ReviewRequest::Step(stride, true));
            let g = game::<S>(&app).game.game();
            let k = at::<S>(&app);
            assert_eq!(hash::<S>(&app), hashes[k]);
            // It stops where the turn (or the seat deciding) changes,
            // or at the end.
            let changed = match stride {
                Stride::Turn => g.turn() != turn,
                _ => sandtable_core::game::next_seat(g) != deciding,
            };
            assert!(changed || k == n, "{}: {stride:?} stopped at {k}", S::KEY);
            stops.push(k);
        }
        // Back, it stops at the same places.
        for want in stops.iter().rev().skip(1) {
            ask(&mut app, ReviewRequest::Step(stride, false));
            assert_eq!(at::<S>(&app), *want, "{}: {stride:?} back", S::KEY);
        }
    }
    // Nothing is played on a position in review; undo takes nothing back.
    ask(&mut app, ReviewRequest::To(n / 2));
    app.world_mut().write_message(sandtable::session::UndoRequest);
    app.update();
    assert_eq!(game::<S>(&app).record.len(), n / 2);
    assert!(common::notice(&app).contains("in review"), "{}", common::notice(&app));
    ask(&mut app, ReviewRequest::Close);
    app.update();
    assert!(app.world().get_resource::<Review<S>>().is_none());
    let back = game::<S>(&app);
    assert!(back.reviewing.is_none());
    assert_eq!(back.record, commands);
    assert_eq!(back.game.game().state_hash(), hashes[n]);
    assert_eq!(back.id, whole.id);
    assert_ne!(back.id, before);
    assert_eq!(back.file.as_deref(), Some(path));
}

#[test]
fn cache_s_review_steps_each_position_hash_for_hash() {
    steps_hash_for_hash::<Cache>(&data("open-field-capture.moves"));
}

#[test]
fn the_battle_s_review_steps_each_position_hash_for_hash() {
    steps_hash_for_hash::<Warpspawn>(&data("flank-march.moves"));
}

#[test]
fn frontiers_review_steps_each_position_hash_for_hash() {
    steps_hash_for_hash::<Frontiers>(&data("skirmish-person-wins-zirl.moves"));
}
