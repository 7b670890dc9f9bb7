//! The off-board grid on the table (R40-R57): the ring as a mat of named
//! squares beyond the map's edge, two deep, laid as the sheet lays it
//! (`sandtable_sheet::ring_rects`); the counters as numbered tokens; each
//! side's general reserve as a tray beyond its home edge. Everything here
//! is built from the viewer's view of the ring (`Game::ring_view`), never
//! from the referee's: a square knows whose reserve it is only for the
//! side that owns it, a token knows its pieces only where the viewer may,
//! and a counter the viewer does not locate is no entity at all, only a
//! count in its side's tray (R46, R55, R57).

use bevy::prelude::*;
use sandtable_core::game::Viewer;
use sandtable_warpspawn::offboard::counter::Composition;
use sandtable_warpspawn::offboard::ring::{Place, Ring, Square};
use sandtable_warpspawn::{Edge, Game, Map};

use super::table::ActiveBattle;
use super::{HEX, map_size};
use crate::schedule::AppSystems;
use crate::table::TablePiece;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TickShow>()
        .init_resource::<TickPace>()
        .init_resource::<crate::session::bots::BotsWait>()
        .add_message::<TickInput>()
        .add_systems(
            Update,
            (follow_ticks, sync_ring)
                .chain()
                .after(super::table::sync_battle_pieces)
                .in_set(AppSystems::SyncTable)
                .run_if(resource_exists::<ActiveBattle>)
                // Layout mode shows its own ring, from the layout.
                .run_if(in_state(crate::mode::Mode::Play))
                .run_if(not(resource_exists::<super::layout::BattleLayout>)),
        );
}

/// How long each tick of the ring's move stays on show before the next,
/// in seconds; 0 shows the ring where it ends at once.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct TickPace(pub f32);

impl Default for TickPace {
    fn default() -> Self {
        TickPace(1.2)
    }
}

/// The ring's last move played out on the table a tick at a time (R49):
/// the tokens stand where each tick left them, as the viewer may see them,
/// until the show ends or anything is played.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct TickShow {
    /// The battle and revision the show is of.
    of: Option<(u64, u64)>,
    /// The ticks done, from 0 (the ring as the orders found it).
    pub done: usize,
    /// The ticks in all.
    pub ticks: usize,
    /// The show waits for the step-through button.
    pub paused: bool,
    /// Seconds since the last tick.
    since: f32,
}

impl TickShow {
    /// Whether a move is being played out.
    pub fn running(&self) -> bool {
        self.of.is_some() && self.done < self.ticks
    }
}

/// The show's buttons.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TickInput {
    /// The next tick, now.
    Next,
    /// Stop or go on ticking by itself.
    Pause(bool),
    /// The ring where the move ends.
    Skip,
}

/// Starts the show of a move just played, ticks it on at its pace, and
/// answers its buttons.
fn follow_ticks(
    active: Res<ActiveBattle>,
    mut show: ResMut<TickShow>,
    pace: Res<TickPace>,
    time: Option<Res<Time>>,
    mut inputs: MessageReader<TickInput>,
    mut bots: ResMut<crate::session::bots::BotsWait>,
) {
    let now = (active.id, active.revision);
    let (ticks, of) = &active.extra.ticks;
    if *of == active.revision && !ticks.is_empty() && pace.0 > 0.0 {
        if show.of != Some(now) {
            *show = TickShow {
                of: Some(now),
                done: 0,
                ticks: ticks.len(),
                paused: false,
                since: 0.0,
            };
        }
    } else if show.of.is_some() {
        *show = TickShow::default();
    }
    for input in inputs.read() {
        match input {
            TickInput::Next => {
                show.done = (show.done + 1).min(show.ticks);
                show.since = 0.0;
            }
            TickInput::Pause(on) => show.paused = *on,
            TickInput::Skip => show.done = show.ticks,
        }
    }
    // Behind the curtain the show waits for the person it is for.
    if show.running() && !show.paused && !active.curtain() {
        show.since += time.map_or(0.0, |t| t.delta_secs());
        if show.since >= pace.0 {
            show.since = 0.0;
            show.done += 1;
        }
    }
    // A bot's next command would end the show: it waits for its end.
    bots.set_if_neq(crate::session::bots::BotsWait(show.running()));
}

/// Where the tokens stand while a move is played out: each counter the
/// viewer sees step in a tick still to come stands where that step begins.
fn tick_squares(
    active: &ActiveBattle,
    show: &TickShow,
    viewer: Option<usize>,
) -> std::collections::HashMap<(usize, u16), Square> {
    let mut out = std::collections::HashMap::new();
    if !show.running() {
        return out;
    }
    let Some(g) = active.game.grid() else {
        return out;
    };
    for tick in active.extra.ticks.0.iter().skip(show.done) {
        for (id, from, _) in tick.moves_for(viewer, &g.grid.reserves) {
            out.entry((id.side, id.number)).or_insert(from);
        }
    }
    out
}

/// A square of the ring on the table.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct RingTile {
    /// The square.
    pub square: Square,
    /// Its width (along X) and depth (along -Z) in world units.
    pub size: Vec2,
    /// What it is: an edge square, the second row, an inner corner (R41).
    pub place: Place,
    /// The side whose reserve it is, where the viewer may know it: its own
    /// reserve, or both for the referee (R42, R57).
    pub reserve: Option<usize>,
    /// The viewer's side sees it from the map this game turn (R55).
    pub seen: bool,
}

/// A counter on the ring as the viewer knows it: its side, number and
/// square, and its pieces only where the viewer may know them (R46, R55).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterToken {
    /// Its side.
    pub side: usize,
    /// Its number.
    pub number: u16,
    /// Its square.
    pub square: Square,
    /// What it holds, where the viewer may know it.
    pub pieces: Option<Composition>,
}

/// A side's general reserve beside its home edge (R46): the count of its
/// counters there that the viewer knows of but does not locate, or, for
/// the viewer's own side, of its counters standing in its reserve.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct ReserveTray {
    /// The side.
    pub side: usize,
    /// Its counters the tray stands for.
    pub count: usize,
    /// Its width and depth in world units.
    pub size: Vec2,
}

/// The viewer as the rules crate's views name it: `None` the referee,
/// an index past the two sides an onlooker (the public, R57).
pub fn viewer_index(viewer: Viewer) -> Option<usize> {
    match viewer {
        Viewer::Referee => None,
        Viewer::Player(seat) => Some(seat.index()),
        Viewer::Public => Some(2),
    }
}

/// A square's centre on the table and its size, in world units: the
/// sheet's rectangle (mm from the map's near-left corner, `hex_mm` 1)
/// turned into the table's frame, the map centred on the origin.
pub fn square_place(ring: &Ring, map: Map, sq: Square) -> Option<(Vec3, Vec2)> {
    let (_, (x, y, w, d)) = sandtable_sheet::ring_rects(ring, f64::from(HEX))
        .into_iter()
        .find(|(s, _)| *s == sq)?;
    Some(rect_place(map, (x, y, w, d)))
}

/// A rectangle of the sheet's frame as a centre and size on the table.
fn rect_place(map: Map, (x, y, w, d): (f64, f64, f64, f64)) -> (Vec3, Vec2) {
    let size = map_size(map);
    let centre = Vec3::new(
        (x + w / 2.0) as f32 - size.x / 2.0,
        0.0,
        -((y + d / 2.0) as f32 - size.y / 2.0),
    );
    (centre, Vec2::new(w as f32, d as f32))
}

/// The ring's width and depth on the table, for the camera to frame.
pub fn ring_extent(ring: &Ring) -> Vec2 {
    let rects = sandtable_sheet::ring_rects(ring, f64::from(HEX));
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    for (_, (x, y, w, d)) in rects {
        lo = lo.min(Vec2::new(x as f32, y as f32));
        hi = hi.max(Vec2::new((x + w) as f32, (y + d) as f32));
    }
    // Room for the trays beyond the near and far rows.
    (hi - lo).max(Vec2::ZERO) + Vec2::new(0.0, 2.0 * TRAY_DEPTH)
}

/// How deep a reserve's tray is, beyond the ring's outer row.
const TRAY_DEPTH: f32 = 0.9;

/// Spawns the ring's squares of a battle with the grid, each with the
/// side whose reserve `reserve` says it is: none in play, where the
/// viewer's tints are [`sync_ring`]'s; both sides' in a layout.
pub(crate) fn spawn_ring(
    commands: &mut Commands,
    ring: &Ring,
    map: Map,
    reserve: impl Fn(Square) -> Option<usize>,
) {
    for (sq, rect) in sandtable_sheet::ring_rects(ring, f64::from(HEX)) {
        let Some(place) = ring.place(sq) else {
            continue;
        };
        let (centre, size) = rect_place(map, rect);
        commands.spawn((
            RingTile {
                square: sq,
                size,
                place,
                reserve: reserve(sq),
                seen: false,
            },
            TablePiece,
            Transform::from_translation(centre),
            Visibility::default(),
        ));
    }
}

/// Spawns the ring of a battle's layout as the referee sees it (the layout
/// holds both sides' secrets, R57): every square with the side whose
/// reserve it is, every starting counter with its pieces.
pub(crate) fn spawn_layout_ring(commands: &mut Commands, setup: &sandtable_warpspawn::Setup) {
    let Some(grid) = &setup.offboard else {
        return;
    };
    let Ok(ring) = Ring::new(setup.map, grid.span) else {
        return;
    };
    let map = setup.map;
    let reserve = |sq: Square| {
        (0..setup.sides.len().min(2)).find(|s| match grid.reserves.get(*s) {
            Some(Some(squares)) => squares.contains(&sq),
            _ => ring.default_reserve(setup.sides[*s].home).contains(&sq),
        })
    };
    spawn_ring(commands, &ring, map, reserve);
    for c in &grid.counters {
        let Some((centre, size)) = square_place(&ring, map, c.at) else {
            continue;
        };
        let here: Vec<_> = grid.counters.iter().filter(|o| o.at == c.at).collect();
        let k = here
            .iter()
            .position(|o| o.side == c.side && o.number == c.number)
            .unwrap_or(0);
        commands.spawn((
            CounterToken {
                side: c.side,
                number: c.number,
                square: c.at,
                pieces: Some(c.pieces),
            },
            TablePiece,
            Transform::from_translation(centre + spread(size, k, here.len()) + Vec3::Y * 0.04),
            Visibility::default(),
        ));
    }
}

/// Where the `k`th of `n` tokens in a square of `size` stands from its
/// centre: side by side along the square's longer side.
fn spread(size: Vec2, k: usize, n: usize) -> Vec3 {
    let across = size.x.max(size.y);
    let step = (across / n.max(1) as f32).min(0.45);
    let offset = (k as f32 - (n as f32 - 1.0) / 2.0) * step;
    if size.x >= size.y {
        Vec3::new(offset, 0.0, 0.0)
    } else {
        Vec3::new(0.0, 0.0, offset)
    }
}

/// Where a side's tray stands: beyond the outer row of its home edge,
/// centred along it, as wide as a third of that edge.
fn tray_place(ring: &Ring, map: Map, home: Edge) -> (Vec3, Vec2) {
    let rects = sandtable_sheet::ring_rects(ring, f64::from(HEX));
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    for (_, (x, y, w, d)) in &rects {
        lo = lo.min(Vec2::new(*x as f32, *y as f32));
        hi = hi.max(Vec2::new((x + w) as f32, (y + d) as f32));
    }
    let size = map_size(map);
    let mid = (lo + hi) / 2.0;
    let span = hi - lo;
    let gap = 0.1;
    let (at, dims) = match home {
        Edge::S => (
            Vec2::new(mid.x, lo.y - gap - TRAY_DEPTH / 2.0),
            Vec2::new(span.x / 3.0, TRAY_DEPTH),
        ),
        Edge::N => (
            Vec2::new(mid.x, hi.y + gap + TRAY_DEPTH / 2.0),
            Vec2::new(span.x / 3.0, TRAY_DEPTH),
        ),
        Edge::W => (
            Vec2::new(lo.x - gap - TRAY_DEPTH / 2.0, mid.y),
            Vec2::new(TRAY_DEPTH, span.y / 3.0),
        ),
        Edge::E => (
            Vec2::new(hi.x + gap + TRAY_DEPTH / 2.0, mid.y),
            Vec2::new(TRAY_DEPTH, span.y / 3.0),
        ),
    };
    (
        Vec3::new(at.x - size.x / 2.0, 0.0, -(at.y - size.y / 2.0)),
        dims,
    )
}

/// What the ring shows the viewer now: each square's tint, each token,
/// each tray.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct RingShown {
    tiles: Vec<(Square, Option<usize>, bool)>,
    tokens: Vec<CounterToken>,
    trays: Vec<(usize, usize)>,
}

/// The ring as `viewer` may see it in `game`: nothing of what it may not
/// (R46, R55, R57).
fn ring_shown(game: &Game, viewer: Option<usize>) -> Option<RingShown> {
    let g = game.grid()?;
    let view = game.ring_view(viewer)?;
    let grid = &g.grid;
    let seen = |sq: Square| match viewer {
        Some(v) => grid.seen_from_map.get(v).is_some_and(|s| s.contains(&sq)),
        None => false,
    };
    let tiles = grid
        .ring
        .squares()
        .map(|sq| (sq, grid.reserve_known(viewer, sq), seen(sq)))
        .collect();
    let tokens: Vec<CounterToken> = view
        .counters
        .iter()
        .map(|c| CounterToken {
            side: c.side,
            number: c.number,
            square: c.at,
            pieces: c.pieces,
        })
        .collect();
    let trays = (0..2)
        .map(|s| {
            // The viewer's own (or the referee's) counters in the reserve it
            // knows, and those of the enemy it knows only as a count.
            let located_there = tokens
                .iter()
                .filter(|t| t.side == s && grid.reserve_known(viewer, t.square) == Some(s))
                .count();
            (s, located_there + view.unlocated[s])
        })
        .collect();
    Some(RingShown {
        tiles,
        tokens,
        trays,
    })
}

/// The ring follows the game and the viewer: at every change of either,
/// the squares' tints and the tokens and trays are set from the viewer's
/// view alone.
pub(super) fn sync_ring(
    mut commands: Commands,
    active: Res<ActiveBattle>,
    mut tiles: Query<&mut RingTile>,
    tokens: Query<Entity, Or<(With<CounterToken>, With<ReserveTray>)>>,
    mut seen: Local<Option<(u64, u64, Viewer, usize)>>,
    mut shown: Local<RingShown>,
    show: Res<TickShow>,
) {
    let key = (
        active.id,
        active.revision,
        active.viewer,
        if show.running() {
            show.done
        } else {
            usize::MAX
        },
    );
    // A table just built has its squares new, and no tokens yet.
    let fresh = tiles.iter_mut().any(|t| t.is_added());
    if *seen == Some(key) && !fresh {
        return;
    }
    *seen = Some(key);
    let game = &*active.game;
    let viewer = viewer_index(active.viewer);
    let Some(mut now) = ring_shown(game, viewer) else {
        return;
    };
    // A move being played out: the tokens where the ticks shown left them.
    let at = tick_squares(&active, &show, viewer);
    for token in &mut now.tokens {
        if let Some(sq) = at.get(&(token.side, token.number)) {
            token.square = *sq;
        }
    }
    for mut tile in &mut tiles {
        if let Some(&(_, reserve, lit)) = now.tiles.iter().find(|t| t.0 == tile.square) {
            let want = RingTile {
                reserve,
                seen: lit,
                ..*tile
            };
            tile.set_if_neq(want);
        }
    }
    if now.tokens == shown.tokens && now.trays == shown.trays && !fresh {
        *shown = now;
        return;
    }
    for e in &tokens {
        commands.entity(e).despawn();
    }
    let Some(g) = game.grid() else {
        return;
    };
    let map = game.battle().map;
    let ring = &g.grid.ring;
    // Tokens in one square stand side by side across it.
    let mut placed: std::collections::HashMap<Square, usize> = Default::default();
    for token in &now.tokens {
        let Some((centre, size)) = square_place(ring, map, token.square) else {
            continue;
        };
        let here = now
            .tokens
            .iter()
            .filter(|t| t.square == token.square)
            .count();
        let k = placed.entry(token.square).or_default();
        let shift = spread(size, *k, here);
        *k += 1;
        commands.spawn((
            *token,
            TablePiece,
            Transform::from_translation(centre + shift + Vec3::Y * 0.04),
            Visibility::default(),
        ));
    }
    for &(side, count) in &now.trays {
        let (at, size) = tray_place(ring, map, game.battle().homes[side]);
        commands.spawn((
            ReserveTray { side, count, size },
            TablePiece,
            Transform::from_translation(at),
            Visibility::default(),
        ));
    }
    *shown = now;
}

impl crate::picking::OnSpot for RingTile {
    fn spot(&self) -> sandtable_core::game::Spot {
        self.square.spot()
    }
}

impl crate::picking::OnSpot for CounterToken {
    fn spot(&self) -> sandtable_core::game::Spot {
        self.square.spot()
    }
}
