//! The whole scene at once (`POST /v1/analyze`): for every ordered attacker → target pair of
//! opposing sides, the distance, whether the target is in the attacker's reach, cover,
//! concealment and flanking — one call per scene update, on one prepared [`Scene`] (the wall
//! index is built once and lines of sight are cached across the questions of a pair).
//!
//! "Opposing" means a different `side`. The attack used for cover and concealment is melee
//! when the target is within the reach of the weapon the attacker wields (or its natural
//! reach), ranged otherwise, unless the question fixes it. Flanking applies to melee attacks
//! only, so it is evaluated for pairs in reach.

use std::collections::HashMap;

use crate::budget::Budget;
use crate::cover::{self, AttackKind, CoverAnswer, LineDetail};
use crate::error::RulesError;
use crate::flanking::{self, FlankAnswer};
use crate::grid::FEET_PER_SQUARE;
use crate::hash::BuildFx;
use crate::reach;
use crate::scene::Scene;
pub use crate::trace::analyze::AnalyzeEffect;
use crate::trace::{Effect, Trace};
use crate::vision::{self, Attack as SightAttack, ConcealmentAnswer};

/// Work units of one pair besides its lines: its three answers, their traces and its place in
/// the answer (a pair is about 1 KiB: the pages it fills cost as much as its rules).
const PER_PAIR: u64 = 120;

/// Which attack the pairs are judged for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttackChoice {
    /// Melee when in reach, ranged otherwise.
    #[default]
    Auto,
    /// Melee for every pair.
    Melee,
    /// Ranged for every pair.
    Ranged,
}

/// The question.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnalyzeQuestion {
    /// The attackers (default: every creature).
    pub attackers: Option<Vec<usize>>,
    /// The attack judged.
    pub attack: AttackChoice,
    /// Keep each pair's trace.
    pub traces: bool,
}

/// One ordered pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// Attacker index.
    pub attacker: usize,
    /// Target index.
    pub target: usize,
    /// Distance between the spaces, feet (the ruleset's metric).
    pub distance_ft: i64,
    /// The same in squares.
    pub distance_squares: i64,
    /// The target is within the reach of the attacker's weapon (or natural reach).
    pub in_reach: bool,
    /// Melee or ranged.
    pub melee: bool,
    /// Cover of the target against the attacker.
    pub cover: CoverAnswer,
    /// Concealment of the target from the attacker.
    pub concealment: ConcealmentAnswer,
    /// Flanking, for pairs in reach.
    pub flanking: Option<FlankAnswer>,
}

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Every pair, attackers in question order, targets in encounter order.
    pub pairs: Vec<Pair>,
    /// One step per rule applied, with the number of pairs it was applied to (each pair keeps
    /// its own full traces only when asked).
    pub trace: Trace,
}

/// Analyzes every ordered pair of opposing creatures.
pub fn analyze(scene: &Scene<'_>, q: &AnalyzeQuestion, budget: &mut Budget) -> Result<Analysis, RulesError> {
    let enc = scene.enc;
    let attackers: Vec<usize> = q.attackers.clone().unwrap_or_else(|| (0..enc.creatures.len()).collect());
    let (metric, _) = reach::metric(enc);
    // The pairs are large: room for all of them at once spares copying them as they grow.
    let mut per_side: HashMap<&str, usize, BuildFx> = HashMap::default();
    for c in &enc.creatures {
        *per_side.entry(c.side.as_str()).or_default() += 1;
    }
    let opposing = |a: usize| {
        enc.creatures.get(a).map_or(0, |a| {
            enc.creatures.len().saturating_sub(per_side.get(a.side.as_str()).copied().unwrap_or(0))
        })
    };
    let mut pairs = Vec::with_capacity(attackers.iter().map(|&a| opposing(a)).sum());
    let mut applied: Vec<(&'static str, usize)> = Vec::new();
    for &ai in &attackers {
        let Some(a) = enc.creatures.get(ai) else {
            return Err(RulesError::field("/attackers", "no such creature"));
        };
        // `reach::threatens`, with the attacker's part worked out once.
        let (band, can_threaten) = (reach::band(enc, a, a.wielding.as_ref()), reach::can_threaten(enc, a));
        let from = enc.space(a);
        for (ti, t) in enc.creatures.iter().enumerate() {
            if ti == ai || t.side == a.side {
                continue;
            }
            // The pair's own work beyond its lines (three answers and their traces, the
            // rule tally); the lines are charged as they are walked.
            budget.spend(PER_PAIR)?;
            let to = enc.space(t);
            let squares = metric.between(&from, &to);
            let in_reach = can_threaten && reach::reaches(metric, &band, &from, &to);
            let melee = match q.attack {
                AttackChoice::Auto => in_reach,
                AttackChoice::Melee => true,
                AttackChoice::Ranged => false,
            };
            let kind = if melee { AttackKind::Melee } else { AttackKind::Ranged };
            // Lines are only described when the pair keeps its traces.
            let detail = if q.traces { LineDetail::Hits } else { LineDetail::Verdicts };
            let mut c = cover::cover_with(scene, ai, ti, kind, a.wielding.as_ref(), detail, budget)?;
            let sight = if melee { SightAttack::Melee } else { SightAttack::Ranged };
            // As an attack needs it: the target's view of the attacker is computed only where it
            // matters (5e).
            let mut v = vision::concealment_for_attack(scene, ai, ti, sight, budget)?;
            let mut f = if melee && in_reach { Some(flanking::flanks(scene, ai, ti, budget)?) } else { None };
            // Count each rule once per pair.
            let mut seen: Vec<&'static str> = Vec::new();
            let steps =
                c.trace.steps.iter().chain(&v.trace.steps).chain(f.iter().flat_map(|f| &f.trace.steps));
            for step in steps {
                if !seen.contains(&step.rule) {
                    seen.push(step.rule);
                    match applied.iter_mut().find(|(r, _)| *r == step.rule) {
                        Some((_, n)) => *n += 1,
                        None => applied.push((step.rule, 1)),
                    }
                }
            }
            if !q.traces {
                c.trace = Trace::default();
                c.lines.clear();
                v.trace = Trace::default();
                v.lines.clear();
                if let Some(f) = f.as_mut() {
                    f.trace = Trace::default();
                    f.threatened.clear();
                }
            }
            pairs.push(Pair {
                attacker: ai,
                target: ti,
                distance_ft: squares.saturating_mul(FEET_PER_SQUARE),
                distance_squares: squares,
                in_reach,
                melee,
                cover: c,
                concealment: v,
                flanking: f,
            });
        }
    }
    let mut trace = Trace::default();
    for (rule, n) in applied {
        trace.push(rule, Effect::Analyze(AnalyzeEffect::Applied { pairs: n }));
    }
    Ok(Analysis { pairs, trace })
}
