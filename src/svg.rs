//! SVG drawings of an encounter and the lines a question traced, for people who would rather
//! look (`Accept: image/svg+xml`).

use std::fmt::Write;

use arbiter_rules::cover::CoverAnswer;
use arbiter_rules::encounter::{Encounter, Terrain, WallKind};
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::movement::Movement;

use crate::render::Lang;
use crate::render::glossary;

/// Escapes text for XML content and attributes.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

const PALETTE: [&str; 8] =
    ["#4e79a7", "#e15759", "#59a14f", "#b07aa1", "#f28e2b", "#76b7b2", "#edc948", "#9c755f"];

/// An upper bound on the size of a drawing of `enc` before the question's own lines, bytes:
/// generous per element (a square's `<rect>` with long decimals is about 110 bytes), so that
/// a drawing past the answer limit is refused before it is drawn.
pub fn size_bound(enc: &Encounter) -> u64 {
    let mut drawn = 0u64;
    for y in 0..enc.grid.height {
        for x in 0..enc.grid.width {
            if enc.grid.terrain(Square::new(x, y)) != Terrain::default() {
                drawn += 1;
            }
        }
    }
    let lines = u64::from(enc.grid.width.unsigned_abs()) + u64::from(enc.grid.height.unsigned_abs()) + 2;
    16 * 1024
        + 128 * drawn
        + 96 * lines
        + 160 * enc.grid.walls.len() as u64
        + 512 * enc.creatures.len() as u64
}

/// Refuses, before any work, a drawing that could exceed the answer limit.
pub fn fits(enc: &Encounter, limit: usize) -> Result<(), crate::error::AppError> {
    let size = size_bound(enc);
    if size > limit as u64 {
        return Err(crate::error::AppError::AnswerTooLarge {
            size: crate::error::AnswerSize::UpTo(size),
            limit,
            hint: crate::error::Hint::Svg,
        });
    }
    Ok(())
}

/// The grid, walls and creatures; returns the document so far and the cell size.
fn base(enc: &Encounter, title: &str, legend_rows: usize) -> (String, f64) {
    let (w, h) = (enc.grid.width.max(1) as f64, enc.grid.height.max(1) as f64);
    let cell = (960.0 / w.max(h)).clamp(2.0, 40.0);
    let (pw, ph) = (w * cell, h * cell);
    let legend_h = 22.0 * legend_rows as f64 + 40.0;
    // The legend needs room even under a narrow map.
    let sw = pw.max(1000.0);
    let mut s = String::with_capacity(4096);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{sw}" height="{}" viewBox="0 0 {sw} {}" font-family="sans-serif">"#,
        ph + legend_h,
        ph + legend_h
    );
    let _ = write!(s, r##"<rect x="0" y="0" width="{sw}" height="{}" fill="#ffffff"/>"##, ph + legend_h);
    let _ = write!(s, "<title>{}</title>", esc(title));
    let _ = write!(s, r##"<rect x="0" y="0" width="{pw}" height="{ph}" fill="#fbfaf7"/>"##);
    terrain(&mut s, enc, cell);
    grid_lines(&mut s, enc, cell, pw, ph);
    walls(&mut s, enc, cell);
    creatures(&mut s, enc, cell);
    (s, cell)
}

/// The squares that are not open ground, by their terrain.
fn terrain(s: &mut String, enc: &Encounter, cell: f64) {
    for y in 0..enc.grid.height {
        for x in 0..enc.grid.width {
            let t = enc.grid.terrain(arbiter_rules::grid::Square::new(x, y));
            let fill = if t.has(Terrain::SOLID) {
                "#3b3b3b"
            } else if t.has(Terrain::OPAQUE) {
                "#8a8a8a"
            } else if t.has(Terrain::LOW) {
                "#c49a6c"
            } else if t.has(Terrain::WATER) {
                "#7fb2e5"
            } else if t.has(Terrain::CONCEALING) {
                "#b9dfb0"
            } else if t.has(Terrain::DIFFICULT) {
                "#e8dcc0"
            } else {
                continue;
            };
            let _ = write!(
                s,
                r#"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="{fill}"/>"#,
                x as f64 * cell,
                y as f64 * cell
            );
        }
    }
}

/// The grid lines, when the squares are large enough to show them.
fn grid_lines(s: &mut String, enc: &Encounter, cell: f64, pw: f64, ph: f64) {
    if cell >= 6.0 {
        let _ = write!(s, r##"<g stroke="#d8d4cc" stroke-width="1">"##);
        for x in 0..=enc.grid.width {
            let _ = write!(s, r#"<line x1="{0}" y1="0" x2="{0}" y2="{ph}"/>"#, x as f64 * cell);
        }
        for y in 0..=enc.grid.height {
            let _ = write!(s, r#"<line x1="0" y1="{0}" x2="{pw}" y2="{0}"/>"#, y as f64 * cell);
        }
        s.push_str("</g>");
    }
}

/// The walls, drawn by kind.
fn walls(s: &mut String, enc: &Encounter, cell: f64) {
    for wall in &enc.grid.walls {
        let (stroke, width, dash) = match wall.kind {
            WallKind::Solid => ("#000000", 4.0, ""),
            WallKind::Low => ("#8b5a2b", 3.0, "6 3"),
            WallKind::Window => ("#3fa7d6", 3.0, ""),
            WallKind::ArrowSlit => ("#000000", 4.0, "2 2"),
            WallKind::DoorOpen => ("#2e8b57", 2.0, "4 4"),
            WallKind::DoorClosed => ("#8b4513", 4.0, ""),
        };
        let _ = write!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{dash}" stroke-linecap="round"/>"#,
            wall.from.x.to_f64() * cell,
            wall.from.y.to_f64() * cell,
            wall.to.x.to_f64() * cell,
            wall.to.y.to_f64() * cell
        );
    }
}

/// The creatures' spaces, coloured by side, with their ids.
fn creatures(s: &mut String, enc: &Encounter, cell: f64) {
    let mut sides: Vec<&str> = Vec::new();
    for c in &enc.creatures {
        if !sides.contains(&c.side.as_str()) {
            sides.push(&c.side);
        }
    }
    for c in &enc.creatures {
        let sp = enc.space(c);
        let colour = PALETTE[sides.iter().position(|s| *s == c.side).unwrap_or(0) % PALETTE.len()];
        let (x, y, size) = (sp.anchor.x as f64 * cell, sp.anchor.y as f64 * cell, sp.side as f64 * cell);
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{colour}" fill-opacity="0.55" stroke="{colour}" stroke-width="2"/>"#,
            x + 2.0,
            y + 2.0,
            (size - 4.0).max(1.0),
            (size - 4.0).max(1.0),
            cell / 4.0
        );
        let font = (cell * 0.35).clamp(6.0, 14.0);
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="{font}" text-anchor="middle" fill="#111">{}</text>"##,
            x + size / 2.0,
            y + size / 2.0 + font / 3.0,
            esc(&c.id)
        );
    }
}

fn legend(s: &mut String, top: f64, rows: &[String]) {
    for (i, r) in rows.iter().enumerate() {
        let _ = write!(
            s,
            r##"<text x="8" y="{}" font-size="14" fill="#222">{}</text>"##,
            top + 24.0 + 22.0 * i as f64,
            esc(r)
        );
    }
}

fn xy(p: Point, cell: f64) -> (f64, f64) {
    (p.x.to_f64() * cell, p.y.to_f64() * cell)
}

/// The legend rows every drawing shares: the walls and the squares, in the language.
fn key_rows(lang: Lang) -> [String; 2] {
    match lang {
        Lang::En => [
            "Walls: black solid, brown dashed low, blue window, dotted arrow slit, brown door, green dashed open door".to_owned(),
            "Squares: dark solid, grey opaque, tan low, green concealing, beige difficult, blue water".to_owned(),
        ],
        Lang::Fr => [
            "Murs : noir plein, tirets bruns muret, bleu fenêtre, pointillés meurtrière, brun porte, tirets verts porte ouverte".to_owned(),
            "Cases : sombre pleine, grise opaque, ocre obstacle bas, verte camouflage, beige terrain difficile, bleue eau".to_owned(),
        ],
    }
}

/// The legend rows in the language, French typography applied.
fn localised(rows: Vec<String>, lang: Lang) -> Vec<String> {
    match lang {
        Lang::En => rows,
        Lang::Fr => rows.iter().map(|r| crate::lang::french_typography(r)).collect(),
    }
}

/// The cover answer's title and legend rows, in the language.
fn cover_rows(enc: &Encounter, attacker: usize, target: usize, a: &CoverAnswer, lang: Lang) -> Vec<String> {
    let name = |i: usize| enc.creatures.get(i).map_or("?", |c| c.id.as_str()).to_owned();
    let degree = glossary::cover_degree(a.degree, &enc.ruleset.rules().words, lang);
    let (ruleset, procedure) = (enc.ruleset.id(), a.procedure);
    // Total cover has no bonuses to show: the target cannot be targeted.
    let numbers = match (lang, a.ac_bonus, a.save_bonus) {
        (Lang::En, Some(ac), Some(save)) => format!("AC bonus {ac:+} · save bonus {save:+}"),
        (Lang::Fr, Some(ac), Some(save)) => {
            format!("bonus à la CA {ac:+} · bonus aux jets de sauvegarde {save:+}")
        }
        (Lang::En, ..) => "cannot be targeted directly".to_owned(),
        (Lang::Fr, ..) => "ne peut pas être ciblé directement".to_owned(),
    };
    let mut rows = match lang {
        Lang::En => vec![
            format!("Cover of {} against {}: {degree}", name(target), name(attacker)),
            format!(
                "Ruleset {ruleset} · procedure {procedure} · {numbers}{}",
                if a.soft { " · soft (creatures only)" } else { "" }
            ),
            "Lines: green clear, red blocked; blue dot: the attacker's corner".to_owned(),
        ],
        Lang::Fr => vec![
            format!("Abri de {} face à {} : {degree}", name(target), name(attacker)),
            format!(
                "Règles {ruleset} · procédure {procedure} · {numbers}{}",
                if a.soft { " · abri mou (créatures seulement)" } else { "" }
            ),
            "Lignes : vert dégagée, rouge bloquée ; point bleu : le coin de l'attaquant".to_owned(),
        ],
    };
    rows.extend(key_rows(lang));
    localised(rows, lang)
}

/// The cover answer drawn: grid, walls, creatures, and the chosen corner's lines, captioned
/// in the language.
pub fn cover(enc: &Encounter, attacker: usize, target: usize, a: &CoverAnswer, lang: Lang) -> String {
    let rows = cover_rows(enc, attacker, target, a, lang);
    let title = rows[0].clone();
    let (mut s, cell) = base(enc, &title, rows.len());
    s.push_str(r#"<g stroke-width="2" stroke-linecap="round">"#);
    for l in &a.lines {
        let (x1, y1) = xy(l.from, cell);
        let (x2, y2) = xy(l.to, cell);
        let colour = if l.blocked { "#d62728" } else { "#2ca02c" };
        let _ = write!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}"/>"#);
        for h in l.hits.iter().filter(|h| h.counted) {
            if let Some((hx, hy)) = h.at {
                let _ =
                    write!(s, r##"<circle cx="{}" cy="{}" r="3" fill="#d62728"/>"##, hx * cell, hy * cell);
            }
        }
    }
    s.push_str("</g>");
    if let Some(c) = a.corner {
        let (x, y) = xy(c, cell);
        let _ = write!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="5" fill="#1f77b4" stroke="#fff" stroke-width="1.5"/>"##
        );
    }
    let top = enc.grid.height.max(1) as f64 * cell;
    legend(&mut s, top, &rows);
    s.push_str("</svg>");
    s
}

/// The movement answer's title and legend rows, in the language.
fn movement_rows(enc: &Encounter, mover: usize, m: &Movement, lang: Lang) -> Vec<String> {
    let name = enc.creatures.get(mover).map_or("?", |c| c.id.as_str());
    let mode = glossary::movement_mode(m.mode.id(), lang);
    let why = glossary::movement_failure(m.reason.unwrap_or("?"), lang);
    let spent = glossary::distance(i64::from(m.total_ft.saturating_add(m.extra_ft)), lang);
    let budget = m.budget_ft.map(|b| glossary::distance(i64::from(b), lang));
    let provoked = m.opportunities.iter().filter(|o| o.provoked).count();
    let ruleset = enc.ruleset.id();
    let mut rows = match lang {
        Lang::En => vec![
            format!("Movement of {name} ({mode}): {}", if m.legal { "legal".to_owned() } else { format!("illegal ({why})") }),
            format!(
                "Ruleset {ruleset} · {spent} spent{} · {provoked} attack(s) of opportunity",
                budget.map(|b| format!(" of {b}")).unwrap_or_default()
            ),
            "Path: green legal steps, red illegal; blue dot: start, black ring: last legal square; orange ring: provokes".to_owned(),
        ],
        Lang::Fr => vec![
            format!("Déplacement de {name} ({mode}) : {}", if m.legal { "permis".to_owned() } else { format!("interdit ({why})") }),
            format!(
                "Règles {ruleset} · {spent} dépensés{} · {provoked} attaque(s) d'opportunité",
                budget.map(|b| format!(" sur {b}")).unwrap_or_default()
            ),
            "Chemin : vert pas permis, rouge interdit ; point bleu : départ, anneau noir : dernière case permise ; anneau orange : provoque".to_owned(),
        ],
    };
    rows.extend(key_rows(lang));
    localised(rows, lang)
}

/// The movement drawn: grid, walls, creatures, the path (green legal steps, red illegal
/// ones), the last legal square, and an orange ring on each square where an attack of
/// opportunity is provoked; captioned in the language.
pub fn movement(enc: &Encounter, mover: usize, m: &Movement, lang: Lang) -> String {
    let rows = movement_rows(enc, mover, m, lang);
    let title = rows[0].clone();
    let (mut s, cell) = base(enc, &title, rows.len());
    let side = enc.creatures.get(mover).map_or(1, |c| enc.space(c).side);
    // The centre of the mover's space on an anchor square.
    let centre = |sq: Square| {
        let half = f64::from(side) / 2.0;
        ((f64::from(sq.x) + half) * cell, (f64::from(sq.y) + half) * cell)
    };
    s.push_str(r#"<g stroke-width="4" stroke-linecap="round">"#);
    for st in &m.steps {
        let (x1, y1) = centre(st.from);
        let (x2, y2) = centre(st.to);
        let colour = if st.legal { "#2ca02c" } else { "#d62728" };
        let _ = write!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}"/>"#);
    }
    s.push_str("</g>");
    for o in m.opportunities.iter().filter(|o| o.provoked) {
        let (x, y) = centre(o.square);
        let _ = write!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="#ff7f0e" stroke-width="3"/>"##,
            cell * 0.35
        );
    }
    let (x, y) = centre(m.start);
    let _ =
        write!(s, r##"<circle cx="{x}" cy="{y}" r="5" fill="#1f77b4" stroke="#fff" stroke-width="1.5"/>"##);
    let (x, y) = centre(m.last_legal);
    let _ = write!(
        s,
        r##"<circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="#000" stroke-width="2"/>"##,
        cell * 0.2
    );
    let top = enc.grid.height.max(1) as f64 * cell;
    legend(&mut s, top, &rows);
    s.push_str("</svg>");
    s
}
