//! Where the turn stands (R104-R112), as values: each side's cards, the
//! phase, the step's active units and their names, whose decision it is.
//! The rules that move it on are [`crate::turn`]'s.

use sandtable_core::game::Ending;

use crate::army::{Placed, Slot};
use crate::attack::Outcome;
use crate::command::{Command, Kind};
use crate::data::Window;

/// A side's cards (R104, R105), each by its place in [`crate::data::CARDS`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Cards {
    /// Whether the deck is dealt yet (at the side's first draw).
    pub dealt: bool,
    /// The deck, top first: nobody's to see (R149).
    pub deck: Vec<u8>,
    /// The hand: its owner's.
    pub hand: Vec<u8>,
    /// The discards, oldest first: everyone's.
    pub discards: Vec<u8>,
}

/// Where the turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// This side deploys a unit, before the first turn (R146).
    Deploy(u8),
    /// This side's Preparation (R105).
    Prepare(u8),
    /// Both sides place their markers, sealed (R107).
    Order,
    /// This side names its active unit's action (R110).
    Name(u8),
    /// The step's actions resolve in order (R111).
    Act,
    /// Two shots named as one sealed decision (R111).
    Shots,
    /// This side's unit acts in the Reserve (R112).
    Reserve(u8),
    /// A card window is open ([`Flow::window`], R132).
    Window,
}

/// A card window open (R132).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Open {
    /// Its kind: Step, Shot or Hit.
    pub kind: Window,
    /// The side to play a card or pass.
    pub side: u8,
    /// Passes in a row.
    pub passes: u8,
    /// The unit a Hit window is for.
    pub unit: Option<usize>,
}

/// A unit whose marker is turned up in this step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Active {
    /// Its side.
    pub side: u8,
    /// The unit, by index.
    pub unit: usize,
    /// Where its marker lies.
    pub slot: Slot,
    /// The action named, once it is.
    pub kind: Option<Kind>,
    /// Whether it has resolved.
    pub done: bool,
}

/// The turn's state.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Flow {
    /// The phase.
    pub phase: Phase,
    /// The step, from 1; 0 before the first.
    pub step: u8,
    /// Each side's markers this turn, revealed to both once both are
    /// placed; their numbers stay each side's own until turned up.
    pub placed: [Vec<Placed>; 2],
    /// A sealed command given and not yet revealed: orders, or a shot.
    pub sealed: [Option<Command>; 2],
    /// This step's active units: in naming order, then in resolution
    /// order once both are named.
    pub active: Vec<Active>,
    /// The side that names first this step (R110).
    pub first: u8,
    /// In the Reserve, the Movement of the group acting and the side due
    /// next in it (R112).
    pub group: Option<(u8, u8)>,
    /// Shots of a sealed pair still to resolve, in order (R111).
    pub queue: Vec<(u8, Command)>,
    /// Each side's cards.
    pub cards: [Cards; 2],
    /// The card window open, if one is.
    pub window: Option<Open>,
    /// Whether this step's Step window has been (R132).
    pub windowed: bool,
    /// Outcomes rolled, not yet landed, first first (R111).
    pub landing: Vec<(usize, Outcome)>,
    /// Whether the first outcome's Hit window has been.
    pub asked: bool,
    /// Cards' modifiers to the shots in the queue, by shooter (R152).
    pub mods: Vec<(usize, i8)>,
    /// Units given an over marker this turn by a card (R133).
    pub over: Vec<usize>,
    /// Numbered markers added this turn by cards (R106, R152).
    pub extra: [u8; 2],
    /// Cards each side still owes to its discards this Preparation (a
    /// resupply's two, R152).
    pub owed: [u8; 2],
}

impl Flow {
    /// The cards' modifier to unit `i`'s shot now (R152).
    pub fn card_mod(&self, i: usize) -> i8 {
        self.mods.iter().filter(|m| m.0 == i).map(|m| m.1).sum()
    }
}

impl Default for Flow {
    fn default() -> Flow {
        Flow::new()
    }
}

impl Flow {
    /// A game's first turn, at the first seat's Preparation.
    pub fn new() -> Flow {
        Flow {
            phase: Phase::Prepare(0),
            step: 0,
            placed: [Vec::new(), Vec::new()],
            sealed: [None, None],
            active: Vec::new(),
            first: 0,
            group: None,
            queue: Vec::new(),
            cards: [Cards::default(), Cards::default()],
            window: None,
            windowed: false,
            landing: Vec::new(),
            asked: false,
            mods: Vec::new(),
            over: Vec::new(),
            extra: [0; 2],
            owed: [0; 2],
        }
    }
}

/// Whose decision it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owing {
    /// This side's.
    One(u8),
    /// These sides', sealed.
    Sealed([bool; 2]),
    /// Nobody's: the game is over.
    Over(Ending),
}

/// What happened, for [`crate::Game::apply_as`]'s caller: dice rolled, a reveal,
/// a new turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Done {
    /// Dice were rolled.
    pub rolled: bool,
    /// Something hidden was revealed (R149).
    pub revealed: bool,
    /// A turn began.
    pub began: bool,
}
