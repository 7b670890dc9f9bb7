//! `review`: a game record looked back at. After every decision of the
//! record, the tree search estimates each side's chance of winning: the
//! search of the seat to decide there, its chosen line's mean value; a
//! finished game's result where it has ended. A record of a finished game
//! is looked back at with the referee's knowledge (every secret as it
//! stood, only the dice to come drawn afresh); one of a game still going
//! on, from what the deciding seat could see then (every playout deals
//! again what it may not see, R30, R57, R149), so that a review of an
//! unfinished game tells no secret. The decisions where the estimate moved most are its
//! turning points, each with the command the search would have played
//! there and its estimate. The curve is printed as a table and may be
//! written as an SVG. Every system reviews through the game contract.

use std::fmt::Write as _;
use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use sandtable_bots::search::Sight;
use sandtable_core::game::{GameState, Seat};
use sandtable_core::record::Record;

use crate::{Failure, Front, Seeing};

use sandtable_bots::review::percent;
pub use sandtable_bots::review::{DEFAULT_ITERATIONS, Review, Step, TURNING_POINTS};

/// Reviews `record` of `front`'s scenario from `game`, its start: the
/// search of `iterations` at every position, seeded from `seed`; a
/// progress bar on stderr when `progress`.
pub fn review<F: Front>(
    front: &F,
    game: F::Game,
    record: &Record<<F::Game as GameState>::Command>,
    path: &Path,
    iterations: u32,
    seed: u64,
    progress: bool,
) -> Result<Review, Failure> {
    let n = record.commands.len();
    let bar = if progress {
        ProgressBar::new(n as u64 + 1)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions weighed, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let decide =
        |g: &F::Game, seat: Seat, config: &sandtable_bots::BotConfig| front.decide(g, seat, config);
    let review = sandtable_bots::review::review(
        &decide,
        front.seat_names(),
        game,
        &record.commands,
        (iterations, seed),
        &mut |k| {
            bar.set_position(k as u64);
            true
        },
    )
    .map_err(|e| {
        Failure::new(
            2,
            format!("{}:{}: {e}", sandtable_core::text::path_shown(path), e.line),
        )
    })?;
    bar.finish_and_clear();
    Ok(review)
}

/// The review as text: what the estimates are, the table of chances after
/// every decision, then the turning points.
pub fn text(review: &Review, iterations: u32) -> String {
    let mut out = String::new();
    let knew = match review.sight {
        Sight::All => {
            "with the referee's knowledge, the game being over (every secret as it stood, only the dice to come drawn afresh)"
        }
        Sight::Own => "from what that side could see then, the game not being over (R149)",
    };
    let _ = writeln!(
        out,
        "Each side's chance of winning after every decision, as the tree search ({iterations} iterations) of the side to decide estimates it {knew}; a finished game's result where it has ended."
    );
    let _ = write!(out, "{:>5}  {:<28}", "line", "decision");
    for name in &review.names {
        let _ = write!(out, " {name:>8}");
    }
    out.push('\n');
    let _ = write!(out, "{:>5}  {:<28}", "", "(start)");
    for c in &review.start {
        let _ = write!(out, " {:>8}", percent(*c));
    }
    out.push('\n');
    for step in &review.steps {
        let who = review
            .names
            .get(step.seat.index())
            .map_or("?", String::as_str);
        let words = format!("{who}: {}", step.command);
        let shown: String = if words.chars().count() > 28 {
            words.chars().take(27).chain(['…']).collect()
        } else {
            words
        };
        let _ = write!(out, "{:>5}  {shown:<28}", step.line);
        for c in &step.chances {
            let _ = write!(out, " {:>8}", percent(*c));
        }
        out.push('\n');
    }
    let turning = review.turning_points(TURNING_POINTS);
    if turning.is_empty() {
        out.push_str("No decision moved the estimate.\n");
        return out;
    }
    out.push_str("Turning points, the decisions that moved their side's chance most:\n");
    for k in turning {
        let step = &review.steps[k];
        let s = step.seat.index();
        let who = review.names.get(s).map_or("?", String::as_str);
        let _ = write!(
            out,
            "- line {}: {who} played `{}`: {who} {} -> {}",
            step.line,
            step.command,
            percent(review.before(k).get(s).copied().flatten()),
            percent(step.chances.get(s).copied().flatten()),
        );
        match &step.instead {
            Some((c, v)) if *c != step.command => {
                let _ = writeln!(
                    out,
                    "; the search would have played `{c}` ({})",
                    percent(Some(*v))
                );
            }
            _ => out.push_str("; the search would have played it too\n"),
        }
    }
    out
}

/// The colours of the seats' curves.
const COLOURS: [&str; 4] = ["#2a6fdb", "#e08a1e", "#3aa655", "#b03a8c"];

/// The review's curve as an SVG: one polyline a seat, one point a
/// decision (its chance after it), the turning points ringed and
/// numbered by their line in the record.
pub fn svg(review: &Review) -> String {
    let (w, h, left, right, top, bottom) = (800.0, 320.0, 50.0, 20.0, 20.0, 40.0);
    let n = review.steps.len().max(1);
    let x = |k: usize| left + (w - left - right) * (k as f64 + 1.0) / n as f64;
    let y = |c: f32| top + (h - top - bottom) * (1.0 - f64::from(c));
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    // The axes: 0%, 50% and 100%, and the decisions along the bottom.
    for (c, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{0:.1}" x2="{1}" y2="{0:.1}" stroke="#cccccc"/><text x="{2}" y="{3:.1}" text-anchor="end">{label}</text>"##,
            y(c),
            w - right,
            left - 6.0,
            y(c) + 4.0,
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">decisions (1 to {})</text>"#,
        (left + w - right) / 2.0,
        h - 10.0,
        review.steps.len()
    );
    for (s, name) in review.names.iter().enumerate() {
        let colour = COLOURS[s % COLOURS.len()];
        let points: Vec<String> = review
            .steps
            .iter()
            .enumerate()
            .filter_map(|(k, step)| {
                step.chances
                    .get(s)
                    .copied()
                    .flatten()
                    .map(|c| format!("{:.1},{:.1}", x(k), y(c)))
            })
            .collect();
        if points.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            r#"<polyline class="chance" data-seat="{s}" fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            points.join(" ")
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" fill="{colour}">{}</text>"#,
            left + 8.0 + 110.0 * s as f64,
            top + 12.0,
            escape(name)
        );
    }
    for k in review.turning_points(TURNING_POINTS) {
        let step = &review.steps[k];
        let s = step.seat.index();
        let Some(c) = step.chances.get(s).copied().flatten() else {
            continue;
        };
        // The label beside its ring, on the side with room.
        let (dx, anchor) = if x(k) > w * 0.75 {
            (-8.0, "end")
        } else {
            (8.0, "start")
        };
        let _ = writeln!(
            out,
            r##"<circle class="turning" cx="{:.1}" cy="{:.1}" r="6" fill="none" stroke="#d62728" stroke-width="2"/><text x="{:.1}" y="{:.1}" fill="#d62728" text-anchor="{anchor}">line {}</text>"##,
            x(k),
            y(c),
            x(k) + dx,
            y(c) - 8.0,
            step.line
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Text made safe inside SVG.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What `review` is told on the command line, past the record.
#[derive(clap::Args, Debug, Clone)]
pub struct ReviewArgs {
    /// Iterations of the tree search at each position
    #[arg(long = "mcts-iterations", default_value_t = DEFAULT_ITERATIONS, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub iterations: u32,
    /// Write the curve of the chances as an SVG to this file
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
    /// Seed of the search (default: the game's seed)
    #[arg(long)]
    pub seed: Option<u64>,
}

/// `review`: the record replayed on its scenario, every position weighed,
/// the table and turning points returned as text; the SVG written when
/// asked, through a temporary file renamed into place.
pub fn run<F: Front>(
    front: &F,
    record_path: &Path,
    args: &ReviewArgs,
    progress: bool,
) -> Result<String, Failure> {
    let record = crate::replay::load_record(record_path, front)?;
    let (game, seed) =
        crate::replay::start(front, &record, record_path, None, None, &Seeing::default())?;
    let review = review(
        front,
        game,
        &record,
        record_path,
        args.iterations,
        args.seed.unwrap_or(seed),
        progress,
    )?;
    if let Some(out) = &args.svg {
        sandtable_scenario::files::write_atomically(
            out,
            svg(&review).as_bytes(),
            sandtable_scenario::files::Backups::None,
        )
        .map_err(|e| Failure::new(1, format!("{}: {e}", sandtable_core::text::path_shown(out))))?;
    }
    Ok(text(&review, args.iterations))
}
