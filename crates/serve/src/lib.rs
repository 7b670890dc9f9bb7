//! `sandtable-serve`: one game of any rule system, served over UDP to the
//! players' tables and headless clients, encrypted and authenticated
//! (netcode's secure mode). The server holds the whole game and sends
//! each seat only what it may see (`sandtable-net`); it holds a private
//! key, writes one invitation a seat and one a spectator's place, each a
//! connect token it minted with that key, seats the bots it is told to,
//! and writes the referee's record after every accepted command, the
//! key and the codes with it, so that a stopped server resumes from it
//! and its invitations still hold. The binary runs it alone; a table hosting a
//! game (`sandtable --host`) runs it on a thread of its own.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::RepliconRenetPlugins;
use clap::Parser;
use sandtable_bots::{BotConfig, MAX_STRENGTH, Plays};
use sandtable_cli::replay::{check_turn_limit, load_record, record_headers, start};
use sandtable_cli::{Failure, Front, Seeing, with_front};
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, Ending, GameState, Seat, Viewer, seat_seed};
use sandtable_core::record::{Record, SeatPlayer, header, read_seats, write_seats};
use sandtable_core::text::path_shown;
use sandtable_core::wire::Wire;
use sandtable_net::invite::{self, Invitation, Minter, Place};
use sandtable_net::{Bots, Hosted, Limits, ServePlugin, Serving, Watching, udp};
use sandtable_scenario::files;

/// The server's command line: `sandtable-serve SCENARIO --port N ...`.
#[derive(Parser, Debug, Clone)]
#[command(
    long_about = None,
    name = "sandtable-serve",
    version,
    about = "Serve one game of a scenario to the players' tables: each seat is sent only what it may see"
)]
pub struct Args {
    /// Scenario file (.ron)
    pub scenario: PathBuf,
    /// The UDP port to listen on (0: a free one, printed)
    #[arg(long)]
    pub port: u16,
    /// The address to listen on: 127.0.0.1 for this machine alone, 0.0.0.0 for every network it is on (then name --public)
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub listen: IpAddr,
    /// The address players connect to, as HOST:PORT (repeatable; default: the address listened on)
    #[arg(long = "public", value_name = "HOST:PORT")]
    pub public: Vec<SocketAddr>,
    /// The referee's record, written after every accepted command; where the file holds a game of this scenario, the game resumes from it (default: a new file in the data folder)
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// A bot for a seat, as PLAYER=BOT: PLAYER is the player's index from 0, BOT a strength from 1 to 5 or random (1), greedy (2), mcts (5) (repeatable)
    #[arg(long = "bot", value_name = "PLAYER=BOT")]
    pub bots: Vec<String>,
    /// Turns after which the game is a draw (default: the record's, else the scenario's)
    #[arg(long)]
    pub turn_limit: Option<u32>,
    /// The folder the invitations are written to (default: beside the record, in a folder named after it)
    #[arg(long, value_name = "DIR")]
    pub invitations: Option<PathBuf>,
    /// Connections that may wait to claim a seat or a spectator's place at once; each has 5 s
    #[arg(long, default_value_t = Limits::default().unclaimed, value_name = "N")]
    pub max_unclaimed: usize,
    /// Spectators at once
    #[arg(long, default_value_t = Limits::default().spectators, value_name = "N")]
    pub max_spectators: usize,
}

impl Args {
    /// Who may watch, and how many may wait and watch, as given.
    fn limits(&self) -> Limits {
        Limits {
            unclaimed: self.max_unclaimed,
            spectators: self.max_spectators,
        }
    }
}

/// The header of the seats' join codes: in the referee's record alone,
/// never in the record sent to the players at the end.
const CODES: &str = "Codes";

/// The header of the spectator code: in the referee's record alone.
const WATCH: &str = "WatchCode";

/// The header of the server's private key, which mints the invitations
/// and the fresh tokens: in the referee's record alone, so that a server
/// started again from it takes the invitations it gave before.
const KEY: &str = "ServerKey";

/// The header of a sealed decision's commands not yet revealed, each as
/// `SEAT COMMAND`, separated by `;`: in the referee's record alone, so
/// that a server started again holds what was committed.
const SEALED: &str = "Sealed";

/// Letters of a join code: no two that a person could mistake for each
/// other (no `0`/`o`, `1`/`l`/`i`).
const CODE_LETTERS: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// Letters a code has: 10 letters of 31 is about 50 bits.
const CODE_LENGTH: usize = 10;

/// How often the server's loop runs: a command reaches the other
/// client in about this long (docs/network.md has the figures).
pub const TICK: Duration = Duration::from_millis(8);

/// Bytes from the operating system's generator.
fn os_bytes<const N: usize>() -> Result<[u8; N], Failure> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| {
        Failure::new(
            1,
            format!("no randomness from the operating system for the codes and the seed: {e}"),
        )
    })?;
    Ok(bytes)
}

/// One join code a seat, drawn from the operating system.
fn new_codes(seats: usize) -> Result<Vec<String>, Failure> {
    (0..seats).map(|_| new_code()).collect()
}

/// A private key drawn from the operating system.
fn new_key() -> Result<[u8; 32], Failure> {
    invite::new_key().map_err(|e| Failure::new(1, format!("{e}: no key for the server")))
}

/// A join code drawn from the operating system.
fn new_code() -> Result<String, Failure> {
    let bytes = os_bytes::<CODE_LENGTH>()?;
    // 256 is not a multiple of 31: the first letters are a little
    // likelier, which costs a fraction of a bit.
    let letters: String = bytes
        .iter()
        .map(|b| char::from(CODE_LETTERS[usize::from(*b) % CODE_LETTERS.len()]))
        .collect();
    Ok(format!("{}-{}", &letters[..5], &letters[5..]))
}

/// Who may watch: those with `code`, which every spectator's invitation
/// carries (nobody comes in without an invitation).
fn watching(code: &str) -> Watching {
    Watching::Code(code.to_owned())
}

/// Reads the `[Codes]` header: one code a seat, separated by spaces.
fn read_codes(text: &str, seats: usize) -> Result<Vec<String>, String> {
    let codes: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
    if codes.len() != seats {
        return Err(format!("{} codes for a game of {seats} seats", codes.len()));
    }
    if let Some(bad) = codes
        .iter()
        .find(|c| c.len() > sandtable_net::MAX_CODE_BYTES)
    {
        return Err(format!("the code `{bad}` is too long"));
    }
    Ok(codes)
}

/// Reads `PLAYER=BOT` for a game of `players` seats: each seat's player.
fn read_bots(specs: &[String], players: usize) -> Result<Vec<SeatPlayer>, Failure> {
    let mut seats = vec![SeatPlayer::Person; players];
    for spec in specs {
        let bad = |why: String| Failure::new(1, format!("--bot {spec}: {why}"));
        let (player, bot) = spec
            .split_once('=')
            .ok_or_else(|| bad("write PLAYER=BOT, for example 1=mcts".to_owned()))?;
        let player: usize = player
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{player}` is not a player index")))?;
        let level = match bot.trim() {
            "random" => 1,
            "greedy" => 2,
            "mcts" => MAX_STRENGTH,
            n => n
                .parse::<u8>()
                .ok()
                .filter(|l| (1..=MAX_STRENGTH).contains(l))
                .ok_or_else(|| {
                    bad(format!(
                        "`{n}` is not a bot: give a strength from 1 to {MAX_STRENGTH}, or random, greedy or mcts"
                    ))
                })?,
        };
        let seat = seats.get_mut(player).ok_or_else(|| {
            bad(format!(
                "the scenario has {players} players, numbered 0 to {}",
                players - 1
            ))
        })?;
        if *seat != SeatPlayer::Person {
            return Err(bad(format!("player {player} already has a bot")));
        }
        *seat = SeatPlayer::Bot(level);
    }
    Ok(seats)
}

/// The data folder for records with no file named: `SANDTABLE_DATA_DIR`
/// when set, else the platform's data folder for Sandtable, as the table
/// has it, in a folder `served`.
fn served_folder() -> PathBuf {
    let base = std::env::var_os("SANDTABLE_DATA_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            directories::ProjectDirs::from("", "", "Sandtable").map(|d| d.data_dir().to_path_buf())
        })
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("served")
}

/// A new record's path in the data folder: the scenario's name and the
/// time, and a number where that is taken.
fn new_record_path(scenario: &Path) -> Result<PathBuf, Failure> {
    let folder = served_folder();
    std::fs::create_dir_all(&folder).map_err(|e| {
        Failure::new(
            1,
            format!("{}: cannot make the folder: {e}", path_shown(&folder)),
        )
    })?;
    let stem = scenario
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy());
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    (0..1000)
        .map(|n| match n {
            0 => folder.join(format!("{stem}-{secs}.moves")),
            n => folder.join(format!("{stem}-{secs}-{n}.moves")),
        })
        .find(|p| !p.exists())
        .ok_or_else(|| Failure::new(1, format!("{}: no free name", path_shown(&folder))))
}

/// What the server starts from: a new game, or the record's.
struct Opening<G: GameState> {
    hosted: Hosted<G>,
    codes: Vec<String>,
    /// The spectator code.
    watch_code: String,
    /// The server's private key.
    key: [u8; 32],
    seats: Vec<SeatPlayer>,
    seed: u64,
    resumed: usize,
}

/// A new game of the scenario, seeded from the operating system.
fn new_game<F: Front>(front: &F, args: &Args, path: &Path) -> Result<Opening<F::Game>, Failure>
where
    F::Game: Wire,
{
    let seed = u64::from_le_bytes(os_bytes::<8>()?);
    let limit = args.turn_limit.or(front.turn_limit());
    let game = front
        .start(seed, limit, Dice::seeded(seed))
        .map_err(|e| Failure::new(1, format!("{}: {e}", path_shown(&args.scenario))))?;
    let seats = read_bots(&args.bots, front.seats())?;
    let codes = new_codes(front.seats())?;
    let watch_code = new_code()?;
    let key = new_key()?;
    let mut headers = record_headers(front, &args.scenario, path, seed, limit);
    headers.push((header::SEATS.to_owned(), write_seats(&seats)));
    Ok(Opening {
        hosted: Hosted::new(game, codes.clone())
            .with_admission(watching(&watch_code), args.limits())
            .with_headers(headers)
            .with_rules(front.rules()),
        codes,
        watch_code,
        key,
        seats,
        seed,
        resumed: 0,
    })
}

/// The game a record at `path` holds, played up to its end: refused
/// when it is a game of another scenario (its content hash is not this
/// one's), so that a record is never overwritten by another game.
fn resumed<F: Front>(front: &F, args: &Args, path: &Path) -> Result<Opening<F::Game>, Failure>
where
    F::Game: Wire,
{
    // What game the file holds, from its headers, before its commands
    // are read in this system's notation: a record of another system
    // would otherwise be refused for its first command.
    let text =
        sandtable_scenario::records::read_text(path).map_err(|e| Failure::new(1, e.to_string()))?;
    let pinned = |key: &str| front.pins().into_iter().find(|(k, _)| k == key);
    if let Some((_, hash)) = pinned(header::SCENARIO_HASH) {
        let headers = sandtable_core::record::leading_headers(&text);
        let found = headers
            .iter()
            .find(|(k, _)| k == header::SCENARIO_HASH)
            .map(|(_, v)| v.as_str());
        let why = match found {
            Some(h) if h == hash => None,
            Some(_) => Some(format!(
                "its [{}] header is another scenario's",
                header::SCENARIO_HASH
            )),
            None if text.trim().is_empty() => Some("the file is empty".to_owned()),
            None => Some(format!(
                "it has no [{}] header to say which scenario it is a game of",
                header::SCENARIO_HASH
            )),
        };
        if let Some(why) = why {
            return Err(Failure::new(
                1,
                format!(
                    "{}: not a game of {} ({why}): give --save another file",
                    path_shown(path),
                    path_shown(&args.scenario),
                ),
            ));
        }
    }
    let record = load_record(path, front)?;
    let (game, seed) = start(
        front,
        &record,
        path,
        None,
        args.turn_limit,
        &Seeing::default(),
    )?;
    let seats = match (args.bots.is_empty(), record.header(header::SEATS)) {
        (true, Some(text)) => read_seats(text, front.seats(), MAX_STRENGTH).map_err(|e| {
            Failure::new(2, format!("{}: [{}]: {e}", path_shown(path), header::SEATS))
        })?,
        _ => read_bots(&args.bots, front.seats())?,
    };
    let codes = match record.header(CODES) {
        Some(text) => read_codes(text, front.seats())
            .map_err(|e| Failure::new(2, format!("{}: [{CODES}]: {e}", path_shown(path))))?,
        None => new_codes(front.seats())?,
    };
    let watch_code = match record.header(WATCH) {
        Some(text) => read_codes(text, 1)
            .map_err(|e| Failure::new(2, format!("{}: [{WATCH}]: {e}", path_shown(path))))?
            .remove(0),
        None => new_code()?,
    };
    let key = match record.header(KEY) {
        Some(text) => invite::read_key(text)
            .map_err(|e| Failure::new(2, format!("{}: [{KEY}]: {e}", path_shown(path))))?,
        None => new_key()?,
    };
    let limit = args.turn_limit.or(record
        .header_number::<u32>(header::TURN_LIMIT)
        .ok()
        .flatten()
        .or(front.turn_limit()));
    let mut headers = record_headers(front, &args.scenario, path, seed, limit);
    headers.push((header::SEATS.to_owned(), write_seats(&seats)));
    let mut hosted = Hosted::new(game, codes.clone())
        .with_admission(watching(&watch_code), args.limits())
        .with_headers(headers)
        .with_rules(front.rules());
    let commands = record.command_list();
    hosted.resume(&commands).map_err(|(k, why)| {
        let line = record.commands.get(k).map_or(0, |(line, _)| *line);
        Failure::new(2, format!("{}:{line}: {why}", path_shown(path)))
    })?;
    if let Some(text) = record.header(SEALED) {
        let bad = |e: String| Failure::new(2, format!("{}: [{SEALED}]: {e}", path_shown(path)));
        let sealed = read_sealed(text, front.seats()).map_err(bad)?;
        hosted.resume_sealed(&sealed).map_err(bad)?;
    }
    Ok(Opening {
        hosted,
        codes,
        watch_code,
        key,
        seats,
        seed,
        resumed: commands.len(),
    })
}

/// Where the record is written, and the revision last written.
#[derive(Resource)]
struct Saving {
    path: PathBuf,
    codes: String,
    watch_code: String,
    /// The private key, as its header holds it.
    key: String,
    written: Option<u32>,
    over: bool,
}

/// The referee's record: the players' (`Hosted::record_file`) with the
/// codes, the commands of a sealed decision not yet revealed, and with
/// scripted dice the rolls still to come as well as those used (R30).
fn record_to_write<G: GameState + Wire>(
    hosted: &Hosted<G>,
    codes: &str,
    watch_code: &str,
    key: &str,
) -> Record<G::Command> {
    let mut record = hosted.record_file();
    // The whole script: a game resumed from the file has its rolls still.
    if let Some(script) = hosted.game().dice().script() {
        let all = [script.used(), script.remaining()].concat();
        for (key, value) in &mut record.headers {
            if key == header::DICE {
                *value = sandtable_core::dice::write_rolls(&all);
            }
        }
    }
    record.headers.push((CODES.to_owned(), codes.to_owned()));
    record
        .headers
        .push((WATCH.to_owned(), watch_code.to_owned()));
    record.headers.push((KEY.to_owned(), key.to_owned()));
    if !hosted.sealed().is_empty() {
        let sealed: Vec<String> = hosted
            .sealed()
            .iter()
            .map(|(seat, command)| format!("{} {command}", seat.0))
            .collect();
        record.headers.push((SEALED.to_owned(), sealed.join("; ")));
    }
    record
}

/// Reads the `[Sealed]` header: each command with its seat.
fn read_sealed<C: std::str::FromStr>(text: &str, seats: usize) -> Result<Vec<(Seat, C)>, String>
where
    C::Err: std::fmt::Display,
{
    text.split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|entry| {
            let (seat, command) = entry
                .split_once(' ')
                .ok_or_else(|| format!("`{entry}` is not SEAT COMMAND"))?;
            let seat: u16 = seat
                .parse()
                .ok()
                .filter(|s| usize::from(*s) < seats)
                .ok_or_else(|| format!("`{seat}` is not a seat of {seats}"))?;
            let command = command
                .parse()
                .map_err(|e| format!("`{command}` is not a command: {e}"))?;
            Ok((Seat(seat), command))
        })
        .collect()
}

/// Writes the record when a command was accepted or taken back since it
/// was last written; says so once when the game is over.
fn save<G: GameState + Wire>(hosted: Res<Hosted<G>>, mut saving: ResMut<Saving>) {
    if saving.written == Some(hosted.revision()) {
        return;
    }
    let record = record_to_write(&hosted, &saving.codes, &saving.watch_code, &saving.key);
    // The file as it was before the server began is kept as a backup;
    // later writes replace the server's own.
    let backups = match saving.written {
        None => files::Backups::Keep,
        Some(_) => files::Backups::None,
    };
    let written = sandtable_scenario::records::text_to_write(&record).and_then(|text| {
        files::write_atomically(&saving.path, text.as_bytes(), backups).map_err(|e| e.to_string())
    });
    match written {
        Ok(_) => saving.written = Some(hosted.revision()),
        Err(e) => {
            // Tried again at the next change; the game goes on.
            error!(
                "{}: the record is not written: {e}",
                path_shown(&saving.path)
            );
            saving.written = Some(hosted.revision());
        }
    }
    if !saving.over
        && let Decision::Over(ending) = hosted.game().decision()
    {
        saving.over = true;
        let how = match ending {
            Ending::Won(seat) => format!("{} wins", hosted.game().seat_name(seat)),
            Ending::Draw(why) => format!("a draw: {why}"),
        };
        println!(
            "the game is over: {how}; its record is in {}",
            path_shown(&saving.path)
        );
    }
}

/// A seat of the served game, as the host tells the players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatShown {
    /// The player's name.
    pub name: String,
    /// Who plays it: a person, with the code to claim it, or a bot.
    pub player: SeatPlayer,
    /// The seat's join code (a bot's seat has one too, unused).
    pub code: String,
    /// A person's invitation, and the file it is written to.
    pub invitation: Option<(Invitation, PathBuf)>,
}

/// A server ready to run: its app, and what the host tells the players.
pub struct Prepared {
    /// The server's app: [`App::run`] serves until the process ends.
    pub app: App,
    /// The address it listens on.
    pub listening: SocketAddr,
    /// The scenario's title.
    pub title: String,
    /// The seats, in order.
    pub seats: Vec<SeatShown>,
    /// Where the referee's record is written.
    pub record: PathBuf,
    /// Commands the record held when the game resumed from it.
    pub resumed: usize,
    /// Who may watch: with the spectator code, or anyone.
    pub watching: Watching,
    /// How many may wait and watch.
    pub limits: Limits,
    /// The spectators' invitations, one a spectator's place, and where
    /// each is written.
    pub spectators: Vec<(Invitation, PathBuf)>,
    /// What mints more invitations: the server's key and addresses.
    pub minter: Minter,
}

impl Prepared {
    /// What the host tells the players, a line each: the address, each
    /// seat's code or bot, and where the record is.
    pub fn lines(&self, scenario: &Path) -> Vec<String> {
        let mut lines = vec![format!(
            "{}: serving {} on {} (UDP, encrypted: each player joins with the invitation written for their seat)",
            self.title,
            path_shown(scenario),
            self.listening
        )];
        for (k, seat) in self.seats.iter().enumerate() {
            lines.push(match (&seat.player, &seat.invitation) {
                (SeatPlayer::Bot(level), _) => format!("seat {k}, {}: bot {level}", seat.name),
                (SeatPlayer::Person, Some((_, path))) => {
                    format!("seat {k}, {}: invitation {}", seat.name, path_shown(path))
                }
                (SeatPlayer::Person, None) => format!("seat {k}, {}: no invitation", seat.name),
            });
        }
        for (_, path) in &self.spectators {
            lines.push(format!("spectator: invitation {}", path_shown(path)));
        }
        let until = self
            .seats
            .iter()
            .filter_map(|s| s.invitation.as_ref())
            .chain(&self.spectators)
            .map(|(i, _)| i.expires())
            .min();
        if let Some(until) = until {
            lines.push(format!(
                "each invitation lets one person in, until {}; give each to its player alone (sandtable --join FILE)",
                invite::utc_time(until)
            ));
        }
        if self.resumed > 0 {
            lines.push(format!("resumed after {} commands", self.resumed));
        }
        lines.push(format!(
            "the referee's record: {} (written after every command)",
            path_shown(&self.record)
        ));
        lines
    }
}

/// How the server logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Logging {
    /// The server is the process: it sets up the log, with netcode's
    /// per-datagram lines left out.
    Own,
    /// The server runs inside another app (a table hosting the game),
    /// whose log it shares.
    Shared,
}

/// The scenario at `args.scenario`, loaded and made a server on its
/// port, ready to run: a new game, or the game of the record `--save`
/// names.
pub fn prepare(args: &Args, logging: Logging) -> Result<Prepared, Failure> {
    with_front!(&args.scenario, |front| prepare_front(front, args, logging))
}

fn prepare_front<F: Front>(front: &F, args: &Args, logging: Logging) -> Result<Prepared, Failure>
where
    F::Game: Wire + Plays,
{
    check_turn_limit(front, args.turn_limit)?;
    let address = SocketAddr::new(args.listen, args.port);
    if args.listen.is_unspecified() && args.public.is_empty() {
        return Err(Failure::new(
            1,
            format!(
                "--listen {}: name the address players connect to with --public HOST:PORT",
                args.listen
            ),
        ));
    }
    let (path, opening) = match &args.save {
        Some(path) => {
            files::refuse_output_over_input(path, [args.scenario.as_path()])
                .map_err(|e| Failure::new(1, e))?;
            let opening = if path.exists() {
                resumed(front, args, path)?
            } else {
                new_game(front, args, path)?
            };
            (path.clone(), opening)
        }
        None => {
            let path = new_record_path(&args.scenario)?;
            let opening = new_game(front, args, &path)?;
            (path, opening)
        }
    };

    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(TICK)),
        StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
        RepliconRenetPlugins,
    ));
    if logging == Logging::Own {
        app.add_plugins(bevy::log::LogPlugin {
            // Netcode logs every datagram it drops as an error, and renet
            // every long view sent in fragments as a warning: garbage
            // would flood the log, so these are left out (the server's
            // own refusals are counted and logged once a minute).
            filter: "info,renetcode=off,renet::channel::unreliable=error".to_owned(),
            ..Default::default()
        });
    }
    sandtable_net::protocol(&mut app);
    let Opening {
        hosted,
        codes,
        watch_code,
        key,
        seats,
        seed,
        resumed,
    } = opening;
    let bot_seats: Vec<Seat> = (0..seats.len())
        .filter(|&k| seats[k] != SeatPlayer::Person)
        .map(|k| Seat(k as u16))
        .collect();
    if !bot_seats.is_empty() {
        let levels = seats.clone();
        let mut given = 0u64;
        app.insert_resource(Bots::<F::Game>::new(bot_seats, move |game, seat| {
            let SeatPlayer::Bot(level) = levels[seat.index()] else {
                return None;
            };
            // Seeded by the game's seed, the seat and the commands given,
            // as the CLI's bots are.
            let seed =
                seat_seed(seed, seat).wrapping_add(given.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            given += 1;
            sandtable_bots::decide(game, seat, &BotConfig::strength(level, seed)).map(|d| d.command)
        }));
    }
    let shown: Vec<SeatShown> = (0..seats.len())
        .map(|k| SeatShown {
            name: hosted.game().seat_name(Seat(k as u16)).to_owned(),
            player: seats[k],
            code: codes[k].clone(),
            invitation: None,
        })
        .collect();
    // The scenario each table is built from, as its viewer may know it.
    let for_seats = (0..seats.len())
        .map(|k| front.scenario_for(&hosted.game().masked(Viewer::Player(Seat(k as u16)))))
        .collect();
    let public = front.scenario_for(&hosted.game().masked(Viewer::Public));
    // The scenario whole, for every seat at the end, with the record.
    let whole = std::fs::read_to_string(&args.scenario)
        .map_err(|e| Failure::new(1, format!("{}: {e}", path_shown(&args.scenario))))?;
    let hosted = hosted
        .with_scenarios(for_seats, public)
        .with_whole_scenario(whole);
    app.insert_resource(hosted)
        .insert_resource(Saving {
            path: path.clone(),
            codes: codes.join(" "),
            watch_code: watch_code.clone(),
            key: invite::key_text(&key),
            written: None,
            over: false,
        })
        .add_plugins(ServePlugin::<F::Game>::default())
        .add_systems(Update, save::<F::Game>.after(Serving));
    app.finish();
    app.cleanup();
    let listening = udp::listen_with_key(&mut app, address, &args.public, key)
        .map_err(|e| Failure::new(1, format!("cannot listen on {address}: {e}")))?;
    let reached_at = if args.public.is_empty() {
        vec![listening]
    } else {
        args.public.clone()
    };
    let minter = Minter::new(key, reached_at, front.title());
    let folder = args
        .invitations
        .clone()
        .unwrap_or_else(|| invitations_folder(&path));
    let now = udp::since_epoch();
    let mut seats = shown;
    for (k, seat) in seats.iter_mut().enumerate() {
        if seat.player == SeatPlayer::Person {
            let invitation = minter
                .invite(Place::Seat(k as u16), &seat.code, now)
                .map_err(|e| Failure::new(1, e))?;
            let file = folder.join(format!("seat-{k}-{}.invite", file_word(&seat.name)));
            write_invitation(&file, &invitation)?;
            seat.invitation = Some((invitation, file));
        }
    }
    let mut spectators = Vec::new();
    for n in 1..=args.limits().spectators {
        let invitation = minter
            .invite(Place::Watch, &watch_code, now)
            .map_err(|e| Failure::new(1, e))?;
        let file = folder.join(format!("spectator-{n}.invite"));
        write_invitation(&file, &invitation)?;
        spectators.push((invitation, file));
    }
    Ok(Prepared {
        app,
        listening,
        title: front.title().to_owned(),
        seats,
        record: path,
        resumed,
        watching: watching(&watch_code),
        limits: args.limits(),
        spectators,
        minter,
    })
}

/// The folder of a record's invitations when `--invitations` names none:
/// beside it, named after it.
fn invitations_folder(record: &Path) -> PathBuf {
    let stem = record
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy());
    record.with_file_name(format!("{stem}-invitations"))
}

/// A player's name as a word of a file's name: letters and digits, the
/// rest dashes.
fn file_word(name: &str) -> String {
    let word: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let word = word.trim_matches('-');
    if word.is_empty() {
        "player".to_owned()
    } else {
        word.to_owned()
    }
}

/// Writes an invitation's file (made afresh each time the server starts),
/// readable by its owner alone where the system has owners.
fn write_invitation(path: &Path, invitation: &Invitation) -> Result<(), Failure> {
    let failed = |e: String| {
        Failure::new(
            1,
            format!("{}: the invitation is not written: {e}", path_shown(path)),
        )
    };
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|e| failed(e.to_string()))?;
    }
    files::write_atomically(
        path,
        invitation.file_text().as_bytes(),
        files::Backups::None,
    )
    .map_err(|e| failed(e.to_string()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| failed(e.to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_of_the_letters_and_differ() {
        let codes = new_codes(2).expect("randomness");
        assert_eq!(codes.len(), 2);
        assert_ne!(codes[0], codes[1]);
        for c in &codes {
            assert_eq!(c.len(), CODE_LENGTH + 1);
            assert!(
                c.bytes()
                    .filter(|b| *b != b'-')
                    .all(|b| CODE_LETTERS.contains(&b))
            );
        }
        assert_eq!(read_codes(&codes.join(" "), 2), Ok(codes.clone()));
        assert!(read_codes(&codes[0], 2).is_err());
    }

    #[test]
    fn bots_are_read_by_strength_or_kind_and_mistakes_say_why() {
        let seats =
            |specs: &[&str]| read_bots(&specs.iter().map(|s| s.to_string()).collect::<Vec<_>>(), 2);
        assert_eq!(
            seats(&["1=mcts"]).expect("read"),
            [SeatPlayer::Person, SeatPlayer::Bot(MAX_STRENGTH)]
        );
        assert_eq!(
            seats(&["0=3", "1=random"]).expect("read"),
            [SeatPlayer::Bot(3), SeatPlayer::Bot(1)]
        );
        let why = |specs: &[&str]| seats(specs).expect_err("refused").message;
        assert!(why(&["2=mcts"]).contains("numbered 0 to 1"));
        assert!(why(&["1=9"]).contains("strength from 1 to 5"));
        assert!(why(&["1=mcts", "1=greedy"]).contains("already has a bot"));
        assert!(why(&["mcts"]).contains("PLAYER=BOT"));
    }
}
