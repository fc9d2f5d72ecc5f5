//! Held and readied actions (HB-49/50, G-P1-04, SG-38): holding an ability with a trigger, and
//! firing it when the trigger happens.

use super::super::command::Rejection;
use super::super::components::{Cid, GridPos, Held, TriggerOn};
use super::super::log::{CombatEvent, Via};
use super::super::ruleset::{AbilityDef, ActionBudget, ActionType, AttackKind, Effect, ReorderPolicy};
use super::super::state::{Rules, Work};
use super::{READY, spend_typed};

impl<'w> Rules<'w, '_> {
    /// Held actions of enemies that this use triggers: they resolve first (HB-50), one after the
    /// other (see [`Rules::fire_held`]).
    pub(super) fn held_triggers(&mut self, actor: Cid, def: &AbilityDef, to: Option<GridPos>) -> Vec<Work> {
        let mut out = Vec::new();
        let movement = def.effect.moves_user();
        let holders: Vec<(u32, Cid)> = self.turn.holders.iter().copied().collect();
        for (rank, holder) in holders {
            // A creature that cannot act, or is paying for an activity, cannot take its held or
            // readied action (P1-22, SG-04, HB-27).
            if holder == actor
                || !self.hostile(holder, actor)
                || self.is_down(holder)
                || self.cannot_react(holder)
                || self.busy_with(holder).is_some()
            {
                continue;
            }
            let held = std::mem::take(&mut self.cm(holder).held.0);
            let (fire, keep): (Vec<Held>, Vec<Held>) = held.into_iter().partition(|h| {
                h.trigger.by.is_none_or(|b| b == actor)
                    && match h.trigger.on {
                        TriggerOn::AnyAction => true,
                        TriggerOn::Moves => movement,
                        TriggerOn::Attacks => matches!(def.effect, Effect::Attack { .. }),
                    }
            });
            if keep.is_empty() {
                self.turn.holders.remove(&(rank, holder));
            }
            self.cm(holder).held.0 = keep;
            for held in fire {
                out.push(Work::HeldTrigger { holder, held, actor, to, movement });
            }
        }
        out
    }

    /// Fire one held or readied action set off by `actor` (HB-50, G-P1-04, G-P2-11, SG-38): it
    /// resolves next, before the action that set it off.
    pub(crate) fn fire_held(&mut self, holder: Cid, h: Held, actor: Cid, to: Option<GridPos>, movement: bool) {
        // G-X-01: a reaction resolved before this one stopped the move: this one does not happen.
        let move_stopped = movement && (self.is_down(actor) || self.cannot_act(actor));
        // Left unable to act by what resolved since the trigger (a GM's condition while an earlier
        // held action waited on a decision): as when the trigger came, it cannot take its held
        // action now (P1-22, SG-04).
        if move_stopped || self.is_down(holder) || self.cannot_react(holder) {
            // Either way the holder keeps its held action.
            if !self.is_down(holder) {
                let rank = self.rank(holder);
                self.cm(holder).held.0.push(h);
                self.turn.holders.insert((rank, holder));
            }
            return;
        }
        if !self.held_in_reach(holder, &h, actor, to) {
            // A held melee attack needs the enemy in reach, now or where it is moving to.
            self.emit(CombatEvent::ReadyNotUsed { who: holder, ability: h.ability.clone() });
            return;
        }
        if h.uses_reaction {
            // G-P2-11: a readied action is used as the holder's reaction.
            let can = !self.cannot_react(holder)
                && !self.turn.delayed.contains(&holder)
                && self.c(holder).pool.reactions_left > 0;
            if !can {
                self.emit(CombatEvent::ReadyNotUsed { who: holder, ability: h.ability.clone() });
                return;
            }
            self.cm(holder).pool.reactions_left -= 1;
        }
        self.emit(CombatEvent::HeldActionTriggered { who: holder, ability: h.ability.clone(), by: actor });
        if let ReorderPolicy::DelayAndReady { ready_changes_initiative: true, .. } = self.ruleset.reorder {
            self.move_before(holder, actor);
        }
        if self.ruleset.reorder == ReorderPolicy::DelayReadyInTimeline {
            // SG-38, G-SG-12: it interrupts now; its recovery counts from this segment.
            let rt = self.ruleset.ability(&h.ability).and_then(|d| d.recovery).unwrap_or(1);
            let time = self.timeline.now + self.effective_rt(holder, rt);
            let rank = self.rank(holder);
            self.turn.off_schedule.remove(&holder);
            self.timeline.schedule(super::super::timeline::TurnKey { time, rank, who: holder });
        }
        let targets = if h.targets.is_empty() { vec![actor] } else { h.targets };
        self.work.0.push_front(Work::Effect {
            who: holder,
            ability: h.ability,
            targets,
            to: None,
            mode: None,
            via: Via::Held,
            surprise: false,
        });
    }

    /// Whether a held melee attack can reach the enemy that triggered it: where it stands, or where
    /// its move will take it (HB-50: the attack resolves first, as the enemy comes in).
    pub(super) fn held_in_reach(&self, holder: Cid, h: &Held, actor: Cid, to: Option<GridPos>) -> bool {
        let melee = matches!(
            self.ruleset.ability(&h.ability).map(|d| &d.effect),
            Some(Effect::Attack { kind: AttackKind::Melee, .. })
        );
        let target = h.targets.first().copied().unwrap_or(actor);
        if !melee {
            // A held shot or spell fires only at targets the holder sees (the battle map's walls).
            let sight = self.ruleset.ability(&h.ability).is_some_and(|d| d.effect.needs_sight());
            let targets = if h.targets.is_empty() { std::slice::from_ref(&actor) } else { &h.targets[..] };
            return !sight || targets.iter().all(|t| *t == holder || self.sees(holder, *t));
        }
        let reach = self.ruleset.engagement.melee_reach;
        let here = *self.c(holder).pos;
        let mut places = vec![*self.c(target).pos];
        if target == actor
            && let Some(dest) = to
        {
            places.push(dest);
        }
        places.iter().any(|p| here.distance(*p) <= reach)
    }

    /// G-P1-04: a readied action moves the holder's initiative to just before the creature that
    /// triggered it, for good. Used in the next round before its regular turn, that turn is lost.
    /// "Immediately ahead of the creature that triggered it": the holder takes the middle of the
    /// gap between the trigger and whoever is next ahead of it, so a second holder set off by the
    /// same creature lands between the first and the trigger, and the two keep the order their
    /// readied actions went off in. (Ranks start `RANK_SPACING` = 2^16 apart, room for sixteen
    /// such moves into one gap; past that the holder ties with the one ahead, and ties go by id.)
    pub(super) fn move_before(&mut self, holder: Cid, trigger: Cid) {
        let at = self.rank(trigger);
        let ahead = (0..self.roster.entities.len() as u32)
            .map(Cid)
            .filter(|c| *c != holder)
            .map(|c| self.rank(c))
            .filter(|r| *r < at)
            .max()
            .unwrap_or(0);
        let rank = ahead + (at - ahead) / 2;
        self.cm(holder).initiative.rank = rank;
        let round = self.turn.round;
        if let Some(k) = self.timeline.scheduled(holder) {
            self.timeline.unschedule(&k);
        }
        self.timeline.schedule(super::super::timeline::TurnKey { time: round + 1, rank, who: holder });
        self.emit(CombatEvent::InitiativeMoved { who: holder, before: trigger });
    }

    /// Hold an ability (HB-49, G-HB-12): its cost is reserved now.
    pub(super) fn hold(
        &mut self,
        actor: Cid,
        ability: &str,
        targets: &[Cid],
        trigger: super::super::components::HeldTrigger,
    ) -> Result<(), Rejection> {
        self.check_exists(actor)?;
        // HB-49 holds the ability's cost; pf2e's Ready (G-P2-11) costs its own actions, takes a
        // single action, ends the turn and is used as a reaction.
        let (ready_cost, uses_reaction) = match self.ruleset.reorder {
            ReorderPolicy::HoldForPriority { .. } => (None, false),
            ReorderPolicy::DelayAndReady { ready_cost, ready_uses_reaction, .. } => {
                (Some(ready_cost), ready_uses_reaction)
            }
            ReorderPolicy::None => return Err(Rejection::HoldingDisabled),
            ReorderPolicy::DelayReadyInTimeline => (Some(0), false),
        };
        if self.turn.active != Some(actor) {
            return Err(Rejection::NotYourTurn { actor, active: self.turn.active });
        }
        if let Some(by) = trigger.by {
            self.check_exists(by)?;
            if by == actor {
                return Err(Rejection::InvalidTarget(format!(
                    "{} cannot hold an action for its own move or action",
                    self.name_of(actor)
                )));
            }
            // Held actions answer enemies only (HB-50, G-HB-12): one waiting on an ally or on a
            // creature that is down would never fire.
            if !self.hostile(actor, by) || self.is_down(by) {
                return Err(Rejection::InvalidTarget(format!(
                    "{} is not a standing enemy of {}: the held action would never fire",
                    self.name_of(by),
                    self.name_of(actor)
                )));
            }
        }
        if self.holding(actor) {
            return Err(Rejection::NotWhileHolding("Ready".into()));
        }
        let def = self.check_use(actor, ability, targets, None, None, Via::Held)?;
        if def.cast_time.is_some() || def.focus_time.is_some() {
            // A cast or focus has its own casting time and concentration (SG-09..12): announce it.
            return Err(Rejection::NotHoldable(format!("{ability} (casts and focus cannot be readied)")));
        }
        if self.ruleset.reorder == ReorderPolicy::DelayReadyInTimeline {
            // SG-37, G-SG-12: readying costs no time; the creature leaves the schedule.
            let rank = self.rank(actor);
            self.cm(actor).held.0.push(Held {
                ability: ability.into(),
                targets: targets.to_vec(),
                trigger,
                cost: 0,
                uses_reaction: false,
            });
            self.turn.holders.insert((rank, actor));
            self.turn.off_schedule.insert(actor);
            self.turn.end_requested = true;
            self.emit(CombatEvent::ActionHeld { who: actor, ability: ability.into(), cost: 0 });
            return Ok(());
        }
        let typed = matches!(self.ruleset.budget, ActionBudget::TypedSlots { .. });
        let cost = match ready_cost {
            None if def.cost == 0 => return Err(Rejection::NotHoldable(ability.into())),
            None => def.cost,
            // G-P1-04: Ready is a standard action readying a standard, move, swift or free action.
            Some(_) if typed && def.action == ActionType::FullRound => {
                return Err(Rejection::NotHoldable(format!("{ability} (a full-round action cannot be readied)")));
            }
            Some(_) if typed => 0,
            Some(_) if def.cost > 1 => {
                return Err(Rejection::NotHoldable(format!("{ability} (Ready takes a single action or free action)")));
            }
            Some(c) => c,
        };
        if typed && self.c(actor).pool.standard == 0 {
            return Err(Rejection::NoActionOfType("Ready takes a standard action".into()));
        }
        // Ready itself is paid, not the readied ability: restricted actions (quickened's) do not
        // pay for it (P2-12).
        let payer = if ready_cost.is_some() { READY } else { ability };
        let available = self.c(actor).pool.available_for(payer);
        if cost > available {
            return Err(Rejection::NotEnoughActions { needed: cost, available });
        }
        let rank = self.rank(actor);
        {
            let mut c = self.cm(actor);
            if typed {
                spend_typed(&mut c.pool, ActionType::Standard, false);
            }
            c.pool.spend(payer, cost);
            c.held.0.push(Held { ability: ability.into(), targets: targets.to_vec(), trigger, cost, uses_reaction });
        }
        self.turn.holders.insert((rank, actor));
        self.emit(CombatEvent::ActionHeld { who: actor, ability: ability.into(), cost });
        if let ReorderPolicy::DelayAndReady { ready_ends_turn: true, .. } = self.ruleset.reorder {
            // G-P2-11: Ready ends your turn.
            self.turn.end_requested = true;
        }
        Ok(())
    }
}
