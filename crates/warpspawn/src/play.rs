//! Applying commands (R64-R81): a command is checked in full into a plan
//! (`check`) before anything changes, its dice are rolled on a copy of the
//! dice, and only then is the state changed; a refusal names its ruling
//! and changes nothing. The steps a command sets going (losses, the
//! losers' fate, rout moves, the free advance, the end of the player turn)
//! run at once where they need no decision or have one possible answer
//! (R64), and wait for their player otherwise.

use sandtable_core::dice::Dice;

use crate::command::{Command, CommandError, Hexes, Parts, RoutTo};
use crate::event::Event;
use crate::game::{Game, Stack};
use crate::hex::Hex;
use crate::men::Men;
use crate::off_map::OffMapState;
use crate::off_map_rules::OffMapRules;
use crate::plans::{AttackPlan, FirePlan, Plan};
use crate::setup::MeleeResult;
use crate::tables::{RallyResult, casualties, rally_result};
use crate::terms::{
    Band, Cause, EndReason, Fate, Group, Outcome, Phase, RoutWhy, Side, Step, Which,
};

impl<G: OffMapRules> Game<G> {
    /// Checks and applies a command of `side`, appending its events and
    /// those of the steps it sets going; returns whether dice were rolled
    /// and whether a player turn ended. A refused command changes nothing.
    pub(crate) fn execute(
        &mut self,
        side: Side,
        command: &Command<G>,
        events: &mut Vec<Event<G>>,
    ) -> Result<(bool, bool), CommandError> {
        let plan = self.plan(side, command)?;
        let turn_before = (self.state.turn, self.state.active);
        // The dice roll on a copy, kept only once every roll a command needs
        // is there (a scripted list may run out); copied only by commands
        // that roll.
        let rolled = match plan {
            Plan::Fire(fire) => {
                let mut dice = self.state.dice.clone();
                let rolls = roll_fire(&mut dice, &fire)?;
                self.state.dice = dice;
                self.fire(&fire, &rolls, events);
                true
            }
            Plan::Attack(attack) => {
                let mut dice = self.state.dice.clone();
                let roll = d6(&mut dice)?;
                let result = self.battle.switches.melee_rows.0[attack.row][usize::from(roll - 1)];
                let fate_roll = match attack.attackers_win(result) {
                    Some(_) => Some(d6(&mut dice)?),
                    None => None,
                };
                self.state.dice = dice;
                self.attack(&attack, roll, result, fate_roll, events);
                true
            }
            Plan::Rally {
                routers,
                with,
                modifier,
            } => {
                let mut dice = self.state.dice.clone();
                let roll = d6(&mut dice)?;
                self.state.dice = dice;
                self.rally(routers, with, roll, modifier, events);
                true
            }
            Plan::March { from, path, group } => {
                self.march(from, path, group, events);
                // Sight is checked again after each march (R55).
                G::after_move(self, side, events);
                false
            }
            Plan::OffMap => unreachable!("its own commands are applied by `apply_as`"),
            Plan::Enter(plan) => {
                G::enter(self, &plan, events);
                // Sight is checked again after each entry (R55).
                G::after_move(self, side, events);
                false
            }
            Plan::MarchOff(plan) => {
                G::march_off(self, &plan, events);
                false
            }
            Plan::FireAtCounter(plan) => {
                let mut dice = self.state.dice.clone();
                let roll = d6(&mut dice)?;
                self.state.dice = dice;
                G::fire(self, &plan, roll, events);
                true
            }
            Plan::LoseInRing { counter, men } => {
                let Some(Step::LoseInRing { side, .. }) = self.state.steps.pop_front() else {
                    unreachable!("checked: a loss is owed");
                };
                G::kill(self, side, counter, men, events);
                false
            }
            Plan::Lose { hex, men } => {
                self.lose(hex, men, events);
                false
            }
            Plan::Advance { into, from } => {
                self.advance(into, from, events);
                false
            }
            Plan::Rout { from, to } => {
                self.rout_move(from, to, events);
                false
            }
            Plan::End => {
                self.end_phase(events);
                false
            }
        };
        self.run_steps(events);
        let turn_ended =
            (self.state.turn, self.state.active) != turn_before || self.state.ending.is_some();
        Ok((rolled, turn_ended))
    }

    fn fire(&mut self, plan: &FirePlan, rolls: &FireRolls, events: &mut Vec<Event<G>>) {
        let side = self.state.active;
        let st = self.state.stack_mut(plan.cannon, side);
        st.marks.fired = true;
        st.marks.crew = plan.crew;
        let modifier = plan.modifier();
        let n = casualties(rolls.roll, modifier, plan.target_men);
        events.push(Event::Fired {
            cannon: plan.cannon,
            target: plan.target,
            which: plan.which,
            range: plan.range,
            direct: plan.direct,
            roll: rolls.roll,
            modifier,
            casualties: n,
            crew: plan.crew,
        });
        self.push_loss(
            side.other(),
            &[plan.target],
            n,
            plan.which,
            false,
            Cause::Shot,
        );
        for ((hex, men), (roll, loss)) in plan.friendly.iter().zip(&rolls.friendly) {
            events.push(Event::FriendlyFire {
                hex: *hex,
                roll: *roll,
                loss_roll: *loss,
            });
            if let Some(k) = loss {
                self.push_loss(
                    side,
                    &[*hex],
                    u16::from(*k).min(*men),
                    Which::Armed,
                    false,
                    Cause::FriendlyFire,
                );
            }
        }
    }

    fn push_loss(
        &mut self,
        side: Side,
        hexes: &[Hex],
        count: u16,
        which: Which,
        fighting: bool,
        cause: Cause,
    ) {
        if count == 0 {
            return;
        }
        self.state.steps.push_back(Step::Lose {
            side,
            hexes: Hexes::from_slice(hexes).expect("at most six hexes"),
            count,
            which,
            fighting,
            cause,
        });
    }

    fn attack(
        &mut self,
        plan: &AttackPlan,
        roll: u8,
        result: MeleeResult,
        fate_roll: Option<u8>,
        events: &mut Vec<Event<G>>,
    ) {
        let side = self.state.active;
        let enemy = side.other();
        for hex in plan.from.as_slice() {
            self.state.stack_mut(*hex, side).marks.attacked = true;
        }
        self.state.stack_mut(plan.target, enemy).marks.defended = true;
        let attackers_win = plan.attackers_win(result);
        events.push(Event::Attacked {
            target: plan.target,
            from: plan.from,
            attackers: plan.attackers,
            defenders: plan.defenders,
            defence2: plan.defence2,
            row: plan.row,
            roll,
            result,
            winner: attackers_win.map(|a| if a { side } else { enemy }),
            half: plan.half,
        });
        let target = [plan.target];
        let attacking = plan.from.as_slice();
        let Some(attackers_win) = attackers_win else {
            // B: both sides lose half the smaller force; no roll, no advance.
            self.push_loss(enemy, &target, plan.half, Which::Armed, true, Cause::Melee);
            self.push_loss(side, attacking, plan.half, Which::Armed, true, Cause::Melee);
            return;
        };
        let roll = fate_roll.expect("a melee with a winner rolls the fate");
        let fate = Fate::of_roll(roll);
        events.push(Event::FateRolled { roll, fate });
        let (winner, winners, losers, losing): (Side, &[Hex], Side, &[Hex]) = if attackers_win {
            (side, attacking, enemy, &target)
        } else {
            (enemy, &target, side, attacking)
        };
        if fate != Fate::Slaughter {
            self.push_loss(losers, losing, plan.half, Which::Armed, true, Cause::Melee);
        }
        if result != MeleeResult::V {
            self.push_loss(winner, winners, plan.half, Which::Armed, true, Cause::Melee);
        }
        self.state.steps.push_back(Step::Fate {
            losers,
            hexes: Hexes::from_slice(losing).expect("at most six hexes"),
            fate,
        });
        self.state.steps.push_back(Step::Advance {
            side: winner,
            into: Hexes::from_slice(losing).expect("at most six hexes"),
            from: Hexes::from_slice(winners).expect("at most six hexes"),
        });
    }

    fn rally(
        &mut self,
        routers: Hex,
        with: Hex,
        roll: u8,
        modifier: i8,
        events: &mut Vec<Event<G>>,
    ) {
        let side = self.state.active;
        events.push(Event::RallyRolled {
            routers,
            with,
            roll,
            modifier,
        });
        self.state.stack_mut(routers, side).marks.rally_rolled = true;
        match rally_result(
            i16::from(roll) + i16::from(modifier),
            self.battle.switches.rally_low,
        ) {
            RallyResult::Rally => {
                let room = self.limit(routers);
                let st = self.state.stack_mut(routers, side);
                let room = room.saturating_sub(st.armed.men.total());
                let men = st
                    .routing
                    .men
                    .take_infantry_first(room.min(st.routing.men.total()));
                let band = Band {
                    men,
                    officers: st.routing.officers,
                };
                st.routing = st.routing.minus(band).expect("taken from the routers");
                st.armed = st.armed.plus(band);
                let still = st.routing.men.total();
                events.push(Event::Rallied {
                    hex: routers,
                    band,
                    still_routing: still,
                });
                if self
                    .stack(routers, side.other())
                    .is_some_and(Stack::capturable)
                {
                    self.capture(routers, side, events);
                }
            }
            RallyResult::Flee => events.push(Event::FledOn { hex: routers }),
            RallyResult::Panic => {
                events.push(Event::Panicked { hex: with });
                self.rout_formation(with, side, events);
                let st = self.state.stack_mut(with, side);
                st.marks.rally_rolled = true;
                self.state.steps.push_front(Step::Rout {
                    side,
                    from: with,
                    why: RoutWhy::Panic,
                });
            }
        }
    }

    /// A formation's armed men, crews included, and its officers rout,
    /// leaving cannon, baggage and flags (R76, R79).
    fn rout_formation(&mut self, hex: Hex, side: Side, events: &mut Vec<Event<G>>) {
        let st = self.state.stack_mut(hex, side);
        let band = st.armed;
        st.routing = st.routing.plus(band);
        st.armed = Band::NONE;
        st.marks.crew = Men::NONE;
        events.push(Event::Routed { hex, side, band });
    }

    fn march(&mut self, from: Hex, path: Hexes, group: Group, events: &mut Vec<Event<G>>) {
        let side = self.state.active;
        let to = *path.as_slice().last().expect("a path has a hex");
        let steps = path.as_slice().len() as u8;
        let src = self.state.stack_mut(from, side);
        src.armed = src.armed.minus(group.armed).expect("checked");
        if group.cannon {
            src.cannon = false;
        }
        if group.baggage {
            src.baggage = false;
        }
        let flags = if group.flag { src.flags } else { 0 };
        src.flags -= flags;
        let flag_hexes = src.marks.flag_hexes + steps;
        src.prisoners = src.prisoners.minus(group.prisoners).expect("checked");
        src.unarmed = src.unarmed.minus(group.unarmed).expect("checked");
        let dst = if src.is_empty() && self.state.stack(to, side).is_none() {
            self.state.relocate(from, to, side)
        } else {
            self.state.tidy(from, side);
            self.state.stack_mut(to, side)
        };
        dst.armed = dst.armed.plus(group.armed);
        dst.marks.marched = dst.marks.marched.plus(group.armed);
        if group.cannon {
            dst.cannon = true;
            dst.marks.cannon_marched = true;
        }
        if group.baggage {
            dst.baggage = true;
            dst.marks.baggage_marched = true;
        }
        if flags > 0 {
            dst.flags += flags;
            dst.marks.flag_hexes = dst.marks.flag_hexes.max(flag_hexes);
        }
        dst.prisoners = dst.prisoners.plus(group.prisoners);
        dst.marks.prisoners_marched = dst.marks.prisoners_marched.plus(group.prisoners);
        dst.unarmed = dst.unarmed.plus(group.unarmed);
        dst.marks.unarmed_marched = dst.marks.unarmed_marched.plus(group.unarmed);
        events.push(Event::Marched {
            from,
            path,
            armed: group.armed,
            cannon: group.cannon,
            baggage: group.baggage,
            flags,
            prisoners: group.prisoners,
            unarmed: group.unarmed,
        });
        if self.stack(to, side.other()).is_some_and(Stack::capturable) {
            self.capture(to, side, events);
        }
    }

    /// A formation of `by` takes everything the enemy has in `hex` (R63,
    /// R69, R77, R78, R80): routers, unarmed men and officers as prisoners,
    /// cannon, baggage and flags as its own; its own men held there are
    /// freed.
    pub(crate) fn capture(&mut self, hex: Hex, by: Side, events: &mut Vec<Event<G>>) {
        let enemy = by.other();
        let Some(foe) = self.state.take(hex, enemy) else {
            return;
        };
        debug_assert!(!foe.is_formation(), "a formation is never captured whole");
        let band = foe.routing.plus(foe.unarmed).plus(Band {
            men: Men::NONE,
            officers: foe.armed.officers,
        });
        let points = 2 * u32::from(band.men.total())
            + 5 * u32::from(band.officers)
            + 10 * u32::from(foe.cannon)
            + 5 * u32::from(foe.baggage)
            + 20 * u32::from(foe.flags);
        let limit = if foe.cannon || foe.baggage {
            10
        } else {
            self.limit(hex)
        };
        let own = self.state.stack_mut(hex, by);
        own.prisoners = own.prisoners.plus(band);
        own.marks.prisoners_marched = own.marks.prisoners_marched.plus(band);
        if foe.cannon {
            own.cannon = true;
            own.marks.cannon_marched = true;
        }
        if foe.baggage {
            own.baggage = true;
            own.marks.baggage_marched = true;
        }
        if foe.flags > 0 {
            own.flags += foe.flags;
            own.marks.flag_hexes = 2;
        }
        let freed = foe.prisoners;
        let room = limit.saturating_sub(own.armed.men.total());
        let armed = Band {
            men: freed.men.take_infantry_first(room.min(freed.men.total())),
            officers: freed.officers,
        };
        let unarmed = freed.minus(armed).expect("taken from the freed");
        own.armed = own.armed.plus(armed);
        own.marks.marched = own.marks.marched.plus(armed);
        own.unarmed = own.unarmed.plus(unarmed);
        own.marks.unarmed_marched = own.marks.unarmed_marched.plus(unarmed);
        self.state.vp[by.index()] += points;
        if foe.flags > 0 {
            self.state.flag_taken = true;
        }
        if !band.is_empty() || foe.cannon || foe.baggage || foe.flags > 0 {
            events.push(Event::Captured {
                hex,
                by,
                band,
                cannon: foe.cannon,
                baggage: foe.baggage,
                flags: foe.flags,
                points,
            });
        }
        if !freed.is_empty() {
            events.push(Event::Freed {
                hex,
                side: by,
                armed,
                unarmed,
            });
        }
    }

    /// Kills men of a band (R63, R81): the enemy scores 1 a man, and when no
    /// men of the band are left its officers die with them (3 each). Men of
    /// the formation die from outside the crews when `fighting`, else from
    /// the crews first (the owner's better choice: crews may not march).
    fn kill(
        &mut self,
        hex: Hex,
        side: Side,
        which: Which,
        men: Men,
        fighting: bool,
        events: &mut Vec<Event<G>>,
    ) {
        let st = self.state.stack_mut(hex, side);
        let band = match which {
            Which::Armed => &mut st.armed,
            Which::Routing => &mut st.routing,
        };
        band.men = band.men.minus(men).expect("checked");
        let officers = if band.men.is_empty() {
            std::mem::take(&mut band.officers)
        } else {
            0
        };
        if which == Which::Armed && !fighting {
            let crew = &mut st.marks.crew;
            crew.inf -= men.inf.min(crew.inf);
            crew.cav -= men.cav.min(crew.cav);
        }
        let crew = st.marks.crew;
        st.marks.crew = Men::new(
            crew.inf.min(st.armed.men.inf),
            crew.cav.min(st.armed.men.cav),
        );
        let marched = st.marks.marched;
        st.marks.marched = Band {
            men: Men::new(
                marched.men.inf.min(st.armed.men.inf),
                marched.men.cav.min(st.armed.men.cav),
            ),
            officers: marched.officers.min(st.armed.officers),
        };
        let points = u32::from(men.total()) + 3 * u32::from(officers);
        self.state.vp[side.other().index()] += points;
        self.state.tidy(hex, side);
        events.push(Event::Killed {
            hex,
            side,
            which,
            band: Band { men, officers },
            points,
        });
    }

    fn lose(&mut self, hex: Hex, men: Men, events: &mut Vec<Event<G>>) {
        let Some(Step::Lose {
            side,
            hexes,
            count,
            which,
            fighting,
            ..
        }) = self.state.steps.front_mut()
        else {
            unreachable!("checked: a loss is owed");
        };
        let (side, which, fighting) = (*side, *which, *fighting);
        *count -= men.total();
        let rest: Vec<Hex> = hexes
            .as_slice()
            .iter()
            .copied()
            .filter(|h| *h != hex)
            .collect();
        *hexes = Hexes::from_slice(&rest).expect("fewer than before");
        if *count == 0 || rest.is_empty() {
            self.state.steps.pop_front();
        }
        self.kill(hex, side, which, men, fighting, events);
    }

    fn advance(&mut self, into: Hex, parts: Parts, events: &mut Vec<Event<G>>) {
        let Some(Step::Advance { side, .. }) = self.state.steps.pop_front() else {
            unreachable!("checked: an advance is owed");
        };
        for (hex, men) in parts.as_slice() {
            let st = self.state.stack_mut(*hex, side);
            st.armed.men = st.armed.men.minus(*men).expect("checked");
            self.state.tidy(*hex, side);
        }
        let dst = self.state.stack_mut(into, side);
        dst.armed.men = dst.armed.men.plus(parts.men());
        dst.marks.attacked = true;
        events.push(Event::Advanced { into, from: parts });
        if self
            .stack(into, side.other())
            .is_some_and(Stack::capturable)
        {
            self.capture(into, side, events);
        }
    }

    fn rout_move(&mut self, from: Hex, to: Option<RoutTo>, events: &mut Vec<Event<G>>) {
        let Some(Step::Rout { side, why, .. }) = self.state.steps.pop_front() else {
            unreachable!("checked: a rout move is owed");
        };
        let st = self.state.stack_mut(from, side);
        let band = st.routing;
        let mut points = 0;
        match to {
            None => {
                st.marks.rout_moved = true;
            }
            Some(dest) => {
                st.routing = Band::NONE;
                self.state.tidy(from, side);
                match dest {
                    RoutTo::Hex(h) => {
                        let d = self.state.stack_mut(h, side);
                        d.routing = d.routing.plus(band);
                        d.marks.rout_moved = true;
                        if why == RoutWhy::Panic {
                            d.marks.rally_rolled = true;
                        }
                    }
                    RoutTo::Off => {}
                    RoutTo::Surrender(h) => {
                        let enemy = side.other();
                        let d = self.state.stack_mut(h, enemy);
                        d.prisoners = d.prisoners.plus(band);
                        points = 2 * u32::from(band.men.total()) + 5 * u32::from(band.officers);
                        self.state.vp[enemy.index()] += points;
                    }
                }
            }
        }
        events.push(Event::RoutMoved {
            side,
            from,
            to,
            band,
            points,
        });
    }

    fn end_phase(&mut self, events: &mut Vec<Event<G>>) {
        let side = self.state.active;
        match self.state.phase.next() {
            Some(next) => {
                self.state.phase = next;
                if next == Phase::Rally {
                    self.escape(events);
                }
                events.push(Event::PhaseBegan { phase: next, side });
            }
            None => {
                let groups: Vec<Hex> = self
                    .state
                    .stacks
                    .iter()
                    .filter(|s| s.side == side && !s.routing.is_empty() && !s.marks.rout_moved)
                    .map(|s| s.hex)
                    .collect();
                for from in groups {
                    self.state.steps.push_back(Step::Rout {
                        side,
                        from,
                        why: RoutWhy::RallyEnd,
                    });
                }
                self.state.steps.push_back(Step::EndTurn);
            }
        }
    }

    /// Prisoners with no man of the holding side in their hex escape,
    /// unarmed (R78).
    fn escape(&mut self, events: &mut Vec<Event<G>>) {
        let loose: Vec<(Hex, Side)> = self
            .state
            .stacks
            .iter()
            .filter(|s| !s.prisoners.is_empty() && s.men() == 0)
            .map(|s| (s.hex, s.side))
            .collect();
        for (hex, holder) in loose {
            let st = self.state.stack_mut(hex, holder);
            let band = std::mem::take(&mut st.prisoners);
            st.marks.prisoners_marched = Band::NONE;
            self.state.tidy(hex, holder);
            let own = holder.other();
            let st = self.state.stack_mut(hex, own);
            st.unarmed = st.unarmed.plus(band);
            events.push(Event::Escaped {
                hex,
                side: own,
                band,
            });
        }
    }

    /// Runs the steps at the front that need no decision, or have one
    /// possible answer (R64), until one waits for its player.
    fn run_steps(&mut self, events: &mut Vec<Event<G>>) {
        while let Some(step) = self.state.steps.front().copied() {
            match step {
                Step::Lose {
                    side,
                    hexes,
                    count,
                    which,
                    fighting,
                    ..
                } => {
                    let mut pools = self.loss_pools(side, &hexes, which, fighting);
                    pools.retain(|(_, m)| !m.is_empty());
                    let total: u16 = pools.iter().map(|(_, m)| m.total()).sum();
                    if count == 0 || pools.is_empty() {
                        self.state.steps.pop_front();
                    } else if total <= count {
                        self.state.steps.pop_front();
                        for (hex, men) in pools {
                            self.kill(hex, side, which, men, fighting, events);
                        }
                    } else if pools.len() == 1 && (pools[0].1.inf == 0 || pools[0].1.cav == 0) {
                        self.state.steps.pop_front();
                        let (hex, pool) = pools[0];
                        self.kill(
                            hex,
                            side,
                            which,
                            pool.take_infantry_first(count),
                            fighting,
                            events,
                        );
                    } else if pools.len() < hexes.as_slice().len() {
                        // Hexes with nobody left to lose are dropped.
                        let live: Vec<Hex> = pools.iter().map(|(h, _)| *h).collect();
                        if let Some(Step::Lose { hexes, .. }) = self.state.steps.front_mut() {
                            *hexes = Hexes::from_slice(&live).expect("fewer than before");
                        }
                    } else {
                        return;
                    }
                }
                Step::Fate {
                    losers,
                    hexes,
                    fate,
                } => {
                    self.state.steps.pop_front();
                    let mut routs = Vec::new();
                    for hex in hexes.as_slice() {
                        let Some(st) = self.stack(*hex, losers) else {
                            continue;
                        };
                        if st.armed.is_empty() {
                            continue;
                        }
                        let band = st.armed;
                        match fate {
                            Fate::Surrender => {
                                let st = self.state.stack_mut(*hex, losers);
                                st.armed = Band::NONE;
                                st.marks.crew = Men::NONE;
                                st.marks.marched = Band::NONE;
                                self.state.tidy(*hex, losers);
                                let winner = losers.other();
                                let w = self.state.stack_mut(*hex, winner);
                                w.prisoners = w.prisoners.plus(band);
                                let points =
                                    2 * u32::from(band.men.total()) + 5 * u32::from(band.officers);
                                self.state.vp[winner.index()] += points;
                                events.push(Event::Surrendered {
                                    hex: *hex,
                                    side: losers,
                                    band,
                                    points,
                                });
                            }
                            Fate::Rout => {
                                self.rout_formation(*hex, losers, events);
                                routs.push(Step::Rout {
                                    side: losers,
                                    from: *hex,
                                    why: RoutWhy::Melee,
                                });
                            }
                            Fate::Slaughter => {
                                self.kill(*hex, losers, Which::Armed, band.men, false, events);
                            }
                        }
                    }
                    for step in routs.into_iter().rev() {
                        self.state.steps.push_front(step);
                    }
                }
                Step::Rout { side, from, why } => {
                    let moved = self.stack(from, side).is_none_or(|s| {
                        s.routing.is_empty() || (why == RoutWhy::RallyEnd && s.marks.rout_moved)
                    });
                    if moved {
                        self.state.steps.pop_front();
                        continue;
                    }
                    let options = self.rout_options(side, from);
                    match options.len() {
                        0 => self.rout_move(from, None, events),
                        1 => self.rout_move(from, Some(options[0]), events),
                        _ => return,
                    }
                }
                Step::Advance { side, into, from } => {
                    let survivors: Vec<(Hex, Men)> = from
                        .as_slice()
                        .iter()
                        .filter_map(|h| self.stack(*h, side).map(|s| (*h, s.fighting())))
                        .filter(|(_, m)| !m.is_empty())
                        .collect();
                    let targets = into.as_slice();
                    let (least, most) = self.advance_range(side, targets[0], from.as_slice());
                    if survivors.is_empty() || most == 0 {
                        self.state.steps.pop_front();
                        continue;
                    }
                    let total: u16 = survivors.iter().map(|(_, m)| m.total()).sum();
                    let one_way = least == most
                        && (most == total
                            || (survivors.len() == 1
                                && (survivors[0].1.inf == 0 || survivors[0].1.cav == 0)));
                    if targets.len() == 1 && one_way {
                        let parts = self.advance_parts(side, from.as_slice(), most);
                        self.advance(targets[0], parts, events);
                    } else {
                        return;
                    }
                }
                Step::EndTurn => {
                    self.state.steps.pop_front();
                    self.end_turn(events);
                }
                Step::LoseInRing {
                    side,
                    counter,
                    count,
                } => {
                    let men = G::men(self, side, counter);
                    if count == 0 || men.is_empty() {
                        self.state.steps.pop_front();
                    } else if men.total() <= count || men.inf == 0 || men.cav == 0 {
                        self.state.steps.pop_front();
                        let dead = men.take_infantry_first(count.min(men.total()));
                        G::kill(self, side, counter, dead, events);
                    } else {
                        return;
                    }
                }
            }
        }
    }

    /// `n` men of those who fought in `from`, infantry first, hex by hex:
    /// the listed free advance of `n` men (R77).
    pub(crate) fn advance_parts(&self, side: Side, from: &[Hex], n: u16) -> Parts {
        let mut left = n;
        let mut parts = Vec::new();
        for hex in from {
            if left == 0 {
                break;
            }
            let pool = self.stack(*hex, side).map_or(Men::NONE, Stack::fighting);
            let men = pool.take_infantry_first(left.min(pool.total()));
            if !men.is_empty() {
                parts.push((*hex, men));
                left -= men.total();
            }
        }
        Parts::from_slice(&parts).expect("at most six hexes")
    }

    /// Ends the player turn (R64): marks are cleared; the battle ends after
    /// its last game turn, when a side has no armed men, or with a captured
    /// flag under `capture_the_flag`; otherwise the other side's turn
    /// begins.
    fn end_turn(&mut self, events: &mut Vec<Event<G>>) {
        for st in &mut self.state.stacks {
            st.marks = Default::default();
        }
        if let Some(g) = self.state.grid.as_deref_mut() {
            g.end_turn();
        }
        let s = &self.state;
        let reason = if self.battle.switches.capture_the_flag && s.flag_taken {
            Some(EndReason::FlagCaptured)
        } else if let Some(side) = [s.active, s.active.other()]
            .into_iter()
            .find(|side| s.armed_men(*side) == 0)
        {
            Some(EndReason::NoArmedMen(side))
        } else if s.active != s.first && s.turn >= self.battle.turns {
            Some(EndReason::Turns)
        } else {
            None
        };
        self.state.flag_taken = false;
        if let Some(reason) = reason {
            let [a, b] = self.state.vp;
            let outcome = match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::Won(Side(0)),
                std::cmp::Ordering::Less => Outcome::Won(Side(1)),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            self.state.ending = Some((outcome, reason));
            self.state.steps.clear();
            events.push(Event::Ended {
                outcome,
                reason,
                vp: self.state.vp,
            });
            return;
        }
        let next = self.state.active.other();
        let new_turn = next == self.state.first;
        if new_turn {
            self.state.turn += 1;
        }
        self.state.active = next;
        self.state.phase = Phase::Cannonade;
        events.push(Event::TurnBegan {
            turn: self.state.turn,
            side: next,
        });
        if new_turn {
            // Each game turn opens with the ring's Orders phase (R47).
            G::begin_turn(self, events);
        }
    }
}

/// The dice a shot rolls (R67, R68).
struct FireRolls {
    roll: u8,
    friendly: Vec<(u8, Option<u8>)>,
}

fn d6(dice: &mut Dice) -> Result<u8, CommandError> {
    dice.d6().map_err(|out| CommandError {
        ruling: 30,
        reason: out.reason(),
    })
}

fn roll_fire(dice: &mut Dice, plan: &FirePlan) -> Result<FireRolls, CommandError> {
    let roll = d6(dice)?;
    let mut friendly = Vec::with_capacity(plan.friendly.len());
    for _ in &plan.friendly {
        let hit = d6(dice)?;
        let loss = if hit <= 2 { Some(d6(dice)?) } else { None };
        friendly.push((hit, loss));
    }
    Ok(FireRolls { roll, friendly })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples;

    /// R80: routers with no hex to go to and no enemy formation next to them
    /// stay where they are.
    #[test]
    fn r80_routers_with_nowhere_to_go_and_nobody_to_surrender_to_stay() {
        let h = |n: &str| n.parse::<Hex>().unwrap();
        let mut setup = samples::field(
            6,
            6,
            vec![
                samples::pieces(0, "D4", 5, 0, 0),
                samples::pieces(1, "F6", 5, 0, 0),
            ],
            vec![(h("B1"), crate::setup::Terrain::Water)],
        );
        // Red's home is the north edge, so A1 is not on it.
        setup.sides[0].home = crate::hex::Edge::N;
        let mut game = Game::new(&setup, Dice::seeded(1)).unwrap();
        let red = Side(0);
        // Red routers in the corner A1; Blue unarmed men in A2, the only
        // other neighbour: enemy men, but no formation.
        game.state.stack_mut(h("A1"), red).routing = Band {
            men: Men::new(3, 0),
            officers: 0,
        };
        game.state.stack_mut(h("A2"), red.other()).unarmed = Band {
            men: Men::new(2, 0),
            officers: 0,
        };
        assert!(game.rout_options(red, h("A1")).is_empty());
        game.state.steps.push_back(Step::Rout {
            side: red,
            from: h("A1"),
            why: RoutWhy::RallyEnd,
        });
        let mut events = Vec::new();
        game.run_steps(&mut events);
        assert_eq!(
            game.describe(&events[0]),
            "Red's routers in A1 (3 infantry) have nowhere to go and stay (R80)"
        );
        let st = game.stack(h("A1"), red).unwrap();
        assert_eq!(st.routing.men, Men::new(3, 0));
        assert!(st.marks.rout_moved);
        assert!(game.state.steps.is_empty());
    }
}
