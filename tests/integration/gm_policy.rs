//! The AI GM's openings (issue 27): the ruleset's GM policy (`gm_policy`), the AI GM that
//! applies it (`skirmish::ai::gm`), the simulator's opening counts, and a policy where no opening
//! can be.

use std::path::Path;

use skirmish::ai::gm::{opening_command, watch_from_now};
use skirmish::ai::{self, AiScope, Brain};
use skirmish::rules::command::{Command, DefenseMethod::*, GmInput};
use skirmish::rules::gm_policy::{Eligible, GmPolicy, OpeningRule, OpeningTrigger};
use skirmish::rules::journal::Issuer;
use skirmish::rules::log::{CombatEvent, Via};
use skirmish::rules::ruleset::Ruleset;
use skirmish::sim::{self, SimConfig};

use super::common::*;

const ALL: AiScope = AiScope { gm: true, all_creatures: true };

/// Knight and Orc side by side with swords; Knight first.
fn knight_and_orc(rs: Ruleset) -> Fight {
    Fight::with_ruleset(
        rs,
        vec![
            who("Knight", "heroes", 20, (0, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]),
            who("Orc", "monsters", 10, (1, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]),
            who("Squire", "heroes", 5, (2, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]),
        ],
    )
}

fn openings(f: &Fight) -> Vec<(u32, Vec<String>)> {
    f.events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::OpeningCreated { id, eligible } => {
                Some((*id, eligible.iter().map(|c| f.0.name(*c).to_string()).collect()))
            }
            _ => None,
        })
        .collect()
}

/// The AI GM looks at what happened since `watch` and sends its opening, if any.
fn ai_gm(f: &mut Fight) -> Option<Command> {
    let cmd = opening_command(&mut f.0)?;
    f.0.submit_as(cmd.clone(), Issuer::Gm).expect("the engine takes the AI GM's opening");
    Some(cmd)
}

/// The Knight swings and the Orc's dodge blocks it: a missed attack (HB-29's first example).
fn knight_misses_orc(f: &mut Fight) {
    f.force(&[2, 15]);
    f.act("Knight", "sword", &["Orc"]).unwrap();
    f.defend("Orc", Dodge).unwrap();
    assert!(f.saw(0, "AttackBlocked", "attacker: Knight, target: Orc"));
}

#[test]
fn the_default_policy_opens_an_opening_for_the_missed_creature_and_the_ai_takes_it_once() {
    let mut f = knight_and_orc(homebrew());
    watch_from_now(&mut f.0);
    knight_misses_orc(&mut f);
    // G-HB-10: the target of the missed attack is eligible.
    let sent = ai_gm(&mut f).expect("the policy opens an opening on a miss");
    assert_eq!(sent, Command::Gm(GmInput::Opening { eligible: vec![f.id("Orc")] }));
    assert_eq!(openings(&f), vec![(0, vec!["Orc".to_string()])]);
    assert_eq!(f.pending(), Some(("Orc".into(), "Opening".into())));
    // The AI answers through the engine's decision flow: its sword on the Knight (HB-30).
    let answer = ai::next_command(&f.0, ALL).expect("the AI answers the opening");
    f.force(&[3, 15]);
    f.0.submit_as(answer, Issuer::Ai).unwrap();
    let used: Vec<(String, u8, Via)> = f
        .events()
        .iter()
        .filter_map(|e| match e {
            CombatEvent::AbilityUsed { who, ability, cost, via, .. } if *who == f.id("Orc") => {
                Some((ability.clone(), *cost, *via))
            }
            _ => None,
        })
        .collect();
    assert_eq!(used, vec![("sword".to_string(), 1, Via::Opening(0))]);
    f.defend("Knight", Dodge).unwrap();
    // HB-31: paid from the Orc's pool for the round; HB-33: one ability, then the opening closes.
    assert_eq!(f.actions("Orc"), 2);
    assert!(f.saw(0, "OpeningClosed", "id: 0"));
    let asked = f
        .events()
        .iter()
        .filter(|e| matches!(e, CombatEvent::DecisionRequested { about, .. } if about == "Opening"))
        .count();
    assert_eq!(asked, 1, "one offer, one ability");
    assert_eq!(f.active().as_deref(), Some("Knight"), "the Knight's turn goes on");
    // The Orc's opening attack was blocked too, but the Knight is the creature whose turn it is:
    // an opening is acting outside your turn (HB-29), so the GM opens none for it.
    assert!(f.saw(0, "AttackBlocked", "attacker: Orc, target: Knight"));
    assert_eq!(ai_gm(&mut f), None);
}

#[test]
fn no_opening_is_called_for_once_the_combat_is_over() {
    // Issue 26 (the rules sample): `||` → `&&` in `opening_due` let a miss seen before the end
    // call for an opening after the combat was over. The Knight misses the Orc (who would be
    // eligible), then the GM puts both heroes out: the monsters win, and the Orc still stands.
    let mut f = knight_and_orc(homebrew());
    watch_from_now(&mut f.0);
    knight_misses_orc(&mut f);
    assert!(f.0.opening_due(0).is_some(), "the miss calls for one while the combat goes on");
    let out = f.0.ruleset().defeated_condition.clone();
    for hero in ["Knight", "Squire"] {
        let g = GmInput::ApplyCondition { who: f.id(hero), condition: out.clone(), rounds: None, value: None };
        f.0.submit(Command::Gm(g)).unwrap();
    }
    assert_eq!(f.0.turn().winner.as_deref(), Some("monsters"), "{:?}", f.text());
    assert_eq!(f.0.opening_due(0), None);
    assert_eq!(ai_gm(&mut f), None);
}

#[test]
fn the_never_policy_opens_no_opening() {
    let mut rs = homebrew();
    rs.gm_policy = GmPolicy::never();
    let mut f = knight_and_orc(rs.clone());
    watch_from_now(&mut f.0);
    knight_misses_orc(&mut f);
    assert_eq!(ai_gm(&mut f), None);
    assert_eq!(f.0.opening_due(0), None);
    // A whole AI fight under "never" has none; under the default it has some.
    let enc = skirmish::encounter::Encounter::load(&sim_root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let count = |rs: Ruleset| {
        let mut c = enc.start(rs, 7).unwrap();
        ai::play_by(&mut c, ALL, 5_000, |_| Brain::Tactical);
        c.log().events.iter().filter(|e| matches!(e, CombatEvent::OpeningCreated { .. })).count()
    };
    assert_eq!(count(rs), 0);
    assert!(count(homebrew()) > 0, "the default policy opens openings in a 4v4");
}

#[test]
fn a_creature_gets_at_most_per_creature_per_round_openings_then_again_next_round() {
    let mut f = knight_and_orc(homebrew());
    watch_from_now(&mut f.0);
    knight_misses_orc(&mut f);
    ai_gm(&mut f).unwrap();
    f.opening("Orc", None, &[]).unwrap();
    assert!(f.saw(0, "OpeningPassed", "who: Orc"));
    // A second miss against the Orc in round 1: its one opening this round is spent.
    f.force(&[2, 15]);
    f.act("Knight", "sword", &["Orc"]).unwrap();
    f.defend("Orc", Dodge).unwrap();
    assert_eq!(ai_gm(&mut f), None);
    // Two a round: the second miss would have opened one.
    let mut two = homebrew();
    two.gm_policy.per_creature_per_round = 2;
    let mut g = knight_and_orc(two);
    watch_from_now(&mut g.0);
    knight_misses_orc(&mut g);
    ai_gm(&mut g).unwrap();
    g.opening("Orc", None, &[]).unwrap();
    g.force(&[2, 15]);
    g.act("Knight", "sword", &["Orc"]).unwrap();
    g.defend("Orc", Dodge).unwrap();
    assert!(ai_gm(&mut g).is_some());
    // Round 2 (the first fight): the Orc may get one again.
    f.end("Knight");
    f.end("Orc");
    f.end("Squire");
    assert_eq!(f.active().as_deref(), Some("Knight"));
    knight_misses_orc(&mut f);
    assert!(ai_gm(&mut f).is_some(), "a new round, a new opening");
}

#[test]
fn a_trigger_from_a_round_that_has_ended_opens_nothing() {
    let mut f = knight_and_orc(homebrew());
    watch_from_now(&mut f.0);
    knight_misses_orc(&mut f);
    // The GM does not look until round 2 (the engine ended the turns on the way): the opening
    // would be paid from round 2's pool, so it is let go (HB-31).
    f.end("Knight");
    f.end("Orc");
    f.end("Squire");
    assert_eq!(f.active().as_deref(), Some("Knight"));
    assert_eq!(f.0.opening_due(0), None);
    assert_eq!(ai_gm(&mut f), None);
}

#[test]
fn a_debilitating_condition_opens_one_for_the_engaged_enemies_other_than_the_active_creature() {
    let mut f = knight_and_orc(homebrew());
    watch_from_now(&mut f.0);
    // Prone is debilitating; the Orc's engaged enemies are the Knight (whose turn it is) and
    // the Squire.
    f.gm(GmInput::ApplyCondition { who: f.id("Orc"), condition: "prone".into(), rounds: None, value: None }).unwrap();
    let call = f.0.opening_due(0).unwrap();
    assert_eq!(call.reasons(|c| f.0.name(c)), "Orc is prone");
    ai_gm(&mut f).expect("a debilitating condition opens an opening");
    assert_eq!(openings(&f), vec![(0, vec!["Squire".to_string()])]);
    // A condition that is not debilitating opens nothing.
    f.opening("Squire", None, &[]).unwrap();
    f.gm(GmInput::ApplyCondition { who: f.id("Orc"), condition: "poisoned".into(), rounds: None, value: None })
        .unwrap();
    assert_eq!(ai_gm(&mut f), None);
}

#[test]
fn a_policy_names_its_own_triggers_eligibility_and_sides() {
    // Only debilitating conditions, for the afflicted creature's allies engaged with its enemies,
    // and only heroes.
    let mut rs = homebrew();
    rs.gm_policy = GmPolicy {
        openings: vec![OpeningRule { when: OpeningTrigger::Debilitating, eligible: Eligible::EngagedAllies }],
        per_creature_per_round: 1,
        sides: vec!["heroes".into()],
    };
    let mut f = Fight::with_ruleset(
        rs,
        vec![
            who("Knight", "heroes", 20, (0, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]),
            who("Orc", "monsters", 10, (1, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]),
            who("Squire", "heroes", 5, (2, 0)).stat("STR", 1).stat("DEX", 1).with(&["sword"]),
            who("Goblin", "monsters", 4, (1, 1)).stat("STR", 1).stat("DEX", 1).with(&["sword"]),
        ],
    );
    knight_misses_orc(&mut f);
    assert_eq!(f.0.opening_due(0), None, "misses are not a trigger of this policy");
    f.end("Knight");
    // The Knight is prone during the Orc's turn: its ally engaged with the Orc is the Squire.
    f.gm(GmInput::ApplyCondition { who: f.id("Knight"), condition: "prone".into(), rounds: None, value: None })
        .unwrap();
    let call = f.0.opening_due(0).unwrap();
    assert_eq!(call.eligible, vec![f.id("Squire")]);
    // The Orc is prone: its ally engaged with the Knight and the Squire is the Goblin, a
    // monster, whom this policy leaves out; with every side, the Goblin gets it.
    let m = f.mark();
    f.gm(GmInput::ApplyCondition { who: f.id("Orc"), condition: "prone".into(), rounds: None, value: None }).unwrap();
    assert_eq!(f.0.opening_due(m), None);
    f.0.world.resource_mut::<Ruleset>().gm_policy.sides.clear();
    assert_eq!(f.0.opening_due(m).map(|c| c.eligible), Some(vec![f.id("Goblin")]));
    // Two rules on one trigger add their creatures up: the Orc's engaged enemies too.
    f.0.world
        .resource_mut::<Ruleset>()
        .gm_policy
        .openings
        .push(OpeningRule { when: OpeningTrigger::Debilitating, eligible: Eligible::EngagedEnemies });
    let mut both = f.0.opening_due(m).unwrap().eligible;
    both.sort();
    assert_eq!(both, vec![f.id("Knight"), f.id("Squire"), f.id("Goblin")]);
}

fn sim_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A duel under homebrew-d20 with forced dice: the Hero (initiative 20) swings first and rolls 1;
/// the Dummy's dodge rolls 20 and blocks; the AI GM opens an opening for the Dummy, whose sword
/// (20) beats the Hero's dodge (1) for 6 + 1 damage, and the 1-hp Hero is down in round 1.
const HB_DUEL: &str = r#"Encounter(
    name: "Opening duel",
    map: ["....", "...."],
    sides: [(name: "a", controller: Ai), (name: "b", controller: Ai)],
    combatants: [
        (name: "Hero", side: "a", hp: 1, at: (0, 0), stats: {"DEX": 1, "STR": 1}, abilities: ["sword"]),
        (name: "Dummy", side: "b", hp: 1, at: (1, 0), stats: {"DEX": 1, "STR": 1}, abilities: ["sword"]),
    ],
)
"#;

fn hb_duel(tag: &str) -> std::path::PathBuf {
    super::sim::encounter_file(&format!("gm-{tag}"), HB_DUEL)
}

#[test]
fn sim_counts_openings_offered_taken_passed_and_provoked_exactly_with_forced_dice() {
    let f = hb_duel("counts");
    let cfg = SimConfig { dice: vec![20, 1, 1, 20, 20, 1, 6], jobs: 2, ..SimConfig::new(&f, Some("homebrew-d20"), 7) };
    let b = sim::run_batch_records(&cfg, &|_| {}).unwrap();
    let t = &b.summary.rulesets[0].tally;
    assert_eq!(t.wins, vec![0, 7], "the Dummy's opening wins every run");
    let (hero, dummy) = (t.combatants[0], t.combatants[1]);
    assert_eq!((dummy.openings_offered, dummy.openings_taken, dummy.openings_passed), (7, 7, 0));
    assert_eq!(hero.openings_provoked, 7, "the Hero's missed swing made each opening");
    assert_eq!(
        (hero.openings_offered, hero.openings_taken, hero.openings_passed, dummy.openings_provoked),
        (0, 0, 0, 0)
    );
    assert!(b.summary.inputs.gm_policies.contains_key("homebrew-d20"));
    // The same batch with a GM who never opens one: no opening, and another batch key.
    let never = SimConfig { gm_policy: Some(sim_root().join("assets/gm-policies/never.ron")), ..cfg };
    let n = sim::run_batch_records(&never, &|_| {}).unwrap();
    let t = &n.summary.rulesets[0].tally;
    assert!(t.combatants.iter().all(|c| c.openings_offered == 0 && c.openings_taken == 0 && c.openings_provoked == 0));
    assert!(n.summary.inputs.gm_policies.is_empty());
    let e = sim::merge(&[b.summary.clone(), n.summary.clone()]).unwrap_err().to_string();
    assert!(e.contains("inputs.gm_policies.homebrew-d20"), "shards of the two policies do not merge: {e}");
}

#[test]
fn a_ruleset_without_openings_rejects_a_gm_policy_at_load_with_its_position() {
    let path = sim_root().join("assets/rulesets/pf2e.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replacen(
        "    openings: None,\n",
        "    openings: None,\n    gm_policy: (openings: [(when: Missed)]),\n",
        1,
    );
    assert_ne!(bad, text, "pf2e.ron has an `openings: None,` line");
    let line = bad.lines().position(|l| l.contains("gm_policy")).unwrap() + 1;
    let e = Ruleset::from_ron_str("pf2e.ron", &bad).unwrap_err();
    assert_eq!((e.file.as_str(), e.line, e.col), ("pf2e.ron", line, 5), "{e}");
    assert!(e.message.starts_with("gm_policy: this ruleset has no openings"), "{e}");
    // The same policy is fine where there are openings, and "never" is fine anywhere.
    let never = text.replacen("    openings: None,\n", "    openings: None,\n    gm_policy: (openings: []),\n", 1);
    Ruleset::from_ron_str("pf2e.ron", &never).unwrap();
    let hb = std::fs::read_to_string(sim_root().join("assets/rulesets/homebrew-d20.ron")).unwrap();
    assert_eq!(Ruleset::from_ron_str("homebrew-d20.ron", &hb).unwrap().gm_policy.openings.len(), 2);
}

#[test]
fn a_bad_gm_policy_file_is_refused_with_file_line_column_and_field() {
    let d = crate::common::tmp_root().join(format!("skirmish-gm-bad-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let run = |text: &str| {
        let f = d.join("policy.ron");
        std::fs::write(&f, text).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
            .args(["sim", sim_root().join("assets/encounters/skirmish-4v4.ron").to_str().unwrap()])
            .args(["--ruleset", "homebrew-d20", "--runs", "2", "--gm-policy", f.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let out = run("(\n    openings: [(when: Mised)],\n)\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let file = d.join("policy.ron").display().to_string();
    let said = |err: &str, want: &str| {
        assert!(err.starts_with(&format!("skirmish sim: {file}:{want}")), "{want}:\n{err}");
    };
    said(&err, "2:23: openings[0].when: Unexpected variant named `Mised`");
    let out = run("(\n    per_creature_per_round: 0,\n)\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    said(&err, "2:29: per_creature_per_round: 0 is out of range 1..=100\n");
    let out = run("(openings: [(when: Missed)],\n sides: [\"monsters\", \"pirates\"])\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    said(&err, "2:22: sides[1]: `pirates` is not one of the encounter's sides: heroes, monsters\n");
    // Under a ruleset without openings a policy that opens some is a mistake worth saying.
    let f = d.join("policy.ron");
    std::fs::write(&f, "(openings: [(when: Missed)])\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["sim", sim_root().join("assets/encounters/skirmish-4v4.ron").to_str().unwrap()])
        .args(["--ruleset", "pf2e", "--runs", "2", "--gm-policy", f.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("`pf2e` has no openings"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_encounters_policy_is_the_games_and_a_save_keeps_it_under_an_installed_ruleset() {
    let enc_path = sim_root().join("assets/encounters/skirmish-4v4.ron");
    let mut enc = skirmish::encounter::Encounter::load(&enc_path).unwrap();
    enc.gm_policy = Some(GmPolicy::never());
    // The game's set-up (`start_encounter`, with mods) plays under the encounter's policy.
    let c = skirmish::modding::start_encounter(&enc, homebrew(), 3, &Default::default()).unwrap();
    assert!(c.ruleset().gm_policy.is_never());
    // Saved with the installed ruleset named (not embedded), the policy comes back on load.
    let save = skirmish::save::SaveFile::capture(&c, "4v4").unwrap().with_installed_ruleset();
    let file = sim_root().join("saves/gm-policy-test.ron");
    let loaded = save.start(file.to_str().unwrap()).unwrap();
    assert!(loaded.ruleset().gm_policy.is_never(), "the installed homebrew-d20 would open openings");
    // And through the file's text, as a save on disk comes back.
    let text = save.to_ron();
    let restored = skirmish::save::restore(skirmish::save::parse("p.ron", &text).unwrap(), "p.ron").unwrap();
    assert!(restored.combat.ruleset().gm_policy.is_never(), "the policy is written in the file:\n{text}");
    // Under pf2e (no openings) the encounter's policy has nothing to replace.
    let pf2e = Ruleset::load(&sim_root().join("assets/rulesets/pf2e.ron")).unwrap();
    enc.gm_policy = Some(GmPolicy {
        openings: vec![OpeningRule { when: OpeningTrigger::Missed, eligible: Eligible::Default }],
        ..GmPolicy::never()
    });
    assert!(enc.gm_policy_under(&pf2e).is_never());
}

#[test]
fn the_ai_gm_plays_the_same_one_command_at_a_time_as_all_at_once() {
    // Where the AI GM has read up to is kept with the combat, so a driver that sends one command
    // a call (the game, a scenario's AI steps, the fused driver's lockstep test) sees the same
    // triggers as one long call.
    let enc = skirmish::encounter::Encounter::load(&sim_root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let mut all = enc.start(homebrew(), 11).unwrap();
    ai::play_by(&mut all, ALL, 5_000, |_| Brain::Tactical);
    let mut one = enc.start(homebrew(), 11).unwrap();
    for _ in 0..5_000 {
        if ai::play_by(&mut one, ALL, 1, |_| Brain::Tactical).sent == 0 {
            break;
        }
    }
    let opened = |c: &skirmish::rules::driver::Combat| {
        c.log().events.iter().filter(|e| matches!(e, CombatEvent::OpeningCreated { .. })).count()
    };
    assert!(opened(&all) > 0);
    assert_eq!(one.log().to_ron(), all.log().to_ron());
}
