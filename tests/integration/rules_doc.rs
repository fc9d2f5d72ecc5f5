//! `docs/rules.md` against the code: every rule ID has a test named after it, every rule ID the
//! code, tests, rulesets and docs cite is described, every link points at a real file and item,
//! and every condition of the shipped rulesets has a section. (This replaces the outside
//! `rule-coverage` tool.)

use skirmish::rules_doc::{self, RulesDoc};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Files under `dir` (relative to the root) whose name ends with one of `exts`, sorted.
pub fn files_under(dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    fn walk(p: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(p) else { return };
        for e in rd.flatten() {
            let path = e.path();
            if path.is_dir() {
                walk(&path, exts, out);
            } else if exts.iter().any(|x| path.to_string_lossy().ends_with(x)) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), exts, &mut out);
    out.sort();
    out
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every `fn name` in the test sources.
fn test_fns() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in files_under("tests", &[".rs"]) {
        let text = read(&f);
        for part in text.split("fn ").skip(1) {
            let name: String = part.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// The test-name stem of a rule ID: `P2-22` → `p2_22`, `G-X-01` → `g_x_01`.
fn stem(id: &str) -> String {
    id.to_lowercase().replace('-', "_")
}

fn doc() -> &'static RulesDoc {
    rules_doc::doc().unwrap_or_else(|e| panic!("docs/rules.md: {e}"))
}

/// Rules (not gap defaults) must have a test named after them; G-X defaults too (they cross rulesets).
fn needs_named_test(id: &str) -> bool {
    !id.starts_with("G-") || id.starts_with("G-X-")
}

#[test]
fn rules_doc_every_rule_id_has_a_test_named_after_it() {
    let fns = test_fns();
    let mut missing = Vec::new();
    let mut counted = 0;
    for e in doc().rules().filter(|e| needs_named_test(&e.key)) {
        counted += 1;
        let prefix = format!("{}_", stem(&e.key));
        let named: Vec<&String> = fns.iter().filter(|f| f.starts_with(&prefix)).collect();
        if named.is_empty() {
            missing.push(format!("{} (docs/rules.md:{}): no test fn {prefix}...", e.key, e.line));
            continue;
        }
        // The section links the tests named after it.
        for n in named {
            if !e.tests.iter().any(|t| t.item.as_deref() == Some(n.as_str())) {
                missing.push(format!("{} (docs/rules.md:{}): `- Test:` does not list {n}", e.key, e.line));
            }
        }
    }
    assert!(counted >= 157, "only {counted} rules in docs/rules.md");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn rules_doc_every_entry_links_real_code_and_a_real_test() {
    let mut bad = Vec::new();
    for e in doc().rules().chain(doc().conditions()) {
        let is_condition = doc().condition(&e.key).is_some_and(|c| c.line == e.line);
        if !is_condition && (e.code.is_empty() || e.tests.is_empty()) {
            bad.push(format!("{} (line {}): needs a `- Code:` and a `- Test:` link", e.key, e.line));
        }
        for (kind, links) in [("code", &e.code), ("test", &e.tests)] {
            for l in links {
                let p = root().join(&l.path);
                if l.path.contains("..") || !p.is_file() {
                    bad.push(format!("{} (line {}): {kind} link {} is not a file of the repo", e.key, e.line, l.path));
                    continue;
                }
                let Some(item) = &l.item else {
                    if kind == "code" || !l.path.ends_with(".ron") {
                        bad.push(format!("{} (line {}): {kind} link {} names no item", e.key, e.line, l.path));
                    }
                    continue;
                };
                let text = read(&p);
                let found = if kind == "test" {
                    text.contains(&format!("fn {item}("))
                } else {
                    text.match_indices(item.as_str()).any(|(i, _)| {
                        let before = text[..i].chars().next_back();
                        let after = text[i + item.len()..].chars().next();
                        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                        !word(before) && !word(after)
                    })
                };
                if !found {
                    bad.push(format!("{} (line {}): `{item}` not found in {}", e.key, e.line, l.path));
                }
            }
        }
        for r in &e.rules {
            if doc().rule(r).is_none() {
                bad.push(format!("{} (line {}): cites {r}, which has no section", e.key, e.line));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn rules_doc_describes_every_rule_id_the_repo_cites() {
    let mut sources = files_under("src", &[".rs"]);
    sources.extend(files_under("tests", &[".rs", ".ron"]));
    sources.extend(files_under("assets", &[".ron"]));
    sources.extend(files_under("docs", &[".md"]));
    sources.push(root().join("README.md"));
    let mut missing = BTreeSet::new();
    for f in &sources {
        let text = read(f);
        for id in rules_doc::rule_ids(&text) {
            if doc().rule(id).is_none() {
                missing.insert(format!("{id} (cited in {})", f.strip_prefix(root()).unwrap().display()));
            }
        }
    }
    assert!(missing.is_empty(), "rule IDs without a section in docs/rules.md:\n{}", Vec::from_iter(missing).join("\n"));
    // Each family is numbered without holes, so a deleted section is noticed too.
    for family in ["HB-", "P2-", "P1-", "SG-", "G-HB-", "G-P2-", "G-P1-", "G-SG-", "G-X-"] {
        let nums: Vec<u32> = doc()
            .rules()
            .filter_map(|e| e.key.strip_prefix(family).filter(|_| family.starts_with("G-") || !e.key.starts_with("G-")))
            .map(|n| n.parse().unwrap())
            .collect();
        let max = nums.iter().copied().max().unwrap_or(0);
        assert!(max > 0, "no {family} rules");
        let set: BTreeSet<u32> = nums.into_iter().collect();
        let holes: Vec<u32> = (1..=max).filter(|n| !set.contains(n)).collect();
        assert!(holes.is_empty(), "{family}: numbers {holes:?} are missing from docs/rules.md");
    }
}

#[test]
fn rules_doc_has_a_section_for_every_condition_of_the_rulesets() {
    let mut missing = Vec::new();
    let rulesets = files_under("assets/rulesets", &[".ron"]);
    assert!(rulesets.len() >= 4);
    for f in rulesets {
        let rs = skirmish::rules::ruleset::Ruleset::load(&f).unwrap_or_else(|e| panic!("{e}"));
        for c in &rs.conditions {
            match doc().condition(&c.id) {
                Some(e) if !e.text.is_empty() && !e.rules.is_empty() => {}
                _ => missing.push(format!("{} ({})", c.id, rs.name)),
            }
        }
    }
    assert!(missing.is_empty(), "conditions without a `### Condition:` section: {}", missing.join(", "));
}

#[test]
fn rules_doc_lookups_serve_the_hud() {
    let (title, text) = rules_doc::rule("P2-22").expect("P2-22 is described");
    assert!(!title.is_empty() && text.contains("end"), "{title}: {text}");
    let (name, text) = rules_doc::condition("Flat-footed").expect("looked up by its display name");
    assert_eq!(name, "Flat-footed");
    assert!(text.contains("DEX"));
    assert_eq!(rules_doc::condition("flat_footed").map(|c| c.0), Some("Flat-footed"));
    assert!(rules_doc::condition("Persistent damage (fire)").is_some());
    assert!(rules_doc::rule(&format!("P2-{}", 99)).is_none() && rules_doc::condition("no such thing").is_none());
    // Every ID a log line might cite resolves.
    for id in rules_doc::rule_ids("persistent damage (P2-23), then frightened goes down (P2-24, G-P2-06)") {
        assert!(rules_doc::rule(id).is_some(), "{id}");
    }
}
