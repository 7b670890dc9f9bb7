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

#[path = "../crates/net/tests/common/needles.rs"]
mod needles;

use needles::{Battle, SHORTEST, Secrets, found, pc};

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
    server_of(flank_march().1)
}

/// A server of `game`, a game of the flank march.
fn server_of(game: Battle) -> App {
    server_with(game, false)
}

/// A server of `game`, a game of the flank march, with renet's transport
/// (`udp`) or replicon's test exchange.
fn server_with(game: Battle, udp: bool) -> App {
    let battle = flank_march().0;
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
    if udp {
        server.add_plugins(bevy_replicon_renet::RepliconRenetPlugins);
    }
    protocol(&mut server);
    server
        .insert_resource(
            Hosted::new(game, vec!["red".into(), "blue".into()])
                .with_rules("warpspawn")
                .with_scenarios(seats, public)
                .with_whole_scenario(battle.to_ron())
                // As `sandtable-serve` names it, beside its own record.
                .with_headers(vec![(
                    "Scenario".to_owned(),
                    "../scenarios/warpspawn/flank-march.ron".to_owned(),
                )]),
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
    app.insert_resource(Remote::at(seat))
        // The records of served games kept apart, not in the data folder.
        .insert_resource(sandtable::session::remote::ServedFolder(
            std::env::temp_dir().join(format!(
                "sandtable-remote-{}-served-{seat:?}",
                std::process::id()
            )),
        ));
    app.finish();
    app
}

/// Red's and Blue's tables claim their seats with their codes.
fn claim_red_and_blue(red: &mut App, blue: &mut App) {
    for (t, seat, code) in [(red, 0, "red"), (blue, 1, "blue")] {
        t.world_mut().write_message(Claim::Seat {
            seat,
            code: code.into(),
        });
    }
}

/// What the table's notice says now.
fn notice(table: &App) -> String {
    table
        .world()
        .resource::<sandtable::session::Notice>()
        .text
        .clone()
        .unwrap_or_default()
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
    red.world_mut().write_message(Claim::Seat {
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

/// The flank march played to its end with scripted dice (R30), as the
/// server's tests play it: a fresh start, and the record's commands.
fn flank_march_to_the_end() -> (Battle, Vec<String>) {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/net/tests/data/flank-march-to-the-end.moves"),
    )
    .expect("the record");
    let dice = text
        .lines()
        .find_map(|l| l.strip_prefix("[Dice \"")?.strip_suffix("\"]"))
        .expect("a [Dice] header");
    let rolls = sandtable_core::dice::parse_rolls(dice).expect("rolls");
    let setup = flank_march().0.setup;
    let game = Battle::new(&setup, sandtable_core::dice::Dice::scripted(rolls)).expect("starts");
    let commands = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('['))
        .map(str::to_owned)
        .collect();
    (game, commands)
}

/// Everything a table holds of the game, as bytes: its game, its log, the
/// scenario it was built from and the setup it keeps.
///
/// In review, the game kept up to date, the one reviewed: the position
/// shown is a view the table was sent before, each checked against what
/// it was sent ([`red_looks_back`]); a view sent before may hold what the
/// seat saw then and does not see now (R57: a counter seen before it
/// marched off), which the seat remembers.
fn held(table: &mut App) -> Vec<u8> {
    let mut hay = Vec::new();
    {
        let active = table.world().resource::<ActiveGame<Warpspawn>>();
        let active = active.reviewing.as_deref().unwrap_or(active);
        hay.extend(sandtable_core::wire::write(active.game.game()));
        for line in &active.log {
            hay.extend(pc(&line.text));
        }
        hay.extend(pc(&active.setup.setup));
    }
    let mut texts = table.world_mut().query::<&sandtable_net::ScenarioText>();
    for text in texts.iter(table.world()) {
        hay.extend(text.0.as_bytes());
    }
    hay
}

/// The other side's secrets in the referee's `game` that `viewer` does
/// not know: not in its own masked copy.
fn unknown_to(game: &Battle, viewer: Viewer, side: usize) -> Vec<(&'static str, Vec<u8>)> {
    let known: std::collections::HashSet<Vec<u8>> =
        game.masked(viewer).items().into_iter().collect();
    game.secrets(side)
        .into_iter()
        .filter(|(_, s)| s.len() >= SHORTEST && !known.contains(s))
        .collect()
}

#[test]
fn r57_two_tables_play_the_flank_march_to_its_end_and_neither_holds_the_other_side_s_secrets() {
    let (start, commands) = flank_march_to_the_end();
    let mut server = server_of(start.clone());
    let (mut red, mut blue, mut watcher) = (table(Some(0)), table(Some(1)), table(None));
    for t in [&mut red, &mut blue, &mut watcher] {
        server.connect_client(t);
    }
    claim_red_and_blue(&mut red, &mut blue);
    for _ in 0..3 {
        round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    }
    // The search can fail: the referee's game holds Blue's secrets, and
    // the other side's would be found in it.
    let referee = sandtable_core::wire::write(&start);
    assert!(
        unknown_to(&start, Viewer::Player(Seat(0)), 1)
            .iter()
            .any(|(_, s)| found(&referee, s)),
        "the control: Blue's secrets are in the referee's game"
    );
    let mut local = start;
    let mut sealed_seen = 0;
    // Each game Red's table was shown, and whether Red's table looks back
    // at them while the battle goes on.
    let mut red_saw = vec![red_shows(&red)];
    let mut looking_back = None;
    let mut looked_back = 0;
    for line in &commands {
        let command: sandtable_warpspawn::Command = line.parse().expect("the notation");
        let seat =
            sandtable_core::game::next_seat(&local).expect("the record ends before the battle");
        // Red looks back while Blue decides alone, and stops when Red
        // decides again.
        let blue_alone = local.decision() == sandtable_core::game::Decision::One(Seat(1));
        if looking_back.is_none() && blue_alone && red_saw.len() > 12 {
            looking_back = Some(red_looks_back(&mut red, &red_saw));
            looked_back += 1;
        } else if let Some(at) = looking_back
            && !blue_alone
        {
            red_stops_looking_back(&mut red, at, &red_saw[at], &local);
            looking_back = None;
        }
        GameState::apply_into(&mut local, seat, &command, &mut Vec::new()).expect("legal");
        // Played on the seat's own table, through the table's flow.
        let who = if seat.0 == 0 { &mut red } else { &mut blue };
        who.world_mut().write_message(
            <Warpspawn as sandtable::session::game::TableSystem>::bot_request(command),
        );
        round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
        let hosted = server.world().resource::<Hosted<Battle>>();
        assert_eq!(hosted.refusals(), 0, "`{line}` was refused");
        let logs: Vec<Vec<String>> = [
            Viewer::Player(Seat(0)),
            Viewer::Player(Seat(1)),
            Viewer::Public,
        ]
        .into_iter()
        .map(|v| hosted.log_for(v))
        .collect();
        let sealed = matches!(local.decision(), sandtable_core::game::Decision::Sealed(_));
        for (t, viewer, log) in [
            (&mut red, Viewer::Player(Seat(0)), &logs[0]),
            (&mut blue, Viewer::Player(Seat(1)), &logs[1]),
            (&mut watcher, Viewer::Public, &logs[2]),
        ] {
            {
                // In review, the game the table keeps up to date is the
                // one reviewed.
                let active = t.world().resource::<ActiveGame<Warpspawn>>();
                let active = active.reviewing.as_deref().unwrap_or(active);
                assert!(
                    active.game.game() == &local.masked(viewer),
                    "`{line}`: {viewer:?}"
                );
                let lines: Vec<&String> = active.log.iter().map(|l| &l.text).collect();
                assert_eq!(
                    lines,
                    log.iter().collect::<Vec<_>>(),
                    "`{line}`: {viewer:?}'s log"
                );
            }
            // Nothing the table holds is a secret of a side the viewer
            // is not, as it stands now (R57).
            let hay = held(t);
            for side in 0..2 {
                if viewer == Viewer::Player(Seat(side as u16)) {
                    continue;
                }
                for (kind, secret) in unknown_to(&local, viewer, side) {
                    assert!(
                        !found(&hay, &secret),
                        "`{line}`: {viewer:?} holds side {side}'s {kind}"
                    );
                }
            }
        }
        if sealed {
            sealed_seen += 1;
        }
        red_saw.push(
            red.world()
                .resource::<ActiveGame<Warpspawn>>()
                .reviewing
                .as_deref()
                .map_or_else(|| red_shows(&red), |w| w.game.game().clone()),
        );
    }
    assert!(sealed_seen > 10, "sealed orders were played: {sealed_seen}");
    if let Some(at) = looking_back {
        red_stops_looking_back(&mut red, at, &red_saw[at], &local);
    }
    assert!(looked_back > 0, "Red looked back while the battle went on");
    assert!(matches!(
        local.decision(),
        sandtable_core::game::Decision::Over(_)
    ));
    for t in [&red, &blue, &watcher] {
        let active = t.world().resource::<ActiveGame<Warpspawn>>();
        assert!(
            matches!(
                active.game.game().decision(),
                sandtable_core::game::Decision::Over(_)
            ),
            "each table shows the end"
        );
    }
    // The record and the whole scenario came to every seat at the end:
    // each table keeps them, and its seat looks back at the game, as its
    // referee once asked.
    for t in [&red, &blue, &watcher] {
        let kept = t
            .world()
            .get_resource::<sandtable::session::remote::ServedRecord>()
            .expect("the record kept")
            .0
            .clone()
            .expect("written");
        let text = std::fs::read_to_string(&kept).expect("the record");
        assert!(text.starts_with("[Scenario \"flank-march.ron\"]"), "{text}");
        assert!(kept.with_extension("ron").exists());
    }
    red.world_mut()
        .write_message(sandtable::session::remote::NetworkRequest::ReviewRecord);
    red.update();
    red.update();
    assert!(
        red.world().get_resource::<Remote>().is_none(),
        "left the game"
    );
    let review = red
        .world()
        .get_resource::<sandtable::session::review::Review<Warpspawn>>()
        .unwrap_or_else(|| panic!("in review: {}", notice(&red)));
    assert!(review.over);
    assert_eq!(review.len(), commands.len());
    let whole = red
        .world()
        .resource::<ActiveGame<Warpspawn>>()
        .reviewing
        .clone()
        .expect("the game reviewed");
    let played: Vec<String> = whole.record.iter().map(ToString::to_string).collect();
    assert_eq!(played, commands);
    // The referee's game, rolls and all (the dice's own state apart).
    let mut end = whole.game.game().clone();
    end.set_dice(local.dice().clone());
    assert!(end == local, "the record replays to the served game");
    red.world_mut()
        .write_message(sandtable::session::review::ReviewRequest::Eyes(
            Viewer::Referee,
        ));
    red.update();
    assert_eq!(
        red.world().resource::<ActiveGame<Warpspawn>>().viewer,
        Viewer::Referee
    );
}

/// The game Red's table shows.
fn red_shows(red: &App) -> Battle {
    red.world()
        .resource::<ActiveGame<Warpspawn>>()
        .game
        .game()
        .clone()
}

/// Red's table looks back at the battle going on: each view it was sent
/// (`saw`), as it came, through Red's eyes alone; no new game from a
/// view. Returns the position it stays at.
fn red_looks_back(red: &mut App, saw: &[Battle]) -> usize {
    use sandtable::session::review::{Review, ReviewRequest};
    red.world_mut().write_message(ReviewRequest::Open);
    red.update();
    let review = red
        .world()
        .get_resource::<Review<Warpspawn>>()
        .unwrap_or_else(|| panic!("in review: {}", notice(red)));
    assert!(review.seen());
    assert_eq!(review.len() + 1, saw.len(), "a position a view");
    for k in (0..saw.len()).rev() {
        red.world_mut().write_message(ReviewRequest::To(k));
        red.update();
        let active = red.world().resource::<ActiveGame<Warpspawn>>();
        assert!(active.game.game() == &saw[k], "view {k} as it came");
        assert_eq!(active.viewer, Viewer::Player(Seat(0)));
    }
    for (asked, why) in [
        (ReviewRequest::Eyes(Viewer::Referee), "own eyes"),
        (ReviewRequest::Eyes(Viewer::Player(Seat(1))), "own eyes"),
        (
            ReviewRequest::PlayOn { keep_seed: true },
            "not the whole game",
        ),
    ] {
        red.world_mut().write_message(asked);
        red.update();
        assert!(notice(red).contains(why), "{asked:?}: {}", notice(red));
    }
    let at = saw.len() / 2;
    red.world_mut().write_message(ReviewRequest::To(at));
    red.update();
    at
}

/// Blue played on while Red looked back at position `at`: Red's table
/// still shows it, nothing Red asks is sent, and closed, the table shows
/// the battle as it stands now (`now`, masked for Red).
fn red_stops_looking_back(red: &mut App, at: usize, was: &Battle, now: &Battle) {
    use sandtable::session::review::ReviewRequest;
    let shown = red.world().resource::<ActiveGame<Warpspawn>>();
    assert!(shown.game.game() == was, "the position looked at stays");
    let before = shown.reviewing.as_ref().expect("in review").revision;
    red.world_mut()
        .write_message(sandtable::session::UndoRequest);
    red.update();
    assert!(notice(red).contains("in review"), "{}", notice(red));
    let shown = red.world().resource::<ActiveGame<Warpspawn>>();
    assert_eq!(shown.outbox.as_ref().map(Vec::len), Some(0), "nothing sent");
    assert_eq!(
        shown.reviewing.as_ref().expect("in review").revision,
        before
    );
    red.world_mut().write_message(ReviewRequest::Close);
    red.update();
    let active = red.world().resource::<ActiveGame<Warpspawn>>();
    assert!(active.reviewing.is_none());
    assert!(
        active.game.game() == &now.masked(Viewer::Player(Seat(0))),
        "closed at position {at}, the table shows the battle as it stands"
    );
}

/// How long a test over UDP may wait for the network.
const DEADLINE: std::time::Duration = std::time::Duration::from_secs(20);

/// Updates the apps until `done` holds, for at most [`DEADLINE`].
fn until(apps: &mut [&mut App], what: &str, mut done: impl FnMut(&mut [&mut App]) -> bool) {
    let start = std::time::Instant::now();
    while !done(apps) {
        assert!(
            start.elapsed() < DEADLINE,
            "{what}: not within {DEADLINE:?}"
        );
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// The private key of the tests' servers over UDP.
const KEY: [u8; 32] = [0x5a; 32];

/// The flank march's server listening on a free port of loopback, with
/// [`KEY`]: encrypted, as `sandtable-serve`'s.
fn udp_server() -> (App, std::net::SocketAddr) {
    let mut server = server_with(flank_march().1, true);
    let at = sandtable_net::udp::listen_with_key(
        &mut server,
        (std::net::Ipv4Addr::LOCALHOST, 0).into(),
        &[],
        KEY,
    )
    .expect("listens");
    (server, at)
}

/// A headless table joined over UDP as `seat` with an invitation
/// carrying `code`, minted with [`KEY`], as `sandtable --join` joins.
fn udp_table(server: std::net::SocketAddr, seat: u16, code: &str) -> App {
    let invitation = sandtable_net::invite::Minter::new(KEY, vec![server], "the flank march")
        .invite(
            sandtable_net::invite::Place::Seat(seat),
            code,
            sandtable_net::udp::since_epoch(),
        )
        .expect("minted");
    invited_table(&invitation)
}

/// A headless table joined over UDP with `invitation`.
fn invited_table(invitation: &sandtable_net::invite::Invitation) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    sandtable::session::remote::join(&mut app, invitation).expect("a socket");
    app.finish();
    app
}

fn connection_of(table: &App) -> sandtable::session::remote::Connection {
    table.world().resource::<Remote>().connection.clone()
}

fn shows_its_seat(table: &App, server: &App) -> bool {
    let game = server.world().resource::<Hosted<Battle>>().game().clone();
    table
        .world()
        .get_resource::<ActiveGame<Warpspawn>>()
        .is_some_and(|a| {
            a.viewer == Viewer::Player(Seat(0))
                && a.game.game() == &game.masked(Viewer::Player(Seat(0)))
        })
}

#[test]
fn a_table_whose_connection_drops_joins_again_by_itself_and_gets_its_seat_and_view_back() {
    use sandtable::session::remote::Connection;
    let (mut server, at) = udp_server();
    let mut red = udp_table(at, 0, "red");
    until(
        &mut [&mut server, &mut red],
        "Red's table shows Red's game",
        |a| shows_its_seat(a[1], a[0]),
    );
    assert_eq!(connection_of(&red), Connection::Connected);
    let play = |t: &mut App, text: &str| {
        let command: sandtable_warpspawn::Command = text.parse().expect("the notation");
        t.world_mut().write_message(
            <Warpspawn as sandtable::session::game::TableSystem>::bot_request(command),
        );
    };
    play(&mut red, "split 1 cav 4");
    until(&mut [&mut server, &mut red], "the command is played", |a| {
        a[0].world().resource::<Hosted<Battle>>().revision() == 1 && shows_its_seat(a[1], a[0])
    });
    // Who sits where, as the server says: Red held, Blue gone.
    let seats = red.world().resource::<Remote>().seats.clone();
    assert_eq!(seats.len(), 2);
    assert!(
        seats[0].held && !seats[1].held && !seats[1].bot,
        "{seats:?}"
    );

    // The server drops Red's connection: its table has a fresh token,
    // given over the encrypted channel, for its next connection.
    let first_id = red
        .world()
        .resource::<sandtable_net::udp::Joining>()
        .client_id();
    let fresh = match red.world().resource::<sandtable_net::udp::Joining>().pass() {
        sandtable_net::udp::Pass::Invited {
            renewal: Some(token),
            ..
        } => token.client_id,
        other => panic!("a fresh token, not {other:?}"),
    };
    assert_ne!(fresh, first_id);
    let ids = server
        .world()
        .resource::<bevy_replicon_renet::RenetServer>()
        .clients_id();
    assert_eq!(ids.len(), 1);
    server
        .world_mut()
        .resource_mut::<bevy_replicon_renet::RenetServer>()
        .disconnect(ids[0]);
    until(
        &mut [&mut server, &mut red],
        "Red's table sees the drop",
        |a| connection_of(a[1]) == Connection::Lost,
    );
    // While it is lost, nothing is sent, and the table says so.
    red.world_mut()
        .write_message(sandtable::session::UndoRequest);
    red.update();
    assert!(
        notice(&red).contains("not sent: the connection to the server dropped"),
        "{}",
        notice(&red)
    );
    // It joins again by itself, claims its seat with its code, and the
    // server's seat list has Red held again.
    until(
        &mut [&mut server, &mut red],
        "Red's table joins again",
        |a| {
            connection_of(a[1]) == Connection::Connected
                && a[1]
                    .world()
                    .resource::<Remote>()
                    .seats
                    .first()
                    .is_some_and(|s| s.held)
                && shows_its_seat(a[1], a[0])
        },
    );
    assert_eq!(
        red.world()
            .resource::<sandtable_net::udp::Joining>()
            .rejoined,
        1
    );
    // With the fresh token: the invitation's is bound to the address its
    // first connection came from, and its client id may still be held.
    assert_eq!(
        red.world()
            .resource::<sandtable_net::udp::Joining>()
            .client_id(),
        fresh
    );
    assert_eq!(
        server.world().resource::<Hosted<Battle>>().revision(),
        1,
        "the command made while lost was never sent"
    );
    // And plays on: its undo reaches the server (R31).
    red.world_mut()
        .write_message(sandtable::session::UndoRequest);
    until(
        &mut [&mut server, &mut red],
        "an undo after the rejoin",
        |a| a[0].world().resource::<Hosted<Battle>>().revision() == 2 && shows_its_seat(a[1], a[0]),
    );
}

/// A server of the scenario at `path` on a thread, as `sandtable --host`
/// runs it, writing its record to a file of its own: its address, the
/// seats' invitations, and the flag that stops it.
fn hosted_on_a_thread(
    path: &str,
) -> (
    std::net::SocketAddr,
    Vec<sandtable_net::invite::Invitation>,
    std::sync::Arc<std::sync::atomic::AtomicBool>,
    std::path::PathBuf,
) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let record = std::env::temp_dir().join(format!(
        "sandtable-remote-{}-{}.moves",
        std::process::id(),
        path.replace('/', "-")
    ));
    let _ = std::fs::remove_file(&record);
    let args = sandtable_serve::Args {
        scenario: root.join(path),
        port: 0,
        listen: std::net::Ipv4Addr::LOCALHOST.into(),
        public: Vec::new(),
        save: Some(record.clone()),
        bots: Vec::new(),
        turn_limit: None,
        invitations: None,
        max_unclaimed: sandtable_net::Limits::default().unclaimed,
        max_spectators: sandtable_net::Limits::default().spectators,
    };
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut prepared =
            sandtable_serve::prepare(&args, sandtable_serve::Logging::Shared).expect("serves");
        prepared
            .app
            .add_systems(Update, move |mut exit: MessageWriter<AppExit>| {
                if stopped.load(Ordering::Relaxed) {
                    exit.write(AppExit::Success);
                }
            });
        let invitations = prepared
            .seats
            .iter()
            .map(|s| s.invitation.clone().expect("a person's seat").0)
            .collect();
        tx.send((prepared.listening, invitations)).expect("told");
        prepared.app.run();
    });
    let (address, invitations) = rx.recv().expect("the server began");
    (address, invitations, stop, record)
}

/// Two tables join the server of `path` over UDP as its two seats, each
/// shows its seat's game of the system `S`, and `commands` random legal
/// commands are played, each on the table of the seat to move: each
/// reaches the other table.
fn plays_over_the_network<S: sandtable::session::game::TableSystem>(path: &str, commands: usize) {
    use rand::{Rng, SeedableRng};
    let (_, invitations, stop, record) = hosted_on_a_thread(path);
    let mut tables: Vec<App> = invitations.iter().map(invited_table).collect();
    let seated = |t: &App, k: u16| {
        t.world().resource::<Remote>().connection
            == sandtable::session::remote::Connection::Connected
            && t.world()
                .get_resource::<ActiveGame<S>>()
                .is_some_and(|a| a.viewer == Viewer::Player(Seat(k)))
    };
    until(
        &mut tables.iter_mut().collect::<Vec<_>>(),
        &format!("{path}: every seat seated"),
        |t| (0..t.len()).all(|k| seated(t[k], k as u16)),
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
    let mut played = 0;
    for n in 0..commands {
        let game = tables[0]
            .world()
            .resource::<ActiveGame<S>>()
            .game
            .game()
            .clone();
        let Some(seat) = sandtable_core::game::next_seat(&game) else {
            break;
        };
        let mover = usize::from(seat.0);
        let copy = tables[mover]
            .world()
            .resource::<ActiveGame<S>>()
            .game
            .game()
            .clone();
        let mut legal = Vec::new();
        copy.legal_into(seat, &mut legal);
        assert!(!legal.is_empty(), "{path}: {seat:?} has a legal command");
        let command = legal[rng.random_range(0..legal.len())].command;
        let before: Vec<u64> = tables
            .iter()
            .map(|t| t.world().resource::<ActiveGame<S>>().revision)
            .collect();
        tables[mover]
            .world_mut()
            .write_message(S::bot_request(command));
        until(
            &mut tables.iter_mut().collect::<Vec<_>>(),
            &format!("{path}: command {n}, `{command}`"),
            |t| (0..t.len()).all(|k| t[k].world().resource::<ActiveGame<S>>().revision > before[k]),
        );
        played += 1;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let text = std::fs::read_to_string(&record).expect("the referee's record");
    // The commands, and those of a sealed decision not revealed yet,
    // which the referee's record keeps in its `[Sealed]` header.
    let sealed = text
        .lines()
        .find_map(|l| l.strip_prefix("[Sealed \"")?.strip_suffix("\"]"))
        .map_or(0, |s| s.split(';').filter(|c| !c.trim().is_empty()).count());
    let recorded = sealed
        + text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('[') && !l.starts_with('#'))
            .count();
    assert!(played > 0, "{path}: commands were played");
    assert_eq!(
        recorded, played,
        "{path}: the referee's record holds each command: {text}"
    );
    let _ = std::fs::remove_file(&record);
    let _ = std::fs::remove_file(record.with_extension("moves.bak"));
}

#[test]
fn every_shipped_scenario_of_every_rule_system_plays_over_the_network_from_the_table() {
    use sandtable::cache::play::Cache;
    use sandtable::frontiers::table::Frontiers;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut systems = std::collections::BTreeSet::new();
    let mut served = 0;
    for folder in ["scenarios", "scenarios/warpspawn", "scenarios/frontiers"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(folder))
            .expect("the folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        for file in files {
            let path = format!(
                "{folder}/{}",
                file.file_name().expect("a name").to_string_lossy()
            );
            match sandtable_scenario::load_any(&file).expect("a shipped scenario loads") {
                sandtable_scenario::Loaded::Cache(_) => {
                    plays_over_the_network::<Cache>(&path, 4);
                    systems.insert("cache");
                }
                sandtable_scenario::Loaded::Warpspawn(b) => {
                    plays_over_the_network::<Warpspawn>(&path, 4);
                    systems.insert(if b.setup.offboard.is_some() {
                        "warpspawn with the grid"
                    } else {
                        "warpspawn"
                    });
                }
                sandtable_scenario::Loaded::Frontiers(_) => {
                    plays_over_the_network::<Frontiers>(&path, 4);
                    systems.insert("frontiers");
                }
            }
            served += 1;
        }
    }
    assert_eq!(
        systems.into_iter().collect::<Vec<_>>(),
        ["cache", "frontiers", "warpspawn", "warpspawn with the grid"]
    );
    assert!(served >= 19, "{served} scenarios");
}

/// A headless table with the network's side, as the app has it, on the
/// scenario at `path`.
fn networked_table(path: &str) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    sandtable::session::remote::network_plugins(&mut app);
    app.finish();
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let opened = app
        .world()
        .resource::<sandtable::session::open::Openers>()
        .open(&file, None)
        .expect("opens");
    opened.put_on_table(app.world_mut());
    app.update();
    app
}

#[test]
fn a_table_hosts_its_scenario_from_the_panel_another_joins_from_its_panel_and_both_leave() {
    use sandtable::cache::play::Cache;
    use sandtable::session::remote::{Connection, NetworkField, NetworkRequest};
    let seated = |t: &App, k: u16| {
        t.world()
            .get_resource::<Remote>()
            .is_some_and(|r| r.connection == Connection::Connected)
            && t.world()
                .get_resource::<ActiveGame<Cache>>()
                .is_some_and(|a| a.outbox.is_some() && a.viewer == Viewer::Player(Seat(k)))
    };
    let mut red = networked_table("scenarios/standard.ron");
    // Typed wrong, the panel's fields say why and nothing changes.
    red.world_mut().resource_mut::<NetworkField>().port = "fifty".into();
    red.world_mut().write_message(NetworkRequest::HostTyped);
    red.update();
    assert!(notice(&red).contains("not `fifty`"), "{}", notice(&red));
    assert!(red.world().get_resource::<Remote>().is_none());
    {
        let mut field = red.world_mut().resource_mut::<NetworkField>();
        field.port = "0".into();
        field.host_seat = "0".into();
    }
    red.world_mut().write_message(NetworkRequest::HostTyped);
    until(&mut [&mut red], "the host seated at its own server", |t| {
        seated(t[0], 0)
    });
    let hosting = red
        .world()
        .resource::<Remote>()
        .hosting
        .clone()
        .expect("hosting");
    assert!(hosting.local_only);
    assert_eq!(hosting.seats.len(), 2);
    let (blue_invitation, blue_file) = hosting.seats[1].2.clone().expect("Blue's invitation");
    assert_eq!(
        sandtable_net::invite::Invitation::read(&blue_file),
        Ok(blue_invitation.clone()),
        "the file holds the invitation the panel copies"
    );

    // Blue joins from its panel's field: a link cut short is refused with
    // why, and nothing changes; then the link the host's panel copies
    // for Blue.
    let mut blue = networked_table("scenarios/standard.ron");
    let link = blue_invitation.to_link();
    blue.world_mut().resource_mut::<NetworkField>().invitation = link[..link.len() / 2].into();
    blue.world_mut().write_message(NetworkRequest::JoinTyped);
    blue.update();
    assert!(
        notice(&blue).contains("cut short or changed"),
        "{}",
        notice(&blue)
    );
    assert!(blue.world().get_resource::<Remote>().is_none());
    blue.world_mut().resource_mut::<NetworkField>().invitation = link;
    blue.world_mut().write_message(NetworkRequest::JoinTyped);
    until(&mut [&mut red, &mut blue], "Blue seated", |t| {
        seated(t[1], 1)
            && t[0]
                .world()
                .resource::<Remote>()
                .seats
                .get(1)
                .is_some_and(|s| s.held)
    });
    // A joined table refuses to join again, and a served game is not
    // saved from the table.
    blue.world_mut().write_message(NetworkRequest::JoinTyped);
    blue.update();
    assert!(
        notice(&blue).contains("leave it first"),
        "{}",
        notice(&blue)
    );
    blue.world_mut()
        .write_message(sandtable::session::SaveRequest::own_file());
    blue.update();
    assert!(
        notice(&blue).contains("the server keeps its record"),
        "{}",
        notice(&blue)
    );

    // Blue leaves: its table has the built-in game again, and the host's
    // panel shows Blue's seat no longer held.
    blue.world_mut().write_message(NetworkRequest::Leave);
    until(&mut [&mut red, &mut blue], "Blue left", |t| {
        t[1].world().get_resource::<Remote>().is_none()
            && t[1]
                .world()
                .get_resource::<ActiveGame<Cache>>()
                .is_some_and(|a| a.outbox.is_none())
            && t[0]
                .world()
                .resource::<Remote>()
                .seats
                .get(1)
                .is_some_and(|s| !s.held)
    });
    // The host leaves: its server stops, and its record stays.
    red.world_mut().write_message(NetworkRequest::Leave);
    red.update();
    assert!(red.world().get_resource::<Remote>().is_none());
    assert!(
        notice(&red).contains("stopped its server"),
        "{}",
        notice(&red)
    );
    let record = std::fs::read_to_string(&hosting.record).expect("the record stays");
    assert!(record.contains("[Codes"), "{record}");
    let _ = std::fs::remove_file(&hosting.record);
    let _ = std::fs::remove_file(hosting.record.with_extension("moves.bak"));
}

#[test]
fn a_table_that_goes_silent_shows_as_gone_at_once_and_as_back_when_heard_from() {
    let (mut server, at) = udp_server();
    server.insert_resource(sandtable_net::udp::SilenceLimit(
        std::time::Duration::from_millis(400),
    ));
    let mut red = udp_table(at, 0, "red");
    let held = |server: &mut App| {
        let mut q = server.world_mut().query::<&sandtable_net::PublicView>();
        q.iter(server.world()).next().map(|v| v.seats[0].held)
    };
    until(&mut [&mut server, &mut red], "Red seated", |a| {
        shows_its_seat(a[1], a[0]) && held(a[0]) == Some(true)
    });
    // Red's table sends nothing (frozen, or its cable pulled): the server
    // shows its seat not held within the limit, long before netcode's
    // 15 s timeout would end the connection.
    let quiet = std::time::Instant::now();
    until(&mut [&mut server], "Red shown gone", |a| {
        held(a[0]) == Some(false)
    });
    assert!(quiet.elapsed() < std::time::Duration::from_secs(2));
    assert!(
        server.world().resource::<Hosted<Battle>>().revision() == 0,
        "nothing of the game changed"
    );
    // Heard from again, it holds its seat, and its table says so.
    until(&mut [&mut server, &mut red], "Red back", |a| {
        held(a[0]) == Some(true)
            && a[1]
                .world()
                .resource::<Remote>()
                .seats
                .first()
                .is_some_and(|s| s.held)
    });
}

#[test]
fn a_table_joining_a_game_of_another_system_holds_that_game_alone_and_leaving_brings_its_own_back()
{
    use sandtable::cache::play::Cache;
    use sandtable::session::remote::NetworkRequest;
    let (_, invitations, stop, record) = hosted_on_a_thread("scenarios/warpspawn/flank-march.ron");
    let mut table = networked_table("scenarios/standard.ron");
    assert!(table.world().get_resource::<ActiveGame<Cache>>().is_some());
    table.world_mut().write_message(NetworkRequest::Join {
        invitation: Box::new(invitations[0].clone()),
    });
    // From the join on, the table's own game is gone: nothing of it can
    // be played while the server's view is on its way.
    table.update();
    assert!(table.world().get_resource::<ActiveGame<Cache>>().is_none());
    // The table is empty meanwhile, so its waiting panel is drawn.
    assert!(matches!(
        table
            .world()
            .resource::<NextState<sandtable::session::open::OnTable>>(),
        NextState::Pending(sandtable::session::open::OnTable(None))
    ));
    until(&mut [&mut table], "Red's battle on the table", |t| {
        t[0].world()
            .get_resource::<ActiveGame<Warpspawn>>()
            .is_some_and(|a| a.viewer == Viewer::Player(Seat(0)))
    });
    assert!(table.world().get_resource::<ActiveGame<Cache>>().is_none());
    // A served game's layout is the server's: layout mode is refused.
    table
        .world_mut()
        .write_message(sandtable::mode::SetLayoutMode::ON);
    table.update();
    table.update();
    assert!(
        notice(&table).contains("this game is served"),
        "{}",
        notice(&table)
    );
    assert_eq!(
        *table
            .world()
            .resource::<State<sandtable::mode::Mode>>()
            .get(),
        sandtable::mode::Mode::Play
    );
    // Opening a file is refused too.
    table
        .world_mut()
        .write_message(sandtable::session::LoadRequest::new(
            "scenarios/standard.ron",
        ));
    table.update();
    assert!(
        notice(&table).contains("leave it first"),
        "{}",
        notice(&table)
    );
    assert!(table.world().get_resource::<ActiveGame<Cache>>().is_none());
    // Leaving: the served game is gone and the built-in table is back,
    // a game of the table's own.
    table.world_mut().write_message(NetworkRequest::Leave);
    table.update();
    table.update();
    assert!(
        table
            .world()
            .get_resource::<ActiveGame<Warpspawn>>()
            .is_none()
    );
    let own = table
        .world()
        .get_resource::<ActiveGame<Cache>>()
        .expect("the built-in table");
    assert!(own.outbox.is_none());
    assert!(table.world().get_resource::<Remote>().is_none());
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = std::fs::remove_file(&record);
    let _ = std::fs::remove_file(record.with_extension("moves.bak"));
}

#[test]
fn r47_both_tables_write_their_sealed_orders_at_once_each_for_its_own_side() {
    use sandtable::warpspawn::play::BattleChoices;
    use sandtable_warpspawn::Side;
    let mut server = server();
    let (mut red, mut blue) = (table(Some(0)), table(Some(1)));
    for t in [&mut red, &mut blue] {
        server.connect_client(t);
    }
    claim_red_and_blue(&mut red, &mut blue);
    for _ in 0..4 {
        round(&mut server, &mut [&mut red, &mut blue]);
    }
    // Both owe the ring's orders (R47): each table decides for its own
    // side, not for the first side owing.
    let game = server.world().resource::<Hosted<Battle>>().game().clone();
    assert!(matches!(
        game.decision(),
        sandtable_core::game::Decision::Sealed(_)
    ));
    assert_eq!(red.world().resource::<BattleChoices>().side, Some(Side(0)));
    assert_eq!(blue.world().resource::<BattleChoices>().side, Some(Side(1)));
    // Blue writes and commits first, through its table's flow, while Red
    // still owes.
    for text in ["order 1 hold", "order 2 hold", "commit"] {
        let command: sandtable_warpspawn::Command = text.parse().expect("the notation");
        blue.world_mut().write_message(
            <Warpspawn as sandtable::session::game::TableSystem>::bot_request(command),
        );
        round(&mut server, &mut [&mut red, &mut blue]);
        assert!(
            !notice(&blue).contains("decision"),
            "`{text}`: {}",
            notice(&blue)
        );
    }
    round(&mut server, &mut [&mut red, &mut blue]);
    assert_eq!(server.world().resource::<Hosted<Battle>>().revision(), 3);
    // Blue has committed: its table decides nothing now, Red's still does.
    assert_eq!(blue.world().resource::<BattleChoices>().side, None);
    assert_eq!(red.world().resource::<BattleChoices>().side, Some(Side(0)));
}

#[test]
fn a_table_whose_server_stops_says_so_within_3_s_and_shows_the_other_seats_unknown() {
    use bevy::time::TimeUpdateStrategy;
    use sandtable::session::remote::Connection;
    let (mut server, at) = udp_server();
    let mut red = udp_table(at, 0, "red");
    until(&mut [&mut server, &mut red], "Red seated", |a| {
        shows_its_seat(a[1], a[0]) && connection_of(a[1]) == Connection::Connected
    });
    let blue_words = |red: &App| {
        let remote = red.world().resource::<Remote>();
        let heard = remote.connection == Connection::Connected;
        sandtable::hud::seat_words(&remote.seats[1], false, false, heard).0
    };
    assert_eq!(blue_words(&red), "gone: the seat waits for its code");
    // The server stops, without a word (killed): its socket closes.
    drop(server);
    // Red's clock is stepped a quarter of a second an update: within 3 s
    // of it the table says the server is silent, long before netcode's
    // own 15 s timeout would end the connection.
    red.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(250),
    ));
    let mut stepped = std::time::Duration::ZERO;
    while connection_of(&red) != Connection::Silent {
        assert!(
            stepped <= std::time::Duration::from_secs(3),
            "still {:?} after {stepped:?}",
            connection_of(&red)
        );
        red.update();
        stepped += std::time::Duration::from_millis(250);
    }
    assert!(stepped >= sandtable_net::udp::SERVER_SILENCE, "{stepped:?}");
    // Meanwhile the other seat is unknown, and nothing is sent.
    assert_eq!(blue_words(&red), "unknown: no word from the server");
    red.world_mut()
        .write_message(sandtable::session::UndoRequest);
    red.update();
    assert!(
        notice(&red).contains("not sent: nothing heard from the server"),
        "{}",
        notice(&red)
    );
}
