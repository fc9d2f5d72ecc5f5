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

    /// Whether the engine would take this GM input now, checked before anything changes (the
    /// dry run the game's GM window shows, and the first half of [`Rules::gm`]).
    pub(crate) fn check_gm(&self, g: &GmInput) -> Result<(), Rejection> {
        let gm_now = !matches!(g, GmInput::Opening { .. });
        self.admit(false, gm_now)?;
        match g {
            GmInput::Opening { eligible } => self.check_opening(eligible).map(|_| ()),
            GmInput::Interrupt { who }
            | GmInput::HitBy { who, .. }
            | GmInput::PermanentWound { who }
            | GmInput::SetAware { who, .. } => self.check_gm_target(*who),
            GmInput::ApplyCondition { who, condition, rounds, value } => {
                self.check_gm_target(*who)?;
                if self.ruleset.condition(condition).is_none() {
                    return Err(Rejection::UnknownCondition(condition.clone()));
                }
                if *condition == self.ruleset.defeated_condition && rounds.is_some() {
                    return Err(Rejection::InvalidChoice(format!(
                        "{condition} puts a creature out of the fight for good: it takes no rounds"
                    )));
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
                Ok(())
            }
            GmInput::AreaAssist { who } => {
                self.check_gm_target(*who)?;
                if self.c(*who).assists.0.is_empty() {
                    return Err(Rejection::InvalidTarget(format!("{} has no Assist waiting", self.name_of(*who))));
                }
                Ok(())
            }
        }
    }

    /// Game-master inputs: [`Rules::check_gm`], then the change.
    pub(super) fn gm(&mut self, g: &GmInput) -> Result<(), Rejection> {
        self.check_gm(g)?;
        match g {
            GmInput::Opening { eligible } => {
                let list = self.check_opening(eligible)?;
                self.open_opening(list);
            }
            GmInput::Interrupt { who } => self.disrupt(*who),
            GmInput::HitBy { who, kind } => {
                self.lose_held_on_hit(*who, *kind);
                self.interrupt_on_hit(*who);
            }
            GmInput::ApplyCondition { who, condition, rounds, value } => {
                let lasts = rounds.map(super::super::ruleset::Lasts::Rounds);
                self.apply_condition(*who, condition, NewCondition { lasts, value: *value, creator: None });
            }
            GmInput::PermanentWound { who } => {
                self.emit(CombatEvent::PermanentWound { who: *who });
                self.end_conditions_on(*who, super::super::ruleset::EndTrigger::PermanentWound, None);
            }
            GmInput::SetAware { who, aware } => self.set_aware(*who, *aware),
            GmInput::AreaAssist { who } => {
                for a in self.cm(*who).assists.0.iter_mut() {
                    a.area = true;
                }
                self.emit(CombatEvent::AssistMadeArea { who: *who });
            }
        }
        Ok(())
    }
}
