//! The catalogue a ruleset carries: its abilities (cost, timing, effect, triggers, casting) and
//! its conditions (what they change, how long they last, how they end). Re-exported from
//! [`super`], so `rules::ruleset::AbilityDef` names them.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::super::dice::DiceExpr;

/// One ability of the catalogue.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityDef {
    /// Stable id used by data and commands.
    #[serde(deserialize_with = "super::super::limits::name")]
    pub id: String,
    /// Display name.
    #[serde(default, deserialize_with = "super::super::limits::name")]
    pub name: String,
    /// Its name in other languages, by language code (`{"es": "Espada", "ko": "검"}`); a
    /// language it lacks shows `name` (issue 24). Not part of the rules: the save and simulator
    /// hashes leave it out.
    #[serde(
        default,
        skip_serializing_if = "std::collections::BTreeMap::is_empty",
        deserialize_with = "super::super::limits::names"
    )]
    pub names: std::collections::BTreeMap<String, String>,
    /// Action cost (HB-08); 0 is a bonus action (HB-34).
    #[serde(deserialize_with = "super::super::limits::slots")]
    pub cost: u8,
    /// Recovery time on a segment clock (RecoveryTime turn model).
    #[serde(default, deserialize_with = "super::super::limits::time_opt")]
    pub recovery: Option<u32>,
    /// Tags: `melee`, `ranged`, `movement`, `bonus`, ...
    #[serde(default)]
    pub tags: Vec<String>,
    /// Uses allowed per turn; none means no limit (HB-35).
    #[serde(default, deserialize_with = "super::super::limits::slots_opt")]
    pub limit_per_turn: Option<u8>,
    /// Action, free action or reaction.
    #[serde(default)]
    pub timing: Timing,
    /// For triggered free actions and reactions: what triggers them.
    #[serde(default)]
    pub trigger: Option<AbilityTrigger>,
    /// Its action type, for typed budgets (G-P1-01).
    #[serde(default)]
    pub action: ActionType,
    /// Casting time in rounds, for abilities that span turns (G-P1-10).
    #[serde(default, deserialize_with = "super::super::limits::cast_rounds_opt")]
    pub casting_rounds: Option<u8>,
    /// Casting Time in segments: a Cast Action (SG-08..15).
    #[serde(default, deserialize_with = "super::super::limits::time_opt")]
    pub cast_time: Option<u32>,
    /// Focus Time in segments: a Focus Action (SG-26..29).
    #[serde(default, deserialize_with = "super::super::limits::time_opt")]
    pub focus_time: Option<u32>,
    /// Components a Cast Action needs (SG-15).
    #[serde(default)]
    pub components: Vec<CastComponent>,
    /// Allowed while holding a cast, with this much added to its recovery time (SG-21); none =
    /// forbidden while holding (SG-22).
    #[serde(default, deserialize_with = "super::super::limits::time_opt")]
    pub hold_surcharge: Option<u32>,
    /// Usable even while prevented from acting (the Recovery Action, SG-32).
    #[serde(default)]
    pub usable_when_prevented: bool,
    /// Spell level, for concentration checks (G-P1-09).
    #[serde(default, deserialize_with = "super::super::limits::value")]
    pub level: i32,
    /// How many creatures an effect that picks creatures (conditions on targets, damage,
    /// healing, saving throws) may pick: `UpTo(1)` for a single-target spell, `All` for every
    /// creature named (an area). Absent: any number, as `All` (a mod's ability must say which:
    /// `check` refuses it otherwise, issue 28).
    #[serde(default, skip_serializing_if = "TargetCount::is_unsaid")]
    pub targets: TargetCount,
    /// The farthest a target may be, in squares; absent: no limit (sight still applies where
    /// the effect needs it).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::super::limits::squares_opt")]
    pub range: Option<u32>,
    /// What it does.
    pub effect: Effect,
}

/// How many creatures an ability may pick ([`AbilityDef::targets`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TargetCount {
    /// Not said: any number (older data; a mod's ability must say).
    #[default]
    Unsaid,
    /// At most this many (1..=1,000).
    UpTo(#[serde(deserialize_with = "super::super::limits::count_pos")] u32),
    /// Every creature named: an area, a burst (said on purpose).
    All,
}

impl TargetCount {
    /// Whether it is the default, not said.
    pub fn is_unsaid(&self) -> bool {
        *self == Self::Unsaid
    }

    /// The most creatures it may pick, if it is limited.
    pub fn most(&self) -> Option<usize> {
        match self {
            Self::UpTo(n) => Some(*n as usize),
            Self::Unsaid | Self::All => None,
        }
    }
}

/// How an ability is paid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Timing {
    /// Costs `cost` actions on your turn.
    #[default]
    Action,
    /// Costs no actions (G-P2-16).
    Free,
    /// Costs a reaction; used when its trigger happens (G-P2-17).
    Reaction,
}

/// The typed actions of G-P1-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ActionType {
    /// A standard action.
    #[default]
    Standard,
    /// A move action (may replace the standard action).
    Move,
    /// Takes the standard and the move action.
    FullRound,
    /// One per turn.
    Swift,
    /// Any time; uses your next swift action.
    Immediate,
    /// Costs nothing.
    Free,
    /// A 5-foot step: only if you make no other movement this turn.
    FiveFootStep,
}

/// A component of a Cast Action (SG-15).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastComponent {
    /// Speak a word or incantation.
    Verbal,
    /// Make gestures.
    Somatic,
    /// A physical object, consumed when the effect occurs.
    Material(String),
    /// An object the power is cast through, not consumed.
    Focus(String),
}

/// Triggers for triggered free actions and reactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AbilityTrigger {
    /// "Your turn begins" (P2-06).
    TurnBegins,
    /// "Your turn ends" (P2-25).
    TurnEnds,
    /// An enemy moves out of a square in your reach (an attack of opportunity).
    EnemyLeavesReach,
}

/// How long an effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Reflect)]
pub enum Lasts {
    /// N rounds: ticked at round end (RoundEnd clock) or at its creator's start of turn.
    Rounds(#[serde(deserialize_with = "super::super::limits::rounds0")] u32),
    /// N of the owner's turns, ticked at the owner's end of turn (P2-22).
    OwnerTurns(#[serde(deserialize_with = "super::super::limits::rounds0")] u32),
    /// Until the end of the owner's current turn (P2-21).
    UntilEndOfTurn,
    /// Until the end of its creator's turn unless Sustained that turn (G-P2-09).
    Sustained,
}

/// What an ability does when it resolves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// An attack roll against one target, answered by a defensive roll.
    Attack {
        /// Melee, ranged or area.
        kind: AttackKind,
        /// Stat added to the attack roll (G-HB-21).
        stat: String,
        /// Damage on a hit.
        damage: DiceExpr,
        /// Further attacks in the same action, with these attack modifiers (a full attack).
        #[serde(default, deserialize_with = "super::super::limits::modifiers")]
        iterative: Vec<i32>,
        /// Its own threat range and multiplier (G-P1-18: a 19–20 or ×3 weapon); absent: the
        /// ruleset's `attack_math.critical`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        critical: Option<super::WeaponCritical>,
    },
    /// Move up to twice your speed to a square next to the target, then attack it (a charge).
    Charge {
        /// Attack stat.
        stat: String,
        /// Damage on a hit.
        damage: DiceExpr,
        /// Attack bonus for charging.
        #[serde(deserialize_with = "super::super::limits::flat")]
        bonus: i32,
    },
    /// Move up to your speed; provokes from every engaged creature (HB-18/19).
    Move,
    /// Move with a given movement mode (segments: Shift, Skirmish, Sprint, SG-06).
    MoveAs {
        /// The movement mode.
        mode: String,
    },
    /// The Recovery Action: a saving throw against one condition a save can end (SG-30).
    RecoverySave,
    /// Move a little without provoking; protects your next Move from the targets (HB-16/17).
    Disengage,
    /// Grant an ally a bonus on its next attack, save or skill roll (HB-10..15).
    Assist {
        /// Roll bonus (HB-10: +2).
        #[serde(deserialize_with = "super::super::limits::flat")]
        bonus: i32,
        /// Damage bonus when the attack types match (HB-14: +2).
        #[serde(deserialize_with = "super::super::limits::flat")]
        same_type_damage: i32,
    },
    /// Put a condition on yourself (Defend: defensive position).
    SelfCondition {
        /// Condition id.
        condition: String,
        /// How long it lasts; none = until it ends by its own rule.
        #[serde(default)]
        duration: Option<Lasts>,
    },
    /// Put a condition on each target (a buff, a debuff, a spell's effect).
    TargetCondition {
        /// Condition id.
        condition: String,
        /// Its value.
        #[serde(default, deserialize_with = "super::super::limits::value_opt")]
        value: Option<i32>,
        /// How long it lasts.
        #[serde(default)]
        duration: Option<Lasts>,
    },
    /// Extend every sustained effect you created to the end of your next turn (G-P2-09).
    Sustain,
    /// Move up to the ruleset's short-step distance without provoking anything (pf2e Step).
    Step,
    /// Damage each target with no roll to hit (Magic Missile).
    Damage {
        /// Amount.
        amount: DiceExpr,
    },
    /// Restore hit points to each target.
    Heal {
        /// Amount.
        amount: DiceExpr,
    },
    /// Each target makes a saving throw (HB-52/53).
    Save {
        /// Stat the target adds.
        stat: String,
        /// Difficulty.
        #[serde(deserialize_with = "super::super::limits::flat")]
        dc: i32,
        /// Damage on a failed save.
        #[serde(default)]
        damage: Option<DiceExpr>,
        /// Conditions put on a failed save.
        #[serde(default)]
        on_fail: Vec<String>,
        /// How long those conditions last.
        #[serde(default)]
        duration: Option<Lasts>,
        /// A basic saving throw (G-P2-26): critical success no damage, success half, failure
        /// full, critical failure double. Needs the ruleset's `saves.degrees`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        basic: bool,
    },
    /// No mechanical effect beyond completing (reload, a story action).
    Narrative,
}

/// The attack types of HB-42.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Reflect)]
pub enum AttackKind {
    /// Melee: Parry or Dodge.
    Melee,
    /// Ranged: Dodge only.
    Ranged,
    /// Area: Dodge only.
    Area,
}

/// One condition of the catalogue.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionDef {
    /// Stable id.
    #[serde(deserialize_with = "super::super::limits::name")]
    pub id: String,
    /// Its name by language code (`{"en": "Flat-footed", "es": "Desprevenido"}`); a language
    /// it lacks shows the id with spaces for underscores (issue 24). Not part of the rules: the
    /// save and simulator hashes leave it out.
    #[serde(
        default,
        skip_serializing_if = "std::collections::BTreeMap::is_empty",
        deserialize_with = "super::super::limits::names"
    )]
    pub names: std::collections::BTreeMap<String, String>,
    /// A negative status effect (G-HB-13).
    #[serde(default)]
    pub negative: bool,
    /// A debilitating status effect: a typical opening trigger (HB-29).
    #[serde(default)]
    pub debilitating: bool,
    /// The creature cannot act (G-HB-19).
    #[serde(default)]
    pub blocks_actions: bool,
    /// Defensive rolls are made with advantage (HB-22).
    #[serde(default)]
    pub defense_advantage: bool,
    /// What ends it besides its duration (HB-23).
    #[serde(default)]
    pub ends_on: Vec<EndTrigger>,
    /// Applying it again adds another instance (otherwise: no additional benefit, HB-24).
    #[serde(default)]
    pub stacks: bool,
    /// Added to the actions regained (quickened: +1) (P2-12, G-P2-07).
    #[serde(default, deserialize_with = "super::super::limits::slots")]
    pub regain_bonus: u8,
    /// Abilities the bonus action may be spent on (quickened's restriction); empty = any.
    #[serde(default)]
    pub bonus_restricted_to: Vec<String>,
    /// The regain loses this condition's value in actions (slowed, stunned) (G-P2-07).
    #[serde(default)]
    pub regain_loses_value: bool,
    /// The value goes down by the actions it took away (stunned) (G-P2-07).
    #[serde(default)]
    pub consumed_by_lost_actions: bool,
    /// Conditions whose action loss this one replaces (stunned overrides slowed).
    #[serde(default)]
    pub overrides: Vec<String>,
    /// Its value goes down by this much at the end of your turn (frightened: 1, G-P2-06).
    #[serde(default, deserialize_with = "super::super::limits::value")]
    pub decrement_at_end_of_turn: i32,
    /// Damage taken at the end of each of your turns (P2-23).
    #[serde(default)]
    pub persistent_damage: Option<DiceExpr>,
    /// Flat-check DC to end it after the damage (G-P2-03: 15).
    #[serde(default, deserialize_with = "super::super::limits::flat_opt")]
    pub flat_check_dc: Option<i32>,
    /// An ongoing affliction: a saving throw at the end of each turn (P2-23).
    #[serde(default)]
    pub affliction: Option<SaveDef>,
    /// Dying: a recovery check at the start of your turn, death at a value (P2-07, G-P2-04).
    #[serde(default)]
    pub recovery: Option<RecoveryRule>,
    /// Added to the creature's AC (Raise a Shield).
    #[serde(default, deserialize_with = "super::super::limits::flat")]
    pub ac_bonus: i32,
    /// The creature loses this stat's positive value from its AC (flat-footed: DEX, P1-19).
    #[serde(default)]
    pub ac_loses_stat: Option<String>,
    /// The creature makes no attacks of opportunity unless it has this trait (flat-footed and
    /// Combat Reflexes, P1-21).
    #[serde(default)]
    pub no_opportunity_unless: Option<String>,
    /// Creatures with any of these traits never get it (Uncanny Dodge, P1-20).
    #[serde(default)]
    pub immune_traits: Vec<String>,
    /// No immediate actions while it lasts (flat-footed, G-P1-11).
    #[serde(default)]
    pub blocks_immediate: bool,
    /// Added to every recovery time while it lasts (Slowed, Haste, an injury, G-SG-05).
    #[serde(default, deserialize_with = "super::super::limits::time_delta")]
    pub rt_add: i32,
    /// A saving throw can end it: the Recovery Action's target (an SE effect, SG-30).
    #[serde(default)]
    pub save_ends: Option<SaveDef>,
    /// Cast components it makes impossible (silenced: Verbal; bound: Somatic).
    #[serde(default)]
    pub blocks_components: Vec<String>,
    /// Changes to rolls, DCs and AC while it lasts (pf2e frightened: a status penalty equal to
    /// its value on checks and DCs), stacked by the ruleset's `modifier_stacking` (issue 28).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<RollModifier>,
}

impl ConditionDef {
    /// A condition `id` that does nothing yet: set the fields it needs with struct update
    /// syntax, `ConditionDef { negative: true, ..ConditionDef::named("chilled") }` (a Rust mod's
    /// own condition, [`crate::rules::modding::ModBuilder::condition`]).
    pub fn named(id: &str) -> Self {
        Self { id: id.to_string(), ..Self::default() }
    }
}

impl AbilityDef {
    /// An ability `id` costing `cost` actions that does `effect`; every other field has its data
    /// default (set them with struct update syntax).
    pub fn new(id: &str, cost: u8, effect: Effect) -> Self {
        Self {
            id: id.to_string(),
            name: String::new(),
            names: Default::default(),
            cost,
            recovery: None,
            tags: Vec::new(),
            limit_per_turn: None,
            timing: Timing::default(),
            trigger: None,
            action: ActionType::default(),
            casting_rounds: None,
            cast_time: None,
            focus_time: None,
            components: Vec::new(),
            hold_surcharge: None,
            usable_when_prevented: false,
            level: 0,
            targets: TargetCount::default(),
            range: None,
            effect,
        }
    }
}

/// A bonus or penalty a condition gives while it lasts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollModifier {
    /// What it changes (at least one).
    pub to: Vec<RollOn>,
    /// Its type, for stacking: `Untyped` (the default), `Status`, `Circumstance`, `Item`, `Morale`.
    #[serde(default)]
    pub kind: BonusKind,
    /// The amount: a bonus, or a penalty when negative.
    #[serde(deserialize_with = "super::super::limits::flat")]
    pub amount: i32,
    /// The amount is multiplied by the condition's value (frightened 2: twice `amount`).
    #[serde(default)]
    pub per_value: bool,
}

impl RollModifier {
    /// Its amount on a condition of this value: `amount`, times the value when `per_value`.
    pub fn amount_at(&self, value: i32) -> i32 {
        if self.per_value { self.amount.saturating_mul(value) } else { self.amount }
    }
}

/// What a [`RollModifier`] changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Reflect)]
pub enum RollOn {
    /// The creature's attack rolls.
    Attack,
    /// The creature's saving throws (and other checks made with the saves' dice: recovery
    /// saves, concentration).
    Save,
    /// The DCs of the saving throws the creature's abilities call for.
    Dc,
    /// The damage the creature's attacks and damaging abilities deal.
    Damage,
    /// The creature's AC; under an active defence, its defensive rolls.
    Ac,
}

impl RollOn {
    /// Every roll a modifier can change, in declaration order (`on as usize` indexes it).
    pub const ALL: [RollOn; 5] = [RollOn::Attack, RollOn::Save, RollOn::Dc, RollOn::Damage, RollOn::Ac];
}

/// A modifier's type: same-typed modifiers stack as the ruleset's `modifier_stacking` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize, Reflect)]
pub enum BonusKind {
    /// No type: always adds.
    #[default]
    Untyped,
    /// pf2e status bonuses and penalties (frightened, inspire courage).
    Status,
    /// pf2e circumstance bonuses and penalties (flanking, cover).
    Circumstance,
    /// pf2e item bonuses and penalties.
    Item,
    /// d20 morale bonuses (bless).
    Morale,
}

/// A saving throw described in data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveDef {
    /// Stat added.
    pub stat: String,
    /// Difficulty.
    #[serde(deserialize_with = "super::super::limits::flat")]
    pub dc: i32,
}

/// The recovery check of a dying creature (G-P2-04).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryRule {
    /// DC = base + the condition's value (10).
    #[serde(deserialize_with = "super::super::limits::flat")]
    pub base_dc: i32,
    /// At this value the creature dies (4).
    #[serde(deserialize_with = "super::super::limits::value_pos")]
    pub death_at: i32,
}

/// What can end a condition early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndTrigger {
    /// Suffering a permanent wound.
    PermanentWound,
    /// Suffering a negative status effect.
    NegativeStatus,
}
