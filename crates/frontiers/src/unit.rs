//! A unit in the game: where it stands, its token's side, its hits and
//! what it carries, and what follows from them: its footprint, defense,
//! Movement, weapons' bonuses and armor (R113, R122-R125, R137-R144).

use crate::command::Tag;
use crate::data::{Ability, Back, Location, UnitData};
use crate::geometry::{Footprint, Pt, Shape};
use crate::setup::footprint;

/// A unit in the game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Unit {
    /// Its short id.
    pub tag: Tag,
    /// Its data (R150, R151), written as its id.
    #[serde(with = "crate::data::by_id")]
    pub data: &'static UnitData,
    /// Its side.
    pub side: u8,
    /// Its centre.
    pub at: Pt,
    /// An oval's facing, whole degrees.
    pub facing: i16,
    /// Whether its token shows its back (R124): damaged, or its ability's
    /// side.
    pub back: bool,
    /// Whether it still stands.
    pub alive: bool,
    /// A destroyed oval's carcass, a light structure (R125).
    pub carcass: bool,
    /// Whether it has had its Reserve this turn, or has none (R112).
    pub acted: bool,
    /// A vehicle's locations hit, by [`Location::bit`] (R125).
    pub hits: u8,
    /// The building element and space it stands in (R117), from 0.
    pub inside: Option<(u8, u8)>,
    /// The turn it last took a step, 0 for none (R139).
    pub hurt: u32,
    /// The turn it was destroyed and whether by a double (R139).
    pub fell: Option<(u32, bool)>,
    /// The transport it is aboard, by index (R140).
    pub aboard: Option<u8>,
    /// Movement added this turn by cards (a sprint, R152).
    pub boost: u8,
    /// Whether it waits off the table to be deployed (R146): not
    /// standing until it is.
    pub waiting: bool,
    /// The crate it carries, by index, and what it holds (R143, R144).
    pub gear: Option<(u8, crate::crates::Content)>,
    /// Whether it handed a crate over or took one this turn: it does not
    /// shoot (R144).
    pub handed: bool,
    /// The turn its Reserve action was set, 0 for none (R137).
    pub readied: u32,
    /// Whether it has transformed this turn (R137).
    pub transformed: bool,
}

impl Unit {
    /// Its footprint.
    pub fn footprint(&self) -> Footprint {
        footprint(self.data, self.at, self.facing)
    }

    /// Its shape.
    pub fn shape(&self) -> Shape {
        self.footprint().shape()
    }

    /// Whether it shows a damaged side (R124).
    pub fn damaged(&self) -> bool {
        self.back && self.data.back() == Back::Damaged
    }

    /// Whether its energy shield is up (R135).
    pub fn shield_up(&self) -> bool {
        self.back && self.data.has(Ability::EnergyShield(0))
    }

    /// Whether its tripod is set (R136).
    pub fn tripod_set(&self) -> bool {
        self.back && self.data.has(Ability::Tripod)
    }

    /// Its Defense now (R123, R135, R150): the shield's when it is up, 1
    /// less when damaged.
    pub fn defense(&self) -> u8 {
        if let Some(form) = self.other_form() {
            return form.defense;
        }
        if self.shield_up() {
            return self
                .data
                .abilities
                .iter()
                .find_map(|a| match a {
                    Ability::EnergyShield(d) => Some(*d),
                    _ => None,
                })
                .unwrap_or(self.data.defense);
        }
        self.data.defense - u8::from(self.damaged())
    }

    /// Its Movement in LNS now: 0 with its locomotion hit (R125); its
    /// other form's showing that form (R137, R151).
    pub fn movement(&self) -> u8 {
        self.movement_with(self.gear.map(|(_, c)| c))
    }

    /// Its Movement in LNS were it carrying `gear` (R144).
    pub fn movement_with(&self, gear: Option<crate::crates::Content>) -> u8 {
        if self.hits & Location::Locomotion.bit() != 0 {
            0
        } else {
            let base = match self.other_form() {
                Some(form) => form.movement,
                None => self.data.movement,
            };
            let base = match gear {
                Some(content) => content.movement(base),
                None => base,
            };
            base + self.boost
        }
    }

    /// Its crate's content as `viewer` (`None`: the referee) may know
    /// it, `games`'s crates telling whose secret it is (R143, R149):
    /// `Some(None)` for a crate carried whose content is hidden.
    pub fn gear_seen(
        &self,
        crates: &[crate::crates::Crate],
        viewer: Option<u8>,
    ) -> Option<Option<crate::crates::Content>> {
        let (k, c) = self.gear?;
        Some(crates[usize::from(k)].known_to(viewer).then_some(c))
    }

    /// Its Movement as `viewer` may know it: a hidden jump jet not
    /// counted (R143, R149).
    pub fn movement_seen(&self, crates: &[crate::crates::Crate], viewer: Option<u8>) -> u8 {
        self.movement_with(self.gear_seen(crates, viewer).flatten())
    }

    /// The other form it shows, if it transforms and shows its back (R137).
    pub fn other_form(&self) -> Option<crate::data::Form> {
        self.data.other_form.filter(|_| self.back)
    }

    /// Weapon `i`'s bonus at armor `armor` now (R123): `None` where it
    /// has none, the weapon is gone (R125) or it has no such weapon; 1
    /// less when damaged, +0 staying +0 (R150).
    pub fn bonus(&self, weapon: usize, armor: usize) -> Option<i8> {
        let w = self.data.weapons.get(weapon)?;
        if self.hits & Location::Weapon(weapon as u8).bit() != 0 {
            return None;
        }
        let b = match self.other_form() {
            Some(form) => form.bonus[armor],
            None => w.bonus[armor],
        };
        let b = b.map(|b| if self.damaged() && b > 0 { b - 1 } else { b });
        // What a crate gives its carrier (R144).
        match self.gear {
            Some((_, content)) => content.shot_bonus(armor, b),
            None => b,
        }
    }

    /// Whether it may throw smoke (R130, R138): a smoke bomb, its
    /// equipment unhurt (R125).
    pub fn has_smoke(&self) -> bool {
        (self.data.has(Ability::SmokeBomb) && self.hits & Location::Equipment.bit() == 0)
            || matches!(self.gear, Some((_, crate::crates::Content::SmokeBomb)))
    }

    /// Which of a weapon's bonuses a shot at it uses (R101).
    pub fn armor(&self) -> usize {
        self.data.armor()
    }

    /// Whether it is a vehicle.
    pub fn vehicle(&self) -> bool {
        self.data.is_vehicle()
    }
}
