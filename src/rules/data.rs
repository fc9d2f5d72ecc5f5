//! Reading, locating, confining and parsing data files: the one home for loading data (issue
//! 25). The rules' own [`Ruleset`], encounters, scenarios, mods, saves and the simulator's shards
//! all read through here.
//!
//! - Input files: `read_capped` reads a regular file of bounded size without blocking (issue
//!   29), and [`kind`] names what stands at a path for messages that refuse it.
//! - Text: `read_data_file`, `decode_text` and `normalize_text`; `parse_ron` parses with
//!   the options every data file uses; errors are [`DataError`]s at `file:line:col`
//!   ([`locate`], [`position`]).
//! - Where data may come from: `data_roots`, `resolve_inside`, `resolve_ruleset`,
//!   `resolve_encounter`, `inside_its_folder`, and the installed rulesets
//!   (`rulesets_dir`, [`installed_rulesets`]).

use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ruleset::Ruleset;

/// What stands at a path, in words ("a FIFO (named pipe)", "a folder", ...), for messages that
/// refuse it. Reads the metadata as given: pass `symlink_metadata` to see a link itself.
pub(crate) fn kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_file() {
        return "a regular file";
    }
    if t.is_dir() {
        return "a folder";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Read the bytes of a regular file of at most `cap` bytes. Anything else (a folder, a FIFO, a
/// device, a socket) is refused before it is opened, so a FIFO never blocks the read and a
/// device never makes it endless; the file is opened without blocking (Linux), checked again
/// once open (something may have been swapped in), and read no further than the cap even if it
/// grew. `Err` is the reason, without the path: "a FIFO (named pipe), not a regular file",
/// "larger than the N bytes ...", or the system's error.
pub(crate) fn read_capped(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>, String> {
    let refuse = |meta: &std::fs::Metadata| format!("{}, not a regular file", kind(meta));
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(refuse(&meta));
    }
    let too_big = || format!("larger than the {cap} bytes {what} may have");
    if meta.len() > cap {
        return Err(too_big());
    }
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a FIFO swapped in after the check does not block the open; no effect on a
        // regular file's reads.
        open.custom_flags(0o4000);
    }
    let f = open.open(path).map_err(|e| e.to_string())?;
    let meta = f.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(refuse(&meta));
    }
    let mut bytes = Vec::new();
    f.take(cap + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(too_big());
    }
    Ok(bytes)
}

/// A data error: `file:line:column: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// The file the error is in.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong, naming the field.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.col, self.message)
    }
}

impl std::error::Error for DataError {}

impl DataError {
    /// An error at the first place `needle` occurs in `text` (1:1 if it does not).
    pub(crate) fn at_text(file: &str, text: &str, needle: &str, message: impl Into<String>) -> Self {
        let (line, col) = locate(text, needle).unwrap_or((1, 1));
        Self { file: file.to_string(), line, col, message: message.into() }
    }

    /// Convert a RON parse error, keeping its position. A misspelt field or variant gets the
    /// nearest valid one as a "did you mean" (issue 28).
    pub(crate) fn from_ron(file: &str, e: &ron::error::SpannedError) -> Self {
        let mut message = e.code.to_string();
        if let ron::Error::NoSuchStructField { expected, found, .. }
        | ron::Error::NoSuchEnumVariant { expected, found, .. } = &e.code
            && let Some(near) = did_you_mean(found, expected.iter().copied())
        {
            message.push_str(&format!(" (did you mean `{near}`?)"));
        }
        Self { file: file.to_string(), line: e.span.start.line.max(1), col: e.span.start.col.max(1), message }
    }
}

/// The one of `candidates` nearest to `word` by edit distance, if it is near enough to be a
/// typo (at most 2 edits, and fewer than half the word's length); ties go to the first.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = 2.min(word.chars().count().saturating_sub(1) / 2).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(word, c);
        if d > 0 && d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The 1-based line and column of the first occurrence of `needle` in `text` ([`position`]).
pub fn locate(text: &str, needle: &str) -> Option<(usize, usize)> {
    text.find(needle).map(|at| position(text, at))
}

/// The 1-based line and column of byte `at` of `text`, as an editor shows them: a line ends at
/// `\n`, `\r\n` or a lone `\r`; a column counts characters; a leading byte-order mark is not
/// counted. (`at` is clamped to the text and to a character boundary.)
pub(crate) fn position(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let bytes = text.as_bytes();
    let mut line = 1;
    let mut start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8().min(at) } else { 0 };
    for (i, b) in bytes[..at].iter().enumerate() {
        let ends = match b {
            b'\n' => true,
            // A `\r` ends a line unless a `\n` follows (then the `\n` ends it).
            b'\r' => bytes.get(i + 1) != Some(&b'\n'),
            _ => false,
        };
        if ends {
            line += 1;
            start = i + 1;
        }
    }
    (line, text[start..at].chars().count() + 1)
}

/// Data text as the parser reads it: without a leading byte-order mark, and with every lone
/// `\r` (old Mac line ends) made a `\n`. Both keep every position an editor shows ([`position`]);
/// a `\r\n` is left as it is. Borrowed when there is nothing to change (LF or CRLF files).
pub(crate) fn normalize_text(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lone_cr =
        |t: &str| t.as_bytes().iter().enumerate().any(|(i, b)| *b == b'\r' && t.as_bytes().get(i + 1) != Some(&b'\n'));
    if !lone_cr(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '\r' && bytes.get(i + 1) != Some(&b'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Decode the bytes of a data file (or a save) as text, for `file`: UTF-8, a leading byte-order
/// mark skipped, lone `\r` line ends read as `\n` ([`normalize_text`]). Text that is not UTF-8 is
/// an error at the line and column of its first bad byte.
pub(crate) fn decode_text(file: &str, bytes: Vec<u8>) -> Result<String, DataError> {
    let err = |(line, col): (usize, usize), message: String| DataError { file: file.to_string(), line, col, message };
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        return Err(err(
            (1, 1),
            "not UTF-8: the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8".into(),
        ));
    }
    match String::from_utf8(bytes) {
        Ok(mut text) => match normalize_text(&text) {
            std::borrow::Cow::Owned(t) => Ok(t),
            // The text itself, or its end past a byte-order mark: the mark is dropped in place
            // (issue 26: choosing between the text and a copy by length was an equivalent mutant).
            std::borrow::Cow::Borrowed(t) => {
                let mark = text.len() - t.len();
                text.drain(..mark);
                Ok(text)
            }
        },
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            // The part before the bad byte is valid UTF-8: count lines and columns in it.
            let before = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
            Err(err(
                position(before, at),
                format!(
                    "not UTF-8: byte 0x{:02x} (byte {} of the file) is not UTF-8 text; save the file as UTF-8",
                    bytes[at],
                    at + 1
                ),
            ))
        }
    }
}

/// The most bytes a data file may have (4 MiB).
pub const MAX_DATA_BYTES: u64 = 4 << 20;

/// Read a data file; an unreadable file is a `file:1:1` error. Only regular files are read (a
/// FIFO or a device such as `/dev/zero` is refused before it is opened), and at most
/// [`MAX_DATA_BYTES`] of them. The text is decoded by [`decode_text`] (UTF-8; a byte-order mark
/// skipped; any line ends).
pub(crate) fn read_data_file(path: &Path) -> Result<String, DataError> {
    let err = |message: String| DataError { file: path.display().to_string(), line: 1, col: 1, message };
    let bytes = read_capped(path, MAX_DATA_BYTES, "a data file").map_err(|m| err(format!("cannot read: {m}")))?;
    decode_text(&path.display().to_string(), bytes)
}

/// Resolve `rel`, a path written in a data file, against `base`, keeping it inside one of
/// `roots` (folders). `rel` must be relative, without `..`; the result, with symlinks followed,
/// must lie under a root. The error says why without naming any path outside the roots.
pub(crate) fn resolve_inside(base: &Path, rel: &str, roots: &[PathBuf]) -> Result<PathBuf, String> {
    use std::path::Component;
    let r = Path::new(rel);
    if !r.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err(format!("`{rel}` must be a relative path inside the allowed folders, without `..`"));
    }
    let joined = base.join(r);
    let real = joined.canonicalize().map_err(|_| format!("`{rel}` not found"))?;
    let inside = roots.iter().filter_map(|root| root.canonicalize().ok()).any(|root| real.starts_with(root));
    // The resolved path itself is returned, so a symlink swapped in after this check changes nothing.
    if inside { Ok(real) } else { Err(format!("`{rel}` leads outside the allowed folders")) }
}

/// Parse RON text with the options every data file uses. An error names the field's path
/// (`combatants[2].stats.DEX: ...`), found with `serde_path_to_error`, after its position.
pub(crate) fn parse_ron<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T, DataError> {
    // Implicit `Some` keeps data readable: `to: (1, 0)` rather than `to: Some((1, 0))`.
    let opts = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let with_path = |e: ron::error::SpannedError, path: &str| {
        let mut err = DataError::from_ron(file, &e);
        err.message = format!("{path}: {}", err.message);
        err
    };
    // A byte-order mark and lone `\r` line ends read as an editor shows them (positions too).
    let text = normalize_text(text);
    let mut de = ron::Deserializer::from_str_with_options(&text, &opts).map_err(|e| with_path(e, "(top level)"))?;
    let mut track = serde_path_to_error::Track::new();
    let result = T::deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track));
    match result {
        Ok(v) => match de.end() {
            Ok(()) => Ok(v),
            Err(e) => Err(with_path(de.span_error(e), "(after the end)")),
        },
        Err(e) => {
            let path = track.path().to_string();
            let path = if path == "." { "(top level)" } else { path.as_str() };
            Err(with_path(de.span_error(e), path))
        }
    }
}

/// The folders a scenario's data may come from: its own folder (and below) and every project
/// `assets/` folder (above the scenario, in the working directory, in the crate).
pub(crate) fn data_roots(scenario_file: &Path) -> Vec<PathBuf> {
    let dir = scenario_file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut roots = vec![dir.to_path_buf()];
    roots.extend(dir.ancestors().map(|p| p.join("assets")).filter(|p| p.is_dir()));
    roots.push(PathBuf::from("assets"));
    roots.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"));
    roots
}

/// Where a ruleset name resolves to: `<name>.ron` relative to the scenario (inside its folder or
/// a project `assets/` folder, see [`data_roots`]), or a plain name under an `assets/rulesets/`
/// folder found above the scenario, in the working directory, or in the crate.
pub(crate) fn resolve_ruleset(scenario_file: &Path, name: &str) -> Result<PathBuf, String> {
    resolve_asset(scenario_file, name, "rulesets", "ruleset")
}

/// Where an encounter name resolves to, as [`resolve_ruleset`] does, under `assets/encounters/`.
pub(crate) fn resolve_encounter(scenario_file: &Path, name: &str) -> Result<PathBuf, String> {
    resolve_asset(scenario_file, name, "encounters", "encounter")
}

/// `<name>.ron` relative to the data file (confined to [`data_roots`]), or a plain name under an
/// `assets/<folder>/` folder above the file, in the working directory, or in the crate.
fn resolve_asset(scenario_file: &Path, name: &str, folder: &str, what: &str) -> Result<PathBuf, String> {
    let dir = scenario_file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if name.ends_with(".ron") {
        return resolve_inside(dir, name, &data_roots(scenario_file));
    }
    if name.is_empty() || !name.chars().all(crate::rules::limits::plain_name_char) {
        return Err(format!("`{name}` is neither a {what} name (letters, digits, - and _) nor a .ron path"));
    }
    let file = format!("{name}.ron");
    let mut candidates: Vec<PathBuf> = dir.ancestors().map(|p| p.join("assets").join(folder).join(&file)).collect();
    candidates.push(Path::new("assets").join(folder).join(&file));
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join(folder).join(&file));
    candidates
        .into_iter()
        .find(|c| c.is_file())
        .ok_or_else(|| format!("`{name}` is not an installed {what}"))
        .and_then(|c| inside_its_folder(&c).ok_or_else(|| format!("`{name}` leads outside the allowed folders")))
}

/// A file found in an `assets/<folder>/`, as it really is (symlinks followed), if it really lies
/// in that folder: a symlink out of it is refused.
pub(crate) fn inside_its_folder(file: &Path) -> Option<PathBuf> {
    let real = file.canonicalize().ok()?;
    let folder = file.parent()?.canonicalize().ok()?;
    real.starts_with(&folder).then_some(real)
}

/// The folder installed rulesets are read from, for a data file at `near`: the first
/// `assets/rulesets/` folder above it, else in the working directory, else in the crate.
pub(crate) fn rulesets_dir(near: &Path) -> Option<PathBuf> {
    let dir = near.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut candidates: Vec<PathBuf> = dir.ancestors().map(|p| p.join("assets").join("rulesets")).collect();
    candidates.push(Path::new("assets").join("rulesets"));
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("rulesets"));
    candidates.into_iter().find(|c| c.is_dir())
}

/// Every installed ruleset (see `rulesets_dir`), in file-name order. Each `.ron` file there
/// must be a regular file really in that folder: a symlink out of it (or one that leads nowhere)
/// is refused with an error saying so, before it is read, as a broken ruleset file is an error.
pub fn installed_rulesets(near: &Path) -> Result<Vec<Ruleset>, DataError> {
    let Some(dir) = rulesets_dir(near) else { return Ok(Vec::new()) };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect()
        })
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .map(|f| {
            // The real file is read: a link swapped in after the check changes nothing.
            let real = inside_its_folder(f).ok_or_else(|| DataError {
                file: f.display().to_string(),
                line: 1,
                col: 1,
                message: format!(
                    "refused: a symlink that leads out of {} (or nowhere); an installed ruleset must be a \
                     regular file in that folder, and this one is not read",
                    dir.display()
                ),
            })?;
            let text = read_data_file(&real).map_err(|e| DataError { file: f.display().to_string(), ..e })?;
            Ruleset::from_ron_str(&f.display().to_string(), &text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::read_capped;

    /// A file of exactly the cap is read whole, and one byte more is refused (issue 26: the rules
    /// sample's `cap + 1` → `cap - 1` read the last byte away and still answered `Ok`).
    #[test]
    fn a_file_of_exactly_the_cap_is_read_whole_and_one_byte_more_is_refused() {
        let dir = std::env::temp_dir().join(format!("skirmish-read-capped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let at_cap = dir.join("at-cap.ron");
        let past_cap = dir.join("past-cap.ron");
        std::fs::write(&at_cap, b"0123456789").unwrap();
        std::fs::write(&past_cap, b"0123456789A").unwrap();
        let read = read_capped(&at_cap, 10, "this file");
        let refused = read_capped(&past_cap, 10, "this file");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read.as_deref(), Ok(&b"0123456789"[..]));
        assert_eq!(refused, Err("larger than the 10 bytes this file may have".to_string()));
    }

    /// A file whose size on disk says less than it holds (one that grows while it is read, or a
    /// Linux `/proc` file, which reports 0 bytes) is still held to the cap as it is read, and
    /// refused rather than cut short (issue 26: `cap + 1` → `cap * 1` read exactly the cap and
    /// answered `Ok` with a truncated file).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_holds_more_than_its_size_says_is_refused_past_the_cap() {
        let status = std::path::Path::new("/proc/self/status");
        assert_eq!(std::fs::metadata(status).map(|m| (m.is_file(), m.len())).ok(), Some((true, 0)));
        let whole = read_capped(status, 1 << 20, "this file").expect("read under a large cap");
        assert!(whole.len() > 10, "{} bytes", whole.len());
        assert_eq!(
            read_capped(status, 10, "this file"),
            Err("larger than the 10 bytes this file may have".to_string())
        );
    }

    /// A byte inside a character counts as that character's start (issue 26: `at -= 1` → `/= 1`
    /// never moved back, and the loop never ended).
    #[test]
    fn a_position_inside_a_character_is_that_characters() {
        // Bytes: 'a' 0, 'ü' 1 and 2, '\n' 3, 'é' 4 and 5, 'b' 6.
        let text = "aü\néb";
        assert_eq!(super::position(text, 2), (1, 2));
        assert_eq!(super::position(text, 5), (2, 1));
        assert_eq!(super::position(text, 6), (2, 2));
        assert_eq!(super::position(text, 7), (2, 3));
        assert_eq!(super::position(text, 99), (2, 3));
    }
}
