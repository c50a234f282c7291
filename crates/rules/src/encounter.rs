//! The validated encounter snapshot (PRODUCT.md "The encounter snapshot").
//!
//! The server turns its wire types into these values once, reporting every problem with a JSON
//! pointer; the rules never re-validate. Fields are public so that tests, fuzzers and property
//! tests can build any encounter: every rule function must answer (never panic) whatever it gets.

pub use crate::condition::Condition;
use crate::grid::{Point, Space, Square};
use crate::ruleset::{RulesetId, Variants};
pub use crate::size::Size;

/// Terrain of one square, as a set of flags (a square may be both concealing and difficult).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Terrain(pub u8);

impl Terrain {
    /// Open ground.
    pub const OPEN: Terrain = Terrain(0);
    /// `#`: fills the square, blocks movement, sight and effect.
    pub const SOLID: Terrain = Terrain(1);
    /// `=`: low obstacle (half height).
    pub const LOW: Terrain = Terrain(1 << 1);
    /// `~`: concealing (fog, foliage: lightly obscured).
    pub const CONCEALING: Terrain = Terrain(1 << 2);
    /// `%`: opaque but passable (heavily obscured).
    pub const OPAQUE: Terrain = Terrain(1 << 3);
    /// `:`: difficult terrain.
    pub const DIFFICULT: Terrain = Terrain(1 << 4);
    /// `w`: deep water.
    pub const WATER: Terrain = Terrain(1 << 5);

    /// The legend of PRODUCT.md: map character → terrain.
    pub const LEGEND: [(char, Terrain, &'static str); 7] = [
        ('.', Terrain::OPEN, "open"),
        ('#', Terrain::SOLID, "solid"),
        ('=', Terrain::LOW, "low"),
        ('~', Terrain::CONCEALING, "concealing"),
        ('%', Terrain::OPAQUE, "opaque"),
        (':', Terrain::DIFFICULT, "difficult"),
        ('w', Terrain::WATER, "water"),
    ];

    /// The terrain of a map character.
    pub fn from_char(c: char) -> Option<Terrain> {
        Terrain::LEGEND.iter().find(|(ch, _, _)| *ch == c).map(|(_, t, _)| *t)
    }

    /// Whether every flag of `other` is set.
    pub fn has(self, other: Terrain) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// The union of two terrains.
    #[must_use]
    pub fn with(self, other: Terrain) -> Terrain {
        Terrain(self.0 | other.0)
    }
}

/// Light level (ambient, per square, or reached by a source).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Light {
    /// No light.
    Darkness,
    /// Dim light.
    Dim,
    /// Bright (normal) light.
    Bright,
}

impl Light {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Light::Darkness => "darkness",
            Light::Dim => "dim",
            Light::Bright => "bright",
        }
    }
    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<Light> {
        [Light::Darkness, Light::Dim, Light::Bright].into_iter().find(|l| l.id() == id)
    }
    /// Parses a `light_map` character (`b`, `d`, `n`).
    pub fn from_char(c: char) -> Option<Light> {
        match c {
            'b' => Some(Light::Bright),
            'd' => Some(Light::Dim),
            'n' => Some(Light::Darkness),
            _ => None,
        }
    }
}

/// What a thin wall is (RULES.md Q-41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WallKind {
    /// Blocks movement, sight and effect.
    Solid,
    /// Low obstacle (half height): low-obstacle cover rules.
    Low,
    /// Blocks movement and effect, not sight.
    Window,
    /// Improved / three-quarters cover; attacks pass.
    ArrowSlit,
    /// Ignored.
    DoorOpen,
    /// Blocks like solid.
    DoorClosed,
    /// Blocks movement only: sight, attacks and effects pass (a bar counter or a ledge drawn
    /// as a VTT's invisible wall, a force barrier one sees and shoots through).
    Barrier,
}

impl WallKind {
    /// Every kind.
    pub const ALL: [WallKind; 7] = [
        WallKind::Solid,
        WallKind::Low,
        WallKind::Window,
        WallKind::ArrowSlit,
        WallKind::DoorOpen,
        WallKind::DoorClosed,
        WallKind::Barrier,
    ];
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            WallKind::Solid => "solid",
            WallKind::Low => "low",
            WallKind::Window => "window",
            WallKind::ArrowSlit => "arrow_slit",
            WallKind::DoorOpen => "door_open",
            WallKind::DoorClosed => "door_closed",
            WallKind::Barrier => "barrier",
        }
    }
    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<WallKind> {
        WallKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

/// A thin wall: a straight segment between two exact points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wall {
    /// One end.
    pub from: Point,
    /// The other end.
    pub to: Point,
    /// What it blocks.
    pub kind: WallKind,
}

/// A point light source (a UVTT light).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LightSource {
    /// Where it shines from.
    pub at: Point,
    /// Radius of bright light, feet.
    pub bright_ft: u32,
    /// Radius of dim light, feet (beyond the bright radius).
    pub dim_ft: u32,
}

/// The battle map.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Terrain per square, row-major (`y * width + x`); may be shorter than `width × height`
    /// when built by hand, missing squares being open.
    pub terrain: Vec<Terrain>,
    /// Ambient light.
    pub light: Light,
    /// Per-square light override, row-major; `None` where the ambient level applies.
    pub light_map: Vec<Option<Light>>,
    /// Light sources.
    pub lights: Vec<LightSource>,
    /// Thin walls.
    pub walls: Vec<Wall>,
}

impl Grid {
    /// An open, brightly lit grid.
    pub fn open(width: i32, height: i32) -> Grid {
        Grid {
            width,
            height,
            terrain: Vec::new(),
            light: Light::Bright,
            light_map: Vec::new(),
            lights: Vec::new(),
            walls: Vec::new(),
        }
    }

    /// Whether a square is on the map.
    pub fn contains(&self, sq: Square) -> bool {
        sq.x >= 0 && sq.y >= 0 && sq.x < self.width && sq.y < self.height
    }

    fn index(&self, sq: Square) -> Option<usize> {
        if !self.contains(sq) {
            return None;
        }
        usize::try_from(i64::from(sq.y) * i64::from(self.width) + i64::from(sq.x)).ok()
    }

    /// The terrain of a square; squares off the map are open (RULES.md Q-36).
    pub fn terrain(&self, sq: Square) -> Terrain {
        self.index(sq).and_then(|i| self.terrain.get(i).copied()).unwrap_or_default()
    }

    /// Whether the whole space lies on the map.
    pub fn contains_space(&self, space: &Space) -> bool {
        self.contains(space.anchor)
            && i64::from(space.max_x()) < i64::from(self.width)
            && i64::from(space.max_y()) < i64::from(self.height)
    }
}

/// The environment of the encounter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Environment {
    /// The fight takes place underwater.
    pub underwater: bool,
    /// Gravity.
    pub gravity: Gravity,
}

/// Gravity of the environment (Starfinder zero-g matters for prone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gravity {
    /// Standard gravity.
    #[default]
    Normal,
    /// Low gravity.
    Low,
    /// High gravity.
    High,
    /// Zero gravity.
    Zero,
}

impl Gravity {
    /// Every value.
    pub const ALL: [Gravity; 4] = [Gravity::Normal, Gravity::Low, Gravity::High, Gravity::Zero];
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Gravity::Normal => "normal",
            Gravity::Low => "low",
            Gravity::High => "high",
            Gravity::Zero => "zero",
        }
    }
}

/// Special senses, ranges in feet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Senses {
    /// Darkvision range.
    pub darkvision_ft: u32,
    /// Low-light vision (PF1: doubles light radii; SF: dim counts as normal).
    pub low_light_vision: bool,
    /// Blindsight range.
    pub blindsight_ft: u32,
    /// Tremorsense range.
    pub tremorsense_ft: u32,
    /// Truesight range (5e).
    pub truesight_ft: u32,
    /// Sees invisible creatures.
    pub see_invisibility: bool,
}

/// Saving-throw bonuses: 5e keys them by ability, PF1/SF/hb3d by save.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Saves {
    /// 5e Strength save.
    pub str: Option<i32>,
    /// 5e Dexterity save.
    pub dex: Option<i32>,
    /// 5e Constitution save.
    pub con: Option<i32>,
    /// 5e Intelligence save.
    pub int: Option<i32>,
    /// 5e Wisdom save.
    pub wis: Option<i32>,
    /// 5e Charisma save.
    pub cha: Option<i32>,
    /// Fortitude.
    pub fort: Option<i32>,
    /// Reflex.
    pub reflex: Option<i32>,
    /// Will.
    pub will: Option<i32>,
}

/// The numbers a ruleset may need; an operation that needs a missing one answers with an error
/// naming the creature and the stat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Armor class (5e, PF1).
    pub ac: Option<i32>,
    /// Energy armor class (SF).
    pub eac: Option<i32>,
    /// Kinetic armor class (SF).
    pub kac: Option<i32>,
    /// Defence (hb3d DEF).
    pub def: Option<i32>,
    /// Attack bonus.
    pub attack_bonus: Option<i32>,
    /// Strength modifier.
    pub str_mod: Option<i32>,
    /// Dexterity modifier.
    pub dex_mod: Option<i32>,
    /// Constitution modifier.
    pub con_mod: Option<i32>,
    /// Intelligence modifier.
    pub int_mod: Option<i32>,
    /// Wisdom modifier.
    pub wis_mod: Option<i32>,
    /// Charisma modifier.
    pub cha_mod: Option<i32>,
    /// Proficiency bonus (5e).
    pub proficiency_bonus: Option<i32>,
    /// Athletics skill bonus.
    pub athletics: Option<i32>,
    /// Acrobatics skill bonus.
    pub acrobatics: Option<i32>,
    /// Escape Artist skill bonus.
    pub escape_artist: Option<i32>,
    /// Combat maneuver bonus (PF1; hb3d BMC).
    pub cmb: Option<i32>,
    /// Combat maneuver defence (PF1).
    pub cmd: Option<i32>,
    /// Base attack bonus.
    pub bab: Option<i32>,
    /// Initiative bonus.
    pub initiative_bonus: Option<i32>,
    /// Hit points left: the answer's chance that the damage drops the creature.
    pub hp: Option<i32>,
    /// Saving throws.
    pub saves: Saves,
}

/// A weapon property that some rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponProperty {
    /// Ammunition.
    Ammunition,
    /// Brace (PF1).
    Brace,
    /// Disarm quality (PF1: +2 to disarm).
    Disarm,
    /// Double weapon (PF1).
    Double,
    /// Finesse.
    Finesse,
    /// Heavy.
    Heavy,
    /// Light.
    Light,
    /// Loading.
    Loading,
    /// Monk (PF1).
    Monk,
    /// Nonlethal.
    Nonlethal,
    /// Reach.
    Reach,
    /// Special.
    Special,
    /// Sunder (PF1).
    Sunder,
    /// Thrown.
    Thrown,
    /// Trip quality (PF1).
    Trip,
    /// Two-handed.
    TwoHanded,
    /// Versatile.
    Versatile,
    /// A whip (hb3d: disarms at −3 and picks the item up, seed 003; PF1: has the disarm
    /// quality).
    Whip,
    /// A lance: double damage on a mounted charge (PF1, hb3d).
    Lance,
}

impl WeaponProperty {
    /// Every property.
    pub const ALL: [WeaponProperty; 19] = [
        WeaponProperty::Ammunition,
        WeaponProperty::Brace,
        WeaponProperty::Disarm,
        WeaponProperty::Double,
        WeaponProperty::Finesse,
        WeaponProperty::Heavy,
        WeaponProperty::Light,
        WeaponProperty::Loading,
        WeaponProperty::Monk,
        WeaponProperty::Nonlethal,
        WeaponProperty::Reach,
        WeaponProperty::Special,
        WeaponProperty::Sunder,
        WeaponProperty::Thrown,
        WeaponProperty::Trip,
        WeaponProperty::TwoHanded,
        WeaponProperty::Versatile,
        WeaponProperty::Whip,
        WeaponProperty::Lance,
    ];
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            WeaponProperty::Ammunition => "ammunition",
            WeaponProperty::Brace => "brace",
            WeaponProperty::Disarm => "disarm",
            WeaponProperty::Double => "double",
            WeaponProperty::Finesse => "finesse",
            WeaponProperty::Heavy => "heavy",
            WeaponProperty::Light => "light",
            WeaponProperty::Loading => "loading",
            WeaponProperty::Monk => "monk",
            WeaponProperty::Nonlethal => "nonlethal",
            WeaponProperty::Reach => "reach",
            WeaponProperty::Special => "special",
            WeaponProperty::Sunder => "sunder",
            WeaponProperty::Thrown => "thrown",
            WeaponProperty::Trip => "trip",
            WeaponProperty::TwoHanded => "two_handed",
            WeaponProperty::Versatile => "versatile",
            WeaponProperty::Whip => "whip",
            WeaponProperty::Lance => "lance",
        }
    }
    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<WeaponProperty> {
        WeaponProperty::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// How a weapon is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponKind {
    /// Melee weapon (reach).
    Melee,
    /// Projectile weapon.
    Ranged,
    /// Thrown weapon.
    Thrown,
}

impl WeaponKind {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            WeaponKind::Melee => "melee",
            WeaponKind::Ranged => "ranged",
            WeaponKind::Thrown => "thrown",
        }
    }
}

/// A weapon, with the range fields the ruleset needs (5e normal/long, others an increment).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Weapon {
    /// How it is used; `None` only when built by hand.
    pub kind: Option<WeaponKind>,
    /// Reach with this weapon, replacing natural reach and the `reach` property.
    pub reach_ft: Option<u32>,
    /// 5e normal range.
    pub normal_ft: Option<u32>,
    /// 5e long range.
    pub long_ft: Option<u32>,
    /// PF1/SF/hb3d range increment.
    pub increment_ft: Option<u32>,
    /// Maximum number of increments (default 10, thrown 5).
    pub max_increments: Option<u32>,
    /// Properties.
    pub properties: Vec<WeaponProperty>,
    /// Damage type (`"piercing"`), free text.
    pub damage_type: Option<String>,
    /// The weapon's own attack bonus, which wins over the creature's.
    pub attack_bonus: Option<i32>,
    /// Weapon name (`"dagger"`), used by rules that list weapons (5e 2014 underwater).
    pub name: Option<String>,
    /// PF1: the lowest natural roll that threatens a critical hit (default 20).
    pub crit_range: Option<u32>,
    /// SF: the armor class it targets.
    pub targets: Option<ArmorClass>,
    /// The damage it deals on a hit; `None`: the answer has no damage.
    pub damage: Option<crate::weapon_damage::Damage>,
    /// PF1 family: the critical multiplier (×2 by default, ×3, ×4).
    pub crit_multiplier: Option<u32>,
    /// How it is held, for the PF1 family's Strength to damage.
    pub grip: Option<Grip>,
    /// What it is made of or counts as (`magic`, `silver`, `cold_iron`…), for PF1 damage
    /// reduction.
    pub materials: Vec<String>,
}

/// How a weapon is held (PF1 family: Strength ×1, ×1½, ×½ to damage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grip {
    /// In one hand (the default, but for a `two_handed` weapon).
    OneHanded,
    /// In both hands.
    TwoHanded,
    /// In the off hand.
    OffHand,
}

/// Starfinder's two armor classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArmorClass {
    /// Energy armor class.
    Eac,
    /// Kinetic armor class.
    Kac,
}

impl Weapon {
    /// Whether the weapon has a property.
    pub fn has(&self, p: WeaponProperty) -> bool {
        self.properties.contains(&p)
    }

    /// A whip: the `whip` property, or named whip / fouet (seed 003 names the weapon).
    pub fn is_whip(&self) -> bool {
        self.has(WeaponProperty::Whip)
            || self.name.as_deref().is_some_and(|n| {
                let n = n.trim();
                n.eq_ignore_ascii_case("whip") || n.eq_ignore_ascii_case("fouet")
            })
    }
}

/// A creature on the map.
#[derive(Debug, Clone, PartialEq)]
pub struct Creature {
    /// Unique id.
    pub id: String,
    /// Side: creatures of the same side are allies.
    pub side: String,
    /// Top-left occupied square.
    pub at: Square,
    /// Size category.
    pub size: Size,
    /// Natural reach override, feet.
    pub reach_ft: Option<u32>,
    /// Speed override, feet.
    pub speed_ft: Option<u32>,
    /// Swim speed, feet.
    pub swim_speed_ft: Option<u32>,
    /// Number of legs (trip rules); `None` = two.
    pub legs: Option<u32>,
    /// Flying.
    pub flying: bool,
    /// Elevation in feet (ignored by the 2-D geometry; the trace says so).
    pub elevation_ft: i32,
    /// Fights unarmed.
    pub unarmed: bool,
    /// Feat ids (`improved_trip`, `precise_shot`…).
    pub feats: Vec<String>,
    /// The melee weapon it threatens with.
    pub wielding: Option<Weapon>,
    /// Senses.
    pub senses: Senses,
    /// Conditions.
    pub conditions: Vec<Condition>,
    /// Free hands; `None` = two.
    pub hands_free: Option<u32>,
    /// Index (into `Encounter::creatures`) of the mount it rides.
    pub mounted_on: Option<usize>,
    /// The mount it rides is independent: it keeps its own initiative (5e). `false`: a
    /// controlled mount, whose initiative follows the rider's.
    pub mount_independent: bool,
    /// Numbers.
    pub stats: Stats,
    /// What reduces the damage it takes.
    pub defences: crate::defences::Defences,
}

impl Creature {
    /// A creature with default fields, for tests and builders.
    pub fn new(id: &str, side: &str, at: Square, size: Size) -> Creature {
        Creature {
            id: id.to_owned(),
            side: side.to_owned(),
            at,
            size,
            reach_ft: None,
            speed_ft: None,
            swim_speed_ft: None,
            legs: None,
            flying: false,
            elevation_ft: 0,
            unarmed: false,
            feats: Vec::new(),
            wielding: None,
            senses: Senses::default(),
            conditions: Vec::new(),
            hands_free: None,
            mounted_on: None,
            mount_independent: false,
            stats: Stats::default(),
            defences: crate::defences::Defences::default(),
        }
    }

    /// Whether the creature has a condition.
    pub fn has(&self, c: Condition) -> bool {
        self.conditions.contains(&c)
    }

    /// Whether the creature has a feat.
    pub fn has_feat(&self, feat: &str) -> bool {
        self.feats.iter().any(|f| f == feat)
    }
}

/// A validated encounter snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Encounter {
    /// The ruleset.
    pub ruleset: RulesetId,
    /// Switched rule variants.
    pub variants: Variants,
    /// The map.
    pub grid: Grid,
    /// The environment.
    pub environment: Environment,
    /// The creatures.
    pub creatures: Vec<Creature>,
}

impl Encounter {
    /// The index of a creature by id.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.creatures.iter().position(|c| c.id == id)
    }

    /// A creature's space under this encounter's ruleset.
    pub fn space(&self, c: &Creature) -> Space {
        Space { anchor: c.at, side: self.ruleset.rules().size(c.size).side }
    }
}
