//! What a decision prompt says, without egui: the choices of a pending decision with what each
//! costs, a choice in words, and what the decision is about. The game's prompt
//! (`crate::game::screens`) draws these; the engine still judges the answer when it is sent.

use crate::rules::command::{ActionLoss, Choice, Decider, DefenseMethod, OpeningUse};
use crate::rules::components::{ActionPool, Cid};
use crate::rules::driver::Combat;
use crate::rules::ruleset::Effect;
use crate::rules::state::DecisionKind;

/// The choices of a pending decision: label with what it costs, and the answer. Built from the
/// decision and the rules state; the engine still judges the answer when it is sent.
pub fn choices(c: &mut Combat, kind: &DecisionKind, by: Decider) -> Vec<(String, Choice)> {
    if let DecisionKind::Opening { id } = kind {
        return opening_choices(c, *id, by);
    }
    let c: &Combat = c;
    let rs = c.ruleset();
    let reaction_cost = match rs.reactions {
        crate::rules::ruleset::ReactionBudget::Unlimited => "a reaction: no action cost",
        _ => "uses your reaction",
    };
    match kind {
        DecisionKind::Defense { attacker, attack_total, options } => options
            .iter()
            .map(|m| {
                let what = match (m, &rs.defense) {
                    (DefenseMethod::Dodge, crate::rules::ruleset::DefenseRule::ActiveRoll { dodge_stat, .. }) => {
                        format!("Dodge: 1d20 + {dodge_stat}")
                    }
                    (DefenseMethod::Parry, crate::rules::ruleset::DefenseRule::ActiveRoll { parry_stat, .. }) => {
                        format!("Parry: 1d20 + {parry_stat}")
                    }
                    (DefenseMethod::NoDefense, _) => "No defence roll: the attack hits".into(),
                    (m, _) => format!("{m:?}"),
                };
                let cost = if *m == DefenseMethod::NoDefense { "" } else { " — free, no action cost (G-HB-11)" };
                (format!("{what} against {}'s {attack_total}{cost}", c.name(*attacker)), Choice::Defend(*m))
            })
            .collect(),
        DecisionKind::Opportunity { mover, options } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| {
                    (
                        format!("Attack {} with {} ({reaction_cost})", c.name(*mover), ability_name(c, a)),
                        Choice::Opportunity(Some(a.clone())),
                    )
                })
                .collect();
            v.push((format!("Let {} go (keeps your reaction)", c.name(*mover)), Choice::Opportunity(None)));
            v
        }
        DecisionKind::Opening { .. } => unreachable!("answered above"),
        DecisionKind::AssistApproval { from, to } => vec![
            (format!("Approve {}'s Assist to {} (HB-11)", c.name(*from), c.name(*to)), Choice::Approve(true)),
            ("Deny it: the Assist's action is still spent".into(), Choice::Approve(false)),
        ],
        DecisionKind::Triggered { options, .. } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| {
                    let d = rs.ability(a);
                    let cost = match d.map(|d| d.timing) {
                        Some(crate::rules::ruleset::Timing::Reaction) => reaction_cost,
                        _ => "a free action",
                    };
                    (format!("Use {} now ({cost})", ability_name(c, a)), Choice::Triggered(Some(a.clone())))
                })
                .collect();
            v.push(("Use nothing".into(), Choice::Triggered(None)));
            v
        }
        DecisionKind::ActionLoss => vec![
            (
                "Lose the restricted (bonus) action first: keep a regular one".into(),
                Choice::LoseFirst(ActionLoss::Restricted),
            ),
            ("Lose a regular action first: keep the restricted one".into(), Choice::LoseFirst(ActionLoss::Regular)),
        ],
        DecisionKind::CastComplete { ability } => vec![
            (
                format!("Release {} now: its recovery time starts now (SG-13/14)", ability_name(c, ability)),
                Choice::HoldCast(false),
            ),
            (
                format!(
                    "Hold {}: recovery suspended, keep concentrating; each action while holding adds its RT + surcharge (SG-19..23)",
                    ability_name(c, ability)
                ),
                Choice::HoldCast(true),
            ),
        ],
        DecisionKind::InitiativeTie { tied } => {
            // Every rotation of the tied creatures: each may go first.
            (0..tied.len().min(6))
                .map(|k| {
                    let mut order = tied.clone();
                    order.rotate_left(k);
                    let names = order.iter().map(|t| c.name(*t)).collect::<Vec<_>>().join(", then ");
                    (format!("{names} (free)"), Choice::Order(order))
                })
                .collect()
        }
    }
}

/// The choices of an opening (HB-30, HB-31, HB-33): each attack on each creature, and each
/// untargeted ability, that the engine's own dry run accepts now (an enemy, standing, in reach
/// and sight, paid for from the actions left), and passing.
fn opening_choices(c: &mut Combat, id: u32, by: Decider) -> Vec<(String, Choice)> {
    let Decider::Creature(who) = by else { return vec![] };
    let left = c.get::<ActionPool>(who).map_or(0, ActionPool::available);
    let mut v = Vec::new();
    for a in crate::hud_model::abilities_of(c, who) {
        let targets: Vec<Vec<Cid>> = match c.ruleset().ability(&a).map(|d| &d.effect) {
            Some(Effect::Attack { .. }) => (0..c.len() as u32).map(|t| vec![Cid(t)]).collect(),
            Some(Effect::SelfCondition { .. }) => vec![vec![]],
            _ => continue,
        };
        let name = ability_name(c, &a);
        for targets in targets {
            let u = OpeningUse { ability: a.clone(), targets, to: None, mode: None };
            let Ok(cost) = c.check_opening_use(who, id, &u) else { continue };
            let cost = match cost {
                0 => "no action cost".to_string(),
                n => format!("costs {n} of your {left} action(s) left this round"),
            };
            let label = match u.targets.first() {
                Some(t) => format!("{name} on {} ({cost})", c.name(*t)),
                None => format!("{name} ({cost})"),
            };
            v.push((label, Choice::Opening(Some(u))));
        }
    }
    v.push(("Pass the opening (costs nothing)".into(), Choice::Opening(None)));
    v
}

fn ability_name(c: &Combat, a: &str) -> String {
    c.ruleset().ability(a).map_or(a.to_string(), |d| d.display_name().to_string())
}

/// A choice in words.
pub(crate) fn describe_choice(combat: &Combat, c: &Choice) -> String {
    let names = |v: &[crate::rules::components::Cid]| v.iter().map(|t| combat.name(*t)).collect::<Vec<_>>().join(", ");
    match c {
        Choice::Opening(Some(u)) if u.targets.is_empty() => format!("Use {}", ability_name(combat, &u.ability)),
        Choice::Opening(Some(u)) => {
            format!("Use {} on {}", ability_name(combat, &u.ability), names(&u.targets))
        }
        Choice::Triggered(Some(a)) | Choice::Opportunity(Some(a)) => format!("Use {}", ability_name(combat, a)),
        Choice::Defend(m) => format!("{m:?}"),
        Choice::Order(o) => format!("Order {}", names(o)),
        other => format!("{other:?}"),
    }
}

/// What the decision is about, in a sentence.
pub(crate) fn decision_summary(c: &Combat, kind: &DecisionKind) -> String {
    match kind {
        DecisionKind::Defense { attacker, attack_total, .. } => {
            format!(
                "{} attacks with a total of {attack_total}: a defensive roll that meets it blocks the attack (HB-40).",
                c.name(*attacker)
            )
        }
        DecisionKind::Opportunity { mover, .. } => format!("{} leaves your reach.", c.name(*mover)),
        DecisionKind::Opening { .. } => {
            "An opening: you may use one ability now, paid from this round's actions (HB-30, HB-31, HB-33).".into()
        }
        DecisionKind::AssistApproval { from, to } => {
            format!(
                "{} wants to assist {}: the GM decides whether the help is plausible (HB-11).",
                c.name(*from),
                c.name(*to)
            )
        }
        DecisionKind::Triggered { .. } => "Something triggers your free action or reaction.".into(),
        DecisionKind::ActionLoss => "You lose an action: which kind goes first (G-P2-07)?".into(),
        DecisionKind::CastComplete { .. } => "Your casting time is complete (SG-13, SG-19).".into(),
        DecisionKind::InitiativeTie { .. } => "These creatures tied for initiative: who goes first?".into(),
    }
}

/// A decision kind ([`DecisionKind::name`]) in words, for the prompt's title and its policy row.
pub(crate) fn kind_words(kind: &str) -> &'static str {
    match kind {
        "Defense" => "defensive roll",
        "Opportunity" => "attack of opportunity",
        "Opening" => "an opening",
        "AssistApproval" => "approve an Assist",
        "Triggered" => "a triggered action",
        "ActionLoss" => "which action to lose",
        "InitiativeTie" => "initiative tie",
        "CastComplete" => "hold or release the cast",
        _ => "a decision",
    }
}
