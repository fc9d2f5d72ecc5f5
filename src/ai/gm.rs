//! The AI GM: its answers to the GM's decisions, and the openings its policy calls for.
//!
//! Openings (HB-29) are the GM's to open "at any moment he sees fit". The AI GM opens one when
//! the ruleset's policy ([`crate::rules::gm_policy::GmPolicy`], which an encounter or `sim
//! --gm-policy` may replace) calls for it: it looks at the log events since it last looked,
//! whenever the engine waits for a command rather than a decision, and sends the opening as an
//! ordinary `GmInput::Opening` command. The creatures then answer it through the engine's own
//! decision flow, as any opening.

use crate::rules::command::{Command, GmInput};
use crate::rules::driver::Combat;
use crate::rules::gm_policy::OpeningCall;
use crate::rules::state::EngineStatus;

/// Where the AI GM has read the log up to. Drivers keep one per combat and pass it to
/// [`opening_command`]; an undo that shortens the log moves it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GmWatch {
    /// Log events before this index have been looked at.
    pub seen: usize,
}

impl GmWatch {
    /// A watch that has seen the log so far (nothing before now opens an opening).
    pub fn from_now(combat: &Combat) -> Self {
        GmWatch { seen: combat.log().events.len() }
    }
}

/// The opening the GM policy calls for now after the events `watch` has not looked at yet, if
/// any. It looks only while the engine waits for a command (not a decision); then it has seen
/// everything up to now, whether or not an opening is due. The game's GM window offers this to a
/// person in the GM's seat.
pub fn opening_due(combat: &mut Combat, watch: &mut GmWatch) -> Option<OpeningCall> {
    if combat.ruleset().gm_policy.is_never() {
        return None;
    }
    let now = combat.log().events.len();
    if now <= watch.seen {
        watch.seen = now;
        return None;
    }
    if !matches!(combat.status(), EngineStatus::AwaitingCommand(_) | EngineStatus::AwaitingReturn) {
        return None;
    }
    let call = combat.opening_due(watch.seen);
    watch.seen = now;
    call
}

/// The AI GM's opening now, as the command it sends ([`opening_due`]).
pub fn opening_command(combat: &mut Combat, watch: &mut GmWatch) -> Option<Command> {
    opening_due(combat, watch).map(|c| Command::Gm(GmInput::Opening { eligible: c.eligible }))
}
