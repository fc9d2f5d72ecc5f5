//! The journal: everything put into a combat after set-up, in order.
//!
//! [`Combat`](super::driver::Combat) appends an [`Entry`] for every command it is sent (with who
//! issued it and whether it was applied) and for every die it is told to force. The journal and
//! the set-up ([`Origin`]) are all a save, a replay or an undo needs: the engine is
//! deterministic, so replaying the journal on the same set-up gives the same state, hash and log
//! (see `src/save/` and `docs/saves.md`).

use serde::{Deserialize, Serialize};

use super::command::Command;
use super::components::Controller;
use super::setup::CombatantSpec;

/// Who sent a command. Undo goes back to the last command a [`Issuer::Player`] sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Issuer {
    /// A person at the game's controls.
    Player,
    /// The built-in AI.
    Ai,
    /// A scenario script, a test or a replay.
    Script,
    /// The game master (or the game answering for the GM).
    Gm,
    /// Sent for a person without asking (a prompt policy such as "always defend").
    Auto,
}

impl Issuer {
    /// The issuer a controller stands for: a person, the AI, or a script.
    pub(crate) fn of_controller(c: Controller) -> Self {
        match c {
            Controller::Player => Issuer::Player,
            Controller::Ai => Issuer::Ai,
            Controller::Script => Issuer::Script,
        }
    }
}

/// One thing put into a combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// A command, who sent it, and whether the engine applied it (`ok: false`: rejected; a
    /// rejected command changes nothing, but it is kept so a replay is the exact input).
    Command {
        /// Who sent it.
        by: Issuer,
        /// Applied (true) or rejected (false).
        ok: bool,
        /// The command.
        cmd: Command,
    },
    /// Dice forced for the next rolls ([`Combat::force_dice`](super::driver::Combat::force_dice)).
    Force(#[serde(deserialize_with = "super::limits::forced_dice")] Vec<i32>),
}

impl Entry {
    /// Whether this is an applied command sent by a person (an undo point).
    pub fn is_player_command(&self) -> bool {
        matches!(self, Entry::Command { by: Issuer::Player, ok: true, .. })
    }
}

/// What a combat was set up from, besides its ruleset, seed and map (which stay in its world):
/// the combatant sheets as given and the dice forced before initiative.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The sheets, in id order, as [`Combat::with_map`](super::driver::Combat::with_map) got them.
    pub specs: Vec<CombatantSpec>,
    /// Dice forced before initiative was rolled.
    pub dice: Vec<i32>,
}
