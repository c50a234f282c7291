//! The words of the trace texts and drawings, in one place: the French vocabulary as the seeds
//! write it (`/work/shared/seeds`, see RULES.md §1 for which seed is which), the English words
//! and the distances (feet in English; metres with the squares in brackets in French, "9
//! mètres (6 cases)" as seeds 000 and 001 write them). The few words where rulesets differ (the
//! defence's name, improved cover) are each ruleset's own (`ruleset::Words` in the rules
//! crate), so a new ruleset brings its words with it; French typography is `crate::lang`'s.
//!
//! Seeds: 000 Starfinder (« Les abris », « Abri amélioré »), 001 Pathfinder 1e (« Abri »,
//! « abri supérieur »), 002 D&D 5e 2024 (« abri partiel », « abri supérieur », « Pointe »,
//! « Neutralisé »), 003 the PF1-based homebrew (« Bousculer », « Croc-en-jambe », « Agripper »,
//! « Désarmer », « Renverser », « Immobiliser », « pas de placement »), 004 D&D 5e 2014
//! (« Lutte », « Bousculer une créature », « zone d'allonge »). Every raw id the rules crate
//! puts in a trace is turned into words here, in both languages.

use crate::lang::Lang;
use arbiter_rules::encounter::Condition;
use arbiter_rules::maneuver::{ChargeIllegal, Illegal, Kind, PathTest};
use arbiter_rules::opportunity::OpportunityReason;
use arbiter_rules::ruleset::Words;
use arbiter_rules::trace::RollMode;
use arbiter_rules::trace::cover::CoverDegree;

/// A French decimal: comma, and two decimals when it is not whole ("1,50", "9").
pub fn decimal_fr(tenths: i64) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let t = tenths.unsigned_abs();
    if t.is_multiple_of(10) { format!("{sign}{}", t / 10) } else { format!("{sign}{},{}0", t / 10, t % 10) }
}

/// A distance in French: metres (1 square = 5 ft = 1,50 m), singular below 2 as French writes
/// it, and the squares in brackets when the distance is whole squares: "9 mètres (6 cases)",
/// "1,50 mètre (1 case)".
pub fn metres_fr(feet: i64) -> String {
    let tenths = feet.saturating_mul(3);
    let unit = if tenths.abs() < 20 { "mètre" } else { "mètres" };
    let m = format!("{} {unit}", decimal_fr(tenths));
    if feet % 5 == 0 {
        let squares = feet / 5;
        format!("{m} ({squares} case{})", if squares.abs() < 2 { "" } else { "s" })
    } else {
        m
    }
}

/// A distance in the language: "30 ft" or "9 mètres (6 cases)".
pub fn distance(feet: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{feet} ft"),
        Lang::Fr => metres_fr(feet),
    }
}

/// The target number an attack or a charge penalty counts against: AC (« CA »), or the
/// homebrew's DEF (seed 003: "ATT >< DEF de la cible").
pub fn armour(words: &Words, lang: Lang) -> &'static str {
    pick(lang, words.defence[0], words.defence[1])
}

/// A degree of cover, by the ruleset's words: 5e "abri partiel" (half) and "abri supérieur"
/// (three-quarters) per seed 002; Pathfinder "abri partiel", "abri supérieur" per seed 001;
/// Starfinder "abri amélioré" per seed 000.
pub fn cover_degree(d: CoverDegree, words: &Words, lang: Lang) -> &'static str {
    match (d, lang) {
        (CoverDegree::None, Lang::En) => "no cover",
        (CoverDegree::Partial, Lang::En) => "partial cover",
        (CoverDegree::Half, Lang::En) => "half cover",
        (CoverDegree::Cover, Lang::En) => "cover",
        (CoverDegree::ThreeQuarters, Lang::En) => "three-quarters cover",
        (CoverDegree::Improved, Lang::En) => "improved cover",
        (CoverDegree::Total, Lang::En) => "total cover",
        (CoverDegree::None, Lang::Fr) => "pas d'abri",
        (CoverDegree::Partial | CoverDegree::Half, Lang::Fr) => "abri partiel",
        (CoverDegree::Cover, Lang::Fr) => "abri",
        (CoverDegree::ThreeQuarters, Lang::Fr) => "abri supérieur",
        (CoverDegree::Improved, Lang::Fr) => words.improved_cover_fr,
        (CoverDegree::Total, Lang::Fr) => "abri total",
    }
}

/// A cover degree from its wire id (the attack modifier's detail carries the id).
pub fn cover_degree_id(id: &str, words: &Words, lang: Lang) -> Option<&'static str> {
    const ALL: [CoverDegree; 7] = [
        CoverDegree::None,
        CoverDegree::Partial,
        CoverDegree::Half,
        CoverDegree::Cover,
        CoverDegree::ThreeQuarters,
        CoverDegree::Improved,
        CoverDegree::Total,
    ];
    ALL.into_iter().find(|d| d.id() == id).map(|d| cover_degree(d, words, lang))
}

/// A condition, as an adjective (« Neutralisé », « Agrippé », « Immobilisé » from the seeds).
pub fn condition(c: Condition, lang: Lang) -> &'static str {
    use Condition::*;
    let (en, fr) = match c {
        Blinded => ("blinded", "aveuglé"),
        Charged => ("charged", "ayant chargé"),
        Charmed => ("charmed", "charmé"),
        Confused => ("confused", "confus"),
        Cowering => ("cowering", "recroquevillé"),
        Dazed => ("dazed", "hébété"),
        Dead => ("dead", "mort"),
        Deafened => ("deafened", "assourdi"),
        Dodging => ("dodging", "en esquive"),
        Dying => ("dying", "mourant"),
        Entangled => ("entangled", "enchevêtré"),
        Exhaustion => ("exhaustion", "épuisement"),
        Exhausted => ("exhausted", "épuisé"),
        Fatigued => ("fatigued", "fatigué"),
        FlatFooted => ("flat-footed", "pris au dépourvu"),
        Frightened => ("frightened", "effrayé"),
        Grappled => ("grappled", "agrippé"),
        Helpless => ("helpless", "sans défense"),
        Hidden => ("hidden", "caché"),
        Incapacitated => ("incapacitated", "neutralisé"),
        Invisible => ("invisible", "invisible"),
        OffKilter => ("off-kilter", "déséquilibré"),
        Paralyzed => ("paralyzed", "paralysé"),
        Petrified => ("petrified", "pétrifié"),
        Pinned => ("pinned", "immobilisé"),
        Poisoned => ("poisoned", "empoisonné"),
        Prone => ("prone", "à terre"),
        Restrained => ("restrained", "entravé"),
        Shaken => ("shaken", "secoué"),
        Squeezing => ("squeezing", "dans un espace exigu"),
        Stunned => ("stunned", "étourdi"),
        Surprised => ("surprised", "surpris"),
        TiedUp => ("tied up", "ligoté"),
        Unconscious => ("unconscious", "inconscient"),
    };
    pick(lang, en, fr)
}

/// A condition from its wire id, or the id made readable.
pub fn condition_id(id: &str, lang: Lang) -> String {
    Condition::from_id(id).map_or_else(|| readable(id), |c| condition(c, lang).to_owned())
}

/// A maneuver, as a noun.
pub fn maneuver(k: Kind, lang: Lang) -> &'static str {
    let (en, fr) = match k {
        Kind::Grapple => ("grapple", "lutte"),
        Kind::Shove => ("shove", "bousculade"),
        Kind::BullRush => ("bull rush", "bousculade"),
        Kind::Trip => ("trip", "croc-en-jambe"),
        Kind::Disarm => ("disarm", "désarmement"),
        Kind::Overrun => ("overrun", "renversement"),
        Kind::Escape => ("escape", "libération"),
        Kind::Pin => ("pin", "immobilisation"),
        Kind::TieUp => ("tie-up", "ligotage"),
        Kind::Charge => ("charge", "charge"),
    };
    pick(lang, en, fr)
}

/// Why a maneuver cannot be attempted.
pub fn maneuver_illegal(i: Illegal, lang: Lang) -> &'static str {
    let (en, fr) = match i {
        Illegal::Size => (
            "the target is more than one size category larger",
            "la cible a plus d'une catégorie de taille de plus",
        ),
        Illegal::Reach => ("the target is out of reach", "la cible est hors d'allonge"),
        Illegal::Hands => ("no free hand", "aucune main libre"),
        Illegal::Legs => ("the target has no legs", "la cible n'a pas de jambes"),
        Illegal::Flying => ("the target flies", "la cible vole"),
        Illegal::NotGrappled => ("nobody is grappled", "personne n'est agrippé"),
    };
    pick(lang, en, fr)
}

/// A maneuver's outcome band (`pushed_10_ft`, `target_prone`…) as words.
pub fn band(id: &str, lang: Lang) -> String {
    if let Some(ft) =
        id.strip_prefix("pushed_").and_then(|r| r.strip_suffix("_ft")).and_then(|f| f.parse().ok())
    {
        return match lang {
            Lang::En => format!("the target is pushed {ft} ft"),
            Lang::Fr => format!("la cible est repoussée de {}", metres_fr(ft)),
        };
    }
    let (en, fr) = match id {
        "concealment_miss" => ("missed because of concealment", "raté à cause du camouflage"),
        "attacker_drops_weapon" => ("the attacker drops its weapon", "l'attaquant lâche son arme"),
        "attacker_prone" => ("the attacker falls prone", "l'attaquant est mis à terre"),
        "failure" => ("failure", "échec"),
        "both_hands" => (
            "the target drops what it holds in both hands",
            "la cible lâche les objets tenus dans les deux mains",
        ),
        "through_and_prone" => (
            "the attacker moves through the target's space and the target falls prone",
            "l'attaquant traverse l'espace de la cible, qui est mise à terre",
        ),
        "grappled" => ("the target is grappled", "la cible est agrippée"),
        "target_prone" => ("the target falls prone", "la cible est mise à terre"),
        "disarmed" => ("the target drops the weapon", "la cible laisse tomber l'arme"),
        "through" => {
            ("the attacker moves through the target's space", "l'attaquant traverse l'espace de la cible")
        }
        "escaped" => ("the grapple is escaped", "libéré de la lutte"),
        "pinned" => ("the target is pinned", "la cible est immobilisée"),
        "tied_up" => ("the target is tied up", "la cible est ligotée"),
        "charged" => ("the charge is made", "la charge a lieu"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// Why a maneuver provokes an attack of opportunity, or why not (`improved`, `no_check`…).
pub fn maneuver_opportunity(reason: &str, lang: Lang) -> String {
    let (en, fr) = match reason {
        "provokes" => ("the maneuver provokes", "la manœuvre provoque"),
        "improved" => ("an improved maneuver feat or power", "don ou pouvoir de science de la manœuvre"),
        "cover" => ("cover", "abri"),
        "does_not_threaten" => ("it does not threaten", "ne menace pas"),
        "flat_footed" => ("it is flat-footed", "prise au dépourvu"),
        "grappled" => ("it is grappled", "agrippée"),
        "no_check" => ("no check is made", "aucun test n'est fait"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// Why a mover provokes an attack of opportunity, or why not.
pub fn opportunity_reason(r: OpportunityReason, lang: Lang) -> &'static str {
    use OpportunityReason::*;
    let (en, fr) = match r {
        LeavesThreatenedSquare => ("leaves a threatened square", "quitte une case menacée"),
        LeavesReach => ("leaves its reach", "quitte sa zone d'allonge"),
        StandsUp => ("stands up", "se relève"),
        MovesThroughSpace => ("moves through its space", "traverse son espace"),
        OfferedToAlly => ("offered to an ally", "proposée à un allié"),
        FlatFooted => ("it is flat-footed", "pris au dépourvu"),
        Cover => ("the mover has cover", "le déplacement bénéficie d'un abri"),
        TotalCover => ("the mover has total cover", "le déplacement bénéficie d'un abri total"),
        TotalConcealment => {
            ("the mover has total concealment", "le déplacement bénéficie d'un camouflage total")
        }
        Withdraw => ("first square of a withdraw", "première case d'une retraite"),
    };
    pick(lang, en, fr)
}

/// Why a charge cannot be made, or what stops an end square.
pub fn charge_illegal(c: ChargeIllegal, lang: Lang) -> &'static str {
    use ChargeIllegal::*;
    let (en, fr) = match c {
        NoSquare => ("no square from which to attack", "aucune case d'où attaquer"),
        TooShort => ("less than 10 ft of movement", "moins de 3 mètres (2 cases) de déplacement"),
        TooLong => ("more than double speed", "plus de deux fois la vitesse"),
        NoLineOfSight => ("no line of sight at the start", "pas de ligne de vue au départ"),
        NotClosest => (
            "the path does not end on a closest square",
            "le chemin ne finit pas sur une case la plus proche",
        ),
        EndOccupied => ("the end square is occupied", "la case d'arrivée est occupée"),
        EndBlocked => ("the end square is blocked", "la case d'arrivée est bloquée"),
        PathBlocked => ("the path is blocked", "le chemin est bloqué"),
        DifficultTerrain => ("difficult terrain on the path", "terrain difficile sur le chemin"),
        PathCreature => ("a creature on the path", "une créature sur le chemin"),
    };
    pick(lang, en, fr)
}

/// How a charge's path is tested.
pub fn path_test(t: PathTest, lang: Lang) -> &'static str {
    let (en, fr) = match t {
        PathTest::ConvexHull => ("squares under the convex hull", "cases sous l'enveloppe convexe"),
        PathTest::CentreLine => ("squares on the centre line", "cases sur la ligne des centres"),
    };
    pick(lang, en, fr)
}

/// How a d20 is rolled.
pub fn roll_mode(m: RollMode, lang: Lang) -> &'static str {
    let (en, fr) = match m {
        RollMode::Normal => ("normal roll", "jet normal"),
        RollMode::Advantage => ("with advantage", "avec avantage"),
        RollMode::Disadvantage => ("with disadvantage", "avec désavantage"),
    };
    pick(lang, en, fr)
}

/// Why a movement budget differs from the speed; "Pointe" is seed 002's Dash.
pub fn budget_why(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "double_move" => ("double move", "double déplacement"),
        "dash" => ("Dash", "Pointe"),
        "stand_up" => ("standing up", "se relever"),
        "crawl" => ("crawling", "reptation"),
        "dragging" => ("dragging a creature", "tire une créature"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// Why a grapple's follow-up move cannot be made.
pub fn follow_up_issue(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "solid" => ("a square of the path is solid", "une case du chemin est infranchissable"),
        "wall" => ("a wall blocks the path", "un mur barre le chemin"),
        "corner" => ("the path cuts a corner", "le chemin coupe un angle"),
        "creature" => ("a creature blocks the path", "une créature barre le chemin"),
        "too_far" => ("the path is longer than half the speed", "le chemin dépasse la moitié de la vitesse"),
        "end_occupied" => {
            ("the grappler's final space is occupied", "l'espace final de l'agrippeur est occupé")
        }
        "place_not_adjacent" => (
            "the target's square is not adjacent to the grappler",
            "la case de la cible n'est pas adjacente à l'agrippeur",
        ),
        "place_off_grid" => ("the target's square is off the grid", "la case de la cible sort de la grille"),
        "place_blocked" => ("the target's square is solid", "la case de la cible est infranchissable"),
        "place_occupied" => ("the target's square is occupied", "la case de la cible est occupée"),
        "grapple_illegal" => ("the grapple cannot be attempted", "la lutte ne peut être tentée"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// Why mounting or dismounting fails.
pub fn mount_issue(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "mount_too_small" => (
            "the mount is not at least one size larger",
            "la monture n'a pas au moins une catégorie de taille de plus",
        ),
        "mount_out_of_reach" => {
            ("the mount is more than 5 ft away", "la monture est à plus de 1,50 mètre (1 case)")
        }
        "no_movement_left" => ("not enough movement left", "plus assez de mouvement"),
        "landing_out_of_reach" => (
            "the landing square is more than 5 ft from the mount",
            "la case d'arrivée est à plus de 1,50 mètre (1 case) de la monture",
        ),
        "landing_blocked" => ("the landing square is not free", "la case d'arrivée n'est pas libre"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// What ending a move in an occupied space does.
pub fn consequence(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "illegal" => ("a move cannot end there", "un déplacement ne peut pas s'y terminer"),
        "prone" => {
            ("a turn ending there leaves the mover prone", "finir son tour là fait subir l'état À terre")
        }
        "return_to_last_legal" => {
            ("the mover goes back to the last legal square", "retour à la dernière case permise")
        }
        "allowed" => ("allowed: the occupant is helpless", "permis : l'occupant est sans défense"),
        "none" => ("no consequence", "sans conséquence"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// Why a move provokes nothing; "pas de placement" is seed 003's five-foot step.
pub fn no_opportunity(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "teleport" => ("teleport", "téléportation"),
        "forced" => ("forced movement", "déplacement forcé"),
        "disengage" => ("Disengage", "Désengagement"),
        "five_foot_step" => ("five-foot step", "pas de placement"),
        "guarded_step" => ("guarded step", "pas prudent"),
        "short_step" => ("short step", "pas de placement"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// Why a creature refuses passage.
pub fn passage(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "hostile" => ("hostile creature", "créature hostile"),
        "opponent" => ("opponent", "adversaire"),
        "charging_through_ally" => {
            ("a charge cannot pass through an ally", "une charge ne traverse pas un allié")
        }
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// Why a creature rolls initiative with advantage or disadvantage.
pub fn initiative_cause(id: &str, lang: Lang) -> String {
    Condition::from_id(id).map_or_else(|| readable(id), |c| condition(c, lang).to_owned())
}

/// How an initiative tie was broken.
pub fn tie_by(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "dex_mod" => ("the Dexterity modifier", "le modificateur de Dextérité"),
        "modifier" => ("the initiative modifier", "le modificateur d'initiative"),
        "roll_off" => ("a roll-off", "un jet de départage"),
        "group" => ("the group's order", "l'ordre du groupe"),
        "input_order" => ("the order given", "l'ordre donné"),
        "total" => ("the total", "le total"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// What an attack modifier comes from (« Cible à terre » is seed 003's heading).
pub fn attack_source(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "range" => ("range increment", "facteur de portée"),
        "ranged_in_close_combat" => {
            ("ranged attack in close combat", "attaque à distance en combat rapproché")
        }
        "long_range" => ("long range", "portée longue"),
        "into_melee" => ("shooting into melee", "tir dans la mêlée"),
        "cover" => ("cover", "abri"),
        "unseen_target" => ("unseen target", "cible non visible"),
        "unseen_attacker" => ("unseen attacker", "assaillant non visible"),
        "concealment" => ("concealment", "camouflage"),
        "flanking" => ("flanking", "prise en tenaille"),
        "prone_attacker" => ("prone attacker", "attaquant à terre"),
        "prone_target" => ("prone target", "cible à terre"),
        "condition" => ("condition", "état"),
        "squeezing_attacker" => ("squeezing attacker", "attaquant dans un espace exigu"),
        "squeezing_target" => ("squeezing target", "cible dans un espace exigu"),
        "charge" => ("charge", "charge"),
        "underwater" => ("underwater", "sous l'eau"),
        "off_hand" => ("off-hand attack", "combat à deux armes"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// An attack modifier's detail, by its source: a degree of cover, a miss chance, a
/// condition, creatures' ids (kept), or one of the rules crate's fixed phrases.
pub fn attack_detail(source: &str, detail: &str, words: &Words, lang: Lang) -> String {
    match source {
        "cover" => {
            let (id, ignored) = detail.strip_suffix(" (ignored)").map_or((detail, false), |d| (d, true));
            let name = cover_degree_id(id, words, lang).map_or_else(|| readable(id), str::to_owned);
            match (ignored, lang) {
                (false, _) => name,
                (true, Lang::En) => format!("{name}, ignored"),
                (true, Lang::Fr) => format!("{name}, ignoré"),
            }
        }
        "concealment" => match detail.strip_suffix("% miss chance").and_then(|p| p.parse::<u32>().ok()) {
            Some(p) => match lang {
                Lang::En => format!("{p}% miss chance"),
                Lang::Fr => format!("{p} % de chances de rater"),
            },
            None => readable(detail),
        },
        "condition" => condition_id(detail, lang),
        "charge" => {
            match detail.split_once(' ').filter(|(_, rest)| *rest == "AC to the attacker until its next turn")
            {
                Some((v, _)) => match lang {
                    Lang::En => format!("{v} {} to the attacker until its next turn", armour(words, lang)),
                    Lang::Fr => {
                        format!("{v} à la {} de l'attaquant jusqu'à son prochain tour", armour(words, lang))
                    }
                },
                None => detail.to_owned(),
            }
        }
        _ => fixed_phrase(detail, lang),
    }
}

/// The rules crate's fixed English phrases (attack and maneuver modifiers), in French; other
/// details are creature ids and stay as they are.
pub fn fixed_phrase(detail: &str, lang: Lang) -> String {
    if let Some(n) = detail
        .strip_prefix("secondary bull rush: ")
        .and_then(|r| r.strip_suffix(" creature(s) pushed beyond the first"))
    {
        return match lang {
            Lang::En => detail.to_owned(),
            Lang::Fr => {
                format!("bousculade secondaire : {n} créature(s) repoussée(s) au-delà de la première")
            }
        };
    }
    let fr = match detail {
        "only crossbows and shuriken" => "seulement arbalètes et shuriken",
        "beyond normal range: automatic miss" => "au-delà de la portée normale : raté automatique",
        "no ability modifier to damage unless it is negative" => {
            "pas de modificateur de caractéristique aux dégâts, sauf s'il est négatif"
        }
        "both weapons must have the Light property" => "les deux armes doivent avoir la propriété légère",
        "improved maneuver power / feat" => "pouvoir martial ou don de science de la manœuvre",
        "charging (RULES.md Q-19)" => "charge (RULES.md Q-19)",
        "maintaining the grapple on a target that did not break free" => {
            "maintien de la lutte sur une cible qui ne s'est pas libérée"
        }
        "without two free hands" => "sans deux mains libres",
        "grappled attacker" => "attaquant agrippé",
        "disarm unarmed" => "désarmement à mains nues",
        "charged target" => "la cible a chargé",
        "weapon with the disarm quality" => "arme dotée de la propriété désarmement",
        "disarm unarmed or with a whip" => "désarmement à mains nues ou avec un fouet",
        "tying up a target that is only grappled" => "ligoter une cible seulement agrippée",
        "stunned target" => "cible étourdie",
        "legs beyond two" => "jambes au-delà de deux",
        "damage taken from the attack of opportunity" => "dégâts subis de l'attaque d'opportunité",
        other => return other.to_owned(),
    };
    match lang {
        Lang::En => detail.to_owned(),
        Lang::Fr => fr.to_owned(),
    }
}

/// Why a movement is illegal (the answer's `reason`), for the drawing's title.
pub fn movement_failure(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "solid" => ("a solid square", "une case pleine"),
        "wall" => ("a wall", "un mur"),
        "corner" => ("a cut corner", "un coin coupé"),
        "creature" => ("a creature in the way", "une créature sur le chemin"),
        "no_movement_left" => ("not enough movement left", "plus assez de mouvement"),
        "ends_in_occupied" => ("it ends in an occupied space", "il finit dans un espace occupé"),
        "cannot_stand" => ("cannot stand up", "impossible de se relever"),
        "not_a_short_step" => ("not a short step", "pas un pas de placement"),
        "illegal_step" => ("an illegal step", "un pas interdit"),
        "charge" => ("the charge is not possible", "la charge est impossible"),
        other => return mount_issue(other, lang),
    };
    pick(lang, en, fr).to_owned()
}

/// A movement mode (`walk`, `disengage`…), for the drawing's title.
pub fn movement_mode(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "walk" => ("walk", "marche"),
        "disengage" => ("Disengage", "Désengagement"),
        "teleport" => ("teleport", "téléportation"),
        "forced" => ("forced", "forcé"),
        "charge" => ("charge", "charge"),
        "mount" => ("mounting", "monter en selle"),
        "dismount" => ("dismounting", "descendre de selle"),
        other => return readable(other),
    };
    pick(lang, en, fr).to_owned()
}

/// An id no table knows, made readable (`snake_case` → words): never raw in a sentence.
fn readable(id: &str) -> String {
    id.replace('_', " ")
}

fn pick(lang: Lang, en: &'static str, fr: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Fr => fr,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rules::ruleset::RulesetId;

    #[test]
    fn metres_as_the_seeds_write_them() {
        // Seeds 000 and 001: "9 mètres (6 cases)", "1,50 mètre (1 case)".
        assert_eq!(metres_fr(30), "9 mètres (6 cases)");
        assert_eq!(metres_fr(5), "1,50 mètre (1 case)");
        assert_eq!(metres_fr(15), "4,50 mètres (3 cases)");
        assert_eq!(metres_fr(0), "0 mètre (0 case)");
        assert_eq!(metres_fr(7), "2,10 mètres");
        assert_eq!(distance(30, Lang::En), "30 ft");
    }

    #[test]
    fn seed_words_for_cover() {
        use CoverDegree::*;
        let words = |r: RulesetId| &r.rules().words;
        assert_eq!(cover_degree(Half, words(RulesetId::Dnd5e2024), Lang::Fr), "abri partiel");
        assert_eq!(cover_degree(ThreeQuarters, words(RulesetId::Dnd5e2024), Lang::Fr), "abri supérieur");
        assert_eq!(cover_degree(Improved, words(RulesetId::Pf1e), Lang::Fr), "abri supérieur");
        assert_eq!(cover_degree(Improved, words(RulesetId::Sf1e), Lang::Fr), "abri amélioré");
        assert_eq!(cover_degree(Partial, words(RulesetId::Sf1e), Lang::Fr), "abri partiel");
    }

    /// Every id the rules crate emits (found in its sources) has its own French words: the
    /// French differs from the English, but for the words both languages share.
    #[test]
    fn every_emitted_id_has_french_words() {
        type Table = fn(&str, Lang) -> String;
        let tables: [(Table, &[&str]); 9] = [
            (
                band,
                &[
                    "concealment_miss",
                    "attacker_drops_weapon",
                    "attacker_prone",
                    "failure",
                    "pushed_10_ft",
                    "both_hands",
                    "through_and_prone",
                    "grappled",
                    "target_prone",
                    "disarmed",
                    "through",
                    "escaped",
                    "pinned",
                    "tied_up",
                    "charged",
                ],
            ),
            (
                maneuver_opportunity,
                &[
                    "provokes",
                    "improved",
                    "cover",
                    "does_not_threaten",
                    "flat_footed",
                    "grappled",
                    "no_check",
                ],
            ),
            (budget_why, &["double_move", "dash", "stand_up", "crawl", "dragging"]),
            (
                mount_issue,
                &[
                    "mount_too_small",
                    "mount_out_of_reach",
                    "no_movement_left",
                    "landing_out_of_reach",
                    "landing_blocked",
                ],
            ),
            (consequence, &["illegal", "prone", "return_to_last_legal", "allowed", "none"]),
            (no_opportunity, &["teleport", "forced", "disengage", "five_foot_step", "guarded_step"]),
            (passage, &["hostile", "opponent", "charging_through_ally"]),
            (tie_by, &["dex_mod", "modifier", "roll_off", "group", "input_order", "total"]),
            (
                attack_source,
                &[
                    "range",
                    "ranged_in_close_combat",
                    "long_range",
                    "into_melee",
                    "cover",
                    "unseen_target",
                    "unseen_attacker",
                    "concealment",
                    "flanking",
                    "prone_attacker",
                    "prone_target",
                    "condition",
                    "squeezing_attacker",
                    "squeezing_target",
                    "underwater",
                    "off_hand",
                ],
            ),
        ];
        for (table, ids) in tables {
            for id in ids {
                let (en, fr) = (table(id, Lang::En), table(id, Lang::Fr));
                assert!(!en.contains('_') && !fr.contains('_'), "{id}: {en} / {fr}");
                assert_ne!(en, fr, "{id} has no French words");
            }
        }
        for id in [
            "solid",
            "wall",
            "corner",
            "creature",
            "no_movement_left",
            "ends_in_occupied",
            "cannot_stand",
            "not_a_short_step",
            "illegal_step",
            "charge",
            "mount_too_small",
        ] {
            assert_ne!(movement_failure(id, Lang::En), movement_failure(id, Lang::Fr), "{id}");
        }
        for id in ["walk", "disengage", "teleport", "forced", "mount", "dismount"] {
            assert_ne!(movement_mode(id, Lang::En), movement_mode(id, Lang::Fr), "{id}");
        }
    }

    #[test]
    fn every_id_becomes_words() {
        for c in Condition::ALL {
            for lang in [Lang::En, Lang::Fr] {
                assert!(!condition(c, lang).contains('_'), "{c:?}");
            }
        }
        assert_eq!(band("pushed_15_ft", Lang::Fr), "la cible est repoussée de 4,50 mètres (3 cases)");
        assert_eq!(band("pushed_15_ft", Lang::En), "the target is pushed 15 ft");
        assert_eq!(
            attack_detail("concealment", "20% miss chance", &RulesetId::Pf1e.rules().words, Lang::Fr),
            "20 % de chances de rater"
        );
        assert_eq!(
            attack_detail("cover", "three_quarters (ignored)", &RulesetId::Dnd5e2014.rules().words, Lang::En),
            "three-quarters cover, ignored"
        );
        assert_eq!(
            attack_detail(
                "charge",
                "-2 AC to the attacker until its next turn",
                &RulesetId::Hb3d.rules().words,
                Lang::Fr
            ),
            "-2 à la DEF de l'attaquant jusqu'à son prochain tour"
        );
        assert_eq!(tie_by("roll_off", Lang::Fr), "un jet de départage");
    }
}
