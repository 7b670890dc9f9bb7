//! Where a system played off the map plugs into the battle. The battle
//! asks these questions at fixed points of its turn and carries these
//! values in its commands, events, setup and state; a system round the map
//! answers them. The off-board grid of R40-R57 (`offboard`) is one such
//! system, meant to sit round any host battle: the battle's files name no
//! part of it, and the crate's root joins the two (`offboard::plug`).
//!
//! Here are the values the battle carries; what the battle's rules ask of
//! the system is [`crate::off_map_rules::OffMapRules`]. A battle without
//! the system still carries its type: its setup's block and its state's
//! part are `None`, and only [`OffMap::problems`] is asked anything.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use sandtable_core::hash::Mix;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::hex::{Edge, Hex, Map};
use crate::words::Words;

/// A value the battle carries for the system: copied with the game, read
/// back from a saved game, compared.
pub trait Carried:
    Debug + Clone + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

impl<T> Carried for T where
    T: Debug + Clone + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

/// A value of a command: carried, small, hashed and written in words.
pub trait Word: Carried + Copy + Hash + Display {}

impl<T> Word for T where T: Carried + Copy + Hash + Display {}

/// A problem of a setup: where (a path into the scenario file), the ruling
/// it breaks, and why.
pub type Problem = (String, Option<u16>, String);

/// A shot from the map at pieces off it, checked, as the battle's odds
/// tell it (R56, R67).
pub struct ShotAt {
    /// Its modifiers, named.
    pub modifiers: Vec<(&'static str, i8)>,
    /// Their sum, added to the roll.
    pub modifier: i8,
    /// The armed men shot at: the density (R56).
    pub men: u16,
    /// What is shot at, in words: `counter 5 in 2E`.
    pub target: String,
}

/// A system played off the map: the values the battle carries for it.
pub trait OffMap:
    Debug + Clone + Copy + PartialEq + Eq + Hash + Default + Send + Sync + 'static
{
    /// The system's block of a battle's setup.
    type Setup: Carried;
    /// Its house rules, among the battle's switches.
    type Switches: Carried + Copy + Hash + Default;
    /// Its state, in a battle with it.
    type State: Carried + OffMapState;
    /// Its own commands, which the battle passes to it whole.
    type Command: Word;
    /// A place off the map that pieces on it march to or fire at.
    type Place: Word + FromStr;
    /// Pieces off the map that come onto it, read and written by
    /// [`OffMap::parse_pieces`] and [`OffMap::pieces_words`].
    type Pieces: Carried + Copy + Hash;
    /// What it did, as the battle's events carry it.
    type Event: Debug + Clone + PartialEq + Eq + Send + Sync + 'static;
    /// A checked entry onto the map.
    type EnterPlan: Debug + Clone + PartialEq;
    /// A checked march off the map.
    type MarchOffPlan: Debug + Clone + PartialEq;
    /// A checked shot from the map at pieces off it.
    type FirePlan: Debug + Clone + PartialEq;

    /// The problems of a setup's block (`None` for a battle without it) and
    /// of its switches.
    fn problems(
        setup: Option<&Self::Setup>,
        switches: &Self::Switches,
        map: Map,
        sides: usize,
    ) -> Vec<Problem>;

    /// What a side's pieces off the map cost, in half points (R61).
    fn points_doubled(setup: &Self::Setup, side: usize) -> u64;

    /// The system's state at the start of a battle whose setup has its
    /// block.
    fn start(setup: &Self::Setup, map: Map, homes: [Edge; 2]) -> Self::State;

    /// A checked shot at pieces off the map, as the odds tell it.
    fn shot(plan: &Self::FirePlan) -> ShotAt;

    /// The verbs of its own commands, which the battle passes to
    /// [`OffMap::parse_command`].
    const VERBS: &'static [&'static str];

    /// Its verbs as the battle's refusal of a word that is no verb lists
    /// them after its own.
    const VERBS_WORDS: &'static str;

    /// Reads one of its own commands, or says why not.
    fn parse_command(text: &str) -> Result<Self::Command, String>;

    /// Reads an entry's pieces from the command's words.
    fn parse_pieces(w: &mut Words<'_>) -> Result<Self::Pieces, String>;

    /// An entry's pieces in the command's words.
    fn pieces_words(pieces: &Self::Pieces) -> String;

    /// One of the system's events in words everyone may read.
    fn event_words(event: &Self::Event, names: &[String; 2]) -> String;
}

/// What the battle asks of the system's state.
pub trait OffMapState {
    /// The side the system waits for before the table, if any.
    fn decider(&self) -> Option<usize>;

    /// Whether the system decides now, before the table.
    fn waits(&self) -> bool;

    /// Whether pieces entered `hex` this player turn (they do not attack,
    /// R48).
    fn entered(&self, hex: Hex) -> bool;

    /// The player turn ends: its marks are cleared.
    fn end_turn(&mut self);

    /// A side's armed men off the map (R64).
    fn armed_men(&self, side: usize) -> u32;

    /// Mixes what changes into a state hash.
    fn hash_into(&self, h: &mut Mix);

    /// Whether a state read back fits `fresh` (the state a battle of the
    /// same setup starts with) and the map: why not.
    fn fits(&self, fresh: &Self, map: Map) -> Result<(), String>;
}
