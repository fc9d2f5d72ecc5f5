//! The reference pages against the code: `docs/rulesets.md` lists every field and variant of the
//! ruleset types in `src/rules/ruleset/`, its worked example loads and plays, the README links
//! the references, and nothing in the repository points outside it.

use std::collections::BTreeMap;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A deserializable type of `src/rules/ruleset/`: its fields (struct), or its variants and
/// the named fields of struct variants (enum).
#[derive(Debug, Default)]
struct TypeDef {
    is_enum: bool,
    fields: Vec<String>,
    variants: Vec<String>,
}

/// Every `#[derive(.. Deserialize ..)] pub struct/enum` of the source, with its fields and
/// variants, read from the text (so a field added there must be documented).
fn ruleset_types(src: &str) -> BTreeMap<String, TypeDef> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    let mut out = BTreeMap::new();
    let mut deserialize = false;
    let mut current: Option<(String, TypeDef)> = None;
    for line in src.lines() {
        if let Some((name, def)) = current.as_mut() {
            if line == "}" {
                let (name, def) = (name.clone(), std::mem::take(def));
                out.insert(name, def);
                current = None;
                continue;
            }
            if !def.is_enum {
                if let Some(rest) = line.strip_prefix("    pub ") {
                    let f = ident(rest);
                    if rest[f.len()..].starts_with(':') {
                        def.fields.push(f);
                    }
                }
            } else if let Some(rest) =
                line.strip_prefix("    ").filter(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
            {
                let v = ident(rest);
                let after = &rest[v.len()..];
                if after.starts_with(',') || after.starts_with('(') || after.starts_with(" {") || after.is_empty() {
                    def.variants.push(v);
                }
            } else if let Some(rest) =
                line.strip_prefix("        ").filter(|r| r.starts_with(|c: char| c.is_ascii_lowercase()))
            {
                let rest = rest.strip_prefix("pub ").unwrap_or(rest);
                let f = ident(rest);
                if rest[f.len()..].starts_with(':') && !def.fields.contains(&f) {
                    def.fields.push(f);
                }
            }
            continue;
        }
        if line.starts_with("#[derive(") {
            deserialize = line.contains("Deserialize");
        } else if let Some(rest) = line.strip_prefix("pub struct ").or_else(|| line.strip_prefix("pub enum ")) {
            let name = ident(rest);
            if deserialize && rest[name.len()..].trim() == "{" {
                current = Some((name, TypeDef { is_enum: line.starts_with("pub enum"), ..Default::default() }));
            }
            deserialize = false;
        } else if !(line.starts_with("#[") || line.starts_with("///")) {
            deserialize = false;
        }
    }
    out
}

/// The body of `### name` in a markdown page, up to the next heading of level 2 or 3.
fn section<'a>(page: &'a str, name: &str) -> Option<&'a str> {
    let head = format!("\n### {name}\n");
    let start = page.find(&head)? + head.len();
    let rest = &page[start..];
    let end = rest.find("\n## ").into_iter().chain(rest.find("\n### ")).min().unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn docs_rulesets_md_lists_every_field_and_variant_of_the_ruleset_types() {
    let types = ruleset_types(
        &(read("src/rules/ruleset/mod.rs")
            + &read("src/rules/ruleset/catalog.rs")
            + &read("src/rules/ruleset/attack_math.rs")),
    );
    // The reader itself works: the big types are found with their fields.
    let n = |t: &str, f: fn(&TypeDef) -> usize| types.get(t).map(f).unwrap_or(0);
    assert!(n("Ruleset", |d| d.fields.len()) >= 25, "Ruleset fields not read: {:?}", types.get("Ruleset"));
    assert!(n("ConditionDef", |d| d.fields.len()) >= 20);
    assert!(n("AbilityDef", |d| d.fields.len()) >= 15);
    assert!(n("Effect", |d| d.variants.len()) >= 15 && n("Effect", |d| d.fields.len()) >= 10);
    assert!(n("ReorderPolicy", |d| d.fields.len()) >= 5, "struct-variant fields are read");
    assert!(types.len() >= 30, "only {} types read", types.len());

    let page = read("docs/rulesets.md");
    let mut missing = Vec::new();
    for (name, def) in &types {
        let Some(body) = section(&page, name) else {
            missing.push(format!("no `### {name}` section"));
            continue;
        };
        for f in &def.fields {
            if !body.contains(&format!("`{f}`")) && !body.contains(&format!("`{f}`:")) {
                missing.push(format!("{name}: field `{f}`"));
            }
        }
        for v in &def.variants {
            if !body.contains(&format!("`{v}`")) && !body.contains(&format!("`{v}(")) {
                missing.push(format!("{name}: variant `{v}`"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/rulesets.md is missing:\n{}", missing.join("\n"));
}

#[test]
fn docs_a_new_field_would_be_caught() {
    // The same check on a copy of the source with a field added must fail.
    let src = read("src/rules/ruleset/mod.rs").replacen(
        "    pub name: String,\n",
        "    pub name: String,\n    /// New.\n    pub brand_new_field: u8,\n",
        1,
    );
    let types = ruleset_types(&src);
    assert!(types["Ruleset"].fields.iter().any(|f| f == "brand_new_field"));
    let page = read("docs/rulesets.md");
    assert!(!section(&page, "Ruleset").unwrap().contains("`brand_new_field`"));
}

#[test]
fn docs_the_worked_example_ruleset_loads_and_plays() {
    let dir = root().join("tests/fixtures/variant");
    let rs = skirmish::rules::ruleset::Ruleset::load(&dir.join("pf2e-hasty.ron")).unwrap_or_else(|e| panic!("{e}"));
    let base = skirmish::rules::ruleset::Ruleset::load(&root().join("assets/rulesets/pf2e.ron")).unwrap();
    assert_eq!(rs.name, "pf2e-hasty");
    assert!(matches!(rs.budget, skirmish::rules::ruleset::ActionBudget::PerTurnPool { actions: 4, .. }));
    assert_eq!(rs.abilities.len(), base.abilities.len() + 1);
    assert_eq!(rs.conditions.len(), base.conditions.len() + 1);
    // Every line of the page's ron snippets for the example is in the shipped file.
    let page = read("docs/rulesets.md");
    let example = &page[page.find("## Worked example").expect("the worked example")..];
    let file = std::fs::read_to_string(dir.join("pf2e-hasty.ron")).unwrap();
    let file_lines: Vec<&str> = file.lines().map(str::trim).collect();
    let mut snippets = 0;
    for block in example.split("```ron").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        for line in block.lines().map(str::trim).filter(|l| !l.is_empty()) {
            snippets += 1;
            assert!(
                file_lines.iter().any(|f| f.starts_with(line)),
                "docs/rulesets.md shows `{line}`, which is not in tests/fixtures/variant/pf2e-hasty.ron"
            );
        }
    }
    assert!(snippets >= 6);
    // It plays: the duel's checks all pass.
    let ls = skirmish::scenario::load(&dir.join("pf2e-hasty-duel.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ls.ruleset.name, "pf2e-hasty");
    let report = skirmish::scenario::run(&ls, None);
    assert!(report.checks.len() >= 8);
    let failed: Vec<String> = report
        .checks
        .iter()
        .filter_map(|c| c.failure.as_ref().map(|f| format!("step {}: {} — {f}", c.step, c.what)))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn docs_the_readme_links_the_references() {
    let readme = read("README.md");
    for page in ["docs/rules.md", "docs/rulesets.md", "docs/scenarios.md", "docs/encounters.md"] {
        assert!(readme.contains(&format!("]({page}")), "README.md does not link {page}");
        assert!(root().join(page).is_file());
    }
}

#[test]
fn docs_nothing_in_the_repo_refers_outside_it() {
    // Built from parts so this file does not match itself.
    let needles = [concat!("..", "/shared"), concat!("/", "work/"), concat!("/", "root/"), concat!("/", "home/")];
    let mut files = Vec::new();
    for dir in ["src", "tests", "assets", "docs", "benches", "scripts", ".ci", ".cargo"] {
        files.extend(crate::rules_doc::files_under(dir, &[".rs", ".ron", ".md", ".toml", ".sh", ".py", ".log", "run"]));
    }
    for f in ["README.md", "Cargo.toml"] {
        files.push(root().join(f));
    }
    assert!(files.len() > 50);
    let mut bad = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for (i, line) in text.lines().enumerate() {
            if let Some(n) = needles.iter().find(|n| line.contains(**n)) {
                bad.push(format!("{}:{}: refers to `{n}`", f.strip_prefix(root()).unwrap().display(), i + 1));
            }
        }
    }
    assert!(bad.is_empty(), "paths outside the repository:\n{}", bad.join("\n"));
}
