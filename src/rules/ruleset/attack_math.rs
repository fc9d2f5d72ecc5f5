//! How a ruleset rolls attacks and saves beyond "total against AC" (issue 50, RULES.md §5.6):
//! degrees of success (G-P2-24), critical hits (G-P2-25, G-P1-18), natural 20 and 1 (G-P1-17),
//! the multiple attack penalty (G-P2-23) and off-guard from flanking (G-P2-27). Every part is
//! data and optional: a ruleset without `attack_math` rolls exactly as before. The rules that
//! read it are in [`crate::rules::odds`]. Re-exported from [`super`].

use serde::{Deserialize, Serialize};

/// A ruleset's attack math (`attack_math:`); the default is the plain roll against AC.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackMath {
    /// Four degrees of success for attack rolls (G-P2-24); none: hit or miss.
    #[serde(default)]
    pub degrees: Option<DegreeRule>,
    /// What a critical hit is and does (G-P2-25, G-P1-18).
    #[serde(default)]
    pub critical: CriticalRule,
    /// A natural 20 always hits and a natural 1 always misses (G-P1-17).
    #[serde(default)]
    pub natural_hit_miss: bool,
    /// The multiple attack penalty (G-P2-23).
    #[serde(default)]
    pub multiple_attack_penalty: Option<MultipleAttackPenalty>,
    /// A flanked creature counts as having this condition against melee attacks (G-P2-27: pf2e
    /// `off_guard`, AC −2 circumstance); its modifiers stack by the ruleset's `modifier_stacking`.
    #[serde(default)]
    pub off_guard_when_flanked: Option<String>,
}

impl AttackMath {
    /// Whether it is the plain roll against AC (the default: nothing is serialized, so the
    /// hashes of older rulesets do not change).
    pub fn is_plain(&self) -> bool {
        *self == Self::default()
    }
}

/// Four degrees of success (G-P2-24): at or above DC + `margin` a critical success, at or above
/// the DC a success, at or below DC − `margin` a critical failure, otherwise a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DegreeRule {
    /// How far past the DC a critical lies (pf2e: 10), 1..=100.
    #[serde(default = "ten", deserialize_with = "super::super::limits::margin")]
    pub margin: i32,
    /// A natural 20 moves the result one degree better, a natural 1 one degree worse.
    #[serde(default = "yes")]
    pub natural_steps: bool,
}

impl Default for DegreeRule {
    fn default() -> Self {
        Self { margin: 10, natural_steps: true }
    }
}

fn ten() -> i32 {
    10
}

fn yes() -> bool {
    true
}

/// What a critical hit is, and what it does to damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum CriticalRule {
    /// No critical hits (G-X-06: homebrew-d20, segments).
    #[default]
    None,
    /// A critical success by the degrees (`degrees` must be set) multiplies the damage total
    /// (G-P2-25: pf2e doubles it). An attack's own `critical.multiplier` replaces this one.
    OnCriticalSuccess {
        /// The multiplier, 2..=10.
        #[serde(deserialize_with = "super::super::limits::multiplier")]
        multiplier: u8,
    },
    /// A hit whose natural roll is `threat` or more threatens; a confirmation roll with the
    /// same bonus against the same AC makes it a critical hit, whose damage expression is
    /// rolled `multiplier` times (G-P1-18). An attack's own `critical` replaces either number.
    Confirm {
        /// The lowest natural roll that threatens (20: only a natural 20), 2..=20.
        #[serde(deserialize_with = "super::super::limits::threat")]
        threat: u8,
        /// The multiplier, 2..=10.
        #[serde(deserialize_with = "super::super::limits::multiplier")]
        multiplier: u8,
    },
}

/// A weapon's own critical numbers (`Attack(..., critical: Some((threat: 19, multiplier: 3)))`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponCritical {
    /// The lowest natural roll that threatens, 2..=20 (under `Confirm`); absent: the ruleset's.
    #[serde(default, deserialize_with = "super::super::limits::threat_opt")]
    pub threat: Option<u8>,
    /// The damage multiplier, 2..=10; absent: the ruleset's.
    #[serde(default, deserialize_with = "super::super::limits::multiplier_opt")]
    pub multiplier: Option<u8>,
}

/// The multiple attack penalty (G-P2-23).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultipleAttackPenalty {
    /// The penalty of the second attack of a turn, then of the third and later (pf2e: −5, −10);
    /// the last step repeats. 1..=8 steps, each −100..=0.
    #[serde(deserialize_with = "super::super::limits::penalties")]
    pub penalties: Vec<i32>,
    /// The same for an ability with `agile_tag` (pf2e: −4, −8); empty: `penalties`.
    #[serde(default, deserialize_with = "super::super::limits::penalties")]
    pub agile: Vec<i32>,
    /// The tag of the abilities that count and take the penalty (pf2e: the attack trait).
    pub trait_tag: String,
    /// The tag of agile abilities.
    #[serde(default)]
    pub agile_tag: Option<String>,
}
