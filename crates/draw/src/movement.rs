//! The movement drawing: the path step by step (legal solid green, illegal dashed red, after
//! an illegal step dotted grey: never reached), each step's cost, the start and the last legal
//! square, the reach of every creature the move passes as a dashed outline, and for each attack
//! of opportunity a ring where it is provoked, an arrow from the attacker and its name.

use std::collections::HashSet;

use arbiter_rules::encounter::{Creature, Encounter};
use arbiter_rules::error::RulesError;
use arbiter_rules::grid::{FEET_PER_SQUARE, Space, Square};
use arbiter_rules::movement::Movement;
use arbiter_rules::reach;

use super::Ctx;
use super::canvas::{Canvas, Layer, N, Swatch, esc};
use super::labels::{Look, Rect};
use super::scene::{self, name, outline, side_colours};
use super::style;
use arbiter_contract::render::{Lang, glossary};

/// The farthest reach outlined, squares (a longer reach is outlined this far).
const MAX_REACH_SQUARES: i32 = 24;

/// The squares a creature threatens near the map: its reach, clipped to the grid.
pub fn reach_squares(enc: &Encounter, cr: &Creature) -> HashSet<Square> {
    let space = enc.space(cr);
    let band = reach::band(enc, cr, cr.wielding.as_ref());
    let r =
        i32::try_from(band.max_ft / FEET_PER_SQUARE).unwrap_or(MAX_REACH_SQUARES).clamp(0, MAX_REACH_SQUARES)
            + 1;
    let mut out = HashSet::new();
    if !reach::can_threaten(enc, cr) {
        return out;
    }
    let (x0, x1) = ((space.min_x() - r).max(0), (space.max_x() + r).min(enc.grid.width - 1));
    let (y0, y1) = ((space.min_y() - r).max(0), (space.max_y() + r).min(enc.grid.height - 1));
    for y in y0..=y1 {
        for x in x0..=x1 {
            let sq = Square::new(x, y);
            if reach::threatens(enc, cr, &Space { anchor: sq, side: 1 }) {
                out.insert(sq);
            }
        }
    }
    out
}

/// What a movement drawing may add, for its size bound: per step a line and a cost, per other
/// creature its reach outline and an attack.
pub fn extra(enc: &Encounter, mover: usize, path_len: usize) -> super::Extra {
    let area = u64::from(enc.grid.width.unsigned_abs()) * u64::from(enc.grid.height.unsigned_abs());
    let mut squares = 0u64;
    for (i, cr) in enc.creatures.iter().enumerate().filter(|(i, _)| *i != mover) {
        let _ = i;
        let band = reach::band(enc, cr, cr.wielding.as_ref());
        let r = u64::try_from(band.max_ft / FEET_PER_SQUARE).unwrap_or(0).min(MAX_REACH_SQUARES as u64) + 1;
        let side = u64::from(enc.space(cr).side.unsigned_abs());
        squares = squares.saturating_add(((2 * r + side) * (2 * r + side)).min(area));
    }
    super::Extra { items: 2 * path_len as u64 + 3 * enc.creatures.len() as u64 + 8, squares }
}

/// Draws the movement answer.
pub fn movement(mut ctx: Ctx<'_, '_>, mover: usize, m: &Movement) -> Result<String, RulesError> {
    let enc = ctx.scene.enc;
    let mut c = scene::map(&mut ctx)?;
    reaches(&mut c, enc, m);
    let side = enc.creatures.get(mover).map_or(1, |cr| enc.space(cr).side);
    let centre = |c: &Canvas, sq: Square| {
        let half = f64::from(side) / 2.0;
        (c.x(f64::from(sq.x) + half), c.y(f64::from(sq.y) + half))
    };
    steps(&mut c, m, &centre);
    ends(&mut c, m, &centre);
    let oa = attacks(&mut c, enc, m, &centre);
    // Labels keep off the rings and the squares the path passes through.
    for (_, ring, _) in &oa {
        c.labels.obstacle(*ring);
    }
    let node = c.scale * 0.3;
    for st in &m.steps {
        let (x, y) = centre(&c, st.to);
        c.labels.obstacle(Rect::new(x - node / 2.0, y - node / 2.0, node, node));
    }
    let attackers: Vec<usize> = m
        .opportunities
        .iter()
        .filter_map(|o| enc.creatures.iter().position(|cr| cr.id == o.creature))
        .collect();
    let first: Vec<usize> = std::iter::once(mover).chain(attackers).collect();
    scene::label_creatures(&mut c, enc, &first);
    for (text, ring, k) in oa {
        c.labels.place(&text, c.label_font(), ring, Look::Plain(style::ORANGE), &format!("oa-{k}"));
    }
    cost_labels(&mut c, m, &centre);
    captions(&mut c, enc, mover, m);
    Ok(c.finish())
}

/// The reach of every creature named by an attack of opportunity, provoked or not.
fn reaches(c: &mut Canvas, enc: &Encounter, m: &Movement) {
    let colours = side_colours(enc);
    let mut done = HashSet::new();
    for o in &m.opportunities {
        let Some(i) = enc.creatures.iter().position(|cr| cr.id == o.creature) else { continue };
        if !done.insert(i) {
            continue;
        }
        let set = reach_squares(enc, &enc.creatures[i]);
        if set.is_empty() {
            continue;
        }
        let d = outline(c, &set);
        c.put(Layer::Highlight, format_args!(r#"<path class="reach" data-creature="{}" d="{d}" fill="none" stroke="{}" stroke-width="2.5" stroke-dasharray="6 3"/>"#,
            esc(&enc.creatures[i].id),
            colours[i]
        ));
        let text = c.tr(
            "reach (dashed outline, the creature's colour)",
            "allonge (contour en tirets, couleur de la créature)",
        );
        c.legend("reach", Swatch::Outline { stroke: style::BLACK, dash: "6 3" }, text);
    }
}

/// The status of each step: legal, illegal, or after an illegal step (never reached).
pub fn statuses(m: &Movement) -> Vec<&'static str> {
    let mut stopped = false;
    m.steps
        .iter()
        .map(|st| {
            let s = if stopped {
                "after-illegal"
            } else if st.legal {
                "legal"
            } else {
                "illegal"
            };
            stopped |= !st.legal;
            s
        })
        .collect()
}

fn steps(c: &mut Canvas, m: &Movement, centre: &dyn Fn(&Canvas, Square) -> (f64, f64)) {
    for (st, status) in m.steps.iter().zip(statuses(m)) {
        let ((x1, y1), (x2, y2)) = (centre(c, st.from), centre(c, st.to));
        let (stroke, width, dash, en, fr) = match status {
            "legal" => (style::GREEN, 4.0, "", "legal step", "pas permis"),
            "illegal" => (style::RED, 4.0, "8 4", "illegal step (dashed)", "pas interdit (tirets)"),
            _ => (
                style::GREY,
                3.0,
                "2 5",
                "after an illegal step: never reached (dotted)",
                "après un pas interdit : jamais atteint (pointillés)",
            ),
        };
        c.put(Layer::Lines, format_args!(r#"<line class="step" data-status="{status}" data-index="{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{dash}" stroke-linecap="round" marker-end="url(#arrow-step)"/>"#,
            st.index,
            N(x1),
            N(y1),
            N(x2),
            N(y2)
        ));
        let text = c.tr(en, fr);
        c.legend(&format!("step-{status}"), Swatch::Line { stroke, width, dash: dash.to_owned() }, text);
    }
}

fn ends(c: &mut Canvas, m: &Movement, centre: &dyn Fn(&Canvas, Square) -> (f64, f64)) {
    let (x, y) = centre(c, m.start);
    let r = (c.scale * 0.14).clamp(4.0, 7.0);
    c.put(Layer::Marks, format_args!(r##"<circle class="start" cx="{}" cy="{}" r="{}" fill="#0072B2" stroke="#FFFFFF" stroke-width="2"/>"##,
        N(x),
        N(y),
        N(r)
    ));
    let text = c.tr("start", "départ");
    c.legend("start", Swatch::Dot { fill: style::BLUE }, text);
    let (x, y) = centre(c, m.last_legal);
    c.put(Layer::Marks, format_args!(r##"<circle class="last-legal" cx="{}" cy="{}" r="{}" fill="none" stroke="#000000" stroke-width="2.5"/>"##,
        N(x),
        N(y),
        N(c.scale * 0.25)
    ));
    let text = c.tr("last square reached legally", "dernière case atteinte de façon permise");
    c.legend("last-legal", Swatch::Ring { stroke: style::BLACK }, text);
}

/// Each provoked attack of opportunity: a ring where the mover stands, an arrow from the
/// attacker; returns the labels to place (text, ring box, index).
fn attacks(
    c: &mut Canvas,
    enc: &Encounter,
    m: &Movement,
    centre: &dyn Fn(&Canvas, Square) -> (f64, f64),
) -> Vec<(String, Rect, usize)> {
    let mut labels = Vec::new();
    for (k, o) in m.opportunities.iter().enumerate().filter(|(_, o)| o.provoked) {
        let (x, y) = centre(c, o.square);
        let r = c.scale * 0.38;
        let id = esc(&o.creature);
        c.put(Layer::Marks, format_args!(r##"<circle class="oa-ring" data-attacker="{id}" cx="{}" cy="{}" r="{}" fill="none" stroke="#E69F00" stroke-width="3.5"/>"##,
            N(x),
            N(y),
            N(r)
        ));
        if let Some(a) = enc.creatures.iter().find(|cr| cr.id == o.creature) {
            let b = scene::token_box(c, &enc.space(a));
            let (ax, ay) = b.centre();
            let (dx, dy) = (x - ax, y - ay);
            let len = (dx * dx + dy * dy).sqrt().max(1e-6);
            // From the token's edge to the ring's.
            let start = (b.w / 2.0).min(len / 3.0);
            let stop = (len - r - 2.0).max(start);
            c.put(Layer::Marks, format_args!(r##"<line class="oa-arrow" data-attacker="{id}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#E69F00" stroke-width="3" marker-end="url(#arrow-oa)"/>"##,
                N(ax + dx / len * start),
                N(ay + dy / len * start),
                N(ax + dx / len * stop),
                N(ay + dy / len * stop)
            ));
        }
        let text = match c.lang {
            Lang::En => format!("OA: {}", o.creature),
            Lang::Fr => format!("AO : {}", o.creature),
        };
        labels.push((super::canvas::localise(&text, c.lang), Rect::new(x - r, y - r, 2.0 * r, 2.0 * r), k));
        let text = c.tr(
            "attack of opportunity (OA): ring where it is provoked, arrow from the attacker",
            "attaque d'opportunité (AO) : anneau où elle est provoquée, flèche depuis l'attaquant",
        );
        c.legend("oa", Swatch::Ring { stroke: style::ORANGE }, text);
    }
    labels
}

fn cost_labels(c: &mut Canvas, m: &Movement, centre: &dyn Fn(&Canvas, Square) -> (f64, f64)) {
    if m.budget_ft.is_none() {
        return;
    }
    let font = (c.label_font() - 1.0).max(9.0);
    for st in &m.steps {
        let ((x1, y1), (x2, y2)) = (centre(c, st.from), centre(c, st.to));
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let text = short_distance(st.cost_ft, c.lang);
        c.labels.place(
            &text,
            font,
            Rect::new(mx - 3.0, my - 3.0, 6.0, 6.0),
            Look::Plain(style::GREY),
            &format!("step-{}", st.index),
        );
    }
}

/// A step's cost, short: "10 ft", "3 m" (1 square = 5 ft = 1,5 m).
pub fn short_distance(feet: u32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{feet} ft"),
        Lang::Fr => {
            let d = glossary::decimal_fr(i64::from(feet) * 3);
            let d = if d.contains(',') { d.trim_end_matches('0') } else { &d };
            format!("{d}\u{a0}m")
        }
    }
}

fn captions(c: &mut Canvas, enc: &Encounter, mover: usize, m: &Movement) {
    let lang = c.lang;
    let who = name(enc, mover);
    let mode = glossary::movement_mode(m.mode.id(), lang);
    let why = glossary::movement_failure(m.reason.unwrap_or("illegal_step"), lang);
    let verdict = match (m.legal, lang) {
        (true, Lang::En) => "legal".to_owned(),
        (true, Lang::Fr) => "permis".to_owned(),
        (false, Lang::En) => format!("illegal ({why})"),
        (false, Lang::Fr) => format!("interdit ({why})"),
    };
    c.caption(match lang {
        Lang::En => format!("Movement of {who} ({mode}): {verdict}"),
        Lang::Fr => format!("Déplacement de {who} ({mode}) : {verdict}"),
    });
    let spent = glossary::distance(i64::from(m.total_ft.saturating_add(m.extra_ft)), lang);
    let budget = m.budget_ft.map(|b| glossary::distance(i64::from(b), lang));
    let provoked = m.opportunities.iter().filter(|o| o.provoked).count();
    c.caption(match lang {
        Lang::En => format!(
            "{spent} spent{} · {provoked} attack(s) of opportunity",
            budget.map(|b| format!(" of {b}")).unwrap_or_default()
        ),
        Lang::Fr => format!(
            "{spent} dépensés{} · {provoked} attaque(s) d'opportunité",
            budget.map(|b| format!(" sur {b}")).unwrap_or_default()
        ),
    });
    c.caption(scene::rules_line(&m.trace, enc.ruleset.id(), lang));
}
