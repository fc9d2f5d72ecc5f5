//! The built-in AI. It sends the same commands a player would, through the public command
//! interface, and answers decisions for the creatures it plays (and, when asked to, the GM's).
//! It reads the world and returns a command; it never changes rules state itself.
//!
//! Two brains:
//!
//! - [`Brain::Tactical`] ([`tactical`]), the default: focuses on kills, avoids attacks of
//!   opportunity, defends when threatened, fights from range when it can, and spends its whole
//!   budget under every turn model.
//! - [`Brain::Basic`] ([`basic`]), the first AI, kept unchanged so the tactical one can be
//!   measured against it ([`play_sides`]).
//! - [`Brain::Fast`], the simulator's fast tier (issue 22): the tactical AI, except that after an
//!   accepted single-target attack it repeats that attack while its target still stands, instead
//!   of planning the turn again. A tier may be used for statistics only once `skirmish sim
//!   --compare-ai tactical,fast` shows it reproduces the tactical AI's; this candidate does not
//!   (3 of 60 cells fail, see docs/performance.md), so `sim` refuses `--ai fast`.
//!
//! Both are pure functions of the combat state: no randomness of their own, ordered iteration,
//! ties broken by ids.

pub mod basic;
pub mod gm;
pub mod tactical;

use crate::rules::command::{ActIntent, Choice, Command, Decider};
use crate::rules::components::{Cid, Controller, Side};
use crate::rules::driver::Combat;
use crate::rules::state::{DecisionKind, EngineStatus, Pending};

/// Who the AI answers for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AiScope {
    /// Also answer GM decisions (approve every Assist, keep tied players in roster order).
    pub gm: bool,
    /// Play every creature, whatever its controller (for simulations).
    pub all_creatures: bool,
}

/// Which AI plays a creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Brain {
    /// The first AI: nearest-target melee or shot, else walk closer ([`basic`]).
    Basic,
    /// The tactical AI ([`tactical`]).
    #[default]
    Tactical,
    /// The tactical AI that repeats an accepted single-target attack while its target stands
    /// (the simulator's fast tier, `--ai fast`).
    Fast,
}

impl Brain {
    /// Every brain, in the order the command line lists them.
    pub const ALL: [Brain; 3] = [Brain::Tactical, Brain::Fast, Brain::Basic];

    /// The brain's name on the command line and in `summary.json`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Brain::Basic => "basic",
            Brain::Tactical => "tactical",
            Brain::Fast => "fast",
        }
    }

    /// The brain with this name.
    pub(crate) fn from_name(name: &str) -> Option<Brain> {
        Brain::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether the tactical planner chooses this brain's turns (the fast tier plans with it too).
    fn plans_tactically(self) -> bool {
        matches!(self, Brain::Tactical | Brain::Fast)
    }
}

impl std::fmt::Display for Brain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What [`play_by`] and [`play_sides`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayStats {
    /// Commands sent (a fallback sent after a rejection is not counted again).
    pub sent: usize,
    /// Commands the engine rejected.
    pub rejected: usize,
    /// Of those, commands of creatures the tactical AI plays.
    pub rejected_tactical: usize,
    /// Candidates of the tactical AI that the engine turned down before one was taken
    /// (`Combat::try_submit_as`: a refusal there is not recorded).
    pub declined: usize,
}

/// The command the default (tactical) AI sends now, if the engine waits for something the AI
/// answers.
pub fn next_command(combat: &Combat, scope: AiScope) -> Option<Command> {
    next_command_with(combat, scope, Brain::Tactical)
}

/// The command one brain sends now for every creature in scope.
pub fn next_command_with(combat: &Combat, scope: AiScope, brain: Brain) -> Option<Command> {
    next_command_by(combat, scope, |_| brain)
}

/// The command sent now, each creature played by the brain `brain_of` names for it. GM decisions
/// get the same neutral answer whichever brains play.
pub(crate) fn next_command_by(combat: &Combat, scope: AiScope, brain_of: impl Fn(Cid) -> Brain) -> Option<Command> {
    let plays = |c: Cid| scope.all_creatures || combat.controller(c) == Controller::Ai;
    match combat.status() {
        EngineStatus::AwaitingCommand(c) if plays(c) => Some(match brain_of(c) {
            Brain::Basic => basic::turn_command(combat, c),
            Brain::Tactical | Brain::Fast => tactical::turn_command(combat, c),
        }),
        EngineStatus::AwaitingDecision(Decider::Creature(c)) if plays(c) => {
            let choice = match brain_of(c) {
                Brain::Basic => basic::decision(combat, c)?,
                Brain::Tactical | Brain::Fast => tactical::decision(combat, c)?,
            };
            Some(Command::Decide { by: Decider::Creature(c), choice })
        }
        EngineStatus::AwaitingDecision(Decider::Gm) if scope.gm => gm_command(combat),
        EngineStatus::AwaitingReturn => {
            tactical::return_command(combat, |c| plays(c) && brain_of(c).plans_tactically())
        }
        _ => None,
    }
}

/// The GM's answer: approve every Assist; keep tied players in roster order (G-P2-01's default).
pub(crate) fn gm_command(combat: &Combat) -> Option<Command> {
    let p = combat.world.resource::<Pending>().0.as_ref()?;
    let choice = match &p.kind {
        DecisionKind::InitiativeTie { tied } => Choice::Order(tied.clone()),
        _ => Choice::Approve(true),
    };
    Some(Command::Decide { by: Decider::Gm, choice })
}

/// Let the default (tactical) AI answer everything in scope until the engine waits for someone
/// else or the combat ends; at most `max_commands`. Returns how many commands were sent.
pub fn play(combat: &mut Combat, scope: AiScope, max_commands: usize) -> usize {
    play_by(combat, scope, max_commands, |_| Brain::Tactical).sent
}

/// As [`play`], with one brain for every creature.
pub fn play_with(combat: &mut Combat, scope: AiScope, max_commands: usize, brain: Brain) -> usize {
    play_by(combat, scope, max_commands, |_| brain).sent
}

/// As [`play`], each side played by the brain `brain_of_side` names for it (for measuring one AI
/// against another).
pub fn play_sides(
    combat: &mut Combat,
    scope: AiScope,
    max_commands: usize,
    brain_of_side: impl Fn(&str) -> Brain,
) -> PlayStats {
    let sides: Vec<Brain> = (0..combat.len() as u32)
        .map(|i| combat.get::<Side>(Cid(i)).map_or(Brain::Tactical, |s| brain_of_side(&s.0)))
        .collect();
    play_by(combat, scope, max_commands, move |c| sides.get(c.0 as usize).copied().unwrap_or_default())
}

/// As [`play`], each creature played by the brain `brain_of` names for it.
///
/// A rejected command would repeat forever. After a rejected command the basic AI's answer to
/// the same state is tried (tactical creatures only), then the turn is ended.
pub fn play_by(combat: &mut Combat, scope: AiScope, max_commands: usize, brain_of: impl Fn(Cid) -> Brain) -> PlayStats {
    let mut stats = PlayStats::default();
    // The fast tier's memory: the single-target attack a creature last had accepted, in which
    // turn (see [`repeat_attack`]).
    let mut last_attack: Option<(TurnKey, ActIntent)> = None;
    // The AI GM's openings (its policy, `gm::opening_command`), when it answers for the GM.
    while stats.sent < max_commands {
        if scope.gm
            && let Some(open) = gm::opening_command(combat)
        {
            stats.sent += 1;
            if combat.submit_as(open, crate::rules::journal::Issuer::Gm).is_err() {
                stats.rejected += 1;
            }
            continue;
        }
        let cmd = match combat.status() {
            // The tactical AI's turn: the first of its candidates the engine takes, each sent in
            // turn (a refused one leaves no trace: no event, no journal entry, the same state).
            EngineStatus::AwaitingCommand(c)
                if brain_of(c).plans_tactically()
                    && (scope.all_creatures || combat.controller(c) == Controller::Ai) =>
            {
                let again = match (&last_attack, brain_of(c)) {
                    (Some((key, intent)), Brain::Fast) => repeat_attack(combat, c, *key, intent),
                    _ => None,
                };
                match again {
                    Some(cmd) => Some(cmd),
                    None => {
                        let key = turn_key(combat);
                        let candidates = tactical::turn_candidates(combat, c);
                        match first_taken(combat, candidates, &mut stats.declined) {
                            Ok(cmd) => {
                                stats.sent += 1;
                                remember_attack(combat, &cmd, key, &brain_of, &mut last_attack);
                                continue;
                            }
                            Err(pick) => pick,
                        }
                    }
                }
            }
            _ => next_command_by(combat, scope, &brain_of),
        };
        let Some(cmd) = cmd else {
            break;
        };
        stats.sent += 1;
        // The AI's own commands (undo in the game goes back over them to a person's).
        let by = crate::rules::journal::Issuer::Ai;
        let key = turn_key(combat);
        let tactical = cmd.actor().is_some_and(|c| brain_of(c).plans_tactically());
        let own_turn = match &cmd {
            Command::Act(i) => Some(i.actor),
            Command::Hold { actor, .. } => Some(*actor),
            _ => None,
        };
        let sent = submit_or_recover(combat, cmd.clone(), by, scope, tactical, own_turn);
        if sent != Sent::Accepted {
            stats.rejected += 1;
            stats.rejected_tactical += usize::from(tactical);
        }
        match sent {
            Sent::Accepted => {
                remember_attack(combat, &cmd, key, &brain_of, &mut last_attack);
                continue;
            }
            Sent::FellBack(fallback) => {
                remember_attack(combat, &fallback, key, &brain_of, &mut last_attack);
                continue;
            }
            // A refused decision (not a command of the creature's own turn) stops the play.
            _ if own_turn.is_none() => break,
            _ => {}
        }
        last_attack = None;
    }
    stats
}

/// The first of the tactical AI's `candidates` the engine takes. Actions are sent in turn with
/// `Combat::try_submit_as` (each is its own dry run: a refused one changes nothing, is not
/// journalled and counts in `declined`) until one is taken: `Ok` with it. The first other command
/// (ending the turn, a hold, a release) comes back to be sent as any other (`Err(Some)`); `Err(None)`
/// when no candidate is left.
fn first_taken(
    combat: &mut Combat,
    candidates: Vec<Command>,
    declined: &mut usize,
) -> Result<Command, Option<Command>> {
    for cand in candidates {
        if !matches!(cand, Command::Act(_)) {
            return Err(Some(cand));
        }
        if combat.try_submit_as(cand.clone(), crate::rules::journal::Issuer::Ai).is_ok() {
            return Ok(cand);
        }
        *declined += 1;
    }
    Err(None)
}

/// What became of an AI's command (`submit_or_recover`).
#[derive(Debug, Clone, PartialEq)]
pub enum Sent {
    /// The engine took it.
    Accepted,
    /// The engine refused it and took the basic AI's answer to the same state instead.
    FellBack(Command),
    /// The engine refused it and the basic AI's answer (if any), and the turn was ended.
    TurnEnded,
    /// Nothing was taken: the combat is as it was.
    Refused,
}

/// Send an AI's (or an automatic) command as `by`. A refused command would come back forever,
/// so after a refusal the basic AI's answer to the same state is tried (if `fall_back` and it is
/// a different command), then the turn of `end_turn_of` is ended. The one loop step the
/// simulator ([`play_by`]) and the game's battle share.
pub(crate) fn submit_or_recover(
    combat: &mut Combat,
    cmd: Command,
    by: crate::rules::journal::Issuer,
    scope: AiScope,
    fall_back: bool,
    end_turn_of: Option<Cid>,
) -> Sent {
    if combat.submit_as(cmd.clone(), by).is_ok() {
        return Sent::Accepted;
    }
    if fall_back
        && let Some(fallback) = basic::next_command(combat, scope).filter(|f| *f != cmd)
        && combat.submit_as(fallback.clone(), by).is_ok()
    {
        return Sent::FellBack(fallback);
    }
    match end_turn_of {
        Some(actor) if combat.submit_as(Command::EndTurn { actor }, by).is_ok() => Sent::TurnEnded,
        _ => Sent::Refused,
    }
}

/// Which turn a command was sent in: the creature whose turn it is, the round and the segment.
type TurnKey = (Option<Cid>, u32, u32);

fn turn_key(combat: &Combat) -> TurnKey {
    let (round, segment) = combat.clock();
    (combat.turn().active, round, segment)
}

/// After an accepted command: the fast tier remembers a single-target attack of one of its
/// creatures; any other command of a creature's own (not a decision such as a defence, which
/// answers inside the attacker's turn) forgets it.
fn remember_attack(
    combat: &Combat,
    cmd: &Command,
    key: TurnKey,
    brain_of: &impl Fn(Cid) -> Brain,
    last: &mut Option<(TurnKey, ActIntent)>,
) {
    match cmd {
        Command::Decide { .. } => {}
        Command::Act(i)
            if brain_of(i.actor) == Brain::Fast
                && i.targets.len() == 1
                && i.to.is_none()
                && key.0 == Some(i.actor)
                && combat
                    .ruleset()
                    .ability(&i.ability)
                    .is_some_and(|d| matches!(d.effect, crate::rules::ruleset::Effect::Attack { .. })) =>
        {
            *last = Some((key, i.clone()));
        }
        _ => *last = None,
    }
}

/// The fast tier's shortcut: in the same turn as an accepted single-target attack, the same
/// attack again while its target still stands and the engine would take it (a dry run).
fn repeat_attack(combat: &mut Combat, who: Cid, key: TurnKey, intent: &ActIntent) -> Option<Command> {
    if intent.actor != who || turn_key(combat) != key {
        return None;
    }
    let target = *intent.targets.first()?;
    let stands = combat.get::<crate::rules::components::Health>(target).is_some_and(|h| h.hp > 0);
    (stands && combat.check_act(intent).is_ok()).then(|| Command::Act(intent.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::command::ActIntent;
    use tactical::fixture::duel;

    /// The tactical AI's candidates: actions sent in turn until the engine takes one, a refused
    /// one counted and left out of the journal; the first other command handed back unsent. (No
    /// shipped fight has its first candidate refused: 0 in 6,000 runs, so only this test reaches
    /// the refusals.)
    #[test]
    fn the_first_candidate_the_engine_takes_is_sent_and_the_refused_ones_are_counted() {
        let mut c = duel(20, &[]);
        let me = turn_key(&c).0.expect("a turn has started");
        let foe = Cid(1 - me.0);
        let out_of_turn = Command::Act(ActIntent::new(foe, "strike", vec![me]));
        let strike = Command::Act(ActIntent::new(me, "strike", vec![foe]));
        let end = Command::EndTurn { actor: me };
        let mut declined = 0;
        let journal = c.journal().len();
        let taken = first_taken(&mut c, vec![out_of_turn.clone(), strike.clone(), end.clone()], &mut declined);
        assert_eq!(taken, Ok(strike.clone()));
        assert_eq!(declined, 1, "the foe's strike out of its turn was refused");
        assert_eq!(c.journal().len(), journal + 1, "only the strike taken is journalled");
        let mut c = duel(20, &[]);
        let mut declined = 0;
        assert_eq!(first_taken(&mut c, vec![out_of_turn.clone(), end.clone(), strike], &mut declined), Err(Some(end)));
        assert_eq!((declined, c.journal().len()), (1, journal), "ending the turn comes back unsent");
        assert_eq!(first_taken(&mut c, vec![out_of_turn], &mut declined), Err(None));
        assert_eq!(declined, 2);
    }

    /// The fast tier's memory: a single-target attack of the creature whose turn it is, in that
    /// turn, and of the fast tier only; another creature's command forgets it. (Found by the AI's
    /// mutation sample: the turn check read as `!=`, and the repeat's actor-or-turn check read
    /// as `&&`, survived every test, the fast tier not being shipped.)
    #[test]
    fn the_fast_tier_remembers_and_repeats_only_its_active_creatures_attack_in_that_turn() {
        let mut c = duel(20, &[]);
        let key = turn_key(&c);
        let me = key.0.expect("a turn has started");
        let foe = Cid(1 - me.0);
        let strike = |who: Cid, target: Cid| ActIntent::new(who, "strike", vec![target]);
        let fast = |_: Cid| Brain::Fast;
        let mut last = None;
        remember_attack(&c, &Command::Act(strike(me, foe)), key, &fast, &mut last);
        assert_eq!(last, Some((key, strike(me, foe))), "its own attack in its turn is kept");
        remember_attack(&c, &Command::Act(strike(foe, me)), key, &fast, &mut last);
        assert_eq!(last, None, "an attack by a creature out of its turn forgets it");
        remember_attack(&c, &Command::Act(strike(me, foe)), key, &|_: Cid| Brain::Tactical, &mut last);
        assert_eq!(last, None, "the tactical AI keeps nothing");
        let other_turn = (Some(foe), key.1, key.2);
        remember_attack(&c, &Command::Act(strike(me, foe)), other_turn, &fast, &mut last);
        assert_eq!(last, None, "sent in another creature's turn");

        // The repeat: the same attack, by the same creature, in the same turn, while the engine
        // would take it.
        let hit = strike(me, foe);
        assert_eq!(repeat_attack(&mut c, me, key, &hit), Some(Command::Act(hit.clone())));
        assert_eq!(repeat_attack(&mut c, foe, key, &hit), None, "another creature's turn");
        let later = (key.0, key.1 + 1, key.2);
        assert_eq!(repeat_attack(&mut c, me, later, &hit), None, "remembered in an earlier turn");
        let mut beaten = duel(20, &[]);
        let foe_entity = beaten.world.resource::<crate::rules::state::Roster>().entity(foe).unwrap();
        beaten.world.get_mut::<crate::rules::components::Health>(foe_entity).unwrap().hp = 0;
        assert_eq!(repeat_attack(&mut beaten, me, key, &hit), None, "its target is down");
    }
}
