//! The `skirmish` command line: `Cli`, parsed by clap from the definitions below (and
//! `sim::cli::SimArgs`, `save::cli::ReplayOptions`), which also write every command's `--help`
//! and the shell completions (`skirmish completions bash`). [`run`] is all of it, for the
//! `skirmish` binary and for a program that adds its own Rust mods (issue 28).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate as skirmish;
use crate::scenario;

/// Print a line to stdout. A closed pipe (`skirmish | head -1`) ends the program quietly
/// instead of panicking as `println!` would.
macro_rules! say {
    ($($arg:tt)*) => {
        write_line(format_args!($($arg)*))
    };
}

/// A tactical combat engine for tabletop-style games: four turn systems on one rules core.
/// Without a command, plays.
#[derive(Debug, Parser)]
#[command(name = "skirmish", args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The commands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Play an encounter under a ruleset, each side human or AI (the default command; without
    /// the `game` feature, runs the shipped scenarios instead)
    Play(PlayArgs),
    /// Run every shipped scenario (tests/scenarios/*.ron), PASS/FAIL per check
    Scenarios,
    /// Run scenario files; prints PASS/FAIL per expectation with its step number; exits 1 if any
    /// fails
    Scenario(ScenarioArgs),
    /// Validate rulesets, scenarios and encounters without running them (file:line:col: message);
    /// exits 1 if any is bad
    Check(CheckArgs),
    /// Re-run a save's or replay's commands from the start
    Replay(skirmish::save::cli::ReplayOptions),
    /// Simulate seeded AI-vs-AI runs of an encounter: statistics, reports, shards, benchmarks
    ///
    /// `sim ENCOUNTER` plays N seeded runs under every ruleset (run k uses seed S + k) and prints
    /// the statistics; `--replay-run k` prints run k's full combat log; `--bench` times the runs;
    /// `--compare-ai A,B` checks one AI tier against another; `sim merge` merges shard outputs.
    Sim(skirmish::sim::cli::SimArgs),
    /// List the installed mods (Rust and data)
    Mods,
    /// Print a shell completion script, e.g. `skirmish completions bash >
    /// ~/.local/share/bash-completion/completions/skirmish`
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

/// The options of `skirmish play`.
#[derive(Debug, Default, Args)]
#[command(args_override_self = true)]
struct PlayArgs {
    /// The encounter file [default: the default encounter]
    #[arg(long, value_name = "FILE")]
    encounter: Option<PathBuf>,
    /// Open the battle at the end of this scenario file's steps (every side played by people
    /// unless --ai says otherwise)
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    /// The ruleset's name, installed or a --mod's [default: homebrew-d20]
    #[arg(long, value_name = "ID")]
    ruleset: Option<String>,
    /// The AI plays this side (repeatable); the others are hot seat
    #[arg(long = "ai", value_name = "SIDE")]
    ai_sides: Vec<String>,
    /// The AI plays every side
    #[arg(long)]
    all_ai: bool,
    /// The dice seed [default: from the clock]
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Skip the start screen
    #[arg(long)]
    now: bool,
    /// Save screenshots (PNG) in DIR, then exit
    #[arg(long, value_name = "DIR")]
    screenshots: Option<PathBuf>,
    /// With --screenshots: exit after N rounds
    #[arg(long, value_name = "N")]
    rounds: Option<u32>,
    /// Load a mod (repeatable): a Rust mod or a data mod folder under mods/ (see docs/modding.md)
    #[arg(long = "mod", value_name = "NAME")]
    mods: Vec<String>,
    /// Open a window at the start (repeatable): saves, simulate (and run it), inspector (F12) or
    /// log; with --screenshots, opening waits for the first opening the GM offers your creatures
    /// and photographs its prompt
    #[arg(long, value_name = "WINDOW", value_parser = ["saves", "simulate", "inspector", "log", "opening"])]
    open: Vec<String>,
    /// Who holds the game master's seat: the AI (its policy opens openings) or a person here (the
    /// GM window, with the policy's openings as suggestions)
    #[arg(long, value_name = "WHO", value_parser = ["ai", "human"], default_value = "ai")]
    gm: String,
    /// The game's language (en, es, ko, or the code of a catalog under assets/i18n/) [default:
    /// saves/settings.ron, else LC_ALL/LC_MESSAGES/LANG, else English]. The command line itself
    /// stays in English.
    #[arg(long, value_name = "CODE")]
    lang: Option<String>,
    /// The board's view to start in: 2d, or 3d with an orbiting camera (V switches at any moment)
    /// [default: saves/settings.ron, else 2d]
    #[arg(long, value_name = "VIEW", value_parser = ["2d", "3d"])]
    view: Option<String>,
}

/// The options of `skirmish scenario`.
#[derive(Debug, Args)]
#[command(args_override_self = true)]
struct ScenarioArgs {
    /// The scenario files
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Override each file's seed
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Print the combat log, one event per line
    #[arg(long)]
    log: bool,
    /// Write each run's replay: to PATH for one scenario, else into the folder PATH
    #[arg(long, value_name = "PATH")]
    replay_out: Option<PathBuf>,
    /// Load a mod (repeatable): a Rust mod or a data mod folder under mods/ (see docs/modding.md)
    #[arg(long = "mod", value_name = "NAME")]
    mods: Vec<String>,
}

/// The arguments of `skirmish check`.
#[derive(Debug, Args)]
struct CheckArgs {
    /// Ruleset, scenario or encounter files, or mod folders (mods/NAME, checked whole)
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// The whole `skirmish` program (every command and the game) with the Rust mods of `registry`:
/// `--mod NAME`, scenario files, saves, the simulator and the game's start screen all know them,
/// and `skirmish mods` lists them. The `skirmish` binary is `run(ModRegistry::builtin())`; a
/// mod crate's binary is the same line with `.with(ItsMod)` (see `docs/modding.md`). Reads the
/// command line itself, and returns the exit code.
pub fn run(registry: crate::modding::ModRegistry) -> ExitCode {
    registry.make_current();
    // A mod crate's program (`rally`) names itself in `--help`, usage lines and completions.
    let name = std::env::args_os()
        .next()
        .and_then(|p| Path::new(&p).file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "skirmish".to_string());
    let name: &'static str = Box::leak(name.into_boxed_str());
    let matches = Cli::command().name(name).bin_name(name).get_matches();
    let cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    match cli.command {
        None => play(PlayArgs::default()),
        Some(Command::Play(o)) => play(o),
        Some(Command::Scenarios) => run_scenarios(&shipped_scenarios(), None, false, None, &[]),
        Some(Command::Replay(o)) => match skirmish::save::cli::replay(&o, &mut |l| say!("{l}")) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Mods) => {
            for line in skirmish::modding::describe_installed(&skirmish::modding::mods_dir()) {
                say!("{line}");
            }
            ExitCode::SUCCESS
        }
        Some(Command::Scenario(o)) => {
            check_mod_names("scenario", &o.mods);
            run_scenarios(&o.files, o.seed, o.log, o.replay_out.as_deref(), &o.mods)
        }
        Some(Command::Sim(o)) => match skirmish::sim::cli::main(o) {
            Ok(code) => code,
            Err(e) => usage_error("sim", &e),
        },
        Some(Command::Check(o)) => {
            let mut ok = true;
            let mod_dirs: Vec<PathBuf> = o.files.iter().filter(|f| f.is_dir()).cloned().collect();
            for f in &o.files {
                // A folder is a data mod (one without a mod.ron is told so).
                if f.is_dir() {
                    match skirmish::modding::data::check_mod(f) {
                        Ok(lines) => lines.iter().for_each(|l| say!("{l}")),
                        Err(e) => {
                            ok = false;
                            eprintln!("{e}");
                        }
                    }
                    continue;
                }
                match scenario::check_file(f) {
                    Ok(msg) => say!("{msg}"),
                    Err(e) => {
                        ok = false;
                        eprintln!("{e}");
                    }
                }
            }
            // Several mods: also as they load together (issue 28: a conflict between two mods
            // checked one at a time went unseen).
            if ok && mod_dirs.len() > 1 {
                match skirmish::modding::data::check_together(&mod_dirs) {
                    Ok(lines) => lines.iter().for_each(|l| say!("{l}")),
                    Err(e) => {
                        ok = false;
                        eprintln!("{e}");
                    }
                }
            }
            if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Some(Command::Completions { shell }) => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command().name(name), name, &mut script);
            say!("{}", String::from_utf8_lossy(&script).trim_end());
            ExitCode::SUCCESS
        }
    }
}

/// A usage error that clap's definitions cannot express, reported as clap reports its own (with
/// the subcommand's usage line): exits 2.
fn usage_error(subcommand: &str, msg: &str) -> ! {
    let mut cli = Cli::command();
    cli.build();
    let kind = clap::error::ErrorKind::ValueValidation;
    match cli.find_subcommand_mut(subcommand) {
        Some(cmd) => cmd.error(kind, msg).exit(),
        None => cli.error(kind, msg).exit(),
    }
}

/// `--mod NAME`: a mod's name, never a path (refused before anything is loaded).
fn check_mod_names(subcommand: &str, mods: &[String]) {
    for m in mods {
        if let Err(why) = skirmish::modding::data::check_mod_name(m) {
            usage_error(subcommand, &format!("--mod: {why}"));
        }
    }
}

fn write_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("skirmish: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

/// `skirmish play`: open the game (or say why it can't).
fn play(a: PlayArgs) -> ExitCode {
    #[cfg(feature = "game")]
    {
        check_mod_names("play", &a.mods);
        let o = skirmish::game::PlayOptions {
            encounter: a.encounter,
            ruleset: a.ruleset,
            ai_sides: a.ai_sides,
            all_ai: a.all_ai,
            seed: a.seed,
            start_now: a.now,
            screenshots: a.screenshots,
            scenario: a.scenario,
            exit_after_rounds: a.rounds,
            mods: a.mods,
            open: a.open,
            gm_human: a.gm == "human",
            lang: a.lang,
            view: a.view.as_deref().and_then(skirmish::game::ViewMode::from_code),
        };
        // Bad files are reported before a window opens, in the same words the start screen uses.
        let lib = skirmish::game::library::Library::scan(&skirmish::game::library::assets_root());
        if let Some(f) = &o.encounter
            && let Err(e) = skirmish::encounter::Encounter::load(f)
        {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
        let loaded = match skirmish::modding::load_mods(
            &skirmish::modding::ModRegistry::current(),
            &skirmish::modding::mods_dir(),
            &o.mods,
        ) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("skirmish: {e}");
                return ExitCode::FAILURE;
            }
        };
        // A data mod's own ruleset (`--mod example-pf2e-variant --ruleset pf2e-variant`) counts.
        if let Some(r) = &o.ruleset
            && lib.ruleset(r).is_none()
            && !loaded.data.rulesets.contains_key(r.as_str())
        {
            let known: Vec<&str> = lib.rulesets.iter().map(|(n, _)| n.as_str()).collect();
            let from_mods: Vec<&str> = loaded.data.rulesets.keys().map(String::as_str).collect();
            let from_mods =
                if from_mods.is_empty() { String::new() } else { format!("; from the mods: {}", from_mods.join(", ")) };
            eprintln!(
                "skirmish: no ruleset `{r}` (installed: {}{from_mods}). {}",
                known.join(", "),
                skirmish::sim::unknown_ruleset_hint(&o.mods)
            );
            return ExitCode::FAILURE;
        }
        match skirmish::game::run(o) {
            bevy::app::AppExit::Success => ExitCode::SUCCESS,
            bevy::app::AppExit::Error(_) => ExitCode::FAILURE,
        }
    }
    #[cfg(not(feature = "game"))]
    {
        let _ = a;
        eprintln!("skirmish: built without the `game` feature: no window. Running the shipped scenarios instead.");
        run_scenarios(&shipped_scenarios(), None, false, None, &[])
    }
}

/// Every `.ron` file under `tests/scenarios/`, sorted.
fn shipped_scenarios() -> Vec<PathBuf> {
    let dir =
        [Path::new("tests/scenarios").to_path_buf(), Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")]
            .into_iter()
            .find(|d| d.is_dir());
    let Some(dir) = dir else { return Vec::new() };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn run_scenarios(
    files: &[PathBuf],
    seed: Option<u64>,
    show_log: bool,
    replay_out: Option<&Path>,
    mods: &[String],
) -> ExitCode {
    if files.is_empty() {
        eprintln!("skirmish: no scenario files found");
        return ExitCode::FAILURE;
    }
    let (mut passed, mut failed, mut broken) = (0, 0, 0);
    // Several scenarios write their replays into a folder: make it.
    if let Some(out) = replay_out
        && files.len() > 1
        && let Err(e) = std::fs::create_dir_all(out)
    {
        eprintln!("skirmish: cannot make the folder {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    // Where each scenario's replay goes, checked before any scenario runs: never a device, a
    // FIFO, a folder or a link, never one of the scenario files, never two replays in one file.
    let replay_paths: Vec<Option<PathBuf>> = files
        .iter()
        .map(|f| {
            replay_out.map(|out| {
                if files.len() == 1 && !out.is_dir() {
                    out.to_path_buf()
                } else {
                    let stem = f.file_stem().map_or("scenario".into(), |s| s.to_string_lossy().into_owned());
                    out.join(format!("{stem}.replay.ron"))
                }
            })
        })
        .collect();
    let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let outputs: Vec<&Path> = replay_paths.iter().flatten().map(PathBuf::as_path).collect();
    if let Err(e) = skirmish::outfile::check_targets(&outputs, &inputs) {
        eprintln!("skirmish: --replay-out: {e}");
        return ExitCode::FAILURE;
    }
    // A file already there is replaced only if it is a save or replay itself: a scenario's
    // ruleset, encounter or any other data file named by mistake is kept.
    if let Some(p) = outputs.iter().find(|p| p.is_file() && skirmish::save::read(p).is_err()) {
        eprintln!(
            "skirmish: --replay-out: {}: refusing to replace it: it exists and is not a save or replay file",
            p.display()
        );
        return ExitCode::FAILURE;
    }
    for (f, replay_path) in files.iter().zip(&replay_paths) {
        let ls = match scenario::load_with_mods(f, mods) {
            Ok(ls) => ls,
            Err(e) => {
                eprintln!("{e}");
                broken += 1;
                continue;
            }
        };
        let (report, combat) = scenario::run_keeping(&ls, seed);
        say!("{} — {}", f.display(), report.name);
        if let (Some(path), Some(combat)) = (replay_path, &combat) {
            match skirmish::save::export_replay_beside(combat, &report.name, path, &inputs) {
                Ok(()) => say!("  replay written to {}", path.display()),
                Err(e) => {
                    eprintln!("{e}");
                    broken += 1;
                }
            }
        }
        if !ls.scenario.description.is_empty() {
            say!("  {}", ls.scenario.description);
        }
        if show_log {
            for line in &report.log_text {
                say!("    | {line}");
            }
        }
        for c in &report.checks {
            match &c.failure {
                None => {
                    passed += 1;
                    say!("  PASS step {}: {}", c.step, c.what);
                }
                Some(why) => {
                    failed += 1;
                    say!("  FAIL step {}: {} — {why}", c.step, c.what);
                }
            }
        }
    }
    say!("{passed} passed, {failed} failed ({} files, {broken} could not be loaded)", files.len());
    if failed == 0 && broken == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own checks of the definitions: no two options of one name, value names, required
    /// arguments after optional ones, and the like.
    #[test]
    fn the_command_line_definitions_are_consistent() {
        super::Cli::command().debug_assert();
    }
}
