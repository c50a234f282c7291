//! The rules crate's integration tests, one module per area, in one test binary: one link
//! of the crate and its dev-dependencies instead of one per file. A module's proptest
//! regressions are in `tests/proptest-regressions/<module>.txt`: with a `main.rs` above the
//! source, that is where proptest looks (and writes new ones).

mod analyze_props;
mod attack_props;
mod budget;
mod catalog;
mod common;
mod concealment_props;
mod cover;
mod cover_props;
mod damage;
mod dnd5e_choice_props;
mod extreme_props;
mod flanking;
mod flanking_props;
mod initiative_props;
mod line_props;
mod maneuver_ask;
mod maneuver_props;
mod movement_props;
mod narration;
mod range_props;
mod reach_props;
