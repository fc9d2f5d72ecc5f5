//! Planning the turn: plans from where the decider stands and from every square its movers reach,
//! the commands they become, and the answers to openings and attacks of opportunity.

use std::rc::Rc;

use crate::rules::command::{ActIntent, Command, OpeningUse};
use crate::rules::components::{Cid, GridPos, Health, HeldTrigger, TriggerOn};
use crate::rules::ruleset::{ActionBudget, AttackKind, Effect, ReorderPolicy};

use super::budget::Budget;
use super::odds::DefMod;
use super::positions::Field;
use super::read::{Kind, Opt, Tgt, Unit, View};
use super::{EPS, MAX_PLANS};

/// A step to send, with the plan's value.
#[derive(Clone, Debug)]
struct Plan {
    value: f32,
    ability: usize,
    tgt: Tgt,
    to: Option<GridPos>,
}

fn attack_stat<'a>(o: &Opt<'a>) -> &'a str {
    match o.kind {
        Kind::Attack { stat, .. } => stat,
        _ => "",
    }
}

impl<'a> View<'a> {
    /// The commands worth sending, best first (empty: end the turn).
    pub(super) fn turn(&self) -> Vec<Command> {
        let me = self.me();
        let who = me.id;
        if self.my_casting.and_then(|k| k.0.as_ref()).is_some_and(|a| a.holding) {
            return vec![Command::Release { actor: who }];
        }
        if !me.can_act {
            return self.recover().into_iter().collect();
        }
        if self.casting || !self.units.iter().any(|u| u.enemy) {
            return Vec::new();
        }
        let field = self.approach_field();
        let mut plans = self.plans(field.as_ref());
        // Stable: equal values keep the order plans were made in.
        plans.sort_by(|a, b| b.value.total_cmp(&a.value));
        let mut out: Vec<Command> = Vec::new();
        for p in &plans {
            if p.value <= EPS || out.len() >= MAX_PLANS {
                break;
            }
            if let Some(cmd) = self.command(p)
                && !out.contains(&cmd)
            {
                out.push(cmd);
            }
        }
        if out.is_empty() {
            out.extend(self.hold_leftover());
        }
        out
    }

    /// [`View::squares`] within `range`, remembered for the decision (Disengage's second move
    /// asks for the squares of the Move the planner looks at anyway).
    fn squares_within(&self, range: u32) -> Rc<Vec<GridPos>> {
        if let Some((_, s)) = self.squares_memo.borrow().iter().find(|(r, _)| *r == range) {
            return s.clone();
        }
        let mut out = Vec::new();
        self.squares(range, &mut out);
        let out = Rc::new(out);
        self.squares_memo.borrow_mut().push((range, out.clone()));
        out
    }

    /// [`View::shortlist`] of [`View::squares_within`] `range`, remembered for the decision (which
    /// has one approach field, [`View::turn`]).
    fn shortlist_within(&self, range: u32, field: Option<&Field>) -> Rc<Vec<(f32, GridPos)>> {
        if let Some((_, s)) = self.shortlist_memo.borrow().iter().find(|(r, _)| *r == range) {
            return s.clone();
        }
        let mut out = Vec::new();
        self.shortlist(&self.squares_within(range), field, &mut out);
        let out = Rc::new(out);
        self.shortlist_memo.borrow_mut().push((range, out.clone()));
        out
    }

    /// Every plan worth considering, valued against ending the turn where it stands.
    fn plans(&self, field: Option<&Field>) -> Vec<Plan> {
        let me = self.me();
        let b = self.budget();
        let mut dealt = Vec::with_capacity(self.units.len());
        let mut plans = Vec::new();
        let base = self.pos_value(me.pos, field);
        let timed = matches!(b, Budget::Timed { .. });
        // Stay and act.
        let (v, first, time) = self.fill(me.pos, b, &mut dealt);
        if let Some((i, tgt)) = first {
            let value = if timed { v / time.max(0.5) } else { v };
            plans.push(Plan { value, ability: i, tgt, to: None });
        }
        // After a timed move the next action comes on a later turn, with a fresh budget.
        let next_turn = Budget::Timed { left: true };
        let mover_offset = self.opts.len();
        let provoked = self.aoo_cost();
        for (mi, m) in self.movers.iter().enumerate() {
            let Some((cost, after)) = self.spend(b, m.def) else { continue };
            let aoo = if m.provokes { provoked } else { 0.0 };
            let ability = mover_offset + mi;
            let all = self.squares_within(m.range);
            if let Some((stat, dmg, bonus)) = m.charge {
                // A charge: to a square next to the target, then one attack with its bonus.
                for t in self.units.iter().filter(|u| u.enemy) {
                    if me.pos.distance(t.pos) <= self.reach {
                        continue;
                    }
                    let mut best: Option<(f32, GridPos)> = None;
                    let roll = self.attack_roll(stat, dmg);
                    for q in all.iter().filter(|q| q.distance(t.pos) <= self.reach) {
                        let e = self.attack_dmg(*q, &roll, &[], bonus, true, t, t.hp, None);
                        let v = e * t.w + self.pos_value(*q, field);
                        if best.is_none_or(|(bv, _)| v > bv + 1e-6) {
                            best = Some((v, *q));
                        }
                    }
                    if let Some((v, q)) = best {
                        plans.push(Plan { value: v - aoo - base, ability, tgt: Tgt::One(t.id), to: Some(q) });
                    }
                }
                continue;
            }
            if m.disengage && provoked > EPS {
                // Disengage where it stands, then a Move that provokes nobody.
                if let Some(mv) = self.movers.iter().find(|x| x.provokes && x.charge.is_none())
                    && let Some((c2, after2)) = self.spend(after, mv.def)
                {
                    let sh2 = self.shortlist_within(mv.range, field);
                    let mut best = f32::MIN;
                    for (pv, q) in sh2.iter() {
                        let (f, _, _) = self.fill(*q, after2, &mut dealt);
                        best = best.max(f + pv);
                    }
                    if best > f32::MIN {
                        let value = if timed { (best - base) / (cost + c2) } else { best - base };
                        plans.push(Plan { value, ability, tgt: Tgt::None, to: None });
                    }
                }
            }
            let short = self.shortlist_within(m.range, field);
            let mut best: Option<(f32, GridPos)> = None;
            for (pv, q) in short.iter() {
                let v = if timed {
                    // Value per segment over the move and the action it leads to.
                    let (f, _, t) = self.fill(*q, next_turn, &mut dealt);
                    let gain = pv - base - aoo;
                    if f > EPS { (gain + f) / (cost + t).max(0.5) } else { gain / cost.max(0.5) }
                } else {
                    let (f, _, _) = self.fill(*q, after, &mut dealt);
                    f + pv - aoo - base
                };
                let better = match best {
                    None => true,
                    Some((bv, bq)) => {
                        v > bv + 1e-6
                            || ((v - bv).abs() <= 1e-6
                                && (me.pos.distance(*q), q.y, q.x) < (me.pos.distance(bq), bq.y, bq.x))
                    }
                };
                if better {
                    best = Some((v, *q));
                }
            }
            if let Some((v, q)) = best {
                plans.push(Plan { value: v, ability, tgt: Tgt::None, to: Some(q) });
            }
        }
        plans
    }

    /// The command for a plan.
    fn command(&self, p: &Plan) -> Option<Command> {
        let me = self.me();
        let who = me.id;
        let (def, mode) = if p.ability < self.opts.len() {
            (self.opts[p.ability].def, None)
        } else {
            let m = self.movers.get(p.ability - self.opts.len())?;
            (m.def, m.mode)
        };
        let o = self.opts.get(p.ability);
        // As priced: in sight unless the option's effect needs none (a mover is no option).
        let aims = |u: &Unit| match o {
            Some(o) => self.aims(o, me.pos, u.pos),
            None => self.sees(me.pos, u.pos),
        };
        let ally_wanted = |u: &Unit| match o.map(|o| o.kind) {
            Some(Kind::OnAllies { cond, value, lasts }) => self.condition_value(u, cond, value, lasts) > EPS,
            Some(Kind::Heal { .. }) => self.c.get::<Health>(u.id).is_some_and(|h| h.hp < h.max),
            _ => true,
        };
        // An ability limited to a few creatures picks as it was priced (issue 28).
        // The command is the plan's first step: priced with nothing dealt yet this turn.
        let nothing = vec![0.0; self.units.len()];
        let keep = |eligible: &dyn Fn(&Unit) -> bool| {
            o.and_then(|o| self.limited(o, me.pos, eligible, |i| self.on_one(o, i, &nothing).0))
        };
        let targets: Vec<Cid> = match p.tgt {
            Tgt::None => vec![],
            Tgt::One(c) => vec![c],
            Tgt::AllEnemies => {
                let eligible = |u: &Unit| u.enemy && aims(u);
                let keep = keep(&eligible);
                (0..self.units.len())
                    .filter(|i| eligible(&self.units[*i]) && keep.as_ref().is_none_or(|k| k.contains(i)))
                    .map(|i| self.units[i].id)
                    .collect()
            }
            Tgt::Allies => {
                let eligible = |u: &Unit| !u.enemy && (u.id == who || aims(u)) && ally_wanted(u);
                let keep = keep(&eligible);
                (0..self.units.len())
                    .filter(|i| eligible(&self.units[*i]) && keep.as_ref().is_none_or(|k| k.contains(i)))
                    .map(|i| self.units[i].id)
                    .collect()
            }
        };
        if matches!(p.tgt, Tgt::AllEnemies | Tgt::Allies) && targets.is_empty() {
            return None;
        }
        Some(Command::Act(ActIntent {
            actor: who,
            ability: def.id.clone(),
            targets,
            to: p.to,
            mode: mode.map(str::to_string),
            surprise: false,
        }))
    }

    /// Unable to act: a Recovery Action against the condition that stops it, if it has one.
    fn recover(&self) -> Option<Command> {
        let me = self.me();
        let rs = self.rs;
        let cond = me
            .conds?
            .0
            .keys()
            .find(|id| rs.condition(id).is_some_and(|d| d.save_ends.is_some() && d.blocks_actions))
            .or_else(|| me.conds?.0.keys().find(|id| rs.condition(id).is_some_and(|d| d.save_ends.is_some())))?;
        let ability = self.abilities.iter().find(|d| d.usable_when_prevented && d.effect == Effect::RecoverySave)?;
        self.spend(self.budget(), ability)?;
        Some(Command::Act(ActIntent {
            actor: me.id,
            ability: ability.id.clone(),
            targets: vec![],
            to: None,
            mode: Some(cond.clone()),
            surprise: false,
        }))
    }

    /// Actions a round pool would forfeit: hold an attack for an enemy still to act this round
    /// (`ReorderPolicy::HoldForPriority`).
    fn hold_leftover(&self) -> Option<Command> {
        if !matches!(self.rs.reorder, ReorderPolicy::HoldForPriority { .. })
            || !matches!(self.rs.budget, ActionBudget::PerRoundPool { .. })
        {
            return None;
        }
        let me = self.me();
        let b = self.budget();
        let (i, o) = self
            .opts
            .iter()
            .enumerate()
            .filter(|(_, o)| o.def.cost > 0 && matches!(o.kind, Kind::Attack { .. }))
            .filter(|(_, o)| self.spend(b, o.def).is_some())
            .max_by(|(ia, a), (ib, b2)| {
                let na = self.units[self.me].stats.get(attack_stat(a));
                let nb = self.units[self.me].stats.get(attack_stat(b2));
                na.cmp(&nb).then(ib.cmp(ia))
            })?;
        let melee = matches!(o.kind, Kind::Attack { kind: AttackKind::Melee, .. });
        let e = self
            .units
            .iter()
            .filter(|u| u.enemy && u.can_act && u.rank > me.rank)
            .filter(|u| !melee || u.pos.distance(me.pos) <= u.speed.saturating_mul(3).saturating_add(self.reach))
            .min_by_key(|u| (u.pos.distance(me.pos), u.id))?;
        let trigger = HeldTrigger { by: Some(e.id), on: if melee { TriggerOn::Moves } else { TriggerOn::AnyAction } };
        let _ = i;
        Some(Command::Hold { actor: me.id, ability: o.def.id.clone(), targets: vec![], trigger })
    }

    /// The best attack of opportunity on `mover` among `options`.
    pub(super) fn best_opportunity(&self, mover: Cid, options: &[String]) -> Option<String> {
        let me = self.me();
        let t = self.units.iter().find(|u| u.id == mover)?;
        options
            .iter()
            .filter_map(|a| self.rs.ability(a))
            .map(|d| (self.attack_by(me, d, t, true, DefMod::default()), d))
            .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.id.cmp(&a.1.id)))
            .map(|(_, d)| d.id.clone())
    }

    /// An opening: the best attack the pool can pay for now, else pass.
    pub(super) fn opening(&self) -> Option<OpeningUse> {
        let b = Budget::Pool { regular: self.pool.available(), restricted: 0 };
        let mut dealt = vec![0.0; self.units.len()];
        let mut best: Option<(f32, usize, Tgt)> = None;
        for (i, o) in self.opts.iter().enumerate() {
            if !matches!(o.kind, Kind::Attack { .. }) || o.def.cost == 0 || self.spend(b, o.def).is_none() {
                continue;
            }
            let (v, t) = self.eval(o, self.me().pos, &mut dealt, false);
            if v > EPS && best.is_none_or(|(bv, _, _)| v > bv + 1e-6) {
                best = Some((v, i, t));
            }
        }
        let (_, i, Tgt::One(t)) = best? else { return None };
        Some(OpeningUse { ability: self.opts[i].def.id.clone(), targets: vec![t], to: None, mode: None })
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::healers;
    use super::*;

    /// The command of a heal plan names the wounded allies only (issue 26: deleting the heal's
    /// arm of `ally_wanted` named the whole side, the healer too).
    #[test]
    fn a_heal_names_only_the_wounded_allies() {
        let c = healers(10, 20);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let heal = v.opts.iter().position(|o| o.def.id == "heal").expect("a knows Heal");
        let plan = Plan { value: 1.0, ability: heal, tgt: Tgt::Allies, to: None };
        let Some(Command::Act(intent)) = v.command(&plan) else { panic!("a heal plan is a command") };
        assert_eq!(intent.ability, "heal");
        assert_eq!(intent.targets, vec![Cid(1)]);
        // Nobody hurt: no heal to send.
        let c = healers(20, 20);
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        assert_eq!(v.command(&Plan { value: 1.0, ability: heal, tgt: Tgt::Allies, to: None }), None);
    }

    /// Actions a round would forfeit are held for an enemy still to act this round, not for one
    /// that acted already (issue 26: `u.rank > me.rank` turned around survived). homebrew-d20:
    /// the early orc acts before a, the late orc after it; the early one stands nearer.
    #[test]
    fn leftover_actions_are_held_for_an_enemy_still_to_act() {
        use crate::rules::components::InitiativeSetup;
        use crate::rules::setup::CombatantSpec;
        let spec = |name: &str, side: &str, at: (i32, i32), init: i32| CombatantSpec {
            name: name.into(),
            side: side.into(),
            at,
            hp: 20,
            abilities: vec!["sword".into()],
            initiative: InitiativeSetup::Total(init),
            ..Default::default()
        };
        let specs =
            [spec("a", "heroes", (0, 0), 15), spec("early", "orcs", (2, 0), 20), spec("late", "orcs", (4, 0), 5)];
        let c = crate::rules::driver::Combat::new(super::super::fixture::ruleset("homebrew-d20"), 1, &specs)
            .expect("valid set-up");
        let v = View::new(&c, Cid(0)).expect("a reads the fight");
        let Some(Command::Hold { actor, ability, trigger, .. }) = v.hold_leftover() else {
            panic!("a holds its sword")
        };
        assert_eq!((actor, ability.as_str()), (Cid(0), "sword"));
        assert_eq!(trigger.by, Some(Cid(2)), "held for the late orc");
    }
}
