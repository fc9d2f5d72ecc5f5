//! What the next battle is, before it starts: the encounter, the ruleset, who plays each side,
//! the seed and the mods, chosen on the start screen or from the command line.

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::app_state::PlayOptions;
use super::library::Library;
use crate::encounter::Encounter;
use crate::rules::ruleset::Ruleset;

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideControl {
    /// A person at this screen.
    Human,
    /// The built-in AI.
    Ai,
}

/// What the next battle is: chosen on the start screen or from the command line.
#[derive(Resource, Debug, Clone)]
pub struct BattleSetup {
    /// The encounter's file, for the start screen and the end screen.
    pub file: String,
    /// The encounter.
    pub encounter: Encounter,
    /// The ruleset's name.
    pub ruleset_name: String,
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Who plays each side.
    pub sides: BTreeMap<String, SideControl>,
    /// The dice seed.
    pub seed: u64,
    /// A scenario file whose steps set the fight up: the battle opens after its last step.
    pub scenario: Option<std::path::PathBuf>,
    /// Mods by name (`--mod`, the start screen's list): Rust mods and data mod folders.
    pub mods: Vec<String>,
    /// The save this battle was loaded from (a restart loads it again).
    pub from_save: Option<std::path::PathBuf>,
}

/// Who plays a side: `--all-ai`, else `--ai SIDE` names the AI's sides (every other side is
/// played by people), else the encounter's own choice.
pub(crate) fn side_control(options: &PlayOptions, s: &crate::encounter::SideSpec) -> SideControl {
    let ai = if options.all_ai {
        true
    } else if !options.ai_sides.is_empty() {
        options.ai_sides.contains(&s.name)
    } else {
        s.controller != crate::encounter::SideController::Human
    };
    if ai { SideControl::Ai } else { SideControl::Human }
}

/// Build a setup from the options and what is installed.
pub(crate) fn setup_from(library: &Library, options: &PlayOptions) -> Option<BattleSetup> {
    let (file, encounter) = library.encounter(options.encounter.as_deref())?;
    let ruleset_name = options.ruleset.clone().unwrap_or_else(|| super::library::DEFAULT_RULESET_NAME.into());
    let ruleset = match library.ruleset(&ruleset_name) {
        Some(r) => r.clone(),
        // A data mod's own ruleset.
        None => crate::modding::load_mods(
            &crate::modding::ModRegistry::current(),
            &crate::modding::mods_dir(),
            &options.mods,
        )
        .ok()?
        .ruleset(&ruleset_name)
        .ok()?,
    };
    let sides = encounter.sides.iter().map(|s| (s.name.clone(), side_control(options, s))).collect();
    let seed = options.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs())
    });
    Some(BattleSetup {
        file: file.display().to_string(),
        encounter: encounter.clone(),
        ruleset_name,
        ruleset,
        sides,
        seed,
        scenario: None,
        mods: options.mods.clone(),
        from_save: None,
    })
}
