//! The combat log as the HUD shows it: entries that read as sentences with their dice, each
//! tagged with the rule ID that produced it, filterable by creature and kind, exported as JSON
//! lines.
//!
//! An attack and what answers it (the defensive roll or the AC, hit or miss, the damage) make one
//! entry: "Orc attacks Knight with Axe: 1d20 14 + STR 3 = 17 vs Parry 1d20 12 + STR 3 = 15 — hit,
//! 6 damage (4 hp left)". [`LogView::update`] reads only the events added since its last call, so
//! a long log costs nothing per frame.

use serde::Serialize;

use super::rules_ref::event_rule;
use crate::rules::command::{Choice, DefenseMethod};
use crate::rules::components::{Cid, Stats};
use crate::rules::dice::DieRoll;
use crate::rules::driver::Combat;
use crate::rules::log::{CombatEvent, DrawReason, EndReason, ModAction, NoOpportunityReason};
use crate::rules::ruleset::{DefenseRule, Effect, Ruleset};

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

    /// Its name in the filter.
    pub fn label(self) -> &'static str {
        match self {
            Category::Turn => "turns",
            Category::Attack => "attacks",
            Category::Movement => "movement",
            Category::Condition => "conditions",
            Category::Decision => "decisions",
            Category::Casting => "casting",
            Category::Other => "other",
        }
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
    pub fn keeps(&self, e: &LogEntry) -> bool {
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
    /// Read the events added since the last call. A log that got shorter (a new combat, an
    /// undo) is read again from the start.
    pub fn update(&mut self, combat: &Combat) {
        let log = combat.log();
        if log.events.len() < self.consumed {
            *self = LogView::default();
        }
        let rs = combat.ruleset();
        let names = |c: Cid| log.names.get(c.0 as usize).cloned().unwrap_or_else(|| format!("#{}", c.0));
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
                entry.text = attack_sentence(rs, &log.events[entry.first..=i], &names, &stat);
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
                    text: attack_sentence(rs, std::slice::from_ref(e), &names, &stat),
                    rule: event_rule(rs, e),
                });
                continue;
            }
            let Some(text) = sentence(rs, e, &names) else { continue };
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
        | AttackMissed { .. } => true,
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

/// The dice as rolled, term by term: `1d20 14`, `2d6 (4, 3)`, `2d20 (17, 4 dropped)`, `1d20 12 − 1d4 3`.
/// `None` when the event carries no dice (older logs).
pub fn dice_words(dice: &[DieRoll]) -> Option<String> {
    if dice.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut i = 0;
    while i < dice.len() {
        let (sides, negative) = (dice[i].sides, dice[i].negative);
        let mut j = i;
        while j < dice.len() && dice[j].sides == sides && dice[j].negative == negative {
            j += 1;
        }
        let group = &dice[i..j];
        if out.is_empty() {
            if negative {
                out.push('−');
            }
        } else {
            out.push_str(if negative { " − " } else { " + " });
        }
        let faces: Vec<String> =
            group.iter().map(|d| if d.kept { d.value.to_string() } else { format!("{} dropped", d.value) }).collect();
        if group.len() == 1 {
            out.push_str(&format!("1d{sides} {}", faces[0]));
        } else {
            out.push_str(&format!("{}d{sides} ({})", group.len(), faces.join(", ")));
        }
        i = j;
    }
    Some(out)
}

/// `1d20 14 + STR 3 + 2 = 19`: the die, the stat, whatever else was added, the total.
fn roll_words(
    die: &str,
    rolls: &[i32],
    dice: &[DieRoll],
    (stat, stat_value): (&str, i32),
    named: &[(&str, i32)],
    bonus: i32,
    total: i32,
) -> String {
    let shown = dice_words(dice).unwrap_or_else(|| match rolls {
        [one] => format!("{die} {one}"),
        many => {
            let kept = many.iter().max().copied().unwrap_or(0);
            let all: Vec<String> = many.iter().map(|r| r.to_string()).collect();
            format!("{}{die} ({}) keep {kept}", many.len(), all.join(", "))
        }
    });
    let mut s = shown;
    if !stat.is_empty() {
        s.push_str(&format!(" {} {stat} {}", if stat_value < 0 { "−" } else { "+" }, stat_value.abs()));
    }
    for (what, v) in named.iter().filter(|(_, v)| *v != 0) {
        s.push_str(&format!(" {} {what} {}", if *v < 0 { "−" } else { "+" }, v.abs()));
    }
    let labelled: i32 = named.iter().map(|(_, v)| *v).sum();
    let other = bonus.saturating_sub(if stat.is_empty() { 0 } else { stat_value }).saturating_sub(labelled);
    if other != 0 {
        s.push_str(&format!(" {} {}", if other < 0 { "−" } else { "+" }, other.abs()));
    }
    s.push_str(&format!(" = {total}"));
    s
}

fn attack_sentence(
    rs: &Ruleset,
    events: &[CombatEvent],
    names: &dyn Fn(Cid) -> String,
    stat_of: &dyn Fn(Cid, &str) -> i32,
) -> String {
    use CombatEvent::*;
    let mut s = String::new();
    let mut target = None;
    for e in events {
        match e {
            AttackRolled { attacker, target: t, ability, roll, bonus, total, dice, flanking, .. } => {
                target = Some(*t);
                let def = rs.ability(ability);
                let shown = def.map_or(ability.clone(), |d| d.display_name().to_string());
                let stat = match def.map(|d| &d.effect) {
                    Some(Effect::Attack { stat, .. } | Effect::Charge { stat, .. }) => stat.clone(),
                    _ => String::new(),
                };
                let die = match &rs.defense {
                    DefenseRule::ActiveRoll { attack_dice, .. } | DefenseRule::StaticAc { attack_dice, .. } => {
                        attack_dice.to_string()
                    }
                };
                let sv = if stat.is_empty() { 0 } else { stat_of(*attacker, &stat) };
                s.push_str(&format!(
                    "{} attacks {} with {shown}: {}",
                    names(*attacker),
                    names(*t),
                    roll_words(&die, &[*roll], dice, (&stat, sv), &[("flanking", *flanking)], *bonus, *total)
                ));
            }
            DefenseRolled { who, method, rolls, bonus, total, dice } => {
                let stat = defense_stat(rs, *method);
                let sv = if stat.is_empty() { 0 } else { stat_of(*who, &stat) };
                s.push_str(&format!(
                    " vs {method:?} {}",
                    roll_words("d20", rolls, dice, (&stat, sv), &[], *bonus, *total)
                ));
            }
            NoDefensePossible { .. } => s.push_str(" (no defensive roll possible)"),
            DefenseDeclared { method: DefenseMethod::NoDefense, .. } => s.push_str(" (no defensive roll)"),
            AttackMissed { ac, .. } => s.push_str(&format!(" vs AC {ac} — miss")),
            AttackBlocked { .. } => s.push_str(" — blocked"),
            AttackHit { .. } => s.push_str(" — hit"),
            Damaged { amount, hp, dice, .. } => {
                let who = target.map(names).unwrap_or_default();
                let rolled = dice_words(dice).map(|d| format!(" [{d}]")).unwrap_or_default();
                s.push_str(&format!(", {amount} damage{rolled} ({who} {hp} hp left)"));
            }
            AssistUsed { bonus, .. } => s.push_str(&format!(" (Assist +{bonus})")),
            _ => {}
        }
    }
    s
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

fn list(names: &dyn Fn(Cid) -> String, v: &[Cid]) -> String {
    v.iter().map(|c| names(*c)).collect::<Vec<_>>().join(", ")
}

/// One event as a sentence; `None` for events the attack entries or other entries already say.
fn sentence(rs: &Ruleset, e: &CombatEvent, names: &dyn Fn(Cid) -> String) -> Option<String> {
    use CombatEvent::*;
    let ab = |a: &str| rs.ability(a).map_or(a.to_string(), |d| d.display_name().to_string());
    Some(match e {
        CombatStarted { ruleset, seed } => format!("The fight begins under {ruleset} (dice seed {seed})."),
        InitiativeRolled { who, roll, bonus, total, dice } => {
            let shown = dice_words(dice).unwrap_or_else(|| format!("{} {roll}", rs.initiative.dice));
            format!("{} rolls initiative: {shown} {:+} = {total}.", names(*who), bonus)
        }
        InitiativeRollOff { tied, rolls } => format!(
            "Tie broken by a roll-off: {}.",
            tied.iter().zip(rolls).map(|(c, r)| format!("{} {r}", names(*c))).collect::<Vec<_>>().join(", ")
        ),
        InitiativeOrder { order } => format!("Initiative order: {}.", list(names, order)),
        RoundStarted { round, seconds } => format!("Round {round} begins ({seconds} s)."),
        TurnStarted { who, round, time } => {
            if *time != *round {
                let (r, s) = match rs.turn_model {
                    crate::rules::ruleset::TurnModel::RecoveryTime { segments_per_round: n } => {
                        let t = time.max(&1) - 1;
                        (t / n + 1, t % n + 1)
                    }
                    _ => (*round, 0),
                };
                format!("{}'s turn (round {r}, segment {s}).", names(*who))
            } else {
                format!("{}'s turn.", names(*who))
            }
        }
        TurnSkipped { who, reason } => format!("{}'s turn is skipped: {reason}.", names(*who)),
        AbilityUsed { who, ability, cost, targets, .. } => {
            let on = if targets.is_empty() { String::new() } else { format!(" on {}", list(names, targets)) };
            let pool = matches!(
                rs.budget,
                crate::rules::ruleset::ActionBudget::PerRoundPool { .. }
                    | crate::rules::ruleset::ActionBudget::PerTurnPool { .. }
            );
            let paid = match cost {
                _ if !pool => format!(" ({})", super::cost_text(rs, ability)),
                0 => String::new(),
                1 => " (1 action)".into(),
                n => format!(" ({n} actions)"),
            };
            format!("{} uses {}{on}{paid}.", names(*who), ab(ability))
        }
        ActivityStarted { who, ability, cost, paid } => {
            format!("{} begins {} over turns: {paid} of {cost} actions paid.", names(*who), ab(ability))
        }
        ActivityProgressed { who, ability, paid_now, remaining } => {
            format!("{} keeps at {}: {paid_now} more paid, {remaining} to go.", names(*who), ab(ability))
        }
        ActivityCompleted { who, ability } => format!("{} completes {}.", names(*who), ab(ability)),
        ActivityInterrupted { who, ability, actions_lost } => {
            format!("{}'s {} is interrupted; {actions_lost} action(s) lost.", names(*who), ab(ability))
        }
        AbilityResolved { who, ability } => format!("{}'s {} resolves.", names(*who), ab(ability)),
        ActionHeld { who, ability, cost } => {
            format!("{} holds {} ({cost} action(s) reserved).", names(*who), ab(ability))
        }
        HeldActionTriggered { who, ability, by } => {
            format!("{}'s held {} goes off, triggered by {}.", names(*who), ab(ability), names(*by))
        }
        HeldActionsLost { who, count, kind } => {
            format!("{} loses {count} held action(s) to a {kind:?} hit.", names(*who))
        }
        HeldActionsLapsed { who, count } => format!("{}'s {count} held action(s) lapse.", names(*who)),
        AssistUsed { .. }
        | DefenseDeclared { .. }
        | NoDefensePossible { .. }
        | DefenseRolled { .. }
        | AttackBlocked { .. }
        | AttackHit { .. }
        | AttackMissed { .. }
        | AttackRolled { .. } => return None,
        Damaged { who, amount, hp, dice } => match dice_words(dice) {
            Some(d) => format!("{} takes {amount} damage [{d}] ({hp} hp left).", names(*who)),
            None => format!("{} takes {amount} damage ({hp} hp left).", names(*who)),
        },
        Downed { who } => format!("{} is down.", names(*who)),
        Moved { who, from, to, mode } => {
            format!("{} moves ({mode}) from ({}, {}) to ({}, {}).", names(*who), from.x, from.y, to.x, to.y)
        }
        MoveStopped { who, at } => format!("{}'s move stops at ({}, {}).", names(*who), at.x, at.y),
        Disengaged { who, from } => format!("{} disengages from {}.", names(*who), list(names, from)),
        OpportunityProvoked { mover, from } => {
            format!("{} provokes an attack of opportunity from {}.", names(*mover), names(*from))
        }
        OpportunityDeclined { who } => format!("{} lets the chance go.", names(*who)),
        NoOpportunity { mover, from, reason } => {
            let why = match reason {
                NoOpportunityReason::Flanked => "it is flanked",
                NoOpportunityReason::Disengaged => "the mover disengaged from it",
                NoOpportunityReason::Busy => "it is busy with an activity",
                NoOpportunityReason::Incapacitated => "it cannot act",
                NoOpportunityReason::NoAttack => "it has no attack for it",
                NoOpportunityReason::FlatFooted => "it is flat-footed",
                NoOpportunityReason::NoneLeft => "it has no reaction left",
            };
            format!("{} gets no attack of opportunity on {}: {why}.", names(*from), names(*mover))
        }
        AssistGranted { from, to, bonus } => format!("{} assists {} (+{bonus}).", names(*from), names(*to)),
        AssistDenied { from, to } => format!("{}'s Assist to {} is denied.", names(*from), names(*to)),
        AssistMadeArea { who } => format!("{}'s assisted attack counts as an area attack.", names(*who)),
        ConditionApplied { who, condition, value, lasts } => {
            let v = if *value != 0 { format!(" {value}") } else { String::new() };
            let l = match lasts {
                Some(crate::rules::ruleset::Lasts::Rounds(n)) => format!(" for {n} round(s)"),
                Some(crate::rules::ruleset::Lasts::OwnerTurns(n)) => format!(" for {n} of its turns"),
                Some(crate::rules::ruleset::Lasts::UntilEndOfTurn) => " until the end of its turn".into(),
                Some(crate::rules::ruleset::Lasts::Sustained) => " while sustained".into(),
                None => String::new(),
            };
            format!("{} is {}{v}{l}.", names(*who), condition.replace('_', " "))
        }
        ConditionValueChanged { who, condition, value } => format!("{}'s {condition} is now {value}.", names(*who)),
        ConditionUnchanged { who, condition } => {
            format!("{} is already {condition}: no further effect.", names(*who))
        }
        ConditionEnded { who, condition, reason } => {
            let why = match reason {
                EndReason::Expired => "its time is up",
                EndReason::PermanentWound => "a permanent wound ends it",
                EndReason::NegativeStatus => "a negative status ends it",
                EndReason::FirstTurn => "its first turn has come",
                EndReason::RemovedByMod => "a mod removed it",
                EndReason::Recovered => "it recovered",
                EndReason::SaveSucceeded => "a successful save ends it",
                EndReason::FlatCheckPassed => "a successful flat check ends it",
                EndReason::WoreOff => "it wore off",
                EndReason::ActionsLost => "the actions it took away used it up",
                EndReason::NotSustained => "nobody sustained it",
            };
            format!("{}'s {} ends: {why}.", names(*who), condition.replace('_', " "))
        }
        ModEffect { source, who, action } => {
            let what = match action {
                ModAction::Damage(n) => format!("deals {n} damage to {}", names(*who)),
                ModAction::Heal(n) => format!("heals {} by {n}", names(*who)),
                ModAction::ApplyCondition(c, v) if *v != 0 => format!("puts {c} {v} on {}", names(*who)),
                ModAction::ApplyCondition(c, _) => format!("puts {c} on {}", names(*who)),
                ModAction::RemoveCondition(c) => format!("removes {c} from {}", names(*who)),
                ModAction::GrantActions(n) => format!("gives {} {n} action(s) back", names(*who)),
                ModAction::SpendActions(n) => format!("spends {n} of {}'s actions", names(*who)),
                ModAction::Reschedule(t) => format!("moves {}'s next turn to time {t}", names(*who)),
            };
            format!("Mod {source} {what}.")
        }
        ExpiredBeforeCount { who, condition, round, count } => {
            format!("{}'s {condition} ends just before count {count} of round {round}.", names(*who))
        }
        TurnStepBegan { .. } => return None,
        ActionsRegained { who, actions, restricted, reactions } => {
            let extra = if *restricted > 0 { format!(" + {restricted} restricted") } else { String::new() };
            format!("{} regains {actions} action(s){extra} and {reactions} reaction(s).", names(*who))
        }
        RecoveryCheck { who, roll, dc, degree, value, dice } => {
            let shown = dice_words(dice).unwrap_or_else(|| format!("1d20 {roll}"));
            format!("{} makes a recovery check: {shown} vs DC {dc} — {degree}; dying {value}.", names(*who))
        }
        FlatCheck { who, condition, roll, dc, success, dice } => format!(
            "{} makes a flat check against {condition}: {} vs DC {dc} — {}.",
            names(*who),
            dice_words(dice).unwrap_or_else(|| format!("1d20 {roll}")),
            if *success { "it ends" } else { "it goes on" }
        ),
        Healed { who, amount, hp, dice } => match dice_words(dice) {
            Some(d) => format!("{} heals {amount} [{d}] ({hp} hp).", names(*who)),
            None => format!("{} heals {amount} ({hp} hp).", names(*who)),
        },
        Sustained { who, count } => format!("{} sustains {count} effect(s).", names(*who)),
        ActionDisrupted { who, ability } => format!("{}'s {} is disrupted.", names(*who), ab(ability)),
        Delayed { who } => format!("{} delays.", names(*who)),
        ReturnedFromDelay { who, after } => format!("{} returns from Delay after {}.", names(*who), names(*after)),
        DelayLapsed { who } => format!("{} delayed too long and loses the turn.", names(*who)),
        ReadyNotUsed { who, ability } => format!("{}'s readied {} was not used.", names(*who), ab(ability)),
        CastAnnounced { who, ability, round, segment } => format!(
            "{} begins casting {}: it resolves at segment {segment} of round {round}.",
            names(*who),
            ab(ability)
        ),
        CastHeld { who, ability } => format!("{} holds {}.", names(*who), ab(ability)),
        HoldAccrued { who, rt, total } => {
            format!("{} acts while holding: +{rt} recovery owed ({total} in all).", names(*who))
        }
        CastReleased { who, ability, next_round, next_segment } => format!(
            "{} releases {}; next turn at segment {next_segment} of round {next_round}.",
            names(*who),
            ab(ability)
        ),
        ConcentrationBroken { who, ability, next_round, next_segment } => format!(
            "{}'s concentration on {} breaks; next turn at segment {next_segment} of round {next_round}.",
            names(*who),
            ab(ability)
        ),
        ComponentConsumed { who, item } => format!("{} uses up {item}.", names(*who)),
        SurpriseRound { aware } => format!("Surprise round: only {} may act.", list(names, aware)),
        InitiativeMoved { who, before } => format!("{} now acts before {}.", names(*who), names(*before)),
        AwarenessSet { who, aware } => {
            format!("{} is {}.", names(*who), if *aware { "aware of its foes" } else { "unaware (surprised)" })
        }
        PermanentWound { who } => format!("{} suffers a permanent wound.", names(*who)),
        SaveRolled { who, stat, roll, bonus, total, dc, success, dice } => format!(
            "{} saves with {stat}: {} {:+} = {total} vs DC {dc} — {}.",
            names(*who),
            dice_words(dice).unwrap_or_else(|| format!("1d20 {roll}")),
            bonus,
            if *success { "success" } else { "failure" }
        ),
        OpeningCreated { eligible, .. } => format!("An opening! {} may act.", list(names, eligible)),
        OpeningPassed { who, .. } => format!("{} passes the opening.", names(*who)),
        OpeningSkipped { who, reason, .. } => format!("{} can't use the opening: {reason}.", names(*who)),
        OpeningClosed { .. } => "The opening closes.".into(),
        DecisionRequested { .. } => return None,
        DecisionMade { by, choice } => {
            let who = by.describe(names);
            match choice {
                Choice::Defend(_) => return None,
                Choice::Opportunity(Some(a)) => format!("{who} takes the attack of opportunity with {}.", ab(a)),
                Choice::Opportunity(None) => format!("{who} lets the mover go."),
                Choice::Opening(Some(u)) => format!("{who} uses the opening: {}.", ab(&u.ability)),
                Choice::Opening(None) => return None,
                Choice::Approve(true) => format!("{who} approves the Assist."),
                Choice::Approve(false) => format!("{who} denies the Assist."),
                Choice::Triggered(Some(a)) => format!("{who} uses {}.", ab(a)),
                Choice::Triggered(None) => format!("{who} uses nothing."),
                Choice::LoseFirst(l) => format!("{who} loses a {l:?} action first."),
                Choice::Order(o) => format!("{who} orders the tie: {}.", list(names, o)),
                Choice::HoldCast(true) => format!("{who} holds the cast."),
                Choice::HoldCast(false) => format!("{who} releases the cast at once."),
            }
        }
        TurnEnded { who, actions_left } => {
            if *actions_left > 0 {
                format!("{} ends the turn with {actions_left} action(s) unspent.", names(*who))
            } else {
                format!("{} ends the turn.", names(*who))
            }
        }
        ActionsForfeited { who, count } => format!("{} forfeits {count} action(s).", names(*who)),
        RoundEnded { round } => format!("Round {round} ends."),
        CombatEnded { winner: Some(w) } => format!("The fight is over: {w} wins."),
        CombatEnded { winner: None } => "The fight is over: a draw.".into(),
        CombatDrawn { reason, round } => match reason {
            DrawReason::NobodyCanAct => format!("Round {round}: nobody can act any more — a draw."),
            DrawReason::RoundCap(n) => format!("The round cap ({n}) is reached — a draw."),
            DrawReason::WorkLimit => "The engine's work limit is reached — a draw.".into(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(of(EndReason::Expired), "Shaman's dying ends: its time is up.");
        assert_eq!(of(EndReason::WoreOff), "Shaman's dying ends: it wore off.");
        assert_eq!(of(EndReason::RemovedByMod), "Shaman's dying ends: a mod removed it.");
    }
}
