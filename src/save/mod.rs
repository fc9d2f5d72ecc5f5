//! Saves, replays and undo (format and policies in `docs/saves.md`).
//!
//! A save is the set-up of a combat (its ruleset, combatant sheets, map, seed and pre-initiative
//! dice) plus its journal: every command sent, with who sent it and whether it was applied, and
//! every die forced ([`crate::rules::journal`]). The engine is deterministic, so loading replays
//! the journal from the seed and gets the exact state back: durations, held actions, casts,
//! activities and pending decisions included. The save also holds the state hash every
//! [`CHECKPOINT_EVERY`] commands and a snapshot of the end state with its hash; a replay that
//! disagrees with them is a [`SaveError::Mismatched`] naming where it diverged.
//!
//! A replay file is the same file ([`Replay`]); `skirmish replay FILE [--verify] [--log]` runs one.
//!
//! - [`SaveFile::capture`] a combat, [`write_atomic`] it, [`load`] it back, [`list`] a folder;
//! - [`undo::History`] undoes and redoes a person's commands.

pub mod cli;
mod hash;
mod snapshot;
pub mod undo;

pub(crate) use hash::text_hash;
pub use hash::{Hash64, journal_hash, log_hash, ruleset_hash};
pub use snapshot::{CreatureSnapshot, Snapshot};

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::rules::components::GridPos;
use crate::rules::data::{DataError, locate, parse_ron};
use crate::rules::driver::Combat;
use crate::rules::journal::Entry;
use crate::rules::map::BattleMap;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::CombatantSpec;

/// The save format's version. A file with a higher version is refused as too new; a lower one
/// is migrated when it loads ([`parse`]). Version 2 added `state.journal_hash` (issue 29): a
/// version 1 file has none, and loads as it always did.
pub const FORMAT_VERSION: u32 = 2;

/// A checkpoint (the state hash) is stored after every this many journal entries.
pub const CHECKPOINT_EVERY: usize = 16;

/// The largest save file read (64 MiB; a 100-round fight is far smaller, see `docs/saves.md`).
pub const MAX_SAVE_BYTES: u64 = 64 << 20;

/// A replay file: the same file as a save (a save *is* a replay of its fight so far).
pub type Replay = SaveFile;

/// A save (or replay) file. Written as RON by [`SaveFile::to_ron`]; read by [`parse`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Save", deny_unknown_fields)]
pub struct SaveFile {
    /// The format version ([`FORMAT_VERSION`] when written).
    pub version: u32,
    /// What a save list shows.
    pub meta: SaveMeta,
    /// The ruleset: embedded whole, or named with its content hash.
    pub ruleset: RulesetSource,
    /// The combatants and map as set up.
    pub encounter: EncounterSetup,
    /// The dice seed.
    pub seed: u64,
    /// Dice forced before initiative was rolled.
    #[serde(default, deserialize_with = "crate::rules::limits::forced_dice")]
    pub dice: Vec<i32>,
    /// Every command sent and die forced, in order.
    pub journal: Vec<Entry>,
    /// The state hash after every [`CHECKPOINT_EVERY`] entries.
    #[serde(default)]
    pub checkpoints: Vec<Checkpoint>,
    /// The state when saved.
    pub state: Snapshot,
    /// The Rust mods installed, in load order (names from the built-in mod registry). Absent
    /// when none were: saves without mods read and write exactly as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<String>,
}

/// What a save list shows: encounter, ruleset, round and date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveMeta {
    /// The encounter's name (the same as `encounter.name`).
    #[serde(deserialize_with = "crate::rules::limits::name")]
    pub encounter: String,
    /// The ruleset's name (the same as the ruleset's).
    #[serde(deserialize_with = "crate::rules::limits::name")]
    pub ruleset: String,
    /// The round when saved.
    pub round: u32,
    /// When it was saved, in seconds since 1970-01-01 UTC.
    pub saved_at: u64,
    /// A free label ("quick save", a bug's title, ...).
    #[serde(default)]
    pub label: String,
}

/// Where the ruleset comes from.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[expect(clippy::large_enum_variant, reason = "a save holds one; boxing it would change only the code that reads it")]
pub enum RulesetSource {
    /// The whole ruleset, as it played (the default: the file stands alone).
    Embedded(Ruleset),
    /// An installed ruleset (`assets/rulesets/`) of this name whose content hash
    /// ([`ruleset_hash`], with the encounter's round cap) is this one.
    Installed {
        /// The ruleset's `name`.
        #[serde(deserialize_with = "crate::rules::limits::name")]
        name: String,
        /// Its content hash.
        hash: Hash64,
    },
}

impl PartialEq for RulesetSource {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (RulesetSource::Embedded(a), RulesetSource::Embedded(b)) => ruleset_hash(a) == ruleset_hash(b),
            (RulesetSource::Installed { name: a, hash: x }, RulesetSource::Installed { name: b, hash: y }) => {
                a == b && x == y
            }
            _ => false,
        }
    }
}

/// The combatants and the map, as the combat was set up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterSetup {
    /// The encounter's (or scenario's) name.
    #[serde(deserialize_with = "crate::rules::limits::name")]
    pub name: String,
    /// The map as rows (`.` open, `#` blocked, `~` difficult); empty = the open plane.
    #[serde(default, deserialize_with = "crate::rules::limits::map_rows")]
    pub map: Vec<String>,
    /// The round cap in force (a draw when this round would start).
    #[serde(deserialize_with = "crate::rules::limits::rounds")]
    pub round_cap: u32,
    /// The combatant sheets, in id order, as given to the engine.
    #[serde(deserialize_with = "crate::rules::limits::roster")]
    pub combatants: Vec<CombatantSpec>,
    /// The AI GM's policy in force (an encounter's may replace the ruleset's), under a ruleset
    /// with openings; absent in older saves (the ruleset's own then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm_policy: Option<crate::rules::gm_policy::GmPolicy>,
}

/// The state hash after a number of journal entries: the `i`-th (from 0) is the one after
/// `(i + 1) * CHECKPOINT_EVERY` entries, as [`SaveFile::capture`] stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Journal entries applied.
    pub after: usize,
    /// The state hash then.
    pub hash: Hash64,
}

/// Why a save could not be written, read or restored. Every variant names the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// The file could not be read or written.
    Io {
        /// The file.
        file: String,
        /// What went wrong.
        message: String,
    },
    /// Not a well-formed save: `file:line:col: field: message` (a truncated or damaged file).
    Corrupt(DataError),
    /// Written by a newer version of the game.
    TooNew {
        /// The file.
        file: String,
        /// Its format version.
        version: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// Well formed, but its ruleset or set-up cannot be used here.
    Invalid {
        /// The file (with `:line:col` where the problem is).
        file: String,
        /// What is wrong.
        message: String,
    },
    /// Replaying its commands does not give the state it says it holds.
    Mismatched {
        /// The file.
        file: String,
        /// Where it diverged.
        divergence: Divergence,
    },
    /// This combat cannot be saved (its map cannot be written as rows, or its state does not
    /// come back from its journal because something changed it outside the journal).
    NotSavable(String),
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Io { file, message } => write!(f, "{file}: {message}"),
            SaveError::Corrupt(e) => write!(f, "{e} (the save is damaged or truncated)"),
            SaveError::TooNew { file, version, supported } => write!(
                f,
                "{file}: save format version {version} is newer than this game reads (up to {supported}); \
                 update the game to load it"
            ),
            SaveError::Invalid { file, message } => write!(f, "{file}: {message}"),
            SaveError::Mismatched { file, divergence } => write!(f, "{file}: mismatched save: {divergence}"),
            SaveError::NotSavable(m) => write!(f, "cannot save: {m}"),
        }
    }
}

impl std::error::Error for SaveError {}

/// Where a replay first disagreed with what the file recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The journal entry (1-based) at or before which it diverged; 0 = at set-up.
    pub entry: usize,
    /// The last entry after which the state still agreed with a checkpoint (0 = set-up); `entry`
    /// itself when the state agreed there and only a field recorded about it differs.
    pub agreed_after: usize,
    /// What differs.
    pub what: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.entry == 0 {
            write!(f, "at set-up: {}", self.what)
        } else if self.agreed_after >= self.entry {
            // The state agreed there: what differs is a field the file recorded about it.
            write!(f, "after command {}: {}", self.entry, self.what)
        } else if self.agreed_after + 1 == self.entry {
            write!(f, "diverges at command {}: {}", self.entry, self.what)
        } else {
            write!(
                f,
                "diverges at one of commands {}..={} (the state agreed after command {}): {}",
                self.agreed_after + 1,
                self.entry,
                self.agreed_after,
                self.what
            )
        }
    }
}

/// A loaded save: the file and the combat restored from it.
pub struct Loaded {
    /// The file as read (migrated to the current version).
    pub save: SaveFile,
    /// The combat, exactly as saved.
    pub combat: Combat,
}

/// The map as rows, when rows can express it exactly.
fn map_rows(map: &BattleMap) -> Result<Vec<String>, SaveError> {
    let rows: Vec<String> = if map.is_unbounded() {
        Vec::new()
    } else {
        (0..map.height)
            .map(|y| {
                (0..map.width)
                    .map(|x| {
                        let p = GridPos { x, y };
                        if map.blocked.contains(&p) {
                            '#'
                        } else if map.difficult.contains(&p) {
                            '~'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    };
    let back: Vec<&str> = rows.iter().map(String::as_str).collect();
    match BattleMap::from_rows(&back) {
        Ok(m) if m == *map => Ok(rows),
        _ => Err(SaveError::NotSavable("the battle map cannot be written as rows of `.`, `#` and `~`".into())),
    }
}

/// Seconds since 1970-01-01 UTC now.
pub(crate) fn now_unix() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl SaveFile {
    /// Capture a combat at any moment (mid-turn, with a decision pending, mid-activity, while a
    /// cast is held, in a surprise round): its set-up, journal and state. The journal is replayed
    /// once to store the checkpoints and to make sure the save will load: a combat changed
    /// outside its journal (through `world` directly) is [`SaveError::NotSavable`].
    /// `encounter` names the fight in save lists. The ruleset is embedded; see
    /// [`SaveFile::with_installed_ruleset`].
    pub fn capture(combat: &Combat, encounter: &str) -> Result<SaveFile, SaveError> {
        Self::capture_with(combat, encounter, &crate::modding::ModRegistry::current())
    }

    /// As [`SaveFile::capture`], finding the combat's Rust mods in `registry` (a program that
    /// registers its own mods runs with them as [`crate::modding::ModRegistry::current`]; a test
    /// or a host that keeps several registries names one).
    pub fn capture_with(
        combat: &Combat,
        encounter: &str,
        registry: &crate::modding::ModRegistry,
    ) -> Result<SaveFile, SaveError> {
        let ruleset = combat.ruleset().clone();
        let setup = EncounterSetup {
            name: encounter.to_string(),
            map: map_rows(combat.map())?,
            round_cap: ruleset.round_cap,
            combatants: combat.origin().specs.clone(),
            gm_policy: (ruleset.openings != crate::rules::ruleset::Openings::None).then(|| ruleset.gm_policy.clone()),
        };
        let mut save = SaveFile {
            version: FORMAT_VERSION,
            meta: SaveMeta {
                encounter: encounter.to_string(),
                ruleset: ruleset.name.clone(),
                round: combat.clock().0,
                saved_at: now_unix(),
                label: String::new(),
            },
            ruleset: RulesetSource::Embedded(ruleset),
            encounter: setup,
            seed: combat.turn().seed,
            dice: combat.origin().dice.clone(),
            journal: combat.journal().to_vec(),
            checkpoints: Vec::new(),
            state: Snapshot::of(combat),
            mods: combat.mods().into_iter().map(|(name, _)| name).collect(),
        };
        let mut replay = save.start_with("(capture)", registry).map_err(|e| SaveError::NotSavable(e.to_string()))?;
        let mut checkpoints = Vec::new();
        for (i, e) in save.journal.iter().enumerate() {
            let _ = replay.apply_entry(e);
            if (i + 1) % CHECKPOINT_EVERY == 0 {
                checkpoints.push(Checkpoint { after: i + 1, hash: Hash64(replay.state_hash()) });
            }
        }
        if replay.state_hash() != save.state.hash.0 {
            let what = save.state.first_difference(&Snapshot::of(&replay)).unwrap_or_else(|| "the state hash".into());
            return Err(SaveError::NotSavable(format!(
                "replaying the journal does not give the state now ({what}): the combat was changed outside \
                 its commands"
            )));
        }
        save.checkpoints = checkpoints;
        Ok(save)
    }

    /// Name the ruleset (with its content hash) instead of embedding it: smaller, but the file
    /// loads only where that exact ruleset is installed.
    pub fn with_installed_ruleset(mut self) -> SaveFile {
        if let RulesetSource::Embedded(rs) = &self.ruleset {
            self.ruleset = RulesetSource::Installed { name: rs.name.clone(), hash: ruleset_hash(rs) };
        }
        self
    }

    /// The file as RON text: one journal entry per line.
    pub fn to_ron(&self) -> String {
        // Depth 0: one line, with spaces (`Command(by: Ai, ok: true, cmd: ...)`).
        let pretty = |depth: usize| {
            let cfg = ron::ser::PrettyConfig::new().struct_names(true).indentor("    ".to_string());
            if depth == 0 {
                cfg.compact_structs(true).compact_arrays(true).compact_maps(true)
            } else {
                cfg.depth_limit(depth)
            }
        };
        let field = |out: &mut String, name: &str, text: String| {
            out.push_str("    ");
            out.push_str(name);
            out.push_str(": ");
            out.push_str(&text.replace('\n', "\n    "));
            out.push_str(",\n");
        };
        let ser = |v: &dyn erased::Ser, depth: usize| v.ron(pretty(depth));
        let mut out = String::from("Save(\n");
        field(&mut out, "version", self.version.to_string());
        field(&mut out, "meta", ser(&self.meta, 1));
        field(&mut out, "ruleset", ser(&self.ruleset, 4));
        field(&mut out, "encounter", ser(&self.encounter, 2));
        field(&mut out, "seed", self.seed.to_string());
        field(&mut out, "dice", ser(&self.dice, 0));
        if !self.mods.is_empty() {
            field(&mut out, "mods", ser(&self.mods, 0));
        }
        let mut journal = String::from("[\n");
        for e in &self.journal {
            journal.push_str("    ");
            journal.push_str(&ser(e, 0));
            journal.push_str(",\n");
        }
        journal.push(']');
        field(&mut out, "journal", journal);
        field(&mut out, "checkpoints", ser(&self.checkpoints, 1));
        field(&mut out, "state", ser(&self.state, 2));
        out.push_str(")\n");
        out
    }

    /// The ruleset this file plays under: the embedded one, or the installed one of that name
    /// and content hash (looked up near `file`). Either way with the round cap of the set-up, and
    /// checked as a ruleset file is.
    pub(crate) fn resolve_ruleset(&self, file: &str) -> Result<Ruleset, SaveError> {
        let invalid = |message: String| SaveError::Invalid { file: file.to_string(), message };
        let mut rs = match &self.ruleset {
            RulesetSource::Embedded(rs) => {
                // The same checks a ruleset file gets (cross references, limits).
                let text = ron::to_string(rs).map_err(|e| invalid(format!("ruleset: {e}")))?;
                Ruleset::from_saved_ron_str("(embedded ruleset)", &text)
                    .map_err(|e| invalid(format!("ruleset: the embedded ruleset is invalid: {}", e.message)))?
            }
            RulesetSource::Installed { name, hash } => {
                let installed = crate::rules::data::installed_rulesets(Path::new(file))
                    .map_err(|e| invalid(format!("ruleset: an installed ruleset does not load: {e}")))?;
                let mut found = None;
                for mut rs in installed.into_iter().filter(|r| &r.name == name) {
                    rs.round_cap = self.encounter.round_cap;
                    if ruleset_hash(&rs) == *hash {
                        found = Some(rs);
                        break;
                    }
                    found.get_or_insert(rs);
                }
                match found {
                    None => return Err(invalid(format!("ruleset: no installed ruleset named `{name}`"))),
                    Some(rs) if ruleset_hash(&rs) != *hash => {
                        return Err(invalid(format!(
                            "ruleset: the installed `{name}` has changed since this was saved (content hash {} \
                             now, {hash} in the save); save with an embedded ruleset to keep it",
                            ruleset_hash(&rs)
                        )));
                    }
                    Some(rs) => rs,
                }
            }
        };
        rs.round_cap = self.encounter.round_cap;
        if let Some(p) = &self.encounter.gm_policy {
            rs.gm_policy = p.clone();
        }
        Ok(rs)
    }

    /// Set the combat up as it was before its first command (no journal entry applied yet).
    pub fn start(&self, file: &str) -> Result<Combat, SaveError> {
        self.start_with(file, &crate::modding::ModRegistry::current())
    }

    /// As [`SaveFile::start`], with the Rust mods the save names made by `registry`.
    pub(crate) fn start_with(&self, file: &str, registry: &crate::modding::ModRegistry) -> Result<Combat, SaveError> {
        let ruleset = self.resolve_ruleset(file)?;
        let rows: Vec<&str> = self.encounter.map.iter().map(String::as_str).collect();
        let map = BattleMap::from_rows(&rows)
            .map_err(|m| SaveError::Invalid { file: file.to_string(), message: format!("encounter.map: {m}") })?;
        let mods = registry
            .list(&self.mods)
            .map_err(|m| SaveError::Invalid { file: file.to_string(), message: format!("mods: {m}") })?;
        Combat::with_mods(ruleset, self.seed, &self.encounter.combatants, map, &self.dice, &mods)
            .map_err(|e| SaveError::Invalid { file: file.to_string(), message: format!("encounter.combatants: {e}") })
    }

    /// Replay the journal from the start. With `verify`, everything the file records about the
    /// fight is compared with the replay, and the first disagreement is returned (the replay still
    /// runs to the end, to show what happened): `meta.encounter` and `meta.ruleset` against the
    /// set-up, every command's outcome, every checkpoint, then every field of the final
    /// [`Snapshot`] and `meta.round`. A checkpoint that cannot be checked (out of range, repeated,
    /// out of order, more than the journal has room for) is an [`SaveError::Invalid`] error
    /// before anything is replayed ([`SaveFile::check_checkpoints`]). `each` sees the combat after
    /// set-up (0) and after every entry (1-based entry number).
    pub fn replay(
        &self,
        file: &str,
        verify: bool,
        each: impl FnMut(usize, &Combat),
    ) -> Result<(Combat, Option<Divergence>), SaveError> {
        self.replay_with(file, verify, &crate::modding::ModRegistry::current(), each)
    }

    /// As [`SaveFile::replay`], with the Rust mods made by `registry`.
    pub fn replay_with(
        &self,
        file: &str,
        verify: bool,
        registry: &crate::modding::ModRegistry,
        each: impl FnMut(usize, &Combat),
    ) -> Result<(Combat, Option<Divergence>), SaveError> {
        self.replay_checking(file, verify, verify, registry, each)
    }

    /// Whether the file's log hash was taken in this build's event format
    /// ([`crate::rules::log::LOG_FORMAT`]), so that a replay's can be compared with it.
    pub(crate) fn log_comparable(&self) -> bool {
        self.state.log_format == crate::rules::log::LOG_FORMAT
    }

    /// As [`SaveFile::replay`]; with `verify`, `state.log_hash` is compared only when `check_log`
    /// (loading leaves it out: the log is rebuilt by the replay, and a save whose events have
    /// been reworded since it was written still loads; `replay --verify` reports it).
    fn replay_checking(
        &self,
        file: &str,
        verify: bool,
        check_log: bool,
        registry: &crate::modding::ModRegistry,
        mut each: impl FnMut(usize, &Combat),
    ) -> Result<(Combat, Option<Divergence>), SaveError> {
        if verify {
            self.check_checkpoints(file)?;
        }
        let mut c = self.start_with(file, registry)?;
        let mut first: Option<Divergence> = None;
        if verify {
            first = self.meta_difference().map(|what| Divergence { entry: 0, agreed_after: 0, what });
        }
        let mut agreed = 0;
        each(0, &c);
        for (i, e) in self.journal.iter().enumerate() {
            let n = i + 1;
            let r = c.apply_entry(e);
            if verify
                && first.is_none()
                && let Entry::Command { ok, cmd, .. } = e
                && *ok != r.is_ok()
            {
                let what = match &r {
                    Ok(()) => format!("`{cmd:?}` was rejected when recorded and is applied now"),
                    Err(why) => format!("`{cmd:?}` was applied when recorded and is rejected now: {}", c.explain(why)),
                };
                first = Some(Divergence { entry: n, agreed_after: agreed, what });
            }
            // The k-th checkpoint is the one after (k + 1) * CHECKPOINT_EVERY entries (verified
            // above; without `verify` one elsewhere is only not used).
            let k = (n / CHECKPOINT_EVERY).wrapping_sub(1);
            if n % CHECKPOINT_EVERY == 0
                && let Some(point) = self.checkpoints.get(k).filter(|p| p.after == n)
            {
                let now = Hash64(c.state_hash());
                if now == point.hash {
                    if first.is_none() {
                        agreed = n;
                    }
                } else if verify && first.is_none() {
                    first = Some(Divergence {
                        entry: n,
                        agreed_after: agreed,
                        what: format!("state hash {now} after command {n}, checkpoints[{k}] says {}", point.hash),
                    });
                }
            }
            each(n, &c);
        }
        if verify && first.is_none() {
            let mut now = Snapshot::of(&c);
            // The event format is the file's own record, not state; a log hash taken in another
            // format cannot be compared (the replay's events are written in this build's).
            now.log_format = self.state.log_format;
            if !check_log || !self.log_comparable() {
                now.log_hash = self.state.log_hash;
            }
            let n = self.journal.len();
            if let Some(what) = self.state.first_difference(&now) {
                first = Some(if now.hash == self.state.hash {
                    // The state agrees: the file's summary of it was edited.
                    Divergence { entry: n, agreed_after: n, what: format!("{what} (the state hash agrees)") }
                } else {
                    Divergence { entry: n, agreed_after: agreed, what: format!("the final state differs: {what}") }
                });
            } else if self.meta.round != now.clock.0 {
                first = Some(Divergence {
                    entry: n,
                    agreed_after: n,
                    what: format!(
                        "meta.round: the file says {}, the replay ends in round {}",
                        self.meta.round, now.clock.0
                    ),
                });
            }
        }
        Ok((c, first))
    }

    /// Whether every checkpoint can be checked: the `i`-th (from 0) must be the one after
    /// `(i + 1) * CHECKPOINT_EVERY` entries, where [`SaveFile::capture`] puts it, so they rise,
    /// lie inside the journal and are at most `journal.len() / CHECKPOINT_EVERY` (a file may
    /// have fewer: the last ones left out, which `replay --verify` names). The error names the
    /// first checkpoint that cannot be checked, and why.
    pub(crate) fn check_checkpoints(&self, file: &str) -> Result<(), SaveError> {
        let invalid = |message: String| SaveError::Invalid { file: file.to_string(), message };
        let entries = self.journal.len();
        let room = entries / CHECKPOINT_EVERY;
        // Stops at the first one that cannot be checked: at most `room + 1` are looked at, so a
        // list repeated 300,000 times is refused at once.
        for (i, point) in self.checkpoints.iter().enumerate() {
            let want = (i + 1) * CHECKPOINT_EVERY;
            let after = point.after;
            if i >= room {
                return Err(invalid(format!(
                    "checkpoints[{i}]: a journal of {entries} entries has room for {room} checkpoints (one after \
                     every {CHECKPOINT_EVERY} entries), and the file lists {}",
                    self.checkpoints.len()
                )));
            }
            if after == want {
                continue;
            }
            let before = i.checked_sub(1).map(|j| (j, self.checkpoints[j].after));
            let later = self.checkpoints[i + 1..].iter().position(|p| p.after == want).map(|j| i + 1 + j);
            let why = match (before, later) {
                _ if after == 0 || after > entries => {
                    format!("after {after} is outside the journal (entries 1..={entries})")
                }
                (Some((j, prev)), _) if after == prev => format!("after {after} repeats checkpoints[{j}]"),
                (Some((j, prev)), _) if after < prev => {
                    format!("after {after} comes before checkpoints[{j}] (after {prev}): out of order")
                }
                (_, Some(j)) => format!("after {after}: out of order (checkpoints[{j}] is the one after {want})"),
                _ if after % CHECKPOINT_EVERY != 0 => {
                    format!("after {after} is not where a checkpoint goes (after every {CHECKPOINT_EVERY} entries)")
                }
                _ => format!("after {after}, but the checkpoint after {want} is missing before it"),
            };
            return Err(invalid(format!(
                "checkpoints[{i}]: {why}; checkpoints[{i}] must be the one after {want} entries, so it cannot be \
                 checked"
            )));
        }
        Ok(())
    }

    /// How `meta` disagrees with the set-up it describes (`None`: it agrees): its ruleset name
    /// with the ruleset's, its encounter name with `encounter.name`. (`meta.round` is compared
    /// with the replayed state at the end; `saved_at` and `label` are free.)
    fn meta_difference(&self) -> Option<String> {
        let ruleset = match &self.ruleset {
            RulesetSource::Embedded(rs) => &rs.name,
            RulesetSource::Installed { name, .. } => name,
        };
        if self.meta.ruleset != *ruleset {
            return Some(format!("meta.ruleset: the file says {:?}, its ruleset is {ruleset:?}", self.meta.ruleset));
        }
        if self.meta.encounter != self.encounter.name {
            return Some(format!(
                "meta.encounter: the file says {:?}, its encounter is {:?}",
                self.meta.encounter, self.encounter.name
            ));
        }
        None
    }
}

/// Tiny object-safe wrapper so `to_ron` can serialize each section with its own layout.
mod erased {
    pub trait Ser {
        fn ron(&self, cfg: ron::ser::PrettyConfig) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn ron(&self, cfg: ron::ser::PrettyConfig) -> String {
            ron::ser::to_string_pretty(self, cfg).unwrap_or_else(|e| format!("<unserializable: {e}>"))
        }
    }
}

/// A save's version alone, every other field skipped unread: whatever a newer version wrote
/// there, its version still reads.
#[derive(Deserialize)]
#[serde(rename = "Save")]
struct VersionOnly {
    version: Option<u32>,
}

/// A save's list entry, the rest skipped.
#[derive(Deserialize)]
#[serde(rename = "Save")]
struct Header {
    meta: Option<SaveMeta>,
}

fn corrupt_at(file: &str, text: &str, needle: &str, message: String) -> SaveError {
    let (line, col) = locate(text, needle).unwrap_or((1, 1));
    SaveError::Corrupt(DataError { file: file.to_string(), line, col, message })
}

/// The number after the first `version:` of the text, if there is one (for a file too damaged,
/// or too new, to parse even leniently).
fn version_in_text(text: &str) -> Option<u32> {
    let rest = text[text.find("version")? + "version".len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    rest[..digits].parse().ok()
}

/// Read the version first, leniently (every other field skipped unread): a newer file is refused
/// as too new, whatever else it holds (unknown fields, fields changed inside `meta`, even syntax
/// this version cannot parse).
fn check_version(file: &str, text: &str) -> Result<(), SaveError> {
    let too_new = |version: u32| SaveError::TooNew { file: file.to_string(), version, supported: FORMAT_VERSION };
    let version = match parse_ron::<VersionOnly>(file, text) {
        Ok(v) => v.version,
        Err(e) => {
            return Err(match version_in_text(text) {
                Some(v) if v > FORMAT_VERSION => too_new(v),
                _ => SaveError::Corrupt(e),
            });
        }
    };
    match version {
        None => Err(corrupt_at(file, text, "Save", "version: missing (not a save file?)".into())),
        Some(v) if v > FORMAT_VERSION => Err(too_new(v)),
        Some(0) => Err(corrupt_at(file, text, "version", "version: 0 is not a save format version".into())),
        Some(_) => Ok(()),
    }
}

/// Parse save text (`file` names it in errors): the version is checked first, then the whole
/// file; older versions are migrated to [`FORMAT_VERSION`] here (version 1 differs only in having
/// no `state.journal_hash`, which is optional, so it needs no step). Errors are
/// `file:line:col: field: message`.
pub fn parse(file: &str, text: &str) -> Result<SaveFile, SaveError> {
    check_version(file, text)?;
    let save: SaveFile = parse_ron(file, text).map_err(SaveError::Corrupt)?;
    // Every version 2 writer stores the journal hash: a file without it was edited to hide an
    // edit of its journal's issuers or rejected commands.
    if save.version >= 2 && save.state.journal_hash.is_none() {
        return Err(corrupt_at(
            file,
            text,
            "state",
            format!("state.journal_hash: missing (every version {} save has it)", save.version),
        ));
    }
    // Migrations from older versions go here, oldest first: `if save.version == 1 { ... }`.
    Ok(save)
}

/// Read a file of at most [`MAX_SAVE_BYTES`] (regular files only).
fn read_save_file(path: &Path) -> Result<String, SaveError> {
    let file = path.display().to_string();
    let bytes = crate::rules::data::read_capped(path, MAX_SAVE_BYTES, "a save")
        .map_err(|m| SaveError::Io { file: file.clone(), message: format!("cannot read: {m}") })?;
    // Decoded as every data file is: UTF-8 (a bad byte named by line and column), a byte-order
    // mark skipped, any line ends.
    crate::rules::data::decode_text(&file, bytes).map_err(SaveError::Corrupt)
}

/// Read a save file without restoring it.
pub fn read(path: &Path) -> Result<SaveFile, SaveError> {
    let text = read_save_file(path)?;
    parse(&path.display().to_string(), &text)
}

/// Load a save: read it, replay its journal and check the result as `replay --verify` does
/// ([`SaveFile::replay`]: checkpoints, outcomes, every field of the state, the journal hash,
/// `meta`), except the log hash (the log is rebuilt by the replay, so a save whose events were
/// reworded since still loads). The combat comes back exactly as saved; any disagreement is
/// [`SaveError::Mismatched`], a checkpoint that cannot be checked [`SaveError::Invalid`].
/// Nothing here panics, and nothing of a game already running is touched: on an error, keep
/// playing the current combat.
pub fn load(path: &Path) -> Result<Loaded, SaveError> {
    let save = read(path)?;
    restore(save, &path.display().to_string())
}

/// Restore a parsed save (see [`load`]).
pub fn restore(save: SaveFile, file: &str) -> Result<Loaded, SaveError> {
    restore_with(save, file, &crate::modding::ModRegistry::current())
}

/// As [`restore`], with the Rust mods the save names made by `registry`.
pub fn restore_with(save: SaveFile, file: &str, registry: &crate::modding::ModRegistry) -> Result<Loaded, SaveError> {
    let (combat, divergence) = save.replay_checking(file, true, false, registry, |_, _| {})?;
    if let Some(divergence) = divergence {
        return Err(SaveError::Mismatched { file: file.to_string(), divergence });
    }
    Ok(Loaded { save, combat })
}

/// Write a save atomically: a temp file in the same folder, fsync, rename over `path`, fsync the
/// folder. A crash at any point leaves either the old file or the new one, never a mix. Only a new
/// path or an existing regular file is written: a device, FIFO, socket, folder or link at `path`
/// is refused ([`crate::outfile::check_target`]).
pub fn write_atomic(path: &Path, save: &SaveFile) -> Result<(), SaveError> {
    write_checked(path, save.to_ron().as_bytes(), &[])
}

/// As [`write_atomic`], for any bytes, also refusing a `path` that is one of `inputs`.
fn write_checked(path: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), SaveError> {
    use crate::outfile;
    let io = |message: String| SaveError::Io { file: path.display().to_string(), message };
    // The outfile messages start with the path; a SaveError names the file itself.
    let strip = |m: String| {
        let prefix = format!("{}: ", path.display());
        io(m.strip_prefix(&prefix).map(str::to_string).unwrap_or(m))
    };
    outfile::check_target(path, inputs).map_err(strip)?;
    let tmp = outfile::write_temp(path, bytes).map_err(strip)?;
    outfile::commit(&tmp, path, inputs).map_err(strip)
}

/// One file in a save folder, for a save list.
#[derive(Debug, Clone)]
pub struct Listed {
    /// The file.
    pub path: PathBuf,
    /// Its list entry, or why it cannot be read.
    pub meta: Result<SaveMeta, SaveError>,
}

/// The saves in a folder (`*.ron`, not hidden, so unfinished temp files are never listed),
/// newest first, then by name. A file that does not read is listed with its error.
pub fn list(dir: &Path) -> Vec<Listed> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<Listed> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "ron")
                && p.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.'))
                && p.is_file()
        })
        .map(|path| {
            let file = path.display().to_string();
            let meta = read_save_file(&path).and_then(|text| {
                check_version(&file, &text)?;
                parse_ron::<Header>(&file, &text)
                    .map_err(SaveError::Corrupt)?
                    .meta
                    .ok_or_else(|| corrupt_at(&file, &text, "Save", "meta: missing".into()))
            });
            Listed { path, meta }
        })
        .collect();
    out.sort_by(|a, b| {
        let t = |l: &Listed| l.meta.as_ref().map_or(0, |m| m.saved_at);
        t(b).cmp(&t(a)).then_with(|| a.path.cmp(&b.path))
    });
    out
}

/// Export a combat's replay (for the scenario runner and the simulator): capture it and write it
/// atomically to `path`, refusing a `path` that is one of `inputs` (the files the combat was
/// loaded from). `name` names the fight.
pub(crate) fn export_replay_beside(
    combat: &Combat,
    name: &str,
    path: &Path,
    inputs: &[&Path],
) -> Result<(), SaveError> {
    let mut save = SaveFile::capture(combat, name)?;
    save.meta.label = "replay".into();
    write_checked(path, save.to_ron().as_bytes(), inputs)
}

/// A combat rebuilt from `combat`'s own set-up with only the first `entries` of its journal
/// replayed (undo). The result has exactly the state `combat` had after those entries.
pub fn rebuild(combat: &Combat, entries: usize) -> Result<Combat, SaveError> {
    let origin = combat.origin();
    let mods = combat.world.get_resource::<crate::rules::modding::ModList>().cloned().unwrap_or_default();
    let mut c = Combat::with_mods(
        combat.ruleset().clone(),
        combat.turn().seed,
        &origin.specs,
        combat.map().clone(),
        &origin.dice,
        &mods,
    )
    .map_err(|e| SaveError::NotSavable(format!("set-up: {e}")))?;
    for e in combat.journal().iter().take(entries) {
        let _ = c.apply_entry(e);
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Found by cargo-mutants (issue 26).
    #[test]
    fn a_divergence_says_where_in_four_ways() {
        let d = |entry, agreed_after| Divergence { entry, agreed_after, what: "hp".into() }.to_string();
        assert_eq!(d(0, 0), "at set-up: hp");
        assert_eq!(d(7, 7), "after command 7: hp");
        assert_eq!(d(7, 6), "diverges at command 7: hp");
        assert_eq!(d(7, 0), "diverges at one of commands 1..=7 (the state agreed after command 0): hp");
        assert_eq!(d(7, 3), "diverges at one of commands 4..=7 (the state agreed after command 3): hp");
    }

    #[test]
    fn ruleset_sources_are_equal_by_name_and_hash_or_by_content() {
        let installed = |name: &str, hash| RulesetSource::Installed { name: name.into(), hash: Hash64(hash) };
        assert_eq!(installed("pf2e", 1), installed("pf2e", 1));
        assert_ne!(installed("pf2e", 1), installed("pf2e", 2));
        assert_ne!(installed("pf2e", 1), installed("pf1e", 1));
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/pf2e.ron");
        let rs = Ruleset::load(&path).unwrap();
        let mut capped = rs.clone();
        capped.round_cap += 1;
        assert_eq!(RulesetSource::Embedded(rs.clone()), RulesetSource::Embedded(rs.clone()));
        assert_ne!(RulesetSource::Embedded(rs.clone()), RulesetSource::Embedded(capped));
        assert_ne!(RulesetSource::Embedded(rs), installed("pf2e", 1));
    }

    #[test]
    fn now_is_the_clock_in_seconds_since_1970() {
        let clock = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        assert!(now_unix().abs_diff(clock) <= 5, "{} against {clock}", now_unix());
    }
}
