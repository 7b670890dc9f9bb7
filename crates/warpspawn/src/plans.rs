//! What a checked command will do (a plan): the battle's fire, march,
//! attack, losses, advance, rally and rout, and the entries, marches off
//! and shots at a counter that reach off the map (R48, R56). `play` checks
//! a command into a plan and carries it out.

use crate::command::{Hexes, Parts, RoutTo};
use crate::hex::Hex;
use crate::men::Men;
use crate::off_map::OffMap;
use crate::setup::MeleeResult;
use crate::terms::{Group, Which};

/// A checked command, ready to apply.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Plan<G: OffMap> {
    /// A command of the system off the map, which it applies itself.
    OffMap,
    Enter(G::EnterPlan),
    MarchOff(G::MarchOffPlan),
    FireAtCounter(Box<G::FirePlan>),
    LoseInRing {
        counter: u16,
        men: Men,
    },
    Fire(FirePlan),
    March {
        from: Hex,
        path: Hexes,
        group: Group,
    },
    Attack(AttackPlan),
    Lose {
        hex: Hex,
        men: Men,
    },
    Advance {
        into: Hex,
        from: Parts,
    },
    Rally {
        routers: Hex,
        with: Hex,
        modifier: i8,
    },
    Rout {
        from: Hex,
        to: Option<RoutTo>,
    },
    End,
}

/// A shot, checked (R65-R68).
#[derive(Debug, Clone, PartialEq)]
pub struct FirePlan {
    /// The cannon's hex.
    pub cannon: Hex,
    /// The target's hex.
    pub target: Hex,
    /// The formation or the routers there.
    pub which: Which,
    /// The crew marked (R65).
    pub crew: Men,
    /// Hexes away.
    pub range: u16,
    /// Direct fire (R66).
    pub direct: bool,
    /// The modifiers of R67, each with its line of the seed's list.
    pub modifiers: Vec<(&'static str, i8)>,
    /// Men in the target.
    pub target_men: u16,
    /// Friendly formations on the line, nearest the cannon first (R68).
    pub friendly: Vec<(Hex, u16)>,
}

impl FirePlan {
    /// All modifiers together.
    pub fn modifier(&self) -> i8 {
        self.modifiers.iter().map(|(_, m)| m).sum()
    }
}

/// A melee, checked (R72-R75).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackPlan {
    /// The defender's hex.
    pub target: Hex,
    /// The attackers' hexes.
    pub from: Hexes,
    /// The attackers' men who fight.
    pub attackers: u16,
    /// The defenders' men.
    pub defenders: u16,
    /// The attackers' strength, doubled.
    pub attack2: u32,
    /// The defenders' strength, doubled (x1.5 covered, x2 fortified, R73).
    pub defence2: u32,
    /// The melee table's row, 0 (4:1) to 4 (even) (R74).
    pub row: usize,
    /// Half the smaller force (R76).
    pub half: u16,
}

impl AttackPlan {
    /// Whether the attackers have the higher strength (equal counts as the
    /// attackers': the even row names attacker and defender, not higher and
    /// lower).
    pub fn attackers_higher(&self) -> bool {
        self.attack2 >= self.defence2
    }

    /// The winner of a result: `true` for the attackers, `false` for the
    /// defenders, `None` for a stalemate (R74).
    pub fn attackers_win(&self, result: MeleeResult) -> Option<bool> {
        match result {
            MeleeResult::V | MeleeResult::H => Some(self.attackers_higher()),
            MeleeResult::L => Some(!self.attackers_higher()),
            MeleeResult::A => Some(true),
            MeleeResult::D => Some(false),
            MeleeResult::B => None,
        }
    }
}
