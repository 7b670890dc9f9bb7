//! `legal_commands()`: the one place that knows every command possible now, with
//! its cost. It reuses the checks of `command`, so a listed command always
//! passes `check` and a command it leaves out is always refused.

use crate::command::{Command, LegalCommand, Plan};
use crate::game::{Actions, Game, Place, UnitId};
use crate::terrain::TerrainClass;

impl Game {
    /// Every legal command with its action cost and landing square, in a
    /// stable order.
    pub fn legal_commands(&self) -> Vec<LegalCommand> {
        let mut out = Vec::new();
        self.legal_commands_into(&mut out);
        out
    }

    /// As [`Game::legal_commands`], into a caller's buffer (cleared first).
    pub fn legal_commands_into(&self, out: &mut Vec<LegalCommand>) {
        out.clear();
        if self.state.outcome.is_some() {
            return;
        }
        if let Some(choice) = self.state.pending {
            self.legal_choices(choice, out);
            return;
        }
        let free = LegalCommand::free;
        let Some(acting) = self.acting() else {
            if self.state.activations_left > 0 {
                let player = &self.table.players[self.state.current.index()];
                for u in player.units.clone() {
                    if self.state.activated_in[usize::from(u)] == self.state.turn {
                        continue;
                    }
                    if let Place::Board { square, .. } = self.state.places[UnitId(u).index()] {
                        out.push(free(Command::Activate(square)));
                    }
                }
            }
            out.push(free(Command::Pass));
            return;
        };
        if acting.left >= 1 {
            for command in [Command::TurnLeft, Command::TurnRight] {
                out.push(LegalCommand {
                    cost: Actions(1),
                    ..free(command)
                });
            }
        }
        if let Ok(plan @ Plan::Advance { to, .. }) =
            self.plan_step(&acting).and_then(|p| self.dice_for(p))
        {
            out.push(LegalCommand {
                command: Command::Advance,
                cost: plan.cost(),
                lands: Some(to),
            });
        }
        // Road runs (R14): walk the T130 squares ahead; each target two or more
        // squares away is one command. The walk stops where a run must stop.
        let board = self.table.board;
        let mut sq = acting.square;
        let mut distance = 0;
        while let Some(next) = sq.step(acting.facing, board) {
            if self.table.ground[board.index(next)].class() != TerrainClass::T130 {
                break;
            }
            distance += 1;
            if distance >= 2
                && let Ok(plan @ Plan::Advance { .. }) =
                    self.plan_run(&acting, next).and_then(|p| self.dice_for(p))
            {
                out.push(LegalCommand {
                    cost: plan.cost(),
                    ..free(Command::AdvanceTo(next))
                });
            }
            if self.state.occupant(board, next).is_some() {
                break;
            }
            sq = next;
        }
        out.push(free(Command::End));
        out.push(free(Command::Pass));
    }
}

impl Game {
    /// The square an Advance from `from` facing `facing` would end on: the
    /// square ahead, or the first square beyond a low wall (R13); `None`
    /// past the board's edge. Whether the advance is legal is left to
    /// [`Game::check`] and [`Game::legal_commands`].
    pub fn advance_landing(
        &self,
        from: crate::Square,
        facing: crate::Facing,
    ) -> Option<crate::Square> {
        let board = self.table.board;
        let next = from.step(facing, board)?;
        if self.table.ground[board.index(next)].class() == TerrainClass::T110 {
            next.step(facing, board)
        } else {
            Some(next)
        }
    }
}
