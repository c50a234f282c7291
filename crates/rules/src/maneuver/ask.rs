//! One maneuver question from start to end (`POST /v1/maneuvers`): a charge or a maneuver,
//! a grapple's follow-up move, then a maintained grapple's follow-up damage. The server and
//! the fixture runner call [`ask`] so that neither has a decision of its own to keep in step.
//!
//! It calls the parts (`charge.rs`, `resolve.rs`, `follow_up.rs`) directly, not `mod.rs`,
//! which names them: the parts and this file do not import the module file.

use super::answer::{ManeuverAnswer, Options};
use super::charge::{ChargeOptions, charge};
use super::follow_up::{GrappleMove, follow_up_move};
use super::resolve::resolve;
use crate::budget::Budget;
use crate::damage::{DamageAnswer, follow_up};
use crate::dice::{DiceSource, Recorder};
use crate::error::RulesError;
use crate::pair::Pair;
use crate::scene::Scene;
use crate::trace::maneuver::Kind;
use crate::weapon_damage::Damage;

/// The damage a maintained PF1 / hb3d grapple deals on a success (« Dégâts »).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrappleDamage {
    /// The damage dealt (the grappler's unarmed strike or a light weapon's).
    pub damage: Damage,
    /// The grappler deals nonlethal damage.
    pub nonlethal: bool,
}

/// A maneuver question in the rules' terms: who, what, and the follow-ups asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    /// The acting creature's index in the encounter.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
    /// The maneuver; [`Kind::Charge`] goes through [`charge()`] with [`Ask::charge`].
    pub kind: Kind,
    /// The maneuver's options (for a charge, those of its bull rush or overrun).
    pub options: Options,
    /// A charge's own options; ignored by the other maneuvers.
    pub charge: ChargeOptions,
    /// A grapple's follow-up move; ignored by a charge.
    pub grapple_move: Option<GrappleMove>,
    /// A maintained grapple's follow-up damage.
    pub damage: Option<GrappleDamage>,
}

/// The answer to an [`Ask`].
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// The maneuver (or charge); its `rolls` also hold the follow-up damage's faces, after
    /// the check's, and its `trace` the damage steps.
    pub maneuver: ManeuverAnswer,
    /// The follow-up damage: `None` when none was asked or the maneuver is illegal.
    pub damage: Option<DamageAnswer>,
}

/// Answers `q` on `scene`: a charge goes to [`charge()`], any other maneuver to the
/// resolution, then a grapple's follow-up move is judged; a legal maneuver then deals the
/// follow-up damage asked, on the odds of the check's success. Its dice come after the
/// check's, and none are rolled when the rolled check failed. The caller checks that given
/// faces were all used (a wire-level matter).
pub fn ask(
    scene: &Scene<'_>,
    q: &Ask,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<Asked, RulesError> {
    let (a, t, o) = (q.attacker, q.target, &q.options);
    let mut m = if q.kind == Kind::Charge {
        charge(scene, a, t, &q.charge, o, dice, budget)?
    } else {
        let mut m = resolve(scene, a, t, q.kind, o, dice, budget)?;
        if let Some(mv) = &q.grapple_move {
            follow_up_move(scene, a, t, mv, &mut m, budget)?;
        }
        m
    };
    let damage = match &q.damage {
        Some(d) if m.legal => follow_up_damage(scene, q, d, &mut m, dice)?,
        _ => None,
    };
    Ok(Asked { maneuver: m, damage })
}

/// The follow-up damage of the maneuver `m`, its faces recorded into `m.rolls`.
fn follow_up_damage(
    scene: &Scene<'_>,
    q: &Ask,
    d: &GrappleDamage,
    m: &mut ManeuverAnswer,
    dice: &mut dyn DiceSource,
) -> Result<Option<DamageAnswer>, RulesError> {
    // A legal maneuver has both creatures; the resolution refused a missing one already.
    let Some(pair) = Pair::new(scene.enc, q.attacker, q.target) else { return Ok(None) };
    let mut rec = Recorder::new(dice);
    let (success, succeeded) = (m.odds.success, m.success);
    let answer = follow_up(&pair, &d.damage, success, succeeded, d.nonlethal, &mut rec, &mut m.trace)?;
    m.rolls.extend(rec.rolled);
    Ok(answer)
}
