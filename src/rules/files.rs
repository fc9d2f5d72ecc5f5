//! Reading input files safely: the one place that says what kind of thing stands at a path and
//! that reads a regular file of bounded size without blocking (issue 29). Data files, saves and
//! the simulator's shards all read through [`read_capped`]; every writer names what it refuses
//! with [`kind`].

use std::io::Read as _;
use std::path::Path;

/// What stands at a path, in words ("a FIFO (named pipe)", "a folder", ...), for messages that
/// refuse it. Reads the metadata as given: pass `symlink_metadata` to see a link itself.
pub fn kind(meta: &std::fs::Metadata) -> &'static str {
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
pub fn read_capped(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>, String> {
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
