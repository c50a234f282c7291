//! Text and data of the attack modifier, advantage and outcome trace steps.

use super::glossary;
use crate::lang::Lang;
use arbiter_rules::ruleset::Words;
use arbiter_rules::trace::{AttackEffect, RollMode};

/// Renders one attack modifier, advantage and outcome step.
pub(super) fn effect(e: &AttackEffect, lang: Lang, voc: &Words) -> (String, AttackEffectOut) {
    use Lang::*;
    match e {
        AttackEffect::AdvantageCombined { advantage, disadvantage, result } => (
            match lang {
                En => format!(
                    "{advantage} advantage and {disadvantage} disadvantage sources: roll {}",
                    result.id()
                ),
                Fr => format!(
                    "{advantage} source(s) d'avantage et {disadvantage} de désavantage : {}",
                    glossary::roll_mode(*result, lang)
                ),
            },
            AdvantageCombinedStepOut {
                advantage: *advantage,
                disadvantage: *disadvantage,
                roll_mode: result.id(),
            }
            .into(),
        ),
        AttackEffect::AttackModifier { source, detail, attack, defence, advantage, disadvantage } => {
            let out = AttackModifierStepOut {
                source,
                detail: detail.clone(),
                attack: *attack,
                defence: *defence,
                advantage: *advantage,
                disadvantage: *disadvantage,
            };
            (modifier_text(&out, voc, lang), out.into())
        }
        AttackEffect::AttackOutcome {
            allowed,
            melee,
            natural,
            total,
            target_number,
            hit,
            critical,
            p_hit,
        } => {
            let out = AttackOutcomeStepOut {
                allowed: *allowed,
                natural: *natural,
                total: *total,
                target_number: *target_number,
                hit: *hit,
                critical: *critical,
                p_hit: p_hit.to_f64(),
            };
            (outcome_text(&out, *melee, lang), out.into())
        }
        AttackEffect::AttackDice { faces, sides, mode, natural } => (
            dice_text(faces, *sides, *mode, *natural, lang),
            AttackDiceStepOut {
                faces: faces.clone(),
                natural: *natural,
                roll_mode: mode.id(),
                sides: *sides,
            }
            .into(),
        ),
        AttackEffect::Confirmation { natural, total, target_number, confirmed } => {
            let out = ConfirmationStepOut {
                confirmed: *confirmed,
                natural: *natural,
                target_number: *target_number,
                total: *total,
            };
            (confirmation_text(&out, lang), out.into())
        }
        AttackEffect::MissChanceRoll { roll, miss_chance, missed } => {
            let out = MissChanceRollStepOut { miss_chance: *miss_chance, missed: *missed, roll: *roll };
            (miss_chance_text(&out, lang), out.into())
        }
    }
}

/// The attack dice rolled (`faces`, of `sides` sides) and the natural result `mode` keeps.
fn dice_text(faces: &[u32], sides: u32, mode: RollMode, natural: i64, lang: Lang) -> String {
    use Lang::*;
    let n = faces.len();
    let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
    match (lang, mode) {
        (En, RollMode::Normal) => format!("{n}d{sides}: {} = {natural}", shown.join(" + ")),
        (Fr, RollMode::Normal) => format!("{n}d{sides}\u{a0}: {} = {natural}", shown.join(" + ")),
        (En, _) => format!(
            "{n}d{sides} {}: {}, keeps {natural}",
            glossary::roll_mode(mode, lang),
            shown.join(" and ")
        ),
        (Fr, _) => format!(
            "{n}d{sides} {}\u{a0}: {}, garde {natural}",
            glossary::roll_mode(mode, lang),
            shown.join(" et ")
        ),
    }
}

/// The critical confirmation roll against the target number, confirmed or not.
fn confirmation_text(c: &ConfirmationStepOut, lang: Lang) -> String {
    let ConfirmationStepOut { confirmed, natural, target_number, total } = c;
    match (lang, confirmed) {
        (Lang::En, true) => format!(
            "confirmation roll: natural {natural}, total {total} vs {target_number}: confirmed, critical hit"
        ),
        (Lang::En, false) => format!(
            "confirmation roll: natural {natural}, total {total} vs {target_number}: not confirmed, normal hit"
        ),
        (Lang::Fr, true) => format!(
            "jet de confirmation\u{a0}: dé naturel {natural}, total {total} contre {target_number}\u{a0}: confirmé, coup critique"
        ),
        (Lang::Fr, false) => format!(
            "jet de confirmation\u{a0}: dé naturel {natural}, total {total} contre {target_number}\u{a0}: non confirmé, coup normal"
        ),
    }
}

/// The miss chance's d% roll, and whether the attack misses.
fn miss_chance_text(m: &MissChanceRollStepOut, lang: Lang) -> String {
    let MissChanceRollStepOut { miss_chance, missed, roll } = m;
    match (lang, missed) {
        (Lang::En, true) => format!("miss chance: d% = {roll}, {miss_chance}% or less: the attack misses"),
        (Lang::En, false) => format!("miss chance: d% = {roll}, above {miss_chance}%: the hit stands"),
        (Lang::Fr, true) => {
            format!(
                "chances de rater\u{a0}: d% = {roll}, {miss_chance}\u{a0}% ou moins\u{a0}: l'attaque rate"
            )
        }
        (Lang::Fr, false) => {
            format!("chances de rater\u{a0}: d% = {roll}, plus de {miss_chance}\u{a0}%\u{a0}: le coup porte")
        }
    }
}

/// A modifier's source and detail, then what it changes ("noted" when nothing).
fn modifier_text(m: &AttackModifierStepOut, voc: &Words, lang: Lang) -> String {
    use Lang::*;
    let what = glossary::attack_source(m.source, lang);
    let d = m
        .detail
        .as_ref()
        .map(|d| glossary::attack_detail(m.source, d, voc, lang))
        .filter(|d| *d != what)
        .map_or_else(String::new, |d| format!(" ({d})"));
    let mut parts: Vec<String> = Vec::new();
    if m.attack != 0 {
        parts.push(match lang {
            En => format!("{:+} to attack", m.attack),
            Fr => format!("{:+} à l'attaque", m.attack),
        });
    }
    if m.defence != 0 {
        parts.push(match lang {
            En => format!("{:+} to the target's defence", m.defence),
            Fr => format!("{:+} à la défense de la cible", m.defence),
        });
    }
    if m.advantage {
        parts.push(match lang {
            En => "advantage".to_owned(),
            Fr => "avantage".to_owned(),
        });
    }
    if m.disadvantage {
        parts.push(match lang {
            En => "disadvantage".to_owned(),
            Fr => "désavantage".to_owned(),
        });
    }
    if parts.is_empty() {
        parts.push(match lang {
            En => "noted".to_owned(),
            Fr => "noté".to_owned(),
        });
    }
    format!("{what}{d}: {}", parts.join(", "))
}

/// The attack: impossible, rolled (natural, total, hit or miss) or its chance to hit.
fn outcome_text(o: &AttackOutcomeStepOut, melee: bool, lang: Lang) -> String {
    use Lang::*;
    let kind = match (melee, lang) {
        (true, En) => "melee attack",
        (false, En) => "ranged attack",
        (true, Fr) => "attaque au corps à corps",
        (false, Fr) => "attaque à distance",
    };
    let target_number = o.target_number;
    let pct = format!("{:.2}", o.p_hit * 100.0);
    match (lang, o.allowed, o.natural, o.hit) {
        (En, false, _, _) => format!("the {kind} cannot be made"),
        (Fr, false, _, _) => format!("l'{kind} est impossible"),
        (En, true, Some(n), Some(h)) => format!(
            "{kind}: natural {n}, total {} vs {target_number}: {}{} (P(hit) = {pct}%)",
            o.total.unwrap_or(0),
            if h { "hit" } else { "miss" },
            if o.critical == Some(true) { ", critical" } else { "" }
        ),
        (Fr, true, Some(n), Some(h)) => format!(
            "{kind} : dé naturel {n}, total {} contre {target_number} : {}{} (P(touche) = {} %)",
            o.total.unwrap_or(0),
            if h { "touché" } else { "raté" },
            if o.critical == Some(true) { ", critique" } else { "" },
            pct.replace('.', ",")
        ),
        (En, true, _, _) => format!("{kind} against {target_number}: P(hit) = {pct}%"),
        (Fr, true, _, _) => {
            format!("{kind} contre {target_number} : P(touche) = {} %", pct.replace('.', ","))
        }
    }
}

wire! {
    /// An attack modifier, advantage or outcome step (`AttackEffect`) on the wire.
    AttackEffectOut {
    /// Advantage and disadvantage sources combined.
    AdvantageCombined AdvantageCombinedStepOut { advantage: usize, disadvantage: usize, #[schema(value_type = crate::wire::RollModeId)] roll_mode: &'static str },
    /// One modifier of an attack.
    AttackModifier AttackModifierStepOut { advantage: bool, attack: i32, defence: i32, detail: Option<String>, disadvantage: bool, #[schema(value_type = crate::wire::ModifierSourceId)] source: &'static str },
    /// The attack's outcome.
    AttackOutcome AttackOutcomeStepOut { allowed: bool, critical: Option<bool>, hit: Option<bool>, natural: Option<i64>, p_hit: f64, target_number: i32, total: Option<i64> },
    /// The attack dice when more than one is rolled (advantage, disadvantage, 3d6).
    AttackDice AttackDiceStepOut { faces: Vec<u32>, natural: i64, #[schema(value_type = crate::wire::RollModeId)] roll_mode: &'static str, sides: u32 },
    /// The critical confirmation roll.
    Confirmation ConfirmationStepOut { confirmed: bool, natural: i64, target_number: i32, total: i64 },
    /// The concealment miss chance roll (d%).
    MissChanceRoll MissChanceRollStepOut { miss_chance: u32, missed: bool, roll: u32 },
    }
}
