//! A maneuver that pushes or knocks prone a mounted creature or a mount: the riders it puts
//! at risk of falling ([`crate::mounted`]).

use super::answer::{ManeuverAnswer, ShoveChoice};
use super::push;
use crate::budget::Budget;
use crate::dice::{DiceSource, Ratio};
use crate::encounter::Condition;
use crate::error::RulesError;
use crate::grid::Space;
use crate::mounted::{Blow, Hit, RiderFall, rider_falls};
use crate::scene::Scene;
use crate::trace::Trace;
use crate::trace::maneuver::Kind;

/// The riders at risk from this maneuver's push or prone (nothing for any other maneuver):
/// their odds given the maneuver's, and their saves when the maneuver was rolled and did it.
pub(super) fn falls(
    scene: &Scene<'_>,
    (attacker, target): (usize, usize),
    (kind, shove): (Kind, ShoveChoice),
    ans: &ManeuverAnswer,
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<Vec<RiderFall>, RulesError> {
    let enc = scene.enc;
    if enc.ruleset.rules().mounted.is_none() || !ans.legal {
        return Ok(Vec::new());
    }
    let prone = matches!((kind, shove), (Kind::Shove, ShoveChoice::Prone) | (Kind::Trip, _));
    let pushes = matches!((kind, shove), (Kind::Shove, ShoveChoice::Push) | (Kind::BullRush, _));
    let blow = if prone {
        let happened = ans.effects.as_ref().is_some_and(|e| e.target_gains.contains(&Condition::Prone));
        Blow { target, hit: Hit::Prone, p: ans.odds.success, happened }
    } else if pushes && enc.creatures.get(target).is_some_and(|t| t.mounted_on.is_some()) {
        // A pushed rider moves only with its mount: a success puts its seat at stake.
        let happened = ans.success == Some(true);
        Blow { target, hit: Hit::RiderPushed, p: ans.odds.success, happened }
    } else if pushes {
        // Where the push takes the mount: the rolled push, else the push a success would make.
        let walk = match ans.effects.as_ref().and_then(|e| e.push.clone()) {
            Some(p) => p,
            None => push::push(scene, attacker, target, 5, budget)?,
        };
        let side = enc.creatures.get(target).map_or(1, |t| enc.space(t).side);
        let to = (walk.moved_ft > 0).then_some(Space { anchor: walk.to, side });
        let p = ans.odds.moved.iter().filter(|(ft, _)| *ft > 0).fold(Ratio::ZERO, |a, (_, p)| a.plus(*p));
        let happened = ans.effects.as_ref().and_then(|e| e.push.as_ref()).is_some_and(|p| p.moved_ft > 0);
        Blow { target, hit: Hit::Moved { to }, p, happened }
    } else {
        return Ok(Vec::new());
    };
    rider_falls(scene, blow, dice, trace, budget)
}
