//! What every question's mapping shares: its encounter, the creatures it names, and one 422
//! listing every problem found, each with its pointer.

use arbiter_rules::encounter::Encounter;
use arbiter_rules::error::RulesError;

use super::encounter::EncounterIn;
use super::mapping;
use crate::error::{AppError, Text};
use crate::limits::Limits;
use crate::problems::{self, MAX_LISTED_NAMES, Problems};

/// A question being mapped: its encounter, when valid, and every problem found so far (the
/// encounter's first, then the question's fields in the order they are mapped).
#[derive(Debug)]
pub struct Draft {
    /// Problems found so far.
    pub problems: Problems,
    encounter: Option<Encounter>,
}

impl Draft {
    /// Maps the question's `encounter` (at `/encounter`).
    pub fn new(e: &EncounterIn, limits: &Limits) -> Draft {
        match mapping::encounter(e, limits, "/encounter") {
            Ok(enc) => Draft { problems: Problems::default(), encounter: Some(enc) },
            Err(problems) => Draft { problems, encounter: None },
        }
    }

    /// The index of the creature `id` names at `pointer`; an unknown id is a problem. Nothing
    /// is looked up (or reported) in an invalid encounter: its own problems answer.
    pub fn creature(&mut self, pointer: &str, id: &str) -> Option<usize> {
        self.lookup(|| pointer.to_owned(), id)
    }

    /// The encounter, when it is valid so far.
    pub fn encounter(&self) -> Option<&Encounter> {
        self.encounter.as_ref()
    }

    /// [`Draft::creature`] with the pointer built only for a problem.
    fn lookup(&mut self, pointer: impl FnOnce() -> String, id: &str) -> Option<usize> {
        let enc = self.encounter.as_ref()?;
        let found = enc.find(id);
        if found.is_none() {
            self.problems.push(pointer(), unknown_creature(enc, id));
        }
        found
    }

    /// [`Draft::creature`] for every id of the list at `pointer` (`{pointer}/{i}`), in order;
    /// an unknown id is left out (its problem answers).
    pub fn creatures(&mut self, pointer: &str, ids: &[String]) -> Vec<usize> {
        ids.iter().enumerate().filter_map(|(i, id)| self.lookup(|| format!("{pointer}/{i}"), id)).collect()
    }

    /// Records the problems the rules find in a field before the question is asked (each
    /// `RulesError` carries its pointer).
    pub fn add(&mut self, errors: impl IntoIterator<Item = RulesError>) {
        for e in errors {
            if let AppError::Invalid(fields) = AppError::from(e) {
                // A field the mapping already refused is not refused again by the rules.
                let fresh: Vec<_> =
                    fields.into_iter().filter(|f| !self.problems.reported(&f.pointer)).collect();
                self.problems.0.extend(fresh);
            }
        }
    }

    /// The `attacker` and `target` a question names (`/attacker`, `/target`).
    pub fn pair(&mut self, attacker: &str, target: &str) -> Option<(usize, usize)> {
        let a = self.creature("/attacker", attacker);
        let t = self.creature("/target", target);
        a.zip(t)
    }

    /// The encounter, attacker and target of a question about two creatures, or a 422
    /// listing every problem found.
    pub fn into_pair(mut self, attacker: &str, target: &str) -> Result<Pair, AppError> {
        let pair = self.pair(attacker, target);
        let (encounter, (attacker, target)) = self.finish(pair)?;
        Ok(Pair { encounter, attacker, target })
    }

    /// The encounter and `value` (what the question's mapping found: its creatures, its kind),
    /// or a 422 listing every problem found when there is any. A `value` missing has its
    /// problem recorded where it went missing.
    pub fn finish<T>(self, value: Option<T>) -> Result<(Encounter, T), AppError> {
        match (self.encounter, value, self.problems.is_empty()) {
            (Some(enc), Some(value), true) => Ok((enc, value)),
            _ => Err(AppError::Invalid(self.problems.0)),
        }
    }

    /// The encounter, or a 422 listing every problem found.
    pub fn done(self) -> Result<Encounter, AppError> {
        self.finish(Some(())).map(|(enc, ())| enc)
    }
}

/// "no creature has id …", with the ids the encounter has (or that it has none).
fn unknown_creature(enc: &Encounter, id: &str) -> Text {
    if enc.creatures.is_empty() {
        return Text::new(
            format!("no creature has id {id:?}: the encounter has no creatures"),
            format!("aucune créature n'a l'identifiant « {id} » : la rencontre n'a aucune créature"),
        );
    }
    let known: Vec<&str> = enc.creatures.iter().take(MAX_LISTED_NAMES + 1).map(|c| c.id.as_str()).collect();
    let known = problems::names(&known);
    Text::new(
        format!("no creature has id {id:?}; the creatures are: {known}"),
        format!("aucune créature n'a l'identifiant « {id} » ; les créatures sont : {known}"),
    )
}

/// A question about an attacker and a target, in the rules crate's terms.
#[derive(Debug)]
pub struct Pair {
    /// The validated encounter.
    pub encounter: Encounter,
    /// The attacker's index.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
}

/// The id of creature `i` of `enc` (empty for an index the rules never answer).
pub fn creature_id(enc: &Encounter, i: usize) -> String {
    enc.creatures.get(i).map(|c| c.id.clone()).unwrap_or_default()
}
