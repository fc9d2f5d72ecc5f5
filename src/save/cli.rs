//! `skirmish replay FILE [--verify] [--log]`: re-run a save's or a replay's commands from the
//! start, check them against everything the file records ([`SaveFile::replay`]; the ok line names
//! what was and was not checked), print the combat log.

use std::path::Path;

use super::{CHECKPOINT_EVERY, SaveFile, Snapshot, read};
use crate::rules::journal::Entry;

/// Options of `skirmish replay` (its `--help` is generated from these definitions).
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
#[command(args_override_self = true)]
pub struct ReplayOptions {
    /// The save or replay file.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Compare everything the file records about the fight with the replay: every checkpoint,
    /// every command's outcome, every field of the final state, the journal's hash and `meta`
    /// (the ok line names what was and was not checked).
    #[arg(long)]
    pub verify: bool,
    /// Print each command and the events it caused.
    #[arg(long)]
    pub log: bool,
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
    let (checked, unchecked) = coverage(&save, &now);
    say(&format!("verify: ok: {}; not verified: {}", checked.join(", "), unchecked.join("; ")));
    Ok(true)
}

/// What a passed `--verify` of `save` checked, and what it did not (`now`: the replayed state).
/// Kept beside the checks in [`SaveFile::replay`]: a check added there is named here.
fn coverage(save: &SaveFile, now: &Snapshot) -> (Vec<String>, Vec<String>) {
    let entries = save.journal.len();
    let room = entries / CHECKPOINT_EVERY;
    let n = save.checkpoints.len();
    let mut checked = vec![if n == room {
        format!("{n} checkpoints (the state hash after every {CHECKPOINT_EVERY} entries)")
    } else {
        format!("{n} of the {room} checkpoints a capture stores (none after entry {})", n * CHECKPOINT_EVERY)
    }];
    checked.push("every command's outcome".into());
    let mut unchecked = Vec::new();
    // A log hash of another event format is compared by the replay only if equal by chance.
    let log = if save.log_comparable() || now.log_hash == save.state.log_hash {
        "log hash, "
    } else {
        let written = match save.state.log_format {
            0 => "before event formats were numbered".to_string(),
            f => format!("in event format {f}"),
        };
        unchecked.push(format!(
            "the log hash: this file's events were written {written}, this build writes format {}, so its log is \
             not comparable (the state above is)",
            crate::rules::log::LOG_FORMAT
        ));
        ""
    };
    checked.push(format!(
        "the final state (hash {}, {log}log length, clock, status, pending decision, each combatant's name, hp, \
         square and conditions)",
        now.hash
    ));
    if save.state.journal_hash.is_some() {
        checked.push("the journal hash (each command's issuer, and the commands that change nothing)".into());
    } else {
        unchecked.push(
            "who issued each command (`by`) and what a rejected command was (this file has no state.journal_hash)"
                .into(),
        );
    }
    checked.push("meta.encounter, meta.ruleset and meta.round".into());
    unchecked.push("meta.saved_at and meta.label (free text)".into());
    unchecked.push("the inputs (ruleset, set-up, seed, dice, mods) beyond what they change in play".into());
    (checked, unchecked)
}
