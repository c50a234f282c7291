//! Text and data of the initiative trace steps.

use super::glossary;
use crate::lang::Lang;
use arbiter_rules::initiative::{InitiativeEffect, SurpriseEffect};
use arbiter_rules::trace::RollMode;

/// Renders one initiative step.
pub(super) fn effect(e: &InitiativeEffect, lang: Lang) -> (String, InitiativeEffectOut) {
    use Lang::*;
    match e {
        InitiativeEffect::Bonus { creature, bonus, mode, causes } => (
            bonus_text(creature, *bonus, *mode, causes, lang),
            InitiativeBonusStepOut {
                creature: creature.clone(),
                bonus: *bonus,
                roll_mode: mode.id(),
                causes: causes.clone(),
            }
            .into(),
        ),
        InitiativeEffect::Rolled { creature, shared_with, faces, natural, total } => {
            let out = InitiativeRolledStepOut {
                creature: creature.clone(),
                shared_with: shared_with.clone(),
                faces: faces.clone(),
                natural: *natural,
                total: *total,
            };
            (rolled_text(&out, lang), out.into())
        }
        InitiativeEffect::Tie { creatures, by } => (
            match lang {
                En => format!(
                    "tie between {}: decided by {}",
                    creatures.join(" and "),
                    glossary::tie_by(by, lang)
                ),
                Fr => format!(
                    "égalité entre {} : départagés par {}",
                    creatures.join(" et "),
                    glossary::tie_by(by, lang)
                ),
            },
            InitiativeTieStepOut { creatures: creatures.clone(), by }.into(),
        ),
        InitiativeEffect::Surprised { creature, effect } => (
            surprised_text(creature, effect, lang),
            SurprisedStepOut { creature: creature.clone(), effect: effect.id() }.into(),
        ),
        InitiativeEffect::Order { creatures } => (
            match lang {
                En => format!("order: {}", creatures.join(", ")),
                Fr => format!("ordre : {}", creatures.join(", ")),
            },
            InitiativeOrderStepOut { order: creatures.clone() }.into(),
        ),
        InitiativeEffect::RollOff { creature, round, faces, natural } => {
            let out = InitiativeRollOffStepOut {
                creature: creature.clone(),
                faces: faces.clone(),
                natural: *natural,
                round: *round,
            };
            (roll_off_text(&out, lang), out.into())
        }
    }
}

/// A creature's initiative bonus, and its roll mode with the causes when any.
fn bonus_text(creature: &str, bonus: i32, mode: RollMode, causes: &[&str], lang: Lang) -> String {
    use Lang::*;
    match (causes.is_empty(), lang) {
        (false, _) => {
            let why: Vec<String> = causes.iter().map(|c| glossary::initiative_cause(c, lang)).collect();
            let mode = glossary::roll_mode(mode, lang);
            match lang {
                En => format!("{creature}: initiative {bonus:+}, {mode} ({})", why.join(", ")),
                Fr => format!("{creature} : initiative {bonus:+}, {mode} ({})", why.join(", ")),
            }
        }
        (true, En) => format!("{creature}: initiative {bonus:+}"),
        (true, Fr) => format!("{creature} : initiative {bonus:+}"),
    }
}

/// A creature's initiative roll, and who shares it.
fn rolled_text(r: &InitiativeRolledStepOut, lang: Lang) -> String {
    let InitiativeRolledStepOut { creature, faces, natural, shared_with, total } = r;
    let shared = if shared_with.is_empty() {
        String::new()
    } else {
        match lang {
            Lang::En => format!(" (shared with {})", shared_with.join(", ")),
            Lang::Fr => format!(" (partagé avec {})", shared_with.join(", ")),
        }
    };
    let faces_text = faces.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    match lang {
        Lang::En => format!("{creature} rolls {faces_text} → {natural}, total {total}{shared}"),
        Lang::Fr => format!("{creature} lance {faces_text} → {natural}, total {total}{shared}"),
    }
}

/// A surprised creature, and what surprise costs it.
fn surprised_text(creature: &str, effect: &SurpriseEffect, lang: Lang) -> String {
    use Lang::*;
    match (effect, lang) {
        (SurpriseEffect::LosesFirstTurn, En) => {
            format!("{creature} is surprised: no move, action or reaction on its first turn")
        }
        (SurpriseEffect::LosesFirstTurn, Fr) => {
            format!("{creature} est surpris : ni mouvement, ni action, ni réaction à son premier tour")
        }
        (SurpriseEffect::Disadvantage, En) => format!("{creature} is surprised: disadvantage on initiative"),
        (SurpriseEffect::Disadvantage, Fr) => format!("{creature} est surpris : désavantage à l'initiative"),
        (SurpriseEffect::NoSurpriseRoundAction, En) => {
            format!("{creature} is surprised: does not act in the surprise round, flat-footed")
        }
        (SurpriseEffect::NoSurpriseRoundAction, Fr) => {
            format!("{creature} est surpris : n'agit pas pendant le round de surprise, pris au dépourvu")
        }
    }
}

/// One round of a roll-off: the die, or the dice and the one kept.
fn roll_off_text(r: &InitiativeRollOffStepOut, lang: Lang) -> String {
    let InitiativeRollOffStepOut { creature, faces, natural, round } = r;
    let rolled = match faces.as_slice() {
        [one] => one.to_string(),
        _ => format!("{} → {natural}", faces.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    };
    match lang {
        Lang::En => format!("roll-off, round {round}: {creature} rolls {rolled}"),
        Lang::Fr => format!("jet de départage, tour {round}\u{a0}: {creature} obtient {rolled}"),
    }
}

wire! {
    /// An initiative step (`InitiativeEffect`) on the wire.
    InitiativeEffectOut {
    /// A creature's bonus and roll mode.
    Bonus InitiativeBonusStepOut { bonus: i32, #[schema(value_type = Vec<crate::wire::RollModeCauseId>)] causes: Vec<&'static str>, creature: String, #[schema(value_type = crate::wire::RollModeId)] roll_mode: &'static str },
    /// A roll.
    Rolled InitiativeRolledStepOut { creature: String, faces: Vec<i64>, natural: i64, shared_with: Vec<String>, total: i64 },
    /// A tie and how it was broken.
    Tie InitiativeTieStepOut { #[schema(value_type = crate::wire::DecidedById)] by: &'static str, creatures: Vec<String> },
    /// Surprise.
    Surprised SurprisedStepOut { creature: String, #[schema(value_type = crate::wire::SurpriseEffectId)] effect: &'static str },
    /// The final order.
    Order InitiativeOrderStepOut { order: Vec<String> },
    /// One roll of a roll-off between tied creatures.
    RollOff InitiativeRollOffStepOut { creature: String, faces: Vec<i64>, natural: i64, round: u32 },
    }
}
