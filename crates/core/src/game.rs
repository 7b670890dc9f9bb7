//! The game contract: what every rule system provides, so that one CLI, one
//! set of bots and one table serve them all.
//!
//! Its shape follows the engines that play many games: OpenSpiel's `State`
//! (whose decision it is, simultaneous decisions included; legal actions;
//! apply; chance; a view a player; returns), boardgame.io's stripping of
//! secrets on the server, and shakmaty's `Position` in Rust terms (a game is
//! validated from its setup; each operation has its own error type).
//!
//! A rule system's crate implements [`GameState`] for its game. Everything
//! else (records, replay, the CLI's commands, the bots' search, perft) is
//! written once over the trait.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::dice::Dice;

/// A ruling of RULINGS.md or of a system's rulings file, by number: `R23`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Ruling(pub u16);

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "R{}", self.0)
    }
}

/// A seat at the table: a player's index in the setup's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Seat(pub u16);

impl Seat {
    /// The seat's index, for slices of seats.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A set of seats, for decisions owed by several players at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seats(pub u64);

impl Seats {
    /// Most seats a set holds (and so a game may have).
    pub const MAX: usize = 64;

    /// Whether the seat is in the set.
    pub fn contains(self, seat: Seat) -> bool {
        seat.index() < Self::MAX && self.0 & (1 << seat.0) != 0
    }

    /// The set with `seat` added.
    pub fn with(self, seat: Seat) -> Seats {
        assert!(seat.index() < Self::MAX, "at most {} seats", Self::MAX);
        Seats(self.0 | 1 << seat.0)
    }

    /// The seats in the set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..Self::MAX as u16)
            .map(Seat)
            .filter(move |s| self.contains(*s))
    }
}

/// The seed of a bot in a seat, from the seed its bots start with (by
/// default the game's): one rule for the CLI and the app, so that a bot game
/// started in one replays identically in the other.
pub fn seat_seed(bot_seed: u64, seat: Seat) -> u64 {
    bot_seed.wrapping_add(u64::from(seat.0))
}

/// Whose decision it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// One player decides: the player to move, or a player who must answer
    /// another's action (choosing casualties, where routers go ...).
    One(Seat),
    /// Each of these players owes a sealed decision (an orders phase): each
    /// commits without seeing the others', then all are revealed together.
    Sealed(Seats),
    /// Nobody: the game is over.
    Over(Ending),
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Ending {
    /// This player won.
    Won(Seat),
    /// Nobody won, for this reason (in plain words, with its ruling).
    Draw(&'static str),
}

/// An ending as it is read: its reason a text of its own, kept once
/// ([`crate::wire::intern`]).
#[derive(Deserialize)]
enum EndingWire {
    Won(Seat),
    Draw(String),
}

impl<'de> Deserialize<'de> for Ending {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Ending, D::Error> {
        Ok(match EndingWire::deserialize(d)? {
            EndingWire::Won(seat) => Ending::Won(seat),
            EndingWire::Draw(why) => {
                Ending::Draw(crate::wire::intern(why).map_err(serde::de::Error::custom)?)
            }
        })
    }
}

/// A place on the surface a game is played on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Spot {
    /// A square of a square grid: column and row from 0, from the left and
    /// the near edge.
    Square {
        /// Column from the left edge.
        col: u16,
        /// Row from the near edge.
        row: u16,
    },
    /// A hex of a hex map, by its column and row in the map's own offset
    /// coordinates.
    Hex {
        /// Column from the left.
        col: u16,
        /// Row from the near edge.
        row: u16,
    },
    /// A square of the off-board grid round a hex map (R40), by its column
    /// and row in the grid's lattice from its bottom-left corner; the
    /// lattice counts the map's columns and rows too.
    Ring {
        /// Column from the lattice's left edge.
        col: u16,
        /// Row from the lattice's bottom edge.
        row: u16,
    },
    /// A point on a plane, in whole millimetres from the table's left and
    /// near edges (a table up to 32 m across).
    Point {
        /// Across, from the left edge.
        x_mm: i16,
        /// Along, from the near edge.
        y_mm: i16,
    },
}

/// The surface a game is played on, for the table, the layout preview and
/// the printed sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Surface {
    /// A grid of squares.
    Squares {
        /// Columns, left to right.
        columns: u16,
        /// Rows, near to far.
        rows: u16,
    },
    /// A map of hexes.
    Hexes {
        /// Columns, left to right.
        columns: u16,
        /// Rows, near to far.
        rows: u16,
    },
    /// A plane measured in whole millimetres (no floats in a game's state,
    /// R100), up to 32 m across as [`Spot::Point`] measures.
    Plane {
        /// Width, left to right.
        width_mm: u16,
        /// Depth, near to far.
        depth_mm: u16,
    },
}

/// A legal command with what a table needs to show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Legal<C> {
    /// The command.
    pub command: C,
    /// What it spends, in the system's own unit (Cache: actions); 0 where it
    /// spends nothing or the system has no cost.
    pub cost: u16,
    /// Where the piece it acts on stands, if it acts on one.
    pub piece: Option<Spot>,
    /// Where it lands or aims: the square an advance ends on, the hex a shot
    /// aims at, the point a move ends at.
    pub at: Option<Spot>,
}

/// Where undo stops after a command (R31): it never goes back past one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Barrier {
    /// A new turn began.
    TurnStart,
    /// Dice were rolled.
    Roll,
    /// Something hidden was revealed.
    Reveal,
}

/// What applying a command did, beyond its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applied {
    /// Where undo now stops, when the command set a new stopping place.
    pub barrier: Option<Barrier>,
}

/// Who looks at a game: the referee sees everything, a player only what
/// that player may see (R57), the public only what every player sees: a
/// spectator's view, no seat's secrets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Everything.
    Referee,
    /// What this player may see.
    Player(Seat),
    /// What every player sees alike: nobody's hand, sealed order or
    /// hidden counter.
    Public,
}

/// The dice of a masked game ([`GameState::masked`]): an empty script,
/// which holds no seed and no roll to come.
pub fn no_dice() -> Dice {
    Dice::scripted(Vec::new())
}

/// The seed a masked game's deal of what its viewer may not see is drawn
/// with: fixed, so that the deal reads the viewer's view alone.
pub const MASK_SEED: u64 = 0x6d61_736b;

/// An exact chance, `num` in `den`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chance {
    /// Ways the outcome happens.
    pub num: u64,
    /// Ways in all.
    pub den: u64,
}

impl Chance {
    /// The chance as a number from 0 to 1.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{} ({:.1}%)",
            self.num,
            self.den,
            100.0 * self.value()
        )
    }
}

/// The odds of a command decided by dice: each outcome, in the rules' own
/// words, with its exact chance. The chances add up to 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odds {
    /// What the dice decide, in plain words ("the stash roll (R21)").
    pub what: String,
    /// Each outcome and its chance.
    pub outcomes: Vec<(String, Chance)>,
}

/// What the rules worked out for a command, for a front end to draw, so
/// that no front end works the rules' geometry out again: the path a
/// piece takes, a line of sight with what blocks it and what it costs, a
/// template, a cloud, a reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    /// The path a piece takes, its points in order from where it stands.
    Path {
        /// The points.
        points: Vec<Spot>,
    },
    /// A line of sight, clear or blocked.
    Sight {
        /// Where it starts.
        from: Spot,
        /// Where it ends on its target.
        to: Spot,
        /// Where it is first blocked, for a line that is.
        blocked_at: Option<Spot>,
        /// Its modifiers' sum.
        modifier: i16,
        /// Each modifier in words, with its ruling.
        words: Vec<String>,
    },
    /// A disc on the plane.
    Disc {
        /// Its centre.
        centre: Spot,
        /// Across, in mm.
        diameter_mm: u16,
        /// What it is.
        kind: DiscKind,
    },
}

/// What a [`Mark::Disc`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiscKind {
    /// A template where it lies (or will lie).
    Template,
    /// A cloud of smoke.
    Cloud,
    /// How far a piece reaches from its centre: a move's, a throw's, a
    /// drop's scatter.
    Reach,
    /// One of the points a scattering drop may land on, one a roll of its
    /// two dice (1 in 36 each; several rolls may land on one point).
    Landing,
}

/// A refusal of a command: why, in plain words ending with its ruling.
pub trait Refusal: fmt::Display {
    /// The ruling the refusal enforces.
    fn ruling(&self) -> Ruling;
}

/// A game of some rule system: a validated setup and its state. Everything
/// the CLI, the bots and the table need goes through here.
pub trait GameState: Clone + Send + Sync + 'static {
    /// A command in the system's move notation: `Display` prints it and
    /// `FromStr` reads it back.
    type Command: Copy
        + PartialEq
        + fmt::Debug
        + fmt::Display
        + FromStr<Err: fmt::Display>
        + Send
        + Sync;
    /// Why a command is refused.
    type Refusal: Refusal + fmt::Debug;
    /// What a command did, one thing at a time.
    type Event: fmt::Debug + Clone + Send + Sync;

    /// The rule system's name, as a scenario's `rules:` field names it.
    fn system(&self) -> &'static str;
    /// How many seats the game has.
    fn seats(&self) -> usize;
    /// A seat's player name.
    fn seat_name(&self, seat: Seat) -> &str;
    /// Whose decision it is now.
    fn decision(&self) -> Decision;
    /// Every legal command of `seat` now, in a stable order (cleared first),
    /// one a family where the system lists families ([`GameState::listed_as`]);
    /// empty for a seat that owes no decision.
    fn legal_into(&self, seat: Seat, out: &mut Vec<Legal<Self::Command>>);
    /// One legal command of `seat`, each command of its list
    /// ([`GameState::legal_into`]) as likely as any other, drawn with `rng`;
    /// `None` for a seat that owes no decision: what a random player and a
    /// random playout play. The default lists the commands, draws one
    /// family (one `random_range` over the list's length), then one of its
    /// members ([`GameState::sample_into`]: the listed command itself,
    /// drawing nothing, unless the system draws members); a system may draw
    /// without making the whole list, as long as every listed command keeps
    /// the same chance.
    fn random_command<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Self::Command> {
        let mut legal = Vec::new();
        self.legal_into(seat, &mut legal);
        if legal.is_empty() {
            return None;
        }
        // A family, then one of its members.
        let family = legal[rng.random_range(0..legal.len())].command;
        let mut member = Vec::with_capacity(1);
        self.sample_into(seat, &family, 1, rng, &mut member);
        Some(member.pop().unwrap_or(family))
    }
    /// Up to `count` members of the family of `listed` (a command of
    /// `seat`'s list), drawn with `rng` and appended to `out`: the commands
    /// that differ from it only in what varies over a continuum or by
    /// count (where a move ends on an open table, the point a shot is
    /// aimed at), each accepted by `check` and of `listed`'s family
    /// ([`GameState::listed_as`]). A system whose members are too many to
    /// list draws them here, uniformly over their reach, with points of its
    /// own worth trying. The default appends the listed command alone (no
    /// draw): a list that names every member, as Cache's and the battle's
    /// do.
    fn sample_into<R: Rng + ?Sized>(
        &self,
        seat: Seat,
        listed: &Self::Command,
        count: usize,
        rng: &mut R,
        out: &mut Vec<Self::Command>,
    ) {
        let _ = (seat, rng);
        if count > 0 {
            out.push(*listed);
        }
    }
    /// The member of the family of `listed` nearest to `wanted` (a piece
    /// let go at a point, typed coordinates, a bot's candidate), accepted
    /// by `check`: what a table snaps a drag to. `None` where the family
    /// has no member placed there or near it; the default, for families
    /// that are one command each, is `None`.
    fn nearest(&self, seat: Seat, listed: &Self::Command, wanted: Spot) -> Option<Self::Command> {
        let _ = (seat, listed, wanted);
        None
    }
    /// The listed command that `command` is one of. A system whose commands
    /// carry counts or paths (how many men of each kind march, by which
    /// hexes) lists one command for each family of commands that differ only
    /// in those, and names here the family's listed command; every command
    /// `check` accepts is then one of a listed command's family, and a listed
    /// command is its own (the property tests check both). The default is
    /// the command itself: a list that names every legal command.
    fn listed_as(&self, command: &Self::Command) -> Self::Command {
        *command
    }
    /// Checks a command of `seat` without changing anything.
    fn check(&self, seat: Seat, command: &Self::Command) -> Result<(), Self::Refusal>;
    /// Checks and applies a command of `seat`, appending its events. A
    /// refused command changes nothing.
    fn apply_into(
        &mut self,
        seat: Seat,
        command: &Self::Command,
        events: &mut Vec<Self::Event>,
    ) -> Result<Applied, Self::Refusal>;
    /// An event in plain words, for logs and the CLI.
    fn describe(&self, event: &Self::Event) -> String;
    /// Whether anything of the game is hidden from some player now or may
    /// be later (a hand, a sealed order, a counter off the map): a table
    /// shows each player only that player's view and hands the game over
    /// between players behind a curtain. `false` by default: every viewer
    /// sees everything, as the referee does.
    fn hides(&self) -> bool {
        false
    }
    /// An event in plain words as `viewer` may read it, `None` where the
    /// viewer may not know it happened: what a table, its log and its
    /// hover texts show each player. By default every viewer reads
    /// [`GameState::describe`], as in a game that hides nothing.
    fn describe_for(&self, event: &Self::Event, viewer: Viewer) -> Option<String> {
        let _ = viewer;
        Some(self.describe(event))
    }
    /// `seat`'s `command`, just given (`self` is the game after it), as
    /// `viewer` may read it in a log, `None` where the viewer may not know
    /// it (another player's sealed order before it is revealed). By default
    /// its notation, for every viewer.
    fn command_for(&self, seat: Seat, command: &Self::Command, viewer: Viewer) -> Option<String> {
        let _ = (seat, viewer);
        Some(command.to_string())
    }
    /// Whether a log prints the event under its command; `false` for an
    /// event that only repeats what the command's own line says.
    fn logged(&self, event: &Self::Event) -> bool {
        let _ = event;
        true
    }
    /// Why undo goes back no further, in the system's words with the
    /// ruling (R31): `barrier` is what set the stopping place, `None` the
    /// start of the game. Undo itself is the contract's
    /// ([`crate::undo::Undoable`]), from the barriers `apply_into` reports.
    fn undo_stop(&self, barrier: Option<Barrier>) -> String {
        default_stop(barrier)
    }
    /// The odds of a command decided by dice, before it is played: one
    /// distribution for each thing the dice decide (a shot's casualties, and
    /// whether it hits the firer's own men; a melee's result, then the
    /// losers' fate), each adding up to 1. Empty when no dice decide it, or
    /// the command is refused. They are shown to `seat`'s person: a game
    /// that hides anything works them out from what `seat` may know, so
    /// that they tell nothing hidden.
    fn odds(&self, seat: Seat, command: &Self::Command) -> Vec<Odds>;
    /// The game's dice source (R30).
    fn dice(&self) -> &Dice;
    /// Replaces the dice source (R30): real dice rolled beside a real
    /// table, typed in as a scripted list, from this point on. Undo stops
    /// here as at a roll ([`crate::undo::Undoable::set_dice`]).
    fn set_dice(&mut self, dice: Dice);
    /// Replaces the dice with a generator seeded with `seed`, for a bot's
    /// private copy: it samples dice it cannot know (R30). Undo stops here
    /// as at a roll ([`crate::undo::Undoable::reseed`]).
    fn reseed(&mut self, seed: u64);
    /// For a bot's private copy: replaces everything `viewer` may not see
    /// (another player's hidden hand, a sealed order not yet revealed) with
    /// a random deal consistent with what it may see, drawn with `seed`, and
    /// reseeds the dice, so that a search samples what it cannot know and
    /// never peeks (R30, R57). A game that hides nothing only reseeds.
    fn redeal(&mut self, viewer: Seat, seed: u64) {
        let _ = viewer;
        self.reseed(seed);
    }
    /// A copy holding only what `viewer` may see: what a network client
    /// of that viewer is sent. What the viewer may not see is dealt again
    /// from its view alone with a fixed seed (so two games that look the
    /// same to the viewer give the same copy, and the copy looks the same
    /// to it as the game does), and the dice are an empty script
    /// ([`no_dice`]) and any seed the game keeps (its setup's) is 0, so
    /// a copy never holds the seed or a future roll. For the referee, the
    /// game without its dice; for a system that hides nothing, the same
    /// for every viewer.
    fn masked(&self, viewer: Viewer) -> Self;
    /// A stable 64-bit hash of the whole changing state, dice included.
    fn state_hash(&self) -> u64;
    /// The turn, as the system counts turns for its records and limits.
    fn turn(&self) -> u32;
    /// The surface the game is played on.
    fn surface(&self) -> Surface;
    /// What is at a place of the surface, in plain words, as `viewer` may
    /// know it: the label a table shows under the pointer. `None` where
    /// there is nothing to say, or the spot is not a place of this game.
    /// None by default.
    fn describe_spot(&self, spot: Spot, viewer: Viewer) -> Option<String> {
        let _ = (spot, viewer);
        None
    }
    /// What the rules worked out for `seat`'s `command` (legal or not),
    /// for a front end to draw as `viewer` may see it ([`Mark`]): a
    /// move's path and reach, a shot's line with what blocks it and its
    /// modifiers, a template. None by default: a board of cells shows a
    /// command by its [`Legal`] spots alone.
    fn marks(&self, seat: Seat, command: &Self::Command, viewer: Viewer) -> Vec<Mark> {
        let _ = (seat, command, viewer);
        Vec::new()
    }
    /// The JSON summary of what `viewer` may see, as the CLI's `--json`
    /// prints it.
    fn view_json(&self, viewer: Viewer) -> String;
    /// What `viewer` may see drawn as text for a terminal: the board, its
    /// legend, and a status line of whose decision it is.
    fn draw_text(&self, viewer: Viewer) -> String;
    /// Setup warnings worth showing, in plain words.
    fn warnings(&self) -> Vec<String>;
}

/// The words of a stop of undo that a system does not phrase its own way.
pub fn default_stop(barrier: Option<Barrier>) -> String {
    match barrier {
        None | Some(Barrier::TurnStart) => {
            "undo goes back no further than the start of the turn (R31)".to_owned()
        }
        Some(Barrier::Roll) => "undo never goes back past a roll of the dice (R31)".to_owned(),
        Some(Barrier::Reveal) => {
            "undo never goes back past something hidden being revealed (R31)".to_owned()
        }
    }
}

/// One mark a player for a text board, unique among the players: the
/// name's first letter, upper case, or, where two names share it or it is
/// not a letter or digit of plain ASCII (日本, Ωmega: a terminal font or a
/// printed sheet may lack it), the player's number from 1.
pub fn player_marks<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<char> {
    let initials: Vec<char> = names
        .into_iter()
        .map(|n| {
            n.chars()
                .next()
                .filter(char::is_ascii_alphanumeric)
                .map_or('?', |c| c.to_ascii_uppercase())
        })
        .collect();
    initials
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if *c != '?' && initials.iter().filter(|d| *d == c).count() == 1 {
                *c
            } else {
                char::from_digit((i as u32 + 1) % 10, 10).unwrap_or('?')
            }
        })
        .collect()
}

/// A perft count: the leaves of the game tree at a depth, and the game
/// copies made to reach them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Perft {
    /// Leaves at the depth (a finished game counts as one leaf).
    pub leaves: u64,
    /// Games copied on the way: one for every command applied.
    pub copies: u64,
}

/// The seat that acts next: the one whose decision it is, or for sealed
/// decisions the lowest seat that still owes one (records write sealed
/// decisions in seat order); `None` when the game is over.
pub fn next_seat<G: GameState>(game: &G) -> Option<Seat> {
    match game.decision() {
        Decision::One(seat) => Some(seat),
        Decision::Sealed(seats) => seats.iter().next(),
        Decision::Over(_) => None,
    }
}

/// Counts the leaves of the game tree `depth` commands deep, a copy of the
/// game a node (copy-make): the count at depth 1 is the length of the legal
/// list. A finished game is one leaf. Commands come from the seat whose
/// decision it is; for sealed decisions, from the lowest seat that owes one.
/// Each depth keeps one game that every child is copied into
/// (`clone_from`), as a tree search does, so a copy reuses its buffers.
pub fn perft<G: GameState>(game: &G, depth: u32) -> Perft {
    let mut levels: Vec<Level<G>> = (0..depth)
        .map(|_| Level {
            list: Vec::new(),
            child: game.clone(),
        })
        .collect();
    let mut events = Vec::new();
    let mut count = Perft::default();
    perft_at(game, depth, &mut levels, &mut events, &mut count);
    count
}

/// What perft keeps for one depth: its legal list and the game its
/// children are copied into.
struct Level<G: GameState> {
    list: Vec<Legal<G::Command>>,
    child: G,
}

fn perft_at<G: GameState>(
    game: &G,
    depth: u32,
    levels: &mut [Level<G>],
    events: &mut Vec<G::Event>,
    count: &mut Perft,
) {
    if depth == 0 {
        count.leaves += 1;
        return;
    }
    let Some(seat) = next_seat(game) else {
        count.leaves += 1;
        return;
    };
    let (level, deeper) = levels.split_first_mut().expect("a level a depth");
    game.legal_into(seat, &mut level.list);
    if depth == 1 {
        count.leaves += level.list.len() as u64;
        return;
    }
    for legal in level.list.iter() {
        level.child.clone_from(game);
        count.copies += 1;
        events.clear();
        level
            .child
            .apply_into(seat, &legal.command, events)
            .expect("a listed command is legal");
        perft_at(&level.child, depth - 1, deeper, events, count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_sets_hold_what_is_put_in() {
        let set = Seats::default().with(Seat(0)).with(Seat(5)).with(Seat(63));
        assert_eq!(set.iter().collect::<Vec<_>>(), [Seat(0), Seat(5), Seat(63)]);
        assert!(!set.contains(Seat(1)));
        assert!(!set.contains(Seat(64)));
    }

    #[test]
    fn a_legal_command_stays_small_enough_to_list_by_the_million() {
        assert_eq!(std::mem::size_of::<Option<Spot>>(), 6);
    }

    #[test]
    fn chances_print_exactly_and_as_a_percentage() {
        let c = Chance { num: 5, den: 36 };
        assert_eq!(c.to_string(), "5/36 (13.9%)");
        assert_eq!(Ruling(23).to_string(), "R23");
    }
}
