//! Movement along a path of squares: who gets an attack of opportunity, and at which step.
//!
//! Pathfinder, Starfinder and hb3d (`pf1e.aoo`, `hb3d.inherit-pf1e`): moving out of a
//! threatened square provokes from each enemy that threatens it, once per enemy for the whole
//! movement; a flat-footed enemy makes none, and none is made against a mover that has cover
//! (`pf1e.cover.aoo`) or total concealment from it. D&D 5e's "leaves your reach" rule is not
//! answered here yet: those rulesets get an empty list.

use crate::budget::Budget;
use crate::cover::{AttackKind, cover};
use crate::encounter::{Condition, Encounter};
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::reach;
use crate::ruleset::RulesetId;
use crate::scene::Scene;
use crate::vision::{self, Attack as SightAttack};

/// One enemy's attack of opportunity against a moving creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveOpportunity {
    /// The enemy.
    pub creature: String,
    /// Index of the step whose start square it threatens (0: leaving the start square).
    pub step: usize,
    /// The mover's anchor square it leaves there.
    pub square: Square,
    /// Whether the enemy gets the attack.
    pub provoked: bool,
    /// `leaves_threatened_square`, `flat_footed`, `cover`, `total_concealment`.
    pub reason: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// The attacks of opportunity `mover` provokes by moving its anchor along `path` (the start
/// square first, then each square entered).
pub fn opportunities_along(
    scene: &Scene<'_>,
    mover: usize,
    path: &[Square],
    budget: &mut Budget,
) -> Result<Vec<MoveOpportunity>, RulesError> {
    let enc = scene.enc;
    let Some(m) = enc.creatures.get(mover) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    if enc.ruleset.is_dnd5e() {
        return Ok(Vec::new());
    }
    let rule = if enc.ruleset == RulesetId::Hb3d { "hb3d.inherit-pf1e" } else { "pf1e.aoo" };
    let side = enc.space(m).side;
    let mut out: Vec<MoveOpportunity> = Vec::new();
    // Leaving the last square is not part of this movement.
    for (step, &sq) in path.iter().enumerate().take(path.len().saturating_sub(1)) {
        let here = Space { anchor: sq, side };
        let mut moved: Option<Encounter> = None;
        for (i, e) in enc.creatures.iter().enumerate() {
            budget.spend(1)?;
            if i == mover || e.side == m.side || out.iter().any(|o| o.creature == e.id) {
                continue;
            }
            if !reach::threatens(enc, e, &here) {
                continue;
            }
            let mk = |provoked, reason| MoveOpportunity {
                creature: e.id.clone(),
                step,
                square: sq,
                provoked,
                reason,
                rule,
            };
            if e.has(Condition::FlatFooted) {
                out.push(mk(false, "flat_footed"));
                continue;
            }
            // Cover and concealment are judged with the mover on the square it leaves.
            let at = moved.get_or_insert_with(|| {
                let mut c = enc.clone();
                if let Some(mc) = c.creatures.get_mut(mover) {
                    mc.at = sq;
                }
                c
            });
            let view = Scene::new(at, budget)?;
            let c = cover(&view, i, mover, AttackKind::Melee, e.wielding.as_ref(), budget)?;
            if c.denies_opportunity_attacks {
                let cover_rule =
                    if enc.ruleset == RulesetId::Hb3d { "hb3d.mod.cover" } else { "pf1e.cover.aoo" };
                out.push(MoveOpportunity { rule: cover_rule, ..mk(false, "cover") });
                continue;
            }
            let v = vision::concealment_for_attack(&view, i, mover, SightAttack::Melee, budget)?;
            if v.degree == vision::Degree::Total {
                out.push(mk(false, "total_concealment"));
                continue;
            }
            out.push(mk(true, "leaves_threatened_square"));
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
    // round(i·d/n) with ties toward 0 offset, in integers: ⌊(2·i·d + n − 1) / 2n⌋ for d ≥ 0.
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
    use crate::ruleset::Variants;

    fn walk(
        ruleset: RulesetId,
        creatures: Vec<Creature>,
        walls: Vec<Wall>,
        path: &[Square],
    ) -> Vec<MoveOpportunity> {
        let mut grid = Grid::open(6, 5);
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

    /// `pf1e.aoo` example: goblin (5,5), PC (6,5) moves to (6,6) → provokes even though it
    /// stays adjacent; going on to (6,7) gives that goblin no second attack.
    #[test]
    fn rules_md_goblin_example() {
        let cs = vec![
            Creature::new("pc", "party", sq(4, 2), Size::Medium),
            Creature::new("goblin", "monsters", sq(3, 2), Size::Medium),
        ];
        let got = walk(RulesetId::Pf1e, cs, Vec::new(), &[sq(4, 2), sq(4, 3), sq(4, 4)]);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].creature.as_str(), got[0].step, got[0].provoked), ("goblin", 0, true));
        assert_eq!(got[0].reason, "leaves_threatened_square");
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
        assert_eq!((got[0].provoked, got[0].reason, got[0].rule), (false, "cover", "pf1e.cover.aoo"));
    }

    /// Allies never attack; D&D 5e is not answered by this rule.
    #[test]
    fn allies_and_5e() {
        let cs = vec![
            Creature::new("pc", "party", sq(4, 2), Size::Medium),
            Creature::new("friend", "party", sq(3, 2), Size::Medium),
        ];
        assert!(walk(RulesetId::Pf1e, cs.clone(), Vec::new(), &[sq(4, 2), sq(4, 3)]).is_empty());
        let mut cs = cs;
        cs[1].side = "monsters".into();
        assert!(walk(RulesetId::Dnd5e2024, cs, Vec::new(), &[sq(4, 2), sq(4, 3)]).is_empty());
    }

    fn sq(x: i32, y: i32) -> Square {
        Square::new(x, y)
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
}
