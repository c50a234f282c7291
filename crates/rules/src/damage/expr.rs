//! Damage dice expressions: `"1d8+3"`, `"2d6"`, `"1d6-1"`, `"d4+1d6+2"`, `"3"`.

/// Most dice of one `NdS` group.
pub const MAX_COUNT: u32 = 100;
/// Most sides of a damage die.
pub const MAX_SIDES: u32 = 100;
/// Largest static bonus or penalty of one expression, in absolute value.
pub const MAX_STATIC: i64 = 10_000;
/// Most `NdS` groups in one expression.
pub const MAX_GROUPS: usize = 8;
/// Longest expression, characters.
pub const MAX_CHARS: usize = 64;

/// A parsed expression: its dice groups `(count, sides)` and its static total.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// `NdS` groups, in the order written.
    pub dice: Vec<(u32, u32)>,
    /// The sum of the constants.
    pub bonus: i64,
}

/// What is wrong with an expression; the token at fault where there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprError {
    /// More than [`MAX_CHARS`] characters.
    TooLong,
    /// Nothing written.
    Empty,
    /// A sign with nothing after it.
    TrailingSign,
    /// Two signs in a row, or a sign first.
    MisplacedSign,
    /// Neither a number nor `NdS`.
    NotATerm(String),
    /// Dice subtracted (`-1d4`).
    SubtractedDice(String),
    /// `NdS` without `S`.
    NoSides(String),
    /// Zero dice or more than [`MAX_COUNT`].
    Count(String),
    /// Zero sides or more than [`MAX_SIDES`].
    Sides(String),
    /// More than [`MAX_GROUPS`] dice groups.
    Groups,
    /// The constants exceed [`MAX_STATIC`].
    Static,
}

/// Parses an expression. Dice are only added; constants are added or subtracted.
pub fn parse(s: &str) -> Result<Parsed, ExprError> {
    if s.chars().count() > MAX_CHARS {
        return Err(ExprError::TooLong);
    }
    let text: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if text.is_empty() {
        return Err(ExprError::Empty);
    }
    let mut out = Parsed::default();
    let mut sign = 1i64;
    let mut rest = text.as_str();
    loop {
        let end = rest.find(['+', '-']).unwrap_or(rest.len());
        let (token, tail) = rest.split_at(end);
        term(token, sign, &mut out)?;
        let Some(op) = tail.chars().next() else { break };
        sign = if op == '-' { -1 } else { 1 };
        rest = &tail[1..];
        if rest.is_empty() {
            return Err(ExprError::TrailingSign);
        }
    }
    Ok(out)
}

fn term(token: &str, sign: i64, out: &mut Parsed) -> Result<(), ExprError> {
    if token.is_empty() {
        return Err(ExprError::MisplacedSign);
    }
    let number = |t: &str| -> Result<u64, ExprError> {
        if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
            return Err(ExprError::NotATerm(token.to_owned()));
        }
        // Too many digits for a u64: far beyond every bound anyway.
        Ok(t.parse::<u64>().unwrap_or(u64::MAX))
    };
    match token.split_once(['d', 'D']) {
        None => {
            let v = i64::try_from(number(token)?).unwrap_or(i64::MAX);
            out.bonus = out.bonus.saturating_add(sign.saturating_mul(v));
            if out.bonus.abs() > MAX_STATIC {
                return Err(ExprError::Static);
            }
        }
        Some((count, sides)) => {
            if sign < 0 {
                return Err(ExprError::SubtractedDice(token.to_owned()));
            }
            let count = if count.is_empty() { 1 } else { number(count)? };
            if sides.is_empty() {
                return Err(ExprError::NoSides(token.to_owned()));
            }
            let sides = number(sides)?;
            if count == 0 || count > u64::from(MAX_COUNT) {
                return Err(ExprError::Count(token.to_owned()));
            }
            if sides == 0 || sides > u64::from(MAX_SIDES) {
                return Err(ExprError::Sides(token.to_owned()));
            }
            if out.dice.len() == MAX_GROUPS {
                return Err(ExprError::Groups);
            }
            out.dice.push((count as u32, sides as u32));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_expressions() {
        assert_eq!(parse("1d8+3"), Ok(Parsed { dice: vec![(1, 8)], bonus: 3 }));
        assert_eq!(parse("2d6"), Ok(Parsed { dice: vec![(2, 6)], bonus: 0 }));
        assert_eq!(parse("1d6-1"), Ok(Parsed { dice: vec![(1, 6)], bonus: -1 }));
        assert_eq!(parse(" d4 + 1D6 + 2 - 5 "), Ok(Parsed { dice: vec![(1, 4), (1, 6)], bonus: -3 }));
        assert_eq!(parse("3"), Ok(Parsed { dice: vec![], bonus: 3 }));
    }

    #[test]
    fn bad_expressions() {
        for bad in [
            "", "1d", "0d6", "1d0", "d", "1d8+", "+3", "1d8--1", "-1d6", "1d8-1d4", "101d6", "1d101", "x",
            "1d6x",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} parsed");
        }
        assert!(parse("10001").is_err());
        assert!(parse("99999999999999999999999").is_err());
        assert!(parse("1d6+".repeat(9).trim_end_matches('+')).is_err());
    }
}
