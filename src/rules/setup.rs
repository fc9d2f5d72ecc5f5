//! Setting up a combat: the combatant sheet that encounters and scenarios share, and spawning it.

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::components::*;
use super::dice::Dice;
use super::log::CombatLog;
use super::ruleset::Ruleset;
use super::state::{Roster, TurnState};
use super::timeline::Timeline;

/// One combatant as written in a scenario or encounter file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantSpec {
    /// Unique name, used by commands and expectations.
    pub name: String,
    /// Side; creatures on different sides are enemies.
    pub side: String,
    /// Stats such as DEX and STR.
    #[serde(default, deserialize_with = "super::limits::stats")]
    pub stats: BTreeMap<String, i32>,
    /// Hit points.
    #[serde(default = "default_hp", deserialize_with = "super::limits::hp")]
    pub hp: i32,
    /// Abilities on the sheet (basic abilities are added by the ruleset).
    #[serde(default)]
    pub abilities: Vec<String>,
    /// Initiative: rolled, a fixed die result, or a fixed total.
    #[serde(default)]
    pub initiative: InitiativeSetup,
    /// Grid square.
    #[serde(default, deserialize_with = "super::limits::square")]
    pub at: (i32, i32),
    /// Movement modes and speeds in squares; empty = the ruleset's default mode at speed 6.
    #[serde(default, deserialize_with = "super::limits::speeds")]
    pub movement: BTreeMap<String, u32>,
    /// Who decides for it.
    #[serde(default)]
    pub controller: Controller,
    /// Conditions at the start.
    #[serde(default)]
    pub conditions: Vec<String>,
    /// Traits: feats and class features (`combat_reflexes`, `uncanny_dodge`).
    #[serde(default)]
    pub traits: Vec<String>,
    /// Aware of its opponents when combat starts (P1-23); a surprise round happens when some
    /// but not all are.
    #[serde(default = "yes")]
    pub aware: bool,
    /// Items carried: Material and Focus components (SG-15).
    #[serde(default, deserialize_with = "super::limits::items")]
    pub items: BTreeMap<String, u32>,
}

fn yes() -> bool {
    true
}

fn default_hp() -> i32 {
    10
}

/// Why a combat could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// The combatant's name, when the error is about one.
    pub combatant: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.combatant {
            Some(c) => write!(f, "combatant `{c}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Check combatants against a ruleset without touching any world.
pub fn validate(ruleset: &Ruleset, specs: &[CombatantSpec]) -> Result<(), SetupError> {
    let mut names = BTreeSet::new();
    let mut squares = BTreeSet::new();
    for s in specs {
        let err = |m: String| SetupError { combatant: Some(s.name.clone()), message: m };
        if !names.insert(s.name.as_str()) {
            return Err(err("duplicate name".into()));
        }
        if !squares.insert(s.at) {
            return Err(err(format!("square {:?} is already taken", s.at)));
        }
        for a in &s.abilities {
            if ruleset.ability(a).is_none() {
                return Err(err(format!("unknown ability `{a}` (not in ruleset `{}`)", ruleset.name)));
            }
        }
        for c in &s.conditions {
            if ruleset.condition(c).is_none() {
                return Err(err(format!("unknown condition `{c}`")));
            }
        }
        if s.hp <= 0 {
            return Err(err("hp must be positive".into()));
        }
    }
    if specs.is_empty() {
        return Err(SetupError { combatant: None, message: "no combatants".into() });
    }
    Ok(())
}

/// Insert the ruleset, dice and a fresh engine state, and spawn the combatants in order.
pub fn setup_world(world: &mut World, ruleset: Ruleset, seed: u64, specs: &[CombatantSpec]) -> Result<(), SetupError> {
    validate(&ruleset, specs)?;
    super::init_resources(world);
    let mut roster = Roster::default();
    let mut names = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let cid = Cid(i as u32);
        let mut movement = s.movement.clone();
        if movement.is_empty() {
            movement.insert(ruleset.default_movement_mode.clone(), 6);
        }
        let conditions = Conditions(s.conditions.iter().map(|c| (c.clone(), ConditionState::plain(1))).collect());
        let pos = GridPos { x: s.at.0, y: s.at.1 };
        let e = world
            .spawn(CombatantBundle {
                cid,
                name: CombatantName(s.name.clone()),
                side: Side(s.side.clone()),
                stats: Stats(s.stats.clone()),
                health: Health { hp: s.hp, max: s.hp },
                pos,
                movement: Movement(movement),
                abilities: Abilities(s.abilities.clone()),
                controller: s.controller,
                initiative_setup: s.initiative,
                initiative: Initiative::default(),
                pool: ActionPool::default(),
                conditions,
                casting: Casting::default(),
                held: HeldActions::default(),
                assists: AssistBonuses::default(),
                disengaged: DisengagedFrom::default(),
                created: CreatedEffects::default(),
                traits: Traits(s.traits.clone()),
                aware: Aware(s.aware),
                items: Inventory(s.items.clone()),
            })
            .id();
        roster.entities.push(e);
        if !s.conditions.contains(&ruleset.defeated_condition) {
            roster.occupied.insert(pos, cid);
        }
        names.push(s.name.clone());
    }
    world.insert_resource(Timeline::new(ruleset.turn_model));
    world.insert_resource(roster);
    world.insert_resource(CombatLog { names, events: Vec::new() });
    world.insert_resource(TurnState { seed, ..Default::default() });
    world.insert_resource(Dice::seeded(seed));
    world.insert_resource(ruleset);
    Ok(())
}
