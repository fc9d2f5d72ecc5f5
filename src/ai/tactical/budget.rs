//! The decider's budget: what is left to spend this turn under the ruleset's budget strategy, and
//! what an ability costs from it.

use crate::rules::query;
use crate::rules::ruleset::{AbilityDef, ActionBudget, ActionType, Timing};

use super::read::{NO_CONDITIONS, View};

/// What is left to spend this turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Budget {
    /// A pool of actions (and restricted bonus actions).
    Pool { regular: u8, restricted: u8 },
    /// Typed slots (G-P1-01).
    Typed { standard: u8, moves: u8, swift: u8, moved: bool, stepped: bool, one_of: bool },
    /// One timed action.
    Timed { left: bool },
}

impl Budget {
    /// The budget as one number, different for different budgets (for comparing memo keys).
    pub(super) fn key(&self) -> u64 {
        match *self {
            Budget::Pool { regular, restricted } => u64::from(regular) << 8 | u64::from(restricted) << 16,
            Budget::Typed { standard, moves, swift, moved, stepped, one_of } => {
                1 | u64::from(standard) << 8
                    // Equivalent mutant (issue 26, docs/testing.md): `|` → `^`: the fields' bits do not overlap.
                    | u64::from(moves) << 16
                    | u64::from(swift) << 24
                    | u64::from(moved) << 32
                    | u64::from(stepped) << 33
                    | u64::from(one_of) << 34
            }
            Budget::Timed { left } => 2 | u64::from(left) << 8,
        }
    }
}

impl<'a> View<'a> {
    pub(super) fn budget(&self) -> Budget {
        let p = self.pool;
        match self.rs.budget {
            ActionBudget::TypedSlots { .. } => Budget::Typed {
                standard: p.standard,
                moves: p.moves,
                swift: p.swift,
                moved: p.moved,
                stepped: p.stepped,
                one_of: p.one_of,
            },
            ActionBudget::OneTimedActionPerTurn => Budget::Timed { left: p.spent == 0 },
            _ => Budget::Pool { regular: p.regular(), restricted: p.restricted_left },
        }
    }

    /// Time until the next turn if `d` is used now (segments).
    fn time_of(&self, d: &AbilityDef) -> f32 {
        if d.timing == Timing::Free {
            return 0.0;
        }
        let rt = query::recovery_time(self.rs, self.me().conds.unwrap_or(&NO_CONDITIONS), d.recovery.unwrap_or(1));
        (rt + d.cast_time.unwrap_or(0) + d.focus_time.unwrap_or(0)) as f32
    }

    /// The cost of `d` in plan units and the budget after it, or None if it cannot be paid.
    pub(super) fn spend(&self, b: Budget, d: &AbilityDef) -> Option<(f32, Budget)> {
        match b {
            Budget::Pool { regular, restricted } => {
                if d.timing == Timing::Free || d.cost == 0 {
                    return Some((0.0, b));
                }
                let rto = &self.pool.restricted_to;
                let r = if rto.is_empty() || rto.contains(&d.id) { restricted } else { 0 };
                if d.cost > regular.saturating_add(r) {
                    return None;
                }
                let from_r = r.min(d.cost);
                Some((
                    f32::from(d.cost),
                    Budget::Pool { regular: regular - (d.cost - from_r), restricted: restricted - from_r },
                ))
            }
            Budget::Typed { mut standard, mut moves, mut swift, mut moved, mut stepped, one_of } => {
                let movement = d.effect.excludes_five_foot_step();
                if movement && stepped {
                    return None;
                }
                let cost = match d.action {
                    ActionType::Standard if standard > 0 => {
                        standard -= 1;
                        1.0
                    }
                    ActionType::Move if moves > 0 || standard > 0 => {
                        if moves > 0 {
                            moves -= 1
                        } else {
                            standard -= 1
                        }
                        1.0
                    }
                    ActionType::FullRound if !one_of && standard > 0 && moves > 0 && !moved => {
                        standard = 0;
                        moves = 0;
                        2.0
                    }
                    ActionType::Swift | ActionType::Immediate if swift > 0 => {
                        swift -= 1;
                        0.3
                    }
                    ActionType::Free => 0.1,
                    ActionType::FiveFootStep if !one_of && !moved && !stepped => {
                        stepped = true;
                        0.2
                    }
                    _ => return None,
                };
                if one_of && matches!(d.action, ActionType::Standard | ActionType::Move) {
                    standard = 0;
                    moves = 0;
                }
                moved |= movement;
                Some((cost, Budget::Typed { standard, moves, swift, moved, stepped, one_of }))
            }
            Budget::Timed { left } => {
                if d.timing == Timing::Free {
                    return Some((0.0, b));
                }
                left.then(|| (self.time_of(d), Budget::Timed { left: false }))
            }
        }
    }
}

/// Found by cargo-mutants (issue 26: the AI area's sample).
#[cfg(test)]
mod tests {
    use super::*;

    /// Two creatures three squares apart under a shipped ruleset, both knowing `abilities`.
    fn pair(ruleset: &str, abilities: &[&str]) -> crate::rules::driver::Combat {
        use crate::rules::components::InitiativeSetup;
        use crate::rules::setup::CombatantSpec;
        let spec = |name: &str, at: (i32, i32)| CombatantSpec {
            name: name.into(),
            side: name.into(),
            at,
            hp: 20,
            abilities: abilities.iter().map(|a| a.to_string()).collect(),
            initiative: InitiativeSetup::Total(10),
            ..Default::default()
        };
        crate::rules::driver::Combat::new(
            super::super::fixture::ruleset(ruleset),
            1,
            &[spec("a", (0, 0)), spec("b", (3, 0))],
        )
        .expect("valid set-up")
    }

    #[test]
    fn different_budgets_have_different_keys() {
        let pool = |regular, restricted| Budget::Pool { regular, restricted };
        let typed = |standard, moves, swift, moved, stepped, one_of| Budget::Typed {
            standard,
            moves,
            swift,
            moved,
            stepped,
            one_of,
        };
        let all = [
            pool(0, 0),
            pool(1, 0),
            pool(0, 1),
            pool(3, 1),
            typed(0, 0, 0, false, false, false),
            typed(1, 0, 0, false, false, false),
            typed(0, 1, 0, false, false, false),
            typed(0, 0, 1, false, false, false),
            typed(0, 0, 0, true, false, false),
            typed(0, 0, 0, false, true, false),
            typed(0, 0, 0, false, false, true),
            Budget::Timed { left: true },
            Budget::Timed { left: false },
        ];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.key(), b.key(), "{a:?} and {b:?}");
            }
        }
    }

    #[test]
    fn a_timed_action_takes_its_recovery_cast_and_focus_time() {
        use crate::rules::components::Cid;
        let c = pair("segments", &["magic_missile", "mind_spike"]);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        // Magic Missile: recovery 4 + cast 2; Mind Spike: recovery 3 + focus 2.
        assert_eq!(v.time_of(v.rs.ability("magic_missile").unwrap()), 6.0);
        assert_eq!(v.time_of(v.rs.ability("mind_spike").unwrap()), 5.0);
    }

    /// pf1e: a five-foot step is not taken after moving, after another step, or in a turn of
    /// one action (issue 26: `!moved && !stepped` as `||` survived).
    #[test]
    fn a_five_foot_step_needs_a_turn_without_movement() {
        use crate::rules::components::Cid;
        let c = pair("pf1e", &[]);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let step = v.rs.abilities.iter().find(|d| d.action == ActionType::FiveFootStep).expect("pf1e has one");
        let typed = |moved, stepped, one_of| Budget::Typed { standard: 1, moves: 1, swift: 1, moved, stepped, one_of };
        assert!(v.spend(typed(false, false, false), step).is_some());
        assert!(v.spend(typed(true, false, false), step).is_none(), "after moving");
        assert!(v.spend(typed(false, true, false), step).is_none(), "after a step");
        assert!(v.spend(typed(false, false, true), step).is_none(), "in a turn of one action");
    }
}
