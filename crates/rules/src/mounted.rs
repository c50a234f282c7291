//! Falling off a mount (RULES.md `dnd5e2014.mounted`, `dnd5e2024.mounted`, seed 002
//! « Chuter de monture »): when an effect moves a mount against its will, or knocks the rider
//! or its mount prone, the rider makes a DC 10 Dexterity saving throw or falls prone into a
//! free space within 5 ft of the mount. SRD 5.1 has no save when the mount is knocked prone:
//! the rider falls prone, or lands on its feet by using its Reaction.
//!
//! Where the rider lands is the GM's to say; the engine proposes the free space nearest to
//! where the rider sits (centre to centre), ties in row order (top row first, then left to
//! right), and lists the others. A moved mount throws its rider off where the mount stood,
//! so the spaces it is moved into are not free.

use crate::budget::Budget;
use crate::dice::{DiceSource, Purpose, Ratio};
use crate::encounter::{Creature, Encounter, Terrain};
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::ruleset::{MountProne, MountedRule};
use crate::scene::Scene;
use crate::trace::Trace;
pub use crate::trace::mounted::{FallCause, MountedEffect};

/// What an effect does to the creature it hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// It is moved against its will into `to` (its space after the move); `None`: it does
    /// not move (the push is blocked), which unseats nobody.
    Moved {
        /// Its space after the move.
        to: Option<Space>,
    },
    /// It is knocked prone.
    Prone,
    /// It is mounted and pushed: the push moves it only out of the saddle, if it fails its
    /// save (a GM's reading: RULES.md names the mount moved and the rider knocked prone).
    RiderPushed,
}

/// The effect, with its odds and whether it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blow {
    /// The creature hit.
    pub target: usize,
    /// What it does.
    pub hit: Hit,
    /// Chance that it happens.
    pub p: Ratio,
    /// It happened in the rolled outcome (the rider's save is rolled).
    pub happened: bool,
}

/// One rider at risk of falling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiderFall {
    /// The rider's id.
    pub rider: String,
    /// The mount's id.
    pub mount: String,
    /// Why.
    pub cause: FallCause,
    /// The rule applied.
    pub rule: &'static str,
    /// The Dexterity save's DC (none: SRD 5.1, mount knocked prone, no save).
    pub dc: Option<i32>,
    /// The rider's Dexterity save bonus (`saves.dex`, else `dex_mod`), with a save.
    pub bonus: Option<i32>,
    /// Chance that the rider stays mounted once the effect happens: P(d20 + bonus ≥ DC).
    pub stays: Ratio,
    /// Chance that the rider leaves its mount, the effect's own odds included.
    pub unseated: Ratio,
    /// SRD 5.1, mount knocked prone: its Reaction lands it on its feet instead of prone.
    pub reaction: bool,
    /// The save's d20, when rolled.
    pub natural: Option<i64>,
    /// Natural + bonus.
    pub total: Option<i64>,
    /// Rolled: whether it leaves its mount.
    pub falls: Option<bool>,
    /// Where it lands if it falls (its space's anchor); `None`: no free space within 5 ft.
    pub lands: Option<Square>,
    /// The other free spaces within 5 ft of the mount, best first.
    pub alternatives: Vec<Square>,
}

/// The riders an effect puts at risk, each with its odds, its roll when the effect happened,
/// and where it lands; their steps go to `trace`. Nothing where the ruleset has no mounted
/// combat rule.
pub fn rider_falls(
    scene: &Scene<'_>,
    blow: Blow,
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<Vec<RiderFall>, RulesError> {
    let enc = scene.enc;
    let Some(rule) = enc.ruleset.rules().mounted else { return Ok(Vec::new()) };
    let Some(t) = enc.creatures.get(blow.target) else { return Ok(Vec::new()) };
    let mut at_risk: Vec<(usize, usize, FallCause)> = Vec::new();
    match blow.hit {
        Hit::Moved { to: None } | Hit::RiderPushed => {}
        Hit::Moved { to: Some(_) } | Hit::Prone => {
            let cause = if blow.hit == Hit::Prone { FallCause::MountProne } else { FallCause::MountMoved };
            for (i, c) in enc.creatures.iter().enumerate() {
                budget.spend(1)?;
                if c.mounted_on == Some(blow.target) {
                    at_risk.push((i, blow.target, cause));
                }
            }
        }
    }
    if let (Hit::Prone | Hit::RiderPushed, Some(m)) = (blow.hit, t.mounted_on) {
        let cause = if blow.hit == Hit::Prone { FallCause::RiderProne } else { FallCause::RiderMoved };
        at_risk.push((blow.target, m, cause));
    }
    let mut taken: Vec<Space> = match blow.hit {
        Hit::Moved { to: Some(to) } => vec![to],
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    let risk = Risk { scene, rule: &rule, blow };
    for (rider, mount, cause) in at_risk {
        let fall = one(&risk, (rider, mount, cause), &taken, dice, trace, budget)?;
        if let (Some(sq), Some(r)) = (fall.lands, enc.creatures.get(rider)) {
            taken.push(Space { anchor: sq, side: enc.space(r).side });
        }
        out.push(fall);
    }
    Ok(out)
}

/// Forced movement of `mover` to `end` (`/v1/movement` mode `forced`): the riders of a
/// moved mount at risk of falling, odds only (the movement question rolls no dice).
pub fn forced_move(
    scene: &Scene<'_>,
    mover: usize,
    end: Square,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<Vec<RiderFall>, RulesError> {
    let Some(m) = scene.enc.creatures.get(mover) else { return Ok(Vec::new()) };
    let to = (end != m.at).then_some(Space { anchor: end, side: scene.enc.space(m).side });
    let blow = Blow { target: mover, hit: Hit::Moved { to }, p: Ratio::ONE, happened: false };
    rider_falls(scene, blow, &mut crate::dice::OddsOnly, trace, budget)
}

/// A rider's Dexterity save bonus: its save, else its Dexterity modifier.
fn dex_save(i: usize, c: &Creature) -> Result<i32, RulesError> {
    c.stats.saves.dex.or(c.stats.dex_mod).ok_or_else(|| RulesError::MissingStat {
        pointer: format!("/encounter/creatures/{i}/stats"),
        creature: c.id.clone(),
        stat: "saves.dex",
    })
}

/// P(d20 + bonus ≥ dc): a saving throw has no automatic natural 1 or 20 in 5e.
fn p_save(bonus: i32, dc: i32) -> Ratio {
    let wins = (1..=20i64).filter(|n| n + i64::from(bonus) >= i64::from(dc)).count();
    Ratio::new(wins as u128, 20)
}

/// What puts riders at risk, the same for each of them: the scene, the ruleset's mounted
/// combat rule and the blow.
struct Risk<'q, 's> {
    scene: &'q Scene<'s>,
    rule: &'q MountedRule,
    blow: Blow,
}

/// One rider's fall from `mount` for `cause`, landing outside the spaces `taken` already.
fn one(
    risk: &Risk<'_, '_>,
    (rider, mount, cause): (usize, usize, FallCause),
    taken: &[Space],
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<RiderFall, RulesError> {
    let (scene, rule, blow) = (risk.scene, risk.rule, risk.blow);
    let enc = scene.enc;
    let (Some(r), Some(m)) = (enc.creatures.get(rider), enc.creatures.get(mount)) else {
        return Err(RulesError::field("/encounter/creatures", "no such creature"));
    };
    let reaction = cause == FallCause::MountProne && rule.mount_prone == MountProne::ReactionOrFall;
    let (dc, bonus) = if reaction { (None, None) } else { (Some(rule.fall_dc), Some(dex_save(rider, r)?)) };
    let stays = match (dc, bonus) {
        (Some(dc), Some(b)) => p_save(b, dc),
        _ => Ratio::ZERO,
    };
    let unseated = blow.p.times(stays.complement());
    let mut fall = RiderFall {
        rider: r.id.clone(),
        mount: m.id.clone(),
        cause,
        rule: rule.rule,
        dc,
        bonus,
        stays,
        unseated,
        reaction,
        natural: None,
        total: None,
        falls: None,
        lands: None,
        alternatives: Vec::new(),
    };
    trace.push(
        rule.rule,
        MountedEffect::Fall {
            rider: fall.rider.clone(),
            mount: fall.mount.clone(),
            cause,
            dc,
            bonus,
            stays,
            reaction,
            falls: unseated,
        },
    );
    if blow.happened {
        match (dc, bonus) {
            (Some(dc), Some(b)) => {
                if let Some(face) = dice.roll(&Purpose::MountSave, 20)? {
                    let (n, total) = (i64::from(face), i64::from(face) + i64::from(b));
                    let success = total >= i64::from(dc);
                    (fall.natural, fall.total, fall.falls) = (Some(n), Some(total), Some(!success));
                    trace.push(
                        rule.rule,
                        MountedEffect::SaveRolled {
                            rider: fall.rider.clone(),
                            natural: n,
                            total,
                            dc,
                            success,
                        },
                    );
                }
            }
            _ => fall.falls = Some(true),
        }
    }
    let mut free = landing(scene, rider, enc.space(m), taken, budget)?;
    if !free.is_empty() {
        fall.lands = Some(free.remove(0));
    }
    fall.alternatives = free;
    if fall.falls != Some(false) {
        trace.push(
            rule.rule,
            MountedEffect::Lands {
                rider: fall.rider.clone(),
                square: fall.lands,
                prone: !reaction,
                alternatives: fall.alternatives.len(),
            },
        );
    }
    Ok(fall)
}

/// The free spaces within 5 ft of the mount a rider may land in, best first: nearest to the
/// rider's space (centre to centre), then row order. A free space is on the grid, not solid,
/// holds no other creature and none of `taken` (the mount's space after a push, riders who
/// landed before), and no wall that blocks movement stands between it and the mount (the
/// step from the mount's nearest square: a rider does not fall through a wall).
///
/// Nearest, not in the push's direction: the rider falls off where it sat (the mount moved
/// out from under it), and RULES.md lets it land in any free space within 5 ft; the others
/// are listed for the GM.
fn landing(
    scene: &Scene<'_>,
    rider: usize,
    mount: Space,
    taken: &[Space],
    budget: &mut Budget,
) -> Result<Vec<Square>, RulesError> {
    let enc = scene.enc;
    let Some(r) = enc.creatures.get(rider) else { return Ok(Vec::new()) };
    let seat = enc.space(r);
    let side = seat.side;
    // Centres in half squares: anchor × 2 + side.
    let centre = |s: &Space| {
        (i64::from(s.anchor.x) * 2 + i64::from(s.side), i64::from(s.anchor.y) * 2 + i64::from(s.side))
    };
    let (cx, cy) = centre(&seat);
    let mut found: Vec<(i64, Square)> = Vec::new();
    for y in mount.min_y().saturating_sub(side)..=mount.max_y().saturating_add(1) {
        for x in mount.min_x().saturating_sub(side)..=mount.max_x().saturating_add(1) {
            budget.spend(1)?;
            let space = Space { anchor: Square::new(x, y), side };
            if space.overlaps(&mount) || taken.iter().any(|t| t.overlaps(&space)) {
                continue;
            }
            if space.squares().any(|sq| !enc.grid.contains(sq) || scene.terrain(sq).has(Terrain::SOLID)) {
                continue;
            }
            budget.spend(1 + crate::budget::units(enc.creatures.len()) / 4)?;
            let occupied =
                enc.creatures.iter().enumerate().any(|(i, c)| i != rider && enc.space(c).overlaps(&space));
            if occupied {
                continue;
            }
            if beyond_wall(scene, &space, &mount, budget)? {
                continue;
            }
            let (x2, y2) = centre(&space);
            found.push(((x2 - cx).pow(2) + (y2 - cy).pow(2), space.anchor));
        }
    }
    // Stable: equal distances keep the row order of the scan.
    found.sort_by_key(|(d, _)| *d);
    Ok(found.into_iter().map(|(_, sq)| sq).collect())
}

/// Whether a wall that blocks movement stands between `space` and `mount` (a landing space
/// and its mount, a dragged creature and its grappler): for each of its squares, on the step
/// from the nearest square of `mount`.
pub(crate) fn beyond_wall(
    scene: &Scene<'_>,
    space: &Space,
    mount: &Space,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    for sq in space.squares() {
        let near =
            Square::new(sq.x.clamp(mount.min_x(), mount.max_x()), sq.y.clamp(mount.min_y(), mount.max_y()));
        if near != sq && crate::obstruction::wall_between(scene, near, sq, budget)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The controlled mounts among the creatures rolling initiative (`who`), each with its rider
/// (the first in input order), and each mount's step: a controlled mount's initiative changes
/// to match its rider's, an independent one keeps its own. A controlled mount whose rider
/// does not roll is refused: it has no initiative of its own to roll.
pub fn initiative_mounts(
    enc: &Encounter,
    who: &[usize],
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<Vec<(usize, usize)>, RulesError> {
    let Some(rule) = enc.ruleset.rules().mounted else { return Ok(Vec::new()) };
    let mut out: Vec<(usize, usize)> = Vec::new();
    let scan = 1 + crate::budget::units(who.len()) / 4;
    for (r, c) in enc.creatures.iter().enumerate() {
        budget.spend(1)?;
        let Some(m) = c.mounted_on else { continue };
        budget.spend(scan)?;
        let (Some(mount), true) = (enc.creatures.get(m), who.contains(&m)) else { continue };
        let (rider, mount) = (c.id.clone(), mount.id.clone());
        if c.mount_independent {
            trace.push(rule.rule, MountedEffect::InitiativeOwn { mount, rider });
        } else if !who.contains(&r) {
            return Err(RulesError::field(
                "/creatures",
                "a controlled mount takes its rider's initiative: the rider must roll too",
            ));
        } else if !out.iter().any(|(x, _)| *x == m) {
            trace.push(rule.rule, MountedEffect::InitiativeFollows { mount, rider });
            out.push((m, r));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md: DC 10 with +2 succeeds on 8–20: 13/20; +0 on 10–20: 11/20; −1 on 11–20;
    /// +9 on any roll; −10 only on a 20, and −11 never (a save has no automatic 20).
    #[test]
    fn save_odds_follow_the_d20() {
        assert_eq!(p_save(2, 10), Ratio::new(13, 20));
        assert_eq!(p_save(0, 10), Ratio::new(11, 20));
        assert_eq!(p_save(-1, 10), Ratio::new(10, 20));
        assert_eq!(p_save(9, 10), Ratio::ONE);
        assert_eq!(p_save(-10, 10), Ratio::new(1, 20));
        assert_eq!(p_save(-11, 10), Ratio::ZERO);
    }
}
