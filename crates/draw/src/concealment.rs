//! The concealment drawing: light as overlays (the map's own), the target's squares, the
//! chosen corner's lines (through a concealing square dashed purple, clear solid green), and a
//! badge with the degree and the miss chance.

use arbiter_rules::error::RulesError;
use arbiter_rules::vision::{ConcealmentAnswer, ConcealmentDegree};

use super::Ctx;
use super::canvas::{N, Swatch, localise};
use super::cover::target_squares;
use super::labels::Look;
use super::scene::{self, name};
use super::style;
use arbiter_contract::render::Lang;
use arbiter_contract::render::vision::{cause_name, degree_name};

/// What a concealment drawing may add, for its size bound.
pub fn extra(enc: &arbiter_rules::encounter::Encounter, target: usize) -> super::Extra {
    let side = enc.creatures.get(target).map_or(1, |c| u64::from(enc.space(c).side.unsigned_abs()));
    super::Extra { items: 4 * side * side + 16, squares: side * side }
}

/// Draws the concealment answer.
pub fn concealment(
    mut ctx: Ctx<'_, '_>,
    attacker: usize,
    target: usize,
    a: &ConcealmentAnswer,
) -> Result<String, RulesError> {
    let (enc, lang) = (ctx.scene.enc, ctx.lang);
    let mut c = scene::map(&mut ctx)?;
    target_squares(&mut c, enc, target);
    for (i, l) in a.lines.iter().enumerate() {
        let (stroke, dash, kind, en, fr) = if l.concealed {
            (
                style::PURPLE,
                "7 3",
                "concealed",
                "line through a concealing square (dashed)",
                "ligne à travers une case qui camoufle (tirets)",
            )
        } else {
            (style::GREEN, "", "clear", "clear line", "ligne dégagée")
        };
        c.put(super::canvas::Layer::Lines, format_args!(r#"<line class="sight-line" data-concealed="{}" data-line="{i}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="2.5" stroke-dasharray="{dash}" stroke-linecap="round"/>"#,
            l.concealed,
            N(c.x(l.from.x.to_f64())),
            N(c.y(l.from.y.to_f64())),
            N(c.x(l.to.x.to_f64())),
            N(c.y(l.to.y.to_f64()))
        ));
        let text = c.tr(en, fr);
        c.legend(&format!("sight-{kind}"), Swatch::Line { stroke, width: 2.5, dash: dash.to_owned() }, text);
    }
    if let Some(p) = a.corner {
        c.put(super::canvas::Layer::Marks, format_args!(r##"<circle class="corner" cx="{}" cy="{}" r="{}" fill="#0072B2" stroke="#FFFFFF" stroke-width="2"/>"##,
            N(c.x(p.x.to_f64())),
            N(c.y(p.y.to_f64())),
            N((c.scale * 0.14).clamp(4.0, 7.0))
        ));
        let text = c.tr("the attacker's chosen corner", "le coin choisi par l'attaquant");
        c.legend("corner", Swatch::Dot { fill: style::BLUE }, text);
    }
    scene::label_creatures(&mut c, enc, &[target, attacker]);
    let degree = degree_name(a.degree, lang);
    let badge = if a.miss_chance > 0 { format!("{degree} {}%", a.miss_chance) } else { degree.to_owned() };
    let fill = match a.degree {
        ConcealmentDegree::None => "#FFFFFF",
        ConcealmentDegree::Concealment => style::SKY,
        ConcealmentDegree::Total => style::PURPLE,
    };
    if let Some(t) = enc.creatures.get(target) {
        let b = scene::token_box(&c, &enc.space(t));
        let font = c.label_font() + 1.0;
        c.labels.place(&localise(&badge, lang), font, b, Look::Badge(fill), "concealment-badge");
    }
    let (t, at) = (name(enc, target), name(enc, attacker));
    let chance = match lang {
        Lang::En => format!("{}% miss chance", a.miss_chance),
        Lang::Fr => format!("{} % de chances de rater", a.miss_chance),
    };
    c.caption(match lang {
        Lang::En => format!("Concealment of {t} from {at}: {degree} ({chance})"),
        Lang::Fr => format!("Camouflage de {t} face à {at} : {degree} ({chance})"),
    });
    if !a.causes.is_empty() {
        let causes: Vec<&str> = a.causes.iter().map(|(cause, _)| cause_name(*cause, lang)).collect();
        c.caption(match lang {
            Lang::En => format!("Causes: {}", causes.join("; ")),
            Lang::Fr => format!("Causes : {}", causes.join(" ; ")),
        });
    }
    c.caption(scene::rules_line(&a.trace, enc.ruleset.id(), lang));
    Ok(c.finish())
}
