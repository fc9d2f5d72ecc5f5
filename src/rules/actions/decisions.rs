//! Answering a pending decision: defences, attacks of opportunity, openings (HB-29..33),
//! Assist approval, triggered actions, the action lost first, a completed cast, initiative ties.

use super::super::command::{ActIntent, Choice, Decider, OpeningUse, Rejection};
use super::super::components::Cid;
use super::super::log::{CombatEvent, Via};
use super::super::ruleset::{Effect, ReactionBudget};
use super::super::state::{DecisionKind, Rules, Work};

impl<'w> Rules<'w, '_> {
    /// Answer the pending decision.
    pub(super) fn decide(&mut self, by: Decider, choice: &Choice) -> Result<(), Rejection> {
        let p = self.pending.0.clone().ok_or(Rejection::NoDecisionPending)?;
        if p.by != by {
            return Err(Rejection::WrongDecider { expected: p.by });
        }
        let wrong =
            |what: &str| Rejection::InvalidChoice(format!("a {} decision is pending, not {what}", p.kind.name()));
        let mut items: Vec<Work> = Vec::new();
        match (&p.kind, choice) {
            (DecisionKind::Defense { options, .. }, Choice::Defend(m)) => {
                if !options.contains(m) {
                    return Err(Rejection::InvalidChoice(format!("{m:?} is not allowed here; allowed: {options:?}")));
                }
                let ctx = p.attack.clone().expect("defense decisions carry their attack");
                items.push(Work::Defense(ctx, *m));
            }
            (DecisionKind::Opportunity { mover, options }, Choice::Opportunity(pick)) => {
                let Decider::Creature(who) = by else {
                    return Err(wrong("a GM answer"));
                };
                if let Some(a) = pick {
                    if !options.contains(a) {
                        return Err(Rejection::InvalidChoice(format!("`{a}` is not one of {options:?}")));
                    }
                    let def = self.ruleset.ability(a).cloned().ok_or_else(|| Rejection::UnknownAbility(a.clone()))?;
                    let Effect::Attack { kind, stat, damage, .. } = def.effect else {
                        return Err(Rejection::InvalidChoice(format!("`{a}` is not an attack")));
                    };
                    if self.ruleset.reactions != ReactionBudget::Unlimited {
                        // G-P2-17: one reaction per refresh; G-P1-02: attacks of opportunity per round.
                        self.cm(who).pool.reactions_left -= 1;
                    }
                    self.emit(CombatEvent::AbilityUsed {
                        who,
                        ability: a.clone(),
                        cost: 0,
                        targets: vec![*mover],
                        via: Via::Reaction,
                    });
                    items.push(Work::Attack(super::super::state::AttackCtx {
                        attacker: who,
                        target: *mover,
                        ability: a.clone(),
                        kind,
                        stat,
                        damage,
                        opportunity: true,
                        surprise: false,
                        area_assist: false,
                        damage_bonus: 0,
                        total: 0,
                        modifier: 0,
                        penalty: 0,
                        critical: 0,
                    }));
                } else {
                    self.emit(CombatEvent::OpportunityDeclined { who });
                }
            }
            (DecisionKind::Opening { id, .. }, Choice::Opening(pick)) => {
                let Decider::Creature(who) = by else {
                    return Err(wrong("a GM answer"));
                };
                match pick {
                    Some(u) => items.extend(self.use_in_opening(who, *id, u)?),
                    None => self.emit(CombatEvent::OpeningPassed { id: *id, who }),
                }
            }
            (DecisionKind::AssistApproval { .. }, Choice::Approve(yes)) => {
                if let Some(Work::Assist { from, to, bonus, same_type_damage, .. }) = p.resume.clone() {
                    items.push(Work::Assist { from, to, bonus, same_type_damage, approved: Some(*yes) });
                }
                self.pending.0 = None;
                self.emit(CombatEvent::DecisionMade { by, choice: choice.clone() });
                self.push_front_all(items);
                return Ok(());
            }
            (DecisionKind::Triggered { options, .. }, Choice::Triggered(pick)) => {
                let Decider::Creature(who) = by else { return Err(wrong("a GM answer")) };
                if let Some(a) = pick {
                    if !options.contains(a) {
                        return Err(Rejection::InvalidChoice(format!("`{a}` is not one of {options:?}")));
                    }
                    items.push(self.use_triggered(who, a));
                }
            }
            (DecisionKind::ActionLoss, Choice::LoseFirst(l)) => {
                let Decider::Creature(who) = by else { return Err(wrong("a GM answer")) };
                self.pending.0 = None;
                self.emit(CombatEvent::DecisionMade { by, choice: choice.clone() });
                let lose_restricted_first = *l == super::super::command::ActionLoss::Restricted;
                self.push_front_all(vec![Work::Regain { who, lose_restricted_first }]);
                return Ok(());
            }
            (DecisionKind::CastComplete { .. }, Choice::HoldCast(hold)) => {
                let Decider::Creature(who) = by else { return Err(wrong("a GM answer")) };
                self.pending.0 = None;
                self.emit(CombatEvent::DecisionMade { by, choice: choice.clone() });
                self.push_front_all(vec![Work::CastDone { who, hold: *hold }]);
                return Ok(());
            }
            (DecisionKind::InitiativeTie { tied }, Choice::Order(v)) => {
                let mut sorted = v.clone();
                sorted.sort();
                if sorted != *tied {
                    return Err(Rejection::InvalidChoice(format!("order exactly the tied creatures {tied:?}")));
                }
                let Some(Work::FinishInitiative { mut order, tied: mut groups }) = p.resume.clone() else {
                    unreachable!("initiative ties resume initiative")
                };
                // Put the tied creatures, in the chosen order, in the places they hold.
                let mut slots: Vec<usize> =
                    order.iter().enumerate().filter(|(_, c)| tied.contains(c)).map(|(i, _)| i).collect();
                slots.sort();
                for (slot, c) in slots.into_iter().zip(v) {
                    order[slot] = *c;
                }
                groups.remove(0);
                self.pending.0 = None;
                self.emit(CombatEvent::DecisionMade { by, choice: choice.clone() });
                self.push_front_all(vec![Work::FinishInitiative { order, tied: groups }]);
                return Ok(());
            }
            (_, c) => return Err(wrong(&format!("{c:?}"))),
        }
        self.pending.0 = None;
        self.emit(CombatEvent::DecisionMade { by, choice: choice.clone() });
        if let Some(r) = p.resume {
            items.push(r);
        }
        self.push_front_all(items);
        Ok(())
    }

    /// One ability in an opening (HB-30..33): paid from the pool, no spreading, 0-cost allowed at 0.
    pub(super) fn use_in_opening(&mut self, who: Cid, id: u32, u: &OpeningUse) -> Result<Vec<Work>, Rejection> {
        let via = Via::Opening(id);
        let (def, cost) = self.check_opening_use(who, id, u)?;
        self.cm(who).pool.spend(&u.ability, cost);
        // The opening's own continuation is queued after these by the caller.
        let intent = ActIntent {
            actor: who,
            ability: u.ability.clone(),
            targets: u.targets.clone(),
            to: u.to,
            mode: u.mode.clone(),
            surprise: false,
        };
        Ok(self.use_work(&intent, &def, cost, via))
    }
}
