//! Frontiers' secrets (R107, R108, R111, R112, R143, R149), read from
//! the referee's game.
//!
//! A side knows its own hand, markers and allotted crates. Of the other
//! side it knows the sizes of its hand and deck and its discards (R149);
//! nothing of its placing while the Order phase lasts, and once both
//! have placed, where its face-down markers lie (R107) but not what they
//! are until each is turned up in its step, a decoy at the Reserve
//! (R108, R112); not its sealed command until both are revealed (R111);
//! not what a crate allotted to it holds (R143). The public is no side.

use sandtable_core::game::Viewer;
use sandtable_frontiers::Game;
use sandtable_frontiers::army::Marker;
use sandtable_frontiers::crates::CrateState;
use sandtable_frontiers::flow::Phase;
use sandtable_frontiers::turn::LAST_STEP;

use crate::{Leak, Oracle, says};

/// What a viewer knows of a skirmish, by the rulings.
struct Knows<'a> {
    game: &'a Game,
    /// The viewer's side; `None`: the public.
    side: Option<u8>,
}

impl<'a> Knows<'a> {
    fn of(game: &'a Game, viewer: Viewer) -> Option<Knows<'a>> {
        let side = match viewer {
            Viewer::Referee => return None,
            Viewer::Player(s) => Some(s.0.min(1) as u8),
            Viewer::Public => None,
        };
        Some(Knows { game, side })
    }

    fn other(&self, side: u8) -> bool {
        self.side != Some(side)
    }

    fn name(&self, side: u8) -> &str {
        &self.game.setup().sides[usize::from(side)].name
    }

    /// R108, R112: a marker is face up once its step has come; a decoy
    /// at the Reserve.
    fn up(&self, m: Marker) -> bool {
        let step = self.game.flow().step;
        match m {
            Marker::Numbered(n) => n <= step,
            Marker::Decoy => step > LAST_STEP,
        }
    }

    /// What `line`, a line about the other side's unit `unit`, says of
    /// its markers that the viewer may not know.
    fn marker_leak(&self, unit: usize, side: u8, line: &str) -> Option<Leak> {
        let flow = self.game.flow();
        let tag = self.game.units()[unit].tag;
        if flow.phase == Phase::Order && (says(line, "marker") || says(line, "decoy")) {
            return Some(Leak {
                what: format!(
                    "where {}'s markers lie before both sides have placed",
                    self.name(side)
                ),
                ruling: "R107",
                found: line.to_owned(),
            });
        }
        for p in flow.placed[usize::from(side)]
            .iter()
            .filter(|p| p.unit == unit)
        {
            let told = match p.marker {
                Marker::Numbered(n) => says(line, &format!("marker {n}")),
                Marker::Decoy => says(line, "decoy"),
            };
            if told && !self.up(p.marker) {
                return Some(Leak {
                    what: format!("the face-down marker on {tag}"),
                    ruling: "R108, R149",
                    found: line.to_owned(),
                });
            }
        }
        None
    }

    /// The other side's unit a line is about: a unit's line (`T1
    /// trooper (Legion) at ...`) or its label on the table (`T1, a
    /// face-down marker`).
    fn unit_of_line(&self, line: &str) -> Option<(usize, u8)> {
        let first = line.split_whitespace().next()?;
        let (tag, label) = match first.strip_suffix(',') {
            Some(tag) => (tag, true),
            None => (first, false),
        };
        let i = self
            .game
            .units()
            .iter()
            .position(|u| u.tag.to_string() == tag && self.other(u.side))?;
        let side = self.game.units()[i].side;
        (label || line.contains(&format!("({})", self.name(side)))).then_some((i, side))
    }
}

impl Oracle for Game {
    /// Every unit's centre, and every crate's point.
    fn hover_spots(&self) -> Vec<sandtable_core::game::Spot> {
        let spot = |p: sandtable_frontiers::geometry::Pt| sandtable_core::game::Spot::Point {
            x_mm: p.x.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            y_mm: p.y.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
        };
        self.units()
            .iter()
            .filter(|u| u.alive && !u.waiting)
            .map(|u| spot(u.at))
            .chain(self.crates().iter().map(|c| spot(c.at)))
            .collect()
    }

    fn leaks_in_json(&self, viewer: Viewer, json: &serde_json::Value) -> Vec<Leak> {
        let Some(k) = Knows::of(self, viewer) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for u in json["units"].as_array().into_iter().flatten() {
            let (Some(id), Some(side)) = (u["id"].as_str(), u["side"].as_str()) else {
                continue;
            };
            let Some(i) = self
                .units()
                .iter()
                .position(|x| x.tag.to_string() == id && k.other(x.side) && k.name(x.side) == side)
            else {
                continue;
            };
            let markers: Vec<&str> = u["markers"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str())
                .collect();
            let line = format!("{id} ({side}): {}", markers.join(", "));
            out.extend(k.marker_leak(i, self.units()[i].side, &line));
        }
        for c in json["cards"].as_array().into_iter().flatten() {
            if let Some(side) = c["side"].as_str()
                && (0..2u8).any(|s| k.other(s) && k.name(s) == side)
                && c.get("hand").is_some()
            {
                out.push(Leak {
                    what: format!("{side}'s hand"),
                    ruling: "R149",
                    found: c.to_string(),
                });
            }
        }
        if k.side.is_none() && json["hand"].as_array().is_some_and(|h| !h.is_empty()) {
            out.push(Leak {
                what: "a side's hand, shown to the public".to_owned(),
                ruling: "R149",
                found: json["hand"].to_string(),
            });
        }
        let lines = crate::strings(json);
        out.extend(self.leaks_in_lines(viewer, &lines));
        out
    }

    fn leaks_in_lines(&self, viewer: Viewer, lines: &[&str]) -> Vec<Leak> {
        let Some(k) = Knows::of(self, viewer) else {
            return Vec::new();
        };
        let flow = self.flow();
        let mut out = Vec::new();
        for line in lines {
            if let Some((unit, side)) = k.unit_of_line(line) {
                out.extend(k.marker_leak(unit, side, line));
            }
            for side in (0..2u8).filter(|s| k.other(*s)) {
                if line.contains(&format!("{}: hand [", k.name(side))) {
                    out.push(Leak {
                        what: format!("{}'s hand", k.name(side)),
                        ruling: "R149",
                        found: (*line).to_owned(),
                    });
                }
                if flow.phase != Phase::Order
                    && let Some(command) = &flow.sealed[usize::from(side)]
                    && says(line, &command.to_string())
                {
                    out.push(Leak {
                        what: format!("{}'s sealed command", k.name(side)),
                        ruling: "R111",
                        found: (*line).to_owned(),
                    });
                }
            }
            for (n, c) in self.crates().iter().enumerate() {
                let (Some(content), Some(owner)) = (c.content, c.secret_of) else {
                    continue;
                };
                if !k.other(owner) {
                    continue;
                }
                let about_crate = line
                    .strip_prefix(&format!("crate {}", n + 1))
                    .is_some_and(|rest| rest.starts_with([':', ' ']));
                let about_carrier = match c.state {
                    CrateState::Carried(u) => line
                        .split_whitespace()
                        .next()
                        .is_some_and(|t| t == self.units()[usize::from(u)].tag.to_string()),
                    _ => false,
                };
                if (about_crate || about_carrier) && line.contains(content.name()) {
                    out.push(Leak {
                        what: format!("what {}'s allotted crate {} holds", k.name(owner), n + 1),
                        ruling: "R143, R149",
                        found: (*line).to_owned(),
                    });
                }
            }
        }
        out
    }
}
