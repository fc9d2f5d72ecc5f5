//! The first built-in AI, kept as it was so that the tactical AI can be measured against it.
//!
//! On its turn it attacks the weakest enemy in reach with a melee attack, else shoots the nearest
//! enemy, else moves closer. It defends with its better stat, always takes attacks of opportunity,
//! passes openings, uses the first triggered ability offered, loses the restricted action first
//! and releases completed casts at once. It reads the world and returns a command; it never
//! changes rules state itself.

use super::AiScope;
use crate::rules::command::{ActIntent, Choice, Command, Decider, DefenseMethod};
use crate::rules::components::{ActionPool, Cid, GridPos, Health, Movement, Side, Stats};
use crate::rules::driver::Combat;
use crate::rules::ruleset::{AttackKind, DefenseRule, Effect};
use crate::rules::state::{DecisionKind, EngineStatus, Pending, Roster};

/// The command this AI sends now, if the engine waits for something it answers (GM decisions
/// included when `scope.gm`).
pub(crate) fn next_command(combat: &Combat, scope: AiScope) -> Option<Command> {
    let plays = |c: Cid| scope.all_creatures || combat.controller(c) == crate::rules::components::Controller::Ai;
    match combat.status() {
        EngineStatus::AwaitingCommand(c) if plays(c) => Some(turn_command(combat, c)),
        EngineStatus::AwaitingDecision(Decider::Creature(c)) if plays(c) => {
            Some(Command::Decide { by: Decider::Creature(c), choice: decision(combat, c)? })
        }
        EngineStatus::AwaitingDecision(Decider::Gm) if scope.gm => super::gm_command(combat),
        _ => None,
    }
}

fn enemies(combat: &Combat, who: Cid) -> Vec<(Cid, GridPos)> {
    let side = combat.get::<Side>(who).cloned();
    let down = combat.ruleset().defeated_condition.clone();
    let n = combat.world.resource::<Roster>().entities.len();
    (0..n as u32)
        .map(Cid)
        .filter(|c| combat.get::<Side>(*c).cloned() != side)
        .filter(|c| !combat.get::<crate::rules::components::Conditions>(*c).is_some_and(|k| k.has(&down)))
        // Out of the fight already (at 0 hit points, e.g. dying): leave it be.
        .filter(|c| combat.get::<Health>(*c).is_some_and(|h| h.hp > 0))
        .filter_map(|c| combat.get::<GridPos>(c).map(|p| (c, *p)))
        .collect()
}

fn attacks(combat: &Combat, who: Cid) -> Vec<(String, AttackKind, u8)> {
    let rs = combat.ruleset();
    let mut known = combat.get::<crate::rules::components::Abilities>(who).map(|a| a.0.clone()).unwrap_or_default();
    known.extend(rs.basic_abilities.iter().cloned());
    known
        .iter()
        .filter_map(|a| rs.ability(a).map(|d| (a, d)))
        // Reactions are not used on your turn.
        .filter(|(_, d)| d.timing != crate::rules::ruleset::Timing::Reaction)
        .filter_map(|(a, d)| match d.effect {
            Effect::Attack { kind, .. } => Some((a.clone(), kind, d.cost)),
            _ => None,
        })
        .collect()
}

/// On its turn: attack an enemy in reach (the weakest), else shoot the nearest, else close in.
pub(crate) fn turn_command(combat: &Combat, who: Cid) -> Command {
    let end = Command::EndTurn { actor: who };
    let Some(pos) = combat.get::<GridPos>(who).copied() else {
        return end;
    };
    let available = combat.get::<ActionPool>(who).map_or(0, ActionPool::available);
    let foes = enemies(combat, who);
    if foes.is_empty() {
        return end;
    }
    let reach = combat.ruleset().engagement.melee_reach;
    let atk = attacks(combat, who);
    let hp = |c: Cid| combat.get::<Health>(c).map_or(0, |h| h.hp);
    let in_reach: Vec<Cid> = foes.iter().filter(|(_, p)| pos.distance(*p) <= reach).map(|(c, _)| *c).collect();
    if let Some((a, _, _)) = atk.iter().find(|(_, k, cost)| *k == AttackKind::Melee && *cost <= available)
        && let Some(t) = in_reach.iter().min_by_key(|c| (hp(**c), **c))
    {
        return Command::Act(ActIntent::new(who, a.clone(), vec![*t]));
    }
    let nearest = foes.iter().min_by_key(|(c, p)| (pos.distance(*p), *c)).copied();
    if let Some((a, _, _)) = atk.iter().find(|(_, k, cost)| *k != AttackKind::Melee && *cost <= available)
        && let Some((t, _)) = nearest
    {
        return Command::Act(ActIntent::new(who, a.clone(), vec![t]));
    }
    if !in_reach.is_empty() {
        return end;
    }
    // Close in with a Move if the ruleset has one and the creature can pay for it.
    let rs = combat.ruleset();
    let Some(mv) = rs
        .basic_abilities
        .iter()
        .chain(combat.get::<crate::rules::components::Abilities>(who).map(|a| &a.0).into_iter().flatten())
        .find(|a| matches!(rs.ability(a).map(|d| &d.effect), Some(Effect::Move | Effect::MoveAs { .. })))
    else {
        return end;
    };
    if rs.ability(mv).is_some_and(|d| d.cost > available) {
        return end;
    }
    let Some((_, target)) = nearest else {
        return end;
    };
    let modes = combat.get::<Movement>(who).cloned().unwrap_or_default();
    // A move ability bound to one mode moves at that mode's speed.
    let fixed = match rs.ability(mv).map(|d| &d.effect) {
        Some(Effect::MoveAs { mode }) => Some(mode.clone()),
        _ => None,
    };
    let pick = match &fixed {
        Some(m) => modes.0.get(m).map(|s| (m.clone(), *s)),
        None => modes.0.iter().max_by_key(|(_, s)| **s).map(|(m, s)| (m.clone(), *s)),
    };
    let Some((mode, speed)) = pick else {
        return end;
    };
    let occupied = &combat.world.resource::<Roster>().occupied;
    let mut best: Option<(u32, GridPos)> = None;
    let s = speed as i32;
    for dy in -s..=s {
        for dx in -s..=s {
            // Equivalent mutant (issue 26, docs/testing.md): `pos + d` → `pos - d` visits the same
            // squares (the ranges are symmetric), and the best is the least (distance, row,
            // column), whatever the order of the visits.
            let p = GridPos { x: pos.x + dx, y: pos.y + dy };
            if p == pos || occupied.contains_key(&p) {
                continue;
            }
            let d = p.distance(target);
            if best.is_none_or(|(bd, bp)| (d, (p.y, p.x)) < (bd, (bp.y, bp.x))) {
                best = Some((d, p));
            }
        }
    }
    match best {
        Some((d, p)) if d < pos.distance(target) => {
            let mode = if modes.0.len() > 1 && fixed.is_none() { Some(mode) } else { None };
            Command::Act(ActIntent {
                actor: who,
                ability: mv.clone(),
                targets: vec![],
                to: Some(p),
                mode,
                surprise: false,
            })
        }
        _ => end,
    }
}

/// Decisions: defend with the better stat, always take attacks of opportunity, pass openings.
pub(crate) fn decision(combat: &Combat, who: Cid) -> Option<Choice> {
    let p = combat.world.resource::<Pending>().0.clone()?;
    Some(match p.kind {
        DecisionKind::Defense { options, .. } => {
            let DefenseRule::ActiveRoll { dodge_stat, parry_stat, .. } = &combat.ruleset().defense else {
                return Some(Choice::Defend(DefenseMethod::NoDefense));
            };
            let stats = combat.get::<Stats>(who).cloned().unwrap_or_default();
            let score = |m: &DefenseMethod| match m {
                DefenseMethod::Dodge => stats.get(dodge_stat),
                DefenseMethod::Parry => stats.get(parry_stat),
                DefenseMethod::NoDefense => i32::MIN,
            };
            Choice::Defend(
                options
                    .iter()
                    .copied()
                    .max_by_key(|m| (score(m), std::cmp::Reverse(*m)))
                    .unwrap_or(DefenseMethod::NoDefense),
            )
        }
        DecisionKind::Opportunity { options, .. } => Choice::Opportunity(options.first().cloned()),
        DecisionKind::Opening { .. } => Choice::Opening(None),
        DecisionKind::AssistApproval { .. } | DecisionKind::InitiativeTie { .. } => return None,
        // Use the first triggered ability offered; lose the restricted action first (P2-13).
        DecisionKind::Triggered { options, .. } => Choice::Triggered(options.first().cloned()),
        DecisionKind::ActionLoss => Choice::LoseFirst(crate::rules::command::ActionLoss::Restricted),
        DecisionKind::CastComplete { .. } => Choice::HoldCast(false),
    })
}
