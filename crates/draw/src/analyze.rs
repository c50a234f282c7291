//! The analysis drawing: the scene (terrain, light, walls, creatures) and under it a matrix of
//! every pair's cover, attackers by row and targets by column, each cell coloured by the degree
//! (as the cover badge) with the concealment miss chance when there is one.

use arbiter_rules::analyze::Analysis;
use arbiter_rules::encounter::Encounter;
use arbiter_rules::error::RulesError;

use super::Ctx;
use super::canvas::{Cell, Table, esc, localise};
use super::cover::badge_fill;
use super::labels::shorten;
use super::scene::{self, name};
use arbiter_contract::render::{Lang, glossary};

/// What an analysis drawing may add, for its size bound: a cell per ordered pair.
pub fn extra(enc: &Encounter) -> super::Extra {
    let n = enc.creatures.len() as u64;
    super::Extra { items: n * n + 2 * n + 8, squares: 0 }
}

/// Draws the analysis.
pub fn analyze(mut ctx: Ctx<'_, '_>, a: &Analysis) -> Result<String, RulesError> {
    let (enc, lang) = (ctx.scene.enc, ctx.lang);
    let mut c = scene::map(&mut ctx)?;
    scene::label_creatures(&mut c, enc, &[]);
    let mut attackers: Vec<usize> = Vec::new();
    let mut targets: Vec<usize> = Vec::new();
    for p in &a.pairs {
        if !attackers.contains(&p.attacker) {
            attackers.push(p.attacker);
        }
        if !targets.contains(&p.target) {
            targets.push(p.target);
        }
    }
    targets.sort_unstable();
    let words = &enc.ruleset.rules().words;
    let mut table =
        Table { columns: targets.iter().map(|&t| shorten(name(enc, t))).collect(), rows: Vec::new() };
    for &at in &attackers {
        let cells = targets
            .iter()
            .map(|&t| match a.pairs.iter().find(|p| p.attacker == at && p.target == t) {
                Some(p) => {
                    let degree = glossary::cover_degree(p.cover.degree, words, lang);
                    let miss = p.concealment.miss_chance;
                    let text = if miss > 0 { format!("{degree} · {miss}%") } else { degree.to_owned() };
                    Cell {
                        text: localise(&text, lang),
                        fill: badge_fill(p.cover.degree),
                        attrs: format!(
                            r#"class="pair" data-attacker="{}" data-target="{}" data-cover="{}""#,
                            esc(name(enc, at)),
                            esc(name(enc, t)),
                            p.cover.degree.id()
                        ),
                    }
                }
                None => {
                    Cell { text: "—".to_owned(), fill: "#EEEEEE", attrs: r#"class="no-pair""#.to_owned() }
                }
            })
            .collect();
        table.rows.push((shorten(name(enc, at)), cells));
    }
    c.caption(match lang {
        Lang::En => format!("Every pair's cover: {} pairs", a.pairs.len()),
        Lang::Fr => format!("L'abri de chaque paire : {} paires", a.pairs.len()),
    });
    c.caption(c.tr(
        "Rows: attackers · columns: targets · each cell: the target's cover (and miss chance)",
        "Lignes : attaquants · colonnes : cibles · chaque case : l'abri de la cible (et ses chances de rater)",
    ));
    c.caption(scene::rules_line(&a.trace, enc.ruleset.id(), lang));
    c.table(table);
    Ok(c.finish())
}
