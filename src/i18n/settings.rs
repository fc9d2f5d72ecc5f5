//! The player's settings, kept beside the saves: `saves/settings.ron`: the language and the
//! board's view (2D or 3D).
//!
//! Which language the game starts in: `play --lang` if given, else the settings file, else the
//! environment (`LC_ALL`, then `LC_MESSAGES`, then `LANG`: `ko_KR.UTF-8` is Korean), else English.
//! Choosing a language on the start screen writes the file (atomically); `--lang` does not.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What `saves/settings.ron` holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The language's code (`en`, `es`, `ko`); none: from the environment.
    #[serde(default)]
    pub lang: Option<String>,
    /// The board's view, `2d` or `3d` (issue 23); none: 2D.
    #[serde(default)]
    pub view: Option<String>,
}

impl Settings {
    /// The file in a saves folder.
    pub fn path(saves_dir: &Path) -> PathBuf {
        saves_dir.join("settings.ron")
    }

    /// Read the settings; a missing file is the defaults, an unreadable one is its
    /// `file:line:col` error (the game then keeps the defaults and says so).
    pub fn load(saves_dir: &Path) -> Result<Settings, String> {
        let path = Self::path(saves_dir);
        if !path.exists() {
            return Ok(Settings::default());
        }
        let text = crate::rules::data::read_data_file(&path).map_err(|e| e.to_string())?;
        crate::rules::data::parse_ron::<Settings>(&path.display().to_string(), &text).map_err(|e| e.to_string())
    }

    /// Write the settings atomically (a crash leaves the old file or the new one, never half).
    pub fn save(&self, saves_dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(saves_dir).map_err(|e| format!("{}: {e}", saves_dir.display()))?;
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())?;
        crate::outfile::write_atomic(&Self::path(saves_dir), format!("{text}\n").as_bytes(), &[])
    }
}

/// The language the environment asks for, as a code of `available`: `LC_ALL`, then
/// `LC_MESSAGES`, then `LANG`, each read as `ll[_CC][.charset][@mod]`. `C`, `POSIX` or a
/// language the game lacks: none.
pub fn language_from_env(get: &dyn Fn(&str) -> Option<String>, available: &[String]) -> Option<String> {
    for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        let Some(v) = get(var).filter(|v| !v.is_empty()) else { continue };
        // The first variable set decides (POSIX), even when it names a language we lack.
        let base = v.split(['.', '@']).next().unwrap_or("");
        let lang = base.split(['_', '-']).next().unwrap_or("").to_lowercase();
        return available
            .iter()
            .find(|c| c.eq_ignore_ascii_case(base.replace('_', "-").as_str()) || **c == lang)
            .cloned();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_environment_picks_a_language_lc_all_first() {
        let have: Vec<String> = ["en", "es", "ko"].iter().map(|s| s.to_string()).collect();
        assert_eq!(language_from_env(&env(&[("LANG", "ko_KR.UTF-8")]), &have).as_deref(), Some("ko"));
        assert_eq!(
            language_from_env(&env(&[("LANG", "ko_KR.UTF-8"), ("LC_ALL", "es_ES")]), &have).as_deref(),
            Some("es")
        );
        assert_eq!(
            language_from_env(&env(&[("LC_MESSAGES", "es_MX.UTF-8@x"), ("LANG", "ko")]), &have).as_deref(),
            Some("es")
        );
        assert_eq!(language_from_env(&env(&[("LC_ALL", "C"), ("LANG", "ko")]), &have), None);
        assert_eq!(language_from_env(&env(&[("LANG", "")]), &have), None);
        assert_eq!(language_from_env(&env(&[("LANG", "fr_FR.UTF-8")]), &have), None);
    }

    #[test]
    fn settings_round_trip_and_a_broken_file_names_its_position() {
        let dir = std::env::temp_dir().join(format!("skirmish-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(Settings::load(&dir).unwrap(), Settings::default());
        let s = Settings { lang: Some("ko".into()), view: Some("3d".into()) };
        s.save(&dir).unwrap();
        assert_eq!(Settings::load(&dir).unwrap(), s);
        std::fs::write(Settings::path(&dir), "(lang: Some(\"ko\"), colour: 3)\n").unwrap();
        let e = Settings::load(&dir).unwrap_err();
        assert!(e.contains("settings.ron:1:") && e.contains("colour"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
