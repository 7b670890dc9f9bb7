//! The game in play of any rule system: the contract's game with its undo
//! history, the setup it was started from, its record and log, the hot-seat
//! hand-over and what the system keeps beside it. Commands are played and
//! undone here, through the contract only.

use std::path::PathBuf;

use bevy::prelude::*;
use sandtable_bots::{Plays, Seen};
use sandtable_core::game::{GameState, Seat, Viewer, next_seat};
use sandtable_core::undo::Undoable;

use super::{LogLine, Notice, ScenarioSource, Seats, StartTurn};

/// A rule system on the table: its game, the setup its games start from,
/// and what the table keeps beside a game of it.
pub trait TableSystem: Sized + Send + Sync + 'static {
    /// The system's name on the table ([`super::open::OnTable`]).
    const KEY: &'static str;
    /// The system's game, through the contract, which its bots play.
    type Game: sandtable_bots::Plays;
    /// What a game starts from: a scenario, a battle.
    type Setup: Clone + Send + Sync + 'static;
    /// What the table keeps beside the game: the last dice rolled, the
    /// seats, the dice typed in.
    type Extra: Clone + Send + Sync + 'static;

    /// What a command played leaves beside the game, past the record and
    /// the log: `dice` are the game's dice before it, `events` what it
    /// caused. Nothing by default.
    fn after_play(
        active: &mut ActiveGame<Self>,
        seat: Seat,
        dice: &sandtable_core::dice::Dice,
        events: &[<Self::Game as GameState>::Event],
    ) {
        let _ = (active, seat, dice, events);
    }

    /// The seat the table is handed to after `seat` played and caused
    /// `events` (hot-seat), if it is handed over.
    fn hand_over(
        active: &ActiveGame<Self>,
        seat: Seat,
        events: &[<Self::Game as GameState>::Event],
    ) -> Option<Seat>;

    /// The message that plays a bot's command through the system's own
    /// flow ([`super::bots`]).
    type BotRequest: Message;

    /// The request that plays a bot's `command`.
    fn bot_request(command: <Self::Game as GameState>::Command) -> Self::BotRequest;

    /// The seed a bot's own choices are drawn from, with its seat mixed in
    /// ([`super::bots::bot_command`]).
    fn bot_seed(active: &ActiveGame<Self>) -> u64;

    /// How far the camera turns about the table, in radians, for `seat`
    /// to look from its own edge when the table shows its view (a
    /// hand-over taken, a person at that seat alone); `None` where the system's seats have no edges of their own to
    /// look from (the view stays as it is).
    fn seat_view(_game: &Self::Game, _seat: Seat) -> Option<f32> {
        None
    }

    /// Where `game` stands within its turn, as a number that changes from
    /// one phase to the next (a review steps a phase at a time): by
    /// default the seat that decides, so that a phase is a side's go.
    fn phase(game: &Self::Game) -> u32 {
        sandtable_core::game::next_seat(game).map_or(u32::MAX, |s| u32::from(s.0))
    }

    /// The colour of `seat`'s pieces, as the panel shows its name, for
    /// the review's curve; `None` leaves it the curve's own.
    fn seat_colour(active: &ActiveGame<Self>, seat: Seat) -> Option<[u8; 3]> {
        let _ = (active, seat);
        None
    }

    /// A position was put on the table in review
    /// ([`super::review`]): `replayed` is the revision its replay gave it
    /// (its marks are keyed to that), `stepped` the events of its last
    /// command when it is one command on from the position shown before,
    /// so that they show as in play. Nothing by default.
    fn shown_in_review(
        world: &mut World,
        replayed: u64,
        stepped: Option<Vec<<Self::Game as GameState>::Event>>,
    ) {
        let _ = (world, replayed, stepped);
    }

    /// Says that a game of the system was put on the table (its message
    /// that the table is built anew).
    fn loaded(world: &mut World);

    /// Takes what the table keeps for the system's game, besides the game,
    /// off the table when another system's game comes. Nothing by default.
    fn left(world: &mut World) {
        let _ = world;
    }

    /// A new game of the same setup, for **New game**: the game in play
    /// begun again from its setup, source and seed. By default the
    /// system cannot.
    fn new_game(active: &ActiveGame<Self>) -> Result<ActiveGame<Self>, String> {
        let _ = active;
        Err("this game cannot be started again here: open its file again".to_owned())
    }

    /// Whether layout mode stays on when another game of the system is
    /// opened in it (it edits the new one); by default layout mode ends.
    fn keeps_layout_on_open() -> bool {
        false
    }

    /// Whether a hand-over to `next` waits for a person to take the table,
    /// with these seats: by default when a person sits there (a bot takes
    /// its turn at once).
    fn waits_for(seats: &Seats, next: Seat) -> bool {
        seats.of(usize::from(next.0)) == super::Seat::Person
    }
}

/// A command of a system's game.
pub type CommandOf<S> = <<S as TableSystem>::Game as GameState>::Command;

/// The game in play of the system `S`: the contract's game, its setup and
/// its history.
#[derive(Resource)]
pub struct ActiveGame<S: TableSystem> {
    /// The game with its undo history (R31); changed only through
    /// [`ActiveGame::play`] and undo.
    pub game: Undoable<S::Game>,
    /// The setup it was started from.
    pub setup: S::Setup,
    /// Where that setup came from, for saved games.
    pub source: ScenarioSource,
    /// Every command played since the start, in the move notation.
    pub record: Vec<CommandOf<S>>,
    /// The log shown in the panel: commands and what they caused.
    pub log: Vec<LogLine>,
    /// The seat the table is being handed to, until it confirms (hot-seat).
    pub handover: Option<Seat>,
    /// Grows by one at every change of the game, so that the table follows.
    pub revision: u64,
    /// A number no other game of this run has, so that work begun for one
    /// game (a bot's thought, a hint) is never applied to another.
    pub id: u64,
    /// The game's own record file, where Save writes: the file it was
    /// opened from or last saved to; `None` until it has one.
    pub file: Option<PathBuf>,
    /// The commands that file holds, to tell whether moves are unsaved.
    pub saved: Vec<CommandOf<S>>,
    /// What the system keeps beside the game.
    pub extra: S::Extra,
    /// The game's dice as the table keeps them: real or not, and every
    /// roll (R30, [`super::dice`]).
    pub dice: super::dice::DiceBook,
    /// Who is looking at the table: the referee in a game that hides
    /// nothing, else the seat of the person at the table, which changes
    /// only when the table is handed over behind the curtain
    /// ([`ActiveGame::curtain`]). Everything the table shows of the game
    /// is what this viewer may see.
    pub viewer: Viewer,
    /// The log's lines that some player may not read yet: the line, the
    /// command it belongs to (its number in the record, from 1) and what it
    /// says, asked again after every command until every player may. The
    /// lines of a command undone stay as they were.
    hidden: Vec<(usize, usize, Entry<S::Game>)>,
    /// What each seat's bot has seen of the other seats' play, one a seat
    /// (`sandtable_bots::Seen`): the battle's search models its opponent's
    /// replies on it. What was seen stays seen when a command is undone.
    pub seen: Vec<Seen>,
    /// A game a server holds ([`super::remote`]): what the table asked of
    /// it and has not sent yet. The table changes nothing of such a game
    /// itself; each view the server sends replaces it. `None` for a game
    /// of this table's own.
    pub outbox: Option<Vec<super::remote::Outgoing>>,
    /// The game as it stood before its first command, kept when that
    /// command is played: where a review replays the record from
    /// ([`super::review`]).
    pub origin: Option<std::sync::Arc<ActiveGame<S>>>,
    /// On a position shown in review: the game the review was opened on,
    /// whole and unchanged, which closing the review puts back. Nothing
    /// is played or undone on a position in review; saving saves the
    /// game reviewed.
    pub reviewing: Option<Box<ActiveGame<S>>>,
}

/// Why nothing is played on a position shown in review.
pub const IN_REVIEW: &str =
    "the table shows a position in review: Play on from here to play from it, or close the review";

impl<S: TableSystem> Clone for ActiveGame<S> {
    fn clone(&self) -> Self {
        ActiveGame {
            game: self.game.clone(),
            setup: self.setup.clone(),
            source: self.source.clone(),
            record: self.record.clone(),
            log: self.log.clone(),
            handover: self.handover,
            revision: self.revision,
            id: self.id,
            file: self.file.clone(),
            saved: self.saved.clone(),
            extra: self.extra.clone(),
            dice: self.dice.clone(),
            viewer: self.viewer,
            hidden: self.hidden.clone(),
            seen: self.seen.clone(),
            outbox: self.outbox.clone(),
            origin: self.origin.clone(),
            reviewing: self.reviewing.clone(),
        }
    }
}

impl<S: TableSystem> ActiveGame<S> {
    /// A game just started: nothing played, no file of its own, handed to
    /// the seat that decides first.
    pub fn started(
        game: S::Game,
        setup: S::Setup,
        source: ScenarioSource,
        extra: S::Extra,
    ) -> Self {
        let first = next_seat(&game);
        let seen = vec![Seen::default(); game.seats()];
        let viewer = if game.hides() {
            Viewer::Player(first.unwrap_or(Seat(0)))
        } else {
            Viewer::Referee
        };
        ActiveGame {
            game: Undoable::new(game),
            setup,
            source,
            record: Vec::new(),
            log: Vec::new(),
            handover: first,
            revision: 0,
            id: super::next_game_id(),
            file: None,
            saved: Vec::new(),
            extra,
            dice: super::dice::DiceBook::default(),
            viewer,
            hidden: Vec::new(),
            seen,
            outbox: None,
            origin: None,
            reviewing: None,
        }
    }

    /// Whether leaving the game now would lose work: moves played (or
    /// undone) since it was last saved or opened, or a setup that has no
    /// file of its own.
    pub fn has_unsaved_work(&self) -> bool {
        // A game a server holds is the server's to keep: its record is
        // the server's file.
        if self.outbox.is_some() {
            return false;
        }
        if let Some(whole) = &self.reviewing {
            return whole.has_unsaved_work();
        }
        self.record != self.saved || self.source == ScenarioSource::Unsaved
    }

    /// Plays a command of the seat that decides now through the contract,
    /// keeping the record, the log, what the system keeps beside it and the
    /// hand-over; a refused command changes nothing and says why, with its
    /// ruling. Returns what it caused.
    /// The seat this table decides for now: in a served game, the table's
    /// own seat when it owes the decision (a sealed one is written at
    /// every owing table at once) and none otherwise; at one table, the
    /// seat to move.
    pub fn deciding_seat(&self) -> Option<Seat> {
        let game = self.game.game();
        if self.outbox.is_none() {
            return next_seat(game);
        }
        let Viewer::Player(seat) = self.viewer else {
            return None;
        };
        match game.decision() {
            sandtable_core::game::Decision::One(s) if s == seat => Some(seat),
            sandtable_core::game::Decision::Sealed(owing) if owing.contains(seat) => Some(seat),
            _ => None,
        }
    }

    pub fn play(
        &mut self,
        command: CommandOf<S>,
    ) -> Result<Vec<<S::Game as GameState>::Event>, String> {
        if self.reviewing.is_some() {
            return Err(IN_REVIEW.to_owned());
        }
        // A game a server holds: the command, checked as this table's
        // seat's on its copy, goes to the server, which sends the game
        // back changed, or why not.
        if let Some(outbox) = &mut self.outbox {
            let Viewer::Player(seat) = self.viewer else {
                return Err("this table watches the game: it holds no seat".to_owned());
            };
            self.game
                .game()
                .check(seat, &command)
                .map_err(|e| e.to_string())?;
            outbox.push(super::remote::Outgoing::Play(command.to_string()));
            return Ok(Vec::new());
        }
        // The start, kept for a review to replay the record from.
        if self.record.is_empty() && self.origin.is_none() {
            self.origin = Some(std::sync::Arc::new(self.clone()));
        }
        // Over, no seat decides: the rules say why nothing is played.
        let seat = next_seat(self.game.game()).unwrap_or(Seat(0));
        let dice = self.game.game().dice().clone();
        let as_greedy = self.game.game().as_greedy(seat, &command);
        let events = self.game.apply(seat, &command).map_err(|e| e.to_string())?;
        self.see(seat, as_greedy);
        self.dice
            .rolled
            .extend(self.game.game().dice().rolls_since(&dice));
        self.record.push(command);
        self.log_entry(command.to_string(), Entry::Command(seat, command));
        for event in &events {
            if self.game.logged(event) {
                self.log_entry(self.game.describe(event), Entry::Event(event.clone()));
            }
        }
        self.ask_hidden_again();
        S::after_play(self, seat, &dice, &events);
        if let Some(next) = S::hand_over(self, seat, &events) {
            self.handover = Some(next);
        }
        // A game that hides anything goes to the next person's seat only
        // behind the curtain.
        if self.game.game().hides()
            && let Some(next) = next_seat(self.game.game())
            && self.viewer != Viewer::Player(next)
        {
            self.handover = Some(next);
        }
        self.revision += 1;
        Ok(events)
    }

    /// What is at a place of the table, as the viewer may know it: the
    /// label under the pointer (`GameState::describe_spot`).
    pub fn describe(&self, spot: sandtable_core::game::Spot) -> Option<String> {
        self.game.game().describe_spot(spot, self.viewer)
    }

    /// Whether the curtain is up: a game that hides anything is being
    /// handed to another person, and the screen shows nothing of it until
    /// they take the table ([`super::StartTurn`]).
    pub fn curtain(&self) -> bool {
        self.handover.is_some() && self.game.game().hides()
    }

    /// Appends a line of the log: `text` as the referee reads it, and as
    /// each player may where the game hides anything.
    fn log_entry(&mut self, text: String, entry: Entry<S::Game>) {
        let mut line = LogLine::new(text, matches!(entry, Entry::Command(..)));
        if self.game.game().hides() {
            line.players = entry.as_players_read_it(self.game.game(), &line.text);
            if !line.players.is_empty() {
                self.hidden.push((self.log.len(), self.record.len(), entry));
            }
        }
        self.log.push(line);
    }

    /// Asks again how each player may read the lines some could not: a
    /// sealed order revealed since can now be read.
    fn ask_hidden_again(&mut self) {
        let game = self.game.game();
        let log = &mut self.log;
        self.hidden.retain(|(at, _, entry)| {
            let line = &mut log[*at];
            line.players = entry.as_players_read_it(game, &line.text);
            !line.players.is_empty()
        });
    }

    /// Lets every seat but `seat` see a command it played
    /// (`sandtable_bots::Plays::as_greedy`).
    fn see(&mut self, seat: Seat, as_greedy: Option<bool>) {
        for (s, seen) in self.seen.iter_mut().enumerate() {
            if s != seat.index() {
                seen.add(as_greedy);
            }
        }
    }

    /// What the bot of `seat` has seen of the other seats' play.
    pub fn seen_by(&self, seat: Seat) -> Seen {
        self.seen.get(seat.index()).copied().unwrap_or_default()
    }

    /// Drops a hand-over that nobody needs to take with these seats
    /// ([`TableSystem::waits_for`]), and keeps the viewer of a game that
    /// hides anything on a person's seat (a bot's seat is never the
    /// table's view while a person sits at the table).
    pub fn settle_handover(&mut self, seats: &Seats) {
        // A position in review is seen through the eyes chosen for it.
        if self.reviewing.is_some() {
            return;
        }
        if self.handover.is_some_and(|next| !S::waits_for(seats, next)) {
            self.handover = None;
        }
        if let Viewer::Player(seat) = self.viewer
            && seats.of(seat.index()) != super::Seat::Person
            && let Some(person) =
                (0..self.game.game().seats()).find(|&s| seats.of(s) == super::Seat::Person)
        {
            self.viewer = Viewer::Player(Seat(person as u16));
        }
    }

    /// The hand-over is confirmed: the seat it was made to plays now, and
    /// in a game that hides anything, the table shows that seat's view.
    pub fn take_table(&mut self) {
        if let Some(next) = self.handover.take()
            && self.game.game().hides()
        {
            self.viewer = Viewer::Player(next);
        }
    }

    /// Undo (R31): one command back, taken off the record and logged as
    /// `undo ...` (as each player may read the command); the notice says
    /// what was undone, as the viewer may read it, or, in the system's
    /// words, why undo stops. Whether it undid.
    pub fn undo(&mut self, notice: &mut Notice) -> bool {
        // A game a server holds: the server takes the command back (R31),
        // or says why not.
        if self.reviewing.is_some() {
            notice.error(IN_REVIEW);
            return false;
        }
        if let Some(outbox) = &mut self.outbox {
            outbox.push(super::remote::Outgoing::Undo);
            return false;
        }
        // How each player reads the command, asked of the game it left.
        let players = self.game.last().map(|(seat, command)| {
            Entry::<S::Game>::Command(seat, command)
                .as_players_read_it(self.game.game(), &command.to_string())
        });
        match self.game.undo() {
            Ok(command) => {
                self.record.pop();
                // What no player could read of the command undone is never
                // revealed: its lines stay as they are.
                let played = self.record.len();
                self.hidden.retain(|&(_, of, _)| of <= played);
                let text = command.to_string();
                let players = players.unwrap_or_default();
                // The command as the viewer may read it: a player who may
                // not reads that a command was undone.
                let seen = super::read_by(&players, &text, self.viewer).map(str::to_owned);
                let mut line = LogLine::new(format!("undo {text}"), true);
                line.players = players
                    .into_iter()
                    .map(|p| Some(p.map_or_else(|| "undo".to_owned(), |t| format!("undo {t}"))))
                    .collect();
                self.log.push(line);
                notice.info(match seen {
                    Some(command) => format!("undid `{command}`"),
                    None => "undid a command".to_owned(),
                });
                self.ask_hidden_again();
                // A game that hides anything goes to the seat that decides
                // again only behind the curtain: none when it is the
                // viewer's own.
                if self.game.game().hides() {
                    self.handover = next_seat(self.game.game())
                        .filter(|&next| self.viewer != Viewer::Player(next));
                } else if self.handover.is_some() && self.handover != next_seat(self.game.game()) {
                    // The command that handed the table over is taken back
                    // by the person still at it: the decision is theirs
                    // again, and the table stays with them.
                    self.handover = None;
                }
                self.revision += 1;
                true
            }
            Err(e) => {
                notice.error(e);
                false
            }
        }
    }
}

/// What a line of the log says, kept while some player may not read it.
enum Entry<G: GameState> {
    /// A seat's command.
    Command(Seat, G::Command),
    /// What a command caused.
    Event(G::Event),
}

impl<G: GameState> Clone for Entry<G> {
    fn clone(&self) -> Self {
        match self {
            Entry::Command(seat, command) => Entry::Command(*seat, *command),
            Entry::Event(event) => Entry::Event(event.clone()),
        }
    }
}

impl<G: GameState> Entry<G> {
    /// The line as each player may read it in `game` as it stands, by
    /// seat, then as the public may; empty where every viewer reads the
    /// referee's `text`.
    fn as_players_read_it(&self, game: &G, text: &str) -> Vec<Option<String>> {
        let players: Vec<Option<String>> = (0..game.seats())
            .map(|s| Viewer::Player(Seat(s as u16)))
            .chain([Viewer::Public])
            .map(|viewer| match self {
                Entry::Command(seat, command) => game.command_for(*seat, command, viewer),
                Entry::Event(event) => game.describe_for(event, viewer),
            })
            .collect();
        if players.iter().all(|p| p.as_deref() == Some(text)) {
            Vec::new()
        } else {
            players
        }
    }
}

/// A hand-over to a seat nobody needs to take (a bot's) is dropped at
/// once; a bot that takes a seat while real dice are in use hands the
/// dice back to the generator, as it cannot read real ones (R30).
pub fn settle_handover<S: TableSystem>(
    mut active: Option<ResMut<ActiveGame<S>>>,
    seats: Res<Seats>,
    mut notice: ResMut<Notice>,
) {
    let Some(active) = active.as_deref_mut() else {
        return;
    };
    active.settle_handover(&seats);
    no_real_dice_with_bots(active, &seats, &mut notice);
}

/// A bot cannot read real dice: a bot seated at a game with real dice
/// hands them back to the generator, and says so (R30).
fn no_real_dice_with_bots<S: TableSystem>(
    active: &mut ActiveGame<S>,
    seats: &Seats,
    notice: &mut Notice,
) {
    let players = active.game.game().seats();
    if active.dice.real && (0..players).any(|k| seats.of(k) != super::Seat::Person) {
        let seed = S::bot_seed(active);
        if active.use_real_dice(false, seats, seed).is_ok() {
            notice.info("a bot sits at the table: the generator rolls the dice again (R30)");
        }
    }
}

/// [`no_real_dice_with_bots`] alone, for a system that settles its
/// hand-overs in its own way.
pub fn real_dice_for_people<S: TableSystem>(
    mut active: Option<ResMut<ActiveGame<S>>>,
    seats: Res<Seats>,
    mut notice: ResMut<Notice>,
) {
    if let Some(active) = active.as_deref_mut() {
        no_real_dice_with_bots(active, &seats, &mut notice);
    }
}

/// **New game** for any system: the game in play begun again from its
/// setup, keeping the seats, once the person said its unsaved moves may
/// go ([`TableSystem::new_game`]).
pub fn start_new_game<S: TableSystem>(
    mut commands: Commands,
    mut requests: MessageReader<super::NewGameRequest>,
    active: Option<Res<ActiveGame<S>>>,
    mut notice: ResMut<Notice>,
    mut bot_requests: ResMut<Messages<S::BotRequest>>,
    served: Option<Res<super::remote::Remote>>,
) {
    let Some(request) = requests.read().last().copied() else {
        return;
    };
    if served.is_some() {
        notice.error(super::SERVED_RECORD);
        return;
    }
    let Some(active) = active else {
        return;
    };
    if !super::may_leave_unsaved(
        &mut commands,
        active.has_unsaved_work(),
        request.discard_unsaved,
        super::Leaving::NewGame,
    ) {
        return;
    }
    match S::new_game(&active) {
        Ok(fresh) => {
            // A bot's command about the game that leaves, not played yet,
            // is never played in the new one.
            bot_requests.clear();
            commands.insert_resource(fresh);
            commands.queue(|world: &mut World| S::loaded(world));
            notice.info_after(request.discard_unsaved, "a new game of the same scenario");
        }
        Err(why) => notice.error(why),
    }
}

/// Undo (R31) for any system: one command back, or the rules' reason why
/// not. The person at the table may take back the command that handed it
/// over while the next one has not taken it yet; [`Undone`] tells the
/// system's own flow, which lets go of a selection made before.
pub fn undo_commands<S: TableSystem>(
    mut requests: MessageReader<super::UndoRequest>,
    mut active: Option<ResMut<ActiveGame<S>>>,
    mut notice: ResMut<Notice>,
    mut undone: MessageWriter<Undone>,
) {
    let Some(active) = active.as_deref_mut() else {
        requests.clear();
        return;
    };
    for _ in requests.read() {
        if active.undo(&mut notice) {
            undone.write(Undone);
        }
    }
}

/// A command was undone on the table.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undone;

/// The hand-over is confirmed: the seat it was made to plays now. The
/// notice was written for the person who handed the table over (what
/// their command did, that the hand-over waits), and goes with them: the
/// next person reads nothing of it.
pub fn start_turn<S: TableSystem>(
    mut requests: MessageReader<StartTurn>,
    mut active: Option<ResMut<ActiveGame<S>>>,
    mut notice: ResMut<Notice>,
) {
    if requests.read().count() > 0
        && let Some(active) = active.as_deref_mut()
        && active.handover.is_some()
    {
        active.take_table();
        *notice = Notice::default();
    }
}

/// Keeps [`super::SeatView`] to the seat the table shows: the camera
/// looks from that seat's edge, where the system gives it one.
pub fn follow_the_viewer<S: TableSystem>(
    active: Res<ActiveGame<S>>,
    mut view: ResMut<super::SeatView>,
) {
    let want = match active.viewer {
        Viewer::Player(seat) => S::seat_view(active.game.game(), seat),
        Viewer::Referee | Viewer::Public => None,
    };
    if view.0 != want {
        view.0 = want;
    }
}

/// What `events` say in the referee's words, those every seat of `game`
/// reads alike (R57, R149): what a tray shown to everyone may hold.
pub fn read_alike<'e, G: GameState>(
    game: &G,
    events: impl IntoIterator<Item = &'e G::Event>,
) -> Vec<String>
where
    G::Event: 'e,
{
    events
        .into_iter()
        .map(|e| (e, game.describe(e)))
        .filter(|(e, text)| {
            (0..game.seats()).all(|s| {
                game.describe_for(e, Viewer::Player(Seat(s as u16)))
                    .as_deref()
                    == Some(text.as_str())
            })
        })
        .map(|(_, text)| text)
        .collect()
}
