//! A spatial index of thin walls, built once per encounter.
//!
//! Each wall is filed under every bucket (a `k × k` block of squares, `k` a power of two) that
//! its closed segment meets, using the same exact half-open walk as the lines. A line then tests
//! only the walls filed under the buckets it walks through, so its cost follows the squares it
//! crosses, not the number of walls on the map. `k` grows with the area the walls span relative
//! to their number, which bounds the index's memory on huge, sparse maps.

use super::geom::{OutOfRange, Xy, on_segment};
use super::walk::{Cursor, LatticeCursor, Walk};
use crate::budget::{Budget, BudgetExceeded};
use crate::grid::{FRAC_BITS, Point};

use super::segment::LineError;

/// A thin wall: a straight segment between any two points (RULES.md §0.4, PRODUCT.md), with
/// the caller's id, which [`WallBlockers`](super::WallBlockers) and the reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wall {
    /// The caller's identifier (typically the wall's position in the encounter's list).
    pub id: u32,
    /// One end point.
    pub from: Point,
    /// The other end point.
    pub to: Point,
}

/// Walls bucketed by position (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct WallIndex {
    walls: Vec<Wall>,
    /// The same end points in raw units, checked.
    ends: Vec<(Xy, Xy)>,
    /// log2 of the bucket side in squares.
    log_k: u32,
    /// Bucket coordinates of the first bucket, and the number of buckets per row and column.
    bx0: i64,
    by0: i64,
    nbx: i64,
    nby: i64,
    /// Compressed rows: the walls of bucket `b` are `items[starts[b]..starts[b+1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    /// The buckets some wall is filed under, in order.
    walled: Vec<u32>,
}

/// Calls `f` with every bucket (of `2^log_k` squares a side) the closed segment `a b` meets,
/// in walk order. A segment between square corners (most walls) walks its squares with the
/// 64-bit cursor, each bucket being the run of squares it holds (a bucket is convex, so the
/// squares a segment meets in it are consecutive); any other walks the buckets exactly.
fn for_each_bucket<E>(
    a: Xy,
    b: Xy,
    log_k: u32,
    mut f: impl FnMut(i64, i64) -> Result<(), E>,
) -> Result<(), E> {
    let Some(mut cursor) = LatticeCursor::new(a, b) else {
        for (bx, by) in Walk::new(a, b, FRAC_BITS + log_k) {
            f(bx, by)?;
        }
        return Ok(());
    };
    let mut last = None;
    loop {
        let (cx, cy) = cursor.cell();
        let here = (cx >> log_k, cy >> log_k);
        if last != Some(here) {
            last = Some(here);
            f(here.0, here.1)?;
        }
        if !cursor.step() {
            return Ok(());
        }
    }
}

impl WallIndex {
    /// An index with no wall.
    pub fn empty() -> Self {
        WallIndex::default()
    }

    /// Builds the index. Costs one budget step per (wall, bucket) pair filed. Fails if a wall
    /// end point lies outside `[0, 1024]` squares, or when the budget runs out.
    pub fn new(walls: impl IntoIterator<Item = Wall>, budget: &mut Budget) -> Result<Self, LineError> {
        let walls: Vec<Wall> = walls.into_iter().collect();
        let mut ends = Vec::with_capacity(walls.len());
        for w in &walls {
            ends.push((Xy::checked(w.from)?, Xy::checked(w.to)?));
        }
        if walls.is_empty() {
            return Ok(WallIndex::empty());
        }
        // Bounding box of the walls, in squares.
        let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for &(a, b) in &ends {
            for v in [a, b] {
                let (cx, cy) = ((v.x >> FRAC_BITS) as i64, (v.y >> FRAC_BITS) as i64);
                x0 = x0.min(cx);
                y0 = y0.min(cy);
                x1 = x1.max(cx);
                y1 = y1.max(cy);
            }
        }
        // Grow the bucket side until the bucket count is at most 16 per wall (or 1,024).
        let target = (walls.len() as i64).saturating_mul(16).max(1024);
        let mut log_k = 0u32;
        let count = |log_k: u32| ((x1 >> log_k) - (x0 >> log_k) + 1) * ((y1 >> log_k) - (y0 >> log_k) + 1);
        while log_k < 10 && count(log_k) > target {
            log_k += 1;
        }
        let (bx0, by0) = (x0 >> log_k, y0 >> log_k);
        let (nbx, nby) = ((x1 >> log_k) - bx0 + 1, (y1 >> log_k) - by0 + 1);
        let buckets = (nbx * nby) as usize;

        // File (bucket, wall) pairs, then sort them into compressed rows by counting.
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (i, &(a, b)) in ends.iter().enumerate() {
            for_each_bucket::<BudgetExceeded>(a, b, log_k, |bx, by| {
                budget.spend(1)?;
                let slot = (by - by0) * nbx + (bx - bx0);
                pairs.push((slot as u32, i as u32));
                Ok(())
            })?;
        }
        let mut starts = vec![0u32; buckets + 1];
        for &(slot, _) in &pairs {
            if let Some(s) = starts.get_mut(slot as usize + 1) {
                *s += 1;
            }
        }
        let mut total = 0;
        for s in &mut starts {
            total += *s;
            *s = total;
        }
        let mut fill = starts.clone();
        let mut items = vec![0u32; pairs.len()];
        for &(slot, wall) in &pairs {
            if let Some(pos) = fill.get_mut(slot as usize) {
                if let Some(item) = items.get_mut(*pos as usize) {
                    *item = wall;
                }
                *pos += 1;
            }
        }
        let mut walled: Vec<u32> = pairs.iter().map(|&(slot, _)| slot).collect();
        walled.sort_unstable();
        walled.dedup();
        Ok(WallIndex { walls, ends, log_k, bx0, by0, nbx, nby, starts, items, walled })
    }

    /// The walls, in the order given.
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// Number of walls.
    pub fn len(&self) -> usize {
        self.walls.len()
    }

    /// Whether the index holds no wall.
    pub fn is_empty(&self) -> bool {
        self.walls.is_empty()
    }

    /// Every wall whose closed segment contains `p` (for example to find walls ending at a
    /// corner, or an area origin lying on a wall). Empty for points out of range.
    pub fn walls_at(&self, p: Point) -> impl Iterator<Item = &Wall> + '_ {
        let v = Xy::checked(p).ok();
        let bucket =
            v.and_then(|v| self.bucket_of_cell((v.x >> FRAC_BITS) as i64, (v.y >> FRAC_BITS) as i64));
        self.bucket(bucket).iter().filter_map(move |&i| {
            let (a, b) = self.ends_of(i)?;
            if on_segment(a, b, v?) { self.walls.get(i as usize) } else { None }
        })
    }

    /// log2 of the bucket side in squares.
    #[inline]
    pub(crate) fn log_k(&self) -> u32 {
        self.log_k
    }

    /// The bucket holding a square (cell), if the index has one there.
    #[inline]
    pub(crate) fn bucket_of_cell(&self, cx: i64, cy: i64) -> Option<usize> {
        let (bx, by) = ((cx >> self.log_k) - self.bx0, (cy >> self.log_k) - self.by0);
        if (0..self.nbx).contains(&bx) && (0..self.nby).contains(&by) {
            Some((by * self.nbx + bx) as usize)
        } else {
            None
        }
    }

    /// The bucket at bucket coordinates `(bx, by)` (cell coordinates shifted right by
    /// [`WallIndex::log_k`]), if the index has one there and some wall is filed under it: the
    /// walk's test on entering a bucket, where most buckets are empty.
    #[inline]
    pub(crate) fn walled_bucket(&self, bx: i64, by: i64) -> Option<usize> {
        let (x, y) = (bx - self.bx0, by - self.by0);
        if !(0..self.nbx).contains(&x) || !(0..self.nby).contains(&y) {
            return None;
        }
        let b = (y * self.nbx + x) as usize;
        match (self.starts.get(b), self.starts.get(b + 1)) {
            (Some(start), Some(end)) if start != end => Some(b),
            _ => None,
        }
    }

    /// The squares of every bucket some wall is filed under, as `[x0, y0, x1, y1]`
    /// (inclusive; buckets do not overlap).
    pub(crate) fn walled_areas(&self) -> impl Iterator<Item = [i64; 4]> + '_ {
        let (k, nbx) = (1i64 << self.log_k, self.nbx.max(1));
        self.walled.iter().map(move |&b| {
            let b = i64::from(b);
            let (bx, by) = (self.bx0 + b % nbx, self.by0 + b / nbx);
            [bx * k, by * k, bx * k + k - 1, by * k + k - 1]
        })
    }

    /// Whether a point lies in a bucket (half-open).
    pub(crate) fn point_in_bucket(&self, v: Xy, bucket: usize) -> bool {
        self.bucket_of_cell((v.x >> FRAC_BITS) as i64, (v.y >> FRAC_BITS) as i64) == Some(bucket)
    }

    /// The walls (internal positions) filed under a bucket.
    pub(crate) fn bucket(&self, bucket: Option<usize>) -> &[u32] {
        let Some(b) = bucket else { return &[] };
        let (Some(&s), Some(&e)) = (self.starts.get(b), self.starts.get(b + 1)) else { return &[] };
        self.items.get(s as usize..e as usize).unwrap_or(&[])
    }

    /// The checked end points of the wall at internal position `i`.
    #[inline]
    pub(crate) fn ends_of(&self, i: u32) -> Option<(Xy, Xy)> {
        self.ends.get(i as usize).copied()
    }

    /// The caller's id of the wall at internal position `i`.
    #[inline]
    pub(crate) fn id_of(&self, i: u32) -> u32 {
        self.walls.get(i as usize).map_or(u32::MAX, |w| w.id)
    }
}

impl From<OutOfRange> for LineError {
    fn from(_: OutOfRange) -> Self {
        LineError::OutOfRange
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square-by-square path files a wall between square corners under exactly the
    /// buckets the exact bucket walk meets, in the same order, for every such segment of a
    /// small grid and several bucket sides.
    #[test]
    fn corner_walls_meet_the_buckets_of_the_exact_walk() {
        let mut checked = 0;
        for log_k in 0..4 {
            for (ax, ay, bx, by) in (0..7).flat_map(|a| {
                (0..7).flat_map(move |b| (0..7).flat_map(move |c| (0..7).map(move |d| (a, b, c, d))))
            }) {
                let (a, b) = (Xy::lattice(ax, ay), Xy::lattice(bx, by));
                let exact: Vec<(i64, i64)> = Walk::new(a, b, FRAC_BITS + log_k).collect();
                let mut fast = Vec::new();
                let _ = for_each_bucket::<()>(a, b, log_k, |x, y| {
                    fast.push((x, y));
                    Ok(())
                });
                assert_eq!(fast, exact, "⟨{ax}, {ay}⟩ → ⟨{bx}, {by}⟩, buckets of {} squares", 1 << log_k);
                checked += 1;
            }
        }
        assert_eq!(checked, 4 * 7 * 7 * 7 * 7);
    }
}
