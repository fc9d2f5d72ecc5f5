//! Saves, replays and undo (issue 12): round trips at any moment, undo then redo, the v1
//! migration fixture, golden replays per ruleset, damaged files, interrupted writes.
//!
//! - The round-trip property test runs 1,000 cases (`SKIRMISH_SAVE_CASES=10000` for the long
//!   mode).
//! - Golden replays (`tests/fixtures/replays/`) are re-blessed on purpose with
//!   `SKIRMISH_BLESS=1 cargo test --no-default-features --test integration saves::golden`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use skirmish::ai::{self, AiScope};
use skirmish::encounter::Encounter;
use skirmish::rules::command::{ActIntent, ActionLoss, Choice, Command, Decider, DefenseMethod, GmInput};
use skirmish::rules::components::*;
use skirmish::rules::driver::Combat;
use skirmish::rules::journal::{Entry, Issuer};
use skirmish::rules::ruleset::Ruleset;
use skirmish::rules::setup::CombatantSpec;
use skirmish::rules::state::{DecisionKind, EngineStatus, Pending, TurnState};
use skirmish::save::undo::{History, UndoError};
use skirmish::save::{self, SaveError, SaveFile};
use skirmish::scenario;

const RULESETS: [&str; 4] = ["homebrew-d20", "pf2e", "pf1e", "segments"];
const ALL: AiScope = AiScope { gm: true, all_creatures: true };

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ruleset(name: &str) -> Ruleset {
    Ruleset::load(&root().join(format!("assets/rulesets/{name}.ron"))).unwrap()
}

fn rulesets() -> &'static [Ruleset] {
    static R: std::sync::OnceLock<Vec<Ruleset>> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        RULESETS
            .iter()
            .map(|n| {
                let mut rs = ruleset(n);
                rs.round_cap = 12;
                rs
            })
            .collect()
    })
}

/// Capture, write as text, parse and restore: the whole way a save goes.
fn round_trip(c: &Combat, name: &str) -> Combat {
    let s = SaveFile::capture(c, name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = s.to_ron();
    let parsed = save::parse("mem.ron", &text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    assert_eq!(parsed, s, "{name}: the text gives back the same save");
    save::restore(parsed, "mem.ron").unwrap_or_else(|e| panic!("{name}: {e}")).combat
}

/// Every shipped scenario, run, with its combat kept.
fn scenario_combats() -> Vec<(String, Combat)> {
    crate::scenarios::files()
        .iter()
        .map(|f| {
            let ls = scenario::load(f).unwrap();
            let (_, c) = scenario::run_keeping(&ls, None);
            (f.file_name().unwrap().to_string_lossy().into_owned(), c.expect("sets up"))
        })
        .collect()
}

/// Interesting moments a save or an undo must get back exactly.
#[derive(Debug, Default, Clone, Copy)]
struct Seen {
    pending: bool,
    activity: bool,
    held_cast: bool,
    held_action: bool,
    surprise: bool,
    delayed: bool,
}

impl Seen {
    fn note(&mut self, c: &Combat) {
        self.pending |= c.world.resource::<Pending>().0.is_some();
        let t = c.world.resource::<TurnState>();
        self.surprise |= t.surprise_round;
        self.delayed |= !t.delayed.is_empty();
        for i in 0..c.len() as u32 {
            if let Some(Casting(Some(a))) = c.get::<Casting>(Cid(i)) {
                if a.holding {
                    self.held_cast = true;
                } else {
                    self.activity = true;
                }
            }
            self.held_action |= c.get::<HeldActions>(Cid(i)).is_some_and(|h| !h.0.is_empty());
        }
    }
}

fn events_after(c: &Combat, from: usize) -> Vec<String> {
    c.log().events[from..].iter().map(|e| format!("{e:?}")).collect()
}

#[test]
fn a_save_at_any_point_of_every_scenario_restores_the_same_state_and_next_events() {
    let mut seen = Seen::default();
    for (name, full) in scenario_combats() {
        let n = full.journal().len();
        let step = (n / 12).max(1);
        for k in (0..=n).step_by(step) {
            let mut here = save::rebuild(&full, k).unwrap();
            seen.note(&here);
            let mut back = round_trip(&here, &name);
            assert_eq!(back.state_hash(), here.state_hash(), "{name} saved after {k} entries");
            assert_eq!(back.log(), here.log(), "{name} after {k}: the log comes back too");
            let from = here.log().events.len();
            for e in full.journal().iter().skip(k).take(20) {
                let a = here.apply_entry(e);
                let b = back.apply_entry(e);
                assert_eq!(a, b, "{name} after {k}: {e:?}");
            }
            assert_eq!(events_after(&back, from), events_after(&here, from), "{name} after {k}: next events");
            assert_eq!(back.state_hash(), here.state_hash(), "{name} after {k}: hash 20 entries on");
        }
    }
    assert!(
        seen.pending && seen.activity && seen.held_cast && seen.held_action && seen.surprise && seen.delayed,
        "saves were taken with a decision pending, mid-activity, holding a cast, with held actions, in a \
         surprise round and while delaying: {seen:?}"
    );
}

// ---------------------------------------------------------------- round-trip property test

/// One creature: side, square, hit points, ability picks.
type Sheet = (bool, (i8, i8), u8, Vec<u8>);

fn specs(rs: &Ruleset, sheets: &[Sheet]) -> Vec<CombatantSpec> {
    sheets
        .iter()
        .enumerate()
        .map(|(i, (side, (x, y), hp, picks))| {
            let mut stats = BTreeMap::new();
            for s in ["STR", "DEX", "CON", "PER", "WIS", "INT"] {
                stats.insert(s.to_string(), (i as i32 % 5) - 1);
            }
            stats.insert("AC".to_string(), 12);
            let abilities: Vec<String> = picks
                .iter()
                .map(|p| rs.abilities[*p as usize % rs.abilities.len()].id.clone())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let mut movement = BTreeMap::new();
            for a in &rs.abilities {
                if let skirmish::rules::ruleset::Effect::MoveAs { mode } = &a.effect {
                    movement.insert(mode.clone(), 4);
                }
            }
            CombatantSpec {
                name: format!("C{i}"),
                side: if *side { "a".into() } else { "b".into() },
                stats,
                hp: i32::from(*hp) + 1,
                abilities,
                at: (i32::from(*x), i32::from(*y)),
                movement,
                controller: if *side { Controller::Player } else { Controller::Ai },
                aware: i % 3 != 2,
                items: [("material".to_string(), 2), ("focus".to_string(), 1)].into_iter().collect(),
                ..CombatantSpec::default()
            }
        })
        .collect()
}

/// What a player, the AI or the GM might do now, drawn from three numbers.
fn next_input(c: &Combat, (kind, a, b): (u8, u8, u8)) -> Entry {
    let n = c.len().max(1) as u32;
    let active = match c.status() {
        EngineStatus::AwaitingCommand(w) => Some(w),
        _ => c.turn().active,
    };
    let rs = c.ruleset();
    let ability = rs.abilities[b as usize % rs.abilities.len()].id.clone();
    let cmd = match (kind % 20, active) {
        (0, Some(w)) => Command::EndTurn { actor: w },
        (1, Some(w)) => Command::Delay { actor: w },
        (2, Some(w)) => Command::Hold {
            actor: w,
            ability,
            targets: vec![],
            trigger: HeldTrigger { by: None, on: TriggerOn::AnyAction },
        },
        (3, Some(w)) => Command::Act(ActIntent::new(w, ability, vec![Cid(u32::from(a) % n)])),
        (4, _) => {
            let cond = rs.conditions[a as usize % rs.conditions.len()].id.clone();
            Command::Gm(GmInput::ApplyCondition {
                who: Cid(u32::from(b) % n),
                condition: cond,
                rounds: Some(u32::from(a % 3) + 1),
                value: None,
            })
        }
        (5, _) => Command::Gm(GmInput::Interrupt { who: Cid(u32::from(a) % n) }),
        (6, _) => return Entry::Force(vec![i32::from(a % 4) + 1, i32::from(b % 4) + 1]),
        (7, _) => {
            let by = c.world.resource::<Pending>().0.as_ref().map_or(Decider::Gm, |p| p.by);
            let d = c.world.resource::<Pending>().0.as_ref().map(|p| decline(&p.kind));
            match d {
                Some(choice) => Command::Decide { by, choice },
                None => ai::next_command(c, ALL).unwrap_or(Command::Gm(GmInput::Opening { eligible: vec![] })),
            }
        }
        _ => match ai::next_command(c, ALL) {
            Some(cmd) => cmd,
            None => match c.turn().delayed.iter().next() {
                Some(d) => Command::ReturnFromDelay { actor: *d },
                None => Command::Gm(GmInput::Opening { eligible: vec![] }),
            },
        },
    };
    Entry::Command { by: Issuer::Script, ok: true, cmd }
}

/// An answer to a decision that is not the AI's (to vary the inputs the round trips see).
fn decline(kind: &DecisionKind) -> Choice {
    match kind {
        DecisionKind::Defense { .. } => Choice::Defend(DefenseMethod::NoDefense),
        DecisionKind::Opportunity { .. } => Choice::Opportunity(None),
        DecisionKind::Opening { .. } => Choice::Opening(None),
        DecisionKind::AssistApproval { .. } => Choice::Approve(false),
        DecisionKind::Triggered { .. } => Choice::Triggered(None),
        DecisionKind::ActionLoss => Choice::LoseFirst(ActionLoss::Regular),
        DecisionKind::CastComplete { .. } => Choice::HoldCast(true),
        DecisionKind::InitiativeTie { tied } => Choice::Order(tied.iter().rev().copied().collect()),
    }
}

/// Apply an input the way a game would (the issuer from the creature's controller).
fn apply(c: &mut Combat, e: &Entry) {
    match e {
        Entry::Command { cmd, .. } => {
            let _ = c.submit(cmd.clone());
        }
        Entry::Force(v) => c.force_dice(v.iter().copied()),
    }
}

fn save_cases() -> u32 {
    std::env::var("SKIRMISH_SAVE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: save_cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn save_at_a_random_point_loads_to_the_same_hash_and_the_same_next_20_commands(
        r in 0usize..4,
        seed in any::<u64>(),
        sheets in prop::collection::vec(
            (any::<bool>(), (0i8..6, 0i8..6), 0u8..30, prop::collection::vec(any::<u8>(), 0..4)), 2..6),
        before in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 0..60),
        after in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 20),
    ) {
        let rs = rulesets()[r].clone();
        let Ok(mut c) = Combat::new(rs, seed, &specs(&rulesets()[r], &sheets)) else {
            return Ok(());
        };
        for raw in before {
            let e = next_input(&c, raw);
            apply(&mut c, &e);
        }
        let mut back = round_trip(&c, "property");
        prop_assert_eq!(back.state_hash(), c.state_hash());
        for raw in after {
            let e = next_input(&c, raw);
            let from = c.log().events.len();
            apply(&mut c, &e);
            apply(&mut back, &e);
            prop_assert_eq!(events_after(&back, from), events_after(&c, from), "after {:?}", e);
        }
        prop_assert_eq!(back.state_hash(), c.state_hash());
        prop_assert_eq!(back.journal(), c.journal());
    }
}

// ---------------------------------------------------------------- undo and redo

/// The same combat, every command re-sent as a person's (every command is an undo point);
/// returns the combat and the state hash before each entry.
fn as_player(c: &Combat) -> (Combat, Vec<u64>) {
    let o = c.origin();
    let mut p = Combat::with_map(c.ruleset().clone(), c.turn().seed, &o.specs, c.map().clone(), &o.dice).unwrap();
    let mut before = Vec::new();
    for e in c.journal() {
        before.push(p.state_hash());
        match e {
            Entry::Command { cmd, .. } => {
                let _ = p.submit_as(cmd.clone(), Issuer::Player);
            }
            Entry::Force(v) => p.force_dice(v.iter().copied()),
        }
    }
    (p, before)
}

#[test]
fn undo_then_redo_gives_identical_hashes_under_every_ruleset_mid_activity_and_with_decisions_pending() {
    let mut seen_by_ruleset: BTreeMap<String, Seen> = BTreeMap::new();
    for (name, full) in scenario_combats() {
        let (mut c, before) = as_player(&full);
        let rs = c.ruleset().name.clone();
        let end = c.state_hash();
        let mut history = History::new();
        // Undo back through (up to) 25 commands, each landing exactly where that command was sent.
        let mut hashes = vec![end];
        let undoable: Vec<usize> =
            c.journal().iter().enumerate().filter(|(_, e)| e.is_player_command()).map(|(i, _)| i).collect();
        for &i in undoable.iter().rev().take(25) {
            history.undo(&mut c).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(c.state_hash(), before[i], "{name}: undo lands before entry {}", i + 1);
            assert_eq!(c.journal().len(), i);
            seen_by_ruleset.entry(rs.clone()).or_default().note(&c);
            hashes.push(c.state_hash());
        }
        // Redo the whole way back: the same hashes in reverse, the same dice.
        hashes.pop();
        while let Some(h) = hashes.pop() {
            history.redo(&mut c).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(c.state_hash(), h, "{name}: redo");
        }
        assert_eq!(c.state_hash(), end, "{name}: back at the end");
        assert_eq!(history.redo(&mut c), Err(UndoError::NothingToRedo));
    }
    for rs in RULESETS {
        let s = seen_by_ruleset.get(rs).copied().unwrap_or_default();
        assert!(s.pending, "{rs}: an undo landed on a pending decision: {s:?}");
    }
    let any = |f: fn(&Seen) -> bool| seen_by_ruleset.values().any(f);
    assert!(any(|s| s.activity), "an undo landed mid-activity");
    assert!(any(|s| s.held_cast), "an undo landed while a cast was held");
    assert!(any(|s| s.held_action), "an undo landed with an action held");
    assert!(any(|s| s.surprise), "an undo landed in a surprise round");
    assert!(seen_by_ruleset["homebrew-d20"].activity, "homebrew-d20: mid-activity");
    assert!(seen_by_ruleset["segments"].activity && seen_by_ruleset["segments"].held_cast, "segments: casts");
}

/// A game-like fight: the heroes' commands are a person's, the rest the AI's and the GM's.
fn game_fight(rs: &str, seed: u64, commands: usize) -> (Combat, Vec<(usize, u64)>) {
    let enc = Encounter::load(&root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let mut c = enc.start(ruleset(rs), seed).unwrap();
    let mut points = Vec::new();
    for _ in 0..commands {
        let Some(cmd) = ai::next_command(&c, ALL) else { break };
        let by = match cmd.actor() {
            Some(a) if c.get::<Side>(a).is_some_and(|s| s.0 == "heroes") => Issuer::Player,
            Some(_) => Issuer::Ai,
            None => Issuer::Gm,
        };
        if by == Issuer::Player {
            points.push((c.journal().len(), c.state_hash()));
        }
        if c.submit_as(cmd.clone(), by).is_err() {
            let Some(a) = c.turn().active else { break };
            let _ = c.submit_as(Command::EndTurn { actor: a }, Issuer::Ai);
        }
    }
    (c, points)
}

#[test]
fn undo_skips_back_over_the_ai_to_the_players_decision_point_and_the_dice_stay_the_same() {
    for rs in RULESETS {
        let (mut c, points) = game_fight(rs, 11, 120);
        assert!(points.len() > 5, "{rs}: the heroes acted");
        let end = c.state_hash();
        let end_log = c.log().clone();
        let mut h = History::new();
        let &(at, hash) = points.last().unwrap();
        assert!(h.can_undo(&c), "{rs}: a person's command to undo");
        let step = h.undo(&mut c).unwrap();
        assert_eq!(c.journal().len(), at, "{rs}: back to the player's last command");
        assert_eq!(c.state_hash(), hash, "{rs}");
        assert!(step.entries >= 1);
        // The person's creature is waited on again.
        let who = step.command.actor().unwrap();
        assert!(
            matches!(c.status(), EngineStatus::AwaitingCommand(w) | EngineStatus::AwaitingDecision(Decider::Creature(w)) if w == who),
            "{rs}: {:?}",
            c.status()
        );
        // The same command again draws the same dice: the same log as before the undo.
        let _ = c.submit_as(step.command.clone(), Issuer::Player);
        assert!(!h.can_redo(&c), "{rs}: a new command drops the redo");
        assert_eq!(h.redo(&mut c), Err(UndoError::NothingToRedo));
        let n = c.log().events.len().min(end_log.events.len());
        assert_eq!(c.log().events[..n], end_log.events[..n], "{rs}: same dice after undo");
        // Several undos, then several redos.
        let (mut c, points) = game_fight(rs, 12, 150);
        let k = points.len().min(6);
        for i in 0..k {
            h.undo(&mut c).unwrap();
            assert_eq!(c.state_hash(), points[points.len() - 1 - i].1, "{rs}: undo {i}");
        }
        for _ in 0..k {
            h.redo(&mut c).unwrap();
        }
        let (again, _) = game_fight(rs, 12, 150);
        assert_eq!(c.state_hash(), again.state_hash(), "{rs}: redo gives the state back");
        assert_ne!(end, 0);
    }
    // Nothing a person sent: nothing to undo.
    let (mut c, _) = game_fight("pf2e", 3, 0);
    assert!(!History::new().can_undo(&c));
    assert_eq!(History::new().undo(&mut c).unwrap_err(), UndoError::NothingToUndo);
}

// ---------------------------------------------------------------- fixtures

fn bless() -> bool {
    std::env::var("SKIRMISH_BLESS").is_ok_and(|v| v == "1")
}

fn golden_dir() -> PathBuf {
    root().join("tests/fixtures/replays")
}

/// The scenario each golden replay records: the AI brawl of its ruleset.
fn golden_source(rs: &str) -> PathBuf {
    let f = if rs == "homebrew-d20" { "ai-brawl.ron".to_string() } else { format!("ai-brawl-{rs}.ron") };
    root().join("tests/scenarios").join(f)
}

#[test]
fn golden_replays_one_per_ruleset_replay_to_their_committed_hashes() {
    for rs in RULESETS {
        let path = golden_dir().join(format!("{rs}.ron"));
        if bless() {
            std::fs::create_dir_all(golden_dir()).unwrap();
            let ls = scenario::load(&golden_source(rs)).unwrap();
            let (_, c) = scenario::run_keeping(&ls, None);
            let mut s = SaveFile::capture(&c.unwrap(), &ls.scenario.name).unwrap();
            s.meta.label = "golden replay".into();
            s.meta.saved_at = 0;
            save::write_atomic(&path, &s).unwrap();
        }
        let s = save::read(&path).unwrap_or_else(|e| panic!("{e} (bless with SKIRMISH_BLESS=1)"));
        assert_eq!(s.meta.ruleset, rs);
        assert!(!s.journal.is_empty(), "{rs}: a real fight");
        let (c, divergence) = s.replay(&path.display().to_string(), true, |_, _| {}).unwrap();
        assert_eq!(
            divergence,
            None,
            "{}: the rules changed how this replay plays out; if that is meant, re-bless with \
             SKIRMISH_BLESS=1 cargo test --no-default-features --test integration saves::golden",
            path.display()
        );
        assert_eq!(c.state_hash(), s.state.hash.0);
        assert_eq!(
            save::log_hash(&c),
            s.state.log_hash,
            "{}: the log's events changed; if that is meant, re-bless with SKIRMISH_BLESS=1",
            path.display()
        );
        assert_eq!(c.status(), EngineStatus::Ended, "{rs}: the brawl is fought to the end");
    }
}

const V1: &str = "tests/fixtures/saves/v1-segments-held-cast.ron";

/// Write the v1 fixture (only when it is missing: it must stay as version 1 wrote it).
fn make_v1_fixture() {
    let path = root().join(V1);
    if path.exists() {
        return;
    }
    let ls = scenario::load(&root().join("tests/scenarios/ex-sg-2-ray-of-frost-held.ron")).unwrap();
    let (_, full) = scenario::run_keeping(&ls, None);
    let full = full.unwrap();
    let k = (0..=full.journal().len())
        .rev()
        .find(|k| {
            let c = save::rebuild(&full, *k).unwrap();
            (0..c.len() as u32)
                .any(|i| c.get::<Casting>(Cid(i)).is_some_and(|x| x.0.as_ref().is_some_and(|a| a.holding)))
        })
        .expect("a moment with a held cast");
    let c = save::rebuild(&full, k).unwrap();
    let mut s = SaveFile::capture(&c, &ls.scenario.name).unwrap();
    s.meta.label = "v1 fixture: a cast held".into();
    s.meta.saved_at = 1_764_547_200;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    save::write_atomic(&path, &s).unwrap();
}

#[test]
fn migration_the_v1_fixture_still_loads_exactly() {
    if bless() {
        make_v1_fixture();
    }
    let path = root().join(V1);
    let loaded = save::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.save.version, 1);
    assert_eq!(loaded.save.meta.saved_at, 1_764_547_200);
    assert_eq!(loaded.save.meta.ruleset, "segments");
    assert_eq!(loaded.combat.state_hash(), loaded.save.state.hash.0);
    let c = &loaded.combat;
    assert!(
        (0..c.len() as u32).any(|i| c.get::<Casting>(Cid(i)).is_some_and(|x| x.0.as_ref().is_some_and(|a| a.holding))),
        "the held cast comes back"
    );
}

// ---------------------------------------------------------------- damaged files and writes

/// A small save: two creatures, a few commands, the installed ruleset named by its hash.
fn small_save() -> (SaveFile, String) {
    let specs = vec![
        CombatantSpec { name: "A".into(), side: "x".into(), at: (0, 0), hp: 12, ..CombatantSpec::default() },
        CombatantSpec { name: "B".into(), side: "y".into(), at: (1, 0), hp: 12, ..CombatantSpec::default() },
    ];
    let mut c = Combat::new(ruleset("homebrew-d20"), 5, &specs).unwrap();
    ai::play(&mut c, ALL, 4);
    let s = SaveFile::capture(&c, "small").unwrap().with_installed_ruleset();
    let text = s.to_ron();
    (s, text)
}

#[test]
fn a_small_save_truncated_at_every_byte_gives_clean_errors() {
    let (_, text) = small_save();
    assert!(text.len() < 4_000, "small: {} bytes", text.len());
    assert!(save::restore(save::parse("small.ron", &text).unwrap(), "small.ron").is_ok());
    for k in 0..text.len() {
        let cut = &text[..k];
        match save::parse("small.ron", cut) {
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.starts_with("small.ron"), "{k}: {msg}");
                if let SaveError::Corrupt(d) = &e {
                    assert!(d.line >= 1 && d.col >= 1 && !d.message.is_empty(), "{k}: {msg}");
                }
            }
            Ok(s) => {
                assert!(text[k..].trim().is_empty(), "{k}: a truncated save parsed");
                assert!(save::restore(s, "small.ron").is_ok());
            }
        }
    }
    // Bytes changed here and there: parsed and restored, or a clean error, never a panic.
    let bytes = text.as_bytes();
    for k in (0..bytes.len()).step_by(5) {
        for b in [b'9', b'x', b')', b'"'] {
            let mut v = bytes.to_vec();
            v[k] = b;
            let Ok(t) = String::from_utf8(v) else { continue };
            if let Ok(s) = save::parse("small.ron", &t) {
                let _ = save::restore(s, "small.ron").map(|l| l.combat.state_hash());
            }
        }
    }
}

#[test]
fn corrupt_mismatched_too_new_and_foreign_files_are_named_errors() {
    let (s, text) = small_save();
    // Too new.
    let newer = text.replacen("version: 2,", "version: 3,", 1);
    assert_eq!(
        save::parse("n.ron", &newer).unwrap_err(),
        SaveError::TooNew { file: "n.ron".into(), version: 3, supported: save::FORMAT_VERSION }
    );
    // A newer file with fields this version does not know is still "too new", not corrupt.
    let newer = newer.replacen("seed:", "weather: Rain,\n    seed:", 1);
    assert!(matches!(save::parse("n.ron", &newer), Err(SaveError::TooNew { .. })));
    // A broken file of this version is corrupt, not "too new" (issue 26, the save sample's
    // second half: the guard `v > FORMAT_VERSION` → `true` called every broken file too new).
    let broken = text.replacen("seed: 5", "seed: 5 ]", 1);
    assert!(matches!(save::parse("s.ron", &broken), Err(SaveError::Corrupt(_))), "{:?}", save::parse("s.ron", &broken));
    // Version 0 was never written: corrupt, with the line of its `version` field; and a file
    // with no version at all is not a save.
    let zero = text.replacen("version: 2,", "version: 0,", 1);
    let e = save::parse("z.ron", &zero).unwrap_err();
    let SaveError::Corrupt(d) = &e else { panic!("{e}") };
    assert_eq!(d.message, "version: 0 is not a save format version", "{e}");
    assert_eq!(d.line, text.lines().position(|l| l.contains("version: 2,")).unwrap() + 1, "{e}");
    let none = text.replacen("version: 2,", "", 1);
    let e = save::parse("v.ron", &none).unwrap_err();
    assert!(e.to_string().contains("version: missing (not a save file?)"), "{e}");
    // Unchanged, it restores under the installed ruleset of its name (found by cargo-mutants).
    let ok = save::restore(save::parse("ok.ron", &text).unwrap(), "ok.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ok.combat.ruleset().name, "homebrew-d20");
    // Mismatched: the saved hash disagrees with the replay.
    let wrong = text.replacen(&format!("hash: \"{}\"", s.state.hash), "hash: \"0000000000000001\"", 1);
    let e = save::restore(save::parse("m.ron", &wrong).unwrap(), "m.ron").err().unwrap();
    assert!(matches!(e, SaveError::Mismatched { .. }), "{e}");
    assert!(e.to_string().contains("mismatched save"), "{e}");
    // A bad field names line, column and field.
    let bad = text.replacen("seed: 5", "seed: -5", 1);
    let e = save::parse("b.ron", &bad).unwrap_err();
    let SaveError::Corrupt(d) = &e else { panic!("{e}") };
    assert!(d.message.starts_with("seed:"), "{e}");
    assert_eq!(d.line, text.lines().position(|l| l.contains("seed: 5")).unwrap() + 1);
    // An encounter file is not a save.
    let enc = std::fs::read_to_string(root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let e = save::parse("e.ron", &enc).unwrap_err();
    assert!(e.to_string().starts_with("e.ron:"), "{e}");
    // A file that is not there.
    let e = save::load(Path::new("/nonexistent/save.ron")).err().unwrap();
    assert!(matches!(e, SaveError::Io { .. }), "{e}");
    // A ruleset named by a hash that no installed ruleset has.
    let other = text.replacen(
        &save::ruleset_hash(&{
            let mut r = ruleset("homebrew-d20");
            r.round_cap = s.encounter.round_cap;
            r
        })
        .to_string(),
        "00000000000000aa",
        1,
    );
    let e = save::restore(save::parse("r.ron", &other).unwrap(), "r.ron").err().unwrap();
    assert!(e.to_string().contains("has changed since this was saved"), "{e}");
}

#[test]
fn of_two_installed_rulesets_of_one_name_the_save_takes_the_one_with_its_hash() {
    // A designer's variant copied into the rulesets folder without a new name: both files say
    // `homebrew-d20`. The save names its ruleset by name and content hash, so it restores under
    // the one with its hash, whichever file comes first (issue 26, the save sample's second half:
    // `ruleset_hash(&rs) == *hash` → `!=` kept the wrong one and refused the file).
    let (_, text) = small_save();
    let variant =
        crate::common::shipped_text_with("homebrew-d20.ron", r#"damage: "1d8+STR")"#, r#"damage: "1d10+STR")"#);
    let shipped = std::fs::read_to_string(root().join("assets/rulesets/homebrew-d20.ron")).unwrap();
    for (first, second) in [(&shipped, &variant), (&variant, &shipped)] {
        let dir = temp_dir("two-of-one-name");
        let rulesets = dir.join("assets/rulesets");
        std::fs::create_dir_all(&rulesets).unwrap();
        std::fs::write(rulesets.join("a.ron"), first).unwrap();
        std::fs::write(rulesets.join("b.ron"), second).unwrap();
        let file = dir.join("save.ron");
        let name = file.display().to_string();
        let loaded = save::restore(save::parse(&name, &text).unwrap(), &name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.combat.ruleset().name, "homebrew-d20");
        let sword = |rs: &Ruleset| rs.ability("sword").map(|d| d.effect.clone());
        assert_eq!(sword(loaded.combat.ruleset()), sword(&ruleset("homebrew-d20")), "the shipped one, not the variant");
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = crate::common::tmp_root().join(format!("skirmish-saves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `skirmish scenario FILE --replay-out OUT`, the real program writing a save file, under
/// `wrapper` (a program and its arguments, the binary's path after them) if one is given.
fn write_replay_with(wrapper: &[&str], scenario_file: &Path, out: &Path) -> std::process::Output {
    let bin = env!("CARGO_BIN_EXE_skirmish");
    let mut cmd = match wrapper.split_first() {
        Some((program, args)) => {
            let mut c = std::process::Command::new(program);
            c.args(args).arg(bin);
            c
        }
        None => std::process::Command::new(bin),
    };
    cmd.arg("scenario").arg(scenario_file).arg("--replay-out").arg(out).current_dir(root());
    cmd.output().unwrap_or_else(|e| panic!("cannot run {wrapper:?} {bin}: {e}"))
}

#[test]
fn a_write_killed_halfway_leaves_the_old_save_intact() {
    // The real program, killed by the kernel in the middle of writing a save: a file-size limit
    // (RLIMIT_FSIZE) of half the new file sends SIGXFSZ when the write reaches it, a crash at
    // that byte. A program writing the save in place (`fs::write(path, ..)`) has truncated the
    // old save by then and dies having written half of the new one.
    use std::os::unix::process::ExitStatusExt;
    let dir = temp_dir("killed");
    let path = dir.join("slot1.ron");
    let (small, big) = (golden_source("segments"), golden_source("pf2e"));
    let out = write_replay_with(&[], &small, &path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let old = std::fs::read(&path).unwrap();
    let old_hash = save::load(&path).unwrap().combat.state_hash();
    let full = dir.join("full.ron");
    assert!(write_replay_with(&[], &big, &full).status.success());
    let new_len = std::fs::metadata(&full).unwrap().len();
    std::fs::remove_file(&full).unwrap();
    assert!(new_len > 4096, "{new_len}");
    let limit = format!("--fsize={}", new_len / 2);
    // (No core file: SIGXFSZ's default action dumps one.)
    let out = write_replay_with(&["prlimit", "--core=0", &limit, "--"], &big, &path);
    const SIGXFSZ: i32 = 25; // Linux on x86 and ARM
    assert_eq!(out.status.signal(), Some(SIGXFSZ), "killed by SIGXFSZ mid-write: {out:?}");
    assert_eq!(std::fs::read(&path).unwrap(), old, "the old save is untouched, byte for byte");
    assert_eq!(save::load(&path).unwrap().combat.state_hash(), old_hash);
    // What the killed write left: one hidden temp file, half written, beside the save.
    let files: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    let tmp = files.iter().find(|f| f.starts_with(".slot1.ron.tmp-")).expect("the temp file");
    assert_eq!(std::fs::metadata(dir.join(tmp)).unwrap().len(), new_len / 2);
    // The save list ignores it.
    let listed = save::list(&dir);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].path, path);
    // A write that is not killed replaces the old save.
    assert!(write_replay_with(&[], &big, &path).status.success());
    assert_eq!(std::fs::metadata(&path).unwrap().len(), new_len);
    assert_ne!(save::load(&path).unwrap().combat.state_hash(), old_hash);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_save_is_synced_before_its_rename_and_its_folder_after() {
    // What only a power cut would show, read off the system calls of the real program (strace):
    // the new file's data reaches the disk before it takes the save's name, and the rename
    // reaches it before the program says it saved. Without the first fsync, a power cut right
    // after the rename can leave an empty or half-written save under the old name.
    let dir = temp_dir("fsync");
    let path = dir.join("slot1.ron");
    let trace = dir.join("trace.txt");
    let trace_arg = trace.to_str().unwrap();
    let wrapper = ["strace", "-f", "-e", "trace=openat,fsync,fdatasync,rename,renameat,renameat2", "-o", trace_arg];
    let out = match std::process::Command::new("strace").arg("-V").output() {
        Ok(_) => write_replay_with(&wrapper, &golden_source("pf2e"), &path),
        Err(e) => panic!("this test reads system calls with strace, which is not here ({e}): apt-get install strace"),
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("Operation not permitted"), "strace may not trace here (ptrace is not allowed): {stderr}");
    assert!(out.status.success(), "{stderr}");
    let text = std::fs::read_to_string(&trace).unwrap();
    // Each line: "PID  call(args) = result".
    let calls: Vec<&str> =
        text.lines().filter_map(|l| l.split_once(char::is_whitespace)).map(|(_, c)| c.trim_start()).collect();
    let fd = |l: &str| l.rsplit_once("= ").and_then(|(_, r)| r.trim().parse::<i32>().ok());
    let find = |from: usize, what: &dyn Fn(&str) -> bool| -> usize {
        from + calls[from..]
            .iter()
            .position(|c| what(c))
            .unwrap_or_else(|| panic!("not found after call {from}: {calls:#?}"))
    };
    let path_str = path.to_str().unwrap();
    let dir_str = dir.to_str().unwrap();
    let open_tmp = find(0, &|c| c.starts_with("openat(") && c.contains("/.slot1.ron.tmp-") && c.contains("O_CREAT"));
    let tmp_fd = fd(calls[open_tmp]).unwrap();
    let sync_tmp = find(open_tmp, &|c| c.starts_with(&format!("fsync({tmp_fd})")));
    let rename = find(open_tmp, &|c| {
        c.starts_with("rename") && c.contains(".slot1.ron.tmp-") && c.contains(&format!("\"{path_str}\""))
    });
    assert!(sync_tmp < rename, "the temp file is synced before the rename: {calls:#?}");
    let open_dir = find(rename, &|c| c.starts_with("openat(") && c.contains(&format!("\"{dir_str}\"")));
    let dir_fd = fd(calls[open_dir]).unwrap();
    find(open_dir, &|c| c.starts_with(&format!("fsync({dir_fd})")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_save_list_shows_encounter_ruleset_round_and_date_newest_first() {
    let dir = temp_dir("list");
    let (mut a, _) = small_save();
    a.meta.saved_at = 100;
    save::write_atomic(&dir.join("a.ron"), &a).unwrap();
    let (_, full) = scenario::run_keeping(&scenario::load(&golden_source("pf1e")).unwrap(), None);
    let mut b = SaveFile::capture(&full.unwrap(), "brawl").unwrap();
    b.meta.saved_at = 200;
    save::write_atomic(&dir.join("b.ron"), &b).unwrap();
    std::fs::write(dir.join("c.ron"), "Save(version: 9)").unwrap();
    let listed = save::list(&dir);
    let names: Vec<_> = listed.iter().map(|l| l.path.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["b.ron", "a.ron", "c.ron"]);
    let m = listed[0].meta.as_ref().unwrap();
    assert_eq!((m.encounter.as_str(), m.ruleset.as_str(), m.saved_at), ("brawl", "pf1e", 200));
    assert_eq!(m.round, b.state.clock.0);
    assert!(matches!(listed[2].meta, Err(SaveError::TooNew { version: 9, .. })));
    // Newest first, not by name or round: a.ron saved again later comes first, though its name
    // sorts first and its fight has fewer rounds.
    a.meta.saved_at = 300;
    save::write_atomic(&dir.join("a.ron"), &a).unwrap();
    assert!(a.state.clock.0 < b.state.clock.0);
    let listed = save::list(&dir);
    let names: Vec<_> = listed.iter().map(|l| l.path.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["a.ron", "b.ron", "c.ron"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_state_hash_is_the_same_in_another_process() {
    // The golden replays carry hashes computed by other processes (and other machines); the
    // CLI, a separate process, must agree with this one.
    let path = golden_dir().join("segments.ron");
    let s = save::read(&path).unwrap();
    let (c, _) = s.replay("x", false, |_, _| {}).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["replay", &path.display().to_string(), "--verify"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("state hash {:016x}", c.state_hash())), "{text}");
}

/// Save size and load time of a 100-round fight (median of 7 loads). A measurement, not a test:
/// `cargo test --release --no-default-features --test integration saves::measure -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_a_100_round_fight() {
    let mut enc = Encounter::load(&root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    enc.max_rounds = Some(101);
    for c in &mut enc.combatants {
        c.hp = 100_000;
    }
    let mut c = enc.start(ruleset("homebrew-d20"), 1).unwrap();
    ai::play(&mut c, ALL, 1_000_000);
    let s = SaveFile::capture(&c, "100 rounds").unwrap();
    let text = s.to_ron();
    let mut times = Vec::new();
    for _ in 0..7 {
        let t = std::time::Instant::now();
        let l = save::restore(save::parse("m.ron", &text).unwrap(), "m.ron").unwrap();
        times.push(t.elapsed());
        assert_eq!(l.combat.state_hash(), c.state_hash());
    }
    times.sort();
    eprintln!(
        "100-round fight: round {}, {} journal entries, {} log events, save {} bytes, load median {:?}",
        c.turn().round,
        s.journal.len(),
        c.log().events.len(),
        text.len(),
        times[3]
    );
}
