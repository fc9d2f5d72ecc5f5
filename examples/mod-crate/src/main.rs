//! The `rally` program: every skirmish command (`play`, `scenario`, `sim`, `check`, `replay`,
//! `mods`) with the `rally` mod registered, so `--mod rally`, scenario files, saves and the game's
//! start screen know it.

fn main() -> std::process::ExitCode {
    skirmish::run(skirmish::modding::ModRegistry::builtin().with(rally::RallyMod))
}
