//! Who gets an attack of opportunity against a moving creature, and at which step.
//!
//! - PF1 family (`pf1e.aoo`, `hb3d.inherit-pf1e`): leaving a threatened square provokes from
//!   each enemy that threatens it; none from a flat-footed enemy, nor against a mover that has
//!   cover (`pf1e.cover.aoo`) or total concealment from it. Standing up provokes too. A
//!   five-foot (guarded) step provokes nothing; a withdraw's first square provokes nothing from
//!   the enemies the mover sees. Without Combat Reflexes an enemy makes one attack per round,
//!   so only its first opportunity is listed.
//! - D&D 5e (`dnd5e.oa.common`): leaving the reach of a creature that can see the mover; the
//!   attack is resolved with the mover still on the square it leaves. 2014: hostile creatures
//!   only; 2024: allies are offered the reaction (never automated, Q-28). Total cover rules it
//!   out (the mover cannot be targeted).
//! - No attack at all for teleportation and forced movement (and 5e Disengage).

use crate::budget::Budget;
use crate::cover::{AttackKind, CoverDegree, cover};
use crate::encounter::{Condition, Encounter};
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::reach;
use crate::ruleset::OpportunityRule;
use crate::scene::Scene;
pub use crate::trace::movement::{MoveOpportunity, OpportunityReason};
use crate::vision::{self, Attack as SightAttack};
use OpportunityReason as Reason;

/// How the mover moves, for the opportunity rules.
#[derive(Debug, Clone, Default)]
pub struct Provocation {
    /// The mover stands up first (PF1 family: a provoking action on the start square).
    pub stands_up: bool,
    /// A withdraw (PF1 family): the start square provokes nothing from enemies the mover sees.
    pub withdraw: bool,
    /// A five-foot / guarded step: nothing provokes.
    pub short_step: bool,
    /// No attack of opportunity at all (teleport, forced movement, 5e Disengage): the reason.
    pub exempt: Option<&'static str>,
    /// Creatures whose space the mover passes through in a way that provokes from them (PF1:
    /// a Tiny mover, or three sizes apart), with the path index of the square entered.
    pub passes: Vec<(usize, usize)>,
    /// The grappled creature the mover drags along (`dnd5e2014.grapple.move`,
    /// `dnd5e2024.grapple.move`; the PF1 family's grapple move): it moves with the mover, so the
    /// mover never leaves its reach nor a square it threatens, and it attacks nothing.
    pub dragged: Option<usize>,
}

/// The attacks of opportunity `mover` provokes by walking its anchor along `path` (the start
/// square first, then each square entered).
pub fn opportunities_along(
    scene: &Scene<'_>,
    mover: usize,
    path: &[Square],
    budget: &mut Budget,
) -> Result<Vec<MoveOpportunity>, RulesError> {
    opportunities(scene, mover, path, &Provocation::default(), budget)
}

/// The attacks of opportunity of a movement.
pub fn opportunities(
    scene: &Scene<'_>,
    mover: usize,
    path: &[Square],
    how: &Provocation,
    budget: &mut Budget,
) -> Result<Vec<MoveOpportunity>, RulesError> {
    let enc = scene.enc;
    if enc.creatures.get(mover).is_none() {
        return Err(RulesError::field("/creature", "no such creature"));
    }
    if how.exempt.is_some() || how.short_step {
        return Ok(Vec::new());
    }
    match enc.ruleset.rules().movement.opportunity {
        OpportunityRule::LeavesThreatened { rule, cover_rule } => {
            pathfinder(scene, mover, path, how, rule, cover_rule, budget)
        }
        OpportunityRule::LeavesReach { trigger, allies_offered } => {
            dnd5e(scene, mover, path, how.dragged, (trigger, allies_offered), budget)
        }
    }
}

/// The encounter with the mover on `sq` (cover and sight are judged from where it stands).
fn moved_to(enc: &Encounter, mover: usize, sq: Square) -> Encounter {
    let mut c = enc.clone();
    if let Some(m) = c.creatures.get_mut(mover) {
        m.at = sq;
    }
    c
}

/// PF1 family.
fn pathfinder(
    scene: &Scene<'_>,
    mover: usize,
    path: &[Square],
    how: &Provocation,
    rule: &'static str,
    cover_rule: &'static str,
    budget: &mut Budget,
) -> Result<Vec<MoveOpportunity>, RulesError> {
    let enc = scene.enc;
    let Some(m) = enc.creatures.get(mover) else { return Ok(Vec::new()) };
    let side = enc.space(m).side;
    let mut out: Vec<MoveOpportunity> = Vec::new();
    // (path index, provoking reason): standing up on the start square, leaving each square
    // but the last, entering the space of a creature passed through.
    let mut events: Vec<(usize, Reason, Option<usize>)> = Vec::new();
    if how.stands_up {
        events.push((0, Reason::StandsUp, None));
    }
    for i in 0..path.len().saturating_sub(1) {
        events.push((i, Reason::LeavesThreatenedSquare, None));
        for &(at, c) in &how.passes {
            if at == i + 1 {
                events.push((i + 1, Reason::MovesThroughSpace, Some(c)));
            }
        }
    }
    for (step, reason, only) in events {
        let Some(&sq) = path.get(step) else { continue };
        let here = Space { anchor: sq, side };
        // The enemies that may attack here, before anything is built to judge them.
        let mut candidates: Vec<usize> = Vec::new();
        for (i, e) in enc.creatures.iter().enumerate() {
            budget.spend(1)?;
            if i == mover || how.dragged == Some(i) || e.side == m.side || only.is_some_and(|o| o != i) {
                continue;
            }
            // One attack per round (Combat Reflexes: one per opportunity; leaving several
            // threatened squares is a single opportunity).
            let reflexes = e.has_feat("combat_reflexes");
            if out.iter().any(|o| o.creature == e.id && o.provoked && (!reflexes || o.reason == reason)) {
                continue;
            }
            if only.is_none() && !reach::threatens(enc, e, &here) {
                continue;
            }
            candidates.push(i);
        }
        if candidates.is_empty() {
            continue;
        }
        // Cover and sight are judged with the mover on the square it leaves: one scene per step.
        let at = moved_to(enc, mover, sq);
        let sight = Scene::new(&at, budget)?;
        for i in candidates {
            let Some(e) = enc.creatures.get(i) else { continue };
            let mk = |provoked, why| MoveOpportunity {
                creature: e.id.clone(),
                step,
                square: sq,
                provoked,
                reason: why,
                rule,
            };
            // A reason it does not attack is listed once.
            let mut refuse = |o: MoveOpportunity| {
                if !out.iter().any(|x| x.creature == o.creature && x.reason == o.reason) {
                    out.push(o);
                }
            };
            if e.has(Condition::FlatFooted) {
                refuse(mk(false, Reason::FlatFooted));
                continue;
            }
            if how.withdraw
                && step == 0
                && reason == Reason::LeavesThreatenedSquare
                && vision::can_see(&sight, mover, i, budget)?
            {
                refuse(mk(false, Reason::Withdraw));
                continue;
            }
            let c = cover(&sight, i, mover, AttackKind::Melee, e.wielding.as_ref(), budget)?;
            if c.denies_opportunity_attacks {
                refuse(MoveOpportunity { rule: cover_rule, ..mk(false, Reason::Cover) });
                continue;
            }
            let v = vision::concealment_for_attack(&sight, i, mover, SightAttack::Melee, budget)?;
            if v.degree == vision::ConcealmentDegree::Total {
                refuse(mk(false, Reason::TotalConcealment));
                continue;
            }
            out.push(mk(true, reason));
        }
    }
    out.sort_by_key(|o| o.step);
    Ok(out)
}

/// D&D 5e: leaving the reach of a creature that sees the mover; never the reach of the
/// creature it drags, which moves with it.
fn dnd5e(
    scene: &Scene<'_>,
    mover: usize,
    path: &[Square],
    dragged: Option<usize>,
    (trigger, allies_offered): (&'static str, bool),
    budget: &mut Budget,
) -> Result<Vec<MoveOpportunity>, RulesError> {
    let enc = scene.enc;
    let Some(m) = enc.creatures.get(mover) else { return Ok(Vec::new()) };
    let side = enc.space(m).side;
    let mut out: Vec<MoveOpportunity> = Vec::new();
    for (step, pair) in path.windows(2).enumerate() {
        let [from, to] = [pair[0], pair[1]];
        let (here, there) = (Space { anchor: from, side }, Space { anchor: to, side });
        let mut candidates: Vec<usize> = Vec::new();
        for (i, e) in enc.creatures.iter().enumerate() {
            budget.spend(1)?;
            let ally = e.side == m.side;
            if i == mover
                || dragged == Some(i)
                || (ally && !allies_offered)
                || out.iter().any(|o| o.creature == e.id)
            {
                continue;
            }
            // Reach (and whether it can react at all) with the weapon it wields.
            if reach::threatens(enc, e, &here) && !reach::threatens(enc, e, &there) {
                candidates.push(i);
            }
        }
        if candidates.is_empty() {
            continue;
        }
        // The attack is made with the mover still on the square it leaves.
        let at = moved_to(enc, mover, from);
        let sight = Scene::new(&at, budget)?;
        for i in candidates {
            let Some(e) = enc.creatures.get(i) else { continue };
            if !vision::can_see(&sight, i, mover, budget)? {
                continue;
            }
            let mk = |provoked, why| MoveOpportunity {
                creature: e.id.clone(),
                step,
                square: from,
                provoked,
                reason: why,
                rule: trigger,
            };
            let c = cover(&sight, i, mover, AttackKind::Melee, e.wielding.as_ref(), budget)?;
            if c.degree == CoverDegree::Total {
                out.push(MoveOpportunity { rule: "dnd5e.cover.degrees", ..mk(false, Reason::TotalCover) });
                continue;
            }
            let ally = e.side == m.side;
            out.push(if ally { mk(false, Reason::OfferedToAlly) } else { mk(true, Reason::LeavesReach) });
        }
    }
    Ok(out)
}

/// A straight path of anchors from `from` to `to`, one king's move per step: step `i` of `n`
/// is the lattice point nearest to the exact point `i/n` of the way (ties toward `from`).
pub fn straight_path(from: Square, to: Square) -> Vec<Square> {
    let (dx, dy) = (i64::from(to.x) - i64::from(from.x), i64::from(to.y) - i64::from(from.y));
    let n = dx.abs().max(dy.abs()).min(100_000);
    if n == 0 {
        return vec![from];
    }
    // round(i·|d|/n) with ties toward 0: ⌊(2·i·|d| + n − 1) / 2n⌋.
    let near = |i: i64, d: i64| {
        let v = (2 * i * d.abs() + n - 1).div_euclid(2 * n);
        if d < 0 { -v } else { v }
    };
    (0..=n)
        .map(|i| {
            let x = i64::from(from.x) + near(i, dx);
            let y = i64::from(from.y) + near(i, dy);
            Square::new(i32::try_from(x).unwrap_or(to.x), i32::try_from(y).unwrap_or(to.y))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::{Creature, Environment, Grid, Size, Wall, WallKind};
    use crate::grid::Point;
    use crate::ruleset::{RulesetId, Variants};

    fn sq(x: i32, y: i32) -> Square {
        Square::new(x, y)
    }

    fn walk(
        ruleset: RulesetId,
        creatures: Vec<Creature>,
        walls: Vec<Wall>,
        path: &[Square],
    ) -> Vec<MoveOpportunity> {
        let mut grid = Grid::open(10, 10);
        grid.walls = walls;
        let enc = Encounter {
            ruleset,
            variants: Variants::resolve(ruleset.rules(), []),
            grid,
            environment: Environment::default(),
            creatures,
        };
        let mut budget = Budget::unlimited();
        let scene = Scene::new(&enc, &mut budget).unwrap();
        opportunities_along(&scene, 0, path, &mut budget).unwrap()
    }

    fn pc_and(other: &str, side: &str, at: Square) -> Vec<Creature> {
        vec![
            Creature::new("pc", "party", sq(6, 5), Size::Medium),
            Creature::new(other, side, at, Size::Medium),
        ]
    }

    #[test]
    fn straight_path_steps_one_square_at_a_time() {
        // M12: (0,2) → (5,1): the row, then one diagonal past the middle.
        assert_eq!(
            straight_path(sq(0, 2), sq(5, 1)),
            vec![sq(0, 2), sq(1, 2), sq(2, 2), sq(3, 1), sq(4, 1), sq(5, 1)]
        );
        assert_eq!(straight_path(sq(3, 3), sq(3, 3)), vec![sq(3, 3)]);
        assert_eq!(straight_path(sq(4, 0), sq(0, 4)), vec![sq(4, 0), sq(3, 1), sq(2, 2), sq(1, 3), sq(0, 4)]);
        // A tie (half way between two rows) stays on the start's row.
        assert_eq!(straight_path(sq(0, 0), sq(2, 1)), vec![sq(0, 0), sq(1, 0), sq(2, 1)]);
    }

    /// `pf1e.aoo` example: goblin (5,5), PC (6,5) moves to (6,6) → provokes even though it
    /// stays adjacent; going on to (6,7) gives that goblin no second attack.
    #[test]
    fn pf1e_goblin_example() {
        let got = walk(
            RulesetId::Pf1e,
            pc_and("goblin", "monsters", sq(5, 5)),
            Vec::new(),
            &[sq(6, 5), sq(6, 6), sq(6, 7)],
        );
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].creature.as_str(), got[0].step, got[0].provoked), ("goblin", 0, true));
        assert_eq!(got[0].reason.id(), "leaves_threatened_square");
    }

    /// `dnd5e.oa.common` examples: (6,5)→(6,6) stays adjacent → nothing; (6,6)→(6,7) leaves →
    /// OA with the PC on (6,6).
    #[test]
    fn dnd5e_goblin_example() {
        let got = walk(
            RulesetId::Dnd5e2014,
            pc_and("goblin", "monsters", sq(5, 5)),
            Vec::new(),
            &[sq(6, 5), sq(6, 6), sq(6, 7)],
        );
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].step, got[0].square, got[0].provoked, got[0].reason.id()),
            (1, sq(6, 6), true, "leaves_reach")
        );
        assert_eq!(got[0].rule, "dnd5e2014.oa.trigger");
    }

    /// `dnd5e.oa.common`: hobgoblin with a glaive (reach 10) at (5,5); PC (6,5)→(7,5)→(8,5):
    /// only the step (7,5)→(8,5) provokes, the PC on (7,5).
    #[test]
    fn dnd5e_reach_ten() {
        let mut cs = pc_and("hobgoblin", "monsters", sq(5, 5));
        cs[1].wielding = Some(crate::encounter::Weapon {
            name: Some("glaive".into()),
            kind: Some(crate::encounter::WeaponKind::Melee),
            properties: vec![crate::encounter::WeaponProperty::Reach],
            ..Default::default()
        });
        let got = walk(RulesetId::Dnd5e2024, cs, Vec::new(), &[sq(6, 5), sq(7, 5), sq(8, 5)]);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].step, got[0].square), (1, sq(7, 5)));
    }

    /// `dnd5e2014.oa.trigger`: an ally walking out of your reach never provokes; 2024 offers
    /// the reaction without automating it.
    #[test]
    fn allies() {
        let path = [sq(6, 5), sq(7, 5), sq(8, 5)];
        assert!(
            walk(RulesetId::Dnd5e2014, pc_and("friend", "party", sq(5, 5)), Vec::new(), &path).is_empty()
        );
        assert!(walk(RulesetId::Pf1e, pc_and("friend", "party", sq(5, 5)), Vec::new(), &path).is_empty());
        let got = walk(RulesetId::Dnd5e2024, pc_and("friend", "party", sq(5, 5)), Vec::new(), &path);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].provoked, got[0].reason.id()), (false, "offered_to_ally"));
    }

    /// `pf1e.cover.aoo`: a wall between the enemy and the square left gives cover: no attack.
    #[test]
    fn cover_denies_the_attack() {
        let cs = vec![
            Creature::new("pc", "party", sq(0, 2), Size::Medium),
            Creature::new("e", "monsters", sq(0, 1), Size::Medium),
        ];
        let wall = Wall { from: Point::lattice(0, 2), to: Point::lattice(2, 2), kind: WallKind::Solid };
        let got = walk(RulesetId::Pf1e, cs, vec![wall], &[sq(0, 2), sq(1, 3)]);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].provoked, got[0].reason.id(), got[0].rule), (false, "cover", "pf1e.cover.aoo"));
    }
}
