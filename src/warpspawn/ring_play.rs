//! Playing the off-board grid with the mouse (R44-R56). In the Orders
//! phase the person picks one of their counters (its token, or its row in
//! the panel) and writes its path square by square, by clicks or by
//! dragging the token along the ring: each square is checked by the rules
//! as it is added, and a square the path may not take is refused there,
//! with its ruling; letting go of a drag, or the panel's button, gives the
//! order. A fall-back is picked by clicking its square; a formation in an
//! edge hex marches off by being dragged (or, once selected, by a click)
//! onto the edge square it faces; a counter ordered to enter is picked,
//! then the hex it comes on at; a selected cannon aims at a counter it
//! sees by a click on its square, and the panel shows the shot's odds.
//! Everything goes through the game contract (`legal_into`, `check`,
//! `apply`) with the viewer's side as the seat, so the rules read only
//! what that side may see (R57).

use bevy::prelude::*;
use sandtable_core::game::{GameState, Legal};
use sandtable_warpspawn::offboard::command::{GridCommand, Order, Path};
use sandtable_warpspawn::offboard::ring::Square;
use sandtable_warpspawn::offboard::state::Stage;
use sandtable_warpspawn::{Command, Game, Hex, Phase, Side};

use super::play::{BattleDrag, BattlePick, person_legal, play_person, seat};
use super::table::ActiveBattle;
use crate::schedule::AppSystems;
use crate::session::dice::TypedRolls;
use crate::session::{Notice, Seats};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RingInput>()
        .init_resource::<RingPick>()
        .init_resource::<super::ring_panel::RingForm>()
        .add_systems(Update, follow_ring_drag.in_set(AppSystems::RecordInput))
        .add_systems(
            Update,
            (
                ring_input.before(super::play::battle_input),
                forget_ring_pick,
            )
                .in_set(crate::schedule::FlowSteps::Play)
                .distributive_run_if(resource_exists::<ActiveBattle>)
                .distributive_run_if(in_state(crate::mode::Mode::Play)),
        );
}

/// What the person does on the ring: every click, drag and button of the
/// grid comes here.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum RingInput {
    /// A square of the ring, or a token on it, was clicked.
    Square(Square),
    /// The button went down on a square and moved: a token is dragged.
    Grab(Square),
    /// While a token is dragged, the pointer came over a square.
    Over(Square),
    /// A drag was let go on a square.
    DropOn(Square),
    /// A drag ended, wherever it was let go (after any drop): a path
    /// dragged off the ring stays written, for the panel's button.
    Release,
    /// One of the side's counters, picked in the panel.
    Select(u16),
    /// The last square of the path being written is taken off.
    Back,
    /// The order being written scouts, or not (R54).
    Scout(bool),
    /// The counter picked is given the path written.
    GivePath,
    /// The counter picked is given a plain order: `hold` or `enter`.
    Give(Order),
    /// A counter ordered to enter is picked to come onto the map: then a
    /// click on a hex it faces brings it on (R48).
    Entering(u16),
    /// Let go of the selection on the ring.
    Cancel,
}

/// The person's selection on the ring.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct RingPick {
    /// The counter of the person's side picked: for its order, or to enter.
    pub counter: Option<u16>,
    /// The path being written for it, square by square (R44, R49).
    pub path: Vec<Square>,
    /// The order being written scouts (R54).
    pub scout: bool,
    /// A token is being dragged along its path.
    pub dragging: bool,
    /// The counter picked comes onto the map at the next hex clicked.
    pub entering: bool,
    /// The square a selected cannon aims at (R56).
    pub aim: Option<Square>,
    /// The last square the path being written was refused at, shown red
    /// until the path changes.
    pub refused: Option<Square>,
}

impl RingPick {
    /// The order the path written makes, if any.
    pub fn path_order(&self) -> Option<Command> {
        let counter = self.counter?;
        let path = Path::from_slice(&self.path)?;
        Some(Command::Grid(GridCommand::Order {
            counter,
            order: Order::Path(path),
            scout: self.scout,
        }))
    }
}

/// Whether `side` writes its orders now (R47).
pub fn writing_orders(game: &Game, side: Side) -> bool {
    game.grid().is_some_and(|g| {
        g.fight.is_none() && matches!(&g.stage, Stage::Orders(o) if !o[side.index()].committed)
    })
}

/// The counters of `side` in `sq`, as the side knows its own (while it
/// writes, as it has split and merged them).
fn own_counters_at(game: &Game, side: Side, sq: Square) -> Vec<u16> {
    game.ring_view(Some(side.index()))
        .map(|v| {
            v.counters
                .iter()
                .filter(|c| c.side == side.index() && c.at == sq)
                .map(|c| c.number)
                .collect()
        })
        .unwrap_or_default()
}

/// The square of `side`'s counter `number`, as the side knows it.
pub fn own_square(game: &Game, side: Side, number: u16) -> Option<Square> {
    game.ring_view(Some(side.index()))?
        .counters
        .iter()
        .find(|c| c.side == side.index() && c.number == number)
        .map(|c| c.at)
}

/// The rate of a counter on a path, with whether it moves behind the lines
/// (R44: every square of the path, its start too, in its own reserve).
pub fn rate_on(game: &Game, side: Side, number: u16, path: &[Square]) -> Option<(u16, bool)> {
    let g = game.grid()?;
    let view = game.ring_view(Some(side.index()))?;
    let c = view
        .counters
        .iter()
        .find(|c| c.side == side.index() && c.number == number)?;
    let reserve = &g.grid.reserves[side.index()];
    let behind = reserve.contains(&c.at) && path.iter().all(|sq| reserve.contains(sq));
    Some((c.pieces?.rate(behind), behind))
}

/// The listed command of `legal` that `pick` names at `sq`.
fn listed_at(legal: &[Legal<Command>], matches: impl Fn(&Command) -> bool) -> Option<Command> {
    legal.iter().map(|l| l.command).find(|c| matches(c))
}

/// The person's clicks, drags and buttons on the ring. A refused command
/// changes nothing, and its reason, with its ruling, goes to the notice.
#[allow(clippy::too_many_arguments)]
pub fn ring_input(
    mut inputs: MessageReader<RingInput>,
    mut active: ResMut<ActiveBattle>,
    seats: Res<Seats>,
    mut pick: ResMut<RingPick>,
    mut battle_pick: ResMut<BattlePick>,
    drag: Res<BattleDrag>,
    mut notice: ResMut<Notice>,
    mut typed: ResMut<TypedRolls>,
) {
    for input in inputs.read().copied() {
        match input {
            RingInput::Cancel => *pick = RingPick::default(),
            RingInput::Release => pick.dragging = false,
            RingInput::Scout(on) => pick.scout = on,
            RingInput::Back => {
                pick.path.pop();
                pick.refused = None;
            }
            RingInput::Select(number) => {
                *pick = RingPick {
                    counter: Some(number),
                    scout: pick.scout && pick.counter == Some(number),
                    ..RingPick::default()
                };
            }
            RingInput::Entering(number) => {
                *pick = RingPick {
                    counter: Some(number),
                    entering: true,
                    ..RingPick::default()
                };
                *battle_pick = BattlePick::default();
                notice.info(format!(
                    "counter {number} enters: click a lit hex its square faces (R48)"
                ));
            }
            RingInput::Give(order) => {
                let Some(counter) = pick.counter else {
                    notice.error("pick a counter first: its token, or its row");
                    continue;
                };
                let command = Command::Grid(GridCommand::Order {
                    counter,
                    order,
                    scout: pick.scout,
                });
                if play_person(&mut active, command, &mut notice, &mut typed, &seats) {
                    *pick = RingPick::default();
                }
            }
            RingInput::GivePath => {
                give_path(&mut active, &seats, &mut pick, &mut notice, &mut typed)
            }
            RingInput::Grab(sq) => {
                let Ok((side, _)) = person_legal(&active, &seats) else {
                    continue;
                };
                let game = &*active.game;
                if !writing_orders(game, side) {
                    continue;
                }
                let here = own_counters_at(game, side, sq);
                let number = match pick.counter {
                    Some(n) if here.contains(&n) => n,
                    _ => match here.first() {
                        Some(n) => *n,
                        None => continue,
                    },
                };
                *pick = RingPick {
                    counter: Some(number),
                    scout: pick.scout && pick.counter == Some(number),
                    dragging: true,
                    ..RingPick::default()
                };
                notice.info(format!(
                    "counter {number}: drag it along its path, square by square, and let go to give the order (R44, R49)"
                ));
            }
            RingInput::Over(sq) => {
                if !pick.dragging {
                    continue;
                }
                extend_path(&active, &seats, &mut pick, &mut notice, sq);
            }
            RingInput::DropOn(sq) => {
                if pick.dragging {
                    // Still dragging: the square the pointer came over last
                    // is not taken off again.
                    extend_path(&active, &seats, &mut pick, &mut notice, sq);
                    pick.dragging = false;
                    if !pick.path.is_empty() && pick.refused.is_none() {
                        give_path(&mut active, &seats, &mut pick, &mut notice, &mut typed);
                    }
                    continue;
                }
                // A formation dragged from an edge hex marches off.
                if let Some(from) = drag.from {
                    march_off(
                        &mut active,
                        &seats,
                        from,
                        drag.split(),
                        sq,
                        &mut notice,
                        &mut typed,
                    );
                    *battle_pick = BattlePick::default();
                }
            }
            RingInput::Square(sq) => {
                let (side, legal) = match person_legal(&active, &seats) {
                    Ok(listed) => listed,
                    Err(why) => {
                        notice.info(why);
                        continue;
                    }
                };
                let game = &*active.game;
                // A fall-back is picked where it goes (R50).
                let fallbacks: Vec<Command> = legal
                    .iter()
                    .map(|l| l.command)
                    .filter(|c| matches!(c, Command::Grid(GridCommand::Fallback(_))))
                    .collect();
                if !fallbacks.is_empty() {
                    let command = Command::Grid(GridCommand::Fallback(sq));
                    match GameState::check(game, seat(side), &command) {
                        Ok(()) => {
                            play_person(&mut active, command, &mut notice, &mut typed, &seats);
                        }
                        Err(e) => notice.error(format!("{sq}: {e}")),
                    }
                    continue;
                }
                if writing_orders(game, side) {
                    let here = own_counters_at(game, side, sq);
                    let picked_here = pick.counter.is_some_and(|n| here.contains(&n));
                    let reselect = !here.is_empty()
                        && pick.path.is_empty()
                        && (pick.counter.is_none()
                            || picked_here
                            || !pick_can_enter(game, side, &pick, sq));
                    if reselect {
                        // The next of the side's counters here is picked.
                        let next =
                            match pick.counter.and_then(|n| here.iter().position(|h| *h == n)) {
                                Some(i) => here[(i + 1) % here.len()],
                                None => here[0],
                            };
                        *pick = RingPick {
                            counter: Some(next),
                            ..RingPick::default()
                        };
                        notice.info(format!(
                            "counter {next} picked: click the squares of its path, or drag its token (R44)"
                        ));
                        continue;
                    }
                    if pick.counter.is_some() {
                        extend_path(&active, &seats, &mut pick, &mut notice, sq);
                        continue;
                    }
                    notice.error(format!(
                        "{sq}: none of {}'s counters stands here: click one of its tokens (R47)",
                        game.name(side)
                    ));
                    continue;
                }
                match game.phase() {
                    Phase::March => {
                        // A counter ordered to enter, picked by its token.
                        let entering: Vec<u16> = own_counters_at(game, side, sq)
                            .into_iter()
                            .filter(|n| {
                                legal.iter().any(|l| {
                                    matches!(l.command, Command::Enter { counter, .. } if counter == *n)
                                })
                            })
                            .collect();
                        if let Some(from) = battle_pick.from {
                            march_off(
                                &mut active,
                                &seats,
                                from,
                                battle_pick.split,
                                sq,
                                &mut notice,
                                &mut typed,
                            );
                            *battle_pick = BattlePick::default();
                        } else if let Some(&n) = entering.first() {
                            *pick = RingPick {
                                counter: Some(n),
                                entering: true,
                                ..RingPick::default()
                            };
                            notice.info(format!(
                                "counter {n} enters: click a lit hex its square faces (R48)"
                            ));
                        } else {
                            notice.info(
                                game.describe_square(sq, Some(side.index()))
                                    .unwrap_or_default(),
                            );
                        }
                    }
                    Phase::Cannonade => match battle_pick.from {
                        Some(cannon)
                            if legal.iter().any(|l| {
                                matches!(l.command, Command::FireAtCounter { cannon: c, square, .. } if c == cannon && square == sq)
                            }) =>
                        {
                            pick.aim = Some(sq);
                            notice.text = None;
                        }
                        Some(cannon) => {
                            let number = game
                                .ring_view(Some(side.index()))
                                .and_then(|v| {
                                    v.counters
                                        .iter()
                                        .find(|c| c.side != side.index() && c.at == sq)
                                        .map(|c| c.number)
                                })
                                .unwrap_or(0);
                            let command = Command::FireAtCounter {
                                cannon,
                                square: sq,
                                counter: number,
                                crew: None,
                            };
                            let why = match GameState::check(game, seat(side), &command) {
                                Err(e) => e.to_string(),
                                Ok(()) => format!("`{command}` is legal: use the list"),
                            };
                            notice.error(format!("{sq}: {why}"));
                        }
                        None => notice.info(
                            game.describe_square(sq, Some(side.index()))
                                .unwrap_or_default(),
                        ),
                    },
                    _ => notice.info(
                        game.describe_square(sq, Some(side.index()))
                            .unwrap_or_default(),
                    ),
                }
            }
        }
    }
}

/// Brings the counter picked to enter onto `hex` (R48), as the listed
/// entry there (the whole counter, or as many men as fit) or as named;
/// whether the click was the ring's to take.
pub(super) fn enter_at(
    active: &mut ActiveBattle,
    seats: &Seats,
    pick: &mut RingPick,
    hex: Hex,
    notice: &mut Notice,
    typed: &mut TypedRolls,
) -> bool {
    let (true, Some(counter)) = (pick.entering, pick.counter) else {
        return false;
    };
    let Ok((side, legal)) = person_legal(active, seats) else {
        return false;
    };
    let Some(command) = listed_at(
        &legal,
        |c| matches!(c, Command::Enter { counter: n, hex: h, .. } if *n == counter && *h == hex),
    ) else {
        // Not a hex it may come on at: the pick is let go, and the click
        // is the map's.
        *pick = RingPick::default();
        return false;
    };
    if let Err(e) = GameState::check(&*active.game, seat(side), &command) {
        notice.error(format!("{hex}: {e}"));
        return true;
    }
    if play_person(active, command, notice, typed, seats) {
        *pick = RingPick::default();
    }
    true
}

/// Whether a click on `sq` could only extend the path of the counter picked.
fn pick_can_enter(game: &Game, side: Side, pick: &RingPick, sq: Square) -> bool {
    let Some(counter) = pick.counter else {
        return false;
    };
    let mut path = pick.path.clone();
    path.push(sq);
    let Some(path) = Path::from_slice(&path) else {
        return false;
    };
    GameState::check(
        game,
        seat(side),
        &Command::Grid(GridCommand::Order {
            counter,
            order: Order::Path(path),
            scout: pick.scout,
        }),
    )
    .is_ok()
}

/// Adds `sq` to the path being written, as the rules allow (R44, R49):
/// its last square again takes it off; the counter's own square is no
/// step; a square the path may not take is refused there, with its ruling.
fn extend_path(
    active: &ActiveBattle,
    seats: &Seats,
    pick: &mut RingPick,
    notice: &mut Notice,
    sq: Square,
) {
    let Ok((side, _)) = person_legal(active, seats) else {
        return;
    };
    let game = &*active.game;
    let Some(counter) = pick.counter else {
        return;
    };
    if pick.path.last() == Some(&sq) {
        if !pick.dragging {
            pick.path.pop();
        }
        return;
    }
    if pick.path.is_empty() && own_square(game, side, counter) == Some(sq) {
        return;
    }
    // Back along the path: the squares after `sq` come off.
    if let Some(i) = pick.path.iter().position(|s| *s == sq) {
        pick.path.truncate(i + 1);
        return;
    }
    let mut path = pick.path.clone();
    path.push(sq);
    let Some(written) = Path::from_slice(&path) else {
        notice.error(format!("{sq}: a path enters at most a few squares (R44)"));
        return;
    };
    let command = Command::Grid(GridCommand::Order {
        counter,
        order: Order::Path(written),
        scout: pick.scout,
    });
    match GameState::check(game, seat(side), &command) {
        Ok(()) => {
            pick.path = path;
            pick.refused = None;
            let rate = rate_on(game, side, counter, &pick.path)
                .map(|(r, behind)| {
                    format!(
                        "; rate {r} {} (R44)",
                        if behind {
                            "behind the lines"
                        } else {
                            "forward"
                        }
                    )
                })
                .unwrap_or_default();
            notice.info(format!("`{command}`{rate}"));
        }
        Err(e) => {
            pick.refused = Some(sq);
            notice.error(format!("{sq}: {e}"));
        }
    }
}

/// Gives the counter picked the path written.
fn give_path(
    active: &mut ActiveBattle,
    seats: &Seats,
    pick: &mut RingPick,
    notice: &mut Notice,
    typed: &mut TypedRolls,
) {
    let Some(command) = pick.path_order() else {
        notice.error("write a path first: click the squares it enters, in order (R44)");
        return;
    };
    if play_person(active, command, notice, typed, seats) {
        *pick = RingPick::default();
    }
}

/// A formation in `from` marches off into `sq` (R48): what the drag
/// carries, or everything that may go.
fn march_off(
    active: &mut ActiveBattle,
    seats: &Seats,
    from: Hex,
    split: Option<sandtable_warpspawn::Pick>,
    sq: Square,
    notice: &mut Notice,
    typed: &mut TypedRolls,
) {
    let Ok((side, legal)) = person_legal(active, seats) else {
        return;
    };
    let listed = listed_at(
        &legal,
        |c| matches!(c, Command::MarchOff { from: f, square, .. } if *f == from && *square == Some(sq)),
    );
    let command = Command::MarchOff {
        from,
        square: Some(sq),
        pick: split,
    };
    let command = match (listed, split) {
        (Some(listed), None) => listed,
        _ => command,
    };
    if let Err(e) = GameState::check(&*active.game, seat(side), &command) {
        notice.error(format!("{sq}: {e}"));
        return;
    }
    play_person(active, command, notice, typed, seats);
}

/// While a token is dragged, each square the pointer comes over is a step
/// of its path.
fn follow_ring_drag(
    pick: Option<Res<RingPick>>,
    hovered: Res<crate::picking::Hovered>,
    mut out: MessageWriter<RingInput>,
    mut last: Local<Option<Square>>,
) {
    let Some(pick) = pick else {
        return;
    };
    if !pick.dragging {
        *last = None;
        return;
    }
    let Some(sq) = hovered.0.and_then(Square::from_spot) else {
        return;
    };
    if *last != Some(sq) {
        *last = Some(sq);
        out.write(RingInput::Over(sq));
    }
}

/// The ring's selection and the panel's forms are let go when the game
/// moves on past them: another battle, another side deciding, another
/// phase, another person at the table, or an undo.
fn forget_ring_pick(
    active: Res<ActiveBattle>,
    mut pick: ResMut<RingPick>,
    mut form: ResMut<super::ring_panel::RingForm>,
    mut seen: Local<Option<(u64, Option<Side>, Phase, sandtable_core::game::Viewer)>>,
    mut undone: MessageReader<crate::session::game::Undone>,
) {
    let game = &*active.game;
    let key = (
        active.id,
        super::play::table_decider(&active),
        game.phase(),
        active.viewer,
    );
    let moved = *seen != Some(key);
    *seen = Some(key);
    if moved || undone.read().count() > 0 {
        if *pick != RingPick::default() {
            *pick = RingPick::default();
        }
        // The forms hold what one side wrote: never another's (R51, R57).
        if *form != super::ring_panel::RingForm::default() {
            *form = super::ring_panel::RingForm::default();
        }
    }
}
