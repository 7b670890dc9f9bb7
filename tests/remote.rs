//! The table following a game served over the network, headless: a
//! server (`sandtable_net`, replicon's test apps) serves the flank march;
//! the table of a client seated as Red shows Red's masked game, built
//! from the scenario the server sent for Red, and follows each command;
//! a watching table shows the public's.

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon::test_app::ServerTestAppExt;
use sandtable::session::game::ActiveGame;
use sandtable::session::remote::Remote;
use sandtable::warpspawn::table::Warpspawn;
use sandtable_core::game::{GameState, Seat, Viewer};
use sandtable_net::{Claim, Hosted, Play, ServePlugin, ViewPlugin, protocol};

type Battle = sandtable_warpspawn::Game;

fn flank_march() -> (sandtable_scenario::battle::Battle, Battle) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/warpspawn/flank-march.ron");
    let battle = match sandtable_scenario::load_any(&path).expect("the flank march") {
        sandtable_scenario::Loaded::Warpspawn(b) => b,
        _ => panic!("a battle"),
    };
    let game = Battle::new(&battle.setup, sandtable_core::dice::Dice::seeded(7)).expect("starts");
    (battle, game)
}

/// The scenario as `viewer` may know it, as `sandtable-serve` sends it.
fn scenario_for(battle: &sandtable_scenario::battle::Battle, masked: &Battle) -> String {
    let mut b = battle.clone();
    b.setup = masked.battle().setup.clone();
    b.setup.seed = 0;
    b.to_ron()
}

fn server() -> App {
    let (battle, game) = flank_march();
    let seats = (0..2)
        .map(|k| scenario_for(&battle, &game.masked(Viewer::Player(Seat(k)))))
        .collect();
    let public = scenario_for(&battle, &game.masked(Viewer::Public));
    let mut server = App::new();
    server.add_plugins((
        MinimalPlugins,
        bevy::state::app::StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
    ));
    protocol(&mut server);
    server
        .insert_resource(
            Hosted::new(game, vec!["red".into(), "blue".into()])
                .with_rules("warpspawn")
                .with_scenarios(seats, public),
        )
        .add_plugins(ServePlugin::<Battle>::default());
    server.finish();
    server
}

/// A headless table joined as `seat` (or watching).
fn table(seat: Option<u16>) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin)
        .add_plugins((
            RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
            ViewPlugin,
        ));
    protocol(&mut app);
    app.insert_resource(Remote::at(seat));
    app.finish();
    app
}

fn round(server: &mut App, tables: &mut [&mut App]) {
    for t in tables.iter_mut() {
        t.update();
        server.exchange_with_client(t);
    }
    server.update();
    for t in tables.iter_mut() {
        server.exchange_with_client(t);
        t.update();
    }
}

#[test]
fn r57_a_joined_table_shows_its_seat_s_masked_game_and_follows_the_server() {
    let mut server = server();
    let (mut red, mut watcher) = (table(Some(0)), table(None));
    for t in [&mut red, &mut watcher] {
        server.connect_client(t);
    }
    red.world_mut().write_message(Claim {
        seat: 0,
        code: "red".into(),
    });
    for _ in 0..4 {
        round(&mut server, &mut [&mut red, &mut watcher]);
    }
    let hosted = server.world().resource::<Hosted<Battle>>();
    let game = hosted.game().clone();
    let active = red
        .world()
        .get_resource::<ActiveGame<Warpspawn>>()
        .expect("Red's table has the battle");
    assert_eq!(active.viewer, Viewer::Player(Seat(0)));
    assert!(active.game.game() == &game.masked(Viewer::Player(Seat(0))));
    assert!(!active.curtain(), "no curtain: the table is Red's alone");
    assert!(!active.has_unsaved_work(), "the server keeps the record");
    let watched = watcher
        .world()
        .get_resource::<ActiveGame<Warpspawn>>()
        .expect("the watcher's table has the battle");
    assert_eq!(watched.viewer, Viewer::Public);
    assert!(watched.game.game() == &game.masked(Viewer::Public));
    // Red's table built from what Red may know: none of Blue's starting
    // counters in its setup.
    let grid = active.setup.setup.offboard.as_ref().expect("the grid");
    assert!(grid.counters.iter().all(|c| c.side == 0));

    // Red plays on its table, through the table's own flow: the command
    // goes to the server, and both tables follow what it sends back.
    let before = active.revision;
    let command: sandtable_warpspawn::Command = "split 1 cav 4".parse().expect("notation");
    red.world_mut()
        .write_message(<Warpspawn as sandtable::session::game::TableSystem>::bot_request(command));
    for _ in 0..3 {
        round(&mut server, &mut [&mut red, &mut watcher]);
    }
    let game = server.world().resource::<Hosted<Battle>>().game().clone();
    assert_eq!(server.world().resource::<Hosted<Battle>>().revision(), 1);
    let active = red.world().resource::<ActiveGame<Warpspawn>>();
    assert!(active.revision > before);
    assert!(active.game.game() == &game.masked(Viewer::Player(Seat(0))));
    assert!(
        active.log.iter().any(|l| l.text.contains("split 1 cav 4")),
        "Red's log: {:?}",
        active.log.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    let watched = watcher.world().resource::<ActiveGame<Warpspawn>>();
    assert!(watched.game.game() == &game.masked(Viewer::Public));
    assert!(!watched.log.iter().any(|l| l.text.contains("cav 4")));

    // What the server refuses is shown on the table that asked, with
    // the server's words; a watching table holds no seat to play.
    red.world_mut().write_message(Play {
        text: "fly to the moon".into(),
    });
    watcher
        .world_mut()
        .write_message(<Warpspawn as sandtable::session::game::TableSystem>::bot_request(command));
    for _ in 0..3 {
        round(&mut server, &mut [&mut red, &mut watcher]);
    }
    let notice = |t: &App| {
        t.world()
            .resource::<sandtable::session::Notice>()
            .text
            .clone()
            .unwrap_or_default()
    };
    assert!(
        notice(&red).contains("`fly to the moon` is not a command"),
        "{}",
        notice(&red)
    );
    assert!(
        notice(&watcher).contains("holds no seat"),
        "{}",
        notice(&watcher)
    );
    assert_eq!(server.world().resource::<Hosted<Battle>>().revision(), 1);

    // Undo on Red's table takes the command back on the server (R31).
    red.world_mut()
        .write_message(sandtable::session::UndoRequest);
    for _ in 0..3 {
        round(&mut server, &mut [&mut red, &mut watcher]);
    }
    let hosted = server.world().resource::<Hosted<Battle>>();
    assert_eq!(hosted.revision(), 2);
    let game = hosted.game().clone();
    let active = red.world().resource::<ActiveGame<Warpspawn>>();
    assert!(active.game.game() == &game.masked(Viewer::Player(Seat(0))));
    assert_eq!(
        game.state_hash(),
        flank_march().1.state_hash(),
        "back at the start"
    );
}
