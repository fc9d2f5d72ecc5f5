//! segments: one test per rule ID of docs/rules.md#segments (SG-01..SG-43), and tests for the gap defaults
//! (G-SG-nn) the engine implements.

use skirmish::rules::command::{Command, GmInput, Rejection};
use skirmish::rules::components::TriggerOn;
use skirmish::rules::ruleset::Ruleset;

use crate::common::*;

/// A caster (initiative 18) and an orc (12) far apart.
fn pair() -> Fight {
    Fight::segments(vec![
        sg("C", "heroes", 18, (0, 0)).stat("SPELL", 3).stat("RANGED", 3).with(&[
            "magic_missile",
            "ray_of_frost",
            "mind_spike",
            "stoneskin",
            "shield_spell",
            "arcane_sight",
            "bow",
            "dagger",
            "longsword",
            "parry",
        ]),
        sg("O", "monsters", 12, (9, 0)).stat("MELEE", 2).with(&["longsword", "dagger"]),
    ])
}

/// The pair, with C holding a completed Shield in segment 2.
fn holding_shield() -> Fight {
    let mut f = pair();
    f.act("C", "shield_spell", &[]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    f.hold_cast("C", true).unwrap();
    f
}

#[test]
fn sg_01_some_actions_only_on_your_turn_others_off_turn() {
    let mut f = pair();
    assert!(matches!(f.act("O", "draw_weapon", &[]), Err(Rejection::NotYourTurn { .. })));
    assert_eq!(f.act("C", "parry", &[]), Err(Rejection::ReactionOnly("parry".into())));
}

#[test]
fn sg_02_standard_actions_include_moving_skills_drawing_and_attacks() {
    let mut f = pair();
    f.act_to("C", "skirmish", &[], (3, 0), None).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    assert!(f.saw(0, "Moved", "who: C"));
    assert!(f.saw(0, "AbilityResolved", "who: O, ability: \"draw_weapon\""));
}

#[test]
fn sg_03_standard_actions_only_on_your_turn() {
    let mut f = pair();
    let before = f.snapshot();
    assert!(matches!(f.act_to("O", "skirmish", &[], (8, 0), None), Err(Rejection::NotYourTurn { .. })));
    assert_eq!(f.snapshot(), before);
}

#[test]
fn sg_04_no_standard_actions_while_prevented() {
    let mut f = pair();
    f.put("C", "stupefied", None, None);
    f.end("C");
    f.end("O");
    assert_eq!(f.active().as_deref(), Some("C"));
    assert_eq!(f.act("C", "draw_weapon", &[]), Err(Rejection::UnableToAct));
}

#[test]
fn sg_05_next_turn_is_now_plus_recovery_time() {
    let mut f = pair();
    f.act("C", "draw_weapon", &[]).unwrap();
    // O's turn is running: only C is scheduled, at 1 + 2.
    assert_eq!(f.forecast(2), [("C".to_string(), 1, 3)]);
    f.act_to("O", "skirmish", &[], (8, 0), None).unwrap();
    assert_eq!(f.active().as_deref(), Some("C"));
    assert_eq!(f.forecast(2), [("O".to_string(), 1, 4)]);
}

/// Let O pass its turns (each pass puts its next turn one segment on) until `who` is active;
/// a completed cast is released at once. Returns the clock when `who`'s turn starts.
fn run_until_turn_of(f: &mut Fight, who: &str) -> (u32, u32) {
    for _ in 0..40 {
        if f.pending().is_some_and(|p| p.1 == "CastComplete") {
            let by = f.pending().unwrap().0;
            f.hold_cast(&by, false).unwrap();
            continue;
        }
        match f.active() {
            Some(a) if a == who => return f.clock(),
            Some(a) => f.end(&a),
            None => panic!("no turn running: {:?}", f.pending()),
        }
    }
    panic!("{who} never got a turn");
}

#[test]
fn sg_06_recovery_time_comes_from_mode_weapon_skill_or_power() {
    // Each action is really taken in segment 1, and C's next turn is found by playing on.
    let cases: [(&str, &[&str], Option<(i32, i32)>, (u32, u32)); 8] = [
        ("shift", &[], Some((1, 0)), (1, 2)),    // movement mode Shift: RT 1
        ("skirmish", &[], Some((3, 0)), (1, 4)), // Skirmish: RT 3 (SG-41)
        ("sprint", &[], Some((6, 0)), (1, 6)),   // Sprint: RT 5
        ("dagger", &["O"], None, (1, 3)),        // weapon speed 2
        ("longsword", &["O"], None, (1, 4)),     // weapon speed 3
        ("bow", &["O"], None, (1, 4)),           // weapon speed 3
        ("draw_weapon", &[], None, (1, 3)),      // a simple action: RT 2 from data
        ("magic_missile", &["O"], None, (1, 7)), // a power: effect at 1 + 2, then its RT 4
    ];
    for (ability, targets, to, next) in cases {
        let mut f = Fight::segments(vec![
            sg("C", "heroes", 18, (0, 0)).stat("MELEE", 2).stat("RANGED", 2).with(&[
                "dagger",
                "longsword",
                "bow",
                "magic_missile",
            ]),
            sg("O", "monsters", 12, if targets.is_empty() { (9, 9) } else { (0, 1) }).hp(200),
        ]);
        assert_eq!(f.clock(), (1, 1));
        match to {
            Some(p) => f.act_to("C", ability, &[], p, None).unwrap(),
            None => f.act("C", ability, targets).unwrap(),
        }
        assert_eq!(run_until_turn_of(&mut f, "C"), next, "{ability}");
        let done = match ability {
            "magic_missile" => "CastReleased",
            "shift" | "skirmish" | "sprint" => "Moved",
            "draw_weapon" => "AbilityResolved",
            _ => "AttackRolled",
        };
        let what = match done {
            "Moved" => "who: C".to_string(),
            "AttackRolled" => format!("attacker: C, target: O, ability: \"{ability}\""),
            _ => format!("who: C, ability: \"{ability}\""),
        };
        assert!(f.saw(0, done, &what), "{ability} ran");
    }
}

#[test]
fn sg_07_long_tasks_are_focus_actions_spanning_segments() {
    // G-SG-17: model a long task as a Focus Action with a long Focus Time.
    let mut rs = segments();
    for a in &mut rs.abilities {
        if a.id == "mind_spike" {
            a.focus_time = Some(12);
        }
    }
    let mut f = Fight::with_ruleset(
        rs,
        vec![sg("C", "heroes", 18, (0, 0)).with(&["mind_spike"]), sg("O", "monsters", 12, (9, 0))],
    );
    f.act("C", "mind_spike", &["O"]).unwrap();
    assert!(f.saw(0, "CastAnnounced", "round: 2, segment: 3"));
}

#[test]
fn sg_08_a_cast_is_announced_on_your_turn_and_completes_later() {
    let mut f = pair();
    assert!(matches!(f.act("O", "draw_weapon", &[]), Err(Rejection::NotYourTurn { .. })));
    f.act("C", "magic_missile", &["O"]).unwrap();
    assert!(f.saw(0, "CastAnnounced", "who: C, ability: \"magic_missile\", round: 1, segment: 3"));
    assert_eq!(f.active().as_deref(), Some("O"), "the announcement ends the turn");
}

#[test]
fn sg_09_the_casting_time_comes_before_the_effect() {
    let mut f = pair();
    f.act("C", "magic_missile", &["O"]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    assert_eq!(f.clock(), (1, 3));
    assert!(!f.saw(0, "Damaged", ""), "nothing before the casting time has passed");
    assert_eq!(f.pending(), Some(("C".into(), "CastComplete".into())));
}

#[test]
fn sg_10_you_announce_on_your_turn_that_you_cast() {
    let mut f = pair();
    let m = f.mark();
    f.act("C", "ray_of_frost", &["O"]).unwrap();
    assert!(f.find(m, "AbilityUsed", "ray_of_frost").unwrap() < f.find(m, "CastAnnounced", "ray_of_frost").unwrap());
}

#[test]
fn sg_11_the_effect_comes_at_announce_plus_casting_time() {
    let mut f = pair();
    f.act("C", "ray_of_frost", &["O"]).unwrap();
    assert!(f.saw(0, "CastAnnounced", "round: 1, segment: 4"));
}

#[test]
fn sg_12_concentration_is_needed_for_the_whole_casting_time() {
    let mut f = pair();
    f.act("C", "ray_of_frost", &["O"]).unwrap();
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "who: C"));
}

#[test]
fn sg_13_when_the_casting_time_ends_the_effect_occurs() {
    let mut f = pair();
    f.act("C", "magic_missile", &["O"]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    f.force(&[2]);
    f.hold_cast("C", false).unwrap();
    assert!(f.saw(0, "Damaged", "who: O, amount: 3"));
}

#[test]
fn sg_14_after_the_effect_you_wait_the_powers_recovery_time() {
    let mut f = pair();
    f.act("C", "magic_missile", &["O"]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    f.hold_cast("C", false).unwrap();
    assert!(f.saw(0, "CastReleased", "next_round: 1, next_segment: 7"));
    assert_eq!(f.forecast(1), [("C".to_string(), 1, 7)]);
}

#[test]
fn sg_15_components_v_s_m_f() {
    let mut f = Fight::segments(vec![
        sg("C", "heroes", 18, (0, 0)).with(&["stoneskin", "arcane_sight", "magic_missile"]),
        sg("O", "monsters", 12, (9, 0)),
    ]);
    assert_eq!(f.act("C", "stoneskin", &[]), Err(Rejection::MissingComponent("diamond_dust".into())));
    assert_eq!(f.act("C", "arcane_sight", &[]), Err(Rejection::MissingComponent("crystal".into())));
    f.put("C", "silenced", None, None);
    assert_eq!(f.act("C", "magic_missile", &["O"]), Err(Rejection::MissingComponent("Verbal".into())));
    f.put("C", "bound", None, None);
    let mut h =
        Fight::segments(vec![sg("C", "heroes", 18, (0, 0)).with(&["magic_missile"]), sg("O", "monsters", 12, (9, 0))]);
    h.put("C", "bound", None, None);
    assert_eq!(h.act("C", "magic_missile", &["O"]), Err(Rejection::MissingComponent("Somatic".into())));
    let mut g = Fight::segments(vec![
        {
            let mut s = sg("C", "heroes", 18, (0, 0)).with(&["stoneskin", "arcane_sight"]);
            s.items = [("diamond_dust".to_string(), 1), ("crystal".to_string(), 1)].into();
            s
        },
        sg("O", "monsters", 12, (9, 0)),
    ]);
    g.act("C", "stoneskin", &[]).unwrap();
    g.act("O", "draw_weapon", &[]).unwrap();
    g.hold_cast("C", false).unwrap();
    assert!(g.saw(0, "ComponentConsumed", "item: \"diamond_dust\""), "M is consumed");
    g.act("O", "draw_weapon", &[]).unwrap();
    g.act("O", "draw_weapon", &[]).unwrap_or(());
    let items = g.0.get::<skirmish::rules::components::Inventory>(g.id("C")).unwrap().0.clone();
    assert_eq!(items["diamond_dust"], 0);
    assert_eq!(items["crystal"], 1, "F is not consumed");
}

#[test]
fn sg_16_no_turn_between_announcement_and_effect() {
    let mut f = pair();
    f.act("C", "ray_of_frost", &["O"]).unwrap();
    f.act("O", "shift", &[]).unwrap_err();
    f.act_to("O", "shift", &[], (8, 0), None).unwrap();
    f.act_to("O", "shift", &[], (7, 0), None).unwrap();
    f.act_to("O", "shift", &[], (6, 0), None).unwrap();
    assert!(!f.saw(0, "TurnStarted", "who: C, round: 1, time: 2"));
    assert!(!f.saw(0, "TurnStarted", "who: C, round: 1, time: 3"));
    assert_eq!(f.pending(), Some(("C".into(), "CastComplete".into())));
}

#[test]
fn sg_17_a_disrupted_cast_has_no_effect_and_the_next_turn_is_one_segment_on() {
    let mut f = pair();
    f.act("C", "ray_of_frost", &["O"]).unwrap();
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "who: C, ability: \"ray_of_frost\", next_round: 1, next_segment: 2"));
    f.act("O", "draw_weapon", &[]).unwrap();
    assert_eq!(f.active().as_deref(), Some("C"));
    assert_eq!(f.clock(), (1, 2));
    assert!(!f.saw(0, "AttackRolled", ""));
}

#[test]
fn sg_18_disruption_is_a_caller_event() {
    let mut f = pair();
    f.act("C", "magic_missile", &["O"]).unwrap();
    assert_eq!(f.gm(GmInput::Interrupt { who: f.id("C") }), Ok(()));
    assert!(f.saw(0, "ConcentrationBroken", "who: C"));
}

#[test]
fn sg_19_a_completed_cast_may_be_held() {
    let f = holding_shield();
    assert!(f.saw(0, "CastHeld", "who: C, ability: \"shield_spell\""));
    assert_eq!(f.active().as_deref(), Some("C"));
}

#[test]
fn sg_20_while_held_the_rt_waits_and_release_is_free() {
    let mut f = holding_shield();
    assert_eq!(f.forecast(2), [("O".to_string(), 1, 3)], "no next turn for C while it holds");
    assert_eq!(f.clock(), (1, 2));
    f.release("C").unwrap();
    // Released in segment 2 (a Free Action takes no time): 2 + 4.
    assert!(f.saw(0, "CastReleased", "next_round: 1, next_segment: 6"));
}

#[test]
fn sg_21_while_holding_shift_adds_one_and_skirmish_or_simple_actions_add_two() {
    let mut f = holding_shield();
    f.act_to("C", "shift", &[], (1, 0), None).unwrap();
    f.act_to("C", "skirmish", &[], (4, 0), None).unwrap();
    f.act("C", "draw_weapon", &[]).unwrap();
    f.act("C", "speak", &[]).unwrap();
    assert!(f.saw(0, "HoldAccrued", "rt: 2, total: 2"));
    assert!(f.saw(0, "HoldAccrued", "rt: 5, total: 7"));
    assert!(f.saw(0, "HoldAccrued", "rt: 4, total: 11"));
    assert!(f.saw(0, "HoldAccrued", "rt: 0, total: 11"));
}

#[test]
fn sg_22_holding_forbids_sprint_attacks_new_casts_and_reactions() {
    let mut f = holding_shield();
    for (a, t) in [("sprint", vec![]), ("bow", vec!["O"]), ("magic_missile", vec!["O"]), ("parry", vec![])] {
        assert_eq!(f.act("C", a, &t), Err(Rejection::NotWhileHolding(a.into())), "{a}");
    }
}

#[test]
fn sg_23_release_adds_the_power_rt_and_everything_owed() {
    let mut f = holding_shield();
    f.act_to("C", "skirmish", &[], (3, 0), None).unwrap();
    assert_eq!(f.0.next_turn_if(f.id("C"), "speak"), Some((2, 1)));
    // What the HUD shows before the release: the power's RT and the owed segments, 4 + 5.
    assert_eq!(f.0.release_owed(f.id("C")), Some(9));
    assert_eq!(f.0.release_owed(f.id("O")), None, "holds nothing");
    f.release("C").unwrap();
    assert_eq!(f.0.release_owed(f.id("C")), None, "released");
    // 2 + 4 + 5 = 11: round 2, segment 1.
    assert!(f.saw(0, "CastReleased", "next_round: 2, next_segment: 1"));
}

#[test]
fn sg_23_the_what_if_while_holding_counts_what_the_action_would_add() {
    // Holding, with 5 owed: Draw a Weapon would owe 2 + 2 more, so the release would come at
    // 2 + 4 + 5 + 4 = 15 (found by cargo-mutants: the action's own surcharge was not checked).
    let mut f = holding_shield();
    f.act_to("C", "skirmish", &[], (3, 0), None).unwrap();
    assert_eq!(f.0.next_turn_if(f.id("C"), "draw_weapon"), Some((2, 5)));
    f.act("C", "draw_weapon", &[]).unwrap();
    f.release("C").unwrap();
    assert!(f.saw(0, "CastReleased", "next_round: 2, next_segment: 5"), "{:?}", f.text());
}

#[test]
fn sg_24_concentration_still_holds_while_holding() {
    let mut f = holding_shield();
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "who: C, ability: \"shield_spell\""));
    assert!(!f.has("C", "shielded"));
}

#[test]
fn sg_25_disrupted_while_holding_loses_the_power_and_its_energy() {
    let mut s = sg("C", "heroes", 18, (0, 0)).with(&["stoneskin"]);
    s.items = [("diamond_dust".to_string(), 2)].into();
    let mut f = Fight::segments(vec![s, sg("O", "monsters", 12, (9, 0))]);
    f.act("C", "stoneskin", &[]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap_or(());
    f.hold_cast("C", true).unwrap();
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ComponentConsumed", "diamond_dust"));
    assert_eq!(f.0.get::<skirmish::rules::components::Inventory>(f.id("C")).unwrap().0["diamond_dust"], 1);
    assert!(!f.has("C", "stoneskin"));
}

#[test]
fn sg_26_focus_actions_work_like_casts_with_a_focus_time() {
    let mut f = pair();
    f.act("C", "mind_spike", &["O"]).unwrap();
    assert!(f.saw(0, "CastAnnounced", "ability: \"mind_spike\", round: 1, segment: 3"));
    f.act("O", "draw_weapon", &[]).unwrap();
    // A focus is never held (G-SG-18): it resolves at once, then its RT.
    assert_eq!(f.pending(), None);
    assert!(f.saw(0, "CastReleased", "who: C, ability: \"mind_spike\", next_round: 1, next_segment: 6"));
}

#[test]
fn sg_27_concentration_is_needed_during_the_focus_time() {
    let mut f = pair();
    f.act("C", "mind_spike", &["O"]).unwrap();
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "ability: \"mind_spike\""));
}

#[test]
fn sg_28_a_disrupted_focus_delays_the_next_turn_one_segment() {
    let mut f = pair();
    f.act("C", "mind_spike", &["O"]).unwrap();
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "next_round: 1, next_segment: 2"));
    assert!(!f.saw(0, "Damaged", ""));
}

#[test]
fn sg_29_focus_actions_need_no_components() {
    let mut f = pair();
    f.put("C", "silenced", None, None);
    f.put("C", "bound", None, None);
    f.act("C", "mind_spike", &["O"]).unwrap();
    assert!(f.saw(0, "CastAnnounced", "mind_spike"));
}

#[test]
fn sg_30_the_recovery_action_saves_against_one_se_effect() {
    let mut f = pair();
    f.put("C", "asleep", None, None);
    f.put("C", "slowed", Some(1), None);
    f.force(&[19]);
    f.act("C", "recovery_action", &[]).unwrap();
    assert!(f.saw(0, "SaveRolled", "who: C, stat: \"WIS\""));
    assert!(!f.has("C", "asleep"));
    assert!(f.saw(0, "ConditionEnded", "who: C, condition: \"asleep\", reason: SaveSucceeded"));
    assert!(f.has("C", "slowed"), "one effect only");
}

#[test]
fn sg_30_the_recovery_action_saves_against_the_effect_it_names() {
    // Two save-ends effects: the Recovery Action names one (`mode`), and only that one is saved
    // against; naming one the creature does not have is refused and changes nothing.
    let mut f = pair();
    f.put("C", "asleep", None, None);
    f.put("C", "unconscious", None, None);
    let c = f.id("C");
    let intent = |m: &str| {
        skirmish::rules::command::Command::Act(skirmish::rules::command::ActIntent {
            actor: c,
            ability: "recovery_action".into(),
            targets: vec![],
            to: None,
            mode: Some(m.into()),
            surprise: false,
        })
    };
    let before = f.0.state_hash();
    let err = f.0.submit(intent("slowed")).unwrap_err();
    assert!(f.0.explain(&err).contains("no `slowed` that a save can end"), "{}", f.0.explain(&err));
    assert_eq!(f.0.state_hash(), before, "a refused command changes nothing");
    f.force(&[19]);
    f.0.submit(intent("unconscious")).unwrap();
    assert!(f.saw(0, "SaveRolled", "who: C, stat: \"CON\""), "{:?}", f.text());
    assert!(!f.has("C", "unconscious"), "the named effect ends");
    assert!(f.has("C", "asleep"), "the other one stays");
}

#[test]
fn sg_31_recovery_action_rt_is_two_changed_only_globally() {
    let mut f = pair();
    f.put("C", "asleep", None, None);
    assert_eq!(f.0.next_turn_if(f.id("C"), "recovery_action"), Some((1, 3)));
    f.put("C", "slowed", Some(1), None);
    assert_eq!(f.0.next_turn_if(f.id("C"), "recovery_action"), Some((1, 5)), "Slowed adds 2 (G-SG-05)");
    f.force(&[1]);
    f.act("C", "recovery_action", &[]).unwrap();
    assert_eq!(f.forecast(2), [("C".to_string(), 1, 5)]);
}

#[test]
fn sg_32_the_recovery_action_works_while_prevented_but_only_on_your_turn() {
    let mut f = pair();
    f.put("O", "unconscious", None, None);
    assert!(matches!(f.act("O", "recovery_action", &[]), Err(Rejection::NotYourTurn { .. })));
    f.act("C", "draw_weapon", &[]).unwrap();
    assert_eq!(f.active().as_deref(), Some("O"), "a prevented creature with an SE effect still gets its turn");
    f.force(&[20]);
    f.act("O", "recovery_action", &[]).unwrap();
    assert!(!f.has("O", "unconscious"));
}

#[test]
fn sg_33_the_save_is_an_external_roll_from_data() {
    let rs = segments();
    let save = rs.condition("asleep").unwrap().save_ends.clone().unwrap();
    assert_eq!((save.stat.as_str(), save.dc), ("WIS", 12));
    let mut f = pair();
    f.put("C", "asleep", None, None);
    f.force(&[11]);
    f.act("C", "recovery_action", &[]).unwrap();
    assert!(f.saw(0, "SaveRolled", "roll: 11, bonus: 0, total: 11, dc: 12, success: false"));
}

#[test]
fn sg_34_you_may_delay_when_your_turn_comes_up() {
    let mut f = pair();
    f.0.submit(Command::Delay { actor: f.id("C") }).unwrap();
    assert!(f.saw(0, "Delayed", "who: C"));
    assert_eq!(f.active().as_deref(), Some("O"));
    assert_eq!(f.forecast(3), Vec::<(String, u32, u32)>::new(), "a delaying creature has no next turn (G-SG-11)");
}

#[test]
fn sg_35_a_delaying_creature_acts_later_in_initiative_order_without_interrupting() {
    let mut f = Fight::segments(vec![
        sg("E", "monsters", 20, (9, 0)),
        sg("A", "heroes", 15, (0, 0)),
        sg("D", "monsters", 8, (9, 4)),
    ]);
    f.end("E");
    f.0.submit(Command::Delay { actor: f.id("A") }).unwrap();
    assert_eq!(f.active().as_deref(), Some("D"));
    let m = f.mark();
    f.0.submit(Command::ReturnFromDelay { actor: f.id("A") }).unwrap();
    // The return is logged (issue 13), after the turn running now.
    assert!(f.saw(m, "ReturnedFromDelay", "who: A, after: D"), "{:?}", f.text());
    assert_eq!(f.active().as_deref(), Some("D"), "it cannot interrupt D's turn");
    f.end("D");
    assert_eq!(f.active().as_deref(), Some("A"));
    assert_eq!(f.clock(), (1, 1));
}

#[test]
fn sg_36_to_respond_it_waits_for_the_turn_to_end_and_for_higher_initiative() {
    let mut f = Fight::segments(vec![
        sg("E", "monsters", 20, (9, 0)),
        sg("F", "monsters", 17, (9, 2)),
        sg("A", "heroes", 15, (0, 0)),
        sg("D", "monsters", 8, (9, 4)),
    ]);
    f.end("E");
    f.end("F");
    f.0.submit(Command::Delay { actor: f.id("A") }).unwrap();
    f.end("D");
    // Segment 2: E, F and D are due; A returns during E's turn.
    assert_eq!(f.active().as_deref(), Some("E"));
    f.0.submit(Command::ReturnFromDelay { actor: f.id("A") }).unwrap();
    f.end("E");
    assert_eq!(f.active().as_deref(), Some("F"), "F (17) is still due and outranks A (15)");
    f.end("F");
    assert_eq!(f.active().as_deref(), Some("A"));
}

#[test]
fn sg_37_ready_an_action_with_a_condition() {
    let mut f = pair();
    let (c, o) = (f.id("C"), f.id("O"));
    f.hold(c, "bow", vec![o], Some(o), TriggerOn::Moves).unwrap();
    assert!(f.saw(0, "ActionHeld", "who: C, ability: \"bow\", cost: 0"));
    f.force(&[12, 3]);
    f.act_to("O", "skirmish", &[], (7, 0), None).unwrap();
    assert!(f.saw(0, "HeldActionTriggered", "who: C, ability: \"bow\", by: O"));
}

#[test]
fn sg_38_a_readied_action_interrupts_only_when_triggered() {
    let mut f = pair();
    let (c, o) = (f.id("C"), f.id("O"));
    f.hold(c, "bow", vec![o], Some(o), TriggerOn::Attacks).unwrap();
    f.act_to("O", "skirmish", &[], (7, 0), None).unwrap();
    assert!(!f.saw(0, "HeldActionTriggered", ""), "a move is not the trigger");
    assert!(f.forecast(3).iter().all(|(n, _, _)| n != "C"), "C waits off the schedule");
    // O closes in, then attacks: C's shot interrupts first.
    f.act_to("O", "sprint", &[], (1, 0), None).unwrap();
    f.force(&[12, 3, 2, 1]);
    let m = f.mark();
    f.act("O", "longsword", &["C"]).unwrap();
    let shot = f.find(m, "AttackRolled", "attacker: C").expect("the readied shot");
    let blow = f.find(m, "AttackRolled", "attacker: O").expect("O's attack");
    assert!(shot < blow);
}

#[test]
fn sg_39_initiative_is_a_caller_score_and_first_turns_are_in_segment_1() {
    let f = pair();
    assert!(f.saw(0, "InitiativeRolled", "who: C, roll: 18, bonus: 0, total: 18"));
    assert!(f.saw(0, "TurnStarted", "who: C, round: 1, time: 1"));
    let mut g = pair();
    g.end("C");
    assert!(g.saw(0, "TurnStarted", "who: O, round: 1, time: 1"), "everyone's first turn is in segment 1 (G-SG-01)");
}

#[test]
fn sg_40_ten_segments_a_round_segment_ten_belongs_to_it() {
    let tl = skirmish::rules::timeline::Timeline::new(skirmish::rules::ruleset::TurnModel::RecoveryTime {
        segments_per_round: 10,
    });
    assert_eq!(tl.round_and_segment(10), (1, 10));
    assert_eq!(tl.round_and_segment(13), (2, 3));
    let mut f = pair();
    f.act_to("C", "sprint", &[], (0, 6), None).unwrap();
    f.act_to("O", "sprint", &[], (9, 6), None).unwrap();
    f.act("C", "magic_missile", &["O"]).unwrap();
    f.act("O", "draw_weapon", &[]).unwrap();
    f.hold_cast("C", false).unwrap();
    // 6 + 2 + 4 = 12: round 2, segment 2.
    assert!(f.saw(0, "CastReleased", "next_round: 2, next_segment: 2"));
}

#[test]
fn sg_41_a_fifteen_foot_skirmish_move_has_rt_3() {
    let mut f = pair();
    f.act_to("C", "skirmish", &[], (3, 0), None).unwrap();
    assert_eq!(f.forecast(2), [("C".to_string(), 1, 4)]);
    assert_eq!(f.act_to("O", "skirmish", &[], (5, 0), None), Err(Rejection::OutOfRange { distance: 4, max: 3 }));
}

#[test]
fn sg_42_actions_while_holding_do_not_advance_the_clock() {
    let mut f = holding_shield();
    let t = f.clock();
    f.act_to("C", "skirmish", &[], (3, 0), None).unwrap();
    f.act_to("C", "shift", &[], (4, 0), None).unwrap();
    assert_eq!(f.clock(), t);
}

#[test]
fn sg_43_turns_in_the_same_segment_go_by_initiative() {
    let f = Fight::segments(vec![
        sg("Low", "heroes", 3, (0, 0)),
        sg("High", "monsters", 19, (9, 0)),
        sg("Mid", "heroes", 11, (0, 4)),
    ]);
    assert_eq!(f.active().as_deref(), Some("High"));
    let mut g = f;
    assert_eq!(g.forecast(2), [("Mid".to_string(), 1, 1), ("Low".to_string(), 1, 1)]);
}

#[test]
fn g_sg_10_durations_in_rounds_last_ten_segments_each() {
    let mut s = sg("C", "heroes", 18, (0, 0)).with(&["stoneskin"]);
    s.items = [("diamond_dust".to_string(), 1)].into();
    let mut f = Fight::segments(vec![s, sg("O", "monsters", 12, (9, 0))]);
    f.act("C", "stoneskin", &[]).unwrap();
    f.act_to("O", "sprint", &[], (9, 6), None).unwrap();
    f.hold_cast("C", false).unwrap();
    assert!(f.has("C", "stoneskin"));
    // Cast at segment 3: it ends just before segment 13 (round 2, segment 3).
    for _ in 0..12 {
        if f.saw(0, "ExpiredBeforeCount", "") {
            break;
        }
        let a = f.active().unwrap();
        f.act(&a, "draw_weapon", &[]).unwrap();
    }
    let at = f.find(0, "ExpiredBeforeCount", "").unwrap();
    assert!(f.text()[..at].iter().any(|e| e.contains("time: 12")), "still on at segment 12");
    assert!(!f.text()[..at].iter().any(|e| e.contains("time: 13")), "gone before any turn at segment 13");
    assert!(f.saw(0, "ExpiredBeforeCount", "who: C, condition: \"stoneskin\", round: 2"), "{:?}", f.text());
}

#[test]
fn g_sg_15_a_prevented_creature_with_nothing_to_save_against_passes() {
    let mut f = pair();
    f.put("O", "paralyzed", None, None);
    f.act("C", "longsword", &["O"]).unwrap_err();
    f.act("C", "draw_weapon", &[]).unwrap();
    assert!(f.saw(0, "TurnSkipped", "who: O"));
    assert_eq!(f.active().as_deref(), Some("C"));
    assert_eq!(f.clock(), (1, 3));
}

#[test]
fn g_sg_05_global_modifiers_change_every_recovery_time() {
    let mut f = pair();
    f.put("C", "hasted", None, None);
    assert_eq!(f.0.next_turn_if(f.id("C"), "skirmish"), Some((1, 3)));
    assert_eq!(f.0.next_turn_if(f.id("C"), "shift"), Some((1, 2)), "never below 1");
    f.put("C", "injured", None, None);
    assert_eq!(f.0.next_turn_if(f.id("C"), "skirmish"), Some((1, 4)));
    let _ = Ruleset::load;
}

#[test]
fn a_rejected_delay_changes_nothing() {
    let mut f = pair();
    let before = f.snapshot();
    assert!(matches!(f.0.submit(Command::Delay { actor: f.id("O") }), Err(Rejection::NotYourTurn { .. })));
    assert_eq!(f.snapshot(), before);
    f.act("C", "draw_weapon", &[]).unwrap();
    assert_eq!(f.active().as_deref(), Some("O"), "O keeps its turn");
}

#[test]
fn g_sg_11_a_delaying_creature_can_return_when_nothing_else_is_scheduled() {
    let mut f = pair();
    f.0.submit(Command::Delay { actor: f.id("C") }).unwrap();
    let (c, o) = (f.id("C"), f.id("O"));
    f.hold(o, "dagger", vec![c], Some(c), TriggerOn::Attacks).unwrap();
    assert_eq!(f.0.status(), skirmish::rules::state::EngineStatus::AwaitingReturn);
    f.0.submit(Command::ReturnFromDelay { actor: c }).unwrap();
    assert_eq!(f.active().as_deref(), Some("C"));
}

#[test]
fn g_sg_11_when_everyone_scheduled_is_paralyzed_the_clock_waits_for_the_delaying_creature() {
    // C delays off the timeline; O and P, all that is left on it, are paralyzed. The clock waits
    // for C to come back instead of skipping O and then P (found by cargo-mutants: "everyone
    // scheduled is unable to act" read as "... and able to recover" survived, as the other tests
    // leave only one creature scheduled).
    let mut f = Fight::segments(vec![
        sg("C", "heroes", 18, (0, 0)).with(&["dagger"]),
        sg("O", "monsters", 12, (9, 0)).with(&["dagger"]),
        sg("P", "monsters", 10, (9, 5)).with(&["dagger"]),
    ]);
    f.put("O", "paralyzed", None, None);
    f.put("P", "paralyzed", None, None);
    let m = f.mark();
    f.0.submit(Command::Delay { actor: f.id("C") }).unwrap();
    assert!(!f.saw(m, "TurnSkipped", ""), "{:?}", f.since(m));
    assert_eq!(f.0.status(), skirmish::rules::state::EngineStatus::AwaitingReturn);
    f.0.submit(Command::ReturnFromDelay { actor: f.id("C") }).unwrap();
    assert_eq!(f.active().as_deref(), Some("C"));
}

#[test]
fn g_sg_11_a_readying_creature_comes_back_after_the_running_turn_and_its_readied_action_lapses() {
    let mut f = pair();
    let (c, o) = (f.id("C"), f.id("O"));
    f.hold(c, "bow", vec![o], Some(o), TriggerOn::Attacks).unwrap();
    assert_eq!(f.active().as_deref(), Some("O"), "C waits off the schedule");
    let m = f.mark();
    f.0.submit(Command::ReturnFromDelay { actor: c }).unwrap();
    assert!(f.find(m, "ReturnedFromDelay", "who: C, after: O").is_some(), "logged at once");
    assert!(
        f.0.get::<skirmish::rules::components::HeldActions>(c).unwrap().0.is_empty(),
        "coming back gives the readied shot up"
    );
    assert_eq!(f.active().as_deref(), Some("O"), "it cannot interrupt O's turn (SG-35)");
    // A second return while it is already scheduled again is refused: it is no longer waiting.
    assert!(matches!(f.0.submit(Command::ReturnFromDelay { actor: c }), Err(Rejection::NotDelayed)));
    f.end("O");
    assert_eq!(f.active().as_deref(), Some("C"), "C takes its turn right after O's");
}

#[test]
fn g_sg_11_a_creature_that_neither_delays_nor_readies_cannot_return() {
    let mut f = pair();
    let (c, o) = (f.id("C"), f.id("O"));
    assert!(matches!(f.0.submit(Command::ReturnFromDelay { actor: o }), Err(Rejection::NotDelayed)));
    // A readied action that already fired leaves nothing to come back from either.
    f.hold(c, "bow", vec![o], Some(o), TriggerOn::Moves).unwrap();
    f.force(&[12, 3]);
    f.act_to("O", "skirmish", &[], (7, 0), None).unwrap();
    assert!(f.saw(0, "HeldActionTriggered", "who: C, ability: \"bow\", by: O"));
    let before = f.0.log().events.len();
    let r = f.0.submit(Command::ReturnFromDelay { actor: c });
    assert!(r.is_err(), "{r:?}");
    assert_eq!(f.0.log().events.len(), before, "a refused return logs nothing");
}

#[test]
fn g_sg_09_a_release_waits_for_the_turn_in_progress_to_end() {
    let mut f = holding_shield();
    f.end("C");
    assert_eq!(f.active().as_deref(), Some("O"));
    f.release("C").unwrap();
    assert!(!f.saw(0, "CastReleased", ""), "not in the middle of O's turn");
    f.act("O", "draw_weapon", &[]).unwrap();
    let ended = f.find(0, "TurnEnded", "who: O, actions_left: 0").unwrap();
    assert!(f.find(ended, "CastReleased", "who: C").is_some());
}

#[test]
fn sg_09_a_cast_cannot_be_readied_to_skip_its_casting_time() {
    let mut s = sg("C", "heroes", 18, (0, 0)).with(&["stoneskin"]);
    s.items = [("diamond_dust".to_string(), 1)].into();
    let mut f = Fight::segments(vec![s, sg("O", "monsters", 12, (9, 0))]);
    let (c, o) = (f.id("C"), f.id("O"));
    let r = f.hold(c, "stoneskin", vec![], Some(o), TriggerOn::Moves);
    assert!(matches!(r, Err(Rejection::NotHoldable(_))));
}

#[test]
fn sg_15_a_focus_item_survives_the_cast_a_material_one_is_used_up() {
    let mut s = sg("C", "heroes", 18, (0, 0)).with(&["stoneskin", "arcane_sight"]);
    s.items = [("diamond_dust".to_string(), 1), ("crystal".to_string(), 1)].into();
    let mut f = Fight::segments(vec![s, sg("O", "monsters", 12, (9, 9))]);
    let items = |f: &Fight| f.0.get::<skirmish::rules::components::Inventory>(f.id("C")).unwrap().0.clone();
    // F: Arcane Sight is cast through the crystal, all the way to its effect.
    f.act("C", "arcane_sight", &[]).unwrap();
    run_until_turn_of(&mut f, "C");
    assert!(f.saw(0, "CastReleased", "who: C, ability: \"arcane_sight\""));
    assert!(f.has("C", "seeing"), "the power took effect");
    assert!(!f.saw(0, "ComponentConsumed", "crystal"));
    assert_eq!(items(&f)["crystal"], 1, "F is not consumed");
    // ... and can be cast through again.
    f.act("C", "arcane_sight", &[]).unwrap();
    run_until_turn_of(&mut f, "C");
    assert_eq!(items(&f)["crystal"], 1);
    // M: Stoneskin's diamond dust is consumed when the effect occurs, and then it is missing.
    let m = f.mark();
    f.act("C", "stoneskin", &[]).unwrap();
    assert_eq!(items(&f)["diamond_dust"], 1, "not at the announcement");
    run_until_turn_of(&mut f, "C");
    assert!(f.saw(m, "ComponentConsumed", "who: C, item: \"diamond_dust\""));
    assert_eq!(items(&f)["diamond_dust"], 0);
    assert!(f.has("C", "stoneskin"));
    assert_eq!(f.act("C", "stoneskin", &[]), Err(Rejection::MissingComponent("diamond_dust".into())));
    assert_eq!(f.act("C", "arcane_sight", &[]), Ok(()), "the crystal is still there");
}

/// C announces Ray of Frost (CT 3) in segment 1: its effect is due in segment 4. O shifts (RT 1)
/// and so has turns in segments 2 and 3, inside the casting time.
fn ray_in_flight() -> Fight {
    let mut f = pair();
    f.act("C", "ray_of_frost", &["O"]).unwrap();
    assert!(f.saw(0, "CastAnnounced", "round: 1, segment: 4"));
    f.act_to("O", "shift", &[], (8, 0), None).unwrap();
    assert_eq!((f.active().as_deref(), f.clock()), (Some("O"), (1, 2)));
    f
}

#[test]
fn sg_12_a_disruption_late_in_the_casting_time_still_breaks_it() {
    let mut f = ray_in_flight();
    f.act_to("O", "shift", &[], (7, 0), None).unwrap();
    assert_eq!((f.active().as_deref(), f.clock()), (Some("O"), (1, 3)), "the last segment before the effect");
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "who: C, ability: \"ray_of_frost\", next_round: 1, next_segment: 4"));
    f.end("O");
    assert_eq!(run_until_turn_of(&mut f, "C"), (1, 4));
    assert_eq!(f.pending(), None, "a plain turn, not the cast's completion");
    assert!(!f.saw(0, "AttackRolled", "") && !f.saw(0, "CastReleased", ""));
}

#[test]
fn sg_17_a_cast_disrupted_after_its_announcement_segment_has_no_effect_next_turn_one_on() {
    let mut f = ray_in_flight();
    // Disrupted in segment 2, one segment after the announcement.
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "who: C, ability: \"ray_of_frost\", next_round: 1, next_segment: 3"));
    f.end("O");
    assert_eq!(run_until_turn_of(&mut f, "C"), (1, 3), "2 + 1, not the power's RT");
    // Playing past the old effect segment: no ray, no recovery time of the power.
    for _ in 0..2 {
        f.end("C");
        run_until_turn_of(&mut f, "C");
    }
    assert!(f.clock() >= (1, 5), "{:?}", f.clock());
    assert!(!f.saw(0, "AttackRolled", "") && !f.saw(0, "CastReleased", "") && !f.saw(0, "Damaged", ""));
}

#[test]
fn sg_28_a_focus_disrupted_after_its_announcement_segment_has_no_effect_next_turn_one_on() {
    let mut f = pair();
    // Mind Spike (FT 2) in segment 1: its effect is due in segment 3.
    f.act("C", "mind_spike", &["O"]).unwrap();
    f.act_to("O", "shift", &[], (8, 0), None).unwrap();
    assert_eq!(f.clock(), (1, 2));
    f.gm(GmInput::Interrupt { who: f.id("C") }).unwrap();
    assert!(f.saw(0, "ConcentrationBroken", "who: C, ability: \"mind_spike\", next_round: 1, next_segment: 3"));
    f.end("O");
    assert_eq!(run_until_turn_of(&mut f, "C"), (1, 3));
    assert_eq!(f.pending(), None);
    f.end("C");
    run_until_turn_of(&mut f, "C");
    assert!(!f.saw(0, "Damaged", "") && !f.saw(0, "CastReleased", ""));
    assert_eq!(f.hp("O"), 30);
}

#[test]
fn g_sg_05_a_held_cast_released_while_slowed_waits_the_slowed_rt() {
    // Shield (RT 4) completed and held in segment 2; slowed adds 2 to every RT, the release's too.
    let mut f = holding_shield();
    f.put("C", "slowed", Some(1), None);
    f.release("C").unwrap();
    assert!(
        f.saw(0, "CastReleased", "who: C, ability: \"shield_spell\", next_round: 1, next_segment: 8"),
        "2 + (4 + 2)"
    );
    assert_eq!(run_until_turn_of(&mut f, "C"), (1, 8));
    // Hasted instead (−1): 2 + (4 − 1).
    let mut g = holding_shield();
    g.put("C", "hasted", None, None);
    g.release("C").unwrap();
    assert!(g.saw(0, "CastReleased", "next_round: 1, next_segment: 5"));
    // A cast released at once while slowed: effect in segment 3, then 4 + 2.
    let mut h = pair();
    h.put("C", "slowed", Some(1), None);
    h.act("C", "magic_missile", &["O"]).unwrap();
    run_until_turn_of(&mut h, "C");
    assert!(h.saw(0, "CastReleased", "who: C, ability: \"magic_missile\", next_round: 1, next_segment: 9"));
}

#[test]
fn sg_17_a_rescheduled_turn_leaves_no_stale_turn_on_the_timeline() {
    // A disrupted cast reschedules its caster: the old turn must really leave the timeline
    // (found by cargo-mutants: `Timeline::unschedule` doing nothing survived the rule tests).
    use skirmish::rules::components::Cid;
    use skirmish::rules::ruleset::TurnModel;
    use skirmish::rules::timeline::{Timeline, TurnKey};
    let mut t = Timeline::new(TurnModel::RecoveryTime { segments_per_round: 10 });
    let old = TurnKey { time: 5, rank: 0, who: Cid(1) };
    t.schedule(old);
    t.schedule(TurnKey { time: 7, rank: 1, who: Cid(2) });
    assert!(t.unschedule(&old));
    assert_eq!(t.scheduled(Cid(1)), None);
    assert_eq!(t.len(), 1);
    assert_eq!(t.pop().map(|k| k.who), Some(Cid(2)), "the stale turn at 5 is gone");
    assert!(!t.unschedule(&old), "nothing left to remove");
}

#[test]
fn sg_37_a_creature_that_cannot_act_takes_no_readied_action() {
    // segments has no attacks of opportunity or openings; its off-turn actions are readied
    // ones, and an asleep creature takes none (issue 13).
    let mut f = pair();
    let (c, o) = (f.id("C"), f.id("O"));
    f.hold(c, "bow", vec![o], Some(o), TriggerOn::Moves).unwrap();
    f.gm(GmInput::ApplyCondition { who: c, condition: "asleep".into(), rounds: None, value: None }).unwrap();
    f.act_to("O", "skirmish", &[], (7, 0), None).unwrap();
    assert!(!f.saw(0, "HeldActionTriggered", ""), "{:?}", f.text());
    assert!(!f.saw(0, "AttackRolled", "attacker: C"));
}
