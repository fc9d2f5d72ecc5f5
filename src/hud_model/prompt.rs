//! What a decision prompt says, without egui: the choices of a pending decision with what each
//! costs, a choice in words, and what the decision is about. The game's prompt
//! (`crate::game::screens`) draws these; the engine still judges the answer when it is sent.

use crate::i18n::Tr;
use crate::rules::command::{ActionLoss, Choice, Decider, DefenseMethod, OpeningUse};
use crate::rules::components::{ActionPool, Cid};
use crate::rules::driver::Combat;
use crate::rules::ruleset::Effect;
use crate::rules::state::DecisionKind;
use crate::tr;

/// The choices of a pending decision: label with what it costs, and the answer. Built from the
/// decision and the rules state; the engine still judges the answer when it is sent.
pub fn choices(c: &mut Combat, kind: &DecisionKind, by: Decider) -> Vec<(String, Choice)> {
    choices_in(c, kind, by, &Tr::default())
}

/// [`choices`] in a language.
pub(crate) fn choices_in(c: &mut Combat, kind: &DecisionKind, by: Decider, tr: &Tr) -> Vec<(String, Choice)> {
    if let DecisionKind::Opening { id } = kind {
        return opening_choices(c, *id, by, tr);
    }
    let c: &Combat = c;
    let rs = c.ruleset();
    let reaction_cost = match rs.reactions {
        crate::rules::ruleset::ReactionBudget::Unlimited => tr.t("prompt-reaction-free"),
        _ => tr.t("prompt-uses-reaction"),
    };
    let ability_name = |c: &Combat, a: &str| super::log::ability_name(c.ruleset(), tr, a);
    match kind {
        DecisionKind::Defense { attacker, attack_total, options } => options
            .iter()
            .map(|m| {
                let stat = match (m, &rs.defense) {
                    (DefenseMethod::Dodge, crate::rules::ruleset::DefenseRule::ActiveRoll { dodge_stat, .. }) => {
                        dodge_stat.clone()
                    }
                    (DefenseMethod::Parry, crate::rules::ruleset::DefenseRule::ActiveRoll { parry_stat, .. }) => {
                        parry_stat.clone()
                    }
                    _ => String::new(),
                };
                let label = if *m == DefenseMethod::NoDefense {
                    tr!(tr, "prompt-no-defense", attacker = c.name_in(*attacker, tr.code()), total = attack_total)
                } else {
                    tr!(
                        tr,
                        "prompt-defend",
                        method = super::log::defense_words(tr, *m),
                        stat = super::log::stat_name(rs, tr, &stat),
                        attacker = c.name_in(*attacker, tr.code()),
                        total = attack_total
                    )
                };
                (label, Choice::Defend(*m))
            })
            .collect(),
        DecisionKind::Opportunity { mover, options } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| {
                    (
                        tr!(
                            tr,
                            "prompt-opportunity-attack",
                            who = c.name_in(*mover, tr.code()),
                            ability = ability_name(c, a),
                            cost = reaction_cost.clone()
                        ),
                        Choice::Opportunity(Some(a.clone())),
                    )
                })
                .collect();
            v.push((tr!(tr, "prompt-let-go", who = c.name_in(*mover, tr.code())), Choice::Opportunity(None)));
            v
        }
        DecisionKind::Opening { .. } => unreachable!("answered above"),
        DecisionKind::AssistApproval { from, to } => vec![
            (
                tr!(tr, "prompt-approve", from = c.name_in(*from, tr.code()), to = c.name_in(*to, tr.code())),
                Choice::Approve(true),
            ),
            (tr.t("prompt-deny"), Choice::Approve(false)),
        ],
        DecisionKind::Triggered { options, .. } => {
            let mut v: Vec<(String, Choice)> = options
                .iter()
                .map(|a| {
                    let d = rs.ability(a);
                    let cost = match d.map(|d| d.timing) {
                        Some(crate::rules::ruleset::Timing::Reaction) => reaction_cost.clone(),
                        _ => tr.t("prompt-a-free-action"),
                    };
                    (
                        tr!(tr, "prompt-use-now", ability = ability_name(c, a), cost = cost),
                        Choice::Triggered(Some(a.clone())),
                    )
                })
                .collect();
            v.push((tr.t("prompt-use-nothing"), Choice::Triggered(None)));
            v
        }
        DecisionKind::ActionLoss => vec![
            (tr.t("prompt-lose-restricted"), Choice::LoseFirst(ActionLoss::Restricted)),
            (tr.t("prompt-lose-regular"), Choice::LoseFirst(ActionLoss::Regular)),
        ],
        DecisionKind::CastComplete { ability } => vec![
            (tr!(tr, "prompt-release", ability = ability_name(c, ability)), Choice::HoldCast(false)),
            (tr!(tr, "prompt-hold", ability = ability_name(c, ability)), Choice::HoldCast(true)),
        ],
        DecisionKind::InitiativeTie { tied } => {
            // Every rotation of the tied creatures: each may go first.
            (0..tied.len().min(6))
                .map(|k| {
                    let mut order = tied.clone();
                    order.rotate_left(k);
                    let names =
                        order.iter().map(|t| c.name_in(*t, tr.code())).collect::<Vec<_>>().join(&tr.t("prompt-then"));
                    (tr!(tr, "prompt-order", names = names), Choice::Order(order))
                })
                .collect()
        }
    }
}

/// The choices of an opening (HB-30, HB-31, HB-33): each attack on each creature, and each
/// untargeted ability, that the engine's own dry run accepts now (an enemy, standing, in reach
/// and sight, paid for from the actions left), and passing.
fn opening_choices(c: &mut Combat, id: u32, by: Decider, tr: &Tr) -> Vec<(String, Choice)> {
    let Decider::Creature(who) = by else { return vec![] };
    let left = c.get::<ActionPool>(who).map_or(0, ActionPool::available);
    let mut v = Vec::new();
    for a in crate::hud_model::abilities_of(c, who) {
        let targets: Vec<Vec<Cid>> = match c.ruleset().ability(&a).map(|d| &d.effect) {
            Some(Effect::Attack { .. }) => (0..c.len() as u32).map(|t| vec![Cid(t)]).collect(),
            Some(Effect::SelfCondition { .. }) => vec![vec![]],
            _ => continue,
        };
        let name = super::log::ability_name(c.ruleset(), tr, &a);
        for targets in targets {
            let u = OpeningUse { ability: a.clone(), targets, to: None, mode: None };
            let Ok(cost) = c.check_opening_use(who, id, &u) else { continue };
            let cost = match cost {
                0 => tr.t("prompt-no-action-cost"),
                n => tr!(tr, "prompt-opening-cost", n = n, left = left),
            };
            let label = match u.targets.first() {
                Some(t) => {
                    tr!(tr, "prompt-opening-on", ability = name.clone(), who = c.name_in(*t, tr.code()), cost = cost)
                }
                None => tr!(tr, "prompt-opening-use", ability = name.clone(), cost = cost),
            };
            v.push((label, Choice::Opening(Some(u))));
        }
    }
    v.push((tr.t("prompt-pass-opening"), Choice::Opening(None)));
    v
}

/// A choice in words.
pub(crate) fn describe_choice_in(combat: &Combat, c: &Choice, tr: &Tr) -> String {
    let names = |v: &[crate::rules::components::Cid]| {
        v.iter().map(|t| combat.name_in(*t, tr.code())).collect::<Vec<_>>().join(", ")
    };
    let ab = |a: &str| super::log::ability_name(combat.ruleset(), tr, a);
    match c {
        Choice::Opening(Some(u)) if u.targets.is_empty() => tr!(tr, "choice-use", ability = ab(&u.ability)),
        Choice::Opening(Some(u)) => tr!(tr, "choice-use-on", ability = ab(&u.ability), targets = names(&u.targets)),
        Choice::Triggered(Some(a)) | Choice::Opportunity(Some(a)) => tr!(tr, "choice-use", ability = ab(a)),
        Choice::Defend(m) => super::log::defense_words(tr, *m),
        Choice::Order(o) => tr!(tr, "choice-order", order = names(o)),
        Choice::Opening(None) => tr.t("choice-pass"),
        Choice::Triggered(None) => tr.t("choice-nothing"),
        Choice::Opportunity(None) => tr.t("choice-let-go"),
        Choice::Approve(true) => tr.t("choice-approve"),
        Choice::Approve(false) => tr.t("choice-deny"),
        Choice::LoseFirst(ActionLoss::Restricted) => tr.t("loss-restricted"),
        Choice::LoseFirst(ActionLoss::Regular) => tr.t("loss-regular"),
        Choice::HoldCast(true) => tr.t("choice-hold"),
        Choice::HoldCast(false) => tr.t("choice-release"),
    }
}

/// What the decision is about, in a sentence.
pub(crate) fn decision_summary_in(c: &Combat, kind: &DecisionKind, tr: &Tr) -> String {
    match kind {
        DecisionKind::Defense { attacker, attack_total, .. } => {
            tr!(tr, "summary-defense", attacker = c.name_in(*attacker, tr.code()), total = attack_total)
        }
        DecisionKind::Opportunity { mover, .. } => tr!(tr, "summary-opportunity", who = c.name_in(*mover, tr.code())),
        DecisionKind::Opening { .. } => tr.t("summary-opening"),
        DecisionKind::AssistApproval { from, to } => {
            tr!(tr, "summary-assist", from = c.name_in(*from, tr.code()), to = c.name_in(*to, tr.code()))
        }
        DecisionKind::Triggered { .. } => tr.t("summary-triggered"),
        DecisionKind::ActionLoss => tr.t("summary-action-loss"),
        DecisionKind::CastComplete { .. } => tr.t("summary-cast-complete"),
        DecisionKind::InitiativeTie { .. } => tr.t("summary-initiative-tie"),
    }
}

/// A decision kind ([`DecisionKind::name`]) in words, for the prompt's title and its policy row.
pub(crate) fn kind_words_in(kind: &str, tr: &Tr) -> String {
    tr.t(match kind {
        "Defense" => "kind-defense",
        "Opportunity" => "kind-opportunity",
        "Opening" => "kind-opening",
        "AssistApproval" => "kind-assist-approval",
        "Triggered" => "kind-triggered",
        "ActionLoss" => "kind-action-loss",
        "InitiativeTie" => "kind-initiative-tie",
        "CastComplete" => "kind-cast-complete",
        _ => "kind-decision",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A choice in words: an opening's ability with or without targets, and the rest.
    /// Found by cargo-mutants (issue 26).
    #[test]
    fn a_choice_in_words() {
        let c = crate::hud_model::tests::fight(
            "homebrew-d20",
            &[("Knight", "heroes", (0, 0), 20), ("Orc", "monsters", (1, 0), 5)],
        );
        let orc = c.cid("Orc").unwrap();
        let tr = Tr::default();
        let opening = |a: &str, targets: Vec<Cid>| {
            Choice::Opening(Some(OpeningUse { ability: a.into(), targets, to: None, mode: None }))
        };
        assert_eq!(describe_choice_in(&c, &opening("shout", vec![]), &tr), "Use Battle Shout");
        assert_eq!(describe_choice_in(&c, &opening("sword", vec![orc]), &tr), "Use Sword on Orc");
        assert_eq!(describe_choice_in(&c, &Choice::Opening(None), &tr), "Pass");
        assert_eq!(describe_choice_in(&c, &Choice::Defend(DefenseMethod::Parry), &tr), "Parry");
    }

    /// Every decision kind has its own words. Found by cargo-mutants (issue 26).
    #[test]
    fn every_decision_kind_has_its_own_words() {
        let tr = Tr::default();
        let kinds = crate::rules::state::DecisionKind::NAMES.iter().chain(&["Something else"]);
        let said: Vec<String> = kinds.map(|k| kind_words_in(k, &tr)).collect();
        assert_eq!(
            said,
            [
                "defensive roll",
                "attack of opportunity",
                "an opening",
                "approve an Assist",
                "a triggered action",
                "which action to lose",
                "initiative tie",
                "hold or release the cast",
                "a decision",
            ]
        );
    }
}
