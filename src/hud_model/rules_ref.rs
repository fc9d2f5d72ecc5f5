//! Rule IDs for log events and conditions, and the rules' text from the project's own reference,
//! `docs/rules.md`.
//!
//! Which rule an event stands for depends on the turn system. The system is recognised by the
//! ruleset's strategies (its turn model and action budget), never by its name, so a variant
//! ruleset built on the same strategies gets the same references.

use crate::rules::log::{CombatEvent, DamageScale, EndReason, NoOpportunityReason};
use crate::rules::ruleset::{ActionBudget, CriticalRule, Ruleset, TurnModel};

/// The family of rules a ruleset's strategies follow, for rule references.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// A per-round action pool (HB-xx).
    PerRoundPool,
    /// A per-turn pool regained in turn steps (P2-xx).
    PerTurnPool,
    /// Typed action slots (P1-xx).
    TypedSlots,
    /// A segment clock (SG-xx).
    Segments,
}

/// The family of a ruleset, from its strategies.
pub fn family(rs: &Ruleset) -> Family {
    match (rs.turn_model, &rs.budget) {
        (TurnModel::RecoveryTime { .. }, _) => Family::Segments,
        (_, ActionBudget::TypedSlots { .. }) => Family::TypedSlots,
        (_, ActionBudget::PerTurnPool { .. }) => Family::PerTurnPool,
        _ => Family::PerRoundPool,
    }
}

/// The rule ID behind an event under a ruleset, if one rule stands for it.
pub(crate) fn event_rule(rs: &Ruleset, e: &CombatEvent) -> Option<&'static str> {
    use CombatEvent::*;
    use Family::*;
    let f = family(rs);
    let pick = |hb: &'static str, p2: &'static str, p1: &'static str, sg: &'static str| {
        let id = match f {
            PerRoundPool => hb,
            PerTurnPool => p2,
            TypedSlots => p1,
            Segments => sg,
        };
        (!id.is_empty()).then_some(id)
    };
    match e {
        CombatStarted { .. } | CombatEnded { .. } | CombatDrawn { .. } => None,
        InitiativeRolled { .. } => pick("HB-04", "G-P2-01", "P1-13", "G-SG-01"),
        InitiativeRollOff { .. } => pick("G-HB-01", "G-P2-01", "P1-17", "G-SG-02"),
        InitiativeOrder { .. } => pick("HB-05", "G-P2-01", "P1-14", "G-SG-01"),
        RoundStarted { .. } => pick("HB-02", "G-P2-02", "P1-06", "SG-40"),
        TurnStarted { .. } => pick("HB-01", "P2-03", "P1-05", "SG-05"),
        TurnSkipped { .. } => pick("G-HB-19", "P2-11", "P1-22", "G-SG-15"),
        AbilityUsed { .. } => pick("HB-08", "P2-14", "G-P1-01", "G-SG-03"),
        ActivityStarted { .. } | ActivityCompleted { .. } => pick("HB-26", "P2-17", "G-P1-10", ""),
        ActivityProgressed { .. } => pick("HB-27", "P2-17", "G-P1-10", ""),
        ActivityInterrupted { .. } => pick("G-HB-09", "G-P2-12", "G-P1-09", ""),
        AbilityResolved { .. } => None,
        ActionHeld { .. } => pick("HB-49", "G-P2-11", "G-P1-04", "SG-37"),
        HeldActionTriggered { .. } => pick("HB-50", "G-P2-11", "G-P1-04", "SG-38"),
        HeldActionsLost { .. } => Some("HB-51"),
        HeldActionsLapsed { .. } => pick("G-HB-12", "G-P2-11", "G-P1-04", "G-SG-12"),
        AttackRolled { .. } => pick("G-HB-21", "", "", ""),
        AssistUsed { .. } => Some("G-HB-07"),
        DefenseDeclared { .. } => Some("HB-39"),
        NoDefensePossible { .. } => Some("HB-44"),
        DefenseRolled { .. } => Some("HB-39"),
        AttackBlocked { .. } => Some("HB-40"),
        // The roll against the defence (ties favour the defender); damage and healing are the
        // ability's or the turn step's.
        AttackHit { .. } | AttackMissed { .. } => pick("HB-40", "", "", ""),
        Damaged { .. } | Healed { .. } => None,
        Downed { .. } => pick("G-HB-19", "P2-07", "", ""),
        Moved { .. } => pick("HB-18", "P2-14", "G-P1-01", "SG-06"),
        MoveStopped { .. } => Some("G-X-01"),
        Disengaged { .. } => Some("HB-17"),
        OpportunityProvoked { .. } | OpportunityDeclined { .. } => pick("HB-46", "G-P2-17", "G-P1-02", "G-SG-16"),
        NoOpportunity { reason, .. } => match reason {
            NoOpportunityReason::Flanked => Some("HB-48"),
            NoOpportunityReason::Disengaged => Some("HB-17"),
            NoOpportunityReason::Busy => Some("G-HB-09"),
            NoOpportunityReason::FlatFooted => Some("P1-21"),
            NoOpportunityReason::NoneLeft => pick("HB-37", "G-P2-17", "G-P1-02", "G-SG-16"),
            NoOpportunityReason::Incapacitated | NoOpportunityReason::NoAttack => {
                pick("G-HB-19", "P2-16", "P1-22", "SG-04")
            }
        },
        AssistGranted { .. } => Some("HB-10"),
        AssistDenied { .. } => Some("HB-11"),
        AssistMadeArea { .. } => Some("HB-15"),
        // A condition is put on by an ability or a step (the entry before it says which); only
        // "defending again adds nothing" is a rule of its own.
        ConditionApplied { .. } => None,
        ConditionUnchanged { .. } => pick("HB-24", "", "", ""),
        // pf2e: the turn step that changed or ended it (P2-05, P2-07, P2-21, P2-22, P2-24).
        ConditionValueChanged { .. } => None,
        ConditionEnded { reason, .. } => match reason {
            EndReason::Expired => pick("G-HB-17", "", "P1-12", "G-SG-10"),
            EndReason::PermanentWound | EndReason::NegativeStatus => Some("HB-23"),
            EndReason::FirstTurn => Some("P1-18"),
            EndReason::RemovedByMod => None,
            EndReason::Recovered => Some("P2-07"),
            // RULES.md is silent on healing while dying: no rule to point at.
            EndReason::Healed => None,
            EndReason::SaveSucceeded => pick("", "P2-23", "", "SG-30"),
            EndReason::FlatCheckPassed => Some("P2-23"),
            EndReason::WoreOff => Some("P2-24"),
            EndReason::ActionsLost => Some("G-P2-07"),
            EndReason::NotSustained => Some("G-P2-09"),
        },
        // A mod's own rule, not one of RULES.md's: the entry names the mod instead.
        ModEffect { .. } => None,
        // A condition's modifier: the data of the condition, named in the entry.
        RollModified { .. } => None,
        PermanentWound { .. } => Some("HB-23"),
        // pf2e: an affliction save in Step 3 (P2-23) comes from the step; a spell's save has none.
        SaveRolled { .. } => pick("HB-52", "", "", "SG-33"),
        TurnStepBegan { .. } => Some("P2-03"),
        ActionsRegained { .. } => pick("G-HB-03", "P2-09", "G-P1-01", "G-SG-03"),
        RecoveryCheck { .. } => Some("P2-07"),
        FlatCheck { .. } => Some("P2-23"),
        Sustained { .. } => Some("G-P2-09"),
        ActionDisrupted { .. } => pick("G-HB-09", "G-P2-12", "G-P1-09", "SG-17"),
        Delayed { .. } => pick("", "G-P2-10", "G-P1-03", "SG-34"),
        ReturnedFromDelay { .. } => pick("", "G-P2-10", "G-P1-03", "SG-35"),
        DelayLapsed { .. } => pick("", "G-P2-10", "G-P1-03", "G-SG-11"),
        ReadyNotUsed { .. } => pick("G-HB-12", "G-P2-11", "G-P1-04", "G-SG-12"),
        CastAnnounced { .. } => Some("SG-10"),
        CastHeld { .. } => Some("SG-19"),
        HoldAccrued { .. } => Some("SG-21"),
        CastReleased { .. } => Some("SG-23"),
        ConcentrationBroken { .. } => Some("SG-17"),
        ComponentConsumed { .. } => Some("SG-15"),
        SurpriseRound { .. } => Some("P1-26"),
        ExpiredBeforeCount { .. } => pick("", "", "P1-12", "G-SG-10"),
        InitiativeMoved { .. } => pick("", "G-P2-10", "G-P1-03", "SG-35"),
        AwarenessSet { .. } => Some("P1-24"),
        OpeningCreated { .. } => Some("HB-29"),
        OpeningPassed { .. } | OpeningSkipped { .. } => Some("HB-30"),
        OpeningClosed { .. } => Some("HB-33"),
        DecisionRequested { .. } | DecisionMade { .. } => None,
        TurnEnded { .. } => pick("G-HB-04", "P2-20", "P1-10", "G-SG-03"),
        ActionsForfeited { .. } => pick("G-HB-04", "P2-19", "P1-10", ""),
        RoundEnded { .. } => pick("HB-07", "G-P2-02", "P1-06", "SG-40"),
        // Issue 50 (RULES.md §5.6): the attack math is data, so its rules follow the ruleset's
        // `attack_math`, not its family.
        MultipleAttackPenalty { .. } => Some("G-P2-23"),
        CritConfirmRolled { .. } => Some("G-P1-18"),
        CriticalHit { .. } => critical_rule(rs),
        CriticalMiss { .. } | SaveDegree { .. } => Some("G-P2-24"),
        DamageScaled { scale: DamageScale::Times(_), .. } => critical_rule(rs),
        DamageScaled { .. } => Some("G-P2-26"),
    }
}

/// The rule of a critical hit under a ruleset: doubled damage on a critical success (G-P2-25) or
/// a confirmed threat (G-P1-18); none without critical hits (G-X-06).
fn critical_rule(rs: &Ruleset) -> Option<&'static str> {
    match rs.attack_math.critical {
        CriticalRule::OnCriticalSuccess { .. } => Some("G-P2-25"),
        CriticalRule::Confirm { .. } => Some("G-P1-18"),
        CriticalRule::None => None,
    }
}

/// The rules behind a condition's behaviour, read from its definition's fields.
pub(crate) fn condition_rules(rs: &Ruleset, id: &str) -> Vec<String> {
    condition_rule_ids(rs, id).into_iter().map(String::from).collect()
}

/// [`condition_rules`] as static IDs (the log tags a condition applied with the first).
pub(crate) fn condition_rule_ids(rs: &Ruleset, id: &str) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    let Some(d) = rs.condition(id) else { return vec![] };
    let f = family(rs);
    if d.blocks_actions {
        v.push(match f {
            Family::PerRoundPool => "G-HB-19",
            Family::PerTurnPool => "P2-16",
            Family::TypedSlots => "P1-22",
            Family::Segments => "SG-04",
        });
    }
    if d.defense_advantage {
        v.push("HB-22");
    }
    if !d.ends_on.is_empty() {
        v.push("HB-23");
    }
    if d.regain_bonus > 0 || d.regain_loses_value {
        v.push("P2-12");
    }
    if d.recovery.is_some() {
        v.push("P2-07");
    }
    if d.persistent_damage.is_some() {
        v.push("P2-23");
    }
    if d.decrement_at_end_of_turn != 0 {
        v.push("P2-24");
    }
    if d.ac_loses_stat.is_some() {
        v.push("P1-19");
    }
    if d.no_opportunity_unless.is_some() {
        v.push("P1-21");
    }
    if d.rt_add != 0 {
        v.push("G-SG-05");
    }
    if d.save_ends.is_some() {
        v.push("SG-30");
    }
    if !d.blocks_components.is_empty() {
        v.push("SG-15");
    }
    v
}

/// A rule's title and text from the project's rules reference (`docs/rules.md`), by ID.
pub fn rule_text(id: &str) -> Option<(String, String)> {
    crate::rules_doc::rule(id).map(|(t, x)| (t.to_string(), x.to_string()))
}

/// What a condition does under a ruleset's family: the reference describes a condition shared by
/// several systems in one text, each part opening with the system's name (`pf2e: ...
/// segments: ...`); this keeps the part of `rs`'s family, or the whole text if none is marked.
pub fn condition_text_for(rs: &Ruleset, id: &str) -> Option<String> {
    condition_text_in(rs, "en", id)
}

/// A rule's title and text in a language (English where the language lacks it).
pub fn rule_text_in(code: &str, id: &str) -> Option<(String, String)> {
    crate::rules_doc::rule_in(code, id).map(|(t, x)| (t.to_string(), x.to_string()))
}

/// [`condition_text_for`] in a language (English where the language lacks it).
pub(crate) fn condition_text_in(rs: &Ruleset, code: &str, id: &str) -> Option<String> {
    let (_, text) = crate::rules_doc::condition_in(code, id).map(|(t, x)| (t.to_string(), x.to_string()))?;
    const MARKS: [&str; 4] = ["homebrew-d20: ", "pf2e: ", "pf1e: ", "segments: "];
    let mine = match family(rs) {
        Family::PerRoundPool => MARKS[0],
        Family::PerTurnPool => MARKS[1],
        Family::TypedSlots => MARKS[2],
        Family::Segments => MARKS[3],
    };
    let Some(start) = text.find(mine) else { return Some(text) };
    let body = &text[start + mine.len()..];
    let end = MARKS.iter().filter_map(|m| body.find(m)).min().unwrap_or(body.len());
    Some(body[..end].trim().to_string())
}
