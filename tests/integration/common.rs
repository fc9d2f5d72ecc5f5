//! Test harness: build combats in code and drive them by name.

use std::collections::BTreeMap;
use std::path::Path;

use skirmish::rules::command::{ActIntent, Choice, Command, Decider, DefenseMethod, GmInput, OpeningUse, Rejection};
use skirmish::rules::components::*;
use skirmish::rules::driver::Combat;
use skirmish::rules::log::CombatEvent;
use skirmish::rules::ruleset::Ruleset;
use skirmish::rules::setup::CombatantSpec;
use skirmish::rules::state::Pending;

/// The text of the shipped ruleset `file` (in `assets/rulesets/`) with `from` replaced by `to`: a
/// variant a designer could write. Panics if `from` is not in it, so that a test never runs the
/// shipped ruleset believing it changed.
pub fn shipped_text_with(file: &str, from: &str, to: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no `{from}`");
    text.replace(from, to)
}

/// [`shipped_text_with`], loaded.
pub fn shipped_with(file: &str, from: &str, to: &str) -> Ruleset {
    Ruleset::from_ron_str(file, &shipped_text_with(file, from, to)).unwrap()
}

/// This test process's folder for the files tests write (`$TMPDIR/skirmish-tests-PID`; each
/// test makes its own folder in it). The first call removes the folders of earlier test processes
/// that are gone (on Linux: no `/proc/PID`), so test runs do not pile folders up in the temporary
/// directory, while test processes running side by side (a mutation run's) keep theirs.
pub fn tmp_root() -> std::path::PathBuf {
    static SWEEP: std::sync::Once = std::sync::Once::new();
    SWEEP.call_once(|| {
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
        if !Path::new("/proc/self").exists() {
            return;
        }
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(pid) =
                name.to_str().and_then(|n| n.strip_prefix("skirmish-tests-")).and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
    let root = std::env::temp_dir().join(format!("skirmish-tests-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("the tests' temporary folder");
    root
}

/// The shipped homebrew-d20 ruleset.
pub fn homebrew() -> Ruleset {
    Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/homebrew-d20.ron"))
        .expect("shipped ruleset loads")
}

/// A combatant with a fixed initiative total, 20 hp and no stats.
pub fn who(name: &str, side: &str, init: i32, at: (i32, i32)) -> CombatantSpec {
    CombatantSpec {
        name: name.into(),
        names: Default::default(),
        side: side.into(),
        stats: BTreeMap::new(),
        hp: 20,
        abilities: vec![],
        initiative: InitiativeSetup::Total(init),
        at,
        movement: BTreeMap::new(),
        controller: Controller::Script,
        conditions: vec![],
        traits: vec![],
        aware: true,
        items: Default::default(),
        loadouts: Default::default(),
        movement_for: Default::default(),
    }
}

/// Builder helpers on a combatant sheet.
pub trait SpecExt {
    /// Set a stat.
    fn stat(self, k: &str, v: i32) -> Self;
    /// Add abilities.
    fn with(self, abilities: &[&str]) -> Self;
    /// Set hit points.
    fn hp(self, hp: i32) -> Self;
}

impl SpecExt for CombatantSpec {
    fn stat(mut self, k: &str, v: i32) -> Self {
        self.stats.insert(k.into(), v);
        self
    }
    fn with(mut self, abilities: &[&str]) -> Self {
        self.abilities.extend(abilities.iter().map(|s| s.to_string()));
        self
    }
    fn hp(mut self, hp: i32) -> Self {
        self.hp = hp;
        self
    }
}

/// A combat driven by names.
pub struct Fight(pub Combat);

impl Fight {
    /// Start a homebrew-d20 combat.
    pub fn new(specs: Vec<CombatantSpec>) -> Self {
        Self::with_ruleset(homebrew(), specs)
    }

    /// Start a combat under any ruleset.
    pub fn with_ruleset(rs: Ruleset, specs: Vec<CombatantSpec>) -> Self {
        Fight(Combat::new(rs, 1, &specs).expect("valid set-up"))
    }

    /// Id by name.
    pub fn id(&self, n: &str) -> Cid {
        self.0.cid(n).unwrap_or_else(|| panic!("no combatant {n}"))
    }

    /// Use an ability on your turn.
    pub fn act(&mut self, actor: &str, ability: &str, targets: &[&str]) -> Result<(), Rejection> {
        let t = targets.iter().map(|n| self.id(n)).collect();
        self.0.submit(Command::Act(ActIntent::new(self.id(actor), ability, t)))
    }

    /// Use an ability with a destination (and mode).
    pub fn act_to(
        &mut self,
        actor: &str,
        ability: &str,
        targets: &[&str],
        to: (i32, i32),
        mode: Option<&str>,
    ) -> Result<(), Rejection> {
        let t = targets.iter().map(|n| self.id(n)).collect();
        let mut i = ActIntent::new(self.id(actor), ability, t);
        i.to = Some(GridPos { x: to.0, y: to.1 });
        i.mode = mode.map(str::to_string);
        self.0.submit(Command::Act(i))
    }

    /// Move on your turn.
    pub fn move_to(&mut self, actor: &str, to: (i32, i32)) -> Result<(), Rejection> {
        self.act_to(actor, "move", &[], to, None)
    }

    /// End the turn.
    pub fn end(&mut self, actor: &str) {
        let a = self.id(actor);
        self.0.submit(Command::EndTurn { actor: a }).expect("end turn");
    }

    /// Hold (or Ready) an ability until `by` does an action of kind `on`.
    pub fn hold(
        &mut self,
        actor: Cid,
        ability: &str,
        targets: Vec<Cid>,
        by: Option<Cid>,
        on: TriggerOn,
    ) -> Result<(), Rejection> {
        let trigger = HeldTrigger { by, on };
        self.0.submit(Command::Hold { actor, ability: ability.into(), targets, trigger })
    }

    /// Answer a defence decision.
    pub fn defend(&mut self, who: &str, m: DefenseMethod) -> Result<(), Rejection> {
        let by = Decider::Creature(self.id(who));
        self.0.submit(Command::Decide { by, choice: Choice::Defend(m) })
    }

    /// Answer an attack-of-opportunity decision.
    pub fn opportunity(&mut self, who: &str, ability: Option<&str>) -> Result<(), Rejection> {
        let by = Decider::Creature(self.id(who));
        self.0.submit(Command::Decide { by, choice: Choice::Opportunity(ability.map(str::to_string)) })
    }

    /// Use (or pass) an opening.
    pub fn opening(&mut self, who: &str, ability: Option<&str>, targets: &[&str]) -> Result<(), Rejection> {
        let by = Decider::Creature(self.id(who));
        let targets = targets.iter().map(|n| self.id(n)).collect();
        let choice = Choice::Opening(ability.map(|a| OpeningUse { ability: a.into(), targets, to: None, mode: None }));
        self.0.submit(Command::Decide { by, choice })
    }

    /// The GM approves or denies.
    pub fn approve(&mut self, yes: bool) -> Result<(), Rejection> {
        self.0.submit(Command::Decide { by: Decider::Gm, choice: Choice::Approve(yes) })
    }

    /// A GM input.
    pub fn gm(&mut self, g: GmInput) -> Result<(), Rejection> {
        self.0.submit(Command::Gm(g))
    }

    /// Force dice.
    pub fn force(&mut self, v: &[i32]) {
        self.0.force_dice(v.iter().copied());
    }

    /// Actions left.
    pub fn actions(&self, who: &str) -> u8 {
        self.0.get::<ActionPool>(self.id(who)).unwrap().available()
    }

    /// Hit points.
    pub fn hp(&self, who: &str) -> i32 {
        self.0.get::<Health>(self.id(who)).unwrap().hp
    }

    /// Whether a condition is on the creature.
    pub fn has(&self, who: &str, cond: &str) -> bool {
        self.0.get::<Conditions>(self.id(who)).unwrap().has(cond)
    }

    /// Square.
    pub fn pos(&self, who: &str) -> (i32, i32) {
        let p = self.0.get::<GridPos>(self.id(who)).unwrap();
        (p.x, p.y)
    }

    /// Whose turn it is.
    pub fn active(&self) -> Option<String> {
        self.0.turn().active.map(|c| self.0.name(c))
    }

    /// The pending decision: (who, kind).
    pub fn pending(&self) -> Option<(String, String)> {
        self.0.world.resource::<Pending>().0.as_ref().map(|p| {
            let by = match p.by {
                Decider::Gm => "GM".to_string(),
                Decider::Creature(c) => self.0.name(c),
            };
            (by, p.kind.name().to_string())
        })
    }

    /// The pending defence options, if a defence decision waits.
    pub fn defense_options(&self) -> Vec<DefenseMethod> {
        match &self.0.world.resource::<Pending>().0 {
            Some(p) => match &p.kind {
                skirmish::rules::state::DecisionKind::Defense { options, .. } => options.clone(),
                _ => vec![],
            },
            None => vec![],
        }
    }

    /// Events logged so far.
    pub fn events(&self) -> &[CombatEvent] {
        &self.0.log().events
    }

    /// Number of events so far (a mark for `since`).
    pub fn mark(&self) -> usize {
        self.events().len()
    }

    /// Events since a mark, described with names.
    pub fn since(&self, mark: usize) -> Vec<String> {
        let log = self.0.log();
        log.events[mark..].iter().map(|e| log.describe(e)).collect()
    }

    /// All events, described with names.
    pub fn text(&self) -> Vec<String> {
        self.since(0)
    }

    /// Index of the first described event since `mark` that starts with `kind` and contains `has`.
    pub fn find(&self, mark: usize, kind: &str, has: &str) -> Option<usize> {
        self.since(mark).iter().position(|e| e.starts_with(kind) && e.contains(has)).map(|i| i + mark)
    }

    /// Whether such an event was logged since `mark`.
    pub fn saw(&self, mark: usize, kind: &str, has: &str) -> bool {
        self.find(mark, kind, has).is_some()
    }

    /// Everything a rejected command must not change.
    pub fn snapshot(&self) -> String {
        let mut s = String::new();
        for i in 0..self.0.len() as u32 {
            let c = Cid(i);
            s.push_str(&format!(
                "{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}\n",
                self.0.get::<ActionPool>(c),
                self.0.get::<Conditions>(c),
                self.0.get::<Casting>(c),
                self.0.get::<HeldActions>(c),
                self.0.get::<AssistBonuses>(c),
                self.0.get::<GridPos>(c),
                self.0.get::<Health>(c),
                self.0.get::<DisengagedFrom>(c),
                self.0.get::<Initiative>(c),
            ));
        }
        s.push_str(&format!(
            "{:?}{:?}{}",
            self.0.turn().active,
            self.0.world.resource::<Pending>().0,
            self.events().len()
        ));
        s
    }
}

/// The shipped pf2e ruleset.
pub fn pf2e() -> Ruleset {
    Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/pf2e.ron"))
        .expect("shipped ruleset loads")
}

/// A pf2e combatant: AC 15, Perception from the initiative total, 30 hp.
pub fn pc(name: &str, side: &str, init: i32, at: (i32, i32)) -> CombatantSpec {
    who(name, side, init, at).stat("AC", 15).hp(30)
}

impl Fight {
    /// Start a pf2e combat.
    pub fn pf2e(specs: Vec<CombatantSpec>) -> Self {
        Self::with_ruleset(pf2e(), specs)
    }

    /// Answer a triggered-ability offer.
    pub fn triggered(&mut self, who: &str, ability: Option<&str>) -> Result<(), Rejection> {
        let by = Decider::Creature(self.id(who));
        self.0.submit(Command::Decide { by, choice: Choice::Triggered(ability.map(str::to_string)) })
    }

    /// Reactions left.
    pub fn reactions(&self, who: &str) -> u8 {
        self.0.get::<ActionPool>(self.id(who)).unwrap().reactions_left
    }

    /// A condition's value.
    pub fn value(&self, who: &str, cond: &str) -> Option<i32> {
        self.0.get::<Conditions>(self.id(who)).unwrap().0.get(cond).map(|c| c.value)
    }

    /// Put a condition on a creature (GM).
    pub fn put(&mut self, who: &str, cond: &str, value: Option<i32>, rounds: Option<u32>) {
        let w = self.id(who);
        self.gm(GmInput::ApplyCondition { who: w, condition: cond.into(), rounds, value }).expect("condition");
    }

    /// Names of the turn steps logged since a mark, for one creature.
    pub fn steps_since(&self, mark: usize, who: &str) -> Vec<String> {
        self.since(mark)
            .into_iter()
            .filter(|e| e.starts_with(&format!("TurnStepBegan {{ who: {who},")))
            .map(|e| e.split("step: ").nth(1).unwrap().trim_end_matches(" }").to_string())
            .collect()
    }
}

/// The shipped pf1e ruleset.
pub fn pf1e() -> Ruleset {
    Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/pf1e.ron"))
        .expect("shipped ruleset loads")
}

/// A pf1e combatant: AC 15, 30 hp, aware.
pub fn p1(name: &str, side: &str, init: i32, at: (i32, i32)) -> CombatantSpec {
    who(name, side, init, at).stat("AC", 15).hp(30)
}

/// Spec helpers for pf1e.
pub trait P1Ext {
    /// Unaware of its opponents at the start.
    fn unaware(self) -> Self;
    /// Add a trait.
    fn with_trait(self, t: &str) -> Self;
}

impl P1Ext for CombatantSpec {
    fn unaware(mut self) -> Self {
        self.aware = false;
        self
    }
    fn with_trait(mut self, t: &str) -> Self {
        self.traits.push(t.into());
        self
    }
}

impl Fight {
    /// Start a pf1e combat.
    pub fn pf1e(specs: Vec<CombatantSpec>) -> Self {
        Self::with_ruleset(pf1e(), specs)
    }
}

/// The shipped segments ruleset.
pub fn segments() -> Ruleset {
    Ruleset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/segments.ron"))
        .expect("shipped ruleset loads")
}

/// A segments combatant: AC 10, 30 hp, Shift 1, Skirmish 3, Sprint 6 squares.
pub fn sg(name: &str, side: &str, init: i32, at: (i32, i32)) -> CombatantSpec {
    let mut s = who(name, side, init, at).stat("AC", 10).hp(30);
    s.movement = [("shift".to_string(), 1), ("skirmish".to_string(), 3), ("sprint".to_string(), 6)].into();
    s
}

impl Fight {
    /// Start a segments combat.
    pub fn segments(specs: Vec<CombatantSpec>) -> Self {
        Self::with_ruleset(segments(), specs)
    }

    /// (round, segment) of the clock now.
    pub fn clock(&self) -> (u32, u32) {
        self.0.clock()
    }

    /// The forecast as (name, round, segment).
    pub fn forecast(&mut self, k: usize) -> Vec<(String, u32, u32)> {
        self.0.forecast(k).into_iter().map(|t| (self.0.name(t.who), t.round, t.segment)).collect()
    }

    /// Answer a completed cast: hold or release.
    pub fn hold_cast(&mut self, who: &str, hold: bool) -> Result<(), Rejection> {
        let by = Decider::Creature(self.id(who));
        self.0.submit(Command::Decide { by, choice: Choice::HoldCast(hold) })
    }

    /// Release a held cast.
    pub fn release(&mut self, who: &str) -> Result<(), Rejection> {
        let a = self.id(who);
        self.0.submit(Command::Release { actor: a })
    }
}
