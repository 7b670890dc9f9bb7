//! Equipment crates (R143, R144): the seed's ten contents, dealt one
//! each to the crates on the table by the dice and hidden from both sides
//! until opened, and what each gives the infantry that carries it.
//!
//! A crate's content is drawn when it is opened, from the ten less those
//! seen: the same deal as a shuffle at the start, with nothing hidden in
//! the state. Opening is a Move ending in contact (`open T3 150,90`); a
//! carrier holds one; a handing over stops both from shooting that turn;
//! a treasure hunt banks crates carried to the own edge (R148). This file
//! holds the crates, and Data recovery's diskette (R147), as data; the
//! rules that change them are `crate::carry`'s and `crate::objectives`'.

use sandtable_core::dice::{Dice, DiceOut};

use crate::geometry::Pt;

/// The most and fewest crates a skirmish holds, and its default (R143).
pub const CRATES: std::ops::RangeInclusive<u8> = 2..=8;
/// Crates on the table when the scenario names none (R143).
pub const DEFAULT_CRATES: u8 = 6;
/// A crate is a disc this many mm across, blocking nothing (R101).
pub const CRATE_MM: u16 = 20;

/// What a crate holds (R144, the seed's ten).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Content {
    /// +2 at heavy armor ("-" counts as +0), a black Missile. Kept.
    AntiTank,
    /// +3 at body armor. Kept.
    AutomaticWeapon,
    /// +4 to a grenade (R127), once.
    ExperimentalGrenade,
    /// +3 and a blue Missile, once.
    ExplosiveAmmunition,
    /// Special: an element in contact takes 1d6 steps, once.
    Explosives,
    /// +2 Movement, at most 6. Kept.
    JumpJet,
    /// The next step ignored, not a double; once.
    MediKit,
    /// A smoke bomb, once.
    SmokeBomb,
    /// +2, once.
    SpecialAmmunition,
    /// The opener takes an attack at +0; the crate leaves.
    Trap,
}

impl Content {
    /// The seed's ten, one each (R143).
    pub const ALL: [Content; 10] = [
        Content::AntiTank,
        Content::AutomaticWeapon,
        Content::ExperimentalGrenade,
        Content::ExplosiveAmmunition,
        Content::Explosives,
        Content::JumpJet,
        Content::MediKit,
        Content::SmokeBomb,
        Content::SpecialAmmunition,
        Content::Trap,
    ];

    /// Whether its carrier keeps it after use (R144).
    pub fn kept(self) -> bool {
        matches!(
            self,
            Content::AntiTank | Content::AutomaticWeapon | Content::JumpJet
        )
    }

    /// Its bonus to a shot at armor `armor` (0 body, 1 heavy, 2
    /// structure), given the weapon's `bonus` there, `None` a "-" (R144):
    /// the anti-tank weapon makes a "-" at heavy armor +0 and adds 2; the
    /// automatic weapon adds 3 at body armor; explosive and special
    /// ammunition add 3 and 2 at every type. Others change nothing.
    pub fn shot_bonus(self, armor: usize, bonus: Option<i8>) -> Option<i8> {
        match self {
            Content::AntiTank if armor == 1 => Some(bonus.unwrap_or(0) + 2),
            Content::AutomaticWeapon if armor == 0 => bonus.map(|b| b + 3),
            Content::ExplosiveAmmunition => bonus.map(|b| b + 3),
            Content::SpecialAmmunition => bonus.map(|b| b + 2),
            _ => bonus,
        }
    }

    /// A carrier's Movement with it (R144): a jump jet adds 2, to at most
    /// 6 (a Movement already above 6 is kept).
    pub fn movement(self, movement: u8) -> u8 {
        match self {
            Content::JumpJet => (movement + 2).min(movement.max(6)),
            _ => movement,
        }
    }

    /// Its id in scenario files and commands (`jump_jet`).
    pub fn id(self) -> &'static str {
        match self {
            Content::AntiTank => "anti_tank",
            Content::AutomaticWeapon => "automatic_weapon",
            Content::ExperimentalGrenade => "experimental_grenade",
            Content::ExplosiveAmmunition => "explosive_ammunition",
            Content::Explosives => "explosives",
            Content::JumpJet => "jump_jet",
            Content::MediKit => "medi_kit",
            Content::SmokeBomb => "smoke_bomb",
            Content::SpecialAmmunition => "special_ammunition",
            Content::Trap => "trap",
        }
    }

    /// The content with id `id`, if any.
    pub fn from_id(id: &str) -> Option<Content> {
        Content::ALL.into_iter().find(|c| c.id() == id)
    }

    /// Its name, for people.
    pub fn name(self) -> &'static str {
        match self {
            Content::AntiTank => "anti-tank weapon",
            Content::AutomaticWeapon => "automatic weapon",
            Content::ExperimentalGrenade => "experimental grenade",
            Content::ExplosiveAmmunition => "explosive ammunition",
            Content::Explosives => "explosives",
            Content::JumpJet => "jump jet",
            Content::MediKit => "medi-kit",
            Content::SmokeBomb => "smoke bomb",
            Content::SpecialAmmunition => "special ammunition",
            Content::Trap => "trap",
        }
    }
}

/// The contents of `n` crates (2 to 8), dealt from the seed's ten by the
/// dice, one each (R143): each crate a content drawn from those left.
pub fn deal(n: u8, dice: &mut Dice) -> Result<Vec<Content>, DiceOut> {
    let mut left = Content::ALL.to_vec();
    let mut out = Vec::with_capacity(usize::from(n));
    for _ in 0..n.clamp(*CRATES.start(), *CRATES.end()) {
        let k = dice.draw(left.len())?;
        out.push(left.remove(k));
    }
    Ok(out)
}

/// The diskette (R147).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Diskette {
    /// Where it lies, while it lies.
    pub at: Pt,
    /// The unit carrying it, by index.
    pub carrier: Option<u8>,
}

/// A diskette or an objective is a disc this many mm across (R101).
pub const DISC_MM: u16 = CRATE_MM;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r143_crates_hold_the_seed_s_ten_one_each_dealt_by_the_dice() {
        let six = deal(DEFAULT_CRATES, &mut Dice::seeded(3)).expect("dealt");
        assert_eq!(six.len(), 6);
        let mut sorted = six.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6, "one each: {six:?}");
        assert_eq!(
            deal(DEFAULT_CRATES, &mut Dice::seeded(3)).expect("dealt"),
            six
        );
        // Scripted dice: a draw among 10 or 9 reads two dice; ones take
        // the first left, each time.
        let first = deal(2, &mut Dice::scripted(vec![1, 1, 1, 1])).expect("dealt");
        assert_eq!(first, [Content::AntiTank, Content::AutomaticWeapon]);
        assert!(deal(2, &mut Dice::scripted(vec![1, 1, 1])).is_err(), "R30");
        // Eight at most, from ten.
        assert_eq!(deal(9, &mut Dice::seeded(1)).expect("dealt").len(), 8);
    }

    #[test]
    fn r144_what_each_content_gives() {
        // The anti-tank weapon: "-" at heavy counts +0, then +2.
        assert_eq!(Content::AntiTank.shot_bonus(1, None), Some(2));
        assert_eq!(Content::AntiTank.shot_bonus(1, Some(1)), Some(3));
        assert_eq!(Content::AntiTank.shot_bonus(0, Some(2)), Some(2));
        assert_eq!(Content::AutomaticWeapon.shot_bonus(0, Some(2)), Some(5));
        assert_eq!(Content::AutomaticWeapon.shot_bonus(1, None), None);
        assert_eq!(Content::ExplosiveAmmunition.shot_bonus(2, Some(0)), Some(3));
        assert_eq!(Content::SpecialAmmunition.shot_bonus(0, Some(2)), Some(4));
        // A jump jet: +2, at most 6.
        assert_eq!(Content::JumpJet.movement(4), 6);
        assert_eq!(Content::JumpJet.movement(5), 6);
        assert_eq!(Content::JumpJet.movement(3), 5);
        assert_eq!(Content::MediKit.movement(4), 4);
        let kept: Vec<Content> = Content::ALL.into_iter().filter(|c| c.kept()).collect();
        assert_eq!(
            kept,
            [
                Content::AntiTank,
                Content::AutomaticWeapon,
                Content::JumpJet
            ]
        );
    }
}

/// Where a crate is (R143, R148).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CrateState {
    /// On the table, at its point.
    Lying,
    /// Carried by this unit, by index.
    Carried(u8),
    /// Banked by this side (R148).
    Banked(u8),
    /// Used up, or a trap sprung: gone.
    Gone,
}

/// An equipment crate in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Crate {
    /// Where it lies (while it lies).
    pub at: crate::geometry::Pt,
    /// What it holds, once opened; nobody's to know before (R149).
    pub content: Option<Content>,
    /// Where it is.
    pub state: CrateState,
    /// The side that alone knows its content: a crate its side allotted
    /// before the game (R143, Cameron), until its carrier uses it or
    /// falls. `None`: whoever sees the crate knows what it holds.
    pub secret_of: Option<u8>,
}

impl Crate {
    /// Whether `viewer` (`None`: the referee) may know its content.
    pub fn known_to(&self, viewer: Option<u8>) -> bool {
        self.content.is_some()
            && (self.secret_of.is_none() || viewer == self.secret_of || viewer.is_none())
    }
}
