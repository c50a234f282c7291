//! The five rulesets, and the only place the rules crate names one.
//!
//! Each ruleset is one module holding a single [`Ruleset`] value: its numbers, rule ids and
//! procedures, as the knobs of `knobs.rs` (PF1, SF and hb3d share those of `pathfinder.rs`, the
//! two 5e editions those of `dnd5e.rs`). A question reads the knob it needs and never asks
//! which ruleset it is in; a test below keeps it so. Adding a sixth ruleset is one module, one
//! [`RulesetId`] variant and one wire value.

mod dnd5e;
pub mod dnd5e2014;
pub mod dnd5e2024;
pub mod hb3d;
mod knobs;
mod pathfinder;
pub mod pf1e;
pub mod sf1e;
mod table;

pub(crate) use dnd5e::INCAPACITATED;
pub use knobs::*;
pub use table::Ruleset;

/// A ruleset, as named in the encounter (`"pf1e"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RulesetId {
    /// D&D 5th edition, 2014 rules (SRD 5.1).
    Dnd5e2014,
    /// D&D 5th edition, 2024 rules (SRD 5.2).
    Dnd5e2024,
    /// Pathfinder 1st edition.
    Pf1e,
    /// Starfinder 1st edition.
    Sf1e,
    /// The French homebrew: 3d6 + mods + BBA vs DEF.
    Hb3d,
}

impl RulesetId {
    /// Every ruleset.
    pub const ALL: [RulesetId; 5] =
        [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d];

    /// The wire id.
    pub fn id(self) -> &'static str {
        self.rules().id
    }

    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<RulesetId> {
        RulesetId::ALL.into_iter().find(|r| r.id() == id)
    }

    /// Whether this is one of the two D&D 5e editions.
    pub fn is_dnd5e(self) -> bool {
        matches!(self, RulesetId::Dnd5e2014 | RulesetId::Dnd5e2024)
    }

    /// The ruleset's numbers.
    pub fn rules(self) -> &'static Ruleset {
        match self {
            RulesetId::Dnd5e2014 => &dnd5e2014::RULESET,
            RulesetId::Dnd5e2024 => &dnd5e2024::RULESET,
            RulesetId::Pf1e => &pf1e::RULESET,
            RulesetId::Sf1e => &sf1e::RULESET,
            RulesetId::Hb3d => &hb3d::RULESET,
        }
    }
}

/// The variants in force for one encounter: every default, with the request's switches applied.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Variants {
    on: Vec<&'static str>,
}

impl Variants {
    /// The defaults of a ruleset, with `switches` (key, on) applied. Keys the ruleset does not
    /// know are ignored here; validation rejects them first.
    pub fn resolve<'a>(ruleset: &Ruleset, switches: impl IntoIterator<Item = (&'a str, bool)>) -> Variants {
        let mut on: Vec<&'static str> =
            ruleset.variants.iter().filter(|v| v.default).map(|v| v.key).collect();
        for (key, value) in switches {
            if let Some(spec) = ruleset.variant(key) {
                on.retain(|k| *k != spec.key);
                if value {
                    on.push(spec.key);
                }
            }
        }
        on.sort_unstable();
        Variants { on }
    }

    /// Whether a variant is on.
    pub fn is_on(&self, key: &str) -> bool {
        self.on.contains(&key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::size::Size;

    #[test]
    fn ids_round_trip() {
        for r in RulesetId::ALL {
            assert_eq!(RulesetId::from_id(r.id()), Some(r));
        }
        assert_eq!(RulesetId::from_id("dnd5e"), None);
    }

    #[test]
    fn variants_apply_defaults_and_switches() {
        let rules = RulesetId::Dnd5e2014.rules();
        let v = Variants::resolve(rules, []);
        assert!(v.is_on("dnd5e.cover.half-cap"));
        assert!(!v.is_on("dnd5e.grid.variant-diagonals"));
        let v = Variants::resolve(
            rules,
            [("dnd5e.grid.variant-diagonals", true), ("dnd5e.cover.half-cap", false)],
        );
        assert!(v.is_on("dnd5e.grid.variant-diagonals"));
        assert!(!v.is_on("dnd5e.cover.half-cap"));
    }

    /// RULES.md `dnd5e.size.space` and `pf1e.size.table`.
    #[test]
    fn size_tables() {
        let d = RulesetId::Dnd5e2024.rules();
        assert_eq!(d.size(Size::Large).side, 2);
        assert_eq!(d.size(Size::Gargantuan).side, 4);
        assert_eq!(d.size(Size::Huge).reach_ft, 5, "5e size does not set reach");
        assert!(d.size_info(Size::Colossal).is_none());
        let p = RulesetId::Pf1e.rules();
        assert_eq!(p.size(Size::Colossal).side, 6);
        assert_eq!(p.size(Size::Huge).reach_ft, 15);
        assert_eq!(p.size(Size::Tiny).reach_ft, 0);
    }

    /// RULES.md Q-32: Starfinder maneuvers are outside the specification, so `/v1/rulesets`
    /// must not advertise them; every other ruleset answers every question.
    #[test]
    fn operations_follow_the_maneuver_knob() {
        for r in RulesetId::ALL {
            let rules = r.rules();
            assert_eq!(rules.supports("maneuvers"), rules.id != "sf1e", "{}", rules.id);
            for op in
                ["range", "cover", "concealment", "flanking", "attack", "movement", "initiative", "analyze"]
            {
                assert!(rules.supports(op), "{} {op}", rules.id);
            }
        }
        assert!(matches!(RulesetId::Sf1e.rules().maneuvers, ManeuverRule::None { .. }));
    }

    /// RULES.md `pf1e.charge` and `hb3d.charge` (+2 attack, −2 AC / DEF; hull vs centre line);
    /// 5e and SF have no charge rule.
    #[test]
    fn charge_knobs() {
        let pf = RulesetId::Pf1e.rules().charge.expect("pf1e charges");
        assert_eq!(
            (pf.rule, pf.attack_bonus, pf.ac_penalty, pf.path),
            ("pf1e.charge", 2, -2, PathTest::ConvexHull)
        );
        let hb = RulesetId::Hb3d.rules().charge.expect("hb3d charges");
        assert_eq!(
            (hb.rule, hb.attack_bonus, hb.ac_penalty, hb.path),
            ("hb3d.charge", 2, -2, PathTest::CentreLine)
        );
        for r in [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024, RulesetId::Sf1e] {
            assert_eq!(r.rules().charge, None, "{}", r.id());
        }
    }

    /// RULES.md `pf1e.flanking.geometry` / `sf1e.flanking` (+2, threat) and the 5e optional rule
    /// (adjacency, advantage, off unless switched on); hb3d inherits PF1's (`hb3d.inherit-pf1e`).
    #[test]
    fn flanking_knobs() {
        let five = RulesetId::Dnd5e2024.rules().flanking;
        assert_eq!((five.by, five.benefit), (FlankBy::Adjacency, FlankBenefit::Advantage));
        assert_eq!(five.optional_variant, Some("dnd5e.flanking.optional"));
        let sf = RulesetId::Sf1e.rules().flanking;
        assert_eq!(
            (sf.rule, sf.by, sf.benefit),
            ("sf1e.flanking", FlankBy::Threat, FlankBenefit::AttackBonus(2))
        );
        let hb = RulesetId::Hb3d.rules().flanking;
        assert_eq!((hb.rule, hb.inherited), ("pf1e.flanking.geometry", Some("hb3d.inherit-pf1e")));
    }

    /// The range rule id each ruleset cites (RULES.md `dnd5e.range.normal-long`,
    /// `pf1e.range.increment`, `sf1e.range.increment`; hb3d inherits PF1's).
    #[test]
    fn range_rule_ids() {
        let ids: Vec<&str> = RulesetId::ALL.iter().map(|r| r.rules().range.rule()).collect();
        assert_eq!(
            ids,
            [
                "dnd5e.range.normal-long",
                "dnd5e.range.normal-long",
                "pf1e.range.increment",
                "sf1e.range.increment",
                "pf1e.range.increment"
            ]
        );
    }

    /// Where a question module's source ends and its unit tests begin: tests may build an
    /// encounter in a named ruleset.
    fn code_part(source: &str) -> &str {
        source.find("#[cfg(test)]").map_or(source, |i| &source[..i])
    }

    /// The ways of naming a ruleset to pick behaviour, found in `code`: a `RulesetId` variant
    /// (`RulesetId::Pf1e`; `RulesetId::ALL` is not one), an `is_<ruleset>` predicate
    /// (`is_dnd5e()`), or a comparison with a wire id (`id == "sf1e"`).
    fn namings(code: &str) -> Vec<String> {
        let mut found = Vec::new();
        for (i, _) in code.match_indices("RulesetId::") {
            let rest = &code[i + "RulesetId::".len()..];
            let mut chars = rest.chars();
            if chars.next().is_some_and(|c| c.is_ascii_uppercase())
                && chars.next().is_some_and(|c| c.is_ascii_lowercase())
            {
                found.push(rest.chars().take_while(|c| c.is_ascii_alphanumeric()).collect::<String>());
            }
        }
        let prefixes = ["dnd", "pf", "sf", "hb", "pathfinder", "starfinder", "homebrew"];
        for (i, _) in code.match_indices("is_") {
            let name: String =
                code[i + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let word_start =
                code[..i].chars().next_back().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            if word_start && prefixes.iter().any(|p| name.starts_with(p)) {
                found.push(format!("is_{name}"));
            }
        }
        for r in RulesetId::ALL {
            for pattern in [format!("== \"{}\"", r.id()), format!("\"{}\" ==", r.id())] {
                if code.contains(&pattern) {
                    found.push(pattern);
                }
            }
        }
        found
    }

    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }

    /// Issue 12: `ruleset/` is the only place the rules crate names a ruleset. A question reads
    /// a knob of [`Ruleset`]; naming a ruleset elsewhere is how a new ruleset silently gets
    /// another's rule.
    #[test]
    fn only_the_ruleset_module_names_a_ruleset() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        assert!(files.len() > 20, "the source tree was not found under {}", src.display());
        let mut offenders = Vec::new();
        for path in &files {
            let rel = path.strip_prefix(&src).unwrap_or(path).to_string_lossy().replace('\\', "/");
            if rel.starts_with("ruleset/") {
                continue;
            }
            let source = std::fs::read_to_string(path).unwrap_or_default();
            for naming in namings(code_part(&source)) {
                offenders.push(format!("{rel}: {naming}"));
            }
        }
        assert!(offenders.is_empty(), "rulesets named outside ruleset/:\n{}", offenders.join("\n"));
    }

    /// The guard sees each way of naming a ruleset, and not `RulesetId::ALL` or test code.
    #[test]
    fn the_guard_sees_each_naming() {
        assert_eq!(namings("if enc.ruleset == RulesetId::Hb3d {"), ["Hb3d"]);
        assert_eq!(namings("matches!(r, RulesetId::Pf1e | RulesetId::Sf1e)"), ["Pf1e", "Sf1e"]);
        assert_eq!(namings("if enc.ruleset.is_dnd5e() {"), ["is_dnd5e"]);
        assert_eq!(namings("if rules.id == \"sf1e\" {"), ["== \"sf1e\""]);
        assert!(namings("RulesetId::ALL.iter(); x.is_some(); this_is_pf()").is_empty());
        assert!(namings(code_part("fn f() {}\n#[cfg(test)]\nmod tests { RulesetId::Pf1e }")).is_empty());
    }
}
