//! The game master's policy: when the GM opens an opening (HB-29), and for whom (G-HB-10).
//!
//! A GM "may create one at any moment he sees fit" (HB-29); the source's typical triggers are an
//! enemy missing an attack against you and an enemy suffering a debilitating status effect. A
//! [`GmPolicy`] writes a GM's habits down as data: a ruleset gives the default (`gm_policy:` in
//! its file), and an encounter or `skirmish sim --gm-policy FILE` may replace it. The AI GM
//! (`crate::ai::gm`) sends what [`Rules::opening_due`] finds; the game's GM window offers the same
//! call to a person as a suggestion. Either way it is an ordinary `GmInput::Opening` command,
//! checked and journaled as any other.
//!
//! The policy reads only the log and the state: which events since the GM last looked are
//! triggers, and which creatures could take an opening now. `openings: []` is the GM who never
//! opens one.

use serde::{Deserialize, Serialize};

use super::components::Cid;
use super::log::CombatEvent;
use super::state::Rules;

/// When the AI GM opens openings, and for whom. Every field has a default; `()` or
/// `(openings: [])` is "never".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GmPolicy {
    /// The triggers the GM opens an opening on, each with who is eligible (several rules on one
    /// trigger add their creatures up). Empty: never.
    #[serde(default)]
    pub openings: Vec<OpeningRule>,
    /// A creature gets at most this many openings a round (1..=100); past it the GM lets its
    /// trigger go. The shipped default is 1: a GM does not hand the same creature a second
    /// opening in one round, and two creatures with free (bonus) attacks cannot open openings for
    /// each other for ever.
    #[serde(default = "one", deserialize_with = "per_round")]
    pub per_creature_per_round: u32,
    /// Only creatures of these sides get openings; empty: every side.
    #[serde(default)]
    pub sides: Vec<String>,
}

fn one() -> u32 {
    1
}

fn per_round<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if !(1..=100).contains(&v) {
        return Err(serde::de::Error::custom(format!("{v} is out of range 1..=100")));
    }
    Ok(v)
}

impl Default for GmPolicy {
    /// The GM who never opens an opening.
    fn default() -> Self {
        GmPolicy::never()
    }
}

impl GmPolicy {
    /// The GM who never opens an opening.
    pub fn never() -> Self {
        GmPolicy { openings: Vec::new(), per_creature_per_round: 1, sides: Vec::new() }
    }

    /// Whether this GM never opens an opening.
    pub fn is_never(&self) -> bool {
        self.openings.is_empty()
    }

    /// Read a policy file (`sim --gm-policy FILE`): errors at `file:line:col` with the field.
    pub(crate) fn load(path: &std::path::Path) -> Result<Self, super::data::DataError> {
        let text = super::data::read_data_file(path)?;
        super::data::parse_ron(&path.display().to_string(), &text)
    }
}

/// One trigger the GM opens an opening on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningRule {
    /// What happened.
    pub when: OpeningTrigger,
    /// Who may use the opening.
    #[serde(default)]
    pub eligible: Eligible,
}

/// What the GM watches for (HB-29's typical triggers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpeningTrigger {
    /// An attack missed a creature: `AttackMissed`, or `AttackBlocked` by a defensive roll.
    Missed,
    /// A creature gained a debilitating condition (`debilitating: true` in the catalogue).
    Debilitating,
}

/// Who an opening is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Eligible {
    /// G-HB-10: the creature the attack missed; for a debilitating condition, the enemies
    /// engaged with the afflicted creature.
    #[default]
    Default,
    /// The creature the trigger happened to: the one missed, or the one afflicted.
    Subject,
    /// The enemies engaged with that creature (within the ruleset's melee reach).
    EngagedEnemies,
    /// The allies engaged with the same enemies: the subject's side within melee reach of it.
    EngagedAllies,
}

/// A trigger the policy saw: what happened, to whom, and by whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trigger {
    /// The kind of trigger.
    pub when: OpeningTrigger,
    /// The creature missed or afflicted.
    pub subject: Cid,
    /// The attacker, for a miss.
    pub by: Option<Cid>,
    /// The condition, for a debilitating one.
    pub condition: Option<String>,
}

/// An opening the policy calls for now: who is eligible (in no particular order; the engine
/// sorts them by initiative, HB-32) and the triggers behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningCall {
    /// The creatures to offer it to.
    pub eligible: Vec<Cid>,
    /// What called for it, in log order.
    pub because: Vec<Trigger>,
}

/// The opening trigger a log event is (G-HB-10): an attack that missed or was blocked, or a
/// debilitating condition put on. The one place that says which events can call for an opening.
pub(crate) fn trigger_of(rs: &super::ruleset::Ruleset, e: &CombatEvent) -> Option<Trigger> {
    Some(match e {
        CombatEvent::AttackMissed { attacker, target, .. } | CombatEvent::AttackBlocked { attacker, target } => {
            Trigger { when: OpeningTrigger::Missed, subject: *target, by: Some(*attacker), condition: None }
        }
        CombatEvent::ConditionApplied { who, condition, .. }
            if rs.condition(condition).is_some_and(|d| d.debilitating) =>
        {
            Trigger { when: OpeningTrigger::Debilitating, subject: *who, by: None, condition: Some(condition.clone()) }
        }
        _ => return None,
    })
}

impl Rules<'_, '_> {
    /// The opening the ruleset's GM policy calls for after the log events from index `since` on,
    /// if any. Every trigger among them counts, except those before a new round began; the
    /// creatures they make eligible share one opening. A creature is left out when it is down, unable to react, paying for an activity,
    /// the creature whose turn it is (an opening is acting outside your turn, HB-29), of a side
    /// the policy leaves out, or already given `per_creature_per_round` openings this round.
    /// `None` under a ruleset without openings.
    pub(crate) fn opening_due(&self, since: usize) -> Option<OpeningCall> {
        let policy = &self.ruleset.gm_policy;
        // Equivalent mutant (issue 26, docs/testing.md): the first `||` → `&&` only drops the
        // shortcut for a policy that never opens one: with no rules, no trigger finds a creature.
        if policy.is_never() || self.ruleset.openings == super::ruleset::Openings::None || self.turn.ended {
            return None;
        }
        let events = self.log.events.get(since..)?;
        let mut because = Vec::new();
        let mut eligible: Vec<Cid> = Vec::new();
        for e in events {
            let trigger = match e {
                // The engine ends a turn whose pool is spent at once, so the GM may first look
                // at the start of the next turn; across a round's end the moment has passed (an
                // opening is paid from the same round's pool, HB-31).
                CombatEvent::RoundStarted { .. } => {
                    because.clear();
                    eligible.clear();
                    continue;
                }
                e => match trigger_of(&self.ruleset, e) {
                    Some(t) => t,
                    None => continue,
                },
            };
            if !self.exists(trigger.subject) {
                continue;
            }
            // Every rule on this trigger adds its creatures.
            let mut found: Vec<Cid> = policy
                .openings
                .iter()
                .filter(|r| r.when == trigger.when)
                .flat_map(|r| self.eligible_for(&trigger, r.eligible))
                .collect();
            found.retain(|c| self.may_get_opening(*c, policy));
            if found.is_empty() {
                continue;
            }
            for c in found {
                if !eligible.contains(&c) {
                    eligible.push(c);
                }
            }
            because.push(trigger);
        }
        (!eligible.is_empty()).then_some(OpeningCall { eligible, because })
    }

    /// Who a trigger makes eligible under `who`.
    fn eligible_for(&self, t: &Trigger, who: Eligible) -> Vec<Cid> {
        match who {
            Eligible::Default => self.default_eligible(t.when, t.subject),
            Eligible::Subject => vec![t.subject],
            Eligible::EngagedEnemies => self.engaged_enemies(t.subject),
            Eligible::EngagedAllies => {
                let mut allies: Vec<Cid> = self
                    .engaged_enemies(t.subject)
                    .into_iter()
                    .flat_map(|f| self.engaged_enemies(f))
                    .filter(|a| *a != t.subject && !self.hostile(t.subject, *a))
                    .collect();
                allies.sort();
                allies.dedup();
                allies
            }
        }
    }

    /// G-HB-10: who may use an opening by default: the creature an attack missed; for a
    /// debilitating condition, the enemies engaged with the afflicted creature. The engine's
    /// default for an `Opening` that names nobody (`TurnState::opening_hint`) and the policy's
    /// `Eligible::Default` both come from here.
    pub(crate) fn default_eligible(&self, when: OpeningTrigger, subject: Cid) -> Vec<Cid> {
        match when {
            OpeningTrigger::Missed => vec![subject],
            OpeningTrigger::Debilitating => self.engaged_enemies(subject),
        }
    }

    /// Whether the policy may give `who` an opening now (see [`Rules::opening_due`]).
    fn may_get_opening(&self, who: Cid, policy: &GmPolicy) -> bool {
        if self.turn.active == Some(who) || self.is_down(who) || self.cannot_react(who) || self.busy_with(who).is_some()
        {
            return false;
        }
        if !policy.sides.is_empty() && !policy.sides.iter().any(|s| *s == self.c(who).side.0) {
            return false;
        }
        self.openings_this_round(who) < policy.per_creature_per_round
    }

    /// Openings created this round that listed `who` (from the log, back to the round's start).
    pub(crate) fn openings_this_round(&self, who: Cid) -> u32 {
        let mut n = 0;
        for e in self.log.events.iter().rev() {
            match e {
                CombatEvent::RoundStarted { .. } => break,
                CombatEvent::OpeningCreated { eligible, .. } if eligible.contains(&who) => n += 1,
                _ => {}
            }
        }
        n
    }
}

impl OpeningCall {
    /// "Orc missed Knight; Orc is prone", names from `name`.
    pub fn reasons(&self, name: impl Fn(Cid) -> String) -> String {
        self.because
            .iter()
            .map(|t| match (t.when, t.by, &t.condition) {
                (OpeningTrigger::Missed, Some(by), _) => format!("{} missed {}", name(by), name(t.subject)),
                (OpeningTrigger::Missed, None, _) => format!("an attack missed {}", name(t.subject)),
                (OpeningTrigger::Debilitating, _, Some(c)) => format!("{} is {c}", name(t.subject)),
                (OpeningTrigger::Debilitating, _, None) => format!("{} is debilitated", name(t.subject)),
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}
