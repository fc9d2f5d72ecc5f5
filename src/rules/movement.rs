//! Movement on the grid: Move (HB-18..20), Disengage (HB-16/17, G-HB-20) and the attacks of
//! opportunity a Move provokes (HB-19, HB-45..48).

use std::collections::{BTreeMap, VecDeque};

use super::command::Decider;
use super::components::{Abilities, ActionPool, Casting, Cid, Conditions, GridPos, Traits};
use super::log::{CombatEvent, NoOpportunityReason};
use super::query::{blocks_reactions, flat_footed_no_aoo, is_opportunity_attack, known_abilities};
use super::ruleset::{ReactionBudget, Ruleset};
use super::state::{DecisionKind, Rules, Work};

impl Rules<'_, '_> {
    /// A Move: every engaged enemy may make an attack of opportunity first (HB-19), except a
    /// flanked one (HB-48), one the mover disengaged from (HB-17), or one that is busy (G-HB-09).
    pub(crate) fn resolve_move(&mut self, who: Cid, to: GridPos, mode: String, provokers: Option<VecDeque<Cid>>) {
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
    pub(crate) fn stop_blocked_move(&mut self, who: Cid) -> bool {
        if !self.is_down(who) && !self.cannot_act(who) {
            return false;
        }
        let at = *self.c(who).pos;
        self.emit(CombatEvent::MoveStopped { who, at });
        // The rest of the action does not happen either (a charge's attack). Under the shipped
        // rules nothing else of the mover's waits in the queue here: a move is stopped as its own
        // effect or step comes up (`resolve_effect`, `resolve_move`), after it left the queue, so
        // the `Effect`/`Move` arm is a guard for custom content (cargo-mutants' deleting it
        // survives; a check that panicked there was never reached by the integration tests and
        // 3,000 fuzz cases, 2026-12-04).
        self.work.0.retain(|w| match w {
            Work::Attack(ctx) => ctx.attacker != who || ctx.opportunity,
            Work::Effect { who: w, .. } | Work::Move { who: w, .. } => *w != who,
            _ => true,
        });
        // Under the shipped rulesets only the active creature is stopped here: off its turn a
        // creature moves only by a held or readied action, taken only while able to act and
        // resolved at once, and none has a moving reaction (so cargo-mutants' `&&` → `||` here
        // survives). A custom moving reaction answered after a GM stunned its reactor would reach
        // the off-turn case.
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
            let reason = self.no_opportunity_reason(who, enemy);
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

    /// What the attack-of-opportunity rules read about a creature.
    pub(crate) fn reactor(&self, who: Cid) -> Reactor<'_> {
        let c = self.c(who);
        Reactor {
            conditions: self.conds(who),
            traits: c.traits,
            pool: c.pool,
            casting: c.casting,
            abilities: c.abilities,
            delayed: self.turn.delayed.contains(&who),
        }
    }

    /// Why `enemy` makes no attack of opportunity on `mover` leaving its reach, or none if it may
    /// (HB-17, HB-19, HB-45..48, P1-21, G-HB-09, G-P1-02, G-P2-17).
    pub(crate) fn no_opportunity_reason(&self, mover: Cid, enemy: Cid) -> Option<NoOpportunityReason> {
        let flanked = self.ruleset.engagement.no_opportunity_from_flanked && self.is_flanked(enemy);
        let disengaged = self.c(mover).disengaged.0.contains(&enemy);
        no_opportunity(&self.ruleset, &self.reactor(enemy), flanked, disengaged)
    }

    /// The attacks a creature could make as an attack of opportunity now (see
    /// [`opportunity_attacks_of`]).
    pub(crate) fn opportunity_attacks(&self, who: Cid) -> Vec<String> {
        opportunity_attacks_of(&self.ruleset, &self.reactor(who))
    }

    /// Squares `who` may pass through while moving: any not held by a standing enemy (allies may
    /// be passed). Walls and the map's edge are the map's own rule ([`BattleMap::passable`]).
    ///
    /// [`BattleMap::passable`]: super::map::BattleMap::passable
    pub(crate) fn may_pass(&self, who: Cid) -> impl Fn(GridPos) -> bool + '_ {
        move |p| !self.roster.occupied.get(&p).is_some_and(|o| *o != who && self.hostile(who, *o))
    }

    /// Squares `who` may end a move on: any no other standing creature holds.
    pub(crate) fn may_stop(&self, who: Cid) -> impl Fn(GridPos) -> bool + '_ {
        move |p| self.roster.occupied.get(&p).is_none_or(|o| *o == who)
    }

    /// Every square `who` could move to now for at most `budget` squares of movement, with the
    /// cheapest cost: terrain costs along the way, walls and enemies bar the way, and the square
    /// must be free (HB-18 on the battle map).
    pub(crate) fn movement_range(&self, who: Cid, budget: u32) -> BTreeMap<GridPos, u32> {
        self.map.reachable(*self.c(who).pos, budget, self.may_pass(who), self.may_stop(who))
    }

    /// Put a creature on a square and log it.
    pub(crate) fn move_to(&mut self, who: Cid, to: GridPos, mode: &str) {
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
    pub(crate) fn disengage(&mut self, who: Cid, targets: Vec<Cid>, to: Option<GridPos>, mode: Option<String>) {
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

/// What the attack-of-opportunity rules read about the creature that would make one. The rules
/// build it from their query (`Rules::reactor`); read-only views such as
/// [`super::driver::Combat::threatened`] build it from the world.
pub struct Reactor<'a> {
    /// Its conditions.
    pub conditions: &'a Conditions,
    /// Its traits.
    pub traits: &'a Traits,
    /// Its action pool (reactions left).
    pub pool: &'a ActionPool,
    /// The activity it is paying for, if any.
    pub casting: &'a Casting,
    /// Its listed abilities.
    pub abilities: &'a Abilities,
    /// It is delaying (G-P2-10).
    pub delayed: bool,
}

/// The attacks a creature could make as an attack of opportunity now: any melee attack
/// (HB-45), or its reactions triggered by an enemy leaving its reach, while it has a reaction
/// left and is not delaying (pf2e, G-P2-10/17); none while flat-footed (P1-21).
pub(crate) fn opportunity_attacks_of(ruleset: &Ruleset, r: &Reactor) -> Vec<String> {
    if ruleset.reactions != ReactionBudget::Unlimited && (r.pool.reactions_left == 0 || r.delayed) {
        return vec![];
    }
    if flat_footed_no_aoo(ruleset, r.conditions, r.traits) {
        return vec![];
    }
    known_abilities(ruleset, &r.abilities.0)
        .filter(|a| ruleset.ability(a).is_some_and(|d| is_opportunity_attack(ruleset, d)))
        .cloned()
        .collect()
}

/// Why a creature makes no attack of opportunity on a mover leaving its reach, in the order the
/// log reports it, or none if it may: it cannot act (G-HB-19), it is flanked and the ruleset
/// says so (HB-48), the mover disengaged from it (HB-17), it is busy with an activity (G-HB-09),
/// it is flat-footed (P1-21), it has no reaction left (G-P2-17, G-P1-02), or it has no attack to
/// make (HB-45).
pub(crate) fn no_opportunity(
    ruleset: &Ruleset,
    r: &Reactor,
    flanked: bool,
    disengaged: bool,
) -> Option<NoOpportunityReason> {
    if blocks_reactions(ruleset, r.conditions) {
        Some(NoOpportunityReason::Incapacitated)
    } else if flanked {
        Some(NoOpportunityReason::Flanked)
    } else if disengaged {
        Some(NoOpportunityReason::Disengaged)
    } else if r.casting.0.is_some() {
        Some(NoOpportunityReason::Busy)
    } else if flat_footed_no_aoo(ruleset, r.conditions, r.traits) {
        Some(NoOpportunityReason::FlatFooted)
    } else if ruleset.reactions != ReactionBudget::Unlimited && r.pool.reactions_left == 0 {
        Some(NoOpportunityReason::NoneLeft)
    } else if opportunity_attacks_of(ruleset, r).is_empty() {
        Some(NoOpportunityReason::NoAttack)
    } else {
        None
    }
}
