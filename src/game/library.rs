//! What is installed: the rulesets under `assets/rulesets/` and the encounters under
//! `assets/encounters/`, each loaded or with its `file:line:col` error for the start screen.
//! The default encounter and ruleset are also built into the binary, so the game starts even
//! without an `assets/` folder next to it.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::encounter::Encounter;
use crate::rules::data::DataError;
use crate::rules::ruleset::Ruleset;

/// The default encounter, built in.
pub const DEFAULT_ENCOUNTER: &str = include_str!("../../assets/encounters/skirmish-4v4.ron");
/// The default ruleset, built in.
pub const DEFAULT_RULESET: &str = include_str!("../../assets/rulesets/homebrew-d20.ron");
/// Its name.
pub const DEFAULT_RULESET_NAME: &str = "homebrew-d20";

/// Installed rulesets and encounters.
#[derive(Resource, Debug, Default)]
pub struct Library {
    /// Rulesets by name (file stem), loaded or not.
    pub rulesets: Vec<(String, Result<Ruleset, DataError>)>,
    /// Encounters by file, loaded or not.
    pub encounters: Vec<(PathBuf, Result<Encounter, DataError>)>,
}

impl Library {
    /// Read every ruleset and encounter under `assets`, plus the built-in defaults when the folder
    /// lacks them.
    pub(crate) fn scan(assets: &Path) -> Self {
        let mut lib = Library::default();
        for f in ron_files(&assets.join("rulesets")) {
            let name = f.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            lib.rulesets.push((name, Ruleset::load(&f)));
        }
        if !lib.rulesets.iter().any(|(n, _)| n == DEFAULT_RULESET_NAME) {
            let rs = Ruleset::from_ron_str("(built-in) homebrew-d20.ron", DEFAULT_RULESET);
            lib.rulesets.insert(0, (DEFAULT_RULESET_NAME.into(), rs));
        }
        for f in ron_files(&assets.join("encounters")) {
            let e = Encounter::load(&f);
            lib.encounters.push((f, e));
        }
        if !lib.encounters.iter().any(|(f, _)| f.ends_with("skirmish-4v4.ron")) {
            let e = Encounter::from_ron_str("(built-in) skirmish-4v4.ron", DEFAULT_ENCOUNTER);
            lib.encounters.insert(0, (PathBuf::from("skirmish-4v4.ron"), e));
        }
        lib
    }

    /// A loaded ruleset by name.
    pub fn ruleset(&self, name: &str) -> Option<&Ruleset> {
        self.rulesets.iter().find(|(n, _)| n == name).and_then(|(_, r)| r.as_ref().ok())
    }

    /// A loaded encounter whose file name ends with `file` (or the default one for `None`).
    pub(crate) fn encounter(&self, file: Option<&Path>) -> Option<(&PathBuf, &Encounter)> {
        let wanted = file.map_or(Path::new("skirmish-4v4.ron"), |f| f);
        // The exact file first (a copy elsewhere with a shipped file's name is that copy).
        let exact = self.encounters.iter().find(|(f, _)| f == wanted);
        let by_name =
            || self.encounters.iter().find(|(f, _)| f.ends_with(wanted) || f.file_name() == wanted.file_name());
        exact.or_else(by_name).and_then(|(f, e)| e.as_ref().ok().map(|e| (f, e)))
    }

    /// Every load error, one line each.
    pub(crate) fn errors(&self) -> Vec<String> {
        let rs = self.rulesets.iter().filter_map(|(_, r)| r.as_ref().err().map(|e| e.to_string()));
        let en = self.encounters.iter().filter_map(|(_, e)| e.as_ref().err().map(|e| e.to_string()));
        rs.chain(en).collect()
    }
}

/// The project's `assets/` folder: in the working directory, else the crate's own.
pub(crate) fn assets_root() -> PathBuf {
    let here = PathBuf::from("assets");
    if here.join("rulesets").is_dir() { here } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("assets") }
}

fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Startup: read what is installed, plus an encounter named on the command line from elsewhere.
pub(crate) fn load_library(mut commands: Commands, options: Res<super::app_state::PlayOptions>) {
    let mut lib = Library::scan(&assets_root());
    if let Some(f) = &options.encounter
        && !lib.encounters.iter().any(|(p, _)| p == f)
    {
        lib.encounters.push((f.clone(), Encounter::load(f)));
    }
    commands.insert_resource(lib);
}
