//! Hardening round two (issue 29), saves and data text: `replay --verify` (and loading a save)
//! checks what it says, text decoding errors point at the right place, and names hold no control
//! characters.
//!
//! - Checkpoints out of range, repeated, out of order, misplaced or listed 300,000 times are
//!   errors naming the checkpoint, not skips.
//! - Every field of the recorded state, `meta` and each command's issuer are compared with the
//!   replay; the ok line names what was checked and what was not.
//! - A version from the future reads as too new, whatever else the file holds.
//! - A byte-order mark, bytes that are not UTF-8, CR-only and CRLF line ends, and control
//!   characters in names, through several loaders (rulesets, encounters, scenarios, saves).
//! - The save fuzz target: real saves of AI-played fights, mutated (journal entries dropped,
//!   repeated, swapped, issuers and outcomes changed, checkpoints, the snapshot, `meta`, the
//!   version, the dice, bytes): loading and verifying never panic, and never say "ok" about a
//!   file whose replay disagrees with what it records. 300 cases; the long mode is
//!   `PROPTEST_CASES=100000 cargo test --release --test integration save_files_mutated`.
//!
//! The tests use only what the save module offered before this round, so the same file runs
//! against the old code (where each test fails).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use skirmish::ai::{self, AiScope};
use skirmish::encounter::Encounter;
use skirmish::rules::command::Command;
use skirmish::rules::components::Cid;
use skirmish::rules::journal::{Entry, Issuer};
use skirmish::rules::ruleset::Ruleset;
use skirmish::save::cli::{ReplayOptions, replay};
use skirmish::save::{self, CHECKPOINT_EVERY, Checkpoint, Hash64, RulesetSource, SaveError, SaveFile, Snapshot};
use skirmish::scenario;

const RULESETS: [&str; 4] = ["homebrew-d20", "pf2e", "pf1e", "segments"];
const ALL: AiScope = AiScope { gm: true, all_creatures: true };

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch folder (removed by [`Scratch`]'s drop).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let d = crate::common::tmp_root().join(format!("skirmish-hardening-saves-{}-{name}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An AI-played fight of the 4v4 encounter under `rs`, with forced dice and a rejected command
/// in its journal, captured as a save.
fn fight(rs: &str, seed: u64, commands: usize) -> SaveFile {
    let enc = Encounter::load(&root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let ruleset = Ruleset::load(&root().join(format!("assets/rulesets/{rs}.ron"))).unwrap();
    let mut c = enc.start(ruleset, seed).unwrap();
    ai::play(&mut c, ALL, commands / 2);
    c.force_dice([7, 12]);
    // A command that is rejected (it changes nothing; only the journal keeps it).
    for i in 0..c.len() as u32 {
        if c.submit_as(Command::EndTurn { actor: Cid(i) }, Issuer::Script).is_err() {
            break;
        }
    }
    ai::play(&mut c, ALL, commands / 2);
    SaveFile::capture(&c, "hardening").unwrap()
}

/// Real saves to mutate: two fights per ruleset, each with at least 3 checkpoints.
fn bases() -> &'static [SaveFile] {
    static B: std::sync::OnceLock<Vec<SaveFile>> = std::sync::OnceLock::new();
    B.get_or_init(|| {
        let mut v = Vec::new();
        for rs in RULESETS {
            let fights = (1..40).map(|seed| fight(rs, seed, 90)).filter(|s| s.checkpoints.len() >= 3);
            let two: Vec<SaveFile> = fights.take(2).collect();
            assert_eq!(two.len(), 2, "{rs}: fights long enough");
            v.extend(two);
        }
        v
    })
}

/// `skirmish replay FILE --verify`, through the CLI's own function: the outcome and the lines.
fn verify(path: &Path) -> (Result<bool, String>, Vec<String>) {
    let o = ReplayOptions { file: path.display().to_string(), verify: true, log: false };
    let mut lines = Vec::new();
    let r = replay(&o, &mut |l| lines.push(l.to_string()));
    (r, lines)
}

/// Verify `s` written to a file: `Err(message)` unless it verified ok; `Ok(ok line)` if it did.
fn verify_save(dir: &Scratch, s: &SaveFile) -> Result<String, String> {
    verify_text(dir, &s.to_ron())
}

fn verify_text(dir: &Scratch, text: &str) -> Result<String, String> {
    let p = dir.write("v.ron", text);
    match verify(&p) {
        (Ok(true), lines) => {
            let ok = lines.iter().find(|l| l.starts_with("verify: ok")).cloned();
            Ok(ok.unwrap_or_else(|| panic!("ok without an ok line: {lines:?}")))
        }
        (Ok(false), lines) => Err(lines.join("\n")),
        (Err(e), _) => Err(e),
    }
}

/// `s` must fail to verify and to load, each error containing every one of `words`.
#[track_caller]
fn refused(dir: &Scratch, s: &SaveFile, what: &str, words: &[&str]) {
    not_verified(dir, s, what, words);
    let e = save::restore(s.clone(), "t.ron").err().unwrap_or_else(|| panic!("{what}: loaded"));
    for w in words {
        assert!(e.to_string().contains(w), "{what}: load: `{w}` not in: {e}");
    }
}

/// `s` must fail to verify, the error containing every one of `words`.
#[track_caller]
fn not_verified(dir: &Scratch, s: &SaveFile, what: &str, words: &[&str]) {
    let e = verify_save(dir, s).err().unwrap_or_else(|| panic!("{what}: verified ok"));
    for w in words {
        assert!(e.contains(w), "{what}: `{w}` not in: {e}");
    }
}

// ---------------------------------------------------------------- checkpoints

#[test]
fn checkpoints_out_of_range_repeated_out_of_order_or_misplaced_are_errors_naming_the_checkpoint() {
    let dir = Scratch::new("checkpoints");
    let base = &bases()[0];
    let n = base.journal.len();
    assert!(verify_save(&dir, base).is_ok());
    let cp = base.checkpoints.clone();
    let with = |f: &dyn Fn(&mut Vec<Checkpoint>)| {
        let mut s = base.clone();
        f(&mut s.checkpoints);
        s
    };
    // Beyond the journal, and at 0.
    refused(&dir, &with(&|c| c[1].after = n + 5), "beyond", &["checkpoints[1]", "outside the journal"]);
    refused(&dir, &with(&|c| c[0].after = 0), "zero", &["checkpoints[0]", "outside the journal"]);
    // Repeated.
    refused(&dir, &with(&|c| c.insert(1, c[0])), "repeated", &["checkpoints[1]", "repeats checkpoints[0]"]);
    // Out of order (each pair is still true on its own).
    refused(&dir, &with(&|c| c.swap(0, 1)), "swapped", &["checkpoints[0]"]);
    refused(&dir, &with(&|c| c.swap(1, 2)), "swapped later", &["checkpoints[1]", "out of order"]);
    // Not where a capture puts one, though its hash is the state's there.
    let mut s = base.clone();
    let mut c = s.start("t").unwrap();
    for e in &s.journal[..5] {
        let _ = c.apply_entry(e);
    }
    s.checkpoints.insert(0, Checkpoint { after: 5, hash: Hash64(c.state_hash()) });
    refused(&dir, &s, "misplaced", &["checkpoints[0]", "after 5"]);
    // One in the middle left out: the next is not where it should be.
    refused(
        &dir,
        &with(&|c| {
            c.remove(0);
        }),
        "gap",
        &["checkpoints[0]", "missing"],
    );
    // More than the journal has room for.
    let mut s = with(&|c| c.push(Checkpoint { after: (cp.len() + 1) * CHECKPOINT_EVERY, hash: cp[0].hash }));
    s.journal.truncate(cp.len() * CHECKPOINT_EVERY);
    let e = verify_save(&dir, &s).unwrap_err();
    assert!(e.contains(&format!("checkpoints[{}]", cp.len())), "{e}");
}

#[test]
fn a_checkpoint_repeated_300000_times_is_refused_at_once() {
    let dir = Scratch::new("many");
    let base = &bases()[1];
    let text = base.to_ron();
    let one = format!("(after: {}, hash: \"{}\"), ", base.checkpoints[0].after, base.checkpoints[0].hash);
    let start = text.find("    checkpoints: [").unwrap();
    let end = start + text[start..].find("],\n").unwrap();
    let many = format!("{}    checkpoints: [{}{}", &text[..start], one.repeat(300_000), &text[end..]);
    assert!(many.len() < 64 << 20);
    let t = std::time::Instant::now();
    let e = verify_text(&dir, &many).unwrap_err();
    assert!(e.contains("checkpoints[1]") && e.contains("repeats checkpoints[0]"), "{}", &e[..e.len().min(500)]);
    // Generous: the old code replayed it and said ok; refusing it needs one pass over the list.
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
}

#[test]
fn a_wrong_checkpoint_hash_is_a_divergence_named_by_its_index() {
    let dir = Scratch::new("cphash");
    let mut s = bases()[2].clone();
    s.checkpoints[1].hash = Hash64(s.checkpoints[1].hash.0 ^ 1);
    let e = verify_save(&dir, &s).unwrap_err();
    assert!(e.contains("checkpoints[1] says"), "{e}");
    // Where: the state still agreed at checkpoints[0], so the divergence is somewhere in the
    // commands after it, up to checkpoints[1]'s.
    let (agreed, at) = (s.checkpoints[0].after, s.checkpoints[1].after);
    assert!(at > agreed + 1, "a range of commands, not one: {agreed} {at}");
    let range = format!("diverges at one of commands {}..={at} (the state agreed after command {agreed})", agreed + 1);
    assert!(e.contains(&range), "{range} in {e}");
}

// ---------------------------------------------------------------- the recorded state and meta

#[test]
fn every_field_of_the_recorded_state_is_compared_and_named() {
    let dir = Scratch::new("snapshot");
    let base = &bases()[2];
    let edit = |f: &dyn Fn(&mut SaveFile)| {
        let mut s = base.clone();
        f(&mut s);
        s
    };
    let cases: Vec<(&str, SaveFile)> = vec![
        ("combatants[1].hp", edit(&|s| s.state.combatants[1].hp += 1)),
        ("combatants[0].name", edit(&|s| s.state.combatants[0].name.push('x'))),
        ("combatants[2].at", edit(&|s| s.state.combatants[2].at.0 += 1)),
        ("combatants[3].conditions", edit(&|s| s.state.combatants[3].conditions.push("prone".into()))),
        ("state.status", edit(&|s| s.state.status = skirmish::rules::state::EngineStatus::AwaitingReturn)),
        ("state.pending", edit(&|s| s.state.pending = Some("Opening".into()))),
        ("state.clock", edit(&|s| s.state.clock.0 += 1)),
        ("state.log_len", edit(&|s| s.state.log_len += 1)),
        ("state.combatants", edit(&|s| drop(s.state.combatants.pop()))),
        ("state.hash", edit(&|s| s.state.hash = Hash64(s.state.hash.0 ^ 4))),
    ];
    for (field, s) in &cases {
        refused(&dir, s, field, &[field]);
    }
    // The log hash: `--verify` reports it; loading leaves it out (the log is rebuilt).
    let s = edit(&|s| s.state.log_hash = Hash64(s.state.log_hash.0 ^ 4));
    not_verified(&dir, &s, "log hash", &["state.log_hash"]);
    assert!(save::restore(s, "t.ron").is_ok());
    // A log hash taken in another event format is not comparable: the state is verified, the log
    // is named as not verified (issue 26: an older save is not "corrupt"). The same edit in this
    // build's format fails, above.
    for format in [0, skirmish::rules::log::LOG_FORMAT + 1] {
        let s = edit(&|s| {
            s.state.log_hash = Hash64(s.state.log_hash.0 ^ 4);
            s.state.log_format = format;
        });
        let ok = verify_save(&dir, &s).unwrap_or_else(|e| panic!("format {format}: {e}"));
        assert!(ok.contains("not verified: the log hash: this file's events were written"), "{ok}");
        assert!(!ok.contains("log hash, log length"), "the log hash is not listed as checked: {ok}");
    }
    // Another format whose log hash agrees anyway is checked as usual.
    let s = edit(&|s| s.state.log_format = 0);
    let ok = verify_save(&dir, &s).unwrap();
    assert!(ok.contains("log hash, log length") && !ok.contains("not comparable"), "{ok}");
    // A summary edited while the state hash agrees says so.
    let e = verify_save(&dir, &cases[0].1).unwrap_err();
    assert!(e.contains("the state hash agrees") && e.contains("after command"), "{e}");
}

#[test]
fn meta_is_compared_with_the_set_up_and_the_replay() {
    let dir = Scratch::new("meta");
    let base = &bases()[3];
    let edit = |f: &dyn Fn(&mut SaveFile)| {
        let mut s = base.clone();
        f(&mut s);
        s
    };
    refused(&dir, &edit(&|s| s.meta.round += 1), "round", &["meta.round"]);
    refused(&dir, &edit(&|s| s.meta.round = 0), "round 0", &["meta.round"]);
    refused(&dir, &edit(&|s| s.meta.ruleset = "pf1e".into()), "ruleset", &["meta.ruleset", "pf1e", "at set-up"]);
    refused(&dir, &edit(&|s| s.meta.encounter = "other".into()), "encounter", &["meta.encounter", "other"]);
    // The free fields are not checked, and the ok line says so.
    let ok = verify_save(
        &dir,
        &edit(&|s| {
            s.meta.saved_at = 12;
            s.meta.label = "anything".into();
        }),
    )
    .unwrap();
    assert!(ok.contains("not verified: ") && ok.contains("meta.saved_at and meta.label"), "{ok}");
}

#[test]
fn a_changed_issuer_or_an_edited_rejected_command_fails_to_verify() {
    let dir = Scratch::new("issuer");
    for (b, base) in bases().iter().enumerate() {
        // Each command's issuer, changed to another: never verified ok.
        for i in [0, base.journal.len() / 2, base.journal.len() - 1] {
            let Some(j) = (i..base.journal.len()).find(|j| matches!(base.journal[*j], Entry::Command { .. })) else {
                continue;
            };
            let mut s = base.clone();
            if let Entry::Command { by, .. } = &mut s.journal[j] {
                *by = if *by == Issuer::Player { Issuer::Ai } else { Issuer::Player };
            }
            refused(&dir, &s, &format!("base {b} entry {j}"), &["journal_hash"]);
        }
        // The rejected command, made another command that is rejected as well.
        let j = base.journal.iter().position(|e| matches!(e, Entry::Command { ok: false, .. })).unwrap();
        let mut s = base.clone();
        if let Entry::Command { cmd, .. } = &mut s.journal[j] {
            *cmd = Command::EndTurn { actor: Cid(9_999) };
        }
        refused(&dir, &s, &format!("base {b} rejected {j}"), &["journal_hash"]);
    }
}

#[test]
fn the_ok_line_names_what_was_checked_and_what_was_not() {
    let dir = Scratch::new("okline");
    // The fuzz target's bases verify ok, and its oracle agrees.
    for (i, s) in bases().iter().enumerate() {
        verify_save(&dir, s).unwrap_or_else(|e| panic!("base {i}: {e}"));
        assert!(consistent(s, &s.to_ron(), true), "base {i}");
    }
    let base = &bases()[0];
    let ok = verify_save(&dir, base).unwrap();
    for w in [
        &format!("{} checkpoints", base.checkpoints.len()),
        "every command's outcome",
        "each combatant's name, hp, square and conditions",
        "the journal hash",
        "meta.encounter, meta.ruleset and meta.round",
        "not verified: meta.saved_at and meta.label",
    ] {
        assert!(ok.contains(w), "`{w}` not in {ok}");
    }
    // The last checkpoints left out: how many of how many were checked.
    let mut s = base.clone();
    s.checkpoints.truncate(1);
    let ok = verify_save(&dir, &s).unwrap();
    assert!(ok.contains(&format!("1 of the {} checkpoints", base.checkpoints.len())), "{ok}");
    // Committed fixtures, written before the journal hash: still ok, saying what they lack; and
    // they still load. (The v1 save's events have been reworded since it was written, and it is
    // never re-blessed: its log hash is out of date, which `--verify` reports and loading skips.)
    let mut fixtures: Vec<PathBuf> = ["tests/fixtures/replays", "tests/fixtures/saves"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap().map(|e| e.unwrap().path()))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 5);
    for f in &fixtures {
        save::load(f).unwrap_or_else(|e| panic!("{e}"));
        let (r, lines) = verify(f);
        let ok = lines.last().unwrap();
        assert_eq!(r, Ok(true), "{}: {lines:?}", f.display());
        if f.ends_with("v1-segments-held-cast.ron") {
            // Its events were reworded after it was written (issue 26): state verified, log not.
            assert!(ok.contains("the log hash: this file's events were written before event formats"), "{ok}");
        }
        assert!(ok.starts_with("verify: ok: "), "{ok}");
        if !std::fs::read_to_string(f).unwrap().contains("journal_hash") {
            assert!(
                ok.contains("; not verified: ") && ok.contains("who issued each command (`by`)"),
                "{}: {ok}",
                f.display()
            );
        }
    }
}

#[test]
fn a_version_2_file_without_its_journal_hash_is_refused() {
    let text = bases()[0].to_ron();
    assert!(text.contains("version: 2,") && text.contains("journal_hash:"), "a capture is version 2 with the hash");
    let t: String = text.split_inclusive('\n').filter(|l| !l.trim_start().starts_with("journal_hash:")).collect();
    let e = save::parse("j.ron", &t).unwrap_err();
    assert!(e.to_string().contains("state.journal_hash: missing"), "{e}");
    // The same file as version 1 (written before the hash existed) reads.
    assert!(save::parse("j.ron", &t.replacen("version: 2,", "version: 1,", 1)).is_ok());
}

#[test]
fn a_version_from_the_future_is_too_new_whatever_else_the_file_holds() {
    let dir = Scratch::new("version");
    let text = bases()[0].to_ron();
    let newer = text.replacen("version: 2,", "version: 3,", 1);
    let cases = [
        (
            "a new field in meta",
            newer.replacen("    meta: SaveMeta(\n", "    meta: SaveMeta(\n        mood: Cheerful,\n", 1),
        ),
        ("a meta field changed type", newer.replacen("saved_at: ", "saved_at: \"yesterday\", was: ", 1)),
        ("a new top-level field", newer.replacen("    seed:", "    weather: Rain(3),\n    seed:", 1)),
        ("a new command", newer.replacen("    journal: [\n", "    journal: [\n        Teleport(x: 1),\n", 1)),
        ("syntax this version cannot read", newer.replacen("    seed:", "    sky: <<blue>>,\n    seed:", 1)),
    ];
    for (what, t) in &cases {
        assert_ne!(t, &newer, "{what}: the edit applies");
        match save::parse("n.ron", t) {
            Err(SaveError::TooNew { version: 3, .. }) => {}
            other => panic!("{what}: {:?}", other.map(|_| "parsed")),
        }
        let e = verify_text(&dir, t).unwrap_err();
        assert!(e.contains("newer than this game reads"), "{what}: {e}");
    }
    // The save list says so too.
    dir.write("future.ron", &cases[0].1);
    let listed = save::list(&dir.0);
    let l = listed.iter().find(|l| l.path.ends_with("future.ron")).unwrap();
    assert!(matches!(l.meta, Err(SaveError::TooNew { version: 3, .. })), "{:?}", l.meta);
}

// ---------------------------------------------------------------- text decoding

fn asset(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
}

/// The same text with CR-only or CRLF line ends.
fn cr_only(t: &str) -> String {
    t.replace('\n', "\r")
}

fn crlf(t: &str) -> String {
    t.replace('\n', "\r\n")
}

/// `text` with `from` replaced once (it must be there).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` not found");
    text.replacen(from, to, 1)
}

/// The 1-based line of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

/// The loaders a text file goes through, by kind, each giving `Ok` or its `file:line:col` error.
fn load_ruleset(dir: &Scratch, bytes: &[u8]) -> Result<(), skirmish::rules::data::DataError> {
    Ruleset::load(&dir.write("rs.ron", bytes)).map(drop)
}

fn load_encounter(dir: &Scratch, bytes: &[u8]) -> Result<(), skirmish::rules::data::DataError> {
    Encounter::load(&dir.write("enc.ron", bytes)).map(drop)
}

fn load_scenario_text(text: &str) -> Result<(), skirmish::rules::data::DataError> {
    // Read as text (the scenario resolves its ruleset beside its own path).
    scenario::load_str(&root().join("tests/scenarios/ex-hb-10-defend.ron"), text).map(drop)
}

fn load_save(dir: &Scratch, bytes: &[u8]) -> Result<(), SaveError> {
    save::load(&dir.write("save.ron", bytes)).map(drop)
}

fn small_save_text() -> String {
    let enc = Encounter::load(&root().join("assets/encounters/skirmish-4v4.ron")).unwrap();
    let ruleset = Ruleset::load(&root().join("assets/rulesets/homebrew-d20.ron")).unwrap();
    let mut c = enc.start(ruleset, 2).unwrap();
    ai::play(&mut c, ALL, 20);
    SaveFile::capture(&c, "text").unwrap().to_ron()
}

#[test]
fn a_byte_order_mark_is_skipped_by_every_loader_and_positions_stay_right() {
    let dir = Scratch::new("bom");
    let bom = |t: &str| [&[0xef, 0xbb, 0xbf][..], t.as_bytes()].concat();
    let rs = asset("assets/rulesets/homebrew-d20.ron");
    let enc = asset("assets/encounters/skirmish-4v4.ron");
    let sc = asset("tests/scenarios/ex-hb-10-defend.ron");
    let sv = small_save_text();
    load_ruleset(&dir, &bom(&rs)).unwrap_or_else(|e| panic!("ruleset: {e}"));
    load_encounter(&dir, &bom(&enc)).unwrap_or_else(|e| panic!("encounter: {e}"));
    load_scenario_text(&format!("\u{feff}{sc}")).unwrap_or_else(|e| panic!("scenario: {e}"));
    load_save(&dir, &bom(&sv)).unwrap_or_else(|e| panic!("save: {e}"));
    // An error on the first line after a BOM: the column an editor shows (the BOM not counted).
    let bad = "Encounter(nme: \"x\")";
    let e = load_encounter(&dir, &bom(bad)).unwrap_err();
    let plain = load_encounter(&dir, bad.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.col, &e.message), (plain.line, plain.col, &plain.message), "{e}");
    assert!(!e.message.contains("Expected opening"), "{e}");
}

#[test]
fn bytes_that_are_not_utf8_are_reported_at_their_line_and_column() {
    let dir = Scratch::new("utf8");
    // A bad byte at line 5, column 3 (two characters before it on that line), of each kind of file.
    let spoil = |t: &str| {
        let start: usize = t.split_inclusive('\n').take(4).map(str::len).sum();
        let mut b = t.as_bytes().to_vec();
        let at = start + t[start..].char_indices().nth(2).unwrap().0;
        b.insert(at, 0xff);
        b
    };
    let rs = asset("assets/rulesets/homebrew-d20.ron");
    let enc = asset("assets/encounters/skirmish-4v4.ron");
    let sv = small_save_text();
    let check = |what: &str, line: usize, col: usize, msg: &str| {
        assert_eq!((line, col), (5, 3), "{what}: {msg}");
        assert!(msg.contains("not UTF-8"), "{what}: {msg}");
    };
    let e = load_ruleset(&dir, &spoil(&rs)).unwrap_err();
    check("ruleset", e.line, e.col, &e.message);
    let e = load_encounter(&dir, &spoil(&enc)).unwrap_err();
    check("encounter", e.line, e.col, &e.message);
    match load_save(&dir, &spoil(&sv)).unwrap_err() {
        SaveError::Corrupt(e) => check("save", e.line, e.col, &e.message),
        e => panic!("save: {e}"),
    }
    // After a multi-byte character on the same line, the column counts characters.
    let t = edit(&enc, "Skirmish, four", "Skirmish — four");
    let line = line_of(&t, "Skirmish —");
    let mut b = t.as_bytes().to_vec();
    let at = t.find("— four").unwrap() + "— ".len();
    b.insert(at, 0xc3); // a lead byte without its continuation
    let e = load_encounter(&dir, &b).unwrap_err();
    let col = t[..at].rsplit('\n').next().unwrap().chars().count() + 1;
    assert_eq!((e.line, e.col), (line, col), "{e}");
}

#[test]
fn cr_only_and_crlf_line_ends_give_the_positions_an_editor_shows() {
    let dir = Scratch::new("cr");
    let rs = asset("assets/rulesets/homebrew-d20.ron");
    let enc = asset("assets/encounters/skirmish-4v4.ron");
    let sc = asset("tests/scenarios/ex-hb-10-defend.ron");
    let sv = small_save_text();
    // Valid files load whatever their line ends (the comments end at a lone CR too).
    for conv in [cr_only, crlf] {
        load_ruleset(&dir, conv(&rs).as_bytes()).unwrap_or_else(|e| panic!("ruleset: {e}"));
        load_encounter(&dir, conv(&enc).as_bytes()).unwrap_or_else(|e| panic!("encounter: {e}"));
        load_scenario_text(&conv(&sc)).unwrap_or_else(|e| panic!("scenario: {e}"));
        load_save(&dir, conv(&sv).as_bytes()).unwrap_or_else(|e| panic!("save: {e}"));
    }
    // A parse error, an error found after parsing (located in the text) and a bad field, in each
    // kind of file: the same line and column as with LF line ends, and the line is right.
    type Loader<'a> = &'a dyn Fn(&str) -> (usize, usize, String);
    let ruleset: Loader = &|t| {
        let e = load_ruleset(&dir, t.as_bytes()).unwrap_err();
        (e.line, e.col, e.message)
    };
    let encounter: Loader = &|t| {
        let e = load_encounter(&dir, t.as_bytes()).unwrap_err();
        (e.line, e.col, e.message)
    };
    let scen: Loader = &|t| {
        let e = load_scenario_text(t).unwrap_err();
        (e.line, e.col, e.message)
    };
    let savef: Loader = &|t| match save::load(&dir.write("s.ron", t)).err().unwrap() {
        SaveError::Corrupt(e) => (e.line, e.col, e.message),
        e => panic!("{e}"),
    };
    let cases: Vec<(&str, Loader, String, &str)> = vec![
        ("ruleset syntax", ruleset, edit(&rs, "\"ko\": \"검\"}, cost: 1", "\"ko\": \"검\"}, cost: ?"), "id: \"sword\""),
        ("ruleset range", ruleset, edit(&rs, "\"ko\": \"검\"}, cost: 1", "\"ko\": \"검\"}, cost: 99"), "id: \"sword\""),
        (
            "encounter side",
            encounter,
            edit(&enc, "\"오크\"}, side: \"monsters\"", "\"오크\"}, side: \"trolls\""),
            "\"Orc\"",
        ),
        (
            "encounter field",
            encounter,
            edit(&enc, "\"고블린\"}, side: \"monsters\", hp: 16", "\"고블린\"}, side: \"monsters\", hp: -16"),
            "\"Goblin\"",
        ),
        ("scenario syntax", scen, edit(&sc, "EndTurn(\"Knight\"),", "EndTurn(\"Knight\")),"), "EndTurn(\"Knight\")"),
        (
            "scenario located",
            scen,
            edit(&sc, "Act(actor: \"Witch\", ability: \"sword\"", "Act(actor: \"Witch\", ability: \"swrod\""),
            "\"swrod\"",
        ),
        ("save field", savef, edit(&sv, "    seed: 2,", "    seed: -2,"), "seed:"),
    ];
    for (what, load, lf, needle) in &cases {
        let want = load(lf);
        assert_eq!(want.0, line_of(lf, needle), "{what}: LF: {want:?}");
        for (ends, t) in [("CR", cr_only(lf)), ("CRLF", crlf(lf))] {
            assert_eq!(load(&t), want, "{what}, {ends} line ends");
        }
    }
}

#[test]
fn control_characters_in_names_and_ids_are_refused_with_position_and_field() {
    let dir = Scratch::new("names");
    let rs = asset("assets/rulesets/homebrew-d20.ron");
    let enc = asset("assets/encounters/skirmish-4v4.ron");
    let sc = asset("tests/scenarios/ex-hb-10-defend.ron");
    let check = |what: &str, e: Result<(), skirmish::rules::data::DataError>, line: usize, field: &str| {
        let e = e.err().unwrap_or_else(|| panic!("{what}: accepted"));
        assert_eq!(e.line, line, "{what}: {e}");
        assert!(e.message.starts_with(field) && e.message.contains("control character"), "{what}: {e}");
    };
    // A NUL inside a combatant's name (encounter), an ability id (ruleset), a side, a scenario's
    // name, a combatant's name in a scenario; a raw NUL byte or an escaped one, a tab, an escape.
    let t = edit(&enc, "(name: \"Knight\"", "(name: \"Kni\0ght\"");
    check("encounter name", load_encounter(&dir, t.as_bytes()), line_of(&t, "Kni\0ght"), "combatants[0].name");
    let t = edit(&enc, "\"오크\"}, side: \"monsters\"", "\"오크\"}, side: \"mon\\u{1b}sters\"");
    check("encounter side", load_encounter(&dir, t.as_bytes()), line_of(&t, "mon\\u{1b}"), "combatants[4].side");
    let t = edit(&enc, "(name: \"heroes\", names", "(name: \"her\\toes\", names");
    check("encounter sides", load_encounter(&dir, t.as_bytes()), line_of(&t, "her\\toes"), "sides[0].name");
    let t = edit(&rs, "id: \"sword\"", "id: \"sw\0ord\"");
    let line = line_of(&t, "sw\0ord");
    let e = load_ruleset(&dir, t.as_bytes());
    let field = e.as_ref().err().map(|e| e.message.split(':').next().unwrap().to_string()).unwrap_or_default();
    assert!(field.starts_with("abilities[") && field.ends_with("].id"), "{field}");
    check("ruleset ability id", e, line, &field);
    let t = edit(&sc, "name: \"EX-HB-10 defensive position\"", "name: \"EX-HB-10\\u{0}\"");
    check("scenario name", load_scenario_text(&t), line_of(&t, "EX-HB-10\\u{0}"), "name");
    let t = edit(&sc, "(name: \"Witch\"", "(name: \"Wi\0tch\"");
    check("scenario combatant", load_scenario_text(&t), line_of(&t, "Wi\0tch"), "combatants[1].name");
    // A save's names too.
    let sv = small_save_text();
    let t = edit(&sv, "encounter: \"text\"", "encounter: \"te\0xt\"");
    match save::parse("s.ron", &t) {
        Err(SaveError::Corrupt(e)) => {
            assert_eq!(e.line, line_of(&t, "te\0xt"), "{e}");
            assert!(e.message.starts_with("meta.encounter") && e.message.contains("control character"), "{e}");
        }
        other => panic!("save: {:?}", other.map(|_| "parsed")),
    }
}

// ---------------------------------------------------------------- the fuzz target

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

/// One mutation of a save: a kind and three numbers it draws its details from.
type Mutation = (u8, u32, u32, u8);

const ISSUERS: [Issuer; 5] = [Issuer::Player, Issuer::Ai, Issuer::Script, Issuer::Gm, Issuer::Auto];

/// Apply a structured mutation to `s` (a byte flip is applied to the text, in `mutated_text`).
fn mutate(s: &mut SaveFile, (kind, a, b, c): Mutation) {
    let (a, b) = (a as usize, b as usize);
    let n = s.journal.len().max(1);
    match kind % 12 {
        0 => drop(s.journal.remove(a % n)),
        1 => {
            let e = s.journal[a % n].clone();
            s.journal.insert(a % n, e);
        }
        2 => s.journal.swap(a % n, b % n),
        3 => {
            if let Some(Entry::Command { by, .. }) =
                s.journal.iter_mut().skip(a % n).find(|e| matches!(e, Entry::Command { .. }))
            {
                *by = ISSUERS[b % 5];
            }
        }
        4 => {
            if let Some(Entry::Command { ok, .. }) = s.journal.get_mut(a % n) {
                *ok = !*ok;
            }
        }
        5 => {
            let k = s.checkpoints.len().max(1);
            match c % 6 {
                0 => {
                    if let Some(p) = s.checkpoints.get_mut(a % k) {
                        p.after = b % (n + 20);
                    }
                }
                1 => {
                    if let Some(p) = s.checkpoints.get_mut(a % k) {
                        p.hash = Hash64(p.hash.0 ^ (1 << (b % 64)));
                    }
                }
                2 => {
                    if let Some(p) = s.checkpoints.get(a % k).copied() {
                        s.checkpoints.insert(b % k, p);
                    }
                }
                3 => {
                    if a % k < s.checkpoints.len() {
                        s.checkpoints.remove(a % k);
                    }
                }
                4 => {
                    if !s.checkpoints.is_empty() {
                        let (x, y) = (a % s.checkpoints.len(), b % s.checkpoints.len());
                        s.checkpoints.swap(x, y);
                    }
                }
                _ => {
                    if let Some(p) = s.checkpoints.first().copied() {
                        s.checkpoints.extend(std::iter::repeat_n(p, 1 + b % 2_000));
                    }
                }
            }
        }
        6 => {
            let st = &mut s.state;
            let m = st.combatants.len().max(1);
            match c % 10 {
                0 => st.hash = Hash64(st.hash.0 ^ (1 << (b % 64))),
                1 => st.log_hash = Hash64(st.log_hash.0 ^ (1 << (b % 64))),
                2 => st.log_len = st.log_len.wrapping_add(1 + b % 3),
                3 => st.clock.0 = st.clock.0.wrapping_add(1),
                4 => st.status = skirmish::rules::state::EngineStatus::AwaitingReturn,
                5 => st.pending = if st.pending.is_some() { None } else { Some("Defense".into()) },
                6 => {
                    if let Some(x) = st.combatants.get_mut(a % m) {
                        x.hp -= 1 + (b % 5) as i32;
                    }
                }
                7 => {
                    if let Some(x) = st.combatants.get_mut(a % m) {
                        x.name = format!("{}{}", x.name, b % 10);
                    }
                }
                8 => {
                    if let Some(x) = st.combatants.get_mut(a % m) {
                        x.at.1 += 1;
                    }
                }
                _ => {
                    if let Some(x) = st.combatants.get_mut(a % m)
                        && x.conditions.pop().is_none()
                    {
                        x.conditions.push("prone".into());
                    }
                }
            }
        }
        7 => match c % 5 {
            0 => s.meta.round = s.meta.round.wrapping_add(1 + (b % 3) as u32),
            1 => s.meta.ruleset = RULESETS[b % 4].into(),
            2 => s.meta.encounter = format!("other {}", b % 3),
            3 => s.meta.saved_at = b as u64,
            _ => s.meta.label = format!("label {b}"),
        },
        8 => s.version = (b % 4) as u32,
        9 => match c % 4 {
            0 => s.seed ^= 1 << (b % 64),
            1 => s.dice.push(1 + (b % 20) as i32),
            2 => {
                if let Some(Entry::Force(v)) = s.journal.iter_mut().find(|e| matches!(e, Entry::Force(_)))
                    && let Some(x) = v.first_mut()
                {
                    *x = 1 + (b % 20) as i32;
                }
            }
            _ => s.journal.insert(a % n, Entry::Force(vec![1 + (b % 20) as i32])),
        },
        10 => {
            // A combatant of the set-up changed (an input).
            let m = s.encounter.combatants.len().max(1);
            if let Some(x) = s.encounter.combatants.get_mut(a % m) {
                x.hp = 1 + (b % 40) as i32;
            }
        }
        _ => {} // a byte flip (below)
    }
}

/// The text of `s`, with a byte flipped when the mutation is one.
fn mutated_text(s: &SaveFile, (kind, a, b, _): Mutation) -> Vec<u8> {
    let mut bytes = s.to_ron().into_bytes();
    if kind % 12 == 11 {
        let set = b"0123456789abcdef,()[]\" :x\n\r\xff\0";
        let at = a as usize % bytes.len();
        bytes[at] = set[b as usize % set.len()];
    }
    bytes
}

/// `ron` text of a snapshot, without the journal hash when `keep` is false (a file without one).
fn snapshot_text(s: &Snapshot, keep: bool) -> String {
    let t = ron::to_string(s).unwrap();
    match t.find("journal_hash:") {
        Some(i) if !keep => {
            let end = i + t[i..].find(',').map_or(t.len() - i, |e| e + 1);
            format!("{}{}", &t[..i], &t[end..])
        }
        _ => t,
    }
}

/// Whether everything `s` records agrees with a replay of its inputs, worked out here on its
/// own: every command's outcome, each checkpoint where a capture puts it, every field of the
/// final state (the log hash only with `check_log`), and `meta`.
fn consistent(s: &SaveFile, text: &str, check_log: bool) -> bool {
    // Older versions are migrated (1 lacks only the optional journal hash); 0 and newer ones are refused.
    if !(1..=save::FORMAT_VERSION).contains(&s.version) {
        return false;
    }
    let Ok(mut c) = s.start("oracle") else { return false };
    let mut hashes = Vec::new();
    for (i, e) in s.journal.iter().enumerate() {
        let r = c.apply_entry(e);
        if let Entry::Command { ok, .. } = e
            && *ok != r.is_ok()
        {
            return false;
        }
        if (i + 1) % CHECKPOINT_EVERY == 0 {
            hashes.push(c.state_hash());
        }
    }
    if s.checkpoints.len() > hashes.len()
        || s.checkpoints.iter().enumerate().any(|(k, p)| p.after != (k + 1) * CHECKPOINT_EVERY || p.hash.0 != hashes[k])
    {
        return false;
    }
    let saved = snapshot_text(&s.state, true);
    let mut now = Snapshot::of(&c);
    now.log_format = s.state.log_format;
    if !check_log || s.state.log_format != skirmish::rules::log::LOG_FORMAT {
        now.log_hash = s.state.log_hash;
    }
    if snapshot_text(&now, text.contains("journal_hash")) != saved {
        return false;
    }
    let ruleset = match &s.ruleset {
        RulesetSource::Embedded(r) => r.name.clone(),
        RulesetSource::Installed { name, .. } => name.clone(),
    };
    s.meta.round == c.clock().0 && s.meta.ruleset == ruleset && s.meta.encounter == s.encounter.name
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn save_files_mutated_never_verify_ok_when_the_replay_disagrees(
        base in 0usize..8,
        mutations in prop::collection::vec((any::<u8>(), any::<u32>(), any::<u32>(), any::<u8>()), 1..3),
        drop_journal_hash in any::<bool>(),
    ) {
        let dir = Scratch::new("fuzz");
        let mut s = bases()[base].clone();
        for m in &mutations {
            mutate(&mut s, *m);
        }
        let mut bytes = mutated_text(&s, *mutations.last().unwrap());
        if drop_journal_hash {
            // A file written before the journal hash (the committed fixtures are): version 1.
            let t = String::from_utf8_lossy(&bytes).replacen("version: 2,", "version: 1,", 1);
            let t: String = t.split_inclusive('\n').filter(|l| !l.trim_start().starts_with("journal_hash:")).collect();
            bytes = t.into_bytes();
        }
        let path = dir.write("f.ron", &bytes);
        let (r, lines) = verify(&path);
        let loaded = save::load(&path);
        let ok = r == Ok(true);
        if ok {
            prop_assert!(loaded.is_ok(), "verified ok, but does not load: {:?}", loaded.err());
        }
        if loaded.is_ok() {
            // It loaded (or verified ok): the file must be one whose replay agrees with all it
            // records (loading leaves the log hash out, and only that may make `--verify` fail).
            let text = String::from_utf8(bytes).unwrap();
            let parsed = save::parse("f.ron", &text).unwrap();
            prop_assert!(consistent(&parsed, &text, ok), "ok ({}), but the replay disagrees: {:?}", ok, lines);
            if !ok {
                prop_assert!(lines.last().is_some_and(|l| l.contains("state.log_hash")), "{:?}", lines);
            }
        }
    }
}

// ---------------------------------------------------------------- the save sample's survivors
// (issue 26: each test below fails on a mutant that cargo-mutants found surviving in src/save/;
// docs/mutants/save-after-missed.txt)

#[test]
fn each_checkpoint_error_says_exactly_which_checkpoint_and_why() {
    let base = &bases()[0];
    let n = base.journal.len();
    let (e1, e2, e3) = (CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY, 3 * CHECKPOINT_EVERY);
    let with = |f: &dyn Fn(&mut Vec<Checkpoint>)| {
        let mut s = base.clone();
        f(&mut s.checkpoints);
        s
    };
    let tail = |i: usize, want: usize| {
        format!("; checkpoints[{i}] must be the one after {want} entries, so it cannot be checked")
    };
    let error = |s: &SaveFile| save::restore(s.clone(), "t").err().expect("refused").to_string();
    // The first two swapped: the one after 16 is found at index 1 (`i + 1 + j`).
    let s = with(&|c| c.swap(0, 1));
    assert_eq!(
        error(&s),
        format!("t: checkpoints[0]: after {e2}: out of order (checkpoints[1] is the one after {e1}){}", tail(0, e1))
    );
    // The first and third swapped: the one after 16 is found two places on (`i + 1 + j`, j = 1;
    // the save sample's second half: `+ j` → `- j` named checkpoints[0]).
    let s = with(&|c| c.swap(0, 2));
    assert_eq!(
        error(&s),
        format!("t: checkpoints[0]: after {e3}: out of order (checkpoints[2] is the one after {e1}){}", tail(0, e1))
    );
    // Off the grid: a checkpoint after 17 entries is nowhere a checkpoint goes (the guard's own
    // words, not "missing before it").
    let s = with(&|c| c[0].after = e1 + 1);
    assert_eq!(
        error(&s),
        format!(
            "t: checkpoints[0]: after {} is not where a checkpoint goes (after every {CHECKPOINT_EVERY} entries){}",
            e1 + 1,
            tail(0, e1)
        )
    );
    // The second left out: the third sits where the second goes, after the first (not before it).
    let s = with(&|c| {
        c.remove(1);
    });
    assert_eq!(
        error(&s),
        format!("t: checkpoints[1]: after {e3}, but the checkpoint after {e2} is missing before it{}", tail(1, e2))
    );
    // The third moved back to the first's place: before the second.
    let s = with(&|c| c[2].after = e1);
    assert_eq!(
        error(&s),
        format!("t: checkpoints[2]: after {e1} comes before checkpoints[1] (after {e2}): out of order{}", tail(2, e3))
    );
    // One more than the journal has room for, though it sits where the next would go.
    let k = base.checkpoints.len();
    let mut s = with(&|c| c.push(Checkpoint { after: (k + 1) * CHECKPOINT_EVERY, hash: c[0].hash }));
    s.journal.truncate(k * CHECKPOINT_EVERY + CHECKPOINT_EVERY - 1);
    let entries = s.journal.len();
    assert_eq!(
        error(&s),
        format!(
            "t: checkpoints[{k}]: a journal of {entries} entries has room for {k} checkpoints (one after every \
             {CHECKPOINT_EVERY} entries), and the file lists {}",
            k + 1
        )
    );
    assert!(n >= e3, "three checkpoints' worth of journal");
}

#[test]
fn the_first_divergence_is_the_one_reported_and_only_under_verify() {
    let base = &bases()[1];
    // Two applied commands marked as rejected: the replay applies them, the first is reported.
    let applied: Vec<usize> = base
        .journal
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Entry::Command { ok: true, .. }))
        .map(|(i, _)| i)
        .collect();
    let (a, b) = (applied[3], applied[applied.len() - 2]);
    let mut s = base.clone();
    for i in [a, b] {
        if let Entry::Command { ok, .. } = &mut s.journal[i] {
            *ok = false;
        }
    }
    let (_, d) = s.replay("t", true, |_, _| {}).unwrap();
    let d = d.expect("a divergence");
    assert_eq!(d.entry, a + 1, "{d:?}");
    assert!(d.what.contains("was rejected when recorded and is applied now"), "{d:?}");
    // Without --verify nothing is compared.
    let (_, d) = s.replay("t", false, |_, _| {}).unwrap();
    assert!(d.is_none(), "{d:?}");
    // Two checkpoints and the final state wrong as well: still the first, and only under verify.
    let mut s2 = base.clone();
    for k in [1, 2] {
        s2.checkpoints[k].hash = Hash64(s2.checkpoints[k].hash.0 ^ 1);
    }
    s2.state.combatants[0].hp += 1;
    let (_, d) = s2.replay("t", true, |_, _| {}).unwrap();
    let d = d.expect("a divergence");
    assert!(d.what.contains("checkpoints[1] says"), "{d:?}");
    assert_eq!(d.entry, s2.checkpoints[1].after);
    let (_, d) = s2.replay("t", false, |_, _| {}).unwrap();
    assert!(d.is_none(), "{d:?}");
    // The final state alone wrong: reported after the last entry, under verify only.
    let mut s3 = base.clone();
    s3.state.combatants[0].hp += 1;
    assert!(s3.replay("t", true, |_, _| {}).unwrap().1.is_some_and(|d| d.what.contains("hp")));
    assert!(s3.replay("t", false, |_, _| {}).unwrap().1.is_none());
}

#[test]
fn a_checkpoint_after_the_last_entry_is_inside_the_journal() {
    // A journal cut at a checkpoint's place: that checkpoint, after the last entry, is checked
    // (the replay then disagrees with the recorded end state, which is another error).
    let mut s = bases()[0].clone();
    let k = s.checkpoints.len();
    s.journal.truncate(k * CHECKPOINT_EVERY);
    let e = save::restore(s, "t").err().expect("refused").to_string();
    assert!(!e.contains("outside the journal"), "{e}");
}

#[test]
fn a_map_rows_cannot_hold_is_not_savable() {
    // A wall on an open, unbounded plane: rows of `.`, `#` and `~` describe bounded maps only.
    let mut map = skirmish::rules::map::BattleMap::open();
    map.blocked.insert(skirmish::rules::components::GridPos { x: 3, y: 3 });
    let specs = [crate::common::who("A", "a", 10, (0, 0)), crate::common::who("B", "b", 5, (1, 0))];
    let rs = Ruleset::load(&root().join("assets/rulesets/homebrew-d20.ron")).unwrap();
    let c = skirmish::rules::driver::Combat::with_map(rs, 1, &specs, map, &[]).unwrap();
    match SaveFile::capture(&c, "walled plane") {
        Err(SaveError::NotSavable(m)) => {
            assert_eq!(m, "the battle map cannot be written as rows of `.`, `#` and `~`");
        }
        other => panic!("{:?}", other.map(|s| s.encounter.map)),
    }
}

#[test]
fn names_in_other_languages_never_change_a_rulesets_hash() {
    // Every ability named in Spanish, no condition named, no stat names: the hash is the one of
    // the same ruleset without the names.
    // (pf2e's GM never opens, so its hash is taken on the fast path that names would change.)
    let mut rs = Ruleset::load(&root().join("assets/rulesets/pf2e.ron")).unwrap();
    assert!(rs.gm_policy.is_never());
    rs.conditions.iter_mut().for_each(|c| c.names.clear());
    rs.stat_names.clear();
    let mut plain = rs.clone();
    plain.abilities.iter_mut().for_each(|a| a.names.clear());
    rs.abilities.iter_mut().for_each(|a| drop(a.names.insert("es".into(), format!("{} (es)", a.name))));
    assert_eq!(save::ruleset_hash(&rs), save::ruleset_hash(&plain));
    // Only conditions named: the same.
    let mut conds = plain.clone();
    conds.conditions.iter_mut().for_each(|c| drop(c.names.insert("es".into(), format!("{} (es)", c.id))));
    assert_eq!(save::ruleset_hash(&conds), save::ruleset_hash(&plain));
    // A rule does count.
    plain.abilities[0].cost += 1;
    assert_ne!(save::ruleset_hash(&rs), save::ruleset_hash(&plain));
}

#[test]
fn the_save_list_shows_only_ron_files_that_are_not_hidden() {
    let dir = Scratch::new("list");
    let base = &bases()[0];
    save::write_atomic(&dir.0.join("kept.ron"), base).unwrap();
    dir.write("notes.txt", base.to_ron());
    dir.write(".half-written.ron", base.to_ron());
    let listed: Vec<String> =
        save::list(&dir.0).iter().map(|l| l.path.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(listed, ["kept.ron"]);
}

#[test]
fn the_replay_log_says_set_up_once_before_the_first_command() {
    let dir = Scratch::new("replaylog");
    let p = dir.write("r.ron", bases()[0].to_ron());
    let o = ReplayOptions { file: p.display().to_string(), verify: false, log: true };
    let mut lines = Vec::new();
    replay(&o, &mut |l| lines.push(l.to_string())).unwrap();
    let at: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| *l == "set-up").map(|(i, _)| i).collect();
    assert_eq!(at.len(), 1, "{lines:?}");
    let first = lines.iter().position(|l| l.starts_with("#1 ")).expect("the first entry is shown");
    assert!(at[0] < first, "{lines:?}");
}
