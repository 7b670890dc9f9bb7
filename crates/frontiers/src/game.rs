//! The skirmish's state and its queries: the table that never changes
//! (the setup and its shapes), the units, elements, clouds, crates and
//! turn as they stand, a game made from its setup (R100-R103), and its
//! form on the wire.
//!
//! The rules that change it are files of their own, each named for what
//! it decides: [`Game::act`] (`action`) checks and resolves a unit's
//! action by `moving`, `seeing`, `shooting`, `areas` (templates and
//! clouds), `abilities`, `indoors` (buildings), `carry` (crates) and
//! `objectives`; [`crate::turn`] decides whose action it is (R105-R112).

use std::sync::Arc;

use sandtable_core::dice::Dice;
use sandtable_core::game::Ending;
use sandtable_core::setup::SetupError;

use crate::attack::Outcome;
use crate::command::{P16, Tag};
use crate::data::{Location, UnitData, unit_data};
use crate::event::{CommandError, PendingDrop, refuse};
use crate::geometry::{EPS, Footprint, Pt, Shape, V, gap, overlaps};
use crate::setup::{Setup, default_ids};
use crate::smoke::Cloud;
use crate::templates::{LARGE_MM, drop_landing};
use crate::unit::Unit;

/// The steps left of a standing element with an X, which takes no steps
/// and falls only with the element it is tied to (R119).
pub const X_STANDING: u8 = u8::MAX;

/// Grazing within this many mm does not block a line (R120).
pub const GRAZE_MM: f64 = 0.5;
/// A grenade reaches this many LNS (R127).
pub const GRENADE_LNS: u32 = 3;
/// A grenade's bonus at every type (the seed's Grenades).
pub const GRENADE_BONUS: i8 = 2;

/// What never changes in a game: the setup and its shapes.
#[derive(Debug, Clone)]
pub struct Table {
    /// The setup.
    pub setup: Setup,
    /// Each terrain piece's shape.
    pub terrain: Vec<Shape>,
    /// Each element's shape.
    pub elements: Vec<Shape>,
    /// Each element's short id.
    pub element_tags: Vec<Tag>,
    /// The elements' and terrain pieces' shapes filed by where they lie:
    /// element k as number k, terrain piece k after the elements.
    pub index: crate::index::Grid,
}

/// A shot's line and modifiers, worked out before it is fired.
#[derive(Debug, Clone, PartialEq)]
pub struct Aim {
    /// Where the line starts: the shooter's centre, or the midpoint of
    /// the opening it shoots out of (R118).
    pub from: Pt,
    /// The line's end on the target.
    pub to: V,
    /// Each modifier and its reason (R122, R131).
    pub modifiers: Vec<(String, i8)>,
    /// A sniper's penalties (R142).
    pub sniper_penalties: u8,
}

impl Aim {
    /// The modifiers' sum.
    pub fn total(&self) -> i8 {
        self.modifiers.iter().map(|m| m.1).sum()
    }
}

/// What a medic or a mechanic does for its patient (R139).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Care {
    /// A step of this turn undone.
    Undo(usize),
    /// A marker taken off a vehicle.
    Mark(usize, Location),
    /// A unit destroyed returned.
    Return(usize),
}

/// How a Shoot resolves (R120-R129, R142).
#[derive(Debug, Clone, PartialEq)]
pub enum Shot {
    /// An attack roll at the target.
    Direct(Aim),
    /// A sniper's roll (R142).
    Sniper(Aim),
    /// A template on the target's centre: a blue missile (small) or
    /// indirect fire with sight (large) (R126, R128).
    Template {
        /// Its diameter.
        diameter: u16,
    },
    /// Indirect fire without sight: a drop aimed at the target's centre
    /// (R129).
    Drop,
}

/// A skirmish under way.
#[derive(Debug, Clone)]
pub struct Game {
    pub(crate) table: Arc<Table>,
    pub(crate) units: Vec<Unit>,
    /// Each element's steps left; 0 is a ruin (R119).
    pub(crate) elements: Vec<u8>,
    pub(crate) clouds: Vec<Cloud>,
    pub(crate) turn: u32,
    /// Where the turn stands (R105-R112).
    pub(crate) flow: crate::flow::Flow,
    /// The equipment crates (R143).
    pub(crate) crates: Vec<crate::crates::Crate>,
    /// Crates each side banked (R148).
    pub(crate) banked: [u8; 2],
    /// Data recovery's diskette: where it lies, or the unit carrying it
    /// (R147).
    pub(crate) diskette: Option<crate::crates::Diskette>,
    /// While two shots resolve together, the outcomes their attacks
    /// rolled, landed after both (R111).
    pub(crate) deferred: Option<Vec<(usize, Outcome)>>,
    pub(crate) pending: Option<PendingDrop>,
    /// Transports whose C location was hit with several units aboard:
    /// their owner picks which takes the step (R125).
    pub(crate) picks: Vec<usize>,
    /// AP each side destroyed of the other's (R145).
    pub(crate) ap: [u16; 2],
    pub(crate) over: Option<Ending>,
    pub(crate) dice: Dice,
}

impl PartialEq for Game {
    fn eq(&self, o: &Game) -> bool {
        self.table.setup == o.table.setup
            && self.units == o.units
            && self.elements == o.elements
            && self.clouds == o.clouds
            && self.turn == o.turn
            && self.flow == o.flow
            && self.crates == o.crates
            && self.banked == o.banked
            && self.diskette == o.diskette
            && self.deferred == o.deferred
            && self.pending == o.pending
            && self.picks == o.picks
            && self.ap == o.ap
            && self.over == o.over
            && self.dice == o.dice
    }
}

impl Game {
    /// A game of a setup, checked (R100-R103), with its dice (R30).
    pub fn new(setup: &Setup, dice: Dice) -> Result<Game, SetupError> {
        setup.check()?;
        let ids = default_ids(&setup.units);
        let units = setup
            .units
            .iter()
            .zip(&ids)
            .map(|(u, id)| Unit {
                tag: Tag::new(id).expect("checked ids"),
                data: unit_data(&u.data).expect("checked data"),
                side: u.side,
                at: u.at,
                facing: u.facing,
                back: u.back,
                alive: !u.deploy,
                carcass: false,
                acted: false,
                hits: 0,
                inside: None,
                hurt: 0,
                fell: None,
                aboard: None,
                boost: 0,
                waiting: u.deploy,
                gear: None,
                handed: false,
                readied: 0,
                transformed: false,
            })
            .collect();
        let terrain: Vec<Shape> = setup
            .terrain
            .iter()
            .map(|t| Footprint::Polygon(t.corners.clone()).shape())
            .collect();
        let elements: Vec<Shape> = setup
            .elements
            .iter()
            .map(|e| Footprint::Polygon(e.corners.clone()).shape())
            .collect();
        let shapes: Vec<&Shape> = elements.iter().chain(&terrain).collect();
        let index = crate::index::Grid::new(setup.table, &shapes);
        let table = Table {
            index,
            terrain,
            elements,
            element_tags: (0..setup.elements.len())
                .map(|k| {
                    Tag::new(&crate::setup::element_id(&setup.elements, k)).expect("checked ids")
                })
                .collect(),
            setup: setup.clone(),
        };
        let mut game = Game {
            // An element with an X has no steps: it stands until the
            // element it is tied to falls (R119).
            elements: setup
                .elements
                .iter()
                .map(|e| if e.steps == 0 { X_STANDING } else { e.steps })
                .collect(),
            table: Arc::new(table),
            units,
            clouds: Vec::new(),
            turn: 1,
            flow: crate::flow::Flow::new(),
            crates: setup
                .crates
                .iter()
                .map(|at| crate::crates::Crate {
                    at: *at,
                    content: None,
                    state: crate::crates::CrateState::Lying,
                    secret_of: None,
                })
                // Crates allotted before the game, their contents known
                // to their side alone (R143, Cameron).
                .chain(setup.units.iter().enumerate().filter_map(|(i, u)| {
                    Some(crate::crates::Crate {
                        at: u.at,
                        content: Some(u.gear?),
                        state: crate::crates::CrateState::Carried(i as u8),
                        secret_of: Some(u.side),
                    })
                }))
                .collect(),
            banked: [0; 2],
            diskette: setup
                .diskette
                .map(|at| crate::crates::Diskette { at, carrier: None }),
            deferred: None,
            pending: None,
            picks: Vec::new(),
            ap: [0; 2],
            over: None,
            dice,
        };
        for k in 0..game.crates.len() {
            if let (crate::crates::CrateState::Carried(i), Some(c)) =
                (game.crates[k].state, game.crates[k].content)
            {
                game.units[usize::from(i)].gear = Some((k as u8, c));
            }
        }
        // Units waiting to be deployed: a coin picks the side that starts
        // (R146).
        if game.units.iter().any(|u| u.waiting) {
            let roll = game.dice.d6().map_err(|out| SetupError {
                problems: vec![sandtable_core::setup::SetupProblem {
                    path: "units".into(),
                    ruling: Some(sandtable_core::game::Ruling(30)),
                    message: format!("the coin that starts the deployment: {}", out.reason()),
                }],
                more: 0,
            })?;
            // A side with none to deploy leaves it all to the other.
            let mut side = u8::from(roll > 3);
            if game.deployable(side).is_empty() {
                side = 1 - side;
            }
            game.flow.phase = crate::flow::Phase::Deploy(side);
        }
        Ok(game)
    }

    /// The setup.
    pub fn setup(&self) -> &Setup {
        &self.table.setup
    }

    /// The units, standing or not, in the setup's order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The clouds thrown, gone ones included (R130).
    pub fn clouds(&self) -> &[Cloud] {
        &self.clouds
    }

    /// Each element's steps left; 0 is a ruin (R119).
    pub fn element_steps(&self) -> &[u8] {
        &self.elements
    }

    /// The game turn.
    pub fn turn_number(&self) -> u32 {
        self.turn
    }

    /// The side owing a pick or a placed drop, which comes before
    /// anything else, if one does.
    pub(crate) fn interrupt(&self) -> Option<u8> {
        if let Some(v) = self.picks.first() {
            return Some(self.units[*v].side);
        }
        self.pending.map(|p| self.units[p.shooter].side)
    }

    /// The transports whose owner owes the pick of a carried unit to take
    /// a step (R125), first first.
    pub fn picks(&self) -> &[usize] {
        &self.picks
    }

    /// A placed drop awaited (R129).
    pub fn pending(&self) -> Option<PendingDrop> {
        self.pending
    }

    /// AP each side destroyed (R145).
    pub fn ap_destroyed(&self) -> [u16; 2] {
        self.ap
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.over
    }

    /// The unit tagged `tag`, by index.
    pub fn find(&self, tag: Tag) -> Option<usize> {
        self.units.iter().position(|u| u.tag == tag)
    }

    pub(crate) fn lns(&self) -> f64 {
        f64::from(self.table.setup.switches.lns_mm)
    }

    /// The unit `tag` of `side`, standing: the unit of an action.
    pub(crate) fn actor(&self, side: u8, tag: Tag) -> Result<usize, CommandError> {
        let Some(i) = self.find(tag) else {
            return refuse(101, format!("no unit is {tag}"));
        };
        let u = &self.units[i];
        if u.side != side {
            return refuse(
                109,
                format!(
                    "{tag} is {}'s",
                    self.table.setup.sides[usize::from(u.side)].name
                ),
            );
        }
        if !u.alive {
            return refuse(124, format!("{tag} is destroyed"));
        }
        Ok(i)
    }

    /// The enemy `tag` of `side`'s unit, standing.
    pub(crate) fn enemy(&self, side: u8, tag: Tag) -> Result<usize, CommandError> {
        let Some(i) = self.find(tag) else {
            return refuse(101, format!("no unit is {tag}"));
        };
        let u = &self.units[i];
        if u.side == side {
            return refuse(
                129,
                format!("{tag} is a friend: a shot or charge names an enemy"),
            );
        }
        if !u.alive {
            return refuse(124, format!("{tag} is destroyed"));
        }
        Ok(i)
    }

    /// The first standing building element unit `i` touches (R102).
    pub(crate) fn element_in_contact(&self, i: usize) -> Option<usize> {
        let shape = self.units[i].shape();
        let contact = f64::from(self.table.setup.switches.contact_mm);
        (0..self.table.elements.len()).find(|k| {
            self.elements[*k] > 0
                && self.elements[*k] != X_STANDING
                && gap(&shape, &self.table.elements[*k]) <= contact + EPS
        })
    }

    /// The dice.
    pub fn dice(&self) -> &Dice {
        &self.dice
    }

    /// Replaces the dice (R30).
    pub fn set_dice(&mut self, dice: Dice) {
        self.dice = dice;
    }

    /// The centre where a placed drop lands when aimed at `aim` with no
    /// scatter: the least slide onto the table (R129).
    pub fn drop_onto_table(&self, aim: Pt) -> Pt {
        let (w, d) = self.table.setup.table;
        drop_landing(aim, 1, 1, LARGE_MM, w, d)
    }

    /// A point in `P16`, for commands.
    pub fn p16(p: Pt) -> P16 {
        P16::of(p).unwrap_or_default()
    }

    /// Whether units `a` and `b` overlap.
    pub fn overlapping(&self, a: usize, b: usize) -> bool {
        overlaps(&self.units[a].shape(), &self.units[b].shape())
    }
}

/// What stands in a move's way, for the refusal that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// A building element, by index.
    Element(usize),
    /// A unit, by index.
    Unit(usize),
    /// A terrain piece, by index.
    Terrain(usize),
}

/// What a crossed obstacle costs a shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Crossed {
    /// It blocks.
    Block,
    /// A light structure (R122).
    Light,
    /// An enemy cloud, its penalty (R131).
    Smoke(i8),
}

/// The armor types' names, by a weapon's bonus index (R101).
pub const ARMOR: [&str; 3] = ["body armor", "heavy armor", "structure"];

/// A weapon's name for people: `A`, `A1`, `A2`, or `its weapon`.
pub fn weapon_name(data: &UnitData, w: usize) -> String {
    match data.weapons.get(w) {
        Some(weapon) if !weapon.name.is_empty() => weapon.name.to_owned(),
        _ => "its weapon".to_owned(),
    }
}

/// A skirmish as it is written ([`sandtable_core::wire`]): its setup and
/// its state.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct GameForm {
    setup: Setup,
    units: Vec<Unit>,
    elements: Vec<u8>,
    clouds: Vec<Cloud>,
    turn: u32,
    flow: crate::flow::Flow,
    crates: Vec<crate::crates::Crate>,
    banked: [u8; 2],
    diskette: Option<crate::crates::Diskette>,
    deferred: Option<Vec<(usize, Outcome)>>,
    pending: Option<PendingDrop>,
    picks: Vec<usize>,
    ap: [u16; 2],
    over: Option<Ending>,
    dice: Dice,
}

impl sandtable_core::wire::Wire for Game {
    type Form = GameForm;

    fn to_form(&self) -> GameForm {
        GameForm {
            setup: self.table.setup.clone(),
            units: self.units.clone(),
            elements: self.elements.clone(),
            clouds: self.clouds.clone(),
            turn: self.turn,
            flow: self.flow.clone(),
            crates: self.crates.clone(),
            banked: self.banked,
            diskette: self.diskette,
            deferred: self.deferred.clone(),
            pending: self.pending,
            picks: self.picks.clone(),
            ap: self.ap,
            over: self.over,
            dice: self.dice.clone(),
        }
    }

    /// A skirmish read back: its setup checked as a scenario's is (R100 to
    /// R103) and its table built again from it, then its state, refused
    /// where it does not fit the setup (a unit, a crate, an element or a
    /// card that is not there).
    fn from_form(w: GameForm) -> Result<Game, String> {
        // Any dice: the setup's table is what is wanted of it.
        let fresh = Game::new(&w.setup, Dice::seeded(0)).map_err(|e| format!("its setup: {e}"))?;
        let game = Game {
            table: fresh.table.clone(),
            units: w.units,
            elements: w.elements,
            clouds: w.clouds,
            turn: w.turn,
            flow: w.flow,
            crates: w.crates,
            banked: w.banked,
            diskette: w.diskette,
            deferred: w.deferred,
            pending: w.pending,
            picks: w.picks,
            ap: w.ap,
            over: w.over,
            dice: w.dice,
        };
        game.fits(&fresh)?;
        Ok(game)
    }
}

impl Game {
    /// Whether a state read back fits the game `fresh` started from the
    /// same setup, so that no rule indexes out of it: why not.
    fn fits(&self, fresh: &Game) -> Result<(), String> {
        let n = self.units.len();
        if n != fresh.units.len() || self.elements.len() != fresh.elements.len() {
            return Err(format!(
                "{n} units and {} elements where the setup has {} and {}",
                self.elements.len(),
                fresh.units.len(),
                fresh.elements.len()
            ));
        }
        let unit = |k: usize| k < n;
        let side = |s: u8| s < 2;
        let elements = &self.table.setup.elements;
        for (u, f) in self.units.iter().zip(&fresh.units) {
            let inside_ok = u.inside.is_none_or(|(e, k)| {
                elements
                    .get(usize::from(e))
                    .is_some_and(|el| usize::from(k) < el.spaces.len())
            });
            if u.tag != f.tag
                || u.data.id != f.data.id
                || u.side != f.side
                || !inside_ok
                || u.aboard.is_some_and(|a| !unit(usize::from(a)))
                || u.gear
                    .is_some_and(|(k, _)| usize::from(k) >= self.crates.len())
            {
                return Err(format!("unit {} does not fit the setup", f.tag));
            }
        }
        for c in &self.crates {
            let ok = match c.state {
                crate::crates::CrateState::Carried(u) => unit(usize::from(u)),
                crate::crates::CrateState::Banked(s) => side(s),
                _ => true,
            };
            if !ok || c.secret_of.is_some_and(|s| !side(s)) {
                return Err("a crate with a unit or side that is not there".to_owned());
            }
        }
        let f = &self.flow;
        let phase_side = match f.phase {
            crate::flow::Phase::Deploy(s)
            | crate::flow::Phase::Prepare(s)
            | crate::flow::Phase::Name(s)
            | crate::flow::Phase::Reserve(s) => s,
            _ => 0,
        };
        let cards_ok = f.cards.iter().all(|c| {
            c.deck
                .iter()
                .chain(&c.hand)
                .chain(&c.discards)
                .all(|k| usize::from(*k) < crate::data::CARDS.len())
        });
        let units_ok = f.placed.iter().flatten().all(|p| unit(p.unit))
            && f.active.iter().all(|a| unit(a.unit) && side(a.side))
            && f.window
                .is_none_or(|w| side(w.side) && w.unit.is_none_or(unit))
            && f.landing.iter().all(|(k, _)| unit(*k))
            && f.mods.iter().all(|(k, _)| unit(*k))
            && f.over.iter().all(|k| unit(*k))
            && f.queue.iter().all(|(s, _)| side(*s))
            && self.picks.iter().all(|k| unit(*k))
            && self.deferred.iter().flatten().all(|(k, _)| unit(*k))
            && self.pending.is_none_or(|p| {
                unit(p.shooter)
                    && usize::from(p.weapon) < self.units[p.shooter].data.weapons.len().max(1)
            })
            && self
                .diskette
                .is_none_or(|d| d.carrier.is_none_or(|c| unit(usize::from(c))));
        if !side(phase_side) || !side(f.first) || !cards_ok || !units_ok {
            return Err("the turn names a unit, side or card that is not there".to_owned());
        }
        if self.clouds.iter().any(|c| c.owner > 1)
            || matches!(self.over, Some(Ending::Won(s)) if s.0 > 1)
        {
            return Err("a cloud or an ending of a seat that is not there".to_owned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use sandtable_core::wire::{Wire, WireError, read, write};

    use super::*;
    use crate::data::Faction;
    use crate::setup::{SideSetup, UnitSetup};

    fn game() -> Game {
        let unit = |data: &str, side: u8, x: i32| UnitSetup::at_x("", data, side, x);
        let setup = Setup {
            sides: vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)],
            units: vec![unit("lg_trooper", 0, 100), unit("zr_cluster", 1, 300)],
            ..Setup::default()
        };
        Game::new(&setup, Dice::seeded(1)).expect("valid")
    }

    #[test]
    fn a_state_that_does_not_fit_its_setup_is_refused_with_its_reason() {
        let g = game();
        // The control: the form reads back.
        assert!(Game::from_form(g.to_form()) == Ok(g.clone()));
        let mut form = g.to_form();
        form.units.pop();
        assert_eq!(
            Game::from_form(form).err().as_deref(),
            Some("1 units and 0 elements where the setup has 2 and 0")
        );
        let mut form = g.to_form();
        form.flow.cards[0].hand.push(200);
        assert_eq!(
            Game::from_form(form).err().as_deref(),
            Some("the turn names a unit, side or card that is not there")
        );
        let mut form = g.to_form();
        form.units[1].aboard = Some(7);
        let why = read::<Game>(&sandtable_core::wire::encode(&form)).err();
        assert!(
            matches!(&why, Some(WireError::Malformed(w)) if w.contains("does not fit the setup")),
            "{why:?}"
        );
        let mut form = g.to_form();
        form.setup.sides.pop();
        assert!(
            Game::from_form(form)
                .err()
                .is_some_and(|w| w.starts_with("its setup: ")),
        );
        assert!(read::<Game>(&write(&g)) == Ok(g));
    }
}
