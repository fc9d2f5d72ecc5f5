//! Bad data gets one line naming the file, line, column and field; nothing panics.

use std::path::Path;
use std::process::Command;

use skirmish::rules::ruleset::Ruleset;

fn shipped() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron")).unwrap()
}

fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect(needle)].matches('\n').count() + 1
}

#[test]
fn a_ruleset_syntax_error_names_file_line_and_column() {
    let text = shipped().replace("budget: PerRoundPool(actions: 3),", "budget: PerRoundPool(actions: 3)");
    let e = Ruleset::from_ron_str("bad.ron", &text).unwrap_err();
    let line = line_of(&text, "multi_turn:");
    let s = e.to_string();
    assert!(s.starts_with(&format!("bad.ron:{line}:")), "{s}");
    assert_eq!(s.lines().count(), 1);
}

#[test]
fn a_misspelt_ruleset_field_is_named() {
    let text = shipped().replace("round_length: PerParticipant(10),", "round_lenght: PerParticipant(10),");
    assert!(text.contains("round_lenght"));
    let e = Ruleset::from_ron_str("bad.ron", &text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "round_lenght"));
    assert!(e.message.contains("round_lenght"), "{e}");
}

#[test]
fn an_unknown_strategy_is_named() {
    let text = shipped().replace("turn_model: FixedCycle,", "turn_model: Initiativeless,");
    let e = Ruleset::from_ron_str("bad.ron", &text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "Initiativeless"));
    assert!(e.message.contains("Initiativeless"), "{e}");
}

#[test]
fn a_bad_dice_expression_points_at_it() {
    let text = shipped().replace("damage: \"1d8+STR\"", "damage: \"1d8+\"");
    let e = Ruleset::from_ron_str("bad.ron", &text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "\"1d8+\""));
    assert!(e.message.contains("1d8+"), "{e}");
}

#[test]
fn an_unknown_condition_reference_points_at_it() {
    let text = shipped().replace("on_fail: [\"stunned\"]", "on_fail: [\"stunnned\"]");
    let e = Ruleset::from_ron_str("bad.ron", &text).unwrap_err();
    assert_eq!(e.line, line_of(&text, "stunnned"));
    assert!(e.message.contains("hold_person") && e.message.contains("stunnned"), "{e}");
}

fn scenario_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")
}

#[test]
fn a_scenario_naming_an_unknown_combatant_points_at_it() {
    let text = std::fs::read_to_string(scenario_dir().join("ex-hb-3-defensive-roll-tie.ron")).unwrap();
    let bad = text.replace(
        "Defend(\"Defender\", Dodge),\n        Expect(StepEvents",
        "Defend(\"Defendr\", Dodge),\n        Expect(StepEvents",
    );
    assert_ne!(bad, text);
    let e = skirmish::scenario::load_str(&scenario_dir().join("bad.ron"), &bad).unwrap_err();
    assert_eq!(
        (e.line, e.col),
        (
            line_of(&bad, "\"Defendr\""),
            bad.lines().nth(line_of(&bad, "\"Defendr\"") - 1).unwrap().find("\"Defendr\"").unwrap() + 1
        )
    );
    assert!(e.message.contains("unknown combatant `Defendr`"), "{e}");
}

#[test]
fn a_scenario_giving_a_combatant_an_unknown_ability_points_at_it() {
    let text = std::fs::read_to_string(scenario_dir().join("ex-hb-3-defensive-roll-tie.ron")).unwrap();
    let bad = text.replacen("abilities: [\"sword\"]", "abilities: [\"swrod\"]", 1);
    let e = skirmish::scenario::load_str(&scenario_dir().join("bad.ron"), &bad).unwrap_err();
    assert_eq!(e.line, line_of(&bad, "swrod"));
    assert!(e.message.contains("swrod") && e.message.contains("Attacker"), "{e}");
}

#[test]
fn a_scenario_type_error_names_line_and_column() {
    let text = std::fs::read_to_string(scenario_dir().join("ex-hb-3-defensive-roll-tie.ron")).unwrap();
    let bad = text.replacen("seed: 3,", "seed: \"three\",", 1);
    let e = skirmish::scenario::load_str(&scenario_dir().join("bad.ron"), &bad).unwrap_err();
    assert_eq!(e.line, line_of(&bad, "\"three\""));
}

#[test]
fn skirmish_check_prints_one_line_per_bad_file_and_exits_non_zero() {
    let dir = crate::common::tmp_root().join(format!("skirmish-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_rs = dir.join("broken-ruleset.ron");
    let bad = shipped().replace("round_length: PerParticipant(10),", "round_length: PerParticipant(ten),");
    assert!(bad.contains("PerParticipant(ten)"));
    std::fs::write(&bad_rs, bad).unwrap();
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish")).arg("check").arg(&good).arg(&bad_rs).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = line_of(&std::fs::read_to_string(&bad_rs).unwrap(), "PerParticipant(ten)");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("{}:{line}:", bad_rs.display())), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok (ruleset `homebrew-d20`"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn skirmish_scenario_exits_non_zero_when_an_expectation_fails() {
    let dir = crate::common::tmp_root().join(format!("skirmish-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(scenario_dir().join("ex-hb-8-round-duration.ron")).unwrap();
    let f = dir.join("wrong.ron");
    // The ruleset is named, not given as a path: a path must stay inside the scenario's folder.
    std::fs::write(&f, text.replace("RoundSeconds(40)", "RoundSeconds(41)")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish")).arg("scenario").arg(&f).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("FAIL step 1: RoundSeconds(41)"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------ Issue 50: attack math in data

/// pf2e.ron with `from` replaced by `to`, and the error it gets: (line, column, message).
fn pf2e_error(from: &str, to: &str) -> (String, skirmish::rules::data::DataError) {
    let text = crate::common::shipped_text_with("pf2e.ron", from, to);
    let e = Ruleset::from_ron_str("pf2e.ron", &text).expect_err("refused");
    (text, e)
}

#[test]
fn attack_math_values_out_of_range_name_their_field_and_place() {
    // A multiplier of 1, a margin of 0, a penalty of +5: each at its own line, with the range.
    let (text, e) =
        pf2e_error("critical: OnCriticalSuccess(multiplier: 2)", "critical: OnCriticalSuccess(multiplier: 1)");
    assert_eq!(e.line, line_of(&text, "OnCriticalSuccess(multiplier: 1)"), "{e}");
    assert!(e.message.contains("1 is out of range 2..=10"), "{e}");
    let (text, e) = pf2e_error(
        "degrees: Some((margin: 10, natural_steps: true)),\n        critical",
        "degrees: Some((margin: 0, natural_steps: true)),\n        critical",
    );
    assert_eq!(e.line, line_of(&text, "margin: 0"), "{e}");
    assert!(e.message.contains("0 is out of range 1..=100"), "{e}");
    let (text, e) = pf2e_error("penalties: [-5, -10]", "penalties: [-5, 5]");
    assert_eq!(e.line, line_of(&text, "penalties: [-5, 5]"), "{e}");
    assert!(e.message.contains("5 is out of range -100..=0"), "{e}");
    assert_eq!(e.to_string().lines().count(), 1);
}

#[test]
fn attack_math_parts_that_need_each_other_are_refused_where_they_stand() {
    // A critical success with no degrees to make one.
    let (text, e) = pf2e_error("degrees: Some((margin: 10, natural_steps: true)),\n        critical", "critical");
    assert!(e.message.contains("OnCriticalSuccess needs attack_math.degrees"), "{e}");
    assert_eq!(e.line, line_of(&text, "OnCriticalSuccess"), "{e}");
    // Agile steps that do not match.
    let (text, e) = pf2e_error("agile: [-4, -8]", "agile: [-4]");
    assert!(e.message.contains("agile: 1 steps, but penalties has 2"), "{e}");
    assert_eq!(e.line, line_of(&text, "agile: [-4]"), "{e}");
    // An unknown off-guard condition, with the nearest name.
    let (_, e) =
        pf2e_error("off_guard_when_flanked: Some(\"off_guard\")", "off_guard_when_flanked: Some(\"off_gard\")");
    assert!(e.message.contains("unknown condition `off_gard` (did you mean `off_guard`?)"), "{e}");
    // A basic save with no degrees for saves.
    let (_, e) = pf2e_error("degrees: Some((margin: 10, natural_steps: true))),", "),");
    assert!(e.message.contains("a basic save needs degrees of success"), "{e}");
    // homebrew-d20's active defence has no AC to be critical against.
    let text = shipped()
        .replace("round_length:", "attack_math: (critical: Confirm(threat: 20, multiplier: 2)),\n    round_length:");
    let e = Ruleset::from_ron_str("hb.ron", &text).expect_err("refused");
    assert!(e.message.contains("need `defense: StaticAc`"), "{e}");
    assert_eq!(e.line, line_of(&text, "attack_math"), "{e}");
    // The penalty alone is fine there.
    let text = shipped().replace(
        "round_length:",
        "attack_math: (multiple_attack_penalty: Some((penalties: [-5], trait_tag: \"weapon\"))),\n    round_length:",
    );
    Ruleset::from_ron_str("hb.ron", &text).expect("the penalty works under an active defence");
}

#[test]
fn rulesets_written_before_the_attack_math_still_load_and_play_the_plain_roll() {
    // Issue 50: tests/fixtures/rulesets-before-issue-50/ holds pf2e.ron and pf1e.ron as shipped
    // at 0a154a5 (git history). They load as they are, with no attack math, and play as the old
    // engine did: a second Strike at full bonus, a natural 20 that misses AC 25 a plain miss.
    use crate::common::*;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rulesets-before-issue-50");
    for name in ["pf2e", "pf1e"] {
        let rs = Ruleset::load(&dir.join(format!("{name}.ron"))).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(rs.attack_math.is_plain() && rs.saves.degrees.is_none(), "{name}");
        assert!(!rs.engagement.flanker_only, "{name}");
    }
    let rs = Ruleset::load(&dir.join("pf2e.ron")).unwrap();
    let mut f = Fight::with_ruleset(
        rs,
        vec![pc("A", "heroes", 20, (0, 0)).stat("STR", 3), pc("B", "monsters", 10, (1, 0)).stat("AC", 25)],
    );
    let m = f.mark();
    f.force(&[20, 20]);
    f.act("A", "strike", &["B"]).unwrap();
    f.act("A", "strike", &["B"]).unwrap();
    let rolls: Vec<String> = f.since(m).into_iter().filter(|e| e.starts_with("AttackRolled")).collect();
    assert!(rolls.iter().all(|r| r.contains("roll: 20, bonus: 3, total: 23")), "{rolls:?}");
    assert_eq!(f.since(m).iter().filter(|e| e.starts_with("AttackMissed")).count(), 2, "{:?}", f.since(m));
    assert!(!f.since(m).iter().any(|e| e.starts_with("MultipleAttackPenalty") || e.starts_with("CriticalHit")));
}
