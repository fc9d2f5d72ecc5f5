//! `skirmish sim`: the command line of the simulator.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::{SimConfig, SimError, output, plot};
use crate::ai::Brain;

/// The usage text of `skirmish sim`.
pub const USAGE: &str = "usage:
  skirmish sim ENCOUNTER [--ruleset ID|all] [--runs N] [--seed S] [--jobs J] [--out DIR]
               [--max-rounds R] [--shard i/n]
                         play N seeded AI-vs-AI runs (run k uses seed S+k; default: every
                         ruleset, 1000 runs, seed 0, one thread per core) and print the
                         statistics; --out writes DIR/summary.json, DIR/runs.csv, DIR/report.svg;
                         --shard i/n plays only the i-th of n slices of the runs
  skirmish sim ENCOUNTER --replay-run k [--ruleset ID|all] [--seed S] [--max-rounds R]
                         print run k's full combat log
  --dice 20,1,...        (any mode) force these dice at the start of every run, then seeded dice
  --mod NAME             (any mode, repeatable) load a mod: a Rust mod (regeneration, riposte) or
                         a data mod folder under mods/ (see docs/modding.md)
  skirmish sim merge [--out DIR] SHARD_DIR...
                         merge shard outputs exactly (counts and histograms), after checking
                         each shard's summary.json and runs.csv (see the README)
  skirmish sim --bench [ENCOUNTER] [--ruleset ID|all] [--runs N] [--jobs J]
                         encounters per second per ruleset (default: assets/encounters/bench-4v4.ron,
                         2000 runs, one thread; the median of 5 timings)
  --ai tactical|basic    (any mode) the AI on every side: the tactical AI (the default and the
                         reference) or the basic AI; summary.json records it
  skirmish sim --compare-ai A,B [ENCOUNTER...] [--ruleset ID|all] [--runs N] [--seed S] [--jobs J]
                         (A, B: tactical, basic, or fast, the candidate fast tier)
                         whether tier B reproduces tier A's statistics on each encounter (default:
                         every shipped one) under each ruleset: win rates within 3 points, draws
                         within 2, mean rounds within 0.3, B against A 45-55%, each by two
                         one-sided tests at 95% (default 2000 runs); exits 1 if a cell fails";

/// Why `--ai fast` is refused: the candidate fast tier does not reproduce the tactical AI's
/// statistics (issue 22), and a tier that fails the check is not a tier.
const FAST_REFUSED: &str = "--ai fast: the fast tier is a candidate that fails the equivalence check \
(docs/performance.md), so its statistics are not the tactical AI's; measure it with \
--compare-ai tactical,fast";

/// Parsed `skirmish sim` options.
#[derive(Debug, Default)]
struct Options {
    encounter: Option<PathBuf>,
    ruleset: Option<String>,
    runs: Option<u64>,
    seed: u64,
    jobs: Option<usize>,
    out: Option<PathBuf>,
    max_rounds: Option<u32>,
    shard: Option<(u64, u64)>,
    replay: Option<u64>,
    dice: Vec<i32>,
    bench: bool,
    mods: Vec<String>,
    ai: Brain,
    compare: Option<(Brain, Brain)>,
    /// Encounters past the first (`--compare-ai` only).
    more: Vec<PathBuf>,
}

fn parse_brain(flag: &str, v: &str) -> Result<Brain, String> {
    Brain::from_name(v).ok_or_else(|| {
        let names: Vec<&str> = Brain::ALL.iter().map(|b| b.name()).collect();
        format!("{flag} `{v}`: no such AI (one of {})", names.join(", "))
    })
}

fn parse_shard(v: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard `{v}`: needs i/n with n >= 1 and 0 <= i < n, e.g. 0/4");
    let (i, n) = v.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().cloned().ok_or_else(|| format!("{a} needs {what}"));
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse().map_err(|_| format!("{flag} `{v}`: needs a whole number"))
        }
        match a.as_str() {
            "--ruleset" => {
                let v = value("a ruleset name or `all`")?;
                o.ruleset = (v != "all").then_some(v);
            }
            "--runs" => o.runs = Some(num("--runs", value("a number")?)?),
            "--seed" => o.seed = num("--seed", value("a number")?)?,
            "--jobs" => o.jobs = Some(num("--jobs", value("a number")?)?),
            "--out" => o.out = Some(PathBuf::from(value("a folder")?)),
            "--max-rounds" => o.max_rounds = Some(num("--max-rounds", value("a number")?)?),
            "--shard" => o.shard = Some(parse_shard(&value("i/n")?)?),
            "--replay-run" => o.replay = Some(num("--replay-run", value("a run number")?)?),
            "--dice" => {
                let v = value("dice results, e.g. 20,1,15")?;
                o.dice = v
                    .split(',')
                    .map(|d| d.trim().parse().map_err(|_| format!("--dice `{v}`: needs whole numbers, e.g. 20,1,15")))
                    .collect::<Result<_, _>>()?;
            }
            "--bench" => o.bench = true,
            "--mod" => o.mods.push(value("a mod name")?),
            "--ai" => {
                o.ai = parse_brain("--ai", &value("an AI: tactical or basic")?)?;
                if o.ai == Brain::Fast {
                    return Err(FAST_REFUSED.into());
                }
            }
            "--compare-ai" => {
                let v = value("two AIs, e.g. tactical,fast")?;
                let (a, b) = v
                    .split_once(',')
                    .ok_or_else(|| format!("--compare-ai `{v}`: needs two AIs, e.g. tactical,fast"))?;
                o.compare = Some((parse_brain("--compare-ai", a.trim())?, parse_brain("--compare-ai", b.trim())?));
            }
            f if f.starts_with("--") => return Err(format!("unknown option {f}")),
            f => match o.encounter {
                Some(_) => o.more.push(PathBuf::from(f)),
                None => o.encounter = Some(PathBuf::from(f)),
            },
        }
    }
    if let (Some(f), None) = (o.more.first(), o.compare) {
        return Err(format!("one encounter at a time (got a second: {})", f.display()));
    }
    if o.compare.is_some() && (o.bench || o.replay.is_some() || o.out.is_some() || o.shard.is_some()) {
        return Err("--compare-ai goes without --bench, --replay-run, --out and --shard".into());
    }
    if o.runs == Some(0) {
        return Err("--runs must be at least 1".into());
    }
    Ok(o)
}

fn fail(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("skirmish sim: {e}");
    ExitCode::FAILURE
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("skirmish sim: {msg}\n{USAGE}");
    ExitCode::from(2)
}

/// Write to stdout; a closed pipe ends the program quietly.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("skirmish: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

/// Run `skirmish sim ARGS...` (the arguments after `sim`).
pub fn main(args: &[String]) -> ExitCode {
    if args.first().map(String::as_str) == Some("merge") {
        return merge_main(&args[1..]);
    }
    if matches!(args.first().map(String::as_str), Some("help" | "--help" | "-h")) {
        say(&format!("{USAGE}\n"));
        return ExitCode::SUCCESS;
    }
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    if o.bench {
        return bench(&o);
    }
    if let Some(tiers) = o.compare {
        return compare(&o, tiers);
    }
    let Some(encounter) = o.encounter.clone() else {
        return usage_error("name an encounter file");
    };
    let cfg = SimConfig {
        encounter,
        ruleset: o.ruleset.clone(),
        runs: o.runs.unwrap_or(1000),
        seed: o.seed,
        jobs: o.jobs.unwrap_or(0),
        max_rounds: o.max_rounds,
        shard: o.shard,
        dice: o.dice.clone(),
        cancel: None,
        mods: o.mods.clone(),
        ai: o.ai,
    };
    if let Some(k) = o.replay {
        if let Some(n) = o.runs
            && k >= n
        {
            return fail(format!("--replay-run {k}: the batch has runs 0..{n}"));
        }
        // Without --runs, the batch is just big enough to hold run k.
        return replay(&SimConfig { runs: o.runs.unwrap_or(k.saturating_add(1)), ..cfg }, k);
    }
    let prep = match super::prepare(&cfg) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if let Some(dir) = &o.out
        && let Err(e) = output::check_outputs(dir, &[cfg.encounter.as_path()])
    {
        return fail(e);
    }
    let total = cfg.run_range().count() as u64 * prep.rulesets.len() as u64;
    let bar = std::io::stdout().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {per_sec}  eta {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let progress = |done: u64| {
        if let Some(b) = &bar
            && done % 64 == 0
        {
            b.set_position(done);
        }
    };
    let batch = match super::run_prepared(&cfg, &prep, &progress) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    say(&output::table(&batch.summary));
    if let Some(dir) = &o.out {
        let files = (|| -> Result<Vec<(&str, Vec<u8>)>, SimError> {
            Ok(vec![
                ("summary.json", output::summary_json(&batch.summary)?),
                ("runs.csv", output::runs_csv(&batch.summary, &batch.records)),
                ("report.svg", plot::report_svg(&batch.summary)?.into_bytes()),
            ])
        })();
        if let Err(e) = files.and_then(|f| output::write_outputs(dir, &f, &[cfg.encounter.as_path()])) {
            return fail(e);
        }
        say(&format!("wrote {0}/summary.json, {0}/runs.csv, {0}/report.svg\n", dir.display()));
    }
    ExitCode::SUCCESS
}

/// `--replay-run k`: run k's full combat log under each chosen ruleset.
fn replay(cfg: &SimConfig, k: u64) -> ExitCode {
    // Run k is in a batch of at least k + 1 runs: say so about `--replay-run`, not about a
    // `--runs` the command line may not have.
    if k >= super::MAX_RUNS {
        return fail(format!(
            "--replay-run {k}: run numbers go up to {} (a batch has at most {} runs)",
            super::MAX_RUNS - 1,
            super::MAX_RUNS
        ));
    }
    if cfg.seed.checked_add(k + 1).is_none() {
        return fail(format!("--replay-run {k} with --seed {}: the run's seed does not fit in 64 bits", cfg.seed));
    }
    let cfg = SimConfig { runs: cfg.runs.max(k + 1), ..cfg.clone() };
    let prep = match super::prepare(&cfg) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    for (ri, rs) in prep.rulesets.iter().enumerate() {
        let seed = cfg.seed + k;
        let (log, rec) = match super::run::replay_with(&prep, ri, k, seed, cfg.ai) {
            Ok(x) => x,
            Err(e) => return fail(e),
        };
        // (The tactical AI, the default, is not named: its logs read as they always have.)
        let by = if cfg.ai == Brain::Tactical { String::new() } else { format!(", AI {}", cfg.ai) };
        let mut text = format!("== {} under {}: run {k}, seed {seed}{by}\n", prep.encounter.name, rs.name);
        for e in &log.events {
            text.push_str(&log.describe(e));
            text.push('\n');
        }
        text.push_str(&format!(
            "== run {k}: {} after {} rounds, {} commands\n",
            rec.outcome.label(&prep.sides),
            rec.rounds,
            rec.commands
        ));
        say(&text);
    }
    ExitCode::SUCCESS
}

/// `sim merge [--out DIR] SHARD_DIR...`.
fn merge_main(args: &[String]) -> ExitCode {
    let mut out = None;
    let mut dirs = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => match it.next() {
                Some(d) => out = Some(PathBuf::from(d)),
                None => return usage_error("--out needs a folder"),
            },
            f if f.starts_with("--") => return usage_error(&format!("unknown option {f}")),
            d => dirs.push(PathBuf::from(d)),
        }
    }
    if dirs.is_empty() {
        return usage_error("name at least one shard folder to merge");
    }
    match merge_dirs(&dirs, out.as_deref()) {
        Ok(table) => {
            say(&table);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// Merge the outputs in `dirs` (each with `summary.json` and `runs.csv`, each read and checked:
/// [`super::merge_shards`]); write the merged outputs to `out` if given. Returns the merged table.
pub fn merge_dirs(dirs: &[PathBuf], out: Option<&Path>) -> Result<String, SimError> {
    // The shards' own files are inputs: `--out` naming one of the shards is refused before
    // anything is read or written.
    let inputs: Vec<PathBuf> = dirs.iter().flat_map(|d| ["summary.json", "runs.csv"].map(|f| d.join(f))).collect();
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    if let Some(o) = out {
        output::check_outputs(o, &inputs)?;
    }
    // Every shard is read (regular files, bounded) and checked, rows against tallies, before
    // anything is merged.
    let shards = dirs.iter().map(|d| super::ShardText::read(d)).collect::<Result<Vec<_>, _>>()?;
    let (merged, csv) = super::merge_shards(&shards)?;
    if let Some(o) = out {
        let files = vec![
            ("summary.json", output::summary_json(&merged)?),
            ("runs.csv", csv),
            ("report.svg", plot::report_svg(&merged)?.into_bytes()),
        ];
        output::write_outputs(o, &files, &inputs)?;
    }
    Ok(output::table(&merged))
}

/// The bench encounter: `assets/encounters/bench-4v4.ron` here or in the crate.
fn bench_encounter() -> PathBuf {
    let rel = Path::new("assets/encounters/bench-4v4.ron");
    if rel.is_file() { rel.to_path_buf() } else { Path::new(env!("CARGO_MANIFEST_DIR")).join(rel) }
}

/// The shipped encounters, `assets/encounters/*.ron` here or in the crate, in name order.
fn shipped_encounters() -> Vec<PathBuf> {
    let dir = bench_encounter().parent().map(Path::to_path_buf).unwrap_or_default();
    let mut all: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect()
        })
        .unwrap_or_default();
    all.sort();
    all
}

/// `--compare-ai A,B`: the equivalence table; exits 1 when a cell fails.
fn compare(o: &Options, tiers: (Brain, Brain)) -> ExitCode {
    let encounters = match &o.encounter {
        Some(first) => std::iter::once(first.clone()).chain(o.more.iter().cloned()).collect(),
        None => shipped_encounters(),
    };
    if encounters.is_empty() {
        return fail("no encounter to compare on (name one, or run from the project folder)");
    }
    let base = SimConfig {
        encounter: PathBuf::new(),
        ruleset: o.ruleset.clone(),
        runs: o.runs.unwrap_or(2000),
        seed: o.seed,
        jobs: o.jobs.unwrap_or(0),
        max_rounds: o.max_rounds,
        shard: None,
        dice: o.dice.clone(),
        cancel: None,
        mods: o.mods.clone(),
        ai: Brain::Tactical,
    };
    let cfg = super::compare::CompareConfig { encounters, base, tiers, margins: super::compare::MARGINS };
    let quiet = !std::io::stderr().is_terminal();
    match super::compare::compare(&cfg, &|what| {
        if !quiet {
            eprintln!("{what}");
        }
    }) {
        Ok(c) => {
            say(&super::compare::table(&c));
            if c.passes() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Err(e) => fail(e),
    }
}

/// `--bench`: encounters per second per ruleset, the median of 5 timed batches.
fn bench(o: &Options) -> ExitCode {
    let cfg = SimConfig {
        encounter: o.encounter.clone().unwrap_or_else(bench_encounter),
        ruleset: o.ruleset.clone(),
        runs: o.runs.unwrap_or(2000),
        seed: o.seed,
        jobs: o.jobs.unwrap_or(1),
        max_rounds: o.max_rounds,
        shard: None,
        dice: o.dice.clone(),
        cancel: None,
        mods: o.mods.clone(),
        ai: o.ai,
    };
    let prep = match super::prepare(&cfg) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    for rs in &prep.rulesets {
        let one = super::Prepared { rulesets: vec![rs.clone()], ..prep.clone() };
        // A short warm-up, then 5 timings.
        let warm = SimConfig { runs: (cfg.runs / 10).max(1), ..cfg.clone() };
        if let Err(e) = super::run_prepared(&warm, &one, &|_| {}) {
            return fail(e);
        }
        let mut rates = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            if let Err(e) = super::run_prepared(&cfg, &one, &|_| {}) {
                return fail(e);
            }
            rates.push(cfg.runs as f64 / t.elapsed().as_secs_f64());
        }
        rates.sort_by(f64::total_cmp);
        // A slow batch (a huge encounter, one round of it) keeps two decimals.
        let digits = if rates[2] < 100.0 { 2 } else { 0 };
        say(&format!("{}: {:.*} encounters/s\n", rs.name, digits, rates[2]));
    }
    ExitCode::SUCCESS
}
