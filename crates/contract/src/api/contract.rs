//! The input contract: every bound the OpenAPI document states (`minimum`, `maximum`,
//! `minLength`, `maxLength`, `maxItems`, `maxProperties`), checked on the wire types right
//! after parsing and before any other work, each violation a 422 at the field's pointer.
//!
//! The bounds that are settings (`ARBITER_MAX_CREATURES`, `ARBITER_MAX_GRID_SIDE`,
//! `ARBITER_MAX_WALLS`, `ARBITER_MAX_ID_BYTES`, `ARBITER_MAX_PATH_STEPS`) come from [`Limits`];
//! the document states their defaults. The others are fixed here and written into the
//! schema attributes of the wire types with the same numbers (a test mutates the document's
//! examples past every bound it states and expects this module to refuse them).
//!
//! Semantic checks (an id that names no creature, a square outside the grid, a condition
//! the ruleset does not know) stay in `mapping` and the handlers.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::bounds::*;
use super::dice::{DiceIn, GivenRollsIn};
use super::encounter::*;
use crate::error::{Issue, Text};
use crate::limits::Limits;
use crate::problems::{at_most, between, id_fault, number_between};

/// One step of the pointer being walked.
enum Seg {
    Field(&'static str),
    Index(usize),
    Key(String),
}

/// Walks a request, collecting every violated bound with its pointer. The pointer is a
/// stack of segments, written out only for a problem, so a valid request formats nothing.
pub struct Check<'a> {
    /// The limits the request is checked against.
    pub limits: &'a Limits,
    path: Vec<Seg>,
    problems: Vec<Issue>,
}

impl<'a> Check<'a> {
    /// The encounter and the attacker/target pair that every pair question starts with.
    pub fn question(&mut self, encounter: &EncounterIn, attacker: &str, target: &str) {
        self.encounter(encounter);
        self.pair(attacker, target);
    }

    /// A walk under the given limits.
    pub fn new(limits: &'a Limits) -> Self {
        Check { limits, path: Vec::with_capacity(8), problems: Vec::new() }
    }

    /// The problems found.
    pub fn into_problems(self) -> Vec<Issue> {
        self.problems
    }

    /// A problem at the current path.
    pub fn push(&mut self, detail: Text) {
        let mut pointer = String::new();
        for seg in &self.path {
            pointer.push('/');
            match seg {
                Seg::Field(f) => pointer.push_str(f),
                Seg::Index(i) => {
                    let _ = write!(pointer, "{i}");
                }
                Seg::Key(k) => pointer.push_str(&crate::problems::escape(k)),
            }
        }
        self.problems.push(Issue::new(pointer, detail));
    }

    /// Records a problem at `pointer` below the current one (`pointer` is a JSON pointer
    /// relative to it: `/format`).
    pub fn push_below(&mut self, pointer: &str, detail: Text) {
        self.push(detail);
        if let Some(last) = self.problems.last_mut() {
            last.pointer.push_str(pointer);
        }
    }

    fn under<R>(&mut self, seg: Seg, f: impl FnOnce(&mut Self) -> R) -> R {
        self.path.push(seg);
        let r = f(self);
        self.path.pop();
        r
    }

    /// Runs `f` one field deeper.
    pub fn at<R>(&mut self, name: &'static str, f: impl FnOnce(&mut Self) -> R) -> R {
        self.under(Seg::Field(name), f)
    }

    /// Runs `f` under an index segment.
    fn at_index<R>(&mut self, i: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        self.under(Seg::Index(i), f)
    }

    /// Runs `f` under a map key (escaped as RFC 6901 says when written out).
    fn at_key<R>(&mut self, key: &str, f: impl FnOnce(&mut Self) -> R) -> R {
        self.under(Seg::Key(key.to_owned()), f)
    }

    /// The integer field `name` within `lo..=hi`.
    pub fn int(&mut self, name: &'static str, v: i64, lo: i64, hi: i64) {
        if !(lo..=hi).contains(&v) {
            self.at(name, |c| c.push(between(lo, hi)));
        }
    }

    fn opt_int(&mut self, name: &'static str, v: Option<i64>, lo: i64, hi: i64) {
        if let Some(v) = v {
            self.int(name, v, lo, hi);
        }
    }

    fn stat(&mut self, name: &'static str, v: Option<i32>) {
        self.opt_int(name, v.map(i64::from), -STAT, STAT);
    }

    fn number(&mut self, name: &'static str, v: f64, hi: i64) {
        if !(v.is_finite() && (0.0..=hi as f64).contains(&v)) {
            self.at(name, |c| c.push(number_between(hi)));
        }
    }

    /// A string of `min..=max` characters (bytes bound the characters from above, so they
    /// are counted only for a long string).
    pub fn chars(&mut self, name: Option<&'static str>, s: &str, min: usize, max: usize) {
        let ok = if s.len() <= max {
            min == 0 || s.chars().nth(min - 1).is_some()
        } else {
            (min..=max).contains(&s.chars().count())
        };
        if !ok {
            let detail = if min > 0 {
                Text::new(
                    format!("must be {min} to {max} characters"),
                    format!("doit faire de {min} à {max} caractères"),
                )
            } else {
                Text::new(
                    format!("must be at most {max} characters"),
                    format!("doit faire au plus {max} caractères"),
                )
            };
            self.maybe_at(name, |c| c.push(detail));
        }
    }

    /// An id: 1 to `ARBITER_MAX_ID_BYTES` bytes, not only white space.
    pub fn id(&mut self, name: Option<&'static str>, s: &str) {
        if let Some(fault) = id_fault(s, self.limits.max_id_bytes as usize) {
            self.maybe_at(name, |c| c.push(fault));
        }
    }

    /// The id field `name`, when given.
    pub fn opt_id(&mut self, name: &'static str, s: Option<&str>) {
        if let Some(s) = s {
            self.id(Some(name), s);
        }
    }

    fn maybe_at(&mut self, name: Option<&'static str>, f: impl FnOnce(&mut Self)) {
        match name {
            Some(n) => self.at(n, f),
            None => f(self),
        }
    }

    /// A list of at most `max` items; `each` checks the first `max` of them.
    pub fn list<T>(
        &mut self,
        name: &'static str,
        items: &[T],
        max: usize,
        mut each: impl FnMut(&mut Self, &T),
    ) {
        self.at(name, |c| {
            if items.len() > max {
                c.push(at_most(max, ("items", "éléments")));
            }
            for (i, item) in items.iter().enumerate().take(max) {
                c.at_index(i, |c| each(c, item));
            }
        });
    }

    /// A list of distinct creature ids; a repeat is refused where it repeats.
    pub fn ids(&mut self, name: &'static str, ids: &[String], max: usize) {
        self.at(name, |c| {
            if ids.len() > max {
                c.push(at_most(max, ("items", "éléments")));
            }
            let mut seen: HashMap<&str, usize> = HashMap::with_capacity(ids.len().min(max));
            for (i, id) in ids.iter().enumerate().take(max) {
                c.at_index(i, |c| {
                    c.id(None, id);
                    if let Some(first) = seen.insert(id.as_str(), i) {
                        c.push(Text::new(
                            format!("{id:?} is listed twice (also item {first})"),
                            format!("« {id} » est listé deux fois (aussi l'élément {first})"),
                        ));
                    }
                });
            }
        });
    }

    /// A list of ids at the current pointer (repeats allowed).
    pub fn list_ids(&mut self, ids: &[String], max: usize) {
        if ids.len() > max {
            self.push(at_most(max, ("items", "éléments")));
        }
        for (i, id) in ids.iter().enumerate().take(max) {
            self.at_index(i, |c| c.id(None, id));
        }
    }

    /// A square's coordinates within the bounds of any grid.
    pub fn square(&mut self, s: &SquareIn) {
        self.int("x", s.x, -SQUARE, SQUARE);
        self.int("y", s.y, -SQUARE, SQUARE);
    }

    /// The point field `name`, within the largest grid side of the limits.
    pub fn point(&mut self, name: &'static str, p: &PointIn) {
        let side = i64::from(self.limits.max_grid_side);
        self.at(name, |c| {
            c.number("x", p.x, side);
            c.number("y", p.y, side);
        });
    }

    /// The attacker and target of a question: two ids within bounds (that they name two
    /// different creatures is checked with the encounter, in `handlers::pair`).
    pub fn pair(&mut self, attacker: &str, target: &str) {
        self.id(Some("attacker"), attacker);
        self.id(Some("target"), target);
    }

    /// The whole encounter at `/encounter`: every bound of its grid, creatures and variants.
    pub fn encounter(&mut self, e: &EncounterIn) {
        self.at("encounter", |c| {
            c.at("variants", |c| {
                if e.variants.len() > VARIANTS {
                    c.push(at_most(VARIANTS, ("variants", "variantes")));
                }
                for key in e.variants.keys().take(VARIANTS) {
                    if key.len() > VARIANT_KEY_CHARS && key.chars().count() > VARIANT_KEY_CHARS {
                        c.at_key(key, |c| {
                            c.push(Text::new(
                                format!("a key of at most {VARIANT_KEY_CHARS} characters"),
                                format!("une clé d'au plus {VARIANT_KEY_CHARS} caractères"),
                            ))
                        });
                    }
                }
            });
            c.at("grid", |c| c.grid(&e.grid));
            let max = c.limits.max_creatures as usize;
            c.list("creatures", &e.creatures, max, Self::creature);
        });
    }

    fn grid(&mut self, g: &GridIn) {
        if let Some(imported) = &g.imported {
            // An inline Universal VTT file: its own bounds, then the settings on what it made
            // (its walls and points are on the grid by construction), pointing into the file.
            let mut problems = imported.problems.clone();
            if problems.is_empty() {
                problems = crate::api::uvtt::sizes(g, self.limits);
            }
            self.at("uvtt", |c| problems.into_iter().for_each(|i| c.push_below(&i.pointer, i.detail)));
            return;
        }
        let side = self.limits.max_grid_side as usize;
        self.int("width", g.width, 1, side as i64);
        self.int("height", g.height, 1, side as i64);
        for (name, rows) in [("map", &g.map), ("light_map", &g.light_map)] {
            if let Some(rows) = rows {
                self.list(name, rows, side, |c, row| c.chars(None, row, 0, side));
            }
        }
        self.list("cells", &g.cells, side * side, |c, cell| {
            c.int("x", cell.x, -SQUARE, SQUARE);
            c.int("y", cell.y, -SQUARE, SQUARE);
            if let Some(t) = &cell.terrain {
                c.list("terrain", t, 7, |_, _| {});
            }
        });
        let walls = self.limits.max_walls as usize;
        self.list("walls", &g.walls, walls, |c, w| {
            c.point("from", &w.from);
            c.point("to", &w.to);
        });
        self.list("lights", &g.lights, walls, |c, l| {
            c.point("at", &l.at);
            c.int("bright_ft", l.bright_ft, 0, RANGE_FT);
            c.int("dim_ft", l.dim_ft, 0, RANGE_FT);
        });
    }

    fn creature(&mut self, cr: &CreatureIn) {
        self.id(Some("id"), &cr.id);
        self.id(Some("side"), &cr.side);
        self.at("at", |c| c.square(&cr.at));
        self.opt_int("reach_ft", cr.reach_ft, 0, REACH_FT);
        self.opt_int("speed_ft", cr.speed_ft, 0, SPEED_FT);
        self.opt_int("swim_speed_ft", cr.swim_speed_ft, 0, SPEED_FT);
        self.opt_int("legs", cr.legs, 0, 1000);
        self.int("elevation_ft", cr.elevation_ft, -ELEVATION_FT, ELEVATION_FT);
        self.list("feats", &cr.feats, TAGS, |c, f| c.chars(None, f, 1, NAME_CHARS));
        if let Some(w) = &cr.wielding {
            self.at("wielding", |c| c.weapon(w));
        }
        self.at("senses", |c| c.senses(&cr.senses));
        self.list("conditions", &cr.conditions, TAGS, |_, _| {});
        self.opt_int("hands_free", cr.hands_free, 0, 100);
        self.opt_id("mounted_on", cr.mounted_on.as_deref());
        self.at("stats", |c| c.stats(&cr.stats));
    }

    /// A creature's senses (also an import's overlay).
    pub fn senses(&mut self, s: &SensesIn) {
        self.int("darkvision_ft", s.darkvision_ft, 0, RANGE_FT);
        self.int("blindsight_ft", s.blindsight_ft, 0, RANGE_FT);
        self.int("tremorsense_ft", s.tremorsense_ft, 0, RANGE_FT);
        self.int("truesight_ft", s.truesight_ft, 0, RANGE_FT);
    }

    /// A creature's numbers (also an import's overlay).
    pub fn stats(&mut self, s: &StatsIn) {
        for (name, v) in [
            ("ac", s.ac),
            ("eac", s.eac),
            ("kac", s.kac),
            ("def", s.def),
            ("attack_bonus", s.attack_bonus),
            ("str_mod", s.str_mod),
            ("dex_mod", s.dex_mod),
            ("con_mod", s.con_mod),
            ("int_mod", s.int_mod),
            ("wis_mod", s.wis_mod),
            ("cha_mod", s.cha_mod),
            ("proficiency_bonus", s.proficiency_bonus),
            ("athletics", s.athletics),
            ("acrobatics", s.acrobatics),
            ("escape_artist", s.escape_artist),
            ("cmb", s.cmb),
            ("cmd", s.cmd),
            ("bab", s.bab),
            ("initiative_bonus", s.initiative_bonus),
        ] {
            self.stat(name, v);
        }
        use super::damage::{DAMAGE_AMOUNT, DAMAGE_TYPES, TYPE_CHARS};
        self.opt_int("hp", s.hp.map(i64::from), 0, DAMAGE_AMOUNT);
        for (name, list) in [
            ("resistances", &s.resistances),
            ("vulnerabilities", &s.vulnerabilities),
            ("immunities", &s.immunities),
        ] {
            self.list(name, list, DAMAGE_TYPES, |c, t| c.chars(None, t, 1, TYPE_CHARS));
        }
        self.list("energy_resistance", &s.energy_resistance, DAMAGE_TYPES, |c, e| {
            c.chars(Some("type"), &e.damage_type, 1, TYPE_CHARS);
            c.int("amount", e.amount, 0, DAMAGE_AMOUNT);
        });
        if let Some(dr) = &s.dr {
            self.at("dr", |c| {
                c.int("amount", dr.amount, 0, DAMAGE_AMOUNT);
                c.list("bypassed_by", &dr.bypassed_by, DAMAGE_TYPES, |c, b| c.chars(None, b, 1, TYPE_CHARS));
            });
        }
        let v = &s.saves;
        self.at("saves", |c| {
            for (name, v) in [
                ("str", v.str),
                ("dex", v.dex),
                ("con", v.con),
                ("int", v.int),
                ("wis", v.wis),
                ("cha", v.cha),
                ("fort", v.fort),
                ("reflex", v.reflex),
                ("will", v.will),
            ] {
                c.stat(name, v);
            }
        });
    }

    /// A weapon's reach, ranges and damage fields.
    pub fn weapon(&mut self, w: &WeaponIn) {
        self.opt_int("reach_ft", w.reach_ft, 0, REACH_FT);
        self.opt_int("normal_ft", w.normal_ft, 0, RANGE_FT);
        self.opt_int("long_ft", w.long_ft, 0, RANGE_FT);
        self.opt_int("increment_ft", w.increment_ft, 1, RANGE_FT);
        self.opt_int("max_increments", w.max_increments, 1, 100);
        self.list("properties", &w.properties, 32, |_, _| {});
        if let Some(d) = &w.damage_type {
            self.chars(Some("damage_type"), d, 0, NAME_CHARS);
        }
        self.stat("attack_bonus", w.attack_bonus);
        if let Some(n) = &w.name {
            self.chars(Some("name"), n, 0, NAME_CHARS);
        }
        self.opt_int("crit_range", w.crit_range, 2, 20);
        self.opt_int("crit_multiplier", w.crit_multiplier, 2, 4);
        if let Some(d) = &w.damage {
            self.damage(d);
        }
        let types = super::damage::TYPE_CHARS;
        self.list("materials", &w.materials, super::damage::DAMAGE_TYPES, |c, m| c.chars(None, m, 1, types));
    }

    /// A `damage` field: an expression or at most 8 terms, each within its length.
    pub fn damage(&mut self, d: &super::damage::DamageIn) {
        use super::damage::{DamageIn, TYPE_CHARS};
        use arbiter_rules::damage::{MAX_TERMS, expr::MAX_CHARS};
        match d {
            DamageIn::Expression(e) => self.chars(Some("damage"), e, 1, MAX_CHARS),
            DamageIn::Terms(ts) => self.list("damage", ts, MAX_TERMS, |c, t| {
                c.chars(Some("dice"), &t.dice, 1, MAX_CHARS);
                if let Some(ty) = &t.damage_type {
                    c.chars(Some("type"), ty, 1, TYPE_CHARS);
                }
            }),
        }
    }

    /// The dice of a question (a seed within its bound).
    pub fn dice(&mut self, d: &DiceIn) {
        if let DiceIn::Roll { seed: Some(seed) } = d
            && *seed > super::dice::MAX_SEED
        {
            let max = super::dice::MAX_SEED;
            self.at("dice", |c| c.at("seed", |c| c.push(between(0, max))));
        }
        if let DiceIn::Given { rolls } = d {
            self.at("dice", |c| c.at("rolls", |c| c.rolls(rolls)));
        }
    }

    fn rolls(&mut self, r: &GivenRollsIn) {
        let faces = |c: &mut Self, f: &i64| {
            if !(1..=FACE).contains(f) {
                c.push(between(1, FACE));
            }
        };
        for (name, list) in [
            ("attack", &r.attack),
            ("confirm", &r.confirm),
            ("miss_chance", &r.miss_chance),
            ("check", &r.check),
            ("opposed", &r.opposed),
            ("save", &r.save),
            ("mount_save", &r.mount_save),
        ] {
            if let Some(list) = list {
                self.list(name, list, FACES, faces);
            }
        }
        if let Some(list) = &r.damage {
            self.list("damage", list, arbiter_rules::damage::MAX_ROLLED_DICE as usize, faces);
        }
        let max = self.limits.max_creatures as usize;
        self.at("initiative", |c| {
            if r.initiative.len() > max {
                c.push(at_most(max, ("creatures", "créatures")));
            }
            for (id, list) in r.initiative.iter().take(max) {
                let id_max = c.limits.max_id_bytes as usize;
                c.at_key(id, |c| {
                    if id.is_empty() || id.len() > id_max {
                        c.push(Text::new(
                            format!("a creature id of 1 to {id_max} bytes"),
                            format!("un identifiant de créature de 1 à {id_max} octets"),
                        ));
                    }
                    if list.len() > INITIATIVE_FACES {
                        c.push(at_most(INITIATIVE_FACES, ("items", "éléments")));
                    }
                    for (i, f) in list.iter().enumerate().take(INITIATIVE_FACES) {
                        c.at_index(i, |c| faces(c, f));
                    }
                });
            }
        });
    }
}

/// A request whose bounds [`Check`] knows.
pub trait Contract {
    /// Records every violated bound.
    fn check(&self, c: &mut Check<'_>);

    /// Every violated bound, or none.
    fn violations(&self, limits: &Limits) -> Vec<Issue> {
        let mut c = Check::new(limits);
        self.check(&mut c);
        c.into_problems()
    }
}
