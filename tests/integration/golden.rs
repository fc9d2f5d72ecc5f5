//! Cross-process golden logs: a fresh `skirmish scenario --log` process must print, byte for
//! byte, the log committed in `tests/fixtures/golden-logs/<ruleset>.log` for a fixed AI brawl and
//! seed per ruleset. This catches what an in-process comparison cannot: state or iteration order
//! that differs between processes (hash seeds, addresses, uninitialised memory, the environment).
//!
//! When a change to the engine or the log format changes these logs on purpose, re-bless them:
//!
//! ```sh
//! SKIRMISH_BLESS=1 cargo test --test integration golden
//! git diff tests/fixtures/golden-logs   # review what changed
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

/// (ruleset, scenario file): the AI brawl of each ruleset, played with the seed in its file (so
/// its own checks pass too).
const CASES: [(&str, &str); 4] = [
    ("homebrew-d20", "tests/scenarios/ai-brawl.ron"),
    ("pf2e", "tests/scenarios/ai-brawl-pf2e.ron"),
    ("pf1e", "tests/scenarios/ai-brawl-pf1e.ron"),
    ("segments", "tests/scenarios/ai-brawl-segments.ron"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn golden_path(ruleset: &str) -> PathBuf {
    root().join("tests/fixtures/golden-logs").join(format!("{ruleset}.log"))
}

/// The CLI's exit code and output for one scenario, from a new process started in the
/// repository root with a clean environment (so nothing of the test process leaks in).
fn run_cli(file: &str, seed: Option<u64>) -> (Option<i32>, Vec<u8>) {
    let mut args = vec!["scenario".to_string(), "--log".into()];
    if let Some(s) = seed {
        args.extend(["--seed".to_string(), s.to_string()]);
    }
    args.push(file.into());
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(root())
        .env_clear()
        .args(&args)
        .output()
        .expect("the skirmish binary runs");
    assert!(out.stderr.is_empty(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
    (out.status.code(), out.stdout)
}

#[test]
fn golden_logs_are_reproduced_byte_for_byte_by_a_fresh_process() {
    let bless = std::env::var("SKIRMISH_BLESS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for (ruleset, file) in CASES {
        let (code, got) = run_cli(file, None);
        let text = String::from_utf8_lossy(&got);
        assert_eq!(code, Some(0), "{file}: its checks pass\n{text}");
        assert!(text.contains(&format!("CombatStarted {{ ruleset: \"{ruleset}\", seed: ")), "{file}: {text}");
        assert!(text.lines().filter(|l| l.trim_start().starts_with('|')).count() > 50, "{file}: the log is printed");
        let path = golden_path(ruleset);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read(&path).unwrap_or_else(|e| {
            panic!("{}: {e}; create it with SKIRMISH_BLESS=1 cargo test --test integration golden", path.display())
        });
        if got != want {
            let (g, w) = (String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
            let first =
                g.lines().zip(w.lines()).position(|(a, b)| a != b).unwrap_or(g.lines().count().min(w.lines().count()));
            failures.push(format!(
                "{ruleset} ({file}) differs from {} at line {}:\n  got:  {}\n  want: {}",
                path.strip_prefix(root()).unwrap().display(),
                first + 1,
                g.lines().nth(first).unwrap_or("(end)"),
                w.lines().nth(first).unwrap_or("(end)"),
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\nIf the change is intended: SKIRMISH_BLESS=1 cargo test --test integration golden",
        failures.join("\n")
    );
}

#[test]
fn golden_two_fresh_processes_agree_and_the_seed_matters() {
    // Any seed, not only the file's: the scenario's own checks may fail then (exit 1), but two
    // processes still print the same bytes and exit alike.
    let (_, file) = CASES[1];
    let a = run_cli(file, Some(7));
    assert_eq!(a, run_cli(file, Some(7)), "two processes, same seed");
    let (a, other) = (a.1, run_cli(file, Some(8)).1);
    let strip = |b: &[u8]| {
        String::from_utf8_lossy(b).lines().filter(|l| !l.contains("CombatStarted")).collect::<Vec<_>>().join("\n")
    };
    assert_ne!(strip(&a), strip(&other), "another seed plays another fight");
}
