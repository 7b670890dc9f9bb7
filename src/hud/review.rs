//! The review bar under the table, for every system
//! ([`crate::session::review`]): where the position shown stands, the
//! steps (a command, a phase, a turn, the first and the last), whose
//! eyes the table sees through, **Play on from here** and **Close**, and
//! the curve of each side's chance as the tree search weighs it, its
//! turning points ringed: a click on the curve jumps there, and a line of
//! the log clicked jumps to its command.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_bots::review::percent;
use sandtable_core::game::Viewer;

use crate::session::review::{ReviewPanel, ReviewRequest, Stride};

/// The egui memory's flag that the table shows a review: the log's lines
/// may be clicked ([`super::log_view`]).
const REVIEW_ON: &str = "review-on";
/// The egui memory's line of the log clicked, for the review bar.
const LOG_CLICKED: &str = "review-log-clicked";

/// The colours of the seats' curves where the system gives none (as the
/// CLI's SVG draws them).
const COLOURS: [egui::Color32; 4] = [
    egui::Color32::from_rgb(0x2a, 0x6f, 0xdb),
    egui::Color32::from_rgb(0xe0, 0x8a, 0x1e),
    egui::Color32::from_rgb(0x3a, 0xa6, 0x55),
    egui::Color32::from_rgb(0xb0, 0x3a, 0x8c),
];

/// The colour of the turning points' rings.
const TURNING: egui::Color32 = egui::Color32::from_rgb(0xfa, 0xd2, 0x3c);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        draw_review_bar
            .in_set(super::HudStage::Labels)
            .run_if(in_state(crate::mode::Mode::Play)),
    );
}

/// Whether the log's lines may be clicked to jump there.
pub(super) fn log_jumps(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(egui::Id::new(REVIEW_ON)))
        .unwrap_or(false)
}

/// A line of the log clicked, `index` in the log shown.
pub(super) fn log_clicked(ctx: &egui::Context, index: usize) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::new(LOG_CLICKED), index));
}

/// The bar, at the foot of the table left of the panel, while the table
/// shows a review.
fn draw_review_bar(
    mut contexts: EguiContexts,
    panel: Option<Res<ReviewPanel>>,
    width: Res<super::PanelWidth>,
    mut out: MessageWriter<ReviewRequest>,
    mut keep_seed: Local<bool>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    ctx.data_mut(|d| d.insert_temp(egui::Id::new(REVIEW_ON), panel.is_some()));
    let Some(panel) = panel else {
        return Ok(());
    };
    if let Some(i) = ctx.data_mut(|d| d.remove_temp::<usize>(egui::Id::new(LOG_CLICKED))) {
        out.write(ReviewRequest::LogLine(i));
    }
    let screen = ctx.content_rect();
    let wide = (screen.width() - width.0 - 24.0).max(320.0);
    egui::Area::new(egui::Id::new("review-bar"))
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_width(wide);
                bar(ui, &panel, &mut out, &mut keep_seed);
            });
        });
    Ok(())
}

/// The bar's rows.
fn bar(
    ui: &mut egui::Ui,
    panel: &ReviewPanel,
    out: &mut MessageWriter<ReviewRequest>,
    keep_seed: &mut bool,
) {
    ui.horizontal(|ui| {
        ui.strong("Review");
        ui.label(format!(
            "position {} of {} · turn {} · {}",
            panel.at, panel.len, panel.turn, panel.deciding
        ));
        if let Some(last) = &panel.last {
            ui.small(format!("· last: {last}"));
        }
    });
    ui.horizontal(|ui| {
        let steps = [
            ("|<", Stride::End, false, "the first position"),
            ("<<<", Stride::Turn, false, "a turn back (Ctrl+Left)"),
            ("<<", Stride::Phase, false, "a phase back (Shift+Left)"),
            ("<", Stride::Command, false, "one command back (Left)"),
            (">", Stride::Command, true, "one command on (Right)"),
            (">>", Stride::Phase, true, "a phase on (Shift+Right)"),
            (">>>", Stride::Turn, true, "a turn on (Ctrl+Right)"),
            (">|", Stride::End, true, "the last position (End)"),
        ];
        for (words, stride, forward, hover) in steps {
            let enabled = if forward {
                panel.at < panel.len
            } else {
                panel.at > 0
            };
            if ui
                .add_enabled(enabled, egui::Button::new(egui::RichText::new(words).monospace()))
                .on_hover_text(hover)
                .clicked()
            {
                out.write(ReviewRequest::Step(stride, forward));
            }
        }
        ui.separator();
        ui.label("Eyes:");
        let now = panel
            .eyes_offered
            .iter()
            .find(|(v, _)| *v == panel.eyes)
            .map_or("?", |(_, name)| name.as_str());
        let mut eyes = panel.eyes;
        egui::ComboBox::from_id_salt("review-eyes")
            .selected_text(now)
            .show_ui(ui, |ui| {
                for (viewer, name) in &panel.eyes_offered {
                    ui.selectable_value(&mut eyes, *viewer, name);
                }
            })
            .response
            .on_hover_text(panel.referee_why_not.unwrap_or(
                "what each seat saw at each moment, or the referee's view of everything",
            ));
        if eyes != panel.eyes {
            out.write(ReviewRequest::Eyes(eyes));
        }
        ui.separator();
        ui.add_enabled(panel.seed_kept, egui::Checkbox::new(keep_seed, "keep the seed"))
            .on_hover_text(if panel.seed_kept {
                "the new game's dice fall as the record's seed rolls them; unticked, they are drawn afresh, so that no roll seen repeats"
            } else {
                "this record's dice were typed in or replayed from a list: a new game from it draws its dice afresh"
            });
        if ui
            .button("Play on from here")
            .on_hover_text("a new game from this position; saved, it is a record of its own, and the game reviewed stays as it was")
            .clicked()
        {
            out.write(ReviewRequest::PlayOn {
                keep_seed: *keep_seed && panel.seed_kept,
            });
        }
        if ui
            .button("Close")
            .on_hover_text("the game back on the table as it was")
            .clicked()
        {
            out.write(ReviewRequest::Close);
        }
    });
    if let Some(k) = curve(ui, panel) {
        out.write(ReviewRequest::To(k));
    }
    match &panel.curve {
        None => {
            let done = panel
                .weighed
                .load(std::sync::atomic::Ordering::Relaxed)
                .min(panel.len + 1);
            ui.add(
                egui::ProgressBar::new(done as f32 / (panel.len + 1) as f32).text(format!(
                    "the tree search ({} iterations) weighs each position: {done} of {}",
                    panel.iterations,
                    panel.len + 1
                )),
            );
            // The bar moves while the search works.
            ui.ctx().request_repaint();
        }
        Some(Err(why)) => {
            ui.small(why);
        }
        Some(Ok(review)) => {
            ui.horizontal_wrapped(|ui| {
                ui.small("Turning points:");
                let turning = review.turning_points(sandtable_bots::review::TURNING_POINTS);
                if turning.is_empty() {
                    ui.small("no decision moved the estimate");
                }
                for k in turning {
                    let step = &review.steps[k];
                    let s = step.seat.index();
                    let who = review.names.get(s).map_or("?", String::as_str);
                    let words = format!(
                        "command {}: {who} {} -> {}",
                        step.line,
                        percent(review.before(k).get(s).copied().flatten()),
                        percent(step.chances.get(s).copied().flatten()),
                    );
                    // What the command was and what the search preferred
                    // are told on hover only where the eyes may read the
                    // command: the referee's, or the seat's own.
                    let readable =
                        panel.eyes == Viewer::Referee || panel.eyes == Viewer::Player(step.seat);
                    let hover = match (&step.instead, readable) {
                        (_, false) => "the position after this decision".to_owned(),
                        (Some((c, v)), true) if *c != step.command => format!(
                            "{who} played `{}`; the search would have played `{c}` ({:.0}%)",
                            step.command,
                            100.0 * v
                        ),
                        _ => format!(
                            "{who} played `{}`; the search would have played it too",
                            step.command
                        ),
                    };
                    if ui
                        .add(egui::Button::new(
                            egui::RichText::new(words).small().color(TURNING),
                        ))
                        .on_hover_text(hover)
                        .clicked()
                    {
                        out.write(ReviewRequest::To(step.line));
                    }
                }
                ui.small(match review.sight {
                    sandtable_bots::search::Sight::All => {
                        "· weighed with the referee's knowledge, the game being over"
                    }
                    sandtable_bots::search::Sight::Own => {
                        "· weighed from what the deciding side could see then"
                    }
                });
            });
        }
    }
}

/// Seat `s`'s colour: its pieces', else the curve's own.
fn colour(panel: &ReviewPanel, s: usize) -> egui::Color32 {
    match panel.colours.get(s).copied().flatten() {
        Some([r, g, b]) => egui::Color32::from_rgb(r, g, b),
        None => COLOURS[s % COLOURS.len()],
    }
}

/// The timeline, with the curve of each side's chance once weighed: a
/// line a seat, the turning points ringed, the position shown marked.
/// Returns the position clicked.
fn curve(ui: &mut egui::Ui, panel: &ReviewPanel) -> Option<usize> {
    let size = egui::vec2(ui.available_width(), 84.0);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(28));
    let n = panel.len.max(1) as f32;
    let inner = rect.shrink2(egui::vec2(6.0, 6.0));
    let x = |k: usize| inner.left() + inner.width() * k as f32 / n;
    let y = |c: f32| inner.bottom() - inner.height() * c;
    let grey = egui::Stroke::new(1.0, egui::Color32::from_gray(70));
    painter.line_segment(
        [
            egui::pos2(inner.left(), y(0.5)),
            egui::pos2(inner.right(), y(0.5)),
        ],
        grey,
    );
    if let Some(Ok(review)) = &panel.curve {
        for s in 0..review.names.len() {
            // Position 0 is the start; position k + 1 follows decision k.
            let points: Vec<egui::Pos2> = std::iter::once((0, review.start.get(s)))
                .chain(
                    review
                        .steps
                        .iter()
                        .enumerate()
                        .map(|(k, step)| (k + 1, step.chances.get(s))),
                )
                .filter_map(|(k, c)| c.copied().flatten().map(|c| egui::pos2(x(k), y(c))))
                .collect();
            if points.len() > 1 {
                painter.add(egui::Shape::line(
                    points,
                    egui::Stroke::new(1.5, colour(panel, s)),
                ));
            }
        }
        for k in review.turning_points(sandtable_bots::review::TURNING_POINTS) {
            let step = &review.steps[k];
            if let Some(c) = step.chances.get(step.seat.index()).copied().flatten() {
                painter.circle_stroke(
                    egui::pos2(x(k + 1), y(c)),
                    5.0,
                    egui::Stroke::new(2.0, TURNING),
                );
            }
        }
        for (s, name) in review.names.iter().enumerate() {
            painter.text(
                egui::pos2(inner.left() + 4.0 + 110.0 * s as f32, inner.top()),
                egui::Align2::LEFT_TOP,
                name,
                egui::FontId::proportional(12.0),
                colour(panel, s),
            );
        }
    }
    // The position shown.
    painter.line_segment(
        [
            egui::pos2(x(panel.at), rect.top()),
            egui::pos2(x(panel.at), rect.bottom()),
        ],
        egui::Stroke::new(2.0, egui::Color32::WHITE),
    );
    let at = |p: egui::Pos2| {
        (((p.x - inner.left()) / inner.width() * n).round().max(0.0) as usize).min(panel.len)
    };
    if let Some(p) = response.hover_pos() {
        let k = at(p);
        let words = match &panel.curve {
            Some(Ok(review)) => {
                let chances = if k == 0 {
                    &review.start
                } else {
                    &review.steps[k - 1].chances
                };
                let each: Vec<String> = review
                    .names
                    .iter()
                    .zip(chances)
                    .map(|(name, c)| format!("{name} {}", percent(*c)))
                    .collect();
                format!("position {k}: {}", each.join(", "))
            }
            _ => format!("position {k}"),
        };
        response.clone().on_hover_text_at_pointer(words);
    }
    if (response.clicked() || response.dragged())
        && let Some(p) = response.interact_pointer_pos()
    {
        let k = at(p);
        return (k != panel.at).then_some(k);
    }
    None
}
