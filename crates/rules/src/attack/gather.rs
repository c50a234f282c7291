//! Gathering every modifier of an attack from the snapshot.

use crate::budget::Budget;
use crate::cover::{self, AttackKind, CoverDegree};
use crate::encounter::{Condition, Creature, Terrain, Weapon, WeaponKind, WeaponProperty};
use crate::error::RulesError;
use crate::flanking;
use crate::grid::Metric;
use crate::pair::Pair;
use crate::range;
use crate::ruleset::{
    AttackConditions, ConcealmentBy, CoverRule, OffHand, Prone, RangedInMeleeRule, UnderwaterExempt,
};
use crate::scene::Scene;
use crate::trace::{AttackEffect, Effect, Trace};
use crate::vision::{self, Attack as SightAttack};

/// Why an attack cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAllowed {
    /// The weapon does not reach the target.
    OutOfRange,
    /// The target has total cover.
    TotalCover,
    /// A prone PF1 attacker cannot use this ranged weapon.
    ProneRanged,
    /// The off-hand attack is not allowed (weapon not light).
    OffHand,
}

impl NotAllowed {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            NotAllowed::OutOfRange => "out_of_range",
            NotAllowed::TotalCover => "total_cover",
            NotAllowed::ProneRanged => "prone_ranged",
            NotAllowed::OffHand => "off_hand_not_light",
        }
    }
}

/// Situational flags of an attack.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Situational {
    /// The attacker charged (PF1, hb3d: +2 attack, −2 AC until its next turn).
    pub charging: bool,
    /// 5e: the bonus-action attack with the other hand (`dnd5e2014.two-weapon-fighting`,
    /// `dnd5e2024.light-weapon-extra-attack`).
    pub off_hand: bool,
    /// 5e: the weapon in the other hand, checked for the Light property when given.
    pub other_weapon: Option<Weapon>,
    /// 5e: the attack ignores half and three-quarters cover (Sharpshooter, Spell Sniper).
    pub ignores_half_and_three_quarters_cover: bool,
    /// The attack ignores every cover but total cover.
    pub ignores_cover_except_total: bool,
    /// PF1, hb3d: the attacker readied a brace weapon against the target's charge (double
    /// damage).
    pub braced_against_charge: bool,
}

/// One modifier of the attack, with the rule that gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifier {
    /// Rule id.
    pub rule: &'static str,
    /// What it comes from (`cover`, `prone_target`, `condition`…).
    pub source: &'static str,
    /// A detail (the condition, the creature…).
    pub detail: Option<String>,
    /// Modifier to the attack roll.
    pub attack: i32,
    /// Modifier to the target number (AC, DEF).
    pub defence: i32,
    /// Grants advantage.
    pub advantage: bool,
    /// Imposes disadvantage.
    pub disadvantage: bool,
}

impl Modifier {
    fn new(rule: &'static str, source: &'static str) -> Modifier {
        Modifier { rule, source, detail: None, attack: 0, defence: 0, advantage: false, disadvantage: false }
    }
    fn attack(mut self, v: i32) -> Self {
        self.attack = v;
        self
    }
    fn defence(mut self, v: i32) -> Self {
        self.defence = v;
        self
    }
    fn adv(mut self) -> Self {
        self.advantage = true;
        self
    }
    fn dis(mut self) -> Self {
        self.disadvantage = true;
        self
    }
    fn detail(mut self, d: impl Into<String>) -> Self {
        self.detail = Some(d.into());
        self
    }
}

/// What the modifiers add up to.
#[derive(Debug, Default)]
pub(super) struct Gathered {
    pub modifiers: Vec<Modifier>,
    pub attack_modifier: i32,
    pub defence_modifier: i32,
    pub advantage: Vec<&'static str>,
    pub disadvantage: Vec<&'static str>,
    pub miss_chance: u32,
    pub automatic_miss: bool,
    pub automatic_critical: bool,
    pub not_allowed: Option<NotAllowed>,
}

impl Gathered {
    fn add(&mut self, m: Modifier, trace: &mut Trace) {
        self.attack_modifier = self.attack_modifier.saturating_add(m.attack);
        self.defence_modifier = self.defence_modifier.saturating_add(m.defence);
        if m.advantage {
            self.advantage.push(m.rule);
        }
        if m.disadvantage {
            self.disadvantage.push(m.rule);
        }
        trace.push(
            m.rule,
            AttackEffect::AttackModifier {
                source: m.source,
                detail: m.detail.clone(),
                attack: m.attack,
                defence: m.defence,
                advantage: m.advantage,
                disadvantage: m.disadvantage,
            },
        );
        self.modifiers.push(m);
    }
    fn forbid(&mut self, why: NotAllowed) {
        self.not_allowed.get_or_insert(why);
    }
}

fn named(w: &Weapon, names: &[&str]) -> bool {
    w.name.as_deref().is_some_and(|n| {
        let n = n.to_ascii_lowercase();
        names.iter().any(|x| n.contains(x))
    })
}

fn in_water(scene: &Scene<'_>, c: &Creature) -> bool {
    scene.enc.space(c).squares().any(|sq| scene.terrain(sq).has(Terrain::WATER))
}

pub(super) fn gather(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    weapon: &Weapon,
    sit: &Situational,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<Gathered, RulesError> {
    let enc = scene.enc;
    let pair = Pair { enc, attacker, a: &enc.creatures[attacker], target, t: &enc.creatures[target] };
    let (a, t) = (pair.a, pair.t);
    let kind = weapon.kind.unwrap_or(WeaponKind::Melee);
    let q = Asked { scene, attacker, target, weapon, sit, melee: kind == WeaponKind::Melee };
    let mut g = Gathered::default();
    let r = q.range(&mut g, trace, budget)?;
    q.cover(&mut g, trace, budget)?;
    let v = q.concealment(&mut g, trace, budget)?;
    if q.melee {
        q.flanking(&mut g, trace, budget)?;
    }
    let adjacent = Metric::Chebyshev.between(&enc.space(a), &enc.space(t)) <= 1;
    q.prone(adjacent, &mut g, trace);
    conditions(&pair, q.melee, adjacent, &v, &mut g, trace);
    q.squeezing(&mut g, trace);
    if sit.charging {
        q.charge(&mut g, trace)?;
    }
    underwater(scene, a, weapon, kind, r.distance_ft, &mut g, trace);
    off_hand(enc.ruleset.rules().attack.off_hand, weapon, kind, sit, &mut g, trace)?;
    Ok(g)
}

/// The attack being gathered, as each kind of modifier reads it.
struct Asked<'q, 's> {
    scene: &'q Scene<'s>,
    attacker: usize,
    target: usize,
    weapon: &'q Weapon,
    sit: &'q Situational,
    melee: bool,
}

impl Asked<'_, '_> {
    fn attacker(&self) -> &Creature {
        &self.scene.enc.creatures[self.attacker]
    }

    fn target(&self) -> &Creature {
        &self.scene.enc.creatures[self.target]
    }

    /// Range and reach, 5e close combat, PF1 shooting into melee.
    fn range(
        &self,
        g: &mut Gathered,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<range::RangeAnswer, RulesError> {
        let rules = self.scene.enc.ruleset.rules();
        let r = range::range(self.scene, self.attacker, self.target, self.weapon, budget)?;
        adopt(trace, &r.trace);
        if !r.allowed {
            g.forbid(NotAllowed::OutOfRange);
        }
        if r.range_modifier != 0 {
            g.add(Modifier::new(rules.range.rule(), "range").attack(r.range_modifier), trace);
        }
        for rule in &r.disadvantage_sources {
            let source = if rule.ends_with("close-combat") { "ranged_in_close_combat" } else { "long_range" };
            let mut m = Modifier::new(rule, source).dis();
            if source == "ranged_in_close_combat" {
                m = m.detail(r.close_combat_by.join(", "));
            }
            g.add(m, trace);
        }
        if let RangedInMeleeRule::IntoMelee { rule, .. } = rules.ranged_in_melee
            && r.into_melee_modifier != 0
        {
            g.add(
                Modifier::new(rule, "into_melee")
                    .attack(r.into_melee_modifier)
                    .detail(r.engaged_with.join(", ")),
                trace,
            );
        }
        Ok(r)
    }

    /// Cover: total cover forbids the attack; the rest modifies it unless ignored.
    fn cover(&self, g: &mut Gathered, trace: &mut Trace, budget: &mut Budget) -> Result<(), RulesError> {
        let (rules, sit) = (self.scene.enc.ruleset.rules(), self.sit);
        let c = cover::cover(
            self.scene,
            self.attacker,
            self.target,
            if self.melee { AttackKind::Melee } else { AttackKind::Ranged },
            Some(self.weapon),
            budget,
        )?;
        adopt(trace, &c.trace);
        if c.degree == CoverDegree::Total {
            g.forbid(NotAllowed::TotalCover);
        } else if c.degree != CoverDegree::None {
            let ignored = sit.ignores_cover_except_total
                || (sit.ignores_half_and_three_quarters_cover
                    && matches!(c.degree, CoverDegree::Half | CoverDegree::ThreeQuarters));
            let rule = match rules.cover {
                CoverRule::Dnd5e { .. } => "dnd5e.cover.degrees",
                CoverRule::Pathfinder(pc) => pc.degrees_rule,
            };
            let m = Modifier::new(rule, "cover").detail(c.degree.id());
            let m = if ignored {
                m.detail(format!("{} (ignored)", c.degree.id()))
            } else {
                // Below total cover both numbers are there.
                m.defence(c.ac_bonus.unwrap_or(0)).attack(c.attack_modifier.unwrap_or(0))
            };
            g.add(m, trace);
        }
        Ok(())
    }

    /// Concealment and sight: 5e's unseen attacker or target, the PF1 family's miss chance.
    fn concealment(
        &self,
        g: &mut Gathered,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<vision::ConcealmentAnswer, RulesError> {
        let rules = self.scene.enc.ruleset.rules();
        let v = vision::concealment_for_attack(
            self.scene,
            self.attacker,
            self.target,
            if self.melee { SightAttack::Melee } else { SightAttack::Ranged },
            budget,
        )?;
        adopt(trace, &v.trace);
        match rules.concealment.by {
            ConcealmentBy::Unseen { rule } => {
                if !v.attacker_sees_target {
                    g.add(Modifier::new(rule, "unseen_target").dis(), trace);
                }
                if !v.target_sees_attacker {
                    g.add(Modifier::new(rule, "unseen_attacker").adv(), trace);
                }
            }
            ConcealmentBy::MissChance(m) if v.miss_chance > 0 => {
                g.miss_chance = v.miss_chance;
                let detail = format!("{}% miss chance", v.miss_chance);
                g.add(Modifier::new(m.miss_chance, "concealment").detail(detail), trace);
            }
            ConcealmentBy::MissChance(_) => {}
        }
        Ok(v)
    }

    /// Flanking (melee attacks only).
    fn flanking(&self, g: &mut Gathered, trace: &mut Trace, budget: &mut Budget) -> Result<(), RulesError> {
        let enc = self.scene.enc;
        let f = flanking::flanks(self.scene, self.attacker, self.target, budget)?;
        adopt(trace, &f.trace);
        if f.flanked {
            let ids: Vec<&str> = f
                .flankers
                .iter()
                .filter_map(|x| enc.creatures.get(x.creature).map(|c| c.id.as_str()))
                .collect();
            let mut m = Modifier::new(f.rule, "flanking").detail(ids.join(", ")).attack(f.attack_bonus);
            if f.advantage {
                m = m.adv();
            }
            g.add(m, trace);
        }
        Ok(())
    }

    /// A prone attacker and a prone target.
    fn prone(&self, adjacent: bool, g: &mut Gathered, trace: &mut Trace) {
        let enc = self.scene.enc;
        let (a, t, melee) = (self.attacker(), self.target(), self.melee);
        match enc.ruleset.rules().attack.prone {
            Prone::Advantage { rule } => {
                if a.has(Condition::Prone) {
                    g.add(Modifier::new(rule, "prone_attacker").dis(), trace);
                }
                if t.has(Condition::Prone) {
                    let m = Modifier::new(rule, "prone_target");
                    g.add(if adjacent { m.adv() } else { m.dis() }, trace);
                }
            }
            Prone::Modifiers {
                rule,
                melee_attack,
                ac_vs_melee,
                ac_vs_ranged,
                ranged_only_crossbows,
                on_attack,
                scaled_variant,
            } => {
                let scaled = scaled_variant.is_some_and(|k| enc.variants.is_on(k));
                let scale = |v: i32| if scaled { v / 2 } else { v };
                if a.has(Condition::Prone) {
                    if melee {
                        g.add(Modifier::new(rule, "prone_attacker").attack(melee_attack), trace);
                    } else if ranged_only_crossbows && !named(self.weapon, &["crossbow", "shuriken"]) {
                        g.forbid(NotAllowed::ProneRanged);
                        g.add(
                            Modifier::new(rule, "prone_attacker").detail("only crossbows and shuriken"),
                            trace,
                        );
                    }
                }
                if t.has(Condition::Prone) {
                    let v = if melee { ac_vs_melee } else { ac_vs_ranged };
                    let m = Modifier::new(rule, "prone_target");
                    g.add(if on_attack { m.attack(-scale(v)) } else { m.defence(v) }, trace);
                }
            }
        }
    }

    /// Squeezing (PF1 family).
    fn squeezing(&self, g: &mut Gathered, trace: &mut Trace) {
        if let Some(sq) = self.scene.enc.ruleset.rules().attack.squeeze {
            if self.attacker().has(Condition::Squeezing) {
                g.add(Modifier::new(sq.rule, "squeezing_attacker").attack(sq.attack), trace);
            }
            if self.target().has(Condition::Squeezing) {
                g.add(Modifier::new(sq.rule, "squeezing_target").defence(sq.ac), trace);
            }
        }
    }

    /// The attacker charged: a melee attack, in a ruleset with a charge rule.
    fn charge(&self, g: &mut Gathered, trace: &mut Trace) -> Result<(), RulesError> {
        let rules = self.scene.enc.ruleset.rules();
        match rules.charge {
            Some(c) if self.melee => g.add(
                Modifier::new(c.rule, "charge")
                    .attack(c.attack_bonus)
                    .detail(format!("{:+} AC to the attacker until its next turn", c.ac_penalty)),
                trace,
            ),
            Some(_) => {
                return Err(RulesError::field("/situational/charging", "a charge ends in a melee attack"));
            }
            None => {
                return Err(RulesError::field(
                    "/situational/charging",
                    format!("{} has no charge rule here (PF1 and hb3d do)", rules.id),
                ));
            }
        }
        Ok(())
    }
}

/// The attacker's and the target's conditions: modifiers (PF1 family) or advantage (5e).
fn conditions(
    pair: &Pair<'_>,
    melee: bool,
    adjacent: bool,
    v: &vision::ConcealmentAnswer,
    g: &mut Gathered,
    trace: &mut Trace,
) {
    let Pair { enc, a, t, .. } = *pair;
    let ar = enc.ruleset.rules().attack;
    let rule = ar.conditions_rule;
    let cond = |c: Condition| Modifier::new(rule, "condition").detail(c.id());
    let flat_footed_ac = match ar.conditions {
        AttackConditions::Modifiers { flat_footed_ac } => flat_footed_ac,
        AttackConditions::Advantage => {
            dnd5e_conditions(a, t, adjacent, v, g, trace, &cond);
            return;
        }
    };
    for (c, v) in [
        (Condition::Entangled, -2),
        (Condition::Shaken, -2),
        (Condition::Frightened, -2),
        (Condition::Grappled, -2),
        (Condition::OffKilter, -2),
    ] {
        if a.has(c) {
            g.add(cond(c).attack(v), trace);
        }
    }
    // `pf1e.charge` / `hb3d.charge`: a target that charged has −2 AC (DEF) until its next turn.
    if t.has(Condition::Charged)
        && let Some(c) = enc.ruleset.rules().charge
    {
        g.add(
            Modifier::new(c.rule, "condition").detail(Condition::Charged.id()).defence(c.ac_penalty),
            trace,
        );
    }
    let dex = t.stats.dex_mod.unwrap_or(0).max(0);
    let helpless = [Condition::Helpless, Condition::Paralyzed, Condition::Unconscious, Condition::TiedUp];
    if helpless.iter().any(|c| t.has(*c)) {
        // Dexterity 0 (modifier −5) and +4 to melee attacks.
        let dex_loss = t.stats.dex_mod.unwrap_or(0).saturating_add(5).saturating_neg();
        let c = helpless.into_iter().find(|c| t.has(*c)).unwrap_or(Condition::Helpless);
        let m = cond(c).defence(dex_loss);
        g.add(if melee { m.attack(4) } else { m }, trace);
        return;
    }
    for (c, ac) in [
        (Condition::Stunned, -2),
        (Condition::Blinded, -2),
        (Condition::Cowering, -2),
        (Condition::Pinned, -4),
    ] {
        if t.has(c) {
            g.add(cond(c).defence(i32::saturating_sub(ac, dex)), trace);
        }
    }
    if t.has(Condition::FlatFooted) {
        g.add(cond(Condition::FlatFooted).defence(flat_footed_ac.unwrap_or(dex.saturating_neg())), trace);
    }
}

/// 5e: conditions give advantage or disadvantage; a hit from within 5 ft on a paralyzed or
/// unconscious creature is critical.
fn dnd5e_conditions(
    a: &Creature,
    t: &Creature,
    adjacent: bool,
    v: &vision::ConcealmentAnswer,
    g: &mut Gathered,
    trace: &mut Trace,
    cond: &dyn Fn(Condition) -> Modifier,
) {
    for c in [Condition::Poisoned, Condition::Restrained, Condition::Frightened] {
        if a.has(c) {
            g.add(cond(c).dis(), trace);
        }
    }
    for c in [
        Condition::Restrained,
        Condition::Paralyzed,
        Condition::Stunned,
        Condition::Unconscious,
        Condition::Petrified,
    ] {
        if t.has(c) {
            g.add(cond(c).adv(), trace);
        }
    }
    if t.has(Condition::Dodging) && v.target_sees_attacker {
        g.add(cond(Condition::Dodging).dis(), trace);
    }
    // A hit from within 5 ft against a paralyzed or unconscious creature is critical.
    if adjacent && (t.has(Condition::Paralyzed) || t.has(Condition::Unconscious)) {
        g.automatic_critical = true;
    }
}

fn underwater(
    scene: &Scene<'_>,
    a: &Creature,
    w: &Weapon,
    kind: WeaponKind,
    distance_ft: i64,
    g: &mut Gathered,
    trace: &mut Trace,
) {
    let enc = scene.enc;
    let Some(rule) = enc.ruleset.rules().attack.underwater else { return };
    if !(enc.environment.underwater || in_water(scene, a)) {
        return;
    }
    let named_weapons = rule.exempt == UnderwaterExempt::NamedWeapons;
    let rule = rule.rule;
    if kind == WeaponKind::Melee {
        if a.swim_speed_ft.is_some_and(|s| s > 0) {
            return;
        }
        let exempt = if named_weapons {
            named(w, &["dagger", "javelin", "shortsword", "spear", "trident"])
        } else {
            w.damage_type.as_deref().is_some_and(|d| d.eq_ignore_ascii_case("piercing"))
        };
        if !exempt {
            g.add(Modifier::new(rule, "underwater").dis(), trace);
        }
        return;
    }
    let normal = i64::from(w.normal_ft.unwrap_or(0));
    if distance_ft > normal {
        g.automatic_miss = true;
        g.add(Modifier::new(rule, "underwater").detail("beyond normal range: automatic miss"), trace);
        return;
    }
    let exempt = named_weapons
        && (named(w, &["crossbow", "net", "javelin", "spear", "trident", "dart"])
            || kind == WeaponKind::Thrown && named(w, &["javelin"]));
    if !exempt {
        g.add(Modifier::new(rule, "underwater").dis(), trace);
    }
}

fn off_hand(
    rule: Option<OffHand>,
    w: &Weapon,
    kind: WeaponKind,
    sit: &Situational,
    g: &mut Gathered,
    trace: &mut Trace,
) -> Result<(), RulesError> {
    if !sit.off_hand {
        return Ok(());
    }
    let Some(OffHand { rule, melee_only: needs_melee }) = rule else {
        return Err(RulesError::field(
            "/situational/off_hand",
            "off-hand attacks are defined here for the 5e rulesets only",
        ));
    };
    // 2014: a light melee weapon (it may be thrown); 2024: any Light weapon.
    let light = |w: &Weapon, k: Option<WeaponKind>| {
        w.has(WeaponProperty::Light)
            && (!needs_melee || k == Some(WeaponKind::Melee) || w.has(WeaponProperty::Thrown))
    };
    let ok = light(w, Some(kind)) && sit.other_weapon.as_ref().is_none_or(|o| light(o, o.kind));
    if !ok {
        g.forbid(NotAllowed::OffHand);
    }
    g.add(
        Modifier::new(rule, "off_hand").detail(if ok {
            "no ability modifier to damage unless it is negative"
        } else {
            "both weapons must have the Light property"
        }),
        trace,
    );
    Ok(())
}

/// Appends a sub-question's steps (range, cover, concealment, flanking), each fact once: not
/// its own combination of advantage and disadvantage (the attack combines every source once,
/// itself, `dnd5e.advantage.combine`), nor a step another sub-question already made (both
/// range and cover say that elevation is ignored).
fn adopt(trace: &mut Trace, sub: &Trace) {
    for s in &sub.steps {
        let combined = matches!(s.effect, Effect::Attack(AttackEffect::AdvantageCombined { .. }));
        if !combined && !trace.steps.iter().any(|t| t.effect == s.effect) {
            trace.steps.push(s.clone());
        }
    }
}
