//! The AI GM: the openings its policy calls for.
//!
//! Openings (HB-29) are the GM's to open "at any moment he sees fit". The AI GM opens one when
//! the ruleset's policy ([`crate::rules::gm_policy::GmPolicy`], which an encounter or `sim
//! --gm-policy` may replace) calls for it: it looks at the log events since it last looked,
//! whenever the engine waits for a command rather than a decision, and sends the opening as an
//! ordinary `GmInput::Opening` command. The creatures then answer it through the engine's own
//! decision flow, as any opening. Where it has read up to is kept with the combat
//! ([`Combat::gm_read`]), so the simulator, the game and a scenario's AI steps all see the same.

use crate::rules::command::{Command, GmInput};
use crate::rules::driver::Combat;
use crate::rules::gm_policy::OpeningCall;
use crate::rules::state::EngineStatus;

/// Start watching from now: events before now open nothing.
pub fn watch_from_now(combat: &mut Combat) {
    let now = combat.log().events.len();
    combat.set_gm_read(Some(now));
}

/// The opening the GM policy calls for now after the events the GM has not looked at yet, if
/// any. It looks only while the engine waits for a command (not a decision); then it has seen
/// everything up to now, whether or not an opening is due. The first look after set-up, or after
/// journal entries were applied, starts from now. The game's GM window offers this to a person
/// in the GM's seat.
pub(crate) fn opening_due(combat: &mut Combat) -> Option<OpeningCall> {
    if combat.ruleset().gm_policy.is_never() {
        return None;
    }
    let now = combat.log().events.len();
    let seen = match combat.gm_read() {
        Some(seen) if seen < now => seen,
        _ => {
            combat.set_gm_read(Some(now));
            return None;
        }
    };
    if !matches!(combat.status(), EngineStatus::AwaitingCommand(_) | EngineStatus::AwaitingReturn) {
        return None;
    }
    let call = combat.opening_due(seen);
    combat.set_gm_read(Some(now));
    call
}

/// The AI GM's opening now, as the command it sends ([`opening_due`]).
pub fn opening_command(combat: &mut Combat) -> Option<Command> {
    opening_due(combat).map(|c| Command::Gm(GmInput::Opening { eligible: c.eligible }))
}
