//! Resolution: attacks and defensive rolls (HB-38..44), damage, saving throws (HB-52/53),
//! conditions (HB-21..25), interruption (G-HB-09) and held-action loss (HB-51).
//!
//! `Rules::resolve_work` runs the work queue front to back and stops when a decision is needed.

use std::collections::VecDeque;

use super::command::{Decider, DefenseMethod};
use super::components::{AssistBonus, Cid};
use super::dice::DieRoll;
use super::gm_policy::OpeningTrigger;
use super::log::{CombatEvent, DamageScale, Degree, EndReason, Via};
use super::odds;
use super::query::has_defense_advantage;
use super::ruleset::{
    AttackKind, DefenseRule, DisruptionPolicy, DurationClock, Effect, EndTrigger, HitKind, Lasts, ReorderPolicy, RollOn,
};
use super::state::{AttackCtx, DecisionKind, PendingDecision, Rules, Work};

/// The natural roll of a d20 roll (G-P2-24, G-P1-17): the face of its first kept die, not the
/// total with the dice expression's flat part (`1d20+1`); the total when no die was logged.
fn natural_face(dice: &[DieRoll], total: i32) -> i32 {
    dice.iter().find(|d| d.kept && !d.negative).map_or(total, |d| d.value)
}

/// How a new condition is put on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NewCondition {
    /// How long it lasts.
    pub lasts: Option<Lasts>,
    /// Its value (1 when none).
    pub value: Option<i32>,
    /// Who created it.
    pub creator: Option<Cid>,
}

impl<'w> Rules<'w, '_> {
    /// Run queued work until it is done, a decision is needed, or the combat ends.
    pub(crate) fn resolve_work(&mut self) {
        while self.pending.0.is_none() && !self.turn.ended {
            let Some(w) = self.work.0.pop_front() else {
                return;
            };
            match w {
                Work::Effect { who, ability, targets, to, mode, via, surprise } => {
                    self.resolve_effect(who, &ability, targets, to, mode, via, surprise)
                }
                Work::Attack(ctx) => self.roll_attack(ctx),
                Work::Defense(ctx, m) => self.roll_defense(ctx, m),
                Work::Damage(ctx, half) => self.deal_damage(ctx, half),
                Work::Move { who, to, mode, provokers } => self.resolve_move(who, to, mode, provokers),
                Work::HeldTrigger { holder, held, actor, to, movement } => {
                    self.fire_held(holder, held, actor, to, movement)
                }
                Work::Opening { id, queue } => self.offer_opening(id, queue),
                Work::Assist { from, to, bonus, same_type_damage, approved } => {
                    self.resolve_assist(from, to, bonus, same_type_damage, approved)
                }
                Work::Step { who, step } => self.run_step(who, step),
                Work::Regain { who, lose_restricted_first } => self.regain(who, Some(lose_restricted_first)),
                Work::FinishTurn { who } => self.finish_turn(who),
                Work::CastDone { who, hold: true } => self.hold_cast(who),
                Work::CastDone { who, hold: false } => self.release(who),
                Work::FinishInitiative { order, tied } => match tied.first() {
                    Some(group) => {
                        let kind = DecisionKind::InitiativeTie { tied: group.clone() };
                        let resume = Work::FinishInitiative { order: order.clone(), tied: tied.clone() };
                        self.ask(Decider::Gm, kind, Some(resume), None);
                    }
                    None => self.finish_initiative(order),
                },
            }
        }
    }

    /// Ask for a decision and stop resolving until it comes.
    pub(crate) fn ask(&mut self, by: Decider, kind: DecisionKind, resume: Option<Work>, attack: Option<AttackCtx>) {
        self.emit(CombatEvent::DecisionRequested { by, about: kind.name().to_string() });
        self.pending.0 = Some(PendingDecision { by, kind, resume, attack });
    }

    fn resolve_effect(
        &mut self,
        who: Cid,
        ability: &str,
        targets: Vec<Cid>,
        to: Option<super::components::GridPos>,
        mode: Option<String>,
        via: Via,
        surprise: bool,
    ) {
        let Some(def) = self.rs().ability(ability) else {
            return;
        };
        // G-X-01: a held or readied action set off by this move resolved first and left the mover
        // down or unable to act.
        if def.effect.moves_user() && self.stop_blocked_move(who) {
            return;
        }
        if self.is_down(who) {
            return;
        }
        let penalty = self.attack_penalty_of(who, def, via);
        match def.effect.clone() {
            Effect::Attack { kind, stat, damage, iterative, .. } => {
                // One attack per target, then the iterative attacks of a full attack, in order.
                let mut items = Vec::new();
                for target in targets {
                    for modifier in std::iter::once(0).chain(iterative.iter().copied()) {
                        items.push(Work::Attack(AttackCtx {
                            attacker: who,
                            target,
                            ability: ability.into(),
                            kind,
                            stat: stat.clone(),
                            damage: damage.clone(),
                            opportunity: false,
                            surprise,
                            area_assist: false,
                            damage_bonus: 0,
                            total: 0,
                            modifier,
                            penalty,
                            critical: 0,
                        }));
                    }
                }
                self.push_front_all(items);
            }
            Effect::Charge { stat, damage, bonus } => {
                let (Some(to), Some(&target)) = (to, targets.first()) else { return };
                let mode = self.movement_mode(who, mode.as_deref());
                self.push_front_all(vec![
                    Work::Move { who, to, mode, provokers: None },
                    Work::Attack(AttackCtx {
                        attacker: who,
                        target,
                        ability: ability.into(),
                        kind: AttackKind::Melee,
                        stat,
                        damage,
                        opportunity: false,
                        surprise,
                        area_assist: false,
                        damage_bonus: 0,
                        total: 0,
                        modifier: bonus,
                        penalty,
                        critical: 0,
                    }),
                ]);
            }
            Effect::Move => {
                let Some(to) = to else { return };
                let mode = self.movement_mode(who, mode.as_deref());
                self.work.0.push_front(Work::Move { who, to, mode, provokers: None });
            }
            Effect::MoveAs { mode } => {
                let Some(to) = to else { return };
                self.work.0.push_front(Work::Move { who, to, mode, provokers: None });
            }
            Effect::RecoverySave => self.recovery_save(who, mode.as_deref()),
            Effect::Disengage => self.disengage(who, targets, to, mode),
            Effect::Assist { bonus, same_type_damage } => {
                if let Some(&to) = targets.first() {
                    self.work.0.push_front(Work::Assist { from: who, to, bonus, same_type_damage, approved: None });
                }
            }
            Effect::SelfCondition { condition, duration } => {
                self.apply_condition(who, &condition, NewCondition { lasts: duration, value: None, creator: Some(who) })
            }
            Effect::TargetCondition { condition, value, duration } => {
                for t in targets {
                    if !self.is_down(t) {
                        self.apply_condition(
                            t,
                            &condition,
                            NewCondition { lasts: duration, value, creator: Some(who) },
                        );
                    }
                }
            }
            Effect::Sustain => self.sustain(who),
            Effect::Step => {
                if let Some(to) = to {
                    let mode = self.movement_mode(who, mode.as_deref());
                    self.move_to(who, to, &mode);
                }
            }
            Effect::Damage { amount } => {
                for t in targets {
                    if !self.is_down(t) {
                        let s = self.c(who).stats.clone();
                        let mut dice = Vec::new();
                        let n = self.dice.roll_logged(&amount, |k| s.get(k), &mut dice);
                        let n = self.modified(who, RollOn::Damage, n).max(0);
                        self.take_damage_rolled(t, n, dice);
                    }
                }
            }
            Effect::Heal { amount } => {
                for t in targets {
                    if self.is_down(t) {
                        continue;
                    }
                    let s = self.c(who).stats.clone();
                    let mut dice = Vec::new();
                    let n = self.dice.roll_logged(&amount, |k| s.get(k), &mut dice).max(0);
                    self.heal_rolled(t, n, dice);
                }
            }
            Effect::Save { stat, dc, damage, on_fail, duration, basic } => {
                for t in targets {
                    if self.is_down(t) {
                        continue;
                    }
                    let degree = self.saving_throw_against(t, &stat, dc, Some(who));
                    // G-P2-26: a basic save lets half the damage through on a success, double on
                    // a critical failure, none on a critical success.
                    if basic && degree.succeeded() && degree != Degree::CriticalSuccess {
                        if let Some(d) = &damage {
                            self.save_damage_roll(who, t, d, degree);
                        }
                        continue;
                    }
                    if !degree.succeeded() {
                        if let Some(d) = &damage {
                            if basic {
                                self.save_damage_roll(who, t, d, degree);
                            } else {
                                let s = self.c(who).stats.clone();
                                let mut dice = Vec::new();
                                let amount = self.dice.roll_logged(d, |k| s.get(k), &mut dice);
                                let amount = self.modified(who, RollOn::Damage, amount).max(0);
                                self.take_damage_rolled(t, amount, dice);
                            }
                        }
                        for c in &on_fail {
                            if !self.is_down(t) {
                                let nc = NewCondition { lasts: duration, value: None, creator: Some(who) };
                                self.apply_condition(t, c, nc);
                            }
                        }
                    }
                }
            }
            Effect::Narrative => self.emit(CombatEvent::AbilityResolved { who, ability: ability.into() }),
        }
    }

    /// A basic save's damage (G-P2-26): rolled once with the user's damage modifiers, then
    /// scaled by the save's degree ([`odds::save_damage`]) and logged with how.
    fn save_damage_roll(&mut self, who: Cid, t: Cid, d: &super::dice::DiceExpr, degree: Degree) {
        let s = self.c(who).stats.clone();
        let mut dice = Vec::new();
        let rolled = self.dice.roll_logged(d, |k| s.get(k), &mut dice);
        let rolled = self.modified(who, RollOn::Damage, rolled).max(0);
        let (amount, scale) = odds::save_damage(degree, rolled);
        if let Some(scale) = scale {
            self.emit(CombatEvent::DamageScaled { who: t, rolled, amount, scale });
        }
        self.take_damage_rolled(t, amount, dice);
    }

    /// `value` with `who`'s condition modifiers on `on` added ([`super::query::roll_modifiers`]);
    /// the modifiers counted are logged as `RollModified` (nothing when there are none).
    fn modified(&mut self, who: Cid, on: RollOn, value: i32) -> i32 {
        let modifiers = self.modifiers_on(who, on);
        if modifiers.is_empty() {
            return value;
        }
        let total = modifiers.iter().fold(value, |v, (_, a)| v.saturating_add(*a));
        self.emit(CombatEvent::RollModified { who, on, modifiers });
        total
    }

    /// [`Self::modified`]'s modifiers without logging them (for a roll logged first).
    fn modifiers_on(&self, who: Cid, on: RollOn) -> Vec<(String, i32)> {
        if !super::query::has_roll_modifiers(&self.ruleset) {
            return Vec::new();
        }
        super::query::roll_modifiers(&self.ruleset, self.conds(who), on)
    }

    /// Log modifiers already counted in a roll (nothing when there are none).
    fn log_modifiers(&mut self, who: Cid, on: RollOn, modifiers: Vec<(String, i32)>) {
        if !modifiers.is_empty() {
            self.emit(CombatEvent::RollModified { who, on, modifiers });
        }
    }

    /// Assist bonuses used up by this roll (G-HB-07): roll bonus, damage bonus for `kind`, area flag.
    fn consume_assists(&mut self, who: Cid, kind: Option<AttackKind>) -> (i32, i32, bool) {
        let assists: Vec<AssistBonus> = std::mem::take(&mut self.cm(who).assists.0);
        if assists.is_empty() {
            return (0, 0, false);
        }
        let bonus: i32 = assists.iter().map(|a| a.bonus).sum();
        let dmg: i32 = assists
            .iter()
            .filter(|a| kind.is_some_and(|k| a.from_kinds.contains(&k)))
            .map(|a| a.same_type_damage)
            .sum();
        let area = assists.iter().any(|a| a.area);
        let from = assists.iter().map(|a| a.from).collect();
        self.emit(CombatEvent::AssistUsed { who, from, bonus });
        (bonus, dmg, area)
    }

    /// Roll the attack (G-HB-21) and ask the defender how it defends (HB-39).
    fn roll_attack(&mut self, mut ctx: AttackCtx) {
        if self.is_down(ctx.attacker) || self.is_down(ctx.target) {
            return;
        }
        let attack_dice = match &self.ruleset.defense {
            DefenseRule::ActiveRoll { attack_dice, .. } | DefenseRule::StaticAc { attack_dice, .. } => {
                attack_dice.clone()
            }
        };
        let mut dice = Vec::new();
        let roll = self.dice.roll_logged(&attack_dice, |_| 0, &mut dice);
        // The natural roll: the die's face, without the dice expression's flat part.
        let natural = natural_face(&dice, roll);
        // G-P2-23: the multiple attack penalty set when the ability was used.
        let (mut bonus, flanking) = self.attack_bonus(&ctx);
        // HB-12: Assist stacks with flanking.
        let (assist, dmg, area) = self.consume_assists(ctx.attacker, Some(ctx.kind));
        bonus = bonus.saturating_add(assist);
        // Issue 28: the attacker's conditions' attack modifiers (pf2e frightened).
        let modifiers = self.modifiers_on(ctx.attacker, RollOn::Attack);
        bonus = modifiers.iter().fold(bonus, |b, (_, a)| b.saturating_add(*a));
        ctx.damage_bonus = ctx.damage_bonus.saturating_add(dmg);
        ctx.area_assist |= area;
        ctx.total = roll.saturating_add(bonus);
        self.emit(CombatEvent::AttackRolled {
            attacker: ctx.attacker,
            target: ctx.target,
            ability: ctx.ability.clone(),
            kind: ctx.kind,
            roll,
            bonus,
            total: ctx.total,
            flanking,
            dice,
        });
        if ctx.penalty != 0 {
            self.emit(CombatEvent::MultipleAttackPenalty { who: ctx.attacker, penalty: ctx.penalty });
        }
        self.log_modifiers(ctx.attacker, RollOn::Attack, modifiers);
        if let DefenseRule::StaticAc { ac_stat, .. } = &self.ruleset.defense {
            let ac_stat = ac_stat.clone();
            let (ac, ac_mods) = self.armor_class_against(&ctx, &ac_stat);
            self.log_modifiers(ctx.target, RollOn::Ac, ac_mods);
            let weapon = self.rs().ability(&ctx.ability).and_then(odds::weapon_critical);
            let (attacker, target) = (ctx.attacker, ctx.target);
            match odds::attack_result(&self.ruleset.attack_math, weapon, natural, ctx.total, ac) {
                odds::AttackResult::Miss { critical } => {
                    self.emit(CombatEvent::AttackMissed { attacker, target, ac });
                    if critical {
                        self.emit(CombatEvent::CriticalMiss { attacker, target });
                    }
                    self.turn.opening_hint = self.default_eligible(OpeningTrigger::Missed, target);
                }
                odds::AttackResult::Hit => {
                    self.emit(CombatEvent::AttackHit { attacker, target });
                    self.work.0.push_front(Work::Damage(ctx, false));
                }
                odds::AttackResult::Threat => {
                    self.emit(CombatEvent::AttackHit { attacker, target });
                    ctx.critical = self.confirm_threat(&ctx, &attack_dice, bonus, ac, weapon);
                    self.work.0.push_front(Work::Damage(ctx, false));
                }
                odds::AttackResult::Critical => {
                    self.emit(CombatEvent::AttackHit { attacker, target });
                    let multiplier = odds::critical_of(&self.ruleset.attack_math, weapon).map_or(2, |(_, m)| m);
                    self.emit(CombatEvent::CriticalHit { attacker, target, multiplier });
                    ctx.critical = multiplier;
                    self.work.0.push_front(Work::Damage(ctx, false));
                }
            }
            return;
        }
        let options = self.defense_options(&ctx);
        if options.is_empty() {
            self.emit(CombatEvent::NoDefensePossible { who: ctx.target });
            self.emit(CombatEvent::AttackHit { attacker: ctx.attacker, target: ctx.target });
            self.work.0.push_front(Work::Damage(ctx, false));
            return;
        }
        let mut all = options;
        all.push(DefenseMethod::NoDefense);
        let kind = DecisionKind::Defense { attacker: ctx.attacker, attack_total: ctx.total, options: all };
        self.ask(Decider::Creature(ctx.target), kind, None, Some(ctx));
    }

    /// The multiple attack penalty (G-P2-23) of `who`'s use of `def` now resolving: on its own
    /// turn, the penalty of the attacks before it (its use was counted when it was paid,
    /// `use_work`); a readied attack (G-P2-11) keeps the penalty it had when it was readied, the
    /// count as it stands until the holder's next turn; a reaction takes none.
    fn attack_penalty_of(&self, who: Cid, def: &super::ruleset::AbilityDef, via: Via) -> i32 {
        if !odds::counts_as_attack(&self.ruleset, def) {
            return 0;
        }
        let attacks = self.c(who).pool.attacks;
        match via {
            Via::Turn if self.turn.active == Some(who) => {
                odds::map_penalty(&self.ruleset, def, attacks.saturating_sub(1))
            }
            Via::Held => odds::map_penalty(&self.ruleset, def, attacks),
            _ => 0,
        }
    }

    /// An attack's bonus before assists and condition modifiers, and the part of it flanking
    /// gives: the stat, the attack's own modifier, its multiple attack penalty (G-P2-23), and the
    /// ruleset's flanking bonus for a melee attack on a flanked target (HB-48, G-P1-19).
    fn attack_bonus(&self, ctx: &AttackCtx) -> (i32, i32) {
        let mut bonus = self.stat(ctx.attacker, &ctx.stat).saturating_add(ctx.modifier).saturating_add(ctx.penalty);
        let mut flanking = 0;
        if ctx.kind == AttackKind::Melee && self.flanks_for_attack(ctx.target, ctx.attacker) {
            flanking = self.ruleset.engagement.flanking_attack_bonus;
            bonus = bonus.saturating_add(flanking);
        }
        (bonus, flanking)
    }

    /// The chances that `attacker`'s next use of `ability` on `target` would hit and be a
    /// critical hit as things stand, counted as [`Self::roll_attack`] rolls it: the penalty it
    /// would take (G-P2-23), flanking, the assists waiting for it, condition modifiers, the
    /// target's AC with off-guard (G-P2-27), degrees and criticals ([`odds::attack_outcomes`]).
    /// None for an ability without an attack roll, or under an active defence.
    pub(crate) fn attack_odds(&self, attacker: Cid, target: Cid, ability: &str) -> Option<odds::AttackOdds> {
        let def = self.ruleset.ability(ability)?;
        let Effect::Attack { kind, stat, damage, critical, .. } = &def.effect else { return None };
        let DefenseRule::StaticAc { attack_dice, ac_stat } = &self.ruleset.defense else { return None };
        let penalty = self.attack_penalty(attacker, ability);
        let ctx = AttackCtx {
            attacker,
            target,
            ability: ability.into(),
            kind: *kind,
            stat: stat.clone(),
            damage: damage.clone(),
            opportunity: false,
            surprise: false,
            area_assist: false,
            damage_bonus: 0,
            total: 0,
            modifier: 0,
            penalty,
            critical: 0,
        };
        let (bonus, _) = self.attack_bonus(&ctx);
        let assists: i32 = self.c(attacker).assists.0.iter().map(|a| a.bonus).sum();
        let bonus = self
            .modifiers_on(attacker, RollOn::Attack)
            .iter()
            .fold(bonus.saturating_add(assists), |b, (_, a)| b.saturating_add(*a));
        let (ac, _) = self.armor_class_against(&ctx, ac_stat);
        Some(odds::attack_outcomes(&self.ruleset, attack_dice, bonus, ac, *critical))
    }

    /// The multiple attack penalty `who`'s next use of `ability` would take now (G-P2-23): 0 off
    /// its own turn, for an ability without the attack trait, or under a ruleset without one.
    pub(crate) fn attack_penalty(&self, who: Cid, ability: &str) -> i32 {
        let Some(def) = self.ruleset.ability(ability) else { return 0 };
        // A reaction takes none (G-P2-23), even on the creature's own turn.
        if self.turn.active != Some(who) || def.timing == super::ruleset::Timing::Reaction {
            return 0;
        }
        odds::map_penalty(&self.ruleset, def, self.c(who).pool.attacks)
    }

    /// The target's AC against this attack, and the AC modifiers that count (to log): the stat,
    /// plus condition bonuses, less any stat a condition takes away (P1-19), plus the AC
    /// modifiers; against a melee attack on a flanked target, as if it also had the ruleset's
    /// off-guard condition (G-P2-27), its modifiers stacking by type with the others (G-P2-22).
    fn armor_class_against(&self, ctx: &AttackCtx, ac_stat: &str) -> (i32, Vec<(String, i32)>) {
        let t = self.c(ctx.target);
        let off_guard = (ctx.kind == AttackKind::Melee && self.flanks_for_attack(ctx.target, ctx.attacker))
            .then(|| odds::off_guard_conditions(&self.ruleset, self.conds(ctx.target)))
            .flatten();
        let Some(conds) = off_guard else {
            let ac = super::query::armor_class(&self.ruleset, t.stats.get(ac_stat), t.stats, self.conds(ctx.target));
            return (ac, self.modifiers_on(ctx.target, RollOn::Ac));
        };
        let ac = super::query::armor_class(&self.ruleset, t.stats.get(ac_stat), t.stats, &conds);
        (ac, super::query::roll_modifiers(&self.ruleset, &conds, RollOn::Ac))
    }

    /// A threat's confirmation roll (G-P1-18): the attack's dice again with the same bonus against
    /// the same AC, logged; the damage multiplier when it confirms, else 0 (a plain hit).
    fn confirm_threat(
        &mut self,
        ctx: &AttackCtx,
        attack_dice: &super::dice::DiceExpr,
        bonus: i32,
        ac: i32,
        weapon: Option<super::ruleset::WeaponCritical>,
    ) -> u8 {
        let mut dice = Vec::new();
        let roll = self.dice.roll_logged(attack_dice, |_| 0, &mut dice);
        let total = roll.saturating_add(bonus);
        let confirmed = odds::confirms(&self.ruleset.attack_math, natural_face(&dice, roll), total, ac);
        let (attacker, target) = (ctx.attacker, ctx.target);
        self.emit(CombatEvent::CritConfirmRolled { attacker, target, roll, bonus, total, ac, confirmed, dice });
        if !confirmed {
            return 0;
        }
        let multiplier = odds::critical_of(&self.ruleset.attack_math, weapon).map_or(2, |(_, m)| m);
        self.emit(CombatEvent::CriticalHit { attacker, target, multiplier });
        multiplier
    }

    /// Which defences the target may use (HB-41..44, HB-47, G-HB-16).
    pub(crate) fn defense_options(&self, ctx: &AttackCtx) -> Vec<DefenseMethod> {
        let DefenseRule::ActiveRoll { dodge_stat, parry_stat, .. } = &self.ruleset.defense else {
            return vec![];
        };
        let t = ctx.target;
        if self.cannot_act(t) {
            return vec![];
        }
        let mut v = Vec::new();
        if self.stat(t, dodge_stat) > 0 {
            v.push(DefenseMethod::Dodge);
        }
        if ctx.kind == AttackKind::Melee && !ctx.opportunity && self.stat(t, parry_stat) > 0 {
            v.push(DefenseMethod::Parry);
        }
        v
    }

    /// The defensive roll: 1d20 + bonus, with advantage in defensive position; ≥ blocks (HB-40).
    fn roll_defense(&mut self, ctx: AttackCtx, method: DefenseMethod) {
        let t = ctx.target;
        self.emit(CombatEvent::DefenseDeclared { who: t, method });
        if method == DefenseMethod::NoDefense {
            self.emit(CombatEvent::AttackHit { attacker: ctx.attacker, target: t });
            self.work.0.push_front(Work::Damage(ctx, false));
            return;
        }
        let DefenseRule::ActiveRoll { dice, dodge_stat, parry_stat, defender_wins_ties, .. } =
            self.ruleset.defense.clone()
        else {
            return;
        };
        let stat = if method == DefenseMethod::Dodge { dodge_stat } else { parry_stat };
        // G-HB-08: advantage = roll 2d20, keep the higher: `1d20` becomes `2d20kh1`.
        let dice = if has_defense_advantage(&self.ruleset, self.conds(t)) { dice.with_advantage() } else { dice };
        let mut rolled = Vec::new();
        let best = self.dice.roll_logged(&dice, |_| 0, &mut rolled);
        // `rolls`: the faces of the first dice term (both with advantage), as before.
        let first = dice.dice.first().map_or(0, |d| d.count as usize);
        let rolls = rolled.iter().take(first).map(|r| r.value).collect();
        // Issue 28: under an active defence, AC modifiers change the defensive roll.
        let modifiers = self.modifiers_on(t, RollOn::Ac);
        let bonus = modifiers.iter().fold(self.stat(t, &stat), |b, (_, a)| b.saturating_add(*a));
        let total = best.saturating_add(bonus);
        self.emit(CombatEvent::DefenseRolled { who: t, method, rolls, bonus, total, dice: rolled });
        self.log_modifiers(t, RollOn::Ac, modifiers);
        let blocked = if defender_wins_ties { total >= ctx.total } else { total > ctx.total };
        if blocked {
            self.emit(CombatEvent::AttackBlocked { attacker: ctx.attacker, target: t });
            // G-HB-10: the target of a missed attack is the default opening candidate.
            self.turn.opening_hint = self.default_eligible(OpeningTrigger::Missed, t);
            if ctx.area_assist {
                // HB-15: an assisted area attack still deals half damage.
                self.work.0.push_front(Work::Damage(ctx, true));
            }
        } else {
            self.emit(CombatEvent::AttackHit { attacker: ctx.attacker, target: t });
            self.work.0.push_front(Work::Damage(ctx, false));
        }
    }

    /// Damage from an attack, then what a hit does (G-HB-09, HB-51).
    fn deal_damage(&mut self, ctx: AttackCtx, half: bool) {
        let s = self.c(ctx.attacker).stats.clone();
        // HB-14: the Assist's damage bonus comes "after hitting"; a blocked area attack (HB-15)
        // deals half of its plain damage.
        let bonus = if half { 0 } else { ctx.damage_bonus };
        let mut dice = Vec::new();
        // G-P1-18: a confirmed critical hit rolls its damage expression `multiplier` times.
        let confirm = matches!(self.ruleset.attack_math.critical, super::ruleset::CriticalRule::Confirm { .. });
        let rolls = if ctx.critical > 1 && confirm { ctx.critical } else { 1 };
        let mut rolled = 0i32;
        for _ in 0..rolls {
            rolled = rolled.saturating_add(self.dice.roll_logged(&ctx.damage, |k| s.get(k), &mut dice));
        }
        let rolled = rolled.saturating_add(bonus);
        // A blocked area attack deals half its plain damage (HB-15): no damage modifiers either.
        let mut amount = if half { rolled.max(0) } else { self.modified(ctx.attacker, RollOn::Damage, rolled).max(0) };
        if half {
            amount /= 2;
        }
        if ctx.critical > 1 {
            // G-P2-25: a critical Strike multiplies its damage; G-P1-18 rolled it that many times.
            let base = amount;
            if !confirm {
                amount = amount.saturating_mul(i32::from(ctx.critical));
            }
            let scale = DamageScale::Times(ctx.critical);
            self.emit(CombatEvent::DamageScaled { who: ctx.target, rolled: base, amount, scale });
        }
        self.take_damage_rolled(ctx.target, amount, dice);
        if half || self.is_down(ctx.target) {
            return;
        }
        if ctx.kind == AttackKind::Ranged {
            self.lose_held_on_hit(ctx.target, HitKind::Ranged);
        }
        if ctx.surprise {
            self.lose_held_on_hit(ctx.target, HitKind::Surprise);
        }
        self.interrupt_on_hit(ctx.target);
    }

    /// Regain hit points, up to the maximum, and log it.
    pub(crate) fn heal(&mut self, who: Cid, amount: i32) {
        self.heal_rolled(who, amount, Vec::new());
    }

    /// [`Self::heal`] of an amount rolled with these dice (logged with it).
    pub(crate) fn heal_rolled(&mut self, who: Cid, amount: i32, dice: Vec<DieRoll>) {
        let (before, hp) = {
            let mut c = self.cm(who);
            let before = c.health.hp;
            c.health.hp = c.health.hp.saturating_add(amount).min(c.health.max);
            (before, c.health.hp)
        };
        self.emit(CombatEvent::Healed { who, amount, hp, dice });
        self.back_on_its_feet(who, before, hp);
    }

    /// Healed above 0 hit points under a ruleset where 0 is not the end (pf2e's dying): the
    /// creature stands again. Dying ends (CRB: regaining hit points ends it; RULES.md is silent),
    /// and one that was at 0 or fewer counts for its side again, as falling had counted it out
    /// ([`Self::knock_down`]); so a second fall, or death, counts it out once more, not twice.
    fn back_on_its_feet(&mut self, who: Cid, before: i32, hp: i32) {
        let Some((cond, _)) = self.ruleset.at_zero_hp.clone() else { return };
        // No hit points regained (a heal of 0, or at the maximum already): nothing changes.
        if hp <= before || hp <= 0 || self.is_down(who) {
            return;
        }
        if before <= 0 {
            self.count_standing(who, true);
        }
        if self.conds(who).has(&cond) {
            self.end_condition(who, &cond, EndReason::Healed);
        }
    }

    /// Lose hit points; at 0 or fewer the creature is down.
    pub(crate) fn take_damage(&mut self, who: Cid, amount: i32) {
        self.take_damage_rolled(who, amount, Vec::new());
    }

    /// [`Self::take_damage`] of an amount rolled with these dice (logged with it).
    pub(crate) fn take_damage_rolled(&mut self, who: Cid, amount: i32, dice: Vec<DieRoll>) {
        let (before, hp) = {
            let mut c = self.cm(who);
            let before = c.health.hp;
            c.health.hp = c.health.hp.saturating_sub(amount);
            (before, c.health.hp)
        };
        self.emit(CombatEvent::Damaged { who, amount, hp, dice });
        if amount > 0 {
            self.concentration_check(who, amount);
        }
        if hp > 0 || self.is_down(who) {
            return;
        }
        if before > 0 {
            self.knock_down(who);
        } else if let Some((cond, _)) = self.ruleset.at_zero_hp.clone() {
            // Already at 0 and dying: damage makes it worse by one (pf2e dying).
            let value = self.conds(who).0.get(&cond).map_or(1, |s| s.value.saturating_add(1));
            self.apply_condition(who, &cond, NewCondition { lasts: None, value: Some(value), creator: None });
            let death = self.ruleset.condition(&cond).and_then(|d| d.recovery.clone()).map(|r| r.death_at);
            if death.is_some_and(|d| value >= d) {
                self.die(who);
            }
        }
    }

    /// G-P1-09: damage while casting calls for a concentration check, d20 + stat against
    /// base + damage + spell level; a failure loses the spell (a cast over rounds, or one about
    /// to resolve).
    fn concentration_check(&mut self, who: Cid, damage: i32) {
        let DisruptionPolicy::ConcentrationCheck { base_dc, stat } = self.ruleset.disruption.clone() else { return };
        let casting = self.c(who).casting.0.as_ref().map(|a| a.ability.clone());
        let queued = self.work.0.iter().find_map(|w| match w {
            Work::Effect { who: w, ability, .. } if *w == who => Some(ability.clone()),
            _ => None,
        });
        let Some(spell) =
            casting.or(queued).filter(|a| self.ruleset.ability(a).is_some_and(|d| d.tags.iter().any(|t| t == "spell")))
        else {
            return;
        };
        let level = self.ruleset.ability(&spell).map_or(0, |d| d.level);
        let dc = base_dc + damage + level;
        let ok = self.saving_throw(who, &stat, dc);
        if !ok {
            if let Some(act) = self.cm(who).casting.0.take() {
                self.emit(CombatEvent::ActivityInterrupted { who, ability: act.ability, actions_lost: act.paid });
            }
            let mut lost = false;
            self.work.0.retain(|w| {
                let hit = matches!(w, Work::Effect { who: w, ability, .. } if *w == who && *ability == spell);
                lost |= hit;
                !hit
            });
            if lost {
                self.emit(CombatEvent::ActionDisrupted { who, ability: spell });
            }
        }
    }

    /// At 0 hit points: out of the fight. With `at_zero_hp` (pf2e dying) the creature keeps its
    /// turns for recovery checks; otherwise it gets the defeated condition.
    fn knock_down(&mut self, who: Cid) {
        if let Some((cond, value)) = self.ruleset.at_zero_hp.clone() {
            self.count_standing(who, false);
            self.emit(CombatEvent::Downed { who });
            self.apply_condition(who, &cond, NewCondition { lasts: None, value: Some(value), creator: None });
            self.check_combat_end();
            return;
        }
        self.remove_from_fight(who, true);
    }

    /// `who`'s side counts one more creature standing (`true`: healed back above 0 HP) or one
    /// fewer (fallen, put out). The one place that changes `alive_by_side`, besides
    /// `finish_initiative`, which sets it ([`Self::is_standing`]); before that nobody is counted,
    /// and nothing changes.
    fn count_standing(&mut self, who: Cid, standing: bool) {
        let side = self.c(who).side.0.clone();
        if let Some(n) = self.turn.alive_by_side.get_mut(&side) {
            *n = if standing { n.saturating_add(1) } else { n.saturating_sub(1) };
        }
    }

    /// Dead (dying reached its limit): the defeated condition; no more turns.
    pub(crate) fn die(&mut self, who: Cid) {
        // Its side counts it only while it stands (pf2e's dying at 0 hit points is uncounted
        // already).
        let standing = self.is_standing(who);
        self.remove_from_fight(who, standing);
    }

    fn remove_from_fight(&mut self, who: Cid, count: bool) {
        // G-P2-18: effects it created keep counting down, at their owners' start of turn.
        // Sustained ones end: nobody can sustain them (G-P2-09).
        for (owner, cond) in std::mem::take(&mut self.cm(who).created.0) {
            let sustained = self.conds(owner).0.get(&cond).is_some_and(|s| s.lasts == Some(Lasts::Sustained));
            if sustained {
                self.end_condition(owner, &cond, EndReason::NotSustained);
            } else if let Some(st) = self.conds_mut(owner).0.get_mut(&cond) {
                st.creator = None;
            }
        }
        let id = self.ruleset.defeated_condition.clone();
        let rank = self.rank(who);
        self.conds_mut(who).0.insert(id.clone(), super::components::ConditionState::plain(1));
        let pos = {
            let mut c = self.cm(who);
            c.held.0.clear();
            c.casting.0 = None;
            *c.pos
        };
        self.turn.holders.remove(&(rank, who));
        if self.roster.occupied.get(&pos) == Some(&who) {
            self.roster.occupied.remove(&pos);
        }
        if count {
            self.count_standing(who, false);
        }
        // The defeated condition (pf2e `dead`, `down` elsewhere) is logged like any other.
        self.emit(CombatEvent::ConditionApplied { who, condition: id, value: 1, lasts: None });
        self.emit(CombatEvent::Downed { who });
        self.check_combat_end();
    }

    /// A saving throw: 1d20 + stat + assists ≥ DC succeeds (HB-52/53, G-HB-15); defensive
    /// position does not help (HB-25). The DC is the data's own (no creature's DC modifiers).
    pub(crate) fn saving_throw(&mut self, who: Cid, stat: &str, dc: i32) -> bool {
        self.saving_throw_against(who, stat, dc, None).succeeded()
    }

    /// [`Self::saving_throw`] against an effect of `by`, whose conditions' DC modifiers change
    /// the DC (issue 28); the saver's save modifiers count either way. Its degree: under a ruleset
    /// whose saves have degrees (G-P2-24) one of four, logged as `SaveDegree`; otherwise a
    /// success or a failure.
    pub(crate) fn saving_throw_against(&mut self, who: Cid, stat: &str, dc: i32, by: Option<Cid>) -> Degree {
        let rule = self.ruleset.saves.clone();
        let dice_expr = if rule.defense_advantage_applies && has_defense_advantage(&self.ruleset, self.conds(who)) {
            rule.dice.with_advantage()
        } else {
            rule.dice
        };
        let mut dice = Vec::new();
        let roll = self.dice.roll_logged(&dice_expr, |_| 0, &mut dice);
        let (assist, _, _) = self.consume_assists(who, None);
        let modifiers = self.modifiers_on(who, RollOn::Save);
        let bonus =
            modifiers.iter().fold(self.stat(who, stat).saturating_add(assist), |b, (_, a)| b.saturating_add(*a));
        let dc_mods = by.filter(|b| self.exists(*b)).map(|b| (b, self.modifiers_on(b, RollOn::Dc)));
        let dc = dc_mods.iter().flat_map(|(_, m)| m).fold(dc, |d, (_, a)| d.saturating_add(*a));
        let total = roll.saturating_add(bonus);
        let degree = match rule.degrees {
            Some(d) => odds::degree(d, natural_face(&dice, roll), total, dc),
            None if (if rule.saver_wins_ties { total >= dc } else { total > dc }) => Degree::Success,
            None => Degree::Failure,
        };
        let success = degree.succeeded();
        self.emit(CombatEvent::SaveRolled { who, stat: stat.into(), roll, bonus, total, dc, success, dice });
        self.log_modifiers(who, RollOn::Save, modifiers);
        if let Some((b, m)) = dc_mods {
            self.log_modifiers(b, RollOn::Dc, m);
        }
        if rule.degrees.is_some() {
            self.emit(CombatEvent::SaveDegree { who, degree });
        }
        degree
    }

    /// Put a condition on a creature. A non-stacking condition already present changes nothing
    /// (HB-24) unless the new value is higher; a negative one ends conditions that end on negative
    /// status (HB-23) and interrupts. Under turn hooks, its creator keeps track of it (P2-05).
    pub(crate) fn apply_condition(&mut self, who: Cid, id: &str, nc: NewCondition) {
        let Some(def) = self.rs().condition(id) else { return };
        // Before initiative is settled (a GM's tie decision pending) nobody is counted yet: the
        // condition goes on as any other, and `finish_initiative` leaves the creature out.
        if *id == self.ruleset.defeated_condition && self.initiative_settled() {
            // The defeated condition, however it comes (a GM's input, a mod, an effect), puts the
            // creature out of the fight as falling does, for good: its side counts one fewer, its
            // square is free, and the combat ends if no other side is left standing.
            if self.is_down(who) {
                self.emit(CombatEvent::ConditionUnchanged { who, condition: id.into() });
            } else {
                self.die(who);
            }
            return;
        }
        if def.immune_traits.iter().any(|t| self.c(who).traits.has(t)) {
            // P1-20: Uncanny Dodge is never caught flat-footed.
            return;
        }
        if let Some(st) = self.conds(who).0.get(id).cloned()
            && !def.stacks
        {
            match nc.value {
                Some(v) if v > st.value => self.set_condition_value(who, id, v),
                _ => self.emit(CombatEvent::ConditionUnchanged { who, condition: id.into() }),
            }
            if let Some(lasts) = nc.lasts
                && st.lasts != Some(lasts)
            {
                // A new duration replaces the old one.
                let left = match lasts {
                    Lasts::Rounds(n) | Lasts::OwnerTurns(n) => Some(n),
                    _ => None,
                };
                if let Some(s) = self.conds_mut(who).0.get_mut(id) {
                    s.lasts = Some(lasts);
                    s.left = left;
                }
                if self.ruleset.durations == DurationClock::TimelinePoint
                    && let Lasts::Rounds(n) = lasts
                {
                    self.schedule_expiry(who, id, n);
                }
            }
            if def.negative {
                // HB-23, G-HB-09: suffering a negative effect again still counts.
                self.negative_status_consequences(who, id);
            }
            return;
        }
        let value = nc.value.unwrap_or(1);
        let left = match nc.lasts {
            Some(Lasts::Rounds(n)) | Some(Lasts::OwnerTurns(n)) => Some(n),
            _ => None,
        };
        {
            let mut c = self.conds_mut(who);
            let e = c.0.entry(id.to_string()).or_insert(super::components::ConditionState {
                lasts: nc.lasts,
                left,
                stacks: 0,
                value,
                creator: nc.creator,
                // A sustained effect lasts through the turn it was created in.
                sustained: nc.lasts == Some(Lasts::Sustained),
            });
            e.stacks = e.stacks.saturating_add(1);
            e.lasts = nc.lasts;
            e.left = left;
        }
        if self.ruleset.durations == DurationClock::TurnHooks
            && let Some(creator) = nc.creator
            && matches!(nc.lasts, Some(Lasts::Rounds(_)) | Some(Lasts::Sustained))
        {
            let mut c = self.cm(creator);
            if !c.created.0.iter().any(|(o, i)| *o == who && i == id) {
                c.created.0.push((who, id.to_string()));
            }
        }
        if self.ruleset.durations == DurationClock::TimelinePoint
            && let Some(Lasts::Rounds(n)) = nc.lasts
        {
            self.schedule_expiry(who, id, n);
        }
        self.emit(CombatEvent::ConditionApplied { who, condition: id.into(), value, lasts: nc.lasts });
        if def.negative {
            self.negative_status_consequences(who, id);
        }
        if def.debilitating {
            // G-HB-10: the enemies engaged with the afflicted creature are the default opening.
            self.turn.opening_hint = self.default_eligible(OpeningTrigger::Debilitating, who);
        }
    }

    /// A negative status effect ends conditions that end on one (HB-23) and interrupts an
    /// activity (G-HB-09).
    fn negative_status_consequences(&mut self, who: Cid, id: &str) {
        self.end_conditions_on(who, EndTrigger::NegativeStatus, Some(id));
        if let DisruptionPolicy::ActivityFails { on_negative_status: true, .. } = self.ruleset.disruption {
            self.interrupt(who);
        }
    }

    /// Remove a condition and log why.
    pub(crate) fn end_condition(&mut self, who: Cid, id: &str, reason: EndReason) {
        let Some(st) = self.conds_mut(who).0.remove(id) else { return };
        // G-X-04: gained again after a Delay, it is a new effect for the returned turn's end.
        self.turn.delay_resolved.retain(|(_, _, on, c)| !(*on == who && c == id));
        if let Some(creator) = st.creator {
            self.cm(creator).created.0.retain(|(o, i)| !(*o == who && i == id));
        }
        self.emit(CombatEvent::ConditionEnded { who, condition: id.into(), reason });
    }

    /// Sustain a Spell (G-P2-09): every sustained effect you created lasts to the end of your
    /// next turn; sustaining twice in a turn adds nothing.
    fn sustain(&mut self, who: Cid) {
        let mut count = 0;
        for (owner, id) in self.c(who).created.0.clone() {
            if let Some(st) = self.conds_mut(owner).0.get_mut(&id)
                && st.lasts == Some(Lasts::Sustained)
            {
                st.sustained = true;
                count += 1;
            }
        }
        self.emit(CombatEvent::Sustained { who, count });
    }

    /// End every condition that ends on `trigger` (HB-23).
    pub(crate) fn end_conditions_on(&mut self, who: Cid, trigger: EndTrigger, except: Option<&str>) {
        let ending: Vec<String> = self
            .conds(who)
            .0
            .keys()
            .filter(|id| Some(id.as_str()) != except)
            .filter(|id| self.ruleset.condition(id).is_some_and(|d| d.ends_on.contains(&trigger)))
            .cloned()
            .collect();
        let reason = match trigger {
            EndTrigger::PermanentWound => EndReason::PermanentWound,
            EndTrigger::NegativeStatus => EndReason::NegativeStatus,
        };
        for condition in ending {
            self.end_condition(who, &condition, reason);
        }
    }

    /// Interrupt: a spread activity fails and its spent actions are lost (G-HB-09).
    pub(crate) fn interrupt(&mut self, who: Cid) {
        let DisruptionPolicy::ActivityFails { spent_lost, .. } = self.ruleset.disruption else { return };
        // A spread activity that does not fail on interruption (SpreadCost) carries on.
        if let super::ruleset::MultiTurnActivities::SpreadCost { fails_on_interrupt: false, .. } =
            self.ruleset.multi_turn
            && self.c(who).casting.0.as_ref().is_some_and(|a| a.effect_at.is_none())
        {
            return;
        }
        if let Some(act) = self.cm(who).casting.0.take() {
            let lost = if spent_lost {
                act.paid
            } else {
                // Not lost: what was paid this round comes back to the pool.
                let mut c = self.cm(who);
                let back = act.paid.min(c.pool.spent);
                c.pool.spent -= back;
                act.paid - back
            };
            self.emit(CombatEvent::ActivityInterrupted { who, ability: act.ability, actions_lost: lost });
        }
    }

    /// A GM disruption: the activity is interrupted, and an action of this creature still
    /// resolving is disrupted: its cost stays spent, its effect does not happen (G-P2-12).
    pub(crate) fn disrupt(&mut self, who: Cid) {
        if self.break_concentration(who) {
            return;
        }
        self.interrupt(who);
        let DisruptionPolicy::ActivityFails { .. } = self.ruleset.disruption else { return };
        let mut disrupted = Vec::new();
        // A `Work::Move` never waits in the queue when a GM input comes: it is pushed to the front
        // and resolved at once, and a move waiting for reactions waits in the pending decision.
        self.work.0.retain(|w| match w {
            Work::Effect { who: w, ability, .. } if *w == who => {
                disrupted.push(ability.clone());
                false
            }
            _ => true,
        });
        if let Some(p) = self.pending.0.as_mut()
            && let Some(Work::Move { who: w, .. }) = &p.resume
            && *w == who
        {
            // The move was waiting for reactions to it: it will not happen.
            p.resume = None;
            disrupted.push("move".into());
        }
        for ability in disrupted {
            self.emit(CombatEvent::ActionDisrupted { who, ability });
        }
    }

    /// Being hit interrupts when the ruleset says so (G-HB-09).
    pub(crate) fn interrupt_on_hit(&mut self, who: Cid) {
        if let DisruptionPolicy::ActivityFails { on_hit: true, .. } = self.ruleset.disruption {
            self.interrupt(who);
        }
    }

    /// HB-51: hit by a ranged or surprise attack, a holder loses all its held actions.
    pub(crate) fn lose_held_on_hit(&mut self, who: Cid, kind: HitKind) {
        let ReorderPolicy::HoldForPriority { lost_on_hit } = &self.ruleset.reorder else {
            return;
        };
        if !lost_on_hit.contains(&kind) {
            return;
        }
        let held = std::mem::take(&mut self.cm(who).held.0);
        if held.is_empty() {
            return;
        }
        let rank = self.rank(who);
        self.turn.holders.remove(&(rank, who));
        self.emit(CombatEvent::HeldActionsLost { who, count: held.len() as u32, kind });
    }

    /// Whether an opening (HB-29) for `eligible` (empty: G-HB-10's default) may open: the
    /// creatures it would be offered to, in initiative order (HB-32).
    pub(crate) fn check_opening(&self, eligible: &[Cid]) -> Result<Vec<Cid>, super::command::Rejection> {
        use super::command::Rejection;
        if self.ruleset.openings == super::ruleset::Openings::None {
            return Err(Rejection::OpeningsDisabled);
        }
        let mut list: Vec<Cid> = if eligible.is_empty() { self.turn.opening_hint.clone() } else { eligible.to_vec() };
        if list.is_empty() {
            return Err(Rejection::InvalidTarget("no creature is eligible for this opening".into()));
        }
        for c in &list {
            if !self.exists(*c) {
                return Err(Rejection::UnknownCombatant(*c));
            }
        }
        list.sort_by_key(|c| (self.rank(*c), *c));
        list.dedup();
        Ok(list)
    }

    /// Open an opening for `list` ([`Rules::check_opening`]'s answer), in resolution order.
    pub(crate) fn open_opening(&mut self, list: Vec<Cid>) {
        let id = self.turn.next_opening;
        self.turn.next_opening += 1;
        self.emit(CombatEvent::OpeningCreated { id, eligible: list.clone() });
        self.work.0.push_front(Work::Opening { id, queue: list.into() });
    }

    /// Offer the opening to the next eligible creature.
    fn offer_opening(&mut self, id: u32, mut queue: VecDeque<Cid>) {
        while let Some(who) = queue.pop_front() {
            let reason = if self.is_down(who) || self.cannot_react(who) {
                Some("cannot act".to_string())
            } else {
                self.busy_with(who).map(|a| format!("busy completing `{a}`"))
            };
            if let Some(reason) = reason {
                self.emit(CombatEvent::OpeningSkipped { id, who, reason });
                continue;
            }
            let resume = Work::Opening { id, queue };
            self.ask(Decider::Creature(who), DecisionKind::Opening { id }, Some(resume), None);
            return;
        }
        self.emit(CombatEvent::OpeningClosed { id });
    }

    /// An Assist: approved by shared tag, by the GM, or always, per the ruleset (HB-10, HB-11).
    fn resolve_assist(&mut self, from: Cid, to: Cid, bonus: i32, same_type_damage: i32, approved: Option<bool>) {
        use super::ruleset::AssistApproval;
        let approved = match approved {
            Some(a) => a,
            None => match self.ruleset.assist.approval {
                AssistApproval::AlwaysApprove => true,
                AssistApproval::SharedTagOrAskGm if self.share_tag(from, to) => true,
                _ => {
                    let resume = Work::Assist { from, to, bonus, same_type_damage, approved: None };
                    self.ask(Decider::Gm, DecisionKind::AssistApproval { from, to }, Some(resume), None);
                    return;
                }
            },
        };
        if !approved {
            self.emit(CombatEvent::AssistDenied { from, to });
            return;
        }
        let from_kinds = self.attack_kinds(from);
        self.cm(to).assists.0.push(AssistBonus { from, bonus, same_type_damage, from_kinds, area: false });
        self.emit(CombatEvent::AssistGranted { from, to, bonus });
    }

    /// HB-11 default: assister and ally share an ability tag. Only abilities on the sheets count:
    /// the basic actions every creature has (HB-09) would make every pair share a tag.
    fn share_tag(&self, a: Cid, b: Cid) -> bool {
        let tags = |who: Cid| -> Vec<String> {
            let mut t: Vec<String> = self
                .c(who)
                .abilities
                .0
                .iter()
                .filter_map(|id| self.ruleset.ability(id))
                .flat_map(|d| d.tags.clone())
                .filter(|t| !self.ruleset.assist.ignored_tags.contains(t))
                .collect();
            t.sort();
            t.dedup();
            t
        };
        let tb = tags(b);
        tags(a).iter().any(|t| tb.contains(t))
    }
}
