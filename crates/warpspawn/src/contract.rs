//! The battle on the game contract ([`GameState`]): what the CLI, the bots
//! and the table read of any system.

use sandtable_core::dice::Dice;
use sandtable_core::game::{
    Applied, Barrier, Decision, Ending, GameState, Legal, Odds, Refusal, Ruling, Seat, Seats, Spot,
    Surface, Viewer, no_dice,
};

use crate::command::CommandError;
use crate::hex::Hex;
use crate::offboard::command::GridCommand;
use crate::offboard::plug::{Command, Event, Game};
use crate::terms::{Outcome, Side};

impl Refusal for CommandError {
    fn ruling(&self) -> Ruling {
        Ruling(self.ruling)
    }
}

fn side(seat: Seat) -> Option<Side> {
    (seat.0 < 2).then_some(Side(seat.0 as u8))
}

/// The side a viewer sees as; `None` for the referee, who sees everything.
/// A seat beyond the battle's two, and the public, are onlookers of no
/// side: they see only what any side sees of the other (R46, R57).
fn viewer_side(viewer: Viewer) -> Option<usize> {
    match viewer {
        Viewer::Player(seat) => Some(seat.index()),
        Viewer::Public => Some(ONLOOKER),
        Viewer::Referee => None,
    }
}

/// The side index of an onlooker: no side's.
const ONLOOKER: usize = 2;

impl Game {
    /// Checks and applies a command of `side`, appending its events; the
    /// barrier says where undo now stops (R31): the start of the player
    /// turn, or a roll.
    pub fn apply_as(
        &mut self,
        side: Side,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Applied, CommandError> {
        if let Command::Grid(grid) = command {
            let barrier = self.apply_grid(side, grid, events)?;
            return Ok(Applied { barrier });
        }
        let (rolled, turn_ended) = self.execute(side, command, events)?;
        let barrier = if turn_ended {
            Some(Barrier::TurnStart)
        } else if rolled {
            Some(Barrier::Roll)
        } else {
            None
        };
        Ok(Applied { barrier })
    }

    /// Checks and applies a command of the side that decides now.
    pub fn apply(&mut self, command: &Command) -> Result<Vec<Event>, CommandError> {
        let side = self.decider().unwrap_or(self.state.active);
        let mut events = Vec::new();
        self.apply_as(side, command, &mut events)?;
        Ok(events)
    }

    /// Replaces the dice with a generator seeded with `seed` (R30), for a
    /// bot's private copy.
    pub fn reseed(&mut self, seed: u64) {
        self.state.dice = Dice::seeded(seed);
    }

    /// Replaces the dice with `dice` (R30), for a bot's private copy that
    /// weighs a command over each roll it may make rather than a sample.
    pub fn set_dice(&mut self, dice: Dice) {
        self.state.dice = dice;
    }
}

impl GameState for Game {
    type Command = Command;
    type Refusal = CommandError;
    type Event = Event;

    fn system(&self) -> &'static str {
        "Warpspawn"
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &str {
        &self.battle.names[seat.index()]
    }

    fn decision(&self) -> Decision {
        match self.state.ending {
            Some((Outcome::Won(s), _)) => Decision::Over(Ending::Won(Seat(u16::from(s.0)))),
            Some((Outcome::Draw, _)) => Decision::Over(Ending::Draw(
                "the sides have equal victory points (R64, R81)",
            )),
            None => match self.grid().and_then(|g| g.sealed()) {
                Some(owing) => Decision::Sealed(
                    (0..2)
                        .filter(|s| owing[*s])
                        .fold(Seats::default(), |seats, s| seats.with(Seat(s as u16))),
                ),
                None => Decision::One(Seat(u16::from(
                    self.decider().expect("a battle not over has a decider").0,
                ))),
            },
        }
    }

    fn legal_into(&self, seat: Seat, out: &mut Vec<Legal<Command>>) {
        match side(seat) {
            Some(s) => self.legal_commands_into(s, out),
            None => out.clear(),
        }
    }

    /// A March decision is drawn without listing it (see
    /// [`Game::random_command`]).
    fn random_command<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Command> {
        side(seat).and_then(|s| Game::random_command(self, s, rng))
    }

    fn listed_as(&self, command: &Command) -> Command {
        Game::listed_as(self, command)
    }

    fn check(&self, seat: Seat, command: &Command) -> Result<(), CommandError> {
        let s = side(seat).ok_or_else(|| CommandError {
            ruling: 64,
            reason: format!("a battle has two sides; there is no seat {}", seat.0),
        })?;
        self.plan(s, command).map(|_| ())
    }

    fn apply_into(
        &mut self,
        seat: Seat,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Applied, CommandError> {
        let s = side(seat).ok_or_else(|| CommandError {
            ruling: 64,
            reason: format!("a battle has two sides; there is no seat {}", seat.0),
        })?;
        self.apply_as(s, command, events)
    }

    fn describe(&self, event: &Event) -> String {
        Game::describe(self, event)
    }

    fn undo_stop(&self, barrier: Option<Barrier>) -> String {
        match barrier {
            None | Some(Barrier::TurnStart) => {
                "undo goes back no further than the start of the player turn (R31)".to_owned()
            }
            other => sandtable_core::game::default_stop(other),
        }
    }

    fn odds(&self, seat: Seat, command: &Command) -> Vec<Odds> {
        side(seat).map_or_else(Vec::new, |s| self.odds_of(s, command))
    }

    fn dice(&self) -> &Dice {
        &self.state.dice
    }

    fn set_dice(&mut self, dice: Dice) {
        self.state.dice = dice;
    }

    fn reseed(&mut self, seed: u64) {
        Game::reseed(self, seed);
    }

    fn state_hash(&self) -> u64 {
        Game::state_hash(self)
    }

    /// Game turns: the first player's turn and the other's (R64).
    fn turn(&self) -> u32 {
        self.state.turn
    }

    fn surface(&self) -> Surface {
        self.battle.map.surface()
    }

    /// The map hides nothing; the off-board grid hides each side's
    /// counters, orders and forces from the other (R57).
    fn hides(&self) -> bool {
        self.grid().is_some()
    }

    /// The map as everyone sees it, and the ring as `viewer` may (R57).
    fn view_json(&self, viewer: Viewer) -> String {
        serde_json::to_string_pretty(&self.summary_for(viewer_side(viewer)))
            .expect("a summary is plain data")
    }

    fn draw_text(&self, viewer: Viewer) -> String {
        crate::text::draw_for(self, viewer_side(viewer))
    }

    /// What a hex holds, the same for every viewer; what a ring square
    /// holds as `viewer` may know it (R57).
    fn describe_spot(&self, spot: Spot, viewer: Viewer) -> Option<String> {
        if let Some(sq) = crate::offboard::ring::Square::from_spot(spot) {
            return self.describe_square(sq, viewer_side(viewer));
        }
        Hex::from_spot(spot)
            .filter(|hex| self.battle.map.contains(*hex))
            .map(|hex| self.describe_hex(hex))
    }

    /// A ring event as `viewer` may read it (R57): another side's orders,
    /// splits, merges and picks stay its own until revealed.
    fn describe_for(&self, event: &Event, viewer: Viewer) -> Option<String> {
        match (event, viewer_side(viewer), self.grid()) {
            (Event::Ring(ring), Some(side), Some(g)) => {
                ring.words_for(&self.battle.names, side, &g.grid.reserves)
            }
            _ => Some(self.describe(event)),
        }
    }

    /// A command as `viewer` may read it in a log (R57): another side's
    /// orders, splits, merges, forces and the men it names as a counter's
    /// dead are its secret; its commits, cancels and fall-backs are not.
    fn command_for(&self, seat: Seat, command: &Command, viewer: Viewer) -> Option<String> {
        let secret = matches!(
            command,
            Command::Grid(
                GridCommand::Order { .. }
                    | GridCommand::Split { .. }
                    | GridCommand::Merge { .. }
                    | GridCommand::Forces { .. }
            ) | Command::LoseInRing { .. }
        );
        match viewer {
            Viewer::Player(v) if secret && v != seat => None,
            Viewer::Public if secret => None,
            _ => Some(command.to_string()),
        }
    }

    /// The game without its dice; with the off-board grid, everything of
    /// the ring `viewer` may not know replaced from its view alone
    /// ([`Game::mask_ring`], R57). The map hides nothing.
    fn masked(&self, viewer: Viewer) -> Game {
        let mut copy = self.clone();
        copy.state.dice = no_dice();
        if let Some(side) = viewer_side(viewer) {
            copy.mask_ring(side);
        }
        // The setup's seed would tell every roll to come (R30).
        if copy.battle.setup.seed != 0 {
            std::sync::Arc::make_mut(&mut copy.battle).setup.seed = 0;
        }
        copy
    }

    /// A bot's copy (R30, R57): the dice reseeded, and everything of the
    /// ring `viewer` may not know dealt again from what it may.
    fn redeal(&mut self, viewer: Seat, seed: u64) {
        self.reseed(seed);
        if let Some(side) = side(viewer) {
            self.redeal_ring(side.index(), seed);
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.battle.warnings.clone()
    }
}

impl Game {
    /// What a hex holds, as the label under the pointer says it: its terrain and
    /// cover (R60), each side's men, officers and pieces there, its routers,
    /// prisoners and unarmed men, and how many armed men it may hold (R62).
    pub fn describe_hex(&self, hex: Hex) -> String {
        let game = self;
        let terrain = game.battle().terrain(hex);
        let cover = format!("{:?}", terrain.cover()).to_lowercase();
        let mut parts = vec![format!("{hex}: {} ({cover})", terrain.words())];
        for st in game.stacks().iter().filter(|s| s.hex == hex) {
            let mut what = Vec::new();
            let men = st.armed.men;
            if men.inf > 0 {
                what.push(format!("{} infantry", men.inf));
            }
            if men.cav > 0 {
                what.push(format!("{} cavalry", men.cav));
            }
            match st.armed.officers {
                0 => {}
                1 => what.push("1 officer".to_owned()),
                n => what.push(format!("{n} officers")),
            }
            if st.cannon {
                what.push("a cannon".to_owned());
            }
            if st.baggage {
                what.push("baggage".to_owned());
            }
            if st.flags > 0 {
                what.push("the flag".to_owned());
            }
            for (band, words) in [
                (st.routing, "routing"),
                (st.prisoners, "prisoners held"),
                (st.unarmed, "unarmed"),
            ] {
                if band.heads() > 0 {
                    what.push(format!("{} {words}", band.heads()));
                }
            }
            parts.push(format!("{}: {}", game.name(st.side), what.join(", ")));
        }
        if terrain.cover() == crate::Cover::Impassable {
            parts.push("nothing enters (R60)".to_owned());
        } else {
            parts.push(format!("holds up to {} armed men (R62)", game.limit(hex)));
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::dice::Dice;
    use sandtable_core::game::{GameState, Spot, Viewer};

    #[test]
    fn a_hex_says_its_terrain_its_pieces_and_its_limit() {
        let game =
            Game::new(&crate::samples::open_field(), Dice::seeded(1)).expect("the sample starts");
        let at = |name: &str| {
            let hex: Hex = name.parse().expect("a hex");
            game.describe_spot(hex.spot(), Viewer::Referee)
                .expect("a hex of the map")
        };
        assert_eq!(
            at("C2"),
            "C2: fields (clear); Red: 16 infantry, 1 officer, the flag; holds up to 20 armed men (R62)"
        );
        assert_eq!(
            at("F2"),
            "F2: fields (clear); Red: 8 infantry, a cannon; holds up to 10 armed men (R62)"
        );
        assert_eq!(
            at("D6"),
            "D6: trees (covered); holds up to 20 armed men (R62)"
        );
        assert_eq!(
            game.describe_spot(Spot::Hex { col: 200, row: 0 }, Viewer::Referee),
            None,
            "off the map"
        );
        assert_eq!(
            game.describe_spot(Spot::Square { col: 0, row: 0 }, Viewer::Referee),
            None,
            "a square is no place of a hex map"
        );
    }
}
