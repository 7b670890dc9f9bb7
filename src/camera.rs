//! The camera: orbit with the right mouse button, pan with the middle button
//! or WASD, zoom with the wheel, T for a top-down view and Home (or R) to
//! reset. Nothing moves while the pointer or the keyboard belongs to a panel
//! (the side panel included, which egui does not count as under the pointer:
//! it is drawn on egui's background layer, where only its windows are
//! found), and the wheel does not zoom while a piece being dragged has it.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

use crate::hud::PanelWidth;
use crate::table::{TableBuilt, TableShown};

/// The camera and its controls.
pub fn plugin(app: &mut App) {
    app.init_resource::<WheelTaken>()
        .add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (
                frame_board_on_load,
                turn_to_the_seat,
                orbit_camera,
                place_camera,
            )
                .chain(),
        );
}

/// Whether something on the table has the wheel now (the men of a march
/// being dragged), so that it does not zoom.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WheelTaken(pub bool);

/// Orbit state of the table camera.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct OrbitCamera {
    /// The point looked at, on the table.
    pub focus: Vec3,
    /// Turn around the vertical axis, in radians (0: from the near edge).
    pub yaw: f32,
    /// Angle above the table, in radians.
    pub pitch: f32,
    /// Distance from the focus, in world units (squares).
    pub distance: f32,
    /// The view the reset key goes back to.
    pub home: (Vec3, f32, f32, f32),
}

impl OrbitCamera {
    fn framing(columns: f32, rows: f32) -> (Vec3, f32, f32, f32) {
        // The table is drawn left of a side panel: about 4 wide to 3 high.
        let extent = (columns * 1.1).max(rows * 1.6);
        (Vec3::new(0.0, 0.0, 0.6), 0.0, 0.95, extent * 1.08 + 2.0)
    }

    fn reset(&mut self) {
        (self.focus, self.yaw, self.pitch, self.distance) = self.home;
    }
}

fn spawn_camera(mut commands: Commands) {
    let home = OrbitCamera::framing(24.0, 15.0);
    commands.spawn((
        Camera3d::default(),
        OrbitCamera {
            focus: home.0,
            yaw: home.1,
            pitch: home.2,
            distance: home.3,
            home,
        },
        Transform::default(),
    ));
}

fn frame_board_on_load(
    mut built: MessageReader<TableBuilt>,
    shown: Res<TableShown>,
    view: Option<Res<crate::session::SeatView>>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    if !built.read().any(|b| b.reframe) {
        return;
    }
    let Some(extent) = shown.extent else {
        return;
    };
    let (columns, rows) = (extent.x, extent.y);
    for mut cam in &mut cameras {
        cam.home = OrbitCamera::framing(columns, rows);
        if let Some(yaw) = view.as_ref().and_then(|v| v.0) {
            cam.home.1 = yaw;
        }
        cam.reset();
    }
}

fn orbit_camera(
    mut cameras: Query<&mut OrbitCamera>,
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    egui: Option<Res<EguiWantsInput>>,
    wheel: Option<Res<WheelTaken>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    panel: Option<Res<PanelWidth>>,
    time: Res<Time>,
) {
    let on_panel = windows
        .single()
        .is_ok_and(|w| over_panel(w, panel.as_ref().map_or(0.0, |p| p.0)));
    let pointer_free = !on_panel && egui.as_ref().is_none_or(|e| !e.wants_any_pointer_input());
    let keys_free = egui.as_ref().is_none_or(|e| !e.wants_any_keyboard_input());
    for mut cam in &mut cameras {
        if pointer_free {
            if buttons.pressed(MouseButton::Right) {
                cam.yaw -= motion.delta.x * 0.005;
                cam.pitch = (cam.pitch + motion.delta.y * 0.005).clamp(0.15, 1.55);
            }
            if buttons.pressed(MouseButton::Middle) {
                let pan = motion.delta * cam.distance * 0.0015;
                let (right, forward) = ground_axes(cam.yaw);
                cam.focus += -right * pan.x + forward * pan.y;
            }
            let lines = match scroll.unit {
                MouseScrollUnit::Line => scroll.delta.y,
                MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
            };
            if lines != 0.0 && !wheel.as_ref().is_some_and(|w| w.0) {
                cam.distance = (cam.distance * (1.0 - lines * 0.1)).clamp(3.0, 400.0);
            }
        }
        if keys_free {
            let mut dir = Vec2::ZERO;
            if keys.pressed(KeyCode::KeyW) {
                dir.y += 1.0;
            }
            if keys.pressed(KeyCode::KeyS) {
                dir.y -= 1.0;
            }
            if keys.pressed(KeyCode::KeyA) {
                dir.x -= 1.0;
            }
            if keys.pressed(KeyCode::KeyD) {
                dir.x += 1.0;
            }
            if dir != Vec2::ZERO {
                let (right, forward) = ground_axes(cam.yaw);
                let speed = cam.distance * 0.8 * time.delta_secs();
                cam.focus += (right * dir.x + forward * dir.y) * speed;
            }
            if keys.just_pressed(KeyCode::KeyT) {
                cam.pitch = 1.55;
                cam.yaw = 0.0;
            }
            if keys.just_pressed(KeyCode::Home) || keys.just_pressed(KeyCode::KeyR) {
                cam.reset();
            }
        }
    }
}

/// Whether the pointer is over the side panel, `panel` logical pixels wide
/// at the window's right edge.
fn over_panel(window: &Window, panel: f32) -> bool {
    panel > 0.0
        && window
            .cursor_position()
            .is_some_and(|p| p.x >= window.width() - panel)
}

/// The person at the table looks from their seat's own edge, where the
/// system gives its seats one ([`crate::session::SeatView`]): turned there
/// when the table's view becomes that seat's, and Home brings them back
/// there.
fn turn_to_the_seat(
    view: Option<Res<crate::session::SeatView>>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    let Some(yaw) = view.filter(|v| v.is_changed()).and_then(|v| v.0) else {
        return;
    };
    for mut cam in &mut cameras {
        if cam.home.1 != yaw {
            cam.home.1 = yaw;
            cam.reset();
        }
    }
}

/// Right and forward along the table for a camera turned by `yaw`.
fn ground_axes(yaw: f32) -> (Vec3, Vec3) {
    let forward = Vec3::new(-yaw.sin(), 0.0, -yaw.cos());
    let right = Vec3::new(yaw.cos(), 0.0, -yaw.sin());
    (right, forward)
}

fn place_camera(mut cameras: Query<(&OrbitCamera, &mut Transform), Changed<OrbitCamera>>) {
    for (cam, mut transform) in &mut cameras {
        let offset = Vec3::new(
            cam.yaw.sin() * cam.pitch.cos(),
            cam.pitch.sin(),
            cam.yaw.cos() * cam.pitch.cos(),
        ) * cam.distance;
        *transform = Transform::from_translation(cam.focus + offset).looking_at(cam.focus, Vec3::Y);
    }
}
