//! `skirmish sim`: the command line of the simulator.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};

use super::{SimConfig, SimError, output, plot};
use crate::ai::Brain;

/// The options of `skirmish sim`: clap parses them and writes `skirmish sim --help` from these
/// definitions (the command's description is on `Command::Sim` in `src/main.rs`).
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, args_override_self = true)]
pub struct SimArgs {
    /// `sim merge`.
    #[command(subcommand)]
    pub command: Option<SimCommand>,
    /// The encounter file. With --bench: default assets/encounters/bench-4v4.ron. With
    /// --compare-ai: any number, default every shipped encounter
    #[arg(value_name = "ENCOUNTER")]
    pub encounters: Vec<PathBuf>,
    /// One installed ruleset, or `all`: every one side by side
    #[arg(long, value_name = "ID|all", default_value = "all")]
    pub ruleset: String,
    /// Runs per ruleset [default: 1000; with --bench or --compare-ai: 2000]
    #[arg(long, value_name = "N")]
    pub runs: Option<u64>,
    /// Run k uses seed S + k
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Worker threads [default: one per core; with --bench: 1]
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Write DIR/summary.json, DIR/runs.csv and DIR/report.svg
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The round cap (a draw when round R would start) [default: the encounter's]
    #[arg(long, value_name = "R")]
    pub max_rounds: Option<u32>,
    /// Play only the i-th of n slices of the runs (0 <= i < n), e.g. 0/4
    #[arg(long, value_name = "i/n", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Print run k's full combat log instead of the statistics
    #[arg(long, value_name = "k")]
    pub replay_run: Option<u64>,
    /// Force these dice at the start of every run, then seeded dice, e.g. 20,1,15
    #[arg(long, value_name = "D,...", value_parser = parse_dice)]
    pub dice: Option<Dice>,
    /// Load a mod in every run (repeatable): a Rust mod (regeneration, riposte) or a data mod
    /// folder under mods/ (see docs/modding.md)
    #[arg(long = "mod", value_name = "NAME")]
    pub mods: Vec<String>,
    /// The AI on every side: tactical (the reference) or basic; or one per side in the
    /// encounter's order, e.g. tactical,basic (a match between the two); summary.json records it
    /// [default: tactical]
    #[arg(long, value_name = "tactical|basic|A,B,..")]
    pub ai: Option<String>,
    /// The AI GM's policy for openings (a RON file, e.g. assets/gm-policies/never.ron), replacing
    /// the encounter's and each ruleset's own; summary.json keys on it
    #[arg(long, value_name = "FILE")]
    pub gm_policy: Option<PathBuf>,
    /// Encounters per second per ruleset: the median of 5 timed batches
    #[arg(long)]
    pub bench: bool,
    /// Whether tier B (tactical, basic, or fast, the candidate fast tier) reproduces tier A's
    /// statistics on each encounter under each ruleset; exits 1 if a cell fails
    ///
    /// Win rates within 3 points, draws within 2, mean rounds within 0.3, B against A 45-55%,
    /// each by two one-sided tests at 95%. Goes without --bench, --replay-run, --out and --shard.
    #[arg(long, value_name = "A,B", value_parser = parse_pair)]
    pub compare_ai: Option<(Brain, Brain)>,
}

/// The dice of `--dice`. An alias, so that clap's derive reads `Option<Dice>` as one value (a
/// `Vec` field would be a repeated option).
pub type Dice = Vec<i32>;

/// `skirmish sim`'s subcommands.
#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// Merge shard outputs exactly (counts and histograms), after checking each shard's
    /// summary.json and runs.csv (see the README)
    Merge(MergeArgs),
}

/// The options of `skirmish sim merge`.
#[derive(Debug, Args)]
#[command(args_override_self = true)]
pub struct MergeArgs {
    /// Write the merged DIR/summary.json, DIR/runs.csv and DIR/report.svg
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The shards' output folders (each with summary.json and runs.csv)
    #[arg(value_name = "SHARD_DIR", required = true)]
    pub dirs: Vec<PathBuf>,
}

/// Why `--ai fast` is refused: the candidate fast tier does not reproduce the tactical AI's
/// statistics (issue 22), and a tier that fails the check is not a tier.
const FAST_REFUSED: &str = "--ai fast: the fast tier is a candidate that fails the equivalence check \
(docs/performance.md), so its statistics are not the tactical AI's; measure it with \
--compare-ai tactical,fast";

/// `skirmish sim`'s options, checked together.
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
    side_ai: Vec<Brain>,
    gm_policy: Option<PathBuf>,
    compare: Option<(Brain, Brain)>,
    /// Encounters past the first (`--compare-ai` only).
    more: Vec<PathBuf>,
}

fn parse_brain(flag: &str, v: &str) -> Result<Brain, String> {
    Brain::from_name(v).ok_or_else(|| {
        let names: Vec<&str> = Brain::ALL.iter().map(|b| b.name()).collect();
        format!("{flag}`{v}`: no such AI (one of {})", names.join(", "))
    })
}

/// `--shard i/n`.
fn parse_shard(v: &str) -> Result<(u64, u64), String> {
    let bad = || "needs i/n with n >= 1 and 0 <= i < n, e.g. 0/4".to_string();
    let (i, n) = v.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// `--dice 20,1,15`.
fn parse_dice(v: &str) -> Result<Dice, String> {
    v.split(',').map(|d| d.trim().parse().map_err(|_| "needs whole numbers, e.g. 20,1,15".to_string())).collect()
}

/// `--compare-ai A,B`.
fn parse_pair(v: &str) -> Result<(Brain, Brain), String> {
    let (a, b) = v.split_once(',').ok_or("needs two AIs, e.g. tactical,fast")?;
    Ok((parse_brain("", a.trim())?, parse_brain("", b.trim())?))
}

/// The checks across options that clap does not make; `Err` is a usage error.
fn check(a: SimArgs) -> Result<Options, String> {
    let mut side_ai = Vec::new();
    if let Some(v) = &a.ai {
        if a.compare_ai.is_some() {
            return Err("--compare-ai names its own two AIs: it goes without --ai".into());
        }
        for name in v.split(',').map(str::trim) {
            if name.is_empty() {
                return Err(format!("--ai {v}: an AI's name is missing (one per side, e.g. tactical,basic)"));
            }
            match parse_brain("--ai ", name)? {
                Brain::Fast => return Err(FAST_REFUSED.into()),
                b => side_ai.push(b),
            }
        }
    }
    // One AI (or the same on every side): on every side, as `ai`. Different ones: one per side.
    let ai = side_ai.first().copied().unwrap_or_default();
    if side_ai.windows(2).all(|w| w[0] == w[1]) {
        side_ai.clear();
    }
    let ai = if side_ai.is_empty() { ai } else { Brain::default() };
    let mut encounters = a.encounters.into_iter();
    let o = Options {
        encounter: encounters.next(),
        more: encounters.collect(),
        ruleset: (a.ruleset != "all").then_some(a.ruleset),
        runs: a.runs,
        seed: a.seed,
        jobs: a.jobs,
        out: a.out,
        max_rounds: a.max_rounds,
        shard: a.shard,
        replay: a.replay_run,
        dice: a.dice.unwrap_or_default(),
        bench: a.bench,
        mods: a.mods,
        ai,
        side_ai,
        gm_policy: a.gm_policy,
        compare: a.compare_ai,
    };
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

/// Run `skirmish sim`. `Err` is a usage error (a check across options that clap does not make),
/// for the caller to report as one (exit code 2); every other failure is said here and exits 1.
pub(crate) fn main(args: SimArgs) -> Result<ExitCode, String> {
    if let Some(SimCommand::Merge(m)) = args.command {
        return Ok(merge_main(&m));
    }
    let o = check(args)?;
    if o.bench {
        return Ok(bench(&o));
    }
    if let Some(tiers) = o.compare {
        return Ok(compare(&o, tiers));
    }
    let Some(encounter) = o.encounter.clone() else {
        return Err("name an encounter file".into());
    };
    Ok(run(&o, encounter))
}

/// A batch (or, with `--replay-run`, one run's log) of `encounter`.
fn run(o: &Options, encounter: PathBuf) -> ExitCode {
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
        side_ai: o.side_ai.clone(),
        gm_policy: o.gm_policy.clone(),
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
            && done.is_multiple_of(64)
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
        // Joined, so `--out out/` (as the README writes it) names `out/summary.json`, not `out//`.
        let [a, b, c] = ["summary.json", "runs.csv", "report.svg"].map(|f| dir.join(f).display().to_string());
        say(&format!("wrote {a}, {b}, {c}\n"));
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
        let (log, rec) = match super::run::replay_with(&prep, ri, k, seed, cfg.ai, &cfg.side_ai) {
            Ok(x) => x,
            Err(e) => return fail(e),
        };
        // (The tactical AI, the default, is not named: its logs read as they always have.)
        let by = match (cfg.side_ai.is_empty(), cfg.ai) {
            (true, Brain::Tactical) => String::new(),
            (true, ai) => format!(", AI {ai}"),
            (false, _) => format!(", AI by side {}", super::side_ai_words(&prep.sides, &cfg.side_ai)),
        };
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
fn merge_main(m: &MergeArgs) -> ExitCode {
    match merge_dirs(&m.dirs, m.out.as_deref()) {
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
        side_ai: Vec::new(),
        gm_policy: o.gm_policy.clone(),
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
        side_ai: o.side_ai.clone(),
        gm_policy: o.gm_policy.clone(),
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
