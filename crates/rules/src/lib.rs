//! Arbiter rules engine: pure, synchronous and deterministic given its inputs and dice.
//!
//! No I/O, no async, no serialization: the server maps its wire types into [`encounter`]
//! values, calls one question function and renders the typed [`trace`] it gets back.

pub mod analyze;
pub mod attack;
pub mod budget;
pub mod catalog;
pub mod condition;
pub mod cover;
pub mod damage;
pub mod defences;
pub mod dice;
pub mod encounter;
pub mod error;
pub mod flanking;
pub mod grid;
mod hash;
pub mod initiative;
pub mod maneuver;
pub mod mounted;
pub mod movement;
mod obstruction;
pub mod opportunity;
pub mod pair;
pub mod range;
pub mod reach;
pub mod ruleset;
pub mod scene;
pub mod size;
pub mod trace;
pub mod vision;
pub mod weapon_damage;
