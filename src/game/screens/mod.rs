//! The egui screens: the start screen (encounter, ruleset, who plays each side), the turn banner,
//! the decision prompts with their "always / never / ask" policy, a combat log, and the end
//! screen. They read the battle and act only by writing `HumanCommand`s and changing screens.

//!
//! One file per screen and window: [`start`] (the start screen), [`battle_screen`] (the turn
//! banner and the HUD's panels), [`prompt`] (decision prompts), [`gm`] (the GM window for a person
//! in the GM's seat), [`windows`] (saves and Simulate), [`end`] (the end screen). What the prompts say comes from
//! [`crate::hud_model::prompt`], which has no egui in it.

mod battle_screen;
mod end;
mod gm;
mod prompt;
mod start;
mod windows;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::app_state::Screen;
use super::hud_panels::{HudCache, HudUi};
use super::input::{GameAction, PlayerInput};
use super::setup::BattleSetup;
use super::view::BannerRect;

/// The 2D/3D buttons (start screen, banner). The view changes only when one is clicked, so that
/// a change, and only a change, is remembered in the settings file ([`remember_view`]).
fn view_buttons(
    ui: &mut bevy_egui::egui::Ui,
    view: &mut ResMut<crate::game::app_state::ViewMode>,
    tr: &crate::i18n::Tr,
) {
    use crate::game::app_state::ViewMode;
    let mut chosen = **view;
    for (mode, key) in [(ViewMode::TwoD, "view-2d"), (ViewMode::ThreeD, "view-3d")] {
        ui.selectable_value(&mut chosen, mode, tr.t(key)).on_hover_text(tr.t("view-hover"));
    }
    if chosen != **view {
        **view = chosen;
    }
}

/// The board's view, whenever the player chooses another (start screen, banner, `V`), kept in the
/// settings file beside the saves (not in screenshot runs).
fn remember_view(
    mode: Res<crate::game::app_state::ViewMode>,
    session: Res<crate::game::session::Session>,
    options: Res<crate::game::app_state::PlayOptions>,
) {
    if mode.is_changed() && !mode.is_added() && options.screenshots.is_none() {
        crate::game::view3d::remember_view(*mode, &session.dir);
    }
}

/// The egui screens' and windows' plugin.
pub struct ScreensPlugin;

impl Plugin for ScreensPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<start::StartForm>()
            .init_resource::<BannerRect>()
            .add_systems(Update, remember_view)
            .init_resource::<HudUi>()
            .init_resource::<HudCache>()
            .add_systems(
                EguiPrimaryContextPass,
                (
                    themed,
                    start::start_screen.run_if(in_state(Screen::Start)),
                    (
                        hud_keys,
                        battle_screen::battle_hud,
                        windows::session_windows,
                        gm::gm_window,
                        prompt::prompt,
                        super::inspector::inspector_window,
                        language_corner,
                    )
                        .chain()
                        .run_if(in_state(Screen::Battle)),
                    (end::end_screen, windows::session_windows, language_corner).chain().run_if(in_state(Screen::End)),
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

/// The language, switchable mid-battle: a small menu in the window's top-right corner, by each
/// language's own name for itself (issue 24). Nothing restarts; the choice is kept in the
/// settings file.
fn language_corner(
    mut contexts: EguiContexts,
    mut tr: ResMut<crate::i18n::Tr>,
    mut languages: ResMut<super::language::Languages>,
    session: Res<super::session::Session>,
) -> Result {
    use bevy_egui::egui;
    let ctx = contexts.ctx_mut()?;
    let current = tr.code().to_string();
    let mut wanted = None;
    egui::Area::new(egui::Id::new("language-corner"))
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-6.0, 4.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            let shown = languages.catalogs.get(&current).map_or(current.clone(), |c| c.name.clone());
            egui::ComboBox::from_id_salt("lang-corner")
                .width(90.0)
                .selected_text(egui::RichText::new(shown).small())
                .show_ui(ui, |ui| {
                    for c in &languages.catalogs.list {
                        if ui.selectable_label(c.code == current, &c.name).clicked() && c.code != current {
                            wanted = Some(c.code.clone());
                        }
                    }
                })
                .response
                .on_hover_text(tr.t("start-language"));
        });
    if let Some(code) = wanted {
        super::language::switch_language(&code, &mut tr, &mut languages, &session.dir);
    }
    Ok(())
}

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
        super::hud_panels::theme(contexts.ctx_mut()?);
        *done = true;
    }
    Ok(())
}

/// What the banner and the windows need of the session: saves, undo, the Simulate batch and the
/// hot-reloaded data.
#[derive(bevy::ecs::system::SystemParam)]
pub struct SessionUi<'w, 's> {
    pub(super) session: ResMut<'w, super::session::Session>,
    pub(super) sim: ResMut<'w, super::session::SimPanel>,
    pub(super) requests: MessageWriter<'w, super::session::SessionRequest>,
    pub(super) hot: Option<Res<'w, crate::modding::watch::HotData<crate::modding::watch::CombatData>>>,
    pub(super) hot_key: Option<Res<'w, super::battle::HotKey>>,
    pub(super) commands: Commands<'w, 's>,
    /// Why the hovered target of the chosen ability is not valid.
    pub(super) hover: Res<'w, super::input::HoverReason>,
}

impl SessionUi<'_, '_> {
    /// The watched data is this battle's (an encounter battle started from these files).
    pub(super) fn watches(&self, setup: &BattleSetup) -> bool {
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
