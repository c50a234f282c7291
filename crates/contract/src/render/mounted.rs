//! Text and data of the mounted combat trace steps (a rider's fall, a mount's initiative).

use super::shared::{dist, plural, sq};
use crate::lang::Lang;
use crate::wire::SquareOut;
use arbiter_rules::dice::Ratio;
use arbiter_rules::mounted::{FallCause, MountedEffect};

/// Renders one mounted combat step.
pub(super) fn effect(e: &MountedEffect, lang: Lang) -> (String, MountedEffectOut) {
    use Lang::*;
    match e {
        MountedEffect::Fall { rider, mount, cause, dc, bonus, stays, reaction, falls } => {
            let text = fall_text((rider, mount), *cause, (*dc, *bonus), (*stays, *falls), lang);
            (
                text,
                MountedFallStepOut {
                    rider: rider.clone(),
                    mount: mount.clone(),
                    cause: cause.id(),
                    dc: *dc,
                    bonus: *bonus,
                    stays_mounted: stays.to_f64(),
                    stays_mounted_exact: stays.to_string(),
                    unseated: falls.to_f64(),
                    unseated_exact: falls.to_string(),
                    reaction_lands_on_feet: *reaction,
                }
                .into(),
            )
        }
        MountedEffect::SaveRolled { rider, natural, total, dc, success } => (
            match (lang, success) {
                (En, true) => {
                    format!("{rider}'s Dexterity save: {natural} → {total} against DC {dc}: stays mounted")
                }
                (En, false) => {
                    format!("{rider}'s Dexterity save: {natural} → {total} against DC {dc}: falls")
                }
                (Fr, true) => {
                    format!(
                        "JS de Dextérité de {rider} : {natural} → {total} contre DD {dc} : reste en selle"
                    )
                }
                (Fr, false) => {
                    format!("JS de Dextérité de {rider} : {natural} → {total} contre DD {dc} : tombe")
                }
            },
            MountedSaveRolledStepOut {
                rider: rider.clone(),
                natural: *natural,
                total: *total,
                dc: *dc,
                success: *success,
            }
            .into(),
        ),
        MountedEffect::Lands { rider, square, prone, alternatives } => (
            lands_text(rider, *square, *prone, *alternatives, lang),
            MountedLandsStepOut {
                rider: rider.clone(),
                square: square.map(sq),
                prone: *prone,
                alternatives: *alternatives as u64,
            }
            .into(),
        ),
        MountedEffect::InitiativeFollows { mount, rider } => (
            match lang {
                En => format!(
                    "{mount} is a controlled mount: its initiative changes to match {rider}'s; it acts on {rider}'s turn, right after"
                ),
                Fr => format!(
                    "{mount} est une monture contrôlée : son initiative est celle de {rider} ; elle agit au tour de {rider}, juste après"
                ),
            },
            MountedInitiativeFollowsStepOut { mount: mount.clone(), rider: rider.clone() }.into(),
        ),
        MountedEffect::InitiativeOwn { mount, rider } => (
            match lang {
                En => format!(
                    "{mount}, ridden by {rider}, is an independent mount: it keeps its own initiative"
                ),
                Fr => format!("{mount}, monture indépendante de {rider}, garde son propre rang d'initiative"),
            },
            MountedInitiativeOwnStepOut { mount: mount.clone(), rider: rider.clone() }.into(),
        ),
    }
}

/// "The mount is moved against its will: the rider saves or falls", with the odds.
fn fall_text(
    (rider, mount): (&str, &str),
    cause: FallCause,
    (dc, bonus): (Option<i32>, Option<i32>),
    (stays, falls): (Ratio, Ratio),
    lang: Lang,
) -> String {
    let what = match (cause, lang) {
        (FallCause::MountMoved, Lang::En) => format!("{mount}, ridden by {rider}, is moved against its will"),
        (FallCause::MountMoved, Lang::Fr) => {
            format!("{mount}, monture de {rider}, est déplacée contre sa volonté")
        }
        (FallCause::RiderProne, Lang::En) => format!("{rider} is knocked prone while riding {mount}"),
        (FallCause::RiderProne, Lang::Fr) => format!("{rider}, sur sa monture {mount}, est jeté à terre"),
        (FallCause::MountProne, Lang::En) => format!("{mount}, ridden by {rider}, is knocked prone"),
        (FallCause::MountProne, Lang::Fr) => format!("{mount}, monture de {rider}, est jetée à terre"),
        (FallCause::RiderMoved, Lang::En) => format!("{rider} is pushed while riding {mount}"),
        (FallCause::RiderMoved, Lang::Fr) => format!("{rider}, sur sa monture {mount}, est repoussé"),
    };
    match ((dc, bonus), lang) {
        ((Some(dc), Some(b)), Lang::En) => format!(
            "{what}: {rider} makes a DC {dc} Dexterity save ({b:+}) or falls off, prone; P(stays mounted) = {stays}, P(falls) = {falls}"
        ),
        ((Some(dc), Some(b)), Lang::Fr) => format!(
            "{what} : {rider} fait un JS de Dextérité DD {dc} ({b:+}) sous peine de tomber, à terre ; P(reste en selle) = {stays}, P(chute) = {falls}"
        ),
        (_, Lang::En) => format!(
            "{what}: {rider} falls prone, unless it uses its reaction to dismount and land on its feet (no save); P(leaves {mount}) = {falls}"
        ),
        (_, Lang::Fr) => format!(
            "{what} : {rider} tombe à terre, sauf s'il utilise sa réaction pour descendre et retomber sur ses pieds (sans JS) ; P(quitte {mount}) = {falls}"
        ),
    }
}

/// Where a falling rider lands: the proposed space and how many others would do.
fn lands_text(
    rider: &str,
    square: Option<arbiter_rules::grid::Square>,
    prone: bool,
    others: usize,
    lang: Lang,
) -> String {
    let five = dist(5, lang);
    match (square, lang) {
        (Some(s), Lang::En) => format!(
            "if {rider} falls, it lands {} on ({}, {}): the free space within {five} of the mount nearest to it ({others} other{})",
            if prone { "prone" } else { "(prone, unless its reaction lands it on its feet)" },
            s.x,
            s.y,
            plural(others as i64),
        ),
        (Some(s), Lang::Fr) => format!(
            "si {rider} tombe, il se retrouve {} en ({}, {}) : l'espace libre à {five} de la monture le plus proche de lui ({others} autre{})",
            if prone {
                "à terre"
            } else {
                "(à terre, sauf si sa réaction le fait retomber sur ses pieds)"
            },
            s.x,
            s.y,
            plural(others as i64),
        ),
        (None, Lang::En) => format!("no free space within {five} of the mount for {rider}: the GM places it"),
        (None, Lang::Fr) => {
            format!("aucun espace libre à {five} de la monture pour {rider} : le MJ le place")
        }
    }
}

wire! {
    /// A mounted combat step (`MountedEffect`) on the wire.
    MountedEffectOut {
    /// A rider at risk of falling: its save (none: SRD 5.1, mount knocked prone) and the exact odds.
    Fall MountedFallStepOut { bonus: Option<i32>, #[schema(value_type = crate::wire::FallCauseId)] cause: &'static str, dc: Option<i32>, mount: String, reaction_lands_on_feet: bool, rider: String, stays_mounted: f64, stays_mounted_exact: String, unseated: f64, unseated_exact: String },
    /// The rider's Dexterity save, rolled.
    SaveRolled MountedSaveRolledStepOut { dc: i32, natural: i64, rider: String, success: bool, total: i64 },
    /// Where a falling rider lands (none: no free space within 5 ft of the mount).
    Lands MountedLandsStepOut { alternatives: u64, prone: bool, rider: String, square: Option<SquareOut> },
    /// A controlled mount takes its rider's initiative.
    InitiativeFollows MountedInitiativeFollowsStepOut { mount: String, rider: String },
    /// An independent mount keeps its own initiative.
    InitiativeOwn MountedInitiativeOwnStepOut { mount: String, rider: String },
    }
}
