//! The ring's part of the battle's panel and its labels (R40-R57): what the
//! grid waits for; each side's general reserve as a count; while a side
//! writes its orders, its counters with their orders, the path being
//! written with its rate, the buttons for `hold`, `enter`, `scout`, splits
//! and merges, and the commit; in a fight, the forces, the dice cancelled
//! and the fall-back; in the March, the counters that may enter; in the
//! Cannonade, the shots at the counter aimed at, with their odds. Every
//! line is read from the viewer's own view of the ring, never the
//! referee's (R57).

use bevy::prelude::*;
use bevy_egui::egui;
use sandtable_core::game::{GameState, Legal};
use sandtable_warpspawn::offboard::command::{GridCommand, Order};
use sandtable_warpspawn::offboard::counter::Composition;
use sandtable_warpspawn::offboard::state::Stage;
use sandtable_warpspawn::{Command, Game, Phase, Side};

use super::play::{BattleInput, BattlePick, seat};
use super::ring::{CounterToken, ReserveTray, RingTile, viewer_index};
use super::ring_play::{RingInput, RingPick, own_square, rate_on, writing_orders};
use super::table::ActiveBattle;
use crate::hud::TableLabels;

/// The pieces the panel's split and forces forms hold while they are
/// being filled in.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct RingForm {
    /// The pieces a split takes off the counter picked (R45).
    pub split: Composition,
    /// The pieces each of the side's counters in a fight commits (R51),
    /// by counter: all of it until changed.
    pub forces: Vec<(u16, Composition)>,
}

/// A counter's pieces in a few words.
pub fn pieces_words(p: &Composition) -> String {
    let mut parts = Vec::new();
    if p.infantry > 0 {
        parts.push(format!("{} inf", p.infantry));
    }
    if p.cavalry > 0 {
        parts.push(format!("{} cav", p.cavalry));
    }
    if p.officers > 0 {
        parts.push(format!(
            "{} officer{}",
            p.officers,
            if p.officers > 1 { "s" } else { "" }
        ));
    }
    for (on, name) in [
        (p.cannon, "cannon"),
        (p.baggage, "baggage"),
        (p.flag, "flag"),
    ] {
        if on {
            parts.push(name.to_owned());
        }
    }
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A button for `command` of `side`, enabled where the rules take it, its
/// refusal (with its ruling) on hover where they do not; whether clicked.
fn rule_button(
    ui: &mut egui::Ui,
    game: &Game,
    side: Side,
    label: &str,
    command: &Command,
    hover: &str,
) -> bool {
    let refused = GameState::check(game, seat(side), command).err();
    let button = ui.add_enabled(refused.is_none(), egui::Button::new(label));
    let button = match refused {
        Some(why) => button.on_disabled_hover_text(why.to_string()),
        None => button.on_hover_text(format!("`{command}`: {hover}")),
    };
    button.clicked()
}

/// Small number fields and switches for a composition, each up to `most`.
pub(super) fn pieces_form(ui: &mut egui::Ui, form: &mut Composition, most: &Composition) {
    ui.horizontal_wrapped(|ui| {
        for (value, max, name) in [
            (&mut form.infantry, most.infantry, "inf"),
            (&mut form.cavalry, most.cavalry, "cav"),
            (&mut form.officers, most.officers, "officers"),
        ] {
            if max > 0 {
                ui.label(name);
                ui.add(egui::DragValue::new(value).range(0..=max));
            }
        }
        for (value, has, name) in [
            (&mut form.cannon, most.cannon, "cannon"),
            (&mut form.baggage, most.baggage, "baggage"),
            (&mut form.flag, most.flag, "flag"),
        ] {
            if has {
                ui.checkbox(value, name);
            }
        }
    });
}

/// The ring's part of the panel, for a battle with the grid.
#[allow(clippy::too_many_arguments)]
pub(super) fn ring_section(
    ui: &mut egui::Ui,
    battle: &ActiveBattle,
    decider: Option<Side>,
    pick: &RingPick,
    battle_pick: &BattlePick,
    form: &mut RingForm,
    ring: &mut MessageWriter<RingInput>,
    inputs: &mut MessageWriter<BattleInput>,
) {
    let game = &*battle.game;
    let Some(g) = game.grid() else {
        return;
    };
    let viewer = viewer_index(battle.viewer);
    ui.separator();
    ui.label(egui::RichText::new("Beyond the table's edge (R40-R57)").strong());
    if let Some(status) = game.ring_status(viewer) {
        ui.colored_label(egui::Color32::GOLD, status);
    }
    if let Some(view) = game.ring_view(viewer) {
        ui.horizontal_wrapped(|ui| {
            for s in 0..2 {
                if view.unlocated[s] > 0 {
                    ui.label(format!(
                        "{} reserve: {} counter{} (R46)",
                        game.name(Side(s as u8)),
                        view.unlocated[s],
                        if view.unlocated[s] == 1 { "" } else { "s" }
                    ));
                }
            }
        });
    }
    // Only the side at the table, when it decides, sees its buttons.
    let side = decider.filter(|s| viewer.is_none_or(|v| v == s.index()));
    let Some(side) = side else {
        return;
    };
    let mut legal = Vec::new();
    GameState::legal_into(game, seat(side), &mut legal);
    if writing_orders(game, side) {
        orders_part(ui, game, side, pick, form, ring, inputs);
    } else if g.fight.is_some() {
        fight_part(ui, game, side, &legal, form, inputs);
    } else {
        table_part(ui, game, side, &legal, pick, battle_pick, ring, inputs);
    }
}

/// The side's orders being written (R44-R47, R54).
fn orders_part(
    ui: &mut egui::Ui,
    game: &Game,
    side: Side,
    pick: &RingPick,
    form: &mut RingForm,
    ring: &mut MessageWriter<RingInput>,
    inputs: &mut MessageWriter<BattleInput>,
) {
    let Some(g) = game.grid() else { return };
    let Stage::Orders(orders) = &g.stage else {
        return;
    };
    let own = &orders[side.index()];
    ui.label(format!(
        "{} writes its orders, sealed (R47): click a counter's token or its row, then the squares of its path, or drag the token along it.",
        game.name(side)
    ));
    for c in &own.counters {
        let number = c.id.number;
        let order = match own.orders.get(&number) {
            Some((Order::Hold, scout)) => format!("hold{}", if *scout { " scout" } else { "" }),
            Some((Order::Enter, scout)) => format!("enter{}", if *scout { " scout" } else { "" }),
            Some((Order::Path(p), scout)) => format!(
                "{}{}",
                p.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
                if *scout { " scout" } else { "" }
            ),
            None => "no order yet: holds".to_owned(),
        };
        let (forward, behind) = (c.pieces.rate(false), c.pieces.rate(true));
        let text = format!(
            "{} {} in {}: {} ({} points; rate {forward}, {behind} behind the lines, R44) - {order}",
            game.name(side),
            number,
            c.at,
            pieces_words(&c.pieces),
            c.pieces.points(),
        );
        if ui
            .selectable_label(pick.counter == Some(number), text)
            .clicked()
        {
            ring.write(RingInput::Select(number));
        }
    }
    if let Some(number) = pick.counter
        && let Some(c) = own.counters.iter().find(|c| c.id.number == number)
    {
        ui.separator();
        let path = if pick.path.is_empty() {
            "none yet: click the squares it enters, in order".to_owned()
        } else {
            pick.path
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let rate = rate_on(game, side, number, &pick.path)
            .map(|(r, behind)| {
                format!(
                    "rate {r} {} (R44)",
                    if behind {
                        "behind the lines"
                    } else {
                        "forward"
                    }
                )
            })
            .unwrap_or_default();
        ui.label(format!("Counter {number}'s path: {path}; {rate}"));
        let mut scout = pick.scout;
        if ui
            .checkbox(&mut scout, "scout (R54)")
            .on_hover_text("reveals in a fight, rolls nothing and falls back")
            .changed()
        {
            ring.write(RingInput::Scout(scout));
        }
        ui.horizontal_wrapped(|ui| {
            if let Some(command) = pick.path_order()
                && rule_button(
                    ui,
                    game,
                    side,
                    "Give the path",
                    &command,
                    "the order, sealed",
                )
            {
                ring.write(RingInput::GivePath);
            }
            if ui
                .add_enabled(!pick.path.is_empty(), egui::Button::new("Back a square"))
                .clicked()
            {
                ring.write(RingInput::Back);
            }
            let order = |order| {
                Command::Grid(GridCommand::Order {
                    counter: number,
                    order,
                    scout: pick.scout,
                })
            };
            if rule_button(ui, game, side, "Hold", &order(Order::Hold), "it stays") {
                ring.write(RingInput::Give(Order::Hold));
            }
            if rule_button(
                ui,
                game,
                side,
                "Enter",
                &order(Order::Enter),
                "it comes onto the map in the March (R48)",
            ) {
                ring.write(RingInput::Give(Order::Enter));
            }
        });
        // A split: the pieces that leave as a new counter (R45).
        ui.horizontal_wrapped(|ui| {
            ui.label("Split off:");
        });
        pieces_form(ui, &mut form.split, &c.pieces);
        let split = Command::Grid(GridCommand::Split {
            counter: number,
            pieces: form.split,
        });
        if rule_button(
            ui,
            game,
            side,
            "Split",
            &split,
            "a new counter, with the lowest free number",
        ) {
            inputs.write(BattleInput::Command(split));
            form.split = Composition::default();
        }
        // A merge with the side's other counters in its square.
        let square = own_square(game, side, number);
        for other in own
            .counters
            .iter()
            .filter(|o| o.id.number != number && Some(o.at) == square)
        {
            let merge = Command::Grid(GridCommand::Merge {
                counter: number,
                joining: other.id.number,
            });
            if rule_button(
                ui,
                game,
                side,
                &format!("Merge counter {} into {number}", other.id.number),
                &merge,
                "one counter of both (R45)",
            ) {
                inputs.write(BattleInput::Command(merge));
            }
        }
    }
    ui.separator();
    let commit = Command::Grid(GridCommand::Commit);
    if rule_button(
        ui,
        game,
        side,
        "Commit the orders",
        &commit,
        "sealed and final: undo never reopens them (R47)",
    ) {
        inputs.write(BattleInput::Command(commit));
    }
}

/// A fight on the ring (R50-R53): the side's forces, the dice it cancels,
/// where its beaten counter falls back.
fn fight_part(
    ui: &mut egui::Ui,
    game: &Game,
    side: Side,
    legal: &[Legal<Command>],
    form: &mut RingForm,
    inputs: &mut MessageWriter<BattleInput>,
) {
    let viewer = Some(side.index());
    if let Some(fight) = game.ring_summary(viewer).and_then(|s| s.fight) {
        let who: Vec<String> = fight
            .counters
            .iter()
            .map(|c| format!("{} {}", c.player, c.number))
            .collect();
        ui.label(format!(
            "A fight in {} ({}): {}; it waits for {}.",
            fight.square,
            fight.kind,
            who.join(", "),
            fight.waiting
        ));
        for f in &fight.forces {
            ui.label(format!(
                "{} {} commits {} ({} points)",
                f.player,
                f.number,
                pieces_words(&f.pieces.pieces),
                f.pieces.points
            ));
        }
    }
    let mut any = false;
    for l in legal {
        match l.command {
            Command::Grid(GridCommand::Forces { counter, .. }) => {
                any = true;
                let Some(c) = game.ring_view(viewer).and_then(|v| {
                    v.counters
                        .into_iter()
                        .find(|c| c.side == side.index() && c.number == counter)
                }) else {
                    continue;
                };
                let Some(pieces) = c.pieces else { continue };
                ui.label(format!(
                    "Counter {counter}: {} ({} points)",
                    pieces_words(&pieces),
                    pieces.points()
                ));
                ui.horizontal_wrapped(|ui| {
                    if rule_button(
                        ui,
                        game,
                        side,
                        "All of it",
                        &l.command,
                        "every piece fights (R51)",
                    ) {
                        inputs.write(BattleInput::Command(l.command));
                    }
                });
                let k = match form.forces.iter().position(|(n, _)| *n == counter) {
                    Some(k) => k,
                    None => {
                        form.forces.push((counter, pieces));
                        form.forces.len() - 1
                    }
                };
                pieces_form(ui, &mut form.forces[k].1, &pieces);
                let some = Command::Grid(GridCommand::Forces {
                    counter,
                    pieces: Some(form.forces[k].1),
                });
                if rule_button(
                    ui,
                    game,
                    side,
                    "Commit these",
                    &some,
                    "sealed until both sides commit (R51)",
                ) {
                    inputs.write(BattleInput::Command(some));
                }
            }
            Command::Grid(GridCommand::Cancel(n)) => {
                any = true;
                if rule_button(
                    ui,
                    game,
                    side,
                    &format!("Cancel {n}"),
                    &l.command,
                    "enemy dice cancelled, as many of your own given up (R52)",
                ) {
                    inputs.write(BattleInput::Command(l.command));
                }
            }
            Command::Grid(GridCommand::Fallback(sq)) => {
                any = true;
                if rule_button(
                    ui,
                    game,
                    side,
                    &format!("Fall back to {sq}"),
                    &l.command,
                    "or click the square (R50)",
                ) {
                    inputs.write(BattleInput::Command(l.command));
                }
            }
            _ => {}
        }
    }
    let commit = Command::Grid(GridCommand::Commit);
    if GameState::check(game, seat(side), &commit).is_ok()
        && rule_button(
            ui,
            game,
            side,
            "Commit the forces",
            &commit,
            "sealed: revealed when both have committed (R51)",
        )
    {
        inputs.write(BattleInput::Command(commit));
    }
    if !any {
        ui.label("Nothing of the fight is yours to decide now.");
    }
}

/// The ring in the table's phases: counters that may enter (R48), shots at
/// the counter aimed at (R56).
#[allow(clippy::too_many_arguments)]
fn table_part(
    ui: &mut egui::Ui,
    game: &Game,
    side: Side,
    legal: &[Legal<Command>],
    pick: &RingPick,
    battle_pick: &BattlePick,
    ring: &mut MessageWriter<RingInput>,
    inputs: &mut MessageWriter<BattleInput>,
) {
    match game.phase() {
        Phase::March => {
            let mut entering: Vec<u16> = legal
                .iter()
                .filter_map(|l| match l.command {
                    Command::Enter { counter, .. } => Some(counter),
                    _ => None,
                })
                .collect();
            entering.dedup();
            for n in entering {
                let picked = pick.entering && pick.counter == Some(n);
                if ui
                    .selectable_label(
                        picked,
                        format!("Counter {n} may enter: pick it, then a lit hex (R48)"),
                    )
                    .clicked()
                {
                    ring.write(RingInput::Entering(n));
                }
            }
            if battle_pick.from.is_some_and(|from| {
                legal
                    .iter()
                    .any(|l| matches!(l.command, Command::MarchOff { from: f, .. } if f == from))
            }) {
                ui.label("It may march off the map: drag it, or click, onto the edge square it faces (R48).");
            }
        }
        Phase::Cannonade => {
            let (Some(cannon), Some(aim)) = (battle_pick.from, pick.aim) else {
                return;
            };
            for l in legal.iter().filter(|l| {
                matches!(l.command, Command::FireAtCounter { cannon: c, square, .. } if c == cannon && square == aim)
            }) {
                let odds = GameState::odds(game, seat(side), &l.command);
                ui.horizontal_wrapped(|ui| {
                    if ui.button(format!("{}", l.command)).clicked() {
                        inputs.write(BattleInput::Command(l.command));
                    }
                });
                for o in &odds {
                    ui.small(&o.what);
                    for (outcome, chance) in &o.outcomes {
                        ui.small(format!("{outcome}: {chance}"));
                    }
                }
            }
        }
        _ => {}
    }
}

/// While the ring's move is played out a tick at a time (R49): which tick
/// is on show, and the buttons to step, pause and skip to its end.
pub(super) fn tick_controls(
    ui: &mut egui::Ui,
    show: &super::ring::TickShow,
    ticks: &mut MessageWriter<super::ring::TickInput>,
) {
    use super::ring::TickInput;
    if !show.running() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            egui::Color32::GOLD,
            format!("The ring moves (R49): tick {} of {}", show.done, show.ticks),
        );
        if ui.button("Next tick").clicked() {
            ticks.write(TickInput::Next);
        }
        let (label, to) = if show.paused {
            ("Go on", false)
        } else {
            ("Pause", true)
        };
        if ui.button(label).clicked() {
            ticks.write(TickInput::Pause(to));
        }
        if ui.button("Skip").clicked() {
            ticks.write(TickInput::Skip);
        }
    });
}

/// The ring's labels in play: those of [`label_ring_parts`], the steps of
/// the path being written, and the paths the viewer's side has given.
pub(super) fn label_ring(
    labels: &TableLabels,
    battle: &ActiveBattle,
    tiles: &Query<(&RingTile, &Transform)>,
    tokens: &Query<(&CounterToken, &Transform)>,
    trays: &Query<(&ReserveTray, &Transform)>,
    pick: &RingPick,
) {
    let game = &*battle.game;
    let names: Vec<String> = (0..2).map(|s| game.name(Side(s)).to_owned()).collect();
    label_ring_parts(labels, &names, tiles, tokens, trays);
    for (tile, at) in tiles {
        if let Some(i) = pick.path.iter().position(|s| *s == tile.square)
            && let Some(p) = labels.screen(at.translation + Vec3::Y * 0.1)
        {
            labels.boxed(
                p,
                format!("{}", i + 1),
                13.0,
                egui::Color32::from_rgb(30, 60, 160),
            );
        }
    }
    // The paths the viewer's side has given this Orders phase (the
    // referee's: both sides'), as lines from each counter's square.
    if let Some(g) = game.grid()
        && let Stage::Orders(orders) = &g.stage
    {
        let viewer = viewer_index(battle.viewer);
        let centre = |sq: sandtable_warpspawn::offboard::ring::Square| {
            tiles
                .iter()
                .find(|(t, _)| t.square == sq)
                .map(|(_, at)| at.translation + Vec3::Y * 0.08)
        };
        for own in orders.iter().filter(|o| viewer.is_none_or(|v| v == o.side)) {
            for (number, (order, _)) in &own.orders {
                let Order::Path(path) = order else { continue };
                let Some(start) = own.counters.iter().find(|c| c.id.number == *number) else {
                    continue;
                };
                let points: Vec<egui::Pos2> = std::iter::once(start.at)
                    .chain(path.iter().copied())
                    .filter_map(centre)
                    .filter_map(|p| labels.screen(p))
                    .collect();
                labels.line(points, egui::Color32::from_rgb(250, 250, 250));
            }
        }
    }
}

/// Each square's name, each token's side and number (with its pieces
/// where the viewer may know them), each tray's count: in play and in
/// layout mode alike. The names come first, so that the tokens' labels
/// step aside rather than cover them.
pub(super) fn label_ring_parts(
    labels: &TableLabels,
    names: &[String],
    tiles: &Query<(&RingTile, &Transform)>,
    tokens: &Query<(&CounterToken, &Transform)>,
    trays: &Query<(&ReserveTray, &Transform)>,
) {
    let name = |s: usize| names.get(s).map_or("?", String::as_str);
    let faint = egui::Color32::from_rgba_unmultiplied(235, 235, 220, 170);
    for (tile, at) in tiles {
        if let Some(p) = labels.screen(at.translation + Vec3::new(0.0, 0.05, tile.size.y * 0.3)) {
            labels.text_kept(p, &tile.square.to_string(), 10.0, faint);
        }
    }
    for (t, at) in tokens {
        let mark = name(t.side).chars().next().unwrap_or('?');
        let words = match &t.pieces {
            Some(p) => format!("{mark}{}: {}", t.number, pieces_words(p)),
            None => format!("{mark}{}", t.number),
        };
        if let Some(p) = labels.screen(at.translation + Vec3::Y * 0.15) {
            labels.boxed(p, words, 12.0, egui::Color32::from_black_alpha(190));
        }
    }
    for (tray, at) in trays {
        if let Some(p) = labels.screen(at.translation + Vec3::Y * 0.1) {
            labels.boxed(
                p,
                format!(
                    "{} reserve: {} counter{}",
                    name(tray.side),
                    tray.count,
                    if tray.count == 1 { "" } else { "s" }
                ),
                12.5,
                egui::Color32::from_black_alpha(170),
            );
        }
    }
}
