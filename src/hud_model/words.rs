//! The engine's typed answers in the player's language: a [`Rejection`] (why a command or a
//! click is refused) and who a decision waits for.
//!
//! The engine's own `Display` for a rejection stays English: the command line, scenario files
//! and logs compare it byte for byte. The HUD reads this instead.

use super::log::{ability_name, condition_name};
use crate::i18n::Tr;
use crate::rules::command::{Decider, Rejection};
use crate::rules::driver::Combat;
use crate::tr;

/// Who decides, in words: the creature's name or "the GM".
pub(crate) fn decider_words(combat: &Combat, by: Decider, tr: &Tr) -> String {
    match by {
        Decider::Creature(c) => combat.name_in(c, tr.code()),
        Decider::Gm => tr.t("the-gm"),
    }
}

/// A rejection in the player's words (the banner, the ability bar's reasons, hover reasons).
pub fn rejection_words(combat: &Combat, r: &Rejection, tr: &Tr) -> String {
    let rs = combat.ruleset();
    let ab = |a: &str| ability_name(rs, tr, a);
    match r {
        Rejection::CombatOver => tr.t("reject-combat-over"),
        Rejection::UnknownCombatant(c) => tr!(tr, "reject-unknown-combatant", id = c.0),
        Rejection::NotYourTurn { actor, active: Some(a) } => {
            tr!(
                tr,
                "reject-not-your-turn",
                who = combat.name_in(*actor, tr.code()),
                active = combat.name_in(*a, tr.code())
            )
        }
        Rejection::NotYourTurn { actor, active: None } => {
            tr!(tr, "reject-no-turn", who = combat.name_in(*actor, tr.code()))
        }
        Rejection::AwaitingDecision { by } => tr!(tr, "reject-awaiting-decision", by = decider_words(combat, *by, tr)),
        Rejection::NoDecisionPending => tr.t("reject-no-decision"),
        Rejection::WrongDecider { expected } => {
            tr!(tr, "reject-wrong-decider", by = decider_words(combat, *expected, tr))
        }
        Rejection::InvalidChoice(why) => tr!(tr, "reject-invalid-choice", why = why),
        Rejection::UnknownAbility(a) => tr!(tr, "reject-unknown-ability", ability = a),
        Rejection::AbilityNotKnown(a) => tr!(tr, "reject-ability-not-known", ability = ab(a)),
        Rejection::NotEnoughActions { needed, available } => {
            tr!(tr, "reject-not-enough-actions", n = needed, left = available)
        }
        Rejection::BusyWithActivity(a) => tr!(tr, "reject-busy", ability = ab(a)),
        Rejection::UnableToAct => tr.t("reject-unable-to-act"),
        Rejection::LimitReached(a) => tr!(tr, "reject-limit-reached", ability = ab(a)),
        Rejection::InvalidTarget(why) => tr!(tr, "reject-invalid-target", why = target_words(combat, why, tr)),
        Rejection::OutOfRange { distance, max } => tr!(tr, "reject-out-of-range", n = distance, max = max),
        Rejection::Occupied(p) => tr!(tr, "reject-occupied", x = p.x, y = p.y),
        Rejection::MovementModeRequired(m) => tr!(
            tr,
            "reject-mode-required",
            modes = m.iter().map(|x| super::log::mode_name(tr, x)).collect::<Vec<_>>().join(", ")
        ),
        Rejection::UnknownMovementMode(m) => tr!(tr, "reject-unknown-mode", mode = m),
        Rejection::OpeningsDisabled => tr.t("reject-openings-disabled"),
        Rejection::HoldingDisabled => tr.t("reject-holding-disabled"),
        Rejection::NotHoldable(a) => tr!(tr, "reject-not-holdable", ability = ab(a)),
        Rejection::UnknownCondition(c) => tr!(tr, "reject-unknown-condition", condition = condition_name(rs, tr, c)),
        Rejection::ReactionOnly(a) => tr!(tr, "reject-reaction-only", ability = ab(a)),
        Rejection::DelayDisabled => tr.t("reject-delay-disabled"),
        Rejection::CannotDelayNow => tr.t("reject-cannot-delay-now"),
        Rejection::NotDelayed => tr.t("reject-not-delayed"),
        Rejection::NoActionOfType(why) => action_type_words(why, tr),
        Rejection::NotWhileHolding(a) => tr!(tr, "reject-not-while-holding", ability = ab(a)),
        Rejection::MissingComponent(c) => tr!(tr, "reject-missing-component", component = c),
        Rejection::NotHolding => tr.t("reject-not-holding"),
    }
}

/// The engine's reason for a refused target, in words: the engine's reasons are sentences with
/// a creature's name or a square in them, matched here by shape.
fn target_words(combat: &Combat, why: &str, tr: &Tr) -> String {
    // The engine's text names creatures by their names; the player reads them in the language.
    let cids = (0..combat.len() as u32).map(crate::rules::components::Cid);
    let names: Vec<(String, String)> = cids.map(|c| (combat.name(c), combat.name_in(c, tr.code()))).collect();
    let who_in = |prefix: &str, suffix: &str| -> Option<String> {
        let rest = why.strip_prefix(prefix)?.strip_suffix(suffix)?;
        names.iter().find(|(n, _)| n == rest).map(|(_, local)| local.clone())
    };
    if let Some(w) = who_in("no line of sight to ", "") {
        return tr!(tr, "target-no-sight", who = w);
    }
    if let Some(w) = who_in("", " is down") {
        return tr!(tr, "target-down", who = w);
    }
    if let Some(w) = who_in("", " is not an enemy") {
        return tr!(tr, "target-not-enemy", who = w);
    }
    if let Some(w) = who_in("", " is not an ally") {
        return tr!(tr, "target-not-ally", who = w);
    }
    if let Some(w) = who_in("", " is named twice") {
        return tr!(tr, "target-twice", who = w);
    }
    if let Some(w) = who_in("", " has no Assist waiting") {
        return tr!(tr, "target-no-assist", who = w);
    }
    if let Some(w) = who_in("", " cannot hold an action for its own move or action") {
        return tr!(tr, "target-hold-own", who = w);
    }
    if let Some((a, b)) = why
        .strip_suffix(": the held action would never fire")
        .and_then(|r| r.split_once(" is not a standing enemy of "))
        && let (Some((_, a)), Some((_, b))) = (names.iter().find(|(n, _)| n == a), names.iter().find(|(n, _)| n == b))
    {
        return tr!(tr, "target-hold-never", who = a.clone(), holder = b.clone());
    }
    if let Some((w, rest)) = why.split_once(" has no `")
        && let Some((_, local)) = names.iter().find(|(n, _)| n == w)
        && let Some((cond, _)) = rest.split_once("` that a save can end")
    {
        let c = condition_name(combat.ruleset(), tr, cond);
        return tr!(tr, "target-no-save-end", who = local.clone(), condition = c);
    }
    if let Some(w) = who_in("not engaged with ", "") {
        return tr!(tr, "target-not-engaged", who = w);
    }
    if let Some(w) = who_in("the charge must end next to ", "") {
        return tr!(tr, "target-charge-next-to", who = w);
    }
    if let Some((w, rest)) = why.split_once(" is already on (")
        && let Some((_, local)) = names.iter().find(|(n, _)| n == w)
        && rest.ends_with("): a move needs another square")
    {
        return tr!(tr, "target-already-there", who = local.clone());
    }
    if let Some(rest) = why.strip_prefix("no way to square (")
        && let Some((xy, tail)) = rest.split_once(") within ")
        && let Some(n) = tail.strip_suffix(" squares of movement: walls or enemies block it")
        && let (Some((x, y)), Ok(n)) = (xy.split_once(", "), n.parse::<u32>())
        && let (Ok(x), Ok(y)) = (x.parse::<i32>(), y.parse::<i32>())
    {
        return tr!(tr, "target-no-way", x = x, y = y, n = n);
    }
    if let Some(sq) = why.strip_prefix("square (") {
        let (xy, what) = sq.split_once(") is ").unwrap_or(("", ""));
        let mut it = xy.split(", ").map(|v| v.parse::<i32>());
        if let (Some(Ok(x)), Some(Ok(y)), None) = (it.next(), it.next(), it.next()) {
            match what {
                "off the map" => return tr!(tr, "target-off-map", x = x, y = y),
                "blocked" => return tr!(tr, "target-blocked", x = x, y = y),
                _ => {}
            }
        }
    }
    let key = match why {
        "an attack needs exactly one target" => "target-attack-one",
        "a charge needs exactly one target" => "target-charge-one",
        "a charge needs a destination"
        | "a Move needs a destination"
        | "a move needs a destination"
        | "a Step needs a destination" => "target-needs-square",
        "an Assist needs exactly one ally" => "target-assist-one",
        "a saving-throw ability needs targets" | "this ability needs targets" => "target-needs-targets",
        "no creature is eligible for this opening" => "target-no-eligible",
        _ => return why.to_string(),
    };
    tr.t(key)
}

/// The engine's reason for a missing typed action (pf1e), in words.
fn action_type_words(why: &str, tr: &Tr) -> String {
    match why {
        "Ready takes a standard action" => tr.t("reject-ready-standard"),
        "your next swift action is already used" => tr.t("reject-swift-used"),
        "no immediate action while flat-footed" => tr.t("reject-immediate-flat-footed"),
        "no other movement after a 5-foot step" => tr.t("reject-after-step"),
        "no standard action left this turn" => tr.t("reject-no-standard"),
        "no move action left this turn" => tr.t("reject-no-move"),
        "only one standard or one move action in the surprise round" => tr.t("reject-surprise-one"),
        "a full-round action needs the whole turn" => tr.t("reject-full-round"),
        "no swift action left this turn" => tr.t("reject-no-swift"),
        "a 5-foot step only when you make no other movement" => tr.t("reject-step-only"),
        other => other.to_string(),
    }
}
