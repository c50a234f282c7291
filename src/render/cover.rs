//! Text and data of the line of effect and cover trace steps.

use super::{Lang, metres, pt, sq};
use crate::wire::{PointOut, SquareOut};
use arbiter_rules::grid::Point;
use arbiter_rules::trace::CoverEffect;
use arbiter_rules::trace::cover::CoverDegree;

/// Renders one line of effect and cover step.
pub(super) fn effect(e: &CoverEffect, lang: Lang) -> (String, CoverEffectOut) {
    use Lang::*;
    match e {
        CoverEffect::LineOfEffect { exists, from, to } => (
            match (lang, exists) {
                (En, true) => "line of effect exists".to_owned(),
                (En, false) => "no line of effect: total cover".to_owned(),
                (Fr, true) => "la ligne d'effet existe".to_owned(),
                (Fr, false) => "aucune ligne d'effet : abri total".to_owned(),
            },
            LineOfEffectStepOut { exists: *exists, from: from.map(pt), to: to.map(pt) }.into(),
        ),
        CoverEffect::CoverChoice { corner, target_square, blocked, lines, degree, adjacent_test } => {
            let c = corner.map_or_else(String::new, fmt_pt);
            let t = target_square.map_or_else(String::new, |s| format!("({}, {})", s.x, s.y));
            let text = match (lang, adjacent_test) {
                (En, false) => format!("best corner {c} to target square {t}: {blocked} of {lines} lines blocked → {}", degree_name(*degree, En)),
                (En, true) => format!("adjacent melee from {c} to square {t}: {blocked} of {lines} lines through a wall → {}", degree_name(*degree, En)),
                (Fr, false) => format!("meilleur coin {c} vers la case {t} : {blocked} lignes bloquées sur {lines} → {}", degree_name(*degree, Fr)),
                (Fr, true) => format!("corps à corps adjacent depuis {c} vers la case {t} : {blocked} lignes sur {lines} traversent un mur → {}", degree_name(*degree, Fr)),
            };
            (
                text,
                CoverChoiceStepOut { corner: corner.map(pt), target_square: target_square.map(sq), blocked: *blocked, lines: *lines, degree: degree.id(), adjacent_test: *adjacent_test }.into(),
            )
        }
        CoverEffect::HalfCap { capped } => (
            match (lang, capped) {
                (En, true) => "only creatures and low obstacles block: capped at half cover".to_owned(),
                (En, false) => "a solid obstacle blocks: no cap".to_owned(),
                (Fr, true) => "seuls des créatures et obstacles bas bloquent : abri limité à un demi-abri".to_owned(),
                (Fr, false) => "un obstacle plein bloque : pas de plafond".to_owned(),
            },
            HalfCapStepOut { capped: *capped }.into(),
        ),
        CoverEffect::LowObstacle { square, wall, target_ft, attacker_ft, counted } => {
            let what = match (square, wall, lang) {
                (Some(s), _, En) => format!("low obstacle at ({}, {})", s.x, s.y),
                (Some(s), _, Fr) => format!("obstacle bas en ({}, {})", s.x, s.y),
                (None, Some(w), En) => format!("low wall {w}"),
                (None, Some(w), Fr) => format!("muret {w}"),
                (None, None, En) => "low obstacle".to_owned(),
                (None, None, Fr) => "obstacle bas".to_owned(),
            };
            let text = match (lang, counted) {
                (En, true) => format!("{what}: target {target_ft} ft, attacker {attacker_ft} ft from it: gives cover"),
                (En, false) if *target_ft > 30 => format!("{what}: target {target_ft} ft from it, beyond 30 ft: ignored"),
                (En, false) => format!("{what}: attacker {attacker_ft} ft is closer than the target {target_ft} ft: ignored"),
                (Fr, true) => format!("{what} : cible à {} m, attaquant à {} m : fournit un abri", metres(*target_ft), metres(*attacker_ft)),
                (Fr, false) if *target_ft > 30 => format!("{what} : cible à {} m, au-delà de 9 m : ignoré", metres(*target_ft)),
                (Fr, false) => format!("{what} : l'attaquant ({} m) est plus près que la cible ({} m) : ignoré", metres(*attacker_ft), metres(*target_ft)),
            };
            (text, LowObstacleStepOut { square: square.map(sq), wall: *wall, target_ft: *target_ft, attacker_ft: *attacker_ft, counted: *counted }.into())
        }
        CoverEffect::SoftCover => (
            match lang {
                En => "only creatures give this cover (soft cover: no Reflex bonus, no Stealth)".to_owned(),
                Fr => "seules des créatures fournissent cet abri (abri mou : pas de bonus aux Réflexes ni de Discrétion)".to_owned(),
            },
            SoftCoverStepOut { soft: true }.into(),
        ),
        CoverEffect::ArrowSlit => (
            match lang {
                En => "a line passes through an arrow slit: at least improved (three-quarters) cover".to_owned(),
                Fr => "une ligne passe par une meurtrière : au moins un abri supérieur".to_owned(),
            },
            ArrowSlitStepOut { arrow_slit: true }.into(),
        ),
        CoverEffect::CoverResult { degree, soft, ac_bonus, save_bonus, attack_modifier, can_be_targeted } => {
            let text = match (lang, can_be_targeted) {
                (En, false) => "total cover: cannot be targeted directly".to_owned(),
                (Fr, false) => "abri total : ne peut pas être ciblé directement".to_owned(),
                (En, true) if *attack_modifier != 0 => format!("{}: {attack_modifier:+} to the attacker's ATT", degree_name(*degree, En)),
                (Fr, true) if *attack_modifier != 0 => format!("{} : {attack_modifier:+} à l'ATT de l'attaquant", degree_name(*degree, Fr)),
                (En, true) => format!("{}: {ac_bonus:+} AC, {save_bonus:+} to saves", degree_name(*degree, En)),
                (Fr, true) => format!("{} : {ac_bonus:+} CA, {save_bonus:+} aux jets de sauvegarde", degree_name(*degree, Fr)),
            };
            (
                text,
                CoverResultStepOut { degree: degree.id(), soft: *soft, ac_bonus: *ac_bonus, save_bonus: *save_bonus, attack_modifier: *attack_modifier, can_be_targeted: *can_be_targeted }.into(),
            )
        }
        CoverEffect::CoverOpportunity { denies } => (
            match (lang, denies) {
                (En, true) => "the target's cover denies attacks of opportunity against it".to_owned(),
                (En, false) => "no cover against attacks of opportunity".to_owned(),
                (Fr, true) => "l'abri de la cible empêche les attaques d'opportunité contre elle".to_owned(),
                (Fr, false) => "pas d'abri contre les attaques d'opportunité".to_owned(),
            },
            CoverOpportunityStepOut { denies: *denies }.into(),
        ),
        CoverEffect::OutOfReach => (
            match lang {
                En => "no target square is within reach; cover computed by the corner-lines test anyway (Q-37)".to_owned(),
                Fr => "aucune case de la cible n'est à portée d'allonge ; abri calculé quand même par les lignes de coin (Q-37)".to_owned(),
            },
            CoverOutOfReachStepOut { in_reach: false }.into(),
        ),
    }
}

fn fmt_pt(p: Point) -> String {
    format!("⟨{}, {}⟩", p.x.to_f64(), p.y.to_f64())
}

fn degree_name(d: CoverDegree, lang: Lang) -> &'static str {
    match (d, lang) {
        (CoverDegree::None, Lang::En) => "no cover",
        (CoverDegree::Partial, Lang::En) => "partial cover",
        (CoverDegree::Half, Lang::En) => "half cover",
        (CoverDegree::Cover, Lang::En) => "cover",
        (CoverDegree::ThreeQuarters, Lang::En) => "three-quarters cover",
        (CoverDegree::Improved, Lang::En) => "improved cover",
        (CoverDegree::Total, Lang::En) => "total cover",
        (CoverDegree::None, Lang::Fr) => "pas d'abri",
        (CoverDegree::Partial, Lang::Fr) => "abri partiel",
        (CoverDegree::Half, Lang::Fr) => "demi-abri",
        (CoverDegree::Cover, Lang::Fr) => "abri",
        (CoverDegree::ThreeQuarters, Lang::Fr) => "abri aux trois quarts",
        (CoverDegree::Improved, Lang::Fr) => "abri supérieur",
        (CoverDegree::Total, Lang::Fr) => "abri total",
    }
}

wire! {
    /// A line of effect or cover step (`CoverEffect`) on the wire.
    CoverEffectOut {
    /// Whether a line of effect exists, and the clear segment found.
    LineOfEffect LineOfEffectStepOut { exists: bool, from: Option<PointOut>, to: Option<PointOut> },
    /// The attacker's best corner and target square.
    CoverChoice CoverChoiceStepOut { adjacent_test: bool, blocked: u32, corner: Option<PointOut>, #[schema(value_type = crate::wire::CoverDegreeId)] degree: &'static str, lines: u32, target_square: Option<SquareOut> },
    /// Whether the 5e half-cover cap lowered the degree.
    HalfCap HalfCapStepOut { capped: bool },
    /// A low obstacle met by the chosen lines, and whether it counts.
    LowObstacle LowObstacleStepOut { attacker_ft: i64, counted: bool, square: Option<SquareOut>, target_ft: i64, wall: Option<usize> },
    /// The cover comes from creatures only (`soft` is always true).
    SoftCover SoftCoverStepOut { soft: bool },
    /// An arrow slit raised the cover (`arrow_slit` is always true).
    ArrowSlit ArrowSlitStepOut { arrow_slit: bool },
    /// The resulting degree and its numbers.
    CoverResult CoverResultStepOut { ac_bonus: i32, attack_modifier: i32, can_be_targeted: bool, #[schema(value_type = crate::wire::CoverDegreeId)] degree: &'static str, save_bonus: i32, soft: bool },
    /// Whether the cover denies attacks of opportunity.
    CoverOpportunity CoverOpportunityStepOut { denies: bool },
    /// Melee cover asked for a target out of reach (`in_reach` is always false).
    OutOfReach CoverOutOfReachStepOut { in_reach: bool },
    }
}
