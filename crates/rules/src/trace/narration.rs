//! Whether a trace tells its answer once and whole (issue 13): each decision narrated by one
//! step, each die rolled shown by a step with its face. The property tests of this crate and
//! the fixture runner of the contract crate hold every answer to it.

use super::{AttackEffect, Effect, InitiativeEffect, ManeuverEffect, MountedEffect, Trace};
use crate::dice::Rolled;

/// The dice faces a step narrates, by the `rolls` purpose key (a maneuver's save counted as
/// its check). An outcome's natural roll is keyed `attack_natural` / `check_natural`: it is
/// the die itself when one die was rolled, and the sum or the kept die of the dice a dice
/// step (`attack_dice` / `check_dice`) shows otherwise.
pub fn narrated(e: &Effect) -> Vec<(&'static str, i64)> {
    let many = |key, faces: &[u32]| faces.iter().map(|f| (key, i64::from(*f))).collect();
    match e {
        Effect::Attack(AttackEffect::AttackOutcome { natural: Some(n), .. }) => vec![("attack_natural", *n)],
        Effect::Attack(AttackEffect::AttackDice { faces, .. }) => many("attack_dice", faces),
        Effect::Attack(AttackEffect::Confirmation { natural, .. }) => vec![("confirm", *natural)],
        Effect::Attack(AttackEffect::MissChanceRoll { roll, .. }) => vec![("miss_chance", i64::from(*roll))],
        Effect::Maneuver(ManeuverEffect::Rolled { natural, .. }) => vec![("check_natural", *natural)],
        Effect::Maneuver(ManeuverEffect::CheckDice { faces, .. }) => many("check_dice", faces),
        Effect::Maneuver(ManeuverEffect::OpposedRoll { natural, .. }) => vec![("opposed", *natural)],
        Effect::Maneuver(ManeuverEffect::MissRoll { roll, .. }) => vec![("miss_chance", *roll)],
        Effect::Maneuver(ManeuverEffect::Secondary(r)) => {
            r.natural.map(|n| ("check", n)).into_iter().collect()
        }
        Effect::Initiative(
            InitiativeEffect::Rolled { faces, .. } | InitiativeEffect::RollOff { faces, .. },
        ) => faces.iter().map(|f| ("initiative", *f)).collect(),
        Effect::Mounted(MountedEffect::SaveRolled { natural, .. }) => vec![("mount_save", *natural)],
        _ => Vec::new(),
    }
}

/// Every die an answer rolled is narrated once, by a step showing its face: the faces rolled
/// and those narrated are the same, purpose by purpose. An outcome's natural roll
/// (`*_natural`) stands for the die only when no step shows the dice themselves (`*_dice`:
/// two d20, three d6). The difference, as a sentence, when they are not.
pub fn rolls_narrated(trace: &Trace, rolls: &[Rolled]) -> Result<(), String> {
    let key = |p: &str| if p == "save" { "check".to_owned() } else { p.to_owned() };
    let mut rolled: Vec<(String, i64)> =
        rolls.iter().map(|r| (key(r.purpose.key()), i64::from(r.face))).collect();
    let faces: Vec<(&str, i64)> = trace.steps.iter().flat_map(|s| narrated(&s.effect)).collect();
    let dice = |base: &str| faces.iter().any(|(other, _)| *other == format!("{base}_dice"));
    let mut told: Vec<(String, i64)> = faces
        .iter()
        .filter_map(|(k, f)| match (k.strip_suffix("_natural"), k.strip_suffix("_dice")) {
            (Some(base), _) if dice(base) => None,
            (Some(base), _) | (_, Some(base)) => Some((base.to_owned(), *f)),
            _ => Some(((*k).to_owned(), *f)),
        })
        .collect();
    rolled.sort();
    told.sort();
    if rolled == told { Ok(()) } else { Err(format!("rolled {rolled:?}, the trace narrates {told:?}")) }
}

/// Each decision is narrated once: the pairs of steps `(earlier, later)` with the same effect
/// (whatever rule they cite), which say the same thing twice.
pub fn repeated_steps(trace: &Trace) -> Vec<(usize, usize)> {
    let steps = &trace.steps;
    (0..steps.len())
        .filter_map(|i| steps[..i].iter().position(|s| s.effect == steps[i].effect).map(|j| (j, i)))
        .collect()
}
