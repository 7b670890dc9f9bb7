//! What `sandtable-cli` does for any rule system, through the game contract
//! ([`GameState`]): dice from the command line or a record, the view of one
//! player, replaying a record, letting bots play seats, and printing the
//! result. A system comes in through its front door ([`Front`]): a loaded
//! scenario that starts games and seats bots. The binary's commands are
//! built on it.

pub mod balance;
pub mod bots;
mod cache;
pub mod frontiers;
pub mod replay;
pub mod review;
pub mod simulate;
mod warpspawn;

use sandtable_core::text::{path_shown, quoted};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use sandtable_core::dice::{self, Dice};
use sandtable_core::game::{GameState, Refusal, Seat, Viewer, next_seat};
use sandtable_core::record::{Record, header};

/// The scenarios of every system, as [`with_front!`] matches them.
#[doc(hidden)]
pub use sandtable_scenario::Loaded;

/// Loads a scenario and runs the body with the front door ([`Front`]) of
/// the rule system its `rules:` field names, bound to the name given:
/// `with_front!(&file, |front| run(front))`. Past the front door every
/// command is generic over the system (the game contract). A scenario
/// that does not load is a [`Failure`] (exit code 1).
#[macro_export]
macro_rules! with_front {
    ($file:expr, |$front:ident| $body:expr) => {{
        match $crate::replay::load_any($file) {
            Err(failure) => Err(failure),
            // Conflict at Cache and The Snyder Skirmish are the Cache crate's.
            Ok($crate::Loaded::Cache(scenario)) => {
                let $front = &scenario;
                $body
            }
            Ok($crate::Loaded::Warpspawn(battle)) => {
                let $front = &battle;
                $body
            }
            Ok($crate::Loaded::Frontiers(skirmish)) => {
                let $front = &skirmish;
                $body
            }
        }
    }};
}

/// On Ctrl-C, SIGTERM or SIGHUP, a write under way (a sheet, a record)
/// leaves no temporary file behind: they are removed before the exit, with
/// the code of the signal as a shell gives it (128 + its number).
#[cfg(unix)]
pub fn remove_temporary_files_when_stopped() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                sandtable_scenario::files::remove_unfinished();
                std::process::exit(128 + signal);
            }
        });
    }
}

/// Elsewhere, nothing to set up.
#[cfg(not(unix))]
pub fn remove_temporary_files_when_stopped() {}

/// A failure to report: the message for stderr and the exit code.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, where and why.
    pub message: String,
    /// The exit code: 1 for bad input, 2 for a record that cannot be played.
    pub code: u8,
}

impl Failure {
    /// A failure with its exit code.
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code,
        }
    }
}

/// Counts a system keeps over many games for `simulate`'s report, by name.
pub type Tallies = BTreeMap<String, u64>;

/// A loaded scenario of some rule system, as the CLI's commands start games
/// from it: the front door of a system. Past the start, every command goes
/// through the game contract.
pub trait Front: Sync {
    /// The system's game.
    type Game: GameState;
    /// The scenario's name.
    fn title(&self) -> &str;
    /// The rule system, as the table names it (`cache`, `warpspawn`,
    /// `frontiers`): what a network client reads its game as.
    fn rules(&self) -> &'static str;
    /// The players' names, in seat order.
    fn seat_names(&self) -> Vec<String>;
    /// How many seats its games have.
    fn seats(&self) -> usize {
        self.seat_names().len()
    }
    /// The scenario's own seed.
    fn seed(&self) -> u64;
    /// The scenario's own turn limit, if it sets one.
    fn turn_limit(&self) -> Option<u32>;
    /// Refuses a turn limit the system does not allow, saying why.
    fn check_turn_limit(&self, limit: u32) -> Result<(), String>;
    /// A game of the scenario with this seed, turn limit and dice.
    fn start(&self, seed: u64, turn_limit: Option<u32>, dice: Dice) -> Result<Self::Game, String>;
    /// The headers that pin a record to the scenario and the engine.
    fn pins(&self) -> Vec<(String, String)>;
    /// The scenario as a scenario file, as the viewer of `masked` (a
    /// masked copy of one of its games, `GameState::masked`) may know it:
    /// its setup the copy's (nothing of another side's hidden setup) and
    /// its seed 0. What a network client's table is built from.
    fn scenario_for(&self, masked: &Self::Game) -> String;
    /// What differs between a record's pins and this scenario and engine,
    /// in words.
    fn check_pins(&self, record: &Record<<Self::Game as GameState>::Command>) -> Vec<String>;
    /// A bot's decision for the seat to act: the command, the playouts its
    /// search ran and its estimate of the seat's chances; `None` when the
    /// seat has no legal command (scripted dice that have run out can leave
    /// none).
    fn decide(
        &self,
        game: &Self::Game,
        seat: Seat,
        bot: &sandtable_bots::BotConfig,
    ) -> Option<sandtable_bots::Decision<<Self::Game as GameState>::Command>>;
    /// What a bot of another seat sees of `seat` giving `command` in this
    /// position, before it is applied (`sandtable_bots::Plays::as_greedy`);
    /// a system whose bots model no one sees nothing (the default).
    fn as_greedy(
        &self,
        game: &Self::Game,
        seat: Seat,
        command: &<Self::Game as GameState>::Command,
    ) -> Option<bool> {
        let _ = (game, seat, command);
        None
    }
    /// What perft's count means where the legal list holds families, not
    /// every command (a move on an open table has too many end points to
    /// list); `None` where it lists every command.
    fn perft_note(&self) -> Option<&'static str> {
        None
    }
    /// The board drawn as text with `cell_mm` millimetres a character, for
    /// a system played on an open plane; `None` for a grid, whose cells
    /// are its own scale.
    fn draw_at_scale(&self, game: &Self::Game, viewer: Viewer, cell_mm: u16) -> Option<String> {
        let _ = (game, viewer, cell_mm);
        None
    }
    /// Adds what an event of a random game counts for to `tallies`.
    fn tally(&self, event: &<Self::Game as GameState>::Event, tallies: &mut Tallies);
    /// `simulate`'s lines on the tallies of `games` games.
    fn report(&self, tallies: &Tallies, games: u64) -> String;
}

/// The name `--as` takes for the public's view.
const PUBLIC: &str = "public";

/// What `show` and `play` are told about the table: where the dice come
/// from and whose eyes to print the game with.
#[derive(clap::Args, Default, Debug, Clone)]
pub struct Seeing {
    /// Rolls of real dice to use instead of the generator, in order, as 4,2,5 (default: the record's [Dice] header, else the seeded generator)
    #[arg(long, value_name = "ROLLS")]
    pub dice: Option<String>,
    /// Print what this player may see (a name), or what every player sees (`public`: a spectator's view), instead of the referee's view of everything
    #[arg(long = "as", value_name = "PLAYER")]
    pub as_player: Option<String>,
}

impl Seeing {
    /// The dice: the rolls of `--dice`, else of the record's `[Dice]`
    /// header, else the generator seeded with `seed`.
    pub fn dice<C>(&self, seed: u64, record: Option<(&Record<C>, &Path)>) -> Result<Dice, Failure> {
        if let Some(text) = &self.dice {
            return dice::parse_rolls(text)
                .map(Dice::scripted)
                .map_err(|e| Failure::new(1, format!("--dice {text}: {e}")));
        }
        match record.and_then(|(r, path)| Some((r.header(header::DICE)?, path))) {
            Some((text, path)) => dice::parse_rolls(text).map(Dice::scripted).map_err(|e| {
                Failure::new(
                    2,
                    format!("{}: the [{}] header: {e}", path_shown(path), header::DICE),
                )
            }),
            None => Ok(Dice::seeded(seed)),
        }
    }

    /// Whose view to print: the referee's, the named player's, or the
    /// public's (`public`, unless a player has that name).
    pub fn viewer<G: GameState>(&self, game: &G) -> Result<Viewer, Failure> {
        let Some(name) = &self.as_player else {
            return Ok(Viewer::Referee);
        };
        let names: Vec<&str> = (0..game.seats())
            .map(|k| game.seat_name(Seat(k as u16)))
            .collect();
        match names.iter().position(|n| n == name) {
            Some(k) => Ok(Viewer::Player(Seat(k as u16))),
            None if name == PUBLIC => Ok(Viewer::Public),
            None => Err(Failure::new(
                1,
                format!(
                    "--as {}: no such player; the players are {}, and `{PUBLIC}` is every player's view",
                    quoted(name),
                    names
                        .iter()
                        .map(|n| quoted(n))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}

/// Writes a command and its events to a log, as `play` prints it for
/// `viewer`: the command on its line, or that the seat gave a command the
/// viewer may not read (another player's sealed order, R57), then each
/// event the system logs and the viewer may know, in words.
fn log_command<G: GameState>(
    log: &mut String,
    game: &G,
    label: &str,
    (seat, command): (Seat, &G::Command),
    events: &[G::Event],
    viewer: Viewer,
) {
    let _ = writeln!(
        log,
        "{label:>4}  {}",
        command_seen(game, seat, command, viewer)
    );
    log_events(log, game, events, viewer);
}

/// A command as `viewer` may read it: its notation, or that the seat gave
/// a sealed command.
fn command_seen<G: GameState>(
    game: &G,
    seat: Seat,
    command: &G::Command,
    viewer: Viewer,
) -> String {
    game.command_for(seat, command, viewer)
        .unwrap_or_else(|| format!("({} gives a sealed command)", game.seat_name(seat)))
}

fn log_events<G: GameState>(log: &mut String, game: &G, events: &[G::Event], viewer: Viewer) {
    for e in events.iter().filter(|e| game.logged(e)) {
        if let Some(words) = game.describe_for(e, viewer) {
            let _ = writeln!(log, "        {words}");
        }
    }
}

/// Reads a number from a record's header, if it has that header; a bad
/// one is a record that cannot be played (exit code 2).
pub fn header_number<C, T: std::str::FromStr>(
    record: &Record<C>,
    key: &str,
    path: &Path,
) -> Result<Option<T>, Failure> {
    record
        .header_number(key)
        .map_err(|e| Failure::new(2, format!("{}: {e}", path_shown(path))))
}

/// Applies a record's commands, each as the seat that acts next (a sealed
/// decision's commands are written in seat order), logging them when `log`
/// is given. An illegal command stops with its line and the ruling's
/// reason (exit code 2); so does a command the scripted dice cannot serve.
pub fn apply_record<G: GameState>(
    game: &mut G,
    record: &Record<G::Command>,
    path: &Path,
    log: Option<(&mut String, Viewer)>,
) -> Result<(), Failure> {
    apply_record_until(game, record, path, log).map_err(|stop| stop.failure)
}

/// Where a record stopped being played ([`apply_record_until`]).
pub struct RecordStop {
    /// Why, with the command's line (exit code 2).
    pub failure: Failure,
    /// How many of its commands were applied before it.
    pub applied: usize,
    /// Whether the command was refused only because the scripted dice ran
    /// out (R30): the game so far is a game, worth saving.
    pub dice_out: bool,
}

/// As [`apply_record`], saying how far the record was played when a
/// command is refused, and whether only the dice ran out.
pub fn apply_record_until<G: GameState>(
    game: &mut G,
    record: &Record<G::Command>,
    path: &Path,
    mut log: Option<(&mut String, Viewer)>,
) -> Result<(), RecordStop> {
    let mut events = Vec::new();
    for (applied, (line, command)) in record.commands.iter().enumerate() {
        // After the end nobody acts: the system itself says why the
        // command is refused.
        let seat = next_seat(game).unwrap_or(Seat(0));
        events.clear();
        game.apply_into(seat, command, &mut events)
            .map_err(|e| RecordStop {
                failure: Failure::new(
                    2,
                    format!(
                        "{}:{line}: `{command}` {}",
                        path_shown(path),
                        why_refused(&e)
                    ),
                ),
                applied,
                dice_out: e.ruling().0 == 30,
            })?;
        if let Some((log, viewer)) = log.as_mut() {
            log_command(
                log,
                game,
                &line.to_string(),
                (seat, command),
                &events,
                *viewer,
            );
        }
    }
    Ok(())
}

/// Why a command was refused, after the command: refused by the rules, or
/// not playable because the scripted dice have run out (R30).
fn why_refused(refusal: &impl Refusal) -> String {
    if refusal.ruling().0 == 30 {
        format!("cannot be played: {refusal}; give more rolls with --dice")
    } else {
        format!("is illegal: {refusal}")
    }
}

/// A bot of the contract's own (see `sandtable_bots::contract`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bot {
    /// A uniformly random legal command.
    Random,
    /// UCT with random playouts, this many iterations a decision.
    Mcts(u32),
}

impl std::fmt::Display for Bot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bot::Random => f.write_str("random"),
            Bot::Mcts(_) => f.write_str("mcts"),
        }
    }
}

/// Lets bots play until the game ends or `choose` has no bot for the seat
/// to act. `choose` gives a seat's command and the name of the bot that
/// chose it; each command is applied, appended to `commands` (the game's
/// commands so far, which number the log's lines) and logged as `play`
/// prints it.
///
/// A bot decides on a copy whose dice are its own, so the real game can
/// still refuse its command: when scripted dice run out (R30), as they
/// would for a person. Play stops there with the refusal (exit code 2),
/// the game and `commands` as they were before the command.
pub fn play_seats<G: GameState, B: std::fmt::Display>(
    game: &mut G,
    commands: &mut Vec<G::Command>,
    (log, viewer): (&mut String, Viewer),
    mut choose: impl FnMut(&G, Seat) -> Option<(G::Command, B)>,
) -> Result<(), Failure> {
    let mut events = Vec::new();
    while let Some(seat) = next_seat(game) {
        let Some((command, bot)) = choose(game, seat) else {
            break;
        };
        events.clear();
        if let Err(e) = game.apply_into(seat, &command, &mut events) {
            let line = commands.len() + 1;
            let name = game.seat_name(seat);
            return Err(Failure::new(
                2,
                format!(
                    "command {line}, {name} ({bot}): `{command}` {}",
                    why_refused(&e)
                ),
            ));
        }
        commands.push(command);
        // Commands line up in a column of 16; a longer one keeps a space
        // before the seat's name.
        let text = command_seen(game, seat, &command, viewer);
        let gap = if text.len() >= 16 { " " } else { "" };
        let _ = writeln!(
            log,
            "{:>4}  {text:<16}{gap}{} ({bot})",
            commands.len(),
            game.seat_name(seat)
        );
        log_events(log, game, &events, viewer);
    }
    Ok(())
}

/// Lets the contract's bots play their seats (see [`play_seats`]); each
/// seat's bot is seeded with `seat_seed(bot_seed, seat)` and the number of
/// commands the bots gave so far, so that a game replays identically.
/// Appends the commands played to `played`; a bot's seat with no legal
/// command stops play there too ([`no_command`] says why), and a command
/// the game refuses stops it with the refusal (see [`play_seats`]).
pub fn play_bots<G: GameState>(
    game: &mut G,
    played: &mut Vec<G::Command>,
    bots: &[Option<Bot>],
    bot_seed: u64,
    log: &mut String,
) -> Result<(), Failure> {
    use rand::SeedableRng;
    let mut given = 0u64;
    play_seats(game, played, (log, Viewer::Referee), |game, seat| {
        let bot = bots.get(seat.index()).copied().flatten()?;
        let seed = sandtable_core::game::seat_seed(bot_seed, seat)
            .wrapping_add(given.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let command = match bot {
            Bot::Random => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                sandtable_bots::contract::random(game, seat, &mut rng)
            }
            Bot::Mcts(iterations) => sandtable_bots::contract::mcts(game, seat, iterations, seed),
        }?;
        given += 1;
        Some((command, bot))
    })
}

/// Why a seat that owes a decision has no legal command: with scripted
/// dice, that they have run out (R30); exit code 2, as a record that
/// cannot be played.
pub fn no_command<G: GameState>(game: &G, seat: Seat) -> Failure {
    let name = game.seat_name(seat);
    let why = match game.dice().left() {
        Some(0) => format!(
            "{name} has no command that can be played: the scripted dice have run out (R30); give more rolls with --dice"
        ),
        _ => format!("{name} has no legal command"),
    };
    Failure::new(2, why)
}

/// What `play` prints at the end: the JSON view of `viewer`, or the log
/// followed by the text drawing of that view.
pub fn output<G: GameState>(game: &G, viewer: Viewer, json: bool, log: &str) -> String {
    if json {
        let mut view = game.view_json(viewer);
        view.push('\n');
        return view;
    }
    format!("{log}\n{}", game.draw_text(viewer))
}

/// What `show` prints: the title, a blank line, and the text drawing of
/// what `viewer` may see.
pub fn show_text<G: GameState>(title: &str, game: &G, viewer: Viewer) -> String {
    format!("{title}\n\n{}", game.draw_text(viewer))
}

/// A record of a game played from the start: the headers given, the rolls
/// the scripted dice used (so that it replays roll for roll), then the
/// commands.
pub fn record_of<G: GameState>(
    game: &G,
    mut headers: Vec<(String, String)>,
    commands: Vec<G::Command>,
) -> Record<G::Command> {
    if let Some(script) = game.dice().script() {
        headers.push((header::DICE.to_owned(), dice::write_rolls(script.used())));
    }
    let mut record = Record::from_commands(commands);
    record.headers = headers;
    record
}
