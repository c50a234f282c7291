//! Property test: `analyze` (`POST /v1/analyze`) answers, pair by pair, exactly what the
//! single questions answer on their own — cover, concealment, flanking, distance, reach and the
//! scene's rule tally — on random small scenes in every ruleset, for every attack choice, with
//! and without traces. Each single question gets a fresh [`Scene`], so no cache is shared with
//! the analysis or with another question: this is the oracle for a faster scene-level engine.
//!
//! The generator mixes every terrain flag, walls of every kind along grid lines, in unit pieces
//! (polyline joints on lattice points), on half lines (joints mid-square), diagonally through
//! corners, as rooms (some with a closed door at a corner) and T-junctions, creatures of every
//! size the ruleset knows (stacked now and then), reach weapons, conditions, senses and lights.
//! [`scenes_are_not_vacuous`] checks on a fixed seed that it does produce every cover degree,
//! soft cover, low obstacles, flanks, every concealment degree and the seam / pinch /
//! end-point-on-wall / along-a-wall cases of `grid.line.blocked`.

use arbiter_rules::analyze::{Analysis, AnalyzeEffect, AnalyzeQuestion, AttackChoice, Pair, analyze};
use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{self, AttackKind, CoverAnswer, ElementKind, HitCase};
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Light, LightSource, Size, Terrain, Wall, WallKind,
    Weapon, WeaponKind, WeaponProperty,
};
use arbiter_rules::error::RulesError;
use arbiter_rules::flanking::{self, FlankAnswer};
use arbiter_rules::grid::{Coord, ONE, Point, Space, Square};
use arbiter_rules::range;
use arbiter_rules::reach;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::trace::{Effect, Trace};
use arbiter_rules::vision::{self, Attack, ConcealmentAnswer};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// Work units `analyze` charges per pair besides the lines it walks (`PER_PAIR` in
/// `src/analyze.rs`): the bound of the budget property.
const PER_PAIR: u64 = 120;

/// The scene-wide censuses analyze may build (`Scene::count` in `src/scene.rs`).
const CENSUSES: u64 = 3;

/// A point in half squares.
type Half = (i32, i32);

/// A generated question: the encounter and what is asked of it.
#[derive(Debug, Clone)]
struct Case {
    enc: Encounter,
    question: AnalyzeQuestion,
}

fn half(p: Half) -> Point {
    Point { x: Coord(i128::from(p.0) * ONE / 2), y: Coord(i128::from(p.1) * ONE / 2) }
}

/// One square's terrain; `density` (0–3) makes blocking squares more common.
fn cell(density: u32) -> impl Strategy<Value = Terrain> {
    prop_oneof![
        40 - 8 * density => Just(Terrain::OPEN),
        1 + 2 * density => Just(Terrain::SOLID),
        1 + 2 * density => Just(Terrain::LOW),
        2 => Just(Terrain::CONCEALING),
        1 => Just(Terrain::OPAQUE),
        1 => Just(Terrain::DIFFICULT),
        1 => Just(Terrain::WATER),
        1 => Just(Terrain::LOW.with(Terrain::CONCEALING)),
        1 => Just(Terrain::DIFFICULT.with(Terrain::CONCEALING)),
        1 => Just(Terrain::OPAQUE.with(Terrain::DIFFICULT)),
    ]
}

fn wall_kind() -> impl Strategy<Value = WallKind> {
    prop_oneof![
        3 => Just(WallKind::Solid),
        2 => Just(WallKind::Low),
        1 => Just(WallKind::Window),
        1 => Just(WallKind::ArrowSlit),
        1 => Just(WallKind::DoorOpen),
        1 => Just(WallKind::DoorClosed),
    ]
}

/// Walls of one shape, in half squares: the pieces of one drawn wall share its kind.
fn wall_shape(w: i32, h: i32) -> impl Strategy<Value = Vec<(Half, Half, WallKind)>> {
    let lattice = (0..=w, 0..=h);
    // Rule 7's situations (G9, G10), pieces flagged `true` being closed doors.
    let junctions = prop_oneof![
        // A room of unit edges with a closed door on one of the edges at a corner.
        (lattice.clone(), 1..5i32, 1..5i32, 0..8usize).prop_map(|((x, y), a, b, k)| {
            let c = [(x, y), (x + a, y), (x + a, y + b), (x, y + b)];
            let mut edges: Vec<(Half, Half)> = Vec::new();
            for i in 0..4 {
                let ((x0, y0), (x1, y1)) = (c[i], c[(i + 1) % 4]);
                let n = (x1 - x0).abs().max((y1 - y0).abs());
                let (dx, dy) = ((x1 - x0).signum(), (y1 - y0).signum());
                edges.extend((0..n).map(|j| {
                    (
                        (2 * (x0 + j * dx), 2 * (y0 + j * dy)),
                        (2 * (x0 + (j + 1) * dx), 2 * (y0 + (j + 1) * dy)),
                    )
                }));
            }
            // The first and last edge of each side touch a corner.
            let sides = [0, a, a + b, 2 * a + b, 2 * a + 2 * b];
            let side = k / 2;
            let door = if k % 2 == 0 { sides[side] } else { sides[side + 1] - 1 } as usize;
            edges.into_iter().enumerate().map(|(i, (p, q))| (p, q, i == door)).collect::<Vec<_>>()
        }),
        // A T-junction: a wall along a grid line, a partition (maybe a door) ending on it.
        (lattice.clone(), any::<bool>(), 2..8i32, 1..8i32, -4..=4i32, any::<bool>()).prop_map(
            |((x, y), horiz, n, k, m, door)| {
                let k = k.min(n - 1);
                let m = if m == 0 { 1 } else { m };
                let (wall, partition) = if horiz {
                    (
                        ((2 * x, 2 * y), (2 * (x + n), 2 * y)),
                        ((2 * (x + k), 2 * y), (2 * (x + k), 2 * (y + m))),
                    )
                } else {
                    (
                        ((2 * x, 2 * y), (2 * x, 2 * (y + n))),
                        ((2 * x, 2 * (y + k)), (2 * (x + m), 2 * (y + k))),
                    )
                };
                vec![(wall.0, wall.1, false), (partition.0, partition.1, door)]
            }
        ),
    ];
    let shape = prop_oneof![
        // Along a grid line, in one piece.
        3 => (lattice.clone(), any::<bool>(), 1..7i32).prop_map(|((x, y), horiz, n)| {
            let (dx, dy) = if horiz { (n, 0) } else { (0, n) };
            vec![((2 * x, 2 * y), (2 * (x + dx), 2 * (y + dy)))]
        }),
        // Along a grid line as unit edges: joints on lattice points (rule 4).
        2 => (lattice.clone(), any::<bool>(), 2..7i32).prop_map(|((x, y), horiz, n)| {
            let (dx, dy) = if horiz { (1, 0) } else { (0, 1) };
            let at = |i: i32| (2 * (x + i * dx), 2 * (y + i * dy));
            (0..n).map(|i| (at(i), at(i + 1))).collect()
        }),
        // On a half line (x = k + ½), cut at a half point (G8: a joint mid-square).
        2 => (lattice.clone(), any::<bool>(), 1..5i32, 1..5i32).prop_map(|((x, y), horiz, a, b)| {
            let p = |t: i32| if horiz { (2 * x + t, 2 * y + 1) } else { (2 * x + 1, 2 * y + t) };
            vec![(p(0), p(a)), (p(a), p(a + b))]
        }),
        // Diagonal through lattice corners.
        2 => (lattice.clone(), prop::sample::select(vec![(1, 1), (1, -1), (2, 1), (1, 2)]), 1..4i32)
            .prop_map(|((x, y), (dx, dy), n)| vec![((2 * x, 2 * y), (2 * (x + n * dx), 2 * (y + n * dy)))]),
        // A room: four walls around a lattice rectangle, meeting at its corners.
        1 => (lattice, 1..5i32, 1..5i32).prop_map(|((x, y), a, b)| {
            let c = [(2 * x, 2 * y), (2 * (x + a), 2 * y), (2 * (x + a), 2 * (y + b)), (2 * x, 2 * (y + b))];
            (0..4).map(|i| (c[i], c[(i + 1) % 4])).collect()
        }),
        // Anywhere, ends on half points (possibly a point, possibly off the map).
        1 => ((0..=2 * w + 1, 0..=2 * h + 1), (0..=2 * w + 1, 0..=2 * h + 1)).prop_map(|(a, b)| vec![(a, b)]),
    ];
    let shape = prop_oneof![
        11 => shape.prop_map(|pieces| pieces.into_iter().map(|(a, b)| (a, b, false)).collect::<Vec<_>>()),
        3 => junctions,
    ];
    // The engine supports points in [0, 1024] squares (the server refuses others).
    let inside = |(x, y): Half| (x.max(0), y.max(0));
    (shape, wall_kind()).prop_map(move |(pieces, kind)| {
        pieces
            .into_iter()
            .map(|(a, b, door)| (inside(a), inside(b), if door { WallKind::DoorClosed } else { kind }))
            .collect()
    })
}

/// A weapon the creature threatens with (or a bow, which threatens with natural reach).
fn weapon() -> impl Strategy<Value = Option<Weapon>> {
    let melee = Weapon { kind: Some(WeaponKind::Melee), ..Weapon::default() };
    let reach = Weapon { properties: vec![WeaponProperty::Reach], ..melee.clone() };
    let bow = Weapon {
        kind: Some(WeaponKind::Ranged),
        normal_ft: Some(80),
        long_ft: Some(320),
        increment_ft: Some(60),
        properties: vec![WeaponProperty::Ammunition, WeaponProperty::TwoHanded],
        ..Weapon::default()
    };
    prop_oneof![
        3 => Just(None),
        2 => Just(Some(melee.clone())),
        2 => Just(Some(reach.clone())),
        1 => prop::sample::select(vec![0u32, 5, 10, 15, 20]).prop_map(move |r| Some(Weapon {
            reach_ft: Some(r),
            ..melee.clone()
        })),
        1 => Just(Some(Weapon { reach_ft: Some(10), ..reach })),
        1 => Just(Some(bow)),
    ]
}

/// The conditions that matter to reach, flanking, sight and concealment.
const CONDITIONS: [Condition; 12] = [
    Condition::Blinded,
    Condition::Invisible,
    Condition::Hidden,
    Condition::Prone,
    Condition::Unconscious,
    Condition::Helpless,
    Condition::Incapacitated,
    Condition::Paralyzed,
    Condition::Stunned,
    Condition::FlatFooted,
    Condition::Cowering,
    Condition::Squeezing,
];

/// The raw draw of one creature, turned into a [`Creature`] once the map is known.
#[derive(Debug, Clone)]
struct RawCreature {
    size: Size,
    side: usize,
    at: (i32, i32),
    /// Where it stands.
    place: Place,
    conditions: Vec<Condition>,
    /// Darkvision, blindsight, truesight (feet), low-light vision, see invisibility.
    senses: (u32, u32, u32, bool, bool),
    wielding: Option<Weapon>,
    reach_ft: Option<u32>,
    unarmed: (bool, bool),
    elevated: bool,
}

fn raw_creature(ruleset: RulesetId, w: i32, h: i32) -> impl Strategy<Value = RawCreature> {
    let rules = ruleset.rules();
    let sizes: Vec<Size> = rules.sizes.iter().map(|(s, _)| *s).collect();
    let known: Vec<Condition> = CONDITIONS.into_iter().filter(|c| rules.knows(*c)).collect();
    let size = prop_oneof![3 => Just(Size::Medium), 1 => Just(Size::Small), 3 => prop::sample::select(sizes)];
    let conditions = prop_oneof![
        4 => Just(Vec::new()),
        1 => prop::collection::vec(prop::sample::select(known), 1..3),
    ];
    let senses = (
        prop::sample::select(vec![0u32, 0, 30, 60]),
        prop::sample::select(vec![0u32, 0, 0, 0, 10, 30]),
        prop::sample::select(vec![0u32, 0, 0, 0, 0, 30]),
        any::<bool>(),
        prop::bool::weighted(0.1),
    );
    let reach_ft = prop::sample::select(vec![None, None, None, None, None, Some(0u32), Some(10), Some(15)]);
    (
        size,
        0..3usize,
        (0..w, 0..h),
        prop_oneof![
            5 => Just(Place::Anywhere),
            4 => (-3..=3i32, -3..=3i32).prop_map(|(dx, dy)| Place::Near(dx, dy)),
            1 => Just(Place::Stacked),
        ],
        conditions,
        senses,
        weapon(),
        reach_ft,
        (prop::bool::weighted(0.12), any::<bool>()),
        prop::bool::weighted(0.08),
    )
        .prop_map(
            |(size, side, at, place, conditions, senses, wielding, reach_ft, unarmed, elevated)| {
                RawCreature {
                    size,
                    side,
                    at,
                    place,
                    conditions,
                    senses,
                    wielding,
                    reach_ft,
                    unarmed,
                    elevated,
                }
            },
        )
}

/// Where a creature stands, relative to the one drawn before it (so that adjacency, flanks and
/// creatures in the way are common).
#[derive(Debug, Clone, Copy)]
enum Place {
    Anywhere,
    /// Offset from the previous creature's anchor.
    Near(i32, i32),
    /// On the previous creature's anchor: a Tiny sharing, a rider on its mount, or an overlap.
    Stacked,
}

const SIDES: [&str; 3] = ["party", "monsters", "bystanders"];

fn creatures(enc: &Encounter, raw: &[RawCreature]) -> Vec<Creature> {
    let rules = enc.ruleset.rules();
    let mut out: Vec<Creature> = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let side = rules.size(r.size).side;
        let fit = |x: i32, y: i32| {
            Square::new(x.clamp(0, enc.grid.width - side), y.clamp(0, enc.grid.height - side))
        };
        let mut at = fit(r.at.0, r.at.1);
        let mut mounted_on = None;
        match (r.place, out.last()) {
            (Place::Near(dx, dy), Some(prev)) => at = fit(prev.at.x + dx, prev.at.y + dy),
            (Place::Stacked, Some(prev)) => {
                at = prev.at;
                mounted_on = (prev.size > r.size && r.size >= Size::Small).then_some(i - 1);
            }
            _ => {}
        }
        let mut c = Creature::new(&format!("c{i}"), SIDES[r.side], at, r.size);
        c.conditions = r.conditions.clone();
        c.senses.darkvision_ft = r.senses.0;
        c.senses.blindsight_ft = r.senses.1;
        c.senses.truesight_ft = r.senses.2;
        c.senses.low_light_vision = r.senses.3;
        c.senses.see_invisibility = r.senses.4;
        c.wielding = r.wielding.clone();
        c.reach_ft = r.reach_ft;
        c.unarmed = r.unarmed.0;
        if r.unarmed.0 && r.unarmed.1 {
            c.feats.push("improved_unarmed_strike".into());
        }
        c.elevation_ft = if r.elevated { 10 } else { 0 };
        c.mounted_on = mounted_on;
        out.push(c);
    }
    out
}

/// Random scenes of one ruleset: 8×8 to 24×24, 2–8 creatures.
fn case(ruleset: RulesetId) -> impl Strategy<Value = Case> {
    (8..=24i32, 8..=24i32, 0..4u32).prop_flat_map(move |(w, h, density)| {
        let n = (w * h) as usize;
        let light = prop_oneof![3 => Just(Light::Bright), 2 => Just(Light::Dim), 2 => Just(Light::Darkness)];
        let light_map = prop_oneof![
            2 => Just(Vec::new()),
            1 => prop::collection::vec(
                prop_oneof![
                    6 => Just(None),
                    1 => Just(Some(Light::Bright)),
                    1 => Just(Some(Light::Dim)),
                    1 => Just(Some(Light::Darkness)),
                ],
                n,
            ),
        ];
        let lights = prop::collection::vec(((0..=2 * w, 0..=2 * h), 0..30u32, 0..60u32), 0..3);
        let question = (
            prop::sample::select(vec![AttackChoice::Auto, AttackChoice::Melee, AttackChoice::Ranged]),
            any::<bool>(),
            prop_oneof![
                3 => Just(None),
                1 => prop::collection::vec(any::<prop::sample::Index>(), 0..6).prop_map(Some),
            ],
        );
        (
            prop::collection::vec(cell(density), n),
            prop::collection::vec(wall_shape(w, h), 0..8),
            (light, light_map, lights),
            prop::collection::vec(raw_creature(ruleset, w, h), 2..=8),
            prop::collection::vec(any::<bool>(), ruleset.rules().variants.len()),
            question,
        )
            .prop_map(
                move |(terrain, walls, (light, light_map, lights), raw, switches, question)| {
                    let rules = ruleset.rules();
                    let mut grid = Grid::open(w, h);
                    grid.terrain = terrain;
                    grid.light = light;
                    grid.light_map = light_map;
                    grid.lights = lights
                        .into_iter()
                        .map(|(at, bright_ft, dim_ft)| LightSource { at: half(at), bright_ft, dim_ft })
                        .collect();
                    grid.walls = walls
                        .into_iter()
                        .flatten()
                        .map(|(a, b, kind)| Wall { from: half(a), to: half(b), kind })
                        .collect();
                    let switches = rules.variants.iter().zip(switches).map(|(v, on)| (v.key, on));
                    let mut enc = Encounter {
                        ruleset,
                        variants: Variants::resolve(rules, switches),
                        grid,
                        environment: Environment::default(),
                        creatures: Vec::new(),
                    };
                    enc.creatures = creatures(&enc, &raw);
                    let count = enc.creatures.len();
                    let (attack, traces, attackers) = question;
                    let attackers = attackers.map(|ix| ix.iter().map(|i| i.index(count)).collect());
                    Case { enc, question: AnalyzeQuestion { attackers, attack, traces } }
                },
            )
    })
}

/// Distance in squares by RULES.md `grid.distance.*`, computed here from the definition.
fn distance_squares(enc: &Encounter, a: &Space, b: &Space) -> i64 {
    let axis = |amin: i32, amax: i32, bmin: i32, bmax: i32| {
        0i64.max(i64::from(amin) - i64::from(bmax)).max(i64::from(bmin) - i64::from(amax))
    };
    let gx = axis(a.min_x(), a.max_x(), b.min_x(), b.max_x());
    let gy = axis(a.min_y(), a.max_y(), b.min_y(), b.max_y());
    let alternating = !enc.ruleset.is_dnd5e() || enc.variants.is_on("dnd5e.grid.variant-diagonals");
    if alternating {
        let (nd, ns) = (gx.min(gy), gx.max(gy) - gx.min(gy));
        ns + nd + nd / 2
    } else {
        gx.max(gy)
    }
}

/// What one pair's single questions answer, each on a fresh scene, with the units each spent
/// after its scene was built.
struct Single {
    cover: CoverAnswer,
    concealment: ConcealmentAnswer,
    flanking: Option<FlankAnswer>,
    spent: u64,
}

/// Runs `f` on a fresh scene with a fresh budget; returns its answer and the units it spent
/// beyond building the scene.
fn fresh<T>(
    enc: &Encounter,
    f: impl FnOnce(&Scene<'_>, &mut Budget) -> Result<T, RulesError>,
) -> Result<(T, u64), RulesError> {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget)?;
    let before = budget.spent();
    let answer = f(&scene, &mut budget)?;
    Ok((answer, budget.spent() - before))
}

fn single(enc: &Encounter, ai: usize, ti: usize, melee: bool, flank: bool) -> Result<Single, RulesError> {
    let a = &enc.creatures[ai];
    let kind = if melee { AttackKind::Melee } else { AttackKind::Ranged };
    let (cover, c_spent) = fresh(enc, |s, b| cover::cover(s, ai, ti, kind, a.wielding.as_ref(), b))?;
    let sight = if melee { Attack::Melee } else { Attack::Ranged };
    // 5e asks whether the target sees the attacker too (`dnd5e.unseen`); the other rulesets'
    // attack question leaves it out.
    let (concealment, v_spent) = fresh(enc, |s, b| {
        if enc.ruleset.is_dnd5e() {
            vision::concealment(s, ai, ti, sight, b)
        } else {
            vision::concealment_for_attack(s, ai, ti, sight, b)
        }
    })?;
    let (flanking, f_spent) = if flank {
        fresh(enc, |s, b| flanking::flanks(s, ai, ti, b)).map(|(f, n)| (Some(f), n))?
    } else {
        (None, 0)
    };
    Ok(Single { cover, concealment, flanking, spent: c_spent + v_spent + f_spent })
}

/// Every rule of the three answers, once each (the analysis counts pairs per rule).
fn rules_of(s: &Single) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let steps = s.cover.trace.steps.iter().chain(&s.concealment.trace.steps);
    for step in steps.chain(s.flanking.iter().flat_map(|f| &f.trace.steps)) {
        if !out.contains(&step.rule) {
            out.push(step.rule);
        }
    }
    out
}

/// The single answers as the analysis shows them without traces.
fn untraced(mut s: Single) -> Single {
    s.cover.trace = Trace::default();
    s.cover.lines.clear();
    s.concealment.trace = Trace::default();
    s.concealment.lines.clear();
    if let Some(f) = s.flanking.as_mut() {
        f.trace = Trace::default();
        f.threatened.clear();
    }
    s
}

fn check(case: &Case) -> Result<(), TestCaseError> {
    let (enc, q) = (&case.enc, &case.question);
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).map_err(|e| TestCaseError::fail(format!("scene: {e:?}")))?;
    let before = budget.spent();
    let analysis = analyze(&scene, q, &mut budget);
    let spent = budget.spent() - before;
    let attackers: Vec<usize> = q.attackers.clone().unwrap_or_else(|| (0..enc.creatures.len()).collect());
    let mut expected_pairs: Vec<(usize, usize)> = Vec::new();
    let mut tally: Vec<(&'static str, usize)> = Vec::new();
    let mut singles_spent = 0u64;
    let mut singles = Vec::new();
    for &ai in &attackers {
        let a = &enc.creatures[ai];
        for (ti, t) in enc.creatures.iter().enumerate() {
            if ti == ai || t.side == a.side {
                continue;
            }
            expected_pairs.push((ai, ti));
            let in_reach = reach::threatens(enc, a, &enc.space(t));
            let melee = match q.attack {
                AttackChoice::Auto => in_reach,
                AttackChoice::Melee => true,
                AttackChoice::Ranged => false,
            };
            let s = match single(enc, ai, ti, melee, melee && in_reach) {
                Ok(s) => s,
                Err(e) => {
                    // The analysis stops at the first pair whose questions fail, with that error.
                    prop_assert_eq!(analysis.as_ref().err(), Some(&e), "pair {} → {}", ai, ti);
                    return Ok(());
                }
            };
            singles_spent += s.spent;
            for rule in rules_of(&s) {
                match tally.iter_mut().find(|(r, _)| *r == rule) {
                    Some((_, n)) => *n += 1,
                    None => tally.push((rule, 1)),
                }
            }
            singles.push((in_reach, melee, if q.traces { s } else { untraced(s) }));
        }
    }
    let analysis: Analysis = match analysis {
        Ok(a) => a,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "analyze failed ({e:?}), every single question answered"
            )));
        }
    };
    let got: Vec<(usize, usize)> = analysis.pairs.iter().map(|p| (p.attacker, p.target)).collect();
    prop_assert_eq!(&got, &expected_pairs, "pairs and their order");
    for (p, (in_reach, melee, s)) in analysis.pairs.iter().zip(singles) {
        let Pair { attacker: ai, target: ti, .. } = *p;
        let (sa, st) = (enc.space(&enc.creatures[ai]), enc.space(&enc.creatures[ti]));
        let squares = distance_squares(enc, &sa, &st);
        prop_assert_eq!(
            (p.distance_squares, p.distance_ft),
            (squares, squares * 5),
            "distance {} → {}",
            ai,
            ti
        );
        let melee_weapon = Weapon { kind: Some(WeaponKind::Melee), ..Weapon::default() };
        let (r, _) = fresh(enc, |s, b| range::range(s, ai, ti, &melee_weapon, b))
            .map_err(|e| TestCaseError::fail(format!("range {ai} → {ti}: {e:?}")))?;
        prop_assert_eq!((p.distance_squares, p.distance_ft), (r.distance_squares, r.distance_ft));
        prop_assert_eq!((p.in_reach, p.melee), (in_reach, melee), "reach {} → {}", ai, ti);
        prop_assert_eq!(&p.cover, &s.cover, "cover {} → {}", ai, ti);
        prop_assert_eq!(&p.concealment, &s.concealment, "concealment {} → {}", ai, ti);
        prop_assert_eq!(&p.flanking, &s.flanking, "flanking {} → {}", ai, ti);
    }
    let mut trace = Trace::default();
    for (rule, pairs) in tally {
        trace.push(rule, Effect::Analyze(AnalyzeEffect::Applied { pairs }));
    }
    prop_assert_eq!(&analysis.trace, &trace, "the rule tally");
    // Sharing one scene never costs more than asking pair by pair: a remembered line of sight
    // is only ever work not done again. The one extra is the scene's three censuses of the map
    // (concealing, eventful and obstructed squares), one unit per 4 squares each, which a
    // single question never builds.
    let cells = (enc.grid.width.max(0) as u64) * (enc.grid.height.max(0) as u64);
    let bound = singles_spent + PER_PAIR * expected_pairs.len() as u64 + CENSUSES * (cells / 4);
    prop_assert!(
        spent <= bound,
        "analyze spent {} units, the single questions {} + {} per pair",
        spent,
        singles_spent,
        PER_PAIR
    );
    Ok(())
}

/// One property test per ruleset (they run in parallel, and a failure names its ruleset).
macro_rules! per_ruleset {
    ($($name:ident: $ruleset:expr;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
            $(
                #[test]
                fn $name(c in case($ruleset)) {
                    check(&c)?;
                }
            )*
        }
    };
}

per_ruleset! {
    dnd5e2014_pairs_answer_as_the_single_questions: RulesetId::Dnd5e2014;
    dnd5e2024_pairs_answer_as_the_single_questions: RulesetId::Dnd5e2024;
    pf1e_pairs_answer_as_the_single_questions: RulesetId::Pf1e;
    sf1e_pairs_answer_as_the_single_questions: RulesetId::Sf1e;
    hb3d_pairs_answer_as_the_single_questions: RulesetId::Hb3d;
}

/// What a fixed seed's scenes contain, over every pair of every ruleset (traces on).
#[derive(Debug, Default)]
struct Seen {
    cover: Set<(RulesetId, cover::CoverDegree)>,
    concealment: Set<(RulesetId, vision::ConcealmentDegree)>,
    soft: Set<RulesetId>,
    flanked: Set<RulesetId>,
    cases: Set<HitCase>,
    low: bool,
    creature: bool,
    walls: Set<WallKind>,
    pairs: usize,
}

/// A few distinct values (the engine's enums are not all `Hash` or `Ord`).
#[derive(Debug)]
struct Set<T>(Vec<T>);

impl<T> Default for Set<T> {
    fn default() -> Self {
        Set(Vec::new())
    }
}

impl<T: PartialEq> Set<T> {
    fn insert(&mut self, v: T) {
        if !self.0.contains(&v) {
            self.0.push(v);
        }
    }
    fn contains(&self, v: &T) -> bool {
        self.0.contains(v)
    }
}

/// The property is not vacuous: 200 scenes per ruleset from a fixed seed hold pairs with every
/// cover degree of the ruleset, soft cover, flanks and every concealment degree, and their
/// traced lines meet low obstacles, creatures, walls of every blocking kind and the interior,
/// seam, pinch, cross and end-point-on-wall cases of `grid.line.blocked`.
#[test]
fn scenes_are_not_vacuous() {
    use cover::CoverDegree as C;
    use vision::ConcealmentDegree as V;
    let mut seen = Seen::default();
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    for ruleset in RulesetId::ALL {
        let strategy = case(ruleset);
        for _ in 0..200 {
            let mut c = strategy.new_tree(&mut runner).unwrap().current();
            c.question.traces = true;
            c.question.attackers = None;
            let mut budget = Budget::unlimited();
            let scene = Scene::new(&c.enc, &mut budget).unwrap();
            let analysis = analyze(&scene, &c.question, &mut budget).unwrap();
            for p in &analysis.pairs {
                seen.pairs += 1;
                seen.cover.insert((ruleset, p.cover.degree));
                seen.concealment.insert((ruleset, p.concealment.degree));
                if p.cover.soft {
                    seen.soft.insert(ruleset);
                }
                if p.flanking.as_ref().is_some_and(|f| f.flanked) {
                    seen.flanked.insert(ruleset);
                }
                for hit in p.cover.lines.iter().flat_map(|l| &l.hits) {
                    seen.cases.insert(hit.case);
                    for (e, _) in &hit.elements {
                        match e {
                            ElementKind::Low => seen.low = true,
                            ElementKind::Creature(_) => seen.creature = true,
                            ElementKind::Wall { kind, .. } => {
                                seen.walls.insert(*kind);
                            }
                            ElementKind::Solid => {}
                        }
                    }
                }
            }
        }
    }
    for ruleset in RulesetId::ALL {
        let degrees: &[C] = if ruleset.is_dnd5e() {
            &[C::None, C::Half, C::ThreeQuarters, C::Total]
        } else {
            &[C::None, C::Partial, C::Cover, C::Improved, C::Total]
        };
        for d in degrees {
            assert!(seen.cover.contains(&(ruleset, *d)), "{ruleset:?}: no pair with {d:?} cover: {seen:?}");
        }
        for d in [V::None, V::Concealment, V::Total] {
            assert!(seen.concealment.contains(&(ruleset, d)), "{ruleset:?}: no pair with {d:?} concealment");
        }
        assert!(seen.soft.contains(&ruleset), "{ruleset:?}: no soft cover");
        assert!(seen.flanked.contains(&ruleset), "{ruleset:?}: no flank");
    }
    let cases = [
        HitCase::Interior,
        HitCase::Graze,
        HitCase::Seam,
        HitCase::Pinch,
        HitCase::Cross,
        HitCase::Overlap,
        HitCase::EndpointOnWall,
        HitCase::AlongWall,
    ];
    for case in cases {
        assert!(seen.cases.contains(&case), "no {case:?} hit: {seen:?}");
    }
    assert!(seen.low && seen.creature, "{seen:?}");
    for kind in [WallKind::Solid, WallKind::Low, WallKind::Window, WallKind::ArrowSlit, WallKind::DoorClosed]
    {
        assert!(seen.walls.contains(&kind), "no line met a {kind:?} wall: {seen:?}");
    }
    eprintln!("{} pairs, cover {:?}, hits {:?}", seen.pairs, seen.cover, seen.cases);
}
