//! The scenario file format (documented in `docs/scenarios.md`). Designers write these; keep them
//! stable and readable.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::command::{ActionLoss, DefenseMethod};
use crate::rules::components::TriggerOn;
use crate::rules::ruleset::HitKind;
use crate::rules::setup::CombatantSpec;

/// A scripted scenario.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Title shown by the runner.
    #[serde(deserialize_with = "crate::rules::limits::name")]
    pub name: String,
    /// What it shows.
    #[serde(default)]
    pub description: String,
    /// A ruleset name under `assets/rulesets/`, or a `.ron` path relative to this file.
    pub ruleset: String,
    /// RNG seed.
    #[serde(default)]
    pub seed: u64,
    /// Dice forced before initiative is rolled.
    #[serde(default, deserialize_with = "crate::rules::limits::forced_dice")]
    pub dice: Vec<i32>,
    /// The combat is a draw when this round would start (overrides the ruleset's `round_cap`).
    #[serde(default, deserialize_with = "crate::rules::limits::rounds_opt")]
    pub max_rounds: Option<u32>,
    /// An encounter whose combatants (for this scenario's ruleset) and map this scenario plays,
    /// instead of listing `combatants`: a name under `assets/encounters/`, or a `.ron` path
    /// relative to this file.
    #[serde(default)]
    pub encounter: Option<String>,
    /// The battle map as rows (`.` open, `#` blocked, `~` difficult; row 0 is y = 0); empty = the
    /// open plane, or the encounter's map.
    #[serde(default, deserialize_with = "crate::rules::limits::map_rows")]
    pub map: Vec<String>,
    /// The combatants, in id order (none when `encounter` gives them).
    #[serde(default, deserialize_with = "crate::rules::limits::roster")]
    pub combatants: Vec<CombatantSpec>,
    /// Mods to load, by name, in this order: Rust mods (`regeneration`, `riposte`) or data mod
    /// folders under a `mods/` folder (see `docs/modding.md`).
    #[serde(default, deserialize_with = "crate::rules::limits::list")]
    pub mods: Vec<String>,
    /// What happens, in order.
    pub steps: Vec<Step>,
}

/// One scenario step.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Step {
    /// Force the next dice results.
    Force(#[serde(deserialize_with = "crate::rules::limits::forced_dice")] Vec<i32>),
    /// Use an ability on your turn.
    Act {
        /// Who.
        actor: String,
        /// Ability id.
        ability: String,
        /// Targets by name.
        #[serde(default)]
        targets: Vec<String>,
        /// Destination.
        #[serde(default, deserialize_with = "crate::rules::limits::square_opt")]
        to: Option<(i32, i32)>,
        /// Movement mode; for a Recovery Action, the effect it saves against (SG-30).
        #[serde(default)]
        mode: Option<String>,
        /// The GM marks it a surprise attack.
        #[serde(default)]
        surprise: bool,
    },
    /// Hold an ability until a trigger (HB-49).
    Hold {
        /// Who.
        actor: String,
        /// Ability id.
        ability: String,
        /// Targets; empty = whoever triggers it.
        #[serde(default)]
        targets: Vec<String>,
        /// Only this creature triggers it.
        #[serde(default)]
        by: Option<String>,
        /// Which actions trigger it.
        #[serde(default)]
        on: TriggerOn,
    },
    /// End a creature's turn.
    EndTurn(String),
    /// A creature answers a defence decision.
    Defend(String, DefenseMethod),
    /// A creature takes (`Some(ability)`) or declines (`None`) an attack of opportunity.
    Opportunity(String, Option<String>),
    /// A creature uses an ability in the pending opening, or passes (no ability).
    UseOpening {
        /// Who.
        who: String,
        /// Ability id; none = pass.
        #[serde(default)]
        ability: Option<String>,
        /// Targets.
        #[serde(default)]
        targets: Vec<String>,
        /// Destination.
        #[serde(default)]
        to: Option<(i32, i32)>,
        /// Movement mode.
        #[serde(default)]
        mode: Option<String>,
    },
    /// The GM approves or denies a pending Assist.
    Approve(bool),
    /// A creature Delays (G-P2-10).
    Delay(String),
    /// A delaying creature returns after the current turn (G-P2-10).
    ReturnFromDelay(String),
    /// A creature uses a triggered free action or reaction offered at a turn step, or none.
    Triggered(String, Option<String>),
    /// A creature that gains and loses actions at once says which to lose first (P2-13).
    LoseFirst(String, ActionLoss),
    /// The GM (the players) order creatures tied on initiative (G-P2-01).
    InitiativeOrder(Vec<String>),
    /// A caster whose cast completed holds it (`true`) or releases it (`false`) (SG-19).
    HoldCast(String, bool),
    /// A caster releases its held cast (SG-20).
    Release(String),
    /// A GM input.
    Gm(GmStep),
    /// The built-in AI plays every creature for up to this many commands.
    AiPlay(#[serde(deserialize_with = "crate::rules::limits::ai_commands")] u32),
    /// Check the state.
    Expect(Expect),
}

/// GM inputs, by creature name.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum GmStep {
    /// Open an opening for these creatures (empty = the default of G-HB-10).
    Opening(Vec<String>),
    /// Interrupt a creature.
    Interrupt(String),
    /// The creature was hit by a ranged or surprise attack.
    HitBy(String, HitKind),
    /// Put a condition on a creature.
    Condition {
        /// Who.
        who: String,
        /// Condition id.
        condition: String,
        /// Rounds.
        #[serde(default, deserialize_with = "crate::rules::limits::rounds0_opt")]
        rounds: Option<u32>,
        /// Its value (frightened 2, dying 2).
        #[serde(default, deserialize_with = "crate::rules::limits::value_opt")]
        value: Option<i32>,
    },
    /// A permanent wound.
    PermanentWound(String),
    /// The creature's assisted attack counts as an area attack.
    AreaAssist(String),
    /// Whether a creature is aware of its opponents (pf1e P1-25).
    SetAware(String, bool),
}

/// A check on the state after a step.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Expect {
    /// It is this creature's turn.
    Turn(String),
    /// No turn is running.
    NoTurn,
    /// The round number.
    Round(u32),
    /// Round and segment (segment 0 in a fixed cycle).
    Clock(u32, u32),
    /// The initiative order.
    Order(Vec<String>),
    /// Actions left this round.
    Actions(String, u8),
    /// Hit points.
    Hp(String, i32),
    /// The creature has the condition.
    Condition(String, String),
    /// The creature does not have the condition.
    NoCondition(String, String),
    /// The last command was applied.
    Accepted,
    /// The last command was rejected with this reason (the variant name, e.g. `NotEnoughActions`),
    /// and, when given, a message containing this text.
    Rejected(String, #[serde(default, skip_serializing_if = "Option::is_none")] Option<String>),
    /// A decision of this kind (`Defense`, `Opportunity`, `Opening`, `AssistApproval`,
    /// `Triggered`, `ActionLoss`, `InitiativeTie`, `CastComplete`) is pending for this creature
    /// (or `GM`).
    Pending(String, String),
    /// No decision is pending.
    NoPending,
    /// These events appear in the whole log, in this order (others may come between).
    Events(Vec<EventPattern>),
    /// These events appear, in order, among the events of the last command step.
    StepEvents(Vec<EventPattern>),
    /// No event in the whole log matches.
    NoEvent(EventPattern),
    /// No event of the last command step matches.
    StepNoEvent(EventPattern),
    /// Exactly this many events of the whole log match.
    Count(EventPattern, u32),
    /// Exactly this many events of the last command step match.
    StepCount(EventPattern, u32),
    /// The creature's square.
    Position(String, (i32, i32)),
    /// Held actions.
    Held(String, u32),
    /// The spread activity in progress: ability and actions paid, or none.
    Activity(String, Option<(String, u8)>),
    /// Total Assist bonus waiting on the creature.
    AssistBonus(String, i32),
    /// The combat ended with this side winning (none = no side left).
    Winner(Option<String>),
    /// The in-world seconds of the current round (HB-02).
    RoundSeconds(u32),
    /// A condition's value (frightened 2, dying 1).
    ConditionValue(String, String, i32),
    /// Reactions left.
    Reactions(String, u8),
    /// Rounds or turns left on a condition with such a duration.
    Left(String, String, u32),
    /// The next turns as they stand now: (creature, round, segment), as many as listed.
    Forecast(Vec<(String, u32, u32)>),
    /// If this creature took this ability now, its next turn's (round, segment).
    NextTurnIf(String, String, (u32, u32)),
    /// The cast being held and the recovery time owed, or none.
    Holding(String, Option<(String, u32)>),
    /// Items carried.
    Items(String, String, u32),
}

/// Matches one log event.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventPattern {
    /// Event kind, e.g. `AttackBlocked`.
    pub kind: String,
    /// The creature it is mainly about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<String>,
    /// Text the event (with names in place of ids) must contain, e.g. `total: 15`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has: Option<String>,
    /// Named fields of the event and their exact values, e.g. `{"time": 1}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, FieldValue>,
}

/// The exact value of one event field in a pattern: a number, `true`/`false`, or text that is
/// the field as printed (`"Hero"`, `"Some(3)"`, `"Melee"`) or, for a string field, its contents
/// (`"sword"` matches `ability: "sword"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// Text.
    Text(String),
}

impl FieldValue {
    /// Whether a field printed as `printed` (as in the log's text) has this value.
    pub(crate) fn matches(&self, printed: &str) -> bool {
        match self {
            FieldValue::Bool(b) => printed == if *b { "true" } else { "false" },
            FieldValue::Int(n) => printed == n.to_string(),
            FieldValue::Text(t) => printed == t || printed == format!("{t:?}"),
        }
    }
}
