//! The battle's entities on the table: one for every hex, every body of
//! armed men (a formation), every piece beside them (cannon, officers,
//! baggage, flag) and every chit of routers, prisoners and unarmed men, with
//! components that say what the rules crate holds there. They are built when
//! a battle is opened; their looks are `dress`'s.

use bevy::prelude::*;
use sandtable_core::game::{Seat, next_seat};
use sandtable_scenario::battle::Battle;
use sandtable_warpspawn::{Event, Game, Hex, Side, Terrain};

use crate::session::game::{ActiveGame, TableSystem};
use crate::session::{ScenarioSource, Seats};

use super::looks::Slot;
use super::{HEX, hex_center, map_size};
use crate::schedule::AppSystems;
use crate::table::{TableBuilt, TablePiece, TableShown};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BattleLoaded>()
        .init_resource::<crate::picking::Hovered>()
        .add_systems(
            Update,
            (spawn_battle_table, sync_battle_pieces)
                .chain()
                .in_set(AppSystems::SyncTable),
        );
}

/// The Warpspawn battle as a rule system of the table.
pub struct Warpspawn;

/// What the table keeps beside a battle: the last dice rolled, each side's
/// seat, and the dice typed in.
#[derive(Debug, Clone, Default)]
pub struct BattleExtra {
    /// What the last dice rolled decided, each roll with its table row.
    pub rolls: Vec<String>,
    /// The ticks of the ring's last move (R49), as the rules reported
    /// them, and the revision of the battle they came with: the table
    /// plays them out one at a time, each as its viewer may see it
    /// (`crate::warpspawn::ring::TickShow`).
    pub ticks: (Vec<sandtable_warpspawn::offboard::event::RingEvent>, u64),
}

impl TableSystem for Warpspawn {
    const KEY: &'static str = "warpspawn";
    type Game = Game;
    type Setup = Battle;
    type Extra = BattleExtra;
    type BotRequest = super::play::BotMove;

    fn bot_request(command: sandtable_warpspawn::Command) -> super::play::BotMove {
        super::play::BotMove(command)
    }

    /// The battle's seed, as the CLI seeds the battle's bots.
    fn bot_seed(active: &ActiveGame<Self>) -> u64 {
        active.setup.setup.seed
    }

    fn loaded(world: &mut World) {
        world.write_message(BattleLoaded);
    }

    /// A phase is the Cannonade, March, Melee or Rally of a side's
    /// player turn (R63), the ring's sealed orders apart (R47).
    fn phase(game: &Game) -> u32 {
        let sealed = matches!(
            sandtable_core::game::GameState::decision(game),
            sandtable_core::game::Decision::Sealed(_)
        );
        u32::from(game.active().0) * 8 + game.phase() as u32 * 2 + u32::from(sealed)
    }

    fn seat_colour(active: &ActiveGame<Self>, seat: Seat) -> Option<[u8; 3]> {
        active.setup.colours.get(seat.index()).map(|c| c.0)
    }

    /// A ring's move stepped through in review plays out tick by tick, as
    /// in play; a position jumped to shows the ring as it stands.
    fn shown_in_review(world: &mut World, replayed: u64, stepped: Option<Vec<Event>>) {
        let mut active = world.resource_mut::<ActiveGame<Self>>();
        let revision = active.revision;
        let ticks = &mut active.extra.ticks;
        if stepped.is_some() && ticks.1 == replayed {
            ticks.1 = revision;
        }
    }

    /// The battle again from its file's setup and seed.
    fn new_game(active: &ActiveGame<Self>) -> Result<ActiveGame<Self>, String> {
        Ok(ActiveBattle::new(active.setup.clone())?.with_source(active.source.clone()))
    }

    /// What the dice rolled decided is kept for the tray, and the ring's
    /// ticks for the table to play out.
    fn after_play(
        active: &mut ActiveGame<Self>,
        _: Seat,
        _: &sandtable_core::dice::Dice,
        events: &[Event],
    ) {
        let ticks: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Ring(r)
                    if matches!(
                        **r,
                        sandtable_warpspawn::offboard::event::RingEvent::Stepped { .. }
                    ) =>
                {
                    Some((**r).clone())
                }
                _ => None,
            })
            .collect();
        if !ticks.is_empty() {
            // The play's revision: `play` counts it after this hook.
            active.extra.ticks = (ticks, active.revision + 1);
        }
        // The tray shows every side the same lines: a roll that some side
        // may not read as the referee does stays in the log, where each
        // reads its own line (R57).
        let rolled = crate::session::game::read_alike(
            active.game.game(),
            events.iter().filter(|e| super::play::rolls_dice(e)),
        );
        if !rolled.is_empty() {
            active.extra.rolls = rolled;
        }
    }

    /// A decision passing to the other side at one desktop is a hand-over
    /// (R64).
    fn hand_over(active: &ActiveGame<Self>, seat: Seat, _: &[Event]) -> Option<Seat> {
        next_seat(active.game.game()).filter(|next| *next != seat)
    }

    /// Only when both sides are people: with a bot, the person plays on
    /// (R64).
    fn waits_for(seats: &Seats, _: Seat) -> bool {
        (0..2).all(|k| seats.of(k) == crate::session::Seat::Person)
    }
}

/// The battle on the table, as the rules crate holds it, with what the
/// table keeps beside it: the record, the log, the last dice rolled, each
/// side's seat and the hot-seat hand-over.
pub type ActiveBattle = ActiveGame<Warpspawn>;

impl ActiveBattle {
    /// A new game of a battle, with the battle's own seed, both sides
    /// played by people.
    pub fn new(battle: Battle) -> Result<ActiveBattle, String> {
        let dice = sandtable_core::dice::Dice::seeded(battle.setup.seed);
        let setup = battle.setup.clone();
        ActiveBattle::start(battle, &setup, dice)
    }

    /// A new game of a battle with this setup (the battle file's, or its
    /// seed and turns changed by a saved game) and these dice, both sides
    /// played by people. A roll the start makes (who plays first, R64) is
    /// the first the table keeps ([`crate::session::dice::DiceBook`]).
    pub fn start(
        battle: Battle,
        setup: &sandtable_warpspawn::Setup,
        dice: sandtable_core::dice::Dice,
    ) -> Result<ActiveBattle, String> {
        let game = Game::new(setup, dice.clone()).map_err(|e| e.to_string())?;
        Ok(ActiveGame::started(
            game,
            battle,
            ScenarioSource::Unsaved,
            BattleExtra::default(),
        )
        .rolled_from(&dice))
    }

    /// The same battle, started from this battle file.
    pub fn with_source(mut self, source: ScenarioSource) -> ActiveBattle {
        self.source = source;
        self
    }
}

/// A battle was opened: the table is built for it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleLoaded;

/// A hex of the map and its terrain.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexTile {
    /// The hex.
    pub hex: Hex,
    /// Its terrain (R60).
    pub terrain: Terrain,
}

/// A side's armed men in a hex: a formation (R62), drawn as a block of
/// figures, one a man.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formation {
    /// Its hex.
    pub hex: Hex,
    /// Its side.
    pub side: Side,
    /// Infantry.
    pub infantry: u16,
    /// Cavalry.
    pub cavalry: u16,
}

/// A piece beside the men of a hex: a cannon, officers, baggage, a flag, or
/// a chit of routers, prisoners or unarmed men, with how many it stands for.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattlePiece {
    /// Its hex.
    pub hex: Hex,
    /// The side it belongs to (for prisoners, the side that holds them).
    pub side: Side,
    /// Which piece.
    pub slot: Slot,
    /// Officers, flags, or men on the chit; 1 for a cannon or baggage.
    pub count: u16,
}

/// Builds the battle's table anew when a battle is opened: one entity per
/// hex (its formations and pieces are [`sync_battle_pieces`]'s).
pub fn spawn_battle_table(
    mut commands: Commands,
    mut loaded: MessageReader<BattleLoaded>,
    battle: Option<Res<ActiveBattle>>,
    old: Query<Entity, With<TablePiece>>,
    mut shown: ResMut<TableShown>,
    mut built: MessageWriter<TableBuilt>,
) {
    if loaded.read().count() == 0 {
        return;
    }
    let Some(active) = battle else {
        return;
    };
    for e in &old {
        commands.entity(e).despawn();
    }
    let game = &active.game;
    spawn_hex_table(
        &mut commands,
        &active.setup,
        |hex| game.battle().terrain(hex),
        &mut shown,
    );
    // The off-board grid's ring round the map (R40), framed with it.
    if let Some(g) = game.grid() {
        let ring = &g.grid.ring;
        super::ring::spawn_ring(&mut commands, ring, game.battle().map, |_| None);
        if let Some(extent) = shown.extent.as_mut() {
            *extent = extent.max(super::ring::ring_extent(ring));
        }
    }
    built.write(TableBuilt { reframe: true });
}

/// Spawns a battle's map, one tile a hex with the terrain `terrain` gives
/// it, and says what the table shows: the battle's table at its size, its
/// sides' colours. The caller has taken the old table away.
pub(crate) fn spawn_hex_table(
    commands: &mut Commands,
    battle: &Battle,
    terrain: impl Fn(Hex) -> Terrain,
    shown: &mut TableShown,
) {
    let map = battle.setup.map;
    let table = battle.table();
    let size = map_size(map);
    *shown = TableShown {
        surface: Some(sandtable_core::game::Surface::Hexes {
            columns: map.columns,
            rows: map.rows,
        }),
        extent: Some(Vec2::new(
            size.x.max((table.table_mm.0 / table.hex_mm) as f32 * HEX),
            size.y.max((table.table_mm.1 / table.hex_mm) as f32 * HEX),
        )),
        physical: None,
        colours: battle.colours.clone(),
        models: Vec::new(),
        folder: None,
    };
    for hex in map.hexes() {
        commands.spawn((
            HexTile {
                hex,
                terrain: terrain(hex),
            },
            TablePiece,
            Transform::from_translation(hex_center(map, hex)),
            Visibility::default(),
        ));
    }
}

/// What the table shows of one side's stack in a hex: its armed men and
/// each piece's count, in the order of [`stack_pieces`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shown {
    men: sandtable_warpspawn::Men,
    pieces: [(Slot, u16); 7],
}

/// Spawns what one side has in a hex: its armed men as a formation and each
/// piece with a count, at the hex's place; returns the entities.
pub(crate) fn spawn_stack(
    commands: &mut Commands,
    map: sandtable_warpspawn::Map,
    hex: Hex,
    side: Side,
    men: sandtable_warpspawn::Men,
    pieces: &[(Slot, u16)],
) -> Vec<Entity> {
    let at = hex_center(map, hex);
    let mut entities = Vec::new();
    if !men.is_empty() {
        entities.push(
            commands
                .spawn((
                    Formation {
                        hex,
                        side,
                        infantry: men.inf,
                        cavalry: men.cav,
                    },
                    TablePiece,
                    Transform::from_translation(at),
                    Visibility::default(),
                ))
                .id(),
        );
    }
    for (slot, count) in pieces.iter().copied() {
        if count > 0 {
            entities.push(
                commands
                    .spawn((
                        BattlePiece {
                            hex,
                            side,
                            slot,
                            count,
                        },
                        TablePiece,
                        Transform::from_translation(at + slot.place()),
                        Visibility::default(),
                    ))
                    .id(),
            );
        }
    }
    entities
}

/// The pieces beside a stack's armed men, each with how many it stands for.
fn stack_pieces(st: &sandtable_warpspawn::Stack) -> [(Slot, u16); 7] {
    [
        (Slot::Cannon, u16::from(st.cannon)),
        (Slot::Officer, st.armed.officers),
        (Slot::Baggage, u16::from(st.baggage)),
        (Slot::Flag, u16::from(st.flags)),
        (Slot::Routers, st.routing.heads()),
        (Slot::Prisoners, st.prisoners.heads()),
        (Slot::Unarmed, st.unarmed.heads()),
    ]
}

/// The stacks on the table, each with what it shows, its entities, and the
/// pass of [`sync_battle_pieces`] that last found it in the game.
#[derive(Default)]
pub struct ShownStacks {
    stacks: std::collections::HashMap<(Hex, Side), (Shown, Vec<Entity>, u64)>,
    pass: u64,
}

/// The battle's formations and pieces follow the game: at every change of
/// it (a march, a loss, a rout), the stacks that changed are built again
/// and those gone are taken away; the rest stand as they are. A new table
/// builds them all.
pub fn sync_battle_pieces(
    mut commands: Commands,
    mut loaded: MessageReader<BattleLoaded>,
    battle: Option<Res<ActiveBattle>>,
    mut shown: Local<ShownStacks>,
    mut seen: Local<Option<u64>>,
) {
    let fresh = loaded.read().count() > 0;
    let Some(active) = battle else {
        return;
    };
    if !fresh && *seen == Some(active.revision) {
        return;
    }
    // A new table's builder took the old pieces away with the rest.
    if fresh {
        shown.stacks.clear();
    }
    *seen = Some(active.revision);
    shown.pass += 1;
    let pass = shown.pass;
    let game = &active.game;
    let map = game.battle().map;
    for st in game.stacks() {
        let want = Shown {
            men: st.armed.men,
            pieces: stack_pieces(st),
        };
        let key = (st.hex, st.side);
        if let Some((was, _, found)) = shown.stacks.get_mut(&key)
            && *was == want
        {
            *found = pass;
            continue;
        }
        if let Some((_, entities, _)) = shown.stacks.remove(&key) {
            for e in entities {
                commands.entity(e).despawn();
            }
        }
        let entities = spawn_stack(&mut commands, map, st.hex, st.side, want.men, &want.pieces);
        shown.stacks.insert(key, (want, entities, pass));
    }
    // Stacks no longer in the game leave the table.
    shown.stacks.retain(|_, (_, entities, found)| {
        let here = *found == pass;
        if !here {
            for e in entities.drain(..) {
                commands.entity(e).despawn();
            }
        }
        here
    });
}

/// The hex under the pointer, if any ([`crate::picking::Hovered`]).
pub fn hovered_hex(hovered: &crate::picking::Hovered) -> Option<Hex> {
    hovered.0.and_then(Hex::from_spot)
}

impl crate::picking::OnSpot for HexTile {
    fn spot(&self) -> sandtable_core::game::Spot {
        self.hex.spot()
    }
}

impl crate::picking::OnSpot for BattlePiece {
    fn spot(&self) -> sandtable_core::game::Spot {
        self.hex.spot()
    }
}
