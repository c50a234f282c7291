//! Wire types → the rules crate's validated values. Every problem is collected with its JSON
//! pointer so that one answer lists them all.

use std::collections::BTreeMap;

use arbiter_rules::damage::Defences;
use arbiter_rules::encounter::{
    ArmorClass, Condition, Creature, Encounter, Environment, Grid, Grip, Light, LightSource, Saves, Senses,
    Stats, Terrain, Wall, Weapon, WeaponKind,
};
use arbiter_rules::grid::{Coord, Point, Space, Square};
use arbiter_rules::ruleset::{Mitigation, Ruleset, RulesetId, Variants};

use super::encounter::*;
use crate::error::Text;
use crate::limits::Limits;
pub use crate::problems::{
    MAX_LISTED_NAMES, Problems, at_most, between, bytes_between, escape, id_fault, names, number_between,
};

/// The rules crate's id of a wire ruleset.
pub fn ruleset_id(r: RulesetIn) -> RulesetId {
    r.0
}

fn light(l: LightIn) -> Light {
    match l {
        LightIn::Bright => Light::Bright,
        LightIn::Dim => Light::Dim,
        LightIn::Darkness => Light::Darkness,
    }
}

fn terrain(t: TerrainIn) -> Terrain {
    match t {
        TerrainIn::Open => Terrain::OPEN,
        TerrainIn::Solid => Terrain::SOLID,
        TerrainIn::Low => Terrain::LOW,
        TerrainIn::Concealing => Terrain::CONCEALING,
        TerrainIn::Opaque => Terrain::OPAQUE,
        TerrainIn::Difficult => Terrain::DIFFICULT,
        TerrainIn::Water => Terrain::WATER,
    }
}

/// A non-negative feet value that fits the rules' `u32`.
/// A distance or count within `0..=max`; the pointer is built only for a problem.
fn feet(p: &mut Problems, pointer: impl FnOnce() -> String, v: i64, max: i64) -> u32 {
    if !(0..=max).contains(&v) {
        p.push(pointer(), between(0, max));
        return 0;
    }
    u32::try_from(v).unwrap_or(0)
}

/// An elevation within ±100,000 ft (refused beyond, never clamped: `api::contract` refuses it
/// first on the HTTP path).
fn elevation(p: &mut Problems, pointer: impl FnOnce() -> String, v: i64) -> i32 {
    let max = super::bounds::ELEVATION_FT;
    match i32::try_from(v) {
        Ok(e) if (-max..=max).contains(&v) => e,
        _ => {
            p.push(pointer(), between(-max, max));
            0
        }
    }
}

fn opt_feet(p: &mut Problems, pointer: impl FnOnce() -> String, v: Option<i64>, max: i64) -> Option<u32> {
    v.map(|v| feet(p, pointer, v, max))
}

/// Maps a weapon; `base` is its pointer.
pub fn weapon(p: &mut Problems, base: &str, w: &WeaponIn) -> Weapon {
    let kind = match w.kind {
        WeaponKindIn::Melee => WeaponKind::Melee,
        WeaponKindIn::Ranged => WeaponKind::Ranged,
        WeaponKindIn::Thrown => WeaponKind::Thrown,
    };
    if let Some(i) = w.increment_ft
        && i < 1
    {
        p.push(
            format!("{base}/increment_ft"),
            Text::new("must be at least 1 ft", "doit valoir au moins 1 ft"),
        );
    }
    if let Some(m) = w.max_increments
        && !(1..=100).contains(&m)
    {
        p.push(format!("{base}/max_increments"), between(1, 100));
    }
    Weapon {
        kind: Some(kind),
        reach_ft: opt_feet(p, || format!("{base}/reach_ft"), w.reach_ft, 1000),
        normal_ft: opt_feet(p, || format!("{base}/normal_ft"), w.normal_ft, 100_000),
        long_ft: opt_feet(p, || format!("{base}/long_ft"), w.long_ft, 100_000),
        increment_ft: w
            .increment_ft
            .filter(|i| (1..=100_000).contains(i))
            .and_then(|i| u32::try_from(i).ok()),
        max_increments: w
            .max_increments
            .filter(|m| (1..=100).contains(m))
            .and_then(|m| u32::try_from(m).ok()),
        properties: w.properties.iter().map(|p| p.0).collect(),
        damage_type: w.damage_type.clone(),
        attack_bonus: w.attack_bonus,
        name: w.name.clone(),
        crit_range: match w.crit_range {
            Some(c) if (2..=20).contains(&c) => u32::try_from(c).ok(),
            Some(_) => {
                p.push(format!("{base}/crit_range"), between(2, 20));
                None
            }
            None => None,
        },
        targets: w.targets.map(|t| match t {
            TargetsIn::Eac => ArmorClass::Eac,
            TargetsIn::Kac => ArmorClass::Kac,
        }),
        damage: w.damage.as_ref().and_then(|d| {
            super::damage::weapon_damage(p, base, d, w.damage_type.as_deref(), w.ability_in_damage)
        }),
        crit_multiplier: match w.crit_multiplier {
            Some(m) if (2..=4).contains(&m) => u32::try_from(m).ok(),
            Some(_) => {
                p.push(format!("{base}/crit_multiplier"), between(2, 4));
                None
            }
            None => None,
        },
        grip: w.grip.map(|g| match g {
            super::damage::GripIn::OneHanded => Grip::OneHanded,
            super::damage::GripIn::TwoHanded => Grip::TwoHanded,
            super::damage::GripIn::OffHand => Grip::OffHand,
        }),
        materials: w.materials.clone(),
    }
}

/// A creature's `wielding`: the melee weapon it threatens with (RULES.md Q-34), read for its
/// reach, threat, attacks of opportunity, disarm and trip. No answer deals its damage (an attack
/// names its `weapon`, a grapple's damage is `options.damage`), so the fields only damage reads
/// are refused, each at its pointer, rather than accepted and ignored: a GM who writes them
/// expects them to count. The weapon is mapped without them.
fn wielding(p: &mut Problems, base: &str, w: &WeaponIn) -> Weapon {
    for (field, given) in [
        ("damage", w.damage.is_some()),
        ("ability_in_damage", w.ability_in_damage),
        ("crit_multiplier", w.crit_multiplier.is_some()),
        ("grip", w.grip.is_some()),
        ("materials", !w.materials.is_empty()),
    ] {
        if given {
            p.push(
                format!("{base}/{field}"),
                Text::new(
                    "a wielded weapon deals no damage in any answer: give the damage with /v1/attack's \
                     weapon, or a grapple's options.damage",
                    "une arme tenue n'inflige de dégâts dans aucune réponse : donnez les dégâts dans \
                     l'arme (weapon) de /v1/attack, ou options.damage d'une lutte",
                ),
            );
        }
    }
    let bare = WeaponIn {
        damage: None,
        ability_in_damage: false,
        crit_multiplier: None,
        grip: None,
        materials: Vec::new(),
        ..w.clone()
    };
    weapon(p, base, &bare)
}

fn coord(p: &mut Problems, pointer: impl FnOnce() -> String, v: f64, max: i64) -> Coord {
    if !v.is_finite() || v < 0.0 || v > max as f64 {
        p.push(pointer(), number_between(max));
        return Coord::default();
    }
    Coord::from_f64(v).unwrap_or_default()
}

/// Maps a point, checking it lies within the grid. Pointers are only built for a problem
/// (a map of thousands of walls would otherwise format thousands of strings).
pub fn point(p: &mut Problems, base: &str, pt: &PointIn, w: i64, h: i64) -> Point {
    Point { x: coord(p, || format!("{base}/x"), pt.x, w), y: coord(p, || format!("{base}/y"), pt.y, h) }
}

/// [`point`] for the `field` of the `i`-th element under `list`.
fn point_at(p: &mut Problems, list: &str, i: usize, field: &str, pt: &PointIn, w: i64, h: i64) -> Point {
    Point {
        x: coord(p, || format!("{list}/{i}/{field}/x"), pt.x, w),
        y: coord(p, || format!("{list}/{i}/{field}/y"), pt.y, h),
    }
}

fn stats(s: &StatsIn) -> Stats {
    Stats {
        ac: s.ac,
        eac: s.eac,
        kac: s.kac,
        def: s.def,
        attack_bonus: s.attack_bonus,
        str_mod: s.str_mod,
        dex_mod: s.dex_mod,
        con_mod: s.con_mod,
        int_mod: s.int_mod,
        wis_mod: s.wis_mod,
        cha_mod: s.cha_mod,
        proficiency_bonus: s.proficiency_bonus,
        athletics: s.athletics,
        acrobatics: s.acrobatics,
        escape_artist: s.escape_artist,
        cmb: s.cmb,
        cmd: s.cmd,
        bab: s.bab,
        initiative_bonus: s.initiative_bonus,
        hp: s.hp,
        saves: Saves {
            str: s.saves.str,
            dex: s.saves.dex,
            con: s.saves.con,
            int: s.saves.int,
            wis: s.saves.wis,
            cha: s.saves.cha,
            fort: s.saves.fort,
            reflex: s.saves.reflex,
            will: s.saves.will,
        },
    }
}

/// Turns a wire encounter into a validated one, or every problem found. `base` is the
/// encounter's pointer (`/encounter`).
pub fn encounter(e: &EncounterIn, limits: &Limits, base: &str) -> Result<Encounter, Problems> {
    let mut p = Problems::default();
    let ruleset = ruleset_id(e.ruleset);
    let rules = ruleset.rules();

    for key in e.variants.keys() {
        if rules.variant(key).is_none() {
            let known: Vec<&str> = rules.variants.iter().map(|v| v.key).collect();
            let detail = if known.is_empty() {
                Text::new(
                    format!("{} has no variants", rules.id),
                    format!("{} n'a pas de variantes", rules.id),
                )
            } else {
                Text::new(
                    format!("{} has no variant {key:?}; one of: {}", rules.id, names(&known)),
                    format!("{} n'a pas de variante « {key} » ; l'une de : {}", rules.id, names(&known)),
                )
            };
            p.push(format!("{base}/variants/{}", escape(key)), detail);
        }
    }
    let variants = Variants::resolve(rules, e.variants.iter().map(|(k, v)| (k.as_str(), *v)));

    let grid = grid(&mut p, &e.grid, limits, &format!("{base}/grid"));
    let creatures = creatures(&mut p, e, ruleset, grid.as_ref(), limits, base);
    let grid = grid.unwrap_or_else(|| empty_grid(&e.grid));
    let environment = Environment { underwater: e.environment.underwater, gravity: e.environment.gravity.0 };
    if p.is_empty() { Ok(Encounter { ruleset, variants, grid, environment, creatures }) } else { Err(p) }
}

/// The pointer `{base}/{list}/{i}`, formatted only where a problem names it (a request's
/// every creature and row would otherwise format one string each).
#[derive(Clone, Copy)]
struct At<'a>(&'a str, &'a str, usize);

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.1.is_empty() {
            write!(f, "{}/{}", self.0, self.2)
        } else {
            write!(f, "{}/{}/{}", self.0, self.1, self.2)
        }
    }
}

/// The grid, or none when its size is invalid: then nothing that depends on its size (the
/// maps' shapes, squares and points inside it, creatures' squares) is checked, since every
/// such check would only repeat the size's problem.
fn grid(p: &mut Problems, g: &GridIn, limits: &Limits, base: &str) -> Option<Grid> {
    if let Some(imported) = &g.imported
        && !imported.problems.is_empty()
    {
        // The contract check refuses these first; never map the placeholder grid.
        for i in &imported.problems {
            p.push(format!("{base}/uvtt{}", i.pointer), i.detail.clone());
        }
        return None;
    }
    let max = i64::from(limits.max_grid_side);
    let (w, h) = grid_size(p, g, max, base)?;
    let wi = i32::try_from(w).unwrap_or(0);
    let hi = i32::try_from(h).unwrap_or(0);
    let mut terrain = terrain_map(p, g, w, h, base);
    let mut light_map = light_map(p, g, w, h, base);
    grid_cells(p, g, max, (w, h), base, &mut terrain, &mut light_map);
    let walls = walls(p, g, limits, (w, h), base);
    let lights = lights(p, g, limits, (w, h), base);
    Some(Grid { width: wi, height: hi, terrain, light: light(g.light), light_map, lights, walls })
}

/// A grid of no square, standing for one whose size was refused (the encounter is then
/// refused too: it is never asked about).
fn empty_grid(g: &GridIn) -> Grid {
    Grid {
        width: 0,
        height: 0,
        terrain: Vec::new(),
        light: light(g.light),
        light_map: Vec::new(),
        lights: Vec::new(),
        walls: Vec::new(),
    }
}

/// The grid's width and height, each checked against the largest side.
fn grid_size(p: &mut Problems, g: &GridIn, max: i64, base: &str) -> Option<(i64, i64)> {
    let mut ok = true;
    for (name, v) in [("width", g.width), ("height", g.height)] {
        if !(1..=max).contains(&v) {
            p.push(
                format!("{base}/{name}"),
                Text::new(
                    format!("must be between 1 and {max} squares"),
                    format!("doit être entre 1 et {max} cases"),
                ),
            );
            ok = false;
        }
    }
    ok.then_some((g.width, g.height))
}

/// The number of squares of a `w`×`h` grid.
fn cell_count(w: i64, h: i64) -> usize {
    usize::try_from(w * h).unwrap_or(0)
}

/// The terrain of every square from the ASCII `map` (open without one).
fn terrain_map(p: &mut Problems, g: &GridIn, w: i64, h: i64, base: &str) -> Vec<Terrain> {
    let mut terrain = vec![Terrain::OPEN; cell_count(w, h)];
    if let Some(rows) = &g.map
        && !ascii_map(rows, w, h, &mut terrain)
    {
        rows_shape(p, rows, w, h, &format!("{base}/map"), |p, ptr, x, y, c| match Terrain::from_char(c) {
            Some(t) => {
                if let Some(cell) = terrain.get_mut((y * w + x) as usize) {
                    *cell = t;
                }
            }
            None => p.push(
                ptr.to_string(),
                Text::new(
                    format!("unknown map character {c:?} at x = {x}; legend: . # = ~ % : w"),
                    format!("caractère de carte inconnu {c:?} en x = {x} ; légende : . # = ~ % : w"),
                ),
            ),
        });
    }
    terrain
}

/// The light of every square from the ASCII `light_map` (empty without one).
fn light_map(p: &mut Problems, g: &GridIn, w: i64, h: i64, base: &str) -> Vec<Option<Light>> {
    let mut light_map: Vec<Option<Light>> = Vec::new();
    if let Some(rows) = &g.light_map {
        light_map = vec![None; cell_count(w, h)];
        rows_shape(p, rows, w, h, &format!("{base}/light_map"), |p, ptr, x, y, c| {
            let l = match c {
                '.' => None,
                c => match Light::from_char(c) {
                    Some(l) => Some(l),
                    None => {
                        p.push(
                            ptr.to_string(),
                            Text::new(
                                format!("unknown light character {c:?} at x = {x}; legend: b d n ."),
                                format!("caractère de lumière inconnu {c:?} en x = {x} ; légende : b d n ."),
                            ),
                        );
                        None
                    }
                },
            };
            if let Some(cell) = light_map.get_mut((y * w + x) as usize) {
                *cell = l;
            }
        });
    }
    light_map
}

/// The per-square `cells`: each one's terrain and light replace the maps'.
fn grid_cells(
    p: &mut Problems,
    g: &GridIn,
    max: i64,
    (w, h): (i64, i64),
    base: &str,
    terrain: &mut [Terrain],
    light_map: &mut Vec<Option<Light>>,
) {
    let max_cells = usize::try_from(max * max).unwrap_or(usize::MAX);
    if g.cells.len() > max_cells {
        p.push(format!("{base}/cells"), at_most(max_cells, ("cells", "cases")));
    }
    for (i, cell) in g.cells.iter().enumerate().take(max_cells) {
        let ptr = format!("{base}/cells/{i}");
        if !(0..w).contains(&cell.x) || !(0..h).contains(&cell.y) {
            p.push(
                ptr,
                Text::new(
                    format!("square ({}, {}) is outside the {w}×{h} grid", cell.x, cell.y),
                    format!("la case ({}, {}) est hors de la grille de {w}×{h}", cell.x, cell.y),
                ),
            );
            continue;
        }
        let idx = (cell.y * w + cell.x) as usize;
        if let Some(ts) = &cell.terrain
            && let Some(slot) = terrain.get_mut(idx)
        {
            *slot = ts.iter().fold(Terrain::OPEN, |acc, t| acc.with(terrain_of(*t)));
        }
        if let Some(l) = cell.light {
            if light_map.is_empty() {
                *light_map = vec![None; cell_count(w, h)];
            }
            if let Some(slot) = light_map.get_mut(idx) {
                *slot = Some(light(l));
            }
        }
    }
}

/// The walls, at most `max_walls` of them, their end points on the grid.
fn walls(p: &mut Problems, g: &GridIn, limits: &Limits, (w, h): (i64, i64), base: &str) -> Vec<Wall> {
    let max_walls = limits.max_walls as usize;
    if g.walls.len() > max_walls {
        p.push(format!("{base}/walls"), at_most(max_walls, ("walls", "murs")));
    }
    let list = format!("{base}/walls");
    g.walls
        .iter()
        .take(max_walls)
        .enumerate()
        .map(|(i, wall)| {
            let from = point_at(p, &list, i, "from", &wall.from, w, h);
            let to = point_at(p, &list, i, "to", &wall.to, w, h);
            Wall { from, to, kind: wall.kind.0 }
        })
        .collect()
}

/// The light sources, as many as walls are allowed.
fn lights(p: &mut Problems, g: &GridIn, limits: &Limits, (w, h): (i64, i64), base: &str) -> Vec<LightSource> {
    let max_walls = limits.max_walls as usize;
    if g.lights.len() > max_walls {
        p.push(format!("{base}/lights"), at_most(max_walls, ("light sources", "sources de lumière")));
    }
    g.lights
        .iter()
        .take(max_walls)
        .enumerate()
        .map(|(i, l)| {
            let ptr = format!("{base}/lights/{i}");
            LightSource {
                at: point(p, &format!("{ptr}/at"), &l.at, w, h),
                bright_ft: feet(p, || format!("{ptr}/bright_ft"), l.bright_ft, 100_000),
                dim_ft: feet(p, || format!("{ptr}/dim_ft"), l.dim_ft, 100_000),
            }
        })
        .collect()
}

/// The terrain of every ASCII character (`Terrain::from_char`), made once.
/// The bit of a [`TERRAIN_ASCII`] entry for a byte that is no legend character (terrain uses
/// the six low bits).
const UNKNOWN: u8 = 1 << 7;

/// The terrain bits of each byte's legend character, or [`UNKNOWN`].
static TERRAIN_ASCII: std::sync::LazyLock<[u8; 256]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|b| {
        u8::try_from(b)
            .ok()
            .filter(u8::is_ascii)
            .and_then(|b| Terrain::from_char(char::from(b)))
            .map_or(UNKNOWN, |t| t.0)
    })
});

/// The usual map: one row per grid row, each of exactly the grid's width in legend
/// characters. Fills `terrain` through a table and answers true; false (nothing written)
/// for any other map, which `rows_shape` then checks character by character with the
/// problems it finds. A map has a character per square (40,000 on a 200×200 map), and the
/// legend search and UTF-8 decoding per character cost more than the rest of the mapping:
/// here a character is one table read, and an unknown one is noticed once at the end.
fn ascii_map(rows: &[String], w: i64, h: i64, terrain: &mut [Terrain]) -> bool {
    let table = &*TERRAIN_ASCII;
    let (Ok(cols), Ok(height)) = (usize::try_from(w), usize::try_from(h)) else { return false };
    if cols == 0
        || rows.len() != height
        || terrain.len() != cols * height
        || rows.iter().any(|r| r.len() != cols)
    {
        return false;
    }
    let mut seen = 0u8;
    for (row, cells) in rows.iter().zip(terrain.chunks_exact_mut(cols)) {
        for (&b, cell) in row.as_bytes().iter().zip(cells) {
            // A byte indexes the 256 entries: the look-up cannot miss.
            let entry = table.get(usize::from(b)).copied().unwrap_or(UNKNOWN);
            seen |= entry;
            *cell = Terrain(entry & !UNKNOWN);
        }
    }
    if seen & UNKNOWN != 0 {
        terrain.fill(Terrain::OPEN);
        return false;
    }
    true
}

fn terrain_of(t: TerrainIn) -> Terrain {
    terrain(t)
}

/// Checks a map-shaped list of rows and calls `cell` for every character in range.
fn rows_shape(
    p: &mut Problems,
    rows: &[String],
    w: i64,
    h: i64,
    base: &str,
    mut cell: impl FnMut(&mut Problems, At<'_>, i64, i64, char),
) {
    if rows.len() as i64 != h {
        let n = rows.len();
        p.push(
            base,
            Text::new(
                format!("has {n} rows, the grid has height {h}"),
                format!("a {n} lignes, la grille a une hauteur de {h}"),
            ),
        );
    }
    for (y, row) in rows.iter().enumerate().take(h.max(0) as usize) {
        let ptr = At(base, "", y);
        let n = if row.is_ascii() { row.len() } else { row.chars().count() } as i64;
        if n != w {
            p.push(
                ptr.to_string(),
                Text::new(
                    format!("has {n} characters, the grid has width {w}"),
                    format!("a {n} caractères, la grille a une largeur de {w}"),
                ),
            );
        }
        let mut reported = 0;
        for (x, c) in row.chars().enumerate().take(w.max(0) as usize) {
            let before = p.0.len();
            cell(p, ptr, x as i64, y as i64, c);
            if p.0.len() > before {
                reported += 1;
                // One row full of typos should not bury the other problems.
                if reported >= 3 {
                    break;
                }
            }
        }
    }
}

fn creatures(
    p: &mut Problems,
    e: &EncounterIn,
    ruleset: RulesetId,
    grid: Option<&Grid>,
    limits: &Limits,
    base: &str,
) -> Vec<Creature> {
    let rules = ruleset.rules();
    let max = limits.max_creatures as usize;
    if e.creatures.len() > max {
        p.push(format!("{base}/creatures"), at_most(max, ("creatures", "créatures")));
    }
    let seen = repeats(e.creatures.iter().take(max).map(|c| c.id.as_str()));
    let mut out = Vec::with_capacity(e.creatures.len().min(max));
    for (i, c) in e.creatures.iter().enumerate().take(max) {
        let ptr = At(base, "creatures", i);
        for (name, v) in [("id", &c.id), ("side", &c.side)] {
            if let Some(fault) = id_fault(v, limits.max_id_bytes as usize) {
                p.push(format!("{ptr}/{name}"), fault);
            }
        }
        if let Some(first) = seen[i] {
            p.push(
                format!("{ptr}/id"),
                Text::new(
                    format!("duplicate id {:?} (also creature {first})", c.id),
                    format!("identifiant « {} » en double (aussi la créature {first})", c.id),
                ),
            );
        }
        out.push(creature(p, c, rules, grid, &ptr));
    }
    mounts(p, e, &mut out, base);
    overlaps(p, ruleset, &out, base);
    out
}

/// One creature's size, square, conditions, senses, weapon and numbers.
fn creature(
    p: &mut Problems,
    c: &CreatureIn,
    rules: &Ruleset,
    grid: Option<&Grid>,
    ptr: &At<'_>,
) -> Creature {
    let sz = c.size.0;
    let sized = rules.size_info(sz).is_some();
    if !sized {
        let known: Vec<&str> = rules.sizes.iter().map(|(s, _)| s.id()).collect();
        p.push(
            format!("{ptr}/size"),
            Text::new(
                format!("{} has no size {}; one of: {}", rules.id, sz.id(), names(&known)),
                format!("{} n'a pas la taille {} ; l'une de : {}", rules.id, sz.id(), names(&known)),
            ),
        );
    }
    // Its space is checked only against a valid grid and with a size the ruleset knows.
    let at = creature_at(p, c, rules.size(sz).side, grid.filter(|_| sized), ptr);
    let conditions = conditions(p, c, rules, ptr);
    let senses = senses(p, &c.senses, ptr);
    let wielding = c.wielding.as_ref().map(|w| wielding(p, &format!("{ptr}/wielding"), w));
    Creature {
        id: c.id.clone(),
        side: c.side.clone(),
        at,
        size: sz,
        reach_ft: opt_feet(p, || format!("{ptr}/reach_ft"), c.reach_ft, 1000),
        speed_ft: opt_feet(p, || format!("{ptr}/speed_ft"), c.speed_ft, 10_000),
        swim_speed_ft: opt_feet(p, || format!("{ptr}/swim_speed_ft"), c.swim_speed_ft, 10_000),
        legs: opt_feet(p, || format!("{ptr}/legs"), c.legs, 1000),
        flying: c.flying,
        elevation_ft: elevation(p, || format!("{ptr}/elevation_ft"), c.elevation_ft),
        unarmed: c.unarmed,
        feats: c.feats.clone(),
        wielding,
        senses,
        conditions,
        hands_free: opt_feet(p, || format!("{ptr}/hands_free"), c.hands_free, 100),
        mounted_on: None,
        mount_independent: c.mount_control == Some(super::encounter::MountControlIn::Independent),
        stats: stats(&c.stats),
        defences: defences(p, &c.stats, rules, ptr),
    }
}

/// A creature's defences against damage; those its ruleset does not define are refused (5e
/// resistances, the PF1 family's energy resistance and damage reduction).
fn defences(p: &mut Problems, s: &StatsIn, rules: &Ruleset, ptr: &At<'_>) -> Defences {
    let five_e = matches!(rules.damage.mitigation, Mitigation::Dnd5e { .. });
    let mut refuse = |field: &str, what: (&str, &str)| {
        p.push(
            format!("{ptr}/stats/{field}"),
            Text::new(
                format!("{} does not define {}", rules.id, what.0),
                format!("{} ne définit pas {}", rules.id, what.1),
            ),
        );
    };
    if !five_e && !s.resistances.is_empty() {
        refuse(
            "resistances",
            ("5e resistance: use energy_resistance", "la résistance de 5e : utiliser energy_resistance"),
        );
    }
    if five_e && !s.energy_resistance.is_empty() {
        refuse(
            "energy_resistance",
            ("energy resistance: use resistances", "la résistance aux énergies : utiliser resistances"),
        );
    }
    if five_e && s.dr.is_some() {
        refuse("dr", ("damage reduction", "la réduction de dégâts"));
    }
    super::damage::defences(
        &s.resistances,
        &s.vulnerabilities,
        &s.immunities,
        &s.energy_resistance,
        s.dr.as_ref(),
    )
}

/// A creature's anchor square; its `side`×`side` space must lie inside the grid.
fn creature_at(p: &mut Problems, c: &CreatureIn, side: i32, grid: Option<&Grid>, ptr: &At<'_>) -> Square {
    let at = match (i32::try_from(c.at.x), i32::try_from(c.at.y)) {
        (Ok(x), Ok(y)) => Square::new(x, y),
        _ => Square::new(-1, -1),
    };
    let space = Space { anchor: at, side };
    if let Some(grid) = grid
        && !grid.contains_space(&space)
    {
        let (x, y, w, h) = (c.at.x, c.at.y, grid.width, grid.height);
        p.push(
            format!("{ptr}/at"),
            Text::new(
                format!("its {side}×{side} space from ({x}, {y}) must lie inside the {w}×{h} grid"),
                format!("son espace de {side}×{side} depuis ({x}, {y}) doit tenir dans la grille de {w}×{h}"),
            ),
        );
    }
    at
}

/// A creature's conditions, each one the ruleset knows.
fn conditions(p: &mut Problems, c: &CreatureIn, rules: &Ruleset, ptr: &At<'_>) -> Vec<Condition> {
    let mut conditions = Vec::with_capacity(c.conditions.len());
    for (j, k) in c.conditions.iter().enumerate() {
        let cond = k.0;
        if rules.knows(cond) {
            conditions.push(cond);
        } else {
            p.push(
                format!("{ptr}/conditions/{j}"),
                Text::new(
                    format!("{} does not know the condition {}", rules.id, cond.id()),
                    format!("{} ne connaît pas l'état {}", rules.id, cond.id()),
                ),
            );
        }
    }
    conditions
}

/// A creature's senses, their ranges bounded.
fn senses(p: &mut Problems, s: &SensesIn, ptr: &At<'_>) -> Senses {
    Senses {
        darkvision_ft: feet(p, || format!("{ptr}/senses/darkvision_ft"), s.darkvision_ft, 100_000),
        low_light_vision: s.low_light_vision,
        blindsight_ft: feet(p, || format!("{ptr}/senses/blindsight_ft"), s.blindsight_ft, 100_000),
        tremorsense_ft: feet(p, || format!("{ptr}/senses/tremorsense_ft"), s.tremorsense_ft, 100_000),
        truesight_ft: feet(p, || format!("{ptr}/senses/truesight_ft"), s.truesight_ft, 100_000),
        see_invisibility: s.see_invisibility,
    }
}

/// Each rider's mount: another creature, by id.
fn mounts(p: &mut Problems, e: &EncounterIn, out: &mut [Creature], base: &str) {
    // Mounts, then overlapping spaces (only sub-square creatures and a rider on its mount share).
    let mounts = e.creatures.iter().take(out.len()).any(|c| c.mounted_on.is_some());
    let index: BTreeMap<&str, usize> = if mounts {
        e.creatures.iter().take(out.len()).enumerate().map(|(i, c)| (c.id.as_str(), i)).collect()
    } else {
        BTreeMap::new()
    };
    for (i, c) in e.creatures.iter().enumerate().take(out.len()) {
        if c.mount_control.is_some() && c.mounted_on.is_none() {
            p.push(
                format!("{base}/creatures/{i}/mount_control"),
                Text::new(
                    "mount_control needs mounted_on (the mount it rides)",
                    "mount_control demande mounted_on (la monture chevauchée)",
                ),
            );
        }
        if let Some(m) = &c.mounted_on {
            match index.get(m.as_str()) {
                Some(&j) if j != i => {
                    if let Some(cr) = out.get_mut(i) {
                        cr.mounted_on = Some(j);
                    }
                }
                _ => p.push(
                    format!("{base}/creatures/{i}/mounted_on"),
                    Text::new(
                        format!("no other creature has id {m:?}"),
                        format!("aucune autre créature n'a l'identifiant « {m} »"),
                    ),
                ),
            }
        }
    }
}

/// For each id, the index of its previous occurrence, if any (a sort rather than a hash map:
/// no hashing for the usual few dozen ids).
fn repeats<'a>(ids: impl Iterator<Item = &'a str>) -> Vec<Option<usize>> {
    let mut order: Vec<(&str, usize)> = ids.enumerate().map(|(i, id)| (id, i)).collect();
    let mut prev = vec![None; order.len()];
    order.sort_unstable();
    for pair in order.windows(2) {
        if pair[0].0 == pair[1].0 {
            prev[pair[1].1] = Some(pair[0].1);
        }
    }
    prev
}

fn overlaps(p: &mut Problems, ruleset: RulesetId, creatures: &[Creature], base: &str) {
    let rules = ruleset.rules();
    // Sweep by column so that 500 creatures cost far less than all pairs in the common case.
    let mut order: Vec<(usize, Space)> = creatures
        .iter()
        .enumerate()
        .map(|(i, c)| (i, Space { anchor: c.at, side: rules.size(c.size).side }))
        .collect();
    order.sort_by_key(|(_, s)| s.min_x());
    for (k, (i, si)) in order.iter().enumerate() {
        for (j, sj) in order.iter().skip(k + 1) {
            if sj.min_x() > si.max_x() {
                break;
            }
            if !si.overlaps(sj) {
                continue;
            }
            let (a, b) = (&creatures[*i], &creatures[*j]);
            let shares = rules.size(a.size).shares_square || rules.size(b.size).shares_square;
            let rider = a.mounted_on == Some(*j) || b.mounted_on == Some(*i);
            // A creature whose square or size is already reported is not said to overlap.
            let reported = |k: usize| {
                p.reported(&format!("{base}/creatures/{k}/at"))
                    || p.reported(&format!("{base}/creatures/{k}/size"))
            };
            if !shares && !rider && !reported(*i) && !reported(*j) {
                let (first, second) = if i < j { (i, j) } else { (j, i) };
                let id = &creatures[*first].id;
                p.push(
                    format!("{base}/creatures/{second}/at"),
                    Text::new(
                        format!(
                            "its space overlaps creature {first} ({id:?}); only tiny and smaller creatures and a rider on its mount may share squares"
                        ),
                        format!(
                            "son espace chevauche celui de la créature {first} (« {id} ») ; seules les créatures très petites ou plus petites et un cavalier sur sa monture peuvent partager des cases"
                        ),
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_of(encounter: serde_json::Value) -> Vec<(String, String)> {
        let e: EncounterIn = serde_json::from_value(encounter).unwrap();
        match super::encounter(&e, &Limits::default(), "/encounter") {
            Ok(_) => Vec::new(),
            Err(p) => {
                p.0.iter()
                    .map(|i| (i.pointer.clone(), i.detail.get(crate::render::Lang::En).to_owned()))
                    .collect()
            }
        }
    }

    /// The mapping on its own (the contract refuses a width of −3 first on the HTTP path):
    /// a grid of invalid size is one problem, not one more per map row, wall end and
    /// creature "outside the grid"; an unknown size hides the creature's square and its
    /// overlaps.
    #[test]
    fn no_problem_follows_from_one_already_reported() {
        let e = serde_json::json!({
            "ruleset": "pf1e",
            "grid": {"width": -3, "height": 5, "map": ["...", "..."],
                     "walls": [{"from": {"x": 0, "y": 0}, "to": {"x": 2, "y": 0}, "kind": "solid"}]},
            "creatures": [{"id": "a", "side": "x", "at": {"x": 1, "y": 1}},
                          {"id": "b", "side": "y", "at": {"x": 4, "y": 1}}]
        });
        assert_eq!(
            problems_of(e),
            vec![("/encounter/grid/width".to_owned(), "must be between 1 and 1000 squares".to_owned())]
        );
        let e = serde_json::json!({
            "ruleset": "dnd5e2014",
            "grid": {"width": 4, "height": 4},
            "creatures": [{"id": "a", "side": "x", "at": {"x": 0, "y": 0}},
                          {"id": "b", "side": "y", "at": {"x": 1, "y": 1}, "size": "colossal"}]
        });
        let p = problems_of(e);
        assert_eq!(
            p.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
            vec!["/encounter/creatures/1/size"]
        );
        assert_eq!(
            p[0].1,
            "dnd5e2014 has no size colossal; one of: tiny, small, medium, large, huge, gargantuan"
        );
    }

    /// The table path gives each square the terrain of its legend character, and leaves any
    /// other map (a wrong width or height, an unknown or non-ASCII character) to the checks.
    #[test]
    fn ascii_maps_match_the_legend() {
        let legend: String = Terrain::LEGEND.iter().map(|(c, _, _)| *c).collect();
        let rows = vec![legend.clone(), legend.chars().rev().collect()];
        let w = legend.len() as i64;
        let mut terrain = vec![Terrain::OPEN; rows.len() * legend.len()];
        assert!(ascii_map(&rows, w, 2, &mut terrain));
        let expected: Vec<Terrain> =
            rows.iter().flat_map(|r| r.chars().map(|c| Terrain::from_char(c).unwrap())).collect();
        assert_eq!(terrain, expected);
        let mut untouched = vec![Terrain::OPEN; 14];
        assert!(!ascii_map(&rows, w, 3, &mut untouched), "height");
        assert!(!ascii_map(&["..#".into(), "..".into()], 3, 2, &mut untouched[..6]), "width");
        assert!(!ascii_map(&["..?".into()], 3, 1, &mut untouched[..3]), "unknown character");
        assert!(!ascii_map(&[".é".into()], 3, 1, &mut untouched[..3]), "non-ASCII (3 bytes)");
        assert!(untouched.iter().all(|t| *t == Terrain::OPEN));
    }
}
