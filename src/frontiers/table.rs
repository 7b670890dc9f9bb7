//! The skirmish's entities on the table: the table top at its real size,
//! one entity a terrain piece and a building element, and one a unit,
//! crate, objective, the diskette and each smoke cloud, with components
//! that say what the rules crate holds there. The fixed ones are built
//! when a skirmish is opened; the rest follow the game at each change.
//! Their looks are `dress`'s.

use bevy::prelude::*;
use sandtable_core::game::{GameState, Seat, Surface, next_seat};
use sandtable_frontiers::crates::CrateState;
use sandtable_frontiers::{Event, Game};
use sandtable_scenario::skirmish::Skirmish;

use super::{UNIT_MM, world_pt};
use crate::schedule::AppSystems;
use crate::session::ScenarioSource;
use crate::session::game::{ActiveGame, TableSystem};
use crate::table::{TableBuilt, TablePiece, TableShown};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SkirmishLoaded>().add_systems(
        Update,
        (spawn_skirmish_table, sync_skirmish_pieces)
            .chain()
            .in_set(AppSystems::SyncTable),
    );
}

/// Frontiers as a rule system of the table.
pub struct Frontiers;

/// What the table keeps beside a skirmish: the last rolls' lines, which
/// every side may read.
#[derive(Debug, Clone, Default)]
pub struct SkirmishExtra {
    /// What the last dice rolled decided.
    pub rolls: Vec<String>,
    /// The templates laid in a step, each centre and diameter (R126),
    /// shown where they landed through the step after it: the last
    /// attack of a step often ends it.
    pub templates: Vec<(sandtable_frontiers::geometry::Pt, u16)>,
    /// The turn and step they were laid in, and the record's length once
    /// the last was: after an undo back past it they are no longer shown.
    pub templates_at: (u32, u8, usize),
}

impl SkirmishExtra {
    /// The templates to show now: those laid in this step or the one
    /// before it, of this turn, by commands still in the record.
    pub fn templates_now(
        &self,
        game: &Game,
        played: usize,
    ) -> &[(sandtable_frontiers::geometry::Pt, u16)] {
        let (turn, step, len) = self.templates_at;
        let now = game.flow().step;
        if turn == game.turn_number() && (now == step || now == step + 1) && played >= len {
            &self.templates
        } else {
            &[]
        }
    }
}

impl TableSystem for Frontiers {
    /// The first side deploys at the near edge, the second at the far one
    /// (R146): each looks across the table from its own.
    fn seat_view(_game: &Game, seat: Seat) -> Option<f32> {
        Some(if seat.0 == 1 {
            std::f32::consts::PI
        } else {
            0.0
        })
    }

    const KEY: &'static str = "frontiers";
    type Game = Game;
    type Setup = Skirmish;
    type Extra = SkirmishExtra;
    type BotRequest = super::play::BotMove;

    fn bot_request(command: sandtable_frontiers::Command) -> super::play::BotMove {
        super::play::BotMove(command)
    }

    /// The skirmish's seed, as the CLI seeds its bots.
    fn bot_seed(active: &ActiveGame<Self>) -> u64 {
        active.setup.setup.seed
    }

    fn loaded(world: &mut World) {
        world.write_message(SkirmishLoaded);
    }

    /// A phase is the deployment, a Preparation, the orders, a step
    /// (its naming, actions, shots and card windows) or the Reserve
    /// (R105-R112, R146).
    fn phase(game: &Game) -> u32 {
        use sandtable_frontiers::flow::Phase;
        let flow = game.flow();
        match flow.phase {
            Phase::Deploy(_) => 1,
            Phase::Prepare(side) => 2 + u32::from(side),
            Phase::Order => 4,
            Phase::Reserve(_) => 1_000,
            Phase::Name(_) | Phase::Act | Phase::Shots | Phase::Window => 10 + u32::from(flow.step),
        }
    }

    fn seat_colour(_: &ActiveGame<Self>, seat: Seat) -> Option<[u8; 3]> {
        sandtable_scenario::DEFAULT_COLOURS[..2]
            .get(seat.index())
            .map(|c| c.0)
    }

    /// The skirmish again from its file's setup and seed.
    fn new_game(active: &ActiveGame<Self>) -> Result<ActiveGame<Self>, String> {
        Ok(ActiveSkirmish::new(active.setup.clone())?.with_source(active.source.clone()))
    }

    /// The lines of dice rolled that every side reads alike (R30, R149).
    fn after_play(
        active: &mut ActiveGame<Self>,
        _: Seat,
        dice: &sandtable_core::dice::Dice,
        events: &[Event],
    ) {
        let game = active.game.game();
        // The templates laid, public as they lie on the table (R126,
        // R149): kept until the next step.
        let laid: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Template { at, diameter } => Some((*at, *diameter)),
                _ => None,
            })
            .collect();
        if !laid.is_empty() {
            let at = (game.turn_number(), game.flow().step, active.record.len());
            let extra = &mut active.extra;
            if (extra.templates_at.0, extra.templates_at.1) != (at.0, at.1) {
                extra.templates.clear();
            }
            extra.templates.extend(laid);
            extra.templates_at = at;
        }
        let game = active.game.game();
        if dice.position() == GameState::dice(game).position() {
            return;
        }
        let lines = crate::session::game::read_alike(game, events.iter().filter(|e| rolls_dice(e)));
        if !lines.is_empty() {
            active.extra.rolls = lines;
        }
    }

    /// The decision passing to the other side at one desktop is a
    /// hand-over, behind the curtain (R149).
    fn hand_over(active: &ActiveGame<Self>, seat: Seat, _: &[Event]) -> Option<Seat> {
        next_seat(active.game.game()).filter(|next| *next != seat)
    }

    /// Only when both sides are people: with a bot, the person keeps the
    /// table and their own view.
    fn waits_for(seats: &crate::session::Seats, _: Seat) -> bool {
        (0..2).all(|k| seats.of(k) == crate::session::Seat::Person)
    }
}

/// Whether an event tells a roll of the dice: an attack, a sniper's shot,
/// a location, a coin, a drop's scatter (R30).
pub fn rolls_dice(event: &Event) -> bool {
    matches!(
        event,
        Event::Attacked { .. }
            | Event::Sniped { .. }
            | Event::LocationHit { .. }
            | Event::Coin { .. }
            | Event::Scattered { .. }
    )
}

/// The skirmish on the table, as the rules crate holds it, with what the
/// table keeps beside it.
pub type ActiveSkirmish = ActiveGame<Frontiers>;

impl ActiveSkirmish {
    /// A new game of a skirmish with its own seed, both sides played by
    /// people.
    pub fn new(skirmish: Skirmish) -> Result<ActiveSkirmish, String> {
        let setup = skirmish.setup.clone();
        let dice = sandtable_core::dice::Dice::seeded(setup.seed);
        ActiveSkirmish::start(skirmish, &setup, dice)
    }

    /// A new game of a skirmish with this setup (the file's, or its seed
    /// and turns changed by a saved game) and these dice. The rolls the
    /// start makes (the decks shuffled, R105) are the first the table
    /// keeps ([`crate::session::dice::DiceBook`]).
    pub fn start(
        skirmish: Skirmish,
        setup: &sandtable_frontiers::Setup,
        dice: sandtable_core::dice::Dice,
    ) -> Result<ActiveSkirmish, String> {
        let game = Game::new(setup, dice.clone()).map_err(|e| e.to_string())?;
        Ok(ActiveGame::started(
            game,
            skirmish,
            ScenarioSource::Unsaved,
            SkirmishExtra::default(),
        )
        .rolled_from(&dice))
    }

    /// The same skirmish, started from this file.
    pub fn with_source(mut self, source: ScenarioSource) -> ActiveSkirmish {
        self.source = source;
        self
    }
}

/// A skirmish was opened: the table is built for it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkirmishLoaded;

/// The table top, at the skirmish's real size (R100).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct SkirmishTop {
    /// Its width and depth in mm.
    pub table: (u16, u16),
}

/// A terrain piece, by its index in the setup.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerrainPiece(pub usize);

/// A building element, by its index in the setup, with the steps it has
/// left (0: a ruin, R119).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementPiece {
    /// Its index.
    pub index: usize,
    /// Whether it is a ruin now.
    pub ruined: bool,
}

/// A unit on the table, by its index in the game, as it stands now.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct UnitPiece {
    /// Its index in the game.
    pub index: usize,
    /// Its side.
    pub side: u8,
    /// Its id in commands.
    pub tag: String,
    /// Its unit type's id in the data, as `lg_trooper`, which a
    /// scenario's models may name.
    pub kind: &'static str,
    /// Its base's size in mm: a disc's diameter, an oval's length and width.
    pub base_mm: (u16, u16),
    /// Whether it is a destroyed vehicle's carcass (R125).
    pub carcass: bool,
    /// Whether it shows its back, damaged or transformed.
    pub back: bool,
}

/// A small thing on the table that blocks nothing (R101): a crate, an
/// objective, the diskette, or a smoke cloud (R130).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// An equipment crate lying, by its index (R143).
    Crate(usize),
    /// An objective, by its index (R148).
    Objective(usize),
    /// The diskette lying (R147).
    Diskette,
    /// A smoke cloud, by its index (R130).
    Cloud(usize),
}

/// Builds the skirmish's table anew when one is opened: its top, terrain
/// and building elements (its units and tokens are
/// [`sync_skirmish_pieces`]'s).
pub fn spawn_skirmish_table(
    mut commands: Commands,
    mut loaded: MessageReader<SkirmishLoaded>,
    skirmish: Option<Res<ActiveSkirmish>>,
    old: Query<Entity, With<TablePiece>>,
    mut shown: ResMut<TableShown>,
    mut built: MessageWriter<TableBuilt>,
) {
    if loaded.read().count() == 0 {
        return;
    }
    let Some(active) = skirmish else {
        return;
    };
    for e in &old {
        commands.entity(e).despawn();
    }
    let setup = active.game.game().setup();
    let table = setup.table;
    *shown = TableShown {
        surface: Some(Surface::Plane {
            width_mm: table.0,
            depth_mm: table.1,
        }),
        extent: Some(Vec2::new(
            f32::from(table.0) / UNIT_MM,
            f32::from(table.1) / UNIT_MM,
        )),
        physical: None,
        colours: sandtable_scenario::DEFAULT_COLOURS[..2].to_vec(),
        models: active.setup.models.clone(),
        folder: match &active.source {
            crate::session::ScenarioSource::File(p) => crate::table::scenario_folder(p),
            _ => None,
        },
    };
    commands.spawn((
        SkirmishTop { table },
        TablePiece,
        Transform::default(),
        Visibility::default(),
    ));
    for k in 0..setup.terrain.len() {
        commands.spawn((
            TerrainPiece(k),
            TablePiece,
            Transform::default(),
            Visibility::default(),
        ));
    }
    for (k, steps) in active.game.game().element_steps().iter().enumerate() {
        commands.spawn((
            ElementPiece {
                index: k,
                ruined: *steps == 0,
            },
            TablePiece,
            Transform::default(),
            Visibility::default(),
        ));
    }
    built.write(TableBuilt { reframe: true });
}

/// What moves on the table: units, crates lying, the diskette, clouds;
/// and the building elements that fell.
#[derive(Component, Debug, Clone, Copy)]
pub struct Moving;

/// The units and tokens follow the game: at each change of it they are
/// built again where the rules crate holds them (a skirmish has a few
/// dozen), and a building element that fell is shown as a ruin.
pub fn sync_skirmish_pieces(
    mut commands: Commands,
    mut loaded: MessageReader<SkirmishLoaded>,
    skirmish: Option<Res<ActiveSkirmish>>,
    moving: Query<Entity, With<Moving>>,
    mut elements: Query<&mut ElementPiece>,
    mut seen: Local<Option<(u64, u64)>>,
) {
    let fresh = loaded.read().count() > 0;
    let Some(active) = skirmish else {
        return;
    };
    let now = (active.id, active.revision);
    if !fresh && *seen == Some(now) {
        return;
    }
    *seen = Some(now);
    for e in &moving {
        commands.entity(e).despawn();
    }
    let game = active.game.game();
    let table = game.setup().table;
    for mut e in &mut elements {
        let ruined = game.element_steps().get(e.index) == Some(&0);
        if e.ruined != ruined {
            e.ruined = ruined;
        }
    }
    for (i, u) in game.units().iter().enumerate() {
        // A unit waiting to deploy, aboard a transport or destroyed
        // without a carcass is not on the table.
        if u.waiting || u.aboard.is_some() || !(u.alive || u.carcass) {
            continue;
        }
        let turn = Quat::from_rotation_y(f32::from(u.facing).to_radians());
        commands.spawn((
            UnitPiece {
                index: i,
                side: u.side,
                tag: u.tag.to_string(),
                kind: u.data.id,
                base_mm: u.data.base.size_mm(),
                carcass: !u.alive,
                back: u.back,
            },
            Moving,
            TablePiece,
            Transform::from_translation(
                world_pt(table, u.at) + Vec3::Y * super::ground(game.setup(), u.at),
            )
            .with_rotation(turn),
            Visibility::default(),
        ));
    }
    let setup = game.setup();
    let mut token = |t: Token, at| {
        commands.spawn((
            t,
            Moving,
            TablePiece,
            Transform::from_translation(world_pt(table, at) + Vec3::Y * super::ground(setup, at)),
            Visibility::default(),
        ));
    };
    for (k, c) in game.crates().iter().enumerate() {
        if c.state == CrateState::Lying {
            token(Token::Crate(k), c.at);
        }
    }
    for (k, at) in game.setup().objectives.iter().enumerate() {
        token(Token::Objective(k), *at);
    }
    if let Some(d) = game.diskette()
        && d.carrier.is_none()
    {
        token(Token::Diskette, d.at);
    }
    for (k, c) in game.clouds().iter().enumerate() {
        if c.penalty(game.turn_number()).is_some() {
            token(Token::Cloud(k), c.at);
        }
    }
}
