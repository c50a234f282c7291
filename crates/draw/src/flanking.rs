//! The flanking drawing: the target's squares, the squares each enemy of the target threatens
//! (a dashed outline in its colour), the line between the centres of the attacker's and each
//! flanker's squares, and a badge saying whether the target is flanked.

use std::collections::HashSet;

use arbiter_rules::error::RulesError;
use arbiter_rules::flanking::FlankAnswer;
use arbiter_rules::grid::Square;

use super::Ctx;
use super::canvas::{Canvas, Layer, N, Swatch, esc};
use super::cover::target_squares;
use super::labels::Look;
use super::scene::{self, name, outline, side_colours};
use super::style;
use arbiter_contract::render::Lang;

/// What a flanking drawing may add, for its size bound: each enemy's threatened squares are
/// in the answer, so the bound counts the map's squares once per creature.
pub fn extra(enc: &arbiter_rules::encounter::Encounter) -> super::Extra {
    let area = u64::from(enc.grid.width.unsigned_abs()) * u64::from(enc.grid.height.unsigned_abs());
    let n = enc.creatures.len() as u64;
    super::Extra { items: 2 * n + 8, squares: area.min(4096).saturating_mul(n) }
}

/// Draws the flanking answer.
pub fn flanking(
    mut ctx: Ctx<'_, '_>,
    attacker: usize,
    target: usize,
    a: &FlankAnswer,
) -> Result<String, RulesError> {
    let (enc, lang) = (ctx.scene.enc, ctx.lang);
    let mut c = scene::map(&mut ctx)?;
    target_squares(&mut c, enc, target);
    threats(&mut c, enc, a);
    lines(&mut c, enc, a);
    let flankers: Vec<usize> = a.flankers.iter().map(|f| f.creature).collect();
    let first: Vec<usize> = [target, attacker].into_iter().chain(flankers).collect();
    scene::label_creatures(&mut c, enc, &first);
    if let Some(t) = enc.creatures.get(target) {
        let (text, fill) = match (a.flanked, lang) {
            (true, Lang::En) => ("flanked", style::ORANGE),
            (true, Lang::Fr) => ("pris en tenaille", style::ORANGE),
            (false, Lang::En) => ("not flanked", "#FFFFFF"),
            (false, Lang::Fr) => ("pas de prise en tenaille", "#FFFFFF"),
        };
        let b = scene::token_box(&c, &enc.space(t));
        let font = c.label_font() + 1.0;
        c.labels.place(text, font, b, Look::Badge(fill), "flanking-badge");
    }
    let names: Vec<String> = a.flankers.iter().map(|f| name(enc, f.creature).to_owned()).collect();
    let outcome = arbiter_contract::render::flanking::outcome_text(
        a.flanked,
        &names,
        a.attack_bonus,
        a.advantage,
        lang,
    );
    let (t, at) = (name(enc, target), name(enc, attacker));
    c.caption(match lang {
        Lang::En => format!("Flanking of {t} by {at}: {outcome}"),
        Lang::Fr => format!("Prise en tenaille de {t} par {at} : {outcome}"),
    });
    c.caption(scene::rules_line(&a.trace, enc.ruleset.id(), lang));
    Ok(c.finish())
}

fn threats(c: &mut Canvas, enc: &arbiter_rules::encounter::Encounter, a: &FlankAnswer) {
    let colours = side_colours(enc);
    for th in &a.threatened {
        let set: HashSet<Square> = th
            .squares
            .iter()
            .copied()
            .chain(
                enc.creatures
                    .get(th.creature)
                    .map(|cr| enc.space(cr).squares().collect::<Vec<_>>())
                    .unwrap_or_default(),
            )
            .collect();
        if th.squares.is_empty() {
            continue;
        }
        let d = outline(c, &set);
        c.put(Layer::Highlight, format_args!(r#"<path class="threat" data-creature="{}" data-threatens-target="{}" d="{d}" fill="none" stroke="{}" stroke-width="2.5" stroke-dasharray="6 3"/>"#,
            esc(name(enc, th.creature)),
            th.threatens_target,
            colours.get(th.creature).copied().unwrap_or(style::BLACK)
        ));
        let text = c.tr(
            "squares an enemy of the target threatens (dashed outline, its colour)",
            "cases menacées par un ennemi de la cible (contour en tirets, sa couleur)",
        );
        c.legend("threat", Swatch::Outline { stroke: style::BLACK, dash: "6 3" }, text);
    }
}

fn lines(c: &mut Canvas, enc: &arbiter_rules::encounter::Encounter, a: &FlankAnswer) {
    for f in &a.flankers {
        let mid = |sq: Square| (c.x(f64::from(sq.x) + 0.5), c.y(f64::from(sq.y) + 0.5));
        let ((x1, y1), (x2, y2)) = (mid(f.attacker_square), mid(f.helper_square));
        c.put(Layer::Lines, format_args!(r##"<line class="flank-line" data-helper="{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#0072B2" stroke-width="3" stroke-linecap="round"/><circle cx="{}" cy="{}" r="4" fill="#0072B2"/><circle cx="{}" cy="{}" r="4" fill="#0072B2"/>"##,
            esc(name(enc, f.creature)),
            N(x1),
            N(y1),
            N(x2),
            N(y2),
            N(x1),
            N(y1),
            N(x2),
            N(y2)
        ));
        let text = c.tr(
            "flanking line between the centres of the attacker's and the flanker's squares",
            "ligne de prise en tenaille entre les centres des cases de l'attaquant et de son allié",
        );
        c.legend("flank-line", Swatch::Line { stroke: style::BLUE, width: 3.0, dash: String::new() }, text);
    }
}
