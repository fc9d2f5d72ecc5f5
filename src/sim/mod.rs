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
//! A summary also holds the content hashes of the batch's inputs ([`Inputs`]: the encounter,
//! each ruleset as played, each data mod's files), and [`merge`] refuses shards whose inputs
//! differ, or that are not consistent in themselves ([`check`]: tallies against runs, the
//! histogram, the range; `sim merge` also checks every `runs.csv` row against the tallies).
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

pub mod check;
pub mod cli;
pub mod compare;
pub mod output;
pub mod plot;
pub mod run;
pub mod stats;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::Brain;
use crate::encounter::Encounter;
use crate::rules::data::installed_rulesets;
use crate::rules::data::{DataError, read_data_file};
use crate::rules::ruleset::Ruleset;
use crate::save::{Hash64, ruleset_hash, text_hash};
use stats::{Rate, RunRecord, Tally, wilson};

/// The version of `summary.json`'s layout (2: with the inputs' content hashes, `inputs`).
pub const FORMAT: u32 = 2;
/// Commands the AI may send in one run before the run counts as unfinished.
pub const MAX_COMMANDS: usize = 100_000;
/// Most runs one batch may ask for.
pub const MAX_RUNS: u64 = 1_000_000_000;
/// Most worker threads a batch starts per core: more would only wait for a core
/// ([`worker_threads`]).
pub const JOBS_PER_CORE: usize = 2;

/// The worker threads a batch of `runs` runs starts when `requested` are asked for (0 = one per
/// core): never more than the runs, nor than [`JOBS_PER_CORE`] per core. The results are the same
/// whatever the number.
pub fn worker_threads(requested: usize, runs: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = if requested == 0 { cores } else { requested };
    let runs = usize::try_from(runs).unwrap_or(usize::MAX).max(1);
    wanted.min(cores.saturating_mul(JOBS_PER_CORE)).min(runs)
}

/// The threads to play `runs` runs on ([`worker_threads`] of them).
pub(crate) fn worker_pool(requested: usize, runs: u64) -> Result<rayon::ThreadPool, SimError> {
    let jobs = worker_threads(requested, runs);
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| SimError::Config(format!("cannot start {jobs} worker threads: {e}")))
}

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
    /// Worker threads; 0 = one per core. Capped by [`worker_threads`].
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
    /// The AI that plays every side (`--ai`): the tactical AI unless a faster tier is asked for.
    pub ai: Brain,
    /// One AI per side, in the encounter's side order (`--ai tactical,basic`), for a match between
    /// two AIs; empty: [`SimConfig::ai`] on every side.
    pub side_ai: Vec<Brain>,
    /// A GM policy file (`--gm-policy`) replacing the encounter's and the rulesets' own under
    /// every ruleset with openings.
    pub gm_policy: Option<PathBuf>,
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
            ai: Brain::Tactical,
            side_ai: Vec::new(),
            gm_policy: None,
        }
    }

    /// The runs this configuration plays: all of them, or its shard's slice
    /// `[i·N/n, (i+1)·N/n)`.
    pub(crate) fn run_range(&self) -> std::ops::Range<u64> {
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
        /// The mods given (`--mod`).
        mods: Vec<String>,
        /// The rulesets of those mods.
        from_mods: Vec<String>,
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
            SimError::UnknownRuleset { name, installed, mods, from_mods } => {
                write!(f, "no ruleset `{name}` (installed: {}", installed.join(", "))?;
                if !from_mods.is_empty() {
                    write!(f, "; from the mods: {}", from_mods.join(", "))?;
                }
                write!(f, "; or `all`). {}", unknown_ruleset_hint(mods))
            }
            SimError::Config(m) | SimError::Setup(m) | SimError::Io(m) | SimError::Merge(m) => write!(f, "{m}"),
            SimError::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for SimError {}

/// What to do about a ruleset nobody has, given the mods loaded (`--mod`): load the data mod that
/// defines it, or, with mods loaded, know that none of them does.
pub(crate) fn unknown_ruleset_hint(mods: &[String]) -> String {
    if mods.is_empty() {
        "A data mod's ruleset needs its mod: add `--mod MOD` (`skirmish mods` lists them)".into()
    } else {
        let names: Vec<String> = mods.iter().map(|m| format!("`{m}`")).collect();
        format!(
            "None of the mods given ({}) defines it: check the name, or add the mod that does (`skirmish mods` \
             lists them)",
            names.join(", ")
        )
    }
}

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
    /// The content hash of the encounter as parsed (see [`Inputs::encounter`]).
    pub encounter_hash: Hash64,
    /// The content hash of each data mod's files, by name (see [`Inputs::mods`]).
    pub mod_hashes: BTreeMap<String, Hash64>,
}

/// A combatant as summaries name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantInfo {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: String,
}

/// "a tactical, b basic": each side's AI.
pub(crate) fn side_ai_words(sides: &[String], side_ai: &[Brain]) -> String {
    sides.iter().zip(side_ai).map(|(s, b)| format!("{s} {b}")).collect::<Vec<_>>().join(", ")
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
    if let Some((i, n)) = cfg.shard {
        if n == 0 || i >= n {
            return Err(SimError::Config(format!("--shard {i}/{n}: needs i/n with n >= 1 and 0 <= i < n")));
        }
        // With more shards than runs some shards have no run at all.
        if n > cfg.runs {
            return Err(SimError::Config(format!(
                "--shard {i}/{n}: {n} shards of {} runs leave shards with no runs; use at most {} shards",
                cfg.runs, cfg.runs
            )));
        }
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
    // The encounter as parsed: formatting and comments in its file do not count, nor do its
    // names in other languages (they change no fight).
    let encounter_hash = text_hash(&ron::to_string(&encounter.without_translations()).unwrap_or_default());
    let loaded = crate::modding::load_mods(
        &crate::modding::ModRegistry::current(),
        &crate::modding::mods_dir_near(path),
        &cfg.mods,
    )
    .map_err(|m| SimError::Config(format!("--mod: {m}")))?;
    let mod_hashes = loaded
        .data
        .mods
        .iter()
        .map(|m| Ok((m.manifest.name.clone(), mod_files_hash(&m.dir)?)))
        .collect::<Result<BTreeMap<_, _>, SimError>>()?;
    let mut installed = installed_rulesets(path)?;
    for rs in &mut installed {
        loaded.data.apply(rs)?;
    }
    let rulesets: Vec<Ruleset> = match &cfg.ruleset {
        // Every ruleset: the installed ones, then those of the loaded data mods (issue 28).
        None => {
            let mut all = installed;
            for name in loaded.data.rulesets.keys() {
                if !all.iter().any(|r| &r.name == name) {
                    all.push(loaded.ruleset(name)?);
                }
            }
            all
        }
        Some(name) => match installed.iter().find(|r| &r.name == name) {
            Some(r) => vec![r.clone()],
            // A data mod's own ruleset (`--mod example-pf2e-variant --ruleset pf2e-variant`).
            None if loaded.data.rulesets.contains_key(name.as_str()) => vec![loaded.ruleset(name)?],
            None => {
                return Err(SimError::UnknownRuleset {
                    name: name.clone(),
                    installed: installed.iter().map(|r| r.name.clone()).collect(),
                    mods: cfg.mods.clone(),
                    from_mods: loaded.data.rulesets.keys().cloned().collect(),
                });
            }
        },
    };
    if rulesets.is_empty() {
        return Err(SimError::Config(format!("no installed ruleset found near {file}")));
    }
    // The Rust mods' own conditions and abilities (issue 28), in the rulesets that run only.
    let rulesets = rulesets
        .into_iter()
        .map(|rs| crate::rules::modding::ruleset_with_mods(rs, &loaded.code))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| SimError::Config(format!("--mod: {e}")))?;
    for rs in &rulesets {
        encounter.validate(&file, &text, rs)?;
    }
    if cfg.max_rounds.is_some() {
        encounter.max_rounds = cfg.max_rounds;
    }
    if let Some(f) = &cfg.gm_policy {
        let policy = crate::rules::gm_policy::GmPolicy::load(f)?;
        if !policy.is_never()
            && let Some(r) = rulesets.iter().find(|r| r.openings == crate::rules::ruleset::Openings::None)
            && cfg.ruleset.is_some()
        {
            return Err(SimError::Config(format!(
                "--gm-policy {}: `{}` has no openings (openings: None), so its GM cannot open any",
                f.display(),
                r.name
            )));
        }
        let known: Vec<&str> = encounter.sides.iter().map(|s| s.name.as_str()).collect();
        if let Some((i, s)) = policy.sides.iter().enumerate().find(|(_, s)| !known.contains(&s.as_str())) {
            // Where the file names it (the file just parsed, so it reads again).
            let text = crate::rules::data::read_data_file(f)?;
            let from = text.find("sides").unwrap_or(0);
            let at = text[from..].find(&format!("\"{s}\"")).map_or(0, |k| from + k);
            let (line, col) = crate::rules::data::position(&text, at);
            return Err(SimError::Data(crate::rules::data::DataError {
                file: f.display().to_string(),
                line,
                col,
                message: format!("sides[{i}]: `{s}` is not one of the encounter's sides: {}", known.join(", ")),
            }));
        }
        encounter.gm_policy = Some(policy);
    }
    if !cfg.side_ai.is_empty() && (cfg.ai != Brain::Tactical || cfg.side_ai.windows(2).all(|w| w[0] == w[1])) {
        // As `check::summary` reads it: different AIs per side, or one AI as `ai`.
        return Err(SimError::Config(
            "side_ai: one AI per side when they differ, with `ai` left as tactical; one AI for every side is `ai`"
                .into(),
        ));
    }
    if !cfg.side_ai.is_empty() && cfg.side_ai.len() != encounter.sides.len() {
        let names: Vec<&str> = encounter.sides.iter().map(|s| s.name.as_str()).collect();
        let ais: Vec<&str> = cfg.side_ai.iter().map(|b| b.name()).collect();
        return Err(SimError::Config(format!(
            "--ai {}: one AI per side is {} AIs here, for the sides {} in that order",
            ais.join(","),
            names.len(),
            names.join(", ")
        )));
    }
    let file_name = path.file_name().map_or(file.clone(), |f| f.to_string_lossy().into_owned());
    let sides = encounter.sides.iter().map(|s| s.name.clone()).collect();
    let combatants =
        encounter.combatants.iter().map(|c| CombatantInfo { name: c.name.clone(), side: c.side.clone() }).collect();
    Ok(Prepared {
        encounter,
        file_name,
        rulesets,
        sides,
        combatants,
        dice: cfg.dice.clone(),
        mods: loaded.code,
        encounter_hash,
        mod_hashes,
    })
}

/// The content hash of a data mod's files: every file loading reads
/// ([`crate::modding::data::mod_files`]), each with its path in the mod, in that order.
fn mod_files_hash(dir: &Path) -> Result<Hash64, SimError> {
    let mut all = String::new();
    for (shown, real) in crate::modding::data::mod_files(dir)? {
        let text = read_data_file(&real)?;
        let rel = shown.strip_prefix(dir).unwrap_or(&shown);
        all.push_str(&format!("{}\n{}\n", rel.display(), text.len()));
        all.push_str(&text);
    }
    Ok(text_hash(&all))
}

fn is_tactical(b: &Brain) -> bool {
    *b == Brain::Tactical
}

/// A batch's summary: exact tallies per ruleset, and what they show. This is `summary.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// The AI that played every side, when not the tactical AI (`--ai fast`); absent: tactical
    /// (as in every summary written before the fast tier existed).
    #[serde(default, skip_serializing_if = "is_tactical")]
    pub ai: Brain,
    /// The AI of each side, in the sides' order, when two AIs met (`--ai tactical,basic`); absent
    /// when one AI played every side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub side_ai: Vec<Brain>,
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
    /// The content hashes of what the runs were made from: shards merge only when these agree.
    pub inputs: Inputs,
}

/// The content hashes of a batch's inputs (FNV-1a, as saves use: [`crate::save::ruleset_hash`]).
/// A batch is keyed on these, not on the names of its files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inputs {
    /// The encounter as parsed (its RON text as serialized, so comments and layout do not count).
    pub encounter: Hash64,
    /// Each ruleset as played (with the data mods' abilities and conditions), by name.
    pub rulesets: BTreeMap<String, Hash64>,
    /// Each data mod's files (`mod.ron` and the `.ron` files of its folders), by name; absent when
    /// none. Rust mods are part of the program and named in `mods`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mods: BTreeMap<String, Hash64>,
    /// The AI GM's policy under each ruleset whose GM opens openings (the encounter's,
    /// `--gm-policy`'s or the ruleset's own), by ruleset name; absent for a GM who never does.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub gm_policies: BTreeMap<String, Hash64>,
}

/// One ruleset's tally and what it shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
    pub(crate) fn of(t: &Tally, sides: &[String], combatants: &[CombatantInfo]) -> Derived {
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

    /// Runs counted (the runs in `covered`; a range backwards counts none, and the count stops
    /// at `u64::MAX`: [`check`] refuses such summaries).
    pub(crate) fn runs_counted(&self) -> u64 {
        self.covered.iter().fold(0u64, |n, [a, b]| n.saturating_add(b.saturating_sub(*a)))
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
    let pool = worker_pool(cfg.jobs, range.end - range.start)?;
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
                    || run::Runner::new(prep, ri).map(|r| r.with_ai(cfg.ai).with_side_ai(&cfg.side_ai)),
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
            tally.add(r).map_err(|m| SimError::Setup(format!("runs under `{}`: {m}", rs.name)))?;
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
        ai: cfg.ai,
        side_ai: cfg.side_ai.clone(),
        covered,
        sides: prep.sides.clone(),
        combatants: prep.combatants.clone(),
        rulesets: summaries,
        mods: cfg.mods.clone(),
        inputs: Inputs {
            encounter: prep.encounter_hash,
            rulesets: prep.rulesets.iter().map(|r| (r.name.clone(), ruleset_hash(r))).collect(),
            mods: prep.mod_hashes.clone(),
            gm_policies: prep
                .rulesets
                .iter()
                .map(|r| (r.name.clone(), prep.encounter.gm_policy_under(r)))
                .filter(|(_, p)| !p.is_never())
                .map(|(n, p)| (n, text_hash(&ron::to_string(&p).unwrap_or_default())))
                .collect(),
        },
    };
    Ok(Batch { summary, records })
}

/// Merge shard summaries: the same encounter, seed, N, round cap, sides, combatants, rulesets,
/// mods and inputs' content hashes, and runs that do not overlap. Each part is checked first
/// ([`check::summary`]); tallies add with checked arithmetic; `derived` is recomputed. Errors
/// name the part by its position (`part 2`); `merge_named` names them.
pub fn merge(parts: &[Summary]) -> Result<Summary, SimError> {
    let named: Vec<(String, &Summary)> =
        parts.iter().enumerate().map(|(i, p)| (format!("part {}", i + 1), p)).collect();
    merge_named(&named)
}

/// As [`merge`], each part with the name errors give it (its file).
pub(crate) fn merge_named(parts: &[(String, &Summary)]) -> Result<Summary, SimError> {
    let Some((first_name, first)) = parts.first() else {
        return Err(SimError::Merge("nothing to merge".into()));
    };
    for (name, p) in parts {
        check::summary(p).map_err(|e| SimError::Merge(format!("{name}: {e}")))?;
    }
    let mut out = (*first).clone();
    for (name, p) in parts.iter().skip(1) {
        if let Some(what) = check::same_batch(first, p) {
            return Err(SimError::Merge(format!("{name} is not of the same batch as {first_name}: {what}")));
        }
        for (ri, (a, b)) in out.rulesets.iter_mut().zip(&p.rulesets).enumerate() {
            a.tally.merge(&b.tally).map_err(|m| {
                SimError::Merge(format!("{name}: rulesets[{ri}].tally.{m} when added to the parts before it"))
            })?;
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
    // Sums of consistent parts are consistent; checked all the same before anything is shown.
    check::summary(&out).map_err(|e| SimError::Merge(format!("the merged summary: {e}")))?;
    Ok(out)
}

/// One shard's outputs as read: its folder, and the text of its `summary.json` and `runs.csv`.
#[derive(Debug, Clone)]
pub struct ShardText {
    /// The shard's folder.
    pub dir: PathBuf,
    /// `summary.json`.
    pub summary: String,
    /// `runs.csv`.
    pub runs_csv: String,
}

impl ShardText {
    /// Read the outputs in `dir`: regular files only, of bounded size ([`check::read_capped`]).
    pub fn read(dir: &Path) -> Result<ShardText, SimError> {
        Ok(ShardText {
            dir: dir.to_path_buf(),
            summary: check::read_capped(&dir.join("summary.json"), check::MAX_SUMMARY_BYTES)?,
            runs_csv: check::read_capped(&dir.join("runs.csv"), check::MAX_CSV_BYTES)?,
        })
    }
}

/// Merge shards' outputs: each `summary.json` is parsed and checked ([`parse_summary`]), each
/// `runs.csv` checked against it ([`check::runs_csv`]), then the summaries merged (`merge_named`)
/// and the rows (`output::merge_csv`). Returns the merged summary and `runs.csv`.
pub fn merge_shards(shards: &[ShardText]) -> Result<(Summary, Vec<u8>), SimError> {
    let mut parts = Vec::with_capacity(shards.len());
    for sh in shards {
        let file = sh.dir.join("summary.json").display().to_string();
        let s = parse_summary(&file, &sh.summary)?;
        check::runs_csv(&sh.dir.join("runs.csv").display().to_string(), &sh.runs_csv, &s)?;
        parts.push((file, s));
    }
    let named: Vec<(String, &Summary)> = parts.iter().map(|(f, s)| (f.clone(), s)).collect();
    let merged = merge_named(&named)?;
    let csvs: Vec<(PathBuf, &str)> = shards.iter().map(|sh| (sh.dir.join("runs.csv"), sh.runs_csv.as_str())).collect();
    let csv = output::merge_csv(&merged, &csvs)?;
    Ok((merged, csv))
}

/// Parse a `summary.json` read from `file` (a regular file of at most
/// [`check::MAX_SUMMARY_BYTES`]), checking its layout version, its fields (an unknown one is an
/// error) and its consistency (`check::summary_text`), and recompute what is derived.
pub fn parse_summary(file: &str, text: &str) -> Result<Summary, SimError> {
    let at =
        |e: &serde_json::Error, what: String| SimError::Merge(format!("{file}:{}:{}: {what}", e.line(), e.column()));
    // The version first: a file from a newer build reads as newer, whatever else is in it.
    #[derive(Deserialize)]
    struct Head {
        format: Option<serde_json::Value>,
    }
    let head: Head = serde_json::from_str(text).map_err(|e| at(&e, e.to_string()))?;
    match head.format {
        Some(serde_json::Value::Number(n)) if n.as_u64() == Some(u64::from(FORMAT)) => {}
        Some(serde_json::Value::Number(n)) if n.as_u64().is_some_and(|v| v > u64::from(FORMAT)) => {
            return Err(SimError::Merge(format!(
                "{file}: format {n} is newer than this build reads ({FORMAT}): merge it with a newer skirmish"
            )));
        }
        Some(v) => {
            return Err(SimError::Merge(format!(
                "{file}: format {v}: this build reads format {FORMAT} (remake the shard with this build)"
            )));
        }
        None => return Err(SimError::Merge(format!("{file}: format: missing (this build reads format {FORMAT})"))),
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    let mut s: Summary = serde_path_to_error::deserialize(de).map_err(|e| {
        let inner = e.inner();
        SimError::Merge(format!("{file}:{}:{}: {}: {}", inner.line(), inner.column(), e.path(), inner))
    })?;
    check::summary_text(file, text, &s)?;
    s.rederive();
    Ok(s)
}
