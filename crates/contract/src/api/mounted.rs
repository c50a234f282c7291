//! A rider at risk of falling off its mount (5e mounted combat), as `/v1/maneuvers` and
//! `/v1/movement` answer it.

use arbiter_rules::mounted::RiderFall;
use serde::Serialize;
use utoipa::ToSchema;

use super::grid::SquareOut;

/// An exact probability.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChanceOut {
    /// Probability.
    pub p: f64,
    /// Exact fraction.
    pub exact: String,
}

/// The rider's Dexterity saving throw to stay mounted.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FallSaveOut {
    /// Always `dex`.
    pub ability: &'static str,
    /// The DC (10).
    pub dc: i32,
    /// The rider's Dexterity save bonus: `stats.saves.dex`, else `stats.dex_mod`.
    pub bonus: i32,
}

/// A rider that a push, a shove or a prone effect puts at risk of falling off its mount
/// (RULES.md `dnd5e2014.mounted`, `dnd5e2024.mounted`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RiderFallOut {
    /// The rider's id.
    pub rider: String,
    /// The mount's id.
    pub mount: String,
    /// `mount_moved` (moved against its will), `rider_prone`, `mount_prone`.
    #[schema(value_type = crate::wire::FallCauseId)]
    pub cause: &'static str,
    /// The rule applied.
    pub rule: &'static str,
    /// The save; absent when there is none (SRD 5.1: the mount knocked prone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save: Option<FallSaveOut>,
    /// SRD 5.1, mount knocked prone: the rider may use its Reaction to dismount and land on
    /// its feet; otherwise it falls prone.
    pub reaction_lands_on_feet: bool,
    /// Chance that it stays mounted once the effect happens: P(d20 + bonus ≥ DC).
    pub stays_mounted: ChanceOut,
    /// Chance that it leaves its mount, the effect's own chance included (for a maneuver,
    /// its success; for forced movement, 1).
    pub unseated: ChanceOut,
    /// The save's d20 (`mount_save` die), when the effect happened and dice were rolled or given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natural: Option<i64>,
    /// Natural + bonus.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// Whether it leaves its mount (rolled, or certain without a save).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub falls: Option<bool>,
    /// Where it lands if it falls (prone, unless by its Reaction): the free space within 5 ft
    /// of the mount nearest to the rider's space, ties in row order; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lands: Option<SquareOut>,
    /// The other free spaces within 5 ft of the mount, best first (the GM may prefer one).
    pub alternatives: Vec<SquareOut>,
}

/// The wire form of the riders at risk.
pub fn rider_falls_out(falls: &[RiderFall]) -> Vec<RiderFallOut> {
    falls
        .iter()
        .map(|f| RiderFallOut {
            rider: f.rider.clone(),
            mount: f.mount.clone(),
            cause: f.cause.id(),
            rule: f.rule,
            save: f.dc.zip(f.bonus).map(|(dc, bonus)| FallSaveOut { ability: "dex", dc, bonus }),
            reaction_lands_on_feet: f.reaction,
            stays_mounted: ChanceOut { p: f.stays.to_f64(), exact: f.stays.to_string() },
            unseated: ChanceOut { p: f.unseated.to_f64(), exact: f.unseated.to_string() },
            natural: f.natural,
            total: f.total,
            falls: f.falls,
            lands: f.lands.map(SquareOut::from),
            alternatives: f.alternatives.iter().copied().map(SquareOut::from).collect(),
        })
        .collect()
}
