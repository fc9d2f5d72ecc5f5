//! The start screen: encounter, ruleset, seed, mods, and who plays each side (the AI, a
//! person, and the GM's seat).

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::game::app_state::{PlayOptions, Screen};
use crate::game::battle::GmSeat;
use crate::game::input::BindingsNote;
use crate::game::library::Library;
use crate::game::setup::{BattleSetup, SideControl};

/// The start screen's choices.
#[derive(Resource, Debug, Default)]
pub struct StartForm {
    encounter: usize,
    ruleset: usize,
    sides: BTreeMap<String, SideControl>,
    seed: u64,
    ready: bool,
    error: Option<String>,
    /// Installed mods: name, what it is, chosen.
    mods: Vec<(String, String, bool)>,
}

/// Every installed mod for the start screen: the Rust mods, then the data mod folders (a broken
/// one is listed with its error and cannot be chosen).
fn installed_mods() -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> =
        crate::modding::ModRegistry::builtin().names().into_iter().map(|n| (n, "Rust mod".to_string(), true)).collect();
    let dir = crate::modding::mods_dir();
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.join("mod.ron").is_file()).collect())
        .unwrap_or_default();
    dirs.sort();
    for d in dirs {
        let folder = d.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        match crate::modding::data::read_manifest(&d) {
            Ok(m) => out.push((folder, format!("data mod {} {}", m.name, m.version), true)),
            Err(e) => out.push((folder, format!("broken: {e}"), false)),
        }
    }
    out
}

pub(super) fn start_screen(
    mut contexts: EguiContexts,
    library: Option<Res<Library>>,
    options: Res<PlayOptions>,
    note: Option<Res<BindingsNote>>,
    mut form: ResMut<StartForm>,
    mut gm: ResMut<GmSeat>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(library) = library else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let encounters: Vec<(String, bool)> = library
        .encounters
        .iter()
        .map(|(f, e)| (e.as_ref().map_or_else(|_| format!("{} (error)", f.display()), |e| e.name.clone()), e.is_ok()))
        .collect();
    let rulesets: Vec<(String, bool)> = library.rulesets.iter().map(|(n, r)| (n.clone(), r.is_ok())).collect();
    if !form.ready {
        form.ready = true;
        form.seed = options.seed.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs() % 100_000)
        });
        let wanted_rs = options.ruleset.clone().unwrap_or_else(|| crate::game::library::DEFAULT_RULESET_NAME.into());
        form.ruleset = rulesets.iter().position(|(n, _)| *n == wanted_rs).unwrap_or(0);
        let wanted = options.encounter.clone().unwrap_or_else(|| "skirmish-4v4.ron".into());
        form.encounter = library
            .encounters
            .iter()
            .position(|(f, _)| *f == wanted || f.file_name() == wanted.file_name())
            .unwrap_or(0);
        if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
            for s in &enc.sides {
                form.sides.insert(s.name.clone(), crate::game::setup::side_control(&options, s));
            }
        }
        // The `--mod` names first, in their order (names, never paths: see `load_mods`), then every
        // other installed mod.
        let installed = installed_mods();
        form.mods = options
            .mods
            .iter()
            .map(|n| match installed.iter().find(|m| &m.0 == n) {
                Some((n, what, ok)) => (n.clone(), what.clone(), *ok),
                None => (n.clone(), "given with --mod".into(), true),
            })
            .collect();
        for (n, what, _) in installed {
            if !options.mods.contains(&n) {
                form.mods.push((n, what, false));
            }
        }
    }
    egui::Window::new("skirmish")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .min_width(460.0)
        .show(ctx, |ui| {
            ui.heading("A tactical skirmish");
            ui.label("Your side against the AI, or hot seat, under any installed turn system.");
            ui.separator();
            egui::Grid::new("start").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
                ui.label("Encounter");
                egui::ComboBox::from_id_salt("enc")
                    .width(280.0)
                    .selected_text(encounters.get(form.encounter).map_or("", |e| e.0.as_str()))
                    .show_ui(ui, |ui| {
                        for (i, (n, _)) in encounters.iter().enumerate() {
                            ui.selectable_value(&mut form.encounter, i, n);
                        }
                    });
                ui.end_row();
                ui.label("Ruleset");
                egui::ComboBox::from_id_salt("rs")
                    .width(280.0)
                    .selected_text(rulesets.get(form.ruleset).map_or("", |r| r.0.as_str()))
                    .show_ui(ui, |ui| {
                        for (i, (n, _)) in rulesets.iter().enumerate() {
                            ui.selectable_value(&mut form.ruleset, i, n);
                        }
                    });
                ui.end_row();
                if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
                    for s in &enc.sides {
                        let entry = form.sides.entry(s.name.clone()).or_insert(if s.controller == crate::encounter::SideController::Human { SideControl::Human } else { SideControl::Ai });
                        ui.label(format!("Side \"{}\"", s.name));
                        ui.horizontal(|ui| {
                            ui.selectable_value(entry, SideControl::Human, "Human");
                            ui.selectable_value(entry, SideControl::Ai, "AI");
                        });
                        ui.end_row();
                    }
                }
                ui.label("Dice seed");
                ui.add(egui::DragValue::new(&mut form.seed));
                ui.end_row();
                ui.label("Game master");
                ui.checkbox(&mut gm.0, "a person here: the GM window, openings, Assist approvals, ties")
                    .on_hover_text(
                        "Off: the AI GM answers the GM's calls with its defaults and opens openings as the \
                         ruleset's GM policy says",
                    );
                ui.end_row();
                ui.label("Mods");
                ui.vertical(|ui| {
                    if form.mods.is_empty() {
                        ui.label(egui::RichText::new("none installed").small());
                    }
                    for (name, what, on) in &mut form.mods {
                        let ok = !what.starts_with("broken");
                        ui.add_enabled(ok, egui::Checkbox::new(on, format!("{name} ({what})")))
                            .on_disabled_hover_text(what.clone());
                    }
                });
                ui.end_row();
            });
            if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
                ui.label(egui::RichText::new(enc.description.clone()).italics());
            }
            ui.separator();
            let chosen_ok = encounters.get(form.encounter).is_some_and(|e| e.1) && rulesets.get(form.ruleset).is_some_and(|r| r.1);
            if ui.add_enabled(chosen_ok, egui::Button::new(egui::RichText::new("  Fight!  ").size(18.0))).clicked() {
                let (file, enc) = &library.encounters[form.encounter];
                let (name, rs) = &library.rulesets[form.ruleset];
                if let (Ok(enc), Ok(rs)) = (enc, rs) {
                    let sides = enc
                        .sides
                        .iter()
                        .map(|s| (s.name.clone(), form.sides.get(&s.name).copied().unwrap_or(SideControl::Ai)))
                        .collect();
                    let mods: Vec<String> = form.mods.iter().filter(|m| m.2).map(|m| m.0.clone()).collect();
                    let checked = crate::modding::load_mods(
                        &crate::modding::ModRegistry::builtin(),
                        &crate::modding::mods_dir(),
                        &mods,
                    )
                    .map_err(|e| format!("mods: {e}"))
                    .and_then(|_| enc.start(rs.clone(), form.seed).map_err(|e| format!("{}: {e}", file.display())));
                    match checked {
                        Ok(_) => {
                            commands.insert_resource(BattleSetup {
                                file: file.display().to_string(),
                                encounter: enc.clone(),
                                ruleset_name: name.clone(),
                                ruleset: rs.clone(),
                                sides,
                                seed: form.seed,
                                scenario: None,
                                mods,
                                from_save: None,
                            });
                            form.error = None;
                            next.set(Screen::Battle);
                        }
                        // The same error the command line gives; the game stays on this screen.
                        Err(e) => form.error = Some(e),
                    }
                }
            }
            if let Some(e) = &form.error {
                ui.colored_label(egui::Color32::from_rgb(255, 120, 100), e);
            }
            let errors = library.errors();
            if !errors.is_empty() {
                ui.separator();
                ui.label("These files could not be loaded:");
                for e in errors {
                    ui.colored_label(egui::Color32::from_rgb(255, 120, 100), e);
                }
            }
            if let Some(n) = note.as_ref().and_then(|n| n.0.clone()) {
                ui.colored_label(egui::Color32::from_rgb(255, 200, 100), n);
            }
            ui.separator();
            ui.small("Click a square to move, an enemy to attack; 1–9 choose an ability, M movement, Enter uses it, Tab cycles targets, E ends the turn, Esc cancels. WASD/arrows pan, wheel zooms, Space fast-forwards, L shows the log.");
        });
    Ok(())
}
