//! No input takes Sandtable down: each documented limit is run at its worst
//! case (the largest input it allows, and one past it) through the
//! `sandtable-cli` binary under a cap of 5 seconds and 500 MB of address
//! space, and hostile inputs (devices, pipes, huge counts, terminal escapes)
//! are refused with a message that says where and why.

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sandtable_cache::{MAX_PIECES, MAX_STASHES, MAX_TERRAIN_SQUARES, MAX_TURN_LIMIT};

/// The cap every run here lives under.
const CAP_SECONDS: u64 = 5;
const CAP_KIB: u64 = 500 * 1024;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sandtable-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The binary under test: the one cargo built, or another named in
/// `SANDTABLE_CLI` (a release build, an older version to compare with).
fn binary() -> String {
    std::env::var("SANDTABLE_CLI")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sandtable-cli").to_owned())
}

/// What a capped run gave: its exit code (`None` when a signal ended it:
/// the cap's kill, or an abort), whether the cap's time ran out, its output
/// and how long it took.
struct Run {
    code: Option<i32>,
    out_of_time: bool,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs the CLI under the cap: the address space limited with the shell's
/// `ulimit -v`, and killed after `CAP_SECONDS`. An allocation past the limit
/// aborts the run, which the caller sees as a failure.
fn capped(args: &[&str]) -> Run {
    // One capped run at a time, so that each has the machine's cores to
    // itself and the time cap measures the run, not its neighbours.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(binary())
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Output is drained on threads, so that a full pipe never stalls the run.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let (code, out_of_time) = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break (status.code(), false);
        }
        if started.elapsed() > Duration::from_secs(CAP_SECONDS) {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = started.elapsed();
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    Run {
        code,
        out_of_time,
        stdout: text(out.join().expect("stdout read")),
        stderr: text(err.join().expect("stderr read")),
        took,
    }
}

/// Asserts that a run ended by itself within the cap with the exit code.
fn ends_with(run: &Run, code: i32, what: &str) {
    assert!(
        !run.out_of_time,
        "{what}: still running when the cap's {CAP_SECONDS} s ran out\nstderr: {}",
        run.stderr
    );
    assert_eq!(
        run.code,
        Some(code),
        "{what}: exit code after {:?}\nstdout: {}\nstderr: {}",
        run.took,
        run.stdout.chars().take(2000).collect::<String>(),
        run.stderr
    );
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A scenario of two players with a base each at the board's corners, and
/// more text spliced in (terrain, stashes, fields).
fn scenario(columns: u32, rows: u32, rules: &str, extra: &str) -> String {
    format!(
        "(name: \"limits\", rules: {rules}, board: (columns: {columns}, rows: {rows}),
          players: [
            (name: \"Red\", factors: [(base: \"B2\", units: [(at: \"C3\", facing: N)])]),
            (name: \"Blue\", factors: [(base: \"E5\", units: [(at: \"D4\", facing: S)])]),
          ],
          {extra})"
    )
}

fn column_name(col: u32) -> String {
    sandtable_cache::Square::new(col as u16, 0)
        .to_string()
        .trim_end_matches('1')
        .to_owned()
}

#[test]
fn the_largest_board_with_full_board_terrain_validates_shows_and_prints_within_the_cap() {
    let dir = temp_dir("board");
    let largest = dir.join("largest.ron");
    let corner = format!("{}702", column_name(701));
    // Woods over every square but the pieces' corner, and one past the
    // board's side refused.
    std::fs::write(
        &largest,
        scenario(
            702,
            702,
            "ConflictAtCache",
            &format!(
                "terrain: [(kind: Woods, area: (\"G7\", \"{corner}\")), (kind: Water, area: (\"A7\", \"F{}\"))],
                 physical: (square_mm: 9.0, table_mm: (6318.0, 6318.0)),",
                702
            ),
        ),
    )
    .expect("written");
    let run = capped(&["validate", arg(&largest)]);
    ends_with(&run, 0, "validate 702 x 702");
    let run = capped(&["show", arg(&largest)]);
    ends_with(&run, 0, "show 702 x 702");
    assert!(run.stdout.lines().count() > 702, "every row is drawn");
    let sheet = dir.join("largest.pdf");
    let run = capped(&["print", arg(&largest), "--out", arg(&sheet)]);
    ends_with(&run, 0, "print 702 x 702 squares of 9 mm");
    assert!(run.stdout.contains("pages on A4"), "{}", run.stdout);
    let pdf = std::fs::read(&sheet).expect("the sheet");
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");

    let past = dir.join("past.ron");
    std::fs::write(&past, scenario(703, 702, "ConflictAtCache", "")).expect("written");
    let run = capped(&["validate", arg(&past)]);
    ends_with(&run, 1, "a board of 703 columns");
    assert!(
        run.stderr.contains("a board of 703 x 702 squares is not allowed: columns and rows must each be 1 to 702 (R1)"),
        "{}",
        run.stderr
    );
}

#[test]
fn terrain_squares_are_counted_before_areas_are_expanded() {
    let dir = temp_dir("terrain");
    // 40 full-board areas in 3.5 KB: refused at once with the count and the limit.
    let areas: String = (0..40)
        .map(|_| "(kind: Woods, area: (\"A1\", \"ZZ702\")),".to_owned())
        .collect();
    let forty = dir.join("forty.ron");
    std::fs::write(
        &forty,
        scenario(702, 702, "ConflictAtCache", &format!("terrain: [{areas}],")),
    )
    .expect("written");
    assert!(
        std::fs::metadata(&forty).expect("file").len() < 4096,
        "a small file"
    );
    let run = capped(&["validate", arg(&forty)]);
    ends_with(&run, 1, "forty full-board areas");
    assert!(
        run.stderr.contains(&format!(
            "terrain: the terrain pieces cover {} squares in all: at most {MAX_TERRAIN_SQUARES} are supported",
            40 * 702 * 702
        )),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "one problem: {}", run.stderr);

    // Exactly the limit: two overlapping full-board areas and the rest in
    // one more area (492,804 * 2 + 14,392 = 1,000,000); the overlap is one
    // problem a pair, told as a range.
    let at_limit = dir.join("at-limit.ron");
    let rest = MAX_TERRAIN_SQUARES - 2 * 702 * 702;
    let rest_rows = rest / 702;
    let extra = rest - rest_rows * 702;
    let mut terrain = String::from(
        "terrain: [(kind: Woods, area: (\"A1\", \"ZZ702\")), (kind: Water, area: (\"A1\", \"ZZ702\")),",
    );
    let _ = write!(
        terrain,
        "(kind: Mountain, area: (\"A1\", \"ZZ{rest_rows}\")),"
    );
    let squares: Vec<String> = (0..extra)
        .map(|c| format!("\"{}1\"", column_name(c as u32)))
        .collect();
    let _ = write!(terrain, "(kind: Road, squares: [{}]),],", squares.join(","));
    std::fs::write(&at_limit, scenario(702, 702, "ConflictAtCache", &terrain)).expect("written");
    let run = capped(&["validate", arg(&at_limit)]);
    ends_with(&run, 1, "a million terrain squares, overlapping");
    assert!(
        run.stderr.contains("terrain[1]: water overlaps terrain[0] (woods) on 492804 squares, from A1 to ZZ702; pieces may not overlap"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.lines().count() <= 8,
        "a few problems, not one a square: {}",
        run.stderr
    );
    // One square past the limit.
    let past = dir.join("past.ron");
    let text = std::fs::read_to_string(&at_limit).expect("read").replace(
        "(kind: Road, squares: [",
        "(kind: Road, squares: [\"ZZ702\",",
    );
    std::fs::write(&past, text).expect("written");
    let run = capped(&["validate", arg(&past)]);
    ends_with(&run, 1, "one terrain square past the limit");
    assert!(
        run.stderr
            .contains(&format!("cover {} squares in all", MAX_TERRAIN_SQUARES + 1)),
        "{}",
        run.stderr
    );
}

#[test]
fn problems_past_a_hundred_are_counted_not_listed() {
    let dir = temp_dir("problems");
    // A thousand stashes on a board without them, each off the board.
    let stashes: Vec<String> = (0..MAX_STASHES).map(|_| "\"ZZ702\"".to_owned()).collect();
    let path = dir.join("many.ron");
    std::fs::write(
        &path,
        scenario(
            8,
            8,
            "SnyderSkirmish",
            &format!("stashes: [{}],", stashes.join(",")),
        ),
    )
    .expect("written");
    let run = capped(&["validate", arg(&path)]);
    ends_with(&run, 1, "a thousand problems");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines.len(),
        101,
        "a hundred problems and the count: {}",
        run.stderr
    );
    assert!(
        lines[100].ends_with("the first 100 problems are listed, and 900 more"),
        "{}",
        lines[100]
    );
}

#[test]
fn units_and_stashes_past_their_limits_are_refused_at_load_with_the_limit() {
    let dir = temp_dir("counts");
    // The most units: Factors of 24 units round their bases, on a board
    // large enough, and one unit past.
    let factor = |col: u32, row: u32, n: usize| {
        let base = (col, row);
        let mut units = Vec::new();
        'around: for dr in -2i32..=2 {
            for dc in -2i32..=2 {
                if (dr, dc) == (0, 0) {
                    continue;
                }
                if units.len() == n {
                    break 'around;
                }
                let (c, r) = ((base.0 as i32 + dc) as u32, (base.1 as i32 + dr) as u32);
                units.push(format!("(at: \"{}{}\", facing: N)", column_name(c), r + 1));
            }
        }
        format!(
            "(base: \"{}{}\", units: [{}])",
            column_name(base.0),
            base.1 + 1,
            units.join(",")
        )
    };
    let players = |total: usize| {
        let mut factors = Vec::new();
        let mut left = total;
        let mut k = 0u32;
        while left > 0 {
            let n = left.min(24);
            factors.push(factor(3 + 5 * (k % 130), 3 + 5 * (k / 130), n));
            left -= n;
            k += 1;
        }
        let half = factors.len() / 2;
        format!(
            "(name: \"limits\", rules: ConflictAtCache, board: (columns: 700, rows: 40),
              players: [(name: \"Red\", factors: [{}]), (name: \"Blue\", factors: [{}])])",
            factors[..half].join(","),
            factors[half..].join(",")
        )
    };
    let most = dir.join("most-units.ron");
    std::fs::write(&most, players(MAX_PIECES)).expect("written");
    let run = capped(&["validate", arg(&most)]);
    ends_with(&run, 0, "the most units");
    let run = capped(&["show", arg(&most)]);
    ends_with(&run, 0, "the most units drawn");
    let past = dir.join("past-units.ron");
    std::fs::write(&past, players(MAX_PIECES + 1)).expect("written");
    let run = capped(&["validate", arg(&past)]);
    ends_with(&run, 1, "one unit past");
    assert!(
        run.stderr.contains(&format!(
            "players: {} units in {} Factors: at most {MAX_PIECES} of each are supported",
            MAX_PIECES + 1,
            (MAX_PIECES + 1).div_ceil(24)
        )),
        "{}",
        run.stderr
    );

    // 65,537 stashes once cut the stash index to 16 bits: now refused.
    let stashes: Vec<String> = (0..65_537u32)
        .map(|i| format!("\"{}{}\"", column_name(i % 600), i / 600 + 3))
        .collect();
    let many = dir.join("many-stashes.ron");
    std::fs::write(
        &many,
        scenario(
            600,
            200,
            "SnyderSkirmish",
            &format!("stashes: [{}],", stashes.join(",")),
        ),
    )
    .expect("written");
    let run = capped(&["validate", arg(&many)]);
    ends_with(&run, 1, "65,537 stashes");
    assert!(
        run.stderr.contains(&format!(
            "stashes: 65537 stashes: at most {MAX_STASHES} are supported (R20)"
        )),
        "{}",
        run.stderr
    );
    // One past the limit, and the most stashes, which load and play.
    let one_past: Vec<String> = (0..=MAX_STASHES as u32)
        .map(|i| format!("\"{}{}\"", column_name(i % 100 + 10), i / 100 + 10))
        .collect();
    let past = dir.join("past-stashes.ron");
    std::fs::write(
        &past,
        scenario(
            120,
            30,
            "SnyderSkirmish",
            &format!("stashes: [{}],", one_past.join(",")),
        ),
    )
    .expect("written");
    let run = capped(&["validate", arg(&past)]);
    ends_with(&run, 1, "one stash past the limit");
    assert!(
        run.stderr.contains(&format!(
            "{} stashes: at most {MAX_STASHES}",
            MAX_STASHES + 1
        )),
        "{}",
        run.stderr
    );
    let stashes: Vec<String> = (0..MAX_STASHES as u32)
        .map(|i| format!("\"{}{}\"", column_name(i % 100 + 10), i / 100 + 10))
        .collect();
    let most = dir.join("most-stashes.ron");
    std::fs::write(
        &most,
        scenario(
            120,
            30,
            "SnyderSkirmish",
            &format!("stashes: [{}],", stashes.join(",")),
        ),
    )
    .expect("written");
    let run = capped(&["simulate", arg(&most), "--games", "2"]);
    ends_with(&run, 0, "the most stashes");
}

#[test]
fn turn_limits_past_the_maximum_are_refused_and_the_maximum_runs() {
    let limit = MAX_TURN_LIMIT.to_string();
    let past = (MAX_TURN_LIMIT + 1).to_string();
    let simulate = ["simulate", "scenarios/open-field.ron", "--games", "1"];
    let play = [
        "play",
        "scenarios/open-field.ron",
        "--bot",
        "0=random",
        "--bot",
        "1=random",
    ];
    let tournament = [
        "tournament",
        "scenarios/open-field.ron",
        "--bots",
        "random,greedy",
        "--games",
        "1",
    ];
    for cmd in [&simulate[..], &play, &tournament] {
        let run = capped(&[cmd, &["--turn-limit", &past]].concat());
        ends_with(&run, 1, "a turn limit past the maximum");
        assert!(
            run.stderr.contains(&format!(
                "a turn limit is 1 to {MAX_TURN_LIMIT} turns (R11)"
            )),
            "{}",
            run.stderr
        );
    }
    for cmd in [&simulate[..], &play] {
        let run = capped(&[cmd, &["--turn-limit", &limit]].concat());
        ends_with(&run, 0, "the longest turn limit");
    }
    // A scenario's own limit is held to the same maximum.
    let dir = temp_dir("turns");
    let path = dir.join("long.ron");
    std::fs::write(
        &path,
        scenario(8, 8, "ConflictAtCache", "turn_limit: 4294967295,"),
    )
    .expect("written");
    let run = capped(&["validate", arg(&path)]);
    ends_with(&run, 1, "a scenario's turn limit past the maximum");
    assert!(
        run.stderr
            .contains("turn_limit: a turn limit is 1 to 10000 turns, not 4294967295 (R11)"),
        "{}",
        run.stderr
    );
}

#[test]
fn many_games_are_streamed_not_allocated_up_front() {
    // Four billion games cannot finish; what matters is that they start
    // without allocating for every game, and keep to the cap while they run.
    for args in [
        &[
            "simulate",
            "scenarios/open-field.ron",
            "--games",
            "4294967295",
        ][..],
        &[
            "tournament",
            "scenarios/open-field.ron",
            "--bots",
            "random,greedy,mcts",
            "--mcts-iterations",
            "1",
            "--games",
            "4294967295",
        ],
    ] {
        let run = capped(args);
        assert!(
            run.out_of_time,
            "{args:?} still runs at the cap's end, within its memory; it ended with {:?}\nstderr: {}",
            run.code, run.stderr
        );
    }
}

#[test]
fn sheets_past_the_page_limit_are_refused_at_once() {
    let dir = temp_dir("sheet");
    let out = dir.join("sheet.pdf");
    // A valid scenario whose table is 10 km wide.
    let wide = dir.join("wide.ron");
    std::fs::write(
        &wide,
        scenario(
            8,
            8,
            "ConflictAtCache",
            "physical: (square_mm: 30.0, table_mm: (10000000.0, 10000000.0)),",
        ),
    )
    .expect("written");
    let run = capped(&["validate", arg(&wide)]);
    ends_with(&run, 0, "a 10 km table is a valid scenario");
    let run = capped(&["print", arg(&wide), "--out", arg(&out)]);
    ends_with(&run, 1, "a 10 km table");
    assert!(
        run.stderr.contains("pages of A4") && run.stderr.contains("at most 1000 are printed"),
        "{}",
        run.stderr
    );
    assert!(!out.exists(), "nothing written");
    // The largest sheet the limit allows: 4,740 x 9,709 mm on A4 portrait
    // is 27 x 37 = 999 tiles and a page of pieces; a millimetre deeper
    // takes 1,027.
    let big = dir.join("big.ron");
    let table = |depth: &str| {
        scenario(
            8,
            8,
            "ConflictAtCache",
            &format!("physical: (square_mm: 30.0, table_mm: (4740.0, {depth})),"),
        )
    };
    std::fs::write(&big, table("9709.0")).expect("written");
    let run = capped(&["print", arg(&big), "--out", arg(&out)]);
    ends_with(&run, 0, "the largest sheet");
    assert!(run.stdout.contains(": 1000 pages on A4"), "{}", run.stdout);
    std::fs::write(&big, table("9710.0")).expect("written");
    let run = capped(&["print", arg(&big), "--out", arg(&out)]);
    ends_with(&run, 1, "a sheet a page past the limit");
    assert!(run.stderr.contains("1027 pages of A4"), "{}", run.stderr);
}

#[test]
fn devices_pipes_and_oversized_files_are_refused_not_read() {
    let dir = temp_dir("files");
    let run = capped(&["validate", "/dev/zero"]);
    ends_with(&run, 1, "a scenario from /dev/zero");
    assert!(
        run.stderr
            .contains("/dev/zero: cannot read the scenario: it is a device, not a file"),
        "{}",
        run.stderr
    );
    let run = capped(&["play", "scenarios/standard.ron", "--record", "/dev/zero"]);
    ends_with(&run, 1, "a record from /dev/zero");
    assert!(
        run.stderr.contains("it is a device, not a file"),
        "{}",
        run.stderr
    );
    let fifo = dir.join("pipe.ron");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let run = capped(&["validate", arg(&fifo)]);
        ends_with(&run, 1, "a scenario from a pipe");
        assert!(
            run.stderr.contains("it is a pipe, not a file"),
            "{}",
            run.stderr
        );
        let run = capped(&["play", "scenarios/standard.ron", "--record", arg(&fifo)]);
        ends_with(&run, 1, "a record from a pipe");
    }
    // A stash list may name only a file in the scenario's folder.
    for name in ["/dev/zero", "../escape.ron", "/etc/hostname"] {
        let path = dir.join("stash.ron");
        std::fs::write(
            &path,
            scenario(8, 8, "SnyderSkirmish", &format!("stash_list: \"{name}\",")),
        )
        .expect("written");
        let run = capped(&["validate", arg(&path)]);
        ends_with(&run, 1, name);
        assert!(
            run.stderr.contains("is outside the scenario's folder"),
            "{name}: {}",
            run.stderr
        );
    }
    // Scenario files: the limit exactly, and one byte past.
    let limit = sandtable_scenario::MAX_FILE_BYTES as usize;
    let body = scenario(8, 8, "ConflictAtCache", "");
    let padded = format!("{body}\n//{}\n", "x".repeat(limit - body.len() - 4));
    assert_eq!(padded.len(), limit);
    let at = dir.join("at-limit.ron");
    std::fs::write(&at, &padded).expect("written");
    ends_with(
        &capped(&["validate", arg(&at)]),
        0,
        "a scenario of exactly the limit",
    );
    std::fs::write(&at, format!("{padded} ")).expect("written");
    let run = capped(&["validate", arg(&at)]);
    ends_with(&run, 1, "a scenario a byte past the limit");
    assert!(
        run.stderr.contains(&format!("larger than {limit} bytes")),
        "{}",
        run.stderr
    );
    // Records: the limit exactly, as many commands as fit (a pass a line,
    // on a table without a turn limit), replayed with its log and as JSON;
    // and one byte past.
    let limit = sandtable_scenario::records::MAX_RECORD_BYTES as usize;
    let head = "[Seed \"42\"]\n";
    let passes = (limit - head.len()) / 5;
    let record = format!(
        "{head}{}{}",
        "pass\n".repeat(passes),
        "#".repeat(limit - head.len() - 5 * passes)
    );
    assert_eq!(record.len(), limit);
    let path = dir.join("long.moves");
    std::fs::write(&path, &record).expect("written");
    for args in [&["--json"][..], &[]] {
        let run = capped(
            &[
                &["play", "scenarios/open-field.ron", "--record", arg(&path)][..],
                args,
            ]
            .concat(),
        );
        ends_with(&run, 0, "a record of exactly the limit");
    }
    std::fs::write(&path, format!("{record} ")).expect("written");
    let run = capped(&["play", "scenarios/open-field.ron", "--record", arg(&path)]);
    ends_with(&run, 1, "a record a byte past the limit");
}

#[test]
fn terminal_escapes_in_a_scenario_never_reach_the_terminal() {
    let dir = temp_dir("escapes");
    let path = dir.join("escapes.ron");
    let text = scenario(8, 8, "ConflictAtCache", "")
        .replace("name: \"limits\"", "name: \"\u{1b}]0;owned\u{7}\u{1b}[2J\"");
    std::fs::write(&path, text).expect("written");
    for args in [
        &["validate", arg(&path)][..],
        &["show", arg(&path)],
        &["simulate", arg(&path), "--games", "1"],
    ] {
        // Refused (a name holds no control characters), and the refusal
        // shows them instead of passing them on.
        let run = capped(args);
        ends_with(&run, 1, "a name with escapes");
        assert!(
            run.stderr.contains("name: ") && run.stderr.contains("holds \\u{1b} at character 1"),
            "{args:?}: {}",
            run.stderr
        );
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(
            !all.contains('\u{1b}') && !all.contains('\u{7}'),
            "{args:?}: {all:?}"
        );
        assert!(
            all.contains("\\u{1b}]0;owned\\u{7}\\u{1b}[2J"),
            "{args:?} shows them: {all}"
        );
    }
}

#[test]
fn output_over_an_input_is_refused_and_changes_nothing() {
    let dir = temp_dir("over");
    let scenario_path = dir.join("v.ron");
    let text = std::fs::read_to_string(root().join("scenarios/open-field.ron")).expect("read");
    std::fs::write(&scenario_path, &text).expect("written");
    let run = capped(&["print", arg(&scenario_path), "--out", arg(&scenario_path)]);
    ends_with(&run, 1, "print over its scenario");
    assert!(
        run.stderr.contains("an input of this command"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&scenario_path).expect("read"),
        text,
        "untouched"
    );
    // A sheet replaces a PDF, never another kind of file.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes").expect("written");
    let run = capped(&["print", arg(&scenario_path), "--out", arg(&notes)]);
    ends_with(&run, 1, "print over a text file");
    assert!(run.stderr.contains("is not a PDF"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&notes).expect("read"), "my notes");
    // play --save over the scenario, or over the record it reads.
    let record = dir.join("g.moves");
    std::fs::write(&record, "activate C7\n").expect("written");
    for out in [&scenario_path, &record] {
        let run = capped(&[
            "play",
            arg(&scenario_path),
            "--record",
            arg(&record),
            "--save",
            arg(out),
        ]);
        ends_with(&run, 1, "play --save over an input");
        assert!(
            run.stderr.contains("an input of this command"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(std::fs::read_to_string(&scenario_path).expect("read"), text);
    assert_eq!(
        std::fs::read_to_string(&record).expect("read"),
        "activate C7\n"
    );
}

#[test]
fn the_largest_skirmish_table_drawn_at_a_millimetre_is_scaled_to_fit_within_the_cap() {
    // A 6,000 x 6,000 mm table (the most R100's scenarios allow) asked at
    // 1 mm a character would be 36 million characters: the drawing is
    // coarsened to at most 250,000 and says so.
    let dir = temp_dir("big-skirmish");
    let text = std::fs::read_to_string(root().join("scenarios/frontiers/skirmish.ron"))
        .expect("the skirmish")
        .replace(
            "table: (width_mm: 1219, depth_mm: 610)",
            "table: (width_mm: 6000, depth_mm: 6000)",
        );
    assert!(text.contains("6000"));
    let path = dir.join("big.ron");
    std::fs::write(&path, &text).expect("written");
    let run = capped(&["show", arg(&path), "--cell-mm", "1"]);
    ends_with(&run, 0, "a big table shown");
    let head = run.stdout.lines().nth(2).unwrap_or("");
    assert!(
        head.contains("table 6000 x 6000 mm, 12 mm a character (not 1: a drawing holds at most 250000 characters, so it is scaled to fit)"),
        "{head}"
    );
    let rows = run.stdout.lines().filter(|l| l.starts_with('|')).count();
    assert_eq!(rows, 6000usize.div_ceil(12));
    assert!(run.stdout.len() < 400_000, "{} bytes", run.stdout.len());
    let _ = std::fs::remove_dir_all(&dir);
}
