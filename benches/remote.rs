//! The time from a command played on one table to the change on the
//! other table, on loopback: the server runs on a thread as `sandtable
//! --host` runs it (`sandtable_serve::prepare`, its 8 ms loop), and two
//! headless tables (the app's logic, no window) join it over UDP as Red
//! and Blue, as `sandtable --join` does. A command enters the playing
//! table's flow as a click's does (its table's play request, checked on
//! its copy and sent); the time ends when the other table has put the
//! server's new view on its table (its game's revision moved).
//!
//! Each table runs on a thread of its own, as in a process of its own.
//! Measured over 200 random legal commands of `scenarios/standard.ron`:
//! with the tables updating as fast as they can (the network's part), and
//! with both updating once a frame at 60 Hz, as a window does, their frames
//! together and half a frame apart.
//!
//! Run: `cargo bench --workspace --bench remote --profile dev`.

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use rand::{Rng, SeedableRng};
use sandtable::cache::play::Cache;
use sandtable::session::game::{ActiveGame, TableSystem};
use sandtable::session::remote::{Connection, Remote};
use sandtable_core::game::{GameState, Seat, next_seat};

/// Commands measured at each pace.
const COMMANDS: usize = 200;

/// How long anything may take before the bench gives up.
const DEADLINE: Duration = Duration::from_secs(30);

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let record = std::env::temp_dir().join(format!(
        "sandtable-remote-bench-{}.moves",
        std::process::id()
    ));
    let args = sandtable_serve::Args {
        scenario: root.join("scenarios/standard.ron"),
        port: 0,
        listen: IpAddr::V4(Ipv4Addr::LOCALHOST),
        public: Vec::new(),
        save: Some(record.clone()),
        bots: Vec::new(),
        turn_limit: Some(1000),
        invitations: Some(std::env::temp_dir().join(format!(
            "sandtable-remote-bench-{}-invitations",
            std::process::id()
        ))),
        max_unclaimed: sandtable_net::Limits::default().unclaimed,
        max_spectators: sandtable_net::Limits::default().spectators,
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut prepared =
            sandtable_serve::prepare(&args, sandtable_serve::Logging::Shared).expect("serves");
        tx.send((
            prepared.minter.clone(),
            prepared
                .seats
                .iter()
                .map(|s| s.code.clone())
                .collect::<Vec<_>>(),
        ))
        .expect("told");
        prepared.app.run();
    });
    let (minter, codes) = rx.recv().expect("the server began");
    let mut seed = 47;
    let frame = Duration::from_micros(16_667);
    for (pace, offset, words) in [
        (None, Duration::ZERO, "tables updating as fast as they can"),
        (
            Some(frame),
            Duration::ZERO,
            "tables updating at 60 Hz, their frames together",
        ),
        (
            Some(frame),
            frame / 2,
            "tables updating at 60 Hz, Blue's frames half a frame after Red's",
        ),
    ] {
        seed += 2;
        let samples = measure(&minter, &codes, pace, offset, seed);
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "click to change on the other table, {} commands, {words}: median {:.1} ms, 95th percentile {:.1} ms, worst {:.1} ms",
            samples.len(),
            ms(samples[samples.len() / 2]),
            ms(samples[samples.len() * 95 / 100]),
            ms(samples[samples.len() - 1])
        );
    }
    let _ = std::fs::remove_file(&record);
    let _ = std::fs::remove_file(record.with_extension("moves.bak"));
}

/// A headless table joined as `seat` with an invitation minted for it,
/// carrying `code`: a new one for each table, as each comes from an
/// address of its own.
fn table(minter: &sandtable_net::invite::Minter, seat: u16, code: &str) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    let invitation = minter
        .invite(
            sandtable_net::invite::Place::Seat(seat),
            code,
            sandtable_net::udp::since_epoch(),
        )
        .expect("minted");
    sandtable::session::remote::join(&mut app, &invitation).expect("a socket");
    app.finish();
    app
}

fn is_seated(table: &App) -> bool {
    table.world().resource::<Remote>().connection == Connection::Connected
        && table
            .world()
            .get_resource::<ActiveGame<Cache>>()
            .is_some_and(|a| {
                a.outbox.is_some() && matches!(a.viewer, sandtable_core::game::Viewer::Player(_))
            })
}

/// What the two tables' threads share: the command in flight, and the
/// times measured.
#[derive(Default)]
struct Shared {
    /// The command in flight: who played it, when, and each table's
    /// game revision then.
    in_flight: Option<(usize, Instant, [u64; 2])>,
    /// Each table's server view revision, after its last update.
    views: [u32; 2],
    /// Each table's game revision, after its last update.
    revisions: [u64; 2],
    samples: Vec<Duration>,
    /// Commands played.
    played: usize,
    over: bool,
}

/// A table's own loop on its own thread, as in its own process: once a
/// frame (or as fast as it can), it plays a random legal command at the
/// frame's start when its seat is to move, nothing is in flight and both
/// tables show the same view; after each update, it notes when the other
/// table's command reached it.
fn table_loop(
    mut app: App,
    me: usize,
    pace: Option<Duration>,
    start: Instant,
    shared: std::sync::Arc<std::sync::Mutex<Shared>>,
    seed: u64,
) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut next = start;
    let deadline = Instant::now() + DEADLINE * 4;
    loop {
        if let Some(frame) = pace {
            if let Some(wait) = next.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            // A frame that ran long starts the next at once, as a
            // window's loop does.
            next = (next + frame).max(Instant::now());
        }
        assert!(Instant::now() < deadline, "the bench did not end");
        {
            let mut s = shared.lock().expect("shared");
            if s.over {
                return;
            }
            let active = app.world().resource::<ActiveGame<Cache>>();
            let copy = active.game.game();
            if s.in_flight.is_none()
                && s.views[0] == s.views[1]
                && s.played < COMMANDS
                && next_seat(copy) == Some(Seat(me as u16))
            {
                let mut legal = Vec::new();
                copy.legal_into(Seat(me as u16), &mut legal);
                if legal.is_empty() {
                    s.over = true;
                    return;
                }
                let command = legal[rng.random_range(0..legal.len())].command;
                app.world_mut().write_message(Cache::bot_request(command));
                s.in_flight = Some((me, Instant::now(), s.revisions));
                s.played += 1;
            } else if next_seat(copy).is_none() {
                s.over = true;
            }
        }
        app.update();
        let mut views = app.world_mut().query::<&sandtable_net::SeatView>();
        let view = views
            .iter(app.world())
            .map(|v| v.revision)
            .max()
            .unwrap_or(0);
        let revision = app.world().resource::<ActiveGame<Cache>>().revision;
        let mut s = shared.lock().expect("shared");
        s.views[me] = view;
        s.revisions[me] = revision;
        if let Some((by, sent, before)) = s.in_flight
            && by != me
            && revision > before[me]
        {
            s.samples.push(sent.elapsed());
            s.in_flight = None;
            if s.samples.len() >= COMMANDS {
                s.over = true;
            }
        }
    }
}

/// [`COMMANDS`] commands, each played on the table of the seat to move,
/// two tables joined anew at `server`, each on a thread of its own: the
/// time until the other table shows the change, sorted.
fn measure(
    minter: &sandtable_net::invite::Minter,
    codes: &[String],
    pace: Option<Duration>,
    offset: Duration,
    seed: u64,
) -> Vec<Duration> {
    let epoch = std::sync::Arc::new(std::sync::OnceLock::new());
    let shared = std::sync::Arc::new(std::sync::Mutex::new(Shared::default()));
    let seated = std::sync::Arc::new(std::sync::Barrier::new(2));
    let threads: Vec<_> = (0..2usize)
        .map(|me| {
            let (shared, seated, code) = (shared.clone(), seated.clone(), codes[me].clone());
            let minter = minter.clone();
            let epoch = epoch.clone();
            std::thread::spawn(move || {
                // A new token, so a new id, for each table: the server may
                // still hold the last bench's connections.
                let mut app = table(&minter, me as u16, &code);
                let start = Instant::now();
                while !is_seated(&app) {
                    assert!(start.elapsed() < DEADLINE, "table {me} was not seated");
                    app.update();
                    std::thread::sleep(Duration::from_millis(1));
                }
                seated.wait();
                // Both tables on the same view before the first command.
                let settle = Instant::now();
                while settle.elapsed() < Duration::from_millis(300) {
                    app.update();
                    std::thread::sleep(Duration::from_millis(1));
                }
                seated.wait();
                // Frames counted from one instant: Blue's `offset` later.
                let start = *epoch.get_or_init(Instant::now)
                    + if me == 1 { offset } else { Duration::ZERO };
                table_loop(app, me, pace, start, shared, seed + me as u64);
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a table's thread");
    }
    let mut samples = std::mem::take(&mut shared.lock().expect("shared").samples);
    samples.sort();
    samples
}
