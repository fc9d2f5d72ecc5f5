//! `skirmish replay FILE [--verify] [--log]`: re-run a save's or a replay's commands from the
//! start, check them against the file's hashes, print the combat log.

use std::path::Path;

use super::{Hash64, SaveFile, Snapshot, log_hash, read};
use crate::rules::journal::Entry;

/// The usage line of `skirmish replay`.
pub const REPLAY_USAGE: &str = "skirmish replay FILE [--verify] [--log]";

/// Options of `skirmish replay`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The save or replay file.
    pub file: String,
    /// Compare every checkpoint, every command's outcome and the final state with the file.
    pub verify: bool,
    /// Print each command and the events it caused.
    pub log: bool,
}

impl ReplayOptions {
    /// Parse the arguments after `replay`; `Err` is a usage message.
    pub fn parse(args: &[String]) -> Result<ReplayOptions, String> {
        let mut o = ReplayOptions::default();
        for a in args {
            match a.as_str() {
                "--verify" => o.verify = true,
                "--log" => o.log = true,
                f if f.starts_with("--") => return Err(format!("unknown option {f}")),
                f if o.file.is_empty() => o.file = f.to_string(),
                f => return Err(format!("one file at a time (got `{}` and `{f}`)", o.file)),
            }
        }
        if o.file.is_empty() {
            return Err("name a save or replay file".into());
        }
        Ok(o)
    }
}

/// Run `skirmish replay`: lines of output go to `say`, errors to the returned `Err` (already
/// worded, `file:line:col: ...` where it applies). `Ok(true)`: replayed (and, with `--verify`,
/// everything agreed); `Ok(false)`: the verification failed, and the lines said where.
pub fn replay(o: &ReplayOptions, say: &mut dyn FnMut(&str)) -> Result<bool, String> {
    let save: SaveFile = read(Path::new(&o.file)).map_err(|e| e.to_string())?;
    say(&format!(
        "{}: `{}` under `{}`, seed {}, {} journal entries, {} checkpoints",
        o.file,
        save.meta.encounter,
        save.meta.ruleset,
        save.seed,
        save.journal.len(),
        save.checkpoints.len()
    ));
    let mut shown = 0;
    let (combat, divergence) = save
        .replay(&o.file, o.verify, |n, c| {
            if !o.log {
                return;
            }
            let log = c.log();
            if n == 0 {
                say("set-up");
            }
            match n.checked_sub(1).and_then(|i| save.journal.get(i)) {
                Some(Entry::Command { by, ok, cmd }) => {
                    let outcome = if *ok { "" } else { " (rejected)" };
                    say(&format!("#{n} {by:?}{outcome}: {cmd:?}"));
                }
                Some(Entry::Force(v)) => say(&format!("#{n} force dice {v:?}")),
                None => {}
            }
            for e in &log.events[shown.min(log.events.len())..] {
                say(&format!("    | {}", log.describe(e)));
            }
            shown = log.events.len();
        })
        .map_err(|e| e.to_string())?;
    let now = Snapshot::of(&combat);
    say(&format!(
        "replayed {} entries: round {}, {:?}, state hash {}",
        save.journal.len(),
        now.clock.0,
        now.status,
        now.hash
    ));
    if !o.verify {
        return Ok(true);
    }
    if let Some(d) = divergence {
        say(&format!("verify: FAILED: {d}"));
        return Ok(false);
    }
    let logs = log_hash(&combat);
    if logs != save.state.log_hash {
        say(&format!(
            "verify: FAILED: the state agrees, but the log's events differ (log hash {logs}, the file says {}): \
             events were added, renamed or changed",
            save.state.log_hash
        ));
        return Ok(false);
    }
    say(&format!(
        "verify: ok: {} checkpoints, every command's outcome, the final state hash {} and the log agree",
        save.checkpoints.len(),
        Hash64(combat.state_hash())
    ));
    Ok(true)
}
