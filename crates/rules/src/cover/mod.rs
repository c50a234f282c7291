//! Cover (`/v1/cover`): how much a target is covered against an attacker, and why.
//!
//! Every corner-to-corner line is traced once against the widest blocking set (terrain,
//! walls, other creatures); each ruleset then decides which of the elements met count
//! (low obstacles within 30 ft, creatures only against ranged attacks, "hard" blockers for the
//! 5e cap…). [`dnd5e`] counts blocked lines; [`pathfinder`] (PF1, SF, hb3d) needs one.

mod dnd5e;
mod lines;
mod pathfinder;

use crate::budget::Budget;
use crate::encounter::{Encounter, Weapon};
use crate::error::RulesError;
use crate::grid::{Point, Space, Square};
use crate::ruleset::CoverRule;
use crate::scene::{From, Scene};
use crate::trace::{CoverEffect, GridEffect, Trace};

pub use crate::trace::cover::CoverDegree;
pub use lines::{CountedHit, ElementKind, HitCase, TracedLine};

/// What kind of attack or effect the cover is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackKind {
    /// A melee attack (reach from the attacker's weapon or natural reach).
    Melee,
    /// A ranged attack.
    Ranged,
    /// An area effect from a point of origin; `spread` effects go around corners (PF1/SF:
    /// no Reflex bonus).
    Area {
        /// Point of origin.
        origin: Point,
        /// The effect is a spread.
        spread: bool,
    },
}

/// Which saving throw the cover bonus applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveKind {
    /// 5e Dexterity saving throws.
    Dex,
    /// PF1/SF/hb3d Reflex saves.
    Reflex,
}

/// The answer to a cover question.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverAnswer {
    /// The degree of cover.
    pub degree: CoverDegree,
    /// The cover comes from creatures only (PF1/SF soft cover, 5e creature cover).
    pub soft: bool,
    /// Bonus to AC; `None` under total cover, which has none: the target cannot be targeted.
    pub ac_bonus: Option<i32>,
    /// Bonus to the saving throw `save` against effects from the far side; `None` under total
    /// cover (the effect does not reach the target).
    pub save_bonus: Option<i32>,
    /// The saving throw that `save_bonus` applies to.
    pub save: SaveKind,
    /// hb3d: modifier to the attacker's ATT instead of an AC bonus; `None` under total cover.
    pub attack_modifier: Option<i32>,
    /// Whether the target can be attacked (targeted) at all.
    pub can_be_targeted: bool,
    /// Whether the cover denies attacks of opportunity against the target.
    pub denies_opportunity_attacks: bool,
    /// Whether the cover lets the target use Stealth (hide).
    pub allows_stealth: bool,
    /// Stealth bonus from the cover (PF1 improved cover).
    pub stealth_bonus: i32,
    /// Improved evasion against Reflex saves (PF1 improved cover).
    pub improved_evasion: bool,
    /// Melee: whether some target square is within reach (RULES.md Q-37).
    pub in_reach: Option<bool>,
    /// The corner the attacker uses (the origin for an area effect).
    pub corner: Option<Point>,
    /// The attacker square that corner was taken from.
    pub attacker_square: Option<Square>,
    /// The target square aimed at.
    pub target_square: Option<Square>,
    /// The lines of the chosen corner and square, with what blocked each.
    pub lines: Vec<TracedLine>,
    /// The rule id of the procedure that decided.
    pub procedure: &'static str,
    /// The steps applied.
    pub trace: Trace,
}

impl CoverAnswer {
    fn empty(procedure: &'static str, save: SaveKind) -> CoverAnswer {
        CoverAnswer {
            degree: CoverDegree::None,
            soft: false,
            ac_bonus: Some(0),
            save_bonus: Some(0),
            save,
            attack_modifier: Some(0),
            can_be_targeted: true,
            denies_opportunity_attacks: false,
            allows_stealth: false,
            stealth_bonus: 0,
            improved_evasion: false,
            in_reach: None,
            corner: None,
            attacker_square: None,
            target_square: None,
            lines: Vec::new(),
            procedure,
            trace: Trace::default(),
        }
    }
}

/// How much of each line a cover answer describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineDetail {
    /// Every line with what it met ([`TracedLine::hits`]).
    Hits,
    /// Whether each line is blocked, with no hits: the same answer otherwise, for callers
    /// that do not show the lines (`/v1/analyze` without traces).
    Verdicts,
}

/// Answers a cover question. `weapon` sets melee reach (else the attacker's wielded weapon or
/// natural reach).
pub fn cover(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    attack: AttackKind,
    weapon: Option<&Weapon>,
    budget: &mut Budget,
) -> Result<CoverAnswer, RulesError> {
    cover_with(scene, attacker, target, attack, weapon, LineDetail::Hits, budget)
}

/// [`cover`], describing the lines as asked.
pub fn cover_with(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    attack: AttackKind,
    weapon: Option<&Weapon>,
    detail: LineDetail,
    budget: &mut Budget,
) -> Result<CoverAnswer, RulesError> {
    let enc = scene.enc;
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    check_origin(scene, attack)?;
    let rules = enc.ruleset.rules();
    let (a_space, t_space) = (enc.space(a), enc.space(t));
    let from = match attack {
        AttackKind::Area { origin, .. } => From::Point(origin),
        _ => From::Space(a_space),
    };
    let mut trace = Trace::default();
    let elevated: Vec<String> = [a, t].iter().filter(|c| c.elevation_ft != 0).map(|c| c.id.clone()).collect();
    if !elevated.is_empty() {
        trace.push("grid.line-of-effect", GridEffect::ElevationIgnored { creatures: elevated });
    }
    let explain = detail == LineDetail::Hits;
    let ctx = Context { scene, enc, attacker, a_space, t_space, attack, weapon, explain };
    // The procedure's rule, its save and its widest blocking set (grazing, creatures).
    let (empty_procedure, save, (grazing, creatures)) = match rules.cover {
        CoverRule::Dnd5e { .. } => ("dnd5e.cover.grid", SaveKind::Dex, dnd5e::WIDEST),
        CoverRule::Pathfinder(pc) => (pc.corner_lines_rule, SaveKind::Reflex, pathfinder::widest(&ctx)),
    };
    // Usually the procedure runs first: a choice with no blocked line is itself a line of
    // effect (every blocker of effect is in its blocking set), which spares the separate
    // search; its first line is walked first, and clear, it proves a line of effect. But on a
    // crowded map most pairs have no line of effect at all, and the procedure's work would be
    // thrown away; so when something that blocks effect stands near the two spaces and that
    // first line is blocked (or the scene already knows the answer, as it does for the way
    // back of a pair), the search goes first. Both orders give the same answer. (The
    // procedures also ask before explaining a covered choice, see `Context::total`.)
    let mut tracer = lines::Tracer::new(&ctx, grazing, creatures, budget)?;
    let search_first = ctx.may_be_total()
        && (scene.knows_line_of_effect(&from, &t_space)
            || (scene.obstructed_near(&a_space, &t_space, budget)? > 0
                && tracer.first_line_blocked(budget)?));
    let searched = if search_first { Some(scene.line_of_effect(&from, &t_space, budget)?) } else { None };
    let mut answer = CoverAnswer::empty(empty_procedure, save);
    let mut procedure = Trace::default();
    if searched != Some(None) {
        match rules.cover {
            CoverRule::Dnd5e { .. } => {
                dnd5e::resolve(&ctx, &mut tracer, &mut answer, &mut procedure, budget)?
            }
            CoverRule::Pathfinder(pc) => {
                pathfinder::resolve(&ctx, &pc, &mut tracer, &mut answer, &mut procedure, budget)?
            }
        }
    }
    let clear = answer.lines.iter().find(|l| !l.blocked).map(|l| (l.from, l.to));
    let loe = match (answer.degree, clear) {
        (CoverDegree::None, Some(line)) => Some(line),
        _ => scene.line_of_effect(&from, &t_space, budget)?,
    };
    trace.push(
        "grid.line-of-effect",
        CoverEffect::LineOfEffect { exists: loe.is_some(), from: loe.map(|l| l.0), to: loe.map(|l| l.1) },
    );
    if loe.is_some() {
        trace.steps.extend(procedure.steps);
        // Cite rule 7 where it blocked a chosen line.
        let lines = tracer.along_wall_lines();
        if lines > 0 {
            trace.push("grid.line.along-wall", CoverEffect::AlongWall { lines });
        }
    } else {
        let procedure = answer.procedure;
        answer = CoverAnswer::empty(procedure, answer.save);
        answer.degree = CoverDegree::Total;
    }
    match rules.cover {
        CoverRule::Dnd5e { half, three_quarters } => {
            let cap = enc.variants.is_on("dnd5e.cover.half-cap");
            dnd5e::degrees(&mut answer, half, three_quarters, cap, &mut trace)
        }
        CoverRule::Pathfinder(pc) => pathfinder::degrees(&ctx, &pc, &mut answer, &mut trace),
    }
    answer.trace = trace;
    Ok(answer)
}

/// An area's point of origin must not lie on a wall that blocks line of effect (RULES.md
/// it would reach both sides).
fn check_origin(scene: &Scene<'_>, attack: AttackKind) -> Result<(), RulesError> {
    if let AttackKind::Area { origin, .. } = attack {
        let blocking = scene.walls.walls_at(origin).any(|w| {
            matches!(
                scene.wall_kind(w.id),
                Some(
                    crate::encounter::WallKind::Solid
                        | crate::encounter::WallKind::DoorClosed
                        | crate::encounter::WallKind::Window
                )
            )
        });
        if blocking {
            return Err(RulesError::field(
                "/origin",
                "the point of origin lies on a wall that blocks line of effect",
            ));
        }
    }
    Ok(())
}

/// What every procedure needs to know about the question.
pub(crate) struct Context<'a, 'e> {
    pub scene: &'a Scene<'e>,
    pub enc: &'e Encounter,
    pub attacker: usize,
    pub a_space: Space,
    pub t_space: Space,
    pub attack: AttackKind,
    pub weapon: Option<&'a Weapon>,
    /// Lines are described with their hits.
    pub explain: bool,
}

impl Context<'_, '_> {
    /// Whether the procedure can be skipped when no line of effect exists, leaving the same
    /// answer: it must not name another procedure (the PF1 adjacent-melee test does) and its
    /// blocking set must hold every blocker of effect (the two creatures' own squares are not
    /// in it, so they must not be solid). Area effects keep the usual order.
    fn may_be_total(&self) -> bool {
        let adjacent_test =
            matches!(self.enc.ruleset.rules().cover, CoverRule::Pathfinder(pc) if pc.adjacent_melee_test);
        let own_solid = self
            .a_space
            .squares()
            .chain(self.t_space.squares())
            .any(|sq| self.scene.terrain(sq).has(crate::encounter::Terrain::SOLID));
        match self.attack {
            AttackKind::Area { .. } => false,
            AttackKind::Melee if adjacent_test => false,
            _ => !own_solid,
        }
    }

    /// Whether the answer will be total cover once the procedure has chosen a degree: then
    /// its choice is thrown away, and need not be explained (its lines traced in full, which
    /// on a crowded map is most of the work). A clear choice is itself a line of effect;
    /// otherwise the scene searches one (and remembers it for [`cover`]'s own test).
    pub fn total(&self, chosen: CoverDegree, budget: &mut Budget) -> Result<bool, RulesError> {
        if chosen == CoverDegree::None {
            return Ok(false);
        }
        let from = match self.attack {
            AttackKind::Area { origin, .. } => From::Point(origin),
            _ => From::Space(self.a_space),
        };
        Ok(self.scene.line_of_effect(&from, &self.t_space, budget)?.is_none())
    }

    /// Squares that are never in B: the attacker's and the target's own.
    pub fn own(&self, sq: Square) -> bool {
        self.t_space.contains(sq)
            || (!matches!(self.attack, AttackKind::Area { .. }) && self.a_space.contains(sq))
    }
}
