//! End-to-end tests of the `sandtable-cli` binary on the shipped scenarios.

use std::path::Path;
use std::process::Output;

use sandtable_cache::{Game, Record};

mod common;
use common::{cli, root, temp_dir, text};

/// The rules crate's own replay of a record: seed and turn limit from its headers.
fn replay(scenario: &Path, record_path: &Path) -> Game {
    let scenario = sandtable_scenario::load(&root().join(scenario)).expect("valid scenario");
    let record =
        Record::parse(&std::fs::read_to_string(record_path).expect("record")).expect("parses");
    let mut setup = scenario.setup.clone();
    if let Some(seed) = record.header("Seed") {
        setup.seed = seed.parse().expect("numeric seed");
    }
    if let Some(limit) = record.header("TurnLimit") {
        setup.turn_limit = Some(limit.parse().expect("numeric limit"));
    }
    let mut game = Game::new(&setup).expect("valid setup");
    for (_, c) in &record.commands {
        game.apply(*c).expect("legal record");
    }
    game
}

/// `play --json` of a record, and the rules crate's own replay of it, as JSON.
fn played_and_replayed(scenario: &str, record: &Path) -> (serde_json::Value, serde_json::Value) {
    let out = cli(&[
        "play",
        scenario,
        "--record",
        record.to_str().expect("utf-8"),
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let expected =
        serde_json::to_value(replay(Path::new(scenario), record).summary()).expect("json");
    (printed, expected)
}

#[test]
fn validate_accepts_every_shipped_scenario() {
    let out = cli(&[
        "validate",
        "scenarios/standard.ron",
        "scenarios/open-field.ron",
        "scenarios/three-players.ron",
        "scenarios/two-factors.ron",
        "scenarios/river-crossing.ron",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout)
            .lines()
            .filter(|l| l.contains(": ok ("))
            .count(),
        5
    );
}

#[test]
fn validate_prints_every_problem_and_exits_1() {
    let out = cli(&[
        "validate",
        "scenarios/standard.ron",
        "scenarios/tests/many-problems.ron",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 6, "{err}");
    assert!(
        err.contains("scenarios/tests/many-problems.ron: first_player: player 2 does not exist"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("scenarios/standard.ron: ok"));
}

#[test]
fn play_json_matches_the_rules_crates_replay() {
    let record = root().join("crates/cli/tests/data/open-field-capture.moves");
    let (printed, expected) = played_and_replayed("scenarios/open-field.ron", &record);
    assert_eq!(printed, expected);
    assert_eq!(
        printed["custody"],
        serde_json::json!([{"holder": "Blue", "player": "Red", "factor": 0}])
    );
    assert_eq!(
        printed["activation"],
        serde_json::json!({"square": "M7", "actions_left": 1})
    );
}

#[test]
fn play_text_shows_the_log_and_the_board() {
    let record = root().join("crates/cli/tests/data/open-field-capture.moves");
    let out = cli(&[
        "play",
        "scenarios/open-field.ron",
        "--record",
        record.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("captured Red's unit on M7 from the front: +0 earned"),
        "{s}"
    );
    assert!(s.contains("turn 4: Blue to play"), "{s}");
    assert!(
        s.contains("B←."),
        "Blue's capturer faces west on the board: {s}"
    );
}

#[test]
fn play_stops_at_an_illegal_command_with_its_line_and_ruling() {
    let dir = temp_dir("illegal");
    let good =
        std::fs::read_to_string(root().join("crates/cli/tests/data/open-field-capture.moves"))
            .expect("record");
    let bad = dir.join("bad.moves");
    std::fs::write(&bad, format!("{good}advance B7\n")).expect("write");
    let out = cli(&[
        "play",
        "scenarios/open-field.ron",
        "--record",
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stdout.is_empty(),
        "nothing on stdout: {}",
        text(&out.stdout)
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.moves:26: `advance B7` is illegal: cannot run to B7: L7 is open ground; every square entered in a run must be T130 (R14)"),
        "{err}"
    );
    std::fs::write(&bad, "activate E7\njump\n").expect("write");
    let out = cli(&[
        "play",
        "scenarios/open-field.ron",
        "--record",
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("bad.moves:2: `jump`: unknown command"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn show_draws_the_board_with_bases_units_and_terrain() {
    let out = cli(&["show", "scenarios/standard.ron"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("A  B  C  D"), "column letters: {s}");
    assert!(s.contains("[R]") && s.contains("[B]"), "bases: {s}");
    assert!(
        s.contains("R→.") && s.contains("B←."),
        "units with facings: {s}"
    );
    assert!(
        s.contains("~~~") && s.contains("≡≡≡") && s.contains("+++"),
        "terrain: {s}"
    );
    assert!(s.contains("turn 1: Red to play, 5 activations left"), "{s}");
}

#[test]
fn simulate_summarises_and_saves_records_that_replay() {
    let dir = temp_dir("simulate");
    let out = cli(&[
        "simulate",
        "scenarios/open-field.ron",
        "--games",
        "3",
        "--seed",
        "9",
        "--turn-limit",
        "30",
        "--save-record",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("3 random games of \"Open field\" (seeds 9 to 11, turn limit 30)"),
        "{s}"
    );
    assert!(s.contains("wins: Red ") && s.contains("draws: "), "{s}");
    assert!(
        s.contains("mean turns: ") && s.contains("commands: "),
        "{s}"
    );
    for i in 1..=3 {
        let record = dir.join(format!("game-{i:04}.moves"));
        let (printed, expected) = played_and_replayed("scenarios/open-field.ron", &record);
        assert_eq!(
            printed["over"],
            serde_json::json!(true),
            "a saved game ran to its end"
        );
        assert_eq!(printed, expected);
    }
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        "validate",
        "show",
        "play",
        "simulate",
        "print",
        "tournament",
    ] {
        let out = cli(&[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
        assert!(text(&out.stdout).contains("Usage: sandtable-cli"), "{sub}");
    }
    let out = cli(&["play", "scenarios/standard.ron"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "play without --record or --bot is a usage error"
    );
    let out = cli(&["play", "scenarios/nope.ron", "--record", "x.moves"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("scenarios/nope.ron: cannot read the scenario"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn play_prints_stash_rolls_as_they_happen() {
    let record = root().join("crates/cli/tests/data/snyder-stash.moves");
    let out = cli(&[
        "play",
        "scenarios/snyder-skirmish.ron",
        "--record",
        record.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let line = s
        .lines()
        .find(|l| l.contains("stash on I8: rolled "))
        .unwrap_or_else(|| panic!("{s}"));
    let (v, expected) = played_and_replayed("scenarios/snyder-skirmish.ron", &record);
    assert_eq!(
        v["stashes"],
        serde_json::json!(["P8", "K5", "N5", "K11", "N11"]),
        "I8 is gone"
    );
    assert!(line.contains(": "), "{line}");
    assert_eq!(v, expected);
}

#[test]
fn simulate_counts_stash_results_and_its_records_replay() {
    let dir = temp_dir("simulate-snyder");
    let out = cli(&[
        "simulate",
        "scenarios/snyder-skirmish.ron",
        "--games",
        "20",
        "--save-record",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("stashes discovered: "), "{s}");
    let record = dir.join("game-0007.moves");
    let (printed, expected) = played_and_replayed("scenarios/snyder-skirmish.ron", &record);
    assert_eq!(printed, expected);
}

#[test]
fn print_writes_a_tiled_setup_sheet() {
    let dir = temp_dir("print");
    let out = dir.join("sheet.pdf");
    let run = cli(&[
        "print",
        "scenarios/standard.ron",
        "--paper",
        "a4",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains(
            "10 pages on A4 (3 x 3 tiles of the 762 x 508 mm table at 1:1, then 1 of pieces)"
        ),
        "{}",
        text(&run.stdout)
    );
    let pdf = std::fs::read(&out).expect("written");
    assert!(pdf.starts_with(b"%PDF-"));
    let run = cli(&[
        "print",
        "scenarios/standard.ron",
        "--paper",
        "a3",
        "--out",
        "x.pdf",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("unknown paper `a3`"));
}

#[test]
fn play_with_bots_finishes_the_game_and_saves_a_record_that_replays() {
    let dir = temp_dir("bots-play");
    let saved = dir.join("bots.moves");
    let out = cli(&[
        "play",
        "scenarios/standard.ron",
        "--bot",
        "1=mcts",
        "--bot",
        "0=greedy",
        "--mcts-iterations",
        "4",
        "--save",
        saved.to_str().expect("utf-8"),
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(printed["over"], true, "bots play to the end: {printed}");
    let text_saved = std::fs::read_to_string(&saved).expect("the record is saved");
    let record = Record::parse(&text_saved).expect("the saved record reads back");
    let scenario = sandtable_scenario::load(&root().join("scenarios/standard.ron")).expect("valid");
    let named = record.header("Scenario").expect("a [Scenario] header");
    // Relative to the record's folder when the two share a folder below
    // the root, else from the root (the temporary folder and the tree may
    // lie anywhere).
    let below_root = |p: &Path| -> Vec<std::ffi::OsString> {
        std::fs::canonicalize(p)
            .expect("resolves")
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(n) => Some(n.to_owned()),
                _ => None,
            })
            .collect()
    };
    let share = below_root(&dir).first() == below_root(&root().join("scenarios")).first();
    assert!(
        sandtable_scenario::files::same_file(
            &sandtable_scenario::records::scenario_path(&saved, named),
            &root().join("scenarios/standard.ron")
        ) && Path::new(named).is_absolute() != share,
        "the scenario is named relative to the record's folder only when they share a folder below the root ({share}): {text_saved}"
    );
    assert_eq!(
        (
            record.header("Seed"),
            record.header("TurnLimit"),
            record.header("ScenarioHash"),
            record.header("Engine")
        ),
        (
            Some("42"),
            Some("200"),
            Some(scenario.content_hash().as_str()),
            Some(sandtable_scenario::records::ENGINE)
        ),
        "headers give the seed, the default bot turn limit and the pins: {text_saved}"
    );
    let replayed =
        serde_json::to_value(replay(Path::new("scenarios/standard.ron"), &saved).summary())
            .expect("json");
    assert_eq!(
        printed, replayed,
        "the saved record replays to the printed state"
    );

    let again = cli(&[
        "play",
        "scenarios/standard.ron",
        "--bot",
        "1=mcts",
        "--bot",
        "0=greedy",
        "--mcts-iterations",
        "4",
        "--json",
    ]);
    assert_eq!(again.stdout, out.stdout, "same seeds and budget, same game");
}

#[test]
fn play_continues_a_record_with_a_bot_until_a_seat_without_one() {
    let record = root().join("crates/cli/tests/data/open-field-capture.moves");
    let given = Record::parse(&std::fs::read_to_string(&record).expect("record")).expect("parses");
    let dir = temp_dir("bots-continue");
    let saved = dir.join("continued.moves");
    let out = cli(&[
        "play",
        "scenarios/open-field.ron",
        "--record",
        record.to_str().expect("utf-8"),
        "--bot",
        "1=greedy",
        "--save",
        saved.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Blue (greedy)"),
        "the bot's commands are marked in the log: {stdout}"
    );
    let continued =
        Record::parse(&std::fs::read_to_string(&saved).expect("saved")).expect("parses");
    let given_commands = given.command_list();
    let all = continued.command_list();
    assert!(
        all.len() > given_commands.len() && all[..given_commands.len()] == given_commands[..],
        "the saved record is the given one and then the bot's commands"
    );
    let game = replay(Path::new("scenarios/open-field.ron"), &saved);
    assert!(
        game.is_over() || game.current_player().0 == 0,
        "the bot finished Blue's turn, begun in the record, and stopped at Red, who has no bot (turn {})",
        game.turn()
    );
}

#[test]
fn play_refuses_a_bad_bot_seat() {
    let out = cli(&["play", "scenarios/standard.ron", "--bot", "2=greedy"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr).trim(),
        "--bot 2=greedy: the scenario has 2 players, numbered 0 to 1",
        "the seat and the range are named"
    );
}

#[test]
fn tournament_prints_a_win_rate_table_with_wilson_intervals_and_draws() {
    let out = cli(&[
        "tournament",
        "scenarios/standard.ron",
        "--bots",
        "random,greedy,mcts",
        "--games",
        "2",
        "--mcts-iterations",
        "4",
        "--turn-limit",
        "30",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("2 games a pairing") && stdout.contains("turn limit 30"),
        "settings are stated: {stdout}"
    );
    assert!(
        stdout.contains("mcts: 4 iterations a decision, one tree"),
        "the mcts budget is stated: {stdout}"
    );
    assert!(
        stdout.contains("draws") && stdout.contains("95% CI (Wilson)"),
        "draws and intervals have columns: {stdout}"
    );
    for pairing in ["greedy vs random", "mcts vs random", "mcts vs greedy"] {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(pairing))
            .unwrap_or_else(|| panic!("a row for {pairing}: {stdout}"));
        let numbers: Vec<u32> = row[pairing.len()..]
            .split_whitespace()
            .take(4)
            .map(|n| n.parse().expect("counts"))
            .collect();
        assert_eq!(numbers[0], 2, "{pairing}: games");
        assert_eq!(
            numbers[1] + numbers[2] + numbers[3],
            2,
            "{pairing}: wins, draws and losses add up"
        );
    }
    // Random against random never reaches a Base in 30 turns on this table:
    // the draw column counts it.
    let out = cli(&[
        "tournament",
        "scenarios/standard.ron",
        "--bots",
        "random,greedy",
        "--games",
        "2",
        "--turn-limit",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let row = stdout
        .lines()
        .find(|l| l.starts_with("greedy vs random"))
        .unwrap_or_else(|| panic!("a row: {stdout}"));
    assert!(
        row.split_whitespace().nth(5) == Some("2"),
        "three turns are too few for a win: two draws in `{row}`"
    );
}

#[test]
fn tournament_refuses_a_scenario_without_two_players() {
    let out = cli(&[
        "tournament",
        "scenarios/three-players.ron",
        "--bots",
        "random,greedy",
        "--games",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr).trim(),
        "scenarios/three-players.ron: a tournament needs a scenario with two players, this one has 3",
        "the reason is given"
    );
}

#[test]
fn a_record_says_when_its_scenario_or_engine_has_changed_since_it_was_saved() {
    let dir = temp_dir("pins");
    let scenario = dir.join("field.ron");
    let original = std::fs::read_to_string(root().join("scenarios/open-field.ron")).expect("read");
    std::fs::write(&scenario, &original).expect("written");
    let saved = dir.join("g.moves");
    let out = cli(&[
        "play",
        scenario.to_str().expect("utf-8"),
        "--bot",
        "0=random",
        "--bot",
        "1=random",
        "--turn-limit",
        "4",
        "--save",
        saved.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replay = || {
        cli(&[
            "play",
            scenario.to_str().expect("utf-8"),
            "--record",
            saved.to_str().expect("utf-8"),
        ])
    };
    let same = replay();
    assert!(same.status.success());
    assert!(!text(&same.stderr).contains("note:"), "nothing changed");
    // The scenario renamed: its content hash differs, and the replay says so.
    std::fs::write(
        &scenario,
        original.replacen("Open field", "Open field, renamed", 1),
    )
    .expect("written");
    let changed = replay();
    assert!(changed.status.success(), "the game still replays");
    assert!(
        text(&changed.stderr).contains(
            "note: the scenario \"Open field, renamed\" has changed since this game was recorded"
        ),
        "{}",
        text(&changed.stderr)
    );
    // Another engine wrote it.
    let record = std::fs::read_to_string(&saved).expect("read");
    let older = record.replace(sandtable_scenario::records::ENGINE, "sandtable 0.0.1");
    std::fs::write(&saved, older).expect("written");
    let other = replay();
    assert!(
        text(&other.stderr).contains("this game was recorded by sandtable 0.0.1"),
        "{}",
        text(&other.stderr)
    );
}

/// `play` of the record where a Red unit walks onto the stash on I8, with
/// more options.
fn stash_record(extra: &[&str]) -> Output {
    let mut args = vec![
        "play",
        "scenarios/snyder-skirmish.ron",
        "--record",
        "crates/cli/tests/data/snyder-stash.moves",
    ];
    args.extend_from_slice(extra);
    cli(&args)
}

#[test]
fn dice_from_the_command_line_or_a_record_header_decide_the_stash_roll() {
    let record = "crates/cli/tests/data/snyder-stash.moves";
    let rolled = |extra: &[&str]| {
        let out = stash_record(extra);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .find(|l| l.contains("stash on I8"))
            .expect("the stash is rolled")
            .trim()
            .to_owned()
    };
    assert_eq!(
        rolled(&["--dice", "6,6"]),
        "stash on I8: rolled 6 then 6: 66, if possible return one unfriendly unit to within 2 areas of its base, otherwise capture the unit"
    );
    assert_eq!(
        rolled(&["--dice", "3 3 5"]),
        "stash on I8: rolled 3 then 3: 33, take up to three additional actions with any one unit"
    );
    // The same rolls from a `[Dice]` header; --dice wins over it.
    let dir = temp_dir("dice-header");
    let original = std::fs::read_to_string(root().join(record)).expect("record");
    let with_header = original.replace(
        "[Scenario \"scenarios/snyder-skirmish.ron\"]",
        "[Dice \"1 1\"]",
    );
    let path = dir.join("dice.moves");
    std::fs::write(&path, with_header).expect("write");
    let path = path.to_str().expect("utf-8");
    assert_eq!(
        rolled(&[]),
        "stash on I8: rolled 2 then 5: 25, return this unit to within 2 areas of its base or discard this unit",
        "without dice, the seeded generator"
    );
    let out = cli(&["play", "scenarios/snyder-skirmish.ron", "--record", path]);
    assert!(
        text(&out.stdout)
            .contains("stash on I8: rolled 1 then 1: 11, place this unit anywhere on board")
    );
    let out = cli(&[
        "play",
        "scenarios/snyder-skirmish.ron",
        "--record",
        path,
        "--dice",
        "3,3",
    ]);
    assert!(text(&out.stdout).contains("rolled 3 then 3: 33"));
    // A saved record keeps the rolls used, and replays roll for roll.
    let saved = dir.join("saved.moves");
    let out = cli(&[
        "play",
        "scenarios/snyder-skirmish.ron",
        "--record",
        path,
        "--save",
        saved.to_str().expect("utf-8"),
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved_text = std::fs::read_to_string(&saved).expect("saved");
    assert!(saved_text.contains("[Dice \"1 1\"]\n"), "{saved_text}");
    let again = cli(&[
        "play",
        "scenarios/snyder-skirmish.ron",
        "--record",
        saved.to_str().expect("utf-8"),
        "--json",
    ]);
    assert_eq!(text(&again.stdout), text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scripted_dice_that_run_out_or_do_not_read_stop_with_a_reason() {
    let out = stash_record(&["--dice", "6"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "crates/cli/tests/data/snyder-stash.moves:13: `advance` cannot be played: the scripted dice have run out: 2 more rolls are needed and 1 is left (R30); give more rolls with --dice"
    );
    let out = stash_record(&["--dice", "4,7"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim(),
        "--dice 4,7: roll 2 is \"7\": a die reads 1 to 6 (R30)"
    );
    assert!(out.stdout.is_empty());
    // R5: a scenario without a first player draws it from the dice too:
    // with two players, a die read as a coin.
    let dir = temp_dir("no-first");
    let standard = std::fs::read_to_string(root().join("scenarios/standard.ron")).expect("read");
    assert!(standard.contains("    first_player: Some(0),\n"));
    let path = dir.join("no-first.ron");
    std::fs::write(&path, standard.replace("    first_player: Some(0),\n", "")).expect("write");
    let path = path.to_str().expect("utf-8");
    for (roll, first) in [("5", "Blue"), ("2", "Red")] {
        let out = cli(&["show", path, "--dice", roll]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).ends_with(&format!("turn 1: {first} to play, 5 activations left\n")),
            "{roll}: {}",
            text(&out.stdout)
        );
    }
    let out = cli(&["show", path, "--dice", ""]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).ends_with(
        "  first_player: left out, so it is drawn with the dice, but the scripted dice have run out: 1 more roll is needed and none is left (R5)\n"
    ), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn as_prints_a_players_view_and_refuses_a_stranger() {
    let referee = stash_record(&["--json"]);
    let blue = stash_record(&["--json", "--as", "Blue"]);
    assert!(blue.status.success(), "{}", text(&blue.stderr));
    // Nothing of a Cache game is hidden from a player.
    assert_eq!(text(&blue.stdout), text(&referee.stdout));
    let public = stash_record(&["--json", "--as", "public"]);
    assert!(public.status.success(), "{}", text(&public.stderr));
    assert_eq!(text(&public.stdout), text(&referee.stdout));
    let out = cli(&["show", "scenarios/snyder-skirmish.ron", "--as", "Green"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim(),
        "--as \"Green\": no such player; the players are \"Red\", \"Blue\", and `public` is every player's view"
    );
}

#[test]
fn as_public_prints_no_side_s_hand() {
    let path = "scenarios/frontiers/skirmish.ron";
    let record = "discard\ndiscard\n";
    let dir = std::env::temp_dir().join(format!("sandtable-public-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let moves = dir.join("hands.moves");
    std::fs::write(&moves, record).expect("the record");
    let moves = moves.to_str().expect("a UTF-8 path");
    let show = |viewer: &str| cli(&["show", path, "--record", moves, "--as", viewer]);
    let public = show("public");
    assert!(public.status.success(), "{}", text(&public.stderr));
    let out = text(&public.stdout);
    assert!(out.contains("Legion: 4 cards in hand"), "{out}");
    assert!(out.contains("Zirl: 4 cards in hand"), "{out}");
    // The control: each side reads its own hand.
    assert!(text(&show("Legion").stdout).contains("Legion: hand ["));
    assert!(text(&show("Zirl").stdout).contains("Zirl: hand ["));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perft_counts_the_tree_through_the_game_contract() {
    let out = cli(&["perft", "scenarios/standard.ron", "4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let scenario = sandtable_scenario::load(&root().join("scenarios/standard.ron")).expect("loads");
    let count = sandtable_core::game::perft(&scenario.game(), 4);
    let printed = text(&out.stdout);
    let mut lines = printed.lines();
    assert_eq!(
        lines.next(),
        Some(
            format!(
                "perft(4): {} leaves, {} game copies",
                count.leaves, count.copies
            )
            .as_str()
        )
    );
    assert!(lines.next().expect("a time line").starts_with("time: "));
    // By hand: the standard table opens with Red's ten activations and a pass.
    let one = text(&cli(&["perft", "scenarios/standard.ron", "1"]).stdout);
    assert_eq!(
        one.lines().next(),
        Some("perft(1): 11 leaves, 0 game copies")
    );
    let zero = cli(&["perft", "scenarios/standard.ron", "0"]);
    assert_eq!(zero.status.code(), Some(2), "clap refuses a depth of 0");
    assert!(
        text(&zero.stderr).contains("0 is not in 1..=64"),
        "{}",
        text(&zero.stderr)
    );
}

/// Each shipped Frontiers scenario played to its end from a record: the
/// deployment, every turn's Preparation, sealed orders, names, card
/// windows, actions and Reserve, to the scenario's own end (R145-R148).
/// The records are random players' games, saved by `play --save`.
#[test]
fn every_shipped_frontiers_scenario_is_played_to_its_end_by_a_record() {
    for name in [
        "confrontation",
        "treasure-hunt",
        "attack-defense",
        "attack-defense-easy",
        "attack-defense-difficult",
        "data-recovery",
        "cameron-1",
        "cameron-2",
    ] {
        let scenario = format!("scenarios/frontiers/{name}.ron");
        let record = format!("crates/cli/tests/data/frontiers-{name}.moves");
        let out = cli(&["play", &scenario, "--record", &record]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let referee = text(&out.stdout);
        let last = referee.lines().last().unwrap_or("").to_owned();
        assert!(last.starts_with("over: "), "{name} ends: {last}");
        // As a player: the other side's orders never in the log (R149).
        // Each turn both sides place theirs: the referee's log shows
        // twice as many `orders` lines as the Zirl's.
        let orders = |log: &str| {
            log.lines()
                .filter(|l| l.split_whitespace().nth(1) == Some("orders"))
                .count()
        };
        let out = cli(&["play", &scenario, "--record", &record, "--as", "Zirl"]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let zirl = text(&out.stdout);
        assert!(zirl.contains("(Legion gives a sealed command)"), "{name}");
        assert!(orders(&referee) > 0, "{name}");
        assert_eq!(orders(&referee), 2 * orders(&zirl), "{name}");
        // Cameron's defender allots its crates (R143): the Zirl first
        // read what each holds where it shows.
        if name == "cameron-1" {
            for content in ["jump jet", "medi-kit", "anti-tank weapon"] {
                let first = zirl.lines().find(|l| l.contains(content));
                assert!(
                    first.is_some_and(|l| l.contains("shows: ")),
                    "{content}: {first:?}"
                );
            }
        }
    }
}

/// `tournament A B` on Cameron's two games plays matches (R148): each
/// bot keeps its side in both, and the one whose side survived more
/// turns as the defender wins. The match is checked against its two
/// games played on their own with the same bots and seeds (a tournament
/// seeds seat p's bot of deal s with 2s + p).
#[test]
fn a_tournament_on_cameron_s_two_games_plays_matches() {
    let (a, b) = (
        "scenarios/frontiers/cameron-1.ron",
        "scenarios/frontiers/cameron-2.ron",
    );
    let out = cli(&[
        "tournament",
        a,
        b,
        "--bots",
        "random,greedy",
        "--games",
        "1",
        "--seed",
        "5",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    // Greedy on seat 0 (the Legion), random on seat 1, in both games.
    let turns_and_winner = |file: &str| {
        let out = cli(&[
            "play",
            file,
            "--bot",
            "0=greedy",
            "--bot",
            "1=random",
            "--seed",
            "5",
            "--bot-seed",
            "10",
            "--json",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json: serde_json::Value =
            serde_json::from_str(&text(&out.stdout)).expect("a JSON summary");
        (
            json["turn"].as_u64().expect("a turn"),
            json["winner"].as_str().map(str::to_owned),
        )
    };
    let (ta, wa) = turns_and_winner(a);
    let (tb, wb) = turns_and_winner(b);
    // Game 1: the Legion defend; game 2: the Zirl. A defender destroyed
    // in turn t survived t - 1 (R148).
    let survived = |turns: u64, winner: &Option<String>, defender: &str| match winner {
        Some(w) if w != defender => turns - 1,
        _ => turns,
    };
    let legion = survived(ta, &wa, "Legion");
    let zirl = survived(tb, &wb, "Zirl");
    let (wins, draws, losses) = match legion.cmp(&zirl) {
        std::cmp::Ordering::Greater => (1, 0, 0),
        std::cmp::Ordering::Equal => (0, 1, 0),
        std::cmp::Ordering::Less => (0, 0, 1),
    };
    let row = table
        .lines()
        .find(|l| l.starts_with("greedy vs random"))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells[3..7],
        [
            "1".to_owned(),
            wins.to_string(),
            draws.to_string(),
            losses.to_string()
        ],
        "{table}"
    );
    assert_eq!(
        cells[cells.len() - 2],
        format!("{:.1}", (ta + tb) as f64),
        "both games' turns: {row}"
    );
    // One match, greedy on player 0's seats: its wins there, none as 1.
    assert_eq!(cells[cells.len() - 1], format!("{wins}/0"), "{row}");
    assert!(table.contains("a draw is a match of equal turns survived (R148)"));
    // Two games that are no match are refused.
    let out = cli(&[
        "tournament",
        a,
        "scenarios/frontiers/skirmish.ron",
        "--games",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("a match is two Frontiers scenarios of Cameron"));
}

/// Reads `balance`'s last line, in the form other tools read: each
/// faction's share won with its Wilson 95% interval, the drawn share and
/// the games (or matches): `balance: Legion 48.5% (41.7-55.4) Zirl 45.0%
/// (38.3-51.9) drawn 6.5% over 200 games`. The shares and the count.
fn balance_line(line: &str, what: &str) -> ([f64; 3], u32) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert!(words.len() >= 12, "{line}");
    assert_eq!(
        (words[0], words[1], words[4], words[7], words[9], words[11]),
        ("balance:", "Legion", "Zirl", "drawn", "over", what),
        "{line}"
    );
    let share = |w: &str| -> f64 {
        w.strip_suffix('%')
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("a share: {w} in {line}"))
    };
    let interval = |w: &str| -> (f64, f64) {
        let inner = w
            .strip_prefix('(')
            .and_then(|w| w.strip_suffix(')'))
            .unwrap_or_else(|| panic!("an interval: {w} in {line}"));
        let (lo, hi) = inner.split_once('-').expect("lo-hi");
        (lo.parse().expect("lo"), hi.parse().expect("hi"))
    };
    let shares = [share(words[2]), share(words[5]), share(words[8])];
    for (p, w) in [(shares[0], words[3]), (shares[1], words[6])] {
        let (lo, hi) = interval(w);
        assert!(lo <= p && p <= hi, "{p} within ({lo}-{hi}): {line}");
    }
    assert!(
        (shares.iter().sum::<f64>() - 100.0).abs() <= 0.15,
        "the shares add up: {line}"
    );
    (shares, words[10].parse().expect("a count"))
}

/// `balance`: the same bot on both sides, each deal played on the ground
/// as set and turned; a report of what decided the games, ending with the
/// line other tools read, the same on one thread as on two.
#[test]
fn balance_reports_each_faction_s_share_in_one_last_line() {
    let run = |threads: &str| {
        let out = cli(&[
            "balance",
            "scenarios/frontiers/skirmish.ron",
            "--bot",
            "random",
            "--games",
            "6",
            "--seed",
            "3",
            "--threads",
            threads,
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let out = run("1");
    let last = out.lines().last().unwrap_or("");
    let (shares, games) = balance_line(last, "games");
    assert_eq!(games, 6, "{out}");
    // The counts above it agree with the line.
    let won = out
        .lines()
        .find(|l| l.starts_with("games won"))
        .expect("the wins");
    let n: Vec<f64> = won
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(n.len(), 3, "Legion, Zirl, drawn: {won}");
    for (k, s) in shares.iter().enumerate() {
        assert!(
            (100.0 * n[k] / 6.0 - s).abs() < 0.06,
            "{won} against {last}"
        );
    }
    for want in [
        "on the ground as set",
        "on the ground turned",
        "AP destroyed by it a game",
        "Legion units destroyed by type",
        "Zirl units destroyed by type",
        "turns a game",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    // The deals' games do not depend on the threads.
    let figures = |o: &str| -> Vec<String> {
        o.lines()
            .filter(|l| !l.contains(" s on "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(figures(&out), figures(&run("2")));
}

/// `balance` of a Cameron match (R148) plays matches and gives each
/// faction's mean turns survived as the defender after the shares; what
/// it cannot weigh is refused, saying why.
#[test]
fn balance_of_a_cameron_match_and_what_it_refuses() {
    let out = cli(&[
        "balance",
        "scenarios/frontiers/cameron-1.ron",
        "scenarios/frontiers/cameron-2.ron",
        "--bot",
        "random",
        "--games",
        "2",
        "--turn-limit",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = text(&out.stdout);
    let last = out.lines().last().unwrap_or("");
    let (head, defended) = last.split_once("; ").expect("the defenders' turns");
    assert_eq!(balance_line(head, "matches").1, 2, "{out}");
    let words: Vec<&str> = defended.split_whitespace().collect();
    assert_eq!(
        (words[0], words[1], words[2], words[3], words[5], words[6]),
        ("as", "the", "defender", "Legion", "turns,", "Zirl"),
        "{last}"
    );
    for w in [words[4], words[7]] {
        let turns: f64 = w.parse().expect("turns");
        assert!((0.0..=3.0).contains(&turns), "{last}");
    }
    let refused = |args: &[&str], why: &str| {
        let out = cli(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    };
    refused(
        &["balance", "scenarios/standard.ron", "--bot", "greedy"],
        "balance weighs a Frontiers scenario's two factions",
    );
    refused(
        &[
            "balance",
            "scenarios/frontiers/skirmish.ron",
            "--bot",
            "greedy",
            "--games",
            "0",
        ],
        "--games must be at least 1",
    );
    refused(
        &[
            "balance",
            "scenarios/frontiers/skirmish.ron",
            "scenarios/frontiers/cameron-2.ron",
            "--bot",
            "greedy",
        ],
        "Cameron",
    );
}
