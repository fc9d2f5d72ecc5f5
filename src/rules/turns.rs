//! Initiative, rounds and turns: HB-01..HB-07 with G-HB-01..04 and G-HB-17; P2-01..03, P2-18/19,
//! G-P2-01 (ties) and G-P2-10 (Delay).
//!
//! Turns come off the [`Timeline`](super::timeline::Timeline): the same code serves a fixed cycle
//! of rounds and a segment clock. Start- and end-of-turn steps, when a ruleset has them, run as
//! queued work (see `phases.rs`), so a step that needs a decision simply pauses the turn.

use std::collections::BTreeMap;

use super::command::Decider;
use super::components::{Cid, InitiativeSetup};
use super::log::{CombatEvent, DrawReason, EndReason};
use super::ruleset::{ActionBudget, DurationClock, Lasts, TieBreaker, TurnModel};
use super::state::{DecisionKind, Rules, Work};
use super::timeline::TurnKey;

/// End-of-turn steps that run at once when a creature Delays (G-P2-10): persistent damage and
/// other negative effects, and beneficial effects that would end during its turn. Which of their
/// effects resolve then, and which wait for the end of the resumed turn, is G-X-04
/// (`Rules::resolves_now`).
pub const DELAY_STEPS: [super::ruleset::TurnStep; 4] = [
    super::ruleset::TurnStep::EndUntilEndOfTurn,
    super::ruleset::TurnStep::PersistentDamage,
    super::ruleset::TurnStep::PersistentFlatChecks,
    super::ruleset::TurnStep::AfflictionSaves,
];

/// Turns of creatures unable to act that one schedule run may skip before it yields to the next
/// run (each goes back on the timeline, so without a bound a run could skip round after round).
pub const MAX_SKIPS_PER_RUN: u32 = 4096;

/// Initiative ranks are spaced out so a creature can be moved between two others (G-P2-10).
pub const RANK_SPACING: u32 = 1 << 16;

impl Rules<'_, '_> {
    /// Roll initiative for everyone (HB-04), sort it (HB-05, G-HB-01, G-P2-01) and schedule the
    /// first turns. Pauses for the players' choice when the ruleset lets them order their ties.
    pub(crate) fn start_combat(&mut self) {
        let n = self.roster.entities.len() as u32;
        let name = self.ruleset.name.clone();
        let seed = self.turn.seed;
        self.turn.started = true;
        self.emit(CombatEvent::CombatStarted { ruleset: name, seed });
        let stat = self.ruleset.initiative.stat.clone();
        let dice = self.ruleset.initiative.dice.clone();
        let mut rows: Vec<(Cid, i32)> = Vec::new();
        for i in 0..n {
            let who = Cid(i);
            let bonus = self.stat(who, &stat);
            let mut rolled = Vec::new();
            let (roll, total) = match *self.c(who).setup {
                InitiativeSetup::Rolled => {
                    let s = self.c(who).stats.clone();
                    let r = self.dice.roll_logged(&dice, |k| s.get(k), &mut rolled);
                    (r, r + bonus)
                }
                InitiativeSetup::Roll(r) => (r, r + bonus),
                InitiativeSetup::Total(t) => (t - bonus, t),
            };
            {
                let mut c = self.cm(who);
                c.initiative.roll = roll;
                c.initiative.total = total;
            }
            self.emit(CombatEvent::InitiativeRolled { who, roll, bonus, total, dice: rolled });
            rows.push((who, total));
        }
        let (order, ties) = self.sort_initiative(rows);
        if let Some(tied) = ties.first() {
            // G-P2-01: players tied with each other decide their order; everything else is settled.
            let resume = Work::FinishInitiative { order, tied: ties.clone() };
            let kind = DecisionKind::InitiativeTie { tied: tied.clone() };
            self.ask(Decider::Gm, kind, Some(resume), None);
            return;
        }
        self.finish_initiative(order);
    }

    /// Rank everyone, fill pools and schedule the first turns.
    pub(crate) fn finish_initiative(&mut self, order: Vec<Cid>) {
        let first = self.timeline.first_time();
        let (actions, reactions) = match self.ruleset.budget {
            ActionBudget::PerRoundPool { actions } => (actions, 0),
            ActionBudget::OneTimedActionPerTurn => (1, 0),
            // Regained at the first Step 1; until then the creature has its full budget.
            ActionBudget::PerTurnPool { actions, reactions, .. } => (actions, reactions),
            ActionBudget::TypedSlots { .. } => (0, 0),
        };
        let mut alive: BTreeMap<String, u32> = BTreeMap::new();
        for (i, who) in order.iter().enumerate() {
            // Ranks start one spacing up, so a creature can be moved in front of the first.
            let rank = (i as u32 + 1) * RANK_SPACING;
            let down = self.is_down(*who);
            // A creature felled before initiative was settled (pf2e: dying) keeps its turns,
            // uncounted.
            let standing = self.is_standing(*who);
            let aoo = self.opportunities_per_round(*who);
            {
                let mut c = self.cm(*who);
                c.initiative.rank = rank;
                c.pool.max = actions;
                c.pool.spent = 0;
                c.pool.reactions_left = aoo.unwrap_or(reactions);
            }
            // Every side has its count, at 0 if nobody of it stands: one healed back on its feet
            // later is counted there (`count_standing` changes only the counts there are).
            let n = alive.entry(self.c(*who).side.0.clone()).or_default();
            if standing {
                *n += 1;
            }
            if !down {
                self.timeline.schedule(TurnKey { time: first, rank, who: *who });
            }
        }
        self.turn.alive_by_side = alive;
        self.turn.order = order.clone();
        self.emit(CombatEvent::InitiativeOrder { order: order.clone() });
        self.start_surprise(&order);
        self.check_combat_end();
    }

    /// P1-18, P1-26..30: everyone starts flat-footed; if some but not all are aware, the aware
    /// get a surprise round (round 0) in initiative order.
    fn start_surprise(&mut self, order: &[Cid]) {
        let super::ruleset::SurprisePolicy::SurpriseRound { flat_footed, .. } = self.ruleset.surprise.clone() else {
            return;
        };
        for who in order {
            if !self.is_down(*who) {
                self.apply_condition(*who, &flat_footed, super::combat::NewCondition::default());
            }
        }
        let standing: Vec<Cid> = order.iter().copied().filter(|c| !self.is_down(*c)).collect();
        let aware: Vec<Cid> = standing.iter().copied().filter(|c| self.c(*c).aware.0).collect();
        if aware.is_empty() || aware.len() == standing.len() {
            // P1-28: no surprise round when everyone or no one is aware.
            return;
        }
        self.turn.surprise_round = true;
        for who in &aware {
            let rank = self.rank(*who);
            // Round 0; the regular round-1 turn stays scheduled and is taken later.
            self.turn.surprise_slots.push(TurnKey { time: 0, rank, who: *who });
        }
        self.emit(CombatEvent::SurpriseRound { aware });
        self.emit(CombatEvent::RoundStarted { round: 0, seconds: self.round_seconds() });
    }

    /// The attacks of opportunity a creature gets per round, for a per-round budget (G-P1-02).
    pub(crate) fn opportunities_per_round(&self, who: Cid) -> Option<u8> {
        let super::ruleset::ReactionBudget::PerRound { base, bonus_trait, bonus_stat } = &self.ruleset.reactions else {
            return None;
        };
        let bonus = match (bonus_trait, bonus_stat) {
            (Some(t), Some(s)) if self.c(who).traits.has(t) => self.stat(who, s).max(0) as u8,
            _ => 0,
        };
        Some(base + bonus)
    }

    /// P1-12: an effect lasting N rounds ends just before the count it began on, N rounds later.
    pub(crate) fn schedule_expiry(&mut self, owner: Cid, condition: &str, rounds: u32) {
        let span = match self.timeline.model {
            Some(TurnModel::RecoveryTime { segments_per_round }) => rounds.saturating_mul(segments_per_round),
            _ => rounds,
        };
        let now = if self.turn.started { self.timeline.now } else { 0 };
        let (rank, count) = match (self.timeline.model, self.turn.active) {
            // G-SG-10: on a segment clock it ends before any turn in its last segment.
            (Some(TurnModel::RecoveryTime { .. }), _) | (_, None) => (0, 0),
            // P1-12: just before the initiative count it began on.
            (_, Some(a)) => (self.rank(a), self.c(a).initiative.total),
        };
        let seq = self.turn.next_seq;
        self.turn.next_seq += 1;
        self.turn.expiries.insert((now.saturating_add(span), rank, seq), (owner, condition.to_string(), count));
    }

    /// End every timeline-point effect due at or before this turn's place on the timeline.
    fn expire_before(&mut self, key: TurnKey) {
        while let Some((&(time, rank, seq), _)) = self.turn.expiries.iter().next() {
            if (time, rank) > (key.time, key.rank) {
                return;
            }
            let (who, condition, count) = self.turn.expiries.remove(&(time, rank, seq)).expect("just seen");
            if !self.conds(who).has(&condition) {
                continue;
            }
            let (round, _) = self.timeline.round_and_segment(key.time);
            self.emit(CombatEvent::ExpiredBeforeCount { who, condition: condition.clone(), round, count });
            self.end_condition(who, &condition, EndReason::Expired);
        }
    }

    /// The GM sets awareness (P1-25), as after a Perception check.
    pub(crate) fn set_aware(&mut self, who: Cid, aware: bool) {
        // P1-27/29: only creatures aware at the start act in the surprise round, so making one
        // aware now grants no surprise turn; one found to be unaware loses its surprise turn (the
        // slot is skipped when it comes up).
        self.cm(who).aware.0 = aware;
        self.emit(CombatEvent::AwarenessSet { who, aware });
    }

    fn round_seconds(&self) -> u32 {
        let participants: u32 = self.turn.alive_by_side.values().sum();
        match self.ruleset.round_length {
            super::ruleset::RoundLength::PerParticipant(s) => s * participants,
            super::ruleset::RoundLength::Fixed(s) => s,
        }
    }

    /// Sort by total (descending), then by each tie-breaker in turn (G-HB-01, G-P2-01). Returns
    /// the order and the groups still tied that players must order themselves.
    fn sort_initiative(&mut self, rows: Vec<(Cid, i32)>) -> (Vec<Cid>, Vec<Vec<Cid>>) {
        let breakers = self.ruleset.initiative.tie_breakers.clone();
        let mut keys: BTreeMap<Cid, Vec<i32>> = rows.iter().map(|(c, t)| (*c, vec![*t])).collect();
        let mut player_ties = Vec::new();
        for b in &breakers {
            match b {
                TieBreaker::HigherStat(s) => {
                    for (c, k) in keys.iter_mut() {
                        k.push(self.c(*c).stats.get(s));
                    }
                }
                TieBreaker::HigherModifier => {
                    // P1-16: the total initiative modifier is everything added to the die.
                    for (c, k) in keys.iter_mut() {
                        let i = &self.c(*c).initiative;
                        k.push(i.total - i.roll);
                    }
                }
                TieBreaker::FoesFirst(side) => {
                    for (c, k) in keys.iter_mut() {
                        k.push(i32::from(self.c(*c).side.0 != *side));
                    }
                }
                TieBreaker::RollOff => self.roll_off(&mut keys),
                TieBreaker::PlayerChoice(side) => {
                    for g in tied_groups(&keys) {
                        if g.iter().all(|c| self.c(*c).side.0 == *side) {
                            player_ties.push(g);
                        }
                    }
                }
            }
        }
        let mut order: Vec<Cid> = keys.keys().copied().collect();
        order.sort_by(|a, b| keys[b].cmp(&keys[a]).then(a.cmp(b)));
        (order, player_ties)
    }

    /// Tied creatures roll the initiative die, higher first, repeating until no tie is left.
    fn roll_off(&mut self, keys: &mut BTreeMap<Cid, Vec<i32>>) {
        let die = self.ruleset.initiative.dice.dice.first().map_or(0, |t| t.sides).max(2);
        for _round in 0..64 {
            let tied = tied_groups(keys);
            if tied.is_empty() {
                return;
            }
            for g in tied {
                let rolls: Vec<i32> = g.iter().map(|_| self.dice.roll(die)).collect();
                for (c, r) in g.iter().zip(&rolls) {
                    keys.get_mut(c).expect("tied creature has a key").push(*r);
                }
                self.emit(CombatEvent::InitiativeRollOff { tied: g, rolls });
            }
        }
    }

    /// Take the next scheduled turn, crossing a round boundary if needed; nothing if none is left
    /// or the combat ends on the way. It stops without a turn running when it skipped
    /// [`MAX_SKIPS_PER_RUN`] turns of creatures unable to act: the next schedule run goes on from
    /// there, so one run's work stays bounded. (Only those skips put the turn back on the
    /// timeline; a downed creature's turn or an unaware one's surprise slot is dropped when met,
    /// at most one a creature, so those skips need no count.)
    pub(crate) fn begin_next_turn(&mut self) {
        let phased = !self.ruleset.turn_phases.start.is_empty() || !self.ruleset.turn_phases.end.is_empty();
        let mut skipped = 0;
        loop {
            if self.turn.ended {
                return;
            }
            if skipped >= MAX_SKIPS_PER_RUN {
                return;
            }
            // P1-27: the surprise round's turns come first, in initiative order.
            let surprise = self.turn.surprise_round && !self.turn.surprise_slots.is_empty();
            let key = if surprise {
                self.turn.surprise_slots.remove(0)
            } else {
                if self.turn.surprise_round {
                    self.turn.surprise_round = false;
                    self.emit(CombatEvent::RoundEnded { round: 0 });
                }
                let Some(next) = self.timeline.peek() else { return };
                self.expire_before(next);
                let Some(key) = self.timeline.pop() else { return };
                key
            };
            let (round, _) = self.timeline.round_and_segment(key.time);
            if !surprise && round > self.turn.round {
                if self.turn.round > 0 {
                    self.end_round();
                }
                self.start_round(round);
                if self.turn.ended {
                    return;
                }
            }
            let who = key.who;
            if self.is_down(who) {
                continue;
            }
            if surprise && !self.c(who).aware.0 {
                // P1-29: the unaware cannot act in the surprise round.
                continue;
            }
            let resuming = self.turn.returning.take() == Some(who);
            if !resuming && self.turn.delayed.remove(&who) {
                // G-P2-10, G-P1-03: the delayed turn is lost; the slot is unchanged.
                self.emit(CombatEvent::DelayLapsed { who });
            }
            if self.c(who).casting.0.as_ref().is_some_and(|a| a.effect_at == Some(key.time) && !a.holding) {
                // SG-13, G-SG-13: the cast's effect segment, at the caster's initiative place.
                self.complete_cast(who);
                return;
            }
            if !phased && self.cannot_act(who) && !self.can_recover(who) && !surprise && self.only_prevented_scheduled()
            {
                // Everyone scheduled is unable to act, and a creature that could act is delaying,
                // readying or holding: wait for it to come back rather than skip round after round.
                let waiting: Vec<Cid> =
                    self.turn.delayed.iter().chain(self.turn.off_schedule.iter()).copied().collect();
                if waiting.iter().any(|c| !self.is_down(*c) && !self.cannot_act(*c)) {
                    self.timeline.schedule(key);
                    self.turn.waiting_return = true;
                    return;
                }
            }
            if !phased && self.cannot_act(who) && !self.can_recover(who) {
                // G-HB-19, P1-22: a creature unable to act takes no actions; it keeps its slot.
                self.emit(CombatEvent::TurnSkipped { who, reason: "cannot act".into() });
                if !surprise {
                    let t = self.timeline.next_time(key.time, None);
                    self.timeline.schedule(TurnKey { time: t, ..key });
                }
                skipped += 1;
                continue;
            }
            if !self.cannot_act(who) || self.can_recover(who) {
                // A creature able to act takes a turn: the fight is not stuck.
                self.turn.last_progress_round = self.turn.round;
            }
            self.turn.active = Some(who);
            self.turn.end_requested = false;
            self.turn.ending = false;
            self.turn.resuming = resuming;
            self.turn.last_recovery = None;
            self.refill_at_turn_start(who, surprise);
            self.emit(CombatEvent::TurnStarted { who, round, time: key.time });
            self.end_flat_footed(who, surprise);
            let ready_lapses = matches!(self.ruleset.reorder, super::ruleset::ReorderPolicy::DelayAndReady { .. })
                && !self.ruleset.turn_phases.start.contains(&super::ruleset::TurnStep::StartOther);
            if ready_lapses {
                // G-P1-04: a readied action is lost when your next turn comes first.
                self.lapse_held(who);
            }
            if !resuming {
                let steps: Vec<Work> =
                    self.ruleset.turn_phases.start.iter().map(|s| Work::Step { who, step: *s }).collect();
                self.push_front_all(steps);
            }
            self.continue_activity(who);
            return;
        }
    }

    /// Budgets that refill every turn: one timed action, or the typed slots (G-P1-01) and the
    /// attacks of opportunity of a per-round budget (G-P1-02).
    fn refill_at_turn_start(&mut self, who: Cid, surprise: bool) {
        let aoo = self.opportunities_per_round(who);
        let budget = self.ruleset.budget;
        let mut c = self.cm(who);
        c.pool.uses_this_turn.clear();
        // G-P2-23: the multiple attack penalty starts over with the creature's turn.
        c.pool.attacks = 0;
        match budget {
            ActionBudget::OneTimedActionPerTurn => c.pool.spent = 0,
            ActionBudget::TypedSlots { standard, moves, swift } => {
                c.pool.standard = standard;
                c.pool.moves = moves;
                // P1-27: no swift action in the surprise round; an immediate action used since
                // takes this turn's swift action.
                c.pool.swift = if surprise || c.pool.swift_owed { 0 } else { swift };
                c.pool.swift_owed = false;
                c.pool.moved = false;
                c.pool.stepped = false;
                c.pool.one_of = surprise;
            }
            _ => {}
        }
        if let Some(n) = aoo {
            c.pool.reactions_left = n;
        }
    }

    /// P1-18, G-P1-05/14: flat-footed ends as your first regular turn starts (or your first turn,
    /// the surprise round included, with the other reading).
    fn end_flat_footed(&mut self, who: Cid, surprise: bool) {
        let super::ruleset::SurprisePolicy::SurpriseRound { flat_footed, flat_footed_ends } =
            self.ruleset.surprise.clone()
        else {
            return;
        };
        let ends = !surprise || flat_footed_ends == super::ruleset::FlatFootedEnds::FirstActionIncludingSurprise;
        if ends && self.conds(who).has(&flat_footed) {
            self.end_condition(who, &flat_footed, EndReason::FirstTurn);
        }
    }

    /// HB-27: the first actions of each later turn go into the spread activity until it is paid;
    /// G-P1-10: a cast of N rounds takes effect at the start of your turn N rounds later.
    fn continue_activity(&mut self, who: Cid) {
        let Some(mut act) = self.c(who).casting.0.clone() else { return };
        if self.ruleset.multi_turn == super::ruleset::MultiTurnActivities::OnlyIfOwnTimeAtLeastOneRound {
            act.paid += 1;
            let remaining = act.cost - act.paid;
            self.emit(CombatEvent::ActivityProgressed { who, ability: act.ability.clone(), paid_now: 1, remaining });
            if remaining > 0 {
                self.cm(who).casting.0 = Some(act);
                return;
            }
            self.cm(who).casting.0 = None;
            self.emit(CombatEvent::ActivityCompleted { who, ability: act.ability.clone() });
            self.work.0.push_back(act.effect(who));
            return;
        }
        let available = self.c(who).pool.available();
        let pay = available.min(act.cost - act.paid);
        act.paid += pay;
        let remaining = act.cost - act.paid;
        self.cm(who).pool.spent += pay;
        self.emit(CombatEvent::ActivityProgressed { who, ability: act.ability.clone(), paid_now: pay, remaining });
        if remaining == 0 {
            // HB-26: it takes effect when the last action of its cost is spent.
            self.cm(who).casting.0 = None;
            self.emit(CombatEvent::ActivityCompleted { who, ability: act.ability.clone() });
            self.work.0.push_back(act.effect(who));
        } else {
            self.cm(who).casting.0 = Some(act);
        }
    }

    /// Whether the active turn is over: asked to end, out of actions, down or unable to act
    /// (G-HB-04, P2-18, G-P2-15).
    pub(crate) fn turn_is_over(&self, who: Cid) -> bool {
        if self.turn.end_requested || self.is_down(who) || (self.cannot_act(who) && !self.can_recover(who)) {
            return true;
        }
        if self.holding(who) {
            // SG-20/42: holding, the creature acts on in this segment until it releases or stops.
            return false;
        }
        let c = self.c(who);
        match self.ruleset.budget {
            ActionBudget::PerRoundPool { .. } | ActionBudget::PerTurnPool { .. } => c.pool.available() == 0,
            ActionBudget::OneTimedActionPerTurn => c.pool.spent >= 1,
            // Free actions stay possible (G-P1-01, P1-27): the creature says when it is done.
            ActionBudget::TypedSlots { .. } => false,
        }
    }

    /// End the active turn: run the end-of-turn steps, if any, then finish it.
    pub(crate) fn end_turn(&mut self, who: Cid) {
        if self.turn.ending {
            return;
        }
        self.turn.ending = true;
        // G-X-04: a turn resumed after Delay runs every step; each skips the effects the Delay
        // already resolved.
        let mut steps: Vec<Work> = self.ruleset.turn_phases.end.iter().map(|s| Work::Step { who, step: *s }).collect();
        steps.push(Work::FinishTurn { who });
        self.push_front_all(steps);
    }

    /// After the end-of-turn steps: log the end, forfeit a per-turn pool (P2-19), schedule the
    /// next turn, and slot in a creature returning from Delay (G-P2-10).
    pub(crate) fn finish_turn(&mut self, who: Cid) {
        // Out of the fight (killed by its recovery check, say), it has no actions to keep.
        let left = if self.is_down(who) { 0 } else { self.c(who).pool.available() };
        self.emit(CombatEvent::TurnEnded { who, actions_left: left });
        let delaying = self.turn.delayed.contains(&who);
        if !delaying {
            // G-X-04: what a Delay resolved counts for this turn only.
            self.turn.delay_resolved.retain(|(w, ..)| *w != who);
        }
        if let ActionBudget::PerTurnPool { .. } = self.ruleset.budget
            && !delaying
        {
            // P2-19: remaining actions are lost; the reaction stays until the next regain.
            let mut c = self.cm(who);
            c.pool.spent = c.pool.max;
            c.pool.restricted_left = 0;
        }
        self.turn.active = None;
        self.turn.end_requested = false;
        self.turn.ending = false;
        self.turn.resuming = false;
        let now = self.timeline.now;
        // A delaying creature keeps its next slot: reaching it still delaying loses the turn.
        // A surprise-round turn leaves the round-1 slot as it is.
        let surprise_turn = self.turn.surprise_round;
        let off = self.turn.off_schedule.contains(&who);
        if !self.is_down(who) && !surprise_turn && !off {
            let t = self.timeline.next_time(now, self.turn.last_recovery);
            let rank = self.rank(who);
            self.timeline.schedule(TurnKey { time: t, rank, who });
        }
        if let Some(back) = self.turn.returning {
            self.slot_in_after(back, who, now);
        }
        if let Some(caster) = self.turn.releasing.take() {
            // G-SG-09: a held cast released between turns.
            self.release(caster);
        }
    }

    /// G-P2-10: a delaying creature comes back right after `after`'s turn, for good.
    /// (`back.0 % (RANK_SPACING / 2)` is `back.0`: ids stay below `MAX_COMBATANTS`.)
    fn slot_in_after(&mut self, back: Cid, after: Cid, now: u32) {
        // G-P1-03: returning before its regular turn, the creature gives that turn up.
        if let Some(k) = self.timeline.scheduled(back) {
            self.timeline.unschedule(&k);
        }
        let moves = matches!(
            self.ruleset.reorder,
            super::ruleset::ReorderPolicy::DelayAndReady { delay_changes_initiative: true, .. }
        );
        // With `delay_changes_initiative: false` it acts now but keeps its place for later rounds.
        let rank = if moves { self.rank(after) + 1 + back.0 % (RANK_SPACING / 2) } else { self.rank(back) };
        self.cm(back).initiative.rank = rank;
        self.turn.delayed.remove(&back);
        self.timeline.schedule(TurnKey { time: now, rank, who: back });
        self.emit(CombatEvent::ReturnedFromDelay { who: back, after });
    }

    /// Round start: refill per-round pools (G-HB-03) and say how long the round lasts (HB-02).
    /// The combat is a draw instead when the round cap is passed, or when a whole round went by
    /// in which no creature could act and nothing changed: no condition ticked, ended or was
    /// applied, no damage, no timeline-point expiry still to come (the stalemate rule).
    fn start_round(&mut self, round: u32) {
        let previous = self.turn.round;
        if previous >= 1
            && self.turn.last_progress_round < previous
            && self.turn.expiries.is_empty()
            && !self.anyone_could_act()
        {
            self.draw(DrawReason::NobodyCanAct);
            return;
        }
        if round > self.ruleset.round_cap {
            self.draw(DrawReason::RoundCap(self.ruleset.round_cap));
            return;
        }
        self.turn.round = round;
        if let ActionBudget::PerRoundPool { .. } = self.ruleset.budget {
            for who in self.turn.order.clone() {
                self.cm(who).pool.spent = 0;
            }
        }
        let seconds = self.round_seconds();
        self.emit(CombatEvent::RoundStarted { round, seconds });
    }

    /// Round end (HB-07, G-HB-04): unspent actions are forfeited, held actions and disengage
    /// protection lapse (G-HB-12, G-HB-20), and durations tick (G-HB-17).
    fn end_round(&mut self) {
        let round_pool = matches!(self.ruleset.budget, ActionBudget::PerRoundPool { .. });
        let hold = matches!(self.ruleset.reorder, super::ruleset::ReorderPolicy::HoldForPriority { .. });
        for who in self.turn.order.clone() {
            if self.is_down(who) {
                continue;
            }
            let left = self.c(who).pool.available();
            if left > 0 && round_pool {
                self.emit(CombatEvent::ActionsForfeited { who, count: left });
            }
            if hold {
                self.lapse_held(who);
            }
            self.cm(who).disengaged.0.clear();
            if self.ruleset.durations == DurationClock::RoundEnd {
                self.tick_rounds(who);
            }
        }
        let round = self.turn.round;
        self.emit(CombatEvent::RoundEnded { round });
    }

    /// Held or readied actions lapse.
    pub(crate) fn lapse_held(&mut self, who: Cid) {
        let held = std::mem::take(&mut self.cm(who).held.0);
        if !held.is_empty() {
            self.turn.holders.retain(|(_, c)| *c != who);
            self.emit(CombatEvent::HeldActionsLapsed { who, count: held.len() as u32 });
        }
    }

    /// Effects lasting N rounds on `who` lose one and end at 0 (G-HB-17).
    fn tick_rounds(&mut self, who: Cid) {
        let ids: Vec<String> = self.conds(who).0.keys().cloned().collect();
        for id in ids {
            self.tick_condition(who, &id, |l| matches!(l, Lasts::Rounds(_)));
        }
    }

    /// Count one unit off a condition whose duration matches; end it at 0.
    pub(crate) fn tick_condition(&mut self, who: Cid, id: &str, matches: impl Fn(&Lasts) -> bool) {
        let ended = {
            let mut c = self.conds_mut(who);
            let Some(st) = c.0.get_mut(id) else { return };
            if !st.lasts.as_ref().is_some_and(&matches) {
                return;
            }
            let Some(left) = st.left.as_mut() else { return };
            *left = left.saturating_sub(1);
            *left == 0
        };
        // A duration counting down is the fight moving on (the stalemate rule).
        self.turn.last_progress_round = self.turn.round;
        if ended {
            self.end_condition(who, id, EndReason::Expired);
        }
    }

    /// End the combat when at most one side is left standing.
    pub(crate) fn check_combat_end(&mut self) {
        // Before initiative is settled nobody is counted yet, so no side seems left standing:
        // `finish_initiative` counts and asks again. (A fight of no creatures ends at once.)
        if self.turn.ended || !(self.initiative_settled() || self.roster.entities.is_empty()) {
            return;
        }
        let standing: Vec<&String> = self.turn.alive_by_side.iter().filter(|(_, n)| **n > 0).map(|(s, _)| s).collect();
        if standing.len() <= 1 {
            let winner = standing.first().map(|s| (*s).clone());
            self.finish_combat(winner);
        }
    }

    /// Whether every creature still on the timeline is unable to act.
    fn only_prevented_scheduled(&self) -> bool {
        self.timeline.upcoming(usize::MAX).iter().all(|k| self.cannot_act(k.who) && !self.can_recover(k.who))
    }

    /// Whether any standing creature is free to act: not prevented, or able to try the Recovery
    /// Action. A creature whose next turn is more than a round away, or who is delaying or holding,
    /// still counts: the fight is not stuck (the stalemate rule).
    fn anyone_could_act(&self) -> bool {
        (0..self.roster.entities.len() as u32)
            .map(Cid)
            .any(|c| !self.is_down(c) && (!self.cannot_act(c) || self.can_recover(c)))
    }

    /// End the combat as a draw, logging why.
    pub(crate) fn draw(&mut self, reason: DrawReason) {
        if self.turn.ended {
            return;
        }
        let round = self.turn.round;
        self.emit(CombatEvent::CombatDrawn { reason, round });
        self.finish_combat(None);
    }

    fn finish_combat(&mut self, winner: Option<String>) {
        self.turn.ended = true;
        self.turn.winner = winner.clone();
        self.turn.active = None;
        self.pending.0 = None;
        self.work.0.clear();
        self.emit(CombatEvent::CombatEnded { winner });
    }
}

/// Groups of creatures whose keys are equal, each in id order.
fn tied_groups(keys: &BTreeMap<Cid, Vec<i32>>) -> Vec<Vec<Cid>> {
    let mut groups: BTreeMap<Vec<i32>, Vec<Cid>> = BTreeMap::new();
    for (c, k) in keys {
        groups.entry(k.clone()).or_default().push(*c);
    }
    groups.into_values().filter(|g| g.len() > 1).collect()
}
