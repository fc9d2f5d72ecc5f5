//! Encounters as data: every shipped encounter loads and plays to the end under every ruleset,
//! bad encounter data names file, line, column and field, and a scenario may name an encounter.

use std::path::{Path, PathBuf};
use std::process::Command;

use skirmish::ai::{self, AiScope};
use skirmish::encounter::{self, Encounter};
use skirmish::rules::components::{Controller, GridPos};
use skirmish::rules::data::DataError;
use skirmish::rules::ruleset::{AttackKind, Effect};
use skirmish::rules::state::EngineStatus;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/encounters")
}

/// Every shipped encounter file, sorted.
fn files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("assets/encounters exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

fn skirmish_text() -> String {
    std::fs::read_to_string(dir().join("skirmish-4v4.ron")).unwrap()
}

fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect(needle)].matches('\n').count() + 1
}

/// Check encounter text as `skirmish check` would, as if it were a file next to the shipped ones.
fn check(text: &str) -> Result<String, DataError> {
    encounter::check_text(&dir().join("bad.ron"), text)
}

#[test]
fn the_shipped_encounters_are_there_and_check_under_every_ruleset() {
    let names: Vec<String> = files().iter().map(|p| p.file_name().unwrap().to_string_lossy().into()).collect();
    for want in ["skirmish-4v4.ron", "bench-4v4.ron", "ambush-3v3.ron"] {
        assert!(names.iter().any(|n| n == want), "{want} ships");
    }
    let rulesets = skirmish::rules::data::installed_rulesets(&dir().join("x.ron")).unwrap();
    let rs_names: Vec<&str> = rulesets.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(rs_names, ["homebrew-d20", "pf1e", "pf2e", "segments"]);
    for f in files() {
        let msg = encounter::check_file(&f).unwrap_or_else(|e| panic!("{e}"));
        assert!(msg.contains("checked under homebrew-d20, pf1e, pf2e, segments"), "{msg}");
        // `skirmish check` tells encounters apart by content.
        assert_eq!(skirmish::scenario::check_file(&f).unwrap(), msg);
    }
}

#[test]
fn the_default_encounter_is_four_against_four_on_a_map_with_walls_and_mud() {
    let e = Encounter::load(&dir().join("skirmish-4v4.ron")).unwrap();
    let map = e.battle_map();
    assert_eq!((map.width, map.height), (16, 12));
    assert!(!map.blocked.is_empty() && !map.difficult.is_empty());
    assert_eq!(e.combatants.len(), 8);
    for side in ["heroes", "monsters"] {
        assert_eq!(e.combatants.iter().filter(|c| c.side == side).count(), 4);
    }
    assert_eq!(e.side("heroes").unwrap().controller, encounter::SideController::Human);
    assert_eq!(e.side("monsters").unwrap().controller, encounter::SideController::Ai);
    for rs in skirmish::rules::data::installed_rulesets(&dir().join("x.ron")).unwrap() {
        let specs = e.specs_for(&rs);
        let knight = &specs[0];
        assert_eq!(knight.controller, Controller::Player);
        assert_eq!(specs[4].controller, Controller::Ai);
        assert!(knight.loadouts.is_empty() && knight.movement_for.is_empty());
        // Melee, ranged and caster roles under every ruleset.
        let has = |i: usize, role: &dyn Fn(&skirmish::rules::ruleset::AbilityDef) -> bool| {
            specs[i].abilities.iter().chain(&rs.basic_abilities).filter_map(|a| rs.ability(a)).any(role)
        };
        let melee = |d: &skirmish::rules::ruleset::AbilityDef| {
            matches!(d.effect, Effect::Attack { kind: AttackKind::Melee, .. })
        };
        let ranged = |d: &skirmish::rules::ruleset::AbilityDef| {
            matches!(d.effect, Effect::Attack { kind: AttackKind::Ranged, .. })
        };
        let caster = |d: &skirmish::rules::ruleset::AbilityDef| {
            d.tags.iter().any(|t| t == "spell") || matches!(d.effect, Effect::Attack { kind: AttackKind::Area, .. })
        };
        for i in [0, 3, 4, 7] {
            assert!(has(i, &melee), "{}: {} fights in melee", rs.name, specs[i].name);
        }
        for i in [1, 5] {
            assert!(has(i, &ranged), "{}: {} shoots", rs.name, specs[i].name);
        }
        for i in [2, 6] {
            assert!(has(i, &caster), "{}: {} casts", rs.name, specs[i].name);
        }
        match rs.name.as_str() {
            "pf2e" => assert_eq!(knight.abilities, ["reactive_strike"]),
            "homebrew-d20" => assert_eq!(knight.abilities, ["sword"]),
            "segments" => {
                assert_eq!(knight.abilities, ["longsword"]);
                assert_eq!(knight.movement.get("sprint"), Some(&6));
            }
            _ => {}
        }
        let c = e.start(rs.clone(), 1).unwrap();
        assert_eq!(c.map(), &map);
        assert_eq!(c.ruleset().round_cap, 50);
        assert_eq!(c.controller(c.cid("Orc").unwrap()), Controller::Ai);
        assert_eq!(c.get::<GridPos>(c.cid("Knight").unwrap()), Some(&GridPos { x: 1, y: 4 }));
    }
}

#[test]
fn every_shipped_encounter_plays_to_the_end_with_the_ai_under_every_ruleset() {
    let rulesets = skirmish::rules::data::installed_rulesets(&dir().join("x.ron")).unwrap();
    let mut report = Vec::new();
    for f in files() {
        let e = Encounter::load(&f).unwrap();
        let mut winners = 0;
        for rs in &rulesets {
            for seed in 0..3 {
                let mut c = e.start(rs.clone(), seed).unwrap_or_else(|err| panic!("{}: {err}", f.display()));
                let cap = c.ruleset().round_cap;
                ai::play(&mut c, AiScope { gm: true, all_creatures: true }, 50_000);
                assert_eq!(
                    c.status(),
                    EngineStatus::Ended,
                    "{} under {} seed {seed} did not end",
                    f.display(),
                    rs.name
                );
                assert!(c.turn().round <= cap + 1, "{} under {}: round {}", f.display(), rs.name, c.turn().round);
                winners += usize::from(c.turn().winner.is_some());
                report.push(format!(
                    "{} {} seed {seed}: {:?} in round {}",
                    e.name,
                    rs.name,
                    c.turn().winner,
                    c.turn().round
                ));
            }
        }
        assert!(winners > 0, "{}: every fight was a draw:\n{}", f.display(), report.join("\n"));
    }
    println!("{}", report.join("\n"));
}

#[test]
fn ambush_gives_the_bandits_a_surprise_round_in_pf1e() {
    let e = Encounter::load(&dir().join("ambush-3v3.ron")).unwrap();
    let rs = skirmish::rules::data::installed_rulesets(&dir().join("x.ron"))
        .unwrap()
        .into_iter()
        .find(|r| r.name == "pf1e")
        .unwrap();
    let mut c = e.start(rs, 4).unwrap();
    assert!(c.turn().surprise_round || c.turn().round == 0, "round {}", c.turn().round);
    // Who is aware: the three bandits, the travellers none.
    let aware: Vec<String> = c
        .log()
        .events
        .iter()
        .find_map(|ev| match ev {
            skirmish::rules::log::CombatEvent::SurpriseRound { aware } => Some(aware.clone()),
            _ => None,
        })
        .expect("a surprise round")
        .into_iter()
        .map(|w| c.log().names[w.0 as usize].clone())
        .collect();
    let mut sorted = aware.clone();
    sorted.sort();
    assert_eq!(sorted, ["Bandit", "Crossbowman", "Cutthroat"], "{aware:?}");
    // Only they act in it: every turn of round 0 is a bandit's.
    let mut turns = Vec::new();
    while c.turn().round == 0 {
        let Some(a) = c.turn().active else { break };
        turns.push(c.log().names[a.0 as usize].clone());
        c.submit(skirmish::rules::command::Command::EndTurn { actor: a }).unwrap();
    }
    assert_eq!(turns, aware, "the surprise round's turns, in initiative order");
}

// ------------------------------------------------------------------ bad data

#[test]
fn an_unknown_field_names_file_line_and_column() {
    let text = skirmish_text().replace("    max_rounds: 50,", "    max_rounds: 50,\n    weather: \"rain\",");
    let e = check(&text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "weather"));
    assert!(e.file.ends_with("bad.ron"), "{e}");
    assert!(e.message.contains("weather"), "{e}");
}

#[test]
fn a_bad_map_square_points_at_its_row() {
    let text = skirmish_text().replace("\"..~~......##....\",", "\"..~~......##..x.\",");
    let e = check(&text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "..x."), "{e}");
    assert!(e.message.starts_with("map[3]: row 3, column 14: `x`"), "{e}");
    let text = skirmish_text().replace("\"..~~......##....\",", "\"..~~......##...\",");
    let e = check(&text).unwrap_err();
    assert!(e.message.starts_with("map[3]: row 3 has 15 squares"), "{e}");
    assert_eq!(e.line, line_of(&text, "\"..~~......##...\""), "{e}");
}

#[test]
fn a_combatant_on_a_wall_or_off_the_map_points_at_its_square() {
    let text = skirmish_text().replace("hp: 24, at: (1, 4)", "hp: 24, at: (4, 7)");
    let e = check(&text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "at: (4, 7)"));
    assert!(e.message.starts_with("combatants[0].at: square (4, 7) is blocked"), "{e}");
    let text = skirmish_text().replace("at: (14, 7)", "at: (16, 7)");
    let e = check(&text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "at: (16, 7)"));
    assert!(e.message.starts_with("combatants[7].at: square (16, 7) is off the 16×12 map"), "{e}");
}

#[test]
fn an_unknown_side_or_loadout_ability_points_at_it() {
    let text = skirmish_text().replace("\"늑대\"}, side: \"monsters\"", "\"늑대\"}, side: \"monstres\"");
    let e = check(&text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "\"monstres\""));
    assert!(e.message.starts_with("combatants[7].side: `monstres` is not one of the sides"), "{e}");
    let text = skirmish_text().replace("{\"pf2e\": [\"force_bolt\"]", "{\"pf2e\": [\"force_blot\"]");
    let e = check(&text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "force_blot"));
    let col = text.lines().nth(e.line - 1).unwrap().find("\"force_blot\"").unwrap() + 1;
    assert_eq!(e.col, col);
    assert!(
        e.message.starts_with("combatants[2].loadouts.pf2e: unknown ability `force_blot` in ruleset `pf2e`"),
        "{e}"
    );
    // The homebrew list is `abilities`.
    let text =
        skirmish_text().replace("abilities: [\"heavy_blow\", \"sword\"]", "abilities: [\"heavy_blw\", \"sword\"]");
    let e = check(&text).unwrap_err();
    assert!(
        e.message.starts_with("combatants[4].abilities: unknown ability `heavy_blw` in ruleset `homebrew-d20`"),
        "{e}"
    );
}

#[test]
fn out_of_range_numbers_missing_speeds_and_one_sided_encounters_are_refused() {
    let text = skirmish_text().replace("max_rounds: 50", "max_rounds: 0");
    let e = check(&text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "max_rounds: 0"));
    assert!(e.message.contains("max_rounds") && e.message.contains("out of range"), "{e}");
    let text = skirmish_text().replace(
        ",\n            movement_for: {\"segments\": {\"shift\": 1, \"skirmish\": 3, \"sprint\": 6}}),\n        (name: \"Orc\"",
        "),\n        (name: \"Orc\"",
    );
    assert_ne!(text, skirmish_text());
    let e = check(&text).unwrap_err();
    assert!(e.message.starts_with("combatants[3].movement: no `shift` speed for `shift` in ruleset `segments`"), "{e}");
    assert_eq!(e.line, line_of(&text, "\"Squire\""));
    let text = skirmish_text()
        .replace("\"sprint\": 6}}),\n        (name: \"Orc\"", "\"sprint\": 600}}),\n        (name: \"Orc\"");
    assert_ne!(text, skirmish_text());
    let e = check(&text).unwrap_err();
    assert!(e.message.contains("movement_for") && e.message.contains("600 is out of range"), "{e}");
    let text = skirmish_text().replace(
        "        (name: \"monsters\", names: {\"es\": \"Monstruos\", \"ko\": \"몬스터들\"}, controller: Ai),\n",
        "",
    );
    let e = check(&text).unwrap_err();
    assert!(e.message.starts_with("sides: an encounter needs at least two sides"), "{e}");
}

#[test]
fn skirmish_check_validates_an_encounter_file() {
    let dir = crate::common::tmp_root().join(format!("skirmish-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad-encounter.ron");
    let text = skirmish_text().replace("hp: 24, at: (1, 4)", "hp: 24, at: (4, 7)");
    std::fs::write(&bad, &text).unwrap();
    let good = self::dir().join("skirmish-4v4.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish")).arg("check").arg(&good).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with(&format!("{}:{}:", bad.display(), line_of(&text, "at: (4, 7)"))), "{err}");
    assert!(err.contains("combatants[0].at"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok (encounter `Skirmish, four against four`"));
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------ scenarios naming an encounter

fn scenario_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")
}

#[test]
fn a_scenario_may_name_an_encounter_for_its_combatants_and_map() {
    let text = r#"Scenario(
        name: "the default encounter under pf1e",
        ruleset: "pf1e",
        encounter: "skirmish-4v4",
        seed: 3,
        steps: [
            Expect(Position("Knight", (1, 4))),
            AiPlay(50000),
        ],
    )"#;
    let ls = skirmish::scenario::load_str(&scenario_dir().join("enc.ron"), text).unwrap();
    let e = Encounter::load(&dir().join("skirmish-4v4.ron")).unwrap();
    assert_eq!(ls.scenario.combatants, e.specs_for(&ls.ruleset));
    assert_eq!(ls.map, e.battle_map());
    assert_eq!(ls.ruleset.round_cap, 50, "the encounter's max_rounds");
    let report = skirmish::scenario::run(&ls, None);
    assert!(report.passed(), "{:?}", report.checks);
    // The AI played the fight to its end on the map.
    assert!(
        report.log_text.iter().any(|l| l.starts_with("CombatEnded") || l.starts_with("CombatDrawn")),
        "{:?}",
        report.log_text.last()
    );
    // The scenario's own max_rounds wins over the encounter's.
    let capped = text.replace("seed: 3,", "seed: 3, max_rounds: 7,");
    assert_eq!(skirmish::scenario::load_str(&scenario_dir().join("enc.ron"), &capped).unwrap().ruleset.round_cap, 7);
}

#[test]
fn a_scenario_naming_an_encounter_badly_is_refused_with_a_position() {
    let base = r#"Scenario(
        name: "x",
        ruleset: "homebrew-d20",
        encounter: "NAME",
        steps: [Expect(Round(1))],
    )"#;
    let load = |t: &str| skirmish::scenario::load_str(&scenario_dir().join("enc.ron"), t).unwrap_err();
    let e = load(&base.replace("NAME", "no-such-encounter"));
    assert_eq!(e.line, 4);
    assert!(e.message.contains("encounter: `no-such-encounter` is not an installed encounter"), "{e}");
    let e = load(&base.replace("NAME", "../../assets/encounters/skirmish-4v4.ron"));
    assert!(e.message.contains("without `..`"), "{e}");
    let both = base
        .replace("NAME", "skirmish-4v4")
        .replace("steps:", "combatants: [(name: \"A\", side: \"a\")],\n        steps:");
    let e = load(&both);
    assert!(e.message.contains("either `combatants` or `encounter`"), "{e}");
    let e = load(&base.replace("        encounter: \"NAME\",\n", ""));
    assert!(e.message.contains("a scenario needs `combatants` or an `encounter`"), "{e}");
}

#[test]
fn a_scenario_may_give_its_own_map() {
    let text = r#"Scenario(
        name: "a wall in the way",
        ruleset: "homebrew-d20",
        map: [
            "....",
            ".#..",
            "....",
        ],
        combatants: [
            (name: "A", side: "h", initiative: Total(20), at: (0, 0)),
            (name: "B", side: "m", initiative: Total(10), at: (3, 2)),
        ],
        steps: [
            Act(actor: "A", ability: "move", to: (1, 1)),
            Expect(Rejected("InvalidTarget")),
            Act(actor: "A", ability: "move", to: (2, 1)),
            Expect(Position("A", (2, 1))),
        ],
    )"#;
    let ls = skirmish::scenario::load_str(&scenario_dir().join("map.ron"), text).unwrap();
    assert_eq!((ls.map.width, ls.map.height), (4, 3));
    let report = skirmish::scenario::run(&ls, None);
    assert!(report.passed(), "{:?}", report.checks);
    let on_wall = text.replace("at: (3, 2)", "at: (1, 1)");
    let e = skirmish::scenario::load_str(&scenario_dir().join("map.ron"), &on_wall).unwrap_err();
    assert!(e.message.contains("combatants: combatant `B`: square (1, 1) is blocked"), "{e}");
    let bad_row = text.replace("\".#..\"", "\".#.\"");
    let e = skirmish::scenario::load_str(&scenario_dir().join("map.ron"), &bad_row).unwrap_err();
    assert!(e.message.starts_with("map[1]: row 1 has 3 squares"), "{e}");
    assert_eq!(e.line, line_of(&bad_row, "\".#.\""));
}

#[test]
fn the_example_in_the_docs_checks_and_plays_under_every_ruleset() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/encounters.md")).unwrap();
    let start = doc.find("```ron\nEncounter(").expect("an example encounter") + "```ron\n".len();
    let example = &doc[start..start + doc[start..].find("```").unwrap()];
    check(example).unwrap_or_else(|e| panic!("{e}"));
    let e = Encounter::from_ron_str("example.ron", example).unwrap();
    for rs in skirmish::rules::data::installed_rulesets(&dir().join("x.ron")).unwrap() {
        let mut c = e.start(rs.clone(), 2).unwrap();
        ai::play(&mut c, AiScope { gm: true, all_creatures: true }, 50_000);
        assert_eq!(c.status(), EngineStatus::Ended, "{}", rs.name);
    }
}
