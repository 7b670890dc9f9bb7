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
        .unwrap_or_else(|| {
            panic!(
                "a game of {} is on the table: {}",
                S::KEY,
                common::notice(app)
            )
        })
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
    let (hashes, commands, _) = replayed_with_phases::<S>(app, path);
    (hashes, commands)
}

/// [`replayed`], with each position's turn and phase.
#[allow(clippy::type_complexity)]
fn replayed_with_phases<S: TableSystem>(
    app: &mut App,
    path: &Path,
) -> (Vec<u64>, Vec<CommandOf<S>>, Vec<(u32, u32)>)
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
    let mut phases = vec![(bare.turn(), S::phase(&bare))];
    for (line, command) in &record.commands {
        let seat = sandtable_core::game::next_seat(&bare).expect("not over");
        bare.apply_into(seat, command, &mut Vec::new())
            .unwrap_or_else(|e| panic!("line {line}: {e}"));
        hashes.push(bare.state_hash());
        phases.push((bare.turn(), S::phase(&bare)));
    }
    let commands = record.commands.iter().map(|(_, c)| *c).collect();
    (hashes, commands, phases)
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
/// a phase and a turn, each position hash for hash as the record
/// replays; closed, the game is as it was.
fn steps_hash_for_hash<S: TableSystem>(path: &Path)
where
    CommandOf<S>: FromStr,
    <CommandOf<S> as FromStr>::Err: std::fmt::Display,
{
    let mut app = headless();
    let (hashes, commands, phases) = replayed_with_phases::<S>(&mut app, path);
    let n = commands.len();
    review_of::<S>(&mut app, path);
    let before = app.world().resource::<Review<S>>().id;
    let whole = game::<S>(&app)
        .reviewing
        .clone()
        .expect("the game reviewed");
    assert_eq!(whole.record, commands, "{}", S::KEY);
    assert_eq!(at::<S>(&app), n, "a review opens at the last position");
    assert_eq!(hash::<S>(&app), hashes[n]);
    for k in (0..n).rev() {
        ask(&mut app, ReviewRequest::Step(Stride::Command, false));
        assert_eq!(at::<S>(&app), k);
        assert_eq!(
            hash::<S>(&app),
            hashes[k],
            "{}: back to position {k}",
            S::KEY
        );
        assert_eq!(game::<S>(&app).record, commands[..k]);
    }
    for (k, want) in hashes.iter().enumerate().skip(1) {
        ask(&mut app, ReviewRequest::Step(Stride::Command, true));
        assert_eq!(hash::<S>(&app), *want, "{}: on to position {k}", S::KEY);
    }
    // Jumps, each to a position away from the copies kept.
    let mut k = 0usize;
    for _ in 0..12 {
        k = (k * 7 + 13) % (n + 1);
        ask(&mut app, ReviewRequest::To(k));
        assert_eq!(hash::<S>(&app), hashes[k], "{}: jumped to {k}", S::KEY);
    }
    // A line of the log clicked: the position after its command, the
    // log being the one shown there.
    ask(&mut app, ReviewRequest::To(n));
    let want = n.min(10);
    let line = game::<S>(&app)
        .log
        .iter()
        .enumerate()
        .filter(|(_, l)| l.command)
        .nth(want - 1)
        .map(|(i, _)| i)
        .expect("a command's line");
    ask(&mut app, ReviewRequest::LogLine(line));
    assert_eq!(at::<S>(&app), want, "{}: the log's line {line}", S::KEY);
    assert_eq!(hash::<S>(&app), hashes[want]);
    // A turn and a phase at a time, on to the end and back: it stops at
    // each position where the turn (or the phase) changes, and at the end.
    let mut turns = 0;
    for stride in [Stride::Turn, Stride::Phase] {
        let key = |k: usize| match stride {
            Stride::Turn => (phases[k].0, 0),
            _ => phases[k],
        };
        let mut want: Vec<usize> = (1..=n).filter(|&k| key(k) != key(k - 1)).collect();
        if want.last() != Some(&n) {
            want.push(n);
        }
        ask(&mut app, ReviewRequest::Step(Stride::End, false));
        assert_eq!(at::<S>(&app), 0);
        let mut stops = vec![0];
        while at::<S>(&app) < n {
            let (turn, phase) = {
                let g = game::<S>(&app).game.game();
                (g.turn(), S::phase(g))
            };
            ask(&mut app, ReviewRequest::Step(stride, true));
            let g = game::<S>(&app).game.game();
            let k = at::<S>(&app);
            assert_eq!(hash::<S>(&app), hashes[k]);
            // It stops where the turn (or the phase) changes, at the
            // first position that differs, or at the end.
            let changed = match stride {
                Stride::Turn => g.turn() != turn,
                _ => (g.turn(), S::phase(g)) != (turn, phase),
            };
            assert!(changed || k == n, "{}: {stride:?} stopped at {k}", S::KEY);
            stops.push(k);
        }
        assert_eq!(stops[1..], want, "{}: {stride:?}", S::KEY);
        // More than one turn, and more phases than turns.
        assert!(
            want.len() > turns.max(1),
            "{}: {} {stride:?} stops",
            S::KEY,
            want.len()
        );
        turns = want.len();
        // Back, it stops at the same places.
        for want in stops.iter().rev().skip(1) {
            ask(&mut app, ReviewRequest::Step(stride, false));
            assert_eq!(at::<S>(&app), *want, "{}: {stride:?} back", S::KEY);
        }
    }
    // Saved from a position in review, the game reviewed is saved whole.
    ask(&mut app, ReviewRequest::To(n / 2));
    let dir = common::temp_dir("review", &format!("save-{}", S::KEY));
    let saved = dir.join("whole.moves");
    app.world_mut().write_message(SaveRequest::to(&saved));
    app.update();
    let text = std::fs::read_to_string(&saved)
        .unwrap_or_else(|e| panic!("{}: saved: {e}; {}", S::KEY, common::notice(&app)));
    let record: Record<CommandOf<S>> = Record::parse(&text).expect("a record");
    assert_eq!(
        record.commands.iter().map(|(_, c)| *c).collect::<Vec<_>>(),
        commands,
        "{}: the whole record",
        S::KEY
    );
    assert_eq!(at::<S>(&app), n / 2, "the review goes on");
    // Nothing is played on a position in review; undo takes nothing back.
    app.world_mut()
        .write_message(sandtable::session::UndoRequest);
    app.update();
    assert_eq!(game::<S>(&app).record.len(), n / 2);
    assert!(
        common::notice(&app).contains("in review"),
        "{}",
        common::notice(&app)
    );
    ask(&mut app, ReviewRequest::Close);
    app.update();
    assert!(app.world().get_resource::<Review<S>>().is_none());
    let back = game::<S>(&app);
    assert!(back.reviewing.is_none());
    assert_eq!(back.record, commands);
    assert_eq!(back.game.game().state_hash(), hashes[n]);
    assert_eq!(back.id, whole.id);
    assert_ne!(back.id, before);
    // Its own file is now the one saved in review.
    assert_eq!(back.file.as_deref(), Some(saved.as_path()));
    assert!(!back.has_unsaved_work());
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

/// The record at `path` cut to its first `keep` commands, its seats people
/// and its scenario named by its whole path, written into `dir`.
fn cut_record(path: &Path, dir: &Path, keep: usize) -> PathBuf {
    let text = std::fs::read_to_string(path).expect("the record");
    let folder = path.parent().expect("a folder");
    let mut out = String::new();
    let mut commands = 0;
    for line in text.lines() {
        if let Some(name) = line
            .strip_prefix("[Scenario \"")
            .and_then(|l| l.strip_suffix("\"]"))
        {
            let whole = folder.join(name).canonicalize().expect("the scenario");
            out.push_str(&format!("[Scenario \"{}\"]\n", whole.display()));
        } else if line.starts_with("[Seats ") {
            out.push_str("[Seats \"person, person\"]\n");
        } else if line.starts_with('[') || line.starts_with('#') || line.trim().is_empty() {
            out.push_str(line);
            out.push('\n');
        } else if commands < keep {
            out.push_str(line);
            out.push('\n');
            commands += 1;
        }
    }
    let file = dir.join(path.file_name().expect("a name"));
    std::fs::write(&file, out).expect("written");
    file
}

/// At every position of the review of the record at `path`, through each
/// seat's eyes: the table sees as that seat, no curtain, and what it is
/// shown (the lines each command wrote to its log, and `lines` of the
/// table) tells the oracle nothing that seat could not see then. The
/// referee's eyes wait for the end.
fn eyes_hold_nothing_hidden<S: TableSystem>(path: &Path, lines: fn(&App) -> Vec<String>)
where
    S::Game: sandtable_secrets::Oracle,
{
    let mut app = headless();
    review_of::<S>(&mut app, path);
    let n = app.world().resource::<Review<S>>().len();
    assert!(
        !app.world().resource::<Review<S>>().over,
        "the record is of a game going on"
    );
    ask(&mut app, ReviewRequest::Eyes(Viewer::Referee));
    assert!(
        common::notice(&app).contains("once the game is over"),
        "{}",
        common::notice(&app)
    );
    assert!(matches!(game::<S>(&app).viewer, Viewer::Player(_)));
    let mut told = 0;
    for seat in [Seat(0), Seat(1)] {
        let eyes = Viewer::Player(seat);
        ask(&mut app, ReviewRequest::Eyes(eyes));
        ask(&mut app, ReviewRequest::Step(Stride::End, false));
        let mut before = game::<S>(&app).game.game().clone();
        let mut logged = game::<S>(&app).log.len();
        for k in 0..=n {
            if k > 0 {
                ask(&mut app, ReviewRequest::Step(Stride::Command, true));
            }
            let active = game::<S>(&app);
            assert_eq!(active.record.len(), k);
            assert_eq!(active.viewer, eyes);
            assert!(!active.curtain(), "no curtain in review");
            let now = active.game.game();
            let written: Vec<String> = active.log[logged.min(active.log.len())..]
                .iter()
                .filter_map(|l| l.shown_to(eyes).map(str::to_owned))
                .collect();
            told += written.len();
            let leaks = sandtable_secrets::log_leaks(&before, now, eyes, &written);
            assert!(
                leaks.is_empty(),
                "{}: position {k}, {eyes:?}: {leaks:?}",
                S::KEY
            );
            let shown = lines(&app);
            let leaks = sandtable_secrets::leaks_of(now, eyes, &shown);
            assert!(
                leaks.is_empty(),
                "{}: position {k}, {eyes:?}: {leaks:?}",
                S::KEY
            );
            before = now.clone();
            logged = active.log.len();
        }
    }
    assert!(told > n, "{told} lines of the log read");
}

#[test]
fn r149_a_seat_s_review_of_a_skirmish_going_on_holds_nothing_it_could_not_see() {
    let dir = common::temp_dir("review", "eyes-skirmish");
    let cut = cut_record(&data("skirmish-person-wins-zirl.moves"), &dir, 90);
    eyes_hold_nothing_hidden::<Frontiers>(&cut, common::skirmish_lines);
}

#[test]
fn r47_r57_a_seat_s_review_of_the_flank_march_holds_nothing_it_could_not_see() {
    eyes_hold_nothing_hidden::<Warpspawn>(&data("flank-march.moves"), |_| Vec::new());
}

#[test]
fn a_finished_game_is_reviewed_as_its_referee_once_asked_and_each_seat_by_default() {
    let mut app = headless();
    review_of::<Frontiers>(&mut app, &data("skirmish-person-wins-zirl.moves"));
    let review = app.world().resource::<Review<Frontiers>>();
    assert!(review.over);
    // A seat's eyes by default, even at the end.
    assert!(matches!(game::<Frontiers>(&app).viewer, Viewer::Player(_)));
    let panel = app.world().resource::<ReviewPanel>();
    assert!(panel.referee_why_not.is_none());
    // Each side's curve in its pieces' colour.
    assert_eq!(
        panel.colours,
        sandtable_scenario::DEFAULT_COLOURS[..2]
            .iter()
            .map(|c| Some(c.0))
            .collect::<Vec<_>>()
    );
    assert!(
        panel
            .eyes_offered
            .iter()
            .any(|(v, _)| *v == Viewer::Referee)
    );
    ask(&mut app, ReviewRequest::Eyes(Viewer::Referee));
    ask(&mut app, ReviewRequest::To(40));
    assert_eq!(game::<Frontiers>(&app).viewer, Viewer::Referee);
    // A game that hides nothing is the referee's throughout.
    review_of::<Cache>(&mut app, &data("open-field-capture.moves"));
    assert_eq!(game::<Cache>(&app).viewer, Viewer::Referee);
}

#[test]
fn a_game_played_on_from_a_position_is_a_record_of_its_own_and_the_original_is_unchanged() {
    use sandtable_core::dice::Dice;
    let dir = common::temp_dir("review", "branch");
    let original = data("skirmish-person-wins-zirl.moves");
    let file = cut_record(&original, &dir, 120);
    let bytes = std::fs::read(&file).expect("the record");
    let (hashes, commands) = {
        let mut app = headless();
        replayed::<Frontiers>(&mut app, &file)
    };
    let mut app = headless();

    // Fresh dice: the branch's generator is not the record's.
    review_of::<Frontiers>(&mut app, &file);
    ask(&mut app, ReviewRequest::To(60));
    let position = game::<Frontiers>(&app).game.game().clone();
    let record_dice: Dice = position.dice().clone();
    ask(&mut app, ReviewRequest::PlayOn { keep_seed: false });
    app.update();
    assert!(app.world().get_resource::<Review<Frontiers>>().is_none());
    let branch = game::<Frontiers>(&app);
    assert!(branch.reviewing.is_none());
    assert_eq!(branch.record, commands[..60]);
    // The position, but for its dice.
    let mut same = position.clone();
    same.set_dice(branch.game.game().dice().clone());
    assert_eq!(branch.game.game().state_hash(), same.state_hash());
    assert_eq!(position.state_hash(), hashes[60]);
    assert_eq!(branch.file, None, "a record of its own");
    assert!(branch.has_unsaved_work());
    assert_ne!(branch.game.game().dice(), &record_dice, "fresh dice");
    // Twenty commands of its own: its dice are not the record's, so the
    // record's own commands may no longer be legal.
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(3);
    for k in 60..80 {
        let g = game::<Frontiers>(&app).game.game();
        let seat = sandtable_core::game::next_seat(g).expect("not over");
        let command = g.random_command(seat, &mut rng).expect("a command");
        app.world_mut()
            .write_message(Frontiers::bot_request(command));
        app.update();
        assert_eq!(
            game::<Frontiers>(&app).record.len(),
            k + 1,
            "{}",
            common::notice(&app)
        );
    }
    let played = game::<Frontiers>(&app).record.clone();
    assert_eq!(played[..60], commands[..60]);
    let fresh = game::<Frontiers>(&app).game.game().state_hash();
    let fresh_dice = game::<Frontiers>(&app).game.game().dice().clone();
    let saved = dir.join("branch.moves");
    app.world_mut().write_message(SaveRequest::to(&saved));
    app.update();
    assert_eq!(
        std::fs::read(&file).expect("the record"),
        bytes,
        "the original"
    );
    let text = std::fs::read_to_string(&saved).expect("the branch saved");
    assert!(text.contains("[Dice \""), "every roll kept:\n{text}");
    assert!(text.contains("[DiceAfter \"generator\"]"), "{text}");
    // Opened again, the branch replays to the same game (its generator
    // from here seeded anew, R30), and goes on with the generator, not
    // real dice.
    load(&mut app, LoadRequest::new(&saved));
    let again = game::<Frontiers>(&app);
    assert_eq!(again.record, played);
    let mut same = again.game.game().clone();
    same.set_dice(fresh_dice);
    assert_eq!(same.state_hash(), fresh);
    assert!(!again.dice.real);
    // Reviewed in turn from its list of rolls, the branch steps back to
    // where it left the record.
    ask(&mut app, ReviewRequest::Open);
    app.update();
    assert!(
        app.world().get_resource::<Review<Frontiers>>().is_some(),
        "{}",
        common::notice(&app)
    );
    ask(&mut app, ReviewRequest::To(60));
    let mut left = game::<Frontiers>(&app).game.game().clone();
    left.set_dice(position.dice().clone());
    assert_eq!(left.state_hash(), hashes[60]);
    ask(&mut app, ReviewRequest::Close);

    // The record's seed kept: the dice fall as they did.
    review_of::<Frontiers>(&mut app, &file);
    ask(&mut app, ReviewRequest::To(60));
    ask(&mut app, ReviewRequest::PlayOn { keep_seed: true });
    app.update();
    assert_eq!(game::<Frontiers>(&app).game.game().dice(), &record_dice);
    for (k, command) in commands[60..].iter().enumerate() {
        app.world_mut()
            .write_message(Frontiers::bot_request(*command));
        app.update();
        assert_eq!(hash::<Frontiers>(&app), hashes[61 + k], "as the record");
    }
    app.world_mut()
        .write_message(SaveRequest::to(dir.join("same.moves")));
    app.update();
    let same = std::fs::read_to_string(dir.join("same.moves")).expect("saved");
    assert!(!same.contains("[Dice"), "the seed replays it:\n{same}");
    assert_eq!(
        std::fs::read(&file).expect("the record"),
        bytes,
        "the original"
    );
}

#[test]
fn the_curve_has_a_point_a_decision_as_the_search_weighs_it_and_the_same_turning_points() {
    let path = data("open-field-capture.moves");
    let mut app = headless();
    let (_, commands) = replayed::<Cache>(&mut app, &path);
    let start = game::<Cache>(&app).game.game().clone();
    review_of::<Cache>(&mut app, &path);
    let seed = Cache::bot_seed(game::<Cache>(&app).reviewing.as_deref().expect("reviewed"));
    let wait = std::time::Instant::now();
    let curve = loop {
        app.update();
        if let Some(curve) = app.world().resource::<ReviewPanel>().curve.clone() {
            break curve.expect("weighed");
        }
        assert!(
            wait.elapsed() < Duration::from_secs(300),
            "the curve is weighed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let panel = app.world().resource::<ReviewPanel>();
    assert_eq!(
        panel.weighed.load(std::sync::atomic::Ordering::Relaxed),
        commands.len() + 1
    );
    assert_eq!(curve.steps.len(), commands.len(), "a point a decision");
    let numbered: Vec<_> = commands
        .iter()
        .enumerate()
        .map(|(k, c)| (k + 1, *c))
        .collect();
    let names = (0..start.seats())
        .map(|s| start.seat_name(Seat(s as u16)).to_owned())
        .collect();
    let outside = sandtable_bots::review::review(
        &sandtable_bots::decide::<sandtable_cache::Game>,
        names,
        start,
        &numbered,
        (sandtable_bots::review::DEFAULT_ITERATIONS, seed),
        &mut |_| true,
    )
    .expect("the record replays");
    assert_eq!(*curve, outside, "the table's curve is the search's");
    let turning = curve.turning_points(3);
    assert!(!turning.is_empty());
    assert_eq!(turning, outside.turning_points(3));
    // A turning point's line is its command's number: the position after
    // it is where a click on it goes.
    for k in turning {
        assert_eq!(curve.steps[k].line, k + 1);
    }
}

#[test]
fn bots_wait_while_their_game_is_in_review() {
    let mut app = headless();
    app.insert_resource(BotPace(Duration::ZERO));
    load(
        &mut app,
        LoadRequest::new(data("skirmish-person-wins-zirl.moves")),
    );
    let dir = common::temp_dir("review", "bots");
    let cut = cut_record(&data("skirmish-person-wins-zirl.moves"), &dir, 50);
    review_of::<Frontiers>(&mut app, &cut);
    app.world_mut()
        .resource_mut::<sandtable::session::Seats>()
        .0 = vec![
        sandtable::session::Seat::Bot(1),
        sandtable::session::Seat::Bot(1),
    ];
    for _ in 0..60 {
        app.update();
    }
    assert_eq!(game::<Frontiers>(&app).record.len(), 50);
    ask(&mut app, ReviewRequest::Close);
    let wait = std::time::Instant::now();
    while game::<Frontiers>(&app).record.len() == 50 {
        app.update();
        assert!(wait.elapsed() < Duration::from_secs(60), "the bots play on");
    }
}

#[test]
fn r149_through_a_seat_s_eyes_a_game_going_on_shows_only_that_seat_s_own_estimates() {
    let dir = common::temp_dir("review", "curve-eyes");
    let cut = cut_record(&data("skirmish-person-wins-zirl.moves"), &dir, 30);
    let mut app = headless();
    review_of::<Frontiers>(&mut app, &cut);
    let wait = std::time::Instant::now();
    while app
        .world()
        .resource::<ReviewPanel>()
        .curve
        .as_ref()
        .is_none()
    {
        app.update();
        assert!(
            wait.elapsed() < Duration::from_secs(300),
            "the curve is weighed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for seat in [Seat(0), Seat(1)] {
        ask(&mut app, ReviewRequest::Eyes(Viewer::Player(seat)));
        let panel = app.world().resource::<ReviewPanel>();
        let curve = panel.curve.clone().expect("weighed").expect("no failure");
        assert_eq!(curve.sight, sandtable_bots::search::Sight::Own);
        // Who decided after each command, as the record replays.
        let (mut own, mut others) = (0, 0);
        for k in 0..curve.steps.len() {
            ask(&mut app, ReviewRequest::To(k + 1));
            let deciding = sandtable_core::game::next_seat(game::<Frontiers>(&app).game.game());
            let step = &curve.steps[k];
            if deciding == Some(seat) {
                own += usize::from(step.chances.iter().all(Option::is_some));
            } else {
                assert!(
                    step.chances.iter().all(Option::is_none),
                    "{seat:?}: position {} was weighed by another side",
                    k + 1
                );
                others += 1;
            }
            if step.seat != seat {
                assert_eq!(step.instead, None, "{seat:?}: another side's alternative");
            }
        }
        assert!(
            own > 0 && others > 0,
            "{seat:?}: {own} own, {others} others"
        );
    }
}
