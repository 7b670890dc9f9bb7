//! `sandtable-serve` as a player meets it: the process started on a
//! scenario, its printed address and codes read, and headless clients
//! joining it over UDP on loopback.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::{RenetClient, RepliconRenetPlugins};
use sandtable_net::invite::Invitation;
use sandtable_net::udp::{JoinPlugin, join_invited};
use sandtable_net::{Claim, Play, PublicView, Refused, SeatView, protocol};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The data folder the tests' servers write to when no `--save` is
/// given.
pub fn data_folder() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("data")
}

/// A running `sandtable-serve`, killed when dropped.
pub struct Server {
    pub child: Child,
    pub address: SocketAddr,
    /// Each seat's code, where a person sits, from its invitation.
    pub codes: Vec<Option<String>>,
    /// Each seat's invitation, where a person sits.
    pub invitations: Vec<Option<Invitation>>,
    /// The spectators' invitations.
    pub spectators: Vec<Invitation>,
    /// Every line it printed before it began serving.
    pub printed: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `sandtable-serve` on `scenario` (from the repository's root)
/// with `args`, on a free port of loopback unless `args` name one, and reads what it prints up
/// to the record's path.
pub fn serve(scenario: &str, args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable-serve"))
        .arg(root().join(scenario))
        .args(if args.contains(&"--port") {
            &[][..]
        } else {
            &["--port", "0"][..]
        })
        .args(args)
        .env("SANDTABLE_DATA_DIR", data_folder())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("sandtable-serve starts");
    let stdout = child.stdout.take().expect("its output");
    let mut lines = BufReader::new(stdout).lines();
    let mut printed = Vec::new();
    let mut address = None;
    let mut invitations = Vec::new();
    let mut spectators = Vec::new();
    let read = |line: &str| {
        let path = line.split(": invitation ").nth(1)?;
        Some(Invitation::read(Path::new(path)).expect("an invitation"))
    };
    for line in lines.by_ref() {
        let line = line.expect("a line");
        if let Some(rest) = line.split(" on ").nth(1)
            && address.is_none()
            && line.contains(": serving ")
        {
            let addr = rest.split_whitespace().next().expect("an address");
            address = Some(addr.parse().expect("HOST:PORT"));
        }
        if line.starts_with("seat ") {
            invitations.push(read(&line));
        }
        if line.starts_with("spectator: ") {
            spectators.push(read(&line).expect("a spectator's invitation"));
        }
        let last = line.starts_with("the referee's record: ");
        printed.push(line);
        if last {
            break;
        }
    }
    // The rest of its output is read on, so that it never blocks on a
    // full pipe.
    std::thread::spawn(move || for _ in lines {});
    Server {
        child,
        address: address.unwrap_or_else(|| panic!("no address in {printed:?}")),
        codes: invitations
            .iter()
            .map(|i| i.as_ref().map(|i| i.code.clone()))
            .collect(),
        invitations,
        spectators,
        printed,
    }
}

/// A headless client of `server`, joined with the invitation of seat
/// `seat`.
pub fn client(server: &Server, seat: usize) -> App {
    invited(server.invitations[seat].as_ref().expect("a person's seat"))
}

/// A headless client joined with `invitation`.
pub fn invited(invitation: &Invitation) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins.set(ServerPlugin::new(PostUpdate)),
        RepliconRenetPlugins,
        JoinPlugin,
        sandtable_net::ViewPlugin,
    ));
    protocol(&mut app);
    app.finish();
    join_invited(app.world_mut(), invitation).expect("a client socket");
    app
}

/// Updates the clients until `done` holds, for at most `deadline`.
pub fn until(
    clients: &mut [&mut App],
    deadline: Duration,
    what: &str,
    mut done: impl FnMut(&mut [&mut App]) -> bool,
) {
    let start = Instant::now();
    while !done(clients) {
        assert!(
            start.elapsed() < deadline,
            "{what}: not within {deadline:?}"
        );
        for c in clients.iter_mut() {
            c.update();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

pub fn connected(app: &App) -> bool {
    app.world()
        .get_resource::<RenetClient>()
        .is_some_and(|c| c.is_connected())
}

pub fn seat_view(app: &mut App) -> Option<SeatView> {
    let mut q = app.world_mut().query::<&SeatView>();
    q.iter(app.world()).next().cloned()
}

pub fn public_view(app: &mut App) -> Option<PublicView> {
    let mut q = app.world_mut().query::<&PublicView>();
    q.iter(app.world()).next().cloned()
}

pub fn refusals(app: &mut App) -> Vec<String> {
    app.world_mut()
        .resource_mut::<Messages<Refused>>()
        .drain()
        .map(|r| r.text)
        .collect()
}

/// Connects each client and claims its seat with the server's code.
pub fn seat(server: &Server, clients: &mut [&mut App], deadline: Duration) {
    until(clients, deadline, "the clients connect", |cs| {
        cs.iter().all(|c| connected(c))
    });
    for (k, c) in clients.iter_mut().enumerate() {
        let code = server.codes[k].clone().expect("a person's seat");
        c.world_mut().write_message(Claim::Seat {
            seat: k as u16,
            code,
        });
    }
    until(clients, deadline, "the clients are seated", |cs| {
        cs.iter_mut().all(|c| seat_view(c).is_some())
    });
}

/// Plays one legal command for every seat that owes one and has not
/// played since its view last changed, chosen by `rng`; true when one
/// was sent.
pub fn play_legal(
    clients: &mut [&mut App],
    sent: &mut [Option<u32>],
    rng: &mut impl rand::Rng,
) -> bool {
    let mut any = false;
    for (k, c) in clients.iter_mut().enumerate() {
        if !refusals(c).is_empty() {
            sent[k] = None;
        }
        let Some(view) = seat_view(c) else { continue };
        if view.legal.is_empty() || sent[k] == Some(view.revision) {
            continue;
        }
        let text = view.legal[rng.random_range(0..view.legal.len())].clone();
        c.world_mut().write_message(Play { text });
        sent[k] = Some(view.revision);
        any = true;
    }
    any
}
