//! Damage on the wire: a weapon's `damage`, the target's defences, and the `damage` object of
//! the answers of `/v1/attack` and `/v1/maneuvers` (grapple damage).

use arbiter_rules::damage::expr::{self, ExprError, MAX_CHARS, MAX_COUNT, MAX_GROUPS, MAX_SIDES, MAX_STATIC};
use arbiter_rules::damage::{
    Damage, DamageAnswer, DamageDist, DamageReduction, DamageSource, Defences, MAX_TERMS, Term,
};
use arbiter_rules::dice::Ratio;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::Text;
use crate::problems::Problems;

/// Most damage types in one of a creature's lists, most materials of a weapon.
pub const DAMAGE_TYPES: usize = 16;
/// Longest damage type or material, characters.
pub const TYPE_CHARS: usize = 64;
/// Largest hit points, energy resistance or damage reduction.
pub const DAMAGE_AMOUNT: i64 = 1_000_000;

/// One term of a weapon's damage.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageTermIn {
    /// Dice and bonus (`"2d6"`, `"1d8+3"`).
    #[schema(min_length = 1, max_length = 64)]
    pub dice: String,
    /// Damage type (`"fire"`); absent: the weapon's `damage_type`.
    #[serde(default, rename = "type")]
    #[schema(max_length = 64)]
    pub damage_type: Option<String>,
    /// PF1 family: extra dice (sneak attack, flaming) that a critical multiplier does not
    /// multiply.
    #[serde(default)]
    pub extra: bool,
}

/// A weapon's damage: an expression (`"1d8+3"`, `"unarmed"` for the ruleset's unarmed
/// strike), or terms of several damage types.
#[derive(Debug, Clone)]
pub enum DamageIn {
    /// One expression of the weapon's `damage_type`.
    Expression(String),
    /// Several terms.
    Terms(Vec<DamageTermIn>),
}

impl DamageIn {
    /// Whether it names the ruleset's unarmed strike.
    pub fn is_unarmed(&self) -> bool {
        matches!(self, DamageIn::Expression(e) if e.trim().eq_ignore_ascii_case("unarmed"))
    }
}

impl<'de> Deserialize<'de> for DamageIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DamageIn;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a damage expression such as \"1d8+3\", or an array of {\"dice\", \"type\"} terms",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DamageIn, E> {
                Ok(DamageIn::Expression(v.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DamageIn, A::Error> {
                let mut terms = Vec::new();
                while let Some(t) = seq.next_element::<DamageTermIn>()? {
                    if terms.len() == MAX_TERMS {
                        return Err(de::Error::invalid_length(MAX_TERMS + 1, &"at most 8 damage terms"));
                    }
                    terms.push(t);
                }
                Ok(DamageIn::Terms(terms))
            }
        }
        d.deserialize_any(V)
    }
}

/// A string or an array, told apart by JSON's own types (no property to discriminate on): an
/// `allOf` of the string's bounds and the array's, each of which applies to its type only.
impl utoipa::PartialSchema for DamageIn {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, ObjectBuilder, SchemaType, Type};
        let both = || SchemaType::from_iter([Type::String, Type::Array]);
        let expression = ObjectBuilder::new()
            .schema_type(both())
            .min_length(Some(1))
            .max_length(Some(MAX_CHARS))
            .description(Some(
                "A string: `NdS` groups and constants added or subtracted (`1d8+3`, `2d6`, `1d6-1`), or `unarmed` (the ruleset's unarmed strike).",
            ));
        let terms = ArrayBuilder::new()
            .schema_type(both())
            .items(utoipa::openapi::Ref::from_schema_name("DamageTermIn"))
            .min_items(Some(1))
            .max_items(Some(MAX_TERMS))
            .description(Some("An array: terms of several damage types."));
        AllOfBuilder::new()
            .item(expression)
            .item(terms)
            .description(Some(format!(
                "The damage of a hit: 1 to {MAX_COUNT} dice of 1 to {MAX_SIDES} sides per group, at most {MAX_GROUPS} groups and ±{MAX_STATIC} per expression; a hit or critical hit rolls at most 256 dice with at most 2^63 outcomes."
            )))
            .examples([serde_json::json!("1d8+3")])
            .into()
    }
}

impl ToSchema for DamageIn {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        schemas.push(("DamageTermIn".into(), <DamageTermIn as utoipa::PartialSchema>::schema()));
    }
}

/// How a weapon is held (PF1, hb3d: Strength ×1, ×1½, ×½ to damage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GripIn {
    /// One hand (default, but for a `two_handed` weapon).
    OneHanded,
    /// Both hands: Strength bonus ×1½.
    TwoHanded,
    /// The off hand: Strength bonus ×½.
    OffHand,
}

/// PF1 energy resistance to one type.
#[derive(Debug, Clone, Deserialize, ToSchema, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyResistanceIn {
    /// The energy type (`fire`).
    #[serde(rename = "type")]
    #[schema(min_length = 1, max_length = 64)]
    pub damage_type: String,
    /// Subtracted from each hit's damage of that type.
    #[schema(minimum = 0, maximum = 1000000)]
    pub amount: i64,
}

/// PF1 damage reduction.
#[derive(Debug, Clone, Deserialize, ToSchema, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DamageReductionIn {
    /// Subtracted from each hit's physical damage.
    #[schema(minimum = 0, maximum = 1000000)]
    pub amount: i64,
    /// What bypasses it: a damage type of the weapon (`slashing`) or one of its `materials`
    /// (`silver`, `magic`); empty: nothing (DR x/—).
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ DAMAGE_TYPES }, _, _>")]
    #[schema(max_items = 16, value_type = Vec<super::bounds::DamageWord>)]
    pub bypassed_by: Vec<String>,
}

/// The rules crate's damage of a weapon, or `None` with the problems recorded.
pub fn weapon_damage(
    p: &mut Problems,
    base: &str,
    d: &DamageIn,
    damage_type: Option<&str>,
    included: bool,
) -> Option<Damage> {
    let ptr = format!("{base}/damage");
    let source = match d {
        DamageIn::Expression(_) if d.is_unarmed() => DamageSource::Unarmed,
        DamageIn::Expression(e) => match expr::parse(e) {
            Ok(x) => DamageSource::Terms(vec![Term {
                dice: x.dice,
                bonus: x.bonus,
                damage_type: damage_type.map(str::to_owned),
                extra: false,
            }]),
            Err(err) => {
                p.push(ptr, expr_text(&err));
                return None;
            }
        },
        DamageIn::Terms(ts) => {
            if ts.is_empty() {
                p.push(ptr, Text::new("at least one damage term", "au moins un terme de dégâts"));
                return None;
            }
            let mut terms = Vec::new();
            for (i, t) in ts.iter().enumerate() {
                match expr::parse(&t.dice) {
                    Ok(x) => terms.push(Term {
                        dice: x.dice,
                        bonus: x.bonus,
                        damage_type: t.damage_type.clone().or_else(|| damage_type.map(str::to_owned)),
                        extra: t.extra,
                    }),
                    Err(err) => p.push(format!("{ptr}/{i}/dice"), expr_text(&err)),
                }
            }
            if terms.len() < ts.len() {
                return None;
            }
            DamageSource::Terms(terms)
        }
    };
    Some(Damage { source, ability_included: included })
}

/// What is wrong with an expression, in both languages.
fn expr_text(e: &ExprError) -> Text {
    match e {
        ExprError::TooLong => Text::new(
            format!("a damage expression has at most {MAX_CHARS} characters"),
            format!("une expression de dégâts a au plus {MAX_CHARS} caractères"),
        ),
        ExprError::Empty => Text::new("an empty damage expression", "une expression de dégâts vide"),
        ExprError::TrailingSign => Text::new("ends with a sign", "se termine par un signe"),
        ExprError::MisplacedSign => Text::new(
            "two signs in a row, or a sign first: write 1d6-1",
            "deux signes de suite, ou un signe en tête : écrire 1d6-1",
        ),
        ExprError::NotATerm(t) => Text::new(
            format!("\"{t}\" is neither a number nor dice such as 2d6"),
            format!("« {t} » n'est ni un nombre ni des dés comme 2d6"),
        ),
        ExprError::SubtractedDice(t) => Text::new(
            format!("dice are added, not subtracted: -{t}"),
            format!("les dés s'ajoutent, ils ne se retranchent pas : -{t}"),
        ),
        ExprError::NoSides(t) => Text::new(
            format!("\"{t}\" lacks the number of sides (1d6)"),
            format!("« {t} » n'a pas de nombre de faces (1d6)"),
        ),
        ExprError::Count(t) => Text::new(
            format!("\"{t}\": from 1 to {MAX_COUNT} dice"),
            format!("« {t} » : de 1 à {MAX_COUNT} dés"),
        ),
        ExprError::Sides(t) => Text::new(
            format!("\"{t}\": a die has 1 to {MAX_SIDES} sides"),
            format!("« {t} » : un dé a de 1 à {MAX_SIDES} faces"),
        ),
        ExprError::Groups => Text::new(
            format!("at most {MAX_GROUPS} dice groups in one expression"),
            format!("au plus {MAX_GROUPS} groupes de dés par expression"),
        ),
        ExprError::Static => Text::new(
            format!("the constants of an expression add up to at most ±{MAX_STATIC}"),
            format!("les constantes d'une expression totalisent au plus ±{MAX_STATIC}"),
        ),
    }
}

/// A creature's defences against damage, from its wire stats.
pub fn defences(
    resistances: &[String],
    vulnerabilities: &[String],
    immunities: &[String],
    energy: &[EnergyResistanceIn],
    dr: Option<&DamageReductionIn>,
) -> Defences {
    Defences {
        resistances: resistances.to_vec(),
        vulnerabilities: vulnerabilities.to_vec(),
        immunities: immunities.to_vec(),
        energy_resistance: energy.iter().map(|e| (e.damage_type.clone(), e.amount)).collect(),
        dr: dr.map(|d| DamageReduction { amount: d.amount, bypassed_by: d.bypassed_by.clone() }),
    }
}

/// One possible damage.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DamageOutcomeOut {
    /// The damage.
    pub damage: i64,
    /// Its probability.
    pub p: f64,
    /// The same as an exact fraction (`"9/20"`).
    pub exact: String,
}

/// Exact fractions of a damage distribution's summary.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DamageDistExact {
    /// The mean.
    pub mean: String,
    /// P(damage ≥ hp).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_drop: Option<String>,
}

/// An exact damage distribution.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DamageDistOut {
    /// The mean damage.
    pub mean: f64,
    /// P(damage ≥ the target's `hp`): the chance to drop it (present when `hp` is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_drop: Option<f64>,
    /// Exact fractions.
    pub exact: DamageDistExact,
    /// P(damage = k) for every possible k, in increasing order (zero chances left out).
    pub outcomes: Vec<DamageOutcomeOut>,
}

/// The damage of one damage type, rolled.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DamageByTypeOut {
    /// The damage type; absent for untyped damage.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<String>,
    /// The sum of its dice and bonuses.
    pub rolled: i64,
    /// After the minimum and the target's defences.
    pub dealt: i64,
}

/// The damage rolled.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RolledDamageOut {
    /// Every damage die, in the order rolled (also in `rolls`, purpose `damage`).
    pub faces: Vec<u32>,
    /// Per damage type.
    pub by_type: Vec<DamageByTypeOut>,
    /// The damage dealt.
    pub total: i64,
}

/// The damage part of an answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DamageOut {
    /// The damage of a hit as worked out, ability modifier included (`"1d8+3 slashing"`).
    pub expression: String,
    /// The damage is nonlethal (the PF1 family's unarmed strike) or chosen so (grapple).
    pub nonlethal: bool,
    /// The target's hit points, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<i32>,
    /// The damage of a normal hit (of a successful check, for a maneuver).
    pub hit: DamageDistOut,
    /// The damage of a critical hit (absent where none can happen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical: Option<DamageDistOut>,
    /// The damage of the whole attack or maneuver: misses and failures deal 0.
    pub overall: DamageDistOut,
    /// The damage dealt, when the dice were rolled or given and the attack hit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolled: Option<RolledDamageOut>,
}

fn dist(d: &DamageDist) -> DamageDistOut {
    let frac = |r: Ratio| r.to_string();
    DamageDistOut {
        mean: d.mean.to_f64(),
        p_drop: d.p_drop.map(Ratio::to_f64),
        exact: DamageDistExact { mean: frac(d.mean), p_drop: d.p_drop.map(frac) },
        outcomes: d
            .outcomes
            .iter()
            .map(|(k, p)| DamageOutcomeOut { damage: *k, p: p.to_f64(), exact: frac(*p) })
            .collect(),
    }
}

impl DamageOut {
    /// The wire form of the rules' damage answer.
    pub fn new(a: &DamageAnswer) -> DamageOut {
        DamageOut {
            expression: a.expression.clone(),
            nonlethal: a.nonlethal,
            hp: a.hp,
            hit: dist(&a.hit),
            critical: a.critical.as_ref().map(dist),
            overall: dist(&a.overall),
            rolled: a.rolled.as_ref().map(|r| RolledDamageOut {
                faces: r.faces.clone(),
                by_type: r
                    .by_type
                    .iter()
                    .map(|(t, rolled, dealt)| DamageByTypeOut {
                        damage_type: t.clone(),
                        rolled: *rolled,
                        dealt: *dealt,
                    })
                    .collect(),
                total: r.total,
            }),
        }
    }
}
