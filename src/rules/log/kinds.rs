//! What an event is: its variant's name, the creature it is about, and whether it is the turns'
//! bookkeeping (which the stalemate rule does not count as the combat moving on).

use super::CombatEvent;
use crate::rules::command::Decider;
use crate::rules::components::Cid;

impl CombatEvent {
    /// Every variant name, for checking scenario files when they load.
    pub const KINDS: &'static [&'static str] = &[
        "CombatStarted",
        "InitiativeRolled",
        "InitiativeRollOff",
        "InitiativeOrder",
        "RoundStarted",
        "TurnStarted",
        "TurnSkipped",
        "AbilityUsed",
        "ActivityStarted",
        "ActivityProgressed",
        "ActivityCompleted",
        "ActivityInterrupted",
        "AbilityResolved",
        "ActionHeld",
        "HeldActionTriggered",
        "HeldActionsLost",
        "HeldActionsLapsed",
        "AttackRolled",
        "AssistUsed",
        "DefenseDeclared",
        "NoDefensePossible",
        "DefenseRolled",
        "AttackBlocked",
        "AttackHit",
        "Damaged",
        "Downed",
        "Moved",
        "MoveStopped",
        "Disengaged",
        "OpportunityProvoked",
        "OpportunityDeclined",
        "NoOpportunity",
        "AssistGranted",
        "AssistDenied",
        "AssistMadeArea",
        "ConditionApplied",
        "ConditionUnchanged",
        "ConditionEnded",
        "PermanentWound",
        "SaveRolled",
        "OpeningCreated",
        "OpeningPassed",
        "OpeningSkipped",
        "OpeningClosed",
        "DecisionRequested",
        "DecisionMade",
        "TurnEnded",
        "ActionsForfeited",
        "RoundEnded",
        "CombatEnded",
        "CombatDrawn",
        "ConditionValueChanged",
        "TurnStepBegan",
        "ActionsRegained",
        "RecoveryCheck",
        "FlatCheck",
        "AttackMissed",
        "Healed",
        "Sustained",
        "ActionDisrupted",
        "Delayed",
        "ReturnedFromDelay",
        "DelayLapsed",
        "ReadyNotUsed",
        "SurpriseRound",
        "ExpiredBeforeCount",
        "InitiativeMoved",
        "AwarenessSet",
        "CastAnnounced",
        "CastHeld",
        "HoldAccrued",
        "CastReleased",
        "ConcentrationBroken",
        "ComponentConsumed",
        "ModEffect",
        "RollModified",
        "MultipleAttackPenalty",
        "CritConfirmRolled",
        "CriticalHit",
        "CriticalMiss",
        "SaveDegree",
        "DamageScaled",
    ];

    /// Turn and round bookkeeping that happens even when nobody can act. Every other event
    /// counts as the combat moving on (see `Rules::emit` and the stalemate rule there).
    pub(crate) fn is_bookkeeping(&self) -> bool {
        matches!(
            self,
            CombatEvent::RoundStarted { .. }
                | CombatEvent::RoundEnded { .. }
                | CombatEvent::TurnStarted { .. }
                | CombatEvent::TurnSkipped { .. }
                | CombatEvent::TurnEnded { .. }
                | CombatEvent::TurnStepBegan { .. }
                | CombatEvent::ActionsRegained { .. }
                | CombatEvent::ActionsForfeited { .. }
                | CombatEvent::HeldActionsLapsed { .. }
                | CombatEvent::DelayLapsed { .. }
                | CombatEvent::ReadyNotUsed { .. }
                | CombatEvent::ConditionUnchanged { .. }
                | CombatEvent::NoOpportunity { .. }
                | CombatEvent::CombatDrawn { .. }
                | CombatEvent::CombatEnded { .. }
        )
    }

    /// The variant name, used by scenario expectations.
    pub fn kind(&self) -> String {
        let s = format!("{self:?}");
        s.split([' ', '(', '{']).next().unwrap_or_default().to_string()
    }

    /// The creature this event is mainly about.
    pub(crate) fn subject(&self) -> Option<Cid> {
        use CombatEvent::*;
        match self {
            InitiativeRolled { who, .. }
            | TurnStarted { who, .. }
            | TurnSkipped { who, .. }
            | AbilityUsed { who, .. }
            | ActivityStarted { who, .. }
            | ActivityProgressed { who, .. }
            | ActivityCompleted { who, .. }
            | ActivityInterrupted { who, .. }
            | AbilityResolved { who, .. }
            | ActionHeld { who, .. }
            | HeldActionTriggered { who, .. }
            | HeldActionsLost { who, .. }
            | HeldActionsLapsed { who, .. }
            | AssistUsed { who, .. }
            | DefenseDeclared { who, .. }
            | NoDefensePossible { who }
            | DefenseRolled { who, .. }
            | Damaged { who, .. }
            | Downed { who }
            | Moved { who, .. }
            | MoveStopped { who, .. }
            | Disengaged { who, .. }
            | OpportunityDeclined { who }
            | AssistMadeArea { who }
            | ConditionApplied { who, .. }
            | ConditionValueChanged { who, .. }
            | TurnStepBegan { who, .. }
            | ActionsRegained { who, .. }
            | RecoveryCheck { who, .. }
            | FlatCheck { who, .. }
            | Healed { who, .. }
            | Sustained { who, .. }
            | ActionDisrupted { who, .. }
            | Delayed { who }
            | ReturnedFromDelay { who, .. }
            | DelayLapsed { who }
            | ReadyNotUsed { who, .. }
            | ExpiredBeforeCount { who, .. }
            | CastAnnounced { who, .. }
            | CastHeld { who, .. }
            | HoldAccrued { who, .. }
            | CastReleased { who, .. }
            | ConcentrationBroken { who, .. }
            | ComponentConsumed { who, .. }
            | InitiativeMoved { who, .. }
            | AwarenessSet { who, .. }
            | ConditionUnchanged { who, .. }
            | ConditionEnded { who, .. }
            | PermanentWound { who }
            | SaveRolled { who, .. }
            | OpeningPassed { who, .. }
            | OpeningSkipped { who, .. }
            | TurnEnded { who, .. }
            | ActionsForfeited { who, .. }
            | ModEffect { who, .. }
            | RollModified { who, .. }
            | MultipleAttackPenalty { who, .. }
            | SaveDegree { who, .. }
            | DamageScaled { who, .. } => Some(*who),
            AttackRolled { attacker, .. }
            | CritConfirmRolled { attacker, .. }
            | CriticalHit { attacker, .. }
            | CriticalMiss { attacker, .. }
            | AttackBlocked { attacker, .. }
            | AttackHit { attacker, .. }
            | AttackMissed { attacker, .. } => Some(*attacker),
            OpportunityProvoked { mover, .. } | NoOpportunity { mover, .. } => Some(*mover),
            AssistGranted { from, .. } | AssistDenied { from, .. } => Some(*from),
            DecisionRequested { by: Decider::Creature(c), .. } | DecisionMade { by: Decider::Creature(c), .. } => {
                Some(*c)
            }
            _ => None,
        }
    }
}
