//! Initiative, rounds and turns: HB-01..HB-07 with G-HB-01..04 and G-HB-17.
//!
//! Turns come off the [`Timeline`](super::timeline::Timeline): the same code serves a fixed cycle
//! of rounds and a segment clock.

use std::collections::BTreeMap;

use super::components::Cid;
use super::components::InitiativeSetup;
use super::log::{CombatEvent, EndReason, Via};
use super::ruleset::{ActionBudget, TieBreaker, TurnModel};
use super::state::{Rules, Work};
use super::timeline::TurnKey;

impl Rules<'_, '_> {
    /// Roll initiative for everyone (HB-04), sort it (HB-05, G-HB-01) and schedule round 1.
    pub fn start_combat(&mut self) {
        let n = self.roster.entities.len() as u32;
        let name = self.ruleset.name.clone();
        let seed = self.turn.seed;
        self.emit(CombatEvent::CombatStarted {
            ruleset: name,
            seed,
        });
        let stat = self.ruleset.initiative.stat.clone();
        let dice = self.ruleset.initiative.dice.clone();
        let mut rows: Vec<(Cid, i32)> = Vec::new();
        for i in 0..n {
            let who = Cid(i);
            let bonus = self.stat(who, &stat);
            let (roll, total) = match *self.c(who).setup {
                InitiativeSetup::Rolled => {
                    let s = self.c(who).stats.clone();
                    let r = self.dice.roll_expr(&dice, |k| s.get(k));
                    // roll_expr adds stats named in the dice; the initiative stat is added below.
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
            self.emit(CombatEvent::InitiativeRolled {
                who,
                roll,
                bonus,
                total,
            });
            rows.push((who, total));
        }
        let order = self.sort_initiative(rows);
        let first = self.timeline.first_time();
        let actions = match self.ruleset.budget {
            ActionBudget::PerRoundPool { actions } => actions,
            ActionBudget::OneTimedActionPerTurn => 1,
        };
        let mut alive: BTreeMap<String, u32> = BTreeMap::new();
        for (rank, who) in order.iter().enumerate() {
            let down = self.is_down(*who);
            {
                let mut c = self.cm(*who);
                c.initiative.rank = rank as u32;
                c.pool.max = actions;
                c.pool.spent = 0;
            }
            if !down {
                *alive.entry(self.c(*who).side.0.clone()).or_default() += 1;
                self.timeline.schedule(TurnKey {
                    time: first,
                    rank: rank as u32,
                    who: *who,
                });
            }
        }
        self.turn.alive_by_side = alive;
        self.turn.order = order.clone();
        self.turn.started = true;
        self.emit(CombatEvent::InitiativeOrder { order });
        self.check_combat_end();
    }

    /// Sort by total (descending), then by each tie-breaker in turn (G-HB-01).
    fn sort_initiative(&mut self, rows: Vec<(Cid, i32)>) -> Vec<Cid> {
        let breakers = self.ruleset.initiative.tie_breakers.clone();
        // Each creature's sort key grows one entry per tie-breaker; roll-offs only for the tied.
        let mut keys: BTreeMap<Cid, Vec<i32>> = rows.iter().map(|(c, t)| (*c, vec![*t])).collect();
        for b in &breakers {
            match b {
                TieBreaker::HigherStat(s) => {
                    for (c, k) in keys.iter_mut() {
                        k.push(self.c(*c).stats.get(s));
                    }
                }
                TieBreaker::RollOff => self.roll_off(&mut keys),
            }
        }
        let mut order: Vec<Cid> = keys.keys().copied().collect();
        order.sort_by(|a, b| keys[b].cmp(&keys[a]).then(a.cmp(b)));
        order
    }

    /// Tied creatures roll the initiative die, higher first, repeating until no tie is left.
    fn roll_off(&mut self, keys: &mut BTreeMap<Cid, Vec<i32>>) {
        let die = self.ruleset.initiative.dice.sides.max(2);
        for _round in 0..64 {
            let mut groups: BTreeMap<Vec<i32>, Vec<Cid>> = BTreeMap::new();
            for (c, k) in keys.iter() {
                groups.entry(k.clone()).or_default().push(*c);
            }
            let tied: Vec<Vec<Cid>> = groups.into_values().filter(|g| g.len() > 1).collect();
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

    /// Take the next scheduled turn, crossing a round boundary if needed. Returns false if none.
    pub fn begin_next_turn(&mut self) -> bool {
        while let Some(key) = self.timeline.pop() {
            let (round, _) = self.timeline.round_and_segment(key.time);
            if round > self.turn.round {
                if self.turn.round > 0 {
                    self.end_round();
                }
                self.start_round(round);
            }
            let who = key.who;
            if self.is_down(who) {
                continue;
            }
            if self.cannot_act(who) {
                // G-HB-19: a creature marked unable to act takes no actions; it keeps its slot.
                self.emit(CombatEvent::TurnSkipped {
                    who,
                    reason: "cannot act".into(),
                });
                let t = self.timeline.next_time(key.time, None);
                self.timeline.schedule(TurnKey { time: t, ..key });
                continue;
            }
            self.turn.active = Some(who);
            self.turn.end_requested = false;
            self.turn.last_recovery = None;
            let per_turn = self.ruleset.budget == ActionBudget::OneTimedActionPerTurn;
            {
                let mut c = self.cm(who);
                c.pool.uses_this_turn.clear();
                if per_turn {
                    c.pool.spent = 0;
                }
            }
            self.emit(CombatEvent::TurnStarted {
                who,
                round,
                time: key.time,
            });
            self.continue_activity(who);
            return true;
        }
        false
    }

    /// HB-27: the first actions of each later turn go into the spread activity until it is paid.
    fn continue_activity(&mut self, who: Cid) {
        let Some(mut act) = self.c(who).casting.0.clone() else {
            return;
        };
        let available = self.c(who).pool.available();
        let pay = available.min(act.cost - act.paid);
        act.paid += pay;
        let remaining = act.cost - act.paid;
        self.cm(who).pool.spent += pay;
        self.emit(CombatEvent::ActivityProgressed {
            who,
            ability: act.ability.clone(),
            paid_now: pay,
            remaining,
        });
        if remaining == 0 {
            // HB-26: it takes effect when the last action of its cost is spent.
            self.cm(who).casting.0 = None;
            self.emit(CombatEvent::ActivityCompleted {
                who,
                ability: act.ability.clone(),
            });
            self.push_front_all(vec![Work::Effect {
                who,
                ability: act.ability,
                targets: act.targets,
                to: act.dest,
                mode: act.mode,
                via: Via::Turn,
                surprise: false,
            }]);
        } else {
            self.cm(who).casting.0 = Some(act);
        }
    }

    /// Whether the active turn is over: asked to end, out of actions, down or unable to act (G-HB-04).
    pub fn turn_is_over(&self, who: Cid) -> bool {
        if self.turn.end_requested || self.is_down(who) || self.cannot_act(who) {
            return true;
        }
        let c = self.c(who);
        match self.ruleset.budget {
            ActionBudget::PerRoundPool { .. } => c.pool.available() == 0,
            ActionBudget::OneTimedActionPerTurn => c.pool.spent >= 1,
        }
    }

    /// End the active turn and schedule the creature's next one.
    pub fn end_turn(&mut self, who: Cid) {
        let left = self.c(who).pool.available();
        self.emit(CombatEvent::TurnEnded {
            who,
            actions_left: left,
        });
        self.turn.active = None;
        self.turn.end_requested = false;
        if !self.is_down(who) {
            let now = self.timeline.now;
            let t = self.timeline.next_time(now, self.turn.last_recovery);
            let rank = self.rank(who);
            self.timeline.schedule(TurnKey { time: t, rank, who });
        }
    }

    /// Round start: refill every pool (G-HB-03) and say how long the round lasts (HB-02).
    fn start_round(&mut self, round: u32) {
        self.turn.round = round;
        if let ActionBudget::PerRoundPool { .. } = self.ruleset.budget {
            for who in self.turn.order.clone() {
                self.cm(who).pool.spent = 0;
            }
        }
        let participants: u32 = self.turn.alive_by_side.values().sum();
        let seconds = self.ruleset.seconds_per_turn * participants;
        self.emit(CombatEvent::RoundStarted { round, seconds });
    }

    /// Round end (HB-07, G-HB-04): unspent actions are forfeited, held actions and disengage
    /// protection lapse (G-HB-12, G-HB-20), and durations tick (G-HB-17).
    fn end_round(&mut self) {
        for who in self.turn.order.clone() {
            if self.is_down(who) {
                continue;
            }
            let left = self.c(who).pool.available();
            if left > 0 && matches!(self.ruleset.budget, ActionBudget::PerRoundPool { .. }) {
                self.emit(CombatEvent::ActionsForfeited { who, count: left });
            }
            let held = std::mem::take(&mut self.cm(who).held.0);
            if !held.is_empty() {
                let rank = self.rank(who);
                self.turn.holders.remove(&(rank, who));
                self.emit(CombatEvent::HeldActionsLapsed {
                    who,
                    count: held.len() as u32,
                });
            }
            self.cm(who).disengaged.0.clear();
            self.tick_durations(who);
        }
        let round = self.turn.round;
        self.emit(CombatEvent::RoundEnded { round });
    }

    /// Effects lasting N rounds lose one at round end and end at 0 (G-HB-17).
    fn tick_durations(&mut self, who: Cid) {
        let mut ended = Vec::new();
        {
            let mut c = self.cm(who);
            for (id, st) in c.conditions.0.iter_mut() {
                if let Some(r) = st.rounds_left.as_mut() {
                    *r = r.saturating_sub(1);
                    if *r == 0 {
                        ended.push(id.clone());
                    }
                }
            }
            for id in &ended {
                c.conditions.0.remove(id);
            }
        }
        for condition in ended {
            self.emit(CombatEvent::ConditionEnded {
                who,
                condition,
                reason: EndReason::Expired,
            });
        }
    }

    /// End the combat when at most one side is left standing.
    pub fn check_combat_end(&mut self) {
        if self.turn.ended {
            return;
        }
        let standing: Vec<&String> = self
            .turn
            .alive_by_side
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(s, _)| s)
            .collect();
        if standing.len() <= 1 {
            let winner = standing.first().map(|s| (*s).clone());
            self.turn.ended = true;
            self.turn.winner = winner.clone();
            self.turn.active = None;
            self.pending.0 = None;
            self.work.0.clear();
            self.emit(CombatEvent::CombatEnded { winner });
        }
    }

    /// The round and segment a time stands for (segment 0 in a fixed cycle).
    pub fn clock(&self) -> (u32, u32) {
        match self.timeline.model {
            Some(TurnModel::RecoveryTime { .. }) => {
                self.timeline.round_and_segment(self.timeline.now)
            }
            _ => (self.turn.round, 0),
        }
    }
}
