//! Undo and redo of a person's commands, headless (the game binds them to keys and menus).
//!
//! **Undo** rebuilds the combat from its set-up, replaying its journal without the last
//! command a person sent ([`Issuer::Player`](crate::rules::journal::Issuer::Player), applied)
//! and without everything after it (the AI's and the GM's answers, automatic policy answers):
//! the combat is back at that person's decision point, exactly, with durations, held actions,
//! casts, activities and pending decisions as they were.
//!
//! **Redo** applies the undone entries again, as recorded, and gives back the exact state from
//! before the undo. Any new command sent after an undo drops what could be redone.
//!
//! **Dice policy: undo never rerolls.** Replaying from the seed puts the dice stream back where it
//! was at the decision point, so the same command after an undo (or a redo) gets the same dice,
//! and a different command draws from the same stream. Undo cannot fish for a better roll.

use crate::rules::driver::Combat;
use crate::rules::journal::Entry;

use super::{SaveError, rebuild};

/// What undo and redo say went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoError {
    /// No command sent by a person is left to undo.
    NothingToUndo,
    /// Nothing was undone, or a new command was sent since.
    NothingToRedo,
    /// The combat could not be rebuilt (it was changed outside its journal).
    Rebuild(SaveError),
}

impl std::fmt::Display for UndoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UndoError::NothingToUndo => write!(f, "nothing to undo"),
            UndoError::NothingToRedo => write!(f, "nothing to redo"),
            UndoError::Rebuild(e) => write!(f, "cannot undo: {e}"),
        }
    }
}

impl std::error::Error for UndoError {}

/// What one undo or redo did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Journal entries taken back (undo) or applied again (redo): the person's command and what
    /// followed it.
    pub entries: usize,
    /// The person's command.
    pub command: crate::rules::command::Command,
}

/// A run of undone entries, and the journal length they were taken from.
#[derive(Debug, Clone)]
struct Undone {
    entries: Vec<Entry>,
    base_len: usize,
}

/// The undo history of one combat: keep one beside the [`Combat`] (the game: beside its
/// `Battle`), and call [`History::undo`] and [`History::redo`] on it. Start a new one for a new
/// or loaded combat.
#[derive(Debug, Clone, Default)]
pub struct History {
    redo: Vec<Undone>,
}

/// The journal index of the last command a person sent that was applied.
pub(crate) fn last_player_command(combat: &Combat) -> Option<usize> {
    combat.journal().iter().rposition(Entry::is_player_command)
}

impl History {
    /// An empty history.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether there is a person's command to undo.
    pub fn can_undo(&self, combat: &Combat) -> bool {
        last_player_command(combat).is_some()
    }

    /// Whether an undo can be redone (nothing new was sent since).
    pub fn can_redo(&self, combat: &Combat) -> bool {
        self.redo.last().is_some_and(|u| u.base_len == combat.journal().len())
    }

    /// Undo the last command a person sent and everything after it: `combat` is replaced by the
    /// combat rebuilt up to just before that command. On an error, `combat` is untouched.
    pub fn undo(&mut self, combat: &mut Combat) -> Result<Step, UndoError> {
        let at = last_player_command(combat).ok_or(UndoError::NothingToUndo)?;
        let rebuilt = rebuild(combat, at).map_err(UndoError::Rebuild)?;
        let entries = combat.journal()[at..].to_vec();
        let Some(Entry::Command { cmd: command, .. }) = entries.first().cloned() else {
            return Err(UndoError::NothingToUndo);
        };
        if !self.can_redo(combat) {
            // Something new was sent since the last undo: what was undone then is gone.
            self.redo.clear();
        }
        let n = entries.len();
        self.redo.push(Undone { entries, base_len: at });
        *combat = rebuilt;
        Ok(Step { entries: n, command })
    }

    /// Redo the last undo: apply its entries again, as recorded (the same dice). Refused when
    /// nothing was undone or a command was sent since.
    pub fn redo(&mut self, combat: &mut Combat) -> Result<Step, UndoError> {
        if !self.can_redo(combat) {
            self.redo.clear();
            return Err(UndoError::NothingToRedo);
        }
        let Some(u) = self.redo.pop() else { return Err(UndoError::NothingToRedo) };
        let Some(Entry::Command { cmd: command, .. }) = u.entries.first().cloned() else {
            return Err(UndoError::NothingToRedo);
        };
        for e in &u.entries {
            let _ = combat.apply_entry(e);
        }
        Ok(Step { entries: u.entries.len(), command })
    }
}
