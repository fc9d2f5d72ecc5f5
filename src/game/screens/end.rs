//! The end screen: who won, the fight's summary, and what to do next.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::game::app_state::Screen;
use crate::game::battle::Battle;
use crate::game::setup::SideControl;
use crate::i18n::Tr;

pub(super) fn end_screen(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    mut session: ResMut<crate::game::session::Session>,
    mut requests: MessageWriter<crate::game::session::SessionRequest>,
    tr: Res<Tr>,
) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let humans: Vec<&String> =
        battle.setup.sides.iter().filter(|(_, c)| **c == SideControl::Human).map(|(s, _)| s).collect();
    let everyone_human = humans.len() == battle.setup.sides.len();
    let title = match &battle.combat.turn().winner {
        // Hot seat: somebody at this screen won and somebody lost.
        Some(_) if everyone_human || humans.is_empty() => tr.t("end-over"),
        Some(w) if humans.contains(&w) => tr.t("end-victory"),
        Some(_) => tr.t("end-defeat"),
        None => tr.t("end-draw"),
    };
    egui::Window::new(title)
        .id(egui::Id::new("end-window"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            for line in crate::game::battle::summary_in(&battle, &tr) {
                ui.label(line);
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button(tr.t("end-restart")).clicked() {
                    let mut setup = battle.setup.clone();
                    setup.seed = setup.seed.wrapping_add(1);
                    commands.insert_resource(setup);
                    next.set(Screen::Battle);
                }
                if ui.button(tr.t("end-back-to-start")).clicked() {
                    next.set(Screen::Start);
                }
            });
            ui.horizontal(|ui| {
                let undo = ui
                    .add_enabled(session.can_undo(&battle.combat), egui::Button::new(tr.t("end-undo")))
                    .on_disabled_hover_text(tr.t("end-undo-none"));
                if undo.clicked() {
                    requests.write(crate::game::session::SessionRequest::Undo);
                }
                if ui.button(tr.t("end-saves")).clicked() {
                    session.saves_open = true;
                    session.refresh_list();
                }
            });
            if let Some(n) = &session.note
                && !n.ok
            {
                ui.colored_label(egui::Color32::from_rgb(255, 130, 110), &n.text);
            }
        });
    Ok(())
}
