//! What the rules worked out for a command, for the table to draw
//! ([`Mark`]): a move's path and reach, a shot's line of sight with its
//! modifiers or where it is blocked, a template where it falls, a drop's
//! scatter, a cloud. The static layout (the table, its terrain and its
//! building elements with their spaces and openings) is the setup's
//! ([`Game::setup`]).

use sandtable_core::game::{DiscKind, Mark, Seat, Spot};

use crate::command::{Command, Step};
use crate::game::{Aim, Crossed, GRAZE_MM, GRENADE_LNS, Game, Shot};
use crate::geometry::{Pt, V, blocks_segment, round_mm};
use crate::smoke::CLOUD_MM;
use crate::templates::{DROP_STEP_MM, LARGE_MM, SMALL_MM};

fn spot(p: Pt) -> Spot {
    Spot::Point {
        x_mm: p.x.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
        y_mm: p.y.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
    }
}

/// How large a drop's landing point is drawn: a dot, not a template.
const LANDING_MM: f64 = 6.0;

fn disc(centre: Pt, diameter: f64, kind: DiscKind) -> Mark {
    Mark::Disc {
        centre: spot(centre),
        diameter_mm: diameter.round().clamp(0.0, f64::from(u16::MAX)) as u16,
        kind,
    }
}

impl Game {
    /// The marks of `seat`'s `command`, legal or not: what the table
    /// draws while a person aims it.
    pub fn marks_of(&self, seat: Seat, command: &Command) -> Vec<Mark> {
        let _ = seat;
        let mut out = Vec::new();
        let unit = command.unit().and_then(|t| self.find(t));
        let lns = f64::from(self.setup().switches.lns_mm);
        match (*command, unit) {
            (
                Command::Move { legs, .. }
                | Command::Charge { legs, .. }
                | Command::Heal { legs, .. }
                | Command::Repair { legs, .. },
                Some(i),
            ) => {
                let u = &self.units[i];
                out.push(disc(
                    u.at,
                    2.0 * f64::from(u.movement()) * lns,
                    DiscKind::Reach,
                ));
                let mut points = vec![spot(u.at)];
                for step in legs.steps() {
                    match step {
                        Step::At(p) => points.push(spot(p.pt())),
                        Step::Space(tag, n) => {
                            let Some(e) = self.element_index(*tag) else {
                                break;
                            };
                            let spaces = &self.setup().elements[e].spaces;
                            match spaces.get(usize::from(*n).wrapping_sub(1)) {
                                Some(p) => points.push(spot(*p)),
                                None => break,
                            }
                        }
                        Step::Drop(..) => {}
                        Step::Board(v) => {
                            if let Some(v) = self.find(*v) {
                                points.push(spot(self.units[v].at));
                            }
                        }
                    }
                }
                if points.len() > 1 {
                    out.push(Mark::Path { points });
                }
            }
            (Command::Shoot { target, weapon, .. }, Some(i)) => {
                let Some(t) = self.find(target) else {
                    return out;
                };
                match self.plan_shot(i, t, weapon) {
                    Ok(Shot::Direct(aim)) => out.push(sight_mark(&aim, false)),
                    Ok(Shot::Sniper(aim)) => out.push(sight_mark(&aim, true)),
                    Ok(Shot::Template { diameter }) => {
                        if let Some(aim) = self.aim(i, t, usize::from(weapon), false) {
                            out.push(sight_mark(&aim, false));
                        }
                        out.push(disc(
                            self.units[t].at,
                            f64::from(diameter),
                            DiscKind::Template,
                        ));
                    }
                    Ok(Shot::Drop) => {
                        // Where it may fall: the aim, and as far as the
                        // distance die throws it, a template's reach beyond.
                        let far = 5.0 * DROP_STEP_MM;
                        out.push(disc(
                            self.units[t].at,
                            2.0 * far + f64::from(LARGE_MM),
                            DiscKind::Reach,
                        ));
                        out.push(disc(
                            self.units[t].at,
                            f64::from(LARGE_MM),
                            DiscKind::Template,
                        ));
                        // Where its template's centre lands on each roll of
                        // the two dice, direction and distance (R129).
                        if self.setup().switches.drop == crate::setup::DropRule::Scatter {
                            let (w, d) = self.setup().table;
                            for direction in 1..=6 {
                                for distance in 1..=6 {
                                    let at = crate::templates::drop_landing(
                                        self.units[t].at,
                                        direction,
                                        distance,
                                        LARGE_MM,
                                        w,
                                        d,
                                    );
                                    out.push(disc(at, LANDING_MM, DiscKind::Landing));
                                }
                            }
                        }
                    }
                    Err(e) => out.push(self.blocked_mark(i, t, e.to_string())),
                }
            }
            (Command::Rapid { parts, n, .. }, Some(i)) => {
                let parts = &parts[..usize::from(n).min(parts.len())];
                match self.check_rapid(i, parts) {
                    Ok(aims) => out.extend(aims.iter().map(|(_, aim)| sight_mark(aim, false))),
                    Err(e) => {
                        if let Some(t) = parts.first().and_then(|p| self.find(p.target)) {
                            out.push(self.blocked_mark(i, t, e.to_string()));
                        }
                    }
                }
            }
            (Command::Grenade { target, .. }, Some(i)) => {
                let Some(t) = self.find(target) else {
                    return out;
                };
                out.push(disc(
                    self.units[i].at,
                    2.0 * (f64::from(GRENADE_LNS) * lns)
                        + f64::from(self.units[i].data.base.size_mm().1),
                    DiscKind::Reach,
                ));
                match self.check_grenade(i, t) {
                    Ok(()) => {
                        if let Some(aim) = self.aim(i, t, 0, false) {
                            out.push(sight_mark(&aim, false));
                        }
                        out.push(disc(
                            self.units[t].at,
                            f64::from(SMALL_MM),
                            DiscKind::Template,
                        ));
                    }
                    Err(e) => out.push(self.blocked_mark(i, t, e.to_string())),
                }
            }
            (Command::Window { .. }, Some(i)) => {
                let u = &self.units[i];
                out.push(disc(
                    u.at,
                    2.0 * lns + f64::from(u.data.base.size_mm().1),
                    DiscKind::Reach,
                ));
            }
            (Command::Smoke { at, .. }, Some(i)) => {
                let u = &self.units[i];
                let reach = if u.vehicle() {
                    f64::from(self.setup().switches.ruler_mm())
                } else {
                    f64::from(GRENADE_LNS) * lns
                };
                out.push(disc(
                    u.at,
                    2.0 * reach + f64::from(u.data.base.size_mm().1),
                    DiscKind::Reach,
                ));
                out.push(disc(at.pt(), f64::from(CLOUD_MM), DiscKind::Cloud));
            }
            (Command::Land { at }, _) => {
                if let Some(p) = self.pending {
                    out.push(disc(
                        p.aim,
                        2.0 * 5.0 * DROP_STEP_MM + f64::from(LARGE_MM),
                        DiscKind::Reach,
                    ));
                }
                out.push(disc(at.pt(), f64::from(LARGE_MM), DiscKind::Template));
            }
            _ => {}
        }
        out
    }

    /// The line from unit `i`'s centre to unit `t`'s, refused for
    /// `why`: where the first thing that blocks it starts, if one does.
    fn blocked_mark(&self, i: usize, t: usize, why: String) -> Mark {
        let (a, b) = (self.units[i].at.v(), self.units[t].at.v());
        let obstacles = self.sight_obstacles(i, t, false, &[(a, b, GRAZE_MM + 1.0)]);
        let first = obstacles
            .iter()
            .filter(|(_, c)| *c == Crossed::Block)
            .filter(|(shape, _)| blocks_segment(shape, a, b, GRAZE_MM))
            .map(|(shape, _)| {
                // The shortest part of the line that the shape blocks, by
                // halving: a longer part is blocked too.
                let (mut lo, mut hi) = (0.0, 1.0);
                for _ in 0..32 {
                    let mid = (lo + hi) / 2.0;
                    let end = V::new(a.x + (b.x - a.x) * mid, a.y + (b.y - a.y) * mid);
                    if blocks_segment(shape, a, end, GRAZE_MM) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                hi
            })
            .fold(None, |best: Option<f64>, t| {
                Some(best.map_or(t, |b| b.min(t)))
            });
        Mark::Sight {
            from: spot(self.units[i].at),
            to: spot(self.units[t].at),
            blocked_at: first.map(|f| {
                spot(round_mm(V::new(
                    a.x + (b.x - a.x) * f,
                    a.y + (b.y - a.y) * f,
                )))
            }),
            modifier: 0,
            words: vec![why],
        }
    }
}

/// A clear line's mark: its modifiers, or a sniper's penalties.
fn sight_mark(aim: &Aim, sniper: bool) -> Mark {
    let (modifier, words) = if sniper {
        (
            -i16::from(aim.sniper_penalties),
            vec![format!(
                "{} of the seed's penalties, 1 more to roll each (R142)",
                aim.sniper_penalties
            )],
        )
    } else {
        (
            aim.modifiers.iter().map(|m| i16::from(m.1)).sum(),
            aim.modifiers
                .iter()
                .map(|(w, m)| format!("{m:+}: {w}"))
                .collect(),
        )
    };
    Mark::Sight {
        from: spot(aim.from),
        to: spot(round_mm(aim.to)),
        blocked_at: None,
        modifier,
        words,
    }
}
