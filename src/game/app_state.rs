//! The game's shared state, below every other game module: which screen is up, what the command
//! line asked for, and what the player has chosen.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::rules::components::Cid;

/// The screens of the game.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Pick an encounter, a ruleset and who plays each side.
    #[default]
    Start,
    /// The fight.
    Battle,
    /// Victory, defeat or draw.
    End,
}

/// What `skirmish play` (or a plain `skirmish`) was asked for.
#[derive(Resource, Debug, Clone, Default)]
pub struct PlayOptions {
    /// The encounter file; none = the default encounter.
    pub encounter: Option<PathBuf>,
    /// The ruleset's name; none = homebrew-d20.
    pub ruleset: Option<String>,
    /// Sides the AI plays; the others are played by people at this screen (hot seat).
    pub ai_sides: Vec<String>,
    /// Every side is played by the AI.
    pub all_ai: bool,
    /// The dice seed; none = from the clock.
    pub seed: Option<u64>,
    /// Skip the start screen.
    pub start_now: bool,
    /// Save screenshots here, then exit (see [`super::shots`]).
    pub screenshots: Option<PathBuf>,
    /// Open the battle at the end of this scenario file's steps (every side played by people
    /// unless `ai_sides` says otherwise).
    pub scenario: Option<PathBuf>,
    /// With `screenshots`: exit once this many rounds have been played.
    pub exit_after_rounds: Option<u32>,
    /// Mods to load by name (`--mod`), in order: see `skirmish::modding::load_mods`.
    pub mods: Vec<String>,
    /// Windows to open when the battle starts (`--open`): `saves`, `simulate` (which also
    /// starts a batch), `inspector`, `log`.
    pub open: Vec<String>,
    /// A person holds the GM's seat (`--gm human`): the GM window, prompts for the GM's
    /// decisions, and the policy's openings as suggestions.
    pub gm_human: bool,
    /// `play --lang en|es|ko`: the language for this run (else the settings file, the
    /// environment, English).
    pub lang: Option<String>,
    /// `play --view 2d|3d`: the board's view to start in (else the settings file, else 2D).
    pub view: Option<ViewMode>,
}

/// How the board is drawn (issue 23): from above in 2D, or as a 3D scene with an orbiting camera.
/// One battle, two views: both read the same battle, playback and highlights, and `V` switches at
/// any moment.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ViewMode {
    /// The flat board.
    #[default]
    TwoD,
    /// The 3D scene.
    ThreeD,
}

impl ViewMode {
    /// The other view.
    pub(crate) fn toggled(self) -> Self {
        match self {
            ViewMode::TwoD => ViewMode::ThreeD,
            ViewMode::ThreeD => ViewMode::TwoD,
        }
    }

    /// `2d` or `3d`, as `play --view` and the settings file spell it.
    pub(crate) fn code(self) -> &'static str {
        match self {
            ViewMode::TwoD => "2d",
            ViewMode::ThreeD => "3d",
        }
    }

    /// The view `play --view` names: `2d` or `3d`.
    pub(crate) fn from_code(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "2d" => Some(ViewMode::TwoD),
            "3d" => Some(ViewMode::ThreeD),
            _ => None,
        }
    }
}

/// The player's current choice.
#[derive(Resource, Debug, Default, Clone)]
pub struct Selection {
    /// The ability chosen, if any.
    pub ability: Option<String>,
    /// The target picked with Tab, by index into the valid targets.
    pub target: Option<Cid>,
}

/// Where saves and the settings file go: `saves/` in the working directory.
pub(crate) fn saves_dir() -> PathBuf {
    PathBuf::from("saves")
}
