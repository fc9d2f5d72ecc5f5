//! Movement on the grid: Move (HB-18..20), Disengage (HB-16/17, G-HB-20) and the attacks of
//! opportunity a Move provokes (HB-19, HB-45..48).

use std::collections::VecDeque;

use super::command::Decider;
use super::components::{Cid, GridPos};
use super::log::{CombatEvent, NoOpportunityReason};
use super::ruleset::{AbilityTrigger, AttackKind, Effect, OpportunityRule, ReactionBudget, Timing};
use super::state::{DecisionKind, Rules, Work};

impl Rules<'_, '_> {
    /// A Move: every engaged enemy may make an attack of opportunity first (HB-19), except a
    /// flanked one (HB-48), one the mover disengaged from (HB-17), or one that is busy (G-HB-09).
    pub fn resolve_move(&mut self, who: Cid, to: GridPos, mode: String, provokers: Option<VecDeque<Cid>>) {
        if self.is_down(who) {
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
