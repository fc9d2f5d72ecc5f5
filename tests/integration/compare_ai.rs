//! The AI tiers (issue 22): `--ai` on every side, recorded in `summary.json`, and the
//! equivalence check `sim --compare-ai A,B`, which must tell a tier that plays differently from
//! one that plays the same.

use skirmish::ai::Brain;
use skirmish::sim::compare::{self, CompareConfig, Margins};
use skirmish::sim::{self, SimConfig};

use super::sim::{bench_4v4, sim};

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Margins wide enough for a small sample to pass when the tiers play alike.
const WIDE: Margins = Margins { win: 0.5, draws: 0.5, rounds: 5.0, head_to_head: 0.4 };

fn check(tiers: (Brain, Brain), runs: u64) -> compare::Comparison {
    let cfg = CompareConfig {
        encounters: vec![bench_4v4()],
        base: SimConfig { jobs: 2, ..SimConfig::new(bench_4v4(), Some("homebrew-d20"), runs) },
        tiers,
        margins: WIDE,
    };
    compare::compare(&cfg, &|_| {}).unwrap()
}

#[test]
fn the_check_passes_a_tier_against_itself_and_fails_one_that_plays_differently() {
    // The same tier on the same seeds: every value equal, every cell within even a small margin.
    let same = check((Brain::Tactical, Brain::Tactical), 30);
    let cells = &same.rows[0].cells;
    let names: Vec<&str> = cells.iter().map(|c| c.what.as_str()).collect();
    assert_eq!(names, ["blue wins", "red wins", "draws", "rounds mean", "head to head"]);
    for c in cells.iter().filter(|c| c.what != "head to head") {
        assert_eq!(c.a, c.b, "{c:?}");
    }
    assert!(same.passes(), "{}", compare::table(&same));
    // The basic AI draws most 4v4 fights under homebrew-d20 (the tactical AI none): the draws
    // cell fails even by half the runs, and the whole check with it.
    let other = check((Brain::Tactical, Brain::Basic), 30);
    let draws = other.rows[0].cells.iter().find(|c| c.what == "draws").unwrap();
    assert!(draws.b > 0.5 && draws.a < 0.1 && !draws.pass, "{draws:?}");
    assert!(!other.passes());
    let table = compare::table(&other);
    assert!(table.contains("FAIL") && table.contains("basic does not reproduce tactical's statistics"), "{table}");
}

#[test]
fn compare_ai_prints_every_cell_and_exits_by_the_verdict() {
    let enc = bench_4v4();
    let o = sim(&["--compare-ai", "tactical,fast", enc.to_str().unwrap(), "--ruleset", "pf2e", "--runs", "24"]);
    let out = stdout(&o);
    for cell in ["blue wins", "red wins", "draws", "rounds mean", "head to head"] {
        assert!(out.lines().any(|l| l.contains("pf2e") && l.contains(cell)), "no {cell} row:\n{out}");
    }
    // 24 runs cannot show equivalence within three points: the check says so and fails.
    assert!(out.contains("FAIL") && out.contains("fast does not reproduce"), "{out}");
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    // A comparison that passes exits 0: a tier against itself where every fight is a draw at the
    // round cap, so every cell is equal by construction (no sampling luck in it).
    let o = sim(&[
        "--compare-ai",
        "tactical,tactical",
        enc.to_str().unwrap(),
        "--ruleset",
        "pf2e",
        "--runs",
        "24",
        "--max-rounds",
        "1",
    ]);
    let out = stdout(&o);
    assert!(!out.contains("FAIL") && out.contains("tactical reproduces tactical's statistics"), "{out}");
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    // Bad tiers and options are refused before anything is played.
    for (args, says) in [
        (vec!["--compare-ai", "tactical"], "needs two AIs"),
        (vec!["--compare-ai", "tactical,slow"], "`slow`: no such AI (one of tactical, fast, basic)"),
        (vec!["--compare-ai", "tactical,fast", "--out", "x"], "--compare-ai goes without"),
        (vec!["--ai", "clever", enc.to_str().unwrap()], "--ai `clever`: no such AI"),
        // The candidate fast tier fails the full check: it plays only under --compare-ai.
        (vec!["--ai", "fast", enc.to_str().unwrap()], "--ai fast: the fast tier is a candidate that fails"),
    ] {
        let o = sim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn summary_json_records_a_tier_other_than_tactical_and_merge_keeps_tiers_apart() {
    let base = SimConfig { seed: 5, ..SimConfig::new(bench_4v4(), Some("pf1e"), 4) };
    let tactical = sim::run_batch(&SimConfig { shard: Some((0, 2)), ..base.clone() }, &|_| {}).unwrap();
    let basic = sim::run_batch(&SimConfig { shard: Some((1, 2)), ai: Brain::Basic, ..base.clone() }, &|_| {}).unwrap();
    let json = |s| String::from_utf8(sim::output::summary_json(s).unwrap()).unwrap();
    // The tactical AI is the default: its summaries read as before the tiers existed.
    assert!(!json(&tactical).contains("\"ai\""), "{}", json(&tactical));
    assert!(json(&basic).contains("\"ai\": \"basic\""), "{}", json(&basic));
    assert_eq!(sim::parse_summary("s.json", &json(&basic)).unwrap().ai, Brain::Basic);
    // Halves of one batch played by different AIs are not one batch.
    let e = sim::merge(&[tactical.clone(), basic]).unwrap_err().to_string();
    assert!(e.contains("ai: Basic, not Tactical"), "{e}");
    let other_half = sim::run_batch(&SimConfig { shard: Some((1, 2)), ..base }, &|_| {}).unwrap();
    sim::merge(&[tactical, other_half]).unwrap();
}

#[test]
fn ai_by_side_plays_a_match_records_it_and_refuses_a_wrong_count() {
    // `--ai tactical,basic`: the blue side by the tactical AI, red by the basic one.
    let enc = bench_4v4();
    let enc = enc.to_str().unwrap();
    let dir = crate::common::tmp_root().join(format!("skirmish-side-ai-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = sim(&[enc, "--ruleset", "pf2e", "--runs", "40", "--ai", "tactical,basic", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("a match between AIs, by side: blue tactical, red basic"), "{}", stdout(&o));
    let summary =
        sim::parse_summary("summary.json", &std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary.side_ai, [Brain::Tactical, Brain::Basic]);
    // The match is not the tactical AI on both sides: the tactical side wins most fights, where
    // the two sides of this mirrored encounter win about equally under one AI.
    let wins = &summary.rulesets[0].tally.wins;
    assert!(wins[0] >= 3 * wins[1], "{wins:?}");
    let same =
        sim::run_batch(&SimConfig { jobs: 2, ..SimConfig::new(bench_4v4(), Some("pf2e"), 40) }, &|_| {}).unwrap();
    assert_ne!(same.rulesets[0].tally, summary.rulesets[0].tally);
    assert!(same.side_ai.is_empty());
    // Shards of a match merge only with shards of the same match.
    let (a, b) = (dir.join("a"), dir.join("b"));
    let shard = |ai: &str, i: &str, out: &std::path::Path| {
        let o =
            sim(&[enc, "--ruleset", "pf2e", "--runs", "4", "--ai", ai, "--shard", i, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    };
    shard("tactical,basic", "0/2", &a);
    shard("basic,tactical", "1/2", &b);
    let o = sim(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("side_ai"), "{}", stderr(&o));
    // One AI per side, no more and no fewer; and --compare-ai names its own two.
    let o = sim(&[enc, "--ruleset", "pf2e", "--runs", "2", "--ai", "tactical,basic,basic"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("one AI per side is 2 AIs here, for the sides blue, red in that order"),
        "{}",
        stderr(&o)
    );
    let o = sim(&["--compare-ai", "tactical,basic", "--ai", "tactical,basic", enc]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("goes without --ai"), "{}", stderr(&o));
    let o = sim(&[enc, "--ai", "tactical,"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--ai tactical,: an AI's name is missing"), "{}", stderr(&o));
    // The same AI on every side is that AI, as `--ai basic` writes it; a summary claiming
    // otherwise, or naming one AI for two sides, is refused.
    let (one, both) = (dir.join("one"), dir.join("both"));
    for (ai, out) in [("basic", &one), ("basic,basic", &both)] {
        let o = sim(&[enc, "--ruleset", "pf2e", "--runs", "3", "--ai", ai, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let read = |d: &std::path::Path| std::fs::read_to_string(d.join("summary.json")).unwrap();
    assert_eq!(read(&one), read(&both));
    // The library refuses what the summary would not read back.
    for (ai, side_ai) in
        [(Brain::Tactical, vec![Brain::Basic, Brain::Basic]), (Brain::Basic, vec![Brain::Tactical, Brain::Basic])]
    {
        let cfg = SimConfig { ai, side_ai, ..SimConfig::new(bench_4v4(), Some("pf2e"), 2) };
        let e = sim::prepare(&cfg).expect_err("refused").to_string();
        assert!(e.contains("side_ai: one AI per side when they differ"), "{e}");
    }
    let mut bad = summary.clone();
    bad.side_ai.pop();
    let e = sim::merge(&[bad.clone(), bad]).unwrap_err().to_string();
    assert!(e.contains("side_ai") && e.contains("1 AIs for 2 sides"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
