//! Frontiers on the table, headless: a skirmish opened from its file
//! builds the open table at its real size with every terrain piece,
//! building element and unit; commands typed or picked from the legal
//! list are played through the contract, each seat behind the curtain
//! seeing only its own hand and markers (R149); the units on the table
//! follow the game through every command; a refusal changes nothing and
//! says why; the game is saved and opened again.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use sandtable::frontiers::panel::state_lines;
use sandtable::frontiers::play::{SkirmishInput, person_legal};
use sandtable::frontiers::table::{ElementPiece, TerrainPiece, UnitPiece};
use sandtable::frontiers::{ActiveSkirmish, world_pt};
use sandtable::session::open::OnTable;
use sandtable::session::{LoadRequest, Notice, SaveRequest, Seats, StartTurn, UndoRequest};
use sandtable::table::TableShown;
use sandtable_core::game::{GameState, Seat, Surface, Viewer};

mod common;

/// The table without a window; card windows wait for a pass typed or
/// clicked, as the games these tests play were written
/// ([`sandtable::frontiers::play::AutoPass`] off).
fn headless() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.update();
    app.insert_resource(sandtable::frontiers::play::AutoPass(false));
    app
}

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/frontiers")
        .join(name)
}

fn skirmish(app: &App) -> &ActiveSkirmish {
    app.world()
        .get_resource::<ActiveSkirmish>()
        .unwrap_or_else(|| panic!("a skirmish is on the table: {}", common::notice(app)))
}

fn open(app: &mut App, path: &Path) {
    app.world_mut().write_message(LoadRequest::new(path));
    app.update();
    app.update();
}

/// The person at the table takes it, as the curtain's button does.
fn take_table(app: &mut App) {
    app.world_mut().write_message(StartTurn);
    app.update();
    app.update();
}

/// Plays `input` as the person at the table; whether it was played.
fn input(app: &mut App, input: SkirmishInput) -> bool {
    let before = skirmish(app).record.len();
    app.world_mut().write_message(input);
    app.update();
    app.update();
    skirmish(app).record.len() == before + 1
}

/// Every unit on the table stands where the rules crate holds it, and
/// only those on the table are there.
fn units_follow(app: &mut App) {
    let game = skirmish(app).game.game().clone();
    let table = game.setup().table;
    let mut q = app.world_mut().query::<(&UnitPiece, &Transform)>();
    let shown: Vec<(UnitPiece, Vec3)> = q
        .iter(app.world())
        .map(|(u, t)| (u.clone(), t.translation))
        .collect();
    let on_table = game
        .units()
        .iter()
        .filter(|u| !u.waiting && u.aboard.is_none() && (u.alive || u.carcass))
        .count();
    assert_eq!(shown.len(), on_table, "one piece a unit on the table");
    for (piece, at) in shown {
        let u = &game.units()[piece.index];
        assert_eq!(piece.tag, u.tag.to_string());
        let want = world_pt(table, u.at);
        assert!(
            (at.x - want.x).abs() < 1e-4 && (at.z - want.z).abs() < 1e-4,
            "{} at {} shown at {at}",
            u.tag,
            u.at
        );
    }
}

/// A record of two people's game of `scenario` written into `dir` as
/// `name`: the shipped `skirmish.moves` (its seed kept) up to its first
/// line `until`, then `more`. Returns the file and its count of commands.
fn record_upto(
    dir: &Path,
    name: &str,
    scenario: &str,
    until: &str,
    more: &[&str],
) -> (PathBuf, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let moves =
        std::fs::read_to_string(root.join("crates/cli/tests/data/skirmish.moves")).expect("moves");
    let (headers, commands): (Vec<&str>, Vec<&str>) =
        moves.lines().partition(|l| l.starts_with('['));
    let upto: Vec<&str> = commands
        .iter()
        .copied()
        .take_while(|l| *l != until)
        .chain(more.iter().copied())
        .collect();
    let file = dir.join(name);
    std::fs::write(
        &file,
        format!(
            "[Scenario \"{scenario}\"]\n[Seats \"person, person\"]\n{}\n{}\n",
            headers.join("\n"),
            upto.join("\n")
        ),
    )
    .expect("written");
    (file, upto.len())
}

#[test]
fn a_skirmish_is_played_on_the_table_each_side_behind_the_curtain() {
    let mut app = headless();
    open(&mut app, &scenario("skirmish.ron"));
    assert_eq!(
        app.world().resource::<State<OnTable>>().get().0,
        Some("frontiers")
    );
    let setup = skirmish(&app).game.game().setup().clone();
    assert_eq!(
        app.world().resource::<TableShown>().surface,
        Some(Surface::Plane {
            width_mm: 1219,
            depth_mm: 610
        })
    );
    let count = |app: &mut App, f: fn(&mut World) -> usize| f(app.world_mut());
    assert_eq!(
        count(&mut app, |w| w.query::<&TerrainPiece>().iter(w).count()),
        setup.terrain.len()
    );
    assert_eq!(
        count(&mut app, |w| w.query::<&ElementPiece>().iter(w).count()),
        setup.elements.len()
    );
    units_follow(&mut app);

    // The curtain is down for the Legion, who decides first.
    assert!(skirmish(&app).curtain());
    take_table(&mut app);
    assert_eq!(skirmish(&app).viewer, Viewer::Player(Seat(0)));
    // A command that is no command, and one the rules refuse: nothing
    // changes, and the notice says why.
    assert!(!input(&mut app, SkirmishInput::Text("jump T1".into())));
    assert!(common::notice(&app).contains("is not a command"));
    assert!(!input(&mut app, SkirmishInput::Text("orders T1:1".into())));
    assert!(
        common::notice(&app).contains("(R105)"),
        "{}",
        common::notice(&app)
    );
    assert!(app.world().resource::<Notice>().error);
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    // The Zirl's Preparation: the table waits behind the curtain, and
    // nothing is played before the Zirl take it.
    assert!(skirmish(&app).curtain());
    assert!(!input(&mut app, SkirmishInput::Text("discard".into())));
    take_table(&mut app);
    assert_eq!(skirmish(&app).viewer, Viewer::Player(Seat(1)));
    // What the Zirl read: the Legion's hand's size, not its cards (R149).
    let lines = state_lines(skirmish(&app));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Legion: 4 cards in hand; ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("Legion: hand")),
        "{lines:?}"
    );
    // A control: the referee's line names the cards.
    let referee = sandtable_frontiers::text::cards_line(skirmish(&app).game.game(), 0, None);
    assert!(referee.starts_with("Legion: hand ["), "{referee}");
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));

    // From here, each person plays the first command the panel lists,
    // taking the table when it is handed over, for 60 commands: the units
    // follow the game at each.
    let mut moved = 0;
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(7);
    for _ in 0..60 {
        if skirmish(&app).curtain() {
            take_table(&mut app);
        }
        let seats = app.world().resource::<Seats>().clone();
        let Ok((_, legal)) = person_legal(skirmish(&app), &seats) else {
            break;
        };
        // Naming a move, and moving, are preferred: the table must follow.
        let mut pick = legal
            .iter()
            .find(|l| l.command.to_string().contains(" move"))
            .or_else(|| {
                legal
                    .iter()
                    .find(|l| l.command.to_string().starts_with("move "))
            })
            .unwrap_or(&legal[0])
            .command;
        // A move's listed member stays put: a member drawn goes somewhere.
        if pick.to_string().starts_with("move ") {
            let game = skirmish(&app).game.game();
            let seat = sandtable_core::game::next_seat(game).expect("a seat");
            let mut members = Vec::new();
            game.sample_into(seat, &pick, 1, &mut rng, &mut members);
            pick = members.pop().unwrap_or(pick);
            if pick.to_string().contains(',') {
                moved += 1;
            }
        }
        assert!(
            input(&mut app, SkirmishInput::Command(pick)),
            "{pick}: {}",
            common::notice(&app)
        );
        units_follow(&mut app);
    }
    assert!(moved > 0, "a unit moved on the table");
    // Undo goes back one command while no reveal or roll stands between.
    let before = skirmish(&app).record.len();
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    let after = skirmish(&app).record.len();
    assert!(after == before - 1 || app.world().resource::<Notice>().error);
    units_follow(&mut app);

    // Saved and opened again: the same record, the same table.
    let dir = common::temp_dir("frontiers-table", "save");
    let saved = dir.join("skirmish.moves");
    app.world_mut().write_message(SaveRequest {
        to: Some(saved.clone()),
        replace: false,
    });
    app.update();
    assert!(saved.exists(), "{}", common::notice(&app));
    let record: Vec<String> = skirmish(&app)
        .record
        .iter()
        .map(ToString::to_string)
        .collect();
    let units = skirmish(&app).game.game().units().to_vec();
    open(&mut app, &saved);
    let again: Vec<String> = skirmish(&app)
        .record
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(again, record);
    assert_eq!(skirmish(&app).game.game().units(), &units[..]);
    units_follow(&mut app);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_confrontation_opens_with_its_units_waiting_to_deploy() {
    let mut app = headless();
    open(&mut app, &scenario("confrontation.ron"));
    // Every unit waits off the table (R146): none stands on it yet.
    let mut q = app.world_mut().query::<&UnitPiece>();
    assert_eq!(q.iter(app.world()).count(), 0);
    // The goal: 80% of the enemy list, the Zirl's 250 AP and the Legion's
    // 245 (R146).
    let lines = state_lines(skirmish(&app));
    assert!(
        lines
            .iter()
            .any(|l| l == "Goal: 80% of the enemy list (R146): Legion 0 of 200, Zirl 0 of 196"),
        "{lines:?}"
    );
    take_table(&mut app);
    let seat = sandtable_core::game::next_seat(skirmish(&app).game.game()).expect("a seat");
    let seats = app.world().resource::<Seats>().clone();
    let (s, legal) = person_legal(skirmish(&app), &seats).expect("a person deploys");
    assert_eq!(s, seat);
    let deploy = legal
        .iter()
        .find(|l| l.command.to_string().starts_with("deploy "))
        .expect("a deployment listed")
        .command;
    assert!(input(&mut app, SkirmishInput::Command(deploy)));
    let mut q = app.world_mut().query::<&UnitPiece>();
    assert_eq!(
        q.iter(app.world()).count(),
        1,
        "{deploy} stands on the table"
    );
    units_follow(&mut app);
    // By the mouse: a unit chosen is set down where the table is clicked,
    // and a point far from its edge is refused with the ruling.
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    let game = skirmish(&app).game.game().clone();
    let seat = sandtable_core::game::next_seat(&game).expect("a seat");
    let edge_y = if seat == Seat(0) { 15 } else { 610 - 15 };
    let seats = app.world().resource::<Seats>().clone();
    let (_, legal) = person_legal(skirmish(&app), &seats).expect("a person deploys");
    let tag = legal
        .iter()
        .find_map(|l| match l.command {
            sandtable_frontiers::Command::Deploy { unit, .. }
                if game
                    .find(unit)
                    .is_some_and(|i| game.units()[i].data.base.size_mm() == (30, 30)) =>
            {
                Some(unit)
            }
            _ => None,
        })
        .expect("a round unit waits");
    let i = game.find(tag).expect("the unit");
    assert!(!input(&mut app, SkirmishInput::Choose(i)));
    let far = sandtable_frontiers::geometry::Pt::new(600, 300);
    assert!(!input(&mut app, SkirmishInput::Click(far)));
    assert!(
        common::notice(&app).contains("(R146)"),
        "{}",
        common::notice(&app)
    );
    let spot = sandtable_frontiers::geometry::Pt::new(900, edge_y);
    assert!(
        input(&mut app, SkirmishInput::Click(spot)),
        "{}",
        common::notice(&app)
    );
    assert_eq!(skirmish(&app).game.game().units()[i].at, spot);
    units_follow(&mut app);
}

#[test]
fn a_game_played_with_real_dice_opens_goes_on_with_them_and_is_saved_with_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = root.join("crates/cli/tests/data");
    let dir = common::temp_dir("frontiers-table", "dice");
    let moves = std::fs::read_to_string(data.join("skirmish-dice.moves")).expect("the record");
    let record = dir.join("dice.moves");
    std::fs::write(
        &record,
        format!(
            "[Scenario \"{}\"]\n[Dice \"6 6 1 2 6 1 1 5 5 6 6\"]\n{moves}",
            data.join("skirmish-decks.ron").display()
        ),
    )
    .expect("written");
    let mut app = headless();
    open(&mut app, &record);
    let commands = moves.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(
        skirmish(&app).record.len(),
        commands,
        "{}",
        common::notice(&app)
    );
    // The game's dice are the rolls given, not the generator's, and real
    // dice go on from here, typed in (R30).
    assert!(skirmish(&app).game.game().dice().left().is_some());
    assert!(skirmish(&app).dice.real);
    units_follow(&mut app);
    // Saved with the dice the game rolled: the record's last three rolls
    // were never rolled, and are no part of the game (R30); opened again,
    // the same game.
    let saves_every_die = |app: &mut App, name: &str| {
        let saved = dir.join(name);
        app.world_mut().write_message(SaveRequest {
            to: Some(saved.clone()),
            replace: false,
        });
        app.update();
        let text = std::fs::read_to_string(&saved).expect("saved");
        assert!(text.contains("[Dice \"6 6 1 2 6 1 1 5\"]"), "{text}");
        let units = skirmish(app).game.game().units().to_vec();
        open(app, &saved);
        assert_eq!(skirmish(app).game.game().units(), &units[..]);
    };
    saves_every_die(&mut app, "again.moves");
    // With a bot at the table the generator rolls on, and the save still
    // keeps every roll: the seed alone would not replay what was played.
    std::fs::write(
        &record,
        format!(
            "[Scenario \"{}\"]\n[Seats \"person, bot 2\"]\n[Dice \"6 6 1 2 6 1 1 5 5 6 6\"]\n{moves}",
            data.join("skirmish-decks.ron").display()
        ),
    )
    .expect("written");
    let mut app = headless();
    // The bot waits: the save holds the record's commands alone.
    app.insert_resource(sandtable::session::BotPace(std::time::Duration::from_secs(
        3600,
    )));
    open(&mut app, &record);
    assert!(!skirmish(&app).dice.real, "a bot reads no real dice (R30)");
    saves_every_die(&mut app, "with-bot.moves");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_unit_is_selected_and_moved_by_clicks_what_it_plays_shown_first() {
    use sandtable::frontiers::hand::{PointerAt, Preview, SkirmishPick};
    use sandtable_core::game::Mark;
    use sandtable_frontiers::Command;
    let mut app = headless();
    open(&mut app, &scenario("skirmish.ron"));
    // Until a person's decision is a unit's move: Preparations and orders
    // as listed, each step's names as moves, windows passed.
    let mut mover = None;
    for _ in 0..30 {
        if skirmish(&app).curtain() {
            take_table(&mut app);
        }
        let seats = app.world().resource::<Seats>().clone();
        let (_, legal) = person_legal(skirmish(&app), &seats).expect("a person decides");
        if let Some(m) = legal.iter().find_map(|l| match l.command {
            Command::Move { unit, .. } => Some(unit),
            _ => None,
        }) {
            mover = Some(m);
            break;
        }
        let pick = legal
            .iter()
            .find(|l| l.command.to_string().contains(" move"))
            .unwrap_or(&legal[0])
            .command;
        assert!(input(&mut app, SkirmishInput::Command(pick)), "{pick}");
    }
    let tag = mover.expect("a unit's move comes");
    let game = skirmish(&app).game.game().clone();
    let i = game.find(tag).expect("the unit");
    let at = game.units()[i].at;
    // Without a selection, a click on the bare table plays nothing.
    let empty = sandtable_frontiers::geometry::Pt::new(at.x + 200, at.y + 200);
    assert!(!input(&mut app, SkirmishInput::Click(empty)));
    assert!(
        common::notice(&app).contains("click one of your units"),
        "{}",
        common::notice(&app)
    );
    // A click on the unit selects it.
    assert!(!input(&mut app, SkirmishInput::Click(at)));
    assert_eq!(
        app.world().resource::<SkirmishPick>().unit,
        Some(i),
        "{}",
        common::notice(&app)
    );
    // The pointer 45 mm from it: the move a click would play, its path
    // and its length against the unit's Movement, before it is played.
    let target = [(0, 45), (45, 0), (0, -45), (-45, 0)]
        .iter()
        .map(|(dx, dy)| sandtable_frontiers::geometry::Pt::new(at.x + dx, at.y + dy))
        .find(|p| {
            matches!(
                sandtable::frontiers::hand::click_means(
                    &game,
                    sandtable_core::game::next_seat(&game).expect("a seat"),
                    &SkirmishPick::of(i),
                    *p
                ),
                sandtable::frontiers::hand::ClickMeans::Play(_)
            )
        })
        .expect("a free direction");
    app.world_mut().resource_mut::<PointerAt>().0 = Some(target);
    app.update();
    let preview = app.world().resource::<Preview>().clone();
    let command = preview.command.expect("a move shown");
    assert!(
        preview.words.contains("LNS of its Movement"),
        "{}",
        preview.words
    );
    assert!(
        preview.marks.iter().any(|m| matches!(m, Mark::Path { .. })),
        "{:?}",
        preview.marks
    );
    // A leg added by Shift-click: the move then goes through it. A leg
    // into the relay hut's wall is refused with its ruling, and adds
    // nothing.
    let wall = sandtable_frontiers::geometry::Pt::new(620, 262);
    assert!(!input(&mut app, SkirmishInput::Waypoint(wall)));
    assert!(
        common::notice(&app).contains("no leg to"),
        "{}",
        common::notice(&app)
    );
    assert!(
        common::notice(&app).contains("(R1"),
        "{}",
        common::notice(&app)
    );
    assert!(app.world().resource::<SkirmishPick>().legs.is_empty());
    let half = sandtable_frontiers::geometry::Pt::new((at.x + target.x) / 2, (at.y + target.y) / 2);
    assert!(!input(&mut app, SkirmishInput::Waypoint(half)));
    assert_eq!(app.world().resource::<SkirmishPick>().legs, [half]);
    app.update();
    let through = app
        .world()
        .resource::<Preview>()
        .command
        .expect("the move through the leg");
    assert_eq!(through.to_string(), format!("move {tag} {half} {target}"));
    // Far beyond its reach, the last leg stops short where the rules take
    // the move: within its Movement (R113).
    let far = sandtable_frontiers::geometry::Pt::new(
        half.x + 10 * (target.x - half.x),
        half.y + 10 * (target.y - half.y),
    );
    app.world_mut().resource_mut::<PointerAt>().0 = Some(far);
    app.update();
    let short = app
        .world()
        .resource::<Preview>()
        .command
        .expect("a move short of the pointer");
    let Command::Move { legs, .. } = short else {
        panic!("{short} is a move")
    };
    let points = legs.points().expect("points");
    assert_eq!(points.len(), 2, "{short}");
    assert_eq!(points[0], half);
    assert_ne!(points[1], far);
    let length: f64 = [at, points[0], points[1]]
        .windows(2)
        .map(|w| f64::from(w[1].x - w[0].x).hypot(f64::from(w[1].y - w[0].y)))
        .sum();
    let reach = f64::from(game.units()[i].movement()) * 30.0;
    assert!(length <= reach + 1.0, "{short}: {length} mm, reach {reach}");
    // And it goes as far as the rules take it: 2 mm further along the
    // leg is refused.
    let (dx, dy) = (f64::from(far.x - half.x), f64::from(far.y - half.y));
    let d = dx.hypot(dy);
    let beyond = sandtable_frontiers::geometry::Pt::new(
        points[1].x + (2.0 * dx / d).round() as i32,
        points[1].y + (2.0 * dy / d).round() as i32,
    );
    let further = Command::move_to(
        tag,
        &[
            sandtable_frontiers::command::P16::of(half).expect("on the table"),
            sandtable_frontiers::command::P16::of(beyond).expect("on the table"),
        ],
        None,
    )
    .expect("a move");
    let seat = sandtable_core::game::next_seat(&game).expect("a seat");
    assert!(game.check(seat, &further).is_err(), "{further} is refused");
    app.world_mut().resource_mut::<PointerAt>().0 = Some(target);
    // Let go, and picked again: the click plays what was shown, and the
    // unit stands at its end.
    assert!(!input(&mut app, SkirmishInput::Cancel));
    assert!(!input(&mut app, SkirmishInput::Click(at)));
    app.update();
    assert!(input(&mut app, SkirmishInput::Click(target)));
    assert_eq!(
        skirmish(&app).record.last().map(ToString::to_string),
        Some(command.to_string())
    );
    let Command::Move { legs, .. } = command else {
        panic!("{command} is a move")
    };
    let end = legs.end_point().expect("an end");
    assert_eq!(skirmish(&app).game.game().units()[i].at, end);
    assert_eq!(app.world().resource::<SkirmishPick>().unit, None);
    units_follow(&mut app);
}

#[test]
fn orders_are_laid_by_clicking_units_sealed_and_never_shown_to_the_other_side() {
    use sandtable::frontiers::hand::OrdersDraft;
    let mut app = headless();
    open(&mut app, &scenario("skirmish.ron"));
    for _ in 0..2 {
        take_table(&mut app);
        assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    }
    take_table(&mut app);
    let game = skirmish(&app).game.game().clone();
    let at = |tag: &str| {
        let i = game
            .find(sandtable_frontiers::Tag::new(tag).expect("a tag"))
            .expect("a unit");
        game.units()[i].at
    };
    // The Legion's units, clicked in the order they are to act; a Zirl
    // unit is not the Legion's to order.
    for tag in ["T1", "CP", "T1"] {
        assert!(!input(&mut app, SkirmishInput::Click(at(tag))));
    }
    assert!(!input(&mut app, SkirmishInput::Click(at("K1"))));
    assert!(
        common::notice(&app).contains("click a unit of yours"),
        "{}",
        common::notice(&app)
    );
    // A trooper holds one marker (R107): its second click was refused.
    assert_eq!(app.world().resource::<OrdersDraft>().words(), "T1:1 CP:2");
    assert!(input(&mut app, SkirmishInput::SealOrders));
    let sealed = skirmish(&app).record.last().expect("sealed").to_string();
    let want = game
        .orders_with(
            0,
            &[
                (
                    sandtable_frontiers::Tag::new("T1").expect("a tag"),
                    sandtable_frontiers::army::Slot::Unit,
                ),
                (
                    sandtable_frontiers::Tag::new("CP").expect("a tag"),
                    sandtable_frontiers::army::Slot::Unit,
                ),
            ],
        )
        .expect("orders");
    assert_eq!(sealed, want.to_string());
    assert!(sealed.starts_with("orders T1:1 CP:2 "), "{sealed}");
    assert!(app.world().resource::<OrdersDraft>().0.is_empty());
    // Behind the curtain, then the Zirl's view: nothing of the Legion's
    // numbers, in the notice or the log (R107, R149).
    assert!(skirmish(&app).curtain());
    take_table(&mut app);
    assert_eq!(skirmish(&app).viewer, Viewer::Player(Seat(1)));
    let notice = common::notice(&app);
    assert!(!notice.contains("T1:1"), "{notice}");
    let active = skirmish(&app);
    let shown: Vec<&str> = active
        .log
        .iter()
        .filter_map(|l| l.shown_to(active.viewer))
        .collect();
    assert!(shown.iter().all(|l| !l.contains("T1:1")), "{shown:?}");
    // A control: the referee's log has them.
    assert!(active.log.iter().any(|l| l.text.contains("T1:1")));
    // Once the Zirl have sealed theirs, the markers lie on the table: over
    // the Legion's units the Zirl read a face-down marker, no number, until
    // it turns up; the Legion read their own (R108, R149).
    assert!(input(&mut app, SkirmishInput::SealOrders));
    let game = skirmish(&app).game.game();
    let draft = OrdersDraft::default();
    let label = |tag: &str, viewer| {
        let i = game
            .find(sandtable_frontiers::Tag::new(tag).expect("a tag"))
            .expect("a unit");
        sandtable::frontiers::panel::unit_label(game, i, viewer, &draft)
    };
    // Step 1 turned marker 1 up on T1; CP's marker 2 is still face down.
    assert_eq!(label("T1", Some(1)), "T1, marker 1");
    assert_eq!(label("CP", Some(1)), "CP, a face-down marker");
    assert_eq!(label("CP", Some(0)), "CP, marker 2");
    assert_eq!(label("CP", None), "CP, marker 2");
}

#[test]
fn a_hint_is_a_command_the_rules_accept_and_plays_nothing_until_asked() {
    use sandtable::frontiers::play::SkirmishHint;
    use sandtable::session::HintRequest;
    let mut app = headless();
    open(&mut app, &scenario("skirmish.ron"));
    take_table(&mut app);
    let before = skirmish(&app).record.len();
    app.world_mut().write_message(HintRequest);
    let mut hint = None;
    for _ in 0..600 {
        app.update();
        hint = app
            .world()
            .resource::<SkirmishHint>()
            .for_game(skirmish(&app));
        if hint.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let hint = hint.expect("a hint is thought of");
    let game = skirmish(&app).game.game();
    assert!(game.check(Seat(0), &hint).is_ok(), "`{hint}` is legal");
    assert_eq!(skirmish(&app).record.len(), before, "a hint plays nothing");
    assert!(common::notice(&app).contains("hint: `"));
    // Played as asked, it is the game's next command.
    assert!(input(&mut app, SkirmishInput::Command(hint)));
    assert_eq!(skirmish(&app).record.last(), Some(&hint));
}

#[test]
fn a_cameron_defender_s_crates_show_on_the_panel_to_the_defender_alone() {
    use sandtable::frontiers::panel::crate_lines;
    let mut app = headless();
    open(&mut app, &scenario("cameron-1.ron"));
    take_table(&mut app);
    // The Legion defend and allotted them (R143): the Legion read their
    // contents, the Zirl only that a unit carries one (R149). Each
    // side's view, as the table shows it to that side.
    for (seat, legion) in [(Seat(0), true), (Seat(1), false)] {
        app.world_mut().resource_mut::<ActiveSkirmish>().viewer = Viewer::Player(seat);
        let lines = crate_lines(skirmish(&app));
        assert_eq!(lines.len(), 6);
        for l in &lines {
            assert_eq!(
                l.contains("allotted, hidden from the other side"),
                legion,
                "{l}"
            );
            assert_eq!(l.contains("allotted, its content hidden"), !legion, "{l}");
            assert_eq!(
                l.contains("jump jet"),
                legion && l.contains("crate 2"),
                "{l}"
            );
        }
    }
    // A control: the referee's lines name every content.
    let game = skirmish(&app).game.game();
    let referee: Vec<String> = game
        .crates()
        .iter()
        .enumerate()
        .map(|(k, c)| sandtable_frontiers::text::crate_line(game, k, c, None))
        .collect();
    assert!(
        referee.iter().any(|l| l.contains("jump jet")),
        "{referee:?}"
    );
}

#[test]
fn a_confrontation_is_played_by_requests_through_a_shot_a_card_and_the_reserve() {
    use sandtable_frontiers::Command;
    use sandtable_frontiers::flow::Phase;
    let mut app = headless();
    open(&mut app, &scenario("confrontation.ron"));
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(3);
    let (mut shots, mut cards, mut reserve) = (0, 0, false);
    for _ in 0..400 {
        if skirmish(&app).curtain() {
            take_table(&mut app);
        }
        let seats = app.world().resource::<Seats>().clone();
        let Ok((seat, legal)) = person_legal(skirmish(&app), &seats) else {
            break;
        };
        let game = skirmish(&app).game.game().clone();
        reserve |= matches!(game.flow().phase, Phase::Reserve(_));
        // Names are shots where they may be, cards are played once each
        // side has a few, the rest as the list has them, members drawn.
        let text = |l: &sandtable_core::game::Legal<Command>| l.command.to_string();
        let pick = legal
            .iter()
            .find(|l| text(l).ends_with(" shoot"))
            .or_else(|| legal.iter().find(|l| text(l).starts_with("shoot ")))
            .or_else(|| {
                legal
                    .iter()
                    .find(|l| text(l).starts_with("card ") && cards < 3)
            })
            .unwrap_or(&legal[0])
            .command;
        let mut members = Vec::new();
        game.sample_into(seat, &pick, 1, &mut rng, &mut members);
        let command = members.pop().unwrap_or(pick);
        let words = command.to_string();
        assert!(
            input(&mut app, SkirmishInput::Command(command)),
            "{words}: {}",
            common::notice(&app)
        );
        shots += usize::from(words.starts_with("shoot "));
        cards += usize::from(words.starts_with("card "));
        units_follow(&mut app);
        if reserve && shots > 0 && cards > 0 {
            break;
        }
    }
    assert!(shots > 0, "a shot was played");
    assert!(cards > 0, "a card was played");
    assert!(reserve, "the Reserve was reached");
}

#[test]
fn a_placed_drop_lands_where_the_table_is_clicked() {
    use sandtable_frontiers::Command;
    let dir = common::temp_dir("frontiers-table", "placed");
    // The relay skirmish with `drop: placed` (R129): the mortar's
    // template falls where the real one did, and the table is clicked
    // there.
    let text = std::fs::read_to_string(scenario("skirmish.ron")).expect("the scenario");
    let placed = text.replacen(
        "    turns: 6,",
        "    turns: 6,\n    switches: (drop: placed),",
        1,
    );
    assert_ne!(placed, text);
    std::fs::write(dir.join("placed.ron"), placed).expect("written");
    // Up to the mortar's shot at B1, with the record's seed.
    let (record, upto) = record_upto(
        &dir,
        "placed.moves",
        "placed.ron",
        "shoot M1 B1",
        &["shoot M1 B1"],
    );
    let mut app = headless();
    open(&mut app, &record);
    assert_eq!(
        skirmish(&app).record.len(),
        upto,
        "{}",
        common::notice(&app)
    );
    // Windows passed until the drop waits for where it fell.
    for _ in 0..6 {
        if skirmish(&app).curtain() {
            take_table(&mut app);
        }
        if skirmish(&app).game.game().pending().is_some() {
            break;
        }
        assert!(
            input(&mut app, SkirmishInput::Text("pass".into())),
            "{}",
            common::notice(&app)
        );
    }
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    let aim = skirmish(&app)
        .game
        .game()
        .pending()
        .expect("a drop waits")
        .aim;
    let fell = sandtable_frontiers::geometry::Pt::new(aim.x + 20, aim.y - 10);
    assert!(
        input(&mut app, SkirmishInput::Click(fell)),
        "{}",
        common::notice(&app)
    );
    let played = *skirmish(&app).record.last().expect("played");
    assert!(
        matches!(played, Command::Land { at } if at.pt() == fell),
        "{played}"
    );
    assert!(skirmish(&app).game.game().pending().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shot_is_shown_as_the_rules_mark_it_before_it_is_played() {
    use sandtable::frontiers::hand::{PointerAt, Preview, SkirmishPick};
    use sandtable_core::game::{DiscKind, Mark};
    let dir = common::temp_dir("frontiers-table", "shot");
    // Up to the step in which the mortar M1 is to shoot, with the
    // record's seed.
    let skirmish_ron = scenario("skirmish.ron").display().to_string();
    let (record, _) = record_upto(&dir, "shot.moves", &skirmish_ron, "shoot M1 B1", &[]);
    let mut app = headless();
    open(&mut app, &record);
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    let game = skirmish(&app).game.game().clone();
    let find = |tag: &str| {
        game.find(sandtable_frontiers::Tag::new(tag).expect("a tag"))
            .expect("a unit")
    };
    let (m1, b1) = (find("M1"), find("B1"));
    assert!(!input(&mut app, SkirmishInput::Click(game.units()[m1].at)));
    assert_eq!(app.world().resource::<SkirmishPick>().unit, Some(m1));
    app.world_mut().resource_mut::<PointerAt>().0 = Some(game.units()[b1].at);
    app.update();
    let preview = app.world().resource::<Preview>().clone();
    let command = preview.command.expect("the shot at B1");
    assert_eq!(command.to_string(), "shoot M1 B1");
    // What is drawn is what the rules mark for it, as the Legion see it.
    let seat = sandtable_core::game::next_seat(&game).expect("a seat");
    assert_eq!(
        preview.marks,
        game.marks(seat, &command, skirmish(&app).viewer)
    );
    // No line of sight: the round drops, its template on the aim and its
    // 36 landing points (R129); the odds in the words.
    let landings = preview
        .marks
        .iter()
        .filter(|m| {
            matches!(
                m,
                Mark::Disc {
                    kind: DiscKind::Landing,
                    ..
                }
            )
        })
        .count();
    assert_eq!(landings, 36);
    assert!(
        preview.words.contains("the drop's scatter"),
        "{}",
        preview.words
    );
    // The click plays it.
    assert!(input(&mut app, SkirmishInput::Click(game.units()[b1].at)));
    assert_eq!(skirmish(&app).record.last(), Some(&command));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Real dice switched on at the table (R30): the pass that resolves a shot
/// is refused until its rolls are typed, and refused with too many; typed,
/// they decide it as the rules read them, and the save keeps every die,
/// the generator's first, so that it opens roll for roll.
#[test]
fn real_dice_typed_in_decide_a_shot_and_the_save_keeps_every_die() {
    let dir = common::temp_dir("frontiers-table", "real-dice");
    // Up to the Legion's pass after K1's shot at T1: the Zirl's pass
    // resolves it.
    let skirmish_ron = scenario("skirmish.ron").display().to_string();
    let (file, upto) = record_upto(
        &dir,
        "shot.moves",
        &skirmish_ron,
        "shoot K1 T1",
        &["shoot K1 T1", "pass"],
    );
    let mut app = headless();
    open(&mut app, &file);
    assert_eq!(
        skirmish(&app).record.len(),
        upto,
        "{}",
        common::notice(&app)
    );
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    let generated = skirmish(&app).dice.rolled.clone();
    assert!(
        !generated.is_empty(),
        "the decks were shuffled with dice (R105)"
    );
    assert!(
        !input(&mut app, SkirmishInput::RealDice(true)),
        "switching the dice plays no command"
    );
    assert!(skirmish(&app).dice.real, "{}", common::notice(&app));
    let pass: sandtable_frontiers::Command = "pass".parse().expect("a command");
    // What the shot rolls, as the rules read scripted dice.
    let game = skirmish(&app).game.game().clone();
    let seat = sandtable_core::game::next_seat(&game).expect("the Zirl decide");
    let rolls_it_makes = {
        let mut trial = game.clone();
        trial.set_dice(sandtable_core::dice::Dice::scripted(vec![5; 20]));
        let mut events = Vec::new();
        trial.apply_into(seat, &pass, &mut events).expect("legal");
        20 - trial.dice().left().expect("scripted")
    };
    assert!(rolls_it_makes >= 1, "the shot is resolved by dice");
    let before = skirmish(&app).game.game().state_hash();
    // Nothing typed: refused, nothing changed, with the ruling.
    assert!(!input(&mut app, SkirmishInput::Command(pass)));
    let said = common::notice(&app);
    assert!(
        said.contains("(R30)") && said.contains("type every roll"),
        "{said}"
    );
    assert_eq!(skirmish(&app).game.game().state_hash(), before);
    // One roll too many: refused, and it says how many it makes.
    let too_many = vec!["5"; rolls_it_makes + 1].join(" ");
    app.world_mut()
        .resource_mut::<sandtable::session::dice::TypedRolls>()
        .0 = too_many;
    assert!(!input(&mut app, SkirmishInput::Command(pass)));
    assert!(
        common::notice(&app).contains(&format!("rolls {rolls_it_makes} di")),
        "{}",
        common::notice(&app)
    );
    assert_eq!(skirmish(&app).game.game().state_hash(), before);
    // Exactly its rolls: played as the rules read them.
    let real: Vec<u8> = (0..rolls_it_makes).map(|k| [6, 2, 4][k % 3]).collect();
    app.world_mut()
        .resource_mut::<sandtable::session::dice::TypedRolls>()
        .0 = sandtable_core::dice::write_rolls(&real);
    let mut expected = game.clone();
    expected.set_dice(sandtable_core::dice::Dice::scripted(real.clone()));
    let mut events = Vec::new();
    expected
        .apply_into(seat, &pass, &mut events)
        .expect("legal");
    assert!(
        input(&mut app, SkirmishInput::Command(pass)),
        "{}",
        common::notice(&app)
    );
    assert_eq!(
        skirmish(&app).game.game().state_hash(),
        expected.state_hash()
    );
    assert_eq!(skirmish(&app).dice.typed, real);
    assert!(
        skirmish(&app)
            .extra
            .rolls
            .iter()
            .any(|l| l.contains("attack on T1: 6")),
        "{:?}",
        skirmish(&app).extra.rolls
    );
    let mut all = generated.clone();
    all.extend(&real);
    assert_eq!(skirmish(&app).dice.rolled, all);
    // Saved with every die, and opened again roll for roll, real dice on.
    let saved = dir.join("again.moves");
    app.world_mut().write_message(SaveRequest {
        to: Some(saved.clone()),
        replace: false,
    });
    app.update();
    let text = std::fs::read_to_string(&saved).expect("saved");
    let header = format!("[Dice \"{}\"]", sandtable_core::dice::write_rolls(&all));
    assert!(text.contains(&header), "{text}");
    // The dice differ as sources (scripted now, the generator at first),
    // so the game is compared piece by piece: units and cards, as the
    // referee sees them.
    let units = skirmish(&app).game.game().units().to_vec();
    let cards = |app: &App| {
        (0..2)
            .map(|side| {
                sandtable_frontiers::text::cards_line(skirmish(app).game.game(), side, None)
            })
            .collect::<Vec<_>>()
    };
    let hands = cards(&app);
    open(&mut app, &dir.join("shot.moves"));
    open(&mut app, &saved);
    assert_eq!(
        skirmish(&app).record.len(),
        upto + 1,
        "{}",
        common::notice(&app)
    );
    assert_eq!(skirmish(&app).game.game().units(), &units[..]);
    assert_eq!(cards(&app), hands);
    assert_eq!(skirmish(&app).dice.rolled, all);
    assert!(skirmish(&app).dice.real, "the real dice go on (R30)");
    let _ = std::fs::remove_dir_all(&dir);
}

/// In every state of the shipped records: a click at a window with the
/// thrower selected offers its grenade through that window (R127), and a
/// click at an enemy offers every shot, grenade and charge the rules list
/// at it, played at once when there is one, chosen in the panel when
/// there are more (R120, R127, R134).
#[test]
fn grenades_windows_and_charges_are_offered_by_a_click_where_they_go() {
    use sandtable::frontiers::hand::{ClickMeans, SkirmishPick, click_means};
    use sandtable_frontiers::Command;
    use sandtable_frontiers::setup::OpeningKind;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = common::temp_dir("frontiers-table", "ways");
    // The shipped skirmish with T1 set down outside the relay hut's first
    // window, and the turn up to its shot: a grenade through the window.
    let text = std::fs::read_to_string(scenario("skirmish.ron")).expect("the scenario");
    let by_window = text.replacen(
        "(id: \"T1\", data: \"lg_trooper\", side: \"Legion\", at: (480, 150))",
        "(id: \"T1\", data: \"lg_trooper\", side: \"Legion\", at: (535, 290))",
        1,
    );
    assert_ne!(by_window, text);
    std::fs::write(dir.join("window.ron"), &by_window).expect("written");
    std::fs::write(
        dir.join("window.moves"),
        "discard\ndiscard\norders T1:1 M1:2 E1:3 O1.L:4 CP:decoy S1:decoy\n\
         orders K1:1 B1:2 SP:3 W1:4 P1:decoy ST:decoy\nname T1 shoot\nname K1 shoot\npass\npass\n",
    )
    .expect("written");
    let (mut windows, mut several, mut grenades, mut rapids) = (0, 0, 0, 0);
    // The first enemy with several ways at it: the record, how many of its
    // commands come first, the unit, the target's point and the ways.
    let mut first_several = None;
    for name in [
        "window",
        "skirmish",
        "confrontation",
        "treasure-hunt",
        "attack-defense",
        "data-recovery",
        "cameron-1",
        "cameron-2",
    ] {
        let (record_path, scenario_path) = match name {
            "window" => (dir.join("window.moves"), dir.join("window.ron")),
            "skirmish" => (
                root.join("crates/cli/tests/data/skirmish-hut.moves"),
                scenario("skirmish.ron"),
            ),
            _ => (
                root.join(format!("crates/cli/tests/data/frontiers-{name}.moves")),
                scenario(&format!("{name}.ron")),
            ),
        };
        let record: sandtable_core::record::Record<Command> =
            sandtable_scenario::records::read(&record_path).expect("a record");
        let sandtable_scenario::Loaded::Frontiers(skirmish) =
            sandtable_scenario::load_any(&scenario_path).expect("it loads")
        else {
            panic!("{name} is a skirmish")
        };
        let mut setup = skirmish.setup.clone();
        if let Some(seed) = record.header("Seed") {
            setup.seed = seed.parse().expect("a seed");
        }
        let mut active = ActiveSkirmish::start(
            skirmish,
            &setup,
            sandtable_core::dice::Dice::seeded(setup.seed),
        )
        .expect("it starts");
        let mut commands = record.commands.iter().map(|(_, c)| *c).collect::<Vec<_>>();
        // The window's game ends with T1 to throw.
        if name == "window" {
            commands.push("grenade T1 RH.w1".parse().expect("a command"));
        }
        for (k, command) in commands.iter().enumerate() {
            let game = active.game.game();
            let seat = sandtable_core::game::next_seat(game).expect("a seat decides");
            let mut legal = Vec::new();
            game.legal_into(seat, &mut legal);
            let offered = |pick: &SkirmishPick, p| match click_means(game, seat, pick, p) {
                ClickMeans::Play(c) => vec![c],
                ClickMeans::Ways(ways) => {
                    assert!(ways.len() >= 2, "one way is played at once");
                    ways
                }
                other => panic!("{name}: a click at {p} means {other:?}"),
            };
            for l in &legal {
                match l.command {
                    Command::Window {
                        unit,
                        element,
                        window,
                    } => {
                        let el = &game.setup().elements[game.element_index(element).unwrap()];
                        let o = el
                            .openings
                            .iter()
                            .filter(|o| o.kind == OpeningKind::Window)
                            .nth(usize::from(window) - 1)
                            .expect("the window");
                        let mid = sandtable_frontiers::geometry::Pt::new(
                            (o.a.x + o.b.x) / 2,
                            (o.a.y + o.b.y) / 2,
                        );
                        let pick = SkirmishPick::of(game.find(unit).unwrap());
                        assert!(
                            offered(&pick, mid).contains(&l.command),
                            "{name}: {}",
                            l.command
                        );
                        windows += 1;
                    }
                    Command::Shoot { unit, target, .. }
                    | Command::Grenade { unit, target }
                    | Command::Charge { unit, target, .. } => {
                        let (i, t) = (game.find(unit).unwrap(), game.find(target).unwrap());
                        let at = game.units()[t].at;
                        let ways = offered(&SkirmishPick::of(i), at);
                        // Every way at it the list has, and only those.
                        let listed: Vec<Command> = legal
                            .iter()
                            .map(|m| m.command)
                            .filter(|c| match *c {
                                Command::Shoot {
                                    unit: u, target: g, ..
                                }
                                | Command::Grenade { unit: u, target: g }
                                | Command::Charge {
                                    unit: u, target: g, ..
                                } => u == unit && g == target,
                                _ => false,
                            })
                            .collect();
                        // Beside them, a rapid-firer's splits with this
                        // target first, each one the rules take (R141).
                        let (rapid, plain): (Vec<Command>, Vec<Command>) = ways
                            .iter()
                            .partition(|c| matches!(c, Command::Rapid { .. }));
                        assert_eq!(plain, listed, "{name}: {}", l.command);
                        for c in &rapid {
                            let Command::Rapid { parts, .. } = c else {
                                unreachable!()
                            };
                            assert_eq!(parts[0].target, target, "{name}: {c}");
                            assert!(game.check(seat, c).is_ok(), "{name}: {c}");
                        }
                        rapids += rapid.len();
                        several += usize::from(ways.len() > 1);
                        if ways.len() > 1 && first_several.is_none() {
                            first_several =
                                Some((record_path.clone(), scenario_path.clone(), k, i, at, ways));
                        }
                        grenades += usize::from(matches!(l.command, Command::Grenade { .. }));
                    }
                    _ => {}
                }
            }
            active.play(*command).expect("the record plays");
        }
    }
    println!(
        "{windows} windows, {grenades} grenades, {several} enemies of several ways, {rapids} rapid-fire splits"
    );
    assert!(
        windows > 0 && grenades > 0 && several > 0 && rapids > 0,
        "{windows} {grenades} {several} {rapids}"
    );

    // On the table: T1 clicked, then its window: the grenade is thrown.
    let mut app = headless();
    let file = dir.join("window-table.moves");
    std::fs::write(
        &file,
        format!(
            "[Scenario \"window.ron\"]\n[Seats \"person, person\"]\n{}",
            std::fs::read_to_string(dir.join("window.moves")).expect("read")
        ),
    )
    .expect("written");
    open(&mut app, &file);
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    let t1 = skirmish(&app)
        .game
        .game()
        .units()
        .iter()
        .find(|u| u.tag.to_string() == "T1")
        .expect("T1")
        .at;
    assert!(!input(&mut app, SkirmishInput::Click(t1)));
    assert!(
        common::notice(&app).contains("T1 selected"),
        "{}",
        common::notice(&app)
    );
    let window = sandtable_frontiers::geometry::Pt::new(560, 290);
    assert!(
        input(&mut app, SkirmishInput::Click(window)),
        "{}",
        common::notice(&app)
    );
    assert_eq!(
        skirmish(&app)
            .record
            .last()
            .map(ToString::to_string)
            .as_deref(),
        Some("grenade T1 RH.w1")
    );

    // Several ways at an enemy: the click offers them, and the one
    // chosen in the panel is played.
    let (record, scenario_path, k, i, at, ways) = first_several.expect("several ways");
    let record: sandtable_core::record::Record<Command> =
        sandtable_scenario::records::read(&record).expect("a record");
    let mut text = format!(
        "[Scenario \"{}\"]\n[Seats \"person, person\"]\n",
        scenario_path.display()
    );
    if let Some(seed) = record.header("Seed") {
        text.push_str(&format!("[Seed \"{seed}\"]\n"));
    }
    for (_, c) in record.commands.iter().take(k) {
        text.push_str(&format!("{c}\n"));
    }
    let file = dir.join("ways.moves");
    std::fs::write(&file, text).expect("written");
    let mut app = headless();
    open(&mut app, &file);
    assert_eq!(skirmish(&app).record.len(), k, "{}", common::notice(&app));
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    assert!(!input(&mut app, SkirmishInput::Choose(i)));
    assert!(!input(&mut app, SkirmishInput::Click(at)));
    let pick = app.world().resource::<SkirmishPick>().clone();
    assert_eq!(pick.ways, ways, "{}", common::notice(&app));
    assert!(common::notice(&app).contains("choose one in the panel"));
    let chosen = *ways.last().expect("a way");
    assert!(
        input(&mut app, SkirmishInput::Command(chosen)),
        "{}",
        common::notice(&app)
    );
    assert_eq!(skirmish(&app).record.last(), Some(&chosen));
    assert!(app.world().resource::<SkirmishPick>().ways.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// **New game** begins the skirmish again from its file, keeping the
/// seats, once the person said the moves may go; a bot taking a seat
/// hands real dice back to the generator (R30).
#[test]
fn a_new_game_keeps_the_seats_and_a_bot_seated_ends_real_dice() {
    use sandtable::session::{Dialog, Leaving, NewGameRequest, Seat as TableSeat};
    let mut app = headless();
    open(&mut app, &scenario("skirmish.ron"));
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    assert!(!input(&mut app, SkirmishInput::RealDice(true)));
    assert!(skirmish(&app).dice.real, "{}", common::notice(&app));
    app.world_mut().resource_mut::<Seats>().0[1] = TableSeat::Bot(2);
    app.update();
    assert!(!skirmish(&app).dice.real, "a bot cannot read real dice");
    assert!(
        common::notice(&app).contains("(R30)"),
        "{}",
        common::notice(&app)
    );
    // The bot plays the Zirl's Preparation.
    for _ in 0..500 {
        if skirmish(&app).record.len() == 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        app.update();
    }
    assert_eq!(skirmish(&app).record.len(), 2, "{}", common::notice(&app));
    // Moves unsaved: asked first, and nothing changes.
    let id = skirmish(&app).id;
    app.world_mut().write_message(NewGameRequest::default());
    app.update();
    assert!(matches!(
        app.world().get_resource::<Dialog>(),
        Some(Dialog::UnsavedMoves(Leaving::NewGame))
    ));
    assert_eq!(skirmish(&app).id, id);
    assert_eq!(skirmish(&app).record.len(), 2);
    // Said to go on: the same skirmish from its start, the seats kept.
    app.world_mut().remove_resource::<Dialog>();
    app.world_mut().write_message(NewGameRequest {
        discard_unsaved: true,
    });
    app.update();
    app.update();
    assert_ne!(skirmish(&app).id, id);
    assert!(
        skirmish(&app).record.is_empty(),
        "{:?}",
        skirmish(&app).record
    );
    assert!(matches!(
        skirmish(&app).source,
        sandtable::session::ScenarioSource::File(ref p) if p.ends_with("skirmish.ron")
    ));
    assert_eq!(
        app.world().resource::<Seats>().0,
        vec![TableSeat::Person, TableSeat::Bot(2)]
    );
    assert!(
        common::notice(&app).contains("a new game of the same scenario"),
        "{}",
        common::notice(&app)
    );
}

/// A finished skirmish says so first on the panel: who won, after which
/// turn (R145, R146), as the CLI's last line does.
#[test]
fn a_finished_skirmish_shows_its_outcome_first() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = common::temp_dir("frontiers-table", "over");
    let moves =
        std::fs::read_to_string(root.join("crates/cli/tests/data/frontiers-confrontation.moves"))
            .expect("the record");
    let commands: Vec<&str> = moves.lines().filter(|l| !l.starts_with('[')).collect();
    // The record's own seed.
    let seed = moves
        .lines()
        .find(|l| l.starts_with("[Seed "))
        .expect("the record's seed");
    let file = dir.join("over.moves");
    std::fs::write(
        &file,
        format!(
            "[Scenario \"{}\"]\n{seed}\n{}\n",
            scenario("confrontation.ron").display(),
            commands.join("\n")
        ),
    )
    .expect("written");
    let mut app = headless();
    open(&mut app, &file);
    let active = skirmish(&app);
    let (over, turn) = (
        active
            .game
            .game()
            .ending()
            .expect("the record ends the game"),
        active.game.game().turn_number(),
    );
    let sandtable_core::game::Ending::Won(winner) = over else {
        panic!("a win: {over:?}")
    };
    let name = &active.game.game().setup().sides[winner.index()].name;
    assert_eq!(
        state_lines(active)[0],
        format!("Over after turn {turn}: {name} won")
    );
    // Who destroyed what, in words (R145): the CLI's `play` of this record
    // ends "Legion has destroyed 35 AP of Zirl, Zirl 75 of Legion".
    assert_eq!(
        state_lines(active)[1],
        "Legion has destroyed 35 AP of Zirl, Zirl 75 of Legion (R145)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The panel's Print writes the skirmish's 1:1 sheet beside its file,
/// with its page of play aids.
#[test]
fn print_writes_the_skirmish_s_sheet_beside_its_file() {
    let dir = common::temp_dir("frontiers-table", "print");
    let file = dir.join("relay.ron");
    std::fs::copy(scenario("skirmish.ron"), &file).expect("copied");
    let mut app = headless();
    open(&mut app, &file);
    app.world_mut().write_message(SkirmishInput::PrintSheet);
    app.update();
    let sheet = dir.join("relay.pdf");
    let bytes = std::fs::read(&sheet)
        .unwrap_or_else(|e| panic!("{}: {e}; {}", sheet.display(), common::notice(&app)));
    assert!(bytes.starts_with(b"%PDF-"));
    assert!(
        common::notice(&app).contains("sheet written to"),
        "{}",
        common::notice(&app)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn r107_r143_r149_what_the_table_writes_for_the_person_at_it_holds_nothing_its_side_may_not_know() {
    // Hot-seat, both sides people at the table: at every position the
    // table shows, the panel's lines and every unit's label, read by the
    // person behind the curtain, against the secrets oracle (with the
    // game's views and its masked copy's).
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(11);
    let mut shown = 0;
    for file in ["skirmish.ron", "cameron-1.ron", "confrontation.ron"] {
        let mut app = headless();
        open(&mut app, &scenario(file));
        for _ in 0..40 {
            if skirmish(&app).curtain() {
                take_table(&mut app);
            }
            let lines = common::skirmish_lines(&app);
            let active = skirmish(&app);
            let game = active.game.game();
            let viewer = active.viewer;
            let leaks = sandtable_secrets::leaks_of(game, viewer, &lines);
            assert!(leaks.is_empty(), "{file}: {viewer:?} is shown {leaks:?}");
            shown += 1;
            let Some(seat) = sandtable_core::game::next_seat(game) else {
                break;
            };
            let Some(command) = game.random_command(seat, &mut rng) else {
                break;
            };
            assert!(
                input(&mut app, SkirmishInput::Command(command)),
                "{command}: {}",
                common::notice(&app)
            );
        }
    }
    assert!(shown > 60, "{shown} positions");
}

#[test]
fn a_notice_stays_with_the_seat_it_was_written_for_and_goes_at_the_hand_over() {
    let mut app = headless();
    open(&mut app, &scenario("skirmish.ron"));
    take_table(&mut app);
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    take_table(&mut app);
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    take_table(&mut app);
    // The Legion's sealed orders: its own notice says they are given, and
    // the table waits to be handed to the Zirl (R107).
    assert!(input(
        &mut app,
        SkirmishInput::Text("orders E1:1 T1:2 CP:decoy S1:decoy".into())
    ));
    assert!(
        common::notice(&app).contains("your sealed command is given"),
        "{}",
        common::notice(&app)
    );
    assert!(skirmish(&app).handover.is_some());
    // A click on the table before the Zirl takes it is refused, said to
    // the Legion still at it.
    app.world_mut().write_message(SkirmishInput::Click(
        sandtable_frontiers::geometry::Pt::new(300, 300),
    ));
    app.update();
    app.update();
    assert!(
        common::notice(&app).contains("confirm the hand-over first"),
        "{}",
        common::notice(&app)
    );
    // The Zirl takes the table: nothing written for the Legion shows.
    take_table(&mut app);
    assert!(skirmish(&app).handover.is_none());
    assert_eq!(
        common::notice(&app),
        "",
        "the Legion's notice shown to the Zirl"
    );
}

#[test]
fn the_camera_looks_from_the_edge_of_the_seat_the_table_shows() {
    use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
    use sandtable::camera::OrbitCamera;
    let with_camera = || {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_plugins((sandtable::logic_plugin, sandtable::camera::plugin));
        app.init_resource::<ButtonInput<MouseButton>>()
            .init_resource::<ButtonInput<KeyCode>>()
            .init_resource::<AccumulatedMouseMotion>()
            .init_resource::<AccumulatedMouseScroll>();
        app.update();
        app
    };
    let mut app = with_camera();
    open(&mut app, &scenario("skirmish.ron"));
    let yaw = |app: &mut App| {
        let mut q = app.world_mut().query::<&OrbitCamera>();
        let cam = q.single(app.world()).expect("one camera");
        (cam.yaw, cam.home.1)
    };
    // The Legion, the first seat, looks from the near edge.
    take_table(&mut app);
    assert_eq!(yaw(&mut app), (0.0, 0.0));
    // Its discard hands the table to the Zirl, who looks from the far
    // edge, and Home keeps them there.
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    assert!(skirmish(&app).handover.is_some());
    assert_eq!(yaw(&mut app), (0.0, 0.0), "not before the Zirl take it");
    take_table(&mut app);
    assert_eq!(yaw(&mut app), (std::f32::consts::PI, std::f32::consts::PI));
    // And back to the Legion.
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    take_table(&mut app);
    assert_eq!(yaw(&mut app), (0.0, 0.0));
    // A person playing the Zirl alone against a bot looks from the far
    // edge from the start, and a game opened again is framed from there.
    let file = common::temp_dir("frontiers-table", "zirl-alone").join("zirl.moves");
    std::fs::write(
        &file,
        format!(
            "[Scenario \"{}\"]\n[Seats \"bot 2, person\"]\n",
            scenario("skirmish.ron").display()
        ),
    )
    .expect("written");
    let mut app = with_camera();
    for _ in 0..2 {
        open(&mut app, &file);
        app.update();
        assert_eq!(
            skirmish(&app).viewer,
            Viewer::Player(Seat(1)),
            "{} {:?}",
            common::notice(&app),
            app.world().resource::<Seats>().0
        );
        assert_eq!(yaw(&mut app), (std::f32::consts::PI, std::f32::consts::PI));
    }
}

#[test]
fn the_hint_follows_the_decision_and_a_click_with_nothing_to_pick_says_why() {
    use sandtable::frontiers::panel::decision_hint;
    let mut app = headless();
    open(&mut app, &scenario("skirmish.ron"));
    take_table(&mut app);
    // The Preparation: discard or keep, not "click one of your units".
    let hint = decision_hint(skirmish(&app).game.game());
    assert!(
        hint.contains("Preparation") && hint.contains("(R105)"),
        "{hint}"
    );
    // A click on the empty table says what the decision asks.
    app.world_mut().write_message(SkirmishInput::Click(
        sandtable_frontiers::geometry::Pt::new(1100, 300),
    ));
    app.update();
    app.update();
    assert!(
        common::notice(&app).contains("Preparation"),
        "{}",
        common::notice(&app)
    );
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    take_table(&mut app);
    assert!(input(&mut app, SkirmishInput::Text("discard".into())));
    take_table(&mut app);
    let hint = decision_hint(skirmish(&app).game.game());
    assert!(
        hint.contains("order markers") && hint.contains("R107"),
        "{hint}"
    );
}

#[test]
fn a_card_window_with_no_card_to_play_passes_by_itself_said_only_to_its_seat() {
    let mut app = headless();
    app.insert_resource(sandtable::frontiers::play::AutoPass(true));
    open(&mut app, &scenario("skirmish.ron"));
    let mut typed = 0;
    for line in [
        "discard",
        "discard",
        "orders E1:1 T1:2 CP:decoy S1:decoy",
        "orders B1:1 K1:2 P1:decoy ST:decoy",
        "name E1 move",
        "name B1 move",
    ] {
        take_table(&mut app);
        assert!(
            input(&mut app, SkirmishInput::Text(line.into())),
            "{line}: {}",
            common::notice(&app)
        );
        typed += 1;
    }
    take_table(&mut app);
    let active = skirmish(&app);
    let passed = active.record.len() - typed;
    let own: Vec<&sandtable::session::LogLine> = active
        .log
        .iter()
        .filter(|l| l.text.contains("passed by itself"))
        .collect();
    println!(
        "{passed} passes by themselves; {:?}",
        own.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    assert!(passed > 0, "no window passed by itself");
    assert_eq!(own.len(), passed);
    for l in own {
        // Read by its own seat alone: not the other, not the public.
        let seats: Vec<bool> = (0..2)
            .map(|s| l.shown_to(Viewer::Player(Seat(s))).is_some())
            .collect();
        assert_eq!(seats.iter().filter(|s| **s).count(), 1, "{}", l.text);
        assert!(l.shown_to(Viewer::Public).is_none());
    }
    // Taken back, the pass is not played again by itself: the person went
    // back to the window to choose there.
    let before = skirmish(&app).record.len();
    app.world_mut().write_message(UndoRequest);
    for _ in 0..4 {
        app.update();
    }
    let after = skirmish(&app).record.len();
    println!("undo: {before} to {after}: {}", common::notice(&app));
    assert!(after < before, "{}", common::notice(&app));
}

/// A key pressed and let go, as the person at the table does.
fn press(app: &mut App, key: KeyCode) {
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(key);
    app.world_mut().insert_resource(keys);
    app.update();
    app.world_mut().remove_resource::<ButtonInput<KeyCode>>();
    app.update();
}

/// The key code of a choice's key.
fn key_code(key: char) -> KeyCode {
    match key {
        'm' => KeyCode::KeyM,
        'f' => KeyCode::KeyF,
        'c' => KeyCode::KeyC,
        'x' => KeyCode::KeyX,
        'p' => KeyCode::KeyP,
        '1' => KeyCode::Digit1,
        '2' => KeyCode::Digit2,
        '3' => KeyCode::Digit3,
        other => panic!("no key {other} on the table"),
    }
}

/// A whole turn of the Legion against a bot, every decision the person
/// makes by what the table offers: the Preparation's button, clicks on
/// units for the orders and their seal (R105-R107), the action named by
/// its key on the table (R110), the sole unit that may act picked for
/// the person and a click where it moves or at whom it shoots (R113,
/// R120), P to pass (R111, R132), a Reserve's choice by its key (R112).
/// No command is typed or picked from the list.
#[test]
fn a_whole_turn_against_a_bot_is_played_by_table_picks_and_keys_alone() {
    use sandtable::frontiers::choices::{Does, choices};
    use sandtable::frontiers::hand::SkirmishPick;
    use sandtable::frontiers::panel::discard_input;
    use sandtable::session::Seat as TableSeat;
    use sandtable_frontiers::Command;
    use sandtable_frontiers::flow::Phase;
    use sandtable_frontiers::geometry::Pt;
    let mut app = headless();
    app.insert_resource(sandtable::frontiers::play::AutoPass(true))
        .insert_resource(sandtable::session::BotPace(std::time::Duration::ZERO));
    open(&mut app, &scenario("skirmish.ron"));
    app.world_mut().resource_mut::<Seats>().0[1] = TableSeat::Bot(1);
    app.update();
    if skirmish(&app).curtain() {
        take_table(&mut app);
    }
    let mut named = 0;
    let (mut moved, mut shot, mut keys) = (0, 0, 0);
    for _ in 0..2000 {
        let game = skirmish(&app).game.game().clone();
        if game.turn_number() > 1 || game.ending().is_some() {
            break;
        }
        let Ok((seat, legal)) = person_legal(skirmish(&app), app.world().resource::<Seats>())
        else {
            // The bot thinks, or the table waits to be taken.
            if skirmish(&app).curtain() {
                take_table(&mut app);
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
            app.update();
            continue;
        };
        assert_eq!(seat, Seat(0), "the person plays the Legion");
        let before = skirmish(&app).record.len();
        let pick = app.world().resource::<SkirmishPick>().clone();
        let offered = choices(&game, seat, &pick);
        let key_of = |offered: &sandtable::frontiers::choices::Choices, want: Option<char>| {
            want.filter(|k| offered.list.iter().any(|c| c.key == *k))
                .or_else(|| offered.list.first().map(|c| c.key))
        };
        match game.flow().phase {
            Phase::Prepare(_) => {
                app.world_mut().write_message(discard_input(&[]));
                app.update();
                app.update();
            }
            Phase::Order => {
                let owed = game.markers_owed(0);
                let mine: Vec<Pt> = game
                    .units()
                    .iter()
                    .filter(|u| u.side == 0 && u.alive && !u.waiting && u.aboard.is_none())
                    .map(|u| u.at)
                    .take(usize::from(owed))
                    .collect();
                for at in mine {
                    app.world_mut().write_message(SkirmishInput::Click(at));
                    app.update();
                }
                input(&mut app, SkirmishInput::SealOrders);
            }
            Phase::Name(_) => {
                // Move first, then shoot, by their keys on the table.
                let want = [Some('m'), Some('f')][named % 2];
                named += 1;
                let key = key_of(&offered, want).expect("a kind to name");
                press(&mut app, key_code(key));
                keys += 1;
            }
            Phase::Act | Phase::Shots | Phase::Reserve(_) => {
                let unit = pick.unit.map(|i| game.units()[i].clone());
                if unit.is_none() {
                    // Several may act: the person clicks one.
                    let first = legal
                        .iter()
                        .find_map(|l| l.command.unit())
                        .and_then(|t| game.find(t))
                        .expect("a unit that acts");
                    app.world_mut()
                        .write_message(SkirmishInput::Click(game.units()[first].at));
                    app.update();
                    app.update();
                    assert_eq!(
                        app.world().resource::<SkirmishPick>().unit,
                        Some(first),
                        "{}",
                        common::notice(&app)
                    );
                    continue;
                }
                let mut played = false;
                if let Some(u) = &unit {
                    let moves = legal
                        .iter()
                        .any(|l| matches!(l.command, Command::Move { unit, .. } if unit == u.tag));
                    let shoots = legal
                        .iter()
                        .any(|l| matches!(l.command, Command::Shoot { unit, .. } if unit == u.tag));
                    if moves {
                        // Towards the table's middle, a short way.
                        let (w, d) = game.setup().table;
                        let to = Pt::new(
                            u.at.x + (i32::from(w) / 2 - u.at.x).signum() * 40,
                            u.at.y + (i32::from(d) / 2 - u.at.y).signum() * 40,
                        );
                        played = input(&mut app, SkirmishInput::Click(to));
                        moved += usize::from(played);
                    } else if shoots {
                        for e in game.units().iter().filter(|e| e.side == 1 && e.alive) {
                            app.world_mut().write_message(SkirmishInput::Click(e.at));
                            app.update();
                            app.update();
                            // Several ways at it: the first button the
                            // table offers.
                            let ways = app.world().resource::<SkirmishPick>().ways.clone();
                            if let Some(way) = ways.first() {
                                input(&mut app, SkirmishInput::Command(*way));
                            }
                            if skirmish(&app).record.len() > before {
                                played = true;
                                shot += 1;
                                break;
                            }
                        }
                    }
                }
                if !played && skirmish(&app).record.len() == before {
                    let key = key_of(&offered, Some('p')).unwrap_or_else(|| {
                        panic!(
                            "a choice at {:?}, {:?}: {offered:?}, {:?}; {}",
                            game.flow().phase,
                            pick,
                            legal
                                .iter()
                                .map(|l| l.command.to_string())
                                .collect::<Vec<_>>(),
                            common::notice(&app)
                        )
                    });
                    press(&mut app, key_code(key));
                    keys += 1;
                }
            }
            Phase::Window => {
                let key = key_of(&offered, Some('p')).expect("a pass");
                assert!(
                    offered.list.iter().any(|c| c.key == 'p'
                        && matches!(c.does, Does::Play(Command::Pass { unit: None }))),
                    "a window offers its pass on P: {offered:?}"
                );
                press(&mut app, key_code(key));
                keys += 1;
            }
            Phase::Deploy(_) => panic!("the skirmish deploys nothing"),
        }
        assert!(
            skirmish(&app).record.len() > before || app.world().resource::<SkirmishPick>() != &pick,
            "the person's pick or key at {:?} did nothing: {}",
            game.flow().phase,
            common::notice(&app)
        );
    }
    let game = skirmish(&app).game.game();
    println!(
        "turn {} {:?} {:?}, {} commands: {moved} moves and {shot} shots clicked, {keys} keys",
        game.turn_number(),
        game.flow().phase,
        sandtable_core::game::next_seat(game),
        skirmish(&app).record.len()
    );
    assert_eq!(game.turn_number(), 2, "{}", common::notice(&app));
    assert!(moved > 0 && keys > 0, "{moved} moves, {keys} keys");
}

/// A template stays where it landed through the next step (R126):
/// public, laid on the table for both sides to see.
#[test]
fn r126_a_template_is_shown_where_it_landed_through_the_next_step() {
    use sandtable_frontiers::geometry::Pt;
    let dir = common::temp_dir("frontiers-table", "template");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let moves =
        std::fs::read_to_string(root.join("crates/cli/tests/data/skirmish.moves")).expect("moves");
    let (headers, commands): (Vec<&str>, Vec<&str>) =
        moves.lines().partition(|l| l.starts_with('['));
    // The shipped record's 21st command, a Hit window's pass, lets a
    // drop's large template land at 687,373 in step 2; the 22nd ends the
    // step; step 3's shots come with the 29th.
    let file = dir.join("template.moves");
    let upto = |n: usize| {
        std::fs::write(
            &file,
            format!(
                "[Scenario \"{}\"]\n[Seats \"person, person\"]\n{}\n{}\n",
                scenario("skirmish.ron").display(),
                headers.join("\n"),
                commands[..n].join("\n")
            ),
        )
        .expect("written");
    };
    let shown = |app: &App| {
        let s = skirmish(app);
        s.extra
            .templates_now(s.game.game(), s.record.len())
            .to_vec()
    };
    let landed = vec![(Pt::new(687, 373), sandtable_frontiers::templates::LARGE_MM)];
    upto(20);
    let mut app = headless();
    open(&mut app, &file);
    assert!(shown(&app).is_empty(), "{:?}", shown(&app));
    take_table(&mut app);
    assert!(input(&mut app, SkirmishInput::Text(commands[20].into())));
    assert_eq!(shown(&app), landed, "{}", common::notice(&app));
    // The dice rolled for it: no undo takes it back (R31), and it stays.
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    assert_eq!(skirmish(&app).record.len(), 21);
    assert!(
        common::notice(&app).contains("(R31)"),
        "{}",
        common::notice(&app)
    );
    assert_eq!(shown(&app), landed);
    // Through step 3, where the next template (at 520,150) takes its
    // place; that one through step 4, gone with step 5.
    let mut laid = (landed, 2);
    for (k, line) in commands.iter().enumerate().skip(21) {
        if skirmish(&app).curtain() {
            take_table(&mut app);
        }
        assert!(
            input(&mut app, SkirmishInput::Text((*line).into())),
            "{line}: {}",
            common::notice(&app)
        );
        let step = skirmish(&app).game.game().flow().step;
        let now = shown(&app);
        if step > laid.1 + 1 {
            assert!(now.is_empty(), "step {step}: {now:?}");
            assert_eq!(laid.1, 3, "the second template's step");
            return;
        }
        if now != laid.0 {
            assert_eq!(
                now,
                vec![(Pt::new(520, 150), sandtable_frontiers::templates::LARGE_MM)],
                "after {k}: {line}"
            );
            laid = (now, step);
        }
    }
    panic!("the record ends before step 5");
}

/// Enters `want`, a command of the person at the table, by what the table
/// offers alone: the Preparation's button, clicks on units for orders
/// and their seal, keys and buttons of the choices by the unit, clicks
/// on the table (Shift-clicks for a move's legs) and the ways a click
/// offers. Returns the command the table played, if any: the table's
/// picks may place a command's family otherwise than `want` (orders'
/// decoys on the first places left, a care's or a crate's first path).
fn enter_by_table(
    app: &mut App,
    want: sandtable_frontiers::Command,
) -> Option<sandtable_frontiers::Command> {
    use sandtable::frontiers::choices::{Does, choices, kind_key};
    use sandtable::frontiers::hand::SkirmishPick;
    use sandtable::frontiers::panel::discard_input;
    use sandtable_frontiers::Command;
    use sandtable_frontiers::data::CARDS;
    let before = skirmish(app).record.len();
    let game = skirmish(app).game.game().clone();
    let seat = skirmish(app).deciding_seat().expect("the person decides");
    let at_of = |tag: sandtable_frontiers::Tag| game.units()[game.find(tag).expect("a unit")].at;
    let pick = |app: &App| app.world().resource::<SkirmishPick>().clone();
    // Picks `unit` by a click on it, unless it is picked.
    let select = |app: &mut App, unit: sandtable_frontiers::Tag| {
        let i = game.find(unit).expect("a unit");
        if pick(app).unit != Some(i) {
            app.world_mut()
                .write_message(SkirmishInput::Click(game.units()[i].at));
            app.update();
            app.update();
        }
    };
    // One of the ways offered: `want`, else the first.
    let choose_way = |app: &mut App| {
        let ways = pick(app).ways;
        if let Some(way) = ways.iter().find(|w| **w == want).or(ways.first()) {
            input(app, SkirmishInput::Command(*way));
        }
    };
    let click = |app: &mut App, p: sandtable_frontiers::geometry::Pt| {
        app.world_mut().write_message(SkirmishInput::Click(p));
        app.update();
        app.update();
    };
    match want {
        Command::Discard { cards, n } => {
            let ids: Vec<&str> = cards[..usize::from(n)]
                .iter()
                .map(|c| CARDS[usize::from(*c)].id)
                .collect();
            input(app, discard_input(&ids));
        }
        Command::Orders { orders, n } => {
            let mut numbered: Vec<(u8, sandtable_frontiers::Tag)> = orders[..usize::from(n)]
                .iter()
                .filter_map(|o| match o.marker {
                    sandtable_frontiers::army::Marker::Numbered(k) => Some((k, o.unit)),
                    sandtable_frontiers::army::Marker::Decoy => None,
                })
                .collect();
            numbered.sort();
            for (_, unit) in numbered {
                click(app, at_of(unit));
            }
            input(app, SkirmishInput::SealOrders);
        }
        Command::Name { kind, .. } => press(app, key_code(kind_key(kind))),
        Command::Move { unit, legs, .. } => {
            select(app, unit);
            // Each step where a person clicks it: a point, a space's
            // centre, the transport boarded.
            let points: Vec<sandtable_frontiers::geometry::Pt> = legs
                .steps()
                .iter()
                .map(|step| match *step {
                    sandtable_frontiers::command::Step::At(p)
                    | sandtable_frontiers::command::Step::Drop(_, p) => p.pt(),
                    sandtable_frontiers::command::Step::Space(el, k) => {
                        game.setup().elements[game.element_index(el).expect("an element")].spaces
                            [usize::from(k) - 1]
                    }
                    sandtable_frontiers::command::Step::Board(t) => at_of(t),
                })
                .collect();
            // No leg: it stays where it is, clicked where it stands.
            let here = at_of(unit);
            let (end, through) = points.split_last().unwrap_or((&here, &[]));
            for p in through {
                app.world_mut().write_message(SkirmishInput::Waypoint(*p));
                app.update();
            }
            click(app, *end);
        }
        Command::Shoot { unit, target, .. }
        | Command::Grenade { unit, target }
        | Command::Charge { unit, target, .. } => {
            select(app, unit);
            click(app, at_of(target));
            choose_way(app);
        }
        // A rapid-fire split: its first target clicked, the split chosen
        // among the ways offered (R141).
        Command::Rapid { unit, parts, .. } => {
            select(app, unit);
            click(app, at_of(parts[0].target));
            choose_way(app);
        }
        Command::Smoke { unit, at } => {
            select(app, unit);
            click(app, at.pt());
        }
        Command::Land { at } => click(app, at.pt()),
        Command::Window {
            unit,
            element,
            window,
        } => {
            select(app, unit);
            let el = &game.setup().elements[game.element_index(element).expect("an element")];
            let o = el
                .openings
                .iter()
                .filter(|o| o.kind == sandtable_frontiers::setup::OpeningKind::Window)
                .nth(usize::from(window) - 1)
                .expect("the window");
            click(
                app,
                sandtable_frontiers::geometry::Pt::new((o.a.x + o.b.x) / 2, (o.a.y + o.b.y) / 2),
            );
            choose_way(app);
        }
        _ => {
            // A choice on the table: the unit picked first where the
            // command is a unit's, then its key.
            let owner = match want {
                Command::Pass { unit } => unit,
                _ => want.unit(),
            };
            if let Some(unit) = owner {
                select(app, unit);
            }
            let offered = choices(skirmish(app).game.game(), seat, &pick(app));
            let same_card = |c: &Command| match (c, want) {
                (Command::Card { card: a, .. }, Command::Card { card: b, .. }) => *a == b,
                _ => false,
            };
            let choice = offered
                .list
                .iter()
                .find(|c| match &c.does {
                    Does::Play(c) => *c == want,
                    Does::Ways(ways) => ways.contains(&want),
                    Does::Place(c) => same_card(c),
                })
                .or_else(|| {
                    offered.list.iter().find(|c| match &c.does {
                        Does::Play(c) | Does::Place(c) => {
                            same_card(c)
                                || std::mem::discriminant(c) == std::mem::discriminant(&want)
                        }
                        Does::Ways(ways) => ways.iter().any(|c| {
                            same_card(c)
                                || std::mem::discriminant(c) == std::mem::discriminant(&want)
                        }),
                    })
                })
                .cloned()
                .unwrap_or_else(|| panic!("`{want}` is offered on the table: {offered:?}"));
            press(app, key_code(choice.key));
            match choice.does {
                Does::Ways(_) => choose_way(app),
                Does::Place(_) => {
                    if let Command::Card { at: Some(at), .. } = want {
                        click(app, at.pt());
                    }
                }
                Does::Play(_) => {}
            }
        }
    }
    let active = skirmish(app);
    (active.record.len() > before).then(|| active.record[before])
}

/// The shipped record of a person's win against the strength-2 bot,
/// playing the side `person` (0 the Legion, 1 the Zirl).
fn person_wins_record(person: usize) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "crates/cli/tests/data/skirmish-person-wins-{}.moves",
        ["legion", "zirl"][person]
    ))
}

/// Writes [`person_wins_record`]: a person at the table against the
/// strength-2 bot, each of the person's decisions thought of by the
/// strength-4 search from the person's own view (as the panel's Hint
/// does, R149) and entered by the table's picks and keys alone
/// ([`enter_by_table`]); the bot is the table's own. The first of the
/// search's seeds whose game the person wins is kept. Run with
/// `SANDTABLE_WRITE_PERSON_WINS=1 cargo test --test frontiers_table
/// write_ -- --ignored`.
#[test]
#[ignore = "writes the shipped records of a person's win"]
fn write_a_person_s_wins_against_the_strength_2_bot() {
    use sandtable::session::Seat as TableSeat;
    if std::env::var_os("SANDTABLE_WRITE_PERSON_WINS").is_none() {
        return;
    }
    for person in [0, 1] {
        if person_wins_record(person).exists() {
            continue;
        }
        let mut won = false;
        for attempt in 0..40u64 {
            let mut app = headless();
            app.insert_resource(sandtable::frontiers::play::AutoPass(true))
                .insert_resource(sandtable::session::BotPace(std::time::Duration::ZERO));
            open(&mut app, &scenario("skirmish.ron"));
            let mut seat_players = vec![TableSeat::Person; 2];
            seat_players[1 - person] = TableSeat::Bot(2);
            app.world_mut().resource_mut::<Seats>().0 = seat_players;
            app.update();
            let seed = 1000 + attempt;
            for _ in 0..200_000 {
                let active = skirmish(&app);
                if active.game.game().ending().is_some() {
                    break;
                }
                let Some(seat) = active
                    .deciding_seat()
                    .filter(|s| s.index() == person && active.handover.is_none())
                else {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    app.update();
                    continue;
                };
                let game = active.game.game().clone();
                let seen = active.seen_by(seat);
                let want = sandtable::session::bots::bot_command(&game, seat, 4, seed, seen)
                    .expect("a decision");
                if enter_by_table(&mut app, want).is_none() {
                    panic!("`{want}` could not be entered: {}", common::notice(&app));
                }
            }
            let ending = skirmish(&app).game.game().ending();
            println!("person {person}, seed {seed}: {ending:?}");
            if ending == Some(sandtable_core::game::Ending::Won(Seat(person as u16))) {
                let path = person_wins_record(person);
                let _ = std::fs::remove_file(&path);
                app.world_mut().write_message(SaveRequest::to(&path));
                app.update();
                assert!(path.exists(), "{}", common::notice(&app));
                won = true;
                break;
            }
        }
        assert!(won, "no win for side {person} in 40 games");
    }
}

/// A person wins a skirmish against the strength-2 bot, every decision
/// entered by the table's picks and keys alone, never the list of
/// commands (R105-R149): the shipped record, replayed through the table,
/// enters each of the person's commands by picks and keys to the same
/// command, the bot's as the bot's, and ends the same, the person's side
/// the winner.
#[test]
fn a_person_wins_against_the_strength_2_bot_by_table_picks_and_keys_alone() {
    for person in [0, 1] {
        replay_a_person_s_win(person);
    }
}

fn replay_a_person_s_win(person: usize) {
    use sandtable::session::Seat as TableSeat;
    use sandtable_frontiers::Command;
    let path = person_wins_record(person);
    let record: sandtable_core::record::Record<Command> =
        sandtable_scenario::records::read(&path).expect("the record");
    let seats = record.header("Seats").expect("seats");
    assert_eq!(seats.starts_with("person"), person == 0, "{seats}");
    let mut app = headless();
    app.insert_resource(sandtable::frontiers::play::AutoPass(true))
        // The bot's commands are the record's: the bot thinks of none.
        .insert_resource(sandtable::session::BotPace(std::time::Duration::from_secs(
            3600,
        )));
    open(&mut app, &scenario("skirmish.ron"));
    let mut seat_players = vec![TableSeat::Person; 2];
    seat_players[1 - person] = TableSeat::Bot(2);
    app.world_mut().resource_mut::<Seats>().0 = seat_players;
    app.update();
    let (mut by_person, mut passed_by_themselves) = (0, 0);
    for (k, (line, want)) in record.commands.iter().enumerate() {
        // A window the person may play no card of passed by itself.
        if skirmish(&app).record.len() > k {
            assert_eq!(skirmish(&app).record[k], *want, "line {line}");
            passed_by_themselves += 1;
            continue;
        }
        let game = skirmish(&app).game.game();
        let seat = sandtable_core::game::next_seat(game).expect("a seat decides");
        if seat.index() != person {
            app.world_mut()
                .write_message(sandtable::frontiers::play::BotMove(*want));
            app.update();
            app.update();
        } else {
            let played = enter_by_table(&mut app, *want);
            assert_eq!(
                played,
                Some(*want),
                "line {line}: `{want}` by the table's picks and keys: {}",
                common::notice(&app)
            );
            by_person += 1;
        }
        assert!(
            skirmish(&app).record.len() > k,
            "line {line}: `{want}` was not played: {}",
            common::notice(&app)
        );
    }
    let active = skirmish(&app);
    println!(
        "{} commands, {by_person} by the person's picks and keys, {passed_by_themselves} windows passed by themselves",
        active.record.len()
    );
    let saved: Vec<Command> = record.commands.iter().map(|(_, c)| *c).collect();
    assert_eq!(active.record, saved, "the same game, command for command");
    assert_eq!(
        active.game.game().ending(),
        Some(sandtable_core::game::Ending::Won(Seat(person as u16))),
        "the person's side wins"
    );
}

/// A game between bots, watched: paused, no bot plays; going on at the
/// fastest pace, they play; paused again, they stop after the command
/// under way and the game waits as it stands.
#[test]
fn a_game_of_bots_is_watched_paused_and_gone_on_with() {
    use sandtable::session::{BotPace, BotsPaused, Seat as TableSeat};
    let mut app = headless();
    app.insert_resource(BotsPaused(true))
        .insert_resource(BotPace(std::time::Duration::ZERO));
    open(&mut app, &scenario("skirmish.ron"));
    app.world_mut().resource_mut::<Seats>().0 = vec![TableSeat::Bot(1), TableSeat::Bot(1)];
    let run = |app: &mut App, updates: usize| {
        for _ in 0..updates {
            std::thread::sleep(std::time::Duration::from_millis(2));
            app.update();
        }
    };
    run(&mut app, 100);
    assert_eq!(skirmish(&app).record.len(), 0, "paused: no bot plays");
    app.insert_resource(BotsPaused(false));
    let mut played = 0;
    for _ in 0..2000 {
        run(&mut app, 1);
        played = skirmish(&app).record.len();
        if played >= 10 {
            break;
        }
    }
    assert!(played >= 10, "going on, the bots play: {played}");
    app.insert_resource(BotsPaused(true));
    // The command under way, if a bot was thinking, lands; then none.
    run(&mut app, 50);
    let stopped = skirmish(&app).record.len();
    run(&mut app, 200);
    assert_eq!(
        skirmish(&app).record.len(),
        stopped,
        "paused again: it waits"
    );
}
