//! The game's language (issue 24): which one it starts in, switching at any moment, and the
//! Hangul-capable font behind egui and the board's text.
//!
//! - At start: `play --lang`, else `saves/settings.ron`, else `LC_ALL`/`LC_MESSAGES`/`LANG`, else
//!   English ([`crate::i18n::Settings`]). The catalogs are the built-in ones plus any
//!   `assets/i18n/*.ftl`.
//! - The start screen's selector calls [`switch_language`]: the [`Tr`] resource is replaced (every
//!   screen reads it each frame, the log view rebuilds its sentences) and the choice is written to
//!   the settings file. Nothing restarts, mid-battle included.
//! - Fonts: Nanum Gothic (`assets/fonts/NanumGothic.ttf`, SIL OFL 1.1) is added to egui's
//!   families as the last fallback, so Latin text keeps egui's own fonts; on the board a text
//!   with a character outside Latin uses it, and the rest keeps Bevy's default font.

use std::sync::Arc;

use bevy::prelude::*;

use crate::i18n::{Catalogs, Settings, Tr, language_from_env};

use super::app_state::PlayOptions;

/// The Hangul-capable font, built in.
#[cfg(feature = "game")]
pub const HANGUL_FONT: &[u8] = include_bytes!("../../assets/fonts/NanumGothic.ttf");

/// Every language there is, and what went wrong reading catalog files.
#[derive(Resource, Debug, Clone)]
pub struct Languages {
    /// The catalogs.
    pub catalogs: Arc<Catalogs>,
    /// The last note about the language: a broken catalog or settings file, or a settings file
    /// that could not be written. Shown on the start screen.
    pub note: Option<String>,
}

/// The language to start in: `--lang`, the settings file, the environment, English. Unknown
/// codes fall through to the next source (with a note).
pub(crate) fn starting_language(
    options_lang: Option<&str>,
    settings: &Result<Settings, String>,
    env: &dyn Fn(&str) -> Option<String>,
    available: &[String],
) -> (String, Option<String>) {
    let mut note = None;
    if let Some(l) = options_lang {
        if available.iter().any(|c| c == l) {
            return (l.to_string(), None);
        }
        note = Some(format!("--lang {l}: no such language ({})", available.join(", ")));
    }
    match settings {
        Ok(Settings { lang: Some(l), .. }) if available.iter().any(|c| c == l) => return (l.clone(), note),
        Ok(_) => {}
        Err(e) => note = Some(e.clone()),
    }
    (language_from_env(env, available).unwrap_or_else(|| crate::i18n::FALLBACK.to_string()), note)
}

/// Startup: read the catalogs and settings and put the starting language in place.
pub(crate) fn setup_language(mut commands: Commands, options: Res<PlayOptions>) {
    let catalogs = Arc::new(Catalogs::load(&super::library::assets_root().join("i18n")));
    let settings = Settings::load(&super::app_state::saves_dir());
    let env = |k: &str| std::env::var(k).ok();
    let (code, mut note) = starting_language(options.lang.as_deref(), &settings, &env, &catalogs.codes());
    if !catalogs.errors.is_empty() {
        let errors = catalogs.errors.iter().map(|e| e.to_string());
        note = Some(note.into_iter().chain(errors).collect::<Vec<_>>().join("\n"));
    }
    commands.insert_resource(Tr::new(catalogs.clone(), &code));
    commands.insert_resource(Languages { catalogs, note });
}

/// Switch to `code` now and keep the choice in the settings file.
pub(crate) fn switch_language(code: &str, tr: &mut Tr, languages: &mut Languages, saves_dir: &std::path::Path) {
    *tr = Tr::new(languages.catalogs.clone(), code);
    // The other settings (the view) stay as they were; a file that does not read is left alone
    // (the start screen shows why).
    languages.note = match Settings::load(saves_dir) {
        Ok(mut settings) => {
            settings.lang = Some(code.to_string());
            settings.save(saves_dir).err()
        }
        Err(e) => Some(e),
    };
}

/// Once: Nanum Gothic as egui's last fallback in both families.
#[cfg(feature = "game")]
pub(crate) fn install_egui_font(mut contexts: bevy_egui::EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    contexts.ctx_mut()?.add_font(hangul_fallback());
    *done = true;
    Ok(())
}

/// Nanum Gothic as the last fallback of both of egui's families: what the game installs (and
/// the HUD benchmark, to measure what the game draws).
#[cfg(feature = "game")]
pub fn hangul_fallback() -> bevy_egui::egui::epaint::text::FontInsert {
    use bevy_egui::egui;
    let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
        .into_iter()
        .map(|family| egui::epaint::text::InsertFontFamily {
            family,
            priority: egui::epaint::text::FontPriority::Lowest,
        })
        .collect();
    egui::epaint::text::FontInsert::new("NanumGothic", egui::FontData::from_static(HANGUL_FONT), families)
}

/// The board's font for Hangul (and anything else outside Latin).
#[derive(Resource, Debug, Clone, Default)]
pub struct BoardFonts {
    /// Nanum Gothic.
    pub hangul: Handle<Font>,
}

/// Startup: Nanum Gothic as a font asset for the board.
#[cfg(feature = "game")]
pub(crate) fn load_board_font(mut commands: Commands, mut fonts: ResMut<Assets<Font>>) {
    let hangul = fonts.add(Font::from_bytes(HANGUL_FONT.to_vec()));
    commands.insert_resource(BoardFonts { hangul });
}

impl BoardFonts {
    /// The font for a board text: Nanum Gothic if it has a character outside ASCII (Bevy's
    /// built-in font is a subset with ASCII only: `á`, `¡` or Hangul would be missing), else
    /// Bevy's default, so plain Latin text keeps its look.
    pub(crate) fn for_text(&self, text: &str) -> Handle<Font> {
        if !text.is_ascii() { self.hangul.clone() } else { Handle::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_language_is_the_flag_then_the_settings_then_the_environment() {
        let have: Vec<String> = ["en", "es", "ko"].iter().map(|s| s.to_string()).collect();
        let env_ko = |k: &str| (k == "LANG").then(|| "ko_KR.UTF-8".to_string());
        let none = |_: &str| None;
        let es = Ok(Settings { lang: Some("es".into()), view: None });
        let unset = Ok(Settings::default());
        assert_eq!(starting_language(Some("ko"), &es, &none, &have).0, "ko");
        assert_eq!(starting_language(None, &es, &env_ko, &have).0, "es");
        assert_eq!(starting_language(None, &unset, &env_ko, &have).0, "ko");
        assert_eq!(starting_language(None, &unset, &none, &have).0, "en");
        let (code, note) = starting_language(Some("fr"), &unset, &none, &have);
        assert_eq!(code, "en");
        assert!(note.unwrap().contains("--lang fr"));
        let (code, note) = starting_language(None, &Err("saves/settings.ron:1:2: bad".into()), &env_ko, &have);
        assert_eq!(code, "ko");
        assert!(note.unwrap().contains("settings.ron:1:2"));
    }
}
