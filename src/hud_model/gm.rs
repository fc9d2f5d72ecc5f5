//! The GM window's model (no egui): every GM call a person in the GM's seat can make, as the
//! `GmInput` it sends and the engine's dry-run verdict on it, and the policy's suggested opening
//! in words. The game's GM window draws this; tests read it.

use crate::rules::command::GmInput;
use crate::rules::components::Cid;
use crate::rules::driver::Combat;
use crate::rules::gm_policy::OpeningCall;
use crate::rules::ruleset::{HitKind, Openings};

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
    let name = |c: Cid| combat.name(c);
    let who = name(form.who);
    let mut inputs: Vec<(String, GmInput)> = Vec::new();
    if combat.ruleset().openings != Openings::None {
        let label = if form.eligible.is_empty() {
            "Open an opening (default: the last missed or the debilitated one's foes)".to_string()
        } else {
            format!("Open an opening for {}", form.eligible.iter().map(|c| name(*c)).collect::<Vec<_>>().join(", "))
        };
        inputs.push((label, GmInput::Opening { eligible: form.eligible.clone() }));
    }
    let mut condition = format!("Apply {} to {who}", form.condition);
    if form.value != 0 {
        condition.push_str(&format!(" (value {})", form.value));
    }
    if form.rounds > 0 {
        condition.push_str(&format!(" for {} round{}", form.rounds, if form.rounds == 1 { "" } else { "s" }));
    }
    inputs.push((
        condition,
        GmInput::ApplyCondition {
            who: form.who,
            condition: form.condition.clone(),
            rounds: (form.rounds > 0).then_some(form.rounds),
            value: (form.value != 0).then_some(form.value),
        },
    ));
    inputs.push((format!("Interrupt {who}"), GmInput::Interrupt { who: form.who }));
    inputs.push((format!("Permanent wound to {who}"), GmInput::PermanentWound { who: form.who }));
    let hit = match form.hit {
        HitKind::Ranged => "a ranged attack",
        HitKind::Surprise => "a surprise attack",
    };
    inputs.push((format!("{who} is hit by {hit}"), GmInput::HitBy { who: form.who, kind: form.hit }));
    let aware = if form.aware { "aware" } else { "unaware" };
    inputs.push((format!("{who} is {aware}"), GmInput::SetAware { who: form.who, aware: form.aware }));
    inputs.push((format!("Make {who}'s Assist an area assist"), GmInput::AreaAssist { who: form.who }));
    inputs
        .into_iter()
        .map(|(label, input)| {
            let verdict = combat.check_gm(&input).map_err(|r| combat.explain(&r));
            GmCall { label, input, verdict }
        })
        .collect()
}

/// The policy's suggestion in words: "The GM may open an opening for Orc: Knight missed Orc".
pub fn suggestion_words(combat: &Combat, call: &OpeningCall) -> String {
    let who: Vec<String> = call.eligible.iter().map(|c| combat.name(*c)).collect();
    format!("The GM may open an opening for {}: {}", who.join(", "), call.reasons(|c| combat.name(c)))
}
