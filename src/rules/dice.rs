//! Dice: one seeded, portable RNG (`ChaCha8Rng`) plus a queue of forced results.
//!
//! Scripts and tests force dice by pushing values; a forced value is used by the next roll of any
//! size. Every roll goes through [`Dice::roll`], so the same seed and the same forced values give
//! the same results on every platform.

use std::collections::VecDeque;
use std::fmt;

use bevy::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::limits::{MAX_DICE, MAX_FLAT, MAX_SIDES, MAX_TERMS};

/// The rules' only source of randomness.
#[derive(Resource)]
pub struct Dice {
    rng: ChaCha8Rng,
    forced: VecDeque<i32>,
    /// Forced values that did not fit the die they were used for (kept for the scenario runner).
    pub forced_errors: Vec<String>,
}

impl Dice {
    /// A dice box seeded with `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self { rng: ChaCha8Rng::seed_from_u64(seed), forced: VecDeque::new(), forced_errors: Vec::new() }
    }

    /// Queue results that the next rolls return, in order, before the RNG is used again.
    pub fn force(&mut self, values: impl IntoIterator<Item = i32>) {
        self.forced.extend(values);
    }

    /// Where the dice stream stands: the RNG's word position and the forced results still
    /// queued (part of the state hash).
    pub fn position(&self) -> (u128, Vec<i32>) {
        (self.rng.get_word_pos(), self.forced.iter().copied().collect())
    }

    /// How many forced results are still queued.
    pub fn forced_left(&self) -> usize {
        self.forced.len()
    }

    /// Roll one die with `sides` faces (1..=sides; a die of no sides shows 0). Sides beyond
    /// [`MAX_SIDES`] count as that many.
    pub fn roll(&mut self, sides: u32) -> i32 {
        let sides = sides.min(MAX_SIDES) as i32;
        if let Some(v) = self.forced.pop_front() {
            if v < 1 || v > sides {
                self.forced_errors.push(format!("forced die result {v} does not fit a d{sides}"));
            }
            return v;
        }
        if sides == 0 {
            return 0;
        }
        self.rng.random_range(1..=sides)
    }

    /// Roll an expression: every die, then the flat parts; stats are looked up by `stat`. The
    /// sum saturates (it cannot wrap around).
    pub fn roll_expr(&mut self, expr: &DiceExpr, stat: impl Fn(&str) -> i32) -> i32 {
        let mut total = expr.flat;
        for _ in 0..expr.count.min(MAX_DICE) {
            total = total.saturating_add(self.roll(expr.sides));
        }
        for (sign, name) in &expr.stats {
            total = total.saturating_add(sign.saturating_mul(stat(name)));
        }
        total
    }
}

/// A dice expression such as `1d20`, `2d6+STR` or `1d8+STR+2`, parsed when data is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Reflect)]
#[serde(try_from = "String", into = "String")]
pub struct DiceExpr {
    /// Number of dice.
    pub count: u32,
    /// Faces per die (0 when there are no dice).
    pub sides: u32,
    /// Flat modifier.
    pub flat: i32,
    /// Stat modifiers, each with its sign.
    pub stats: Vec<(i32, String)>,
    text: String,
}

impl DiceExpr {
    /// The expression as written in data.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<DiceExpr> for String {
    fn from(d: DiceExpr) -> String {
        d.text
    }
}

impl TryFrom<String> for DiceExpr {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        DiceExpr::parse(&s)
    }
}

impl DiceExpr {
    /// Parse `NdM`, integers and stat names joined by `+` or `-`. At most one dice term.
    pub fn parse(s: &str) -> Result<Self, String> {
        let text = s.trim().to_string();
        if text.is_empty() {
            return Err("empty dice expression".into());
        }
        let mut out = DiceExpr { count: 0, sides: 0, flat: 0, stats: Vec::new(), text: text.clone() };
        let mut sign = 1;
        let mut term = String::new();
        let mut terms = Vec::new();
        for ch in text.chars().chain(std::iter::once('+')) {
            match ch {
                '+' | '-' => {
                    let t = term.trim().to_string();
                    if t.is_empty() {
                        if !terms.is_empty() || ch == '+' {
                            return Err(format!("dice expression `{text}` has an empty term"));
                        }
                    } else {
                        terms.push((sign, t));
                    }
                    term.clear();
                    sign = if ch == '-' { -1 } else { 1 };
                }
                c => term.push(c),
            }
        }
        if terms.len() > MAX_TERMS {
            return Err(format!("dice expression `{text}` has {} terms: at most {MAX_TERMS}", terms.len()));
        }
        for (sign, t) in terms {
            if let Some((n, m)) = t.split_once(['d', 'D']).filter(|(n, m)| {
                n.chars().all(|c| c.is_ascii_digit()) && !m.is_empty() && m.chars().all(|c| c.is_ascii_digit())
            }) {
                if out.sides != 0 || sign < 0 {
                    return Err(format!("dice expression `{text}` may have only one positive dice term"));
                }
                out.count =
                    if n.is_empty() { 1 } else { n.parse().map_err(|_| format!("bad dice count in `{text}`"))? };
                out.sides = m.parse().map_err(|_| format!("die size in `{text}` is out of range 1..={MAX_SIDES}"))?;
                if out.sides == 0 || out.sides > MAX_SIDES || out.count == 0 || out.count > MAX_DICE {
                    return Err(format!(
                        "dice term `{t}` in `{text}` is out of range: 1..={MAX_DICE} dice of 1..={MAX_SIDES} sides"
                    ));
                }
            } else if t.chars().all(|c| c.is_ascii_digit()) {
                let v = t
                    .parse::<i32>()
                    .ok()
                    .filter(|v| *v <= MAX_FLAT)
                    .ok_or_else(|| format!("number `{t}` in `{text}` is out of range 0..={MAX_FLAT}"))?;
                out.flat += sign * v;
                if out.flat.abs() > MAX_FLAT {
                    return Err(format!("the numbers in `{text}` add up beyond ±{MAX_FLAT}"));
                }
            } else if t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && t.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            {
                out.stats.push((sign, t));
            } else {
                return Err(format!("`{t}` in dice expression `{text}` is neither NdM, a number nor a stat name"));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_dice_stats_and_flat() {
        let d = DiceExpr::parse("2d6+STR-1").unwrap();
        assert_eq!((d.count, d.sides, d.flat), (2, 6, -1));
        assert_eq!(d.stats, vec![(1, "STR".to_string())]);
        assert!(DiceExpr::parse("1d0").is_err());
        assert!(DiceExpr::parse("1d6+").is_err());
        assert!(DiceExpr::parse("1d6+2d4").is_err());
    }

    #[test]
    fn forced_results_come_first_then_seeded_rng() {
        let mut a = Dice::seeded(7);
        let mut b = Dice::seeded(7);
        a.force([20, 1]);
        assert_eq!(a.roll(20), 20);
        assert_eq!(a.roll(20), 1);
        let xs: Vec<i32> = (0..20).map(|_| a.roll(20)).collect();
        let ys: Vec<i32> = (0..20).map(|_| b.roll(20)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|v| (1..=20).contains(v)));
    }
}
