//! Calibrates the work budget: builds worst-case-ish encounters at the server's input caps
//! (grid side 1,000, 10,000 walls, 10,000 light sources, 500 creatures, 1,000 path steps) for
//! every question, runs each with the default budget (`Budget::new(5_000_000)`) and prints the
//! CPU time taken (scene construction included, as the server does), the units spent and the
//! outcome. The goal (issue 25) is that no row takes more than about 100 ms of CPU in a release
//! build on a loaded 2-core machine, so that the server, parse and answer included, stays under
//! the 120 ms that `scripts/reliability.py --only cpu` checks; the cases of issue 25 (500
//! creatures packed on 25×25, reach 1,000 ft; the largest creatures across 10,000 crossing low
//! walls; moves and charges past enemies of reach 1,000 ft) are among them.
//!
//! `cargo run --release -p arbiter-rules --example budget_calibration [FILTER]`

use std::time::{Duration, Instant};

use arbiter_rules::analyze::{AnalyzeQuestion, analyze};
use arbiter_rules::attack::{Situational, attack};
use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{AttackKind, cover};
use arbiter_rules::dice::{DiceError, DiceSource, OddsOnly, Purpose};
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Light, LightSource, Size, Terrain, Wall, WallKind,
    Weapon, WeaponKind,
};
use arbiter_rules::error::RulesError;
use arbiter_rules::flanking::flanking;
use arbiter_rules::grid::Square;
use arbiter_rules::initiative::{InitiativeQuestion, initiative};
use arbiter_rules::maneuver::charge::{ChargeOptions, charge};
use arbiter_rules::maneuver::{Kind, Options, maneuver};
use arbiter_rules::movement::{Mode, MoveOptions, movement};
use arbiter_rules::range::range;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::vision::{Attack, concealment};

/// The default budget of the server (`--work-budget`).
#[path = "../benches/common/mod.rs"]
mod common;

use common::{Lcg, analyze_scene, pt};

const BUDGET: u64 = 5_000_000;

/// A deterministic pseudo-random generator (same encounters every run).
/// Every die shows the same face: every tie stays tied through every roll-off round.
struct Same(u32);

impl DiceSource for Same {
    fn roll(&mut self, _: &Purpose, sides: u32) -> Result<Option<u32>, DiceError> {
        Ok(Some(self.0.min(sides.max(1))))
    }
}

/// A `side`×`side` map with `walls` short walls (kinds mixed), `lights` light sources, some
/// solid / low / concealing squares (kept off row `keep_row` ± 8) and the given ambient light.
fn grid(side: i32, walls: usize, lights: usize, light: Light, keep_row: i32, seed: u64) -> Grid {
    let mut rng = Lcg(seed);
    let s = side as u64;
    let mut g = Grid::open(side, side);
    g.light = light;
    g.terrain = vec![Terrain::OPEN; (side * side) as usize];
    for _ in 0..(side * side / 50) {
        let (x, y) = (rng.next(s) as i32, rng.next(s) as i32);
        if (y - keep_row).abs() > 8 {
            g.terrain[(y * side + x) as usize] = match rng.next(3) {
                0 => Terrain::SOLID,
                1 => Terrain::LOW,
                _ => Terrain::CONCEALING,
            };
        }
    }
    for _ in 0..walls {
        let (x, y) = (rng.next(s - 4) as f64, rng.next(s) as f64);
        let len = 1.0 + rng.next(4) as f64;
        let to = if rng.next(2) == 0 { pt(x + len, y) } else { pt(x, (y + len).min(side as f64)) };
        let kind = WallKind::ALL[rng.next(6) as usize];
        // Keep the creatures' rows open so that lines are long rather than blocked at once.
        let kind = if (y as i32 - keep_row).abs() <= 8 { WallKind::ArrowSlit } else { kind };
        g.walls.push(Wall { from: pt(x, y), to, kind });
    }
    for _ in 0..lights {
        let at = pt(rng.next(s) as f64 + 0.5, rng.next(s) as f64 + 0.5);
        g.lights.push(LightSource {
            at,
            bright_ft: 20 + 5 * rng.next(8) as u32,
            dim_ft: 40 + 5 * rng.next(8) as u32,
        });
    }
    g
}

fn enc(ruleset: RulesetId, grid: Grid, creatures: Vec<Creature>, switches: &[&str]) -> Encounter {
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), switches.iter().map(|k| (*k, true))),
        grid,
        environment: Environment::default(),
        creatures,
    }
}

/// A creature with every stat set, so that no question stops on a missing stat.
fn fighter(id: &str, side: &str, at: Square, size: Size, dex: i32) -> Creature {
    let mut c = Creature::new(id, side, at, size);
    let s = &mut c.stats;
    s.ac = Some(15);
    s.eac = Some(15);
    s.kac = Some(16);
    s.def = Some(14);
    s.attack_bonus = Some(7);
    s.str_mod = Some(3);
    s.dex_mod = Some(dex);
    s.con_mod = Some(2);
    s.proficiency_bonus = Some(3);
    s.athletics = Some(6);
    s.acrobatics = Some(4);
    s.escape_artist = Some(4);
    s.cmb = Some(8);
    s.cmd = Some(20);
    s.bab = Some(6);
    c.speed_ft = Some(5000);
    c.senses.darkvision_ft = 60;
    c.wielding = Some(Weapon { kind: Some(WeaponKind::Melee), reach_ft: Some(10), ..Weapon::default() });
    c
}

/// 500 creatures in two sides scattered over the map, sizes from Medium to Colossal.
fn crowd(ruleset: RulesetId, side: i32, n: usize, sizes: &[Size], seed: u64) -> Vec<Creature> {
    let mut rng = Lcg(seed);
    (0..n)
        .map(|i| {
            let size = sizes[i % sizes.len()];
            let (x, y) = (rng.next(side as u64 - 8) as i32, rng.next(side as u64 - 8) as i32);
            let _ = ruleset;
            fighter(
                &format!("c{i}"),
                if i % 2 == 0 { "party" } else { "monsters" },
                Square::new(x, y),
                size,
                2,
            )
        })
        .collect()
}

/// The analyze benchmark's scene: 50 creatures, 200×200, 1,200 solid or low squares, 1,000
/// solid walls.
fn bench_scene(ruleset: RulesetId) -> Encounter {
    analyze_scene(ruleset, 50)
}

/// CPU time of this thread so far (Linux `/proc/thread-self/schedstat`, nanoseconds on CPU),
/// so that other processes on a shared machine do not inflate the figures of long runs; `None`
/// elsewhere (then wall time is used).
fn cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(s.split_whitespace().next()?.parse().ok()?))
}

/// The budget granted: [`BUDGET`], or `CALIBRATION_BUDGET` from the environment (to see what a
/// case costs in full).
fn budget_limit() -> u64 {
    std::env::var("CALIBRATION_BUDGET").ok().and_then(|v| v.parse().ok()).unwrap_or(BUDGET)
}

struct Row {
    question: &'static str,
    case: String,
    time: Duration,
    spent: u64,
    outcome: String,
}

fn outcome<T>(r: &Result<T, RulesError>) -> String {
    match r {
        Ok(_) => "ok".into(),
        Err(RulesError::Budget(b)) => format!("budget (cancelled: {})", b.cancelled),
        Err(e) => format!("error: {e:?}").chars().take(60).collect(),
    }
}

/// Runs a question on a fresh scene with the default budget, timing scene and question.
fn run<T>(
    rows: &mut Vec<Row>,
    question: &'static str,
    case: &str,
    e: &Encounter,
    q: impl Fn(&Scene<'_>, &mut Budget) -> Result<T, RulesError>,
) {
    let filter = std::env::args().nth(1).unwrap_or_default();
    if !format!("{question} {case}").contains(&filter) {
        return;
    }
    let mut best: Option<(Duration, u64, String)> = None;
    for _ in 0..3 {
        let mut budget = Budget::new(budget_limit());
        let (t, c) = (Instant::now(), cpu());
        let r = Scene::new(e, &mut budget).and_then(|scene| q(&scene, &mut budget));
        let wall = t.elapsed();
        // The scheduler's figure moves by ticks (a few ms): short runs are timed by the clock.
        let time = match (c, cpu()) {
            (Some(a), Some(b)) if wall > Duration::from_millis(20) => b.saturating_sub(a),
            _ => wall,
        };
        let o = outcome(&r);
        drop(r);
        let long = time > Duration::from_millis(300);
        if best.as_ref().is_none_or(|b| time < b.0) {
            best = Some((time, budget.spent(), o));
        }
        if long {
            break;
        }
    }
    let (time, spent, outcome) = best.expect("ran once");
    let per_unit = time.as_secs_f64() * 1e9 / spent.max(1) as f64;
    println!(
        "{question:<12} {case:<58} {:>8.1} ms {spent:>10} {per_unit:>6.1} ns/unit  {outcome}",
        time.as_secs_f64() * 1e3
    );
    rows.push(Row { question, case: case.to_owned(), time, spent, outcome });
}

fn main() {
    let mut rows = Vec::new();
    let big = |_ruleset: RulesetId, light| grid(1000, 10_000, 10_000, light, 500, 3);
    let sizes_all = [Size::Medium, Size::Large, Size::Huge, Size::Gargantuan, Size::Colossal];

    // Initiative: many identical creatures (one exact-odds polynomial per tie), distinct
    // bonuses, groups and surprise.
    for ruleset in [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Hb3d] {
        for n in [100usize, 500] {
            let cs: Vec<Creature> = (0..n)
                .map(|i| {
                    fighter(
                        &format!("c{i}"),
                        "a",
                        Square::new(i as i32 % 100, i as i32 / 100),
                        Size::Medium,
                        2,
                    )
                })
                .collect();
            let e = enc(ruleset, Grid::open(100, 100), cs, &[]);
            run(&mut rows, "initiative", &format!("{} {n} identical, odds", ruleset.id()), &e, |s, b| {
                initiative(s.enc, &InitiativeQuestion::default(), &mut OddsOnly, b)
            });
            run(&mut rows, "initiative", &format!("{} {n} identical, rolled", ruleset.id()), &e, |s, b| {
                initiative(s.enc, &InitiativeQuestion::default(), &mut Same(10), b)
            });
            let q = InitiativeQuestion { surprised: (0..n / 2).collect(), ..InitiativeQuestion::default() };
            run(
                &mut rows,
                "initiative",
                &format!("{} {n} identical, half surprised", ruleset.id()),
                &e,
                |s, b| initiative(s.enc, &q, &mut OddsOnly, b),
            );
            let cs: Vec<Creature> = (0..n)
                .map(|i| {
                    fighter(
                        &format!("c{i}"),
                        "a",
                        Square::new(i as i32 % 100, i as i32 / 100),
                        Size::Medium,
                        i as i32 % 37,
                    )
                })
                .collect();
            let e = enc(ruleset, Grid::open(100, 100), cs, &[]);
            run(&mut rows, "initiative", &format!("{} {n} distinct", ruleset.id()), &e, |s, b| {
                initiative(s.enc, &InitiativeQuestion::default(), &mut OddsOnly, b)
            });
        }
    }

    // Analyze: 500 creatures on 1000×1000, 10,000 walls and lights, darkness.
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Sf1e] {
        for (what, sizes) in [("medium", &[Size::Medium][..]), ("mixed sizes", &sizes_all[..])] {
            let e = enc(ruleset, big(ruleset, Light::Darkness), crowd(ruleset, 1000, 500, sizes, 5), &[]);
            run(
                &mut rows,
                "analyze",
                &format!("{} 500 {what} 1000² 10k walls+lights", ruleset.id()),
                &e,
                |s, b| analyze(s, &AnalyzeQuestion::default(), b),
            );
            let q = AnalyzeQuestion { traces: true, ..AnalyzeQuestion::default() };
            run(&mut rows, "analyze", &format!("{} 500 {what} traces", ruleset.id()), &e, |s, b| {
                analyze(s, &q, b)
            });
        }
        // Packed: everyone in reach of everyone (flanking for every pair).
        let cs: Vec<Creature> = (0..500)
            .map(|i| {
                fighter(
                    &format!("c{i}"),
                    if i % 2 == 0 { "a" } else { "b" },
                    Square::new(480 + (i % 25) * 2, 480 + (i / 25) * 2),
                    Size::Medium,
                    2,
                )
            })
            .collect();
        let e = enc(ruleset, big(ruleset, Light::Bright), cs, &[]);
        run(&mut rows, "analyze", &format!("{} 500 packed in reach", ruleset.id()), &e, |s, b| {
            analyze(s, &AnalyzeQuestion::default(), b)
        });
        // The benchmark scene: 50 creatures, 200×200, 1,000 walls.
        let e = enc(
            ruleset,
            grid(200, 1000, 0, Light::Bright, 100, 11),
            crowd(ruleset, 200, 50, &[Size::Medium], 11),
            &[],
        );
        run(
            &mut rows,
            "analyze",
            &format!("{} 50 on 200² 1000 walls (bench size)", ruleset.id()),
            &e,
            |s, b| analyze(s, &AnalyzeQuestion::default(), b),
        );
    }

    // Packed on a small map (issue 25): 500 creatures on 500 of a 25×25 map's 625 squares,
    // everyone near everyone; with the weapon's reach and with the largest (1,000 ft).
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Sf1e] {
        for reach_ft in [10, 1000] {
            let cs: Vec<Creature> = (0..500)
                .map(|i| {
                    let mut c = fighter(
                        &format!("c{i}"),
                        if i % 2 == 0 { "a" } else { "b" },
                        Square::new(i % 25, i / 25),
                        Size::Medium,
                        2,
                    );
                    c.wielding.as_mut().expect("weapon").reach_ft = Some(reach_ft);
                    c
                })
                .collect();
            let e = enc(ruleset, Grid::open(25, 25), cs, &[]);
            run(
                &mut rows,
                "analyze",
                &format!("{} 500 packed on 25², reach {reach_ft} ft", ruleset.id()),
                &e,
                |s, b| analyze(s, &AnalyzeQuestion::default(), b),
            );
        }
    }

    // The scene of `benches/rules.rs` (`analyze/*/50-creatures-200x200-1000-walls`), exactly.
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e] {
        let e = bench_scene(ruleset);
        run(&mut rows, "analyze", &format!("{} benches/rules.rs scene", ruleset.id()), &e, |s, b| {
            analyze(s, &AnalyzeQuestion::default(), b)
        });
    }

    // Cover, concealment, range, attack, flanking: the biggest creatures far apart across the
    // walls, in darkness with every light, with the rest of the 500 around.
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Sf1e] {
        let top = if ruleset.is_dnd5e() { Size::Gargantuan } else { Size::Colossal };
        let mut cs = vec![
            fighter("a", "party", Square::new(2, 497), top, 2),
            fighter("t", "monsters", Square::new(990, 497), top, 2),
        ];
        // A ring of allies of the attacker around the target (flanking candidates) and the
        // rest of the 500 along the line.
        for i in 0..498 {
            let (x, y) = if i < 40 {
                (980 + (i % 20), if i < 20 { 494 } else { 505 })
            } else {
                (10 + (i % 450) * 2, if i % 2 == 0 { 492 } else { 507 })
            };
            cs.push(fighter(
                &format!("c{i}"),
                if i < 40 || i % 3 == 0 { "party" } else { "monsters" },
                Square::new(x, y),
                Size::Medium,
                2,
            ));
        }
        let e = enc(ruleset, big(ruleset, Light::Darkness), cs, &["dnd5e.flanking.optional"]);
        let bow = Weapon {
            kind: Some(WeaponKind::Ranged),
            normal_ft: Some(150),
            long_ft: Some(600),
            increment_ft: Some(100),
            max_increments: Some(100),
            ..Weapon::default()
        };
        let tag = format!("{} {} vs {} 988 sq, 10k walls+lights", ruleset.id(), top.id(), top.id());
        run(&mut rows, "cover", &tag, &e, |s, b| cover(s, 0, 1, AttackKind::Ranged, None, b));
        run(&mut rows, "concealment", &tag, &e, |s, b| concealment(s, 0, 1, Attack::Ranged, b));
        run(&mut rows, "range", &tag, &e, |s, b| range(s, 0, 1, &bow, b));
        run(&mut rows, "attack", &tag, &e, |s, b| {
            attack(s, 0, 1, &bow, &Situational::default(), &mut OddsOnly, b)
        });
        run(&mut rows, "flanking", &tag, &e, |s, b| flanking(s, 0, 1, b));
        // Flanking with the target surrounded: allies of the attacker on every square around it.
        let mut cs = vec![
            fighter("a", "party", Square::new(494, 500), Size::Medium, 2),
            fighter("t", "monsters", Square::new(495, 495), top, 2),
        ];
        let mut k = 0;
        for y in 490..510 {
            for x in 490..510 {
                let outside = !(495..502).contains(&x) || !(495..502).contains(&y);
                if outside && (x, y) != (494, 500) && k < 498 {
                    {
                        let mut c = fighter(&format!("f{k}"), "party", Square::new(x, y), Size::Medium, 2);
                        c.wielding.as_mut().expect("weapon").reach_ft = Some(20);
                        cs.push(c);
                        k += 1;
                    }
                }
            }
        }
        let e = enc(ruleset, big(ruleset, Light::Bright), cs, &["dnd5e.flanking.optional"]);
        let tag = format!("{} {} surrounded by {k} allies", ruleset.id(), top.id());
        run(&mut rows, "flanking", &tag, &e, |s, b| flanking(s, 0, 1, b));
        let melee = fighter("x", "x", Square::new(0, 0), Size::Medium, 0).wielding.expect("weapon");
        run(&mut rows, "attack", &tag, &e, |s, b| {
            attack(s, 0, 1, &melee, &Situational::default(), &mut OddsOnly, b)
        });
    }

    // Cover between the largest creatures across 10,000 low walls (issue 25): 40-square low
    // walls across the way 0.098 squares apart, every line crossing all of them.
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Sf1e] {
        let top = if ruleset.is_dnd5e() { Size::Gargantuan } else { Size::Colossal };
        let cs = vec![
            fighter("a", "party", Square::new(0, 497), top, 2),
            fighter("t", "monsters", Square::new(990, 497), top, 2),
        ];
        let mut g = Grid::open(1000, 1000);
        for i in 0..10_000 {
            let x = f64::from(7000 + 98 * i) / 1000.0;
            g.walls.push(Wall { from: pt(x, 480.0), to: pt(x, 520.0), kind: WallKind::Low });
        }
        let e = enc(ruleset, g, cs, &[]);
        let tag = format!("{} {} vs {} across 10k low walls", ruleset.id(), top.id(), top.id());
        for kind in [AttackKind::Ranged, AttackKind::Melee] {
            run(&mut rows, "cover", &format!("{tag} {kind:?}"), &e, |s, b| cover(s, 0, 1, kind, None, b));
        }
    }

    // Movement: a 1,000-step zigzag path past 499 enemies standing along it.
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Sf1e] {
        let top = if ruleset.is_dnd5e() { Size::Gargantuan } else { Size::Colossal };
        for (size, reach_ft) in [(Size::Medium, 30), (top, 30), (Size::Medium, 1000), (top, 1000)] {
            let mut cs = vec![fighter("m", "party", Square::new(0, 500), size, 2)];
            cs[0].speed_ft = Some(20_000);
            for i in 0..499 {
                let mut c = fighter(
                    &format!("e{i}"),
                    "monsters",
                    Square::new(2 + i * 2, if i % 2 == 0 { 492 } else { 508 }),
                    Size::Medium,
                    2,
                );
                c.wielding.as_mut().expect("weapon").reach_ft = Some(reach_ft);
                cs.push(c);
            }
            let e = enc(ruleset, big(ruleset, Light::Bright), cs, &[]);
            // 990 squares east, zigzagging between two rows, then 10 south.
            let path: Vec<Square> = (1..=990)
                .map(|i| Square::new(i, 500 + (i % 2)))
                .chain((1..=10).map(|k| Square::new(990, 500 + k)))
                .collect();
            for mode in [Mode::Walk, Mode::Forced] {
                run(
                    &mut rows,
                    "movement",
                    &format!(
                        "{} {} {} 1000 steps past 499 reach {reach_ft}",
                        ruleset.id(),
                        size.id(),
                        mode.id()
                    ),
                    &e,
                    |s, b| movement(s, 0, &path, mode, &MoveOptions::default(), b),
                );
            }
            if !ruleset.is_dnd5e() {
                let q = MoveOptions { target: Some(499), ..MoveOptions::default() };
                let path: Vec<Square> = (1..=990).map(|i| Square::new(i, 500)).collect();
                run(
                    &mut rows,
                    "movement",
                    &format!("{} {} charge 990 steps past 499 reach {reach_ft}", ruleset.id(), size.id()),
                    &e,
                    |s, b| movement(s, 0, &path, Mode::Charge, &q, b),
                );
            }
        }
    }

    // Maneuvers: long pushes through a line of creatures (secondary bull rushes in PF1), the
    // push-distance odds, and charges along 1,000 squares.
    for ruleset in RulesetId::ALL {
        let mut cs = vec![
            fighter("a", "party", Square::new(0, 500), Size::Colossal, 2),
            fighter("t", "monsters", Square::new(6, 502), Size::Medium, 2),
        ];
        cs[0].stats.cmb = Some(1000);
        cs[0].stats.athletics = Some(1000);
        cs[0].stats.str_mod = Some(1000);
        cs[0].stats.attack_bonus = Some(1000);
        for i in 0..498 {
            cs.push(fighter(&format!("l{i}"), "monsters", Square::new(7 + i, 502), Size::Medium, 2));
        }
        let e = enc(ruleset, big(ruleset, Light::Bright), cs, &[]);
        for kind in [Kind::BullRush, Kind::Shove, Kind::Overrun, Kind::Grapple, Kind::Trip] {
            run(
                &mut rows,
                "maneuver",
                &format!("{} {} through a line of 498", ruleset.id(), kind.id()),
                &e,
                |s, b| maneuver(s, 0, 1, kind, &Options::default(), &mut OddsOnly, b),
            );
        }
        let mut e2 = e.clone();
        e2.creatures[1].at = Square::new(998, 502);
        e2.creatures[0].conditions.push(Condition::Invisible);
        for then in [None, Some(Kind::BullRush), Some(Kind::Overrun)] {
            let q = ChargeOptions { path: None, then, standard_only: false };
            run(
                &mut rows,
                "charge",
                &format!("{} {} to 998 sq, picked path", ruleset.id(), then.map_or("attack", |k| k.id())),
                &e2,
                |s, b| charge(s, 0, 1, &q, &Options::default(), &mut OddsOnly, b),
            );
            let path: Vec<Square> = (1..=992).map(|i| Square::new(i, 500)).collect();
            let q = ChargeOptions { path: Some(path), then, standard_only: false };
            run(
                &mut rows,
                "charge",
                &format!("{} {} 992-step path", ruleset.id(), then.map_or("attack", |k| k.id())),
                &e2,
                |s, b| charge(s, 0, 1, &q, &Options::default(), &mut OddsOnly, b),
            );
        }
    }

    // A charge past 498 enemies of 1,000 ft reach standing beside its path (issue 25).
    for ruleset in [RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d, RulesetId::Dnd5e2024] {
        let mut cs = vec![
            fighter("a", "party", Square::new(0, 500), Size::Medium, 2),
            fighter("t", "monsters", Square::new(995, 500), Size::Medium, 2),
        ];
        for i in 0..498 {
            let mut c = fighter(
                &format!("e{i}"),
                "monsters",
                Square::new(2 + i * 2, if i % 2 == 0 { 495 } else { 505 }),
                Size::Medium,
                2,
            );
            c.wielding.as_mut().expect("weapon").reach_ft = Some(1000);
            cs.push(c);
        }
        let e = enc(ruleset, Grid::open(1000, 1000), cs, &[]);
        for path in [None, Some((1..=994).map(|i| Square::new(i, 500)).collect::<Vec<_>>())] {
            let tag = if path.is_some() { "994-step path" } else { "picked path" };
            let q = ChargeOptions { path, then: None, standard_only: false };
            run(
                &mut rows,
                "charge",
                &format!("{} past 498 of reach 1000 ft, {tag}", ruleset.id()),
                &e,
                |s, b| charge(s, 0, 1, &q, &Options::default(), &mut OddsOnly, b),
            );
        }
    }

    // The largest benchmark-like analysis (200×200, 1,000 walls) the default budget answers.
    if std::env::args().nth(1).is_none_or(|f| f == "fits") {
        for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e] {
            let fits = |n: usize| {
                let e = analyze_scene(ruleset, n);
                let mut budget = Budget::new(BUDGET);
                let ok = Scene::new(&e, &mut budget)
                    .and_then(|s| analyze(&s, &AnalyzeQuestion::default(), &mut budget))
                    .is_ok();
                (ok, budget.spent())
            };
            let mut n = 50;
            while n < 500 && fits(n + 1).0 {
                n += 1;
            }
            println!(
                "fits: {} analyze on the benchmark map answers up to {n} creatures ({} units)",
                ruleset.id(),
                fits(n).1
            );
        }
    }

    println!("\nworst case per question:");
    let mut qs: Vec<&str> = rows.iter().map(|r| r.question).collect();
    qs.dedup();
    qs.sort_unstable();
    qs.dedup();
    for q in qs {
        if let Some(r) = rows.iter().filter(|r| r.question == q).max_by_key(|r| r.time) {
            println!(
                "{q:<12} {:<58} {:>10.1} ms {:>12} {}",
                r.case,
                r.time.as_secs_f64() * 1e3,
                r.spent,
                r.outcome
            );
        }
    }
}
