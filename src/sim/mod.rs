//! The encounter simulator: many seeded AI-versus-AI runs of one encounter, their statistics, and
//! reports (`skirmish sim`, see [`cli`]).
//!
//! Run k of a batch uses seed S + k, plays the encounter with the tactical AI on every side
//! (every creature and the GM), and is reduced to a [`stats::RunRecord`] read off the combat log.
//! Runs are spread over threads with rayon and collected in run order, so a batch gives the same
//! result whatever the number of threads. A batch's [`Summary`] holds exact integer tallies
//! ([`stats::Tally`]); everything else in it is derived from those, so shards (`--shard i/n`)
//! merged with [`merge`] give exactly the unsharded summary.
//!
//! The game can call [`run_batch`] on a background thread:
//!
//! ```no_run
//! use skirmish::sim::{SimConfig, run_batch};
//! let cfg = SimConfig::new("assets/encounters/bench-4v4.ron", Some("pf2e"), 200);
//! let summary = run_batch(&cfg, &|done| eprintln!("{done} runs done")).unwrap();
//! let r = &summary.rulesets[0];
//! println!("{:?} {:?}", r.derived.sides[0].win, r.tally.rounds_histogram);
//! ```

pub mod cli;
pub mod output;
pub mod plot;
pub mod run;
pub mod stats;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::encounter::{Encounter, installed_rulesets};
use crate::rules::ruleset::{DataError, Ruleset, read_data_file};
use stats::{Rate, RunRecord, Tally, wilson};

/// The version of `summary.json`'s layout.
pub const FORMAT: u32 = 1;
/// Commands the AI may send in one run before the run counts as unfinished.
pub const MAX_COMMANDS: usize = 100_000;
/// Most runs one batch may ask for.
pub const MAX_RUNS: u64 = 1_000_000_000;

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The encounter file.
    pub encounter: PathBuf,
    /// One installed ruleset by name, or every installed one (`None`, `--ruleset all`).
    pub ruleset: Option<String>,
    /// Runs in the whole batch (N).
    pub runs: u64,
    /// Run k uses seed `seed + k`.
    pub seed: u64,
    /// Worker threads; 0 = one per core.
    pub jobs: usize,
    /// The round cap (overrides the encounter's `max_rounds` and the ruleset's `round_cap`).
    pub max_rounds: Option<u32>,
    /// Run only the i-th of n slices of the runs: (i, n), 0 <= i < n.
    pub shard: Option<(u64, u64)>,
    /// Dice forced at the start of every run, before initiative is rolled (as a scenario's
    /// `dice`); then the seeded dice. For tests and worked examples.
    pub dice: Vec<i32>,
    /// Set to stop a batch early (the batch then fails with [`SimError::Cancelled`]).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Mods by name (`--mod`): Rust mods run in every combat; data mods add their abilities and
    /// conditions to every ruleset (see `skirmish::modding`).
    pub mods: Vec<String>,
}

impl SimConfig {
    /// N runs of `encounter` under one ruleset (or all with `None`), seed 0, one thread per core.
    pub fn new(encounter: impl Into<PathBuf>, ruleset: Option<&str>, runs: u64) -> SimConfig {
        SimConfig {
            encounter: encounter.into(),
            ruleset: ruleset.map(str::to_string),
            runs,
            seed: 0,
            jobs: 0,
            max_rounds: None,
            shard: None,
            dice: Vec::new(),
            cancel: None,
            mods: Vec::new(),
        }
    }

    /// The runs this configuration plays: all of them, or its shard's slice
    /// `[i·N/n, (i+1)·N/n)`.
    pub fn run_range(&self) -> std::ops::Range<u64> {
        match self.shard {
            Some((i, n)) if n > 0 => {
                let at = |k: u64| (u128::from(k) * u128::from(self.runs) / u128::from(n)) as u64;
                at(i)..at(i + 1)
            }
            _ => 0..self.runs,
        }
    }
}

/// Why a batch could not run.
#[derive(Debug)]
pub enum SimError {
    /// A data file is missing or malformed (`file:line:col: field: message`).
    Data(DataError),
    /// No installed ruleset has this name.
    UnknownRuleset {
        /// The name asked for.
        name: String,
        /// The installed ones.
        installed: Vec<String>,
    },
    /// A bad option value (runs, shard, rounds, jobs).
    Config(String),
    /// The encounter could not be set up under a ruleset.
    Setup(String),
    /// Reading or writing outputs failed.
    Io(String),
    /// Shard outputs that do not belong together.
    Merge(String),
    /// The batch was cancelled.
    Cancelled,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Data(e) => write!(f, "{e}"),
            SimError::UnknownRuleset { name, installed } => {
                write!(f, "no ruleset `{name}` (installed: {}; or `all`)", installed.join(", "))
            }
            SimError::Config(m) | SimError::Setup(m) | SimError::Io(m) | SimError::Merge(m) => write!(f, "{m}"),
            SimError::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<DataError> for SimError {
    fn from(e: DataError) -> Self {
        SimError::Data(e)
    }
}

/// An encounter loaded and checked under the rulesets a batch plays.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The encounter, with the configured round cap applied.
    pub encounter: Encounter,
    /// The encounter file's name (no folder), as summaries name it.
    pub file_name: String,
    /// The rulesets, in the order they are reported.
    pub rulesets: Vec<Ruleset>,
    /// The side names, in the encounter's order.
    pub sides: Vec<String>,
    /// The combatants' names and sides, in id order.
    pub combatants: Vec<CombatantInfo>,
    /// Dice forced at the start of every run.
    pub dice: Vec<i32>,
    /// The Rust mods installed in every combat.
    pub mods: crate::rules::modding::ModList,
}

/// A combatant as summaries name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantInfo {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: String,
}

/// Check the configuration's values (runs, shard, rounds), load the encounter and the rulesets,
/// and check the encounter under each.
pub fn prepare(cfg: &SimConfig) -> Result<Prepared, SimError> {
    if cfg.runs == 0 {
        return Err(SimError::Config("--runs must be at least 1".into()));
    }
    if cfg.runs > MAX_RUNS {
        return Err(SimError::Config(format!("--runs {} is more than the {MAX_RUNS} a batch may have", cfg.runs)));
    }
    if let Some((i, n)) = cfg.shard
        && (n == 0 || i >= n)
    {
        return Err(SimError::Config(format!("--shard {i}/{n}: needs i/n with n >= 1 and 0 <= i < n")));
    }
    if let Some(r) = cfg.max_rounds
        && !(1..=crate::rules::limits::MAX_ROUNDS).contains(&r)
    {
        return Err(SimError::Config(format!(
            "--max-rounds {r} is out of range 1..={}",
            crate::rules::limits::MAX_ROUNDS
        )));
    }
    if cfg.dice.len() > 10_000 || cfg.dice.iter().any(|d| !(1..=1000).contains(d)) {
        return Err(SimError::Config("--dice: at most 10000 results, each 1..=1000".into()));
    }
    cfg.seed
        .checked_add(cfg.runs)
        .ok_or_else(|| SimError::Config(format!("--seed {} plus --runs {} overflows", cfg.seed, cfg.runs)))?;
    let path = cfg.encounter.as_path();
    let text = read_data_file(path)?;
    let file = path.display().to_string();
    let mut encounter = Encounter::from_ron_str(&file, &text)?;
    let loaded = crate::modding::load_mods(
        &crate::modding::ModRegistry::builtin(),
        &crate::modding::mods_dir_near(path),
        &cfg.mods,
    )
    .map_err(|m| SimError::Config(format!("--mod: {m}")))?;
    let mut installed = installed_rulesets(path)?;
    for rs in &mut installed {
        loaded.data.apply(rs)?;
    }
    let rulesets: Vec<Ruleset> = match &cfg.ruleset {
        None => installed,
        Some(name) => match installed.iter().find(|r| &r.name == name) {
            Some(r) => vec![r.clone()],
            // A data mod's own ruleset (`--mod example-pf2e-variant --ruleset pf2e-variant`).
            None if loaded.data.rulesets.contains_key(name.as_str()) => vec![loaded.ruleset(name)?],
            None => {
                return Err(SimError::UnknownRuleset {
                    name: name.clone(),
                    installed: installed.iter().map(|r| r.name.clone()).collect(),
                });
            }
        },
    };
    if rulesets.is_empty() {
        return Err(SimError::Config(format!("no installed ruleset found near {file}")));
    }
    for rs in &rulesets {
        encounter.validate(&file, &text, rs)?;
    }
    if cfg.max_rounds.is_some() {
        encounter.max_rounds = cfg.max_rounds;
    }
    let file_name = path.file_name().map_or(file.clone(), |f| f.to_string_lossy().into_owned());
    let sides = encounter.sides.iter().map(|s| s.name.clone()).collect();
    let combatants =
        encounter.combatants.iter().map(|c| CombatantInfo { name: c.name.clone(), side: c.side.clone() }).collect();
    Ok(Prepared { encounter, file_name, rulesets, sides, combatants, dice: cfg.dice.clone(), mods: loaded.code })
}

/// A batch's summary: exact tallies per ruleset, and what they show. This is `summary.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Layout version ([`FORMAT`]).
    pub format: u32,
    /// The encounter's title.
    pub encounter: String,
    /// The encounter file's name.
    pub file: String,
    /// Run k used seed `seed + k`.
    pub seed: u64,
    /// Runs in the whole batch (N).
    pub runs: u64,
    /// The round cap given on the command line, if any.
    pub max_rounds: Option<u32>,
    /// The runs counted here, as half-open ranges [from, to), merged and sorted.
    pub covered: Vec<[u64; 2]>,
    /// The sides, in the encounter's order.
    pub sides: Vec<String>,
    /// The combatants, in id order.
    pub combatants: Vec<CombatantInfo>,
    /// One entry per ruleset.
    pub rulesets: Vec<RulesetSummary>,
    /// The mods every run had (`--mod`), in load order; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<String>,
}

/// One ruleset's tally and what it shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesetSummary {
    /// The ruleset's name.
    pub ruleset: String,
    /// Exact integer aggregates: the source of everything in `derived`.
    pub tally: Tally,
    /// Derived from `tally` (recomputed whenever summaries are merged or read).
    pub derived: Derived,
}

/// Statistics derived from a [`Tally`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derived {
    /// Per side, in the encounter's order.
    pub sides: Vec<SideDerived>,
    /// Share of runs drawn at the round cap, with its Wilson interval.
    pub draws_round_cap: Option<Rate>,
    /// Mean rounds.
    pub rounds_mean: Option<f64>,
    /// Median round (nearest rank).
    pub rounds_median: Option<u32>,
    /// 5th percentile (nearest rank).
    pub rounds_p5: Option<u32>,
    /// 95th percentile (nearest rank).
    pub rounds_p95: Option<u32>,
    /// Per combatant, in id order.
    pub combatants: Vec<CombatantDerived>,
}

/// One side's win rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideDerived {
    /// The side.
    pub side: String,
    /// Wins.
    pub wins: u64,
    /// wins / runs, with its 95% Wilson interval.
    pub win: Option<Rate>,
}

/// One combatant's averages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CombatantDerived {
    /// Its name.
    pub name: String,
    /// Damage dealt per round played (all runs' damage over all runs' rounds).
    pub damage_dealt_per_round: Option<f64>,
    /// Damage taken per round played.
    pub damage_taken_per_round: Option<f64>,
    /// Downs per run.
    pub downs_per_run: Option<f64>,
    /// Deaths per run.
    pub deaths_per_run: Option<f64>,
    /// Actions spent per run.
    pub actions_spent_per_run: Option<f64>,
    /// Actions forfeited per run.
    pub actions_forfeited_per_run: Option<f64>,
}

impl Derived {
    /// Everything a tally shows.
    pub fn of(t: &Tally, sides: &[String], combatants: &[CombatantInfo]) -> Derived {
        let per = |x: u64, n: u64| (n > 0).then(|| x as f64 / n as f64);
        Derived {
            sides: sides
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let wins = t.wins.get(i).copied().unwrap_or(0);
                    SideDerived { side: s.clone(), wins, win: wilson(wins, t.runs) }
                })
                .collect(),
            draws_round_cap: wilson(t.draws_round_cap, t.runs),
            rounds_mean: t.rounds_mean(),
            rounds_median: t.rounds_percentile(50),
            rounds_p5: t.rounds_percentile(5),
            rounds_p95: t.rounds_percentile(95),
            combatants: combatants
                .iter()
                .zip(&t.combatants)
                .map(|(info, c)| CombatantDerived {
                    name: info.name.clone(),
                    damage_dealt_per_round: per(c.damage_dealt, t.rounds_sum),
                    damage_taken_per_round: per(c.damage_taken, t.rounds_sum),
                    downs_per_run: per(c.downs, t.runs),
                    deaths_per_run: per(c.deaths, t.runs),
                    actions_spent_per_run: per(c.actions_spent, t.runs),
                    actions_forfeited_per_run: per(c.actions_forfeited, t.runs),
                })
                .collect(),
        }
    }
}

impl Summary {
    /// Recompute every `derived` from the tallies.
    pub fn rederive(&mut self) {
        for r in &mut self.rulesets {
            r.derived = Derived::of(&r.tally, &self.sides, &self.combatants);
        }
    }

    /// Runs counted (the runs in `covered`).
    pub fn runs_counted(&self) -> u64 {
        self.covered.iter().map(|[a, b]| b - a).sum()
    }
}

/// A batch: its summary and every run's record, per ruleset in the summary's order.
#[derive(Debug, Clone)]
pub struct Batch {
    /// The summary.
    pub summary: Summary,
    /// Per ruleset, the runs in run order.
    pub records: Vec<Vec<RunRecord>>,
}

/// Run a batch and return its summary (see [`run_batch_records`]). `progress` is called with the
/// number of runs done so far, from worker threads.
pub fn run_batch(cfg: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<Summary, SimError> {
    run_batch_records(cfg, progress).map(|b| b.summary)
}

/// Run a batch: every run of the configuration's range under each ruleset, on `cfg.jobs`
/// threads, collected in run order.
pub fn run_batch_records(cfg: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<Batch, SimError> {
    let prep = prepare(cfg)?;
    run_prepared(cfg, &prep, progress)
}

/// As [`run_batch_records`], for an encounter already prepared.
pub fn run_prepared(cfg: &SimConfig, prep: &Prepared, progress: &(dyn Fn(u64) + Sync)) -> Result<Batch, SimError> {
    let range = cfg.run_range();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.jobs)
        .build()
        .map_err(|e| SimError::Config(format!("cannot start {} worker threads: {e}", cfg.jobs)))?;
    let done = AtomicU64::new(0);
    let cancelled = || cfg.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    let mut records = Vec::with_capacity(prep.rulesets.len());
    let mut summaries = Vec::with_capacity(prep.rulesets.len());
    for (ri, rs) in prep.rulesets.iter().enumerate() {
        let recs: Result<Vec<RunRecord>, SimError> = pool.install(|| {
            range
                .clone()
                .into_par_iter()
                .map_init(
                    || run::Runner::new(prep, ri),
                    |runner, k| {
                        if cancelled() {
                            return Err(SimError::Cancelled);
                        }
                        let runner = runner.as_mut().map_err(|e| SimError::Setup(e.clone()))?;
                        let rec = runner.run(k, cfg.seed + k).map_err(SimError::Setup)?;
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                        Ok(rec)
                    },
                )
                .collect()
        });
        let recs = recs?;
        let mut tally = Tally::new(prep.sides.len(), prep.combatants.len());
        for r in &recs {
            tally.add(r);
        }
        summaries.push(RulesetSummary {
            ruleset: rs.name.clone(),
            derived: Derived::of(&tally, &prep.sides, &prep.combatants),
            tally,
        });
        records.push(recs);
    }
    let covered = if range.is_empty() { vec![] } else { vec![[range.start, range.end]] };
    let summary = Summary {
        format: FORMAT,
        encounter: prep.encounter.name.clone(),
        file: prep.file_name.clone(),
        seed: cfg.seed,
        runs: cfg.runs,
        max_rounds: cfg.max_rounds,
        covered,
        sides: prep.sides.clone(),
        combatants: prep.combatants.clone(),
        rulesets: summaries,
        mods: cfg.mods.clone(),
    };
    Ok(Batch { summary, records })
}

/// Merge shard summaries: the same encounter, seed, N, round cap, sides, combatants and
/// rulesets, and runs that do not overlap. Tallies add; `derived` is recomputed.
pub fn merge(parts: &[Summary]) -> Result<Summary, SimError> {
    let Some(first) = parts.first() else {
        return Err(SimError::Merge("nothing to merge".into()));
    };
    let mut out = first.clone();
    for (i, p) in parts.iter().enumerate().skip(1) {
        let same = p.format == first.format
            && p.encounter == first.encounter
            && p.file == first.file
            && p.seed == first.seed
            && p.runs == first.runs
            && p.max_rounds == first.max_rounds
            && p.sides == first.sides
            && p.combatants == first.combatants
            && p.mods == first.mods
            && p.rulesets.iter().map(|r| &r.ruleset).eq(first.rulesets.iter().map(|r| &r.ruleset));
        if !same {
            return Err(SimError::Merge(format!(
                "part {} is not of the same batch as part 1 (encounter, file, seed, runs, max rounds, mods, sides, \
                 combatants and rulesets must all match)",
                i + 1
            )));
        }
        for (a, b) in out.rulesets.iter_mut().zip(&p.rulesets) {
            a.tally.merge(&b.tally);
        }
        out.covered.extend_from_slice(&p.covered);
    }
    out.covered.sort();
    let mut merged: Vec<[u64; 2]> = Vec::new();
    for r in out.covered.drain(..) {
        match merged.last_mut() {
            Some(last) if r[0] < last[1] => {
                return Err(SimError::Merge(format!("runs {}..{} are counted twice", r[0], r[1].min(last[1]))));
            }
            Some(last) if r[0] == last[1] => last[1] = r[1],
            _ => merged.push(r),
        }
    }
    out.covered = merged;
    out.rederive();
    Ok(out)
}

/// Read a `summary.json`, checking its layout version, and recompute what is derived.
pub fn read_summary(path: &Path) -> Result<Summary, SimError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| SimError::Io(format!("{}: cannot read: {e}", path.display())))?;
    let de = &mut serde_json::Deserializer::from_str(&text);
    let mut s: Summary = serde_path_to_error::deserialize(de).map_err(|e| {
        let inner = e.inner();
        SimError::Merge(format!("{}:{}:{}: {}: {}", path.display(), inner.line(), inner.column(), e.path(), inner))
    })?;
    if s.format != FORMAT {
        return Err(SimError::Merge(format!("{}: format {} (this build reads {FORMAT})", path.display(), s.format)));
    }
    s.rederive();
    Ok(s)
}
