//! Charge (`pf1e.charge`, `hb3d.charge`) as a maneuver: the charge's movement, worked out by
//! `movement::charge` (the closest squares and the path test, which `/v1/movement`
//! checks too), then an optional bull rush or overrun at the end with the single +2 of Q-19.

use super::answer::{Effects, ManeuverAnswer, Odds, Options, OutcomeBand};
use super::resolve::resolve;
use crate::budget::Budget;
use crate::dice::{DiceSource, Ratio};
use crate::encounter::{Condition, Encounter};
use crate::error::RulesError;
use crate::movement::charge::charge_rule;
pub use crate::movement::charge::{
    Charge, ChargeIllegal, ChargeOptions, ChargeStep, EndTest, MIN_FT, Obstacle, PathTest, plan_charge,
};
use crate::scene::Scene;
use crate::trace::Trace;
use crate::trace::maneuver::Kind;

/// Answers a charge, with the bull rush or overrun at its end when asked (+2, Q-19).
pub fn charge(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    charge_options: &ChargeOptions,
    options: &Options,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<ManeuverAnswer, RulesError> {
    let enc = scene.enc;
    if enc.creatures.get(attacker).is_none() || enc.creatures.get(target).is_none() {
        return Err(RulesError::field("/attacker", "no such creature"));
    }
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    charge_rule(enc)?;
    if let Some(k) = charge_options.then
        && !matches!(k, Kind::BullRush | Kind::Overrun)
    {
        return Err(RulesError::field("/options/then", "a charge may end with bull_rush or overrun only"));
    }
    let mut trace = Trace::default();
    let c = plan_charge(scene, attacker, target, charge_options, &mut trace, budget)?;
    if let (true, Some(k), Some(end)) = (c.legal, c.then, c.end) {
        let mut moved: Encounter = enc.clone();
        if let Some(m) = moved.creatures.get_mut(attacker) {
            m.at = end;
        }
        let scene2 = Scene::new(&moved, budget)?;
        let opts = Options { charging: true, ..*options };
        let mut ans = resolve(&scene2, attacker, target, k, &opts, dice, budget)?;
        trace.steps.append(&mut ans.trace.steps);
        ans.trace = trace;
        // The charge is made whatever the maneuver's outcome.
        if let Some(e) = ans.effects.as_mut() {
            e.attacker_gains.push(Condition::Charged);
        }
        ans.kind = Kind::Charge;
        ans.action = "full_round";
        ans.charge = Some(c);
        return Ok(ans);
    }
    let band = if c.legal { OutcomeBand::Success } else { OutcomeBand::Failure };
    // A legal charge is made as asked, whatever the dice: the charger has `charged` (its AC /
    // DEF penalty until its next turn), an effect for the VTT to set as any other.
    let effects = c.legal.then(|| Effects { attacker_gains: vec![Condition::Charged], ..Effects::default() });
    Ok(ManeuverAnswer {
        legal: c.legal,
        effects,
        action: "full_round",
        odds: Odds {
            success: if c.legal { Ratio::ONE } else { Ratio::ZERO },
            bands: vec![(band, Ratio::ONE)],
            moved: Vec::new(),
        },
        trace,
        charge: Some(c),
        ..ManeuverAnswer::blank(Kind::Charge)
    })
}
