//! How the table looks: meshes and materials made in code for squares,
//! terrain, bases, miniatures and stashes, the lights, the highlights of
//! reachable squares and of the acting unit. Everything here only decorates
//! entities that `table` spawned; decoration is never pickable.

use bevy::prelude::*;

use std::collections::HashMap;

use sandtable_scenario::ModelTerrain;

use super::builtin::{DefaultLook, Paint, Shape, parts};
use super::models::{self, Pick};
use crate::cache::table::{
    Acted, ActionBudget, BasePiece, ChoiceTarget, CustomModel, GridPos, Reachable, SQUARE,
    SquareTile, StashToken, TableIndex, TerrainPiece, UnitPiece, square_center,
};
use crate::schedule::AppSystems;
use crate::table::models::{
    Figure, Models, NeedsFigure, Owner, SeatPaints, load_scenario_models, make_offending,
    make_seat_paints,
};
use crate::table::shaped;
use crate::table::{Offending, Selected, TableBuilt, TablePiece, TableShown};

/// The looks of the table's pieces, its lights and its marks; with the
/// models' plugin.
pub fn plugin(app: &mut App) {
    app.add_plugins(models::plugin)
        .add_systems(Startup, (make_looks.after(make_offending), light_the_table))
        .add_systems(
            Update,
            (
                (lay_table_slab, make_player_looks.after(make_seat_paints)),
                (dress_squares, need_figures, dress_bases, dress_units),
            )
                .chain()
                .before(load_scenario_models)
                .after(AppSystems::SyncTable)
                .before(AppSystems::Animate),
        )
        .add_systems(
            Update,
            (
                place_figures,
                (
                    highlight_reachable_squares,
                    light_choice_squares,
                    ring_acting_unit,
                    ring_acted_units,
                    follow_hover,
                    mark_selection,
                    show_hint,
                ),
            )
                .chain()
                .after(crate::table::models::watch_model_loads)
                .before(AppSystems::Animate),
        );
}

/// Meshes and materials shared by all pieces.
#[derive(Resource)]
pub struct Looks {
    shapes: HashMap<Shape, Handle<Mesh>>,
    paints: HashMap<Paint, Handle<StandardMaterial>>,
    tile: Handle<Mesh>,
    overlay: Handle<Mesh>,
    ring: Handle<Mesh>,
    target_outer: Handle<Mesh>,
    target_inner: Handle<Mesh>,
    target: Handle<StandardMaterial>,
    choice: Handle<StandardMaterial>,
    arrow: Handle<Mesh>,
    spent: Handle<StandardMaterial>,
    light_square: Handle<StandardMaterial>,
    dark_square: Handle<StandardMaterial>,
    white: Handle<StandardMaterial>,
    gold: Handle<StandardMaterial>,
    table: Handle<StandardMaterial>,
    tray: Handle<StandardMaterial>,
    reach: [Handle<StandardMaterial>; 3],
    hover: Handle<StandardMaterial>,
    offending: Handle<StandardMaterial>,
    selection: Handle<StandardMaterial>,
}

/// Each player's looks, in turn order: its colour, a darker shade, and the
/// shape its bases and miniatures stand on.
#[derive(Resource, Default)]
pub struct PlayerLooks(pub Vec<PlayerLook>);

/// One player's looks.
pub struct PlayerLook {
    colour: Handle<StandardMaterial>,
    dark: Handle<StandardMaterial>,
    plinth: Handle<Mesh>,
    disc: Handle<Mesh>,
}

impl PlayerLook {
    /// The player's colour.
    pub fn colour_material(&self) -> Handle<StandardMaterial> {
        self.colour.clone()
    }
}

/// A highlight tile over a reachable square.
#[derive(Component)]
pub struct ReachMark;

/// The light over the square under the pointer.
#[derive(Component)]
pub struct HoverMark;

/// The glow on a square or round a unit that a stash choice accepts.
#[derive(Component)]
pub struct ChoiceMark;

/// The ring round a unit that has acted this turn.
#[derive(Component)]
pub struct ActedMark;

/// The ring under the acting unit.
#[derive(Component)]
pub struct ActingRing;

/// The gold light on the square a hint points at.
#[derive(Component)]
pub struct HintMark;

/// The glow on the squares of the piece selected in the layout editor.
#[derive(Component)]
pub struct SelectionMark;

fn matte(materials: &mut Assets<StandardMaterial>, color: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: color,
        perceptual_roughness: 0.85,
        ..default()
    })
}

fn glow(materials: &mut Assets<StandardMaterial>, color: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: color.with_alpha(0.55),
        emissive: color.to_linear() * 0.6,
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        ..default()
    })
}

fn make_looks(
    mut commands: Commands,
    seat_paints: Res<SeatPaints>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let s = SQUARE;
    let paints: HashMap<Paint, Handle<StandardMaterial>> = Paint::ALL
        .into_iter()
        .map(|p| (p, materials.add(p.material())))
        .collect();
    let looks = Looks {
        shapes: Shape::ALL
            .into_iter()
            .map(|shape| (shape, meshes.add(shape.mesh())))
            .collect(),
        white: paints[&Paint::White].clone(),
        gold: paints[&Paint::Gold].clone(),
        tray: paints[&Paint::Door].clone(),
        paints,
        tile: meshes.add(Cuboid::new(0.96 * s, 0.05, 0.96 * s)),
        overlay: meshes.add(Cuboid::new(0.9 * s, 0.01, 0.9 * s)),
        ring: meshes.add(Torus::new(0.36 * s, 0.44 * s)),
        target_outer: meshes.add(Torus::new(0.40 * s, 0.47 * s)),
        target_inner: meshes.add(Torus::new(0.20 * s, 0.26 * s)),
        // Okabe-Ito vermillion: told from the green, yellow and orange of
        // plain moves by its shape too.
        target: glow(&mut materials, Color::srgb_u8(0xD5, 0x5E, 0x00)),
        // Okabe-Ito sky blue: what a stash choice accepts.
        choice: glow(&mut materials, Color::srgb_u8(0x56, 0xB4, 0xE9)),
        // A flat triangle in the XY plane, thickened along Z; laid on the
        // base it points to -Z, the miniature's front.
        arrow: meshes.add(Extrusion::new(
            Triangle2d::new(
                Vec2::new(0.0, 0.17),
                Vec2::new(-0.15, -0.07),
                Vec2::new(0.15, -0.07),
            ),
            0.04,
        )),
        spent: matte(&mut materials, Color::srgb(0.35, 0.35, 0.35)),
        light_square: matte(&mut materials, Color::srgb(0.62, 0.70, 0.45)),
        dark_square: matte(&mut materials, Color::srgb(0.52, 0.61, 0.38)),
        table: matte(&mut materials, Color::srgb(0.36, 0.25, 0.16)),
        reach: [
            glow(&mut materials, Color::srgb(0.3, 0.9, 0.4)),
            glow(&mut materials, Color::srgb(0.95, 0.85, 0.2)),
            glow(&mut materials, Color::srgb(0.95, 0.45, 0.15)),
        ],
        hover: glow(&mut materials, Color::srgb(0.9, 0.95, 1.0)),
        offending: seat_paints.offending.clone(),
        selection: glow(&mut materials, Color::srgb(1.0, 0.85, 0.2)),
    };
    commands.spawn((
        part(&looks.overlay, &looks.hover, Transform::default()),
        HoverMark,
        Pickable::IGNORE,
        Visibility::Hidden,
    ));
    commands.spawn((
        part(&looks.overlay, &looks.selection, Transform::default()),
        HintMark,
        Pickable::IGNORE,
        Visibility::Hidden,
    ));
    commands.insert_resource(looks);
    commands.init_resource::<PlayerLooks>();
}

fn light_the_table(mut commands: Commands) {
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(-8.0, 20.0, 10.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        color: Color::WHITE,
        brightness: 600.0,
        ..default()
    });
    commands.insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.20)));
}

fn lay_table_slab(
    mut commands: Commands,
    mut built: MessageReader<TableBuilt>,
    shown: Res<TableShown>,
    looks: Res<Looks>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    if built.read().count() == 0 {
        return;
    }
    let Some(b) = crate::cache::table::board_shown(&shown) else {
        return;
    };
    // The real table: the scenario's `physical` field, or the one assumed
    // for its board; in squares.
    let p = crate::cache::table::shown_physical(&shown);
    let (w, d) = (
        (p.table_mm.0 / p.square_mm) as f32,
        (p.table_mm.1 / p.square_mm) as f32,
    );
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(w * SQUARE, 0.2, d * SQUARE))),
        MeshMaterial3d(looks.table.clone()),
        Transform::from_xyz(0.0, -0.1, 0.0),
        Pickable::IGNORE,
        TablePiece,
    ));
    // Each player's custody tray beside the table.
    let tray = meshes.add(Cuboid::new(1.0 * SQUARE, 0.1, 8.2 * SQUARE));
    for p in 0..shown.colours.len() {
        let first = crate::cache::table::custody_slot(b, sandtable_cache::PlayerId(p as u16), 0);
        let last = crate::cache::table::custody_slot(b, sandtable_cache::PlayerId(p as u16), 9);
        commands.spawn((
            Mesh3d(tray.clone()),
            MeshMaterial3d(looks.tray.clone()),
            Transform::from_translation((first + last) / 2.0 - Vec3::Y * 0.05),
            Pickable::IGNORE,
            TablePiece,
        ));
    }
}

fn make_player_looks(
    mut built: MessageReader<TableBuilt>,
    paints: Res<SeatPaints>,
    mut players: ResMut<PlayerLooks>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    if built.read().count() == 0 {
        return;
    }
    // Each player's colours are the seat's paints, which the figures'
    // `player` materials take too.
    players.0 = paints
        .seats
        .iter()
        .enumerate()
        .map(|(p, paint)| {
            let sides = crate::cache::table::player_shape(sandtable_cache::PlayerId(p as u16));
            PlayerLook {
                colour: paint.colour.clone(),
                dark: paint.dark.clone(),
                plinth: meshes.add(shaped(sides, 0.38 * SQUARE, 0.14)),
                disc: meshes.add(shaped(sides, 0.34 * SQUARE, 0.06)),
            }
        })
        .collect();
}

fn part(
    mesh: &Handle<Mesh>,
    material: &Handle<StandardMaterial>,
    at: Transform,
) -> (Mesh3d, MeshMaterial3d<StandardMaterial>, Transform) {
    (Mesh3d(mesh.clone()), MeshMaterial3d(material.clone()), at)
}

fn dress_squares(
    mut commands: Commands,
    looks: Res<Looks>,
    squares: Query<(Entity, &GridPos), Added<SquareTile>>,
) {
    for (e, pos) in &squares {
        let dark = (pos.0.col + pos.0.row) % 2 == 0;
        let material = if dark {
            &looks.dark_square
        } else {
            &looks.light_square
        };
        let mut tile = commands.entity(e);
        tile.insert((Mesh3d(looks.tile.clone()), MeshMaterial3d(material.clone())));
        crate::picking::track_hover::<GridPos>(&mut tile);
    }
}

/// Every new unit, base, stash and terrain piece gets its figure (or, for
/// terrain, one a square) in `place_figures`.
fn need_figures(
    mut commands: Commands,
    pieces: Query<
        Entity,
        Or<(
            Added<UnitPiece>,
            Added<BasePiece>,
            Added<StashToken>,
            Added<TerrainPiece>,
        )>,
    >,
) {
    for e in &pieces {
        commands.entity(e).insert(NeedsFigure);
    }
}

/// A base gets its plinth, in its player's shape; its figure (pole and
/// flag) comes in `place_figures`.
fn dress_bases(
    mut commands: Commands,
    looks: Res<Looks>,
    players: Res<PlayerLooks>,
    bases: Query<(Entity, &Owner, Has<Offending>), Added<BasePiece>>,
) {
    for (e, owner, offending) in &bases {
        let Some(look) = players.0.get(usize::from(owner.0)) else {
            continue;
        };
        let dark = if offending {
            &looks.offending
        } else {
            &look.dark
        };
        commands.entity(e).with_child(part(
            &look.plinth,
            dark,
            Transform::from_xyz(0.0, 0.07, 0.0),
        ));
    }
}

/// A unit gets its base, in its player's shape, and its facing arrow; its
/// figure comes in `place_figures`.
fn dress_units(
    mut commands: Commands,
    looks: Res<Looks>,
    players: Res<PlayerLooks>,
    units: Query<(Entity, &Owner, Has<Offending>), Added<UnitPiece>>,
) {
    for (e, owner, offending) in &units {
        let Some(look) = players.0.get(usize::from(owner.0)) else {
            continue;
        };
        let dark = if offending {
            &looks.offending
        } else {
            &look.dark
        };
        // The front is -Z: the white wedge on the base points the way the
        // miniature faces, and reaches past the base to be read from afar.
        commands.entity(e).with_children(|p| {
            p.spawn(part(&look.disc, dark, Transform::from_xyz(0.0, 0.03, 0.0)));
            p.spawn(part(
                &looks.arrow,
                &looks.white,
                Transform::from_xyz(0.0, 0.07, -0.27)
                    .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            ));
        });
    }
}

/// Gives each piece that needs one its figure: the scenario's model, the
/// default look's file, or the built-in parts (see `models::pick`).
fn place_figures(
    mut commands: Commands,
    looks: Res<Looks>,
    players: Res<PlayerLooks>,
    models: Res<Models>,
    shown: Res<TableShown>,
    index: Res<TableIndex>,
    pieces: Query<
        (
            Entity,
            (
                Option<&UnitPiece>,
                Option<&BasePiece>,
                Option<&StashToken>,
                Option<&TerrainPiece>,
            ),
            Option<&CustomModel>,
            Option<&Owner>,
            Has<Offending>,
        ),
        With<NeedsFigure>,
    >,
) {
    for (e, (unit, base, stash, terrain), custom, owner, offending) in &pieces {
        let mut piece = commands.entity(e);
        piece.remove::<NeedsFigure>();
        let player = owner.and_then(|o| players.0.get(usize::from(o.0)));
        let builtin = |parent: &mut ChildSpawnerCommands, look: DefaultLook, at: Transform| {
            parent
                .spawn((
                    at,
                    Visibility::default(),
                    Figure {
                        model: None,
                        scale: SQUARE,
                    },
                    Pickable::IGNORE,
                ))
                .with_children(|figure| {
                    for p in parts(look) {
                        let material = match p.paint {
                            _ if offending => &looks.offending,
                            Paint::Player => player.map_or(&looks.paints[&p.paint], |l| &l.colour),
                            other => &looks.paints[&other],
                        };
                        let mut spawned =
                            figure.spawn(part(&looks.shapes[&p.shape], material, p.at));
                        // Units and bases are clicked on their figures; the
                        // rest lets clicks through to the square.
                        if matches!(look, DefaultLook::Stash | DefaultLook::Terrain(_)) {
                            spawned.insert(Pickable::IGNORE);
                        }
                    }
                });
        };
        // Where figures stand, with the scenario's entry and the default
        // look for each: one a square of ground for terrain, else one.
        let spots: Vec<(Option<usize>, DefaultLook, Transform)> = match terrain {
            Some(terrain) => {
                let Some(board) = index.board else {
                    continue;
                };
                terrain
                    .squares
                    .iter()
                    .filter_map(|&(sq, ground)| {
                        let kind = ModelTerrain::of(ground)?;
                        Some((
                            models::terrain_model(&shown, kind),
                            DefaultLook::Terrain(kind),
                            models::terrain_spot(board, terrain, sq, ground),
                        ))
                    })
                    .collect()
            }
            None => models::default_look(unit, base, stash)
                .map(|look| (custom.map(|c| c.0), look, Transform::IDENTITY))
                .into_iter()
                .collect(),
        };
        piece.with_children(|parent| {
            for (custom, look, at) in spots {
                match models::pick(&models, &shown, custom, look) {
                    Pick::Model(handle, scale) => {
                        parent.spawn(models::model_figure(handle, scale, at));
                    }
                    Pick::Builtin(look) => builtin(parent, look, at),
                }
            }
        });
    }
}

/// Despawns the marks (children carrying `M`) of the entities in `parents`.
fn clear_marks<M: Component>(
    commands: &mut Commands,
    parents: impl IntoIterator<Item = Entity>,
    marks: &Query<(Entity, &ChildOf), With<M>>,
) {
    let parents: std::collections::HashSet<Entity> = parents.into_iter().collect();
    if parents.is_empty() {
        return;
    }
    for (mark, parent) in marks {
        if parents.contains(&parent.parent()) {
            commands.entity(mark).despawn();
        }
    }
}

/// Reachable squares glow by cost: green for 1, yellow for 2 or 3, orange
/// above; a square where the advance captures gets a target of two rings
/// instead, standing clear of the figure on it.
fn highlight_reachable_squares(
    mut commands: Commands,
    looks: Res<Looks>,
    changed: Query<(Entity, &Reachable), Changed<Reachable>>,
    mut removed: RemovedComponents<Reachable>,
    marks: Query<(Entity, &ChildOf), With<ReachMark>>,
) {
    let parents = removed.read().chain(changed.iter().map(|(e, _)| e));
    clear_marks(&mut commands, parents, &marks);
    for (e, reach) in &changed {
        if reach.capture.is_some() {
            commands.entity(e).with_children(|p| {
                for (mesh, height) in [(&looks.target_outer, 0.12), (&looks.target_inner, 0.14)] {
                    p.spawn((
                        part(mesh, &looks.target, Transform::from_xyz(0.0, height, 0.0)),
                        ReachMark,
                        Pickable::IGNORE,
                    ));
                }
            });
            continue;
        }
        let material = match reach.cost {
            0 | 1 => &looks.reach[0],
            2 | 3 => &looks.reach[1],
            _ => &looks.reach[2],
        };
        commands.entity(e).with_children(|p| {
            p.spawn((
                part(&looks.overlay, material, Transform::from_xyz(0.0, 0.1, 0.0)),
                ReachMark,
                Pickable::IGNORE,
            ));
        });
    }
}

/// What a stash choice accepts glows sky blue: a square to put a unit on,
/// or a ring round a unit to pick.
fn light_choice_squares(
    mut commands: Commands,
    looks: Res<Looks>,
    changed: Query<(Entity, &ChoiceTarget), Changed<ChoiceTarget>>,
    mut removed: RemovedComponents<ChoiceTarget>,
    marks: Query<(Entity, &ChildOf), With<ChoiceMark>>,
) {
    let parents = removed.read().chain(changed.iter().map(|(e, _)| e));
    clear_marks(&mut commands, parents, &marks);
    for (e, target) in &changed {
        let (mesh, height) = match target {
            ChoiceTarget::Place => (&looks.overlay, 0.1),
            ChoiceTarget::Pick => (&looks.target_outer, 0.12),
        };
        commands.entity(e).with_child((
            part(mesh, &looks.choice, Transform::from_xyz(0.0, height, 0.0)),
            ChoiceMark,
            Pickable::IGNORE,
        ));
    }
}

/// A gold ring under the unit that is acting.
fn ring_acting_unit(
    mut commands: Commands,
    looks: Res<Looks>,
    added: Query<Entity, Added<ActionBudget>>,
    mut removed: RemovedComponents<ActionBudget>,
    rings: Query<(Entity, &ChildOf), With<ActingRing>>,
) {
    clear_marks(&mut commands, removed.read(), &rings);
    for e in &added {
        commands.entity(e).with_children(|p| {
            p.spawn((
                part(
                    &looks.ring,
                    &looks.gold,
                    Transform::from_xyz(0.0, 0.04, 0.0),
                ),
                ActingRing,
                Pickable::IGNORE,
            ));
        });
    }
}

/// A grey ring round each unit that has acted this turn (R6).
fn ring_acted_units(
    mut commands: Commands,
    looks: Res<Looks>,
    added: Query<Entity, Added<Acted>>,
    mut removed: RemovedComponents<Acted>,
    rings: Query<(Entity, &ChildOf), With<ActedMark>>,
) {
    clear_marks(&mut commands, removed.read(), &rings);
    for e in &added {
        commands.entity(e).with_child((
            part(
                &looks.ring,
                &looks.spent,
                Transform::from_xyz(0.0, 0.04, 0.0),
            ),
            ActedMark,
            Pickable::IGNORE,
        ));
    }
}

/// A pale light follows the square under the pointer.
fn follow_hover(
    hovered: Res<crate::picking::Hovered>,
    index: Res<TableIndex>,
    mut mark: Query<(&mut Transform, &mut Visibility), With<HoverMark>>,
) {
    if !hovered.is_changed() {
        return;
    }
    let Some(board) = index.board else {
        return;
    };
    let Ok((mut transform, mut visibility)) = mark.single_mut() else {
        return;
    };
    match crate::cache::picking::hovered_square(&hovered) {
        Some(sq) if board.contains(sq) => {
            transform.translation = square_center(board, sq) + Vec3::Y * 0.09;
            *visibility = Visibility::Inherited;
        }
        _ => *visibility = Visibility::Hidden,
    }
}

/// A yellow glow under every square of the piece selected in the layout editor.
fn mark_selection(
    mut commands: Commands,
    looks: Res<Looks>,
    index: Res<TableIndex>,
    added: Query<(Entity, Option<&GridPos>, Option<&TerrainPiece>), Added<Selected>>,
    mut removed: RemovedComponents<Selected>,
    marks: Query<(Entity, &ChildOf), With<SelectionMark>>,
) {
    clear_marks(&mut commands, removed.read(), &marks);
    let Some(board) = index.board else {
        return;
    };
    for (e, pos, terrain) in &added {
        let mut glow = |at: Transform| {
            commands.entity(e).with_child((
                part(&looks.overlay, &looks.selection, at),
                SelectionMark,
                Pickable::IGNORE,
            ));
        };
        match (pos, terrain) {
            // Pieces on one square: the mark sits under the piece itself.
            (Some(_), _) => glow(Transform::from_xyz(0.0, 0.1, 0.0)),
            // Terrain pieces stand at the origin with their squares' looks as children.
            (None, Some(t)) => {
                for (sq, _) in &t.squares {
                    glow(Transform::from_translation(
                        square_center(board, *sq) + Vec3::Y * 0.12,
                    ));
                }
            }
            (None, None) => {}
        }
    }
}

/// The square of the hint for the position on the table lights up in gold.
fn show_hint(
    hint: Res<crate::cache::bots::Hint>,
    active: Option<Res<crate::cache::play::ActiveGame>>,
    mode: Res<State<crate::mode::Mode>>,
    mut mark: Query<(&mut Transform, &mut Visibility), With<HintMark>>,
) {
    let Ok((mut transform, mut visibility)) = mark.single_mut() else {
        return;
    };
    let square = active
        .as_deref()
        .filter(|_| *mode.get() == crate::mode::Mode::Play)
        .and_then(|a| {
            let command = hint.for_game(a)?;
            crate::cache::bots::hint_square(command, &a.game).map(|sq| (a.game.board(), sq))
        });
    let wanted = match square {
        Some((board, sq)) => {
            let at = square_center(board, sq) + Vec3::Y * 0.11;
            if transform.translation != at {
                transform.translation = at;
            }
            Visibility::Inherited
        }
        None => Visibility::Hidden,
    };
    if *visibility != wanted {
        *visibility = wanted;
    }
}
