//! Cache's picking: the table's clicks on squares and miniatures
//! (`crate::picking::TableClick`, a square as the contract names it)
//! become commands for the rules crate (activate, advance, answer a
//! stash's choice) or a cancel; a left drag from square to square becomes
//! a `TableDrag`. Picks over a panel never reach the table: egui blocks
//! them.

use bevy::prelude::*;
use sandtable_cache::{Choice, Command, Facing, Square};

use crate::cache::play::{ActiveGame, CommandRequest};
use crate::cache::table::{GridPos, advance_to};
pub use crate::picking::TableClick;
use crate::picking::{ClickButton, Hovered, point_under_cursor};
use crate::schedule::AppSystems;
use crate::session::{Notice, UndoRequest};

/// Cache's picking on a table with a window.
pub(super) fn plugin(app: &mut App) {
    click_plugin(app);
}

/// The click and drag handling without the picking backend, for headless
/// tests.
pub fn click_plugin(app: &mut App) {
    app.add_message::<TableClick>()
        .add_message::<TableDrag>()
        .add_message::<crate::picking::Drag>()
        .init_resource::<DragStart>()
        .add_systems(Update, read_table_drags.in_set(AppSystems::RecordInput))
        .init_resource::<Hovered>()
        .init_resource::<PlaceFacing>()
        .add_systems(
            Update,
            interpret_table_clicks
                .in_set(AppSystems::RecordInput)
                .run_if(in_state(crate::mode::Mode::Play)),
        );
}

/// A left-button drag on the table from one square to another (the layout
/// editor moves pieces with it).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableDrag {
    /// The square the button went down on.
    pub from: Square,
    /// The square it was let go on.
    pub to: Square,
}

/// The square the left button went down on, until it is let go.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DragStart(pub Option<Square>);

/// Turns the table's drag ([`crate::picking::Drag`]) from one square (or a
/// miniature on it) to another into a [`TableDrag`]. A press over a panel
/// starts nothing: the panels block picking.
pub fn read_table_drags(
    mut input: MessageReader<crate::picking::Drag>,
    mut start: ResMut<DragStart>,
    mut drags: MessageWriter<TableDrag>,
) {
    use crate::picking::Drag;
    for drag in input.read() {
        match *drag {
            Drag::Grab(spot) => start.0 = Square::from_spot(spot),
            Drag::Drop(spot) => {
                if let (Some(from), Some(to)) = (start.0, Square::from_spot(spot))
                    && to != from
                {
                    drags.write(TableDrag { from, to });
                    start.0 = None;
                }
            }
            Drag::Release => start.0 = None,
        }
    }
}

/// The square of the table under the mouse, found by casting the pointer's
/// ray onto the table top.
pub fn square_under_cursor(
    window: &Window,
    camera: (&Camera, &GlobalTransform),
    board: sandtable_cache::Board,
) -> Option<Square> {
    let at = point_under_cursor(window, camera)?;
    square_at(board, at)
}

/// The square of the board under a point of the table top, if any.
pub fn square_at(board: sandtable_cache::Board, at: Vec3) -> Option<Square> {
    let col = (at.x / crate::cache::table::SQUARE + f32::from(board.columns) / 2.0).floor();
    let row = (-at.z / crate::cache::table::SQUARE + f32::from(board.rows) / 2.0).floor();
    let fits = |v: f32, n: u16| v >= 0.0 && v < f32::from(n);
    (fits(col, board.columns) && fits(row, board.rows)).then(|| Square::new(col as u16, row as u16))
}

/// The square under the pointer, if any ([`crate::picking::Hovered`]).
pub fn hovered_square(hovered: &Hovered) -> Option<Square> {
    hovered.0.and_then(Square::from_spot)
}

/// The facing given to a unit placed by a stash result (chosen in the panel).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaceFacing(pub Facing);

impl Default for PlaceFacing {
    fn default() -> Self {
        PlaceFacing(Facing::N)
    }
}

impl crate::picking::OnSpot for GridPos {
    fn spot(&self) -> sandtable_core::game::Spot {
        self.0.spot()
    }
}

/// Turns table clicks into commands:
/// - while a stash result waits: a click picks the unit or places on the square;
/// - with no unit acting: a click on a miniature activates it (or says why not);
/// - with a unit acting: a click on a square it can reach advances there;
/// - a right click cancels an activation that has not spent anything yet.
pub fn interpret_table_clicks(
    mut clicks: MessageReader<TableClick>,
    active: Option<Res<ActiveGame>>,
    facing: Res<PlaceFacing>,
    mut notice: ResMut<Notice>,
    mut requests: MessageWriter<CommandRequest>,
    mut undo: MessageWriter<UndoRequest>,
    seats: Option<Res<crate::session::Seats>>,
) {
    let Some(active) = active else {
        clicks.clear();
        return;
    };
    for click in clicks.read() {
        // Only a square of Cache's board is Cache's to read.
        let Some(square) = Square::from_spot(click.spot) else {
            continue;
        };
        // Nothing is played now: say why, rather than do nothing.
        if let Some(next) = active.handover {
            notice.info(format!(
                "the table is being handed to {}: press Start turn first",
                active.game.player(sandtable_cache::PlayerId(next.0)).name
            ));
            continue;
        }
        if let Some(outcome) = crate::cache::play::outcome_text(&active.game) {
            notice.info(format!(
                "the game is over ({outcome}): save it, or start a new game"
            ));
            continue;
        }
        if seats
            .as_ref()
            .is_some_and(|s| crate::cache::bots::bot_to_move(s, &active.game))
        {
            let player = active.game.player(active.game.current_player());
            notice.text = Some(format!(
                "{} is played by a bot: wait for its turn to end",
                player.name
            ));
            notice.error = false;
            continue;
        }
        let game = &active.game;
        if click.button == ClickButton::Secondary {
            let fresh = game
                .activation()
                .is_some_and(|a| a.spent == 0 && a.earned == 0)
                && matches!(active.record.last(), Some(Command::Activate(_)));
            if fresh {
                undo.write(UndoRequest);
            } else if game.activation().is_some() {
                notice.text =
                    Some("the unit has already acted: end its activation, or undo".to_owned());
                notice.error = false;
            }
            continue;
        }
        let command = match game.pending() {
            Some(Choice::ExtraActions { .. } | Choice::PickUnfriendly) => Command::Pick(square),
            // Where more than one captive may return to the square (R23), the
            // first listed is returned; the log names it.
            Some(Choice::ReturnFriend) => game
                .legal_commands()
                .into_iter()
                .map(|l| l.command)
                .find(|c| {
                    matches!(*c, Command::PlaceCaptive(sq, f, _)
                        if sq == square && f == facing.0)
                })
                .unwrap_or(Command::Place(square, facing.0)),
            Some(_) => Command::Place(square, facing.0),
            None => match game.activation() {
                None => Command::Activate(square),
                Some(_) => match advance_to(game, square) {
                    Some(c) => c,
                    // Not reachable: ask the rules crate why, through the same path.
                    None if click.on_piece => Command::Activate(square),
                    None => match game.activation().and_then(|a| game.position(a.unit)) {
                        Some((from, f)) if from.steps_to(f, square) == Some(1) => Command::Advance,
                        Some((from, f)) if from.steps_to(f, square).is_some() => {
                            Command::AdvanceTo(square)
                        }
                        _ => {
                            notice.text = Some(format!(
                                "{} is not straight ahead of the acting unit: turn it first (R8)",
                                square
                            ));
                            notice.error = true;
                            continue;
                        }
                    },
                },
            },
        };
        requests.write(CommandRequest(command));
    }
}
