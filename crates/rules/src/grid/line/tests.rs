//! The worked examples G1–G10 of RULES.md `grid.line.blocked`, literally, plus report details.

use super::*;
use crate::budget::Budget;
use crate::grid::{Coord, ONE, Point, Square};

fn lat(x: i32, y: i32) -> Point {
    Point::lattice(x, y)
}

/// A point in half squares.
fn half(x2: i32, y2: i32) -> Point {
    Point { x: Coord(i128::from(x2) * ONE / 2), y: Coord(i128::from(y2) * ONE / 2) }
}

/// A small scene: squares of B with their grazing flag, walls (all in B) with one flag.
struct Scene {
    grid: BlockerGrid,
    walls: WallIndex,
    wall_grazing: Grazing,
}

impl Scene {
    fn new(
        squares: &[(i32, i32)],
        grazing: Grazing,
        walls: &[(Point, Point)],
        wall_grazing: Grazing,
    ) -> Scene {
        let mut grid = BlockerGrid::new(20, 20).unwrap();
        for &(x, y) in squares {
            grid.set(Square::new(x, y), Some(grazing));
        }
        let walls = walls.iter().enumerate().map(|(i, &(from, to))| Wall { id: i as u32, from, to });
        let walls = WallIndex::new(walls, &mut Budget::unlimited()).unwrap();
        Scene { grid, walls, wall_grazing }
    }

    fn squares(squares: &[(i32, i32)], grazing: Grazing) -> Scene {
        Scene::new(squares, grazing, &[], Grazing::Off)
    }

    fn walls(walls: &[(Point, Point)], grazing: Grazing) -> Scene {
        Scene::new(&[], Grazing::Off, walls, grazing)
    }

    fn trace(&self, seg: Segment) -> LineReport {
        let b = Blockers::new(&self.grid, &self.walls, AllWalls(self.wall_grazing));
        let report = b.trace(&seg, &mut Budget::unlimited()).unwrap();
        let fast = b.is_blocked(&seg, &mut Budget::unlimited()).unwrap();
        assert_eq!(fast, report.is_blocked(), "fast path and report disagree on {seg:?}: {report:?}");
        report
    }

    fn blocked(&self, seg: Segment) -> bool {
        self.trace(seg).is_blocked()
    }

    /// Whether every corner-to-corner line between two squares is blocked (each corner taken
    /// from its own square, for rule 6): total cover / no line of effect.
    fn all_lines_blocked(&self, a: Square, t: Square) -> bool {
        a.corners().iter().all(|&c| {
            t.corners().iter().all(|&k| {
                self.blocked(Segment::between(Endpoint::of_square(c, a), Endpoint::of_square(k, t)))
            })
        })
    }
}

fn seg(a: Point, b: Point) -> Segment {
    Segment::new(a, b)
}

#[test]
fn g1_interior() {
    for g in [Grazing::Off, Grazing::On] {
        let s = Scene::squares(&[(3, 2)], g);
        let r = s.trace(seg(lat(1, 2), lat(6, 3)));
        assert_eq!(r.hits, vec![Hit::Square { square: Square::new(3, 2), case: SquareCase::Interior }]);
        assert_eq!(r.hits[0].rule(), 1);
    }
}

#[test]
fn g2_graze_per_flag() {
    let line = seg(lat(1, 2), lat(6, 2));
    // sf1e terrain: blocked; pf1e / dnd5e: not.
    let sf = Scene::squares(&[(3, 2)], Grazing::On).trace(line);
    assert_eq!(sf.hits, vec![Hit::Square { square: Square::new(3, 2), case: SquareCase::Graze }]);
    assert!(!Scene::squares(&[(3, 2)], Grazing::Off).blocked(line));
}

#[test]
fn g3_corner_touch_is_clear() {
    for g in [Grazing::Off, Grazing::On] {
        assert!(!Scene::squares(&[(1, 0)], g).blocked(seg(lat(0, 0), lat(2, 2))));
    }
}

#[test]
fn g4_pinch() {
    let r = Scene::squares(&[(1, 0), (0, 1)], Grazing::Off).trace(seg(lat(0, 0), lat(2, 2)));
    let [Hit::Pinch(p)] = r.hits.as_slice() else { panic!("expected one pinch: {r:?}") };
    assert_eq!(p.at.point, Some(lat(1, 1)));
    assert_eq!(p.left, vec![Element::Square(Square::new(1, 0))]);
    assert_eq!(p.right, vec![Element::Square(Square::new(0, 1))]);
    assert!(!p.moved_end);
    assert_eq!(r.hits[0].rule(), 4);
}

#[test]
fn g5_seam_between_creatures() {
    // Creature squares never block by grazing, but running between two of them does.
    let s = Scene::squares(&[(3, 1), (3, 2)], Grazing::Off);
    let r = s.trace(seg(lat(0, 2), lat(5, 2)));
    assert_eq!(r.hits.first(), Some(&Hit::Seam { squares: [Square::new(3, 1), Square::new(3, 2)] }));
    // The seam's two ends ⟨3,2⟩ and ⟨4,2⟩ are pinch points as well (one creature per side).
    let rules: Vec<u8> = r.hits.iter().map(Hit::rule).collect();
    assert_eq!(rules, vec![3, 4, 4]);
    // One creature alone: grazing never counts.
    assert!(!Scene::squares(&[(3, 1)], Grazing::Off).blocked(seg(lat(0, 2), lat(5, 2))));
}

#[test]
fn g6_thin_wall_cross_touch_overlap() {
    let wall = [(lat(3, 2), lat(3, 3))];
    for g in [Grazing::Off, Grazing::On] {
        let s = Scene::walls(&wall, g);
        // Crosses at ⟨3, 2.4⟩.
        let r = s.trace(seg(lat(1, 2), lat(6, 3)));
        let [Hit::Wall { id: 0, case: WallCase::Cross, meet: WallMeet::At(m) }] = r.hits.as_slice() else {
            panic!("expected a crossing: {r:?}")
        };
        assert_eq!(m.along, Ratio::new(2, 5));
        assert_eq!(m.squares, SquareSpan { min: Square::new(2, 2), max: Square::new(3, 2) });
        assert!((m.approx.0 - 3.0).abs() < 1e-12 && (m.approx.1 - 2.4).abs() < 1e-12);
        // Only touches its end point ⟨3,2⟩.
        assert!(!s.blocked(seg(lat(1, 2), lat(6, 2))));
    }
    // Runs along it: sf1e blocked, pf1e / dnd5e not (rule 5).
    let along = seg(lat(3, 1), lat(3, 4));
    let r = Scene::walls(&wall, Grazing::On).trace(along);
    let [Hit::Wall { case: WallCase::Overlap, meet: WallMeet::Along(a, b), .. }] = r.hits.as_slice() else {
        panic!("expected an overlap: {r:?}")
    };
    assert_eq!((a.point, b.point), (Some(lat(3, 2)), Some(lat(3, 3))));
    assert!(!Scene::walls(&wall, Grazing::Off).blocked(along));
}

#[test]
fn g7_end_point_on_a_wall() {
    let wall = [(lat(3, 0), lat(3, 5))];
    let s = Scene::walls(&wall, Grazing::Off);
    let (a, t) = (Square::new(2, 2), Square::new(5, 2));
    // From A's corner ⟨3,2⟩ to ⟨5,3⟩: the start counts as inside (2,2), west of the wall.
    let line = Segment::between(Endpoint::of_square(lat(3, 2), a), Endpoint::of_square(lat(5, 3), t));
    let r = s.trace(line);
    let [Hit::Wall { id: 0, case: WallCase::EndpointOnWall, meet: WallMeet::At(m) }] = r.hits.as_slice()
    else {
        panic!("expected rule 6: {r:?}")
    };
    assert_eq!(m.point, Some(lat(3, 2)));
    assert_eq!(r.hits[0].rule(), 6);
    // Without the square it was taken from, the same segment only touches the wall.
    assert!(!s.blocked(seg(lat(3, 2), lat(5, 3))));
    // Total cover in every configuration of the text, and the control.
    assert!(s.all_lines_blocked(a, t));
    assert!(s.all_lines_blocked(Square::new(2, 2), Square::new(3, 2)));
    assert!(s.all_lines_blocked(Square::new(3, 2), Square::new(2, 2)));
    assert!(s.all_lines_blocked(Square::new(0, 2), Square::new(3, 2)));
    assert!(s.all_lines_blocked(Square::new(1, 2), Square::new(4, 2)));
    // Two creatures on the same side of the wall still see each other.
    assert!(!s.all_lines_blocked(Square::new(2, 2), Square::new(2, 4)));
    // The zero-length segment through the shared corner: blocked only by rule 6.
    let shared = Segment::between(
        Endpoint::of_square(lat(3, 2), a),
        Endpoint::of_square(lat(3, 2), Square::new(3, 2)),
    );
    assert!(s.blocked(shared));
    assert!(!s.blocked(seg(lat(3, 2), lat(3, 2))));
    // An open door moves nothing: with the wall out of B, clear.
    let b = Blockers::new(&s.grid, &s.walls, NoWalls);
    assert!(!b.is_blocked(&line, &mut Budget::unlimited()).unwrap());
}

#[test]
fn g8_polyline_joint() {
    let pieces = [(half(5, 0), half(5, 5)), (half(5, 5), half(5, 10))];
    let s = Scene::walls(&pieces, Grazing::Off);
    let r = s.trace(seg(lat(0, 2), lat(5, 3)));
    let [Hit::Pinch(p)] = r.hits.as_slice() else { panic!("expected a pinch at the joint: {r:?}") };
    assert_eq!(p.at.point, Some(half(5, 5)));
    assert_eq!(p.left, vec![Element::Wall(0)]);
    assert_eq!(p.right, vec![Element::Wall(1)]);
    // Total cover, as drawn in one piece.
    let (a, t) = (Square::new(0, 2), Square::new(5, 2));
    assert!(s.all_lines_blocked(a, t));
    let whole = Scene::walls(&[(half(5, 0), half(5, 10))], Grazing::Off);
    assert!(whole.all_lines_blocked(a, t));
    assert!(whole.blocked(seg(lat(0, 2), lat(5, 3))));
}

#[test]
fn m7_sliding_along_a_wall_square_is_clear() {
    // pf1e.cover.big-creatures: from ⟨1,2⟩ the line to ⟨1,0⟩ only slides along wall (1,0).
    let s = Scene::squares(&[(1, 0)], Grazing::Off);
    assert!(!s.blocked(seg(lat(1, 2), lat(1, 0))));
    // pf1e.cover.melee-adjacent M4: the diagonal of wall square (3,2).
    assert!(Scene::squares(&[(3, 2)], Grazing::Off).blocked(seg(lat(3, 2), lat(4, 3))));
}

#[test]
fn staggered_squares_pinch_a_line_on_a_grid_line() {
    // Squares touching diagonally at ⟨3,2⟩, the line running along y = 2 between them.
    let s = Scene::squares(&[(2, 1), (3, 2)], Grazing::Off);
    let r = s.trace(seg(lat(0, 2), lat(6, 2)));
    assert!(matches!(r.hits.as_slice(), [Hit::Pinch(_)]), "{r:?}");
    // A wall ending on a square's edge (mid-edge T-junction) pinches the line running along
    // that edge just as a wall ending at the square's corner does.
    let t = Scene::new(&[(3, 2)], Grazing::Off, &[(half(7, 0), half(7, 4))], Grazing::Off);
    assert!(t.blocked(seg(lat(0, 2), lat(6, 2))));
    let corner = Scene::new(&[(3, 2)], Grazing::Off, &[(lat(3, 0), lat(3, 2))], Grazing::Off);
    assert!(corner.blocked(seg(lat(0, 2), lat(6, 2))));
}

#[test]
fn every_blocker_is_reported() {
    let s = Scene::new(
        &[(2, 2), (6, 2)],
        Grazing::Off,
        &[(lat(4, 0), lat(4, 9)), (lat(5, 0), lat(5, 9))],
        Grazing::Off,
    );
    let r = s.trace(seg(half(1, 5), half(17, 5)));
    let rules: Vec<u8> = r.hits.iter().map(Hit::rule).collect();
    assert_eq!(rules.len(), 4, "{r:?}");
    assert_eq!(rules.iter().filter(|&&x| x == 1).count(), 2);
    assert_eq!(rules.iter().filter(|&&x| x == 5).count(), 2);
    // Filtering: without the squares the walls still block; without anything, clear.
    assert!(r.blocked_keeping(|_, e| matches!(e, Element::Wall(_))));
    assert!(!r.blocked_keeping(|_, _| false));
}

#[test]
fn long_wall_is_reported_once() {
    let s = Scene::walls(&[(half(1, 1), half(39, 37))], Grazing::On);
    let r = s.trace(seg(half(1, 1), half(39, 37)));
    assert_eq!(r.hits.len(), 1, "{r:?}");
}

#[test]
fn budget_and_range_errors() {
    let s = Scene::squares(&[], Grazing::Off);
    let b = Blockers::new(&s.grid, &s.walls, AllWalls(Grazing::Off));
    let line = seg(lat(0, 0), lat(19, 7));
    assert!(matches!(b.is_blocked(&line, &mut Budget::new(3)), Err(LineError::Budget(_))));
    let far = Point { x: Coord(-ONE), y: Coord(0) };
    assert_eq!(b.is_blocked(&seg(far, lat(1, 1)), &mut Budget::unlimited()), Err(LineError::OutOfRange));
    // An end point outside the square it was taken from is refused, not guessed.
    let bad = Segment::between(Endpoint::of_square(lat(5, 5), Square::new(0, 0)), Endpoint::point(lat(1, 1)));
    assert_eq!(b.is_blocked(&bad, &mut Budget::unlimited()), Err(LineError::OutOfRange));
    let wall = Wall { id: 0, from: far, to: lat(1, 1) };
    assert!(WallIndex::new([wall], &mut Budget::unlimited()).is_err());
}

#[test]
fn walls_at_finds_walls_through_a_point() {
    let walls = [
        Wall { id: 7, from: lat(3, 0), to: lat(3, 5) },
        Wall { id: 8, from: lat(0, 2), to: lat(3, 2) },
        Wall { id: 9, from: lat(4, 0), to: lat(4, 5) },
    ];
    let index = WallIndex::new(walls, &mut Budget::unlimited()).unwrap();
    let mut ids: Vec<u32> = index.walls_at(lat(3, 2)).map(|w| w.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, vec![7, 8]);
}

#[test]
fn moved_segment_along_a_split_wall_line() {
    // Both ends on the wall line x = 3, each moved to its own side: the moved segment crosses
    // the line halfway, at ⟨3, 2.5⟩. Cut there, or cut so that the crossing falls on a piece
    // through neither end point, the wall blocks as in one piece.
    let (a, t) = (Square::new(2, 2), Square::new(3, 2));
    let line = Segment::between(Endpoint::of_square(lat(3, 2), a), Endpoint::of_square(lat(3, 3), t));
    let whole = Scene::walls(&[(lat(3, 0), lat(3, 5))], Grazing::Off);
    assert!(whole.blocked(line));
    let at_joint = Scene::walls(&[(lat(3, 0), half(6, 5)), (half(6, 5), lat(3, 5))], Grazing::Off);
    let r = at_joint.trace(line);
    assert!(
        matches!(r.hits.as_slice(), [Hit::Pinch(p)] if p.moved_end && p.at.point == Some(half(6, 5))),
        "{r:?}"
    );
    assert!(at_joint.all_lines_blocked(a, t));
    // A (2,1) and T (3,3): ⟨3,1⟩ and ⟨3,4⟩ lie on two pieces, the crossing ⟨3,2.5⟩ on a third.
    let pieces = [(lat(3, 0), lat(3, 2)), (lat(3, 2), half(6, 7)), (half(6, 7), lat(3, 5))];
    let three = Scene::walls(&pieces, Grazing::Off);
    let long = Segment::between(
        Endpoint::of_square(lat(3, 1), Square::new(2, 1)),
        Endpoint::of_square(lat(3, 4), Square::new(3, 3)),
    );
    let r = three.trace(long);
    assert!(
        r.hits.iter().any(|h| matches!(h, Hit::Wall { id: 1, case: WallCase::EndpointOnWall, meet: WallMeet::At(m) } if m.along == Ratio::new(1, 2))),
        "{r:?}"
    );
    assert!(whole.blocked(long));
    // Both ends on the same side: the moved segment stays west of the wall.
    let west = Segment::between(
        Endpoint::of_square(lat(3, 1), Square::new(2, 1)),
        Endpoint::of_square(lat(3, 4), Square::new(2, 3)),
    );
    assert!(!three.blocked(west));
    assert!(!whole.blocked(west));
}

#[test]
fn rule_6_keeps_a_grazing_run_along_the_wall() {
    // sf1e: A (2,2) and T (2,3) both west of the wall, the line from ⟨3,2⟩ to ⟨3,4⟩ runs along
    // it; the moved segment does not cross it, but running along a grazing wall still blocks
    // (rule 6 only adds blocking).
    let s = Scene::walls(&[(lat(3, 0), lat(3, 5))], Grazing::On);
    let line = Segment::between(
        Endpoint::of_square(lat(3, 2), Square::new(2, 2)),
        Endpoint::of_square(lat(3, 4), Square::new(2, 3)),
    );
    let r = s.trace(line);
    assert!(matches!(r.hits.as_slice(), [Hit::Wall { case: WallCase::Overlap, .. }]), "{r:?}");
    assert!(!Scene::walls(&[(lat(3, 0), lat(3, 5))], Grazing::Off).blocked(line));
}

#[test]
fn diagonal_walls_and_fractional_points() {
    // A diagonal wall from ⟨1,3⟩ to ⟨3,1⟩ and lines across and beside it.
    let s = Scene::walls(&[(lat(1, 3), lat(3, 1))], Grazing::Off);
    assert!(s.blocked(seg(lat(1, 1), lat(3, 3))));
    assert!(!s.blocked(seg(lat(3, 1), lat(5, 1))));
    // Through its end point ⟨3,1⟩ only: a touch.
    assert!(!s.blocked(seg(lat(2, 0), lat(4, 2))));
    // Crossing at ⟨2.25, 1.75⟩: the meeting point lies in square (2,1) only.
    let r = s.trace(seg(half(3, 2), half(6, 5)));
    let [Hit::Wall { meet: WallMeet::At(m), .. }] = r.hits.as_slice() else { panic!("{r:?}") };
    assert_eq!(m.squares, SquareSpan { min: Square::new(2, 1), max: Square::new(2, 1) });
}

/// G9: walls of a room, `[north, west below the door, door]`.
fn g9_room() -> [(Point, Point); 3] {
    [(lat(8, 7), lat(10, 7)), (lat(8, 8), lat(8, 11)), (lat(8, 7), lat(8, 8))]
}

#[test]
fn g9_along_a_wall_into_a_closed_door() {
    for g in [Grazing::Off, Grazing::On] {
        let s = Scene::walls(&g9_room(), g);
        let (a, t) = (Square::new(7, 7), Square::new(8, 7));
        // ⟨7,7⟩ → ⟨9,7⟩ runs along the north wall from x = 8 to 9; displaced south (both
        // squares lie south of y = 7) it crosses the door.
        let line = Segment::between(Endpoint::of_square(lat(7, 7), a), Endpoint::of_square(lat(9, 7), t));
        let r = s.trace(line);
        let along = r.hits.iter().find_map(|h| match h {
            Hit::AlongWall { wall, along, at } => Some((*wall, along.clone(), at.point)),
            _ => None,
        });
        assert_eq!(along, Some((2, vec![0], Some(lat(8, 7)))), "{r:?}");
        if g == Grazing::Off {
            assert_eq!(r.hits.len(), 1, "{r:?}");
            assert_eq!(r.hits[0].rule(), 7);
        }
        // Every other line from every corner too: total cover.
        assert!(s.all_lines_blocked(a, t));
        assert!(s.all_lines_blocked(t, a));
        // An area origin is a point: the target's square alone gives the side.
        assert!(s.blocked(Segment::between(Endpoint::point(lat(7, 7)), Endpoint::of_square(lat(9, 7), t))));
    }
    // Control: the door open (out of B), the displaced line crosses nothing.
    let s = Scene::walls(&g9_room(), Grazing::Off);
    let open_door = |id: u32| (id != 2).then_some(Grazing::Off);
    let b = Blockers::new(&s.grid, &s.walls, open_door);
    let line = Segment::between(
        Endpoint::of_square(lat(7, 7), Square::new(7, 7)),
        Endpoint::of_square(lat(9, 7), Square::new(8, 7)),
    );
    assert!(!b.is_blocked(&line, &mut Budget::unlimited()).unwrap());
    // The door alone, without the north wall it meets, is only touched at its end point.
    let b = Blockers::new(&s.grid, &s.walls, |id: u32| (id == 2).then_some(Grazing::Off));
    assert!(!b.is_blocked(&line, &mut Budget::unlimited()).unwrap());
    // Rule 7 needs both end squares on one side: from (7,6), north of the wall line, it does
    // not apply (rule 6 decides).
    let across = Segment::between(
        Endpoint::of_square(lat(7, 7), Square::new(7, 6)),
        Endpoint::of_square(lat(9, 7), Square::new(8, 7)),
    );
    assert!(s.trace(across).hits.iter().all(|h| h.rule() != 7));
}

#[test]
fn g10_t_junction() {
    let wall = (lat(0, 5), lat(10, 5));
    let partition = (lat(4, 5), lat(4, 9));
    let s = Scene::walls(&[wall, partition], Grazing::Off);
    let (a, t) = (Square::new(1, 5), Square::new(7, 5));
    let line = Segment::between(Endpoint::of_square(lat(1, 5), a), Endpoint::of_square(lat(7, 5), t));
    let r = s.trace(line);
    let [Hit::AlongWall { wall: 1, along, at }] = r.hits.as_slice() else { panic!("expected rule 7: {r:?}") };
    assert_eq!(along, &vec![0]);
    assert_eq!(at.point, Some(lat(4, 5)));
    // No line of effect: every line from every corner is blocked.
    assert!(s.all_lines_blocked(a, t));
    // The same wall drawn as unit edges: both edges meeting the partition are named.
    let mut edges: Vec<(Point, Point)> = (0..10).map(|x| (lat(x, 5), lat(x + 1, 5))).collect();
    edges.push(partition);
    let cut = Scene::walls(&edges, Grazing::Off);
    let r = cut.trace(line);
    let [Hit::AlongWall { wall: 10, along, .. }] = r.hits.as_slice() else {
        panic!("expected rule 7: {r:?}")
    };
    assert_eq!(along, &vec![3, 4]);
    assert!(cut.all_lines_blocked(a, t));
    // Controls: in the row above the wall, the displaced line goes north and crosses nothing;
    // a partition that meets no wall the line runs along is only touched at its end.
    let above = Segment::between(
        Endpoint::of_square(lat(1, 5), Square::new(1, 4)),
        Endpoint::of_square(lat(7, 5), Square::new(7, 4)),
    );
    assert!(!s.blocked(above));
    let short = Scene::walls(&[(lat(0, 5), lat(3, 5)), partition], Grazing::Off);
    assert!(!short.blocked(line));
}
