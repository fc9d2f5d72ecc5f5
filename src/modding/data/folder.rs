//! A mod's folder before anything in it is merged: its name checked, the folder confined to its
//! project's `mods/`, its manifest read, and its content files listed (flat, size-capped, each a
//! regular file really inside the folder).

use std::path::{Component, Path, PathBuf};

use crate::rules::data::inside_its_folder;
use crate::rules::data::{DataError, parse_ron, read_data_file};

use super::{MAX_FILES_PER_FOLDER, MAX_MOD_NAME, MAX_OVERRIDES, ModManifest};

pub(super) fn valid_name(n: &str) -> bool {
    !n.is_empty() && n.len() <= MAX_MOD_NAME && n.chars().all(crate::rules::limits::plain_name_char)
}

/// Whether `name` is a mod name: 1 to [`MAX_MOD_NAME`] letters, digits, `-` and `_`; never a
/// path (`..`, `/`, `.`, a NUL...). The one check every mod name goes through, wherever it comes
/// from (`--mod`, a scenario's `mods:`, a manifest's `name` and `depends_on`): the error says why,
/// and the caller says where the name came from.
pub fn check_mod_name(name: &str) -> Result<(), String> {
    if valid_name(name) {
        return Ok(());
    }
    // The name as written, escaped (a NUL or a newline shows as `\0`, `\n`) and cut short.
    let mut shown: String = name.chars().take(80).flat_map(char::escape_debug).collect();
    if name.chars().count() > 80 {
        shown.push_str("...");
    }
    let why = if name.is_empty() {
        "it is empty".to_string()
    } else if name.len() > MAX_MOD_NAME {
        format!("it is longer than {MAX_MOD_NAME} bytes")
    } else if name.contains(['/', '\\']) || name == "." || name == ".." {
        "a mod is named, never given as a path".to_string()
    } else {
        "it has other characters".to_string()
    };
    Err(format!(
        "`{shown}` is not a mod name ({why}): a mod name is 1 to {MAX_MOD_NAME} letters, digits, `-` and `_`, \
         the name of a folder in `mods/`"
    ))
}

/// `p` made absolute (against the working directory), with `.` and `..` taken out by the names
/// alone, as a shell's `cd` does: the folders it names, no symlink followed.
fn logical(p: &Path) -> PathBuf {
    let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(p) };
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The `mods/` folder a mod folder `dir` is in: its parent as written (`mods` for `mods/NAME`),
/// or, when `dir` is written with `.` or `..` or has no parent written, its parent by name.
pub(super) fn mods_folder_of(dir: &Path) -> PathBuf {
    let plain = dir.components().all(|c| matches!(c, Component::Normal(_) | Component::RootDir | Component::Prefix(_)));
    match dir.parent() {
        Some(p) if plain && !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => logical(dir).parent().map(Path::to_path_buf).unwrap_or_default(),
    }
}

/// Check a data mod folder before anything in it is read, as rulesets are confined: the `mods/`
/// folder it is in really lies in that folder's parent (the project: a `mods/` linked in from
/// elsewhere is refused), the mod folder is a folder really inside `mods/` (a mod folder linked in
/// from outside is refused), and its `mod.ron` is a regular file really inside the mod folder.
/// Symlinks are followed and checked. Returns the manifest's real path (read that, so a link
/// swapped in after the check changes nothing). No error names a path outside or quotes a file.
pub fn confine_mod_folder(dir: &Path) -> Result<PathBuf, DataError> {
    let err = |file: &Path, message: String| DataError { file: file.display().to_string(), line: 1, col: 1, message };
    let real = |p: &Path| p.canonicalize().map_err(|e| err(p, format!("cannot read: {e}")));
    let mods = mods_folder_of(dir);
    let real_mods = real(&mods)?;
    if let Some(project) = logical(&mods).parent() {
        let real_project = real(project)?;
        if !real_mods.starts_with(&real_project) {
            return Err(err(
                &mods,
                "refused: this mods folder is a link to outside its project folder (a mods folder must \
                 really lie in the project; nothing in it is read)"
                    .into(),
            ));
        }
    }
    if let Err(e) = dir.symlink_metadata() {
        return Err(err(dir, format!("cannot read: {e}")));
    }
    let real_dir = dir.canonicalize().map_err(|_| err(dir, "refused: a symlink that leads nowhere".into()))?;
    if !real_dir.starts_with(&real_mods) || real_dir == real_mods {
        return Err(err(
            dir,
            format!(
                "refused: this mod folder is a link to outside {} (a mod folder must really lie in it; nothing \
                 in it is read)",
                mods.display()
            ),
        ));
    }
    if !real_dir.is_dir() {
        return Err(err(dir, "not a folder: a data mod is a folder with a mod.ron".into()));
    }
    let manifest = dir.join("mod.ron");
    match manifest.symlink_metadata() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(err(
                &manifest,
                format!("{} has no mod.ron (every data mod folder starts with its manifest)", dir.display()),
            ));
        }
        Err(e) => return Err(err(&manifest, format!("cannot read: {e}"))),
        Ok(_) => {}
    }
    let real_manifest =
        manifest.canonicalize().map_err(|_| err(&manifest, "refused: a symlink that leads nowhere".into()))?;
    if !real_manifest.starts_with(&real_dir) {
        return Err(err(
            &manifest,
            "refused: a link to outside the mod's folder (every file of a mod must really lie in its folder; it \
             is not read)"
                .into(),
        ));
    }
    if !real_manifest.is_file() {
        return Err(err(&manifest, "refused: not a regular file".into()));
    }
    Ok(real_manifest)
}

/// Read a data file by its real path (checked), naming it as the mod shows it.
pub(super) fn read_as(real: &Path, shown: &str) -> Result<String, DataError> {
    read_data_file(real).map_err(|e| DataError { file: shown.to_string(), ..e })
}

/// The position of the first `needle` after the first `anchor` in `text` (else of `anchor`, else
/// 1:1): a `depends_on` entry rather than the same text in `name`.
pub(super) fn locate_after(text: &str, anchor: &str, needle: &str) -> (usize, usize) {
    let from = text.find(anchor).unwrap_or(0);
    let at = text[from..].find(needle).map(|i| from + i).or_else(|| text.find(anchor));
    at.map_or((1, 1), |i| crate::rules::data::position(text, i))
}

/// Read the manifest of the mod in `dir`, after confining the folder ([`confine_mod_folder`]):
/// its name (a name, the folder's, not a built-in Rust mod's) and its dependencies (names, not
/// itself).
pub fn read_manifest(dir: &Path) -> Result<ModManifest, DataError> {
    let real = confine_mod_folder(dir)?;
    let path = dir.join("mod.ron");
    let file = path.display().to_string();
    let text = read_as(&real, &file)?;
    let m: ModManifest = parse_ron(&file, &text)?;
    if let Err(why) = check_mod_name(&m.name) {
        return Err(DataError::at_text(&file, &text, "name", format!("name: {why}")));
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
    if crate::modding::ModRegistry::current().make(&m.name).is_some() {
        return Err(DataError::at_text(
            &file,
            &text,
            &format!("\"{}\"", m.name),
            format!(
                "name: `{0}` is also the name of a built-in Rust mod (src/modding/builtin): `--mod {0}` and `mods: \
                 [\"{0}\"]` would load the Rust mod `{0}`, never the data mod {1}; rename the data mod (its \
                 folder and this name)",
                m.name,
                dir.display()
            ),
        ));
    }
    let most = crate::rules::limits::MAX_LIST;
    if m.depends_on.len() > most {
        return Err(DataError::at_text(
            &file,
            &text,
            "depends_on",
            format!("depends_on: {} entries: at most {most}", m.depends_on.len()),
        ));
    }
    if m.overrides.len() > MAX_OVERRIDES {
        return Err(DataError::at_text(
            &file,
            &text,
            "overrides",
            format!("overrides: {} entries: at most {MAX_OVERRIDES}", m.overrides.len()),
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, d) in m.depends_on.iter().enumerate() {
        // Located only for an error: a long list costs its length.
        let at = |message: String| {
            let (line, col) = locate_after(&text, "depends_on", &format!("\"{d}\""));
            DataError { file: file.clone(), line, col, message }
        };
        if let Err(why) = check_mod_name(d) {
            return Err(at(format!("depends_on[{i}]: {why}")));
        }
        if *d == m.name {
            return Err(at(format!("depends_on[{i}]: mod `{d}` depends on itself")));
        }
        if !seen.insert(d) {
            return Err(at(format!("depends_on[{i}]: `{d}` is listed twice")));
        }
    }
    Ok(m)
}

/// The first file under `folder` (sorted, a few levels down), to name in an error.
fn first_file_under(folder: &Path, depth: usize) -> Option<PathBuf> {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(folder).ok()?.take(MAX_FILES_PER_FOLDER).filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    entries.iter().find(|p| p.symlink_metadata().is_ok_and(|m| !m.is_dir())).cloned().or_else(|| {
        if depth == 0 {
            return None;
        }
        entries
            .iter()
            .filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir()))
            .find_map(|p| first_file_under(p, depth - 1))
    })
}

/// Every file of the data mod in `dir` that loading reads, in the order it reads them: `mod.ron`,
/// then the `.ron` files of `abilities/`, `conditions/`, `rulesets/` and `encounters/`, each as
/// the mod shows it and by its real path, confined as loading confines them (the simulator
/// hashes exactly these).
pub fn mod_files(dir: &Path) -> Result<Vec<(PathBuf, PathBuf)>, DataError> {
    let mut out = vec![(dir.join("mod.ron"), confine_mod_folder(dir)?)];
    for sub in ["abilities", "conditions", "rulesets", "encounters"] {
        out.extend(files_in(dir, sub)?);
    }
    Ok(out)
}

/// The `.ron` files of `dir/<sub>/`, sorted, each with its real path, checked to lie really inside
/// the mod's folder. The folder is read flat: a subfolder in it is an error naming a file in it
/// (its files would not be read); other files than `.ron` are left alone. At most
/// [`MAX_FILES_PER_FOLDER`] entries.
pub(super) fn files_in(dir: &Path, sub: &str) -> Result<Vec<(PathBuf, PathBuf)>, DataError> {
    let folder = dir.join(sub);
    let err = |m: String| DataError { file: folder.display().to_string(), line: 1, col: 1, message: m };
    match folder.symlink_metadata() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(err(format!("cannot read: {e}"))),
        Ok(_) => {}
    }
    let real_dir = dir.canonicalize().map_err(|e| err(format!("cannot read: {e}")))?;
    let real_folder = folder.canonicalize().map_err(|e| err(format!("cannot read: {e}")))?;
    if !real_folder.starts_with(&real_dir) || !real_folder.is_dir() {
        return Err(err(format!("{sub}: must be a folder inside the mod's folder")));
    }
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(&folder).map_err(|e| err(format!("cannot read: {e}")))? {
        let p = entry.map_err(|e| err(format!("cannot read: {e}")))?.path();
        if entries.len() >= MAX_FILES_PER_FOLDER {
            return Err(err(format!("{sub}: more than {MAX_FILES_PER_FOLDER} entries (files and folders)")));
        }
        entries.push(p);
    }
    entries.sort();
    let mut out = Vec::new();
    for p in entries {
        if p.is_dir() {
            let linked = p.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink());
            let named = if linked { None } else { first_file_under(&p, 3) };
            return Err(DataError {
                file: named.unwrap_or_else(|| p.clone()).display().to_string(),
                line: 1,
                col: 1,
                message: format!(
                    "{sub}/ is read flat: the subfolder {} would not be read (move its files up into {sub}/, or \
                     out of the mod)",
                    p.display()
                ),
            });
        }
        if p.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        let real = inside_its_folder(&p).filter(|r| r.starts_with(&real_dir)).ok_or_else(|| DataError {
            file: p.display().to_string(),
            line: 1,
            col: 1,
            message: "leads outside the mod's folder (a symlink out is refused)".into(),
        })?;
        out.push((p, real));
    }
    Ok(out)
}
