//! Picking shared by every system's table: bevy's mesh picking, which
//! pointer button acts and which cancels, the point of the table top under
//! the pointer, and the place under the pointer in the contract's terms
//! ([`Hovered`], kept by one pair of observers for every system's pieces),
//! the clicks ([`TableClick`]) and the left button's drags ([`Drag`]).
//! Each system turns picks into its own commands (`crate::cache::picking`,
//! `crate::warpspawn::play`). Picks over a panel never reach the table:
//! egui blocks them.

use bevy::picking::events::{DragDrop, DragEnd, DragStart};
use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;
use sandtable_core::game::Spot;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(MeshPickingPlugin);
}

/// What was clicked on the table, for any system: the place as the
/// contract names it, and the button. Each system reads the clicks on its
/// own places (`crate::cache::picking`, `crate::warpspawn::play`).
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct TableClick {
    /// The place clicked: the square or hex of the tile, or of the piece
    /// clicked.
    pub spot: Spot,
    /// Whether a piece that the system tells from its place was clicked
    /// (Cache's miniatures), rather than the place.
    pub on_piece: bool,
    /// Left click acts, right click cancels.
    pub button: ClickButton,
    /// Where on the table top the click landed (world position), when the
    /// picking backend says; measuring uses it.
    pub point: Option<Vec3>,
}

/// Adds the table's clicks ([`TableClick`]) to an entity with a `C` that
/// says where it stands. A click on a piece (`on_piece`) is its own: it
/// goes no further up the entity's parents.
pub fn track_clicks<C: OnSpot>(entity: &mut EntityCommands, on_piece: bool) {
    entity.observe(
        move |mut click: On<Pointer<Click>>,
              spots: Query<&C>,
              mut out: MessageWriter<TableClick>| {
            if on_piece {
                click.propagate(false);
            }
            if let (Ok(at), Some(button)) = (spots.get(click.entity), click_button(click.button)) {
                out.write(TableClick {
                    spot: at.spot(),
                    on_piece,
                    button,
                    point: click.hit.position,
                });
            }
        },
    );
}

/// A drag on the table with the left button, for any system, in the
/// contract's places: what a system moves by dragging (a march, a piece in
/// layout mode, a brush's stroke) reads these.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drag {
    /// The button went down on a place, or a piece on it, and moved.
    Grab(Spot),
    /// The drag was let go on a place, or a piece on it, other than the
    /// one it began on.
    Drop(Spot),
    /// The drag ended, wherever it was let go (after any drop).
    Release,
}

/// Adds the table's drags ([`Drag`]) to an entity with a `C` that says
/// where it stands.
pub fn track_drags<C: OnSpot>(entity: &mut EntityCommands) {
    entity
        .observe(
            |start: On<Pointer<DragStart>>, spots: Query<&C>, mut out: MessageWriter<Drag>| {
                if start.button == PointerButton::Primary
                    && let Ok(at) = spots.get(start.entity)
                {
                    out.write(Drag::Grab(at.spot()));
                }
            },
        )
        .observe(
            |drop: On<Pointer<DragDrop>>, spots: Query<&C>, mut out: MessageWriter<Drag>| {
                if drop.button == PointerButton::Primary
                    && let Ok(at) = spots.get(drop.entity)
                {
                    out.write(Drag::Drop(at.spot()));
                }
            },
        )
        .observe(|end: On<Pointer<DragEnd>>, mut out: MessageWriter<Drag>| {
            if end.button == PointerButton::Primary {
                out.write(Drag::Release);
            }
        });
}

/// The place under the pointer, as the contract names places (a square, a
/// hex, a square of the off-board grid, a point in mm), if the pointer is
/// over a piece of the table.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Hovered(pub Option<Spot>);

/// A component of a table's pickable entities that says where it stands:
/// the square of a tile or a unit, the hex of a hex tile or a piece.
pub trait OnSpot: Component {
    /// The place, as the contract names places.
    fn spot(&self) -> Spot;
}

/// Adds the place under the pointer ([`Hovered`]) to an entity with a
/// `C` that says where it stands: the pointer coming over it sets it, the
/// pointer leaving clears it.
pub fn track_hover<C: OnSpot>(entity: &mut EntityCommands) {
    entity.observe(hover_spot::<C>).observe(leave_spot::<C>);
}

/// The pointer came over an entity with a `C`.
fn hover_spot<C: OnSpot>(over: On<Pointer<Over>>, spots: Query<&C>, mut hovered: ResMut<Hovered>) {
    if let Ok(at) = spots.get(over.entity) {
        hovered.set_if_neq(Hovered(Some(at.spot())));
    }
}

/// The pointer left an entity with a `C`: nothing is hovered, unless the
/// pointer came over another place first.
fn leave_spot<C: OnSpot>(out: On<Pointer<Out>>, spots: Query<&C>, mut hovered: ResMut<Hovered>) {
    if let Ok(at) = spots.get(out.entity)
        && hovered.0 == Some(at.spot())
    {
        hovered.0 = None;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::camera::NormalizedRenderTarget;
    use bevy::picking::backend::HitData;
    use bevy::picking::pointer::{Location, PointerId};

    /// A piece of a test table, standing on a spot.
    #[derive(Component)]
    struct At(Spot);

    impl OnSpot for At {
        fn spot(&self) -> Spot {
            self.0
        }
    }

    fn pointer<E: std::fmt::Debug + Clone + Reflect>(event: E, entity: Entity) -> Pointer<E> {
        let location = Location {
            target: NormalizedRenderTarget::None {
                width: 100,
                height: 100,
            },
            position: Vec2::ZERO,
        };
        Pointer::new(PointerId::Mouse, location, event, entity)
    }

    fn hit() -> HitData {
        HitData::new(Entity::PLACEHOLDER, 1.0, None, None)
    }

    #[test]
    fn a_click_on_a_place_or_a_piece_is_its_spot_and_a_piece_s_goes_no_further() {
        let mut app = App::new();
        app.add_message::<TableClick>();
        let (under, square) = (
            Spot::Square { col: 0, row: 0 },
            Spot::Square { col: 1, row: 5 },
        );
        // A piece on a place that also takes clicks: its parent here.
        let place = {
            let mut commands = app.world_mut().commands();
            let mut entity = commands.spawn(At(under));
            track_clicks::<At>(&mut entity, false);
            entity.id()
        };
        let piece = {
            let mut commands = app.world_mut().commands();
            let mut entity = commands.spawn((At(square), ChildOf(place)));
            track_clicks::<At>(&mut entity, true);
            entity.id()
        };
        app.world_mut().flush();
        let click = |button| Click {
            button,
            hit: hit(),
            duration: std::time::Duration::ZERO,
            count: 1,
        };
        app.world_mut()
            .trigger(pointer(click(PointerButton::Primary), piece));
        app.world_mut()
            .trigger(pointer(click(PointerButton::Secondary), place));
        app.world_mut()
            .trigger(pointer(click(PointerButton::Middle), place));
        let clicks: Vec<TableClick> = app
            .world_mut()
            .resource_mut::<Messages<TableClick>>()
            .drain()
            .collect();
        let seen: Vec<(Spot, bool, ClickButton)> = clicks
            .iter()
            .map(|c| (c.spot, c.on_piece, c.button))
            .collect();
        assert_eq!(
            seen,
            vec![
                (square, true, ClickButton::Primary),
                (under, false, ClickButton::Secondary),
            ],
            "the piece's click stops there; the middle button is the camera's"
        );
    }

    #[test]
    fn a_left_drag_is_grabbed_dropped_and_let_go_on_any_system_s_places() {
        let mut app = App::new();
        app.add_message::<Drag>();
        let (from, to) = (Spot::Hex { col: 1, row: 2 }, Spot::Hex { col: 3, row: 2 });
        let mut spawn = |spot: Spot| {
            let mut commands = app.world_mut().commands();
            let mut entity = commands.spawn(At(spot));
            track_drags::<At>(&mut entity);
            let id = entity.id();
            app.world_mut().flush();
            id
        };
        let (a, b) = (spawn(from), spawn(to));
        let start = |button| DragStart { button, hit: hit() };
        let drop = |button, dropped| DragDrop {
            button,
            dropped,
            hit: hit(),
        };
        let end = |button| DragEnd {
            button,
            distance: Vec2::ONE,
        };
        // A middle-button drag is the camera's.
        app.world_mut()
            .trigger(pointer(start(PointerButton::Middle), a));
        app.world_mut()
            .trigger(pointer(start(PointerButton::Primary), a));
        app.world_mut()
            .trigger(pointer(drop(PointerButton::Primary, a), b));
        app.world_mut()
            .trigger(pointer(end(PointerButton::Primary), a));
        app.world_mut()
            .trigger(pointer(end(PointerButton::Secondary), a));
        let drags: Vec<Drag> = app
            .world_mut()
            .resource_mut::<Messages<Drag>>()
            .drain()
            .collect();
        assert_eq!(drags, vec![Drag::Grab(from), Drag::Drop(to), Drag::Release]);
    }

    #[test]
    fn the_place_under_the_pointer_follows_any_system_s_pieces() {
        let mut app = App::new();
        app.init_resource::<Hovered>();
        let square = Spot::Square { col: 2, row: 3 };
        let hex = Spot::Hex { col: 4, row: 1 };
        let mut spawn = |spot: Spot| {
            let mut commands = app.world_mut().commands();
            let mut entity = commands.spawn(At(spot));
            track_hover::<At>(&mut entity);
            let id = entity.id();
            app.world_mut().flush();
            id
        };
        let (a, b) = (spawn(square), spawn(hex));
        let hovered = |app: &App| app.world().resource::<Hovered>().0;
        assert_eq!(hovered(&app), None);
        app.world_mut().trigger(pointer(Over { hit: hit() }, a));
        assert_eq!(hovered(&app), Some(square));
        // Over the next piece before the last one's Out: the new place
        // stays when the old one is left.
        app.world_mut().trigger(pointer(Over { hit: hit() }, b));
        app.world_mut().trigger(pointer(Out { hit: hit() }, a));
        assert_eq!(hovered(&app), Some(hex));
        app.world_mut().trigger(pointer(Out { hit: hit() }, b));
        assert_eq!(hovered(&app), None);
    }
}
