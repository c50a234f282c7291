//! One file per endpoint. Handlers extract, map, call the rules, map back.

pub mod attack;
pub mod catalog;
pub mod concealment;
pub mod cover;
pub mod flanking;
pub mod health;
pub mod maneuver;
pub mod range;

use arbiter_rules::encounter::Encounter;

use crate::api::mapping::Problems;

/// Looks up the creatures a question names, recording a problem for each unknown id.
pub fn creature_index(enc: Option<&Encounter>, p: &mut Problems, pointer: &str, id: &str) -> Option<usize> {
    let enc = enc?;
    match enc.find(id) {
        Some(i) => Some(i),
        None => {
            let known: Vec<&str> = enc.creatures.iter().take(20).map(|c| c.id.as_str()).collect();
            p.push(pointer, format!("no creature has id {id:?}; known: {}", known.join(", ")));
            None
        }
    }
}
