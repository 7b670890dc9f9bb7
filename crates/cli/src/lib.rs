//! What `sandtable-cli` does for any rule system, through the game contract
//! ([`GameState`]): dice from the command line or a record, the view of one
//! player, replaying a record, letting bots play seats, and printing the
//! result. The binary's commands are built on it.

use std::fmt::Write as _;
use std::path::Path;

use sandtable_core::dice::{self, Dice};
use sandtable_core::game::{GameState, Refusal, Seat, Viewer, next_seat};
use sandtable_core::record::Record;

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

/// The record header of scripted dice (R30): `[Dice "4 2 5"]`.
pub const DICE_HEADER: &str = "Dice";

/// What `show` and `play` are told about the table: where the dice come
/// from and whose eyes to print the game with.
#[derive(clap::Args, Default, Debug, Clone)]
pub struct Seeing {
    /// Rolls of real dice to use instead of the generator, in order, as 4,2,5 (default: the record's [Dice] header, else the seeded generator)
    #[arg(long, value_name = "ROLLS")]
    pub dice: Option<String>,
    /// Print what this player may see (a name) instead of the referee's view of everything
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
        match record.and_then(|(r, path)| Some((r.header(DICE_HEADER)?, path))) {
            Some((text, path)) => dice::parse_rolls(text).map(Dice::scripted).map_err(|e| {
                Failure::new(
                    2,
                    format!("{}: the [{DICE_HEADER}] header: {e}", path.display()),
                )
            }),
            None => Ok(Dice::seeded(seed)),
        }
    }

    /// Whose view to print: the referee's, or the named player's.
    pub fn viewer<G: GameState>(&self, game: &G) -> Result<Viewer, Failure> {
        let Some(name) = &self.as_player else {
            return Ok(Viewer::Referee);
        };
        let names: Vec<&str> = (0..game.seats())
            .map(|k| game.seat_name(Seat(k as u16)))
            .collect();
        match names.iter().position(|n| n == name) {
            Some(k) => Ok(Viewer::Player(Seat(k as u16))),
            None => Err(Failure::new(
                1,
                format!(
                    "--as {name}: no such player; the players are {}",
                    names.join(", ")
                ),
            )),
        }
    }
}

/// Writes a command and its events to a log, as `play` prints it.
fn log_command<G: GameState>(
    log: &mut String,
    game: &G,
    label: &str,
    command: &G::Command,
    events: &[G::Event],
) {
    let _ = writeln!(log, "{label:>4}  {command}");
    for e in events {
        let _ = writeln!(log, "        {}", game.describe(e));
    }
}

/// Applies a record's commands, each as the seat that acts next (a sealed
/// decision's commands are written in seat order), logging them when `log`
/// is given. An illegal command stops with its line and the ruling's
/// reason (exit code 2); so does a command the scripted dice cannot serve.
pub fn apply_record<G: GameState>(
    game: &mut G,
    record: &Record<G::Command>,
    path: &Path,
    mut log: Option<&mut String>,
) -> Result<(), Failure> {
    let mut events = Vec::new();
    for (line, command) in &record.commands {
        let at =
            |why: String| Failure::new(2, format!("{}:{line}: `{command}` {why}", path.display()));
        let seat =
            next_seat(game).ok_or_else(|| at("comes after the end of the game".to_owned()))?;
        events.clear();
        game.apply_into(seat, command, &mut events).map_err(|e| {
            if e.ruling().0 == 30 {
                at(format!(
                    "cannot be played: {e}; give more rolls with --dice"
                ))
            } else {
                at(format!("is illegal: {e}"))
            }
        })?;
        if let Some(log) = log.as_deref_mut() {
            log_command(log, game, &line.to_string(), command, &events);
        }
    }
    Ok(())
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

/// Lets bots play their seats until the game ends or a seat without a bot
/// is to act; each seat's bot is seeded with `seat_seed(bot_seed, seat)`
/// and the number of commands given so far, so that a game replays
/// identically. Returns the commands played, logged as `play` prints them.
pub fn play_bots<G: GameState>(
    game: &mut G,
    bots: &[Option<Bot>],
    bot_seed: u64,
    log: &mut String,
) -> Vec<G::Command> {
    use rand::SeedableRng;
    let mut played = Vec::new();
    let mut events = Vec::new();
    while let Some(seat) = next_seat(game) {
        let Some(bot) = bots.get(seat.index()).copied().flatten() else {
            break;
        };
        let seed = sandtable_core::game::seat_seed(bot_seed, seat)
            .wrapping_add((played.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let command = match bot {
            Bot::Random => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                sandtable_bots::contract::random(game, seat, &mut rng)
            }
            Bot::Mcts(iterations) => sandtable_bots::contract::mcts(game, seat, iterations, seed),
        }
        .expect("a seat to act has a legal command");
        events.clear();
        game.apply_into(seat, &command, &mut events)
            .expect("bots give legal commands");
        played.push(command);
        let label = format!("{} ({bot})", game.seat_name(seat));
        let _ = writeln!(log, "{:>4}  {command:<16}{label}", played.len());
        for e in &events {
            let _ = writeln!(log, "        {}", game.describe(e));
        }
    }
    played
}

/// What `play` prints at the end: the JSON view of `viewer`, or the log
/// followed by that view.
pub fn output<G: GameState>(game: &G, viewer: Viewer, json: bool, log: &str) -> String {
    let mut view = game.view_json(viewer);
    view.push('\n');
    if json {
        return view;
    }
    format!("{log}\n{view}")
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
        headers.push((DICE_HEADER.to_owned(), dice::write_rolls(script.used())));
    }
    let mut record = Record::from_commands(commands);
    record.headers = headers;
    record
}
