//! Data mods: folders under `mods/` that add rulesets, abilities, conditions and encounters, and
//! run no code.
//!
//! ```text
//! mods/<name>/mod.ron          ModManifest(name, version, depends_on, load_order)
//! mods/<name>/rulesets/*.ron   Ruleset(name: "...", extends: "pf2e", abilities: [..], conditions: [..])
//! mods/<name>/abilities/*.ron  [ (id: "...", ...), ... ]   (abilities, the ruleset format)
//! mods/<name>/conditions/*.ron [ (id: "...", ...), ... ]   (conditions, the ruleset format)
//! mods/<name>/encounters/*.ron Encounter(...)              (the encounter format)
//! ```
//!
//! Mods load in `(load_order, name)` order; a mod's dependencies must load before it. The
//! abilities and conditions of `abilities/` and `conditions/` are added to every ruleset played
//! while the mod is on (replacing the ruleset's own of the same id). A ruleset with `extends`
//! is its base (an installed ruleset or one of an earlier mod) plus its additions and
//! overrides. The same id defined by two mods is a conflict: the later mod in load order wins
//! and the conflict is reported with both files and positions. Every file is read size-capped
//! and must really lie inside its mod's folder (no `..`, no symlink out).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::encounter::Encounter;
use crate::rules::ruleset::{AbilityDef, ConditionDef, DataError, Ruleset, locate, parse_ron, read_data_file};
use crate::scenario::inside_its_folder;

/// The most files a mod folder (`rulesets/`, `abilities/`, ...) may hold.
pub const MAX_FILES_PER_FOLDER: usize = 256;

/// `mods/<name>/mod.ron`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModManifest {
    /// The mod's name: letters, digits, `-` and `_`; the folder's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Data mods that must be loaded, before this one.
    #[serde(default)]
    pub depends_on: Vec<String>,
    /// Lower loads first (ties: by name). A later mod wins a conflict.
    #[serde(default)]
    pub load_order: i32,
}

/// A ruleset in a mod: a base plus additions and overrides.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Ruleset")]
pub struct RulesetExtension {
    /// The new ruleset's name.
    pub name: String,
    /// The base: an installed ruleset's name, or a ruleset of an earlier mod.
    pub extends: String,
    /// Abilities added, or replacing the base's of the same id.
    #[serde(default)]
    pub abilities: Vec<AbilityDef>,
    /// Conditions added, or replacing the base's of the same id.
    #[serde(default)]
    pub conditions: Vec<ConditionDef>,
    /// Abilities every creature has, added to the base's.
    #[serde(default)]
    pub basic_abilities: Vec<String>,
    /// Replaces the base's round cap.
    #[serde(default)]
    pub round_cap: Option<u32>,
}

/// Where something is defined: file, line, column, and the mod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The mod's name.
    pub module: String,
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{} (mod `{}`)", self.file, self.line, self.col, self.module)
    }
}

/// The same id defined by two mods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// `ability`, `condition`, `ruleset` or `encounter`.
    pub kind: &'static str,
    /// The id.
    pub id: String,
    /// The definition that lost (earlier in load order).
    pub first: Origin,
    /// The definition in force (later in load order).
    pub second: Origin,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "conflict: {} `{}` is defined at {} and at {}; load order decides: mod `{}` wins",
            self.kind, self.id, self.first, self.second, self.second.module
        )
    }
}

/// One loaded data mod.
#[derive(Debug, Clone)]
pub struct DataMod {
    /// Its manifest.
    pub manifest: ModManifest,
    /// Its folder.
    pub dir: PathBuf,
}

/// Data mods loaded together, merged in load order.
#[derive(Debug, Clone, Default)]
pub struct DataMods {
    /// The mods, in load order.
    pub mods: Vec<DataMod>,
    /// Abilities from `abilities/` folders, by id (the winner of any conflict).
    pub abilities: BTreeMap<String, (AbilityDef, Origin)>,
    /// Conditions from `conditions/` folders, by id.
    pub conditions: BTreeMap<String, (ConditionDef, Origin)>,
    /// Ruleset extensions, by the new ruleset's name, with their file's text.
    pub rulesets: BTreeMap<String, (RulesetExtension, Origin, String)>,
    /// Encounter files, by file stem.
    pub encounters: BTreeMap<String, (PathBuf, Origin)>,
    /// Every conflict, in the order found.
    pub conflicts: Vec<Conflict>,
}

fn valid_name(n: &str) -> bool {
    !n.is_empty() && n.len() <= 64 && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Read the manifest of the mod in `dir`.
pub fn read_manifest(dir: &Path) -> Result<ModManifest, DataError> {
    let path = dir.join("mod.ron");
    let file = path.display().to_string();
    let text = read_data_file(&path)?;
    let m: ModManifest = parse_ron(&file, &text)?;
    if !valid_name(&m.name) {
        return Err(DataError::at_text(&file, &text, "name", "name: letters, digits, - and _ only (at most 64)"));
    }
    let folder = dir.canonicalize().ok().and_then(|d| d.file_name().map(|f| f.to_string_lossy().into_owned()));
    if folder.as_deref() != Some(m.name.as_str()) {
        return Err(DataError::at_text(
            &file,
            &text,
            &format!("\"{}\"", m.name),
            format!("name: `{}` must be the mod folder's name (`{}`)", m.name, folder.unwrap_or_default()),
        ));
    }
    for d in &m.depends_on {
        if !valid_name(d) {
            return Err(DataError::at_text(&file, &text, "depends_on", format!("depends_on: `{d}` is not a mod name")));
        }
    }
    Ok(m)
}

/// The `.ron` files of `dir/<sub>/`, sorted, each checked to lie really inside that folder.
fn files_in(dir: &Path, sub: &str) -> Result<Vec<PathBuf>, DataError> {
    let folder = dir.join(sub);
    let err = |m: String| DataError { file: folder.display().to_string(), line: 1, col: 1, message: m };
    if !folder.exists() {
        return Ok(Vec::new());
    }
    let real_dir = dir.canonicalize().map_err(|e| err(format!("cannot read: {e}")))?;
    let real_folder = folder.canonicalize().map_err(|e| err(format!("cannot read: {e}")))?;
    if !real_folder.starts_with(&real_dir) || !real_folder.is_dir() {
        return Err(err(format!("{sub}: must be a folder inside the mod's folder")));
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&folder).map_err(|e| err(format!("cannot read: {e}")))? {
        let p = entry.map_err(|e| err(format!("cannot read: {e}")))?.path();
        if p.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        if out.len() >= MAX_FILES_PER_FOLDER {
            return Err(err(format!("{sub}: more than {MAX_FILES_PER_FOLDER} files")));
        }
        let real = inside_its_folder(&p).filter(|r| r.starts_with(&real_dir)).ok_or_else(|| DataError {
            file: p.display().to_string(),
            line: 1,
            col: 1,
            message: "leads outside the mod's folder (a symlink out is refused)".into(),
        })?;
        out.push((p, real));
    }
    out.sort();
    Ok(out.into_iter().map(|(p, _)| p).collect())
}

fn origin(module: &str, file: &str, text: &str, id: &str) -> Origin {
    let (line, col) = locate(text, &format!("\"{id}\"")).unwrap_or((1, 1));
    Origin { module: module.into(), file: file.into(), line, col }
}

/// Put `value` under `id`: a second definition in the same mod is an error; one from another mod
/// is a conflict the later mod wins.
fn put<T>(
    map: &mut BTreeMap<String, (T, Origin)>,
    conflicts: &mut Vec<Conflict>,
    kind: &'static str,
    id: String,
    value: T,
    at: Origin,
) -> Result<(), DataError> {
    if let Some((_, first)) = map.get(&id) {
        if first.module == at.module {
            return Err(DataError {
                file: at.file.clone(),
                line: at.line,
                col: at.col,
                message: format!("{kind} `{id}` is defined twice in mod `{}` (first at {first})", at.module),
            });
        }
        conflicts.push(Conflict { kind, id: id.clone(), first: first.clone(), second: at.clone() });
    }
    map.insert(id, (value, at));
    Ok(())
}

impl DataMods {
    /// Load the mods in these folders: read and check each manifest, order them, check their
    /// dependencies, read every file and merge.
    pub fn load(dirs: &[PathBuf]) -> Result<DataMods, DataError> {
        let mut mods = Vec::new();
        for d in dirs {
            let manifest = read_manifest(d)?;
            if mods.iter().any(|m: &DataMod| m.manifest.name == manifest.name) {
                continue;
            }
            mods.push(DataMod { manifest, dir: d.clone() });
        }
        mods.sort_by(|a, b| (a.manifest.load_order, &a.manifest.name).cmp(&(b.manifest.load_order, &b.manifest.name)));
        for (i, m) in mods.iter().enumerate() {
            for dep in &m.manifest.depends_on {
                let file = m.dir.join("mod.ron").display().to_string();
                let text = read_data_file(&m.dir.join("mod.ron"))?;
                match mods.iter().position(|o| &o.manifest.name == dep) {
                    None => {
                        return Err(DataError::at_text(
                            &file,
                            &text,
                            &format!("\"{dep}\""),
                            format!("depends_on: mod `{dep}` is not loaded (add it with --mod {dep})"),
                        ));
                    }
                    Some(j) if j > i => {
                        return Err(DataError::at_text(
                            &file,
                            &text,
                            &format!("\"{dep}\""),
                            format!(
                                "depends_on: mod `{dep}` must load before `{}` (give it a lower load_order)",
                                m.manifest.name
                            ),
                        ));
                    }
                    _ => {}
                }
            }
        }
        let mut out = DataMods { mods, ..Default::default() };
        for m in out.mods.clone() {
            out.read_mod(&m)?;
        }
        Ok(out)
    }

    fn read_mod(&mut self, m: &DataMod) -> Result<(), DataError> {
        let name = m.manifest.name.as_str();
        for p in files_in(&m.dir, "abilities")? {
            let file = p.display().to_string();
            let text = read_data_file(&p)?;
            let list: Vec<AbilityDef> = parse_ron(&file, &text)?;
            for a in list {
                let at = origin(name, &file, &text, &a.id);
                put(&mut self.abilities, &mut self.conflicts, "ability", a.id.clone(), a, at)?;
            }
        }
        for p in files_in(&m.dir, "conditions")? {
            let file = p.display().to_string();
            let text = read_data_file(&p)?;
            let list: Vec<ConditionDef> = parse_ron(&file, &text)?;
            for c in list {
                let at = origin(name, &file, &text, &c.id);
                put(&mut self.conditions, &mut self.conflicts, "condition", c.id.clone(), c, at)?;
            }
        }
        for p in files_in(&m.dir, "rulesets")? {
            let file = p.display().to_string();
            let text = read_data_file(&p)?;
            let ext: RulesetExtension = parse_ron(&file, &text)?;
            if !valid_name(&ext.name) {
                return Err(DataError::at_text(&file, &text, "name", "name: letters, digits, - and _ only"));
            }
            let at = origin(name, &file, &text, &ext.name);
            let mut plain: BTreeMap<String, (RulesetExtension, Origin)> =
                self.rulesets.iter().map(|(k, (e, o, _))| (k.clone(), (e.clone(), o.clone()))).collect();
            put(&mut plain, &mut self.conflicts, "ruleset", ext.name.clone(), ext.clone(), at.clone())?;
            self.rulesets.insert(ext.name.clone(), (ext, at, text));
        }
        for p in files_in(&m.dir, "encounters")? {
            let file = p.display().to_string();
            let text = read_data_file(&p)?;
            let enc = Encounter::from_ron_str(&file, &text)?;
            enc.check_structure(&file, &text)?;
            let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let at = Origin { module: name.into(), file: file.clone(), line: 1, col: 1 };
            let mut plain: BTreeMap<String, (PathBuf, Origin)> = self.encounters.clone();
            put(&mut plain, &mut self.conflicts, "encounter", stem.clone(), p.clone(), at.clone())?;
            self.encounters.insert(stem, (p, at));
        }
        Ok(())
    }

    /// Whether no data mod is loaded.
    pub fn is_empty(&self) -> bool {
        self.mods.is_empty()
    }

    /// Add the mods' abilities and conditions to a ruleset (replacing its own of the same id),
    /// then check the result. Returns one line per replaced definition.
    pub fn apply(&self, rs: &mut Ruleset) -> Result<Vec<String>, DataError> {
        let mut notes = Vec::new();
        for (id, (a, at)) in &self.abilities {
            match rs.abilities.iter_mut().find(|x| &x.id == id) {
                Some(x) => {
                    *x = a.clone();
                    notes.push(format!("{at}: ability `{id}` replaces ruleset `{}`'s", rs.name));
                }
                None => rs.abilities.push(a.clone()),
            }
        }
        for (id, (c, at)) in &self.conditions {
            match rs.conditions.iter_mut().find(|x| &x.id == id) {
                Some(x) => {
                    *x = c.clone();
                    notes.push(format!("{at}: condition `{id}` replaces ruleset `{}`'s", rs.name));
                }
                None => rs.conditions.push(c.clone()),
            }
        }
        self.check_merged(rs)?;
        Ok(notes)
    }

    /// Check a merged ruleset; an error points into the mod file that brought the bad piece when
    /// it can.
    fn check_merged(&self, rs: &Ruleset) -> Result<(), DataError> {
        let files: Vec<(String, String)> = self
            .abilities
            .values()
            .map(|(_, o)| o.file.clone())
            .chain(self.conditions.values().map(|(_, o)| o.file.clone()))
            .chain(self.rulesets.values().map(|(_, o, _)| o.file.clone()))
            .filter_map(|f| read_data_file(Path::new(&f)).ok().map(|t| (f, t)))
            .collect();
        match rs.validate(&format!("ruleset `{}`", rs.name), "") {
            Ok(()) => Ok(()),
            Err(e) => {
                // Find the file that names what the error is about.
                let named = e.message.split('`').nth(1).or_else(|| {
                    let rest = e.message.split_once('[')?.1;
                    rest.split_once(']').map(|(id, _)| id)
                });
                let needle = named.map(|x| format!("\"{x}\""));
                for (f, t) in &files {
                    if let Some(n) = &needle
                        && let Some((line, col)) = locate(t, n)
                    {
                        return Err(DataError { file: f.clone(), line, col, message: e.message });
                    }
                }
                Err(e)
            }
        }
    }

    /// The ruleset `name` as a mod defines it (its base with its additions and overrides, plus
    /// every mod's abilities and conditions), or `None` if no loaded mod defines it. `base` loads
    /// an installed ruleset by name.
    pub fn ruleset(
        &self,
        name: &str,
        base: &dyn Fn(&str) -> Result<Ruleset, DataError>,
    ) -> Option<Result<Ruleset, DataError>> {
        self.rulesets.contains_key(name).then(|| self.build_ruleset(name, base, 0))
    }

    fn build_ruleset(
        &self,
        name: &str,
        base: &dyn Fn(&str) -> Result<Ruleset, DataError>,
        depth: usize,
    ) -> Result<Ruleset, DataError> {
        let Some((ext, at, text)) = self.rulesets.get(name) else {
            let mut rs = base(name)?;
            self.apply(&mut rs)?;
            return Ok(rs);
        };
        let err = |needle: &str, m: String| DataError::at_text(&at.file, text, needle, m);
        if depth > 16 || ext.extends == ext.name {
            return Err(err("extends", format!("extends: `{}` extends itself (a cycle)", ext.extends)));
        }
        let mut rs = self.build_ruleset(&ext.extends, base, depth + 1).map_err(|e| {
            if e.message.starts_with("cannot read") {
                err(&format!("\"{}\"", ext.extends), format!("extends: no ruleset `{}` ({})", ext.extends, e.message))
            } else {
                e
            }
        })?;
        rs.name = ext.name.clone();
        for a in &ext.abilities {
            match rs.abilities.iter_mut().find(|x| x.id == a.id) {
                Some(x) => *x = a.clone(),
                None => rs.abilities.push(a.clone()),
            }
        }
        for c in &ext.conditions {
            match rs.conditions.iter_mut().find(|x| x.id == c.id) {
                Some(x) => *x = c.clone(),
                None => rs.conditions.push(c.clone()),
            }
        }
        for b in &ext.basic_abilities {
            if !rs.basic_abilities.contains(b) {
                rs.basic_abilities.push(b.clone());
            }
        }
        if let Some(cap) = ext.round_cap {
            rs.round_cap = cap.clamp(1, crate::rules::limits::MAX_ROUNDS);
        }
        self.apply(&mut rs)?;
        rs.validate(&at.file, text)?;
        Ok(rs)
    }

    /// An encounter file a mod ships, by name (file stem).
    pub fn encounter(&self, name: &str) -> Option<&Path> {
        self.encounters.get(name).map(|(p, _)| p.as_path())
    }

    /// The mods' names, in load order.
    pub fn names(&self) -> Vec<String> {
        self.mods.iter().map(|m| m.manifest.name.clone()).collect()
    }
}

/// Load an installed ruleset by name (`assets/rulesets/<name>.ron`, as scenarios find them).
pub fn installed_ruleset(name: &str) -> Result<Ruleset, DataError> {
    let probe = Path::new("mods").join("probe.ron");
    let path = crate::scenario::resolve_ruleset(&probe, name).map_err(|m| DataError {
        file: format!("ruleset `{name}`"),
        line: 1,
        col: 1,
        message: format!("cannot read: {m}"),
    })?;
    Ruleset::load(&path)
}

/// `skirmish check mods/NAME`: load the mod (with the mods it depends on, from its sibling
/// folders), build every ruleset it defines, add its abilities and conditions to every installed
/// ruleset, and check its encounters against them. One line per finding.
pub fn check_mod(dir: &Path) -> Result<Vec<String>, DataError> {
    let manifest = read_manifest(dir)?;
    let parent = dir.parent().unwrap_or(Path::new("."));
    let mut dirs = Vec::new();
    let mut want = manifest.depends_on.clone();
    while let Some(d) = want.pop() {
        let p = parent.join(&d);
        if dirs.contains(&p) || !p.join("mod.ron").is_file() {
            continue;
        }
        want.extend(read_manifest(&p)?.depends_on);
        dirs.push(p);
    }
    dirs.push(dir.to_path_buf());
    let mods = DataMods::load(&dirs)?;
    let mut out = vec![format!(
        "{}: mod `{}` {} ({} abilities, {} conditions, {} rulesets, {} encounters)",
        dir.display(),
        manifest.name,
        manifest.version,
        mods.abilities.values().filter(|(_, o)| o.module == manifest.name).count(),
        mods.conditions.values().filter(|(_, o)| o.module == manifest.name).count(),
        mods.rulesets.values().filter(|(_, o, _)| o.module == manifest.name).count(),
        mods.encounters.values().filter(|(_, o)| o.module == manifest.name).count(),
    )];
    out.extend(mods.conflicts.iter().map(|c| c.to_string()));
    let mut rulesets = Vec::new();
    for name in mods.rulesets.keys() {
        let rs = mods.ruleset(name, &installed_ruleset).expect("listed")?;
        out.push(format!(
            "  ruleset `{}` ok ({} abilities, {} conditions)",
            rs.name,
            rs.abilities.len(),
            rs.conditions.len()
        ));
        rulesets.push(rs);
    }
    if !mods.abilities.is_empty() || !mods.conditions.is_empty() {
        for base in crate::encounter::installed_rulesets(dir)? {
            let mut rs = base;
            let notes = mods.apply(&mut rs)?;
            out.push(format!("  added to ruleset `{}` ok", rs.name));
            out.extend(notes.into_iter().map(|n| format!("    {n}")));
        }
    }
    for (name, (path, o)) in &mods.encounters {
        if o.module != manifest.name {
            continue;
        }
        let file = path.display().to_string();
        let text = read_data_file(path)?;
        let enc = Encounter::from_ron_str(&file, &text)?;
        let checked: Vec<&Ruleset> = rulesets.iter().collect();
        if checked.is_empty() {
            enc.check_structure(&file, &text)?;
        }
        for rs in checked {
            enc.validate(&file, &text, rs)?;
        }
        out.push(format!("  encounter `{name}` ok"));
    }
    Ok(out)
}
