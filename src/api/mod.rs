//! Wire types (serde + utoipa) and their mapping into the rules crate. Only this module and
//! the handlers know JSON.

pub mod analyze;
pub mod attack;
pub mod catalog;
pub mod charge;
pub mod concealment;
pub mod contract;
pub mod cover;
pub mod dice;
pub mod encounter;
pub mod flanking;
pub mod grid;
pub mod initiative;
pub mod maneuver;
pub mod mapping;
pub mod movement;
pub mod question;
pub mod range;
