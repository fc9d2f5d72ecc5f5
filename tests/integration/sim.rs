//! The simulator (`skirmish sim`, `skirmish::sim`): statistics on a duel with forced dice where
//! the answer is known, the same output for any `--jobs`, shards merged byte for byte, replays,
//! and a clean error for each bad input.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use skirmish::ai::{self, Brain};
use skirmish::encounter::Encounter;
use skirmish::sim::{self, SimConfig, SimError, output, stats::Outcome};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn bench_4v4() -> PathBuf {
    root().join("assets/encounters/bench-4v4.ron")
}

fn temp(tag: &str) -> PathBuf {
    let d = crate::common::tmp_root().join(format!("skirmish-sim-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish")).arg("sim").args(args).output().unwrap()
}

/// A duel under pf1e: the Hero (initiative die 20) hits the 1-hp Dummy (die 1) with its first
/// attack (die 15 against AC 10) for 5 damage (die 5) in round 1.
pub(crate) const DUEL: &str = r#"Encounter(
    name: "Duel",
    map: ["....", "...."],
    sides: [(name: "a", controller: Ai), (name: "b", controller: Ai)],
    combatants: [
        (name: "Hero", side: "a", hp: 10, at: (0, 0), stats: {"INIT": 0, "MELEE": 0, "STR": 0, "AC": 10}, abilities: []),
        (name: "Dummy", side: "b", hp: 1, at: (1, 0), stats: {"INIT": 0, "MELEE": 0, "STR": 0, "AC": 10}, abilities: []),
    ],
)
"#;

/// The duel as a file in an `assets/encounters/` folder next to a copy of the rulesets.
fn duel_file(tag: &str) -> PathBuf {
    encounter_file(tag, DUEL)
}

/// An encounter's text as `assets/encounters/duel.ron` in a fresh folder, next to a copy of the
/// shipped rulesets.
pub(crate) fn encounter_file(tag: &str, text: &str) -> PathBuf {
    let d = temp(tag);
    let rs = d.join("assets/rulesets");
    std::fs::create_dir_all(&rs).unwrap();
    for r in ["homebrew-d20", "pf1e", "pf2e", "segments"] {
        std::fs::copy(root().join(format!("assets/rulesets/{r}.ron")), rs.join(format!("{r}.ron"))).unwrap();
    }
    let f = d.join("assets/encounters/duel.ron");
    std::fs::create_dir_all(f.parent().unwrap()).unwrap();
    std::fs::write(&f, text).unwrap();
    f
}

#[test]
fn sim_statistics_are_right_on_a_duel_with_forced_dice() {
    let f = duel_file("duel");
    let cfg = SimConfig { dice: vec![20, 1, 15, 5], jobs: 2, ..SimConfig::new(&f, Some("pf1e"), 7) };
    let b = sim::run_batch_records(&cfg, &|_| {}).unwrap();
    let r = &b.summary.rulesets[0];
    let t = &r.tally;
    assert_eq!(t.runs, 7);
    assert_eq!(t.wins, vec![7, 0], "side a wins every run");
    assert_eq!((t.draws_round_cap, t.draws_other, t.unfinished), (0, 0, 0));
    assert_eq!(t.rounds_sum, 7);
    assert_eq!(t.rounds_histogram, vec![0, 7], "every run ends in round 1");
    let (hero, dummy) = (t.combatants[0], t.combatants[1]);
    assert_eq!((hero.damage_dealt, hero.damage_taken, hero.downs, hero.deaths), (35, 0, 0, 0));
    assert_eq!((dummy.damage_dealt, dummy.damage_taken, dummy.downs, dummy.deaths), (0, 35, 7, 7));
    assert_eq!(hero.actions_spent, 14, "a full attack is a full-round action: 2 a run");
    assert_eq!((dummy.actions_spent, hero.actions_forfeited, hero.aoo_taken, dummy.aoo_provoked), (0, 0, 0, 0));
    // Derived: 100% (Wilson 95% interval of 7/7 is 0.6457..1), 5 damage a round.
    let d = &r.derived;
    let win = d.sides[0].win.unwrap();
    assert_eq!(win.rate, 1.0);
    assert!((win.low - 0.6457).abs() < 1e-3 && win.high == 1.0, "{win:?}");
    assert_eq!(d.sides[1].win.unwrap().rate, 0.0);
    assert_eq!((d.rounds_median, d.rounds_p5, d.rounds_p95), (Some(1), Some(1), Some(1)));
    assert_eq!(d.rounds_mean, Some(1.0));
    assert_eq!(d.combatants[0].damage_dealt_per_round, Some(5.0));
    assert_eq!(d.combatants[1].deaths_per_run, Some(1.0));
    // Every run is recorded, in run order.
    assert_eq!(b.records[0].iter().map(|r| r.run).collect::<Vec<_>>(), (0..7).collect::<Vec<_>>());
    assert!(b.records[0].iter().all(|r| r.outcome == Outcome::Win(0) && r.rounds == 1));
    let csv = String::from_utf8(output::runs_csv(&b.summary, &b.records)).unwrap();
    assert_eq!(csv.lines().nth(1), Some("pf1e,0,0,a,1,1,5,0,0,0,0,5,1,1"));
}

#[test]
fn sim_counters_agree_with_each_runs_log_and_none_stays_zero() {
    // AI-played fights of the bench encounter under every ruleset (seeds 0..40). The forced-dice
    // duel above never reacts, provokes, forfeits or dies twice; these fights do. Each run's
    // counters are checked against a plain count of its own log's events (the run replayed), and
    // every counter must be non-zero in some ruleset, so deleting any increment fails here.
    use skirmish::rules::command::Decider;
    use skirmish::rules::components::Via;
    use skirmish::rules::log::CombatEvent as E;
    let cfg = SimConfig { jobs: 2, ..SimConfig::new(bench_4v4(), None, 40) };
    let prep = sim::prepare(&cfg).unwrap();
    let b = sim::run_prepared(&cfg, &prep, &|_| {}).unwrap();
    let mut totals: BTreeMap<String, [u64; 14]> = BTreeMap::new();
    for (ri, rs) in b.summary.rulesets.iter().enumerate() {
        let name = prep.rulesets[ri].name.clone();
        let dying = prep.rulesets[ri].at_zero_hp.is_some();
        // Typed action slots (pf1e) count an ability by its action type, not its logged cost.
        let typed = matches!(prep.rulesets[ri].budget, skirmish::rules::ruleset::ActionBudget::TypedSlots { .. });
        let total = totals.entry(name.clone()).or_default();
        let records = &b.records[ri];
        assert_eq!(records.len(), 40);
        // Runs differ: the seeds make different fights, not one fight 40 times.
        let shapes: std::collections::BTreeSet<_> =
            records.iter().map(|r| (format!("{:?}", r.outcome), r.rounds, r.commands)).collect();
        assert!(shapes.len() >= 10, "{name}: only {} different runs of 40", shapes.len());
        for r in records {
            let (log, again) = sim::run::replay(&prep, ri, r.run, r.run).unwrap();
            assert_eq!(&again, r, "{name} run {}: the replay's record", r.run);
            let n = r.combatants.len();
            let mut expect = vec![[0u64; 8]; n];
            let mut spent = vec![0u64; n];
            let mut downed = vec![0u64; n];
            for e in &log.events {
                match e {
                    E::Damaged { who, amount, .. } => expect[who.0 as usize][0] += *amount as u64,
                    E::OpportunityProvoked { mover, .. } => expect[mover.0 as usize][1] += 1,
                    E::DecisionRequested { by: Decider::Creature(w), about } if about == "Opening" => {
                        expect[w.0 as usize][2] += 1
                    }
                    E::OpeningPassed { who, .. } => expect[who.0 as usize][3] += 1,
                    E::AbilityUsed { who, via, targets, cost, .. } => {
                        spent[who.0 as usize] += u64::from(*cost);
                        match via {
                            Via::Opening(_) => expect[who.0 as usize][4] += 1,
                            Via::Reaction | Via::Held => {
                                expect[who.0 as usize][5] += 1;
                                for t in targets {
                                    expect[t.0 as usize][6] += 1;
                                }
                            }
                            Via::Turn => {}
                        }
                    }
                    E::ActivityStarted { who, paid, .. } => spent[who.0 as usize] += u64::from(*paid),
                    E::ActivityProgressed { who, paid_now, .. } => spent[who.0 as usize] += u64::from(*paid_now),
                    E::ActionsForfeited { who, count } => expect[who.0 as usize][7] += u64::from(*count),
                    E::Downed { who } => downed[who.0 as usize] += 1,
                    _ => {}
                }
            }
            for (i, c) in r.combatants.iter().enumerate() {
                let got = [
                    c.damage_taken,
                    c.aoo_provoked,
                    c.openings_offered,
                    c.openings_passed,
                    c.openings_taken,
                    c.reactions_taken,
                    c.reactions_provoked,
                    c.actions_forfeited,
                ];
                assert_eq!(got, expect[i], "{name} run {} combatant {i}: counters against the log", r.run);
                if !typed {
                    assert_eq!(c.actions_spent, spent[i], "{name} run {} combatant {i}: actions spent", r.run);
                }
                // Without a dying state every Downed is a death; with one, a death is a Downed
                // while already down (no heal between), so downs + deaths = Downed events here.
                if dying {
                    assert_eq!(c.downs + c.deaths, downed[i], "{name} run {} combatant {i}", r.run);
                } else {
                    assert_eq!((c.downs, c.deaths), (downed[i], downed[i]), "{name} run {} combatant {i}", r.run);
                }
                assert!(c.aoo_taken <= c.reactions_taken);
                for (t, v) in total.iter_mut().zip([
                    c.damage_dealt,
                    c.damage_taken,
                    c.downs,
                    c.deaths,
                    c.actions_spent,
                    c.actions_forfeited,
                    c.reactions_taken,
                    c.reactions_provoked,
                    c.openings_taken,
                    c.openings_provoked,
                    c.openings_offered,
                    c.openings_passed,
                    c.aoo_taken,
                    c.aoo_provoked,
                ]) {
                    *t += v;
                }
            }
            // Every point of damage here comes from somebody's ability: dealt = taken.
            let dealt: u64 = r.combatants.iter().map(|c| c.damage_dealt).sum();
            let taken: u64 = r.combatants.iter().map(|c| c.damage_taken).sum();
            assert_eq!(dealt, taken, "{name} run {}", r.run);
        }
        // The tally adds the records up.
        assert_eq!(rs.tally.runs, 40);
        let summed: u64 = rs.tally.combatants.iter().map(|c| c.aoo_taken + c.openings_taken + c.deaths).sum();
        let from_records: u64 =
            records.iter().flat_map(|r| &r.combatants).map(|c| c.aoo_taken + c.openings_taken + c.deaths).sum();
        assert_eq!(summed, from_records, "{name}");
    }
    // Each counter is non-zero where its ruleset makes it happen.
    const NAMES: [&str; 14] = [
        "damage_dealt",
        "damage_taken",
        "downs",
        "deaths",
        "actions_spent",
        "actions_forfeited",
        "reactions_taken",
        "reactions_provoked",
        "openings_taken",
        "openings_provoked",
        "openings_offered",
        "openings_passed",
        "aoo_taken",
        "aoo_provoked",
    ];
    let nonzero = |rs: &str, which: &[&str]| {
        for w in which {
            let k = NAMES.iter().position(|n| n == w).unwrap();
            assert!(totals[rs][k] > 0, "{rs}: {w} is 0 over 40 AI-played fights: {:?}", totals[rs]);
        }
    };
    let every = [
        "damage_dealt",
        "damage_taken",
        "downs",
        "deaths",
        "actions_spent",
        "reactions_taken",
        "reactions_provoked",
        "aoo_taken",
        "aoo_provoked",
    ];
    for rs in ["homebrew-d20", "pf1e", "pf2e", "segments"] {
        nonzero(rs, &every);
    }
    nonzero("homebrew-d20", &["openings_taken", "openings_provoked", "openings_offered", "openings_passed"]);
    nonzero("pf2e", &["actions_forfeited"]);
    // pf2e's dying state: most downed creatures are not dead, and some die (a second Downed).
    let p2 = totals["pf2e"];
    assert!(p2[3] > 0 && p2[3] < p2[2], "pf2e deaths {} of {} downs", p2[3], p2[2]);
}

#[test]
fn sim_output_is_the_same_for_jobs_1_and_2() {
    let run = |jobs| {
        let cfg = SimConfig { jobs, seed: 40, ..SimConfig::new(bench_4v4(), None, 12) };
        let b = sim::run_batch_records(&cfg, &|_| {}).unwrap();
        (output::summary_json(&b.summary).unwrap(), output::runs_csv(&b.summary, &b.records))
    };
    let (one, two) = (run(1), run(2));
    assert!(one.0 == two.0, "summary.json differs between --jobs 1 and 2");
    assert!(one.1 == two.1, "runs.csv differs between --jobs 1 and 2");
}

#[test]
fn sim_four_shards_merged_equal_the_unsharded_run_byte_for_byte() {
    let d = temp("shards");
    let enc = bench_4v4();
    let enc = enc.to_str().unwrap();
    let whole = d.join("whole");
    let out = sim(&[enc, "--ruleset", "all", "--runs", "10", "--seed", "7", "--out", whole.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut shard_dirs = Vec::new();
    for i in 0..4 {
        let s = d.join(format!("shard-{i}"));
        let shard = format!("{i}/4");
        let out =
            sim(&[enc, "--runs", "10", "--seed", "7", "--jobs", "1", "--shard", &shard, "--out", s.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        shard_dirs.push(s);
    }
    // Merge in a scrambled order: the result does not depend on it.
    let merged = d.join("merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    for i in [2, 0, 3, 1] {
        args.push(shard_dirs[i].to_str().unwrap());
    }
    let out = sim(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let read = |p: &Path| std::fs::read(p).unwrap();
    assert!(read(&whole.join("summary.json")) == read(&merged.join("summary.json")), "summary.json differs");
    assert!(read(&whole.join("runs.csv")) == read(&merged.join("runs.csv")), "runs.csv differs");
    assert!(String::from_utf8(read(&merged.join("report.svg"))).unwrap().starts_with("<svg"));
    // A shard merged twice is refused.
    let out = sim(&["merge", shard_dirs[0].to_str().unwrap(), shard_dirs[0].to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("counted twice"));
}

/// `--out out/`, as the README writes it, names the files it wrote as `out/summary.json`, not
/// `out//summary.json`, and they are there.
#[test]
fn sim_names_the_files_it_wrote_under_an_out_folder_given_with_a_slash() {
    let d = temp("out-slash");
    let dir = format!("{}/", d.join("out").display());
    let out = sim(&[bench_4v4().to_str().unwrap(), "--ruleset", "pf1e", "--runs", "2", "--out", &dir]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("wrote ")).expect("a line naming the files written");
    assert!(!line.contains("//"), "{line}");
    for f in ["summary.json", "runs.csv", "report.svg"] {
        let p = d.join("out").join(f);
        assert!(line.contains(&p.display().to_string()), "{line} names {}", p.display());
        assert!(p.is_file(), "{}", p.display());
    }
}

#[test]
fn sim_replay_run_reproduces_the_runs_log() {
    let enc = bench_4v4();
    let cfg = SimConfig { seed: 100, ..SimConfig::new(&enc, Some("homebrew-d20"), 5) };
    let prep = sim::prepare(&cfg).unwrap();
    let b = sim::run_prepared(&cfg, &prep, &|_| {}).unwrap();
    let k = 3;
    let (log, rec) = sim::run::replay(&prep, 0, k, cfg.seed + k).unwrap();
    assert_eq!(rec, b.records[0][k as usize], "the replay's statistics are the batch's run {k}");
    // The same fight played from scratch, the way the game starts an encounter.
    let e = Encounter::load(&enc).unwrap();
    let mut c = e.start(prep.rulesets[0].clone(), cfg.seed + k).unwrap();
    ai::play_by(&mut c, sim::run::SCOPE, sim::MAX_COMMANDS, |_| Brain::Tactical);
    assert_eq!(log.to_ron(), c.log().to_ron(), "byte-identical full log");
    // The command prints the same log, with names.
    let out = sim(&[enc.to_str().unwrap(), "--ruleset", "homebrew-d20", "--seed", "100", "--replay-run", "3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("==")).collect();
    let expected: Vec<String> = log.events.iter().map(|e| log.describe(e)).collect();
    assert_eq!(lines, expected);
}

fn assert_clean_failure(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "should fail: {needle}");
    assert!(err.contains(needle), "stderr lacks `{needle}`: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn sim_bad_inputs_give_clean_errors_and_no_output() {
    let d = temp("bad");
    let out_dir = d.join("out");
    let o = out_dir.to_str().unwrap();
    let enc = bench_4v4();
    let enc = enc.to_str().unwrap();
    // A missing encounter.
    let missing = d.join("nope.ron");
    assert_clean_failure(&sim(&[missing.to_str().unwrap(), "--out", o]), "nope.ron:1:1: cannot read");
    // A malformed one: file:line:col and the field.
    let bad = d.join("bad.ron");
    std::fs::write(&bad, DUEL.replace("hp: 10,", "hp: -3,")).unwrap();
    assert_clean_failure(&sim(&[bad.to_str().unwrap(), "--out", o]), "bad.ron:6:");
    assert_clean_failure(&sim(&[bad.to_str().unwrap()]), "combatants[0].hp");
    // An unknown ruleset names the installed ones.
    assert_clean_failure(&sim(&[enc, "--ruleset", "gurps", "--out", o]), "no ruleset `gurps` (installed: homebrew-d20");
    // --runs 0, bad shards.
    assert_clean_failure(&sim(&[enc, "--runs", "0", "--out", o]), "--runs must be at least 1");
    for s in ["4/4", "1/0", "x/2", "3"] {
        assert_clean_failure(&sim(&[enc, "--shard", s, "--out", o]), "--shard");
    }
    assert!(!out_dir.exists(), "no output folder for rejected input");
    // An --out under a regular file.
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let under = file.join("out");
    assert_clean_failure(&sim(&[enc, "--runs", "2", "--out", under.to_str().unwrap()]), "cannot write there");
    // The library says the same with typed errors.
    let err = sim::run_batch(&SimConfig::new(enc, Some("gurps"), 1), &|_| {}).unwrap_err();
    assert!(matches!(err, SimError::UnknownRuleset { .. }), "{err}");
    let err = sim::run_batch(&SimConfig::new(enc, None, 0), &|_| {}).unwrap_err();
    assert!(matches!(err, SimError::Config(_)), "{err}");
    // A failed write leaves no file behind, temporary or final.
    let target = d.join("atomic");
    std::fs::create_dir_all(target.join("runs.csv")).unwrap(); // a folder where a file should go
    let r = output::write_atomic(&target, &[("summary.json", b"{}".to_vec()), ("runs.csv", b"x".to_vec())]);
    assert!(r.is_err());
    let left: Vec<_> = std::fs::read_dir(&target).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("runs.csv")], "only the folder that was there");
}

#[test]
fn sim_mod_runs_a_rust_mod_in_every_run_and_refuses_an_unknown_one() {
    // The 3v3 ambush with regenerating creatures: `--mod regeneration` makes them heal, in the
    // log, as the game and the scenario runner do.
    let dir = root().join("target").join(format!("test-sim-mod-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join("assets/encounters/ambush-3v3.ron")).unwrap();
    let enc = dir.join("regenerating.ron");
    std::fs::write(&enc, text.replace("stats: {", "stats: {\"regeneration\": 2, ")).unwrap();
    let cfg = SimConfig { seed: 3, mods: vec!["regeneration".into()], ..SimConfig::new(&enc, Some("pf2e"), 2) };
    let prep = sim::prepare(&cfg).unwrap();
    let (log, _) = sim::run::replay(&prep, 0, 0, 3).unwrap();
    assert!(
        log.events.iter().any(
            |e| matches!(e, skirmish::rules::log::CombatEvent::ModEffect { source, .. } if source == "regeneration")
        ),
        "no regeneration in the run"
    );
    // Every run of a batch has it, a reused world's as well as the first: one worker plays runs
    // 0..6 in turn, and each run's record is that of the run replayed on its own, which
    // regenerates.
    let batch = sim::run_batch_records(&SimConfig { jobs: 1, runs: 6, ..cfg.clone() }, &|_| {}).unwrap();
    for r in &batch.records[0] {
        let (log, alone) = sim::run::replay(&prep, 0, r.run, cfg.seed + r.run).unwrap();
        assert_eq!(&alone, r, "run {}", r.run);
        assert!(
            log.events.iter().any(
                |e| matches!(e, skirmish::rules::log::CombatEvent::ModEffect { source, .. } if source == "regeneration")
            ),
            "no regeneration in run {}",
            r.run
        );
    }
    // The summary says which mods the runs had; shards with other mods do not merge.
    let with = sim::run_batch(&cfg, &|_| {}).unwrap();
    assert_eq!(with.mods, vec!["regeneration".to_string()]);
    let without = sim::run_batch(&SimConfig { mods: vec![], ..cfg.clone() }, &|_| {}).unwrap();
    assert!(without.mods.is_empty());
    let err = sim::merge(&[with.clone(), without]).unwrap_err().to_string();
    assert!(err.contains("not of the same batch"), "{err}");
    let plain = sim::prepare(&SimConfig { mods: vec![], ..cfg.clone() }).unwrap();
    let (log2, _) = sim::run::replay(&plain, 0, 0, 3).unwrap();
    assert!(!log2.events.iter().any(|e| matches!(e, skirmish::rules::log::CombatEvent::ModEffect { .. })));
    let out = sim(&[enc.to_str().unwrap(), "--runs", "2", "--mod", "nosuchmod"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nosuchmod") && err.contains("regeneration"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
