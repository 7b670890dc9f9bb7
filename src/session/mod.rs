//! The game in play, for any rule system: the questions the table asks
//! before work is lost (unsaved moves, another saved game, a layout saved
//! nowhere), saving and opening requests, the notice, the log's lines,
//! undo's words, and who sits at each seat. A rule system's game resource
//! implements [`GameInPlay`] and adds the generic systems for itself.

use std::path::PathBuf;

use bevy::prelude::*;
use sandtable_core::game::Viewer;

pub mod bots;
pub mod dice;
pub mod draft;
pub mod files;
pub mod game;
pub mod keys;
pub mod layout;
pub mod open;
pub mod remote;
pub mod review;
pub mod seats;

pub use seats::{
    BOT_PACES, BotPace, BotsPaused, HINT_STRENGTH, HintRequest, NewGameRequest, Seat, Seats,
};

pub(super) fn plugin(app: &mut App) {
    remote::plugin(app);
    review::plugin(app);
    app.add_message::<bevy::window::WindowCloseRequested>()
        .add_message::<UndoRequest>()
        .add_message::<game::Undone>()
        .add_message::<GameLoaded>()
        .add_message::<SaveRequest>()
        .add_message::<LoadRequest>()
        .add_message::<DialogAnswer>()
        .add_message::<StartTurn>()
        .add_message::<HintRequest>()
        .add_message::<NewGameRequest>()
        .init_resource::<Seats>()
        .init_resource::<SeatView>()
        .init_resource::<BotPace>()
        .init_resource::<BotsPaused>()
        .init_resource::<Notice>()
        .init_resource::<dice::TypedRolls>()
        .init_resource::<KeepOpen>()
        .init_resource::<OpenFailure>()
        .init_resource::<FileField>()
        .init_resource::<keys::KeyboardTaken>()
        .init_resource::<CloseWaits>()
        .init_state::<open::OnTable>()
        .add_systems(
            Update,
            // After the answers that may ask for it, before anything reads
            // what the game was told, in the same frame: a game opened is
            // played on from the next command.
            open::load_requested_file.in_set(crate::schedule::FlowSteps::Open),
        )
        .add_systems(
            Update,
            layout::no_layout_without_a_game
                .run_if(open::nothing_on_table)
                .in_set(crate::schedule::FlowSteps::Follow),
        )
        .add_systems(
            Update,
            (
                reset_file_field.in_set(crate::schedule::AppSystems::SyncTable),
                (
                    ask_before_closing_on_layout.after(AskBeforeClosing),
                    close_unless_kept,
                )
                    .chain()
                    .in_set(crate::schedule::AppSystems::ApplyCommands),
            ),
        );
}

/// The window's close request on a layout with edits saved nowhere (the
/// reason [`KeepOpen`] holds): the person is asked, over any question about
/// the game, as saving the game would not save the layout.
fn ask_before_closing_on_layout(
    mut commands: Commands,
    mut closing: MessageReader<bevy::window::WindowCloseRequested>,
    keep_open: Res<KeepOpen>,
    mut kept: ResMut<CloseWaits>,
) {
    if closing.read().count() > 0 && keep_open.0.is_some() {
        kept.0 = true;
        commands.insert_resource(Dialog::UnsavedLayout);
    }
}

/// A game in play of any rule system, as saving and leaving it need it:
/// each system's game resource implements it, and its plugin adds
/// [`save_game`], [`answer_dialogs`] and [`ask_before_closing`] for it.
pub trait GameInPlay: Resource + Component<Mutability = bevy::ecs::component::Mutable> {
    /// Whether leaving the game now would lose work.
    fn has_unsaved_work(&self) -> bool;

    /// Saves the game as a game record: to `to`, else its own file, else a
    /// new name beside its scenario (see [`files::save_target`]); another
    /// game's record only with `replace`. Returns what the notice says:
    /// where it went.
    fn save(
        &mut self,
        seats: &Seats,
        to: Option<&std::path::Path>,
        replace: bool,
    ) -> Result<String, files::SaveError>;
}

/// Asking before the window closes on a game of type `G`: its plugin adds
/// this for it.
pub fn closing_plugin<G: GameInPlay>(app: &mut App) {
    app.add_systems(
        Update,
        ask_before_closing::<G>
            .in_set(crate::schedule::AppSystems::ApplyCommands)
            .in_set(AskBeforeClosing),
    );
}

/// The systems that ask before the window closes on unsaved work.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AskBeforeClosing;

/// Whether a request to close the window this frame waits on a question.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CloseWaits(pub bool);

/// The window's close button (or the window manager) asks to close: with
/// unsaved work in the game of type `G`, the person is asked first
/// (save, discard or cancel); nothing a person made is lost unasked.
pub fn ask_before_closing<G: GameInPlay>(
    mut commands: Commands,
    mut closing: MessageReader<bevy::window::WindowCloseRequested>,
    game: Option<Res<G>>,
    mut kept: ResMut<CloseWaits>,
) {
    if closing.read().count() == 0 {
        return;
    }
    if game.is_some_and(|g| g.has_unsaved_work()) {
        kept.0 = true;
        commands.insert_resource(Dialog::UnsavedMoves(Leaving::Quit));
    }
}

/// Closes the app on a close request that no game kept open.
fn close_unless_kept(
    mut closing: MessageReader<bevy::window::WindowCloseRequested>,
    mut kept: ResMut<CloseWaits>,
    mut exit: MessageWriter<AppExit>,
) {
    if closing.read().count() > 0 && !kept.0 {
        exit.write(AppExit::Success);
    }
    kept.0 = false;
}

/// Where the scenario of the game in play came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScenarioSource {
    /// The default scenario embedded in the binary.
    Embedded,
    /// A scenario file.
    File(PathBuf),
    /// A layout edited in layout mode and not saved since.
    Unsaved,
}

/// One line of the game log: a command in the move notation, or what it
/// caused, as the referee reads it and as each player may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// The text, as the referee reads it.
    pub text: String,
    /// Whether this is a command (true) or an event under it (false).
    pub command: bool,
    /// The line as each player reads it, by seat, then as the public
    /// does, where some viewer may read less than the referee
    /// (`GameState::command_for`, `describe_for`): `None` for one who may
    /// not know it. Empty where every viewer reads `text`.
    pub players: Vec<Option<String>>,
}

impl LogLine {
    /// A line every viewer reads alike.
    pub fn new(text: impl Into<String>, command: bool) -> LogLine {
        LogLine {
            text: text.into(),
            command,
            players: Vec::new(),
        }
    }

    /// The line as `viewer` may read it, `None` where the viewer may not
    /// know it.
    pub fn shown_to(&self, viewer: Viewer) -> Option<&str> {
        read_by(&self.players, &self.text, viewer)
    }
}

/// What `viewer` reads of a line whose referee's text is `text`, among
/// `players` (one reading a seat, then the public's; empty where every
/// viewer reads `text`). A seat past the players' reads the public's.
pub(crate) fn read_by<'a>(
    players: &'a [Option<String>],
    text: &'a str,
    viewer: Viewer,
) -> Option<&'a str> {
    let Some((public, seats)) = players.split_last() else {
        return Some(text);
    };
    match viewer {
        Viewer::Referee => Some(text),
        Viewer::Player(seat) => seats.get(seat.index()).unwrap_or(public).as_deref(),
        Viewer::Public => public.as_deref(),
    }
}

static NEXT_GAME_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A number no other game of this run has, so that work begun for one game
/// (a bot's thought, a hint) is never applied to another.
pub fn next_game_id() -> u64 {
    NEXT_GAME_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The person the table was handed to takes it: their turn starts
/// (hot-seat).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartTurn;

/// Where the seat the table shows looks from, in radians about the table
/// (0: from the near edge), where the system gives its seats edges of
/// their own ([`game::TableSystem::seat_view`]): the camera turns there
/// when the table's view becomes a seat's (a hand-over taken, a person
/// playing the second seat against a bot, a served game's seat), and a
/// table built anew is framed from there.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct SeatView(pub Option<f32>);

/// Why the file in play may not be left now, if anything forbids it (a
/// layout with edits saved nowhere): opening another file is refused with
/// this reason.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct KeepOpen(pub Option<String>);

/// Step back one command (R31).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct UndoRequest;

/// A new game was loaded: the table is built anew.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameLoaded;

/// Save the game in play as a game record.
#[derive(Message, Debug, Clone, PartialEq, Eq, Default)]
pub struct SaveRequest {
    /// Where: `None` for the game's own file, or a new name beside its
    /// scenario when it has none.
    pub to: Option<PathBuf>,
    /// The person said to replace the other saved game there.
    pub replace: bool,
}

impl SaveRequest {
    /// Save to the game's own file.
    pub fn own_file() -> SaveRequest {
        SaveRequest::default()
    }

    /// Save to another file (asking before another game's record is replaced).
    pub fn to(path: impl Into<PathBuf>) -> SaveRequest {
        SaveRequest {
            to: Some(path.into()),
            replace: false,
        }
    }
}

/// Load a scenario (`.ron`) or a saved game (`.moves`).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct LoadRequest {
    /// The file.
    pub path: PathBuf,
    /// For a saved game with a damaged line: read it only up to this line.
    pub until_line: Option<usize>,
    /// The person said the game in play may go with its unsaved moves.
    pub discard_unsaved: bool,
}

impl LoadRequest {
    /// Open a file (asking first if moves of the game in play are unsaved).
    pub fn new(path: impl Into<PathBuf>) -> LoadRequest {
        LoadRequest {
            path: path.into(),
            until_line: None,
            discard_unsaved: false,
        }
    }
}

/// What would leave the game in play behind, waiting for the person to say
/// whether its unsaved moves are saved first, dropped, or kept by not going on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Leaving {
    /// Opening a file (up to a line, for a damaged record).
    Open(PathBuf, Option<usize>),
    /// Starting the scenario again.
    NewGame,
    /// Playing the layout edited in layout mode.
    PlayLayout,
    /// Closing the window, and Sandtable with it.
    Quit,
}

/// A question the table waits on; the panel shows it until it is answered.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    /// The game in play has unsaved moves: save, discard or cancel?
    UnsavedMoves(Leaving),
    /// Saving would replace another saved game: replace or cancel?
    Replace(PathBuf),
    /// The window is closing on a layout with edits saved nowhere (layout
    /// mode saves it as a scenario): quit anyway or cancel?
    UnsavedLayout,
}

/// The person's answer to the [`Dialog`].
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogAnswer {
    /// Save the game, then go on.
    SaveFirst,
    /// Go on without saving.
    Discard,
    /// Replace the file.
    Replace,
    /// Do nothing.
    Cancel,
}

/// The path typed in the panel's file field, for Save as and Open; `None`
/// starts it again from the game's own file, as every game loaded does, so
/// that the field always follows what is open.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct FileField(pub Option<String>);

/// Each game loaded sets the file field again.
fn reset_file_field(mut loaded: MessageReader<GameLoaded>, mut field: ResMut<FileField>) {
    if loaded.read().count() > 0 {
        field.0 = None;
    }
}

/// The last file that could not be opened because of a damaged line, so
/// that the panel can offer to open it up to the line before.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenFailure(pub Option<(PathBuf, usize)>);

/// The last refusal or message worth showing, with the time it was set.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The text, if any.
    pub text: Option<String>,
    /// Whether it reports a refusal or an error (shown in red).
    pub error: bool,
}

impl Notice {
    /// Shows a refusal or an error.
    pub fn error(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.error = true;
    }

    /// Shows a message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.error = false;
    }

    /// Shows a message; when it follows an answer to a [`Dialog`]
    /// (`answered`), after what the answer said already (the save it made).
    pub fn info_after(&mut self, answered: bool, text: impl Into<String>) {
        let text = text.into();
        match self.text.take() {
            Some(before) if answered && !self.error => self.info(format!("{before}; {text}")),
            _ => self.info(text),
        }
    }
}

/// Why a served game is not saved or begun again from the table.
pub const SERVED_RECORD: &str = "this game is served: the server keeps its record and its layout, and a new game is begun there";

/// Saves the game record of the game of type `G` (see
/// [`files::save_game`]): another game's record is replaced only after the
/// person says so.
pub fn save_game<G: GameInPlay>(
    mut commands: Commands,
    mut requests: MessageReader<SaveRequest>,
    active: Option<ResMut<G>>,
    seats: Res<Seats>,
    mut notice: ResMut<Notice>,
    served: Option<Res<remote::Remote>>,
) {
    let Some(mut active) = active else {
        requests.clear();
        return;
    };
    if served.is_some() {
        if requests.read().count() > 0 {
            notice.error(SERVED_RECORD);
        }
        return;
    }
    for request in requests.read() {
        save_now(&mut commands, &mut *active, &seats, request, &mut notice);
    }
}

/// Saves and says so; asks before replacing another game. Whether it saved.
fn save_now<G: GameInPlay>(
    commands: &mut Commands,
    active: &mut G,
    seats: &Seats,
    request: &SaveRequest,
    notice: &mut Notice,
) -> bool {
    match active.save(seats, request.to.as_deref(), request.replace) {
        Ok(text) => {
            notice.info(text);
            true
        }
        Err(files::SaveError::AskToReplace(path)) => {
            commands.insert_resource(Dialog::Replace(path));
            false
        }
        Err(e) => {
            notice.error(e.to_string());
            false
        }
    }
}

/// The messages that going on after a dialog may send.
#[derive(bevy::ecs::system::SystemParam)]
pub struct GoOn<'w> {
    load: MessageWriter<'w, LoadRequest>,
    new_game: MessageWriter<'w, NewGameRequest>,
    layout: MessageWriter<'w, crate::mode::SetLayoutMode>,
    exit: MessageWriter<'w, AppExit>,
}

impl GoOn<'_> {
    /// Does what the person was leaving the game for, now that they said so.
    fn leave(&mut self, leaving: &Leaving) {
        match leaving {
            Leaving::Open(path, until_line) => {
                self.load.write(LoadRequest {
                    path: path.clone(),
                    until_line: *until_line,
                    discard_unsaved: true,
                });
            }
            Leaving::NewGame => {
                self.new_game.write(NewGameRequest {
                    discard_unsaved: true,
                });
            }
            Leaving::PlayLayout => {
                self.layout.write(crate::mode::SetLayoutMode {
                    on: false,
                    discard_unsaved: true,
                });
            }
            Leaving::Quit => {
                self.exit.write(AppExit::Success);
            }
        }
    }
}

/// Carries out the answer to the dialog on show, when the game in play is
/// of type `G` (every dialog is asked while a game is in play: about its
/// unsaved work, where it is saved, or the layout it is edited on).
pub fn answer_dialogs<G: GameInPlay>(
    mut commands: Commands,
    mut answers: MessageReader<DialogAnswer>,
    dialog: Option<Res<Dialog>>,
    active: Option<ResMut<G>>,
    seats: Res<Seats>,
    mut notice: ResMut<Notice>,
    mut go_on: GoOn,
) {
    let (Some(dialog), Some(mut active)) = (dialog, active) else {
        answers.clear();
        return;
    };
    let Some(answer) = answers.read().last().copied() else {
        return;
    };
    commands.remove_resource::<Dialog>();
    // What follows the answer says so, after the save if there was one.
    notice.text = None;
    match (&*dialog, answer) {
        (_, DialogAnswer::Cancel) => notice.info("nothing done"),
        (Dialog::UnsavedMoves(leaving), DialogAnswer::Discard) => go_on.leave(leaving),
        // Layout mode is always on a game, whose instance answers this.
        (Dialog::UnsavedLayout, DialogAnswer::Discard) => go_on.leave(&Leaving::Quit),
        (Dialog::UnsavedMoves(leaving), DialogAnswer::SaveFirst) => {
            if save_now(
                &mut commands,
                &mut *active,
                &seats,
                &SaveRequest::own_file(),
                &mut notice,
            ) {
                go_on.leave(leaving);
            }
        }
        (Dialog::Replace(path), DialogAnswer::Replace) => {
            save_now(
                &mut commands,
                &mut *active,
                &seats,
                &SaveRequest {
                    to: Some(path.clone()),
                    replace: true,
                },
                &mut notice,
            );
        }
        // An answer that does not fit the question: ask again.
        _ => commands.insert_resource(dialog.clone()),
    }
}

/// As [`may_leave`], for a game in play of any system, whose unsaved work
/// the caller has looked at (`unsaved`).
pub fn may_leave_unsaved(
    commands: &mut Commands,
    unsaved: bool,
    discard_unsaved: bool,
    leaving: Leaving,
) -> bool {
    if discard_unsaved || !unsaved {
        return true;
    }
    commands.insert_resource(Dialog::UnsavedMoves(leaving));
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Seat;

    #[test]
    fn a_log_line_reads_as_each_seat_and_the_public_may() {
        let mut line = LogLine::new("orders A:1", true);
        // Every viewer reads a line that hides nothing.
        for viewer in [Viewer::Referee, Viewer::Player(Seat(1)), Viewer::Public] {
            assert_eq!(line.shown_to(viewer), Some("orders A:1"));
        }
        line.players = vec![Some("orders A:1".into()), None, None];
        assert_eq!(line.shown_to(Viewer::Referee), Some("orders A:1"));
        assert_eq!(line.shown_to(Viewer::Player(Seat(0))), Some("orders A:1"));
        assert_eq!(line.shown_to(Viewer::Player(Seat(1))), None);
        assert_eq!(line.shown_to(Viewer::Public), None);
        // A seat past the players' reads as the public does.
        line.players[2] = Some("orders".into());
        assert_eq!(line.shown_to(Viewer::Player(Seat(7))), Some("orders"));
    }
}
