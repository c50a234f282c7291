//! The target's defences against each damage type: 5e resistance, vulnerability and immunity
//! (and the fire resistance of everything underwater); the PF1 family's energy resistance,
//! damage reduction, immunity and vulnerability.

use crate::encounter::{Creature, Encounter, Terrain, Weapon};
use crate::ruleset::Mitigation;
use crate::trace::{DamageEffect, Trace};
use crate::weapon_damage::Term;

/// What the defences do to one group's damage, in order: immunity, then halving or
/// subtracting, then doubling or adding half.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Applied {
    immune: bool,
    halve: bool,
    subtract: i64,
    double: bool,
    half_again: bool,
}

impl Applied {
    /// The damage after the defences (never below 0).
    pub(super) fn apply(&self, x: i64) -> i64 {
        if self.immune {
            return 0;
        }
        let mut x = x.max(0);
        if self.halve {
            x /= 2;
        }
        x = (x - self.subtract).max(0);
        if self.double {
            x = x.saturating_mul(2);
        }
        if self.half_again {
            x = x.saturating_add(x / 2);
        }
        x
    }
}

/// Bludgeoning, piercing, slashing or untyped damage: what PF1 damage reduction reduces.
pub(super) fn physical(ty: Option<&str>) -> bool {
    ty.is_none_or(|t| matches!(t, "bludgeoning" | "piercing" | "slashing"))
}

fn named(list: &[String], ty: Option<&str>) -> bool {
    ty.is_some_and(|t| list.iter().any(|x| x.eq_ignore_ascii_case(t)))
}

fn underwater(enc: &Encounter, c: &Creature) -> bool {
    enc.environment.underwater || enc.space(c).squares().any(|sq| enc.grid.terrain(sq).has(Terrain::WATER))
}

/// The defences of `target` against each group, their steps pushed.
pub(super) fn for_groups(
    enc: &Encounter,
    target: &Creature,
    weapon: &Weapon,
    terms: &[Term],
    groups: &[Vec<usize>],
    trace: &mut Trace,
) -> Vec<Applied> {
    let rules = enc.ruleset.rules();
    let d = &target.defences;
    let step = |trace: &mut Trace, rule, ty: Option<&str>, kind, amount, bypassed| {
        trace.push(
            rule,
            DamageEffect::Mitigation { damage_type: ty.map(str::to_owned), kind, amount, bypassed },
        );
    };
    let mut out = Vec::new();
    for g in groups {
        let lower = terms[g[0]].damage_type.as_ref().map(|t| t.to_lowercase());
        let ty = lower.as_deref();
        let mut a = Applied::default();
        let rule = match rules.damage.mitigation {
            Mitigation::Dnd5e { rule } | Mitigation::Pathfinder { rule } => rule,
        };
        if named(&d.immunities, ty) {
            a.immune = true;
            step(trace, rule, ty, "immunity", None, false);
            out.push(a);
            continue;
        }
        match rules.damage.mitigation {
            Mitigation::Dnd5e { rule } => {
                if named(&d.resistances, ty) {
                    a.halve = true;
                    step(trace, rule, ty, "resistance", None, false);
                } else if ty == Some("fire")
                    && underwater(enc, target)
                    && let Some(u) = rules.attack.underwater
                {
                    a.halve = true;
                    step(trace, u.rule, ty, "resistance", None, false);
                }
                if named(&d.vulnerabilities, ty) {
                    a.double = true;
                    step(trace, rule, ty, "vulnerability", None, false);
                }
            }
            Mitigation::Pathfinder { rule } => {
                if physical(ty) {
                    if let Some(dr) = &d.dr {
                        let bypassed = dr.bypassed_by.iter().any(|b| {
                            weapon.materials.iter().any(|m| m.eq_ignore_ascii_case(b))
                                || g.iter().any(|&i| {
                                    terms[i].damage_type.as_ref().is_some_and(|t| t.eq_ignore_ascii_case(b))
                                })
                        });
                        if !bypassed {
                            a.subtract = dr.amount;
                        }
                        step(trace, rule, ty, "damage_reduction", Some(dr.amount), bypassed);
                    }
                } else if let Some((_, amount)) =
                    d.energy_resistance.iter().find(|(t, _)| ty.is_some_and(|ty| t.eq_ignore_ascii_case(ty)))
                {
                    a.subtract = *amount;
                    step(trace, rule, ty, "energy_resistance", Some(*amount), false);
                }
                if named(&d.vulnerabilities, ty) {
                    a.half_again = true;
                    step(trace, rule, ty, "vulnerability", None, false);
                }
            }
        }
        out.push(a);
    }
    out
}
