//! Cards in their windows (R132, R133, R152): what each of the project's
//! nine cards does, when it may be played, and the windows in which the
//! players alternate single cards until both pass.
//!
//! - A side plays its **Preparation** card (`resupply`: draw 2, then 2
//!   more to the discards) in its own Preparation before its `discard`,
//!   and its **Order** card (`reinforce`: a numbered marker more this
//!   turn) before it places its markers: each touches its own side only.
//! - The **Step** window opens once a step, after both actions are named
//!   and before they resolve (`sprint`: +2 Movement to an own active unit
//!   moving; `rally`: an own unit with no marker gets an over marker and
//!   one action after the step's own). The **Shot** window opens once a
//!   shot's target is named, before its roll (`aim`: +2 to an own
//!   shooter's rolls; `jam`: -2 to an enemy shooter's). In both the first
//!   namer (in the Reserve the first seat) plays or passes first; a side
//!   with no card in hand is passed over (its hand's size is everyone's
//!   to see); the window closes when both have passed in a row.
//! - The **Hit** window opens for an own unit about to take a step whose
//!   side holds cards (`cover`: the step is cancelled; a double is not a
//!   step). Its owner alone plays or passes: no card of the other side's
//!   answers a hit.
//! - The **action** cards are a unit's Card action (`field_repair`: the
//!   unit acts as a mechanic, R139; `smoke_screen`: an own cloud within a
//!   ruler of it, no line of sight needed).
//!
//! A bonus reaches only a unit with a marker turned up, or an over marker,
//! this turn (R133). The faction's cards have no Reserve window, so the
//! Reserve opens none.

use crate::army::Marker;
use crate::command::{Command, Kind, Tag};
use crate::data::{CARDS, Window};
use crate::event::{CommandError, Event};
use crate::flow::{Active, Open, Phase};
use crate::game::Game;
use crate::geometry::{EPS, Footprint, gap};
use crate::smoke::Cloud;
use crate::turn::kind_of;

fn refuse<T>(ruling: u16, reason: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError {
        ruling,
        reason: reason.into(),
    })
}

/// A card's id, by its place in [`CARDS`].
pub fn card_id(card: u8) -> &'static str {
    CARDS.get(usize::from(card)).map_or("?", |c| c.id)
}

impl Game {
    /// Whether `side` takes part in the window open: a side with cards in
    /// hand; in a Hit window, the hit unit's owner alone.
    fn in_window(&self, side: u8, open: &Open) -> bool {
        let holds = !self.flow.cards[usize::from(side)].hand.is_empty();
        match open.kind {
            Window::Hit => holds && open.unit.is_some_and(|u| self.units[u].side == side),
            _ => holds,
        }
    }

    /// Opens a card window, `first` to play or pass first; one nobody
    /// takes part in closes at once.
    pub(crate) fn open_window(
        &mut self,
        kind: Window,
        first: u8,
        unit: Option<usize>,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let mut open = Open {
            kind,
            side: first,
            passes: 0,
            unit,
        };
        if !self.in_window(first, &open) {
            open.side = 1 - first;
            if !self.in_window(open.side, &open) {
                return self.close_window(kind, events);
            }
        }
        self.flow.window = Some(open);
        self.flow.phase = Phase::Window;
        Ok(())
    }

    /// The side to play passed: the turn goes to the other; both passed
    /// in a row (or all that take part), the window closes.
    pub(crate) fn window_passed(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        let mut open = self.flow.window.expect("a window open");
        open.passes += 1;
        self.window_next(open, events)
    }

    /// The window goes on with `open`'s count of passes: to the other
    /// side if it takes part, else to the same; closed once every side
    /// taking part has passed in a row.
    fn window_next(&mut self, mut open: Open, events: &mut Vec<Event>) -> Result<(), CommandError> {
        let taking = (0..2u8).filter(|s| self.in_window(*s, &open)).count() as u8;
        if open.passes >= taking {
            return self.close_window(open.kind, events);
        }
        let other = 1 - open.side;
        if self.in_window(other, &open) {
            open.side = other;
        } else if !self.in_window(open.side, &open) {
            return self.close_window(open.kind, events);
        }
        self.flow.window = Some(open);
        Ok(())
    }

    /// A window closes: the step's actions resolve, the shot rolls, the
    /// step lands.
    fn close_window(&mut self, kind: Window, events: &mut Vec<Event>) -> Result<(), CommandError> {
        self.flow.window = None;
        match kind {
            Window::Step => {
                self.resolution_order();
                Ok(())
            }
            Window::Shot => {
                self.flow.phase = self.resuming();
                self.run_queue(events)
            }
            Window::Hit => {
                self.flow.phase = self.resuming();
                self.land_all(events)
            }
            _ => unreachable!("no window of {kind:?} opens"),
        }
    }

    /// The phase an action resolves in: the Reserve's, or the step's.
    fn resuming(&self) -> Phase {
        if self.flow.step > crate::turn::LAST_STEP {
            Phase::Reserve(self.flow.group.map_or(0, |g| 1 - g.1))
        } else {
            Phase::Act
        }
    }

    /// Whether unit `i` has a marker turned up, or an over marker, this
    /// turn: what a card's bonus reaches (R133).
    fn bonus_reaches(&self, i: usize) -> bool {
        let side = usize::from(self.units[i].side);
        self.flow.over.contains(&i)
            || self.flow.placed[side].iter().any(|p| {
                p.unit == i && matches!(p.marker, Marker::Numbered(n) if n <= self.flow.step)
            })
    }

    /// The unit a card names, standing.
    fn card_unit(&self, unit: Option<Tag>, id: &str) -> Result<usize, CommandError> {
        let Some(tag) = unit else {
            return refuse(132, format!("{id} names a unit"));
        };
        match self.find(tag) {
            Some(i) if self.units[i].alive => Ok(i),
            Some(_) => refuse(124, format!("{tag} is destroyed")),
            None => refuse(101, format!("no unit is {tag}")),
        }
    }

    /// Checks a card of `side`'s: in its hand, played in its window, naming
    /// what it may (R132, R133, R152).
    pub fn check_card(&self, side: u8, command: &Command) -> Result<(), CommandError> {
        let Command::Card {
            card,
            unit,
            patient,
            location,
            at,
            legs,
        } = *command
        else {
            unreachable!("a card")
        };
        let data = &CARDS[usize::from(card)];
        let id = data.id;
        let s = usize::from(side);
        if !self.flow.cards[s].hand.contains(&card) {
            return refuse(132, format!("{} holds no {id}", self.setup().sides[s].name));
        }
        let window = |what: &str| refuse(132, format!("{id} is played {what}"));
        let own = |i: usize| -> Result<(), CommandError> {
            if self.units[i].side != side {
                return refuse(
                    132,
                    format!("{id} names an own unit, not {}", self.units[i].tag),
                );
            }
            Ok(())
        };
        let reaches = |i: usize| -> Result<(), CommandError> {
            if !self.bonus_reaches(i) {
                return refuse(
                    133,
                    format!(
                        "{}'s bonus reaches only a unit with a marker turned up or over this turn",
                        self.units[i].tag
                    ),
                );
            }
            Ok(())
        };
        if let Some(o) = self.flow.window
            && o.side != side
            && matches!(data.window, Window::Step | Window::Shot | Window::Hit)
        {
            return refuse(
                132,
                format!(
                    "it is {}'s card or pass",
                    self.setup().sides[usize::from(o.side)].name
                ),
            );
        }
        let open = self.flow.window.filter(|o| o.side == side);
        match (data.window, self.flow.phase) {
            (Window::Preparation, Phase::Prepare(p)) if p == side => Ok(()),
            (Window::Preparation, _) => {
                window("in its side's own Preparation, before its discards")
            }
            (Window::Order, Phase::Order) if self.flow.sealed[s].is_none() => {
                if self.markers_owed(side) >= crate::army::MAX_MARKERS {
                    return refuse(
                        106,
                        "the side places 10 numbered markers already: at most 10",
                    );
                }
                Ok(())
            }
            (Window::Order, _) => {
                window("in the Order phase, before the side's markers are placed")
            }
            (w @ (Window::Step | Window::Shot | Window::Hit), _) => {
                let Some(open) = open.filter(|o| o.kind == w) else {
                    return window(match w {
                        Window::Step => "in a step, its actions named, before they resolve",
                        Window::Shot => "once a shot's target is named, before its roll",
                        _ => "as an own unit is about to take a step",
                    });
                };
                let i = self.card_unit(unit, id)?;
                match id {
                    "sprint" => {
                        own(i)?;
                        let moving = self
                            .flow
                            .active
                            .iter()
                            .any(|a| a.unit == i && !a.done && a.kind == Some(Kind::Move));
                        if !moving {
                            return refuse(
                                152,
                                format!("{} is not about to move in this step", self.units[i].tag),
                            );
                        }
                        reaches(i)
                    }
                    "rally" => {
                        own(i)?;
                        let marked = self.flow.placed[s].iter().any(|p| p.unit == i)
                            || self.flow.over.contains(&i);
                        if marked {
                            return refuse(
                                133,
                                format!(
                                    "{} holds a marker: rally activates an unmarked unit",
                                    self.units[i].tag
                                ),
                            );
                        }
                        Ok(())
                    }
                    "aim" | "jam" => {
                        let shooting = self.flow.queue.iter().any(|(_, c)| {
                            kind_of(c) == Some(Kind::Shoot) && c.unit() == Some(self.units[i].tag)
                        });
                        if !shooting {
                            return refuse(
                                152,
                                format!("{} is not the shooter of this shot", self.units[i].tag),
                            );
                        }
                        if id == "aim" {
                            own(i)?;
                            reaches(i)
                        } else if self.units[i].side == side {
                            refuse(
                                152,
                                format!("jam names an enemy shooter, not {}", self.units[i].tag),
                            )
                        } else {
                            Ok(())
                        }
                    }
                    "cover" => {
                        if open.unit != Some(i) {
                            return refuse(
                                152,
                                format!("{} is not the unit taking the step", self.units[i].tag),
                            );
                        }
                        Ok(())
                    }
                    _ => unreachable!("{id} is of the {w:?} window"),
                }
            }
            (Window::Action, Phase::Act) => {
                let a = self.flow.active.iter().find(|a| !a.done).copied();
                let Some(a) = a.filter(|a| a.side == side && a.kind == Some(Kind::Card)) else {
                    return window("as the Card action of the side's active unit");
                };
                let i = self.card_unit(unit, id)?;
                if i != a.unit {
                    return refuse(
                        132,
                        format!(
                            "{}'s Card action is {}'s to play",
                            self.units[a.unit].tag, self.units[a.unit].tag
                        ),
                    );
                }
                match id {
                    "field_repair" => {
                        let Some(patient) = patient else {
                            return refuse(139, "field_repair names the vehicle");
                        };
                        self.check_care_by(
                            i,
                            patient,
                            Some(location),
                            &legs,
                            crate::data::Ability::Mechanic,
                            true,
                        )
                        .map(|_| ())
                    }
                    _ => {
                        let Some(at) = at else {
                            return refuse(130, "smoke_screen names the cloud's point");
                        };
                        self.check_screen(i, at.pt())
                    }
                }
            }
            (Window::Action, _) => window("as the Card action of the side's active unit"),
        }
    }

    /// A smoke screen's cloud (R152): an own cloud within a ruler of the
    /// unit, no line of sight needed, at most 2 of the side's down (R130).
    pub fn check_screen(&self, i: usize, at: crate::geometry::Pt) -> Result<(), CommandError> {
        let u = &self.units[i];
        self.check_cloud_room(u.side, at)?;
        let ruler = f64::from(self.setup().switches.ruler_mm());
        let gap_mm = gap(&u.shape(), &Footprint::disc(at, 0).shape());
        if gap_mm > ruler + EPS {
            return refuse(
                152,
                format!(
                    "{at} is {gap_mm:.1} mm from {}: a smoke screen reaches a ruler, {ruler:.0} mm",
                    u.tag
                ),
            );
        }
        Ok(())
    }

    /// Plays a checked card: out of the hand to the discards, its effect,
    /// and the window goes on.
    pub(crate) fn play_card(
        &mut self,
        side: u8,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Command::Card { card, unit, .. } = *command else {
            unreachable!("a card")
        };
        let s = usize::from(side);
        let id = card_id(card);
        let i = unit.and_then(|t| self.find(t));
        let hand = &mut self.flow.cards[s].hand;
        let k = hand.iter().position(|c| *c == card).expect("checked");
        hand.remove(k);
        self.flow.cards[s].discards.push(card);
        events.push(Event::CardPlayed {
            side,
            card,
            unit: i,
        });
        match id {
            "resupply" => {
                // Draw 2; the Preparation's discards then take 2 more.
                let c = &mut self.flow.cards[s];
                let n = c.deck.len().min(2);
                let drawn: Vec<u8> = c.deck.drain(..n).collect();
                c.hand.extend(&drawn);
                // Two more for the discards, or as many as the hand holds.
                let owed = self.flow.owed[s] + 2;
                self.flow.owed[s] = owed.min(c.hand.len() as u8);
                events.push(Event::Resupplied { side, drew: drawn });
                Ok(())
            }
            "reinforce" => {
                self.flow.extra[s] += 1;
                Ok(())
            }
            "field_repair" | "smoke_screen" => {
                // The unit's Card action: resolved as an action.
                let k = self.current();
                self.flow.active[k].done = true;
                self.start_action(vec![(side, *command)], events)
            }
            _ => {
                let i = i.expect("checked: a unit");
                match id {
                    "sprint" => self.units[i].boost += 2,
                    "rally" => {
                        self.flow.over.push(i);
                        self.flow.active.push(Active {
                            side,
                            unit: i,
                            slot: crate::army::Slot::Unit,
                            kind: None,
                            done: false,
                        });
                    }
                    "aim" => self.flow.mods.push((i, 2)),
                    "jam" => self.flow.mods.push((i, -2)),
                    "cover" => {
                        self.flow.landing.remove(0);
                        self.flow.asked = false;
                        events.push(Event::Covered { unit: i });
                        // A step cancelled: the window closes.
                        return self.close_window(Window::Hit, events);
                    }
                    _ => unreachable!("{id}"),
                }
                let mut open = self.flow.window.expect("a window open");
                open.passes = 0;
                self.window_next(open, events)
            }
        }
    }

    /// A unit's Card action resolving (R152): a field repair as a
    /// mechanic's care, a smoke screen's cloud.
    pub(crate) fn card_action(
        &mut self,
        side: u8,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Command::Card {
            card,
            unit,
            patient,
            location,
            at,
            legs,
        } = *command
        else {
            unreachable!("a card")
        };
        let i = unit.and_then(|t| self.find(t)).expect("checked");
        match card_id(card) {
            "field_repair" => {
                let care = self.check_care_by(
                    i,
                    patient.expect("checked"),
                    Some(location),
                    &legs,
                    crate::data::Ability::Mechanic,
                    true,
                )?;
                self.give_care(i, &legs, care, events)
            }
            _ => {
                let at = at.expect("checked").pt();
                self.clouds.push(Cloud {
                    at,
                    owner: u16::from(side),
                    thrown: self.turn,
                });
                events.push(Event::Smoked { unit: i, at });
                Ok(())
            }
        }
    }
}

impl Game {
    /// The cards `side` may play now, one listed command each card and
    /// what it names: the unit a bonus goes to, a smoke screen at its
    /// unit's centre (its family: any point within its ruler), a field
    /// repair of a vehicle in contact, naming each marker or none.
    pub(crate) fn card_families(
        &self,
        side: u8,
        out: &mut Vec<sandtable_core::game::Legal<Command>>,
    ) {
        use crate::data::Location;
        let hand = &self.flow.cards[usize::from(side)].hand;
        let mut cards: Vec<u8> = hand.clone();
        cards.sort_unstable();
        cards.dedup();
        let spot = |p: crate::geometry::Pt| {
            Some(sandtable_core::game::Spot::Point {
                x_mm: i16::try_from(p.x).ok()?,
                y_mm: i16::try_from(p.y).ok()?,
            })
        };
        let mut push = |command: Command, piece: Option<usize>| {
            if self.check_card(side, &command).is_ok() {
                out.push(sandtable_core::game::Legal {
                    command,
                    cost: 0,
                    piece: piece.and_then(|i| spot(self.units[i].at)),
                    at: None,
                });
            }
        };
        let card_of = |card: u8,
                       unit: Option<Tag>,
                       patient: Option<Tag>,
                       location: Option<Location>,
                       at: Option<crate::command::P16>| Command::Card {
            card,
            unit,
            patient,
            location,
            at,
            legs: crate::command::Legs::default(),
        };
        let plain = |card: u8, unit: Option<Tag>| card_of(card, unit, None, None, None);
        for card in cards {
            match card_id(card) {
                "reinforce" | "resupply" => push(plain(card, None), None),
                "smoke_screen" | "field_repair" => {
                    let Some(a) = self.flow.active.iter().find(|a| !a.done) else {
                        continue;
                    };
                    if a.side != side || a.kind != Some(Kind::Card) {
                        continue;
                    }
                    let u = &self.units[a.unit];
                    if card_id(card) == "smoke_screen" {
                        let c =
                            card_of(card, Some(u.tag), None, None, crate::command::P16::of(u.at));
                        push(c, Some(a.unit));
                        continue;
                    }
                    for (t, v) in self.units.iter().enumerate() {
                        if t == a.unit || v.side != side || !v.vehicle() {
                            continue;
                        }
                        for location in [
                            None,
                            Some(Location::Weapon(0)),
                            Some(Location::Weapon(1)),
                            Some(Location::Carried),
                            Some(Location::Locomotion),
                            Some(Location::Equipment),
                        ] {
                            let c = card_of(card, Some(u.tag), Some(v.tag), location, None);
                            push(c, Some(a.unit));
                        }
                    }
                }
                _ => {
                    for (i, u) in self.units.iter().enumerate() {
                        if u.alive {
                            push(plain(card, Some(u.tag)), Some(i));
                        }
                    }
                }
            }
        }
    }
}
