//! The commands the Frontiers bots weigh: the points a move is tried
//! toward, the candidates of each listed family, a card's worth and when
//! it is played (R105, R152), the sealed orders (R106, R107), the action
//! named (R110) and the Reserve (R112), and the greedy's choice among
//! them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{GameState, Legal, Seat, Spot};
use sandtable_frontiers::army::Slot;
use sandtable_frontiers::command::{Kind, Part};
use sandtable_frontiers::crates::CrateState;
use sandtable_frontiers::data::{Ability, CARDS, Window};
use sandtable_frontiers::flow::Phase;
use sandtable_frontiers::game::GRENADE_BONUS;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{TerrainKind, Victory};
use sandtable_frontiers::templates::SMALL_MM;
use sandtable_frontiers::{Command, Game, orders};

use super::worth::{
    Shots, attack_loss, balance_with, best_shot, mm, nearest_enemy, shot_take, side_of,
    teleprinter, template_take,
};
use super::{DRAWN, ROLLS, SHOOT_MIN, view_hash};
use crate::mix;

/// What a marker on a unit that shoots in the Reserve anyway is worth,
/// of its shot (R112).
const RESERVE_SHARE: f32 = 0.3;

/// Points worth trying for unit `i`: toward the nearest enemy, into each
/// vegetation and behind each light structure within its reach (the
/// side away from the enemy), and toward the crates and the diskette.
fn wanted_points(game: &Game, i: usize) -> Vec<Pt> {
    let units = game.units();
    let u = &units[i];
    let setup = game.setup();
    let reach = f64::from(u.movement()) * f64::from(setup.switches.lns_mm);
    let mut out = Vec::new();
    let enemy = nearest_enemy(game, i).map(|(_, t)| units[t].at);
    if let Some(e) = enemy {
        out.push(e);
    }
    let near = |p: Pt| f64::from(mm(p, u.at)) <= reach + 60.0;
    for t in &setup.terrain {
        let n = t.corners.len().max(1) as i32;
        let c = Pt::new(
            t.corners.iter().map(|p| p.x).sum::<i32>() / n,
            t.corners.iter().map(|p| p.y).sum::<i32>() / n,
        );
        if !near(c) {
            continue;
        }
        match t.kind {
            TerrainKind::Vegetation | TerrainKind::Crater => out.push(c),
            TerrainKind::LightStructure => {
                // Behind it: past its centre, away from the enemy.
                if let Some(e) = enemy {
                    let (dx, dy) = (f64::from(c.x - e.x), f64::from(c.y - e.y));
                    let d = dx.hypot(dy).max(1.0);
                    let r = f64::from(u.data.base.size_mm().1) / 2.0 + 8.0;
                    out.push(Pt::new(
                        c.x + (dx / d * r).round() as i32,
                        c.y + (dy / d * r).round() as i32,
                    ));
                }
            }
            _ => {}
        }
    }
    for c in game.crates() {
        if c.state == CrateState::Lying {
            out.push(c.at);
        }
    }
    if setup.victory == Victory::AttackDefense && setup.attacker == u.side {
        out.extend(setup.objectives.iter().copied());
    }
    if let Some(d) = game.diskette() {
        match d.carrier {
            None => out.push(d.at),
            // The carrier heads for the teleprinter's space (R147).
            Some(c) if usize::from(c) == i => out.extend(teleprinter(game)),
            Some(_) => {}
        }
    }
    out
}

fn spot(p: Pt) -> Option<Spot> {
    Some(Spot::Point {
        x_mm: i16::try_from(p.x).ok()?,
        y_mm: i16::try_from(p.y).ok()?,
    })
}

/// The candidates of `seat`: each listed family, [`DRAWN`] members of
/// each move family and of each deployment, a move or a deployment
/// toward each of the unit's [`wanted_points`], and a rapid-fire shot's
/// splits.
pub fn candidates(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<Command> {
    let mut legal: Vec<Legal<Command>> = Vec::new();
    game.legal_into(seat, &mut legal);
    candidates_of(game, seat, &legal, rng)
}

/// [`candidates`] of the listed families `legal`.
fn candidates_of(
    game: &Game,
    seat: Seat,
    legal: &[Legal<Command>],
    rng: &mut ChaCha8Rng,
) -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    let push = |c: Command, out: &mut Vec<Command>| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for l in legal {
        push(l.command, &mut out);
        let (drawn, wanted) = match l.command {
            Command::Move { unit, .. } | Command::Deploy { unit, .. } => {
                (DRAWN, game.find(unit).map(|i| wanted_points(game, i)))
            }
            Command::Shoot { .. } => (2, None),
            _ => (0, None),
        };
        let mut members = Vec::new();
        game.sample_into(seat, &l.command, drawn, rng, &mut members);
        for p in wanted.unwrap_or_default() {
            if let Some(c) = spot(p).and_then(|s| game.nearest(seat, &l.command, s)) {
                members.push(c);
            }
        }
        for c in members {
            if game.check(seat, &c).is_ok() {
                push(c, &mut out);
            }
        }
    }
    out
}

/// What `command` is expected to destroy at once, in AP, where it is an
/// attack whose dice roll later (a shot, sealed until its windows close:
/// R111, R132) or at once (a grenade, a charge); `None` for any other.
fn attack_take(game: &Game, command: &Command) -> Option<f32> {
    let units = game.units();
    match *command {
        Command::Shoot {
            unit,
            target,
            weapon,
        } => {
            let (i, t) = (game.find(unit)?, game.find(target)?);
            Some(shot_take(game, i, t, weapon).unwrap_or(0.0))
        }
        Command::Rapid { unit, parts, n } => {
            let i = game.find(unit)?;
            let parts: &[Part] = &parts[..usize::from(n)];
            let aims = game.check_rapid(i, parts).ok()?;
            Some(
                aims.iter()
                    .zip(parts)
                    .map(|((t, aim), p)| {
                        attack_loss(
                            game,
                            *t,
                            i8::try_from(p.bonus).unwrap_or(i8::MAX),
                            aim.total(),
                        )
                    })
                    .sum(),
            )
        }
        Command::Grenade { unit, target } => {
            let (i, t) = (game.find(unit)?, game.find(target)?);
            Some(template_take(
                game,
                units[i].side,
                units[t].at,
                SMALL_MM,
                |_| Some(GRENADE_BONUS),
            ))
        }
        Command::Charge { unit, target, .. } => {
            let (i, t) = (game.find(unit)?, game.find(target)?);
            let bonus = units[i].bonus(0, units[t].armor())?;
            Some(attack_loss(game, t, bonus, 0))
        }
        _ => None,
    }
}

/// The worth of `command` to `seat`, in AP: an attack's expected take,
/// plus what it changes in the [`balance`] (the position after a charge's
/// move; the AP destroyed by anything else that rolls at once, over
/// [`ROLLS`] copies); `None` where it is refused, or where `deadline`
/// passes before a table of shots it needs is worked out. `shots` are
/// `game`'s, and `base` its balance.
fn score(
    game: &Game,
    seat: Seat,
    command: &Command,
    (shots, base): (&Shots, f32),
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Option<f32> {
    let side = side_of(seat);
    if matches!(command, Command::Pass { .. }) {
        return Some(0.0);
    }
    let take = attack_take(game, command);
    if let (Some(take), Command::Shoot { .. } | Command::Rapid { .. }) = (take, command) {
        return Some(take);
    }
    let ap = |g: &Game| {
        let ap = g.ap_destroyed();
        f32::from(ap[usize::from(side)]) - f32::from(ap[usize::from(1 - side)])
    };
    let rolls = if take.is_some() { 1 } else { ROLLS };
    let mut sum = 0.0;
    for k in 0..rolls {
        let mut copy = game.clone();
        copy.reseed(mix(seed, k));
        let dice = copy.dice().position();
        let mut events = Vec::new();
        copy.apply_into(seat, command, &mut events).ok()?;
        let after = balance_with(&copy, &shots.bests_after(game, &copy, deadline)?, side);
        // An attack counted by its odds: only the position's change.
        let worth = match take {
            Some(_) => after - ap(&copy) + ap(game),
            None => after,
        };
        sum += worth;
        if copy.dice().position() == dice {
            // No die rolled (a move): every copy ends alike, and is
            // counted as if weighed.
            for _ in k + 1..rolls {
                sum += worth;
            }
            break;
        }
    }
    Some(sum / rolls as f32 - base + take.unwrap_or(0.0))
}

/// What a card is worth kept in hand (R152): the cards the bots play
/// most, most.
fn card_worth(card: u8) -> f32 {
    match CARDS.get(usize::from(card)).map_or("", |c| c.id) {
        "aim" | "cover" => 5.0,
        "jam" | "reinforce" => 4.0,
        "rally" => 3.0,
        "sprint" => 2.0,
        "resupply" => 1.0,
        _ => 0.0,
    }
}

/// A card worth playing now, from the listed commands (R132, R152):
/// reinforce in the Order phase, resupply in the Preparation, rally on
/// the unmarked unit with the best shot worth [`SHOOT_MIN`] that would
/// not shoot in the Reserve, aim at its own shot and jam at the enemy's,
/// cover on its own unit's hit, sprint on its own unit's move.
fn card_to_play(game: &Game, side: u8, legal: &[Legal<Command>]) -> Option<Command> {
    let flow = game.flow();
    let window = flow.window.map(|o| o.kind);
    let units = game.units();
    let mine = |t: Option<sandtable_frontiers::Tag>| {
        t.and_then(|t| game.find(t))
            .is_some_and(|i| units[i].side == side)
    };
    let shooting = |t: Option<sandtable_frontiers::Tag>| {
        t.and_then(|t| game.find(t)).is_some_and(|i| {
            flow.active
                .iter()
                .any(|a| a.unit == i && !a.done && a.kind == Some(Kind::Shoot))
        })
    };
    let moving = |t: Option<sandtable_frontiers::Tag>| {
        t.and_then(|t| game.find(t)).is_some_and(|i| {
            flow.active
                .iter()
                .any(|a| a.unit == i && !a.done && a.kind == Some(Kind::Move))
        })
    };
    // Rally: the unmarked unit with the best shot, where it would not
    // shoot in the Reserve anyway (R112, R133).
    // The position's shots, worked out (or found kept) only where a rally
    // is offered.
    let shots = std::cell::OnceCell::new();
    let rally = legal
        .iter()
        .filter_map(|l| match l.command {
            Command::Card {
                card,
                unit: Some(t),
                ..
            } if window == Some(Window::Step)
                && CARDS
                    .get(usize::from(card))
                    .is_some_and(|c| c.id == "rally") =>
            {
                let i = game.find(t)?;
                let u = &units[i];
                (u.side == side && !u.data.has(Ability::ReserveShoot)).then(|| {
                    (
                        shots.get_or_init(|| Shots::of(game)).best(game, i),
                        l.command,
                    )
                })
            }
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((v, c)) = rally
        && v >= SHOOT_MIN
    {
        return Some(c);
    }
    legal.iter().map(|l| l.command).find(|c| {
        let Command::Card { card, unit, .. } = *c else {
            return false;
        };
        match CARDS.get(usize::from(card)).map_or("", |c| c.id) {
            "reinforce" => matches!(flow.phase, Phase::Order),
            "resupply" => matches!(flow.phase, Phase::Prepare(_)),
            "aim" => window == Some(Window::Shot) && mine(unit) && shooting(unit),
            "jam" => window == Some(Window::Shot) && !mine(unit) && shooting(unit),
            "cover" => window == Some(Window::Hit) && mine(unit),
            "sprint" => window == Some(Window::Step) && mine(unit) && moving(unit),
            _ => false,
        }
    })
}

/// The Preparation's discard (R105): the listed set whose cards are
/// worth least kept, each card let go for a draw worth about the deck's
/// middling card.
fn discard(legal: &[Legal<Command>]) -> Option<Command> {
    const DRAW: f32 = 2.5;
    legal
        .iter()
        .filter_map(|l| match l.command {
            Command::Discard { cards, n } => Some((
                cards[..usize::from(n)]
                    .iter()
                    .map(|c| DRAW - card_worth(*c))
                    .sum::<f32>(),
                l.command,
            )),
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The orders of `side` (R107): its numbered markers on the places with
/// the best shots (each automatic-order unit's among them), the best
/// first (a vehicle's on the slot of its best
/// weapon, or on L where it has no shot), each automatic-order unit
/// numbered, and its decoys on the places left.
pub(crate) fn orders(game: &Game, side: u8) -> Option<Command> {
    let (numbered, _) = order_places(game, side);
    game.orders_with(side, &numbered)
}

/// Other orders worth weighing against [`orders`]: the first two numbers
/// swapped, the second and third swapped, and the last numbered place
/// (not an automatic-order unit's) given to the best place left.
pub(crate) fn other_orders(game: &Game, side: u8) -> Vec<Command> {
    let (numbered, left) = order_places(game, side);
    let mut out = Vec::new();
    if numbered.len() >= 2 {
        let mut swapped = numbered.clone();
        swapped.swap(0, 1);
        out.extend(game.orders_with(side, &swapped));
    }
    if numbered.len() >= 3 {
        let mut swapped = numbered.clone();
        swapped.swap(1, 2);
        out.extend(game.orders_with(side, &swapped));
    }
    // An automatic-order unit keeps its number (R107).
    let auto = |tag: &sandtable_frontiers::Tag| {
        game.find(*tag)
            .is_some_and(|i| game.units()[i].data.has(Ability::AutomaticOrder))
    };
    let last = numbered.iter().rposition(|(tag, _)| !auto(tag));
    if let (Some(last), Some(next)) = (last, left.first()) {
        let mut other = numbered.clone();
        other[last] = *next;
        out.extend(game.orders_with(side, &other));
    }
    out
}

/// Where a marker lies: a unit and its slot (R107).
type Place = (sandtable_frontiers::Tag, Slot);

/// The places [`orders`] numbers, best first, and the places it may
/// number that it leaves, best first.
fn order_places(game: &Game, side: u8) -> (Vec<Place>, Vec<Place>) {
    let units = game.units();
    let shots = Shots::of(game);
    let mut places: Vec<(f32, f32, usize, Slot)> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        if !u.alive || u.side != side || u.waiting {
            continue;
        }
        let auto = if u.data.has(Ability::AutomaticOrder) {
            1000.0
        } else {
            0.0
        };
        for slot in orders::marker_places(u) {
            let shot = match slot {
                Slot::Weapon(w) => best_shot(game, i, Some(w)).0,
                Slot::Unit => shots.best(game, i),
                Slot::Locomotion => 0.0,
            };
            // A unit that shoots in the Reserve shoots without a marker
            // too (R112): a marker only brings its shot forward.
            let shot = if u.data.has(Ability::ReserveShoot) {
                RESERVE_SHARE * shot
            } else {
                shot
            };
            // A unit without a shot moves first where it is most at risk.
            places.push((auto, shot + 0.01 * shots.worst_at(game, i), i, slot));
        }
    }
    // The automatic-order units' places are taken first, then the best;
    // the numbers go best first.
    places.sort_by(|a, b| (b.0 + b.1).total_cmp(&(a.0 + a.1)));
    let m = usize::from(game.markers_owed(side));
    let mut chosen: Vec<(f32, usize, Slot)> = Vec::new();
    let mut left = Vec::new();
    for (_, worth, i, slot) in places {
        let held = chosen.iter().filter(|c| c.1 == i).count();
        if chosen.len() == m || held >= orders::marker_room(&units[i]) {
            left.push((units[i].tag, slot));
        } else {
            chosen.push((worth, i, slot));
        }
    }
    chosen.sort_by(|a, b| b.0.total_cmp(&a.0));
    let numbered = chosen.iter().map(|c| (units[c.1].tag, c.2)).collect();
    (numbered, left)
}

/// The action an active unit names (R110): Shoot where it has a shot
/// worth [`SHOOT_MIN`], else Move, else what it may.
fn name(game: &Game, side: u8, legal: &[Legal<Command>]) -> Option<Command> {
    let named = |kind: Kind| {
        legal
            .iter()
            .map(|l| l.command)
            .find(|c| matches!(c, Command::Name { kind: k, .. } if *k == kind))
    };
    let a = game
        .flow()
        .active
        .iter()
        .find(|a| a.side == side && a.kind.is_none() && !a.done)?;
    let only = match a.slot {
        Slot::Weapon(w) => Some(w),
        _ => None,
    };
    if best_shot(game, a.unit, only).0 >= SHOOT_MIN
        && let Some(c) = named(Kind::Shoot)
    {
        return Some(c);
    }
    named(Kind::Move)
        .or_else(|| named(Kind::Shoot))
        .or_else(|| named(Kind::Special))
        .or_else(|| legal.first().map(|l| l.command))
}

/// The candidates of `seat` with their worth ([`score`]), best first;
/// ties keep the candidates' order.
pub fn ranked(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<(f32, Command)> {
    ranked_by(game, seat, &listed(game, seat, None), rng, None)
}

/// [`ranked`] of the families `legal` ([`listed`]), its weighing stopped
/// at `deadline` where one is given: the candidates weighed by then,
/// best first.
pub(crate) fn ranked_by(
    game: &Game,
    seat: Seat,
    legal: &[Legal<Command>],
    rng: &mut ChaCha8Rng,
    deadline: Option<std::time::Instant>,
) -> Vec<(f32, Command)> {
    let side = side_of(seat);
    let Some(shots) = Shots::of_by(game, deadline) else {
        return Vec::new();
    };
    let base = balance_with(game, &shots.bests(game), side);
    let seed: u64 = rng.random();
    let mut out: Vec<(f32, Command)> = candidates_of(game, seat, legal, rng)
        .into_iter()
        .take_while(|_| deadline.is_none_or(|d| std::time::Instant::now() < d))
        .filter_map(|c| Some((score(game, seat, &c, (&shots, base), seed, deadline)?, c)))
        .collect();
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// What `seat` may do now, as the rules list it; in the Reserve, where
/// every unit of the side acts once in the order its player chooses
/// (R112), only the families of the unit to act first ([`reserve_focus`]).
/// Weighing one unit a decision keeps a Reserve of `n` units to `n`
/// weighings of one unit's candidates, where weighing every unit's each
/// time costs `n` times as much.
pub(crate) fn listed(
    game: &Game,
    seat: Seat,
    deadline: Option<std::time::Instant>,
) -> Vec<Legal<Command>> {
    let mut legal: Vec<Legal<Command>> = Vec::new();
    match reserve_focus(game, side_of(seat), deadline) {
        Some(i) => game.legal_of_unit(side_of(seat), i, &mut legal),
        None => game.legal_into(seat, &mut legal),
    }
    legal
}

/// In the Reserve, the unit of `side` to act first: the one with the best
/// shot ([`Shots::best`]) among those that may shoot, so that the best
/// shots go first, else the first of the group (the first too where
/// `deadline` passes before the shots are worked out). `None` elsewhere,
/// or where one unit is left to act.
fn reserve_focus(game: &Game, side: u8, deadline: Option<std::time::Instant>) -> Option<usize> {
    let actors = reserve_group(game, side)?;
    let Some(shots) = Shots::of_by(game, deadline) else {
        return Some(actors[0].0);
    };
    actors
        .iter()
        .map(|(i, kinds, _)| {
            let shot = if kinds.contains(&Kind::Shoot) {
                shots.best(game, *i)
            } else {
                0.0
            };
            (*i, shot)
        })
        .fold(None::<(usize, f32)>, |best, (i, v)| match best {
            Some((_, b)) if v <= b => best,
            _ => Some((i, v)),
        })
        .map(|(i, _)| i)
}

/// A unit that may act now, the kinds it may take and the weapon its
/// marker names, as `Game::actors` gives them.
type Actor = (usize, Vec<Kind>, Option<u8>);

/// In a Reserve with no landing or pick owed, the units of `side` that
/// may act now, where they are two or more (R112): each lists a pass, so
/// the list has more than one family. `None` elsewhere.
pub(crate) fn reserve_group(game: &Game, side: u8) -> Option<Vec<Actor>> {
    if !matches!(game.flow().phase, Phase::Reserve(_))
        || game.pending().is_some()
        || !game.picks().is_empty()
    {
        return None;
    }
    let actors = game.actors(side);
    (actors.len() > 1).then_some(actors)
}

/// The greedy bot's command (see the module doc), on a copy redealt from
/// `seat`'s view (R149).
pub fn greedy(game: &Game, seat: Seat, seed: u64) -> Option<Command> {
    greedy_by(game, seat, seed, None)
}

/// [`greedy`], its weighing of an action's candidates stopped at
/// `deadline` where one is given (the best weighed by then, else the
/// listed command).
pub(crate) fn greedy_by(
    game: &Game,
    seat: Seat,
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Option<Command> {
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, view_hash(game, seat)));
    let mut own = game.clone();
    own.redeal(seat, rng.random());
    choose_by(&own, seat, &mut rng, deadline)
}

/// The greedy choice on a copy whose secrets are the bot's own.
pub(crate) fn choose(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Command> {
    choose_by(game, seat, rng, None)
}

/// [`choose`], with [`ranked_by`]'s deadline.
fn choose_by(
    game: &Game,
    seat: Seat,
    rng: &mut ChaCha8Rng,
    deadline: Option<std::time::Instant>,
) -> Option<Command> {
    let side = side_of(seat);
    let legal = listed(game, seat, deadline);
    // One listed command may still be a family of many (the orders, a
    // unit's move or deployment): only a drop's landing or a pick is
    // taken as listed.
    if legal.is_empty() || game.pending().is_some() || !game.picks().is_empty() {
        return legal.first().map(|l| l.command);
    }
    // Under a time budget, the position's shots (which every choice below
    // reads, and keeps) by the deadline, else the listed command.
    if deadline.is_some() && Shots::of_by(game, deadline).is_none() {
        return legal.first().map(|l| l.command);
    }
    if let Some(c) = card_to_play(game, side, &legal) {
        return Some(c);
    }
    match game.flow().phase {
        Phase::Prepare(_) => discard(&legal),
        Phase::Order => orders(game, side)
            .filter(|c| game.check(seat, c).is_ok())
            .or_else(|| legal.first().map(|l| l.command)),
        Phase::Name(_) => name(game, side, &legal),
        Phase::Window => Some(Command::Pass { unit: None }),
        Phase::Deploy(_) | Phase::Act | Phase::Shots | Phase::Reserve(_) => {
            ranked_by(game, seat, &legal, rng, deadline)
                .first()
                .map(|(_, c)| *c)
                .or_else(|| legal.first().map(|l| l.command))
        }
    }
}
