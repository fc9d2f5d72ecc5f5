//! The `skirmish` command line.
//!
//! ```text
//! skirmish                       play (the game window; without the `game` feature, the scenarios)
//! skirmish play [OPTIONS]        play an encounter under a ruleset, each side human or AI
//! skirmish scenarios             run every shipped scenario (tests/scenarios/*.ron)
//! skirmish scenario FILE...      run scenario files; exits 1 if any expectation fails
//! skirmish check FILE...         validate rulesets, scenarios and encounters without running them
//! skirmish replay FILE           re-run a save's or replay's commands (--verify, --log)
//! skirmish sim ENCOUNTER ...      simulate seeded AI-vs-AI runs (see `skirmish::sim::cli`)
//! skirmish mods                  list the installed mods (Rust and data)
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use skirmish::scenario;

/// mimalloc: faster than the system allocator on the simulator's many small buffers (see
/// `docs/performance.md`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Print a line to stdout. A closed pipe (`skirmish | head -1`) ends the program quietly
/// instead of panicking as `println!` would.
macro_rules! say {
    ($($arg:tt)*) => {
        write_line(format_args!($($arg)*))
    };
}

const USAGE: &str = "usage:
  skirmish                           play: the default encounter, your side against the AI
  skirmish play [--encounter FILE | --scenario FILE] [--ruleset ID] [--ai SIDE]... [--all-ai] [--seed N] [--now]
                [--screenshots DIR [--rounds N]] [--mod NAME]... [--open WINDOW]...
                                     play an encounter under a ruleset; --ai makes the AI play
                                     a side (the others are hot seat); --now skips the start
                                     screen; --screenshots saves PNGs and exits after N rounds;
                                     --open opens a window at the start: saves, simulate (and
                                     runs it), inspector (F12) or log
  skirmish scenarios                 run every shipped scenario under tests/scenarios/
  skirmish scenario [--seed N] [--log] [--replay-out PATH] [--mod NAME]... FILE...
                                     run scenario files; prints PASS/FAIL per expectation
                                     with its step number; exits 1 if any fails; --replay-out
                                     writes each run's replay (PATH: a file for one scenario,
                                     else a folder); --mod loads a mod (Rust or data, see
                                     docs/modding.md)
  skirmish replay FILE [--verify] [--log]
                                     re-run a save's or replay's commands from the start;
                                     --verify checks its hashes and names the first command
                                     where they diverge; --log prints each command's events
  skirmish check FILE...             validate rulesets and scenarios (file:line:col: message);
                                     a mod folder (mods/NAME) is checked whole
  skirmish sim ENCOUNTER [OPTIONS]   simulate AI-vs-AI runs: statistics, reports, shards
                                     (`skirmish sim help` lists the options)
  skirmish mods                      list the installed mods
  skirmish help                      this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => play(&[]),
        Some("play") => play(&args[1..]),
        Some("scenarios") => run_scenarios(&shipped_scenarios(), None, false, None, &[]),
        Some("replay") => match skirmish::save::cli::ReplayOptions::parse(&args[1..]) {
            Err(e) => usage_error(&e),
            Ok(o) => match skirmish::save::cli::replay(&o, &mut |l| say!("{l}")) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            },
        },
        Some("mods") => {
            for line in skirmish::modding::describe_installed(&skirmish::modding::mods_dir()) {
                say!("{line}");
            }
            ExitCode::SUCCESS
        }
        Some("scenario") => {
            let mut seed = None;
            let mut log = false;
            let mut replay_out = None;
            let mut files = Vec::new();
            let mut mods = Vec::new();
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--seed" => match it.next().and_then(|s| s.parse().ok()) {
                        Some(s) => seed = Some(s),
                        None => return usage_error("--seed needs a whole number"),
                    },
                    "--log" => log = true,
                    "--replay-out" => match it.next() {
                        Some(p) => replay_out = Some(PathBuf::from(p)),
                        None => return usage_error("--replay-out needs a file or folder"),
                    },
                    "--mod" => match it.next() {
                        Some(m) => match skirmish::modding::data::check_mod_name(m) {
                            Ok(()) => mods.push(m.clone()),
                            Err(why) => return usage_error(&format!("--mod: {why}")),
                        },
                        None => return usage_error("--mod needs a mod name"),
                    },
                    f if f.starts_with("--") => return usage_error(&format!("unknown option {f}")),
                    f => files.push(PathBuf::from(f)),
                }
            }
            if files.is_empty() {
                return usage_error("name at least one scenario file");
            }
            run_scenarios(&files, seed, log, replay_out.as_deref(), &mods)
        }
        Some("sim") => skirmish::sim::cli::main(&args[1..]),
        Some("check") => {
            if args.len() < 2 {
                return usage_error("name at least one file to check");
            }
            let mut ok = true;
            for f in &args[1..] {
                // A folder is a data mod (one without a mod.ron is told so).
                if Path::new(f).is_dir() {
                    match skirmish::modding::data::check_mod(Path::new(f)) {
                        Ok(lines) => lines.iter().for_each(|l| say!("{l}")),
                        Err(e) => {
                            ok = false;
                            eprintln!("{e}");
                        }
                    }
                    continue;
                }
                match scenario::check_file(Path::new(f)) {
                    Ok(msg) => say!("{msg}"),
                    Err(e) => {
                        ok = false;
                        eprintln!("{e}");
                    }
                }
            }
            if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Some("help" | "--help" | "-h") => {
            say!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown command `{other}`")),
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

/// `skirmish play`: parse the options and open the game (or say why it can't).
fn play(args: &[String]) -> ExitCode {
    #[cfg(feature = "game")]
    {
        let mut o = skirmish::game::PlayOptions::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |what: &str| it.next().cloned().ok_or_else(|| format!("{a} needs {what}"));
            let r: Result<(), String> = (|| {
                match a.as_str() {
                    "--encounter" => o.encounter = Some(PathBuf::from(value("a file")?)),
                    "--scenario" => o.scenario = Some(PathBuf::from(value("a scenario file")?)),
                    "--ruleset" => o.ruleset = Some(value("a ruleset name")?),
                    "--ai" => o.ai_sides.push(value("a side")?),
                    "--all-ai" => o.all_ai = true,
                    "--now" => o.start_now = true,
                    "--mod" => {
                        let m = value("a mod name")?;
                        skirmish::modding::data::check_mod_name(&m).map_err(|why| format!("--mod: {why}"))?;
                        o.mods.push(m)
                    }
                    "--open" => {
                        let w = value("a window: saves, simulate, inspector or log")?;
                        if !["saves", "simulate", "inspector", "log"].contains(&w.as_str()) {
                            return Err(format!("--open {w}: the windows are saves, simulate, inspector and log"));
                        }
                        o.open.push(w)
                    }
                    "--seed" => o.seed = Some(value("a number")?.parse().map_err(|_| "--seed needs a whole number")?),
                    "--screenshots" => o.screenshots = Some(PathBuf::from(value("a folder")?)),
                    "--rounds" => {
                        o.exit_after_rounds =
                            Some(value("a number")?.parse().map_err(|_| "--rounds needs a whole number")?)
                    }
                    other => return Err(format!("unknown option {other}")),
                }
                Ok(())
            })();
            if let Err(e) = r {
                return usage_error(&e);
            }
        }
        // Bad files are reported before a window opens, in the same words the start screen uses.
        let lib = skirmish::game::library::Library::scan(&skirmish::game::library::assets_root());
        if let Some(f) = &o.encounter
            && let Err(e) = skirmish::encounter::Encounter::load(f)
        {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
        let loaded = match skirmish::modding::load_mods(
            &skirmish::modding::ModRegistry::builtin(),
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
            eprintln!("skirmish: no ruleset `{r}` (installed: {})", known.join(", "));
            return ExitCode::FAILURE;
        }
        match skirmish::game::run(o) {
            bevy::app::AppExit::Success => ExitCode::SUCCESS,
            bevy::app::AppExit::Error(_) => ExitCode::FAILURE,
        }
    }
    #[cfg(not(feature = "game"))]
    {
        let _ = args;
        eprintln!("skirmish: built without the `game` feature: no window. Running the shipped scenarios instead.");
        run_scenarios(&shipped_scenarios(), None, false, None, &[])
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("skirmish: {msg}\n{USAGE}");
    ExitCode::from(2)
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
