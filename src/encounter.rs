//! Encounters as data: `assets/encounters/*.ron` (format in `docs/encounters.md`).
//!
//! An encounter is a battle map written as rows of text, the sides with who controls each (a
//! human or the AI), and the combatants, on the same sheet scenarios use
//! ([`CombatantSpec`]). One encounter plays under every installed ruleset: a sheet lists its
//! abilities per ruleset in `loadouts` and its movement per ruleset in `movement_for`, and
//! carries the stats of every ruleset (a stat a ruleset does not use is harmless).

use std::path::Path;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::components::{Controller, GridPos};
use crate::rules::data::{DataError, installed_rulesets, locate, parse_ron, read_data_file};
use crate::rules::driver::Combat;
use crate::rules::map::BattleMap;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::{self, CombatantSpec, SetupError};

/// One encounter file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Encounter {
    /// Title shown in menus.
    #[serde(deserialize_with = "crate::rules::limits::name")]
    pub name: String,
    /// The title in other languages, by language code (`{"es": "Escaramuza"}`; issue 24).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "crate::rules::limits::names")]
    pub names: BTreeMap<String, String>,
    /// What it is about.
    #[serde(default)]
    pub description: String,
    /// The description in other languages, by language code.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::rules::limits::descriptions"
    )]
    pub descriptions: BTreeMap<String, String>,
    /// The battle map as rows of text: `.` open, `#` blocked, `~` difficult; row 0 is y = 0.
    /// Empty = the open, unbounded plane.
    #[serde(default, deserialize_with = "crate::rules::limits::map_rows")]
    pub map: Vec<String>,
    /// The sides and who controls each.
    #[serde(deserialize_with = "crate::rules::limits::list")]
    pub sides: Vec<SideSpec>,
    /// The combatants, in id order; each `side` names one of `sides`.
    #[serde(deserialize_with = "crate::rules::limits::roster")]
    pub combatants: Vec<CombatantSpec>,
    /// The combat is a draw when this round would start (overrides the ruleset's `round_cap`).
    #[serde(default, deserialize_with = "crate::rules::limits::rounds_opt")]
    pub max_rounds: Option<u32>,
    /// The AI GM's policy for this encounter, replacing the ruleset's (`Ruleset::gm_policy`)
    /// under every ruleset with openings; rulesets without openings have no use for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm_policy: Option<crate::rules::gm_policy::GmPolicy>,
}

/// One side of an encounter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    /// The side's name, as combatants' `side` give it.
    #[serde(deserialize_with = "crate::rules::limits::name")]
    pub name: String,
    /// The side's name in other languages, by language code, for the game's HUD.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "crate::rules::limits::names")]
    pub names: BTreeMap<String, String>,
    /// Who plays it.
    pub controller: SideController,
}

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SideController {
    /// A person at the game's controls.
    Human,
    /// The built-in AI.
    Ai,
}

impl SideController {
    /// The creature controller this gives its side's combatants.
    pub fn controller(self) -> Controller {
        match self {
            SideController::Human => Controller::Player,
            SideController::Ai => Controller::Ai,
        }
    }
}

/// Where the encounter's text mentions something, as (line, column): the first `needle` after the
/// first occurrence of `anchor` (or after the start), else the anchor, else 1:1.
fn position(text: &str, anchor: Option<&str>, needle: &str) -> (usize, usize) {
    let start = anchor.and_then(|a| text.find(a)).unwrap_or(0);
    let at = text[start..].find(needle).map(|o| start + o).or(anchor.and_then(|a| text.find(a)));
    match at {
        Some(i) => locate(text, &text[i..]).unwrap_or((1, 1)),
        None => (1, 1),
    }
}

impl Encounter {
    /// The encounter without its names and descriptions in other languages (what the
    /// simulator's input hash reads: translations change no fight).
    pub fn without_translations(&self) -> Encounter {
        let mut e = self.clone();
        e.names.clear();
        e.descriptions.clear();
        e.sides.iter_mut().for_each(|s| s.names.clear());
        e.combatants.iter_mut().for_each(|c| c.names.clear());
        e
    }

    /// The title in a language.
    pub fn name_in(&self, code: &str) -> &str {
        self.names.get(code).map_or(&self.name, |s| s.as_str())
    }

    /// The description in a language.
    pub fn description_in(&self, code: &str) -> &str {
        self.descriptions.get(code).map_or(&self.description, |s| s.as_str())
    }

    /// A side's name in a language.
    pub fn side_name_in<'a>(&'a self, side: &'a str, code: &str) -> &'a str {
        self.sides.iter().find(|s| s.name == side).and_then(|s| s.names.get(code)).map_or(side, |s| s.as_str())
    }

    /// Parse an encounter and check what needs no ruleset: the map, the sides, the squares.
    pub fn from_ron_str(file: &str, text: &str) -> Result<Encounter, DataError> {
        let e: Encounter = parse_ron(file, text)?;
        e.check_structure(file, text)?;
        Ok(e)
    }

    /// Load an encounter file and check what needs no ruleset. Errors are
    /// `file:line:col: field: message`.
    pub fn load(path: &Path) -> Result<Encounter, DataError> {
        let text = read_data_file(path)?;
        Self::from_ron_str(&path.display().to_string(), &text)
    }

    /// The battle map, or why the rows do not make one.
    pub fn try_battle_map(&self) -> Result<BattleMap, String> {
        let rows: Vec<&str> = self.map.iter().map(String::as_str).collect();
        BattleMap::from_rows(&rows)
    }

    /// The battle map (the open plane if the rows are bad; [`Encounter::load`] rejects those).
    pub fn battle_map(&self) -> BattleMap {
        self.try_battle_map().unwrap_or_default()
    }

    /// The side a combatant is on.
    pub fn side(&self, name: &str) -> Option<&SideSpec> {
        self.sides.iter().find(|s| s.name == name)
    }

    /// The combatants as they play under `ruleset`: each with its loadout and movement for that
    /// ruleset (`CombatantSpec::for_ruleset`) and its side's controller.
    pub fn specs_for(&self, ruleset: &Ruleset) -> Vec<CombatantSpec> {
        self.combatants
            .iter()
            .map(|c| {
                let mut s = c.for_ruleset(&ruleset.name);
                if let Some(side) = self.side(&c.side) {
                    s.controller = side.controller.controller();
                }
                s
            })
            .collect()
    }

    /// Start the encounter under `ruleset` on its map, with its round cap, and run it until it
    /// first waits for input.
    pub fn start(&self, ruleset: Ruleset, seed: u64) -> Result<Combat, SetupError> {
        let (ruleset, specs, map) =
            self.prepare(ruleset).map_err(|m| SetupError { combatant: None, message: format!("map: {m}") })?;
        Combat::with_map(ruleset, seed, &specs, map, &[])
    }

    /// What a combat of this encounter under `ruleset` starts from: the ruleset with the
    /// encounter's round cap (`max_rounds`, if it sets one), the combatants' sheets for that
    /// ruleset ([`Encounter::specs_for`]) and the map. `Err` is the map's error. [`Encounter::start`]
    /// and the simulator (which reuses one world for many runs) both start from it.
    pub fn prepare(&self, mut ruleset: Ruleset) -> Result<(Ruleset, Vec<CombatantSpec>, BattleMap), String> {
        let map = self.try_battle_map()?;
        if let Some(cap) = self.max_rounds {
            ruleset.round_cap = cap;
        }
        ruleset.gm_policy = self.gm_policy_under(&ruleset);
        let specs = self.specs_for(&ruleset);
        Ok((ruleset, specs, map))
    }

    /// The AI GM's policy in this encounter under `ruleset`: the encounter's own where the
    /// ruleset has openings, else the ruleset's.
    pub fn gm_policy_under(&self, ruleset: &Ruleset) -> crate::rules::gm_policy::GmPolicy {
        match &self.gm_policy {
            Some(p) if ruleset.openings != crate::rules::ruleset::Openings::None => p.clone(),
            _ => ruleset.gm_policy.clone(),
        }
    }

    /// Checks that need no ruleset: the map's rows, at least two sides with distinct names, each
    /// with at least one combatant, every combatant on a known side, on the map and not on a wall.
    pub fn check_structure(&self, file: &str, text: &str) -> Result<(), DataError> {
        let err = |(line, col): (usize, usize), message: String| DataError { file: file.into(), line, col, message };
        if let Err(m) = self.try_battle_map() {
            return Err(map_error(file, text, &self.map, &m));
        }
        let map = self.battle_map();
        if self.sides.len() < 2 {
            return Err(err(position(text, None, "sides"), "sides: an encounter needs at least two sides".into()));
        }
        for (i, s) in self.sides.iter().enumerate() {
            if self.sides[..i].iter().any(|o| o.name == s.name) {
                let at = position(text, Some("sides"), &format!("\"{}\"", s.name));
                return Err(err(at, format!("sides[{i}].name: side `{}` is listed twice", s.name)));
            }
        }
        if self.combatants.is_empty() {
            return Err(err(position(text, None, "combatants"), "combatants: an encounter needs combatants".into()));
        }
        let most = crate::rules::limits::MAX_ENCOUNTER_COMBATANTS;
        if self.combatants.len() > most {
            return Err(err(
                position(text, None, "combatants"),
                format!(
                    "combatants: {} combatants: an encounter has at most {most} (the AI's round grows with the \
                     square of the creature count; see docs/performance.md)",
                    self.combatants.len()
                ),
            ));
        }
        // A side with nobody on it would "lose" every run in round 0 and make the others "win".
        if let Some((i, s)) =
            self.sides.iter().enumerate().find(|(_, s)| !self.combatants.iter().any(|c| c.side == s.name))
        {
            let at = position(text, Some("sides"), &format!("\"{}\"", s.name));
            return Err(err(
                at,
                format!("sides[{i}]: side `{}` has no combatants (every side needs at least one)", s.name),
            ));
        }
        let known: Vec<&str> = self.sides.iter().map(|s| s.name.as_str()).collect();
        if let Some(p) = &self.gm_policy
            && let Some(s) = p.sides.iter().find(|s| !known.contains(&s.as_str()))
        {
            let at = position(text, Some("gm_policy"), &format!("\"{s}\""));
            return Err(err(at, format!("gm_policy.sides: `{s}` is not one of the sides: {}", known.join(", "))));
        }
        for (i, c) in self.combatants.iter().enumerate() {
            let anchor = format!("\"{}\"", c.name);
            if !known.contains(&c.side.as_str()) {
                let at = position(text, Some(&anchor), &format!("\"{}\"", c.side));
                return Err(err(
                    at,
                    format!("combatants[{i}].side: `{}` is not one of the sides: {}", c.side, known.join(", ")),
                ));
            }
            let p = GridPos { x: c.at.0, y: c.at.1 };
            let why = if !map.in_bounds(p) {
                Some(format!("square {:?} is off the {}×{} map", c.at, map.width, map.height))
            } else if !map.passable(p) {
                Some(format!("square {:?} is blocked (a `#` on the map)", c.at))
            } else {
                None
            };
            if let Some(why) = why {
                let at = position(text, Some(&anchor), "at:");
                return Err(err(at, format!("combatants[{i}].at: {why}")));
            }
        }
        Ok(())
    }

    /// Every check for playing under `ruleset`: the structure ([`Encounter::check_structure`]),
    /// then each combatant's abilities under this ruleset (its loadout for it, or `abilities`)
    /// and conditions exist in the ruleset, names and squares are unique and hit points positive
    /// (`setup::validate_on`). `text` is the file's text, to point at the offending value.
    pub fn validate(&self, file: &str, text: &str, ruleset: &Ruleset) -> Result<(), DataError> {
        self.check_structure(file, text)?;
        let err = |(line, col): (usize, usize), message: String| DataError { file: file.into(), line, col, message };
        for (i, c) in self.combatants.iter().enumerate() {
            let anchor = format!("\"{}\"", c.name);
            let (field, abilities) = match c.loadouts.get(&ruleset.name) {
                Some(a) => (format!("combatants[{i}].loadouts.{}", ruleset.name), a),
                None => (format!("combatants[{i}].abilities"), &c.abilities),
            };
            for a in abilities {
                if ruleset.ability(a).is_none() {
                    let at = position(text, Some(&anchor), &format!("\"{a}\""));
                    return Err(err(
                        at,
                        match crate::rules::data::did_you_mean(a, ruleset.abilities.iter().map(|d| d.id.as_str())) {
                            Some(near) => format!(
                                "{field}: unknown ability `{a}` in ruleset `{}` (did you mean `{near}`?)",
                                ruleset.name
                            ),
                            None => format!(
                                "{field}: unknown ability `{a}` in ruleset `{}` (give `{}` a loadout for it)",
                                ruleset.name, c.name
                            ),
                        },
                    ));
                }
            }
            // Every move the creature knows needs its movement mode (segments' shift, skirmish and
            // sprint each move at their own mode's speed).
            let sheet = c.for_ruleset(&ruleset.name);
            let has_mode = |m: &str| {
                if sheet.movement.is_empty() {
                    m == ruleset.default_movement_mode
                } else {
                    sheet.movement.contains_key(m)
                }
            };
            let known = sheet.abilities.iter().chain(&ruleset.basic_abilities);
            for a in known.filter_map(|a| ruleset.ability(a)) {
                if let crate::rules::ruleset::Effect::MoveAs { mode } = &a.effect
                    && !has_mode(mode)
                {
                    let field = if c.movement_for.contains_key(&ruleset.name) {
                        format!("combatants[{i}].movement_for.{}", ruleset.name)
                    } else {
                        format!("combatants[{i}].movement")
                    };
                    return Err(err(
                        position(text, None, &anchor),
                        format!(
                            "{field}: no `{mode}` speed for `{}` in ruleset `{}` (give `{}` a `movement_for` entry)",
                            a.id, ruleset.name, c.name
                        ),
                    ));
                }
            }
            for k in &c.conditions {
                if ruleset.condition(k).is_none() {
                    let at = position(text, Some(&anchor), &format!("\"{k}\""));
                    return Err(err(
                        at,
                        format!(
                            "combatants[{i}].conditions: unknown condition `{k}` in ruleset `{}`{}",
                            ruleset.name,
                            crate::rules::data::did_you_mean(k, ruleset.conditions.iter().map(|d| d.id.as_str()))
                                .map(|n| format!(" (did you mean `{n}`?)"))
                                .unwrap_or_default()
                        ),
                    ));
                }
            }
        }
        setup::validate_on(ruleset, &self.specs_for(ruleset), &self.battle_map())
            .map_err(|e| e.at(file, text, "combatants"))
    }
}

/// A map that [`BattleMap::from_rows`] refused (`message`) as a data error under the field
/// `map[N]`, pointing at the row the message names (`row N ...`), else under `map`, pointing at
/// the field.
pub fn map_error(file: &str, text: &str, rows: &[String], message: &str) -> DataError {
    let row = message
        .strip_prefix("row ")
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n < rows.len());
    let (line, col) = match row {
        Some(n) => position(text, Some("map:"), &format!("\"{}\"", rows[n])),
        None => position(text, None, "map:"),
    };
    let field = row.map_or("map".to_string(), |n| format!("map[{n}]"));
    DataError { file: file.into(), line, col, message: format!("{field}: {message}") }
}

/// Whether a file looks like an encounter (its first value is `Encounter(`).
pub fn is_encounter_file(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#!"))
        .is_some_and(|l| l.starts_with("Encounter"))
}

/// Check an encounter file against every installed ruleset (for `skirmish check`): a one-line
/// summary, or the first error as `file:line:col: field: message`.
pub fn check_file(path: &Path) -> Result<String, DataError> {
    let text = read_data_file(path)?;
    check_text(path, &text)
}

/// As [`check_file`], from text already read.
pub fn check_text(path: &Path, text: &str) -> Result<String, DataError> {
    let file = path.display().to_string();
    let e = Encounter::from_ron_str(&file, text)?;
    let rulesets = installed_rulesets(path)?;
    for rs in &rulesets {
        e.validate(&file, text, rs)?;
    }
    let names: Vec<&str> = rulesets.iter().map(|r| r.name.as_str()).collect();
    let under = if names.is_empty() { "no installed ruleset".into() } else { names.join(", ") };
    let map = e.battle_map();
    let size = if map.is_unbounded() { "open map".to_string() } else { format!("{}×{} map", map.width, map.height) };
    Ok(format!("{file}: ok (encounter `{}`, {} combatants, {size}, checked under {under})", e.name, e.combatants.len()))
}
