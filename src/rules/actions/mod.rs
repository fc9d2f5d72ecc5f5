//! Spending actions: validating and applying commands.
//!
//! HB-06/08 (the pool and costs), HB-09 (basic actions), HB-26/27 (spread activities),
//! HB-28 (acting only on your turn), HB-34/35 (bonus actions), HB-49 (holding), G-HB-05, G-HB-12.
//! Every check runs before anything changes, so a rejected command leaves state untouched.

use super::command::{ActIntent, Command, GmInput, Rejection};
use super::components::{Activity, Cid};
use super::log::{CombatEvent, Via};
use super::ruleset::{AbilityDef, ActionType, ReorderPolicy};
use super::state::{Rules, Work};

mod check;
mod decisions;
mod gm;
mod held;

/// What [`Rules::check_act`]'s checks found, the ability borrowed from the ruleset.
enum Checked<'a> {
    OffTurn(Box<AbilityDef>),
    Holding(&'a AbilityDef),
    Turn(&'a AbilityDef, Payment),
}

/// How a `Command::Act` that passed [`Rules::check_act`] will be carried out. The ability is
/// borrowed from the ruleset for as long as the world is (`'w`), so carrying the plan out copies
/// nothing.
#[derive(Debug, Clone)]
pub enum ActPlan<'w> {
    /// An immediate action outside the creature's turn, using up its next swift action (G-P1-01).
    OffTurnImmediate(Box<AbilityDef>),
    /// An action allowed while holding a cast, adding to the recovery owed (SG-21/23).
    WhileHolding(&'w AbilityDef),
    /// An action on the creature's turn, paid this way.
    Turn(&'w AbilityDef, Payment),
}

/// How a validated ability use will be paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payment {
    /// Pay the whole cost now.
    Full(u8),
    /// Pay what is left now, the rest on later turns (HB-26).
    Spread {
        /// Paid now.
        now: u8,
        /// Total.
        cost: u8,
    },
    /// Use a typed action (G-P1-01); `rounds` for a cast that spans turns (G-P1-10).
    Typed {
        /// The action type.
        action: ActionType,
        /// Casting time in rounds, if the ability spans turns.
        rounds: Option<u8>,
    },
}

impl<'w> Rules<'w, '_> {
    /// Apply one command, or reject it and change nothing.
    pub(crate) fn apply_command(&mut self, cmd: &Command) -> Result<(), Rejection> {
        if let Command::Act(i) = cmd {
            let plan = self.check_act(i)?;
            self.act(i, plan);
            return Ok(());
        }
        // The GM may still act while a decision waits (a disruption, a condition); an opening
        // would have to wait.
        let gm_now = matches!(cmd, Command::Gm(g) if !matches!(g, GmInput::Opening { .. }));
        self.admit(matches!(cmd, Command::Decide { .. }), gm_now)?;
        if let Command::Decide { by, choice } = cmd {
            return self.decide(*by, choice);
        }
        match cmd {
            Command::Delay { actor } => self.delay(*actor),
            Command::Release { actor } => {
                self.check_exists(*actor)?;
                if !self.holding(*actor) {
                    return Err(Rejection::NotHolding);
                }
                match self.turn.active {
                    // G-SG-09: released between turns, never interrupting: after this turn.
                    Some(a) if a != *actor => {
                        if self.turn.releasing.is_some() {
                            return Err(Rejection::NotYourTurn { actor: *actor, active: Some(a) });
                        }
                        self.turn.releasing = Some(*actor);
                    }
                    _ => self.release(*actor),
                }
                Ok(())
            }
            Command::ReturnFromDelay { actor } => self.return_from_delay(*actor),
            Command::Act(_) => unreachable!("handled above"),
            Command::Hold { actor, ability, targets, trigger } => self.hold(*actor, ability, targets, trigger.clone()),
            Command::EndTurn { actor } => {
                self.check_exists(*actor)?;
                if self.turn.active != Some(*actor) {
                    return Err(Rejection::NotYourTurn { actor: *actor, active: self.turn.active });
                }
                if self.holding(*actor) {
                    // G-SG-09: still holding, the creature leaves the schedule until it releases.
                    self.turn.off_schedule.insert(*actor);
                }
                self.turn.end_requested = true;
                Ok(())
            }
            Command::Gm(g) => self.gm(g),
            Command::Decide { .. } => unreachable!("handled above"),
        }
    }

    /// Carry out an intent [`Rules::check_act`] accepted; nothing here can reject.
    fn act(&mut self, i: &ActIntent, plan: ActPlan) {
        let (def, pay) = match plan {
            ActPlan::OffTurnImmediate(def) => {
                self.cm(i.actor).pool.swift_owed = true;
                self.queue_use(i, &def, 0, Via::Reaction);
                return;
            }
            ActPlan::WhileHolding(def) => {
                // SG-21/23: while holding, allowed actions add to the recovery owed; no turn ends.
                self.accrue_while_holding(i.actor, def);
                self.queue_use(i, def, 0, Via::Turn);
                return;
            }
            ActPlan::Turn(def, pay) => (def, pay),
        };
        *self.cm(i.actor).pool.uses_this_turn.entry(i.ability.clone()).or_default() += 1;
        // SG-05, G-SG-05: the next turn comes after this action's recovery time.
        self.turn.last_recovery = def.recovery.map(|rt| self.effective_rt(i.actor, rt));
        let timed = matches!(self.ruleset.turn_model, super::ruleset::TurnModel::RecoveryTime { .. });
        if timed && (def.cast_time.is_some() || def.focus_time.is_some()) {
            if let Payment::Full(cost) = pay {
                self.cm(i.actor).pool.spend(&i.ability, cost);
            }
            self.emit(CombatEvent::AbilityUsed {
                who: i.actor,
                ability: i.ability.clone(),
                cost: 1,
                targets: i.targets.clone(),
                via: Via::Turn,
            });
            self.announce_cast(i.actor, def, i.targets.clone(), i.to);
            return;
        }
        match pay {
            Payment::Full(cost) => {
                self.cm(i.actor).pool.spend(&i.ability, cost);
                self.queue_use(i, def, cost, Via::Turn);
            }
            Payment::Typed { action, rounds: None } => {
                let movement = def.effect.excludes_five_foot_step();
                spend_typed(&mut self.cm(i.actor).pool, action, movement);
                self.queue_use(i, def, 0, Via::Turn);
            }
            Payment::Typed { action, rounds: Some(rounds) } => {
                // G-P1-10: a casting time of a round or more: it takes effect that many rounds
                // later, at the start of your turn.
                spend_typed(&mut self.cm(i.actor).pool, action, false);
                self.emit(CombatEvent::AbilityUsed {
                    who: i.actor,
                    ability: i.ability.clone(),
                    cost: 0,
                    targets: i.targets.clone(),
                    via: Via::Turn,
                });
                let items = self.held_triggers(i.actor, def, i.to);
                self.push_front_all(items);
                self.cm(i.actor).casting.0 = Some(Activity::spread(i, rounds, 0));
                self.emit(CombatEvent::ActivityStarted {
                    who: i.actor,
                    ability: i.ability.clone(),
                    cost: rounds,
                    paid: 0,
                });
            }
            Payment::Spread { now, cost } => {
                // HB-26: the cost is spread over later turns; the effect waits for the last action.
                let mut c = self.cm(i.actor);
                c.pool.spent += now;
                c.casting.0 = Some(Activity::spread(i, cost, now));
                self.emit(CombatEvent::ActivityStarted { who: i.actor, ability: i.ability.clone(), cost, paid: now });
            }
        }
    }

    /// Log a paid use, let the held actions it triggers resolve first (HB-50, G-P1-04, SG-38),
    /// then queue its effect.
    fn queue_use(&mut self, i: &ActIntent, def: &AbilityDef, cost: u8, via: Via) {
        let items = self.use_work(i, def, cost, via);
        self.push_front_all(items);
    }

    /// Logs an ability's use and returns its work: the held actions it triggers, then its effect.
    fn use_work(&mut self, i: &ActIntent, def: &AbilityDef, cost: u8, via: Via) -> Vec<Work> {
        self.emit(CombatEvent::AbilityUsed {
            who: i.actor,
            ability: i.ability.clone(),
            cost,
            targets: i.targets.clone(),
            via,
        });
        // G-P2-23: an ability with the attack trait used on the creature's own turn counts and
        // takes the penalty of the attacks before it; a reaction on another's turn does neither.
        // Its penalty is read back when it resolves (`Rules::attack_penalty_of`).
        if via == Via::Turn && self.turn.active == Some(i.actor) && super::odds::counts_as_attack(&self.ruleset, def) {
            let before = self.c(i.actor).pool.attacks;
            self.cm(i.actor).pool.attacks = before.saturating_add(1);
        }
        let mut items = self.held_triggers(i.actor, def, i.to);
        items.push(Work::Effect {
            who: i.actor,
            ability: i.ability.clone(),
            targets: i.targets.clone(),
            to: i.to,
            mode: i.mode.clone(),
            via,
            surprise: i.surprise,
        });
        items
    }

    /// Delay (G-P2-10): only as your turn begins, before acting. Negative end-of-turn effects
    /// (persistent damage, afflictions) happen now; you leave the order until you return.
    fn delay(&mut self, actor: Cid) -> Result<(), Rejection> {
        self.check_exists(actor)?;
        let in_timeline = self.ruleset.reorder == ReorderPolicy::DelayReadyInTimeline;
        if !matches!(self.ruleset.reorder, ReorderPolicy::DelayAndReady { .. }) && !in_timeline {
            return Err(Rejection::DelayDisabled);
        }
        if self.turn.active != Some(actor) {
            return Err(Rejection::NotYourTurn { actor, active: self.turn.active });
        }
        let c = self.c(actor);
        // P1-27: the surprise round offers one action, not a later turn.
        if !c.pool.uses_this_turn.is_empty() || c.pool.spent > 0 || self.turn.resuming || self.turn.surprise_round {
            return Err(Rejection::CannotDelayNow);
        }
        if in_timeline {
            // G-SG-11: a delaying creature has no next turn until it takes one.
            self.turn.off_schedule.insert(actor);
        }
        self.turn.delayed.insert(actor);
        // G-X-04: only this Delay's effects count for the returned turn (a lapsed one's do not).
        self.turn.delay_resolved.retain(|(w, ..)| *w != actor);
        self.emit(CombatEvent::Delayed { who: actor });
        let negative = super::turns::DELAY_STEPS;
        let mut items: Vec<Work> = self
            .ruleset
            .turn_phases
            .end
            .iter()
            .filter(|s| negative.contains(s))
            .map(|s| Work::Step { who: actor, step: *s })
            .collect();
        items.push(Work::FinishTurn { who: actor });
        self.turn.ending = true;
        self.push_front_all(items);
        Ok(())
    }

    /// Return from Delay after the current creature's turn (G-P2-10).
    fn return_from_delay(&mut self, actor: Cid) -> Result<(), Rejection> {
        self.check_exists(actor)?;
        let readied = self.ruleset.reorder == ReorderPolicy::DelayReadyInTimeline
            && self.turn.off_schedule.contains(&actor)
            && !self.c(actor).held.0.is_empty();
        if !self.turn.delayed.contains(&actor) && !readied {
            return Err(Rejection::NotDelayed);
        }
        let timeline_policy = self.ruleset.reorder == ReorderPolicy::DelayReadyInTimeline;
        // On a segment clock it may also come back when no turn runs at all (G-SG-11). (With a
        // fixed cycle a command never finds no turn running: the schedule starts the next turn
        // before it returns, and a delaying creature keeps its slot there, so nothing waits for
        // it. That is why cargo-mutants' `&&` → `||` here survives: it is equivalent.)
        let no_turn_ok = timeline_policy && self.turn.active.is_none();
        if (self.turn.active.is_none() && !no_turn_ok)
            || self.turn.active == Some(actor)
            || self.turn.returning.is_some()
        {
            return Err(Rejection::NotYourTurn { actor, active: self.turn.active });
        }
        if timeline_policy {
            // SG-35/36, G-SG-11: it takes its turn after the current one, among those still due
            // in this segment by initiative; it cannot interrupt.
            self.turn.delayed.remove(&actor);
            self.turn.off_schedule.remove(&actor);
            self.lapse_held(actor);
            let rank = self.rank(actor);
            let time = self.timeline.now;
            self.timeline.schedule(super::timeline::TurnKey { time, rank, who: actor });
            // Logged now (issue 13); `after` is the running turn, or itself when none runs.
            let after = self.turn.active.unwrap_or(actor);
            self.emit(CombatEvent::ReturnedFromDelay { who: actor, after });
            return Ok(());
        }
        self.turn.returning = Some(actor);
        Ok(())
    }
}

/// The name Ready's own cost is paid under (no restricted action is for it).
const READY: &str = "(ready)";

/// Spend a typed action (G-P1-01): a move action may take the standard action's place; in the
/// surprise round the one action is all there is (P1-27).
fn spend_typed(pool: &mut super::components::ActionPool, action: ActionType, movement: bool) {
    match action {
        ActionType::Standard => pool.standard = pool.standard.saturating_sub(1),
        ActionType::Move => {
            if pool.moves > 0 {
                pool.moves -= 1;
            } else {
                pool.standard = pool.standard.saturating_sub(1);
            }
        }
        ActionType::FullRound => {
            pool.standard = 0;
            pool.moves = 0;
        }
        ActionType::Swift | ActionType::Immediate => pool.swift = pool.swift.saturating_sub(1),
        ActionType::FiveFootStep => pool.stepped = true,
        ActionType::Free => {}
    }
    if pool.one_of && matches!(action, ActionType::Standard | ActionType::Move) {
        pool.standard = 0;
        pool.moves = 0;
    }
    if movement {
        pool.moved = true;
    }
}
