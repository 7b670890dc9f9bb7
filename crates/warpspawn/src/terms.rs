//! The battle's terms, as values: a side, a band of men and officers, the
//! group that marches (R69-R71), the phases of a turn (R64), what befalls
//! a formation and why (R74-R80), a step of the turn and how a battle
//! ends (R64, R81). The state (`game`) and the rules (`check`, `play`) are
//! built on them.

use std::fmt;

use crate::command::Hexes;
use crate::hex::Hex;
use crate::men::Men;

/// One of the two sides, by its index in the setup (0 or 1).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Side(pub u8);

impl Side {
    /// The enemy.
    pub const fn other(self) -> Side {
        Side(1 - self.0)
    }

    /// The side's index, for slices of sides.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Men with their officers: the armed men of a formation, a routing group,
/// prisoners or unarmed men (R62, R63).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Band {
    /// Men by kind.
    pub men: Men,
    /// Officers (who are not men, R63).
    pub officers: u16,
}

impl Band {
    /// Nobody.
    pub const NONE: Band = Band {
        men: Men::NONE,
        officers: 0,
    };

    /// Whether there is nobody.
    pub const fn is_empty(self) -> bool {
        self.men.is_empty() && self.officers == 0
    }

    /// Men and officers counted together (prisoners and unarmed men are
    /// counted so in the notation: `prisoners 3`).
    pub const fn heads(self) -> u16 {
        self.men.total() + self.officers
    }

    /// Both added.
    pub const fn plus(self, other: Band) -> Band {
        Band {
            men: self.men.plus(other.men),
            officers: self.officers + other.officers,
        }
    }

    /// `other` taken away, where each count covers it.
    pub fn minus(self, other: Band) -> Option<Band> {
        Some(Band {
            men: self.men.minus(other.men)?,
            officers: self.officers.checked_sub(other.officers)?,
        })
    }

    /// The first `n` heads: infantry, then cavalry, then officers.
    pub fn take(self, n: u16) -> Band {
        let men = self.men.take_infantry_first(n.min(self.men.total()));
        Band {
            men,
            officers: (n - men.total()).min(self.officers),
        }
    }
}

/// What a march moves (R69-R71).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Group {
    /// Armed men and officers.
    pub armed: Band,
    /// The cannon.
    pub cannon: bool,
    /// The baggage.
    pub baggage: bool,
    /// The flags.
    pub flag: bool,
    /// Prisoners.
    pub prisoners: Band,
    /// Unarmed men.
    pub unarmed: Band,
}

impl Group {
    /// Whether the group holds only cavalry, officers and flags, which move
    /// 2 hexes (R61).
    pub fn is_fast(&self) -> bool {
        self.armed.men.inf == 0
            && !self.cannon
            && !self.baggage
            && self.prisoners.is_empty()
            && self.unarmed.is_empty()
    }

    /// Hexes it may move (R61, R69): its slowest member's.
    pub fn pace(&self) -> usize {
        if self.is_fast() { 2 } else { 1 }
    }

    /// Whether something other than a flag moves.
    pub fn moves_something(&self) -> bool {
        !self.armed.is_empty()
            || self.cannon
            || self.baggage
            || !self.prisoners.is_empty()
            || !self.unarmed.is_empty()
    }
}

/// The four phases of a player turn, in order (R64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// Cannon fire (R65-R68).
    Cannonade,
    /// Moving (R69-R71).
    March,
    /// Attacks (R72-R77).
    Melee,
    /// Rallies and rout moves (R78-R80).
    Rally,
}

impl Phase {
    /// Its name in the JSON summary and in logs.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Cannonade => "cannonade",
            Phase::March => "march",
            Phase::Melee => "melee",
            Phase::Rally => "rally",
        }
    }

    /// The phase after it, `None` after the Rally phase.
    pub const fn next(self) -> Option<Phase> {
        match self {
            Phase::Cannonade => Some(Phase::March),
            Phase::March => Some(Phase::Melee),
            Phase::Melee => Some(Phase::Rally),
            Phase::Rally => None,
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which of a hex's men a loss falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Which {
    /// The formation's armed men.
    Armed,
    /// The routing group.
    Routing,
}

/// Why men are lost, for the log and the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Cause {
    /// A cannon's shot (R67).
    Shot,
    /// Fire over the firer's own men (R68).
    FriendlyFire,
    /// A melee (R76).
    Melee,
}

/// What befalls the losers of a melee (R76).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Fate {
    /// 1-2: the rest are taken prisoner.
    Surrender,
    /// 3-4: the rest rout and make a rout move at once.
    Rout,
    /// 5-6: all are killed.
    Slaughter,
}

impl Fate {
    /// The casualty table's row for a roll (R76).
    pub const fn of_roll(roll: u8) -> Fate {
        match roll {
            1 | 2 => Fate::Surrender,
            3 | 4 => Fate::Rout,
            _ => Fate::Slaughter,
        }
    }

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Fate::Surrender => "surrender",
            Fate::Rout => "rout",
            Fate::Slaughter => "slaughter",
        }
    }
}

/// Why routers make a rout move (R76, R79, R80).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RoutWhy {
    /// They lost a melee (R76).
    Melee,
    /// Their formation panicked (R79).
    Panic,
    /// The Rally phase ended (R80).
    RallyEnd,
}

/// Something the rules still have to do, or a decision they wait for,
/// front first (R64, R76, R77, R80).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Step {
    /// `count` men of `side` in `hexes` die, their owner choosing which (R67,
    /// R68, R76).
    Lose {
        /// Whose men.
        side: Side,
        /// Where.
        hexes: Hexes,
        /// How many are still to be chosen.
        count: u16,
        /// The formation's men or the routers.
        which: Which,
        /// Only men who fought (a melee's losses spare marked crews, R72).
        fighting: bool,
        /// Why.
        cause: Cause,
    },
    /// The losers' fate once both sides' losses are taken (R76).
    Fate {
        /// The losers.
        losers: Side,
        /// The losers' hexes.
        hexes: Hexes,
        /// What befalls them.
        fate: Fate,
    },
    /// The routers of `side` in `from` make a rout move, their enemy
    /// choosing where (R80).
    Rout {
        /// The routers' side.
        side: Side,
        /// Their hex.
        from: Hex,
        /// Why they rout.
        why: RoutWhy,
    },
    /// The winner's free advance (R77), chosen by the winner.
    Advance {
        /// The winner.
        side: Side,
        /// The hexes it may advance into (several for a defender that beat
        /// attackers from several hexes).
        into: Hexes,
        /// The hexes its men who fought stand in.
        from: Hexes,
    },
    /// `count` men of `side`'s counter `counter` die from a shot, their
    /// owner choosing which (R56, R67).
    LoseInRing {
        /// Whose counter.
        side: Side,
        /// Its number.
        counter: u16,
        /// How many are still to be chosen.
        count: u16,
    },
    /// The player turn ends once everything before it is done (R64).
    EndTurn,
}

/// How the battle ended (R64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// This side has more victory points.
    Won(Side),
    /// Equal victory points.
    Draw,
}

/// Why the battle ended (R64, R81).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EndReason {
    /// The last game turn was played.
    Turns,
    /// A side has no armed, non-routing men.
    NoArmedMen(Side),
    /// A flag was captured (`capture_the_flag`, R81).
    FlagCaptured,
}
