//! Playing one run: the encounter under a ruleset, one AI tier on every side (the tactical AI
//! unless another is asked for), or two tiers against each other.

use crate::ai::{self, AiScope, Brain};
use crate::rules::driver::Combat;
use crate::rules::log::CombatLog;
use crate::rules::map::BattleMap;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::CombatantSpec;
use crate::rules::state::EngineStatus;

use super::stats::RunRecord;
use super::{MAX_COMMANDS, Prepared};

/// The AI plays every creature and answers the GM's decisions.
pub const SCOPE: AiScope = AiScope { gm: true, all_creatures: true };

/// One worker's means to play runs of one encounter under one ruleset.
pub struct Runner<'a> {
    prep: &'a Prepared,
    /// The ruleset with the encounter's round cap applied.
    ruleset: Ruleset,
    specs: Vec<CombatantSpec>,
    map: BattleMap,
    dice: &'a [i32],
    dying: bool,
    /// The last run's combat, whose world and schedule the next run reuses.
    spare: Option<Combat>,
    /// The AI on every side.
    ai: Brain,
    /// One AI per side instead, in the encounter's order (empty: `ai` on every side).
    side_ai: Vec<Brain>,
}

impl<'a> Runner<'a> {
    /// A runner for the ruleset at index `ri` of `prep`.
    pub fn new(prep: &'a Prepared, ri: usize) -> Result<Runner<'a>, String> {
        let ruleset = prep.rulesets.get(ri).ok_or_else(|| format!("no ruleset #{ri}"))?.clone();
        let (ruleset, specs, map) =
            prep.encounter.prepare(ruleset).map_err(|m| format!("{}: map: {m}", prep.file_name))?;
        let dying = ruleset.at_zero_hp.is_some();
        Ok(Runner {
            prep,
            ruleset,
            specs,
            map,
            dice: &prep.dice,
            dying,
            spare: None,
            ai: Brain::Tactical,
            side_ai: Vec::new(),
        })
    }

    /// The same runner with `ai` playing every side.
    pub(crate) fn with_ai(self, ai: Brain) -> Runner<'a> {
        Runner { ai, ..self }
    }

    /// The same runner with side `i` played by `side_ai[i]` (none given: one AI on every side).
    pub(crate) fn with_side_ai(self, side_ai: &[Brain]) -> Runner<'a> {
        Runner { side_ai: side_ai.to_vec(), ..self }
    }

    /// The AI of each side: one for all, or one per side.
    fn brains(&self) -> Vec<Brain> {
        if self.side_ai.is_empty() { vec![self.ai] } else { self.side_ai.clone() }
    }

    /// Play run `k` with `seed` to its end and read its statistics.
    pub fn run(&mut self, k: u64, seed: u64) -> Result<RunRecord, String> {
        let brains = self.brains();
        self.run_sides(k, seed, &brains)
    }

    /// As [`Runner::run`], side `i` (in the encounter's order) played by `brains[i]` (the last
    /// brain for sides past the end): how two tiers meet head to head.
    pub(crate) fn run_sides(&mut self, k: u64, seed: u64, brains: &[Brain]) -> Result<RunRecord, String> {
        // The world and schedule of the last run are reset rather than built again
        // (`Combat::reset`: the same combat as a fresh one).
        let mut combat = match self.spare.take() {
            Some(mut c) => {
                let reused = c
                    .reset_keeping_ruleset(seed, &self.specs, self.map.clone(), self.dice)
                    .map_err(|e| self.setup_failed(e))?;
                if reused { c } else { self.fresh(seed)? }
            }
            None => self.fresh(seed)?,
        };
        let stats = play_brains(&self.prep.sides, &mut combat, brains);
        let rec = self.record(k, &combat, stats.sent as u64);
        self.spare = Some(combat);
        Ok(rec)
    }

    fn fresh(&self, seed: u64) -> Result<Combat, String> {
        let c = if self.prep.mods.is_empty() {
            // Resettable: the next run reuses its world and schedule.
            Combat::with_map(self.ruleset.clone(), seed, &self.specs, self.map.clone(), self.dice)
        } else {
            Combat::with_mods(self.ruleset.clone(), seed, &self.specs, self.map.clone(), self.dice, &self.prep.mods)
        };
        c.map_err(|e| self.setup_failed(e))
    }

    fn setup_failed(&self, e: impl std::fmt::Display) -> String {
        format!("{}: set-up under `{}` failed: {e}", self.prep.file_name, self.ruleset.name)
    }

    /// Play one run with `seed` and return the combat, with its full log, and the commands sent.
    pub fn play(&mut self, seed: u64) -> Result<(Combat, u64), String> {
        let mut combat = self.fresh(seed)?;
        let stats = play_brains(&self.prep.sides, &mut combat, &self.brains());
        Ok((combat, stats.sent as u64))
    }

    fn record(&self, k: u64, combat: &Combat, commands: u64) -> RunRecord {
        let finished = combat.status() == EngineStatus::Ended;
        let log = combat.log();
        RunRecord::from_log(
            k,
            self.prep.combatants.len(),
            &self.prep.sides,
            &log.events,
            combat.turn().round,
            commands,
            finished,
            self.dying,
            &|a| super::stats::typed_weight(&self.ruleset, a),
        )
    }
}

/// Play `combat` to its end, side `i` of `sides` by `brains[i]` (the last brain for sides past the
/// end; one brain: every side).
fn play_brains(sides: &[String], combat: &mut Combat, brains: &[Brain]) -> ai::PlayStats {
    match brains {
        [one] => ai::play_by(combat, SCOPE, MAX_COMMANDS, |_| *one),
        _ => {
            let last = brains.last().copied().unwrap_or_default();
            ai::play_sides(combat, SCOPE, MAX_COMMANDS, |side| {
                let i = sides.iter().position(|s| s == side).unwrap_or(usize::MAX);
                brains.get(i).copied().unwrap_or(last)
            })
        }
    }
}

/// Play run `k` with `seed` (a batch's seed + k) of `prep` under the ruleset at index `ri` and
/// return its full combat log and record (for `--replay-run`).
pub fn replay(prep: &Prepared, ri: usize, k: u64, seed: u64) -> Result<(CombatLog, RunRecord), String> {
    replay_with(prep, ri, k, seed, Brain::Tactical, &[])
}

/// As [`replay`], with `ai` on every side, or side `i` played by `side_ai[i]`.
pub(crate) fn replay_with(
    prep: &Prepared,
    ri: usize,
    k: u64,
    seed: u64,
    ai: Brain,
    side_ai: &[Brain],
) -> Result<(CombatLog, RunRecord), String> {
    let mut r = Runner::new(prep, ri)?.with_ai(ai).with_side_ai(side_ai);
    let (combat, commands) = r.play(seed)?;
    let rec = r.record(k, &combat, commands);
    Ok((combat.log().clone(), rec))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22's reset: without mods, a runner plays every run after its first in the last run's
    /// world and schedule (a combat set up with mods cannot be reset, so one without them must not
    /// be set up as if it had some), and a run so played is the run a fresh runner plays.
    #[test]
    fn runs_without_mods_reuse_one_world_and_play_as_fresh_ones() {
        let cfg = super::super::SimConfig::new("assets/encounters/bench-4v4.ron", Some("pf2e"), 3);
        let prep = super::super::prepare(&cfg).expect("the bench encounter");
        assert!(prep.mods.is_empty());
        let mut runner = Runner::new(&prep, 0).unwrap();
        runner.run(0, 11).unwrap();
        let world = runner.spare.as_ref().expect("the first run's combat is kept").world.id();
        let second = runner.run(1, 12).unwrap();
        assert_eq!(runner.spare.as_ref().unwrap().world.id(), world, "the second run reused the first's world");
        assert_eq!(second, Runner::new(&prep, 0).unwrap().run(1, 12).unwrap());
    }
}
