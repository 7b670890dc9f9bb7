//! The CLI under input made to break it: dice that run out under bots, names
//! made to exhaust memory or forge lines, nesting past the reader's limit,
//! a write stopped by a signal, and small slips of notation. Each case is
//! one a black-box fuzz of the battle found; none may panic, lose a game,
//! mislead or leave litter.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::{cli, root, temp_dir, text};

fn arg(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn open_field() -> String {
    std::fs::read_to_string(root().join("scenarios/warpspawn/open-field.ron")).expect("read")
}

#[test]
fn bots_whose_scripted_dice_run_out_stop_with_the_refusal_and_save_the_game_so_far() {
    let dir = temp_dir("dice-out");
    let saved = dir.join("battle.moves");
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "play",
                "scenarios/warpspawn/open-field.ron",
                "--dice",
                "1",
                "--bot",
                "0=greedy",
                "--bot",
                "1=greedy",
            ],
            // Greedy bots close in and fire; random ones may play a whole
            // battle out of range, without a second roll.
            "the battle, one roll",
        ),
        (
            &[
                "play",
                "scenarios/warpspawn/open-field.ron",
                "--record",
                "crates/cli/tests/data/warpspawn-open-field.moves",
                "--bot",
                "0=greedy",
                "--bot",
                "1=greedy",
            ],
            "the shipped record of real dice, played on by bots",
        ),
        (
            &[
                "play",
                "scenarios/snyder-skirmish.ron",
                "--dice",
                "3",
                "--bot",
                "0=greedy",
                "--bot",
                "1=greedy",
            ],
            "a Snyder Skirmish game",
        ),
    ];
    for (args, what) in cases {
        let _ = std::fs::remove_file(&saved);
        let mut args = args.to_vec();
        args.extend(["--save", arg(&saved)]);
        let out = cli(&args);
        let err = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{what}: exit 2, no panic:\n{err}"
        );
        assert!(
            err.contains("the scripted dice have run out") && err.contains("(R30)"),
            "{what}: the refusal is told:\n{err}"
        );
        assert!(
            err.contains(&format!("the game so far is saved to {}", arg(&saved))),
            "{what}: {err}"
        );
        // What was saved replays to where play stopped, roll for roll.
        let record = std::fs::read_to_string(&saved).expect("the game so far is saved");
        assert!(
            record.contains("[Dice \""),
            "{what}: the rolls used are kept:\n{record}"
        );
        let scenario = args[1];
        let replay = cli(&["play", scenario, "--record", arg(&saved)]);
        assert!(
            replay.status.success(),
            "{what}: the saved game replays:\n{}",
            text(&replay.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_whose_scripted_dice_run_out_stops_there_and_saves_the_game_so_far() {
    let dir = temp_dir("record-dice-out");
    let (record, saved) = (dir.join("two.moves"), dir.join("so-far.moves"));
    // Each Preparation deals its side's deck, shuffled by the dice (R104):
    // 56 threes serve the first side's shuffle, not the second's.
    std::fs::write(&record, "discard\ndiscard\n").expect("written");
    let threes = vec!["3"; 56].join(",");
    let out = cli(&[
        "play",
        "scenarios/frontiers/skirmish.ron",
        "--record",
        arg(&record),
        "--dice",
        &threes,
        "--save",
        arg(&saved),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "exit 2, no panic:\n{err}");
    assert!(
        err.contains(":2: `discard` cannot be played: the deck cannot be shuffled (R104): the scripted dice have run out")
            && err.contains("(R30); give more rolls with --dice"),
        "the dice ran out, the command is not called illegal:\n{err}"
    );
    assert!(!err.contains("illegal"), "{err}");
    assert!(
        err.contains(&format!("the game so far is saved to {}", arg(&saved))),
        "{err}"
    );
    let kept = std::fs::read_to_string(&saved).expect("the game so far is saved");
    let commands: Vec<&str> = kept.lines().filter(|l| !l.starts_with('[')).collect();
    assert_eq!(commands, ["discard"], "the first command, applied:\n{kept}");
    assert!(kept.contains("[Dice \"3 3 3"), "the rolls used:\n{kept}");
    let replay = cli(&[
        "play",
        "scenarios/frontiers/skirmish.ron",
        "--record",
        arg(&saved),
    ]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    // A record's illegal command is still a broken record: nothing saved.
    let _ = std::fs::remove_file(&saved);
    std::fs::write(&record, "discard\nmove Q9 1,1\n").expect("written");
    let out = cli(&[
        "play",
        "scenarios/frontiers/skirmish.ron",
        "--record",
        arg(&record),
        "--save",
        arg(&saved),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!saved.exists(), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_name_past_its_limit_is_refused_with_its_path_in_bounded_memory() {
    let dir = temp_dir("long-name");
    // A 3.1 MB battle: a side named by 3,000,000 characters and 2,491
    // pieces naming a side that is not there.
    let huge = "R".repeat(3_000_000);
    let pieces: String = (0..2_491)
        .map(|_| "(at: \"C2\", side: \"Green\", infantry: 1),\n".to_owned())
        .collect();
    let text_in = open_field()
        .replacen("(name: \"Red\",", &format!("(name: \"{huge}\","), 1)
        .replacen("pieces: [", &format!("pieces: [\n{pieces}"), 1);
    assert!(text_in.len() < 4 << 20, "under the 4 MiB file limit");
    let path = dir.join("long.ron");
    std::fs::write(&path, &text_in).expect("written");
    let started = Instant::now();
    let out = cli(&["validate", arg(&path)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("sides[0].name: \"RRRR")
            && err.contains("is 3000000 characters long; a name holds at most 200"),
        "{}",
        &err[..err.len().min(2000)]
    );
    assert!(
        err.len() < 4096,
        "no message repeats the name: {} bytes",
        err.len()
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_from_a_file_or_an_argument_forges_a_line_or_turns_one_around() {
    let dir = temp_dir("forge");
    // A battle's name with a line break: refused, the break shown.
    let path = dir.join("forged.ron");
    std::fs::write(
        &path,
        open_field().replacen(
            "name: \"Open field: the wood and the farm\"",
            "name: \"x\\nscenarios/warpspawn/open-field.ron: ok\"",
            1,
        ),
    )
    .expect("written");
    let out = cli(&["validate", arg(&path)]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "one line, not two: {err}");
    assert!(err.contains("holds \\u{a} at character 2"), "{err}");
    // A right-to-left override in a side's name.
    std::fs::write(
        &path,
        open_field().replacen("(name: \"Blue\",", "(name: \"Bl\u{202e}ue\",", 1),
    )
    .expect("written");
    let out = cli(&["validate", arg(&path)]);
    let err = text(&out.stderr);
    assert!(!err.contains('\u{202e}'), "{err}");
    assert!(err.contains("\\u{202e}"), "{err}");
    // A path with a line break and an override, echoed in a message.
    let odd = dir.join("odd\n\u{202e}name.ron");
    std::fs::write(&odd, "not ron").expect("written");
    let out = cli(&["validate", arg(&odd)]);
    let err = text(&out.stderr);
    assert!(
        !err.contains('\u{202e}')
            && err.starts_with(&format!("{}/odd\\u{{a}}\\u{{202e}}name.ron", dir.display())),
        "{err}"
    );
    // An argument echoed back.
    let out = cli(&[
        "show",
        "scenarios/warpspawn/open-field.ron",
        "--as",
        "Red\nok\u{202e}",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        err.trim_end(),
        "--as \"Red\\u{a}ok\\u{202e}\": no such player; the players are \"Red\", \"Blue\", and `public` is every player's view"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_battle_nested_past_the_readers_limit_is_told_about_its_own_format() {
    let dir = temp_dir("nested");
    let path = dir.join("deep.ron");
    let deep = format!("{}1{}", "(".repeat(200), ")".repeat(200));
    std::fs::write(
        &path,
        open_field().replacen("map: (columns: 16, rows: 12),", &format!("map: {deep},"), 1),
    )
    .expect("written");
    let out = cli(&["validate", arg(&path)]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        !err.contains("`board`") && !err.contains("`players`"),
        "a battle is not told about a Cache table: {err}"
    );
    assert!(
        err.starts_with(&format!("{}:", dir.join("deep.ron").display())),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The largest sheet the page limit allows: 1,000 pages of A4.
fn big_sheet(dir: &Path) -> PathBuf {
    let standard = std::fs::read_to_string(root().join("scenarios/standard.ron")).expect("read");
    let table = "table_mm: (762.0, 508.0)";
    assert!(standard.contains(table));
    let big = dir.join("big.ron");
    std::fs::write(
        &big,
        standard.replacen(table, "table_mm: (4740.0, 9709.0)", 1),
    )
    .expect("written");
    big
}

fn temporary_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn a_print_stopped_by_a_signal_leaves_no_temporary_file_and_stale_ones_are_cleared() {
    let dir = temp_dir("litter");
    let big = big_sheet(&dir);
    let sheet = dir.join("sheet.pdf");
    for signal in ["TERM", "INT"] {
        // The print takes a tenth of a second: tried again where it ends
        // before the signal lands.
        let mut landed = false;
        for _ in 0..20 {
            let _ = std::fs::remove_file(&sheet);
            let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
                .args(["print", arg(&big), "--out", arg(&sheet)])
                .current_dir(root())
                .spawn()
                .expect("runs");
            // Stopped while its temporary file is being written.
            let started = Instant::now();
            let mut ended = false;
            while temporary_files(&dir).is_empty() {
                assert!(
                    started.elapsed() < Duration::from_secs(30),
                    "no temporary file appeared"
                );
                if child.try_wait().expect("waits").is_some() {
                    ended = true;
                    break;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            if ended {
                continue;
            }
            let killed = Command::new("kill")
                .args([&format!("-{signal}"), &child.id().to_string()])
                .status()
                .expect("kill runs");
            assert!(killed.success());
            let status = child.wait().expect("ends");
            if status.success() {
                continue;
            }
            let code = if signal == "TERM" { 143 } else { 130 };
            assert_eq!(
                status.code(),
                Some(code),
                "SIG{signal}: exits as a shell says it was stopped"
            );
            assert_eq!(
                temporary_files(&dir),
                Vec::<String>::new(),
                "SIG{signal}: nothing left behind"
            );
            assert!(!sheet.exists(), "SIG{signal}: no half sheet");
            landed = true;
            break;
        }
        assert!(
            landed,
            "SIG{signal} never landed while the sheet was written"
        );
    }
    // One left by a process killed outright is cleared by the next write.
    let stale = dir.join(".sheet.pdf.4294967295.0.tmp");
    std::fs::write(&stale, "half a sheet").expect("written");
    let small = dir.join("small.pdf");
    let out = cli(&["print", "scenarios/standard.ron", "--out", arg(&small)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stale.exists(),
        "another file's temporary file is not this write's to clear"
    );
    let out = cli(&["print", "scenarios/standard.ron", "--out", arg(&sheet)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !stale.exists(),
        "a stale temporary file of the sheet is cleared"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slips_of_notation_are_refused_or_quoted_as_typed() {
    let dir = temp_dir("slips");
    // A roll left out of a list is refused, on the command line and in a record.
    let out = cli(&[
        "show",
        "scenarios/warpspawn/open-field.ron",
        "--dice",
        "2,,5",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim_end(),
        "--dice 2,,5: a comma with no roll after roll 1: each die rolled is written once (R30)"
    );
    let record = dir.join("r.moves");
    // The open field played from a record of this text.
    let play = |text: &str| {
        std::fs::write(&record, text).expect("written");
        cli(&[
            "play",
            "scenarios/warpspawn/open-field.ron",
            "--record",
            arg(&record),
        ])
    };
    let out = play("[Dice \"2,,5\"]\nend\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("a comma with no roll after roll 1"),
        "{}",
        text(&out.stderr)
    );
    // A header given twice.
    let out = play("[Seed \"1\"]\n[Seed \"2\"]\nend\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim_end(),
        format!(
            "{}:2: a second [Seed] header: a record gives each header once",
            arg(&record)
        )
    );
    // A command of no men is quoted as typed.
    let out = play("advance D3 from E3 inf 0\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`advance D3 from E3 inf 0`"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
