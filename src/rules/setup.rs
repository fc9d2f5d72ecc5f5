//! Setting up a combat: the combatant sheet that encounters and scenarios share, and spawning it.

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::components::*;
use super::data::{DataError, locate};
use super::dice::Dice;
use super::log::CombatLog;
use super::map::BattleMap;
use super::ruleset::Ruleset;
use super::state::{Roster, TurnState};
use super::timeline::Timeline;

/// One combatant as written in a scenario or encounter file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantSpec {
    /// Unique name, used by commands and expectations.
    #[serde(deserialize_with = "super::limits::name")]
    pub name: String,
    /// Its name in other languages, by language code, for the game's HUD (issue 24); the log,
    /// commands and the command line use `name`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "super::limits::names")]
    pub names: BTreeMap<String, String>,
    /// Side; creatures on different sides are enemies.
    #[serde(deserialize_with = "super::limits::name")]
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
    /// Per ruleset (by its `name`): the abilities listed under that ruleset instead of
    /// `abilities`, so one sheet plays under rulesets whose ability ids differ.
    #[serde(default, deserialize_with = "super::limits::loadouts")]
    pub loadouts: BTreeMap<String, Vec<String>>,
    /// Per ruleset (by its `name`): the movement modes and speeds used under that ruleset instead
    /// of `movement` (segments moves with `shift`, `skirmish` and `sprint`).
    #[serde(default, deserialize_with = "super::limits::speeds_by_ruleset")]
    pub movement_for: BTreeMap<String, BTreeMap<String, u32>>,
}

impl CombatantSpec {
    /// The sheet as it plays under the ruleset named `ruleset`: its loadout, if it has one for
    /// that ruleset, replaces `abilities`, and its `movement_for` entry replaces `movement`. The
    /// result has no per-ruleset entries left.
    pub(crate) fn for_ruleset(&self, ruleset: &str) -> CombatantSpec {
        let mut s = self.clone();
        if let Some(a) = s.loadouts.remove(ruleset) {
            s.abilities = a;
        }
        if let Some(m) = s.movement_for.remove(ruleset) {
            s.movement = m;
        }
        s.loadouts.clear();
        s.movement_for.clear();
        s
    }

    /// As [`CombatantSpec::for_ruleset`], borrowing when there is nothing per ruleset.
    fn resolved(&self, ruleset: &str) -> std::borrow::Cow<'_, CombatantSpec> {
        if self.loadouts.is_empty() && self.movement_for.is_empty() {
            std::borrow::Cow::Borrowed(self)
        } else {
            std::borrow::Cow::Owned(self.for_ruleset(ruleset))
        }
    }
}

impl Default for CombatantSpec {
    /// An unnamed sheet with every field at its file default (10 hp, aware, at (0, 0)).
    fn default() -> Self {
        Self {
            name: String::new(),
            names: BTreeMap::new(),
            side: String::new(),
            stats: BTreeMap::new(),
            hp: default_hp(),
            abilities: Vec::new(),
            initiative: InitiativeSetup::default(),
            at: (0, 0),
            movement: BTreeMap::new(),
            controller: Controller::default(),
            conditions: Vec::new(),
            traits: Vec::new(),
            aware: true,
            items: BTreeMap::new(),
            loadouts: BTreeMap::new(),
            movement_for: BTreeMap::new(),
        }
    }
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

impl SetupError {
    /// This error as a data error in `file` (whose text is `text`), under the field `field`
    /// (`combatants`), pointing at the value it is about: the first `` `value` `` the message
    /// names, looked for after the combatant's name, else the combatant's name, else the field.
    pub(crate) fn at(&self, file: &str, text: &str, field: &str) -> DataError {
        let needle = self.combatant.as_ref().map(|c| format!("\"{c}\"")).unwrap_or_else(|| field.into());
        let detail = self.message.split('`').nth(1).map(|x| format!("\"{x}\""));
        let at = self
            .combatant
            .as_ref()
            .and_then(|c| text.find(&format!("\"{c}\"")))
            .and_then(|start| detail.as_ref().and_then(|d| text[start..].find(d.as_str()).map(|o| start + o)));
        let (line, col) = match at {
            Some(i) => locate(text, &text[i..]).unwrap_or((1, 1)),
            None => locate(text, &needle).unwrap_or((1, 1)),
        };
        DataError { file: file.into(), line, col, message: format!("{field}: {self}") }
    }
}

/// Check combatants against a ruleset and a battle map without touching any world: unique names
/// and squares, squares on the map and not walls, abilities (the loadout for this ruleset, if
/// any) and conditions in the ruleset, positive hit points, at most `MAX_COMBATANTS`.
pub(crate) fn validate_on(ruleset: &Ruleset, specs: &[CombatantSpec], map: &BattleMap) -> Result<(), SetupError> {
    let mut names = BTreeSet::new();
    let mut squares = BTreeSet::new();
    for spec in specs {
        let err = |m: String| SetupError { combatant: Some(spec.name.clone()), message: m };
        let s = spec.resolved(&ruleset.name);
        if !names.insert(spec.name.as_str()) {
            return Err(err("duplicate name".into()));
        }
        if !squares.insert(s.at) {
            return Err(err(format!("square {:?} is already taken", s.at)));
        }
        let at = GridPos { x: s.at.0, y: s.at.1 };
        if !map.in_bounds(at) {
            return Err(err(format!("square {:?} is off the {}×{} map", s.at, map.width, map.height)));
        }
        if !map.passable(at) {
            return Err(err(format!("square {:?} is blocked (a wall on the map)", s.at)));
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
    // Initiative ranks are spaced `RANK_SPACING` apart in a u32 and offset by the id: the same
    // bound the files have holds for combatants built in code.
    if specs.len() > super::limits::MAX_COMBATANTS {
        return Err(SetupError {
            combatant: None,
            message: format!("{} combatants: at most {}", specs.len(), super::limits::MAX_COMBATANTS),
        });
    }
    Ok(())
}

/// Insert the ruleset, dice and a fresh engine state, and spawn the combatants in order, on the
/// open plane.
pub fn setup_world(world: &mut World, ruleset: Ruleset, seed: u64, specs: &[CombatantSpec]) -> Result<(), SetupError> {
    setup_world_on(world, Some(ruleset), seed, specs, BattleMap::default())
}

/// As [`setup_world`], on a battle map (inserted as the [`BattleMap`] resource). Each sheet plays
/// with its loadout for this ruleset ([`CombatantSpec::for_ruleset`]). Without a ruleset, the
/// world's own is kept ([`super::driver::Combat::reset_keeping_ruleset`]); the log keeps its
/// buffer (the simulator's runs would otherwise grow it again every run).
pub(crate) fn setup_world_on(
    world: &mut World,
    ruleset: Option<Ruleset>,
    seed: u64,
    specs: &[CombatantSpec],
    map: BattleMap,
) -> Result<(), SetupError> {
    let Some(rs) = ruleset.as_ref().or_else(|| world.get_resource::<Ruleset>()) else {
        return Err(SetupError { combatant: None, message: "no ruleset to set the combat up under".into() });
    };
    validate_on(rs, specs, &map)?;
    let (rs_name, default_mode, defeated, turn_model) =
        (rs.name.clone(), rs.default_movement_mode.clone(), rs.defeated_condition.clone(), rs.turn_model);
    super::init_resources(world);
    let mut roster = Roster::default();
    let mut names = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let s = s.resolved(&rs_name);
        let cid = Cid(i as u32);
        let mut movement = s.movement.clone();
        if movement.is_empty() {
            movement.insert(default_mode.clone(), 6);
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
        if !s.names.is_empty() {
            world.entity_mut(e).insert(LocalNames(s.names.clone()));
        }
        roster.entities.push(e);
        if !s.conditions.contains(&defeated) {
            roster.occupied.insert(pos, cid);
        }
        names.push(s.name.clone());
    }
    world.insert_resource(Timeline::new(turn_model));
    world.insert_resource(roster);
    let mut events =
        world.get_resource_mut::<CombatLog>().map(|mut l| std::mem::take(&mut l.events)).unwrap_or_default();
    events.clear();
    world.insert_resource(CombatLog { names, events });
    world.insert_resource(TurnState { seed, ..Default::default() });
    world.insert_resource(Dice::seeded(seed));
    if let Some(ruleset) = ruleset {
        world.insert_resource(ruleset);
    }
    world.insert_resource(map);
    Ok(())
}
