//! Opening a file on the table, whichever rule system it is of. A scenario
//! (`.ron`) is read once, by the scenario crate's `load_any`, and offered to
//! each registered system ([`Openers`]) until one takes it; a saved game is
//! read once, its scenario loaded once, and the system whose scenario it is
//! plays its record again. The game that was on the table leaves it (after
//! asking, when it has unsaved moves), and [`OnTable`] says which system is
//! there. The command line and the panels' Open buttons both come here.

use std::path::Path;

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use sandtable_core::record::header;
use sandtable_scenario::Loaded;
use sandtable_scenario::records;

use super::files::{EMBEDDED, OpenError};
use super::game::{ActiveGame, TableSystem};
use super::{
    FileField, KeepOpen, Leaving, LoadRequest, Notice, OpenFailure, ScenarioSource, Seat, Seats,
};

/// Which rule system's game is on the table, by its [`TableSystem::KEY`];
/// `None` before any game is.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct OnTable(pub Option<&'static str>);

/// A run condition: the system `S`'s game is on the table.
pub fn on_table<S: TableSystem>(on: Option<Res<State<OnTable>>>) -> bool {
    on.is_some_and(|on| on.get().0 == Some(S::KEY))
}

/// Puts the rule system `S` on the table's list: how it opens its files
/// ([`Opener`]), and [`OnTable`] following its game in play however it
/// came (opened, started again, played from an edited layout). A system's
/// plugin calls this once: the one line that joins it to the table.
pub fn join_table<S: TableSystem>(app: &mut App, opener: Opener) {
    app.world_mut()
        .get_resource_or_init::<Openers>()
        .0
        .push(opener);
    app.add_systems(
        PreUpdate,
        note_on_table::<S>.run_if(resource_added::<ActiveGame<S>>),
    );
    super::review::add_review::<S>(app);
    app.add_systems(
        Update,
        super::game::follow_the_viewer::<S>
            .in_set(crate::schedule::AppSystems::SyncTable)
            .run_if(resource_exists::<ActiveGame<S>>),
    );
}

/// The system `S`'s game came on the table: [`OnTable`] says so from this
/// frame's update on.
fn note_on_table<S: TableSystem>(
    on: Option<Res<State<OnTable>>>,
    next: Option<ResMut<NextState<OnTable>>>,
) {
    if let Some(mut next) = next
        && on.is_none_or(|on| on.get().0 != Some(S::KEY))
    {
        next.set(OnTable(Some(S::KEY)));
    }
}

/// A run condition: no game is on the table (none could be opened).
pub fn nothing_on_table(on: Option<Res<State<OnTable>>>) -> bool {
    on.is_none_or(|on| on.get().0.is_none())
}

/// A game opened from a file, with what the file said besides the game.
pub struct Opened<S: TableSystem> {
    /// The game.
    pub active: ActiveGame<S>,
    /// Who plays each seat, when the file says: a saved game's `[Seats]`,
    /// or a system's own rule (a battle file is played by two people);
    /// `None` keeps the seats at the table.
    pub seats: Option<Vec<Seat>>,
    /// What differs from when the record was saved (the scenario, the
    /// engine), and the setup's warnings.
    pub notes: Vec<String>,
}

/// A game of some system opened for the table, ready to be put there.
pub trait OpenedGame: Send + Sync + 'static {
    /// Its system's key.
    fn system(&self) -> &'static str;
    /// How many seats its game has.
    fn seats(&self) -> usize;
    /// The surface its game is played on.
    fn surface(&self) -> sandtable_core::game::Surface;
    /// What the file said besides the game.
    fn notes(&self) -> &[String];
    /// Whether layout mode stays on when it is opened over a game of its
    /// own system ([`TableSystem::keeps_layout_on_open`]).
    fn keeps_layout(&self) -> bool;
    /// The opened game as itself, for a caller that knows its system.
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
    /// Puts the game on the table: its resource, the seats the file names,
    /// the [`OnTable`] state and the system's message that a game was
    /// loaded. The game that was there has left already.
    fn put_on_table(self: Box<Self>, world: &mut World);
}

impl<S: TableSystem> OpenedGame for Opened<S> {
    fn system(&self) -> &'static str {
        S::KEY
    }

    fn seats(&self) -> usize {
        sandtable_core::game::GameState::seats(self.active.game.game())
    }

    fn surface(&self) -> sandtable_core::game::Surface {
        sandtable_core::game::GameState::surface(self.active.game.game())
    }

    fn notes(&self) -> &[String] {
        &self.notes
    }

    fn keeps_layout(&self) -> bool {
        S::keeps_layout_on_open()
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }

    fn put_on_table(self: Box<Self>, world: &mut World) {
        let Opened { active, seats, .. } = *self;
        if let Some(seats) = seats {
            world.resource_mut::<Seats>().0 = seats;
        }
        world.insert_resource(active);
        // A bot's command about the game that left, not played yet, is
        // never played in this one.
        if let Some(mut requests) = world.get_resource_mut::<Messages<S::BotRequest>>() {
            requests.clear();
        }
        if let Some(mut next) = world.get_resource_mut::<NextState<OnTable>>() {
            next.set(OnTable(Some(S::KEY)));
        }
        S::loaded(world);
    }
}

/// What a system may make of a setup or a saved game: its game, the
/// reason it cannot be opened, or the setup handed back (boxed: a setup is
/// large) when it is another system's.
pub type Opening = Result<Result<Box<dyn OpenedGame>, OpenError>, Box<Loaded>>;

/// How a rule system opens its files and leaves the table: one entry of
/// [`Openers`], made by the system.
#[derive(Clone, Copy)]
pub struct Opener {
    /// The system's key ([`TableSystem::KEY`]).
    pub key: &'static str,
    /// A new game of a setup of this system, from where it came.
    pub start: fn(Loaded, ScenarioSource) -> Opening,
    /// A saved game of this system: the setup its record names, where that
    /// came from, the record's text and its file, read up to `last_line`.
    pub replay: fn(Loaded, ScenarioSource, &str, &Path, Option<usize>) -> Opening,
    /// The built-in setup a saved game names as `<embedded>`, if the
    /// system has one.
    pub embedded: Option<fn() -> Loaded>,
    /// Whether its game on the table has moves saved nowhere.
    pub unsaved: fn(&World) -> bool,
    /// Takes its game, and what the table keeps for it, off the table.
    pub leave: fn(&mut World),
    /// Puts a game a server sent on its table, as its viewer sees it
    /// ([`super::remote`]).
    pub adopt: fn(&mut World, &super::remote::Sent) -> Result<(), String>,
    /// Takes what the table asked of a game a server holds, to send.
    pub outgoing: fn(&mut World) -> Vec<super::remote::Outgoing>,
    /// Where the game of this system in play, if any, was opened from.
    pub scenario: fn(&World) -> Option<ScenarioSource>,
}

impl Opener {
    /// The opener of the system `S`, from its functions.
    pub fn of<S: TableSystem>(
        start: fn(Loaded, ScenarioSource) -> Opening,
        replay: fn(Loaded, ScenarioSource, &str, &Path, Option<usize>) -> Opening,
        embedded: Option<fn() -> Loaded>,
    ) -> Opener
    where
        S::Game: sandtable_core::wire::Wire,
    {
        Opener {
            key: S::KEY,
            start,
            replay,
            embedded,
            unsaved: |world| {
                world
                    .get_resource::<ActiveGame<S>>()
                    .is_some_and(ActiveGame::has_unsaved_work)
            },
            leave: |world| {
                world.remove_resource::<ActiveGame<S>>();
                S::left(world);
            },
            adopt: super::remote::adopt::<S>,
            outgoing: |world| {
                world
                    .get_resource_mut::<ActiveGame<S>>()
                    .and_then(|mut a| a.outbox.as_mut().map(std::mem::take))
                    .unwrap_or_default()
            },
            scenario: |world| {
                world
                    .get_resource::<ActiveGame<S>>()
                    .map(|a| a.source.clone())
            },
        }
    }
}

impl Opener {
    /// Opens a file of this system alone (a file of another system is
    /// refused as no system's): for tests and for callers that know the
    /// system, as `Opened<S>` of the system `S` whose opener this is.
    pub fn open_alone<S: TableSystem>(
        self,
        path: &Path,
        last_line: Option<usize>,
    ) -> Result<Opened<S>, OpenError> {
        Openers(vec![self])
            .open(path, last_line)?
            .into_any()
            .downcast::<Opened<S>>()
            .map(|o| *o)
            .map_err(|_| {
                OpenError::plain(format!(
                    "{}: opened by {}, asked for as {}",
                    path.display(),
                    self.key,
                    S::KEY
                ))
            })
    }
}

/// The registered rule systems' openers: the one place a system joins the
/// table's files.
#[derive(Resource, Clone, Default)]
pub struct Openers(pub Vec<Opener>);

impl Openers {
    /// Offers a setup to each system in turn.
    pub(crate) fn start(
        &self,
        mut loaded: Loaded,
        source: ScenarioSource,
    ) -> Result<Box<dyn OpenedGame>, OpenError> {
        for opener in &self.0 {
            match (opener.start)(loaded, source.clone()) {
                Ok(opened) => return opened,
                Err(back) => loaded = *back,
            }
        }
        Err(OpenError::plain(format!(
            "{}: no rule system of the table plays it",
            loaded.name()
        )))
    }

    /// The built-in setup of the first system that has one.
    fn embedded(&self) -> Option<Loaded> {
        self.0.iter().find_map(|o| o.embedded.map(|f| f()))
    }

    /// Opens a scenario (`.ron`) or a saved game of any registered system,
    /// a saved game only up to `last_line` when one is given (a damaged
    /// record): each file is read once.
    pub fn open(
        &self,
        path: &Path,
        last_line: Option<usize>,
    ) -> Result<Box<dyn OpenedGame>, OpenError> {
        if path == Path::new(EMBEDDED) {
            let loaded = self
                .embedded()
                .ok_or_else(|| OpenError::plain("no rule system has a built-in table"))?;
            return self.start(loaded, ScenarioSource::Embedded);
        }
        if path.extension().is_some_and(|e| e == "ron") {
            // The file's own problems, by the loader of the system it
            // names, with their lines and rulings.
            let loaded =
                sandtable_scenario::load_any(path).map_err(|e| OpenError::plain(e.to_string()))?;
            return self.start(loaded, ScenarioSource::File(path.to_path_buf()));
        }
        let mut text = records::read_text(path).map_err(|e| OpenError::plain(e.to_string()))?;
        if let Some(last) = last_line {
            text = text.lines().take(last).collect::<Vec<_>>().join("\n");
        }
        let headers = super::files::parse_record::<super::files::AnyLine>(&text, path)?;
        let (loaded, source) = match headers.header(header::SCENARIO) {
            None | Some(EMBEDDED) => (
                self.embedded().ok_or_else(|| {
                    OpenError::plain(format!("{}: it names no scenario", path.display()))
                })?,
                ScenarioSource::Embedded,
            ),
            Some(name) => {
                let scenario = records::scenario_path(path, name);
                let loaded = sandtable_scenario::load_any(&scenario).map_err(|e| {
                    OpenError::plain(format!(
                        "{}: the scenario of this game cannot be opened: {e}",
                        path.display()
                    ))
                })?;
                (loaded, ScenarioSource::File(scenario))
            }
        };
        let mut loaded = loaded;
        for opener in &self.0 {
            match (opener.replay)(loaded, source.clone(), &text, path, last_line) {
                Ok(opened) => return opened,
                Err(back) => loaded = *back,
            }
        }
        Err(OpenError::plain(format!(
            "{}: no rule system of the table plays {}",
            path.display(),
            loaded.name()
        )))
    }

    /// Whether the game on the table has moves saved nowhere.
    pub fn unsaved(&self, world: &World) -> bool {
        self.0.iter().any(|o| (o.unsaved)(world))
    }

    /// Takes every system's game off the table but `keep`'s.
    pub fn leave_all_but(&self, keep: &'static str, world: &mut World) {
        for opener in self.0.iter().filter(|o| o.key != keep) {
            (opener.leave)(world);
        }
    }
}

/// Loads the scenarios and saved games asked for; a bad file leaves the
/// game in play alone, and one with unsaved moves is left only when the
/// person says so.
pub fn load_requested_file(
    world: &mut World,
    requests: &mut SystemState<MessageReader<'static, 'static, LoadRequest>>,
) {
    let Ok(mut reader) = requests.get_mut(world) else {
        return;
    };
    let asked: Vec<LoadRequest> = reader.read().cloned().collect();
    for request in asked {
        open_requested(world, &request);
    }
}

/// Opens one requested file on the table (see [`load_requested_file`]).
pub(super) fn open_requested(world: &mut World, request: &LoadRequest) {
    let path = &request.path;
    if world.contains_resource::<super::remote::Remote>() {
        world.resource_mut::<Notice>().error(format!(
            "not opening {}: this table is in a served game; leave it first",
            path.display()
        ));
        return;
    }
    if let Some(why) = world.resource::<KeepOpen>().0.clone() {
        world
            .resource_mut::<Notice>()
            .error(format!("not opening {}: {why}", path.display()));
        return;
    }
    let openers = world.resource::<Openers>().clone();
    if openers.unsaved(world) && !request.discard_unsaved {
        world.insert_resource(super::Dialog::UnsavedMoves(Leaving::Open(
            path.clone(),
            request.until_line,
        )));
        return;
    }
    let opened = match openers.open(path, request.until_line) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("{}", sandtable_scenario::files::printable(&e.message));
            world.resource_mut::<OpenFailure>().0 = e
                .bad_line
                .filter(|line| *line > 1)
                .map(|line| (path.clone(), line));
            world.resource_mut::<Notice>().error(e.message);
            return;
        }
    };
    let mut text = match request.until_line {
        Some(line) => format!(
            "opened {} up to line {line}; Save writes it to a new file",
            path.display()
        ),
        None if path == Path::new(EMBEDDED) => "opened the built-in table".to_owned(),
        None => format!("opened {}", path.display()),
    };
    for note in opened.notes() {
        text.push_str(&format!("\nnote: {note}"));
    }
    world
        .resource_mut::<Notice>()
        .info_after(request.discard_unsaved, text);
    world.resource_mut::<OpenFailure>().0 = None;
    // The file field starts again from the new game's own file.
    world.resource_mut::<FileField>().0 = None;
    // Layout mode edits the game it was entered on: a file of another
    // system opened leaves it (a file of the same system is edited from
    // then on, as each system's layout says).
    let before = world
        .get_resource::<State<OnTable>>()
        .and_then(|s| s.get().0);
    if !(before == Some(opened.system()) && opened.keeps_layout())
        && world
            .get_resource::<State<crate::mode::Mode>>()
            .is_some_and(|m| *m.get() == crate::mode::Mode::Layout)
    {
        world
            .resource_mut::<NextState<crate::mode::Mode>>()
            .set(crate::mode::Mode::Play);
    }
    // One game is on the table at a time: every other system's leaves.
    openers.leave_all_but(opened.system(), world);
    opened.put_on_table(world);
}
