//! What covers an area of the table (R126-R131): a cloud laid and the
//! room for it, a template's hits on units and elements. The clouds'
//! and templates' geometry is [`crate::smoke`]'s and
//! [`crate::templates`]'.

use crate::data::Ability;
use crate::event::{CommandError, Event, Struck, refuse};
use crate::game::{GRENADE_LNS, Game, X_STANDING};
use crate::geometry::{EPS, Footprint, Pt, gap};
use crate::smoke::CLOUDS_EACH;
use crate::templates::template_hits;

impl Game {
    /// Whether `side` may lay a cloud at `at`: on the table, and fewer
    /// than 2 of its clouds down (R130).
    pub(crate) fn check_cloud_room(&self, side: u8, at: Pt) -> Result<(), CommandError> {
        let down = self
            .clouds
            .iter()
            .filter(|c| c.owner == u16::from(side) && c.penalty(self.turn).is_some())
            .count();
        if down >= CLOUDS_EACH {
            return refuse(130, "both of the side's clouds are down");
        }
        let (w, d) = self.table.setup.table;
        if at.x < 0 || at.y < 0 || at.x > i32::from(w) || at.y > i32::from(d) {
            return refuse(130, format!("{at} is off the table"));
        }
        Ok(())
    }

    /// Checks a cloud of unit `i` at `at` (R130, R138).
    pub fn check_smoke(&self, i: usize, at: Pt) -> Result<(), CommandError> {
        let s = &self.units[i];
        if s.inside.is_some() {
            return refuse(
                130,
                format!("{} stands in a building: a cloud is thrown outdoors", s.tag),
            );
        }
        if !s.has_smoke() {
            return refuse(
                138,
                if s.data.has(Ability::SmokeBomb) {
                    format!("{}'s equipment is hit: no smoke (R125)", s.tag)
                } else {
                    format!("{} has no smoke bomb", s.tag)
                },
            );
        }
        self.check_cloud_room(s.side, at)?;
        let reach = if s.vehicle() {
            f64::from(self.table.setup.switches.ruler_mm())
        } else {
            f64::from(GRENADE_LNS) * self.lns()
        };
        let point = Footprint::disc(at, 0).shape();
        let d = gap(&s.shape(), &point);
        if d > reach + EPS {
            return refuse(
                130,
                format!(
                    "{at} is {d:.1} mm from {}: smoke reaches {reach:.0} mm ({})",
                    s.tag,
                    if s.vehicle() { "a ruler" } else { "3 LNS" }
                ),
            );
        }
        if !self.point_seen(i, at) {
            return refuse(130, format!("{} has no line of sight to {at}", s.tag));
        }
        Ok(())
    }

    /// A template of `diameter` mm at `at` from unit `i`'s weapon `w` (or
    /// a grenade's `fixed` bonus): every unit and element it overlaps or
    /// touches takes an attack at its type, no modifiers, nearest the
    /// centre first (R126).
    pub(crate) fn template(
        &mut self,
        i: usize,
        w: usize,
        fixed: Option<i8>,
        at: Pt,
        diameter: u16,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        events.push(Event::Template { at, diameter });
        for struck in self.template_targets(at, diameter) {
            match struck {
                Struck::Unit(t) => {
                    if !self.units[t].alive {
                        continue;
                    }
                    let bonus = match fixed {
                        Some(b) => Some(b),
                        None => self.units[i].bonus(w, self.units[t].armor()),
                    };
                    if let Some(bonus) = bonus {
                        // A card's modifier reaches every roll of the shot
                        // (R152); the template's own are none (R126).
                        self.attack_at(t, bonus, self.flow.card_mod(i), events)?;
                    }
                }
                Struck::Element(k) => {
                    let bonus = match fixed {
                        Some(b) => Some(b),
                        None => self.units[i].bonus(w, 2),
                    };
                    if let Some(bonus) = bonus {
                        self.attack_element(k, bonus, events)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// What a template of `diameter` mm at `at` overlaps or touches, nearest
    /// its centre first (R126): standing units, then elements not ruined.
    pub fn template_targets(&self, at: Pt, diameter: u16) -> Vec<Struck> {
        let mut who: Vec<Struck> = Vec::new();
        let mut shapes = Vec::new();
        // Units inside an element are not hit (R126).
        for (k, u) in self.units.iter().enumerate() {
            if u.alive && u.inside.is_none() && u.aboard.is_none() {
                who.push(Struck::Unit(k));
                shapes.push(u.shape());
            }
        }
        // An element with an X has no defense to attack (R119).
        for (k, e) in self.table.elements.iter().enumerate() {
            if self.elements[k] > 0 && self.elements[k] != X_STANDING {
                who.push(Struck::Element(k));
                shapes.push(e.clone());
            }
        }
        template_hits(at, diameter, &shapes)
            .into_iter()
            .map(|h| who[h])
            .collect()
    }
}
