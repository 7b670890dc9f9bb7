//! The validated game: its fixed table (board, terrain, players, factors) and its
//! changing state, with queries for the UI, the CLI and bots. The values it is
//! made of are `pieces`'; commands are checked in `check`, carried out into
//! events in `apply`, listed in `legal`.

use std::ops::Range;
use std::sync::Arc;

use sandtable_core::dice::Dice;

use crate::choice::Choice;
use crate::geometry::{Board, Facing, Square};
use crate::pieces::{
    Activation, DrawOffer, DrawReason, Factor, FactorId, Occupant, Outcome, Place, Player,
    PlayerId, Unit, UnitId, activation_limit,
};
use crate::setup::{Setup, SetupError, SetupProblem};
use crate::stash::StashList;
use crate::terrain::{Ground, TerrainPiece};

/// The fixed part of a game, shared between copies of it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Table {
    pub(crate) board: Board,
    pub(crate) ground: Vec<Ground>,
    pub(crate) pieces: Vec<TerrainPiece>,
    pub(crate) players: Vec<Player>,
    pub(crate) factors: Vec<Factor>,
    pub(crate) units: Vec<Unit>,
    pub(crate) seed: u64,
    pub(crate) turn_limit: Option<u32>,
    pub(crate) warnings: Vec<SetupProblem>,
    /// Stash squares (R20), in setup order.
    pub(crate) stashes: Vec<Square>,
    /// Index into `stashes` for every square, or `NO_STASH`; empty when the
    /// game has no stashes.
    pub(crate) stash_at: Vec<u16>,
    pub(crate) stash_list: StashList,
}

/// No stash on a square, in `Table::stash_at`.
pub(crate) const NO_STASH: u16 = u16::MAX;

impl Table {
    /// The index of the stash token on a square, if setup put one there.
    pub(crate) fn stash_index(&self, sq: Square) -> Option<usize> {
        if self.stash_at.is_empty() {
            return None;
        }
        match self.stash_at[self.board.index(sq)] {
            NO_STASH => None,
            k => Some(usize::from(k)),
        }
    }
}

/// Empty square in the occupancy grid.
const EMPTY: u16 = u16::MAX;
/// Flag marking a base in the occupancy grid.
const BASE_FLAG: u16 = 0x8000;

/// The changing part of a game.
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct State {
    /// Occupancy of every square: `EMPTY`, a unit id, or `BASE_FLAG | factor`.
    pub(crate) cells: Vec<u16>,
    pub(crate) places: Vec<Place>,
    /// The turn in which each unit was last activated (0: never).
    pub(crate) activated_in: Vec<u32>,
    pub(crate) base_active: Vec<bool>,
    pub(crate) current: PlayerId,
    pub(crate) turn: u32,
    pub(crate) activations_left: u16,
    /// The activation limit fixed when this turn began (R6).
    pub(crate) activation_limit: u16,
    pub(crate) activation: Option<Activation>,
    /// Activations paused by a bonus from a stash, innermost last (R23).
    pub(crate) paused: Vec<Activation>,
    /// The choice a stash result waits for (R22).
    pub(crate) pending: Option<Choice>,
    /// Which stashes are still undiscovered (R21).
    pub(crate) stash_present: Vec<bool>,
    pub(crate) outcome: Option<Outcome>,
    /// The draw offered and not yet agreed or declined (R24).
    pub(crate) draw_offer: Option<DrawOffer>,
    /// Where every roll comes from (R30).
    pub(crate) dice: Dice,
}

// Written out so that `clone_from` reuses the buffers: bots copy positions
// into the same games over and over.
impl Clone for State {
    fn clone(&self) -> State {
        let mut copy = State {
            cells: Vec::new(),
            places: Vec::new(),
            activated_in: Vec::new(),
            base_active: Vec::new(),
            current: self.current,
            turn: self.turn,
            activations_left: self.activations_left,
            activation_limit: self.activation_limit,
            activation: self.activation,
            paused: Vec::new(),
            pending: self.pending,
            stash_present: Vec::new(),
            outcome: self.outcome,
            draw_offer: self.draw_offer,
            dice: self.dice.clone(),
        };
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &State) {
        // Destructured, so that a new field cannot be forgotten here.
        let State {
            cells,
            places,
            activated_in,
            base_active,
            current,
            turn,
            activations_left,
            activation_limit,
            activation,
            paused,
            pending,
            stash_present,
            outcome,
            draw_offer,
            dice,
        } = source;
        self.cells.clone_from(cells);
        self.places.clone_from(places);
        self.activated_in.clone_from(activated_in);
        self.base_active.clone_from(base_active);
        self.current = *current;
        self.turn = *turn;
        self.activations_left = *activations_left;
        self.activation_limit = *activation_limit;
        self.activation = *activation;
        self.paused.clone_from(paused);
        self.pending = *pending;
        self.stash_present.clone_from(stash_present);
        self.outcome = *outcome;
        self.draw_offer = *draw_offer;
        self.dice.clone_from(dice);
    }
}

impl State {
    pub(crate) fn occupant(&self, board: Board, sq: Square) -> Option<Occupant> {
        decode(self.cells[board.index(sq)])
    }

    pub(crate) fn set_cell(&mut self, board: Board, sq: Square, occupant: Option<Occupant>) {
        self.cells[board.index(sq)] = match occupant {
            None => EMPTY,
            Some(Occupant::Unit(u)) => u.0,
            Some(Occupant::Base(f)) => BASE_FLAG | f.0,
        };
    }

    pub(crate) fn units_on_board(&self, table: &Table, player: PlayerId) -> usize {
        let units = &table.players[player.index()].units;
        self.places[usize::from(units.start)..usize::from(units.end)]
            .iter()
            .filter(|p| matches!(p, Place::Board { .. }))
            .count()
    }

    /// Whether any player has a unit on the board (R28).
    pub(crate) fn any_unit_on_board(&self) -> bool {
        self.places.iter().any(|p| matches!(p, Place::Board { .. }))
    }

    pub(crate) fn has_active_base(&self, table: &Table, player: PlayerId) -> bool {
        let f = &table.players[player.index()].factors;
        self.base_active[usize::from(f.start)..usize::from(f.end)]
            .iter()
            .any(|a| *a)
    }
}

fn decode(cell: u16) -> Option<Occupant> {
    match cell {
        EMPTY => None,
        c if c & BASE_FLAG != 0 => Some(Occupant::Base(FactorId(c & !BASE_FLAG))),
        c => Some(Occupant::Unit(UnitId(c))),
    }
}

/// A game of Conflict at Cache: a validated table and its state. Undo is
/// the contract's (`sandtable_core::undo`), from the barriers it reports.
#[derive(Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) table: Arc<Table>,
    pub(crate) state: State,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            table: Arc::clone(&self.table),
            state: self.state.clone(),
        }
    }

    /// Copies `source` into this game, reusing its buffers.
    fn clone_from(&mut self, source: &Game) {
        let Game { table, state } = source;
        if !Arc::ptr_eq(&self.table, table) {
            self.table = Arc::clone(table);
        }
        self.state.clone_from(state);
    }
}

impl Game {
    /// Validates a setup (R1 to R5, R12, R16) and starts the game with the
    /// setup's seed: the first player is the one named, or one drawn with the
    /// seed (R5, R30).
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        Game::with_dice(setup, Dice::seeded(setup.seed))
    }

    /// As [`Game::new`], with every roll from `dice` (R30): scripted rolls
    /// for a game played beside a real table, or a test's. Scripted dice
    /// that run out before the first player is drawn (R5) are a problem of
    /// the setup's `first_player`.
    pub fn with_dice(setup: &Setup, mut dice: Dice) -> Result<Game, SetupError> {
        let valid = setup.check_all()?;
        let board = setup.board;
        let mut players = Vec::new();
        let mut factors = Vec::new();
        let mut units = Vec::new();
        let mut cells = vec![EMPTY; board.len()];
        let mut places = Vec::new();
        // Validation holds players, Factors and units to `MAX_PIECES`, so
        // every index fits in its 15 or 16 bits.
        let id = |n: usize| u16::try_from(n).expect("validated: at most MAX_PIECES pieces");
        for (p, player) in setup.players.iter().enumerate() {
            let pid = PlayerId(id(p));
            let first_factor = id(factors.len());
            let first_unit = id(units.len());
            for (f, factor) in player.factors.iter().enumerate() {
                let fid = FactorId(id(factors.len()));
                let start = id(units.len());
                cells[board.index(factor.base)] = BASE_FLAG | fid.0;
                for unit in &factor.units {
                    cells[board.index(unit.at)] = id(units.len());
                    units.push(Unit {
                        player: pid,
                        factor: fid,
                        name: unit.name.clone(),
                    });
                    places.push(Place::Board {
                        square: unit.at,
                        facing: unit.facing,
                    });
                }
                factors.push(Factor {
                    player: pid,
                    index: id(f),
                    base: factor.base,
                    units: start..id(units.len()),
                });
            }
            players.push(Player {
                name: player.name.clone(),
                factors: first_factor..id(factors.len()),
                units: first_unit..id(units.len()),
            });
        }
        let first = match setup.first_player {
            Some(i) => i,
            None => dice.draw(players.len()).map_err(|out| SetupError {
                problems: vec![SetupProblem {
                    path: "first_player".into(),
                    ruling: Some(crate::Ruling::R5.into()),
                    message: format!(
                        "left out, so it is drawn with the dice, but {}",
                        out.reason()
                    ),
                }],
                more: 0,
            })?,
        };
        let mut stash_at = Vec::new();
        if !setup.stashes.is_empty() {
            stash_at = vec![NO_STASH; board.len()];
            for (k, sq) in setup.stashes.iter().enumerate() {
                // Validation holds stashes to `MAX_STASHES`, below `NO_STASH`.
                stash_at[board.index(*sq)] =
                    u16::try_from(k).expect("validated: at most MAX_STASHES stashes");
            }
        }
        let table = Table {
            stashes: setup.stashes.clone(),
            stash_at,
            stash_list: setup.stash_list.clone(),
            board,
            ground: valid.ground,
            pieces: setup.terrain.clone(),
            players,
            factors,
            seed: setup.seed,
            turn_limit: setup.turn_limit,
            warnings: valid.warnings,
            units,
        };
        let n = table.units.len();
        let mut state = State {
            cells,
            places,
            activated_in: vec![0; n],
            base_active: vec![true; table.factors.len()],
            current: PlayerId(id(first)),
            turn: 1,
            activations_left: 0,
            activation_limit: 0,
            activation: None,
            paused: Vec::new(),
            pending: None,
            stash_present: vec![true; table.stashes.len()],
            outcome: None,
            draw_offer: None,
            dice,
        };
        state.activation_limit = activation_limit(state.units_on_board(&table, state.current));
        state.activations_left = state.activation_limit;
        if !state.any_unit_on_board() {
            // R28: a setup without units can never change.
            state.outcome = Some(Outcome::Draw(DrawReason::NoUnits));
        }
        Ok(Game {
            table: Arc::new(table),
            state,
        })
    }

    /// The board's size.
    pub fn board(&self) -> Board {
        self.table.board
    }

    /// The ground of a square.
    pub fn ground(&self, sq: Square) -> Ground {
        self.table.ground[self.table.board.index(sq)]
    }

    /// The terrain pieces as laid at setup.
    pub fn terrain_pieces(&self) -> &[TerrainPiece] {
        &self.table.pieces
    }

    /// The players in turn order.
    pub fn players(&self) -> &[Player] {
        &self.table.players
    }

    /// A player.
    pub fn player(&self, id: PlayerId) -> &Player {
        &self.table.players[id.index()]
    }

    /// Every Factor.
    pub fn factors(&self) -> &[Factor] {
        &self.table.factors
    }

    /// Every unit, as fixed at setup.
    pub fn units(&self) -> &[Unit] {
        &self.table.units
    }

    /// Where a unit is now.
    pub fn place(&self, unit: UnitId) -> Place {
        self.state.places[unit.index()]
    }

    /// Whether a Factor's Base is still on the board.
    pub fn base_active(&self, factor: FactorId) -> bool {
        self.state.base_active[factor.index()]
    }

    /// What stands on a square (None when empty or off the board).
    pub fn occupant(&self, sq: Square) -> Option<Occupant> {
        if !self.table.board.contains(sq) {
            return None;
        }
        self.state.occupant(self.table.board, sq)
    }

    /// The unit on a square, if any.
    pub fn unit_at(&self, sq: Square) -> Option<UnitId> {
        match self.occupant(sq) {
            Some(Occupant::Unit(u)) => Some(u),
            _ => None,
        }
    }

    /// The player whose turn it is.
    pub fn current_player(&self) -> PlayerId {
        self.state.current
    }

    /// The seat of the player whose turn it is, as the game contract names
    /// seats.
    pub fn seat_to_move(&self) -> sandtable_core::game::Seat {
        sandtable_core::game::Seat(self.state.current.0)
    }

    /// The turn number: 1 for the first player's first turn, +1 at every pass.
    pub fn turn(&self) -> u32 {
        self.state.turn
    }

    /// How many more units the current player may activate this turn (R6).
    pub fn activations_left(&self) -> u16 {
        self.state.activations_left
    }

    /// Whether the unit has already been activated in this turn (R6).
    pub fn activated_this_turn(&self, unit: UnitId) -> bool {
        self.state.activated_in[unit.index()] == self.state.turn
    }

    /// The unit acting now, with its budget (R7).
    pub fn activation(&self) -> Option<Activation> {
        self.state.activation
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.state.outcome.is_some()
    }

    /// Whether the player still has an active Base (R10).
    pub fn in_game(&self, player: PlayerId) -> bool {
        self.state.has_active_base(&self.table, player)
    }

    /// The choice a stash result waits for, if any (R22).
    pub fn pending(&self) -> Option<Choice> {
        self.state.pending
    }

    /// The draw offered and not yet agreed or declined (R24).
    pub fn draw_offer(&self) -> Option<DrawOffer> {
        self.state.draw_offer
    }

    /// Activations paused by a bonus from a stash, innermost last (R23).
    pub fn paused_activations(&self) -> &[Activation] {
        &self.state.paused
    }

    /// Squares of the stashes not yet discovered (R21).
    pub fn stashes(&self) -> impl Iterator<Item = Square> + '_ {
        self.table
            .stashes
            .iter()
            .zip(&self.state.stash_present)
            .filter(|(_, present)| **present)
            .map(|(sq, _)| *sq)
    }

    /// Whether an undiscovered stash lies on the square.
    pub fn stash_at(&self, sq: Square) -> bool {
        self.table
            .stash_index(sq)
            .is_some_and(|k| self.state.stash_present[k])
    }

    /// The stash list this game rolls on (R21).
    pub fn stash_list(&self) -> &StashList {
        &self.table.stash_list
    }

    /// Where the game's rolls come from (R30): the seeded generator, or the
    /// scripted rolls with how many are used.
    pub fn dice(&self) -> &Dice {
        &self.state.dice
    }

    /// The seed the game was started with (R30).
    pub fn seed(&self) -> u64 {
        self.table.seed
    }

    /// The turn limit, if the scenario set one (R11).
    pub fn turn_limit(&self) -> Option<u32> {
        self.table.turn_limit
    }

    /// Setup warnings worth showing (R2: a Factor without ten units).
    pub fn warnings(&self) -> &[SetupProblem] {
        &self.table.warnings
    }

    /// Units of a player on the board now.
    pub fn units_on_board(&self, player: PlayerId) -> usize {
        self.state.units_on_board(&self.table, player)
    }

    /// The unit's square and facing, if it is on the board.
    pub fn position(&self, unit: UnitId) -> Option<(Square, Facing)> {
        match self.state.places[unit.index()] {
            Place::Board { square, facing } => Some((square, facing)),
            _ => None,
        }
    }

    /// Replaces the game's generator with a fresh one seeded with `seed`, so that
    /// dice rolled from now on (R21 stash rolls) no longer follow the game's own
    /// seed (R30). Bots call it on their private copies of a game, so that a
    /// search samples dice it cannot know instead of peeking at the real ones.
    pub fn reseed(&mut self, seed: u64) {
        self.state.dice = Dice::seeded(seed);
    }

    /// A stable 64-bit hash of the whole changing state, generator included
    /// (a multiply-and-shift mix of a fixed encoding, a 64-bit word at a time,
    /// the same on every platform and build). Bots hash every position they
    /// search, so it is kept cheap.
    pub fn state_hash(&self) -> u64 {
        let mut h = Mix::new();
        let s = &self.state;
        h.u64(u64::from(s.current.0));
        h.u64(u64::from(s.turn));
        h.u64(u64::from(s.activations_left));
        match s.outcome {
            None => h.u64(0),
            Some(Outcome::Draw(DrawReason::TurnLimit)) => h.u64(1),
            // Far from 2 + player, which a win hashes as.
            Some(Outcome::Draw(DrawReason::NoUnits)) => h.u64(1 << 40),
            Some(Outcome::Draw(DrawReason::Agreed)) => h.u64(2 << 40),
            Some(Outcome::Won(p)) => h.u64(2 + u64::from(p.0)),
        }
        match s.activation {
            None => h.u64(0),
            Some(a) => {
                h.u64(1 + u64::from(a.unit.0));
                h.u64(u64::from(a.given));
                h.u64(u64::from(a.earned));
                h.u64(u64::from(a.spent));
                h.square(a.start_square);
                h.u64(a.start_facing as u64);
            }
        }
        // One word a unit: where it is (kind in bits 0-1, facing or holder
        // from bit 2, column from bit 5, row from bit 21) and the turn of its
        // last activation from bit 37.
        for (place, turn) in s.places.iter().zip(&s.activated_in) {
            let at = match *place {
                Place::Board { square, facing } => {
                    1 | (facing as u64) << 2
                        | u64::from(square.col) << 5
                        | u64::from(square.row) << 21
                }
                Place::Custody { holder } => 2 | u64::from(holder.0) << 2,
                Place::Removed => 3,
            };
            h.u64(at | u64::from(*turn) << 37);
        }
        for active in &s.base_active {
            h.u64(u64::from(*active));
        }
        // V101 state is hashed only when present, so V100 hashes stay as they were.
        if !s.stash_present.is_empty() {
            for present in &s.stash_present {
                h.u64(u64::from(*present));
            }
        }
        if let Some(choice) = s.pending {
            h.u64(0x100 + choice.code());
        }
        for a in &s.paused {
            h.u64(0x200 + u64::from(a.unit.0));
            h.u64(u64::from(a.given) | u64::from(a.earned) << 16 | u64::from(a.spent) << 32);
        }
        // Hashed only while an offer stands, so other hashes stay as they were.
        if let Some(offer) = s.draw_offer {
            h.u64(0x300 + u64::from(offer.by.0));
            h.u64(u64::from(offer.last.0));
        }
        let pos = s.dice.position();
        h.u64(pos as u64);
        h.u64((pos >> 64) as u64);
        h.finish()
    }
}

/// The contract's state-hash mixer, with the squares of Cache.
use sandtable_core::hash::Mix;

trait MixSquare {
    fn square(&mut self, sq: Square);
}

impl MixSquare for Mix {
    fn square(&mut self, sq: Square) {
        self.u64(u64::from(sq.col) | (u64::from(sq.row) << 16));
    }
}

/// A game as it is written ([`sandtable_core::wire`]): its fixed part and
/// its state.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct GameForm {
    table: Table,
    state: State,
}

impl sandtable_core::wire::Wire for Game {
    type Form = GameForm;

    fn to_form(&self) -> GameForm {
        GameForm {
            table: (*self.table).clone(),
            state: self.state.clone(),
        }
    }

    /// A game read back, refused where its parts do not fit together: a
    /// board of squares its pieces and cells do not match, an id out of
    /// range, a unit where its place does not put it.
    fn from_form(form: GameForm) -> Result<Game, String> {
        fits(&form.table, &form.state)?;
        Ok(Game {
            table: Arc::new(form.table),
            state: form.state,
        })
    }
}

/// Whether a table and a state read back fit together, so that no rule
/// indexes out of them: why not.
fn fits(t: &Table, s: &State) -> Result<(), String> {
    let squares = t.board.len();
    let side = usize::from(crate::geometry::MAX_BOARD_SIDE);
    if t.board.is_empty() || usize::from(t.board.columns) > side || usize::from(t.board.rows) > side
    {
        return Err(format!(
            "a board of {} x {} squares",
            t.board.columns, t.board.rows
        ));
    }
    let (players, factors, units) = (t.players.len(), t.factors.len(), t.units.len());
    let lengths = [
        ("ground", t.ground.len(), squares),
        ("cells", s.cells.len(), squares),
        ("places", s.places.len(), units),
        ("activated_in", s.activated_in.len(), units),
        ("base_active", s.base_active.len(), factors),
        ("stash_present", s.stash_present.len(), t.stashes.len()),
    ];
    for (what, len, wanted) in lengths {
        if len != wanted {
            return Err(format!("{len} {what} where {wanted} are needed"));
        }
    }
    if !t.stash_at.is_empty() && t.stash_at.len() != squares {
        return Err(format!(
            "{} stash squares for {squares} squares",
            t.stash_at.len()
        ));
    }
    let range = |r: &Range<u16>, n: usize| r.start <= r.end && usize::from(r.end) <= n;
    let player_ok = |p: PlayerId| p.index() < players;
    let square_ok = |sq: Square| t.board.contains(sq);
    for p in &t.players {
        if !range(&p.factors, factors) || !range(&p.units, units) {
            return Err(format!(
                "player {:?} holds pieces that are not there",
                p.name
            ));
        }
    }
    for f in &t.factors {
        if !player_ok(f.player) || !square_ok(f.base) || !range(&f.units, units) {
            return Err("a Factor out of range".to_owned());
        }
    }
    for u in &t.units {
        if !player_ok(u.player) || usize::from(u.factor.0) >= factors {
            return Err("a unit out of range".to_owned());
        }
    }
    if t.stashes.iter().any(|sq| !square_ok(*sq))
        || t.stash_at
            .iter()
            .any(|k| *k != NO_STASH && usize::from(*k) >= t.stashes.len())
    {
        return Err("a stash off the board".to_owned());
    }
    for (k, c) in s.cells.iter().enumerate() {
        match decode(*c) {
            Some(Occupant::Unit(u)) if usize::from(u.0) >= units => {
                return Err(format!("square {k} holds unit {} of {units}", u.0));
            }
            Some(Occupant::Base(f)) if usize::from(f.0) >= factors => {
                return Err(format!("square {k} holds Factor {} of {factors}", f.0));
            }
            _ => {}
        }
    }
    for (k, p) in s.places.iter().enumerate() {
        let ok = match *p {
            Place::Board { square, .. } => {
                square_ok(square)
                    && decode(s.cells[t.board.index(square)])
                        == Some(Occupant::Unit(UnitId(k as u16)))
            }
            Place::Custody { holder } => player_ok(holder),
            Place::Removed => true,
        };
        if !ok {
            return Err(format!("unit {k}'s place does not hold it"));
        }
    }
    let activation_ok = |a: &Activation| {
        usize::from(a.unit.0) < units
            && square_ok(a.start_square)
            && u32::from(a.spent) <= u32::from(a.given) + u32::from(a.earned)
    };
    if !player_ok(s.current)
        || s.activation.as_ref().is_some_and(|a| !activation_ok(a))
        || s.paused.iter().any(|a| !activation_ok(a))
        || s.draw_offer
            .is_some_and(|o| !player_ok(o.by) || !player_ok(o.last))
        || matches!(s.outcome, Some(Outcome::Won(p)) if !player_ok(p))
        || matches!(
            s.pending,
            Some(
                Choice::PlaceAnywhere { unit }
                    | Choice::ReturnUnfriendly { unit }
                    | Choice::ReturnThisUnit { unit }
            ) if usize::from(unit.0) >= units
        )
    {
        return Err("a player or an activation out of range".to_owned());
    }
    Ok(())
}
