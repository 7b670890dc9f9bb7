//! Models on the table, headless: the default looks are read from
//! `assets/looks/`, a scenario's own model is drawn at its scale, and a
//! model that is missing or broken falls back to the next look down with a
//! notice. The app runs with the asset, glTF and scene plugins and no
//! renderer.

mod common;
use common::notice;

use std::path::Path;
use std::time::{Duration, Instant};

use bevy::asset::AssetPath;
use bevy::gltf::{GltfMaterialName, GltfMeshName, GltfPlugin};
use bevy::prelude::*;
use bevy::world_serialization::{WorldAssetRoot, WorldSerializationPlugin};
use sandtable::cache::builtin::DefaultLook;
use sandtable::cache::looks::PlayerLooks;
use sandtable::cache::picking::click_plugin;
use sandtable::cache::play::ActiveGame;
use sandtable::cache::table::{BasePiece, StashToken, TerrainPiece, UnitPiece};
use sandtable::session::{GameLoaded, Notice, ScenarioSource};
use sandtable::table::models::{AssetsFolder, Figure, Models, Owner};
use sandtable_scenario::{ModelTerrain, Scenario};

/// The app with the looks and model loading; `file` is where the scenario
/// was read from, so that its models are looked for beside it.
fn app_with(scenario: Scenario, file: Option<&Path>) -> App {
    app_with_assets(scenario, file, None)
}

/// As [`app_with`], with another assets folder.
fn app_with_assets(scenario: Scenario, file: Option<&Path>, assets: Option<&Path>) -> App {
    let mut app = App::new();
    sandtable::table::files::asset_source(&mut app);
    if let Some(assets) = assets {
        app.insert_resource(AssetsFolder(assets.to_path_buf()));
    }
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        AssetPlugin::default(),
        WorldSerializationPlugin,
        GltfPlugin::default(),
    ))
    .init_asset::<Mesh>()
    .init_asset::<StandardMaterial>()
    .init_asset::<Image>()
    // What the glTF scenes hold, for the scene spawner to copy.
    .register_type::<Mesh3d>()
    .register_type::<Name>()
    .register_type::<GltfMaterialName>()
    .register_type::<GltfMeshName>()
    .register_type::<Visibility>()
    .register_type::<InheritedVisibility>()
    .register_type::<ViewVisibility>()
    .register_type::<bevy::camera::primitives::Aabb>()
    .add_plugins((
        sandtable::logic_plugin,
        click_plugin,
        sandtable::table::models::plugin,
        sandtable::cache::looks::plugin,
    ));
    let source = match file {
        Some(path) => ScenarioSource::File(path.to_path_buf()),
        None => ScenarioSource::Embedded,
    };
    // Plugins finish as `App::run` would have them: the glTF loader is
    // registered then.
    app.finish();
    app.cleanup();
    let mut active = ActiveGame::new(scenario, source);
    active.handover = None;
    app.insert_resource(active);
    app.world_mut().write_message(GameLoaded);
    app.update();
    app
}

/// Runs the app until no model is loading and every figure is placed (at
/// most 20 s).
fn settle(app: &mut App) {
    let start = Instant::now();
    loop {
        app.update();
        let server = app.world().resource::<AssetServer>();
        let models = app.world().resource::<Models>();
        let loading = models
            .defaults
            .values()
            .chain(models.custom.iter().flatten())
            .any(|h| server.load_state(h.id()).is_loading());
        if !loading {
            // Two more frames: fallbacks are placed, scenes spawned and painted.
            for _ in 0..3 {
                app.update();
            }
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "models still loading"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The figures of pieces carrying `T`.
fn figures_of<T: Component>(app: &mut App) -> Vec<(Figure, Option<AssetPath<'static>>, Transform)> {
    let mut out = Vec::new();
    let mut pieces = app.world_mut().query_filtered::<&Children, With<T>>();
    let mut figures = app
        .world_mut()
        .query::<(&Figure, Option<&WorldAssetRoot>, &Transform)>();
    let children: Vec<Entity> = pieces
        .iter(app.world())
        .flat_map(|c| c.iter().collect::<Vec<_>>())
        .collect();
    for child in children {
        if let Ok((figure, root, transform)) = figures.get(app.world(), child) {
            let path = root.and_then(|r| r.0.path().cloned());
            out.push((*figure, path, *transform));
        }
    }
    out
}

fn path_text(path: &Option<AssetPath<'static>>) -> String {
    path.as_ref().map(|p| p.to_string()).unwrap_or_default()
}

fn duel(models: &str) -> Scenario {
    sandtable_scenario::parse(
        &format!(
            r#"(
                name: "duel",
                rules: SnyderSkirmish,
                board: (columns: 8, rows: 8),
                players: [
                    (name: "Red", factors: [(base: "C2", units: [(at: "D4", facing: N, name: "Vey"), (at: "B3", facing: E)])]),
                    (name: "Blue", factors: [(base: "E6", units: [(at: "D5", facing: N), (at: "F7", facing: S)])]),
                ],
                terrain: [(kind: Woods, squares: ["H1"]), (kind: LowWall, squares: ["A5", "B5"])],
                stashes: ["G4"],
                physical: (square_mm: 30.0, table_mm: (400.0, 400.0)),
                models: [{models}],
            )"#
        ),
        "duel",
    )
    .expect("valid duel")
}

/// A copy of one of the shipped default looks, as a person's own model.
fn copy_default(look: DefaultLook, to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/looks")
        .join(look.file_name());
    std::fs::copy(from, to).expect("copy a default look");
}

#[test]
fn the_default_looks_are_read_from_assets() {
    let mut app = app_with(duel(""), None);
    settle(&mut app);
    let models = app.world().resource::<Models>();
    assert!(models.failed.is_empty(), "every default look loads");
    let server = app.world().resource::<AssetServer>();
    for (look, handle) in &models.defaults {
        assert!(server.is_loaded_with_dependencies(handle.id()), "{look:?}");
    }
    for (figure, path, _) in figures_of::<UnitPiece>(&mut app) {
        assert_eq!(figure.scale, 1.0, "a default look is drawn to one square");
        assert!(
            path_text(&path).ends_with("looks/unit.glb#Scene0"),
            "{path:?}"
        );
    }
    assert_eq!(figures_of::<UnitPiece>(&mut app).len(), 4);
    let bases = figures_of::<BasePiece>(&mut app);
    assert_eq!(bases.len(), 2);
    assert!(
        bases
            .iter()
            .all(|(_, p, _)| path_text(p).ends_with("looks/base.glb#Scene0"))
    );
    let stash = figures_of::<StashToken>(&mut app);
    assert!(path_text(&stash[0].1).ends_with("looks/stash.glb#Scene0"));
    let terrain: Vec<String> = figures_of::<TerrainPiece>(&mut app)
        .iter()
        .map(|(_, p, _)| path_text(p))
        .collect();
    assert_eq!(terrain.len(), 3, "one figure a square");
    assert!(
        terrain
            .iter()
            .any(|p| p.ends_with("looks/woods.glb#Scene0"))
    );
    assert!(
        terrain
            .iter()
            .filter(|p| p.ends_with("looks/low-wall.glb#Scene0"))
            .count()
            == 2
    );

    // The scenes were spawned, and the parts named `player` took their
    // player's colour: every unit has meshes, its body in its player's material.
    let mut named = app.world_mut().query::<(
        &GltfMaterialName,
        &MeshMaterial3d<StandardMaterial>,
        &ChildOf,
    )>();
    let player_parts = named
        .iter(app.world())
        .filter(|(n, _, _)| n.0 == "player")
        .count();
    // Units: body and head; bases: flag.
    assert_eq!(player_parts, 4 * 2 + 2, "every player part is painted");
    // Each in its own player's colour: Red's units and base in Red's, Blue's in Blue's.
    let colours: Vec<Handle<StandardMaterial>> = app
        .world()
        .resource::<PlayerLooks>()
        .0
        .iter()
        .map(|l| l.colour_material())
        .collect();
    let mut owners = app.world_mut().query::<(Entity, &Owner)>();
    let owner_of: std::collections::HashMap<Entity, usize> = owners
        .iter(app.world())
        .map(|(e, o)| (e, usize::from(o.0)))
        .collect();
    let mut parents = app.world_mut().query::<&ChildOf>();
    let painted: Vec<(Entity, Handle<StandardMaterial>)> = named
        .iter(app.world())
        .filter(|(n, _, _)| n.0 == "player")
        .map(|(_, m, c)| (c.parent(), m.0.clone()))
        .collect();
    for (mut e, material) in painted {
        // Up from the mesh to the piece that has an owner.
        while !owner_of.contains_key(&e) {
            e = parents.get(app.world(), e).expect("a piece above").parent();
        }
        assert_eq!(
            material, colours[owner_of[&e]],
            "painted in its owner's colour"
        );
    }
    assert!(app.world().resource::<Notice>().text.is_none());
}

#[test]
fn a_scenario_model_is_drawn_at_its_scale_for_its_pieces() {
    let dir = common::temp_dir("models", "scale");
    std::fs::create_dir_all(dir.join("figures")).expect("folder");
    copy_default(DefaultLook::Unit, &dir.join("figures/captain.glb"));
    copy_default(
        DefaultLook::Terrain(ModelTerrain::Woods),
        &dir.join("figures/oak.glb"),
    );
    let scenario = duel(
        r#"(piece: Unit("Vey"), file: "figures/captain.glb", unit_mm: 1.5),
           (piece: Terrain(Woods), file: "figures/oak.glb", unit_mm: 60.0),"#,
    );
    let file = dir.join("duel.ron");
    let mut app = app_with(scenario, Some(&file));
    settle(&mut app);
    assert!(app.world().resource::<Models>().failed.is_empty());
    let units = figures_of::<UnitPiece>(&mut app);
    let custom: Vec<_> = units
        .iter()
        .filter(|(_, p, _)| path_text(p).ends_with("figures/captain.glb#Scene0"))
        .collect();
    assert_eq!(custom.len(), 1, "only the unit named Vey");
    // 1.5 mm a model unit on 30 mm squares: 0.05 squares a unit.
    assert!(
        (custom[0].0.scale - 0.05).abs() < 1e-6,
        "{}",
        custom[0].0.scale
    );
    assert!((custom[0].2.scale - Vec3::splat(0.05)).length() < 1e-6);
    // The Red unit named Vey is unit 0.
    let mut vey = app.world_mut().query::<(&UnitPiece, &Owner, &Children)>();
    let vey_children: Vec<Entity> = vey
        .iter(app.world())
        .find(|(u, _, _)| u.0.0 == 0)
        .map(|(_, _, c)| c.iter().collect())
        .expect("unit 0");
    let mut roots = app.world_mut().query::<&WorldAssetRoot>();
    assert!(
        vey_children
            .iter()
            .filter_map(|c| roots.get(app.world(), *c).ok())
            .any(|r| path_text(&r.0.path().cloned()).ends_with("captain.glb#Scene0"))
    );
    let woods: Vec<_> = figures_of::<TerrainPiece>(&mut app)
        .into_iter()
        .filter(|(_, p, _)| path_text(p).ends_with("figures/oak.glb#Scene0"))
        .collect();
    assert_eq!(woods.len(), 1);
    assert!(
        (woods[0].0.scale - 2.0).abs() < 1e-6,
        "60 mm units on 30 mm squares"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Unit 0's figures: (model path, or "built-in").
fn unit_zero_figures(app: &mut App) -> Vec<String> {
    let mut units = app.world_mut().query::<(&UnitPiece, &Children)>();
    let children: Vec<Entity> = units
        .iter(app.world())
        .find(|(u, _)| u.0.0 == 0)
        .map(|(_, c)| c.iter().collect())
        .expect("unit 0");
    let mut figures = app
        .world_mut()
        .query::<(&Figure, Option<&WorldAssetRoot>)>();
    children
        .iter()
        .filter_map(|c| figures.get(app.world(), *c).ok())
        .map(|(_, root)| match root {
            Some(r) => path_text(&r.0.path().cloned()),
            None => "built-in".to_owned(),
        })
        .collect()
}

#[test]
fn a_missing_model_falls_back_to_the_default_look_with_a_notice() {
    let dir = common::temp_dir("models", "missing");
    let scenario = duel(r#"(piece: Unit("Vey"), file: "figures/nowhere.glb", unit_mm: 1.0),"#);
    let mut app = app_with(scenario, Some(&dir.join("duel.ron")));
    settle(&mut app);
    let text = notice(&app);
    assert!(
        text.contains("models[0]: figures/nowhere.glb is not in")
            && text.contains("the unit Vey keep")
            && text.contains("default look"),
        "{text}"
    );
    let figures = unit_zero_figures(&mut app);
    assert_eq!(figures.len(), 1, "{figures:?}");
    assert!(figures[0].ends_with("looks/unit.glb#Scene0"), "{figures:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_model_falls_back_to_the_default_look_with_a_notice() {
    let cases: [(&str, fn(&Path)); 3] = [
        ("not glTF", |path| {
            std::fs::write(path, b"glTF but not really").expect("write")
        }),
        ("too large", |path| {
            let file = std::fs::File::create(path).expect("create");
            file.set_len(65 * 1024 * 1024)
                .expect("a sparse file over the limit");
        }),
        ("a link out of its folder", |path| {
            // The scenario lies in DIR/scenario; the file beside that folder.
            let scenario = path
                .parent()
                .and_then(Path::parent)
                .expect("scenario folder");
            let outside = scenario.with_file_name("outside.glb");
            copy_default(DefaultLook::Unit, &outside);
            #[cfg(unix)]
            std::os::unix::fs::symlink(&outside, path).expect("link");
        }),
    ];
    for (i, (case, make)) in cases.into_iter().enumerate() {
        if case == "a link out of its folder" && !cfg!(unix) {
            continue;
        }
        let dir = common::temp_dir("models", &format!("broken-{i}"));
        std::fs::create_dir_all(dir.join("scenario/figures")).expect("folder");
        make(&dir.join("scenario/figures/vey.glb"));
        let scenario = duel(r#"(piece: Unit("Vey"), file: "figures/vey.glb", unit_mm: 1.0),"#);
        let mut app = app_with(scenario, Some(&dir.join("scenario/duel.ron")));
        settle(&mut app);
        let text = notice(&app);
        println!("{case}: {text}");
        assert!(
            text.contains("model not drawn:")
                && text.contains("figures/vey.glb")
                && text.contains("the default look is drawn instead"),
            "{case}: {text}"
        );
        assert!(
            !text.contains("sandtable-models://"),
            "no inner names: {text}"
        );
        match case {
            "not glTF" => assert!(text.contains("vey.glb: invalid glTF file"), "{text}"),
            "too large" => assert!(text.contains("larger than 67108864 bytes"), "{text}"),
            "a link out of its folder" => assert!(text.contains("outside its folder"), "{text}"),
            _ => {}
        }
        assert_eq!(app.world().resource::<Models>().failed.len(), 1, "{case}");
        let figures = unit_zero_figures(&mut app);
        assert_eq!(figures.len(), 1, "{case}: {figures:?}");
        assert!(
            figures[0].ends_with("looks/unit.glb#Scene0"),
            "{case}: {figures:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_broken_default_look_falls_back_to_the_built_in_parts_with_a_notice() {
    let assets = common::temp_dir("models", "assets");
    std::fs::create_dir_all(assets.join("looks")).expect("folder");
    for look in DefaultLook::all() {
        copy_default(look, &assets.join("looks").join(look.file_name()));
    }
    std::fs::write(assets.join("looks/unit.glb"), b"not a model").expect("break it");
    std::fs::remove_file(assets.join("looks/woods.glb")).expect("lose it");
    let mut app = app_with_assets(duel(""), None, Some(&assets));
    settle(&mut app);
    let text = notice(&app);
    assert!(
        text.contains("unit.glb") && text.contains("woods.glb"),
        "{text}"
    );
    assert!(
        text.contains("the built-in look is drawn instead"),
        "{text}"
    );
    assert_eq!(app.world().resource::<Models>().failed.len(), 2);
    for (figure, path, _) in figures_of::<UnitPiece>(&mut app) {
        assert!(figure.model.is_none() && path.is_none(), "built-in parts");
    }
    // The built-in parts have meshes: body, head and visor.
    let mut parts = app.world_mut().query_filtered::<&ChildOf, With<Mesh3d>>();
    let mut figures = app.world_mut().query::<(Entity, &Figure)>();
    let builtin: Vec<Entity> = figures
        .iter(app.world())
        .filter(|(_, f)| f.model.is_none())
        .map(|(e, _)| e)
        .collect();
    let part_count = parts
        .iter(app.world())
        .filter(|c| builtin.contains(&c.parent()))
        .count();
    // 4 units of 3 parts, a woods square of 6 parts.
    assert_eq!(part_count, 4 * 3 + 6);
    // The bases still read their file.
    assert!(
        figures_of::<BasePiece>(&mut app)
            .iter()
            .all(|(_, p, _)| path_text(p).ends_with("looks/base.glb#Scene0"))
    );
    let _ = std::fs::remove_dir_all(&assets);
}

#[test]
fn a_scenario_opened_by_a_relative_path_finds_its_models() {
    let dir = common::temp_dir("models", "relative");
    std::fs::create_dir_all(dir.join("figures")).expect("folder");
    copy_default(DefaultLook::Unit, &dir.join("figures/vey.glb"));
    std::fs::write(dir.join("duel.ron"), "").expect("the scenario's file");
    // Up from the working folder to the root, and down to the scenario: a
    // relative path wherever the two folders lie.
    let cwd = std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .expect("working folder");
    let below_root = |p: &Path| -> std::path::PathBuf {
        p.components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .collect()
    };
    let up = "../".repeat(below_root(&cwd).components().count());
    let scenario_file = dir.canonicalize().expect("the folder").join("duel.ron");
    let relative = Path::new(&up)
        .join(below_root(&scenario_file))
        .display()
        .to_string();
    assert!(!Path::new(&relative).is_absolute(), "{relative}");
    assert!(
        Path::new(&relative).is_file(),
        "{relative} leads to the scenario"
    );
    let scenario = duel(r#"(piece: Unit("Vey"), file: "figures/vey.glb", unit_mm: 1.0),"#);
    let mut app = app_with(scenario, Some(Path::new(&relative)));
    settle(&mut app);
    assert_eq!(notice(&app), "", "found and read");
    let figures = unit_zero_figures(&mut app);
    assert!(
        figures[0].ends_with("figures/vey.glb#Scene0"),
        "{figures:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A glTF file naming `uris` as its buffers, with a triangle that uses the first.
fn gltf_naming(uris: &[&str]) -> String {
    let buffers: Vec<String> = uris
        .iter()
        .map(|u| format!(r#"{{"uri": "{u}", "byteLength": 36}}"#))
        .collect();
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}],
            "nodes": [{{"mesh": 0}}],
            "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
            "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                            "min": [0, 0, 0], "max": [1, 1, 0]}}],
            "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
            "buffers": [{}]}}"#,
        buffers.join(", ")
    )
}

#[test]
fn the_files_a_model_names_obey_the_file_rules() {
    let triangle: Vec<u8> = [0f32, 0., 0., 1., 0., 0., 0., 1., 0.]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let many: Vec<String> = (0..300).map(|i| format!("b{i}.bin")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let cases: [(&str, Vec<&str>, &str); 5] = [
        ("beside", vec!["tri.bin"], ""),
        (
            "up",
            vec!["../outside.bin"],
            "must lie beside it or below it",
        ),
        (
            "escaped up",
            vec!["%2e%2e/outside.bin"],
            "must lie beside it or below it",
        ),
        ("too many", many, "at most 256 are allowed"),
        (
            "too much",
            vec!["big.bin", "big.bin"],
            "more than 67108864 bytes",
        ),
    ];
    for (i, (case, uris, words)) in cases.into_iter().enumerate() {
        let dir = common::temp_dir("models", &format!("refs-{i}"));
        std::fs::create_dir_all(dir.join("scenario/figures")).expect("folder");
        std::fs::write(dir.join("scenario/figures/tri.bin"), &triangle).expect("buffer");
        std::fs::write(dir.join("scenario/outside.bin"), &triangle).expect("buffer");
        let big = std::fs::File::create(dir.join("scenario/figures/big.bin")).expect("big");
        big.set_len(40 * 1024 * 1024).expect("a sparse 40 MiB file");
        std::fs::write(dir.join("scenario/figures/vey.gltf"), gltf_naming(&uris)).expect("gltf");
        let scenario = duel(r#"(piece: Unit("Vey"), file: "figures/vey.gltf", unit_mm: 1.0),"#);
        let mut app = app_with(scenario, Some(&dir.join("scenario/duel.ron")));
        settle(&mut app);
        let text = notice(&app);
        let figures = unit_zero_figures(&mut app);
        if words.is_empty() {
            assert_eq!(text, "", "{case}");
            assert!(
                figures[0].ends_with("figures/vey.gltf#Scene0"),
                "{case}: {figures:?}"
            );
        } else {
            assert!(
                text.contains("figures/vey.gltf") && text.contains(words),
                "{case}: {text}"
            );
            assert!(
                figures[0].ends_with("looks/unit.glb#Scene0"),
                "{case}: {figures:?}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
