//! The trace: an ordered list of typed steps, each citing the rule it applied. The server
//! renders the text (English or French) and adds the source from the [`crate::catalog`].
//!
//! The effect types live here, one module per question, below the questions that emit them:
//! a question imports its effect family from `trace`, and nothing in `trace` imports a
//! question. The small values an effect carries (a push, a charge step, an attack of
//! opportunity...) live with the effect, and the questions' answers reuse them.

pub mod analyze;
pub mod attack;
pub mod cover;
pub mod damage;
pub mod flanking;
pub mod grid;
pub mod initiative;
pub mod maneuver;
pub mod mounted;
pub mod movement;
pub mod narration;
pub mod range;
pub mod roll;
pub mod vision;

pub use analyze::AnalyzeEffect;
pub use attack::AttackEffect;
pub use cover::CoverEffect;
pub use damage::DamageEffect;
pub use flanking::FlankEffect;
pub use grid::GridEffect;
pub use initiative::{InitiativeEffect, SurpriseEffect};
pub use maneuver::ManeuverEffect;
pub use mounted::MountedEffect;
pub use movement::MoveEffect;
pub use range::{IntoMeleeExemption, RangeBand, RangeEffect};
pub use roll::RollMode;
pub use vision::VisionEffect;

/// One applied rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The RULES.md rule id.
    pub rule: &'static str,
    /// The variant that decided this step, when one did.
    pub variant: Option<&'static str>,
    /// What the rule found or changed.
    pub effect: Effect,
}

/// What a rule found: one family per question. Each family's variants carry the numbers the
/// answer and the text need.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// A space, distance or elevation fact (see [`grid`]).
    Grid(GridEffect),
    /// A reach or range band step (see [`range`]).
    Range(RangeEffect),
    /// An attack modifier, advantage or outcome step (see [`attack`]).
    Attack(AttackEffect),
    /// A line of effect or cover step (see [`cover`]).
    Cover(CoverEffect),
    /// A light, sight or concealment step (see [`vision`]).
    Vision(VisionEffect),
    /// A flanking step (see [`flanking`]).
    Flanking(FlankEffect),
    /// A combat maneuver step (see [`maneuver`]).
    Maneuver(ManeuverEffect),
    /// A movement step (see [`movement`]).
    Movement(MoveEffect),
    /// An initiative step (see [`initiative`]).
    Initiative(InitiativeEffect),
    /// A whole-scene summary step (see [`analyze`]).
    Analyze(AnalyzeEffect),
    /// A mounted combat step (see [`mounted`]).
    Mounted(MountedEffect),
    /// A damage step (see [`damage`]).
    Damage(DamageEffect),
}

/// `From<family> for Effect`, so a construction site names its family's variant only.
macro_rules! effect_from {
    ($($family:ident => $variant:ident),* $(,)?) => {
        $(impl From<$family> for Effect {
            fn from(e: $family) -> Effect {
                Effect::$variant(e)
            }
        })*
    };
}

effect_from!(
    GridEffect => Grid,
    RangeEffect => Range,
    AttackEffect => Attack,
    CoverEffect => Cover,
    VisionEffect => Vision,
    FlankEffect => Flanking,
    ManeuverEffect => Maneuver,
    MoveEffect => Movement,
    InitiativeEffect => Initiative,
    AnalyzeEffect => Analyze,
    MountedEffect => Mounted,
    DamageEffect => Damage,
);

/// An ordered list of steps.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trace {
    /// The steps, in the order the rules were applied.
    pub steps: Vec<Step>,
}

impl Trace {
    /// Appends a step.
    pub fn push(&mut self, rule: &'static str, effect: impl Into<Effect>) {
        self.steps.push(Step { rule, variant: None, effect: effect.into() });
    }

    /// Appends a step that a variant decided.
    pub fn push_variant(&mut self, rule: &'static str, variant: &'static str, effect: impl Into<Effect>) {
        self.steps.push(Step { rule, variant: Some(variant), effect: effect.into() });
    }
}

#[cfg(test)]
mod tests {
    /// The modules the trace may build on: values below every question. A question module
    /// (or any new module) is not among them, so a trace importing one fails here.
    const BELOW: [&str; 6] = ["condition", "dice", "encounter", "grid", "ruleset", "size"];

    /// The crate modules a source names through `crate::` paths, outside its unit tests.
    fn crate_paths(source: &str) -> Vec<String> {
        let code = source.find("#[cfg(test)]").map_or(source, |i| &source[..i]);
        let code: String =
            code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        code.match_indices("crate::")
            .map(|(i, _)| {
                code[i + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect()
            })
            .collect()
    }

    /// Issue 12: the trace sits below the questions it describes. Every question imports its
    /// effect family from `trace`; an import back from `trace` to a question closes a circle.
    #[test]
    fn the_trace_imports_no_question() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/trace");
        let entries: Vec<_> =
            std::fs::read_dir(&dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
        assert!(entries.len() > 5, "the trace sources were not found under {}", dir.display());
        let mut offenders = Vec::new();
        for path in entries {
            let source = std::fs::read_to_string(&path).unwrap_or_default();
            for module in crate_paths(&source) {
                if !BELOW.contains(&module.as_str()) {
                    offenders.push(format!("{}: crate::{module}", path.display()));
                }
            }
        }
        assert!(offenders.is_empty(), "the trace imports modules above it:\n{}", offenders.join("\n"));
    }

    /// The guard sees a `use` and an inline path, and not comments or test code.
    #[test]
    fn the_guard_sees_crate_paths() {
        assert_eq!(
            crate_paths("use crate::maneuver::Push;\nlet x = crate::vision::Degree::None;"),
            ["maneuver", "vision"]
        );
        assert!(crate_paths("//! see [`crate::cover`]\n/// [`crate::movement`]").is_empty());
        assert!(crate_paths("#[cfg(test)]\nmod tests { use crate::cover; }").is_empty());
    }
}
