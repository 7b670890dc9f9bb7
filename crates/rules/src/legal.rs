//! `legal_commands()`: the one place that knows every command possible now, with
//! its cost. It reuses the checks of `command`, so a listed command always
//! passes `check` and a command it leaves out is always refused.

use crate::command::{Command, LegalCommand, Plan};
use crate::game::{Actions, Game, Place, UnitId};
use crate::terrain::TerrainClass;

impl Game {
    /// Every legal command with its action cost, in a stable order.
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
        let free = |command| LegalCommand {
            command,
            cost: Actions(0),
        };
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
            let one = Actions(1);
            out.push(LegalCommand {
                command: Command::TurnLeft,
                cost: one,
            });
            out.push(LegalCommand {
                command: Command::TurnRight,
                cost: one,
            });
        }
        if let Ok(plan) = self.plan_step(&acting) {
            out.push(LegalCommand {
                command: Command::Advance,
                cost: plan.cost(),
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
            {
                out.push(LegalCommand {
                    command: Command::AdvanceTo(next),
                    cost: plan.cost(),
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
