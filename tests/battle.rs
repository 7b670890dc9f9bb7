//! Headless tests of a Warpspawn battle on the table: `MinimalPlugins` with
//! Sandtable's logic, no window and no renderer.

mod common;

use bevy::prelude::*;
use sandtable::warpspawn::table::{BattlePiece, Formation, HexTile};
use sandtable::warpspawn::{ActiveBattle, BattleLoaded, looks::Slot};
use sandtable_scenario::Loaded;
use sandtable_warpspawn::{Hex, Side, Terrain};

fn battle_app(name: &str) -> App {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/warpspawn")
        .join(name);
    let Ok(Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path) else {
        panic!("{name} is a battle");
    };
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.insert_resource(ActiveBattle::new(battle).expect("it starts"));
    app.world_mut().write_message(BattleLoaded);
    app.update();
    app
}

/// Each body of armed men in the game: its hex, side, infantry and
/// cavalry, sorted.
fn formations_of(game: &sandtable_warpspawn::Game) -> Vec<(Hex, u8, u16, u16)> {
    let mut all: Vec<(Hex, u8, u16, u16)> = game
        .stacks()
        .iter()
        .filter(|s| !s.armed.men.is_empty())
        .map(|s| (s.hex, s.side.0, s.armed.men.inf, s.armed.men.cav))
        .collect();
    all.sort();
    all
}

fn all<T: Component + Copy>(app: &mut App) -> Vec<T> {
    app.world_mut()
        .query::<&T>()
        .iter(app.world())
        .copied()
        .collect()
}

#[test]
fn a_hex_map_spawns_one_entity_per_hex_formation_and_piece() {
    // Every kind of piece is met somewhere, so that no count below is of nothing.
    let mut seen = std::collections::BTreeSet::new();
    for name in [
        "open-field.ron",
        "river-bridge.ron",
        "capture-the-flag.ron",
        "stress-60x40.ron",
    ] {
        let mut app = battle_app(name);
        let game = app.world().resource::<ActiveBattle>().game.clone();
        let map = game.battle().map;
        let hexes: Vec<HexTile> = all(&mut app);
        assert_eq!(
            hexes.len(),
            usize::from(map.columns) * usize::from(map.rows),
            "{name}: one a hex"
        );
        for tile in &hexes {
            assert_eq!(tile.terrain, game.battle().terrain(tile.hex), "{name}");
        }
        let mut formations: Vec<(Hex, u8, u16, u16)> = all::<Formation>(&mut app)
            .iter()
            .map(|f| (f.hex, f.side.0, f.infantry, f.cavalry))
            .collect();
        formations.sort();
        assert_eq!(
            formations,
            formations_of(&game),
            "{name}: one a body of armed men"
        );
        let pieces: Vec<BattlePiece> = all(&mut app);
        let count = |slot: Slot| -> u32 {
            pieces
                .iter()
                .filter(|p| p.slot == slot)
                .map(|p| u32::from(p.count))
                .sum()
        };
        let stacks = game.stacks();
        let sum = |f: &dyn Fn(&sandtable_warpspawn::Stack) -> u16| -> u32 {
            stacks.iter().map(|s| u32::from(f(s))).sum()
        };
        assert_eq!(count(Slot::Cannon), sum(&|s| u16::from(s.cannon)), "{name}");
        assert_eq!(
            count(Slot::Baggage),
            sum(&|s| u16::from(s.baggage)),
            "{name}"
        );
        assert_eq!(count(Slot::Flag), sum(&|s| u16::from(s.flags)), "{name}");
        assert_eq!(count(Slot::Officer), sum(&|s| s.armed.officers), "{name}");
        seen.extend(pieces.iter().map(|p| format!("{:?}", p.slot)));
    }
    for slot in ["Cannon", "Officer", "Baggage", "Flag"] {
        assert!(seen.contains(slot), "some battle has a {slot}");
    }
}

#[test]
fn the_stress_map_has_its_200_formations_on_the_table() {
    let mut app = battle_app("stress-60x40.ron");
    let formations: Vec<Formation> = all(&mut app);
    assert_eq!(formations.len(), 200);
    for side in [Side(0), Side(1)] {
        assert_eq!(formations.iter().filter(|f| f.side == side).count(), 100);
    }
    let hexes: Vec<HexTile> = all(&mut app);
    assert!(
        hexes.iter().any(|h| h.terrain == Terrain::River)
            && hexes.iter().any(|h| h.terrain == Terrain::Bridge),
        "a river with bridges"
    );
}

#[test]
fn nothing_is_hovered_until_the_pointer_comes_over_a_hex() {
    let app = battle_app("open-field.ron");
    assert_eq!(
        app.world().resource::<sandtable::picking::Hovered>().0,
        None
    );
}

#[test]
fn the_camera_frames_the_whole_physical_table() {
    let app = battle_app("open-field.ron");
    let shown = app.world().resource::<sandtable::table::TableShown>();
    let extent = shown.extent.expect("a table was built");
    // 762 x 508 mm of table at 40 mm a hex.
    assert!((extent.x - 762.0 / 40.0).abs() < 1e-3, "{extent}");
    assert!((extent.y - 508.0 / 40.0).abs() < 1e-3, "{extent}");
    assert_eq!(
        shown.surface,
        Some(sandtable_core::game::Surface::Hexes {
            columns: 16,
            rows: 12
        }),
        "the map's hexes, no squares"
    );
}

// ------------------------------------------------------------------ play

use rand::{Rng, SeedableRng};
use sandtable::camera::WheelTaken;
use sandtable::session::Seats;
use sandtable::session::{Notice, StartTurn};
use sandtable::warpspawn::play::{BattleChoices, BattleDrag, acts_from};
use sandtable::warpspawn::{BattleInput, BattlePick};
use sandtable_core::game::{GameState, Legal, Seat};
use sandtable_warpspawn::{Command, Game, Step};

fn game_of(app: &App) -> Game {
    app.world().resource::<ActiveBattle>().game.game().clone()
}

fn send(app: &mut App, input: BattleInput) {
    app.world_mut().write_message(input);
    app.update();
}

/// Confirms a hand-over, as the person the table is handed to does.
fn confirm(app: &mut App) {
    if app.world().resource::<ActiveBattle>().handover.is_some() {
        app.world_mut().write_message(StartTurn);
        app.update();
    }
}

fn legal(game: &Game) -> (Seat, Vec<Legal<Command>>) {
    let side = game.decider().expect("a battle not over");
    let seat = Seat(u16::from(side.0));
    let mut out = Vec::new();
    GameState::legal_into(game, seat, &mut out);
    (seat, out)
}

/// Plays random legal commands (End seldom) through the table's own `play`
/// (as the panel's Play button does) until `wanted` holds of the battle, starting
/// the battle again when it ends; panics if it never does.
fn play_until(name: &str, wanted: impl Fn(&Game, &[Legal<Command>]) -> bool) -> App {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    // The battle named first, then the other shipped battles.
    let names = [
        name,
        "river-bridge.ron",
        "capture-the-flag.ron",
        "open-field.ron",
    ];
    for round in 0..60 {
        let name = names[round / 15];
        let mut app = battle_app(name);
        for _ in 0..20_000 {
            let game = game_of(&app);
            if game.decider().is_none() {
                break;
            }
            let (_, list) = legal(&game);
            if wanted(&game, &list) {
                confirm(&mut app);
                // The table follows the game to where the flow starts.
                app.update();
                return app;
            }
            // Ending a phase is rarely picked, so that the sides meet.
            let others: Vec<Command> = list
                .iter()
                .map(|l| l.command)
                .filter(|c| *c != Command::End)
                .collect();
            let command = if others.is_empty() || rng.random_range(0..20) == 0 {
                list[rng.random_range(0..list.len())].command
            } else {
                others[rng.random_range(0..others.len())]
            };
            let mut active = app.world_mut().resource_mut::<ActiveBattle>();
            active.play(command).expect("a listed command plays");
            active.handover = None;
        }
    }
    panic!("random play of the shipped battles never reached the wanted state");
}

/// The state the rules crate reaches from the app's game with `command`.
fn expected_after(app: &App, command: Command) -> u64 {
    let mut game = game_of(app);
    let (seat, _) = legal(&game);
    let mut events = Vec::new();
    GameState::apply_into(&mut game, seat, &command, &mut events).expect("the command is legal");
    GameState::state_hash(&game)
}

fn hash_of(app: &App) -> u64 {
    GameState::state_hash(&game_of(app))
}

/// Plays the choice on show for `command`, asserting it is there.
fn play_choice(app: &mut App, command: Command) {
    let choices = app.world().resource::<BattleChoices>();
    let index = choices
        .choices
        .iter()
        .position(|c| c.command == command)
        .unwrap_or_else(|| panic!("`{command}` is among the choices: {:?}", choices.choices));
    send(app, BattleInput::Play(index));
}

/// Clicks `from` then `to` and plays `command` from the choices; checks the
/// battle then stands as the rules crate puts it with the same command,
/// and returns the choice's odds as the panel showed them.
fn click_flow(
    app: &mut App,
    from: Hex,
    to: Hex,
    command: Command,
) -> Vec<sandtable_core::game::Odds> {
    send(app, BattleInput::Click(from));
    assert_eq!(
        app.world().resource::<BattlePick>().from,
        Some(from),
        "{:?}",
        app.world().resource::<Notice>()
    );
    let targets = &app.world().resource::<BattleChoices>().targets;
    assert!(
        targets.iter().any(|t| t.hex == to),
        "{to} is lit from {from}: {targets:?}"
    );
    send(app, BattleInput::Click(to));
    assert_eq!(app.world().resource::<BattlePick>().to, Some(to));
    let odds = app
        .world()
        .resource::<BattleChoices>()
        .choices
        .iter()
        .find(|c| c.command == command)
        .map(|c| c.odds.clone())
        .unwrap_or_default();
    let wanted = expected_after(app, command);
    play_choice(app, command);
    assert_eq!(
        hash_of(app),
        wanted,
        "the table plays `{command}` as the rules do"
    );
    assert_eq!(
        app.world().resource::<ActiveBattle>().record.last(),
        Some(&command)
    );
    odds
}

#[test]
fn a_shot_clicked_on_the_table_is_the_rules_shot_with_its_odds_shown_first() {
    let mut app = play_until("open-field.ron", |_, list| {
        list.iter()
            .any(|l| matches!(l.command, Command::Fire { .. }))
    });
    let game = game_of(&app);
    let (seat, list) = legal(&game);
    let fire = list
        .iter()
        .find(|l| matches!(l.command, Command::Fire { .. }))
        .expect("a shot")
        .command;
    let Command::Fire { cannon, target, .. } = fire else {
        unreachable!()
    };
    let contract = GameState::odds(&game, seat, &fire);
    let odds = click_flow(&mut app, cannon, target, fire);
    assert!(!odds.is_empty(), "a shot has odds (R67)");
    assert_eq!(odds, contract, "the panel's odds are the contract's");
    let rolls = &app.world().resource::<ActiveBattle>().extra.rolls;
    assert!(
        rolls
            .iter()
            .any(|r| r.contains("rolls") && r.contains("(R67)")),
        "the dice tray shows the shot's roll: {rolls:?}"
    );
}

#[test]
fn a_march_split_by_the_panel_leaves_the_rest_behind_as_the_rules_do() {
    let mut app = play_until("open-field.ron", |game, list| {
        list.iter().any(|l| match l.command {
            Command::March { from, path, .. } => {
                path.as_slice().len() == 1
                    && game
                        .stack(from, game.active())
                        .is_some_and(|s| s.armed.men.inf >= 4)
            }
            _ => false,
        })
    });
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let (from, path, listed) = list
        .iter()
        .find_map(|l| match l.command {
            Command::March { from, path, .. }
                if path.as_slice().len() == 1
                    && game
                        .stack(from, game.active())
                        .is_some_and(|s| s.armed.men.inf >= 4) =>
            {
                Some((from, path, l.command))
            }
            _ => None,
        })
        .expect("a march");
    let to = *path.as_slice().last().expect("a path");
    send(&mut app, BattleInput::Click(from));
    send(&mut app, BattleInput::Click(to));
    let full = sandtable::warpspawn::play::march_pick(&game, &listed).expect("a march's pick");
    let mut half = sandtable_warpspawn::Pick {
        men: sandtable_warpspawn::Men::new(full.men.inf / 2, 0),
        ..Default::default()
    };
    half.officers = 0;
    send(&mut app, BattleInput::Split(half));
    let command = Command::March {
        from,
        path,
        pick: Some(half),
    };
    let wanted = expected_after(&app, command);
    play_choice(&mut app, command);
    assert_eq!(hash_of(&app), wanted);
    let after = game_of(&app);
    let left = after.stack(from, game.active()).expect("the rest stays");
    assert_eq!(
        left.armed.men.inf,
        game.stack(from, game.active()).unwrap().armed.men.inf - half.men.inf,
        "the split leaves the others in {from}"
    );
    // The table's formations follow: one in each hex.
    let formations: Vec<Formation> = all(&mut app);
    assert!(formations.iter().any(|f| f.hex == from));
    assert!(formations.iter().any(|f| f.hex == to));
}

/// A battle in its March phase with a formation of at least 4 infantry
/// that may march whole to a neighbour: the app, the hex, the neighbour
/// and the listed march there.
fn march_to_drag() -> (App, Hex, Hex, Command) {
    let fits = |game: &Game, l: &Legal<Command>| match l.command {
        Command::March { from, path, pick } => {
            pick.is_none()
                && path.as_slice().len() == 1
                && game
                    .stack(from, game.active())
                    .is_some_and(|s| s.armed.men.inf >= 4)
        }
        _ => false,
    };
    let app = play_until("open-field.ron", |game, list| {
        list.iter().any(|l| fits(game, l))
    });
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let listed = list
        .iter()
        .find(|l| fits(&game, l))
        .expect("a march")
        .command;
    let Command::March { from, path, .. } = listed else {
        unreachable!()
    };
    (app, from, path.as_slice()[0], listed)
}

/// Turns the wheel by `lines` notches for one frame, as a person does.
fn wheel(app: &mut App, lines: f32, shift: bool) {
    use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
    let mut keys = ButtonInput::<KeyCode>::default();
    if shift {
        keys.press(KeyCode::ShiftLeft);
    }
    app.insert_resource(keys);
    app.insert_resource(AccumulatedMouseScroll {
        unit: MouseScrollUnit::Line,
        delta: Vec2::new(0.0, lines),
    });
    app.update();
    app.insert_resource(AccumulatedMouseScroll::default());
    app.insert_resource(ButtonInput::<KeyCode>::default());
}

#[test]
fn a_march_dragged_whole_is_the_listed_march_played_as_it_is_let_go() {
    let (mut app, from, to, listed) = march_to_drag();
    let wanted = expected_after(&app, listed);
    // Through the table's picking, as every system's drags come.
    use sandtable::picking::Drag;
    app.world_mut().write_message(Drag::Grab(from.spot()));
    app.update();
    let drag = *app.world().resource::<BattleDrag>();
    assert_eq!(drag.from, Some(from));
    assert_eq!(drag.split(), None, "nothing turned: the whole goes");
    assert_eq!(
        app.world().resource::<BattlePick>().from,
        Some(from),
        "where it may go is lit while it is dragged"
    );
    assert!(
        app.world().resource::<WheelTaken>().0,
        "the wheel counts men now"
    );
    // Let go on the neighbour: the drop, then the drag's end, in one frame.
    app.world_mut().write_message(Drag::Drop(to.spot()));
    app.world_mut().write_message(Drag::Release);
    app.update();
    assert_eq!(
        hash_of(&app),
        wanted,
        "the drag plays `{listed}` as the rules do"
    );
    assert_eq!(
        app.world().resource::<ActiveBattle>().record.last(),
        Some(&listed)
    );
    assert_eq!(*app.world().resource::<BattleDrag>(), BattleDrag::default());
    assert!(
        !app.world().resource::<WheelTaken>().0,
        "the wheel zooms again"
    );
}

#[test]
fn a_march_dragged_with_the_wheel_turned_back_splits_the_formation_as_the_rules_do() {
    let (mut app, from, to, listed) = march_to_drag();
    let game = game_of(&app);
    let side = game.active();
    let before = *game.stack(from, side).expect("the formation");
    send(&mut app, BattleInput::Grab(from));
    let (most, _) = app
        .world()
        .resource::<BattleDrag>()
        .march
        .expect("a march is dragged");
    assert_eq!(
        Some(most),
        sandtable::warpspawn::play::march_pick(&game, &listed),
        "the drag carries all the list would march"
    );
    // Three notches back: three infantry stay. One more forward: two stay.
    wheel(&mut app, -3.0, false);
    wheel(&mut app, 1.0, false);
    // The cavalry's count turns with Shift, never below none.
    wheel(&mut app, -50.0, true);
    let part = app
        .world()
        .resource::<BattleDrag>()
        .split()
        .expect("a split");
    assert_eq!(part.men.inf, most.men.inf - 2, "{part:?}");
    assert_eq!(part.men.cav, 0, "{part:?}");
    assert_eq!(
        app.world()
            .resource::<Notice>()
            .text
            .as_deref()
            .map(|t| t.contains(&format!("inf {} cav 0", most.men.inf - 2))),
        Some(true),
        "the notice says what goes: {:?}",
        app.world().resource::<Notice>()
    );
    let command = Command::March {
        from,
        path: sandtable_warpspawn::Hexes::one(to),
        pick: Some(part),
    };
    let wanted = expected_after(&app, command);
    app.world_mut().write_message(BattleInput::Drop(to));
    send(&mut app, BattleInput::Release);
    assert_eq!(
        hash_of(&app),
        wanted,
        "the drag plays `{command}` as the rules do"
    );
    let after = game_of(&app);
    let left = after.stack(from, side).expect("the rest stays");
    assert_eq!(left.armed.men.inf, before.armed.men.inf - part.men.inf);
    assert_eq!(left.armed.men.cav, before.armed.men.cav - part.men.cav);
    // The table's formations follow: one in each hex.
    let formations: Vec<Formation> = all(&mut app);
    assert!(formations.iter().any(|f| f.hex == from));
    assert!(formations.iter().any(|f| f.hex == to));
}

/// In a Melee with no decision owed, a formation of the side to act beside
/// an enemy, from which no attack is listed, and the enemy's hex: the first
/// neighbour an enemy stands on, as the table tries it.
fn unlit_beside_an_enemy(game: &Game, list: &[Legal<Command>]) -> Option<(Hex, Hex)> {
    let side = game.decider()?;
    if game.phase() != sandtable_warpspawn::Phase::Melee
        || list.iter().any(|l| {
            matches!(
                l.command,
                Command::Lose { .. } | Command::Advance { .. } | Command::Rout { .. }
            )
        })
    {
        return None;
    }
    game.stacks()
        .iter()
        .filter(|s| s.side == side && s.is_formation())
        .filter(|s| !list.iter().any(|l| acts_from(&l.command, s.hex)))
        .find_map(|s| {
            let enemy = game
                .battle()
                .neighbours(s.hex)
                .iter()
                .copied()
                .find(|n| game.stack(*n, side.other()).is_some())?;
            Some((s.hex, enemy))
        })
}

/// A listed march of part of a stack to a hex the whole stack may not
/// reach by that path, nor by any listed path.
fn part_march(game: &Game, list: &[Legal<Command>]) -> Option<(Hex, Hex, Command)> {
    let side = game.decider()?;
    list.iter().find_map(|l| {
        let Command::March {
            from,
            path,
            pick: Some(_),
        } = l.command
        else {
            return None;
        };
        let to = *path.as_slice().last()?;
        let whole_listed = list.iter().any(|m| {
            matches!(m.command, Command::March { from: f, path: p, pick: None }
                if f == from && p.as_slice().last() == Some(&to))
        });
        let whole = Command::March {
            from,
            path,
            pick: None,
        };
        let refused = GameState::check(game, Seat(u16::from(side.0)), &whole).is_err();
        (refused && !whole_listed).then_some((from, to, l.command))
    })
}

#[test]
fn a_march_that_leaves_pieces_behind_says_so_before_play() {
    let mut app = play_until("river-bridge.ron", |game, list| {
        part_march(game, list).is_some()
    });
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let (from, to, march) = part_march(&game, &list).expect("found");
    let Command::March {
        path,
        pick: Some(pick),
        ..
    } = march
    else {
        unreachable!()
    };
    app.world_mut().resource_mut::<BattlePick>().from = None;
    send(&mut app, BattleInput::Click(from));
    let choices = app.world().resource::<BattleChoices>().clone();
    let target = choices
        .targets
        .iter()
        .find(|t| t.hex == to)
        .expect("the hex is a target");
    let words = &target.words;
    assert!(
        words.contains(": only ") && !words.contains(&pick.to_string()),
        "the words under the pointer say what goes: {words}"
    );
    assert_eq!(
        target.label,
        format!("{}, part", path.as_slice().len()),
        "the hex's label on the table says that part goes, in a few characters"
    );
    send(&mut app, BattleInput::Click(to));
    let choices = app.world().resource::<BattleChoices>().clone();
    let choice = choices
        .choices
        .iter()
        .find(|c| c.command == march)
        .expect("the march is offered");
    let behind = choice
        .left_behind
        .as_deref()
        .expect("the panel says what stays");
    let what = words.split(": only ").nth(1).expect("what goes");
    assert!(
        behind.starts_with(&format!("only {what} can take this path: ")) && behind.contains("(R"),
        "the label and the panel say the same: {behind}"
    );
}

#[test]
fn a_click_on_a_formation_that_cannot_act_says_why_in_the_rules_words() {
    let mut app = play_until("open-field.ron", |game, list| {
        unlit_beside_an_enemy(game, list).is_some()
    });
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let (hex, enemy) = unlit_beside_an_enemy(&game, &list).expect("found");
    let side = game.decider().expect("to act");
    let attack = Command::Attack {
        target: enemy,
        from: sandtable_warpspawn::Hexes::one(hex),
    };
    let why = GameState::check(&game, Seat(u16::from(side.0)), &attack)
        .expect_err("no attack is listed from there");
    app.world_mut().resource_mut::<BattlePick>().from = None;
    // A click on the formation, as the table's picking reports it: its
    // hex, as the contract names places.
    app.world_mut()
        .write_message(sandtable::picking::TableClick {
            spot: hex.spot(),
            on_piece: true,
            button: sandtable::picking::ClickButton::Primary,
            point: None,
        });
    app.update();
    let notice = app.world().resource::<Notice>().clone();
    assert!(notice.error, "{notice:?}");
    assert_eq!(
        notice.text.as_deref(),
        Some(format!("{hex}: {why}").as_str()),
        "the rules' reason for this formation, not a pointer to lit hexes"
    );
    assert!(why.to_string().contains("(R"), "with its ruling: {why}");
}

#[test]
fn a_drag_let_go_where_no_march_goes_changes_nothing_and_says_why() {
    let (mut app, from, _, _) = march_to_drag();
    let before = hash_of(&app);
    let game = game_of(&app);
    let far = game
        .battle()
        .map
        .hexes()
        .max_by_key(|h| h.distance(from))
        .expect("a far hex");
    send(&mut app, BattleInput::Grab(from));
    app.world_mut().write_message(BattleInput::Drop(far));
    send(&mut app, BattleInput::Release);
    let notice = app.world().resource::<Notice>().clone();
    let text = notice.text.expect("a reason");
    assert!(
        notice.error && text.starts_with(&format!("{far}: ")) && text.contains("(R69)"),
        "{text}"
    );
    assert_eq!(hash_of(&app), before, "nothing changed");
    assert_eq!(app.world().resource::<BattlePick>().to, None);
    // Let go off the table: the drag ends, the selection stays.
    send(&mut app, BattleInput::Grab(from));
    send(&mut app, BattleInput::Release);
    assert_eq!(app.world().resource::<BattleDrag>().from, None);
    assert_eq!(app.world().resource::<BattlePick>().from, Some(from));
    assert_eq!(hash_of(&app), before, "nothing changed");
}

#[test]
fn an_attack_clicked_from_any_attacker_shows_its_row_and_odds() {
    let mut app = play_until("open-field.ron", |_, list| {
        list.iter()
            .any(|l| matches!(l.command, Command::Attack { .. }))
    });
    let game = game_of(&app);
    let (seat, list) = legal(&game);
    let attack = list
        .iter()
        .rev()
        .find(|l| matches!(l.command, Command::Attack { .. }))
        .expect("an attack")
        .command;
    let Command::Attack { target, from } = attack else {
        unreachable!()
    };
    // Picked from its last attacker's hex, not only the listed first.
    let by = *from.as_slice().last().expect("an attacker");
    let contract = GameState::odds(&game, seat, &attack);
    send(&mut app, BattleInput::Click(by));
    send(&mut app, BattleInput::Click(target));
    let choice = app
        .world()
        .resource::<BattleChoices>()
        .choices
        .iter()
        .find(|c| c.command == attack)
        .cloned()
        .expect("the attack is offered");
    assert!(choice.attack.is_some(), "its strengths and row (R74)");
    assert_eq!(choice.odds, contract);
    let wanted = expected_after(&app, attack);
    play_choice(&mut app, attack);
    assert_eq!(hash_of(&app), wanted);
}

/// Plays one of the answers an owed step lists, through the panel.
fn answer_owed(name: &str, owed: fn(&Step) -> bool) {
    let mut app = play_until(name, |game, _| game.owed().is_some_and(owed));
    answer_owed_in(&mut app);
}

/// Checks that the panel offers exactly the answers the rules list for the
/// step owed, and plays the middle one as the rules do.
fn answer_owed_in(app: &mut App) {
    let game = game_of(app);
    let (_, list) = legal(&game);
    let choices = app.world().resource::<BattleChoices>().choices.clone();
    let listed: Vec<Command> = list.iter().map(|l| l.command).collect();
    let shown: Vec<Command> = choices.iter().map(|c| c.command).collect();
    assert!(
        listed.len() > 1,
        "a choice with one answer is made without asking (R64)"
    );
    assert_eq!(
        shown, listed,
        "every answer is offered, and only those (R64)"
    );
    let answer = listed[listed.len() / 2];
    let wanted = expected_after(app, answer);
    play_choice(app, answer);
    assert_eq!(
        hash_of(app),
        wanted,
        "the table answers `{answer}` as the rules do"
    );
}

/// A battle on a field of the rules crate's tests: Red's 6 with an officer
/// in C3 attack Blue's 10 in C4 and lose; Red's routers flee to D2, beside
/// Red's 5 in E2, and Red's Rally phase begins (the rules crate's
/// `routed_setup` and `route`). `rolls` come after the melee's two.
fn routed_app(rolls: &[u8]) -> App {
    let p = sandtable_warpspawn::samples::pieces;
    let setup = sandtable_warpspawn::samples::field(
        8,
        8,
        vec![
            p(0, "C3", 6, 0, 1),
            p(0, "E2", 5, 0, 0),
            p(1, "C4", 10, 0, 0),
            p(1, "H8", 2, 0, 0),
        ],
        Vec::new(),
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/warpspawn/open-field.ron");
    let Ok(Loaded::Warpspawn(mut battle)) = sandtable_scenario::load_any(&path) else {
        panic!("a battle");
    };
    battle.setup = setup;
    let mut active = ActiveBattle::new(battle).expect("it starts");
    let mut dice = vec![1, 3];
    dice.extend_from_slice(rolls);
    active
        .game
        .set_dice(sandtable_core::dice::Dice::scripted(dice));
    for text in [
        "end",
        "end",
        "attack C4 from C3",
        "advance C3 from C4 inf 4",
        "end",
    ] {
        active.play(text.parse().unwrap()).expect(text);
    }
    active.handover = None;
    assert_eq!(active.game.phase(), sandtable_warpspawn::Phase::Rally);
    let d2: Hex = "D2".parse().unwrap();
    assert!(
        active
            .game
            .stack(d2, Side(0))
            .is_some_and(|s| s.routing.heads() > 0)
    );
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.insert_resource(active);
    app.world_mut().write_message(BattleLoaded);
    app.update();
    app
}

#[test]
fn casualties_owed_are_chosen_from_the_panel() {
    answer_owed("open-field.ron", |s| matches!(s, Step::Lose { .. }));
}

#[test]
fn the_free_advance_is_chosen_from_the_panel() {
    answer_owed("open-field.ron", |s| matches!(s, Step::Advance { .. }));
}

#[test]
fn a_rout_move_is_chosen_from_the_panel_by_the_enemy() {
    // A rally roll of 6 panics Red's formation in E2, and Blue picks
    // where it routs (R79, R80).
    let mut app = routed_app(&[6]);
    send(&mut app, BattleInput::Click("D2".parse().unwrap()));
    send(&mut app, BattleInput::Click("E2".parse().unwrap()));
    play_choice(&mut app, "rally D2 with E2".parse().unwrap());
    let active = app.world().resource::<ActiveBattle>();
    assert_eq!(
        active.game.decider(),
        Some(Side(1)),
        "Blue owes the rout move"
    );
    assert_eq!(
        active.handover,
        Some(sandtable_core::game::Seat(1)),
        "the table is handed to Blue first"
    );
    confirm(&mut app);
    answer_owed_in(&mut app);
}

#[test]
fn a_rally_clicked_on_the_table_is_the_rules_rally() {
    let mut app = routed_app(&[5]);
    let game = game_of(&app);
    let (seat, _) = legal(&game);
    let rally: Command = "rally D2 with E2".parse().unwrap();
    let odds = click_flow(
        &mut app,
        "D2".parse().unwrap(),
        "E2".parse().unwrap(),
        rally,
    );
    assert!(!odds.is_empty());
    assert_eq!(odds, GameState::odds(&game, seat, &rally), "R79's odds");
    let rolls = &app.world().resource::<ActiveBattle>().extra.rolls;
    assert_eq!(
        rolls,
        &["the routers in D2 roll to rally on the formation in E2: 5 -1 = 4 (R79)".to_owned()],
        "the tray shows the roll with its modifier"
    );
}

#[test]
fn an_illegal_click_changes_nothing_and_says_why_with_its_ruling() {
    let mut app = battle_app("open-field.ron");
    confirm(&mut app);
    let before = hash_of(&app);
    // Nothing of Red's in an empty wood can fire.
    send(&mut app, BattleInput::Click("D6".parse().unwrap()));
    let notice = app.world().resource::<Notice>().clone();
    assert!(notice.error, "{notice:?}");
    let text = notice.text.expect("a reason");
    assert!(text.starts_with("D6: ") && text.contains("(R64)"), "{text}");
    assert_eq!(*app.world().resource::<BattlePick>(), BattlePick::default());
    assert_eq!(hash_of(&app), before, "nothing changed");
    assert!(app.world().resource::<ActiveBattle>().record.is_empty());
    // A cannon aimed at a hex it may not fire at: the rules say why.
    let mut app = play_until("open-field.ron", |_, list| {
        list.iter()
            .any(|l| matches!(l.command, Command::Fire { .. }))
    });
    let game = game_of(&app);
    let before = hash_of(&app);
    let (_, list) = legal(&game);
    let Some(Command::Fire { cannon, .. }) = list
        .iter()
        .map(|l| l.command)
        .find(|c| matches!(c, Command::Fire { .. }))
    else {
        unreachable!()
    };
    send(&mut app, BattleInput::Click(cannon));
    assert_eq!(app.world().resource::<BattlePick>().from, Some(cannon));
    let far = game
        .battle()
        .map
        .hexes()
        .max_by_key(|h| h.distance(cannon))
        .expect("a far hex");
    send(&mut app, BattleInput::Click(far));
    let notice = app.world().resource::<Notice>().clone();
    let text = notice.text.expect("a reason");
    assert!(
        notice.error && text.starts_with(&format!("{far}: ")) && text.contains("(R6"),
        "{text}"
    );
    assert_eq!(
        app.world().resource::<BattlePick>().to,
        None,
        "no target taken"
    );
    assert_eq!(hash_of(&app), before, "nothing changed");
}

#[test]
fn a_hand_over_holds_the_table_until_the_next_side_starts() {
    let mut app = battle_app("open-field.ron");
    assert!(
        app.world().resource::<ActiveBattle>().handover.is_some(),
        "the first side is handed the table"
    );
    send(&mut app, BattleInput::Command(Command::End));
    assert!(
        app.world().resource::<ActiveBattle>().record.is_empty(),
        "not before the hand-over"
    );
    confirm(&mut app);
    send(&mut app, BattleInput::Command(Command::End));
    assert_eq!(
        app.world().resource::<ActiveBattle>().record,
        vec![Command::End]
    );
    // Undo within the player turn (R31), through the shared request.
    app.world_mut()
        .write_message(sandtable::session::UndoRequest);
    app.update();
    assert!(app.world().resource::<ActiveBattle>().record.is_empty());
}

#[test]
fn a_bot_plays_a_warpspawn_turn() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/warpspawn/open-field.ron");
    let Ok(Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path) else {
        panic!("a battle");
    };
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.insert_resource(sandtable::session::BotPace(std::time::Duration::ZERO));
    let seats = Seats(vec![
        sandtable::session::Seat::Bot(2),
        sandtable::session::Seat::Person,
    ]);
    let mut active = ActiveBattle::new(battle).expect("it starts");
    active.settle_handover(&seats);
    assert_eq!(active.handover, None, "a bot needs no hand-over");
    app.insert_resource(seats);
    let start = active.game.game().clone();
    app.insert_resource(active);
    app.world_mut().write_message(BattleLoaded);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while game_of(&app).active() == Side(0) || game_of(&app).decider() == Some(Side(0)) {
        assert!(
            std::time::Instant::now() < deadline,
            "the bot ends its turn within a minute"
        );
        // An answer the person's side owes within the bot's turn (R64).
        if game_of(&app).decider() == Some(Side(1))
            && !app.world().resource::<BattleChoices>().choices.is_empty()
        {
            app.world_mut().write_message(BattleInput::Play(0));
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let record = app.world().resource::<ActiveBattle>().record.clone();
    assert!(record.len() >= 4, "four phases at least: {record:?}");
    // Every command it played replays on the rules crate to the same battle.
    let mut replay = start;
    for command in &record {
        replay.apply(command).expect("the bot's command is legal");
    }
    assert_eq!(GameState::state_hash(&replay), hash_of(&app));
    // The person's side is not played for them.
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<ActiveBattle>().record.len(),
        record.len()
    );
}

#[test]
fn the_table_s_bots_see_how_each_side_has_played() {
    // Red plays greedy's commands, Blue draws its own at random: the bot
    // of each seat sees the other side's commands (the battle's search
    // models its opponent's replies on what it saw), and its own not.
    use sandtable_bots::Plays;
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/warpspawn/open-field.ron");
    let Ok(Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path) else {
        panic!("a battle");
    };
    let mut active = ActiveBattle::new(battle).expect("it starts");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    let mut chose = [0u32; 2];
    while active.game.game().turn() <= 3 {
        let game = active.game.game().clone();
        let Some(seat) = sandtable_core::game::next_seat(&game) else {
            break;
        };
        let command = if seat == Seat(0) {
            sandtable_bots::warpspawn::greedy(&game, seat, 21).expect("a command")
        } else {
            GameState::random_command(&game, seat, &mut rng).expect("a command")
        };
        if game.as_greedy(seat, &command).is_some() {
            chose[seat.index()] += 1;
        }
        active.play(command).expect("a legal command");
    }
    let of_red = active.seen_by(Seat(1));
    let of_blue = active.seen_by(Seat(0));
    assert_eq!(
        of_red.commands, chose[0],
        "Blue's bot saw each choice Red made"
    );
    assert_eq!(
        of_blue.commands, chose[1],
        "Red's bot saw each choice Blue made"
    );
    assert!(of_red.commands >= 10 && of_blue.commands >= 10, "{chose:?}");
    assert!(
        of_red.careless() < 0.2,
        "Red played as greedy does: {of_red:?}"
    );
    assert!(
        of_blue.careless() > 0.6,
        "Blue played at random: {of_blue:?}"
    );
}

/// A shot with no own formation on its line: it rolls one die (R67, R68).
fn lone(game: &Game, l: &Legal<Command>) -> bool {
    game.decider()
        .and_then(|side| game.fire_plan(side, &l.command))
        .is_some_and(|plan| plan.friendly.is_empty())
}

#[test]
fn real_dice_typed_in_decide_the_shot_and_are_kept() {
    let mut app = play_until("open-field.ron", |game, list| {
        list.iter().any(|l| lone(game, l))
    });
    send(&mut app, BattleInput::RealDice(true));
    assert!(app.world().resource::<ActiveBattle>().dice.real);
    let game = game_of(&app);
    let (seat, list) = legal(&game);
    let fire = list
        .iter()
        .find(|l| lone(&game, l))
        .expect("a shot")
        .command;
    // No roll typed: refused, nothing changed, and it says what is missing.
    let before = hash_of(&app);
    send(&mut app, BattleInput::Command(fire));
    let notice = app.world().resource::<Notice>().clone();
    let text = notice.text.expect("a reason");
    assert!(notice.error && text.contains("(R30)"), "{text}");
    assert_eq!(hash_of(&app), before);
    // Two rolls typed for a shot that rolls one: refused too.
    app.world_mut()
        .resource_mut::<sandtable::session::dice::TypedRolls>()
        .0 = "5 5".into();
    send(&mut app, BattleInput::Command(fire));
    assert_eq!(
        hash_of(&app),
        before,
        "{:?}",
        app.world().resource::<Notice>()
    );
    // The roll of the real die decides it, as the rules crate reads it.
    app.world_mut()
        .resource_mut::<sandtable::session::dice::TypedRolls>()
        .0 = "5".into();
    let mut expected = game.clone();
    GameState::set_dice(&mut expected, sandtable_core::dice::Dice::scripted(vec![5]));
    let mut events = Vec::new();
    GameState::apply_into(&mut expected, seat, &fire, &mut events).expect("legal");
    send(&mut app, BattleInput::Command(fire));
    let active = app.world().resource::<ActiveBattle>();
    assert_eq!(
        active.record.last(),
        Some(&fire),
        "{:?}",
        app.world().resource::<Notice>()
    );
    assert_eq!(active.dice.typed, vec![5], "the record keeps the real roll");
    assert_eq!(hash_of(&app), GameState::state_hash(&expected));
    assert!(
        active.extra.rolls.iter().any(|r| r.contains("rolls 5")),
        "{:?}",
        active.extra.rolls
    );
}

/// The battle of `app` made a game of its own battle file, written into a
/// fresh folder, as a person who opened that file has it.
fn from_file(app: &mut App, test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sandtable-battle-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("battle.ron");
    let mut active = app.world_mut().resource_mut::<ActiveBattle>();
    std::fs::write(&file, active.setup.to_ron()).expect("written");
    active.source = sandtable::session::ScenarioSource::File(file.clone());
    dir
}

fn save(app: &mut App) -> std::path::PathBuf {
    app.world_mut()
        .write_message(sandtable::session::SaveRequest::own_file());
    app.update();
    let active = app.world().resource::<ActiveBattle>();
    let file = active.file.clone().unwrap_or_else(|| {
        panic!(
            "saved: {:?}",
            app.world().resource::<sandtable::session::Notice>()
        )
    });
    assert!(!active.has_unsaved_work());
    file
}

#[test]
fn a_saved_battle_opens_again_as_it_stood_and_replays_through_the_contract() {
    // Into the second game turn, with shots, marches and melees rolled.
    let mut app = play_until("open-field.ron", |game, _| {
        game.turn() >= 2 && GameState::dice(game).position() > 0
    });
    let dir = from_file(&mut app, "save");
    assert!(app.world().resource::<ActiveBattle>().has_unsaved_work());
    let file = save(&mut app);
    assert_eq!(file, dir.join("battle.moves"), "beside its battle file");
    assert!(
        common::notice(&app).starts_with("saved to "),
        "{}",
        common::notice(&app)
    );
    let active = app.world().resource::<ActiveBattle>().clone();
    assert!(!active.record.is_empty());
    assert!(!active.dice.rolled.is_empty(), "dice were rolled");

    let opened = sandtable::warpspawn::files::open_battle(&file, None).expect("it opens");
    assert!(opened.notes.is_empty(), "{:?}", opened.notes);
    let again = &opened.active;
    assert_eq!(again.record, active.record);
    assert_eq!(
        GameState::state_hash(again.game.game()),
        GameState::state_hash(active.game.game())
    );
    assert_eq!(
        again.dice.rolled, active.dice.rolled,
        "the same dice, from the seed"
    );
    assert_eq!(again.file.as_deref(), Some(file.as_path()));
    assert!(!again.has_unsaved_work());
    assert!(!again.dice.real);

    // The record is the notation with its headers, as the CLI replays it:
    // the seed and no script of dice.
    let record: sandtable_core::record::Record<Command> =
        sandtable_scenario::records::read(&file).expect("a record");
    assert_eq!(record.header("Scenario"), Some("battle.ron"));
    assert_eq!(
        record.header("Seed"),
        Some(active.setup.setup.seed.to_string().as_str())
    );
    assert_eq!(record.header("Dice"), None);
    assert_eq!(record.header("Seats"), Some("person, person"));
    let mut game = Game::new(
        &active.setup.setup,
        sandtable_core::dice::Dice::seeded(active.setup.setup.seed),
    )
    .expect("it starts");
    for (_, command) in &record.commands {
        let (seat, _) = legal(&game);
        let mut events = Vec::new();
        GameState::apply_into(&mut game, seat, command, &mut events).expect("legal");
    }
    assert_eq!(
        GameState::state_hash(&game),
        GameState::state_hash(active.game.game())
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_battle_with_real_dice_is_saved_with_every_die_rolled() {
    let mut app = play_until("open-field.ron", |game, list| {
        game.turn() >= 2 && list.iter().any(|l| lone(game, l))
    });
    let dir = from_file(&mut app, "real-dice");
    let generated = app.world().resource::<ActiveBattle>().dice.rolled.clone();
    assert!(!generated.is_empty(), "the generator rolled first");
    send(&mut app, BattleInput::RealDice(true));
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let fire = list
        .iter()
        .find(|l| lone(&game, l))
        .expect("a shot")
        .command;
    app.world_mut()
        .resource_mut::<sandtable::session::dice::TypedRolls>()
        .0 = "2".into();
    send(&mut app, BattleInput::Command(fire));
    let active = app.world().resource::<ActiveBattle>().clone();
    assert_eq!(
        active.record.last(),
        Some(&fire),
        "{}",
        common::notice(&app)
    );
    let mut all = generated.clone();
    all.push(2);
    assert_eq!(
        active.dice.rolled, all,
        "the generator's rolls, then the real one"
    );

    let file = save(&mut app);
    let record: sandtable_core::record::Record<Command> =
        sandtable_scenario::records::read(&file).expect("a record");
    assert_eq!(
        record.header("Dice"),
        Some(sandtable_core::dice::write_rolls(&all).as_str()),
        "every die, so that it replays roll for roll (R30)"
    );
    let opened = sandtable::warpspawn::files::open_battle(&file, None).expect("it opens");
    assert_eq!(opened.active.record, active.record);
    assert!(opened.active.dice.real, "real dice go on (R30)");
    // The same battle as the rules crate plays it with those dice.
    let mut game = Game::new(
        &active.setup.setup,
        sandtable_core::dice::Dice::scripted(all.clone()),
    )
    .expect("it starts");
    for command in &active.record {
        let (seat, _) = legal(&game);
        let mut events = Vec::new();
        GameState::apply_into(&mut game, seat, command, &mut events).expect("legal");
    }
    assert_eq!(game.stacks(), active.game.stacks(), "the same pieces");
    assert_eq!(game.stacks(), opened.active.game.stacks());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn closing_the_window_on_an_unsaved_battle_asks_first() {
    use sandtable::session::{Dialog, DialogAnswer, Leaving};
    let mut app = play_until("open-field.ron", |game, _| {
        game.phase() == sandtable_warpspawn::Phase::March
    });
    let dir = from_file(&mut app, "quit");
    common::close_window(&mut app);
    assert_eq!(
        app.world().get_resource::<Dialog>(),
        Some(&Dialog::UnsavedMoves(Leaving::Quit))
    );
    assert_eq!(app.should_exit(), None, "the window waits for the answer");
    app.world_mut().write_message(DialogAnswer::Cancel);
    app.update();
    assert_eq!(app.world().get_resource::<Dialog>(), None);
    assert_eq!(app.should_exit(), None, "cancel keeps it open");

    common::close_window(&mut app);
    app.world_mut().write_message(DialogAnswer::SaveFirst);
    app.update();
    let file = dir.join("battle.moves");
    assert!(
        file.is_file(),
        "saved before closing: {}",
        common::notice(&app)
    );
    assert_eq!(app.should_exit(), Some(AppExit::Success));

    // Saved: the window closes at once.
    let opened = sandtable::warpspawn::files::open_battle(&file, None).expect("it opens");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.insert_resource(opened.active);
    app.world_mut().write_message(BattleLoaded);
    app.update();
    common::close_window(&mut app);
    assert_eq!(app.world().get_resource::<Dialog>(), None);
    assert_eq!(app.should_exit(), Some(AppExit::Success));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_command_rebuilds_only_the_stacks_it_changed() {
    let mut app = play_until("open-field.ron", |game, list| {
        game.phase() == sandtable_warpspawn::Phase::March
            && list
                .iter()
                .any(|l| matches!(l.command, Command::March { .. }))
    });
    let entities = |app: &mut App| -> Vec<(Entity, Formation)> {
        let mut all: Vec<(Entity, Formation)> = app
            .world_mut()
            .query::<(Entity, &Formation)>()
            .iter(app.world())
            .map(|(e, f)| (e, *f))
            .collect();
        all.sort_by_key(|(_, f)| (f.hex, f.side.0));
        all
    };
    let before = entities(&mut app);
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let march = list
        .iter()
        .map(|l| l.command)
        .find(|c| matches!(c, Command::March { .. }))
        .expect("a march");
    let Command::March { from, path, .. } = march else {
        unreachable!()
    };
    let touched = |hex: Hex| hex == from || path.as_slice().last() == Some(&hex);
    app.world_mut()
        .resource_mut::<ActiveBattle>()
        .play(march)
        .expect("listed");
    app.update();
    let after = entities(&mut app);
    // The table shows the game as it now stands ...
    let game = game_of(&app);
    let wanted = formations_of(&game);
    let shown: Vec<(Hex, u8, u16, u16)> = after
        .iter()
        .map(|(_, f)| (f.hex, f.side.0, f.infantry, f.cavalry))
        .collect();
    assert_eq!(shown, wanted, "`{march}`");
    // ... and every formation the march did not touch is the same entity.
    let untouched: Vec<&(Entity, Formation)> =
        before.iter().filter(|(_, f)| !touched(f.hex)).collect();
    assert!(!untouched.is_empty());
    for (e, f) in untouched {
        assert!(
            after.contains(&(*e, *f)),
            "{} of side {} was built again by `{march}`",
            f.hex,
            f.side.0
        );
    }
    let pieces = all::<BattlePiece>(&mut app);
    let on_table: u32 = pieces.iter().map(|p| u32::from(p.count)).sum();
    let in_game: u32 = game
        .stacks()
        .iter()
        .map(|s| {
            u32::from(s.cannon)
                + u32::from(s.armed.officers)
                + u32::from(s.baggage)
                + u32::from(s.flags)
                + u32::from(s.routing.heads())
                + u32::from(s.prisoners.heads())
                + u32::from(s.unarmed.heads())
        })
        .sum();
    assert_eq!(on_table, in_game, "every piece once, none left behind");
}

#[test]
fn a_hint_selects_what_a_bot_would_play_with_its_odds_shown() {
    let mut app = play_until("open-field.ron", |game, list| {
        game.phase() == sandtable_warpspawn::Phase::March
            && game.owed().is_none()
            && list
                .iter()
                .any(|l| matches!(l.command, Command::March { .. }))
    });
    let before = hash_of(&app);
    app.world_mut()
        .write_message(sandtable::session::HintRequest);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let hinted = loop {
        app.update();
        let active = app.world().resource::<ActiveBattle>();
        if let Some(command) = app
            .world()
            .resource::<sandtable::warpspawn::play::BattleHint>()
            .for_game(active)
        {
            break command;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "a hint within a minute: {}",
            common::notice(&app)
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    app.update();
    assert_eq!(hash_of(&app), before, "a hint plays nothing");
    let game = game_of(&app);
    let (seat, _) = legal(&game);
    assert!(
        GameState::check(&game, seat, &hinted).is_ok(),
        "`{hinted}` is legal"
    );
    assert!(
        common::notice(&app).contains(&hinted.to_string()),
        "{}",
        common::notice(&app)
    );
    // The hint is selected: the panel lists it (or its family's command) to
    // play, with its odds.
    if hinted != Command::End {
        let pick = *app.world().resource::<BattlePick>();
        assert!(pick.from.is_some() && pick.to.is_some(), "{pick:?}");
        let listed = GameState::listed_as(&game, &hinted);
        let choices = &app.world().resource::<BattleChoices>().choices;
        assert!(
            choices
                .iter()
                .any(|c| GameState::listed_as(&game, &c.command) == listed),
            "`{hinted}` among {:?}",
            choices.iter().map(|c| c.command).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_battle_opened_with_another_seed_is_saved_with_that_seed() {
    let dir = std::env::temp_dir().join(format!("sandtable-battle-{}-seed", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let source =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/warpspawn/open-field.ron");
    std::fs::copy(&source, dir.join("open-field.ron")).expect("copied");
    let record = dir.join("seven.moves");
    std::fs::write(
        &record,
        "[Scenario \"open-field.ron\"]\n[Seed \"7\"]\nend\n",
    )
    .expect("written");
    let opened = sandtable::warpspawn::files::open_battle(&record, None).expect("it opens");
    let (mut active, seats) = (
        opened.active,
        opened.seats.expect("a saved battle names its seats"),
    );
    assert_eq!(
        active.game.battle().setup.seed,
        7,
        "played with the record's seed"
    );
    let again = dir.join("again.moves");
    sandtable::warpspawn::files::save_battle(&mut active, &seats, Some(&again), false)
        .expect("saved");
    let saved: sandtable_core::record::Record<Command> =
        sandtable_scenario::records::read(&again).expect("a record");
    assert_eq!(saved.header("Seed"), Some("7"), "not the battle file's 42");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_file_of_another_system_opens_from_the_battle_and_a_battle_from_its_table() {
    use sandtable::cache::play::ActiveGame;
    use sandtable::cache::table::UnitPiece;
    use sandtable::session::{Dialog, DialogAnswer, Leaving, LoadRequest};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let cache = root.join("scenarios/two-factors.ron");
    let field = root.join("scenarios/warpspawn/open-field.ron");
    let river = root.join("scenarios/warpspawn/river-bridge.ron");
    let (mut app, from, _, _) = march_to_drag();
    let played = app.world().resource::<ActiveBattle>().record.len();
    assert!(played > 0, "the battle has moves saved nowhere");
    send(&mut app, BattleInput::Click(from));
    // Opening a Cache table asks first: the battle's moves are saved nowhere.
    app.world_mut().write_message(LoadRequest::new(&cache));
    app.update();
    let asked = app.world().get_resource::<Dialog>().cloned();
    assert_eq!(
        asked,
        Some(Dialog::UnsavedMoves(Leaving::Open(cache.clone(), None)))
    );
    assert!(app.world().get_resource::<ActiveGame>().is_none());
    assert_eq!(app.world().resource::<ActiveBattle>().record.len(), played);
    app.world_mut().write_message(DialogAnswer::Discard);
    app.update();
    app.update();
    // The Cache table took the table, and nothing of the battle is left.
    let game = app
        .world()
        .get_resource::<ActiveGame>()
        .unwrap_or_else(|| panic!("the Cache table opens: {}", common::notice(&app)));
    let units = game.game.units().len();
    assert!(app.world().get_resource::<ActiveBattle>().is_none());
    assert!(all::<HexTile>(&mut app).is_empty(), "no hex is left");
    assert!(
        all::<Formation>(&mut app).is_empty(),
        "no formation is left"
    );
    assert!(all::<BattlePiece>(&mut app).is_empty(), "no piece is left");
    assert_eq!(all::<UnitPiece>(&mut app).len(), units, "one a unit");
    assert_eq!(*app.world().resource::<BattlePick>(), BattlePick::default());
    let on_table = |app: &App| {
        app.world()
            .resource::<State<sandtable::session::open::OnTable>>()
            .get()
            .0
    };
    assert_eq!(on_table(&app), Some("cache"));
    // A bad file leaves it alone.
    app.world_mut()
        .write_message(LoadRequest::new(root.join("no/such/battle.ron")));
    app.update();
    assert!(app.world().get_resource::<ActiveGame>().is_some());
    // A battle opens from the Cache table (no Cache moves to lose).
    app.world_mut().write_message(LoadRequest::new(&river));
    app.update();
    app.update();
    let battle = app
        .world()
        .get_resource::<ActiveBattle>()
        .unwrap_or_else(|| panic!("the battle opens: {}", common::notice(&app)));
    let map = battle.game.battle().map;
    let wanted = formations_of(&battle.game);
    assert!(battle.record.is_empty());
    assert!(app.world().get_resource::<ActiveGame>().is_none());
    assert_eq!(on_table(&app), Some("warpspawn"));
    assert!(all::<UnitPiece>(&mut app).is_empty(), "no unit is left");
    assert_eq!(
        all::<HexTile>(&mut app).len(),
        usize::from(map.columns) * usize::from(map.rows)
    );
    let mut formations: Vec<(Hex, u8, u16, u16)> = all::<Formation>(&mut app)
        .iter()
        .map(|f| (f.hex, f.side.0, f.infantry, f.cavalry))
        .collect();
    formations.sort();
    assert_eq!(formations, wanted, "the new battle's formations, only");
    // And another battle after it: the table is the new one's alone.
    app.world_mut().write_message(LoadRequest::new(&field));
    app.update();
    app.update();
    let battle = app.world().resource::<ActiveBattle>();
    assert_eq!(
        battle.source,
        sandtable::session::ScenarioSource::File(field.clone())
    );
    let map = battle.game.battle().map;
    let wanted = formations_of(&battle.game);
    let mut formations: Vec<(Hex, u8, u16, u16)> = all::<Formation>(&mut app)
        .iter()
        .map(|f| (f.hex, f.side.0, f.infantry, f.cavalry))
        .collect();
    formations.sort();
    assert_eq!(formations, wanted, "the open field's formations, only");
    assert_eq!(
        all::<HexTile>(&mut app).len(),
        usize::from(map.columns) * usize::from(map.rows)
    );
}

/// Plays `command` as a person does at the table: the hand-over
/// confirmed; an owed decision's answer, or End, from the panel; anything
/// else by clicking what acts and where, then Play on the choice on show.
fn play_by_clicks(app: &mut App, command: Command, legal: &Legal<Command>) {
    confirm(app);
    let game = game_of(app);
    if command == Command::End {
        assert_eq!(
            app.world().resource::<BattleChoices>().end_refused,
            None,
            "End phase is offered"
        );
        send(app, BattleInput::Command(Command::End));
    } else if game.owed().is_some() {
        play_choice(app, command);
    } else {
        let from = legal
            .piece
            .and_then(Hex::from_spot)
            .expect("what acts has a hex");
        let to = legal.at.and_then(Hex::from_spot).expect("where it goes");
        send(app, BattleInput::Click(from));
        send(app, BattleInput::Click(to));
        play_choice(app, command);
    }
}

#[test]
fn a_whole_battle_is_played_to_its_end_by_clicks_and_stands_as_its_record_replays() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut app = battle_app("open-field.ron");
    let mut played = 0;
    while game_of(&app).decider().is_some() {
        assert!(played < 5_000, "the battle ends");
        let game = game_of(&app);
        let (_, list) = legal(&game);
        // End is picked seldom and an attack often, so that the sides
        // meet and fight before the turns run out.
        let others: Vec<&Legal<Command>> =
            list.iter().filter(|l| l.command != Command::End).collect();
        let attacks: Vec<&Legal<Command>> = list
            .iter()
            .filter(|l| matches!(l.command, Command::Attack { .. }))
            .collect();
        // Marches go towards the enemy more often than not.
        let enemy = game.active().other();
        let nearness = |l: &Legal<Command>| {
            let to = l.at.and_then(Hex::from_spot)?;
            game.stacks()
                .iter()
                .filter(|s| s.side == enemy)
                .map(|s| s.hex.distance(to))
                .min()
        };
        let closest = list
            .iter()
            .filter(|l| matches!(l.command, Command::March { .. }))
            .min_by_key(|l| nearness(l));
        let pick = if !attacks.is_empty() && rng.random_range(0..2) == 0 {
            attacks[rng.random_range(0..attacks.len())]
        } else if let Some(march) = closest.filter(|_| rng.random_range(0..3) > 0) {
            march
        } else if others.is_empty() || rng.random_range(0..30) == 0 {
            &list[rng.random_range(0..list.len())]
        } else {
            others[rng.random_range(0..others.len())]
        };
        let wanted = expected_after(&app, pick.command);
        play_by_clicks(&mut app, pick.command, pick);
        assert_eq!(
            hash_of(&app),
            wanted,
            "`{}` as the rules play it",
            pick.command
        );
        played += 1;
    }
    let active = app.world().resource::<ActiveBattle>();
    let kinds: std::collections::BTreeSet<String> = active
        .record
        .iter()
        .map(|c| {
            c.to_string()
                .split(' ')
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    // A battle of every kind of command the table clicks, not a walk.
    for kind in ["fire", "march", "attack", "advance", "rally", "rout", "end"] {
        assert!(kinds.contains(kind), "no `{kind}` played: {kinds:?}");
    }
    assert_eq!(
        active.record.len(),
        played,
        "every command is in the record"
    );
    assert!(active.game.ending().is_some(), "the battle has its outcome");
    // The record replays through the contract to the same battle.
    let mut replay = Game::new(
        &active.setup.setup,
        sandtable_core::dice::Dice::seeded(active.setup.setup.seed),
    )
    .expect("it starts");
    for command in &active.record {
        replay.apply(command).expect("the record replays");
    }
    assert_eq!(
        GameState::state_hash(&replay),
        GameState::state_hash(active.game.game())
    );
}

#[test]
fn the_setup_sheet_is_printed_from_the_battle_panel_beside_its_battle_file() {
    let mut app = battle_app("open-field.ron");
    let dir = from_file(&mut app, "sheet");
    let out = dir.join("battle.pdf");
    send(&mut app, BattleInput::PrintSheet);
    let bytes = std::fs::read(&out).expect("the sheet is written");
    assert!(bytes.starts_with(b"%PDF-"), "a PDF");
    let text = common::notice(&app);
    assert!(text.contains("sheet written to"), "{text}");
    // Its pages are the battle's: nine tiles of the hex map and a listing.
    let battle = app.world().resource::<ActiveBattle>().setup.clone();
    let sheet = sandtable_sheet::plan_battle(&battle, sandtable_sheet::Paper::A4).expect("planned");
    assert_eq!(sheet.page_count(), 10);
    assert_eq!(
        String::from_utf8_lossy(&bytes)
            .matches("/Type/Page/")
            .count(),
        sheet.page_count()
    );
    // Someone's file in its place is left alone, and the notice says so.
    std::fs::write(&out, "my notes").expect("written");
    send(&mut app, BattleInput::PrintSheet);
    assert_eq!(std::fs::read_to_string(&out).expect("kept"), "my notes");
    assert!(app.world().resource::<Notice>().error);
    assert!(
        common::notice(&app).contains("not a PDF"),
        "{}",
        common::notice(&app)
    );
}

#[test]
fn a_press_that_barely_moves_is_a_click_and_targets_from_the_selection() {
    // A march from one formation onto a hex where another of the side's
    // stands, which could act itself.
    let fits = |game: &Game, list: &[Legal<Command>], l: &Legal<Command>| match l.command {
        Command::March { from, path, .. } => {
            let to = path.as_slice()[0];
            path.as_slice().len() == 1
                && game.stack(to, game.active()).is_some()
                && list.iter().any(|m| acts_from(&m.command, to))
                && from != to
        }
        _ => false,
    };
    let mut app = play_until("open-field.ron", |game, list| {
        list.iter().any(|l| fits(game, list, l))
    });
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let Command::March { from, path, .. } = list
        .iter()
        .find(|l| fits(&game, &list, l))
        .expect("a march onto a friend")
        .command
    else {
        unreachable!()
    };
    let to = path.as_slice()[0];
    send(&mut app, BattleInput::Click(from));
    // The second press moves a pixel: the picking starts a drag from `to`,
    // then hears a click there and the drag let go where it began.
    app.world_mut().write_message(BattleInput::Grab(to));
    app.world_mut().write_message(BattleInput::Click(to));
    app.world_mut().write_message(BattleInput::Drop(to));
    send(&mut app, BattleInput::Release);
    let pick = *app.world().resource::<BattlePick>();
    assert_eq!(
        (pick.from, pick.to),
        (Some(from), Some(to)),
        "{from} to {to}"
    );
    assert_eq!(
        hash_of(&app),
        GameState::state_hash(&game),
        "nothing played"
    );
}

#[test]
fn a_whole_formation_dropped_where_only_part_may_go_is_refused_with_the_reason() {
    // A formation of foot and horse, and a hex two away that the horse
    // alone may reach.
    let fits = |game: &Game, l: &Legal<Command>| match l.command {
        Command::March { from, path, .. } => {
            path.as_slice().len() == 2
                && game.stack(from, game.active()).is_some_and(|s| {
                    s.armed.men.inf > 0 && s.armed.men.cav > 0 && s.marks.marched.is_empty()
                })
        }
        _ => false,
    };
    let mut app = play_until("open-field.ron", |game, list| {
        list.iter().any(|l| fits(game, l))
    });
    let game = game_of(&app);
    let (_, list) = legal(&game);
    let Command::March { from, path, .. } = list
        .iter()
        .find(|l| fits(&game, l))
        .expect("a march")
        .command
    else {
        unreachable!()
    };
    let far = path.as_slice()[1];
    let before = hash_of(&app);
    send(&mut app, BattleInput::Grab(from));
    app.world_mut().write_message(BattleInput::Drop(far));
    send(&mut app, BattleInput::Release);
    assert_eq!(
        hash_of(&app),
        before,
        "the foot do not go two hexes, nor the horse alone"
    );
    let notice = app.world().resource::<Notice>().clone();
    assert!(notice.error, "{notice:?}");
    assert!(
        notice.text.unwrap_or_default().contains("(R"),
        "with its ruling"
    );
    // The panel holds the refused march, to change what goes.
    let pick = *app.world().resource::<BattlePick>();
    assert_eq!((pick.from, pick.to), (Some(from), Some(far)));
    assert!(pick.split.is_some());
}

#[test]
fn a_battle_file_with_a_mistake_says_what_it_is_with_its_ruling() {
    let mut app = battle_app("open-field.ron");
    let dir = from_file(&mut app, "broken");
    let file = dir.join("broken.ron");
    // Red's 19 infantry in N2 made 29: over a hex's 20 (R62) and its points.
    let text = app
        .world()
        .resource::<ActiveBattle>()
        .setup
        .to_ron()
        .replace("infantry: 19", "infantry: 29");
    std::fs::write(&file, text).expect("written");
    app.world_mut()
        .write_message(sandtable::session::LoadRequest::new(&file));
    app.update();
    let text = common::notice(&app);
    assert!(text.contains("(R6"), "{text}");
    assert!(!text.contains("does not play"), "{text}");
    assert!(
        app.world().get_resource::<ActiveBattle>().is_some(),
        "the battle stays"
    );
}
