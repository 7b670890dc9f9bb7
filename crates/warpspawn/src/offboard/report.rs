//! The ring as each viewer may see it (R46, R51, R55, R57), for the JSON
//! summary's `offboard` section and the text board's ring: the counters it
//! locates, with the pieces of those it sees; how many it does not locate
//! in each reserve; the orders it knows; who has sealed; the fight in
//! progress and the forces it may know. The referee sees everything.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::command::Order;
use super::counter::Composition;
use super::plug::Game;
use super::state::{FightStep, Stage};
use super::ticks::{CounterId, Kind};
use super::view::GridView;
use crate::terms::Side;

/// The ring in the JSON summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RingSummary {
    /// `orders` while both sides write, `moving` while the ring moves and
    /// fights, `table` once it has moved this game turn (R47).
    pub stage: String,
    /// The counters the viewer locates, by side and number (R46, R55).
    pub counters: Vec<CounterSummary>,
    /// For each side, its counters in its reserve the viewer does not
    /// locate: "Blue reserve: 3 counters" (R46).
    pub reserve: BTreeMap<String, usize>,
    /// While orders or forces are sealed, which sides have committed (R47,
    /// R51).
    pub committed: BTreeMap<String, bool>,
    /// The orders of this game turn the viewer knows: its own as written,
    /// the enemy's once revealed where no square of it lies in its side's
    /// reserve (R46, R47, R57).
    pub orders: Vec<OrderSummary>,
    /// Counters ordered to enter that may still come on this game turn
    /// (R48), of those the viewer knows.
    pub entering: Vec<CounterRef>,
    /// The edge squares each side sees from the map this game turn (R55):
    /// the viewer's own, or both for the referee.
    pub seen: BTreeMap<String, Vec<String>>,
    /// The fight in progress, if one is.
    pub fight: Option<FightSummary>,
}

/// A counter as the viewer knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterSummary {
    /// Its side.
    pub player: String,
    /// Its number.
    pub number: u16,
    /// Its square, like `"2E"`.
    pub square: String,
    /// What it holds; null where the viewer may not know (R46, R55).
    pub pieces: Option<PiecesSummary>,
}

/// A counter's pieces and force points (R43): `infantry`, `cavalry`,
/// `officers`, `cannon`, `baggage`, `flag` and `points`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PiecesSummary {
    /// What it holds.
    #[serde(flatten)]
    pub pieces: Composition,
    /// Force points (R43).
    pub points: u32,
}

impl From<Composition> for PiecesSummary {
    fn from(pieces: Composition) -> PiecesSummary {
        PiecesSummary {
            pieces,
            points: pieces.points(),
        }
    }
}

/// A counter named by side and number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterRef {
    /// Its side.
    pub player: String,
    /// Its number.
    pub number: u16,
}

/// A counter's order as the viewer knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderSummary {
    /// Its side.
    pub player: String,
    /// Its number.
    pub number: u16,
    /// `hold`, `enter`, or the squares entered, like `"2E 2F"`.
    pub order: String,
    /// It scouts (R54).
    pub scout: bool,
}

/// A fight as the viewer may know it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightSummary {
    /// Where.
    pub square: String,
    /// `meet`, `swap` or `breakthrough` (R49).
    pub kind: String,
    /// The side that defends, null when both are moving.
    pub defender: Option<String>,
    /// Its counters.
    pub counters: Vec<CounterRef>,
    /// What it waits for: `forces`, `cancel` or `fallback`.
    pub waiting: String,
    /// Which sides have committed their forces (R51).
    pub committed: BTreeMap<String, bool>,
    /// Forces picked so far that the viewer may know: its own until both
    /// commit, then everyone's (R51).
    pub forces: Vec<ForcesSummary>,
}

/// The pieces a counter commits to a fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForcesSummary {
    /// Its side.
    pub player: String,
    /// Its number.
    pub number: u16,
    /// What it commits.
    pub pieces: PiecesSummary,
}

fn order_words(order: &Order) -> String {
    match order {
        Order::Hold => "hold".to_owned(),
        Order::Enter => "enter".to_owned(),
        Order::Path(path) => path
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    }
}

impl Game {
    /// The ring as `viewer` sees it (`None`: the referee): the counters it
    /// locates, with their pieces where it may know them, and how many of
    /// each side's it does not. While orders are written, a side's own
    /// counters are as it has split and merged them.
    pub fn ring_view(&self, viewer: Option<usize>) -> Option<GridView> {
        let g = self.grid()?;
        match &g.stage {
            Stage::Orders(orders) => {
                let mut grid = g.grid.clone();
                for side in orders.iter() {
                    if viewer.is_none_or(|v| v == side.side) {
                        grid.counters.retain(|c| c.id.side != side.side);
                        grid.counters.extend(side.counters.iter().copied());
                    }
                }
                grid.counters.sort_by_key(|c| c.id);
                Some(grid.view(viewer))
            }
            _ => Some(g.grid.view(viewer)),
        }
    }

    /// The JSON summary's ring for `viewer` (`None`: the referee).
    pub fn ring_summary(&self, viewer: Option<usize>) -> Option<RingSummary> {
        let g = self.grid()?;
        let view = self.ring_view(viewer)?;
        let names = &self.battle.names;
        let sees = |side: usize| viewer.is_none_or(|v| v == side);
        let counters = view
            .counters
            .iter()
            .map(|c| CounterSummary {
                player: names[c.side].clone(),
                number: c.number,
                square: c.at.to_string(),
                pieces: c.pieces.map(PiecesSummary::from),
            })
            .collect();
        let reserve = (0..2)
            .map(|s| (names[s].clone(), view.unlocated[s]))
            .collect();
        let located = |side: usize, number: u16| {
            view.counters
                .iter()
                .any(|c| c.side == side && c.number == number)
        };
        let mut committed = BTreeMap::new();
        let mut orders = Vec::new();
        let stage = match &g.stage {
            Stage::Orders(written) => {
                for side in written.iter() {
                    committed.insert(names[side.side].clone(), side.committed);
                    if sees(side.side) {
                        for (number, (order, scout)) in &side.orders {
                            orders.push(OrderSummary {
                                player: names[side.side].clone(),
                                number: *number,
                                order: order_words(order),
                                scout: *scout,
                            });
                        }
                    }
                }
                "orders"
            }
            Stage::Moving(_) => "moving",
            Stage::Table => "table",
        };
        if !matches!(g.stage, Stage::Orders(_)) {
            for (id, (at, order, scout)) in &g.revealed {
                if sees(id.side) || order.shows_enemy(*at, &g.grid.reserves[id.side]) {
                    orders.push(OrderSummary {
                        player: names[id.side].clone(),
                        number: id.number,
                        order: order_words(order),
                        scout: *scout,
                    });
                }
            }
        }
        let entering = g
            .entering
            .iter()
            .filter(|id| sees(id.side) || located(id.side, id.number))
            .map(|id| CounterRef {
                player: names[id.side].clone(),
                number: id.number,
            })
            .collect();
        let seen = (0..2)
            .filter(|s| sees(*s))
            .map(|s| {
                (
                    names[s].clone(),
                    g.grid.seen_from_map[s]
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                )
            })
            .collect();
        let fight = g.fight.as_deref().map(|f| {
            let revealed = f.forces.iter().all(|x| x.committed);
            let mut forces = Vec::new();
            for (s, side) in f.forces.iter().enumerate() {
                if !(revealed || sees(s)) {
                    continue;
                }
                for c in &side.counters {
                    if let Some(p) = side
                        .committed(c.id.number)
                        .filter(|_| revealed || side.is_picked(c.id.number))
                    {
                        forces.push(ForcesSummary {
                            player: names[s].clone(),
                            number: c.id.number,
                            pieces: p.into(),
                        });
                    }
                }
            }
            FightSummary {
                square: f.contest.square.to_string(),
                kind: match f.contest.kind {
                    Kind::Meet { .. } => "meet",
                    Kind::Swap => "swap",
                    Kind::Breakthrough { .. } => "breakthrough",
                }
                .to_owned(),
                defender: match f.contest.kind {
                    Kind::Meet { defender } => defender.map(|d| names[d].clone()),
                    Kind::Swap => None,
                    Kind::Breakthrough { defender } => Some(names[defender].clone()),
                },
                counters: f
                    .contest
                    .counters
                    .iter()
                    .map(|id| CounterRef {
                        player: names[id.side].clone(),
                        number: id.number,
                    })
                    .collect(),
                waiting: match f.step {
                    FightStep::Forces => "forces",
                    FightStep::Cancel { .. } => "cancel",
                    FightStep::Fallback { .. } => "fallback",
                }
                .to_owned(),
                committed: (0..2)
                    .map(|s| (names[s].clone(), f.forces[s].committed))
                    .collect(),
                forces,
            }
        });
        Some(RingSummary {
            stage: stage.to_owned(),
            counters,
            reserve,
            committed,
            orders,
            entering,
            seen,
            fight,
        })
    }

    /// The ring drawn as text for `viewer` (`None`: the referee): each
    /// square holding counters the viewer locates, with tokens like `R5`
    /// and the pieces it may know, the unlocated counters of each reserve,
    /// and what the ring waits for.
    pub fn ring_text(&self, viewer: Option<usize>) -> Option<String> {
        let summary = self.ring_summary(viewer)?;
        let view = self.ring_view(viewer)?;
        let marks =
            sandtable_core::game::player_marks(self.battle.names.iter().map(String::as_str));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "off-board grid (R40-R57), {} x {} squares round the map; {}:",
            self.grid()?.grid.ring.width(),
            self.grid()?.grid.ring.height(),
            match summary.stage.as_str() {
                "orders" => "the Orders phase",
                "moving" => "the ring moves",
                _ => "the ring has moved this game turn",
            }
        );
        out.push_str(&self.ring_lattice(&view, viewer, &marks));
        let mut by_square: BTreeMap<(u16, u16), Vec<String>> = BTreeMap::new();
        for c in &view.counters {
            let token = format!("{}{}", marks[c.side], c.number);
            let what = match &c.pieces {
                Some(p) => format!("{token} ({})", super::event::pieces_words(p)),
                None => token,
            };
            by_square
                .entry((c.at.row, c.at.col))
                .or_default()
                .push(what);
        }
        for ((row, col), tokens) in &by_square {
            let sq = super::ring::Square::new(*col, *row);
            let _ = writeln!(out, "  {:<5}{}", sq.to_string(), tokens.join(", "));
        }
        for s in 0..2 {
            if view.unlocated[s] > 0 {
                let _ = writeln!(
                    out,
                    "  {} reserve: {} counter{} (R46)",
                    self.battle.names[s],
                    view.unlocated[s],
                    if view.unlocated[s] == 1 { "" } else { "s" }
                );
            }
        }
        for o in &summary.orders {
            let _ = writeln!(
                out,
                "  order: {} {} {}{}",
                o.player,
                o.number,
                o.order,
                if o.scout { " scout" } else { "" }
            );
        }
        for (side, done) in &summary.committed {
            let _ = writeln!(
                out,
                "  {side}: {}",
                if *done {
                    "orders sealed"
                } else {
                    "writing orders"
                }
            );
        }
        for (side, squares) in &summary.seen {
            if !squares.is_empty() {
                let _ = writeln!(
                    out,
                    "  {side} sees from the map (R55): {}",
                    squares.join(" ")
                );
            }
        }
        if let Some(f) = &summary.fight {
            let who: Vec<String> = f
                .counters
                .iter()
                .map(|c| format!("{} {}", c.player, c.number))
                .collect();
            let _ = writeln!(
                out,
                "  fight in {} ({}): {}; waiting for {}",
                f.square,
                f.kind,
                who.join(", "),
                f.waiting
            );
            for x in &f.forces {
                let _ = writeln!(
                    out,
                    "    {} {} commits {} points",
                    x.player, x.number, x.pieces.points
                );
            }
        }
        Some(out)
    }

    /// The ring drawn as its lattice, far edge at the top: each square by
    /// its row number and column letters (R40), the counters the viewer
    /// locates in it (`R5`, `R5+` for more than one), a reserve square the
    /// viewer knows (its own; both for the referee, R57) its side's letter
    /// in lower case, any other `.`, and the map inside left blank.
    fn ring_lattice(&self, view: &GridView, viewer: Option<usize>, marks: &[char]) -> String {
        const CELL: usize = 5;
        let Some(g) = self.grid() else {
            return String::new();
        };
        let ring = &g.grid.ring;
        let letters = |col: u16| {
            super::ring::Square::new(col, 0)
                .to_string()
                .trim_start_matches('1')
                .to_owned()
        };
        let mut out = String::new();
        let header: String = (0..ring.width())
            .map(|c| format!("{:<CELL$}", letters(c)))
            .collect();
        let _ = writeln!(out, "     {}", header.trim_end());
        for row in (0..ring.height()).rev() {
            let mut line = format!("{:>3}  ", row + 1);
            for col in 0..ring.width() {
                let sq = super::ring::Square::new(col, row);
                let cell = match ring.place(sq) {
                    Some(super::ring::Place::Map) | None => String::new(),
                    Some(_) => {
                        let here: Vec<_> = view.counters.iter().filter(|c| c.at == sq).collect();
                        match here.as_slice() {
                            [] => match g.grid.reserve_known(viewer, sq) {
                                Some(s) => marks[s].to_ascii_lowercase().to_string(),
                                None => ".".to_owned(),
                            },
                            [one] => format!("{}{}", marks[one.side], one.number),
                            [first, ..] => format!("{}{}+", marks[first.side], first.number),
                        }
                    }
                };
                line.push_str(&format!("{cell:<CELL$}"));
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let _ = match viewer {
            Some(v) if v < 2 => writeln!(
                out,
                "squares: {} {}'s reserve, . the rest; a counter by its side and number",
                marks[v].to_ascii_lowercase(),
                self.battle.names[v],
            ),
            Some(_) => writeln!(out, "squares: . a square; a counter by its side and number"),
            None => writeln!(
                out,
                "squares: {} {}'s reserve, {} {}'s, . the rest; a counter by its side and number",
                marks[0].to_ascii_lowercase(),
                self.battle.names[0],
                marks[1].to_ascii_lowercase(),
                self.battle.names[1]
            ),
        };
        out
    }

    /// What the grid waits for, for `viewer`'s status line (`None`: the
    /// referee): `None` when it waits for nothing.
    pub fn ring_status(&self, viewer: Option<usize>) -> Option<String> {
        let g = self.grid()?;
        let first = g.decider()?;
        let name = |s: usize| self.name(Side(s as u8));
        // Sealed decisions are owed by both sides at once: each is named,
        // its words as the viewer may know them (R47, R51).
        let owed = match g.sealed() {
            Some(owing) => (0..2)
                .map(|s| {
                    if owing[s] {
                        format!("{} owes {}", name(s), self.grid_owed_words(s, viewer))
                    } else {
                        format!("{} has committed, sealed", name(s))
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
            None => format!(
                "{} owes {}",
                name(first),
                self.grid_owed_words(first, viewer)
            ),
        };
        Some(format!(
            "game turn {} of {}: the ring before the table (R47): {owed}",
            self.state.turn, self.battle.turns,
        ))
    }

    /// What a ring square holds as `viewer` may know it (`None`: the
    /// referee): its name and place, and the counters there it locates,
    /// with the pieces it may know (R46, R55, R57).
    pub fn describe_square(
        &self,
        sq: super::ring::Square,
        viewer: Option<usize>,
    ) -> Option<String> {
        let g = self.grid()?;
        let place = g.grid.ring.place(sq)?;
        let view = self.ring_view(viewer)?;
        let mut parts = vec![format!(
            "{sq}: {}",
            match place {
                super::ring::Place::Map => return None,
                super::ring::Place::Edge(_) => "an edge square (R41)",
                super::ring::Place::SecondRow => "the second row (R41)",
                super::ring::Place::InnerCorner => "an inner corner (R41)",
            }
        )];
        // Never the enemy's reserve (R57).
        if let Some(s) = g.grid.reserve_known(viewer, sq) {
            parts.push(format!("{}'s reserve (R42)", self.battle.names[s]));
        }
        // Whether the enemy sees a counter from the map is the enemy's
        // formations' doing, in plain sight: its owner may know it (R55).
        let seen_by_enemy = |side: usize| {
            viewer.is_none_or(|v| v == side) && g.grid.seen_from_map[1 - side].contains(&sq)
        };
        for c in view.counters.iter().filter(|c| c.at == sq) {
            let seen = if seen_by_enemy(c.side) {
                format!(
                    " (seen by {} from the map, R55)",
                    self.battle.names[1 - c.side]
                )
            } else {
                String::new()
            };
            parts.push(match &c.pieces {
                Some(p) => format!(
                    "{} {}: {}{seen}",
                    self.battle.names[c.side],
                    c.number,
                    super::event::pieces_words(p)
                ),
                None => format!("{} {}{seen}", self.battle.names[c.side], c.number),
            });
        }
        Some(parts.join("; "))
    }

    /// Replaces everything of the ring `viewer` may not know with what its
    /// view alone gives (R42, R46, R47, R51, R57): `viewer` is a side, or
    /// an onlooker past the two (the public), to whom both sides are
    /// enemies. Each enemy side's counters it does not locate stand in one
    /// square it does not see ([`super::view::Grid::hiding_square`]), which
    /// is all of that side's reserve: the real reserve never reaches the
    /// copy. Compositions it has not seen are the first of the guesses;
    /// unrevealed orders are holds and unrevealed forces all a side has;
    /// a revealed order is kept where no square of it lies in its side's
    /// reserve (R46), and a counter's right to enter the map for the
    /// counters it locates only; the setup's reserves and starting
    /// counters of an enemy are left out. No seed: two games that look
    /// the same to `viewer` give the same copy.
    pub fn mask_ring(&mut self, viewer: usize) {
        use super::view::GUESSES;
        let Some(g) = self.state.grid.as_deref_mut() else {
            return;
        };
        let enemies: Vec<usize> = (0..2).filter(|s| *s != viewer).collect();
        let grid = &g.grid;
        let located: Vec<bool> = grid
            .counters
            .iter()
            .map(|c| grid.located_by(viewer, c))
            .collect();
        let composed: Vec<bool> = grid
            .counters
            .iter()
            .map(|c| grid.composed_for(viewer, c))
            .collect();
        let mut taken: Vec<_> = grid
            .counters
            .iter()
            .zip(&located)
            .filter(|(_, l)| **l)
            .map(|(c, _)| c.at)
            .collect();
        let mut hiding = [None; 2];
        for &e in &enemies {
            hiding[e] = grid.hiding_square(viewer, &taken);
            taken.extend(hiding[e]);
        }
        let hidden: Vec<CounterId> = grid
            .counters
            .iter()
            .zip(&located)
            .filter(|(_, l)| !**l)
            .map(|(c, _)| c.id)
            .collect();
        for (k, c) in g.grid.counters.iter_mut().enumerate() {
            if !enemies.contains(&c.id.side) {
                continue;
            }
            if !located[k]
                && let Some(at) = hiding[c.id.side]
            {
                c.at = at;
            }
            if !composed[k] {
                c.pieces = GUESSES[0];
            }
        }
        // An enemy's revealed order stays where it reads it (R46, R57),
        // read against the real reserve before the copy's replaces it.
        let reserves = &g.grid.reserves;
        g.revealed.retain(|id, (at, order, _)| {
            id.side == viewer || order.shows_enemy(*at, &reserves[id.side])
        });
        for &e in &enemies {
            g.grid.reserves[e] = hiding[e].into_iter().collect();
        }
        match &mut g.stage {
            Stage::Orders(orders) => {
                for &e in &enemies {
                    let committed = orders[e].committed;
                    let theirs = g.grid.counters.iter().filter(|c| c.id.side == e);
                    orders[e] = super::orders::Orders::new(e, theirs.copied().collect());
                    orders[e].committed = committed;
                }
            }
            Stage::Moving(movement) => {
                for c in &g.grid.counters {
                    if hidden.contains(&c.id) {
                        movement.hide(c.id, c.at);
                    }
                }
                movement.place_all(&g.grid.counters);
            }
            Stage::Table => {}
        }
        if let Some(fight) = g.fight.as_deref_mut() {
            if !fight.forces.iter().all(|f| f.committed) {
                for &e in &enemies {
                    let committed = fight.forces[e].committed;
                    let theirs: Vec<_> = g
                        .grid
                        .counters
                        .iter()
                        .filter(|c| c.id.side == e && fight.contest.counters.contains(&c.id))
                        .copied()
                        .collect();
                    fight.forces[e] = super::forces::Forces::new(theirs);
                    fight.forces[e].committed = committed;
                }
            }
            for (id, from) in &mut fight.from {
                if hidden.contains(id)
                    && let Some(at) = hiding[id.side]
                {
                    *from = at;
                }
            }
        }
        g.entering.retain(|id| !hidden.contains(id));
        // The setup is referee material too (R57): an enemy's reserve
        // squares and starting counters are left out of the copy's, and
        // the battle is made again from what is left, its warnings too, as
        // a copy read back is.
        let mut setup = self.battle.setup.clone();
        if let Some(offboard) = setup.offboard.as_mut() {
            offboard.reserves.resize(2, None);
            for &e in &enemies {
                offboard.reserves[e] = Some(Vec::new());
            }
            offboard.counters.retain(|c| !enemies.contains(&c.side));
        }
        let dice = sandtable_core::dice::Dice::seeded(0);
        self.battle = match Game::new(&setup, dice) {
            Ok(game) => game.battle,
            // Never: a valid setup less an enemy's reserves and counters
            // is valid. Still, no warning of the whole setup is kept.
            Err(_) => {
                let mut battle = (*self.battle).clone();
                battle.setup = setup;
                battle.warnings.clear();
                std::sync::Arc::new(battle)
            }
        };
    }

    /// Deals again everything of the ring `viewer` may not know (R57): the
    /// unlocated enemy counters' squares (while the ring moves, they halt
    /// where they are dealt) and the unseen enemy compositions; the
    /// enemy's unrevealed orders become holds, and its unrevealed forces
    /// all it has, and its revealed orders it may not read are left out;
    /// what it has sealed stays sealed. The deal depends only on what
    /// `viewer` sees.
    pub fn redeal_ring(&mut self, viewer: usize, seed: u64) {
        use rand::SeedableRng;
        let Some(g) = self.state.grid.as_deref_mut() else {
            return;
        };
        let enemy = 1 - viewer;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x7269_6e67);
        // The enemy's revealed orders it may not read go (R46, R57).
        let reserves = &g.grid.reserves;
        g.revealed.retain(|id, (at, order, _)| {
            id.side == viewer || order.shows_enemy(*at, &reserves[id.side])
        });
        let dealt = g.grid.redeal(viewer, &mut rng);
        if let Stage::Moving(movement) = &mut g.stage {
            for c in &g.grid.counters {
                if c.id.side == enemy && !g.grid.located_by(viewer, c) {
                    movement.halt(c.id);
                }
            }
            movement.place_all(&dealt.counters);
        }
        g.grid = dealt;
        if let Stage::Orders(orders) = &mut g.stage {
            let committed = orders[enemy].committed;
            let mine: Vec<super::counter::Counter> = g
                .grid
                .counters
                .iter()
                .filter(|c| c.id.side == enemy)
                .copied()
                .collect();
            orders[enemy] = super::orders::Orders::new(enemy, mine);
            orders[enemy].committed = committed;
        }
        if let Some(fight) = g.fight.as_deref_mut()
            && !fight.forces.iter().all(|f| f.committed)
        {
            let committed = fight.forces[enemy].committed;
            let theirs: Vec<super::counter::Counter> = g
                .grid
                .counters
                .iter()
                .filter(|c| c.id.side == enemy && fight.contest.counters.contains(&c.id))
                .copied()
                .collect();
            fight.forces[enemy] = super::forces::Forces::new(theirs);
            fight.forces[enemy].committed = committed;
        }
    }

    /// A hash of what `side` sees, for a bot's seed (R57): the state's
    /// hash in a battle without the grid; with it, the map's state and the
    /// ring as the side sees it, without the dice, so that a bot chooses
    /// the same on a game and on any copy dealt again from its side's view.
    pub fn seen_hash(&self, side: Side) -> u64 {
        let Some(ring) = self.ring_summary(Some(side.index())) else {
            return self.state_hash();
        };
        let mut copy = self.clone();
        copy.state.grid = None;
        copy.state.dice = sandtable_core::dice::Dice::seeded(0);
        let mut h = sandtable_core::hash::Mix::new();
        h.u64(copy.state_hash());
        let text = serde_json::to_string(&ring).expect("a summary is plain data");
        for chunk in text.as_bytes().chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h.u64(u64::from_le_bytes(word));
        }
        h.finish()
    }
}
