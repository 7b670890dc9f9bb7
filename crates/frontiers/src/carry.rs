//! What changes a crate's state (R143, R144, R148): a crate opened by a
//! Move ending in contact, carried, handed over, used, lost with its
//! carrier and banked at the own edge. The crates themselves, their
//! contents and their deal are plain data below ([`crate::crates`]).

use crate::command::{Command, Legs, Tag};
use crate::crates::{CRATE_MM, Content, Crate, CrateState};
use crate::event::{CommandError, Event};
use crate::game::Game;
use crate::geometry::{EPS, Footprint, gap};

fn refuse<T>(ruling: u16, reason: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError {
        ruling,
        reason: reason.into(),
    })
}

impl Game {
    /// The crates.
    pub fn crates(&self) -> &[Crate] {
        &self.crates
    }

    /// Crates each side has banked (R148).
    pub fn banked(&self) -> [u8; 2] {
        self.banked
    }

    /// The lying crate unit `i` would touch standing at `at`: the nearest
    /// within contact (R102, R143).
    fn crate_touched(&self, i: usize, at: crate::geometry::Pt) -> Option<usize> {
        let u = &self.units[i];
        let shape = crate::setup::footprint(u.data, at, u.facing).shape();
        let contact = f64::from(self.setup().switches.contact_mm);
        self.crates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.state == CrateState::Lying)
            .map(|(k, c)| (k, gap(&shape, &Footprint::disc(c.at, CRATE_MM).shape())))
            .filter(|(_, d)| *d <= contact + EPS)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(k, _)| k)
    }

    /// Checks an `open`: infantry carrying nothing, its move ending in
    /// contact with a lying crate (R143). The crate, and the move's end.
    pub(crate) fn check_open(&self, i: usize, legs: &Legs) -> Result<usize, CommandError> {
        let u = &self.units[i];
        if u.vehicle() {
            return refuse(
                143,
                format!("{} is a vehicle: only infantry opens a crate", u.tag),
            );
        }
        if u.aboard.is_some() || u.inside.is_some() {
            return refuse(143, format!("{} opens a crate outdoors, on foot", u.tag));
        }
        if let Some((k, _)) = u.gear {
            return refuse(
                148,
                format!("{} carries crate {} already: one a carrier", u.tag, k + 1),
            );
        }
        let (_, place) = self.check_move(i, legs, None)?;
        let end = match place {
            crate::building::Place::Out(p) => p,
            _ => return refuse(143, "a crate is opened outdoors"),
        };
        self.crate_touched(i, end).map_or_else(
            || refuse(143, format!("{} ends its move touching no crate", u.tag)),
            Ok,
        )
    }

    /// An `open` resolved: the move, then the crate opened (its content
    /// drawn by the dice from those not yet seen, which is the shuffle of
    /// R143 dealt as it is met) or, opened already, picked up. A trap
    /// attacks its opener at +0 and leaves (R144).
    pub(crate) fn open_crate(
        &mut self,
        i: usize,
        legs: &Legs,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let k = self.check_open(i, legs)?;
        self.move_unit(i, legs, None, events)?;
        let content = match self.crates[k].content {
            Some(c) => c,
            None => {
                let seen: Vec<Content> = self.crates.iter().filter_map(|c| c.content).collect();
                let left: Vec<Content> = Content::ALL
                    .iter()
                    .copied()
                    .filter(|c| !seen.contains(c))
                    .collect();
                let n = self.dice.draw(left.len()).map_err(|out| CommandError {
                    ruling: 30,
                    reason: out.reason(),
                })?;
                let c = left[n];
                self.crates[k].content = Some(c);
                c
            }
        };
        events.push(Event::CrateOpened {
            unit: i,
            crate_k: k as u8,
            content,
        });
        if content == Content::Trap {
            self.crates[k].state = CrateState::Gone;
            return self.attack_at(i, 0, 0, events);
        }
        self.crates[k].state = CrateState::Carried(i as u8);
        self.units[i].gear = Some((k as u8, content));
        Ok(())
    }

    /// Checks a handing over: the carrier's crate to friendly infantry in
    /// contact carrying none (R144).
    pub(crate) fn check_hand(&self, i: usize, to: Tag) -> Result<usize, CommandError> {
        let u = &self.units[i];
        if u.gear.is_none() {
            return refuse(144, format!("{} carries no crate", u.tag));
        }
        let Some(t) = self.find(to) else {
            return refuse(101, format!("no unit is {to}"));
        };
        let v = &self.units[t];
        if t == i || !v.alive || v.side != u.side || v.vehicle() {
            return refuse(144, format!("{to} is no friendly infantry to take it"));
        }
        if v.gear.is_some() {
            return refuse(148, format!("{to} carries a crate already: one a carrier"));
        }
        if !self.touching(i, t) {
            return refuse(144, format!("{to} is not in contact with {}", u.tag));
        }
        Ok(t)
    }

    /// A crate handed over: neither shoots this turn (R144).
    pub(crate) fn hand_over(
        &mut self,
        i: usize,
        to: Tag,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let t = self.check_hand(i, to)?;
        let gear = self.units[i].gear.take();
        if let Some((k, _)) = gear {
            self.crates[usize::from(k)].state = CrateState::Carried(t as u8);
        }
        self.units[t].gear = gear;
        self.units[i].handed = true;
        self.units[t].handed = true;
        events.push(Event::HandedOver { from: i, to: t });
        Ok(())
    }

    /// Unit `i`'s crate shown to both sides, if it was its side's secret
    /// (R143): its carrier used it, or fell with it.
    pub(crate) fn show_gear(&mut self, i: usize, events: &mut Vec<Event>) {
        if let Some((k, content)) = self.units[i].gear {
            let c = &mut self.crates[usize::from(k)];
            if c.secret_of.take().is_some() {
                events.push(Event::CrateShown {
                    unit: i,
                    crate_k: k,
                    content,
                });
            }
        }
    }

    /// A kept crate shows itself as its carrier uses it (R143, R144): a
    /// jump jet on any move, the anti-tank and automatic weapons on an
    /// attack of its own. (Once-only contents show as they are spent.)
    pub(crate) fn show_if_used(&mut self, command: &Command, events: &mut Vec<Event>) {
        use crate::command::Command as C;
        let (unit, moves, attacks) = match *command {
            C::Move { unit, .. }
            | C::Heal { unit, .. }
            | C::Repair { unit, .. }
            | C::Open { unit, .. } => (unit, true, false),
            C::Charge { unit, .. } => (unit, true, true),
            C::Shoot { unit, .. } | C::Rapid { unit, .. } => (unit, false, true),
            _ => return,
        };
        let Some(i) = self.find(unit) else { return };
        let shows = match self.units[i].gear {
            Some((_, Content::JumpJet)) => moves,
            Some((_, Content::AntiTank | Content::AutomaticWeapon)) => attacks,
            _ => false,
        };
        if shows {
            self.show_gear(i, events);
        }
    }

    /// A crate used once is gone (R144).
    pub(crate) fn spend(&mut self, i: usize, k: u8, events: &mut Vec<Event>) {
        self.show_gear(i, events);
        if let Some((_, content)) = self.units[i].gear.take() {
            self.crates[usize::from(k)].state = CrateState::Gone;
            events.push(Event::CrateSpent { unit: i, content });
        }
    }

    /// Spends unit `i`'s crate if its content is `content` and used once.
    pub(crate) fn spend_if(&mut self, i: usize, content: Content, events: &mut Vec<Event>) {
        if let Some((k, c)) = self.units[i].gear
            && c == content
            && !c.kept()
        {
            self.spend(i, k, events);
        }
    }

    /// A fallen carrier's crate lies where it fell, open (R143).
    pub(crate) fn drop_gear(&mut self, i: usize, events: &mut Vec<Event>) {
        self.show_gear(i, events);
        if let Some((k, _)) = self.units[i].gear.take() {
            let c = &mut self.crates[usize::from(k)];
            c.state = CrateState::Lying;
            c.at = self.units[i].at;
            events.push(Event::CrateDropped {
                unit: i,
                crate_k: k,
            });
        }
    }

    /// At a turn's end in a treasure hunt (R148): each carrier within 1
    /// LNS of its own long edge banks its crate.
    pub(crate) fn bank_crates(&mut self, events: &mut Vec<Event>) {
        let lns = f64::from(self.setup().switches.lns_mm);
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let Some((k, _)) = u.gear else { continue };
            if !u.alive {
                continue;
            }
            let shape = u.shape();
            if self.edge_gap(u.side, &shape) <= lns + EPS {
                let side = u.side;
                self.units[i].gear = None;
                self.crates[usize::from(k)].state = CrateState::Banked(side);
                self.banked[usize::from(side)] += 1;
                events.push(Event::Banked { unit: i });
            }
        }
    }

    /// Whether no crate is left to bank: none lies or is carried (R148).
    pub(crate) fn crates_done(&self) -> bool {
        !self
            .crates
            .iter()
            .any(|c| matches!(c.state, CrateState::Lying | CrateState::Carried(_)))
    }
}
