//! Commands in: what players, the AI, scenario scripts, replays and the GM send.
//!
//! Every command is a [`Command`] message. The engine either applies it, appending
//! [`CombatEvent`](super::log::CombatEvent)s to the log, or rejects it with a [`Rejection`] and
//! leaves every piece of state as it was.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Moved to [`super::components`] (plain data at the bottom floor); re-exported here.
pub use super::components::ActIntent;
use super::components::{Cid, GridPos, HeldTrigger};
use super::ruleset::HitKind;

/// An intent sent to the rules engine.
#[derive(Message, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Use an ability on your turn.
    Act(ActIntent),
    /// Hold an ability to resolve first when its trigger happens (HB-49), or Ready it (G-P2-11).
    Hold {
        /// Who holds.
        actor: Cid,
        /// The ability held.
        ability: String,
        /// Its targets; empty = whoever triggers it.
        targets: Vec<Cid>,
        /// What releases it.
        trigger: HeldTrigger,
    },
    /// Delay: leave the initiative order until you return (G-P2-10).
    Delay {
        /// Who delays.
        actor: Cid,
    },
    /// Come back from Delay after the current turn (G-P2-10).
    ReturnFromDelay {
        /// Who returns.
        actor: Cid,
    },
    /// Release a held cast as a Free Action (SG-20, G-SG-09).
    Release {
        /// Who holds it.
        actor: Cid,
    },
    /// Declare your turn done (G-HB-04).
    EndTurn {
        /// Whose turn.
        actor: Cid,
    },
    /// Answer the pending decision.
    Decide {
        /// Who answers.
        by: Decider,
        /// The answer.
        choice: Choice,
    },
    /// A game master's input.
    Gm(GmInput),
}

impl Command {
    /// The creature a command speaks for, if it names one (GM inputs name none).
    pub fn actor(&self) -> Option<Cid> {
        match self {
            Command::Act(i) => Some(i.actor),
            Command::Hold { actor, .. }
            | Command::Delay { actor }
            | Command::ReturnFromDelay { actor }
            | Command::Release { actor }
            | Command::EndTurn { actor } => Some(*actor),
            Command::Decide { by: Decider::Creature(c), .. } => Some(*c),
            _ => None,
        }
    }
}

/// Who answers a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decider {
    /// The controller of this creature.
    Creature(Cid),
    /// The game master.
    Gm,
}

/// A method of defence (HB-41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Reflect)]
pub enum DefenseMethod {
    /// 1d20 + DEX; against ranged, area and melee attacks (HB-42, G-HB-16).
    Dodge,
    /// 1d20 + STR; against melee attacks only (HB-42).
    Parry,
    /// Make no defensive roll.
    NoDefense,
}

/// An answer to a pending decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Choice {
    /// Defend against an attack with this method.
    Defend(DefenseMethod),
    /// Take an attack of opportunity with this ability, or decline.
    Opportunity(Option<String>),
    /// Use one ability in the opening, or pass.
    Opening(Option<OpeningUse>),
    /// Approve or deny an Assist (GM).
    Approve(bool),
    /// Use this triggered free action or reaction now, or none (P2-06, P2-25).
    Triggered(Option<String>),
    /// When gaining and losing actions at once, which kind to lose first (P2-13).
    LoseFirst(ActionLoss),
    /// The order of creatures tied on initiative (G-P2-01: players choose).
    Order(Vec<Cid>),
    /// A completed cast: hold it (true) or release its effect now (false) (SG-19).
    HoldCast(bool),
}

/// Which action goes when a creature gains and loses actions at once (P2-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionLoss {
    /// Lose the restricted bonus action (quickened's) first: the default.
    Restricted,
    /// Lose an unrestricted action first, keeping the restricted one.
    Regular,
}

/// The ability used in an opening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningUse {
    /// Ability id.
    pub ability: String,
    /// Targets.
    pub targets: Vec<Cid>,
    /// Destination, for movement.
    pub to: Option<GridPos>,
    /// Movement mode.
    pub mode: Option<String>,
}

/// Game-master inputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum GmInput {
    /// Open an opening for these creatures (HB-29); empty = the default of G-HB-10.
    Opening {
        /// Eligible creatures.
        eligible: Vec<Cid>,
    },
    /// Interrupt whatever the creature is doing (G-HB-09).
    Interrupt {
        /// Who.
        who: Cid,
    },
    /// The creature was hit by an attack of this kind outside the engine (HB-51).
    HitBy {
        /// Who.
        who: Cid,
        /// Ranged or surprise.
        kind: HitKind,
    },
    /// Put a condition on a creature (negative status effects end a defensive position, HB-23).
    ApplyCondition {
        /// Who.
        who: Cid,
        /// Condition id.
        condition: String,
        /// Rounds it lasts.
        rounds: Option<u32>,
        /// Its value (frightened 2, dying 2).
        value: Option<i32>,
    },
    /// The creature suffers a permanent wound (HB-23).
    PermanentWound {
        /// Who.
        who: Cid,
    },
    /// Whether a creature is aware of its opponents (P1-25); during the surprise round an aware
    /// creature whose count has not passed gets its surprise turn.
    SetAware {
        /// Who.
        who: Cid,
        /// Aware or not.
        aware: bool,
    },
    /// The creature's assisted attack counts as an area attack (HB-15).
    AreaAssist {
        /// The assisted creature.
        who: Cid,
    },
}

/// Why a command was rejected. State is untouched after a rejection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rejection {
    /// The combat has ended.
    CombatOver,
    /// No combatant with this id.
    UnknownCombatant(Cid),
    /// It is not this creature's turn (HB-28).
    NotYourTurn {
        /// Who tried.
        actor: Cid,
        /// Whose turn it is.
        active: Option<Cid>,
    },
    /// A decision is pending and must be answered first.
    AwaitingDecision {
        /// Who must answer.
        by: Decider,
    },
    /// No decision is pending.
    NoDecisionPending,
    /// Someone else must answer the pending decision.
    WrongDecider {
        /// Who must answer.
        expected: Decider,
    },
    /// The answer does not fit the pending decision.
    InvalidChoice(String),
    /// The ruleset has no such ability.
    UnknownAbility(String),
    /// The creature does not have this ability.
    AbilityNotKnown(String),
    /// Not enough actions left.
    NotEnoughActions {
        /// Cost.
        needed: u8,
        /// Left.
        available: u8,
    },
    /// The creature is paying for a spread activity and may do nothing else (HB-27).
    BusyWithActivity(String),
    /// The creature cannot act (G-HB-19).
    UnableToAct,
    /// The ability's per-turn limit is used up (HB-35).
    LimitReached(String),
    /// A target is missing or wrong.
    InvalidTarget(String),
    /// Out of range.
    OutOfRange {
        /// Squares away.
        distance: u32,
        /// Allowed.
        max: u32,
    },
    /// The destination square is taken.
    Occupied(GridPos),
    /// Several movement modes and none named (HB-20).
    MovementModeRequired(Vec<String>),
    /// The creature has no such movement mode.
    UnknownMovementMode(String),
    /// The ruleset has no openings.
    OpeningsDisabled,
    /// The ruleset does not allow holding actions.
    HoldingDisabled,
    /// Held actions need an ability that costs actions (G-HB-12).
    NotHoldable(String),
    /// Unknown condition id.
    UnknownCondition(String),
    /// A reaction or a triggered free action is used when its trigger happens, not as an action.
    ReactionOnly(String),
    /// The ruleset has no Delay.
    DelayDisabled,
    /// Delay only as your turn begins, before you act (G-P2-10).
    CannotDelayNow,
    /// The creature is not delaying.
    NotDelayed,
    /// No action of the needed type is left this turn (G-P1-01, P1-27).
    NoActionOfType(String),
    /// Not allowed while holding a cast (SG-22).
    NotWhileHolding(String),
    /// A cast component is missing (SG-15, G-SG-19).
    MissingComponent(String),
    /// The creature holds no cast.
    NotHolding,
}

impl Rejection {
    /// Every variant name, for checking scenario files when they load.
    pub const KINDS: &'static [&'static str] = &[
        "CombatOver",
        "UnknownCombatant",
        "NotYourTurn",
        "AwaitingDecision",
        "NoDecisionPending",
        "WrongDecider",
        "InvalidChoice",
        "UnknownAbility",
        "AbilityNotKnown",
        "NotEnoughActions",
        "BusyWithActivity",
        "UnableToAct",
        "LimitReached",
        "InvalidTarget",
        "OutOfRange",
        "Occupied",
        "MovementModeRequired",
        "UnknownMovementMode",
        "OpeningsDisabled",
        "HoldingDisabled",
        "NotHoldable",
        "UnknownCondition",
        "ReactionOnly",
        "DelayDisabled",
        "CannotDelayNow",
        "NotDelayed",
        "NoActionOfType",
        "NotWhileHolding",
        "MissingComponent",
        "NotHolding",
    ];

    /// The variant's name, used by scenario expectations.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Rejection::CombatOver => "CombatOver",
            Rejection::UnknownCombatant(_) => "UnknownCombatant",
            Rejection::NotYourTurn { .. } => "NotYourTurn",
            Rejection::AwaitingDecision { .. } => "AwaitingDecision",
            Rejection::NoDecisionPending => "NoDecisionPending",
            Rejection::WrongDecider { .. } => "WrongDecider",
            Rejection::InvalidChoice(_) => "InvalidChoice",
            Rejection::UnknownAbility(_) => "UnknownAbility",
            Rejection::AbilityNotKnown(_) => "AbilityNotKnown",
            Rejection::NotEnoughActions { .. } => "NotEnoughActions",
            Rejection::BusyWithActivity(_) => "BusyWithActivity",
            Rejection::UnableToAct => "UnableToAct",
            Rejection::LimitReached(_) => "LimitReached",
            Rejection::InvalidTarget(_) => "InvalidTarget",
            Rejection::OutOfRange { .. } => "OutOfRange",
            Rejection::Occupied(_) => "Occupied",
            Rejection::MovementModeRequired(_) => "MovementModeRequired",
            Rejection::UnknownMovementMode(_) => "UnknownMovementMode",
            Rejection::OpeningsDisabled => "OpeningsDisabled",
            Rejection::HoldingDisabled => "HoldingDisabled",
            Rejection::NotHoldable(_) => "NotHoldable",
            Rejection::UnknownCondition(_) => "UnknownCondition",
            Rejection::ReactionOnly(_) => "ReactionOnly",
            Rejection::DelayDisabled => "DelayDisabled",
            Rejection::CannotDelayNow => "CannotDelayNow",
            Rejection::NotDelayed => "NotDelayed",
            Rejection::NoActionOfType(_) => "NoActionOfType",
            Rejection::NotWhileHolding(_) => "NotWhileHolding",
            Rejection::MissingComponent(_) => "MissingComponent",
            Rejection::NotHolding => "NotHolding",
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &|c: Cid| format!("#{}", c.0))
    }
}

impl Decider {
    /// Who decides, in words: the creature's name (through `name`) or "the GM".
    pub(crate) fn describe(&self, name: &dyn Fn(Cid) -> String) -> String {
        match self {
            Decider::Creature(c) => name(*c),
            Decider::Gm => "the GM".into(),
        }
    }
}

impl Rejection {
    /// The reason in words, naming creatures through `name` (the log's names).
    pub(crate) fn describe(&self, name: &dyn Fn(Cid) -> String) -> String {
        struct With<'a>(&'a Rejection, &'a dyn Fn(Cid) -> String);
        impl fmt::Display for With<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, self.1)
            }
        }
        With(self, name).to_string()
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, name: &dyn Fn(Cid) -> String) -> fmt::Result {
        match self {
            Rejection::CombatOver => write!(f, "the combat is over"),
            Rejection::UnknownCombatant(c) => write!(f, "no combatant #{}", c.0),
            Rejection::NotYourTurn { actor, active } => match active {
                Some(a) => write!(f, "{} cannot act: it is {}'s turn", name(*actor), name(*a)),
                None => write!(f, "{} cannot act: no turn is running", name(*actor)),
            },
            Rejection::AwaitingDecision { by } => write!(f, "a decision by {} is pending", by.describe(name)),
            Rejection::NoDecisionPending => write!(f, "no decision is pending"),
            Rejection::WrongDecider { expected } => {
                write!(f, "this decision belongs to {}", expected.describe(name))
            }
            Rejection::InvalidChoice(why) => write!(f, "invalid choice: {why}"),
            Rejection::UnknownAbility(a) => write!(f, "the ruleset has no ability `{a}`"),
            Rejection::AbilityNotKnown(a) => write!(f, "the creature does not have `{a}`"),
            Rejection::NotEnoughActions { needed, available } => {
                write!(f, "needs {needed} action(s), {available} left")
            }
            Rejection::BusyWithActivity(a) => write!(f, "busy completing `{a}`: no other action until it completes"),
            Rejection::UnableToAct => write!(f, "the creature cannot act"),
            Rejection::LimitReached(a) => write!(f, "`{a}` has no uses left this turn"),
            Rejection::InvalidTarget(why) => write!(f, "invalid target: {why}"),
            Rejection::OutOfRange { distance, max } => {
                write!(f, "{distance} squares away, at most {max}")
            }
            Rejection::Occupied(p) => write!(f, "square ({}, {}) is occupied", p.x, p.y),
            Rejection::MovementModeRequired(m) => {
                write!(f, "name a movement mode: {}", m.join(", "))
            }
            Rejection::UnknownMovementMode(m) => write!(f, "no movement mode `{m}`"),
            Rejection::OpeningsDisabled => write!(f, "this ruleset has no openings"),
            Rejection::HoldingDisabled => write!(f, "this ruleset does not hold actions"),
            Rejection::NotHoldable(a) => write!(f, "`{a}` costs no actions and cannot be held"),
            Rejection::UnknownCondition(c) => write!(f, "the ruleset has no condition `{c}`"),
            Rejection::ReactionOnly(a) => write!(f, "`{a}` is used only when its trigger happens"),
            Rejection::DelayDisabled => write!(f, "this ruleset has no Delay"),
            Rejection::CannotDelayNow => write!(f, "Delay only as your turn begins, before acting"),
            Rejection::NotDelayed => write!(f, "the creature is not delaying"),
            Rejection::NoActionOfType(why) => write!(f, "{why}"),
            Rejection::NotWhileHolding(a) => write!(f, "`{a}` is not allowed while holding a cast"),
            Rejection::MissingComponent(c) => write!(f, "missing cast component: {c}"),
            Rejection::NotHolding => write!(f, "the creature holds no cast"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rejection in words without the log's names (its `Display`, which the CLI and errors
    /// print) names creatures by id, as `describe` does with names. (Found by the rules core's
    /// mutation sample: `Display` writing nothing survived, every test reading `describe`.)
    #[test]
    fn a_rejection_displays_its_reason_naming_creatures_by_id() {
        let r = Rejection::NotYourTurn { actor: Cid(2), active: Some(Cid(0)) };
        assert_eq!(r.to_string(), "#2 cannot act: it is #0's turn");
        let named = |c: Cid| ["Ana", "Bo", "Cy"][c.0 as usize].to_string();
        assert_eq!(r.describe(&named), "Cy cannot act: it is Ana's turn");
        assert_eq!(Rejection::NotDelayed.to_string(), "the creature is not delaying");
    }
}
