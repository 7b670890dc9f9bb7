//! The legal commands of a side, kept few enough to list and search. Most
//! are listed one by one; two kinds carry counts and are listed one a
//! family ([`Game::listed_as`]):
//! - a march is listed once for each hex it leaves, hex it ends in and pace:
//!   the slow family (anything with infantry, a cannon, baggage, prisoners
//!   or unarmed men: 1 hex) and the fast family (cavalry and officers: up to
//!   2 hexes). The listed march moves as much of the family as may go,
//!   infantry first where a limit cuts it (R62); any part of it, by any path
//!   to the same hex, is one of its family;
//! - a free advance is listed once for each number of men, infantry first,
//!   hex by hex (R77); any other choice of the same number is one of its
//!   family.
//!
//! A shot's named crew is one of the family of the shot with the crew the
//! rules would mark (R65), and attackers named in another order are the
//! same attack.

use rand::Rng;
use sandtable_core::game::Legal;

use crate::command::{Command, Hexes, sorted};
use crate::game::{Far, Free, Game, Stack, is_cover};
use crate::hex::Hex;
use crate::men::{Men, Pick};
use crate::off_map::OffMapState;
use crate::off_map_rules::OffMapRules;
use crate::terms::{Band, Group, Phase, Side, Step};

/// Most stacks of a side that [`Game::random_command`] draws a March
/// command from slot by slot; a side with more is drawn from its list.
pub const DRAW_STACKS: usize = 64;

/// Empty slots [`Game::random_command`] draws before it lists the March
/// decision and draws from the list instead: where one slot in ten holds a
/// march that is about one draw in 160; in random battles of the open field
/// four slots in five hold one (1.25 slots drawn a March decision).
pub const DRAW_TRIES: usize = 48;

/// A march's pace family (R61).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pace {
    Slow,
    Fast,
}

impl<G: OffMapRules> Game<G> {
    /// Every legal command of `side` now, one a family (see the module
    /// doc), in a stable order; empty when `side` owes no decision.
    pub fn legal_commands_into(&self, side: Side, out: &mut Vec<Legal<Command<G>>>) {
        out.clear();
        if self.state.grid.as_deref().is_some_and(|g| g.waits()) {
            out.extend(G::legal(self, side).into_iter().map(|command| Legal {
                command: Command::Grid(command),
                cost: 0,
                piece: None,
                at: None,
            }));
            return;
        }
        if self.decider() != Some(side) {
            return;
        }
        if let Some(step) = self.state.steps.front() {
            self.owed_into(step, out);
            return;
        }
        match self.state.phase {
            Phase::Cannonade => self.fire_into(side, out),
            Phase::March => self.marches_into(side, out),
            Phase::Melee => self.attacks_into(side, out),
            Phase::Rally => self.rallies_into(side, out),
        }
        if self.state.grid.is_some() {
            G::commands_into(self, side, out);
        }
        // What `plan` asks of an end once the side decides and owes no
        // step (R64, R79).
        if self.rally_owed().is_none() {
            out.push(Legal {
                command: Command::End,
                cost: 0,
                piece: None,
                at: None,
            });
        }
    }

    /// Every legal command of `side` now, in a new list.
    pub fn legal_commands(&self, side: Side) -> Vec<Legal<Command<G>>> {
        let mut out = Vec::new();
        self.legal_commands_into(side, &mut out);
        out
    }

    fn owed_into(&self, step: &Step, out: &mut Vec<Legal<Command<G>>>) {
        match *step {
            Step::Lose {
                side,
                hexes,
                count,
                which,
                fighting,
                ..
            } => {
                let pools = self.loss_pools(side, &hexes, which, fighting);
                let all: u16 = pools.iter().map(|(_, m)| m.total()).sum();
                for (hex, pool) in &pools {
                    let others = all - pool.total();
                    let lo = count.saturating_sub(others).max(1);
                    let hi = count.min(pool.total());
                    for t in lo..=hi {
                        let inf_lo = t.saturating_sub(pool.cav);
                        let inf_hi = t.min(pool.inf);
                        for inf in inf_lo..=inf_hi {
                            out.push(Legal {
                                command: Command::Lose {
                                    hex: *hex,
                                    men: Men::new(inf, t - inf),
                                },
                                cost: 0,
                                piece: Some(hex.spot()),
                                at: Some(hex.spot()),
                            });
                        }
                    }
                }
            }
            Step::Advance { side, into, from } => {
                for hex in into.as_slice() {
                    let (least, most) = self.advance_range(side, *hex, from.as_slice());
                    for n in least.max(1)..=most {
                        let parts = self.advance_parts(side, from.as_slice(), n);
                        out.push(Legal {
                            command: Command::Advance {
                                into: *hex,
                                from: parts,
                            },
                            cost: 0,
                            piece: parts.as_slice().first().map(|(h, _)| h.spot()),
                            at: Some(hex.spot()),
                        });
                    }
                }
            }
            Step::Rout { side, from, .. } => {
                for to in self.rout_options(side, from) {
                    let at = match to {
                        crate::command::RoutTo::Hex(h) | crate::command::RoutTo::Surrender(h) => {
                            Some(h.spot())
                        }
                        crate::command::RoutTo::Off => None,
                    };
                    out.push(Legal {
                        command: Command::Rout { from, to },
                        cost: 0,
                        piece: Some(from.spot()),
                        at,
                    });
                }
            }
            Step::Fate { .. } | Step::EndTurn => {}
            Step::LoseInRing {
                side,
                counter,
                count,
            } => {
                let pool = G::men(self, side, counter);
                let t = count.min(pool.total());
                for inf in t.saturating_sub(pool.cav)..=t.min(pool.inf) {
                    out.push(Legal {
                        command: Command::LoseInRing {
                            counter,
                            men: Men::new(inf, t - inf),
                        },
                        cost: 0,
                        piece: None,
                        at: None,
                    });
                }
            }
        }
    }

    fn fire_into(&self, side: Side, out: &mut Vec<Legal<Command<G>>>) {
        let range = u16::from(self.battle.switches.cannon_range);
        for st in
            self.state.stacks.iter().filter(|s| {
                s.side == side && s.cannon && !s.marks.fired && s.armed.men.total() >= 4
            })
        {
            for foe in self.state.stacks.iter().filter(|f| f.side != side) {
                let d = st.hex.distance(foe.hex);
                if d == 0 || d > range {
                    continue;
                }
                let formation = foe.is_formation();
                let routers = !foe.routing.men.is_empty();
                let mut push = |routers| {
                    out.push(Legal {
                        command: Command::Fire {
                            cannon: st.hex,
                            target: foe.hex,
                            routers,
                            crew: None,
                        },
                        cost: 0,
                        piece: Some(st.hex.spot()),
                        at: Some(foe.hex.spot()),
                    })
                };
                if formation || routers {
                    push(false);
                }
                if formation && routers {
                    push(true);
                }
            }
        }
    }

    fn marches_into(&self, side: Side, out: &mut Vec<Legal<Command<G>>>) {
        for st in self.state.stacks.iter().filter(|s| s.side == side) {
            let f = st.free();
            let (slow, fast) = (f.has_slow(), f.has_fast());
            if !slow && !fast {
                continue;
            }
            // Into an empty hex of passable terrain nothing binds a group
            // but its own make-up: the listed march there differs only in
            // its path, and is worked out once a stack and pace (`None`
            // for a pace with nothing free to march).
            let into_empty = [
                slow.then(|| self.empty_pick(st, &f, 1, Pace::Slow)),
                fast.then(|| self.empty_pick(st, &f, 1, Pace::Fast)),
            ];
            let adjacent = self.battle.adjacent(st.hex);
            for (d, index) in adjacent.as_slice().iter().zip(adjacent.indices()) {
                let index = usize::from(*index);
                let empty = !self.battle.impassable_at(index) && self.state.empty_at(index);
                for (pace, into_empty) in [(Pace::Slow, into_empty[0]), (Pace::Fast, into_empty[1])]
                {
                    let Some(into_empty) = into_empty else {
                        continue;
                    };
                    let pick = if empty {
                        into_empty
                    } else {
                        self.march_pick(st, &f, *d, &[], pace).map(|(pick, _)| pick)
                    };
                    if let Some(pick) = pick {
                        out.push(Legal {
                            command: Command::March {
                                from: st.hex,
                                path: Hexes::one(*d),
                                pick,
                            },
                            cost: 1,
                            piece: Some(st.hex.spot()),
                            at: Some(d.spot()),
                        });
                    }
                }
            }
            if fast {
                let mut far_empty = None;
                for far in self.battle.ring(st.hex) {
                    if let Some((pick, mid)) = self.far_pick(st, &f, far, &mut far_empty) {
                        let command = Command::March {
                            from: st.hex,
                            path: Hexes::two(mid, far.hex),
                            pick,
                        };
                        out.push(march_legal(st.hex, far.hex, 2, command));
                    }
                }
            }
        }
    }

    /// The listed march of `st`'s `pace` family into its neighbour `to`
    /// (map index `index`), if any: what [`Game::marches_into`] lists there,
    /// worked out alone.
    fn near_march(
        &self,
        st: &Stack,
        f: &Free,
        to: Hex,
        index: u16,
        pace: Pace,
    ) -> Option<Command<G>> {
        let index = usize::from(index);
        let pick = if !self.battle.impassable_at(index) && self.state.empty_at(index) {
            self.empty_pick(st, f, 1, pace)
        } else {
            self.march_pick(st, f, to, &[], pace).map(|(pick, _)| pick)
        }?;
        Some(Command::March {
            from: st.hex,
            path: Hexes::one(to),
            pick,
        })
    }

    /// The pick and the hex between of the listed march of `st`'s fast
    /// family into `far`, two hexes away, if any. `far_empty` keeps the pick
    /// into an empty hex that the group may end in by a hex between that it
    /// may pass, the same for every such hex: a caller that lists them all
    /// keeps it between calls.
    #[inline(always)]
    fn far_pick(
        &self,
        st: &Stack,
        f: &Free,
        far: &Far,
        far_empty: &mut Option<Option<Option<Pick>>>,
    ) -> Option<(Option<Pick>, Hex)> {
        let mounted = f.men.cav > 0;
        let enemy = st.side.other();
        let to = far.hex;
        let index = usize::from(far.index);
        let quick = !self.battle.impassable_at(index)
            && self.state.empty_at(index)
            && !(mounted && is_cover(self.battle.terrain_at(index)));
        let mid = if quick {
            far.via_indexed().find(|&(_, i)| {
                !self.battle.impassable_at(i)
                    && self.state.stack_at(i, enemy).is_none()
                    && !(mounted && is_cover(self.battle.terrain_at(i)))
            })
        } else {
            None
        };
        match mid {
            Some(m) => far_empty
                .get_or_insert_with(|| self.empty_pick(st, f, 2, Pace::Fast))
                .map(|pick| (pick, m.0)),
            None => self
                .march_pick(st, f, to, far.via(), Pace::Fast)
                .map(|(pick, mid)| (pick, far.via()[usize::from(mid)])),
        }
    }

    /// One legal command of `side`, each command of its list
    /// ([`Game::legal_commands_into`]) as likely as any other, drawn with
    /// `rng`; `None` when `side` owes no decision. What a random player and
    /// a random playout play.
    ///
    /// A March decision is drawn without listing it (it is most of a random
    /// battle): each listed march is one slot of the stack it leaves, a
    /// neighbour and a pace or a hex two away, and the end one more slot. A
    /// slot drawn at random and drawn again until it holds a march (or is
    /// the end) is each listed command with the same chance. After
    /// [`DRAW_TRIES`] empty slots, or for a side of more than
    /// [`DRAW_STACKS`] stacks, the list is made and drawn from, each command
    /// equally likely too.
    pub fn random_command<R: Rng + ?Sized>(&self, side: Side, rng: &mut R) -> Option<Command<G>> {
        if self.state.grid.as_deref().is_some_and(|g| g.waits()) {
            let legal = G::legal(self, side);
            return (!legal.is_empty())
                .then(|| Command::Grid(legal[rng.random_range(0..legal.len())]));
        }
        if self.decider() != Some(side) {
            return None;
        }
        // A battle with the grid lists its March decision, whose entries
        // and marches off the slots do not hold.
        if self.state.steps.is_empty()
            && self.state.phase == Phase::March
            && self.state.grid.is_none()
            && let Some(command) = self.draw_march(side, rng, DRAW_TRIES)
        {
            return Some(command);
        }
        // Room for the short lists of the other phases without growing.
        let mut legal = Vec::with_capacity(16);
        self.legal_commands_into(side, &mut legal);
        (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())].command)
    }

    /// A March command of `side` drawn slot by slot (see
    /// [`Game::random_command`]); `None` when `tries` slots hold nothing.
    fn draw_march<R: Rng + ?Sized>(
        &self,
        side: Side,
        rng: &mut R,
        tries: usize,
    ) -> Option<Command<G>> {
        // Each stack with something free to march, by its index (a map of
        // 100 x 100 hexes holds at most 20,000 stacks), and its slots.
        let mut stacks = [(0u16, 0u16); DRAW_STACKS];
        let mut n = 0;
        let end = u32::from(self.rally_owed().is_none());
        let mut total = end;
        for (i, st) in self.state.stacks.iter().enumerate() {
            if st.side != side {
                continue;
            }
            let slots = Self::march_slots(&st.free());
            if slots == 0 {
                continue;
            }
            if n == DRAW_STACKS {
                return None;
            }
            stacks[n] = (i as u16, slots as u16);
            n += 1;
            total += slots;
        }
        if total == 0 {
            return None;
        }
        for _ in 0..tries {
            let mut r = rng.random_range(0..total);
            if r < end {
                return Some(Command::End);
            }
            r -= end;
            let Some(&(i, _)) = stacks[..n].iter().find(|(_, slots)| {
                let here = r < u32::from(*slots);
                if !here {
                    r -= u32::from(*slots);
                }
                here
            }) else {
                unreachable!("the slots add up to the total")
            };
            if let Some(command) = self.march_in_slot(&self.state.stacks[usize::from(i)], r) {
                return Some(command);
            }
        }
        None
    }

    /// How many slots a stack's marches have (see [`Game::random_command`]):
    /// six neighbours once a pace that has something free to march, and
    /// twelve hexes two away where the fast family has. A hex at the map's
    /// edge has fewer: the slots past them hold nothing, which spares the
    /// count a look at the map.
    fn march_slots(f: &Free) -> u32 {
        let (slow, fast) = (u32::from(f.has_slow()), u32::from(f.has_fast()));
        6 * (slow + fast) + 12 * fast
    }

    /// The listed march in a stack's slot `r` (below
    /// [`Game::march_slots`]), if it holds one: the neighbours first, the
    /// slow pace before the fast in each, in the order of the list, then
    /// the hexes two away.
    fn march_in_slot(&self, st: &Stack, r: u32) -> Option<Command<G>> {
        let f = st.free();
        let (slow, fast) = (f.has_slow(), f.has_fast());
        let paces = u32::from(slow) + u32::from(fast);
        if r < 6 * paces {
            let k = (r / paces) as usize;
            let pace = match (slow, fast) {
                (true, true) if r % 2 == 1 => Pace::Fast,
                (true, _) => Pace::Slow,
                _ => Pace::Fast,
            };
            let adjacent = self.battle.adjacent(st.hex);
            let (to, index) = (adjacent.as_slice().get(k)?, adjacent.indices()[k]);
            return self.near_march(st, &f, *to, index, pace);
        }
        let far = self.battle.ring(st.hex).get((r - 6 * paces) as usize)?;
        let (pick, mid) = self.far_pick(st, &f, far, &mut None)?;
        Some(Command::March {
            from: st.hex,
            path: Hexes::two(mid, far.hex),
            pick,
        })
    }

    /// The listed march of a family: from `st`'s hex to `to` at `pace`, as
    /// much as may go (see the module doc); `via` names the hexes between
    /// for a hex two away, and is empty for a neighbour. `None` when no
    /// march of the family is legal. This is the list's own reading of R61,
    /// R62, R63 and R69-R71, kept quick for searches; the property tests
    /// hold it to `check`.
    fn march_rep(
        &self,
        st: &Stack,
        f: &Free,
        to: Hex,
        via: &[Hex],
        pace: Pace,
    ) -> Option<Command<G>> {
        let (pick, mid) = self.march_pick(st, f, to, via, pace)?;
        Some(Command::March {
            from: st.hex,
            path: if via.is_empty() {
                Hexes::one(to)
            } else {
                Hexes::two(via[usize::from(mid)], to)
            },
            pick,
        })
    }

    /// As [`Game::march_rep`], in a few words rather than a whole command
    /// for the caller to take apart: the listed march's pick, and which hex
    /// of `via` its path passes (0 for a neighbour).
    fn march_pick(
        &self,
        st: &Stack,
        f: &Free,
        to: Hex,
        via: &[Hex],
        pace: Pace,
    ) -> Option<(Option<Pick>, u8)> {
        let side = st.side;
        let enemy = side.other();
        let distance = if via.is_empty() { 1 } else { 2 };
        if pace == Pace::Slow && distance == 2 {
            return None;
        }
        let passable = |h: Hex| {
            self.battle.terrain(h).cover() != crate::setup::Cover::Impassable
                && !self.state.formation_at(h, enemy)
        };
        if self.battle.terrain(to).cover() == crate::setup::Cover::Impassable {
            return None;
        }
        // A stack of the enemy that is no formation holds pieces to capture.
        let (own, foe) = self.state.both(to, side);
        if foe.is_some_and(Stack::is_formation) {
            return None;
        }
        let meets = Meets {
            own_items: own.map_or(0, |o| u8::from(o.cannon) + u8::from(o.baggage)),
            foe_items: foe.map_or(0, |o| u8::from(o.cannon) + u8::from(o.baggage)),
            own_men: own.map_or(0, |o| o.armed.men.total()),
            foe: foe.is_some(),
        };
        let flag_ok = flag_may_go(st, distance);
        let (group, mid) = match pace {
            Pace::Slow => (slow_group(f, flag_ok, meets)?, 0),
            Pace::Fast => {
                let cav = f.men.cav.min(meets.room(0));
                let mut found = None;
                for cav in [cav, 0] {
                    let Some(group) = fast_group(f, flag_ok, meets, cav) else {
                        continue;
                    };
                    let mounted = cav > 0;
                    if distance == 1 {
                        found = Some((group, 0));
                        break;
                    }
                    if mounted && is_cover(self.battle.terrain(to)) {
                        continue;
                    }
                    let between = via.iter().position(|m| {
                        passable(*m)
                            && !self.stack(*m, enemy).is_some_and(Stack::capturable)
                            && !(mounted && is_cover(self.battle.terrain(*m)))
                    });
                    if let Some(m) = between {
                        found = Some((group, m as u8));
                        break;
                    }
                }
                found?
            }
        };
        Some((self.pick_of(st, f, &group, flag_ok), mid))
    }

    /// [`Game::march_pick`] into an empty hex that the march may enter:
    /// passable, and for a hex two away one that the pace's group may end
    /// in by a hex between that it may pass (the caller has looked). Only
    /// the group's own make-up binds it there, so nothing of the map is
    /// looked up.
    fn empty_pick(
        &self,
        st: &Stack,
        f: &Free,
        distance: usize,
        pace: Pace,
    ) -> Option<Option<Pick>> {
        let flag_ok = flag_may_go(st, distance);
        let group = match pace {
            Pace::Slow if distance == 2 => return None,
            Pace::Slow => slow_group(f, flag_ok, Meets::NOTHING)?,
            Pace::Fast => fast_group(
                f,
                flag_ok,
                Meets::NOTHING,
                f.men.cav.min(Meets::NOTHING.room(0)),
            )?,
        };
        Some(self.pick_of(st, f, &group, flag_ok))
    }

    /// The pick naming `group`, or `None` (everything) where the group is
    /// everything in the hex.
    fn pick_of(&self, st: &Stack, f: &Free, group: &Group, flag_ok: bool) -> Option<Pick> {
        let everything = f.whole
            && group.armed == st.armed
            && group.cannon == st.cannon
            && group.baggage == st.baggage
            && group.flag == (st.flags > 0)
            && (group.flag || !flag_ok)
            && group.prisoners == st.prisoners
            && group.unarmed == st.unarmed;
        (!everything).then_some(Pick {
            men: group.armed.men,
            officers: group.armed.officers,
            cannon: group.cannon,
            baggage: group.baggage,
            flag: group.flag,
            prisoners: group.prisoners.heads(),
            unarmed: group.unarmed.heads(),
        })
    }

    fn attacks_into(&self, side: Side, out: &mut Vec<Legal<Command<G>>>) {
        for foe in self
            .state
            .stacks
            .iter()
            .filter(|f| f.side != side && f.is_formation() && !f.marks.defended)
        {
            // The neighbours that may join the attack, in map order of
            // neighbours; each subset of them is one attack (no allocation:
            // this is listed at every Melee decision).
            let mut ready = [Hex::new(0, 0); 6];
            let mut n = 0;
            for h in self.battle.neighbours(foe.hex) {
                if self.stack(*h, side).is_some_and(|s| {
                    s.is_formation() && !s.marks.attacked && !s.fighting().is_empty()
                }) {
                    ready[n] = *h;
                    n += 1;
                }
            }
            for mask in 1u32..(1 << n) {
                let mut picked = [Hex::new(0, 0); 6];
                let mut k = 0;
                for (i, h) in ready[..n].iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        picked[k] = *h;
                        k += 1;
                    }
                }
                let from = Hexes::from_slice(&picked[..k])
                    .expect("at most six")
                    .sorted();
                let command = Command::Attack {
                    target: foe.hex,
                    from,
                };
                if self.plan(side, &command).is_ok() {
                    out.push(Legal {
                        command,
                        cost: 0,
                        piece: Some(from.as_slice()[0].spot()),
                        at: Some(foe.hex.spot()),
                    });
                }
            }
        }
    }

    fn rallies_into(&self, side: Side, out: &mut Vec<Legal<Command<G>>>) {
        for st in self
            .state
            .stacks
            .iter()
            .filter(|s| s.side == side && !s.routing.men.is_empty() && !s.marks.rally_rolled)
        {
            // The hex itself and its neighbours: at most seven.
            let mut withs = [Hex::new(0, 0); 7];
            let mut n = 0;
            if st.is_formation() {
                withs[n] = st.hex;
                n += 1;
            }
            for h in self.battle.neighbours(st.hex) {
                if self.state.formation_at(*h, side) {
                    withs[n] = *h;
                    n += 1;
                }
            }
            for &with in &withs[..n] {
                out.push(Legal {
                    command: Command::Rally {
                        routers: st.hex,
                        with,
                    },
                    cost: 0,
                    piece: Some(st.hex.spot()),
                    at: Some(with.spot()),
                });
            }
        }
    }

    /// The listed command of `command`'s family (see the module doc): the
    /// command itself for commands listed one by one.
    pub fn listed_as(&self, command: &Command<G>) -> Command<G> {
        if let Some(listed) = G::listed_as(self, command) {
            return listed;
        }
        match *command {
            Command::March { from, path, pick } => {
                let (Some(st), Some(to)) =
                    (self.stack(from, self.state.active), path.as_slice().last())
                else {
                    return *command;
                };
                let f = st.free();
                let slow = match pick {
                    None => f.has_slow() || st.cannon || st.baggage,
                    Some(p) => {
                        p.men.inf > 0 || p.cannon || p.baggage || p.prisoners > 0 || p.unarmed > 0
                    }
                };
                let pace = if slow { Pace::Slow } else { Pace::Fast };
                let via: &[Hex] = match self.battle.ring(from).iter().find(|f| f.hex == *to) {
                    Some(far) => far.via(),
                    None if self.battle.neighbours(from).contains(to) => &[],
                    None => return *command,
                };
                self.march_rep(st, &f, *to, via, pace).unwrap_or(*command)
            }
            Command::Fire {
                cannon,
                target,
                routers,
                ..
            } => {
                let formation = self.state.formation_at(target, self.state.active.other());
                Command::Fire {
                    cannon,
                    target,
                    routers: routers && formation,
                    crew: None,
                }
            }
            Command::Attack { target, from } => Command::Attack {
                target,
                from: sorted(from),
            },
            Command::Advance { into, from } => {
                let Some(Step::Advance {
                    side, from: hexes, ..
                }) = self.state.steps.front()
                else {
                    return *command;
                };
                let n = from.men().total();
                let parts = self.advance_parts(*side, hexes.as_slice(), n);
                if parts.men().total() == n {
                    Command::Advance { into, from: parts }
                } else {
                    *command
                }
            }
            _ => *command,
        }
    }
}

/// What a march finds in the hex it ends in: the side's own pieces there,
/// and whether the enemy has a stack there (no formation: pieces to
/// capture).
#[derive(Debug, Clone, Copy)]
struct Meets {
    /// Cannon and baggage of the side there.
    own_items: u8,
    /// Cannon and baggage of the enemy there.
    foe_items: u8,
    /// The side's armed men there.
    own_men: u16,
    /// Whether the enemy has pieces there.
    foe: bool,
}

impl Meets {
    /// An empty hex.
    const NOTHING: Meets = Meets {
        own_items: 0,
        foe_items: 0,
        own_men: 0,
        foe: false,
    };

    /// The armed men that may come in beside those there (R62): 10 in a
    /// hex with a cannon or baggage, else 20; `items` counts the cannon and
    /// baggage coming.
    fn room(self, items: u8) -> u16 {
        let items = self.own_items + self.foe_items + items;
        (if items > 0 { 10u16 } else { 20 }).saturating_sub(self.own_men)
    }
}

/// Whether the stack's flag may go `distance` hexes more this phase (R71).
fn flag_may_go(st: &Stack, distance: usize) -> bool {
    st.flags > 0 && usize::from(st.marks.flag_hexes) + distance <= 2
}

/// The slow family's listed group into a hex that holds `meets`: as much as
/// may go, infantry first, the cannon and baggage only where the hex has
/// room for them (R62, R69, R70); `None` when nothing of the family may go.
fn slow_group(f: &Free, flag_ok: bool, meets: Meets) -> Option<Group> {
    let mut cannon = f.cannon;
    let mut baggage = f.baggage;
    if meets.own_items + meets.foe_items + u8::from(cannon) + u8::from(baggage) > 1
        || meets.own_men > 10
    {
        cannon = false;
        baggage = false;
    }
    let mut men = f.men.take_infantry_first(
        f.men
            .total()
            .min(meets.room(u8::from(cannon) + u8::from(baggage))),
    );
    if cannon && men.total() < 4 {
        cannon = false;
        men = f
            .men
            .take_infantry_first(f.men.total().min(meets.room(u8::from(baggage))));
    }
    let prisoners = if men.is_empty() && f.unarmed.men.is_empty() {
        Band::NONE
    } else {
        f.prisoners
    };
    let group = Group {
        armed: Band {
            men,
            officers: f.officers,
        },
        cannon,
        baggage,
        flag: flag_ok,
        prisoners,
        unarmed: f.unarmed,
    };
    (!(group.is_fast() || (meets.foe && men.is_empty()))).then_some(group)
}

/// The fast family's group of `cav` cavalry with the officers (and the flag
/// where it may go) into a hex that holds `meets`; `None` when it moves
/// nothing, or when it meets the enemy's pieces without a horseman to take
/// them.
fn fast_group(f: &Free, flag_ok: bool, meets: Meets, cav: u16) -> Option<Group> {
    let group = Group {
        armed: Band {
            men: Men::new(0, cav),
            officers: f.officers,
        },
        flag: flag_ok,
        ..Group::default()
    };
    (group.moves_something() && !(meets.foe && cav == 0)).then_some(group)
}

/// A listed march, its cost the hexes it moves.
fn march_legal<G: OffMapRules>(
    from: Hex,
    to: Hex,
    hexes: u16,
    command: Command<G>,
) -> Legal<Command<G>> {
    Legal {
        command,
        cost: hexes,
        piece: Some(from.spot()),
        at: Some(to.spot()),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use sandtable_core::dice::Dice;

    use super::*;
    use crate::hex::Map;
    use crate::offboard::plug::{Command, Game};
    use crate::samples;

    /// Positions of random games of the sample battles: every decision of
    /// `games` games of each, played by drawn commands.
    fn positions(games: u64, mut visit: impl FnMut(&Game, Side)) {
        for (k, setup) in [
            samples::open_field(),
            samples::battle(3),
            samples::brawl(5),
            samples::skirmish(),
        ]
        .iter()
        .enumerate()
        {
            for g in 0..games {
                let seed = 1000 * k as u64 + g;
                let mut game = Game::new(setup, Dice::seeded(seed)).expect("a valid sample");
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while let Some(side) = game.decider() {
                    visit(&game, side);
                    let command = game
                        .random_command(side, &mut rng)
                        .expect("a side that decides has a command");
                    let mut events = Vec::new();
                    game.apply_as(side, &command, &mut events)
                        .expect("a drawn command is legal");
                }
            }
        }
    }

    /// The slots a draw weighs, in order, hold exactly the listed marches in
    /// the list's order, and the end where it is listed: so a slot drawn at
    /// random is each listed command with the same chance.
    #[test]
    fn the_slots_of_a_march_decision_hold_exactly_its_listed_commands() {
        let mut legal = Vec::new();
        let mut checked = 0;
        positions(12, |game, side| {
            if game.state.phase != Phase::March || !game.state.steps.is_empty() {
                return;
            }
            game.legal_commands_into(side, &mut legal);
            let listed: Vec<Command> = legal.iter().map(|l| l.command).collect();
            let mut slotted = Vec::new();
            for st in game.state.stacks.iter().filter(|s| s.side == side) {
                for r in 0..Game::march_slots(&st.free()) {
                    slotted.extend(game.march_in_slot(st, r));
                }
            }
            if game.rally_owed().is_none() {
                slotted.push(Command::End);
            }
            assert_eq!(slotted, listed, "turn {} of a game", game.state.turn);
            checked += 1;
        });
        assert!(
            checked > 1_000,
            "only {checked} March decisions were checked"
        );
    }

    /// Every drawn command is one the list holds, in every phase and for
    /// every owed decision.
    #[test]
    fn a_drawn_command_is_always_a_listed_one() {
        let mut legal = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut draws = 0;
        positions(6, |game, side| {
            game.legal_commands_into(side, &mut legal);
            for _ in 0..4 {
                let drawn = game.random_command(side, &mut rng).expect("a command");
                assert!(
                    legal.iter().any(|l| l.command == drawn),
                    "{drawn} is not listed"
                );
                draws += 1;
            }
            assert_eq!(game.random_command(side.other(), &mut rng), None);
        });
        assert!(draws > 10_000, "only {draws} draws");
    }

    /// Pearson's statistic of `counts` against an even spread.
    fn chi_square(counts: &[u32]) -> f64 {
        let total: u32 = counts.iter().sum();
        let expected = f64::from(total) / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum()
    }

    /// Draws each listed command of the side that decides 1,000 times over
    /// and checks that they come up evenly: Pearson's statistic under the
    /// 0.1% point of its distribution. Returns the commands listed and the
    /// slots weighed.
    fn assert_drawn_evenly(game: &Game, rng: &mut ChaCha8Rng) -> (usize, u32) {
        let side = game.decider().unwrap();
        let legal = game.legal_commands(side);
        let n = legal.len();
        let mut counts = vec![0u32; n];
        for _ in 0..1_000 * n {
            let drawn = game.random_command(side, rng).unwrap();
            let k = legal.iter().position(|l| l.command == drawn).unwrap();
            counts[k] += 1;
        }
        // The 0.1% point of chi-square by Wilson and Hilferty's
        // approximation, good to a few tenths at these degrees.
        let df = (n - 1) as f64;
        let bound = df * (1.0 - 2.0 / (9.0 * df) + 3.0902 * (2.0 / (9.0 * df)).sqrt()).powi(3);
        let stat = chi_square(&counts);
        assert!(
            stat < bound,
            "{n} commands: chi-square {stat:.1} over {bound:.1}: {counts:?}"
        );
        let slots = game
            .state
            .stacks
            .iter()
            .filter(|st| st.side == side)
            .map(|st| Game::march_slots(&st.free()))
            .sum::<u32>()
            + 1;
        (n, slots)
    }

    /// Drawn many times in a March position, each listed command comes up
    /// as often as the others. A draw weighted by stack instead (each stack
    /// as likely, then each of its marches) reads about 23,000 at the first
    /// position.
    #[test]
    fn each_listed_command_is_drawn_as_often_as_any_other() {
        let mut game = Game::new(&samples::open_field(), Dice::seeded(42)).unwrap();
        game.apply(&Command::End).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        // The start of the March, then part of the way through it: marked
        // stacks, stacks that met, fewer slots that hold marches.
        for moves in [0, 1, 1] {
            for _ in 0..moves {
                let side = game.decider().unwrap();
                let march = game.legal_commands(side)[0].command;
                assert_ne!(march, Command::End, "a march is listed first");
                game.apply(&march).unwrap();
            }
            assert_eq!(game.state.phase, Phase::March);
            let (n, _) = assert_drawn_evenly(&game, &mut rng);
            assert!(n >= 30, "a position of {n} commands tells little");
        }
    }

    /// A field where most slots hold nothing: a stack hemmed in by water on
    /// three sides, one in a corner of the map, one of horse in the open.
    fn hemmed_in() -> Game {
        let h = |n: &str| n.parse::<Hex>().unwrap();
        let map = Map {
            columns: 8,
            rows: 8,
        };
        let water: Vec<_> = map
            .neighbours(h("D4"))
            .take(3)
            .map(|n| (n, crate::setup::Terrain::Water))
            .collect();
        let setup = samples::field(
            8,
            8,
            vec![
                samples::pieces(0, "D4", 6, 2, 0),
                samples::pieces(0, "A1", 4, 2, 0),
                samples::pieces(0, "F6", 0, 3, 1),
                samples::pieces(1, "H8", 1, 0, 0),
            ],
            water,
        );
        let mut game = Game::new(&setup, Dice::seeded(1)).unwrap();
        game.apply(&Command::End).unwrap();
        assert_eq!(game.state.phase, Phase::March);
        game
    }

    /// Where many slots are empty (29 of 67) and the draw redraws often,
    /// each listed command still comes up as often as the others. A draw
    /// that took the next slot of the stack after an empty one, instead of
    /// drawing again, reads about 44,000 here.
    #[test]
    fn a_draw_that_redraws_often_stays_even() {
        let game = hemmed_in();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (n, slots) = assert_drawn_evenly(&game, &mut rng);
        assert!(
            3 * (slots as usize - n) >= slots as usize,
            "{n} commands in {slots} slots: too few empty slots to redraw"
        );
    }

    /// A draw that finds no march in its tries gives way to the list, and a
    /// side of more stacks than a draw weighs is drawn from the list too.
    #[test]
    fn a_draw_that_finds_nothing_draws_from_the_list() {
        // Foot and horse ringed by water: 24 slots, all empty, and the end.
        let h = |n: &str| n.parse::<Hex>().unwrap();
        let map = Map {
            columns: 7,
            rows: 7,
        };
        let water = map
            .neighbours(h("D4"))
            .map(|n| (n, crate::setup::Terrain::Water))
            .collect();
        let ringed = samples::field(
            7,
            7,
            vec![
                samples::pieces(0, "D4", 5, 3, 0),
                samples::pieces(1, "G7", 1, 0, 0),
            ],
            water,
        );
        let mut game = Game::new(&ringed, Dice::seeded(1)).unwrap();
        game.apply(&Command::End).unwrap();
        let side = game.decider().unwrap();
        let st = game.stack(h("D4"), side).unwrap();
        assert_eq!(Game::march_slots(&st.free()), 24);
        let listed: Vec<Command> = game
            .legal_commands(side)
            .iter()
            .map(|l| l.command)
            .collect();
        assert_eq!(listed, [Command::End]);
        // Each try finds the end once in 25: 48 empty tries in a row come
        // about one draw in seven.
        let (mut found, mut missed) = (0, 0);
        for seed in 0..300 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            match game.draw_march(side, &mut rng, DRAW_TRIES) {
                Some(command) => {
                    assert_eq!(command, Command::End);
                    found += 1;
                }
                None => missed += 1,
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            assert_eq!(game.random_command(side, &mut rng), Some(Command::End));
        }
        assert!(found > 200 && missed > 10, "found {found}, missed {missed}");

        let mut game = Game::new(&samples::open_field(), Dice::seeded(42)).unwrap();
        game.apply(&Command::End).unwrap();
        let side = game.decider().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        assert!(game.draw_march(side, &mut rng, DRAW_TRIES).is_some());
        let many = samples::field(
            16,
            12,
            (0..=DRAW_STACKS)
                .map(|i| {
                    let hex = Hex::new((i % 16) as u8, (i / 16) as u8);
                    samples::pieces(0, &hex.to_string(), 1, 0, 0)
                })
                .chain([samples::pieces(1, "P12", 1, 0, 0)])
                .collect(),
            vec![],
        );
        let mut game = Game::new(&many, Dice::seeded(1)).unwrap();
        while game.state.phase != Phase::March {
            game.apply(&Command::End).unwrap();
        }
        let side = game.decider().unwrap();
        assert_eq!(game.draw_march(side, &mut rng, DRAW_TRIES), None);
        let legal = game.legal_commands(side);
        let drawn = game.random_command(side, &mut rng).unwrap();
        assert!(legal.iter().any(|l| l.command == drawn));
    }
}
