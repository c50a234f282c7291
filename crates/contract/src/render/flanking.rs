//! Text and data of the flanking trace steps.

use super::glossary::{self, metres_fr};
use super::shared::{list, sq};
use crate::lang::Lang;
use crate::wire::SquareOut;
use arbiter_rules::flanking::{Edges, FlankEffect, NoFlank, NotFlankedWhy};
use arbiter_rules::grid::Square;

fn at(s: Square) -> String {
    format!("({}, {})", s.x, s.y)
}

fn edges_name(e: Edges, lang: Lang) -> &'static str {
    match (e, lang) {
        (Edges::WestEast, Lang::En) => "the west and east edges",
        (Edges::NorthSouth, Lang::En) => "the north and south edges",
        (Edges::Both, Lang::En) => "opposite corners",
        (Edges::WestEast, Lang::Fr) => "les bords ouest et est",
        (Edges::NorthSouth, Lang::Fr) => "les bords nord et sud",
        (Edges::Both, Lang::Fr) => "des coins opposés",
    }
}

fn why_text(why: &NoFlank, lang: Lang) -> String {
    use Lang::*;
    match (why, lang) {
        (NoFlank::Condition(c), En) => {
            format!("it is {}, so it neither threatens nor flanks", glossary::condition(*c, En))
        }
        (NoFlank::Condition(c), Fr) => {
            format!("{}, ne menace pas et ne prend pas en tenaille", glossary::condition(*c, Fr))
        }
        (NoFlank::Unarmed, En) => "unarmed without Improved Unarmed Strike, it threatens nothing".to_owned(),
        (NoFlank::Unarmed, Fr) => {
            "à mains nues sans Science du combat à mains nues, ne menace rien".to_owned()
        }
        (NoFlank::ReachZero, En) => "0 ft reach, it threatens nothing".to_owned(),
        (NoFlank::ReachZero, Fr) => "allonge nulle, ne menace rien".to_owned(),
        (NoFlank::OutOfReach { reach_ft, too_close_ft: Some(t) }, En) => {
            format!(
                "the target is out of its {reach_ft} ft reach (a reach weapon cannot hit at {t} ft or less)"
            )
        }
        (NoFlank::OutOfReach { reach_ft, too_close_ft: None }, En) => {
            format!("the target is out of its {reach_ft} ft reach")
        }
        (NoFlank::OutOfReach { reach_ft, too_close_ft: Some(t) }, Fr) => format!(
            "la cible est hors de son allonge de {} (une arme à allonge ne frappe pas à {} ou moins)",
            metres_fr(*reach_ft),
            metres_fr(*t)
        ),
        (NoFlank::OutOfReach { reach_ft, too_close_ft: None }, Fr) => {
            format!("la cible est hors de son allonge de {}", metres_fr(*reach_ft))
        }
        (NoFlank::NotAdjacent, En) => "it is not adjacent to the target".to_owned(),
        (NoFlank::NotAdjacent, Fr) => "n'est pas au contact de la cible".to_owned(),
        (NoFlank::CannotSee, En) => "it cannot see the target".to_owned(),
        (NoFlank::CannotSee, Fr) => "ne voit pas la cible".to_owned(),
    }
}

/// The wire form of a creature that cannot flank: the reason's own fields sit among the
/// others in alphabetical order, present only for the reasons that have them.
fn cannot_flank(creature: &str, attacker: bool, why: &NoFlank) -> CannotFlankStepOut {
    let mut out = CannotFlankStepOut {
        attacker,
        condition: None,
        creature: creature.to_owned(),
        reach_ft: None,
        reason: "",
        too_close_ft: None,
    };
    out.reason = match why {
        NoFlank::Condition(c) => {
            out.condition = Some(c.id());
            "condition"
        }
        NoFlank::Unarmed => "unarmed",
        NoFlank::ReachZero => "reach_zero",
        NoFlank::OutOfReach { reach_ft, too_close_ft } => {
            (out.reach_ft, out.too_close_ft) = (Some(*reach_ft), *too_close_ft);
            "out_of_reach"
        }
        NoFlank::NotAdjacent => "not_adjacent",
        NoFlank::CannotSee => "cannot_see",
    };
    out
}

/// Renders one flanking step.
pub(super) fn effect(e: &FlankEffect, lang: Lang) -> (String, FlankEffectOut) {
    use Lang::*;
    match e {
        FlankEffect::InheritedFromPf1e => (
            match lang {
                En => "hb3d follows Pathfinder flanking".to_owned(),
                Fr => "hb3d suit la prise en tenaille de Pathfinder".to_owned(),
            },
            FlankInheritedStepOut { inherits: "pf1e.flanking.geometry" }.into(),
        ),
        FlankEffect::OptionalRuleOff => (
            match lang {
                En => "optional flanking is off: nobody flanks".to_owned(),
                Fr => "la prise en tenaille optionnelle est désactivée : personne ne prend en tenaille"
                    .to_owned(),
            },
            FlankRuleOffStepOut { in_force: false }.into(),
        ),
        FlankEffect::AttackerOnTargetSide { attacker } => (
            attacker_on_target_side_text(attacker, lang),
            FlankAttackerOnTargetSideStepOut { attacker: attacker.clone() }.into(),
        ),
        FlankEffect::Threatens { creature, reach_ft, too_close_ft, second_diagonal } => (
            threatens_text(creature, *reach_ft, *second_diagonal, lang),
            FlankThreatensStepOut {
                creature: creature.clone(),
                threatens: true,
                reach_ft: *reach_ft,
                too_close_ft: *too_close_ft,
                second_diagonal: *second_diagonal,
            }
            .into(),
        ),
        FlankEffect::Adjacent { creature } => (
            adjacent_text(creature, lang),
            FlankAdjacentStepOut { creature: creature.clone(), adjacent: true, sees: true }.into(),
        ),
        FlankEffect::CannotFlank { creature, attacker, why } => {
            (cannot_flank_text(creature, *attacker, why, lang), cannot_flank(creature, *attacker, why).into())
        }
        FlankEffect::OutOfReach { creatures } => (
            out_of_reach_text(creatures, lang),
            FlankOutOfReachStepOut { creatures: creatures.clone(), reason: "out_of_reach" }.into(),
        ),
        FlankEffect::NotAdjacent { creatures } => (
            not_adjacent_text(creatures, lang),
            FlankNotAdjacentStepOut { creatures: creatures.clone(), reason: "not_adjacent" }.into(),
        ),
        FlankEffect::Pair { helper, attacker_square, helper_square, edges } => (
            pair_text(helper, *attacker_square, *helper_square, *edges, lang),
            FlankPairStepOut {
                helper: helper.clone(),
                attacker_square: sq(*attacker_square),
                helper_square: sq(*helper_square),
                edges: edges.id(),
            }
            .into(),
        ),
        FlankEffect::NotOpposite { helper } => (
            not_opposite_text(helper, lang),
            FlankNotOppositeStepOut { helper: helper.clone(), opposite: false }.into(),
        ),
        FlankEffect::Outcome { flanked, flankers, attack_bonus, advantage } => (
            outcome_text(*flanked, flankers, *attack_bonus, *advantage, lang),
            FlankOutcomeStepOut {
                flanked: *flanked,
                flankers: flankers.clone(),
                attack_bonus: *attack_bonus,
                advantage: *advantage,
            }
            .into(),
        ),
        FlankEffect::NotFlanked { why } => (
            not_flanked_text(*why, lang),
            FlankNotFlankedStepOut {
                advantage: false,
                attack_bonus: 0,
                flanked: false,
                flankers: Vec::new(),
                reason: why.id(),
            }
            .into(),
        ),
    }
}

/// The attacker is on the target's side, so flanking does not apply.
fn attacker_on_target_side_text(attacker: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{attacker} is on the target's side: attacking an ally never flanks"),
        Lang::Fr => {
            format!("{attacker} est du camp de la cible : attaquer un allié ne prend jamais en tenaille")
        }
    }
}

/// A creature adjacent to the target that can help flank.
fn adjacent_text(creature: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{creature} is adjacent to the target, sees it and is not incapacitated"),
        Lang::Fr => format!("{creature} est au contact de la cible, la voit et n'est pas neutralisé"),
    }
}

/// Creatures the target is out of reach of, who cannot help flank.
fn out_of_reach_text(creatures: &[String], lang: Lang) -> String {
    match lang {
        Lang::En => format!("the target is out of reach of {}: they cannot help flank", list(creatures)),
        Lang::Fr => {
            format!("la cible est hors d'allonge de {} : pas de prise en tenaille avec eux", list(creatures))
        }
    }
}

/// Creatures not adjacent to the target, who cannot help flank.
fn not_adjacent_text(creatures: &[String], lang: Lang) -> String {
    match lang {
        Lang::En => format!("{} not adjacent to the target: they cannot help flank", list(creatures)),
        Lang::Fr => {
            format!("{} pas au contact de la cible : pas de prise en tenaille avec eux", list(creatures))
        }
    }
}

/// Not flanked, and why.
fn not_flanked_text(why: NotFlankedWhy, lang: Lang) -> String {
    let reason = match (why, lang) {
        (NotFlankedWhy::AttackerOnTargetSide, Lang::En) => "the attacker is on the target's side",
        (NotFlankedWhy::AttackerCannotFlank, Lang::En) => "the attacker cannot flank the target",
        (NotFlankedWhy::NoHelper, Lang::En) => "no other creature can flank with the attacker",
        (NotFlankedWhy::NoneOpposite, Lang::En) => "no helper stands on the opposite border or corner",
        (NotFlankedWhy::AttackerOnTargetSide, Lang::Fr) => "l'attaquant est du côté de la cible",
        (NotFlankedWhy::AttackerCannotFlank, Lang::Fr) => {
            "l'attaquant ne peut pas prendre la cible en tenaille"
        }
        (NotFlankedWhy::NoHelper, Lang::Fr) => {
            "aucune autre créature ne peut prendre en tenaille avec l'attaquant"
        }
        (NotFlankedWhy::NoneOpposite, Lang::Fr) => {
            "aucune créature ne se tient sur le bord ou le coin opposé"
        }
    };
    match lang {
        Lang::En => format!("not flanked: {reason}"),
        Lang::Fr => format!("pas de prise en tenaille\u{a0}: {reason}"),
    }
}

/// A creature that threatens the target, with its reach.
fn threatens_text(creature: &str, reach_ft: i64, second_diagonal: bool, lang: Lang) -> String {
    use Lang::*;
    match (lang, second_diagonal) {
        (En, true) => format!(
            "{creature} threatens the target with {reach_ft} ft reach through the second-diagonal exception"
        ),
        (En, false) => format!("{creature} threatens the target ({reach_ft} ft reach)"),
        (Fr, true) => format!(
            "{creature} menace la cible avec une allonge de {} par l'exception de la seconde diagonale",
            metres_fr(reach_ft)
        ),
        (Fr, false) => format!("{creature} menace la cible, avec une allonge de {}", metres_fr(reach_ft)),
    }
}

/// A creature (the attacker or a would-be helper) that cannot flank, and why.
fn cannot_flank_text(creature: &str, attacker: bool, why: &NoFlank, lang: Lang) -> String {
    use Lang::*;
    let role = match (lang, attacker) {
        (En, true) => "attacker ",
        (En, false) | (Fr, false) => "",
        (Fr, true) => "attaquant ",
    };
    match lang {
        En => format!("{role}{creature} cannot flank: {}", why_text(why, lang)),
        Fr => format!("{role}{creature} ne peut pas prendre en tenaille : {}", why_text(why, lang)),
    }
}

/// The line between the centres of two flankers' squares and the edges it meets.
fn pair_text(
    helper: &str,
    attacker_square: Square,
    helper_square: Square,
    edges: Edges,
    lang: Lang,
) -> String {
    match lang {
        Lang::En => format!(
            "the line between the centres of {} and {}'s square {} meets {} of the target: flanked with {helper}",
            at(attacker_square),
            helper,
            at(helper_square),
            edges_name(edges, Lang::En)
        ),
        Lang::Fr => format!(
            "la ligne entre les centres de {} et de la case {} de {} touche {} de la cible : prise en tenaille avec {helper}",
            at(attacker_square),
            at(helper_square),
            helper,
            edges_name(edges, Lang::Fr)
        ),
    }
}

/// Whether the target is flanked, with whom, and what it gives.
pub fn outcome_text(
    flanked: bool,
    flankers: &[String],
    attack_bonus: i32,
    advantage: bool,
    lang: Lang,
) -> String {
    use Lang::*;
    match (lang, flanked, advantage) {
        (En, true, true) => format!("flanked with {}: advantage on melee attacks", list(flankers)),
        (En, true, false) => {
            format!("flanked with {}: {attack_bonus:+} to melee attacks", list(flankers))
        }
        (En, false, _) => "not flanked".to_owned(),
        (Fr, true, true) => {
            format!("pris en tenaille avec {} : avantage au corps à corps", list(flankers))
        }
        (Fr, true, false) => {
            format!(
                "pris en tenaille avec {} : {attack_bonus:+} aux attaques au corps à corps",
                list(flankers)
            )
        }
        (Fr, false, _) => "pas de prise en tenaille".to_owned(),
    }
}

/// A helper not on the opposite border or corner of the target.
fn not_opposite_text(helper: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{helper} is not on the opposite border or corner: no line between centres meets opposite edges"
        ),
        Lang::Fr => format!(
            "{helper} n'est pas sur le bord ou le coin opposé : aucune ligne entre les centres ne touche deux bords opposés"
        ),
    }
}

wire! {
    /// A flanking step (`FlankEffect`) on the wire.
    FlankEffectOut {
    /// hb3d takes flanking from PF1.
    InheritedFromPf1e FlankInheritedStepOut { inherits: &'static str },
    /// 5e optional flanking is off (`in_force` is always false).
    OptionalRuleOff FlankRuleOffStepOut { in_force: bool },
    /// The attacker is of the target's own side.
    AttackerOnTargetSide FlankAttackerOnTargetSideStepOut { attacker: String },
    /// A creature threatens the target (`threatens` is always true).
    Threatens FlankThreatensStepOut { creature: String, reach_ft: i64, second_diagonal: bool, threatens: bool, too_close_ft: Option<i64> },
    /// A creature is adjacent to the target and sees it (both always true).
    Adjacent FlankAdjacentStepOut { adjacent: bool, creature: String, sees: bool },
    /// Would-be helpers whose reach does not include the target.
    OutOfReach FlankOutOfReachStepOut { creatures: Vec<String>, #[schema(value_type = crate::wire::NoFlankId)] reason: &'static str },
    /// Would-be helpers not adjacent to the target.
    NotAdjacent FlankNotAdjacentStepOut { creatures: Vec<String>, #[schema(value_type = crate::wire::NoFlankId)] reason: &'static str },
    /// A helper flanks with the attacker, and the squares whose centres make the line.
    Pair FlankPairStepOut { attacker_square: SquareOut, #[schema(value_type = crate::wire::EdgesId)] edges: &'static str, helper: String, helper_square: SquareOut },
    /// A creature cannot flank: `reason`, with `condition` for a condition and `reach_ft` and
    /// `too_close_ft` for `out_of_reach`.
    CannotFlank CannotFlankStepOut {
        attacker: bool,
        #[schema(value_type = Option<crate::wire::ConditionId>)] condition: Option<&'static str>,
        creature: String,
        reach_ft: Option<i64>,
        #[schema(value_type = crate::wire::NoFlankId)] reason: &'static str,
        too_close_ft: Option<i64>,
    },
    /// A helper that is not on the opposite border or corner (`opposite` is always false).
    NotOpposite FlankNotOppositeStepOut { helper: String, opposite: bool },
    /// The answer.
    Outcome FlankOutcomeStepOut { advantage: bool, attack_bonus: i32, flanked: bool, flankers: Vec<String> },
    /// The answer when not flanked (no bonus, no flankers), and why: `reason`.
    NotFlanked FlankNotFlankedStepOut { advantage: bool, attack_bonus: i32, flanked: bool, flankers: Vec<String>, #[schema(value_type = crate::wire::NotFlankedWhyId)] reason: &'static str },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 13: hb3d's step taking flanking from PF1 comes before the answer is known, so it
    /// names no bonus (it read "+2 to ATT" for targets that were not flanked).
    #[test]
    fn inherited_flanking_names_no_bonus() {
        for lang in [Lang::En, Lang::Fr] {
            let (text, _) = effect(&FlankEffect::InheritedFromPf1e, lang);
            assert!(!text.contains('+') && !text.contains("ATT"), "{text}");
            let (text, _) = effect(&FlankEffect::NotFlanked { why: NotFlankedWhy::NoneOpposite }, lang);
            assert!(!text.contains('+'), "{text}");
        }
    }
}
