//! The golden replay: a fixed record of a whole battle (`tests/data/
//! brawl.moves`, random commands on the brawl sample with the seeded dice)
//! is played and the state hash compared with a constant, so that any
//! change to what the rules do shows here. After an intended change of the
//! rules, run this test to read the new hash, check the change is meant,
//! and put the new constant in `GOLDEN`.

use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, GameState};
use sandtable_core::record::Record;
use sandtable_warpspawn::{Command, Game, samples};

const GOLDEN: u64 = 0xd8ca_3339_0831_bbfb;

#[test]
fn the_golden_battle_replays_to_its_hash() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/brawl.moves"
    ))
    .expect("the record");
    let record: Record<Command> = Record::parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut game = Game::new(&samples::brawl(1), Dice::seeded(1)).unwrap();
    for (line, command) in &record.commands {
        game.apply(command)
            .unwrap_or_else(|e| panic!("line {line}: `{command}`: {e}"));
    }
    assert!(
        matches!(GameState::decision(&game), Decision::Over(_)),
        "the record is a whole battle"
    );
    assert_eq!(
        game.state_hash(),
        GOLDEN,
        "the golden battle ends elsewhere: if the rules changed on purpose, put {:#x} in GOLDEN",
        game.state_hash()
    );
}
