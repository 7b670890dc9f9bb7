//! Checking a command (R64-R80): every command is checked in full into a
//! plan before anything changes, naming the ruling of a refusal: a
//! cannon's fire (R65-R68), a march (R69-R71), an attack (R72-R76),
//! losses, the free advance (R77), a rally and a rout (R78-R80), the end of
//! a phase; the commands that reach off the map and the off-map system's
//! own commands are checked by it (`OffMapRules`: the grid's, R47-R56).
//! `play` carries a plan out.

use crate::command::{Command, CommandError, Hexes, Parts, RoutTo, refuse, sorted, write_rout};
use crate::event::band_words;
use crate::game::{Game, Stack, is_cover};
use crate::hex::{Hex, between};
use crate::men::{Men, Pick};
use crate::off_map::OffMapState;
use crate::off_map_rules::OffMapRules;
use crate::plans::{AttackPlan, FirePlan, Plan};
use crate::setup::{Cover, EvenRow, HalfRound};
use crate::tables::{density_modifier, range_modifier, ratio_row};
use crate::terms::{Band, Group, Phase, Side, Step, Which};

impl<G: OffMapRules> Game<G> {
    /// Checks a command of `side` in full, changing nothing.
    pub(crate) fn plan(&self, side: Side, command: &Command<G>) -> Result<Plan<G>, CommandError> {
        let s = &self.state;
        if s.ending.is_some() {
            return refuse(64, "the battle is over");
        }
        if let Command::Grid(own) = command {
            return G::check(self, side, own).map(|()| Plan::OffMap);
        }
        if let Some(owes) = self.state.grid.as_deref().and_then(|g| g.decider()) {
            return refuse(
                47,
                format!(
                    "the ring moves before the table: {} owes {} first",
                    self.name(Side(owes as u8)),
                    G::owed_words(self, owes, Some(side.index()))
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
            } => G::plan_enter(self, counter, hex, pieces).map(Plan::Enter),
            Command::MarchOff { from, square, pick } => {
                G::plan_march_off(self, from, square, pick).map(Plan::MarchOff)
            }
            Command::FireAtCounter {
                cannon,
                square,
                counter,
                crew,
            } => G::plan_fire(self, cannon, square, counter, crew)
                .map(|plan| Plan::FireAtCounter(Box::new(plan))),
            Command::LoseInRing { counter, men } => {
                G::plan_lose(self, counter, men).map(|()| Plan::LoseInRing { counter, men })
            }
        }
    }

    /// Checks a command of `side` without changing anything.
    pub fn check_as(&self, side: Side, command: &Command<G>) -> Result<(), CommandError> {
        self.plan(side, command).map(|_| ())
    }

    /// The checked shot of a `fire` command of `side`: its range, whether
    /// the fire is direct (R66), its modifiers (R67) and the friendly
    /// formations on its line (R68), for a table to show before the shot;
    /// `None` for any other command or a refused one.
    pub fn fire_plan(&self, side: Side, command: &Command<G>) -> Option<FirePlan> {
        match self.plan(side, command) {
            Ok(Plan::Fire(plan)) => Some(plan),
            _ => None,
        }
    }

    /// The checked melee of an `attack` command of `side`: both strengths
    /// and the melee table's row (R72-R74); `None` for any other command or
    /// a refused one.
    pub fn attack_plan(&self, side: Side, command: &Command<G>) -> Option<AttackPlan> {
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
                        men: G::men(self, *side, *counter).take_infantry_first(*count),
                    })
                )
            ),
        }
    }

    /// `, as in `lose D5 inf 4`` for the first of `candidates` that `side`
    /// may play now, or nothing: a refusal offers only an example that is
    /// itself accepted. Each candidate answers the decision `side` owes, so
    /// checking it never asks for these words again.
    fn example(&self, side: Side, candidates: impl IntoIterator<Item = Command<G>>) -> String {
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
            if self.state.grid.as_deref().is_some_and(|g| g.entered(*hex)) {
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

    fn plan_lose(&self, hex: Hex, men: Men) -> Result<Plan<G>, CommandError> {
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

    fn plan_advance(&self, into: Hex, parts: Parts) -> Result<Plan<G>, CommandError> {
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

    fn plan_rally(&self, routers: Hex, with: Hex) -> Result<Plan<G>, CommandError> {
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

    fn plan_rout(&self, from: Hex, to: RoutTo) -> Result<Plan<G>, CommandError> {
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

    fn plan_end(&self) -> Result<Plan<G>, CommandError> {
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

/// The hexes a command names, to check that they lie on the map.
fn command_hexes<G: OffMapRules>(command: &Command<G>) -> Named {
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

fn words_of(hexes: &[Hex]) -> String {
    hexes
        .iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(" or ")
}

/// A rout choice in the notation's words.
pub fn rout_words(from: Hex, to: RoutTo) -> String {
    let mut words = String::new();
    write_rout(&mut words, from, to).expect("a String takes any words");
    words
}
