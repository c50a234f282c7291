//! The map every drawing starts from: terrain, light, grid lines, thin walls and the creatures'
//! tokens with their labels; and the shapes drawings share (highlighted squares, outlines of
//! square sets).

use std::collections::HashSet;
use std::fmt::Write;

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{Encounter, Light, Terrain, WallKind};
use arbiter_rules::error::RulesError;
use arbiter_rules::grid::{FEET_PER_SQUARE, Space, Square};
use arbiter_rules::scene::Scene;
use arbiter_rules::vision::light_at;

use super::canvas::{Canvas, Layer, N, Swatch, esc};
use super::labels::{Look, Rect};
use super::style;
use super::{Ctx, draws_light};
use arbiter_contract::render::Lang;

/// A new canvas for the encounter with its map drawn (terrain, light, grid, walls, tokens);
/// the tokens are obstacles for labels, which [`label_creatures`] places.
pub fn map(ctx: &mut Ctx<'_, '_>) -> Result<Canvas, RulesError> {
    let enc = ctx.scene.enc;
    let mut c = Canvas::new(enc.grid.width, enc.grid.height, ctx.draw.scale_for(enc), ctx.lang);
    terrain(&mut c, enc);
    if draws_light(enc) {
        light(&mut c, ctx.scene, ctx.budget)?;
    }
    light_sources(&mut c, enc);
    grid_lines(&mut c, enc);
    walls(&mut c, enc);
    tokens(&mut c, enc);
    Ok(c)
}

/// The terrain, one rectangle per run of equal squares in a row.
fn terrain(c: &mut Canvas, enc: &Encounter) {
    for y in 0..enc.grid.height {
        let mut x = 0;
        while x < enc.grid.width {
            let t = enc.grid.terrain(Square::new(x, y));
            let mut end = x + 1;
            while end < enc.grid.width && enc.grid.terrain(Square::new(end, y)) == t {
                end += 1;
            }
            if t != Terrain::OPEN {
                terrain_run(c, t, x, y, end - x);
            }
            x = end;
        }
    }
}

fn terrain_run(c: &mut Canvas, t: Terrain, x: i32, y: i32, len: i32) {
    let r = c.square(x, y, 1);
    let w = f64::from(len) * c.scale;
    let mut first = true;
    for (flag, id, fill, pattern) in style::TERRAINS {
        if !t.has(flag) {
            continue;
        }
        let paint = if first { fill.to_owned() } else { String::from("none") };
        c.put(Layer::Terrain, format_args!(r#"<rect class="terrain" data-kind="{id}" x="{}" y="{}" width="{}" height="{}" fill="{paint}"/>"#,
            N(r.x),
            N(r.y),
            N(w),
            N(r.h)
        ));
        if !pattern.is_empty() {
            c.put(
                Layer::Terrain,
                format_args!(
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="url(#{pattern})"/>"#,
                    N(r.x),
                    N(r.y),
                    N(w),
                    N(r.h)
                ),
            );
        }
        first = false;
        let text = terrain_name(flag, c.lang);
        c.legend(&format!("terrain-{id}"), Swatch::Fill { fill, pattern, opacity: 1.0 }, text);
    }
}

fn terrain_name(flag: Terrain, lang: Lang) -> String {
    let (en, fr) = match flag {
        Terrain::SOLID => ("solid square", "case pleine"),
        Terrain::OPAQUE => ("opaque square (heavily obscured)", "case opaque (visibilité nulle)"),
        Terrain::LOW => ("low obstacle", "obstacle bas"),
        Terrain::CONCEALING => {
            ("concealing square (lightly obscured)", "case qui camoufle (visibilité réduite)")
        }
        Terrain::WATER => ("deep water", "eau profonde"),
        _ => ("difficult terrain", "terrain difficile"),
    };
    super::canvas::tr(lang, en, fr)
}

/// Dim and dark squares as overlays (bright ones are left as they are), by the rules' own
/// light level of each square (sources blocked by walls).
fn light(c: &mut Canvas, scene: &Scene<'_>, budget: &mut Budget) -> Result<(), RulesError> {
    let grid = &scene.enc.grid;
    for y in 0..grid.height {
        let mut x = 0;
        while x < grid.width {
            let level = light_at(scene, Square::new(x, y), 1, budget)?.0;
            let mut end = x + 1;
            while end < grid.width && light_at(scene, Square::new(end, y), 1, budget)?.0 == level {
                end += 1;
            }
            if level != Light::Bright {
                light_run(c, level, x, y, end - x);
            }
            x = end;
        }
    }
    Ok(())
}

fn light_run(c: &mut Canvas, level: Light, x: i32, y: i32, len: i32) {
    let r = c.square(x, y, 1);
    let w = f64::from(len) * c.scale;
    let (id, fill, opacity, en, fr) = match level {
        Light::Dim => ("dim", "url(#p-dim)", 1.0, "dim light (hatched)", "lumière faible (hachures)"),
        _ => ("darkness", "#000000", 0.45, "darkness (shaded)", "obscurité (ombrée)"),
    };
    c.put(Layer::Light, format_args!(r#"<rect class="light" data-level="{id}" x="{}" y="{}" width="{}" height="{}" fill="{fill}" fill-opacity="{opacity}"/>"#,
        N(r.x),
        N(r.y),
        N(w),
        N(r.h)
    ));
    let swatch = match level {
        Light::Dim => Swatch::Fill { fill: "#FFFFFF", pattern: "p-dim", opacity: 1.0 },
        _ => Swatch::Fill { fill: "#737373", pattern: "", opacity: 1.0 },
    };
    let text = c.tr(en, fr);
    c.legend(&format!("light-{id}"), swatch, text);
}

/// Light sources: a yellow sun, its bright radius dashed and its dim radius dotted (the
/// squares' own levels are the overlay).
fn light_sources(c: &mut Canvas, enc: &Encounter) {
    for l in &enc.grid.lights {
        let (cx, cy) = (c.x(l.at.x.to_f64()), c.y(l.at.y.to_f64()));
        let per_ft = c.scale / f64::from(FEET_PER_SQUARE as u32);
        let bright = f64::from(l.bright_ft) * per_ft;
        let dim = f64::from(l.dim_ft.max(l.bright_ft)) * per_ft;
        let out = c.layer(Layer::Light);
        if dim > bright {
            let _ = write!(
                out,
                r##"<circle class="light-radius" data-level="dim" cx="{}" cy="{}" r="{}" fill="none" stroke="#8C8C8C" stroke-width="1.5" stroke-dasharray="2 4"/>"##,
                N(cx),
                N(cy),
                N(dim)
            );
        }
        if bright > 0.0 {
            let _ = write!(
                out,
                r##"<circle class="light-radius" data-level="bright" cx="{}" cy="{}" r="{}" fill="none" stroke="#E69F00" stroke-width="1.5" stroke-dasharray="8 4"/>"##,
                N(cx),
                N(cy),
                N(bright)
            );
        }
        let r = (c.scale * 0.22).max(5.0);
        c.put(Layer::Marks, format_args!(r##"<circle class="light-source" cx="{}" cy="{}" r="{}" fill="#F0E442" stroke="#000000" stroke-width="1.5"/>"##,
            N(cx),
            N(cy),
            N(r)
        ));
        let text = c.tr(
            "light source (dashed: bright radius, dotted: dim radius)",
            "source de lumière (tirets : lumière vive, pointillés : lumière faible)",
        );
        c.legend("light-source", Swatch::Dot { fill: style::YELLOW }, text);
    }
}

/// The grid lines, one path.
fn grid_lines(c: &mut Canvas, enc: &Encounter) {
    let (w, h) = (f64::from(enc.grid.width.max(1)), f64::from(enc.grid.height.max(1)));
    let mut d = String::new();
    for x in 1..enc.grid.width {
        let _ = write!(d, "M{} {}V{}", N(c.x(f64::from(x))), N(c.y(0.0)), N(c.y(h)));
    }
    for y in 1..enc.grid.height {
        let _ = write!(d, "M{} {}H{}", N(c.x(0.0)), N(c.y(f64::from(y))), N(c.x(w)));
    }
    c.put(Layer::Grid, format_args!(r##"<path d="{d}" stroke="#D6D2C8" stroke-width="1" fill="none"/>"##));
}

/// The name of a wall kind in the legend.
pub fn wall_name(kind: WallKind, lang: Lang) -> String {
    let (en, fr) = match kind {
        WallKind::Solid => ("wall", "mur"),
        WallKind::Low => ("low wall (dashed)", "muret (tirets)"),
        WallKind::Window => ("window (dash-dot)", "fenêtre (tiret-point)"),
        WallKind::ArrowSlit => ("arrow slit (dotted)", "meurtrière (pointillés)"),
        WallKind::DoorClosed => ("closed door (thick bar)", "porte fermée (barre épaisse)"),
        WallKind::DoorOpen => ("open door (long dashes)", "porte ouverte (longs tirets)"),
        WallKind::Barrier => {
            ("barrier, movement only (short dashes)", "barrière, mouvement seulement (tirets courts)")
        }
    };
    super::canvas::tr(lang, en, fr)
}

/// The stroke attributes of a wall kind at the canvas's scale.
pub fn wall_stroke(c: &Canvas, kind: WallKind) -> (f64, String) {
    let s = style::wall(kind);
    let width = (s.width * c.scale).max(2.0);
    let dash = s.dash.split(' ').filter_map(|p| p.parse::<f64>().ok()).map(|p| N(p * width).to_string());
    (width, dash.collect::<Vec<_>>().join(" "))
}

fn walls(c: &mut Canvas, enc: &Encounter) {
    for kind in style::WALL_KINDS {
        let mut present = false;
        let (width, dash) = wall_stroke(c, kind);
        let s = style::wall(kind);
        for w in enc.grid.walls.iter().filter(|w| w.kind == kind) {
            present = true;
            let (x1, y1, x2, y2) =
                (c.x(w.from.x.to_f64()), c.y(w.from.y.to_f64()), c.x(w.to.x.to_f64()), c.y(w.to.y.to_f64()));
            let out = c.layer(Layer::Walls);
            if kind == WallKind::DoorClosed {
                let _ = write!(
                    out,
                    r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#000000" stroke-width="{}"/>"##,
                    N(x1),
                    N(y1),
                    N(x2),
                    N(y2),
                    N(width + 2.0)
                );
            }
            let _ = write!(
                out,
                r#"<line class="wall" data-kind="{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}" stroke-dasharray="{dash}" stroke-linecap="round"/>"#,
                style::wall_id(kind),
                N(x1),
                N(y1),
                N(x2),
                N(y2),
                s.stroke,
                N(width)
            );
        }
        if present {
            let text = wall_name(kind, c.lang);
            let dash = wall_stroke(&Canvas::new(1, 1, 12.0, c.lang), kind).1;
            let width = (s.width * 24.0).max(2.0);
            c.legend(
                &format!("wall-{}", style::wall_id(kind)),
                Swatch::Line { stroke: s.stroke, width, dash },
                text,
            );
        }
    }
}

/// The colour of each creature, by side (sides in order of first appearance).
pub fn side_colours(enc: &Encounter) -> Vec<&'static str> {
    let mut sides: Vec<&str> = Vec::new();
    enc.creatures
        .iter()
        .map(|c| {
            let i = sides.iter().position(|s| *s == c.side).unwrap_or_else(|| {
                sides.push(&c.side);
                sides.len() - 1
            });
            style::SIDES[i % style::SIDES.len()]
        })
        .collect()
}

/// The token box of a creature's space (inset from the squares).
pub fn token_box(c: &Canvas, space: &Space) -> Rect {
    let r = c.square(space.anchor.x, space.anchor.y, space.side);
    let inset = c.scale * 0.12;
    Rect::new(r.x + inset, r.y + inset, r.w - 2.0 * inset, r.h - 2.0 * inset)
}

fn tokens(c: &mut Canvas, enc: &Encounter) {
    let colours = side_colours(enc);
    for (cr, colour) in enc.creatures.iter().zip(colours) {
        let b = token_box(c, &enc.space(cr));
        c.put(Layer::Tokens, format_args!(r##"<rect class="token" data-creature="{}" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{colour}" fill-opacity="0.75" stroke="#000000" stroke-width="1.5"><title>{}</title></rect>"##,
            esc(&cr.id),
            N(b.x),
            N(b.y),
            N(b.w),
            N(b.h),
            N(b.w / 3.0),
            esc(&cr.id)
        ));
        c.labels.obstacle(b);
    }
}

/// Places every creature's name, under or beside its token, `first` first (the question's
/// creatures before the others).
pub fn label_creatures(c: &mut Canvas, enc: &Encounter, first: &[usize]) {
    let colours = side_colours(enc);
    let font = c.label_font();
    let order = first.iter().copied().chain((0..enc.creatures.len()).filter(|i| !first.contains(i)));
    let mut seen = HashSet::new();
    for i in order {
        let Some(cr) = enc.creatures.get(i) else { continue };
        if !seen.insert(i) {
            continue;
        }
        let b = token_box(c, &enc.space(cr));
        c.labels.place(&cr.id, font, b, Look::Plain(colours[i]), &cr.id);
    }
}

/// Highlights squares: a fill and an outline, `class` and `data` on each.
pub fn highlight(
    c: &mut Canvas,
    squares: impl IntoIterator<Item = Square>,
    class: &str,
    data: &str,
    paint: &str,
) {
    for sq in squares {
        let r = c.square(sq.x, sq.y, 1);
        c.put(Layer::Highlight, format_args!(r#"<rect class="{class}" {data} data-x="{}" data-y="{}" x="{}" y="{}" width="{}" height="{}" {paint}/>"#,
            sq.x,
            sq.y,
            N(r.x + 1.5),
            N(r.y + 1.5),
            N(r.w - 3.0),
            N(r.h - 3.0)
        ));
    }
}

/// The outline of a set of squares (the edges between a square in it and one outside), one
/// path.
pub fn outline(c: &Canvas, set: &HashSet<Square>) -> String {
    let mut d = String::new();
    let mut sorted: Vec<&Square> = set.iter().collect();
    sorted.sort_by_key(|s| (s.y, s.x));
    for sq in sorted {
        let (x0, y0) = (c.x(f64::from(sq.x)), c.y(f64::from(sq.y)));
        let (x1, y1) = (x0 + c.scale, y0 + c.scale);
        let out = |dx: i32, dy: i32| !set.contains(&Square::new(sq.x + dx, sq.y + dy));
        if out(0, -1) {
            let _ = write!(d, "M{} {}H{}", N(x0), N(y0), N(x1));
        }
        if out(0, 1) {
            let _ = write!(d, "M{} {}H{}", N(x0), N(y1), N(x1));
        }
        if out(-1, 0) {
            let _ = write!(d, "M{} {}V{}", N(x0), N(y0), N(y1));
        }
        if out(1, 0) {
            let _ = write!(d, "M{} {}V{}", N(x1), N(y0), N(y1));
        }
    }
    d
}

/// The name of creature `i`.
pub fn name(enc: &Encounter, i: usize) -> &str {
    enc.creatures.get(i).map_or("?", |c| c.id.as_str())
}

/// The caption line of the rules the trace applied, by their ids (the names of RULES.md),
/// each once in order.
pub fn rules_line(trace: &arbiter_rules::trace::Trace, ruleset: &str, lang: Lang) -> String {
    let mut ids: Vec<&str> = Vec::new();
    for s in &trace.steps {
        if !ids.contains(&s.rule) {
            ids.push(s.rule);
        }
    }
    let list = ids.join(", ");
    match lang {
        Lang::En => format!("Ruleset {ruleset} · rules applied: {list}"),
        Lang::Fr => format!("Règles {ruleset} · règles appliquées : {list}"),
    }
}
