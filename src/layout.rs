//! Layout mode beside play: the table at its physical size with rulers along
//! the near and left edges (millimetres or inches), and a measuring tool that
//! reads the distance between two clicked squares in mm, inches and squares.
//! While it is on, clicks on the table measure instead of playing.

use bevy::prelude::*;
use sandtable_rules::Square;
use sandtable_scenario::Physical;

use crate::AppSystems;
use crate::picking::{ClickButton, TableClick};
use crate::play::ActiveGame;

/// Millimetres in an inch.
pub const MM_PER_INCH: f64 = 25.4;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LayoutMode>()
        .add_systems(Update, measure_with_clicks.in_set(AppSystems::RecordInput));
}

/// Whether layout mode is on, its ruler unit, and the measurement in progress.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct LayoutMode {
    /// Layout mode is on: clicks measure, they do not play.
    pub on: bool,
    /// Rulers and readings in inches rather than millimetres.
    pub inches: bool,
    /// The first square clicked, waiting for the second.
    pub from: Option<Square>,
    /// The last complete measurement.
    pub reading: Option<Measurement>,
}

/// The distance between the centres of two squares on the physical table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measurement {
    /// First square.
    pub from: Square,
    /// Second square.
    pub to: Square,
    /// Straight-line distance between the centres, in mm.
    pub mm: f64,
    /// The same in squares (straight line, in square sides).
    pub squares: f64,
}

impl Measurement {
    /// Measures between two squares on a table.
    pub fn between(physical: Physical, from: Square, to: Square) -> Measurement {
        let dx = f64::from(from.col) - f64::from(to.col);
        let dy = f64::from(from.row) - f64::from(to.row);
        let squares = (dx * dx + dy * dy).sqrt();
        Measurement {
            from,
            to,
            mm: squares * physical.square_mm,
            squares,
        }
    }

    /// The reading as a person says it.
    pub fn describe(&self) -> String {
        format!(
            "{} to {}: {:.1} mm, {:.2} in, {:.2} squares",
            self.from,
            self.to,
            self.mm,
            self.mm / MM_PER_INCH,
            self.squares
        )
    }
}

/// The table a scenario is laid on: its own, or Table A's.
pub fn physical_of(active: &ActiveGame) -> Physical {
    active.scenario.physical.unwrap_or(Physical::TABLE_A)
}

/// In layout mode a left click sets the first point, the next one reads the
/// distance; a right click clears. The clicks are consumed here.
pub fn measure_with_clicks(
    mut clicks: MessageReader<TableClick>,
    mut layout: ResMut<LayoutMode>,
    active: Option<Res<ActiveGame>>,
) {
    if !layout.on {
        return;
    }
    let Some(active) = active else {
        return;
    };
    let physical = physical_of(&active);
    for click in clicks.read() {
        match (click.button, layout.from) {
            (ClickButton::Secondary, _) => {
                layout.from = None;
                layout.reading = None;
            }
            (ClickButton::Primary, None) => layout.from = Some(click.square),
            (ClickButton::Primary, Some(from)) => {
                layout.reading = Some(Measurement::between(physical, from, click.square));
                layout.from = None;
            }
        }
    }
}

/// Ruler marks along one edge: (position in mm from the table's corner, label).
pub fn ruler_marks(length_mm: f64, inches: bool) -> Vec<(f64, String)> {
    let (step, unit) = if inches {
        (2.0 * MM_PER_INCH, MM_PER_INCH)
    } else {
        (50.0, 1.0)
    };
    let mut marks = Vec::new();
    let mut at = 0.0;
    while at <= length_mm + 1e-9 {
        let value = at / unit;
        let label = if inches {
            format!("{value:.0}\"")
        } else {
            format!("{value:.0}")
        };
        marks.push((at, label));
        at += step;
    }
    marks
}
