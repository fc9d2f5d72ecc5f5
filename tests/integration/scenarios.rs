//! Every scenario file under `tests/scenarios/` runs and passes.

use std::path::{Path, PathBuf};

/// All scenario files, sorted.
pub fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/scenarios exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_shipped_scenario_passes() {
    let files = files();
    assert!(files.len() >= 11, "the EX-HB examples ship as scenarios");
    let mut failures = Vec::new();
    for f in &files {
        let ls = skirmish::scenario::load(f).unwrap_or_else(|e| panic!("{e}"));
        let report = skirmish::scenario::run(&ls, None);
        assert!(!report.checks.is_empty(), "{} checks nothing", f.display());
        for c in report.checks.iter().filter(|c| c.failure.is_some()) {
            failures.push(format!("{} step {}: {} — {}", f.display(), c.step, c.what, c.failure.as_ref().unwrap()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_ex_hb_example_has_a_scenario() {
    let names: Vec<String> = files().iter().map(|p| p.file_name().unwrap().to_string_lossy().to_string()).collect();
    for n in 1..=11 {
        let prefix = format!("ex-hb-{n}-");
        assert!(names.iter().any(|f| f.starts_with(&prefix)), "no scenario for EX-HB-{n}");
    }
}

#[test]
fn a_failing_expectation_is_reported_with_its_step() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let text = std::fs::read_to_string(dir.join("ex-hb-2-initiative-ties.ron")).unwrap();
    let broken = text.replace(r#"Expect(Order(["A", "C", "B"]))"#, r#"Expect(Order(["C", "A", "B"]))"#);
    assert_ne!(text, broken);
    let ls = skirmish::scenario::load_str(&dir.join("broken.ron"), &broken).unwrap();
    let report = skirmish::scenario::run(&ls, None);
    assert!(!report.passed());
    let fail: Vec<_> = report.checks.iter().filter(|c| c.failure.is_some()).collect();
    assert_eq!(fail.len(), 1);
    assert_eq!(fail[0].step, 2);
    assert!(fail[0].failure.as_ref().unwrap().contains(r#"expected ["C", "A", "B"], got ["A", "C", "B"]"#));
}
