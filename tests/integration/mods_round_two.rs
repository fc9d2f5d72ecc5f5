//! Modding round two (issue 28): conflicts between mods are never silent, a Rust mod defines its
//! own conditions and abilities (checked as data) and gives roll modifiers with typed durations.
//!
//! The conflict cases are the modder's from the issue: `frost-variant` (a pf2e variant whose
//! ruleset defines `frost_ray` and `chilled`), `ice-a` and `ice-b`.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use skirmish::modding::data::{DataMods, check_mod, check_together};
use skirmish::modding::*;
use skirmish::rules::ruleset::Ruleset;

use crate::common::{Fight, SpecExt, pc, pf2e};
use crate::modding::{temp_dir, write};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish")).args(args).current_dir(root()).output().expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const FROST_RULESET: &str = "// A pf2e variant with a cold ray.
Ruleset(
    name: \"pf2e-frost\",
    extends: \"pf2e\",
    abilities: [
        (id: \"frost_ray\", name: \"Frost Ray\", cost: 1, tags: [\"spell\"],
            targets: UpTo(1), effect: TargetCondition(condition: \"chilled\", duration: Rounds(1))),
    ],
    conditions: [
        (id: \"chilled\", negative: true, modifiers: [(to: [Attack], kind: Status, amount: -1)]),
    ],
)
";

const ICE_RAY: &str = "[
    (id: \"frost_ray\", name: \"Ice Ray\", cost: 1, recovery: 1, targets: UpTo(1), effect: Damage(amount: \"1d4\")),
]
";

/// A project folder with `mods/frost-variant` and `mods/ice-b` (which depends on it and
/// redefines `frost_ray` in its `abilities/`), ice-b's manifest with these `overrides`.
fn frost_and_ice(tag: &str, overrides: &str) -> PathBuf {
    let p = temp_dir(tag);
    write(
        &p.join("mods/frost-variant/mod.ron"),
        "ModManifest(name: \"frost-variant\", version: \"1.0.0\", load_order: 1)\n",
    );
    write(&p.join("mods/frost-variant/rulesets/pf2e-frost.ron"), FROST_RULESET);
    write(
        &p.join("mods/ice-b/mod.ron"),
        &format!(
            "ModManifest(name: \"ice-b\", version: \"1.0.0\", depends_on: [\"frost-variant\"], load_order: 2{overrides})\n"
        ),
    );
    write(&p.join("mods/ice-b/abilities/ice.ron"), ICE_RAY);
    p
}

#[test]
fn an_ability_folder_replacing_another_mods_ruleset_ability_is_an_error_unless_declared() {
    // The worst case of the issue: ice-b's `abilities/` silently replaced frost-variant's
    // `frost_ray`, and `check` said ok.
    let p = frost_and_ice("r2-frost", "");
    let (ice, frost) = (p.join("mods/ice-b/abilities/ice.ron"), p.join("mods/frost-variant/rulesets/pf2e-frost.ron"));
    let want = format!(
        "{}:2:10: conflict: ability `frost_ray` is defined by mod `frost-variant` at {}:6:14 (mod `frost-variant`) \
         and again here by mod `ice-b`; if `ice-b` means to replace it, add `overrides: [\"frost_ray\"]` to its \
         mod.ron, otherwise give one of them another id",
        ice.display(),
        frost.display()
    );
    let e = check_mod(&p.join("mods/ice-b")).unwrap_err();
    assert_eq!(e.to_string(), want);
    // The command line says the same and exits 1.
    let o = cli(&["check", p.join("mods/ice-b").to_str().unwrap()]);
    assert_eq!((o.status.code(), stderr(&o).trim_end()), (Some(1), want.as_str()));
    // Declared, ice-b's ray is the one in force, and `check` lists the override.
    let p = frost_and_ice("r2-frost-ok", ", overrides: [\"frost_ray\"]");
    let lines = check_mod(&p.join("mods/ice-b")).unwrap();
    assert!(lines.iter().any(|l| l.starts_with("override: ability `frost_ray` of ")), "{lines:?}");
    let mods = DataMods::load(&[p.join("mods/frost-variant"), p.join("mods/ice-b")]).unwrap();
    let rs = mods.ruleset("pf2e-frost", &skirmish::modding::data::installed_ruleset).unwrap().unwrap();
    assert_eq!(rs.ability("frost_ray").unwrap().name, "Ice Ray");
}

#[test]
fn a_later_mods_ruleset_overriding_an_earlier_ability_folder_wins() {
    // The other way round: ice-b (loaded first) puts `frost_ray` in every ruleset; frost-variant,
    // later and declaring it, defines its own in its ruleset: frost-variant's is in force there.
    let p = temp_dir("r2-later-ext");
    write(&p.join("mods/ice-b/mod.ron"), "ModManifest(name: \"ice-b\", version: \"1.0.0\", load_order: 1)\n");
    write(&p.join("mods/ice-b/abilities/ice.ron"), ICE_RAY);
    write(
        &p.join("mods/frost-variant/mod.ron"),
        "ModManifest(name: \"frost-variant\", version: \"1.0.0\", load_order: 2, overrides: [\"frost_ray\"])\n",
    );
    write(&p.join("mods/frost-variant/rulesets/pf2e-frost.ron"), FROST_RULESET);
    let mods = DataMods::load(&[p.join("mods/ice-b"), p.join("mods/frost-variant")]).unwrap();
    let rs = mods.ruleset("pf2e-frost", &skirmish::modding::data::installed_ruleset).unwrap().unwrap();
    assert_eq!(rs.ability("frost_ray").unwrap().name, "Frost Ray");
    // And in a ruleset that extends it, further up the chain (the review's case).
    write(
        &p.join("mods/frost-variant/rulesets/deep.ron"),
        "Ruleset(name: \"pf2e-deep-frost\", extends: \"pf2e-frost\", round_cap: 40)\n",
    );
    let mods = DataMods::load(&[p.join("mods/ice-b"), p.join("mods/frost-variant")]).unwrap();
    let deep = mods.ruleset("pf2e-deep-frost", &skirmish::modding::data::installed_ruleset).unwrap().unwrap();
    assert_eq!(deep.ability("frost_ray").unwrap().name, "Frost Ray");
    // Elsewhere (plain pf2e) ice-b's stays.
    let mut plain = pf2e();
    mods.apply(&mut plain).unwrap();
    assert_eq!(plain.ability("frost_ray").unwrap().name, "Ice Ray");
    // Undeclared, it is an error at frost-variant's definition.
    write(
        &p.join("mods/frost-variant/mod.ron"),
        "ModManifest(name: \"frost-variant\", version: \"1.0.0\", load_order: 2)\n",
    );
    let e = DataMods::load(&[p.join("mods/ice-b"), p.join("mods/frost-variant")]).unwrap_err();
    assert!(e.message.starts_with("conflict: ability `frost_ray` is defined by mod `ice-b`"), "{e}");
    assert_eq!((e.line, e.col), (6, 14), "{e}");
}

/// Two independent mods that both define `ice_lance`.
fn ice_a_and_b(tag: &str) -> PathBuf {
    let p = temp_dir(tag);
    for (name, label) in [("ice-a", "A"), ("ice-b", "B")] {
        write(&p.join(format!("mods/{name}/mod.ron")), &format!("ModManifest(name: \"{name}\", version: \"1.0.0\")\n"));
        write(
            &p.join(format!("mods/{name}/abilities/lance.ron")),
            &format!(
                "[\n    (id: \"ice_lance\", name: \"Lance {label}\", cost: 1, recovery: 1, targets: UpTo(1), effect: Damage(amount: \"1d4\")),\n]\n"
            ),
        );
    }
    p
}

#[test]
fn two_mods_checked_alone_pass_and_checked_or_loaded_together_fail_with_both_places() {
    let p = ice_a_and_b("r2-ice");
    let (a, b) = (p.join("mods/ice-a"), p.join("mods/ice-b"));
    let want = format!(
        "{}:2:10: conflict: ability `ice_lance` is defined by mod `ice-a` at {}:2:10 (mod `ice-a`) and again here by \
         mod `ice-b`; if `ice-b` means to replace it, add `overrides: [\"ice_lance\"]` to its mod.ron, otherwise \
         give one of them another id",
        b.join("abilities/lance.ron").display(),
        a.join("abilities/lance.ron").display()
    );
    // Each alone is fine.
    for d in [&a, &b] {
        let o = cli(&["check", d.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    // Together: the conflict, exit 1, from `check`, the scenario runner and the simulator.
    assert_eq!(check_together(&[a.clone(), b.clone()]).unwrap_err().to_string(), want);
    let o = cli(&["check", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!((o.status.code(), stderr(&o).trim_end()), (Some(1), want.as_str()));
    let scenario = p.join("s.ron");
    write(
        &scenario,
        "Scenario(\n    name: \"ice\",\n    ruleset: \"segments\",\n    mods: [\"ice-a\", \"ice-b\"],\n    combatants: [\n        \
         (name: \"A\", side: \"a\", hp: 10, initiative: Total(20), at: (0, 0)),\n        \
         (name: \"B\", side: \"b\", hp: 10, initiative: Total(10), at: (1, 0)),\n    ],\n    steps: [],\n)\n",
    );
    let o = cli(&["scenario", scenario.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    let enc = p.join("duel.ron");
    std::fs::copy(root().join("assets/encounters/ambush-3v3.ron"), &enc).unwrap();
    let o = cli(&["sim", enc.to_str().unwrap(), "--runs", "1", "--mod", "ice-a", "--mod", "ice-b"]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    // `skirmish mods`' listing shows the load order and what each mod overrides.
    write(
        &b.join("mod.ron"),
        "ModManifest(name: \"ice-b\", version: \"1.0.0\", load_order: 1, overrides: [\"ice_lance\"])\n",
    );
    let listed = describe_installed(&p.join("mods"));
    let at = listed.iter().position(|l| l.contains("in load order")).expect("a load order heading");
    assert_eq!(
        listed[at + 1..],
        [
            "  1. ice-a 1.0.0 (load_order 0, depends on: [])".to_string(),
            "  2. ice-b 1.0.0 (load_order 1, depends on: [], overrides: [ice_lance])".to_string(),
        ]
    );
    let o = cli(&["check", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains("mods ice-a, ice-b together: ok (load order: ice-a -> ice-b)"), "{out}");
}

// ----- a Rust mod's own conditions, abilities, modifiers and durations -----

/// What [`Muse`]'s `add_modifier` calls answered, in order.
type Answers = Arc<Mutex<Vec<Result<(), ModRefusal>>>>;

/// A mod that defines `muse_inspired` (+1 status to attack and damage per value), a `chill`
/// condition and a `chill_touch` ability, and gives `muse_inspired` 2 at each turn start with a
/// chosen duration, recording what `add_modifier` answered.
#[derive(Clone)]
struct Muse(Lasts, Answers);

impl RulesMod for Muse {
    fn name(&self) -> &str {
        "muse"
    }

    fn build(&self, m: &mut ModBuilder) {
        m.modifier(
            "muse_inspired",
            RollModifier {
                to: vec![RollOn::Attack, RollOn::Damage],
                kind: BonusKind::Status,
                amount: 1,
                per_value: true,
            },
        );
        m.condition(ConditionDef { negative: true, ..ConditionDef::named("chill") });
        m.ability(AbilityDef {
            targets: TargetCount::UpTo(1),
            ..AbilityDef::new(
                "chill_touch",
                1,
                Effect::TargetCondition { condition: "chill".into(), value: None, duration: Some(Lasts::Rounds(1)) },
            )
        });
        let (lasts, out) = (self.0, self.1.clone());
        m.add_systems(TurnSystems::TurnStart, move |mut rules: ModRules| {
            for e in rules.heard() {
                if let CombatEvent::TurnStarted { who, .. } = e {
                    let mut out = out.lock().unwrap();
                    out.push(rules.add_modifier("muse", who, "muse_inspired", Some(2), lasts, None));
                    out.push(rules.add_modifier("muse", who, "chill", None, lasts, None));
                    out.push(rules.add_modifier("muse", who, "no_such", None, lasts, None));
                }
            }
        });
    }
}

/// A duel with [`Muse`] installed, and what its calls answered so far.
fn muse_fight(rs: Ruleset, lasts: Lasts) -> (Combat, Answers) {
    let specs =
        vec![pc("A", "heroes", 20, (0, 0)).stat("STR", 3).with(&["chill_touch"]), pc("B", "monsters", 10, (1, 0))];
    let answers = Answers::default();
    let mods = ModList::new().with(Muse(lasts, answers.clone()));
    let c = Combat::with_mods(rs, 1, &specs, skirmish::rules::map::BattleMap::open(), &[], &mods).expect("set up");
    (c, answers)
}

#[test]
fn a_rust_mod_defines_conditions_and_abilities_and_gives_a_typed_modifier() {
    let (c, answers) = muse_fight(pf2e(), Lasts::OwnerTurns(1));
    let mut f = Fight(c);
    // Its condition and ability are in the combat's ruleset, and a sheet can list the ability.
    assert!(f.0.ruleset().condition("chill").is_some_and(|c| c.negative));
    assert!(f.0.ruleset().ability("chill_touch").is_some());
    assert_eq!(
        answers.lock().unwrap()[..3],
        [Ok(()), Err(ModRefusal::NotAModifier("chill".into())), Err(ModRefusal::UnknownCondition("no_such".into()))]
    );
    assert_eq!(
        ModRefusal::UnknownCondition("no_such".into()).to_string(),
        "the ruleset has no condition `no_such`: define it with ModBuilder::condition (or ModBuilder::modifier) in \
         the mod's build, or in a data mod"
    );
    // +2 status to A's attack and damage until the end of its turn (one of its own turns).
    let m = f.mark();
    f.force(&[10, 3]);
    f.act("A", "strike", &["B"]).unwrap();
    assert!(f.saw(m, "AttackRolled", "roll: 10, bonus: 5, total: 15"), "{:?}", f.since(m));
    assert!(f.saw(m, "RollModified", "who: A, on: Attack, modifiers: [(\"muse_inspired\", 2)]"), "{:?}", f.since(m));
    assert!(f.saw(m, "RollModified", "who: A, on: Damage, modifiers: [(\"muse_inspired\", 2)]"), "{:?}", f.since(m));
    assert!(f.saw(m, "Damaged", "who: B, amount: 8"), "3 + STR 3 + 2: {:?}", f.since(m));
    f.act("A", "chill_touch", &["B"]).unwrap();
    assert!(f.has("B", "chill"));
    f.end("A");
    assert!(!f.has("A", "muse_inspired"), "ended with A's turn");
}

#[test]
fn a_combat_with_a_rust_mods_own_condition_saves_loads_and_replays_exactly() {
    // A program that registers Muse (as `skirmish::run(ModRegistry::builtin().with(..))` does).
    let registry = ModRegistry::builtin().with(Muse(Lasts::OwnerTurns(1), Answers::default()));
    let (c, _) = muse_fight(pf2e(), Lasts::OwnerTurns(1));
    let mut f = Fight(c);
    f.force(&[10, 3]);
    f.act("A", "strike", &["B"]).unwrap();
    f.act("A", "chill_touch", &["B"]).unwrap();
    f.end("A");
    assert!(f.has("B", "chill") && f.has("B", "muse_inspired"), "B's turn started under Muse");
    let save = skirmish::save::SaveFile::capture_with(&f.0, "muse duel", &registry).expect("the fight saves");
    let text = save.to_ron();
    assert!(text.contains("\"muse\""), "the save names the mod: {text}");
    // Loaded and checked as the game loads a save: the same state, the mod's conditions on B.
    let parsed = skirmish::save::parse("muse.ron", &text).expect("parses");
    let loaded = skirmish::save::restore_with(parsed, "muse.ron", &registry).expect("loads");
    assert_eq!(loaded.combat.state_hash(), f.0.state_hash());
    assert!(Fight(loaded.combat).has("B", "chill"));
    // Replayed, the log is the same event for event.
    let (replayed, divergence) = save.replay_with("muse.ron", true, &registry, |_, _| {}).expect("replays");
    assert!(divergence.is_none(), "{divergence:?}");
    assert_eq!(format!("{:?}", replayed.log()), format!("{:?}", f.0.log()));
    // Without the mod registered, loading says which mod it needs.
    let parsed = skirmish::save::parse("muse.ron", &text).expect("parses");
    let e = skirmish::save::restore_with(parsed, "muse.ron", &ModRegistry::builtin()).err().expect("refused");
    assert!(e.to_string().contains("mods: no mod `muse`"), "{e}");
}

#[test]
fn a_duration_the_ruleset_never_counts_down_is_refused_and_data_is_checked() {
    // homebrew-d20 has no end-of-turn steps: OwnerTurns would never run out.
    let (_, answers) = muse_fight(crate::common::homebrew(), Lasts::OwnerTurns(1));
    assert_eq!(answers.lock().unwrap()[0], Err(ModRefusal::DurationNeverEnds(Lasts::OwnerTurns(1))));
    let (_, answers) = muse_fight(crate::common::homebrew(), Lasts::Rounds(1));
    assert_eq!(answers.lock().unwrap()[0], Ok(()));
    // A mod's definition goes through the data reader: a value out of range is an error naming
    // the mod.
    #[derive(Clone)]
    struct Huge;
    impl RulesMod for Huge {
        fn name(&self) -> &str {
            "huge"
        }
        fn build(&self, m: &mut ModBuilder) {
            m.modifier(
                "giant",
                RollModifier { to: vec![RollOn::Attack], kind: BonusKind::Item, amount: 50_000, per_value: false },
            );
        }
    }
    let e = ruleset_with_mods(pf2e(), &ModList::new().with(Huge)).unwrap_err().to_string();
    assert!(e.starts_with("mod `huge`: condition `giant`:") && e.contains("amount"), "{e}");
    // An id the ruleset has is refused, naming it.
    #[derive(Clone)]
    struct Again;
    impl RulesMod for Again {
        fn name(&self) -> &str {
            "again"
        }
        fn build(&self, m: &mut ModBuilder) {
            m.condition(ConditionDef::named("frightened"));
        }
    }
    assert_eq!(
        ruleset_with_mods(pf2e(), &ModList::new().with(Again)).unwrap_err().to_string(),
        "mod `again`: defines the condition `frightened`, which the ruleset `pf2e` already has (from its file or a \
         data mod): a Rust mod adds conditions, it does not replace them (give it another id)"
    );
    // Two Rust mods defining one id, even word for word, is a conflict naming both.
    #[derive(Clone)]
    struct Twin(&'static str);
    impl RulesMod for Twin {
        fn name(&self) -> &str {
            self.0
        }
        fn build(&self, m: &mut ModBuilder) {
            m.condition(ConditionDef::named("twinned"));
        }
    }
    let both = ModList::new().with(Twin("twin-a")).with(Twin("twin-b"));
    assert_eq!(
        ruleset_with_mods(pf2e(), &both).unwrap_err().to_string(),
        "mod `twin-b`: defines the condition `twinned`, which the Rust mod `twin-a` defines too: two mods may not \
         define one id (give one of them another id)"
    );
    // One mod saying one definition twice (a helper of its own called twice) is no conflict: the
    // condition is added once.
    #[derive(Clone)]
    struct Echo;
    impl RulesMod for Echo {
        fn name(&self) -> &str {
            "echo"
        }
        fn build(&self, m: &mut ModBuilder) {
            m.condition(ConditionDef::named("echoed"));
            m.condition(ConditionDef::named("echoed"));
        }
    }
    let echoed = ruleset_with_mods(pf2e(), &ModList::new().with(Echo)).expect("one mod, said twice");
    assert_eq!(echoed.conditions.iter().filter(|c| c.id == "echoed").count(), 1);
    // One mod applied again to its own result (undo, a save's embedded ruleset) changes nothing.
    let once = ruleset_with_mods(pf2e(), &ModList::new().with(Twin("twin-a"))).expect("one mod");
    let twice = ruleset_with_mods(once.clone(), &ModList::new().with(Twin("twin-a"))).expect("again");
    assert_eq!(ron::to_string(&once).unwrap(), ron::to_string(&twice).unwrap());
    // A data ability whose duration never runs out is a load error.
    let text = std::fs::read_to_string(root().join("assets/rulesets/homebrew-d20.ron")).unwrap().replacen(
        "effect: SelfCondition(condition: \"defensive_position\")",
        "effect: SelfCondition(condition: \"defensive_position\", duration: Some(OwnerTurns(1)))",
        1,
    );
    let e = Ruleset::from_ron_str("hb.ron", &text).unwrap_err();
    assert!(e.message.contains("duration OwnerTurns(1) would never run out"), "{e}");
}

// ----- the mod crate of docs/modding.md (examples/mod-crate) -----

/// The template's mod, compiled here from its own file (CI builds the crate and its program too).
// In this crate Bevy's derives find `bevy` (skirmish's own dependency): its two `use ... as bevy_*` go unused.
#[allow(unused_imports)]
#[path = "../../examples/mod-crate/src/lib.rs"]
mod rally_template;

#[test]
fn the_docs_mod_crate_is_the_template_word_for_word() {
    // docs/modding.md's Part 1b shows the template's Cargo.toml, main.rs and lib.rs: its blocks
    // are those files exactly, so the doc's code is the code CI builds and this binary compiles.
    let doc = std::fs::read_to_string(root().join("docs/modding.md")).unwrap();
    let part = doc.split("## Part 1b").nth(1).expect("Part 1b").split("\n## ").next().unwrap();
    let block = |fence: &str, n: usize| -> String {
        let after = part.split(fence).nth(n + 1).unwrap_or_else(|| panic!("block {n} of {fence}"));
        after.split("\n```").next().unwrap().to_string() + "\n"
    };
    let file = |p: &str| std::fs::read_to_string(root().join("examples/mod-crate").join(p)).unwrap();
    assert_eq!(block("```toml\n", 0), file("Cargo.toml"));
    assert_eq!(block("```rust\n", 0), file("src/main.rs"));
    assert_eq!(block("```rust\n", 1), file("src/lib.rs"));
}

#[test]
fn with_rally_the_rallied_creatures_attack_sentence_shows_the_bonus() {
    let specs = vec![
        pc("Captain", "heroes", 20, (0, 0)).stat("STR", 1).stat("rally", 1),
        pc("Soldier", "heroes", 15, (1, 0)).stat("STR", 3),
        pc("Orc", "monsters", 10, (2, 0)).stat("STR", 2),
    ];
    let mods = ModList::new().with(rally_template::RallyMod);
    let c = Combat::with_mods(pf2e(), 3, &specs, skirmish::rules::map::BattleMap::open(), &[], &mods).unwrap();
    let mut f = Fight(c);
    assert!(f.has("Soldier", "rallied"), "{:?}", f.text());
    assert!(!f.has("Orc", "rallied") && !f.has("Captain", "rallied"), "only allies, not the rallier");
    f.end("Captain");
    f.force(&[11, 4]);
    f.act("Soldier", "strike", &["Orc"]).unwrap();
    let mut view = skirmish::hud_model::log::LogView::default();
    view.update(&f.0);
    let attack = view.entries().iter().rev().find(|e| e.kind == "AttackRolled").expect("an attack entry");
    assert!(attack.text.contains("+ STR 3 + rallied 1 = 15"), "{}", attack.text);
    f.end("Soldier");
    assert!(!f.has("Soldier", "rallied"), "it lasts until the end of the Soldier's turn");
}

#[test]
fn a_conflict_points_at_the_definition_not_an_earlier_mention() {
    // frost-variant's ruleset names `chilled` in frost_ray (line 7) before it defines it (line
    // 10): the conflict names the definition.
    let p = frost_and_ice("r2-chilled", "");
    write(&p.join("mods/ice-b/abilities/ice.ron"), "[]\n");
    write(&p.join("mods/ice-b/conditions/c.ron"), "[\n    (id: \"chilled\", negative: true),\n]\n");
    let e = DataMods::load(&[p.join("mods/frost-variant"), p.join("mods/ice-b")]).unwrap_err();
    let frost = p.join("mods/frost-variant/rulesets/pf2e-frost.ron");
    assert!(e.message.contains(&format!("at {}:10:14 (mod `frost-variant`)", frost.display())), "{e}");
    assert_eq!((e.line, e.col), (2, 10), "{e}");
    // One mod defining an id in its `abilities/` and again in its own ruleset: defined twice.
    let p = frost_and_ice("r2-twice", "");
    write(&p.join("mods/frost-variant/abilities/ray.ron"), ICE_RAY);
    let e = DataMods::load(&[p.join("mods/frost-variant")]).unwrap_err();
    assert!(e.message.contains("ability `frost_ray` is defined twice in mod `frost-variant`"), "{e}");
}

#[test]
fn a_misspelt_field_variant_or_id_gets_a_did_you_mean() {
    let rs = std::fs::read_to_string(root().join("assets/rulesets/pf2e.ron")).unwrap();
    // A field: `decrement_at_end_of_trun`.
    let text = rs.replacen("decrement_at_end_of_turn: 1", "decrement_at_end_of_trun: 1", 1);
    let e = Ruleset::from_ron_str("pf2e.ron", &text).unwrap_err();
    assert!(e.message.ends_with("(did you mean `decrement_at_end_of_turn`?)"), "{e}");
    // A variant: `Statsu`.
    let text = rs.replacen("kind: Status", "kind: Statsu", 1);
    let e = Ruleset::from_ron_str("pf2e.ron", &text).unwrap_err();
    assert!(e.message.ends_with("(did you mean `Status`?)"), "{e}");
    // An id: a condition named by an ability.
    let text = rs.replacen("condition: \"frightened\", value: Some(2)", "condition: \"frightend\", value: Some(2)", 1);
    let e = Ruleset::from_ron_str("pf2e.ron", &text).unwrap_err();
    assert!(e.message.ends_with("unknown condition `frightend` (did you mean `frightened`?)"), "{e}");
    // Nothing near: no guess.
    let text = rs.replacen("condition: \"frightened\", value: Some(2)", "condition: \"zzz\", value: Some(2)", 1);
    let e = Ruleset::from_ron_str("pf2e.ron", &text).unwrap_err();
    assert!(!e.message.contains("did you mean"), "{e}");
    assert_eq!(skirmish::rules::data::did_you_mean("strke", ["strike", "stride", "step"]), Some("strike"));
    assert_eq!(skirmish::rules::data::did_you_mean("ab", ["cd"]), None);
}

#[test]
fn an_unknown_ruleset_hints_at_the_mod_only_when_no_mod_was_given() {
    let enc = "mods/frost-variant/encounters/frost-3v3.ron";
    let without = cli(&["sim", enc, "--ruleset", "pf2e-frost", "--runs", "1"]);
    assert!(!without.status.success());
    assert!(stderr(&without).contains("A data mod's ruleset needs its mod: add `--mod MOD`"), "{}", stderr(&without));
    let misspelt = cli(&["sim", enc, "--mod", "frost-variant", "--ruleset", "pf2e-frots", "--runs", "1"]);
    assert!(!misspelt.status.success());
    let e = stderr(&misspelt);
    assert!(e.contains("; from the mods: pf2e-frost; or `all`)"), "{e}");
    assert!(e.contains("None of the mods given (`frost-variant`) defines it"), "{e}");
    assert!(!e.contains("add `--mod MOD`"), "{e}");
    // The game's command says the same before it opens a window. (A build without the `game`
    // feature, such as the mutation runs', has no window: its `play` runs the shipped scenarios.)
    if cfg!(feature = "game") {
        let play = cli(&["play", "--mod", "frost-variant", "--ruleset", "pf2e-frots"]);
        assert!(!play.status.success());
        let e = stderr(&play);
        assert!(e.contains("; from the mods: pf2e-frost). None of the mods given (`frost-variant`) defines it"), "{e}");
    }
}
