//! The cover drawing: the target's squares, every blocker by its kind, the chosen corner's
//! lines (clear solid green, blocked dashed red) with a cross at each hit point, lines along one
//! seam fanned apart, and a badge with the degree. Under total cover the answer has no chosen
//! corner: every line tried (each corner of the attacker's space, or the area's origin, to
//! each corner of the target's space) is drawn in red.

use std::collections::HashSet;

use arbiter_rules::cover::{AttackKind, CoverAnswer, CoverDegree, ElementKind, TracedLine};
use arbiter_rules::encounter::Encounter;
use arbiter_rules::error::RulesError;
use arbiter_rules::grid::{Point, Space, Square};

use super::Ctx;
use super::canvas::{Canvas, Layer, N, Swatch, cross};
use super::labels::Look;
use super::scene::{self, highlight, name};
use super::style;
use arbiter_contract::render::{Lang, glossary};

/// The question drawn, as the handler asked it.
pub struct CoverQuestion {
    /// The attacker's index.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
    /// The attack (an area's origin is drawn).
    pub attack: AttackKind,
}

/// The lines a total cover answer tried (it keeps none): for the size bound and the drawing.
pub fn attempted(enc: &Encounter, q: &CoverQuestion) -> Vec<(Point, Point)> {
    let corners = |s: &Space| {
        let mut v: Vec<Point> = Vec::new();
        for sq in s.squares() {
            for p in sq.corners() {
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
        v
    };
    let (Some(a), Some(t)) = (enc.creatures.get(q.attacker), enc.creatures.get(q.target)) else {
        return Vec::new();
    };
    let from = match q.attack {
        AttackKind::Area { origin, .. } => vec![origin],
        _ => corners(&enc.space(a)),
    };
    let to = corners(&enc.space(t));
    from.iter().flat_map(|f| to.iter().map(move |t| (*f, *t))).collect()
}

/// The number of lines and marks a cover drawing may add, for its size bound.
pub fn extra(enc: &Encounter, q: &CoverQuestion) -> super::Extra {
    let side = |i: usize| enc.creatures.get(i).map_or(1, |c| u64::from(enc.space(c).side.unsigned_abs()));
    let (a, t) = (side(q.attacker), side(q.target));
    // Every corner line (attempted or traced), with a few hits each.
    let lines = (a + 1) * (a + 1) * (t + 1) * (t + 1);
    super::Extra { items: 3 * lines + 16, squares: t * t }
}

/// Draws the cover answer.
pub fn cover(mut ctx: Ctx<'_, '_>, q: &CoverQuestion, a: &CoverAnswer) -> Result<String, RulesError> {
    let enc = ctx.scene.enc;
    let mut c = scene::map(&mut ctx)?;
    target_squares(&mut c, enc, q.target);
    blockers(&mut c, enc, &a.lines);
    if a.degree == CoverDegree::Total && a.lines.is_empty() {
        attempts(&mut c, &attempted(enc, q));
    } else {
        rays(&mut c, &a.lines);
    }
    if let Some(p) = a.corner.filter(|_| !matches!(q.attack, AttackKind::Area { .. })) {
        corner(&mut c, p);
    }
    if let AttackKind::Area { origin, .. } = q.attack {
        area_origin(&mut c, origin);
    }
    scene::label_creatures(&mut c, enc, &[q.target, q.attacker]);
    badge(&mut c, enc, q.target, a);
    captions(&mut c, enc, q, a);
    Ok(c.finish())
}

/// Every square of the target's space, filled yellow and outlined.
pub fn target_squares(c: &mut Canvas, enc: &Encounter, target: usize) {
    let Some(t) = enc.creatures.get(target) else { return };
    let squares: Vec<Square> = enc.space(t).squares().collect();
    highlight(
        c,
        squares,
        "target-square",
        "",
        r##"fill="#F0E442" fill-opacity="0.55" stroke="#000000" stroke-width="2" stroke-dasharray="5 3""##,
    );
    let text = c.tr("target's squares", "cases de la cible");
    c.legend("target-square", Swatch::Outline { stroke: style::BLACK, dash: "5 3" }, text);
}

/// The kind id of a blocking element and its legend text.
fn blocker_kind(k: ElementKind, lang: Lang) -> (String, String) {
    let (id, en, fr) = match k {
        ElementKind::Solid => ("solid".to_owned(), "solid square", "case pleine"),
        ElementKind::Low => ("low".to_owned(), "low obstacle", "obstacle bas"),
        ElementKind::Creature(_) => ("creature".to_owned(), "creature", "créature"),
        ElementKind::Wall { kind, .. } => (format!("wall-{}", style::wall_id(kind)), "", ""),
    };
    let what = match k {
        ElementKind::Wall { kind, .. } => scene::wall_name(kind, lang),
        _ => super::canvas::tr(lang, en, fr),
    };
    let text = match lang {
        Lang::En => format!("blocks a line: {what}"),
        Lang::Fr => format!("bloque une ligne : {what}"),
    };
    (id, text)
}

/// Every element a line met and counted, outlined in red by kind: squares (solid line for a
/// solid square, dashed for a creature, dotted for a low obstacle) and walls (a red halo).
fn blockers(c: &mut Canvas, enc: &Encounter, lines: &[TracedLine]) {
    let mut seen: HashSet<(String, Option<Square>, Option<usize>)> = HashSet::new();
    for hit in lines.iter().flat_map(|l| &l.hits).filter(|h| h.counted) {
        for &(kind, sq) in &hit.elements {
            let (id, text) = blocker_kind(kind, c.lang);
            let wall = match kind {
                ElementKind::Wall { index, .. } => Some(index),
                _ => None,
            };
            if !seen.insert((id.clone(), sq, wall)) {
                continue;
            }
            let dash = match kind {
                ElementKind::Creature(_) => "6 3",
                ElementKind::Low => "1.5 3",
                _ => "",
            };
            if let Some(w) = wall.and_then(|i| enc.grid.walls.get(i)) {
                c.put(Layer::Highlight, format_args!(r##"<line class="blocker" data-kind="{id}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#D55E00" stroke-opacity="0.45" stroke-width="{}" stroke-linecap="round"/>"##,
                    N(c.x(w.from.x.to_f64())),
                    N(c.y(w.from.y.to_f64())),
                    N(c.x(w.to.x.to_f64())),
                    N(c.y(w.to.y.to_f64())),
                    N((c.scale * 0.4).max(6.0))
                ));
                let swatch = Swatch::Line { stroke: style::RED, width: 6.0, dash: String::new() };
                c.legend(&format!("blocker-{id}"), swatch, text);
            } else if let Some(sq) = sq {
                let data = format!(r#"data-kind="{id}""#);
                let paint = format!(
                    r##"fill="none" stroke="#D55E00" stroke-width="{}" stroke-dasharray="{dash}""##,
                    N((c.scale * 0.08).max(2.5))
                );
                highlight(c, [sq], "blocker", &data, &paint);
                c.legend(&format!("blocker-{id}"), Swatch::Outline { stroke: style::RED, dash }, text);
            }
        }
    }
}

/// A segment in pixels: from, to.
pub type Segment = ((f64, f64), (f64, f64));

/// Perpendicular pixel offsets that fan apart lines lying on one another (the same segment
/// of a seam): each group of collinear overlapping lines is spread 3 px apart.
pub fn fan(segments: &[Segment]) -> Vec<(f64, f64)> {
    let n = segments.len();
    let mut group: Vec<usize> = (0..n).collect();
    let collinear = |a: usize, b: usize| {
        let ((x1, y1), (x2, y2)) = segments[a];
        let ((x3, y3), (x4, y4)) = segments[b];
        let (dx, dy) = (x2 - x1, y2 - y1);
        let cross = |x: f64, y: f64| (dx * (y - y1) - dy * (x - x1)).abs();
        let len2 = dx * dx + dy * dy;
        if len2 == 0.0 || cross(x3, y3) > 1e-9 || cross(x4, y4) > 1e-9 {
            return false;
        }
        // Overlap of the projections on the first line.
        let t = |x: f64, y: f64| ((x - x1) * dx + (y - y1) * dy) / len2;
        let (lo, hi) = {
            let (p, q) = (t(x3, y3), t(x4, y4));
            (p.min(q), p.max(q))
        };
        hi > 1e-9 && lo < 1.0 - 1e-9
    };
    for b in 0..n {
        for a in 0..b {
            if group[a] == a && collinear(a, b) {
                group[b] = a;
                break;
            }
        }
    }
    let mut offsets = vec![(0.0, 0.0); n];
    for (g, &((x1, y1), (x2, y2))) in segments.iter().enumerate() {
        let members: Vec<usize> = (0..n).filter(|&i| group[i] == g).collect();
        if members.len() < 2 {
            continue;
        }
        let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt();
        let (px, py) = (-(y2 - y1) / len, (x2 - x1) / len);
        let mid = (members.len() - 1) as f64 / 2.0;
        for (k, &i) in members.iter().enumerate() {
            let off = (k as f64 - mid) * 3.0;
            offsets[i] = (px * off, py * off);
        }
    }
    offsets
}

/// The traced lines of the chosen corner, with a cross at each hit point of a blocked line.
fn rays(c: &mut Canvas, lines: &[TracedLine]) {
    let px = |c: &Canvas, p: Point| (c.x(p.x.to_f64()), c.y(p.y.to_f64()));
    let segs: Vec<_> = lines.iter().map(|l| (px(c, l.from), px(c, l.to))).collect();
    let offsets = fan(&segs);
    for (i, (l, (((x1, y1), (x2, y2)), (ox, oy)))) in lines.iter().zip(segs.iter().zip(&offsets)).enumerate()
    {
        let (status, stroke, dash) =
            if l.blocked { ("blocked", style::RED, "7 3") } else { ("clear", style::GREEN, "") };
        c.put(Layer::Lines, format_args!(r#"<line class="ray" data-status="{status}" data-line="{i}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="2.5" stroke-dasharray="{dash}" stroke-linecap="round"/>"#,
            N(x1 + ox),
            N(y1 + oy),
            N(x2 + ox),
            N(y2 + oy)
        ));
        if l.blocked {
            let mut points: Vec<(f64, f64)> =
                l.hits.iter().filter(|h| h.counted).filter_map(|h| h.at).collect();
            if points.is_empty() {
                // A blocked line always shows where: its first hit, else its middle.
                let first = l.hits.iter().find_map(|h| h.at);
                let (fx, fy) = (l.from.x.to_f64(), l.from.y.to_f64());
                let (tx, ty) = (l.to.x.to_f64(), l.to.y.to_f64());
                points.push(first.unwrap_or(((fx + tx) / 2.0, (fy + ty) / 2.0)));
            }
            for (hx, hy) in points {
                let attrs = format!(r#"class="hit" data-line="{i}""#);
                let mark = cross(c.x(hx) + ox, c.y(hy) + oy, (c.scale * 0.12).clamp(3.0, 6.0), &attrs);
                c.layer(Layer::Marks).push_str(&mark);
            }
            let text =
                c.tr("hit point (where a line is blocked)", "point d'impact (où la ligne est bloquée)");
            c.legend("hit", Swatch::Cross, text);
        }
    }
    if lines.iter().any(|l| !l.blocked) {
        let text = c.tr("clear line", "ligne dégagée");
        c.legend("ray-clear", Swatch::Line { stroke: style::GREEN, width: 2.5, dash: String::new() }, text);
    }
    if lines.iter().any(|l| l.blocked) {
        let text = c.tr("blocked line (dashed)", "ligne bloquée (tirets)");
        c.legend("ray-blocked", Swatch::Line { stroke: style::RED, width: 2.5, dash: "7 3".into() }, text);
    }
}

/// Total cover: every line tried, all blocked, in red.
fn attempts(c: &mut Canvas, lines: &[(Point, Point)]) {
    for (i, (f, t)) in lines.iter().enumerate() {
        c.put(Layer::Lines, format_args!(r#"<line class="ray" data-status="attempt" data-line="{i}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.5" stroke-opacity="0.8" stroke-dasharray="3 3"/>"#,
            N(c.x(f.x.to_f64())),
            N(c.y(f.y.to_f64())),
            N(c.x(t.x.to_f64())),
            N(c.y(t.y.to_f64())),
            style::RED
        ));
    }
    if !lines.is_empty() {
        let text = c.tr(
            "every line tried, all blocked (total cover)",
            "toutes les lignes essayées, toutes bloquées (abri total)",
        );
        c.legend("ray-attempt", Swatch::Line { stroke: style::RED, width: 1.5, dash: "3 3".into() }, text);
    }
}

/// The attacker's chosen corner: a blue dot.
fn corner(c: &mut Canvas, p: Point) {
    c.put(Layer::Marks, format_args!(r##"<circle class="corner" cx="{}" cy="{}" r="{}" fill="#0072B2" stroke="#FFFFFF" stroke-width="2"/>"##,
        N(c.x(p.x.to_f64())),
        N(c.y(p.y.to_f64())),
        N((c.scale * 0.14).clamp(4.0, 7.0))
    ));
    let text = c.tr("the attacker's chosen corner", "le coin choisi par l'attaquant");
    c.legend("corner", Swatch::Dot { fill: style::BLUE }, text);
}

/// An area's point of origin: a blue diamond.
fn area_origin(c: &mut Canvas, p: Point) {
    let (x, y, r) = (c.x(p.x.to_f64()), c.y(p.y.to_f64()), (c.scale * 0.2).clamp(5.0, 9.0));
    c.put(Layer::Marks, format_args!(r##"<path class="origin" d="M{} {}L{} {}L{} {}L{} {}Z" fill="#0072B2" stroke="#FFFFFF" stroke-width="2"/>"##,
        N(x),
        N(y - r),
        N(x + r),
        N(y),
        N(x),
        N(y + r),
        N(x - r),
        N(y)
    ));
    let text = c.tr("the area's point of origin (diamond)", "le point d'origine de la zone (losange)");
    c.legend("origin", Swatch::Dot { fill: style::BLUE }, text);
}

/// The degree's badge fill: stronger cover, warmer.
pub fn badge_fill(d: CoverDegree) -> &'static str {
    match d {
        CoverDegree::None => "#FFFFFF",
        CoverDegree::Partial | CoverDegree::Half | CoverDegree::Cover => style::YELLOW,
        CoverDegree::ThreeQuarters | CoverDegree::Improved => style::ORANGE,
        CoverDegree::Total => style::RED,
    }
}

fn badge(c: &mut Canvas, enc: &Encounter, target: usize, a: &CoverAnswer) {
    let Some(t) = enc.creatures.get(target) else { return };
    let words = &enc.ruleset.rules().words;
    let text = super::canvas::localise(glossary::cover_degree(a.degree, words, c.lang), c.lang);
    let b = scene::token_box(c, &enc.space(t));
    let font = c.label_font() + 1.0;
    c.labels.place(&text, font, b, Look::Badge(badge_fill(a.degree)), "cover-badge");
}

fn captions(c: &mut Canvas, enc: &Encounter, q: &CoverQuestion, a: &CoverAnswer) {
    let lang = c.lang;
    let (t, at) = (name(enc, q.target), name(enc, q.attacker));
    let degree = glossary::cover_degree(a.degree, &enc.ruleset.rules().words, lang);
    c.caption(match lang {
        Lang::En => format!("Cover of {t} against {at}: {degree}"),
        Lang::Fr => format!("Abri de {t} face à {at} : {degree}"),
    });
    let numbers = match (lang, a.ac_bonus, a.save_bonus) {
        (Lang::En, Some(ac), Some(save)) => format!("AC bonus {ac:+} · save bonus {save:+}"),
        (Lang::Fr, Some(ac), Some(save)) => {
            format!("bonus à la CA {ac:+} · bonus aux jets de sauvegarde {save:+}")
        }
        (Lang::En, ..) => "cannot be targeted directly".to_owned(),
        (Lang::Fr, ..) => "ne peut pas être ciblé directement".to_owned(),
    };
    let soft = match (a.soft, lang) {
        (false, _) => "",
        (true, Lang::En) => " · soft cover (creatures only)",
        (true, Lang::Fr) => " · abri mou (créatures seulement)",
    };
    c.caption(format!("{numbers}{soft}"));
    c.caption(scene::rules_line(&a.trace, enc.ruleset.id(), lang));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_along_one_seam_are_fanned_apart_and_others_left_alone() {
        let segs = [((0.0, 0.0), (40.0, 0.0)), ((0.0, 0.0), (80.0, 0.0)), ((0.0, 0.0), (40.0, 40.0))];
        let off = fan(&segs);
        assert_eq!(off[2], (0.0, 0.0));
        assert_eq!(off[0].1, -off[1].1);
        assert!((off[0].1 - off[1].1).abs() >= 3.0, "{off:?}");
        // Collinear but not overlapping: drawn where they are.
        let apart = fan(&[((0.0, 0.0), (40.0, 0.0)), ((80.0, 0.0), (120.0, 0.0))]);
        assert_eq!(apart, vec![(0.0, 0.0), (0.0, 0.0)]);
    }
}
