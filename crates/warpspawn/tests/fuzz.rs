//! Fuzz targets for the battle's move notation and hex names, on the stable
//! toolchain: any text is read or refused with a reason, never a panic;
//! whatever reads prints back to text that reads the same; and every
//! command the rules can hold prints to text that reads back to it.
//!
//! A short run is part of `cargo test`; a long one takes the number of
//! inputs a target from `SANDTABLE_FUZZ_CASES`, as the scenario crate's.

use proptest::prelude::*;
use sandtable_warpspawn::{Command, Hex, Hexes, Men, Parts, Pick, RoutTo};

fn config(short: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("SANDTABLE_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(short),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

const WORDS: &[&str] = &[
    "fire",
    "march",
    "move",
    "attack",
    "lose",
    "advance",
    "rally",
    "rout",
    "end",
    "from",
    "with",
    "routers",
    "crew",
    "off",
    "surrender",
    "inf",
    "infantry",
    "cav",
    "cavalry",
    "officer",
    "officers",
    "cannon",
    "baggage",
    "flag",
    "prisoners",
    "unarmed",
    "C4",
    "D5",
    "A1",
    "CV100",
    "ZZ702",
    "ZZ703",
    "IV256",
    "A0",
    "C04",
    "0",
    "1",
    "20",
    "65535",
    "65536",
    "-1",
    "é",
    "\u{1b}[31m",
    "",
];

fn sentences() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS.to_vec()), 0..12).prop_map(|w| w.join(" "))
}

fn hex() -> impl Strategy<Value = Hex> {
    (0u8..=100, 0u8..=100).prop_map(|(c, r)| Hex::new(c, r))
}

fn men() -> impl Strategy<Value = Men> {
    (0u16..=30, 0u16..=30)
        .prop_filter("someone", |(i, c)| i + c > 0)
        .prop_map(|(i, c)| Men::new(i, c))
}

fn hexes(most: usize) -> impl Strategy<Value = Hexes> {
    prop::collection::vec(hex(), 1..=most).prop_map(|v| Hexes::from_slice(&v).unwrap())
}

fn commands() -> impl Strategy<Value = Command> {
    let pick = (
        (0u16..=30, 0u16..=30, 0u16..=3),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0u16..=5,
        0u16..=5,
    )
        .prop_map(
            |((inf, cav, officers), cannon, baggage, flag, prisoners, unarmed)| Pick {
                men: Men::new(inf, cav),
                officers,
                cannon,
                baggage,
                flag,
                prisoners,
                unarmed,
            },
        )
        .prop_filter("something is named", |p| !p.is_empty());
    prop_oneof![
        (hex(), hex(), any::<bool>(), prop::option::of(men())).prop_map(
            |(cannon, target, routers, crew)| Command::Fire {
                cannon,
                target,
                routers,
                crew
            }
        ),
        (hex(), hexes(2), prop::option::of(pick)).prop_map(|(from, path, pick)| Command::March {
            from,
            path,
            pick
        }),
        (hex(), hexes(6)).prop_map(|(target, from)| Command::Attack { target, from }),
        (hex(), men()).prop_map(|(hex, men)| Command::Lose { hex, men }),
        (hex(), prop::collection::vec((hex(), men()), 1..=6)).prop_map(|(into, parts)| {
            Command::Advance {
                into,
                from: Parts::from_slice(&parts).unwrap(),
            }
        }),
        (hex(), hex()).prop_map(|(routers, with)| Command::Rally { routers, with }),
        (
            hex(),
            prop_oneof![
                hex().prop_map(RoutTo::Hex),
                Just(RoutTo::Off),
                hex().prop_map(RoutTo::Surrender)
            ]
        )
            .prop_map(|(from, to)| Command::Rout { from, to }),
        Just(Command::End),
    ]
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn any_text_is_read_or_refused_and_what_reads_prints_back(text in sentences()) {
        match text.parse::<Command>() {
            Ok(command) => {
                let printed = command.to_string();
                let again: Command = printed.parse().expect("a printed command reads");
                prop_assert_eq!(again, command);
            }
            Err(e) => prop_assert!(!e.reason.is_empty()),
        }
        if let Ok(hex) = text.parse::<Hex>() {
            prop_assert_eq!(hex.to_string().parse::<Hex>().unwrap(), hex);
        }
    }

    #[test]
    fn every_command_prints_to_text_that_reads_back_to_it(command in commands()) {
        let printed = command.to_string();
        let again: Command = printed.parse().unwrap_or_else(|e| panic!("{printed}: {e}"));
        prop_assert_eq!(again, command, "{}", printed);
    }
}
