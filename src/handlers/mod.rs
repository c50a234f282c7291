//! One file per endpoint. Handlers extract, map, call the rules, map back.

pub mod analyze;
pub mod attack;
pub mod catalog;
pub mod concealment;
pub mod cover;
pub mod flanking;
pub mod health;
pub mod initiative;
pub mod maneuver;
pub mod movement;
pub mod range;

use std::cell::Cell;

use arbiter_rules::encounter::Encounter;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::AppState;
use crate::api::encounter::EncounterIn;
use crate::api::mapping::{self, Problems};
use crate::error::AppError;

/// Maps a question's encounter: the problems found so far (the question's own fields add
/// theirs after) and the encounter when it is valid.
pub fn encounter(state: &AppState, e: &EncounterIn) -> (Problems, Option<Encounter>) {
    match mapping::encounter(e, &state.config.limits, "/encounter") {
        Ok(enc) => (Problems::default(), Some(enc)),
        Err(p) => (p, None),
    }
}

/// The attacker and target a question names; any problem gathered so far, or an unknown id,
/// makes the whole question a 422 listing them all.
pub fn pair(
    enc: Option<Encounter>,
    mut p: Problems,
    attacker: &str,
    target: &str,
) -> Result<(Encounter, usize, usize), AppError> {
    let a = creature_index(enc.as_ref(), &mut p, "/attacker", attacker);
    let t = creature_index(enc.as_ref(), &mut p, "/target", target);
    match (enc, a, t, p.is_empty()) {
        (Some(enc), Some(a), Some(t), true) => Ok((enc, a, t)),
        _ => Err(AppError::Invalid(p.0)),
    }
}

/// Looks up the creatures a question names, recording a problem for each unknown id.
pub fn creature_index(enc: Option<&Encounter>, p: &mut Problems, pointer: &str, id: &str) -> Option<usize> {
    let enc = enc?;
    match enc.find(id) {
        Some(i) => Some(i),
        None => {
            let known: Vec<&str> = enc.creatures.iter().take(20).map(|c| c.id.as_str()).collect();
            p.push(pointer, format!("no creature has id {id:?}; known: {}", known.join(", ")));
            None
        }
    }
}

thread_local! {
    /// The size of this thread's last JSON answer, rounded up: the next buffer starts there.
    static ANSWER_SIZE: Cell<usize> = const { Cell::new(1024) };
}

/// A JSON answer, serialised into one buffer sized from the last answer and handed to the
/// body without a copy. (`axum::Json` starts at 128 bytes and grows: a few reallocations
/// and copies for a 3 KB answer.)
pub fn json<T: Serialize>(value: &T) -> Response {
    let mut buf = Vec::with_capacity(ANSWER_SIZE.get());
    match serde_json::to_writer(&mut buf, value) {
        Ok(()) => {
            ANSWER_SIZE.set(buf.len().next_power_of_two().clamp(256, 64 * 1024));
            let mut res = Response::new(axum::body::Body::from(buf));
            res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            res
        }
        Err(e) => AppError::Internal(format!("the answer could not be serialised: {e}")).into_response(),
    }
}
