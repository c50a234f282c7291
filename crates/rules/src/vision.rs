//! Light, sight and concealment: `pf1e.concealment.determine`, `pf1e.concealment.miss-chance`,
//! `pf1e.vision.light`, `sf1e.concealment`, `sf1e.vision.light`, `grid.obscured.heavy`,
//! `grid.line-of-sight`, `hb3d.mod.concealment`, `dnd5e.vision.light-and-darkvision`,
//! `dnd5e.unseen`.
//!
//! Light is a layer: the ambient level, the per-square map and point sources (blocked by walls)
//! give each square a level, the brightest winning; a creature stands in the light of its
//! best-lit square (RULES.md Q-43). Whether an observer sees a subject then depends on its
//! senses, the subject's conditions, line of sight and heavy obscurement.

use crate::budget::Budget;
use crate::encounter::{Condition, Creature, Encounter, Light, Terrain};
use crate::error::RulesError;
use crate::grid::line::{Blockers, Endpoint, Grazing, NoWalls, Segment, SquareSpan};
use crate::grid::{FEET_PER_SQUARE, Metric, Point, Space, Square};
use crate::pair::Pair;
use crate::reach;
use crate::ruleset::{ConcealmentBy, LowLight, MissChance};
use crate::scene::{From, Scene, line_error};
pub use crate::trace::vision::{Cause, ConcealmentDegree, Sense, VisionEffect};
use crate::trace::{RollMode, Trace};

/// One concealment line of the chosen corner.
#[derive(Debug, Clone, PartialEq)]
pub struct ConcealLine {
    /// Start.
    pub from: Point,
    /// End.
    pub to: Point,
    /// Whether it passes through a concealing square.
    pub concealed: bool,
}

/// The answer to a concealment question.
#[derive(Debug, Clone, PartialEq)]
pub struct ConcealmentAnswer {
    /// Degree.
    pub degree: ConcealmentDegree,
    /// Miss chance, percent (0 in 5e, which has none).
    pub miss_chance: u32,
    /// Causes found, each with its degree (several never stack: the highest applies).
    pub causes: Vec<(Cause, ConcealmentDegree)>,
    /// Senses that overrode a cause.
    pub overridden: Vec<(Sense, Cause)>,
    /// Line of effect between the two.
    pub line_of_effect: bool,
    /// Line of sight between the two.
    pub line_of_sight: bool,
    /// Whether the attacker sees the target.
    pub attacker_sees_target: bool,
    /// Whether the target sees the attacker.
    pub target_sees_attacker: bool,
    /// The light the target stands in, for the attacker.
    pub target_light: Light,
    /// The light the attacker stands in.
    pub attacker_light: Light,
    /// 5e: the roll after `dnd5e.unseen`.
    pub roll_mode: RollMode,
    /// The corner used by the concealing-squares test.
    pub corner: Option<Point>,
    /// The target square used by that test.
    pub target_square: Option<Square>,
    /// That corner's lines.
    pub lines: Vec<ConcealLine>,
    /// The steps applied.
    pub trace: Trace,
}

/// Whether the question is about a melee or a ranged attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    /// Melee.
    Melee,
    /// Ranged (the default).
    Ranged,
}

fn push(trace: &mut Trace, rule: &'static str, e: VisionEffect) {
    trace.push(rule, crate::trace::Effect::Vision(e));
}

/// The light level of a square for an observer whose light radii are multiplied by `scale`
/// (PF1 low-light vision doubles them), with the source that gave it.
pub fn light_at(
    scene: &Scene<'_>,
    sq: Square,
    scale: u32,
    budget: &mut Budget,
) -> Result<(Light, Option<usize>), RulesError> {
    let grid = &scene.enc.grid;
    let idx = grid.contains(sq).then(|| sq.y as usize * grid.width as usize + sq.x as usize);
    let mut level = idx.and_then(|i| grid.light_map.get(i).copied().flatten()).unwrap_or(grid.light);
    let mut by = None;
    if level == Light::Bright {
        return Ok((level, None));
    }
    let (metric, _) = reach::metric(scene.enc);
    let centre = Point::centre(sq);
    for (i, l) in grid.lights.iter().enumerate() {
        // The distance to the source's squares (up to four).
        budget.spend(2)?;
        let near = SquareSpan::around(l.at)
            .squares()
            .map(|s| metric.between(&Space { anchor: s, side: 1 }, &Space { anchor: sq, side: 1 }))
            .min()
            .unwrap_or(i64::MAX)
            .saturating_mul(FEET_PER_SQUARE);
        let bright = i64::from(l.bright_ft).saturating_mul(i64::from(scale));
        let dim = i64::from(l.dim_ft.max(l.bright_ft)).saturating_mul(i64::from(scale));
        let reach = if near <= bright {
            Light::Bright
        } else if near <= dim {
            Light::Dim
        } else {
            continue;
        };
        if reach > level && scene.light_reaches(l.at, centre, budget)? {
            level = reach;
            by = Some(i);
            if level == Light::Bright {
                break;
            }
        }
    }
    Ok((level, by))
}

/// The light a creature stands in: its best-lit square (RULES.md Q-43).
fn creature_light(
    scene: &Scene<'_>,
    c: &Creature,
    scale: u32,
    budget: &mut Budget,
) -> Result<(Light, Option<usize>), RulesError> {
    let mut best = (Light::Darkness, None);
    for sq in scene.enc.space(c).squares() {
        let l = light_at(scene, sq, scale, budget)?;
        if l.0 > best.0 || best.1.is_none() && l.0 == best.0 && l.1.is_some() {
            best = l;
        }
        if best.0 == Light::Bright {
            break;
        }
    }
    Ok(best)
}

fn feet_between(enc: &Encounter, a: &Creature, b: &Creature) -> i64 {
    let (metric, _) = reach::metric(enc);
    metric.between(&enc.space(a), &enc.space(b)).saturating_mul(FEET_PER_SQUARE)
}

fn wholly_in(enc: &Encounter, c: &Creature, t: Terrain) -> bool {
    enc.space(c).squares().all(|sq| enc.grid.terrain(sq).has(t))
}

/// Answers a concealment question: how concealed `target` is from `attacker`.
pub fn concealment(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    attack: Attack,
    budget: &mut Budget,
) -> Result<ConcealmentAnswer, RulesError> {
    resolve(scene, attacker, target, attack, true, budget)
}

/// Concealment as an attack needs it: in PF1, SF and hb3d whether the target sees the
/// attacker changes nothing, so it is not computed (`target_sees_attacker` stays true).
pub fn concealment_for_attack(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    attack: Attack,
    budget: &mut Budget,
) -> Result<ConcealmentAnswer, RulesError> {
    resolve(scene, attacker, target, attack, false, budget)
}

fn resolve(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    attack: Attack,
    with_reverse: bool,
    budget: &mut Budget,
) -> Result<ConcealmentAnswer, RulesError> {
    let enc = scene.enc;
    let Some(pair) = Pair::new(enc, attacker, target) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    let (a, t) = (pair.a, pair.t);
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    let mut trace = Trace::default();
    let (a_space, t_space) = (enc.space(a), enc.space(t));
    let loe = scene.line_of_effect(&From::Space(a_space), &t_space, budget)?.is_some();
    let los = scene.line_of_sight(&From::Space(a_space), &t_space, budget)?.is_some();
    let mut ans = ConcealmentAnswer {
        degree: ConcealmentDegree::None,
        miss_chance: 0,
        causes: Vec::new(),
        overridden: Vec::new(),
        line_of_effect: loe,
        line_of_sight: los,
        attacker_sees_target: true,
        target_sees_attacker: true,
        target_light: Light::Bright,
        attacker_light: Light::Bright,
        roll_mode: RollMode::Normal,
        corner: None,
        target_square: None,
        lines: Vec::new(),
        trace: Trace::default(),
    };
    let rules = enc.ruleset.rules();
    match rules.concealment.by {
        ConcealmentBy::Unseen { rule } => {
            dnd5e(scene, &pair, rule, &mut ans, &mut trace, budget)?;
        }
        ConcealmentBy::MissChance(m) => {
            pathfinder(scene, &pair, attack, &m, &mut ans, &mut trace, budget)?;
            if with_reverse {
                // The target's view of the attacker, for completeness (it matters for 5e only).
                ans.target_sees_attacker = sees(scene, target, attacker, &mut Trace::default(), budget)?;
            }
        }
    }
    ans.trace = trace;
    Ok(ans)
}

/// Whether `observer` sees `subject`, by the 5e rules (`dnd5e.vision.light-and-darkvision`):
/// blinded, invisible, hidden, no line of sight, heavily obscured, or in darkness without
/// darkvision → unseen. Also used for "can see" conditions elsewhere.
pub fn sees(
    scene: &Scene<'_>,
    observer: usize,
    subject: usize,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    let enc = scene.enc;
    let (Some(o), Some(s)) = (enc.creatures.get(observer), enc.creatures.get(subject)) else {
        return Ok(false);
    };
    let rule = enc.ruleset.rules().concealment.light;
    let dist = feet_between(enc, o, s);
    let within = |r: u32| r > 0 && dist <= i64::from(r);
    if within(o.senses.blindsight_ft) {
        push(trace, rule, sense_for(o, s, Sense::Blindsight, Cause::Blinded));
        return Ok(true);
    }
    let unseen = |cause: Cause, trace: &mut Trace| {
        push(trace, rule, VisionEffect::Unseen { observer: o.id.clone(), subject: s.id.clone(), cause });
        false
    };
    if o.has(Condition::Blinded) {
        return Ok(unseen(Cause::Blinded, trace));
    }
    if s.has(Condition::Hidden) {
        return Ok(unseen(Cause::Hidden, trace));
    }
    if s.has(Condition::Invisible) {
        if o.senses.see_invisibility || within(o.senses.truesight_ft) {
            let sense = if o.senses.see_invisibility { Sense::SeeInvisibility } else { Sense::Truesight };
            push(trace, rule, sense_for(o, s, sense, Cause::Invisible));
        } else {
            return Ok(unseen(Cause::Invisible, trace));
        }
    }
    if scene.line_of_sight(&From::Space(enc.space(o)), &enc.space(s), budget)?.is_none() {
        return Ok(unseen(Cause::NoLineOfSight, trace));
    }
    if wholly_in(enc, s, Terrain::OPAQUE) || wholly_in(enc, o, Terrain::OPAQUE) {
        return Ok(unseen(Cause::HeavyObscurement, trace));
    }
    let (light, source) = creature_light(scene, s, 1, budget)?;
    push(trace, rule, VisionEffect::LightAt { creature: s.id.clone(), level: light, source, doubled: false });
    if light == Light::Darkness {
        if within(o.senses.darkvision_ft) {
            push(trace, rule, sense_for(o, s, Sense::Darkvision, Cause::Darkness));
        } else if within(o.senses.truesight_ft) {
            push(trace, rule, sense_for(o, s, Sense::Truesight, Cause::Darkness));
        } else {
            return Ok(unseen(Cause::Darkness, trace));
        }
    }
    Ok(true)
}

/// `observer`'s sense that lets it see `subject` despite `cause` (5e): named, as both
/// creatures of a question look at each other.
fn sense_for(observer: &Creature, subject: &Creature, sense: Sense, cause: Cause) -> VisionEffect {
    VisionEffect::SenseFor { observer: observer.id.clone(), subject: subject.id.clone(), sense, cause }
}

/// Whether `observer` can see `subject` (creature indices), by the encounter's ruleset.
pub fn can_see(
    scene: &Scene<'_>,
    observer: usize,
    subject: usize,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    sees(scene, observer, subject, &mut Trace::default(), budget)
}

/// 5e: who sees whom, the roll mode and the degree (`unseen_rule`); the light steps cite the
/// ruleset's light rule.
fn dnd5e(
    scene: &Scene<'_>,
    pair: &Pair<'_>,
    unseen_rule: &'static str,
    ans: &mut ConcealmentAnswer,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let Pair { enc, attacker, target, .. } = *pair;
    let light_rule = enc.ruleset.rules().concealment.light;
    // Each side's view of the other, with its trace step (`sees` narrates an unseen one with
    // its cause).
    let mut look = |observer: usize, subject: usize, trace: &mut Trace| -> Result<bool, RulesError> {
        let seen = sees(scene, observer, subject, trace, budget)?;
        if seen {
            push(
                trace,
                light_rule,
                VisionEffect::Sees {
                    observer: enc.creatures[observer].id.clone(),
                    subject: enc.creatures[subject].id.clone(),
                    sees: true,
                },
            );
        }
        Ok(seen)
    };
    ans.attacker_sees_target = look(attacker, target, trace)?;
    ans.target_sees_attacker = look(target, attacker, trace)?;
    ans.target_light = creature_light(scene, &enc.creatures[target], 1, budget)?.0;
    ans.attacker_light = creature_light(scene, &enc.creatures[attacker], 1, budget)?.0;
    let (adv, dis) = (usize::from(!ans.target_sees_attacker), usize::from(!ans.attacker_sees_target));
    ans.roll_mode = RollMode::combine(adv, dis);
    if adv + dis > 0 {
        trace.push(
            unseen_rule,
            crate::trace::AttackEffect::AdvantageCombined {
                advantage: adv,
                disadvantage: dis,
                result: ans.roll_mode,
            },
        );
    }
    // 5e has no miss chance: an unseen target is "total", a lightly obscured one merely noted.
    let t = &enc.creatures[target];
    let light = t.has(Condition::Invisible) || ans.target_light == Light::Dim;
    let lightly = light || enc.space(t).squares().any(|sq| enc.grid.terrain(sq).has(Terrain::CONCEALING));
    ans.degree = if !ans.attacker_sees_target {
        ConcealmentDegree::Total
    } else if lightly {
        ConcealmentDegree::Concealment
    } else {
        ConcealmentDegree::None
    };
    push(trace, unseen_rule, VisionEffect::Result { degree: ans.degree, miss_chance: 0 });
    Ok(())
}

/// The PF1 family: the causes of concealment, their degree and the miss chance (`m`); the
/// light steps cite the ruleset's light rule.
fn pathfinder(
    scene: &Scene<'_>,
    pair: &Pair<'_>,
    attack: Attack,
    m: &MissChance,
    ans: &mut ConcealmentAnswer,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let Pair { enc, a, t, .. } = *pair;
    let light_rule = enc.ruleset.rules().concealment.light;
    let (determine, miss_rule) = (m.determine, m.miss_chance);
    let adjacent = Metric::Chebyshev.between(&enc.space(a), &enc.space(t)) <= 1;

    // PF1 low-light vision doubles light radii for this observer; SF treats dim as normal.
    let scale = if a.senses.low_light_vision && m.low_light == LowLight::DoublesRadii { 2 } else { 1 };
    let (a_light, _) = creature_light(scene, a, scale, budget)?;
    let (t_light, t_source) = creature_light(scene, t, scale, budget)?;
    ans.attacker_light = a_light;
    ans.target_light = t_light;
    push(
        trace,
        light_rule,
        VisionEffect::LightAt {
            creature: t.id.clone(),
            level: t_light,
            source: t_source,
            doubled: scale > 1,
        },
    );

    let mut found = sight_causes(enc, a, t, m, light_rule, adjacent, ans);
    let concealed = concealing_squares(scene, pair, attack, adjacent, m.grazing, ans, budget)?;
    if concealed {
        let bs = within(feet_between(enc, a, t), a.senses.blindsight_ft).then_some(Sense::Blindsight);
        found.add(Cause::ConcealingSquares, ConcealmentDegree::Concealment, determine, bs);
    }
    let Causes { causes, overrides } = found;
    ans.degree = causes.iter().map(|c| c.1).max().unwrap_or(ConcealmentDegree::None);
    ans.miss_chance = match ans.degree {
        ConcealmentDegree::None => 0,
        ConcealmentDegree::Concealment => 20,
        ConcealmentDegree::Total => 50,
    };
    for (cause, degree, rule) in &causes {
        push(trace, rule, VisionEffect::Cause { cause: *cause, degree: *degree });
    }
    for (sense, cause, rule) in &overrides {
        push(trace, rule, VisionEffect::Override { sense: *sense, cause: *cause });
    }
    push(trace, miss_rule, VisionEffect::Result { degree: ans.degree, miss_chance: ans.miss_chance });
    ans.attacker_sees_target = ans.degree != ConcealmentDegree::Total;
    ans.causes = causes.iter().map(|c| (c.0, c.1)).collect();
    ans.overridden = overrides.iter().map(|o| (o.0, o.1)).collect();
    Ok(())
}

/// Whether a sense's range (0: none) reaches `dist` feet.
fn within(dist: i64, range_ft: u32) -> bool {
    range_ft > 0 && dist <= i64::from(range_ft)
}

/// What conceals the target from the attacker (PF1 family), each with its degree and rule,
/// and the causes a sense of the attacker sees through instead.
#[derive(Default)]
struct Causes {
    causes: Vec<(Cause, ConcealmentDegree, &'static str)>,
    overrides: Vec<(Sense, Cause, &'static str)>,
}

impl Causes {
    /// A cause, or (when `sense` sees through it) an override.
    fn add(&mut self, cause: Cause, degree: ConcealmentDegree, rule: &'static str, sense: Option<Sense>) {
        match sense {
            Some(s) => self.overrides.push((s, cause, rule)),
            None => self.causes.push((cause, degree, rule)),
        }
    }
}

/// The causes that do not need lines: blindness, darkness, invisibility, hiding, no line of
/// sight, heavy obscurement and the light at the target (the answer's lights and lines are
/// already known).
fn sight_causes(
    enc: &Encounter,
    a: &Creature,
    t: &Creature,
    m: &MissChance,
    light_rule: &'static str,
    adjacent: bool,
    ans: &ConcealmentAnswer,
) -> Causes {
    let miss_rule = m.miss_chance;
    let dim_is_normal = m.low_light == LowLight::DimIsNormal;
    let dist = feet_between(enc, a, t);
    let within = |r: u32| within(dist, r);
    let (a_light, t_light) = (ans.attacker_light, ans.target_light);
    let mut found = Causes::default();
    let blindsight = within(a.senses.blindsight_ft);
    let bs = blindsight.then_some(Sense::Blindsight);
    let mut add = |cause: Cause, degree: ConcealmentDegree, rule: &'static str, sense: Option<Sense>| {
        found.add(cause, degree, rule, sense);
    };
    if a.has(Condition::Blinded) {
        add(Cause::Blinded, ConcealmentDegree::Total, light_rule, bs);
    }
    if a_light == Light::Darkness && a.senses.darkvision_ft == 0 {
        add(Cause::ObserverInDarkness, ConcealmentDegree::Total, light_rule, bs);
    }
    if t.has(Condition::Invisible) {
        let s = if a.senses.see_invisibility { Some(Sense::SeeInvisibility) } else { bs };
        add(Cause::Invisible, ConcealmentDegree::Total, miss_rule, s);
    }
    if t.has(Condition::Hidden) {
        add(Cause::Hidden, ConcealmentDegree::Total, miss_rule, bs);
    }
    if ans.line_of_effect && !ans.line_of_sight {
        add(Cause::NoLineOfSight, ConcealmentDegree::Total, "grid.line-of-sight", bs);
    }
    let heavy_t = wholly_in(enc, t, Terrain::OPAQUE);
    let heavy_a = wholly_in(enc, a, Terrain::OPAQUE);
    if heavy_t || heavy_a {
        let d = if adjacent { ConcealmentDegree::Concealment } else { ConcealmentDegree::Total };
        add(Cause::HeavyObscurement, d, "grid.obscured.heavy", bs);
    }
    match t_light {
        Light::Darkness => {
            let s = if within(a.senses.darkvision_ft) { Some(Sense::Darkvision) } else { bs };
            add(Cause::Darkness, ConcealmentDegree::Total, light_rule, s);
        }
        Light::Dim => {
            let s = if within(a.senses.darkvision_ft) {
                Some(Sense::Darkvision)
            } else if dim_is_normal && a.senses.low_light_vision {
                Some(Sense::LowLightVision)
            } else {
                bs
            };
            add(Cause::DimLight, ConcealmentDegree::Concealment, light_rule, s);
        }
        Light::Bright => {}
    }
    found
}

/// `pf1e.concealment.determine` / `sf1e.concealment`: ranged or non-adjacent melee → corner
/// lines through concealing squares (target's own included, attacker's excluded) from every
/// choice of corner and target square; adjacent melee → the target's whole space concealing.
fn concealing_squares(
    scene: &Scene<'_>,
    pair: &Pair<'_>,
    attack: Attack,
    adjacent: bool,
    grazing_conceals: bool,
    ans: &mut ConcealmentAnswer,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    let Pair { enc, a, t, .. } = *pair;
    let bits = Terrain::CONCEALING.0 | Terrain::OPAQUE.0;
    let concealing = |sq: Square| scene.cell(sq) & bits != 0;
    if attack == Attack::Melee && adjacent {
        return Ok(enc.space(t).squares().all(concealing));
    }
    let a_space = enc.space(a);
    let origins = scene.corners(&a_space);
    if scene.concealing_near(&a_space, &enc.space(t), budget)? == 0 {
        // No concealing square touches any of the lines: the first choice is clear.
        if let (Some(o), Some(tsq)) = (origins.first(), enc.space(t).squares().next()) {
            ans.corner = Some(o.at);
            ans.target_square = Some(tsq);
            for c in tsq.corners() {
                ans.lines.push(ConcealLine { from: o.at, to: c, concealed: false });
            }
        }
        return Ok(false);
    }
    let grazing = if grazing_conceals { Grazing::On } else { Grazing::Off };
    let squares = |sq: Square| (concealing(sq) && !a_space.contains(sq)).then_some(grazing);
    // (The cell lookup comes first: most squares are open and never reach the space test.)
    let blockers = Blockers::new(&squares, &scene.walls, NoWalls);
    let mut best: Option<(usize, Endpoint, Square, [bool; 4])> = None;
    'search: for o in &origins {
        for tsq in enc.space(t).squares() {
            let mut lines = [false; 4];
            for (line, c) in lines.iter_mut().zip(tsq.corners()) {
                let seg = Segment::between(*o, scene.endpoint(c, tsq));
                *line = blockers.is_blocked(&seg, budget).map_err(line_error)?;
            }
            let n = lines.iter().filter(|l| **l).count();
            if best.is_none_or(|b| n < b.0) {
                best = Some((n, *o, tsq, lines));
                if n == 0 {
                    break 'search;
                }
            }
        }
    }
    let Some((n, o, tsq, lines)) = best else { return Ok(false) };
    ans.corner = Some(o.at);
    ans.target_square = Some(tsq);
    for (concealed, c) in lines.into_iter().zip(tsq.corners()) {
        ans.lines.push(ConcealLine { from: o.at, to: c, concealed });
    }
    Ok(n > 0)
}
