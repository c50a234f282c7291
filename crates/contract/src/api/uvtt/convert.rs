//! The conversion of a file within its bounds: walls, doors, lights and ambient light, with a
//! warning for everything that could not be mapped or had to be decided (README.md
//! "Importing a map" gives the table and its reasons).

use std::collections::HashMap;

use arbiter_rules::encounter::WallKind;

use super::{PortalIn, UvttFile, UvttLightIn, UvttPointIn};
use crate::api::map::{GridIn, LightIn, LightSourceIn, PointIn, WallIn, WallKindIn};
use crate::error::Text;
use crate::warnings::{Warning, Warnings};

/// Feet per square.
const FEET: f64 = 5.0;

/// A grid of `w`×`h` open squares in bright light, nothing else.
pub fn empty(w: i64, h: i64) -> GridIn {
    GridIn {
        width: w,
        height: h,
        map: None,
        cells: Vec::new(),
        walls: Vec::new(),
        light: LightIn::Bright,
        light_map: None,
        lights: Vec::new(),
        imported: None,
    }
}

/// The grid of a file within its bounds, and the warnings. At most `max_walls + 1` walls are
/// kept: a file that makes more is refused anyway (`sizes`), and its segments, up to some
/// 2.4 million in an import body, are not all held while it is converted.
pub fn convert(f: &UvttFile, max_walls: usize) -> (GridIn, Vec<Warning>) {
    let mut w = Warnings::default();
    let origin = f.resolution.map_origin.map_or((0.0, 0.0), |o| (o.x, o.y));
    let size = f.resolution.map_size;
    for (axis, v) in [("x", size.x), ("y", size.y)] {
        if v.fract() != 0.0 {
            w.push(
                "map_size_rounded",
                || format!("/resolution/map_size/{axis}"),
                || {
                    Text::new(
                        format!("a map {v} squares across is taken as {} whole squares", v.ceil()),
                        format!("une carte de {v} cases est prise comme {} cases entières", v.ceil()),
                    )
                },
            );
        }
    }
    // The map's own size for each side: never one side from the other (a known importer
    // computes the height from the width).
    let mut grid = empty(size.x.ceil() as i64, size.y.ceil() as i64);
    let map = Map { origin, w: grid.width as f64, h: grid.height as f64 };
    let mut walls = Walls { keep: max_walls.saturating_add(1), ..Walls::default() };
    for (name, list) in
        [("line_of_sight", &f.line_of_sight), ("objects_line_of_sight", &f.objects_line_of_sight)]
    {
        for (i, line) in list.iter().enumerate() {
            polyline(&mut walls, &mut w, &map, &format!("/{name}/{i}"), line);
        }
    }
    if !f.objects_line_of_sight.is_empty() {
        let n = f.objects_line_of_sight.len();
        w.push("object_walls", || "/objects_line_of_sight".into(), || {
            Text::new(
                format!(
                    "{n} object outline(s) (pillars, trees, furniture that blocks sight) made solid walls; give a low object the kind low"
                ),
                format!(
                    "{n} contour(s) d'objets (piliers, arbres, meubles qui bloquent la vue) changés en murs pleins ; donnez le type low à un objet bas"
                ),
            )
        });
    }
    for (i, p) in f.portals.iter().enumerate() {
        portal(&mut walls, &mut w, &map, i, p);
    }
    grid.walls = walls.list;
    grid.lights = f.lights.iter().enumerate().filter_map(|(i, l)| light(&mut w, &map, i, l)).collect();
    grid.light = ambient(&mut w, f);
    (grid, w.finish())
}

/// The map's rectangle in the file's coordinates.
struct Map {
    origin: (f64, f64),
    w: f64,
    h: f64,
}

impl Map {
    /// A point of the file on the grid (the origin subtracted; `+ 0.0` makes −0 a 0).
    fn local(&self, p: &UvttPointIn) -> (f64, f64) {
        (p.x - self.origin.0 + 0.0, p.y - self.origin.1 + 0.0)
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        (0.0..=self.w).contains(&x) && (0.0..=self.h).contains(&y)
    }

    /// The part of segment a–b on the map (Liang–Barsky), or none (it lies outside or only
    /// touches the edge at one point).
    fn clip(&self, a: (f64, f64), b: (f64, f64)) -> Option<((f64, f64), (f64, f64))> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (p, q) in [(-dx, a.0), (dx, self.w - a.0), (-dy, a.1), (dy, self.h - a.1)] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
        if t0 >= t1 {
            return None;
        }
        let at = |t: f64, from: (f64, f64)| -> (f64, f64) {
            if t == 0.0 {
                return from;
            }
            ((a.0 + t * dx).clamp(0.0, self.w), (a.1 + t * dy).clamp(0.0, self.h))
        };
        Some((at(t0, a), if t1 == 1.0 { b } else { at(t1, b) }))
    }
}

/// The walls made so far, each segment once.
#[derive(Default)]
struct Walls {
    list: Vec<WallIn>,
    /// Index in `list` of each segment, by its ends in a fixed order.
    seen: HashMap<[u64; 4], usize>,
    /// The most walls kept; a new segment past them is dropped.
    keep: usize,
}

impl Walls {
    /// Adds a segment already on the map; a repeat is reported, and a portal over a wall
    /// takes the wall's place.
    fn add(&mut self, w: &mut Warnings, pointer: &str, a: (f64, f64), b: (f64, f64), kind: WallKindIn) {
        let (p, q) = if (a.0, a.1) <= (b.0, b.1) { (a, b) } else { (b, a) };
        let key = [p.0.to_bits(), p.1.to_bits(), q.0.to_bits(), q.1.to_bits()];
        match self.seen.get(&key) {
            None if self.list.len() >= self.keep => {}
            None => {
                self.seen.insert(key, self.list.len());
                self.list.push(WallIn {
                    from: PointIn { x: a.0, y: a.1 },
                    to: PointIn { x: b.0, y: b.1 },
                    kind,
                });
            }
            Some(&i)
                if self.list[i].kind == WallKindIn(WallKind::Solid)
                    && kind != WallKindIn(WallKind::Solid) =>
            {
                self.list[i].kind = kind;
                w.push(
                    "wall_under_portal",
                    || pointer.to_owned(),
                    || {
                        Text::new(
                            "a wall lies exactly under this portal: the portal replaces it",
                            "un mur se trouve exactement sous ce passage : le passage le remplace",
                        )
                    },
                );
            }
            Some(_) => w.push(
                "duplicate_segment",
                || pointer.to_owned(),
                || {
                    Text::new(
                        "the same segment is given twice: kept once",
                        "le même segment est donné deux fois : gardé une fois",
                    )
                },
            ),
        }
    }

    /// Adds segment a–b of the file (points already local), clipped to the map; `at` points
    /// at its second end, `from` at its first.
    fn segment(
        &mut self,
        w: &mut Warnings,
        map: &Map,
        at: (&str, &str),
        a: (f64, f64),
        b: (f64, f64),
        kind: WallKindIn,
    ) {
        if a == b {
            w.push(
                "zero_length_segment",
                || at.1.to_owned(),
                || Text::new("a segment of zero length: skipped", "un segment de longueur nulle : ignoré"),
            );
            return;
        }
        let outside = if !map.contains(a) {
            Some(at.0)
        } else if !map.contains(b) {
            Some(at.1)
        } else {
            None
        };
        match map.clip(a, b) {
            Some((p, q)) => {
                if let Some(ptr) = outside {
                    w.push(
                        "outside_map",
                        || ptr.to_owned(),
                        || outside_text(map, "clipped to the map edge", "coupé au bord de la carte"),
                    );
                }
                self.add(w, at.1, p, q, kind);
            }
            None => w.push(
                "outside_map",
                || outside.unwrap_or(at.1).to_owned(),
                || {
                    outside_text(
                        map,
                        "the segment lies outside the map: dropped",
                        "le segment est hors de la carte : supprimé",
                    )
                },
            ),
        }
    }
}

fn outside_text(map: &Map, en: &str, fr: &str) -> Text {
    let (w, h) = (map.w, map.h);
    Text::new(
        format!("a point outside the {w}×{h} map: {en}"),
        format!("un point hors de la carte de {w}×{h} : {fr}"),
    )
}

/// The walls of one polyline (solid).
fn polyline(walls: &mut Walls, w: &mut Warnings, map: &Map, base: &str, line: &[UvttPointIn]) {
    if line.len() < 2 {
        w.push(
            "short_polyline",
            || base.to_owned(),
            || {
                Text::new(
                    format!("a polyline of {} point(s) makes no wall: skipped", line.len()),
                    format!("une ligne de {} point(s) ne fait aucun mur : ignorée", line.len()),
                )
            },
        );
        return;
    }
    for (j, pair) in line.windows(2).enumerate() {
        let (from, to) = (format!("{base}/{j}"), format!("{base}/{}", j + 1));
        walls.segment(
            w,
            map,
            (&from, &to),
            map.local(&pair[0]),
            map.local(&pair[1]),
            WallKindIn(WallKind::Solid),
        );
    }
}

/// A portal: a door, closed or open, between its two bounds.
fn portal(walls: &mut Walls, w: &mut Warnings, map: &Map, i: usize, p: &PortalIn) {
    let base = format!("/portals/{i}");
    let kind = if p.closed { WallKindIn(WallKind::DoorClosed) } else { WallKindIn(WallKind::DoorOpen) };
    if !p.closed {
        w.push("open_portal", || base.clone(), || {
            Text::new(
                "an open portal (a doorway, or a window: Dungeondraft exports windows so) made door_open, which blocks nothing; give a window the kind window",
                "un passage ouvert (une porte ouverte, ou une fenêtre : Dungeondraft exporte ainsi les fenêtres) changé en door_open, qui ne bloque rien ; donnez le type window à une fenêtre",
            )
        });
    }
    if p.freestanding {
        w.push("freestanding_portal", || format!("{base}/freestanding"), || {
            Text::new(
                "a freestanding portal (in no wall) made a door on its own: nothing closes the gaps around it",
                "un passage isolé (dans aucun mur) changé en porte seule : rien ne ferme les côtés",
            )
        });
    }
    let (from, to) = (format!("{base}/bounds/0"), format!("{base}/bounds/1"));
    walls.segment(w, map, (&from, &to), map.local(&p.bounds[0]), map.local(&p.bounds[1]), kind);
}

/// A light source: `range` squares of light, bright over the inner half (a torch's shape:
/// bright 20 ft, dim to 40 ft); an intensity below 1 gives dim light only.
fn light(w: &mut Warnings, map: &Map, i: usize, l: &UvttLightIn) -> Option<LightSourceIn> {
    let base = format!("/lights/{i}");
    if l.range <= 0.0 || l.intensity <= 0.0 {
        w.push(
            "light_off",
            || base.clone(),
            || {
                Text::new(
                    "a light of no range or no intensity sheds nothing: skipped",
                    "une lumière sans portée ou sans intensité n'éclaire rien : ignorée",
                )
            },
        );
        return None;
    }
    let (x, y) = map.local(&l.position);
    if !map.contains((x, y)) {
        w.push(
            "outside_map",
            || format!("{base}/position"),
            || {
                outside_text(
                    map,
                    "the light is moved to the map edge",
                    "la lumière est placée au bord de la carte",
                )
            },
        );
    }
    let at = PointIn { x: x.clamp(0.0, map.w), y: y.clamp(0.0, map.h) };
    let dim_ft = (l.range * FEET).round() as i64;
    let mut bright_ft = (l.range * FEET / 2.0).round() as i64;
    if l.intensity < 1.0 {
        bright_ft = 0;
    }
    if l.intensity != 1.0 {
        let v = l.intensity;
        let (en, fr) = if v < 1.0 {
            ("dim light only", "lumière faible seulement")
        } else {
            ("read as 1", "lue comme 1")
        };
        w.push(
            "light_intensity",
            || format!("{base}/intensity"),
            || Text::new(format!("intensity {v}: {en}"), format!("intensité {v} : {fr}")),
        );
    }
    if let Some(c) = &l.color
        && argb(c).is_none_or(|[_, r, g, b]| (r, g, b) != (255, 255, 255))
    {
        w.push(
            "light_color",
            || format!("{base}/color"),
            || {
                Text::new(
                    format!("the colour {c} is ignored: light has no colour in the rules"),
                    format!("la couleur {c} est ignorée : la lumière n'a pas de couleur dans les règles"),
                )
            },
        );
    }
    if !l.shadows {
        w.push(
            "light_without_shadows",
            || format!("{base}/shadows"),
            || {
                Text::new(
                    "a light that shines through walls: walls stop every light in the rules",
                    "une lumière qui traverse les murs : les murs arrêtent toute lumière dans les règles",
                )
            },
        );
    }
    Some(LightSourceIn { at, bright_ft, dim_ft })
}

/// The ambient light: the colour's luminance (Rec. 709 weights, scaled by its alpha) from
/// 0.5 bright, from 0.1 dim, below darkness; no colour is bright.
fn ambient(w: &mut Warnings, f: &UvttFile) -> LightIn {
    let env = f.environment.as_ref();
    if env.is_some_and(|e| e.baked_lighting) {
        w.push("baked_lighting", || "/environment/baked_lighting".into(), || {
            Text::new(
                "the picture has its lighting painted in: the file's light sources are kept as sources",
                "l'image a son éclairage peint : les sources de lumière du fichier sont gardées comme sources",
            )
        });
    }
    let pointer = || "/environment/ambient_light".to_owned();
    let Some(c) = env.and_then(|e| e.ambient_light.as_deref()) else {
        w.push("no_ambient_light", pointer, || {
            Text::new("no ambient light given: bright", "aucune lumière ambiante donnée : vive")
        });
        return LightIn::Bright;
    };
    let Some([a, r, g, b]) = argb(c) else {
        w.push("ambient_light", pointer, || {
            Text::new(
                format!("{c:?} is no ARGB colour: bright"),
                format!("« {c} » n'est pas une couleur ARGB : vive"),
            )
        });
        return LightIn::Bright;
    };
    let lum = (0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b)) / 255.0 * f64::from(a)
        / 255.0;
    let (level, en, fr) = if lum >= 0.5 {
        (LightIn::Bright, "bright", "vive")
    } else if lum >= 0.1 {
        (LightIn::Dim, "dim", "faible")
    } else {
        (LightIn::Darkness, "darkness", "obscurité")
    };
    if lum > 0.0 && lum < 1.0 {
        w.push("ambient_light", pointer, || {
            Text::new(
                format!("ambient colour {c} (luminance {lum:.2}): {en} (bright from 0.50, dim from 0.10)"),
                format!("couleur ambiante {c} (luminance {lum:.2}) : {fr} (vive dès 0,50, faible dès 0,10)"),
            )
        });
    }
    level
}

/// An ARGB colour (`aarrggbb`, or `rrggbb` opaque, a leading `#` allowed).
fn argb(c: &str) -> Option<[u8; 4]> {
    let hex = c.trim().trim_start_matches('#');
    let byte = |i: usize| hex.get(i..i + 2).and_then(|s| u8::from_str_radix(s, 16).ok());
    match hex.len() {
        8 => Some([byte(0)?, byte(2)?, byte(4)?, byte(6)?]),
        6 => Some([255, byte(0)?, byte(2)?, byte(4)?]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(w: f64, h: f64) -> Map {
        Map { origin: (0.0, 0.0), w, h }
    }

    /// Clipping keeps the part on the map, exactly where an end is already on it.
    #[test]
    fn segments_are_clipped_to_the_map() {
        let m = map(10.0, 5.0);
        assert_eq!(m.clip((1.0, 1.0), (3.0, 2.0)), Some(((1.0, 1.0), (3.0, 2.0))));
        // y = 2 from x = -2 to 4: enters at x = 0.
        assert_eq!(m.clip((-2.0, 2.0), (4.0, 2.0)), Some(((0.0, 2.0), (4.0, 2.0))));
        // (8, 4) → (12, 6): leaves through x = 10 at y = 5 (slope 1/2).
        assert_eq!(m.clip((8.0, 4.0), (12.0, 6.0)), Some(((8.0, 4.0), (10.0, 5.0))));
        assert_eq!(m.clip((11.0, 1.0), (12.0, 2.0)), None);
        // Touches the corner (10, 5) only.
        assert_eq!(m.clip((10.0, 5.0), (12.0, 7.0)), None);
    }

    /// A file of 40 distinct unit segments under a limit of 10 walls: 11 are kept (enough to
    /// refuse it), the other 29 are never stored.
    #[test]
    fn no_more_than_one_wall_past_the_limit_is_kept() {
        let line: Vec<serde_json::Value> = (0..=40).map(|x| serde_json::json!({"x": x, "y": 1})).collect();
        let file: UvttFile = serde_json::from_value(serde_json::json!({
            "format": 0.3,
            "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 50, "y": 5}, "pixels_per_grid": 70},
            "line_of_sight": [line],
        }))
        .unwrap();
        assert_eq!(convert(&file, 10).0.walls.len(), 11);
        assert_eq!(convert(&file, 100).0.walls.len(), 40);
    }

    #[test]
    fn colours_are_argb() {
        assert_eq!(argb("ff404040"), Some([255, 64, 64, 64]));
        assert_eq!(argb("#ffeccd8b"), Some([255, 0xec, 0xcd, 0x8b]));
        assert_eq!(argb("4dd569"), Some([255, 0x4d, 0xd5, 0x69]));
        assert_eq!(argb("fffff"), None);
        assert_eq!(argb("gg000000"), None);
        assert_eq!(argb("ééé"), None);
    }
}
