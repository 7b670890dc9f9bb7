//! The project's data set (R150-R152): the seed prints no unit stats, card
//! texts or sizes, so these are Sandtable's own, marked `project` in the
//! rulings, for a person to replace with the box's. A unit's row: its data
//! id, faction, how many the box holds, AP, Movement, Defense, base, its
//! weapons' bonuses at body armor, heavy armor and structure (R123: `None`
//! is "-", no shot at that type), and its abilities.
//!
//! Readings where the rulings' rows leave a gap, each the plainest:
//! - A unit listed with no bonuses (`lg_sniper`, `zr_stalker`,
//!   `zr_memory`) has no weapon: a sniper hits by R142's own numbers, and
//!   the memory "does not shoot".
//! - A unit listed with no count (the ovals) is one in the box.
//! - `lg_gunner`'s "penalty -2" is its printed penalty symbol (R122).
//! - `zr_shifter`'s "or 3 6 3/1/1" is its other form (R137's
//!   Transformation): Movement 3, Defense 6, bonuses 3/1/1.
//! - Ovals leave a carcass (R125), as the rulings group them; small
//!   vehicles are location type 1 (R125).

/// A faction (R150, R151).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Faction {
    /// The Legion.
    Legion,
    /// The Zirl.
    Zirl,
}

/// A unit's base (R101).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Base {
    /// A 30 mm disc: infantry.
    Round,
    /// A 40 mm disc: a small vehicle.
    Small,
    /// A 60 x 36 mm oval with a facing: a vehicle.
    Oval,
}

impl Base {
    /// Its footprint's size in mm: a disc's diameter, or an oval's length
    /// and width.
    pub fn size_mm(self) -> (u16, u16) {
        match self {
            Base::Round => (30, 30),
            Base::Small => (40, 40),
            Base::Oval => (60, 36),
        }
    }
}

/// A missile weapon (R136).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Missile {
    /// No long range at heavy armor or structure.
    Black,
    /// A small template.
    Blue,
}

/// A weapon: its name on a vehicle (`A`, `A1`, `A2`; empty for
/// infantry), its bonuses at body, heavy and structure, its arc and its
/// missile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weapon {
    /// `A`, `A1`, `A2`, or empty.
    pub name: &'static str,
    /// Bonus at body armor, heavy armor, structure; `None`: no shot.
    pub bonus: [Option<i8>; 3],
    /// Its arc in whole degrees, centred on the facing (360: all round).
    pub arc_deg: u16,
    /// A missile, if it is one.
    pub missile: Option<Missile>,
}

/// An ability (R134-R142), with its number where it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ability {
    /// Gives this many more order markers (R106).
    Orders(u8),
    /// Grenades (R127, R138).
    Grenades,
    /// Camouflage: -1 to shots at it (R122, R134).
    Camouflage,
    /// Infiltration (R138).
    Infiltration,
    /// Charge: the only close combat (R134).
    Charge,
    /// Sniper (R142).
    Sniper,
    /// Tripod (R136).
    Tripod,
    /// Medic (R139).
    Medic,
    /// Mechanic (R139).
    Mechanic,
    /// Smoke bomb (R138).
    SmokeBomb,
    /// Rapid-fire (R141).
    RapidFire,
    /// Reserve action (R137).
    ReserveAction,
    /// Its printed penalty symbol for a light structure crossed (R122).
    PenaltySymbol(u8),
    /// An energy shield, its shield side's Defense (R135).
    EnergyShield(u8),
    /// A permanent shield (R135).
    PermanentShield,
    /// Indirect fire: a large template (R129, R138).
    Indirect,
    /// Flight (R116).
    Flight,
    /// An automatic order.
    AutomaticOrder,
    /// Transformation (R137).
    Transformation,
    /// Does not shoot (R134).
    DoesNotShoot,
    /// May shoot in the Reserve phase (`reserve_shoot`).
    ReserveShoot,
    /// Carries this many non-vehicle circular units (R140).
    Transport(u8),
    /// Deployment: drops carried units along its path (R140).
    Deployment,
    /// An open vehicle: snipers may hit its passengers (R140, R142).
    Open,
    /// A targeting computer: no long range (R136).
    TargetingComputer,
    /// A starred unit (R139): a medic returns it from any turn.
    Starred,
}

/// A unit's other form (R137's Transformation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Form {
    /// Movement, in LNS.
    pub movement: u8,
    /// Defense.
    pub defense: u8,
    /// Bonuses at body, heavy, structure.
    pub bonus: [Option<i8>; 3],
}

/// A unit's row of the data (R150, R151).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnitData {
    /// Its data id, as scenarios and lists name it.
    pub id: &'static str,
    /// Its faction.
    pub faction: Faction,
    /// How many the box holds.
    pub count: u8,
    /// Its army points (R103).
    pub ap: u16,
    /// Movement, in LNS (R113).
    pub movement: u8,
    /// Defense (R123).
    pub defense: u8,
    /// Its base (R101).
    pub base: Base,
    /// Its weapons.
    pub weapons: &'static [Weapon],
    /// Its abilities.
    pub abilities: &'static [Ability],
    /// A vehicle's location column (R125).
    pub location_type: Option<u8>,
    /// Its other form, if it transforms.
    pub other_form: Option<Form>,
}

impl UnitData {
    /// Whether it has `ability` (by kind, whatever its number).
    pub fn has(&self, ability: Ability) -> bool {
        self.abilities
            .iter()
            .any(|a| std::mem::discriminant(a) == std::mem::discriminant(&ability))
    }

    /// Whether it is a vehicle: a small one or an oval (R101).
    pub fn is_vehicle(&self) -> bool {
        self.base != Base::Round
    }

    /// Which of a weapon's bonuses a shot at it uses: 0 body armor
    /// (infantry), 1 heavy armor (vehicles, R101); structure (2) is a
    /// building's.
    pub fn armor(&self) -> usize {
        if self.is_vehicle() { 1 } else { 0 }
    }

    /// Whether a destroyed one leaves a carcass (R125).
    pub fn leaves_carcass(&self) -> bool {
        self.base == Base::Oval
    }
}

const fn gun(b: i8, h: Option<i8>, s: Option<i8>) -> Weapon {
    Weapon {
        name: "",
        bonus: [Some(b), h, s],
        arc_deg: 360,
        missile: None,
    }
}

const fn vgun(
    name: &'static str,
    bonus: [Option<i8>; 3],
    arc_deg: u16,
    missile: Option<Missile>,
) -> Weapon {
    Weapon {
        name,
        bonus,
        arc_deg,
        missile,
    }
}

#[allow(clippy::too_many_arguments)]
const fn unit(
    id: &'static str,
    faction: Faction,
    count: u8,
    ap: u16,
    movement: u8,
    defense: u8,
    base: Base,
    weapons: &'static [Weapon],
    abilities: &'static [Ability],
) -> UnitData {
    UnitData {
        id,
        faction,
        count,
        ap,
        movement,
        defense,
        base,
        weapons,
        abilities,
        location_type: if matches!(base, Base::Small) {
            Some(1)
        } else {
            None
        },
        other_form: None,
    }
}

use Ability as A;
use Base::{Oval, Round, Small};
use Faction::{Legion, Zirl};

/// Every unit of both factions (R150, R151, project).
pub const UNITS: &[UnitData] = &[
    unit(
        "lg_captain",
        Legion,
        1,
        40,
        4,
        5,
        Round,
        &[gun(2, Some(1), Some(0))],
        &[A::Orders(2)],
    ),
    unit(
        "lg_lieutenant",
        Legion,
        2,
        25,
        4,
        5,
        Round,
        &[gun(2, None, Some(0))],
        &[A::Orders(1)],
    ),
    unit(
        "lg_trooper",
        Legion,
        6,
        15,
        4,
        5,
        Round,
        &[gun(3, None, Some(0))],
        &[A::Grenades],
    ),
    unit(
        "lg_commando",
        Legion,
        2,
        25,
        5,
        5,
        Round,
        &[gun(2, Some(0), Some(0))],
        &[A::Camouflage, A::Infiltration, A::Charge],
    ),
    unit(
        "lg_sniper",
        Legion,
        1,
        25,
        4,
        4,
        Round,
        &[],
        // `reserve_shoot` by the ruling "Balance" (R150).
        &[A::Sniper, A::Tripod, A::ReserveShoot],
    ),
    unit(
        "lg_medic",
        Legion,
        1,
        20,
        4,
        4,
        Round,
        &[gun(1, None, None)],
        &[A::Medic],
    ),
    unit(
        "lg_engineer",
        Legion,
        1,
        20,
        4,
        4,
        Round,
        &[gun(1, None, Some(1))],
        &[A::Mechanic, A::SmokeBomb],
    ),
    unit(
        "lg_gunner",
        Legion,
        1,
        35,
        3,
        6,
        Round,
        &[vgun(
            "",
            [Some(3), Some(2), Some(1)],
            360,
            Some(Missile::Black),
        )],
        &[A::RapidFire, A::ReserveAction, A::PenaltySymbol(2)],
    ),
    unit(
        "lg_hero",
        Legion,
        1,
        50,
        5,
        6,
        Round,
        &[gun(3, Some(1), Some(1))],
        &[A::EnergyShield(8), A::Charge, A::Starred],
    ),
    unit(
        "lg_mortar",
        Legion,
        1,
        30,
        3,
        4,
        Round,
        &[gun(2, Some(1), Some(2))],
        &[A::Indirect],
    ),
    unit(
        "lg_walker",
        Legion,
        3,
        50,
        4,
        7,
        Small,
        &[vgun("A", [Some(3), Some(3), Some(2)], 360, None)],
        &[],
    ),
    UnitData {
        location_type: Some(1),
        ..unit(
            "lg_liberation",
            Legion,
            1,
            70,
            6,
            8,
            Oval,
            &[vgun("A", [Some(2), Some(2), Some(1)], 360, None)],
            &[A::Transport(4), A::Deployment, A::Open],
        )
    },
    UnitData {
        location_type: Some(3),
        ..unit(
            "lg_orion",
            Legion,
            1,
            100,
            4,
            9,
            Oval,
            &[
                vgun("A1", [Some(2), Some(4), Some(3)], 180, Some(Missile::Blue)),
                vgun("A2", [Some(3), Some(1), Some(0)], 360, None),
            ],
            &[A::TargetingComputer],
        )
    },
    unit(
        "zr_processor",
        Zirl,
        1,
        45,
        4,
        5,
        Round,
        &[gun(2, Some(1), Some(0))],
        &[A::Orders(2)],
    ),
    unit(
        "zr_memory",
        Zirl,
        3,
        20,
        4,
        4,
        Round,
        &[],
        &[A::Orders(1), A::DoesNotShoot, A::PermanentShield],
    ),
    unit(
        "zr_cluster",
        Zirl,
        6,
        15,
        5,
        5,
        Round,
        &[gun(2, None, None)],
        // No `reserve_shoot`: the ruling "Balance" (R151).
        &[A::RapidFire],
    ),
    unit(
        "zr_drone",
        Zirl,
        2,
        20,
        6,
        4,
        Round,
        &[gun(1, Some(0), None)],
        &[A::Flight, A::AutomaticOrder],
    ),
    UnitData {
        other_form: Some(Form {
            movement: 3,
            defense: 6,
            bonus: [Some(3), Some(1), Some(1)],
        }),
        ..unit(
            "zr_shifter",
            Zirl,
            2,
            30,
            6,
            4,
            Round,
            &[gun(1, None, None)],
            &[A::Transformation],
        )
    },
    unit(
        "zr_stalker",
        Zirl,
        1,
        30,
        5,
        5,
        Round,
        &[],
        // `reserve_shoot` by the ruling "Balance" (R151).
        &[A::Sniper, A::Camouflage, A::Infiltration, A::ReserveShoot],
    ),
    unit(
        "zr_brute",
        Zirl,
        2,
        25,
        5,
        6,
        Round,
        &[gun(2, Some(0), Some(1))],
        &[A::Charge, A::Grenades],
    ),
    unit(
        "zr_weaver",
        Zirl,
        1,
        20,
        4,
        4,
        Round,
        &[gun(1, None, None)],
        &[A::Medic, A::SmokeBomb],
    ),
    unit(
        "zr_spitter",
        Zirl,
        2,
        35,
        3,
        5,
        Round,
        &[gun(2, Some(2), Some(2))],
        &[A::Indirect],
    ),
    unit(
        "zr_crawler",
        Zirl,
        3,
        50,
        5,
        7,
        Small,
        &[vgun(
            "A",
            [Some(2), Some(3), Some(2)],
            360,
            Some(Missile::Blue),
        )],
        &[],
    ),
    UnitData {
        location_type: Some(2),
        ..unit(
            "zr_vega",
            Zirl,
            1,
            70,
            6,
            8,
            Oval,
            &[vgun("A", [Some(2), Some(2), Some(1)], 360, None)],
            &[A::Transport(3), A::Deployment, A::SmokeBomb],
        )
    },
    UnitData {
        location_type: Some(2),
        ..unit(
            "zr_walker",
            Zirl,
            1,
            110,
            3,
            9,
            Oval,
            &[vgun("A", [Some(3), Some(4), Some(3)], 120, None)],
            &[A::Transport(2)],
        )
    },
];

/// What the back of a unit's token shows (R124): a damaged side, or an
/// ability's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Back {
    /// A damaged side: Defense and bonuses 1 less, +0 staying +0 (R150):
    /// a step flips the unit, a second destroys it.
    Damaged,
    /// An activated ability's side (an energy shield, a set tripod, the
    /// other form), shown by the Special action's flip (R134): one step
    /// destroys the unit, whichever side shows.
    Ability,
    /// A vehicle: steps roll its locations instead (R125).
    Vehicle,
}

/// A vehicle's location, as the seed's table names them (R125).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Location {
    /// A weapon: `A`, `A1` or `A2`, by its index among the weapons.
    Weapon(u8),
    /// A carried unit takes a step.
    Carried,
    /// Locomotion: Movement 0.
    Locomotion,
    /// Equipment and crew: one marker, no smoke.
    Equipment,
}

impl Location {
    /// Its bit in a vehicle's record of locations hit.
    pub fn bit(self) -> u8 {
        match self {
            Location::Weapon(i) => 1 << i.min(2),
            Location::Carried => 1 << 3,
            Location::Locomotion => 1 << 4,
            Location::Equipment => 1 << 5,
        }
    }
}

/// The seed's location table (R125): a row a face of the die, a column a
/// location type. Type 3's A1 and A2 are its first and second weapons.
pub const LOCATIONS: [[Location; 3]; 6] = {
    use Location::{Carried as C, Equipment as E, Locomotion as L, Weapon as W};
    [
        [W(0), W(0), W(0)],
        [W(0), C, W(1)],
        [L, L, L],
        [L, L, L],
        [E, E, E],
        [E, E, E],
    ]
};

/// The location a roll of `roll` (1 to 6) hits on a vehicle of location
/// column `column` (1 to 3) (R125).
pub fn location(column: u8, roll: u8) -> Location {
    LOCATIONS[usize::from(roll.clamp(1, 6) - 1)][usize::from(column.clamp(1, 3) - 1)]
}

impl UnitData {
    /// What its token's back shows (R124, R150): a vehicle's steps roll
    /// locations; a unit with an energy shield, a tripod, another form or
    /// a Reserve action shows that on its back (setting the Reserve
    /// action flips the unit, R137); any other has a damaged back.
    pub fn back(&self) -> Back {
        if self.is_vehicle() {
            Back::Vehicle
        } else if self.has(Ability::EnergyShield(0))
            || self.has(Ability::Tripod)
            || self.has(Ability::Transformation)
            || self.has(Ability::ReserveAction)
        {
            Back::Ability
        } else {
            Back::Damaged
        }
    }

    /// Its short name, for people: the data id without its faction's
    /// prefix (`lg_trooper`: `trooper`).
    pub fn short_name(&self) -> &'static str {
        self.id.split_once('_').map_or(self.id, |(_, n)| n)
    }
}

/// The unit of data id `id`, if there is one.
pub fn unit_data(id: &str) -> Option<&'static UnitData> {
    UNITS.iter().find(|u| u.id == id)
}

/// A unit's data written as its id and read back from the table of
/// units (`#[serde(with = "crate::data::by_id")]`).
pub(crate) mod by_id {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::UnitData;

    pub(crate) fn serialize<S: Serializer>(
        data: &&'static UnitData,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(data.id)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<&'static UnitData, D::Error> {
        let id = String::deserialize(d)?;
        super::unit_data(&id)
            .ok_or_else(|| serde::de::Error::custom(format!("no unit's data is called {id:?}")))
    }
}

/// When a card may be played (R132).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Window {
    /// In the Preparation phase.
    Preparation,
    /// In the Order phase.
    Order,
    /// In a step, actions named, before resolution.
    Step,
    /// A shot's target named, before the roll.
    Shot,
    /// An own unit takes a step.
    Hit,
    /// As the unit's Card action.
    Action,
}

/// A card of each faction's deck (R152, project): its id, its limit in a
/// deck (the box's copies) and its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CardData {
    /// Its id.
    pub id: &'static str,
    /// How many a deck may hold, and the box holds.
    pub limit: u8,
    /// When it is played.
    pub window: Window,
}

/// Each faction's 30 cards (R152): the same for both.
pub const CARDS: &[CardData] = &[
    CardData {
        id: "reinforce",
        limit: 4,
        window: Window::Order,
    },
    CardData {
        id: "aim",
        limit: 5,
        window: Window::Shot,
    },
    CardData {
        id: "jam",
        limit: 3,
        window: Window::Shot,
    },
    CardData {
        id: "sprint",
        limit: 4,
        window: Window::Step,
    },
    CardData {
        id: "rally",
        limit: 3,
        window: Window::Step,
    },
    CardData {
        id: "cover",
        limit: 3,
        window: Window::Hit,
    },
    CardData {
        id: "resupply",
        limit: 3,
        window: Window::Preparation,
    },
    CardData {
        id: "field_repair",
        limit: 3,
        window: Window::Action,
    },
    CardData {
        id: "smoke_screen",
        limit: 2,
        window: Window::Action,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit's tuned figures as `docs/frontiers.md`'s table of the
    /// project's data prints them: AP, Movement, Defense, each weapon's
    /// bonuses at body, heavy and structure, and its abilities' numbers.
    fn row(d: &UnitData) -> [String; 5] {
        let bonus = |b: &[Option<i8>; 3]| {
            b.iter()
                .map(|x| x.map_or("-".to_owned(), |n| n.to_string()))
                .collect::<Vec<_>>()
                .join("/")
        };
        let weapons = if d.weapons.is_empty() {
            "none".to_owned()
        } else {
            d.weapons
                .iter()
                .map(|w| {
                    if w.name.is_empty() {
                        bonus(&w.bonus)
                    } else {
                        format!("{} {}", w.name, bonus(&w.bonus))
                    }
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let mut numbers: Vec<String> = d
            .abilities
            .iter()
            .filter_map(|a| match a {
                Ability::Orders(n) => Some(format!("orders +{n}")),
                Ability::PenaltySymbol(n) => Some(format!("penalty -{n}")),
                Ability::EnergyShield(n) => Some(format!("shield Def {n}")),
                Ability::Transport(n) => Some(format!("transport {n}")),
                _ => None,
            })
            .collect();
        if let Some(f) = d.other_form {
            numbers.push(format!(
                "other form Mv {} Def {} {}",
                f.movement,
                f.defense,
                bonus(&f.bonus)
            ));
        }
        [
            d.ap.to_string(),
            d.movement.to_string(),
            d.defense.to_string(),
            weapons,
            if numbers.is_empty() {
                "-".to_owned()
            } else {
                numbers.join(", ")
            },
        ]
    }

    /// The ruling "Balance": the shipped data is the table the docs print
    /// with the figures that justified each change, unit for unit.
    #[test]
    fn balance_the_shipped_data_is_the_table_in_the_docs() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/frontiers.md");
        let docs = std::fs::read_to_string(path).expect("docs/frontiers.md");
        let mut seen = Vec::new();
        for line in docs.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // | `id` | AP | Mv | Def | weapons | numbers | before | figure |
            let Some(id) = cells
                .get(1)
                .and_then(|c| c.strip_prefix('`'))
                .and_then(|c| c.strip_suffix('`'))
            else {
                continue;
            };
            let Some(d) = UNITS.iter().find(|u| u.id == id) else {
                continue;
            };
            if cells.len() < 9 {
                continue;
            }
            assert_eq!(
                cells[2..7].to_vec(),
                row(d).to_vec(),
                "{id}: the docs' table and the shipped data differ"
            );
            seen.push(id);
        }
        for u in UNITS {
            assert_eq!(
                seen.iter().filter(|s| **s == u.id).count(),
                1,
                "{} is in the docs' table once: | `{}` | {} |",
                u.id,
                u.id,
                row(u).join(" | ")
            );
        }
    }

    #[test]
    fn r150_r151_every_id_is_one_unit_s_and_each_box_holds_its_counts() {
        for (i, u) in UNITS.iter().enumerate() {
            assert!(UNITS[..i].iter().all(|o| o.id != u.id), "{} twice", u.id);
            assert_eq!(unit_data(u.id), Some(u));
            let prefix = match u.faction {
                Faction::Legion => "lg_",
                Faction::Zirl => "zr_",
            };
            assert!(u.id.starts_with(prefix), "{}", u.id);
        }
        let boxed = |f: Faction| -> u32 {
            UNITS
                .iter()
                .filter(|u| u.faction == f)
                .map(|u| u32::from(u.count))
                .sum()
        };
        assert_eq!(boxed(Faction::Legion), 22);
        assert_eq!(boxed(Faction::Zirl), 25);
        assert_eq!(unit_data("lg_ghost"), None);
    }

    #[test]
    fn r150_r151_rows_as_the_rulings_print_them() {
        let orion = unit_data("lg_orion").expect("the Orion");
        assert_eq!((orion.ap, orion.movement, orion.defense), (100, 4, 9));
        assert_eq!(orion.location_type, Some(3));
        assert_eq!(orion.weapons[0].arc_deg, 180);
        assert_eq!(orion.weapons[0].missile, Some(Missile::Blue));
        assert_eq!(orion.weapons[1].bonus, [Some(3), Some(1), Some(0)]);
        assert!(orion.has(Ability::TargetingComputer) && orion.leaves_carcass());
        let lieutenant = unit_data("lg_lieutenant").expect("a lieutenant");
        assert_eq!(lieutenant.weapons[0].bonus, [Some(2), None, Some(0)]);
        assert!(lieutenant.has(Ability::Orders(0)));
        let shifter = unit_data("zr_shifter").expect("a shifter");
        assert_eq!(
            shifter.other_form.map(|f| (f.movement, f.defense)),
            Some((3, 6))
        );
        let walker = unit_data("lg_walker").expect("a walker");
        assert_eq!((walker.base, walker.location_type), (Base::Small, Some(1)));
        assert!(walker.is_vehicle() && !walker.leaves_carcass());
        assert_eq!((walker.armor(), lieutenant.armor()), (1, 0));
        assert!(unit_data("zr_memory").expect("a memory").weapons.is_empty());
    }

    #[test]
    fn r152_a_faction_s_cards_are_thirty() {
        assert_eq!(CARDS.iter().map(|c| u32::from(c.limit)).sum::<u32>(), 30);
    }
}
