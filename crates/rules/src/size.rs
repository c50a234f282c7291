//! Size categories, shared by the encounter and the ruleset tables (which give each its
//! space and reach).

/// A creature's size category (RULES.md `dnd5e.size.space`, `pf1e.size.table`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    /// PF1/SF Fine.
    Fine,
    /// PF1/SF Diminutive.
    Diminutive,
    /// Tiny.
    Tiny,
    /// Small.
    Small,
    /// Medium.
    Medium,
    /// Large.
    Large,
    /// Huge.
    Huge,
    /// Gargantuan.
    Gargantuan,
    /// PF1/SF Colossal.
    Colossal,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 9] = [
        Size::Fine,
        Size::Diminutive,
        Size::Tiny,
        Size::Small,
        Size::Medium,
        Size::Large,
        Size::Huge,
        Size::Gargantuan,
        Size::Colossal,
    ];

    /// The wire id (`"medium"`).
    pub fn id(self) -> &'static str {
        match self {
            Size::Fine => "fine",
            Size::Diminutive => "diminutive",
            Size::Tiny => "tiny",
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
            Size::Huge => "huge",
            Size::Gargantuan => "gargantuan",
            Size::Colossal => "colossal",
        }
    }

    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Position on the size ladder (Fine = 0), for "n sizes larger" comparisons.
    pub fn rank(self) -> i32 {
        self as i32
    }
}
