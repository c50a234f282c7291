//! The French of the rules crate's problem details.
//!
//! The rules crate reports a field it cannot use with an English sentence (it knows no
//! language: `RulesError::Field`). Its sentences are a closed set, written in its source;
//! this table gives each its French, matching the whole sentence or, for the sentences
//! that name a ruleset or a maneuver first, its fixed part. A sentence missing from the
//! table is sent in English in both languages (a test walks the rules crate's sentences).

use crate::lang::Text;

/// The English sentences of the rules crate and their French.
const EXACT: &[(&str, &str)] = &[
    (
        "a controlled mount takes its rider's initiative: the rider must roll too",
        "une monture contrôlée prend l'initiative de son cavalier : le cavalier doit aussi la lancer",
    ),
    ("no such creature", "aucune créature n'a cet identifiant"),
    (
        "the target must be another creature than the attacker",
        "la cible doit être une autre créature que l'attaquant",
    ),
    (
        "the target must be another creature than the mover",
        "la cible doit être une autre créature que celle qui se déplace",
    ),
    ("the weapon needs a kind", "l'arme a besoin d'un type (kind)"),
    ("long_ft must not be shorter than normal_ft", "long_ft ne doit pas être plus court que normal_ft"),
    ("the mover's space is off the grid", "l'espace de la créature qui se déplace sort de la grille"),
    ("the charger's space is off the grid", "l'espace de la créature qui charge sort de la grille"),
    ("the grappler's space is off the grid", "l'espace de l'agrippeur sort de la grille"),
    (
        "each square must be adjacent to the previous one (the first to the grappler's square)",
        "chaque case doit être adjacente à la précédente (la première à celle de l'agrippeur)",
    ),
    (
        "only the PF1 family's grapple has a follow-up move; a D&D 5e grappler drags its target with /v1/movement (options.dragging)",
        "seule la lutte de la famille PF1 a un déplacement de suite ; en D&D 5e, l'agrippeur tire sa cible avec /v1/movement (options.dragging)",
    ),
    (
        "each square must be adjacent to the previous one (the first to the mover's square)",
        "chaque case doit être adjacente à la précédente (la première à celle de la créature qui se déplace)",
    ),
    (
        "each square must be adjacent to the previous one (the first to the charger's square)",
        "chaque case doit être adjacente à la précédente (la première à celle de la créature qui charge)",
    ),
    ("a charge needs at least its end square", "une charge a besoin au moins de sa case d'arrivée"),
    ("the path needs at least the end square", "le chemin a besoin au moins de la case d'arrivée"),
    ("a charge needs a target", "une charge a besoin d'une cible"),
    ("only a charge takes a target", "seule une charge prend une cible"),
    ("mounting needs the creature to mount", "monter en selle demande la créature à monter"),
    ("only mode mount takes a mount", "seul le mode mount prend une monture"),
    ("the creature is not mounted (`mounted_on`)", "la créature n'est pas montée (mounted_on)"),
    ("a creature cannot mount itself", "une créature ne peut pas se monter elle-même"),
    ("a creature cannot drag itself", "une créature ne peut pas se traîner elle-même"),
    ("dismounting needs the square to land on", "mettre pied à terre demande la case où se poser"),
    (
        "Dash is a D&D 5e action; the PF1 family moves twice its speed with a double move",
        "le Sprint est une action de D&D 5e ; la famille PF1 parcourt deux fois sa vitesse avec un double déplacement",
    ),
    ("D&D 5e has no five-foot step", "D&D 5e n'a pas de pas de placement (1,5 mètre)"),
    (
        "in the PF1 family a grappler moves its target with a grapple check (/v1/maneuvers)",
        "dans la famille PF1, la créature qui agrippe déplace sa cible par un test de lutte (/v1/maneuvers)",
    ),
    (
        "a point of the encounter lies outside the supported 1024×1024 range",
        "un point de la rencontre sort de l'étendue prise en charge de 1024×1024",
    ),
    (
        "the point of origin lies on a wall that blocks line of effect",
        "le point d'origine est sur un mur qui bloque la ligne d'effet",
    ),
    ("a charge ends in a melee attack", "une charge se termine par une attaque au corps à corps"),
    (
        "off-hand attacks are defined here for the 5e rulesets only",
        "les attaques de la main non directrice ne sont définies ici que pour les règles 5e",
    ),
    ("a creature belongs to one group only", "une créature n'appartient qu'à un seul groupe"),
    ("the creature does not roll initiative", "la créature ne lance pas l'initiative"),
    (
        "a charge may end with bull_rush or overrun only",
        "une charge ne peut finir que par bull_rush ou overrun",
    ),
    (
        "D&D 5e maneuvers provoke no attack of opportunity",
        "les manœuvres de D&D 5e ne provoquent pas d'attaque d'opportunité",
    ),
    ("from 1 to 8 damage terms", "de 1 à 8 termes de dégâts"),
    (
        "in 5e the off-hand attack is situational.off_hand",
        "en 5e, l'attaque de la main non directrice est situational.off_hand",
    ),
    (
        "this ruleset has no off-hand damage rule",
        "ces règles n'ont pas de règle de dégâts de la main non directrice",
    ),
    (
        "only the rulesets with a charge rule (PF1, hb3d) double a braced weapon's damage",
        "seules les règles qui ont une charge (PF1, hb3d) doublent les dégâts d'une arme placée contre une charge",
    ),
    ("the weapon has no brace property", "l'arme n'a pas la propriété brace"),
    (
        "too many dice: a hit or critical hit rolls at most 256 damage dice with at most 2^63 outcomes in all",
        "trop de dés : un coup ou un coup critique lance au plus 256 dés de dégâts et au plus 2^63 résultats en tout",
    ),
];

/// Sentences that start with a ruleset id (`pf1e ranged weapons need …`): the English rest
/// and its French, `{}` standing for the ruleset.
const AFTER_RULESET: &[(&str, &str)] = &[
    (
        " ranged weapons need normal_ft (and long_ft when they have a long range)",
        "en {}, les armes à distance ont besoin de normal_ft (et de long_ft si elles ont une portée longue)",
    ),
    (
        " ranged weapons need a positive increment_ft",
        "en {}, les armes à distance ont besoin d'un increment_ft positif",
    ),
    (" mounted combat is outside RULES.md (Q-32)", "le combat monté de {} n'est pas dans RULES.md (Q-32)"),
    (" has no charge rule", "{} n'a pas de règle de charge"),
    (
        " has no charge rule here (PF1 and hb3d do)",
        "{} n'a pas de règle de charge ici (PF1 et hb3d en ont une)",
    ),
    (
        " has no critical multiplier (the PF1 family has)",
        "{} n'a pas de multiplicateur de critique (la famille PF1 en a)",
    ),
    (
        " rolls initiative creature by creature; groups are a D&D 5e rule",
        "{} lance l'initiative créature par créature ; les groupes sont une règle de D&D 5e",
    ),
];

/// The French of one rules-crate field detail, with its English.
pub fn field(detail: &str) -> Text {
    Text::new(detail, french(detail).unwrap_or_else(|| detail.to_owned()))
}

/// A question the ruleset does not answer (`what` is the ruleset's own reason).
pub fn unsupported(ruleset: &str, what: &str) -> Text {
    let fr_what = match what {
        "combat maneuvers (Starfinder maneuvers are outside RULES.md, Q-32)" => {
            "les manœuvres de combat (celles de Starfinder ne sont pas dans RULES.md, Q-32)"
        }
        other => other,
    };
    Text::new(format!("{ruleset} does not answer {what}"), format!("{ruleset} ne répond pas sur {fr_what}"))
}

fn french(detail: &str) -> Option<String> {
    if let Some((_, fr)) = EXACT.iter().find(|(en, _)| *en == detail) {
        return Some((*fr).to_owned());
    }
    let (ruleset, _) = detail.split_once(' ')?;
    let rest = &detail[ruleset.len()..];
    if let Some((_, fr)) = AFTER_RULESET.iter().find(|(en, _)| *en == rest) {
        return Some(fr.replace("{}", ruleset));
    }
    maneuver(ruleset, rest).or_else(|| charge(ruleset, rest)).or_else(|| opportunity(detail))
}

/// "`r` has no `kind` maneuver; it answers a, b".
fn maneuver(ruleset: &str, rest: &str) -> Option<String> {
    let rest = rest.strip_prefix(" has no ")?;
    let (kind, answers) = rest.split_once(" maneuver; it answers ")?;
    Some(format!("{ruleset} n'a pas de manœuvre {kind} ; il répond sur : {answers}"))
}

/// "`r` has no charge rule; charge is answered for a and b".
fn charge(ruleset: &str, rest: &str) -> Option<String> {
    let with = rest.strip_prefix(" has no charge rule; charge is answered for ")?;
    Some(format!(
        "{ruleset} n'a pas de règle de charge ; la charge est traitée pour {}",
        with.replace(" and ", " et ")
    ))
}

/// "this `kind` provokes no attack of opportunity (`why`)".
fn opportunity(detail: &str) -> Option<String> {
    let rest = detail.strip_prefix("this ")?;
    let (kind, why) = rest.split_once(" provokes no attack of opportunity (")?;
    let why = why.strip_suffix(')')?;
    let why = if why == "it does not provoke" { "elle ne provoque pas" } else { why };
    Some(format!("cette manœuvre {kind} ne provoque pas d'attaque d'opportunité ({why})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Lang;

    /// The first string literal of each `RulesError::field(` call in the rules crate's
    /// source that is not its pointer, unless it is a format string (those are below).
    fn fixed_sentences() -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for call in text.split("RulesError::field(").skip(1) {
                        let call = call.split(");").next().unwrap_or(call);
                        let literals = call.split('"').skip(1).step_by(2);
                        let first = literals.take(3).find(|l| !l.starts_with('/'));
                        if let Some(lit) = first.filter(|l| !l.contains('{')) {
                            out.push(lit.to_owned());
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/src"), &mut out);
        out
    }

    /// Every sentence the rules crate writes into a field error has its French.
    #[test]
    fn every_rules_sentence_is_translated() {
        let fixed = fixed_sentences();
        assert!(fixed.len() > 30, "{fixed:?}");
        for s in &fixed {
            assert!(french(s).is_some(), "no French for {s:?}");
        }
        let sentences = [
            "pf1e ranged weapons need a positive increment_ft",
            "dnd5e2024 ranged weapons need normal_ft (and long_ft when they have a long range)",
            "dnd5e2014 has no trip maneuver; it answers grapple, shove, escape",
            "dnd5e2014 has no charge rule; charge is answered for pf1e and hb3d",
            "this trip provokes no attack of opportunity (improved_trip)",
            "dnd5e2024 rolls initiative creature by creature; groups are a D&D 5e rule",
            "sf1e has no critical multiplier (the PF1 family has)",
            "no such creature",
        ];
        for s in sentences {
            assert!(french(s).is_some(), "{s}");
        }
        assert_eq!(
            field("dnd5e2014 has no trip maneuver; it answers grapple, shove, escape").get(Lang::Fr),
            "dnd5e2014 n'a pas de manœuvre trip\u{a0}; il répond sur\u{a0}: grapple, shove, escape"
        );
        assert_eq!(field("something new").get(Lang::Fr), "something new");
    }
}
