//! Hot reload, the headless part: watch data files by polling, reload them with the same loaders,
//! and hand the new data over only when the next combat starts.
//!
//! A [`HotData`] holds the data in force, the files it came from with their modification stamps,
//! and the loader. [`HotData::poll`] looks at the stamps; when one changed it reloads. Good data
//! waits in `pending` until [`HotData::for_next_combat`] takes it (so the running combat is never
//! touched); bad data leaves everything as it was and keeps the error (`file:line:col: field:
//! message`) for the game to show. [`HotReloadPlugin`] polls a `HotData<CombatData>` resource
//! twice a second.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy::time::common_conditions::on_timer;

use super::{LoadedMods, ModRegistry, load_mods};
use crate::encounter::Encounter;
use crate::rules::data::DataError;
use crate::rules::ruleset::Ruleset;

/// The most files one watcher looks at (a mod folder is walked two levels deep).
pub const MAX_WATCHED: usize = 4096;

/// A file's modification stamp: time and length (either changing counts as a change).
type Stamp = Option<(SystemTime, u64)>;

fn stamp(p: &Path) -> Stamp {
    let m = std::fs::metadata(p).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// Every file under the watched paths (folders walked two levels deep), sorted, with its stamp.
fn stamps(paths: &[PathBuf]) -> Vec<(PathBuf, Stamp)> {
    let mut out = Vec::new();
    let push = |p: PathBuf, out: &mut Vec<(PathBuf, Stamp)>| {
        if out.len() < MAX_WATCHED {
            let s = stamp(&p);
            out.push((p, s));
        }
    };
    for p in paths {
        if p.is_dir() {
            let mut level = vec![p.clone()];
            for _ in 0..3 {
                let mut next = Vec::new();
                for d in level {
                    let Ok(rd) = std::fs::read_dir(&d) else { continue };
                    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
                    entries.sort();
                    for e in entries {
                        if e.is_dir() {
                            next.push(e);
                        } else {
                            push(e, &mut out);
                        }
                    }
                }
                level = next;
            }
        } else {
            push(p.clone(), &mut out);
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

type Loader<T> = Box<dyn Fn() -> Result<(T, Vec<PathBuf>), DataError> + Send + Sync>;

/// Data loaded from files, reloaded when they change, handed over at the next combat start.
#[derive(Resource)]
pub struct HotData<T: Send + Sync + 'static> {
    current: T,
    pending: Option<T>,
    error: Option<DataError>,
    watched: Vec<PathBuf>,
    stamps: Vec<(PathBuf, Stamp)>,
    load: Loader<T>,
    reloads: u32,
}

impl<T: Send + Sync + 'static> HotData<T> {
    /// Load once with `load` (which returns the data and the files and folders it came from).
    pub fn new(
        load: impl Fn() -> Result<(T, Vec<PathBuf>), DataError> + Send + Sync + 'static,
    ) -> Result<Self, DataError> {
        let (current, watched) = load()?;
        let stamps = stamps(&watched);
        Ok(Self { current, pending: None, error: None, watched, stamps, load: Box::new(load), reloads: 0 })
    }

    /// Look at the files; if any changed, reload. Returns true when something changed on disk.
    pub fn poll(&mut self) -> bool {
        let now = stamps(&self.watched);
        if now == self.stamps {
            return false;
        }
        self.stamps = now;
        self.reloads += 1;
        match (self.load)() {
            Ok((data, watched)) => {
                self.pending = Some(data);
                self.error = None;
                if watched != self.watched {
                    self.watched = watched;
                    self.stamps = stamps(&self.watched);
                }
            }
            Err(e) => self.error = Some(e),
        }
        true
    }

    /// The data for a combat starting now: the newest good data (what was pending becomes
    /// current).
    pub fn for_next_combat(&mut self) -> &T {
        if let Some(p) = self.pending.take() {
            self.current = p;
        }
        &self.current
    }

    /// The data in force (the running combat's).
    pub fn current(&self) -> &T {
        &self.current
    }

    /// New good data waits for the next combat start ("restart with changes").
    pub fn has_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// The last reload's error, if the files on disk are broken now.
    pub fn error(&self) -> Option<&DataError> {
        self.error.as_ref()
    }

    /// The files and folders watched.
    pub fn watched(&self) -> &[PathBuf] {
        &self.watched
    }

    /// Reloads so far.
    pub fn reloads(&self) -> u32 {
        self.reloads
    }
}

/// What a combat is started from: the ruleset (with data mods applied), the encounter, the mods.
#[derive(Debug, Clone)]
pub struct CombatData {
    /// The ruleset in force.
    pub ruleset: Ruleset,
    /// The encounter.
    pub encounter: Encounter,
    /// The mods (Rust mods are not reloaded: they are code).
    pub mods: LoadedMods,
}

/// Load an encounter file, a ruleset (a name: a data mod's ruleset or an installed one; or a
/// `.ron` path) and mods by name, check the encounter against the ruleset, and say which files
/// to watch.
pub fn load_combat_data(
    encounter: &Path,
    ruleset: &str,
    mods: &[String],
    mods_dir: &Path,
) -> Result<(CombatData, Vec<PathBuf>), DataError> {
    let loaded = load_mods(&ModRegistry::current(), mods_dir, mods).map_err(|m| DataError {
        file: mods_dir.display().to_string(),
        line: 1,
        col: 1,
        message: m,
    })?;
    let mut watched = vec![encounter.to_path_buf()];
    watched.extend(loaded.data.mods.iter().map(|m| m.dir.clone()));
    let rs = if ruleset.ends_with(".ron") {
        watched.push(PathBuf::from(ruleset));
        let mut rs = Ruleset::load(Path::new(ruleset))?;
        loaded.data.apply(&mut rs)?;
        rs
    } else {
        match loaded.data.ruleset(ruleset, &super::data::installed_ruleset) {
            Some(r) => {
                let r = r?;
                // Watch the installed ruleset at the bottom of the `extends` chain too.
                let chain = loaded.data.extends_chain(ruleset)?;
                let probe = Path::new("mods").join("probe.ron");
                if let Some(base) = chain.last()
                    && let Ok(p) = crate::rules::data::resolve_ruleset(&probe, base)
                {
                    watched.push(p);
                }
                r
            }
            None => {
                let probe = encounter.parent().unwrap_or(Path::new(".")).join("probe.ron");
                if let Ok(p) = crate::rules::data::resolve_ruleset(&probe, ruleset) {
                    watched.push(p);
                }
                let mut rs = super::data::installed_ruleset(ruleset)?;
                loaded.data.apply(&mut rs)?;
                rs
            }
        }
    };
    // The Rust mods' own conditions and abilities too (issue 28), as the combat will have them.
    let rs = crate::rules::modding::ruleset_with_mods(rs, &loaded.code).map_err(|e| crate::rules::data::DataError {
        file: format!("mod `{}`", e.name),
        line: 1,
        col: 1,
        message: e.message,
    })?;
    let file = encounter.display().to_string();
    let text = crate::rules::data::read_data_file(encounter)?;
    let enc = Encounter::from_ron_str(&file, &text)?;
    enc.validate(&file, &text, &rs)?;
    Ok((CombatData { ruleset: rs, encounter: enc, mods: loaded }, watched))
}

/// Polls a `HotData<CombatData>` resource (if present) twice a second, in `Update`.
pub struct HotReloadPlugin;

impl Plugin for HotReloadPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            poll_combat_data
                .run_if(resource_exists::<HotData<CombatData>>)
                .run_if(on_timer(Duration::from_millis(500))),
        );
    }
}

/// Poll the watched files of the combat data.
pub fn poll_combat_data(mut data: ResMut<HotData<CombatData>>) {
    if data.bypass_change_detection().poll() {
        data.set_changed();
    }
}
