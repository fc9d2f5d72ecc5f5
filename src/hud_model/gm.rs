//! The GM window's model (no egui): every GM call a person in the GM's seat can make, as the
//! `GmInput` it sends and the engine's dry-run verdict on it, and the policy's suggested opening
//! in words. The game's GM window draws this; tests read it.

use crate::i18n::Tr;
use crate::rules::command::GmInput;
use crate::rules::components::Cid;
use crate::rules::driver::Combat;
use crate::rules::gm_policy::OpeningCall;
use crate::rules::ruleset::{HitKind, Openings};
use crate::tr;

/// What the GM window's fields hold: the creature the calls are about, the condition with its
/// rounds and value, the kind of outside hit, awareness, and the creatures ticked for an opening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GmForm {
    /// The creature most calls are about.
    pub who: Cid,
    /// The condition to apply (an id from the ruleset's catalogue).
    pub condition: String,
    /// Its rounds (0: until removed).
    pub rounds: u32,
    /// Its value (0: none).
    pub value: i32,
    /// The kind of hit from outside the engine (HB-51).
    pub hit: HitKind,
    /// Aware or not (P1-25).
    pub aware: bool,
    /// The creatures ticked for an opening (none ticked: G-HB-10's default).
    pub eligible: Vec<Cid>,
}

impl GmForm {
    /// A form about the first creature, with the ruleset's first debilitating condition (else
    /// its first one other than the defeated condition).
    pub fn new(combat: &Combat) -> Self {
        let rs = combat.ruleset();
        let condition = rs
            .conditions
            .iter()
            .find(|c| c.debilitating)
            .or_else(|| rs.conditions.iter().find(|c| c.id != rs.defeated_condition))
            .map(|c| c.id.clone())
            .unwrap_or_default();
        GmForm { who: Cid(0), condition, rounds: 1, value: 0, hit: HitKind::Ranged, aware: true, eligible: Vec::new() }
    }
}

/// One GM call: its button's words, what it sends, and whether the engine would take it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GmCall {
    /// The button's words ("Open an opening for Knight").
    pub label: String,
    /// What pressing it sends.
    pub input: GmInput,
    /// The engine's dry run: `Err` with its reason in words when it would be refused.
    pub verdict: Result<(), String>,
}

/// Every GM call the form spells out, in the window's order, each checked by the engine's dry
/// run ([`Combat::check_gm`]). The opening calls only under a ruleset with openings.
pub fn gm_calls(combat: &mut Combat, form: &GmForm) -> Vec<GmCall> {
    gm_calls_in(combat, form, &Tr::default())
}

/// [`gm_calls`] in a language.
pub(crate) fn gm_calls_in(combat: &mut Combat, form: &GmForm, tr: &Tr) -> Vec<GmCall> {
    let name = |c: Cid| combat.name_in(c, tr.code());
    let who = name(form.who);
    let mut inputs: Vec<(String, GmInput)> = Vec::new();
    if combat.ruleset().openings != Openings::None {
        let label = if form.eligible.is_empty() {
            tr.t("gm-call-opening-default")
        } else {
            tr!(tr, "gm-call-opening-for", who = form.eligible.iter().map(|c| name(*c)).collect::<Vec<_>>().join(", "))
        };
        inputs.push((label, GmInput::Opening { eligible: form.eligible.clone() }));
    }
    let cond = super::log::condition_name(combat.ruleset(), tr, &form.condition);
    let condition = match (form.value != 0, form.rounds > 0) {
        (false, false) => tr!(tr, "gm-call-apply", condition = cond, who = who.clone()),
        (true, false) => tr!(tr, "gm-call-apply-value", condition = cond, who = who.clone(), value = form.value),
        (false, true) => tr!(tr, "gm-call-apply-rounds", condition = cond, who = who.clone(), n = form.rounds),
        (true, true) => tr!(
            tr,
            "gm-call-apply-value-rounds",
            condition = cond,
            who = who.clone(),
            value = form.value,
            n = form.rounds
        ),
    };
    inputs.push((
        condition,
        GmInput::ApplyCondition {
            who: form.who,
            condition: form.condition.clone(),
            rounds: (form.rounds > 0).then_some(form.rounds),
            value: (form.value != 0).then_some(form.value),
        },
    ));
    inputs.push((tr!(tr, "gm-call-interrupt", who = who.clone()), GmInput::Interrupt { who: form.who }));
    inputs.push((tr!(tr, "gm-call-wound", who = who.clone()), GmInput::PermanentWound { who: form.who }));
    let hit = match form.hit {
        HitKind::Ranged => tr!(tr, "gm-call-hit-ranged", who = who.clone()),
        HitKind::Surprise => tr!(tr, "gm-call-hit-surprise", who = who.clone()),
    };
    inputs.push((hit, GmInput::HitBy { who: form.who, kind: form.hit }));
    let aware = tr!(tr, if form.aware { "gm-call-aware" } else { "gm-call-unaware" }, who = who.clone());
    inputs.push((aware, GmInput::SetAware { who: form.who, aware: form.aware }));
    inputs.push((tr!(tr, "gm-call-area-assist", who = who.clone()), GmInput::AreaAssist { who: form.who }));
    inputs
        .into_iter()
        .map(|(label, input)| {
            let verdict = combat.check_gm(&input).map_err(|r| super::rejection_words(combat, &r, tr));
            GmCall { label, input, verdict }
        })
        .collect()
}

/// The policy's suggestion in words: "The GM may open an opening for Orc: Knight missed Orc".
pub fn suggestion_words(combat: &Combat, call: &OpeningCall) -> String {
    suggestion_words_in(combat, call, &Tr::default())
}

/// [`suggestion_words`] in a language.
pub(crate) fn suggestion_words_in(combat: &Combat, call: &OpeningCall, tr: &Tr) -> String {
    use crate::rules::gm_policy::OpeningTrigger;
    let who: Vec<String> = call.eligible.iter().map(|c| combat.name_in(*c, tr.code())).collect();
    let reasons: Vec<String> = call
        .because
        .iter()
        .map(|t| match (t.when, t.by, &t.condition) {
            (OpeningTrigger::Missed, Some(by), _) => {
                tr!(
                    tr,
                    "gm-because-missed-by",
                    by = combat.name_in(by, tr.code()),
                    who = combat.name_in(t.subject, tr.code())
                )
            }
            (OpeningTrigger::Missed, None, _) => {
                tr!(tr, "gm-because-missed", who = combat.name_in(t.subject, tr.code()))
            }
            (OpeningTrigger::Debilitating, _, Some(c)) => tr!(
                tr,
                "gm-because-condition",
                who = combat.name_in(t.subject, tr.code()),
                condition = super::log::condition_name(combat.ruleset(), tr, c)
            ),
            (OpeningTrigger::Debilitating, _, None) => {
                tr!(tr, "gm-because-debilitated", who = combat.name_in(t.subject, tr.code()))
            }
        })
        .collect();
    tr!(tr, "gm-suggestion", who = who.join(", "), reasons = reasons.join("; "))
}
