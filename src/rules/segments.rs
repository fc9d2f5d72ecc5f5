//! The segment clock's actions (docs/rules.md#segments): recovery times (SG-05/06, G-SG-05), Cast and Focus
//! Actions with their components and concentration (SG-08..18, SG-26..29), holding a cast
//! (SG-19..25), the Recovery Action (SG-30..33) and the forecast (who acts next, and when one
//! would act after a given action).

use super::command::{Decider, Rejection};
use super::components::Cid;
use super::log::{CombatEvent, EndReason};
use super::ruleset::{AbilityDef, CastComponent, DisruptionPolicy, Effect};
use super::state::{DecisionKind, Rules, Work};
use super::timeline::TurnKey;

/// One scheduled turn as a forecast shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForecastTurn {
    /// Who.
    pub who: Cid,
    /// Round.
    pub round: u32,
    /// Segment (0 in a fixed cycle).
    pub segment: u32,
}

impl Rules<'_, '_> {
    /// A recovery time after every global modifier (Slowed, Haste, injury): never below 1
    /// (G-SG-05, SG-31).
    pub(crate) fn effective_rt(&self, who: Cid, base: u32) -> u32 {
        super::query::recovery_time(&self.ruleset, self.conds(who), base)
    }

    /// Whether the creature holds a completed cast.
    pub(crate) fn holding(&self, who: Cid) -> bool {
        self.c(who).casting.0.as_ref().is_some_and(|a| a.holding)
    }

    /// SG-15, G-SG-19: a caster missing a component cannot announce the power.
    pub(crate) fn check_components(&self, who: Cid, def: &AbilityDef) -> Result<(), Rejection> {
        match super::query::missing_component(&self.ruleset, def, self.conds(who), self.c(who).items) {
            Some(missing) => Err(Rejection::MissingComponent(missing.into())),
            None => Ok(()),
        }
    }

    /// SG-21/22: while holding, only actions with a hold surcharge (and the release) are allowed.
    pub(crate) fn check_while_holding(&self, who: Cid, def: &AbilityDef) -> Result<(), Rejection> {
        if self.holding(who) && def.hold_surcharge.is_none() {
            return Err(Rejection::NotWhileHolding(def.id.clone()));
        }
        Ok(())
    }

    /// What an action taken while holding adds to the recovery owed: its RT plus the surcharge,
    /// under global modifiers; a free action (RT 0, no surcharge) adds nothing (SG-21).
    fn holding_rt(&self, who: Cid, def: &AbilityDef) -> u32 {
        match (def.recovery.unwrap_or(0), def.hold_surcharge) {
            (_, None) | (0, Some(0)) => 0,
            (base, Some(s)) => self.effective_rt(who, base + s),
        }
    }

    /// The time at which the creature's next turn would come if it took `def` now (SG-05,
    /// SG-11/14, SG-23, SG-26): the forecast's "what if".
    ///
    /// In a fixed cycle of rounds (homebrew-d20, pf2e, pf1e) every ability leaves the creature
    /// its own slot in the next round (HB-05, P1-15, G-P2-02): the round after this one.
    pub(crate) fn next_turn_if(&self, who: Cid, def: &AbilityDef) -> u32 {
        let now = self.timeline.now;
        if !matches!(self.timeline.model, Some(super::ruleset::TurnModel::RecoveryTime { .. })) {
            return now.saturating_add(1);
        }
        let rt = self.effective_rt(who, def.recovery.unwrap_or(0));
        if self.holding(who) {
            let accrued = self.c(who).casting.0.as_ref().map_or(0, |a| a.accrued);
            let extra = self.holding_rt(who, def);
            let held =
                self.c(who).casting.0.as_ref().and_then(|a| self.ruleset.ability(&a.ability)).and_then(|d| d.recovery);
            return now + self.effective_rt(who, held.unwrap_or(0)) + accrued + extra;
        }
        let delay = def.cast_time.or(def.focus_time).unwrap_or(0);
        now + delay + rt
    }

    /// The next `k` turns as they stand now (casts resolving are not turns).
    ///
    /// On a segment clock these are the turns on the timeline, one per creature: later ones
    /// depend on actions not yet chosen. In a fixed cycle of rounds the order repeats (HB-05,
    /// P1-15, G-P2-02), so the forecast runs on into later rounds: the surprise-round turns still
    /// to come (round 0), the turns left this round, the active creature's slot next round, and
    /// the same slots round after round. Delaying creatures and creatures that are down have no
    /// scheduled turn and are left out.
    pub(crate) fn forecast(&self, k: usize) -> Vec<ForecastTurn> {
        if !matches!(self.timeline.model, Some(super::ruleset::TurnModel::RecoveryTime { .. })) {
            return self.forecast_rounds(k);
        }
        self.timeline
            .upcoming(self.timeline.len())
            .into_iter()
            .filter(|key| self.c(key.who).casting.0.as_ref().is_none_or(|a| a.effect_at != Some(key.time)))
            .take(k)
            .map(|key| {
                let (round, segment) = self.timeline.round_and_segment(key.time);
                ForecastTurn { who: key.who, round, segment }
            })
            .collect()
    }

    fn forecast_rounds(&self, k: usize) -> Vec<ForecastTurn> {
        let mut out: Vec<ForecastTurn> = Vec::with_capacity(k);
        if self.turn.surprise_round {
            for key in self.turn.surprise_slots.iter().take(k) {
                out.push(ForecastTurn { who: key.who, round: 0, segment: 0 });
            }
        }
        let mut queue: std::collections::BTreeSet<TurnKey> =
            self.timeline.upcoming(self.timeline.len()).into_iter().collect();
        if let Some(a) = self.turn.active
            && !self.turn.surprise_round
            && self.timeline.scheduled(a).is_none()
            && !self.is_down(a)
            && !self.turn.delayed.contains(&a)
            && !self.turn.off_schedule.contains(&a)
        {
            queue.insert(TurnKey { time: self.timeline.now.saturating_add(1), rank: self.rank(a), who: a });
        }
        while out.len() < k {
            let Some(key) = queue.pop_first() else { break };
            out.push(ForecastTurn { who: key.who, round: key.time, segment: 0 });
            if !self.is_down(key.who) && key.time < u32::MAX {
                queue.insert(TurnKey { time: key.time + 1, ..key });
            }
        }
        out
    }

    /// SG-10/11, SG-26: announce a Cast or Focus Action; the effect comes `CT`/`FT` segments later
    /// and the caster has no turn in between (SG-16).
    pub(crate) fn announce_cast(
        &mut self,
        who: Cid,
        def: &AbilityDef,
        targets: Vec<Cid>,
        to: Option<super::components::GridPos>,
    ) {
        let delay = def.cast_time.or(def.focus_time).unwrap_or(0);
        let effect_at = self.timeline.now + delay;
        self.cm(who).casting.0 = Some(super::components::Activity {
            ability: def.id.clone(),
            targets,
            dest: to,
            mode: None,
            cost: 0,
            paid: 0,
            effect_at: Some(effect_at),
            holding: false,
            accrued: 0,
        });
        // The turn ends now; the caster's place on the timeline is the effect's segment.
        self.turn.last_recovery = Some(delay);
        let (round, segment) = self.timeline.round_and_segment(effect_at);
        self.emit(CombatEvent::CastAnnounced { who, ability: def.id.clone(), round, segment });
    }

    /// The timeline reached a cast's effect segment (G-SG-13: at the caster's initiative place):
    /// a Focus resolves; a Cast may be held or released (SG-19).
    pub(crate) fn complete_cast(&mut self, who: Cid) {
        let Some(act) = self.c(who).casting.0.clone() else { return };
        let Some(def) = self.ruleset.ability(&act.ability).cloned() else { return };
        self.emit(CombatEvent::ActivityCompleted { who, ability: act.ability.clone() });
        if def.cast_time.is_some() {
            let kind = DecisionKind::CastComplete { ability: act.ability };
            self.ask(Decider::Creature(who), kind, Some(Work::CastDone { who, hold: false }), None);
        } else {
            self.release(who);
        }
    }

    /// SG-19: hold a completed cast. The caster keeps acting in this segment (SG-42).
    pub(crate) fn hold_cast(&mut self, who: Cid) {
        let ability = {
            let mut c = self.cm(who);
            let Some(act) = c.casting.0.as_mut() else { return };
            act.holding = true;
            c.pool.spent = 0;
            act.ability.clone()
        };
        self.turn.active = Some(who);
        self.turn.end_requested = false;
        self.turn.ending = false;
        self.emit(CombatEvent::CastHeld { who, ability });
    }

    /// SG-21/23: an action taken while holding adds its recovery time and the surcharge to what
    /// is owed; the clock does not move (SG-42).
    pub(crate) fn accrue_while_holding(&mut self, who: Cid, def: &AbilityDef) {
        let rt = self.holding_rt(who, def);
        let total = {
            let mut c = self.cm(who);
            let Some(act) = c.casting.0.as_mut() else { return };
            act.accrued += rt;
            act.accrued
        };
        self.emit(CombatEvent::HoldAccrued { who, rt, total });
    }

    /// SG-13/14, SG-20, SG-23: the power's effect occurs now; M components are consumed; the next
    /// turn comes after the power's recovery time plus everything owed while holding.
    pub(crate) fn release(&mut self, who: Cid) {
        let Some(act) = self.cm(who).casting.0.take() else { return };
        let Some(def) = self.ruleset.ability(&act.ability).cloned() else { return };
        self.consume_materials(who, &def);
        let now = self.timeline.now;
        let owed = self.effective_rt(who, def.recovery.unwrap_or(0)) + act.accrued;
        let next = now + owed;
        let (next_round, next_segment) = self.timeline.round_and_segment(next);
        self.emit(CombatEvent::CastReleased { who, ability: act.ability.clone(), next_round, next_segment });
        self.reschedule_caster(who, owed);
        self.work.0.push_back(act.effect(who));
    }

    /// Put the caster back on the timeline `after` segments from now: at the end of its holding
    /// turn if it is active, else straight away.
    fn reschedule_caster(&mut self, who: Cid, after: u32) {
        self.turn.off_schedule.remove(&who);
        if self.turn.active == Some(who) {
            self.turn.last_recovery = Some(after);
            self.turn.end_requested = true;
        } else {
            let rank = self.rank(who);
            let time = self.timeline.now + after.max(1);
            self.timeline.schedule(TurnKey { time, rank, who });
        }
    }

    fn consume_materials(&mut self, who: Cid, def: &AbilityDef) {
        for comp in &def.components {
            if let CastComponent::Material(item) = comp {
                if let Some(n) = self.cm(who).items.0.get_mut(item) {
                    *n = n.saturating_sub(1);
                }
                self.emit(CombatEvent::ComponentConsumed { who, item: item.clone() });
            }
        }
    }

    /// SG-17, SG-25, SG-28, G-SG-07/08/14: concentration broken. A cast or focus in progress ends
    /// with no effect, nothing consumed, next turn one segment on; a held power is lost with its
    /// energy (M consumed) and the recovery owed for moves while holding still counts.
    /// Returns whether there was a cast to break.
    pub(crate) fn break_concentration(&mut self, who: Cid) -> bool {
        let DisruptionPolicy::Concentration { next_turn_after } = self.ruleset.disruption.clone() else { return false };
        let Some(act) = self.c(who).casting.0.clone() else { return false };
        if act.effect_at.is_none() {
            return false;
        }
        self.cm(who).casting.0 = None;
        let after = if act.holding {
            if let Some(def) = self.ruleset.ability(&act.ability).cloned() {
                self.consume_materials(who, &def);
            }
            next_turn_after.max(act.accrued)
        } else {
            if let Some(k) = self.timeline.scheduled(who) {
                self.timeline.unschedule(&k);
            }
            next_turn_after
        };
        let next = self.timeline.now + after.max(1);
        let (next_round, next_segment) = self.timeline.round_and_segment(next);
        self.emit(CombatEvent::ConcentrationBroken { who, ability: act.ability, next_round, next_segment });
        self.reschedule_caster(who, after);
        true
    }

    /// SG-30..33: the Recovery Action saves against one condition a save can end: the named one,
    /// or the first in order.
    pub(crate) fn recovery_save(&mut self, who: Cid, named: Option<&str>) {
        let ends: Vec<(String, super::ruleset::SaveDef)> = self
            .conds(who)
            .0
            .keys()
            .filter_map(|id| self.ruleset.condition(id).and_then(|d| d.save_ends.clone()).map(|s| (id.clone(), s)))
            .collect();
        let pick = match named {
            Some(n) => ends.into_iter().find(|(id, _)| id == n),
            None => ends.into_iter().next(),
        };
        let Some((id, save)) = pick else { return };
        if self.saving_throw(who, &save.stat, save.dc) {
            self.end_condition(who, &id, EndReason::SaveSucceeded);
        }
    }

    /// Whether a prevented creature still has something to do on its turn: a Recovery Action
    /// against an effect a save can end (SG-32, G-SG-15).
    pub(crate) fn can_recover(&self, who: Cid) -> bool {
        let has_se =
            self.conds(who).0.keys().any(|id| self.ruleset.condition(id).is_some_and(|d| d.save_ends.is_some()));
        has_se
            && self.known_abilities(who).iter().any(|a| {
                self.ruleset.ability(a).is_some_and(|d| d.usable_when_prevented && d.effect == Effect::RecoverySave)
            })
    }
}
