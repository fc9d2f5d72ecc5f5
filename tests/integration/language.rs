//! The scenario language itself: rejection messages, per-step absence and counts, exact field
//! matching, and how the runner prints a step (issue 13).

use std::path::Path;

use skirmish::scenario::{self, Report};

/// Load and run a scenario given as text (resolved as if it sat in `tests/scenarios/`).
pub fn run_text(text: &str) -> Report {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let ls = scenario::load_str(&dir.join("inline.ron"), text).unwrap_or_else(|e| panic!("{e}"));
    scenario::run(&ls, None)
}

/// The failures of a run, as `step: what — why` lines.
pub fn failures(r: &Report) -> Vec<String> {
    r.checks.iter().filter_map(|c| c.failure.as_ref().map(|f| format!("{}: {} — {f}", c.step, c.what))).collect()
}

const DUEL: &str = r#"Scenario(
    name: "duel",
    ruleset: "homebrew-d20",
    combatants: [
        (name: "Hero", side: "heroes", stats: {"STR": 2}, abilities: ["sword"], initiative: Total(20), at: (0, 0)),
        (name: "Goblin", side: "monsters", stats: {"DEX": 1}, hp: 10, initiative: Total(5), at: (1, 0)),
    ],
    steps: [
        Force([13]),
        Act(actor: "Hero", ability: "sword", targets: ["Goblin"]),
        Force([9, 4]),
        Defend("Goblin", Dodge),
        STEPS
    ],
)"#;

fn duel(steps: &str) -> Report {
    run_text(&DUEL.replace("STEPS", steps))
}

#[test]
fn rejected_checks_the_kind_and_optionally_the_message() {
    let r = duel(
        r#"Defend("Goblin", Dodge), Expect(Rejected("NoDecisionPending")),
        Defend("Goblin", Dodge), Expect(Rejected("NoDecisionPending", "no decision")),"#,
    );
    assert!(r.passed(), "{:?}", failures(&r));
    let r = duel(r#"Defend("Goblin", Dodge), Expect(Rejected("NoDecisionPending", "something else entirely")),"#);
    let f = failures(&r);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("does not contain `something else entirely`"), "{f:?}");
    let r = duel(r#"Defend("Goblin", Dodge), Expect(Rejected("NotYourTurn", "no decision")),"#);
    assert!(failures(&r)[0].contains("rejected as NoDecisionPending"), "{:?}", failures(&r));
}

#[test]
fn step_no_event_looks_only_at_the_last_step() {
    // The attack hit in an earlier step: the whole log has an AttackHit, this step has none.
    let r = duel(
        r#"EndTurn("Hero"),
        Expect(StepNoEvent((kind: "AttackHit"))),
        Expect(Events([(kind: "AttackHit")])),"#,
    );
    assert!(r.passed(), "{:?}", failures(&r));
    let r = duel(r#"Expect(StepNoEvent((kind: "AttackHit"))),"#);
    let f = failures(&r);
    assert!(f.len() == 1 && f[0].contains("found in this step: AttackHit"), "{f:?}");
}

#[test]
fn count_and_step_count_are_exact() {
    let r = duel(
        r#"Expect(Count((kind: "InitiativeRolled"), 2)),
        Expect(Count((kind: "InitiativeRolled", who: "Hero"), 1)),
        Expect(StepCount((kind: "AttackHit"), 1)),
        Expect(StepCount((kind: "AttackRolled"), 0)),
        Expect(Count((kind: "AttackRolled"), 1)),"#,
    );
    assert!(r.passed(), "{:?}", failures(&r));
    // Exact both ways: more, and fewer, than happened fail.
    for (expect, says) in [
        (r#"Expect(Count((kind: "InitiativeRolled"), 3)),"#, "matches 2 events of the log, expected 3"),
        (r#"Expect(Count((kind: "InitiativeRolled"), 1)),"#, "matches 2 events of the log, expected 1"),
        (r#"Expect(StepCount((kind: "AttackHit"), 0)),"#, "matches 1 events of this step, expected 0"),
        (r#"Expect(StepCount((kind: "AttackHit"), 2)),"#, "matches 1 events of this step, expected 2"),
    ] {
        let f = failures(&duel(expect));
        assert!(f.len() == 1 && f[0].contains(says), "{expect}: {f:?}");
    }
}

#[test]
fn fields_match_exact_values_where_has_matches_substrings() {
    // Damage 6 = 1d6 (4) + STR 2. `has: "amount: 6"` would also match `amount: 60`;
    // `fields` does not.
    let r = duel(
        r#"Expect(Events([(kind: "Damaged", who: "Goblin", fields: {"amount": 6, "hp": 4})])),
        Expect(NoEvent((kind: "Damaged", fields: {"amount": 60}))),
        Expect(Events([(kind: "AttackRolled", fields: {"ability": "sword", "kind": "Melee", "target": "Goblin"})])),
        Expect(Events([(kind: "DefenseRolled", fields: {"method": "Dodge"}, has: "rolls")])),
        Expect(Events([(kind: "TurnStarted", fields: {"who": "Hero", "time": 1})])),
        Expect(NoEvent((kind: "TurnStarted", fields: {"time": 10}))),
        Expect(Count((kind: "InitiativeRolled", fields: {"total": 2}), 0)),"#,
    );
    assert!(r.passed(), "{:?}", failures(&r));
    // `has: "total: 2"` is a substring of `total: 20`; the exact field is not.
    let r = duel(r#"Expect(Count((kind: "InitiativeRolled", has: "total: 2"), 1)),"#);
    assert!(r.passed(), "{:?}", failures(&r));
    // A misspelt field name is pointed out.
    let r = duel(r#"Expect(Events([(kind: "Damaged", fields: {"amout": 6})])),"#);
    let f = failures(&r);
    assert!(f.len() == 1 && f[0].contains("Damaged has no field amout (its fields: who, amount, hp"), "{f:?}");
}

#[test]
fn the_runner_prints_steps_as_written() {
    let r = duel(r#"Expect(StepEvents([(kind: "AttackHit", who: "Hero"), (kind: "Damaged", has: "hp: 5")])),"#);
    let f = failures(&r);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains(r#"StepEvents([(kind: "AttackHit", who: "Hero"), (kind: "Damaged", has: "hp: 5")])"#),
        "{f:?}"
    );
    assert!(f[0].contains(r#"no (kind: "Damaged", has: "hp: 5") after"#), "{f:?}");
    assert!(!f[0].contains("EventPattern") && !f[0].contains("Some("), "{f:?}");
    let r = duel(r#"Expect(Hp("Goblin", 4)), Expect(Rejected("InvalidChoice", "x")),"#);
    let whats: Vec<&str> = r.checks.iter().map(|c| c.what.as_str()).collect();
    assert!(whats.contains(&r#"Hp("Goblin", 4)"#), "{whats:?}");
    assert!(whats.contains(&r#"Rejected("InvalidChoice", "x")"#), "{whats:?}");
}

#[test]
fn g_hb_08_advantage_rolls_2d20kh1_and_logs_both_dice() {
    // The Goblin in defensive position defends with `2d20kh1`: 5 and 12, the 12 counts.
    let r = run_text(&DUEL.replace(
        r#"        Force([13]),
        Act(actor: "Hero", ability: "sword", targets: ["Goblin"]),
        Force([9, 4]),
        Defend("Goblin", Dodge),
        STEPS"#,
        r#"        Gm(Condition(who: "Goblin", condition: "defensive_position")),
        Force([13]),
        Act(actor: "Hero", ability: "sword", targets: ["Goblin"]),
        Force([5, 12]),
        Defend("Goblin", Dodge),
        Expect(StepEvents([(kind: "DefenseRolled", fields: {"rolls": "[5, 12]", "total": 13, "dice": "[d20=5 dropped, d20=12]"})])),
        Expect(Events([(kind: "AttackRolled", fields: {"roll": 13, "dice": "[d20=13]"})])),"#,
    ));
    assert!(r.passed(), "{:?}", failures(&r));
    assert!(
        r.log_ron.contains("dice:[(sides:20,value:5,kept:false,negative:false),(sides:20,value:12,kept:true"),
        "{}",
        r.log_ron
    );
}

#[test]
fn damage_dice_of_several_terms_are_logged() {
    // `1d8+1d4+STR-1d4` written in a variant ruleset: every die shows in `Damaged`.
    let rs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron"))
        .unwrap()
        .replace(r#"damage: "1d8+STR")"#, r#"damage: "1d8+1d4+STR-1d4")"#);
    let dir = crate::common::tmp_root().join(format!("skirmish-lang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("variant.ron"), rs).unwrap();
    let text = DUEL.replace(r#""homebrew-d20""#, r#""variant.ron""#).replace("Force([9, 4]),", "Force([9, 5, 3, 2]),");
    let text = text.replace(
        "STEPS",
        r#"Expect(StepEvents([(kind: "Damaged", fields: {"amount": 8, "dice": "[d8=5, d4=3, -d4=2]"})])),"#,
    );
    let ls = scenario::load_str(&dir.join("inline.ron"), &text).unwrap_or_else(|e| panic!("{e}"));
    let r = scenario::run(&ls, None);
    assert!(r.passed(), "{:?}", failures(&r));
}
