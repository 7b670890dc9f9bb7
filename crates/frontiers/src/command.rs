//! Commands in Frontiers' notation (`docs/move-notation.md`): a unit's
//! short id, points in whole mm as `x,y`.
//!
//! ```text
//! move T3 150,90 218,100      legs by their end points (R113)
//! move O1 300,200 face 90     an oval's final facing (R113)
//! move T3                     stays where it stands: the activation spent
//! charge H1 B2 400,300        a charge ending in contact with B2 (R134)
//! shoot G1 C4                 a shot, a template weapon's or a drop (R120-R129)
//! shoot O1 C4 A2              a vehicle's shot with its weapon A2
//! grenade T2 C1               a grenade at C1 (R127)
//! smoke E1 300,180            a cloud thrown at a point (R130)
//! land 652,330                where a placed drop fell (R129)
//! special H1 shield           an activated ability: shield, tripod (R135, R136)
//! discard aim jam             a Preparation: cards out, then up to 4 drawn (R105)
//! orders T1:1 T2:decoy O1.L:2 a side's markers, placed sealed (R107)
//! name T3 move                the action a turned-up marker's unit takes (R110)
//! pass                        an action or a card window let go (R111, R132)
//! pass T3                     a unit's Reserve let go (R112)
//! card aim T1                 a card played, naming what it needs (R132, R152)
//! deploy T3 150,15            a unit set on the table touching its edge (R146)
//! deploy CM RH.2              an infiltrator set in a building's space (R138)
//! ```

use std::fmt;
use std::str::FromStr;

use crate::army::{MAX_MARKERS, Marker, Slot};
use crate::data::{CARDS, Location};
use crate::geometry::Pt;
use crate::moves::MAX_LEGS;
use crate::setup::id_ok;

/// A unit's short id, as commands name it: 1 to 4 capitals and digits.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Tag([u8; 4]);

impl Tag {
    /// The tag of `id`, if it is a short id.
    pub fn new(id: &str) -> Option<Tag> {
        if !id_ok(id) {
            return None;
        }
        let mut t = [0; 4];
        t[..id.len()].copy_from_slice(id.as_bytes());
        Some(Tag(t))
    }

    /// Its text.
    pub fn as_str(&self) -> &str {
        let n = self.0.iter().position(|b| *b == 0).unwrap_or(4);
        std::str::from_utf8(&self.0[..n]).unwrap_or("?")
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A point of a command, in whole mm (as [`sandtable_core::game::Spot::Point`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct P16 {
    /// Across.
    pub x: i16,
    /// Along.
    pub y: i16,
}

impl P16 {
    /// The point as the geometry's.
    pub fn pt(self) -> Pt {
        Pt::new(i32::from(self.x), i32::from(self.y))
    }

    /// The point of `p`, if it fits.
    pub fn of(p: Pt) -> Option<P16> {
        Some(P16 {
            x: i16::try_from(p.x).ok()?,
            y: i16::try_from(p.y).ok()?,
        })
    }
}

impl fmt::Display for P16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A step of a move: a point outdoors its centre goes to, or a space of
/// a building element it steps into (R117).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Step {
    /// A point on the table.
    At(P16),
    /// A space: the element's short id and the space's number from 1
    /// (`RH.2`).
    Space(Tag, u8),
    /// Aboard a friendly transport the path ends in contact with (R140):
    /// its short id, the path's last step.
    Board(Tag),
    /// A transport with Deployment sets down a unit it carries at a spot
    /// in contact with it where it stands on its path (R140): `K1@300,440`.
    Drop(Tag, P16),
}

impl Default for Step {
    fn default() -> Step {
        Step::At(P16::default())
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::At(p) => write!(f, "{p}"),
            Step::Space(e, k) => write!(f, "{e}.{k}"),
            Step::Board(v) => write!(f, "{v}"),
            Step::Drop(u, p) => write!(f, "{u}@{p}"),
        }
    }
}

/// The most steps of a path: up to [`MAX_LEGS`] straight legs outdoors
/// (R113) and spaces indoors (R117), together.
pub const MAX_STEPS: usize = 16;

/// A move's legs: up to [`MAX_LEGS`] straight legs and spaces, at most
/// [`MAX_STEPS`] steps (R113, R117).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Legs {
    ends: [Step; MAX_STEPS],
    len: u8,
}

impl Legs {
    /// The legs to these end points; `None` beyond [`MAX_LEGS`].
    pub fn of(points: &[P16]) -> Option<Legs> {
        let steps: Vec<Step> = points.iter().map(|p| Step::At(*p)).collect();
        Legs::of_steps(&steps)
    }

    /// The legs of these steps; `None` beyond [`MAX_LEGS`] legs or
    /// [`MAX_STEPS`] steps.
    pub fn of_steps(steps: &[Step]) -> Option<Legs> {
        let legs = steps.iter().filter(|s| matches!(s, Step::At(_))).count();
        if legs > MAX_LEGS || steps.len() > MAX_STEPS {
            return None;
        }
        let mut ends = [Step::default(); MAX_STEPS];
        ends[..steps.len()].copy_from_slice(steps);
        Some(Legs {
            ends,
            len: steps.len() as u8,
        })
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        &self.ends[..usize::from(self.len)]
    }

    /// The end points of an outdoor path, `None` where it steps into a
    /// space.
    pub fn points(&self) -> Option<Vec<Pt>> {
        self.steps()
            .iter()
            .map(|s| match s {
                Step::At(p) => Some(p.pt()),
                Step::Space(..) | Step::Board(_) | Step::Drop(..) => None,
            })
            .collect()
    }

    /// The last point outdoors it ends at, if it ends outdoors.
    pub fn end_point(&self) -> Option<Pt> {
        match self.steps().last()? {
            Step::At(p) => Some(p.pt()),
            Step::Space(..) | Step::Board(_) | Step::Drop(..) => None,
        }
    }

    /// Whether there is no leg.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// An activated ability (R135, R136).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Special {
    /// Raise an energy shield (R135).
    Shield,
    /// Set a tripod (R136).
    Tripod,
    /// A crate's explosives: an element in contact takes 1d6 steps
    /// (R144).
    Explosives,
    /// Set a Reserve action, for a later turn's Reserve (R137).
    Reserve,
}

impl Special {
    /// Its word.
    pub fn word(self) -> &'static str {
        match self {
            Special::Shield => "shield",
            Special::Tripod => "tripod",
            Special::Explosives => "explosives",
            Special::Reserve => "reserve",
        }
    }
}

/// The most parts a rapid-fire shot splits into (the data's largest
/// bonus, R141).
pub const MAX_PARTS: usize = 3;

/// A part of a rapid-fire shot (R141): a target and the bonus it takes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Part {
    /// The target.
    pub target: Tag,
    /// Its part of the bonus, +1 or more.
    pub bonus: u8,
}

/// The kind of action an active unit takes (R109), named before any is
/// resolved (R110) and resolved in this order (R111).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Kind {
    /// A move, a charge, a transport's boarding or leaving (R113, R134).
    Move,
    /// A shot, a grenade (R120-R129).
    Shoot,
    /// A card of the `action` window (R132).
    Card,
    /// An activated ability: a medic's or mechanic's care, a smoke bomb,
    /// a shield or a tripod (R135-R139).
    Special,
}

impl Kind {
    /// Every kind, in resolution order.
    pub const ALL: [Kind; 4] = [Kind::Move, Kind::Shoot, Kind::Card, Kind::Special];

    /// Its word in commands.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Move => "move",
            Kind::Shoot => "shoot",
            Kind::Card => "card",
            Kind::Special => "special",
        }
    }
}

/// The most cards a Preparation discards: a hand of 4 and two for each
/// of up to 3 resupplies played, each out of the hand (R105, R152).
pub const MAX_DISCARD: usize = 8;

/// The most markers a side places: its numbered ones and 2 decoys
/// (R106).
pub const MAX_ORDERS: usize = MAX_MARKERS as usize + 2;

/// A marker placed in an `orders` command: the unit, where on it, and
/// the marker (R107).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Order {
    /// The unit.
    pub unit: Tag,
    /// Where on it.
    pub slot: Slot,
    /// The marker.
    pub marker: Marker,
}

impl Default for Order {
    fn default() -> Order {
        Order {
            unit: Tag::default(),
            slot: Slot::Unit,
            marker: Marker::Decoy,
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.unit)?;
        match self.slot {
            Slot::Unit => {}
            Slot::Locomotion => f.write_str(".L")?,
            Slot::Weapon(w) => write!(f, ".A{}", w + 1)?,
        }
        match self.marker {
            Marker::Numbered(n) => write!(f, ":{n}"),
            Marker::Decoy => f.write_str(":decoy"),
        }
    }
}

/// A command of Frontiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Command {
    /// A Move (R113-R116): the legs, and an oval's final facing.
    Move {
        /// The unit.
        unit: Tag,
        /// The legs.
        legs: Legs,
        /// An oval's final facing, whole degrees.
        face: Option<i16>,
    },
    /// A charge (R134): a Move ending in contact with `target`, then an
    /// attack on it.
    Charge {
        /// The unit.
        unit: Tag,
        /// The enemy it attacks.
        target: Tag,
        /// The legs (none: it is in contact already).
        legs: Legs,
    },
    /// A Shoot (R120-R129): a shot, a template weapon's or a drop.
    Shoot {
        /// The shooter.
        unit: Tag,
        /// The target.
        target: Tag,
        /// A vehicle's weapon by index (`A`/`A1` 0, `A2` 1); 0 for
        /// infantry.
        weapon: u8,
    },
    /// A rapid-fire Shoot (R141): the bonus split among 2 or more
    /// targets of one defense type, each within 2 LNS of every other.
    Rapid {
        /// The shooter.
        unit: Tag,
        /// The parts; the first `n` count.
        parts: [Part; MAX_PARTS],
        /// How many parts.
        n: u8,
    },
    /// A grenade (R127): a Shoot with a small template on the target.
    Grenade {
        /// The thrower.
        unit: Tag,
        /// The target.
        target: Tag,
    },
    /// A grenade through a window (R127): no template; the units in the
    /// spaces behind it attacked, then the element takes a step.
    Window {
        /// The thrower.
        unit: Tag,
        /// The element.
        element: Tag,
        /// The window's number among the element's windows, from 1.
        window: u8,
    },
    /// A medic's Special (R139): a move, then one friendly unit in
    /// contact cared for.
    Heal {
        /// The medic.
        unit: Tag,
        /// The patient.
        patient: Tag,
        /// The move first (none: it stays).
        legs: Legs,
    },
    /// A mechanic's Special (R139): a move, then a marker off a friendly
    /// vehicle in contact, or a vehicle destroyed this turn returned.
    Repair {
        /// The mechanic.
        unit: Tag,
        /// The vehicle.
        patient: Tag,
        /// The marker taken off; `None` to return a destroyed vehicle.
        location: Option<Location>,
        /// The move first (none: it stays).
        legs: Legs,
    },
    /// A smoke bomb (R130, R138): a Special throwing a cloud at a point.
    Smoke {
        /// The thrower.
        unit: Tag,
        /// The cloud's centre.
        at: P16,
    },
    /// The carried unit that takes a step when its transport's C location
    /// is hit (R125: the owner's pick).
    Pick {
        /// The carried unit.
        unit: Tag,
    },
    /// Where a placed drop fell (R129, `drop: placed`).
    Land {
        /// The template's centre.
        at: P16,
    },
    /// An activated ability (R134-R136).
    Special {
        /// The unit.
        unit: Tag,
        /// The ability.
        what: Special,
    },
    /// A side's Preparation (R105): the cards it discards, by their
    /// place in [`CARDS`]; then it draws up to 4.
    Discard {
        /// The cards, the first `n` counting.
        cards: [u8; MAX_DISCARD],
        /// How many.
        n: u8,
    },
    /// A side's markers for the turn, placed face down (R107): one sealed
    /// command a side.
    Orders {
        /// The markers, the first `n` counting.
        orders: [Order; MAX_ORDERS],
        /// How many.
        n: u8,
    },
    /// The kind of action the unit of a turned-up marker takes (R110).
    Name {
        /// The active unit.
        unit: Tag,
        /// Its action's kind.
        kind: Kind,
    },
    /// A card played in its window (R132, R133, R152): `card aim T1`,
    /// `card reinforce`, `card smoke_screen T1 300,180`, `card
    /// field_repair E1 O1 L 600,150`.
    Card {
        /// The card, by its place in [`CARDS`].
        card: u8,
        /// The unit it names: the shooter aimed or jammed, the unit
        /// sprinting, rallied or covered, the unit whose Card action it is.
        unit: Option<Tag>,
        /// A field repair's vehicle.
        patient: Option<Tag>,
        /// A field repair's marker taken off; none: a return.
        location: Option<Location>,
        /// A smoke screen's point.
        at: Option<P16>,
        /// A field repair's move first.
        legs: Legs,
    },
    /// A move ending in contact with a crate, which it opens or picks up
    /// (R143): a Move.
    Open {
        /// The unit.
        unit: Tag,
        /// The move first (none: it touches one already).
        legs: Legs,
    },
    /// A crate handed to friendly infantry in contact (R144): a Move.
    Hand {
        /// The carrier.
        unit: Tag,
        /// The taker.
        to: Tag,
    },
    /// A unit with Transformation turns to its other form, with its
    /// action, once a turn (R137).
    Transform {
        /// The unit.
        unit: Tag,
    },
    /// The diskette tossed to friendly infantry in sight within 3 LNS: a
    /// Shoot that always arrives (R147).
    Toss {
        /// The carrier.
        unit: Tag,
        /// The catcher.
        to: Tag,
    },
    /// A unit set on the table before the first turn (R138, R146).
    Deploy {
        /// The unit.
        unit: Tag,
        /// Where: a point for its centre, or a building's space.
        to: Step,
        /// An oval's facing.
        face: Option<i16>,
    },
    /// An action, a card window or a unit's Reserve let go (R111, R112,
    /// R132).
    Pass {
        /// The unit whose Reserve is let go; none for an action or a
        /// window.
        unit: Option<Tag>,
    },
}

impl Command {
    /// The unit that acts, if one does.
    pub fn unit(&self) -> Option<Tag> {
        match self {
            Command::Move { unit, .. }
            | Command::Charge { unit, .. }
            | Command::Shoot { unit, .. }
            | Command::Rapid { unit, .. }
            | Command::Window { unit, .. }
            | Command::Heal { unit, .. }
            | Command::Repair { unit, .. }
            | Command::Grenade { unit, .. }
            | Command::Smoke { unit, .. }
            | Command::Open { unit, .. }
            | Command::Hand { unit, .. }
            | Command::Toss { unit, .. }
            | Command::Transform { unit }
            | Command::Special { unit, .. } => Some(*unit),
            Command::Land { .. }
            | Command::Pick { .. }
            | Command::Discard { .. }
            | Command::Orders { .. }
            | Command::Name { .. }
            | Command::Card { .. }
            | Command::Deploy { .. }
            | Command::Pass { .. } => None,
        }
    }

    /// A plain move of `unit` along `legs`.
    pub fn move_to(unit: Tag, legs: &[P16], face: Option<i16>) -> Option<Command> {
        Some(Command::Move {
            unit,
            legs: Legs::of(legs)?,
            face,
        })
    }
}

fn write_legs(f: &mut fmt::Formatter<'_>, legs: &Legs) -> fmt::Result {
    for p in legs.steps() {
        write!(f, " {p}")?;
    }
    Ok(())
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move { unit, legs, face } => {
                write!(f, "move {unit}")?;
                write_legs(f, legs)?;
                if let Some(face) = face {
                    write!(f, " face {face}")?;
                }
                Ok(())
            }
            Command::Charge { unit, target, legs } => {
                write!(f, "charge {unit} {target}")?;
                write_legs(f, legs)
            }
            Command::Shoot {
                unit,
                target,
                weapon,
            } => {
                write!(f, "shoot {unit} {target}")?;
                if *weapon > 0 {
                    write!(f, " A{}", weapon + 1)?;
                }
                Ok(())
            }
            Command::Rapid { unit, parts, n } => {
                write!(f, "shoot {unit}")?;
                for p in &parts[..usize::from(*n).min(MAX_PARTS)] {
                    write!(f, " {}+{}", p.target, p.bonus)?;
                }
                Ok(())
            }
            Command::Grenade { unit, target } => write!(f, "grenade {unit} {target}"),
            Command::Window {
                unit,
                element,
                window,
            } => write!(f, "grenade {unit} {element}.w{window}"),
            Command::Heal {
                unit,
                patient,
                legs,
            } => {
                write!(f, "heal {unit} {patient}")?;
                write_legs(f, legs)
            }
            Command::Repair {
                unit,
                patient,
                location,
                legs,
            } => {
                write!(f, "repair {unit} {patient}")?;
                if let Some(l) = location {
                    write!(f, " {}", location_word(*l))?;
                }
                write_legs(f, legs)
            }
            Command::Smoke { unit, at } => write!(f, "smoke {unit} {at}"),
            Command::Land { at } => write!(f, "land {at}"),
            Command::Pick { unit } => write!(f, "pick {unit}"),
            Command::Special { unit, what } => write!(f, "special {unit} {}", what.word()),
            Command::Discard { cards, n } => {
                f.write_str("discard")?;
                for c in &cards[..usize::from(*n).min(MAX_DISCARD)] {
                    let id = CARDS.get(usize::from(*c)).map_or("?", |c| c.id);
                    write!(f, " {id}")?;
                }
                Ok(())
            }
            Command::Orders { orders, n } => {
                f.write_str("orders")?;
                for o in &orders[..usize::from(*n).min(MAX_ORDERS)] {
                    write!(f, " {o}")?;
                }
                Ok(())
            }
            Command::Name { unit, kind } => write!(f, "name {unit} {}", kind.word()),
            Command::Card {
                card,
                unit,
                patient,
                location,
                at,
                legs,
            } => {
                let id = CARDS.get(usize::from(*card)).map_or("?", |c| c.id);
                write!(f, "card {id}")?;
                for t in [unit, patient].into_iter().flatten() {
                    write!(f, " {t}")?;
                }
                if let Some(l) = location {
                    write!(f, " {}", location_word(*l))?;
                }
                if let Some(p) = at {
                    write!(f, " {p}")?;
                }
                write_legs(f, legs)
            }
            Command::Open { unit, legs } => {
                write!(f, "open {unit}")?;
                write_legs(f, legs)
            }
            Command::Hand { unit, to } => write!(f, "hand {unit} {to}"),
            Command::Toss { unit, to } => write!(f, "toss {unit} {to}"),
            Command::Transform { unit } => write!(f, "transform {unit}"),
            Command::Deploy { unit, to, face } => {
                write!(f, "deploy {unit} {to}")?;
                if let Some(face) = face {
                    write!(f, " face {face}")?;
                }
                Ok(())
            }
            Command::Pass { unit: None } => f.write_str("pass"),
            Command::Pass { unit: Some(unit) } => write!(f, "pass {unit}"),
        }
    }
}

/// A location's word on the seed's table (R125): `A` (a vehicle's first
/// weapon), `A2`, `C`, `L`, `E`.
pub fn location_word(l: Location) -> &'static str {
    match l {
        Location::Weapon(0) => "A",
        Location::Weapon(_) => "A2",
        Location::Carried => "C",
        Location::Locomotion => "L",
        Location::Equipment => "E",
    }
}

/// Why a command's text is not a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseCommandError(String);

impl fmt::Display for ParseCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseCommandError {}

fn bad<T>(why: impl Into<String>) -> Result<T, ParseCommandError> {
    Err(ParseCommandError(why.into()))
}

fn tag(word: Option<&str>, what: &str) -> Result<Tag, ParseCommandError> {
    let Some(word) = word else {
        return bad(format!("{what} is missing: a unit's short id, as T1"));
    };
    Tag::new(word).map_or_else(
        || {
            bad(format!(
                "{word:?} is not a unit's short id: 1 to 4 capitals and digits, as T1"
            ))
        },
        Ok,
    )
}

fn point(word: &str) -> Result<P16, ParseCommandError> {
    let parsed = word.split_once(',').and_then(|(x, y)| {
        Some(P16 {
            x: x.parse().ok()?,
            y: y.parse().ok()?,
        })
    });
    parsed.map_or_else(
        || {
            bad(format!(
                "{word:?} is not a point: whole mm across and along, as 150,90"
            ))
        },
        Ok,
    )
}

/// A step: a point `150,90`, or a space `RH.2` (an element's id and the
/// space's number from 1).
fn step(word: &str) -> Result<Step, ParseCommandError> {
    if let Some((u, p)) = word.split_once('@') {
        let Some(u) = Tag::new(u) else {
            return bad(format!(
                "{word:?} is not a unit set down: its short id and a point, as K1@300,440"
            ));
        };
        return point(p).map(|p| Step::Drop(u, p));
    }
    if let Some((e, k)) = word.split_once('.') {
        let Some(e) = Tag::new(e) else {
            return bad(format!(
                "{word:?} is not a space: an element's short id and a space's number, as RH.2"
            ));
        };
        return match k.parse::<u8>() {
            Ok(k) if k >= 1 => Ok(Step::Space(e, k)),
            _ => bad(format!(
                "{word:?} is not a space: an element's short id and a space's number from 1, as RH.2"
            )),
        };
    }
    if !word.contains(',')
        && let Some(v) = Tag::new(word)
    {
        return Ok(Step::Board(v));
    }
    point(word).map(Step::At)
}

fn legs(words: &[&str]) -> Result<Legs, ParseCommandError> {
    let points = words
        .iter()
        .map(|w| step(w))
        .collect::<Result<Vec<_>, _>>()?;
    let count = points.iter().filter(|s| matches!(s, Step::At(_))).count();
    Legs::of_steps(&points).map_or_else(
        || {
            if count > MAX_LEGS {
                bad(format!(
                    "{count} legs: a move has at most {MAX_LEGS} (R113)"
                ))
            } else {
                bad(format!(
                    "{} steps: a path has at most {MAX_STEPS}, legs and spaces together",
                    points.len()
                ))
            }
        },
        Ok,
    )
}

/// A marker placed: `T1:1`, `T2:decoy`, `O1.L:2`, `O1.A2:3` (R107).
fn order(word: &str) -> Result<Order, ParseCommandError> {
    let wrong = || {
        bad(format!(
            "{word:?} is not a marker placed: a unit, a vehicle's slot, and a number or decoy, as T1:1, T2:decoy, O1.L:2 or O1.A2:3"
        ))
    };
    let Some((holder, marker)) = word.split_once(':') else {
        return wrong();
    };
    let marker = match marker {
        "decoy" => Marker::Decoy,
        n => match n.parse::<u8>() {
            Ok(n) if (1..=MAX_MARKERS).contains(&n) => Marker::Numbered(n),
            _ => return wrong(),
        },
    };
    let (unit, slot) = match holder.split_once('.') {
        None => (holder, Slot::Unit),
        Some((u, "L")) => (u, Slot::Locomotion),
        Some((u, "A" | "A1")) => (u, Slot::Weapon(0)),
        Some((u, "A2")) => (u, Slot::Weapon(1)),
        Some(_) => return wrong(),
    };
    let Some(unit) = Tag::new(unit) else {
        return wrong();
    };
    Ok(Order { unit, slot, marker })
}

/// A mechanic's marker word (`A`, `A1`, `A2`, `C`, `L`, `E`) if the
/// words start with one, and the words after it.
fn marker_then_legs<'a, 'b>(words: &'b [&'a str]) -> (Option<Location>, &'b [&'a str]) {
    let location = match words.first().copied() {
        Some("A" | "A1") => Some(Location::Weapon(0)),
        Some("A2") => Some(Location::Weapon(1)),
        Some("C") => Some(Location::Carried),
        Some("L") => Some(Location::Locomotion),
        Some("E") => Some(Location::Equipment),
        _ => None,
    };
    (location, &words[usize::from(location.is_some())..])
}

fn done<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<(), ParseCommandError> {
    match words.next() {
        Some(w) => bad(format!("{w:?} is more than the command takes")),
        None => Ok(()),
    }
}

impl FromStr for Command {
    type Err = ParseCommandError;

    fn from_str(s: &str) -> Result<Command, ParseCommandError> {
        let mut words = s.split_whitespace();
        let verb = words.next().unwrap_or("");
        match verb {
            "move" => {
                let unit = tag(words.next(), "the unit")?;
                let rest: Vec<&str> = words.collect();
                let (points, face) = match rest.iter().position(|w| *w == "face") {
                    Some(k) => {
                        let face = match &rest[k + 1..] {
                            [deg] => deg.parse::<i16>().ok().filter(|d| (-360..=360).contains(d)),
                            _ => None,
                        };
                        let Some(face) = face else {
                            return bad("`face` takes one facing, whole degrees -360 to 360");
                        };
                        (&rest[..k], Some(face))
                    }
                    None => (&rest[..], None),
                };
                Ok(Command::Move {
                    unit,
                    legs: legs(points)?,
                    face,
                })
            }
            "charge" => {
                let unit = tag(words.next(), "the unit")?;
                let target = tag(words.next(), "the target")?;
                let rest: Vec<&str> = words.collect();
                Ok(Command::Charge {
                    unit,
                    target,
                    legs: legs(&rest)?,
                })
            }
            "shoot" if s.contains('+') => {
                let unit = tag(words.next(), "the shooter")?;
                let mut parts = [Part::default(); MAX_PARTS];
                let mut n = 0;
                for w in words {
                    let parsed = w.split_once('+').and_then(|(t, b)| {
                        Some(Part {
                            target: Tag::new(t)?,
                            bonus: b.parse().ok()?,
                        })
                    });
                    let Some(part) = parsed else {
                        return bad(format!(
                            "{w:?} is not a part of a split shot: a target and its bonus, as T1+2"
                        ));
                    };
                    if n == MAX_PARTS {
                        return bad(format!("a split shot has at most {MAX_PARTS} parts (R141)"));
                    }
                    parts[n] = part;
                    n += 1;
                }
                Ok(Command::Rapid {
                    unit,
                    parts,
                    n: n as u8,
                })
            }
            "shoot" => {
                let unit = tag(words.next(), "the shooter")?;
                let target = tag(words.next(), "the target")?;
                let weapon = match words.next() {
                    None | Some("A") | Some("A1") => 0,
                    Some("A2") => 1,
                    Some(w) => return bad(format!("{w:?} is not a weapon: A, A1 or A2")),
                };
                done(words)?;
                Ok(Command::Shoot {
                    unit,
                    target,
                    weapon,
                })
            }
            "heal" => {
                let unit = tag(words.next(), "the medic")?;
                let patient = tag(words.next(), "the patient")?;
                let rest: Vec<&str> = words.collect();
                Ok(Command::Heal {
                    unit,
                    patient,
                    legs: legs(&rest)?,
                })
            }
            "repair" => {
                let unit = tag(words.next(), "the mechanic")?;
                let patient = tag(words.next(), "the vehicle")?;
                let words: Vec<&str> = words.collect();
                let (location, rest) = marker_then_legs(&words);
                Ok(Command::Repair {
                    unit,
                    patient,
                    location,
                    legs: legs(rest)?,
                })
            }
            "grenade" => {
                let unit = tag(words.next(), "the thrower")?;
                let word = words.next();
                // A window: the element's id and `w` with its number.
                if let Some((e, w)) = word.and_then(|w| w.split_once(".w")) {
                    let (Some(element), Ok(window)) = (Tag::new(e), w.parse::<u8>()) else {
                        return bad(format!(
                            "{:?} is not a window: an element's id and w with the window's number, as RH.w1",
                            word.unwrap_or("")
                        ));
                    };
                    if window == 0 {
                        return bad("windows are numbered from 1, as RH.w1");
                    }
                    done(words)?;
                    return Ok(Command::Window {
                        unit,
                        element,
                        window,
                    });
                }
                let target = tag(word, "the target")?;
                done(words)?;
                Ok(Command::Grenade { unit, target })
            }
            "smoke" => {
                let unit = tag(words.next(), "the thrower")?;
                let Some(at) = words.next() else {
                    return bad("the cloud's point is missing, as 300,180");
                };
                let at = point(at)?;
                done(words)?;
                Ok(Command::Smoke { unit, at })
            }
            "pick" => {
                let unit = tag(words.next(), "the carried unit")?;
                done(words)?;
                Ok(Command::Pick { unit })
            }
            "land" => {
                let Some(at) = words.next() else {
                    return bad("the template's point is missing, as 652,330");
                };
                let at = point(at)?;
                done(words)?;
                Ok(Command::Land { at })
            }
            "special" => {
                let unit = tag(words.next(), "the unit")?;
                let what = match words.next() {
                    Some("shield") => Special::Shield,
                    Some("tripod") => Special::Tripod,
                    Some("explosives") => Special::Explosives,
                    Some("reserve") => Special::Reserve,
                    Some(w) => {
                        return bad(format!(
                            "{w:?} is not an activated ability: shield, tripod, explosives or reserve"
                        ));
                    }
                    None => return bad("the ability is missing: shield or tripod"),
                };
                done(words)?;
                Ok(Command::Special { unit, what })
            }
            "discard" => {
                let mut cards = [0; MAX_DISCARD];
                let mut n = 0;
                for w in words {
                    let Some(c) = CARDS.iter().position(|c| c.id == w) else {
                        return bad(format!(
                            "{w:?} is not a card: {}",
                            CARDS.iter().map(|c| c.id).collect::<Vec<_>>().join(", ")
                        ));
                    };
                    if n == MAX_DISCARD {
                        return bad(format!(
                            "a Preparation discards {MAX_DISCARD} cards at most (R105, R152)"
                        ));
                    }
                    cards[n] = c as u8;
                    n += 1;
                }
                Ok(Command::Discard { cards, n: n as u8 })
            }
            "orders" => {
                let mut orders = [Order::default(); MAX_ORDERS];
                let mut n = 0;
                for w in words {
                    if n == MAX_ORDERS {
                        return bad(format!(
                            "a side places at most {MAX_ORDERS} markers: {MAX_MARKERS} numbered and 2 decoys (R106)"
                        ));
                    }
                    orders[n] = order(w)?;
                    n += 1;
                }
                Ok(Command::Orders { orders, n: n as u8 })
            }
            "name" => {
                let unit = tag(words.next(), "the active unit")?;
                let kind = match words.next() {
                    Some(w) => match Kind::ALL.iter().find(|k| k.word() == w) {
                        Some(k) => *k,
                        None => {
                            return bad(format!(
                                "{w:?} is not an action: move, shoot, card or special (R109)"
                            ));
                        }
                    },
                    None => return bad("the action is missing: move, shoot, card or special"),
                };
                done(words)?;
                Ok(Command::Name { unit, kind })
            }
            "card" => {
                let Some(id) = words.next() else {
                    return bad("the card is missing, as card aim T1");
                };
                let Some(card) = CARDS.iter().position(|c| c.id == id) else {
                    return bad(format!(
                        "{id:?} is not a card: {}",
                        CARDS.iter().map(|c| c.id).collect::<Vec<_>>().join(", ")
                    ));
                };
                let mut c = Command::Card {
                    card: card as u8,
                    unit: None,
                    patient: None,
                    location: None,
                    at: None,
                    legs: Legs::default(),
                };
                let Command::Card {
                    unit,
                    patient,
                    location,
                    at,
                    legs: path,
                    ..
                } = &mut c
                else {
                    unreachable!("a card")
                };
                match id {
                    "reinforce" | "resupply" => {}
                    "smoke_screen" => {
                        *unit = Some(tag(words.next(), "the unit playing it")?);
                        let Some(p) = words.next() else {
                            return bad("the cloud's point is missing, as 300,180");
                        };
                        *at = Some(point(p)?);
                    }
                    "field_repair" => {
                        *unit = Some(tag(words.next(), "the unit playing it")?);
                        *patient = Some(tag(words.next(), "the vehicle")?);
                        let rest: Vec<&str> = words.by_ref().collect();
                        let (l, rest) = marker_then_legs(&rest);
                        *location = l;
                        *path = legs(rest)?;
                    }
                    _ => *unit = Some(tag(words.next(), "the unit it names")?),
                }
                done(words)?;
                Ok(c)
            }
            "open" => {
                let unit = tag(words.next(), "the unit")?;
                let rest: Vec<&str> = words.collect();
                Ok(Command::Open {
                    unit,
                    legs: legs(&rest)?,
                })
            }
            "transform" => {
                let unit = tag(words.next(), "the unit")?;
                done(words)?;
                Ok(Command::Transform { unit })
            }
            "toss" => {
                let unit = tag(words.next(), "the carrier")?;
                let to = tag(words.next(), "the unit catching it")?;
                done(words)?;
                Ok(Command::Toss { unit, to })
            }
            "hand" => {
                let unit = tag(words.next(), "the carrier")?;
                let to = tag(words.next(), "the unit taking it")?;
                done(words)?;
                Ok(Command::Hand { unit, to })
            }
            "deploy" => {
                let unit = tag(words.next(), "the unit")?;
                let Some(to) = words.next() else {
                    return bad(
                        "where it is deployed is missing: a point, as 150,15, or a space, as RH.2",
                    );
                };
                let to = match step(to)? {
                    s @ (Step::At(_) | Step::Space(..)) => s,
                    _ => {
                        return bad(
                            "a unit is deployed at a point, as 150,15, or in a space, as RH.2",
                        );
                    }
                };
                let face = match (words.next(), words.next()) {
                    (None, _) => None,
                    (Some("face"), Some(deg)) => match deg.parse::<i16>() {
                        Ok(d) if (-360..=360).contains(&d) => Some(d),
                        _ => return bad("`face` takes one facing, whole degrees -360 to 360"),
                    },
                    _ => return bad("`face` takes one facing, whole degrees -360 to 360"),
                };
                done(words)?;
                Ok(Command::Deploy { unit, to, face })
            }
            "pass" => {
                let unit = match words.next() {
                    Some(w) => Some(tag(Some(w), "the unit")?),
                    None => None,
                };
                done(words)?;
                Ok(Command::Pass { unit })
            }
            "" => bad("the command is empty"),
            other => bad(format!(
                "{other:?} is not a command: move, charge, shoot, grenade, heal, repair, smoke, land, pick, special, discard, orders, name, card, deploy, open, hand, toss, transform or pass"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_reads_back_as_it_prints() {
        for text in [
            "move T3 150,90 218,100",
            "move O1 300,200 face 90",
            "move T3",
            "charge H1 B2 400,300",
            "charge H1 B2",
            "shoot G1 C4",
            "shoot O1 C4 A2",
            "shoot K1 T1+2 T2+1",
            "grenade T2 C1",
            "smoke E1 300,180",
            "land 652,330",
            "special H1 shield",
            "special S1 tripod",
            "move T1 -5,0",
            "move T1 100,80 RH.1 RH.2",
            "move T1 RH.3 612,240 700,240",
            "charge B1 T1 RH.2",
            "grenade T2 RH.w1",
            "move T1 150,90 L1",
            "move V1 300,400 K1@300,440 300,520",
            "pick T1",
            "heal M1 T3",
            "heal M1 T3 150,90",
            "repair E1 O1 L 600,150",
            "repair E1 O1",
            "discard",
            "discard aim jam",
            "orders T1:1 T2:decoy O1.L:2 O1.A2:3 O2.A1:decoy",
            "orders",
            "name T3 move",
            "name O1 card",
            "pass",
            "pass T3",
            "card aim T1",
            "card reinforce",
            "card smoke_screen T1 300,180",
            "card field_repair E1 O1 L 600,150",
            "card field_repair E1 O1",
            "deploy T3 150,15",
            "open T3 150,90",
            "open T3",
            "hand T3 T4",
            "toss T3 T4",
            "transform SH1",
            "special T3 explosives",
            "special G1 reserve",
            "deploy O1 300,18 face 0",
            "deploy CM RH.2",
        ] {
            let c: Command = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(c.to_string(), text);
        }
        assert_eq!(
            "shoot O1 C4 A1".parse::<Command>().unwrap().to_string(),
            "shoot O1 C4"
        );
    }

    #[test]
    fn bad_text_says_what_is_wrong() {
        let e = |t: &str| t.parse::<Command>().unwrap_err().to_string();
        assert!(e("walk T1").contains("not a command"));
        assert!(e("move t1").contains("not a unit's short id"));
        assert!(e("move T1 10;20").contains("not a point"));
        assert!(
            e("move T1 1,1 2,2 3,3 4,4 5,5 6,6 7,7 8,8 9,9")
                .contains("9 legs: a move has at most 8 (R113)")
        );
        assert!(e("move T1 1,1 face").contains("face"));
        assert!(e("shoot G1 C4 B").contains("not a weapon"));
        assert!(e("shoot K1 T1+1 T2").contains("not a part of a split shot"));
        assert!(e("shoot K1 T1+1 T2+1 T3+1 T4+1").contains("at most 3 parts (R141)"));
        assert!(e("land").contains("missing"));
        assert!(e("grenade T1 C1 C2").contains("more than"));
        assert!(e("move T1 40000,0").contains("not a point"));
        assert!(e("move T1 RH.0").contains("not a space"));
        assert!(e("move T1 rh.1").contains("not a space"));
        assert!(e("discard aim ace").contains("\"ace\" is not a card"));
        assert!(
            e("discard aim aim aim aim aim aim aim aim aim").contains("cards at most (R105, R152)")
        );
        assert!(e("orders T1:0").contains("not a marker placed"));
        assert!(e("orders T1:11").contains("not a marker placed"));
        assert!(e("orders O1.B:1").contains("not a marker placed"));
        assert!(e("name T1 run").contains("not an action"));
        assert!(e("pass T1 T2").contains("more than"));
        assert!(e("card ace T1").contains("not a card"));
        assert!(e("card aim").contains("the unit it names is missing"));
        assert!(e("card reinforce T1").contains("more than"));
    }
}
