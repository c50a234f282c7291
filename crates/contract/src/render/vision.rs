//! Text and data of the light, sight and concealment trace steps.

use crate::lang::Lang;
use arbiter_rules::encounter::Light;
use arbiter_rules::vision::{Cause, ConcealmentDegree, Sense, VisionEffect};

fn light_name(l: Light, lang: Lang) -> &'static str {
    match (l, lang) {
        (Light::Bright, Lang::En) => "bright light",
        (Light::Dim, Lang::En) => "dim light",
        (Light::Darkness, Lang::En) => "darkness",
        (Light::Bright, Lang::Fr) => "une lumière vive",
        (Light::Dim, Lang::Fr) => "une lumière faible",
        (Light::Darkness, Lang::Fr) => "l'obscurité",
    }
}

/// The name of a cause of concealment, in `lang`.
pub fn cause_name(c: Cause, lang: Lang) -> &'static str {
    match (c, lang) {
        (Cause::ConcealingSquares, Lang::En) => "lines pass through concealing squares",
        (Cause::HeavyObscurement, Lang::En) => "heavily obscured (opaque squares)",
        (Cause::DimLight, Lang::En) => "the target is in dim light",
        (Cause::Darkness, Lang::En) => "the target is in darkness",
        (Cause::ObserverInDarkness, Lang::En) => {
            "the attacker is in darkness without darkvision (effectively blinded)"
        }
        (Cause::Invisible, Lang::En) => "the target is invisible",
        (Cause::Hidden, Lang::En) => "the target is hidden",
        (Cause::Blinded, Lang::En) => "the attacker is blinded",
        (Cause::NoLineOfSight, Lang::En) => "line of effect but no line of sight",
        (Cause::ConcealingSquares, Lang::Fr) => "des lignes traversent des cases qui camouflent",
        (Cause::HeavyObscurement, Lang::Fr) => "zone à visibilité nulle (cases opaques)",
        (Cause::DimLight, Lang::Fr) => "la cible est dans une lumière faible",
        (Cause::Darkness, Lang::Fr) => "la cible est dans l'obscurité",
        (Cause::ObserverInDarkness, Lang::Fr) => {
            "l'attaquant est dans l'obscurité sans vision dans le noir (comme aveuglé)"
        }
        (Cause::Invisible, Lang::Fr) => "la cible est invisible",
        (Cause::Hidden, Lang::Fr) => "la cible est cachée",
        (Cause::Blinded, Lang::Fr) => "l'attaquant est aveuglé",
        (Cause::NoLineOfSight, Lang::Fr) => "ligne d'effet mais pas de ligne de vue",
    }
}

fn sense_name(s: Sense, lang: Lang) -> &'static str {
    match (s, lang) {
        (Sense::Darkvision, Lang::En) => "darkvision",
        (Sense::LowLightVision, Lang::En) => "low-light vision",
        (Sense::Blindsight, Lang::En) => "blindsight",
        (Sense::Truesight, Lang::En) => "truesight",
        (Sense::SeeInvisibility, Lang::En) => "see invisibility",
        (Sense::Darkvision, Lang::Fr) => "vision dans le noir",
        (Sense::LowLightVision, Lang::Fr) => "vision nocturne",
        (Sense::Blindsight, Lang::Fr) => "perception aveugle",
        (Sense::Truesight, Lang::Fr) => "vision véritable",
        (Sense::SeeInvisibility, Lang::Fr) => "détection de l'invisibilité",
    }
}

/// The name of a degree of concealment, in `lang`.
pub fn degree_name(d: ConcealmentDegree, lang: Lang) -> &'static str {
    match (d, lang) {
        (ConcealmentDegree::None, Lang::En) => "no concealment",
        (ConcealmentDegree::Concealment, Lang::En) => "concealment",
        (ConcealmentDegree::Total, Lang::En) => "total concealment",
        (ConcealmentDegree::None, Lang::Fr) => "pas de camouflage",
        (ConcealmentDegree::Concealment, Lang::Fr) => "camouflage",
        (ConcealmentDegree::Total, Lang::Fr) => "camouflage total",
    }
}

/// Renders one vision step.
pub(super) fn effect(e: &VisionEffect, lang: Lang) -> (String, VisionEffectOut) {
    match e {
        VisionEffect::LightAt { creature, level, source, doubled } => (
            light_at_text(creature, *level, *source, *doubled, lang),
            LightAtStepOut {
                creature: creature.clone(),
                light: level.id(),
                source: *source,
                doubled: *doubled,
            }
            .into(),
        ),
        VisionEffect::Cause { cause, degree } => (
            format!("{}: {}", cause_name(*cause, lang), degree_name(*degree, lang)),
            ConcealmentCauseStepOut { cause: cause.id(), degree: degree.id() }.into(),
        ),
        VisionEffect::Override { sense, cause } => (
            match lang {
                Lang::En => format!("{} overrides: {}", sense_name(*sense, lang), cause_name(*cause, lang)),
                Lang::Fr => format!("{} annule : {}", sense_name(*sense, lang), cause_name(*cause, lang)),
            },
            SenseOverrideStepOut { sense: sense.id(), cause: cause.id() }.into(),
        ),
        VisionEffect::Sees { observer, subject, sees } => (
            match (lang, sees) {
                (Lang::En, true) => format!("{observer} can see {subject}"),
                (Lang::En, false) => format!("{observer} cannot see {subject}"),
                (Lang::Fr, true) => format!("{observer} voit {subject}"),
                (Lang::Fr, false) => format!("{observer} ne voit pas {subject}"),
            },
            SeesStepOut { observer: observer.clone(), subject: subject.clone(), sees: *sees }.into(),
        ),
        VisionEffect::Result { degree, miss_chance } => (
            match lang {
                Lang::En => format!("{}: {miss_chance}% miss chance", degree_name(*degree, lang)),
                Lang::Fr => format!("{} : {miss_chance} % de chances de rater", degree_name(*degree, lang)),
            },
            ConcealmentResultStepOut { degree: degree.id(), miss_chance: *miss_chance }.into(),
        ),
        VisionEffect::Unseen { observer, subject, cause } => (
            match lang {
                Lang::En => format!(
                    "{observer} cannot see {subject}: {}",
                    unseen_reason(observer, subject, *cause, lang)
                ),
                Lang::Fr => format!(
                    "{observer} ne voit pas {subject}\u{a0}: {}",
                    unseen_reason(observer, subject, *cause, lang)
                ),
            },
            UnseenStepOut {
                cause: cause.id(),
                observer: observer.clone(),
                sees: false,
                subject: subject.clone(),
            }
            .into(),
        ),
        VisionEffect::SenseFor { observer, subject, sense, cause } => (
            sense_for_text(observer, subject, *sense, *cause, lang),
            SenseForStepOut {
                cause: cause.id(),
                observer: observer.clone(),
                sense: sense.id(),
                subject: subject.clone(),
            }
            .into(),
        ),
    }
}

/// The light a creature stands in, the source giving it, and whether low-light vision doubled
/// the radii.
fn light_at_text(creature: &str, level: Light, source: Option<usize>, doubled: bool, lang: Lang) -> String {
    let by = match (source, lang) {
        (Some(i), Lang::En) => format!(" from light source {i}"),
        (Some(i), Lang::Fr) => format!(" de la source de lumière {i}"),
        (None, _) => String::new(),
    };
    let dbl = match (doubled, lang) {
        (true, Lang::En) => " (radii doubled by low-light vision)",
        (true, Lang::Fr) => " (rayons doublés par la vision nocturne)",
        (false, _) => "",
    };
    match lang {
        Lang::En => format!("{creature} stands in {}{by}{dbl}", light_name(level, lang)),
        Lang::Fr => format!("{creature} se trouve dans {}{by}{dbl}", light_name(level, lang)),
    }
}

/// The sense by which `observer` perceives `subject` in spite of `cause`.
fn sense_for_text(observer: &str, subject: &str, sense: Sense, cause: Cause, lang: Lang) -> String {
    match (lang, sense) {
        (Lang::En, Sense::Blindsight) => format!("{observer} perceives {subject} by blindsight"),
        (Lang::Fr, Sense::Blindsight) => format!("{observer} perçoit {subject} par perception aveugle"),
        (Lang::En, _) => format!(
            "{observer}'s {} overrides: {}",
            sense_name(sense, lang),
            unseen_reason(observer, subject, cause, lang)
        ),
        (Lang::Fr, _) => format!(
            "{} de {observer} annule\u{a0}: {}",
            sense_name(sense, lang),
            unseen_reason(observer, subject, cause, lang)
        ),
    }
}

/// Why `observer` cannot see `subject`, naming whichever of the two it is about.
fn unseen_reason(observer: &str, subject: &str, cause: Cause, lang: Lang) -> String {
    match (cause, lang) {
        (Cause::Blinded, Lang::En) => format!("{observer} is blinded"),
        (Cause::Hidden, Lang::En) => format!("{subject} is hidden"),
        (Cause::Invisible, Lang::En) => format!("{subject} is invisible"),
        (Cause::Darkness, Lang::En) => format!("{subject} is in darkness"),
        (Cause::NoLineOfSight, Lang::En) => "no line of sight".to_owned(),
        (Cause::Blinded, Lang::Fr) => format!("{observer} est aveuglé"),
        (Cause::Hidden, Lang::Fr) => format!("{subject} est caché"),
        (Cause::Invisible, Lang::Fr) => format!("{subject} est invisible"),
        (Cause::Darkness, Lang::Fr) => format!("{subject} est dans l'obscurité"),
        (Cause::NoLineOfSight, Lang::Fr) => "pas de ligne de vue".to_owned(),
        _ => cause_name(cause, lang).to_owned(),
    }
}

wire! {
    /// A light, sight or concealment step (`VisionEffect`) on the wire.
    VisionEffectOut {
    /// The light a creature stands in.
    LightAt LightAtStepOut { creature: String, doubled: bool, #[schema(value_type = crate::wire::LightId)] light: &'static str, source: Option<usize> },
    /// A cause of concealment and the degree it gives.
    Cause ConcealmentCauseStepOut { #[schema(value_type = crate::wire::ConcealmentCauseId)] cause: &'static str, #[schema(value_type = crate::wire::ConcealmentDegreeId)] degree: &'static str },
    /// A sense that overrode a cause.
    Override SenseOverrideStepOut { #[schema(value_type = crate::wire::ConcealmentCauseId)] cause: &'static str, #[schema(value_type = crate::wire::SenseId)] sense: &'static str },
    /// Whether one creature sees another.
    Sees SeesStepOut { observer: String, sees: bool, subject: String },
    /// The resulting concealment.
    Result ConcealmentResultStepOut { #[schema(value_type = crate::wire::ConcealmentDegreeId)] degree: &'static str, miss_chance: u32 },
    /// One creature cannot see another, and why (`sees` is always false).
    Unseen UnseenStepOut { #[schema(value_type = crate::wire::ConcealmentCauseId)] cause: &'static str, observer: String, sees: bool, subject: String },
    /// One creature's sense lets it see another despite a cause.
    SenseFor SenseForStepOut { #[schema(value_type = crate::wire::ConcealmentCauseId)] cause: &'static str, observer: String, #[schema(value_type = crate::wire::SenseId)] sense: &'static str, subject: String },
    }
}
