//! Playing from a scenario file (`skirmish play --scenario FILE`): the combat its steps lead to,
//! and the battle setup it implies. The one place the game uses the scenario runner, so that the
//! battle itself ([`super::battle`]) stays apart from it.

use bevy::prelude::*;

use super::setup::{BattleSetup, side_control};
use crate::rules::components::Cid;
use crate::rules::driver::Combat;

/// The combat a scenario's steps lead to (`skirmish play --scenario FILE`).
pub(crate) fn combat(path: &std::path::Path, mods: &[String]) -> Result<Combat, String> {
    let ls = crate::scenario::load_with_mods(path, mods).map_err(|e| e.to_string())?;
    let (report, combat) = crate::scenario::run_keeping(&ls, None);
    if let Some(f) = report.checks.iter().find(|c| c.failure.is_some()) {
        warn!("{}: step {} ({}) failed: {}", path.display(), f.step, f.what, f.failure.clone().unwrap_or_default());
    }
    combat.ok_or_else(|| {
        report
            .checks
            .iter()
            .find_map(|c| c.failure.clone())
            .unwrap_or_else(|| "the scenario could not be set up".into())
    })
}

/// A setup for a scenario file: its ruleset, map and combatants, after its steps. Every side is
/// played by people unless the options name the AI's sides.
pub(crate) fn setup(options: &super::app_state::PlayOptions, path: &std::path::Path) -> Result<BattleSetup, String> {
    let ls = crate::scenario::load(path).map_err(|e| e.to_string())?;
    let s = &ls.scenario;
    let mut side_names: Vec<String> = Vec::new();
    let specs = crate::scenario::run_keeping(&ls, None).1.map(|c| {
        (0..c.len() as u32)
            .filter_map(|i| c.get::<crate::rules::components::Side>(Cid(i)).map(|x| x.0.clone()))
            .collect::<Vec<_>>()
    });
    for side in specs.unwrap_or_default() {
        if !side_names.contains(&side) {
            side_names.push(side);
        }
    }
    let sides: Vec<crate::encounter::SideSpec> = side_names
        .iter()
        .map(|n| crate::encounter::SideSpec {
            name: n.clone(),
            names: Default::default(),
            controller: crate::encounter::SideController::Human,
        })
        .collect();
    let control = sides.iter().map(|x| (x.name.clone(), side_control(options, x))).collect();
    Ok(BattleSetup {
        file: path.display().to_string(),
        encounter: crate::encounter::Encounter {
            name: s.name.clone(),
            names: Default::default(),
            description: s.description.clone(),
            descriptions: Default::default(),
            map: s.map.clone(),
            sides,
            combatants: Vec::new(),
            max_rounds: s.max_rounds,
            gm_policy: None,
        },
        ruleset_name: ls.ruleset.name.clone(),
        ruleset: ls.ruleset.clone(),
        sides: control,
        seed: s.seed,
        scenario: Some(path.to_path_buf()),
        mods: options.mods.clone(),
        from_save: None,
    })
}
