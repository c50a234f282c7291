//! Text and data of the attack modifier, advantage and outcome trace steps.

use super::Lang;
use arbiter_rules::trace::{AttackEffect, RollMode};

/// Renders one attack modifier, advantage and outcome step.
pub(super) fn effect(e: &AttackEffect, lang: Lang) -> (String, AttackEffectOut) {
    use Lang::*;
    match e {
        AttackEffect::AdvantageCombined { advantage, disadvantage, result } => (
            match lang {
                En => format!(
                    "{advantage} advantage and {disadvantage} disadvantage sources: roll {}",
                    result.id()
                ),
                Fr => format!(
                    "{advantage} source(s) d'avantage et {disadvantage} de désavantage : jet {}",
                    match result {
                        RollMode::Advantage => "avec avantage",
                        RollMode::Disadvantage => "avec désavantage",
                        RollMode::Normal => "normal",
                    }
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
            (modifier_text(&out, lang), out.into())
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
    }
}

/// A modifier's source and detail, then what it changes ("noted" when nothing).
fn modifier_text(m: &AttackModifierStepOut, lang: Lang) -> String {
    use Lang::*;
    let what = m.source.replace('_', " ");
    let d = m.detail.as_ref().map_or_else(String::new, |d| format!(" ({d})"));
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
    }
}
