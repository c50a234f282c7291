//! Text and data of the movement trace steps.

use super::glossary;
use super::shared::{dist, sq};
use crate::lang::Lang;
use crate::wire::SquareOut;
use arbiter_rules::movement::{MoveEffect, MoveOpportunity, Step, StepIssue};
use arbiter_rules::opportunity::OpportunityReason;

fn at(s: arbiter_rules::grid::Square) -> String {
    format!("({}, {})", s.x, s.y)
}

fn issue_text(i: &StepIssue, lang: Lang) -> String {
    let q = i.square().map(at).unwrap_or_default();
    match (i, lang) {
        (StepIssue::Solid { .. }, Lang::En) => format!("{q} is solid"),
        (StepIssue::Solid { .. }, Lang::Fr) => format!("{q} est une case pleine"),
        (StepIssue::Wall { .. }, Lang::En) => format!("a wall stands before {q}"),
        (StepIssue::Wall { .. }, Lang::Fr) => format!("un mur barre l'accès à {q}"),
        (StepIssue::Corner { .. }, Lang::En) => format!("the diagonal step to {q} would cut a corner"),
        (StepIssue::Corner { .. }, Lang::Fr) => format!("le pas en diagonale vers {q} couperait un coin"),
        (StepIssue::Creature { creature, why, .. }, Lang::En) => {
            format!("cannot pass through {creature} on {q} ({})", glossary::passage(why, Lang::En))
        }
        (StepIssue::Creature { creature, why, .. }, Lang::Fr) => {
            format!("impossible de traverser {creature} en {q} ({})", glossary::passage(why, Lang::Fr))
        }
        (StepIssue::NoMovementLeft, Lang::En) => "not enough movement left".to_owned(),
        (StepIssue::NoMovementLeft, Lang::Fr) => "plus assez de mouvement".to_owned(),
    }
}

fn step_text(s: &Step, lang: Lang) -> String {
    let mut notes: Vec<String> = Vec::new();
    if s.difficult {
        notes.push(match lang {
            Lang::En => "difficult".to_owned(),
            Lang::Fr => "difficile".to_owned(),
        });
    }
    if s.hampered {
        notes.push(match lang {
            Lang::En => "hampering obstacle".to_owned(),
            Lang::Fr => "obstacle gênant".to_owned(),
        });
    }
    if let Some(c) = &s.through {
        notes.push(match lang {
            Lang::En => format!("through {c}"),
            Lang::Fr => format!("à travers {c}"),
        });
    }
    let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join(", ")) };
    match (&s.issue, lang) {
        (Some(i), Lang::En) => {
            format!("step {} {} → {}{notes}: {}", s.index, at(s.from), at(s.to), issue_text(i, lang))
        }
        (Some(i), Lang::Fr) => {
            format!("pas {} {} → {}{notes} : {}", s.index, at(s.from), at(s.to), issue_text(i, lang))
        }
        (None, Lang::En) => {
            format!(
                "step {} {} → {}{notes}: {} ft, {} ft so far",
                s.index,
                at(s.from),
                at(s.to),
                s.cost_ft,
                s.total_ft
            )
        }
        (None, Lang::Fr) => format!(
            "pas {} {} → {}{notes} : {}, {} en tout",
            s.index,
            at(s.from),
            at(s.to),
            dist(s.cost_ft, lang),
            dist(s.total_ft, lang)
        ),
    }
}

fn step_json(s: &Step) -> MoveEffectOut {
    MovePathStepOut {
        index: s.index,
        from: sq(s.from),
        to: sq(s.to),
        cost_ft: s.cost_ft,
        total_ft: s.total_ft,
        diagonal: s.diagonal,
        difficult: s.difficult,
        hampered: s.hampered,
        through: s.through.clone(),
        legal: s.legal,
        reason: s.issue.as_ref().map(StepIssue::id),
    }
    .into()
}

/// The wire form of an attack of opportunity along a path (a move's or a charge's).
pub(super) fn opportunity_out(o: &MoveOpportunity) -> MoveOpportunityStepOut {
    MoveOpportunityStepOut {
        creature: o.creature.clone(),
        provoked: o.provoked,
        reason: o.reason.id(),
        square: sq(o.square),
        step: o.step,
    }
}

fn opportunity(o: &MoveOpportunity, lang: Lang) -> (String, MoveEffectOut) {
    let q = at(o.square);
    (
        match (o.provoked, o.reason, lang) {
            (_, OpportunityReason::OfferedToAlly, Lang::En) => format!(
                "{} may use its reaction as the mover leaves its reach from {q} (ally: offered, not automatic)",
                o.creature
            ),
            (_, OpportunityReason::OfferedToAlly, Lang::Fr) => format!(
                "{} peut utiliser sa réaction quand le mouvement quitte son allonge depuis {q} (allié : proposé, pas automatique)",
                o.creature
            ),
            (true, why, Lang::En) => format!(
                "{} gets an attack of opportunity (the mover {}, on {q})",
                o.creature,
                glossary::opportunity_reason(why, lang)
            ),
            (true, why, Lang::Fr) => format!(
                "{} obtient une attaque d'opportunité (le déplacement {}, en {q})",
                o.creature,
                glossary::opportunity_reason(why, lang)
            ),
            (false, why, Lang::En) => format!(
                "no attack of opportunity from {} on {q} ({})",
                o.creature,
                glossary::opportunity_reason(why, lang)
            ),
            (false, why, Lang::Fr) => format!(
                "pas d'attaque d'opportunité de {} en {q} ({})",
                o.creature,
                glossary::opportunity_reason(why, lang)
            ),
        },
        opportunity_out(o).into(),
    )
}

/// Renders one movement step.
pub(super) fn effect(e: &MoveEffect, lang: Lang) -> (String, MoveEffectOut) {
    use Lang::*;
    match e {
        MoveEffect::Budget { speed_ft, budget_ft, why } => {
            let out = MoveBudgetStepOut { speed_ft: *speed_ft, budget_ft: *budget_ft, why: why.clone() };
            (budget_text(&out, lang), out.into())
        }
        MoveEffect::Prone { stands_up, cost_ft } => (
            match (stands_up, lang) {
                (true, En) if *cost_ft > 0 => format!("prone: standing up costs {cost_ft} ft"),
                (true, Fr) if *cost_ft > 0 => format!("à terre : se relever coûte {}", dist(*cost_ft, lang)),
                (true, En) => "prone: standing up is a move action and provokes".to_owned(),
                (true, Fr) => "à terre : se relever est une action de mouvement et provoque".to_owned(),
                (false, En) => "prone: crawls".to_owned(),
                (false, Fr) => "à terre : rampe".to_owned(),
            },
            MoveProneStepOut { stands_up: *stands_up, cost_ft: *cost_ft }.into(),
        ),
        MoveEffect::Step(s) => (step_text(s, lang), step_json(s)),
        MoveEffect::Total { total_ft, budget_ft, within } => (
            match (budget_ft, within, lang) {
                (None, _, En) => format!("{total_ft} ft moved, not counted against the speed"),
                (None, _, Fr) => format!("{} parcourus, hors vitesse", dist(*total_ft, lang)),
                (Some(b), true, En) => format!("{total_ft} ft of {b} ft"),
                (Some(b), true, Fr) => format!("{} sur {}", dist(*total_ft, lang), dist(*b, lang)),
                (Some(b), false, En) => format!("{total_ft} ft: more than the {b} ft available"),
                (Some(b), false, Fr) => {
                    format!("{} : plus que les {} disponibles", dist(*total_ft, lang), dist(*b, lang))
                }
            },
            MoveTotalStepOut { total_ft: *total_ft, budget_ft: *budget_ft, within: *within }.into(),
        ),
        MoveEffect::Mounted { mount, mounting, cost_ft, issue } => {
            let out = MoveMountedStepOut {
                mount: mount.clone(),
                mounting: *mounting,
                cost_ft: *cost_ft,
                issue: *issue,
            };
            (mounted_text(&out, lang), out.into())
        }
        MoveEffect::Opportunity(o) => opportunity(o, lang),
        MoveEffect::EndsOccupied(e) => (
            match lang {
                En => format!(
                    "the move ends in {}'s space: {}",
                    e.creature,
                    glossary::consequence(e.consequence, lang)
                ),
                Fr => format!(
                    "le mouvement s'achève dans l'espace de {} : {}",
                    e.creature,
                    glossary::consequence(e.consequence, lang)
                ),
            },
            MoveEndsOccupiedStepOut { creature: e.creature.clone(), consequence: e.consequence }.into(),
        ),
        MoveEffect::Dragged { creature } => (
            match lang {
                En => format!(
                    "{creature} is dragged along: it moves with the grappler, which never leaves its reach (no opportunity attack from {creature}); moved without its own movement, {creature} provokes none"
                ),
                Fr => format!(
                    "{creature} est traîné : il se déplace avec l'agrippeur, qui ne quitte donc jamais son allonge (pas d'attaque d'opportunité de {creature}) ; déplacé sans utiliser son propre mouvement, {creature} n'en provoque aucune"
                ),
            },
            MoveDraggedStepOut { dragged: creature.clone() }.into(),
        ),
        MoveEffect::NoOpportunity { why } => (
            match lang {
                En => format!("no attack of opportunity ({})", glossary::no_opportunity(why, lang)),
                Fr => format!("aucune attaque d'opportunité ({})", glossary::no_opportunity(why, lang)),
            },
            NoOpportunityStepOut { no_opportunity: why }.into(),
        ),
    }
}

/// The creature's speed, and the movement it may spend and why when that differs.
fn budget_text(b: &MoveBudgetStepOut, lang: Lang) -> String {
    let (speed, budget) = (dist(b.speed_ft, lang), dist(b.budget_ft, lang));
    let why: Vec<String> = b.why.iter().map(|w| glossary::budget_why(w, lang)).collect();
    match lang {
        Lang::En if why.is_empty() => format!("speed {speed}"),
        Lang::Fr if why.is_empty() => format!("vitesse {speed}"),
        Lang::En => format!("speed {speed}; may spend {budget} ({})", why.join(", ")),
        Lang::Fr => format!("vitesse {speed} ; peut dépenser {budget} ({})", why.join(", ")),
    }
}

/// Mounting or dismounting, its cost, or what prevents it.
fn mounted_text(m: &MoveMountedStepOut, lang: Lang) -> String {
    use Lang::*;
    let MoveMountedStepOut { mount, mounting, cost_ft, issue } = m;
    match (mounting, issue, lang) {
        (true, None, En) => format!("mounts {mount} for {cost_ft} ft"),
        (true, None, Fr) => format!("monte sur {mount} pour {}", dist(*cost_ft, lang)),
        (false, None, En) => format!("dismounts {mount} for {cost_ft} ft"),
        (false, None, Fr) => format!("descend de {mount} pour {}", dist(*cost_ft, lang)),
        (true, Some(i), En) => format!("cannot mount {mount}: {}", glossary::mount_issue(i, lang)),
        (true, Some(i), Fr) => {
            format!("impossible de monter sur {mount} : {}", glossary::mount_issue(i, lang))
        }
        (false, Some(i), En) => format!("cannot dismount {mount}: {}", glossary::mount_issue(i, lang)),
        (false, Some(i), Fr) => {
            format!("impossible de descendre de {mount} : {}", glossary::mount_issue(i, lang))
        }
    }
}

wire! {
    /// A movement step (`MoveEffect`) on the wire.
    MoveEffectOut {
    /// One step of the path.
    Step MovePathStepOut { cost_ft: u32, diagonal: bool, difficult: bool, from: SquareOut, hampered: bool, index: usize, legal: bool, #[schema(value_type = Option<crate::wire::StepIssueId>)] reason: Option<&'static str>, through: Option<String>, to: SquareOut, total_ft: u32 },
    /// An attack of opportunity the move provokes (or not).
    Opportunity MoveOpportunityStepOut { creature: String, provoked: bool, #[schema(value_type = crate::wire::MoveOpportunityReasonId)] reason: &'static str, square: SquareOut, step: usize },
    /// The movement available, and why.
    Budget MoveBudgetStepOut { budget_ft: u32, speed_ft: u32, #[schema(value_type = Vec<crate::wire::BudgetWhyId>)] why: Vec<&'static str> },
    /// Standing up from prone, or crawling.
    Prone MoveProneStepOut { cost_ft: u32, stands_up: bool },
    /// The total against the budget.
    Total MoveTotalStepOut { budget_ft: Option<u32>, total_ft: u32, within: bool },
    /// Mounting or dismounting.
    Mounted MoveMountedStepOut { cost_ft: u32, #[schema(value_type = Option<crate::wire::MountIssueId>)] issue: Option<&'static str>, mount: String, mounting: bool },
    /// The move ends in another creature's space.
    EndsOccupied MoveEndsOccupiedStepOut { #[schema(value_type = crate::wire::EndsOccupiedId)] consequence: &'static str, creature: String },
    /// The grappled creature dragged along (no opportunity attack either way between it and the grappler).
    Dragged MoveDraggedStepOut { dragged: String },
    /// Why the move provokes no attack of opportunity.
    NoOpportunity NoOpportunityStepOut { no_opportunity: &'static str },
    }
}
