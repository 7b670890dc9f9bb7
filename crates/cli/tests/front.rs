//! The CLI's own commands (`play`, `show`, `simulate`, `tournament`) on a
//! rule system they were not written for: Sealed Bids, a game of the tests,
//! comes in through its front door ([`Front`]) and everything after goes
//! through the game contract: records replayed with scripted dice, one
//! player's view, bots with a saved record that replays, and a tally.

#[allow(dead_code)]
mod sealed_bids;

use std::path::{Path, PathBuf};

use sandtable_bots::{BotConfig, BotKind, Budget};
use sandtable_cli::bots::{PlayOptions, Thinking, TournamentOptions, play, tournament};
use sandtable_cli::{Front, Seeing, Tallies};
use sandtable_core::dice::Dice;
use sandtable_core::game::Seat;
use sandtable_core::record::Record;
use sealed_bids::{Cmd, Happened, NAMES, SealedBids};

/// North is dealt 5 2 6 and South 3 2 4; then a coin and prize rolls.
const ROLLS: &str = "5,2,6,3,2,4,4,6,5,3,2";

/// The front door of Sealed Bids: no scenario file, a fixed seed.
struct Bids;

impl Front for Bids {
    type Game = SealedBids;

    fn rules(&self) -> &'static str {
        "sealed-bids"
    }

    // The test system is never served over the network.
    fn scenario_for(&self, _masked: &Self::Game) -> String {
        String::new()
    }

    fn title(&self) -> &str {
        "Sealed Bids"
    }

    fn seat_names(&self) -> Vec<String> {
        NAMES.iter().map(|n| n.to_string()).collect()
    }

    fn seed(&self) -> u64 {
        7
    }

    fn turn_limit(&self) -> Option<u32> {
        None
    }

    fn check_turn_limit(&self, limit: u32) -> Result<(), String> {
        Err(format!(
            "--turn-limit {limit}: Sealed Bids always ends after three rounds (S4)"
        ))
    }

    fn start(
        &self,
        _seed: u64,
        _turn_limit: Option<u32>,
        dice: Dice,
    ) -> Result<SealedBids, String> {
        SealedBids::new(dice)
    }

    fn pins(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    fn check_pins(&self, _record: &Record<Cmd>) -> Vec<String> {
        Vec::new()
    }

    /// The contract's bots: a random command, or the search for mcts and
    /// greedy alike.
    fn decide(
        &self,
        game: &SealedBids,
        seat: Seat,
        bot: &BotConfig,
    ) -> Option<sandtable_bots::Decision<Cmd>> {
        use rand::SeedableRng;
        let command = match (bot.kind, bot.budget) {
            (BotKind::Random, _) => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(bot.seed);
                sandtable_bots::contract::random(game, seat, &mut rng)
            }
            (_, Budget::Iterations(n) | Budget::Within { iterations: n, .. }) => {
                sandtable_bots::contract::mcts(game, seat, n, bot.seed)
            }
            (_, Budget::Time(_)) => sandtable_bots::contract::mcts(game, seat, 100, bot.seed),
        }?;
        Some(sandtable_bots::Decision {
            command,
            playouts: 0,
            value: None,
        })
    }

    fn tally(&self, event: &Happened, tallies: &mut Tallies) {
        let key = match event {
            Happened::Conceded(..) => "conceded",
            Happened::Challenged(..) => "challenged",
            _ => return,
        };
        *tallies.entry(key.to_owned()).or_default() += 1;
    }

    fn report(&self, tallies: &Tallies, _games: u64) -> String {
        let n = |k: &str| tallies.get(k).copied().unwrap_or(0);
        format!(
            "answers: {} conceded, {} challenged\n",
            n("conceded"),
            n("challenged")
        )
    }
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sandtable-front-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.join(name)
}

fn options<'a>(
    record: Option<&'a Path>,
    bots: &'a [String],
    dice: Option<&str>,
    as_player: Option<&str>,
    json: bool,
) -> PlayOptions<'a> {
    PlayOptions {
        record,
        seed: None,
        json,
        bots,
        turn_limit: None,
        save: None,
        seeing: Seeing {
            dice: dice.map(str::to_owned),
            as_player: as_player.map(str::to_owned),
        },
        thinking: Thinking::iterations(30, Some(5)),
    }
}

#[test]
fn play_replays_a_record_with_scripted_dice_and_prints_one_players_view() {
    let path = temp_file("two-bids.moves");
    std::fs::write(&path, "bid 5\nbid 3\n").expect("written");
    let north = play(
        &Bids,
        Path::new("bids"),
        options(Some(&path), &[], Some(ROLLS), Some("North"), false),
    )
    .unwrap_or_else(|f| panic!("{}", f.message));
    assert!(
        north.starts_with(
            "   1  bid 5\n        North bids, sealed\n   2  bid 3\n        South bids, sealed\n\
             \x20       revealed: North 5, South 3\n\
             \x20       North wins the round and rolls 4 for the prize\n\n"
        ),
        "{north}"
    );
    assert!(north.contains("North: score 0, hand 2 6"), "{north}");
    assert!(
        north.contains("South: score 0, 2 cards") && !north.contains("hand 2 4"),
        "North does not see South's hand: {north}"
    );
    assert!(north.ends_with("South to answer\n"), "{north}");
    let south = play(
        &Bids,
        Path::new("bids"),
        options(Some(&path), &[], Some(ROLLS), Some("South"), true),
    )
    .unwrap_or_else(|f| panic!("{}", f.message));
    let view: serde_json::Value = serde_json::from_str(&south).expect("JSON");
    assert_eq!(view["players"][1]["hand"], serde_json::json!([2, 4]));
    assert_eq!(view["players"][0].get("hand"), None);
    assert_eq!(view["answer_owed_by"], "South");
    // `show` prints the same view under the title.
    let shown = sandtable_cli::replay::show(
        &Bids,
        Path::new("bids"),
        Some(&path),
        &Seeing {
            dice: Some(ROLLS.to_owned()),
            as_player: Some("North".to_owned()),
        },
        None,
    )
    .unwrap_or_else(|f| panic!("{}", f.message));
    assert!(
        shown.starts_with("Sealed Bids\n\nNorth: score 0, hand 2 6"),
        "{shown}"
    );
    assert!(shown.contains("South: score 0, 2 cards"), "{shown}");
}

#[test]
fn bots_play_a_whole_game_and_its_saved_record_replays_to_the_same_end() {
    let saved = temp_file("bots.moves");
    let _ = std::fs::remove_file(&saved);
    let bots = ["0=random".to_owned(), "1=mcts".to_owned()];
    let mut o = options(None, &bots, None, None, true);
    o.save = Some(&saved);
    let played = play(&Bids, Path::new("bids"), o).unwrap_or_else(|f| panic!("{}", f.message));
    let record = std::fs::read_to_string(&saved).expect("the record is written");
    assert!(record.starts_with("[Scenario"), "{record}");
    assert!(record.contains("[Seed \"7\"]"), "{record}");
    let commands = record.lines().filter(|l| !l.starts_with('[')).count();
    assert_eq!(
        commands, 9,
        "three rounds of two bids and an answer: {record}"
    );
    let view: serde_json::Value = serde_json::from_str(&played).expect("JSON");
    assert_eq!(
        view["revealed"].as_array().map(Vec::len),
        Some(3),
        "{played}"
    );
    let replayed = play(
        &Bids,
        Path::new("bids"),
        options(Some(&saved), &[], None, None, true),
    )
    .unwrap_or_else(|f| panic!("{}", f.message));
    assert_eq!(replayed, played, "the record replays to the same end");
}

#[test]
fn scripted_dice_that_run_out_stop_the_bots_with_the_reason() {
    let bots = ["0=random".to_owned(), "1=random".to_owned()];
    // The deal only: South's bid reveals, and the prize roll is missing.
    let err = play(
        &Bids,
        Path::new("bids"),
        options(None, &bots, Some("5,2,6,3,2,4"), None, false),
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "South has no command that can be played: the scripted dice have run out (R30); give more rolls with --dice"
    );
    assert_eq!(err.code, 2);
}

#[test]
fn simulate_and_tournament_run_on_any_system_with_its_own_tally() {
    let out = sandtable_cli::simulate::run(&Bids, Path::new("bids"), 20, Some(1), None, None)
        .unwrap_or_else(|f| panic!("{}", f.message));
    assert!(
        out.starts_with("20 random games of \"Sealed Bids\" (seeds 1 to 20"),
        "{out}"
    );
    let wins_line = out.lines().nth(1).expect("a line of wins");
    let numbers: Vec<u64> = wins_line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(numbers.iter().sum::<u64>(), 20, "{wins_line}");
    // Every round ends with one answer: three a game.
    let answers = out
        .lines()
        .find_map(|l| l.strip_prefix("answers: "))
        .expect("the system's tally");
    let counts: Vec<u64> = answers
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 60, "{answers}");
    let err =
        sandtable_cli::simulate::run(&Bids, Path::new("bids"), 2, None, Some(9), None).unwrap_err();
    assert_eq!(
        err.message,
        "--turn-limit 9: Sealed Bids always ends after three rounds (S4)"
    );

    let table = tournament(
        &Bids,
        Path::new("bids"),
        &[BotKind::Random, BotKind::Mcts],
        TournamentOptions {
            games: 2,
            seed: Some(3),
            turn_limit: None,
            threads: Some(1),
            thinking: Thinking::iterations(20, None),
        },
    )
    .unwrap_or_else(|f| panic!("{}", f.message));
    let row = table
        .lines()
        .find(|l| l.starts_with("mcts vs random"))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[3], "2", "games: {row}");
    let results: u32 = cells[4..7].iter().map(|c| c.parse::<u32>().unwrap()).sum();
    assert_eq!(results, 2, "wins, draws and losses add up: {row}");
}
