//! The CLI's output, byte for byte, on every shipped scenario and record:
//! `validate`, `show`, `play` (text and JSON, with and without bots),
//! `simulate` and `tournament`. Each case's exit status, standard output and
//! standard error are kept in `tests/golden/NAME.txt`; lines that time a run
//! are masked. Output may change only on purpose:
//! `SANDTABLE_WRITE_GOLDEN=1 cargo test -p sandtable-cli --test golden`
//! writes the files again, and the diff shows what changed.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The cases: a name and the arguments, run from the workspace's root.
fn cases() -> Vec<(String, Vec<String>)> {
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |name: &str, args: &[&str]| {
        cases.push((
            name.to_owned(),
            args.iter().map(|a| (*a).to_owned()).collect(),
        ));
    };
    for s in [
        "standard",
        "open-field",
        "three-players",
        "two-factors",
        "river-crossing",
        "snyder-skirmish",
        "stress-100x100",
    ] {
        let file = format!("scenarios/{s}.ron");
        add(&format!("validate-{s}"), &["validate", &file]);
        add(&format!("show-{s}"), &["show", &file]);
    }
    for s in [
        "open-field",
        "river-bridge",
        "capture-the-flag",
        "flank-march",
    ] {
        let file = format!("scenarios/warpspawn/{s}.ron");
        add(&format!("validate-warpspawn-{s}"), &["validate", &file]);
        add(&format!("show-warpspawn-{s}"), &["show", &file]);
    }
    // The off-board grid: one record seen by the referee and by each side
    // (R57), as text and JSON.
    let flank = "scenarios/warpspawn/flank-march.ron";
    let flank_moves = "crates/cli/tests/data/flank-march.moves";
    for (who, seeing) in [
        ("", None),
        ("-as-red", Some("Red")),
        ("-as-blue", Some("Blue")),
    ] {
        for json in [false, true] {
            let mut args = vec!["play", flank, "--record", flank_moves];
            if let Some(side) = seeing {
                args.extend(["--as", side]);
            }
            if json {
                args.push("--json");
            }
            let suffix = if json { "-json" } else { "" };
            add(&format!("play-flank-march{who}{suffix}"), &args);
        }
    }
    // Frontiers: a record's turns (Preparation, sealed orders, steps
    // named and resolved, two shots together, the Reserve), its moves
    // measured, its lines traced and its shots resolved; what the Zirl
    // see of it; a path through the hut refused where it touches (R114);
    // families counted by perft; bots and simulate.
    let skirmish = "scenarios/frontiers/skirmish.ron";
    let skirmish_moves = "crates/cli/tests/data/skirmish.moves";
    add("validate-frontiers-skirmish", &["validate", skirmish]);
    add("show-frontiers-skirmish", &["show", skirmish]);
    add(
        "show-frontiers-skirmish-40mm",
        &["show", skirmish, "--cell-mm", "40"],
    );
    add(
        "show-cell-mm-on-squares",
        &["show", "scenarios/standard.ron", "--cell-mm", "40"],
    );
    add(
        "play-frontiers-skirmish",
        &["play", skirmish, "--record", skirmish_moves],
    );
    add(
        "play-frontiers-skirmish-json",
        &["play", skirmish, "--record", skirmish_moves, "--json"],
    );
    add(
        "play-frontiers-skirmish-dice",
        &[
            "play",
            "crates/cli/tests/data/skirmish-decks.ron",
            "--record",
            "crates/cli/tests/data/skirmish-dice.moves",
            "--dice",
            "6,6,1,2,6,1,1,5,5,6,6",
        ],
    );
    add(
        "play-frontiers-skirmish-as-zirl",
        &["play", skirmish, "--record", skirmish_moves, "--as", "Zirl"],
    );
    add(
        "play-frontiers-illegal",
        &[
            "play",
            skirmish,
            "--record",
            "crates/cli/tests/data/skirmish-illegal.moves",
        ],
    );
    let hut = "crates/cli/tests/data/skirmish-hut.moves";
    add("play-frontiers-hut", &["play", skirmish, "--record", hut]);
    add(
        "play-frontiers-hut-json",
        &["play", skirmish, "--record", hut, "--json"],
    );
    add("perft-frontiers-skirmish", &["perft", skirmish, "2"]);
    // Looking back at a record: the search's chances after every decision
    // and the turning points, for every system; a record that names no
    // scenario is refused, saying how to name one.
    for (name, record, iterations) in [
        (
            "review-cache-open-field-capture",
            "crates/cli/tests/data/open-field-capture.moves",
            "30",
        ),
        ("review-warpspawn-flank-march", flank_moves, "30"),
        (
            "review-frontiers-person-wins-legion",
            "crates/cli/tests/data/skirmish-person-wins-legion.moves",
            "20",
        ),
    ] {
        add(name, &["review", record, "--mcts-iterations", iterations]);
    }
    add("review-no-scenario", &["review", skirmish_moves]);
    let confrontation = "scenarios/frontiers/confrontation.ron";
    add(
        "simulate-frontiers-confrontation",
        &["simulate", confrontation, "--games", "10", "--seed", "1"],
    );
    add(
        "simulate-frontiers-treasure-hunt",
        &[
            "simulate",
            "scenarios/frontiers/treasure-hunt.ron",
            "--games",
            "10",
            "--seed",
            "1",
        ],
    );
    add(
        "simulate-frontiers-cameron-match",
        &[
            "simulate",
            "scenarios/frontiers/cameron-1.ron",
            "scenarios/frontiers/cameron-2.ron",
            "--games",
            "4",
            "--seed",
            "1",
        ],
    );
    add(
        "tournament-frontiers-cameron-match",
        &[
            "tournament",
            "scenarios/frontiers/cameron-1.ron",
            "scenarios/frontiers/cameron-2.ron",
            "--bots",
            "random,greedy",
            "--games",
            "2",
            "--seed",
            "1",
            "--threads",
            "1",
        ],
    );
    for (name, file) in [
        ("attack-defense", "scenarios/frontiers/attack-defense.ron"),
        ("data-recovery", "scenarios/frontiers/data-recovery.ron"),
    ] {
        add(
            &format!("simulate-frontiers-{name}"),
            &["simulate", file, "--games", "10", "--seed", "1"],
        );
    }
    add(
        "play-frontiers-bots",
        &[
            "play",
            skirmish,
            "--bot",
            "0=greedy",
            "--bot",
            "1=mcts",
            "--mcts-iterations",
            "20",
            "--turn-limit",
            "1",
        ],
    );
    add(
        "simulate-frontiers-skirmish",
        &["simulate", skirmish, "--games", "10", "--seed", "1"],
    );
    add(
        "simulate-warpspawn-flank-march",
        &["simulate", flank, "--games", "20", "--seed", "1"],
    );
    let clash = "crates/cli/tests/data/warpspawn-clash.ron";
    let clash_moves = "crates/cli/tests/data/warpspawn-clash.moves";
    add("validate-warpspawn-clash", &["validate", clash]);
    add(
        "play-warpspawn-clash",
        &["play", clash, "--record", clash_moves],
    );
    add(
        "play-warpspawn-clash-json",
        &["play", clash, "--record", clash_moves, "--json"],
    );
    add(
        "show-warpspawn-clash-as-blue",
        &["show", clash, "--record", clash_moves, "--as", "Blue"],
    );
    add(
        "play-warpspawn-open-field-dice",
        &[
            "play",
            "scenarios/warpspawn/open-field.ron",
            "--record",
            "crates/cli/tests/data/warpspawn-open-field.moves",
        ],
    );
    add(
        "play-warpspawn-illegal",
        &[
            "play",
            "scenarios/warpspawn/open-field.ron",
            "--record",
            "crates/cli/tests/data/warpspawn-illegal.moves",
        ],
    );
    add(
        "play-warpspawn-bots",
        &[
            "play",
            clash,
            "--bot",
            "0=random",
            "--bot",
            "1=mcts",
            "--mcts-iterations",
            "10",
            "--turn-limit",
            "2",
        ],
    );
    add(
        "play-warpspawn-greedy",
        &[
            "play",
            clash,
            "--bot",
            "0=greedy",
            "--bot",
            "1=mcts",
            "--mcts-iterations",
            "10",
            "--turn-limit",
            "2",
        ],
    );
    add(
        "simulate-warpspawn",
        &["simulate", clash, "--games", "10", "--seed", "1"],
    );
    add(
        "perft-warpspawn",
        &["perft", "scenarios/warpspawn/open-field.ron", "2"],
    );
    add(
        "print-warpspawn",
        &[
            "print",
            "scenarios/warpspawn/open-field.ron",
            "--out",
            "target/warpspawn-sheet.pdf",
        ],
    );
    add(
        "print-warpspawn-flank-march",
        &[
            "print",
            "scenarios/warpspawn/flank-march.ron",
            "--out",
            "target/flank-march-sheet.pdf",
        ],
    );
    add(
        "print-frontiers-skirmish",
        &[
            "print",
            "scenarios/frontiers/skirmish.ron",
            "--out",
            "target/frontiers-sheet.pdf",
        ],
    );
    add(
        "validate-problems",
        &["validate", "scenarios/tests/many-problems.ron"],
    );
    for (scenario, record) in [
        ("open-field", "open-field-capture"),
        ("snyder-skirmish", "snyder-stash"),
    ] {
        let file = format!("scenarios/{scenario}.ron");
        let moves = format!("crates/cli/tests/data/{record}.moves");
        add(
            &format!("play-{record}"),
            &["play", &file, "--record", &moves],
        );
        add(
            &format!("play-{record}-json"),
            &["play", &file, "--record", &moves, "--json"],
        );
        add(
            &format!("show-{record}"),
            &["show", &file, "--record", &moves],
        );
    }
    add(
        "play-bots",
        &[
            "play",
            "scenarios/open-field.ron",
            "--bot",
            "0=greedy",
            "--bot",
            "1=mcts",
            "--mcts-iterations",
            "20",
            "--turn-limit",
            "12",
        ],
    );
    add(
        "simulate-standard",
        &[
            "simulate",
            "scenarios/standard.ron",
            "--games",
            "20",
            "--seed",
            "1",
        ],
    );
    add(
        "simulate-snyder",
        &[
            "simulate",
            "scenarios/snyder-skirmish.ron",
            "--games",
            "10",
            "--seed",
            "3",
        ],
    );
    add(
        "tournament",
        &[
            "tournament",
            "scenarios/open-field.ron",
            "--games",
            "2",
            "--mcts-iterations",
            "10",
            "--turn-limit",
            "20",
            "--threads",
            "1",
        ],
    );
    cases
}

/// Lines that time a run (and name the threads it ran on) differ from run
/// to run and machine to machine: each is kept as a mark.
fn masked(text: &str) -> String {
    text.lines()
        .map(|line| {
            let timed = line.contains(" s on ")
                || line.contains(" a second")
                || line.contains(" ms")
                || line.contains("seconds");
            if timed { "[a line of timings]" } else { line }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_cli_s_output_is_as_kept() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let write = std::env::var_os("SANDTABLE_WRITE_GOLDEN").is_some();
    let mut changed = Vec::new();
    for (name, args) in cases() {
        let out = Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
            .args(&args)
            .current_dir(root())
            .output()
            .expect("the binary runs");
        let text = format!(
            "$ sandtable-cli {}\nexit {}\n--- stdout\n{}\n--- stderr\n{}\n",
            args.join(" "),
            out.status.code().unwrap_or(-1),
            masked(&String::from_utf8_lossy(&out.stdout)),
            masked(&String::from_utf8_lossy(&out.stderr)),
        );
        let path = folder.join(format!("{name}.txt"));
        if write {
            std::fs::create_dir_all(&folder).expect("golden folder");
            std::fs::write(&path, &text).expect("write golden output");
        }
        match std::fs::read_to_string(&path) {
            Ok(kept) if kept == text => {}
            Ok(kept) => {
                let first = kept
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(kept.lines().count().min(text.lines().count()));
                changed.push(format!(
                    "{name}: line {}: kept {:?}, now {:?}",
                    first + 1,
                    kept.lines().nth(first).unwrap_or(""),
                    text.lines().nth(first).unwrap_or("")
                ));
            }
            Err(_) => changed.push(format!("{name}: no kept output")),
        }
    }
    assert!(
        changed.is_empty(),
        "the CLI's output changed (SANDTABLE_WRITE_GOLDEN=1 writes it again):\n{}",
        changed.join("\n")
    );
}
