//! Picking shared by every system's table: bevy's mesh picking, which
//! pointer button acts and which cancels, and the point of the table top
//! under the pointer. Each system turns picks into its own commands
//! (`crate::cache::picking`, `crate::warpspawn::play`). Picks over a panel
//! never reach the table: egui blocks them.

use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(MeshPickingPlugin);
}

/// The point of the table top (the plane y = 0) under the pointer, if the
/// pointer is over the table's part of the window.
pub fn point_under_cursor(window: &Window, camera: (&Camera, &GlobalTransform)) -> Option<Vec3> {
    let cursor = window.cursor_position()?;
    // Over a panel, beside the table's part of the window, is not the table.
    if camera
        .0
        .logical_viewport_rect()
        .is_some_and(|r| !r.contains(cursor))
    {
        return None;
    }
    let ray = camera.0.viewport_to_world(camera.1, cursor).ok()?;
    let t = ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y))?;
    Some(ray.get_point(t))
}

/// The mouse button of a table click.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClickButton {
    /// Acts.
    Primary,
    /// Cancels.
    Secondary,
}

/// The table's meaning of a pointer button: primary acts, secondary
/// cancels, the middle one is the camera's.
pub fn click_button(b: PointerButton) -> Option<ClickButton> {
    match b {
        PointerButton::Primary => Some(ClickButton::Primary),
        PointerButton::Secondary => Some(ClickButton::Secondary),
        PointerButton::Middle => None,
    }
}
