//! Units' abilities (R135-R139): a Special checked (shield, tripod,
//! explosives, the Reserve action), and the care of a medic or a mechanic
//! (R139): its move, its patient, a step undone, a marker taken off, a
//! unit returned and where it stands.

use crate::command::{Legs, Special, Tag};
use crate::data::{Ability, Back, Location};
use crate::event::{CommandError, Event, refuse};
use crate::game::{Care, Game};
use crate::geometry::{EPS, Pt, gap, overlaps};
use crate::setup::{footprint, on_table};

impl Game {
    /// Checks a medic's or a mechanic's Special (R139): the move first,
    /// then the patient in contact where it ends, and what is done.
    pub(crate) fn check_care(
        &self,
        i: usize,
        patient: Tag,
        location: Option<Option<Location>>,
        legs: &Legs,
        ability: Ability,
    ) -> Result<Care, CommandError> {
        self.check_care_by(i, patient, location, legs, ability, false)
    }

    /// A care checked, given by the unit's ability or, `by_card`, by a
    /// field repair card that makes any unit a mechanic for its action
    /// (R152).
    pub(crate) fn check_care_by(
        &self,
        i: usize,
        patient: Tag,
        location: Option<Option<Location>>,
        legs: &Legs,
        ability: Ability,
        by_card: bool,
    ) -> Result<Care, CommandError> {
        let u = &self.units[i];
        let (who, what) = match ability {
            Ability::Medic => ("medic", "heal"),
            _ => ("mechanic", "repair"),
        };
        if !by_card && !u.data.has(ability) {
            return refuse(139, format!("{} is no {who}: it does not {what}", u.tag));
        }
        let Some(p) = self.find(patient) else {
            return refuse(101, format!("no unit is {patient}"));
        };
        let pat = &self.units[p];
        if p == i || pat.side != u.side {
            return refuse(139, format!("{patient} is not a friend of {}'s", u.tag));
        }
        if pat.aboard.is_some() {
            return refuse(
                139,
                format!("{patient} is aboard a transport: it leaves to be cared for"),
            );
        }
        let (_, place) = self.check_move(i, legs, None)?;
        let mut moved = self.clone();
        moved.set_place(i, place);
        let contact = if pat.alive {
            moved.touching(i, p)
        } else {
            // Where it fell (R102): outdoors within contact; indoors its
            // space or a space linked to it.
            match (pat.inside, moved.units[i].inside) {
                (None, None) => {
                    gap(&moved.units[i].shape(), &pat.shape())
                        <= f64::from(self.table.setup.switches.contact_mm) + EPS
                }
                (Some((e, k)), Some((e2, j))) => {
                    e == e2 && (j == k || self.linked(usize::from(e), j, k))
                }
                _ => false,
            }
        };
        if !contact {
            return refuse(
                139,
                format!(
                    "{} does not end in contact with {patient}{}",
                    u.tag,
                    if pat.alive { "" } else { " where it fell" }
                ),
            );
        }
        let this_turn = |t: u32| t == self.turn;
        let care = match (ability, location, pat.vehicle(), pat.alive) {
            (Ability::Medic, _, false, true) => {
                if pat.damaged() && this_turn(pat.hurt) {
                    Care::Undo(p)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} took no step this turn: a medic undoes one of this turn"
                        ),
                    );
                }
            }
            (Ability::Medic, _, true, true) => {
                if pat.hits & Location::Equipment.bit() != 0 {
                    Care::Mark(p, Location::Equipment)
                } else {
                    return refuse(
                        139,
                        format!("{patient} has no E marker for a medic to take off"),
                    );
                }
            }
            (Ability::Medic, _, false, false) => {
                let (turn, double) = pat.fell.unwrap_or((0, true));
                let starred = pat.data.has(Ability::Starred) && !double;
                if this_turn(turn) || starred {
                    Care::Return(p)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} was destroyed in turn {turn}: a medic returns a unit destroyed this turn{}",
                            if pat.data.has(Ability::Starred) {
                                ", a starred one from any turn unless by a double"
                            } else {
                                ""
                            }
                        ),
                    );
                }
            }
            (Ability::Medic, _, true, false) => {
                return refuse(
                    139,
                    format!("{patient} is a destroyed vehicle: a mechanic's"),
                );
            }
            (_, _, false, _) => {
                return refuse(
                    139,
                    format!("{patient} is no vehicle: a mechanic repairs vehicles"),
                );
            }
            (_, Some(Some(Location::Equipment)), true, _) => {
                return refuse(
                    139,
                    "an E marker is a medic's to take off, not a mechanic's",
                );
            }
            (_, Some(Some(loc)), true, true) => {
                if pat.hits & loc.bit() != 0 {
                    Care::Mark(p, loc)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} has no {} marker",
                            crate::command::location_word(loc)
                        ),
                    );
                }
            }
            (_, _, true, true) => {
                return refuse(
                    139,
                    format!("name the marker to take off {patient}: A, A2, C or L"),
                );
            }
            (_, Some(Some(loc)), true, false) => {
                return refuse(
                    139,
                    format!(
                        "{patient} is destroyed: a mechanic returns it, naming no marker (not {})",
                        crate::command::location_word(loc)
                    ),
                );
            }
            (_, _, true, false) => {
                if pat.fell.is_some_and(|(t, _)| this_turn(t)) {
                    Care::Return(p)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} was not destroyed this turn: a mechanic returns one that was"
                        ),
                    );
                }
            }
        };
        if let Care::Return(p) = care
            && moved.return_spot(i, p).is_none()
        {
            return refuse(
                139,
                format!(
                    "no free spot is left for {patient} where it fell or in contact with {}",
                    u.tag
                ),
            );
        }
        Ok(care)
    }

    /// Moves the carer along `legs` and does `care` (R139).
    pub(crate) fn give_care(
        &mut self,
        i: usize,
        legs: &Legs,
        care: Care,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if !legs.is_empty() {
            self.move_unit(i, legs, None, events)?;
        }
        match care {
            Care::Undo(p) => {
                self.units[p].back = false;
                self.units[p].hurt = 0;
                events.push(Event::Cared {
                    carer: i,
                    patient: p,
                    done: "its step of this turn undone, front side up",
                });
            }
            Care::Mark(p, loc) => {
                self.units[p].hits &= !loc.bit();
                events.push(Event::Cared {
                    carer: i,
                    patient: p,
                    done: match loc {
                        Location::Equipment => "its E marker taken off",
                        Location::Locomotion => "its L marker taken off",
                        Location::Carried => "its C marker taken off",
                        Location::Weapon(_) => "its weapon's marker taken off",
                    },
                });
            }
            Care::Return(p) => {
                let spot = self.return_spot(i, p).expect("checked");
                let u = &mut self.units[p];
                u.alive = true;
                u.carcass = false;
                u.at = spot;
                // Returned on its damaged side; a one-step unit on its front.
                u.back = u.data.back() == Back::Damaged;
                u.readied = 0;
                u.fell = None;
                let (side, ap) = (u.side, u.data.ap);
                let ap_side = usize::from(1 - side);
                self.ap[ap_side] = self.ap[ap_side].saturating_sub(ap);
                events.push(Event::Cared {
                    carer: i,
                    patient: p,
                    done: "returned to the table (R145: its AP no longer destroyed)",
                });
            }
        }
        Ok(())
    }

    /// Where a returned unit stands (R139): where it fell, else the free
    /// spot in contact with its carer nearest there.
    fn return_spot(&self, carer: usize, p: usize) -> Option<Pt> {
        let fell = self.units[p].at;
        let free = |at: Pt| {
            let u = &self.units[p];
            let base = footprint(u.data, at, u.facing).shape();
            on_table(&base, self.table.setup.table)
                && !self.units.iter().enumerate().any(|(k, o)| {
                    k != p
                        && o.alive
                        && o.inside.is_none()
                        && o.aboard.is_none()
                        && overlaps(&base, &o.shape())
                })
                && !self
                    .table
                    .elements
                    .iter()
                    .enumerate()
                    .any(|(k, e)| self.elements[k] > 0 && overlaps(&base, e))
        };
        if let Some((e, k)) = self.units[p].inside {
            // Indoors: its space, if nobody stands there now.
            return self.occupant(e, k, p).is_none().then_some(fell);
        }
        if free(fell) {
            return Some(fell);
        }
        let c = self.units[carer].at;
        let reach = (f64::from(self.units[p].data.base.size_mm().0)
            + f64::from(self.units[carer].data.base.size_mm().0))
            / 2.0
            + 1.0;
        (0..36)
            .map(|k| {
                let a = f64::from(k) * 10.0_f64.to_radians();
                Pt::new(
                    c.x + (reach * a.cos()).round() as i32,
                    c.y + (reach * a.sin()).round() as i32,
                )
            })
            .filter(|at| free(*at))
            .min_by_key(|at| i64::from(at.x - fell.x).pow(2) + i64::from(at.y - fell.y).pow(2))
    }

    pub(crate) fn check_special(&self, i: usize, what: Special) -> Result<(), CommandError> {
        let u = &self.units[i];
        match what {
            Special::Shield => {
                if !u.data.has(Ability::EnergyShield(0)) {
                    return refuse(135, format!("{} has no energy shield", u.tag));
                }
                if u.shield_up() {
                    return refuse(135, format!("{}'s shield is up already", u.tag));
                }
            }
            Special::Tripod => {
                if !u.data.has(Ability::Tripod) {
                    return refuse(136, format!("{} has no tripod", u.tag));
                }
                if u.tripod_set() {
                    return refuse(136, format!("{}'s tripod is set already", u.tag));
                }
            }
            Special::Reserve => {
                if !u.data.has(Ability::ReserveAction) {
                    return refuse(137, format!("{} has no Reserve action", u.tag));
                }
                if u.readied > 0 {
                    return refuse(137, format!("{}'s Reserve action is set already", u.tag));
                }
            }
            Special::Explosives => {
                if !matches!(u.gear, Some((_, crate::crates::Content::Explosives))) {
                    return refuse(144, format!("{} carries no explosives", u.tag));
                }
                if self.element_in_contact(i).is_none() {
                    return refuse(
                        144,
                        format!("{} touches no standing building element", u.tag),
                    );
                }
            }
        }
        Ok(())
    }
}
