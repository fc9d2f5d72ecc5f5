//! Movement on the grid: Move (HB-18..20), Disengage (HB-16/17, G-HB-20) and the attacks of
//! opportunity a Move provokes (HB-19, HB-45..48).

use std::collections::VecDeque;

use super::command::Decider;
use super::components::{Cid, GridPos};
use super::log::{CombatEvent, NoOpportunityReason};
use super::ruleset::{AbilityTrigger, AttackKind, Effect, OpportunityRule, ReactionBudget, Timing};
use super::state::{DecisionKind, Rules, Work};

/// Whether an effect moves its user: what a held or readied action triggered by moves answers
/// (HB-50, G-P1-04, SG-38), and what G-X-01 stops.
pub fn is_move(effect: &Effect) -> bool {
    matches!(effect, Effect::Move | Effect::MoveAs { .. } | Effect::Disengage | Effect::Step | Effect::Charge { .. })
}

impl Rules<'_, '_> {
    /// A Move: every engaged enemy may make an attack of opportunity first (HB-19), except a
    /// flanked one (HB-48), one the mover disengaged from (HB-17), or one that is busy (G-HB-09).
    pub fn resolve_move(&mut self, who: Cid, to: GridPos, mode: String, provokers: Option<VecDeque<Cid>>) {
        if self.stop_blocked_move(who) {
            return;
        }
        let mut queue = match provokers {
            Some(q) => q,
            None => self.provokers(who),
        };
        while let Some(enemy) = queue.pop_front() {
            if self.is_down(enemy) || self.cannot_act(enemy) {
                continue;
            }
            let options = self.opportunity_attacks(enemy);
            let resume = Work::Move { who, to, mode, provokers: Some(queue) };
            self.ask(Decider::Creature(enemy), DecisionKind::Opportunity { mover: who, options }, Some(resume), None);
            return;
        }
        self.move_to(who, to, &mode);
        // G-HB-20: the Disengage protection is used up by the next Move.
        self.cm(who).disengaged.0.clear();
    }

    /// G-X-01: a mover that a reaction to its move (an attack of opportunity or Reactive Strike on
    /// leaving, a held or readied action set off by the move) left down or unable to act stops.
    /// Those reactions resolve before it leaves its square, so it stays where it is; reactions not
    /// yet resolved do not happen (see `resolve_move` and `fire_held`); the move's cost stays
    /// spent. On its own turn the turn ends at once and every action it has not spent this turn
    /// or round is lost now, not at the round's end (overriding G-HB-04 for it). Returns whether
    /// the move stopped; a mover that can still act goes on.
    pub fn stop_blocked_move(&mut self, who: Cid) -> bool {
        if !self.is_down(who) && !self.cannot_act(who) {
            return false;
        }
        let at = *self.c(who).pos;
        self.emit(CombatEvent::MoveStopped { who, at });
        // The rest of the action does not happen either (a charge's attack).
        self.work.0.retain(|w| match w {
            Work::Attack(ctx) => ctx.attacker != who || ctx.opportunity,
            Work::Effect { who: w, .. } | Work::Move { who: w, .. } => *w != who,
            _ => true,
        });
        if self.turn.active == Some(who) && !self.turn.ending {
            let left = {
                let mut c = self.cm(who);
                let left = c.pool.available();
                c.pool.spent = c.pool.max;
                c.pool.restricted_left = 0;
                c.pool.standard = 0;
                c.pool.moves = 0;
                c.pool.swift = 0;
                left
            };
            if left > 0 {
                self.emit(CombatEvent::ActionsForfeited { who, count: left });
            }
            self.turn.end_requested = true;
        }
        true
    }

    /// The enemies that get an attack of opportunity, in initiative order; logs the ones that don't.
    fn provokers(&mut self, who: Cid) -> VecDeque<Cid> {
        let mut out = VecDeque::new();
        for enemy in self.engaged_enemies(who) {
            let reason = if self.cannot_act(enemy) {
                Some(NoOpportunityReason::Incapacitated)
            } else if self.ruleset.engagement.no_opportunity_from_flanked && self.is_flanked(enemy) {
                Some(NoOpportunityReason::Flanked)
            } else if self.c(who).disengaged.0.contains(&enemy) {
                Some(NoOpportunityReason::Disengaged)
            } else if self.busy_with(enemy).is_some() {
                Some(NoOpportunityReason::Busy)
            } else if self.flat_footed_no_aoo(enemy) {
                Some(NoOpportunityReason::FlatFooted)
            } else if self.ruleset.reactions != ReactionBudget::Unlimited && self.c(enemy).pool.reactions_left == 0 {
                Some(NoOpportunityReason::NoneLeft)
            } else if self.opportunity_attacks(enemy).is_empty() {
                Some(NoOpportunityReason::NoAttack)
            } else {
                None
            };
            match reason {
                Some(reason) => self.emit(CombatEvent::NoOpportunity { mover: who, from: enemy, reason }),
                None => {
                    self.emit(CombatEvent::OpportunityProvoked { mover: who, from: enemy });
                    out.push_back(enemy);
                }
            }
        }
        out
    }

    /// The attacks a creature could make as an attack of opportunity now: any melee attack
    /// (HB-45), or its reactions triggered by an enemy leaving its reach, while it has a reaction
    /// left and is not delaying (pf2e, G-P2-10/17).
    pub fn opportunity_attacks(&self, who: Cid) -> Vec<String> {
        let triggered = self.ruleset.opportunity == OpportunityRule::TriggeredReactions;
        if self.ruleset.reactions != ReactionBudget::Unlimited
            && (self.c(who).pool.reactions_left == 0 || self.turn.delayed.contains(&who))
        {
            return vec![];
        }
        if self.flat_footed_no_aoo(who) {
            return vec![];
        }
        self.known_abilities(who)
            .into_iter()
            .filter(|a| {
                self.ruleset.ability(a).is_some_and(|d| {
                    matches!(d.effect, Effect::Attack { kind: AttackKind::Melee, .. })
                        && (!triggered
                            || (d.timing == Timing::Reaction && d.trigger == Some(AbilityTrigger::EnemyLeavesReach)))
                })
            })
            .collect()
    }

    /// P1-21: flat-footed, no attacks of opportunity without Combat Reflexes.
    pub fn flat_footed_no_aoo(&self, who: Cid) -> bool {
        let c = self.c(who);
        c.conditions
            .0
            .keys()
            .filter_map(|id| self.ruleset.condition(id))
            .any(|d| d.no_opportunity_unless.as_ref().is_some_and(|t| !c.traits.has(t)))
    }

    /// Put a creature on a square and log it.
    pub fn move_to(&mut self, who: Cid, to: GridPos, mode: &str) {
        let from = *self.c(who).pos;
        if from == to {
            return;
        }
        if self.roster.occupied.get(&from) == Some(&who) {
            self.roster.occupied.remove(&from);
        }
        self.roster.occupied.insert(to, who);
        *self.cm(who).pos = to;
        self.emit(CombatEvent::Moved { who, from, to, mode: mode.into() });
    }

    /// Disengage (HB-16/17): a short move that provokes nothing, and the next Move will not
    /// provoke the enemies disengaged from (all engaged enemies when no target is named).
    pub fn disengage(&mut self, who: Cid, targets: Vec<Cid>, to: Option<GridPos>, mode: Option<String>) {
        let from = if targets.is_empty() { self.engaged_enemies(who) } else { targets };
        {
            let mut c = self.cm(who);
            for e in &from {
                if !c.disengaged.0.contains(e) {
                    c.disengaged.0.push(*e);
                }
            }
        }
        self.emit(CombatEvent::Disengaged { who, from });
        if let Some(to) = to {
            let mode = self.movement_mode(who, mode.as_deref());
            self.move_to(who, to, &mode);
        }
    }
}
