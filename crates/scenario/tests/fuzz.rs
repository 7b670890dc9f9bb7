//! Fuzz targets for scenario files, on the stable toolchain: mutated
//! shipped scenarios and generated ones, hostile values among them (huge
//! areas, too many pieces, names with quotes and terminal escapes). Every
//! text is loaded or refused with its problems, without a panic, and every
//! scenario the layout editor can write (`Scenario::to_ron`) loads back to
//! the same scenario.
//!
//! A short run is part of `cargo test`. A long run, with the number of
//! inputs a target in `SANDTABLE_FUZZ_CASES`:
//!
//! ```text
//! SANDTABLE_FUZZ_CASES=20000 cargo test --release -p sandtable-scenario --test fuzz
//! ```

use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use sandtable_cache::{
    Board, Facing, FactorSetup, PlayerSetup, Setup, Square, StashList, StashRow, TerrainKind,
    TerrainPiece, UnitSetup,
};
use sandtable_scenario::{
    Colour, ModelChoice, ModelPiece, ModelTerrain, Physical, RuleSystem, Scenario,
};

fn cases(short: u32) -> u32 {
    std::env::var("SANDTABLE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(short)
}

fn config(short: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(short),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A runner whose draws are the same on every run: the share of valid
/// setups that the round-trip tests require is then a property of the
/// generator, not of the run's luck (it sits a few percent above each
/// bar, within a few standard deviations at 256 cases).
fn seeded_runner(short: u32) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    TestRunner::new_with_rng(
        config(short),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

fn shipped() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut texts: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .expect("scenarios/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .filter(|p| !p.ends_with("stress-100x100.ron"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (p, text)
        })
        .collect();
    texts.sort();
    texts.into_iter().map(|(_, t)| t).collect()
}

/// Pieces worth splicing into a scenario: RON syntax, the limits of every
/// number and name, huge areas, and text a terminal would obey.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "//",
    "/*",
    "*/",
    "Some(",
    "None",
    "true",
    "0",
    "1",
    "-1",
    "702",
    "703",
    "65535",
    "65536",
    "4294967295",
    "18446744073709551615",
    "1e308",
    "NaN",
    "inf",
    "\"A1\"",
    "\"ZZ702\"",
    "\"ZZ703\"",
    "\"AAAA1\"",
    "area: (\"A1\", \"ZZ702\")",
    "(kind: Woods, area: (\"A1\", \"ZZ702\")),",
    "(kind: Water, squares: [\"A1\", \"A1\"]),",
    "stashes: [\"B2\"],",
    "stash_list: \"../../etc/passwd\",",
    "stash_list: \"/dev/zero\",",
    "turn_limit: 4294967295,",
    "first_player: 4000000000,",
    "seed: 18446744073709551615,",
    "physical: (square_mm: 0.001, table_mm: (1e7, 1e7)),",
    "\u{1b}[31m",
    "\u{0}",
    "é",
    "♞",
    "Building(entrance: \"B2\")",
    "Bridge(elevated: true)",
    "LowWall",
    "SnyderSkirmish",
    "ConflictAtCache",
    "(at: \"C3\", facing: N),",
    "colour: \"#zzzzzz\",",
    // Names the name rules refuse.
    "(at: \"C3\", facing: N, name: \"UUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUU\"),",
    "name: \"Red\\nok\",",
    "name: \"R\u{202e}ed\",",
];

#[derive(Debug, Clone)]
enum Edit {
    Insert(f64, usize),
    Delete(f64, usize),
    Repeat(f64, usize, usize),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        3 => (0.0..1.0f64, 0..TOKENS.len()).prop_map(|(at, t)| Edit::Insert(at, t)),
        2 => (0.0..1.0f64, 1usize..20).prop_map(|(at, n)| Edit::Delete(at, n)),
        1 => (0.0..1.0f64, 1usize..80, 1usize..40).prop_map(|(at, n, k)| Edit::Repeat(at, n, k)),
    ];
    prop::collection::vec(edit, 1..6)
}

fn boundary(s: &str, at: f64) -> usize {
    let mut i = ((s.len() as f64) * at) as usize;
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn end_of(s: &str, from: usize, n: usize) -> usize {
    let mut j = (from + n).min(s.len());
    while !s.is_char_boundary(j) {
        j += 1;
    }
    j
}

fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut s = text.to_owned();
    for e in edits {
        match *e {
            Edit::Insert(at, t) => {
                let i = boundary(&s, at);
                s.insert_str(i, TOKENS[t]);
            }
            Edit::Delete(at, n) => {
                let i = boundary(&s, at);
                let j = end_of(&s, i, n);
                s.replace_range(i..j, "");
            }
            Edit::Repeat(at, n, k) => {
                let i = boundary(&s, at);
                let j = end_of(&s, i, n);
                let piece = s[i..j].repeat(k);
                s.insert_str(j, &piece);
            }
        }
    }
    s
}

/// The same scenario, field by field (a loaded scenario also carries its
/// warnings, which a written one does not).
fn assert_same(a: &Scenario, b: &Scenario) -> Result<(), TestCaseError> {
    prop_assert_eq!(&a.name, &b.name);
    prop_assert_eq!(a.rules, b.rules);
    prop_assert_eq!(&a.setup, &b.setup);
    prop_assert_eq!(&a.colours, &b.colours);
    prop_assert_eq!(a.physical, b.physical);
    prop_assert_eq!(&a.models, &b.models);
    Ok(())
}

/// The slowest input seen by a target, printed at the end of a long run.
fn note_time(target: &str, started: Instant, slowest: &std::sync::Mutex<Duration>) {
    let took = started.elapsed();
    let mut s = slowest.lock().expect("no panics hold this lock");
    if took > *s {
        *s = took;
        if cases(0) > 0 {
            eprintln!("{target}: slowest input so far {took:?}");
        }
    }
}

static SLOWEST_MUTATED: std::sync::Mutex<Duration> = std::sync::Mutex::new(Duration::ZERO);
static SLOWEST_GENERATED: std::sync::Mutex<Duration> = std::sync::Mutex::new(Duration::ZERO);

/// Names with everything a writer must escape. Names the name rules refuse
/// (past 200 characters, a control character, a bidirectional override)
/// come in through the mutations' tokens instead, so that the share of
/// valid setups stays as it was.
fn names() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[A-Za-z][A-Za-z ]{0,12}",
        2 => any::<String>().prop_map(|s| s
            .chars()
            .filter(|c| !sandtable_core::text::is_hidden(*c))
            .take(24)
            .collect()),
        1 => Just("say \"hi\" \\ // not a comment, {é}".to_owned()),
    ]
}

/// Whether every name follows the name rules, as the loader checks them.
fn names_plain<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    names
        .into_iter()
        .all(|n| sandtable_core::text::name_problem(n).is_none())
}

fn square_in(board: Board) -> impl Strategy<Value = Square> {
    (0..board.columns, 0..board.rows).prop_map(|(c, r)| Square::new(c, r))
}

fn facing() -> impl Strategy<Value = Facing> {
    prop::sample::select(Facing::ALL.to_vec())
}

fn terrain_kind(board: Board) -> impl Strategy<Value = TerrainKind> {
    prop_oneof![
        Just(TerrainKind::LowWall),
        Just(TerrainKind::HighWall),
        Just(TerrainKind::Mountain),
        Just(TerrainKind::Woods),
        Just(TerrainKind::Water),
        Just(TerrainKind::Road),
        any::<bool>().prop_map(|elevated| TerrainKind::Bridge { elevated }),
        square_in(board).prop_map(|entrance| TerrainKind::Building { entrance }),
    ]
}

/// A scenario as the layout editor may hold it: any names, pieces anywhere
/// on the board (valid or not), any table, seed and stash list.
fn scenarios() -> impl Strategy<Value = Scenario> {
    (5u16..=40, 5u16..=30).prop_flat_map(|(columns, rows)| {
        let board = Board { columns, rows };
        // Units round their base, and bases off the edge, as a person lays
        // them: most setups are valid, so that the round trip is tried.
        let offsets = prop::collection::vec(
            ((-2i32..=2, -2i32..=2), facing(), prop::option::of(names())),
            0..6,
        );
        let factor =
            ((1..columns - 1), (1..rows - 1), offsets).prop_map(move |(col, row, offsets)| {
                let base = Square::new(col, row);
                let mut units: Vec<UnitSetup> = Vec::new();
                for ((dc, dr), facing, name) in offsets {
                    let c = (i32::from(col) + dc).clamp(0, i32::from(columns) - 1) as u16;
                    let r = (i32::from(row) + dr).clamp(0, i32::from(rows) - 1) as u16;
                    let at = Square::new(c, r);
                    if at != base && units.iter().all(|u| u.at != at) {
                        units.push(UnitSetup { at, facing, name });
                    }
                }
                FactorSetup { base, units }
            });
        let player = (names(), prop::collection::vec(factor, 1..2))
            .prop_map(|(name, factors)| PlayerSetup { name, factors });
        let piece = (
            terrain_kind(board),
            prop::collection::vec(square_in(board), 1..6),
            square_in(board),
            square_in(board),
            any::<bool>(),
        )
            .prop_map(|(kind, squares, a, b, rect)| {
                let squares = if rect {
                    let mut all = Vec::new();
                    for row in a.row.min(b.row)..=a.row.max(b.row) {
                        for col in a.col.min(b.col)..=a.col.max(b.col) {
                            all.push(Square::new(col, row));
                        }
                    }
                    all
                } else {
                    squares
                };
                TerrainPiece { kind, squares }
            });
        let physical = prop::option::of((1.0f64..60.0, 0.5f64..3.0, 0.5f64..3.0, 5.0f64..60.0))
            .prop_map(move |p| {
                p.map(|(square_mm, w, d, figure_scale_mm)| Physical {
                    square_mm,
                    table_mm: (
                        f64::from(columns) * square_mm * w.max(1.0),
                        f64::from(rows) * square_mm * d.max(1.0),
                    ),
                    figure_scale_mm,
                })
            });
        let stash_list = prop::collection::vec(0u8..6, 36).prop_map(|kinds| {
            let rows: Vec<StashRow> = kinds
                .iter()
                .enumerate()
                .map(|(k, kind)| StashRow {
                    roll: ((k / 6 + 1) * 10 + k % 6 + 1) as u8,
                    result: match kind {
                        0 => sandtable_cache::StashResult::PlaceAnywhere,
                        1 => sandtable_cache::StashResult::ExtraActions(3 + kind % 3),
                        2 => sandtable_cache::StashResult::ReturnUnfriendly,
                        3 => sandtable_cache::StashResult::ReturnCapturedFriend,
                        4 => sandtable_cache::StashResult::ReturnThisUnit,
                        _ => sandtable_cache::StashResult::Nothing,
                    },
                })
                .collect();
            StashList::from_rows(&rows).expect("all 36 rolls")
        });
        // Model entries, one for each kind of piece at most, so that none
        // repeats another: (kind, for player 0, file, scale, unit name).
        let models = prop::collection::btree_map(
            0u8..6,
            (
                any::<bool>(),
                "[a-z0-9 _-]{1,8}(/[a-zA-Z0-9 _-]{1,8}){0,2}\\.(glb|gltf)",
                0.001f64..10_000.0,
                names(),
            ),
            0..4,
        );
        (
            names(),
            any::<bool>(),
            prop::collection::vec(player, 2..4),
            prop::collection::vec(piece, 0..3),
            prop::collection::vec(square_in(board), 0..4),
            stash_list,
            (
                prop::option::of(0usize..3),
                any::<u64>(),
                prop::option::of(1u32..=10_000),
            ),
            (physical, models),
        )
            .prop_map(
                move |(
                    name,
                    snyder,
                    players,
                    terrain,
                    stashes,
                    stash_list,
                    (first, seed, limit),
                    (physical, models),
                )| {
                    let models = models
                        .into_iter()
                        .map(|(kind, (own, file, unit_mm, unit))| {
                            let piece = match kind {
                                0 => ModelPiece::Units,
                                1 => ModelPiece::Factor(1 + u16::from(own)),
                                2 => ModelPiece::Unit(unit),
                                3 => ModelPiece::Base,
                                4 => ModelPiece::Stash,
                                _ => ModelPiece::Terrain(ModelTerrain::ALL[file.len() % 11]),
                            };
                            let owned = kind < 4;
                            ModelChoice {
                                piece,
                                player: (own && owned).then(|| players[0].name.clone()),
                                file,
                                unit_mm,
                            }
                        })
                        .collect();
                    let colours = (0..players.len())
                        .map(|p| Colour([p as u8 * 60, 90, 200 - p as u8 * 50]))
                        .collect();
                    let (rules, stashes, stash_list) = if snyder {
                        (RuleSystem::SnyderSkirmish, stashes, stash_list)
                    } else {
                        (
                            RuleSystem::ConflictAtCache,
                            Vec::new(),
                            StashList::seed_default(),
                        )
                    };
                    Scenario {
                        name,
                        rules,
                        setup: Setup {
                            board,
                            players,
                            terrain,
                            first_player: first,
                            seed,
                            turn_limit: limit,
                            stashes,
                            stash_list,
                        },
                        colours,
                        physical,
                        warnings: Vec::new(),
                        models,
                    }
                },
            )
    })
}

proptest! {
    #![proptest_config(config(256))]

    /// Mutated shipped scenarios load or are refused with located problems;
    /// one that loads writes and loads back the same.
    #[test]
    fn mutated_scenarios_load_or_are_refused_with_their_problems(
        which in 0usize..6,
        edits in edits(),
    ) {
        let corpus = shipped();
        let text = mutate(&corpus[which % corpus.len()], &edits);
        let started = Instant::now();
        match sandtable_scenario::parse(&text, "fuzz.ron") {
            Ok(scenario) => {
                let again = sandtable_scenario::parse(&scenario.to_ron(), "written")
                    .expect("a scenario that loaded writes one that loads");
                assert_same(&again, &scenario)?;
            }
            Err(e) => {
                prop_assert!(!e.problems.is_empty(), "a refusal says why");
                prop_assert!(e.problems.len() <= sandtable_scenario::MAX_PROBLEMS_LISTED);
            }
        }
        note_time("mutated scenarios", started, &SLOWEST_MUTATED);
    }
}

/// Whatever the layout editor holds: written, it loads back to the same
/// scenario exactly when the rulings accept it. Most generated setups are
/// valid, so that the round trip itself is what is tried.
#[test]
fn every_scenario_the_editor_writes_loads_back_the_same() {
    let mut runner = seeded_runner(256);
    let valid = std::sync::atomic::AtomicU32::new(0);
    let result = runner.run(&scenarios(), |scenario| {
        let started = Instant::now();
        let text = scenario.to_ron();
        let names = std::iter::once(scenario.name.as_str())
            .chain(scenario.setup.players.iter().map(|p| p.name.as_str()))
            .chain(
                scenario
                    .setup
                    .players
                    .iter()
                    .flat_map(|p| &p.factors)
                    .flat_map(|f| &f.units)
                    .filter_map(|u| u.name.as_deref()),
            );
        let is_valid = scenario.setup.validate().is_ok() && names_plain(names);
        match sandtable_scenario::parse(&text, "written") {
            Ok(back) => {
                prop_assert!(is_valid, "only a valid setup loads");
                valid.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                assert_same(&back, &scenario)?;
            }
            Err(e) => prop_assert!(!is_valid, "a valid setup is refused: {e}\n{text}"),
        }
        note_time("generated scenarios", started, &SLOWEST_GENERATED);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let valid = valid.into_inner();
    assert!(
        valid * 4 >= cases(256),
        "a quarter of the generated scenarios are valid, so the round trip is tried: {valid}"
    );
}

// ---------------------------------------------------------------- battles

fn shipped_battles() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/warpspawn/")
        .map(|e| e.expect("entry").path())
        // The stress map is large and says nothing the others do not.
        .filter(|p| !p.ends_with("stress-60x40.ron"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect()
}

/// Pieces worth splicing into a battle, as [`TOKENS`] for the squares.
const BATTLE_TOKENS: &[&str] = &[
    "\"A1:CV100\"",
    "\"A1:ZZ702\"",
    "\"P12\"",
    "\"Q13\"",
    "(kind: Fort, hexes: [\"C2\"]),",
    "(kind: River, hexes: [\"A1:P12\"]),",
    "(at: \"C2\", side: \"Red\", infantry: 65535),",
    "(at: \"C2\", side: \"Blue\", cavalry: 1),",
    "(at: \"D2\", side: \"Red\", cannon: true),",
    "house_rules: (cannon_range: 0),",
    "house_rules: (melee_rows: []),",
    "first_player: \"Nobody\",",
    "turns: 4294967295,",
    "physical: (hex_mm: 1e-300, table_mm: (1e300, 1e300)),",
    "home: E",
    "points: 4294967295",
    "Warpspawn",
    // Nesting past the reader's limit, a name past its limit, and names
    // that would forge or turn a line.
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "(name: \"NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN\", home: N, deployment: [\"A10\"]),",
    "name: \"x\\nfuzz.ron: ok\",",
    "(name: \"Bl\u{202e}ue\", home: N, deployment: [\"A10\"]),",
];

fn battle_mutate(text: &str, edits: &[Edit], extra: &[usize]) -> String {
    let mut s = mutate(text, edits);
    for (k, t) in extra.iter().enumerate() {
        let at = boundary(&s, (k as f64 * 0.37 + 0.11) % 1.0);
        s.insert_str(at, BATTLE_TOKENS[t % BATTLE_TOKENS.len()]);
    }
    s
}

static SLOWEST_BATTLE: std::sync::Mutex<Duration> = std::sync::Mutex::new(Duration::ZERO);

proptest! {
    #![proptest_config(config(256))]

    /// Mutated shipped battles load or are refused with located problems,
    /// never a panic; one that loads writes and loads back the same, and
    /// starts a game.
    #[test]
    fn mutated_battles_load_or_are_refused_with_their_problems(
        which in 0usize..3,
        edits in edits(),
        extra in prop::collection::vec(0usize..64, 0..3),
    ) {
        let corpus = shipped_battles();
        let text = battle_mutate(&corpus[which % corpus.len()], &edits, &extra);
        let started = Instant::now();
        match sandtable_scenario::parse_any_in(&text, "fuzz.ron", None) {
            Ok(sandtable_scenario::Loaded::Warpspawn(battle)) => {
                let again = sandtable_scenario::battle::parse(&battle.to_ron(), "written")
                    .expect("a battle that loaded writes one that loads");
                prop_assert_eq!(&again.setup, &battle.setup);
                prop_assert_eq!(&again.name, &battle.name);
                prop_assert_eq!(&again.colours, &battle.colours);
                prop_assert_eq!(again.physical, battle.physical);
                prop_assert!(sandtable_warpspawn::Game::new(
                    &battle.setup,
                    sandtable_core::dice::Dice::seeded(1)
                ).is_ok());
            }
            Ok(_) => {}
            Err(e) => {
                prop_assert!(!e.problems.is_empty(), "a refusal says why");
                prop_assert!(e.problems.len() <= sandtable_scenario::MAX_PROBLEMS_LISTED);
                // A battle is told about a battle's format, never asked for
                // Cache's `board` (the word is said only where the reader
                // quotes the file's own: a cut `offboard`), and
                // nothing in the report forges or turns a line: one line a
                // problem.
                let said = e.to_string();
                if sandtable_scenario::probe_rules(&text)
                    == Some(sandtable_scenario::RuleSystem::Warpspawn)
                {
                    prop_assert_eq!(
                        said.matches("`board`").count(),
                        quoted_board(&said),
                        "{}",
                        said
                    );
                }
                prop_assert!(
                    !said.chars().any(|c| c != '\n' && sandtable_core::text::is_hidden(c)),
                    "{}",
                    said
                );
                prop_assert!(
                    said.lines().count() <= e.problems.len() + 1,
                    "one line a problem: {}",
                    said
                );
                prop_assert!(
                    said.len() <= text.len() + 200 * e.problems.len() + 1000,
                    "the report is bounded by the file: {} bytes",
                    said.len()
                );
            }
        }
        note_time("mutated battles", started, &SLOWEST_BATTLE);
    }
}

/// Battles as an editor may hold them: any names, pieces anywhere (valid or
/// not), any switches. Written, each loads back to the same battle exactly
/// when the rulings accept it.
fn battles() -> impl Strategy<Value = sandtable_scenario::battle::Battle> {
    use sandtable_warpspawn::{
        Edge, EvenRow, HalfRound, Hex, Map, MeleeResult, PiecesSetup, RallyLow, Setup, SideSetup,
        Switches, Terrain,
    };
    (3u8..=20, 3u8..=16).prop_flat_map(|(columns, rows)| {
        let hex = move || (0..columns, 0..rows).prop_map(|(c, r)| Hex::new(c, r));
        let kind = prop::sample::select(Terrain::ALL.to_vec());
        let edge = prop::sample::select(vec![Edge::N, Edge::E, Edge::S, Edge::W]);
        let result = prop::sample::select(vec![
            MeleeResult::V,
            MeleeResult::H,
            MeleeResult::L,
            MeleeResult::B,
            MeleeResult::A,
            MeleeResult::D,
        ]);
        // Half the sides deploy anywhere, so that many battles are valid.
        let side = move || {
            (
                names(),
                edge.clone(),
                prop::option::of(prop::collection::vec(hex(), 1..12)),
                0u32..=200,
            )
        };
        let piece = (
            hex(),
            0usize..2,
            0u16..=14,
            0u16..=6,
            0u16..=2,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        );
        (
            names(),
            prop::collection::vec((hex(), kind), 0..20),
            (side(), side()),
            prop::collection::vec(piece, 0..10),
            (1u32..=12, any::<u64>(), prop::option::of(0usize..2)),
            (
                1u8..=6,
                prop::option::of(prop::collection::vec(result, 30)),
                any::<bool>(),
                any::<bool>(),
                any::<bool>(),
                any::<bool>(),
            ),
            prop::option::of((20.0f64..60.0, 0.5f64..3.0)),
        )
            .prop_map(
                move |(name, terrain, (a, b), pieces, (turns, seed, first), switches, physical)| {
                    let map = Map {
                        columns: u16::from(columns),
                        rows: u16::from(rows),
                    };
                    let mut terrain: Vec<(Hex, Terrain)> = terrain;
                    terrain.sort();
                    terrain.dedup_by_key(|(h, _)| *h);
                    let side = |(name, home, deployment, points): (
                        String,
                        Edge,
                        Option<Vec<Hex>>,
                        u32,
                    )| {
                        let mut deployment = deployment.unwrap_or_else(|| map.hexes().collect());
                        deployment.sort();
                        deployment.dedup();
                        SideSetup {
                            name,
                            home,
                            deployment,
                            points,
                        }
                    };
                    let (cannon_range, rows_table, even, half, low, flag) = switches;
                    let mut sw = Switches {
                        cannon_range,
                        even_row: if even {
                            EvenRow::Refused
                        } else {
                            EvenRow::Reconstructed
                        },
                        half_round: if half { HalfRound::Up } else { HalfRound::Down },
                        rally_low: if low { RallyLow::Flee } else { RallyLow::Rally },
                        capture_the_flag: flag,
                        ..Switches::default()
                    };
                    if let Some(cells) = rows_table {
                        for (i, c) in cells.iter().enumerate() {
                            sw.melee_rows.0[i / 6][i % 6] = *c;
                        }
                    }
                    let setup = Setup {
                        map,
                        terrain,
                        sides: vec![side(a), side(b)],
                        pieces: pieces
                            .into_iter()
                            .map(
                                |(at, side, infantry, cavalry, officers, cannon, baggage, flag)| {
                                    PiecesSetup {
                                        at,
                                        side,
                                        infantry,
                                        cavalry,
                                        officers,
                                        cannon,
                                        baggage,
                                        flag,
                                    }
                                },
                            )
                            .collect(),
                        turns,
                        seed,
                        first_player: first,
                        switches: sw,
                        offboard: None,
                    };
                    let physical = physical.map(|(hex_mm, margin)| {
                        let mut p = sandtable_scenario::battle::HexPhysical {
                            hex_mm,
                            table_mm: (0.0, 0.0),
                            figure_scale_mm: 15.0,
                        };
                        let (w, d) = p.map_mm(map);
                        p.table_mm = (w * margin, d * margin);
                        p
                    });
                    sandtable_scenario::battle::Battle {
                        name,
                        setup,
                        colours: vec![Colour([1, 2, 3]), Colour([200, 100, 0])],
                        physical,
                        warnings: Vec::new(),
                    }
                },
            )
    })
}

#[test]
fn every_battle_written_loads_back_the_same_when_the_rulings_accept_it() {
    let mut runner = seeded_runner(256);
    let valid = std::sync::atomic::AtomicU32::new(0);
    let result = runner.run(&battles(), |battle| {
        let text = battle.to_ron();
        let fits = battle.physical.is_none_or(|p| {
            let (w, d) = p.map_mm(battle.setup.map);
            w <= p.table_mm.0 && d <= p.table_mm.1
        });
        let names_differ = battle.setup.sides[0].name != battle.setup.sides[1].name;
        let names = std::iter::once(battle.name.as_str())
            .chain(battle.setup.sides.iter().map(|s| s.name.as_str()));
        let is_valid = sandtable_warpspawn::validate(&battle.setup).is_ok()
            && fits
            && names_differ
            && names_plain(names);
        match sandtable_scenario::battle::parse(&text, "written") {
            Ok(back) => {
                prop_assert!(is_valid, "only a valid battle loads:\n{text}");
                valid.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                prop_assert_eq!(&back.setup, &battle.setup);
                prop_assert_eq!(&back.name, &battle.name);
                prop_assert_eq!(back.physical, battle.physical);
            }
            Err(e) => prop_assert!(!is_valid, "a valid battle is refused: {e}\n{text}"),
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let valid = valid.into_inner();
    assert!(
        valid * 10 >= cases(256),
        "a tenth of the generated battles are valid, so the round trip is tried: {valid}"
    );
}

#[test]
fn a_battle_whose_offboard_is_cut_to_board_is_told_what_was_found() {
    // Found by the fuzz on the flank march: a battle's error may quote the
    // word `board` from its own text, never ask for Cache's `board`.
    let corpus = shipped_battles();
    let flank = corpus
        .iter()
        .find(|t| t.contains("offboard:"))
        .expect("the flank march");
    let text = battle_mutate(
        flank,
        &[
            Edit::Repeat(0.6490560710441823, 6, 1),
            Edit::Repeat(0.0, 42, 28),
            Edit::Repeat(0.0, 5, 14),
        ],
        &[],
    );
    let said = sandtable_scenario::parse_any_in(&text, "fuzz.ron", None)
        .expect_err("refused")
        .to_string();
    assert!(said.contains("found `board`"), "{said}");
    assert_eq!(
        said.matches("`board`").count(),
        quoted_board(&said),
        "{said}"
    );
}

/// How often a report quotes the word `board` from the file itself: as
/// the token found, or the field named, where it was not expected.
fn quoted_board(said: &str) -> usize {
    said.matches("found `board`").count() + said.matches("field named `board`").count()
}

// ---------------------------------------------------------------- skirmishes

fn shipped_skirmishes() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/frontiers");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/frontiers/")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect()
}

/// The shipped skirmish at the relay, whose fields the tests below edit.
fn relay_skirmish() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/frontiers/skirmish.ron");
    std::fs::read_to_string(path).expect("readable")
}

/// Pieces worth splicing into a skirmish: points off every table, units
/// on each other, unknown ids, huge numbers, names that would forge a line.
const SKIRMISH_TOKENS: &[&str] = &[
    "(2147483647, -2147483648)",
    "(0, 0)",
    "(610, 300)",
    "(id: \"T1\", data: \"lg_trooper\", side: \"Legion\", at: (480, 150)),",
    "(id: \"X9\", data: \"zr_vega\", side: \"Zirl\", at: (600, 300), facing: 45),",
    "(data: \"lg_nobody\", side: \"Legion\", at: (100, 100)),",
    "(data: \"lg_trooper\", side: \"Nobody\", at: (100, 100)),",
    "(kind: Hill, corners: [(0, 0), (10, 10), (10, 0), (0, 10)]),",
    "(name: \"Hut\", corners: [(0, 0), (5, 0)], defense: 255, steps: 0),",
    "switches: (lns_mm: 65535, contact_mm: 65535, drop: placed),",
    "table: (width_mm: 0, depth_mm: 65535),",
    "turns: 4294967295,",
    "facing: -32768",
    "spaces: [(0, 0), (590, 290)],",
    "links: [(0, 1), (1, 9)],",
    "doors: [(from: (0, 0), to: (1, 1), behind: [0, 255])],",
    "windows: [(from: (560, 280), to: (560, 300), behind: [])],",
    "falls_with: [\"RH\", \"NOPE\"],",
    "id: \"RH\",",
    "teleprinter: \"RH.0\",",
    "teleprinter: \"RH.256\",",
    "teleprinter: \"RH.-1\",",
    "teleprinter: \"E9.1\",",
    "victory: DataRecovery,",
    "victory: AttackDefense,",
    "victory: Cameron,",
    "attacker: \"Nobody\",",
    "diskette: (-5000, 70000),",
    "links: [(0, 0), (255, 1)],",
    "doors: [(from: (575, 260), to: (605, 260), behind: [0])],",
    "falls_with: [\"\"],",
    "deck: [\"aim\", \"nothing\"],",
    "gear: \"trap\",",
    "gear: \"\",",
    "ap: 0,",
    "objectives: [(0, 0), (99999, 5)],",
    "Frontiers",
    "Zirl",
    "name: \"x\\nfuzz.ron: ok\",",
    "(name: \"Le\u{202e}gion\", faction: Legion),",
];

fn skirmish_mutate(text: &str, edits: &[Edit], extra: &[usize]) -> String {
    let mut s = mutate(text, edits);
    for (k, t) in extra.iter().enumerate() {
        let at = boundary(&s, (k as f64 * 0.37 + 0.11) % 1.0);
        s.insert_str(at, SKIRMISH_TOKENS[t % SKIRMISH_TOKENS.len()]);
    }
    s
}

static SLOWEST_SKIRMISH: std::sync::Mutex<Duration> = std::sync::Mutex::new(Duration::ZERO);

proptest! {
    #![proptest_config(config(256))]

    /// Mutated shipped skirmishes load or are refused with located
    /// problems, never a panic; one that loads writes and loads back the
    /// same, and starts a game.
    #[test]
    fn mutated_skirmishes_load_or_are_refused_with_their_problems(
        which in 0usize..3,
        edits in edits(),
        extra in prop::collection::vec(0usize..64, 0..3),
    ) {
        let corpus = shipped_skirmishes();
        let text = skirmish_mutate(&corpus[which % corpus.len()], &edits, &extra);
        let started = Instant::now();
        match sandtable_scenario::parse_any_in(&text, "fuzz.ron", None) {
            Ok(sandtable_scenario::Loaded::Frontiers(skirmish)) => {
                let again = sandtable_scenario::skirmish::parse(&skirmish.to_ron(), "written")
                    .expect("a skirmish that loaded writes one that loads");
                prop_assert_eq!(&again.setup, &skirmish.setup);
                prop_assert_eq!(&again.name, &skirmish.name);
                prop_assert!(sandtable_frontiers::Game::new(
                    &skirmish.setup,
                    sandtable_core::dice::Dice::seeded(1)
                ).is_ok());
            }
            Ok(_) => {}
            Err(e) => {
                prop_assert!(!e.problems.is_empty(), "a refusal says why");
                prop_assert!(e.problems.len() <= sandtable_scenario::MAX_PROBLEMS_LISTED);
                let said = e.to_string();
                prop_assert!(
                    !said.chars().any(|c| c != '\n' && sandtable_core::text::is_hidden(c)),
                    "{}",
                    said
                );
                prop_assert!(
                    said.lines().count() <= e.problems.len() + 1,
                    "one line a problem: {}",
                    said
                );
            }
        }
        note_time("mutated skirmishes", started, &SLOWEST_SKIRMISH);
    }
}

#[test]
fn a_skirmish_s_problems_name_their_fields_and_rulings() {
    let text = relay_skirmish();
    let bad = text
        .replace("at: (480, 150)", "at: (1210, 150)")
        .replace("data: \"zr_brute\"", "data: \"zr_nobody\"")
        .replace("at: (520, 150)", "at: (310, 100)")
        .replace(
            "side: \"Zirl\", at: (950, 520)",
            "side: \"Nobody\", at: (950, 520)",
        );
    let e = sandtable_scenario::parse_any_in(&bad, "bad.ron", None)
        .expect_err("refused")
        .to_string();
    assert!(e.contains("units[11].side"), "{e}");
    assert!(e.contains("\"Nobody\" names no side"), "{e}");
    let fixed_side = bad.replace("side: \"Nobody\"", "side: \"Zirl\"");
    let e = sandtable_scenario::parse_any_in(&fixed_side, "bad.ron", None)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("units[1].at: T1 at 1210,150 is not wholly on the table (R101)"),
        "{e}"
    );
    assert!(
        e.contains("units[2].at: T2 at 310,100 overlaps units[0] (CP) (R101)"),
        "{e}"
    );
    assert!(
        e.contains("units[10].data: no unit has the data id \"zr_nobody\""),
        "{e}"
    );
}

#[test]
fn every_index_like_field_out_of_range_is_refused_with_its_path() {
    // Each of these once panicked or could reach an index out of range;
    // each is refused with its field's path.
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios/frontiers/data-recovery.ron"),
    )
    .expect("readable");
    assert!(text.contains("teleprinter: \"RH.4\""));
    for (bad, said) in [
        (
            "teleprinter: \"RH.0\"",
            "teleprinter: \"RH.0\" is no building's space",
        ),
        (
            "teleprinter: \"RH.5\"",
            "teleprinter: \"RH.5\" is no building's space",
        ),
        (
            "teleprinter: \"RH.999\"",
            "teleprinter: \"RH.999\" is no building's space",
        ),
        (
            "teleprinter: \"XX.1\"",
            "teleprinter: \"XX.1\" is no building's space",
        ),
        (
            "teleprinter: \"RH\"",
            "teleprinter: \"RH\" is no building's space",
        ),
    ] {
        let e = sandtable_scenario::parse_any_in(
            &text.replace("teleprinter: \"RH.4\"", bad),
            "dr.ron",
            None,
        )
        .expect_err(bad)
        .to_string();
        assert!(e.contains(said), "{bad}: {e}");
        assert!(e.contains("(R147)"), "{e}");
    }
    // A space numbered 0 behind a door or in a link: numbered from 1.
    let relay = relay_skirmish();
    let zero = relay.replacen("behind: [1]", "behind: [0]", 1);
    assert_ne!(zero, relay, "the relay's hut has a door");
    let e = sandtable_scenario::parse_any_in(&zero, "z.ron", None)
        .expect_err("space 0")
        .to_string();
    assert!(e.contains(".behind[0]: spaces are numbered from 1"), "{e}");
    let far = relay.replacen("behind: [1]", "behind: [200]", 1);
    let e = sandtable_scenario::parse_any_in(&far, "z.ron", None)
        .expect_err("space 200")
        .to_string();
    assert!(
        e.contains(".behind: an opening has one or more of the element's"),
        "{e}"
    );
}

#[test]
fn an_allotted_crate_is_read_by_its_content_s_id_and_written_back() {
    let text = relay_skirmish();
    let allotted = text.replace(
        "data: \"zr_brute\"",
        "data: \"zr_brute\", gear: \"jump_jet\"",
    );
    assert_ne!(allotted, text, "the relay skirmish has a brute");
    let loaded = sandtable_scenario::skirmish::parse(&allotted, "gear.ron")
        .unwrap_or_else(|e| panic!("{e}"));
    let again = loaded.to_ron();
    assert!(again.contains("gear: \"jump_jet\""), "{again}");
    let back =
        sandtable_scenario::skirmish::parse(&again, "written").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.setup, loaded.setup);
    let bad = text.replace(
        "data: \"zr_brute\"",
        "data: \"zr_brute\", gear: \"jet_pack\"",
    );
    let e = sandtable_scenario::parse_any_in(&bad, "bad.ron", None)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("units[10].gear: \"jet_pack\" is no crate's content; the ten are anti_tank,"),
        "{e}"
    );
    assert!(e.contains("(R144)"), "{e}");
}

#[test]
fn a_building_s_problems_name_its_doors_windows_and_spaces() {
    let text = relay_skirmish();
    let bad = text
        .replace(
            "(from: (575, 260), to: (605, 260), behind: [1])",
            "(from: (575, 250), to: (605, 250), behind: [1])",
        )
        .replace(
            "(from: (680, 315), to: (680, 335), behind: [4])",
            "(from: (680, 315), to: (680, 335), behind: [5])",
        )
        .replace("links: [(1, 2),", "links: [(1, 0),")
        .replace("(590, 290), (650, 290)", "(590, 290), (750, 290)");
    let e = sandtable_scenario::parse_any_in(&bad, "bad.ron", None)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("buildings[0].links[0]: spaces are numbered from 1"),
        "{e}"
    );
    let bad = bad.replace("links: [(1, 0),", "links: [(1, 2),");
    let e = sandtable_scenario::parse_any_in(&bad, "bad.ron", None)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("buildings[0].spaces[1]: the space at 750,290 is not wholly inside the element Relay hut: a space holds a 30 mm base (R117)"),
        "{e}"
    );
    assert!(
        e.contains("buildings[0].doors[0]: the door from 575,250 to 605,250 is not on the outline of Relay hut (R117)"),
        "{e}"
    );
    assert!(
        e.contains("buildings[0].windows[1].behind: an opening has one or more"),
        "{e}"
    );
}

#[test]
fn a_side_s_deck_is_25_cards_within_their_limits_and_deck_order_needs_one() {
    let text = relay_skirmish();
    let deck = |cards: &[&str]| {
        let ids: Vec<String> = cards.iter().map(|c| format!("{c:?}")).collect();
        format!("deck: [{}]", ids.join(", "))
    };
    let bad = text
        .replace(
            "(name: \"Legion\", faction: Legion)",
            &format!("(name: \"Legion\", faction: Legion, {})", deck(&["aim"; 6])),
        )
        .replace(
            "(name: \"Zirl\", faction: Zirl)",
            "(name: \"Zirl\", faction: Zirl, deck_order: true)",
        );
    let e = sandtable_scenario::parse_any_in(&bad, "bad.ron", None)
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("sides[0].deck: 6 aim cards: a deck holds at most 5 (R104)"),
        "{e}"
    );
    assert!(
        e.contains("sides[1].deck_order: deck_order plays a deck in the order given: it needs the side's deck (R104)"),
        "{e}"
    );
    // A deck of 25 in order loads, and is written back as given.
    let mut good: Vec<&str> = Vec::new();
    for (card, n) in [
        ("reinforce", 4),
        ("aim", 5),
        ("jam", 3),
        ("sprint", 4),
        ("rally", 3),
        ("cover", 3),
        ("resupply", 3),
    ] {
        good.extend(std::iter::repeat_n(card, n));
    }
    let ok = text.replace(
        "(name: \"Zirl\", faction: Zirl)",
        &format!(
            "(name: \"Zirl\", faction: Zirl, {}, deck_order: true)",
            deck(&good)
        ),
    );
    let loaded = sandtable_scenario::parse_any_in(&ok, "ok.ron", None).expect("a deck of 25");
    let sandtable_scenario::Loaded::Frontiers(s) = loaded else {
        panic!("a skirmish");
    };
    assert_eq!(s.setup.sides[1].deck.as_ref().map(Vec::len), Some(25));
    assert!(s.setup.sides[1].deck_order);
    let again =
        sandtable_scenario::parse_any_in(&s.to_ron(), "again.ron", None).expect("reads back");
    let sandtable_scenario::Loaded::Frontiers(again) = again else {
        panic!("a skirmish");
    };
    assert_eq!(again.setup, s.setup);
}

#[test]
fn every_shipped_skirmish_is_written_back_as_it_was_read() {
    for text in shipped_skirmishes() {
        let loaded = sandtable_scenario::parse_any_in(&text, "shipped.ron", None).expect("valid");
        let sandtable_scenario::Loaded::Frontiers(s) = loaded else {
            panic!("a skirmish");
        };
        let again =
            sandtable_scenario::parse_any_in(&s.to_ron(), "again.ron", None).expect("reads back");
        let sandtable_scenario::Loaded::Frontiers(again) = again else {
            panic!("a skirmish");
        };
        assert_eq!(again.setup, s.setup, "{}", s.name);
    }
}
