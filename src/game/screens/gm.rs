//! The GM window, for a person in the game master's seat (the start screen's box, `play --gm
//! human`): the opening the GM policy suggests, with one click to open it or let it go, and every
//! GM call (open an opening, apply a condition, interrupt, permanent wound, a hit from outside,
//! awareness, an area assist). Each call is the engine's dry run first: a refused one is greyed
//! out with the engine's reason. A call is sent as the person's command, so it goes into the
//! journal, undo, saves and replays as any other. The model is [`crate::hud_model::gm`].

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::game::battle::{Battle, GmSeat, HumanCommand};
use crate::hud_model::gm::{GmForm, gm_calls_in, suggestion_words_in};
use crate::hud_model::log::condition_name;
use crate::i18n::Tr;
use crate::rules::command::{Command, GmInput};
use crate::rules::components::Cid;
use crate::rules::ruleset::HitKind;

pub(super) fn gm_window(
    mut contexts: EguiContexts,
    battle: Option<ResMut<Battle>>,
    gm: Res<GmSeat>,
    mut out: MessageWriter<HumanCommand>,
    mut form: Local<Option<GmForm>>,
    tr: Res<Tr>,
) -> Result {
    if !gm.0 {
        return Ok(());
    }
    let Some(mut battle) = battle else { return Ok(()) };
    if battle.error.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Dry runs change nothing: the battle is not marked changed.
    let b = battle.bypass_change_detection();
    let n = b.combat.len() as u32;
    let f = form.get_or_insert_with(|| GmForm::new(&b.combat));
    // Another battle (fewer creatures, another ruleset): what the form names must exist here.
    if f.who.0 >= n || b.combat.ruleset().condition(&f.condition).is_none() {
        *f = GmForm::new(&b.combat);
    }
    f.eligible.retain(|c| c.0 < n);
    let names: Vec<String> = (0..n).map(|i| b.combat.name_in(Cid(i), tr.code())).collect();
    // Each condition: its id (what the form keeps) and its name in the language.
    let conditions: Vec<(String, String)> = b
        .combat
        .ruleset()
        .conditions
        .iter()
        .map(|c| (c.id.clone(), condition_name(b.combat.ruleset(), &tr, &c.id)))
        .collect();
    let chosen_condition = condition_name(b.combat.ruleset(), &tr, &f.condition);
    let suggestion = b.gm.suggestion_now(&b.combat).cloned();
    let calls = gm_calls_in(&mut b.combat, f, &tr);
    let mut dismiss = false;
    egui::Window::new(tr.t("gm-title"))
        .id(egui::Id::new("gm-window"))
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .default_width(330.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(call) = &suggestion {
                ui.label(egui::RichText::new(suggestion_words_in(&b.combat, call, &tr)).strong());
                ui.horizontal(|ui| {
                    if ui.button(tr.t("gm-open-it")).clicked() {
                        out.write(HumanCommand(Command::Gm(GmInput::Opening { eligible: call.eligible.clone() })));
                    }
                    if ui.button(tr.t("gm-let-it-go")).clicked() {
                        dismiss = true;
                    }
                });
                ui.separator();
            }
            egui::Grid::new("gm-form").num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                ui.label(tr.t("gm-creature"));
                egui::ComboBox::from_id_salt("gm-who")
                    .selected_text(names.get(f.who.0 as usize).cloned().unwrap_or_default())
                    .show_ui(ui, |ui| {
                        for (i, nm) in names.iter().enumerate() {
                            ui.selectable_value(&mut f.who, Cid(i as u32), nm);
                        }
                    });
                ui.end_row();
                ui.label(tr.t("gm-condition"));
                ui.horizontal(|ui| {
                    egui::ComboBox::from_id_salt("gm-cond").selected_text(chosen_condition).show_ui(ui, |ui| {
                        for (id, name) in &conditions {
                            ui.selectable_value(&mut f.condition, id.clone(), name);
                        }
                    });
                    ui.add(egui::DragValue::new(&mut f.rounds).range(0..=100).prefix(tr.t("gm-rounds")))
                        .on_hover_text(tr.t("gm-rounds-hover"));
                    ui.add(egui::DragValue::new(&mut f.value).range(-100..=100).prefix(tr.t("gm-value")))
                        .on_hover_text(tr.t("gm-value-hover"));
                });
                ui.end_row();
                ui.label(tr.t("gm-hit-by"));
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut f.hit, HitKind::Ranged, tr.t("gm-hit-ranged"));
                    ui.selectable_value(&mut f.hit, HitKind::Surprise, tr.t("gm-hit-surprise"));
                    ui.checkbox(&mut f.aware, tr.t("gm-aware"));
                });
                ui.end_row();
                if calls.iter().any(|c| matches!(c.input, GmInput::Opening { .. })) {
                    ui.label(tr.t("gm-opening-for"));
                    ui.horizontal_wrapped(|ui| {
                        for (i, nm) in names.iter().enumerate() {
                            let c = Cid(i as u32);
                            let mut on = f.eligible.contains(&c);
                            if ui.checkbox(&mut on, nm).changed() {
                                if on {
                                    f.eligible.push(c);
                                } else {
                                    f.eligible.retain(|x| *x != c);
                                }
                            }
                        }
                    });
                    ui.end_row();
                }
            });
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                for call in &calls {
                    let button = ui.add_enabled(call.verdict.is_ok(), egui::Button::new(&call.label).small());
                    match &call.verdict {
                        Ok(()) => {
                            if button.clicked() {
                                out.write(HumanCommand(Command::Gm(call.input.clone())));
                            }
                        }
                        Err(why) => {
                            button.on_disabled_hover_text(why);
                        }
                    }
                }
            });
            // What the engine would refuse now, in its words.
            for call in calls.iter().filter(|c| c.verdict.is_err()) {
                if let Err(why) = &call.verdict {
                    ui.label(egui::RichText::new(format!("{}: {why}", call.label)).small().weak());
                }
            }
        });
    if dismiss {
        let b = &mut *battle;
        b.gm.dismiss(&b.combat);
    }
    Ok(())
}
