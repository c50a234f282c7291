//! Lists bounded while they are read: a list one item past its bound is refused as that item
//! arrives, before the rest of the body is read or anything of it is built, so that the
//! memory of a request is bounded by its bounds, not by its (decoded) size.
//!
//! Every list field of the wire types names its bound with `#[serde(deserialize_with =
//! "…")]`: a fixed one ([`at_most`]) or a setting of [`Limits`] ([`creatures`], [`walls`],
//! …). The settings are those of the request being parsed: its parser runs inside
//! [`within`], which sets them for the calling thread. Outside it (a unit test that parses a
//! wire type) the settings' lists are not bounded while read; the contract check still
//! refuses them after.
//!
//! The refusal is a serde error whose message [`crate::parse`] reads back as the contract's
//! problem for that list ("at most N items" at the list's pointer), so a list past its bound
//! is answered as the contract check answered it, only sooner. The OpenAPI `maxItems` are
//! stated by the schema attributes, with the same numbers.

use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, SeqAccess, Visitor};

use crate::limits::Limits;

/// The start of the message of a list past its bound; the bound follows.
pub const PAST_BOUND: &str = "a list past its bound of at most ";
/// The start of the message of a list of more than an exact count; the count follows.
pub const PAST_EXACT: &str = "a list past its exact count of ";

/// The bounds of lists that are settings.
#[derive(Debug, Clone, Copy)]
struct Settings {
    creatures: usize,
    walls: usize,
    side: usize,
    path_steps: usize,
}

thread_local! {
    static SETTINGS: Cell<Option<Settings>> = const { Cell::new(None) };
}

/// Runs `parse` with the lists' settings taken from `limits` (on this thread, for as long as
/// `parse` runs; the previous ones are put back after, even on a panic).
pub fn within<R>(limits: &Limits, parse: impl FnOnce() -> R) -> R {
    struct Restore(Option<Settings>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SETTINGS.with(|s| s.set(self.0));
        }
    }
    let settings = Settings {
        creatures: limits.max_creatures as usize,
        walls: limits.max_walls as usize,
        side: limits.max_grid_side as usize,
        path_steps: limits.max_path_steps as usize,
    };
    let _restore = Restore(SETTINGS.with(|s| s.replace(Some(settings))));
    parse()
}

/// A setting in force, or no bound outside [`within`].
fn setting(pick: fn(&Settings) -> usize) -> usize {
    SETTINGS.with(Cell::get).map_or(usize::MAX, |s| pick(&s))
}

/// Reads a list of at most `max` items.
fn read<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D, max: usize) -> Result<Vec<T>, D::Error> {
    d.deserialize_seq(Capped { max, exact: false, item: PhantomData })
}

/// Reads an optional list (`null` or absent: none) of at most `max` items.
fn read_opt<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    max: usize,
) -> Result<Option<Vec<T>>, D::Error> {
    d.deserialize_option(Optional { max, item: PhantomData })
}

/// The visitor of a bounded list.
struct Capped<T> {
    max: usize,
    /// The bound is an exact count (the message says so; fewer items are the caller's check).
    exact: bool,
    item: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Capped<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As `Vec`'s own visitor says it, so that a wrong type reads the same.
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // Never more room ahead than the bound, nor than a small list's worth.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.max).min(64));
        while items.len() < self.max {
            match seq.next_element()? {
                Some(item) => items.push(item),
                None => return Ok(items),
            }
        }
        // One more is skipped, not built: its arrival is the refusal.
        if seq.next_element::<IgnoredAny>()?.is_some() {
            let start = if self.exact { PAST_EXACT } else { PAST_BOUND };
            return Err(de::Error::custom(format_args!("{start}{}", self.max)));
        }
        Ok(items)
    }
}

/// The visitor of an optional bounded list.
struct Optional<T> {
    max: usize,
    item: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Optional<T> {
    type Value = Option<Vec<T>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        read(d, self.max).map(Some)
    }
}

/// A list of at most `N` items.
pub fn at_most<'de, const N: usize, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    read(d, N)
}

/// An optional list of at most `N` items.
pub fn opt_at_most<'de, const N: usize, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error> {
    read_opt(d, N)
}

/// A list of exactly `N` items: more are refused as they arrive (fewer are the caller's
/// check, which says the same).
pub fn exactly<'de, const N: usize, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    d.deserialize_seq(Capped { max: N, exact: true, item: PhantomData })
}

/// At most `ARBITER_MAX_CREATURES` items (creatures, tokens, creature ids).
pub fn creatures<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    read(d, setting(|s| s.creatures))
}

/// An optional list of at most `ARBITER_MAX_CREATURES` items.
pub fn opt_creatures<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error> {
    read_opt(d, setting(|s| s.creatures))
}

/// At most `ARBITER_MAX_WALLS` items (walls, lights).
pub fn walls<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    read(d, setting(|s| s.walls))
}

/// An optional list of at most `ARBITER_MAX_GRID_SIDE` rows.
pub fn opt_rows<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    read_opt(d, setting(|s| s.side))
}

/// At most one item per square of the largest grid (`ARBITER_MAX_GRID_SIDE` squared).
pub fn squares<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    read(d, setting(|s| s.side.saturating_mul(s.side)))
}

/// At most `ARBITER_MAX_PATH_STEPS` items.
pub fn path_steps<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    read(d, setting(|s| s.path_steps))
}

/// A list of at most `N` lists of at most `M` items each (polylines of points, groups of
/// ids).
pub fn nested<'de, const N: usize, const M: usize, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<Vec<T>>, D::Error> {
    let lists: Vec<Inner<M, T>> = read(d, N)?;
    Ok(lists.into_iter().map(|l| l.0).collect())
}

/// One list of at most `M` items, inside [`nested`].
struct Inner<const M: usize, T>(Vec<T>);

impl<'de, const M: usize, T: Deserialize<'de>> Deserialize<'de> for Inner<M, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read(d, M).map(Inner)
    }
}

/// At most `ARBITER_MAX_CREATURES` lists of at most `ARBITER_MAX_CREATURES` items each
/// (initiative groups of creature ids).
pub fn groups<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<Vec<T>>, D::Error> {
    let lists: Vec<Group<T>> = creatures(d)?;
    Ok(lists.into_iter().map(|l| l.0).collect())
}

/// One list of at most `ARBITER_MAX_CREATURES` items, inside [`groups`].
struct Group<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Group<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        creatures(d).map(Group)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Lists {
        #[serde(default, deserialize_with = "at_most::<3, _, _>")]
        three: Vec<u8>,
        #[serde(default, deserialize_with = "opt_at_most::<2, _, _>")]
        two: Option<Vec<u8>>,
        #[serde(default, deserialize_with = "creatures")]
        creatures: Vec<u8>,
        #[serde(default, deserialize_with = "nested::<2, 1, _, _>")]
        nested: Vec<Vec<u8>>,
    }

    fn parse(s: &str) -> Result<Lists, String> {
        serde_json::from_str(s).map_err(|e| e.to_string())
    }

    #[test]
    fn a_list_at_its_bound_is_read_and_one_more_is_refused() {
        assert_eq!(parse(r#"{"three":[1,2,3]}"#).unwrap().three, [1, 2, 3]);
        let e = parse(r#"{"three":[1,2,3,4]}"#).unwrap_err();
        assert!(e.starts_with(&format!("{PAST_BOUND}3")), "{e}");
        assert_eq!(parse(r#"{"two":null}"#).unwrap().two, None);
        assert_eq!(parse(r#"{"two":[7]}"#).unwrap().two, Some(vec![7]));
        assert!(parse(r#"{"two":[1,2,3]}"#).unwrap_err().starts_with(&format!("{PAST_BOUND}2")));
    }

    #[test]
    fn each_inner_list_is_bounded_too() {
        assert_eq!(parse(r#"{"nested":[[1],[]]}"#).unwrap().nested, [vec![1], vec![]]);
        assert!(parse(r#"{"nested":[[1],[2,3]]}"#).unwrap_err().starts_with(&format!("{PAST_BOUND}1")));
        assert!(parse(r#"{"nested":[[],[],[]]}"#).unwrap_err().starts_with(&format!("{PAST_BOUND}2")));
    }

    /// The refusal comes as the item past the bound arrives: what follows it is never read
    /// (here it is not even JSON).
    #[test]
    fn the_rest_of_the_body_is_not_read() {
        let e = parse(r#"{"three":[1,2,3,4, this is not JSON"#).unwrap_err();
        assert!(e.starts_with(&format!("{PAST_BOUND}3")), "{e}");
    }

    #[test]
    fn settings_bound_lists_only_within_their_scope() {
        let limits = Limits { max_creatures: 2, ..Limits::default() };
        assert_eq!(parse(r#"{"creatures":[1,2,3]}"#).unwrap().creatures.len(), 3);
        let e = within(&limits, || parse(r#"{"creatures":[1,2,3]}"#)).unwrap_err();
        assert!(e.starts_with(&format!("{PAST_BOUND}2")), "{e}");
        assert_eq!(parse(r#"{"creatures":[1,2,3]}"#).unwrap().creatures.len(), 3, "the scope ended");
    }
}
