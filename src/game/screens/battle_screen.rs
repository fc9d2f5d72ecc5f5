//! The battle screen: the turn banner (whose turn, pacing, undo, saves) and the HUD's panels
//! ([`crate::game::hud_panels`]), and the log's export.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::SessionUi;
use crate::game::app_state::Screen;
use crate::game::app_state::Selection;
use crate::game::battle::{Battle, HumanCommand, Pacing};
use crate::game::hud_panels::{HudCache, HudUi};
use crate::game::input::HotkeyLabels;
use crate::game::setup::SideControl;
use crate::game::view::BannerRect;
use crate::i18n::Tr;
use crate::rules::command::Command;
use crate::rules::state::EngineStatus;
use crate::tr;

pub(super) fn battle_hud(
    mut contexts: EguiContexts,
    battle: Option<ResMut<Battle>>,
    mut selection: ResMut<Selection>,
    mut pacing: ResMut<Pacing>,
    mut out: MessageWriter<HumanCommand>,
    mut next: ResMut<NextState<Screen>>,
    mut hud_ui: ResMut<HudUi>,
    mut cache: ResMut<HudCache>,
    hotkeys: Option<Res<HotkeyLabels>>,
    mut rects: ResMut<BannerRect>,
    mut su: SessionUi,
    tr: Res<Tr>,
    mut export: Local<Option<Export>>,
    mut view: ResMut<crate::game::app_state::ViewMode>,
) -> Result {
    let Some(mut battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    // The game's keys (Tab, Enter, Space) must not move egui's focus or press its buttons; a text
    // field (a save's name, a number of runs) keeps it while it is typed in.
    if let Some(id) = ctx.memory(|m| m.focused())
        && !ctx.text_edit_focused()
    {
        ctx.memory_mut(|m| m.surrender_focus(id));
    }
    if (ctx.zoom_factor() - hud_ui.zoom).abs() > 0.001 {
        ctx.set_zoom_factor(hud_ui.zoom);
    }
    // Whose ability bar: the person's creature whose turn it is.
    let human = battle.human_waiting().filter(|w| battle.combat.turn().active == Some(*w));
    let keys = hotkeys.map(|h| h.0.clone()).unwrap_or_default();
    // Another language: the log's sentences, the view-models and the export's note are worded
    // again (the log is read again from the start by its next update).
    cache.log.set_language(&tr);
    // Sides by their names in the language (the encounter's `names`), for the log and the card.
    let sides: std::collections::BTreeMap<String, String> = battle
        .setup
        .encounter
        .sides
        .iter()
        .map(|s| (s.name.clone(), battle.setup.encounter.side_name_in(&s.name, tr.code()).to_string()))
        .collect();
    cache.set_side_names(sides);
    if tr.is_changed() {
        cache.invalidate();
        if hud_ui.export_note.is_some()
            && let Some(x) = &*export
        {
            hud_ui.export_note = Some(x.words(&tr));
        }
    }
    {
        // Reading the engine's dry runs and forecasts needs the world mutably; nothing in the
        // rules state changes, so the battle is not marked changed.
        let b = battle.bypass_change_detection();
        let pointed = hud_ui.preview.as_deref().or(hud_ui.hovered.as_deref());
        cache.refresh_in(&mut b.combat, human, hud_ui.focus, pointed, &keys, &tr);
    }
    let battle = &*battle;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let c = &battle.combat;
    let mut covered = Vec::new();
    let shown = egui::Panel::top("banner").show_inside(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new(tr!(tr, "banner-round", round = c.turn().round))
                    .strong()
                    .size(18.0)
                    .color(crate::game::hud_panels::GOLD),
            );
            ui.separator();
            ui.label(format!("{} · {}", battle.setup.encounter.name_in(tr.code()), battle.setup.ruleset_name));
            ui.separator();
            match c.status() {
                EngineStatus::AwaitingCommand(who) => {
                    let key =
                        if battle.control(who) == SideControl::Human { "banner-turn-human" } else { "banner-turn-ai" };
                    ui.label(
                        egui::RichText::new(tr!(tr, key, who = c.name_in(who, tr.code())))
                            .strong()
                            .color(egui::Color32::from_rgb(255, 214, 90)),
                    );
                }
                _ => {
                    ui.label(crate::hud_model::status_line_in(c, &tr));
                }
            }
            ui.separator();
            ui.add(egui::Slider::new(&mut pacing.speed, 0.25..=4.0).text(tr.t("banner-speed")));
            ui.separator();
            ui.toggle_value(&mut hud_ui.tracker, tr.t("banner-tracker")).on_hover_text(tr.t("banner-tracker-hover"));
            ui.toggle_value(&mut hud_ui.card, tr.t("banner-card")).on_hover_text(tr.t("banner-card-hover"));
            ui.toggle_value(&mut hud_ui.log, tr.t("banner-log")).on_hover_text(tr.t("banner-log-hover"));
            // The board's view (issue 23), also V.
            super::view_buttons(ui, &mut view, &tr);
            ui.toggle_value(&mut hud_ui.inspector, "F12").on_hover_text(tr.t("banner-inspector-hover"));
            ui.add(egui::DragValue::new(&mut hud_ui.zoom).range(0.6..=2.0).speed(0.01).prefix(tr.t("banner-zoom")))
                .on_hover_text(tr.t("banner-zoom-hover"));
            if ui.button(tr.t("banner-quit")).clicked() {
                next.set(Screen::Start);
            }
        });
        ui.horizontal(|ui| {
            use crate::game::session::SessionRequest;
            let undo = ui
                .add_enabled(su.session.can_undo(c), egui::Button::new(tr.t("banner-undo")))
                .on_hover_text(tr.t("banner-undo-hover"))
                .on_disabled_hover_text(tr.t("banner-undo-none"));
            if undo.clicked() {
                su.requests.write(SessionRequest::Undo);
            }
            let redo = ui
                .add_enabled(su.session.history.can_redo(c), egui::Button::new(tr.t("banner-redo")))
                .on_hover_text(tr.t("banner-redo-hover"));
            if redo.clicked() {
                su.requests.write(SessionRequest::Redo);
            }
            if ui.button(tr.t("banner-quick-save")).on_hover_text(tr.t("banner-quick-save-hover")).clicked() {
                su.requests.write(SessionRequest::QuickSave);
            }
            if ui.button(tr.t("banner-quick-load")).on_hover_text(tr.t("banner-quick-load-hover")).clicked() {
                su.requests.write(SessionRequest::QuickLoad);
            }
            if ui.toggle_value(&mut su.session.saves_open, tr.t("banner-saves")).clicked() && su.session.saves_open {
                su.session.refresh_list();
                su.session.save_name.clear();
            }
            ui.toggle_value(&mut su.sim.open, tr.t("banner-simulate")).on_hover_text(tr.t("banner-simulate-hover"));
            if let Some(n) = &su.session.note {
                ui.separator();
                let colour =
                    if n.ok { egui::Color32::from_rgb(150, 220, 150) } else { egui::Color32::from_rgb(255, 130, 110) };
                ui.colored_label(colour, &n.text);
            }
        });
        // Hot reload: files edited while the battle runs.
        if let Some(hot) = su.hot.as_ref().filter(|_| su.watches(&battle.setup)) {
            if let Some(e) = hot.error() {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 130, 110),
                    tr!(tr, "banner-data-error", error = e.to_string()),
                );
            } else if hot.has_pending() {
                ui.horizontal(|ui| {
                    ui.colored_label(egui::Color32::from_rgb(255, 214, 90), tr.t("banner-data-changed"));
                    if ui.button(tr.t("banner-restart-changes")).clicked() {
                        su.commands.insert_resource(battle.setup.clone());
                        next.set(Screen::Battle);
                    }
                });
            }
        }
        if let Some(r) = &battle.last_rejection {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), tr!(tr, "banner-refused", reason = r));
        } else if let Some(h) = &su.hover.text {
            // The hovered target of the chosen ability, not valid: why (issue 23).
            ui.colored_label(egui::Color32::from_rgb(255, 190, 120), tr!(tr, "banner-not-here", reason = h));
        } else if let Some(odds) = &su.hover.odds {
            // The what-if preview of the hovered target: its chances to hit and to crit (issue 50).
            ui.colored_label(crate::game::hud_panels::GOLD, odds);
        }
        if let Some(e) = &battle.error {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), e);
        }
    });
    covered.push(shown.response.rect);
    // The ability bar and the turn's buttons, for the person whose turn it is.
    let turn = c.turn();
    let mine: Vec<_> = (0..c.len() as u32)
        .map(crate::rules::components::Cid)
        .filter(|x| battle.control(*x) == SideControl::Human)
        .collect();
    let delayed: Vec<_> = mine.iter().copied().filter(|x| turn.delayed.contains(x)).collect();
    let holding: Vec<_> = mine
        .iter()
        .copied()
        .filter(|x| {
            c.get::<crate::rules::components::Casting>(*x).is_some_and(|k| k.0.as_ref().is_some_and(|a| a.holding))
        })
        .collect();
    let mut actions = Vec::new();
    if human.is_some() || !delayed.is_empty() || !holding.is_empty() {
        let shown = egui::Panel::bottom("abilities").show_inside(&mut root, |ui| {
            ui.add_space(3.0);
            if let Some(who) = human {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new(tr!(tr, "bar-abilities", who = c.name_in(who, tr.code()))).strong());
                    ui.label(egui::RichText::new(tr.t("bar-hint")).small().color(crate::game::hud_panels::DIM));
                });
                actions.extend(crate::game::hud_panels::draw_ability_bar_in(
                    ui,
                    &cache,
                    selection.ability.as_deref(),
                    &mut hud_ui,
                    &tr,
                ));
                // A Recovery Action saves against one effect (SG-30): the player names which.
                let recovery = selection.ability.clone().filter(|a| {
                    matches!(
                        c.ruleset().ability(a).map(|d| &d.effect),
                        Some(crate::rules::ruleset::Effect::RecoverySave)
                    )
                });
                if let Some(ab) = recovery {
                    let ends: Vec<(String, String, i32)> = c
                        .get::<crate::rules::components::Conditions>(who)
                        .map(|cs| {
                            cs.0.keys()
                                .filter_map(|id| {
                                    let save = c.ruleset().condition(id)?.save_ends.clone()?;
                                    Some((id.clone(), save.stat, save.dc))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    ui.horizontal_wrapped(|ui| {
                        ui.label(tr.t("bar-save-against"));
                        if ends.is_empty() {
                            ui.label(egui::RichText::new(tr.t("bar-save-none")).color(crate::game::hud_panels::DIM));
                        }
                        for (id, stat, dc) in ends {
                            let condition = crate::hud_model::log::condition_name(c.ruleset(), &tr, &id);
                            if ui
                                .button(tr!(
                                    tr,
                                    "bar-save-button",
                                    condition = condition,
                                    stat = crate::hud_model::log::stat_name(c.ruleset(), &tr, &stat),
                                    dc = dc
                                ))
                                .clicked()
                            {
                                let mut i = crate::rules::command::ActIntent::new(who, ab.clone(), vec![]);
                                i.mode = Some(id);
                                out.write(HumanCommand(Command::Act(i)));
                                selection.ability = None;
                            }
                        }
                    });
                }
            }
            ui.horizontal_wrapped(|ui| {
                if let Some(who) = human {
                    if ui.button(tr.t("bar-end-turn")).clicked() {
                        out.write(HumanCommand(Command::EndTurn { actor: who }));
                    }
                    // Delay (pf2e, pf1e, segments): the engine refuses it where the ruleset has none.
                    let delay = ui.button(tr.t("bar-delay"));
                    let delay = if crate::hud_model::rules_ref::family(c.ruleset())
                        == crate::hud_model::rules_ref::Family::PerRoundPool
                    {
                        delay.on_hover_text(tr.t("bar-delay-none-hover"))
                    } else {
                        delay.on_hover_text(tr.t("bar-delay-hover"))
                    };
                    if delay.clicked() {
                        out.write(HumanCommand(Command::Delay { actor: who }));
                    }
                }
                for x in &delayed {
                    if ui.button(tr!(tr, "bar-return-from-delay", who = c.name_in(*x, tr.code()))).clicked() {
                        out.write(HumanCommand(Command::ReturnFromDelay { actor: *x }));
                    }
                }
                for x in &holding {
                    if ui.button(tr!(tr, "bar-release-held-cast", who = c.name_in(*x, tr.code()))).clicked() {
                        out.write(HumanCommand(Command::Release { actor: *x }));
                    }
                }
            });
        });
        covered.push(shown.response.rect);
    } else if hud_ui.hovered.is_some() || hud_ui.preview.is_some() {
        hud_ui.hovered = None;
        hud_ui.preview = None;
    }
    let (more, panels) = crate::game::hud_panels::draw_panels_in(&mut root, &cache, &mut hud_ui, &tr);
    actions.extend(more);
    covered.extend(panels);
    for a in actions {
        match a {
            crate::game::hud_panels::HudAction::Choose(ab) => {
                selection.ability = ab;
                selection.target = None;
            }
            crate::game::hud_panels::HudAction::Focus(f) => hud_ui.focus = f,
            crate::game::hud_panels::HudAction::ExportLog => {
                let x = export_log(battle, &cache);
                hud_ui.export_note = Some(x.words(&tr));
                *export = Some(x);
            }
        }
    }
    // egui's points are the window's logical pixels times the HUD's zoom ("UI ×").
    let z = ctx.zoom_factor();
    rects.0 = covered.iter().map(|r| (r.left() * z, r.top() * z, r.right() * z, r.bottom() * z)).collect();
    Ok(())
}

/// What the last log export did: kept as data, so the note can be worded again in another
/// language.
#[derive(Debug, Clone)]
pub(super) enum Export {
    /// Written to this file.
    Written(String),
    /// The folder could not be made: the folder, and why.
    NoFolder(String, String),
    /// The file could not be written: why.
    NotWritten(String),
}

impl Export {
    /// The note under the log, in the language of `tr`.
    fn words(&self, tr: &Tr) -> String {
        match self {
            Export::Written(path) => tr!(tr, "export-log-written", path = path),
            Export::NoFolder(dir, e) => tr!(tr, "export-log-no-folder", dir = dir, error = e),
            Export::NotWritten(e) => tr!(tr, "export-log-failed", error = e),
        }
    }
}

/// Write the combat log as JSON lines under `exports/`, and say where (or why not).
fn export_log(battle: &Battle, cache: &HudCache) -> Export {
    let dir = std::path::Path::new("exports");
    // Both names are data (a loaded save's `meta.ruleset` is any text): only letters and digits
    // reach the file name, so it never names a folder.
    let plain = |s: &str| s.to_lowercase().replace(|ch: char| !ch.is_ascii_alphanumeric(), "-");
    let name = format!(
        "{}-{}-seed{}-{}.jsonl",
        plain(&battle.setup.encounter.name),
        plain(&battle.setup.ruleset_name),
        battle.setup.seed,
        battle.combat.log().events.len()
    );
    let path = dir.join(name);
    let text = cache.log.to_jsonl(&battle.combat);
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Export::NoFolder(dir.display().to_string(), e.to_string());
    }
    match crate::outfile::write_atomic(&path, text.as_bytes(), &[]) {
        Ok(()) => Export::Written(path.display().to_string()),
        Err(e) => Export::NotWritten(e),
    }
}
