//! How the d20 is rolled: advantage and disadvantage combined (`dnd5e.advantage.combine`).

/// How the d20 is rolled after combining advantage and disadvantage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollMode {
    /// One die.
    Normal,
    /// Two dice, keep the higher.
    Advantage,
    /// Two dice, keep the lower.
    Disadvantage,
}

impl RollMode {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            RollMode::Normal => "normal",
            RollMode::Advantage => "advantage",
            RollMode::Disadvantage => "disadvantage",
        }
    }

    /// `dnd5e.advantage.combine`: any advantage and any disadvantage cancel; several of one
    /// kind still roll two dice.
    pub fn combine(advantage: usize, disadvantage: usize) -> RollMode {
        match (advantage > 0, disadvantage > 0) {
            (true, false) => RollMode::Advantage,
            (false, true) => RollMode::Disadvantage,
            _ => RollMode::Normal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md `dnd5e.advantage.combine` example: two disadvantages and one advantage → one die.
    #[test]
    fn advantage_combination() {
        assert_eq!(RollMode::combine(1, 2), RollMode::Normal);
        assert_eq!(RollMode::combine(0, 2), RollMode::Disadvantage);
        assert_eq!(RollMode::combine(3, 0), RollMode::Advantage);
        assert_eq!(RollMode::combine(0, 0), RollMode::Normal);
    }
}
