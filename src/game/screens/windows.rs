//! The session's windows: saves (save, load, quick save) and Simulate (a background batch of
//! AI-vs-AI runs of this battle).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::SessionUi;
use crate::game::battle::Battle;
use crate::i18n::Tr;
use crate::tr;

/// The saves window (F6) and the Simulate window (F7).
pub(super) fn session_windows(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    mut su: SessionUi,
    tr: Res<Tr>,
) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    if su.session.saves_open {
        let mut open = true;
        egui::Window::new(tr.t("saves-title"))
            .id(egui::Id::new("saves-window"))
            .open(&mut open)
            .default_pos(egui::pos2(330.0, 120.0))
            .default_width(560.0)
            .show(ctx, |ui| saves_window(ui, &battle, &mut su, &tr));
        su.session.saves_open = open;
    }
    if su.sim.open {
        let mut open = true;
        egui::Window::new(tr.t("simulate-title"))
            .id(egui::Id::new("simulate-window"))
            .open(&mut open)
            .default_pos(egui::pos2(330.0, 140.0))
            .default_width(520.0)
            .show(ctx, |ui| sim_window(ui, &battle, &mut su, &tr));
        su.sim.open = open;
        if su.sim.job.is_some() {
            // Keep the progress moving while nothing else happens.
            ctx.request_repaint();
        }
    }
    Ok(())
}

fn saves_window(ui: &mut egui::Ui, battle: &Battle, su: &mut SessionUi, tr: &Tr) {
    use crate::game::session::{SessionRequest, date_words, file_name_for};
    let dir = su.session.dir.display().to_string();
    ui.label(egui::RichText::new(tr!(tr, "saves-where", dir = &dir)).small());
    ui.horizontal(|ui| {
        if su.session.save_name.is_empty() {
            su.session.save_name = format!("{}-round-{}", battle.setup.encounter.name, battle.combat.turn().round);
        }
        ui.label(tr.t("saves-name"));
        ui.add(egui::TextEdit::singleline(&mut su.session.save_name).desired_width(260.0));
        let file = file_name_for(&su.session.save_name);
        let exists = su.session.dir.join(&file).exists();
        let label = if exists { tr.t("saves-save-replacing") } else { tr.t("saves-save") };
        if ui.button(label).on_hover_text(tr!(tr, "saves-writes", path = format!("{dir}/{file}"))).clicked() {
            su.requests.write(SessionRequest::SaveAs(su.session.save_name.clone()));
        }
        if ui.button(tr.t("saves-refresh")).clicked() {
            su.session.refresh_list();
        }
    });
    ui.separator();
    if su.session.listed.is_empty() {
        ui.label(tr.t("saves-none"));
        return;
    }
    let mut load = None;
    egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
        egui::Grid::new("saves").num_columns(6).striped(true).spacing([10.0, 4.0]).show(ui, |ui| {
            for h in ["saves-file", "saves-encounter", "saves-ruleset", "saves-round", "saves-saved"] {
                ui.label(egui::RichText::new(tr.t(h)).strong());
            }
            ui.label("");
            ui.end_row();
            for l in &su.session.listed {
                let name = l.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
                ui.label(&name);
                match &l.meta {
                    Ok(m) => {
                        ui.label(&m.encounter);
                        ui.label(&m.ruleset);
                        ui.label(m.round.to_string());
                        ui.label(date_words(m.saved_at));
                        if ui.button(tr.t("saves-load")).clicked() {
                            load = Some(l.path.clone());
                        }
                    }
                    Err(e) => {
                        ui.colored_label(egui::Color32::from_rgb(255, 130, 110), tr.t("saves-unreadable"))
                            .on_hover_text(e.to_string());
                        ui.label("");
                        ui.label("");
                        ui.label("");
                        ui.label("");
                    }
                }
                ui.end_row();
            }
        });
    });
    if let Some(p) = load {
        su.requests.write(SessionRequest::Load(p));
    }
}

fn sim_window(ui: &mut egui::Ui, battle: &Battle, su: &mut SessionUi, tr: &Tr) {
    use egui_plot::{Bar, BarChart, Plot};
    ui.label(
        egui::RichText::new(tr!(
            tr,
            "simulate-intro",
            encounter = battle.setup.encounter.name_in(tr.code()),
            ruleset = &battle.setup.ruleset_name,
            seed = battle.setup.seed.to_string(),
        ))
        .small(),
    );
    ui.horizontal(|ui| {
        ui.label(tr.t("simulate-runs"));
        ui.add(egui::DragValue::new(&mut su.sim.runs).range(1..=100_000));
        if su.sim.job.is_some() {
            if ui.button(tr.t("simulate-cancel")).clicked() {
                su.sim.cancel();
            }
        } else if ui.button(tr.t("simulate-run")).clicked() {
            su.sim.start(battle);
        }
    });
    if let Some(job) = &su.sim.job {
        let done = job.done.load(std::sync::atomic::Ordering::Relaxed);
        ui.add(egui::ProgressBar::new(done as f32 / job.total.max(1) as f32).text(format!("{done} / {}", job.total)));
        ui.label(egui::RichText::new(tr.t("simulate-meanwhile")).small());
    }
    match &su.sim.result {
        None => {}
        Some(Err(e)) => {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), e);
        }
        Some(Ok(summary)) => {
            let Some(r) = summary.rulesets.first() else { return };
            ui.separator();
            // What the result is about, from the summary itself (not `SimPanel::about`, which is
            // worded once, in English, when the batch starts).
            ui.label(
                egui::RichText::new(tr!(
                    tr,
                    "simulate-about",
                    encounter = &summary.encounter,
                    ruleset = &r.ruleset,
                    n = summary.runs,
                ))
                .strong(),
            );
            let d = &r.derived;
            for sd in &d.sides {
                let text = match &sd.win {
                    Some(w) => tr!(
                        tr,
                        "simulate-side-wins",
                        side = battle.setup.encounter.side_name_in(&sd.side, tr.code()),
                        rate = format!("{:.1}", w.rate * 100.0),
                        low = format!("{:.1}", w.low * 100.0),
                        high = format!("{:.1}", w.high * 100.0),
                    ),
                    None => tr!(
                        tr,
                        "simulate-side-no-runs",
                        side = battle.setup.encounter.side_name_in(&sd.side, tr.code())
                    ),
                };
                ui.label(text);
            }
            let draws = r.tally.draws_round_cap + r.tally.draws_other;
            ui.label(tr!(
                tr,
                "simulate-draws-rounds",
                draws = draws.to_string(),
                mean = format!("{:.1}", d.rounds_mean.unwrap_or(0.0)),
                median = d.rounds_median.unwrap_or(0).to_string(),
                p5 = d.rounds_p5.unwrap_or(0).to_string(),
                p95 = d.rounds_p95.unwrap_or(0).to_string(),
            ));
            let palette = [
                egui::Color32::from_rgb(110, 170, 255),
                egui::Color32::from_rgb(255, 120, 100),
                egui::Color32::from_rgb(150, 220, 150),
                egui::Color32::from_rgb(255, 214, 90),
            ];
            ui.columns(2, |cols| {
                cols[0].label(tr.t("simulate-win-rate"));
                let wins: Vec<Bar> = d
                    .sides
                    .iter()
                    .enumerate()
                    .map(|(i, sd)| {
                        Bar::new(i as f64, sd.win.as_ref().map_or(0.0, |w| w.rate * 100.0))
                            .name(&sd.side)
                            .fill(palette[i % palette.len()])
                            .width(0.6)
                    })
                    .collect();
                let names: Vec<String> = d.sides.iter().map(|sd| sd.side.clone()).collect();
                Plot::new("sim-wins")
                    .height(160.0)
                    .x_axis_formatter(move |m, _| {
                        let i = m.value.round();
                        if (m.value - i).abs() < 1e-6 && i >= 0.0 {
                            names.get(i as usize).cloned().unwrap_or_default()
                        } else {
                            String::new()
                        }
                    })
                    .include_y(0.0)
                    .include_y(100.0)
                    .allow_zoom(false)
                    .allow_drag(false)
                    .allow_scroll(false)
                    .show(&mut cols[0], |p| p.bar_chart(BarChart::new(tr.t("simulate-win-series"), wins)));
                cols[1].label(tr.t("simulate-rounds-to-finish"));
                let rounds: Vec<Bar> = r
                    .tally
                    .rounds_histogram
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(round, n)| Bar::new(round as f64, *n as f64).width(0.8).fill(palette[3]))
                    .collect();
                Plot::new("sim-rounds")
                    .height(160.0)
                    .x_axis_label(tr.t("simulate-rounds-axis"))
                    .include_y(0.0)
                    .allow_zoom(false)
                    .allow_drag(false)
                    .allow_scroll(false)
                    .show(&mut cols[1], |p| p.bar_chart(BarChart::new(tr.t("simulate-runs-series"), rounds)));
            });
        }
    }
}
