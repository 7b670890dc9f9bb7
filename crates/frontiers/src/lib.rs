//! Frontiers: Liberty or Death! (seed `004_9b7d5b8ed8fe681f.txt`, rulings
//! `rulings/frontiers.md`, R100-R152), the skirmish on the open table.
//!
//! Built so far: [`geometry`], the plane's exact predicates that every
//! rule in space stands on (R100-R102, R113-R114, R120, R126): footprints
//! in whole millimetres, distances edge to edge, contact, overlap, the
//! area a footprint sweeps along a leg of a move, and whether a line of
//! sight is blocked, grazing within 0.5 mm allowed; and [`sight`], the
//! clear lines of sight from a shooter to any point of a target and the
//! best of them by the penalties they cross (R120, R121); and
//! [`templates`], what a template hits and where a drop lands from its
//! dice (R126, R129). The rules, the
//! scenario format and the contract's game come next, on top of it.

pub mod geometry;
pub mod sight;
pub mod templates;
