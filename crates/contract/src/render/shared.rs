//! What every effect family's renderer shares: the wire form's `type` tag and omitted-field
//! rule (the support of `wire!`), the schema members, and small value and text helpers.
//!
//! A leaf: it uses neither `mod.rs` nor any family, so the families use it without an import
//! circle through `mod.rs`, which dispatches to every family.

use super::glossary;
use crate::lang::Lang;
use crate::wire::{PointOut, SquareOut};
use arbiter_rules::grid::{Point, Square};
use serde::Serialize;

/// The family part of a tag: the family's name without `EffectOut`.
const fn family_part(family: &str) -> &[u8] {
    let b = family.as_bytes();
    let suffix = b"EffectOut".len();
    b.split_at(b.len() - suffix).0
}

const fn snake_len(b: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        if i > 0 && b[i].is_ascii_uppercase() {
            n += 1;
        }
        n += 1;
        i += 1;
    }
    n
}

const fn snake_into<const N: usize>(b: &[u8], out: &mut [u8; N], mut at: usize) -> usize {
    let mut i = 0;
    while i < b.len() {
        if i > 0 && b[i].is_ascii_uppercase() {
            out[at] = b'_';
            at += 1;
        }
        out[at] = b[i].to_ascii_lowercase();
        at += 1;
        i += 1;
    }
    at
}

/// The length of an effect tag (see `effect_tag!`).
pub(crate) const fn tag_len(family: &str, variant: &str) -> usize {
    snake_len(family_part(family)) + 1 + snake_len(variant.as_bytes())
}

/// The bytes of an effect tag (see `effect_tag!`), the rule serde's `snake_case` follows.
pub(crate) const fn tag_bytes<const N: usize>(family: &str, variant: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let at = snake_into(family_part(family), &mut out, 0);
    out[at] = b'.';
    snake_into(variant.as_bytes(), &mut out, at + 1);
    out
}

/// An effect's object with its `type` first.
#[derive(Serialize)]
pub(crate) struct Tagged<'a, T> {
    pub(super) r#type: &'static str,
    #[serde(flatten)]
    pub(super) inner: &'a T,
}

/// Whether a field of an effect is left out of its object: an absent `Option`, nothing else.
pub(crate) trait Absent {
    /// True for `None`.
    fn absent(&self) -> bool {
        false
    }
}

impl<T> Absent for Option<T> {
    fn absent(&self) -> bool {
        self.is_none()
    }
}

impl<T> Absent for Vec<T> {}

macro_rules! never_absent {
    ($($t:ty),* $(,)?) => {
        $(impl Absent for $t {})*
    };
}

never_absent!(bool, i32, i64, u32, u64, usize, f64, String, &'static str, PointOut, SquareOut);

/// One branch of the effects' `oneOf`: a struct's schema and the tags naming it.
pub struct Member {
    pub(super) tag: &'static str,
    pub(super) name: String,
    pub(super) schema: utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    pub(super) nested: Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
}

impl Member {
    /// The member `T`, named by `tag`.
    pub(super) fn of<T: utoipa::ToSchema>(tag: &'static str) -> Member {
        let mut nested = Vec::new();
        T::schemas(&mut nested);
        Member { tag, name: T::name().into_owned(), schema: T::schema(), nested }
    }
}

/// An effect family: its members, for the document.
pub trait EffectFamily {
    /// Appends one member per variant.
    fn members(out: &mut Vec<Member>);
}

pub(super) fn pt(p: Point) -> PointOut {
    PointOut::from(p)
}

pub(super) fn sq(s: Square) -> SquareOut {
    SquareOut::from(s)
}

pub(super) fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

pub(super) fn list(ids: &[String]) -> String {
    ids.join(", ")
}

/// A distance in the language (see [`glossary::distance`]).
pub(super) fn dist(feet: impl Into<i64>, lang: Lang) -> String {
    glossary::distance(feet.into(), lang)
}
