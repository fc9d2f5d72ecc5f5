//! Statistics of simulated combats, all derived from the typed combat log.
//!
//! One run gives a [`RunRecord`] (`RunRecord::from_log`); runs add up into a [`Tally`] of exact
//! integers (counts, sums and the round histogram). Everything a summary shows (win rates with
//! their Wilson intervals, round percentiles, per-round rates) is derived from a tally, so tallies
//! of shards add up to exactly the tally of the whole batch.

use serde::{Deserialize, Serialize};

use crate::rules::components::Cid;
use crate::rules::log::{CombatEvent, DrawReason, Via};

/// How one run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// This side (index into the encounter's sides) is the last one standing.
    Win(u16),
    /// A draw at the round cap.
    RoundCap,
    /// Another draw: nobody could act, the engine's work limit, or the side that was left is not
    /// one of the encounter's (never with checked data).
    OtherDraw,
    /// The AI ran out of its command budget before the combat ended (a stuck fight).
    Unfinished,
}

impl Outcome {
    /// The outcome in words for the CSV: the side's name, `draw-round-cap`, `draw` or `unfinished`.
    pub(crate) fn label(self, sides: &[String]) -> String {
        match self {
            Outcome::Win(s) => sides.get(s as usize).cloned().unwrap_or_else(|| format!("side{s}")),
            Outcome::RoundCap => "draw-round-cap".into(),
            Outcome::OtherDraw => "draw".into(),
            Outcome::Unfinished => "unfinished".into(),
        }
    }
}

/// What one combatant did in one run. Every field is a count or a sum of log events.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantCounts {
    /// Damage it dealt: `Damaged` events while its ability resolved (see `RunRecord::from_log`).
    pub damage_dealt: u64,
    /// Damage it took: the sum of its `Damaged` events.
    pub damage_taken: u64,
    /// Times it went down from standing (`Downed` while up).
    pub downs: u64,
    /// Times it died: a `Downed` while already down (pf2e's dying reached its limit), or any
    /// down under a ruleset without a dying state (`at_zero_hp: None`), where down is out for good.
    pub deaths: u64,
    /// Actions it paid: `AbilityUsed.cost` plus the parts of spread activities it paid
    /// (`ActivityStarted.paid`, `ActivityProgressed.paid_now`). Under typed action slots (pf1e),
    /// where the log's cost is 0, a use on its turn counts its action type's weight (see
    /// `typed_weight`).
    pub actions_spent: u64,
    /// Actions it forfeited (`ActionsForfeited.count`).
    pub actions_forfeited: u64,
    /// Reactions it took (`AbilityUsed` with `via: Reaction` or `Held`).
    pub reactions_taken: u64,
    /// Reactions aimed at it (the targets of others' `AbilityUsed` via `Reaction` or `Held`).
    pub reactions_provoked: u64,
    /// Openings it used (`AbilityUsed` with `via: Opening`).
    pub openings_taken: u64,
    /// Openings its actions created: `OpeningCreated` while its ability resolved (an AI GM's
    /// opening after a missed attack counts for the attacker; one the GM opens at the start of the
    /// next turn, when the miss was the attacker's last action, counts for nobody).
    pub openings_provoked: u64,
    /// Openings offered to it: a `DecisionRequested` of an `Opening` for it. Each is then taken
    /// or passed (`openings_taken + openings_passed <= openings_offered`, equal in a finished run).
    #[serde(default)]
    pub openings_offered: u64,
    /// Openings it let pass (`OpeningPassed`).
    #[serde(default)]
    pub openings_passed: u64,
    /// Attacks of opportunity it made: a reaction `AbilityUsed` answering an
    /// `OpportunityProvoked` that named it.
    pub aoo_taken: u64,
    /// Attacks of opportunity it provoked (`OpportunityProvoked` with it as the mover).
    pub aoo_provoked: u64,
}

impl CombatantCounts {
    /// Every count by its field name, in declaration order.
    pub(crate) fn fields(&self) -> [(&'static str, u64); 14] {
        [
            ("damage_dealt", self.damage_dealt),
            ("damage_taken", self.damage_taken),
            ("downs", self.downs),
            ("deaths", self.deaths),
            ("actions_spent", self.actions_spent),
            ("actions_forfeited", self.actions_forfeited),
            ("reactions_taken", self.reactions_taken),
            ("reactions_provoked", self.reactions_provoked),
            ("openings_taken", self.openings_taken),
            ("openings_provoked", self.openings_provoked),
            ("openings_offered", self.openings_offered),
            ("openings_passed", self.openings_passed),
            ("aoo_taken", self.aoo_taken),
            ("aoo_provoked", self.aoo_provoked),
        ]
    }

    fn fields_mut(&mut self) -> [&mut u64; 14] {
        [
            &mut self.damage_dealt,
            &mut self.damage_taken,
            &mut self.downs,
            &mut self.deaths,
            &mut self.actions_spent,
            &mut self.actions_forfeited,
            &mut self.reactions_taken,
            &mut self.reactions_provoked,
            &mut self.openings_taken,
            &mut self.openings_provoked,
            &mut self.openings_offered,
            &mut self.openings_passed,
            &mut self.aoo_taken,
            &mut self.aoo_provoked,
        ]
    }

    /// Add another's counts; on an overflow, the name of the field (and nothing is changed).
    fn add(&mut self, o: &CombatantCounts) -> Result<(), &'static str> {
        let mut sum = *self;
        for (a, (name, b)) in sum.fields_mut().into_iter().zip(o.fields()) {
            *a = a.checked_add(b).ok_or(name)?;
        }
        *self = sum;
        Ok(())
    }
}

/// `a + b`, or an error naming `field` when the sum does not fit in a u64.
fn sum(a: u64, b: u64, field: impl FnOnce() -> String) -> Result<u64, String> {
    a.checked_add(b).ok_or_else(|| format!("{}: {a} + {b} does not fit in 64 bits", field()))
}

/// One run: its outcome, how many rounds it took, and what every combatant did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRecord {
    /// Run index k (seed = S + k).
    pub run: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// The round it ended in.
    pub rounds: u32,
    /// Commands the AI sent.
    pub commands: u64,
    /// Per combatant, in id order.
    pub combatants: Vec<CombatantCounts>,
}

impl RunRecord {
    /// Read one run's statistics off its log events.
    ///
    /// Damage dealt and openings created are attributed to the creature whose ability is
    /// resolving: the last `AbilityUsed`, `AttackRolled`, `AttackHit`, `ActivityCompleted`,
    /// `CastReleased` or `HeldActionTriggered` since the last turn or round boundary
    /// (`TurnStarted`, `TurnStepBegan`, `TurnEnded`, `RoundStarted`, `RoundEnded`). Damage outside
    /// any ability (persistent damage at a turn step) is taken but dealt by nobody.
    ///
    /// `sides` are the encounter's side names; `rounds` the engine's round at the end;
    /// `finished` whether the combat ended; `dying` whether the ruleset has a dying state
    /// (`at_zero_hp`), which decides what counts as a death.
    pub(crate) fn from_log<'a>(
        run: u64,
        n: usize,
        sides: &[String],
        events: impl IntoIterator<Item = &'a CombatEvent>,
        rounds: u32,
        commands: u64,
        finished: bool,
        dying: bool,
        typed: &dyn Fn(&str) -> u64,
    ) -> RunRecord {
        let mut c = vec![CombatantCounts::default(); n];
        let mut down = vec![false; n];
        let mut source: Option<Cid> = None;
        // Enemies an `OpportunityProvoked` offered an attack to, not answered yet.
        let mut offered: Vec<Cid> = Vec::new();
        let mut outcome = if finished { Outcome::OtherDraw } else { Outcome::Unfinished };
        let mut at = |who: Cid| -> Option<usize> { ((who.0 as usize) < n).then_some(who.0 as usize) };
        for e in events {
            use CombatEvent::*;
            match e {
                TurnStarted { .. }
                | TurnStepBegan { .. }
                | TurnEnded { .. }
                | RoundStarted { .. }
                | RoundEnded { .. } => source = None,
                AbilityUsed { who, ability, cost, targets, via } => {
                    source = Some(*who);
                    if let Some(i) = at(*who) {
                        c[i].actions_spent +=
                            if *cost == 0 && *via == Via::Turn { typed(ability) } else { u64::from(*cost) };
                        match via {
                            Via::Reaction | Via::Held => {
                                c[i].reactions_taken += 1;
                                for t in targets {
                                    if let Some(j) = at(*t) {
                                        c[j].reactions_provoked += 1;
                                    }
                                }
                                if *via == Via::Reaction
                                    && let Some(p) = offered.iter().position(|o| o == who)
                                {
                                    offered.remove(p);
                                    c[i].aoo_taken += 1;
                                }
                            }
                            Via::Opening(_) => c[i].openings_taken += 1,
                            Via::Turn => {}
                        }
                    }
                }
                AttackRolled { attacker, .. } | AttackHit { attacker, .. } => source = Some(*attacker),
                ActivityCompleted { who, .. } | CastReleased { who, .. } | HeldActionTriggered { who, .. } => {
                    source = Some(*who)
                }
                ActivityStarted { who, paid, .. } => {
                    if let Some(i) = at(*who) {
                        c[i].actions_spent += u64::from(*paid);
                    }
                }
                ActivityProgressed { who, paid_now, .. } => {
                    if let Some(i) = at(*who) {
                        c[i].actions_spent += u64::from(*paid_now);
                    }
                }
                ActionsForfeited { who, count } => {
                    if let Some(i) = at(*who) {
                        c[i].actions_forfeited += u64::from(*count);
                    }
                }
                Damaged { who, amount, .. } => {
                    let amount = u64::try_from(*amount).unwrap_or(0);
                    if let Some(i) = at(*who) {
                        c[i].damage_taken += amount;
                    }
                    if let Some(i) = source.and_then(&mut at) {
                        c[i].damage_dealt += amount;
                    }
                }
                Healed { who, hp, .. } => {
                    if let Some(i) = at(*who)
                        && *hp > 0
                    {
                        down[i] = false;
                    }
                }
                Downed { who } => {
                    if let Some(i) = at(*who) {
                        if down[i] {
                            c[i].deaths += 1;
                        } else {
                            down[i] = true;
                            c[i].downs += 1;
                            if !dying {
                                c[i].deaths += 1;
                            }
                        }
                    }
                }
                OpportunityProvoked { mover, from } => {
                    if let Some(i) = at(*mover) {
                        c[i].aoo_provoked += 1;
                    }
                    offered.push(*from);
                }
                OpportunityDeclined { who } => offered.retain(|o| o != who),
                Moved { .. } | MoveStopped { .. } => offered.clear(),
                OpeningCreated { .. } => {
                    if let Some(i) = source.and_then(&mut at) {
                        c[i].openings_provoked += 1;
                    }
                }
                DecisionRequested { by: crate::rules::command::Decider::Creature(who), about }
                    if about == "Opening" =>
                {
                    if let Some(i) = at(*who) {
                        c[i].openings_offered += 1;
                    }
                }
                OpeningPassed { who, .. } => {
                    if let Some(i) = at(*who) {
                        c[i].openings_passed += 1;
                    }
                }
                CombatDrawn { reason: DrawReason::RoundCap(_), .. } => outcome = Outcome::RoundCap,
                CombatDrawn { .. } => outcome = Outcome::OtherDraw,
                CombatEnded { winner: Some(w) } => {
                    outcome = match sides.iter().position(|s| s == w) {
                        Some(s) => Outcome::Win(s as u16),
                        None => Outcome::OtherDraw,
                    }
                }
                _ => {}
            }
        }
        RunRecord { run, outcome, rounds, commands, combatants: c }
    }
}

/// The actions a use of `ability` takes under typed action slots (G-P1-01): a standard, move,
/// swift or immediate action 1, a full-round action 2, a free action or 5-foot step 0; and 0 for
/// every ability under other budgets, whose log gives the cost.
pub(crate) fn typed_weight(ruleset: &crate::rules::ruleset::Ruleset, ability: &str) -> u64 {
    use crate::rules::ruleset::{ActionBudget, ActionType};
    if !matches!(ruleset.budget, ActionBudget::TypedSlots { .. }) {
        return 0;
    }
    match ruleset.ability(ability).map(|d| d.action) {
        Some(ActionType::Standard | ActionType::Move | ActionType::Swift | ActionType::Immediate) => 1,
        Some(ActionType::FullRound) => 2,
        Some(ActionType::Free | ActionType::FiveFootStep) | None => 0,
    }
}

/// Exact integer aggregates of many runs under one ruleset. Tallies add up (see
/// [`Tally::merge`]): shards merged give the same tally as one batch.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tally {
    /// Runs counted.
    pub runs: u64,
    /// Wins per side, in the encounter's side order.
    pub wins: Vec<u64>,
    /// Draws at the round cap.
    pub draws_round_cap: u64,
    /// Other draws (nobody could act, the work limit).
    pub draws_other: u64,
    /// Runs the AI did not finish within its command budget.
    pub unfinished: u64,
    /// Sum of the rounds of every run.
    pub rounds_sum: u64,
    /// Runs per number of rounds: `rounds_histogram[r]` runs ended in round r.
    pub rounds_histogram: Vec<u64>,
    /// Commands sent in all.
    pub commands: u64,
    /// Per combatant, in id order: sums over runs.
    pub combatants: Vec<CombatantCounts>,
}

impl Tally {
    /// An empty tally for `sides` sides and `n` combatants.
    pub fn new(sides: usize, n: usize) -> Tally {
        Tally { wins: vec![0; sides], combatants: vec![CombatantCounts::default(); n], ..Default::default() }
    }

    /// Count one run. On an overflow (which real runs cannot reach) the error names the field,
    /// and the tally is left part-counted: the caller abandons it.
    pub(crate) fn add(&mut self, r: &RunRecord) -> Result<(), String> {
        self.runs = sum(self.runs, 1, || "runs".into())?;
        match r.outcome {
            Outcome::Win(s) => {
                if let Some(w) = self.wins.get_mut(s as usize) {
                    *w = sum(*w, 1, || format!("wins[{s}]"))?;
                }
            }
            Outcome::RoundCap => self.draws_round_cap = sum(self.draws_round_cap, 1, || "draws_round_cap".into())?,
            Outcome::OtherDraw => self.draws_other = sum(self.draws_other, 1, || "draws_other".into())?,
            Outcome::Unfinished => self.unfinished = sum(self.unfinished, 1, || "unfinished".into())?,
        }
        self.rounds_sum = sum(self.rounds_sum, u64::from(r.rounds), || "rounds_sum".into())?;
        let k = r.rounds as usize;
        if self.rounds_histogram.len() <= k {
            self.rounds_histogram.resize(k + 1, 0);
        }
        self.rounds_histogram[k] = sum(self.rounds_histogram[k], 1, || format!("rounds_histogram[{k}]"))?;
        self.commands = sum(self.commands, r.commands, || "commands".into())?;
        for (i, (a, c)) in self.combatants.iter_mut().zip(&r.combatants).enumerate() {
            a.add(c).map_err(|f| format!("combatants[{i}].{f}: the sum does not fit in 64 bits"))?;
        }
        Ok(())
    }

    /// Add another tally of the same encounter and ruleset, with checked arithmetic: on an
    /// overflow the error names the field (`combatants[2].damage_dealt: ...`) and the tally is
    /// unchanged.
    pub fn merge(&mut self, o: &Tally) -> Result<(), String> {
        let mut t = self.clone();
        t.runs = sum(t.runs, o.runs, || "runs".into())?;
        if t.wins.len() < o.wins.len() {
            t.wins.resize(o.wins.len(), 0);
        }
        for (i, (a, b)) in t.wins.iter_mut().zip(&o.wins).enumerate() {
            *a = sum(*a, *b, || format!("wins[{i}]"))?;
        }
        t.draws_round_cap = sum(t.draws_round_cap, o.draws_round_cap, || "draws_round_cap".into())?;
        t.draws_other = sum(t.draws_other, o.draws_other, || "draws_other".into())?;
        t.unfinished = sum(t.unfinished, o.unfinished, || "unfinished".into())?;
        t.rounds_sum = sum(t.rounds_sum, o.rounds_sum, || "rounds_sum".into())?;
        if t.rounds_histogram.len() < o.rounds_histogram.len() {
            t.rounds_histogram.resize(o.rounds_histogram.len(), 0);
        }
        for (i, (a, b)) in t.rounds_histogram.iter_mut().zip(&o.rounds_histogram).enumerate() {
            *a = sum(*a, *b, || format!("rounds_histogram[{i}]"))?;
        }
        t.commands = sum(t.commands, o.commands, || "commands".into())?;
        if t.combatants.len() < o.combatants.len() {
            t.combatants.resize(o.combatants.len(), CombatantCounts::default());
        }
        for (i, (a, b)) in t.combatants.iter_mut().zip(&o.combatants).enumerate() {
            a.add(b).map_err(|f| format!("combatants[{i}].{f}: the sum does not fit in 64 bits"))?;
        }
        *self = t;
        Ok(())
    }

    /// The nearest-rank p-th percentile of the rounds (p in percent, 0 < p <= 100): the smallest
    /// round r such that at least ⌈p·runs/100⌉ runs ended by round r. `None` with no runs.
    pub(crate) fn rounds_percentile(&self, p: u64) -> Option<u32> {
        if self.runs == 0 {
            return None;
        }
        let rank = (u128::from(p) * u128::from(self.runs)).div_ceil(100).max(1);
        let mut seen = 0u128;
        for (r, &n) in self.rounds_histogram.iter().enumerate() {
            seen += u128::from(n);
            if seen >= rank {
                return Some(r as u32);
            }
        }
        None
    }

    /// Mean rounds per run.
    pub(crate) fn rounds_mean(&self) -> Option<f64> {
        (self.runs > 0).then(|| self.rounds_sum as f64 / self.runs as f64)
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rate {
    /// successes / trials.
    pub rate: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials (`None` when n = 0).
pub fn wilson(k: u64, n: u64) -> Option<Rate> {
    if n == 0 {
        return None;
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Rate { rate: p, low: (center - half).max(0.0), high: (center + half).min(1.0) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: 0.5 (0.4038, 0.5962).
        let r = wilson(50, 100).unwrap();
        assert!((r.low - 0.4038).abs() < 1e-4 && (r.high - 0.5962).abs() < 1e-4, "{r:?}");
        // 0 of 10: upper bound 0.2775.
        let r = wilson(0, 10).unwrap();
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.2775).abs() < 1e-4, "{r:?}");
        assert!(wilson(0, 0).is_none());
    }

    /// The record of a two-creature log (0 and 1 on sides a and b), under a ruleset with a
    /// dying state or not, every ability costing its logged cost.
    fn record(events: &[CombatEvent], dying: bool) -> RunRecord {
        let sides = ["a".to_string(), "b".to_string()];
        RunRecord::from_log(0, 2, &sides, events, 1, 0, true, dying, &|_| 0)
    }

    fn used(who: u32, cost: u8) -> CombatEvent {
        CombatEvent::AbilityUsed { who: Cid(who), ability: "x".into(), cost, targets: vec![], via: Via::Turn }
    }

    fn damaged(who: u32, amount: i32) -> CombatEvent {
        CombatEvent::Damaged { who: Cid(who), amount, hp: 1, dice: vec![] }
    }

    // Found by cargo-mutants (issue 26): what the AI-played fights never show.
    #[test]
    fn damage_is_dealt_by_the_creature_whose_ability_resolves_and_by_nobody_between_turns() {
        use crate::rules::ruleset::AttackKind;
        let attack = |attacker: u32, target: u32| CombatEvent::AttackRolled {
            attacker: Cid(attacker),
            target: Cid(target),
            ability: "x".into(),
            kind: AttackKind::Melee,
            roll: 10,
            bonus: 0,
            total: 10,
            flanking: 0,
            dice: vec![],
        };
        let r = record(
            &[
                used(0, 1),
                damaged(1, 3),
                // An attack by 1 inside 0's ability (a riposte, say): 1 deals what follows.
                attack(1, 0),
                damaged(0, 2),
                // Persistent damage at a turn's step: taken, dealt by nobody.
                CombatEvent::TurnEnded { who: Cid(0), actions_left: 0 },
                damaged(1, 4),
                CombatEvent::RoundStarted { round: 2, seconds: 6 },
                damaged(0, 5),
            ],
            false,
        );
        let c = &r.combatants;
        assert_eq!((c[0].damage_dealt, c[1].damage_dealt), (3, 2));
        assert_eq!((c[0].damage_taken, c[1].damage_taken), (7, 7));
    }

    #[test]
    fn an_activity_spends_what_it_pays_when_it_starts_and_each_round_after() {
        let r = record(
            &[
                CombatEvent::ActivityStarted { who: Cid(1), ability: "ritual".into(), cost: 5, paid: 2 },
                CombatEvent::ActivityProgressed { who: Cid(1), ability: "ritual".into(), paid_now: 3, remaining: 0 },
                used(0, 1),
            ],
            false,
        );
        assert_eq!((r.combatants[0].actions_spent, r.combatants[1].actions_spent), (1, 5));
    }

    #[test]
    fn a_creature_healed_and_downed_again_goes_down_twice_and_one_downed_while_down_dies() {
        let healed = |hp| CombatEvent::Healed { who: Cid(1), amount: 3, hp, dice: vec![] };
        let down = CombatEvent::Downed { who: Cid(1) };
        // With a dying state: down, healed up, down again (two downs); down while down (a death).
        let r = record(&[down.clone(), healed(3), down.clone(), down.clone()], true);
        assert_eq!((r.combatants[1].downs, r.combatants[1].deaths), (2, 1));
        // A heal that leaves it at 0 hp does not bring it back up.
        let r = record(&[down.clone(), healed(0), down.clone()], true);
        assert_eq!((r.combatants[1].downs, r.combatants[1].deaths), (1, 1));
        // Without one, every down is a death.
        let r = record(&[down.clone(), healed(3), down], false);
        assert_eq!((r.combatants[1].downs, r.combatants[1].deaths), (2, 2));
    }

    #[test]
    fn an_attack_of_opportunity_is_taken_only_while_it_is_on_offer() {
        let reaction = |who: u32| CombatEvent::AbilityUsed {
            who: Cid(who),
            ability: "sword".into(),
            cost: 0,
            targets: vec![Cid(1)],
            via: Via::Reaction,
        };
        let offer = CombatEvent::OpportunityProvoked { mover: Cid(1), from: Cid(0) };
        // Taken while offered.
        let r = record(&[offer.clone(), reaction(0)], false);
        assert_eq!((r.combatants[0].aoo_taken, r.combatants[1].aoo_provoked), (1, 1));
        // Declined, or the mover moved on: a later reaction of the same creature is not it.
        let declined = CombatEvent::OpportunityDeclined { who: Cid(0) };
        let moved = CombatEvent::MoveStopped { who: Cid(1), at: crate::rules::components::GridPos { x: 1, y: 0 } };
        for between in [declined, moved] {
            let r = record(&[offer.clone(), between, reaction(0)], false);
            assert_eq!((r.combatants[0].aoo_taken, r.combatants[0].reactions_taken), (0, 1));
        }
        // Another creature declining leaves this one's offer open.
        let other = CombatEvent::OpportunityDeclined { who: Cid(1) };
        let r = record(&[offer, other, reaction(0)], false);
        assert_eq!(r.combatants[0].aoo_taken, 1);
    }

    #[test]
    fn a_draw_at_the_round_cap_is_told_from_other_draws() {
        let drawn = |reason| CombatEvent::CombatDrawn { reason, round: 5 };
        assert_eq!(record(&[drawn(DrawReason::RoundCap(5))], false).outcome, Outcome::RoundCap);
        assert_eq!(record(&[drawn(DrawReason::NobodyCanAct)], false).outcome, Outcome::OtherDraw);
        let sides = ["a".to_string(), "b".to_string()];
        let unfinished = RunRecord::from_log(0, 2, &sides, &[], 1, 0, false, false, &|_| 0);
        assert_eq!(unfinished.outcome, Outcome::Unfinished);
    }

    #[test]
    fn a_tally_merged_into_an_empty_one_keeps_every_count() {
        let mut full = Tally::new(2, 2);
        let mut r = record(&[used(0, 2), damaged(1, 3)], false);
        r.outcome = Outcome::Win(1);
        r.rounds = 3;
        full.add(&r).unwrap();
        let mut empty = Tally::default();
        empty.merge(&full).unwrap();
        assert_eq!(empty, full);
        let before = full.clone();
        full.merge(&Tally::default()).unwrap();
        assert_eq!(full.wins, before.wins);
        assert_eq!(full.combatants, before.combatants);
        // No runs, no mean.
        assert_eq!(Tally::new(2, 2).rounds_mean(), None);
        assert_eq!(full.rounds_mean(), Some(3.0));
    }

    #[test]
    fn percentiles_use_nearest_rank() {
        let mut t = Tally::new(2, 0);
        for r in [1u32, 2, 2, 3, 10] {
            t.add(&RunRecord { run: 0, outcome: Outcome::Win(0), rounds: r, commands: 0, combatants: vec![] }).unwrap();
        }
        assert_eq!(t.rounds_percentile(50), Some(2));
        assert_eq!(t.rounds_percentile(5), Some(1));
        assert_eq!(t.rounds_percentile(95), Some(10));
        assert_eq!(t.rounds_mean(), Some(3.6));
    }
}
