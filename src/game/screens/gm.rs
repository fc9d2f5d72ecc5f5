//! The GM window, for a person in the game master's seat (the start screen's box, `play --gm
//! human`): the opening the GM policy suggests, with one click to open it or let it go, and every
//! GM call (open an opening, apply a condition, interrupt, permanent wound, a hit from outside,
//! awareness, an area assist). Each call is the engine's dry run first: a refused one is greyed
//! out with the engine's reason. A call is sent as the person's command, so it goes into the
//! journal, undo, saves and replays as any other. The model is [`crate::hud_model::gm`].

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::game::battle::{Battle, GmSeat, HumanCommand};
use crate::hud_model::gm::{GmForm, gm_calls, suggestion_words};
use crate::rules::command::{Command, GmInput};
use crate::rules::components::Cid;
use crate::rules::ruleset::HitKind;

pub(super) fn gm_window(
    mut contexts: EguiContexts,
    battle: Option<ResMut<Battle>>,
    gm: Res<GmSeat>,
    mut out: MessageWriter<HumanCommand>,
    mut form: Local<Option<GmForm>>,
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
    let names: Vec<String> = (0..n).map(|i| b.combat.name(Cid(i))).collect();
    let conditions: Vec<String> = b.combat.ruleset().conditions.iter().map(|c| c.id.clone()).collect();
    let suggestion = b.gm.suggestion_now(&b.combat).cloned();
    let calls = gm_calls(&mut b.combat, f);
    let mut dismiss = false;
    egui::Window::new("Game master")
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .default_width(330.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(call) = &suggestion {
                ui.label(egui::RichText::new(suggestion_words(&b.combat, call)).strong());
                ui.horizontal(|ui| {
                    if ui.button("Open it").clicked() {
                        out.write(HumanCommand(Command::Gm(GmInput::Opening { eligible: call.eligible.clone() })));
                    }
                    if ui.button("Let it go").clicked() {
                        dismiss = true;
                    }
                });
                ui.separator();
            }
            egui::Grid::new("gm-form").num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                ui.label("Creature");
                egui::ComboBox::from_id_salt("gm-who")
                    .selected_text(names.get(f.who.0 as usize).cloned().unwrap_or_default())
                    .show_ui(ui, |ui| {
                        for (i, nm) in names.iter().enumerate() {
                            ui.selectable_value(&mut f.who, Cid(i as u32), nm);
                        }
                    });
                ui.end_row();
                ui.label("Condition");
                ui.horizontal(|ui| {
                    egui::ComboBox::from_id_salt("gm-cond").selected_text(f.condition.clone()).show_ui(ui, |ui| {
                        for c in &conditions {
                            ui.selectable_value(&mut f.condition, c.clone(), c);
                        }
                    });
                    ui.add(egui::DragValue::new(&mut f.rounds).range(0..=100).prefix("rounds "))
                        .on_hover_text("0: until removed");
                    ui.add(egui::DragValue::new(&mut f.value).range(-100..=100).prefix("value "))
                        .on_hover_text("0: no value");
                });
                ui.end_row();
                ui.label("Hit by");
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut f.hit, HitKind::Ranged, "ranged");
                    ui.selectable_value(&mut f.hit, HitKind::Surprise, "surprise");
                    ui.checkbox(&mut f.aware, "aware");
                });
                ui.end_row();
                if calls.iter().any(|c| matches!(c.input, GmInput::Opening { .. })) {
                    ui.label("Opening for");
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
