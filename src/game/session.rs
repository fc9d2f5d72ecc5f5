//! What the game keeps around a battle, without drawing it: saves, loading, undo and redo (issue
//! 12), the Simulate window's background batch (issue 11), and the hot-reloaded data the next
//! battle starts from (issue 14). The egui windows in [`super::screens`] show these and act only by
//! writing [`SessionRequest`]s (or starting and cancelling a simulation); the rules state changes
//! only through the save module's own replay of the journal.
//!
//! - **Undo** (Ctrl+Z) takes back the player's last command and everything the AI, the GM and the
//!   prompt policies answered after it; **redo** (Ctrl+Y) gives it back with the same dice (see
//!   [`crate::save::undo`]).
//! - **Quick save** (F5) writes `saves/quicksave.ron`; **quick load** (F9) reads it. The saves
//!   window (F6) saves under a name and lists every save with its encounter, ruleset, round and
//!   date. A save that does not load is reported and the battle goes on untouched.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::battle::{Battle, PendingCombat, Words};
use super::input::{GameAction, PlayerInput, TypingInUi};
use super::setup::{BattleSetup, SideControl};
use crate::i18n::Tr;
use crate::rules::command::Command;
use crate::rules::components::{Cid, Side};
use crate::rules::driver::Combat;
use crate::save::{self, SaveFile, undo::History};
use crate::sim::{SimConfig, Summary};

/// The quick-save slot's file name, in [`Session::dir`].
pub const QUICK_SLOT: &str = "quicksave.ron";

/// Something the player asked of the session: from the keys, the banner or the saves window.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum SessionRequest {
    /// Take back the last command a person sent.
    Undo,
    /// Give back what the last undo took.
    Redo,
    /// Save to the quick-save slot.
    QuickSave,
    /// Load the quick-save slot.
    QuickLoad,
    /// Save under this name (a file in the saves folder).
    SaveAs(String),
    /// Load this save file.
    Load(PathBuf),
}

/// A line for the banner: what the last save, load, undo or redo did, or why it could not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// It worked.
    pub ok: bool,
    /// What to say, in the player's language.
    pub text: String,
    /// The same as data, to say it again when the language changes.
    words: Words,
}

/// Saves, undo history and the saves window's state.
#[derive(Resource, Debug)]
pub struct Session {
    /// The undo history of the battle under way (a new one for every started or loaded battle).
    pub history: History,
    /// Where saves go: `saves/` in the working directory.
    pub dir: PathBuf,
    /// The last outcome, for the banner.
    pub note: Option<Note>,
    /// The saves window is open.
    pub saves_open: bool,
    /// The name typed in the saves window.
    pub save_name: String,
    /// The saves listed in the window (refreshed when it opens and after a save).
    pub listed: Vec<save::Listed>,
    /// Journal entries that set the battle up (a scenario's steps): undo never goes below.
    pub floor: usize,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            history: History::new(),
            dir: super::app_state::saves_dir(),
            note: None,
            saves_open: false,
            save_name: String::new(),
            listed: Vec::new(),
            floor: 0,
        }
    }
}

impl Session {
    /// The quick-save slot.
    pub(crate) fn quick_path(&self) -> PathBuf {
        self.dir.join(QUICK_SLOT)
    }

    /// Whether a person's command since the battle was set up can be taken back.
    pub fn can_undo(&self, combat: &Combat) -> bool {
        crate::save::undo::last_player_command(combat).is_some_and(|i| i >= self.floor)
    }

    /// Read the saves folder again.
    pub fn refresh_list(&mut self) {
        self.listed = save::list(&self.dir);
    }

    /// Put a note on the banner, in the language of `tr` (the terminal's log line stays English).
    fn say(&mut self, ok: bool, words: Words, combat: &Combat, tr: &Tr) {
        let english = words.say(Some(combat), &Tr::default());
        if ok {
            info!("{english}");
        } else {
            warn!("{english}");
        }
        let text = words.say(Some(combat), tr);
        self.note = Some(Note { ok, text, words });
    }

    /// Say the banner's note again in the language of `tr` (the language changed).
    pub(crate) fn reword(&mut self, combat: &Combat, tr: &Tr) {
        if let Some(n) = &mut self.note {
            n.text = n.words.say(Some(combat), tr);
        }
    }
}

/// A new battle: a new undo history, floored at the journal entries that set it up.
pub(crate) fn on_battle_started(
    mut started: MessageReader<super::battle::BattleStarted>,
    mut session: ResMut<Session>,
) {
    for s in started.read() {
        session.history = History::new();
        session.floor = s.floor;
    }
}

/// A save file's name from what the player typed: letters, digits, `-` and `_` kept, the rest
/// turned into `-`; never empty, never a path.
pub(crate) fn file_name_for(name: &str) -> String {
    let mut s: String =
        name.trim().chars().map(|c| if crate::rules::limits::plain_name_char(c) { c } else { '-' }).collect();
    s.truncate(64);
    let s = s.trim_matches('-').to_string();
    let s = if s.is_empty() { "save".to_string() } else { s };
    format!("{s}.ron")
}

/// `2026-12-01 03:40 UTC` from seconds since 1970.
pub(crate) fn date_words(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", secs / 3600, secs % 3600 / 60)
}

/// The player's command in words, for "Undid ..." and "Redid ...".
fn command_words(c: &Combat, cmd: &Command) -> Words {
    let name = |x: Cid| c.name(x);
    match cmd {
        Command::Act(i) => Words::msg("note-cmd-act").with("who", name(i.actor)).with("ability", &i.ability),
        Command::EndTurn { actor } => Words::msg("note-cmd-end-turn").with("who", name(*actor)),
        Command::Delay { actor } => Words::msg("note-cmd-delay").with("who", name(*actor)),
        Command::ReturnFromDelay { actor } => Words::msg("note-cmd-return").with("who", name(*actor)),
        Command::Release { actor } => Words::msg("note-cmd-release").with("who", name(*actor)),
        Command::Hold { actor, ability, .. } => {
            Words::msg("note-cmd-hold").with("who", name(*actor)).with("ability", ability)
        }
        Command::Decide { .. } => Words::msg("note-cmd-decision"),
        _ => Words::msg("note-cmd-other"),
    }
}

/// The keys: Ctrl+Z, Ctrl+Y, F5, F9, F6 (saves window), F7 (Simulate window).
pub(crate) fn session_keys(
    actions: Single<&ActionState<GameAction>, With<PlayerInput>>,
    mut out: MessageWriter<SessionRequest>,
    mut session: ResMut<Session>,
    mut sim: ResMut<SimPanel>,
    typing: Res<TypingInUi>,
) {
    if typing.0 {
        return;
    }
    for (a, r) in [
        (GameAction::Undo, SessionRequest::Undo),
        (GameAction::Redo, SessionRequest::Redo),
        (GameAction::QuickSave, SessionRequest::QuickSave),
        (GameAction::QuickLoad, SessionRequest::QuickLoad),
    ] {
        if actions.just_pressed(&a) {
            out.write(r);
        }
    }
    if actions.just_pressed(&GameAction::Saves) {
        session.saves_open = !session.saves_open;
        if session.saves_open {
            session.refresh_list();
        }
    }
    if actions.just_pressed(&GameAction::Simulate) {
        sim.open = !sim.open;
    }
}

/// Carry out the requests: undo, redo, save and load. A failure is a note on the banner; the
/// battle under way is never touched by a save that does not load. A changed combat (undone,
/// redone, loaded) is shown by entering the battle screen again with a [`PendingCombat`]: the
/// board, the HUD's caches, the playback and the selection all start from it.
pub(crate) fn apply_requests(
    mut requests: MessageReader<SessionRequest>,
    battle: Option<ResMut<Battle>>,
    mut session: ResMut<Session>,
    mut commands: Commands,
    mut next: ResMut<NextState<super::app_state::Screen>>,
    pending: Option<Res<PendingCombat>>,
    tr: Res<Tr>,
) {
    let Some(mut battle) = battle else {
        requests.clear();
        return;
    };
    if tr.is_changed() {
        // A new language: the banner's note and refusal are worded again.
        session.reword(&battle.combat, &tr);
        battle.reword(&tr);
    }
    let mut pending = pending.map(|_| ());
    for r in requests.read() {
        if pending.is_some() {
            // One change of combat per frame: the rest waits for the next request.
            break;
        }
        match r {
            SessionRequest::Undo => {
                if !session.can_undo(&battle.combat) {
                    session.say(false, Words::msg("note-undo-nothing"), &battle.combat, &tr);
                    continue;
                }
                let Session { history, .. } = &mut *session;
                match history.undo(&mut battle.combat) {
                    Ok(step) => {
                        let words = command_words(&battle.combat, &step.command);
                        let note = Words::msg("note-undid").with("what", words).with("n", step.entries);
                        session.say(true, note, &battle.combat, &tr);
                        battle.clear_refusal();
                        commands.insert_resource(PendingCombat::Keep);
                        next.set(super::app_state::Screen::Battle);
                        pending = Some(());
                    }
                    Err(e) => {
                        let note = Words::msg("note-undo-failed").with("error", e.to_string());
                        session.say(false, note, &battle.combat, &tr);
                    }
                }
            }
            SessionRequest::Redo => {
                let Session { history, .. } = &mut *session;
                match history.redo(&mut battle.combat) {
                    Ok(step) => {
                        let words = command_words(&battle.combat, &step.command);
                        session.say(true, Words::msg("note-redid").with("what", words), &battle.combat, &tr);
                        battle.clear_refusal();
                        commands.insert_resource(PendingCombat::Keep);
                        next.set(super::app_state::Screen::Battle);
                        pending = Some(());
                    }
                    Err(e) => {
                        let note = Words::msg("note-redo-failed").with("error", e.to_string());
                        session.say(false, note, &battle.combat, &tr);
                    }
                }
            }
            SessionRequest::QuickSave => {
                let path = session.quick_path();
                // The label is kept in the save file: it stays as written.
                write_save(&battle, &mut session, path, "quick save", &tr);
            }
            SessionRequest::SaveAs(name) => {
                let path = session.dir.join(file_name_for(name));
                write_save(&battle, &mut session, path, "", &tr);
            }
            SessionRequest::QuickLoad => {
                let path = session.quick_path();
                if load_save(&battle, &mut session, &mut commands, &mut next, path, &tr) {
                    pending = Some(());
                }
            }
            SessionRequest::Load(path) => {
                if load_save(&battle, &mut session, &mut commands, &mut next, path.clone(), &tr) {
                    pending = Some(());
                }
            }
        }
    }
}

fn write_save(battle: &Battle, session: &mut Session, path: PathBuf, label: &str, tr: &Tr) {
    let result: Result<(), Words> = std::fs::create_dir_all(&session.dir)
        .map_err(|e| {
            Words::msg("note-no-folder").with("dir", session.dir.display().to_string()).with("error", e.to_string())
        })
        .and_then(|()| {
            SaveFile::capture(&battle.combat, &battle.setup.encounter.name).map_err(|e| Words::from(e.to_string()))
        })
        .and_then(|mut s| {
            s.meta.label = label.to_string();
            save::write_atomic(&path, &s).map_err(|e| Words::from(e.to_string()))
        });
    match result {
        Ok(()) => {
            let round = battle.combat.turn().round;
            let note = Words::msg("note-saved").with("round", round).with("path", path.display().to_string());
            session.say(true, note, &battle.combat, tr);
            session.refresh_list();
        }
        Err(e) => session.say(false, Words::msg("note-not-saved").with("error", e), &battle.combat, tr),
    }
}

/// Load a save: read and verify it first, then play it (the battle screen is entered again). A
/// save that does not load leaves the battle as it was.
fn load_save(
    battle: &Battle,
    session: &mut Session,
    commands: &mut Commands,
    next: &mut NextState<super::app_state::Screen>,
    path: PathBuf,
    tr: &Tr,
) -> bool {
    match save::load(&path) {
        Ok(loaded) => {
            let meta = loaded.save.meta.clone();
            let setup = setup_for_save(battle, &loaded.save, &loaded.combat, &path);
            let note = Words::msg("note-loaded")
                .with("path", path.display().to_string())
                .with("encounter", meta.encounter)
                .with("ruleset", meta.ruleset)
                .with("round", meta.round);
            // Named in the loaded combat: the battle under way is about to give way to it.
            session.say(true, note, &loaded.combat, tr);
            commands.insert_resource(PendingCombat::Loaded(Box::new(loaded.combat), Box::new(setup)));
            next.set(super::app_state::Screen::Battle);
            true
        }
        Err(e) => {
            session.say(false, Words::msg("note-not-loaded").with("error", e.to_string()), &battle.combat, tr);
            false
        }
    }
}

/// The set-up of a battle loaded from `path`. Sides keep who played them; a side the battle did
/// not have is the player's if no side is, else the AI's.
pub(crate) fn setup_for_save(battle: &Battle, save: &SaveFile, combat: &Combat, path: &std::path::Path) -> BattleSetup {
    let mut sides: Vec<String> = Vec::new();
    for i in 0..combat.len() as u32 {
        if let Some(s) = combat.get::<Side>(Cid(i))
            && !sides.contains(&s.0)
        {
            sides.push(s.0.clone());
        }
    }
    let mut control = std::collections::BTreeMap::new();
    for s in &sides {
        if let Some(c) = battle.setup.sides.get(s) {
            control.insert(s.clone(), *c);
        }
    }
    for s in &sides {
        if !control.contains_key(s) {
            let someone_plays = control.values().any(|c| *c == SideControl::Human);
            control.insert(s.clone(), if someone_plays { SideControl::Ai } else { SideControl::Human });
        }
    }
    let mut setup = battle.setup.clone();
    setup.sides = control;
    // The save names its encounter; names in other languages belong to the battle this replaces
    // only if it is the same encounter.
    if setup.encounter.name != save.meta.encounter {
        setup.encounter.name = save.meta.encounter.clone();
        setup.encounter.names.clear();
        setup.encounter.descriptions.clear();
    }
    setup.ruleset_name = save.meta.ruleset.clone();
    setup.ruleset = combat.ruleset().clone();
    setup.seed = save.seed;
    setup.mods = save.mods.clone();
    setup.scenario = None;
    setup.from_save = Some(path.to_path_buf());
    setup
}

/// A simulation running in the background for the Simulate window.
#[derive(Debug)]
pub struct SimJob {
    /// Runs finished so far.
    pub done: Arc<AtomicU64>,
    /// Runs in all.
    pub total: u64,
    cancel: Arc<AtomicBool>,
    out: Arc<Mutex<Option<Result<Summary, Words>>>>,
}

impl Drop for SimJob {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The Simulate window: N AI-vs-AI runs of the battle's encounter on one background thread (the
/// game keeps the other core), the same code as `skirmish sim`.
#[derive(Resource, Debug)]
pub struct SimPanel {
    /// The window is open.
    pub open: bool,
    /// Runs to play.
    pub runs: u64,
    /// The batch under way.
    pub job: Option<SimJob>,
    /// The last batch's summary, or why it failed (in the player's language).
    pub result: Option<Result<Summary, String>>,
    /// What the result is about: `encounter · ruleset · N runs`.
    pub about: String,
    /// The language of the window's words: the game's, kept by [`poll_sim`].
    lang: Tr,
    /// Why the last batch failed, as data, to say it again in another language.
    failure: Option<Words>,
    /// [`SimPanel::about`] as data.
    about_words: Option<Words>,
}

impl Default for SimPanel {
    fn default() -> Self {
        Self {
            open: false,
            runs: 200,
            job: None,
            result: None,
            about: String::new(),
            lang: Tr::default(),
            failure: None,
            about_words: None,
        }
    }
}

impl SimPanel {
    /// Start `runs` runs of the battle's encounter under its ruleset and mods, seeds from `seed`.
    /// A battle set up from a scenario file has no encounter file to simulate: an error result.
    pub(crate) fn start(&mut self, battle: &Battle) {
        if battle.setup.scenario.is_some() || battle.setup.from_save.is_some() {
            let key = if battle.setup.scenario.is_some() { "simulate-from-scenario" } else { "simulate-from-save" };
            self.fail(Words::msg(key));
            return;
        }
        let mut cfg = SimConfig::new(&battle.setup.file, Some(&battle.setup.ruleset_name), self.runs.max(1));
        cfg.seed = battle.setup.seed;
        cfg.jobs = 1;
        cfg.mods = battle.setup.mods.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        cfg.cancel = Some(cancel.clone());
        let done = Arc::new(AtomicU64::new(0));
        let out = Arc::new(Mutex::new(None));
        let (d, o) = (done.clone(), out.clone());
        let about = Words::msg("simulate-about")
            .with("encounter", battle.setup.encounter.name_in(self.lang.code()))
            .with("ruleset", &battle.setup.ruleset_name)
            .with("n", cfg.runs);
        self.about = about.say(None, &self.lang);
        self.about_words = Some(about);
        let total = cfg.runs;
        let spawned = std::thread::Builder::new().name("simulate".into()).spawn(move || {
            let run = std::panic::AssertUnwindSafe(|| crate::sim::run_batch(&cfg, &|n| d.store(n, Ordering::Relaxed)));
            let r = match std::panic::catch_unwind(run) {
                Ok(r) => r.map_err(|e| Words::from(e.to_string())),
                Err(_) => Err(Words::msg("simulate-panicked")),
            };
            if let Ok(mut slot) = o.lock() {
                *slot = Some(r);
            }
        });
        match spawned {
            Ok(_) => {
                self.result = None;
                self.failure = None;
                self.job = Some(SimJob { done, total, cancel, out });
            }
            Err(e) => self.fail(Words::msg("simulate-no-thread").with("error", e.to_string())),
        }
    }

    /// The batch failed, or could not start: say why.
    fn fail(&mut self, why: Words) {
        self.result = Some(Err(why.say(None, &self.lang)));
        self.failure = Some(why);
    }

    /// Say the window's words in the language of `tr` from now on, and again what is shown.
    pub(crate) fn set_language(&mut self, tr: &Tr) {
        self.lang = tr.clone();
        if let (Some(w), Some(Err(e))) = (&self.failure, &mut self.result) {
            *e = w.say(None, tr);
        }
        if let Some(w) = &self.about_words {
            self.about = w.say(None, tr);
        }
    }

    /// Take the batch's result once it is done; `true` when one arrived.
    pub(crate) fn poll(&mut self) -> bool {
        let finished = self.job.as_ref().and_then(|j| j.out.lock().ok().and_then(|mut s| s.take()));
        match finished {
            Some(Ok(s)) => {
                self.result = Some(Ok(s));
                self.failure = None;
                self.job = None;
                true
            }
            Some(Err(why)) => {
                self.fail(why);
                self.job = None;
                true
            }
            None => false,
        }
    }

    /// Stop the batch under way (its thread ends at its next run).
    pub(crate) fn cancel(&mut self) {
        self.job = None;
        self.fail(Words::msg("simulate-cancelled"));
    }
}

/// Each frame: pick up a finished simulation; a new language words the window again.
pub(crate) fn poll_sim(mut sim: ResMut<SimPanel>, tr: Res<Tr>) {
    if tr.is_changed() {
        sim.set_language(&tr);
    }
    if sim.job.is_some() {
        sim.poll();
    }
}

/// `--open`: once the battle is up, open the windows asked for (the simulation also starts).
pub(crate) fn open_windows(
    options: Res<super::app_state::PlayOptions>,
    battle: Option<Res<Battle>>,
    mut session: ResMut<Session>,
    mut sim: ResMut<SimPanel>,
    hud_ui: Option<ResMut<super::hud_panels::HudUi>>,
    mut done: Local<bool>,
) {
    if *done || options.open.is_empty() {
        return;
    }
    let Some(battle) = battle else { return };
    *done = true;
    let mut hud_ui = hud_ui;
    for w in &options.open {
        match w.as_str() {
            "saves" => {
                session.saves_open = true;
                session.refresh_list();
            }
            "simulate" => {
                sim.open = true;
                sim.start(&battle);
            }
            "inspector" => {
                if let Some(h) = hud_ui.as_mut() {
                    h.inspector = true;
                }
            }
            "log" => {
                if let Some(h) = hud_ui.as_mut() {
                    h.log = true;
                }
            }
            _ => {}
        }
    }
}
