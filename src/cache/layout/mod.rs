//! Layout mode beside play: the scenario's layout on its table at physical
//! size, rulers along the near and left edges (millimetres or inches), a
//! measuring tool that reads the distance between two clicked points, and
//! the editor (see [`editor`] and [`draft`]). While it is on, the table shows
//! the layout being edited, not the game, and clicks measure or edit.

use bevy::prelude::*;
use sandtable_cache::{Board, Square};
use sandtable_scenario::Physical;

use crate::cache::picking::TableClick;
use crate::cache::table::SQUARE;
use crate::mode::Mode;
use crate::picking::ClickButton;
use crate::schedule::AppSystems;
use crate::table::TableShown;

pub mod draft;
pub mod editor;
pub mod panel;
pub mod table;

pub use crate::cache::table::shown_physical;
pub use crate::mode::SetLayoutMode;
pub use editor::{EditorRequest, LayoutEditor};

pub use crate::hud::rulers::{MM_PER_INCH, ruler_marks};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LayoutMode>()
        .add_systems(
            Update,
            measure_with_clicks
                .in_set(AppSystems::RecordInput)
                .run_if(in_state(Mode::Layout)),
        )
        .add_plugins((editor::plugin, table::plugin));
}

/// What layout mode adds to a table with a window: the measuring line
/// following the pointer, and the panel with the rulers.
pub fn window_plugin(app: &mut App) {
    app.add_systems(
        Update,
        follow_measuring_pointer
            .in_set(AppSystems::RecordInput)
            .run_if(in_state(Mode::Layout)),
    )
    .add_plugins(panel::plugin);
}

/// What a left click on the table does in layout mode.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum LayoutTool {
    /// Two clicks read a distance.
    #[default]
    Measure,
    /// Clicks select and place pieces, drags move them.
    Edit,
}

/// Layout mode's tool, its ruler unit, and the measurement in progress.
/// Whether layout mode is on is the [`Mode`] state; switch it with
/// [`SetLayoutMode`].
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct LayoutMode {
    /// What clicks do.
    pub tool: LayoutTool,
    /// Rulers and readings in inches rather than millimetres.
    pub inches: bool,
    /// The first point clicked, waiting for the second.
    pub from: Option<TablePoint>,
    /// Where the pointer is on the table while a measurement waits for its
    /// second point.
    pub pointer: Option<TablePoint>,
    /// The last complete measurement.
    pub reading: Option<Measurement>,
}

/// A point on the physical table: the square it lies in and its place in
/// mm from the table's left and near edges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TablePoint {
    /// The square under the point.
    pub square: Square,
    /// Millimetres from the table's left edge.
    pub x_mm: f64,
    /// Millimetres from the table's near edge.
    pub y_mm: f64,
}

impl TablePoint {
    /// The centre of a square.
    pub fn centre(physical: Physical, board: Board, square: Square) -> TablePoint {
        let (x_mm, y_mm) = physical.square_centre_mm(board, square);
        TablePoint { square, x_mm, y_mm }
    }

    /// The point's place in the world, on the table top (the inverse of
    /// [`TablePoint::at_world`]).
    pub fn world(&self, physical: Physical) -> Vec3 {
        let (tw, td) = physical.table_mm;
        Vec3::new(
            ((self.x_mm - tw / 2.0) / physical.square_mm) as f32 * SQUARE,
            0.0,
            -((self.y_mm - td / 2.0) / physical.square_mm) as f32 * SQUARE,
        )
    }

    /// The point of the table top under a world position (the table is
    /// centred on the world's origin, one world unit a square).
    pub fn at_world(physical: Physical, square: Square, world: Vec3) -> TablePoint {
        let (tw, td) = physical.table_mm;
        TablePoint {
            square,
            x_mm: f64::from(world.x / SQUARE) * physical.square_mm + tw / 2.0,
            y_mm: -f64::from(world.z / SQUARE) * physical.square_mm + td / 2.0,
        }
    }
}

/// The distance between two points of the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measurement {
    /// First point.
    pub from: TablePoint,
    /// Second point.
    pub to: TablePoint,
    /// Straight-line distance, in mm.
    pub mm: f64,
    /// The same in squares (square sides).
    pub squares: f64,
}

impl Measurement {
    /// Measures between two points on a table.
    pub fn between(physical: Physical, from: TablePoint, to: TablePoint) -> Measurement {
        let mm = (from.x_mm - to.x_mm).hypot(from.y_mm - to.y_mm);
        Measurement {
            from,
            to,
            mm,
            squares: mm / physical.square_mm,
        }
    }

    /// The reading as a person says it.
    pub fn describe(&self) -> String {
        format!(
            "{} to {}: {:.1} mm, {:.2} in, {:.2} squares",
            self.from.square,
            self.to.square,
            self.mm,
            self.mm / MM_PER_INCH,
            self.squares
        )
    }

    /// Where the two points lie, in mm from the table's left and near edges.
    pub fn points(&self) -> String {
        format!(
            "from ({:.0}, {:.0}) to ({:.0}, {:.0}) mm from the left and near edges",
            self.from.x_mm, self.from.y_mm, self.to.x_mm, self.to.y_mm
        )
    }
}

/// The line the measuring tool draws on the table in layout mode: from the
/// first point to the pointer while it waits for the second click, else the
/// last reading.
pub fn measuring_line(layout: &LayoutMode, physical: Physical) -> Option<Measurement> {
    if layout.tool != LayoutTool::Measure {
        return None;
    }
    match (layout.from, layout.pointer) {
        (Some(from), Some(to)) => Some(Measurement::between(physical, from, to)),
        (Some(_), None) => None,
        (None, _) => layout.reading,
    }
}

/// While a measurement waits for its second point, the pointer's place on
/// the table is followed, so that the line follows it.
pub fn follow_measuring_pointer(
    mut layout: ResMut<LayoutMode>,
    shown: Res<TableShown>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
) {
    let wanted = match (
        layout.from,
        crate::cache::table::board_shown(&shown),
        window.single(),
        camera.single(),
    ) {
        (Some(_), Some(board), Ok(window), Ok(camera)) => {
            crate::picking::point_under_cursor(window, camera).and_then(|at| {
                let square = crate::cache::picking::square_at(board, at)?;
                Some(TablePoint::at_world(shown_physical(&shown), square, at))
            })
        }
        _ => None,
    };
    if layout.pointer != wanted {
        layout.pointer = wanted;
    }
}

/// With the measuring tool a left click sets the first point, the next one
/// reads the distance; a right click clears. The clicks are consumed here.
pub fn measure_with_clicks(
    mut clicks: MessageReader<TableClick>,
    mut layout: ResMut<LayoutMode>,
    shown: Res<TableShown>,
) {
    if layout.tool != LayoutTool::Measure {
        clicks.clear();
        return;
    }
    let Some(board) = crate::cache::table::board_shown(&shown) else {
        clicks.clear();
        return;
    };
    let physical = shown_physical(&shown);
    for click in clicks.read() {
        let Some(square) = Square::from_spot(click.spot) else {
            continue;
        };
        // A click on a miniature hits its body, above the table: it measures
        // from the centre of the miniature's square.
        let point = match click.point {
            Some(world) if !click.on_piece => TablePoint::at_world(physical, square, world),
            _ => TablePoint::centre(physical, board, square),
        };
        match (click.button, layout.from) {
            (ClickButton::Secondary, _) => {
                layout.from = None;
                layout.reading = None;
            }
            (ClickButton::Primary, None) => layout.from = Some(point),
            (ClickButton::Primary, Some(from)) => {
                layout.reading = Some(Measurement::between(physical, from, point));
                layout.from = None;
            }
        }
    }
}
