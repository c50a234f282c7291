//! Wire types (serde + utoipa) and their mapping both ways: one module per question holds its
//! request and answer types, the request's mapping into the rules crate's terms and the
//! answer's mapping back. What several share: `mapping` (the encounter, weapons, points),
//! `question` (the creatures a question names, one 422 listing every problem), `grid`
//! (squares and points), `charge` (a charge and the attacks of opportunity a movement
//! provokes), `dice`.

pub mod analyze;
pub mod attack;
pub mod bounds;
pub mod catalog;
pub mod charge;
pub mod concealment;
pub mod contract;
pub mod cover;
pub mod damage;
pub mod dice;
pub mod encounter;
pub mod flanking;
pub mod grid;
pub mod initiative;
pub mod maneuver;
pub mod map;
pub mod mapping;
pub mod mounted;
pub mod movement;
pub mod question;
pub mod range;
pub mod uvtt;
