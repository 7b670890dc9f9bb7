//! An event in words, for the log and the CLI: what each event did, where
//! and with what, naming the rulings it follows; and an attack's outcome
//! and a vehicle's location in words.

use sandtable_core::game::Ending;

use crate::data::Location;
use crate::event::{Event, Struck};
use crate::game::{Game, weapon_name};
use crate::templates::SMALL_MM;
use crate::turn::card_ids;

impl Game {
    /// An event in words.
    pub fn words(&self, event: &Event) -> String {
        let tag = |i: &usize| self.units[*i].tag;
        let struck = |s: &Struck| match s {
            Struck::Unit(t) => self.units[*t].tag.to_string(),
            Struck::Element(k) => self.setup().elements[*k].name.clone(),
        };
        match event {
            Event::Moved {
                unit,
                from,
                to,
                length,
                into: Some((e, k)),
                ..
            } => format!(
                "{} moves {length:.1} mm from {from} into {}, at {to} (R113, R117)",
                tag(unit),
                self.space_name(*e, *k)
            ),
            Event::ThroughWindow {
                unit,
                element,
                window,
            } => format!(
                "{} throws a grenade through {}.w{window}, no template (R127)",
                tag(unit),
                self.element_tag(*element)
            ),
            Event::Deployed { unit, at } => format!(
                "{} is set down at {at} along its transport's path (R140)",
                tag(unit)
            ),
            Event::Pushed { unit, to } => format!(
                "{} is pushed off its light structure to {to} (R115)",
                tag(unit)
            ),
            Event::Boarded { unit, vehicle } => {
                format!("{} boards {} (R140)", tag(unit), tag(vehicle))
            }
            Event::Unloaded { unit, at } => format!(
                "{} is set down at {at} by its destroyed transport (R125)",
                tag(unit)
            ),
            Event::PickOwed { vehicle } => format!(
                "{}'s C location is hit: its owner picks the unit aboard that takes a step (R125)",
                tag(vehicle)
            ),
            Event::Cared {
                carer,
                patient,
                done,
            } => format!("{} cares for {}: {done} (R139)", tag(carer), tag(patient)),
            Event::Outdoors { unit } => format!(
                "{} stands outdoors in the ruin, where it was (R119)",
                tag(unit)
            ),
            Event::Moved {
                unit,
                from,
                to,
                facing,
                length,
                into: None,
            } => {
                let u = &self.units[*unit];
                if from == to && u.data.base == crate::data::Base::Oval {
                    format!("{} stays at {to}, facing {facing}", tag(unit))
                } else if from == to {
                    format!("{} stays at {to}", tag(unit))
                } else {
                    let oval = self.units[*unit].data.base == crate::data::Base::Oval;
                    format!(
                        "{} moves {length:.1} mm from {from} to {to}{} (R113)",
                        tag(unit),
                        if oval {
                            format!(", facing {facing}")
                        } else {
                            String::new()
                        }
                    )
                }
            }
            Event::Sighted {
                shooter,
                target,
                to,
                modifiers,
            } => {
                let mods = if modifiers.is_empty() {
                    "no modifier".to_owned()
                } else {
                    modifiers
                        .iter()
                        .map(|(w, m)| format!("{m:+}: {w}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let sniper = self.units[*shooter].data.weapons.is_empty();
                if sniper {
                    format!(
                        "{} sees {} at {to}, no unit blocking a sniper (R120, R121, R142)",
                        tag(shooter),
                        tag(target)
                    )
                } else {
                    format!(
                        "{} sees {} at {to} (R120, R121): {mods}",
                        tag(shooter),
                        tag(target)
                    )
                }
            }
            Event::Attacked {
                struck: s,
                roll,
                bonus,
                modifiers,
                defense,
                outcome,
            } => format!(
                "attack on {}: {roll} {bonus:+} {modifiers:+} = {} against {defense}: {} (R123)",
                struck(s),
                i16::from(*roll) + i16::from(*bonus) + i16::from(*modifiers),
                outcome_words(*outcome)
            ),
            Event::Sniped {
                target,
                roll,
                need,
                penalties,
                outcome,
            } => format!(
                "sniper's shot at {}: {roll}, needing {need} ({}+ and {penalties} for the seed's penalties): {} (R142)",
                tag(target),
                need - penalties,
                outcome_words(*outcome)
            ),
            Event::Damaged { unit } => format!("{} turns to its damaged side (R124)", tag(unit)),
            Event::LocationHit {
                unit,
                roll,
                location,
                again,
            } => format!(
                "{}'s location roll {roll}: {}{} (R125)",
                tag(unit),
                location_words(self.units[*unit].data, *location),
                if *again { ", hit again: destroyed" } else { "" }
            ),
            Event::Destroyed { unit, carcass } => format!(
                "{} is destroyed{} (R124, R145)",
                tag(unit),
                if *carcass {
                    ", its carcass a light structure (R125)"
                } else {
                    ""
                }
            ),
            Event::ElementStep { element, left } => format!(
                "{} takes a step, {left} left (R119)",
                self.setup().elements[*element].name
            ),
            Event::Ruined { element } => format!(
                "{} is a ruin, a light structure (R119)",
                self.setup().elements[*element].name
            ),
            Event::Template { at, diameter } => format!(
                "a {} template at {at} (R126)",
                if *diameter == SMALL_MM {
                    "small"
                } else {
                    "large"
                }
            ),
            Event::Scattered {
                aim,
                direction,
                distance,
                at,
            } => format!(
                "the drop aimed at {aim} scatters: direction {direction}, distance {distance}, landing at {at} (R129)"
            ),
            Event::AwaitingDrop { aim } => {
                format!("the drop aimed at {aim}: where did the template fall? (R129)")
            }
            Event::Smoked { unit, at } => format!("{} throws a cloud at {at} (R130)", tag(unit)),
            Event::Flipped { unit, why, .. } => format!("{} {why}", tag(unit)),
            Event::TurnBegan { turn } => format!("turn {turn} begins"),
            Event::Prepared {
                side,
                discarded,
                drew,
            } => self.prepared_words(*side, discarded, Some(drew), drew.len()),
            Event::OrdersSealed { side } => format!(
                "{} places its markers face down (R107)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::MarkersLie { side, places } => {
                let at: Vec<String> = places
                    .iter()
                    .map(|(i, slot)| match slot {
                        crate::army::Slot::Unit => tag(i).to_string(),
                        crate::army::Slot::Locomotion => format!("{}.L", tag(i)),
                        crate::army::Slot::Weapon(w) => format!("{}.A{}", tag(i), w + 1),
                    })
                    .collect();
                format!(
                    "{}'s markers lie on {} (R107)",
                    self.setup().sides[usize::from(*side)].name,
                    if at.is_empty() {
                        "nothing".to_owned()
                    } else {
                        at.join(", ")
                    }
                )
            }
            Event::MarkerUp { unit, slot, n } => format!(
                "step {n}: marker {n} turns up on {}{} (R108)",
                tag(unit),
                match slot {
                    crate::army::Slot::Unit => String::new(),
                    crate::army::Slot::Locomotion => " on L".to_owned(),
                    crate::army::Slot::Weapon(w) => format!(" on A{}", w + 1),
                }
            ),
            Event::Coin { roll, side, why } => format!(
                "a coin rolls {roll}: {} {why} (R110, R112)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::Named { unit, kind } => {
                format!(
                    "{} names {} for {} (R110)",
                    self.setup().sides[usize::from(self.units[*unit].side)].name,
                    kind.word(),
                    tag(unit)
                )
            }
            Event::ShotSealed { side } => format!(
                "{} names its shot, sealed until both are named (R111)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::LetGo { unit } => format!("{} lets its action go (R111, R112)", tag(unit)),
            Event::Passed { side } => format!(
                "{} passes (R132)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::CardPlayed { side, card, unit } => format!(
                "{} plays {}{} (R132)",
                self.setup().sides[usize::from(*side)].name,
                crate::cards::card_id(*card),
                unit.map_or(String::new(), |i| format!(" on {}", tag(&i)))
            ),
            Event::Resupplied { side, drew } => format!(
                "{} draws {} (R152)",
                self.setup().sides[usize::from(*side)].name,
                if drew.is_empty() {
                    "nothing".to_owned()
                } else {
                    card_ids(drew).join(", ")
                }
            ),
            Event::Covered { unit } => format!("{}'s step is cancelled (R152)", tag(unit)),
            Event::CrateOpened {
                unit,
                crate_k,
                content,
            } => match content {
                crate::crates::Content::Trap => format!(
                    "{} opens crate {}: a trap, which leaves (R144)",
                    tag(unit),
                    crate_k + 1
                ),
                c => format!(
                    "{} takes crate {}: {} (R143, R144)",
                    tag(unit),
                    crate_k + 1,
                    c.name()
                ),
            },
            Event::HandedOver { from, to } => format!(
                "{} hands its crate to {}: neither shoots this turn (R144)",
                tag(from),
                tag(to)
            ),
            Event::CrateSpent { unit, content } => {
                format!(
                    "{} uses its {}, which is gone (R144)",
                    tag(unit),
                    content.name()
                )
            }
            Event::CrateShown {
                unit,
                crate_k,
                content,
            } => format!(
                "{}'s allotted crate {} shows: {} (R143)",
                tag(unit),
                crate_k + 1,
                content.name()
            ),
            Event::CrateDropped { unit, crate_k } => format!(
                "crate {} falls with {} and lies there (R143)",
                crate_k + 1,
                tag(unit)
            ),
            Event::DisketteTaken { unit } => format!("{} picks the diskette up (R147)", tag(unit)),
            Event::Tossed { from, to } => format!(
                "{} tosses the diskette to {}: it arrives (R147)",
                tag(from),
                tag(to)
            ),
            Event::DisketteDropped { unit } => {
                format!(
                    "the diskette falls with {} and lies there (R147)",
                    tag(unit)
                )
            }
            Event::Banked { unit } => format!(
                "{} banks its crate for {} (R148)",
                tag(unit),
                self.setup().sides[usize::from(self.units[*unit].side)].name
            ),
            Event::Withheld { unit } => format!(
                "{} has no room to deploy and stays off the table (R146)",
                tag(unit)
            ),
            Event::Placed { unit, at } => match self.units[*unit].inside {
                Some((e, k)) => format!(
                    "{} is deployed in {} (R138)",
                    tag(unit),
                    self.space_name(e, k)
                ),
                None => format!("{} is deployed at {at} (R146)", tag(unit)),
            },
            Event::DecoysGone { side, units } => format!(
                "the Reserve: {}'s decoys on {} are removed (R112)",
                self.setup().sides[usize::from(*side)].name,
                units
                    .iter()
                    .map(|i| tag(i).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::Ended { ending, ap } => {
                let names = &self.setup().sides;
                let score = crate::text::destroyed_words([&names[0].name, &names[1].name], *ap);
                match ending {
                    Ending::Won(s) => {
                        format!("{} wins (R145); {score}", names[s.index()].name)
                    }
                    Ending::Draw(why) => format!("a draw: {why}; {score}"),
                }
            }
        }
    }
}

pub(crate) fn outcome_words(o: crate::attack::Outcome) -> &'static str {
    match o {
        crate::attack::Outcome::Miss => "missed",
        crate::attack::Outcome::Step => "a step",
        crate::attack::Outcome::Double => "a double",
    }
}

pub(crate) fn location_words(data: &crate::data::UnitData, loc: Location) -> String {
    match loc {
        Location::Weapon(w) => format!("weapon {}", weapon_name(data, usize::from(w))),
        Location::Carried => "a carried unit (none)".into(),
        Location::Locomotion => "locomotion, Movement 0".into(),
        Location::Equipment => "equipment and crew, no smoke".into(),
    }
}
