//! Light, sight and concealment (`pf1e.concealment.*`, `pf1e.vision.light`, `sf1e.concealment`,
//! `sf1e.vision.light`, `grid.obscured.heavy`, `dnd5e.vision.light-and-darkvision`,
//! `dnd5e.unseen`). Being written.

use crate::budget::Budget;
use crate::encounter::Condition;
use crate::error::RulesError;
use crate::scene::Scene;

/// Whether `observer` can see `subject` (creature indices). Being extended with light, walls
/// and obscurement; today conditions and senses only.
pub fn can_see(scene: &Scene<'_>, observer: usize, subject: usize, _budget: &mut Budget) -> Result<bool, RulesError> {
    let (Some(o), Some(s)) = (scene.enc.creatures.get(observer), scene.enc.creatures.get(subject)) else {
        return Ok(false);
    };
    if o.has(Condition::Blinded) {
        return Ok(o.senses.blindsight_ft > 0);
    }
    if s.has(Condition::Invisible) {
        return Ok(o.senses.see_invisibility || o.senses.truesight_ft > 0 || o.senses.blindsight_ft > 0);
    }
    Ok(!s.has(Condition::Hidden))
}
