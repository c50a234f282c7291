//! The answer to a cover question, which the procedures fill in.

use super::lines::TracedLine;
use crate::grid::{Point, Square};
use crate::trace::Trace;
use crate::trace::cover::CoverDegree;

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
    /// An answer of no cover, before a procedure fills it in.
    pub(super) fn empty(procedure: &'static str, save: SaveKind) -> CoverAnswer {
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
