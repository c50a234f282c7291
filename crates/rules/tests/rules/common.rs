//! Helpers shared by the rules-crate integration tests.

use arbiter_rules::dice::{DiceError, DiceSource, Purpose, Rolled};
use arbiter_rules::trace::{AttackEffect, Effect, InitiativeEffect, ManeuverEffect, MountedEffect, Trace};

/// A small deterministic RNG standing in for the server's.
pub struct XorShift(pub u64);

impl DiceSource for XorShift {
    fn roll(&mut self, _: &Purpose, sides: u32) -> Result<Option<u32>, DiceError> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(Some((self.0 % u64::from(sides.max(1))) as u32 + 1))
    }
}

/// The encounter of a cover property test whose first two creatures are the attacker and the
/// target: `None` when they overlap or leave the map; the other creatures standing on either
/// are removed.
pub fn placed_pair(
    mut enc: arbiter_rules::encounter::Encounter,
) -> Option<arbiter_rules::encounter::Encounter> {
    let (sa, st) = (enc.space(&enc.creatures[0]), enc.space(&enc.creatures[1]));
    if sa.overlaps(&st) || !enc.grid.contains_space(&sa) || !enc.grid.contains_space(&st) {
        return None;
    }
    let (a, t) = (enc.creatures[0].id.clone(), enc.creatures[1].id.clone());
    enc.creatures.retain(|c| c.id == a || c.id == t || !(sa.contains(c.at) || st.contains(c.at)));
    Some(enc)
}

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

/// The faces rolled, keyed as `rolls` keys them (a maneuver's save as its check).
pub fn rolled(list: &[Rolled]) -> Vec<(String, i64)> {
    let key = |p: &str| if p == "save" { "check".to_owned() } else { p.to_owned() };
    list.iter().map(|r| (key(r.purpose.key()), i64::from(r.face))).collect()
}

/// The faces a trace narrates ([`narrated`]).
pub fn narrated_faces(t: &Trace) -> Vec<(String, i64)> {
    t.steps.iter().flat_map(|s| narrated(&s.effect)).map(|(k, f)| (k.to_owned(), f)).collect()
}

/// Issue 13: every die rolled is narrated once, by a step showing its face: the faces rolled
/// and those narrated are the same, purpose by purpose. An outcome's natural roll
/// (`*_natural`) stands for the die only when no step shows the dice themselves (`*_dice`:
/// two d20, three d6).
pub fn same_rolls(mut rolled: Vec<(String, i64)>, faces: Vec<(String, i64)>) -> Result<(), String> {
    let dice = |base: &str| faces.iter().any(|(other, _)| *other == format!("{base}_dice"));
    let mut narrated: Vec<(String, i64)> = faces
        .iter()
        .filter_map(|(k, f)| match (k.strip_suffix("_natural"), k.strip_suffix("_dice")) {
            (Some(base), _) if dice(base) => None,
            (Some(base), _) | (_, Some(base)) => Some((base.to_owned(), *f)),
            _ => Some((k.clone(), *f)),
        })
        .collect();
    rolled.sort();
    narrated.sort();
    if rolled == narrated {
        Ok(())
    } else {
        Err(format!("rolled {rolled:?}, the trace narrates {narrated:?}"))
    }
}

/// Issue 13: each decision is narrated once: the first two steps of a trace with the same
/// effect (whatever rule they cite), if any.
pub fn repeated_step(t: &Trace) -> Option<String> {
    t.steps.iter().enumerate().find_map(|(i, s)| {
        t.steps[..i]
            .iter()
            .find(|o| o.effect == s.effect)
            .map(|o| format!("{} and {}: {:?}", o.rule, s.rule, s.effect))
    })
}
