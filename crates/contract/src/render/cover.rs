//! Text and data of the line of effect and cover trace steps.

use super::glossary::{self, metres_fr};
use super::shared::{pt, sq};
use crate::lang::Lang;
use crate::wire::{PointOut, SquareOut};
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::ruleset::Words;
use arbiter_rules::trace::CoverEffect;
use arbiter_rules::trace::cover::CoverDegree;

/// Renders one line of effect and cover step.
pub(super) fn effect(e: &CoverEffect, lang: Lang, voc: &Words) -> (String, CoverEffectOut) {
    use Lang::*;
    let degree_name = |d: CoverDegree, lang: Lang| glossary::cover_degree(d, voc, lang);
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
        CoverEffect::CoverChoice { corner, target_square, blocked, lines, degree, adjacent_test } => (
            cover_choice_text(*corner, *target_square, (*blocked, *lines), degree_name(*degree, lang), *adjacent_test, lang),
            CoverChoiceStepOut { corner: corner.map(pt), target_square: target_square.map(sq), blocked: *blocked, lines: *lines, degree: degree.id(), adjacent_test: *adjacent_test }.into(),
        ),
        CoverEffect::AlongWall { lines } => (along_wall_text(*lines, lang), AlongWallStepOut { lines: *lines }.into()),
        CoverEffect::HalfCap { capped } => (
            match (lang, capped) {
                (En, true) => "only creatures and low obstacles block: capped at half cover".to_owned(),
                (En, false) => "a solid obstacle blocks: no cap".to_owned(),
                (Fr, true) => "seuls des créatures et obstacles bas bloquent : abri limité à un abri partiel".to_owned(),
                (Fr, false) => "un obstacle plein bloque : pas de plafond".to_owned(),
            },
            HalfCapStepOut { capped: *capped }.into(),
        ),
        CoverEffect::LowObstacle { square, wall, target_ft, attacker_ft, counted } => (
            low_obstacle_text(*square, *wall, (*target_ft, *attacker_ft), *counted, lang),
            LowObstacleStepOut { square: square.map(sq), wall: *wall, target_ft: *target_ft, attacker_ft: *attacker_ft, counted: *counted }.into(),
        ),
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
                Fr => format!("une ligne passe par une meurtrière : au moins un {}", degree_name(CoverDegree::Improved, Fr)),
            },
            ArrowSlitStepOut { arrow_slit: true }.into(),
        ),
        CoverEffect::CoverResult { degree, soft, ac_bonus, save_bonus, attack_modifier, can_be_targeted } => (
            cover_result_text(degree_name(*degree, lang), (*ac_bonus, *save_bonus, *attack_modifier), *can_be_targeted, lang, voc),
            CoverResultStepOut { degree: degree.id(), soft: *soft, ac_bonus: *ac_bonus, save_bonus: *save_bonus, attack_modifier: *attack_modifier, can_be_targeted: *can_be_targeted }.into(),
        ),
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
        CoverEffect::HalfCapUnneeded { blocked } => (
            half_cap_unneeded_text(*blocked, lang),
            HalfCapUnneededStepOut { blocked: *blocked, capped: false }.into(),
        ),
        CoverEffect::CreatureCover { capped } => (
            creature_cover_text(*capped, lang),
            CreatureCoverStepOut { half_cap: *capped, soft: true }.into(),
        ),
        CoverEffect::BigCreatures { attacker_square, target_square, adjacent_test } => (
            big_creatures_text(*attacker_square, *target_square, *adjacent_test, lang),
            BigCreaturesStepOut { adjacent_test: *adjacent_test, attacker_square: attacker_square.map(sq), target_square: target_square.map(sq) }.into(),
        ),
    }
}

/// A square as its coordinates, "(x, y)"; nothing when there is none.
fn fmt_square(s: Option<Square>) -> String {
    s.map_or_else(String::new, |s| format!("({}, {})", s.x, s.y))
}

/// The attacker's best corner and target square: how many of the lines are blocked (`blocked`
/// of `lines`), giving the degree named `degree`.
fn cover_choice_text(
    corner: Option<Point>,
    target_square: Option<Square>,
    (blocked, lines): (u32, u32),
    degree: &str,
    adjacent_test: bool,
    lang: Lang,
) -> String {
    let c = corner.map_or_else(String::new, |p| fmt_pt(p, lang));
    let t = fmt_square(target_square);
    match (lang, adjacent_test) {
        (Lang::En, false) => {
            format!("best corner {c} to target square {t}: {blocked} of {lines} lines blocked → {degree}")
        }
        (Lang::En, true) => format!(
            "adjacent melee from {c} to square {t}: {blocked} of {lines} lines through a wall → {degree}"
        ),
        (Lang::Fr, false) => {
            format!("meilleur coin {c} vers la case {t} : {blocked} lignes bloquées sur {lines} → {degree}")
        }
        (Lang::Fr, true) => format!(
            "corps à corps adjacent depuis {c} vers la case {t} : {blocked} lignes sur {lines} traversent un mur → {degree}"
        ),
    }
}

/// Chosen lines blocked where they run along a wall into a junction.
fn along_wall_text(lines: u32, lang: Lang) -> String {
    match (lang, lines) {
        (Lang::En, 1) => "1 line runs along a wall into a junction: blocked there".to_owned(),
        (Lang::En, n) => format!("{n} lines run along a wall into a junction: blocked there"),
        (Lang::Fr, 1) => "1 ligne longe un mur jusqu'à une jonction\u{a0}: bloquée là".to_owned(),
        (Lang::Fr, n) => format!("{n} lignes longent un mur jusqu'à une jonction\u{a0}: bloquées là"),
    }
}

/// A low obstacle (a square, or a low wall) at `target_ft` from the target and `attacker_ft`
/// from the attacker, and whether it gives cover.
fn low_obstacle_text(
    square: Option<Square>,
    wall: Option<usize>,
    (target_ft, attacker_ft): (i64, i64),
    counted: bool,
    lang: Lang,
) -> String {
    use Lang::*;
    let what = match (square, wall, lang) {
        (Some(s), _, En) => format!("low obstacle at ({}, {})", s.x, s.y),
        (Some(s), _, Fr) => format!("obstacle bas en ({}, {})", s.x, s.y),
        (None, Some(w), En) => format!("low wall {w}"),
        (None, Some(w), Fr) => format!("muret {w}"),
        (None, None, En) => "low obstacle".to_owned(),
        (None, None, Fr) => "obstacle bas".to_owned(),
    };
    match (lang, counted) {
        (En, true) => {
            format!("{what}: target {target_ft} ft, attacker {attacker_ft} ft from it: gives cover")
        }
        (En, false) if target_ft > 30 => {
            format!("{what}: target {target_ft} ft from it, beyond 30 ft: ignored")
        }
        (En, false) => {
            format!("{what}: attacker {attacker_ft} ft is closer than the target {target_ft} ft: ignored")
        }
        (Fr, true) => format!(
            "{what} : cible à {}, attaquant à {} : fournit un abri",
            metres_fr(target_ft),
            metres_fr(attacker_ft)
        ),
        (Fr, false) if target_ft > 30 => {
            format!("{what} : cible à {}, au-delà de 9 mètres (6 cases) : ignoré", metres_fr(target_ft))
        }
        (Fr, false) => format!(
            "{what} : l'attaquant, à {}, est plus près que la cible, à {} : ignoré",
            metres_fr(attacker_ft),
            metres_fr(target_ft)
        ),
    }
}

/// The resulting degree (named `degree`) and its numbers: the AC, save and attack ones, all
/// absent under total cover (it cannot be targeted).
fn cover_result_text(
    degree: &str,
    (ac_bonus, save_bonus, attack_modifier): (Option<i32>, Option<i32>, Option<i32>),
    can_be_targeted: bool,
    lang: Lang,
    voc: &Words,
) -> String {
    use Lang::*;
    let (ac, save, att) = (ac_bonus.unwrap_or(0), save_bonus.unwrap_or(0), attack_modifier.unwrap_or(0));
    match (lang, can_be_targeted) {
        (En, false) => "total cover: cannot be targeted directly".to_owned(),
        (Fr, false) => "abri total : ne peut pas être ciblé directement".to_owned(),
        (En, true) if att != 0 => format!("{degree}: {att:+} to the attacker's ATT"),
        (Fr, true) if att != 0 => format!("{degree} : {att:+} à l'ATT de l'attaquant"),
        (En, true) => format!("{degree}: {ac:+} {}, {save:+} to saves", glossary::armour(voc, En)),
        (Fr, true) => {
            format!("{degree} : {ac:+} {}, {save:+} aux jets de sauvegarde", glossary::armour(voc, Fr))
        }
    }
}

/// Only creatures and low obstacles block, `blocked` lines: already within half cover.
fn half_cap_unneeded_text(blocked: u32, lang: Lang) -> String {
    match (lang, blocked) {
        (Lang::En, 1) => "only creatures and low obstacles block: 1 line gives half cover, the cap changes nothing".to_owned(),
        (Lang::En, n) => format!("only creatures and low obstacles block: {n} lines give half cover, the cap changes nothing"),
        (Lang::Fr, 1) => "seuls des créatures et obstacles bas bloquent\u{a0}: 1 ligne donne un abri partiel, le plafond ne change rien".to_owned(),
        (Lang::Fr, n) => format!("seuls des créatures et obstacles bas bloquent\u{a0}: {n} lignes donnent un abri partiel, le plafond ne change rien"),
    }
}

/// 5e cover from creatures only, with the half-cover cap on or off.
fn creature_cover_text(capped: bool, lang: Lang) -> String {
    match (lang, capped) {
        (Lang::En, true) => "only creatures block: a creature gives half cover at most, its bonus applies to AC and Dexterity saves".to_owned(),
        (Lang::En, false) => "only creatures block: with the half-cover cap off they count as any cover, its bonus applies to AC and Dexterity saves".to_owned(),
        (Lang::Fr, true) => "seules des créatures bloquent\u{a0}: une créature donne au plus un abri partiel, dont le bonus s'applique à la CA et aux jets de sauvegarde de Dextérité".to_owned(),
        (Lang::Fr, false) => "seules des créatures bloquent\u{a0}: sans le plafond à l'abri partiel, elles comptent comme tout abri, dont le bonus s'applique à la CA et aux jets de sauvegarde de Dextérité".to_owned(),
    }
}

/// The squares a creature of several squares attacks from or is attacked in, and the test
/// used (adjacent melee, or corner lines).
fn big_creatures_text(
    attacker: Option<Square>,
    target: Option<Square>,
    adjacent_test: bool,
    lang: Lang,
) -> String {
    let (a, t) = (fmt_square(attacker), fmt_square(target));
    match (lang, adjacent_test) {
        (Lang::En, true) => format!(
            "a creature of several squares: from square {a} to square {t}, adjacent: adjacent melee test"
        ),
        (Lang::En, false) => {
            format!("a creature of several squares: from square {a} to square {t}: corner lines test")
        }
        (Lang::Fr, true) => format!(
            "créature occupant plusieurs cases\u{a0}: de la case {a} à la case {t}, adjacentes\u{a0}: test du corps à corps adjacent"
        ),
        (Lang::Fr, false) => format!(
            "créature occupant plusieurs cases\u{a0}: de la case {a} à la case {t}\u{a0}: test des lignes de coin"
        ),
    }
}

/// A corner: "⟨0.5, 1⟩" in English; French writes decimal commas, so a semicolon separates
/// the coordinates: "⟨0,5 ; 1⟩".
fn fmt_pt(p: Point, lang: Lang) -> String {
    match lang {
        Lang::En => format!("⟨{}, {}⟩", p.x.to_f64(), p.y.to_f64()),
        Lang::Fr => format!("⟨{} ; {}⟩", p.x.to_f64(), p.y.to_f64()).replace('.', ","),
    }
}

wire! {
    /// A line of effect or cover step (`CoverEffect`) on the wire.
    CoverEffectOut {
    /// Whether a line of effect exists, and the clear segment found.
    LineOfEffect LineOfEffectStepOut { exists: bool, from: Option<PointOut>, to: Option<PointOut> },
    /// The attacker's best corner and target square.
    CoverChoice CoverChoiceStepOut { adjacent_test: bool, blocked: u32, corner: Option<PointOut>, #[schema(value_type = crate::wire::CoverDegreeId)] degree: &'static str, lines: u32, target_square: Option<SquareOut> },
    /// Chosen lines blocked where they run along a wall into a junction (`grid.line.along-wall`).
    AlongWall AlongWallStepOut { lines: u32 },
    /// Whether the 5e half-cover cap lowered the degree.
    HalfCap HalfCapStepOut { capped: bool },
    /// A low obstacle met by the chosen lines, and whether it counts.
    LowObstacle LowObstacleStepOut { attacker_ft: i64, counted: bool, square: Option<SquareOut>, target_ft: i64, wall: Option<usize> },
    /// The cover comes from creatures only (`soft` is always true).
    SoftCover SoftCoverStepOut { soft: bool },
    /// An arrow slit raised the cover (`arrow_slit` is always true).
    ArrowSlit ArrowSlitStepOut { arrow_slit: bool },
    /// The resulting degree and its numbers.
    /// `ac_bonus`, `attack_modifier` and `save_bonus` are absent under total cover.
    CoverResult CoverResultStepOut { ac_bonus: Option<i32>, attack_modifier: Option<i32>, can_be_targeted: bool, #[schema(value_type = crate::wire::CoverDegreeId)] degree: &'static str, save_bonus: Option<i32>, soft: bool },
    /// Whether the cover denies attacks of opportunity.
    CoverOpportunity CoverOpportunityStepOut { denies: bool },
    /// Melee cover asked for a target out of reach (`in_reach` is always false).
    OutOfReach CoverOutOfReachStepOut { in_reach: bool },
    /// Only creatures and low obstacles block, already within half cover: the 5e cap changes
    /// nothing (`capped` is always false).
    HalfCapUnneeded HalfCapUnneededStepOut { blocked: u32, capped: bool },
    /// 5e cover from creatures only (`soft` is always true); `half_cap`: the cap to half
    /// cover is on.
    CreatureCover CreatureCoverStepOut { half_cap: bool, soft: bool },
    /// The squares a creature of several squares attacks from or is attacked in, and whether
    /// they are adjacent (the adjacent-melee test).
    BigCreatures BigCreaturesStepOut { adjacent_test: bool, attacker_square: Option<SquareOut>, target_square: Option<SquareOut> },
    }
}
