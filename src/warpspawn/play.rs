//! Playing a battle with the mouse: the person clicks what acts, then where
//! (a cannon then its target, a formation then a hex, attackers then the
//! defender, routers then the formation they rally on); the panel shows the
//! commands that fit those two clicks, each with its odds from the
//! contract, and plays the one chosen. Decisions owed by a side (casualties,
//! the free advance, rout moves, R64) are listed for that side, after a
//! hand-over in hot-seat. Everything goes through the game contract: the
//! legal list, `check`, `odds` and `apply`, so the table never works a rule
//! out again.

use bevy::prelude::*;
use sandtable_core::game::{GameState, Legal, Odds, Seat};
use sandtable_warpspawn::{AttackPlan, Command, Event, FirePlan, Game, Hex, Phase, Pick, Side};

use super::table::{ActiveBattle, Warpspawn};
use crate::schedule::AppSystems;
use crate::session::dice::TypedRolls;
use crate::session::game::{settle_handover, start_turn};
use crate::session::{Notice, Seat as TableSeat, Seats};

pub(super) fn plugin(app: &mut App) {
    crate::session::bots::add_bots::<Warpspawn>(app);
    app.add_message::<BattleInput>()
        .add_message::<BotMove>()
        .add_message::<crate::picking::TableClick>()
        .add_message::<crate::picking::Drag>()
        .add_systems(
            Update,
            (read_battle_clicks, read_battle_drags).in_set(AppSystems::RecordInput),
        )
        .init_resource::<BattlePick>()
        .init_resource::<BattleChoices>()
        .init_resource::<BattleHint>()
        .init_resource::<BattleDrag>()
        .init_resource::<crate::camera::WheelTaken>()
        .add_systems(
            Update,
            (
                (
                    read_battle_keys,
                    crate::session::keys::read_undo_keys::<Warpspawn>,
                    read_drag_wheel,
                )
                    .in_set(AppSystems::RecordInput),
                think_of_battle_hint.in_set(AppSystems::RecordInput),
                (
                    start_turn::<Warpspawn>,
                    play_bot_moves,
                    battle_input,
                    crate::session::game::undo_commands::<Warpspawn>,
                    crate::session::save_game::<ActiveBattle>,
                    forget_pick_after_undo,
                )
                    .chain()
                    .in_set(crate::schedule::FlowSteps::Play),
                settle_handover::<Warpspawn>.in_set(crate::schedule::FlowSteps::Follow),
                crate::session::game::start_new_game::<Warpspawn>
                    .in_set(crate::schedule::FlowSteps::NewGame),
                list_choices.in_set(AppSystems::SyncTable),
            )
                // Each asks on its own: a file opened in between takes the
                // battle away in the middle of a frame. Nothing is played
                // in layout mode.
                .distributive_run_if(resource_exists::<ActiveBattle>)
                .distributive_run_if(in_state(crate::mode::Mode::Play)),
        )
        .add_systems(
            Update,
            forget_the_last_battle
                .run_if(
                    on_message::<super::BattleLoaded>.or_eager(resource_removed::<ActiveBattle>),
                )
                .in_set(AppSystems::SyncTable)
                .before(list_choices),
        )
        .add_systems(
            Update,
            crate::session::answer_dialogs::<ActiveBattle>
                .in_set(crate::schedule::FlowSteps::Answers),
        );
    crate::session::closing_plugin::<ActiveBattle>(app);
}

impl crate::session::GameInPlay for ActiveBattle {
    fn has_unsaved_work(&self) -> bool {
        ActiveBattle::has_unsaved_work(self)
    }

    fn save(
        &mut self,
        seats: &crate::session::Seats,
        to: Option<&std::path::Path>,
        replace: bool,
    ) -> Result<String, crate::session::files::SaveError> {
        let path = super::files::save_battle(self, &seats.0, to, replace)?;
        Ok(format!("saved to {}", path.display()))
    }
}

/// What the person does at the battle's table: every click and button of
/// the battle comes here, so that the panel and the table only ask.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum BattleInput {
    /// A hex, or a piece in it, was clicked.
    Click(Hex),
    /// The part of the selected march that goes, for a split (R69-R71).
    Split(Pick),
    /// Play the choice on show with this index.
    Play(usize),
    /// Play a command typed in the move notation, or one a button stands
    /// for (End phase).
    Command(Command),
    /// Let go of the selection.
    Cancel,
    /// Roll real dice beside the table and type them in (`true`), or let
    /// the generator roll (R30).
    RealDice(bool),
    /// The left button went down on a hex and moved: what acts there is
    /// dragged (in the March, the formation's pieces that may go).
    Grab(Hex),
    /// While a march is dragged, this many more infantry and cavalry go
    /// with it (fewer where negative): a split (R69-R71).
    DragMen {
        /// Infantry.
        inf: i16,
        /// Cavalry.
        cav: i16,
    },
    /// The drag was let go on a hex: a march goes there; in another phase
    /// the hex is where the selection acts, as a second click.
    Drop(Hex),
    /// The drag ended, on a hex or off the table.
    Release,
    /// Print the battle's setup sheet (A4 PDF) beside its battle file.
    PrintSheet,
}

/// A drag on the battle's table, from the press on a hex until the button
/// is let go. In the March it carries what goes: everything that may go
/// from the hex to begin with, fewer men as the wheel turns back (Shift:
/// cavalry), so that letting go of part of a formation splits it (R69-R71).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BattleDrag {
    /// The hex dragged from, while the button is held.
    pub from: Option<Hex>,
    /// For a march: the most that may go from there (the largest march the
    /// list has from the hex), and what goes; `None` in other phases.
    pub march: Option<(Pick, Pick)>,
    /// The selection before the drag began: a press that barely moves is a
    /// click, and picks from what was selected before it.
    pub before: BattlePick,
}

impl BattleDrag {
    /// The split the drag makes: what goes, where it is less than the
    /// most; `None` for the march the list has.
    pub fn split(&self) -> Option<Pick> {
        self.march
            .and_then(|(most, part)| (part != most).then_some(part))
    }
}

/// The person's selection: what acts (`from`) and where (`to`), and for a
/// march the part that goes.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BattlePick {
    /// The hex of the cannon, formation or routers that acts.
    pub from: Option<Hex>,
    /// The hex it marches to, fires at, attacks or rallies on.
    pub to: Option<Hex>,
    /// The part of a march that goes; `None` for what the list moves.
    pub split: Option<Pick>,
}

/// A command the panel offers for the selection, with what the person
/// needs to know before playing it.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The command, with the split applied to a march.
    pub command: Command,
    /// The legal command of the contract's list it comes from.
    pub listed: Legal<Command>,
    /// The odds of its dice (R67, R68, R74-R76, R79), empty when none
    /// decide it.
    pub odds: Vec<Odds>,
    /// Why the rules refuse it (a split that may not go), if they do.
    pub refused: Option<String>,
    /// For a march that the rules let only part of the selection make:
    /// what goes, and why the rest may not (`only officer 1 can take this
    /// path: J5 is bocage ... (R69)`), said before Play.
    pub left_behind: Option<String>,
    /// For a shot: its range, line (R66), modifiers (R67) and the friendly
    /// formations on its line (R68).
    pub fire: Option<FirePlan>,
    /// For a melee: both strengths and the table's row (R72-R74).
    pub attack: Option<AttackPlan>,
}

/// What the table shows of the legal list for the side that decides now,
/// worked out again only when the game or the selection changes.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct BattleChoices {
    /// The game's revision and the selection it was worked out for.
    seen: Option<(u64, BattlePick)>,
    /// The side that decides, when a person decides now.
    pub side: Option<Side>,
    /// Hexes of what may act now (lit when nothing is selected).
    pub movers: Vec<Hex>,
    /// Hexes the selection may go to, fire at, attack or rally on.
    pub targets: Vec<Target>,
    /// The commands for the selection, or every answer of an owed decision.
    pub choices: Vec<Choice>,
    /// Why the phase may not end now (a roll or a move still owed), or
    /// `None` when it may.
    pub end_refused: Option<String>,
}

/// The battle's hint: the command a bot of
/// [`HINT_STRENGTH`](crate::session::HINT_STRENGTH) would play, asked
/// for with [`HintRequest`](crate::session::HintRequest), for one
/// revision of the battle.
pub type BattleHint = crate::session::bots::Hint<Warpspawn>;

/// Starts a hint when asked, while a person decides, and shows it once the
/// bot has thought: in the notice, and as the selection, so that the panel
/// lists it with its odds before it is played. A hint for a battle that
/// moved on meanwhile is dropped.
fn think_of_battle_hint(
    mut requests: MessageReader<crate::session::HintRequest>,
    mut hint: ResMut<BattleHint>,
    active: Res<ActiveBattle>,
    seats: Res<Seats>,
    mut pick: ResMut<BattlePick>,
    mut notice: ResMut<Notice>,
) {
    crate::session::bots::ask_hint(
        requests.read().count() > 0,
        &mut hint,
        &active,
        || person_may_not_play(&active, &seats),
        &mut notice,
    );
    let command = match hint.ready(&active) {
        None => return,
        Some(Err(_)) => {
            notice.info("the battle moved on: ask for a new hint");
            return;
        }
        Some(Ok(command)) => command,
    };
    let game = &*active.game;
    let side = table_decider(&active).expect("a person decides");
    let mut legal = Vec::new();
    GameState::legal_into(game, seat(side), &mut legal);
    let listed = GameState::listed_as(game, &command);
    if game.owed().is_none()
        && let Some(l) = legal.iter().find(|l| l.command == listed)
        && let (Some(from), Some(to)) = (l.piece.and_then(Hex::from_spot), at(l))
    {
        *pick = BattlePick {
            from: Some(from),
            to: Some(to),
            split: march_pick(game, &command).filter(|_| command != listed),
        };
    }
    notice.info(format!(
        "hint: `{command}`, as a bot of strength {} would play",
        crate::session::HINT_STRENGTH
    ));
}

/// A battle was opened, or the battle left the table for a game of
/// another system: what the table held of the battle before (the
/// selection, a drag, a hint, a bot's thought) goes with it.
fn forget_the_last_battle(
    mut commands: Commands,
    mut pick: ResMut<BattlePick>,
    mut drag: ResMut<BattleDrag>,
    mut hint: ResMut<BattleHint>,
    mut choices: ResMut<BattleChoices>,
    mut wheel: ResMut<crate::camera::WheelTaken>,
) {
    // Set, not merely left alone, so that the lit hexes follow.
    *pick = BattlePick::default();
    *drag = BattleDrag::default();
    *hint = BattleHint::default();
    *choices = BattleChoices::default();
    wheel.0 = false;
    commands.remove_resource::<crate::session::bots::Thinking<Warpspawn>>();
    commands.remove_resource::<crate::session::bots::LastBotMove<Warpspawn>>();
}

/// The contract's seat of a side.
pub fn seat(side: Side) -> Seat {
    Seat(u16::from(side.0))
}

/// Whether `command` acts from `hex`: the cannon that fires, the hex a march
/// leaves, any of the attackers' hexes, the routers that rally or rout, the
/// hex that loses men, any hex a free advance comes from.
pub fn acts_from(command: &Command, hex: Hex) -> bool {
    match *command {
        Command::Fire { cannon, .. } => cannon == hex,
        Command::March { from, .. } => from == hex,
        Command::Attack { from, .. } => from.as_slice().contains(&hex),
        Command::Lose { hex: h, .. } => h == hex,
        Command::Advance { from, .. } => from.as_slice().iter().any(|(h, _)| *h == hex),
        Command::Rally { routers, .. } => routers == hex,
        Command::Rout { from, .. } => from == hex,
        // The grid's commands act on the ring, which the table does not
        // show yet.
        Command::MarchOff { from, .. } => from == hex,
        Command::FireAtCounter { cannon, .. } => cannon == hex,
        Command::End | Command::Grid(_) | Command::Enter { .. } | Command::LoseInRing { .. } => {
            false
        }
    }
}

/// Where a listed command goes: the hex its `at` names.
fn at(legal: &Legal<Command>) -> Option<Hex> {
    legal.at.and_then(Hex::from_spot)
}

/// A few words for a hex the selection may reach, from the first command of
/// the list that goes there: a march's length, a shot's expected
/// casualties (R67), a melee's ratio row (R74), a rally's roll (R79).
/// For a listed march of part of a stack: what goes, and the rules' reason
/// the whole stack may not take that path; `None` where the whole may, or
/// the march is the whole stack's.
fn left_behind(game: &Game, side: Side, march: &Command) -> Option<String> {
    let Command::March {
        from,
        path,
        pick: Some(pick),
    } = *march
    else {
        return None;
    };
    let whole = Command::March {
        from,
        path,
        pick: None,
    };
    let why = GameState::check(game, seat(side), &whole).err()?;
    Some(format!(
        "only {} can take this path: {why}",
        pick_words(&pick)
    ))
}

/// What a march takes, in words, as the log will say it.
fn pick_words(pick: &Pick) -> String {
    sandtable_warpspawn::marching_words(
        sandtable_warpspawn::Band {
            men: pick.men,
            officers: pick.officers,
        },
        pick.cannon,
        pick.baggage,
        pick.flag,
        pick.prisoners,
        pick.unarmed,
    )
}

/// A hex the selection may act on, with what acting there does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The hex.
    pub hex: Hex,
    /// Its label on the table, a few characters so that the labels of
    /// neighbouring hexes do not cover each other: a march's length in
    /// hexes ("2"; "2, part" when only part of the stack can go), a
    /// shot's expected casualties, a melee's row.
    pub label: String,
    /// What acting there does, in words, shown while the pointer is over
    /// the hex: "March 2 hexes: only 6 cavalry and 1 officer", "Attack on
    /// the 3:2 row", "Fire: ~1.7 killed".
    pub words: String,
    /// Whether acting there is a march.
    pub march: bool,
}

/// The target `legal` makes of `hex`.
fn target(game: &Game, side: Side, legal: &Legal<Command>, hex: Hex) -> Target {
    let few = target_words(game, side, legal);
    let (label, words) = match legal.command {
        Command::March { path, .. } => {
            let n = path.as_slice().len();
            let label = if few.contains(": only ") {
                format!("{n}, part")
            } else {
                n.to_string()
            };
            (label, format!("March {few}"))
        }
        Command::Fire { .. } if !few.is_empty() => (few.clone(), format!("Fire: {few}")),
        Command::Attack { .. } if !few.is_empty() => {
            (few.clone(), format!("Attack on the {few} row"))
        }
        _ => (few.clone(), few),
    };
    let march = matches!(legal.command, Command::March { .. });
    Target {
        hex,
        label,
        words,
        march,
    }
}

/// What acting on a hex does, in a few words (a march's hexes and what
/// goes, a shot's expected casualties, a melee's row).
fn target_words(game: &Game, side: Side, legal: &Legal<Command>) -> String {
    match legal.command {
        Command::March { path, .. } => {
            let length = match path.as_slice().len() {
                1 => "1 hex".to_owned(),
                n => format!("{n} hexes"),
            };
            match (legal.command, left_behind(game, side, &legal.command)) {
                (
                    Command::March {
                        pick: Some(pick), ..
                    },
                    Some(_),
                ) => {
                    format!("{length}: only {}", pick_words(&pick))
                }
                _ => length,
            }
        }
        Command::Fire { .. } => match game.fire_plan(side, &legal.command) {
            Some(plan) => {
                let total: u32 = (1..=6u8)
                    .map(|roll| {
                        u32::from(sandtable_warpspawn::casualties(
                            roll,
                            plan.modifier(),
                            plan.target_men,
                        ))
                    })
                    .sum();
                format!("~{:.1} killed", f64::from(total) / 6.0)
            }
            None => String::new(),
        },
        Command::Attack { .. } => match game.attack_plan(side, &legal.command) {
            Some(plan) => sandtable_warpspawn::MeleeRows::NAMES[plan.row].to_owned(),
            None => String::new(),
        },
        Command::Rally { .. } => "rally".to_owned(),
        Command::Rout { .. } => "rout here".to_owned(),
        Command::Lose { .. }
        | Command::Advance { .. }
        | Command::End
        | Command::Grid(_)
        | Command::Enter { .. }
        | Command::MarchOff { .. }
        | Command::FireAtCounter { .. }
        | Command::LoseInRing { .. } => String::new(),
    }
}

/// The command the person means by `pick`: the listed command with the
/// split applied, for a march.
fn with_split(command: Command, split: Option<Pick>) -> Command {
    match (command, split) {
        (Command::March { from, path, .. }, Some(pick)) => Command::March {
            from,
            path,
            pick: Some(pick),
        },
        (command, _) => command,
    }
}

/// What the listed march of a family moves: its own pick, or everything
/// that may march from the hex when it names none.
pub fn march_pick(game: &Game, command: &Command) -> Option<Pick> {
    let Command::March { from, pick, .. } = *command else {
        return None;
    };
    if pick.is_some() {
        return pick;
    }
    let st = game.stack(from, game.active())?;
    Some(Pick {
        men: st.armed.men,
        officers: st.armed.officers,
        cannon: st.cannon,
        baggage: st.baggage,
        flag: st.flags > 0,
        prisoners: st.prisoners.heads(),
        unarmed: st.unarmed.heads(),
    })
}

/// The side this table decides for now
/// ([`crate::session::game::ActiveGame::deciding_seat`]): at
/// one table the side to move; in a served game the table's own side when
/// it owes the decision, so that both sides write sealed orders at once.
pub fn table_decider(active: &ActiveBattle) -> Option<Side> {
    if active.outbox.is_none() {
        return active.game.decider();
    }
    active.deciding_seat().map(|s| Side(s.0 as u8))
}

/// Works the choices out again when the game or the selection changed.
pub fn list_choices(
    active: Res<ActiveBattle>,
    pick: Res<BattlePick>,
    seats: Res<Seats>,
    mut choices: ResMut<BattleChoices>,
    ring: Res<super::ring_play::RingPick>,
) {
    let key = (active.revision, *pick);
    // A seat given to a bot or a person lists anew, and so does a counter
    // picked to enter.
    if choices.seen == Some(key) && !seats.is_changed() && !ring.is_changed() {
        return;
    }
    let game = &*active.game;
    let mut out = BattleChoices {
        seen: Some(key),
        ..default()
    };
    let Some(side) =
        table_decider(&active).filter(|s| seats.of(usize::from(s.0)) == TableSeat::Person)
    else {
        *choices = out;
        return;
    };
    out.side = Some(side);
    let mut legal = Vec::new();
    GameState::legal_into(game, seat(side), &mut legal);
    out.end_refused = GameState::check(game, seat(side), &Command::End)
        .err()
        .map(|e| e.to_string());
    let mut movers: Vec<Hex> = legal
        .iter()
        .filter_map(|l| l.piece.and_then(Hex::from_spot))
        .collect();
    // Every attacker of a melee acts from its hex.
    for l in &legal {
        if let Command::Attack { from, .. } = l.command {
            movers.extend_from_slice(from.as_slice());
        }
    }
    movers.sort_unstable();
    movers.dedup();
    out.movers = movers;
    let owed = game.owed().is_some();
    if let Some(from) = pick.from {
        for l in legal.iter().filter(|l| acts_from(&l.command, from)) {
            let Some(to) = at(l) else { continue };
            match out.targets.iter_mut().find(|t| t.hex == to) {
                None => out.targets.push(target(game, side, l, to)),
                // Where the whole stack may march too, it is no part's hex.
                Some(t) if matches!(l.command, Command::March { pick: None, .. }) => {
                    *t = target(game, side, l, to);
                }
                Some(_) => {}
            }
        }
    }
    // A counter picked to enter: the hexes it may come on at (R48).
    if ring.entering
        && let Some(counter) = ring.counter
    {
        for l in &legal {
            if let Command::Enter {
                counter: n, hex, ..
            } = l.command
                && n == counter
                && !out.targets.iter().any(|t| t.hex == hex)
            {
                out.targets.push(Target {
                    hex,
                    label: "in".to_owned(),
                    words: format!("counter {counter} enters here (R48)"),
                    march: false,
                });
            }
        }
    }
    let shown = legal.iter().filter(|l| match (pick.from, pick.to) {
        (Some(from), Some(to)) => acts_from(&l.command, from) && at(l) == Some(to),
        // An owed decision lists every answer, or those of the hex clicked.
        (Some(from), None) => owed && acts_from(&l.command, from),
        (None, _) => owed && l.command != Command::End,
    });
    for l in shown {
        let command = with_split(l.command, pick.split);
        // A split makes the slow and the fast march to a hex one command.
        if out.choices.iter().any(|c| c.command == command) {
            continue;
        }
        let refused = GameState::check(game, seat(side), &command)
            .err()
            .map(|e| e.to_string());
        let left_behind = match (pick.split, l.command) {
            (None, Command::March { .. }) => left_behind(game, side, &l.command),
            _ => None,
        };
        out.choices.push(Choice {
            command,
            listed: *l,
            odds: GameState::odds(game, seat(side), &command),
            refused,
            left_behind,
            fire: game.fire_plan(side, &command),
            attack: game.attack_plan(side, &command),
        });
    }
    *choices = out;
}

/// The command a click on `to` with `from` selected would most plainly be
/// in this phase, for the rules to explain why it is refused.
fn plain_command(phase: Phase, from: Hex, to: Hex) -> Command {
    match phase {
        Phase::Cannonade => Command::Fire {
            cannon: from,
            target: to,
            routers: false,
            crew: None,
        },
        Phase::March => Command::March {
            from,
            path: sandtable_warpspawn::Hexes::one(to),
            pick: None,
        },
        Phase::Melee => Command::Attack {
            target: to,
            from: sandtable_warpspawn::Hexes::one(from),
        },
        Phase::Rally => Command::Rally {
            routers: from,
            with: to,
        },
    }
}

/// Why a click on `hex` selects nothing, in the rules' words where the
/// side's pieces stand there: the refusal of the first thing they would try
/// toward a neighbour (an attack on the enemy beside them, a march, a rally;
/// a cannon's shot at the nearest enemy), else that nothing of the side's
/// is there, and where to look instead: the lit hexes, or End phase when
/// none is lit.
fn why_nothing_acts(game: &Game, side: Side, hex: Hex, legal: &[Legal<Command>]) -> String {
    let phase = game.phase();
    if game.stack(hex, side).is_some() {
        let enemy = side.other();
        let mut targets: Vec<Hex> = game
            .battle()
            .neighbours(hex)
            .iter()
            .copied()
            .filter(|n| match phase {
                Phase::Melee => game.stack(*n, enemy).is_some(),
                _ => true,
            })
            .collect();
        if phase == Phase::Cannonade {
            // The nearest enemy, wherever it stands.
            targets = game
                .stacks()
                .iter()
                .filter(|s| s.side == enemy)
                .min_by_key(|s| s.hex.distance(hex))
                .map(|s| vec![s.hex])
                .unwrap_or_default();
        }
        if let Some(why) = targets
            .into_iter()
            .find_map(|to| GameState::check(game, seat(side), &plain_command(phase, hex, to)).err())
        {
            return why.to_string();
        }
    }
    let lit = if legal.iter().any(|l| l.piece.is_some()) {
        "the lit hexes can"
    } else {
        "none can: End phase (Enter) ends it"
    };
    format!(
        "nothing of {}'s there can act now, in the {:?} phase; {lit} (R64)",
        game.name(side),
        phase
    )
}

/// Why the person may not play now, if they may not: a hand-over to
/// confirm, a bot's decision, or a battle over.
pub(super) fn person_may_not_play(active: &ActiveBattle, seats: &Seats) -> Option<String> {
    if active.handover.is_some() {
        return Some("confirm the hand-over first".to_owned());
    }
    match table_decider(active) {
        None if active.outbox.is_some() && active.game.decider().is_some() => Some(format!(
            "it is {}'s decision",
            active
                .game
                .name(active.game.decider().expect("a side decides"))
        )),
        None => Some("the battle is over".to_owned()),
        Some(side) if seats.of(usize::from(side.0)) != TableSeat::Person => Some(format!(
            "it is {}'s decision, and a bot plays {} (R64)",
            active.game.name(side),
            active.game.name(side)
        )),
        Some(_) => None,
    }
}

/// The side a person decides for now and its legal list, or why no person
/// may play now.
pub(super) fn person_legal(
    active: &ActiveBattle,
    seats: &Seats,
) -> Result<(Side, Vec<Legal<Command>>), String> {
    if let Some(why) = person_may_not_play(active, seats) {
        return Err(why);
    }
    let side = table_decider(active).expect("a person decides");
    let mut legal = Vec::new();
    GameState::legal_into(&*active.game, seat(side), &mut legal);
    Ok((side, legal))
}

/// The person's clicks and buttons: a click selects what acts, then where;
/// a choice is played through the contract; a refused one changes nothing
/// and its reason, with the ruling, goes to the notice.
#[allow(clippy::too_many_arguments)]
pub fn battle_input(
    mut inputs: MessageReader<BattleInput>,
    mut active: ResMut<ActiveBattle>,
    seats: Res<Seats>,
    mut pick: ResMut<BattlePick>,
    choices: Res<BattleChoices>,
    mut notice: ResMut<Notice>,
    mut typed: ResMut<TypedRolls>,
    mut drag: ResMut<BattleDrag>,
    mut wheel: ResMut<crate::camera::WheelTaken>,
    mut ring: ResMut<super::ring_play::RingPick>,
) {
    for input in inputs.read().copied() {
        match input {
            BattleInput::Cancel => {
                *pick = BattlePick::default();
                *drag = BattleDrag::default();
                *ring = super::ring_play::RingPick::default();
            }
            BattleInput::Grab(hex) => {
                *drag = BattleDrag::default();
                let (_, legal) = match person_legal(&active, &seats) {
                    Ok(listed) => listed,
                    Err(why) => {
                        notice.info(why);
                        continue;
                    }
                };
                let game = &*active.game;
                if !legal.iter().any(|l| acts_from(&l.command, hex)) {
                    // The click that may follow explains, with the rules.
                    continue;
                }
                drag.before = *pick;
                *pick = BattlePick {
                    from: Some(hex),
                    to: None,
                    split: None,
                };
                drag.from = Some(hex);
                drag.march = largest_march(game, &legal, hex).map(|most| (most, most));
                if let Some((_, part)) = drag.march {
                    notice.info(drag_words(hex, &part));
                }
            }
            BattleInput::DragMen { inf, cav } => {
                if let (Some(from), Some((most, part))) = (drag.from, drag.march.as_mut()) {
                    let step = |now: u16, by: i16, most: u16| {
                        (i32::from(now) + i32::from(by)).clamp(0, i32::from(most)) as u16
                    };
                    part.men.inf = step(part.men.inf, inf, most.men.inf);
                    part.men.cav = step(part.men.cav, cav, most.men.cav);
                    notice.info(drag_words(from, part));
                }
            }
            BattleInput::Release => *drag = BattleDrag::default(),
            BattleInput::PrintSheet => {
                let out = crate::session::files::sheet_path(&active.source);
                match crate::warpspawn::files::print_battle_sheet(&active.setup, &out) {
                    Ok(out) => notice.info(format!("sheet written to {}", out.display())),
                    Err(e) => notice.error(e),
                }
            }
            BattleInput::Drop(to) => {
                let Some(from) = drag.from else {
                    continue;
                };
                let split = drag.split();
                let most = drag.march.map(|(most, _)| most);
                let march = most.is_some();
                *drag = BattleDrag::default();
                if to == from {
                    // Let go where it was pressed: a click, which picks.
                    continue;
                }
                let Ok((side, legal)) = person_legal(&active, &seats) else {
                    continue;
                };
                let game = &*active.game;
                let listed = legal
                    .iter()
                    .find(|l| acts_from(&l.command, from) && at(l) == Some(to));
                let Some(listed) = listed else {
                    let command = match split {
                        Some(pick) => Command::March {
                            from,
                            path: sandtable_warpspawn::Hexes::one(to),
                            pick: Some(pick),
                        },
                        None => plain_command(game.phase(), from, to),
                    };
                    let why = match GameState::check(game, seat(side), &command) {
                        Err(e) => e.to_string(),
                        Ok(()) => {
                            format!("`{command}` is legal, but not as one drag: use the list")
                        }
                    };
                    notice.error(format!("{to}: {why}"));
                    continue;
                };
                *pick = BattlePick {
                    from: Some(from),
                    to: Some(to),
                    split,
                };
                // A march is played as it is let go, as a body of figures
                // is set down on a real table; a shot, a melee or a rally
                // shows its odds first, as after two clicks.
                if march && matches!(listed.command, Command::March { .. }) {
                    // What was dragged goes, all of it: where the list's
                    // march there moves less (cavalry alone two hexes
                    // away, a hex's limit), the rules say why it cannot.
                    let goes = match (split, most) {
                        (None, Some(most)) if march_pick(game, &listed.command) != Some(most) => {
                            Some(most)
                        }
                        _ => split,
                    };
                    let command = with_split(listed.command, goes);
                    // Refused, the panel holds it, to change what goes.
                    pick.split = goes;
                    if play_person(&mut active, command, &mut notice, &mut typed, &seats) {
                        *pick = BattlePick::default();
                    }
                } else {
                    notice.text = None;
                }
            }
            BattleInput::RealDice(on) => {
                let seed = active.setup.setup.seed;
                match active.use_real_dice(on, &seats, seed) {
                    Ok(words) => notice.info(words),
                    Err(why) => notice.error(why),
                }
            }
            BattleInput::Split(split) => {
                if pick.to.is_some() {
                    pick.split = Some(split);
                }
            }
            BattleInput::Click(hex) => {
                // A counter picked to enter comes on at the hex (R48).
                if super::ring_play::enter_at(
                    &mut active,
                    &seats,
                    &mut ring,
                    hex,
                    &mut notice,
                    &mut typed,
                ) {
                    *pick = BattlePick::default();
                    continue;
                }
                // The button let go where it went down: a click, as though
                // no drag had begun.
                if drag.from == Some(hex) {
                    *pick = drag.before;
                }
                let (side, legal) = match person_legal(&active, &seats) {
                    Ok(listed) => listed,
                    Err(why) => {
                        notice.info(why);
                        continue;
                    }
                };
                let game = &*active.game;
                let from_here = |from: Hex| {
                    legal
                        .iter()
                        .filter(move |l| acts_from(&l.command, from))
                        .filter_map(at)
                };
                // A hex may be its own target: routers rally on the
                // formation they stand with, clicked twice.
                if let Some(from) = pick.from
                    && pick.to != Some(hex)
                    && from_here(from).any(|to| to == hex)
                {
                    *pick = BattlePick {
                        from: Some(from),
                        to: Some(hex),
                        split: None,
                    };
                    notice.text = None;
                } else if legal.iter().any(|l| acts_from(&l.command, hex)) {
                    *pick = BattlePick {
                        from: Some(hex),
                        to: None,
                        split: None,
                    };
                    notice.text = None;
                } else if let Some(from) = pick.from {
                    // Not a hex the selection may reach: the rules say why.
                    let command = plain_command(game.phase(), from, hex);
                    let why = match GameState::check(game, seat(side), &command) {
                        Err(e) => e.to_string(),
                        Ok(()) => {
                            format!("`{command}` is legal, but not as one click: use the list")
                        }
                    };
                    notice.error(format!("{hex}: {why}"));
                } else {
                    notice.error(format!(
                        "{hex}: {}",
                        why_nothing_acts(game, side, hex, &legal)
                    ));
                }
            }
            BattleInput::Play(index) => {
                let Some(choice) = choices.choices.get(index) else {
                    notice.error("that choice is no longer on show");
                    continue;
                };
                if play_person(&mut active, choice.command, &mut notice, &mut typed, &seats) {
                    *pick = BattlePick::default();
                }
            }
            BattleInput::Command(command) => {
                if play_person(&mut active, command, &mut notice, &mut typed, &seats) {
                    *pick = BattlePick::default();
                }
            }
        }
    }
    // The wheel counts the men of a dragged march, not the camera's zoom.
    wheel.set_if_neq(crate::camera::WheelTaken(drag.march.is_some()));
}

/// The most that may march from `hex`: the pick of the listed march from
/// there that moves the most men (the first of them), everything the hex
/// may send where nothing cuts it.
fn largest_march(game: &Game, legal: &[Legal<Command>], hex: Hex) -> Option<Pick> {
    legal
        .iter()
        .filter(|l| matches!(l.command, Command::March { from, .. } if from == hex))
        .filter_map(|l| march_pick(game, &l.command))
        .fold(None, |best: Option<Pick>, p| match best {
            Some(b) if b.men.total() >= p.men.total() => Some(b),
            _ => Some(p),
        })
}

/// What a dragged march carries, and how to change it, in a few words.
fn drag_words(from: Hex, part: &Pick) -> String {
    let mut what = vec![format!("inf {} cav {}", part.men.inf, part.men.cav)];
    if part.officers > 0 {
        what.push(format!("officer {}", part.officers));
    }
    for (on, name) in [
        (part.cannon, "cannon"),
        (part.baggage, "baggage"),
        (part.flag, "flag"),
    ] {
        if on {
            what.push(name.to_owned());
        }
    }
    format!(
        "marching from {from}: {} (the wheel: fewer or more infantry; Shift and the wheel: cavalry); let go on a lit hex (R69-R71)",
        what.join(" ")
    )
}

/// The wheel while a march is dragged: a notch a man more (up) or fewer
/// (down) of the infantry, or with Shift of the cavalry.
fn read_drag_wheel(
    drag: Res<BattleDrag>,
    scroll: Option<Res<bevy::input::mouse::AccumulatedMouseScroll>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    mut inputs: MessageWriter<BattleInput>,
    mut rest: Local<f32>,
) {
    // The drag is over once the button is up, whether or not its end was
    // heard (the hex it began on may have been built again meanwhile).
    if drag.from.is_some() && buttons.is_some_and(|b| !b.pressed(MouseButton::Left)) {
        inputs.write(BattleInput::Release);
        return;
    }
    let Some(scroll) = scroll else {
        return;
    };
    if drag.march.is_none() {
        *rest = 0.0;
        return;
    }
    use bevy::input::mouse::MouseScrollUnit;
    // Some systems turn Shift and the wheel into a sideways scroll.
    let delta = if scroll.delta.y == 0.0 {
        scroll.delta.x
    } else {
        scroll.delta.y
    };
    *rest += match scroll.unit {
        MouseScrollUnit::Line => delta,
        MouseScrollUnit::Pixel => delta / 40.0,
    };
    let notches = rest.trunc();
    if notches == 0.0 {
        return;
    }
    *rest -= notches;
    let by = notches as i16;
    let shift = keys.is_some_and(|k| k.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]));
    inputs.write(if shift {
        BattleInput::DragMen { inf: 0, cav: by }
    } else {
        BattleInput::DragMen { inf: by, cav: 0 }
    });
}

/// Plays a person's command, if a person may play now, with the rolls typed
/// in when the dice are real; whether it was played.
pub(super) fn play_person(
    active: &mut ActiveBattle,
    command: Command,
    notice: &mut Notice,
    typed: &mut TypedRolls,
    seats: &Seats,
) -> bool {
    if let Some(why) = person_may_not_play(active, seats) {
        notice.info(why);
        return false;
    }
    let played = active.play_typed(command, typed).map(|_| ());
    match played {
        Ok(()) => {
            notice.text = None;
            true
        }
        Err(why) => {
            notice.error(why);
            false
        }
    }
}

/// Whether an event reports dice rolled, for the tray.
pub(crate) fn rolls_dice(event: &Event) -> bool {
    matches!(
        event,
        Event::Fired { .. }
            | Event::FriendlyFire { .. }
            | Event::Attacked { .. }
            | Event::FateRolled { .. }
            | Event::RallyRolled { .. }
    ) || matches!(event, Event::Ring(ring) if matches!(
        **ring,
        sandtable_warpspawn::offboard::event::RingEvent::Fought { .. }
            | sandtable_warpspawn::offboard::event::RingEvent::ShotAt { .. }
    ))
}

/// A command undone (R31: within the player turn and since the last roll)
/// lets go of the selection made before it.
fn forget_pick_after_undo(
    mut undone: MessageReader<crate::session::game::Undone>,
    mut pick: ResMut<BattlePick>,
) {
    if undone.read().count() > 0 {
        *pick = BattlePick::default();
    }
}

/// A bot's command, played through the battle's flow
/// ([`crate::session::bots`]).
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct BotMove(pub Command);

/// Plays the bots' commands; one refused is said in the notice.
fn play_bot_moves(
    mut moves: MessageReader<BotMove>,
    mut active: ResMut<ActiveBattle>,
    mut notice: ResMut<Notice>,
) {
    for BotMove(command) in moves.read().copied() {
        let seat = sandtable_core::game::next_seat(active.game.game()).unwrap_or(Seat(0));
        // The command as the person at the table may read it (R57).
        let words = GameState::command_for(active.game.game(), seat, &command, active.viewer)
            .map_or_else(|| "sealed command".to_owned(), |c| format!("`{c}`"));
        if let Err(why) = active.play(command) {
            notice.error(format!("the bot's {words} was refused: {why}"));
        }
    }
}

/// A click on the table, in play and in layout mode: on a hex or a piece
/// in it, the left button picks what acts or where it goes (in layout
/// mode, what the tool does there); on a square of the off-board ring or a
/// token on it, the same for the ring ([`RingInput`]). The right button
/// lets go of the selection.
///
/// [`RingInput`]: super::ring_play::RingInput
fn read_battle_clicks(
    mut clicks: MessageReader<crate::picking::TableClick>,
    mut out: MessageWriter<BattleInput>,
    mut ring: MessageWriter<super::ring_play::RingInput>,
) {
    use super::ring_play::RingInput;
    use crate::picking::ClickButton::{Primary, Secondary};
    use sandtable_warpspawn::offboard::ring::Square;
    for click in clicks.read() {
        if let Some(hex) = Hex::from_spot(click.spot) {
            out.write(match click.button {
                Primary => BattleInput::Click(hex),
                Secondary => BattleInput::Cancel,
            });
        } else if let Some(sq) = Square::from_spot(click.spot) {
            ring.write(match click.button {
                Primary => RingInput::Square(sq),
                Secondary => RingInput::Cancel,
            });
        }
    }
}

/// A drag on the table's hexes or the pieces in them (a march dragged in
/// play, a stroke or a piece moved in layout mode), or on the ring's
/// squares and tokens (a path dragged, a march let go onto the ring).
fn read_battle_drags(
    mut drags: MessageReader<crate::picking::Drag>,
    mut out: MessageWriter<BattleInput>,
    mut ring: MessageWriter<super::ring_play::RingInput>,
) {
    use super::ring_play::RingInput;
    use crate::picking::Drag;
    use sandtable_warpspawn::offboard::ring::Square;
    for drag in drags.read() {
        match *drag {
            Drag::Grab(spot) => {
                if let Some(hex) = Hex::from_spot(spot) {
                    out.write(BattleInput::Grab(hex));
                } else if let Some(sq) = Square::from_spot(spot) {
                    ring.write(RingInput::Grab(sq));
                }
            }
            Drag::Drop(spot) => {
                if let Some(hex) = Hex::from_spot(spot) {
                    out.write(BattleInput::Drop(hex));
                } else if let Some(sq) = Square::from_spot(spot) {
                    ring.write(RingInput::DropOn(sq));
                }
            }
            Drag::Release => {
                out.write(BattleInput::Release);
                ring.write(RingInput::Release);
            }
        }
    }
}

/// Keys of the battle's table: Enter ends the phase, Escape lets go of the
/// selection (U or Ctrl+Z undoes, as on every table:
/// `session::keys::read_undo_keys`). Ignored while a panel has the
/// keyboard.
fn read_battle_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Option<Res<crate::session::keys::KeyboardTaken>>,
    mut inputs: MessageWriter<BattleInput>,
) {
    let Some(keys) = keys else {
        return;
    };
    if taken.is_some_and(|t| t.0) {
        return;
    }
    if keys.just_pressed(KeyCode::Enter) {
        inputs.write(BattleInput::Command(Command::End));
    } else if keys.just_pressed(KeyCode::Escape) {
        inputs.write(BattleInput::Cancel);
    }
}
