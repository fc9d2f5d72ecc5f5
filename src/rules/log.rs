//! Events out: the typed, serializable combat log.
//!
//! The HUD, replays, statistics and tests read this log; nothing in it is read back by the rules.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::command::{Choice, Command, Decider, DefenseMethod, Rejection};
/// Moved to [`super::components`] (plain data at the bottom floor); re-exported here.
pub use super::components::Via;
use super::components::{Cid, GridPos};
use super::dice::DieRoll;
use super::ruleset::{AttackKind, HitKind, Lasts, RollOn, TurnStep};

mod kinds;

/// Why a combat ended as a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawReason {
    /// A whole round passed in which no creature could act and nothing changed.
    NobodyCanAct,
    /// The round cap of the ruleset or encounter was reached.
    RoundCap(u32),
    /// The engine's work limit for one combat was reached (a safety net; data within the
    /// load-time limits never reaches it).
    WorkLimit,
}

/// Why a condition ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// Its duration ran out (G-HB-17).
    Expired,
    /// A permanent wound (HB-23).
    PermanentWound,
    /// A negative status effect (HB-23).
    NegativeStatus,
    /// The creature's first (regular) turn began: flat-footed ends (P1-18, G-P1-05).
    FirstTurn,
    /// A mod removed it (see `skirmish::modding`).
    RemovedByMod,
    /// A recovery check brought its value to 0: the creature recovered (pf2e dying, P2-07).
    Recovered,
    /// Healed above 0 hit points: dying ends and the creature stands again (pf2e).
    Healed,
    /// A successful save ended it: an affliction's value brought to 0 (P2-23), a save-ends
    /// effect (segments' Recovery Action, SG-30).
    SaveSucceeded,
    /// A successful flat check ended it (persistent damage, P2-23).
    FlatCheckPassed,
    /// Its value went down to 0 (frightened at the end of turn, P2-24).
    WoreOff,
    /// The actions it took away used it up (stunned, G-P2-07).
    ActionsLost,
    /// Nobody sustained it: its creator did not, or is out of the fight (G-P2-09, G-P2-18).
    NotSustained,
}

/// Why an attack of opportunity was not offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoOpportunityReason {
    /// The enemy is flanked (HB-48).
    Flanked,
    /// The mover disengaged from it (HB-17).
    Disengaged,
    /// The enemy is paying for a spread activity (G-HB-09).
    Busy,
    /// The enemy cannot act.
    Incapacitated,
    /// The enemy has no attack to make it with.
    NoAttack,
    /// Flat-footed, without Combat Reflexes (P1-21).
    FlatFooted,
    /// No reaction or attack of opportunity left (G-P2-17, G-P1-02).
    NoneLeft,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombatEvent {
    /// Combat began.
    CombatStarted {
        /// Ruleset name.
        ruleset: String,
        /// RNG seed.
        seed: u64,
    },
    /// A creature's initiative (HB-04).
    InitiativeRolled {
        /// Who.
        who: Cid,
        /// Die.
        roll: i32,
        /// Stat bonus.
        bonus: i32,
        /// Total.
        total: i32,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// A roll-off between tied creatures (G-HB-01).
    InitiativeRollOff {
        /// Tied creatures.
        tied: Vec<Cid>,
        /// Their roll-off dice, same order.
        rolls: Vec<i32>,
    },
    /// The order for the whole combat (HB-05, G-HB-02).
    InitiativeOrder {
        /// First to last.
        order: Vec<Cid>,
    },
    /// A round began; pools refilled (G-HB-03).
    RoundStarted {
        /// Round number, from 1.
        round: u32,
        /// In-world seconds this round stands for (HB-02).
        seconds: u32,
    },
    /// A turn began.
    TurnStarted {
        /// Whose.
        who: Cid,
        /// Round.
        round: u32,
        /// Timeline time (round, or absolute segment).
        time: u32,
    },
    /// A turn was skipped.
    TurnSkipped {
        /// Whose.
        who: Cid,
        /// Why.
        reason: String,
    },
    /// An ability was used and paid for.
    AbilityUsed {
        /// Who.
        who: Cid,
        /// Ability id.
        ability: String,
        /// Actions paid.
        cost: u8,
        /// Targets.
        targets: Vec<Cid>,
        /// How.
        via: Via,
    },
    /// A spread activity began (HB-26).
    ActivityStarted {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
        /// Total cost.
        cost: u8,
        /// Paid now.
        paid: u8,
    },
    /// More of a spread activity was paid at turn start (HB-27).
    ActivityProgressed {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
        /// Paid now.
        paid_now: u8,
        /// Still owed.
        remaining: u8,
    },
    /// A spread activity's last action was paid: it takes effect (HB-26).
    ActivityCompleted {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
    },
    /// A spread activity was interrupted and failed (G-HB-09).
    ActivityInterrupted {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
        /// Actions spent on it and lost.
        actions_lost: u8,
    },
    /// An ability with no mechanical effect resolved.
    AbilityResolved {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
    },
    /// An action was held (HB-49).
    ActionHeld {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
        /// Actions reserved.
        cost: u8,
    },
    /// A held action's trigger happened; it resolves first (HB-50).
    HeldActionTriggered {
        /// Holder.
        who: Cid,
        /// Ability.
        ability: String,
        /// Who triggered it.
        by: Cid,
    },
    /// Held actions lost to a hit (HB-51).
    HeldActionsLost {
        /// Who.
        who: Cid,
        /// How many.
        count: u32,
        /// The hit's kind.
        kind: HitKind,
    },
    /// Held actions lapsed at round end (G-HB-12).
    HeldActionsLapsed {
        /// Who.
        who: Cid,
        /// How many.
        count: u32,
    },
    /// An attack roll (G-HB-21).
    AttackRolled {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
        /// Ability.
        ability: String,
        /// Attack type.
        kind: AttackKind,
        /// Die.
        roll: i32,
        /// Stat + flanking + assists.
        bonus: i32,
        /// Total.
        total: i32,
        /// The part of `bonus` that flanking gave (HB-48, pf1e flanking), 0 when the target is
        /// not flanked.
        #[serde(default)]
        flanking: i32,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// Assist bonuses used up by a roll (G-HB-07).
    AssistUsed {
        /// Who used them.
        who: Cid,
        /// Assisters.
        from: Vec<Cid>,
        /// Total roll bonus.
        bonus: i32,
    },
    /// The defender declared its method (HB-39).
    DefenseDeclared {
        /// Defender.
        who: Cid,
        /// Method.
        method: DefenseMethod,
    },
    /// No defensive roll was possible (HB-44, HB-47).
    NoDefensePossible {
        /// Defender.
        who: Cid,
    },
    /// A defensive roll (HB-39).
    DefenseRolled {
        /// Defender.
        who: Cid,
        /// Method.
        method: DefenseMethod,
        /// Dice (two with advantage, HB-22).
        rolls: Vec<i32>,
        /// Stat bonus.
        bonus: i32,
        /// Total.
        total: i32,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// The defensive roll met the attack roll (HB-40).
    AttackBlocked {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
    },
    /// The attack hit.
    AttackHit {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
    },
    /// Damage taken.
    Damaged {
        /// Who.
        who: Cid,
        /// Amount.
        amount: i32,
        /// Hit points left.
        hp: i32,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// Out of the fight.
    Downed {
        /// Who.
        who: Cid,
    },
    /// A Move (HB-18).
    Moved {
        /// Who.
        who: Cid,
        /// From.
        from: GridPos,
        /// To.
        to: GridPos,
        /// Movement mode.
        mode: String,
    },
    /// A move stopped before it was made: a reaction to it left the mover down or unable to act
    /// (G-X-01).
    MoveStopped {
        /// The mover.
        who: Cid,
        /// The square it stays on.
        at: GridPos,
    },
    /// A Disengage (HB-16/17).
    Disengaged {
        /// Who.
        who: Cid,
        /// Enemies its next Move will not provoke.
        from: Vec<Cid>,
    },
    /// A Move provoked an attack of opportunity (HB-19, HB-46).
    OpportunityProvoked {
        /// The mover.
        mover: Cid,
        /// The enemy that may attack.
        from: Cid,
    },
    /// An enemy declined its attack of opportunity.
    OpportunityDeclined {
        /// The enemy.
        who: Cid,
    },
    /// An engaged enemy got no attack of opportunity.
    NoOpportunity {
        /// The mover.
        mover: Cid,
        /// The enemy.
        from: Cid,
        /// Why.
        reason: NoOpportunityReason,
    },
    /// An Assist took hold (HB-10).
    AssistGranted {
        /// Assister.
        from: Cid,
        /// Ally.
        to: Cid,
        /// Bonus.
        bonus: i32,
    },
    /// The GM denied an Assist (HB-11).
    AssistDenied {
        /// Assister.
        from: Cid,
        /// Ally.
        to: Cid,
    },
    /// The GM made an assisted attack an area attack (HB-15).
    AssistMadeArea {
        /// The assisted creature.
        who: Cid,
    },
    /// A condition began.
    ConditionApplied {
        /// Who.
        who: Cid,
        /// Condition.
        condition: String,
        /// Its value.
        value: i32,
        /// How long it lasts.
        lasts: Option<Lasts>,
    },
    /// A valued condition changed value (frightened 2 → 1, dying 1 → 2).
    ConditionValueChanged {
        /// Who.
        who: Cid,
        /// Condition.
        condition: String,
        /// New value.
        value: i32,
    },
    /// A start- or end-of-turn step (pf2e Steps 1 and 3), logged before its effects.
    TurnStepBegan {
        /// Whose turn.
        who: Cid,
        /// Which step.
        step: TurnStep,
    },
    /// Actions and reactions regained (P2-09..13).
    ActionsRegained {
        /// Who.
        who: Cid,
        /// Unrestricted actions.
        actions: u8,
        /// Restricted bonus actions (quickened).
        restricted: u8,
        /// Reactions.
        reactions: u8,
    },
    /// A recovery check while dying (P2-07, G-P2-04).
    RecoveryCheck {
        /// Who.
        who: Cid,
        /// Die.
        roll: i32,
        /// DC.
        dc: i32,
        /// CriticalSuccess, Success, Failure or CriticalFailure.
        degree: String,
        /// Dying value after it.
        value: i32,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// A flat check to end persistent damage (P2-23, G-P2-03).
    FlatCheck {
        /// Who.
        who: Cid,
        /// The persistent condition.
        condition: String,
        /// Die.
        roll: i32,
        /// DC.
        dc: i32,
        /// Whether it ended.
        success: bool,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// An attack roll missed a static AC.
    AttackMissed {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
        /// The AC it needed.
        ac: i32,
    },
    /// Hit points restored.
    Healed {
        /// Who.
        who: Cid,
        /// Amount.
        amount: i32,
        /// Hit points now.
        hp: i32,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// Sustained effects extended to the end of the next turn (G-P2-09).
    Sustained {
        /// Who.
        who: Cid,
        /// How many effects.
        count: u32,
    },
    /// An action was disrupted: its cost is spent, its effect does not happen (G-P2-12).
    ActionDisrupted {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
    },
    /// A creature Delayed (G-P2-10).
    Delayed {
        /// Who.
        who: Cid,
    },
    /// A delaying creature came back after another's turn, moving its initiative (G-P2-10).
    ReturnedFromDelay {
        /// Who.
        who: Cid,
        /// After whose turn.
        after: Cid,
    },
    /// A whole round passed while delaying: the delayed turn is lost (G-P2-10).
    DelayLapsed {
        /// Who.
        who: Cid,
    },
    /// A Cast or Focus Action announced: its effect comes at this time (SG-10, SG-11, SG-26).
    CastAnnounced {
        /// Who.
        who: Cid,
        /// The power.
        ability: String,
        /// Round of the effect.
        round: u32,
        /// Segment of the effect.
        segment: u32,
    },
    /// A completed cast is held (SG-19).
    CastHeld {
        /// Who.
        who: Cid,
        /// The power.
        ability: String,
    },
    /// An action taken while holding adds to the recovery owed (SG-21, SG-23).
    HoldAccrued {
        /// Who.
        who: Cid,
        /// This action's recovery time with the surcharge.
        rt: u32,
        /// Owed in all.
        total: u32,
    },
    /// A held cast is released, or a cast's effect occurs (SG-13, SG-20).
    CastReleased {
        /// Who.
        who: Cid,
        /// The power.
        ability: String,
        /// Round of the caster's next turn.
        next_round: u32,
        /// Segment of the caster's next turn.
        next_segment: u32,
    },
    /// Concentration broken: the cast or focus ends with no effect; a held power is lost with
    /// its energy (SG-17, SG-25, SG-28).
    ConcentrationBroken {
        /// Who.
        who: Cid,
        /// The power.
        ability: String,
        /// Round of the next turn.
        next_round: u32,
        /// Segment of the next turn.
        next_segment: u32,
    },
    /// A Material component was consumed (SG-15).
    ComponentConsumed {
        /// Who.
        who: Cid,
        /// The item.
        item: String,
    },
    /// The surprise round begins: only the aware act (P1-26/27).
    SurpriseRound {
        /// The aware combatants, in initiative order.
        aware: Vec<Cid>,
    },
    /// An effect lasting N rounds ended just before the initiative count it began on (P1-12).
    ExpiredBeforeCount {
        /// Who had it.
        who: Cid,
        /// The condition.
        condition: String,
        /// The round it ended in.
        round: u32,
        /// The initiative count it began on and ended just before.
        count: i32,
    },
    /// A creature's initiative moved for good: just before `before` (a readied action, G-P1-04).
    InitiativeMoved {
        /// Who.
        who: Cid,
        /// The creature it now acts just before.
        before: Cid,
    },
    /// The GM changed whether a creature is aware of its opponents (P1-25).
    AwarenessSet {
        /// Who.
        who: Cid,
        /// Aware or not.
        aware: bool,
    },
    /// A readied action's trigger happened but it could not be used (no reaction left).
    ReadyNotUsed {
        /// Who.
        who: Cid,
        /// Ability.
        ability: String,
    },
    /// A non-stacking condition was applied again: no additional benefit (HB-24).
    ConditionUnchanged {
        /// Who.
        who: Cid,
        /// Condition.
        condition: String,
    },
    /// A condition ended.
    ConditionEnded {
        /// Who.
        who: Cid,
        /// Condition.
        condition: String,
        /// Why.
        reason: EndReason,
    },
    /// A permanent wound (HB-23).
    PermanentWound {
        /// Who.
        who: Cid,
    },
    /// A saving throw (HB-52/53).
    SaveRolled {
        /// Who.
        who: Cid,
        /// Stat used.
        stat: String,
        /// Die.
        roll: i32,
        /// Stat + assists.
        bonus: i32,
        /// Total.
        total: i32,
        /// Difficulty.
        dc: i32,
        /// Whether it succeeded.
        success: bool,
        /// Every die rolled, kept and dropped (empty when nothing was rolled).
        #[serde(default)]
        dice: Vec<DieRoll>,
    },
    /// An opening formed (HB-29), eligible creatures in resolution order (HB-32).
    OpeningCreated {
        /// Opening id.
        id: u32,
        /// Eligible, in the order they resolve.
        eligible: Vec<Cid>,
    },
    /// A creature let an opening pass.
    OpeningPassed {
        /// Opening.
        id: u32,
        /// Who.
        who: Cid,
    },
    /// A creature could not use an opening.
    OpeningSkipped {
        /// Opening.
        id: u32,
        /// Who.
        who: Cid,
        /// Why.
        reason: String,
    },
    /// Every eligible creature had its chance.
    OpeningClosed {
        /// Opening.
        id: u32,
    },
    /// The engine waits for a decision.
    DecisionRequested {
        /// Who must answer.
        by: Decider,
        /// What about.
        about: String,
    },
    /// A decision was answered.
    DecisionMade {
        /// Who answered.
        by: Decider,
        /// The answer.
        choice: Choice,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose.
        who: Cid,
        /// Actions still unspent (kept for openings until round end, G-HB-04).
        actions_left: u8,
    },
    /// Actions unspent at round end are forfeited (G-HB-04), or at once when a reaction to its
    /// move stopped a creature on its own turn (G-X-01).
    ActionsForfeited {
        /// Who.
        who: Cid,
        /// How many.
        count: u8,
    },
    /// A round ended (HB-07).
    RoundEnded {
        /// Round.
        round: u32,
    },
    /// Only one side is left standing, or the combat was drawn.
    CombatEnded {
        /// The winning side, if any is left.
        winner: Option<String>,
    },
    /// The combat ends as a draw (followed by `CombatEnded { winner: None }`).
    CombatDrawn {
        /// Why.
        reason: DrawReason,
        /// The round it ended in.
        round: u32,
    },
    /// A mod changed the rules state (see `skirmish::modding`); the engine's own events for the
    /// change (`Damaged`, `Healed`, `ConditionApplied`, ...) follow it.
    ModEffect {
        /// The mod's name.
        source: String,
        /// The creature it acts on.
        who: Cid,
        /// What it does.
        action: ModAction,
    },
    /// Conditions' modifiers counted in a roll, a DC or an AC (issue 28), logged with the roll
    /// they change (after `AttackRolled` for the attack and the target's AC, after
    /// `DefenseRolled` for a defensive roll, after `SaveRolled` for the save and the DC, before
    /// the `Damaged` of the damage they change), and only when there is one.
    /// The roll's logged bonus, total, DC or AC already includes them.
    RollModified {
        /// Whose roll, DC or AC it is.
        who: Cid,
        /// What was changed.
        on: RollOn,
        /// Each counted modifier: the condition that gives it, and its amount.
        modifiers: Vec<(String, i32)>,
    },
    /// The multiple attack penalty of an attack roll (G-P2-23), right after its `AttackRolled`,
    /// whose bonus and total already include it; only when there is one.
    MultipleAttackPenalty {
        /// The attacker.
        who: Cid,
        /// The penalty (negative).
        penalty: i32,
    },
    /// A threat's confirmation roll (G-P1-18), after the threat's `AttackHit`: the same bonus
    /// against the same AC.
    CritConfirmRolled {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
        /// Die.
        roll: i32,
        /// The attack's bonus.
        bonus: i32,
        /// Total.
        total: i32,
        /// The target's AC.
        ac: i32,
        /// It confirmed the critical hit.
        confirmed: bool,
        /// Every die rolled.
        dice: Vec<DieRoll>,
    },
    /// A critical hit (G-P2-25, G-P1-18), after its `AttackHit`: the damage is multiplied.
    CriticalHit {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
        /// The damage multiplier.
        multiplier: u8,
    },
    /// A critical failure of an attack roll (G-P2-24), after its `AttackMissed`.
    CriticalMiss {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
    },
    /// The degree of a saving throw (G-P2-24), right after its `SaveRolled`, under a ruleset
    /// whose saves have degrees.
    SaveDegree {
        /// Who saved.
        who: Cid,
        /// How well.
        degree: Degree,
    },
    /// Damage multiplied or halved (a critical hit, a basic save: G-P2-25/26, G-P1-18), just
    /// before the `Damaged` it changed, whose dice are every die rolled.
    DamageScaled {
        /// Who takes it.
        who: Cid,
        /// The damage as rolled (a critical that rolls its dice several times: all of them).
        rolled: i32,
        /// The damage taken.
        amount: i32,
        /// How it was changed.
        scale: DamageScale,
    },
}

/// A degree of success (G-P2-24), worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Reflect)]
pub enum Degree {
    /// At or below the DC less the margin (or a failure worsened by a natural 1).
    CriticalFailure,
    /// Below the DC.
    Failure,
    /// At or above the DC.
    Success,
    /// At or above the DC plus the margin (or a success bettered by a natural 20).
    CriticalSuccess,
}

impl Degree {
    /// A success or a critical success.
    pub fn succeeded(self) -> bool {
        self >= Degree::Success
    }
}

/// How damage was changed ([`CombatEvent::DamageScaled`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Reflect)]
pub enum DamageScale {
    /// Multiplied (a critical hit, a basic save's critical failure).
    Times(u8),
    /// Halved, rounded down (a basic save's success).
    Half,
}

/// What a mod did, as logged in [`CombatEvent::ModEffect`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModAction {
    /// Dealt damage.
    Damage(i32),
    /// Restored hit points.
    Heal(i32),
    /// Put a condition on (with its value).
    ApplyCondition(String, i32),
    /// Removed a condition.
    RemoveCondition(String),
    /// Gave back spent actions.
    GrantActions(u8),
    /// Spent actions.
    SpendActions(u8),
    /// Moved the creature's next turn to this timeline time.
    Reschedule(u32),
}

/// The version of the events' written form (their RON text, which a save's log hash covers).
/// Raise it whenever a [`CombatEvent`] gains, loses or renames a field or a variant: a save
/// records the number it was written with, and `replay --verify` compares the log hash only
/// between equal numbers (an older save's state is still verified; its log is "not comparable").
pub const LOG_FORMAT: u32 = 2;

/// The combat log: every event, in order. Serialize it to compare runs byte for byte.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatLog {
    /// Combatant names, indexed by [`Cid`].
    pub names: Vec<String>,
    /// Events in order.
    pub events: Vec<CombatEvent>,
}

impl CombatLog {
    /// Append an event.
    pub(crate) fn push(&mut self, e: CombatEvent) {
        self.events.push(e);
    }

    /// The log as RON text (one event per line).
    pub fn to_ron(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            out.push_str(&ron::to_string(e).unwrap_or_else(|err| format!("<unserializable: {err}>")));
            out.push('\n');
        }
        out
    }

    /// A combatant's name.
    pub fn name(&self, c: Cid) -> &str {
        self.names.get(c.0 as usize).map_or("?", String::as_str)
    }

    /// One event as text with names in place of ids.
    pub fn describe(&self, e: &CombatEvent) -> String {
        let raw = format!("{e:?}");
        // Replace each `Cid(n)` with the name, in one pass (linear in the text, whatever the
        // number of combatants).
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw.as_str();
        while let Some(at) = rest.find("Cid(") {
            out.push_str(&rest[..at]);
            let after = &rest[at + 4..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let name = after[..digits]
                .parse::<usize>()
                .ok()
                .filter(|_| after[digits..].starts_with(')'))
                .and_then(|i| self.names.get(i));
            match name {
                Some(n) => {
                    out.push_str(n);
                    rest = &after[digits + 1..];
                }
                None => {
                    out.push_str("Cid(");
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// The outcome of every command, in order (not part of the combat log: a rejection changes nothing).
#[derive(Resource, Debug, Clone, Default)]
pub struct CommandOutcomes {
    /// Commands with their outcome.
    pub entries: Vec<(Command, Result<(), Rejection>)>,
}

impl CommandOutcomes {
    /// The last command's outcome.
    pub(crate) fn last(&self) -> Option<&Result<(), Rejection>> {
        self.entries.last().map(|(_, r)| r)
    }
}
