//! Rulers along the table's near and left edges, in millimetres or inches,
//! for any system's table laid at its real size.

use bevy::prelude::*;
use bevy_egui::egui;

/// Millimetres in an inch.
pub const MM_PER_INCH: f64 = 25.4;

/// Ruler marks along one edge: (position in mm from the table's corner, label).
pub fn ruler_marks(length_mm: f64, inches: bool) -> Vec<(f64, String)> {
    // The finest step that keeps a ruler to 20 marks or fewer.
    let (steps, unit): (&[f64], f64) = if inches {
        (&[2.0, 6.0, 12.0, 24.0, 60.0], MM_PER_INCH)
    } else {
        (&[50.0, 100.0, 250.0, 500.0, 1000.0], 1.0)
    };
    let step = steps
        .iter()
        .map(|s| s * unit)
        .find(|s| length_mm / s <= 20.0)
        .unwrap_or(steps[steps.len() - 1] * unit);
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

/// Rulers along a table's near and left edges, from its near-left corner,
/// in mm or inches: for a table of `table_mm` centred on the world's
/// origin, `mm_per_unit` millimetres to a world unit.
pub fn draw_edge_rulers(
    labels: &super::TableLabels,
    table_mm: (f64, f64),
    mm_per_unit: f64,
    inches: bool,
) {
    let (tw, td) = table_mm;
    let world = |x_mm: f64, y_mm: f64| {
        Vec3::new(
            ((x_mm - tw / 2.0) / mm_per_unit) as f32,
            0.05,
            -((y_mm - td / 2.0) / mm_per_unit) as f32,
        )
    };
    let ruler = egui::Color32::from_rgb(255, 240, 150);
    for (at, label) in ruler_marks(tw, inches) {
        if let Some(pt) = labels.screen(world(at, 0.0)) {
            labels.text(pt, "|", 12.0, ruler);
            labels.text(pt + egui::vec2(0.0, 12.0), &label, 12.0, ruler);
        }
    }
    for (at, label) in ruler_marks(td, inches) {
        if let Some(pt) = labels.screen(world(0.0, at)) {
            labels.text(pt, "-", 12.0, ruler);
            labels.text(pt - egui::vec2(18.0, 0.0), &label, 12.0, ruler);
        }
    }
}
