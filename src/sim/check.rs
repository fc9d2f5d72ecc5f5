//! Checking shard outputs before they are merged (`sim merge`): nothing in a shard is trusted.
//!
//! - Files are read only when they are regular files, and at most [`MAX_SUMMARY_BYTES`] or
//!   [`MAX_CSV_BYTES`] of them (`read_capped`): a FIFO or a device is refused before it is
//!   opened.
//! - A summary must be consistent in itself ([`summary`]): the runs it covers lie in the batch,
//!   each ruleset's tally counts exactly those runs (outcomes, the round histogram and its sum),
//!   and the relations that hold for every run by construction hold for the sums. Read from a
//!   file (`summary_text`), its `derived` statistics must also be what the tallies give, and a
//!   problem is named as `file:line:col: field: message`.
//! - `runs.csv` must hold exactly the rows the summary counts, in order, each as the simulator
//!   writes it, and the rows must add up to the tallies ([`runs_csv`]).
//! - Shards merge only when they are of the same batch (`same_batch`), including the content
//!   hashes of its inputs.
//!
//! Not checked, because no exact relation holds: downs and deaths per run (a creature can be
//! healed and go down again), damage against hit points, reactions and openings against each
//! other beyond `aoo_taken <= reactions_taken` and `openings_taken + openings_passed <=
//! openings_offered`. The counts `runs.csv` has no column for
//! (actions spent and forfeited, reactions, openings and attacks of opportunity) are checked only
//! against the `derived` values where those show them (actions); a shard edited consistently in
//! those counts and their derived values cannot be told from a real one.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde_json::Value;

use super::output::{csv_header, csv_row};
use super::stats::{CombatantCounts, Outcome, RunRecord};
use super::{Derived, MAX_COMMANDS, MAX_RUNS, SimError, Summary};
use crate::rules::limits::MAX_ROUNDS;

/// The largest `summary.json` read (64 MiB).
pub const MAX_SUMMARY_BYTES: u64 = 64 << 20;
/// The largest `runs.csv` read (1 GiB).
pub const MAX_CSV_BYTES: u64 = 1 << 30;

/// Read a text file of at most `cap` bytes: only a regular file, never blocking
/// ([`crate::rules::data::read_capped`]).
pub(crate) fn read_capped(path: &Path, cap: u64) -> Result<String, SimError> {
    let err = |m: String| SimError::Io(format!("{}: cannot read: {m}", path.display()));
    let bytes = crate::rules::data::read_capped(path, cap, "this file").map_err(err)?;
    String::from_utf8(bytes).map_err(|e| err(format!("not UTF-8 text ({e})")))
}

/// One step of the way to a field in `summary.json`'s text: the `nth` (from 1) occurrence of a
/// key after the step before.
#[derive(Debug, Clone)]
struct Step {
    key: String,
    nth: usize,
}

/// A summary that is not consistent: the field (`rulesets[0].tally.wins`), what is wrong, and
/// where to look for the field in the file's text.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The field's path.
    pub field: String,
    /// What is wrong.
    pub message: String,
    steps: Vec<Step>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

fn step(key: &str, nth: usize) -> Step {
    Step { key: key.to_string(), nth }
}

impl Problem {
    fn top(key: &str, message: String) -> Problem {
        Problem { field: key.into(), message, steps: vec![step(key, 1)] }
    }

    fn tally(ri: usize, key: &str, message: String) -> Problem {
        Problem {
            field: format!("rulesets[{ri}].tally.{key}"),
            message,
            steps: vec![step("ruleset", ri + 1), step("tally", 1), step(key, 1)],
        }
    }

    fn combatant(ri: usize, ci: usize, key: &str, message: String) -> Problem {
        Problem {
            field: format!("rulesets[{ri}].tally.combatants[{ci}].{key}"),
            message,
            steps: vec![step("ruleset", ri + 1), step("tally", 1), step("damage_dealt", ci + 1), step(key, 1)],
        }
    }

    /// The line and column of the field in `text` (as far as the steps are found; else 1:1).
    fn position(&self, text: &str) -> (usize, usize) {
        let mut at = None;
        let mut from = 0;
        'steps: for s in &self.steps {
            let needle = format!("\"{}\":", s.key);
            let mut i = from;
            for _ in 0..s.nth {
                match text[i..].find(&needle) {
                    Some(o) => i += o + needle.len(),
                    None => break 'steps,
                }
            }
            let start = i - needle.len();
            at = Some(start);
            from = i;
        }
        let Some(at) = at else { return (1, 1) };
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

/// Check that a summary is consistent in itself: the batch's size and seed, the covered runs,
/// the sides, combatants, rulesets and input hashes, and each ruleset's tally against the runs
/// covered. `derived` is not looked at here (see `summary_text`).
pub(crate) fn summary(s: &Summary) -> Result<(), Problem> {
    if s.runs == 0 || s.runs > MAX_RUNS {
        return Err(Problem::top("runs", format!("{} is not a batch size (1..={MAX_RUNS})", s.runs)));
    }
    if s.seed.checked_add(s.runs).is_none() {
        return Err(Problem::top("seed", format!("{} plus {} runs does not fit in 64 bits", s.seed, s.runs)));
    }
    if let Some(r) = s.max_rounds
        && !(1..=MAX_ROUNDS).contains(&r)
    {
        return Err(Problem::top("max_rounds", format!("{r} is out of range 1..={MAX_ROUNDS}")));
    }
    if s.covered.is_empty() {
        return Err(Problem::top("covered", "no runs: a shard covers at least one run".into()));
    }
    if !s.side_ai.is_empty() {
        if s.side_ai.len() != s.sides.len() {
            return Err(Problem::top(
                "side_ai",
                format!("{} AIs for {} sides: one AI per side", s.side_ai.len(), s.sides.len()),
            ));
        }
        if s.ai != crate::ai::Brain::Tactical {
            return Err(Problem::top("side_ai", format!("with `ai: {}` as well: one or the other", s.ai)));
        }
        if s.side_ai.windows(2).all(|w| w[0] == w[1]) {
            return Err(Problem::top("side_ai", "the same AI on every side is written as `ai`".into()));
        }
    }
    let mut end = None;
    for (i, [a, b]) in s.covered.iter().enumerate() {
        if a >= b || *b > s.runs {
            return Err(Problem::top(
                "covered",
                format!("[{a}, {b}] (entry {i}) is not a range of runs in 0..{} with from < to", s.runs),
            ));
        }
        if end.is_some_and(|e| *a <= e) {
            return Err(Problem::top("covered", format!("[{a}, {b}] (entry {i}) is not after the range before it")));
        }
        end = Some(*b);
    }
    let covered = s.runs_counted();
    if s.sides.len() < 2 {
        return Err(Problem::top("sides", "a batch has at least two sides".into()));
    }
    // The lists are bounded as an encounter's are, before anything is compared across them, and
    // compared through sets: a huge file costs its length, not its square.
    let most_sides = crate::rules::limits::MAX_LIST;
    let most_combatants = crate::rules::limits::MAX_ENCOUNTER_COMBATANTS;
    if s.sides.len() > most_sides {
        return Err(Problem::top("sides", format!("{} sides: an encounter has at most {most_sides}", s.sides.len())));
    }
    if s.combatants.len() > most_combatants {
        return Err(Problem::top(
            "combatants",
            format!("{} combatants: an encounter has at most {most_combatants}", s.combatants.len()),
        ));
    }
    if s.rulesets.len() > most_sides {
        return Err(Problem::top("rulesets", format!("{} rulesets: at most {most_sides}", s.rulesets.len())));
    }
    let mut sides = std::collections::BTreeSet::new();
    for side in &s.sides {
        if !sides.insert(side) {
            return Err(Problem::top("sides", format!("`{side}` is listed twice")));
        }
    }
    if s.combatants.is_empty() {
        return Err(Problem::top("combatants", "a batch has combatants".into()));
    }
    for (i, c) in s.combatants.iter().enumerate() {
        if !sides.contains(&c.side) {
            return Err(Problem {
                field: format!("combatants[{i}].side"),
                message: format!("`{}` is not one of the sides", c.side),
                steps: vec![step("combatants", 1), step("side", i + 1)],
            });
        }
    }
    if s.rulesets.is_empty() {
        return Err(Problem::top("rulesets", "a batch has at least one ruleset".into()));
    }
    let mut rulesets = std::collections::BTreeSet::new();
    for r in &s.rulesets {
        if !rulesets.insert(&r.ruleset) {
            return Err(Problem::top("rulesets", format!("`{}` is listed twice", r.ruleset)));
        }
    }
    let names: Vec<&String> = s.rulesets.iter().map(|r| &r.ruleset).collect();
    if !s.inputs.rulesets.keys().eq(names.iter().copied().collect::<std::collections::BTreeSet<_>>()) {
        return Err(Problem {
            field: "inputs.rulesets".into(),
            message: format!(
                "hashes for {:?}, but the rulesets played are {names:?}",
                s.inputs.rulesets.keys().collect::<Vec<_>>()
            ),
            steps: vec![step("inputs", 1), step("rulesets", 1)],
        });
    }
    for (ri, r) in s.rulesets.iter().enumerate() {
        tally(s, ri, covered).map_err(|mut p| {
            p.field = format!("{} (ruleset `{}`)", p.field, r.ruleset);
            p
        })?;
    }
    Ok(())
}

/// Check one ruleset's tally against the `covered` runs.
fn tally(s: &Summary, ri: usize, covered: u64) -> Result<(), Problem> {
    let t = &s.rulesets[ri].tally;
    if t.runs != covered {
        return Err(Problem::tally(ri, "runs", format!("{} runs, but `covered` has {covered}", t.runs)));
    }
    if t.wins.len() != s.sides.len() {
        return Err(Problem::tally(ri, "wins", format!("{} entries for {} sides", t.wins.len(), s.sides.len())));
    }
    if t.combatants.len() != s.combatants.len() {
        return Err(Problem::tally(
            ri,
            "combatants",
            format!("{} entries for {} combatants", t.combatants.len(), s.combatants.len()),
        ));
    }
    let outcomes: u128 = t.wins.iter().map(|&w| u128::from(w)).sum::<u128>()
        + u128::from(t.draws_round_cap)
        + u128::from(t.draws_other)
        + u128::from(t.unfinished);
    if outcomes != u128::from(t.runs) {
        return Err(Problem::tally(
            ri,
            "wins",
            format!(
                "wins {:?} + draws at the cap {} + other draws {} + unfinished {} = {outcomes}, but {} runs \
                 were counted",
                t.wins, t.draws_round_cap, t.draws_other, t.unfinished, t.runs
            ),
        ));
    }
    let cap = s.max_rounds.unwrap_or(MAX_ROUNDS) as usize;
    if t.rounds_histogram.len() > cap + 1 {
        return Err(Problem::tally(
            ri,
            "rounds_histogram",
            format!("{} entries: no run lasts past round {cap}", t.rounds_histogram.len()),
        ));
    }
    if t.rounds_histogram.last() == Some(&0) {
        return Err(Problem::tally(
            ri,
            "rounds_histogram",
            "ends in 0: the simulator ends it at the longest run".into(),
        ));
    }
    let in_histogram: u128 = t.rounds_histogram.iter().map(|&n| u128::from(n)).sum();
    if in_histogram != u128::from(t.runs) {
        return Err(Problem::tally(
            ri,
            "rounds_histogram",
            format!("counts {in_histogram} runs, but {} runs were counted", t.runs),
        ));
    }
    let rounds: u128 = t.rounds_histogram.iter().enumerate().map(|(r, &n)| r as u128 * u128::from(n)).sum();
    if rounds != u128::from(t.rounds_sum) {
        return Err(Problem::tally(
            ri,
            "rounds_sum",
            format!("{}, but the histogram's runs last {rounds} rounds in all", t.rounds_sum),
        ));
    }
    let most = u128::from(t.runs) * MAX_COMMANDS as u128;
    if u128::from(t.commands) > most {
        return Err(Problem::tally(
            ri,
            "commands",
            format!("{} commands in {} runs: a run sends at most {MAX_COMMANDS}", t.commands, t.runs),
        ));
    }
    for (ci, c) in t.combatants.iter().enumerate() {
        if c.aoo_taken > c.reactions_taken {
            return Err(Problem::combatant(
                ri,
                ci,
                "aoo_taken",
                format!(
                    "{} attacks of opportunity but {} reactions: each such attack is a reaction",
                    c.aoo_taken, c.reactions_taken
                ),
            ));
        }
        if c.openings_taken.saturating_add(c.openings_passed) > c.openings_offered {
            return Err(Problem::combatant(
                ri,
                ci,
                "openings_offered",
                format!(
                    "{} openings taken and {} passed but {} offered: each is an answer to an offer",
                    c.openings_taken, c.openings_passed, c.openings_offered
                ),
            ));
        }
    }
    Ok(())
}

/// One step of a path in a JSON value.
enum Seg {
    Key(String),
    Index(usize),
}

/// Where `a` (from the file) first differs from `b` (recomputed): the path and both values.
/// Numbers compare with a relative tolerance of 1e-12 (JSON text need not give back the last
/// bit of a float).
fn first_difference(a: &Value, b: &Value, path: &mut Vec<Seg>) -> Option<String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let same = match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => match (x.as_f64(), y.as_f64()) {
                    (Some(x), Some(y)) => (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0),
                    _ => false,
                },
            };
            (!same).then(|| format!("{a} in the file, but the tally gives {b}"))
        }
        (Value::Object(x), Value::Object(y)) => {
            for (k, vy) in y {
                let Some(vx) = x.get(k) else { return Some(format!("missing; the tally gives {vy}")) };
                path.push(Seg::Key(k.clone()));
                if let Some(d) = first_difference(vx, vy, path) {
                    return Some(d);
                }
                path.pop();
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{} entries in the file, but the tally gives {}", x.len(), y.len()));
            }
            for (i, (vx, vy)) in x.iter().zip(y).enumerate() {
                path.push(Seg::Index(i));
                if let Some(d) = first_difference(vx, vy, path) {
                    return Some(d);
                }
                path.pop();
            }
            None
        }
        _ => (a != b).then(|| format!("{a} in the file, but the tally gives {b}")),
    }
}

/// Check a summary read from `file` (whose text is `text`): its consistency ([`summary`]), and
/// that every `derived` value is what its tally gives. Errors are `file:line:col: field: message`.
pub(crate) fn summary_text(file: &str, text: &str, s: &Summary) -> Result<(), SimError> {
    let located = |p: Problem| {
        let (line, col) = p.position(text);
        SimError::Merge(format!("{file}:{line}:{col}: {p}"))
    };
    summary(s).map_err(located)?;
    for (ri, r) in s.rulesets.iter().enumerate() {
        let want = Derived::of(&r.tally, &s.sides, &s.combatants);
        let (Ok(found), Ok(want)) = (serde_json::to_value(&r.derived), serde_json::to_value(&want)) else {
            continue;
        };
        let mut path = Vec::new();
        if let Some(message) = first_difference(&found, &want, &mut path) {
            let mut field = format!("rulesets[{ri}].derived");
            let mut steps = vec![step("ruleset", ri + 1), step("derived", 1)];
            // In the i-th element of a list, a key is its (i+1)-th occurrence after the list's
            // (every element has every key).
            let mut nth = 1;
            for seg in &path {
                match seg {
                    Seg::Key(k) => {
                        field.push('.');
                        field.push_str(k);
                        steps.push(step(k, nth));
                        nth = 1;
                    }
                    Seg::Index(i) => {
                        field.push_str(&format!("[{i}]"));
                        nth = i + 1;
                    }
                }
            }
            return Err(located(Problem { field, message, steps }));
        }
    }
    Ok(())
}

/// Whether shard summaries `b` and `a` are of the same batch: `None` if so, else what differs.
pub(crate) fn same_batch(a: &Summary, b: &Summary) -> Option<String> {
    let differs = |what: &str, x: &dyn fmt::Debug, y: &dyn fmt::Debug| Some(format!("{what}: {y:?}, not {x:?}"));
    // The first field of the batch's identity that differs, by name.
    macro_rules! same {
        ($($field:ident),*) => {
            $(if a.$field != b.$field {
                return differs(stringify!($field), &a.$field, &b.$field);
            })*
        };
    }
    same!(format, encounter, file, seed, runs, max_rounds, ai, side_ai, sides, combatants, mods);
    let names = |s: &Summary| s.rulesets.iter().map(|r| r.ruleset.clone()).collect::<Vec<_>>();
    if names(a) != names(b) {
        return differs("rulesets", &names(a), &names(b));
    }
    if a.inputs.encounter != b.inputs.encounter {
        return Some(format!(
            "inputs.encounter: made from other encounter content (hash {}, not {})",
            b.inputs.encounter, a.inputs.encounter
        ));
    }
    for (name, h) in &a.inputs.rulesets {
        if b.inputs.rulesets.get(name) != Some(h) {
            let theirs = b.inputs.rulesets.get(name).map_or("none".into(), |x| x.to_string());
            return Some(format!(
                "inputs.rulesets.{name}: ruleset `{name}` played with other content (hash {theirs}, not {h})"
            ));
        }
    }
    if let Some((name, theirs, ours)) = first_hash_difference(&a.inputs.gm_policies, &b.inputs.gm_policies, "never") {
        return Some(format!(
            "inputs.gm_policies.{name}: the GM of `{name}` played with another policy (hash {theirs}, not {ours})"
        ));
    }
    if let Some((name, theirs, ours)) = first_hash_difference(&a.inputs.mods, &b.inputs.mods, "none") {
        return Some(format!("inputs.mods.{name}: data mod `{name}` with other content (hash {theirs}, not {ours})"));
    }
    None
}

/// The first key whose hash differs between two maps of content hashes: the key, `b`'s hash and
/// `a`'s (`absent` where one map has no entry).
fn first_hash_difference(
    a: &BTreeMap<String, crate::save::Hash64>,
    b: &BTreeMap<String, crate::save::Hash64>,
    absent: &str,
) -> Option<(String, String, String)> {
    let name = a.keys().chain(b.keys()).find(|k| a.get(*k) != b.get(*k))?;
    let show = |m: &BTreeMap<String, crate::save::Hash64>| m.get(name).map_or(absent.to_string(), |x| x.to_string());
    Some((name.clone(), show(b), show(a)))
}

/// Split one CSV line as [`csv_row`] writes it: fields separated by commas, a field with a comma
/// or a quote in double quotes with inner quotes doubled. Each field with its 1-based column.
/// `None`: a quote is not closed, or text follows a closing quote. At most `most + 1` fields are
/// returned (the split stops there: a longer line is wrong anyway), so one huge line costs no more
/// than its length.
pub(crate) fn split_csv(line: &str, most: usize) -> Option<Vec<(usize, String)>> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    // Characters consumed so far: the next field's column is `used + 1`.
    let mut used = 0usize;
    loop {
        let col = used + 1;
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            used += 1;
            loop {
                used += 1;
                match chars.next()? {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        used += 1;
                        field.push('"');
                    }
                    '"' => break,
                    c => field.push(c),
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| *c != ',') {
                used += 1;
                field.push(c);
            }
        }
        out.push((col, field));
        // After a field: the line's end, or a comma and the next field (text after a closing
        // quote is no CSV).
        match chars.next() {
            None => return Some(out),
            Some(',') => used += 1,
            Some(_) => return None,
        }
        if out.len() > most {
            return Some(out);
        }
    }
}

/// Sums of one ruleset's rows of `runs.csv`.
struct RowSums {
    outcomes: BTreeMap<String, u64>,
    histogram: Vec<u64>,
    commands: u64,
    combatants: Vec<CombatantCounts>,
    first_line: usize,
    last_line: usize,
}

/// Check a shard's `runs.csv` (`file`, whose text is `text`) against its summary: the header,
/// then exactly one row per run counted, ruleset by ruleset in run order, each row as the
/// simulator writes it (its seed is the batch's seed + run); and the rows' outcomes, rounds,
/// commands and per-combatant damage, downs and deaths add up to the tallies. The summary must
/// have passed [`summary`]. Errors are `file:line:col: message`.
pub(crate) fn runs_csv(file: &str, text: &str, s: &Summary) -> Result<(), SimError> {
    let at = |line: usize, col: usize, m: String| SimError::Merge(format!("{file}:{line}:{col}: {m}"));
    let mut lines = text.split('\n');
    let header = csv_header(s);
    if lines.next() != Some(header.as_str()) {
        return Err(at(1, 1, "the header is not this batch's (its columns name other combatants)".into()));
    }
    let columns: Vec<String> = split_csv(&header, usize::MAX).unwrap_or_default().into_iter().map(|(_, f)| f).collect();
    let n = s.combatants.len();
    let mut expected = s
        .rulesets
        .iter()
        .enumerate()
        .flat_map(|(ri, _)| s.covered.iter().flat_map(move |[a, b]| (*a..*b).map(move |run| (ri, run))));
    let mut sums: Vec<RowSums> = s
        .rulesets
        .iter()
        .map(|_| RowSums {
            outcomes: BTreeMap::new(),
            histogram: Vec::new(),
            commands: 0,
            combatants: vec![CombatantCounts::default(); n],
            first_line: 0,
            last_line: 0,
        })
        .collect();
    let cap = s.max_rounds.unwrap_or(MAX_ROUNDS);
    let mut ended = false;
    for (i, line) in lines.enumerate() {
        let ln = i + 2;
        if ended || line.is_empty() {
            // Only the final newline may leave an empty last line.
            if line.is_empty() && !ended {
                ended = true;
                continue;
            }
            return Err(at(ln, 1, "a row after an empty line (rows end at the first empty line)".into()));
        }
        let fields =
            split_csv(line, columns.len()).ok_or_else(|| at(ln, 1, "not a CSV row (a quote is not closed)".into()))?;
        if fields.len() > columns.len() {
            return Err(at(ln, 1, format!("more fields than the header's {}", columns.len())));
        }
        if fields.len() != columns.len() {
            return Err(at(ln, 1, format!("{} fields, the header has {}", fields.len(), columns.len())));
        }
        let num = |k: usize| -> Result<u64, SimError> {
            let (col, f) = &fields[k];
            f.parse::<u64>().map_err(|_| at(ln, *col, format!("{}: `{f}` is not a whole number", columns[k])))
        };
        let (rs_col, rs) = &fields[0];
        let Some(ri) = s.rulesets.iter().position(|r| &r.ruleset == rs) else {
            return Err(at(ln, *rs_col, format!("ruleset: `{rs}` is not one of this batch's rulesets")));
        };
        let run = num(1)?;
        match expected.next() {
            Some(e) if e == (ri, run) => {}
            Some((eri, erun)) => {
                return Err(at(
                    ln,
                    fields[1].0,
                    format!(
                        "run: the row for run {erun} of `{}` belongs here (one row per run counted, in order), \
                         found run {run} of `{rs}`",
                        s.rulesets[eri].ruleset
                    ),
                ));
            }
            None => {
                return Err(at(ln, 1, format!("run {run} of `{rs}`: a row more than the summary counts")));
            }
        }
        let seed = num(2)?;
        if Some(seed) != s.seed.checked_add(run) {
            let want = s.seed.saturating_add(run);
            return Err(at(ln, fields[2].0, format!("seed: {seed}, but run {run} of this batch has seed {want}")));
        }
        let (oc_col, label) = &fields[3];
        let outcome = match s.sides.iter().position(|x| x == label) {
            Some(w) => Outcome::Win(w as u16),
            None => match label.as_str() {
                "draw-round-cap" => Outcome::RoundCap,
                "draw" => Outcome::OtherDraw,
                "unfinished" => Outcome::Unfinished,
                _ => return Err(at(ln, *oc_col, format!("outcome: `{label}` is not a side, a draw or unfinished"))),
            },
        };
        let rounds = num(4)?;
        if rounds > u64::from(cap) {
            return Err(at(ln, fields[4].0, format!("rounds: {rounds}, past the round cap {cap}")));
        }
        let commands = num(5)?;
        let mut counts = vec![CombatantCounts::default(); n];
        for (ci, c) in counts.iter_mut().enumerate() {
            c.damage_dealt = num(6 + 4 * ci)?;
            c.damage_taken = num(7 + 4 * ci)?;
            c.downs = num(8 + 4 * ci)?;
            c.deaths = num(9 + 4 * ci)?;
        }
        let rec = RunRecord { run, outcome, rounds: rounds as u32, commands, combatants: counts };
        if csv_row(s, rs, &rec) != line {
            return Err(at(
                ln,
                1,
                "not written as the simulator writes a row (spacing, signs or leading zeros)".into(),
            ));
        }
        let sum = &mut sums[ri];
        if sum.first_line == 0 {
            sum.first_line = ln;
        }
        sum.last_line = ln;
        let overflow = |what: &str| at(ln, 1, format!("{what}: the sum of the rows so far does not fit in 64 bits"));
        let o = sum.outcomes.entry(label.clone()).or_insert(0);
        *o = o.checked_add(1).ok_or_else(|| overflow("outcome"))?;
        let r = rounds as usize;
        if sum.histogram.len() <= r {
            sum.histogram.resize(r + 1, 0);
        }
        sum.histogram[r] += 1;
        sum.commands = sum.commands.checked_add(commands).ok_or_else(|| overflow("commands"))?;
        for (ci, (a, b)) in sum.combatants.iter_mut().zip(&rec.combatants).enumerate() {
            for (name, x, y) in [
                ("dealt", &mut a.damage_dealt, b.damage_dealt),
                ("taken", &mut a.damage_taken, b.damage_taken),
                ("downs", &mut a.downs, b.downs),
                ("deaths", &mut a.deaths, b.deaths),
            ] {
                *x = x.checked_add(y).ok_or_else(|| overflow(&format!("{}:{name}", s.combatants[ci].name)))?;
            }
        }
    }
    if let Some((ri, run)) = expected.next() {
        return Err(SimError::Merge(format!(
            "{file}: no row for run {run} of `{}`: the summary counts {} runs per ruleset",
            s.rulesets[ri].ruleset,
            s.runs_counted()
        )));
    }
    for (ri, (r, sum)) in s.rulesets.iter().zip(&sums).enumerate() {
        let t = &r.tally;
        let mismatch = |what: String| {
            SimError::Merge(format!(
                "{file}:{}-{}: the rows of `{}` do not add up to summary.json's rulesets[{ri}].tally: {what}",
                sum.first_line, sum.last_line, r.ruleset
            ))
        };
        let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
        for (i, side) in s.sides.iter().enumerate() {
            *outcomes.entry(side.clone()).or_insert(0) += t.wins[i];
        }
        for (label, n) in [("draw-round-cap", t.draws_round_cap), ("draw", t.draws_other), ("unfinished", t.unfinished)]
        {
            *outcomes.entry(label.into()).or_insert(0) += n;
        }
        outcomes.retain(|_, n| *n > 0);
        if outcomes != sum.outcomes {
            return Err(mismatch(format!("outcomes {:?} in the rows, {:?} in the tally", sum.outcomes, outcomes)));
        }
        if sum.histogram != t.rounds_histogram {
            return Err(mismatch(format!(
                "rounds histogram {:?} in the rows, {:?} in the tally",
                sum.histogram, t.rounds_histogram
            )));
        }
        if sum.commands != t.commands {
            return Err(mismatch(format!("commands {} in the rows, {} in the tally", sum.commands, t.commands)));
        }
        for (ci, (a, b)) in sum.combatants.iter().zip(&t.combatants).enumerate() {
            for (name, x, y) in [
                ("dealt", a.damage_dealt, b.damage_dealt),
                ("taken", a.damage_taken, b.damage_taken),
                ("downs", a.downs, b.downs),
                ("deaths", a.deaths, b.deaths),
            ] {
                if x != y {
                    return Err(mismatch(format!(
                        "{}:{name} {x} in the rows, {y} in the tally",
                        s.combatants[ci].name
                    )));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_split_as_written() {
        let f = |l: &str| {
            split_csv(l, usize::MAX).map(|v| v.into_iter().map(|(c, s)| format!("{c}:{s}")).collect::<Vec<_>>())
        };
        assert_eq!(f("a,b,,c"), Some(vec!["1:a".into(), "3:b".into(), "5:".into(), "6:c".into()]));
        assert_eq!(f("\"x, \"\"y\"\"\",2"), Some(vec!["1:x, \"y\"".into(), "12:2".into()]));
        assert_eq!(f("\"open"), None);
        assert_eq!(f("\"a\"b"), None);
        // A line of many fields stops one past the most asked for.
        assert_eq!(split_csv(&",".repeat(1000), 3).map(|v| v.len()), Some(4));
        assert_eq!(f("é,\"ü\",x"), Some(vec!["1:é".into(), "3:ü".into(), "7:x".into()]));
    }
}
