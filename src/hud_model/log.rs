//! The combat log as the HUD shows it: entries that read as sentences with their dice, each
//! tagged with the rule ID that produced it, filterable by creature and kind, exported as JSON
//! lines.
//!
//! An attack and what answers it (the defensive roll or the AC, hit or miss, the damage) make one
//! entry: "Orc attacks Knight with Axe: 1d20 14 + STR 3 = 17 vs Parry 1d20 12 + STR 3 = 15 — hit,
//! 6 damage (4 hp left)". [`LogView::update`] reads only the events added since its last call, so
//! a long log costs nothing per frame.

use serde::Serialize;

use crate::i18n::Tr;
use crate::tr;

use super::rules_ref::event_rule;
use crate::rules::command::{Choice, DefenseMethod};
use crate::rules::components::{Cid, Stats};
use crate::rules::driver::Combat;
use crate::rules::log::CombatEvent;
use crate::rules::ruleset::{DefenseRule, Ruleset};

mod sentences;
pub use sentences::*;

/// What an entry is about, for the log's filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Category {
    /// Rounds, turns, initiative, turn steps, regained actions.
    Turn,
    /// Attacks, defences, damage, healing, saves, downs.
    Attack,
    /// Movement and attacks of opportunity.
    Movement,
    /// Conditions applied, changed or ended.
    Condition,
    /// Openings, decisions, Assist, held and readied actions.
    Decision,
    /// Casts, focus, activities over turns, Delay.
    Casting,
    /// Everything else: abilities used, the start and end of the fight.
    Other,
}

impl Category {
    /// Every category, in the filter's order.
    pub const ALL: [Category; 7] = [
        Category::Turn,
        Category::Attack,
        Category::Movement,
        Category::Condition,
        Category::Decision,
        Category::Casting,
        Category::Other,
    ];

    /// Its name in the filter, in a language.
    pub fn label_in(self, tr: &Tr) -> String {
        tr.t(match self {
            Category::Turn => "category-turns",
            Category::Attack => "category-attacks",
            Category::Movement => "category-movement",
            Category::Condition => "category-conditions",
            Category::Decision => "category-decisions",
            Category::Casting => "category-casting",
            Category::Other => "category-other",
        })
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    /// Index of its first event in the combat log.
    pub first: usize,
    /// Index of its last event.
    pub last: usize,
    /// The round it happened in (0 before the first round and in the surprise round).
    pub round: u32,
    /// The first event's kind, e.g. `AttackRolled`.
    pub kind: String,
    /// Its category.
    pub category: Category,
    /// The creatures it is about.
    pub actors: Vec<Cid>,
    /// The sentence.
    pub text: String,
    /// The rule that produced it.
    pub rule: Option<&'static str>,
}

/// Which entries to show.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogFilter {
    /// Only entries about this creature.
    pub who: Option<Cid>,
    /// Hide these categories.
    pub hidden: Vec<Category>,
}

impl LogFilter {
    /// Whether an entry passes.
    pub(crate) fn keeps(&self, e: &LogEntry) -> bool {
        self.who.is_none_or(|w| e.actors.contains(&w)) && !self.hidden.contains(&e.category)
    }
}

/// The log as entries, kept up to date incrementally.
#[derive(Debug, Clone, Default)]
pub struct LogView {
    entries: Vec<LogEntry>,
    consumed: usize,
    round: u32,
    /// The entry of an attack still collecting its answer (defence, hit or miss, damage).
    open_attack: Option<(usize, Cid)>,
    /// The start- or end-of-turn step running (pf2e's Steps 1 and 3): events in it that no rule
    /// of their own names are the step's doing.
    step: Option<&'static str>,
    /// The language the sentences are in.
    tr: Tr,
    /// Sides by their names in that language (the encounter's `names`), for the winner.
    sides: std::collections::BTreeMap<String, String>,
}

/// The rule behind a start- or end-of-turn step (P2-03).
fn step_rule(step: &crate::rules::ruleset::TurnStep) -> &'static str {
    use crate::rules::ruleset::TurnStep::*;
    match step {
        TickOwnEffects => "P2-05",
        TurnBeginsTrigger => "P2-06",
        RecoveryCheck => "P2-07",
        StartOther => "P2-08",
        Regain => "P2-09",
        EndUntilEndOfTurn => "P2-21",
        TickOwnerTurns => "P2-22",
        PersistentDamage | PersistentFlatChecks | AfflictionSaves => "P2-23",
        DecrementValued => "P2-24",
        TurnEndsTrigger => "P2-25",
        EndOther => "P2-26",
    }
}

impl LogView {
    /// An empty view whose sentences are in the language of `tr`.
    pub fn in_language(tr: &Tr) -> LogView {
        LogView { tr: tr.clone(), ..LogView::default() }
    }

    /// Switch the sentences to the language of `tr`: a different language reads the whole log
    /// again at the next [`LogView::update`].
    pub fn set_language(&mut self, tr: &Tr) {
        if self.tr.code() != tr.code() || !std::sync::Arc::ptr_eq(self.tr.catalogs(), tr.catalogs()) {
            *self = LogView { sides: std::mem::take(&mut self.sides), ..LogView::in_language(tr) };
        }
    }

    /// The sides' names in the view's language: different names read the log again.
    pub fn set_side_names(&mut self, sides: std::collections::BTreeMap<String, String>) {
        if self.sides != sides {
            *self = LogView { sides, ..LogView::in_language(&self.tr) };
        }
    }

    /// Read the events added since the last call. A log that got shorter (a new combat, an
    /// undo) is read again from the start.
    pub fn update(&mut self, combat: &Combat) {
        let log = combat.log();
        if log.events.len() < self.consumed {
            *self = LogView { tr: self.tr.clone(), sides: std::mem::take(&mut self.sides), ..LogView::default() };
        }
        let rs = combat.ruleset();
        // The creatures' names in the view's language (the encounter's `names`), else the log's.
        let code = self.tr.code().to_string();
        let names = |c: Cid| match combat.get::<crate::rules::components::LocalNames>(c).and_then(|n| n.0.get(&code)) {
            Some(n) => n.clone(),
            None => log.names.get(c.0 as usize).cloned().unwrap_or_else(|| format!("#{}", c.0)),
        };
        let stat = |c: Cid, s: &str| combat.get::<Stats>(c).map_or(0, |st| st.get(s));
        for i in self.consumed..log.events.len() {
            let e = &log.events[i];
            // Regaining actions is the last thing Step 1 does: what follows it (the turn's
            // actions, a GM's input) is no longer that step's.
            if i > 0 && matches!(log.events[i - 1], CombatEvent::ActionsRegained { .. }) {
                self.step = None;
            }
            match e {
                CombatEvent::RoundStarted { round, .. } => self.round = *round,
                CombatEvent::TurnStepBegan { step, .. } => self.step = Some(step_rule(step)),
                CombatEvent::TurnStarted { .. } | CombatEvent::TurnEnded { .. } | CombatEvent::AbilityUsed { .. } => {
                    self.step = None
                }
                _ => {}
            }
            if let Some((at, target)) = self.open_attack
                && answers_attack(e, target)
            {
                let entry = &mut self.entries[at];
                entry.last = i;
                entry.text = attack_sentence(rs, &self.tr, &log.events[entry.first..=i], &names, &stat);
                if let CombatEvent::Damaged { .. } = e {
                    self.open_attack = None;
                }
                continue;
            }
            self.open_attack = None;
            if let CombatEvent::AttackRolled { attacker, target, .. } = e {
                self.open_attack = Some((self.entries.len(), *target));
                self.entries.push(LogEntry {
                    first: i,
                    last: i,
                    round: self.round,
                    kind: "AttackRolled".into(),
                    category: Category::Attack,
                    actors: vec![*attacker, *target],
                    text: attack_sentence(rs, &self.tr, std::slice::from_ref(e), &names, &stat),
                    rule: event_rule(rs, e),
                });
                continue;
            }
            let sentence = match e {
                CombatEvent::CombatEnded { winner: Some(w) } => {
                    Some(tr!(self.tr, "log-combat-won", side = self.sides.get(w).unwrap_or(w)))
                }
                _ => sentence_in(rs, &self.tr, e, &names),
            };
            let Some(text) = sentence else { continue };
            self.entries.push(LogEntry {
                first: i,
                last: i,
                round: self.round,
                kind: e.kind(),
                category: category(e),
                actors: actors(e),
                text,
                // Inside a pf2e turn step, the step is the rule for what it does (damage, saves,
                // conditions changing or ending); otherwise the event's own rule.
                rule: match e {
                    CombatEvent::Damaged { .. }
                    | CombatEvent::Healed { .. }
                    | CombatEvent::SaveRolled { .. }
                    | CombatEvent::ConditionApplied { .. }
                    | CombatEvent::ConditionValueChanged { .. }
                    | CombatEvent::ConditionEnded { .. } => {
                        self.step.or_else(|| event_rule(rs, e)).or_else(|| match e {
                            // Otherwise a condition put on is tagged with the rule of what it does.
                            CombatEvent::ConditionApplied { condition, .. } => {
                                super::rules_ref::condition_rule_ids(rs, condition).first().copied()
                            }
                            _ => None,
                        })
                    }
                    _ => event_rule(rs, e).or(self.step),
                },
            });
        }
        self.consumed = log.events.len();
    }

    /// Every entry, oldest first.
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// The entries a filter keeps, oldest first.
    pub fn filtered<'a>(&'a self, f: &'a LogFilter) -> impl Iterator<Item = &'a LogEntry> + 'a {
        self.entries.iter().filter(move |e| f.keeps(e))
    }

    /// The log as JSON lines: one object per entry with its round, category, rule, sentence,
    /// the creatures' names, and the raw events it stands for.
    pub fn to_jsonl(&self, combat: &Combat) -> String {
        let log = combat.log();
        let mut out = String::new();
        for e in &self.entries {
            let line = serde_json::json!({
                "index": e.first,
                "round": e.round,
                "kind": e.kind,
                "category": e.category,
                "rule": e.rule,
                "actors": e.actors.iter().map(|c| log.name(*c)).collect::<Vec<_>>(),
                "text": e.text,
                "events": &log.events[e.first..=e.last],
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
        out
    }
}

/// Whether an event belongs to the attack entry on `target` still open.
fn answers_attack(e: &CombatEvent, target: Cid) -> bool {
    use CombatEvent::*;
    match e {
        AssistUsed { .. }
        | DefenseDeclared { .. }
        | NoDefensePossible { .. }
        | DefenseRolled { .. }
        | AttackBlocked { .. }
        | AttackHit { .. }
        | AttackMissed { .. }
        | RollModified { .. } => true,
        DecisionRequested { about, .. } => about.starts_with("Defense") || about.contains("defen"),
        DecisionMade { choice: Choice::Defend(_), .. } => true,
        Damaged { who, .. } => *who == target,
        _ => false,
    }
}

fn defense_stat(rs: &Ruleset, m: DefenseMethod) -> String {
    match (&rs.defense, m) {
        (DefenseRule::ActiveRoll { dodge_stat, .. }, DefenseMethod::Dodge) => dodge_stat.clone(),
        (DefenseRule::ActiveRoll { parry_stat, .. }, DefenseMethod::Parry) => parry_stat.clone(),
        _ => String::new(),
    }
}

fn category(e: &CombatEvent) -> Category {
    use CombatEvent::*;
    match e {
        InitiativeRolled { .. }
        | InitiativeRollOff { .. }
        | InitiativeOrder { .. }
        | RoundStarted { .. }
        | RoundEnded { .. }
        | TurnStarted { .. }
        | TurnSkipped { .. }
        | TurnEnded { .. }
        | TurnStepBegan { .. }
        | ActionsRegained { .. }
        | ActionsForfeited { .. }
        | SurpriseRound { .. }
        | AwarenessSet { .. } => Category::Turn,
        AttackRolled { .. }
        | AssistUsed { .. }
        | DefenseDeclared { .. }
        | NoDefensePossible { .. }
        | DefenseRolled { .. }
        | AttackBlocked { .. }
        | AttackHit { .. }
        | AttackMissed { .. }
        | Damaged { .. }
        | Downed { .. }
        | Healed { .. }
        | SaveRolled { .. }
        | RecoveryCheck { .. }
        | FlatCheck { .. }
        | RollModified { .. }
        | PermanentWound { .. } => Category::Attack,
        Moved { .. }
        | MoveStopped { .. }
        | Disengaged { .. }
        | OpportunityProvoked { .. }
        | OpportunityDeclined { .. }
        | NoOpportunity { .. } => Category::Movement,
        ConditionApplied { .. }
        | ConditionValueChanged { .. }
        | ConditionUnchanged { .. }
        | ConditionEnded { .. }
        | ExpiredBeforeCount { .. } => Category::Condition,
        OpeningCreated { .. }
        | OpeningPassed { .. }
        | OpeningSkipped { .. }
        | OpeningClosed { .. }
        | DecisionRequested { .. }
        | DecisionMade { .. }
        | AssistGranted { .. }
        | AssistDenied { .. }
        | AssistMadeArea { .. }
        | ActionHeld { .. }
        | HeldActionTriggered { .. }
        | HeldActionsLost { .. }
        | HeldActionsLapsed { .. }
        | ReadyNotUsed { .. } => Category::Decision,
        ActivityStarted { .. }
        | ActivityProgressed { .. }
        | ActivityCompleted { .. }
        | ActivityInterrupted { .. }
        | CastAnnounced { .. }
        | CastHeld { .. }
        | HoldAccrued { .. }
        | CastReleased { .. }
        | ConcentrationBroken { .. }
        | ComponentConsumed { .. }
        | ActionDisrupted { .. }
        | Sustained { .. }
        | Delayed { .. }
        | ReturnedFromDelay { .. }
        | DelayLapsed { .. }
        | InitiativeMoved { .. } => Category::Casting,
        _ => Category::Other,
    }
}

fn actors(e: &CombatEvent) -> Vec<Cid> {
    use CombatEvent::*;
    let mut v: Vec<Cid> = e.subject().into_iter().collect();
    match e {
        AbilityUsed { targets, .. } => v.extend(targets.iter().copied()),
        AttackRolled { target, .. }
        | AttackBlocked { target, .. }
        | AttackHit { target, .. }
        | AttackMissed { target, .. } => v.push(*target),
        OpportunityProvoked { from, .. } | NoOpportunity { from, .. } => v.push(*from),
        AssistGranted { to, .. } | AssistDenied { to, .. } => v.push(*to),
        HeldActionTriggered { by, .. } => v.push(*by),
        ReturnedFromDelay { after, .. } => v.push(*after),
        InitiativeMoved { before, .. } => v.push(*before),
        OpeningCreated { eligible, .. } => v.extend(eligible.iter().copied()),
        SurpriseRound { aware } => v.extend(aware.iter().copied()),
        InitiativeOrder { order } => v.extend(order.iter().copied()),
        InitiativeRollOff { tied, .. } => v.extend(tied.iter().copied()),
        Disengaged { from, .. } => v.extend(from.iter().copied()),
        _ => {}
    }
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::DieRoll;
    use crate::rules::log::{EndReason, NoOpportunityReason};

    /// Every way a condition can end has its own words (issue 23: a pf2e creature whose recovery
    /// check brought dying to 0 read "its time is up"), and its own rule reference where it has one.
    #[test]
    fn every_condition_end_reason_has_its_own_sentence() {
        let all = [
            EndReason::Expired,
            EndReason::PermanentWound,
            EndReason::NegativeStatus,
            EndReason::FirstTurn,
            EndReason::RemovedByMod,
            EndReason::Recovered,
            EndReason::Healed,
            EndReason::SaveSucceeded,
            EndReason::FlatCheckPassed,
            EndReason::WoreOff,
            EndReason::ActionsLost,
            EndReason::NotSustained,
        ];
        // A new reason must be listed above (this match stops compiling without it).
        for r in all {
            match r {
                EndReason::Expired
                | EndReason::PermanentWound
                | EndReason::NegativeStatus
                | EndReason::FirstTurn
                | EndReason::RemovedByMod
                | EndReason::Recovered
                | EndReason::Healed
                | EndReason::SaveSucceeded
                | EndReason::FlatCheckPassed
                | EndReason::WoreOff
                | EndReason::ActionsLost
                | EndReason::NotSustained => {}
            }
        }
        let rs = crate::rules::ruleset::Ruleset::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/pf2e.ron"),
        )
        .unwrap();
        let names = |_: Cid| "Shaman".to_string();
        let said: Vec<String> = all
            .iter()
            .map(|r| {
                let e = CombatEvent::ConditionEnded { who: Cid(0), condition: "dying".into(), reason: *r };
                sentence(&rs, &e, &names).unwrap()
            })
            .collect();
        for (r, s) in all.iter().zip(&said) {
            assert!(s.starts_with("Shaman's dying ends: "), "{r:?}: {s}");
        }
        let mut distinct = said.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), all.len(), "two reasons share words: {said:?}");
        let of = |r: EndReason| said[all.iter().position(|x| *x == r).unwrap()].clone();
        assert_eq!(of(EndReason::Recovered), "Shaman's dying ends: it recovered.");
        assert_eq!(of(EndReason::Healed), "Shaman's dying ends: it was healed.");
        assert_eq!(of(EndReason::Expired), "Shaman's dying ends: its time is up.");
        assert_eq!(of(EndReason::WoreOff), "Shaman's dying ends: it wore off.");
        assert_eq!(of(EndReason::RemovedByMod), "Shaman's dying ends: a mod removed it.");
    }

    /// An attack's entry says the Assist that helped it and that no defensive roll was possible.
    /// Found by cargo-mutants (issue 26).
    #[test]
    fn an_attack_sentence_says_the_assist_and_no_defence_possible() {
        let rs = crate::rules::ruleset::Ruleset::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron"),
        )
        .unwrap();
        let names = |c: Cid| ["Knight", "Orc", "Ranger"][c.0 as usize].to_string();
        let stat = |_: Cid, _: &str| 2;
        let (k, o, r) = (Cid(0), Cid(1), Cid(2));
        let events = [
            CombatEvent::AttackRolled {
                attacker: k,
                target: o,
                ability: "sword".into(),
                kind: crate::rules::ruleset::AttackKind::Melee,
                roll: 12,
                bonus: 4,
                total: 16,
                flanking: 0,
                dice: vec![DieRoll { sides: 20, value: 12, kept: true, negative: false }],
            },
            CombatEvent::AssistUsed { who: k, from: vec![r], bonus: 2 },
            CombatEvent::NoDefensePossible { who: o },
            CombatEvent::AttackHit { attacker: k, target: o },
            CombatEvent::Damaged { who: o, amount: 7, hp: 3, dice: vec![] },
        ];
        assert_eq!(
            attack_sentence(&rs, &Tr::default(), &events, &names, &stat),
            "Knight attacks Orc with Sword: 1d20 12 + STR 2 + 2 = 16 (Assist +2) (no defensive roll possible) — hit, 7 damage (Orc 3 hp left)"
        );
    }

    /// An entry is about every creature its event names, for the log's creature filter.
    /// Found by cargo-mutants (issue 26).
    #[test]
    fn an_entry_is_about_every_creature_its_event_names() {
        use CombatEvent::*;
        let (a, b, c) = (Cid(0), Cid(1), Cid(2));
        assert_eq!(actors(&OpportunityProvoked { mover: a, from: b }), [a, b]);
        assert_eq!(actors(&NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::Busy }), [a, b]);
        assert_eq!(actors(&ReturnedFromDelay { who: a, after: b }), [a, b]);
        assert_eq!(actors(&SurpriseRound { aware: vec![b, c] }), [b, c]);
        assert_eq!(actors(&Disengaged { who: a, from: vec![b, c] }), [a, b, c]);
    }
}
