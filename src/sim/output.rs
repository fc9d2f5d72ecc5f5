//! The simulator's outputs: the terminal table, `summary.json`, `runs.csv`, and writing files
//! atomically (a temporary file in the same folder, then a rename).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::stats::{Rate, RunRecord};
use super::{SimError, Summary};

/// `summary.json`: the summary as pretty JSON with a final newline.
pub fn summary_json(s: &Summary) -> Result<Vec<u8>, SimError> {
    let mut v = serde_json::to_vec_pretty(s).map_err(|e| SimError::Io(format!("cannot write the summary: {e}")))?;
    v.push(b'\n');
    Ok(v)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// The header of `runs.csv`.
pub(crate) fn csv_header(s: &Summary) -> String {
    let mut h = String::from("ruleset,run,seed,outcome,rounds,commands");
    for c in &s.combatants {
        for what in ["dealt", "taken", "downs", "deaths"] {
            h.push(',');
            h.push_str(&csv_field(&format!("{}:{what}", c.name)));
        }
    }
    h
}

/// One row of `runs.csv`.
pub(crate) fn csv_row(s: &Summary, ruleset: &str, r: &RunRecord) -> String {
    let mut row = format!(
        "{},{},{},{},{},{}",
        csv_field(ruleset),
        r.run,
        s.seed + r.run,
        csv_field(&r.outcome.label(&s.sides)),
        r.rounds,
        r.commands
    );
    for c in &r.combatants {
        let _ = write!(row, ",{},{},{},{}", c.damage_dealt, c.damage_taken, c.downs, c.deaths);
    }
    row
}

/// `runs.csv`: a header, then one row per run, ruleset by ruleset in run order.
pub fn runs_csv(s: &Summary, records: &[Vec<RunRecord>]) -> Vec<u8> {
    let mut out = csv_header(s);
    out.push('\n');
    for (rs, recs) in s.rulesets.iter().zip(records) {
        for r in recs {
            out.push_str(&csv_row(s, &rs.ruleset, r));
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// Merge the rows of shards' `runs.csv` files: the same header, rows ordered by ruleset (in the
/// summary's order) and run. Each file should have passed [`super::check::runs_csv`]; a row in
/// two files is refused all the same.
pub(crate) fn merge_csv(s: &Summary, parts: &[(PathBuf, &str)]) -> Result<Vec<u8>, SimError> {
    let header = csv_header(s);
    let mut rows: Vec<(usize, u64, &str)> = Vec::new();
    for (path, text) in parts {
        let mut lines = text.lines();
        if lines.next() != Some(header.as_str()) {
            return Err(SimError::Merge(format!("{}:1:1: the header is not this batch's", path.display())));
        }
        for (n, line) in lines.enumerate() {
            let bad = || SimError::Merge(format!("{}:{}:1: not a run row", path.display(), n + 2));
            let fields = super::check::split_csv(line, 2).ok_or_else(bad)?;
            let (Some((_, rs)), Some((_, run))) = (fields.first(), fields.get(1)) else { return Err(bad()) };
            let ri = s.rulesets.iter().position(|r| &r.ruleset == rs).ok_or_else(bad)?;
            rows.push((ri, run.parse().map_err(|_| bad())?, line));
        }
    }
    rows.sort_by_key(|(ri, run, _)| (*ri, *run));
    if let Some(w) = rows.windows(2).find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1)) {
        return Err(SimError::Merge(format!("run {} of `{}` is in two shards", w[0].1, s.rulesets[w[0].0].ruleset)));
    }
    let mut out = header;
    out.push('\n');
    for (_, _, line) in rows {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out.into_bytes())
}

fn pct(r: Option<Rate>) -> String {
    match r {
        Some(r) => format!("{:.1}% ({:.1}–{:.1})", r.rate * 100.0, r.low * 100.0, r.high * 100.0),
        None => "-".into(),
    }
}

fn num(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x:.2}"))
}

fn pair(a: u64, b: u64, n: u64) -> String {
    if n == 0 { "-".into() } else { format!("{:.2} / {:.2}", a as f64 / n as f64, b as f64 / n as f64) }
}

/// The summary as a table, one column per ruleset.
pub fn table(s: &Summary) -> String {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let col = |f: &dyn Fn(&super::RulesetSummary) -> String| s.rulesets.iter().map(f).collect::<Vec<_>>();
    rows.push(("".into(), col(&|r| r.ruleset.clone())));
    rows.push(("runs".into(), col(&|r| r.tally.runs.to_string())));
    rows.push((
        "AI GM opens openings".into(),
        col(&|r| if s.inputs.gm_policies.contains_key(&r.ruleset) { "yes".into() } else { "no".into() }),
    ));
    for (i, side) in s.sides.iter().enumerate() {
        rows.push((format!("{side} wins (95% CI)"), col(&|r| pct(r.derived.sides.get(i).and_then(|d| d.win)))));
    }
    rows.push(("draws at round cap".into(), col(&|r| pct(r.derived.draws_round_cap))));
    rows.push((
        "other draws / unfinished".into(),
        col(&|r| format!("{} / {}", r.tally.draws_other, r.tally.unfinished)),
    ));
    rows.push(("rounds mean".into(), col(&|r| num(r.derived.rounds_mean))));
    rows.push((
        "rounds median [p5, p95]".into(),
        col(&|r| match (r.derived.rounds_median, r.derived.rounds_p5, r.derived.rounds_p95) {
            (Some(m), Some(a), Some(b)) => format!("{m} [{a}, {b}]"),
            _ => "-".into(),
        }),
    ));
    for (i, c) in s.combatants.iter().enumerate() {
        let t = |r: &super::RulesetSummary| r.tally.combatants.get(i).copied().unwrap_or_default();
        rows.push((format!("{} ({})", c.name, c.side), col(&|_| String::new())));
        rows.push((
            "  damage dealt / taken per round".into(),
            col(&|r| {
                let c = t(r);
                pair(c.damage_dealt, c.damage_taken, r.tally.rounds_sum)
            }),
        ));
        rows.push(("  downs / deaths per run".into(), col(&|r| pair(t(r).downs, t(r).deaths, r.tally.runs))));
        rows.push((
            "  actions spent / forfeited per run".into(),
            col(&|r| pair(t(r).actions_spent, t(r).actions_forfeited, r.tally.runs)),
        ));
        rows.push((
            "  reactions taken / provoked per run".into(),
            col(&|r| pair(t(r).reactions_taken, t(r).reactions_provoked, r.tally.runs)),
        ));
        rows.push((
            "  openings offered / taken per run".into(),
            col(&|r| pair(t(r).openings_offered, t(r).openings_taken, r.tally.runs)),
        ));
        rows.push((
            "  openings passed / provoked per run".into(),
            col(&|r| pair(t(r).openings_passed, t(r).openings_provoked, r.tally.runs)),
        ));
        rows.push((
            "  AoO taken / provoked per run".into(),
            col(&|r| pair(t(r).aoo_taken, t(r).aoo_provoked, r.tally.runs)),
        ));
    }
    let w0 = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..s.rulesets.len())
        .map(|j| rows.iter().map(|(_, c)| c.get(j).map_or(0, |x| x.chars().count())).max().unwrap_or(0))
        .collect();
    let mut out = format!(
        "{} ({}): runs {} of {}, seed {} (run k uses seed {} + k)\n",
        s.encounter,
        s.file,
        s.covered.iter().map(|[a, b]| format!("{a}..{b}")).collect::<Vec<_>>().join(", "),
        s.runs,
        s.seed,
        s.seed
    );
    if !s.side_ai.is_empty() {
        let _ = writeln!(out, "a match between AIs, by side: {}", super::side_ai_words(&s.sides, &s.side_ai));
    } else if s.ai != crate::ai::Brain::Tactical {
        let _ = writeln!(out, "played by the {} AI on every side (not the tactical AI, the reference)", s.ai);
    }
    for (label, cells) in &rows {
        let _ = write!(out, "{label:<w0$}");
        for (c, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {c:>w$}");
        }
        out.push('\n');
    }
    out
}

/// The files the simulator writes into `--out`.
pub const OUTPUT_FILES: [&str; 3] = ["summary.json", "runs.csv", "report.svg"];

/// Check that `dir` can take the outputs before any run starts: create it if needed, write (then
/// remove) a probe file, and each of [`OUTPUT_FILES`] in `dir` is new or a regular file that is
/// none of `inputs` ([`crate::outfile::check_target`]).
pub(crate) fn check_outputs(dir: &Path, inputs: &[&Path]) -> Result<(), SimError> {
    let err = |e: std::io::Error| SimError::Io(format!("--out {}: cannot write there: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(err)?;
    for name in OUTPUT_FILES {
        crate::outfile::check_target(&dir.join(name), inputs).map_err(|m| SimError::Io(format!("--out: {m}")))?;
    }
    // The probe is a new file of its own (never one already there, whatever it is).
    let probe = crate::outfile::write_temp(&dir.join("probe"), b"probe")
        .map_err(|m| SimError::Io(format!("--out {}: cannot write there: {m}", dir.display())))?;
    std::fs::remove_file(&probe).map_err(err)
}

/// Write files into `dir` atomically: each to a temporary file in `dir` first; only when every
/// one is written are they renamed into place. On an error the temporary files are removed and
/// no output file is touched. Only new paths and existing regular files are written
/// ([`crate::outfile::check_target`]).
pub fn write_atomic(dir: &Path, files: &[(&str, Vec<u8>)]) -> Result<(), SimError> {
    write_outputs(dir, files, &[])
}

/// As [`write_atomic`], also refusing an output that is one of `inputs`.
pub(crate) fn write_outputs(dir: &Path, files: &[(&str, Vec<u8>)], inputs: &[&Path]) -> Result<(), SimError> {
    use crate::outfile;
    let err = |p: &Path, e: std::io::Error| SimError::Io(format!("{}: cannot write: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let targets: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
    // Anything but a regular file in a file's place would stop a rename half-way or be
    // destroyed by it: refuse before writing any.
    let refs: Vec<&Path> = targets.iter().map(PathBuf::as_path).collect();
    outfile::check_targets(&refs, inputs).map_err(SimError::Io)?;
    let mut temps: Vec<PathBuf> = Vec::new();
    let result = (|| {
        for ((_, bytes), target) in files.iter().zip(&targets) {
            temps.push(outfile::write_temp(target, bytes).map_err(SimError::Io)?);
        }
        for (tmp, target) in temps.iter().zip(&targets) {
            outfile::commit(tmp, target, inputs).map_err(SimError::Io)?;
        }
        Ok(())
    })();
    if result.is_err() {
        for tmp in &temps {
            let _ = std::fs::remove_file(tmp);
        }
    }
    result
}
