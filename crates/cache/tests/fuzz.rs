//! Fuzz targets for the rules crate's parsers, on the stable toolchain: game
//! records and the move notation, square and facing names, and stash lists.
//! Inputs are made by proptest, from nothing and by mutating real records,
//! and every parser must answer without panicking; every printer must give
//! text that its parser reads back to the same value.
//!
//! A short run is part of `cargo test`. A long run, with the number of
//! inputs a target in `SANDTABLE_FUZZ_CASES`:
//!
//! ```text
//! SANDTABLE_FUZZ_CASES=100000 cargo test --release -p sandtable-cache --test fuzz
//! ```

use proptest::prelude::*;
use sandtable_cache::{Command, Facing, Record, Square, StashList, StashResult, StashRow};

/// Inputs a target: `SANDTABLE_FUZZ_CASES`, else a short run.
fn cases() -> u32 {
    std::env::var("SANDTABLE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A real record to mutate: headers, comments and every kind of command.
const SEED_RECORD: &str = "[Scenario \"../scenarios/standard.ron\"]\n[ScenarioHash \"2ac4c86e996af877\"]\n[Seed \"42\"]\n[TurnLimit \"200\"]\n# opening\nactivate C7\nleft\nright\nadvance\nadvance F7  # a run\nend\npass\npick C7\nplace D5 N\n";

/// Pieces worth splicing into notation: words, squares at and past the
/// board's limits, numbers at the limits of their types, quotes, escapes
/// and control characters.
const TOKENS: &[&str] = &[
    "activate",
    "advance",
    "place",
    "pick",
    "pass",
    "end",
    "left",
    "right",
    "[",
    "]",
    "\"",
    "\\",
    "\\u{",
    "\\u{1b}",
    "\\u{110000}",
    "}",
    "#",
    "\n",
    "\r",
    "\t",
    " ",
    "A1",
    "ZZ702",
    "ZZ703",
    "AAA1",
    "A0",
    "A4294967296",
    "Z99999999999999999999",
    "N",
    "E",
    "S",
    "W",
    "Q",
    "0",
    "4294967295",
    "18446744073709551615",
    "-1",
    "é",
    "♞",
    "\u{1b}[31m",
    "\u{0}",
    "[Seed \"",
    "[Scenario \"x\"]",
];

/// One edit of a text: at a place (a fraction of its length), insert a token,
/// delete some bytes, or repeat a stretch.
#[derive(Debug, Clone)]
enum Edit {
    Insert(f64, usize),
    Delete(f64, usize),
    Repeat(f64, usize, usize),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (0.0..1.0f64, 0..TOKENS.len()).prop_map(|(at, t)| Edit::Insert(at, t)),
        (0.0..1.0f64, 1usize..12).prop_map(|(at, n)| Edit::Delete(at, n)),
        (0.0..1.0f64, 1usize..40, 1usize..50).prop_map(|(at, n, k)| Edit::Repeat(at, n, k)),
    ];
    prop::collection::vec(edit, 1..8)
}

/// Applies edits to a text, keeping it valid UTF-8 (edits land on character
/// boundaries).
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut s = text.to_owned();
    let boundary = |s: &str, at: f64| {
        let mut i = ((s.len() as f64) * at) as usize;
        while i > 0 && !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    for e in edits {
        match *e {
            Edit::Insert(at, t) => {
                let i = boundary(&s, at);
                s.insert_str(i, TOKENS[t]);
            }
            Edit::Delete(at, n) => {
                let i = boundary(&s, at);
                let mut j = (i + n).min(s.len());
                while !s.is_char_boundary(j) {
                    j += 1;
                }
                s.replace_range(i..j, "");
            }
            Edit::Repeat(at, n, k) => {
                let i = boundary(&s, at);
                let mut j = (i + n).min(s.len());
                while !s.is_char_boundary(j) {
                    j += 1;
                }
                let piece = s[i..j].repeat(k);
                s.insert_str(j, &piece);
            }
        }
    }
    s
}

fn squares() -> impl Strategy<Value = Square> {
    (0u16..702, 0u16..702).prop_map(|(c, r)| Square::new(c, r))
}

fn facings() -> impl Strategy<Value = Facing> {
    prop::sample::select(Facing::ALL.to_vec())
}

fn commands() -> impl Strategy<Value = Command> {
    prop_oneof![
        squares().prop_map(Command::Activate),
        Just(Command::TurnLeft),
        Just(Command::TurnRight),
        Just(Command::Advance),
        squares().prop_map(Command::AdvanceTo),
        Just(Command::End),
        Just(Command::Pass),
        squares().prop_map(Command::Pick),
        (squares(), facings()).prop_map(|(s, f)| Command::Place(s, f)),
        (squares(), facings(), any::<u16>(), any::<u16>()).prop_map(|(s, f, factor, unit)| {
            Command::PlaceCaptive(s, f, sandtable_cache::Captive { factor, unit })
        }),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Any text: the record parser answers, and a parsed record prints to
    /// text that reads back to the same headers and commands.
    #[test]
    fn records_from_mutated_text_parse_or_are_refused_with_a_line(edits in edits()) {
        let text = mutate(SEED_RECORD, &edits);
        match Record::parse(&text) {
            Ok(record) => {
                let again = Record::parse(&record.to_string()).expect("a printed record reads back");
                prop_assert_eq!(&again.headers, &record.headers);
                prop_assert_eq!(again.command_list(), record.command_list());
            }
            Err(e) => {
                let lines = text.lines().count().max(1);
                prop_assert!((1..=lines).contains(&e.line), "line {} of {}", e.line, lines);
            }
        }
    }

    /// Arbitrary bytes (as text) never panic the record parser.
    #[test]
    fn records_from_arbitrary_text_never_panic(text in ".{0,400}") {
        let _ = Record::parse(&text);
    }

    /// Every record Sandtable can write reads back: any header value
    /// (quotes, backslashes, `#`, control characters, any script) and any
    /// command. Sandtable writes each header once (a second one is refused).
    #[test]
    fn every_record_written_reads_back(
        headers in prop::collection::btree_map("[A-Za-z0-9_]{1,12}", any::<String>(), 0..6),
        commands in prop::collection::vec(commands(), 0..40),
    ) {
        let record = Record {
            headers: headers.into_iter().collect(),
            commands: commands.iter().copied().enumerate().map(|(i, c)| (i + 1, c)).collect(),
        };
        let back = Record::parse(&record.to_string()).expect("what the printer writes reads back");
        prop_assert_eq!(back.command_list(), commands);
        prop_assert_eq!(back.headers, record.headers);
    }

    /// Command, square and facing names: parsed or refused, and printed
    /// ones read back.
    #[test]
    fn notation_words_parse_or_are_refused(text in "[a-zA-Z0-9 \\-]{0,30}", command in commands()) {
        let _ = text.parse::<Command>();
        let _ = text.parse::<Square>();
        let _ = text.parse::<Facing>();
        prop_assert_eq!(command.to_string().parse::<Command>(), Ok(command));
    }

    /// Stash lists: mutated RON is read or refused with its problems, and a
    /// list read back from its rows is the same list.
    #[test]
    fn stash_lists_parse_or_are_refused(edits in edits()) {
        let text = mutate(sandtable_cache::DEFAULT_STASH_LIST, &edits);
        if let Ok(list) = StashList::from_ron(&text) {
            let rows: Vec<StashRow> = list.rows().collect();
            prop_assert_eq!(StashList::from_rows(&rows), Ok(list));
        }
    }

    /// Rows with any rolls and results: every problem is told, nothing panics.
    #[test]
    fn stash_rows_of_any_values_are_checked(
        rows in prop::collection::vec((any::<u8>(), 0u8..12, any::<u8>()), 0..80),
    ) {
        let rows: Vec<StashRow> = rows
            .into_iter()
            .map(|(roll, kind, n)| StashRow {
                roll,
                result: match kind {
                    0 => StashResult::PlaceAnywhere,
                    1..=5 => StashResult::ExtraActions(n),
                    6 => StashResult::ReturnUnfriendly,
                    7 => StashResult::ReturnCapturedFriend,
                    8 => StashResult::ReturnThisUnit,
                    _ => StashResult::Nothing,
                },
            })
            .collect();
        if let Err(problems) = StashList::from_rows(&rows) {
            prop_assert!(!problems.is_empty());
        }
    }
}
