//! The turn (R105-R112): Preparation, the sealed Order phase, the steps
//! and the Reserve, around the actions in space that [`Game::act`]
//! resolves.
//!
//! - **Preparation** (R105): each side in seat order discards any cards
//!   and draws up to 4 (`discard aim jam`; `discard` keeps them all). A
//!   side's deck is dealt at its first draw (R104), so that making a game
//!   rolls no dice.
//! - **Order** (R106, R107): both sides place their markers face down in
//!   one sealed command each (`orders T1:1 T2:decoy O1.L:2`); once both
//!   have, each sees where the other's markers lie, not what they are.
//! - **Steps** (R108-R111): markers 1 to 10 turned up in turn. The owner
//!   of the slower active unit names its action first, a coin on a tie
//!   (`name T3 move`); then they resolve, Move before Shoot before Card
//!   before Special, two moves the faster first. Two shots are named as
//!   one sealed decision, both roll, the first seat first, and their
//!   damage lands together. An action may be let go (`pass`): one with
//!   no legal target left is lost that way.
//! - **Reserve** (R112): the decoys go; each unit without a numbered
//!   marker acts once, the fastest first, a coin starting each group of
//!   equal Movement whose units are on both sides, which then alternate
//!   (`pass T3` lets a unit's Reserve go). Then the markers go and the
//!   next turn begins, or the game ends after its `turns` (R145).
//!
//! Cards are played in their windows ([`crate::cards`]): a step's
//! actions named open its Step window, a shot given its Shot window, and
//! each outcome rolled lands at the action's end, a Hit window before a
//! step on a unit whose side holds cards.
//!
//! Before the first turn, units a scenario leaves off the table are
//! deployed ([`crate::deploy`]); a Reserve action set in an earlier turn
//! lets a unit take any action in the Reserve (R137).

use sandtable_core::game::{Ending, Seat};

use crate::army::{self, Marker, Placed, Slot, order_markers};
use crate::attack::Outcome;
use crate::command::{Command, Kind, MAX_ORDERS, Order, Tag};
use crate::data::{Ability, CARDS, Window};
use crate::event::{CommandError, Event, refuse};
use crate::flow::{Active, Done, Flow, Owing, Phase};
use crate::game::Game;
use crate::orders;
use crate::orders::check_orders;

/// Markers run from 1 to this (R108).
pub const LAST_STEP: u8 = army::MAX_MARKERS;

/// The kind of action a command is (R109), if it is one.
pub fn kind_of(command: &Command) -> Option<Kind> {
    match command {
        Command::Move { .. }
        | Command::Charge { .. }
        | Command::Open { .. }
        | Command::Hand { .. } => Some(Kind::Move),
        Command::Shoot { .. }
        | Command::Rapid { .. }
        | Command::Grenade { .. }
        | Command::Toss { .. }
        | Command::Window { .. } => Some(Kind::Shoot),
        Command::Heal { .. }
        | Command::Repair { .. }
        | Command::Smoke { .. }
        | Command::Special { .. } => Some(Kind::Special),
        _ => None,
    }
}

/// The weapon a Shoot command fires, by index (a grenade: 0).
pub fn weapon_of(command: &Command) -> u8 {
    match command {
        Command::Shoot { weapon, .. } => *weapon,
        _ => 0,
    }
}

impl Game {
    /// Where the turn stands.
    pub fn flow(&self) -> &Flow {
        &self.flow
    }

    /// Whose decision it is: a pick or a drop owed first, then the turn's.
    pub fn owing(&self) -> Owing {
        if let Some(ending) = self.over {
            return Owing::Over(ending);
        }
        if let Some(side) = self.interrupt() {
            return Owing::One(side);
        }
        match self.flow.phase {
            Phase::Deploy(s) | Phase::Prepare(s) | Phase::Name(s) | Phase::Reserve(s) => {
                Owing::One(s)
            }
            Phase::Order => {
                Owing::Sealed([self.flow.sealed[0].is_none(), self.flow.sealed[1].is_none()])
            }
            Phase::Shots => Owing::Sealed(self.shots_owed()),
            Phase::Act => Owing::One(self.flow.active[self.current()].side),
            Phase::Window => Owing::One(self.flow.window.expect("a window open").side),
        }
    }

    /// The sides that still owe their sealed shot.
    fn shots_owed(&self) -> [bool; 2] {
        let mut owed = [false; 2];
        for a in self
            .flow
            .active
            .iter()
            .filter(|a| !a.done && a.kind == Some(Kind::Shoot))
        {
            owed[usize::from(a.side)] = self.flow.sealed[usize::from(a.side)].is_none();
        }
        owed
    }

    /// Whether `side` owes a decision now.
    pub fn owes(&self, side: u8) -> bool {
        match self.owing() {
            Owing::One(s) => s == side,
            Owing::Sealed(s) => s[usize::from(side.min(1))],
            Owing::Over(_) => false,
        }
    }

    /// The first active unit not yet resolved.
    pub(crate) fn current(&self) -> usize {
        self.flow
            .active
            .iter()
            .position(|a| !a.done)
            .unwrap_or(self.flow.active.len().saturating_sub(1))
    }

    fn side_name(&self, side: u8) -> &str {
        &self.setup().sides[usize::from(side)].name
    }

    /// The numbered markers `side` places this turn (R106): from its
    /// list's AP, its officers and automatic-order units standing.
    pub fn markers_owed(&self, side: u8) -> u8 {
        let list: u32 = self
            .units
            .iter()
            .filter(|u| u.side == side)
            .map(|u| u32::from(u.data.ap))
            .sum();
        let standing: Vec<&crate::data::UnitData> = self
            .units
            .iter()
            .filter(|u| u.side == side && u.alive)
            .map(|u| u.data)
            .collect();
        order_markers(list, &standing, self.flow.extra[usize::from(side)])
    }

    /// The orders of a command as placed markers, each unit found.
    fn placed_of(&self, side: u8, orders: &[Order]) -> Result<Vec<Placed>, CommandError> {
        let mut out = Vec::with_capacity(orders.len());
        for o in orders {
            let Some(unit) = self.find(o.unit) else {
                return refuse(107, format!("no unit is {}", o.unit));
            };
            if self.units[unit].side != side {
                return refuse(
                    107,
                    format!("{} is {}'s", o.unit, self.side_name(self.units[unit].side)),
                );
            }
            out.push(Placed {
                unit,
                slot: o.slot,
                marker: o.marker,
            });
        }
        Ok(out)
    }

    /// The kinds of action an active unit may name (R109): on infantry
    /// any it has the means for; a vehicle's marker on L a move or a
    /// special, on a weapon that weapon's shot. A Card needs a card of
    /// the action window in hand (R132).
    pub fn may_name(&self, a: &Active, kind: Kind) -> Result<(), CommandError> {
        let u = &self.units[a.unit];
        match (a.slot, kind) {
            (_, Kind::Card) => {
                let hand = &self.flow.cards[usize::from(a.side)].hand;
                if !hand
                    .iter()
                    .any(|c| CARDS[usize::from(*c)].window == Window::Action)
                {
                    return refuse(
                        132,
                        format!(
                            "{} holds no card played as an action (field_repair, smoke_screen)",
                            self.side_name(a.side)
                        ),
                    );
                }
                return Ok(());
            }
            (Slot::Locomotion, Kind::Shoot) => {
                return refuse(
                    109,
                    format!(
                        "{}'s marker lies on L: it moves or acts, it does not shoot",
                        u.tag
                    ),
                );
            }
            (Slot::Weapon(w), Kind::Move | Kind::Special) => {
                return refuse(
                    109,
                    format!(
                        "{}'s marker lies on its weapon A{}: it shoots with it",
                        u.tag,
                        w + 1
                    ),
                );
            }
            _ => {}
        }
        match kind {
            Kind::Shoot if u.data.has(Ability::DoesNotShoot) => {
                refuse(134, format!("{} does not shoot", u.tag))
            }
            Kind::Special if !self.has_special(a.unit) => {
                refuse(109, format!("{} has no activated ability", u.tag))
            }
            _ => Ok(()),
        }
    }

    /// Whether unit `i` has an activated ability: care, a smoke bomb, a
    /// shield to raise or a tripod (R135-R139).
    fn has_special(&self, i: usize) -> bool {
        let d = self.units[i].data;
        d.has(Ability::Medic)
            || d.has(Ability::Mechanic)
            || self.units[i].has_smoke()
            || d.has(Ability::EnergyShield(0))
            || d.has(Ability::Tripod)
            || d.has(Ability::ReserveAction)
            || matches!(
                self.units[i].gear,
                Some((_, crate::crates::Content::Explosives))
            )
    }

    /// Whether unit `i` may shoot in the Reserve (R112).
    fn shoots_in_reserve(&self, i: usize) -> bool {
        self.units[i].data.has(Ability::ReserveShoot)
    }

    /// Whether unit `i`'s Reserve action, set in an earlier turn, is
    /// ready: any one action in this Reserve (R137).
    pub fn reserve_ready(&self, i: usize) -> bool {
        let r = self.units[i].readied;
        r > 0 && r < self.turn
    }

    /// The units of `side` that may act now in the Reserve: standing,
    /// not yet acted, of the group's Movement (R112).
    pub fn reserve_units(&self, side: u8) -> Vec<usize> {
        let Phase::Reserve(s) = self.flow.phase else {
            return Vec::new();
        };
        let Some((movement, _)) = self.flow.group else {
            return Vec::new();
        };
        if s != side {
            return Vec::new();
        }
        (0..self.units.len())
            .filter(|i| {
                let u = &self.units[*i];
                u.alive && !u.acted && u.side == side && u.movement() == movement
            })
            .collect()
    }

    /// The unit that may act now for `side` and the kinds it may take: the
    /// active unit at its named action, or in the Reserve each unit of the
    /// group (R111, R112). Empty where `side` owes no action.
    pub fn actors(&self, side: u8) -> Vec<(usize, Vec<Kind>, Option<u8>)> {
        if self.over.is_some() || self.interrupt().is_some() {
            return Vec::new();
        }
        match self.flow.phase {
            Phase::Act => {
                let a = self.flow.active[self.current()];
                if a.side != side {
                    return Vec::new();
                }
                let weapon = match a.slot {
                    Slot::Weapon(w) => Some(w),
                    _ => None,
                };
                vec![(a.unit, a.kind.into_iter().collect(), weapon)]
            }
            Phase::Shots => self
                .flow
                .active
                .iter()
                .filter(|a| {
                    a.side == side
                        && !a.done
                        && a.kind == Some(Kind::Shoot)
                        && self.flow.sealed[usize::from(side)].is_none()
                })
                .map(|a| {
                    let weapon = match a.slot {
                        Slot::Weapon(w) => Some(w),
                        _ => None,
                    };
                    (a.unit, vec![Kind::Shoot], weapon)
                })
                .collect(),
            Phase::Reserve(_) => self
                .reserve_units(side)
                .into_iter()
                .map(|i| {
                    let mut kinds = vec![Kind::Move, Kind::Special];
                    if self.shoots_in_reserve(i) || self.reserve_ready(i) {
                        kinds.insert(1, Kind::Shoot);
                    }
                    (i, kinds, None)
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Checks an action command of `side` against the turn: its unit one
    /// that may act now, its kind one it may take.
    fn check_actor(&self, side: u8, command: &Command) -> Result<(), CommandError> {
        let kind = kind_of(command).expect("an action");
        let unit = command.unit().expect("an action's unit");
        let actors = self.actors(side);
        let Some(i) = self.find(unit) else {
            return refuse(101, format!("no unit is {unit}"));
        };
        let Some((_, kinds, weapon)) = actors.iter().find(|(k, _, _)| *k == i) else {
            return refuse(
                108,
                match self.flow.phase {
                    Phase::Act | Phase::Shots => format!(
                        "{unit} holds no marker turned up in step {}: it does not act now",
                        self.flow.step
                    ),
                    _ => format!("{unit} is not among the units that act now in the Reserve"),
                },
            );
        };
        if !kinds.contains(&kind) {
            return refuse(
                if matches!(self.flow.phase, Phase::Reserve(_)) {
                    112
                } else {
                    111
                },
                match self.flow.phase {
                    Phase::Reserve(_) => format!(
                        "in the Reserve {unit} moves, acts or passes; it shoots only with reserve_shoot or a Reserve action set in an earlier turn (R137)"
                    ),
                    _ => format!(
                        "{unit}'s action is named {}: `{command}` is not one",
                        kinds.first().map_or("?", |k| k.word())
                    ),
                },
            );
        }
        if kind == Kind::Shoot && self.units[i].handed {
            return refuse(
                144,
                format!("{unit} handed a crate over or took one this turn: it does not shoot"),
            );
        }
        if let Some(w) = weapon
            && kind == Kind::Shoot
            && weapon_of(command) != *w
        {
            return refuse(
                109,
                format!(
                    "{unit}'s marker lies on A{}: it shoots with that weapon",
                    w + 1
                ),
            );
        }
        Ok(())
    }

    /// Checks a command of `side` without changing anything: the turn's
    /// order, then the action's own rules in space.
    pub fn check_as(&self, side: u8, command: &Command) -> Result<(), CommandError> {
        if self.over.is_some() {
            return refuse(145, "the game is over");
        }
        if side > 1 {
            return refuse(103, format!("side {side}: a skirmish has 2"));
        }
        if self.interrupt().is_some() {
            return self.check_action(side, command);
        }
        if matches!(command, Command::Pick { .. } | Command::Land { .. }) {
            return self.check_action(side, command);
        }
        let turn_of = |s: u8, what: &str, ruling: u16| -> Result<(), CommandError> {
            if s != side {
                return refuse(ruling, format!("it is {}'s {what}", self.side_name(s)));
            }
            Ok(())
        };
        match (self.flow.phase, command) {
            (Phase::Deploy(s), Command::Deploy { unit, to, face }) => {
                turn_of(s, "deployment", 146)?;
                self.check_deploy(side, *unit, *to, *face).map(|_| ())
            }
            (Phase::Deploy(s), Command::Pass { unit: Some(unit) }) => {
                turn_of(s, "deployment", 146)?;
                let i = self.find(*unit);
                if !self.no_room(side) || !i.is_some_and(|i| self.deployable(side).contains(&i)) {
                    return refuse(
                        146,
                        format!(
                            "{unit} is left off the table only where no unit of the side has room to deploy"
                        ),
                    );
                }
                Ok(())
            }
            (Phase::Deploy(s), _) => {
                turn_of(s, "deployment", 146)?;
                refuse(146, "units are deployed first, as deploy T3 150,15")
            }
            (_, Command::Deploy { .. }) => refuse(146, "units are deployed before the first turn"),
            (Phase::Act | Phase::Shots | Phase::Reserve(_), Command::Transform { unit }) => {
                // With the unit's action, before it: the unit is one that
                // acts now (R137).
                let i = self.find(*unit);
                if !i.is_some_and(|i| self.actors(side).iter().any(|a| a.0 == i)) {
                    return refuse(
                        137,
                        format!("{unit} does not act now: it transforms with its action"),
                    );
                }
                self.check_action(side, command)
            }
            (_, Command::Transform { unit }) => refuse(
                137,
                format!("{unit} transforms with its action, when it acts"),
            ),
            (_, Command::Card { .. }) => self.check_card(side, command),
            (Phase::Window, Command::Pass { unit: None }) => {
                let open = self.flow.window.expect("a window open");
                turn_of(open.side, "card or pass", 132)
            }
            (Phase::Window, _) => {
                let open = self.flow.window.expect("a window open");
                turn_of(open.side, "card or pass", 132)?;
                refuse(
                    132,
                    format!("the {:?} window is open: a card of it, or pass", open.kind),
                )
            }
            (Phase::Prepare(s), Command::Discard { cards, n }) => {
                turn_of(s, "Preparation", 105)?;
                let owed = self.flow.owed[usize::from(side)];
                if *n < owed {
                    return refuse(
                        152,
                        format!("a resupply owes {owed} cards to the discards: name them"),
                    );
                }
                self.discard_places(side, &cards[..usize::from(*n)])
                    .map(|_| ())
            }
            (Phase::Prepare(s), _) => {
                turn_of(s, "Preparation", 105)?;
                refuse(
                    105,
                    "the Preparation comes first: discard the cards to let go, or `discard` to keep them",
                )
            }
            (Phase::Order, Command::Orders { orders, n }) => {
                if self.flow.sealed[usize::from(side)].is_some() {
                    return refuse(
                        107,
                        format!("{}'s markers are placed already", self.side_name(side)),
                    );
                }
                let placed = self.placed_of(side, &orders[..usize::from(*n)])?;
                check_orders(&self.units, side, self.markers_owed(side), &placed)
            }
            (Phase::Order, _) => refuse(
                107,
                "the Order phase: each side places its markers, as orders T1:1 T2:decoy",
            ),
            (Phase::Name(s), Command::Name { unit, kind }) => {
                turn_of(s, "naming", 110)?;
                let a = self
                    .flow
                    .active
                    .iter()
                    .find(|a| a.side == side && a.kind.is_none() && !a.done)
                    .expect("a side names for its active unit");
                if self.units[a.unit].tag != *unit {
                    return refuse(
                        110,
                        format!(
                            "{}'s marker {} lies on {}, not {unit}",
                            self.side_name(side),
                            self.flow.step,
                            self.units[a.unit].tag
                        ),
                    );
                }
                self.may_name(a, *kind)
            }
            (Phase::Name(s), _) => {
                turn_of(s, "naming", 110)?;
                refuse(
                    110,
                    format!(
                        "step {}: the action's kind is named first, as name T3 move",
                        self.flow.step
                    ),
                )
            }
            (Phase::Act | Phase::Shots, Command::Pass { unit: None }) => {
                if !self.actors(side).is_empty() {
                    return Ok(());
                }
                self.not_yours(side)
            }
            (Phase::Reserve(s), Command::Pass { unit: Some(unit) }) => {
                turn_of(s, "Reserve", 112)?;
                let Some(i) = self.find(*unit) else {
                    return refuse(101, format!("no unit is {unit}"));
                };
                if !self.reserve_units(side).contains(&i) {
                    return refuse(
                        112,
                        format!("{unit} is not among the units that act now in the Reserve"),
                    );
                }
                Ok(())
            }
            (Phase::Reserve(s), Command::Pass { unit: None }) => {
                turn_of(s, "Reserve", 112)?;
                refuse(112, "in the Reserve a unit passes by name: pass T3")
            }
            (Phase::Act | Phase::Shots | Phase::Reserve(_), c) if kind_of(c).is_some() => {
                if self.actors(side).is_empty() {
                    return self.not_yours(side);
                }
                self.check_actor(side, c)?;
                self.check_action(side, c)
            }
            (_, c) => refuse(
                109,
                format!("`{c}` is not a command of {}", self.phase_words()),
            ),
        }
    }

    /// Why `side` may not act now.
    fn not_yours(&self, side: u8) -> Result<(), CommandError> {
        match self.owing() {
            Owing::One(s) if s != side => {
                refuse(108, format!("it is {}'s action now", self.side_name(s)))
            }
            Owing::Sealed(_) => refuse(
                111,
                format!("{}'s shot is named already", self.side_name(side)),
            ),
            _ => refuse(108, "no unit of the side acts now"),
        }
    }

    /// The phase in words, for refusals and the status line.
    pub fn phase_words(&self) -> String {
        match self.flow.phase {
            Phase::Deploy(s) => format!("{} deploys a unit (R146)", self.side_name(s)),
            Phase::Prepare(s) => format!("{}'s Preparation (R105)", self.side_name(s)),
            Phase::Order => "the Order phase (R107)".into(),
            Phase::Name(s) => format!(
                "step {}: {} names its action (R110)",
                self.flow.step,
                self.side_name(s)
            ),
            Phase::Act => {
                let a = self.flow.active[self.current()];
                format!(
                    "step {}: {}'s {} resolves (R111)",
                    self.flow.step,
                    self.units[a.unit].tag,
                    a.kind.map_or("action", |k| k.word())
                )
            }
            Phase::Shots => format!("step {}: two shots named, sealed (R111)", self.flow.step),
            Phase::Reserve(s) => format!("the Reserve: {} acts (R112)", self.side_name(s)),
            Phase::Window => {
                let o = self.flow.window.expect("a window open");
                format!(
                    "the {} window: {} plays a card or passes (R132)",
                    match o.kind {
                        Window::Step => "Step",
                        Window::Shot => "Shot",
                        _ => "Hit",
                    },
                    self.side_name(o.side)
                )
            }
        }
    }

    /// The places in `side`'s hand of the cards `cards` names, each card
    /// found once (R105).
    fn discard_places(&self, side: u8, cards: &[u8]) -> Result<Vec<usize>, CommandError> {
        let hand = &self.flow.cards[usize::from(side)].hand;
        let mut places = Vec::with_capacity(cards.len());
        for c in cards {
            let Some(p) = (0..hand.len()).find(|p| hand[*p] == *c && !places.contains(p)) else {
                return refuse(
                    105,
                    format!("the hand holds no {} to discard", CARDS[usize::from(*c)].id),
                );
            };
            places.push(p);
        }
        Ok(places)
    }

    /// Checks and applies a command of `side`, appending its events. A
    /// refused command changes nothing: scripted dice that run out part
    /// way are found on a copy first.
    pub fn apply_as(
        &mut self,
        side: u8,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Done, CommandError> {
        self.check_as(side, command)?;
        self.all_or_nothing(events, |g, events| g.advance(side, command, events))
    }

    /// Applies a checked command and moves the turn on.
    fn advance(
        &mut self,
        side: u8,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Done, CommandError> {
        let position = self.dice.position();
        let turn = self.turn;
        let mut done = Done::default();
        let interrupted = self.interrupt().is_some();
        match (self.flow.phase, command) {
            _ if interrupted => {
                self.resolve(side, command, events)?;
                if self.interrupt().is_none() && matches!(command, Command::Land { .. }) {
                    // The drop has landed: the queue goes on.
                    self.run_queue(events)?;
                }
            }
            (phase, Command::Transform { .. }) => {
                // Free: the unit's action is still to come.
                self.resolve(side, command, events)?;
                // In the Reserve its new Movement may change who is
                // fastest: the order is taken again (R112).
                if matches!(phase, Phase::Reserve(_)) {
                    self.flow.group = None;
                    self.next_reserve(events)?;
                }
            }
            (Phase::Deploy(_), Command::Deploy { unit, to, face }) => {
                self.deploy(side, *unit, *to, *face, events)?;
            }
            (Phase::Deploy(_), Command::Pass { unit: Some(unit) }) => {
                let i = self.find(*unit).expect("checked");
                self.withhold(side, i, events);
            }
            (_, Command::Card { .. }) => {
                self.play_card(side, command, events)?;
                done.revealed = true;
            }
            (Phase::Window, Command::Pass { .. }) => {
                events.push(Event::Passed { side });
                self.window_passed(events)?;
            }
            (Phase::Prepare(s), Command::Discard { cards, n }) => {
                self.prepare(s, &cards[..usize::from(*n)], events)?;
                done.revealed = true;
                self.flow.phase = if s == 0 {
                    Phase::Prepare(1)
                } else {
                    Phase::Order
                };
            }
            (Phase::Order, Command::Orders { orders, n }) => {
                let placed = self.placed_of(side, &orders[..usize::from(*n)])?;
                self.flow.sealed[usize::from(side)] = Some(*command);
                self.flow.placed[usize::from(side)] = placed;
                events.push(Event::OrdersSealed { side });
                if self.flow.sealed.iter().all(Option::is_some) {
                    self.flow.sealed = [None, None];
                    for s in 0..2u8 {
                        let places = self.flow.placed[usize::from(s)]
                            .iter()
                            .map(|p| (p.unit, p.slot))
                            .collect();
                        events.push(Event::MarkersLie { side: s, places });
                    }
                    done.revealed = true;
                    self.begin_step(1, events)?;
                }
            }
            (Phase::Name(_), Command::Name { kind, .. }) => {
                let k = self
                    .flow
                    .active
                    .iter()
                    .position(|a| a.side == side && a.kind.is_none() && !a.done)
                    .expect("checked");
                self.flow.active[k].kind = Some(*kind);
                events.push(Event::Named {
                    unit: self.flow.active[k].unit,
                    kind: *kind,
                });
                self.drop_fallen();
                match self
                    .flow
                    .active
                    .iter()
                    .find(|a| a.kind.is_none() && !a.done)
                {
                    Some(next) => self.flow.phase = Phase::Name(next.side),
                    // The Step window once a step, before resolution
                    // (R132).
                    None if !self.flow.windowed => {
                        self.flow.windowed = true;
                        let first = self.flow.first;
                        self.open_window(Window::Step, first, None, events)?;
                    }
                    None => self.resolution_order(),
                }
            }
            (Phase::Shots, _) => {
                self.flow.sealed[usize::from(side)] = Some(*command);
                events.push(Event::ShotSealed { side });
                if self.shots_owed() == [false, false] {
                    done.revealed = true;
                    let mut queue = Vec::new();
                    for s in 0..2u8 {
                        if let Some(c) = self.flow.sealed[usize::from(s)].take() {
                            queue.push((s, c));
                        }
                    }
                    for a in &mut self.flow.active {
                        if !a.done && a.kind == Some(Kind::Shoot) {
                            a.done = true;
                        }
                    }
                    self.start_action(queue, events)?;
                }
            }
            (Phase::Act, Command::Pass { .. }) => {
                let k = self.current();
                self.flow.active[k].done = true;
                events.push(Event::LetGo {
                    unit: self.flow.active[k].unit,
                });
                self.finish_action(events)?;
            }
            (Phase::Act, c) => {
                let k = self.current();
                self.flow.active[k].done = true;
                self.start_action(vec![(side, *c)], events)?;
            }
            (Phase::Reserve(_), c) => {
                let unit = match c {
                    Command::Pass { unit: Some(u) } => self.find(*u).expect("checked"),
                    c => self.find(c.unit().expect("checked")).expect("checked"),
                };
                self.units[unit].acted = true;
                self.flow.group = self.flow.group.map(|(m, _)| (m, 1 - side));
                // A Reserve action taken is unset: the unit turns face
                // up again (R137).
                if self.reserve_ready(unit) && !matches!(c, Command::Pass { .. }) {
                    self.units[unit].readied = 0;
                    self.units[unit].back = false;
                    events.push(Event::Flipped {
                        unit,
                        back: false,
                        why: "takes its Reserve action, which is unset (R137)",
                    });
                }
                if let Command::Pass { .. } = c {
                    events.push(Event::LetGo { unit });
                    self.finish_action(events)?;
                } else {
                    self.start_action(vec![(side, *c)], events)?;
                }
            }
            _ => unreachable!("checked: {command}"),
        }
        done.rolled = self.dice.position() != position || matches!(command, Command::Land { .. });
        done.began = self.turn != turn;
        Ok(done)
    }

    /// A side's Preparation (R105): its deck dealt at its first draw
    /// (R104), the named cards discarded, up to 4 drawn.
    fn prepare(
        &mut self,
        side: u8,
        cards: &[u8],
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let s = usize::from(side);
        if !self.flow.cards[s].dealt {
            let setup = &self.table.setup.sides[s];
            let list: Option<Vec<&str>> = setup
                .deck
                .as_ref()
                .map(|d| d.iter().map(String::as_str).collect());
            let deck =
                army::deal(list.as_deref(), setup.deck_order, &mut self.dice).map_err(|e| {
                    match e {
                        // The shuffle needs rolls the script lacks: the dice
                        // ran out, not a wrong deck (R30).
                        army::DeckError::Dice(out) => CommandError {
                            ruling: 30,
                            reason: format!("the deck cannot be shuffled (R104): {}", out.reason()),
                        },
                        e => CommandError {
                            ruling: 104,
                            reason: e.to_string(),
                        },
                    }
                })?;
            self.flow.cards[s].deck = deck
                .iter()
                .map(|c| CARDS.iter().position(|d| d.id == c.id).expect("a card") as u8)
                .collect();
            self.flow.cards[s].dealt = true;
        }
        let places = self.discard_places(side, cards)?;
        let c = &mut self.flow.cards[s];
        let before = c.hand.len() - places.len();
        army::prepare(&mut c.hand, &mut c.deck, &mut c.discards, &places).map_err(|e| {
            CommandError {
                ruling: 105,
                reason: e.0,
            }
        })?;
        self.flow.owed[s] = 0;
        let c = &self.flow.cards[s];
        events.push(Event::Prepared {
            side,
            discarded: cards.to_vec(),
            drew: c.hand[before..].to_vec(),
        });
        Ok(())
    }

    /// A coin: a die, 1 to 3 the first seat (R110, R112).
    fn coin(&mut self, why: &'static str, events: &mut Vec<Event>) -> Result<u8, CommandError> {
        let roll = self.d6()?;
        let side = u8::from(roll > 3);
        events.push(Event::Coin { roll, side, why });
        Ok(side)
    }

    /// Turns up the markers of the first step from `from` that holds
    /// any on a standing unit (R108), and sets who names first (R110);
    /// after the last, the Reserve.
    fn begin_step(&mut self, from: u8, events: &mut Vec<Event>) -> Result<(), CommandError> {
        self.flow.windowed = false;
        for n in from..=LAST_STEP {
            let mut active = Vec::new();
            for side in 0..2u8 {
                let held = self.flow.placed[usize::from(side)]
                    .iter()
                    .find(|p| p.marker == Marker::Numbered(n));
                if let Some(p) = held {
                    // A marker on a destroyed unit is lost (R108).
                    if self.units[p.unit].alive {
                        active.push(Active {
                            side,
                            unit: p.unit,
                            slot: p.slot,
                            kind: None,
                            done: false,
                        });
                    }
                }
            }
            if active.is_empty() {
                continue;
            }
            self.flow.step = n;
            for a in &active {
                events.push(Event::MarkerUp {
                    unit: a.unit,
                    slot: a.slot,
                    n,
                });
            }
            let first = if let [a, b] = active.as_slice() {
                let (ua, ub) = (&self.units[a.unit], &self.units[b.unit]);
                let (side, roll) =
                    orders::first_namer(ua, ub, &mut self.dice).map_err(|out| CommandError {
                        ruling: 30,
                        reason: out.reason(),
                    })?;
                if let Some(roll) = roll {
                    events.push(Event::Coin {
                        roll,
                        side,
                        why: "names first",
                    });
                }
                side
            } else {
                active[0].side
            };
            active.sort_by_key(|a| a.side != first);
            self.flow.first = first;
            self.flow.active = active;
            self.flow.phase = Phase::Name(first);
            return Ok(());
        }
        self.begin_reserve(events)
    }

    /// Both actions named: the order they resolve in (R111). Two shots
    /// are named sealed; else Move, Shoot, Card, Special, two moves the
    /// faster first (a tie: the first namer), else naming order.
    pub(crate) fn resolution_order(&mut self) {
        let units = &self.units;
        let rank = |a: &Active| {
            let kind = a.kind.unwrap_or(Kind::Special);
            let speed = if kind == Kind::Move {
                u8::MAX - units[a.unit].movement()
            } else {
                0
            };
            (kind, speed)
        };
        // Stable: equal ranks keep the naming order; those resolved
        // already (a rallied unit's step) first.
        self.flow.active.sort_by_key(|a| (!a.done, rank(a)));
        let shots = self
            .flow
            .active
            .iter()
            .filter(|a| !a.done && a.kind == Some(Kind::Shoot))
            .count();
        self.flow.phase = if shots == 2 { Phase::Shots } else { Phase::Act };
    }

    /// An action begins: `queue` holds its command, or both sealed shots.
    /// A shot opens the Shot window first (R132), where the other side
    /// may answer it; then the queue resolves.
    pub(crate) fn start_action(
        &mut self,
        queue: Vec<(u8, Command)>,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let shot = queue.iter().any(|(_, c)| kind_of(c) == Some(Kind::Shoot));
        self.flow.queue = queue;
        if shot {
            let first = if self.flow.step > LAST_STEP {
                0
            } else {
                self.flow.first
            };
            return self.open_window(Window::Shot, first, None, events);
        }
        self.run_queue(events)
    }

    /// The queued commands resolve, the first seat's first, their
    /// attacks' outcomes held until all have rolled (R111); a placed drop
    /// awaited stops the queue until it lands. Then the outcomes land.
    pub(crate) fn run_queue(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.deferred.is_none() {
            self.deferred = Some(Vec::new());
        }
        while !self.flow.queue.is_empty() {
            let (side, c) = self.flow.queue.remove(0);
            let unit = match c {
                Command::Pass { .. } => None,
                c => c.unit().and_then(|t| self.find(t)),
            };
            match c {
                Command::Pass { .. } => {
                    let shooter = |a: &&Active| a.side == side && a.kind == Some(Kind::Shoot);
                    if let Some(a) = self.flow.active.iter().rev().find(shooter) {
                        events.push(Event::LetGo { unit: a.unit });
                    }
                }
                Command::Card { .. } => self.card_action(side, &c, events)?,
                c => {
                    // Checked when given, against this same table, the
                    // other shot's damage not landed yet; what the first
                    // did to a building may leave the second no target:
                    // it is lost (R111). Dice running out is no loss.
                    match self.resolve(side, &c, events) {
                        Ok(_) => {}
                        Err(e) if e.ruling == 30 => return Err(e),
                        Err(_) => {
                            if let Some(unit) = unit {
                                events.push(Event::LetGo { unit });
                            }
                        }
                    }
                }
            }
            if self.pending.is_some() {
                return Ok(());
            }
        }
        self.flow.mods.clear();
        self.flow.landing = self.deferred.take().unwrap_or_default();
        self.land_all(events)
    }

    /// The outcomes rolled land in order (R111); before a step lands on a
    /// unit whose side holds cards, its owner's Hit window (R132). Then
    /// the action is over.
    pub(crate) fn land_all(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        while let Some(&(t, outcome)) = self.flow.landing.first() {
            let owner = self.units[t].side;
            if outcome == Outcome::Step
                && self.units[t].alive
                && !self.flow.asked
                && !self.flow.cards[usize::from(owner)].hand.is_empty()
            {
                self.flow.asked = true;
                return self.open_window(Window::Hit, owner, Some(t), events);
            }
            self.flow.asked = false;
            self.flow.landing.remove(0);
            self.land(t, outcome, events)?;
        }
        self.finish_action(events)
    }

    /// After an action resolved and its outcomes landed, or was let go:
    /// the game's end (R145), else the Reserve's next unit, else the
    /// step's next action, a rallied unit's (R133), else the next step.
    pub(crate) fn finish_action(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.end_if_gone(events) {
            return Ok(());
        }
        if self.flow.step > LAST_STEP {
            return self.next_reserve(events);
        }
        self.drop_fallen();
        if let Some(a) = self.flow.active.iter().find(|a| !a.done) {
            self.flow.phase = match a.kind {
                Some(_) => Phase::Act,
                None => Phase::Name(a.side),
            };
            return Ok(());
        }
        self.begin_step(self.flow.step + 1, events)
    }

    /// An active unit destroyed before its action loses it (R108): done.
    fn drop_fallen(&mut self) {
        for a in &mut self.flow.active {
            if !a.done && !self.units[a.unit].alive {
                a.done = true;
            }
        }
    }

    /// The Reserve begins (R112): the decoys are revealed and go; the
    /// units without a numbered marker this turn act.
    fn begin_reserve(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        self.flow.step = LAST_STEP + 1;
        self.flow.active.clear();
        for side in 0..2u8 {
            let units: Vec<usize> = self.flow.placed[usize::from(side)]
                .iter()
                .filter(|p| p.marker == Marker::Decoy)
                .map(|p| p.unit)
                .collect();
            if !units.is_empty() {
                events.push(Event::DecoysGone { side, units });
            }
            self.flow.placed[usize::from(side)].retain(|p| p.marker != Marker::Decoy);
        }
        for i in 0..self.units.len() {
            let side = usize::from(self.units[i].side);
            let numbered = self.flow.placed[side]
                .iter()
                .any(|p| p.unit == i && matches!(p.marker, Marker::Numbered(_)));
            // An over marker is a turned-up one (R133).
            let over = self.flow.over.contains(&i);
            self.units[i].acted = numbered || over || !self.units[i].alive;
        }
        self.flow.group = None;
        self.next_reserve(events)
    }

    /// The next unit of the Reserve (R112): the fastest group left; a coin
    /// starts a group both sides have units in, then they alternate, a
    /// side with none left passing its turn to the other. None left: the
    /// turn ends.
    fn next_reserve(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        let waiting = |g: &Game, side: u8, m: u8| {
            g.units
                .iter()
                .any(|u| u.alive && !u.acted && u.side == side && u.movement() == m)
        };
        let fastest = self
            .units
            .iter()
            .filter(|u| u.alive && !u.acted)
            .map(|u| u.movement())
            .max();
        let Some(m) = fastest else {
            return self.end_turn(events);
        };
        let both = waiting(self, 0, m) && waiting(self, 1, m);
        let side = match self.flow.group {
            Some((gm, next)) if gm == m => {
                if waiting(self, next, m) {
                    next
                } else {
                    1 - next
                }
            }
            _ if both => self.coin("starts the Reserve of its Movement", events)?,
            _ => u8::from(!waiting(self, 0, m)),
        };
        self.flow.group = Some((m, side));
        self.flow.phase = Phase::Reserve(side);
        Ok(())
    }

    /// The turn ends: the markers go; the next turn begins at its
    /// Preparation, or the game ends after its `turns` (R145).
    fn end_turn(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        self.flow.placed = [Vec::new(), Vec::new()];
        self.flow.active.clear();
        self.flow.group = None;
        self.flow.step = 0;
        self.flow.over.clear();
        self.flow.extra = [0; 2];
        for u in &mut self.units {
            u.acted = false;
            u.boost = 0;
            u.handed = false;
            u.transformed = false;
        }
        let ap = [u32::from(self.ap[0]), u32::from(self.ap[1])];
        if let Some(ending) = self.turn_end_victory() {
            self.end(ending, events);
            return Ok(());
        }
        if self.table.setup.victory == crate::setup::Victory::TreasureHunt {
            // Crates banked at the turn's end; the hunt ends after its
            // turns or once none is left (R148).
            self.bank_crates(events);
            if self.crates_done() || self.turn >= self.table.setup.turns {
                let banked = [u32::from(self.banked[0]), u32::from(self.banked[1])];
                self.end(crate::victory::treasure_hunt(banked, ap), events);
                return Ok(());
            }
        }
        if self.turn >= self.table.setup.turns {
            // An attack not carried by its last turn fails; a Cameron
            // defender that survives it wins (R148).
            let ending = if matches!(
                self.table.setup.victory,
                crate::setup::Victory::AttackDefense | crate::setup::Victory::Cameron
            ) {
                Ending::Won(Seat(u16::from(1 - self.table.setup.attacker)))
            } else {
                crate::victory::on_ap(ap)
            };
            self.end(ending, events);
            return Ok(());
        }
        self.turn += 1;
        self.flow.phase = Phase::Prepare(0);
        events.push(Event::TurnBegan { turn: self.turn });
        Ok(())
    }

    /// A side's markers as it may see them now, and as the other may:
    /// each place with its marker, or `None` while face down to `viewer`
    /// (R149). While the Order phase lasts, a side's placing is sealed:
    /// the other sees where its markers lie only once both have placed
    /// (R107). Markers are turned up in their step; decoys at the
    /// Reserve.
    pub fn markers_seen(&self, side: u8, viewer: Option<u8>) -> Vec<(usize, Slot, Option<Marker>)> {
        let own = viewer.is_none_or(|v| v == side);
        if !own && self.flow.phase == Phase::Order {
            return Vec::new();
        }
        self.flow.placed[usize::from(side)]
            .iter()
            .map(|p| {
                let up = match p.marker {
                    Marker::Numbered(n) => n <= self.flow.step,
                    Marker::Decoy => self.flow.step > LAST_STEP,
                };
                (p.unit, p.slot, (own || up).then_some(p.marker))
            })
            .collect()
    }

    /// Everything `viewer` may not know dealt again from what it may
    /// (R149): its own deck drawn again, and each other side's hand and
    /// deck, from every card it cannot rule out ([`Game::unseen_cards`]); its face-down markers'
    /// values shuffled among their places; its sealed command, given and
    /// not yet revealed, replaced by one drawn at random; the crates'
    /// contents the viewer has not seen drawn again. `viewer` is a side,
    /// or [`crate::ONLOOKER`] for the public, to whom both sides are
    /// others. Each pool is put in order before it is shuffled, so that
    /// the deal depends on what `viewer` may know and the seed alone,
    /// never on how the hidden things lay.
    pub(crate) fn redeal_for(&mut self, viewer: u8, seed: u64) {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let others: Vec<u8> = (0..2u8).filter(|s| *s != viewer).collect();
        for s in 0..2u8 {
            // Every card the viewer cannot rule out: for the other side
            // its hand and deck, for its own the deck; never the cards
            // themselves, which an empty deck would give away (a hand
            // dealt from the hand alone is the hand).
            let other = others.contains(&s);
            let mut pool = self.unseen_cards(s, other);
            let c = &mut self.flow.cards[usize::from(s)];
            let (n, m) = (if other { c.hand.len() } else { 0 }, c.deck.len());
            if pool.len() < n + m {
                // Never, as the deck is dealt (R104); the cards as they
                // are, then.
                pool = if other { c.hand.clone() } else { Vec::new() };
                pool.extend(&c.deck);
            }
            pool.sort_unstable();
            pool.shuffle(&mut rng);
            if other {
                c.hand = pool.drain(..n).collect();
            }
            c.deck = pool.drain(..m).collect();
        }
        // The other's allotted crates still hidden: contents drawn again
        // from those the viewer has not seen, a trap never (R143, R144).
        let hidden: Vec<usize> = (0..self.crates.len())
            .filter(|k| !self.crates[*k].known_to(Some(viewer)))
            .filter(|k| self.crates[*k].content.is_some())
            .collect();
        if !hidden.is_empty() {
            use crate::crates::{Content, CrateState};
            let mut pool: Vec<Content> = Content::ALL
                .into_iter()
                .filter(|c| *c != Content::Trap)
                .filter(|c| {
                    !self
                        .crates
                        .iter()
                        .any(|k| k.content == Some(*c) && k.known_to(Some(viewer)))
                })
                .collect();
            pool.shuffle(&mut rng);
            for (k, c) in hidden.into_iter().zip(pool) {
                self.crates[k].content = Some(c);
                if let CrateState::Carried(u) = self.crates[k].state {
                    self.units[usize::from(u)].gear = Some((k as u8, c));
                }
            }
        }
        for &other in &others {
            self.redeal_markers(other, viewer, &mut rng);
        }
    }

    /// The cards side `s` may hold in its deck, and in its hand where
    /// `hand_too`, as anyone who has not seen them knows it: its list, or
    /// the faction's thirty (R104), less its discards (everyone's, R149)
    /// and, where the hand is its owner's to see, its hand.
    fn unseen_cards(&self, s: u8, hand_too: bool) -> Vec<u8> {
        let c = &self.flow.cards[usize::from(s)];
        let mut pool: Vec<u8> = match &self.table.setup.sides[usize::from(s)].deck {
            Some(list) => list
                .iter()
                .filter_map(|id| CARDS.iter().position(|d| d.id == id.as_str()))
                .map(|k| k as u8)
                .collect(),
            None => CARDS
                .iter()
                .enumerate()
                .flat_map(|(k, d)| std::iter::repeat_n(k as u8, usize::from(d.limit)))
                .collect(),
        };
        let known = c
            .discards
            .iter()
            .chain(if hand_too { &[][..] } else { &c.hand[..] });
        for card in known {
            if let Some(k) = pool.iter().position(|x| x == card) {
                pool.swap_remove(k);
            }
        }
        pool
    }

    /// Side `other`'s face-down markers' values shuffled among their
    /// places, and its sealed command not yet revealed to `viewer` dealt
    /// again (R107, R111, R149).
    fn redeal_markers(&mut self, other: u8, viewer: u8, rng: &mut rand::rngs::SmallRng) {
        use rand::seq::SliceRandom;
        let seen = self.markers_seen(other, Some(viewer));
        let hidden: Vec<usize> = (0..seen.len()).filter(|k| seen[*k].2.is_none()).collect();
        let placed = &mut self.flow.placed[usize::from(other)];
        let mut values: Vec<Marker> = hidden.iter().map(|k| placed[*k].marker).collect();
        values.sort_unstable();
        values.shuffle(rng);
        for (k, v) in hidden.iter().zip(values) {
            placed[*k].marker = v;
        }
        // A sealed command the viewer has not seen. Sealed orders are
        // placed again at random, places and all: the viewer sees nothing
        // of them until both sides have placed (R107). Another sealed
        // command (a shot) is drawn again from the list.
        if self.flow.sealed[usize::from(other)].is_some() {
            if self.flow.phase == Phase::Order {
                let command = self.random_orders(other, rng);
                if let Command::Orders { orders, n } = &command
                    && let Ok(placed) = self.placed_of(other, &orders[..usize::from(*n)])
                {
                    self.flow.placed[usize::from(other)] = placed;
                    self.flow.sealed[usize::from(other)] = Some(command);
                }
            } else {
                self.flow.sealed[usize::from(other)] = None;
                let seat = Seat(u16::from(other));
                if let Some(c) = sandtable_core::game::GameState::random_command(&*self, seat, rng)
                {
                    let mut events = Vec::new();
                    // Drawn from the list: legal.
                    let _ = self.advance(other, &c, &mut events);
                }
            }
        }
    }

    /// A random `orders` command for `side`: a number of markers from 0
    /// to its count, each on a random free place, the automatic-order
    /// units first, and its decoys (R107).
    pub fn random_orders<R: rand::Rng + ?Sized>(&self, side: u8, rng: &mut R) -> Command {
        use rand::seq::SliceRandom;
        let mut places: Vec<(usize, Slot)> = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            if u.alive && u.side == side {
                let mut slots = orders::marker_places(u);
                slots.shuffle(rng);
                slots.truncate(orders::marker_room(u));
                places.extend(slots.into_iter().map(|s| (i, s)));
            }
        }
        places.shuffle(rng);
        // Automatic-order units' places first: each holds a numbered one.
        let mut firsts: Vec<(usize, Slot)> = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            if u.alive
                && u.side == side
                && u.data.has(Ability::AutomaticOrder)
                && let Some(k) = places.iter().position(|p| p.0 == i)
            {
                firsts.push(places.remove(k));
            }
        }
        let count = usize::from(self.markers_owed(side));
        let least = firsts.len().min(count);
        firsts.extend(places);
        let places = firsts;
        let k = rng.random_range(least..=count.min(places.len()));
        let decoys = usize::from(army::DECOYS).min(places.len() - k);
        let mut orders = [Order::default(); MAX_ORDERS];
        let mut numbers: Vec<u8> = (1..=k as u8).collect();
        numbers.shuffle(rng);
        for (j, (i, slot)) in places.iter().take(k + decoys).enumerate() {
            orders[j] = Order {
                unit: self.units[*i].tag,
                slot: *slot,
                marker: if j < k {
                    Marker::Numbered(numbers[j])
                } else {
                    Marker::Decoy
                },
            };
        }
        Command::Orders {
            orders,
            n: (k + decoys) as u8,
        }
    }

    /// An `orders` command of `side` numbering the places `numbered` 1,
    /// 2 ... in order, its decoys on the first places left (R107): what a
    /// table fills in once a player has laid the numbered markers. `None`
    /// where a place is no unit of the side's.
    pub fn orders_with(&self, side: u8, numbered: &[(Tag, Slot)]) -> Option<Command> {
        let mut orders = [Order::default(); MAX_ORDERS];
        let mut n = 0;
        for (tag, slot) in numbered.iter().take(usize::from(army::MAX_MARKERS)) {
            let i = self.find(*tag)?;
            if self.units[i].side != side {
                return None;
            }
            orders[n] = Order {
                unit: *tag,
                slot: *slot,
                marker: Marker::Numbered(n as u8 + 1),
            };
            n += 1;
        }
        let held = |i: usize, orders: &[Order]| {
            orders
                .iter()
                .filter(|o| o.unit == self.units[i].tag)
                .count()
        };
        let mut decoys = 0;
        for (i, u) in self.units.iter().enumerate() {
            if !u.alive || u.side != side || decoys == army::DECOYS {
                continue;
            }
            for slot in orders::marker_places(u) {
                let taken = orders[..n]
                    .iter()
                    .any(|o| o.unit == u.tag && o.slot == slot);
                if decoys < army::DECOYS && !taken && held(i, &orders[..n]) < orders::marker_room(u)
                {
                    orders[n] = Order {
                        unit: u.tag,
                        slot,
                        marker: Marker::Decoy,
                    };
                    n += 1;
                    decoys += 1;
                }
            }
        }
        Some(Command::Orders { orders, n: n as u8 })
    }
}

/// A hand as ids, for views and logs.
pub fn card_ids(cards: &[u8]) -> Vec<&'static str> {
    cards.iter().map(|c| CARDS[usize::from(*c)].id).collect()
}
