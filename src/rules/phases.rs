//! Start- and end-of-turn steps: pf2e Step 1 (P2-04..P2-13) and Step 3 (P2-20..P2-26), run as
//! data-listed steps. Each step is logged as its own event before its effects, so a player can see
//! why something happened.

use super::command::Decider;
use super::components::{Cid, ConditionState};
use super::dice::DieRoll;
use super::log::{CombatEvent, EndReason, Via};
use super::ruleset::{AbilityTrigger, ActionBudget, Lasts, Timing, TurnStep};
use super::state::{DecisionKind, Rules, Work};

impl Rules<'_, '_> {
    /// Run one step of `who`'s turn.
    pub(crate) fn run_step(&mut self, who: Cid, step: TurnStep) {
        if self.is_down(who) {
            return;
        }
        self.emit(CombatEvent::TurnStepBegan { who, step });
        match step {
            TurnStep::TickOwnEffects => self.tick_own_effects(who),
            TurnStep::TurnBeginsTrigger => self.offer_triggered(who, step, AbilityTrigger::TurnBegins),
            TurnStep::RecoveryCheck => self.recovery_checks(who),
            TurnStep::StartOther => self.lapse_held(who),
            TurnStep::Regain => self.regain(who, None),
            TurnStep::EndUntilEndOfTurn => self.end_until_end_of_turn(who),
            TurnStep::TickOwnerTurns => self.tick_owner_turns(who),
            TurnStep::PersistentDamage => self.persistent_damage(who),
            TurnStep::PersistentFlatChecks => self.persistent_flat_checks(who),
            TurnStep::AfflictionSaves => self.affliction_saves(who),
            TurnStep::DecrementValued => self.decrement_valued(who),
            TurnStep::TurnEndsTrigger => self.offer_triggered(who, step, AbilityTrigger::TurnEnds),
            TurnStep::EndOther => {}
        }
    }

    fn conditions_of(&self, who: Cid) -> Vec<(String, ConditionState)> {
        self.conds(who).0.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// P2-05, G-P2-18: every effect you created lasting N rounds loses one; at 0 it ends.
    fn tick_own_effects(&mut self, who: Cid) {
        let mut created = self.c(who).created.0.clone();
        // Effects on yourself with no recorded creator tick here too.
        for (id, st) in self.conditions_of(who) {
            if st.creator.is_none() && matches!(st.lasts, Some(Lasts::Rounds(_))) {
                created.push((who, id));
            }
        }
        for (owner, id) in created {
            let mine = self.conds(owner).0.get(&id).is_some_and(|st| st.creator.is_none_or(|c| c == who));
            if mine {
                self.tick_condition(owner, &id, |l| matches!(l, Lasts::Rounds(_)));
            }
        }
    }

    /// P2-07, G-P2-04: a dying creature rolls a flat check against DC 10 + dying; four degrees.
    fn recovery_checks(&mut self, who: Cid) {
        for (id, st) in self.conditions_of(who) {
            let Some(rule) = self.ruleset.condition(&id).and_then(|d| d.recovery.clone()) else { continue };
            let dc = rule.base_dc + st.value;
            let roll = self.dice.roll(20);
            let degree = degree_of(roll, roll, dc);
            let delta = match degree {
                3 => -2,
                2 => -1,
                1 => 1,
                _ => 2,
            };
            let value = st.value.saturating_add(delta);
            let name = ["CriticalFailure", "Failure", "Success", "CriticalSuccess"][degree as usize].to_string();
            let dice = vec![DieRoll { sides: 20, value: roll, kept: true, negative: false }];
            self.emit(CombatEvent::RecoveryCheck { who, roll, dc, degree: name, value, dice });
            if value <= 0 {
                self.end_condition(who, &id, EndReason::Recovered);
            } else {
                self.set_condition_value(who, &id, value);
                if value >= rule.death_at {
                    self.die(who);
                    return;
                }
            }
        }
    }

    /// P2-09..P2-13, G-P2-07/08/15: regain actions and reactions, last in Step 1.
    pub(crate) fn regain(&mut self, who: Cid, lose_restricted_first: Option<bool>) {
        let ActionBudget::PerTurnPool { actions, reactions, cant_act_blocks_regain } = self.ruleset.budget else {
            return;
        };
        if self.cannot_act(who) && cant_act_blocks_regain {
            // P2-11: no actions and (CRB) no reaction.
            self.set_pool(who, 0, 0, vec![], 0);
            return;
        }
        let mut bonus = 0u8;
        let mut restricted_to = Vec::new();
        let mut loss = 0i32;
        let mut consumed: Vec<(String, i32)> = Vec::new();
        let conds = self.conditions_of(who);
        let overridden: Vec<String> =
            conds.iter().filter_map(|(id, _)| self.ruleset.condition(id)).flat_map(|d| d.overrides.clone()).collect();
        for (id, st) in &conds {
            let Some(d) = self.ruleset.condition(id) else { continue };
            bonus = bonus.saturating_add(d.regain_bonus);
            restricted_to.extend(d.bonus_restricted_to.iter().cloned());
            if d.regain_loses_value && !overridden.contains(id) {
                loss = loss.saturating_add(st.value);
                if d.consumed_by_lost_actions {
                    consumed.push((id.clone(), st.value));
                }
            }
        }
        if bonus > 0 && loss > 0 && lose_restricted_first.is_none() {
            // P2-13: the creature chooses which actions it loses.
            self.ask(
                Decider::Creature(who),
                DecisionKind::ActionLoss,
                Some(Work::Regain { who, lose_restricted_first: true }),
                None,
            );
            return;
        }
        let lose_restricted = lose_restricted_first.unwrap_or(true);
        let total = actions as i32 + bonus as i32;
        // A condition value below 0 (a GM input) takes nothing away: it never adds actions.
        let lost = loss.clamp(0, total);
        // Which actions go: the restricted ones first by default.
        let (mut regular, mut restricted) = (actions as i32, bonus as i32);
        let mut to_lose = lost;
        let order: [&mut i32; 2] =
            if lose_restricted { [&mut restricted, &mut regular] } else { [&mut regular, &mut restricted] };
        for pool in order {
            let take = to_lose.min(*pool);
            *pool -= take;
            to_lose -= take;
        }
        for (id, value) in consumed {
            // G-P2-07: stunned goes down by the actions it took away.
            let taken = value.clamp(0, total);
            let left = value - taken;
            if left <= 0 {
                self.end_condition(who, &id, EndReason::ActionsLost);
            } else {
                self.set_condition_value(who, &id, left);
            }
        }
        self.set_pool(who, regular as u8, restricted as u8, restricted_to, reactions);
    }

    fn set_pool(&mut self, who: Cid, regular: u8, restricted: u8, restricted_to: Vec<String>, reactions: u8) {
        {
            let mut c = self.cm(who);
            c.pool.max = regular;
            c.pool.spent = 0;
            c.pool.restricted_left = restricted;
            c.pool.restricted_to = restricted_to;
            c.pool.reactions_left = reactions;
        }
        self.emit(CombatEvent::ActionsRegained { who, actions: regular, restricted, reactions });
    }

    /// P2-06, P2-25: one free action or reaction with this trigger; asks when there is a choice.
    fn offer_triggered(&mut self, who: Cid, step: TurnStep, trigger: AbilityTrigger) {
        if self.cannot_react(who) || self.turn.delayed.contains(&who) {
            // P2-16: no reactions or free actions while unable to act.
            return;
        }
        let reactions = self.c(who).pool.reactions_left;
        let options: Vec<String> = self
            .known_abilities(who)
            .into_iter()
            .filter(|a| {
                self.ruleset.ability(a).is_some_and(|d| {
                    d.trigger == Some(trigger)
                        && (d.timing == Timing::Free || (d.timing == Timing::Reaction && reactions > 0))
                })
            })
            .collect();
        if options.is_empty() {
            return;
        }
        self.ask(Decider::Creature(who), DecisionKind::Triggered { step, options }, None, None);
    }

    /// Use a triggered ability chosen at a step: a reaction spends the reaction (G-P2-14).
    pub(crate) fn use_triggered(&mut self, who: Cid, ability: &str) -> Work {
        let reaction = self.ruleset.ability(ability).is_some_and(|d| d.timing == Timing::Reaction);
        if reaction {
            self.cm(who).pool.reactions_left -= 1;
        }
        self.emit(CombatEvent::AbilityUsed {
            who,
            ability: ability.into(),
            cost: 0,
            targets: vec![],
            via: if reaction { Via::Reaction } else { Via::Turn },
        });
        Work::Effect {
            who,
            ability: ability.into(),
            targets: vec![],
            to: None,
            mode: None,
            via: Via::Reaction,
            surprise: false,
        }
    }

    /// P2-21, G-P2-09: effects lasting until the end of your turn end, and sustained effects you
    /// created that you did not Sustain this turn end.
    fn end_until_end_of_turn(&mut self, who: Cid) {
        let step = TurnStep::EndUntilEndOfTurn;
        for (id, st) in self.conditions_of(who) {
            let beneficial = !self.ruleset.condition(&id).is_some_and(|d| d.negative);
            if st.lasts == Some(Lasts::UntilEndOfTurn) && self.resolves_now(who, step, who, &id, beneficial) {
                self.end_condition(who, &id, EndReason::Expired);
            }
        }
        for (owner, id) in self.c(who).created.0.clone() {
            let Some(st) = self.conds(owner).0.get(&id).cloned() else { continue };
            if st.lasts != Some(Lasts::Sustained) || st.creator != Some(who) {
                continue;
            }
            // The creature's own spell: it ends at a Delay (it cannot be sustained before then).
            if !self.resolves_now(who, step, owner, &id, true) {
                continue;
            }
            if st.sustained {
                if let Some(s) = self.conds_mut(owner).0.get_mut(&id) {
                    s.sustained = false;
                }
            } else {
                self.end_condition(owner, &id, EndReason::NotSustained);
            }
        }
    }

    /// G-X-04: whether an end-of-turn effect (`step` on condition `id` of `on`) resolves now. At a
    /// Delay the negative effects happen (persistent damage with its flat check, affliction saves)
    /// and beneficial effects that would end during the turn end, and each is noted. The end of
    /// the turn resumed after the Delay resolves the rest (value decreases, owner-turn ticks,
    /// negative until-end-of-turn effects, the P2-25 trigger, persistent damage and afflictions
    /// gained after the Delay) and skips what was noted: each effect resolves at most once per
    /// turn. A Delay that lapses resolves nothing more for that turn.
    fn resolves_now(&mut self, who: Cid, step: TurnStep, on: Cid, id: &str, beneficial: bool) -> bool {
        if self.turn.delayed.contains(&who) {
            // Only a Delay runs end-of-turn steps for a delaying creature.
            let now = match step {
                TurnStep::EndUntilEndOfTurn => beneficial,
                s => super::turns::DELAY_STEPS.contains(&s),
            };
            if now {
                self.turn.delay_resolved.push((who, step, on, id.to_string()));
            }
            return now;
        }
        let noted = |(w, s, o, c): &(Cid, TurnStep, Cid, String)| *w == who && *s == step && *o == on && c == id;
        !(self.turn.resuming && self.turn.delay_resolved.iter().any(noted))
    }

    /// P2-22: effects counted in your turns lose one; at 0 they end.
    fn tick_owner_turns(&mut self, who: Cid) {
        for (id, _) in self.conditions_of(who) {
            self.tick_condition(who, &id, |l| matches!(l, Lasts::OwnerTurns(_)));
        }
    }

    /// P2-23: take persistent damage.
    fn persistent_damage(&mut self, who: Cid) {
        for (id, _) in self.conditions_of(who) {
            let Some(dmg) = self.ruleset.condition(&id).and_then(|d| d.persistent_damage.clone()) else { continue };
            // G-X-02: damage at 0 HP raises dying; dead, the remaining items are skipped, and with
            // no one left standing on its side the combat ended at once.
            if self.is_down(who) || self.turn.ended {
                return;
            }
            if !self.resolves_now(who, TurnStep::PersistentDamage, who, &id, false) {
                continue;
            }
            let mut dice = Vec::new();
            let amount = self.dice.roll_logged(&dmg, |_| 0, &mut dice).max(0);
            self.take_damage_rolled(who, amount, dice);
        }
    }

    /// P2-23, G-P2-03: after the damage, a flat check ends each persistent damage on a success.
    fn persistent_flat_checks(&mut self, who: Cid) {
        for (id, _) in self.conditions_of(who) {
            let Some(dc) =
                self.ruleset.condition(&id).filter(|d| d.persistent_damage.is_some()).and_then(|d| d.flat_check_dc)
            else {
                continue;
            };
            if !self.resolves_now(who, TurnStep::PersistentFlatChecks, who, &id, false) {
                continue;
            }
            let roll = self.dice.roll(20);
            let success = roll >= dc;
            let dice = vec![DieRoll { sides: 20, value: roll, kept: true, negative: false }];
            self.emit(CombatEvent::FlatCheck { who, condition: id.clone(), roll, dc, success, dice });
            if success {
                self.end_condition(who, &id, EndReason::FlatCheckPassed);
            }
        }
    }

    /// P2-23: a saving throw against each ongoing affliction: success lowers its stage, failure
    /// raises it; at 0 it ends.
    fn affliction_saves(&mut self, who: Cid) {
        for (id, st) in self.conditions_of(who) {
            let Some(save) = self.ruleset.condition(&id).and_then(|d| d.affliction.clone()) else { continue };
            if !self.resolves_now(who, TurnStep::AfflictionSaves, who, &id, false) {
                continue;
            }
            let ok = self.saving_throw(who, &save.stat, save.dc);
            let value = st.value.saturating_add(if ok { -1 } else { 1 });
            if value <= 0 {
                self.end_condition(who, &id, EndReason::SaveSucceeded);
            } else {
                self.set_condition_value(who, &id, value);
            }
        }
    }

    /// P2-24, G-P2-06: valued conditions such as frightened go down, after all of P2-23.
    fn decrement_valued(&mut self, who: Cid) {
        for (id, st) in self.conditions_of(who) {
            let dec = self.ruleset.condition(&id).map_or(0, |d| d.decrement_at_end_of_turn);
            if dec == 0 {
                continue;
            }
            let value = st.value.saturating_sub(dec);
            if value <= 0 {
                self.end_condition(who, &id, EndReason::WoreOff);
            } else {
                self.set_condition_value(who, &id, value);
            }
        }
    }

    /// Change a condition's value and log it.
    pub(crate) fn set_condition_value(&mut self, who: Cid, id: &str, value: i32) {
        if let Some(st) = self.conds_mut(who).0.get_mut(id) {
            st.value = value;
        }
        self.emit(CombatEvent::ConditionValueChanged { who, condition: id.into(), value });
    }
}

/// Degree of success (G-P2-04): 3 critical success, 2 success, 1 failure, 0 critical failure;
/// a natural 20 moves it up one step and a natural 1 down one ([`super::odds::degree`]).
pub(crate) fn degree_of(die: i32, total: i32, dc: i32) -> u8 {
    super::odds::degree(super::ruleset::DegreeRule::default(), die, total, dc) as u8
}
