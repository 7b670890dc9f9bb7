//! Sealed orders on the units (R106-R110): where a marker may lie on a
//! unit, how many it holds, whether a side's orders are whole, and which
//! side names its action first in a step.

use sandtable_core::dice::{Dice, DiceOut};

use crate::army::{DECOYS, Marker, Placed, Slot};
use crate::data::Ability;

/// The places a marker may lie on a standing unit (R107): infantry
/// itself; a vehicle its L slot and each standing weapon's, at most two
/// markers (one after an E hit).
pub fn marker_places(u: &crate::unit::Unit) -> Vec<Slot> {
    use crate::data::Location;
    if !u.vehicle() {
        return vec![Slot::Unit];
    }
    let mut out = vec![Slot::Locomotion];
    for w in 0..u.data.weapons.len().min(2) as u8 {
        if u.hits & Location::Weapon(w).bit() == 0 {
            out.push(Slot::Weapon(w));
        }
    }
    out
}

/// How many markers a standing unit holds at most (R107).
pub fn marker_room(u: &crate::unit::Unit) -> usize {
    use crate::data::Location;
    if !u.vehicle() || u.hits & Location::Equipment.bit() != 0 {
        1
    } else {
        2
    }
}

/// Checks a side's sealed orders (R107) given `count` numbered markers
/// this turn: markers 1 to k with no gap (k up to the count) and the 2
/// decoys, each on a standing unit of the side; infantry one marker, on
/// itself; a vehicle two (one after an E hit), one a slot, on L or a
/// weapon still standing; every automatic-order unit a numbered one.
pub fn check_orders(
    units: &[crate::unit::Unit],
    side: u8,
    count: u8,
    placed: &[Placed],
) -> Result<(), crate::event::CommandError> {
    use crate::data::Location;
    let refuse = |reason: String| {
        Err(crate::event::CommandError {
            ruling: 107,
            reason,
        })
    };
    let mut numbers: Vec<u8> = placed
        .iter()
        .filter_map(|p| match p.marker {
            Marker::Numbered(n) => Some(n),
            Marker::Decoy => None,
        })
        .collect();
    numbers.sort_unstable();
    if let Some(w) = numbers.windows(2).find(|w| w[0] == w[1]) {
        return refuse(format!("marker {} is placed twice", w[0]));
    }
    if let Some((k, n)) = numbers
        .iter()
        .enumerate()
        .find(|(k, n)| **n != *k as u8 + 1)
    {
        return refuse(format!(
            "marker {n} is placed without marker {}: markers run from 1 with no gap",
            k + 1
        ));
    }
    if numbers.len() > usize::from(count) {
        return refuse(format!(
            "{} numbered markers: the side has {count} this turn, as R106 counts them",
            numbers.len()
        ));
    }
    for p in placed {
        let Some(u) = units.get(p.unit) else {
            return refuse(format!("no unit {} to hold a marker", p.unit));
        };
        if !u.alive || u.side != side {
            return refuse(format!("{} is no standing unit of the side", u.tag));
        }
        let mine: Vec<&Placed> = placed.iter().filter(|q| q.unit == p.unit).collect();
        if !u.vehicle() {
            if p.slot != Slot::Unit {
                return refuse(format!("{} is infantry: its marker lies on it", u.tag));
            }
            if mine.len() > 1 {
                return refuse(format!(
                    "{} holds {} markers: infantry holds one",
                    u.tag,
                    mine.len()
                ));
            }
            continue;
        }
        let most = if u.hits & Location::Equipment.bit() != 0 {
            1
        } else {
            2
        };
        if mine.len() > most {
            return refuse(format!(
                "{} holds {} markers: a vehicle holds {most}{}",
                u.tag,
                mine.len(),
                if most == 1 { " after an E hit" } else { "" }
            ));
        }
        if mine.iter().filter(|q| q.slot == p.slot).count() > 1 {
            return refuse(format!("{} has two markers on one slot", u.tag));
        }
        match p.slot {
            Slot::Unit => {
                return refuse(format!(
                    "{} is a vehicle: its markers lie on L or a weapon",
                    u.tag
                ));
            }
            Slot::Locomotion => {}
            Slot::Weapon(w) => {
                if usize::from(w) >= u.data.weapons.len() || u.hits & Location::Weapon(w).bit() != 0
                {
                    return refuse(format!("{} has no standing weapon A{}", u.tag, w + 1));
                }
            }
        }
    }
    // The 2 decoys, or as many as the side has places left for: a side
    // of few units cannot lay them all.
    let room: usize = units
        .iter()
        .filter(|u| u.alive && u.side == side)
        .map(|u| marker_places(u).len().min(marker_room(u)))
        .sum();
    let want = usize::from(DECOYS).min(room.saturating_sub(numbers.len()));
    let decoys = placed.iter().filter(|p| p.marker == Marker::Decoy).count();
    if decoys != want {
        return refuse(if want == usize::from(DECOYS) {
            format!("{decoys} decoys: a side places its {DECOYS}")
        } else {
            format!("{decoys} decoys: the side has places for {want} beside its numbered markers")
        });
    }
    for (k, u) in units.iter().enumerate() {
        if u.alive
            && u.side == side
            && u.data.has(Ability::AutomaticOrder)
            && !placed
                .iter()
                .any(|p| p.unit == k && matches!(p.marker, Marker::Numbered(_)))
        {
            return refuse(format!(
                "{} has an automatic order: it holds a numbered marker",
                u.tag
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod order_tests {
    use super::*;
    use crate::data::Faction;
    use crate::setup::{Setup, SideSetup, UnitSetup};

    fn units() -> Vec<crate::unit::Unit> {
        let unit = UnitSetup::at_x;
        let setup = Setup {
            sides: vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)],
            units: vec![
                unit("T1", "lg_trooper", 0, 100),
                unit("T2", "lg_trooper", 0, 200),
                unit("O1", "lg_orion", 0, 400),
                unit("D1", "zr_drone", 1, 600),
                unit("K1", "zr_cluster", 1, 700),
                unit("K2", "zr_cluster", 1, 800),
            ],
            ..Setup::default()
        };
        crate::Game::new(&setup, Dice::seeded(1))
            .expect("valid")
            .units()
            .to_vec()
    }

    fn on(unit: usize, slot: Slot, marker: Marker) -> Placed {
        Placed { unit, slot, marker }
    }

    #[test]
    fn r107_markers_run_from_one_with_decoys_one_on_infantry_and_a_slot_each_on_vehicles() {
        let u = units();
        use Marker::{Decoy, Numbered as N};
        let good = [
            on(0, Slot::Unit, N(1)),
            on(2, Slot::Locomotion, N(2)),
            on(2, Slot::Weapon(1), N(3)),
            on(1, Slot::Unit, Decoy),
            on(0, Slot::Unit, Decoy),
        ];
        // T1 holds two: refused; with T1's decoy moved, fine.
        let e = check_orders(&u, 0, 4, &good).unwrap_err().to_string();
        assert_eq!(e, "T1 holds 2 markers: infantry holds one (R107)");
        let mut good = good;
        good[4] = on(2, Slot::Weapon(0), Decoy);
        let e = check_orders(&u, 0, 4, &good).unwrap_err().to_string();
        assert!(e.contains("O1 holds 3 markers: a vehicle holds 2"), "{e}");
        let same_slot = [
            on(0, Slot::Unit, N(1)),
            on(2, Slot::Locomotion, N(2)),
            on(1, Slot::Unit, Decoy),
            on(2, Slot::Locomotion, Decoy),
        ];
        assert!(
            check_orders(&u, 0, 4, &same_slot)
                .unwrap_err()
                .to_string()
                .contains("two markers on one slot")
        );
        let ok = [
            on(0, Slot::Unit, N(1)),
            on(2, Slot::Locomotion, N(2)),
            on(2, Slot::Weapon(1), Decoy),
            on(1, Slot::Unit, Decoy),
        ];
        assert_eq!(check_orders(&u, 0, 4, &ok), Ok(()));
        // A gap, too many numbered markers, too few decoys.
        let gap = [
            on(0, Slot::Unit, N(2)),
            on(1, Slot::Unit, Decoy),
            on(2, Slot::Locomotion, Decoy),
        ];
        assert_eq!(
            check_orders(&u, 0, 4, &gap).unwrap_err().to_string(),
            "marker 2 is placed without marker 1: markers run from 1 with no gap (R107)"
        );
        let many = [
            on(0, Slot::Unit, N(1)),
            on(1, Slot::Unit, N(2)),
            on(2, Slot::Locomotion, N(3)),
            on(2, Slot::Weapon(0), Decoy),
        ];
        assert!(
            check_orders(&u, 0, 2, &many)
                .unwrap_err()
                .to_string()
                .contains("3 numbered markers: the side has 2")
        );
        // Four places, three numbered: room for one decoy alone.
        assert_eq!(check_orders(&u, 0, 4, &many), Ok(()));
        let few = [
            on(0, Slot::Unit, N(1)),
            on(2, Slot::Locomotion, N(2)),
            on(1, Slot::Unit, Decoy),
        ];
        assert_eq!(
            check_orders(&u, 0, 4, &few).unwrap_err().to_string(),
            "1 decoys: a side places its 2 (R107)"
        );
        // The drone's automatic order needs a numbered marker.
        let zirl = [on(3, Slot::Unit, Decoy), on(4, Slot::Unit, Decoy)];
        assert_eq!(
            check_orders(&u, 1, 2, &zirl).unwrap_err().to_string(),
            "D1 has an automatic order: it holds a numbered marker (R107)"
        );
        let zirl = [
            on(3, Slot::Unit, N(1)),
            on(4, Slot::Unit, Decoy),
            on(5, Slot::Unit, Decoy),
        ];
        assert_eq!(check_orders(&u, 1, 2, &zirl), Ok(()));
    }
}

/// Which side names its action first in a step (R110): the owner of the
/// active unit with the lower Movement as it is now (0 without L); on a
/// tie a die, 1 to 3 the first seat. `a` and `b` are the two active
/// units, of sides 0 and 1. The side, and the die rolled if one was.
pub fn first_namer(
    a: &crate::unit::Unit,
    b: &crate::unit::Unit,
    dice: &mut Dice,
) -> Result<(u8, Option<u8>), DiceOut> {
    use std::cmp::Ordering;
    match a.movement().cmp(&b.movement()) {
        Ordering::Less => Ok((a.side, None)),
        Ordering::Greater => Ok((b.side, None)),
        Ordering::Equal => {
            let roll = dice.d6()?;
            Ok((u8::from(roll > 3), Some(roll)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r110_the_slower_unit_s_owner_names_first_and_a_die_breaks_a_tie() {
        use crate::data::Faction;
        use crate::setup::{Setup, SideSetup, UnitSetup};
        let unit = |data: &str, side: u8, x: i32| UnitSetup::at_x("", data, side, x);
        let setup = Setup {
            sides: vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)],
            units: vec![
                unit("lg_trooper", 0, 100),   // Movement 4
                unit("zr_cluster", 1, 200),   // 5
                unit("zr_processor", 1, 300), // 4
            ],
            ..Setup::default()
        };
        let g = crate::Game::new(&setup, Dice::seeded(1)).expect("valid");
        let u = g.units();
        let mut none = Dice::scripted(Vec::new());
        assert_eq!(first_namer(&u[0], &u[1], &mut none), Ok((0, None)));
        assert_eq!(first_namer(&u[1], &u[0], &mut none), Ok((0, None)));
        // Equal Movement: a 3 gives the first seat, a 4 the second.
        assert_eq!(
            first_namer(&u[0], &u[2], &mut Dice::scripted(vec![3])),
            Ok((0, Some(3)))
        );
        assert_eq!(
            first_namer(&u[0], &u[2], &mut Dice::scripted(vec![4])),
            Ok((1, Some(4)))
        );
        assert!(
            first_namer(&u[0], &u[2], &mut none).is_err(),
            "out of dice (R30)"
        );
    }
}
