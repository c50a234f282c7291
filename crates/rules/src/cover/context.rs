//! What every cover procedure is asked: the kind of attack and the question's [`Context`].

use crate::budget::Budget;
use crate::encounter::{Encounter, Terrain, Weapon};
use crate::error::RulesError;
use crate::grid::{Point, Space, Square};
use crate::ruleset::CoverRule;
use crate::scene::{From, Scene};
use crate::trace::cover::CoverDegree;

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
    pub(super) fn may_be_total(&self) -> bool {
        let adjacent_test =
            matches!(self.enc.ruleset.rules().cover, CoverRule::Pathfinder(pc) if pc.adjacent_melee_test);
        let own_solid = self
            .a_space
            .squares()
            .chain(self.t_space.squares())
            .any(|sq| self.scene.terrain(sq).has(Terrain::SOLID));
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
