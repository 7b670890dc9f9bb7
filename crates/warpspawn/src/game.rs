//! The battle's state: the map and its terrain (shared by every copy of a
//! game), the pieces of each side in each hex, the phase, the decisions
//! still owed, victory points and the dice. Checking and applying commands
//! is `play.rs`'s, listing them `legal.rs`'s.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, OnceLock};

use sandtable_core::dice::Dice;
use sandtable_core::hash::Mix;

use crate::command::Hexes;
use crate::hex::{Edge, Hex, Map};
use crate::men::Men;
use crate::off_map::{OffMap, OffMapState};
use crate::setup::{self, Cover, Setup, SetupError, Switches, Terrain};
use crate::terms::{Band, EndReason, Outcome, Phase, Side, Step};

/// A side's pieces in one hex, with what they did this player turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Stack {
    /// The hex.
    pub hex: Hex,
    /// The side.
    pub side: Side,
    /// The formation: armed men and the officers with them (R62).
    pub armed: Band,
    /// A cannon of this side (captured ones included, R77).
    pub cannon: bool,
    /// Baggage of this side.
    pub baggage: bool,
    /// Flags this side holds here: its own, and any it captured (R81).
    pub flags: u8,
    /// Routing men and their officers (R76, R79).
    pub routing: Band,
    /// Men of the enemy this side holds here as prisoners (R76).
    pub prisoners: Band,
    /// This side's unarmed men: escaped prisoners (R78).
    pub unarmed: Band,
    /// What the pieces here did this player turn.
    pub marks: Marks,
}

/// What a stack's pieces did this player turn (R65, R69-R72, R79, R80);
/// cleared when a player turn ends (R64).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Marks {
    /// Armed men marked as the crew of a cannon that fired (R65).
    pub crew: Men,
    /// The cannon here fired (R65).
    pub fired: bool,
    /// Armed men and officers that marched into or within this hex (R69).
    pub marched: Band,
    /// The cannon here marched.
    pub cannon_marched: bool,
    /// The baggage here marched.
    pub baggage_marched: bool,
    /// Hexes the flags here moved this turn (R71).
    pub flag_hexes: u8,
    /// Prisoners that marched (R70).
    pub prisoners_marched: Band,
    /// Unarmed men that marched (R78).
    pub unarmed_marched: Band,
    /// The formation here attacked (R72).
    pub attacked: bool,
    /// The formation here was attacked (R72).
    pub defended: bool,
    /// The routers here rolled to rally, or routed by panic (R79).
    pub rally_rolled: bool,
    /// The routers here made their rout move (R80).
    pub rout_moved: bool,
}

impl Stack {
    /// An empty stack.
    pub fn new(hex: Hex, side: Side) -> Stack {
        Stack {
            hex,
            side,
            armed: Band::NONE,
            cannon: false,
            baggage: false,
            flags: 0,
            routing: Band::NONE,
            prisoners: Band::NONE,
            unarmed: Band::NONE,
            marks: Marks::default(),
        }
    }

    /// Whether nothing is left here.
    pub fn is_empty(&self) -> bool {
        self.armed.is_empty()
            && self.routing.is_empty()
            && self.prisoners.is_empty()
            && self.unarmed.is_empty()
            && !self.cannon
            && !self.baggage
            && self.flags == 0
    }

    /// Whether a formation stands here: armed men (R62).
    #[inline]
    pub fn is_formation(&self) -> bool {
        !self.armed.men.is_empty()
    }

    /// Men of this side here in any state but prisoner: what holds
    /// prisoners (R70, R78) and what a rout may not enter (R80).
    pub fn men(&self) -> u16 {
        self.armed.men.total() + self.routing.men.total() + self.unarmed.men.total()
    }

    /// Armed men that fight in a melee: all but the crews marked this turn
    /// (R72).
    #[inline]
    pub fn fighting(&self) -> Men {
        self.armed
            .men
            .minus(self.marks.crew)
            .expect("a crew is part of its hex's armed men")
    }

    /// Whether an enemy formation entering would capture something here
    /// (R63, R69): pieces but no armed men.
    #[inline]
    pub fn capturable(&self) -> bool {
        !self.is_formation() && !self.is_empty()
    }
}

/// What of a stack may march now (R65, R69-R71).
pub(crate) struct Free {
    /// Armed men not marked as crews and not marched.
    pub(crate) men: Men,
    /// Officers not marched.
    pub(crate) officers: u16,
    /// The cannon, not fired and not marched.
    pub(crate) cannon: bool,
    /// The baggage, not marched.
    pub(crate) baggage: bool,
    /// Prisoners not marched.
    pub(crate) prisoners: Band,
    /// Unarmed men not marched.
    pub(crate) unarmed: Band,
    /// Nothing here is marked or has marched: "everything" may go.
    pub(crate) whole: bool,
}

impl Stack {
    /// What of the stack may march now (R65, R69-R71).
    pub(crate) fn free(&self) -> Free {
        // Marched men and crews are apart, and each a part of the armed men:
        // what is left may march. Kept branch-light: it runs for every
        // stack of every March list.
        let m = &self.marks;
        let left = |all: Band, gone: Band| Band {
            men: Men::new(
                all.men.inf.saturating_sub(gone.men.inf),
                all.men.cav.saturating_sub(gone.men.cav),
            ),
            officers: all.officers.saturating_sub(gone.officers),
        };
        let unmoved = left(self.armed, m.marched);
        Free {
            men: Men::new(
                unmoved.men.inf.saturating_sub(m.crew.inf),
                unmoved.men.cav.saturating_sub(m.crew.cav),
            ),
            officers: unmoved.officers,
            cannon: self.cannon & !m.fired & !m.cannon_marched,
            baggage: self.baggage & !m.baggage_marched,
            prisoners: left(self.prisoners, m.prisoners_marched),
            unarmed: left(self.unarmed, m.unarmed_marched),
            whole: m.crew.is_empty()
                & m.marched.is_empty()
                & m.prisoners_marched.is_empty()
                & m.unarmed_marched.is_empty()
                & !m.fired
                & !m.cannon_marched
                & !m.baggage_marched,
        }
    }
}

impl Free {
    pub(crate) fn has_slow(&self) -> bool {
        self.men.inf > 0
            || self.cannon
            || self.baggage
            || !self.prisoners.is_empty()
            || !self.unarmed.is_empty()
    }

    pub(crate) fn has_fast(&self) -> bool {
        self.men.cav > 0 || self.officers > 0
    }
}

/// The largest map, in hexes, whose marching paths between every two hexes
/// a battle works out ([`Battle::path`]): 2 MB of steps.
pub const PATHS_UP_TO: usize = 1024;

/// [`Battle::path`]'s steps between every two hexes, worked out when first
/// asked for (bots ask; a game played by people never does). Derived from
/// the terrain: it neither shows in `Debug` nor counts in `==`.
#[derive(Default, Clone)]
struct Paths(OnceLock<Vec<u16>>);

impl fmt::Debug for Paths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let len = self.0.get().map_or(0, Vec::len);
        write!(f, "Paths({len} steps)")
    }
}

impl PartialEq for Paths {
    fn eq(&self, _: &Paths) -> bool {
        true
    }
}

/// What does not change in a battle: the map, its terrain, the sides and
/// the house rules. Shared by every copy of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Battle<G: OffMap> {
    /// The map's size.
    pub map: Map,
    /// Terrain by [`Map::index`].
    pub terrain: Vec<Terrain>,
    /// Each hex's neighbours on the map, by [`Map::index`].
    pub(crate) adjacent: Vec<Adjacent>,
    /// Each hex's ring of hexes two away, by [`Map::index`].
    pub(crate) rings: Vec<Ring>,
    /// The sides' names.
    pub names: [String; 2],
    /// The sides' home edges (R60).
    pub homes: [Edge; 2],
    /// For each side, by [`Map::index`], the marching steps from a hex to
    /// leaving the map across that side's home edge, round impassable
    /// hexes (R69); see [`Battle::path_home`].
    home_paths: [Vec<u16>; 2],
    /// On a map of at most [`PATHS_UP_TO`] hexes, the marching steps
    /// between every two hexes, by [`Map::index`] of both, once asked for;
    /// see [`Battle::path`].
    paths: Paths,
    /// Game turns (R64).
    pub turns: u32,
    /// The house rules.
    pub switches: Switches<G>,
    /// The setup the battle was made from.
    pub setup: Setup<G>,
    /// Setup warnings (R61).
    pub warnings: Vec<String>,
}

/// The hexes two away from a hex, each once, by way of its neighbours
/// clockwise from the one above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Ring {
    len: u8,
    hexes: [Far; 12],
}

/// A hex two away, with the one or two neighbours between it and the
/// centre, clockwise from the one above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Far {
    /// The hex.
    pub hex: Hex,
    ways: u8,
    via: [Hex; 2],
    /// The hex's [`Map::index`].
    pub(crate) index: u16,
    /// Each hex between's [`Map::index`].
    via_index: [u16; 2],
}

impl Far {
    /// The neighbours of the centre that touch the hex.
    pub fn via(&self) -> &[Hex] {
        &self.via[..usize::from(self.ways)]
    }

    /// The hexes between with their map indices.
    pub(crate) fn via_indexed(&self) -> impl Iterator<Item = (Hex, usize)> + '_ {
        self.via()
            .iter()
            .zip(&self.via_index)
            .map(|(h, i)| (*h, usize::from(*i)))
    }
}

impl Ring {
    pub(crate) fn as_slice(&self) -> &[Far] {
        &self.hexes[..usize::from(self.len)]
    }
}

/// A hex's neighbours, clockwise from the one above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Adjacent {
    len: u8,
    hexes: [Hex; 6],
    /// Each neighbour's [`Map::index`].
    index: [u16; 6],
}

impl Adjacent {
    pub(crate) fn as_slice(&self) -> &[Hex] {
        &self.hexes[..usize::from(self.len)]
    }

    /// The neighbours' map indices, in the same order.
    pub(crate) fn indices(&self) -> &[u16] {
        &self.index[..usize::from(self.len)]
    }
}

impl<G: OffMap> Battle<G> {
    /// The terrain of a hex on the map.
    #[inline]
    pub fn terrain(&self, hex: Hex) -> Terrain {
        self.terrain[self.map.index(hex)]
    }

    /// The neighbours of a hex on the map (R60).
    #[inline]
    pub fn neighbours(&self, hex: Hex) -> &[Hex] {
        self.adjacent[self.map.index(hex)].as_slice()
    }

    /// The neighbours of a hex with their map indices.
    pub(crate) fn adjacent(&self, hex: Hex) -> &Adjacent {
        &self.adjacent[self.map.index(hex)]
    }

    /// The terrain of the hex of this map index.
    pub(crate) fn terrain_at(&self, index: usize) -> Terrain {
        self.terrain[index]
    }

    /// Whether nothing enters the hex of this map index (R69).
    pub(crate) fn impassable_at(&self, index: usize) -> bool {
        self.terrain[index].cover() == Cover::Impassable
    }

    /// The hexes two away from a hex, on the map, each with the hexes
    /// between.
    pub fn ring(&self, hex: Hex) -> &[Far] {
        self.rings[self.map.index(hex)].as_slice()
    }

    /// Steps from a hex to leaving the map across the side's home edge.
    pub fn to_home(&self, hex: Hex, side: Side) -> u16 {
        self.map.to_edge(hex, self.homes[side.index()])
    }

    /// Marching steps from a hex to leaving the map across the side's home
    /// edge, hex to adjacent hex round impassable hexes (R69): over a river
    /// only by its bridges. [`Battle::to_home`] where nothing is in the way;
    /// from a hex cut off from that edge, or an impassable one, that
    /// straight count plus the map's columns and rows, farther than any
    /// hex with a way.
    pub fn path_home(&self, hex: Hex, side: Side) -> u16 {
        self.home_paths[side.index()][self.map.index(hex)]
    }

    /// Marching steps from one hex to another, hex to adjacent hex round
    /// impassable hexes (R69): over a river only by its bridges. On a map
    /// of more than [`PATHS_UP_TO`] hexes, and where no way joins the two,
    /// the straight count between them ([`Hex::distance`]).
    #[inline]
    pub fn path(&self, from: Hex, to: Hex) -> u16 {
        let paths = self
            .paths
            .0
            .get_or_init(|| Self::paths(self.map, &self.terrain, &self.adjacent));
        if paths.is_empty() {
            return from.distance(to);
        }
        let n = self.map.len();
        match paths[self.map.index(from) * n + self.map.index(to)] {
            u16::MAX => from.distance(to),
            steps => steps,
        }
    }

    /// [`Battle::path`] between every two hexes of a small map (a search
    /// outward from each hex); empty for a larger map.
    fn paths(map: Map, terrain: &[Terrain], adjacent: &[Adjacent]) -> Vec<u16> {
        let n = map.len();
        if n > PATHS_UP_TO {
            return Vec::new();
        }
        let passable = |i: usize| terrain[i].cover() != Cover::Impassable;
        let mut paths = vec![u16::MAX; n * n];
        let mut queue = VecDeque::new();
        for from in 0..n {
            let steps = &mut paths[from * n..(from + 1) * n];
            steps[from] = 0;
            queue.clear();
            queue.push_back(from);
            while let Some(i) = queue.pop_front() {
                for &j in adjacent[i].indices() {
                    let j = usize::from(j);
                    if steps[j] == u16::MAX && passable(j) {
                        steps[j] = steps[i] + 1;
                        queue.push_back(j);
                    }
                }
            }
        }
        paths
    }

    /// [`Battle::path_home`] for every hex, worked out once (a search
    /// outward from the edge's hexes).
    fn home_paths(map: Map, terrain: &[Terrain], adjacent: &[Adjacent], edge: Edge) -> Vec<u16> {
        const NONE: u16 = u16::MAX;
        let passable = |i: usize| terrain[i].cover() != Cover::Impassable;
        let mut steps = vec![NONE; map.len()];
        let mut queue = VecDeque::new();
        for hex in map.hexes() {
            let i = map.index(hex);
            if map.to_edge(hex, edge) == 1 && passable(i) {
                steps[i] = 1;
                queue.push_back(i);
            }
        }
        while let Some(i) = queue.pop_front() {
            for &n in adjacent[i].indices() {
                let n = usize::from(n);
                if steps[n] == NONE && passable(n) {
                    steps[n] = steps[i] + 1;
                    queue.push_back(n);
                }
            }
        }
        let cut_off = map.columns + map.rows;
        for hex in map.hexes() {
            let i = map.index(hex);
            if steps[i] == NONE {
                steps[i] = map.to_edge(hex, edge).saturating_add(cut_off);
            }
        }
        steps
    }
}

/// Everything that changes in a battle.
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(bound = "")]
pub struct State<G: OffMap> {
    /// Every side's pieces, one stack a hex and side, sorted by hex then
    /// side.
    pub stacks: Vec<Stack>,
    /// For each hex and side, 1 + the index of its stack in `stacks`, or 0
    /// where the side has none: a look-up needs no search.
    slots: Vec<u16>,
    /// The map's rows, to number the hexes for `slots`.
    rows: u16,
    /// The phase of the active side's turn.
    pub phase: Phase,
    /// Whose player turn it is.
    pub active: Side,
    /// Who plays first each game turn (R64).
    pub first: Side,
    /// The game turn, from 1 (R64).
    pub turn: u32,
    /// Victory points (R81).
    pub vp: [u32; 2],
    /// What is still to be done or decided, front first.
    pub steps: VecDeque<Step>,
    /// A flag was captured this player turn (R81's `capture_the_flag`).
    pub flag_taken: bool,
    /// How the battle ended, once it has.
    pub ending: Option<(Outcome, EndReason)>,
    /// The dice (R30).
    pub dice: Dice,
    /// The off-board grid, in a battle with one (R40-R57).
    pub grid: Option<Box<G::State>>,
}

impl<G: OffMap> Clone for State<G> {
    fn clone(&self) -> State<G> {
        State {
            stacks: self.stacks.clone(),
            slots: self.slots.clone(),
            rows: self.rows,
            phase: self.phase,
            active: self.active,
            first: self.first,
            turn: self.turn,
            vp: self.vp,
            steps: self.steps.clone(),
            flag_taken: self.flag_taken,
            ending: self.ending,
            dice: self.dice.clone(),
            grid: self.grid.clone(),
        }
    }

    /// Copies `source` into this state, reusing its buffers (bots and perft
    /// copy positions by the million).
    fn clone_from(&mut self, source: &State<G>) {
        self.stacks.clone_from(&source.stacks);
        self.slots.clone_from(&source.slots);
        self.rows = source.rows;
        self.phase = source.phase;
        self.active = source.active;
        self.first = source.first;
        self.turn = source.turn;
        self.vp = source.vp;
        self.steps.clone_from(&source.steps);
        self.flag_taken = source.flag_taken;
        self.ending = source.ending;
        self.dice.clone_from(&source.dice);
        self.grid.clone_from(&source.grid);
    }
}

/// A Warpspawn battle: its fixed parts and its state. Undo is the
/// contract's (`sandtable_core::undo`), from the barriers it reports.
#[derive(Debug)]
pub struct Game<G: OffMap> {
    pub(crate) battle: Arc<Battle<G>>,
    pub(crate) state: State<G>,
}

impl<G: OffMap> Clone for Game<G> {
    fn clone(&self) -> Game<G> {
        Game {
            battle: Arc::clone(&self.battle),
            state: self.state.clone(),
        }
    }

    /// Copies `source` into this game, reusing its buffers.
    fn clone_from(&mut self, source: &Game<G>) {
        if !Arc::ptr_eq(&self.battle, &source.battle) {
            self.battle = Arc::clone(&source.battle);
        }
        self.state.clone_from(&source.state);
    }
}

impl<G: OffMap> PartialEq for Game<G> {
    fn eq(&self, other: &Game<G>) -> bool {
        self.state == other.state && self.battle == other.battle
    }
}

impl<G: OffMap> Game<G> {
    /// Checks a setup against every ruling and sets the battle out: the
    /// first player as the scenario names it, or by a coin of the dice
    /// (R64). [`Game::new`] then begins its first game turn.
    pub(crate) fn set_out(setup: &Setup<G>, mut dice: Dice) -> Result<Game<G>, SetupError> {
        setup::validate(setup)?;
        let map = setup.map;
        let terrain = setup::terrain_grid(setup);
        let adjacent: Vec<Adjacent> = map
            .hexes()
            .map(|hex| {
                let mut adj = Adjacent::default();
                for n in map.neighbours(hex) {
                    adj.hexes[usize::from(adj.len)] = n;
                    adj.index[usize::from(adj.len)] = map.index(n) as u16;
                    adj.len += 1;
                }
                adj
            })
            .collect();
        let rings = map
            .hexes()
            .map(|hex| {
                let near = adjacent[map.index(hex)].as_slice();
                let mut ring = Ring::default();
                for m in near {
                    for d in adjacent[map.index(*m)].as_slice() {
                        if *d == hex || near.contains(d) {
                            continue;
                        }
                        let n = usize::from(ring.len);
                        match ring.hexes[..n].iter_mut().find(|f| f.hex == *d) {
                            Some(far) => {
                                far.via[usize::from(far.ways)] = *m;
                                far.via_index[usize::from(far.ways)] = map.index(*m) as u16;
                                far.ways += 1;
                            }
                            None => {
                                ring.hexes[n] = Far {
                                    hex: *d,
                                    ways: 1,
                                    via: [*m, Hex::default()],
                                    index: map.index(*d) as u16,
                                    via_index: [map.index(*m) as u16, 0],
                                };
                                ring.len += 1;
                            }
                        }
                    }
                }
                ring
            })
            .collect();
        let first = match setup.first_player {
            Some(i) => Side(i as u8),
            None => match dice.coin() {
                Ok(heads) => Side(u8::from(heads)),
                Err(out) => {
                    return Err(SetupError {
                        problems: vec![setup::SetupProblem {
                            path: "first_player".into(),
                            ruling: Some(sandtable_core::game::Ruling(64)),
                            message: format!(
                                "the first player is tossed for with a coin: {}",
                                out.reason()
                            ),
                        }],
                        more: 0,
                    });
                }
            },
        };
        let mut stacks: Vec<Stack> = Vec::new();
        for piece in &setup.pieces {
            let side = Side(piece.side as u8);
            let mut stack = Stack::new(piece.at, side);
            stack.armed = Band {
                men: Men::new(piece.infantry, piece.cavalry),
                officers: piece.officers,
            };
            stack.cannon = piece.cannon;
            stack.baggage = piece.baggage;
            stack.flags = u8::from(piece.flag);
            stacks.push(stack);
        }
        stacks.sort_by_key(|s| (s.hex, s.side));
        let home_paths = [0, 1]
            .map(|s: usize| Battle::<G>::home_paths(map, &terrain, &adjacent, setup.sides[s].home));
        let battle = Battle {
            map,
            home_paths,
            paths: Paths::default(),
            terrain,
            adjacent,
            rings,
            names: [setup.sides[0].name.clone(), setup.sides[1].name.clone()],
            homes: [setup.sides[0].home, setup.sides[1].home],
            turns: setup.turns,
            switches: setup.switches,
            setup: setup.clone(),
            warnings: setup::warnings(setup),
        };
        let mut state = State {
            stacks,
            slots: vec![0; map.len() * 2],
            rows: map.rows,
            phase: Phase::Cannonade,
            active: first,
            first,
            turn: 1,
            vp: [0, 0],
            steps: VecDeque::new(),
            flag_taken: false,
            ending: None,
            dice,
            grid: None,
        };
        state.renumber(0);
        if let Some(off_map) = &setup.offboard {
            state.grid = Some(Box::new(G::start(off_map, map, battle.homes)));
        }
        Ok(Game {
            battle: Arc::new(battle),
            state,
        })
    }

    /// The battle's fixed parts.
    #[inline]
    pub fn battle(&self) -> &Battle<G> {
        &self.battle
    }

    /// The state now.
    pub fn state(&self) -> &State<G> {
        &self.state
    }

    /// A side's name.
    pub fn name(&self, side: Side) -> &str {
        &self.battle.names[side.index()]
    }

    /// Every stack, by hex then side.
    #[inline]
    pub fn stacks(&self) -> &[Stack] {
        &self.state.stacks
    }

    /// The side's stack in a hex, if it has pieces there.
    #[inline]
    pub fn stack(&self, hex: Hex, side: Side) -> Option<&Stack> {
        self.state.stack(hex, side)
    }

    /// The side whose player turn it is.
    pub fn active(&self) -> Side {
        self.state.active
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.state.phase
    }

    /// The game turn, from 1.
    pub fn turn(&self) -> u32 {
        self.state.turn
    }

    /// Victory points of a side (R81).
    pub fn vp(&self, side: Side) -> u32 {
        self.state.vp[side.index()]
    }

    /// How the battle ended, once it has.
    pub fn ending(&self) -> Option<(Outcome, EndReason)> {
        self.state.ending
    }

    /// The decision the rules wait for, if one is owed (R64).
    pub fn owed(&self) -> Option<&Step> {
        self.state.steps.front()
    }

    /// The side that decides now: the one a owed decision waits for, else
    /// the active side; `None` once the battle is over.
    pub fn decider(&self) -> Option<Side> {
        if self.state.ending.is_some() {
            return None;
        }
        if let Some(side) = self.state.grid.as_deref().and_then(|g| g.decider()) {
            return Some(Side(side as u8));
        }
        Some(match self.state.steps.front() {
            Some(Step::Lose { side, .. })
            | Some(Step::Advance { side, .. })
            | Some(Step::LoseInRing { side, .. }) => *side,
            Some(Step::Rout { side, .. }) => side.other(),
            _ => self.state.active,
        })
    }

    /// Setup warnings (R61).
    pub fn warnings(&self) -> &[String] {
        &self.battle.warnings
    }

    /// The most armed men a hex may hold (R62): 20, or 10 with a cannon or
    /// baggage.
    pub fn limit(&self, hex: Hex) -> u16 {
        if self.state.items(hex) > 0 { 10 } else { 20 }
    }

    /// A stable 64-bit hash of the whole changing state, dice included.
    pub fn state_hash(&self) -> u64 {
        let s = &self.state;
        let mut h = Mix::new();
        for st in &s.stacks {
            h.u64(u64::from(st.hex.col) | u64::from(st.hex.row) << 16 | u64::from(st.side.0) << 32);
            for band in [
                st.armed,
                st.routing,
                st.prisoners,
                st.unarmed,
                st.marks.marched,
                st.marks.prisoners_marched,
                st.marks.unarmed_marched,
            ] {
                h.u64(
                    u64::from(band.men.inf)
                        | u64::from(band.men.cav) << 16
                        | u64::from(band.officers) << 32,
                );
            }
            let m = &st.marks;
            h.u64(
                u64::from(m.crew.inf)
                    | u64::from(m.crew.cav) << 16
                    | u64::from(st.flags) << 32
                    | u64::from(m.flag_hexes) << 40
                    | u64::from(
                        u8::from(st.cannon)
                            | u8::from(st.baggage) << 1
                            | u8::from(m.fired) << 2
                            | u8::from(m.cannon_marched) << 3
                            | u8::from(m.baggage_marched) << 4
                            | u8::from(m.attacked) << 5
                            | u8::from(m.defended) << 6
                            | u8::from(m.rally_rolled) << 7,
                    ) << 48
                    | u64::from(m.rout_moved) << 56,
            );
        }
        h.u64(
            s.phase as u64
                | u64::from(s.active.0) << 4
                | u64::from(s.first.0) << 5
                | u64::from(s.flag_taken) << 6
                | u64::from(s.turn) << 8,
        );
        h.u64(u64::from(s.vp[0]) | u64::from(s.vp[1]) << 32);
        for step in &s.steps {
            h.u64(step_word(step));
        }
        h.u64(match s.ending {
            None => 0,
            Some((Outcome::Draw, _)) => 1,
            Some((Outcome::Won(side), _)) => 2 + u64::from(side.0),
        });
        h.u128(s.dice.position());
        if let Some(grid) = &s.grid {
            grid.hash_into(&mut h);
        }
        h.finish()
    }
}

fn step_word(step: &Step) -> u64 {
    let hexes = |hs: &Hexes| {
        hs.as_slice().iter().fold(0u64, |a, h| {
            a.wrapping_mul(31)
                .wrapping_add(u64::from(h.col) << 16 | u64::from(h.row))
        })
    };
    match step {
        Step::Lose {
            side,
            hexes: hs,
            count,
            which,
            fighting,
            cause,
        } => {
            1 | u64::from(side.0) << 4
                | (*which as u64) << 5
                | u64::from(*fighting) << 6
                | (*cause as u64) << 7
                | u64::from(*count) << 10
                | hexes(hs) << 26
        }
        Step::Fate {
            losers,
            hexes: hs,
            fate,
        } => 2 | u64::from(losers.0) << 4 | (*fate as u64) << 5 | hexes(hs) << 8,
        Step::Rout { side, from, why } => {
            3 | u64::from(side.0) << 4
                | (*why as u64) << 5
                | u64::from(from.col) << 8
                | u64::from(from.row) << 24
        }
        Step::Advance { side, into, from } => {
            4 | u64::from(side.0) << 4 | hexes(into) << 8 ^ hexes(from) << 30
        }
        Step::EndTurn => 5,
        Step::LoseInRing {
            side,
            counter,
            count,
        } => 6 | u64::from(side.0) << 4 | u64::from(*counter) << 8 | u64::from(*count) << 24,
    }
}

impl<G: OffMap> State<G> {
    /// The slot of a hex and side, for a hex on the map.
    fn slot(&self, hex: Hex, side: Side) -> Option<usize> {
        let slot = (usize::from(hex.col) * usize::from(self.rows) + usize::from(hex.row)) * 2
            + side.index();
        (u16::from(hex.row) < self.rows && slot < self.slots.len()).then_some(slot)
    }

    /// Sets the slots of the stacks from `from` on.
    fn renumber(&mut self, from: usize) {
        for i in from..self.stacks.len() {
            let st = &self.stacks[i];
            if let Some(slot) = self.slot(st.hex, st.side) {
                self.slots[slot] = (i + 1) as u16;
            }
        }
    }

    /// Removes the stack at `i`.
    fn remove(&mut self, i: usize) -> Stack {
        let st = self.stacks.remove(i);
        if let Some(slot) = self.slot(st.hex, st.side) {
            self.slots[slot] = 0;
        }
        self.renumber(i);
        st
    }

    /// Takes the side's stack out of a hex.
    pub(crate) fn take(&mut self, hex: Hex, side: Side) -> Option<Stack> {
        let i = self.index_of(hex, side)?;
        Some(self.remove(i))
    }

    /// Where the side's stack in a hex is, if it has one: by its slot alone
    /// for a hex on the map.
    fn index_of(&self, hex: Hex, side: Side) -> Option<usize> {
        match self.slot(hex, side) {
            Some(slot) => usize::from(self.slots[slot]).checked_sub(1),
            None => self.find(hex, side).ok(),
        }
    }

    /// Where the side's stack in a hex is, or would go.
    pub(crate) fn find(&self, hex: Hex, side: Side) -> Result<usize, usize> {
        match self.slot(hex, side).map(|slot| self.slots[slot]) {
            Some(n) if n > 0 => Ok(usize::from(n) - 1),
            _ => self
                .stacks
                .binary_search_by(|s| (s.hex, s.side).cmp(&(hex, side))),
        }
    }

    /// The side's stack in a hex, if it has pieces there.
    pub fn stack(&self, hex: Hex, side: Side) -> Option<&Stack> {
        let n = self.slots[self.slot(hex, side)?];
        (n > 0).then(|| &self.stacks[usize::from(n) - 1])
    }

    /// The side's stack in the hex of this map index.
    pub(crate) fn stack_at(&self, index: usize, side: Side) -> Option<&Stack> {
        let n = self.slots[2 * index + side.index()];
        (n > 0).then(|| &self.stacks[usize::from(n) - 1])
    }

    /// Whether no side has pieces in the hex of this map index.
    pub(crate) fn empty_at(&self, index: usize) -> bool {
        self.slots[2 * index] == 0 && self.slots[2 * index + 1] == 0
    }

    /// The side's stack in a hex and the enemy's, looked up together.
    pub(crate) fn both(&self, hex: Hex, side: Side) -> (Option<&Stack>, Option<&Stack>) {
        let Some(slot) = self.slot(hex, Side(0)) else {
            return (None, None);
        };
        let at = |n: u16| (n > 0).then(|| &self.stacks[usize::from(n) - 1]);
        let (a, b) = (at(self.slots[slot]), at(self.slots[slot + 1]));
        if side.0 == 0 { (a, b) } else { (b, a) }
    }

    /// The side's stack in a hex, made empty if it has none there.
    pub(crate) fn stack_mut(&mut self, hex: Hex, side: Side) -> &mut Stack {
        let i = match self.find(hex, side) {
            Ok(i) => i,
            Err(i) => {
                self.stacks.insert(i, Stack::new(hex, side));
                self.renumber(i);
                i
            }
        };
        &mut self.stacks[i]
    }

    /// The side's stack in `from`, left empty by a march, becomes a new
    /// stack of the side in `to`, where it has none: the same as dropping
    /// the one and making the other, with the stacks shifted and numbered
    /// once, between the two places only.
    pub(crate) fn relocate(&mut self, from: Hex, to: Hex, side: Side) -> &mut Stack {
        let i = self.index_of(from, side).expect("the march leaves a stack");
        let j = self
            .find(to, side)
            .expect_err("the side has no stack there");
        debug_assert!(self.stacks[i].is_empty(), "only an emptied stack moves");
        if let Some(slot) = self.slot(from, side) {
            self.slots[slot] = 0;
        }
        self.stacks[i] = Stack::new(to, side);
        let (range, at) = if j > i {
            self.stacks[i..j].rotate_left(1);
            (i..j, j - 1)
        } else {
            self.stacks[j..=i].rotate_right(1);
            (j..i + 1, j)
        };
        for k in range {
            let st = &self.stacks[k];
            if let Some(slot) = self.slot(st.hex, st.side) {
                self.slots[slot] = (k + 1) as u16;
            }
        }
        &mut self.stacks[at]
    }

    /// Drops the side's stack in a hex if nothing is left in it.
    pub(crate) fn tidy(&mut self, hex: Hex, side: Side) {
        if let Some(i) = self.index_of(hex, side)
            && self.stacks[i].is_empty()
        {
            self.remove(i);
        }
    }

    /// Cannon and baggage in a hex, of either side (R62: at most one).
    pub fn items(&self, hex: Hex) -> u8 {
        [Side(0), Side(1)]
            .iter()
            .filter_map(|s| self.stack(hex, *s))
            .map(|s| u8::from(s.cannon) + u8::from(s.baggage))
            .sum()
    }

    /// Whether the side has a formation in the hex.
    pub fn formation_at(&self, hex: Hex, side: Side) -> bool {
        self.stack(hex, side).is_some_and(Stack::is_formation)
    }

    /// A side's armed men in all: a side with none ends the battle (R64).
    pub fn armed_men(&self, side: Side) -> u32 {
        let ring: u32 = self
            .grid
            .as_deref()
            .map_or(0, |g| g.armed_men(side.index()));
        ring + self
            .stacks
            .iter()
            .filter(|s| s.side == side)
            .map(|s| u32::from(s.armed.men.total()))
            .sum::<u32>()
    }
}

/// Whether a hex is covered or fortified (R60): cavalry ends its move on
/// entering one (R69).
pub fn is_cover(terrain: Terrain) -> bool {
    matches!(terrain.cover(), Cover::Covered | Cover::Fortified)
}

impl<G: OffMap> Game<G> {
    /// Whether a state read back fits the battle `fresh` started from the
    /// same setup, so that no rule indexes out of it: why not.
    pub(crate) fn fits(&self, fresh: &Game<G>) -> Result<(), String> {
        let map = self.battle.map;
        let s = &self.state;
        let side = |x: Side| x.0 < 2;
        if s.rows != fresh.state.rows || s.slots.len() != fresh.state.slots.len() {
            return Err("a state of another map".to_owned());
        }
        let sorted = s
            .stacks
            .windows(2)
            .all(|w| (w[0].hex, w[0].side) < (w[1].hex, w[1].side));
        if !sorted
            || s.stacks
                .iter()
                .any(|st| !map.contains(st.hex) || !side(st.side))
        {
            return Err("a stack off the map, of no side, or out of order".to_owned());
        }
        let mut slots = s.clone();
        slots.slots.iter_mut().for_each(|k| *k = 0);
        slots.renumber(0);
        if slots.slots != s.slots {
            return Err("the stacks' look-up does not match the stacks".to_owned());
        }
        let steps_ok = s.steps.iter().all(|step| match step {
            Step::Lose { side: x, hexes, .. } => side(*x) && hexes.fits(map),
            Step::Fate { losers, hexes, .. } => side(*losers) && hexes.fits(map),
            Step::Rout { side: x, from, .. } => side(*x) && map.contains(*from),
            Step::Advance {
                side: x,
                into,
                from,
            } => side(*x) && into.fits(map) && from.fits(map),
            Step::LoseInRing { side: x, .. } => side(*x),
            Step::EndTurn => true,
        });
        let ending_ok = s.ending.is_none_or(|(o, r)| {
            !matches!(o, Outcome::Won(x) if !side(x))
                && !matches!(r, EndReason::NoArmedMen(x) if !side(x))
        });
        if !side(s.active) || !side(s.first) || !steps_ok || !ending_ok {
            return Err("a side, hex or step that is not there".to_owned());
        }
        match (&s.grid, &fresh.state.grid) {
            (None, None) => Ok(()),
            (Some(g), Some(f)) => g.fits(f, map),
            _ => Err(
                "an off-board grid where the setup has none, or none where it has one".to_owned(),
            ),
        }
    }
}
