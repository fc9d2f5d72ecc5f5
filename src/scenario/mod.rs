//! Scenario files: load, check and run scripted combats, and report each expectation.

pub mod format;

use std::path::Path;

use crate::ai::{self, AiScope};
use crate::encounter::Encounter;
use crate::rules::command::Rejection;
use crate::rules::command::{ActIntent, Choice, Command, Decider, GmInput, OpeningUse};
use crate::rules::components::{
    ActionPool, AssistBonuses, Casting, Conditions, GridPos, Health, HeldActions, HeldTrigger,
};
use crate::rules::data::{DataError, parse_ron, read_data_file, resolve_encounter, resolve_ruleset};
use crate::rules::driver::Combat;
use crate::rules::log::{CombatEvent, CommandOutcomes};
use crate::rules::map::BattleMap;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup;
use crate::rules::state::{DecisionKind, EngineStatus, Pending};
use format::{EventPattern, Expect, GmStep, Scenario, Step};

/// A scenario with its ruleset, both checked.
#[derive(Debug, Clone)]
pub struct LoadedScenario {
    /// File path.
    pub file: String,
    /// The scenario; when it names an encounter, its `combatants` are the encounter's for this
    /// ruleset.
    pub scenario: Scenario,
    /// The ruleset it names.
    pub ruleset: Ruleset,
    /// The battle map: the scenario's `map`, the encounter's, or the open plane.
    pub map: BattleMap,
    /// The mods it loads (its `mods` and any asked for with `--mod`).
    pub mods: crate::modding::LoadedMods,
}

/// Load and check a scenario file and the ruleset it names. Every error is `file:line:col: msg`.
pub fn load(path: &Path) -> Result<LoadedScenario, DataError> {
    let text = read_data_file(path)?;
    load_str(path, &text)
}

/// As [`load`], with more mods loaded after the scenario's own (`--mod NAME`).
pub fn load_with_mods(path: &Path, extra: &[String]) -> Result<LoadedScenario, DataError> {
    let text = read_data_file(path)?;
    load_str_with_mods(path, &text, extra)
}

/// As [`load`], from text already read.
pub fn load_str(path: &Path, text: &str) -> Result<LoadedScenario, DataError> {
    load_str_with_mods(path, text, &[])
}

/// As [`load_with_mods`], from text already read.
pub(crate) fn load_str_with_mods(path: &Path, text: &str, extra: &[String]) -> Result<LoadedScenario, DataError> {
    let file = path.display().to_string();
    let mut scenario: Scenario = parse_ron(&file, text)?;
    // Mod names are names, never paths: the file's own at their place, `--mod`'s as the option.
    for (i, m) in scenario.mods.iter().enumerate() {
        if let Err(why) = crate::modding::data::check_mod_name(m) {
            let (line, col) = crate::rules::data::locate(text, &format!("\"{m}\""))
                .or_else(|| crate::rules::data::locate(text, "mods"))
                .unwrap_or((1, 1));
            return Err(DataError { file, line, col, message: format!("mods[{i}]: {why}") });
        }
    }
    for m in extra {
        if let Err(why) = crate::modding::data::check_mod_name(m) {
            return Err(DataError { file, line: 1, col: 1, message: format!("--mod: {why}") });
        }
    }
    for m in extra {
        if !scenario.mods.contains(m) {
            scenario.mods.push(m.clone());
        }
    }
    let mods = crate::modding::load_mods(
        &crate::modding::ModRegistry::current(),
        &crate::modding::mods_dir_near(path),
        &scenario.mods,
    )
    .map_err(|m| DataError::at_text(&file, text, "mods", format!("mods: {m}")))?;
    let at_ruleset = |m: String| DataError::at_text(&file, text, &format!("\"{}\"", scenario.ruleset), m);
    let ruleset = match mods.data.ruleset(&scenario.ruleset, &|name| {
        let rpath = resolve_ruleset(path, name).map_err(|m| at_ruleset(format!("ruleset: {m}")))?;
        Ruleset::load(&rpath)
    }) {
        Some(r) => r?,
        None => {
            let rpath = resolve_ruleset(path, &scenario.ruleset).map_err(|m| at_ruleset(format!("ruleset: {m}")))?;
            let mut rs = Ruleset::load(&rpath).map_err(|e| {
                if e.message.starts_with("cannot read") {
                    at_ruleset(format!("ruleset: `{}` {}", scenario.ruleset, e.message))
                } else {
                    e
                }
            })?;
            mods.data.apply(&mut rs)?;
            rs
        }
    };
    // The Rust mods' own conditions and abilities (issue 28), checked as data is.
    let ruleset = crate::rules::modding::ruleset_with_mods(ruleset, &mods.code)
        .map_err(|e| DataError::at_text(&file, text, "mods", format!("mods: {e}")))?;
    let mut ruleset = ruleset;
    let rows: Vec<&str> = scenario.map.iter().map(String::as_str).collect();
    let mut map =
        BattleMap::from_rows(&rows).map_err(|m| crate::encounter::map_error(&file, text, &scenario.map, &m))?;
    let mut max_rounds = scenario.max_rounds;
    if let Some(name) = scenario.encounter.clone() {
        let at_encounter = |m: String| DataError::at_text(&file, text, &format!("\"{name}\""), m);
        if !scenario.combatants.is_empty() {
            return Err(DataError::at_text(
                &file,
                text,
                "combatants",
                "combatants: give either `combatants` or `encounter`, not both",
            ));
        }
        if !scenario.map.is_empty() {
            return Err(DataError::at_text(
                &file,
                text,
                "map",
                "map: an encounter brings its own map; leave `map` out",
            ));
        }
        let epath = match mods.data.encounter(&name) {
            Some(p) => p.to_path_buf(),
            None => resolve_encounter(path, &name).map_err(|m| at_encounter(format!("encounter: {m}")))?,
        };
        let etext = read_data_file(&epath).map_err(|e| at_encounter(format!("encounter: `{name}` {}", e.message)))?;
        let efile = epath.display().to_string();
        let enc = Encounter::from_ron_str(&efile, &etext)?;
        enc.validate(&efile, &etext, &ruleset)?;
        scenario.combatants = enc.specs_for(&ruleset);
        map = enc.battle_map();
        max_rounds = max_rounds.or(enc.max_rounds);
    }
    if let Some(cap) = max_rounds {
        ruleset.round_cap = cap;
    }
    check(&file, text, &scenario, &ruleset, &map)?;
    Ok(LoadedScenario { file, scenario, ruleset, map, mods })
}

/// Check names, abilities and conditions in a scenario against its ruleset, and its squares
/// against its map.
fn check(file: &str, text: &str, s: &Scenario, rs: &Ruleset, map: &BattleMap) -> Result<(), DataError> {
    if s.combatants.is_empty() {
        return Err(DataError::at_text(
            file,
            text,
            "Scenario",
            "combatants: a scenario needs `combatants` or an `encounter`",
        ));
    }
    if let Err(e) = setup::validate_on(rs, &s.combatants, map) {
        return Err(e.at(file, text, "combatants"));
    }
    let names: Vec<&str> = s.combatants.iter().map(|c| c.name.as_str()).collect();
    let who = |n: &str, field: &str| -> Result<(), DataError> {
        if names.contains(&n) {
            Ok(())
        } else {
            Err(DataError::at_text(file, text, &format!("\"{n}\""), format!("steps: {field}: unknown combatant `{n}`")))
        }
    };
    let ability = |a: &str| -> Result<(), DataError> {
        if rs.ability(a).is_some() {
            Ok(())
        } else {
            Err(DataError::at_text(
                file,
                text,
                &format!("\"{a}\""),
                format!("steps: ability: `{a}` is not in ruleset `{}`", rs.name),
            ))
        }
    };
    let condition = |c: &str| -> Result<(), DataError> {
        if rs.condition(c).is_some() {
            Ok(())
        } else {
            Err(DataError::at_text(
                file,
                text,
                &format!("\"{c}\""),
                format!("steps: condition: `{c}` is not in ruleset `{}`", rs.name),
            ))
        }
    };
    let event = |p: &EventPattern| -> Result<(), DataError> {
        if let Some(w) = &p.who {
            who(w, "who")?;
        }
        if CombatEvent::KINDS.contains(&p.kind.as_str()) {
            Ok(())
        } else {
            Err(DataError::at_text(
                file,
                text,
                &format!("\"{}\"", p.kind),
                format!("steps: kind: `{}` is not an event kind; one of: {}", p.kind, CombatEvent::KINDS.join(", ")),
            ))
        }
    };
    if !s.steps.iter().any(|st| matches!(st, Step::Expect(_))) {
        return Err(DataError::at_text(file, text, "steps", "steps: a scenario needs at least one Expect step"));
    }
    for step in &s.steps {
        match step {
            Step::Act { actor, ability: a, targets, .. } => {
                who(actor, "actor")?;
                ability(a)?;
                for t in targets {
                    who(t, "targets")?;
                }
            }
            Step::Hold { actor, ability: a, targets, by, .. } => {
                who(actor, "actor")?;
                ability(a)?;
                for t in targets {
                    who(t, "targets")?;
                }
                if let Some(b) = by {
                    who(b, "by")?;
                }
            }
            Step::EndTurn(n)
            | Step::Defend(n, _)
            | Step::Delay(n)
            | Step::ReturnFromDelay(n)
            | Step::LoseFirst(n, _)
            | Step::HoldCast(n, _)
            | Step::Release(n) => who(n, "creature")?,
            Step::Triggered(n, a) => {
                who(n, "creature")?;
                if let Some(a) = a {
                    ability(a)?;
                }
            }
            Step::InitiativeOrder(v) => {
                for n in v {
                    who(n, "InitiativeOrder")?;
                }
            }
            Step::Opportunity(n, a) => {
                who(n, "creature")?;
                if let Some(a) = a {
                    ability(a)?;
                }
            }
            Step::UseOpening { who: n, ability: a, targets, .. } => {
                who(n, "who")?;
                if let Some(a) = a {
                    ability(a)?;
                }
                for t in targets {
                    who(t, "targets")?;
                }
            }
            Step::Gm(g) => match g {
                GmStep::Opening(v) => {
                    for n in v {
                        who(n, "Opening")?;
                    }
                }
                GmStep::Interrupt(n)
                | GmStep::HitBy(n, _)
                | GmStep::PermanentWound(n)
                | GmStep::AreaAssist(n)
                | GmStep::SetAware(n, _) => who(n, "creature")?,
                GmStep::Condition { who: n, condition: c, .. } => {
                    who(n, "who")?;
                    condition(c)?;
                }
            },
            Step::Expect(e) => match e {
                Expect::Turn(n)
                | Expect::Actions(n, _)
                | Expect::Hp(n, _)
                | Expect::Position(n, _)
                | Expect::Held(n, _)
                | Expect::Activity(n, _)
                | Expect::AssistBonus(n, _)
                | Expect::Reactions(n, _) => who(n, "expectation")?,
                Expect::Holding(n, _) | Expect::Items(n, _, _) => who(n, "expectation")?,
                Expect::NextTurnIf(n, a, _) => {
                    who(n, "expectation")?;
                    ability(a)?;
                }
                Expect::Forecast(v) => {
                    for (n, _, _) in v {
                        who(n, "Forecast")?;
                    }
                }
                Expect::ConditionValue(n, c, _) | Expect::Left(n, c, _) => {
                    who(n, "expectation")?;
                    condition(c)?;
                }
                Expect::Condition(n, c) | Expect::NoCondition(n, c) => {
                    who(n, "expectation")?;
                    condition(c)?;
                }
                Expect::Order(v) => {
                    for n in v {
                        who(n, "Order")?;
                    }
                }
                Expect::Pending(n, k) => {
                    if n != "GM" {
                        who(n, "Pending")?;
                    }
                    if !DecisionKind::NAMES.contains(&k.as_str()) {
                        return Err(DataError::at_text(
                            file,
                            text,
                            &format!("\"{k}\""),
                            format!(
                                "steps: Pending: `{k}` is not a decision kind; one of: {}",
                                DecisionKind::NAMES.join(", ")
                            ),
                        ));
                    }
                }
                Expect::Rejected(k, _) if !Rejection::KINDS.contains(&k.as_str()) => {
                    return Err(DataError::at_text(
                        file,
                        text,
                        &format!("\"{k}\""),
                        format!(
                            "steps: Rejected: `{k}` is not a rejection kind; one of: {}",
                            Rejection::KINDS.join(", ")
                        ),
                    ));
                }
                Expect::Events(v) | Expect::StepEvents(v) => {
                    for p in v {
                        event(p)?;
                    }
                }
                Expect::NoEvent(p) | Expect::StepNoEvent(p) | Expect::Count(p, _) | Expect::StepCount(p, _) => {
                    event(p)?
                }
                _ => {}
            },
            _ => {}
        }
    }
    Ok(())
}

/// The outcome of one expectation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    /// 1-based step number.
    pub step: usize,
    /// What was expected.
    pub what: String,
    /// None if it held, else what was found.
    pub failure: Option<String>,
}

/// A scenario run: every check and the final log.
#[derive(Debug, Clone)]
pub struct Report {
    /// Scenario name.
    pub name: String,
    /// Checks in order.
    pub checks: Vec<CheckResult>,
    /// The combat log as RON text.
    pub log_ron: String,
    /// Events described with names.
    pub log_text: Vec<String>,
}

impl Report {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.failure.is_none())
    }
}

/// Run a loaded scenario; `seed` overrides the file's seed.
pub fn run(ls: &LoadedScenario, seed: Option<u64>) -> Report {
    run_keeping(ls, seed).0
}

/// As [`run`], also returning the combat as it stands after the last step (none if it could not
/// be set up): to export its replay (`crate::save::export_replay_beside`), or for the game to open the
/// scenario at that moment (`skirmish play --scenario FILE`).
pub fn run_keeping(ls: &LoadedScenario, seed: Option<u64>) -> (Report, Option<Combat>) {
    let s = &ls.scenario;
    let mut checks = Vec::new();
    let seed = seed.unwrap_or(s.seed);
    let mut combat =
        match Combat::with_mods(ls.ruleset.clone(), seed, &s.combatants, ls.map.clone(), &s.dice, &ls.mods.code) {
            Ok(c) => c,
            Err(e) => {
                checks.push(CheckResult { step: 0, what: "set-up".into(), failure: Some(e.to_string()) });
                return (Report { name: s.name.clone(), checks, log_ron: String::new(), log_text: Vec::new() }, None);
            }
        };
    let cid = |c: &Combat, n: &str| c.cid(n).expect("names were checked when loading");
    let mut step_log_start = 0;
    let mut last_rejection: Option<(usize, String)> = None;
    for (i, step) in s.steps.iter().enumerate() {
        let n = i + 1;
        let cmd = match step {
            Step::Expect(e) => {
                let failure = expect(&mut combat, e, step_log_start);
                if let Expect::Rejected(..) | Expect::Accepted = e {
                    last_rejection = None;
                }
                checks.push(CheckResult { step: n, what: as_written(e), failure });
                continue;
            }
            Step::Force(v) => {
                combat.force_dice(v.iter().copied());
                continue;
            }
            Step::AiPlay(k) => {
                step_log_start = combat.log().events.len();
                ai::play(&mut combat, AiScope { gm: true, all_creatures: true }, *k as usize);
                continue;
            }
            Step::Act { actor, ability, targets, to, mode, surprise } => Command::Act(ActIntent {
                actor: cid(&combat, actor),
                ability: ability.clone(),
                targets: targets.iter().map(|t| cid(&combat, t)).collect(),
                to: to.map(|(x, y)| GridPos { x, y }),
                mode: mode.clone(),
                surprise: *surprise,
            }),
            Step::Hold { actor, ability, targets, by, on } => Command::Hold {
                actor: cid(&combat, actor),
                ability: ability.clone(),
                targets: targets.iter().map(|t| cid(&combat, t)).collect(),
                trigger: HeldTrigger { by: by.as_ref().map(|b| cid(&combat, b)), on: *on },
            },
            Step::EndTurn(a) => Command::EndTurn { actor: cid(&combat, a) },
            Step::Defend(w, m) => {
                Command::Decide { by: Decider::Creature(cid(&combat, w)), choice: Choice::Defend(*m) }
            }
            Step::Opportunity(w, a) => {
                Command::Decide { by: Decider::Creature(cid(&combat, w)), choice: Choice::Opportunity(a.clone()) }
            }
            Step::UseOpening { who, ability, targets, to, mode } => Command::Decide {
                by: Decider::Creature(cid(&combat, who)),
                choice: Choice::Opening(ability.as_ref().map(|a| OpeningUse {
                    ability: a.clone(),
                    targets: targets.iter().map(|t| cid(&combat, t)).collect(),
                    to: to.map(|(x, y)| GridPos { x, y }),
                    mode: mode.clone(),
                })),
            },
            Step::Approve(b) => Command::Decide { by: Decider::Gm, choice: Choice::Approve(*b) },
            Step::Delay(w) => Command::Delay { actor: cid(&combat, w) },
            Step::ReturnFromDelay(w) => Command::ReturnFromDelay { actor: cid(&combat, w) },
            Step::Triggered(w, a) => {
                Command::Decide { by: Decider::Creature(cid(&combat, w)), choice: Choice::Triggered(a.clone()) }
            }
            Step::LoseFirst(w, l) => {
                Command::Decide { by: Decider::Creature(cid(&combat, w)), choice: Choice::LoseFirst(*l) }
            }
            Step::HoldCast(w, h) => {
                Command::Decide { by: Decider::Creature(cid(&combat, w)), choice: Choice::HoldCast(*h) }
            }
            Step::Release(w) => Command::Release { actor: cid(&combat, w) },
            Step::InitiativeOrder(v) => {
                Command::Decide { by: Decider::Gm, choice: Choice::Order(v.iter().map(|n| cid(&combat, n)).collect()) }
            }
            Step::Gm(g) => Command::Gm(match g {
                GmStep::Opening(v) => GmInput::Opening { eligible: v.iter().map(|t| cid(&combat, t)).collect() },
                GmStep::Interrupt(w) => GmInput::Interrupt { who: cid(&combat, w) },
                GmStep::HitBy(w, k) => GmInput::HitBy { who: cid(&combat, w), kind: *k },
                GmStep::Condition { who, condition, rounds, value } => GmInput::ApplyCondition {
                    who: cid(&combat, who),
                    condition: condition.clone(),
                    rounds: *rounds,
                    value: *value,
                },
                GmStep::PermanentWound(w) => GmInput::PermanentWound { who: cid(&combat, w) },
                GmStep::AreaAssist(w) => GmInput::AreaAssist { who: cid(&combat, w) },
                GmStep::SetAware(w, aware) => GmInput::SetAware { who: cid(&combat, w), aware: *aware },
            }),
        };
        if let Some((at, why)) = last_rejection.take() {
            checks.push(CheckResult {
                step: at,
                what: "command accepted".into(),
                failure: Some(format!("rejected: {why} (add Expect(Rejected(..)) if that was meant)")),
            });
        }
        step_log_start = combat.log().events.len();
        // A scenario's steps are a script's, whatever controls the creatures (undo in the game
        // never takes them back).
        if let Err(r) = combat.submit_as(cmd, crate::rules::journal::Issuer::Script) {
            last_rejection = Some((n, format!("{} — {}", r.kind(), combat.explain(&r))));
        }
    }
    if let Some((at, why)) = last_rejection {
        checks.push(CheckResult {
            step: at,
            what: "command accepted".into(),
            failure: Some(format!("rejected: {why}")),
        });
    }
    let dice = combat.world.resource::<crate::rules::dice::Dice>();
    if !dice.forced_errors.is_empty() {
        checks.push(CheckResult {
            step: s.steps.len(),
            what: "forced dice fit".into(),
            failure: Some(dice.forced_errors.join("; ")),
        });
    }
    if dice.forced_left() > 0 {
        let left = dice.forced_left();
        checks.push(CheckResult {
            step: s.steps.len(),
            what: "every forced die is used".into(),
            failure: Some(format!("{left} forced dice were never rolled: check the Force steps")),
        });
    }
    checks.sort_by_key(|c| c.step);
    let log = combat.log();
    let report = Report {
        name: s.name.clone(),
        checks,
        log_ron: log.to_ron(),
        log_text: log.events.iter().map(|e| log.describe(e)).collect(),
    };
    (report, Some(combat))
}

/// A step or pattern as it is written in a scenario file (RON, `Some` left out), for the
/// runner's PASS and FAIL lines.
pub(crate) fn as_written<T: serde::Serialize>(v: &T) -> String {
    let opts = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let pretty = ron::ser::PrettyConfig::new()
        .new_line("")
        .indentor("")
        .separator(" ")
        .struct_names(false)
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true);
    opts.to_string_pretty(v, pretty).unwrap_or_else(|e| format!("<unprintable: {e}>"))
}

/// The top-level fields of an event's text (`Kind { a: 1, b: Some(X { y: 2 }) }`) as
/// (name, value as printed) pairs.
pub(crate) fn event_fields(text: &str) -> Vec<(&str, &str)> {
    let Some(open) = text.find('{') else { return Vec::new() };
    let body = text[open + 1..].trim_end().strip_suffix('}').unwrap_or(&text[open + 1..]);
    let mut out = Vec::new();
    let (mut depth, mut in_str, mut escaped, mut start) = (0i32, false, false, 0usize);
    fn push<'a>(out: &mut Vec<(&'a str, &'a str)>, part: &'a str) {
        if let Some((k, v)) = part.split_once(':') {
            out.push((k.trim(), v.trim()));
        }
    }
    for (i, ch) in body.char_indices() {
        if in_str {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => in_str = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                push(&mut out, &body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&mut out, &body[start..]);
    out
}

fn matches(c: &Combat, p: &EventPattern, e: &crate::rules::log::CombatEvent) -> bool {
    if e.kind() != p.kind {
        return false;
    }
    if let Some(w) = &p.who
        && e.subject().map(|s| c.name(s)) != Some(w.clone())
    {
        return false;
    }
    if p.has.is_none() && p.fields.is_empty() {
        return true;
    }
    let text = c.log().describe(e);
    if let Some(h) = &p.has
        && !text.contains(h.as_str())
    {
        return false;
    }
    if !p.fields.is_empty() {
        let fields = event_fields(&text);
        for (name, want) in &p.fields {
            match fields.iter().find(|(k, _)| k == name) {
                Some((_, got)) if want.matches(got) => {}
                _ => return false,
            }
        }
    }
    true
}

/// Field names in a pattern that no event of its kind in the log has: a likely typo.
fn unknown_fields(c: &Combat, p: &EventPattern) -> Option<String> {
    if p.fields.is_empty() {
        return None;
    }
    let log = c.log();
    let sample = log.events.iter().find(|e| e.kind() == p.kind)?;
    let text = log.describe(sample);
    let have: Vec<&str> = event_fields(&text).into_iter().map(|(k, _)| k).collect();
    let bad: Vec<&str> = p.fields.keys().map(String::as_str).filter(|k| !have.contains(k)).collect();
    (!bad.is_empty()).then(|| format!("{} has no field {} (its fields: {})", p.kind, bad.join(", "), have.join(", ")))
}

/// The events of the last command step.
fn step_events(c: &Combat, from: usize) -> &[CombatEvent] {
    let events = &c.log().events;
    &events[from.min(events.len())..]
}

/// `None` if exactly `n` of `events` match the pattern.
fn count(c: &Combat, p: &EventPattern, events: &[CombatEvent], n: u32, where_: &str) -> Option<String> {
    let got = events.iter().filter(|e| matches(c, p, e)).count();
    if got == n as usize {
        return None;
    }
    let why = unknown_fields(c, p).map(|m| format!(" — {m}")).unwrap_or_default();
    Some(format!("{} matches {got} events of {where_}, expected {n}{why}", as_written(p)))
}

fn in_order(c: &Combat, pats: &[EventPattern], from: usize) -> Option<String> {
    let events = &c.log().events[from.min(c.log().events.len())..];
    let mut i = 0;
    for p in pats {
        match events[i..].iter().position(|e| matches(c, p, e)) {
            Some(k) => i += k + 1,
            None => {
                let why = unknown_fields(c, p).map(|m| format!(" — {m}")).unwrap_or_default();
                return Some(format!("no {} after the events matched before it{why}", as_written(p)));
            }
        }
    }
    None
}

/// Check one expectation; `None` if it holds.
fn expect(c: &mut Combat, e: &Expect, step_log_start: usize) -> Option<String> {
    match e {
        Expect::Forecast(want) => {
            // An empty list checks that nothing is scheduled.
            let got: Vec<(String, u32, u32)> =
                c.forecast(want.len().max(1)).into_iter().map(|t| (c.name(t.who), t.round, t.segment)).collect();
            return if got == *want { None } else { Some(format!("forecast: expected {want:?}, got {got:?}")) };
        }
        Expect::NextTurnIf(n, a, want) => {
            let who = c.cid(n).expect("checked");
            let got = c.next_turn_if(who, a);
            return if got == Some(*want) { None } else { Some(format!("next turn: expected {want:?}, got {got:?}")) };
        }
        _ => {}
    }
    let c: &Combat = c;
    let id = |n: &str| c.cid(n).expect("checked");
    let eq = |what: &str, got: String, want: String| {
        if got == want { None } else { Some(format!("{what}: expected {want}, got {got}")) }
    };
    match e {
        Expect::Turn(n) => eq("turn", format!("{:?}", c.turn().active.map(|a| c.name(a))), format!("{:?}", Some(n))),
        Expect::NoTurn => eq("turn", format!("{:?}", c.turn().active.map(|a| c.name(a))), "None".into()),
        Expect::Round(r) => eq("round", c.turn().round.to_string(), r.to_string()),
        Expect::Clock(r, s) => eq("clock", format!("{:?}", c.clock()), format!("{:?}", (*r, *s))),
        Expect::Order(v) => eq("order", format!("{:?}", current_order(c)), format!("{v:?}")),
        Expect::Actions(n, k) => {
            eq("actions left", c.get::<ActionPool>(id(n)).map_or(0, ActionPool::available).to_string(), k.to_string())
        }
        Expect::Hp(n, h) => eq("hp", c.get::<Health>(id(n)).map_or(0, |x| x.hp).to_string(), h.to_string()),
        Expect::Condition(n, k) => {
            if c.get::<Conditions>(id(n)).is_some_and(|x| x.has(k)) {
                None
            } else {
                Some(format!("{n} does not have `{k}`"))
            }
        }
        Expect::NoCondition(n, k) => {
            if c.get::<Conditions>(id(n)).is_some_and(|x| x.has(k)) {
                Some(format!("{n} has `{k}`"))
            } else {
                None
            }
        }
        Expect::Accepted => match c.world.resource::<CommandOutcomes>().last() {
            Some(Ok(())) => None,
            Some(Err(r)) => Some(format!("the last command was rejected: {} — {}", r.kind(), c.explain(r))),
            None => Some("no command was sent".into()),
        },
        Expect::Rejected(k, text) => match c.world.resource::<CommandOutcomes>().last() {
            Some(Err(r)) if r.kind() == k => match text {
                Some(t) if !c.explain(r).contains(t.as_str()) => {
                    Some(format!("rejected as {k}, but the message `{}` does not contain `{t}`", c.explain(r)))
                }
                _ => None,
            },
            Some(Err(r)) => Some(format!("rejected as {} — {}, not {k}", r.kind(), c.explain(r))),
            Some(Ok(())) => Some("the last command was accepted".into()),
            None => Some("no command was sent".into()),
        },
        Expect::Pending(w, k) => {
            let p = c.world.resource::<Pending>().0.clone();
            let got = p.map(|p| {
                let by = match p.by {
                    Decider::Gm => "GM".to_string(),
                    Decider::Creature(x) => c.name(x),
                };
                format!("{by} {}", p.kind.name())
            });
            eq("pending", format!("{got:?}"), format!("{:?}", Some(format!("{w} {k}"))))
        }
        Expect::NoPending => {
            c.world.resource::<Pending>().0.as_ref().map(|p| format!("a {} decision is pending", p.kind.name()))
        }
        Expect::Events(p) => in_order(c, p, 0),
        Expect::StepEvents(p) => in_order(c, p, step_log_start),
        Expect::NoEvent(p) => {
            c.log().events.iter().find(|e| matches(c, p, e)).map(|e| format!("found {}", c.log().describe(e)))
        }
        Expect::StepNoEvent(p) => step_events(c, step_log_start)
            .iter()
            .find(|e| matches(c, p, e))
            .map(|e| format!("found in this step: {}", c.log().describe(e))),
        Expect::Count(p, n) => count(c, p, &c.log().events, *n, "the log"),
        Expect::StepCount(p, n) => count(c, p, step_events(c, step_log_start), *n, "this step"),
        Expect::Position(n, (x, y)) => eq(
            "position",
            format!("{:?}", c.get::<GridPos>(id(n)).map(|p| (p.x, p.y))),
            format!("{:?}", Some((*x, *y))),
        ),
        Expect::Held(n, k) => {
            eq("held actions", c.get::<HeldActions>(id(n)).map_or(0, |h| h.0.len()).to_string(), k.to_string())
        }
        Expect::Activity(n, want) => {
            let got = c.get::<Casting>(id(n)).and_then(|x| x.0.as_ref().map(|a| (a.ability.clone(), a.paid)));
            eq("activity", format!("{got:?}"), format!("{want:?}"))
        }
        Expect::AssistBonus(n, b) => eq(
            "assist bonus",
            c.get::<AssistBonuses>(id(n)).map_or(0, |a| a.0.iter().map(|x| x.bonus).sum::<i32>()).to_string(),
            b.to_string(),
        ),
        Expect::Winner(w) => match c.status() {
            EngineStatus::Ended => eq("winner", format!("{:?}", c.turn().winner), format!("{w:?}")),
            s => Some(format!("the combat has not ended ({s:?})")),
        },
        Expect::ConditionValue(n, k, v) => {
            let got = c.get::<Conditions>(id(n)).and_then(|x| x.0.get(k).map(|s| s.value));
            eq("condition value", format!("{got:?}"), format!("{:?}", Some(*v)))
        }
        Expect::Left(n, k, v) => {
            let got = c.get::<Conditions>(id(n)).and_then(|x| x.0.get(k).and_then(|s| s.left));
            eq("left", format!("{got:?}"), format!("{:?}", Some(*v)))
        }
        Expect::Holding(n, want) => {
            let got = c
                .get::<Casting>(id(n))
                .and_then(|x| x.0.as_ref().filter(|a| a.holding).map(|a| (a.ability.clone(), a.accrued)));
            eq("holding", format!("{got:?}"), format!("{want:?}"))
        }
        Expect::Items(n, item, k) => {
            let got =
                c.get::<crate::rules::components::Inventory>(id(n)).map_or(0, |i| i.0.get(item).copied().unwrap_or(0));
            eq("items", got.to_string(), k.to_string())
        }
        Expect::Forecast(_) | Expect::NextTurnIf(..) => unreachable!("handled above"),
        Expect::Reactions(n, k) => {
            eq("reactions left", c.get::<ActionPool>(id(n)).map_or(0, |p| p.reactions_left).to_string(), k.to_string())
        }
        Expect::RoundSeconds(secs) => {
            let last = c.log().events.iter().rev().find_map(|e| match e {
                crate::rules::log::CombatEvent::RoundStarted { seconds, .. } => Some(*seconds),
                _ => None,
            });
            eq("round seconds", format!("{last:?}"), format!("{:?}", Some(*secs)))
        }
    }
}

/// Whether a file looks like a ruleset (its first value is `Ruleset(`) rather than a scenario.
pub(crate) fn is_ruleset_file(text: &str) -> bool {
    let body: String = text
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.starts_with("//") && !l.is_empty() && !l.starts_with("#!"))
        .collect::<Vec<_>>()
        .join("\n");
    body.starts_with("Ruleset")
}

/// Check a data file (ruleset, encounter or scenario, told apart by content) without running
/// anything. An encounter is checked against every installed ruleset.
pub fn check_file(path: &Path) -> Result<String, DataError> {
    // A folder is a data mod (one without a mod.ron is told so); a file of a data mod is checked
    // with its whole mod (its rulesets extend others).
    if path.is_dir() {
        return crate::modding::data::check_mod(path).map(|lines| lines.join("\n"));
    }
    if let Some(dir) = path.ancestors().skip(1).take(3).find(|d| d.join("mod.ron").is_file()) {
        return crate::modding::data::check_mod(dir).map(|lines| lines.join("\n"));
    }
    let file = path.display().to_string();
    let text = read_data_file(path)?;
    // Names shown in the game that lack a shipped language (issue 24): warnings, not errors.
    let warn = |lines: Vec<String>| -> String {
        lines.iter().map(|w| format!("\nwarning: {file}: {w} (it shows the default name)")).collect()
    };
    if crate::encounter::is_encounter_file(&text) {
        let ok = crate::encounter::check_text(path, &text)?;
        let e = crate::encounter::Encounter::from_ron_str(&file, &text)?;
        let items = std::iter::once(("the encounter's title".to_string(), &e.names))
            .chain(e.sides.iter().map(|s| (format!("side `{}`", s.name), &s.names)))
            .chain(e.combatants.iter().map(|c| (format!("combatant `{}`", c.name), &c.names)));
        return Ok(ok + &warn(crate::i18n::missing_names(items)));
    }
    if is_ruleset_file(&text) {
        let rs = Ruleset::from_ron_str(&file, &text)?;
        let items = rs
            .abilities
            .iter()
            .map(|a| (format!("ability `{}`", a.id), &a.names))
            .chain(rs.conditions.iter().map(|c| (format!("condition `{}`", c.id), &c.names)));
        Ok(format!(
            "{file}: ok (ruleset `{}`, {} abilities, {} conditions)",
            rs.name,
            rs.abilities.len(),
            rs.conditions.len()
        ) + &warn(crate::i18n::missing_names(items)))
    } else {
        let ls = load_str(path, &text)?;
        Ok(format!("{file}: ok (scenario `{}`, {} steps)", ls.scenario.name, ls.scenario.steps.len()))
    }
}

/// The initiative order as it stands now, by name: Delay and Ready may have moved creatures
/// since combat began (G-P2-10, G-P1-03/04).
pub fn current_order(c: &Combat) -> Vec<String> {
    let mut order = c.turn().order.clone();
    order.sort_by_key(|x| (c.get::<crate::rules::components::Initiative>(*x).map_or(0, |i| i.rank), *x));
    order.iter().map(|x| c.name(*x)).collect()
}
