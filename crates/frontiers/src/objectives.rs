//! Objectives and the diskette (R147, R148): Attack/Defense's objectives,
//! held when the attacker ends a turn with units over every objective's
//! centre; Data recovery's diskette, picked up by infantry whose path
//! touches it, tossed to friendly infantry in sight within 3 LNS (a
//! Shoot that always arrives), dropped where its carrier falls, and won
//! by a turn ended carrying it on the teleprinter's space.

use sandtable_core::game::{Ending, Seat};

use crate::command::Tag;
use crate::crates::{DISC_MM, Diskette};
use crate::event::{CommandError, Event, refuse};
use crate::game::Game;
use crate::geometry::{EPS, Footprint, Pt, gap};
use crate::setup::Victory;

impl Game {
    /// The diskette, in a data recovery.
    pub fn diskette(&self) -> Option<Diskette> {
        self.diskette
    }

    /// Whether the attacker's units stand over every objective's centre
    /// (R148).
    pub fn objectives_held(&self) -> bool {
        let attacker = self.setup().attacker;
        !self.setup().objectives.is_empty()
            && self.setup().objectives.iter().all(|o| {
                let centre = Footprint::disc(*o, 0).shape();
                self.units.iter().any(|u| {
                    u.alive
                        && u.side == attacker
                        && u.aboard.is_none()
                        && u.inside.is_none()
                        && gap(&u.shape(), &centre) <= 0.0
                })
            })
    }

    /// A victory at a turn's end: an attack holding every objective, a
    /// diskette carried onto the teleprinter's space (R147, R148).
    pub(crate) fn turn_end_victory(&self) -> Option<Ending> {
        match self.setup().victory {
            Victory::AttackDefense if self.objectives_held() => {
                Some(Ending::Won(Seat(u16::from(self.setup().attacker))))
            }
            Victory::DataRecovery => {
                let d = self.diskette?;
                let u = &self.units[usize::from(d.carrier?)];
                (u.alive && u.inside == self.setup().teleprinter)
                    .then(|| Ending::Won(Seat(u16::from(u.side))))
            }
            _ => None,
        }
    }

    /// Infantry picks the diskette up as its path, `path`'s points in
    /// order, touches it (R147).
    pub(crate) fn pick_diskette(&mut self, i: usize, path: &[Pt], events: &mut Vec<Event>) {
        let Some(d) = self.diskette else { return };
        let u = &self.units[i];
        if d.carrier.is_some() || u.vehicle() || !u.alive || u.aboard.is_some() {
            return;
        }
        let reach = f64::from(u.data.base.size_mm().0) / 2.0
            + f64::from(DISC_MM) / 2.0
            + f64::from(self.setup().switches.contact_mm);
        let c = d.at.v();
        let touched = path
            .windows(2)
            .any(|w| crate::geometry::point_segment(c, w[0].v(), w[1].v()) <= reach + EPS);
        if touched {
            self.diskette = Some(Diskette {
                at: d.at,
                carrier: Some(i as u8),
            });
            events.push(Event::DisketteTaken { unit: i });
        }
    }

    /// The diskette drops where its carrier fell (R147).
    pub(crate) fn drop_diskette(&mut self, i: usize, events: &mut Vec<Event>) {
        if let Some(d) = self.diskette
            && d.carrier == Some(i as u8)
        {
            self.diskette = Some(Diskette {
                at: self.units[i].at,
                carrier: None,
            });
            events.push(Event::DisketteDropped { unit: i });
        }
    }

    /// Checks a toss: the carrier's diskette to friendly infantry in sight
    /// within 3 LNS (R147).
    pub(crate) fn check_toss(&self, i: usize, to: Tag) -> Result<usize, CommandError> {
        let u = &self.units[i];
        if self.diskette.and_then(|d| d.carrier) != Some(i as u8) {
            return refuse(147, format!("{} carries no diskette", u.tag));
        }
        let Some(t) = self.find(to) else {
            return refuse(101, format!("no unit is {to}"));
        };
        let v = &self.units[t];
        if t == i || !v.alive || v.side != u.side || v.vehicle() || v.aboard.is_some() {
            return refuse(147, format!("{to} is no friendly infantry to catch it"));
        }
        let reach = 3.0 * f64::from(self.setup().switches.lns_mm);
        let d = gap(&u.shape(), &v.shape());
        if d > reach + EPS {
            return refuse(
                147,
                format!(
                    "{to} is {d:.1} mm from {}: a toss reaches {reach:.0} mm (3 LNS)",
                    u.tag
                ),
            );
        }
        if self.aim(i, t, 0, false).is_none() {
            return refuse(147, format!("{} has no line of sight to {to}", u.tag));
        }
        Ok(t)
    }

    /// A toss: it always arrives (R147).
    pub(crate) fn toss(
        &mut self,
        i: usize,
        to: Tag,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let t = self.check_toss(i, to)?;
        if let Some(d) = self.diskette {
            self.diskette = Some(Diskette {
                at: d.at,
                carrier: Some(t as u8),
            });
        }
        events.push(Event::Tossed { from: i, to: t });
        Ok(())
    }
}
