//! The egui screens: the start screen (encounter, ruleset, who plays each side), the turn banner,
//! the decision prompts with their "always / never / ask" policy, a combat log, and the end
//! screen. They read the battle and act only by writing `HumanCommand`s and changing screens.

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::battle::{Battle, BattleSetup, HumanCommand, Pacing, Policies, Policy, SideControl};
use super::hud::{HudCache, HudUi};
use super::input::{BindingsNote, GameAction, PlayerInput, Selection};
use super::library::Library;
use super::{PlayOptions, Screen};
use crate::rules::command::{ActionLoss, Choice, Command, Decider, DefenseMethod};
use crate::rules::components::ActionPool;
use crate::rules::state::{DecisionKind, EngineStatus, Pending};

/// The egui screens' plugin.
pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StartForm>()
            .init_resource::<BannerRect>()
            .init_resource::<HudUi>()
            .init_resource::<HudCache>()
            .init_resource::<GmSeat>()
            .add_systems(
                EguiPrimaryContextPass,
                (
                    themed,
                    start_screen.run_if(in_state(Screen::Start)),
                    (hud_keys, battle_hud, session_windows, prompt, super::inspector::inspector_window)
                        .chain()
                        .run_if(in_state(Screen::Battle)),
                    (end_screen, session_windows).chain().run_if(in_state(Screen::End)),
                    typing,
                )
                    .chain(),
            )
            .add_systems(
                OnEnter(Screen::Battle),
                |mut cache: ResMut<HudCache>,
                 mut ui: ResMut<HudUi>,
                 pending: Option<Res<super::battle::PendingCombat>>| {
                    *cache = HudCache::default();
                    ui.hovered = None;
                    ui.preview = None;
                    // An undo or a redo keeps the player's log filter and card; a new battle
                    // (or a loaded one) starts clean.
                    if !matches!(pending.as_deref(), Some(super::battle::PendingCombat::Keep)) {
                        ui.focus = None;
                        ui.filter = Default::default();
                    }
                },
            );
    }
}

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

/// The screen rectangles (logical pixels: left, top, right, bottom) the HUD's panels cover: the
/// board ignores the pointer there.
#[derive(Resource, Debug, Default, Clone)]
pub struct BannerRect(pub Vec<(f32, f32, f32, f32)>);

/// A person sits in the GM's seat: the GM's decisions (Assist approval, initiative ties) are asked
/// in a prompt instead of answered by the AI (the start screen's choice).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct GmSeat(pub bool);

/// The labels of the ability hotkeys, from the bindings (`1`..`9` by default).
#[derive(Resource, Debug, Default, Clone)]
pub struct HotkeyLabels(pub Vec<String>);

/// Whether a text field has the keyboard, for the game's keys to wait.
fn typing(mut contexts: EguiContexts, mut typing: ResMut<super::input::TypingInUi>) -> Result {
    let now = contexts.ctx_mut()?.text_edit_focused();
    if typing.0 != now {
        typing.0 = now;
    }
    Ok(())
}

/// Set the theme once the egui context exists.
fn themed(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if !*done {
        super::hud::theme(contexts.ctx_mut()?);
        *done = true;
    }
    Ok(())
}

/// What the banner and the windows need of the session: saves, undo, the Simulate batch and the
/// hot-reloaded data.
#[derive(bevy::ecs::system::SystemParam)]
pub struct SessionUi<'w, 's> {
    session: ResMut<'w, super::session::Session>,
    sim: ResMut<'w, super::session::SimPanel>,
    requests: MessageWriter<'w, super::session::SessionRequest>,
    hot: Option<Res<'w, crate::modding::watch::HotData<crate::modding::watch::CombatData>>>,
    hot_key: Option<Res<'w, super::battle::HotKey>>,
    commands: Commands<'w, 's>,
}

impl SessionUi<'_, '_> {
    /// The watched data is this battle's (an encounter battle started from these files).
    fn watches(&self, setup: &BattleSetup) -> bool {
        setup.scenario.is_none()
            && setup.from_save.is_none()
            && self.hot_key.as_ref().is_some_and(|k| {
                **k == super::battle::HotKey(setup.file.clone(), setup.ruleset_name.clone(), setup.mods.clone())
            })
    }
}

/// The HUD's keys: L shows or hides the log, H every panel, F12 the world inspector.
fn hud_keys(
    actions: Single<&leafwing_input_manager::prelude::ActionState<GameAction>, With<PlayerInput>>,
    mut hud_ui: ResMut<HudUi>,
    typing: Res<super::input::TypingInUi>,
) {
    if typing.0 {
        return;
    }
    if actions.just_pressed(&GameAction::ToggleLog) {
        hud_ui.log = !hud_ui.log;
    }
    if actions.just_pressed(&GameAction::ToggleHud) {
        let on = !(hud_ui.tracker || hud_ui.card || hud_ui.log);
        hud_ui.tracker = on;
        hud_ui.card = on;
        hud_ui.log = on;
    }
    if actions.just_pressed(&GameAction::ToggleInspector) {
        hud_ui.inspector = !hud_ui.inspector;
    }
}

fn start_screen(
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
        let wanted_rs = options.ruleset.clone().unwrap_or_else(|| super::library::DEFAULT_RULESET_NAME.into());
        form.ruleset = rulesets.iter().position(|(n, _)| *n == wanted_rs).unwrap_or(0);
        let wanted = options.encounter.clone().unwrap_or_else(|| "skirmish-4v4.ron".into());
        form.encounter = library
            .encounters
            .iter()
            .position(|(f, _)| *f == wanted || f.file_name() == wanted.file_name())
            .unwrap_or(0);
        if let Some(Ok(enc)) = library.encounters.get(form.encounter).map(|(_, e)| e) {
            for s in &enc.sides {
                form.sides.insert(s.name.clone(), super::battle::side_control(&options, s));
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
                ui.checkbox(&mut gm.0, "a person here decides Assist approvals and initiative ties")
                    .on_hover_text("Off: the AI answers the GM's calls with its defaults");
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

fn battle_hud(
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
    {
        // Reading the engine's dry runs and forecasts needs the world mutably; nothing in the
        // rules state changes, so the battle is not marked changed.
        let b = battle.bypass_change_detection();
        let pointed = hud_ui.preview.as_deref().or(hud_ui.hovered.as_deref());
        cache.refresh(&mut b.combat, human, hud_ui.focus, pointed, &keys);
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
                egui::RichText::new(format!("Round {}", c.turn().round)).strong().size(18.0).color(super::hud::GOLD),
            );
            ui.separator();
            ui.label(format!("{} · {}", battle.setup.encounter.name, battle.setup.ruleset_name));
            ui.separator();
            match c.status() {
                EngineStatus::AwaitingCommand(who) => {
                    let whose = if battle.control(who) == SideControl::Human { "your turn" } else { "AI" };
                    ui.label(
                        egui::RichText::new(format!("{} ({whose})", c.name(who)))
                            .strong()
                            .color(egui::Color32::from_rgb(255, 214, 90)),
                    );
                }
                _ => {
                    ui.label(crate::hud::status_line(c));
                }
            }
            ui.separator();
            ui.add(egui::Slider::new(&mut pacing.speed, 0.25..=4.0).text("speed"));
            ui.separator();
            ui.toggle_value(&mut hud_ui.tracker, "Tracker").on_hover_text("Show or hide the initiative tracker");
            ui.toggle_value(&mut hud_ui.card, "Card").on_hover_text("Show or hide the creature card");
            ui.toggle_value(&mut hud_ui.log, "Log (L)").on_hover_text("Show or hide the combat log");
            ui.toggle_value(&mut hud_ui.inspector, "F12").on_hover_text("The world inspector, for modders");
            ui.add(egui::DragValue::new(&mut hud_ui.zoom).range(0.6..=2.0).speed(0.01).prefix("UI ×"))
                .on_hover_text("HUD scale, on top of the system's scale factor");
            if ui.button("Quit to start").clicked() {
                next.set(Screen::Start);
            }
        });
        ui.horizontal(|ui| {
            use super::session::SessionRequest;
            let undo = ui
                .add_enabled(su.session.can_undo(c), egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z: take back your last command and what the AI did since")
                .on_disabled_hover_text("Nothing of yours to undo yet");
            if undo.clicked() {
                su.requests.write(SessionRequest::Undo);
            }
            let redo = ui
                .add_enabled(su.session.history.can_redo(c), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Y: give it back, with the same dice");
            if redo.clicked() {
                su.requests.write(SessionRequest::Redo);
            }
            if ui.button("Quick save").on_hover_text("F5: save to the quick-save slot").clicked() {
                su.requests.write(SessionRequest::QuickSave);
            }
            if ui.button("Quick load").on_hover_text("F9: load the quick-save slot").clicked() {
                su.requests.write(SessionRequest::QuickLoad);
            }
            if ui.toggle_value(&mut su.session.saves_open, "Saves (F6)").clicked() && su.session.saves_open {
                su.session.refresh_list();
                su.session.save_name.clear();
            }
            ui.toggle_value(&mut su.sim.open, "Simulate (F7)")
                .on_hover_text("Play this encounter many times, AI against AI, in the background");
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
                    format!("Data file error (this battle goes on unchanged): {e}"),
                );
            } else if hot.has_pending() {
                ui.horizontal(|ui| {
                    ui.colored_label(
                        egui::Color32::from_rgb(255, 214, 90),
                        "Encounter, ruleset or mod files changed on disk.",
                    );
                    if ui.button("Restart with changes").clicked() {
                        su.commands.insert_resource(battle.setup.clone());
                        next.set(Screen::Battle);
                    }
                });
            }
        }
        if let Some(r) = &battle.last_rejection {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), format!("Refused: {r}"));
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
                    ui.label(egui::RichText::new(format!("{}'s abilities", c.name(who))).strong());
                    ui.label(
                        egui::RichText::new("hover for the what-if preview; greyed ones say why")
                            .small()
                            .color(super::hud::DIM),
                    );
                });
                actions.extend(super::hud::ability_bar(ui, &cache, selection.ability.as_deref(), &mut hud_ui));
                // A Recovery Action saves against one effect (SG-30): the player names which.
                let recovery = selection.ability.clone().filter(|a| {
                    matches!(
                        c.ruleset().ability(a).map(|d| &d.effect),
                        Some(crate::rules::ruleset::Effect::RecoverySave)
                    )
                });
                if let Some(ab) = recovery {
                    let ends: Vec<(String, String)> = c
                        .get::<crate::rules::components::Conditions>(who)
                        .map(|cs| {
                            cs.0.keys()
                                .filter_map(|id| {
                                    let save = c.ruleset().condition(id)?.save_ends.clone()?;
                                    Some((id.clone(), format!("{} DC {}", save.stat, save.dc)))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Save against:");
                        if ends.is_empty() {
                            ui.label(egui::RichText::new("nothing a save can end").color(super::hud::DIM));
                        }
                        for (id, save) in ends {
                            if ui.button(format!("{} ({save})", id.replace('_', " "))).clicked() {
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
                    if ui.button("End turn (E)").clicked() {
                        out.write(HumanCommand(Command::EndTurn { actor: who }));
                    }
                    // Delay (pf2e, pf1e, segments): the engine refuses it where the ruleset has none.
                    let delay = ui.button("Delay");
                    let delay =
                        if crate::hud::rules_ref::family(c.ruleset()) == crate::hud::rules_ref::Family::PerRoundPool {
                            delay.on_hover_text("This ruleset has no Delay; the engine will say so")
                        } else {
                            delay.on_hover_text("Leave the order now and come back after any later turn")
                        };
                    if delay.clicked() {
                        out.write(HumanCommand(Command::Delay { actor: who }));
                    }
                }
                for x in &delayed {
                    if ui.button(format!("{} returns from Delay", c.name(*x))).clicked() {
                        out.write(HumanCommand(Command::ReturnFromDelay { actor: *x }));
                    }
                }
                for x in &holding {
                    if ui.button(format!("{} releases the held cast", c.name(*x))).clicked() {
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
    let (more, panels) = super::hud::draw_panels(&mut root, &cache, &mut hud_ui);
    actions.extend(more);
    covered.extend(panels);
    for a in actions {
        match a {
            super::hud::HudAction::Choose(ab) => {
                selection.ability = ab;
                selection.target = None;
            }
            super::hud::HudAction::Focus(f) => hud_ui.focus = f,
            super::hud::HudAction::ExportLog => {
                hud_ui.export_note = Some(export_log(battle, &cache));
            }
        }
    }
    rects.0 = covered.iter().map(|r| (r.left(), r.top(), r.right(), r.bottom())).collect();
    Ok(())
}

/// Write the combat log as JSON lines under `exports/`, and say where (or why not).
fn export_log(battle: &Battle, cache: &HudCache) -> String {
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
    let r = std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot make the folder: {e}", dir.display()))
        .and_then(|()| crate::outfile::write_atomic(&path, text.as_bytes(), &[]));
    match r {
        Ok(()) => format!("log written to {}", path.display()),
        Err(e) => format!("log not written: {e}"),
    }
}

/// The choices of a pending decision: label with what it costs, and the answer. Built from the
/// decision and the rules state; the engine still judges the answer when it is sent.
fn choices(battle: &Battle, kind: &DecisionKind, by: Decider) -> Vec<(String, Choice)> {
    let c = &battle.combat;
    let rs = c.ruleset();
    let reaction_cost = match rs.reactions {
        crate::rules::ruleset::ReactionBudget::Unlimited => "a reaction: no action cost",
        _ => "uses your reaction",
    };
    match kind {
        DecisionKind::Defense { attacker, attack_total, options } => options
            .iter()
            .map(|m| {
                let what = match (m, &rs.defense) {
                    (DefenseMethod::Dodge, crate::rules::ruleset::DefenseRule::ActiveRoll { dodge_stat, .. }) => {
                        format!("Dodge: 1d20 + {dodge_stat}")
                    }
                    (DefenseMethod::Parry, crate::rules::ruleset::DefenseRule::ActiveRoll { parry_stat, .. }) => {
                        format!("Parry: 1d20 + {parry_stat}")
                    }
                    (DefenseMethod::NoDefense, _) => "No defence roll: the attack hits".into(),
                    (m, _) => format!("{m:?}"),
                };
                let cost = if *m == DefenseMethod::NoDefense { "" } else { " — free, no action cost (G-HB-11)" };
                (format!("{what} against {}'s {attack_total}{cost}", c.name(*attacker)), Choice::Defend(*m))
            })
            .collect(),
        DecisionKind::Opportunity { mover, options } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| {
                    (
                        format!("Attack {} with {} ({reaction_cost})", c.name(*mover), ability_name(c, a)),
                        Choice::Opportunity(Some(a.clone())),
                    )
                })
                .collect();
            v.push((format!("Let {} go (keeps your reaction)", c.name(*mover)), Choice::Opportunity(None)));
            v
        }
        DecisionKind::Opening { .. } => {
            let Decider::Creature(who) = by else { return vec![] };
            let left = c.get::<ActionPool>(who).map_or(0, ActionPool::available);
            let mut v = Vec::new();
            // Each attack on each enemy in reach, and each untargeted ability, that its actions
            // left pay for (HB-30, HB-31, HB-33); the engine judges the pick.
            let me = c.get::<crate::rules::components::GridPos>(who).copied();
            let my_side = c.get::<crate::rules::components::Side>(who).cloned();
            let reach = rs.engagement.melee_reach;
            for a in crate::hud::abilities_of(c, who) {
                let Some(d) = rs.ability(&a) else { continue };
                if d.cost > left {
                    continue;
                }
                let cost = match d.cost {
                    0 => "no action cost".to_string(),
                    n => format!("costs {n} of your {left} action(s) left this round"),
                };
                match &d.effect {
                    crate::rules::ruleset::Effect::Attack { kind, .. } => {
                        for t in 0..c.len() as u32 {
                            let t = crate::rules::components::Cid(t);
                            let hostile = c.get::<crate::rules::components::Side>(t).cloned() != my_side;
                            let down = c
                                .get::<crate::rules::components::Conditions>(t)
                                .is_some_and(|k| k.has(&rs.defeated_condition));
                            let near = match (me, c.get::<crate::rules::components::GridPos>(t)) {
                                (Some(p), Some(q)) => {
                                    *kind != crate::rules::ruleset::AttackKind::Melee || p.distance(*q) <= reach
                                }
                                _ => false,
                            };
                            if hostile && !down && near {
                                v.push((
                                    format!("{} on {} ({cost})", ability_name(c, &a), c.name(t)),
                                    Choice::Opening(Some(crate::rules::command::OpeningUse {
                                        ability: a.clone(),
                                        targets: vec![t],
                                        to: None,
                                        mode: None,
                                    })),
                                ));
                            }
                        }
                    }
                    crate::rules::ruleset::Effect::SelfCondition { .. } => v.push((
                        format!("{} ({cost})", ability_name(c, &a)),
                        Choice::Opening(Some(crate::rules::command::OpeningUse {
                            ability: a.clone(),
                            targets: vec![],
                            to: None,
                            mode: None,
                        })),
                    )),
                    _ => {}
                }
            }
            v.push(("Pass the opening (costs nothing)".into(), Choice::Opening(None)));
            v
        }
        DecisionKind::AssistApproval { from, to } => vec![
            (format!("Approve {}'s Assist to {} (HB-11)", c.name(*from), c.name(*to)), Choice::Approve(true)),
            ("Deny it: the Assist's action is still spent".into(), Choice::Approve(false)),
        ],
        DecisionKind::Triggered { options, .. } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| {
                    let d = rs.ability(a);
                    let cost = match d.map(|d| d.timing) {
                        Some(crate::rules::ruleset::Timing::Reaction) => reaction_cost,
                        _ => "a free action",
                    };
                    (format!("Use {} now ({cost})", ability_name(c, a)), Choice::Triggered(Some(a.clone())))
                })
                .collect();
            v.push(("Use nothing".into(), Choice::Triggered(None)));
            v
        }
        DecisionKind::ActionLoss => vec![
            (
                "Lose the restricted (bonus) action first: keep a regular one".into(),
                Choice::LoseFirst(ActionLoss::Restricted),
            ),
            ("Lose a regular action first: keep the restricted one".into(), Choice::LoseFirst(ActionLoss::Regular)),
        ],
        DecisionKind::CastComplete { ability } => vec![
            (
                format!("Release {} now: its recovery time starts now (SG-13/14)", ability_name(c, ability)),
                Choice::HoldCast(false),
            ),
            (
                format!(
                    "Hold {}: recovery suspended, keep concentrating; each action while holding adds its RT + surcharge (SG-19..23)",
                    ability_name(c, ability)
                ),
                Choice::HoldCast(true),
            ),
        ],
        DecisionKind::InitiativeTie { tied } => {
            // Every rotation of the tied creatures: each may go first.
            (0..tied.len().min(6))
                .map(|k| {
                    let mut order = tied.clone();
                    order.rotate_left(k);
                    let names = order.iter().map(|t| c.name(*t)).collect::<Vec<_>>().join(", then ");
                    (format!("{names} (free)"), Choice::Order(order))
                })
                .collect()
        }
    }
}

fn ability_name(c: &crate::rules::driver::Combat, a: &str) -> String {
    c.ruleset().ability(a).map_or(a.to_string(), |d| d.display_name().to_string())
}

/// A choice in words.
fn describe_choice(battle: &Battle, c: &Choice) -> String {
    let names =
        |v: &[crate::rules::components::Cid]| v.iter().map(|t| battle.combat.name(*t)).collect::<Vec<_>>().join(", ");
    match c {
        Choice::Opening(Some(u)) if u.targets.is_empty() => format!("Use {}", ability_name(&battle.combat, &u.ability)),
        Choice::Opening(Some(u)) => {
            format!("Use {} on {}", ability_name(&battle.combat, &u.ability), names(&u.targets))
        }
        Choice::Triggered(Some(a)) | Choice::Opportunity(Some(a)) => format!("Use {}", ability_name(&battle.combat, a)),
        Choice::Defend(m) => format!("{m:?}"),
        Choice::Order(o) => format!("Order {}", names(o)),
        other => format!("{other:?}"),
    }
}

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

fn prompt(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    gm: Res<GmSeat>,
    mut policies: ResMut<Policies>,
    mut out: MessageWriter<HumanCommand>,
    mut ai_pick: Local<Option<(usize, Option<Choice>)>>,
) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let Some(by) = person_deciding(&battle, &gm) else { return Ok(()) };
    let Some(p) = battle.combat.world.resource::<Pending>().0.clone() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut options = choices(&battle, &p.kind, by);
    // The AI's own answer, for choices the list above cannot spell out (which ability, on whom):
    // worked out once per decision, not every frame.
    let asked_at = battle.combat.log().events.len();
    if ai_pick.as_ref().is_none_or(|(at, _)| *at != asked_at) {
        let pick = match crate::ai::next_command(&battle.combat, crate::ai::AiScope { gm: true, all_creatures: true }) {
            Some(Command::Decide { choice, .. }) => Some(choice),
            _ => None,
        };
        *ai_pick = Some((asked_at, pick));
    }
    if let Some(choice) = ai_pick.as_ref().and_then(|(_, c)| c.clone())
        && !options.iter().any(|(_, c)| *c == choice)
    {
        options.insert(0, (format!("{} (the AI's pick)", describe_choice(&battle, &choice)), choice));
    }
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
    let title = match by {
        Decider::Creature(c) => format!("{}: {}", battle.combat.name(c), kind_words(kind)),
        Decider::Gm => format!("GM: {}", kind_words(kind)),
    };
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -110.0))
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(decision_summary(&battle, &p.kind)).small());
            for (i, (label, choice)) in options.iter().enumerate() {
                let key = if i < 9 { format!("{}. ", i + 1) } else { String::new() };
                if ui.button(format!("{key}{label}")).clicked() || pressed == Some(i) {
                    out.write(HumanCommand(Command::Decide { by: p.by, choice: choice.clone() }));
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(format!("{} from now on:", kind_words(kind)));
                let entry = policies.0.entry(kind).or_insert(Policy::Ask);
                ui.selectable_value(entry, Policy::Ask, "ask");
                ui.selectable_value(entry, Policy::Always, "always").on_hover_text("Take it the way the AI would");
                ui.selectable_value(entry, Policy::Never, "never").on_hover_text("Decline it without asking");
            });
        });
    Ok(())
}

/// What the decision is about, in a sentence.
fn decision_summary(battle: &Battle, kind: &DecisionKind) -> String {
    let c = &battle.combat;
    match kind {
        DecisionKind::Defense { attacker, attack_total, .. } => {
            format!(
                "{} attacks with a total of {attack_total}: a defensive roll that meets it blocks the attack (HB-40).",
                c.name(*attacker)
            )
        }
        DecisionKind::Opportunity { mover, .. } => format!("{} leaves your reach.", c.name(*mover)),
        DecisionKind::Opening { .. } => {
            "An opening: you may use one ability now, paid from this round's actions (HB-30, HB-31, HB-33).".into()
        }
        DecisionKind::AssistApproval { from, to } => {
            format!(
                "{} wants to assist {}: the GM decides whether the help is plausible (HB-11).",
                c.name(*from),
                c.name(*to)
            )
        }
        DecisionKind::Triggered { .. } => "Something triggers your free action or reaction.".into(),
        DecisionKind::ActionLoss => "You lose an action: which kind goes first (G-P2-07)?".into(),
        DecisionKind::CastComplete { .. } => "Your casting time is complete (SG-13, SG-19).".into(),
        DecisionKind::InitiativeTie { .. } => "These creatures tied for initiative: who goes first?".into(),
    }
}

fn kind_words(kind: &str) -> &'static str {
    match kind {
        "Defense" => "defensive roll",
        "Opportunity" => "attack of opportunity",
        "Opening" => "an opening",
        "AssistApproval" => "approve an Assist",
        "Triggered" => "a triggered action",
        "ActionLoss" => "which action to lose",
        "InitiativeTie" => "initiative tie",
        "CastComplete" => "hold or release the cast",
        _ => "a decision",
    }
}

fn end_screen(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    mut session: ResMut<super::session::Session>,
    mut requests: MessageWriter<super::session::SessionRequest>,
) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let humans: Vec<&String> =
        battle.setup.sides.iter().filter(|(_, c)| **c == SideControl::Human).map(|(s, _)| s).collect();
    let everyone_human = humans.len() == battle.setup.sides.len();
    let title = match &battle.combat.turn().winner {
        // Hot seat: somebody at this screen won and somebody lost.
        Some(_) if everyone_human || humans.is_empty() => "The fight is over",
        Some(w) if humans.contains(&w) => "Victory!",
        Some(_) => "Defeat",
        None => "Draw",
    };
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            for line in super::battle::summary(&battle) {
                ui.label(line);
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Restart").clicked() {
                    let mut setup = battle.setup.clone();
                    setup.seed = setup.seed.wrapping_add(1);
                    commands.insert_resource(setup);
                    next.set(Screen::Battle);
                }
                if ui.button("Back to the start screen").clicked() {
                    next.set(Screen::Start);
                }
            });
            ui.horizontal(|ui| {
                let undo = ui
                    .add_enabled(session.can_undo(&battle.combat), egui::Button::new("Undo your last command (Ctrl+Z)"))
                    .on_disabled_hover_text("Nothing of yours to undo");
                if undo.clicked() {
                    requests.write(super::session::SessionRequest::Undo);
                }
                if ui.button("Saves… (F6)").clicked() {
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

/// The saves window (F6) and the Simulate window (F7).
fn session_windows(mut contexts: EguiContexts, battle: Option<Res<Battle>>, mut su: SessionUi) -> Result {
    let Some(battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    if su.session.saves_open {
        let mut open = true;
        egui::Window::new("Saves")
            .open(&mut open)
            .default_pos(egui::pos2(330.0, 120.0))
            .default_width(560.0)
            .show(ctx, |ui| saves_window(ui, &battle, &mut su));
        su.session.saves_open = open;
    }
    if su.sim.open {
        let mut open = true;
        egui::Window::new("Simulate")
            .open(&mut open)
            .default_pos(egui::pos2(330.0, 140.0))
            .default_width(520.0)
            .show(ctx, |ui| sim_window(ui, &battle, &mut su));
        su.sim.open = open;
        if su.sim.job.is_some() {
            // Keep the progress moving while nothing else happens.
            ctx.request_repaint();
        }
    }
    Ok(())
}

fn saves_window(ui: &mut egui::Ui, battle: &Battle, su: &mut SessionUi) {
    use super::session::{SessionRequest, date_words, file_name_for};
    let dir = su.session.dir.display().to_string();
    ui.label(egui::RichText::new(format!("Saves live in {dir}/. F5 quick-saves, F9 quick-loads.")).small());
    ui.horizontal(|ui| {
        if su.session.save_name.is_empty() {
            su.session.save_name = format!("{}-round-{}", battle.setup.encounter.name, battle.combat.turn().round);
        }
        ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut su.session.save_name).desired_width(260.0));
        let file = file_name_for(&su.session.save_name);
        let exists = su.session.dir.join(&file).exists();
        let label = if exists { "Save (replaces it)" } else { "Save" };
        if ui.button(label).on_hover_text(format!("Writes {dir}/{file}")).clicked() {
            su.requests.write(SessionRequest::SaveAs(su.session.save_name.clone()));
        }
        if ui.button("Refresh").clicked() {
            su.session.refresh_list();
        }
    });
    ui.separator();
    if su.session.listed.is_empty() {
        ui.label("No saves yet.");
        return;
    }
    let mut load = None;
    egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
        egui::Grid::new("saves").num_columns(6).striped(true).spacing([10.0, 4.0]).show(ui, |ui| {
            for h in ["File", "Encounter", "Ruleset", "Round", "Saved", ""] {
                ui.label(egui::RichText::new(h).strong());
            }
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
                        if ui.button("Load").clicked() {
                            load = Some(l.path.clone());
                        }
                    }
                    Err(e) => {
                        ui.colored_label(egui::Color32::from_rgb(255, 130, 110), "unreadable")
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

fn sim_window(ui: &mut egui::Ui, battle: &Battle, su: &mut SessionUi) {
    use egui_plot::{Bar, BarChart, Plot};
    ui.label(
        egui::RichText::new(format!(
            "{} under {}: AI against AI on every side, seeds {} and up, on one background thread.",
            battle.setup.encounter.name, battle.setup.ruleset_name, battle.setup.seed
        ))
        .small(),
    );
    ui.horizontal(|ui| {
        ui.label("Runs");
        ui.add(egui::DragValue::new(&mut su.sim.runs).range(1..=100_000));
        if su.sim.job.is_some() {
            if ui.button("Cancel").clicked() {
                su.sim.cancel();
            }
        } else if ui.button("Run").clicked() {
            su.sim.start(battle);
        }
    });
    if let Some(job) = &su.sim.job {
        let done = job.done.load(std::sync::atomic::Ordering::Relaxed);
        ui.add(egui::ProgressBar::new(done as f32 / job.total.max(1) as f32).text(format!("{done} / {}", job.total)));
        ui.label(egui::RichText::new("The game goes on meanwhile.").small());
    }
    match &su.sim.result {
        None => {}
        Some(Err(e)) => {
            ui.colored_label(egui::Color32::from_rgb(255, 130, 110), e);
        }
        Some(Ok(summary)) => {
            let Some(r) = summary.rulesets.first() else { return };
            ui.separator();
            ui.label(egui::RichText::new(&su.sim.about).strong());
            let d = &r.derived;
            for sd in &d.sides {
                let text = match &sd.win {
                    Some(w) => format!(
                        "{}: wins {:.1}% (95% CI {:.1}–{:.1}%)",
                        sd.side,
                        w.rate * 100.0,
                        w.low * 100.0,
                        w.high * 100.0
                    ),
                    None => format!("{}: no runs", sd.side),
                };
                ui.label(text);
            }
            let draws = r.tally.draws_round_cap + r.tally.draws_other;
            ui.label(format!(
                "Draws: {draws}. Rounds: mean {:.1}, median {}, 5th–95th percentile {}–{}.",
                d.rounds_mean.unwrap_or(0.0),
                d.rounds_median.unwrap_or(0),
                d.rounds_p5.unwrap_or(0),
                d.rounds_p95.unwrap_or(0)
            ));
            let palette = [
                egui::Color32::from_rgb(110, 170, 255),
                egui::Color32::from_rgb(255, 120, 100),
                egui::Color32::from_rgb(150, 220, 150),
                egui::Color32::from_rgb(255, 214, 90),
            ];
            ui.columns(2, |cols| {
                cols[0].label("Win rate per side (%)");
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
                    .show(&mut cols[0], |p| p.bar_chart(BarChart::new("win %", wins)));
                cols[1].label("Rounds to finish (runs)");
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
                    .x_axis_label("round the fight ended in")
                    .include_y(0.0)
                    .allow_zoom(false)
                    .allow_drag(false)
                    .allow_scroll(false)
                    .show(&mut cols[1], |p| p.bar_chart(BarChart::new("runs", rounds)));
            });
        }
    }
}
