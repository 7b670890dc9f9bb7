//! The server and its clients in one process (replicon's test apps, no
//! sockets): seats claimed with their codes, commands played as the
//! seat's, refusals to their sender alone, each seat's entity to its
//! client alone and the public one to everyone.

use std::path::Path;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon::test_app::ServerTestAppExt;
use sandtable_core::game::{Decision, GameState, Seat, Viewer};
use sandtable_core::wire::read;
use sandtable_net::{
    Claim, Hosted, Play, PublicView, Refused, SeatView, ServePlugin, Undo, protocol,
};

mod common;

use common::{Cache, cache_game};

/// An app with replicon, ticking each update, without the protocol.
fn bare_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
    ));
    app
}

fn app() -> App {
    let mut app = bare_app();
    protocol(&mut app);
    app
}

fn server<G: GameState + sandtable_core::wire::Wire>(game: G) -> App {
    let mut server = app();
    server
        .insert_resource(Hosted::new(
            game,
            vec!["red-7f3a".into(), "blue-91c2".into()],
        ))
        .add_plugins(ServePlugin::<G>::default());
    server.finish();
    server
}

/// [`server`], its spectators let in with the code `look-2345` alone.
fn guarded_server<G: GameState + sandtable_core::wire::Wire>(game: G) -> App {
    let mut server = app();
    server
        .insert_resource(
            Hosted::new(game, vec!["red-7f3a".into(), "blue-91c2".into()]).with_admission(
                sandtable_net::Watching::Code("look-2345".into()),
                sandtable_net::Limits::default(),
            ),
        )
        .add_plugins(ServePlugin::<G>::default());
    server.finish();
    server
}

fn client() -> App {
    let mut client = app();
    client.add_plugins(sandtable_net::ViewPlugin);
    client.finish();
    client
}

/// Every client's messages to the server, the server's update, and what
/// it sends back.
fn round(server: &mut App, clients: &mut [&mut App]) {
    for c in clients.iter_mut() {
        c.update();
        server.exchange_with_client(c);
    }
    server.update();
    for c in clients.iter_mut() {
        server.exchange_with_client(c);
        c.update();
    }
}

fn seat_views(client: &mut App) -> Vec<SeatView> {
    let mut q = client.world_mut().query::<&SeatView>();
    q.iter(client.world()).cloned().collect()
}

fn public_view(client: &mut App) -> Option<PublicView> {
    let mut q = client.world_mut().query::<&PublicView>();
    q.iter(client.world()).next().cloned()
}

fn refusals(client: &mut App) -> Vec<String> {
    client
        .world_mut()
        .resource_mut::<Messages<Refused>>()
        .drain()
        .map(|r| r.text)
        .collect()
}

/// A server of `game` with Red and Blue connected and seated.
fn seated<G: GameState + sandtable_core::wire::Wire>(game: G) -> (App, App, App) {
    let mut server = server(game);
    let (mut red, mut blue) = (client(), client());
    for c in [&mut red, &mut blue] {
        server.connect_client(c);
    }
    claim_seats(&mut red, &mut blue);
    round(&mut server, &mut [&mut red, &mut blue]);
    (server, red, blue)
}

/// Red claims seat 0 and Blue seat 1, each with its code.
fn claim_seats(red: &mut App, blue: &mut App) {
    for (c, seat, code) in [(red, 0, "red-7f3a"), (blue, 1, "blue-91c2")] {
        c.world_mut().write_message(Claim::Seat {
            seat,
            code: code.into(),
        });
    }
}

#[test]
fn each_seat_sees_its_own_entity_and_plays_as_its_seat() {
    let mut server = server(cache_game());
    let (mut red, mut blue, mut watcher) = (client(), client(), client());
    for c in [&mut red, &mut blue, &mut watcher] {
        server.connect_client(c);
    }
    round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    // Before a claim: the public entity only.
    for c in [&mut red, &mut blue, &mut watcher] {
        assert!(seat_views(c).is_empty());
        assert!(public_view(c).is_some());
    }
    claim_seats(&mut red, &mut blue);
    // The watcher tries Red's seat with a wrong code.
    watcher.world_mut().write_message(Claim::Seat {
        seat: 0,
        code: "red-0000".into(),
    });
    round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    let seats = |c: &mut App| {
        let mut seats: Vec<u16> = seat_views(c).iter().map(|v| v.seat).collect();
        seats.sort_unstable();
        seats
    };
    assert_eq!(seats(&mut red), [0]);
    assert_eq!(seats(&mut blue), [1]);
    assert!(seats(&mut watcher).is_empty());
    assert_eq!(refusals(&mut watcher), ["no seat 0 with that code"]);
    assert!(refusals(&mut red).is_empty());

    // Red plays its first legal command; Blue out of turn is refused.
    let first = seat_views(&mut red)[0].legal[0].clone();
    red.world_mut().write_message(Play {
        text: first.clone(),
    });
    blue.world_mut().write_message(Play {
        text: "pass".into(),
    });
    watcher.world_mut().write_message(Play { text: first });
    round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    let game = server.world().resource::<Hosted<Cache>>().game().clone();
    assert_eq!(refusals(&mut red), Vec::<String>::new());
    let blue_refused = refusals(&mut blue);
    assert_eq!(blue_refused.len(), 1, "{blue_refused:?}");
    assert_eq!(
        refusals(&mut watcher),
        ["claim a seat with its code before playing"]
    );
    // Each client's copy is the server's game masked for it, no dice.
    for (c, seat) in [(&mut red, 0u16), (&mut blue, 1)] {
        let view = &seat_views(c)[0];
        assert_eq!(view.revision, 1);
        let copy: Cache = read(&view.game).expect("a game");
        assert!(copy == game.masked(Viewer::Player(Seat(seat))));
        assert_eq!(copy.dice().left(), Some(0));
    }
    let public = public_view(&mut watcher).expect("the public view");
    assert_eq!(public.revision, 1);
    let copy: Cache = read(&public.game).expect("a game");
    assert!(copy == game.masked(Viewer::Public));

    // The control: Blue's view on an entity without the filter reaches
    // every client; with it, Blue's alone.
    let blue_view = seat_views(&mut blue)[0].clone();
    server.world_mut().spawn((Replicated, blue_view));
    round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    assert_eq!(seats(&mut red), [0, 1]);
    assert_eq!(seats(&mut watcher), [1]);
}

type Battle = sandtable_warpspawn::Game;

/// The flank march's setup, as its scenario file gives it.
fn flank_march_setup() -> sandtable_warpspawn::Setup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match sandtable_scenario::load_any(&root.join("scenarios/warpspawn/flank-march.ron"))
        .expect("the flank march")
    {
        sandtable_scenario::Loaded::Warpspawn(b) => b.setup,
        _ => panic!("a battle"),
    }
}

/// The flank march's start, a fresh game each call, and its shipped
/// record's text.
fn flank_march() -> (impl Fn() -> Battle, String) {
    let setup = flank_march_setup();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("crates/cli/tests/data/flank-march.moves"))
        .expect("the record");
    let start = move || {
        Battle::new(&setup, sandtable_core::dice::Dice::seeded(setup.seed)).expect("starts")
    };
    (start, text)
}

/// The flank march played to its end with scripted dice (R30), a fresh
/// start each call, and the record's text.
fn flank_march_to_the_end() -> (impl Fn() -> Battle, String) {
    let setup = flank_march_setup();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flank-march-to-the-end.moves"),
    )
    .expect("the record");
    let dice = text
        .lines()
        .find_map(|l| l.strip_prefix("[Dice \"")?.strip_suffix("\"]"))
        .expect("a [Dice] header");
    let rolls = sandtable_core::dice::parse_rolls(dice).expect("rolls");
    let start = move || {
        Battle::new(&setup, sandtable_core::dice::Dice::scripted(rolls.clone())).expect("starts")
    };
    (start, text)
}

#[test]
fn r57_two_clients_play_the_flank_march_to_its_end_through_the_server_each_holding_its_own_view() {
    let (start, text) = flank_march_to_the_end();
    let mut server = server(start());
    let (mut red, mut blue, mut watcher) = (client(), client(), client());
    for c in [&mut red, &mut blue, &mut watcher] {
        server.connect_client(c);
    }
    claim_seats(&mut red, &mut blue);
    round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    // The record played by its seats' clients, against a local replay.
    let mut local = start();
    let mut played = 0;
    let mut odds_seen = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        let command: sandtable_warpspawn::Command = line.parse().expect("the notation");
        let seat =
            sandtable_core::game::next_seat(&local).expect("the record ends before the battle");
        GameState::apply_into(&mut local, seat, &command, &mut Vec::new()).expect("legal");
        let who = if seat.0 == 0 { &mut red } else { &mut blue };
        who.world_mut().write_message(Play {
            text: line.to_owned(),
        });
        round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
        played += 1;
        for c in [&mut red, &mut blue] {
            assert!(refusals(c).is_empty(), "`{line}` was refused");
        }
        // Each seat holds its own view and no other: its copy is the
        // game masked for it, which reads its view alone (R57).
        for (c, s) in [(&mut red, 0u16), (&mut blue, 1)] {
            let views = seat_views(c);
            assert_eq!(views.len(), 1);
            assert_eq!((views[0].seat, views[0].revision), (s, played));
            let copy: Battle = read(&views[0].game).expect("a game");
            assert!(
                copy == local.masked(Viewer::Player(Seat(s))),
                "`{line}`, seat {s}"
            );
            // The seat's odds come from its copy: the same as the
            // referee's game gives the seat, for every legal command.
            for text in &views[0].legal {
                let command: sandtable_warpspawn::Command = text.parse().expect("the notation");
                let odds = copy.odds(Seat(s), &command);
                assert_eq!(odds, local.odds(Seat(s), &command), "`{text}`");
                odds_seen += usize::from(!odds.is_empty());
            }
        }
        assert!(seat_views(&mut watcher).is_empty());
        let public: Battle =
            read(&public_view(&mut watcher).expect("public").game).expect("a game");
        assert!(public == local.masked(Viewer::Public), "`{line}`");
    }
    let hosted = server.world().resource::<Hosted<Battle>>();
    assert_eq!(hosted.game().state_hash(), local.state_hash());
    assert_eq!(hosted.refusals(), 0);
    assert!(played > 200, "the record is played: {played} commands");
    assert!(odds_seen > 0, "some command had odds");
    // The battle is over, and everyone gets its record: the commands as
    // the file has them, and the rolls it used.
    assert!(matches!(hosted.game().decision(), Decision::Over(_)));
    let record = public_view(&mut watcher)
        .and_then(|p| p.record)
        .expect("the record at the end");
    let commands = |t: &str| -> Vec<String> {
        t.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('['))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(commands(&record), commands(&text));
    let dice = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("[Dice "))
            .map(str::to_owned)
    };
    assert_eq!(dice(&record), dice(&text));
}

#[test]
fn r31_a_seat_takes_back_its_own_last_command_and_no_other() {
    let start = cache_game();
    let (mut server, mut red, mut blue) = seated(start.clone());
    let first = seat_views(&mut red)[0].legal[0].clone();
    red.world_mut().write_message(Play {
        text: first.clone(),
    });
    round(&mut server, &mut [&mut red, &mut blue]);
    // Blue may not take back Red's command.
    blue.world_mut().write_message(Undo);
    round(&mut server, &mut [&mut red, &mut blue]);
    assert_eq!(
        refusals(&mut blue),
        ["another seat has played since your last command"]
    );
    red.world_mut().write_message(Undo);
    round(&mut server, &mut [&mut red, &mut blue]);
    assert!(refusals(&mut red).is_empty());
    let hosted = server.world().resource::<Hosted<Cache>>();
    assert_eq!(hosted.game().state_hash(), start.state_hash());
    for c in [&mut red, &mut blue] {
        let view = &seat_views(c)[0];
        assert_eq!(view.revision, 2);
        let logs = c.world().resource::<sandtable_net::Logs>();
        assert_eq!(
            logs.seat,
            [format!("undo {first}")],
            "the line taken back is gone"
        );
        assert_eq!(logs.public, logs.seat);
        let copy: Cache = read(&view.game).expect("a game");
        assert!(copy == start.masked(Viewer::Player(Seat(view.seat))));
    }
    // Nothing left to take back: the system's words say why.
    red.world_mut().write_message(Undo);
    round(&mut server, &mut [&mut red, &mut blue]);
    let why = refusals(&mut red);
    assert_eq!(why.len(), 1);
    assert_eq!(why[0], start.undo_stop(None));
}

#[test]
fn another_build_has_another_protocol() {
    let hash = |engine: &str| {
        let mut app = bare_app();
        sandtable_net::protocol_of(&mut app, engine);
        app.finish();
        *app.world().resource::<ProtocolHash>()
    };
    assert_eq!(
        hash(sandtable_core::record::ENGINE),
        hash(sandtable_core::record::ENGINE)
    );
    assert_ne!(
        hash(sandtable_core::record::ENGINE),
        hash("sandtable 0.0.0")
    );
}

#[test]
fn sealed_orders_come_in_any_interleaving_and_are_recorded_in_seat_order() {
    let (start, text) = flank_march();
    // The record in seat order, each line with its seat and whether it
    // belongs to a sealed decision; `reveals` marks the line after which
    // its decision is revealed.
    let mut local = start();
    let mut lines: Vec<(Seat, String, bool)> = Vec::new();
    let mut reveals: Vec<bool> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        let command: sandtable_warpspawn::Command = line.parse().expect("the notation");
        let seat = sandtable_core::game::next_seat(&local).expect("a seat to play");
        let before = match local.decision() {
            Decision::Sealed(seats) => Some(seats),
            _ => None,
        };
        GameState::apply_into(&mut local, seat, &command, &mut Vec::new()).expect("legal");
        // A sealed decision goes on while the seats that owe it dwindle.
        let going_on = match (before, local.decision()) {
            (Some(b), Decision::Sealed(a)) => a.0 & !b.0 == 0,
            _ => false,
        };
        let sealed = before.is_some();
        reveals.push(!going_on);
        lines.push((seat, line.to_owned(), sealed));
    }
    // Sent with each sealed decision's second seat first.
    let mut sent: Vec<(Seat, String)> = Vec::new();
    let mut k = 0;
    let mut reordered = 0;
    while k < lines.len() {
        if !lines[k].2 {
            sent.push((lines[k].0, lines[k].1.clone()));
            k += 1;
            continue;
        }
        // One sealed decision: up to the line that reveals it.
        let end = (k..lines.len())
            .find(|&j| reveals[j])
            .map_or(lines.len(), |j| j + 1);
        let run = &lines[k..end];
        let (blue, red): (Vec<_>, Vec<_>) = run.iter().partition(|l| l.0 == Seat(1));
        reordered += usize::from(!blue.is_empty() && !red.is_empty());
        sent.extend(blue.iter().chain(red.iter()).map(|l| (l.0, l.1.clone())));
        k = end;
    }
    assert!(
        reordered > 0,
        "the control: some sealed decision was sent out of seat order"
    );
    let mut server = server(start());
    let (mut red, mut blue) = (client(), client());
    for c in [&mut red, &mut blue] {
        server.connect_client(c);
    }
    claim_seats(&mut red, &mut blue);
    round(&mut server, &mut [&mut red, &mut blue]);
    for (seat, line) in &sent {
        let who = if seat.0 == 0 { &mut red } else { &mut blue };
        who.world_mut().write_message(Play { text: line.clone() });
        round(&mut server, &mut [&mut red, &mut blue]);
        for c in [&mut red, &mut blue] {
            let why = refusals(c);
            assert!(why.is_empty(), "`{line}` was refused: {why:?}");
        }
    }
    let hosted = server.world().resource::<Hosted<Battle>>();
    assert_eq!(hosted.game().state_hash(), local.state_hash());
    let record: Vec<(Seat, String)> = hosted
        .record()
        .iter()
        .map(|(s, c)| (*s, c.to_string()))
        .collect();
    // Every line but those of a sealed decision still unrevealed at the
    // record's end, which the server keeps sealed.
    let kept = (0..lines.len())
        .rev()
        .find(|&j| !lines[j].2 || reveals[j])
        .map_or(0, |j| j + 1);
    assert!(kept < lines.len(), "the record ends inside sealed orders");
    let in_seat_order: Vec<(Seat, String)> = lines[..kept]
        .iter()
        .map(|(s, l, _)| (*s, l.clone()))
        .collect();
    assert_eq!(record, in_seat_order);
}

#[test]
fn refusals_are_logged_once_a_minute_when_there_were_any() {
    use bevy::time::TimeUpdateStrategy;
    use sandtable_net::RefusalsLogged;
    let mut server = server(cache_game());
    server.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs(25),
    ));
    let mut stranger = client();
    server.connect_client(&mut stranger);
    for _ in 0..3 {
        stranger.world_mut().write_message(Claim::Seat {
            seat: 1,
            code: "guess".into(),
        });
    }
    round(&mut server, &mut [&mut stranger]);
    assert_eq!(refusals(&mut stranger).len(), 3);
    let logged = |server: &App| *server.world().resource::<RefusalsLogged>();
    // Not yet a minute since the last count: nothing logged.
    assert_eq!(logged(&server).lines, 0);
    for _ in 0..3 {
        server.update();
    }
    assert_eq!((logged(&server).lines, logged(&server).total), (1, 3));
    // Nothing refused since: no more lines.
    for _ in 0..6 {
        server.update();
    }
    assert_eq!(logged(&server).lines, 1);
}

#[test]
fn a_seat_moves_to_its_newest_claim_and_a_client_that_leaves_sees_it_no_more() {
    let mut server = server(cache_game());
    let (mut red, mut again, mut blue) = (client(), client(), client());
    for c in [&mut red, &mut again, &mut blue] {
        server.connect_client(c);
    }
    claim_seats(&mut red, &mut blue);
    round(&mut server, &mut [&mut red, &mut again, &mut blue]);
    assert_eq!(seat_views(&mut red).len(), 1);
    // Red's player comes back on a new connection, the old one still up.
    again.world_mut().write_message(Claim::Seat {
        seat: 0,
        code: "red-7f3a".into(),
    });
    round(&mut server, &mut [&mut red, &mut again, &mut blue]);
    assert!(
        seat_views(&mut red).is_empty(),
        "the old connection lost it"
    );
    assert_eq!(seat_views(&mut again).len(), 1);
    let logs = |c: &App| c.world().resource::<sandtable_net::Logs>().seat.clone();
    assert!(
        logs(&red).is_empty(),
        "and its seat's log: {:?}",
        logs(&red)
    );
    let first = seat_views(&mut again)[0].legal[0].clone();
    red.world_mut().write_message(Play {
        text: first.clone(),
    });
    round(&mut server, &mut [&mut red, &mut again, &mut blue]);
    assert_eq!(
        refusals(&mut red),
        ["claim a seat with its code before playing"]
    );
    // Blue leaves: its view is gone, and the seat waits for its code.
    // Red plays from its new connection; Blue reads it.
    again.world_mut().write_message(Play { text: first });
    round(&mut server, &mut [&mut red, &mut again, &mut blue]);
    let blue_log = logs(&blue);
    assert!(!blue_log.is_empty(), "Blue reads Red's first command");
    blue.world_mut().write_message(Claim::Leave);
    round(&mut server, &mut [&mut red, &mut again, &mut blue]);
    assert!(seat_views(&mut blue).is_empty());
    assert!(logs(&blue).is_empty(), "its log went with it");
    // Two claims of one seat in one update: the later holds it alone.
    let (mut one, mut two) = (client(), client());
    for c in [&mut one, &mut two] {
        server.connect_client(c);
        c.world_mut().write_message(Claim::Seat {
            seat: 1,
            code: "blue-91c2".into(),
        });
    }
    round(&mut server, &mut [&mut one, &mut two, &mut blue]);
    assert!(seat_views(&mut one).is_empty(), "the earlier claim lost it");
    assert_eq!(seat_views(&mut two).len(), 1);
    assert_eq!(logs(&two), blue_log);
    assert!(logs(&one).is_empty());
}

/// Two seated clients play `game` to its end with random legal commands;
/// after every command each client's copy is the server's game without
/// its dice (a system that hides nothing hides only the dice). The
/// commands played.
fn play_to_the_end_without_secrets<G: GameState + sandtable_core::wire::Wire + PartialEq>(
    game: G,
) -> u32 {
    use rand::{Rng, SeedableRng};
    let (mut server, mut red, mut blue) = seated(game);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..5000 {
        for c in [&mut red, &mut blue] {
            let view = seat_views(c)[0].clone();
            if !view.legal.is_empty() {
                let text = view.legal[rng.random_range(0..view.legal.len())].clone();
                c.world_mut().write_message(Play { text });
            }
        }
        round(&mut server, &mut [&mut red, &mut blue]);
        let hosted = server.world().resource::<Hosted<G>>();
        // The game without its dice (and their seed), as the referee's
        // copy is: every seat's copy is that.
        let bare = hosted.game().masked(Viewer::Referee);
        for c in [&mut red, &mut blue] {
            let view = &seat_views(c)[0];
            assert_eq!(view.revision, hosted.revision());
            let copy: G = read(&view.game).expect("a game");
            assert!(
                copy == bare,
                "seat {}: its copy is the game without dice",
                view.seat
            );
        }
        if matches!(hosted.game().decision(), Decision::Over(_)) {
            let public = public_view(&mut red).expect("the public view");
            assert!(
                public.record.is_some(),
                "the record goes to everyone at the end"
            );
            // Its record, seed and all, went to everyone: the seat that
            // played last may not take it back and play on.
            let (revision, last) = (hosted.revision(), hosted.record().last().expect("played").0);
            let who = if last == Seat(0) { &mut red } else { &mut blue };
            who.world_mut().write_message(Undo);
            round(&mut server, &mut [&mut red, &mut blue]);
            let who = if last == Seat(0) { &mut red } else { &mut blue };
            assert_eq!(refusals(who), ["the game is over: nothing is taken back"]);
            assert_eq!(server.world().resource::<Hosted<G>>().revision(), revision);
            return revision;
        }
        assert!(public_view(&mut red).is_some_and(|p| p.record.is_none()));
    }
    panic!("the game did not end");
}

#[test]
fn a_cache_game_and_a_plain_battle_play_to_the_end_each_copy_the_game_without_its_dice() {
    // Short games, so that random play ends: a turn limit (R11), two
    // game turns (R64).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cache = match sandtable_scenario::load_any(&root.join("scenarios/standard.ron"))
        .expect("the standard table")
    {
        sandtable_scenario::Loaded::Cache(s) => s.setup,
        _ => panic!("a Cache scenario"),
    };
    cache.turn_limit = Some(6);
    let game = Cache::with_dice(&cache, sandtable_core::dice::Dice::seeded(3)).expect("starts");
    assert!(play_to_the_end_without_secrets(game) > 10);
    let mut battle =
        match sandtable_scenario::load_any(&root.join("scenarios/warpspawn/open-field.ron"))
            .expect("the open field")
        {
            sandtable_scenario::Loaded::Warpspawn(b) => b.setup,
            _ => panic!("a battle"),
        };
    battle.turns = 2;
    let game = Battle::new(&battle, sandtable_core::dice::Dice::seeded(3)).expect("starts");
    assert!(play_to_the_end_without_secrets(game) > 10);
}

#[test]
fn everyone_sees_who_holds_each_seat_and_who_owes_a_sealed_decision_never_what_was_decided() {
    use sandtable_net::{Owing, SeatStatus};
    let (start, text) = flank_march();
    let mut server = app();
    server
        .insert_resource(
            Hosted::new(start(), vec!["red-7f3a".into(), "blue-91c2".into()])
                .with_rules("warpspawn"),
        )
        .add_plugins(ServePlugin::<Battle>::default());
    server.finish();
    let (mut red, mut blue, mut watcher) = (client(), client(), client());
    for c in [&mut red, &mut blue, &mut watcher] {
        server.connect_client(c);
    }
    round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    let seats = |c: &mut App| -> Vec<SeatStatus> { public_view(c).expect("the public view").seats };
    let view = public_view(&mut watcher).expect("the public view");
    assert_eq!(view.rules, "warpspawn");
    let status = |s: &[SeatStatus]| -> Vec<(String, bool, Owing)> {
        s.iter()
            .map(|x| (x.name.clone(), x.held, x.owing))
            .collect()
    };
    // Nobody seated yet; both owe the sealed orders (R47).
    assert_eq!(
        status(&seats(&mut watcher)),
        [
            ("Red".to_owned(), false, Owing::Decision),
            ("Blue".to_owned(), false, Owing::Decision)
        ]
    );
    claim_seats(&mut red, &mut blue);
    round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
    assert!(seats(&mut watcher).iter().all(|s| s.held && !s.bot));
    // Red writes and commits its orders: Red has committed, Blue owes.
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('['))
        .collect();
    let red_part = lines
        .iter()
        .position(|l| *l == "commit")
        .expect("Red commits")
        + 1;
    for line in &lines[..red_part] {
        red.world_mut().write_message(Play {
            text: (*line).to_owned(),
        });
        round(&mut server, &mut [&mut red, &mut blue, &mut watcher]);
        assert!(refusals(&mut red).is_empty(), "`{line}`");
    }
    let owing: Vec<Owing> = seats(&mut watcher).iter().map(|s| s.owing).collect();
    assert_eq!(owing, [Owing::Committed, Owing::Decision]);
    // What Red ordered is in nobody's public view but its own log.
    let logs = blue.world().resource::<sandtable_net::Logs>().clone();
    // The logs a client put together from the lines it was sent are the
    // server's, as the seat and the public may read them.
    let hosted = server.world().resource::<Hosted<Battle>>();
    assert_eq!(logs.seat, hosted.log_for(Viewer::Player(Seat(1))));
    assert_eq!(logs.public, hosted.log_for(Viewer::Public));
    let red_logs = red.world().resource::<sandtable_net::Logs>();
    assert_eq!(red_logs.seat, hosted.log_for(Viewer::Player(Seat(0))));
    assert!(
        red_logs.seat.len() > logs.seat.len(),
        "Red reads its sealed orders, Blue does not"
    );
    for log in [&logs.public, &logs.seat] {
        assert!(!log.iter().any(|l| l.contains("2S 3S")), "{log:?}");
    }
    let red_log = &red.world().resource::<sandtable_net::Logs>().seat;
    assert!(red_log.iter().any(|l| l.contains("2S 3S")), "{red_log:?}");
    // Blue drops: its seat is no longer held, and waits for its code.
    server.disconnect_client(&mut blue);
    round(&mut server, &mut [&mut red, &mut watcher]);
    let held: Vec<bool> = seats(&mut watcher).iter().map(|s| s.held).collect();
    assert_eq!(held, [true, false]);
}

#[test]
fn r31_two_commands_taken_back_leave_both_undo_lines() {
    let start = cache_game();
    let (mut server, mut red, mut blue) = seated(start.clone());
    // Red activates a unit and moves it: two commands of one turn.
    let mut played = Vec::new();
    for _ in 0..2 {
        let text = seat_views(&mut red)[0].legal[0].clone();
        red.world_mut().write_message(Play { text: text.clone() });
        round(&mut server, &mut [&mut red, &mut blue]);
        assert!(refusals(&mut red).is_empty(), "`{text}`");
        played.push(text);
    }
    let hosted = server.world().resource::<Hosted<Cache>>();
    assert_eq!(
        hosted.record().iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        [Seat(0), Seat(0)],
        "both Red's"
    );
    for _ in 0..2 {
        red.world_mut().write_message(Undo);
        round(&mut server, &mut [&mut red, &mut blue]);
        assert!(refusals(&mut red).is_empty());
    }
    let hosted = server.world().resource::<Hosted<Cache>>();
    assert_eq!(hosted.game().state_hash(), start.state_hash());
    let log = &red.world().resource::<sandtable_net::Logs>().seat;
    assert_eq!(
        log,
        &[format!("undo {}", played[1]), format!("undo {}", played[0])]
    );
}

#[test]
fn a_leave_then_a_claim_in_one_update_leaves_the_client_seated_and_the_reverse_unseated() {
    let (mut server, mut red, mut blue) = seated(cache_game());
    assert_eq!(seat_views(&mut red).len(), 1);
    // Red gives up its seat and claims it again before the server's next
    // update: what it asked last holds.
    red.world_mut().write_message(Claim::Leave);
    red.world_mut().write_message(Claim::Seat {
        seat: 0,
        code: "red-7f3a".into(),
    });
    round(&mut server, &mut [&mut red, &mut blue]);
    round(&mut server, &mut [&mut red, &mut blue]);
    assert_eq!(
        seat_views(&mut red)
            .iter()
            .map(|v| v.seat)
            .collect::<Vec<_>>(),
        [0],
        "seated after Leave, Claim"
    );
    let logs = |c: &App| c.world().resource::<sandtable_net::Logs>().seat.clone();
    let first = seat_views(&mut red)[0].legal[0].clone();
    red.world_mut().write_message(Play { text: first });
    round(&mut server, &mut [&mut red, &mut blue]);
    assert!(refusals(&mut red).is_empty(), "it plays as Red");
    assert!(!logs(&red).is_empty(), "and reads Red's log");
    // The other way round: a claim, then leave, leaves it without a seat.
    blue.world_mut().write_message(Claim::Seat {
        seat: 1,
        code: "blue-91c2".into(),
    });
    blue.world_mut().write_message(Claim::Leave);
    round(&mut server, &mut [&mut red, &mut blue]);
    round(&mut server, &mut [&mut red, &mut blue]);
    assert!(
        seat_views(&mut blue).is_empty(),
        "unseated after Claim, Leave"
    );
    assert!(logs(&blue).is_empty());
}

#[test]
fn a_connection_that_claims_no_place_is_dropped_once_its_time_is_up_and_told_why() {
    use bevy::time::TimeUpdateStrategy;
    let mut server = guarded_server(cache_game());
    server.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(500),
    ));
    let (mut stranger, mut red) = (client(), client());
    for c in [&mut stranger, &mut red] {
        server.connect_client(c);
    }
    red.world_mut().write_message(Claim::Seat {
        seat: 0,
        code: "red-7f3a".into(),
    });
    // Watching takes the spectator code here: without it, nothing.
    stranger.world_mut().write_message(Claim::Watch {
        code: "guess".into(),
    });
    round(&mut server, &mut [&mut stranger, &mut red]);
    assert_eq!(refusals(&mut stranger), ["that is not the spectator code"]);
    assert!(public_view(&mut stranger).is_none(), "it sees nothing");
    assert!(public_view(&mut red).is_some());
    // The backend (renet's) disconnects what the server asks it to.
    let entity = **stranger
        .world()
        .resource::<bevy_replicon::test_app::TestClientEntity>();
    let asked = |server: &mut App| {
        server
            .world_mut()
            .resource_mut::<Messages<DisconnectRequest>>()
            .drain()
            .map(|r| r.client)
            .collect::<Vec<_>>()
    };
    let mut rounds = 0;
    loop {
        round(&mut server, &mut [&mut stranger, &mut red]);
        rounds += 1;
        let dropped = asked(&mut server);
        if !dropped.is_empty() {
            assert_eq!(dropped, [entity], "the stranger alone");
            break;
        }
        assert!(rounds < 30, "the stranger is dropped");
    }
    let turned: Vec<String> = stranger
        .world_mut()
        .resource_mut::<Messages<sandtable_net::TurnedAway>>()
        .drain()
        .map(|t| t.text)
        .collect();
    assert_eq!(turned, ["no seat or spectator's place claimed within 5 s"]);
    // Dropped after 5 s (10 rounds of 500 ms), the seat kept.
    assert!(rounds >= 8, "not before its time: {rounds} rounds");
    assert_eq!(seat_views(&mut red).len(), 1);
}
