//! The checks: whether a command may be carried out now, and how an ability use is paid.
//! Nothing here takes `&mut self`: every check runs before anything changes, so a rejected
//! command leaves the state untouched.
//!
//! HB-06/08 (costs), HB-26/27 (spread activities), HB-28 (acting only on your turn), HB-34/35
//! (bonus actions), G-HB-05, G-HB-12, G-P1-01 (immediate actions off turn), SG-21/23 (acting while
//! holding a cast), reach, destinations, sight and components.

use std::collections::BTreeMap;

use super::super::command::{ActIntent, OpeningUse, Rejection};
use super::super::components::{Cid, GridPos};
use super::super::log::Via;
use super::super::ruleset::{AbilityDef, ActionBudget, ActionType, AttackKind, Effect, MultiTurnActivities, Timing};
use super::super::state::Rules;
use super::{ActPlan, Checked, Payment};

impl<'w> Rules<'w, '_> {
    /// Whether a command may be looked at now: the combat goes on, and no decision waits unless
    /// the command answers it (`decide`) or is a GM input allowed meanwhile (`gm_now`).
    pub(super) fn admit(&self, decide: bool, gm_now: bool) -> Result<(), Rejection> {
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

    pub(super) fn check_exists(&self, who: Cid) -> Result<(), Rejection> {
        if self.exists(who) { Ok(()) } else { Err(Rejection::UnknownCombatant(who)) }
    }

    /// Checks shared by every way of using an ability; returns the ability.
    pub(super) fn check_use(
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
    pub(super) fn check_use_ref(
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
    pub(super) fn check_targets(
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
                        .conds(who)
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
        // Issue 28: how many it may pick, and how far.
        if let Some(most) = def.targets.most()
            && def.effect.picks_creatures()
            && targets.len() > most
        {
            return Err(Rejection::InvalidTarget(format!(
                "{} picks at most {most} creature{} ({} named)",
                def.display_name(),
                if most == 1 { "" } else { "s" },
                targets.len()
            )));
        }
        if let Some(max) = def.range {
            for t in targets.iter().filter(|t| **t != who) {
                let distance = self.c(who).pos.distance(*self.c(*t).pos);
                if distance > max {
                    return Err(Rejection::OutOfRange { distance, max });
                }
            }
        }
        if def.effect.needs_sight() {
            self.check_sight(who, targets)?;
        }
        Ok(())
    }

    /// Speed of the named mode; with several modes one must be named (HB-20).
    pub(super) fn movement_speed(&self, who: Cid, mode: Option<&str>) -> Result<u32, Rejection> {
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
    pub(crate) fn reachable_now(&self, who: Cid, ability: &str, mode: Option<&str>) -> BTreeMap<GridPos, u32> {
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
    pub(crate) fn movement_mode(&self, who: Cid, mode: Option<&str>) -> String {
        mode.map(str::to_string)
            .or_else(|| self.c(who).movement.0.keys().next().cloned())
            .unwrap_or_else(|| self.ruleset.default_movement_mode.clone())
    }

    /// A destination `who` can reach for at most `max` squares of movement (HB-18 on the battle
    /// map): on the map and not a wall, free, and at the end of a path through open squares that
    /// passes no standing enemy, each square entered costing 1, or 2 on difficult terrain (see
    /// [`super::super::map::BattleMap::path`]). On the open plane with nobody in the way this is the
    /// Chebyshev distance.
    pub(super) fn check_destination(&self, who: Cid, to: GridPos, max: u32) -> Result<(), Rejection> {
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
    /// ([`super::super::map::BattleMap::line_of_sight`]).
    pub(super) fn check_sight(&self, who: Cid, targets: &[Cid]) -> Result<(), Rejection> {
        for t in targets {
            if *t != who && !self.sees(who, *t) {
                return Err(Rejection::InvalidTarget(format!("no line of sight to {}", self.name_of(*t))));
            }
        }
        Ok(())
    }

    /// How the cost will be paid, or why it cannot be (HB-06, HB-26, HB-31, G-HB-10).
    pub(super) fn payment(&self, who: Cid, def: &AbilityDef, via: Via) -> Result<Payment, Rejection> {
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
    pub(super) fn is_off_turn_immediate(&self, i: &ActIntent) -> bool {
        matches!(self.ruleset.budget, ActionBudget::TypedSlots { .. })
            && self.ruleset.ability(&i.ability).is_some_and(|d| d.action == ActionType::Immediate)
    }

    /// G-P1-01, G-P1-11: an immediate action outside your turn uses up your next swift action;
    /// not while flat-footed, and not twice before that turn.
    pub(super) fn check_immediate_off_turn(&self, i: &ActIntent) -> Result<AbilityDef, Rejection> {
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
            self.conds(i.actor).0.keys().filter_map(|id| self.ruleset.condition(id)).any(|d| d.blocks_immediate);
        if barred {
            // G-P1-11: no immediate action while flat-footed, Combat Reflexes or not.
            return Err(Rejection::NoActionOfType("no immediate action while flat-footed".into()));
        }
        Ok(def)
    }

    /// G-P1-01, P1-27: whether the action type is still available this turn.
    pub(super) fn typed_payment(&self, who: Cid, def: &AbilityDef) -> Result<Payment, Rejection> {
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
    pub(crate) fn check_act(&self, i: &ActIntent) -> Result<ActPlan<'w>, Rejection> {
        // The ability is borrowed from the ruleset as the world holds it ([`Rules::rs`]), so the
        // plan may keep it while the engine changes other state.
        Ok(match self.check_act_checked(i)? {
            Checked::OffTurn(def) => ActPlan::OffTurnImmediate(def),
            Checked::Holding(def) => ActPlan::WhileHolding(def),
            Checked::Turn(def, pay) => ActPlan::Turn(def, pay),
        })
    }

    /// Whether [`Rules::check_act`] accepts the intent, without building the plan (dry runs:
    /// the same checks; only an off-turn immediate action's ability is copied, as
    /// `check_immediate_off_turn` returns it).
    pub(crate) fn check_act_ok(&self, i: &ActIntent) -> Result<(), Rejection> {
        self.check_act_checked(i).map(|_| ())
    }

    /// The checks of [`Rules::check_act`], in order, borrowing the ability.
    pub(super) fn check_act_checked(&self, i: &ActIntent) -> Result<Checked<'w>, Rejection> {
        self.admit(false, false)?;
        self.check_exists(i.actor)?;
        if self.turn.active != Some(i.actor) {
            if self.is_off_turn_immediate(i) {
                return self.check_immediate_off_turn(i).map(|d| Checked::OffTurn(Box::new(d)));
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

    /// The checks of using `u` in opening `id` (HB-30, HB-31, HB-33): the ability, and what it
    /// costs from the pool. Openings pay in full from the pool (HB-31): `payment` never spreads a
    /// cost outside your turn. A ruleset whose openings are not paid from the pool makes them
    /// free. The pending decision itself is checked by `decide`.
    pub(crate) fn check_opening_use(&self, who: Cid, id: u32, u: &OpeningUse) -> Result<(AbilityDef, u8), Rejection> {
        let via = Via::Opening(id);
        let def = self.check_use(who, &u.ability, &u.targets, u.to, u.mode.as_deref(), via)?;
        let paid = matches!(
            self.ruleset.openings,
            super::super::ruleset::Openings::OneAbilityPerOpening { paid_from_pool: true }
        );
        let cost = if paid {
            let Payment::Full(cost) = self.payment(who, &def, via)? else {
                let available = self.c(who).pool.available();
                return Err(Rejection::NotEnoughActions { needed: def.cost, available });
            };
            cost
        } else {
            0
        };
        Ok((def, cost))
    }
}
