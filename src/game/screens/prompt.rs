//! The decision prompt: a person answers a pending decision (a defence, an attack of
//! opportunity, an opening, a GM call) with a click or a number key, and sets the policy for the
//! next ones ("ask", "always", "never"). The words come from [`crate::hud_model::prompt`].

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::game::battle::{Battle, GmSeat, HumanCommand, Policies, Policy};
use crate::game::setup::SideControl;
use crate::hud_model::prompt::{choices_in, decision_summary_in, describe_choice_in, kind_words_in};
use crate::i18n::Tr;
use crate::rules::command::{Choice, Command, Decider};
use crate::rules::state::{EngineStatus, Pending, PendingDecision};
use crate::tr;

/// Who answers the decision pending now, if a person at this screen does: a person's creature, or
/// the GM when a person has taken the GM's seat.
fn person_deciding(battle: &Battle, gm: &GmSeat) -> Option<Decider> {
    let p = battle.combat.world.resource::<Pending>().0.as_ref()?;
    match (battle.combat.status(), p.by) {
        (EngineStatus::AwaitingDecision(Decider::Creature(c)), by) if battle.control(c) == SideControl::Human => {
            Some(by)
        }
        (EngineStatus::AwaitingDecision(Decider::Gm), Decider::Gm) if gm.0 => Some(Decider::Gm),
        _ => None,
    }
}

pub(super) fn prompt(
    mut contexts: EguiContexts,
    battle: Option<ResMut<Battle>>,
    gm: Res<GmSeat>,
    mut policies: ResMut<Policies>,
    mut out: MessageWriter<HumanCommand>,
    mut asked: Local<Option<((usize, usize, PendingDecision), Vec<(String, Choice)>)>>,
    tr: Res<Tr>,
) -> Result {
    let Some(mut battle) = battle else { return Ok(()) };
    let Some(by) = person_deciding(&battle, &gm) else { return Ok(()) };
    let Some(p) = battle.combat.world.resource::<Pending>().0.clone() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    // The choices, by the engine's own dry runs, and the AI's own answer for choices the list
    // cannot spell out (which ability, on whom): worked out once per decision, not every frame.
    // A dry run changes nothing, so the battle is not marked changed.
    // The same decision at the same point of the fight (an undo can bring the log back to the
    // same length with another decision pending). Another language words them again.
    let asked_at = (battle.combat.log().events.len(), battle.combat.journal().len(), p.clone());
    if tr.is_changed() || asked.as_ref().is_none_or(|(at, _)| *at != asked_at) {
        let combat = &mut battle.bypass_change_detection().combat;
        let mut options = choices_in(combat, &p.kind, by, &tr);
        let pick = match crate::ai::next_command(combat, crate::ai::AiScope { gm: true, all_creatures: true }) {
            Some(Command::Decide { choice, .. }) => Some(choice),
            _ => None,
        };
        if let Some(choice) = pick
            && !options.iter().any(|(_, c)| *c == choice)
        {
            let words = describe_choice_in(combat, &choice, &tr);
            options.insert(0, (tr!(tr, "prompt-ai-pick", choice = words), choice));
        }
        *asked = Some((asked_at, options));
    }
    let options = asked.as_ref().map(|(_, o)| o.clone()).unwrap_or_default();
    let kind = p.kind.name();
    // Keyboard: 1..9 pick a choice.
    let keys = [
        egui::Key::Num1,
        egui::Key::Num2,
        egui::Key::Num3,
        egui::Key::Num4,
        egui::Key::Num5,
        egui::Key::Num6,
        egui::Key::Num7,
        egui::Key::Num8,
        egui::Key::Num9,
    ];
    let pressed = ctx.input(|i| keys.iter().position(|k| i.key_pressed(*k)));
    let kind_name = kind_words_in(kind, &tr).to_string();
    // The window's id is the decider and the kind (not the title: the title is in the language).
    let (title, id) = match by {
        Decider::Creature(c) => {
            let who = battle.combat.name_in(c, tr.code());
            (tr!(tr, "prompt-title", who = &who, kind = &kind_name), egui::Id::new(("decision-prompt", who, kind)))
        }
        Decider::Gm => (tr!(tr, "prompt-title-gm", kind = &kind_name), egui::Id::new(("decision-prompt-gm", kind))),
    };
    egui::Window::new(title)
        .id(id)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -110.0))
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(decision_summary_in(&battle.combat, &p.kind, &tr)).small());
            for (i, (label, choice)) in options.iter().enumerate() {
                let key = if i < 9 { format!("{}. ", i + 1) } else { String::new() };
                if ui.button(format!("{key}{label}")).clicked() || pressed == Some(i) {
                    out.write(HumanCommand(Command::Decide { by: p.by, choice: choice.clone() }));
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(tr!(tr, "prompt-policy", kind = &kind_name));
                let entry = policies.0.entry(kind).or_insert(Policy::Ask);
                ui.selectable_value(entry, Policy::Ask, tr.t("prompt-ask"));
                ui.selectable_value(entry, Policy::Always, tr.t("prompt-always"))
                    .on_hover_text(tr.t("prompt-always-hover"));
                ui.selectable_value(entry, Policy::Never, tr.t("prompt-never"))
                    .on_hover_text(tr.t("prompt-never-hover"));
            });
        });
    Ok(())
}
