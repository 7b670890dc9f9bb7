//! The grid plugged into the battle where the battle asks
//! ([`crate::off_map`], [`crate::off_map_rules`]): its setup block,
//! switches, state, commands and events are the battle's off-map values,
//! and its rules answer the battle's hooks (R40-R57). Here too are the
//! battle's types with the grid in them, which the crate's root gives its
//! users.

use sandtable_core::game::Legal;

use super::command::GridCommand;
use super::counter::{Composition, command_words, read_pieces};
use super::event::RingEvent;
use super::fight::{GridSwitches, StandoffRule, SuperiorNumbers};
use super::ring::{Ring, Square};
use super::setup::{OffboardSetup, problems};
use super::state::{CounterFirePlan, EnterPlan, GridState, MarchOffPlan};
use crate::command::CommandError;
use crate::hex::{Edge, Hex, Map};
use crate::men::{Men, Pick};
use crate::off_map::{OffMap, Problem, ShotAt};
use crate::off_map_rules::OffMapRules;
use crate::terms::Side;
use crate::words::Words;

/// The off-board grid, as the battle's off-map system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Offboard;

/// A battle with the off-board grid round it, or without one.
pub type Game = crate::game::Game<Offboard>;
/// Its state.
pub type State = crate::game::State<Offboard>;
/// What does not change in it.
pub type Battle = crate::game::Battle<Offboard>;
/// A command of it.
pub type Command = crate::command::Command<Offboard>;
/// Something that happened in it.
pub type Event = crate::event::Event<Offboard>;
/// Everything it starts from.
pub type Setup = crate::setup::Setup<Offboard>;
/// Its house rules.
pub type Switches = crate::setup::Switches<Offboard>;

impl OffMap for Offboard {
    type Setup = OffboardSetup;
    type Switches = GridSwitches;
    type State = GridState;
    type Command = GridCommand;
    type Place = Square;
    type Pieces = Composition;
    type Event = RingEvent;
    type EnterPlan = EnterPlan;
    type MarchOffPlan = MarchOffPlan;
    type FirePlan = CounterFirePlan;

    const VERBS: &'static [&'static str] = &[
        "order", "split", "merge", "commit", "forces", "cancel", "fallback",
    ];
    const VERBS_WORDS: &'static str =
        "on the off-board grid enter, order, split, merge, commit, forces, cancel or fallback";

    fn problems(
        setup: Option<&OffboardSetup>,
        switches: &GridSwitches,
        map: Map,
        sides: usize,
    ) -> Vec<Problem> {
        if let Some(setup) = setup {
            return problems(setup, map, sides);
        }
        let mut out = Vec::new();
        if switches.superior_numbers != SuperiorNumbers::default() {
            out.push((
                "house_rules.superior_numbers".to_owned(),
                Some(52),
                "superior numbers switch the off-board grid's fights; this battle has no `offboard` block".to_owned(),
            ));
        }
        if switches.standoff != StandoffRule::default() {
            out.push((
                "house_rules.standoff".to_owned(),
                Some(53),
                "the standoff switches the off-board grid's fights; this battle has no `offboard` block".to_owned(),
            ));
        }
        out
    }

    fn points_doubled(setup: &OffboardSetup, side: usize) -> u64 {
        setup
            .counters
            .iter()
            .filter(|c| c.side == side)
            .map(|c| c.as_pieces().cost_doubled())
            .sum()
    }

    fn start(setup: &OffboardSetup, map: Map, homes: [Edge; 2]) -> GridState {
        let ring = Ring::new(map, setup.span).expect("a validated span divides the map");
        GridState::new(setup, ring, homes)
    }

    fn shot(plan: &CounterFirePlan) -> ShotAt {
        ShotAt {
            modifiers: plan.shot.modifiers.clone(),
            modifier: plan.shot.modifier(),
            men: plan.target_men,
            target: format!("counter {} in {}", plan.id.number, plan.square),
        }
    }

    fn parse_command(text: &str) -> Result<GridCommand, String> {
        text.parse::<GridCommand>().map_err(|e| e.reason)
    }

    fn parse_pieces(w: &mut Words<'_>) -> Result<Composition, String> {
        read_pieces(w)
    }

    fn pieces_words(pieces: &Composition) -> String {
        command_words(pieces)
    }

    fn event_words(event: &RingEvent, names: &[String; 2]) -> String {
        event.words(names)
    }
}

impl OffMapRules for Offboard {
    fn begin_turn(game: &mut Game, events: &mut Vec<Event>) {
        game.begin_orders(events);
    }

    fn after_move(game: &mut Game, side: Side, events: &mut Vec<Event>) {
        game.look(side, events);
    }

    fn check(game: &Game, side: Side, command: &GridCommand) -> Result<(), CommandError> {
        game.check_grid(side, command)
    }

    fn legal(game: &Game, side: Side) -> Vec<GridCommand> {
        game.grid_legal(side)
    }

    fn commands_into(game: &Game, side: Side, out: &mut Vec<Legal<Command>>) {
        game.ring_commands_into(side, out);
    }

    fn listed_as(game: &Game, command: &Command) -> Option<Command> {
        game.ring_listed_as(command)
    }

    fn owed_words(game: &Game, side: usize, viewer: Option<usize>) -> String {
        game.grid_owed_words(side, viewer)
    }

    fn plan_enter(
        game: &Game,
        counter: u16,
        hex: Hex,
        pieces: Option<Composition>,
    ) -> Result<EnterPlan, CommandError> {
        game.plan_enter(counter, hex, pieces)
    }

    fn enter(game: &mut Game, plan: &EnterPlan, events: &mut Vec<Event>) {
        game.enter(plan, events);
    }

    fn plan_march_off(
        game: &Game,
        from: Hex,
        place: Option<Square>,
        pick: Option<Pick>,
    ) -> Result<MarchOffPlan, CommandError> {
        game.plan_march_off(from, place, pick)
    }

    fn march_off(game: &mut Game, plan: &MarchOffPlan, events: &mut Vec<Event>) {
        game.march_off(plan, events);
    }

    fn plan_fire(
        game: &Game,
        cannon: Hex,
        place: Square,
        counter: u16,
        crew: Option<Men>,
    ) -> Result<CounterFirePlan, CommandError> {
        game.plan_fire_at_counter(cannon, place, counter, crew)
    }

    fn fire(game: &mut Game, plan: &CounterFirePlan, roll: u8, events: &mut Vec<Event>) {
        game.fire_at_counter(plan, roll, events);
    }

    fn men(game: &Game, side: Side, counter: u16) -> Men {
        game.ring_men(side, counter)
    }

    fn plan_lose(game: &Game, counter: u16, men: Men) -> Result<(), CommandError> {
        game.plan_lose_in_ring(counter, men)
    }

    fn kill(game: &mut Game, side: Side, counter: u16, men: Men, events: &mut Vec<Event>) {
        game.kill_in_ring(side, counter, men, events);
    }
}
