//! The GM's commands (`GmInput`): conditions, disruption, wounds, hits from outside, awareness,
//! area assists, openings.

use super::super::combat::NewCondition;
use super::super::command::{GmInput, Rejection};
use super::super::components::Cid;
use super::super::log::CombatEvent;
use super::super::state::Rules;

impl<'w> Rules<'w, '_> {
    /// A GM input aimed at a creature: it must exist and still be in the fight.
    pub(super) fn check_gm_target(&self, who: Cid) -> Result<(), Rejection> {
        self.check_exists(who)?;
        if self.is_down(who) {
            return Err(Rejection::InvalidTarget(format!("{} is down", self.name_of(who))));
        }
        Ok(())
    }

    /// Game-master inputs.
    pub(super) fn gm(&mut self, g: &GmInput) -> Result<(), Rejection> {
        match g {
            GmInput::Opening { eligible } => self.open_opening(eligible),
            GmInput::Interrupt { who } => {
                self.check_gm_target(*who)?;
                self.disrupt(*who);
                Ok(())
            }
            GmInput::HitBy { who, kind } => {
                self.check_gm_target(*who)?;
                self.lose_held_on_hit(*who, *kind);
                self.interrupt_on_hit(*who);
                Ok(())
            }
            GmInput::ApplyCondition { who, condition, rounds, value } => {
                self.check_gm_target(*who)?;
                if self.ruleset.condition(condition).is_none() {
                    return Err(Rejection::UnknownCondition(condition.clone()));
                }
                let limits = super::super::limits::MAX_VALUE;
                if value.is_some_and(|v| !(-limits..=limits).contains(&v))
                    || rounds.is_some_and(|r| r > super::super::limits::MAX_ROUNDS)
                {
                    return Err(Rejection::InvalidChoice(format!(
                        "a condition's value must be within ±{limits} and its rounds at most {}",
                        super::super::limits::MAX_ROUNDS
                    )));
                }
                let lasts = rounds.map(super::super::ruleset::Lasts::Rounds);
                self.apply_condition(*who, condition, NewCondition { lasts, value: *value, creator: None });
                Ok(())
            }
            GmInput::PermanentWound { who } => {
                self.check_gm_target(*who)?;
                self.emit(CombatEvent::PermanentWound { who: *who });
                self.end_conditions_on(*who, super::super::ruleset::EndTrigger::PermanentWound, None);
                Ok(())
            }
            GmInput::SetAware { who, aware } => {
                self.check_gm_target(*who)?;
                self.set_aware(*who, *aware);
                Ok(())
            }
            GmInput::AreaAssist { who } => {
                self.check_gm_target(*who)?;
                if self.c(*who).assists.0.is_empty() {
                    return Err(Rejection::InvalidTarget(format!("{} has no Assist waiting", self.name_of(*who))));
                }
                for a in self.cm(*who).assists.0.iter_mut() {
                    a.area = true;
                }
                self.emit(CombatEvent::AssistMadeArea { who: *who });
                Ok(())
            }
        }
    }
}
