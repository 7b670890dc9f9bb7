//! Looking back at a game at the table, for every rule system through the
//! contract. The game on the table (played here, or opened from its
//! record) goes into review: its record is replayed from its start (the
//! game as it stood before its first command, [`ActiveGame::origin`]), a
//! copy of the table's game kept every [`EVERY`] commands, so that any
//! position is reached by at most that many commands played again. The
//! table shows one position at a time, as it stood, with the marks its last
//! command left, through the eyes chosen: a seat's (its view and its log as
//! they were then, nothing behind its curtain), or the referee's once the
//! game is over or where it hides nothing. Nothing is played on a position
//! in review; **Play on from here** makes it a new game (a branch, saved
//! as its own record), its dice drawn afresh unless the record's seed is
//! kept. Closing the review puts the game back as it was.
//!
//! While the table shows the review, the tree search weighs every
//! position off the main thread (`sandtable_bots::review`, as the CLI's
//! `review` does): the curve of each side's chance, with its turning
//! points, is drawn under the table ([`crate::hud`]) and a click on it
//! jumps there.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use sandtable_bots::review::{DEFAULT_ITERATIONS, Review as Curve, ReviewError};
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, GameState, Seat, Viewer, next_seat};

use super::game::{ActiveGame, CommandOf, TableSystem};
use super::{Notice, Seats};

/// A copy of the table's game is kept every this many commands.
pub const EVERY: usize = sandtable_core::replay::DEFAULT_EVERY;

/// What the person asks of a review.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub enum ReviewRequest {
    /// The game on the table into review.
    Open,
    /// The position after this many commands.
    To(usize),
    /// The position a stride away: forward (`true`) or back.
    Step(Stride, bool),
    /// The position of the command of this line of the log shown.
    LogLine(usize),
    /// Whose eyes the table sees through.
    Eyes(Viewer),
    /// A new game from the position shown: with the record's seed kept,
    /// or fresh dice.
    PlayOn {
        /// Keep the record's seed, so that the dice fall as they did.
        keep_seed: bool,
    },
    /// The game back as it was.
    Close,
}

/// How far a step goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stride {
    /// One command.
    Command,
    /// To where the phase changes (the system's own:
    /// [`TableSystem::phase`]).
    Phase,
    /// To where the turn changes.
    Turn,
    /// To the first or the last position.
    End,
}

/// Where a position stands, for the strides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    turn: u32,
    phase: u32,
    deciding: Option<Seat>,
}

/// Where a review's positions come from.
enum Source<S: TableSystem> {
    /// A record replayed.
    Record {
        /// The table's game after 0, [`EVERY`], 2 × [`EVERY`] ...
        /// commands.
        kept: Vec<ActiveGame<S>>,
        /// The record: each command with the seat that gave it.
        commands: Vec<(Seat, CommandOf<S>)>,
    },
    /// The views a served game going on sent this table, as they came
    /// ([`super::remote::ServedViews`]): all its seat saw.
    Seen {
        /// The table's game the views are shown on.
        base: Box<ActiveGame<S>>,
        /// Each view's game and log, as lines of `lines`.
        views: Vec<(S::Game, Vec<u32>)>,
        /// Every line of the views' logs.
        lines: Vec<String>,
    },
}

/// Why a served game's views are not played on.
pub const SEEN_NOT_WHOLE: &str = "a served game's views are what this seat saw, not the whole game: play on from its record, which the server sends every seat at the end";

/// The review of the system `S`'s game on the table.
#[derive(Resource)]
pub struct Review<S: TableSystem> {
    /// Where its positions come from.
    source: Source<S>,
    /// Each position's turn and deciding seat, from the start (`n + 1`).
    marks: Vec<Mark>,
    /// The position shown: after this many commands.
    pub at: usize,
    /// Whose eyes the table sees through.
    pub eyes: Viewer,
    /// The id the positions shown carry: a game of another id on the
    /// table ends the review.
    pub id: u64,
    /// The revision the next position shown carries.
    shown: u64,
    /// Whether the game hides anything from its seats.
    pub hides: bool,
    /// Whether the record ends the game.
    pub over: bool,
    /// Whether the positions roll the record's own generator (no die of
    /// the game was typed in or replayed from a list): then a branch may
    /// keep the record's seed.
    pub seed_kept: bool,
    /// The seats' names.
    pub names: Vec<String>,
    /// The search weighing every position.
    pub curve: CurveWork,
}

/// The curve of each side's chance, weighed off the main thread.
pub struct CurveWork {
    /// Positions weighed so far.
    pub weighed: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    task: Option<Task<Result<Curve, ReviewError>>>,
    /// The curve, or why it could not be weighed.
    pub done: Option<Result<Arc<Curve>, String>>,
    /// The search's iterations at each position.
    pub iterations: u32,
    /// The search's seed.
    pub seed: u64,
}

impl Drop for CurveWork {
    fn drop(&mut self) {
        // A review closed stops its search at the next position.
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What the review bar draws, for any system.
#[derive(Resource, Debug, Clone)]
pub struct ReviewPanel {
    /// The position shown: after this many commands.
    pub at: usize,
    /// The commands of the record.
    pub len: usize,
    /// The turn of the position shown.
    pub turn: u32,
    /// Who decides there, in words ("Legion decides", "over").
    pub deciding: String,
    /// The last command played, as the eyes read it.
    pub last: Option<String>,
    /// Whose eyes the table sees through.
    pub eyes: Viewer,
    /// The eyes offered, with their names.
    pub eyes_offered: Vec<(Viewer, String)>,
    /// Why the referee's eyes are not offered, when they are not.
    pub referee_why_not: Option<&'static str>,
    /// Whether a branch may keep the record's seed.
    pub seed_kept: bool,
    /// The seats' names.
    pub names: Vec<String>,
    /// The seats' colours, where the system gives them.
    pub colours: Vec<Option<[u8; 3]>>,
    /// The curve, once weighed, or why not.
    pub curve: Option<Result<Arc<Curve>, String>>,
    /// Positions weighed so far, of `len + 1`.
    pub weighed: Arc<AtomicUsize>,
    /// The search's iterations at each position.
    pub iterations: u32,
}

/// Why the referee's eyes wait for the end of a game that hides anything.
pub const REFEREE_AT_THE_END: &str = "the referee's view of everything is offered once the game is over: before, each seat saw only its own";

/// Why a served game's views are seen only through the table's eyes.
pub const SEEN_EYES: &str = "a served game going on is reviewed through this table's own eyes, as its views came: everything else comes with the record at the end";

/// Adds the review of the system `S`.
pub fn add_review<S: TableSystem>(app: &mut App) {
    app.add_systems(
        Update,
        (
            answer_requests::<S>.in_set(crate::schedule::FlowSteps::Play),
            (finish_curve::<S>, end_stale_review::<S>).in_set(crate::schedule::FlowSteps::Follow),
        ),
    );
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ReviewRequest>().add_systems(
        Update,
        read_review_keys
            .run_if(resource_exists::<ReviewPanel>)
            .in_set(crate::schedule::AppSystems::RecordInput),
    );
}

impl<S: TableSystem> Review<S> {
    /// The review of `whole`, the game on the table, with these `seats`:
    /// its record replayed from its start, a copy kept every [`EVERY`]
    /// commands; or why not.
    pub fn of(whole: &ActiveGame<S>, seats: &Seats) -> Result<Review<S>, String> {
        if whole.outbox.is_some() {
            return Err(
                "a served game going on is reviewed from the views its seat was sent".to_owned(),
            );
        }
        if whole.reviewing.is_some() {
            return Err("the table shows a review already".to_owned());
        }
        let Some(origin) = whole.origin.as_deref().filter(|_| !whole.record.is_empty()) else {
            return Err("nothing has been played yet: there is nothing to look back at".to_owned());
        };
        let mut at = origin.clone();
        // Once some die was typed in or replayed from a list, the record's
        // rolls, in order, replay it; otherwise its own generator does.
        let seed_kept = !whole.dice.kept();
        if !seed_kept {
            let from = origin.dice.rolled.len().min(whole.dice.rolled.len());
            at.game
                .set_dice(Dice::scripted(whole.dice.rolled[from..].to_vec()));
        }
        at.handover = None;
        at.file = None;
        at.saved = Vec::new();
        at.dice.real = false;
        at.origin = whole.origin.clone();
        let mark = |a: &ActiveGame<S>| Mark {
            turn: a.game.game().turn(),
            phase: S::phase(a.game.game()),
            deciding: next_seat(a.game.game()),
        };
        let mut kept = vec![at.clone()];
        let mut marks = vec![mark(&at)];
        let mut commands = Vec::with_capacity(whole.record.len());
        for (k, command) in whole.record.iter().enumerate() {
            let seat = next_seat(at.game.game()).ok_or_else(|| {
                format!(
                    "command {} of the record, `{command}`, comes after the game's end",
                    k + 1
                )
            })?;
            at.play(*command).map_err(|e| {
                format!(
                    "command {} of the record, `{command}`, is refused on replay: {e}",
                    k + 1
                )
            })?;
            commands.push((seat, *command));
            marks.push(mark(&at));
            if (k + 1).is_multiple_of(EVERY) {
                kept.push(at.clone());
            }
        }
        // The same game, but for its dice: a game opened from a list of
        // rolls goes on with dice of its own (R30).
        let mut end = at.game.game().clone();
        end.set_dice(whole.game.game().dice().clone());
        if end.state_hash() != whole.game.game().state_hash() {
            return Err(
                "the record does not replay to the game on the table: it cannot be reviewed"
                    .to_owned(),
            );
        }
        let game = whole.game.game();
        let hides = game.hides();
        let over = matches!(game.decision(), Decision::Over(_));
        // A seat's eyes by default: the one the table showed, else the
        // first person's, else the first seat's.
        let eyes = if !hides {
            Viewer::Referee
        } else {
            match whole.viewer {
                Viewer::Player(seat) => Viewer::Player(seat),
                _ => Viewer::Player(Seat(
                    (0..game.seats())
                        .find(|&s| seats.of(s) == super::Seat::Person)
                        .unwrap_or(0) as u16,
                )),
            }
        };
        let names = (0..game.seats())
            .map(|s| game.seat_name(Seat(s as u16)).to_owned())
            .collect();
        let seed = S::bot_seed(whole);
        Ok(Review {
            source: Source::Record { kept, commands },
            marks,
            at: whole.record.len(),
            eyes,
            id: super::next_game_id(),
            shown: whole.revision + 1,
            hides,
            over,
            seed_kept,
            names,
            curve: CurveWork {
                weighed: Arc::new(AtomicUsize::new(0)),
                stop: Arc::new(AtomicBool::new(false)),
                task: None,
                done: None,
                iterations: DEFAULT_ITERATIONS,
                seed,
            },
        })
    }

    /// The review of `whole`, a served game going on, from `seen`, the
    /// views the server sent this table: each as its viewer saw it, the
    /// only eyes offered; no curve and no new game, which wait for the
    /// record the server sends every seat at the end.
    pub fn of_views(
        whole: &ActiveGame<S>,
        seen: &super::remote::ServedViews<S>,
    ) -> Result<Review<S>, String> {
        if whole.reviewing.is_some() {
            return Err("the table shows a review already".to_owned());
        }
        if seen.id != whole.id || seen.views.len() < 2 {
            return Err(
                "nothing has been played since this table joined: there is nothing to look back at"
                    .to_owned(),
            );
        }
        let views: Vec<(S::Game, Vec<u32>)> = seen
            .views
            .iter()
            .map(|(_, game, log)| (game.clone(), log.clone()))
            .collect();
        let marks = views
            .iter()
            .map(|(g, _)| Mark {
                turn: g.turn(),
                phase: S::phase(g),
                deciding: next_seat(g),
            })
            .collect();
        let mut base = Box::new(whole.clone());
        base.handover = None;
        let game = whole.game.game();
        let names = (0..game.seats())
            .map(|s| game.seat_name(Seat(s as u16)).to_owned())
            .collect();
        let n = views.len() - 1;
        Ok(Review {
            source: Source::Seen {
                base,
                views,
                lines: seen.lines.clone(),
            },
            marks,
            at: n,
            eyes: whole.viewer,
            id: super::next_game_id(),
            shown: whole.revision + 1,
            hides: game.hides(),
            over: matches!(game.decision(), Decision::Over(_)),
            seed_kept: false,
            names,
            curve: CurveWork {
                weighed: Arc::new(AtomicUsize::new(0)),
                stop: Arc::new(AtomicBool::new(false)),
                task: None,
                done: Some(Err("the curve is weighed from the record, which the server sends every seat at the end".to_owned())),
                iterations: DEFAULT_ITERATIONS,
                seed: 0,
            },
        })
    }

    /// Whether the positions are a served game's views as they came.
    pub fn seen(&self) -> bool {
        matches!(self.source, Source::Seen { .. })
    }

    /// Whether `active`, the game on the table, is a position of this
    /// review: another game on the table (opened, begun again) ends it.
    fn shows(&self, active: &ActiveGame<S>) -> bool {
        active.reviewing.is_some() && active.id == self.id
    }

    /// How many steps the review holds: the record's commands, or the
    /// views after the first.
    pub fn len(&self) -> usize {
        self.marks.len() - 1
    }

    /// Whether the review holds no step (a review never does).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The table's game after `k` commands, as it replays, and with
    /// `events`, the events of its last command: from the copy kept
    /// before it, at most [`EVERY`] - 1 commands played (a kept copy's
    /// events are its last [`EVERY`] commands played again).
    pub fn position(
        &self,
        k: usize,
        events: bool,
    ) -> (ActiveGame<S>, Vec<<S::Game as GameState>::Event>) {
        let k = k.min(self.len());
        let (kept, commands) = match &self.source {
            Source::Record { kept, commands } => (kept, commands),
            Source::Seen { base, views, lines } => {
                // The view as it came, with its log as it was then.
                let mut at = (**base).clone();
                at.game = sandtable_core::undo::Undoable::new(views[k].0.clone());
                at.log = views[k]
                    .1
                    .iter()
                    .map(|&i| super::LogLine::new(lines[i as usize].clone(), false))
                    .collect();
                return (at, Vec::new());
            }
        };
        // A kept copy's own last command is played again from the copy
        // before it, for its events.
        let from = if events && k > 0 && k.is_multiple_of(EVERY) {
            k / EVERY - 1
        } else {
            k / EVERY
        };
        let mut at = kept[from].clone();
        let mut last = Vec::new();
        for (_, command) in &commands[from * EVERY..k] {
            // Each command is played on the game and dice it was played on
            // when the review was opened: it replays as it did then.
            last = at.play(*command).unwrap_or_default();
        }
        (at, last)
    }

    /// Where a stride from the position shown lands.
    pub fn target(&self, stride: Stride, forward: bool) -> usize {
        let (k, n) = (self.at, self.len());
        let same = |a: Mark, b: Mark| match stride {
            Stride::Phase => (a.turn, a.phase) == (b.turn, b.phase),
            _ => a.turn == b.turn,
        };
        match stride {
            Stride::Command if forward => (k + 1).min(n),
            Stride::Command => k.saturating_sub(1),
            Stride::End if forward => n,
            Stride::End => 0,
            Stride::Phase | Stride::Turn if forward => (k + 1..=n)
                .find(|&j| !same(self.marks[j], self.marks[k]))
                .unwrap_or(n),
            Stride::Phase | Stride::Turn => {
                let start_of = |j: usize| {
                    let mut i = j;
                    while i > 0 && same(self.marks[i - 1], self.marks[j]) {
                        i -= 1;
                    }
                    i
                };
                let s = start_of(k);
                if s < k || k == 0 { s } else { start_of(k - 1) }
            }
        }
    }

    /// The eyes offered: each seat, then the referee where the game hides
    /// nothing or is over.
    fn eyes_offered(&self) -> Vec<(Viewer, String)> {
        if self.seen() {
            let name = match self.eyes {
                Viewer::Player(seat) => self.names.get(seat.index()).cloned().unwrap_or_default(),
                _ => "a spectator".to_owned(),
            };
            return vec![(self.eyes, name)];
        }
        let mut offered: Vec<(Viewer, String)> = self
            .names
            .iter()
            .enumerate()
            .map(|(s, name)| (Viewer::Player(Seat(s as u16)), name.clone()))
            .collect();
        if self.referee_why_not().is_none() {
            offered.push((Viewer::Referee, "the referee: everything".to_owned()));
        }
        offered
    }

    /// Why the referee's eyes are not offered, if they are not.
    fn referee_why_not(&self) -> Option<&'static str> {
        if self.seen() {
            return Some(SEEN_EYES);
        }
        (self.hides && !self.over).then_some(REFEREE_AT_THE_END)
    }

    /// The curve as the eyes may see it. Before the end of a game that
    /// hides anything, a seat sees only its own search's estimates (the
    /// positions where it decided) and the alternatives to its own
    /// commands: another seat's estimate was weighed with that seat's
    /// secrets.
    fn as_eyes_may_see(&self, curve: Arc<Curve>) -> Arc<Curve> {
        let Viewer::Player(me) = self.eyes else {
            return curve;
        };
        if !self.hides || self.over {
            return curve;
        }
        let mine = |k: usize| self.marks.get(k).is_some_and(|m| m.deciding == Some(me));
        let mut seen = (*curve).clone();
        if !mine(0) {
            seen.start = vec![None; seen.start.len()];
        }
        for (k, step) in seen.steps.iter_mut().enumerate() {
            if !mine(k + 1) {
                step.chances = vec![None; step.chances.len()];
            }
            if step.seat != me {
                step.instead = None;
            }
        }
        Arc::new(seen)
    }

    /// Starts the search weighing every position, off the main thread.
    fn start_curve(&mut self) {
        let Source::Record { kept, commands } = &self.source else {
            return;
        };
        let start = kept[0].game.game().clone();
        let commands: Vec<(usize, CommandOf<S>)> = commands
            .iter()
            .enumerate()
            .map(|(k, (_, c))| (k + 1, *c))
            .collect();
        let names = self.names.clone();
        let (weighed, stop) = (self.curve.weighed.clone(), self.curve.stop.clone());
        let how = (self.curve.iterations, self.curve.seed);
        self.curve.task = Some(AsyncComputeTaskPool::get().spawn(async move {
            sandtable_bots::review::review(
                &sandtable_bots::decide::<S::Game>,
                names,
                start,
                &commands,
                how,
                &mut |k| {
                    weighed.store(k, Ordering::Relaxed);
                    !stop.load(Ordering::Relaxed)
                },
            )
        }));
    }

    /// What the review bar draws, with the position shown.
    pub fn panel(&self, shown: &ActiveGame<S>) -> ReviewPanel {
        let game = shown.game.game();
        let deciding = match game.decision() {
            Decision::Over(_) => "the game is over".to_owned(),
            _ => match next_seat(game) {
                Some(seat) => format!("{} decides", game.seat_name(seat)),
                None => "sealed orders are owed".to_owned(),
            },
        };
        let last = self.at.checked_sub(1).and_then(|k| {
            let Source::Record { commands, .. } = &self.source else {
                return shown.log.last().map(|l| l.text.clone());
            };
            let (seat, command) = commands[k];
            // The command as the eyes could read it then.
            shown
                .log
                .iter()
                .rev()
                .find(|l| l.command)
                .and_then(|l| l.shown_to(self.eyes).map(str::to_owned))
                .map(|c| format!("{}: {c}", game.seat_name(seat)))
                .or_else(|| (self.eyes == Viewer::Referee).then(|| format!("{}", command)))
        });
        ReviewPanel {
            at: self.at,
            len: self.len(),
            turn: game.turn(),
            deciding,
            last,
            eyes: self.eyes,
            eyes_offered: self.eyes_offered(),
            referee_why_not: self.referee_why_not(),
            seed_kept: self.seed_kept,
            names: self.names.clone(),
            colours: (0..self.names.len())
                .map(|s| S::seat_colour(shown, Seat(s as u16)))
                .collect(),
            curve: self
                .curve
                .done
                .clone()
                .map(|c| c.map(|c| self.as_eyes_may_see(c))),
            weighed: self.curve.weighed.clone(),
            iterations: self.curve.iterations,
        }
    }

    /// The position after `k` commands, ready for the table: seen through
    /// the review's eyes, carrying `whole`, the game reviewed, and a
    /// revision the table has not shown. Returns it, the revision its
    /// replay gave it and, with `events`, its last command's events.
    fn shown(
        &mut self,
        k: usize,
        whole: Box<ActiveGame<S>>,
        events: bool,
    ) -> (ActiveGame<S>, u64, Vec<<S::Game as GameState>::Event>) {
        let (mut at, events) = self.position(k, events);
        self.at = k.min(self.len());
        let replayed = at.revision;
        at.viewer = self.eyes;
        at.handover = None;
        at.id = self.id;
        at.revision = self.shown;
        self.shown += 1;
        at.file.clone_from(&whole.file);
        at.saved = at.record.clone();
        at.source = whole.source.clone();
        at.reviewing = Some(whole);
        (at, replayed, events)
    }
}

/// A seed no game of this run drew before: the time and a game number.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut h = sandtable_core::hash::Mix::new();
    h.u64(nanos);
    h.u64(super::next_game_id());
    h.finish()
}

/// The game on the table made a new game from the position it shows in
/// review: no file of its own (saved, it is a record of its own, the
/// original never changed), its dice fresh unless `keep_seed` (and the
/// record's own generator rolls its positions), with real dice where the
/// game reviewed had them; seen as the seat the eyes were, or handed to
/// the seat to decide.
pub fn branch<S: TableSystem>(
    shown: &ActiveGame<S>,
    keep_seed: bool,
    seed_kept: bool,
) -> ActiveGame<S> {
    let mut branch = shown.clone();
    let whole = branch.reviewing.take();
    let real = whole.as_ref().is_some_and(|w| w.dice.real);
    branch.id = super::next_game_id();
    branch.file = None;
    branch.saved = Vec::new();
    branch.revision += 1;
    if real {
        // People rolling real dice roll them afresh beside the table.
        branch.game.set_dice(Dice::scripted(Vec::new()));
        branch.dice.real = true;
        branch.dice.replayed = true;
    } else if !(keep_seed && seed_kept) {
        branch.game.reseed(fresh_seed());
        // The seed alone no longer replays it: every roll is saved.
        branch.dice.replayed = true;
    }
    let game = branch.game.game();
    let next = next_seat(game);
    if game.hides() {
        if !matches!(branch.viewer, Viewer::Player(_)) {
            branch.viewer = Viewer::Player(next.unwrap_or(Seat(0)));
        }
        branch.handover = next.filter(|&n| branch.viewer != Viewer::Player(n));
    } else {
        branch.viewer = Viewer::Referee;
        branch.handover = None;
    }
    branch
}

/// The review's requests, for the system `S`'s game on the table.
#[allow(clippy::too_many_arguments)]
fn answer_requests<S: TableSystem>(
    mut commands: Commands,
    mut requests: MessageReader<ReviewRequest>,
    active: Option<ResMut<ActiveGame<S>>>,
    review: Option<ResMut<Review<S>>>,
    mut notice: ResMut<Notice>,
    seats: Res<Seats>,
    mut bot_requests: ResMut<Messages<S::BotRequest>>,
    views: Option<Res<super::remote::ServedViews<S>>>,
) {
    let Some(mut active) = active else {
        requests.clear();
        return;
    };
    // A review of a game no longer on the table is over.
    let mut review = review.filter(|r| r.shows(&active));
    for request in requests.read().copied() {
        match (request, review.as_deref_mut()) {
            (ReviewRequest::Open, None) => match match (&active.outbox, &views) {
                (Some(_), Some(views)) => Review::<S>::of_views(&active, views),
                _ => Review::<S>::of(&active, &seats),
            } {
                Ok(mut fresh) => {
                    let whole = Box::new(active.clone());
                    let at = fresh.len();
                    let (shown, _, _) = fresh.shown(at, whole, false);
                    fresh.start_curve();
                    commands.insert_resource(fresh.panel(&shown));
                    *active = shown;
                    notice.info(if fresh.seen() {
                        format!(
                            "review of what this table was sent: {at} changes; step with the arrow keys or the bar under the table, nothing is played, and the game goes on meanwhile"
                        )
                    } else {
                        format!(
                            "review: {at} commands; step with the arrow keys or the bar under the table, nothing is played"
                        )
                    });
                    commands.insert_resource(fresh);
                    // The bar's review is inserted by the commands; the
                    // next request waits for the next frame.
                    return;
                }
                Err(why) => notice.error(why),
            },
            (ReviewRequest::Open, Some(_)) => {}
            (_, None) => {}
            (ReviewRequest::Close, Some(r)) => {
                let Some(mut whole) = active.reviewing.take() else {
                    continue;
                };
                whole.revision = whole.revision.max(r.shown);
                *active = *whole;
                commands.remove_resource::<Review<S>>();
                commands.remove_resource::<ReviewPanel>();
                notice.info("the review is closed: the game is as it was");
                return;
            }
            (ReviewRequest::PlayOn { .. }, Some(r)) if r.seen() => {
                notice.error(SEEN_NOT_WHOLE);
            }
            (ReviewRequest::PlayOn { keep_seed }, Some(r)) => {
                let at = r.at;
                let fresh = branch(&active, keep_seed, r.seed_kept);
                let kept = keep_seed && r.seed_kept;
                *active = fresh;
                active.settle_handover(&seats);
                bot_requests.clear();
                commands.remove_resource::<Review<S>>();
                commands.remove_resource::<ReviewPanel>();
                notice.info(format!(
                    "a new game from position {at}: {}; saved, it is a record of its own, and the one reviewed stays as it was",
                    if kept {
                        "the dice fall as the record's seed rolls them"
                    } else {
                        "its dice are drawn afresh"
                    }
                ));
                return;
            }
            (ReviewRequest::Eyes(eyes), Some(r)) => {
                if eyes == Viewer::Referee
                    && let Some(why) = r.referee_why_not()
                {
                    notice.error(why);
                    continue;
                }
                if r.seen() && eyes != r.eyes {
                    notice.error(SEEN_EYES);
                    continue;
                }
                if matches!(eyes, Viewer::Player(s) if s.index() >= r.names.len())
                    || eyes == Viewer::Public
                {
                    continue;
                }
                r.eyes = eyes;
                show::<S>(&mut commands, &mut active, r, r.at, false);
            }
            (ReviewRequest::To(k), Some(r)) => {
                show::<S>(&mut commands, &mut active, r, k, false);
            }
            (ReviewRequest::Step(stride, forward), Some(r)) => {
                let k = r.target(stride, forward);
                let one_on = stride == Stride::Command && forward && k == r.at + 1;
                show::<S>(&mut commands, &mut active, r, k, one_on);
            }
            (ReviewRequest::LogLine(i), Some(r)) => {
                // The commands up to the line clicked, in the log shown.
                let k = active.log[..=i.min(active.log.len().saturating_sub(1))]
                    .iter()
                    .filter(|l| l.command)
                    .count();
                show::<S>(&mut commands, &mut active, r, k, false);
            }
        }
    }
}

/// Puts the position after `k` commands on the table; `one_on` when it
/// is one command on from the last shown, so that its marks play as in
/// play ([`TableSystem::shown_in_review`]).
fn show<S: TableSystem>(
    commands: &mut Commands,
    active: &mut ActiveGame<S>,
    review: &mut Review<S>,
    k: usize,
    one_on: bool,
) {
    let Some(whole) = active.reviewing.take() else {
        return;
    };
    let (shown, replayed, events) = review.shown(k, whole, one_on);
    *active = shown;
    commands.insert_resource(review.panel(active));
    let stepped = one_on.then_some(events);
    commands.queue(move |world: &mut World| S::shown_in_review(world, replayed, stepped));
}

/// The search's curve, once weighed, goes to the bar.
fn finish_curve<S: TableSystem>(
    review: Option<ResMut<Review<S>>>,
    active: Option<Res<ActiveGame<S>>>,
    panel: Option<ResMut<ReviewPanel>>,
) {
    let (Some(mut review), Some(active), Some(mut panel)) = (review, active, panel) else {
        return;
    };
    let Some(task) = review.curve.task.as_mut() else {
        return;
    };
    let Some(result) = check_ready(task) else {
        return;
    };
    review.curve.task = None;
    review.curve.done = Some(result.map(Arc::new).map_err(|e| {
        format!(
            "the positions could not be weighed: command {}: {e}",
            e.line
        )
    }));
    *panel = review.panel(&active);
}

/// Another game on the table (opened, begun again) ends the review of
/// the one before.
fn end_stale_review<S: TableSystem>(
    mut commands: Commands,
    review: Option<Res<Review<S>>>,
    active: Option<Res<ActiveGame<S>>>,
) {
    let Some(review) = review else {
        return;
    };
    if active.is_none_or(|a| !review.shows(&a)) {
        commands.remove_resource::<Review<S>>();
        commands.remove_resource::<ReviewPanel>();
    }
}

/// The review's keys: the arrows step a command, with Shift a phase,
/// with Ctrl a turn; End goes to the last position. Not while a text
/// field has the keyboard.
fn read_review_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Res<super::keys::KeyboardTaken>,
    mut out: MessageWriter<ReviewRequest>,
) {
    let Some(keys) = keys else {
        return;
    };
    if taken.0 {
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let stride = if ctrl {
        Stride::Turn
    } else if shift {
        Stride::Phase
    } else {
        Stride::Command
    };
    if keys.just_pressed(KeyCode::ArrowRight) {
        out.write(ReviewRequest::Step(stride, true));
    } else if keys.just_pressed(KeyCode::ArrowLeft) {
        out.write(ReviewRequest::Step(stride, false));
    } else if keys.just_pressed(KeyCode::End) {
        out.write(ReviewRequest::Step(Stride::End, true));
    }
}
