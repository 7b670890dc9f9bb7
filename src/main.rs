//! `sandtable`: the desktop app. Reads the command line, opens the scenario
//! or saved game named there (the embedded standard table otherwise), and
//! assembles the plugins. `--screenshot` and `--bench-frames` serve checks
//! and measurements.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::WindowResolution;
use sandtable::AppSystems;
use sandtable::play::{ActiveGame, GameLoaded, Notice, ScenarioSource, files};

const USAGE: &str =
    "usage: sandtable [FILE.ron | GAME.moves] [--bot P=LEVEL]... [--layout] [--screenshot PNG [--frames N]] [--bench-frames N]

  FILE.ron           a scenario to play (default: the embedded standard table)
  GAME.moves         a saved game to resume
  --screenshot PNG   save a screenshot after N frames (default 30), then exit
  --bot P=LEVEL      player P (0 is the first) is a bot of strength 1 (random) to 5
  --layout           start in layout mode (rulers, measuring and the editor)
  --bench-frames N   run N frames, print the time spent in Sandtable's own systems, then exit";

#[derive(Debug, Default)]
struct Options {
    file: Option<PathBuf>,
    screenshot: Option<PathBuf>,
    frames: u32,
    bench_frames: Option<u32>,
    layout: bool,
    bots: Vec<(usize, u8)>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        frames: 30,
        ..default()
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, flag: &str| -> Result<u32, String> {
        v.and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{flag} needs a number of frames"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Err(USAGE.to_owned()),
            "--screenshot" => {
                options.screenshot =
                    Some(args.next().ok_or("--screenshot needs a file name")?.into());
            }
            "--frames" => options.frames = number(args.next(), "--frames")?,
            "--layout" => options.layout = true,
            "--bot" => {
                let seat = args.next().unwrap_or_default();
                let parsed = seat.split_once('=').and_then(|(p, l)| {
                    let level: u8 = l.parse().ok()?;
                    let range = 1..=sandtable_bots::MAX_STRENGTH;
                    Some((p.parse().ok()?, level)).filter(|_| range.contains(&level))
                });
                options.bots.push(parsed.ok_or_else(|| {
                    format!(
                        "--bot needs PLAYER=LEVEL, a player index and a strength 1 to {}, not `{seat}`",
                        sandtable_bots::MAX_STRENGTH
                    )
                })?);
            }
            "--bench-frames" => options.bench_frames = Some(number(args.next(), "--bench-frames")?),
            flag if flag.starts_with('-') => {
                return Err(format!("unknown option {flag}\n\n{USAGE}"));
            }
            _ if options.file.is_none() => options.file = Some(arg.into()),
            _ => return Err(format!("only one file can be opened\n\n{USAGE}")),
        }
    }
    Ok(options)
}

fn main() -> AppExit {
    let options = match parse_args() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}");
            return AppExit::error();
        }
    };
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Sandtable".to_owned(),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(sandtable::plugin);

    let mut notice = Notice::default();
    let started = Instant::now();
    let opened = match &options.file {
        None => Ok(ActiveGame::new(
            sandtable_scenario::standard(),
            ScenarioSource::Embedded,
        )),
        Some(path) => files::open(path),
    };
    match opened {
        Ok(active) => {
            let players = active.game.players().len();
            for (player, _) in options.bots.iter().filter(|(p, _)| *p >= players) {
                eprintln!(
                    "--bot {player}=...: this game has players 0 to {}; the seat is ignored",
                    players - 1
                );
            }
            app.insert_resource(active);
            app.world_mut().write_message(GameLoaded);
            if options.layout {
                app.world_mut()
                    .write_message(sandtable::layout::SetLayoutMode(true));
            }
        }
        Err(e) => {
            eprintln!("{e}");
            notice.text = Some(e);
            notice.error = true;
        }
    }
    app.insert_resource(notice);
    let mut seats = sandtable::play::bots::Seats::default();
    for (player, level) in &options.bots {
        if seats.0.len() <= *player {
            seats
                .0
                .resize(player + 1, sandtable::play::bots::Seat::Human);
        }
        seats.0[*player] = sandtable::play::bots::Seat::Bot(*level);
    }
    app.insert_resource(seats);
    app.insert_resource(LoadTimer(started));
    app.add_systems(Last, report_load_time);

    if let Some(path) = options.screenshot {
        app.insert_resource(ScreenshotPlan {
            path,
            at_frame: options.frames,
            frame: 0,
            exit_at: None,
        })
        .add_systems(Update, take_screenshot);
    }
    if let Some(frames) = options.bench_frames {
        app.insert_resource(FrameBench {
            frames,
            ..default()
        })
        .add_systems(First, count_bench_frame)
        .add_systems(Update, start_own_work.before(AppSystems::RecordInput))
        .add_systems(Update, stop_own_work.after(AppSystems::Animate))
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                start_own_work.before(sandtable::hud::HudSystems),
                stop_own_work.after(sandtable::hud::HudSystems),
            ),
        );
    }
    app.run()
}

/// When the app started, to report how long the first table took to build.
#[derive(Resource)]
struct LoadTimer(Instant);

fn report_load_time(
    timer: Option<Res<LoadTimer>>,
    active: Option<Res<ActiveGame>>,
    mut commands: Commands,
) {
    if let (Some(timer), Some(active)) = (timer, active) {
        let b = active.game.board();
        info!(
            "table of {} x {} squares and {} units built and dressed {:.2} s after start",
            b.columns,
            b.rows,
            active.game.units().len(),
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
    own: Duration,
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
        let own = bench.own.as_secs_f64() * 1000.0 / n;
        println!(
            "{} frames: {whole:.3} ms a frame, Sandtable's systems {own:.3} ms ({:.1}% of the frame)",
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
        bench.own += start.elapsed();
    }
}
