//! Where a writer may write, and writing there without loss (issue 29).
//!
//! Every file the program writes (saves, replays, the simulator's outputs, merged shards, log
//! exports) goes through here. A writer writes only to a new path or to an existing *regular
//! file*: a device, a FIFO, a socket, a folder or a symbolic link at the path is refused, and so
//! is any path that is one of the writer's own inputs (the same file by canonical path or by
//! device and inode, so hard links and `a/../a` spellings count). The bytes go to a temporary file
//! beside the target, are synced, and are renamed over it: a crash or an error leaves the old file
//! or the new one, never a mix, and never a half-written file under the target's name.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Whether `a` and `b` name the same existing file: the same canonical path, or (on Unix) the
/// same device and inode.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(x), Ok(y)) = (std::fs::canonicalize(a), std::fs::canonicalize(b))
        && x == y
    {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// Check that `path` may be written: nothing is there yet, or a regular file that is none of
/// `inputs`. `Err` is a sentence that names the path and says why not.
pub fn check_target(path: &Path, inputs: &[&Path]) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: cannot write there: {e}", path.display())),
        Ok(meta) if !meta.file_type().is_file() => {
            let what = crate::rules::data::kind(&meta);
            let hint = if meta.file_type().is_symlink() {
                "; name the file itself, or a new path"
            } else {
                "; only a new path or an existing regular file is written"
            };
            Err(format!("{}: refusing to write: it is {what}{hint}", path.display()))
        }
        Ok(_) => match inputs.iter().find(|i| same_file(path, i)) {
            Some(i) => Err(format!(
                "{}: refusing to write: it is one of this command's inputs ({}); choose another path",
                path.display(),
                i.display()
            )),
            None => Ok(()),
        },
    }
}

/// Check that none of `outputs` is one of `inputs`, nor the same path as another output, and
/// that each may be written ([`check_target`]).
pub fn check_targets(outputs: &[&Path], inputs: &[&Path]) -> Result<(), String> {
    for (i, p) in outputs.iter().enumerate() {
        check_target(p, inputs)?;
        if let Some(q) = outputs[..i].iter().find(|q| **q == *p || same_file(p, q)) {
            return Err(format!(
                "{}: two outputs would be written to the same file ({} as well); the second would replace the first",
                p.display(),
                q.display()
            ));
        }
    }
    Ok(())
}

/// The folder a file is written in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Write `bytes` to a new hidden temporary file beside `path` (`.NAME.tmp-PID-N`, never listed
/// as a save) and sync it. Returns the temporary file's path; nothing is at `path` yet.
pub(crate) fn write_temp(path: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "output".into());
    let tmp = folder_of(path).join(format!(".{name}.tmp-{}-{n}", std::process::id()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| format!("{}: cannot create a temp file: {e}", path.display()))?;
    let written = f.write_all(bytes).and_then(|()| f.sync_all());
    drop(f);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{}: cannot write: {e}", path.display()));
    }
    Ok(tmp)
}

/// Rename a temporary file from [`write_temp`] over `path` and sync the folder. `path` is
/// checked again first (something may have appeared there since); on an error the temporary
/// file is removed and `path` is untouched.
pub(crate) fn commit(tmp: &Path, path: &Path, inputs: &[&Path]) -> Result<(), String> {
    let renamed = check_target(path, inputs)
        .and_then(|()| std::fs::rename(tmp, path).map_err(|e| format!("{}: cannot replace it: {e}", path.display())));
    if let Err(e) = renamed {
        let _ = std::fs::remove_file(tmp);
        return Err(e);
    }
    #[cfg(unix)]
    {
        let dir = folder_of(path);
        std::fs::File::open(&dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| format!("{}: cannot sync the folder {}: {e}", path.display(), dir.display()))?;
    }
    Ok(())
}

/// Write `bytes` to `path` atomically, refusing what [`check_target`] refuses.
pub fn write_atomic(path: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), String> {
    check_target(path, inputs)?;
    let tmp = write_temp(path, bytes)?;
    commit(&tmp, path, inputs)
}
