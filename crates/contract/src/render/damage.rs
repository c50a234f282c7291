//! Text and data of the damage steps (`/v1/attack`, grapple damage in `/v1/maneuvers`).

use crate::lang::Lang;
use arbiter_rules::trace::DamageEffect;

/// A damage type in the language: the 5e and PF1 types in French as the seeds and the French
/// SRDs write them (« dégâts de feu », « contondants »); any other type as written.
fn damage_type(t: Option<&str>, lang: Lang) -> String {
    let Some(t) = t else {
        return match lang {
            Lang::En => "untyped".into(),
            Lang::Fr => "sans type".into(),
        };
    };
    if lang == Lang::En {
        return t.to_owned();
    }
    match t.to_lowercase().as_str() {
        "fire" => "feu",
        "cold" => "froid",
        "acid" => "acide",
        "lightning" => "foudre",
        "electricity" => "électricité",
        "thunder" => "tonnerre",
        "sonic" => "son",
        "poison" => "poison",
        "necrotic" => "nécrotiques",
        "radiant" => "radiants",
        "psychic" => "psychiques",
        "force" => "force",
        "bludgeoning" => "contondants",
        "piercing" => "perforants",
        "slashing" => "tranchants",
        other => return other.to_owned(),
    }
    .to_owned()
}

/// A damage expression (`"1d8+3 slashing + 1d6 fire"`) with its types in the language.
fn expression(e: &str, lang: Lang) -> String {
    e.split(" + ")
        .map(|term| match term.split_once(' ') {
            Some((dice, ty)) => format!("{dice} {}", damage_type(Some(ty), lang)),
            None => term.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

fn stat_name(stat: Option<&str>, lang: Lang) -> &'static str {
    match (stat, lang) {
        (Some("dex_mod"), Lang::En) => "Dexterity",
        (Some("dex_mod"), Lang::Fr) => "Dextérité",
        (_, Lang::En) => "Strength",
        (_, Lang::Fr) => "Force",
    }
}

fn why_text(why: &str, lang: Lang) -> &'static str {
    match (why, lang) {
        ("ranged", Lang::En) => "ranged weapon",
        ("ranged", Lang::Fr) => "arme à distance",
        ("thrown", Lang::En) => "thrown weapon",
        ("thrown", Lang::Fr) => "arme de jet",
        ("finesse", Lang::En) => "finesse weapon: the better of Strength and Dexterity",
        ("finesse", Lang::Fr) => "arme de finesse : la meilleure de Force et Dextérité",
        ("two_handed", Lang::En) => "two hands: a bonus ×1½, rounded down",
        ("two_handed", Lang::Fr) => "à deux mains : un bonus ×1,5, arrondi à l'inférieur",
        ("off_hand_half", Lang::En) => "off hand: a bonus ×½, rounded down",
        ("off_hand_half", Lang::Fr) => "main non directrice : un bonus ×0,5, arrondi à l'inférieur",
        ("off_hand_negative_only", Lang::En) => "extra attack with the other hand: only a negative modifier",
        ("off_hand_negative_only", Lang::Fr) => {
            "attaque supplémentaire de l'autre main : seulement un modificateur négatif"
        }
        (_, Lang::En) => "melee weapon",
        (_, Lang::Fr) => "arme de corps à corps",
    }
}

fn pct(p: f64, lang: Lang) -> String {
    let s = format!("{:.2}", p * 100.0);
    match lang {
        Lang::En => format!("{s}%"),
        Lang::Fr => format!("{} %", s.replace('.', ",")),
    }
}

/// Renders one damage step.
pub(super) fn effect(e: &DamageEffect, lang: Lang) -> (String, DamageEffectOut) {
    use Lang::*;
    match e {
        DamageEffect::Unarmed { dice, nonlethal } => (
            match (lang, nonlethal) {
                (En, false) => format!("unarmed strike: {dice} bludgeoning damage"),
                (En, true) => format!("unarmed strike: {dice} nonlethal bludgeoning damage"),
                (Fr, false) => format!("attaque à mains nues : {dice} dégâts contondants"),
                (Fr, true) => format!("attaque à mains nues : {dice} dégâts contondants non létaux"),
            },
            DamageUnarmedStepOut { dice: dice.clone(), nonlethal: *nonlethal }.into(),
        ),
        DamageEffect::Ability { stat, modifier, applied, why } => (
            ability_text(*stat, *modifier, *applied, why, lang),
            DamageAbilityStepOut { applied: *applied, modifier: *modifier, stat: *stat, why }.into(),
        ),
        DamageEffect::Multiplier { multiplier, why } => (
            match (lang, *why) {
                (En, "lance_mounted_charge") => format!("lance on a mounted charge: damage ×{multiplier}"),
                (Fr, "lance_mounted_charge") => {
                    format!("lance d'arçon lors d'une charge montée : dégâts ×{multiplier}")
                }
                (En, _) => format!("weapon set against a charge: damage ×{multiplier}"),
                (Fr, _) => format!("arme placée contre une charge : dégâts ×{multiplier}"),
            },
            DamageMultiplierStepOut { multiplier: *multiplier, why }.into(),
        ),
        DamageEffect::Critical { kind, rolls, p_critical } => (
            critical_text(kind, *rolls, p_critical.to_f64(), lang),
            DamageCriticalStepOut { kind, p_critical: p_critical.to_f64(), rolls: *rolls }.into(),
        ),
        DamageEffect::Minimum { minimum } => (
            match lang {
                En => format!("a hit deals at least {minimum} damage of each type"),
                Fr => format!("un coup inflige au moins {minimum} point(s) de dégâts de chaque type"),
            },
            DamageMinimumStepOut { minimum: *minimum }.into(),
        ),
        DamageEffect::Mitigation { damage_type: ty, kind, amount, bypassed } => (
            mitigation_text(ty.as_deref(), kind, *amount, *bypassed, lang),
            DamageMitigationStepOut { amount: *amount, bypassed: *bypassed, damage_type: ty.clone(), kind }
                .into(),
        ),
        DamageEffect::Rolled { faces, total, critical } => {
            let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
            let text = match (lang, critical) {
                (En, false) => format!("damage dice {}: {total} damage", shown.join(", ")),
                (En, true) => format!("critical damage dice {}: {total} damage", shown.join(", ")),
                (Fr, false) => format!("dés de dégâts {} : {total} dégâts", shown.join(", ")),
                (Fr, true) => format!("dés de dégâts du coup critique {} : {total} dégâts", shown.join(", ")),
            };
            (text, DamageRolledStepOut { critical: *critical, faces: faces.clone(), total: *total }.into())
        }
        DamageEffect::Distribution { expression, mean, hp, p_drop } => (
            distribution_text(expression, mean.to_f64(), *hp, p_drop.map(|p| p.to_f64()), lang),
            DamageDistributionStepOut {
                expression: expression.clone(),
                hp: *hp,
                mean: mean.to_f64(),
                p_drop: p_drop.map(|p| p.to_f64()),
            }
            .into(),
        ),
    }
}

/// The ability modifier `stat` gives, `modifier`, and what reaches the damage, `applied`, and
/// why (`why` a reason id: none when the expression includes it or for a projectile weapon).
fn ability_text(stat: Option<&str>, modifier: i32, applied: i32, why: &str, lang: Lang) -> String {
    use Lang::*;
    match (lang, why) {
        (En, "included") => "the damage expression already includes the ability modifier".to_owned(),
        (Fr, "included") => {
            "l'expression des dégâts inclut déjà le modificateur de caractéristique".to_owned()
        }
        (En, "ranged_none") => "no ability modifier to a projectile weapon's damage".to_owned(),
        (Fr, "ranged_none") => {
            "aucun modificateur de caractéristique aux dégâts d'une arme à projectiles".to_owned()
        }
        (En, w) => format!(
            "{} modifier {modifier:+} ({}): {applied:+} to damage",
            stat_name(stat, lang),
            why_text(w, lang)
        ),
        (Fr, w) => format!(
            "modificateur de {} {modifier:+} ({}) : {applied:+} aux dégâts",
            stat_name(stat, lang),
            why_text(w, lang)
        ),
    }
}

/// A critical hit of probability `p_critical`, by its `kind` of damage rolls.
fn critical_text(kind: &str, rolls: u32, p_critical: f64, lang: Lang) -> String {
    use Lang::*;
    let p = pct(p_critical, lang);
    match (lang, kind) {
        (En, "dice_twice") => format!("critical hit ({p}): every damage die is rolled twice"),
        (Fr, "dice_twice") => format!("coup critique ({p}) : chaque dé de dégâts est lancé deux fois"),
        (En, "multiplier") => format!("critical hit ({p}): damage ×{rolls}, extra dice not multiplied"),
        (Fr, "multiplier") => {
            format!("coup critique ({p}) : dégâts ×{rolls}, dés supplémentaires non multipliés")
        }
        (En, _) => format!("critical hit ({p}): the damage is rolled twice"),
        (Fr, _) => format!("coup critique ({p}) : les dégâts sont lancés deux fois"),
    }
}

/// An immunity, resistance, vulnerability or damage reduction (`kind`) to damage of type `ty`.
fn mitigation_text(ty: Option<&str>, kind: &str, amount: Option<i64>, bypassed: bool, lang: Lang) -> String {
    use Lang::*;
    let t = damage_type(ty, lang);
    let n = amount.unwrap_or(0);
    match (lang, kind, bypassed) {
        (En, "immunity", _) => format!("immune to {t} damage: 0"),
        (Fr, "immunity", _) => format!("immunité aux dégâts ({t}) : 0"),
        (En, "resistance", _) => format!("resistance to {t} damage: halved, rounded down"),
        (Fr, "resistance", _) => {
            format!("résistance aux dégâts ({t}) : divisés par deux, arrondi à l'inférieur")
        }
        (En, "vulnerability", _) => format!("vulnerable to {t} damage: more damage"),
        (Fr, "vulnerability", _) => format!("vulnérabilité aux dégâts ({t}) : dégâts accrus"),
        (En, "energy_resistance", _) => format!("{t} resistance {n}: {n} less damage"),
        (Fr, "energy_resistance", _) => format!("résistance ({t}) {n} : {n} dégâts de moins"),
        (En, _, true) => format!("damage reduction {n} bypassed by the weapon"),
        (Fr, _, true) => format!("réduction de dégâts {n} contournée par l'arme"),
        (En, _, false) => format!("damage reduction {n}: {n} less {t} damage"),
        (Fr, _, false) => format!("réduction de dégâts {n} : {n} dégâts ({t}) de moins"),
    }
}

/// The damage of a hit: its expression, its mean, and the chance it drops a creature of `hp`.
fn distribution_text(
    expression: &str,
    mean: f64,
    hp: Option<i32>,
    p_drop: Option<f64>,
    lang: Lang,
) -> String {
    let m = format!("{mean:.2}");
    let drop = match (hp, p_drop) {
        (Some(hp), Some(p)) => match lang {
            Lang::En => format!(", P(damage ≥ {hp} hp) = {}", pct(p, lang)),
            Lang::Fr => format!(", P(dégâts ≥ {hp} pv) = {}", pct(p, lang)),
        },
        _ => String::new(),
    };
    let shown = self::expression(expression, lang);
    match lang {
        Lang::En => format!("damage of a hit: {shown}; mean {m}, misses and failures counting 0{drop}"),
        Lang::Fr => format!(
            "dégâts d'un coup : {shown} ; moyenne {}, les échecs comptant 0{drop}",
            m.replace('.', ",")
        ),
    }
}

wire! {
    /// A damage step (`DamageEffect`) on the wire.
    DamageEffectOut {
    /// The unarmed strike's damage.
    Unarmed DamageUnarmedStepOut { dice: String, nonlethal: bool },
    /// The ability modifier added to the damage.
    Ability DamageAbilityStepOut { applied: i32, modifier: i32, #[schema(value_type = Option<crate::wire::DamageStatId>)] stat: Option<&'static str>, #[schema(value_type = crate::wire::DamageAbilityWhyId)] why: &'static str },
    /// The damage multiplied (lance on a mounted charge, braced weapon).
    Multiplier DamageMultiplierStepOut { multiplier: u32, #[schema(value_type = crate::wire::DamageMultiplierWhyId)] why: &'static str },
    /// What a critical hit does to the damage.
    Critical DamageCriticalStepOut { #[schema(value_type = crate::wire::CriticalDamageId)] kind: &'static str, p_critical: f64, rolls: u32 },
    /// The least damage of each type.
    Minimum DamageMinimumStepOut { minimum: i64 },
    /// A defence of the target against one damage type.
    Mitigation DamageMitigationStepOut { amount: Option<i64>, bypassed: bool, damage_type: Option<String>, #[schema(value_type = crate::wire::MitigationId)] kind: &'static str },
    /// The damage rolled.
    Rolled DamageRolledStepOut { critical: bool, faces: Vec<u32>, total: i64 },
    /// The damage's distribution summed up.
    Distribution DamageDistributionStepOut { expression: String, hp: Option<i32>, mean: f64, p_drop: Option<f64> },
    }
}
