//! The off-board grid's secrets (R42-R57), read from the referee's ring.
//!
//! A side locates an enemy counter outside that counter's own reserve
//! (R46); inside it, only where the side sees its square from the map
//! this game turn, or has a counter within 3 squares (R55). It knows an
//! enemy counter's pieces only where it sees the square from the map
//! (R55); an enemy's forces in a fight once both sides have committed
//! (R51); the enemy's orders once both sides have committed (R47), but
//! never one whose start or path lies in the enemy's reserve, which would
//! tell a reserve square (R46, R57); the enemy's reserve squares never
//! (R42, R57). The public is no side: it sees nothing from the map and
//! has no counter.

use sandtable_core::game::{Spot, Viewer, player_marks};
use sandtable_warpspawn::Game;
use sandtable_warpspawn::offboard::command::Order;
use sandtable_warpspawn::offboard::counter::Counter;
use sandtable_warpspawn::offboard::ring::Square;
use sandtable_warpspawn::offboard::state::{GridState, Stage};

use crate::{Leak, Oracle};

/// What a viewer knows of the ring, by the rulings.
struct Knows<'a> {
    g: &'a GridState,
    /// The viewer's side; `None`: the public.
    side: Option<usize>,
    names: &'a [String; 2],
}

impl<'a> Knows<'a> {
    fn of(game: &'a Game, viewer: Viewer) -> Option<Knows<'a>> {
        let side = match viewer {
            Viewer::Referee => return None,
            Viewer::Player(s) => Some(usize::from(s.0)),
            Viewer::Public => None,
        };
        Some(Knows {
            g: game.grid()?,
            side,
            names: &game.battle().names,
        })
    }

    fn enemy(&self, side: usize) -> bool {
        self.side != Some(side)
    }

    fn sees_from_map(&self, sq: Square) -> bool {
        self.side
            .is_some_and(|v| self.g.grid.seen_from_map[v].contains(&sq))
    }

    /// R46, R55.
    fn locates(&self, c: &Counter) -> bool {
        !self.enemy(c.id.side)
            || !self.g.grid.reserves[c.id.side].contains(&c.at)
            || self.sees_from_map(c.at)
            || self
                .g
                .grid
                .counters
                .iter()
                .any(|own| Some(own.id.side) == self.side && own.at.distance(c.at) <= 3)
    }

    /// R55.
    fn knows_pieces(&self, c: &Counter) -> bool {
        !self.enemy(c.id.side) || self.sees_from_map(c.at)
    }

    /// R46, R47, R57: the order of `side`'s counter `number`, if the
    /// viewer may read it.
    fn order(&self, side: usize, number: u16) -> Option<(Square, Order)> {
        let id = sandtable_warpspawn::offboard::ticks::CounterId { side, number };
        if !self.enemy(side) {
            return self.g.revealed.get(&id).map(|(at, o, _)| (*at, *o));
        }
        if matches!(self.g.stage, Stage::Orders(_)) {
            return None;
        }
        let reserve = &self.g.grid.reserves[side];
        let (at, order, _) = self.g.revealed.get(&id)?;
        let inside = reserve.contains(at)
            || match order {
                Order::Path(p) => p.iter().any(|sq| reserve.contains(sq)),
                Order::Hold | Order::Enter => false,
            };
        (!inside).then_some((*at, *order))
    }

    fn counter(&self, side: usize, number: u16) -> Option<&Counter> {
        self.g
            .grid
            .counters
            .iter()
            .find(|c| c.id.side == side && c.id.number == number)
    }

    fn side_named(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The enemy's orders the viewer may not read, as their words; not
    /// a path the viewer's own side wrote too, which it may say.
    fn hidden_orders(&self) -> Vec<(usize, u16, String)> {
        let mut own: Vec<String> = Vec::new();
        if let (Stage::Orders(written), Some(v)) = (&self.g.stage, self.side) {
            own.extend(written[v].orders.values().map(|(o, _)| words(o)));
        }
        let mut out = Vec::new();
        for side in (0..2).filter(|s| self.enemy(*s)) {
            if let Stage::Orders(written) = &self.g.stage {
                for (n, (o, _)) in &written[side].orders {
                    out.push((side, *n, words(o)));
                }
            }
            for (id, (_, o, _)) in &self.g.revealed {
                if id.side == side && self.order(side, id.number).is_none() {
                    out.push((side, id.number, words(o)));
                }
            }
        }
        out.retain(|(_, _, path)| !own.contains(path));
        out
    }

    /// What a view saying where `side`'s counter `n` stands, and with
    /// `pieces` what it holds, tells the viewer that it may not know.
    fn counter_leak(&self, side: usize, n: u16, pieces: bool, found: &str) -> Option<Leak> {
        let c = self.counter(side, n).filter(|_| self.enemy(side))?;
        if !self.locates(c) {
            Some(self.leak(
                format!(
                    "where {}'s counter {n} stands in its reserve",
                    self.names[side]
                ),
                "R46, R55",
                found,
            ))
        } else if pieces && !self.knows_pieces(c) {
            Some(self.leak(
                format!("the pieces of {}'s counter {n}", self.names[side]),
                "R55",
                found,
            ))
        } else {
            None
        }
    }

    fn leak(&self, what: String, ruling: &'static str, found: &str) -> Leak {
        Leak {
            what,
            ruling,
            found: found.to_owned(),
        }
    }
}

/// An order as the views word it: `hold`, `enter`, or the squares.
fn words(o: &Order) -> String {
    match o {
        Order::Hold => "hold".to_owned(),
        Order::Enter => "enter".to_owned(),
        Order::Path(p) => p
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

impl Oracle for Game {
    /// Every square with a counter, and every reserve square.
    fn hover_spots(&self) -> Vec<Spot> {
        let Some(g) = self.grid() else {
            return Vec::new();
        };
        let mut squares: Vec<Square> = g.grid.counters.iter().map(|c| c.at).collect();
        squares.extend(g.grid.reserves.iter().flatten());
        squares.sort_unstable();
        squares.dedup();
        squares.into_iter().map(Square::spot).collect()
    }

    fn leaks_in_json(&self, viewer: Viewer, json: &serde_json::Value) -> Vec<Leak> {
        let Some(k) = Knows::of(self, viewer) else {
            return Vec::new();
        };
        let ring = &json["offboard"];
        let mut out = Vec::new();
        let side_of = |e: &serde_json::Value| e["player"].as_str().and_then(|p| k.side_named(p));
        let number_of = |e: &serde_json::Value| e["number"].as_u64().map(|n| n as u16);
        for e in ring["counters"].as_array().into_iter().flatten() {
            let (Some(side), Some(n)) = (side_of(e), number_of(e)) else {
                continue;
            };
            if !k.enemy(side) {
                continue;
            }
            out.extend(k.counter_leak(side, n, !e["pieces"].is_null(), &e.to_string()));
        }
        for e in ring["orders"].as_array().into_iter().flatten() {
            let (Some(side), Some(n)) = (side_of(e), number_of(e)) else {
                continue;
            };
            if k.enemy(side) && k.order(side, n).is_none() {
                out.push(k.leak(
                    format!("{}'s order for counter {n}", k.names[side]),
                    "R46, R47, R57",
                    &e.to_string(),
                ));
            }
        }
        if let Some(fight) = k.g.fight.as_deref() {
            let revealed = fight.forces.iter().all(|f| f.committed);
            for e in ring["fight"]["forces"].as_array().into_iter().flatten() {
                if let Some(side) = side_of(e)
                    && k.enemy(side)
                    && !revealed
                {
                    out.push(k.leak(
                        format!("{}'s forces before both have committed", k.names[side]),
                        "R51",
                        &e.to_string(),
                    ));
                }
            }
        }
        for (name, _) in ring["seen"].as_object().into_iter().flatten() {
            if k.side_named(name).is_some_and(|s| k.enemy(s)) {
                out.push(k.leak(
                    format!("the squares {name} sees from the map"),
                    "R55, R57",
                    name,
                ));
            }
        }
        let lines = crate::strings(json);
        out.extend(self.leaks_in_lines(viewer, &lines));
        out
    }

    fn leaks_in_lines(&self, viewer: Viewer, lines: &[&str]) -> Vec<Leak> {
        let Some(k) = Knows::of(self, viewer) else {
            return Vec::new();
        };
        let marks = player_marks(k.names.iter().map(String::as_str));
        let hidden = k.hidden_orders();
        let mut out = Vec::new();
        for line in lines {
            // The ring's list: `  2T   R1 (10 cavalry, 1 officer), B2`.
            if let Some(rest) = line.strip_prefix("  ")
                && let Some((sq, tokens)) = rest.split_once(' ')
                && sq.parse::<Square>().is_ok()
            {
                for token in tokens.trim().split(", ") {
                    let (name, pieces) = match token.split_once(" (") {
                        Some((n, _)) => (n, true),
                        None => (token, false),
                    };
                    let mut chars = name.chars();
                    let (Some(mark), Ok(n)) = (chars.next(), chars.as_str().parse::<u16>()) else {
                        continue;
                    };
                    let Some(side) = marks.iter().position(|m| *m == mark) else {
                        continue;
                    };
                    out.extend(k.counter_leak(side, n, pieces, line));
                }
            }
            // A square's hover text: `2T: an edge square (R41); Red 1: 10
            // cavalry, 1 officer`.
            if let Some((sq, rest)) = line.split_once(": ")
                && sq.parse::<Square>().is_ok()
            {
                for part in rest.split("; ") {
                    let (who, pieces) = match part.split_once(": ") {
                        Some((who, _)) => (who, true),
                        None => (part.split(" (").next().unwrap_or(part), false),
                    };
                    let mut w = who.split_whitespace();
                    let (Some(side), Some(Ok(n)), None) = (
                        w.next().and_then(|p| k.side_named(p)),
                        w.next().map(str::parse::<u16>),
                        w.next(),
                    ) else {
                        continue;
                    };
                    out.extend(k.counter_leak(side, n, pieces, line));
                }
            }
            // An order as the text lists it: `  order: Red 1 1T 2S 2T`.
            if let Some(rest) = line.trim_start().strip_prefix("order: ") {
                let mut w = rest.split_whitespace();
                if let (Some(side), Some(Ok(n))) = (
                    w.next().and_then(|p| k.side_named(p)),
                    w.next().map(str::parse::<u16>),
                ) && k.enemy(side)
                    && k.order(side, n).is_none()
                {
                    out.push(k.leak(
                        format!("{}'s order for counter {n}", k.names[side]),
                        "R46, R47, R57",
                        line,
                    ));
                }
            }
            // An order's path anywhere, a log line's say: two squares or
            // more are never said by chance.
            for (side, n, path) in &hidden {
                if path.contains(' ') && crate::says(line, path) {
                    out.push(k.leak(
                        format!("{}'s order for counter {n}", k.names[*side]),
                        "R46, R47, R57",
                        line,
                    ));
                }
            }
            // The enemy's reserve squares, as the board's legend would
            // name them.
            for side in (0..2).filter(|s| k.enemy(*s)) {
                if line.contains(&format!("{}'s reserve", k.names[side]))
                    || (line.starts_with("squares:")
                        && line.contains(&format!(
                            "{} {}'s",
                            marks[side].to_ascii_lowercase(),
                            k.names[side]
                        )))
                {
                    out.push(k.leak(
                        format!("{}'s reserve squares", k.names[side]),
                        "R42, R57",
                        line,
                    ));
                }
            }
        }
        out
    }
}
