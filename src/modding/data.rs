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
//! and the conflict is reported with both files and positions.
//!
//! A mod name is a name, never a path ([`check_mod_name`], the one check for every place a name
//! comes from). A mod folder is confined before anything in it is read
//! ([`confine_mod_folder`]): the `mods/` folder really lies in its project, the mod folder
//! really in `mods/`, and every file (the manifest included) is a regular file really inside the
//! mod folder, symlinks followed and checked. Every file is read size-capped; the content
//! folders are read flat (a subfolder is an error, not silently skipped). Merging is one pass
//! with indexes (n log n), whatever the number of abilities.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::encounter::Encounter;
use crate::rules::data::{DataError, locate, parse_ron, read_data_file};
use crate::rules::ruleset::{AbilityDef, ConditionDef, Ruleset};

mod folder;
pub use folder::*;

/// The most entries (files and folders) a mod's content folder (`rulesets/`, `abilities/`, ...)
/// may hold.
pub const MAX_FILES_PER_FOLDER: usize = 256;

/// The longest mod name, in bytes.
pub const MAX_MOD_NAME: usize = 64;

/// The most ids a mod's manifest may list in `overrides`.
pub const MAX_OVERRIDES: usize = 100_000;

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
    /// Lower loads first (ties: by name).
    #[serde(default)]
    pub load_order: i32,
    /// Ids of abilities, conditions, rulesets and encounters of earlier mods that this mod
    /// replaces on purpose (issue 28). Two mods that define the same id are an error unless the
    /// later one lists the id here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
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

/// The same id defined by two mods, the later one declaring that it overrides it (its manifest's
/// `overrides`); without that declaration loading fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// `ability`, `condition`, `ruleset` or `encounter`.
    pub kind: &'static str,
    /// The id.
    pub id: String,
    /// The definition replaced (earlier in load order).
    pub first: Origin,
    /// The definition in force (later in load order).
    pub second: Origin,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "override: {} `{}` of {} is replaced by mod `{}` at {} (its mod.ron lists it in overrides)",
            self.kind, self.id, self.first, self.second.module, self.second
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
    /// Every declared override, in the order found.
    pub conflicts: Vec<Conflict>,
    /// Where each ruleset extension's own abilities and conditions are defined, by kind and id
    /// (the first), for the conflict checks.
    ext_defs: BTreeMap<(&'static str, String), Origin>,
}

/// Where each quoted string first appears in a text, found in one pass: for every `X` without a
/// `"`, the 1-based (line, column) of the first `"X"`, exactly what `locate(text, "\"X\"")` finds
/// (an occurrence of `"X"` starts at a quote whose next quote closes `X`), without a search per id.
struct Quoted<'a> {
    text: &'a str,
    first: HashMap<&'a str, (usize, usize)>,
    /// The same for the first `id: "X"`: where `X` is defined (its opening quote).
    defined: HashMap<&'a str, (usize, usize)>,
}

impl<'a> Quoted<'a> {
    fn new(text: &'a str) -> Self {
        let quotes: Vec<usize> = text.match_indices('"').map(|(i, _)| i).collect();
        let mut first = HashMap::new();
        let mut defined = HashMap::new();
        let (mut line, mut col, mut pos) = (1, 1, 0);
        for (k, &q) in quotes.iter().enumerate() {
            for ch in text[pos..q].chars() {
                if ch == '\n' {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
            }
            pos = q;
            if let Some(&next) = quotes.get(k + 1) {
                first.entry(&text[q + 1..next]).or_insert((line, col));
                if text[..q].ends_with("id: ") {
                    defined.entry(&text[q + 1..next]).or_insert((line, col));
                }
            }
        }
        Self { text, first, defined }
    }

    /// Where `"id"` first appears (1:1 if nowhere), with the mod and file.
    fn origin(&self, module: &str, file: &str, id: &str) -> Origin {
        // Its definition, `id: "x"`, where the file writes it so (a condition is often named by
        // an ability before it is defined); else its first mention.
        let (line, col) = if let Some(&at) = self.defined.get(id) {
            at
        } else if id.contains('"') {
            locate(self.text, &format!("\"{id}\"")).unwrap_or((1, 1))
        } else {
            self.first.get(id).copied().unwrap_or((1, 1))
        };
        Origin { module: module.into(), file: file.into(), line, col }
    }
}

/// Put each of `items` into `list` by id, in order: over the first entry of the same id, else at
/// the end; `replaced` hears each item that replaced an entry. One pass with an index, not a
/// search per item.
fn merge_by_id<'i, T: Clone + 'i>(
    list: &mut Vec<T>,
    id: impl Fn(&T) -> &str,
    items: impl IntoIterator<Item = &'i T>,
    mut replaced: impl FnMut(&T),
) {
    let mut index: HashMap<String, usize> = HashMap::with_capacity(list.len());
    for (i, x) in list.iter().enumerate() {
        index.entry(id(x).to_string()).or_insert(i);
    }
    for item in items {
        match index.get(id(item)) {
            Some(&i) => {
                list[i] = item.clone();
                replaced(item);
            }
            None => {
                index.insert(id(item).to_string(), list.len());
                list.push(item.clone());
            }
        }
    }
}

/// What a definition of `id` at `at` means when `first` already defines it: a second definition
/// in the same mod is an error; one from a later mod is an override if that mod declares it
/// (`overrides` in its mod.ron), else an error naming both places.
fn clash(
    first: Option<&Origin>,
    kind: &'static str,
    id: &str,
    at: &Origin,
    overrides: &HashSet<String>,
) -> Result<Option<Conflict>, DataError> {
    let Some(first) = first else { return Ok(None) };
    let error = |message: String| DataError { file: at.file.clone(), line: at.line, col: at.col, message };
    if first.module == at.module {
        return Err(error(format!("{kind} `{id}` is defined twice in mod `{}` (first at {first})", at.module)));
    }
    if !overrides.contains(id) {
        return Err(error(format!(
            "conflict: {kind} `{id}` is defined by mod `{}` at {first} and again here by mod `{}`; if `{}` means \
             to replace it, add `overrides: [\"{id}\"]` to its mod.ron, otherwise give one of them another id",
            first.module, at.module, at.module
        )));
    }
    Ok(Some(Conflict { kind, id: id.to_string(), first: first.clone(), second: at.clone() }))
}

/// [`crate::rules::query::unsaid_targets`] at the ability's place in its file.
fn says_how_many(a: &AbilityDef, at: &Origin) -> Result<(), DataError> {
    match crate::rules::query::unsaid_targets(a) {
        Some(message) => Err(DataError { file: at.file.clone(), line: at.line, col: at.col, message }),
        None => Ok(()),
    }
}

/// Put `value` under `id` ([`clash`] with what is there first, and with a ruleset extension's
/// definition of the same kind and id in another mod).
fn put<T>(
    map: &mut BTreeMap<String, (T, Origin)>,
    conflicts: &mut Vec<Conflict>,
    ext_defs: &BTreeMap<(&'static str, String), Origin>,
    kind: &'static str,
    id: String,
    value: T,
    at: Origin,
    overrides: &HashSet<String>,
) -> Result<(), DataError> {
    if let Some(c) = clash(map.get(&id).map(|(_, o)| o), kind, &id, &at, overrides)? {
        conflicts.push(c);
    }
    let ext = ext_defs.get(&(kind, id.clone())).filter(|o| o.module != at.module);
    if let Some(c) = clash(ext, kind, &id, &at, overrides)? {
        conflicts.push(c);
    }
    map.insert(id, (value, at));
    Ok(())
}

/// A chain of mods, each depending on the next, from `from` back to `to`, if there is one
/// (`[to, from, ..., to]`: a dependency cycle through `to`).
fn dependency_cycle(mods: &[DataMod], to: &str, from: &str) -> Option<Vec<String>> {
    let deps = |n: &str| mods.iter().find(|m| m.manifest.name == n).map(|m| m.manifest.depends_on.clone());
    let mut came_from: HashMap<String, String> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([from.to_string()]);
    let mut seen: HashSet<String> = HashSet::from([from.to_string()]);
    while let Some(n) = queue.pop_front() {
        for d in deps(&n).unwrap_or_default() {
            if d == to {
                let mut path = vec![n.clone()];
                while let Some(p) = came_from.get(path.last().expect("not empty")) {
                    path.push(p.clone());
                }
                path.reverse();
                let mut cycle = vec![to.to_string()];
                cycle.extend(path);
                cycle.push(to.to_string());
                return Some(cycle);
            }
            if seen.insert(d.clone()) {
                came_from.insert(d.clone(), n.clone());
                queue.push_back(d);
            }
        }
    }
    None
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
                // The manifest is read again only to place an error (its folder was confined
                // when it was first read).
                let at = |message: String| {
                    let text = read_data_file(&m.dir.join("mod.ron")).unwrap_or_default();
                    let (line, col) = locate_after(&text, "depends_on", &format!("\"{dep}\""));
                    DataError { file: file.clone(), line, col, message }
                };
                match mods.iter().position(|o| &o.manifest.name == dep) {
                    None => {
                        return Err(at(format!("depends_on: mod `{dep}` is not loaded (add it with --mod {dep})")));
                    }
                    Some(j) if j > i => {
                        if let Some(cycle) = dependency_cycle(&mods, &m.manifest.name, dep) {
                            let cycle: Vec<String> = cycle.iter().map(|n| format!("`{n}`")).collect();
                            return Err(at(format!(
                                "depends_on: mods {} depend on each other (a cycle): no load order can put each \
                                 after what it depends on; remove one of these dependencies",
                                cycle.join(" -> ")
                            )));
                        }
                        return Err(at(format!(
                            "depends_on: mod `{dep}` must load before `{}` (give it a lower load_order)",
                            m.manifest.name
                        )));
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
        let overrides: HashSet<String> = m.manifest.overrides.iter().cloned().collect();
        let overrides = &overrides;
        for (p, real) in files_in(&m.dir, "abilities")? {
            let file = p.display().to_string();
            let text = read_as(&real, &file)?;
            let list: Vec<AbilityDef> = parse_ron(&file, &text)?;
            let quoted = Quoted::new(&text);
            for a in list {
                let at = quoted.origin(name, &file, &a.id);
                says_how_many(&a, &at)?;
                put(
                    &mut self.abilities,
                    &mut self.conflicts,
                    &self.ext_defs,
                    "ability",
                    a.id.clone(),
                    a,
                    at,
                    overrides,
                )?;
            }
        }
        for (p, real) in files_in(&m.dir, "conditions")? {
            let file = p.display().to_string();
            let text = read_as(&real, &file)?;
            let list: Vec<ConditionDef> = parse_ron(&file, &text)?;
            let quoted = Quoted::new(&text);
            for c in list {
                let at = quoted.origin(name, &file, &c.id);
                put(
                    &mut self.conditions,
                    &mut self.conflicts,
                    &self.ext_defs,
                    "condition",
                    c.id.clone(),
                    c,
                    at,
                    overrides,
                )?;
            }
        }
        for (p, real) in files_in(&m.dir, "rulesets")? {
            let file = p.display().to_string();
            let text = read_as(&real, &file)?;
            let ext: RulesetExtension = parse_ron(&file, &text)?;
            if !valid_name(&ext.name) {
                return Err(DataError::at_text(&file, &text, "name", "name: letters, digits, - and _ only"));
            }
            let quoted = Quoted::new(&text);
            let at = quoted.origin(name, &file, &ext.name);
            let first = self.rulesets.get(&ext.name).map(|(_, o, _)| o);
            if let Some(c) = clash(first, "ruleset", &ext.name, &at, overrides)? {
                self.conflicts.push(c);
            }
            // Its own abilities and conditions against another mod's `abilities/` and
            // `conditions/`, which go into every ruleset (issue 28: a silent replacement).
            for a in &ext.abilities {
                says_how_many(a, &quoted.origin(name, &file, &a.id))?;
            }
            let ids = ext
                .abilities
                .iter()
                .map(|a| ("ability", &a.id))
                .chain(ext.conditions.iter().map(|c| ("condition", &c.id)));
            for (kind, id) in ids {
                let here = quoted.origin(name, &file, id);
                let folder = match kind {
                    "ability" => self.abilities.get(id).map(|(_, o)| o),
                    _ => self.conditions.get(id).map(|(_, o)| o),
                };
                // The same mod's folder and ruleset defining one id: `clash` says "defined twice".
                if let Some(c) = clash(folder, kind, id, &here, overrides)? {
                    self.conflicts.push(c);
                }
                self.ext_defs.entry((kind, id.clone())).or_insert(here);
            }
            self.rulesets.insert(ext.name.clone(), (ext, at, text));
        }
        for (p, real) in files_in(&m.dir, "encounters")? {
            let file = p.display().to_string();
            let text = read_as(&real, &file)?;
            let enc = Encounter::from_ron_str(&file, &text)?;
            enc.check_structure(&file, &text)?;
            let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let at = Origin { module: name.into(), file: file.clone(), line: 1, col: 1 };
            if let Some(c) = clash(self.encounters.get(&stem).map(|(_, o)| o), "encounter", &stem, &at, overrides)? {
                self.conflicts.push(c);
            }
            self.encounters.insert(stem, (p, at));
        }
        Ok(())
    }

    /// A mod's place in the load order (past the end when it is not loaded).
    fn load_index(&self, name: &str) -> usize {
        self.mods.iter().position(|m| m.manifest.name == name).unwrap_or(usize::MAX)
    }

    /// Whether no data mod is loaded.
    pub fn is_empty(&self) -> bool {
        self.mods.is_empty()
    }

    /// Add the mods' abilities and conditions to a ruleset (replacing its own of the same id),
    /// then check the result. Returns one line per replaced definition.
    pub fn apply(&self, rs: &mut Ruleset) -> Result<Vec<String>, DataError> {
        let mut notes = Vec::new();
        let name = rs.name.clone();
        merge_by_id(
            &mut rs.abilities,
            |a| a.id.as_str(),
            self.abilities.values().map(|(a, _)| a),
            |a| notes.push(format!("{}: ability `{}` replaces ruleset `{name}`'s", self.abilities[&a.id].1, a.id)),
        );
        merge_by_id(
            &mut rs.conditions,
            |c| c.id.as_str(),
            self.conditions.values().map(|(c, _)| c),
            |c| notes.push(format!("{}: condition `{}` replaces ruleset `{name}`'s", self.conditions[&c.id].1, c.id)),
        );
        self.check_merged(rs)?;
        Ok(notes)
    }

    /// Check a merged ruleset; an error points into the mod file that brought the bad piece when
    /// it can (the files are read only then, each once).
    fn check_merged(&self, rs: &Ruleset) -> Result<(), DataError> {
        let e = match rs.validate(&format!("ruleset `{}`", rs.name), "") {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        // Find the file that names what the error is about.
        let named = e.message.split('`').nth(1).or_else(|| {
            let rest = e.message.split_once('[')?.1;
            rest.split_once(']').map(|(id, _)| id)
        });
        let Some(needle) = named.map(|x| format!("\"{x}\"")) else { return Err(e) };
        let files = self
            .abilities
            .values()
            .map(|(_, o)| &o.file)
            .chain(self.conditions.values().map(|(_, o)| &o.file))
            .chain(self.rulesets.values().map(|(_, o, _)| &o.file));
        let mut seen = BTreeSet::new();
        for f in files {
            if !seen.insert(f) {
                continue;
            }
            if let Ok(t) = read_data_file(Path::new(f))
                && let Some((line, col)) = locate(&t, &needle)
            {
                return Err(DataError { file: f.clone(), line, col, message: e.message });
            }
        }
        Err(e)
    }

    /// The ruleset `name` as a mod defines it (its base with its additions and overrides, plus
    /// every mod's abilities and conditions), or `None` if no loaded mod defines it. `base` loads
    /// an installed ruleset by name.
    pub fn ruleset(
        &self,
        name: &str,
        base: &dyn Fn(&str) -> Result<Ruleset, DataError>,
    ) -> Option<Result<Ruleset, DataError>> {
        self.rulesets.contains_key(name).then(|| self.build_ruleset(name, base))
    }

    /// The `extends` chain of the ruleset `name`: `name`, the ruleset it extends, and so on, down
    /// to the first name no loaded mod defines (the installed base), last. There is no depth cap
    /// (a chain is at most as long as the mods have rulesets); a cycle is an error that lists it,
    /// at the `extends` that closes it.
    pub fn extends_chain(&self, name: &str) -> Result<Vec<String>, DataError> {
        let mut chain: Vec<String> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        let mut cur = name.to_string();
        while let Some((key, (ext, at, text))) = self.rulesets.get_key_value(cur.as_str()) {
            seen.insert(key.as_str());
            chain.push(key.clone());
            let next = ext.extends.as_str();
            let err = |m: String| DataError::at_text(&at.file, text, "extends", m);
            if next == key {
                return Err(err(format!("extends: `{next}` extends itself (a cycle)")));
            }
            if seen.contains(next) {
                let from = chain.iter().position(|c| c == next).unwrap_or(0);
                let mut cycle: Vec<String> = chain[from..].iter().map(|c| format!("`{c}`")).collect();
                cycle.push(format!("`{next}`"));
                return Err(err(format!(
                    "extends: rulesets {} extend each other (a cycle): none of them has a base",
                    cycle.join(" -> ")
                )));
            }
            cur = next.to_string();
        }
        chain.push(cur);
        Ok(chain)
    }

    /// Build the ruleset `name` from the bottom of its `extends` chain up: the base with the
    /// mods' abilities and conditions, then each extension's additions and overrides, the mods'
    /// again, checked at every step.
    fn build_ruleset(
        &self,
        name: &str,
        base: &dyn Fn(&str) -> Result<Ruleset, DataError>,
    ) -> Result<Ruleset, DataError> {
        let chain = self.extends_chain(name)?;
        let (base_name, exts) = chain.split_last().expect("the chain ends with its base");
        let mut rs = match base(base_name) {
            Ok(rs) => rs,
            // The lowest extension names a base that does not exist.
            Err(e) if e.message.starts_with("cannot read") && !exts.is_empty() => {
                let (_, at, text) = &self.rulesets[&exts[exts.len() - 1]];
                return Err(DataError::at_text(
                    &at.file,
                    text,
                    &format!("\"{base_name}\""),
                    format!("extends: no ruleset `{base_name}` ({})", e.message),
                ));
            }
            Err(e) => return Err(e),
        };
        self.apply(&mut rs)?;
        // What the chain's extensions override of the mods' `abilities/` and `conditions/`,
        // kept across the chain: each `apply` below puts the folders' in again.
        let (mut kept_abilities, mut kept_conditions): (Vec<AbilityDef>, Vec<ConditionDef>) = (Vec::new(), Vec::new());
        for ext_name in exts.iter().rev() {
            let (ext, at, text) = &self.rulesets[ext_name];
            rs.name = ext.name.clone();
            merge_by_id(&mut rs.abilities, |a| a.id.as_str(), &ext.abilities, |_| {});
            merge_by_id(&mut rs.conditions, |c| c.id.as_str(), &ext.conditions, |_| {});
            // The mods' `abilities/` and `conditions/` go in again below; where this extension's
            // mod overrides one of them (it loads later), the extension's stays.
            let ours = |o: &Origin| self.load_index(&o.module) < self.load_index(&at.module);
            let keep_abilities: Vec<AbilityDef> = ext
                .abilities
                .iter()
                .filter(|a| self.abilities.get(&a.id).is_some_and(|(_, o)| ours(o)))
                .cloned()
                .collect();
            let keep_conditions: Vec<ConditionDef> = ext
                .conditions
                .iter()
                .filter(|c| self.conditions.get(&c.id).is_some_and(|(_, o)| ours(o)))
                .cloned()
                .collect();
            let mut basic: HashSet<String> = rs.basic_abilities.iter().cloned().collect();
            for b in &ext.basic_abilities {
                if basic.insert(b.clone()) {
                    rs.basic_abilities.push(b.clone());
                }
            }
            if let Some(cap) = ext.round_cap {
                rs.round_cap = cap.clamp(1, crate::rules::limits::MAX_ROUNDS);
            }
            // This extension's definitions replace what a lower one kept.
            kept_abilities.retain(|k| !ext.abilities.iter().any(|a| a.id == k.id));
            kept_conditions.retain(|k| !ext.conditions.iter().any(|c| c.id == k.id));
            kept_abilities.extend(keep_abilities);
            kept_conditions.extend(keep_conditions);
            self.apply(&mut rs)?;
            merge_by_id(&mut rs.abilities, |a| a.id.as_str(), &kept_abilities, |_| {});
            merge_by_id(&mut rs.conditions, |c| c.id.as_str(), &kept_conditions, |_| {});
            rs.validate(&at.file, text)?;
        }
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
    let path = crate::rules::data::resolve_ruleset(&probe, name).map_err(|m| DataError {
        file: format!("ruleset `{name}`"),
        line: 1,
        col: 1,
        message: format!("cannot read: {m}"),
    })?;
    Ruleset::load(&path)
}

/// The folders of the mods `manifest` (the mod in `dir`) depends on, directly or not, from its
/// sibling folders (those that exist; loading reports the missing).
fn with_dependencies(dir: &Path, manifest: &ModManifest) -> Result<Vec<PathBuf>, DataError> {
    let parent = mods_folder_of(dir);
    let mut dirs = Vec::new();
    let mut want = manifest.depends_on.clone();
    while let Some(d) = want.pop() {
        // `d` passed `check_mod_name` in `read_manifest`: a name, never a path.
        let p = parent.join(&d);
        if dirs.contains(&p) || p.symlink_metadata().is_err() {
            continue;
        }
        want.extend(read_manifest(&p)?.depends_on);
        dirs.push(p);
    }
    Ok(dirs)
}

/// `skirmish check mods/A mods/B`: the mods loaded together (with what they depend on), as
/// `--mod A --mod B` would load them: two of them defining one id without an `overrides` is an
/// error. One line: the load order and the overrides.
pub fn check_together(dirs: &[PathBuf]) -> Result<Vec<String>, DataError> {
    let mut all = Vec::new();
    for d in dirs {
        let m = read_manifest(d)?;
        for p in with_dependencies(d, &m)?.into_iter().chain([d.clone()]) {
            if !all.contains(&p) {
                all.push(p);
            }
        }
    }
    let mods = DataMods::load(&all)?;
    let mut out =
        vec![format!("mods {} together: ok (load order: {})", mods.names().join(", "), mods.names().join(" -> "))];
    out.extend(mods.conflicts.iter().map(|c| format!("  {c}")));
    Ok(out)
}

/// `skirmish check mods/NAME`: load the mod (with the mods it depends on, from its sibling
/// folders), build every ruleset it defines, add its abilities and conditions to every installed
/// ruleset, and check its encounters against them. One line per finding.
pub fn check_mod(dir: &Path) -> Result<Vec<String>, DataError> {
    let manifest = read_manifest(dir)?;
    let mut dirs = with_dependencies(dir, &manifest)?;
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
    // Names the game shows that lack a shipped language (issue 24): warnings, not errors.
    let mine = |o: &Origin| o.module == manifest.name;
    let mut named: Vec<(String, &BTreeMap<String, String>)> = Vec::new();
    named.extend(
        mods.abilities.values().filter(|(_, o)| mine(o)).map(|(a, _)| (format!("ability `{}`", a.id), &a.names)),
    );
    named.extend(
        mods.conditions.values().filter(|(_, o)| mine(o)).map(|(c, _)| (format!("condition `{}`", c.id), &c.names)),
    );
    for (x, _, _) in mods.rulesets.values().filter(|(_, o, _)| mine(o)) {
        named.extend(x.abilities.iter().map(|a| (format!("ruleset `{}`: ability `{}`", x.name, a.id), &a.names)));
        named.extend(x.conditions.iter().map(|c| (format!("ruleset `{}`: condition `{}`", x.name, c.id), &c.names)));
    }
    let warnings: Vec<String> = crate::i18n::missing_names(named.into_iter())
        .into_iter()
        .map(|w| format!("  warning: {w} (it shows the default name)"))
        .collect();
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
        for base in crate::rules::data::installed_rulesets(dir)? {
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
        for rs in &checked {
            enc.validate(&file, &text, rs)?;
        }
        // Say what it was checked against (issue 28).
        let against: Vec<String> = checked.iter().map(|r| format!("`{}`", r.name)).collect();
        out.push(if against.is_empty() {
            format!("  encounter `{name}` ok (its structure: the mod defines no ruleset to check its sheets under)")
        } else {
            format!("  encounter `{name}` ok under {}", against.join(", "))
        });
        let items = std::iter::once((format!("encounter `{name}`: its title"), &enc.names))
            .chain(enc.sides.iter().map(|s| (format!("encounter `{name}`: side `{}`", s.name), &s.names)))
            .chain(enc.combatants.iter().map(|c| (format!("encounter `{name}`: combatant `{}`", c.name), &c.names)));
        out.extend(
            crate::i18n::missing_names(items)
                .into_iter()
                .map(|w| format!("  warning: {w} (it shows the default name)")),
        );
    }
    out.extend(warnings);
    Ok(out)
}
