//! A skirmish's layout editor, headless, by its requests: a terrain
//! polygon laid corner by corner, a corner dragged, a building placed
//! from the library, units placed past the AP limit and into a wall with
//! the loader's problems lit on their pieces with their rulings, undo,
//! save, and the edited layout played.

use std::path::Path;

use bevy::prelude::*;
use sandtable::frontiers::ActiveSkirmish;
use sandtable::frontiers::draft::{Building, Piece, SkirmishEdit};
use sandtable::frontiers::layout::{SkirmishLayout, SkirmishLayoutRequest, SkirmishTool};
use sandtable::frontiers::play::SkirmishInput;
use sandtable::frontiers::table::{ElementPiece, TerrainPiece, UnitPiece};
use sandtable::mode::{Mode, SetLayoutMode};
use sandtable::session::LoadRequest;
use sandtable::session::StartTurn;
use sandtable::table::Offending;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::TerrainKind;

mod common;

fn headless() -> App {
    let mut app = App::new();
    // The table's clicks, as the window's picking makes them (Cache's
    // layout systems read them in any layout mode).
    app.add_plugins(MinimalPlugins).add_plugins((
        sandtable::logic_plugin,
        sandtable::cache::picking::click_plugin,
    ));
    app.update();
    app
}

fn layout(app: &App) -> &SkirmishLayout {
    app.world()
        .get_resource::<SkirmishLayout>()
        .unwrap_or_else(|| panic!("layout mode is on: {}", common::notice(app)))
}

fn request(app: &mut App, r: SkirmishLayoutRequest) {
    app.world_mut().write_message(r);
    app.update();
    app.update();
}

fn tool(app: &mut App, t: SkirmishTool) {
    app.world_mut().resource_mut::<SkirmishLayout>().tool = t;
}

fn count<C: Component>(app: &mut App) -> usize {
    let mut q = app.world_mut().query::<&C>();
    q.iter(app.world()).count()
}

/// The shipped relay skirmish copied into a fresh folder for the test
/// `name`: the folder and the copy.
fn relay_copy(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = common::temp_dir("frontiers-layout", name);
    let file = dir.join("relay.ron");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/frontiers/skirmish.ron"),
        &file,
    )
    .expect("copied");
    (dir, file)
}

/// The skirmish of `file` opened, and layout mode switched on.
fn in_layout(file: &Path) -> App {
    let mut app = headless();
    app.world_mut().write_message(LoadRequest::new(file));
    app.update();
    app.update();
    layout_on(&mut app);
    app
}

/// Layout mode switched on.
fn layout_on(app: &mut App) {
    app.world_mut().write_message(SetLayoutMode {
        on: true,
        discard_unsaved: false,
    });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Mode>>().get(), Mode::Layout);
}

/// A click on the table: the button pressed and let go at one point.
fn click(app: &mut App, p: Pt) {
    request(app, SkirmishLayoutRequest::Press(p));
    request(app, SkirmishLayoutRequest::Release(p));
}

#[test]
fn each_tool_edits_the_layout_and_the_loader_lights_what_breaks_a_ruling() {
    let (dir, file) = relay_copy("tools");
    let mut app = in_layout(&file);
    let setup = layout(&app).setup().clone();
    assert!(layout(&app).draft.errors().is_empty());
    assert_eq!(count::<TerrainPiece>(&mut app), setup.terrain.len());
    assert_eq!(count::<ElementPiece>(&mut app), setup.elements.len());

    // A polygon laid corner by corner, then Done.
    tool(&mut app, SkirmishTool::Terrain);
    app.world_mut().resource_mut::<SkirmishLayout>().terrain = TerrainKind::Crater;
    for p in [Pt::new(850, 420), Pt::new(950, 420), Pt::new(900, 500)] {
        click(&mut app, p);
    }
    assert_eq!(layout(&app).drawing.len(), 3);
    request(&mut app, SkirmishLayoutRequest::FinishTerrain);
    let t = setup.terrain.len();
    assert_eq!(layout(&app).setup().terrain.len(), t + 1);
    assert_eq!(layout(&app).setup().terrain[t].kind, TerrainKind::Crater);
    assert_eq!(count::<TerrainPiece>(&mut app), t + 1, "the table follows");
    assert!(
        layout(&app).draft.errors().is_empty(),
        "{:?}",
        layout(&app).draft.errors()
    );

    // Its corner dragged: pressed on the corner, let go elsewhere.
    tool(&mut app, SkirmishTool::Select);
    request(&mut app, SkirmishLayoutRequest::Press(Pt::new(952, 421)));
    request(&mut app, SkirmishLayoutRequest::Release(Pt::new(990, 400)));
    assert_eq!(
        layout(&app).setup().terrain[t].corners[1],
        Pt::new(990, 400)
    );
    assert_eq!(layout(&app).selected, Some(Piece::Terrain(t)));

    // A building from the library.
    tool(&mut app, SkirmishTool::Building);
    app.world_mut().resource_mut::<SkirmishLayout>().building = Building::Hut;
    click(&mut app, Pt::new(1000, 200));
    let e = setup.elements.len();
    assert_eq!(layout(&app).setup().elements.len(), e + 1);
    assert_eq!(
        layout(&app).setup().elements[e].corners[0],
        Pt::new(1000, 200)
    );
    assert_eq!(count::<ElementPiece>(&mut app), e + 1);
    assert!(
        layout(&app).draft.errors().is_empty(),
        "{:?}",
        layout(&app).draft.errors()
    );

    // A unit set down inside the new hut's wall: lit with its ruling.
    tool(&mut app, SkirmishTool::Unit);
    click(&mut app, Pt::new(1000, 230));
    let u = setup.units.len();
    let lit: Vec<_> = layout(&app)
        .draft
        .errors()
        .iter()
        .filter(|f| f.at == Some(Piece::Unit(u)))
        .map(|f| f.line())
        .collect();
    assert!(!lit.is_empty(), "{:?}", layout(&app).draft.errors());
    assert!(lit.iter().all(|l| l.contains("(R1")), "{lit:?}");
    let mut q = app
        .world_mut()
        .query_filtered::<&UnitPiece, With<Offending>>();
    let red: Vec<usize> = q.iter(app.world()).map(|p| p.index).collect();
    assert_eq!(red, [u], "the unit is marked on the table");
    // Undone, and the table is clean again.
    request(&mut app, SkirmishLayoutRequest::Undo);
    assert!(layout(&app).draft.errors().is_empty());
    assert_eq!(count::<Offending>(&mut app), 0);

    // Past the AP limit: the loader says so, with R103.
    let ap = sandtable::frontiers::draft::side_ap(layout(&app).draft.layout(), 0);
    request(
        &mut app,
        SkirmishLayoutRequest::Edit(SkirmishEdit::SetAp(Some(ap + 5))),
    );
    assert!(
        layout(&app).draft.errors().is_empty(),
        "{:?}",
        layout(&app).draft.errors()
    );
    click(&mut app, Pt::new(700, 60));
    assert!(
        layout(&app)
            .draft
            .errors()
            .iter()
            .any(|f| f.line().contains("AP") && f.line().contains("(R103)")),
        "{:?}",
        layout(&app).draft.errors()
    );
    assert!(
        common::notice(&app).contains("problem"),
        "{}",
        common::notice(&app)
    );
    // Saving a layout that does not load is refused.
    let out = dir.join("edited.ron");
    request(&mut app, SkirmishLayoutRequest::Save(out.clone()));
    assert!(!out.exists(), "{}", common::notice(&app));
    request(&mut app, SkirmishLayoutRequest::Undo);

    // Saved, read back by the loader, and played.
    request(&mut app, SkirmishLayoutRequest::Save(out.clone()));
    let text = std::fs::read_to_string(&out).expect("saved");
    let saved = sandtable_scenario::skirmish::parse(&text, "edited.ron").expect("it loads");
    assert_eq!(saved.setup, *layout(&app).setup());
    app.world_mut().write_message(SetLayoutMode {
        on: false,
        discard_unsaved: false,
    });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Mode>>().get(), Mode::Play);
    let active = app.world().resource::<ActiveSkirmish>();
    assert_eq!(active.game.game().setup().terrain.len(), t + 1);
    assert_eq!(active.game.game().setup().elements.len(), e + 1);
    assert!(active.record.is_empty());
    assert!(
        common::notice(&app).contains("a new skirmish starts on the edited layout"),
        "{}",
        common::notice(&app)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The "done when" of the editor: a layout made from nothing is saved,
/// printed at 1:1 with its play aids, and played.
#[test]
fn a_layout_made_from_nothing_is_saved_printed_and_played() {
    let dir = common::temp_dir("frontiers-layout", "nothing");
    let mut app =
        in_layout(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/frontiers/skirmish.ron"));
    request(
        &mut app,
        SkirmishLayoutRequest::Edit(SkirmishEdit::New(900, 600)),
    );
    assert!(layout(&app).setup().units.is_empty());
    assert!(
        layout(&app)
            .draft
            .errors()
            .iter()
            .any(|f| f.line().contains("has no unit") && f.line().contains("(R103)")),
        "{:?}",
        layout(&app).draft.errors()
    );
    tool(&mut app, SkirmishTool::Terrain);
    for p in [
        Pt::new(300, 250),
        Pt::new(420, 250),
        Pt::new(430, 330),
        Pt::new(310, 340),
    ] {
        click(&mut app, p);
    }
    request(&mut app, SkirmishLayoutRequest::FinishTerrain);
    tool(&mut app, SkirmishTool::Building);
    click(&mut app, Pt::new(600, 260));
    tool(&mut app, SkirmishTool::Objective);
    click(&mut app, Pt::new(450, 450));
    tool(&mut app, SkirmishTool::Unit);
    click(&mut app, Pt::new(200, 100));
    click(&mut app, Pt::new(260, 100));
    {
        let mut l = app.world_mut().resource_mut::<SkirmishLayout>();
        l.side = 1;
        l.unit = "zr_cluster".into();
    }
    click(&mut app, Pt::new(200, 500));
    let setup = layout(&app).setup().clone();
    assert_eq!(
        (
            setup.terrain.len(),
            setup.elements.len(),
            setup.units.len(),
            setup.objectives.len()
        ),
        (1, 1, 3, 1)
    );
    assert!(
        layout(&app).draft.errors().is_empty(),
        "{:?}",
        layout(&app).draft.errors()
    );
    // Saved and printed.
    let file = dir.join("new.ron");
    request(&mut app, SkirmishLayoutRequest::Save(file.clone()));
    assert!(file.exists(), "{}", common::notice(&app));
    request(&mut app, SkirmishLayoutRequest::Print(file.clone()));
    let sheet = std::fs::read(dir.join("new.pdf")).expect("the sheet");
    assert!(sheet.starts_with(b"%PDF-"));
    let planned =
        sandtable_sheet::plan_skirmish(layout(&app).draft.layout(), sandtable_sheet::Paper::A4)
            .expect("planned");
    assert_eq!(planned.table_mm, (900.0, 600.0));
    assert_eq!(planned.aids.len(), 1);
    // Played: a new skirmish on it, its first command legal.
    app.world_mut().write_message(SetLayoutMode {
        on: false,
        discard_unsaved: false,
    });
    app.update();
    app.update();
    let active = app.world().resource::<ActiveSkirmish>();
    assert_eq!(active.game.game().setup(), &setup);
    assert!(matches!(
        &active.source,
        sandtable::session::ScenarioSource::File(p) if p == &file
    ));
    let mut legal = Vec::new();
    let seat = sandtable_core::game::next_seat(active.game.game()).expect("a seat decides");
    sandtable_core::game::GameState::legal_into(active.game.game(), seat, &mut legal);
    assert!(legal.iter().any(|l| l.command.to_string() == "discard"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl+Z in layout mode: the keys pressed and let go.
fn ctrl_z(app: &mut App) {
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(KeyCode::ControlLeft);
    keys.press(KeyCode::KeyZ);
    app.world_mut().insert_resource(keys);
    app.update();
    app.world_mut().remove_resource::<ButtonInput<KeyCode>>();
    app.update();
}

#[test]
fn ctrl_z_undoes_the_last_edit_and_its_notice_and_leaves_the_game_alone() {
    let (dir, file) = relay_copy("ctrl-z");
    // Commands of the game first, the last of which Ctrl+Z would take
    // back in play (R31), but not in layout mode.
    let mut app = headless();
    app.world_mut()
        .write_message(sandtable::session::LoadRequest::new(&file));
    app.update();
    app.update();
    app.world_mut().write_message(StartTurn);
    app.update();
    app.update();
    let played = |app: &App| {
        app.world()
            .get_resource::<ActiveSkirmish>()
            .expect("a skirmish")
            .record
            .len()
    };
    for line in ["discard", "discard", "orders E1:1 T1:2 CP:decoy S1:decoy"] {
        app.world_mut()
            .write_message(SkirmishInput::Text(line.into()));
        app.update();
        app.update();
        app.world_mut().write_message(StartTurn);
        app.update();
        app.update();
    }
    assert_eq!(played(&app), 3, "{}", common::notice(&app));
    layout_on(&mut app);
    // An AP limit below the lists: a problem, told (R103).
    let ap = sandtable::frontiers::draft::side_ap(layout(&app).draft.layout(), 0);
    request(
        &mut app,
        SkirmishLayoutRequest::Edit(SkirmishEdit::SetAp(Some(ap - 5))),
    );
    assert!(!layout(&app).draft.errors().is_empty());
    assert!(
        common::notice(&app).contains("problem"),
        "{}",
        common::notice(&app)
    );
    // Ctrl+Z: the edit undone, the notice says the layout loads, and the
    // game keeps its command.
    ctrl_z(&mut app);
    assert!(
        layout(&app).draft.errors().is_empty(),
        "{:?}",
        layout(&app).draft.errors()
    );
    assert!(
        common::notice(&app).contains("the layout loads"),
        "{}",
        common::notice(&app)
    );
    assert_eq!(played(&app), 3, "the game's commands are kept");
    // The panel's Undo clears the notice the same way.
    request(
        &mut app,
        SkirmishLayoutRequest::Edit(SkirmishEdit::SetAp(Some(ap - 5))),
    );
    request(&mut app, SkirmishLayoutRequest::Undo);
    assert!(
        common::notice(&app).contains("the layout loads"),
        "{}",
        common::notice(&app)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Measure tool reads the distance between two clicks in mm and LNS
/// (R100), or inches; the Door/window tool lays an opening on the wall
/// clicked (R117), and Delete takes it away; a ruin from the library is a
/// light structure (R119).
#[test]
fn r100_r117_measure_openings_and_ruins_in_layout_mode() {
    use sandtable_frontiers::setup::OpeningKind;
    let (_dir, file) = relay_copy("measure");
    let mut app = in_layout(&file);
    tool(&mut app, SkirmishTool::Measure);
    click(&mut app, Pt::new(100, 100));
    assert!(layout(&app).reading.is_none());
    assert_eq!(layout(&app).measure_from, Some(Pt::new(100, 100)));
    click(&mut app, Pt::new(400, 500));
    let reading = layout(&app).reading.clone().expect("a reading");
    let lns = f64::from(layout(&app).setup().switches.lns_mm);
    assert!(
        reading.starts_with(&format!("500 mm, {:.1} LNS", 500.0 / lns))
            && reading.contains("(R100)"),
        "{reading}"
    );
    app.world_mut().resource_mut::<SkirmishLayout>().inches = true;
    click(&mut app, Pt::new(0, 0));
    click(&mut app, Pt::new(254, 0));
    assert!(
        layout(&app)
            .reading
            .as_deref()
            .is_some_and(|r| r.starts_with("10.0\"")),
        "{:?}",
        layout(&app).reading
    );
    // Measuring changes nothing of the layout.
    assert!(!layout(&app).draft.edited(), "{}", common::notice(&app));
    // A room placed, a window laid on its far wall (which has none), then
    // taken away.
    tool(&mut app, SkirmishTool::Building);
    app.world_mut().resource_mut::<SkirmishLayout>().building = Building::Room;
    click(&mut app, Pt::new(50, 250));
    let e = layout(&app).setup().elements.len() - 1;
    let before = layout(&app).setup().elements[e].openings.clone();
    tool(&mut app, SkirmishTool::Opening);
    app.world_mut().resource_mut::<SkirmishLayout>().opening = OpeningKind::Window;
    click(&mut app, Pt::new(100, 343));
    let after = layout(&app).setup().elements[e].openings.clone();
    assert_eq!(after.len(), before.len() + 1, "{}", common::notice(&app));
    let window = after.last().expect("the window");
    assert_eq!(window.kind, OpeningKind::Window);
    assert!(window.a.y == 340 && window.b.y == 340, "{window:?}");
    tool(&mut app, SkirmishTool::Delete);
    click(&mut app, Pt::new(100, 341));
    assert_eq!(
        layout(&app).setup().elements[e].openings,
        before,
        "{}",
        common::notice(&app)
    );
    // A ruin: a light structure where it is placed.
    let terrain = layout(&app).setup().terrain.len();
    tool(&mut app, SkirmishTool::Building);
    app.world_mut().resource_mut::<SkirmishLayout>().building = Building::Ruin;
    click(&mut app, Pt::new(60, 300));
    let setup = layout(&app).setup();
    assert_eq!(setup.terrain.len(), terrain + 1, "{}", common::notice(&app));
    assert_eq!(
        setup.terrain.last().map(|t| t.kind),
        Some(TerrainKind::LightStructure)
    );
    assert_eq!(layout(&app).selected, Some(Piece::Terrain(terrain)));
}
