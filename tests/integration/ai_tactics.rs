//! What the tactical AI does in set situations, under each ruleset, and that it answers every
//! decision and finishes every fight.

use std::collections::{BTreeMap, BTreeSet};

use skirmish::ai::{self, AiScope, Brain};
use skirmish::rules::command::{ActIntent, Choice, Command, Decider, DefenseMethod, GmInput};
use skirmish::rules::components::{Cid, GridPos};
use skirmish::rules::driver::Combat;
use skirmish::rules::log::CombatEvent;
use skirmish::rules::setup::CombatantSpec;
use skirmish::rules::state::EngineStatus;

use crate::ai_strength::{RULESETS, encounter, ruleset};
use crate::common::{SpecExt, who};

const SCOPE: AiScope = AiScope { gm: true, all_creatures: true };

fn start(rs: &str, specs: Vec<CombatantSpec>) -> Combat {
    Combat::new(ruleset(rs), 1, &specs).expect("valid set-up")
}

/// Movement for a ruleset: segments creatures need the three modes; `speed` for the others.
fn moving(mut s: CombatantSpec, rs: &str, speed: u32) -> CombatantSpec {
    s.movement = if rs == "segments" {
        [("shift", speed.min(1)), ("skirmish", speed.min(3)), ("sprint", speed)]
            .iter()
            .map(|(m, v)| (m.to_string(), *v))
            .collect()
    } else {
        let mode = ruleset(rs).default_movement_mode;
        BTreeMap::from([(mode, speed)])
    };
    s
}

/// The tactical AI's next command.
fn next(c: &Combat) -> Command {
    ai::next_command_with(c, SCOPE, Brain::Tactical).expect("the AI has something to send")
}

fn act(cmd: &Command) -> &ActIntent {
    match cmd {
        Command::Act(i) => i,
        other => panic!("expected an Act, got {other:?}"),
    }
}

/// Let the tactical AI play until `who`'s turn is over; returns the events it logged.
fn play_turn(c: &mut Combat, who: Cid) -> Vec<CombatEvent> {
    let from = c.log().events.len();
    assert_eq!(c.turn().active, Some(who), "it is {}'s turn", c.name(who));
    for _ in 0..50 {
        if c.turn().active != Some(who) || c.status() == EngineStatus::Ended {
            break;
        }
        assert_eq!(ai::play_with(c, SCOPE, 1, Brain::Tactical), 1, "the AI answers");
    }
    assert_ne!(c.turn().active, Some(who), "{}'s turn ended", c.name(who));
    c.log().events[from..].to_vec()
}

fn pos(c: &Combat, who: Cid) -> GridPos {
    *c.get::<GridPos>(who).unwrap()
}

fn used(events: &[CombatEvent], who: Cid) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            CombatEvent::AbilityUsed { who: w, ability, .. } if *w == who => Some(ability.as_str()),
            _ => None,
        })
        .collect()
}

/// The stats a creature needs to fight under a ruleset: `atk` to hit, `def` to defend.
fn fighter(name: &str, side: &str, init: i32, at: (i32, i32), rs: &str, atk: i32, def: i32) -> CombatantSpec {
    let s = who(name, side, init, at);
    let s = match rs {
        "homebrew-d20" => s.stat("STR", atk).stat("DEX", def),
        "pf2e" => s.stat("STR", atk).stat("DEX", atk).stat("AC", 10 + def),
        _ => s.stat("MELEE", atk).stat("RANGED", atk).stat("STR", atk).stat("AC", 10 + def),
    };
    moving(s, rs, 6)
}

/// A true archer at (0, 0): a ranged weapon, no strength for melee.
fn archer(rs: &str, def: i32) -> CombatantSpec {
    let (_, ranged) = weapons(rs);
    fighter("Archer", "a", 20, (0, 0), rs, 4, def).with(&[ranged]).stat("STR", 0).stat("MELEE", 0).stat("DEX", 3)
}

/// Each ruleset's melee and ranged weapon for a creature's sheet.
fn weapons(rs: &str) -> (&'static str, &'static str) {
    match rs {
        "homebrew-d20" => ("sword", "bow"),
        "pf2e" => ("strike", "shortbow"),
        "pf1e" => ("melee_attack", "ranged_attack"),
        _ => ("longsword", "bow"),
    }
}

#[test]
fn tactical_takes_the_kill_when_one_is_available() {
    for rs in RULESETS {
        let (melee, _) = weapons(rs);
        let c = start(
            rs,
            vec![
                fighter("Hero", "a", 20, (0, 0), rs, 5, 2).with(&[melee]),
                fighter("Tough", "b", 10, (1, 0), rs, 3, 2).with(&[melee]).hp(40),
                fighter("Weak", "b", 5, (0, 1), rs, 3, 2).with(&[melee]).hp(2),
            ],
        );
        let cmd = next(&c);
        let weak = c.cid("Weak").unwrap();
        assert_eq!(act(&cmd).targets, vec![weak], "{rs}: {cmd:?}");
    }
}

#[test]
fn tactical_attacks_the_most_dangerous_of_equal_targets() {
    for rs in RULESETS {
        let (melee, _) = weapons(rs);
        let big = match rs {
            "homebrew-d20" => "heavy_blow",
            "pf1e" => "full_attack",
            "pf2e" => "strike",
            _ => "longsword",
        };
        let c = start(
            rs,
            vec![
                fighter("Hero", "a", 20, (0, 0), rs, 4, 2).with(&[melee]),
                // Same hit points and defences; the Runt barely hurts.
                fighter("Runt", "b", 10, (1, 0), rs, 0, 2)
                    .with(&["dagger"][..usize::from(rs != "pf2e" && rs != "pf1e")])
                    .hp(15),
                fighter("Brute", "b", 5, (0, 1), rs, 6, 2).with(&[big, melee]).hp(15),
            ],
        );
        let cmd = next(&c);
        assert_eq!(act(&cmd).targets, vec![c.cid("Brute").unwrap()], "{rs}: {cmd:?}");
    }
}

#[test]
fn tactical_ranged_creature_shoots_rather_than_walking_into_melee() {
    for rs in RULESETS {
        let (melee, ranged) = weapons(rs);
        let mut c =
            start(rs, vec![archer(rs, 2).hp(16), fighter("Ogre", "b", 10, (6, 0), rs, 4, 2).with(&[melee]).hp(45)]);
        let archer = c.cid("Archer").unwrap();
        let cmd = next(&c);
        assert_eq!(act(&cmd).ability, ranged, "{rs}: {cmd:?}");
        let events = play_turn(&mut c, archer);
        assert_eq!(
            pos(&c, archer),
            GridPos { x: 0, y: 0 },
            "{rs}: the archer stays at range: {:?}",
            used(&events, archer)
        );
        assert!(used(&events, archer).iter().all(|a| *a == ranged), "{rs}: {:?}", used(&events, archer));
    }
}

#[test]
fn tactical_steps_or_disengages_out_of_melee_instead_of_provoking() {
    // Every ruleset with a move that provokes nothing: Disengage, Step, the 5-foot step.
    for (rs, escape) in [("homebrew-d20", "disengage"), ("pf2e", "step"), ("pf1e", "five_foot_step")] {
        let (melee, ranged) = weapons(rs);
        let mut brute = fighter("Brute", "b", 10, (1, 0), rs, 6, 2).with(&[melee]).hp(200);
        if rs == "pf2e" {
            brute = brute.with(&["reactive_strike"]);
        }
        // Flat-footed before its first turn, a pf1e brute needs Combat Reflexes to threaten.
        brute.traits.push("combat_reflexes".into());
        let mut c = start(rs, vec![archer(rs, 0).hp(12), brute]);
        let archer = c.cid("Archer").unwrap();
        let events = play_turn(&mut c, archer);
        let moves = used(&events, archer);
        assert!(moves.contains(&escape), "{rs}: {moves:?}");
        assert!(moves.contains(&ranged), "{rs}: it still shoots: {moves:?}");
        assert!(
            !events.iter().any(|e| matches!(e, CombatEvent::OpportunityProvoked { mover, .. } if *mover == archer)),
            "{rs}: it provoked an attack of opportunity: {moves:?}"
        );
        assert!(pos(&c, archer).distance(pos(&c, c.cid("Brute").unwrap())) > 1, "{rs}: out of reach");
    }
}

#[test]
fn tactical_melee_creature_holds_its_ground_and_spends_its_whole_budget() {
    // Engaged with a tough enemy: it attacks with everything it has and never walks away.
    let expect: [(&str, &[&str]); 4] = [
        ("homebrew-d20", &["sword", "sword", "sword"]),
        ("pf2e", &["strike", "strike", "strike"]),
        ("pf1e", &["full_attack"]),
        ("segments", &["longsword"]),
    ];
    for (rs, attacks) in expect {
        let (melee, _) = weapons(rs);
        let mut c = start(
            rs,
            vec![
                fighter("Fighter", "a", 20, (0, 0), rs, 5, 2).with(&[melee]),
                fighter("Wall", "b", 10, (1, 0), rs, 3, 2).with(&[melee]).hp(45),
            ],
        );
        let f = c.cid("Fighter").unwrap();
        let events = play_turn(&mut c, f);
        assert_eq!(used(&events, f), attacks.to_vec(), "{rs}");
        assert_eq!(pos(&c, f), GridPos { x: 0, y: 0 }, "{rs}");
    }
}

#[test]
fn tactical_pf1e_charges_a_distant_enemy_and_steps_in_for_a_full_attack() {
    let rs = "pf1e";
    let c =
        start(rs, vec![fighter("Hero", "a", 20, (0, 0), rs, 5, 2), fighter("Foe", "b", 10, (8, 0), rs, 3, 2).hp(50)]);
    let cmd = next(&c);
    assert_eq!(act(&cmd).ability, "charge", "{cmd:?}");
    assert_eq!(act(&cmd).targets, vec![c.cid("Foe").unwrap()]);
    // Two squares away: a 5-foot step keeps the full attack.
    let mut c =
        start(rs, vec![fighter("Hero", "a", 20, (0, 0), rs, 5, 2), fighter("Foe", "b", 10, (2, 0), rs, 3, 2).hp(50)]);
    let hero = c.cid("Hero").unwrap();
    let events = play_turn(&mut c, hero);
    assert_eq!(used(&events, hero), vec!["five_foot_step", "full_attack"]);
}

#[test]
fn tactical_defends_when_it_has_nothing_better() {
    // Rooted (speed 0), out of reach of an archer that shoots at it: nothing to attack, so it
    // takes its ruleset's defence.
    for (rs, defence) in
        [("homebrew-d20", "defend"), ("pf2e", "raise_shield"), ("pf1e", "total_defense"), ("segments", "shield_spell")]
    {
        let (melee, ranged) = weapons(rs);
        let mut rooted = moving(fighter("Rooted", "a", 20, (0, 0), rs, 3, 1).with(&[melee]), rs, 0);
        if rs == "segments" {
            rooted = rooted.with(&["shield_spell"]);
        }
        let c = start(rs, vec![rooted, fighter("Archer", "b", 10, (5, 0), rs, 6, 2).with(&[ranged]).hp(50)]);
        let cmd = next(&c);
        assert_eq!(act(&cmd).ability, defence, "{rs}: {cmd:?}");
    }
}

#[test]
fn tactical_defensive_roll_uses_the_better_stat() {
    let rs = "homebrew-d20";
    let mut c = start(
        rs,
        vec![
            who("A", "a", 20, (0, 0)).stat("STR", 3).with(&["sword"]),
            who("B", "b", 10, (1, 0)).stat("DEX", 1).stat("STR", 4).with(&["sword"]),
        ],
    );
    let (a, b) = (c.cid("A").unwrap(), c.cid("B").unwrap());
    c.force_dice([12]);
    c.submit(Command::Act(ActIntent::new(a, "sword", vec![b]))).unwrap();
    assert_eq!(c.status(), EngineStatus::AwaitingDecision(Decider::Creature(b)));
    assert_eq!(next(&c), Command::Decide { by: Decider::Creature(b), choice: Choice::Defend(DefenseMethod::Parry) });
    // Against a shot only Dodge is allowed (and it beats no defence).
    let mut c = start(
        rs,
        vec![
            who("A", "a", 20, (0, 0)).stat("DEX", 3).with(&["bow"]),
            who("B", "b", 10, (4, 0)).stat("DEX", 1).stat("STR", 4).with(&["sword"]),
        ],
    );
    let (a, b) = (c.cid("A").unwrap(), c.cid("B").unwrap());
    c.force_dice([12]);
    c.submit(Command::Act(ActIntent::new(a, "bow", vec![b]))).unwrap();
    assert_eq!(next(&c), Command::Decide { by: Decider::Creature(b), choice: Choice::Defend(DefenseMethod::Dodge) });
}

#[test]
fn tactical_takes_every_attack_of_opportunity() {
    for rs in RULESETS {
        let (melee, _) = weapons(rs);
        let mut guard = fighter("Guard", "a", 10, (1, 0), rs, 3, 2).with(&[melee]);
        if rs == "pf2e" {
            guard = guard.with(&["reactive_strike"]);
        }
        // pf1e: everyone is flat-footed until their first turn; Combat Reflexes still allows it.
        guard.traits.push("combat_reflexes".into());
        let mut c = start(rs, vec![fighter("Runner", "b", 20, (0, 0), rs, 3, 2), guard]);
        let (runner, g) = (c.cid("Runner").unwrap(), c.cid("Guard").unwrap());
        let mv = match rs {
            "homebrew-d20" | "pf1e" => "move",
            "pf2e" => "stride",
            _ => "skirmish",
        };
        let mut i = ActIntent::new(runner, mv, vec![]);
        i.to = Some(GridPos { x: -3, y: 0 });
        c.submit(Command::Act(i)).unwrap();
        assert_eq!(c.status(), EngineStatus::AwaitingDecision(Decider::Creature(g)), "{rs}");
        match next(&c) {
            Command::Decide { choice: Choice::Opportunity(Some(_)), .. } => {}
            other => panic!("{rs}: {other:?}"),
        }
    }
}

/// Decision kinds the engine asks for.
const KINDS: [&str; 8] =
    ["Defense", "Opportunity", "Opening", "AssistApproval", "Triggered", "ActionLoss", "InitiativeTie", "CastComplete"];

#[test]
fn tactical_answers_every_decision_and_finishes_every_fight() {
    // Many seeded fights under every ruleset, all played by the tactical AI, with extras that
    // make the engine ask every kind of decision: GM openings (homebrew-d20), an Assist that
    // needs the GM's approval, triggered free actions and reactions, gaining and losing actions
    // at once (pf2e), tied heroes (pf2e), casts (segments). Every fight must end, and the AI
    // must answer everything it is asked.
    let seeds: u64 = std::env::var("SKIRMISH_AI_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let mut asked: BTreeSet<String> = BTreeSet::new();
    for rs in RULESETS {
        let mut setup = encounter(rs);
        let specs = &mut setup.specs;
        match rs {
            "pf2e" => {
                for s in specs.iter_mut() {
                    s.abilities.extend(["battle_cry".to_string(), "parting_shot".to_string()]);
                }
                specs[0].conditions = vec!["quickened".into(), "slowed".into()];
                specs[4].conditions = vec!["quickened".into(), "slowed".into()];
                specs[3].abilities.push("haste".into());
            }
            "homebrew-d20" => {
                // A priest assisting a swordsman shares no tag with it: the GM decides.
                let mut priest = who("Priest", "heroes", 0, (0, 0)).with(&["hold_person"]);
                priest.initiative = skirmish::rules::components::InitiativeSetup::Rolled;
                specs.push(priest);
            }
            _ => {}
        }
        for seed in 0..seeds {
            let mut c = setup.start(seed);
            let mut sent = 0;
            let mut assisted = false;
            loop {
                if rs == "homebrew-d20" && sent % 9 == 4 && matches!(c.status(), EngineStatus::AwaitingCommand(_)) {
                    // The GM opens an opening for the default creatures, when there are any.
                    let _ = c.submit(Command::Gm(GmInput::Opening { eligible: vec![] }));
                }
                if rs == "homebrew-d20"
                    && !assisted
                    && let EngineStatus::AwaitingCommand(w) = c.status()
                    && Some(w) == c.cid("Priest")
                {
                    // An Assist the GM must approve: from the Priest to the Knight.
                    assisted = true;
                    let knight = c.cid("Knight").unwrap();
                    let _ = c.submit(Command::Act(ActIntent::new(w, "assist", vec![knight])));
                }
                let stats = ai::play_by(&mut c, SCOPE, 1, |_| Brain::Tactical);
                assert_eq!(stats.rejected_tactical, 0, "{rs} seed {seed}: a command was rejected");
                if stats.sent == 0 {
                    break;
                }
                sent += 1;
                assert!(sent < 20_000, "{rs} seed {seed}: no end in sight ({:?})", c.status());
            }
            assert_eq!(c.status(), EngineStatus::Ended, "{rs} seed {seed}: stuck on {:?}", c.status());
            for e in &c.log().events {
                if let CombatEvent::DecisionRequested { about, .. } = e {
                    asked.insert(about.clone());
                }
            }
        }
    }
    for k in KINDS {
        assert!(asked.contains(k), "no {k} decision came up; asked: {asked:?}");
    }
}

#[test]
fn tactical_finishes_every_shipped_ai_brawl_under_many_seeds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut n = 0;
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        if !path.file_name().unwrap().to_string_lossy().starts_with("ai-brawl") {
            continue;
        }
        let ls = skirmish::scenario::load(&path).unwrap();
        for seed in 0..20 {
            let mut c = Combat::new(ls.ruleset.clone(), seed, &ls.scenario.combatants).unwrap();
            let stats = ai::play_by(&mut c, SCOPE, 20_000, |_| Brain::Tactical);
            assert_eq!(c.status(), EngineStatus::Ended, "{} seed {seed}", path.display());
            assert_eq!(stats.rejected_tactical, 0, "{} seed {seed}", path.display());
            n += 1;
        }
    }
    assert!(n >= 80, "{n} fights");
}

#[test]
fn tactical_is_a_pure_function_of_the_state() {
    // The same seed gives the same fight, command for command.
    for rs in RULESETS {
        let setup = encounter(rs);
        let logs: Vec<String> = (0..2)
            .map(|_| {
                let mut c = setup.start(3);
                ai::play_sides(&mut c, SCOPE, 20_000, |s| if s == "heroes" { Brain::Tactical } else { Brain::Basic });
                c.log().to_ron()
            })
            .collect();
        assert_eq!(logs[0], logs[1], "{rs}");
    }
}

#[test]
fn tactical_aims_a_one_creature_spell_at_the_creature_worth_the_most_not_the_nearest() {
    // Issue 28: Magic Missile picks one creature (G-X-05). The nearer orc is untouched; the
    // farther one has 3 hit points left, so the missile is worth most there.
    for rs in ["pf1e", "segments"] {
        let c = start(
            rs,
            vec![
                fighter("Mage", "a", 20, (0, 0), rs, 1, 2).stat("SPELL", 5).with(&["magic_missile"]),
                fighter("Near", "b", 10, (4, 0), rs, 3, 2).hp(30),
                fighter("Far", "b", 5, (8, 0), rs, 3, 2).hp(3),
            ],
        );
        let cmd = next(&c);
        let far = c.cid("Far").unwrap();
        assert_eq!(act(&cmd).ability, "magic_missile", "{rs}: {cmd:?}");
        assert_eq!(act(&cmd).targets, vec![far], "{rs}: {cmd:?}");
    }
}

/// The basic AI's turn (found by cargo-mutants, issue 26): the weakest enemy in reach, else a
/// shot at the nearest, else a step toward the nearest, to the square nearest it.
#[test]
fn basic_ai_hits_the_weakest_in_reach_else_shoots_the_nearest_else_closes_in() {
    let basic = |c: &Combat| ai::next_command_with(c, SCOPE, Brain::Basic).expect("a command");
    for rs in RULESETS {
        let (melee, ranged) = weapons(rs);
        // Two enemies in reach and a friend: the weaker enemy (not the friend, who is weaker).
        let c = start(
            rs,
            vec![
                fighter("Hero", "a", 20, (0, 0), rs, 3, 2).with(&[melee]),
                fighter("Friend", "a", 1, (0, 1), rs, 3, 2).hp(1),
                fighter("Tough", "b", 10, (1, 0), rs, 3, 2).hp(30),
                fighter("Weak", "b", 5, (-1, 0), rs, 3, 2).hp(4),
            ],
        );
        let cmd = basic(&c);
        assert_eq!(act(&cmd).targets, vec![c.cid("Weak").unwrap()], "{rs}: {cmd:?}");
        // Nobody in reach, a bow: the nearest enemy.
        let c = start(
            rs,
            vec![
                fighter("Hero", "a", 20, (0, 0), rs, 3, 2).with(&[ranged]),
                fighter("Far", "b", 10, (9, 0), rs, 3, 2).hp(2),
                fighter("Near", "b", 5, (0, 6), rs, 3, 2).hp(30),
            ],
        );
        let cmd = basic(&c);
        assert_eq!((act(&cmd).ability.as_str(), act(&cmd).targets.clone()), (ranged, vec![c.cid("Near").unwrap()]));
        // Nobody in reach, no bow: a move toward the nearest, ending nearer.
        let c = start(
            rs,
            vec![
                moving(fighter("Hero", "a", 20, (0, 0), rs, 3, 2).with(&[melee]), rs, 4),
                fighter("Far", "b", 10, (12, 0), rs, 3, 2),
            ],
        );
        let cmd = basic(&c);
        let to = act(&cmd).to.unwrap_or_else(|| panic!("{rs}: a move: {cmd:?}"));
        assert!(to.distance(GridPos { x: 12, y: 0 }) < 12, "{rs}: {cmd:?}");
        // Boxed in by friends, one square a move: no square it can reach is nearer, so it
        // ends its turn rather than shuffle sideways.
        let c = start(
            rs,
            vec![
                moving(fighter("Hero", "a", 20, (0, 0), rs, 3, 2).with(&[melee]), rs, 1),
                fighter("F1", "a", 3, (1, -1), rs, 3, 2),
                fighter("F2", "a", 2, (1, 0), rs, 3, 2),
                fighter("F3", "a", 1, (1, 1), rs, 3, 2),
                fighter("Far", "b", 10, (12, 0), rs, 3, 2),
            ],
        );
        let cmd = basic(&c);
        assert!(matches!(cmd, Command::EndTurn { .. }), "{rs}: {cmd:?}");
    }
}

/// When nothing is scheduled (segments), the AI brings back only a delaying creature it plays: a
/// person's creature waits for the person, whatever brain would plan for it (found by the AI's
/// mutation sample: `plays(c) && plans_tactically` read as `||` survived, the other tests playing
/// every creature).
#[test]
fn the_ai_returns_only_its_own_delaying_creature_when_nothing_is_scheduled() {
    use crate::common::{Fight, sg};
    use skirmish::rules::components::Controller;
    let fight = |controller: Controller| {
        let mut person = sg("C", "heroes", 18, (0, 0)).with(&["dagger"]);
        person.controller = controller;
        let mut f = Fight::segments(vec![
            person,
            sg("O", "monsters", 12, (9, 0)).with(&["dagger"]),
            sg("P", "monsters", 10, (9, 5)).with(&["dagger"]),
        ]);
        f.put("O", "paralyzed", None, None);
        f.put("P", "paralyzed", None, None);
        f.0.submit(Command::Delay { actor: f.id("C") }).unwrap();
        assert_eq!(f.0.status(), EngineStatus::AwaitingReturn);
        f
    };
    let own = AiScope { gm: true, all_creatures: false };
    for brain in [Brain::Tactical, Brain::Fast, Brain::Basic] {
        let f = fight(Controller::Player);
        assert_eq!(ai::next_command_with(&f.0, own, brain), None, "{brain:?}: the person's creature waits");
        let f = fight(Controller::Ai);
        let back = ai::next_command_with(&f.0, own, brain);
        if brain == Brain::Basic {
            assert_eq!(back, None, "the basic AI does not plan returns");
        } else {
            assert_eq!(back, Some(Command::ReturnFromDelay { actor: f.id("C") }), "{brain:?}: the AI's own comes back");
        }
    }
    let f = fight(Controller::Player);
    assert_eq!(
        ai::next_command_with(&f.0, SCOPE, Brain::Tactical),
        Some(Command::ReturnFromDelay { actor: f.id("C") }),
        "playing every creature, it brings the person's back too"
    );
}

/// A command the engine rejects counts as rejected, and the turn goes on to the next creature. The
/// basic AI shoots at the nearest enemy without asking for a line of sight, so behind a wall its
/// shot is refused, and its turn is ended. (Found by the AI's mutation sample: the counter read
/// as `*=` survived, no other test making the AI send a command the engine refuses.)
#[test]
fn a_refused_command_is_counted_and_ends_the_basic_creatures_turn() {
    use crate::common::SpecExt;
    use skirmish::rules::map::BattleMap;
    let map = BattleMap::from_rows(&[".#.", ".#.", ".#."]).expect("valid rows");
    let archer = who("Archer", "heroes", 20, (0, 1)).with(&["shortbow"]).stat("DEX", 3);
    let target = who("Target", "monsters", 10, (2, 1));
    let mut c = Combat::with_map(ruleset("pf2e"), 1, &[archer, target], map, &[]).expect("valid set-up");
    let archer = c.cid("Archer").unwrap();
    assert_eq!(c.status(), EngineStatus::AwaitingCommand(archer));
    let stats = ai::play_by(&mut c, SCOPE, 1, |_| Brain::Basic);
    assert_eq!((stats.sent, stats.rejected, stats.rejected_tactical), (1, 1, 0), "{stats:?}");
    assert_eq!(c.status(), EngineStatus::AwaitingCommand(c.cid("Target").unwrap()), "its turn was ended");
    assert!(
        c.log().events.iter().any(|e| matches!(e, CombatEvent::TurnEnded { who, .. } if *who == archer)),
        "{:?}",
        c.log().events
    );
}

/// Playing only the creatures the AI controls, the AI leaves a person's creature alone on its
/// turn and plays its own. (Found by the AI's mutation sample: the controller check of the
/// tactical AI's turn read as `!=` survived, as every other test plays every creature.)
#[test]
fn playing_its_own_creatures_the_ai_waits_for_a_persons_turn() {
    use skirmish::rules::components::Controller;
    let own = AiScope { gm: true, all_creatures: false };
    let mut played = 0;
    for rs in RULESETS {
        for brain in [Brain::Tactical, Brain::Fast] {
            let mut setup = encounter(rs);
            for (i, s) in setup.specs.iter_mut().enumerate() {
                s.controller = if i % 2 == 0 { Controller::Player } else { Controller::Ai };
            }
            let mut c = setup.start(1);
            // The AI plays its own creatures' turns, if any, up to the first person's.
            played += ai::play_by(&mut c, own, 200, |_| brain).sent;
            let EngineStatus::AwaitingCommand(w) = c.status() else { panic!("{rs} {brain:?}: {:?}", c.status()) };
            assert_eq!(c.controller(w), Controller::Player, "{rs} {brain:?}: stopped at a person's turn");
            let before = c.log().events.len();
            let again = ai::play_by(&mut c, own, 200, |_| brain);
            assert_eq!(again.sent, 0, "{rs} {brain:?}: nothing sent for the person");
            assert_eq!(c.log().events.len(), before, "{rs} {brain:?}");
            // The person ends the turn; the AI plays on.
            c.submit(Command::EndTurn { actor: w }).unwrap();
            played += ai::play_by(&mut c, own, 200, |_| brain).sent;
        }
    }
    assert!(played > 0, "the AI played its own creatures");
}
