//! Foundry tokens to creatures, and the caller's overlay merged into them.
//!
//! Ids: a token's name when no other token has it; tokens sharing a name are numbered in
//! scene order (`Goblin 1`, `Goblin 2`, skipping ids already taken); a token without a usable
//! name (none, or longer than the id limit) takes its `_id`, else `token-<index>`.

use std::collections::{HashMap, HashSet};

use arbiter_rules::ruleset::RulesetId;
use arbiter_rules::size::Size;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::wire::{FoundryImportRequest, FoundryTokenIn, OverlayIn};
use super::{Frame, Origin};
use arbiter_contract::api::encounter::{ConditionIn, SensesIn, SizeIn, StatsIn};
use arbiter_contract::api::grid::SquareOut;
use arbiter_contract::error::{Issue, Text};
use arbiter_contract::limits::Limits;
use arbiter_contract::warnings::Warning;

/// A creature of the encounter made (the shape of a question's creature).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreatureOut {
    /// Unique id.
    pub id: String,
    /// Side: from the token's disposition (friendly, neutral, hostile or secret), or the
    /// overlay's.
    pub side: String,
    /// Top-left square.
    pub at: SquareOut,
    /// Size category.
    #[schema(value_type = SizeIn)]
    pub size: &'static str,
    /// Elevation, feet.
    pub elevation_ft: i64,
    /// The overlay's senses.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<SensesIn>)]
    pub senses: Option<Value>,
    /// The overlay's conditions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionIn>,
    /// The overlay's numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<StatsIn>)]
    pub stats: Option<Value>,
}

/// Which token a creature came from.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TokenOut {
    /// The creature's id in the encounter.
    pub creature: String,
    /// The token's `_id`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The token's actor (`actorId`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The token in the request (`/scene/tokens/3`).
    pub pointer: String,
    /// The overlay merged into it (`/creatures/0`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlay: Option<String>,
}

/// The creatures, their tokens and their origins, in scene order.
pub(crate) struct Made {
    pub(crate) creatures: Vec<CreatureOut>,
    pub(crate) tokens: Vec<TokenOut>,
    pub(crate) origins: Vec<Origin>,
}

/// One creature per token, each overlay merged into the tokens it names.
pub(crate) fn creatures(
    req: &FoundryImportRequest,
    ruleset: RulesetId,
    frame: &Frame,
    limits: &Limits,
    w: &mut Vec<Warning>,
) -> Result<Made, Vec<Issue>> {
    let tokens = &req.scene.tokens;
    let ids = ids(tokens, limits.max_id_bytes as usize, w);
    let overlays = overlays(req, &ids)?;
    let mut made = Made { creatures: Vec::new(), tokens: Vec::new(), origins: Vec::new() };
    let mut problems = Vec::new();
    for (j, t) in tokens.iter().enumerate() {
        let overlay = overlays[j].map(|o| (o, &req.creatures[o]));
        match creature(t, j, &ids[j], overlay, ruleset, frame, w) {
            Ok(Some(c)) => made.creatures.push(c),
            Ok(None) => continue,
            Err(issue) => {
                problems.push(issue);
                continue;
            }
        }
        made.tokens.push(TokenOut {
            creature: ids[j].clone(),
            token: t.id.clone(),
            actor: t.actor_id.clone(),
            pointer: format!("/scene/tokens/{j}"),
            overlay: overlays[j].map(|o| format!("/creatures/{o}")),
        });
        let given = overlays[j].map(|o| (o, given(&req.creatures[o])));
        made.origins.push(Origin { token: j, overlay: given });
    }
    if problems.is_empty() { Ok(made) } else { Err(problems) }
}

/// The creature fields an overlay gives.
fn given(o: &OverlayIn) -> Vec<&'static str> {
    let mut out = Vec::new();
    for (field, set) in [
        ("side", o.side.is_some()),
        ("size", o.size.is_some()),
        ("stats", o.stats.is_some()),
        ("senses", o.senses.is_some()),
        ("conditions", !o.conditions.is_empty()),
    ] {
        if set {
            out.push(field);
        }
    }
    out
}

/// The creature ids, one per token.
fn ids(tokens: &[FoundryTokenIn], max: usize, w: &mut Vec<Warning>) -> Vec<String> {
    let usable = |t: &FoundryTokenIn| {
        t.name.as_deref().map(str::trim).filter(|n| !n.is_empty() && n.len() <= max).map(str::to_owned)
    };
    let fallback = |j: usize, t: &FoundryTokenIn| {
        t.id.clone().filter(|id| !id.is_empty() && id.len() <= max).unwrap_or_else(|| format!("token-{j}"))
    };
    let base: Vec<String> =
        tokens.iter().enumerate().map(|(j, t)| usable(t).unwrap_or_else(|| fallback(j, t))).collect();
    let mut count: HashMap<&str, usize> = HashMap::new();
    for b in &base {
        *count.entry(b.as_str()).or_default() += 1;
    }
    let mut taken: HashSet<String> = base.iter().filter(|b| count[b.as_str()] == 1).cloned().collect();
    let mut next: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::with_capacity(tokens.len());
    for (j, b) in base.iter().enumerate() {
        if count[b.as_str()] == 1 {
            out.push(b.clone());
            continue;
        }
        let n = next.entry(b.as_str()).or_insert(0);
        let id = loop {
            *n += 1;
            let id = format!("{b} {n}");
            if !taken.contains(&id) {
                break id;
            }
        };
        let id = if id.len() <= max { id } else { format!("token-{j}") };
        w.push(Warning::new(
            "repeated_name",
            format!("/scene/tokens/{j}"),
            Text::new(
                format!("{} tokens are called {b:?}: this one's id is {id:?}", count[b.as_str()]),
                format!(
                    "{} jetons s'appellent « {b} » : celui-ci a pour identifiant « {id} »",
                    count[b.as_str()]
                ),
            ),
        ));
        taken.insert(id.clone());
        out.push(id);
    }
    out
}

/// The overlay of each token, by index; an overlay naming no token, or a token named by
/// two overlays, is refused.
fn overlays(req: &FoundryImportRequest, ids: &[String]) -> Result<Vec<Option<usize>>, Vec<Issue>> {
    let tokens = &req.scene.tokens;
    let mut of: Vec<Option<usize>> = vec![None; tokens.len()];
    let mut problems = Vec::new();
    for (o, overlay) in req.creatures.iter().enumerate() {
        let name = overlay.token.as_str();
        let by_id: Vec<usize> =
            (0..tokens.len()).filter(|&j| tokens[j].id.as_deref() == Some(name)).collect();
        let by_creature: Vec<usize> = (0..tokens.len()).filter(|&j| ids[j] == name).collect();
        let by_name: Vec<usize> =
            (0..tokens.len()).filter(|&j| tokens[j].name.as_deref().map(str::trim) == Some(name)).collect();
        let hits = [by_id, by_creature, by_name].into_iter().find(|h| !h.is_empty()).unwrap_or_default();
        let at = format!("/creatures/{o}/token");
        if hits.is_empty() {
            problems.push(Issue::new(
                at,
                Text::new(
                    format!("{name:?} names no token of the scene (neither a token _id, a creature id, nor a token name)"),
                    format!("« {name} » ne nomme aucun jeton de la scène (ni _id de jeton, ni identifiant de créature, ni nom de jeton)"),
                ),
            ));
            continue;
        }
        for j in hits {
            if let Some(first) = of[j] {
                problems.push(Issue::new(
                    at.clone(),
                    Text::new(
                        format!("token {:?} already takes the overlay /creatures/{first}", ids[j]),
                        format!("le jeton « {} » reçoit déjà la surcouche /creatures/{first}", ids[j]),
                    ),
                ));
            } else {
                of[j] = Some(o);
            }
        }
    }
    if problems.is_empty() { Ok(of) } else { Err(problems) }
}

/// One token's creature, its overlay merged; `None` for a token off the map.
fn creature(
    t: &FoundryTokenIn,
    j: usize,
    id: &str,
    overlay: Option<(usize, &OverlayIn)>,
    ruleset: RulesetId,
    frame: &Frame,
    w: &mut Vec<Warning>,
) -> Result<Option<CreatureOut>, Issue> {
    let at = format!("/scene/tokens/{j}");
    let (footprint, side) = footprint(t, ruleset, &at, w)?;
    let size = match overlay.and_then(|(_, o)| o.size) {
        Some(s) => s.0,
        None => footprint,
    };
    let side = if size == footprint { side } else { ruleset.rules().size(size).side };
    let Some(square) = square(t, side, size == Size::Tiny, frame, &at, w) else { return Ok(None) };
    let elevation_ft = frame.feet(t.elevation.unwrap_or(0.0));
    if elevation_ft.abs() > arbiter_contract::api::bounds::ELEVATION_FT {
        let max = arbiter_contract::api::bounds::ELEVATION_FT;
        return Err(Issue::new(
            format!("{at}/elevation"),
            Text::new(format!("comes to more than {max} ft"), format!("dépasse {max} ft")),
        ));
    }
    if t.hidden == Some(true) {
        w.push(Warning::new(
            "hidden_token",
            format!("{at}/hidden"),
            Text::new(
                "the token is hidden from the players: imported as any other (it is not given the hidden condition; the overlay may give it)",
                "le jeton est caché aux joueurs : importé comme les autres (sans l'état hidden ; la surcouche peut le lui donner)",
            ),
        ));
    }
    let side_name = disposition(t.disposition.unwrap_or(-1), &at, w);
    let mut c = CreatureOut {
        id: id.to_owned(),
        side: side_name.to_owned(),
        at: square,
        size: size.id(),
        elevation_ft,
        senses: senses(t, frame),
        conditions: Vec::new(),
        stats: None,
    };
    if let Some((_, o)) = overlay {
        merge(&mut c, o);
    }
    Ok(Some(c))
}

/// The senses a token's vision states (the overlay's replace them): darkvision from a
/// Foundry 10+ `darkvision` vision mode's range, or an older token's `dimSight` (the 5e
/// system's darkvision); blindsight, tremorsense (`feelTremor`), truesight (`seeAll`) and
/// seeing invisibility from its detection modes.
fn senses(t: &FoundryTokenIn, frame: &Frame) -> Option<Value> {
    let mut out = SensesIn::default();
    let feet = |units: Option<f64>| {
        frame.feet(units.unwrap_or(0.0)).clamp(0, arbiter_contract::api::bounds::RANGE_FT)
    };
    match &t.sight {
        Some(sight) => {
            if sight.enabled != Some(false) && sight.vision_mode.as_deref() == Some("darkvision") {
                out.darkvision_ft = feet(sight.range);
            }
        }
        None => out.darkvision_ft = feet(t.dim_sight),
    }
    for m in t.detection_modes.iter().filter(|m| m.enabled != Some(false)) {
        match m.id.as_deref() {
            Some("blindsight") => out.blindsight_ft = out.blindsight_ft.max(feet(m.range)),
            Some("feelTremor") => out.tremorsense_ft = out.tremorsense_ft.max(feet(m.range)),
            Some("seeAll") => out.truesight_ft = out.truesight_ft.max(feet(m.range)),
            Some("seeInvisibility") => out.see_invisibility = feet(m.range) > 0,
            _ => {}
        }
    }
    let value = pruned_zero(serde_json::to_value(out).ok()?);
    (!value.as_object().is_some_and(serde_json::Map::is_empty)).then_some(value)
}

/// A senses object without its zero and false fields, as a client would write it.
fn pruned_zero(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter().filter(|(_, v)| v != &Value::from(0) && v != &Value::from(false)).collect(),
        ),
        other => other,
    }
}

/// The overlay's side, senses, conditions and numbers.
fn merge(c: &mut CreatureOut, o: &OverlayIn) {
    if let Some(s) = &o.side {
        c.side = s.clone();
    }
    c.senses = o.senses.as_ref().and_then(|s| serde_json::to_value(s).ok()).map(pruned);
    c.stats = o.stats.as_ref().and_then(|s| serde_json::to_value(s).ok()).map(pruned);
    c.conditions = o.conditions.clone();
}

/// A value without its absent fields (`null`, empty lists and objects), as a client would
/// write it.
fn pruned(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k, pruned(v)))
                .filter(|(_, v)| match v {
                    Value::Null => false,
                    Value::Array(a) => !a.is_empty(),
                    Value::Object(o) => !o.is_empty(),
                    _ => true,
                })
                .collect(),
        ),
        other => other,
    }
}

/// The side of a disposition (`CONST.TOKEN_DISPOSITIONS`).
fn disposition(d: i64, at: &str, w: &mut Vec<Warning>) -> &'static str {
    match d {
        1 => "friendly",
        0 => "neutral",
        -2 => {
            w.push(Warning::new(
                "secret_disposition",
                format!("{at}/disposition"),
                Text::new(
                    "a secret disposition: the token is on a side of its own, \"secret\" (the overlay's side may say which)",
                    "une disposition secrète : le jeton est dans un camp à part, « secret » (le side de la surcouche peut dire lequel)",
                ),
            ));
            "secret"
        }
        _ => "hostile",
    }
}

/// The size a token's footprint gives in the ruleset, and its side in squares.
fn footprint(
    t: &FoundryTokenIn,
    ruleset: RulesetId,
    at: &str,
    w: &mut Vec<Warning>,
) -> Result<(Size, i32), Issue> {
    let (tw, th) = (t.width.unwrap_or(1.0), t.height.unwrap_or(1.0));
    for (field, v) in [("width", tw), ("height", th)] {
        if v <= 0.0 {
            return Err(Issue::new(
                format!("{at}/{field}"),
                Text::new(
                    "a token must be more than 0 squares wide and high",
                    "un jeton doit faire plus de 0 case de large et de haut",
                ),
            ));
        }
    }
    let rules = ruleset.rules();
    let big = tw.max(th);
    let mut warn = |en: String, fr: String| w.push(Warning::new("footprint_rounded", at, Text::new(en, fr)));
    if big < 1.0 {
        warn(
            format!("a {tw}×{th} token, smaller than a square: taken as Tiny"),
            format!("un jeton de {tw}×{th}, plus petit qu'une case : pris comme Très petit (tiny)"),
        );
        return Ok((Size::Tiny, rules.size(Size::Tiny).side));
    }
    let n = (big - 1e-9).ceil() as i32;
    let exact = rules.sizes.iter().filter(|(_, i)| i.side == n && !i.shares_square).map(|(s, _)| *s);
    let chosen = if n == 1 { Some(Size::Medium) } else { exact.max() };
    let size = chosen.unwrap_or_else(|| {
        rules
            .sizes
            .iter()
            .filter(|(_, i)| i.side >= n)
            .map(|(s, _)| *s)
            .min()
            .unwrap_or_else(|| rules.sizes.iter().map(|(s, _)| *s).max().unwrap_or(Size::Medium))
    });
    let side = rules.size(size).side;
    if tw != th || f64::from(n) != big || side != n {
        warn(
            format!("a {tw}×{th} token: taken as {} ({side}×{side} squares)", size.id()),
            format!("un jeton de {tw}×{th} : pris comme {} ({side}×{side} cases)", size.id()),
        );
    }
    Ok((size, side))
}

/// The token's top-left square: a token partly off the map is moved onto it, one wholly
/// off it (in the scene's padding, or beyond) is left out; both with a warning.
fn square(
    t: &FoundryTokenIn,
    side: i32,
    tiny: bool,
    frame: &Frame,
    at: &str,
    w: &mut Vec<Warning>,
) -> Option<SquareOut> {
    let (x, y) = frame.point(t.x, t.y);
    let (col, row) = if tiny {
        // A sub-square token: the square holding its centre.
        let (tw, th) = (t.width.unwrap_or(1.0), t.height.unwrap_or(1.0));
        ((x + tw / 2.0).floor(), (y + th / 2.0).floor())
    } else {
        (x.round(), y.round())
    };
    if !tiny && ((x - col).abs() > 1e-6 || (y - row).abs() > 1e-6) {
        w.push(Warning::new(
            "token_off_grid",
            at,
            Text::new(
                format!("the token is not on the grid (at square {x}, {y}): moved to the nearest square, ({col}, {row})"),
                format!("le jeton n'est pas sur la grille (à la case {x}, {y}) : placé sur la case la plus proche, ({col}, {row})"),
            ),
        ));
    }
    let (width, height) = (frame.width as f64, frame.height as f64);
    let side = f64::from(side);
    let off = |v: f64, max: f64| v + side <= 0.0 || v >= max;
    if off(col, width) || off(row, height) {
        w.push(Warning::new(
            "token_off_map",
            at,
            Text::new(
                format!("the token stands outside the scene's {width}×{height} squares (at square {col}, {row}: in its padding or beyond): left out, as walls there are"),
                format!("le jeton est hors des {width}×{height} cases de la scène (à la case {col}, {row} : dans sa marge ou au-delà) : laissé de côté, comme les murs qui s'y trouvent"),
            ),
        ));
        return None;
    }
    let (x, y) = (col.clamp(0.0, (width - side).max(0.0)), row.clamp(0.0, (height - side).max(0.0)));
    if (x, y) != (col, row) {
        w.push(Warning::new(
            "token_moved_onto_map",
            at,
            Text::new(
                format!("the token's {side}×{side} squares from ({col}, {row}) run past the scene's edge: moved onto the map, to ({x}, {y})"),
                format!("les {side}×{side} cases du jeton depuis ({col}, {row}) dépassent le bord de la scène : placé sur la carte, en ({x}, {y})"),
            ),
        ));
    }
    Some(SquareOut { x: x as i32, y: y as i32 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size, side and whether it was flagged, for a `w`×`h` token.
    fn size(w: f64, h: f64, ruleset: &str) -> (&'static str, i32, bool) {
        let t = FoundryTokenIn { width: Some(w), height: Some(h), ..Default::default() };
        let mut warnings = Vec::new();
        let rules = RulesetId::from_id(ruleset).unwrap();
        let (s, side) = footprint(&t, rules, "/scene/tokens/0", &mut warnings).unwrap();
        (s.id(), side, !warnings.is_empty())
    }

    /// README's table: the size of a footprint's side in the ruleset's size table
    /// (RULES.md `dnd5e.size.space`: Large 2, Huge 3, Gargantuan 4 squares; `pf1e.size.table`:
    /// Colossal 6).
    #[test]
    fn footprints_to_sizes() {
        assert_eq!(size(1.0, 1.0, "dnd5e2014"), ("medium", 1, false));
        assert_eq!(size(2.0, 2.0, "dnd5e2014"), ("large", 2, false));
        assert_eq!(size(3.0, 3.0, "dnd5e2014"), ("huge", 3, false));
        assert_eq!(size(4.0, 4.0, "dnd5e2014"), ("gargantuan", 4, false));
        // 5e has nothing larger than 4×4: the largest, flagged.
        assert_eq!(size(5.0, 5.0, "dnd5e2014"), ("gargantuan", 4, true));
        assert_eq!(size(6.0, 6.0, "pf1e"), ("colossal", 6, false));
        // No 5×5 size in Pathfinder: the next larger, flagged.
        assert_eq!(size(5.0, 5.0, "pf1e"), ("colossal", 6, true));
        assert_eq!(size(0.5, 0.5, "dnd5e2014"), ("tiny", 1, true));
        // Oblong and fractional: the longer side rounded up, flagged.
        assert_eq!(size(2.0, 1.0, "dnd5e2014"), ("large", 2, true));
        assert_eq!(size(1.5, 1.5, "dnd5e2014"), ("large", 2, true));
    }
}
