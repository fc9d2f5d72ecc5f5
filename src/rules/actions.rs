//! Spending actions: validating and applying commands.
//!
//! HB-06/08 (the pool and costs), HB-09 (basic actions), HB-26/27 (spread activities),
//! HB-28 (acting only on your turn), HB-34/35 (bonus actions), HB-49 (holding), G-HB-05, G-HB-12.
//! Every check runs before anything changes, so a rejected command leaves state untouched.

use std::collections::BTreeMap;

use super::combat::NewCondition;
use super::command::{ActIntent, Choice, Command, Decider, GmInput, OpeningUse, Rejection};
use super::components::{Activity, Cid, GridPos, Held, TriggerOn};
use super::log::{CombatEvent, Via};
use super::ruleset::{
    AbilityDef, ActionBudget, ActionType, AttackKind, Effect, MultiTurnActivities, ReactionBudget, ReorderPolicy,
    Timing,
};
use super::state::{DecisionKind, Rules, Work};

/// What [`Rules::check_act`]'s checks found, the ability borrowed from the ruleset.
enum Checked<'a> {
    OffTurn(AbilityDef),
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
    pub fn apply_command(&mut self, cmd: &Command) -> Result<(), Rejection> {
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

    /// Whether a command may be looked at now: the combat goes on, and no decision waits unless
    /// the command answers it (`decide`) or is a GM input allowed meanwhile (`gm_now`).
    fn admit(&self, decide: bool, gm_now: bool) -> Result<(), Rejection> {
        if self.turn.ended {
            return Err(Rejection::CombatOver);
        }
        if let Some(p) = &self.pending.0
            && !decide
            && !gm_now
        {
            return Err(Rejection::AwaitingDecision { by: p.by });
        }
        Ok(())
    }

    fn check_exists(&self, who: Cid) -> Result<(), Rejection> {
        if self.exists(who) { Ok(()) } else { Err(Rejection::UnknownCombatant(who)) }
    }

    /// Checks shared by every way of using an ability; returns the ability.
    fn check_use(
        &self,
        who: Cid,
        ability: &str,
        targets: &[Cid],
        to: Option<GridPos>,
        mode: Option<&str>,
        via: Via,
    ) -> Result<AbilityDef, Rejection> {
        self.check_use_ref(who, ability, targets, to, mode, via).cloned()
    }

    /// [`Rules::check_use`] without copying the ability out.
    fn check_use_ref(
        &self,
        who: Cid,
        ability: &str,
        targets: &[Cid],
        to: Option<GridPos>,
        mode: Option<&str>,
        via: Via,
    ) -> Result<&'w AbilityDef, Rejection> {
        self.check_exists(who)?;
        for (i, t) in targets.iter().enumerate() {
            self.check_exists(*t)?;
            if targets[..i].contains(t) {
                return Err(Rejection::InvalidTarget(format!("{} is named twice", self.name_of(*t))));
            }
        }
        let def0 = self.rs().ability(ability).ok_or_else(|| Rejection::UnknownAbility(ability.into()))?;
        // SG-32: the Recovery Action works even while prevented from acting.
        if self.cannot_act(who) && !def0.usable_when_prevented {
            return Err(Rejection::UnableToAct);
        }
        self.check_while_holding(who, def0)?;
        if def0.cast_time.is_some() {
            self.check_components(who, def0)?;
        }
        // HB-27: nothing else, not even a bonus action, while a spread activity is being paid.
        if let Some(a) = self.busy_with(who)
            && matches!(self.ruleset.multi_turn, MultiTurnActivities::SpreadCost { exclusive: true, .. })
        {
            return Err(Rejection::BusyWithActivity(a));
        }
        let def = def0;
        if !self.knows(who, ability) {
            return Err(Rejection::AbilityNotKnown(ability.into()));
        }
        if def.timing == Timing::Reaction || def.trigger.is_some() {
            // G-P2-16: a reaction or a triggered free action is used when its trigger happens.
            return Err(Rejection::ReactionOnly(ability.into()));
        }
        if via == Via::Turn
            && let Some(limit) = def.limit_per_turn
            && self.c(who).pool.uses_this_turn.get(ability).copied().unwrap_or(0) >= limit
        {
            return Err(Rejection::LimitReached(ability.into()));
        }
        if via == Via::Held
            && matches!(def.effect, Effect::Move | Effect::MoveAs { .. } | Effect::Step | Effect::Charge { .. })
        {
            return Err(Rejection::NotHoldable(format!("{ability} (a move has no destination to hold)")));
        }
        // A held attack with no named target waits for whoever triggers it (G-HB-12); anything
        // else held must name what it needs now.
        let open_attack = via == Via::Held && targets.is_empty() && matches!(def.effect, Effect::Attack { .. });
        if !open_attack {
            self.check_targets(who, def, targets, to, mode, via)?;
        }
        Ok(def)
    }

    /// Target, range and destination checks by effect.
    fn check_targets(
        &self,
        who: Cid,
        def: &AbilityDef,
        targets: &[Cid],
        to: Option<GridPos>,
        mode: Option<&str>,
        via: Via,
    ) -> Result<(), Rejection> {
        let standing = |t: &Cid| -> Result<(), Rejection> {
            if self.is_down(*t) {
                Err(Rejection::InvalidTarget(format!("{} is down", self.name_of(*t))))
            } else {
                Ok(())
            }
        };
        match &def.effect {
            Effect::Attack { kind, .. } => {
                let [t] = targets else {
                    return Err(Rejection::InvalidTarget("an attack needs exactly one target".into()));
                };
                standing(t)?;
                if !self.hostile(who, *t) {
                    return Err(Rejection::InvalidTarget(format!("{} is not an enemy", self.name_of(*t))));
                }
                // A held attack fires when its trigger says the enemy is in reach (G-HB-12).
                if *kind == AttackKind::Melee && via != Via::Held {
                    let d = self.c(who).pos.distance(*self.c(*t).pos);
                    let reach = self.ruleset.engagement.melee_reach;
                    if d > reach {
                        return Err(Rejection::OutOfRange { distance: d, max: reach });
                    }
                }
            }
            Effect::Charge { .. } => {
                let [t] = targets else {
                    return Err(Rejection::InvalidTarget("a charge needs exactly one target".into()));
                };
                standing(t)?;
                if !self.hostile(who, *t) {
                    return Err(Rejection::InvalidTarget(format!("{} is not an enemy", self.name_of(*t))));
                }
                let to = to.ok_or_else(|| Rejection::InvalidTarget("a charge needs a destination".into()))?;
                let speed = self.movement_speed(who, mode)?;
                self.check_destination(who, to, speed * 2)?;
                let reach = self.ruleset.engagement.melee_reach;
                if to.distance(*self.c(*t).pos) > reach {
                    return Err(Rejection::InvalidTarget(format!("the charge must end next to {}", self.name_of(*t))));
                }
            }
            Effect::Move => {
                let to = to.ok_or_else(|| Rejection::InvalidTarget("a Move needs a destination".into()))?;
                let speed = self.movement_speed(who, mode)?;
                self.check_destination(who, to, speed)?;
            }
            Effect::MoveAs { mode } => {
                let to = to.ok_or_else(|| Rejection::InvalidTarget("a move needs a destination".into()))?;
                let speed = self.movement_speed(who, Some(mode))?;
                self.check_destination(who, to, speed)?;
            }
            Effect::Disengage => {
                for t in targets {
                    standing(t)?;
                    if !self.engaged_enemies(who).contains(t) {
                        return Err(Rejection::InvalidTarget(format!("not engaged with {}", self.name_of(*t))));
                    }
                }
                if let Some(to) = to {
                    self.check_destination(who, to, self.ruleset.engagement.disengage_squares)?;
                }
            }
            Effect::Assist { .. } => {
                let [t] = targets else {
                    return Err(Rejection::InvalidTarget("an Assist needs exactly one ally".into()));
                };
                standing(t)?;
                if *t == who || self.hostile(who, *t) {
                    return Err(Rejection::InvalidTarget(format!("{} is not an ally", self.name_of(*t))));
                }
            }
            Effect::Save { .. } => {
                if targets.is_empty() {
                    return Err(Rejection::InvalidTarget("a saving-throw ability needs targets".into()));
                }
                for t in targets {
                    standing(t)?;
                }
            }
            Effect::Step => {
                let to = to.ok_or_else(|| Rejection::InvalidTarget("a Step needs a destination".into()))?;
                self.check_destination(who, to, self.ruleset.engagement.step_squares)?;
            }
            Effect::TargetCondition { .. } | Effect::Heal { .. } | Effect::Damage { .. } => {
                if targets.is_empty() {
                    return Err(Rejection::InvalidTarget("this ability needs targets".into()));
                }
                for t in targets {
                    standing(t)?;
                }
            }
            // SG-30: the Recovery Action saves against one effect; `mode` names which.
            Effect::RecoverySave => {
                if let Some(n) = mode {
                    let ends: Vec<&String> = self
                        .c(who)
                        .conditions
                        .0
                        .keys()
                        .filter(|id| self.ruleset.condition(id).is_some_and(|d| d.save_ends.is_some()))
                        .collect();
                    if !ends.iter().any(|id| *id == n) {
                        let list: Vec<&str> = ends.iter().map(|s| s.as_str()).collect();
                        return Err(Rejection::InvalidTarget(format!(
                            "{} has no `{n}` that a save can end (its save-ends effects: {})",
                            self.name_of(who),
                            if list.is_empty() { "none".to_string() } else { list.join(", ") }
                        )));
                    }
                }
            }
            Effect::SelfCondition { .. } | Effect::Narrative | Effect::Sustain => {}
        }
        if def.effect.needs_sight() {
            self.check_sight(who, targets)?;
        }
        Ok(())
    }

    /// Speed of the named mode; with several modes one must be named (HB-20).
    fn movement_speed(&self, who: Cid, mode: Option<&str>) -> Result<u32, Rejection> {
        let modes = &self.c(who).movement.0;
        match mode {
            Some(m) => modes.get(m).copied().ok_or_else(|| Rejection::UnknownMovementMode(m.into())),
            None if modes.len() > 1 => Err(Rejection::MovementModeRequired(modes.keys().cloned().collect())),
            None => Ok(modes.values().next().copied().unwrap_or(0)),
        }
    }

    /// Where `who` could move with `ability` now, with the cost of each square (for
    /// [`super::driver::Combat::reachable`]): the squares the destination checks of a move accept
    /// within the ability's distance, if the ability moves and [`Rules::check_act`] would accept
    /// its use now (checked once, on the first square: every square passes the destination
    /// checks). A `Charge` needs a target to check, so only its movement is listed.
    pub fn reachable_now(&self, who: Cid, ability: &str, mode: Option<&str>) -> BTreeMap<GridPos, u32> {
        let none = BTreeMap::new();
        if !self.exists(who) || !self.knows(who, ability) {
            return none;
        }
        let Some(def) = self.ruleset.ability(ability) else { return none };
        let modes = &self.c(who).movement.0;
        let fastest = || modes.iter().max_by_key(|(m, s)| (**s, std::cmp::Reverse((*m).clone())));
        let (budget, mode) = match &def.effect {
            Effect::Move | Effect::Charge { .. } => {
                let pick = match mode {
                    Some(m) => modes.get_key_value(m),
                    None => fastest(),
                };
                let Some((m, speed)) = pick else { return none };
                let speed = if matches!(def.effect, Effect::Charge { .. }) { speed.saturating_mul(2) } else { *speed };
                (speed, Some(m.clone()))
            }
            Effect::MoveAs { mode } => match modes.get(mode) {
                Some(speed) => (*speed, None),
                None => return none,
            },
            Effect::Step => (self.ruleset.engagement.step_squares, None),
            Effect::Disengage => (self.ruleset.engagement.disengage_squares, None),
            _ => return none,
        };
        let cells = self.movement_range(who, budget);
        if let Some(first) = cells.keys().next()
            && !matches!(def.effect, Effect::Charge { .. })
        {
            let intent = ActIntent {
                actor: who,
                ability: ability.into(),
                targets: vec![],
                to: Some(*first),
                mode,
                surprise: false,
            };
            if self.check_act(&intent).is_err() {
                return none;
            }
        }
        cells
    }

    /// The mode a Move uses: the named one, or the only one.
    pub fn movement_mode(&self, who: Cid, mode: Option<&str>) -> String {
        mode.map(str::to_string)
            .or_else(|| self.c(who).movement.0.keys().next().cloned())
            .unwrap_or_else(|| self.ruleset.default_movement_mode.clone())
    }

    /// A destination `who` can reach for at most `max` squares of movement (HB-18 on the battle
    /// map): on the map and not a wall, free, and at the end of a path through open squares that
    /// passes no standing enemy, each square entered costing 1, or 2 on difficult terrain (see
    /// [`super::map::BattleMap::path`]). On the open plane with nobody in the way this is the
    /// Chebyshev distance.
    fn check_destination(&self, who: Cid, to: GridPos, max: u32) -> Result<(), Rejection> {
        let from = *self.c(who).pos;
        let d = from.distance(to);
        if d == 0 {
            return Err(Rejection::InvalidTarget(format!(
                "{} is already on ({}, {}): a move needs another square",
                self.name_of(who),
                to.x,
                to.y
            )));
        }
        if d > max {
            return Err(Rejection::OutOfRange { distance: d, max });
        }
        if !self.map.in_bounds(to) {
            return Err(Rejection::InvalidTarget(format!("square ({}, {}) is off the map", to.x, to.y)));
        }
        if !self.map.passable(to) {
            return Err(Rejection::InvalidTarget(format!("square ({}, {}) is blocked", to.x, to.y)));
        }
        if self.roster.occupied.get(&to).is_some_and(|o| *o != who) {
            return Err(Rejection::Occupied(to));
        }
        if self.map.path(from, to, max, self.may_pass(who), self.may_stop(who)).is_some() {
            return Ok(());
        }
        // Too far by the terrain, or no way at all: look a bounded way further to tell which.
        let further = max.saturating_mul(4).saturating_add(8);
        match self.map.path(from, to, further, self.may_pass(who), self.may_stop(who)) {
            Some(path) => Err(Rejection::OutOfRange { distance: self.map.path_cost(&path), max }),
            None => Err(Rejection::InvalidTarget(format!(
                "no way to square ({}, {}) within {max} squares of movement: walls or enemies block it",
                to.x, to.y
            ))),
        }
    }

    /// Targets at a distance need line of sight: no wall strictly between the two squares
    /// ([`super::map::BattleMap::line_of_sight`]).
    fn check_sight(&self, who: Cid, targets: &[Cid]) -> Result<(), Rejection> {
        for t in targets {
            if *t != who && !self.sees(who, *t) {
                return Err(Rejection::InvalidTarget(format!("no line of sight to {}", self.name_of(*t))));
            }
        }
        Ok(())
    }

    /// How the cost will be paid, or why it cannot be (HB-06, HB-26, HB-31, G-HB-10).
    fn payment(&self, who: Cid, def: &AbilityDef, via: Via) -> Result<Payment, Rejection> {
        if let ActionBudget::TypedSlots { .. } = self.ruleset.budget {
            return self.typed_payment(who, def);
        }
        let available = self.c(who).pool.available_for(&def.id);
        if def.timing == Timing::Free {
            // G-P2-16: an untriggered free action costs nothing.
            return Ok(Payment::Full(0));
        }
        if let ActionBudget::OneTimedActionPerTurn = self.ruleset.budget {
            return if available >= 1 {
                Ok(Payment::Full(1))
            } else {
                Err(Rejection::NotEnoughActions { needed: 1, available })
            };
        }
        if def.cost <= available {
            return Ok(Payment::Full(def.cost));
        }
        let spread = matches!(self.ruleset.multi_turn, MultiTurnActivities::SpreadCost { .. });
        if via == Via::Turn && spread && available >= 1 {
            return Ok(Payment::Spread { now: available, cost: def.cost });
        }
        Err(Rejection::NotEnoughActions { needed: def.cost, available })
    }

    /// An immediate action under typed slots may be taken outside your turn (G-P1-01).
    fn is_off_turn_immediate(&self, i: &ActIntent) -> bool {
        matches!(self.ruleset.budget, ActionBudget::TypedSlots { .. })
            && self.ruleset.ability(&i.ability).is_some_and(|d| d.action == ActionType::Immediate)
    }

    /// G-P1-01, G-P1-11: an immediate action outside your turn uses up your next swift action;
    /// not while flat-footed, and not twice before that turn.
    fn check_immediate_off_turn(&self, i: &ActIntent) -> Result<AbilityDef, Rejection> {
        if self.turn.active.is_none() {
            return Err(Rejection::NotYourTurn { actor: i.actor, active: None });
        }
        let def = self.check_use(i.actor, &i.ability, &i.targets, i.to, i.mode.as_deref(), Via::Reaction)?;
        if self.c(i.actor).pool.swift_owed {
            return Err(Rejection::NoActionOfType("your next swift action is already used".into()));
        }
        if self.turn.surprise_round && !self.c(i.actor).aware.0 {
            // P1-29: the unaware cannot act in the surprise round.
            return Err(Rejection::UnableToAct);
        }
        let barred =
            self.c(i.actor).conditions.0.keys().filter_map(|id| self.ruleset.condition(id)).any(|d| d.blocks_immediate);
        if barred {
            // G-P1-11: no immediate action while flat-footed, Combat Reflexes or not.
            return Err(Rejection::NoActionOfType("no immediate action while flat-footed".into()));
        }
        Ok(def)
    }

    /// G-P1-01, P1-27: whether the action type is still available this turn.
    fn typed_payment(&self, who: Cid, def: &AbilityDef) -> Result<Payment, Rejection> {
        let p = &self.c(who).pool;
        let no = |why: &str| Err(Rejection::NoActionOfType(why.into()));
        let movement = def.effect.excludes_five_foot_step();
        if movement && p.stepped {
            return no("no other movement after a 5-foot step");
        }
        let rounds = match self.ruleset.multi_turn {
            MultiTurnActivities::OnlyIfOwnTimeAtLeastOneRound => def.casting_rounds.filter(|r| *r >= 1),
            _ => None,
        };
        let action = if rounds.is_some() { ActionType::FullRound } else { def.action };
        match action {
            ActionType::Standard if p.standard == 0 => no("no standard action left this turn"),
            ActionType::Move if p.moves == 0 && p.standard == 0 => no("no move action left this turn"),
            ActionType::FullRound if p.one_of => no("only one standard or one move action in the surprise round"),
            ActionType::FullRound if p.standard == 0 || p.moves == 0 || p.moved => {
                no("a full-round action needs the whole turn")
            }
            ActionType::Swift | ActionType::Immediate if p.swift == 0 => no("no swift action left this turn"),
            ActionType::FiveFootStep if p.one_of => no("only one standard or one move action in the surprise round"),
            ActionType::FiveFootStep if p.moved || p.stepped => {
                no("a 5-foot step only when you make no other movement")
            }
            _ => Ok(Payment::Typed { action, rounds }),
        }
    }

    /// Every check `Command::Act` must pass, in the engine's order, and how it will be carried
    /// out; changes nothing. The engine applies an intent only after this passes
    /// ([`Rules::apply_command`]); dry runs ([`super::driver::Combat::check_act`]) call the same.
    /// HB-28 (only on your turn), G-P1-01 (immediate actions off your turn), the ability checks of
    /// `check_use`, SG-21/22 (while holding) and the cost (HB-06, HB-26, G-P1-01).
    pub fn check_act(&self, i: &ActIntent) -> Result<ActPlan<'w>, Rejection> {
        // The ability is borrowed from the ruleset as the world holds it ([`Rules::rs`]), so the
        // plan may keep it while the engine changes other state.
        Ok(match self.check_act_checked(i)? {
            Checked::OffTurn(def) => ActPlan::OffTurnImmediate(Box::new(def)),
            Checked::Holding(def) => ActPlan::WhileHolding(def),
            Checked::Turn(def, pay) => ActPlan::Turn(def, pay),
        })
    }

    /// Whether [`Rules::check_act`] accepts the intent, without building the plan (dry runs:
    /// the same checks, nothing copied).
    pub fn check_act_ok(&self, i: &ActIntent) -> Result<(), Rejection> {
        self.check_act_checked(i).map(|_| ())
    }

    /// The checks of [`Rules::check_act`], in order, borrowing the ability.
    fn check_act_checked(&self, i: &ActIntent) -> Result<Checked<'w>, Rejection> {
        self.admit(false, false)?;
        self.check_exists(i.actor)?;
        if self.turn.active != Some(i.actor) {
            if self.is_off_turn_immediate(i) {
                return self.check_immediate_off_turn(i).map(Checked::OffTurn);
            }
            return Err(Rejection::NotYourTurn { actor: i.actor, active: self.turn.active });
        }
        let def = self.check_use_ref(i.actor, &i.ability, &i.targets, i.to, i.mode.as_deref(), Via::Turn)?;
        if self.holding(i.actor) {
            return Ok(Checked::Holding(def));
        }
        let pay = self.payment(i.actor, def, Via::Turn)?;
        Ok(Checked::Turn(def, pay))
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
        self.emit(CombatEvent::AbilityUsed {
            who: i.actor,
            ability: i.ability.clone(),
            cost,
            targets: i.targets.clone(),
            via,
        });
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
        self.push_front_all(items);
    }

    /// Held actions of enemies that this use triggers: they resolve first (HB-50), one after the
    /// other (see [`Rules::fire_held`]).
    fn held_triggers(&mut self, actor: Cid, def: &AbilityDef, to: Option<GridPos>) -> Vec<Work> {
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
    pub fn fire_held(&mut self, holder: Cid, h: Held, actor: Cid, to: Option<GridPos>, movement: bool) {
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
            self.timeline.schedule(super::timeline::TurnKey { time, rank, who: holder });
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
    fn held_in_reach(&self, holder: Cid, h: &Held, actor: Cid, to: Option<GridPos>) -> bool {
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
    /// The `holder.0 % (RANK_SPACING / 2)` keeps two movers apart; ids stay below
    /// `MAX_COMBATANTS` (10,000), far under `RANK_SPACING / 2`, so it is `holder.0` itself (and
    /// cargo-mutants' `/` → `*` there is equivalent).
    fn move_before(&mut self, holder: Cid, trigger: Cid) {
        let rank = self.rank(trigger).saturating_sub(1 + holder.0 % (super::turns::RANK_SPACING / 2));
        self.cm(holder).initiative.rank = rank;
        let round = self.turn.round;
        if let Some(k) = self.timeline.scheduled(holder) {
            self.timeline.unschedule(&k);
        }
        self.timeline.schedule(super::timeline::TurnKey { time: round + 1, rank, who: holder });
        self.emit(CombatEvent::InitiativeMoved { who: holder, before: trigger });
    }

    /// Hold an ability (HB-49, G-HB-12): its cost is reserved now.
    fn hold(
        &mut self,
        actor: Cid,
        ability: &str,
        targets: &[Cid],
        trigger: super::components::HeldTrigger,
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

    /// Answer the pending decision.
    fn decide(&mut self, by: Decider, choice: &Choice) -> Result<(), Rejection> {
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
                    items.push(Work::Attack(super::state::AttackCtx {
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
                let lose_restricted_first = *l == super::command::ActionLoss::Restricted;
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
    fn use_in_opening(&mut self, who: Cid, id: u32, u: &OpeningUse) -> Result<Vec<Work>, Rejection> {
        let via = Via::Opening(id);
        let def = self.check_use(who, &u.ability, &u.targets, u.to, u.mode.as_deref(), via)?;
        // Openings pay in full from the pool (HB-31): `payment` never spreads a cost outside your
        // turn. A ruleset whose openings are not paid from the pool makes them free.
        let paid =
            matches!(self.ruleset.openings, super::ruleset::Openings::OneAbilityPerOpening { paid_from_pool: true });
        let cost = if paid {
            let Payment::Full(cost) = self.payment(who, &def, via)? else {
                let available = self.c(who).pool.available();
                return Err(Rejection::NotEnoughActions { needed: def.cost, available });
            };
            cost
        } else {
            0
        };
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
        let queued = self.work.0.len();
        self.queue_use(&intent, &def, cost, via);
        let new = self.work.0.len() - queued;
        Ok(self.work.0.drain(..new).collect())
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

    /// A GM input aimed at a creature: it must exist and still be in the fight.
    fn check_gm_target(&self, who: Cid) -> Result<(), Rejection> {
        self.check_exists(who)?;
        if self.is_down(who) {
            return Err(Rejection::InvalidTarget(format!("{} is down", self.name_of(who))));
        }
        Ok(())
    }

    /// Game-master inputs.
    fn gm(&mut self, g: &GmInput) -> Result<(), Rejection> {
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
                let limits = super::limits::MAX_VALUE;
                if value.is_some_and(|v| !(-limits..=limits).contains(&v))
                    || rounds.is_some_and(|r| r > super::limits::MAX_ROUNDS)
                {
                    return Err(Rejection::InvalidChoice(format!(
                        "a condition's value must be within ±{limits} and its rounds at most {}",
                        super::limits::MAX_ROUNDS
                    )));
                }
                let lasts = rounds.map(super::ruleset::Lasts::Rounds);
                self.apply_condition(*who, condition, NewCondition { lasts, value: *value, creator: None });
                Ok(())
            }
            GmInput::PermanentWound { who } => {
                self.check_gm_target(*who)?;
                self.emit(CombatEvent::PermanentWound { who: *who });
                self.end_conditions_on(*who, super::ruleset::EndTrigger::PermanentWound, None);
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
