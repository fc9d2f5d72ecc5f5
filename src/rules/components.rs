//! Combatant components: `Initiative`, `ActionPool`, `Conditions`, `Casting` and the rest.
//!
//! A combatant is an entity carrying a [`CombatantBundle`]. Every rules-facing value is an integer;
//! collections are ordered (`BTreeMap`, `Vec`) so that iteration never depends on hashing.
//!
//! This is the bottom floor of the rules core: plain data that a modder reads first. It depends
//! only on the data modules below it (`ruleset`, `limits`), never on `command`, `log` or `state`;
//! the plain-data types those share with it ([`ActIntent`], [`Via`]) live here and are
//! re-exported from their old places.

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::ruleset::{AttackKind, Lasts};

/// Using one ability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActIntent {
    /// Who acts.
    pub actor: Cid,
    /// The ability's id.
    pub ability: String,
    /// Its targets.
    pub targets: Vec<Cid>,
    /// Destination, for movement.
    pub to: Option<GridPos>,
    /// Movement mode, when the creature has several (HB-20).
    pub mode: Option<String>,
    /// The GM marked this attack as a surprise attack (HB-51, G-HB-12).
    pub surprise: bool,
}

impl ActIntent {
    /// An intent with no destination, mode or surprise.
    pub fn new(actor: Cid, ability: impl Into<String>, targets: Vec<Cid>) -> Self {
        Self { actor, ability: ability.into(), targets, to: None, mode: None, surprise: false }
    }
}

/// How an ability came to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Via {
    /// On the creature's own turn.
    Turn,
    /// In the opening with this id (HB-30).
    Opening(u32),
    /// As a reaction (attack of opportunity, HB-45).
    Reaction,
    /// As a held action released by its trigger (HB-50).
    Held,
}

/// A combatant's stable id: its index in the roster, in spawn order.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Cid(pub u32);

/// Display name of a combatant.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantName(pub String);

/// A combatant's name in other languages, by language code (the encounter's `names`): read only
/// by the game's HUD (`Combat::name_in`); the log and commands use
/// [`CombatantName`]. Present only on combatants that have such names.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Eq, Default)]
pub struct LocalNames(pub std::collections::BTreeMap<String, String>);

/// Which side a combatant fights on; creatures on different sides are hostile.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Side(pub String);

/// Statistics used directly as bonuses (DEX, STR, ...); they may be 0 or negative (HB-44).
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats(pub BTreeMap<String, i32>);

impl Stats {
    /// A stat's value; a stat the creature does not list is 0.
    pub fn get(&self, name: &str) -> i32 {
        self.0.get(name).copied().unwrap_or(0)
    }
}

/// Hit points.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// Current hit points.
    pub hp: i32,
    /// Maximum hit points.
    pub max: i32,
}

/// A square on the grid.
#[derive(
    Component, Reflect, Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct GridPos {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl GridPos {
    /// Squares between two positions, diagonals counting 1 (Chebyshev distance).
    /// Computed in 64 bits, so positions far apart never wrap around.
    pub fn distance(self, o: GridPos) -> u32 {
        let dx = (i64::from(self.x) - i64::from(o.x)).unsigned_abs();
        let dy = (i64::from(self.y) - i64::from(o.y)).unsigned_abs();
        u32::try_from(dx.max(dy)).unwrap_or(u32::MAX)
    }
}

/// Movement modes and their speeds in squares (HB-18, HB-20).
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement(pub BTreeMap<String, u32>);

/// The abilities a creature lists on its sheet (basic abilities come from the ruleset).
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abilities(pub Vec<String>);

/// Who answers this creature's decisions.
#[derive(Component, Reflect, Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Controller {
    /// A person at the HUD.
    Player,
    /// The built-in AI.
    Ai,
    /// A scenario script or replay.
    #[default]
    Script,
}

/// How this creature's initiative was set up (before combat starts).
#[derive(Component, Reflect, Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum InitiativeSetup {
    /// Roll the ruleset's dice.
    #[default]
    Rolled,
    /// The die shows this value; the stat is still added.
    Roll(#[serde(deserialize_with = "super::limits::stat")] i32),
    /// The total is fixed.
    Total(#[serde(deserialize_with = "super::limits::stat")] i32),
}

/// Initiative, rolled once at combat start (HB-04, G-HB-02).
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Initiative {
    /// The die result.
    pub roll: i32,
    /// Die plus stat.
    pub total: i32,
    /// Position in the initiative order, 0 first.
    pub rank: u32,
}

/// The action budget: a pool of actions per round (HB-06, G-HB-03) or per turn (P2-09).
#[derive(Component, Reflect, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionPool {
    /// Actions in the pool when it was last filled.
    pub max: u8,
    /// Actions spent since (on the turn, in openings, or held).
    pub spent: u8,
    /// Uses of limited abilities this turn.
    pub uses_this_turn: BTreeMap<String, u8>,
    /// Abilities with the attack trait used on its own turn this turn: the multiple attack
    /// penalty's count (G-P2-23).
    #[serde(default)]
    pub attacks: u8,
    /// Extra actions usable only for `restricted_to` (quickened, P2-12).
    pub restricted_left: u8,
    /// What the restricted actions may be spent on; empty = anything.
    pub restricted_to: Vec<String>,
    /// Reactions left until the next regain (P2-09/10), or attacks of opportunity left this
    /// round (pf1e).
    pub reactions_left: u8,
    /// Typed slots (G-P1-01): standard actions left.
    pub standard: u8,
    /// Typed slots: move actions left.
    pub moves: u8,
    /// Typed slots: swift actions left.
    pub swift: u8,
    /// An immediate action used off-turn takes the next turn's swift action.
    pub swift_owed: bool,
    /// Moved this turn (no 5-foot step after).
    pub moved: bool,
    /// Took a 5-foot step this turn (no other movement after).
    pub stepped: bool,
    /// Surprise round: one standard or one move action, not both (P1-27).
    pub one_of: bool,
}

/// As derived, but `attacks` only when set: the state hash (`Combat::state_hash`) reads this
/// text, and under a ruleset without a multiple attack penalty (every save made before issue 50)
/// it stays 0, so the hash reads as before.
impl std::fmt::Debug for ActionPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("ActionPool");
        d.field("max", &self.max).field("spent", &self.spent).field("uses_this_turn", &self.uses_this_turn);
        if self.attacks != 0 {
            d.field("attacks", &self.attacks);
        }
        d.field("restricted_left", &self.restricted_left)
            .field("restricted_to", &self.restricted_to)
            .field("reactions_left", &self.reactions_left)
            .field("standard", &self.standard)
            .field("moves", &self.moves)
            .field("swift", &self.swift)
            .field("swift_owed", &self.swift_owed)
            .field("moved", &self.moved)
            .field("stepped", &self.stepped)
            .field("one_of", &self.one_of)
            .finish()
    }
}

impl ActionPool {
    /// Actions still available, restricted ones included.
    pub fn available(&self) -> u8 {
        self.max.saturating_sub(self.spent) + self.restricted_left + self.standard + self.moves + self.swift
    }

    /// Unrestricted actions still available.
    pub(crate) fn regular(&self) -> u8 {
        self.max.saturating_sub(self.spent)
    }

    /// Actions available for a given ability.
    pub(crate) fn available_for(&self, ability: &str) -> u8 {
        let restricted = if self.restricted_to.is_empty() || self.restricted_to.iter().any(|a| a == ability) {
            self.restricted_left
        } else {
            0
        };
        self.regular() + restricted
    }

    /// Spend `cost` actions on `ability`, restricted ones first where allowed.
    pub(crate) fn spend(&mut self, ability: &str, cost: u8) {
        let usable = self.available_for(ability) - self.regular();
        let from_restricted = usable.min(cost);
        self.restricted_left -= from_restricted;
        self.spent += cost - from_restricted;
    }
}

/// One condition on a creature.
#[derive(Reflect, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionState {
    /// How long it lasts; none = until something ends it.
    pub lasts: Option<Lasts>,
    /// Rounds or turns left, for `Rounds` and `OwnerTurns`.
    pub left: Option<u32>,
    /// Instances (for stacking conditions).
    pub stacks: u32,
    /// Its value (frightened 2, dying 1, slowed 1); 1 for unvalued conditions.
    pub value: i32,
    /// Who created it (its rounds tick at the creator's start of turn, P2-05).
    pub creator: Option<Cid>,
    /// A sustained effect that was created or sustained during its creator's current turn.
    pub sustained: bool,
}

impl ConditionState {
    /// A plain condition with no duration.
    pub(crate) fn plain(value: i32) -> Self {
        Self { lasts: None, left: None, stacks: 1, value, creator: None, sustained: false }
    }
}

/// Conditions on a creature, by id.
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditions(pub BTreeMap<String, ConditionState>);

impl Conditions {
    /// Whether the condition is present.
    pub fn has(&self, id: &str) -> bool {
        self.0.contains_key(id)
    }
}

/// An activity whose cost is spread over turns (HB-26/27), or a cast in progress.
#[derive(Reflect, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    /// The ability being paid for.
    pub ability: String,
    /// Its targets.
    pub targets: Vec<Cid>,
    /// Its destination, for movement.
    pub dest: Option<GridPos>,
    /// Its movement mode.
    pub mode: Option<String>,
    /// Total cost.
    pub cost: u8,
    /// Paid so far.
    pub paid: u8,
    /// A Cast or Focus Action: the segment its effect occurs (SG-11, SG-26).
    pub effect_at: Option<u32>,
    /// Completed and held (SG-19).
    pub holding: bool,
    /// Recovery time owed for actions taken while holding (SG-21/23).
    pub accrued: u32,
}

impl Activity {
    /// An activity paid over turns (HB-26) or cast over rounds (G-P1-10).
    pub(crate) fn spread(i: &ActIntent, cost: u8, paid: u8) -> Self {
        Self {
            ability: i.ability.clone(),
            targets: i.targets.clone(),
            dest: i.to,
            mode: i.mode.clone(),
            cost,
            paid,
            effect_at: None,
            holding: false,
            accrued: 0,
        }
    }
}

/// What the creature is in the middle of, if anything.
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Casting(pub Option<Activity>);

/// What a held action waits for (G-HB-12). The default: any action by any enemy.
#[derive(Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldTrigger {
    /// Only this creature's actions trigger it; none = any hostile creature.
    pub by: Option<Cid>,
    /// Which actions trigger it.
    pub on: TriggerOn,
}

/// Kinds of action a held action can wait for.
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TriggerOn {
    /// Any ability.
    #[default]
    AnyAction,
    /// Any movement: Move, Disengage, Step, a charge, a move with a given mode.
    Moves,
    /// An attack.
    Attacks,
}

/// A held action (HB-49).
#[derive(Reflect, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// The ability held.
    pub ability: String,
    /// Its targets; empty = the creature that triggers it.
    pub targets: Vec<Cid>,
    /// When it fires.
    pub trigger: HeldTrigger,
    /// Actions reserved for it.
    pub cost: u8,
    /// Firing it spends the holder's reaction (pf2e Ready, G-P2-11).
    pub uses_reaction: bool,
}

/// Held actions, oldest first.
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldActions(pub Vec<Held>);

/// One Assist waiting to be used (HB-10, G-HB-07).
#[derive(Reflect, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssistBonus {
    /// Who assisted.
    pub from: Cid,
    /// Roll bonus.
    pub bonus: i32,
    /// Damage bonus if the attack type matches one of `from_kinds`.
    pub same_type_damage: i32,
    /// The assister's attack types.
    pub from_kinds: Vec<AttackKind>,
    /// The GM made the assisted attack an area attack (HB-15).
    pub area: bool,
}

/// Assists waiting for the creature's next attack, save or skill roll.
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssistBonuses(pub Vec<AssistBonus>);

/// Enemies this creature's next Move does not provoke (HB-17).
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisengagedFrom(pub Vec<Cid>);

/// Traits such as feats and class features (`combat_reflexes`, `uncanny_dodge`).
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traits(pub Vec<String>);

impl Traits {
    /// Whether the creature has the trait.
    pub fn has(&self, t: &str) -> bool {
        self.0.iter().any(|x| x == t)
    }
}

/// Items a creature carries: Material and Focus components (SG-15).
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inventory(pub BTreeMap<String, u32>);

/// Aware of its opponents at the start of combat (P1-23..29).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aware(pub bool);

impl Default for Aware {
    fn default() -> Self {
        Aware(true)
    }
}

/// Effects this creature created on creatures (itself included): `(owner, condition)`.
#[derive(Component, Reflect, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedEffects(pub Vec<(Cid, String)>);

/// Everything a combatant entity carries.
#[derive(Bundle)]
pub struct CombatantBundle {
    /// Stable id.
    pub cid: Cid,
    /// Name.
    pub name: CombatantName,
    /// Side.
    pub side: Side,
    /// Stats.
    pub stats: Stats,
    /// Hit points.
    pub health: Health,
    /// Grid square.
    pub pos: GridPos,
    /// Movement modes.
    pub movement: Movement,
    /// Listed abilities.
    pub abilities: Abilities,
    /// Who decides for it.
    pub controller: Controller,
    /// How initiative is set up.
    pub initiative_setup: InitiativeSetup,
    /// Initiative.
    pub initiative: Initiative,
    /// Action pool.
    pub pool: ActionPool,
    /// Conditions.
    pub conditions: Conditions,
    /// Activity in progress.
    pub casting: Casting,
    /// Held actions.
    pub held: HeldActions,
    /// Assists received.
    pub assists: AssistBonuses,
    /// Disengage protection.
    pub disengaged: DisengagedFrom,
    /// Effects it created.
    pub created: CreatedEffects,
    /// Traits.
    pub traits: Traits,
    /// Awareness at combat start.
    pub aware: Aware,
    /// Items carried.
    pub items: Inventory,
}
