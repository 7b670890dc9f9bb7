//! Checking and applying commands (R64-R81): every command is checked in
//! full into a plan before anything changes, its dice are rolled on a copy
//! of the dice, and only then is the state changed; a refusal names its
//! ruling and changes nothing. The steps a command sets going (losses, the
//! losers' fate, rout moves, the free advance, the end of the player turn)
//! run at once where they need no decision or have one possible answer
//! (R64), and wait for their player otherwise.

use sandtable_core::dice::Dice;

use crate::command::CommandError;
use crate::command::refuse;
use crate::command::{Command, Hexes, Parts, RoutTo};
use crate::event::{Event, band_words};
use crate::game::{Game, Stack, is_cover};
use crate::hex::{Hex, between};
use crate::men::{Men, Pick};
use crate::plans::AttackPlan;
use crate::plans::FirePlan;
use crate::plans::Plan;
use crate::setup::{Cover, EvenRow, HalfRound, MeleeResult};
use crate::tables::RallyResult;
use crate::tables::casualties;
use crate::tables::density_modifier;
use crate::tables::rally_result;
use crate::tables::range_modifier;
use crate::tables::ratio_row;
use crate::terms::Group;
use crate::terms::{Band, Cause, EndReason, Fate, Outcome, Phase, RoutWhy, Side, Step, Which};

impl Game {
    // ------------------------------------------------------------ checking

    /// Checks a command of `side` in full, changing nothing.
    pub(crate) fn plan(&self, side: Side, command: &Command) -> Result<Plan, CommandError> {
        let s = &self.state;
        if s.ending.is_some() {
            return refuse(64, "the battle is over");
        }
        if let Command::Grid(grid) = command {
            return self.check_grid(side, grid).map(|()| Plan::Grid);
        }
        if let Some(g) = self.grid()
            && let Some(owes) = g.decider()
        {
            return refuse(
                47,
                format!(
                    "the ring moves before the table: {} owes {} first",
                    self.name(Side(owes as u8)),
                    self.grid_owed_words(owes, Some(side.index()))
                ),
            );
        }
        let decider = self.decider().expect("a battle not over has a decider");
        if side != decider {
            return match s.steps.front() {
                Some(step) => refuse(
                    64,
                    format!(
                        "{} owes a decision first: {}",
                        self.name(decider),
                        self.owed_words(step)
                    ),
                ),
                None => refuse(64, format!("it is {}'s turn", self.name(decider))),
            };
        }
        if let Some(step) = s.steps.front() {
            let answers = matches!(
                (step, command),
                (Step::Lose { .. }, Command::Lose { .. })
                    | (Step::LoseInRing { .. }, Command::LoseInRing { .. })
                    | (Step::Advance { .. }, Command::Advance { .. })
                    | (Step::Rout { .. }, Command::Rout { .. })
            );
            if !answers {
                return refuse(
                    64,
                    format!(
                        "{} owes a decision first: {}",
                        self.name(decider),
                        self.owed_words(step)
                    ),
                );
            }
        }
        for hex in command_hexes(command).as_slice() {
            let hex = *hex;
            if !self.battle.map.contains(hex) {
                return refuse(
                    60,
                    format!(
                        "{hex} is off the {} x {} map",
                        self.battle.map.columns, self.battle.map.rows
                    ),
                );
            }
        }
        match *command {
            Command::Fire {
                cannon,
                target,
                routers,
                crew,
            } => self
                .plan_fire(cannon, target, routers, crew)
                .map(Plan::Fire),
            Command::March { from, path, pick } => self
                .plan_march(from, path, pick)
                .map(|group| Plan::March { from, path, group }),
            Command::Attack { target, from } => self.plan_attack(target, from).map(Plan::Attack),
            Command::Lose { hex, men } => self.plan_lose(hex, men),
            Command::Advance { into, from } => self.plan_advance(into, from),
            Command::Rally { routers, with } => self.plan_rally(routers, with),
            Command::Rout { from, to } => self.plan_rout(from, to),
            Command::End => self.plan_end(),
            Command::Grid(_) => unreachable!("checked above"),
            Command::Enter {
                counter,
                hex,
                pieces,
            } => self.plan_enter(counter, hex, pieces).map(Plan::Enter),
            Command::MarchOff { from, square, pick } => {
                self.plan_march_off(from, square, pick).map(Plan::MarchOff)
            }
            Command::FireAtCounter {
                cannon,
                square,
                counter,
                crew,
            } => self
                .plan_fire_at_counter(cannon, square, counter, crew)
                .map(|plan| Plan::FireAtCounter(Box::new(plan))),
            Command::LoseInRing { counter, men } => self
                .plan_lose_in_ring(counter, men)
                .map(|()| Plan::LoseInRing { counter, men }),
        }
    }

    /// Checks a command of `side` without changing anything.
    pub fn check_as(&self, side: Side, command: &Command) -> Result<(), CommandError> {
        self.plan(side, command).map(|_| ())
    }

    /// The checked shot of a `fire` command of `side`: its range, whether
    /// the fire is direct (R66), its modifiers (R67) and the friendly
    /// formations on its line (R68), for a table to show before the shot;
    /// `None` for any other command or a refused one.
    pub fn fire_plan(&self, side: Side, command: &Command) -> Option<FirePlan> {
        match self.plan(side, command) {
            Ok(Plan::Fire(plan)) => Some(plan),
            _ => None,
        }
    }

    /// The checked melee of an `attack` command of `side`: both strengths
    /// and the melee table's row (R72-R74); `None` for any other command or
    /// a refused one.
    pub fn attack_plan(&self, side: Side, command: &Command) -> Option<AttackPlan> {
        match self.plan(side, command) {
            Ok(Plan::Attack(plan)) => Some(plan),
            _ => None,
        }
    }

    /// What an owed decision asks, in words, with an example that the rules
    /// would accept where one is found.
    pub fn owed_words(&self, step: &Step) -> String {
        match step {
            Step::Lose {
                side,
                hexes,
                count,
                which,
                ..
            } => {
                // The first hex's men, as many as may die there: never
                // fewer than the other hexes leave to it.
                let fighting = matches!(step, Step::Lose { fighting: true, .. });
                let candidate = hexes.as_slice().iter().find_map(|&hex| {
                    let st = self.stack(hex, *side)?;
                    let held = match which {
                        Which::Routing => st.routing.men,
                        Which::Armed if fighting => {
                            st.armed.men.minus(st.marks.crew).unwrap_or(Men::NONE)
                        }
                        Which::Armed => st.armed.men,
                    };
                    let n = (*count).min(held.total());
                    (n > 0).then(|| Command::Lose {
                        hex,
                        men: held.take_infantry_first(n),
                    })
                });
                format!(
                    "{} chooses which {count} of its {} in {} die{}",
                    self.name(*side),
                    if *which == Which::Routing {
                        "routers"
                    } else {
                        "men"
                    },
                    hexes
                        .as_slice()
                        .iter()
                        .map(Hex::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                    self.example(*side, candidate)
                )
            }
            Step::Advance { side, into, from } => {
                // One man of the first hex that fought, into the first hex.
                let hex = from.as_slice()[0];
                let one = match self.stack(hex, *side) {
                    Some(st) if st.armed.men.inf == 0 => Men::new(0, 1),
                    _ => Men::new(1, 0),
                };
                let candidate = Command::Advance {
                    into: into.as_slice()[0],
                    from: Parts::from_slice(&[(hex, one)]).expect("one part"),
                };
                format!(
                    "{} makes its free advance into {} (R77){}",
                    self.name(*side),
                    into.as_slice()
                        .iter()
                        .map(Hex::to_string)
                        .collect::<Vec<_>>()
                        .join(" or "),
                    self.example(*side, Some(candidate))
                )
            }
            Step::Rout { side, from, .. } => format!(
                "{} chooses where {}'s routers in {from} go (R80)",
                self.name(side.other()),
                self.name(*side)
            ),
            Step::Fate { .. } | Step::EndTurn => "the rules finish the melee".to_owned(),
            Step::LoseInRing {
                side,
                counter,
                count,
            } => format!(
                "{} names which {count} of counter {counter}'s men die (R56){}",
                self.name(*side),
                self.example(
                    *side,
                    Some(Command::LoseInRing {
                        counter: *counter,
                        men: self.ring_men(*side, *counter).take_infantry_first(*count),
                    })
                )
            ),
        }
    }

    /// `, as in `lose D5 inf 4`` for the first of `candidates` that `side`
    /// may play now, or nothing: a refusal offers only an example that is
    /// itself accepted. Each candidate answers the decision `side` owes, so
    /// checking it never asks for these words again.
    fn example(&self, side: Side, candidates: impl IntoIterator<Item = Command>) -> String {
        candidates
            .into_iter()
            .find(|c| self.plan(side, c).is_ok())
            .map(|c| format!(", as in `{c}`"))
            .unwrap_or_default()
    }

    /// The armed men with the side's cannon in `cannon`, when it may fire:
    /// not fired, not marched, with 4 or more men (R65).
    fn cannon_ready(&self, side: Side, cannon: Hex) -> Result<Men, CommandError> {
        let Some(st) = self.stack(cannon, side).filter(|s| s.cannon) else {
            return refuse(65, format!("{} has no cannon in {cannon}", self.name(side)));
        };
        if st.marks.fired {
            return refuse(65, format!("the cannon in {cannon} has fired this turn"));
        }
        if st.marks.cannon_marched {
            return refuse(65, format!("the cannon in {cannon} marched this turn"));
        }
        let men = st.armed.men;
        if men.total() < 4 {
            return refuse(
                65,
                format!(
                    "the cannon in {cannon} has {} armed men with it: it fires only with 4 or more",
                    men.total()
                ),
            );
        }
        Ok(men)
    }

    /// The crew of the side's cannon in `cannon` when it may fire: the one
    /// named, or the first four men, infantry first (R65).
    pub(crate) fn crew_for(
        &self,
        side: Side,
        cannon: Hex,
        crew: Option<Men>,
    ) -> Result<Men, CommandError> {
        let men = self.cannon_ready(side, cannon)?;
        crew_of(cannon, men, crew)
    }

    pub(crate) fn in_phase(&self, phase: Phase, what: &str) -> Result<(), CommandError> {
        if self.state.phase == phase {
            Ok(())
        } else {
            refuse(
                64,
                format!(
                    "{what} only in the {} phase; this is the {} phase",
                    phase.name(),
                    self.state.phase.name()
                ),
            )
        }
    }

    fn plan_fire(
        &self,
        cannon: Hex,
        target: Hex,
        routers: bool,
        crew: Option<Men>,
    ) -> Result<FirePlan, CommandError> {
        self.in_phase(Phase::Cannonade, "cannon fire")?;
        let side = self.state.active;
        let men = self.cannon_ready(side, cannon)?;
        let range = cannon.distance(target);
        let max = u16::from(self.battle.switches.cannon_range);
        if range == 0 {
            return refuse(65, "a cannon fires at another hex");
        }
        if range > max {
            return refuse(
                65,
                format!("{target} is {range} hexes from {cannon}: a cannon reaches {max}"),
            );
        }
        let enemy = side.other();
        let foe = self.stack(target, enemy);
        let formation = foe.filter(|f| f.is_formation());
        let routing = foe.filter(|f| !f.routing.men.is_empty());
        let (which, target_men) = match (routers, formation, routing) {
            (true, _, Some(r)) => (Which::Routing, r.routing.men.total()),
            (true, _, None) => {
                return refuse(
                    65,
                    format!("{} has no routers in {target}", self.name(enemy)),
                );
            }
            (false, Some(f), _) => (Which::Armed, f.armed.men.total()),
            (false, None, Some(r)) => (Which::Routing, r.routing.men.total()),
            (false, None, None) => {
                return refuse(
                    65,
                    format!(
                        "{} has no formation or routing group in {target} to fire at",
                        self.name(enemy)
                    ),
                );
            }
        };
        let crew = crew_of(cannon, men, crew)?;
        let mut line = between(cannon, target);
        line.sort_by_key(|h| (cannon.distance(*h), *h));
        let mut direct = true;
        let mut friendly = Vec::new();
        for hex in &line {
            if self.battle.terrain(*hex).blocks_fire() {
                direct = false;
            }
            if let Some(f) = self.stack(*hex, side).filter(|f| f.is_formation()) {
                direct = false;
                friendly.push((*hex, f.armed.men.total()));
            }
        }
        let mut modifiers = vec![
            ("troop density (R67)", density_modifier(target_men)),
            ("range (R67)", range_modifier(range)),
        ];
        match self.battle.terrain(target).cover() {
            Cover::Covered => modifiers.push(("target in covered terrain (R67)", -1)),
            Cover::Fortified => modifiers.push(("target in fortified terrain (R67)", -2)),
            _ => {}
        }
        if !direct {
            modifiers.push(("indirect fire (R66, R67)", -1));
        }
        Ok(FirePlan {
            cannon,
            target,
            which,
            crew,
            range,
            direct,
            modifiers,
            target_men,
            friendly,
        })
    }

    /// What of the side's stack in `from` marches for `pick` (R65, R69-R71):
    /// everything, refused where part of it may not go (with an example
    /// along `path`), or the pieces picked, each of which must be free.
    pub(crate) fn march_group(
        &self,
        side: Side,
        from: Hex,
        st: &Stack,
        pick: Option<Pick>,
        path: &[Hex],
    ) -> Result<Group, CommandError> {
        let m = &st.marks;
        let free = st.free();
        Ok(match pick {
            None => {
                let mut stuck: Vec<String> = Vec::new();
                if !m.crew.is_empty() {
                    stuck.push(format!(
                        "the crew ({}) of the cannon that fired (R65, R70)",
                        m.crew
                    ));
                }
                if st.cannon && (m.fired || m.cannon_marched) {
                    stuck.push(if m.fired {
                        "the cannon, which fired this turn (R70)".to_owned()
                    } else {
                        "the cannon, which marched this phase (R69)".to_owned()
                    });
                }
                if st.baggage && m.baggage_marched {
                    stuck.push("the baggage, which marched this phase (R69)".to_owned());
                }
                let marched = m.marched.plus(m.prisoners_marched).plus(m.unarmed_marched);
                if !marched.is_empty() {
                    stuck.push(format!(
                        "{} who marched this phase (R69)",
                        band_words(marched)
                    ));
                }
                if !stuck.is_empty() {
                    // An example only where it would be played: everything
                    // that may go, else its men alone, along the path given.
                    let everything = Pick {
                        men: free.men,
                        officers: free.officers,
                        cannon: free.cannon,
                        baggage: free.baggage,
                        flag: st.flags > 0,
                        ..Pick::default()
                    };
                    let men_alone = Pick {
                        men: free.men,
                        ..Pick::default()
                    };
                    let example = self.example(
                        side,
                        [everything, men_alone].map(|pick| Command::March {
                            from,
                            path: Hexes::from_slice(path).expect("one or two hexes"),
                            pick: Some(pick),
                        }),
                    );
                    return refuse(
                        69,
                        format!(
                            "not everything in {from} may march: {}; name what marches{example}",
                            stuck.join(", ")
                        ),
                    );
                }
                Group {
                    armed: st.armed,
                    cannon: st.cannon,
                    baggage: st.baggage,
                    flag: st.flags > 0,
                    prisoners: st.prisoners,
                    unarmed: st.unarmed,
                }
            }
            Some(p) => {
                if !free.men.covers(p.men) {
                    return refuse(
                        69,
                        format!(
                            "{from} has {} that may march, not {}{}",
                            free.men,
                            p.men,
                            if m.crew.is_empty() && m.marched.men.is_empty() {
                                String::new()
                            } else {
                                " (marked crews and men who marched stay, R65, R69)".to_owned()
                            }
                        ),
                    );
                }
                if p.officers > free.officers {
                    return refuse(
                        69,
                        format!(
                            "{from} has {} officer{} that may march",
                            free.officers,
                            if free.officers == 1 { "" } else { "s" }
                        ),
                    );
                }
                if p.cannon {
                    if !st.cannon {
                        return refuse(
                            69,
                            format!("there is no cannon of {} in {from}", self.name(side)),
                        );
                    }
                    if m.fired {
                        return refuse(
                            70,
                            format!("the cannon in {from} fired this turn: it stays"),
                        );
                    }
                    if m.cannon_marched {
                        return refuse(69, format!("the cannon in {from} marched this phase"));
                    }
                }
                if p.baggage {
                    if !st.baggage {
                        return refuse(
                            69,
                            format!("there is no baggage of {} in {from}", self.name(side)),
                        );
                    }
                    if m.baggage_marched {
                        return refuse(69, format!("the baggage in {from} marched this phase"));
                    }
                }
                if p.flag && st.flags == 0 {
                    return refuse(
                        71,
                        format!("there is no flag of {} in {from}", self.name(side)),
                    );
                }
                if p.prisoners > free.prisoners.heads() {
                    return refuse(
                        70,
                        format!(
                            "{from} holds {} prisoners that may march, not {}",
                            free.prisoners.heads(),
                            p.prisoners
                        ),
                    );
                }
                if p.unarmed > free.unarmed.heads() {
                    return refuse(
                        78,
                        format!(
                            "{from} has {} unarmed men that may march, not {}",
                            free.unarmed.heads(),
                            p.unarmed
                        ),
                    );
                }
                Group {
                    armed: Band {
                        men: p.men,
                        officers: p.officers,
                    },
                    cannon: p.cannon,
                    baggage: p.baggage,
                    flag: p.flag,
                    prisoners: free.prisoners.take(p.prisoners),
                    unarmed: free.unarmed.take(p.unarmed),
                }
            }
        })
    }

    /// Checks a march (R69-R71), returning what moves.
    pub(crate) fn plan_march(
        &self,
        from: Hex,
        path: Hexes,
        pick: Option<Pick>,
    ) -> Result<Group, CommandError> {
        self.in_phase(Phase::March, "marching")?;
        let side = self.state.active;
        let path = path.as_slice();
        if path.is_empty() || path.len() > 2 {
            return refuse(61, "a march enters one or two hexes");
        }
        let Some(st) = self.stack(from, side) else {
            return refuse(69, format!("{} has no pieces in {from}", self.name(side)));
        };
        let group = self.march_group(side, from, st, pick, path)?;
        if !group.moves_something() {
            return if group.flag {
                refuse(
                    71,
                    "a flag has no move of its own: it moves with a group leaving its hex",
                )
            } else {
                refuse(
                    70,
                    format!(
                        "nothing in {from} marches (routers never march: they move in the Rally phase)"
                    ),
                )
            };
        }
        if path.len() > group.pace() {
            return refuse(
                69,
                "the group moves at its slowest member's rate, 1 hex (R61): infantry, cannon, baggage, prisoners and unarmed men move 1, cavalry and officers 2",
            );
        }
        if group.flag && usize::from(st.marks.flag_hexes) + path.len() > 2 {
            return refuse(
                71,
                format!(
                    "the flag in {from} has moved {} hex{} this turn: a flag moves at most 2",
                    st.marks.flag_hexes,
                    if st.marks.flag_hexes == 1 { "" } else { "es" }
                ),
            );
        }
        if group.cannon && group.armed.men.total() < 4 {
            return refuse(
                61,
                format!(
                    "a cannon moves only with 4 or more armed men of its side moving with it, not {}",
                    group.armed.men.total()
                ),
            );
        }
        if !group.prisoners.is_empty() && group.armed.men.is_empty() && group.unarmed.men.is_empty()
        {
            return refuse(
                70,
                "prisoners move only together with men of the side holding them",
            );
        }
        let enemy = side.other();
        let cavalry = group.armed.men.cav > 0;
        let mut previous = from;
        for (i, hex) in path.iter().enumerate() {
            let last = i + 1 == path.len();
            if !self.battle.neighbours(previous).contains(hex) {
                return refuse(
                    69,
                    format!("{hex} does not touch {previous}: a march goes hex to adjacent hex"),
                );
            }
            if *hex == from {
                return refuse(69, format!("a march leaves {from}"));
            }
            let terrain = self.battle.terrain(*hex);
            if terrain.cover() == Cover::Impassable {
                return refuse(
                    69,
                    format!("{hex} is {terrain}: no piece enters impassable terrain"),
                );
            }
            let foe = self.stack(*hex, enemy);
            if foe.is_some_and(Stack::is_formation) {
                return refuse(
                    69,
                    format!(
                        "{hex} holds enemy armed men: no piece enters it (attack it in the Melee phase)"
                    ),
                );
            }
            if cavalry && is_cover(terrain) && i > 0 {
                return refuse(
                    69,
                    format!(
                        "{hex} is {terrain}: cavalry enters covered or fortified terrain only as the first hex of its move"
                    ),
                );
            }
            if cavalry && is_cover(terrain) && !last {
                return refuse(
                    69,
                    format!(
                        "{hex} is {terrain}: cavalry's move ends on entering covered or fortified terrain"
                    ),
                );
            }
            if !last && foe.is_some_and(Stack::capturable) {
                return refuse(
                    69,
                    format!("entering {hex} captures what is there and ends the move"),
                );
            }
            if last && foe.is_some_and(Stack::capturable) && group.armed.men.is_empty() {
                return refuse(
                    63,
                    format!(
                        "{hex} holds enemy pieces: only a formation (armed men) entering captures them, and nothing else enters"
                    ),
                );
            }
            previous = *hex;
        }
        let to = *path.last().expect("a path has a hex");
        let own = self.stack(to, side);
        let captured_items = self
            .stack(to, enemy)
            .filter(|f| f.capturable())
            .map_or(0, |f| u8::from(f.cannon) + u8::from(f.baggage));
        let items = own.map_or(0, |o| u8::from(o.cannon) + u8::from(o.baggage))
            + u8::from(group.cannon)
            + u8::from(group.baggage)
            + captured_items;
        if items > 1 {
            return refuse(
                62,
                format!(
                    "{to} would hold {items} cannon and baggage: one cannon or one baggage a hex"
                ),
            );
        }
        let limit: u16 = if items > 0 { 10 } else { 20 };
        let arriving = own.map_or(0, |o| o.armed.men.total()) + group.armed.men.total();
        if arriving > limit {
            return refuse(
                62,
                format!(
                    "{to} would hold {arriving} armed men: a hex holds at most {limit}{}",
                    if limit == 10 {
                        " with a cannon or baggage"
                    } else {
                        ""
                    }
                ),
            );
        }
        Ok(group)
    }

    /// Checks an attack (R72-R75).
    pub(crate) fn plan_attack(&self, target: Hex, from: Hexes) -> Result<AttackPlan, CommandError> {
        self.in_phase(Phase::Melee, "attacks")?;
        let side = self.state.active;
        let enemy = side.other();
        let Some(def) = self.stack(target, enemy).filter(|s| s.is_formation()) else {
            return refuse(
                72,
                format!(
                    "{} has no formation in {target} to attack",
                    self.name(enemy)
                ),
            );
        };
        if def.marks.defended {
            return refuse(
                72,
                format!(
                    "the formation in {target} was attacked this phase: a formation is attacked at most once"
                ),
            );
        }
        let hexes = from.as_slice();
        if hexes.is_empty() {
            return refuse(72, "name the attacking hexes");
        }
        let mut attackers: u16 = 0;
        let mut officer = false;
        for (i, hex) in hexes.iter().enumerate() {
            if hexes[..i].contains(hex) {
                return refuse(72, format!("{hex} is named twice"));
            }
            if !hex.touches(target) {
                return refuse(
                    72,
                    format!("{hex} does not touch {target}: attackers stand adjacent to the enemy"),
                );
            }
            let Some(att) = self.stack(*hex, side).filter(|s| s.is_formation()) else {
                return refuse(72, format!("{} has no formation in {hex}", self.name(side)));
            };
            if att.marks.attacked {
                return refuse(
                    72,
                    format!(
                        "the formation in {hex} attacked this phase: a formation attacks at most once"
                    ),
                );
            }
            if self.grid().is_some_and(|g| g.entered.contains(hex)) {
                return refuse(
                    48,
                    format!(
                        "the formation in {hex} came onto the map this turn: no charging onto the board"
                    ),
                );
            }
            let fighting = att.fighting().total();
            if fighting == 0 {
                return refuse(
                    72,
                    format!(
                        "the men in {hex} are all marked crews this turn: crews do not attack (R65)"
                    ),
                );
            }
            attackers += fighting;
            officer |= att.armed.officers > 0;
        }
        let defenders = def.armed.men.total();
        let attack2 = 2 * u32::from(attackers);
        let defence2 = u32::from(defenders)
            * match self.battle.terrain(target).cover() {
                Cover::Covered => 3,
                Cover::Fortified => 4,
                _ => 2,
            };
        if attack2 < defence2 && !officer {
            return refuse(
                73,
                format!(
                    "the attackers' strength {attackers} is lower than the defenders' {}: the lower strength attacks only with an officer in an attacking hex",
                    crate::setup::points_text(u64::from(defence2))
                ),
            );
        }
        let row = ratio_row(attack2, defence2);
        if row == 4 && self.battle.switches.even_row == EvenRow::Refused {
            return refuse(
                75,
                "below 3:2 no attack is allowed (house rule even_row: refused)",
            );
        }
        let smaller = attackers.min(defenders);
        let half = match self.battle.switches.half_round {
            HalfRound::Down => smaller / 2,
            HalfRound::Up => smaller.div_ceil(2),
        };
        Ok(AttackPlan {
            target,
            from: sorted(from),
            attackers,
            defenders,
            attack2,
            defence2,
            row,
            half,
        })
    }

    /// Men that may die in a hex of a loss step.
    pub(crate) fn loss_pool(&self, hex: Hex, side: Side, which: Which, fighting: bool) -> Men {
        self.stack(hex, side).map_or(Men::NONE, |st| match which {
            Which::Routing => st.routing.men,
            Which::Armed if fighting => st.fighting(),
            Which::Armed => st.armed.men,
        })
    }

    /// The men of each hex of a loss step who may die, in the step's order.
    pub(crate) fn loss_pools(
        &self,
        side: Side,
        hexes: &Hexes,
        which: Which,
        fighting: bool,
    ) -> Vec<(Hex, Men)> {
        hexes
            .as_slice()
            .iter()
            .map(|h| (*h, self.loss_pool(*h, side, which, fighting)))
            .collect()
    }

    fn plan_lose(&self, hex: Hex, men: Men) -> Result<Plan, CommandError> {
        let Some(&Step::Lose {
            side,
            hexes,
            count,
            which,
            fighting,
            ..
        }) = self.state.steps.front()
        else {
            return refuse(64, "no losses are owed");
        };
        if !hexes.as_slice().contains(&hex) {
            return refuse(
                64,
                format!(
                    "the losses owed fall in {}, not {hex}",
                    words_of(hexes.as_slice())
                ),
            );
        }
        let pool = self.loss_pool(hex, side, which, fighting);
        if men.is_empty() {
            return refuse(64, "name at least one man who dies");
        }
        if !pool.covers(men) {
            return refuse(64, format!("{hex} has {pool} who may die, not {men}"));
        }
        if men.total() > count {
            return refuse(64, format!("{count} men die, not {}", men.total()));
        }
        let others: u16 = hexes
            .as_slice()
            .iter()
            .filter(|h| **h != hex)
            .map(|h| self.loss_pool(*h, side, which, fighting).total())
            .sum();
        if men.total() + others < count {
            return refuse(
                64,
                format!(
                    "{count} men die and the other hexes hold {others}: {hex} loses at least {}",
                    count - others
                ),
            );
        }
        Ok(Plan::Lose { hex, men })
    }

    /// The least and most men of a free advance into `into` (R77): half
    /// (rounded up) of the men that fought and survived, or what the hex's
    /// limit allows if fewer; all of them at most.
    pub fn advance_range(&self, side: Side, into: Hex, from: &[Hex]) -> (u16, u16) {
        let survivors: u16 = from
            .iter()
            .filter_map(|h| self.stack(*h, side))
            .map(|s| s.fighting().total())
            .sum();
        let here = self.stack(into, side).map_or(0, |s| s.armed.men.total());
        let cap = self.limit(into).saturating_sub(here);
        (survivors.div_ceil(2).min(cap), survivors.min(cap))
    }

    fn plan_advance(&self, into: Hex, parts: Parts) -> Result<Plan, CommandError> {
        let Some(&Step::Advance {
            side,
            into: targets,
            from,
        }) = self.state.steps.front()
        else {
            return refuse(77, "no free advance is owed");
        };
        if !targets.as_slice().contains(&into) {
            return refuse(
                77,
                format!(
                    "the winners advance into {}, not {into}",
                    words_of(targets.as_slice())
                ),
            );
        }
        let list = parts.as_slice();
        for (i, (hex, men)) in list.iter().enumerate() {
            if !from.as_slice().contains(hex) {
                return refuse(
                    77,
                    format!(
                        "the men who fought stand in {}, not {hex}",
                        words_of(from.as_slice())
                    ),
                );
            }
            if list[..i].iter().any(|(h, _)| h == hex) {
                return refuse(77, format!("{hex} is named twice"));
            }
            if men.is_empty() {
                return refuse(77, format!("name the men who advance from {hex}"));
            }
            let pool = self.stack(*hex, side).map_or(Men::NONE, Stack::fighting);
            if !pool.covers(*men) {
                return refuse(77, format!("{hex} has {pool} who fought, not {men}"));
            }
        }
        let (least, most) = self.advance_range(side, into, from.as_slice());
        let total = parts.men().total();
        if total < least || total > most {
            return refuse(
                77,
                format!(
                    "the free advance moves {least} to {most} men into {into}, not {total}: at least half of those who fought, within the hex's limit (R62)"
                ),
            );
        }
        Ok(Plan::Advance { into, from: parts })
    }

    fn plan_rally(&self, routers: Hex, with: Hex) -> Result<Plan, CommandError> {
        self.in_phase(Phase::Rally, "rally rolls")?;
        let side = self.state.active;
        let Some(group) = self
            .stack(routers, side)
            .filter(|s| !s.routing.men.is_empty())
        else {
            return refuse(
                79,
                format!("{} has no routers in {routers}", self.name(side)),
            );
        };
        if group.marks.rally_rolled {
            return refuse(
                79,
                format!(
                    "the routers in {routers} rolled to rally this phase (or routed by panic): once a phase"
                ),
            );
        }
        let Some(formation) = self.stack(with, side).filter(|s| s.is_formation()) else {
            return refuse(
                79,
                format!("{} has no formation in {with} to rally on", self.name(side)),
            );
        };
        if with != routers && !with.touches(routers) {
            return refuse(
                79,
                format!("the formation in {with} is neither in nor next to {routers}"),
            );
        }
        Ok(Plan::Rally {
            routers,
            with,
            modifier: self.rally_modifier(group, formation),
        })
    }

    /// The rally roll's modifiers (R79).
    pub fn rally_modifiers(&self, routers: Hex, with: Hex) -> Vec<(&'static str, i8)> {
        let side = self.state.active;
        let (Some(group), Some(formation)) = (self.stack(routers, side), self.stack(with, side))
        else {
            return Vec::new();
        };
        let r = u32::from(group.routing.men.total());
        let f = u32::from(formation.armed.men.total());
        let mut mods = Vec::new();
        if r >= 2 * f {
            mods.push(("the routers are twice the formation or more (R79)", 1));
        }
        if f >= 2 * r {
            mods.push(("the formation is twice the routers or more (R79)", -1));
        }
        let officers = group.armed.officers + group.routing.officers + formation.armed.officers;
        if officers > 0 {
            mods.push(("an officer is in either hex (R79)", -1));
        }
        mods
    }

    fn rally_modifier(&self, group: &Stack, formation: &Stack) -> i8 {
        self.rally_modifiers(group.hex, formation.hex)
            .iter()
            .map(|(_, m)| m)
            .sum()
    }

    /// Where the routers of `side` in `from` may go (R80): off the map when
    /// their hex is on their home edge; else the best-ranked hexes; else
    /// surrender to an adjacent enemy formation; empty when they can only
    /// stay.
    pub fn rout_options(&self, side: Side, from: Hex) -> Vec<RoutTo> {
        if self.battle.to_home(from, side) == 1 {
            return vec![RoutTo::Off];
        }
        let enemy = side.other();
        let nearest = |hex: Hex, of: Side| {
            self.state
                .stacks
                .iter()
                .filter(|s| s.side == of && s.is_formation())
                .map(|s| s.hex.distance(hex))
                .min()
                .unwrap_or(u16::MAX)
        };
        let mut best: Option<(u16, u16, u16)> = None;
        let mut out = Vec::new();
        for hex in self.battle.neighbours(from) {
            if self.battle.terrain(*hex).cover() == Cover::Impassable {
                continue;
            }
            if self.stack(*hex, enemy).is_some_and(|s| s.men() > 0) {
                continue;
            }
            // Farthest from the enemy, then nearest home, then nearest a
            // friendly formation: the smallest key ranks first.
            let key = (
                u16::MAX - nearest(*hex, enemy),
                self.battle.to_home(*hex, side),
                nearest(*hex, side),
            );
            match best {
                Some(b) if key > b => {}
                Some(b) if key == b => out.push(RoutTo::Hex(*hex)),
                _ => {
                    best = Some(key);
                    out.clear();
                    out.push(RoutTo::Hex(*hex));
                }
            }
        }
        if out.is_empty() {
            for hex in self.battle.neighbours(from) {
                if self.state.formation_at(*hex, enemy) {
                    out.push(RoutTo::Surrender(*hex));
                }
            }
        }
        out
    }

    fn plan_rout(&self, from: Hex, to: RoutTo) -> Result<Plan, CommandError> {
        let Some(&Step::Rout {
            side, from: owed, ..
        }) = self.state.steps.front()
        else {
            return refuse(80, "no rout move is owed");
        };
        if from != owed {
            return refuse(
                80,
                format!("the routers in {owed} move now, not those in {from}"),
            );
        }
        let options = self.rout_options(side, from);
        if !options.contains(&to) {
            let listed: Vec<String> = options.iter().map(|o| rout_words(from, *o)).collect();
            return refuse(
                80,
                if listed.is_empty() {
                    format!("the routers in {from} have nowhere to go and stay")
                } else {
                    format!(
                        "the routers in {from} may go only as R80 ranks their choices: {}",
                        listed.join(", ")
                    )
                },
            );
        }
        Ok(Plan::Rout { from, to: Some(to) })
    }

    /// Whether the routers in a hex of the active side still owe a rally
    /// roll (R79): they are in or next to a friendly formation and have not
    /// rolled.
    pub fn owes_rally(&self, st: &Stack) -> bool {
        st.side == self.state.active
            && !st.routing.men.is_empty()
            && !st.marks.rally_rolled
            && (st.is_formation()
                || self
                    .battle
                    .neighbours(st.hex)
                    .iter()
                    .any(|h| self.state.formation_at(*h, st.side)))
    }

    /// The first routers whose rally roll must come before the phase may
    /// end (R79); `None` outside the Rally phase.
    pub(crate) fn rally_owed(&self) -> Option<&Stack> {
        if self.state.phase != Phase::Rally {
            return None;
        }
        self.state.stacks.iter().find(|s| self.owes_rally(s))
    }

    fn plan_end(&self) -> Result<Plan, CommandError> {
        if let Some(st) = self.rally_owed() {
            return refuse(
                79,
                format!(
                    "the routers in {} must roll to rally first: the rolls are not optional",
                    st.hex
                ),
            );
        }
        Ok(Plan::End)
    }

    // ------------------------------------------------------------ applying

    /// Checks and applies a command of `side`, appending its events and
    /// those of the steps it sets going; returns whether dice were rolled
    /// and whether a player turn ended. A refused command changes nothing.
    pub(crate) fn execute(
        &mut self,
        side: Side,
        command: &Command,
        events: &mut Vec<Event>,
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
                self.look(side, events);
                false
            }
            Plan::Grid => unreachable!("the grid's commands are applied by `apply_as`"),
            Plan::Enter(plan) => {
                self.enter(&plan, events);
                // Sight is checked again after each entry (R55).
                self.look(side, events);
                false
            }
            Plan::MarchOff(plan) => {
                self.march_off(&plan, events);
                false
            }
            Plan::FireAtCounter(plan) => {
                let mut dice = self.state.dice.clone();
                let roll = d6(&mut dice)?;
                self.state.dice = dice;
                self.fire_at_counter(&plan, roll, events);
                true
            }
            Plan::LoseInRing { counter, men } => {
                self.lose_in_ring(counter, men, events);
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

    fn fire(&mut self, plan: &FirePlan, rolls: &FireRolls, events: &mut Vec<Event>) {
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
        events: &mut Vec<Event>,
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

    fn rally(&mut self, routers: Hex, with: Hex, roll: u8, modifier: i8, events: &mut Vec<Event>) {
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
    fn rout_formation(&mut self, hex: Hex, side: Side, events: &mut Vec<Event>) {
        let st = self.state.stack_mut(hex, side);
        let band = st.armed;
        st.routing = st.routing.plus(band);
        st.armed = Band::NONE;
        st.marks.crew = Men::NONE;
        events.push(Event::Routed { hex, side, band });
    }

    fn march(&mut self, from: Hex, path: Hexes, group: Group, events: &mut Vec<Event>) {
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
    pub(crate) fn capture(&mut self, hex: Hex, by: Side, events: &mut Vec<Event>) {
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
        events: &mut Vec<Event>,
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

    fn lose(&mut self, hex: Hex, men: Men, events: &mut Vec<Event>) {
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

    fn advance(&mut self, into: Hex, parts: Parts, events: &mut Vec<Event>) {
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

    fn rout_move(&mut self, from: Hex, to: Option<RoutTo>, events: &mut Vec<Event>) {
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

    fn end_phase(&mut self, events: &mut Vec<Event>) {
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
    fn escape(&mut self, events: &mut Vec<Event>) {
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
    fn run_steps(&mut self, events: &mut Vec<Event>) {
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
                    let men = self.ring_men(side, counter);
                    if count == 0 || men.is_empty() {
                        self.state.steps.pop_front();
                    } else if men.total() <= count || men.inf == 0 || men.cav == 0 {
                        self.state.steps.pop_front();
                        let dead = men.take_infantry_first(count.min(men.total()));
                        self.kill_in_ring(side, counter, dead, events);
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
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        for st in &mut self.state.stacks {
            st.marks = Default::default();
        }
        if let Some(g) = self.state.grid.as_deref_mut() {
            g.entered.clear();
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
            self.begin_orders(events);
        }
    }
}

/// A cannon's crew from the `men` with it: the one named, or the first four,
/// infantry first (R65).
fn crew_of(cannon: Hex, men: Men, crew: Option<Men>) -> Result<Men, CommandError> {
    match crew {
        None => Ok(men.take_infantry_first(4)),
        Some(c) if c.total() != 4 => {
            refuse(65, format!("a cannon's crew is 4 men, not {}", c.total()))
        }
        Some(c) if !men.covers(c) => refuse(
            65,
            format!("{cannon} has {men} armed: it cannot give the crew {c}"),
        ),
        Some(c) => Ok(c),
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

/// The hexes a command names, to check that they lie on the map.
fn command_hexes(command: &Command) -> Named {
    let mut named = Named::default();
    match command {
        Command::Fire { cannon, target, .. } => named.extend(&[*cannon, *target]),
        Command::March { from, path, .. } => {
            named.extend(&[*from]);
            named.extend(path.as_slice());
        }
        Command::Attack { target, from } => {
            named.extend(&[*target]);
            named.extend(from.as_slice());
        }
        Command::Lose { hex, .. } => named.extend(&[*hex]),
        Command::Advance { into, from } => {
            named.extend(&[*into]);
            for (h, _) in from.as_slice() {
                named.extend(&[*h]);
            }
        }
        Command::Rally { routers, with } => named.extend(&[*routers, *with]),
        Command::Rout { from, to } => match to {
            RoutTo::Hex(h) | RoutTo::Surrender(h) => named.extend(&[*from, *h]),
            RoutTo::Off => named.extend(&[*from]),
        },
        Command::Enter { hex, .. } => named.extend(&[*hex]),
        Command::MarchOff { from, .. } => named.extend(&[*from]),
        Command::FireAtCounter { cannon, .. } => named.extend(&[*cannon]),
        Command::End | Command::Grid(_) | Command::LoseInRing { .. } => {}
    }
    named
}

/// Up to seven hexes a command names, without allocating.
#[derive(Default)]
struct Named {
    len: usize,
    hexes: [Hex; 7],
}

impl Named {
    fn extend(&mut self, hexes: &[Hex]) {
        for h in hexes {
            self.hexes[self.len] = *h;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Hex] {
        &self.hexes[..self.len]
    }
}

/// The hexes in map order.
pub(crate) fn sorted(hexes: Hexes) -> Hexes {
    hexes.sorted()
}

fn words_of(hexes: &[Hex]) -> String {
    hexes
        .iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(" or ")
}

/// A rout choice in the notation's words.
pub fn rout_words(from: Hex, to: RoutTo) -> String {
    Command::Rout { from, to }.to_string()
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
