//! Playing a skirmish with the mouse: the person clicks one of their units
//! that may act, then a point of the table to move it there or an enemy
//! to shoot at (a unit whose action is a smoke bomb: where it lands, R130;
//! a drop placed: where its real template fell, R129). While a unit is
//! selected, what a click would play is
//! shown before it is played: the member of the move's family nearest the
//! pointer (the contract's `nearest`) with its path, its length in LNS
//! against the unit's Movement and its reach; a shot's line of sight with
//! what blocks it and each modifier with its ruling, and its odds; a
//! refusal at the pointer with its ruling. The rules work it all out
//! (`GameState::nearest`, `marks`, `odds`, `check`): the table only asks.

use bevy::prelude::*;
use sandtable_core::game::{GameState, Mark, Seat, Spot};
use sandtable_frontiers::army::Slot;
use sandtable_frontiers::command::P16;
use sandtable_frontiers::geometry::{Footprint, Pt, gap};
use sandtable_frontiers::{Command, Game, Tag};

use super::table::ActiveSkirmish;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SkirmishPick>()
        .init_resource::<OrdersDraft>()
        .init_resource::<PointerAt>()
        .init_resource::<Preview>()
        .add_systems(
            Update,
            show_preview
                .in_set(crate::schedule::AppSystems::SyncTable)
                .run_if(resource_exists::<ActiveSkirmish>),
        )
        .add_systems(
            Update,
            forget_pick
                .run_if(
                    on_message::<super::SkirmishLoaded>
                        .or_eager(on_message::<crate::session::game::Undone>),
                )
                .in_set(crate::schedule::AppSystems::SyncTable),
        );
}

/// The unit the person selected to act, by its index in the game, and
/// the points its move passes through so far (legs added by Shift-clicks,
/// R113).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct SkirmishPick {
    /// The unit.
    pub unit: Option<usize>,
    /// The move's points before its end, in order.
    pub legs: Vec<Pt>,
    /// The commands the last click offered, to choose one in the panel:
    /// a shot, a grenade or a charge at the enemy clicked, a grenade
    /// through the window clicked (R127, R134).
    pub ways: Vec<Command>,
    /// A command waiting for the click that says where its point lies (a
    /// smoke screen's cloud, R152), chosen on the table.
    pub placing: Option<Command>,
}

impl SkirmishPick {
    /// A pick of unit `i` alone.
    pub fn of(i: usize) -> SkirmishPick {
        SkirmishPick {
            unit: Some(i),
            ..SkirmishPick::default()
        }
    }
}

/// How near a window a click is taken for it (mm): about a window's
/// width either side of its line.
pub const WINDOW_REACH_MM: f64 = 25.0;

/// The move of the picked unit through its legs so far and then `end`,
/// as the rules take it; or why not.
pub fn move_through(
    game: &Game,
    seat: Seat,
    pick: &SkirmishPick,
    end: Pt,
) -> Result<Command, String> {
    let i = pick.unit.ok_or("select a unit first")?;
    let unit = game.units()[i].tag;
    let points: Option<Vec<P16>> = pick
        .legs
        .iter()
        .chain([&end])
        .map(|p| P16::of(*p))
        .collect();
    let command = points
        .and_then(|p| Command::move_to(unit, &p, None))
        .ok_or_else(|| {
            format!(
                "a path of at most {} legs on the table",
                sandtable_frontiers::command::MAX_STEPS
            )
        })?;
    game.check(seat, &command).map_err(|e| e.to_string())?;
    Ok(command)
}

/// The numbered order markers the person has laid so far in the Order
/// phase, by clicking their units, in order: marker 1 on the first
/// (R106, R107). Sealing them fills in the decoys on the first places
/// left ([`Game::orders_with`]).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct OrdersDraft(pub Vec<(Tag, Slot)>);

impl OrdersDraft {
    /// Lays the next numbered marker on unit `i`: on its first place not
    /// yet holding one, while it has room and markers are left (R107);
    /// or why not.
    pub fn lay(&mut self, game: &Game, side: u8, i: usize) -> Result<(), String> {
        let u = &game.units()[i];
        let owed = usize::from(game.markers_owed(side));
        if self.0.len() >= owed {
            return Err(format!(
                "all {owed} numbered markers are laid: seal them, or clear and lay them again (R106)"
            ));
        }
        let held = self.0.iter().filter(|(t, _)| *t == u.tag).count();
        let place = sandtable_frontiers::orders::marker_places(u)
            .into_iter()
            .find(|s| !self.0.contains(&(u.tag, *s)));
        match place {
            Some(slot) if held < sandtable_frontiers::orders::marker_room(u) => {
                self.0.push((u.tag, slot));
                Ok(())
            }
            _ => Err(format!("{} holds all the markers it may (R107)", u.tag)),
        }
    }

    /// The draft in the notation's words: `T1:1 O1.L:2`.
    pub fn words(&self) -> String {
        self.0
            .iter()
            .enumerate()
            .map(|(k, (t, s))| match s {
                Slot::Unit => format!("{t}:{}", k + 1),
                Slot::Locomotion => format!("{t}.L:{}", k + 1),
                Slot::Weapon(w) => format!("{t}.A{}:{}", w + 1, k + 1),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Whether `seat`'s decision now is its sealed orders (R107).
pub fn owes_orders(game: &Game, seat: Seat) -> bool {
    let mut legal = Vec::new();
    game.legal_into(seat, &mut legal);
    legal
        .iter()
        .any(|l| matches!(l.command, Command::Orders { .. }))
}

/// The point of the table under the pointer, in mm, while it is over
/// the table.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PointerAt(pub Option<Pt>);

/// What a click at the pointer would play, as the rules see it: the
/// command, what to draw, and the words (its measure or odds, or the
/// refusal with its ruling).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Preview {
    /// The game, pick and pointer it was worked out for.
    seen: Option<(u64, u64, SkirmishPick, PointerAt)>,
    /// The command a click plays, if the rules accept one.
    pub command: Option<Command>,
    /// Its path, reach, lines of sight and templates.
    pub marks: Vec<Mark>,
    /// Its measure, modifiers and odds, or why it is refused.
    pub words: String,
}

/// The unit whose base covers `p`, if any: standing, on the table.
pub fn unit_at(game: &Game, p: Pt) -> Option<usize> {
    let probe = Footprint::disc(p, 0).shape();
    game.units()
        .iter()
        .enumerate()
        .filter(|(_, u)| u.alive && !u.waiting && u.aboard.is_none())
        .map(|(i, u)| (i, gap(&u.shape(), &probe)))
        .filter(|(_, d)| *d <= 0.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The spot of a point.
fn spot(p: Pt) -> Spot {
    Spot::Point {
        x_mm: p.x.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
        y_mm: p.y.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
    }
}

/// What a click at `p` does with `pick`, for `seat`: select a unit of its
/// own that may act, or the command it plays for the unit selected, or
/// why nothing is played.
#[derive(Debug, Clone, PartialEq)]
pub enum ClickMeans {
    /// Select this unit.
    Select(usize),
    /// Play this command.
    Play(Command),
    /// Any one of these, which the person chooses (two or more).
    Ways(Vec<Command>),
    /// Nothing, for this reason.
    Refused(String),
}

/// What a click at `p` means now (see [`ClickMeans`]).
pub fn click_means(game: &Game, seat: Seat, pick: &SkirmishPick, p: Pt) -> ClickMeans {
    let mut legal = Vec::new();
    game.legal_into(seat, &mut legal);
    let side = seat.index().min(1) as u8;
    let acts = |i: usize| {
        let tag = game.units()[i].tag;
        legal.iter().any(|l| l.command.unit() == Some(tag))
    };
    // A drop waiting for where its real template fell (`drop: placed`,
    // R129): the click is where.
    if let Some(land) = legal
        .iter()
        .find(|l| matches!(l.command, Command::Land { .. }))
    {
        return match game.nearest(seat, &land.command, spot(p)) {
            Some(c) => ClickMeans::Play(c),
            None => ClickMeans::Refused(format!("the template cannot lie at {p} (R129)")),
        };
    }
    // Deployment (R146): the unit chosen, else the first the list has,
    // is set down where the table is clicked.
    let deploys: Vec<Tag> = legal
        .iter()
        .filter_map(|l| match l.command {
            Command::Deploy { unit, .. } => Some(unit),
            _ => None,
        })
        .collect();
    if let Some(first) = deploys.first() {
        let unit = pick
            .unit
            .map(|i| game.units()[i].tag)
            .filter(|t| deploys.contains(t))
            .unwrap_or(*first);
        let Some(at) = P16::of(p) else {
            return ClickMeans::Refused(format!("{p} is off the table"));
        };
        let command = Command::Deploy {
            unit,
            to: sandtable_frontiers::command::Step::At(at),
            face: None,
        };
        return match game.check(seat, &command) {
            Ok(()) => ClickMeans::Play(command),
            Err(e) => ClickMeans::Refused(e.to_string()),
        };
    }
    let here = unit_at(game, p);
    if let Some(h) = here
        && game.units()[h].side == side
        && Some(h) != pick.unit
    {
        return if acts(h) {
            ClickMeans::Select(h)
        } else {
            ClickMeans::Refused(format!(
                "{} may not act now: {}",
                game.units()[h].tag,
                game.phase_words()
            ))
        };
    }
    let Some(i) = pick.unit else {
        // The hint, as the rest of the refusal: its first letter small.
        let hint = super::panel::decision_hint(game);
        let mut words = hint.chars();
        let hint = words
            .next()
            .map(|c| c.to_lowercase().chain(words).collect::<String>())
            .unwrap_or_default();
        return ClickMeans::Refused(format!("nothing here to click: {hint}"));
    };
    let unit = game.units()[i].tag;
    match here {
        Some(t) if game.units()[t].side != side => {
            let target = game.units()[t].tag;
            // Every way the list has at it: a shot (one a vehicle's
            // weapon), a grenade, a charge; else why not.
            let ways: Vec<Command> = legal
                .iter()
                .filter(|l| match l.command {
                    Command::Shoot {
                        unit: u, target: g, ..
                    }
                    | Command::Grenade {
                        unit: u, target: g, ..
                    }
                    | Command::Charge {
                        unit: u, target: g, ..
                    } => u == unit && g == target,
                    _ => false,
                })
                .map(|l| l.command)
                .collect();
            if !ways.is_empty() {
                let mut ways = ways;
                if ways
                    .iter()
                    .any(|w| matches!(w, Command::Shoot { weapon: 0, .. }))
                {
                    ways.extend(rapid_ways(game, seat, unit, target));
                }
                return one_or_ways(ways);
            }
            let shot = Command::Shoot {
                unit,
                target,
                weapon: 0,
            };
            ClickMeans::Refused(match game.check(seat, &shot) {
                Err(e) => e.to_string(),
                Ok(()) => format!("`{shot}` is not among the commands now"),
            })
        }
        _ if !pick.legs.is_empty() => match move_through(game, seat, pick, p) {
            Ok(c) => ClickMeans::Play(c),
            // As a single leg snaps to its nearest member, the last leg
            // stops short where the rules take the move.
            Err(why) => {
                let from = *pick.legs.last().expect("a leg");
                let (dx, dy) = (f64::from(p.x - from.x), f64::from(p.y - from.y));
                let d = dx.hypot(dy);
                let mut r = d.floor();
                while r >= 1.0 {
                    let q = Pt::new(
                        from.x + (dx * r / d).round() as i32,
                        from.y + (dy * r / d).round() as i32,
                    );
                    if let Ok(c) = move_through(game, seat, pick, q) {
                        return ClickMeans::Play(c);
                    }
                    r -= 1.0;
                }
                ClickMeans::Refused(why)
            }
        },
        _ => {
            // A point: a grenade through a window there (R127), the
            // unit's move there, else its smoke (R130).
            let windows = windows_near(game, &legal, unit, p);
            let listed = legal
                .iter()
                .find_map(|l| match l.command {
                    Command::Move { unit: u, .. } if u == unit => Some(l.command),
                    _ => None,
                })
                .or_else(|| {
                    legal.iter().find_map(|l| match l.command {
                        Command::Smoke { unit: u, .. } if u == unit => Some(l.command),
                        _ => None,
                    })
                });
            let Some(listed) = listed else {
                if !windows.is_empty() {
                    return one_or_ways(windows);
                }
                return ClickMeans::Refused(format!(
                    "{unit} neither moves nor throws smoke now, nor a grenade through a window there: its action is another (R111)"
                ));
            };
            // The move to the very point clicked where the rules take
            // it; else the family's member nearest it.
            let exact = match listed {
                Command::Move { .. } => P16::of(p)
                    .and_then(|q| Command::move_to(unit, &[q], None))
                    .filter(|c| game.check(seat, c).is_ok()),
                _ => None,
            };
            match exact.or_else(|| game.nearest(seat, &listed, spot(p))) {
                Some(c) => {
                    let mut ways = windows;
                    ways.push(c);
                    one_or_ways(ways)
                }
                None if !windows.is_empty() => one_or_ways(windows),
                None if matches!(listed, Command::Smoke { .. }) => {
                    let at = P16::of(p).unwrap_or_default();
                    ClickMeans::Refused(match game.check(seat, &Command::Smoke { unit, at }) {
                        Err(e) => e.to_string(),
                        Ok(()) => format!("{unit} cannot throw smoke towards {p}"),
                    })
                }
                None => {
                    // Why the straight move there is refused.
                    let straight = P16::of(p).and_then(|q| Command::move_to(unit, &[q], None));
                    ClickMeans::Refused(match straight.map(|c| game.check(seat, &c)) {
                        Some(Err(e)) => e.to_string(),
                        _ => format!("{unit} cannot move towards {p}"),
                    })
                }
            }
        }
    }
}

/// The rapid-fire shots of `unit` that `target` is the first part of
/// (R141): its bonus split among 2 or 3 enemies within 2 LNS of each
/// other, every split the rules accept, so that a click on the first
/// target offers them beside the whole shot.
pub fn rapid_ways(game: &Game, seat: Seat, unit: Tag, target: Tag) -> Vec<Command> {
    use sandtable_frontiers::command::{MAX_PARTS, Part};
    let (Some(i), Some(t)) = (game.find(unit), game.find(target)) else {
        return Vec::new();
    };
    // Only a rapid-firer splits: no split to weigh for any other unit,
    // as the pointer passes over an enemy.
    if !game.units()[i]
        .data
        .has(sandtable_frontiers::data::Ability::RapidFire)
    {
        return Vec::new();
    }
    let side = game.units()[i].side;
    let reach = 2.0 * f64::from(game.setup().switches.lns_mm);
    let first = game.units()[t].shape();
    // The other enemies near enough the first target to share a split.
    let near: Vec<Tag> = game
        .units()
        .iter()
        .enumerate()
        .filter(|(k, e)| {
            *k != t
                && e.alive
                && !e.waiting
                && e.aboard.is_none()
                && e.side != side
                && gap(&e.shape(), &first) <= reach
        })
        .map(|(_, e)| e.tag)
        .collect();
    let mut groups: Vec<Vec<Tag>> = near.iter().map(|e| vec![target, *e]).collect();
    for (a, e) in near.iter().enumerate() {
        for f in &near[a + 1..] {
            groups.push(vec![target, *e, *f]);
        }
    }
    let mut out = Vec::new();
    for group in groups {
        // Every bonus of 1 to 3 in each part (the data's largest bonus is
        // 3, MAX_PARTS parts at most): the rules keep those that split
        // the unit's own.
        let k = group.len();
        let splits: Vec<Vec<u8>> = (0..3usize.pow(k as u32))
            .map(|mut code| {
                (0..k)
                    .map(|_| {
                        let b = (code % 3) as u8 + 1;
                        code /= 3;
                        b
                    })
                    .collect()
            })
            .collect();
        for split in splits {
            let mut parts = [Part::default(); MAX_PARTS];
            for (n, (tag, bonus)) in group.iter().zip(&split).enumerate() {
                parts[n] = Part {
                    target: *tag,
                    bonus: *bonus,
                };
            }
            let c = Command::Rapid {
                unit,
                parts,
                n: k as u8,
            };
            if game.check(seat, &c).is_ok() {
                out.push(c);
            }
        }
    }
    out
}

/// One command played, or two or more to choose among.
fn one_or_ways(mut ways: Vec<Command>) -> ClickMeans {
    if ways.len() == 1 {
        ClickMeans::Play(ways.remove(0))
    } else {
        ClickMeans::Ways(ways)
    }
}

/// The grenades `unit` may throw now through a window within
/// [`WINDOW_REACH_MM`] of `p` (R127), from the legal list.
fn windows_near(
    game: &Game,
    legal: &[sandtable_core::game::Legal<Command>],
    unit: Tag,
    p: Pt,
) -> Vec<Command> {
    use sandtable_frontiers::setup::OpeningKind;
    legal
        .iter()
        .filter_map(|l| match l.command {
            Command::Window {
                unit: u,
                element,
                window,
            } if u == unit => {
                let el = &game.setup().elements[game.element_index(element)?];
                let o = el
                    .openings
                    .iter()
                    .filter(|o| o.kind == OpeningKind::Window)
                    .nth(usize::from(window).checked_sub(1)?)?;
                (sandtable_frontiers::geometry::point_segment(p.v(), o.a.v(), o.b.v())
                    <= WINDOW_REACH_MM)
                    .then_some(l.command)
            }
            _ => None,
        })
        .collect()
}

/// The words for a command about to be played: a move's length against
/// the unit's Movement; the odds of what the dice decide.
pub fn preview_words(game: &Game, seat: Seat, command: &Command) -> String {
    let mut words = format!("click: {command}");
    if let Command::Move { unit, legs, .. } = command
        && let Some(i) = game.find(*unit)
        && let Some(points) = legs.points()
    {
        let u = &game.units()[i];
        let lns = f64::from(game.setup().switches.lns_mm);
        let mut length = 0.0;
        let mut from = u.at;
        for q in points {
            length += f64::from(q.x - from.x).hypot(f64::from(q.y - from.y));
            from = q;
        }
        words.push_str(&format!(
            " ({length:.0} mm, {:.1} LNS of its Movement {}, R113)",
            length / lns,
            u.movement()
        ));
    }
    for odds in game.odds(seat, command) {
        let outcomes: Vec<String> = odds
            .outcomes
            .iter()
            .map(|(what, chance)| format!("{what} {:.0}%", 100.0 * chance.value()))
            .collect();
        words.push_str(&format!("; {}: {}", odds.what, outcomes.join(", ")));
    }
    words
}

/// Works out the preview again when the game, the selection or the
/// pointer changed.
fn show_preview(
    active: Res<ActiveSkirmish>,
    pick: Res<SkirmishPick>,
    pointer: Res<PointerAt>,
    seats: Res<crate::session::Seats>,
    mut preview: ResMut<Preview>,
) {
    let now = (active.id, active.revision, pick.clone(), *pointer);
    if preview.seen.as_ref() == Some(&now) {
        return;
    }
    let mut fresh = Preview {
        seen: Some(now),
        ..Preview::default()
    };
    let game = active.game.game();
    if let Some(p) = pointer.0
        && (pick.unit.is_some() || deploying(game) || game.pending().is_some())
        && super::play::person_may_not_play(&active, &seats).is_none()
        && let Some(seat) = active.deciding_seat()
    {
        match click_means(game, seat, &pick, p) {
            ClickMeans::Play(c) => {
                fresh.marks = game.marks(seat, &c, active.viewer);
                fresh.words = preview_words(game, seat, &c);
                fresh.command = Some(c);
            }
            ClickMeans::Ways(ways) => {
                // The first way's marks; the words name them all.
                fresh.marks = game.marks(seat, &ways[0], active.viewer);
                let names: Vec<String> = ways.iter().map(ToString::to_string).collect();
                fresh.words = format!("click: choose one of {}", names.join(", "));
            }
            ClickMeans::Refused(why) => fresh.words = why,
            ClickMeans::Select(i) => {
                fresh.words = format!("click: select {}", game.units()[i].tag);
            }
        }
    }
    *preview = fresh;
}

/// Whether the game is in its deployment (R146).
pub fn deploying(game: &Game) -> bool {
    matches!(
        game.flow().phase,
        sandtable_frontiers::flow::Phase::Deploy(_)
    )
}

/// A new game, or a command undone: the selection and the orders laid
/// go.
pub(super) fn forget_pick(mut pick: ResMut<SkirmishPick>, mut draft: ResMut<OrdersDraft>) {
    *pick = SkirmishPick::default();
    draft.0.clear();
}

/// The pointer and the mouse on the table, for a table with a window.
pub(super) fn window_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            track_pointer,
            read_clicks.run_if(in_state(crate::mode::Mode::Play)),
            super::layout::read_layout_input.run_if(in_state(crate::mode::Mode::Layout)),
        )
            .chain()
            .in_set(crate::schedule::AppSystems::RecordInput)
            .run_if(resource_exists::<ActiveSkirmish>),
    );
}

/// Keeps [`PointerAt`]: the point of the table top under the pointer.
fn track_pointer(
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    active: Res<ActiveSkirmish>,
    mut pointer: ResMut<PointerAt>,
) {
    let (Ok(window), Ok(camera)) = (window.single(), camera.single()) else {
        return;
    };
    let table = active.game.game().setup().table;
    let at = crate::picking::point_under_cursor(window, camera)
        .map(|w| super::table_pt(table, w))
        .filter(|p| {
            (0..=i32::from(table.0)).contains(&p.x) && (0..=i32::from(table.1)).contains(&p.y)
        });
    if pointer.0 != at {
        pointer.0 = at;
    }
}

/// A left click on the table top is a [`SkirmishInput::Click`] there;
/// Escape lets go of the selection (the right button orbits the camera).
///
/// [`SkirmishInput::Click`]: super::play::SkirmishInput::Click
fn read_clicks(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    pointer: Res<PointerAt>,
    active: Res<ActiveSkirmish>,
    mut pressed: Local<Option<Pt>>,
    mut out: MessageWriter<super::play::SkirmishInput>,
) {
    use super::play::SkirmishInput;
    // Behind the curtain the table is hidden: the click that takes the
    // table is the curtain's, not the table's.
    if active.curtain() || egui.as_ref().is_some_and(|e| e.wants_any_pointer_input()) {
        *pressed = None;
        return;
    }
    // A press acts at once (a unit selected, a point played); a drag let
    // go a unit's base away from where it was pressed acts there too, so
    // a unit is dragged to where it goes.
    if buttons.just_pressed(MouseButton::Left)
        && let Some(p) = pointer.0
    {
        // Only a press on one's own unit's base starts a drag.
        let game = active.game.game();
        *pressed = unit_at(game, p)
            .filter(|i| {
                active.viewer
                    == sandtable_core::game::Viewer::Player(Seat(u16::from(game.units()[*i].side)))
            })
            .map(|_| p);
        let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
        out.write(if shift {
            SkirmishInput::Waypoint(p)
        } else {
            SkirmishInput::Click(p)
        });
    }
    if buttons.just_released(MouseButton::Left)
        && let (Some(from), Some(to)) = (pressed.take(), pointer.0)
        && f64::from(to.x - from.x).hypot(f64::from(to.y - from.y)) > 20.0
    {
        out.write(SkirmishInput::Click(to));
    }
    if keys.just_pressed(KeyCode::Escape)
        && !egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input())
    {
        out.write(super::play::SkirmishInput::Cancel);
    }
}
