//! `sandtable-serve` run as a host runs it: headless clients join it over
//! UDP on loopback, claim their seats with the printed codes and play
//! games to their end; a killed server resumes from its record; garbage
//! leaves it serving.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use sandtable_core::game::GameState;
use sandtable_core::wire::read;

mod common;

use common::{client, public_view, seat, seat_view, serve, until};

/// A whole game through the server, a few seconds at most here.
const GAME_DEADLINE: Duration = Duration::from_secs(120);

/// The network's part of a test that must end within 10 s.
const DEADLINE: Duration = Duration::from_secs(10);

/// Plays a game of `scenario` to its end with two headless clients, each
/// giving random legal commands; the record each client got at the end,
/// and the file the server wrote.
fn play_to_the_end<G: GameState + sandtable_core::wire::Wire>(
    scenario: &str,
    seed: u64,
) -> (String, String, Vec<String>) {
    let folder = tempfile_folder(&format!("play-{seed}"));
    let save = folder.join("game.moves");
    let server = serve(scenario, &["--save", save.to_str().expect("utf-8")]);
    let (mut red, mut blue) = (client(&server, 0), client(&server, 1));
    seat(&server, &mut [&mut red, &mut blue], DEADLINE);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut sent = [None, None];
    let mut commands = 0;
    until(
        &mut [&mut red, &mut blue],
        GAME_DEADLINE,
        &format!("{scenario} ends"),
        |cs| {
            if common::play_legal(cs, &mut sent, &mut rng) {
                commands += 1;
            }
            cs.iter_mut()
                .all(|c| public_view(c).is_some_and(|v| v.record.is_some()))
        },
    );
    // Each client's copy of the end is a finished game, and the public
    // record is the file's less its codes.
    for c in [&mut red, &mut blue] {
        let view = seat_view(c).expect("a view");
        let game: G = read(&view.game).expect("a game");
        assert!(
            matches!(game.decision(), sandtable_core::game::Decision::Over(_)),
            "{scenario}: over"
        );
    }
    let record = public_view(&mut red)
        .and_then(|v| v.record)
        .expect("the record");
    assert_eq!(
        public_view(&mut blue).and_then(|v| v.record).as_ref(),
        Some(&record)
    );
    assert!(commands > 10, "{scenario}: {commands} commands");
    // The file is written after the command; wait for it to hold the end.
    let mut file = String::new();
    until(&mut [&mut red], DEADLINE, "the record is written", |_| {
        file = std::fs::read_to_string(&save).unwrap_or_default();
        file.lines().filter(|l| !l.starts_with('[')).count()
            == record.lines().filter(|l| !l.starts_with('[')).count()
    });
    let codes: Vec<String> = server.codes.iter().flatten().cloned().collect();
    (record, file, codes)
}

/// A folder of this test's own under the target directory, made empty.
fn tempfile_folder(name: &str) -> std::path::PathBuf {
    let folder = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a folder");
    folder
}

fn check_record(record: &str, file: &str, codes: &[String]) {
    for code in codes {
        assert!(file.contains(code.as_str()), "the file keeps the codes");
        assert!(
            !record.contains(code.as_str()),
            "the players' record has no code"
        );
    }
    assert!(record.contains("[Seed "), "{record}");
    assert!(record.contains("[Seats \"person, person\"]"), "{record}");
    assert!(
        file.contains("[WatchCode "),
        "the file keeps the spectator code"
    );
    assert!(
        !record.contains("WatchCode"),
        "the players' record has none"
    );
    assert!(
        file.contains("[ServerKey "),
        "the file keeps the server's key"
    );
    assert!(
        !record.contains("ServerKey"),
        "the players' record has none"
    );
    let without_codes: String = file
        .lines()
        .filter(|l| {
            !l.starts_with("[Codes ")
                && !l.starts_with("[WatchCode ")
                && !l.starts_with("[ServerKey ")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(without_codes, record);
}

#[test]
fn headless_clients_play_the_flank_march_to_its_end_through_the_server() {
    let (record, file, codes) =
        play_to_the_end::<sandtable_warpspawn::Game>("scenarios/warpspawn/flank-march.ron", 46);
    check_record(&record, &file, &codes);
}

#[test]
fn headless_clients_play_a_frontiers_skirmish_to_its_end_through_the_server() {
    let (record, file, codes) =
        play_to_the_end::<sandtable_frontiers::Game>("scenarios/frontiers/confrontation.ron", 47);
    check_record(&record, &file, &codes);
}

#[test]
fn a_killed_server_resumes_from_its_record_and_the_game_goes_on() {
    let folder = tempfile_folder("resume");
    let save = folder.join("game.moves");
    let save_arg = save.to_str().expect("utf-8").to_owned();
    let mut server = serve("scenarios/standard.ron", &["--save", &save_arg]);
    let (mut red, mut blue) = (client(&server, 0), client(&server, 1));
    seat(&server, &mut [&mut red, &mut blue], DEADLINE);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..6 {
        play_one(&mut [&mut red, &mut blue], &mut rng);
    }
    let before: Vec<_> = [&mut red, &mut blue]
        .into_iter()
        .map(|c| seat_view(c).expect("a view"))
        .collect();
    assert_eq!(before[0].revision, 6);
    let codes = server.codes.clone();
    let invitations = server.invitations.clone();
    server.child.kill().expect("killed");
    server.child.wait().expect("gone");
    // On the same port: the invitations name it.
    let port = server.address.port().to_string();
    let again = serve(
        "scenarios/standard.ron",
        &["--save", &save_arg, "--port", &port],
    );
    assert_eq!(again.codes, codes, "the same codes: {:?}", again.printed);
    assert!(
        again
            .printed
            .iter()
            .any(|l| l == &format!("resumed after {} commands", before[0].revision)),
        "{:?}",
        again.printed
    );
    // The players come back to the same game with the invitations the
    // server gave before it stopped: it holds the same key.
    let (mut red, mut blue) = (
        common::invited(invitations[0].as_ref().expect("Red's")),
        common::invited(invitations[1].as_ref().expect("Blue's")),
    );
    seat(&again, &mut [&mut red, &mut blue], DEADLINE);
    for (c, was) in [&mut red, &mut blue].into_iter().zip(&before) {
        let now = seat_view(c).expect("a view");
        assert_eq!((now.revision, &now.game), (was.revision, &was.game));
    }
    for _ in 0..2 {
        play_one(&mut [&mut red, &mut blue], &mut rng);
    }
    assert_eq!(seat_view(&mut red).map(|v| v.revision), Some(8));
}

/// The seat that owes a decision plays a random legal command, and every
/// client sees it.
fn play_one(clients: &mut [&mut bevy::prelude::App], rng: &mut impl rand::Rng) {
    let views: Vec<_> = clients
        .iter_mut()
        .map(|c| seat_view(c).expect("a view"))
        .collect();
    let k = (0..views.len())
        .find(|&k| !views[k].legal.is_empty())
        .expect("a seat owes a decision");
    let text = views[k].legal[rng.random_range(0..views[k].legal.len())].clone();
    clients[k]
        .world_mut()
        .write_message(sandtable_net::Play { text });
    let next = views[k].revision + 1;
    until(
        clients,
        DEADLINE,
        "the command reaches every client",
        |cs| {
            cs.iter_mut()
                .all(|c| seat_view(c).is_some_and(|v| v.revision == next))
        },
    );
}

#[test]
fn the_standard_game_served_on_loopback_survives_garbage() {
    use rand::Rng;
    let mut server = serve("scenarios/standard.ron", &[]);
    assert!(server.address.ip().is_loopback());
    let stranger = std::net::UdpSocket::bind("127.0.0.1:0").expect("a port");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1000);
    for _ in 0..1000 {
        let len = rng.random_range(1..1200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        stranger.send_to(&bytes, server.address).expect("sent");
    }
    let (mut red, mut blue) = (client(&server, 0), client(&server, 1));
    seat(&server, &mut [&mut red, &mut blue], DEADLINE);
    let first = seat_view(&mut red).expect("a view").legal[0].clone();
    red.world_mut()
        .write_message(sandtable_net::Play { text: first });
    until(
        &mut [&mut red, &mut blue],
        DEADLINE,
        "the command is played",
        |cs| {
            cs.iter_mut()
                .all(|c| seat_view(c).is_some_and(|v| v.revision == 1))
        },
    );
    assert!(
        server.child.try_wait().expect("a status").is_none(),
        "still serving"
    );
    // Without --save the record goes to the data folder, and its path is
    // printed: it holds the command played.
    let line = server.printed.last().expect("the record's line");
    let path = line
        .strip_prefix("the referee's record: ")
        .and_then(|l| l.strip_suffix(" (written after every command)"))
        .expect("the record's path");
    let path = std::path::Path::new(path);
    assert!(
        path.starts_with(common::data_folder().join("served")),
        "{line}"
    );
    let mut text = String::new();
    until(&mut [&mut red], DEADLINE, "the record is written", |_| {
        text = std::fs::read_to_string(path).unwrap_or_default();
        text.lines().any(|l| !l.starts_with('['))
    });
    assert!(text.contains("[Codes "), "{text}");
}

#[test]
fn a_bot_seated_by_the_server_answers_a_person_s_commands() {
    let server = serve("scenarios/standard.ron", &["--bot", "1=random"]);
    assert_eq!(
        server.codes,
        [Some(server.codes[0].clone().expect("Red's code")), None]
    );
    assert!(
        server.printed.iter().any(|l| l == "seat 1, Blue: bot 1"),
        "{:?}",
        server.printed
    );
    let mut red = client(&server, 0);
    until(&mut [&mut red], DEADLINE, "Red connects", |cs| {
        common::connected(cs[0])
    });
    red.world_mut().write_message(sandtable_net::Claim::Seat {
        seat: 0,
        code: server.codes[0].clone().expect("Red's code"),
    });
    // Red plays whenever it owes a decision; every other change is the
    // bot's.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let mut sent = [None];
    let mut red_played = 0u32;
    until(
        &mut [&mut red],
        DEADLINE,
        "the bot plays three commands",
        |cs| {
            if common::play_legal(cs, &mut sent, &mut rng) {
                red_played += 1;
            }
            seat_view(cs[0]).is_some_and(|v| v.revision >= red_played + 3)
        },
    );
    assert!(red_played > 0, "Red played too");
    // Everyone sees who sits where: Red held by its client, Blue a bot.
    let public = public_view(&mut red).expect("the public view");
    assert_eq!(public.rules, "cache");
    let seats: Vec<(bool, bool)> = public.seats.iter().map(|s| (s.held, s.bot)).collect();
    assert_eq!(seats[0], (true, false), "Red's client holds its seat");
    assert!(seats[1].1, "a bot plays Blue");
}

#[test]
fn a_server_started_again_holds_the_sealed_orders_already_committed() {
    use sandtable_net::{Owing, Play};
    let folder = tempfile_folder("sealed");
    let save = folder.join("game.moves");
    let save_arg = save.to_str().expect("utf-8").to_owned();
    let mut server = serve(
        "scenarios/warpspawn/flank-march.ron",
        &["--save", &save_arg],
    );
    let (mut red, mut blue) = (client(&server, 0), client(&server, 1));
    seat(&server, &mut [&mut red, &mut blue], DEADLINE);
    // Red writes and commits its first orders (R47); Blue has not.
    let orders = [
        "split 1 cav 4",
        "order 1 2S 3S",
        "order 3 2S 3S scout",
        "order 2 enter",
        "commit",
    ];
    for (k, text) in orders.iter().enumerate() {
        red.world_mut().write_message(Play {
            text: (*text).to_owned(),
        });
        until(&mut [&mut red, &mut blue], DEADLINE, text, |cs| {
            seat_view(cs[0]).is_some_and(|v| v.revision as usize == k + 1)
        });
        assert!(common::refusals(&mut red).is_empty(), "`{text}`");
    }
    let committed = |c: &mut bevy::prelude::App| {
        public_view(c).map(|p| p.seats.iter().map(|s| s.owing).collect::<Vec<_>>())
    };
    until(
        &mut [&mut red, &mut blue],
        DEADLINE,
        "Red committed",
        |cs| committed(cs[1]) == Some(vec![Owing::Committed, Owing::Decision]),
    );
    let file = std::fs::read_to_string(&save).expect("the record");
    assert!(file.contains("[Sealed \"0 split 1 cav 4; "), "{file}");
    server.child.kill().expect("killed");
    server.child.wait().expect("gone");
    // Started again: Red's orders stand, committed; Blue still owes.
    let again = serve(
        "scenarios/warpspawn/flank-march.ron",
        &["--save", &save_arg],
    );
    let (mut red, mut blue) = (client(&again, 0), client(&again, 1));
    seat(&again, &mut [&mut red, &mut blue], DEADLINE);
    until(
        &mut [&mut red, &mut blue],
        DEADLINE,
        "the same decision",
        |cs| committed(cs[1]) == Some(vec![Owing::Committed, Owing::Decision]),
    );
    let red_log = red.world().resource::<sandtable_net::Logs>().seat.clone();
    assert!(red_log.iter().any(|l| l.contains("2S 3S")), "{red_log:?}");
    assert!(
        seat_view(&mut red).is_some_and(|v| v.legal.is_empty()),
        "Red has nothing left to write"
    );
}

#[test]
fn a_game_with_scripted_dice_resumes_twice_with_its_rolls_still_to_come() {
    use sandtable_net::{Owing, Play};
    // The first 100 commands of the flank march played to its end with
    // scripted dice (R30): the file keeps every roll of the script.
    let text = std::fs::read_to_string(
        common::root().join("crates/net/tests/data/flank-march-to-the-end.moves"),
    )
    .expect("the record");
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with('[')).collect();
    let commands: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('[') && !l.starts_with('#'))
        .collect();
    let folder = tempfile_folder("scripted");
    let save = folder.join("game.moves");
    let kept: Vec<&str> = headers
        .iter()
        .filter(|h| !h.starts_with("[Scenario "))
        .copied()
        .chain(commands[..100].iter().copied())
        .collect();
    std::fs::write(&save, kept.join("\n") + "\n").expect("written");
    let save_arg = save.to_str().expect("utf-8").to_owned();
    let mut next = 100;
    for _ in 0..2 {
        let mut server = serve(
            "scenarios/warpspawn/flank-march.ron",
            &["--save", &save_arg],
        );
        assert!(
            server
                .printed
                .iter()
                .any(|l| l == &format!("resumed after {next} commands")),
            "{:?}",
            server.printed
        );
        let (mut red, mut blue) = (client(&server, 0), client(&server, 1));
        seat(&server, &mut [&mut red, &mut blue], DEADLINE);
        // The record's next commands, each by the lowest seat that owes
        // a decision (the record's order).
        for _ in 0..10 {
            let mut owing = None;
            until(&mut [&mut red, &mut blue], DEADLINE, "a seat owes", |cs| {
                owing = public_view(cs[0])
                    .and_then(|p| p.seats.iter().position(|s| s.owing == Owing::Decision));
                owing.is_some()
            });
            let before = public_view(&mut red).expect("a view").revision;
            let who = if owing == Some(0) {
                &mut red
            } else {
                &mut blue
            };
            who.world_mut().write_message(Play {
                text: commands[next].to_owned(),
            });
            until(&mut [&mut red, &mut blue], DEADLINE, commands[next], |cs| {
                public_view(cs[0]).is_some_and(|p| p.revision > before)
            });
            assert!(common::refusals(&mut red).is_empty());
            assert!(common::refusals(&mut blue).is_empty());
            next += 1;
        }
        // The file still holds the script's rolls, used and to come.
        let file = std::fs::read_to_string(&save).expect("the record");
        let dice = |t: &str| {
            t.lines()
                .find(|l| l.starts_with("[Dice "))
                .map(str::to_owned)
        };
        assert_eq!(dice(&file), dice(&text));
        server.child.kill().expect("killed");
        server.child.wait().expect("gone");
    }
}

#[test]
fn each_table_is_sent_its_scenario_without_the_other_side_s_hidden_setup() {
    use sandtable_net::{PublicView, ScenarioText, SeatView};
    let battle = |text: &str| match sandtable_scenario::parse_any_in(text, "served", None) {
        Ok(sandtable_scenario::Loaded::Warpspawn(b)) => b,
        Ok(_) => panic!("a battle"),
        Err(e) => panic!("the scenario sent reads back: {e}\n{text}"),
    };
    // Where each side's counters and reserves are in a battle's setup.
    let of_side = |b: &sandtable_scenario::battle::Battle, side: usize| {
        let grid = b.setup.offboard.as_ref().expect("the grid");
        let counters = grid.counters.iter().filter(|c| c.side == side).count();
        let reserves = grid
            .reserves
            .get(side)
            .and_then(|r| r.as_ref())
            .map_or(0, |r| r.len());
        (counters, reserves)
    };
    // The control: the file itself holds both sides' counters.
    let file = match sandtable_scenario::load_any(
        &common::root().join("scenarios/warpspawn/flank-march.ron"),
    )
    .expect("the flank march")
    {
        sandtable_scenario::Loaded::Warpspawn(b) => b,
        _ => panic!("a battle"),
    };
    assert!(of_side(&file, 0).0 > 0 && of_side(&file, 1).0 > 0);

    let server = serve("scenarios/warpspawn/flank-march.ron", &[]);
    let (mut red, mut blue) = (client(&server, 0), client(&server, 1));
    seat(&server, &mut [&mut red, &mut blue], DEADLINE);
    let texts = |c: &mut bevy::prelude::App| {
        let mut seat = c
            .world_mut()
            .query_filtered::<&ScenarioText, bevy::prelude::With<SeatView>>();
        let seat = seat.iter(c.world()).next().map(|t| t.0.clone());
        let mut public = c
            .world_mut()
            .query_filtered::<&ScenarioText, bevy::prelude::With<PublicView>>();
        let public = public.iter(c.world()).next().map(|t| t.0.clone());
        (seat, public)
    };
    until(
        &mut [&mut red, &mut blue],
        DEADLINE,
        "the scenarios",
        |cs| {
            cs.iter_mut().all(|c| {
                let (s, p) = texts(c);
                s.is_some() && p.is_some()
            })
        },
    );
    for (k, c) in [&mut red, &mut blue].into_iter().enumerate() {
        let (seat, public) = texts(c);
        let mine = battle(&seat.expect("the seat's"));
        assert_eq!(mine.setup.seed, 0);
        assert_eq!(of_side(&mine, k).0, of_side(&file, k).0, "its own counters");
        assert_eq!(of_side(&mine, 1 - k).0, 0, "none of the other side's");
        assert_eq!(of_side(&mine, 1 - k).1, 0, "nor its reserve squares");
        let everyone = battle(&public.expect("the public's"));
        assert_eq!((of_side(&everyone, 0).0, of_side(&everyone, 1).0), (0, 0));
        assert_eq!(everyone.setup.map, file.setup.map);
        assert_eq!(everyone.name, file.name);
    }
}

#[test]
fn a_save_file_of_another_game_or_an_empty_one_is_refused_for_what_it_is_and_left_as_it_was() {
    let folder = tempfile_folder("other-games");
    // A skirmish's record, written by a server of that scenario.
    let skirmish = folder.join("skirmish.moves");
    let save_arg = skirmish.to_str().expect("utf-8").to_owned();
    let server = serve("scenarios/frontiers/skirmish.ron", &["--save", &save_arg]);
    let began = std::time::Instant::now();
    while !skirmish.exists() {
        assert!(
            began.elapsed() < DEADLINE,
            "the skirmish's server writes its record"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(server);
    let mut text = std::fs::read_to_string(&skirmish).expect("the skirmish's record");
    text.push_str("discard\ndiscard\norders T1:1 T2:2 CP:decoy S1:decoy\n");
    std::fs::write(&skirmish, &text).expect("written");
    let empty = folder.join("empty.moves");
    std::fs::write(&empty, "").expect("written");
    let no_header = folder.join("bare.moves");
    std::fs::write(&no_header, "deploy MD 945,15\n").expect("written");
    for (file, why) in [
        (&skirmish, "its [ScenarioHash] header is another scenario's"),
        (&empty, "the file is empty"),
        (&no_header, "it has no [ScenarioHash] header"),
    ] {
        let before = std::fs::read(file).expect("the file");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sandtable-serve"))
            .arg(common::root().join("scenarios/standard.ron"))
            .args(["--port", "0", "--save"])
            .arg(file)
            .output()
            .expect("sandtable-serve runs");
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains("not a game of") && said.contains(why) && !said.contains("deploy"),
            "{}: {said}",
            file.display()
        );
        assert_eq!(
            std::fs::read(file).expect("the file"),
            before,
            "left as it was"
        );
    }
}

#[test]
fn a_spectator_s_invitation_lets_one_spectator_in_and_a_copy_used_elsewhere_is_refused() {
    let server = serve("scenarios/standard.ron", &[]);
    assert_eq!(server.spectators.len(), 8, "{:?}", server.printed);
    let mut watcher = common::invited(&server.spectators[0]);
    until(
        &mut [&mut watcher],
        DEADLINE,
        "the spectator watches",
        |cs| public_view(cs[0]).is_some(),
    );
    assert!(seat_view(&mut watcher).is_none(), "a spectator has no seat");
    // The same invitation from another address: netcode bound its token
    // to the first address that used it.
    let mut copy = common::invited(&server.spectators[0]);
    let mut other = common::invited(&server.spectators[1]);
    until(
        &mut [&mut watcher, &mut copy, &mut other],
        DEADLINE,
        "the second spectator watches",
        |cs| public_view(cs[2]).is_some(),
    );
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(2) {
        for c in [&mut watcher, &mut copy, &mut other] {
            c.update();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!common::connected(&copy), "the copy is not let in");
    assert!(public_view(&mut copy).is_none());
}
