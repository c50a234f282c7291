//! Text and data of the reach and range band trace steps.

use super::glossary::metres_fr;
use super::shared::list;
use crate::lang::Lang;
use arbiter_rules::trace::{IntoMeleeExemption, RangeBand, RangeEffect};

/// Renders one reach and range band step.
pub(super) fn effect(e: &RangeEffect, lang: Lang) -> (String, RangeEffectOut) {
    use Lang::*;
    match e {
        RangeEffect::Reach { reach_ft, too_close_ft, within, second_diagonal } => {
            let text = reach_text(*reach_ft, *too_close_ft, *within, *second_diagonal, lang);
            (
                text,
                ReachStepOut {
                    reach_ft: *reach_ft,
                    too_close_ft: *too_close_ft,
                    within: *within,
                    second_diagonal: *second_diagonal,
                }
                .into(),
            )
        }
        RangeEffect::RangeBand { band, increment, modifier, disadvantage, max_ft } => {
            let text = band_text(*band, *increment, *modifier, *max_ft, lang);
            (
                text,
                RangeBandStepOut {
                    band: band.id(),
                    increment: *increment,
                    modifier: *modifier,
                    disadvantage: *disadvantage,
                    max_ft: *max_ft,
                }
                .into(),
            )
        }
        RangeEffect::CloseCombat { by, ignored } => {
            let text = close_combat_text(by, ignored, lang);
            (
                text,
                CloseCombatStepOut { disadvantage: !by.is_empty(), by: by.clone(), ignored: ignored.clone() }
                    .into(),
            )
        }
        RangeEffect::IntoMelee { engaged_with, penalty, exemption } => {
            let why = |lang: Lang| match (exemption, lang) {
                (Some(IntoMeleeExemption::PreciseShot), En) => " (Precise Shot)",
                (Some(IntoMeleeExemption::PreciseShot), Fr) => " (Tir de précision)",
                (Some(IntoMeleeExemption::TenFeetFromFriends), En) => {
                    " (part of the target is 10 ft or more from every friend)"
                }
                (Some(IntoMeleeExemption::TenFeetFromFriends), Fr) => {
                    " (une partie de la cible est à 3 mètres (2 cases) ou plus de tout allié)"
                }
                (Some(IntoMeleeExemption::ThreeSizesLarger), En) => " (target three or more sizes larger)",
                (Some(IntoMeleeExemption::ThreeSizesLarger), Fr) => {
                    " (cible plus grande de trois catégories ou plus)"
                }
                (None, _) => "",
            };
            let text = match lang {
                En => format!(
                    "target engaged in melee with {}: {penalty:+} to attack{}",
                    list(engaged_with),
                    why(En)
                ),
                Fr => format!(
                    "cible engagée au corps à corps avec {} : {penalty:+} à l'attaque{}",
                    list(engaged_with),
                    why(Fr)
                ),
            };
            let exemption = exemption.map(|x| match x {
                IntoMeleeExemption::PreciseShot => "precise_shot",
                IntoMeleeExemption::TenFeetFromFriends => "ten_feet_from_friends",
                IntoMeleeExemption::ThreeSizesLarger => "three_sizes_larger",
            });
            (
                text,
                IntoMeleeStepOut { engaged_with: engaged_with.clone(), penalty: *penalty, exemption }.into(),
            )
        }
    }
}

/// Melee reach: within it (perhaps by the second diagonal), or out of it.
fn reach_text(
    reach_ft: i64,
    too_close_ft: Option<i64>,
    within: bool,
    second_diagonal: bool,
    lang: Lang,
) -> String {
    use Lang::*;
    match (lang, within, too_close_ft) {
        (En, true, _) if second_diagonal => {
            format!("within {reach_ft} ft reach through the second-diagonal exception")
        }
        (En, true, _) => format!("within {reach_ft} ft reach"),
        (En, false, Some(t)) => {
            format!("out of reach: {reach_ft} ft reach weapon cannot hit at {t} ft or less")
        }
        (En, false, None) => format!("out of reach ({reach_ft} ft)"),
        (Fr, true, _) if second_diagonal => {
            format!("à portée d'allonge de {} par l'exception de la seconde diagonale", metres_fr(reach_ft))
        }
        (Fr, true, _) => format!("à portée d'allonge de {}", metres_fr(reach_ft)),
        (Fr, false, Some(t)) => format!(
            "hors d'allonge : une arme à allonge de {} ne frappe pas à {} ou moins",
            metres_fr(reach_ft),
            metres_fr(t)
        ),
        (Fr, false, None) => format!("hors d'allonge de {}", metres_fr(reach_ft)),
    }
}

/// A ranged weapon's band, with its increment and modifier.
fn band_text(band: RangeBand, increment: Option<u32>, modifier: i32, max_ft: i64, lang: Lang) -> String {
    use Lang::*;
    match (lang, band) {
        (En, RangeBand::Normal) => "within normal range".to_owned(),
        (En, RangeBand::Long) => "beyond normal range, within long range: disadvantage".to_owned(),
        (En, RangeBand::Increment) => {
            format!("range increment {}: {modifier:+} to attack", increment.unwrap_or(1))
        }
        (En, RangeBand::Reach | RangeBand::OutOfRange) => {
            format!("out of range (the weapon reaches {max_ft} ft)")
        }
        (Fr, RangeBand::Normal) => "à portée normale".to_owned(),
        (Fr, RangeBand::Long) => "au-delà de la portée normale, à portée longue : désavantage".to_owned(),
        (Fr, RangeBand::Increment) => {
            format!("facteur de portée {} : {modifier:+} à l'attaque", increment.unwrap_or(1))
        }
        (Fr, RangeBand::Reach | RangeBand::OutOfRange) => {
            format!("hors de portée : l'arme porte à {}", metres_fr(max_ft))
        }
    }
}

/// 5e: hostile creatures within 5 ft impose disadvantage, or are ignored.
fn close_combat_text(by: &[String], ignored: &[String], lang: Lang) -> String {
    use Lang::*;
    match (lang, by.is_empty()) {
        (En, false) => format!("ranged attack within 5 ft of {}: disadvantage", list(by)),
        (En, true) => {
            format!(
                "hostile creatures within 5 ft ({}) are incapacitated or cannot see: no disadvantage",
                list(ignored)
            )
        }
        (Fr, false) => format!("attaque à distance à 1,50 mètre (1 case) de {} : désavantage", list(by)),
        (Fr, true) => format!(
            "les créatures hostiles à 1,50 mètre (1 case), {}, sont neutralisées ou ne voient pas : pas de désavantage",
            list(ignored)
        ),
    }
}

wire! {
    /// A reach or range band step (`RangeEffect`) on the wire.
    RangeEffectOut {
    /// Melee reach and whether the target is within it.
    Reach ReachStepOut { reach_ft: i64, second_diagonal: bool, too_close_ft: Option<i64>, within: bool },
    /// A ranged weapon's band.
    RangeBand RangeBandStepOut { #[schema(value_type = crate::wire::RangeBandId)] band: &'static str, disadvantage: bool, increment: Option<u32>, max_ft: i64, modifier: i32 },
    /// 5e ranged attack within 5 ft of a hostile creature.
    CloseCombat CloseCombatStepOut { by: Vec<String>, disadvantage: bool, ignored: Vec<String> },
    /// PF1 ranged attack into melee.
    IntoMelee IntoMeleeStepOut { engaged_with: Vec<String>, #[schema(value_type = Option<crate::wire::IntoMeleeExemptionId>)] exemption: Option<&'static str>, penalty: i32 },
    }
}
