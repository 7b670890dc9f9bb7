//! `sandtable`: the desktop app. Reads the command line, opens the scenario
//! or saved game named there (the embedded standard table otherwise), and
//! assembles the plugins. `--screenshot` and `--bench-frames` serve checks
//! and measurements.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::WindowResolution;
use sandtable::options::Options;
use sandtable::schedule::AppSystems;
use sandtable::session::open::Openers;
use sandtable::session::{Notice, OpenFailure, Seat, Seats};
use sandtable_core::game::Surface;

use sandtable_net::invite::Invitation;

fn main() -> AppExit {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}");
            return AppExit::error();
        }
    };
    // The invitation is read before any window opens: a mistake in it is
    // said at once.
    let invitation = match options.join.as_deref().map(Invitation::from_link_or_file) {
        Some(Err(e)) => {
            eprintln!("--join: {e}");
            return AppExit::error();
        }
        Some(Ok(invitation)) => Some(invitation),
        None => None,
    };
    let mut app = base_app();
    let started = Instant::now();
    // The file named, else the built-in table, read once and put on the
    // table by the rule system it is of.
    let path = options
        .file
        .clone()
        .unwrap_or_else(|| PathBuf::from(sandtable::session::files::EMBEDDED));
    let opened = app.world().resource::<Openers>().open(&path, None);
    // A seat that is not a player is a mistake on the command line: said
    // before any window opens.
    // A hosted scenario's bots are checked by its server, against it.
    if let Ok(opened) = &opened
        && options.host.is_none()
        && let Err(message) = options.check_seats(opened.seats())
    {
        eprintln!("{message}");
        return AppExit::error();
    }
    match opened {
        Ok(opened) => {
            for note in opened.notes() {
                eprintln!("note: {}", sandtable_scenario::files::printable(note));
            }
            if !opened.notes().is_empty() {
                app.world_mut()
                    .resource_mut::<Notice>()
                    .info(opened.notes().join("\n"));
            }
            app.insert_resource(LoadTimer(started, surface_words(opened.surface())));
            opened.put_on_table(app.world_mut());
            if options.review {
                app.world_mut()
                    .write_message(sandtable::session::review::ReviewRequest::Open);
            }
            if options.layout {
                app.insert_resource(sandtable::mode::RefereeLayout);
                app.world_mut()
                    .write_message(sandtable::mode::SetLayoutMode::ON);
            }
        }
        Err(e) => {
            eprintln!("{}", sandtable_scenario::files::printable(&e.message));
            if let (Some(path), Some(line)) = (&options.file, e.bad_line.filter(|l| *l > 1)) {
                app.world_mut().resource_mut::<OpenFailure>().0 = Some((path.clone(), line));
            }
            app.world_mut().resource_mut::<Notice>().error(e.message);
        }
    }
    if let Some(host) = &options.host {
        return match hosted(&mut app, host, &options.bots) {
            Ok(()) => {
                add_checks(&mut app, &options);
                app.run()
            }
            Err(message) => {
                eprintln!("{}", sandtable_scenario::files::printable(&message));
                AppExit::error()
            }
        };
    }
    {
        let mut seats = app.world_mut().resource_mut::<Seats>();
        for (player, level) in &options.bots {
            if seats.0.len() <= *player {
                seats.0.resize(player + 1, Seat::Person);
            }
            seats.0[*player] = Seat::Bot(*level);
        }
    }
    app.add_systems(Last, report_load_time);
    if let Some(invitation) = &invitation
        && let Err(message) = join(&mut app, invitation)
    {
        eprintln!("{message}");
        return AppExit::error();
    }

    add_checks(&mut app, &options);
    app.run()
}

/// `--host`: the game's server runs on a thread of its own (the server of
/// `sandtable-serve`, listening on `host.port`), and the table joins it at
/// the host's seat with that seat's code, as any other table would.
fn hosted(
    app: &mut App,
    host: &sandtable::options::Host,
    bots: &[(usize, u8)],
) -> Result<(), String> {
    let lines = sandtable::session::remote::host(app.world_mut(), host, bots)
        .map_err(|e| format!("--host {}: {e}", host.scenario.display()))?;
    for line in &lines {
        println!("{line}");
    }
    Ok(())
}

/// `--join`: the table follows the game served by the server that gave
/// the invitation (its link, or its file), as a seat's player or a
/// spectator.
fn join(app: &mut App, invitation: &Invitation) -> Result<(), String> {
    sandtable::session::remote::join_server(app.world_mut(), invitation)
        .map_err(|e| format!("--join {}: {e}", invitation.server()))
}

/// A surface in words, for the load report.
fn surface_words(surface: Surface) -> String {
    match surface {
        Surface::Squares { columns, rows } => format!("table of {columns} x {rows} squares"),
        Surface::Hexes { columns, rows } => format!("map of {columns} x {rows} hexes"),
        Surface::Plane {
            width_mm, depth_mm, ..
        } => format!("table of {width_mm} x {depth_mm} mm"),
    }
}

/// The app with its window and every plugin.
fn base_app() -> App {
    let mut app = App::new();
    // The models' files are read through their own source, registered
    // before the asset plugin.
    sandtable::table::files::asset_source(&mut app);
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Sandtable".to_owned(),
                    resolution: WindowResolution::new(1280, 720),
                    ..default()
                }),
                // The close button asks first when work is unsaved
                // (`sandtable::session::ask_before_closing`).
                close_when_requested: false,
                ..default()
            })
            .set(bevy::log::LogPlugin {
                // A hosted server's netcode logs every datagram it drops as an
                // error, and renet every long view sent in fragments as a
                // warning: garbage would flood the log (as `sandtable-serve`
                // filters them).
                filter: format!(
                    "{}renetcode=off,renet::channel::unreliable=error",
                    bevy::log::DEFAULT_FILTER
                ),
                ..default()
            }),
    )
    .add_plugins(sandtable::plugin);
    // The network's side, idle until the table joins or hosts a game.
    sandtable::session::remote::network_plugins(&mut app);
    app
}

/// `--screenshot` and `--bench-frames`.
fn add_checks(app: &mut App, options: &Options) {
    if let Some(path) = options.screenshot.clone() {
        app.insert_resource(ScreenshotPlan {
            path,
            at_frame: options.frames,
            frame: 0,
            exit_at: None,
        })
        .add_systems(Update, take_screenshot);
    }
    if let Some(frames) = options.bench_frames {
        // Update and the panels' pass run on one thread here, so that the
        // spans below hold Sandtable's systems and not the time the
        // executor's threads take to wake on a machine whose cores the
        // renderer keeps busy (on Mesa's software driver that wait was most
        // of a multi-threaded span).
        app.edit_schedule(Update, |s| {
            s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
        });
        app.edit_schedule(bevy_egui::EguiPrimaryContextPass, |s| {
            s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
        });
        app.insert_resource(FrameBench {
            frames,
            ..default()
        })
        .add_systems(First, count_bench_frame)
        .add_systems(
            Update,
            (
                mark_set::<0>.before(AppSystems::RecordInput),
                mark_set::<1>
                    .after(AppSystems::RecordInput)
                    .before(AppSystems::ApplyCommands),
                mark_set::<2>
                    .after(AppSystems::ApplyCommands)
                    .before(AppSystems::SyncTable),
                mark_set::<3>
                    .after(AppSystems::SyncTable)
                    .before(AppSystems::Animate),
                mark_set::<4>.after(AppSystems::Animate),
            ),
        )
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                start_own_work.before(sandtable::hud::HudSystems),
                stop_own_work.after(sandtable::hud::HudSystems),
            ),
        );
    }
}

/// When the app started and what it opened, to report how long the first
/// table took to build.
#[derive(Resource)]
struct LoadTimer(Instant, String);

fn report_load_time(
    timer: Option<Res<LoadTimer>>,
    pieces: Query<(), With<sandtable::table::TablePiece>>,
    mut commands: Commands,
) {
    if let Some(timer) = timer
        && !pieces.is_empty()
    {
        info!(
            "{} and {} pieces built and dressed {:.2} s after start",
            timer.1,
            pieces.iter().count(),
            timer.0.elapsed().as_secs_f64()
        );
        commands.remove_resource::<LoadTimer>();
    }
}

#[derive(Resource)]
struct ScreenshotPlan {
    path: PathBuf,
    at_frame: u32,
    frame: u32,
    exit_at: Option<u32>,
}

fn take_screenshot(
    mut commands: Commands,
    mut plan: ResMut<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    plan.frame += 1;
    if plan.frame == plan.at_frame {
        let path = plan.path.clone();
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path))
            .observe(
                |_: On<ScreenshotCaptured>, mut plan: ResMut<ScreenshotPlan>| {
                    plan.exit_at = Some(plan.frame + 2);
                },
            );
    }
    if plan.exit_at.is_some_and(|f| plan.frame >= f) || plan.frame > plan.at_frame + 600 {
        exit.write(AppExit::Success);
    }
}

/// Frame timing for `--bench-frames`: the whole frame against the spans of
/// Sandtable's own systems (its Update sets, first to last, and its panels).
/// Other systems may run in parallel inside those spans, so the figure is an
/// upper bound.
#[derive(Resource, Default)]
struct FrameBench {
    frames: u32,
    seen: u32,
    frame_start: Option<Instant>,
    whole: Duration,
    own_start: Option<Instant>,
    /// Where the last of Sandtable's Update sets ended.
    set_mark: Option<Instant>,
    /// Sandtable's Update sets, each from the end of the one before: input,
    /// commands, the table's sync, animation.
    sets: [Duration; 4],
    /// Its panels and labels (egui).
    panels: Duration,
}

/// Frames to write off while pipelines compile.
const WARM_UP_FRAMES: u32 = 10;

fn count_bench_frame(mut bench: ResMut<FrameBench>, mut exit: MessageWriter<AppExit>) {
    let now = Instant::now();
    if let Some(start) = bench.frame_start
        && bench.seen > WARM_UP_FRAMES
    {
        bench.whole += now - start;
    }
    bench.frame_start = Some(now);
    bench.seen += 1;
    if bench.seen > bench.frames + WARM_UP_FRAMES {
        let n = f64::from(bench.frames);
        let whole = bench.whole.as_secs_f64() * 1000.0 / n;
        let ms = |d: Duration| d.as_secs_f64() * 1000.0 / n;
        let [input, apply, sync, animate] = bench.sets.map(ms);
        let panels = ms(bench.panels);
        let own = input + apply + sync + animate + panels;
        println!(
            "{} frames: {whole:.3} ms a frame, Sandtable's systems {own:.3} ms ({:.1}% of the frame): input {input:.3}, commands {apply:.3}, table sync {sync:.3}, animation {animate:.3}, panels and labels {panels:.3} ms",
            bench.frames,
            100.0 * own / whole.max(1e-9)
        );
        exit.write(AppExit::Success);
    }
}

fn start_own_work(mut bench: ResMut<FrameBench>) {
    bench.own_start = Some(Instant::now());
}

fn stop_own_work(mut bench: ResMut<FrameBench>) {
    if let Some(start) = bench.own_start.take()
        && bench.seen > WARM_UP_FRAMES + 1
    {
        bench.panels += start.elapsed();
    }
}

/// The end of Sandtable's Update set `K - 1` (and the start of set `K`):
/// the time since the mark before is that set's.
fn mark_set<const K: usize>(mut bench: ResMut<FrameBench>) {
    let now = Instant::now();
    if K > 0
        && let Some(before) = bench.set_mark
        && bench.seen > WARM_UP_FRAMES + 1
    {
        bench.sets[K - 1] += now - before;
    }
    bench.set_mark = Some(now);
}
