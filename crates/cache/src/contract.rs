//! Conflict at Cache and The Snyder Skirmish on the game contract
//! ([`GameState`]): what the CLI, the bots and the table read of any system.

use sandtable_core::dice::Dice;
use sandtable_core::game::{
    Applied, Barrier, Chance, Decision, Ending, GameState, Legal, Odds, Refusal, Seat, Spot,
    Surface, Viewer, no_dice,
};

use crate::command::{Command, CommandError, Plan};
use crate::event::Event;
use crate::game::Game;
use crate::geometry::Square;
use crate::pieces::{DrawReason, Occupant, Outcome, PlayerId};
use crate::ruling::Ruling;

impl From<Ruling> for sandtable_core::game::Ruling {
    fn from(ruling: Ruling) -> Self {
        let name = format!("{ruling:?}");
        sandtable_core::game::Ruling(name[1..].parse().expect("ruling names are R and a number"))
    }
}

impl Refusal for CommandError {
    fn ruling(&self) -> sandtable_core::game::Ruling {
        CommandError::ruling(self).into()
    }
}

fn seat(player: PlayerId) -> Seat {
    Seat(player.0)
}

impl Game {
    /// Refuses a command from a seat whose turn it is not (R5).
    #[inline]
    fn seated(&self, seat: Seat) -> Result<(), CommandError> {
        if seat.0 == self.state.current.0 || self.is_over() {
            return Ok(());
        }
        self.not_seated(seat)
    }

    #[cold]
    fn not_seated(&self, seat: Seat) -> Result<(), CommandError> {
        let name = |s: u16| {
            self.table
                .players
                .get(usize::from(s))
                .map_or_else(|| format!("seat {s}"), |p| p.name.clone())
        };
        Err(CommandError::NotYourTurn {
            current: name(self.state.current.0),
            seat: name(seat.0),
        })
    }

    /// The odds of a command decided by dice, before it is played: the
    /// stash roll of an Advance that ends on an undiscovered stash, each
    /// result of the game's stash list with its share of the 36 rolls of two
    /// d6 (R21). `None` for a command no dice decide, or one refused.
    pub fn odds(&self, command: &Command) -> Option<Odds> {
        let Ok(Plan::Advance { to, target, .. }) = self.plan(*command) else {
            return None;
        };
        if matches!(target, Some(Occupant::Base(_))) || !self.stash_at(to) {
            return None;
        }
        let mut outcomes: Vec<(String, Chance)> = Vec::new();
        for row in self.table.stash_list.rows() {
            let words = row.result.to_string();
            match outcomes.iter_mut().find(|(w, _)| *w == words) {
                Some((_, chance)) => chance.num += 1,
                None => outcomes.push((words, Chance { num: 1, den: 36 })),
            }
        }
        Some(Odds {
            what: format!("the stash roll on {to}: two d6 read as tens and units (R21)"),
            outcomes,
        })
    }
}

impl GameState for Game {
    type Command = Command;
    type Refusal = CommandError;
    type Event = Event;

    fn system(&self) -> &'static str {
        if self.table.stashes.is_empty() {
            "ConflictAtCache"
        } else {
            "SnyderSkirmish"
        }
    }

    fn seats(&self) -> usize {
        self.table.players.len()
    }

    fn seat_name(&self, seat: Seat) -> &str {
        &self.table.players[seat.index()].name
    }

    fn decision(&self) -> Decision {
        match self.state.outcome {
            Some(Outcome::Won(p)) => Decision::Over(Ending::Won(seat(p))),
            Some(Outcome::Draw(DrawReason::TurnLimit)) => {
                Decision::Over(Ending::Draw("the turn limit is reached (R11)"))
            }
            Some(Outcome::Draw(DrawReason::NoUnits)) => {
                Decision::Over(Ending::Draw("no player has a unit on the board (R28)"))
            }
            Some(Outcome::Draw(DrawReason::Agreed)) => {
                Decision::Over(Ending::Draw("every player agreed to a draw (R24)"))
            }
            // A stash result's choice is the discovering player's (R22).
            None => Decision::One(seat(self.state.current)),
        }
    }

    fn legal_into(&self, seat: Seat, out: &mut Vec<Legal<Command>>) {
        if seat.0 == self.state.current.0 {
            self.legal_commands_into(out);
        } else {
            out.clear();
        }
    }

    fn check(&self, seat: Seat, command: &Command) -> Result<(), CommandError> {
        self.seated(seat)?;
        Game::check(self, command).map(|_| ())
    }

    fn apply_into(
        &mut self,
        seat: Seat,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Applied, CommandError> {
        self.seated(seat)?;
        let barrier = self.applied_into(*command, events)?;
        Ok(Applied { barrier })
    }

    fn describe(&self, event: &Event) -> String {
        Game::describe(self, event)
    }

    /// An activation is logged by its command's own line.
    fn logged(&self, event: &Event) -> bool {
        !matches!(event, Event::Activated { .. })
    }

    fn undo_stop(&self, barrier: Option<Barrier>) -> String {
        match barrier {
            None | Some(Barrier::TurnStart) => {
                "nothing to undo in this turn: undo never goes back past the start of the turn (R31)"
            }
            Some(Barrier::Roll | Barrier::Reveal) => {
                "cannot undo further: undo never goes back past a dice roll or a discovered stash (R31)"
            }
        }
        .to_owned()
    }

    fn odds(&self, seat: Seat, command: &Command) -> Vec<Odds> {
        if self.seated(seat).is_err() {
            return Vec::new();
        }
        Game::odds(self, command).into_iter().collect()
    }

    fn dice(&self) -> &Dice {
        &self.state.dice
    }

    fn set_dice(&mut self, dice: Dice) {
        self.state.dice = dice;
    }

    /// Nothing of Cache is hidden: every viewer's copy is the game
    /// without its dice, and without the seed they were drawn from,
    /// which would tell every roll to come (R30).
    fn masked(&self, _viewer: Viewer) -> Game {
        let mut copy = self.clone();
        copy.state.dice = no_dice();
        if copy.table.seed != 0 {
            std::sync::Arc::make_mut(&mut copy.table).seed = 0;
        }
        copy
    }

    fn reseed(&mut self, seed: u64) {
        Game::reseed(self, seed);
    }

    fn state_hash(&self) -> u64 {
        Game::state_hash(self)
    }

    /// Player turns: +1 at every pass (R26).
    fn turn(&self) -> u32 {
        self.state.turn
    }

    fn surface(&self) -> Surface {
        Surface::Squares {
            columns: self.table.board.columns,
            rows: self.table.board.rows,
        }
    }

    /// The state summary. Nothing of a Cache game is hidden from a player:
    /// a stash's result is rolled when it is found (R21), so every viewer
    /// sees what the referee sees.
    fn view_json(&self, _viewer: Viewer) -> String {
        serde_json::to_string_pretty(&self.summary()).expect("a summary is plain data")
    }

    /// What stands on a square and what entering costs; a Cache game hides
    /// nothing, so every viewer reads the same.
    fn describe_spot(&self, spot: Spot, _viewer: Viewer) -> Option<String> {
        Square::from_spot(spot)
            .filter(|sq| self.board().contains(*sq))
            .map(|sq| self.describe_square(sq))
    }

    /// A Cache game hides nothing: every viewer sees the same board.
    fn draw_text(&self, _viewer: Viewer) -> String {
        crate::text::draw(self)
    }

    fn warnings(&self) -> Vec<String> {
        self.table.warnings.iter().map(|w| w.to_string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples;
    use sandtable_core::game::perft;

    #[test]
    fn ruling_ids_carry_over_to_the_contract() {
        assert_eq!(
            sandtable_core::game::Ruling::from(Ruling::R23).to_string(),
            "R23"
        );
        assert_eq!(sandtable_core::game::Ruling::from(Ruling::R5).0, 5);
    }

    #[test]
    fn perft_counts_the_tree_of_the_sample_table() {
        // Counted a game copy a node, leaves at depth 1 counted by the list.
        let game = Game::new(&samples::table_a_skirmish(7, Some(200))).unwrap();
        let counts: Vec<u64> = (1..=5).map(|d| perft(&game, d).leaves).collect();
        let mut legal = Vec::new();
        game.legal_commands_into(&mut legal);
        assert_eq!(counts[0], legal.len() as u64);
        // Each deeper count is the sum over the children, counted again here
        // by hand one level down.
        let by_hand: u64 = legal
            .iter()
            .map(|l| {
                let mut child = game.clone();
                child.apply(l.command).unwrap();
                perft(&child, 3).leaves
            })
            .sum();
        assert_eq!(counts[3], by_hand);
        // A copy for every command applied above the last level.
        assert_eq!(perft(&game, 4).copies, counts[0] + counts[1] + counts[2]);
        assert!(counts.windows(2).all(|w| w[1] > w[0]), "{counts:?}");
    }
}

#[cfg(test)]
mod seat_tests {
    use super::*;
    use crate::samples;

    #[test]
    fn only_the_seat_whose_decision_it_is_may_act_through_the_contract() {
        let mut game = Game::new(&samples::table_a_skirmish(7, Some(200))).unwrap();
        let to_move = match GameState::decision(&game) {
            Decision::One(seat) => seat,
            other => panic!("{other:?}"),
        };
        let other = Seat(1 - to_move.0);
        let mut list = Vec::new();
        game.legal_into(other, &mut list);
        assert!(list.is_empty());
        game.legal_into(to_move, &mut list);
        assert_eq!(list, game.legal_commands());
        let before = game.clone();
        let err =
            GameState::apply_into(&mut game, other, &Command::Pass, &mut Vec::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "it is {}'s turn, not {}'s (R5)",
                game.seat_name(to_move),
                game.seat_name(other)
            )
        );
        assert_eq!(Refusal::ruling(&err), sandtable_core::game::Ruling(5));
        assert_eq!(game, before, "a refusal changes nothing");
        let applied =
            GameState::apply_into(&mut game, to_move, &Command::Pass, &mut Vec::new()).unwrap();
        assert_eq!(applied.barrier, Some(Barrier::TurnStart));
        assert_eq!(GameState::decision(&game), Decision::One(other));
        assert_eq!(
            game.view_json(Viewer::Player(to_move)),
            game.view_json(Viewer::Referee),
            "nothing of a Cache game is hidden"
        );
        assert_eq!(
            game.surface(),
            Surface::Squares {
                columns: 24,
                rows: 15
            }
        );
    }
}

impl Game {
    /// What stands on a square, as the hover label says it: a unit with its
    /// player, Factor, name, facing and actions (left, or whether it has acted
    /// this turn), a Base, a stash, and the ground with what entering costs.
    pub fn describe_square(&self, sq: Square) -> String {
        let game = self;
        let ground = game.ground(sq);
        let terrain = format!("{}: {}", ground.describe(), ground.movement());
        let what = match game.occupant(sq) {
            Some(Occupant::Unit(u)) => {
                let unit = &game.units()[usize::from(u.0)];
                let factor = &game.factors()[usize::from(unit.factor.0)];
                let name = unit
                    .name
                    .as_deref()
                    .map(|n| format!(" \"{n}\""))
                    .unwrap_or_default();
                let facing = game
                    .position(u)
                    .map(|(_, f)| format!(", facing {f}"))
                    .unwrap_or_default();
                let actions = match game.activation() {
                    Some(a) if a.unit == u => format!(", acting with {} left", a.left()),
                    _ if unit.player != game.current_player() => String::new(),
                    _ if game.activated_this_turn(u) => ", has acted this turn".to_owned(),
                    _ => ", may act this turn (4 actions)".to_owned(),
                };
                format!(
                    "{}'s unit{name} (Factor {}){facing}{actions}",
                    game.player(unit.player).name,
                    factor.index + 1
                )
            }
            Some(Occupant::Base(f)) => {
                let factor = &game.factors()[usize::from(f.0)];
                format!(
                    "{}'s Base (Factor {}): capturing it takes the Factor out of the game (R10)",
                    game.player(factor.player).name,
                    factor.index + 1
                )
            }
            None if game.stash_at(sq) => {
                "a stash: a unit that ends an advance here rolls on the stash list (R21)".to_owned()
            }
            None => return format!("{sq}: {terrain}"),
        };
        format!("{sq}: {what}; {terrain}")
    }
}
