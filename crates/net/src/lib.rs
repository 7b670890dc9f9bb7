//! Sandtable across two desktops: a server that holds the game and sends
//! each seat only what it may see, on replicon over renet's netcode.
//!
//! Generic over the game contract (`sandtable_core::game::GameState`),
//! so that every rule system is served by one code path. The server is
//! authoritative: a client sends a command as text ([`Play`]); the server
//! reads it in the system's notation, checks it as the client's seat and
//! applies it, or sends the refusal to that client alone ([`Refused`]).
//!
//! What a seat may know lives on one entity of its own ([`SeatView`]: its
//! masked game as bytes and its legal commands), spawned with the
//! visibility filter [`SeatOnly`]: replicon sends that entity only to the
//! client that claimed the seat with its code ([`Claim`], [`Admitted`]),
//! and to nobody before. One more entity ([`PublicView`]) holds what every
//! player sees alike, for seats and spectators ([`AdmittedOnly`]): the
//! public's game and who sits where. A connection that holds no place
//! sees nothing and is dropped soon ([`admission`]). Nothing is replicated a piece at a time, so
//! no entity's existence tells a secret. The logs, which grow with the
//! game, travel as messages of their changed lines ([`LogLines`]) to the
//! clients that may read them.

pub mod admission;
pub mod client_door;
pub mod door;
pub mod invite;
pub mod udp;

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use sandtable_core::game::{Decision, GameState, Seat, Viewer, next_seat};
use sandtable_core::record::Record;
use sandtable_core::undo::Undoable;
use sandtable_core::wire::{Wire, write};
use serde::{Deserialize, Serialize};

pub use admission::{
    Admission, Admitted, AdmittedOnly, Arrived, CLAIM_WITHIN, Kind, Limits, Watching,
};

/// The longest command a client may send, in bytes.
pub const MAX_PLAY_BYTES: usize = 256;

/// The longest seat code a client may send, in bytes.
pub const MAX_CODE_BYTES: usize = 64;

/// How often the server logs how many things it refused, when it refused
/// any since.
pub const REFUSALS_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// The server's count of refusals as last logged.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RefusalsLogged {
    /// The total refused when the last line was logged.
    pub total: u64,
    /// Lines logged.
    pub lines: u32,
    /// When the last count was made, on the real clock.
    at: std::time::Duration,
}

/// A client asks for a place, or gives up the one it holds: one message
/// kind, so that what a client asks in one update is taken in the order
/// it was asked.
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// A seat, with the code the server printed for it.
    Seat {
        /// The seat, from 0.
        seat: u16,
        /// Its code.
        code: String,
    },
    /// A spectator's place, with the spectator code (empty where the
    /// host allows open watching).
    Watch {
        /// The spectator code.
        code: String,
    },
    /// Gives up the place it holds: a seat's view is no longer sent to
    /// it, and the seat waits for whoever comes with its code. A client
    /// without a place is dropped [`CLAIM_WITHIN`] later unless it
    /// claims another.
    Leave,
}

/// A client plays a command of its seat, in the system's move notation.
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Play {
    /// The command, at most [`MAX_PLAY_BYTES`] bytes.
    pub text: String,
}

/// A client takes back its seat's last command: only while no other seat
/// has played since, and never past a roll or a reveal (R31).
#[derive(Message, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo;

/// The server tells one client why it did not take what it sent: the
/// ruling's words for a refused command.
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// Why, in plain words.
    pub text: String,
}

/// The server tells one client why it is dropping its connection: it
/// holds no place, or the place it asked for is full. A client told so
/// does not connect again by itself ([`udp::JoinPlugin`]).
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct TurnedAway {
    /// Why, in plain words.
    pub text: String,
}

/// The server gives a connected client a fresh connect token of its
/// place, over the encrypted channel, for its next connection: a token
/// names one client id and is bound to the first address that uses it,
/// so a table whose connection dropped comes back with this one
/// ([`udp::JoinPlugin`]), from whatever address it has then. Sent by a
/// server with a private key alone ([`invite::Minter`]).
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Renewal {
    /// The token, as netcode writes it ([`invite::token_bytes`]).
    pub token: Vec<u8>,
}

/// Whose log a [`LogLines`] changes.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogOf {
    /// A seat's, as it may read it: sent to the client holding the seat.
    Seat(u16),
    /// The public's: sent to every client.
    Public,
}

/// A change of a log: its lines from `from` on, a line a command or
/// event, replaced by `lines`. A client is sent the whole log (`from` 0)
/// when it connects (the public's) or takes a seat (the seat's), then
/// only what changed: the new lines, or the lines of a sealed decision
/// read again in full once it is revealed, or those an undo took back.
/// The log is not on the replicated views, which are sent whole at each
/// change: it grows with the game.
#[derive(Message, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct LogLines {
    /// Whose log.
    pub of: LogOf,
    /// The first line replaced.
    pub from: u32,
    /// The lines from there on.
    pub lines: Vec<String>,
    /// The change of the game ([`SeatView::revision`]) when the lines
    /// were sent: a log that a change left as it was is not sent again.
    pub revision: u32,
}

/// The logs a client has been sent, as [`LogLines`] made them
/// ([`ViewPlugin`] keeps them).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Logs {
    /// The log of the seat the client holds, if it holds one.
    pub seat: Vec<String>,
    /// The public's.
    pub public: Vec<String>,
    /// The [`LogLines::revision`] of the last lines received.
    pub revision: u32,
}

/// A client's side of the views: it keeps the logs it is sent ([`Logs`]).
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Logs>()
            .add_systems(PreUpdate, keep_logs.after(ClientSystems::Receive));
    }
}

fn keep_logs(mut changes: MessageReader<LogLines>, mut logs: ResMut<Logs>) {
    for change in changes.read() {
        let log = match change.of {
            LogOf::Seat(_) => &mut logs.seat,
            LogOf::Public => &mut logs.public,
        };
        let from = (change.from as usize).min(log.len());
        log.truncate(from);
        log.extend(change.lines.iter().cloned());
        logs.revision = change.revision;
    }
}

/// The scenario a client's table is built from, as a scenario file: on a
/// seat's entity as that seat may know it (its setup the seat's masked
/// copy's), on the public one as everyone may. Sent once: it does not
/// change during a game.
#[derive(Component, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ScenarioText(pub String);

/// What a seat may know: replicated to the client holding the seat alone.
#[derive(Component, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    /// The seat.
    pub seat: u16,
    /// The game masked for the seat (`GameState::masked`), as bytes
    /// (`sandtable_core::wire::write`).
    pub game: Vec<u8>,
    /// The seat's legal commands now, in the notation; empty when it owes
    /// no decision.
    pub legal: Vec<String>,
    /// Changes so far, commands and undos: a client sees the view change.
    pub revision: u32,
}

/// Where a seat stands in the decision now, as everyone may know it:
/// never what it decided.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owing {
    /// It owes nothing now.
    Nothing,
    /// It owes the decision now: its move, or a sealed decision it has
    /// not committed.
    Decision,
    /// It has committed its part of a sealed decision that others still
    /// owe.
    Committed,
}

/// Who sits at a seat, as everyone may know it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SeatStatus {
    /// The player's name.
    pub name: String,
    /// A bot the server seats plays it.
    pub bot: bool,
    /// A client holds it now (a person's seat; a bot's is always held).
    pub held: bool,
    /// Where it stands in the decision now.
    pub owing: Owing,
}

/// What every player sees alike: replicated to every client.
#[derive(Component, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct PublicView {
    /// The rule system, as the table names it (`cache`, `warpspawn`,
    /// `frontiers`): how to read `game`.
    pub rules: String,
    /// Each seat: who sits there, and whose decision it is.
    pub seats: Vec<SeatStatus>,
    /// The game masked for the public, as bytes.
    pub game: Vec<u8>,
    /// Changes so far, commands and undos.
    pub revision: u32,
    /// Once the game is over, its record (the move notation, with the
    /// headers the server was given): every secret is out by then.
    pub record: Option<String>,
    /// Once the game is over, the scenario the record is played on, whole
    /// (as the referee's file holds it), so that every seat may replay the
    /// record and look back at it as its referee.
    pub scenario: Option<String>,
}

/// The visibility filter of a seat's entity: visible to a client seated
/// there, to no other.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(immutable)]
pub struct SeatOnly(pub u16);

/// On a client's entity on the server: it has sent nothing for a while
/// (`udp` marks it after [`udp::SILENCE`]), so the seat it holds shows as
/// not held until it is heard from again. Its seat stays its own.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Silent;

impl VisibilityFilter for SeatOnly {
    type ClientComponent = Admitted;
    type Scope = Entity;

    fn is_visible(&self, _client: Entity, admitted: Option<&Admitted>) -> bool {
        admitted.and_then(Admitted::seat) == Some(self.0)
    }
}

/// The protocol both ends register, in the same order: messages, the
/// replicated components, the visibility filter; and in replicon's
/// protocol hash, this build of Sandtable and its encoding of games, so
/// that a client of another version is told so when it connects.
pub fn protocol(app: &mut App) {
    protocol_of(app, sandtable_core::record::ENGINE);
}

/// Netcode's protocol id for this build: the build (`ENGINE`) and the
/// encoding's version, so that netcode itself refuses a client of another
/// version.
pub fn protocol_id() -> u64 {
    protocol_id_of(sandtable_core::record::ENGINE)
}

fn protocol_id_of(engine: &str) -> u64 {
    let mut h = sandtable_core::hash::Mix::new();
    for chunk in engine.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h.u64(u64::from_le_bytes(word));
    }
    h.u64(engine.len() as u64);
    h.u64(u64::from(sandtable_core::wire::ENCODING));
    h.finish()
}

/// [`protocol`] as the build `engine` registers it.
#[doc(hidden)]
pub fn protocol_of(app: &mut App, engine: &str) {
    let mut hasher = app.world_mut().resource_mut::<ProtocolHasher>();
    hasher.add_custom(engine);
    hasher.add_custom(sandtable_core::wire::ENCODING);
    app.add_client_message::<Claim>(Channel::Ordered)
        .add_client_message::<Play>(Channel::Ordered)
        .add_client_message::<Undo>(Channel::Ordered)
        .add_server_message::<Refused>(Channel::Ordered)
        .add_server_message::<TurnedAway>(Channel::Ordered)
        .add_server_message::<Renewal>(Channel::Ordered)
        .add_server_message::<LogLines>(Channel::Ordered)
        .replicate::<SeatView>()
        .replicate::<PublicView>()
        .replicate::<ScenarioText>()
        .add_visibility_filter::<SeatOnly>()
        .add_visibility_filter::<AdmittedOnly>();
}

/// One line of the game's log: a command of a seat, an event it caused,
/// or a command taken back, each read again for every viewer whenever
/// the views are made (a sealed order revealed since reads in full).
enum Entry<G: GameState> {
    Command(Seat, G::Command),
    Event(G::Event),
    Undone(Seat, G::Command),
}

/// The game the server holds, with who may come in and its log.
#[derive(Resource)]
pub struct Hosted<G: GameState> {
    game: Undoable<G>,
    /// The seats' codes, who may watch, and how many may wait and watch:
    /// the server's [`Admission`] from its start.
    admission: Admission,
    log: Vec<Entry<G>>,
    /// Where each command still undoable starts in `log`.
    starts: Vec<usize>,
    /// The record: every command with its seat, sealed decisions in seat
    /// order.
    record: Vec<(Seat, G::Command)>,
    /// Commands of a sealed decision not yet revealed, as they came.
    sealed: Vec<(Seat, G::Command)>,
    revision: u32,
    refusals: u64,
    /// The record's headers (scenario, pins, seed ...).
    headers: Vec<(String, String)>,
    /// The rule system's name, for [`PublicView::rules`].
    rules: String,
    /// The scenario each seat's table is built from, then the public's.
    scenarios: Option<(Vec<String>, String)>,
    /// The scenario whole, sent to everyone with the record at the end.
    whole: Option<String>,
}

impl<G: GameState + Wire> Hosted<G> {
    /// A game to serve, one code a seat (`codes[k]` claims seat `k`),
    /// open to watch without a code, with the default [`Limits`].
    pub fn new(game: G, codes: Vec<String>) -> Hosted<G> {
        Hosted {
            game: Undoable::new(game),
            admission: Admission::new(codes, Watching::Open, Limits::default()),
            log: Vec::new(),
            starts: Vec::new(),
            record: Vec::new(),
            sealed: Vec::new(),
            revision: 0,
            refusals: 0,
            headers: Vec::new(),
            rules: String::new(),
            scenarios: None,
            whole: None,
        }
    }

    /// The same, with the scenario whole (the referee's file), sent to
    /// everyone with the record once the game is over
    /// ([`PublicView::scenario`]).
    pub fn with_whole_scenario(mut self, whole: String) -> Hosted<G> {
        self.whole = Some(whole);
        self
    }

    /// The same, with the scenario each seat's table is built from
    /// (`seats[k]` for seat `k`, as that seat may know it) and the
    /// public's ([`ScenarioText`]).
    pub fn with_scenarios(mut self, seats: Vec<String>, public: String) -> Hosted<G> {
        self.scenarios = Some((seats, public));
        self
    }

    /// The same, watched by those `watching` lets in, and with `limits`.
    pub fn with_admission(mut self, watching: Watching, limits: Limits) -> Hosted<G> {
        self.admission.watching = watching;
        self.admission.limits = limits;
        self
    }

    /// The same, its rule system named as the table names it (`cache`,
    /// `warpspawn`, `frontiers`), so that a client without the scenario
    /// reads its game.
    pub fn with_rules(mut self, rules: &str) -> Hosted<G> {
        self.rules = rules.to_owned();
        self
    }

    /// Each seat's status, with the seats a client holds and the bots'.
    fn statuses(&self, held: &[bool], bots: &[Seat]) -> Vec<SeatStatus> {
        let game = self.game();
        let committed: Vec<Seat> = self.sealed.iter().map(|(s, _)| *s).collect();
        (0..game.seats())
            .map(|k| {
                let seat = Seat(k as u16);
                let owing = match game.decision() {
                    Decision::One(s) if s == seat => Owing::Decision,
                    Decision::Sealed(owing) if owing.contains(seat) => Owing::Decision,
                    Decision::Sealed(_) if committed.contains(&seat) => Owing::Committed,
                    _ => Owing::Nothing,
                };
                let bot = bots.contains(&seat);
                SeatStatus {
                    name: game.seat_name(seat).to_owned(),
                    bot,
                    held: bot || held.get(k).copied().unwrap_or(false),
                    owing,
                }
            })
            .collect()
    }

    /// The same, with the headers its record is written with.
    pub fn with_headers(mut self, headers: Vec<(String, String)>) -> Hosted<G> {
        self.headers = headers;
        self
    }

    /// Plays a record's commands, each as the seat that acts next (a
    /// sealed decision's are in seat order): a game resumed. Stops at the
    /// first command refused, with its place (from 0) and why.
    pub fn resume(&mut self, commands: &[G::Command]) -> Result<(), (usize, String)> {
        for (k, command) in commands.iter().enumerate() {
            let seat = next_seat(self.game()).ok_or_else(|| (k, "the game is over".to_owned()))?;
            self.play_command(seat, *command).map_err(|e| (k, e))?;
        }
        Ok(())
    }

    /// Changes so far: commands played and taken back. It grows by one
    /// with each.
    pub fn revision(&self) -> u32 {
        self.revision
    }

    /// The commands of a sealed decision not yet revealed, with their
    /// seats, as they came: the referee's file keeps them, so that a
    /// server started again holds what was committed.
    pub fn sealed(&self) -> &[(Seat, G::Command)] {
        &self.sealed
    }

    /// Plays the commands of a sealed decision not yet revealed, each as
    /// its seat's, after [`Hosted::resume`]; why not, at the first refused.
    pub fn resume_sealed(&mut self, commands: &[(Seat, G::Command)]) -> Result<(), String> {
        for (seat, command) in commands {
            self.play_command(*seat, *command)?;
        }
        Ok(())
    }

    /// The record so far as a file holds it: the headers, the rolls used
    /// where the dice are scripted (R30), then [`Hosted::record`].
    pub fn record_file(&self) -> Record<G::Command> {
        let mut record = Record::from_commands(self.record.iter().map(|(_, c)| *c));
        record.headers = self.headers.clone();
        if let Some(script) = self.game().dice().script() {
            record.headers.push((
                sandtable_core::record::header::DICE.to_owned(),
                sandtable_core::dice::write_rolls(script.used()),
            ));
        }
        record
    }

    /// The game as the server holds it: everything, the referee's.
    pub fn game(&self) -> &G {
        self.game.game()
    }

    /// The record so far: every command with its seat, in the order it
    /// was played, except that the commands of a sealed decision are
    /// written in seat order once it is revealed, whatever order they
    /// came in (the record's convention); commands of a decision still
    /// sealed are not in it.
    pub fn record(&self) -> &[(Seat, G::Command)] {
        &self.record
    }

    /// How many things clients sent that the server did not take.
    pub fn refusals(&self) -> u64 {
        self.refusals
    }

    /// The log as `viewer` may read it now.
    pub fn log_for(&self, viewer: Viewer) -> Vec<String> {
        let game = self.game();
        self.log
            .iter()
            .filter_map(|e| match e {
                Entry::Command(seat, command) => game.command_for(*seat, command, viewer),
                Entry::Event(event) => game.describe_for(event, viewer),
                Entry::Undone(seat, command) => Some(
                    game.command_for(*seat, command, viewer)
                        .map_or_else(|| "undo".to_owned(), |c| format!("undo {c}")),
                ),
            })
            .collect()
    }

    /// What seat `seat` may know now.
    fn seat_view(&self, seat: u16) -> SeatView {
        let viewer = Viewer::Player(Seat(seat));
        let mut legal = Vec::new();
        self.game().legal_into(Seat(seat), &mut legal);
        SeatView {
            seat,
            game: write(&self.game().masked(viewer)),
            legal: legal.iter().map(|l| l.command.to_string()).collect(),
            revision: self.revision,
        }
    }

    /// What every player sees alike now, with the seats a client holds
    /// and the bots'.
    fn public_view(&self, held: &[bool], bots: &[Seat]) -> PublicView {
        let over = matches!(self.game().decision(), Decision::Over(_));
        PublicView {
            rules: self.rules.clone(),
            seats: self.statuses(held, bots),
            game: write(&self.game().masked(Viewer::Public)),
            revision: self.revision,
            record: over.then(|| self.record_file().to_string()),
            scenario: self.whole.clone().filter(|_| over),
        }
    }

    /// Reads, checks and applies `text` as `seat`'s command; why not.
    pub fn play(&mut self, seat: Seat, text: &str) -> Result<(), String> {
        if text.len() > MAX_PLAY_BYTES {
            return Err(format!(
                "a command is at most {MAX_PLAY_BYTES} bytes; this one is {}",
                text.len()
            ));
        }
        let command: G::Command = text
            .trim()
            .parse()
            .map_err(|e| format!("`{}` is not a command: {e}", text.trim()))?;
        self.play_command(seat, command)
    }

    /// Checks and applies `command` as `seat`'s; why not.
    pub fn play_command(&mut self, seat: Seat, command: G::Command) -> Result<(), String> {
        self.game()
            .check(seat, &command)
            .map_err(|e| format!("`{command}` is refused: {e}"))?;
        let mut events = Vec::new();
        let sealed_before = match self.game().decision() {
            Decision::Sealed(seats) => Some(seats),
            _ => None,
        };
        let applied = self
            .game
            .apply_into(seat, &command, &mut events)
            .map_err(|e| format!("`{command}` is refused: {e}"))?;
        if let Some(before) = sealed_before {
            self.sealed.push((seat, command));
            // The decision goes on while the seats that owe it only
            // dwindle; once none owes, or others owe a new one, it was
            // revealed: written in seat order, each seat's in its order.
            let going_on = match self.game().decision() {
                Decision::Sealed(after) => after.0 & !before.0 == 0,
                _ => false,
            };
            if !going_on {
                self.sealed.sort_by_key(|(s, _)| *s);
                self.record.append(&mut self.sealed);
            }
        } else {
            self.record.push((seat, command));
        }
        // Undo stops at a barrier: the lines before it are kept for good.
        if applied.barrier.is_some() {
            self.starts.clear();
        } else {
            self.starts.push(self.log.len());
        }
        self.log.push(Entry::Command(seat, command));
        self.log.extend(events.into_iter().map(Entry::Event));
        self.revision += 1;
        Ok(())
    }

    /// Takes back `seat`'s last command (R31): refused where another seat
    /// has played since or undo stops before it, with the reason.
    fn undo(&mut self, seat: Seat) -> Result<(), String> {
        // At the end the record went to everyone, seed and all: the game
        // may not go on.
        if matches!(self.game().decision(), Decision::Over(_)) {
            return Err("the game is over: nothing is taken back".to_owned());
        }
        match self.game.last() {
            Some((last, _)) if last != seat => {
                return Err("another seat has played since your last command".to_owned());
            }
            _ => {}
        }
        let command = self.game.undo()?;
        // The command's lines go, up to the lines of commands taken back
        // since, which stay.
        if let Some(start) = self.starts.pop() {
            let end = self.log[start..]
                .iter()
                .position(|e| matches!(e, Entry::Undone(..)))
                .map_or(self.log.len(), |k| start + k);
            self.log.drain(start..end);
        }
        // The last command came last: the last of a sealed decision still
        // sealed, or the record's last.
        if self.sealed.pop().is_none() {
            self.record.pop();
        }
        self.log.push(Entry::Undone(seat, command));
        self.revision += 1;
        Ok(())
    }
}

/// How a bot decides: a seat's command in the game, or none.
pub type Decide<G> = dyn FnMut(&G, Seat) -> Option<<G as GameState>::Command> + Send + Sync;

/// The bots the server seats, and how they decide: a seat's command in
/// the game as the referee holds it, or `None` when it has none. A bot
/// thinks on a thread of its own, so that the server answers its clients
/// meanwhile (a client takes a server silent for 2 s as gone).
#[derive(Resource)]
pub struct Bots<G: GameState> {
    seats: Vec<Seat>,
    decide: std::sync::Arc<std::sync::Mutex<Box<Decide<G>>>>,
    /// A bot that had no command, or gave one the game refused: it plays
    /// no more, and the server says so once.
    stuck: Option<String>,
    /// The bot thinking now: its seat, the game's revision it thinks in,
    /// and where its command comes.
    thinking: Option<Thinking<G>>,
}

/// A bot's decision under way on its thread.
struct Thinking<G: GameState> {
    seat: Seat,
    revision: u32,
    answer: std::sync::Mutex<std::sync::mpsc::Receiver<Option<G::Command>>>,
}

impl<G: GameState> Bots<G> {
    /// Bots on `seats`, deciding with `decide`.
    pub fn new(
        seats: Vec<Seat>,
        decide: impl FnMut(&G, Seat) -> Option<G::Command> + Send + Sync + 'static,
    ) -> Bots<G> {
        Bots {
            seats,
            decide: std::sync::Arc::new(std::sync::Mutex::new(Box::new(decide))),
            stuck: None,
            thinking: None,
        }
    }

    /// The bot seat that owes a decision now, if any.
    fn to_act(&self, game: &G) -> Option<Seat> {
        match game.decision() {
            Decision::One(seat) => self.seats.contains(&seat).then_some(seat),
            Decision::Sealed(owing) => owing.iter().find(|s| self.seats.contains(s)),
            Decision::Over(_) => None,
        }
    }
}

/// The systems of [`ServePlugin`], in order: a server adds what follows a
/// change (writing the record) after them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Serving;

/// The server's side of the game `G`: claims, plays and the views.
pub struct ServePlugin<G>(std::marker::PhantomData<G>);

impl<G> Default for ServePlugin<G> {
    fn default() -> Self {
        ServePlugin(std::marker::PhantomData)
    }
}

impl<G: GameState + Wire> Plugin for ServePlugin<G> {
    fn build(&self, app: &mut App) {
        app.init_resource::<RefusalsLogged>()
            .add_systems(Startup, spawn_views::<G>)
            .add_systems(
                Update,
                (
                    admission::stamp_arrivals,
                    seat_clients::<G>,
                    admission::drop_unclaimed,
                    admission::tell_door,
                    admission::renew,
                    play::<G>,
                    undo::<G>,
                    play_bots::<G>,
                    refresh_views::<G>,
                    send_logs::<G>,
                    log_refusals::<G>,
                )
                    .chain()
                    .in_set(Serving),
            );
    }

    fn finish(&self, app: &mut App) {
        // Who may come in, as the game was hosted: read by the claims
        // and by the door before a packet is read.
        let admission = app
            .world()
            .get_resource::<Hosted<G>>()
            .map(|h| h.admission.clone());
        if let Some(admission) = admission {
            app.insert_resource(admission);
        }
    }
}

/// One entity a seat, each seen by its seat alone, and the public one.
fn spawn_views<G: GameState + Wire>(
    mut commands: Commands,
    hosted: Res<Hosted<G>>,
    bots: Option<Res<Bots<G>>>,
) {
    let seats = hosted.game().seats();
    // Each in one bundle with its view: the filter holds from the start.
    let text = |k: Option<usize>| {
        hosted.scenarios.as_ref().and_then(|(seats, public)| {
            k.map_or(Some(public), |k| seats.get(k))
                .map(|t| ScenarioText(t.clone()))
        })
    };
    for seat in 0..seats as u16 {
        let view = (Replicated, SeatOnly(seat), hosted.seat_view(seat));
        match text(Some(usize::from(seat))) {
            Some(scenario) => commands.spawn((view, scenario)),
            None => commands.spawn(view),
        };
    }
    let bots = bots.map_or(Vec::new(), |b| b.seats.clone());
    let view = (
        Replicated,
        AdmittedOnly,
        hosted.public_view(&vec![false; seats], &bots),
    );
    match text(None) {
        Some(scenario) => commands.spawn((view, scenario)),
        None => commands.spawn(view),
    };
}

/// What the server does about clients' places: refusals and logs sent
/// them, the backend's disconnections, and their entities' places.
#[derive(bevy::ecs::system::SystemParam)]
struct Replies<'w, 's> {
    refused: MessageWriter<'w, ToClients<Refused>>,
    turned: MessageWriter<'w, ToClients<TurnedAway>>,
    logs: MessageWriter<'w, ToClients<LogLines>>,
    disconnects: MessageWriter<'w, DisconnectRequest>,
    commands: Commands<'w, 's>,
}

/// What a client asked for, once its code was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    Seat(u16),
    Watch,
    Leave,
}

/// Gives each connection the place it asks for: on arrival, the place
/// its code says (the door read it from the connection; without a door,
/// none, which is a spectator's place where watching is open), then each
/// [`Claim`] in the order it came. A seat goes to its newest claim; the
/// connection that held it watches where there is room, else is
/// dropped. A wrong code is refused to its sender. Each client is sent
/// the logs its new place reads, whole, and the logs it no longer reads
/// emptied.
fn seat_clients<G: GameState + Wire>(
    time: Res<Time<Real>>,
    arrivals: Query<(Entity, &admission::Came), Added<AuthorizedClient>>,
    clients: Query<(Entity, Option<&Admitted>), With<ConnectedClient>>,
    admission: Res<Admission>,
    mut claims: MessageReader<FromClient<Claim>>,
    mut hosted: ResMut<Hosted<G>>,
    replies: Replies,
) {
    let Replies {
        mut refused,
        mut turned,
        mut logs,
        mut disconnects,
        mut commands,
    } = replies;
    let before: BTreeMap<Entity, Option<Admitted>> =
        clients.iter().map(|(e, a)| (e, a.copied())).collect();
    let mut asks: Vec<(Entity, Ask)> = Vec::new();
    for (client, came) in &arrivals {
        match came.kind {
            Kind::Seat(k) => asks.push((client, Ask::Seat(k))),
            Kind::Spectator => asks.push((client, Ask::Watch)),
            Kind::Stranger => {}
        }
    }
    for FromClient { client_id, message } in claims.read() {
        let ClientId::Client(client) = *client_id else {
            continue;
        };
        let ask = match message {
            Claim::Seat { seat, code } if admission.is_seat_code(*seat, code) => Ask::Seat(*seat),
            Claim::Seat { seat, .. } => {
                let text = format!("no seat {seat} with that code");
                refuse(&mut hosted, &mut refused, *client_id, text);
                continue;
            }
            Claim::Watch { code } if admission.kind_of(code) == Kind::Spectator => Ask::Watch,
            Claim::Watch { .. } => {
                let text = match admission.watching {
                    Watching::Open => "watching takes no code".to_owned(),
                    Watching::Code(_) => "that is not the spectator code".to_owned(),
                };
                refuse(&mut hosted, &mut refused, *client_id, text);
                continue;
            }
            Claim::Leave => Ask::Leave,
        };
        asks.push((client, ask));
    }
    if asks.is_empty() {
        return;
    }
    let mut places = before.clone();
    let mut full: Vec<(Entity, String)> = Vec::new();
    let spectators = |places: &BTreeMap<Entity, Option<Admitted>>, except: Entity| {
        places
            .iter()
            .filter(|(e, p)| **e != except && **p == Some(Admitted::Watching))
            .count()
    };
    for (client, ask) in asks {
        if !places.contains_key(&client) {
            continue;
        }
        match ask {
            Ask::Seat(k) => {
                let earlier: Vec<Entity> = places
                    .iter()
                    .filter(|(e, p)| **e != client && **p == Some(Admitted::Seat(k)))
                    .map(|(e, _)| *e)
                    .collect();
                places.insert(client, Some(Admitted::Seat(k)));
                for other in earlier {
                    let room = spectators(&places, other) < admission.limits.spectators;
                    places.insert(other, room.then_some(Admitted::Watching));
                    if !room {
                        full.push((
                            other,
                            format!("seat {k} was claimed from another connection"),
                        ));
                    }
                }
            }
            Ask::Watch => {
                if spectators(&places, client) < admission.limits.spectators {
                    places.insert(client, Some(Admitted::Watching));
                } else {
                    full.push((
                        client,
                        format!(
                            "the server's {} spectator places are taken",
                            admission.limits.spectators
                        ),
                    ));
                }
            }
            Ask::Leave => {
                places.insert(client, None);
            }
        }
    }
    for (client, why) in full {
        // Out, once told why.
        if places.get(&client).is_some_and(Option::is_none) {
            turned.write(ToClients {
                targets: SendTargets::Single(ClientId::Client(client)),
                message: TurnedAway { text: why },
            });
            disconnects.write(DisconnectRequest { client });
        }
    }
    for (client, now) in places {
        let was = before.get(&client).copied().flatten();
        if was == now {
            continue;
        }
        let to = ClientId::Client(client);
        if let Some(seat) = was.and_then(|w| w.seat()) {
            logs.write(clear_log(client, LogOf::Seat(seat)));
        }
        match now {
            Some(place) => {
                commands.entity(client).insert(place);
                if was.is_none() {
                    logs.write(whole_log(to, LogOf::Public, &hosted));
                }
                if let Some(seat) = place.seat() {
                    logs.write(whole_log(to, LogOf::Seat(seat), &hosted));
                }
            }
            None => {
                commands
                    .entity(client)
                    .remove::<Admitted>()
                    .insert(admission::Arrived(time.elapsed()));
                logs.write(clear_log(client, LogOf::Public));
            }
        }
    }
}

/// The whole log `of`, as its readers may read it now, for `to`; what
/// changes later comes as it changes ([`send_logs`]).
fn whole_log<G: GameState + Wire>(
    to: ClientId,
    of: LogOf,
    hosted: &Hosted<G>,
) -> ToClients<LogLines> {
    let viewer = match of {
        LogOf::Seat(seat) => Viewer::Player(Seat(seat)),
        LogOf::Public => Viewer::Public,
    };
    ToClients {
        targets: SendTargets::Single(to),
        message: LogLines {
            of,
            from: 0,
            lines: hosted.log_for(viewer),
            revision: hosted.revision,
        },
    }
}

/// Sends each log's change to the clients that read it: the public's to
/// every seat and spectator, a seat's to the clients holding the seat;
/// only the lines from the first that changed. A client newly admitted
/// was sent the whole logs it reads ([`seat_clients`]).
fn send_logs<G: GameState + Wire>(
    hosted: Res<Hosted<G>>,
    clients: Query<(Entity, &Admitted)>,
    mut sent: Local<Option<SentLogs>>,
    mut sent_revision: Local<Option<u32>>,
    mut logs: MessageWriter<ToClients<LogLines>>,
) {
    let seats = hosted.game().seats();
    let (sent_seats, sent_public) =
        sent.get_or_insert_with(|| (vec![Vec::new(); seats], Vec::new()));
    let mut send = |targets: SendTargets, of: LogOf, from: usize, lines: &[String]| {
        logs.write(ToClients {
            targets,
            message: LogLines {
                of,
                from: from as u32,
                lines: lines.to_vec(),
                revision: hosted.revision,
            },
        });
    };
    // Only a command or an undo changes a log (a refusal changes the
    // server's count alone).
    if *sent_revision != Some(hosted.revision) {
        *sent_revision = Some(hosted.revision);
        let public = hosted.log_for(Viewer::Public);
        if let Some(from) = changed_from(sent_public, &public) {
            for (client, _) in &clients {
                let to = SendTargets::Single(ClientId::Client(client));
                send(to, LogOf::Public, from, &public[from..]);
            }
            *sent_public = public;
        }
        for (k, sent_seat) in sent_seats.iter_mut().enumerate() {
            let log = hosted.log_for(Viewer::Player(Seat(k as u16)));
            let Some(from) = changed_from(sent_seat, &log) else {
                continue;
            };
            for (client, admitted) in &clients {
                if admitted.seat().map(usize::from) == Some(k) {
                    let to = SendTargets::Single(ClientId::Client(client));
                    send(to, LogOf::Seat(k as u16), from, &log[from..]);
                }
            }
            *sent_seat = log;
        }
    }
}

/// The logs last sent: each seat's, and the public's.
type SentLogs = (Vec<Vec<String>>, Vec<String>);

/// Where `new` first differs from `old`, if it does.
fn changed_from(old: &[String], new: &[String]) -> Option<usize> {
    let same = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    (same < old.len() || same < new.len()).then_some(same)
}

/// Empties the log `of` on a client that no longer reads it.
fn clear_log(client: Entity, of: LogOf) -> ToClients<LogLines> {
    ToClients {
        targets: SendTargets::Single(ClientId::Client(client)),
        message: LogLines {
            of,
            from: 0,
            lines: Vec::new(),
            revision: 0,
        },
    }
}

/// Sets a bot thinking where a bot seat owes a decision, on a thread of
/// its own, and plays its command once it comes, one an update: the
/// network keeps flowing while a bot thinks and between its commands. A
/// command thought for a game that changed meanwhile (a person's undo)
/// is dropped, and the bot thinks again.
fn play_bots<G: GameState + Wire>(bots: Option<ResMut<Bots<G>>>, mut hosted: ResMut<Hosted<G>>) {
    let Some(mut bots) = bots else {
        return;
    };
    if bots.stuck.is_some() {
        return;
    }
    let answered = match &bots.thinking {
        None => None,
        Some(t) => {
            let answer = t
                .answer
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .try_recv();
            match answer {
                Ok(command) => Some((t.seat, t.revision, command)),
                Err(std::sync::mpsc::TryRecvError::Empty) => return,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    Some((t.seat, t.revision, None))
                }
            }
        }
    };
    let Some((seat, revision, command)) = answered else {
        if let Some(seat) = bots.to_act(hosted.game()) {
            let (tell, answer) = std::sync::mpsc::channel();
            let game = hosted.game().clone();
            let decide = std::sync::Arc::clone(&bots.decide);
            std::thread::spawn(move || {
                let mut decide = decide.lock().unwrap_or_else(|e| e.into_inner());
                let _ = tell.send((decide)(&game, seat));
            });
            bots.thinking = Some(Thinking {
                seat,
                revision: hosted.revision(),
                answer: std::sync::Mutex::new(answer),
            });
        }
        return;
    };
    bots.thinking = None;
    if revision != hosted.revision() || bots.to_act(hosted.game()) != Some(seat) {
        return;
    }
    let name = hosted.game().seat_name(seat).to_owned();
    let outcome = match command {
        Some(command) => hosted.play_command(seat, command),
        None => Err("it has no legal command".to_owned()),
    };
    if let Err(why) = outcome {
        let why = format!("the bot of {name} stopped: {why}");
        warn!("{why}");
        bots.stuck = Some(why);
    }
}

/// Plays each seated client's command as its seat's; a refusal goes to
/// that client alone.
fn play<G: GameState + Wire>(
    mut plays: MessageReader<FromClient<Play>>,
    seated: Query<&Admitted>,
    mut hosted: ResMut<Hosted<G>>,
    mut refused: MessageWriter<ToClients<Refused>>,
) {
    for FromClient { client_id, message } in plays.read() {
        let outcome = match seat_of(*client_id, &seated) {
            Some(seat) => hosted.play(seat, &message.text),
            None => Err("claim a seat with its code before playing".to_owned()),
        };
        if let Err(text) = outcome {
            refuse(&mut hosted, &mut refused, *client_id, text);
        }
    }
}

/// Takes back a seated client's last command; a refusal goes to that
/// client alone.
fn undo<G: GameState + Wire>(
    mut undos: MessageReader<FromClient<Undo>>,
    seated: Query<&Admitted>,
    mut hosted: ResMut<Hosted<G>>,
    mut refused: MessageWriter<ToClients<Refused>>,
) {
    for FromClient { client_id, .. } in undos.read() {
        let outcome = match seat_of(*client_id, &seated) {
            Some(seat) => hosted.undo(seat),
            None => Err("claim a seat with its code before taking a command back".to_owned()),
        };
        if let Err(text) = outcome {
            refuse(&mut hosted, &mut refused, *client_id, text);
        }
    }
}

/// The seat a client claimed, if it did.
fn seat_of(client_id: ClientId, seated: &Query<&Admitted>) -> Option<Seat> {
    match client_id {
        ClientId::Client(client) => seated.get(client).ok().and_then(Admitted::seat).map(Seat),
        ClientId::Server => None,
    }
}

/// Counts a refusal and sends its reason to its client alone.
fn refuse<G: GameState>(
    hosted: &mut Hosted<G>,
    refused: &mut MessageWriter<ToClients<Refused>>,
    client_id: ClientId,
    text: String,
) {
    hosted.refusals += 1;
    refused.write(ToClients {
        targets: SendTargets::Single(client_id),
        message: Refused { text },
    });
}

/// Logs the total refused every [`REFUSALS_EVERY`] when it grew: one
/// line a minute, however much garbage came.
fn log_refusals<G: GameState + Wire>(
    time: Res<Time<Real>>,
    hosted: Res<Hosted<G>>,
    mut logged: ResMut<RefusalsLogged>,
) {
    let now = time.elapsed();
    if now.saturating_sub(logged.at) < REFUSALS_EVERY {
        return;
    }
    logged.at = now;
    if hosted.refusals != logged.total {
        info!(
            "{} refused in all, {} in the last minute",
            hosted.refusals,
            hosted.refusals - logged.total
        );
        logged.total = hosted.refusals;
        logged.lines += 1;
    }
}

/// Makes every view again once a command was applied or taken back,
/// and the public one when a seat is taken or left.
fn refresh_views<G: GameState + Wire>(
    hosted: Res<Hosted<G>>,
    bots: Option<Res<Bots<G>>>,
    clients: Query<&Admitted, Without<Silent>>,
    mut last_held: Local<Option<Vec<bool>>>,
    mut seats: Query<&mut SeatView>,
    mut public: Query<&mut PublicView>,
) {
    let mut held = vec![false; hosted.game().seats()];
    for seat in clients.iter().filter_map(Admitted::seat) {
        if let Some(h) = held.get_mut(usize::from(seat)) {
            *h = true;
        }
    }
    let seating = last_held.as_ref() != Some(&held);
    if !hosted.is_changed() && !seating {
        return;
    }
    let bots = bots.map_or(Vec::new(), |b| b.seats.clone());
    for mut view in &mut seats {
        if view.revision != hosted.revision {
            *view = hosted.seat_view(view.seat);
        }
    }
    for mut view in &mut public {
        if view.revision != hosted.revision || seating {
            *view = hosted.public_view(&held, &bots);
        }
    }
    *last_held = Some(held);
}

/// For tests and measurements in one process: replicon's exchange
/// between a server app and a client app connected with
/// `bevy_replicon::test_app::ServerTestAppExt::connect_client`, which
/// hands `received` every message the client receives, as bytes.
pub fn exchange_seeing(server: &mut App, client: &mut App, mut received: impl FnMut(&[u8])) {
    let entity = **client
        .world()
        .resource::<bevy_replicon::test_app::TestClientEntity>();
    let mut client_messages = client.world_mut().resource_mut::<ClientMessages>();
    let mut server_messages = server.world_mut().resource_mut::<ServerMessages>();
    for (channel, message) in client_messages.drain_sent() {
        server_messages.insert_received(entity, channel, message);
    }
    server_messages.retain_sent(|(to, channel, message)| {
        if *to == entity {
            received(message);
            client_messages.insert_received(*channel, message.clone());
            false
        } else {
            true
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_build_has_another_netcode_protocol_id() {
        assert_eq!(protocol_id(), protocol_id());
        assert_ne!(protocol_id(), protocol_id_of("sandtable 0.0.0"));
    }
}
