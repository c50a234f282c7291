//! Foundry walls to Arbiter's thin walls (RULES.md Q-41 kinds).
//!
//! Foundry's restriction levels (`CONST.WALL_SENSE_TYPES`, checked in the v10 and v12
//! sources): NONE 0, LIMITED 10, NORMAL 20, PROXIMITY 30, DISTANCE 40. Scenes written before
//! Foundry 9 used NORMAL 1 and LIMITED 2 (and one `sense` for sight and light); Foundry 10's
//! `BaseWall.migrateData` still maps 1 → 20 and 2 → 10, and so does the import: silently when
//! `_stats.coreVersion` says the scene is older than 9, with a warning otherwise.

use super::Frame;
use super::wire::{FoundryWallIn, InvisibleWalls, SceneIn};
use arbiter_contract::api::encounter::{PointIn, WallIn, WallKindIn};
use arbiter_contract::error::Text;
use arbiter_contract::warnings::Warning;
use arbiter_rules::encounter::WallKind;

/// What a wall's sight restriction lets through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sight {
    None,
    Limited,
    Normal,
    Proximity,
    Distance,
}

/// A level with the older constants read as Foundry's migration reads them.
fn current(level: i64) -> i64 {
    match level {
        1 => 20,
        2 => 10,
        l => l,
    }
}

fn sight(level: i64) -> Sight {
    match current(level) {
        0 => Sight::None,
        10 => Sight::Limited,
        30 => Sight::Proximity,
        40 => Sight::Distance,
        _ => Sight::Normal,
    }
}

/// Whether the scene says it was written before Foundry 9 (`_stats.coreVersion`, `"0.8.9"`).
fn older_than_9(s: &SceneIn) -> Option<bool> {
    let v = s.stats.as_ref()?.core_version.as_deref()?;
    let major: u32 = v.trim().split('.').next()?.parse().ok()?;
    Some(major < 9)
}

/// Every wall that lies on the map, by kind; the others are left out with a warning.
pub(crate) fn walls(
    s: &SceneIn,
    frame: &Frame,
    invisible: InvisibleWalls,
    w: &mut Vec<Warning>,
) -> Vec<WallIn> {
    old_constants(s, w);
    let mut out = Vec::with_capacity(s.walls.len());
    for (i, wall) in s.walls.iter().enumerate() {
        let at = format!("/scene/walls/{i}");
        let [x0, y0, x1, y1] = [wall.c[0], wall.c[1], wall.c[2], wall.c[3]];
        let (a, b) = (frame.point(x0, y0), frame.point(x1, y1));
        if a == b {
            w.push(Warning::new(
                "zero_length_wall",
                format!("{at}/c"),
                Text::new(
                    "the wall has no length: left out",
                    "le mur n'a pas de longueur : il est laissé de côté",
                ),
            ));
            continue;
        }
        let Some((from, to)) = clip(a, b, frame.width as f64, frame.height as f64) else {
            w.push(Warning::new(
                "wall_off_map",
                format!("{at}/c"),
                Text::new(
                    "the wall lies outside the scene (in its padding or beyond): left out",
                    "le mur est hors de la scène (dans sa marge ou au-delà) : il est laissé de côté",
                ),
            ));
            continue;
        };
        if (from, to) != (a, b) {
            w.push(Warning::new(
                "wall_clipped",
                format!("{at}/c"),
                Text::new(
                    "the wall runs past the scene's edge: only its part on the map is kept",
                    "le mur dépasse le bord de la scène : seule sa partie sur la carte est gardée",
                ),
            ));
        }
        // Its kind's warnings only for a wall that is kept.
        let Some(kind) = kind(wall, invisible, &at, w) else { continue };
        let point = |(x, y): (f64, f64)| PointIn { x, y };
        out.push(WallIn { from: point(from), to: point(to), kind });
    }
    out
}

/// One warning for older constants read without `_stats.coreVersion` to say so.
fn old_constants(s: &SceneIn, w: &mut Vec<Warning>) {
    let old = |v: Option<i64>| matches!(v, Some(1 | 2));
    let first =
        s.walls.iter().position(|x| [x.movement, x.sight, x.light, x.sound, x.sense].into_iter().any(old));
    if let Some(i) = first
        && older_than_9(s) != Some(true)
    {
        w.push(Warning::new(
            "old_wall_constants",
            format!("/scene/walls/{i}"),
            Text::new(
                "restriction levels 1 and 2 are Foundry's constants before version 9 (normal, limited), and are read so, but the scene's _stats.coreVersion does not say it is that old",
                "les niveaux de restriction 1 et 2 sont les constantes de Foundry avant la version 9 (normal, limité) et sont lus ainsi, mais le _stats.coreVersion de la scène ne la dit pas aussi ancienne",
            ),
        ));
    }
}

/// The kind of a wall, or `None` (left out, with a warning) for one that blocks neither
/// movement nor sight the way any Arbiter wall does.
fn kind(
    wall: &FoundryWallIn,
    invisible: InvisibleWalls,
    at: &str,
    w: &mut Vec<Warning>,
) -> Option<WallKindIn> {
    let mut warn = |code: &'static str, en: &str, fr: &str| w.push(Warning::new(code, at, Text::new(en, fr)));
    let kind = match wall.door.unwrap_or(0) {
        0 => plain(wall, invisible, &mut warn)?,
        door => {
            if door == 2 {
                warn(
                    "secret_door",
                    "a secret door: a door like any other here (closed or locked: door_closed; open: door_open)",
                    "une porte secrète : une porte comme une autre ici (fermée ou verrouillée : door_closed ; ouverte : door_open)",
                );
            }
            if wall.ds == Some(1) { WallKindIn(WallKind::DoorOpen) } else { WallKindIn(WallKind::DoorClosed) }
        }
    };
    if wall.dir.unwrap_or(0) != 0 && kind != WallKindIn(WallKind::DoorOpen) {
        warn(
            "one_way_wall",
            "a one-way wall: Arbiter's walls block both ways, so it blocks from both sides here",
            "un mur à sens unique : les murs d'Arbiter bloquent dans les deux sens, il bloque donc des deux côtés ici",
        );
    }
    Some(kind)
}

/// The kind of a wall that is not a door, from its movement and sight restrictions.
fn plain(
    wall: &FoundryWallIn,
    invisible: InvisibleWalls,
    warn: &mut impl FnMut(&'static str, &str, &str),
) -> Option<WallKindIn> {
    let blocks_movement = current(wall.movement.unwrap_or(20)) != 0;
    let seen = sight(wall.sight.or(wall.sense).unwrap_or(20));
    match (blocks_movement, seen) {
        (true, Sight::Normal) => Some(WallKindIn(WallKind::Solid)),
        (_, Sight::Limited) => {
            warn(
                "terrain_wall",
                "a terrain (limited sight) wall: one can see past one but not two; taken as a low obstacle",
                "un mur de terrain (vision limitée) : on voit au-delà d'un seul, pas de deux ; pris comme un obstacle bas",
            );
            Some(WallKindIn(WallKind::Low))
        }
        (true, Sight::None) if invisible == InvisibleWalls::Window => {
            warn(
                "movement_only_wall",
                "the wall blocks movement, not sight (an invisible wall): taken as a window, as the request's invisible_walls asks",
                "le mur bloque le mouvement, pas la vue (un mur invisible) : pris comme une fenêtre, comme le demande invisible_walls",
            );
            Some(WallKindIn(WallKind::Window))
        }
        (true, Sight::None) => {
            warn(
                "movement_only_wall",
                "the wall blocks movement, not sight (an invisible wall: a counter, a ledge): a barrier, which blocks movement only (invisible_walls: \"window\" reads it as a window)",
                "le mur bloque le mouvement, pas la vue (un mur invisible : un comptoir, un rebord) : une barrière, qui ne bloque que le mouvement (invisible_walls: \"window\" le lit comme une fenêtre)",
            );
            Some(WallKindIn(WallKind::Barrier))
        }
        (true, Sight::Proximity) => {
            warn(
                "proximity_wall",
                "a proximity wall (seen through from near it): taken as a window, which never blocks sight",
                "un mur de proximité (on voit au travers de près) : pris comme une fenêtre, qui ne bloque jamais la vue",
            );
            Some(WallKindIn(WallKind::Window))
        }
        (true, Sight::Distance) => {
            warn(
                "distance_wall",
                "a distance wall (seen through only from afar): taken as solid, as it is at fighting range",
                "un mur de distance (on ne voit au travers que de loin) : pris comme plein, ce qu'il est à portée de combat",
            );
            Some(WallKindIn(WallKind::Solid))
        }
        (false, Sight::Normal | Sight::Distance) => {
            warn(
                "sight_only_wall",
                "the wall blocks sight but not movement (an illusory wall): no Arbiter wall does only that; left out",
                "le mur bloque la vue mais pas le mouvement (un mur illusoire) : aucun mur d'Arbiter ne fait seulement cela ; laissé de côté",
            );
            None
        }
        (false, Sight::None | Sight::Proximity) => {
            warn(
                "no_restriction_wall",
                "the wall blocks neither movement nor sight (light or sound only): left out",
                "le mur ne bloque ni le mouvement ni la vue (lumière ou son seulement) : laissé de côté",
            );
            None
        }
    }
}

/// The part of segment `a`–`b` inside `[0, w] × [0, h]` (Liang–Barsky), or `None`.
fn clip(a: (f64, f64), b: (f64, f64), w: f64, h: f64) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [(-dx, a.0), (dx, w - a.0), (-dy, a.1), (dy, h - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if t0 >= t1 {
        return None;
    }
    let at = |t: f64| {
        if t == 0.0 {
            a
        } else if t == 1.0 {
            b
        } else {
            ((a.0 + t * dx).clamp(0.0, w), (a.1 + t * dy).clamp(0.0, h))
        }
    };
    Some((at(t0), at(t1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_keeps_the_part_on_the_map() {
        // Inside: unchanged.
        assert_eq!(clip((1.0, 1.0), (3.0, 1.0), 10.0, 5.0), Some(((1.0, 1.0), (3.0, 1.0))));
        // From x = -2 to x = 4 on y = 1: cut at x = 0.
        assert_eq!(clip((-2.0, 1.0), (4.0, 1.0), 10.0, 5.0), Some(((0.0, 1.0), (4.0, 1.0))));
        // Wholly in the padding.
        assert_eq!(clip((-3.0, 1.0), (-1.0, 1.0), 10.0, 5.0), None);
        // Along the edge x = 10: kept.
        assert_eq!(clip((10.0, 0.0), (10.0, 5.0), 10.0, 5.0), Some(((10.0, 0.0), (10.0, 5.0))));
    }

    #[test]
    fn older_constants_read_as_foundry_migrates_them() {
        assert_eq!(sight(1), Sight::Normal);
        assert_eq!(sight(2), Sight::Limited);
        assert_eq!(sight(20), Sight::Normal);
        assert_eq!(sight(10), Sight::Limited);
        assert_eq!(sight(30), Sight::Proximity);
        assert_eq!(sight(40), Sight::Distance);
        assert_eq!(sight(0), Sight::None);
    }
}
