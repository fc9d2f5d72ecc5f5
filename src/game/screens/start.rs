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
use crate::i18n::Tr;
use crate::tr;

/// What an installed mod is, for the start screen (kept as data: the words are the language's
/// when drawn).
#[derive(Debug, Clone)]
enum ModKind {
    /// A Rust mod built into the game.
    Rust,
    /// A data mod folder: its manifest's name and version.
    Data { name: String, version: String },
    /// A data mod folder whose manifest cannot be read: why.
    Broken(String),
    /// Named with `--mod` but not found installed.
    Given,
}

/// Why the last "Fight!" was refused (kept as data, worded when drawn).
#[derive(Debug, Clone)]
enum StartError {
    /// The chosen mods cannot be loaded.
    Mods(String),
    /// The encounter cannot start under the ruleset: its file, and why.
    Encounter(String, String),
}

/// The start screen's choices.
#[derive(Resource, Debug, Default)]
pub struct StartForm {
    encounter: usize,
    ruleset: usize,
    sides: BTreeMap<String, SideControl>,
    seed: u64,
    ready: bool,
    error: Option<StartError>,
    /// Installed mods: name, what it is, chosen.
    mods: Vec<(String, ModKind, bool)>,
}

/// Every installed mod for the start screen: the Rust mods, then the data mod folders (a broken
/// one is listed with its error and cannot be chosen).
fn installed_mods() -> Vec<(String, ModKind, bool)> {
    let mut out: Vec<(String, ModKind, bool)> =
        crate::modding::ModRegistry::current().names().into_iter().map(|n| (n, ModKind::Rust, true)).collect();
    let dir = crate::modding::mods_dir();
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.join("mod.ron").is_file()).collect())
        .unwrap_or_default();
    dirs.sort();
    for d in dirs {
        let folder = d.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        match crate::modding::data::read_manifest(&d) {
            Ok(m) => out.push((folder, ModKind::Data { name: m.name, version: m.version }, true)),
            Err(e) => out.push((folder, ModKind::Broken(e.to_string()), false)),
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
    mut tr: ResMut<Tr>,
    mut languages: ResMut<crate::game::language::Languages>,
    session: Res<crate::game::session::Session>,
    mut view: ResMut<crate::game::app_state::ViewMode>,
) -> Result {
    let mut wanted_lang: Option<String> = None;
    let Some(library) = library else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let encounters: Vec<(String, bool)> = library
        .encounters
        .iter()
        .map(|(f, e)| {
            (
                e.as_ref().map_or_else(
                    |_| tr!(tr, "start-encounter-error", file = f.display().to_string()),
                    |e| e.name_in(tr.code()).to_string(),
                ),
                e.is_ok(),
            )
        })
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
                None => (n.clone(), ModKind::Given, true),
            })
            .collect();
        for (n, what, _) in installed {
            if !options.mods.contains(&n) {
                form.mods.push((n, what, false));
            }
        }
    }
    egui::Window::new(tr.t("start-window-title"))
        .id(egui::Id::new("start-window"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .min_width(460.0)
        .show(ctx, |ui| {
            ui.heading(tr.t("start-heading"));
            ui.label(tr.t("start-intro"));
            ui.separator();
            egui::Grid::new("start").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
                // The language, by each language's own name for itself; switching is immediate.
                ui.label(tr.t("start-language"));
                let current = tr.code().to_string();
                let shown = languages.catalogs.get(&current).map_or(current.clone(), |c| c.name.clone());
                egui::ComboBox::from_id_salt("lang").selected_text(shown).show_ui(ui, |ui| {
                    for c in &languages.catalogs.list {
                        if ui.selectable_label(c.code == current, &c.name).clicked() && c.code != current {
                            wanted_lang = Some(c.code.clone());
                        }
                    }
                });
                ui.end_row();
                // The board's view (issue 23): V switches in the battle too.
                ui.label(tr.t("start-view"));
                ui.horizontal(|ui| {
                    super::view_buttons(ui, &mut view, &tr);
                });
                ui.end_row();
                ui.label(tr.t("start-encounter"));
                egui::ComboBox::from_id_salt("enc")
                    .width(280.0)
                    .selected_text(encounters.get(form.encounter).map_or("", |e| e.0.as_str()))
                    .show_ui(ui, |ui| {
                        for (i, (n, _)) in encounters.iter().enumerate() {
                            ui.selectable_value(&mut form.encounter, i, n);
                        }
                    });
                ui.end_row();
                ui.label(tr.t("start-ruleset"));
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
                        let entry = form.sides.entry(s.name.clone()).or_insert(
                            if s.controller == crate::encounter::SideController::Human {
                                SideControl::Human
                            } else {
                                SideControl::Ai
                            },
                        );
                        ui.label(tr!(tr, "start-side", side = enc.side_name_in(&s.name, tr.code())));
                        ui.horizontal(|ui| {
                            ui.selectable_value(entry, SideControl::Human, tr.t("start-human"));
                            ui.selectable_value(entry, SideControl::Ai, tr.t("start-ai"));
                        });
                        ui.end_row();
                    }
                }
                ui.label(tr.t("start-seed"));
                ui.add(egui::DragValue::new(&mut form.seed));
                ui.end_row();
                ui.label(tr.t("start-gm"));
                ui.checkbox(&mut gm.0, tr.t("start-gm-person")).on_hover_text(tr.t("start-gm-person-hover"));
                ui.end_row();
                ui.label(tr.t("start-mods"));
                ui.vertical(|ui| {
                    if form.mods.is_empty() {
                        ui.label(egui::RichText::new(tr.t("start-mods-none")).small());
                    }
                    for (name, what, on) in &mut form.mods {
                        let name: &String = name;
                        let text = match &*what {
                            ModKind::Rust => tr!(tr, "start-mod-rust", name = name),
                            ModKind::Data { name: manifest, version } => {
                                tr!(tr, "start-mod-data", name = name, manifest = manifest, version = version)
                            }
                            ModKind::Broken(e) => tr!(tr, "start-mod-broken", name = name, error = e),
                            ModKind::Given => tr!(tr, "start-mod-given", name = name),
                        };
                        let broken = match &*what {
                            ModKind::Broken(e) => Some(tr!(tr, "start-mod-broken-hover", error = e)),
                            _ => None,
                        };
                        let shown = ui.add_enabled(broken.is_none(), egui::Checkbox::new(on, text));
                        if let Some(why) = broken {
                            shown.on_disabled_hover_text(why);
                        }
                    }
                });
                ui.end_row();
            });
            if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
                ui.label(egui::RichText::new(enc.description_in(tr.code())).italics());
            }
            ui.separator();
            let chosen_ok =
                encounters.get(form.encounter).is_some_and(|e| e.1) && rulesets.get(form.ruleset).is_some_and(|r| r.1);
            if ui
                .add_enabled(
                    chosen_ok,
                    egui::Button::new(egui::RichText::new(format!("  {}  ", tr.t("start-fight"))).size(18.0)),
                )
                .clicked()
            {
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
                        &crate::modding::ModRegistry::current(),
                        &crate::modding::mods_dir(),
                        &mods,
                    )
                    .map_err(|e| StartError::Mods(e.to_string()))
                    .and_then(|loaded| {
                        // With the mods, as the battle will start (a sheet may list a mod's ability).
                        let mut rs = rs.clone();
                        loaded.data.apply(&mut rs).map_err(|e| StartError::Mods(e.to_string()))?;
                        crate::modding::start_encounter(enc, rs, form.seed, &loaded.code)
                            .map_err(|e| StartError::Encounter(file.display().to_string(), e.to_string()))
                    });
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
                let text = match e {
                    StartError::Mods(e) => tr!(tr, "start-error-mods", error = e),
                    StartError::Encounter(file, e) => format!("{file}: {e}"),
                };
                ui.colored_label(egui::Color32::from_rgb(255, 120, 100), text);
            }
            let errors = library.errors();
            if !errors.is_empty() {
                ui.separator();
                ui.label(tr.t("start-load-errors"));
                for e in errors {
                    ui.colored_label(egui::Color32::from_rgb(255, 120, 100), e);
                }
            }
            if let Some(n) = note.as_ref().and_then(|n| n.words(&tr)) {
                ui.colored_label(egui::Color32::from_rgb(255, 200, 100), n);
            }
            if let Some(n) = &languages.note {
                ui.colored_label(egui::Color32::from_rgb(255, 200, 100), n);
            }
            ui.separator();
            ui.small(tr!(
                tr,
                "start-controls",
                enter = tr.t("key-enter"),
                tab = tr.t("key-tab"),
                esc = tr.t("key-esc"),
                space = tr.t("key-space"),
            ));
            ui.small(tr.t("start-controls-3d"));
        });
    if let Some(code) = wanted_lang {
        crate::game::language::switch_language(&code, &mut tr, &mut languages, &session.dir);
    }
    Ok(())
}
