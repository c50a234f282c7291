//! One step of a movement: whether it is allowed (terrain, walls, corners, other creatures)
//! and what it costs, per the ruleset's [`MoveRule`].

use super::drag::drag_slows;
use super::mode::{Mode, MoveOptions};
use crate::budget::Budget;
use crate::encounter::{Condition, Creature, Size, Terrain, WallKind};
use crate::error::RulesError;
use crate::grid::{Point, Space, Square};
use crate::obstruction::{barrier, meet, solid};
use crate::ruleset::{Drag, INCAPACITATED, MoveCosts, MoveRule, ThroughRule};
use crate::scene::Scene;
use crate::trace::movement::Step;
pub use crate::trace::movement::StepIssue;

/// `grid.distance.alternating` over a whole move: the first diagonal costs 5 ft, the second
/// 10 ft, and so on (RULES.md Q-10).
fn next_diagonal(count: &mut u32) -> u32 {
    *count += 1;
    if count.is_multiple_of(2) { 10 } else { 5 }
}

/// A helpless creature (PF1 family: it may be moved through, and a move may end on it).
pub(super) fn helpless(c: &Creature) -> bool {
    [Condition::Helpless, Condition::Unconscious, Condition::Paralyzed, Condition::Petrified, Condition::Dead]
        .iter()
        .any(|k| c.has(*k))
}

/// What one mover may do, step after step.
pub struct StepRules<'s, 'e> {
    scene: &'s Scene<'e>,
    mover: usize,
    rules: MoveRule,
    side: i32,
    crawling: bool,
    charging: bool,
    /// Forced movement: the path is what happened, creatures never stop it (where it ends
    /// is judged by `ends_in_occupied`).
    forced: bool,
    drag_extra: bool,
    /// Creatures that move with the mover or carry it (never in its way).
    linked: Vec<usize>,
    /// The 5e diagonal variant (`dnd5e.grid.variant-diagonals`).
    alternating: bool,
}

/// How the mover may pass another creature's space.
struct Passage {
    allowed: bool,
    difficult: bool,
    provokes: bool,
    why: &'static str,
}

impl<'s, 'e> StepRules<'s, 'e> {
    /// The rules for `mover` in `mode`.
    pub fn new(
        scene: &'s Scene<'e>,
        mover: usize,
        mode: Mode,
        options: &MoveOptions,
        crawling: bool,
    ) -> Self {
        let enc = scene.enc;
        let rules = enc.ruleset.rules().movement;
        let m = enc.creatures.get(mover);
        let mut linked: Vec<usize> = options.dragging.into_iter().collect();
        if let Some(i) = m.and_then(|c| c.mounted_on) {
            linked.push(i);
        }
        linked.extend(
            enc.creatures.iter().enumerate().filter(|(_, c)| c.mounted_on == Some(mover)).map(|(i, _)| i),
        );
        let drag_extra = matches!(rules.drag, Drag::ExtraFoot(_))
            && options.dragging.is_some_and(|d| drag_slows(enc, mover, d, rules.drag));
        let alternating = rules.costs == MoveCosts::Dnd5e
            && enc.ruleset.rules().diagonal_variant.is_some_and(|v| enc.variants.is_on(v));
        StepRules {
            scene,
            mover,
            rules,
            side: m.map_or(1, |c| enc.space(c).side),
            crawling,
            charging: mode == Mode::Charge,
            forced: mode == Mode::Forced,
            drag_extra,
            linked,
            alternating,
        }
    }

    fn passage(&self, other: &Creature) -> Passage {
        let enc = self.scene.enc;
        let Some(m) = enc.creatures.get(self.mover) else {
            return Passage { allowed: false, difficult: false, provokes: false, why: "opponent" };
        };
        let ally = other.side == m.side;
        let gap = (m.size.rank() - other.size.rank()).abs();
        let tiny = |c: &Creature| c.size.rank() <= Size::Tiny.rank();
        let (allowed, difficult, provokes, why) = match self.rules.through {
            ThroughRule::Dnd5e2014 => (ally || gap >= 2, true, false, "hostile"),
            ThroughRule::Dnd5e2024 => {
                let incapacitated = INCAPACITATED.iter().any(|k| other.has(*k));
                let easy = ally || other.size == Size::Tiny;
                (easy || incapacitated || gap >= 2, !easy, false, "hostile")
            }
            ThroughRule::Pathfinder if ally && self.charging => {
                (false, false, false, "charging_through_ally")
            }
            ThroughRule::Pathfinder if ally || helpless(other) => (true, false, false, "opponent"),
            ThroughRule::Pathfinder if tiny(m) || gap >= 3 => (true, false, true, "opponent"),
            ThroughRule::Pathfinder => (false, false, false, "opponent"),
        };
        Passage { allowed, difficult, provokes, why }
    }

    /// Evaluates the step `from` → `to` (path index `index`). Returns the step and, when it
    /// passes a creature in a way that provokes from it, that creature.
    pub fn step(
        &self,
        index: usize,
        from: Square,
        to: Square,
        diagonals: &mut u32,
        teleport: bool,
        budget: &mut Budget,
    ) -> Result<(Step, Option<usize>), RulesError> {
        let scene = self.scene;
        let enc = scene.enc;
        let (old, next) = (Space { anchor: from, side: self.side }, Space { anchor: to, side: self.side });
        let dir = ((to.x - from.x).signum(), (to.y - from.y).signum());
        let diagonal = !teleport && dir.0 != 0 && dir.1 != 0;
        let mut step = Step {
            index,
            from,
            to,
            cost_ft: 0,
            total_ft: 0,
            diagonal,
            difficult: false,
            hampered: false,
            through: None,
            legal: true,
            issue: None,
        };
        let entered: Vec<Square> = next.squares().filter(|s| teleport || !old.contains(*s)).collect();
        let mut issue = self.obstacle(&old, &entered, dir, teleport, budget)?;
        let provoker = self.creatures(&entered, teleport, &mut step, &mut issue, budget)?;
        if teleport {
            step.legal = issue.is_none();
            step.issue = issue;
            return Ok((step, None));
        }
        // Terrain costs: the space it steps into.
        let m = enc.creatures.get(self.mover);
        let swims = m.is_some_and(|c| c.swim_speed_ft.is_some_and(|s| s > 0));
        for sq in next.squares() {
            let t = scene.terrain(sq);
            if t.has(Terrain::DIFFICULT) || (t.has(Terrain::WATER) && !swims) {
                step.difficult = true;
            }
        }
        if self.rules.costs == MoveCosts::Pathfinder {
            step.hampered =
                entered.iter().any(|s| scene.terrain(*s).has(Terrain::LOW)) || self.low_wall(&old, dir);
        }
        step.cost_ft = self.cost(&step, diagonals);
        step.legal = issue.is_none();
        step.issue = issue;
        Ok((step, provoker))
    }

    /// A solid square entered, else (walking) a solid corner cut or a wall crossed.
    fn obstacle(
        &self,
        old: &Space,
        entered: &[Square],
        dir: (i32, i32),
        teleport: bool,
        budget: &mut Budget,
    ) -> Result<Option<StepIssue>, RulesError> {
        let scene = self.scene;
        let mut issue: Option<StepIssue> = None;
        for &sq in entered {
            budget.spend(1)?;
            if let Some(o) = solid(scene, sq) {
                issue.get_or_insert(o.into());
            }
        }
        if !teleport && issue.is_none() {
            issue = barrier(scene, old, dir, budget)?.map(StepIssue::from);
        }
        Ok(issue)
    }

    /// Other creatures in the squares entered: passing through them (or not), and the one it
    /// provokes from by doing so.
    fn creatures(
        &self,
        entered: &[Square],
        teleport: bool,
        step: &mut Step,
        issue: &mut Option<StepIssue>,
        budget: &mut Budget,
    ) -> Result<Option<usize>, RulesError> {
        let enc = self.scene.enc;
        let mut provoker = None;
        for (i, c) in enc.creatures.iter().enumerate() {
            budget.spend(1)?;
            if i == self.mover || self.linked.contains(&i) {
                continue;
            }
            let theirs = enc.space(c);
            let Some(&sq) = entered.iter().find(|s| theirs.contains(**s)) else { continue };
            if teleport || self.forced {
                step.through = Some(c.id.clone());
                continue; // Only where it ends matters (ends_in_occupied).
            }
            let p = self.passage(c);
            step.through = Some(c.id.clone());
            step.difficult |= p.difficult;
            if !p.allowed {
                issue.get_or_insert(StepIssue::Creature { square: sq, creature: c.id.clone(), why: p.why });
            } else if p.provokes {
                provoker = Some(i);
            }
        }
        Ok(provoker)
    }

    /// The step's cost in feet, by the ruleset's costs (counting the diagonals so far).
    fn cost(&self, step: &Step, diagonals: &mut u32) -> u32 {
        let diagonal = step.diagonal;
        match self.rules.costs {
            MoveCosts::Dnd5e => {
                let base = if diagonal && self.alternating { next_diagonal(diagonals) } else { 5 };
                base + 5 * u32::from(step.difficult)
                    + 5 * u32::from(self.crawling)
                    + 5 * u32::from(self.drag_extra)
            }
            MoveCosts::Pathfinder => {
                let base = match (diagonal, step.difficult) {
                    (true, true) => 15,
                    (true, false) => next_diagonal(diagonals),
                    (false, true) => 10,
                    (false, false) => 5,
                };
                base + 10 * u32::from(step.hampered)
            }
        }
    }

    /// Whether the step crosses a low thin wall (a hampering obstacle).
    fn low_wall(&self, old: &Space, dir: (i32, i32)) -> bool {
        let scene = self.scene;
        old.squares().any(|sq| {
            let to = Square::new(sq.x.saturating_add(dir.0), sq.y.saturating_add(dir.1));
            if old.contains(to) {
                return false;
            }
            let (a, b) = (Point::centre(sq), Point::centre(to));
            scene.enc.grid.walls.iter().enumerate().any(|(i, w)| {
                scene.wall_kind(u32::try_from(i).unwrap_or(u32::MAX)) == Some(WallKind::Low)
                    && meet(a, b, w.from, w.to)
            })
        })
    }
}
