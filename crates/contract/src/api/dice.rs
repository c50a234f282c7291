//! The `dice` field: roll with a seed, take the VTT's faces, or compute odds only.

use std::collections::BTreeMap;

use arbiter_rules::dice::{DiceError, DiceSource, GivenDice, OddsOnly, Purpose, Rolled};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bounds::{Face, InitiativeRolls};
use crate::error::rolls_pointer;

/// The largest seed: 2^53 − 1, so that a seed survives a JavaScript client's numbers.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// How dice are settled.
#[derive(Debug, Clone, ToSchema)]
#[serde(tag = "mode", rename_all = "lowercase", deny_unknown_fields)]
pub enum DiceIn {
    /// The server rolls; with no seed a fresh one is drawn. The seed is always echoed back so
    /// that the answer can be replayed.
    Roll {
        /// Seed of the server's RNG: 0 to 9007199254740991 (2^53 − 1, the largest integer a
        /// JavaScript client holds exactly).
        #[serde(default)]
        #[schema(minimum = 0, maximum = 9007199254740991_u64)]
        seed: Option<u64>,
    },
    /// The VTT rolled the dice itself: faces keyed by purpose.
    Given {
        /// Faces per purpose.
        rolls: GivenRollsIn,
    },
    /// No roll: only the exact odds.
    Odds {},
}

/// The wire form of [`DiceIn`]: a plain struct, so that it goes through `deserialize_struct`
/// like every other object (serde's internally tagged enums buffer their content and would
/// accept arrays for the objects inside, which the strict parser refuses everywhere else).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiceWire {
    mode: DiceMode,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    rolls: Option<GivenRollsIn>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum DiceMode {
    Roll,
    Given,
    Odds,
}

impl<'de> Deserialize<'de> for DiceIn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let w = DiceWire::deserialize(d)?;
        // The same errors as the tagged enum gave: a field of another mode is unknown here.
        match (w.mode, w.seed, w.rolls) {
            (DiceMode::Roll, seed, None) => Ok(DiceIn::Roll { seed }),
            (DiceMode::Roll, _, Some(_)) => Err(D::Error::unknown_field("rolls", &["mode", "seed"])),
            (DiceMode::Given, None, Some(rolls)) => Ok(DiceIn::Given { rolls }),
            (DiceMode::Given, Some(_), _) => Err(D::Error::unknown_field("seed", &["mode", "rolls"])),
            (DiceMode::Given, None, None) => Err(D::Error::missing_field("rolls")),
            (DiceMode::Odds, None, None) => Ok(DiceIn::Odds {}),
            (DiceMode::Odds, Some(_), _) => Err(D::Error::unknown_field("seed", &["mode"])),
            (DiceMode::Odds, None, Some(_)) => Err(D::Error::unknown_field("rolls", &["mode"])),
        }
    }
}

/// Given die faces, keyed by purpose, in the order rolled.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GivenRollsIn {
    /// The attack roll: one d20, two with advantage or disadvantage, three d6 in hb3d.
    #[serde(default, deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::FACES }, _, _>")]
    #[schema(max_items = 8, value_type = Option<Vec<Face>>)]
    pub attack: Option<Vec<i64>>,
    /// PF1 critical confirmation d20.
    #[serde(default, deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::FACES }, _, _>")]
    #[schema(max_items = 8, value_type = Option<Vec<Face>>)]
    pub confirm: Option<Vec<i64>>,
    /// Concealment miss chance d100.
    #[serde(default, deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::FACES }, _, _>")]
    #[schema(max_items = 8, value_type = Option<Vec<Face>>)]
    pub miss_chance: Option<Vec<i64>>,
    /// The acting creature's maneuver or contest roll.
    #[serde(default, deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::FACES }, _, _>")]
    #[schema(max_items = 8, value_type = Option<Vec<Face>>)]
    pub check: Option<Vec<i64>>,
    /// The other side's contest roll.
    #[serde(default, deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::FACES }, _, _>")]
    #[schema(max_items = 8, value_type = Option<Vec<Face>>)]
    pub opposed: Option<Vec<i64>>,
    /// The target's saving throw.
    #[serde(default, deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::FACES }, _, _>")]
    #[schema(max_items = 8, value_type = Option<Vec<Face>>)]
    pub save: Option<Vec<i64>>,
    /// A rider's DC 10 Dexterity save to stay on its mount (5e), one per rider at risk.
    #[serde(default, deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::FACES }, _, _>")]
    #[schema(max_items = 8, value_type = Option<Vec<Face>>)]
    pub mount_save: Option<Vec<i64>>,
    /// The damage dice of a hit, in the order the answer's `damage` documents: term by term,
    /// each term's dice as many times as it is rolled (a critical hit: 5e each term's dice
    /// twice, PF1 ×3 the weapon's dice three times).
    #[serde(
        default,
        deserialize_with = "crate::capped::opt_at_most::<{ arbiter_rules::damage::MAX_ROLLED_DICE as usize }, _, _>"
    )]
    #[schema(max_items = 256, value_type = Option<Vec<Face>>)]
    pub damage: Option<Vec<i64>>,
    /// Initiative faces keyed by creature id (at most 500 creatures).
    #[serde(default, deserialize_with = "super::bounds::unique_keys")]
    #[schema(value_type = InitiativeRolls)]
    pub initiative: BTreeMap<String, Vec<i64>>,
}

/// A die the answer rolled or took.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RollOut {
    /// What it was for (`attack`, `miss_chance`…).
    pub purpose: String,
    /// Creature id, for initiative rolls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creature: Option<String>,
    /// Faces of the die.
    pub sides: u32,
    /// The face.
    pub face: u32,
}

/// Given faces the question did not use are a 422 naming them: the VTT misread the situation
/// (it rolled advantage that cancelled out, or a confirmation no threat needed), so say so
/// rather than answer silently.
pub fn check_all_used(source: &Source, question: &str) -> Result<(), crate::error::AppError> {
    let Source::Given(g) = source else { return Ok(()) };
    let unused = g.unused();
    if unused.is_empty() {
        return Ok(());
    }
    Err(crate::error::AppError::Invalid(
        unused
            .into_iter()
            .map(|(p, n)| {
                crate::error::Issue::new(
                    rolls_pointer(&p),
                    crate::error::Text::new(
                        format!("{n} face(s) not used by this {question}"),
                        format!(
                            "{n} face(s) non utilisée(s) par {}",
                            match question {
                                "attack" => "cette attaque",
                                "maneuver" => "cette manœuvre",
                                _ => "ce jet",
                            }
                        ),
                    ),
                )
            })
            .collect(),
    ))
}

impl From<&Rolled> for RollOut {
    fn from(r: &Rolled) -> Self {
        let creature = match &r.purpose {
            Purpose::Initiative(id) => Some(id.clone()),
            _ => None,
        };
        RollOut { purpose: r.purpose.key().to_owned(), creature, sides: r.sides, face: r.face }
    }
}

/// Echo of the dice settings, so that a rolled answer can be replayed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DiceEcho {
    /// `roll`, `given` or `odds`.
    #[schema(value_type = crate::wire::DiceModeId)]
    pub mode: &'static str,
    /// The seed used (roll mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 9007199254740991_u64)]
    pub seed: Option<u64>,
}

/// A server-side source of faces: a seeded RNG.
#[derive(Debug)]
pub struct SeededDice(StdRng);

impl DiceSource for SeededDice {
    fn roll(&mut self, _: &Purpose, sides: u32) -> Result<Option<u32>, DiceError> {
        Ok(Some(self.0.random_range(1..=sides.max(1))))
    }
}

/// The source of faces a request asked for.
#[derive(Debug)]
pub enum Source {
    /// Seeded RNG.
    Seeded(Box<SeededDice>),
    /// The VTT's faces.
    Given(GivenDice),
    /// Odds only.
    Odds(OddsOnly),
}

impl DiceSource for Source {
    fn roll(&mut self, purpose: &Purpose, sides: u32) -> Result<Option<u32>, DiceError> {
        match self {
            Source::Seeded(s) => s.roll(purpose, sides),
            Source::Given(g) => g.roll(purpose, sides),
            Source::Odds(o) => o.roll(purpose, sides),
        }
    }
}

impl DiceIn {
    /// The source of faces and the echo for the answer.
    pub fn source(&self) -> (Source, DiceEcho) {
        match self {
            DiceIn::Roll { seed } => {
                let seed = seed.unwrap_or_else(|| rand::rng().random_range(0..=MAX_SEED));
                (
                    Source::Seeded(Box::new(SeededDice(StdRng::seed_from_u64(seed)))),
                    DiceEcho { mode: "roll", seed: Some(seed) },
                )
            }
            DiceIn::Given { rolls } => {
                let mut lists: Vec<(Purpose, Vec<i64>)> = [
                    (Purpose::Attack, &rolls.attack),
                    (Purpose::Confirm, &rolls.confirm),
                    (Purpose::MissChance, &rolls.miss_chance),
                    (Purpose::Check, &rolls.check),
                    (Purpose::Opposed, &rolls.opposed),
                    (Purpose::Save, &rolls.save),
                    (Purpose::MountSave, &rolls.mount_save),
                    (Purpose::Damage, &rolls.damage),
                ]
                .into_iter()
                .filter_map(|(p, f)| f.clone().map(|f| (p, f)))
                .collect();
                lists.extend(
                    rolls.initiative.iter().map(|(id, f)| (Purpose::Initiative(id.clone()), f.clone())),
                );
                (Source::Given(GivenDice::new(lists)), DiceEcho { mode: "given", seed: None })
            }
            DiceIn::Odds {} => (Source::Odds(OddsOnly), DiceEcho { mode: "odds", seed: None }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same seed gives the same faces; faces stay on the die.
    #[test]
    fn seeded_replay() {
        let dice = DiceIn::Roll { seed: Some(7) };
        let (mut a, echo) = dice.source();
        let (mut b, _) = dice.source();
        assert_eq!(echo.seed, Some(7));
        for _ in 0..100 {
            let fa = a.roll(&Purpose::Attack, 20).unwrap().unwrap();
            assert_eq!(Some(Some(fa)), b.roll(&Purpose::Attack, 20).ok());
            assert!((1..=20).contains(&fa));
        }
    }

    #[test]
    fn fresh_seed_is_echoed() {
        let (_, echo) = DiceIn::Roll { seed: None }.source();
        assert_eq!(echo.mode, "roll");
        assert!(echo.seed.is_some());
    }

    #[test]
    fn given_faces_are_validated() {
        let json = r#"{"mode":"given","rolls":{"attack":[21]}}"#;
        let dice: DiceIn = serde_json::from_str(json).unwrap();
        let (mut s, _) = dice.source();
        assert!(matches!(s.roll(&Purpose::Attack, 20), Err(DiceError::OutOfRange { face: 21, .. })));
        assert!(matches!(s.roll(&Purpose::Save, 20), Err(DiceError::Missing { .. })));
        assert!(serde_json::from_str::<DiceIn>(r#"{"mode":"odds","x":1}"#).is_err());
    }
}
