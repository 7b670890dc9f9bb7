//! The decisions of a Frontiers turn that no point of the table makes, on
//! the table by the unit they concern and by a key: naming the active
//! unit's action (M move, F shoot, C card, X special, R110; S is the
//! camera's), passing an
//! action, a window or a Reserve (P, R111, R112, R132), and the unit's
//! other commands (its specials, a medic's or mechanic's care, a crate
//! handed or a diskette tossed, a rapid-fire split, a card of its window;
//! keys 1 to 9). A choice with several ways offers them as buttons; a
//! card that lies at a point (a smoke screen, R152) waits for the click
//! that says where. The rules' legal list decides every choice: the table
//! only groups it.

use bevy::prelude::*;
use sandtable_core::game::{GameState, Seat};
use sandtable_frontiers::command::Kind;
use sandtable_frontiers::data::CARDS;
use sandtable_frontiers::{Command, Game};

use super::hand::SkirmishPick;
use super::play::SkirmishInput;
use super::table::ActiveSkirmish;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            read_choice_keys.in_set(crate::schedule::AppSystems::RecordInput),
            select_sole_actor
                .in_set(crate::schedule::AppSystems::SyncTable)
                .after(super::hand::forget_pick),
        )
            .distributive_run_if(resource_exists::<ActiveSkirmish>)
            .distributive_run_if(in_state(crate::mode::Mode::Play)),
    );
}

/// A decision that only one of the person's units may act in selects
/// it: a click on the table is then where it moves or what it shoots at.
fn select_sole_actor(
    active: Res<ActiveSkirmish>,
    seats: Res<crate::session::Seats>,
    mut pick: ResMut<SkirmishPick>,
    mut seen: Local<Option<(u64, u64)>>,
) {
    let now = (active.id, active.revision);
    if *seen == Some(now) {
        return;
    }
    *seen = Some(now);
    if pick.unit.is_some() {
        return;
    }
    if let Ok((_, legal)) = super::play::person_legal(&active, &seats)
        && let Some(i) = sole_actor(active.game.game(), &legal)
    {
        pick.unit = Some(i);
    }
}

pub(super) fn window_plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        draw_choice_bar
            .in_set(crate::hud::HudStage::Labels)
            .run_if(resource_exists::<ActiveSkirmish>)
            .run_if(in_state(crate::mode::Mode::Play))
            .run_if(crate::hud::curtain_down::<super::table::Frontiers>),
    );
}

/// What a choice does when it is taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Does {
    /// Plays the command.
    Play(Command),
    /// Offers these commands to choose among.
    Ways(Vec<Command>),
    /// Waits for the click on the table that says where the command's
    /// point lies (a smoke screen's cloud, R152).
    Place(Command),
}

/// One decision offered on the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Its words on the button.
    pub words: String,
    /// Its key.
    pub key: char,
    /// What it does.
    pub does: Does,
}

/// The choices the decision owed offers, and the unit they concern.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    /// The unit, by its index in the game: the one whose action is named,
    /// the one selected or the only one that may act.
    pub unit: Option<usize>,
    /// What is asked, in a few words.
    pub title: String,
    /// The choices, in the order of their keys.
    pub list: Vec<Choice>,
}

/// The unit a command concerns: the one acting, named, let go or whose
/// card action it is.
fn owner(command: &Command) -> Option<sandtable_frontiers::Tag> {
    match *command {
        Command::Name { unit, .. } => Some(unit),
        Command::Pass { unit } => unit,
        Command::Card { unit, .. } => unit,
        _ => command.unit(),
    }
}

/// Whether a click on the table makes the command: a move or a charge
/// to where it ends, a shot or a grenade at the enemy clicked, a grenade
/// through the window clicked, a smoke bomb's or a drop's point, a unit
/// deployed where it stands; orders laid on units; a Preparation's cards
/// clicked in the hand.
fn by_a_click(command: &Command) -> bool {
    matches!(
        command,
        Command::Move { .. }
            | Command::Charge { .. }
            | Command::Shoot { .. }
            | Command::Grenade { .. }
            | Command::Window { .. }
            | Command::Smoke { .. }
            | Command::Land { .. }
            | Command::Deploy { .. }
            | Command::Orders { .. }
            | Command::Discard { .. }
    )
}

/// The key of an action's kind when it is named (R110).
pub fn kind_key(kind: Kind) -> char {
    match kind {
        Kind::Move => 'm',
        Kind::Shoot => 'f',
        Kind::Card => 'c',
        Kind::Special => 'x',
    }
}

/// The key that passes (R111, R112, R132).
pub const PASS_KEY: char = 'p';

/// The group a command offered on the table falls in, with its words:
/// a card by its id, a special by its word, every other by its first
/// word (`heal`, `hand`, `rapid`, `pass`).
fn group(game: &Game, command: &Command) -> String {
    // A word with its first letter capital, for a button.
    let capital = |w: &str| format!("{}{}", w[..1].to_uppercase(), &w[1..]);
    match command {
        Command::Name { kind, .. } => capital(kind.word()),
        Command::Card { card, .. } => {
            format!(
                "Card {}",
                CARDS.get(usize::from(*card)).map_or("?", |c| c.id)
            )
        }
        Command::Special { what, .. } => capital(what.word()),
        Command::Pass { unit: Some(u) } => format!("Let {u}'s Reserve go"),
        Command::Pass { unit: None } => match game.flow().phase {
            sandtable_frontiers::flow::Phase::Window => "Pass the window".to_owned(),
            _ => "Pass".to_owned(),
        },
        Command::Pick { .. } => "Pick who takes the step".to_owned(),
        other => capital(other.to_string().split_whitespace().next().unwrap_or("?")),
    }
}

/// The unit whose action the person may take now without picking it:
/// the only one of theirs the legal list lets act.
pub fn sole_actor(game: &Game, legal: &[sandtable_core::game::Legal<Command>]) -> Option<usize> {
    let mut units = legal
        .iter()
        .filter(|l| !matches!(l.command, Command::Deploy { .. } | Command::Orders { .. }))
        .filter_map(|l| l.command.unit());
    let first = units.next()?;
    units
        .all(|u| u == first)
        .then(|| game.find(first))
        .flatten()
}

/// The choices offered to `seat` now: the legal commands no click on
/// the table makes, of the unit picked (else of the only one that may
/// act) and of none, grouped, each with its key.
pub fn choices(game: &Game, seat: Seat, pick: &SkirmishPick) -> Choices {
    use sandtable_frontiers::flow::Phase;
    let mut legal = Vec::new();
    game.legal_into(seat, &mut legal);
    let named = legal.iter().find_map(|l| match l.command {
        Command::Name { unit, .. } => game.find(unit),
        _ => None,
    });
    let acting = legal
        .iter()
        .filter_map(|l| owner(&l.command))
        .filter_map(|t| game.find(t));
    let unit = named
        .or(pick.unit.filter(|i| acting.clone().any(|a| a == *i)))
        .or_else(|| sole_actor(game, &legal));
    let tag = unit.map(|i| game.units()[i].tag);
    // A card window's cards are the side's, whichever unit they name.
    let window = game.flow().phase == Phase::Window;
    let mut groups: Vec<(String, Option<char>, Vec<Command>)> = Vec::new();
    for l in &legal {
        let c = l.command;
        if by_a_click(&c) || (!window && owner(&c).is_some_and(|o| Some(o) != tag)) {
            continue;
        }
        let words = group(game, &c);
        let key = match c {
            Command::Name { kind, .. } => Some(kind_key(kind)),
            Command::Pass { unit: None } => Some(PASS_KEY),
            _ => None,
        };
        match groups.iter_mut().find(|g| g.0 == words) {
            Some(g) => g.2.push(c),
            None => groups.push((words, key, vec![c])),
        }
    }
    let mut digits = ('1'..='9').collect::<Vec<_>>().into_iter();
    let list = groups
        .into_iter()
        .filter_map(|(words, key, mut ways)| {
            let key = match key {
                Some(k) => k,
                None => digits.next()?,
            };
            let does = if ways.len() > 1 {
                Does::Ways(ways)
            } else {
                let c = ways.remove(0);
                match c {
                    // A card that lies at a point: the click says where.
                    Command::Card { at: Some(_), .. } => Does::Place(c),
                    _ => Does::Play(c),
                }
            };
            Some(Choice { words, key, does })
        })
        .collect();
    let title = match (game.flow().phase, tag) {
        (Phase::Name(_), Some(t)) => format!("{t}'s action (R110):"),
        (Phase::Window, _) => match game.flow().window {
            Some(open) => format!("{:?} window (R132):", open.kind),
            None => "Card window (R132):".to_owned(),
        },
        (Phase::Reserve(_), Some(t)) => format!("{t}'s Reserve (R112):"),
        (_, Some(t)) => format!("{t}:"),
        (_, None) => String::new(),
    };
    Choices { unit, title, list }
}

/// A letter or digit key as the character the choices use.
fn key_char(key: KeyCode) -> Option<char> {
    use KeyCode::*;
    Some(match key {
        KeyM => 'm',
        KeyF => 'f',
        KeyC => 'c',
        KeyX => 'x',
        KeyP => 'p',
        Digit1 => '1',
        Digit2 => '2',
        Digit3 => '3',
        Digit4 => '4',
        Digit5 => '5',
        Digit6 => '6',
        Digit7 => '7',
        Digit8 => '8',
        Digit9 => '9',
        _ => return None,
    })
}

/// The input that taking a choice writes.
pub fn take(choice: &Choice) -> SkirmishInput {
    match &choice.does {
        Does::Play(c) => SkirmishInput::Command(*c),
        Does::Ways(ways) => SkirmishInput::Offer(ways.clone()),
        Does::Place(c) => SkirmishInput::Place(*c),
    }
}

/// A choice's key, pressed while the keyboard is the table's, takes it.
fn read_choice_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Option<Res<crate::session::keys::KeyboardTaken>>,
    active: Res<ActiveSkirmish>,
    seats: Res<crate::session::Seats>,
    pick: Res<SkirmishPick>,
    mut out: MessageWriter<SkirmishInput>,
) {
    let Some(keys) = keys else {
        return;
    };
    if taken.is_some_and(|t| t.0) || active.curtain() {
        return;
    }
    // Ctrl+C and the like belong to the panel and the system.
    if keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::AltLeft,
        KeyCode::AltRight,
    ]) {
        return;
    }
    let pressed: Vec<char> = keys
        .get_just_pressed()
        .filter_map(|k| key_char(*k))
        .collect();
    if pressed.is_empty() {
        return;
    }
    let Some(seat) = super::play::person_seat(&active, &seats) else {
        return;
    };
    let offered = choices(active.game.game(), seat, &pick);
    for key in pressed {
        if let Some(choice) = offered.list.iter().find(|c| c.key == key) {
            out.write(take(choice));
        }
    }
}

/// The choices as a row of buttons under the unit they concern (at the
/// table's foot when none), each with its key; and the ways the last
/// click or choice offered.
fn draw_choice_bar(
    mut contexts: bevy_egui::EguiContexts,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    active: Res<ActiveSkirmish>,
    seats: Res<crate::session::Seats>,
    pick: Res<SkirmishPick>,
    mut out: MessageWriter<SkirmishInput>,
    mut shown: Local<Option<((u64, u64), Option<usize>, Choices)>>,
) -> Result {
    use bevy_egui::egui;
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_at)) = camera.single() else {
        return Ok(());
    };
    // The seat alone: the legal list is worked out with the choices,
    // when the game or the pick changed, not every frame.
    let Some(seat) = super::play::person_seat(&active, &seats) else {
        return Ok(());
    };
    let game = active.game.game();
    // Worked out again only when the game or the pick changed.
    let key = ((active.id, active.revision), pick.unit);
    if shown.as_ref().is_none_or(|s| (s.0, s.1) != key) {
        *shown = Some((key.0, key.1, choices(game, seat, &pick)));
    }
    let offered = &shown.as_ref().expect("worked out").2;
    if offered.list.is_empty() && pick.ways.is_empty() && pick.placing.is_none() {
        return Ok(());
    }
    let labels = crate::hud::TableLabels::new(ctx, cam, cam_at);
    let bounds = labels.bounds();
    let table = game.setup().table;
    let under = offered
        .unit
        .and_then(|i| {
            let at = game.units()[i].at;
            labels.screen(super::world_pt(table, at) - Vec3::Y * 0.2)
        })
        .map(|p| p + egui::vec2(-60.0, 24.0))
        .unwrap_or(egui::pos2(bounds.center().x - 120.0, bounds.max.y - 90.0));
    let at = egui::pos2(
        under
            .x
            .clamp(bounds.min.x + 4.0, (bounds.max.x - 260.0).max(bounds.min.x)),
        under
            .y
            .clamp(bounds.min.y + 4.0, (bounds.max.y - 70.0).max(bounds.min.y)),
    );
    egui::Area::new(egui::Id::new("skirmish-choices"))
        .fixed_pos(at)
        // Above the units' labels.
        .order(egui::Order::Tooltip)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(420.0);
                if let Some(c) = pick.placing {
                    ui.label(format!("click where `{c}` lies; Escape lets go"));
                }
                if !offered.title.is_empty() && !offered.list.is_empty() {
                    ui.label(egui::RichText::new(&offered.title).strong());
                }
                ui.horizontal_wrapped(|ui| {
                    for choice in &offered.list {
                        let hover = match &choice.does {
                            Does::Play(c) => super::hand::preview_words(game, seat, c),
                            Does::Ways(ways) => format!("{} ways to choose among", ways.len()),
                            Does::Place(c) => format!("`{c}`: then click where it lies"),
                        };
                        if ui
                            .button(format!(
                                "{} [{}]",
                                choice.words,
                                choice.key.to_ascii_uppercase()
                            ))
                            .on_hover_text(hover)
                            .clicked()
                        {
                            out.write(take(choice));
                        }
                    }
                });
                if !pick.ways.is_empty() {
                    ui.label("Choose:");
                    ui.horizontal_wrapped(|ui| {
                        for way in &pick.ways {
                            if ui
                                .button(egui::RichText::new(way.to_string()).monospace())
                                .on_hover_text(super::hand::preview_words(game, seat, way))
                                .clicked()
                            {
                                out.write(SkirmishInput::Command(*way));
                            }
                        }
                    });
                }
            });
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_key_and_none_is_the_pass_key() {
        let keys: Vec<char> = Kind::ALL.iter().map(|k| kind_key(*k)).collect();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len());
        assert!(!keys.contains(&PASS_KEY));
        for k in keys.iter().chain([&PASS_KEY]) {
            let code = [
                KeyCode::KeyM,
                KeyCode::KeyF,
                KeyCode::KeyC,
                KeyCode::KeyX,
                KeyCode::KeyP,
            ]
            .into_iter()
            .find(|c| key_char(*c) == Some(*k));
            assert!(code.is_some(), "the key {k} is read");
        }
    }
}
