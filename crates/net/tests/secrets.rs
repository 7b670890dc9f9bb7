//! What a client could learn from the bytes it received: two seats and a
//! spectator play a battle with the off-board grid, and a Frontiers
//! skirmish, through the server
//! (replicon's test apps, every message and replicated component kept as
//! the bytes that reached each client), and each client's bytes are
//! searched for the other side's secrets as they stood when they came:
//! its counters' compositions and squares, its reserve squares, its
//! unrevealed orders and uncommitted forces; a skirmish side's hand,
//! deck, order markers and sealed command; its log and legal commands;
//! and the dice's key. Without the seat filter the same search finds
//! them, so the search can fail.

use std::collections::HashSet;
use std::path::Path;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon::test_app::ServerTestAppExt;
use rand::{Rng, SeedableRng};
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, Seat, Viewer};
use sandtable_net::{Claim, Hosted, Play, Refused, SeatOnly, SeatView, ServePlugin, protocol};

#[path = "common/needles.rs"]
mod needles;

use needles::{Battle, SHORTEST, Secrets, Skirmish, found, pc};

/// A seed whose key is not a run of zeros or a short number.
const SEED: u64 = 0x5eed_c0de_46a1_b2c3;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
    ));
    protocol(&mut app);
    app
}

/// Confrontation, seeded with [`SEED`].
fn skirmish() -> Skirmish {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/frontiers/confrontation.ron");
    let mut setup = match sandtable_scenario::load_any(&path).expect("Confrontation") {
        sandtable_scenario::Loaded::Frontiers(s) => s.setup,
        _ => panic!("a skirmish"),
    };
    setup.seed = SEED;
    Skirmish::new(&setup, Dice::seeded(SEED)).expect("starts")
}

fn battle() -> Battle {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn/flank-march.ron");
    let mut setup = match sandtable_scenario::load_any(&path).expect("the flank march") {
        sandtable_scenario::Loaded::Warpspawn(b) => b.setup,
        _ => panic!("a battle"),
    };
    setup.seed = SEED;
    Battle::new(&setup, Dice::seeded(SEED)).expect("starts")
}

/// replicon's exchange between the server and one client, keeping every
/// byte the client received.
fn exchange(server: &mut App, client: &mut App, received: &mut Vec<u8>) {
    sandtable_net::exchange_seeing(server, client, |bytes| received.extend_from_slice(bytes));
}

/// A side's secrets in `game` as byte strings, by kind, with the lines of
/// its seat's view: what would be in a client's bytes if the side's own
/// view, or the referee's, reached it.
fn secrets<G: Secrets>(
    game: &G,
    side: usize,
    view: &SeatView,
    log: &[String],
) -> Vec<(&'static str, Vec<u8>)> {
    let mut out = game.secrets(side);
    // A text as a view holds it: its length, then its bytes, so that a
    // command's words inside a longer line the viewer may read (an order
    // revealed in the log) are not taken for the command itself.
    for line in log {
        out.push(("a line of its log", pc(line)));
    }
    for line in &view.legal {
        out.push(("a legal command", pc(line)));
    }
    out
}

/// What a viewer may know, in the same forms: every item of its own
/// masked copies and views so far, so that a secret once shown to it is
/// no longer one (a counter seen from the map, an order revealed).
fn known<G: Secrets>(
    game: &G,
    viewer: Viewer,
    view_texts: &[&String],
    into: &mut HashSet<Vec<u8>>,
) {
    into.extend(game.masked(viewer).items());
    for t in view_texts {
        into.insert(pc(t));
    }
}

/// What one run found: for each client, the kinds of the other side's
/// secrets found in its bytes, and how many secrets were looked for.
struct Run {
    found: [HashSet<&'static str>; 3],
    /// One example of each kind found, for the message.
    examples: Vec<String>,
    looked_for: usize,
    commands: u32,
    key_found: bool,
    /// Whether each seat's client found a line of its own log (that the
    /// other side may not read) in its own bytes: the search for log
    /// lines finds what was sent.
    own_log_found: [bool; 2],
}

/// Plays `game` with random legal commands through the server, with or
/// without the seat filter, searching each client's new bytes after
/// every round for the secrets it may not know then.
fn run<G: Secrets + Clone>(game: G, filtered: bool) -> Run {
    let mut server = app();
    server
        .insert_resource(Hosted::new(
            game.clone(),
            vec!["red-7f3a".into(), "blue-91c2".into()],
        ))
        .add_plugins(ServePlugin::<G>::default());
    server.finish();
    let mut clients = [app(), app(), app()];
    for c in &mut clients {
        c.finish();
        server.connect_client(c);
    }
    server.update();
    if !filtered {
        let mut q = server
            .world_mut()
            .query_filtered::<Entity, With<SeatOnly>>();
        let seats: Vec<Entity> = q.iter(server.world()).collect();
        for e in seats {
            server.world_mut().entity_mut(e).remove::<SeatOnly>();
        }
    }
    for (k, code) in ["red-7f3a", "blue-91c2"].iter().enumerate() {
        clients[k].world_mut().write_message(Claim::Seat {
            seat: k as u16,
            code: (*code).into(),
        });
    }
    // The dice's key: the seeded stream's first 32 bytes as encoded.
    let dice = pc(game.the_dice());
    assert_eq!(dice[0], 0, "seeded dice");
    let key = dice[1..33].to_vec();
    let seed = pc(&SEED);

    let mut received: [Vec<u8>; 3] = Default::default();
    let mut searched_to = [0usize; 3];
    let mut knows: [HashSet<Vec<u8>>; 3] = Default::default();
    let mut result = Run {
        found: Default::default(),
        examples: Vec::new(),
        looked_for: 0,
        commands: 0,
        key_found: false,
        own_log_found: [false; 2],
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(46);
    let mut sent: [Option<u32>; 2] = [None, None];
    for _round in 0..4000 {
        // Each seat plays a random legal command when it owes one.
        for k in 0..2 {
            let refused = clients[k]
                .world_mut()
                .resource_mut::<Messages<Refused>>()
                .drain()
                .count();
            if refused > 0 {
                sent[k] = None;
            }
            let view = own_view(&mut clients[k], k as u16);
            if let Some(view) = view
                && !view.legal.is_empty()
                && sent[k] != Some(view.revision)
            {
                let text = view.legal[rng.random_range(0..view.legal.len())].clone();
                clients[k].world_mut().write_message(Play { text });
                sent[k] = Some(view.revision);
            }
        }
        for (k, c) in clients.iter_mut().enumerate() {
            c.update();
            exchange(&mut server, c, &mut received[k]);
        }
        server.update();
        for (k, c) in clients.iter_mut().enumerate() {
            exchange(&mut server, c, &mut received[k]);
            c.update();
        }
        // The server's game and each seat's view as it holds them now.
        let hosted = server.world().resource::<Hosted<G>>();
        let now = hosted.game().clone();
        result.commands = hosted.revision();
        // Once the game is over its record goes to everyone: no secret is
        // left to keep.
        if matches!(now.decision(), Decision::Over(_)) {
            break;
        }
        let mut q = server.world_mut().query::<&SeatView>();
        let mut views: Vec<SeatView> = q.iter(server.world()).cloned().collect();
        views.sort_by_key(|v| v.seat);
        let public = hosted_log::<G>(&server, Viewer::Public);
        let logs = [
            hosted_log::<G>(&server, Viewer::Player(Seat(0))),
            hosted_log::<G>(&server, Viewer::Player(Seat(1))),
        ];
        // What each client may know now: the seats their own, the
        // spectator the public's.
        for (k, viewer) in [
            Viewer::Player(Seat(0)),
            Viewer::Player(Seat(1)),
            Viewer::Public,
        ]
        .into_iter()
        .enumerate()
        {
            let mut texts: Vec<&String> = public.iter().collect();
            if let Viewer::Player(s) = viewer {
                texts.extend(logs[s.index()].iter().chain(&views[s.index()].legal));
                // A seat's client holds the public's copy too, whose
                // deals may match a secret by chance (a hand of one card).
                known(&now, Viewer::Public, &[], &mut knows[k]);
            }
            known(&now, viewer, &texts, &mut knows[k]);
        }
        for k in 0..3 {
            // The new bytes, with enough of the old before them that a
            // secret split across two rounds is still whole.
            let from = searched_to[k].saturating_sub(256);
            let hay = &received[k][from..];
            let others: &[usize] = match k {
                0 => &[1],
                1 => &[0],
                _ => &[0, 1],
            };
            for &side in others {
                for (kind, needle) in secrets(&now, side, &views[side], &logs[side]) {
                    if needle.len() < SHORTEST || knows[k].contains(&needle) {
                        continue;
                    }
                    result.looked_for += 1;
                    // The first of each kind found is kept for the
                    // message, with the bytes round it.
                    if found(hay, &needle) && result.found[k].insert(kind) {
                        let at = hay
                            .windows(needle.len())
                            .position(|w| w == needle.as_slice())
                            .unwrap_or(0);
                        let ctx =
                            &hay[at.saturating_sub(60)..(at + needle.len() + 30).min(hay.len())];
                        result.examples.push(format!(
                            "client {k}, {kind}: {:?} in {:?}",
                            String::from_utf8_lossy(&needle),
                            String::from_utf8_lossy(ctx)
                        ));
                    }
                }
            }
            // The positive control of the log lines' search: the seat's own
            // lines that the other side may not read reach it.
            if k < 2 {
                for line in &logs[k] {
                    let needle = pc(line);
                    if needle.len() >= SHORTEST
                        && !knows[1 - k].contains(&needle)
                        && found(hay, &needle)
                    {
                        result.own_log_found[k] = true;
                    }
                }
            }
            for (what, needle) in [("the dice's key", &key), ("the seed", &seed)] {
                if found(hay, needle) && !result.key_found {
                    result.key_found = true;
                    result.examples.push(format!("client {k}: {what}"));
                }
            }
            searched_to[k] = received[k].len();
        }
    }
    result
}

/// The log as the server would send it to `viewer`.
fn hosted_log<G: Secrets>(server: &App, viewer: Viewer) -> Vec<String> {
    server.world().resource::<Hosted<G>>().log_for(viewer)
}

fn own_view(client: &mut App, seat: u16) -> Option<SeatView> {
    let mut q = client.world_mut().query::<&SeatView>();
    q.iter(client.world()).find(|v| v.seat == seat).cloned()
}

/// Checks a run with the filter (nothing found) and without it (each of
/// `kinds` found by both seats' clients), and that the game itself,
/// encoded, holds the dice's key that no client received.
fn check<G: Secrets + Clone>(game: G, kinds: &[&str]) {
    let kept = run(game.clone(), true);
    assert!(kept.commands > 50, "{} commands played", kept.commands);
    assert!(
        kept.looked_for > 1000,
        "{} secrets looked for",
        kept.looked_for
    );
    for (k, found) in kept.found.iter().enumerate() {
        assert!(
            found.is_empty(),
            "client {k} received {found:?}: {:?}",
            kept.examples
        );
    }
    assert!(
        !kept.key_found,
        "a client received the dice's key: {:?}",
        kept.examples
    );
    // The log is sent as messages to the clients holding its seat, not on
    // the filtered entity: that the search finds log lines where they were
    // sent is checked on each seat's own bytes.
    assert_eq!(
        kept.own_log_found,
        [true, true],
        "each seat's own log lines found"
    );
    // The control: the seats' entities unfiltered, every client receives
    // the other seat's view, and the search finds its secrets.
    let open = run(game.clone(), false);
    for k in 0..2 {
        for kind in kinds {
            assert!(
                open.found[k].contains(kind),
                "without the filter client {k} found {:?}, not {kind}",
                open.found[k]
            );
        }
    }
    // The key is in no view even unfiltered (masked copies hold no dice);
    // the referee's own game, encoded, holds it.
    let dice = pc(game.the_dice());
    assert!(
        found(&sandtable_core::wire::write(&game), &dice[1..33]),
        "the unmasked game holds the key"
    );
}

#[test]
fn r57_no_client_receives_a_byte_of_the_other_side_s_ring_and_without_the_filter_it_would() {
    check(
        battle(),
        &[
            "a counter's composition and square",
            "its reserve squares",
            "its unrevealed orders",
            "a legal command",
        ],
    );
}

#[test]
fn r149_no_client_receives_a_byte_of_the_other_side_s_hand_or_markers_and_without_the_filter_it_would()
 {
    check(
        skirmish(),
        &[
            "its hand",
            "its order markers",
            "its sealed command",
            "a legal command",
        ],
    );
}
