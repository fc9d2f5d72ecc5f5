//! The playable battlefield: a 2D grid, tokens, leafwing input, the built-in AI as opponent, and
//! encounters as data (`assets/encounters/*.ron`) under any installed ruleset.
//!
//! The rules stay in `src/rules/`, headless. A battle owns one [`Combat`](crate::rules::driver::Combat),
//! the same driver the scenario runner, the simulator and the tests use: the game only sends it
//! `Command`s (from the player's input, the prompts and the AI) and reads its status, pending
//! decision and log. Nothing here writes rules state.
//!
//! Plugins:
//! - [`GameLogicPlugin`]: screens, the battle, pacing and AI turns, the player's input turned into
//!   commands. No window, renderer or egui: headless tests and benchmarks run it on
//!   `MinimalPlugins`.
//! - [`view::ViewPlugin`]: the board, tokens, highlights, camera and the cursor.
//! - [`screens::ScreensPlugin`]: the egui start screen, the battle HUD ([`hud_panels`]: tracker, card, ability bar,
//!   log), decision prompts, the F12 inspector ([`inspector`]) and the end screen.
//! - [`shots::ShotsPlugin`]: screenshots for `scripts/screenshots.sh`.
//! - [`session`]: saves, quick save and load, undo and redo, the Simulate window's background
//!   batch, and the hot-reloaded encounter, ruleset and mods the next battle starts from.

pub mod app_state;
pub mod battle;
pub mod from_scenario;
pub mod hud_panels;
pub mod input;
pub mod inspector;
pub mod language;
pub mod library;
pub mod screens;
pub mod session;
pub mod setup;
pub mod shots;
pub mod view;
pub mod view3d;

use bevy::prelude::*;
use leafwing_input_manager::prelude::InputManagerPlugin;

pub use app_state::{PlayOptions, Screen, Selection, ViewMode};
pub use battle::{Battle, HumanCommand, Pacing, Policies, Policy};
pub use input::GameAction;
pub use setup::{BattleSetup, SideControl};

/// Everything but the window, the renderer and egui: screens, the battle, pacing, AI turns and the
/// player's input. Needs `StatesPlugin` and `InputPlugin` (both in `DefaultPlugins`).
pub struct GameLogicPlugin;

impl Plugin for GameLogicPlugin {
    fn build(&self, app: &mut App) {
        // `play --gm human`: a person holds the GM's seat from the start.
        let human_gm = app.world().get_resource::<PlayOptions>().is_some_and(|o| o.gm_human);
        app.insert_resource(battle::GmSeat(human_gm));
        app.init_state::<Screen>()
            .add_plugins(InputManagerPlugin::<GameAction>::default())
            .init_resource::<PlayOptions>()
            .init_resource::<Pacing>()
            .init_resource::<Policies>()
            .init_resource::<Selection>()
            .init_resource::<input::CursorCell>()
            .init_resource::<battle::Playback>()
            .init_resource::<battle::Highlights>()
            .init_resource::<battle::HumanQueue>()
            .init_resource::<session::Session>()
            .init_resource::<session::SimPanel>()
            .init_resource::<input::TypingInUi>()
            .init_resource::<input::HoverReason>()
            .init_resource::<input::PointerDrag>()
            .init_resource::<app_state::ViewMode>()
            .add_message::<HumanCommand>()
            .add_message::<battle::BattleStarted>()
            .add_message::<session::SessionRequest>()
            .add_plugins(crate::modding::watch::HotReloadPlugin)
            .add_systems(
                Startup,
                (language::setup_language, library::load_library, input::spawn_input, battle::apply_options).chain(),
            )
            .add_systems(OnEnter(Screen::Battle), battle::start_battle)
            .add_systems(
                PreUpdate,
                input::keep_quick_presses
                    .after(leafwing_input_manager::plugin::InputManagerSystem::Unify)
                    .before(leafwing_input_manager::plugin::InputManagerSystem::Update),
            )
            .add_systems(
                Update,
                (
                    input::track_drag,
                    input::handle_input,
                    input::hover_reason,
                    session::open_windows,
                    battle::drive,
                    battle::advance_playback,
                    battle::update_highlights,
                    battle::finish_when_over,
                )
                    .chain()
                    .run_if(in_state(Screen::Battle)),
            )
            // Undo, redo, saves and loads: on the end screen too (take back the move that lost).
            .add_systems(
                Update,
                (session::on_battle_started, session::session_keys, session::apply_requests, session::poll_sim)
                    .chain()
                    .before(input::handle_input)
                    .run_if(in_state(Screen::Battle).or_else(in_state(Screen::End))),
            );
    }
}

/// Open the game window and play.
pub(crate) fn run(options: PlayOptions) -> AppExit {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title: "skirmish".into(), resolution: (1280, 800).into(), ..default() }),
        ..default()
    }))
    .add_plugins(bevy_egui::EguiPlugin::default())
    // egui draws with its own camera (view::UiCamera), over whichever view draws the board.
    .insert_resource(bevy_egui::EguiGlobalSettings { auto_create_primary_context: false, ..default() })
    .insert_resource(ClearColor(Color::srgb(0.07, 0.08, 0.10)))
    .insert_resource(options)
    .add_plugins((GameLogicPlugin, view::ViewPlugin, view3d::View3dPlugin, screens::ScreensPlugin, shots::ShotsPlugin))
    .add_plugins(bevy_inspector_egui::DefaultInspectorConfigPlugin)
    // Hangul for egui and the board (issue 24).
    .add_systems(Startup, language::load_board_font)
    .add_systems(bevy_egui::EguiPrimaryContextPass, language::install_egui_font)
    // The built-in mods' component types, for the F12 inspector (their systems are installed
    // into each combat that loads them, not into the app).
    .add_plugins(crate::rules::modding::ModPlugin(
        crate::modding::ModRegistry::current()
            .list(&crate::modding::ModRegistry::current().names())
            .unwrap_or_default(),
    ));
    inspector::register_rules_types(&mut app);
    app.run()
}
