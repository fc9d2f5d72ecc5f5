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
use crate::rules::log::{CombatEvent, DamageScale};
use crate::rules::ruleset::{DefenseRule, RollOn, Ruleset};

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
    /// The entry of a saving throw whose degree (G-P2-24) may still follow its modifiers, and
    /// who saved.
    open_save: Option<(usize, Cid)>,
    /// The entry of a damage change outside an attack (a basic save's, G-P2-26) waiting for the
    /// `Damaged` it changed: who takes it, the damage rolled and taken, and how it was changed.
    open_scale: Option<(usize, Cid, i32, i32, DamageScale)>,
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
            // A save's degree comes after the save's own modifiers; anything else ends the save.
            if !matches!(
                e,
                CombatEvent::RollModified { on: RollOn::Save | RollOn::Dc, .. } | CombatEvent::SaveDegree { .. }
            ) {
                self.open_save = None;
            }
            let open_scale = self.open_scale.take();
            if let Some((at, target)) = self.open_attack
                && answers_attack(e, target)
            {
                let entry = &mut self.entries[at];
                entry.last = i;
                entry.text = attack_sentence(rs, &self.tr, &log.events[entry.first..=i], &names, &stat);
                entry.rule = attack_rule(rs, &log.events[entry.first..=i]);
                if let CombatEvent::Damaged { .. } = e {
                    self.open_attack = None;
                }
                continue;
            }
            self.open_attack = None;
            // Issue 50: the degree of a save goes into the save's sentence ("— critical failure").
            if let CombatEvent::SaveDegree { who, degree } = e
                && let Some((at, saver)) = self.open_save.take()
                && saver == *who
                && let Some(text) =
                    save_sentence_with_degree(rs, &self.tr, &log.events[self.entries[at].first], *degree, &names)
            {
                // The entry takes the event in when nothing came between (the save's modifiers
                // have entries of their own).
                let last = at + 1 == self.entries.len();
                let entry = &mut self.entries[at];
                entry.text = text;
                if last {
                    entry.last = i;
                }
                continue;
            }
            // A basic save's damage: the change and the damage it changed make one entry.
            if let Some((at, scaled_who, rolled, amount, scale)) = open_scale
                && let CombatEvent::Damaged { who, .. } = e
                && *who == scaled_who
                && let Some(text) = scaled_damage_sentence(rs, &self.tr, e, (rolled, amount, scale), &names)
            {
                let entry = &mut self.entries[at];
                entry.last = i;
                entry.text = text;
                continue;
            }
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
                    // Outside an attack, damage is changed by a basic save (G-P2-26).
                    CombatEvent::DamageScaled { .. } => Some("G-P2-26"),
                    _ => event_rule(rs, e).or(self.step),
                },
            });
            let at = self.entries.len() - 1;
            match e {
                CombatEvent::SaveRolled { who, .. } => self.open_save = Some((at, *who)),
                CombatEvent::DamageScaled { who, rolled, amount, scale } => {
                    self.open_scale = Some((at, *who, *rolled, *amount, *scale))
                }
                _ => {}
            }
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
        | RollModified { .. }
        | MultipleAttackPenalty { .. } => true,
        CritConfirmRolled { target: t, .. } | CriticalHit { target: t, .. } | CriticalMiss { target: t, .. } => {
            *t == target
        }
        DecisionRequested { about, .. } => about.starts_with("Defense") || about.contains("defen"),
        DecisionMade { choice: Choice::Defend(_), .. } => true,
        Damaged { who, .. } | DamageScaled { who, .. } => *who == target,
        _ => false,
    }
}

/// The rule an attack entry stands for: its roll's, else its critical hit's or critical
/// failure's (G-P2-24/25, G-P1-18), else its multiple attack penalty's (G-P2-23).
fn attack_rule(rs: &Ruleset, events: &[CombatEvent]) -> Option<&'static str> {
    use CombatEvent::*;
    let first = events.first().and_then(|e| event_rule(rs, e));
    let critical = events
        .iter()
        .filter(|e| matches!(e, CriticalHit { .. } | CritConfirmRolled { .. } | CriticalMiss { .. }))
        .find_map(|e| event_rule(rs, e));
    let penalty = events.iter().filter(|e| matches!(e, MultipleAttackPenalty { .. })).find_map(|e| event_rule(rs, e));
    first.or(critical).or(penalty)
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
        | PermanentWound { .. }
        | MultipleAttackPenalty { .. }
        | CritConfirmRolled { .. }
        | CriticalHit { .. }
        | CriticalMiss { .. }
        | SaveDegree { .. }
        | DamageScaled { .. } => Category::Attack,
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
        | AttackMissed { target, .. }
        | CritConfirmRolled { target, .. }
        | CriticalHit { target, .. }
        | CriticalMiss { target, .. } => v.push(*target),
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

    fn ruleset(name: &str) -> Ruleset {
        Ruleset::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{name}.ron")))
            .unwrap()
    }

    fn die(sides: u32, value: i32) -> DieRoll {
        DieRoll { sides, value, kept: true, negative: false }
    }

    /// An attack roll of the Fighter (Cid 0) on the Orc (Cid 1) with `ability`.
    fn rolled(ability: &str, roll: i32, bonus: i32) -> CombatEvent {
        CombatEvent::AttackRolled {
            attacker: Cid(0),
            target: Cid(1),
            ability: ability.into(),
            kind: crate::rules::ruleset::AttackKind::Melee,
            roll,
            bonus,
            total: roll + bonus,
            flanking: 0,
            dice: vec![die(20, roll)],
        }
    }

    /// Issue 50: a pf2e critical Strike reads "critical hit (×2)" in place of "hit", its multiple
    /// attack penalty is named in the roll's sum, and the damage shows its dice and the doubling.
    #[test]
    fn a_critical_hit_reads_as_one_with_its_doubled_damage() {
        use CombatEvent::*;
        let rs = ruleset("pf2e");
        let names = |c: Cid| ["Fighter", "Orc"][c.0 as usize].to_string();
        let stat = |_: Cid, _: &str| 5;
        let (f, o) = (Cid(0), Cid(1));
        let events = [
            rolled("strike", 20, 0),
            MultipleAttackPenalty { who: f, penalty: -5 },
            AttackHit { attacker: f, target: o },
            CriticalHit { attacker: f, target: o, multiplier: 2 },
            DamageScaled { who: o, rolled: 9, amount: 18, scale: crate::rules::log::DamageScale::Times(2) },
            Damaged { who: o, amount: 18, hp: 22, dice: vec![die(8, 4)] },
        ];
        assert_eq!(
            attack_sentence(&rs, &Tr::default(), &events, &names, &stat),
            "Fighter attacks Orc with Strike: 1d20 20 + STR 5 − multiple attack penalty 5 = 20 (natural 20) — critical hit (×2), \
             18 damage [1d8 4, 9 ×2] (Orc 22 hp left)"
        );
        for code in ["es", "ko"] {
            let t = attack_sentence(&rs, &Tr::strict(code), &events, &names, &stat);
            assert!(!t.contains('⟦') && t.contains("×2") && t.contains("−"), "{code}: {t}");
        }
        // A critical failure says so in place of the miss.
        let missed = [
            rolled("strike", 1, 5),
            AttackMissed { attacker: f, target: o, ac: 15 },
            CriticalMiss { attacker: f, target: o },
        ];
        assert_eq!(
            attack_sentence(&rs, &Tr::default(), &missed, &names, &stat),
            "Fighter attacks Orc with Strike: 1d20 1 + STR 5 = 6 (natural 1) vs AC 15 — critical failure"
        );
        // Every one of them belongs to the attack's entry.
        for e in events.iter().chain(&missed).filter(|e| !matches!(e, AttackRolled { .. })) {
            assert!(answers_attack(e, o), "{e:?}");
        }
        assert_eq!(attack_rule(&rs, &events), Some("G-P2-25"));
        assert_eq!(attack_rule(&rs, &events[..2]), Some("G-P2-23"));
    }

    /// Issue 50: a pf1e threat that fails to confirm says so, and reads as a plain hit; a
    /// confirmed one is a critical hit whose dice were rolled twice.
    #[test]
    fn a_pf1e_threat_says_whether_it_was_confirmed() {
        use CombatEvent::*;
        let rs = ruleset("pf1e");
        let names = |c: Cid| ["Fighter", "Orc"][c.0 as usize].to_string();
        let stat = |_: Cid, _: &str| 6;
        let (f, o) = (Cid(0), Cid(1));
        let unconfirmed = [
            rolled("melee_attack", 19, 6),
            AttackHit { attacker: f, target: o },
            CritConfirmRolled {
                attacker: f,
                target: o,
                roll: 3,
                bonus: 6,
                total: 9,
                ac: 17,
                confirmed: false,
                dice: vec![die(20, 3)],
            },
            Damaged { who: o, amount: 8, hp: 12, dice: vec![die(8, 2)] },
        ];
        assert_eq!(
            attack_sentence(&rs, &Tr::default(), &unconfirmed, &names, &stat),
            "Fighter attacks Orc with Melee attack: 1d20 19 + MELEE 6 = 25 — threat: confirmation 1d20 3 + 6 = 9 \
             vs AC 17, not confirmed (a plain hit), 8 damage [1d8 2] (Orc 12 hp left)"
        );
        let confirmed = [
            rolled("melee_attack", 20, 6),
            AttackHit { attacker: f, target: o },
            CritConfirmRolled {
                attacker: f,
                target: o,
                roll: 15,
                bonus: 6,
                total: 21,
                ac: 17,
                confirmed: true,
                dice: vec![die(20, 15)],
            },
            CriticalHit { attacker: f, target: o, multiplier: 2 },
            DamageScaled { who: o, rolled: 10, amount: 10, scale: crate::rules::log::DamageScale::Times(2) },
            Damaged { who: o, amount: 10, hp: 10, dice: vec![die(8, 4), die(8, 6)] },
        ];
        assert_eq!(
            attack_sentence(&rs, &Tr::default(), &confirmed, &names, &stat),
            "Fighter attacks Orc with Melee attack: 1d20 20 + MELEE 6 = 26 (natural 20) — threat: confirmation 1d20 15 + 6 = 21 \
             vs AC 17, confirmed — critical hit (×2), 10 damage [2d8 (4, 6), dice ×2] (Orc 10 hp left)"
        );
        assert_eq!(attack_rule(&rs, &unconfirmed), Some("G-P1-18"));
    }

    /// The log of a fight: a pf2e critical Strike, then a second Strike at −5, each one entry;
    /// a pf1e threat that fails to confirm (forced dice).
    #[test]
    fn the_log_view_reads_criticals_and_the_penalty_from_the_engine() {
        use crate::hud_model::tests::fight_with;
        use crate::rules::command::{ActIntent, Command};
        let mut c = fight_with(
            "pf2e",
            &[
                ("Fighter", "heroes", (0, 0), 20, &[("STR", 5)], &[]),
                ("Orc", "monsters", (1, 0), 5, &[("AC", 15)], &[]),
            ],
        );
        let (f, o) = (c.cid("Fighter").unwrap(), c.cid("Orc").unwrap());
        // 1d20 20 + 5 = 25 against AC 15: a critical success; 1d8 4 + 5 = 9, doubled.
        c.force_dice([20, 4]);
        c.submit(Command::Act(ActIntent::new(f, "strike", vec![o]))).expect("the first Strike");
        // 1d20 10 + 5 − 5 = 10 against 15: a miss.
        c.force_dice([10]);
        c.submit(Command::Act(ActIntent::new(f, "strike", vec![o]))).expect("the second Strike");
        let mut v = LogView::default();
        v.update(&c);
        let attacks: Vec<&LogEntry> = v.entries().iter().filter(|e| e.kind == "AttackRolled").collect();
        assert_eq!(attacks.len(), 2, "{:?}", v.entries());
        assert!(
            attacks[0].text.contains("= 25 (natural 20) — critical hit (×2), 18 damage [1d8 4, 9 ×2] (Orc 22 hp left)"),
            "{}",
            attacks[0].text
        );
        assert_eq!(attacks[0].rule, Some("G-P2-25"));
        assert!(
            attacks[1].text.contains("+ STR 5 − multiple attack penalty 5 = 10 vs AC 15 — miss"),
            "{}",
            attacks[1].text
        );
        assert_eq!(attacks[1].rule, Some("G-P2-23"));
        assert!(
            !v.entries().iter().any(|e| matches!(
                e.kind.as_str(),
                "Damaged" | "DamageScaled" | "CriticalHit" | "MultipleAttackPenalty"
            )),
            "all in the attacks' entries: {:?}",
            v.entries()
        );

        // pf1e: a longsword threatens on 19; the confirmation roll of 3 misses AC 17.
        let mut c = fight_with(
            "pf1e",
            &[
                ("Fighter", "heroes", (0, 0), 20, &[("MELEE", 6)], &[]),
                ("Orc", "monsters", (1, 0), 5, &[("AC", 17)], &[]),
            ],
        );
        let (f, o) = (c.cid("Fighter").unwrap(), c.cid("Orc").unwrap());
        assert_eq!(c.turn().active, Some(f));
        c.force_dice([19, 3, 2]);
        c.submit(Command::Act(ActIntent::new(f, "melee_attack", vec![o]))).expect("the attack");
        let mut v = LogView::default();
        v.update(&c);
        let attack = v.entries().iter().find(|e| e.kind == "AttackRolled").expect("the attack's entry");
        assert!(attack.text.contains("1d20 19 + MELEE 6 = 25 — threat: confirmation 1d20 3"), "{}", attack.text);
        assert!(attack.text.contains("vs AC 17, not confirmed (a plain hit), "), "{}", attack.text);
        assert_eq!(attack.rule, Some("G-P1-18"));
    }

    /// A basic save's degree is said in the save's sentence, and its halved damage in one entry
    /// with the dice (G-P2-24, G-P2-26).
    #[test]
    fn a_basic_save_reads_with_its_degree_and_its_halved_damage() {
        use crate::hud_model::tests::fight_with;
        use crate::rules::command::{ActIntent, Command};
        let mut c = fight_with(
            "pf2e",
            &[("Wizard", "heroes", (0, 0), 20, &[], &["electric_arc"]), ("Orc", "monsters", (1, 0), 5, &[], &[])],
        );
        let (w, o) = (c.cid("Wizard").unwrap(), c.cid("Orc").unwrap());
        // The Orc's Reflex save: 1d20 17 + 0 against DC 17, a success; 2d4 (3, 4) = 7, halved to 3.
        c.force_dice([17, 3, 4]);
        c.submit(Command::Act(ActIntent::new(w, "electric_arc", vec![o]))).expect("Electric Arc");
        let mut v = LogView::default();
        v.update(&c);
        let save = v.entries().iter().find(|e| e.kind == "SaveRolled").expect("the save");
        assert_eq!(save.text, "Orc saves with REF: 1d20 17 +0 = 17 vs DC 17 — success.");
        let damage = v.entries().iter().find(|e| e.kind == "DamageScaled").expect("the damage");
        assert_eq!(damage.text, "Orc takes 3 damage [2d4 (3, 4), 7 halved] (37 hp left).");
        assert_eq!(damage.rule, Some("G-P2-26"));
        assert!(!v.entries().iter().any(|e| e.kind == "Damaged" || e.kind == "SaveDegree"), "{:?}", v.entries());
        // Each reads in Spanish and Korean too.
        for code in ["es", "ko"] {
            let mut v = LogView::in_language(&Tr::strict(code));
            v.update(&c);
            assert!(v.entries().iter().all(|e| !e.text.contains('⟦')), "{code}: {:?}", v.entries());
        }
    }

    /// On their own (a log read event by event), the new events of issue 50 are sentences.
    #[test]
    fn the_attack_math_events_read_on_their_own() {
        use crate::rules::log::{DamageScale, Degree};
        use CombatEvent::*;
        let rs = ruleset("pf2e");
        let names = |c: Cid| ["Fighter", "Orc"][c.0 as usize].to_string();
        let (f, o) = (Cid(0), Cid(1));
        let said = |e: CombatEvent| sentence(&rs, &e, &names).unwrap();
        assert_eq!(
            said(MultipleAttackPenalty { who: f, penalty: -5 }),
            "Fighter's attack roll: multiple attack penalty −5."
        );
        assert_eq!(
            said(CriticalHit { attacker: f, target: o, multiplier: 2 }),
            "Fighter scores a critical hit on Orc (×2)."
        );
        assert_eq!(said(CriticalMiss { attacker: f, target: o }), "Fighter's attack on Orc is a critical failure.");
        assert_eq!(
            said(SaveDegree { who: o, degree: Degree::CriticalFailure }),
            "Orc's saving throw: critical failure."
        );
        assert_eq!(
            said(DamageScaled { who: o, rolled: 7, amount: 14, scale: DamageScale::Times(2) }),
            "Orc's damage: 7 ×2 (14 in all)."
        );
        assert_eq!(
            said(CritConfirmRolled {
                attacker: f,
                target: o,
                roll: 14,
                bonus: 6,
                total: 20,
                ac: 17,
                confirmed: true,
                dice: vec![die(20, 14)]
            }),
            "Fighter rolls to confirm a critical hit on Orc: 1d20 14 + 6 = 20 vs AC 17 — confirmed."
        );
    }
}
