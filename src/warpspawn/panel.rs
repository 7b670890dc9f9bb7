//! The battle's panel and labels: whose turn and which phase, what is owed,
//! the victory points; the count of men on each formation and piece.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_warpspawn::Side;

use super::looks::Slot;
use super::table::{ActiveBattle, BattlePiece, Formation, HoveredHex, describe_hex};
use crate::hud::{HudStage, PanelWidth, TableLabels};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        (
            draw_battle_panel.in_set(HudStage::Panels),
            label_battle.in_set(HudStage::Labels),
        )
            .run_if(resource_exists::<ActiveBattle>),
    );
}

fn side_colour(active: &ActiveBattle, side: Side) -> egui::Color32 {
    let [r, g, b] = active
        .battle
        .colours
        .get(usize::from(side.0))
        .map_or([200, 200, 200], |c| c.0);
    egui::Color32::from_rgb(r, g, b)
}

/// The phase bar: the battle, the turn, the side to move and its phase,
/// what is owed and by whom, and each side's victory points (R81).
fn draw_battle_panel(
    mut contexts: EguiContexts,
    battle: Res<ActiveBattle>,
    mut width: ResMut<PanelWidth>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &battle.game;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "battle-root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let panel = egui::Panel::right("battle-panel")
        .resizable(false)
        .exact_size(300.0)
        .show(&mut root, |ui| {
            ui.heading(&battle.battle.name);
            let side = game.active();
            ui.horizontal(|ui| {
                ui.label(format!(
                    "Turn {} of {}:",
                    game.turn(),
                    battle.battle.setup.turns
                ));
                ui.colored_label(side_colour(&battle, side), game.name(side));
                ui.label(format!("{:?} phase", game.phase()));
            });
            if let Some(step) = game.owed() {
                ui.colored_label(egui::Color32::GOLD, game.owed_words(step));
            }
            ui.separator();
            ui.label(egui::RichText::new("Victory points (R81)").strong());
            for s in [Side(0), Side(1)] {
                ui.horizontal(|ui| {
                    ui.colored_label(side_colour(&battle, s), game.name(s));
                    ui.label(game.vp(s).to_string());
                });
            }
            ui.separator();
            ui.label(
                "The battle is shown here; playing it with the mouse is not built yet. \
                 `sandtable-cli play` plays it move by move.",
            );
        });
    width.0 = panel.response.rect.width();
    Ok(())
}

/// Each formation's men ("16 inf", "8 cav") and each piece's count over it.
fn label_battle(
    mut contexts: EguiContexts,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    formations: Query<(&Formation, &Transform)>,
    pieces: Query<(&BattlePiece, &Transform)>,
    battle: Res<ActiveBattle>,
    hovered: Res<HoveredHex>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_at)) = camera.single() else {
        return Ok(());
    };
    let labels = TableLabels::new(ctx, cam, cam_at);
    for (f, at) in &formations {
        let words = match (f.infantry, f.cavalry) {
            (i, 0) => format!("{i} inf"),
            (0, c) => format!("{c} cav"),
            (i, c) => format!("{i} inf {c} cav"),
        };
        // At the hex's far side, clear of the figures.
        if let Some(p) = labels.screen(at.translation + Vec3::new(0.0, 0.05, -0.5)) {
            labels.boxed(p, words, 11.0, egui::Color32::from_black_alpha(170));
        }
    }
    for (piece, at) in &pieces {
        let words = match piece.slot {
            Slot::Officer if piece.count > 1 => format!("{} officers", piece.count),
            Slot::Routers => format!("{} routing", piece.count),
            Slot::Prisoners => format!("{} prisoners", piece.count),
            Slot::Unarmed => format!("{} unarmed", piece.count),
            _ => continue,
        };
        if let Some(p) = labels.screen(at.translation + Vec3::Y * 0.2) {
            labels.boxed(p, words, 11.0, egui::Color32::from_black_alpha(170));
        }
    }
    // What the hovered hex holds, below it.
    if let Some(hex) = hovered.0 {
        let map = battle.game.battle().map;
        if let Some(p) = labels.screen(super::hex_center(map, hex)) {
            labels.boxed(
                p + egui::vec2(0.0, 34.0),
                describe_hex(&battle.game, hex),
                13.0,
                egui::Color32::from_black_alpha(200),
            );
        }
    }
    Ok(())
}
