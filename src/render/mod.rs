//! Rendering the rules' typed trace: English or French text, structured effect, and source.

mod flanking;
mod initiative;
mod maneuver;
mod movement;
mod vision;

use axum::http::{HeaderMap, header};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use arbiter_rules::catalog;
use arbiter_rules::grid::{Metric, Point, Square};
use arbiter_rules::trace::{Effect, IntoMeleeExemption, Step, Trace};

/// The language of trace texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English (default).
    En,
    /// French (the sources' language).
    Fr,
}

impl Lang {
    /// Picks from `Accept-Language`: the supported language with the highest q-value;
    /// English when none is supported.
    pub fn from_headers(headers: &HeaderMap) -> Lang {
        let Some(v) = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()) else {
            return Lang::En;
        };
        let mut best: Option<(f32, Lang)> = None;
        for part in v.split(',') {
            let mut it = part.split(';');
            let tag = it.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = it
                .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()))
                .unwrap_or(1.0);
            let lang = match tag.split('-').next() {
                Some("fr") => Lang::Fr,
                Some("en") => Lang::En,
                _ => continue,
            };
            if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::En, |(_, l)| l)
    }

    /// The `Content-Language` value.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }
}

/// One rendered trace step.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TraceStep {
    /// The RULES.md rule id (see `GET /v1/rules`).
    pub rule: &'static str,
    /// The variant that decided this step, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'static str>,
    /// What happened, in the requested language.
    pub text: String,
    /// Structured data of the step.
    #[schema(value_type = Object)]
    pub effect: Value,
    /// Where the rule comes from (seed file and French heading, or SRD section).
    pub source: &'static str,
}

/// Renders a whole trace.
pub fn trace(t: &Trace, lang: Lang) -> Vec<TraceStep> {
    t.steps.iter().map(|s| step(s, lang)).collect()
}

fn step(s: &Step, lang: Lang) -> TraceStep {
    let (text, effect) = effect(&s.effect, lang);
    let source = catalog::rule(s.rule).map_or("RULES.md", |r| r.source);
    let text = match (s.variant, lang) {
        (Some(v), Lang::En) => format!("{text} (variant {v})"),
        (Some(v), Lang::Fr) => format!("{text} (variante {v})"),
        (None, _) => text,
    };
    TraceStep { rule: s.rule, variant: s.variant, text, effect, source }
}

fn metric_name(m: Metric, lang: Lang) -> &'static str {
    match (m, lang) {
        (Metric::Chebyshev, Lang::En) => "every diagonal 5 ft",
        (Metric::Chebyshev, Lang::Fr) => "chaque diagonale 1,50 m",
        (Metric::Alternating, Lang::En) => "diagonals alternate 5 ft / 10 ft",
        (Metric::Alternating, Lang::Fr) => "diagonales alternées 1,50 m / 3 m",
    }
}

fn pt(p: Point) -> Value {
    json!({"x": p.x.to_f64(), "y": p.y.to_f64()})
}

fn sq(s: Square) -> Value {
    json!({"x": s.x, "y": s.y})
}

fn fmt_pt(p: Point) -> String {
    format!("⟨{}, {}⟩", p.x.to_f64(), p.y.to_f64())
}

fn degree_name(id: &str, lang: Lang) -> &'static str {
    match (id, lang) {
        ("none", Lang::En) => "no cover",
        ("partial", Lang::En) => "partial cover",
        ("half", Lang::En) => "half cover",
        ("cover", Lang::En) => "cover",
        ("three_quarters", Lang::En) => "three-quarters cover",
        ("improved", Lang::En) => "improved cover",
        ("total", Lang::En) => "total cover",
        ("none", Lang::Fr) => "pas d'abri",
        ("partial", Lang::Fr) => "abri partiel",
        ("half", Lang::Fr) => "demi-abri",
        ("cover", Lang::Fr) => "abri",
        ("three_quarters", Lang::Fr) => "abri aux trois quarts",
        ("improved", Lang::Fr) => "abri supérieur",
        ("total", Lang::Fr) => "abri total",
        (_, Lang::En) => "cover",
        (_, Lang::Fr) => "abri",
    }
}

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn list(ids: &[String]) -> String {
    ids.join(", ")
}

pub(crate) fn metres(feet: i64) -> String {
    let m = feet as f64 * 0.3;
    let s = format!("{m:.1}");
    s.replace('.', ",")
}

fn effect(e: &Effect, lang: Lang) -> (String, Value) {
    use Lang::*;
    match e {
        Effect::Space { creature, side } => (
            match lang {
                En => format!("{creature} occupies {side}×{side} squares"),
                Fr => format!("{creature} occupe {side}×{side} cases"),
            },
            json!({"creature": creature, "side": side}),
        ),
        Effect::Distance { squares, feet, metric } => (
            match lang {
                En => format!("distance {feet} ft ({squares} square{}, {})", plural(*squares), metric_name(*metric, lang)),
                Fr => format!("distance {} m ({squares} case{}, {})", metres(*feet), plural(*squares), metric_name(*metric, lang)),
            },
            json!({"squares": squares, "feet": feet, "metric": metric.rule()}),
        ),
        Effect::Reach { reach_ft, too_close_ft, within, second_diagonal } => {
            let text = match (lang, within, too_close_ft) {
                (En, true, _) if *second_diagonal => {
                    format!("within {reach_ft} ft reach through the second-diagonal exception")
                }
                (En, true, _) => format!("within {reach_ft} ft reach"),
                (En, false, Some(t)) => format!("out of reach: {reach_ft} ft reach weapon cannot hit at {t} ft or less"),
                (En, false, None) => format!("out of reach ({reach_ft} ft)"),
                (Fr, true, _) if *second_diagonal => {
                    format!("à portée d'allonge ({} m) par l'exception de la seconde diagonale", metres(*reach_ft))
                }
                (Fr, true, _) => format!("à portée d'allonge ({} m)", metres(*reach_ft)),
                (Fr, false, Some(t)) => format!(
                    "hors d'allonge : une arme à allonge de {} m ne frappe pas à {} m ou moins",
                    metres(*reach_ft),
                    metres(*t)
                ),
                (Fr, false, None) => format!("hors d'allonge ({} m)", metres(*reach_ft)),
            };
            (
                text,
                json!({"reach_ft": reach_ft, "too_close_ft": too_close_ft, "within": within, "second_diagonal": second_diagonal}),
            )
        }
        Effect::RangeBand { band, increment, modifier, disadvantage, max_ft } => {
            let text = match (lang, band.id()) {
                (En, "normal") => "within normal range".to_owned(),
                (En, "long") => "beyond normal range, within long range: disadvantage".to_owned(),
                (En, "increment") => {
                    format!("range increment {}: {modifier:+} to attack", increment.unwrap_or(1))
                }
                (En, _) => format!("out of range (the weapon reaches {max_ft} ft)"),
                (Fr, "normal") => "à portée normale".to_owned(),
                (Fr, "long") => "au-delà de la portée normale, à portée longue : désavantage".to_owned(),
                (Fr, "increment") => {
                    format!("facteur de portée {} : {modifier:+} à l'attaque", increment.unwrap_or(1))
                }
                (Fr, _) => format!("hors de portée (l'arme porte à {} m)", metres(*max_ft)),
            };
            (
                text,
                json!({"band": band.id(), "increment": increment, "modifier": modifier, "disadvantage": disadvantage, "max_ft": max_ft}),
            )
        }
        Effect::CloseCombat { by, ignored } => {
            let text = match (lang, by.is_empty()) {
                (En, false) => format!("ranged attack within 5 ft of {}: disadvantage", list(by)),
                (En, true) => {
                    format!("hostile creatures within 5 ft ({}) are incapacitated or cannot see: no disadvantage", list(ignored))
                }
                (Fr, false) => format!("attaque à distance à 1,50 m de {} : désavantage", list(by)),
                (Fr, true) => format!(
                    "les créatures hostiles à 1,50 m ({}) sont neutralisées ou ne voient pas : pas de désavantage",
                    list(ignored)
                ),
            };
            (text, json!({"disadvantage": !by.is_empty(), "by": by, "ignored": ignored}))
        }
        Effect::IntoMelee { engaged_with, penalty, exemption } => {
            let why = |lang: Lang| match (exemption, lang) {
                (Some(IntoMeleeExemption::PreciseShot), En) => " (Precise Shot)",
                (Some(IntoMeleeExemption::PreciseShot), Fr) => " (Tir de précision)",
                (Some(IntoMeleeExemption::TenFeetFromFriends), En) => " (part of the target is 10 ft or more from every friend)",
                (Some(IntoMeleeExemption::TenFeetFromFriends), Fr) => {
                    " (une partie de la cible est à 3 m ou plus de tout allié)"
                }
                (Some(IntoMeleeExemption::ThreeSizesLarger), En) => " (target three or more sizes larger)",
                (Some(IntoMeleeExemption::ThreeSizesLarger), Fr) => " (cible plus grande de trois catégories ou plus)",
                (None, _) => "",
            };
            let text = match lang {
                En => format!("target engaged in melee with {}: {penalty:+} to attack{}", list(engaged_with), why(En)),
                Fr => format!("cible engagée au corps à corps avec {} : {penalty:+} à l'attaque{}", list(engaged_with), why(Fr)),
            };
            let exemption = exemption.map(|x| match x {
                IntoMeleeExemption::PreciseShot => "precise_shot",
                IntoMeleeExemption::TenFeetFromFriends => "ten_feet_from_friends",
                IntoMeleeExemption::ThreeSizesLarger => "three_sizes_larger",
            });
            (text, json!({"engaged_with": engaged_with, "penalty": penalty, "exemption": exemption}))
        }
        Effect::AdvantageCombined { advantage, disadvantage, result } => (
            match lang {
                En => format!("{advantage} advantage and {disadvantage} disadvantage sources: roll {}", result.id()),
                Fr => format!(
                    "{advantage} source(s) d'avantage et {disadvantage} de désavantage : jet {}",
                    match result.id() {
                        "advantage" => "avec avantage",
                        "disadvantage" => "avec désavantage",
                        _ => "normal",
                    }
                ),
            },
            json!({"advantage": advantage, "disadvantage": disadvantage, "roll_mode": result.id()}),
        ),
        Effect::ElevationIgnored { creatures } => (
            match lang {
                En => format!("elevation of {} ignored: distances are measured on the grid", list(creatures)),
                Fr => format!("altitude de {} ignorée : les distances se mesurent sur la grille", list(creatures)),
            },
            json!({"creatures": creatures}),
        ),
        Effect::LineOfEffect { exists, from, to } => (
            match (lang, exists) {
                (En, true) => "line of effect exists".to_owned(),
                (En, false) => "no line of effect: total cover".to_owned(),
                (Fr, true) => "la ligne d'effet existe".to_owned(),
                (Fr, false) => "aucune ligne d'effet : abri total".to_owned(),
            },
            json!({"exists": exists, "from": from.map(pt), "to": to.map(pt)}),
        ),
        Effect::CoverChoice { corner, target_square, blocked, lines, degree, adjacent_test } => {
            let c = corner.map_or_else(String::new, fmt_pt);
            let t = target_square.map_or_else(String::new, |s| format!("({}, {})", s.x, s.y));
            let text = match (lang, adjacent_test) {
                (En, false) => format!("best corner {c} to target square {t}: {blocked} of {lines} lines blocked → {}", degree_name(degree, En)),
                (En, true) => format!("adjacent melee from {c} to square {t}: {blocked} of {lines} lines through a wall → {}", degree_name(degree, En)),
                (Fr, false) => format!("meilleur coin {c} vers la case {t} : {blocked} lignes bloquées sur {lines} → {}", degree_name(degree, Fr)),
                (Fr, true) => format!("corps à corps adjacent depuis {c} vers la case {t} : {blocked} lignes sur {lines} traversent un mur → {}", degree_name(degree, Fr)),
            };
            (
                text,
                json!({"corner": corner.map(pt), "target_square": target_square.map(sq), "blocked": blocked, "lines": lines, "degree": degree, "adjacent_test": adjacent_test}),
            )
        }
        Effect::HalfCap { capped } => (
            match (lang, capped) {
                (En, true) => "only creatures and low obstacles block: capped at half cover".to_owned(),
                (En, false) => "a solid obstacle blocks: no cap".to_owned(),
                (Fr, true) => "seuls des créatures et obstacles bas bloquent : abri limité à un demi-abri".to_owned(),
                (Fr, false) => "un obstacle plein bloque : pas de plafond".to_owned(),
            },
            json!({"capped": capped}),
        ),
        Effect::LowObstacle { square, wall, target_ft, attacker_ft, counted } => {
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
            (text, json!({"square": square.map(sq), "wall": wall, "target_ft": target_ft, "attacker_ft": attacker_ft, "counted": counted}))
        }
        Effect::SoftCover => (
            match lang {
                En => "only creatures give this cover (soft cover: no Reflex bonus, no Stealth)".to_owned(),
                Fr => "seules des créatures fournissent cet abri (abri mou : pas de bonus aux Réflexes ni de Discrétion)".to_owned(),
            },
            json!({"soft": true}),
        ),
        Effect::ArrowSlit => (
            match lang {
                En => "a line passes through an arrow slit: at least improved (three-quarters) cover".to_owned(),
                Fr => "une ligne passe par une meurtrière : au moins un abri supérieur".to_owned(),
            },
            json!({"arrow_slit": true}),
        ),
        Effect::CoverResult { degree, soft, ac_bonus, save_bonus, attack_modifier, can_be_targeted } => {
            let text = match (lang, can_be_targeted) {
                (En, false) => "total cover: cannot be targeted directly".to_owned(),
                (Fr, false) => "abri total : ne peut pas être ciblé directement".to_owned(),
                (En, true) if *attack_modifier != 0 => format!("{}: {attack_modifier:+} to the attacker's ATT", degree_name(degree, En)),
                (Fr, true) if *attack_modifier != 0 => format!("{} : {attack_modifier:+} à l'ATT de l'attaquant", degree_name(degree, Fr)),
                (En, true) => format!("{}: {ac_bonus:+} AC, {save_bonus:+} to saves", degree_name(degree, En)),
                (Fr, true) => format!("{} : {ac_bonus:+} CA, {save_bonus:+} aux jets de sauvegarde", degree_name(degree, Fr)),
            };
            (
                text,
                json!({"degree": degree, "soft": soft, "ac_bonus": ac_bonus, "save_bonus": save_bonus, "attack_modifier": attack_modifier, "can_be_targeted": can_be_targeted}),
            )
        }
        Effect::CoverOpportunity { denies } => (
            match (lang, denies) {
                (En, true) => "the target's cover denies attacks of opportunity against it".to_owned(),
                (En, false) => "no cover against attacks of opportunity".to_owned(),
                (Fr, true) => "l'abri de la cible empêche les attaques d'opportunité contre elle".to_owned(),
                (Fr, false) => "pas d'abri contre les attaques d'opportunité".to_owned(),
            },
            json!({"denies": denies}),
        ),
        Effect::OutOfReach => (
            match lang {
                En => "no target square is within reach; cover computed by the corner-lines test anyway (Q-37)".to_owned(),
                Fr => "aucune case de la cible n'est à portée d'allonge ; abri calculé quand même par les lignes de coin (Q-37)".to_owned(),
            },
            json!({"in_reach": false}),
        ),
        Effect::Flanking(f) => flanking::effect(f, lang),
        Effect::Maneuver(m) => maneuver::effect(m, lang),
        Effect::Movement(m) => movement::effect(m, lang),
        Effect::Initiative(m) => initiative::effect(m, lang),
        Effect::Analyze(arbiter_rules::analyze::AnalyzeEffect::Applied { pairs }) => (
            match lang {
                Lang::En => format!("applied to {pairs} pair(s)"),
                Lang::Fr => format!("appliquée à {pairs} paire(s)"),
            },
            json!({"pairs": pairs}),
        ),
        Effect::Vision(v) => vision::effect(v, lang),
        Effect::AttackModifier { source, detail, attack, defence, advantage, disadvantage } => {
            let what = source.replace('_', " ");
            let d = detail.as_ref().map_or_else(String::new, |d| format!(" ({d})"));
            let mut parts: Vec<String> = Vec::new();
            if *attack != 0 {
                parts.push(match lang {
                    En => format!("{attack:+} to attack"),
                    Fr => format!("{attack:+} à l'attaque"),
                });
            }
            if *defence != 0 {
                parts.push(match lang {
                    En => format!("{defence:+} to the target's defence"),
                    Fr => format!("{defence:+} à la défense de la cible"),
                });
            }
            if *advantage {
                parts.push(match lang {
                    En => "advantage".to_owned(),
                    Fr => "avantage".to_owned(),
                });
            }
            if *disadvantage {
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
            (
                format!("{what}{d}: {}", parts.join(", ")),
                json!({"source": source, "detail": detail, "attack": attack, "defence": defence, "advantage": advantage, "disadvantage": disadvantage}),
            )
        }
        Effect::AttackOutcome { allowed, melee, natural, total, target_number, hit, critical, p_hit } => {
            let kind = match (melee, lang) {
                (true, En) => "melee attack",
                (false, En) => "ranged attack",
                (true, Fr) => "attaque au corps à corps",
                (false, Fr) => "attaque à distance",
            };
            let pct = format!("{:.2}", p_hit.to_f64() * 100.0);
            let text = match (lang, allowed, natural, hit) {
                (En, false, _, _) => format!("the {kind} cannot be made"),
                (Fr, false, _, _) => format!("l'{kind} est impossible"),
                (En, true, Some(n), Some(h)) => format!(
                    "{kind}: natural {n}, total {} vs {target_number}: {}{} (P(hit) = {pct}%)",
                    total.unwrap_or(0),
                    if *h { "hit" } else { "miss" },
                    if *critical == Some(true) { ", critical" } else { "" }
                ),
                (Fr, true, Some(n), Some(h)) => format!(
                    "{kind} : dé naturel {n}, total {} contre {target_number} : {}{} (P(touche) = {} %)",
                    total.unwrap_or(0),
                    if *h { "touché" } else { "raté" },
                    if *critical == Some(true) { ", critique" } else { "" },
                    pct.replace('.', ",")
                ),
                (En, true, _, _) => format!("{kind} against {target_number}: P(hit) = {pct}%"),
                (Fr, true, _, _) => format!("{kind} contre {target_number} : P(touche) = {} %", pct.replace('.', ",")),
            };
            (
                text,
                json!({"allowed": allowed, "natural": natural, "total": total, "target_number": target_number, "hit": hit, "critical": critical, "p_hit": p_hit.to_f64()}),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn lang(v: &'static str) -> Lang {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static(v));
        Lang::from_headers(&h)
    }

    #[test]
    fn accept_language() {
        assert_eq!(Lang::from_headers(&HeaderMap::new()), Lang::En);
        assert_eq!(lang("fr"), Lang::Fr);
        assert_eq!(lang("fr-CA, en;q=0.5"), Lang::Fr);
        assert_eq!(lang("en-GB, fr;q=0.9"), Lang::En);
        assert_eq!(lang("de, fr;q=0.3"), Lang::Fr);
        assert_eq!(lang("de"), Lang::En);
        assert_eq!(lang("fr;q=0, en"), Lang::En);
    }

    #[test]
    fn metres_use_french_decimal_comma() {
        assert_eq!(metres(5), "1,5");
        assert_eq!(metres(30), "9,0");
    }
}
