//! `sandtable-cli`: Sandtable without a window. Validates scenario files, draws
//! boards in the terminal, replays game records and looks back at them
//! (each side's chances and the turning points), simulates random games,
//! and lets bots play and hold tournaments. A scenario's `rules:` field picks
//! the rule system; its front door (`sandtable_cli::Front`) starts the game,
//! and everything after goes through the game contract. Files live in
//! `sandtable-scenario`, bots in `sandtable-bots`.

use sandtable_core::text::path_shown;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sandtable_cli::{Front, bots, replay, simulate, with_front};
use sandtable_core::dice::Dice;
use sandtable_scenario::Loaded;
use sandtable_scenario::files::{self, printable};

#[derive(Parser)]
#[command(
    name = "sandtable-cli",
    version,
    about = "Sandtable without a window: check scenarios, replay game records, simulate games"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Check scenario files; exit 0 when all are valid, otherwise print every problem and exit 1
    Validate {
        /// Scenario files (.ron)
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Draw a scenario's board in the terminal, after a game record if one is given
    Show {
        /// Scenario file (.ron)
        file: PathBuf,
        /// Game record in the move notation to apply first
        #[arg(long)]
        record: Option<PathBuf>,
        #[command(flatten)]
        seeing: sandtable_cli::Seeing,
        /// Millimetres a character of a skirmish's table drawn on an open plane (Frontiers; default 20)
        #[arg(long, value_name = "MM", value_parser = clap::value_parser!(u16).range(1..=1000))]
        cell_mm: Option<u16>,
    },
    /// Apply a game record, let bots play on, and print the final state; exit 2 at an illegal command
    Play {
        /// Scenario file (.ron)
        file: PathBuf,
        /// Game record in the move notation (without one, bots play from the start)
        #[arg(long, required_unless_present = "bots")]
        record: Option<PathBuf>,
        /// Seed of the game's generator (default: the record's [Seed] header, then the scenario's)
        #[arg(long)]
        seed: Option<u64>,
        /// Print the final state as the rules crate's JSON state summary
        #[arg(long)]
        json: bool,
        /// A bot for a seat, as PLAYER=BOT: PLAYER is the player's index from 0, BOT is random, greedy or mcts (repeatable)
        #[arg(long = "bot", value_name = "PLAYER=BOT")]
        bots: Vec<String>,
        /// Turns after which the game is a draw (default: the record's [TurnLimit], else the scenario's, else 200 when bots play)
        #[arg(long)]
        turn_limit: Option<u32>,
        /// Write the whole game record (the given one and the bots' commands) to this file
        #[arg(long)]
        save: Option<PathBuf>,
        #[command(flatten)]
        seeing: sandtable_cli::Seeing,
        #[command(flatten)]
        thinking: bots::Thinking,
    },
    /// Play every pairing of bots on a two-player scenario, seats swapped, and print a win-rate table
    Tournament {
        /// Scenario file (.ron) with two players
        file: PathBuf,
        /// A second scenario: the two are a Frontiers Cameron match, the
        /// roles swapped, and each pairing plays matches (R148)
        second: Option<PathBuf>,
        /// Bots to pair, separated by commas
        #[arg(long, value_delimiter = ',', default_value = "random,greedy,mcts")]
        bots: Vec<sandtable_bots::BotKind>,
        /// Games a pairing; each deal is played twice, once from each seat
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Seed of the first deal; deal i uses seed + i (default: the scenario's seed)
        #[arg(long)]
        seed: Option<u64>,
        /// Turns after which a game is a draw (default: the scenario's limit, else 200)
        #[arg(long)]
        turn_limit: Option<u32>,
        /// Games played at once (default: the machine's cores)
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        thinking: bots::Thinking,
    },
    /// Measure how fair a Frontiers scenario is: the same bot on both sides, each deal played on the ground as set and turned (the zones exchanged)
    Balance {
        /// Frontiers scenario file (.ron), the Legion against the Zirl
        file: PathBuf,
        /// A second scenario: the two are a Cameron match, the roles
        /// swapped, and matches are played (R148)
        second: Option<PathBuf>,
        /// The bot on both sides: random, greedy or mcts
        #[arg(long)]
        bot: sandtable_bots::BotKind,
        /// Games (or matches) in all; deal i / 2 is played twice, the second time on the ground turned
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Seed of the first deal; deal i uses seed + i (default: the scenario's seed)
        #[arg(long)]
        seed: Option<u64>,
        /// Turns after which a game is a draw (default: the scenario's limit)
        #[arg(long)]
        turn_limit: Option<u32>,
        /// Games played at once (default: the machine's cores)
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        thinking: bots::Thinking,
    },
    /// Look back at a game record: each side's chance of winning after every decision, as the tree search estimates it, and the turning points
    Review {
        /// The game record (.moves); its [Scenario] header names the scenario
        record: PathBuf,
        /// The scenario file, where the record's header does not name it or it has moved
        #[arg(long)]
        scenario: Option<PathBuf>,
        #[command(flatten)]
        args: sandtable_cli::review::ReviewArgs,
    },
    /// Write a printable setup sheet: the table at 1:1 scale over several pages, and a list of every piece
    Print {
        /// Scenario file (.ron)
        file: PathBuf,
        /// Paper size: a4 or letter
        #[arg(long, default_value = "a4")]
        paper: String,
        /// The PDF to write
        #[arg(long)]
        out: PathBuf,
    },
    /// Count the game tree's leaves DEPTH commands deep, a game copy a node, and the copies a second
    Perft {
        /// Scenario file (.ron)
        file: PathBuf,
        /// Commands deep (1: the legal commands now)
        #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
    /// Play many games with random legal commands and print a summary
    Simulate {
        /// Scenario file (.ron)
        file: PathBuf,
        /// A second scenario: the two are a Frontiers Cameron match, the
        /// roles swapped, and the match is reported (R148)
        second: Option<PathBuf>,
        /// Number of games
        #[arg(long)]
        games: u32,
        /// Seed of the first game; game i uses seed + i (default: the scenario's seed)
        #[arg(long)]
        seed: Option<u64>,
        /// Turns after which a game is a draw (default: the scenario's limit, else 200)
        #[arg(long)]
        turn_limit: Option<u32>,
        /// Write each game's record into this folder
        #[arg(long)]
        save_record: Option<PathBuf>,
    },
}

use sandtable_cli::Failure;

fn main() -> ExitCode {
    sandtable_cli::remove_temporary_files_when_stopped();
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Validate { files } => validate(&files),
        Cmd::Show {
            file,
            record,
            seeing,
            cell_mm,
        } => with_front!(&file, |front| {
            replay::show(front, &file, record.as_deref(), &seeing, cell_mm)
        }),
        Cmd::Review {
            record,
            scenario,
            args,
        } => match scenario.map_or_else(|| scenario_of(&record), Ok) {
            Err(failure) => Err(failure),
            Ok(file) => with_front!(&file, |front| {
                sandtable_cli::review::run(front, &record, &args, std::io::stderr().is_terminal())
            }),
        },
        Cmd::Play {
            file,
            record,
            seed,
            json,
            bots,
            turn_limit,
            save,
            seeing,
            thinking,
        } => {
            let options = bots::PlayOptions {
                record: record.as_deref(),
                seed,
                json,
                bots: &bots,
                turn_limit,
                save: save.as_deref(),
                seeing,
                thinking,
            };
            bots::check_play(&file, &options)
                .and_then(|()| with_front!(&file, |front| bots::play(front, &file, options)))
        }
        Cmd::Tournament {
            file,
            second,
            bots,
            games,
            seed,
            turn_limit,
            threads,
            thinking,
        } => thinking.check().and_then(|()| {
            let options = bots::TournamentOptions {
                games,
                seed,
                turn_limit,
                threads,
                thinking,
            };
            match second {
                Some(second) => {
                    sandtable_cli::frontiers::tournament_match(&file, &second, &bots, options)
                }
                None => with_front!(&file, |front| {
                    bots::tournament(front, &file, &bots, options)
                }),
            }
        }),
        Cmd::Balance {
            file,
            second,
            bot,
            games,
            seed,
            turn_limit,
            threads,
            thinking,
        } => thinking.check().and_then(|()| {
            sandtable_cli::balance::balance(
                &file,
                second.as_deref(),
                sandtable_cli::balance::BalanceOptions {
                    bot,
                    games,
                    seed,
                    turn_limit,
                    threads,
                    thinking,
                },
            )
        }),
        Cmd::Print { file, paper, out } => print_sheet(&file, &paper, &out),
        Cmd::Perft { file, depth } => with_front!(&file, |front| perft(front, depth)),
        Cmd::Simulate {
            file,
            second: Some(second),
            games,
            seed,
            turn_limit,
            save_record: None,
        } => sandtable_cli::frontiers::simulate_match(&file, &second, games, seed, turn_limit),
        Cmd::Simulate {
            second: Some(_), ..
        } => Err(Failure::new(
            1,
            "--save-record keeps one scenario's games: a match is simulated without it",
        )),
        Cmd::Simulate {
            file,
            games,
            seed,
            turn_limit,
            save_record,
            ..
        } => with_front!(&file, |front| {
            simulate::run(
                front,
                &file,
                games,
                seed,
                turn_limit,
                save_record.as_deref(),
            )
        }),
    };
    // Names and paths come from files: nothing in them may drive the terminal.
    match result {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = stdout.write_all(printable(&out).as_bytes());
            let _ = stdout.flush();
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("{}", printable(&failure.message));
            ExitCode::from(failure.code)
        }
    }
}

/// The scenario a record's `[Scenario]` header names, or why none.
fn scenario_of(record: &std::path::Path) -> Result<PathBuf, Failure> {
    let text = sandtable_scenario::records::read_text(record)
        .map_err(|e| Failure::new(1, e.to_string()))?;
    // Only the headers are read here: any command line will do.
    #[derive(Clone, Copy)]
    struct AnyLine;
    impl std::str::FromStr for AnyLine {
        type Err = std::convert::Infallible;
        fn from_str(_: &str) -> Result<AnyLine, Self::Err> {
            Ok(AnyLine)
        }
    }
    let parsed: sandtable_core::record::Record<AnyLine> =
        sandtable_core::record::Record::parse(&text)
            .map_err(|e| Failure::new(2, format!("{}: {e}", path_shown(record))))?;
    match parsed.header(sandtable_core::record::header::SCENARIO) {
        Some(header) => Ok(sandtable_scenario::records::scenario_path(record, header)),
        None => Err(Failure::new(
            1,
            format!(
                "{}: the record has no [Scenario] header: name its scenario with --scenario FILE.ron",
                path_shown(record)
            ),
        )),
    }
}

fn validate(files: &[PathBuf]) -> Result<String, Failure> {
    let mut out = String::new();
    let mut errors = Vec::new();
    for file in files {
        match sandtable_scenario::load_any(file) {
            Ok(scenario) => {
                out.push_str(&format!("{}: ok ({})\n", path_shown(file), scenario.name()));
                for w in scenario.warnings() {
                    out.push_str(&format!(
                        "{}: warning: {}\n",
                        path_shown(file),
                        w.display_in("").to_string().trim_start_matches(": ")
                    ));
                }
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        print!("{}", printable(&out));
        Err(Failure::new(1, errors.join("\n")))
    }
}

fn perft<F: Front>(front: &F, depth: u32) -> Result<String, Failure> {
    let game = front
        .start(front.seed(), front.turn_limit(), Dice::seeded(front.seed()))
        .map_err(|e| Failure::new(1, e))?;
    let started = std::time::Instant::now();
    let count = sandtable_core::game::perft(&game, depth);
    let seconds = started.elapsed().as_secs_f64();
    let families = front
        .perft_note()
        .map_or(String::new(), |note| format!("{note}\n"));
    Ok(format!(
        "perft({depth}): {} leaves, {} game copies\n\
         {families}\
         time: {seconds:.3} s, {:.1} million copies a second\n",
        count.leaves,
        count.copies,
        count.copies as f64 / seconds.max(1e-9) / 1e6
    ))
}

fn print_sheet(
    file: &std::path::Path,
    paper: &str,
    out: &std::path::Path,
) -> Result<String, Failure> {
    let paper: sandtable_sheet::Paper = paper.parse().map_err(|e: String| Failure::new(1, e))?;
    files::refuse_output_over_input(out, [file]).map_err(|e| Failure::new(1, e))?;
    let (sheet, ring) = match replay::load_any(file)? {
        Loaded::Cache(scenario) => (sandtable_sheet::plan(&scenario, paper), false),
        Loaded::Warpspawn(battle) => (
            sandtable_sheet::plan_battle(&battle, paper),
            battle.setup.offboard.is_some(),
        ),
        Loaded::Frontiers(skirmish) => (sandtable_sheet::plan_skirmish(&skirmish, paper), false),
    };
    let sheet = sheet.map_err(|e| Failure::new(1, format!("{}: {e}", path_shown(file))))?;
    // Streamed a page at a time: an existing sheet is never left half-written.
    sandtable_sheet::write_file(&sheet, out).map_err(|e| Failure::new(1, e))?;
    let (w, d) = sheet.table_mm;
    let tiles = if ring {
        format!(
            "{} x {} tiles of {w:.0} x {d:.0} mm at 1:1: the table and the off-board grid round it (R40)",
            sheet.grid.0, sheet.grid.1
        )
    } else {
        format!(
            "{} x {} tiles of the {w:.0} x {d:.0} mm table at 1:1",
            sheet.grid.0, sheet.grid.1
        )
    };
    let aids = match sheet.aids.len() {
        0 => String::new(),
        1 => ", then 1 of play aids at true size".to_owned(),
        n => format!(", then {n} of play aids at true size"),
    };
    Ok(format!(
        "{}: {} pages on {paper} ({tiles}, then {} of pieces{aids})\n",
        path_shown(out),
        sheet.page_count(),
        sheet.page_count() - sheet.tiles.len() - sheet.aids.len()
    ))
}
