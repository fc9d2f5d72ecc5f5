//! Rulesets as data: `assets/rulesets/*.ron`.
//!
//! A ruleset holds the initiative formula, the tie-breakers, the action budget, the abilities with
//! their costs and the conditions, plus the strategy choices (docs/rulesets.md) that select engine
//! behaviour. Only the strategies the engine implements are listed; an unknown one is a load error
//! that names the file, line, column and the offending variant.

use std::collections::BTreeSet;
use std::path::Path;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::data::{DataError, parse_ron, read_data_file};
use super::dice::DiceExpr;

mod attack_math;
mod catalog;
pub use attack_math::*;
pub use catalog::*;

/// The whole ruleset: strategies, initiative, budget, abilities and conditions.
#[derive(Resource, Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// Name shown in logs and the HUD.
    #[serde(deserialize_with = "super::limits::name")]
    pub name: String,
    /// Strategy 1: how turns are scheduled (docs/rulesets.md).
    pub turn_model: TurnModel,
    /// Initiative formula and tie-breakers.
    pub initiative: InitiativeRule,
    /// Strategy 2: what a turn may spend and when it refreshes.
    pub budget: ActionBudget,
    /// Strategy 3: activities costing more than is left this turn.
    pub multi_turn: MultiTurnActivities,
    /// Strategy 4: when timed effects tick.
    pub durations: DurationClock,
    /// Strategy 5: out-of-turn budget for reactions.
    pub reactions: ReactionBudget,
    /// Strategy 6: GM-created windows to act out of turn.
    pub openings: Openings,
    /// The AI GM's default policy: when it opens openings and for whom
    /// ([`super::gm_policy::GmPolicy`]); absent: never. Only a ruleset with openings may give one.
    /// An encounter's `gm_policy` or `sim --gm-policy` replaces it.
    #[serde(default, skip_serializing_if = "super::gm_policy::GmPolicy::is_never")]
    pub gm_policy: super::gm_policy::GmPolicy,
    /// Stats' abbreviations in other languages, by stat and language code
    /// (`{"STR": {"es": "FUE", "ko": "근력"}}`), for the game's log and prompts (issue 24). Not a
    /// rule: the save and simulator hashes leave it out.
    #[serde(
        default,
        skip_serializing_if = "std::collections::BTreeMap::is_empty",
        deserialize_with = "super::limits::stat_names"
    )]
    pub stat_names: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    /// Strategy 7: surprise at combat start.
    pub surprise: SurprisePolicy,
    /// Strategy 8: what disruption does to an action in progress.
    pub disruption: DisruptionPolicy,
    /// Strategy 9: changing when you act.
    pub reorder: ReorderPolicy,
    /// How attacks are defended against.
    pub defense: DefenseRule,
    /// Engagement, flanking and withdrawal.
    #[serde(default)]
    pub engagement: EngagementRule,
    /// Assist approval and bonuses.
    #[serde(default)]
    pub assist: AssistRule,
    /// How saving throws resolve.
    #[serde(default)]
    pub saves: SaveRule,
    /// Degrees of success, critical hits, natural 20 and 1, the multiple attack penalty and
    /// off-guard from flanking (issue 50, [`AttackMath`]); absent: the plain roll against AC.
    #[serde(default, skip_serializing_if = "AttackMath::is_plain")]
    pub attack_math: AttackMath,
    /// How conditions' roll modifiers of one type add up (issue 28); absent: they all add.
    #[serde(default, skip_serializing_if = "ModifierStacking::is_all")]
    pub modifier_stacking: ModifierStacking,
    /// Steps run at the start and end of every turn (pf2e Steps 1 and 3); empty for systems
    /// without start/end-of-turn processing.
    #[serde(default)]
    pub turn_phases: TurnPhases,
    /// Which abilities may be used as attacks of opportunity.
    #[serde(default)]
    pub opportunity: OpportunityRule,
    /// How long a round lasts in the world (HB-02: 10 s per participant; pf2e: about 6 s).
    pub round_length: RoundLength,
    /// The combat is a draw when this round would start (1..=10,000; an encounter or scenario
    /// may set its own `max_rounds`).
    #[serde(default = "default_round_cap", deserialize_with = "super::limits::rounds")]
    pub round_cap: u32,
    /// A condition (and its value) a creature gets at 0 hit points instead of the defeated
    /// condition; it keeps taking turns (pf2e dying).
    #[serde(default)]
    pub at_zero_hp: Option<(String, i32)>,
    /// The condition a creature gets at 0 hit points or fewer.
    pub defeated_condition: String,
    /// Abilities every creature has without listing them (HB-09).
    #[serde(default)]
    pub basic_abilities: Vec<String>,
    /// Movement mode used when a creature lists none.
    #[serde(default = "default_mode")]
    pub default_movement_mode: String,
    /// The ability catalogue.
    pub abilities: Vec<AbilityDef>,
    /// The condition catalogue.
    pub conditions: Vec<ConditionDef>,
}

fn default_mode() -> String {
    "walk".into()
}

/// The default round cap: 100 rounds.
pub const DEFAULT_ROUND_CAP: u32 = 100;

fn default_round_cap() -> u32 {
    DEFAULT_ROUND_CAP
}

/// How the roll modifiers of conditions add up ([`RollModifier`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ModifierStacking {
    /// Every modifier adds.
    #[default]
    All,
    /// pf2e (CRB p. 444): of each type (status, circumstance, item) only the highest bonus and
    /// the worst penalty count; untyped ones all add.
    HighestPerType,
    /// d20 / PF1 (CRB p. 179): of each type only the highest bonus counts; penalties and untyped
    /// bonuses all add.
    HighestBonusPerType,
}

impl ModifierStacking {
    /// Whether it is the default (every modifier adds).
    pub fn is_all(&self) -> bool {
        *self == Self::All
    }
}

/// In-world length of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundLength {
    /// Seconds per participating creature (HB-02).
    PerParticipant(#[serde(deserialize_with = "super::limits::seconds")] u32),
    /// A fixed number of seconds.
    Fixed(#[serde(deserialize_with = "super::limits::seconds")] u32),
}

/// How a creature's next turn is scheduled on the one timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Reflect)]
pub enum TurnModel {
    /// Rounds: the next turn is the same initiative slot in the next round.
    FixedCycle,
    /// Segments: the next turn is now + the action's recovery time.
    RecoveryTime {
        /// Segments in a round (10 in segments, SG-40).
        #[serde(deserialize_with = "super::limits::time_pos")]
        segments_per_round: u32,
    },
}

/// Initiative: `dice + stat`, then the tie-breakers in order.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitiativeRule {
    /// The dice rolled, e.g. `1d20`.
    pub dice: DiceExpr,
    /// The stat added (HB-04: DEX).
    pub stat: String,
    /// Applied in order to creatures with equal totals.
    pub tie_breakers: Vec<TieBreaker>,
}

/// One way to separate equal initiative totals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreaker {
    /// The higher value of this stat goes first.
    HigherStat(String),
    /// Tied creatures roll the initiative die off, higher first, until resolved.
    RollOff,
    /// A creature not on this side goes before one on it (pf2e: the adversary goes first).
    FoesFirst(String),
    /// Creatures of this side still tied choose their order among themselves (a GM decision;
    /// the default keeps roster order).
    PlayerChoice(String),
    /// The higher total initiative modifier (everything added to the die) goes first (P1-16).
    HigherModifier,
}

/// What a turn may spend and when it refreshes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionBudget {
    /// One pool per creature per round, refilled at round start, spent on your turn and in openings.
    PerRoundPool {
        /// Actions per round (HB-06: 3).
        #[serde(deserialize_with = "super::limits::actions")]
        actions: u8,
    },
    /// One timed action per turn; its recovery time is the cost.
    OneTimedActionPerTurn,
    /// Typed actions each turn: a standard and a move action (or one full-round action), a swift
    /// action, free actions, and a 5-foot step if you make no other movement (G-P1-01).
    TypedSlots {
        /// Standard actions per turn.
        #[serde(deserialize_with = "super::limits::slots")]
        standard: u8,
        /// Move actions per turn.
        #[serde(deserialize_with = "super::limits::slots")]
        moves: u8,
        /// Swift actions per turn.
        #[serde(deserialize_with = "super::limits::slots")]
        swift: u8,
    },
    /// Actions and reactions regained at the last step of your own start of turn, no carry-over;
    /// unspent actions are lost at turn end, the reaction is kept until the next regain (P2-09..19).
    PerTurnPool {
        /// Actions regained (P2-09: 3).
        #[serde(deserialize_with = "super::limits::actions")]
        actions: u8,
        /// Reactions regained (P2-09: 1).
        #[serde(deserialize_with = "super::limits::slots")]
        reactions: u8,
        /// A creature that can't act regains nothing (P2-11, CRB); false = the remaster reading.
        cant_act_blocks_regain: bool,
    },
}

/// Whether an activity may cost more than is left in this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MultiTurnActivities {
    /// The cost must be paid at once.
    Forbidden,
    /// Only an ability whose own casting time is a round or more spans turns: it is started as
    /// a full-round action and takes effect at the start of your turn that many rounds later
    /// (G-P1-10).
    OnlyIfOwnTimeAtLeastOneRound,
    /// The cost is spread over later turns (HB-26/27).
    SpreadCost {
        /// No other action, not even a bonus action, until it completes.
        exclusive: bool,
        /// An interruption makes it fail.
        fails_on_interrupt: bool,
    },
}

/// When timed effects tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DurationClock {
    /// Effects lasting N rounds lose 1 at each round end (G-HB-17).
    RoundEnd,
    /// Effects lasting N rounds tick at their creator's start of turn (P2-05, G-P2-18); effects
    /// counted in the owner's turns tick at the owner's end of turn (P2-22).
    TurnHooks,
    /// An effect lasting N rounds ends just before the initiative count it began on, N rounds
    /// later (P1-12, G-SG-10).
    TimelinePoint,
}

/// Out-of-turn budget for reactions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReactionBudget {
    /// No limit, and they cost no actions (HB-37, G-HB-11).
    Unlimited,
    /// Reactions come from the pool's reactions, refreshed with it (P2-09/10, G-P2-17).
    PerOwnTurnRefresh,
    /// Attacks of opportunity per round, refreshed at your turn; a trait adds a stat's value
    /// (pf1e: 1, + Dex bonus with Combat Reflexes, G-P1-02).
    PerRound {
        /// Per round.
        #[serde(deserialize_with = "super::limits::slots")]
        base: u8,
        /// The trait that adds more.
        bonus_trait: Option<String>,
        /// The stat whose (positive) value it adds.
        bonus_stat: Option<String>,
    },
}

/// GM-created windows to act out of turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Openings {
    /// No openings.
    None,
    /// One ability per eligible creature per opening (HB-29..33).
    OneAbilityPerOpening {
        /// The ability's cost comes out of the round's pool (HB-31).
        paid_from_pool: bool,
    },
}

/// Surprise at combat start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SurprisePolicy {
    /// No surprise round (G-HB-18).
    None,
    /// When some but not all combatants are aware, a surprise round (round 0) comes first: the
    /// aware act in initiative order with one standard or one move action plus free actions
    /// (P1-26..29). Everyone starts with the flat-footed condition (P1-18).
    SurpriseRound {
        /// The condition every combatant starts with.
        flat_footed: String,
        /// When it ends (G-P1-05).
        flat_footed_ends: FlatFootedEnds,
    },
}

/// When flat-footed ends (G-P1-05).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlatFootedEnds {
    /// At the start of your first regular turn (the literal reading, default).
    FirstRegularTurn,
    /// At your first turn, the surprise round included.
    FirstActionIncludingSurprise,
}

/// What disruption does to an action in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DisruptionPolicy {
    /// Nothing is disrupted.
    None,
    /// Concentration during casts, focus and holding (SG-17, SG-25, SG-28, G-SG-07/08): a
    /// disrupted cast has no effect and the next turn comes this many segments later; a held
    /// power is lost with its energy.
    Concentration {
        /// Segments until the next turn after a disrupted cast or focus (1).
        #[serde(deserialize_with = "super::limits::time_pos")]
        next_turn_after: u32,
    },
    /// Damage while casting calls for a concentration check: d20 + stat against base + damage +
    /// spell level; a failure loses the spell (G-P1-09).
    ConcentrationCheck {
        /// Base DC (10).
        #[serde(deserialize_with = "super::limits::flat")]
        base_dc: i32,
        /// The caster's stat (caster level + casting modifier).
        stat: String,
    },
    /// The activity fails (G-HB-09).
    ActivityFails {
        /// Every action already spent on it is lost.
        spent_lost: bool,
        /// Being hit (a failed defensive roll) interrupts.
        on_hit: bool,
        /// Receiving a negative status effect interrupts.
        on_negative_status: bool,
    },
}

/// A kind of hit, for rules that react to how a creature was hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Reflect)]
pub enum HitKind {
    /// A ranged attack.
    Ranged,
    /// An attack by a creature the target was not aware of.
    Surprise,
}

/// Changing when you act.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReorderPolicy {
    /// No holding, delaying or readying.
    None,
    /// Hold actions to resolve first when a trigger happens (HB-49..51).
    HoldForPriority {
        /// Being hit this way loses every held action (HB-51).
        lost_on_hit: Vec<HitKind>,
    },
    /// Delay and Ready on a segment clock (SG-34..38, G-SG-11/12): a delaying creature leaves
    /// the schedule and takes its turn later among those due in that segment, by initiative; a
    /// readied action costs no time, interrupts when its trigger holds, and its recovery time
    /// counts from then. Initiative never changes.
    DelayReadyInTimeline,
    /// Delay (leave the order, return after another creature's turn) and Ready (an action kept
    /// for a trigger) (G-P2-10/11).
    DelayAndReady {
        /// Returning from Delay moves your initiative there for good.
        delay_changes_initiative: bool,
        /// Actions Ready costs (pf2e: 2).
        #[serde(deserialize_with = "super::limits::slots")]
        ready_cost: u8,
        /// A readied action is used as your reaction.
        ready_uses_reaction: bool,
        /// A readied action moves your initiative to just before the triggering creature (pf1e).
        #[serde(default)]
        ready_changes_initiative: bool,
        /// Readying ends your turn (pf2e).
        #[serde(default)]
        ready_ends_turn: bool,
    },
}

/// How attacks are defended against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefenseRule {
    /// The defender rolls 1d20 + Dodge or Parry against the attack roll (HB-38..44).
    ActiveRoll {
        /// The attacker's die (G-HB-21: 1d20 + the attack's stat).
        attack_dice: DiceExpr,
        /// The defender's die.
        dice: DiceExpr,
        /// Dodge bonus stat (HB-43: DEX).
        dodge_stat: String,
        /// Parry bonus stat (HB-43: STR).
        parry_stat: String,
        /// Ties block the attack (HB-40).
        defender_wins_ties: bool,
    },
    /// The attack roll against a static Armor Class: a hit if the total meets it.
    StaticAc {
        /// The attacker's die.
        attack_dice: DiceExpr,
        /// The target's stat holding its AC.
        ac_stat: String,
    },
}

/// Engagement, flanking and withdrawal on the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngagementRule {
    /// Squares a Disengage may move (G-HB-20).
    #[serde(deserialize_with = "super::limits::squares")]
    pub disengage_squares: u32,
    /// Attack bonus against a flanked creature (designer choice; the source names no number).
    #[serde(deserialize_with = "super::limits::flat")]
    pub flanking_attack_bonus: i32,
    /// Melee reach in squares.
    #[serde(deserialize_with = "super::limits::reach")]
    pub melee_reach: u32,
    /// Squares a Step may move (pf2e Step: 1).
    #[serde(default = "one", deserialize_with = "super::limits::squares")]
    pub step_squares: u32,
    /// A flanked creature makes no attack of opportunity on a creature withdrawing from it (HB-48).
    #[serde(default)]
    pub no_opportunity_from_flanked: bool,
    /// Flanking counts only for a melee attacker that is itself one of the two flankers (pf2e
    /// off-guard "to the flankers", G-P2-27; pf1e "a melee attacker that flanks", G-P1-19);
    /// false: for any melee attacker of a flanked creature (homebrew-d20, HB-12).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flanker_only: bool,
}

fn one() -> u32 {
    1
}

impl Default for EngagementRule {
    fn default() -> Self {
        Self {
            disengage_squares: 1,
            flanking_attack_bonus: 2,
            melee_reach: 1,
            step_squares: 1,
            no_opportunity_from_flanked: false,
            flanker_only: false,
        }
    }
}

/// Who approves an Assist (HB-11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum AssistApproval {
    /// Approved when assister and ally share an ability tag, else the GM decides.
    #[default]
    SharedTagOrAskGm,
    /// The GM always decides.
    AlwaysAskGm,
    /// Always approved.
    AlwaysApprove,
}

/// Assist rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AssistRule {
    /// Who approves.
    #[serde(default)]
    pub approval: AssistApproval,
    /// Tags that do not count as "shared" for approval (such as `basic`).
    #[serde(default)]
    pub ignored_tags: Vec<String>,
}

/// Saving throws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveRule {
    /// The die rolled.
    pub dice: DiceExpr,
    /// A tie (roll = DC) succeeds (G-HB-15).
    pub saver_wins_ties: bool,
    /// Conditions that grant defense advantage also apply to saves (HB-25: no).
    pub defense_advantage_applies: bool,
    /// Four degrees of success for saving throws (G-P2-24); a save succeeds at Success or
    /// better. Needs `saver_wins_ties` (a success is a total at or above the DC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub degrees: Option<DegreeRule>,
}

impl Default for SaveRule {
    fn default() -> Self {
        Self {
            dice: DiceExpr::parse("1d20").expect("static"),
            saver_wins_ties: true,
            defense_advantage_applies: false,
            degrees: None,
        }
    }
}

/// Which abilities may answer a Move as an attack of opportunity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum OpportunityRule {
    /// Any melee attack (HB-45).
    #[default]
    AnyMeleeAttack,
    /// Only reactions triggered by `EnemyLeavesReach` (pf2e: Reactive Strike).
    TriggeredReactions,
}

/// Start- and end-of-turn steps, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TurnPhases {
    /// Step 1 items; `Regain` must be last (P2-04).
    #[serde(default)]
    pub start: Vec<TurnStep>,
    /// Step 3 items; `PersistentDamage`, `PersistentFlatChecks`, `AfflictionSaves`,
    /// `DecrementValued` must keep that order (P2-23/24).
    #[serde(default)]
    pub end: Vec<TurnStep>,
}

/// One start- or end-of-turn step. Each is logged as its own event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnStep {
    /// Effects you created lasting N rounds lose one; at 0 they end (P2-05).
    TickOwnEffects,
    /// One free action or reaction triggered by "your turn begins" (P2-06).
    TurnBeginsTrigger,
    /// Dying creatures attempt a recovery check (P2-07).
    RecoveryCheck,
    /// Anything else that applies at the start of your turn (P2-08): readied actions lapse.
    StartOther,
    /// Regain actions and reactions, modified by conditions (P2-09..13).
    Regain,
    /// Effects lasting until the end of your turn end; unsustained spells end (P2-21).
    EndUntilEndOfTurn,
    /// Effects counted in your turns lose one (P2-22).
    TickOwnerTurns,
    /// Take persistent damage (P2-23).
    PersistentDamage,
    /// The flat check against each persistent damage (P2-23, G-P2-03).
    PersistentFlatChecks,
    /// Saving throws against ongoing afflictions (P2-23).
    AfflictionSaves,
    /// Valued conditions such as frightened go down (P2-24, G-P2-06).
    DecrementValued,
    /// One free action or reaction triggered by "your turn ends" (P2-25).
    TurnEndsTrigger,
    /// Anything else at the end of your turn (P2-26).
    EndOther,
}

impl Ruleset {
    /// Look an ability up by id.
    pub fn ability(&self, id: &str) -> Option<&AbilityDef> {
        self.ability_index(id).map(|i| &self.abilities[i])
    }

    /// Where `abilities` holds the ability with this id (the one [`Ruleset::ability`] finds): for
    /// a reader that keeps abilities by place across borrows of the ruleset (the tactical AI).
    pub fn ability_index(&self, id: &str) -> Option<usize> {
        self.abilities.iter().position(|a| a.id == id)
    }

    /// Look a condition up by id.
    pub fn condition(&self, id: &str) -> Option<&ConditionDef> {
        self.conditions.iter().find(|c| c.id == id)
    }

    /// Parse and validate a ruleset from text; `file` names it in errors. Every ability that
    /// picks creatures must say how many ([`super::query::unsaid_targets`], issue 28).
    pub fn from_ron_str(file: &str, text: &str) -> Result<Self, DataError> {
        let rs = Self::from_saved_ron_str(file, text)?;
        if let Some((id, message)) =
            rs.abilities.iter().find_map(|a| super::query::unsaid_targets(a).map(|m| (&a.id, m)))
        {
            let at = format!("id: \"{id}\"");
            let needle = if text.contains(&at) { at } else { format!("\"{id}\"") };
            return Err(DataError::at_text(file, text, &needle, message));
        }
        Ok(rs)
    }

    /// As [`Ruleset::from_ron_str`], for a ruleset a save embedded: one written before abilities
    /// said their targets keeps its meaning (any number of creatures), so old saves still load.
    pub(crate) fn from_saved_ron_str(file: &str, text: &str) -> Result<Self, DataError> {
        let rs: Ruleset = parse_ron(file, text)?;
        rs.validate(file, text)?;
        Ok(rs)
    }

    /// Load and validate a ruleset file.
    pub fn load(path: &Path) -> Result<Self, DataError> {
        let file = path.display().to_string();
        let text = read_data_file(path)?;
        Self::from_ron_str(&file, &text)
    }

    /// P2-04: Regain is the last start step; P2-23/24: persistent damage, its flat check,
    /// affliction saves and valued-condition decrements keep that order.
    fn validate_phases(&self, file: &str, text: &str) -> Result<(), DataError> {
        let start = &self.turn_phases.start;
        if let Some(i) = start.iter().position(|s| *s == TurnStep::Regain)
            && i + 1 != start.len()
        {
            return Err(DataError::at_text(
                file,
                text,
                "Regain",
                "turn_phases.start: Regain must be the last step (P2-04)",
            ));
        }
        let fixed = [
            TurnStep::PersistentDamage,
            TurnStep::PersistentFlatChecks,
            TurnStep::AfflictionSaves,
            TurnStep::DecrementValued,
        ];
        let positions: Vec<(TurnStep, usize)> =
            fixed.iter().filter_map(|f| self.turn_phases.end.iter().position(|s| s == f).map(|i| (*f, i))).collect();
        for w in positions.windows(2) {
            if w[0].1 > w[1].1 {
                return Err(DataError::at_text(
                    file,
                    text,
                    &format!("{:?}", w[1].0),
                    format!("turn_phases.end: {:?} must come after {:?} (P2-23/24)", w[1].0, w[0].0),
                ));
            }
        }
        for (phase, steps) in [("start", start), ("end", &self.turn_phases.end)] {
            let mut seen = Vec::new();
            for s in steps {
                if seen.contains(s) {
                    return Err(DataError::at_text(
                        file,
                        text,
                        &format!("{s:?}"),
                        format!("turn_phases.{phase}: {s:?} is listed twice"),
                    ));
                }
                seen.push(*s);
            }
        }
        if let Some((_, v)) = &self.at_zero_hp
            && !(1..=super::limits::MAX_VALUE).contains(v)
        {
            return Err(DataError::at_text(
                file,
                text,
                "at_zero_hp",
                format!("at_zero_hp: value {v} is out of range 1..={}", super::limits::MAX_VALUE),
            ));
        }
        if let Some((c, _)) = &self.at_zero_hp
            && self.condition(c).is_none()
        {
            return Err(DataError::at_text(
                file,
                text,
                &format!("\"{c}\""),
                format!("at_zero_hp: unknown condition `{c}`"),
            ));
        }
        Ok(())
    }

    /// Issue 50: the parts of `attack_math` and `saves.degrees` that need one another.
    fn validate_attack_math(&self, file: &str, text: &str) -> Result<(), DataError> {
        let err = |needle: &str, msg: String| DataError::at_text(file, text, needle, msg);
        let m = &self.attack_math;
        if matches!(m.critical, CriticalRule::OnCriticalSuccess { .. }) && m.degrees.is_none() {
            return Err(err(
                "OnCriticalSuccess",
                "attack_math.critical: OnCriticalSuccess needs attack_math.degrees (a critical success is a degree); \
                 add `degrees: Some((margin: 10, natural_steps: true))` or use Confirm"
                    .into(),
            ));
        }
        if m.degrees.is_some() && matches!(m.critical, CriticalRule::Confirm { .. }) {
            return Err(err(
                "Confirm",
                "attack_math.critical: Confirm (threats and confirmation rolls) does not go with attack_math.degrees; \
                 use OnCriticalSuccess"
                    .into(),
            ));
        }
        if m.degrees.is_some() && m.natural_hit_miss {
            return Err(err(
                "natural_hit_miss",
                "attack_math.natural_hit_miss: does nothing with attack_math.degrees (its natural_steps decide what a \
                 natural 20 or 1 does); remove one"
                    .into(),
            ));
        }
        let rolls_against_ac = matches!(self.defense, DefenseRule::StaticAc { .. });
        if !rolls_against_ac
            && (m.degrees.is_some()
                || m.natural_hit_miss
                || m.critical != CriticalRule::None
                || m.off_guard_when_flanked.is_some())
        {
            return Err(err(
                "attack_math",
                "attack_math: degrees, critical hits, natural_hit_miss and off_guard_when_flanked need `defense: StaticAc` \
                 (an attack against an AC); under an active defence (ActiveRoll) there is no AC to beat by a margin, to \
                 threaten or to confirm against. Only multiple_attack_penalty works with both"
                    .into(),
            ));
        }
        if let Some(p) = &m.multiple_attack_penalty {
            if let ReorderPolicy::DelayAndReady { ready_ends_turn: false, .. } = self.reorder {
                return Err(err(
                    "multiple_attack_penalty",
                    "attack_math.multiple_attack_penalty: needs Ready to end the turn (`reorder: DelayAndReady(..., \
                     ready_ends_turn: true)`): a readied Strike keeps the penalty it had when readied (G-P2-11), which is \
                     the turn's count only if nothing comes after the Ready"
                        .into(),
                ));
            }
            if p.penalties.is_empty() {
                return Err(err(
                    "penalties:",
                    "attack_math.multiple_attack_penalty.penalties: give at least one step".into(),
                ));
            }
            if !p.agile.is_empty() && p.agile.len() != p.penalties.len() {
                return Err(err(
                    "agile:",
                    format!(
                        "attack_math.multiple_attack_penalty.agile: {} steps, but penalties has {}; give as many, or none",
                        p.agile.len(),
                        p.penalties.len()
                    ),
                ));
            }
            if p.trait_tag.is_empty() {
                return Err(err(
                    "trait_tag:",
                    "attack_math.multiple_attack_penalty.trait_tag: empty; name the attack tag".into(),
                ));
            }
        }
        if let Some(c) = &m.off_guard_when_flanked
            && self.condition(c).is_none()
        {
            let near = super::data::did_you_mean(c, self.conditions.iter().map(|d| d.id.as_str()))
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            return Err(err(
                &format!("\"{c}\""),
                format!("attack_math.off_guard_when_flanked: unknown condition `{c}`{near}"),
            ));
        }
        if self.saves.degrees.is_some() && !self.saves.saver_wins_ties {
            return Err(err(
                "saver_wins_ties",
                "saves.degrees: a success is a total at or above the DC, so saver_wins_ties must be true".into(),
            ));
        }
        for a in &self.abilities {
            if let Effect::Save { basic: true, .. } = a.effect
                && self.saves.degrees.is_none()
            {
                return Err(err(
                    &format!("\"{}\"", a.id),
                    format!(
                        "abilities[{}].effect: a basic save needs degrees of success; give the ruleset `saves: (..., degrees: Some((margin: 10, natural_steps: true)))`",
                        a.id
                    ),
                ));
            }
            if let Effect::Save { basic: true, damage: None, .. } = a.effect {
                return Err(err(
                    &format!("\"{}\"", a.id),
                    format!("abilities[{}].effect: a basic save scales damage, but this save has no damage", a.id),
                ));
            }
        }
        Ok(())
    }

    /// Cross-reference checks that the parser cannot do.
    pub(crate) fn validate(&self, file: &str, text: &str) -> Result<(), DataError> {
        let err = |needle: &str, msg: String| DataError::at_text(file, text, needle, msg);
        let mut ids = BTreeSet::new();
        for a in &self.abilities {
            if !ids.insert(a.id.as_str()) {
                return Err(err(&format!("\"{}\"", a.id), format!("abilities: duplicate id `{}`", a.id)));
            }
        }
        let mut cids = BTreeSet::new();
        for c in &self.conditions {
            if !cids.insert(c.id.as_str()) {
                return Err(err(&format!("\"{}\"", c.id), format!("conditions: duplicate id `{}`", c.id)));
            }
        }
        for c in &self.conditions {
            if c.modifiers.iter().any(|m| m.to.is_empty()) {
                return Err(err(
                    &format!("\"{}\"", c.id),
                    format!(
                        "conditions[{}].modifiers: `to` names nothing; list what it changes (Attack, Save, Dc, Damage, Ac)",
                        c.id
                    ),
                ));
            }
        }
        for b in &self.basic_abilities {
            if self.ability(b).is_none() {
                let near = super::data::did_you_mean(b, self.abilities.iter().map(|d| d.id.as_str()))
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                return Err(err(&format!("\"{b}\""), format!("basic_abilities: unknown ability `{b}`{near}")));
            }
        }
        match self.condition(&self.defeated_condition) {
            None => {
                let d = &self.defeated_condition;
                return Err(err(&format!("\"{d}\""), format!("defeated_condition: unknown condition `{d}`")));
            }
            Some(c) if !c.blocks_actions => {
                let d = &self.defeated_condition;
                return Err(err(
                    &format!("\"{d}\""),
                    format!("defeated_condition: `{d}` must have blocks_actions: true"),
                ));
            }
            _ => {}
        }
        if let ActionBudget::PerRoundPool { actions: 0 } = self.budget {
            return Err(err("PerRoundPool", "budget: PerRoundPool needs at least 1 action".into()));
        }
        if let TurnModel::RecoveryTime { segments_per_round: 0 } = self.turn_model {
            return Err(err("RecoveryTime", "turn_model: segments_per_round must be at least 1".into()));
        }
        self.validate_phases(file, text)?;
        self.validate_attack_math(file, text)?;
        if self.openings == Openings::None && !self.gm_policy.is_never() {
            return Err(err(
                "gm_policy",
                "gm_policy: this ruleset has no openings (openings: None), so its GM cannot open any; \
                 remove gm_policy or give the ruleset openings"
                    .into(),
            ));
        }
        for a in &self.abilities {
            let refs: Vec<&String> = match &a.effect {
                Effect::SelfCondition { condition, .. } | Effect::TargetCondition { condition, .. } => vec![condition],
                Effect::Save { on_fail, .. } => on_fail.iter().collect(),
                _ => vec![],
            };
            for c in refs {
                if self.condition(c).is_none() {
                    let near = super::data::did_you_mean(c, self.conditions.iter().map(|d| d.id.as_str()))
                        .map(|n| format!(" (did you mean `{n}`?)"))
                        .unwrap_or_default();
                    return Err(err(
                        &format!("\"{c}\""),
                        format!("abilities[{}].effect: unknown condition `{c}`{near}", a.id),
                    ));
                }
            }
            let duration = match &a.effect {
                Effect::SelfCondition { duration, .. }
                | Effect::TargetCondition { duration, .. }
                | Effect::Save { duration, .. } => *duration,
                _ => None,
            };
            if let Some(l) = duration
                && !super::query::duration_ends(self, l)
            {
                return Err(err(
                    &format!("\"{}\"", a.id),
                    format!(
                        "abilities[{}].effect: duration {l:?} would never run out: this ruleset's turn_phases.end \
                         has no step that counts it down (TickOwnerTurns for OwnerTurns, EndUntilEndOfTurn for \
                         UntilEndOfTurn and Sustained); use Rounds",
                        a.id
                    ),
                ));
            }
            if matches!(self.turn_model, TurnModel::RecoveryTime { .. }) && a.recovery.is_none() {
                return Err(err(
                    &format!("\"{}\"", a.id),
                    format!("abilities[{}].recovery: required by the RecoveryTime turn model", a.id),
                ));
            }
        }
        Ok(())
    }
}
