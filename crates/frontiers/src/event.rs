//! What a command did, as values (events), and why a command is refused
//! (a ruling and where and why, in words): the contract's log, the views
//! and the undo stops are built from them.

use sandtable_core::game::Ending;

use crate::attack::Outcome;
use crate::data::Location;
use crate::geometry::Pt;
use crate::moves::PathError;

/// What a template or shot hits: a unit or a building element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Struck {
    /// A unit, by index.
    Unit(usize),
    /// A building element, by index.
    Element(usize),
}

/// A drop waiting for where its template fell (`drop: placed`, R129).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PendingDrop {
    /// The firer.
    pub shooter: usize,
    /// The weapon.
    pub weapon: u8,
    /// The centre aimed at.
    pub aim: Pt,
}

/// What a command did.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A unit moved along its path (R113).
    Moved {
        /// The unit.
        unit: usize,
        /// Where it stood.
        from: Pt,
        /// Where it stands.
        to: Pt,
        /// Its facing now.
        facing: i16,
        /// The path's length, in mm.
        length: f64,
        /// The space it ends in, if it ends in a building (R117).
        into: Option<(u8, u8)>,
    },
    /// A grenade thrown through a window (R127).
    ThroughWindow {
        /// The thrower.
        unit: usize,
        /// The element.
        element: usize,
        /// The window's number among its windows, from 1.
        window: u8,
    },
    /// A unit set down by its transport along its path (R140).
    Deployed {
        /// The unit.
        unit: usize,
        /// Where it stands.
        at: Pt,
    },
    /// A unit pushed off a light structure by an oval ending on it (R115).
    Pushed {
        /// The unit.
        unit: usize,
        /// Where it stands now.
        to: Pt,
    },
    /// A unit boarded a transport (R140).
    Boarded {
        /// The unit.
        unit: usize,
        /// The transport.
        vehicle: usize,
    },
    /// A unit set down by its destroyed transport (R125).
    Unloaded {
        /// The unit.
        unit: usize,
        /// Where it stands.
        at: Pt,
    },
    /// A transport's C location was hit with several aboard: its owner
    /// picks which takes the step (R125).
    PickOwed {
        /// The transport.
        vehicle: usize,
    },
    /// A medic or a mechanic cared for a unit (R139).
    Cared {
        /// The medic or mechanic.
        carer: usize,
        /// The unit cared for.
        patient: usize,
        /// What was done, in words.
        done: &'static str,
    },
    /// A unit in a building's ruin stands outdoors where it was (R119).
    Outdoors {
        /// The unit.
        unit: usize,
    },
    /// A shot's line of sight and its modifiers (R120-R122).
    Sighted {
        /// The shooter.
        shooter: usize,
        /// The target.
        target: usize,
        /// The line's end on the target, in whole mm.
        to: Pt,
        /// Each modifier and its reason.
        modifiers: Vec<(String, i8)>,
    },
    /// An attack rolled (R123).
    Attacked {
        /// Who is attacked.
        struck: Struck,
        /// The die.
        roll: u8,
        /// The bonus.
        bonus: i8,
        /// The modifiers' sum.
        modifiers: i8,
        /// The defense it needs (a crater's +1 in).
        defense: u8,
        /// What it did.
        outcome: Outcome,
    },
    /// A sniper's shot rolled (R142).
    Sniped {
        /// The target.
        target: usize,
        /// The die.
        roll: u8,
        /// What it needed.
        need: u8,
        /// The seed's penalties counted in `need` (R142).
        penalties: u8,
        /// What it did.
        outcome: Outcome,
    },
    /// A unit turned to its damaged side (R124).
    Damaged {
        /// The unit.
        unit: usize,
    },
    /// A vehicle's location rolled (R125).
    LocationHit {
        /// The vehicle.
        unit: usize,
        /// The die.
        roll: u8,
        /// The location.
        location: Location,
        /// Whether it was hit before: the vehicle is destroyed.
        again: bool,
    },
    /// A unit destroyed (R124, R125), its AP to the enemy (R145).
    Destroyed {
        /// The unit.
        unit: usize,
        /// Whether a carcass stays.
        carcass: bool,
    },
    /// A building element took a step (R119).
    ElementStep {
        /// The element.
        element: usize,
        /// Steps left before it is a ruin.
        left: u8,
    },
    /// An element became a ruin, a light structure (R119).
    Ruined {
        /// The element.
        element: usize,
    },
    /// A template laid (R126).
    Template {
        /// Its centre.
        at: Pt,
        /// Its diameter.
        diameter: u16,
    },
    /// A drop's scatter (R129).
    Scattered {
        /// The centre aimed at.
        aim: Pt,
        /// The direction die.
        direction: u8,
        /// The distance die.
        distance: u8,
        /// Where it lands.
        at: Pt,
    },
    /// A drop awaits where its template fell (`drop: placed`, R129).
    AwaitingDrop {
        /// The centre aimed at.
        aim: Pt,
    },
    /// A cloud thrown (R130).
    Smoked {
        /// The thrower.
        unit: usize,
        /// Its centre.
        at: Pt,
    },
    /// A unit flipped to an ability's side or back (R135, R136).
    Flipped {
        /// The unit.
        unit: usize,
        /// Whether it shows its back now.
        back: bool,
        /// Why, in words.
        why: &'static str,
    },
    /// A side's Preparation (R105): what it discarded (everyone's to
    /// see) and drew (its own).
    Prepared {
        /// The side.
        side: u8,
        /// The cards discarded, by their place in the card list.
        discarded: Vec<u8>,
        /// The cards drawn.
        drew: Vec<u8>,
    },
    /// A side placed its markers, face down (R107).
    OrdersSealed {
        /// The side.
        side: u8,
    },
    /// Where a side's face-down markers lie, seen by both once both
    /// sides have placed theirs (R107).
    MarkersLie {
        /// The side.
        side: u8,
        /// Each marker's unit and slot.
        places: Vec<(usize, crate::army::Slot)>,
    },
    /// A marker turned up in its step (R108).
    MarkerUp {
        /// The unit.
        unit: usize,
        /// Where it lies.
        slot: crate::army::Slot,
        /// Its number.
        n: u8,
    },
    /// A coin (a die, 1 to 3 the first seat): who names first (R110) or
    /// starts a group of the Reserve (R112).
    Coin {
        /// The roll.
        roll: u8,
        /// The side it gave.
        side: u8,
        /// What it decided.
        why: &'static str,
    },
    /// An active unit's action named (R110).
    Named {
        /// The unit.
        unit: usize,
        /// Its kind.
        kind: crate::command::Kind,
    },
    /// A side named its shot, sealed (R111).
    ShotSealed {
        /// The side.
        side: u8,
    },
    /// A unit's action, or its Reserve, let go or lost (R111, R112).
    LetGo {
        /// The unit.
        unit: usize,
    },
    /// A card played (R132): everyone sees it.
    CardPlayed {
        /// Its side.
        side: u8,
        /// The card, by its place in the card list.
        card: u8,
        /// The unit it names, if it names one.
        unit: Option<usize>,
    },
    /// A resupply's two cards drawn (R152): the side's own to see.
    Resupplied {
        /// The side.
        side: u8,
        /// The cards drawn.
        drew: Vec<u8>,
    },
    /// A crate opened: what it held (R143, R144).
    CrateOpened {
        /// The opener.
        unit: usize,
        /// The crate.
        crate_k: u8,
        /// Its content.
        content: crate::crates::Content,
    },
    /// A crate handed over: neither shoots this turn (R144).
    HandedOver {
        /// The carrier.
        from: usize,
        /// The taker.
        to: usize,
    },
    /// A crate used once, gone (R144).
    CrateSpent {
        /// Its carrier.
        unit: usize,
        /// What it held.
        content: crate::crates::Content,
    },
    /// A crate its side allotted shown to both as its carrier uses it or
    /// falls (R143).
    CrateShown {
        /// The carrier.
        unit: usize,
        /// The crate.
        crate_k: u8,
        /// What it holds.
        content: crate::crates::Content,
    },
    /// A fallen carrier's crate lies where it fell.
    CrateDropped {
        /// The carrier.
        unit: usize,
        /// The crate.
        crate_k: u8,
    },
    /// A crate banked at the own edge (R148).
    Banked {
        /// Its carrier.
        unit: usize,
    },
    /// The diskette picked up (R147).
    DisketteTaken {
        /// The carrier.
        unit: usize,
    },
    /// The diskette tossed to a friend; it always arrives (R147).
    Tossed {
        /// The thrower.
        from: usize,
        /// The catcher.
        to: usize,
    },
    /// The diskette dropped where its carrier fell (R147).
    DisketteDropped {
        /// The carrier.
        unit: usize,
    },
    /// A unit left off the table: no room to deploy it (R146).
    Withheld {
        /// The unit.
        unit: usize,
    },
    /// A unit deployed (R146): at its point, or in a space (R138).
    Placed {
        /// The unit.
        unit: usize,
        /// Its centre.
        at: Pt,
    },
    /// A side passed in a card window (R132).
    Passed {
        /// The side.
        side: u8,
    },
    /// A step cancelled by a cover card (R152).
    Covered {
        /// The unit.
        unit: usize,
    },
    /// The decoys revealed and removed at the Reserve (R112).
    DecoysGone {
        /// Their side.
        side: u8,
        /// The units they lay on.
        units: Vec<usize>,
    },
    /// A new game turn began.
    TurnBegan {
        /// Its number.
        turn: u32,
    },
    /// The game ended (R145).
    Ended {
        /// How.
        ending: Ending,
        /// AP each side destroyed.
        ap: [u16; 2],
    },
}

/// Why a command is refused: its ruling and where and why, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandError {
    /// The ruling.
    pub ruling: u16,
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (R{})", self.reason, self.ruling)
    }
}

impl std::error::Error for CommandError {}

/// A refusal under a ruling, in words.
pub(crate) fn refuse<T>(ruling: u16, reason: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError {
        ruling,
        reason: reason.into(),
    })
}

pub(crate) fn from_path(e: PathError, names: &dyn Fn(usize) -> String) -> CommandError {
    let ruling = match e {
        PathError::TooManyLegs(_) | PathError::TooLong { .. } => 113,
        PathError::Touches { .. } | PathError::EndsOn { .. } => 114,
        PathError::OffTable { .. } => 101,
    };
    let reason = match &e {
        PathError::Touches { index, at, .. } => {
            format!("the path touches {} at {at}", names(*index))
        }
        PathError::EndsOn { index } => format!("the move ends on {}", names(*index)),
        _ => {
            let text = e.to_string();
            text.rsplit_once(" (R")
                .map_or(text.clone(), |(t, _)| t.to_owned())
        }
    };
    CommandError { ruling, reason }
}
