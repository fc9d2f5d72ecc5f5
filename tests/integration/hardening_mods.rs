//! Hardening round two (issue 29), the mods: a mod name is a name, never a path, wherever it comes
//! from (`--mod`, a scenario's `mods:`, `depends_on`), with an error that says where; mod folders,
//! the `mods/` folder and every file in them are confined like rulesets (symlinks followed and
//! checked, nothing outside read or quoted); 40,000 mod abilities load in time with the same
//! conflict reports; and the mod errors that were silent or misleading now say what is wrong
//! (self-dependency, what `check` refuses also refused at load, subfolders, a data mod named like
//! a Rust mod, `extends` chains and cycles, `depends_on` cycles, a missing mod.ron, a symlinked
//! installed ruleset).
//!
//! Each test builds a small project-like tree in a temporary folder (`mods/` with mods in it, an
//! encounter or a scenario beside it) with the helpers of `modding.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use skirmish::modding::data::{DataMods, check_mod, check_mod_name, installed_ruleset, read_manifest};
use skirmish::modding::{ModRegistry, describe_installed, load_mods};
use skirmish::rules::data::{MAX_DATA_BYTES, locate};

use crate::modding::{manifest, temp_dir, write};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh project-like folder (`mods/` in it) and a sibling folder outside it.
fn project(tag: &str) -> (PathBuf, PathBuf) {
    let p = temp_dir(&format!("hm-{tag}"));
    std::fs::create_dir_all(p.join("mods")).unwrap();
    (p, temp_dir(&format!("hm-{tag}-outside")))
}

fn clean(dirs: &[&Path]) {
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A small valid data mod: one ability that fits every installed ruleset.
fn good_mod(dir: &Path, name: &str, deps: &[&str]) {
    write(&dir.join("mod.ron"), &manifest(name, 0, deps));
    write(
        &dir.join("abilities/a.ron"),
        &format!(
            "[\n    (id: \"{name}_jab\", name: \"Jab\", cost: 1, recovery: 1, targets: UpTo(1), effect: Damage(amount: \"1d4\")),\n]\n"
        ),
    );
}

fn load(mods: &Path, names: &[&str]) -> Result<skirmish::modding::LoadedMods, String> {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    load_mods(&ModRegistry::builtin(), mods, &names)
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish")).args(args).current_dir(root()).output().expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// A scenario in `dir` under homebrew-d20 loading these mods.
fn scenario_with_mods(dir: &Path, mods: &str) -> PathBuf {
    let f = dir.join("s.ron");
    write(
        &f,
        &format!(
            "Scenario(\n    name: \"mods\",\n    ruleset: \"homebrew-d20\",\n    mods: [{mods}],\n    combatants: [\n        \
             (name: \"A\", side: \"a\", hp: 10, initiative: Total(20), at: (0, 0)),\n        \
             (name: \"B\", side: \"b\", hp: 10, initiative: Total(10), at: (1, 0)),\n    ],\n    \
             steps: [Expect(Turn(\"A\"))],\n)\n"
        ),
    );
    f
}

// ----- 1. mod names are names, never paths -----

#[test]
fn a_mod_name_that_is_a_path_is_refused_and_nothing_outside_loads() {
    let (p, out) = project("names");
    good_mod(&p.join("mods/fine"), "fine", &[]);
    // A valid mod outside the project, reachable as a path from `mods/`.
    good_mod(&out.join("m"), "m", &[]);
    let escape = format!("../../{}/m", out.file_name().unwrap().to_string_lossy());
    let absolute = out.join("m").display().to_string();
    let long = "x".repeat(65);
    for bad in [escape.as_str(), absolute.as_str(), "a/b", ".", "..", "a\0b", "", long.as_str(), "fine/../fine", "m\n"]
    {
        assert!(check_mod_name(bad).is_err(), "{bad:?}");
        let e = load(&p.join("mods"), &[bad]).err().unwrap_or_else(|| panic!("{bad:?} loaded"));
        assert!(e.contains("is not a mod name"), "{bad:?}: {e}");
        assert!(!e.contains('\0'), "the NUL is shown escaped: {e:?}");
    }
    // The outside mod never loads, by any spelling; the one inside does.
    assert_eq!(load(&p.join("mods"), &["fine"]).unwrap().data.names(), vec!["fine"]);
    assert!(check_mod_name("a-Z_09").is_ok());
    clean(&[&p, &out]);
}

#[test]
fn a_bad_name_in_a_data_file_is_reported_at_its_place() {
    let (p, out) = project("names-files");
    good_mod(&p.join("mods/fine"), "fine", &[]);
    good_mod(&out.join("m"), "m", &[]);
    // A scenario's `mods:`: file, line, column of the name, and the field.
    let f = scenario_with_mods(&p, "\"fine\", \"../../elsewhere/m\"");
    let text = std::fs::read_to_string(&f).unwrap();
    let e = skirmish::scenario::load(&f).unwrap_err();
    assert_eq!(e.file, f.display().to_string());
    assert_eq!((e.line, e.col), locate(&text, "\"../../elsewhere/m\"").unwrap(), "{e}");
    assert!(e.message.starts_with("mods[1]: `../../elsewhere/m` is not a mod name"), "{e}");
    // Extra names (`--mod`) are named as the option.
    let f = scenario_with_mods(&p, "\"fine\"");
    let e = skirmish::scenario::load_with_mods(&f, &[format!("{}", out.join("m").display())]).unwrap_err();
    assert!(e.message.starts_with("--mod: ") && e.message.contains("is not a mod name"), "{e}");
    // A manifest's `depends_on`: the entry's position and index.
    let m = p.join("mods/dep");
    write(
        &m.join("mod.ron"),
        "ModManifest(\n    name: \"dep\",\n    version: \"1\",\n    depends_on: [\"fine\", \"../fine\"],\n)\n",
    );
    let e = read_manifest(&m).unwrap_err();
    let text = std::fs::read_to_string(m.join("mod.ron")).unwrap();
    assert!(e.file.ends_with("mod.ron"), "{e}");
    assert_eq!((e.line, e.col), locate(&text, "\"../fine\"").unwrap(), "{e}");
    assert!(e.message.starts_with("depends_on[1]: `../fine` is not a mod name"), "{e}");
    // A manifest's own name.
    write(&m.join("mod.ron"), "ModManifest(name: \"a/b\", version: \"1\")\n");
    let e = read_manifest(&m).unwrap_err();
    assert!(e.message.starts_with("name: `a/b` is not a mod name"), "{e}");
    clean(&[&p, &out]);
}

#[test]
fn the_cli_mod_options_name_the_option() {
    let scenario = root().join("tests/scenarios/ex-hb-10-defend.ron");
    let enc = root().join("assets/encounters/ambush-3v3.ron");
    let o = cli(&["scenario", "--mod", "../../elsewhere/m", scenario.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--mod: `../../elsewhere/m` is not a mod name"), "{}", stderr(&o));
    let o = cli(&["sim", enc.to_str().unwrap(), "--runs", "1", "--mod", "/etc"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--mod") && stderr(&o).contains("`/etc` is not a mod name"), "{}", stderr(&o));
    if cfg!(feature = "game") {
        // Refused while the options are read: no window opens.
        let o = cli(&["play", "--mod", "a/b", "--now"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("--mod: `a/b` is not a mod name"), "{}", stderr(&o));
    }
}

// ----- 2. confinement -----

#[cfg(unix)]
#[test]
fn a_mod_folder_or_the_mods_folder_linked_from_outside_is_refused() {
    let (p, out) = project("linked");
    good_mod(&out.join("evil"), "evil", &[]);
    symlink(&out.join("evil"), &p.join("mods/evil"));
    let e = load(&p.join("mods"), &["evil"]).expect_err("a linked-in mod folder is refused");
    assert!(e.contains("refused: this mod folder is a link to outside"), "{e}");
    assert!(!e.contains(&out.display().to_string()), "the error does not name the outside path: {e}");
    let e = DataMods::load(&[p.join("mods/evil")]).unwrap_err();
    assert!(e.message.contains("link to outside"), "{e}");
    let o = cli(&["check", p.join("mods/evil").to_str().unwrap()]);
    assert!(!o.status.success() && stderr(&o).contains("link to outside"), "{}", stderr(&o));
    // A symlink inside `mods/` to another folder inside it is fine.
    good_mod(&p.join("mods/real"), "real", &[]);
    symlink(&p.join("mods/real"), &p.join("mods/alias"));
    assert_eq!(load(&p.join("mods"), &["alias"]).unwrap().data.names(), vec!["real"]);
    // `mods/` itself linked to outside the project: nothing in it loads.
    let (q, elsewhere) = project("linked-mods");
    std::fs::remove_dir(q.join("mods")).unwrap();
    good_mod(&elsewhere.join("mods/m"), "m", &[]);
    symlink(&elsewhere.join("mods"), &q.join("mods"));
    let e = load(&q.join("mods"), &["m"]).expect_err("a linked-in mods folder is refused");
    assert!(e.contains("this mods folder is a link to outside its project"), "{e}");
    // The same through a scenario beside it (its `mods/` is found near the file).
    let f = scenario_with_mods(&q, "\"m\"");
    let e = skirmish::scenario::load(&f).unwrap_err();
    assert!(e.message.contains("link to outside its project"), "{e}");
    // `skirmish mods`-style listing shows each refusal instead of loading.
    let listing = describe_installed(&p.join("mods")).join("\n");
    assert!(listing.contains("link to outside") && listing.contains("real"), "{listing}");
    clean(&[&p, &out, &q, &elsewhere]);
}

#[cfg(unix)]
#[test]
fn a_manifest_or_a_file_linked_to_a_system_file_is_refused_unread() {
    let (p, out) = project("leak");
    let secret = out.join("secret.txt");
    write(&secret, "TOPSECRET root:x:0:0:root:/root:/bin/bash\n");
    std::fs::create_dir_all(p.join("mods/leak")).unwrap();
    symlink(&secret, &p.join("mods/leak/mod.ron"));
    let e = load(&p.join("mods"), &["leak"]).expect_err("refused");
    assert!(e.contains("refused: a link to outside the mod's folder"), "{e}");
    assert!(!e.contains("TOPSECRET") && !e.contains("root:x"), "no content quoted: {e}");
    let e = check_mod(&p.join("mods/leak")).unwrap_err().to_string();
    assert!(e.contains("refused") && !e.contains("TOPSECRET"), "{e}");
    if Path::new("/etc/passwd").is_file() {
        std::fs::create_dir_all(p.join("mods/pw")).unwrap();
        symlink(Path::new("/etc/passwd"), &p.join("mods/pw/mod.ron"));
        let o = cli(&["check", p.join("mods/pw").to_str().unwrap()]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains("refused") && !stderr(&o).contains("root:"), "{}", stderr(&o));
    }
    // A content file linked out is refused too (before it is parsed).
    good_mod(&p.join("mods/sneaky"), "sneaky", &[]);
    symlink(&secret, &p.join("mods/sneaky/abilities/b.ron"));
    let e = load(&p.join("mods"), &["sneaky"]).expect_err("refused");
    assert!(e.contains("leads outside the mod's folder") && !e.contains("TOPSECRET"), "{e}");
    clean(&[&p, &out]);
}

// ----- 3. 40,000 abilities load in time, with the same conflict reports -----

#[test]
fn forty_thousand_mod_abilities_load_in_time_with_the_same_conflicts() {
    let (p, out) = project("scale");
    let mut big = String::from("// 40,000 abilities\n[\n");
    for i in 0..40_000 {
        big.push_str(&format!("    (id: \"a{i:05}\", name: \"A{i}\", cost: 1, recovery: 1, effect: Narrative),\n"));
    }
    big.push_str("]\n");
    assert!((big.len() as u64) < MAX_DATA_BYTES, "{} bytes: under the size cap", big.len());
    write(&p.join("mods/big/mod.ron"), &manifest("big", 0, &[]));
    write(&p.join("mods/big/abilities/all.ron"), &big);
    // A later mod redefines every tenth one, in reverse order.
    let mut late = String::from("[\n");
    for i in (0..40_000).step_by(10).rev() {
        late.push_str(&format!("  (id: \"a{i:05}\", name: \"L{i}\", cost: 2, recovery: 2, effect: Narrative),\n"));
    }
    late.push_str("]\n");
    // It says so: each id it replaces is in its manifest's `overrides` (issue 28).
    let ids: Vec<String> = (0..40_000).step_by(10).map(|i| format!("\"a{i:05}\"")).collect();
    write(
        &p.join("mods/late/mod.ron"),
        &format!("ModManifest(name: \"late\", version: \"1.0.0\", load_order: 1, overrides: [{}])\n", ids.join(", ")),
    );
    write(&p.join("mods/late/abilities/l.ron"), &late);
    let t = std::time::Instant::now();
    let loaded = load(&p.join("mods"), &["late", "big"]).expect("loads");
    let mut rs = installed_ruleset("homebrew-d20").unwrap();
    let base = rs.abilities.len();
    let notes = loaded.data.apply(&mut rs).unwrap();
    let took = t.elapsed();
    assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
    assert!(notes.is_empty());
    assert_eq!(rs.abilities.len(), base + 40_000);
    assert_eq!(rs.ability("a00010").unwrap().name, "L10", "the later mod wins");
    // Every declared override, in the later mod's file order, at the places `locate` finds.
    let c = &loaded.data.conflicts;
    assert_eq!(c.len(), 4_000);
    assert_eq!((c[0].id.as_str(), c[3_999].id.as_str()), ("a39990", "a00000"));
    for k in [0, 1, 1_234, 3_999] {
        let needle = format!("\"{}\"", c[k].id);
        assert_eq!((c[k].first.line, c[k].first.col), locate(&big, &needle).unwrap());
        assert_eq!((c[k].second.line, c[k].second.col), locate(&late, &needle).unwrap());
        assert_eq!((c[k].first.module.as_str(), c[k].second.module.as_str()), ("big", "late"));
    }
    clean(&[&p, &out]);
}

// ----- 4. silent acceptance and misreports -----

#[test]
fn a_mod_that_depends_on_itself_is_an_error() {
    let (p, out) = project("selfdep");
    good_mod(&p.join("mods/selfish"), "selfish", &["selfish"]);
    let e = read_manifest(&p.join("mods/selfish")).unwrap_err();
    assert!(e.message.contains("depends_on[0]: mod `selfish` depends on itself"), "{e}");
    let e = load(&p.join("mods"), &["selfish"]).expect_err("refused");
    assert!(e.contains("depends on itself"), "{e}");
    clean(&[&p, &out]);
}

#[test]
fn what_check_refuses_does_not_load_for_play_sim_or_scenarios() {
    let (p, out) = project("checked");
    good_mod(&p.join("mods/broken"), "broken", &[]);
    // A ruleset extension with an unknown condition: unused unless played, but `check` rejects it.
    write(
        &p.join("mods/broken/rulesets/r.ron"),
        "Ruleset(\n    name: \"pf2e-bad\",\n    extends: \"pf2e\",\n    abilities: [\n        (id: \"hex\", name: \"Hex\", cost: 1,\n            targets: UpTo(1), effect: TargetCondition(condition: \"cursed\")),\n    ],\n)\n",
    );
    let checked = check_mod(&p.join("mods/broken")).unwrap_err().to_string();
    assert!(checked.contains("unknown condition `cursed`"), "{checked}");
    let e = load(&p.join("mods"), &["broken"]).expect_err("refused at load");
    assert_eq!(e, checked, "the same message as check");
    // The simulator, the scenario runner and hot reload all load through it.
    let enc = p.join("duel.ron");
    std::fs::copy(root().join("assets/encounters/ambush-3v3.ron"), &enc).unwrap();
    let cfg = skirmish::sim::SimConfig {
        mods: vec!["broken".into()],
        ..skirmish::sim::SimConfig::new(&enc, Some("pf2e"), 1)
    };
    let e = skirmish::sim::prepare(&cfg).expect_err("sim refuses it").to_string();
    assert!(e.contains("unknown condition `cursed`"), "{e}");
    let o = cli(&["sim", enc.to_str().unwrap(), "--runs", "1", "--ruleset", "pf2e", "--mod", "broken"]);
    assert!(!o.status.success() && stderr(&o).contains("unknown condition `cursed`"), "{}", stderr(&o));
    let f = scenario_with_mods(&p, "\"broken\"");
    let e = skirmish::scenario::load(&f).unwrap_err();
    assert!(e.message.contains("unknown condition `cursed`"), "{e}");
    // An ability that does not fit an installed ruleset (no recovery for segments) likewise.
    good_mod(&p.join("mods/unfit"), "unfit", &[]);
    write(
        &p.join("mods/unfit/abilities/a.ron"),
        "[\n    (id: \"poke\", name: \"Poke\", cost: 1, targets: UpTo(1), effect: Damage(amount: \"1d4\")),\n]\n",
    );
    let checked = check_mod(&p.join("mods/unfit")).unwrap_err().to_string();
    assert_eq!(load(&p.join("mods"), &["unfit"]).expect_err("refused"), checked);
    clean(&[&p, &out]);
}

#[test]
fn files_in_subfolders_of_a_content_folder_are_an_error_naming_the_file() {
    let (p, out) = project("subfolders");
    for sub in ["abilities", "conditions", "rulesets", "encounters"] {
        let m = p.join(format!("mods/deep-{sub}"));
        good_mod(&m, &format!("deep-{sub}"), &[]);
        write(&m.join(sub).join("extra/more.ron"), "[]\n");
        let e = DataMods::load(std::slice::from_ref(&m)).unwrap_err();
        assert!(e.file.ends_with(&format!("{sub}/extra/more.ron")), "{sub}: {e}");
        assert!(e.message.contains(&format!("{sub}/ is read flat")), "{sub}: {e}");
        let e = load(&p.join("mods"), &[&format!("deep-{sub}")]).expect_err("refused");
        assert!(e.contains("extra/more.ron"), "{e}");
    }
    // An empty subfolder is named itself.
    let m = p.join("mods/hollow");
    good_mod(&m, "hollow", &[]);
    std::fs::create_dir_all(m.join("abilities/nothing")).unwrap();
    let e = DataMods::load(&[m]).unwrap_err();
    assert!(e.file.ends_with("abilities/nothing") && e.message.contains("read flat"), "{e}");
    clean(&[&p, &out]);
}

#[test]
fn a_data_mod_named_like_a_rust_mod_is_refused_naming_both() {
    let (p, out) = project("rustname");
    for name in ModRegistry::builtin().names() {
        good_mod(&p.join("mods").join(&name), &name, &[]);
        let e = check_mod(&p.join("mods").join(&name)).unwrap_err().to_string();
        assert!(e.contains(&format!("`{name}` is also the name of a built-in Rust mod")), "{e}");
        assert!(e.contains(&p.join("mods").join(&name).display().to_string()), "names the data mod: {e}");
        let e = load(&p.join("mods"), &[&name]).expect_err("ambiguous");
        assert!(e.contains("ambiguous") && e.contains(&format!("the Rust mod `{name}`")), "{e}");
        let o = cli(&["check", p.join("mods").join(&name).to_str().unwrap()]);
        assert!(!o.status.success() && stderr(&o).contains("built-in Rust mod"), "{}", stderr(&o));
    }
    // Without the folder the Rust mod loads as before.
    let (q, elsewhere) = project("rustname-plain");
    assert_eq!(load(&q.join("mods"), &["regeneration"]).unwrap().code.names(), vec!["regeneration"]);
    clean(&[&p, &out, &q, &elsewhere]);
}

#[test]
fn an_extends_chain_builds_at_any_length_and_a_cycle_is_listed() {
    let (p, out) = project("extends");
    let m = p.join("mods/chain");
    good_mod(&m, "chain", &[]);
    // r01 extends pf2e, r02 extends r01, ... r18 extends r17: acyclic.
    for i in 1..=18 {
        let base = if i == 1 { "pf2e".to_string() } else { format!("r{:02}", i - 1) };
        write(
            &m.join(format!("rulesets/r{i:02}.ron")),
            &format!(
                "Ruleset(name: \"r{i:02}\", extends: \"{base}\", abilities: [(id: \"step{i}\", name: \"S\", cost: 1, effect: Narrative)])\n"
            ),
        );
    }
    let mods = DataMods::load(std::slice::from_ref(&m)).unwrap();
    let rs = mods.ruleset("r18", &installed_ruleset).unwrap().expect("an 18-long chain builds");
    assert_eq!(rs.name, "r18");
    assert!(rs.ability("step1").is_some() && rs.ability("step18").is_some() && rs.ability("strike").is_some());
    assert_eq!(mods.extends_chain("r18").unwrap().len(), 19);
    // A real cycle is listed, at the `extends` that closes it.
    let c = p.join("mods/loop");
    good_mod(&c, "loop", &[]);
    for (a, b) in [("ca", "cb"), ("cb", "cc"), ("cc", "ca")] {
        write(
            &c.join(format!("rulesets/{a}.ron")),
            &format!("Ruleset(\n    name: \"{a}\",\n    extends: \"{b}\",\n)\n"),
        );
    }
    let mods = DataMods::load(std::slice::from_ref(&c)).unwrap();
    let e = mods.ruleset("ca", &installed_ruleset).unwrap().unwrap_err();
    assert!(e.message.contains("`ca` -> `cb` -> `cc` -> `ca` extend each other (a cycle)"), "{e}");
    assert!(e.file.ends_with("cc.ron") && (e.line, e.col) == (3, 5), "{e}");
    let e = check_mod(&c).unwrap_err();
    assert!(e.message.contains("(a cycle)") && !e.message.contains("extends itself"), "{e}");
    // Extending itself says so.
    write(&c.join("rulesets/cc.ron"), "Ruleset(name: \"cc\", extends: \"cc\")\n");
    let mods = DataMods::load(&[c]).unwrap();
    let e = mods.ruleset("ca", &installed_ruleset).unwrap().unwrap_err();
    assert!(e.message.contains("`cc` extends itself"), "{e}");
    clean(&[&p, &out]);
}

#[test]
fn a_depends_on_cycle_is_reported_as_a_cycle() {
    let (p, out) = project("depcycle");
    good_mod(&p.join("mods/alpha"), "alpha", &["beta"]);
    good_mod(&p.join("mods/beta"), "beta", &["alpha"]);
    let e = DataMods::load(&[p.join("mods/alpha"), p.join("mods/beta")]).unwrap_err();
    assert!(e.message.contains("`alpha` -> `beta` -> `alpha` depend on each other (a cycle)"), "{e}");
    assert!(!e.message.contains("load_order"), "{e}");
    let e = check_mod(&p.join("mods/alpha")).unwrap_err();
    assert!(e.message.contains("(a cycle)"), "{e}");
    // Three mods around.
    good_mod(&p.join("mods/x1"), "x1", &["x2"]);
    good_mod(&p.join("mods/x2"), "x2", &["x3"]);
    good_mod(&p.join("mods/x3"), "x3", &["x1"]);
    let e = load(&p.join("mods"), &["x1", "x2", "x3"]).expect_err("a cycle");
    assert!(e.contains("`x1` -> `x2` -> `x3` -> `x1`"), "{e}");
    // Without a cycle, a load order the wrong way round still says to lower it.
    write(&p.join("mods/late/mod.ron"), &manifest("late", 5, &[]));
    write(&p.join("mods/early/mod.ron"), &manifest("early", 1, &["late"]));
    let e = DataMods::load(&[p.join("mods/early"), p.join("mods/late")]).unwrap_err();
    assert!(e.message.contains("lower load_order"), "{e}");
    clean(&[&p, &out]);
}

#[test]
fn a_missing_mod_ron_is_said_so() {
    let (p, out) = project("nomanifest");
    let m = p.join("mods/empty");
    write(&m.join("abilities/a.ron"), "[]\n");
    let want = format!("{} has no mod.ron", m.display());
    let e = check_mod(&m).unwrap_err().to_string();
    assert!(e.contains(&want), "{e}");
    let e = load(&p.join("mods"), &["empty"]).expect_err("refused");
    assert!(e.contains(&want), "{e}");
    let o = cli(&["check", m.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("has no mod.ron") && !stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    clean(&[&p, &out]);
}

#[cfg(unix)]
#[test]
fn a_symlinked_installed_ruleset_is_refused_saying_why() {
    let (p, out) = project("ruleset-link");
    let text = std::fs::read_to_string(root().join("assets/rulesets/pf2e.ron")).unwrap();
    write(&out.join("evil.ron"), &text.replacen("name: \"pf2e\"", "name: \"evil\"", 1));
    std::fs::create_dir_all(p.join("assets/rulesets")).unwrap();
    std::fs::copy(root().join("assets/rulesets/homebrew-d20.ron"), p.join("assets/rulesets/homebrew-d20.ron")).unwrap();
    symlink(&out.join("evil.ron"), &p.join("assets/rulesets/evil.ron"));
    let e = skirmish::rules::data::installed_rulesets(&p.join("x.ron")).unwrap_err();
    assert!(e.file.ends_with("evil.ron"), "{e}");
    assert!(e.message.contains("refused: a symlink that leads out of"), "{e}");
    // `check` of an encounter there, and the simulator, say why too.
    let enc = p.join("duel.ron");
    std::fs::copy(root().join("assets/encounters/ambush-3v3.ron"), &enc).unwrap();
    let o = cli(&["check", enc.to_str().unwrap()]);
    assert!(!o.status.success() && stderr(&o).contains("refused: a symlink"), "{}", stderr(&o));
    let o = cli(&["sim", enc.to_str().unwrap(), "--runs", "1", "--ruleset", "evil"]);
    assert!(!o.status.success() && stderr(&o).contains("refused: a symlink"), "{}", stderr(&o));
    clean(&[&p, &out]);
}

/// A rulesets folder that is a link to another folder is allowed, and a bad file in it is named
/// where the player put it, not where the link leads (issue 26: cargo-mutants' deleted `file:`
/// in `installed_rulesets` named the link's target).
#[cfg(unix)]
#[test]
fn a_bad_ruleset_in_a_linked_rulesets_folder_is_named_where_the_player_put_it() {
    let (p, out) = project("ruleset-folder-link");
    let real = out.join("shared-rulesets");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::copy(root().join("assets/rulesets/homebrew-d20.ron"), real.join("homebrew-d20.ron")).unwrap();
    std::fs::write(real.join("broken.ron"), b"(name: \"broken\xff\")").unwrap();
    std::fs::create_dir_all(p.join("assets")).unwrap();
    symlink(&real, &p.join("assets/rulesets"));
    let e = skirmish::rules::data::installed_rulesets(&p.join("x.ron")).unwrap_err();
    assert_eq!(e.file, p.join("assets/rulesets/broken.ron").display().to_string(), "{e}");
    assert!(!e.file.contains("shared-rulesets"), "{e}");
    assert!(e.message.contains("UTF-8"), "{e}");
    clean(&[&p, &out]);
}

#[test]
fn a_huge_or_repeating_depends_on_is_refused_quickly() {
    let (p, out) = project("manydeps");
    let dir = p.join("mods/many");
    good_mod(&dir, "many", &[]);
    // 500,000 entries (2 MB, under the size cap): each was placed by scanning the whole file, so
    // `check`, `mods` and the start screen never finished.
    let deps = vec!["\"a\""; 500_000].join(",");
    write(&dir.join("mod.ron"), &format!("ModManifest(name: \"many\", version: \"1\", depends_on: [{deps}])\n"));
    let t = std::time::Instant::now();
    let e = read_manifest(&dir).unwrap_err();
    assert!(t.elapsed().as_secs() < 20, "took {:?}", t.elapsed());
    assert!(e.message.contains("depends_on: 500000 entries: at most"), "{e}");
    assert_eq!((e.line, e.col), (1, 41), "{e}");
    // A dependency listed twice is named at its place.
    write(&dir.join("mod.ron"), "ModManifest(name: \"many\", version: \"1\", depends_on: [\"b\", \"b\"])\n");
    let e = read_manifest(&dir).unwrap_err();
    assert!(e.message.contains("depends_on[1]: `b` is listed twice"), "{e}");
    clean(&[&p, &out]);
}
