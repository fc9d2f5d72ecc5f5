//! The modding surface: everything a mod may use, in one place.
//!
//! - Rust mods ([`RulesMod`]): components and systems added to the ordered [`TurnSystems`] sets,
//!   hearing the combat's events and changing the rules state through [`ModRules`] (logged with
//!   the mod's name, rolled on the engine's dice). See `docs/modding.md`.
//! - Loading mods by name ([`ModRegistry`], [`load_mods`]): the built-in Rust mods
//!   (`regeneration`, `riposte`) and data mods, folders under `mods/` ([`data`]).
//! - Hot reload of data files, headless ([`watch`]).
//!
//! Nothing here imports the game, egui or input.

pub mod builtin;
pub mod data;
pub mod watch;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

pub use crate::rules::TurnSystems;
pub use crate::rules::components::{
    Abilities, ActionPool, Cid, CombatantName, Conditions, GridPos, Health, Side, Stats, Traits,
};
pub use crate::rules::dice::DiceExpr;
pub use crate::rules::driver::Combat;
pub use crate::rules::log::{CombatEvent, CombatLog, EndReason, ModAction};
pub use crate::rules::modding::{
    InstalledMods, LogCursor, ModBuilder, ModContent, ModEvents, ModInstallError, ModList, ModPlugin, ModRefusal,
    ModRules, ModSlot, RulesMod, attach_components, install, ruleset_with_mods,
};
pub use crate::rules::query::{duration_ends, roll_modifier, roll_modifiers};
pub use crate::rules::ruleset::{
    AbilityDef, AttackKind, BonusKind, ConditionDef, Effect, Lasts, ModifierStacking, RollModifier, RollOn, Ruleset,
    TargetCount,
};

/// Makes a fresh instance of a Rust mod.
pub type ModConstructor = fn() -> Arc<dyn RulesMod>;

/// Rust mods known by name, for `--mod NAME`, the simulator and the game.
///
/// A program that embeds skirmish with its own mods passes its registry to [`crate::run`]
/// (`skirmish::run(ModRegistry::builtin().with(RallyMod))`): the whole command line and the
/// game then know them, as they know the built-in ones ([`ModRegistry::current`]).
#[derive(Clone)]
pub struct ModRegistry {
    entries: BTreeMap<String, Arc<dyn Fn() -> Arc<dyn RulesMod> + Send + Sync>>,
}

/// The registry [`crate::run`] was given, for the whole process.
static CURRENT: std::sync::OnceLock<ModRegistry> = std::sync::OnceLock::new();

impl Default for ModRegistry {
    /// The built-in mods.
    fn default() -> Self {
        Self::builtin()
    }
}

impl ModRegistry {
    /// No mods at all.
    pub fn empty() -> Self {
        Self { entries: BTreeMap::new() }
    }

    /// The mods shipped with skirmish: `regeneration` and `riposte`.
    pub fn builtin() -> Self {
        let mut r = Self::empty();
        r.register(crate::modding::builtin::regeneration::NAME, || Arc::new(crate::modding::builtin::RegenerationMod));
        r.register(crate::modding::builtin::riposte::NAME, || Arc::new(crate::modding::builtin::RiposteMod));
        r
    }

    /// Add (or replace) a mod under a name.
    pub fn register(&mut self, name: &str, make: ModConstructor) -> &mut Self {
        self.entries.insert(name.to_string(), Arc::new(make));
        self
    }

    /// This registry with one more mod, under its own [`RulesMod::name`]; each combat gets a
    /// clone of `m`. A mod of that name already there is replaced.
    pub fn with<M: RulesMod + Clone>(mut self, m: M) -> Self {
        self.entries.insert(m.name().to_string(), Arc::new(move || Arc::new(m.clone()) as Arc<dyn RulesMod>));
        self
    }

    /// The registry every command and the game use: the one given to [`crate::run`], else the
    /// built-in mods.
    pub fn current() -> Self {
        CURRENT.get().cloned().unwrap_or_else(Self::builtin)
    }

    /// Make `self` the process's [`Self::current`] registry. Only the first call counts (a
    /// second returns `false`): every part of one run sees the same mods.
    pub fn make_current(self) -> bool {
        CURRENT.set(self).is_ok()
    }

    /// The names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.entries.keys().cloned().collect()
    }

    /// A fresh instance of the mod with this name.
    pub fn make(&self, name: &str) -> Option<Arc<dyn RulesMod>> {
        self.entries.get(name).map(|f| f())
    }

    /// The named Rust mods in the order given; an unknown name is an error listing the known.
    pub fn list(&self, names: &[String]) -> Result<ModList, String> {
        let mut out = ModList::new();
        for n in names {
            match self.make(n) {
                Some(m) => out.0.push(m),
                None => return Err(format!("no mod `{n}` (Rust mods: {})", self.names().join(", "))),
            }
        }
        Ok(out)
    }
}

/// Mods asked for by name: the Rust ones, and the data mods (folders) in load order.
#[derive(Debug, Clone, Default)]
pub struct LoadedMods {
    /// Rust mods, in the order asked.
    pub code: ModList,
    /// Data mods, in load order, with the merged content and the conflicts found.
    pub data: data::DataMods,
}

impl LoadedMods {
    /// The ruleset `name` with these mods: a data mod's ruleset of that name, else the installed
    /// one (`assets/rulesets/<name>.ron`) with the data mods' abilities and conditions added.
    pub fn ruleset(&self, name: &str) -> Result<Ruleset, crate::rules::data::DataError> {
        let rs = match self.data.ruleset(name, &data::installed_ruleset) {
            Some(r) => r?,
            None => {
                let mut rs = data::installed_ruleset(name)?;
                self.data.apply(&mut rs)?;
                rs
            }
        };
        // The Rust mods' own conditions and abilities (checked as data is).
        crate::rules::modding::ruleset_with_mods(rs, &self.code).map_err(|e| crate::rules::data::DataError {
            file: format!("mod `{}`", e.name),
            line: 1,
            col: 1,
            message: e.message,
        })
    }
}

/// Resolve `--mod` names: a Rust mod of `registry` by that name, else the data mod folder
/// `<mods_dir>/<name>/`. Every name must pass [`data::check_mod_name`] (a name, never a path); a
/// name that is both a Rust mod and a data mod folder is refused as ambiguous. Data mods are
/// confined ([`data::confine_mod_folder`]), loaded and merged, and each is checked as
/// `skirmish check mods/NAME` checks it ([`data::check_mod`]), with the same message.
pub fn load_mods(registry: &ModRegistry, mods_dir: &Path, names: &[String]) -> Result<LoadedMods, String> {
    let mut out = LoadedMods::default();
    let mut folders = Vec::new();
    for n in names {
        data::check_mod_name(n)?;
        let dir = mods_dir.join(n);
        let has_folder = dir.symlink_metadata().is_ok();
        if let Some(m) = registry.make(n) {
            if dir.join("mod.ron").symlink_metadata().is_ok() {
                return Err(format!(
                    "mod `{n}` is ambiguous: the Rust mod `{n}` and the data mod {} have the same name (the Rust \
                     mod would load and the data mod never); rename the data mod",
                    dir.display()
                ));
            }
            out.code.0.push(m);
            continue;
        }
        if !has_folder {
            return Err(format!(
                "no mod `{n}`: not a Rust mod ({}) and no data mod folder {}",
                registry.names().join(", "),
                dir.display()
            ));
        }
        folders.push(dir);
    }
    if !folders.is_empty() {
        out.data = data::DataMods::load(&folders).map_err(|e| e.to_string())?;
        // What `check` refuses does not run either.
        for dir in &folders {
            data::check_mod(dir).map_err(|e| e.to_string())?;
        }
    }
    Ok(out)
}

/// The `mods/` folder for a data file: the nearest `mods/` above it, else [`mods_dir`].
pub fn mods_dir_near(file: &Path) -> std::path::PathBuf {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    dir.ancestors().map(|p| p.join("mods")).find(|p| p.is_dir()).unwrap_or_else(mods_dir)
}

/// Every installed mod, for `skirmish mods`: the Rust mods, then the data mods under `dir`
/// (each checked; a broken one shows its error).
pub fn describe_installed(dir: &Path) -> Vec<String> {
    let mut out = vec!["Rust mods (load with --mod NAME):".to_string()];
    for n in ModRegistry::current().names() {
        out.push(format!("  {n}"));
    }
    out.push(format!("Data mods in {}:", dir.display()));
    // Every folder is listed: one without a mod.ron, or linked in from outside, shows why.
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    dirs.sort();
    // In load order (load_order, then name): a later mod may override an earlier one's ids.
    let mut good = Vec::new();
    for d in dirs {
        match data::read_manifest(&d) {
            Ok(m) => good.push(m),
            Err(e) => out.push(format!("  {e}")),
        }
    }
    good.sort_by(|a, b| (a.load_order, &a.name).cmp(&(b.load_order, &b.name)));
    if !good.is_empty() {
        out.push("  in load order (a later mod may replace the ids it lists in overrides):".to_string());
    }
    for (i, m) in good.iter().enumerate() {
        let overrides =
            if m.overrides.is_empty() { String::new() } else { format!(", overrides: [{}]", m.overrides.join(", ")) };
        out.push(format!(
            "  {}. {} {} (load_order {}, depends on: [{}]{overrides})",
            i + 1,
            m.name,
            m.version,
            m.load_order,
            m.depends_on.join(", ")
        ));
    }
    out
}

/// The `mods/` folder: in the working directory, else in the crate.
pub fn mods_dir() -> std::path::PathBuf {
    let here = Path::new("mods");
    if here.is_dir() { here.to_path_buf() } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("mods") }
}

/// [`crate::encounter::Encounter::start`] with mods: the encounter under `ruleset` on its map,
/// with its round cap and GM policy, the mods installed (for the game's battle set-up and the simulator).
pub fn start_encounter(
    enc: &crate::encounter::Encounter,
    mut ruleset: Ruleset,
    seed: u64,
    mods: &ModList,
) -> Result<Combat, crate::rules::setup::SetupError> {
    let map = enc
        .try_battle_map()
        .map_err(|m| crate::rules::setup::SetupError { combatant: None, message: format!("map: {m}") })?;
    if let Some(cap) = enc.max_rounds {
        ruleset.round_cap = cap;
    }
    ruleset.gm_policy = enc.gm_policy_under(&ruleset);
    let specs = enc.specs_for(&ruleset);
    Combat::with_mods(ruleset, seed, &specs, map, &[], mods)
}
