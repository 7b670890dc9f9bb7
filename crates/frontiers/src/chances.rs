//! The odds of a shot from the rules' own numbers (R123-R129, R142):
//! each attack's outcomes over the die's faces with its modifiers, and
//! what a template would hit with each attack's odds.

use sandtable_core::game::{Chance, Odds};

use crate::attack::attack_odds;
use crate::data::{Back, LOCATIONS, Location};
use crate::event::Struck;
use crate::game::Game;
use crate::geometry::Pt;
use crate::setup::TerrainKind;
use crate::words::location_words;

impl Game {
    /// The odds of one attack on a unit or an element, as the rules roll
    /// it (R123-R125), in words.
    pub(crate) fn attack_outcomes(
        &self,
        struck: Struck,
        bonus: i8,
        modifiers: i8,
    ) -> Vec<(String, Chance)> {
        let (defense, crater, name) = match struck {
            Struck::Unit(t) => {
                let u = &self.units[t];
                let crater = !u.vehicle() && self.standing_in_pub(u.at, TerrainKind::Crater);
                (u.defense(), crater, u.tag.to_string())
            }
            Struck::Element(k) => {
                let e = &self.setup().elements[k];
                (e.defense, false, e.name.clone())
            }
        };
        let [miss, step, double] = attack_odds(bonus, modifiers, defense, crater);
        let mut out = vec![(
            format!("{name}: missed"),
            Chance {
                num: u64::from(miss),
                den: 6,
            },
        )];
        match struck {
            Struck::Unit(t) if self.units[t].data.back() == Back::Vehicle => {
                // Each location on the second die (R125).
                let u = &self.units[t];
                let column = usize::from(u.data.location_type.unwrap_or(1).clamp(1, 3) - 1);
                let mut by: Vec<(String, u64)> = Vec::new();
                for row in LOCATIONS {
                    let loc = row[column];
                    let words = if loc == Location::Carried && self.carried(t).is_empty() {
                        format!("{name}: a carried unit's location, none aboard: nothing")
                    } else if loc == Location::Carried && u.hits & loc.bit() == 0 {
                        format!("{name}: a carried unit hit, one aboard takes a step")
                    } else if u.hits & loc.bit() != 0 {
                        format!(
                            "{name}: {} hit again, destroyed",
                            location_words(u.data, loc)
                        )
                    } else {
                        format!("{name}: {} hit", location_words(u.data, loc))
                    };
                    match by.iter_mut().find(|(w, _)| *w == words) {
                        Some(e) => e.1 += 1,
                        None => by.push((words, 1)),
                    }
                }
                for o in &mut out {
                    o.1 = Chance {
                        num: o.1.num * 6,
                        den: 36,
                    };
                }
                for (words, n) in by {
                    out.push((
                        words,
                        Chance {
                            num: u64::from(step) * n,
                            den: 36,
                        },
                    ));
                }
                out.push((
                    format!("{name}: a double, destroyed"),
                    Chance {
                        num: u64::from(double) * 6,
                        den: 36,
                    },
                ));
            }
            Struck::Unit(t) => {
                let u = &self.units[t];
                let step_words = if u.data.back() == Back::Damaged && !u.back {
                    format!("{name}: a step, damaged")
                } else {
                    format!("{name}: a step, destroyed")
                };
                out.push((
                    step_words,
                    Chance {
                        num: u64::from(step),
                        den: 6,
                    },
                ));
                out.push((
                    format!("{name}: a double, destroyed"),
                    Chance {
                        num: u64::from(double),
                        den: 6,
                    },
                ));
            }
            Struck::Element(_) => {
                out.push((
                    format!("{name}: a step"),
                    Chance {
                        num: u64::from(step),
                        den: 6,
                    },
                ));
                out.push((
                    format!("{name}: a double, a ruin"),
                    Chance {
                        num: u64::from(double),
                        den: 6,
                    },
                ));
            }
        }
        out.retain(|o| o.1.num > 0);
        out
    }

    pub(crate) fn standing_in_pub(&self, p: Pt, kind: TerrainKind) -> bool {
        self.setup()
            .terrain
            .iter()
            .any(|t| t.kind == kind && crate::setup::point_in(p, &t.corners))
    }

    /// What a template at `at` would hit, with each attack's odds.
    pub(crate) fn template_odds(
        &self,
        i: usize,
        w: usize,
        fixed: Option<i8>,
        at: Pt,
        diameter: u16,
        out: &mut Vec<Odds>,
    ) {
        for struck in self.template_targets(at, diameter) {
            let (bonus, name) = match struck {
                Struck::Unit(t) => (
                    fixed.or_else(|| self.units[i].bonus(w, self.units[t].armor())),
                    self.units[t].tag.to_string(),
                ),
                Struck::Element(k) => (
                    fixed.or_else(|| self.units[i].bonus(w, 2)),
                    self.setup().elements[k].name.clone(),
                ),
            };
            if let Some(bonus) = bonus {
                out.push(Odds {
                    what: format!("the template's attack on {name} (R126)"),
                    outcomes: self.attack_outcomes(struck, bonus, 0),
                });
            }
        }
    }
}
