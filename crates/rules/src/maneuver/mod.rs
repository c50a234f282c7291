//! Combat maneuvers (`POST /v1/maneuvers`): 5e 2014 contests (`dnd5e2014.grapple.*`,
//! `dnd5e2014.shove`, `dnd5e2014.contest.tie`), 5e 2024 saves (`dnd5e2024.grapple.*`,
//! `dnd5e2024.shove`), PF1 CMB vs CMD (`pf1e.maneuver.*`) and hb3d 3d6 + CMB vs DEF
//! (`hb3d.maneuver.*`). Starfinder has none (RULES.md Q-32).
//!
//! The numbers come from the ruleset's [`ManeuverRule`](crate::ruleset::ManeuverRule) knob,
//! applied in [`numbers`]. The odds are exact: every natural roll (d20, 3d6, or a pair of d20s
//! for a contest) goes through the same outcome function as the roll itself (`outcome.rs`).
//!
//! This file only declares the parts and sends a charge to [`charge()`], everything else to
//! `resolve.rs`; the parts share the answer types of `answer.rs`, so none imports this file.
//! A whole question (charge or maneuver, then a grapple's follow-ups) is [`ask()`].

mod answer;
mod ask;
pub mod charge;
pub mod follow_up;
mod mounted;
mod numbers;
mod outcome;
pub mod push;
mod resolve;
pub mod rush;

use crate::budget::Budget;
use crate::dice::DiceSource;
use crate::error::RulesError;
use crate::scene::Scene;

pub use crate::trace::maneuver::{
    CheckKind, Illegal, Kind, ManeuverEffect, Modifier, MoveFollowUp, Opportunity, Side,
};
pub use answer::{Dropped, Effects, ManeuverAnswer, Odds, Options, OutcomeBand, ShoveChoice};
pub use ask::{Ask, Asked, GrappleDamage, ask};
pub use charge::{Charge, ChargeIllegal, ChargeOptions, ChargeStep, EndTest, Obstacle, PathTest, charge};
pub use follow_up::{GrappleMove, follow_up_move};
pub use push::{AttackerMove, AttackerMoveKind, Push, PushStop};
pub use rush::SecondaryRush;

/// Answers a maneuver.
pub fn maneuver(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    kind: Kind,
    options: &Options,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<ManeuverAnswer, RulesError> {
    // A charge checks the two creatures as the other maneuvers do, then makes its own bull
    // rush or overrun through `resolve`: the maneuver and the charge do not call each other.
    if kind == Kind::Charge {
        return charge(scene, attacker, target, &ChargeOptions::default(), options, dice, budget);
    }
    resolve::resolve(scene, attacker, target, kind, options, dice, budget)
}
