//! A battle made from its setup, and read back from its written form: the
//! battle is set out (R60-R64) and its first game turn begins, the system
//! off the map's first (R47).

use sandtable_core::dice::Dice;

use crate::game::{Game, State};
use crate::off_map::OffMap;
use crate::off_map_rules::OffMapRules;
use crate::setup::{Setup, SetupError};

impl<G: OffMapRules> Game<G> {
    /// Checks a setup against every ruling and starts the battle: the first
    /// player as the scenario names it, or by a coin of the dice (R64); the
    /// first game turn opens with the Orders phase of the grid round the
    /// map, in a battle with one (R47).
    pub fn new(setup: &Setup<G>, dice: Dice) -> Result<Game<G>, SetupError> {
        let mut game = Game::set_out(setup, dice)?;
        G::begin_turn(&mut game, &mut Vec::new());
        Ok(game)
    }
}

/// A battle as it is written ([`sandtable_core::wire`]): its setup and its
/// state.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(bound = "")]
pub struct GameForm<G: OffMap> {
    setup: Setup<G>,
    state: State<G>,
}

impl<G: OffMapRules> sandtable_core::wire::Wire for Game<G> {
    type Form = GameForm<G>;

    fn to_form(&self) -> GameForm<G> {
        GameForm {
            setup: self.battle.setup.clone(),
            state: self.state.clone(),
        }
    }

    /// A battle read back: its setup checked as a scenario's is (R60 to
    /// R64, and the grid's R40 to R57) and its map built again from it,
    /// then its state, refused where it does not fit the map (a stack off
    /// it or out of order, a side that is not there, a square off the
    /// ring).
    fn from_form(form: GameForm<G>) -> Result<Game<G>, String> {
        // Any dice: the setup's battle is what is wanted of it.
        let fresh =
            Game::new(&form.setup, Dice::seeded(0)).map_err(|e| format!("its setup: {e}"))?;
        let game = Game {
            battle: fresh.battle.clone(),
            state: form.state,
        };
        game.fits(&fresh)?;
        Ok(game)
    }
}
