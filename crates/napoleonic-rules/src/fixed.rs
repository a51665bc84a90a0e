//! Exact decimal numbers for the rules' arithmetic. Gold, upkeep, hit points and combat
//! percentages all carry fractions in the rulebook (upkeep 1.1, a hit-point bonus of 1.3, a
//! combat of 36.9), and floating point would make two machines disagree on a turn. Every
//! such number is kept as whole hundredths (decision G41): exact for every figure the
//! rulebook prints, and the same bytes everywhere.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A quantity kept in hundredths: `Fixed(440)` is 4.40.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Fixed(pub i64);

/// Gold, in hundredths of a gold piece. The treasury, costs, upkeep and revenue are all
/// kept exactly; reports show whole gold, truncated as the original client did (G41).
pub type Gold = Fixed;

impl Fixed {
    pub const ZERO: Fixed = Fixed(0);

    /// A whole number: `Fixed::whole(4)` is 4.00.
    pub const fn whole(n: i64) -> Fixed {
        Fixed(n * 100)
    }

    /// From hundredths: `Fixed::hundredths(110)` is 1.10.
    pub const fn hundredths(n: i64) -> Fixed {
        Fixed(n)
    }

    /// Parses "4", "4.4", "4.40" or "-0.5". At most two decimals.
    pub fn parse(text: &str) -> Option<Fixed> {
        let t = text.trim();
        let (neg, t) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let (int, frac) = match t.split_once('.') {
            Some((i, f)) => (i, f),
            None => (t, ""),
        };
        if int.is_empty() && frac.is_empty()
            || frac.len() > 2
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let whole: i64 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let mut hundredths: i64 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        if frac.len() == 1 {
            hundredths *= 10;
        }
        let v = whole.checked_mul(100)?.checked_add(hundredths)?;
        Some(Fixed(if neg { -v } else { v }))
    }

    /// The whole part, truncated toward zero: what the HQ panel shows (4.4 shows as 4).
    pub fn truncated(self) -> i64 {
        self.0 / 100
    }

    /// `self × pct / 100`, truncated toward zero at the hundredth.
    pub fn percent(self, pct: i64) -> Fixed {
        Fixed(self.0 * pct / 100)
    }

    /// `self × num / den`, truncated toward zero at the hundredth; zero when `den` is 0.
    pub fn ratio(self, num: i64, den: i64) -> Fixed {
        if den == 0 {
            Fixed::ZERO
        } else {
            Fixed(self.0 * num / den)
        }
    }

    /// The product of two fixed numbers, truncated at the hundredth.
    pub fn times(self, other: Fixed) -> Fixed {
        Fixed(self.0 * other.0 / 100)
    }

    pub fn max(self, other: Fixed) -> Fixed {
        Fixed(self.0.max(other.0))
    }

    pub fn min(self, other: Fixed) -> Fixed {
        Fixed(self.0.min(other.0))
    }

    pub fn is_negative(self) -> bool {
        self.0 < 0
    }
}

impl Add for Fixed {
    type Output = Fixed;
    fn add(self, o: Fixed) -> Fixed {
        Fixed(self.0 + o.0)
    }
}

impl AddAssign for Fixed {
    fn add_assign(&mut self, o: Fixed) {
        self.0 += o.0;
    }
}

impl Sub for Fixed {
    type Output = Fixed;
    fn sub(self, o: Fixed) -> Fixed {
        Fixed(self.0 - o.0)
    }
}

impl SubAssign for Fixed {
    fn sub_assign(&mut self, o: Fixed) {
        self.0 -= o.0;
    }
}

impl Neg for Fixed {
    type Output = Fixed;
    fn neg(self) -> Fixed {
        Fixed(-self.0)
    }
}

/// A count of things each worth `self`: four troops of upkeep 1.1 cost 4.4.
impl Mul<i64> for Fixed {
    type Output = Fixed;
    fn mul(self, n: i64) -> Fixed {
        Fixed(self.0 * n)
    }
}

impl std::iter::Sum for Fixed {
    fn sum<I: Iterator<Item = Fixed>>(iter: I) -> Fixed {
        iter.fold(Fixed::ZERO, |a, b| a + b)
    }
}

/// Exact, with the decimals only when there are any: "4", "4.4", "4.05", "-0.5".
impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        let (int, frac) = (a / 100, a % 100);
        match frac {
            0 => write!(f, "{sign}{int}"),
            f10 if f10 % 10 == 0 => write!(f, "{sign}{int}.{}", f10 / 10),
            _ => write!(f, "{sign}{int}.{frac:02}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t1_four_troops_of_upkeep_one_point_one_cost_four_point_four_shown_as_four() {
        let upkeep = Fixed::parse("1.1").unwrap() * 4;
        assert_eq!(upkeep, Fixed::hundredths(440));
        assert_eq!(upkeep.to_string(), "4.4");
        assert_eq!(upkeep.truncated(), 4);
    }

    #[test]
    fn t3_forty_gold_at_sixty_five_percent_is_twenty_six() {
        assert_eq!(Fixed::whole(40).percent(65), Fixed::whole(26));
    }

    #[test]
    fn parsing_accepts_one_or_two_decimals_and_refuses_the_rest() {
        assert_eq!(Fixed::parse("2.05"), Some(Fixed(205)));
        assert_eq!(Fixed::parse("-0.5"), Some(Fixed(-50)));
        assert_eq!(Fixed::parse(".5"), Some(Fixed(50)));
        for bad in ["", ".", "1.234", "1e3", "x", "1.-2", "99999999999999999999"] {
            assert_eq!(Fixed::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn display_is_exact_and_short() {
        assert_eq!(Fixed(5880).to_string(), "58.8");
        assert_eq!(Fixed(3630).to_string(), "36.3");
        assert_eq!(Fixed(405).to_string(), "4.05");
        assert_eq!(Fixed(-50).to_string(), "-0.5");
        assert_eq!(Fixed(0).to_string(), "0");
    }

    #[test]
    fn products_truncate_at_the_hundredth() {
        // 40 × 1.47 = 58.8 (G22, T10)
        assert_eq!(Fixed::whole(40).times(Fixed(147)), Fixed(5880));
        // 30 × 46 / 200 = 6.9 (T7)
        assert_eq!(Fixed::whole(30).ratio(46, 200), Fixed(690));
    }
}
