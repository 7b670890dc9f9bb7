//! Cache's table: an entity for every square, unit, base, terrain piece and
//! stash, with components that mirror the rules state. They are spawned when
//! a game is loaded and follow the game after every change; the rules state
//! itself is only read here. Meshes and materials are left to `looks`.

use bevy::prelude::*;
use sandtable_cache::CacheLegal;
use sandtable_cache::{
    Board, CaptureSide, Event, Facing, FactorId, Game, Ground, Place, PlayerId, Square, UnitId,
};
use sandtable_core::game::Surface;
use sandtable_scenario::{Physical, PieceOf, models::model_for};

use crate::cache::play::{ActiveGame, PlayEvent};
use crate::mode::{Mode, mode_change_pending};
use crate::picking::{track_clicks, track_drags, track_hover};
use crate::schedule::AppSystems;
use crate::session::GameLoaded;
use crate::table::models::{Owner, PickedByFigure};
use crate::table::{TableBuilt, TablePiece, TableRebuild, TableShown, scenario_folder};

/// Size of a square in world units (one unit is one square, 30 mm on Table A).
pub const SQUARE: f32 = 1.0;

/// The sides of the shape each player's bases and miniatures stand on, in
/// turn order (0: round): a cue besides colour, so that players are told
/// apart by people who cannot tell their colours apart.
pub const PLAYER_SHAPES: [u32; 6] = [0, 4, 3, 6, 5, 8];

/// The shape a player's pieces stand on (see [`PLAYER_SHAPES`]).
pub fn player_shape(player: PlayerId) -> u32 {
    PLAYER_SHAPES[usize::from(player.0) % PLAYER_SHAPES.len()]
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableIndex>()
        .init_resource::<SyncedRevision>()
        .add_systems(
            Update,
            // While the layout is edited the table shows the layout, not the
            // game; a table about to change mode waits for the change.
            (
                spawn_table.run_if(not(mode_change_pending)),
                sync_units,
                sync_bases_and_stashes,
                show_action_budget,
                label_reachable_squares,
                light_choice_targets,
                mark_acted_units,
                note_synced_revision,
            )
                .chain()
                .in_set(AppSystems::SyncTable)
                .run_if(in_state(Mode::Play)),
        )
        .add_systems(
            Update,
            (float_capture_bonuses, fade_floating_texts)
                .chain()
                .in_set(AppSystems::Animate),
        );
}

/// A square of the board.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareTile;

/// The square an entity stands on.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridPos(pub Square);

/// A unit's miniature, clicked on its figure.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[require(PickedByFigure)]
pub struct UnitPiece(pub UnitId);

/// The way a unit faces.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FacingDir(pub Facing);

/// A unit captured into a player's custody tray (R10).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct InCustody(pub PlayerId);

/// A unit out of the game (R10).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfGame;

/// A Factor's base, clicked on its figure.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[require(PickedByFigure)]
pub struct BasePiece(pub FactorId);

/// A terrain piece as the scenario laid it; its squares' looks are children.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct TerrainPiece {
    /// Index in the scenario's terrain list.
    pub index: usize,
    /// Ground of each square it covers, as the rules crate laid it.
    pub squares: Vec<(Square, Ground)>,
}

/// A stash token (The Snyder Skirmish).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StashToken(pub Square);

/// The budget of the unit acting now (R7): given, earned and spent actions.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionBudget {
    /// Actions given at activation.
    pub given: u16,
    /// Actions earned by captures and stashes.
    pub earned: u16,
    /// Actions spent.
    pub spent: u16,
}

/// A square the acting unit can reach, with the cost of getting there and
/// what it would capture there.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reachable {
    /// Actions the advance costs.
    pub cost: u16,
    /// The capture the advance makes, if it ends on an unfriendly piece.
    pub capture: Option<CaptureMark>,
}

/// A unit of the player to move that has acted this turn (R6).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acted;

/// A square the awaited stash choice accepts (R22): a unit to pick, or a
/// square to put a unit on.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChoiceTarget {
    /// `pick`: the unit on this square.
    Pick,
    /// `place`: this square, with a facing.
    Place,
}

/// What an advance would capture (R9, R10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureMark {
    /// An unfriendly unit, from a side, earning its bonus.
    Unit(CaptureSide),
    /// An unfriendly Base: it earns nothing, and its Factor leaves the game.
    Base,
}

impl CaptureMark {
    /// What the capture earns, in words for the table: "+3 behind".
    pub fn label(self) -> String {
        match self {
            CaptureMark::Unit(side) => {
                let word = match side {
                    CaptureSide::Front => "front",
                    CaptureSide::Side => "side",
                    CaptureSide::Behind => "behind",
                };
                format!("+{} {word}", side.bonus().0)
            }
            CaptureMark::Base => "base".to_owned(),
        }
    }
}

/// A label that rises and fades above the table ("+3 from behind").
#[derive(Component, Debug, Clone)]
pub struct FloatingText {
    /// What it says.
    pub text: String,
    /// Seconds left to live.
    pub left: f32,
}

/// Entities by square, unit, base and stash index.
#[derive(Resource, Debug, Default, Clone)]
pub struct TableIndex {
    /// Square tiles, row-major as `Board::index`.
    pub squares: Vec<Entity>,
    /// Unit entities by `UnitId`.
    pub units: Vec<Entity>,
    /// Base entities by `FactorId`.
    pub bases: Vec<Entity>,
    /// Stash entities, in setup order.
    pub stashes: Vec<Entity>,
    /// Terrain piece entities.
    pub terrain: Vec<Entity>,
    /// The board the index was built for.
    pub board: Option<Board>,
}

/// The scenario's model entry (an index in [`TableShown::models`]) that
/// draws this unit, base or stash; pieces without one have their default look.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CustomModel(pub usize);

/// The game revision the table last followed.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SyncedRevision(pub Option<u64>);

/// World position of a square's centre on the table top.
pub fn square_center(board: Board, sq: Square) -> Vec3 {
    Vec3::new(
        (f32::from(sq.col) + 0.5 - f32::from(board.columns) / 2.0) * SQUARE,
        0.0,
        -(f32::from(sq.row) + 0.5 - f32::from(board.rows) / 2.0) * SQUARE,
    )
}

/// Rotation of a miniature facing `facing`: north is away from the near edge (-Z).
pub fn facing_rotation(facing: Facing) -> Quat {
    let angle = match facing {
        Facing::N => 0.0,
        Facing::E => -std::f32::consts::FRAC_PI_2,
        Facing::S => std::f32::consts::PI,
        Facing::W => std::f32::consts::FRAC_PI_2,
    };
    Quat::from_rotation_y(angle)
}

/// Where the `slot`th captured unit of `holder`'s tray stands: trays line the
/// table's left and right edges, one column of ten slots per player.
pub fn custody_slot(board: Board, holder: PlayerId, slot: usize) -> Vec3 {
    let side = if holder.0.is_multiple_of(2) {
        -1.0
    } else {
        1.0
    };
    let lane = f32::from(holder.0 / 2);
    let x = side * (f32::from(board.columns) / 2.0 + 1.5 + lane * 1.2 + (slot / 10) as f32 * 0.8);
    let z = -(f32::from(board.rows) / 2.0) + 0.6 + (slot % 10) as f32 * 0.8;
    Vec3::new(x * SQUARE, 0.0, z * SQUARE)
}

/// What a table is built from: the pieces of a game, or of a layout being
/// edited, in the order of the rules crate's ids.
#[derive(Debug, Clone, PartialEq)]
pub struct Contents {
    /// The board.
    pub board: Board,
    /// Each terrain piece's squares with their ground.
    pub terrain: Vec<Vec<(Square, Ground)>>,
    /// Each Factor's base: its player and square.
    pub bases: Vec<(PlayerId, Square)>,
    /// Each unit: its player, and its square and facing while on the board.
    pub units: Vec<(PlayerId, Option<(Square, Facing)>)>,
    /// Each stash's square.
    pub stashes: Vec<Square>,
}

impl Contents {
    /// The pieces of a game as it stands.
    pub fn of_game(game: &Game) -> Contents {
        Contents {
            board: game.board(),
            terrain: game
                .terrain_pieces()
                .iter()
                .map(|piece| {
                    piece
                        .squares
                        .iter()
                        .map(|sq| (*sq, game.ground(*sq)))
                        .collect()
                })
                .collect(),
            bases: game.factors().iter().map(|f| (f.player, f.base)).collect(),
            units: game
                .units()
                .iter()
                .enumerate()
                .map(|(i, unit)| (unit.player, game.position(UnitId(i as u16))))
                .collect(),
            stashes: game.stashes().collect(),
        }
    }
}

/// What building a table needs: the old table to take away, the index and
/// the description to fill in.
#[derive(bevy::ecs::system::SystemParam)]
pub struct TableBuilder<'w, 's> {
    /// Spawns and despawns.
    pub commands: Commands<'w, 's>,
    old: Query<'w, 's, Entity, With<TablePiece>>,
    index: ResMut<'w, TableIndex>,
    shown: ResMut<'w, TableShown>,
    synced: ResMut<'w, SyncedRevision>,
    built: MessageWriter<'w, TableBuilt>,
}

impl TableBuilder<'_, '_> {
    /// Builds the table anew from `contents`: one entity per square, unit,
    /// base, terrain piece and stash, with the scenario's own models (looked
    /// for beside `scenario_file`). `reframe` asks the camera to frame the
    /// board again, as it does anyway when the board's size changed. Returns
    /// the new index, whose entities the caller may mark in the same frame.
    pub fn build(
        &mut self,
        contents: &Contents,
        scenario: &sandtable_scenario::Scenario,
        scenario_file: Option<&std::path::Path>,
        reframe: bool,
    ) -> &TableIndex {
        let commands = &mut self.commands;
        for e in &self.old {
            commands.entity(e).despawn();
        }
        let board = contents.board;
        self.built.write(TableBuilt {
            reframe: reframe || board_shown(&self.shown) != Some(board),
        });
        let names: Vec<&str> = scenario
            .setup
            .players
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        let table = scenario
            .physical
            .unwrap_or_else(|| Physical::assumed(board));
        *self.shown = TableShown {
            surface: Some(Surface::Squares {
                columns: board.columns,
                rows: board.rows,
            }),
            extent: Some(Vec2::new(
                f32::from(board.columns).max((table.table_mm.0 / table.square_mm) as f32),
                f32::from(board.rows).max((table.table_mm.1 / table.square_mm) as f32),
            )),
            physical: scenario.physical,
            colours: scenario.colours.clone(),
            models: scenario.models.clone(),
            folder: scenario_file.and_then(scenario_folder),
        };
        // Each unit's player, Factor and name, in the order of unit ids.
        let unit_keys: Vec<PieceOf<'_>> = scenario
            .setup
            .players
            .iter()
            .enumerate()
            .flat_map(|(player, p)| {
                p.factors.iter().enumerate().flat_map(move |(factor, f)| {
                    f.units.iter().map(move |u| PieceOf::Unit {
                        player,
                        factor,
                        name: u.name.as_deref(),
                    })
                })
            })
            .collect();
        let custom =
            |piece: PieceOf<'_>| model_for(&scenario.models, piece, &names).map(CustomModel);
        let index = &mut *self.index;
        *index = TableIndex {
            board: Some(board),
            ..default()
        };
        for sq in board.squares() {
            let mut e = commands.spawn((
                SquareTile,
                GridPos(sq),
                TablePiece,
                Transform::from_translation(square_center(board, sq)),
                Visibility::default(),
            ));
            track_clicks::<GridPos>(&mut e, false);
            track_drags::<GridPos>(&mut e);
            index.squares.push(e.id());
        }
        for (i, squares) in contents.terrain.iter().enumerate() {
            let e = commands.spawn((
                TerrainPiece {
                    index: i,
                    squares: squares.clone(),
                },
                TablePiece,
                Transform::default(),
                Visibility::default(),
            ));
            index.terrain.push(e.id());
        }
        for (i, &(owner, at)) in contents.bases.iter().enumerate() {
            let mut e = commands.spawn((
                BasePiece(FactorId(i as u16)),
                Owner(owner.0),
                GridPos(at),
                TablePiece,
                Transform::from_translation(square_center(board, at)),
                Visibility::default(),
            ));
            track_clicks::<GridPos>(&mut e, false);
            track_hover::<GridPos>(&mut e);
            track_drags::<GridPos>(&mut e);
            if let Some(model) = custom(PieceOf::Base {
                player: usize::from(owner.0),
            }) {
                e.insert(model);
            }
            index.bases.push(e.id());
        }
        for (i, &(owner, place)) in contents.units.iter().enumerate() {
            let id = UnitId(i as u16);
            let (square, facing) = place.unwrap_or((Square::new(0, 0), Facing::N));
            let mut e = commands.spawn((
                UnitPiece(id),
                Owner(owner.0),
                GridPos(square),
                FacingDir(facing),
                TablePiece,
                Transform::from_translation(square_center(board, square))
                    .with_rotation(facing_rotation(facing)),
                Visibility::default(),
            ));
            track_clicks::<GridPos>(&mut e, true);
            track_hover::<GridPos>(&mut e);
            track_drags::<GridPos>(&mut e);
            if let Some(model) = unit_keys.get(i).copied().and_then(custom) {
                e.insert(model);
            }
            index.units.push(e.id());
        }
        for &sq in &contents.stashes {
            let mut e = commands.spawn((
                StashToken(sq),
                GridPos(sq),
                TablePiece,
                Transform::from_translation(square_center(board, sq)),
                Visibility::default(),
            ));
            if let Some(model) = custom(PieceOf::Stash) {
                e.insert(model);
            }
            index.stashes.push(e.id());
        }
        // Force a full sync of the new table.
        self.synced.0 = None;
        index
    }
}

/// Builds the table of the game in play anew when a game is loaded or the
/// table must be built again (back from layout mode, for one).
pub fn spawn_table(
    mut loaded: MessageReader<GameLoaded>,
    mut rebuild: MessageReader<TableRebuild>,
    active: Option<Res<ActiveGame>>,
    mut builder: TableBuilder,
) {
    let game_loaded = loaded.read().count() > 0;
    if !game_loaded && rebuild.read().count() == 0 {
        return;
    }
    let Some(active) = active else {
        return;
    };
    // Models are looked for beside the file the game was started from.
    let file = match &active.source {
        crate::session::ScenarioSource::File(path) => Some(path.as_path()),
        _ => None,
    };
    builder.build(
        &Contents::of_game(&active.game),
        &active.setup,
        file,
        game_loaded,
    );
}

/// The board of squares the table shows, if it shows one.
pub fn board_shown(shown: &TableShown) -> Option<Board> {
    match shown.surface {
        Some(Surface::Squares { columns, rows }) => Some(Board { columns, rows }),
        _ => None,
    }
}

/// The table shown now (the layout's while editing, else the game's), or
/// the one assumed for its board when the scenario gives none.
pub fn shown_physical(shown: &TableShown) -> Physical {
    match (shown.physical, board_shown(shown)) {
        (Some(p), _) => p,
        (None, Some(board)) => Physical::assumed(board),
        (None, None) => Physical::TABLE_A,
    }
}

fn changed(active: &ActiveGame, synced: &SyncedRevision) -> bool {
    synced.0 != Some(active.revision)
}

/// Moves each miniature to where the game says it is: its square and facing,
/// its captor's custody tray, or off the table. Only miniatures whose place
/// changed are touched, so a selection or a step costs a few writes.
pub fn sync_units(
    mut commands: Commands,
    active: Option<Res<ActiveGame>>,
    synced: Res<SyncedRevision>,
    index: Res<TableIndex>,
    mut units: Query<(
        &UnitPiece,
        &mut Transform,
        &mut Visibility,
        Option<&GridPos>,
        Option<&FacingDir>,
        Option<&InCustody>,
    )>,
) {
    let Some(active) = active else {
        return;
    };
    if !changed(&active, &synced) || index.units.len() != active.game.units().len() {
        return;
    }
    let game = &active.game;
    let board = game.board();
    let mut tray_fill = vec![0usize; game.players().len()];
    for &e in &index.units {
        let Ok((piece, mut transform, mut visibility, pos, facing_now, custody)) = units.get_mut(e)
        else {
            continue;
        };
        match game.place(piece.0) {
            Place::Board { square, facing } => {
                if pos != Some(&GridPos(square))
                    || facing_now != Some(&FacingDir(facing))
                    || custody.is_some()
                {
                    *transform = Transform::from_translation(square_center(board, square))
                        .with_rotation(facing_rotation(facing));
                    *visibility = Visibility::Inherited;
                    commands
                        .entity(e)
                        .insert((GridPos(square), FacingDir(facing)))
                        .remove::<(InCustody, OutOfGame)>();
                }
            }
            Place::Custody { holder } => {
                let slot = tray_fill[usize::from(holder.0)];
                tray_fill[usize::from(holder.0)] += 1;
                let target = Transform::from_translation(custody_slot(board, holder, slot))
                    .with_rotation(facing_rotation(Facing::S));
                if custody != Some(&InCustody(holder)) || *transform != target {
                    *transform = target;
                    *visibility = Visibility::Inherited;
                    commands
                        .entity(e)
                        .insert(InCustody(holder))
                        .remove::<(GridPos, FacingDir, OutOfGame)>();
                }
            }
            Place::Removed => {
                if *visibility != Visibility::Hidden {
                    *visibility = Visibility::Hidden;
                    commands
                        .entity(e)
                        .insert(OutOfGame)
                        .remove::<(GridPos, FacingDir, InCustody)>();
                }
            }
        }
    }
}

/// Captured bases leave the table (R10); discovered stashes are taken away (R21).
pub fn sync_bases_and_stashes(
    active: Option<Res<ActiveGame>>,
    synced: Res<SyncedRevision>,
    index: Res<TableIndex>,
    bases: Query<&BasePiece>,
    stashes: Query<&StashToken>,
    mut visibility: Query<&mut Visibility>,
) {
    let Some(active) = active else {
        return;
    };
    if !changed(&active, &synced) {
        return;
    }
    let game = &active.game;
    for &e in &index.bases {
        if let (Ok(base), Ok(mut v)) = (bases.get(e), visibility.get_mut(e)) {
            let wanted = if game.base_active(base.0) {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            };
            v.set_if_neq(wanted);
        }
    }
    for &e in &index.stashes {
        if let (Ok(stash), Ok(mut v)) = (stashes.get(e), visibility.get_mut(e)) {
            let wanted = if game.stash_at(stash.0) {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            };
            v.set_if_neq(wanted);
        }
    }
}

/// The acting unit carries its budget: given, earned and spent actions (R7).
pub fn show_action_budget(
    mut commands: Commands,
    active: Option<Res<ActiveGame>>,
    synced: Res<SyncedRevision>,
    index: Res<TableIndex>,
    holders: Query<Entity, With<ActionBudget>>,
) {
    let Some(active) = active else {
        return;
    };
    if !changed(&active, &synced) {
        return;
    }
    let acting = active.game.activation();
    let acting_entity = acting.and_then(|a| index.units.get(usize::from(a.unit.0)).copied());
    for e in &holders {
        if Some(e) != acting_entity {
            commands.entity(e).remove::<ActionBudget>();
        }
    }
    if let (Some(a), Some(e)) = (acting, acting_entity) {
        commands.entity(e).insert(ActionBudget {
            given: a.given,
            earned: a.earned,
            spent: a.spent,
        });
    }
}

/// Every square the acting unit can reach in one Advance, with its cost
/// (R12 to R15), from the rules crate's legal commands. Only squares whose
/// mark changes are touched.
pub fn label_reachable_squares(
    mut commands: Commands,
    active: Option<Res<ActiveGame>>,
    synced: Res<SyncedRevision>,
    index: Res<TableIndex>,
    marked: Query<(Entity, &Reachable)>,
) {
    let Some(active) = active else {
        return;
    };
    if !changed(&active, &synced) {
        return;
    }
    let game = &active.game;
    let board = game.board();
    let wanted: Vec<(Square, Reachable)> = reachable(game)
        .into_iter()
        .map(|(sq, cost)| {
            let capture = capture_at(game, sq);
            (sq, Reachable { cost, capture })
        })
        .collect();
    let wanted = wanted
        .into_iter()
        .filter_map(|(sq, reach)| Some((*index.squares.get(board.index(sq))?, reach)))
        .collect();
    mark_entities(&mut commands, marked.iter().map(|(e, r)| (e, *r)), wanted);
}

/// Gives each entity of `wanted` its component and takes it from every other
/// entity of `marked`, touching only entities whose mark changes (so that
/// `Changed` filters see real changes).
fn mark_entities<C: Component + Copy + PartialEq>(
    commands: &mut Commands,
    marked: impl Iterator<Item = (Entity, C)>,
    mut wanted: std::collections::BTreeMap<Entity, C>,
) {
    for (e, now) in marked {
        if wanted.get(&e) == Some(&now) {
            // Already so: nothing to do.
            wanted.remove(&e);
        } else {
            commands.entity(e).remove::<C>();
        }
    }
    for (e, mark) in wanted {
        commands.entity(e).insert(mark);
    }
}

/// The units of the player to move that have acted this turn carry
/// [`Acted`]; the acting unit does not, as its ring says more.
pub fn mark_acted_units(
    mut commands: Commands,
    active: Option<Res<ActiveGame>>,
    synced: Res<SyncedRevision>,
    index: Res<TableIndex>,
    marked: Query<Entity, With<Acted>>,
) {
    let Some(active) = active else {
        return;
    };
    if !changed(&active, &synced) {
        return;
    }
    let game = &active.game;
    let acting = game.activation().map(|a| a.unit);
    let wanted: Vec<Entity> = index
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let u = UnitId(*i as u16);
            game.activated_this_turn(u)
                && Some(u) != acting
                && matches!(game.place(u), Place::Board { .. })
        })
        .map(|(_, e)| *e)
        .collect();
    mark_entities(
        &mut commands,
        marked.iter().map(|e| (e, Acted)),
        wanted.into_iter().map(|e| (e, Acted)).collect(),
    );
}

/// The squares the awaited stash choice accepts, from the rules crate's
/// legal commands (R22): every `pick` and `place` square is lit.
pub fn light_choice_targets(
    mut commands: Commands,
    active: Option<Res<ActiveGame>>,
    synced: Res<SyncedRevision>,
    index: Res<TableIndex>,
    lit: Query<(Entity, &ChoiceTarget)>,
) {
    let Some(active) = active else {
        return;
    };
    if !changed(&active, &synced) {
        return;
    }
    let game = &active.game;
    let board = game.board();
    let mut wanted = std::collections::BTreeMap::new();
    if game.pending().is_some() {
        for l in game.legal_commands() {
            let (sq, target) = match l.command {
                sandtable_cache::Command::Pick(sq) => (sq, ChoiceTarget::Pick),
                sandtable_cache::Command::Place(sq, _)
                | sandtable_cache::Command::PlaceCaptive(sq, ..) => (sq, ChoiceTarget::Place),
                _ => continue,
            };
            if let Some(&e) = index.squares.get(board.index(sq)) {
                wanted.insert(e, target);
            }
        }
    }
    mark_entities(&mut commands, lit.iter().map(|(e, t)| (e, *t)), wanted);
}

/// Last of the sync chain: the table now follows this revision of the game.
pub fn note_synced_revision(active: Option<Res<ActiveGame>>, mut synced: ResMut<SyncedRevision>) {
    if let Some(active) = active {
        synced.set_if_neq(SyncedRevision(Some(active.revision)));
    }
}

/// The squares the acting unit's legal advances land on, with their
/// costs, as the rules crate lists them.
pub fn reachable(game: &Game) -> Vec<(Square, u16)> {
    game.legal_commands()
        .into_iter()
        .filter(|l| is_advance(l.command))
        .filter_map(|l| Some((l.lands()?, l.cost)))
        .collect()
}

fn is_advance(command: sandtable_cache::Command) -> bool {
    matches!(
        command,
        sandtable_cache::Command::Advance | sandtable_cache::Command::AdvanceTo(_)
    )
}

/// What the acting unit's legal advance onto `sq` captures there: an
/// unfriendly unit from the side its advance meets it (R9), or an unfriendly
/// Base (R10); `None` for an empty square.
pub fn capture_at(game: &Game, sq: Square) -> Option<CaptureMark> {
    let acting = game.activation()?.unit;
    let (_, direction) = game.position(acting)?;
    let player = game.units()[usize::from(acting.0)].player;
    match game.occupant(sq)? {
        sandtable_cache::Occupant::Unit(u) if game.units()[usize::from(u.0)].player != player => {
            let (_, facing) = game.position(u)?;
            Some(CaptureMark::Unit(CaptureSide::of(direction, facing)))
        }
        sandtable_cache::Occupant::Base(f) if game.factors()[usize::from(f.0)].player != player => {
            Some(CaptureMark::Base)
        }
        _ => None,
    }
}

/// The legal advance of the acting unit that lands on `sq`, if any.
pub fn advance_to(game: &Game, sq: Square) -> Option<sandtable_cache::Command> {
    game.legal_commands()
        .into_iter()
        .find(|l| is_advance(l.command) && l.lands() == Some(sq))
        .map(|l| l.command)
}

/// A capture's facing bonus floats over the square: "+3 from behind" (R9).
pub fn float_capture_bonuses(
    mut commands: Commands,
    mut events: MessageReader<PlayEvent>,
    active: Option<Res<ActiveGame>>,
) {
    let Some(active) = active else {
        events.clear();
        return;
    };
    let board = active.game.board();
    for PlayEvent(event) in events.read() {
        let (square, text) = match event {
            Event::Captured {
                square,
                side,
                earned,
                ..
            } => (
                *square,
                match side {
                    CaptureSide::Front => "+0 from the front".to_owned(),
                    _ => format!("+{} {}", earned.0, side.phrase()),
                },
            ),
            Event::BaseCaptured { square, .. } => (*square, "base captured".to_owned()),
            Event::StashRolled { square, roll, .. } => (*square, format!("stash: {roll}")),
            _ => continue,
        };
        commands.spawn((
            FloatingText { text, left: 2.5 },
            TablePiece,
            Transform::from_translation(square_center(board, square) + Vec3::Y * 1.2),
        ));
    }
}

/// Floating labels rise and go.
pub fn fade_floating_texts(
    mut commands: Commands,
    time: Res<Time>,
    mut texts: Query<(Entity, &mut FloatingText, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (e, mut text, mut transform) in &mut texts {
        text.left -= dt;
        transform.translation.y += dt * 0.3;
        if text.left <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn six_players_stand_on_six_different_shapes() {
        let shapes: BTreeSet<u32> = (0..6).map(|p| player_shape(PlayerId(p))).collect();
        assert_eq!(
            shapes.len(),
            6,
            "a cue besides colour for each of six players"
        );
    }

    #[test]
    fn a_bare_file_name_lies_in_the_working_folder() {
        let cwd = std::env::current_dir().expect("working folder");
        let folder = |f: &str| scenario_folder(std::path::Path::new(f));
        assert_eq!(folder("duel.ron"), Some(cwd.clone()));
        assert_eq!(folder("maps/duel.ron"), Some(cwd.join("maps")));
        assert_eq!(
            folder("/srv/maps/duel.ron"),
            Some(std::path::PathBuf::from("/srv/maps"))
        );
    }
}
