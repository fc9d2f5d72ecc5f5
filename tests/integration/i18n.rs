//! The game's languages (issue 24): the catalogs agree with each other, every log event reads in
//! every language without falling back, the rules reference exists in each language, and the
//! shipped font draws every character the game can show.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use skirmish::hud_model::log::LogView;
use skirmish::i18n::{Catalog, Catalogs, Tr};
use skirmish::rules::log::CombatEvent;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped catalogs, read from their files (so an error names the file and line).
fn shipped() -> Vec<Catalog> {
    ["en", "es", "ko"]
        .iter()
        .map(|code| {
            let path = root().join(format!("assets/i18n/{code}.ftl"));
            let text = std::fs::read_to_string(&path).unwrap();
            Catalog::parse(code, &path.display().to_string(), &text).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

#[test]
fn every_message_exists_in_every_catalog_with_the_same_variables() {
    let cats = shipped();
    let en = &cats[0];
    let keys: BTreeSet<String> = en.keys().into_iter().collect();
    assert!(keys.len() > 300, "the English catalog has only {} messages", keys.len());
    for c in &cats[1..] {
        let theirs: BTreeSet<String> = c.keys().into_iter().collect();
        let missing: Vec<_> = keys.difference(&theirs).collect();
        let extra: Vec<_> = theirs.difference(&keys).collect();
        assert!(missing.is_empty(), "{}: missing {missing:?}", c.source);
        assert!(extra.is_empty(), "{}: not in English {extra:?}", c.source);
        for k in &keys {
            assert_eq!(c.placeables(k), en.placeables(k), "{}: `{k}` uses other variables than English", c.source);
        }
    }
}

#[test]
fn a_catalog_with_a_syntax_error_is_named_with_its_file_and_line() {
    let dir = crate::common::tmp_root().join(format!("skirmish-i18n-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fr.ftl"), "language-name = Français\nn-actions = { $n ->\n  [one] une action\n}\n")
        .unwrap();
    let cats = Catalogs::load(&dir);
    let e = cats.errors.first().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("fr.ftl:4:1: ") && e.contains("syntax"), "{e}");
    // The built-in languages are still there; the broken one is not offered.
    assert_eq!(cats.codes(), ["en", "es", "ko"]);
    // A good file adds a language, found by its code, named by itself.
    std::fs::write(dir.join("fr.ftl"), "language-name = Français\n").unwrap();
    let cats = Catalogs::load(&dir);
    assert!(cats.errors.is_empty(), "{:?}", cats.errors);
    assert_eq!(cats.get("fr").map(|c| c.name.as_str()), Some("Français"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plurals_and_counters_follow_each_language() {
    let n = |code: &str, k: i64| skirmish::tr!(Tr::strict(code), "n-actions", n = k);
    assert_eq!((n("en", 1), n("en", 2)), ("1 action".into(), "2 actions".into()));
    assert_eq!((n("es", 1), n("es", 2)), ("1 acción".into(), "2 acciones".into()));
    assert!(n("ko", 1).contains('1') && n("ko", 2).contains('2') && n("ko", 2).contains("행동"), "{}", n("ko", 2));
}

/// Every combat of the shipped scenarios, played out: between them they log nearly every kind
/// of event under the four rulesets.
fn scenario_combats() -> Vec<skirmish::rules::driver::Combat> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("tests/scenarios"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|f| skirmish::scenario::load(f).ok())
        .filter_map(|ls| skirmish::scenario::run_keeping(&ls, None).1)
        .collect()
}

#[test]
fn every_log_event_kind_reads_in_each_language_without_falling_back() {
    let combats = scenario_combats();
    assert!(combats.len() > 40, "only {} scenarios ran", combats.len());
    let mut covered: BTreeSet<String> = BTreeSet::new();
    let mut sample: BTreeMap<String, (String, String, String)> = BTreeMap::new();
    for c in &combats {
        let mut views: Vec<LogView> = ["en", "es", "ko"].iter().map(|l| LogView::in_language(&Tr::strict(l))).collect();
        for v in &mut views {
            v.update(c);
        }
        let (en, es, ko) = (views[0].entries(), views[1].entries(), views[2].entries());
        assert_eq!(en.len(), es.len());
        assert_eq!(en.len(), ko.len());
        for ((a, b), k) in en.iter().zip(es).zip(ko) {
            for t in [&a.text, &b.text, &k.text] {
                assert!(!t.contains('⟦'), "{}: a message is missing: {t}", a.kind);
            }
            assert_ne!(a.text, b.text, "{}: the Spanish entry is the English one", a.kind);
            assert_ne!(a.text, k.text, "{}: the Korean entry is the English one", a.kind);
            for e in &c.log().events[a.first..=a.last] {
                covered.insert(e.kind());
            }
            sample.entry(a.kind.clone()).or_insert_with(|| (a.text.clone(), b.text.clone(), k.text.clone()));
        }
    }
    // Events no entry shows on its own: a turn step's start (its effects are tagged with its
    // rule) and a decision's request (the prompt asks it; the answer is logged).
    // AssistUsed is worded inside the attack entry it helps.
    let silent = ["TurnStepBegan", "DecisionRequested", "AssistUsed"];
    let not_reached: Vec<&&str> =
        CombatEvent::KINDS.iter().filter(|k| !covered.contains(**k) && !silent.contains(k)).collect();
    // The rest are checked one by one below.
    for k in &not_reached {
        assert!(HAND_MADE.contains(k), "no scenario logs `{k}`, and no hand-made sample covers it");
    }
    let rs = skirmish::rules::ruleset::Ruleset::load(&root().join("assets/rulesets/pf2e.ron")).unwrap();
    let names = |c: skirmish::rules::components::Cid| ["Knight", "Orc"][c.0 as usize % 2].to_string();
    for e in hand_made() {
        let en = skirmish::hud_model::log::sentence_in(&rs, &Tr::strict("en"), &e, &names).unwrap();
        for l in ["es", "ko"] {
            let t = skirmish::hud_model::log::sentence_in(&rs, &Tr::strict(l), &e, &names).unwrap();
            assert!(!t.contains('⟦'), "{}: {t}", e.kind());
            assert_ne!(t, en, "{}: the {l} sentence is the English one", e.kind());
        }
    }
    eprintln!("{} kinds from scenarios, {} by hand", covered.len(), not_reached.len());
}

/// Kinds no shipped scenario logs.
const HAND_MADE: &[&str] = &[
    "ModEffect",
    "AssistMadeArea",
    "AssistDenied",
    "ConditionUnchanged",
    "ExpiredBeforeCount",
    "HeldActionsLapsed",
    "ActionDisrupted",
    "DelayLapsed",
    "ReadyNotUsed",
    "ComponentConsumed",
    "InitiativeMoved",
    "PermanentWound",
    "OpeningSkipped",
    "CombatDrawn",
    "ActivityInterrupted",
    "ConcentrationBroken",
    "HoldAccrued",
    "ReturnedFromDelay",
    "FlatCheck",
    "SaveRolled",
    "Sustained",
    "InitiativeRollOff",
    "AwarenessSet",
    "ActionsForfeited",
    "MoveStopped",
    "Disengaged",
    "OpportunityDeclined",
    "NoOpportunity",
    "HeldActionsLost",
    "CastHeld",
    "CastReleased",
    // Issue 50: worded inside an attack's or a save's entry, and on their own.
    "MultipleAttackPenalty",
    "CritConfirmRolled",
    "CriticalHit",
    "CriticalMiss",
    "SaveDegree",
    "DamageScaled",
];

fn hand_made() -> Vec<CombatEvent> {
    use skirmish::rules::components::{Cid, GridPos};
    use skirmish::rules::log::{DrawReason, ModAction, NoOpportunityReason};
    let (a, b) = (Cid(0), Cid(1));
    let mut v = vec![
        CombatEvent::ModEffect { source: "regeneration".into(), who: a, action: ModAction::Heal(2) },
        CombatEvent::ModEffect { source: "riposte".into(), who: a, action: ModAction::Damage(3) },
        CombatEvent::ModEffect {
            source: "m".into(),
            who: a,
            action: ModAction::ApplyCondition("frightened".into(), 2),
        },
        CombatEvent::ModEffect {
            source: "m".into(),
            who: a,
            action: ModAction::ApplyCondition("frightened".into(), 0),
        },
        CombatEvent::ModEffect { source: "m".into(), who: a, action: ModAction::RemoveCondition("frightened".into()) },
        CombatEvent::ModEffect { source: "m".into(), who: a, action: ModAction::GrantActions(1) },
        CombatEvent::ModEffect { source: "m".into(), who: a, action: ModAction::SpendActions(2) },
        CombatEvent::ModEffect { source: "m".into(), who: a, action: ModAction::Reschedule(7) },
        CombatEvent::HeldActionsLost { who: a, count: 2, kind: skirmish::rules::ruleset::HitKind::Surprise },
        CombatEvent::CombatDrawn { reason: DrawReason::WorkLimit, round: 9 },
        CombatEvent::CombatEnded { winner: None },
        CombatEvent::AssistMadeArea { who: a },
        CombatEvent::AssistDenied { from: a, to: b },
        CombatEvent::ConditionUnchanged { who: a, condition: "frightened".into() },
        CombatEvent::ExpiredBeforeCount { who: a, condition: "frightened".into(), round: 2, count: 14 },
        CombatEvent::HeldActionsLapsed { who: a, count: 2 },
        CombatEvent::ActionDisrupted { who: a, ability: "strike".into() },
        CombatEvent::DelayLapsed { who: a },
        CombatEvent::ReadyNotUsed { who: a, ability: "strike".into() },
        CombatEvent::ComponentConsumed { who: a, item: "bat guano".into() },
        CombatEvent::InitiativeMoved { who: a, before: b },
        CombatEvent::PermanentWound { who: a },
        CombatEvent::OpeningSkipped { id: 1, who: a, reason: "cannot act".into() },
        CombatEvent::CombatDrawn { reason: DrawReason::RoundCap(50), round: 50 },
        CombatEvent::CombatDrawn { reason: DrawReason::NobodyCanAct, round: 3 },
        CombatEvent::ActivityInterrupted { who: a, ability: "strike".into(), actions_lost: 2 },
        CombatEvent::ConcentrationBroken { who: a, ability: "strike".into(), next_round: 2, next_segment: 4 },
        CombatEvent::HoldAccrued { who: a, rt: 2, total: 5 },
        CombatEvent::ReturnedFromDelay { who: a, after: b },
        CombatEvent::FlatCheck {
            who: a,
            condition: "persistent_fire".into(),
            roll: 16,
            dc: 15,
            success: true,
            dice: vec![],
        },
        CombatEvent::SaveRolled {
            who: a,
            stat: "WIS".into(),
            roll: 9,
            bonus: 2,
            total: 11,
            dc: 15,
            success: false,
            dice: vec![],
        },
        CombatEvent::Sustained { who: a, count: 1 },
        CombatEvent::InitiativeRollOff { tied: vec![a, b], rolls: vec![12, 7] },
        CombatEvent::AwarenessSet { who: a, aware: false },
        CombatEvent::ActionsForfeited { who: a, count: 2 },
        CombatEvent::MoveStopped { who: a, at: GridPos { x: 3, y: 4 } },
        CombatEvent::Disengaged { who: a, from: vec![b] },
        CombatEvent::OpportunityDeclined { who: a },
        CombatEvent::NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::Flanked },
        CombatEvent::NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::Disengaged },
        CombatEvent::NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::Busy },
        CombatEvent::NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::Incapacitated },
        CombatEvent::NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::NoAttack },
        CombatEvent::NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::FlatFooted },
        CombatEvent::NoOpportunity { mover: a, from: b, reason: NoOpportunityReason::NoneLeft },
        CombatEvent::HeldActionsLost { who: a, count: 1, kind: skirmish::rules::ruleset::HitKind::Ranged },
        CombatEvent::CastHeld { who: a, ability: "strike".into() },
        CombatEvent::CastReleased { who: a, ability: "strike".into(), next_round: 3, next_segment: 2 },
        CombatEvent::MultipleAttackPenalty { who: a, penalty: -5 },
        CombatEvent::CritConfirmRolled {
            attacker: a,
            target: b,
            roll: 14,
            bonus: 6,
            total: 20,
            ac: 17,
            confirmed: true,
            dice: vec![],
        },
        CombatEvent::CritConfirmRolled {
            attacker: a,
            target: b,
            roll: 3,
            bonus: 6,
            total: 9,
            ac: 17,
            confirmed: false,
            dice: vec![],
        },
        CombatEvent::CriticalHit { attacker: a, target: b, multiplier: 2 },
        CombatEvent::CriticalMiss { attacker: a, target: b },
    ];
    use skirmish::rules::log::{DamageScale, Degree};
    for degree in [Degree::CriticalFailure, Degree::Failure, Degree::Success, Degree::CriticalSuccess] {
        v.push(CombatEvent::SaveDegree { who: a, degree });
    }
    for (rolled, amount, scale) in [(7, 14, DamageScale::Times(2)), (7, 3, DamageScale::Half)] {
        v.push(CombatEvent::DamageScaled { who: b, rolled, amount, scale });
    }
    use skirmish::rules::log::EndReason::*;
    for reason in [
        Expired,
        PermanentWound,
        NegativeStatus,
        FirstTurn,
        RemovedByMod,
        Recovered,
        Healed,
        SaveSucceeded,
        FlatCheckPassed,
        WoreOff,
        ActionsLost,
        NotSustained,
    ] {
        v.push(CombatEvent::ConditionEnded { who: a, condition: "dying".into(), reason });
    }
    use skirmish::rules::command::{ActionLoss, Choice, Decider, OpeningUse};
    let u = OpeningUse { ability: "strike".into(), targets: vec![b], to: None, mode: None };
    for choice in [
        Choice::Opportunity(Some("strike".into())),
        Choice::Opportunity(None),
        Choice::Opening(Some(u)),
        Choice::Approve(true),
        Choice::Approve(false),
        Choice::Triggered(Some("strike".into())),
        Choice::Triggered(None),
        Choice::LoseFirst(ActionLoss::Restricted),
        Choice::LoseFirst(ActionLoss::Regular),
        Choice::Order(vec![b, a]),
        Choice::HoldCast(true),
        Choice::HoldCast(false),
    ] {
        v.push(CombatEvent::DecisionMade { by: Decider::Creature(a), choice: choice.clone() });
        v.push(CombatEvent::DecisionMade { by: Decider::Gm, choice });
    }
    v
}

#[test]
fn every_rule_and_condition_has_its_text_in_each_language() {
    let en = skirmish::rules_doc::doc().unwrap();
    for code in ["es", "ko"] {
        let doc = skirmish::rules_doc::doc_in(code).unwrap_or_else(|| {
            let (_, text) = skirmish::rules_doc::TRANSLATIONS.iter().find(|(c, _)| *c == code).unwrap();
            panic!("docs/rules.{code}.md: {}", skirmish::rules_doc::RulesDoc::parse(text).unwrap_err())
        });
        for e in en.rules() {
            let t = doc.rule(&e.key).unwrap_or_else(|| panic!("docs/rules.{code}.md lacks {}", e.key));
            assert!(!t.text.is_empty() && t.text != e.text, "docs/rules.{code}.md: {} is not translated", e.key);
            assert_ne!(t.title, e.title, "docs/rules.{code}.md: {}'s title is not translated", e.key);
        }
        for e in en.conditions() {
            let t = doc.condition(&e.key).unwrap_or_else(|| panic!("docs/rules.{code}.md lacks condition {}", e.key));
            assert!(!t.text.is_empty() && t.text != e.text, "docs/rules.{code}.md: {} is not translated", e.key);
        }
        assert_eq!(doc.rules().count(), en.rules().count(), "docs/rules.{code}.md has rules English lacks");
    }
}

/// Every character of every catalog, of the rules reference in each language and of the
/// shipped data's names has a glyph in the shipped Hangul font, read from the font's own
/// character map.
#[test]
fn the_shipped_font_draws_every_character_the_game_shows() {
    let bytes = std::fs::read(root().join("assets/fonts/NanumGothic.ttf")).unwrap();
    let face = ttf_parser::Face::parse(&bytes, 0).unwrap();
    // egui draws with its own fonts first and falls back to Nanum Gothic: a character either
    // of egui's text fonts has is drawn too (`−`, the minus sign, is one).
    // (Found in cargo's registry, whichever index and version of epaint_default_fonts it holds.)
    let home =
        std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{}/.cargo", std::env::var("HOME").unwrap_or_default()));
    let mut egui_dirs: Vec<std::path::PathBuf> = Vec::new();
    for idx in std::fs::read_dir(Path::new(&home).join("registry/src")).into_iter().flatten().flatten() {
        for c in std::fs::read_dir(idx.path()).into_iter().flatten().flatten() {
            if c.file_name().to_string_lossy().starts_with("epaint_default_fonts-") {
                egui_dirs.push(c.path().join("fonts"));
            }
        }
    }
    let egui_fonts: Vec<Vec<u8>> = egui_dirs
        .iter()
        .flat_map(|d| ["Ubuntu-Light.ttf", "Hack-Regular.ttf"].map(|f| d.join(f)))
        .filter_map(|f| std::fs::read(f).ok())
        .collect();
    assert!(!egui_fonts.is_empty(), "egui's default fonts not found under {home}/registry/src");
    let egui_faces: Vec<ttf_parser::Face> =
        egui_fonts.iter().filter_map(|b| ttf_parser::Face::parse(b, 0).ok()).collect();
    let drawn = |c: char| face.glyph_index(c).is_some() || egui_faces.iter().any(|f| f.glyph_index(c).is_some());
    assert!(root().join("assets/fonts/NanumGothic-OFL.txt").is_file(), "the font's licence ships beside it");
    let mut texts: Vec<(String, String)> = Vec::new();
    for code in ["en", "es", "ko"] {
        let f = format!("assets/i18n/{code}.ftl");
        texts.push((f.clone(), std::fs::read_to_string(root().join(&f)).unwrap()));
    }
    for code in ["es", "ko"] {
        let doc = skirmish::rules_doc::doc_in(code).unwrap();
        let all: String = doc.rules().chain(doc.conditions()).map(|e| format!("{} {}\n", e.title, e.text)).collect();
        texts.push((format!("docs/rules.{code}.md"), all));
    }
    for f in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let rs = skirmish::rules::ruleset::Ruleset::load(&root().join(format!("assets/rulesets/{f}.ron"))).unwrap();
        let names: String = rs
            .abilities
            .iter()
            .flat_map(|a| std::iter::once(a.name.clone()).chain(a.names.values().cloned()))
            .chain(rs.conditions.iter().flat_map(|c| c.names.values().cloned()))
            .chain(rs.stat_names.values().flat_map(|n| n.values().cloned()))
            .collect::<Vec<_>>()
            .join(" ");
        texts.push((format!("assets/rulesets/{f}.ron"), names));
    }
    for f in ["skirmish-4v4", "ambush-3v3", "bench-4v4"] {
        let e = skirmish::encounter::Encounter::load(&root().join(format!("assets/encounters/{f}.ron"))).unwrap();
        let names: String = std::iter::once(e.name.clone())
            .chain(e.names.values().cloned())
            .chain(e.descriptions.values().cloned())
            .chain(e.sides.iter().flat_map(|s| s.names.values().cloned()))
            .chain(e.combatants.iter().flat_map(|c| std::iter::once(c.name.clone()).chain(c.names.values().cloned())))
            .collect::<Vec<_>>()
            .join(" ");
        texts.push((format!("assets/encounters/{f}.ron"), names));
    }
    // The board draws a text with anything outside ASCII in Nanum Gothic alone (Bevy's own font
    // has ASCII only): its floating texts and the data's names must be in Nanum itself.
    for code in ["es", "ko"] {
        let tr = Tr::strict(code);
        let cat = shipped().into_iter().find(|c| c.code == code).unwrap();
        for k in cat.keys().iter().filter(|k| k.starts_with("float-")) {
            let text = tr.ta(k, &[("total", 13.into())]);
            assert!(!text.contains('⟦'), "{code} {k}: {text}");
            let missing: BTreeSet<char> = text.chars().filter(|c| face.glyph_index(*c).is_none()).collect();
            assert!(missing.is_empty(), "{code} {k} on the board: Nanum Gothic has no glyph for {missing:?}");
        }
    }
    let mut hangul = 0;
    for (file, text) in &texts {
        if file.starts_with("assets/rulesets") || file.starts_with("assets/encounters") {
            // Names are drawn on the board too, where only Nanum Gothic draws what is not ASCII.
            let missing: BTreeSet<char> =
                text.chars().filter(|c| !c.is_ascii() && face.glyph_index(*c).is_none()).collect();
            assert!(missing.is_empty(), "{file}: a name on the board needs {missing:?}, which Nanum Gothic lacks");
        }
        let missing: BTreeSet<char> = text.chars().filter(|c| !c.is_control() && !drawn(*c)).collect();
        assert!(missing.is_empty(), "{file}: the font has no glyph for {missing:?}");
        hangul += text.chars().filter(|c| ('\u{AC00}'..='\u{D7A3}').contains(c)).count();
    }
    assert!(hangul > 1000, "only {hangul} Hangul syllables checked: the Korean texts are missing");
}

/// `skirmish check` warns about a name shown in the game that lacks a shipped language, and
/// the shipped data has none missing.
#[test]
fn check_warns_about_a_name_missing_a_shipped_language() {
    for f in ["homebrew-d20", "pf2e", "pf1e", "segments"] {
        let out = skirmish::scenario::check_file(&root().join(format!("assets/rulesets/{f}.ron"))).unwrap();
        assert!(!out.contains("warning"), "{out}");
    }
    for f in ["skirmish-4v4", "ambush-3v3", "bench-4v4"] {
        let out = skirmish::scenario::check_file(&root().join(format!("assets/encounters/{f}.ron"))).unwrap();
        assert!(!out.contains("warning"), "{out}");
    }
    let dir = crate::common::tmp_root().join(format!("skirmish-i18n-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("assets/rulesets")).unwrap();
    let text = std::fs::read_to_string(root().join("assets/rulesets/homebrew-d20.ron")).unwrap();
    let cut = text.replacen(r#"names: {"es": "Espada", "ko": "검"}, "#, r#"names: {"es": "Espada"}, "#, 1);
    assert_ne!(cut, text);
    let f = dir.join("assets/rulesets/homebrew-d20.ron");
    std::fs::write(&f, cut).unwrap();
    let out = skirmish::scenario::check_file(&f).unwrap();
    assert!(out.contains("warning: ") && out.contains("ability `sword` has no name in ko"), "{out}");
    assert_eq!(out.matches("warning").count(), 1, "{out}");
    let enc = std::fs::read_to_string(root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let cut = enc.replacen(r#"names: {"es": "Orco", "ko": "오크"}, "#, "", 1);
    assert_ne!(cut, enc);
    std::fs::create_dir_all(dir.join("assets/encounters")).unwrap();
    let f = dir.join("assets/encounters/e.ron");
    std::fs::write(&f, cut).unwrap();
    let out = skirmish::scenario::check_file(&f).unwrap();
    assert!(out.contains("combatant `Orc` has no name in es, ko"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game's HUD names creatures, sides and the encounter in the language; the log and the
/// command line keep the encounter's own names.
#[test]
fn creature_names_follow_the_language_and_the_log_keeps_its_own() {
    let e = skirmish::encounter::Encounter::load(&root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let rs = skirmish::rules::ruleset::Ruleset::load(&root().join("assets/rulesets/pf2e.ron")).unwrap();
    let mut c = e.start(rs, 7).unwrap();
    let orc = (0..c.len() as u32).map(skirmish::rules::components::Cid).find(|x| c.name(*x) == "Orc").unwrap();
    assert_eq!(c.name_in(orc, "ko"), "오크");
    assert_eq!(c.name_in(orc, "es"), "Orco");
    assert_eq!(c.name_in(orc, "fr"), "Orc");
    assert_eq!(e.side_name_in("monsters", "es"), "Monstruos");
    assert_eq!(e.name_in("ko"), "소규모 교전, 4대4");
    assert!(c.log().names.contains(&"Orc".to_string()));
    let mut ko = LogView::in_language(&Tr::strict("ko"));
    skirmish::ai::play(&mut c, skirmish::ai::AiScope { gm: true, all_creatures: true }, 400);
    ko.update(&c);
    assert!(ko.entries().iter().any(|e| e.text.contains("오크")), "no Korean name in the Korean log");
    assert!(!ko.entries().iter().any(|e| e.text.contains("Orc")), "an English name in the Korean log");
}

/// A name in another language is a name: no control characters, a language code as its key.
#[test]
fn names_in_other_languages_are_checked_like_names() {
    let text = std::fs::read_to_string(root().join("assets/rulesets/homebrew-d20.ron")).unwrap();
    for (from, to, want) in [
        (r#""es": "Espada""#, r#""es": "Esp\u{1b}ada""#, "control character"),
        (r#""es": "Espada""#, r#""e s": "Espada""#, "is not a language code"),
    ] {
        let bad = text.replacen(from, to, 1);
        assert_ne!(bad, text);
        let e = skirmish::rules::ruleset::Ruleset::from_ron_str("x.ron", &bad).unwrap_err().to_string();
        assert!(e.contains("x.ron:") && e.contains("names") && e.contains(want), "{e}");
    }
}

/// A data mod's names are checked too: the shipped example has every name in every shipped
/// language, and a mod's ability without a Korean name is named in a warning.
#[test]
fn check_warns_about_a_mods_names_missing_a_shipped_language() {
    let ex = root().join("mods/example-pf2e-variant");
    let out = skirmish::scenario::check_file(&ex).unwrap();
    assert!(!out.contains("warning"), "{out}");
    let dir = crate::common::tmp_root().join(format!("skirmish-i18n-mod-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let m = dir.join("mods/example-pf2e-variant");
    for sub in ["abilities", "conditions", "rulesets", "encounters"] {
        std::fs::create_dir_all(m.join(sub)).unwrap();
        for f in std::fs::read_dir(ex.join(sub)).unwrap().flatten() {
            std::fs::copy(f.path(), m.join(sub).join(f.file_name())).unwrap();
        }
    }
    std::fs::copy(ex.join("mod.ron"), m.join("mod.ron")).unwrap();
    let a = m.join("abilities/wounds.ron");
    let text = std::fs::read_to_string(&a).unwrap();
    std::fs::write(&a, text.replacen(r#", "ko": "찢기""#, "", 1)).unwrap();
    let out = skirmish::scenario::check_file(&m).unwrap();
    assert!(out.contains("warning: ability `rend` has no name in ko"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
