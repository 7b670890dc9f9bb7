//! `legal_commands()`: the one place that knows every command possible now, with
//! its cost. It reuses the checks of `command`, so a listed command always
//! passes `check` and a command it leaves out is always refused, except
//! `resign`, `offer draw` and `accept draw` (R24): moves of the players, not
//! of the game, which bots never make.

use crate::command::{Command, LegalCommand, Plan, free};
use crate::game::Game;
use crate::geometry::Square;
use crate::pieces::{Place, UnitId};
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
        let Some(acting) = self.acting() else {
            if self.state.activations_left > 0 {
                let player = &self.table.players[self.state.current.index()];
                for u in player.units.clone() {
                    if self.state.activated_in[usize::from(u)] == self.state.turn {
                        continue;
                    }
                    if let Place::Board { square, .. } = self.state.places[UnitId(u).index()] {
                        out.push(free(Command::Activate(square), Some(square)));
                    }
                }
            }
            out.push(free(Command::Pass, None));
            return;
        };
        let here = Some(acting.square);
        if acting.left >= 1 {
            for command in [Command::TurnLeft, Command::TurnRight] {
                out.push(LegalCommand {
                    cost: 1,
                    ..free(command, here)
                });
            }
        }
        if let Ok(plan @ Plan::Advance { to, .. }) = self.plan_step(&acting)
            && self.dice_for(plan).is_ok()
        {
            out.push(LegalCommand {
                cost: plan.cost().0,
                at: Some(to.spot()),
                ..free(Command::Advance, here)
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
                && let Ok(plan @ Plan::Advance { .. }) = self.plan_run(&acting, next)
                && self.dice_for(plan).is_ok()
            {
                out.push(LegalCommand {
                    cost: plan.cost().0,
                    ..free(Command::AdvanceTo(next), here)
                });
            }
            if self.state.occupant(board, next).is_some() {
                break;
            }
            sq = next;
        }
        out.push(free(Command::End, here));
        out.push(free(Command::Pass, here));
    }
}

impl Game {
    /// The square an Advance from `from` facing `facing` would end on: the
    /// square ahead, or the first square beyond a low wall (R13); `None`
    /// past the board's edge. Whether the advance is legal is left to
    /// [`Game::check`] and [`Game::legal_commands`].
    pub fn advance_landing(&self, from: Square, facing: crate::Facing) -> Option<Square> {
        let board = self.table.board;
        let next = from.step(facing, board)?;
        if self.table.ground[board.index(next)].class() == TerrainClass::T110 {
            next.step(facing, board)
        } else {
            Some(next)
        }
    }
}
