//! The battle: one `Combat` driven by commands from the player, the prompts and the AI, paced so
//! that each `CombatEvent` can be watched.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use bevy::prelude::*;

use super::app_state::Screen;
use super::library::Library;
use super::setup::{BattleSetup, SideControl, setup_from};
use crate::ai::{self, AiScope};
use crate::i18n::{Arg, Tr};
use crate::modding::watch::{CombatData, HotData, load_combat_data};
use crate::rules::command::{Command, Decider, Rejection};
use crate::rules::components::{Cid, GridPos, Side};
use crate::rules::driver::Combat;
use crate::rules::journal::Issuer;
use crate::rules::log::{CombatEvent, DrawReason};
use crate::rules::ruleset::Ruleset;
use crate::rules::state::{DecisionKind, EngineStatus, Pending};
use crate::tr;

/// A person sits in the GM's seat: the GM's decisions (Assist approval, initiative ties) are asked
/// in a prompt instead of answered by the AI (the start screen's choice).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct GmSeat(pub bool);

/// What the next `OnEnter(Screen::Battle)` plays instead of starting from the set-up.
#[derive(Resource)]
pub enum PendingCombat {
    /// The battle's own combat, as an undo or a redo left it (with its undo history).
    Keep,
    /// A loaded save's combat, and the set-up to play it under.
    Loaded(Box<Combat>, Box<BattleSetup>),
}

/// What the hot-reloaded [`CombatData`] was loaded for: encounter file, ruleset, mods. A battle
/// set up for something else loads afresh.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct HotKey(pub String, pub String, pub Vec<String>);

/// The fight under way.
#[derive(Resource)]
pub struct Battle {
    /// The rules driver: the only place rules state lives.
    pub combat: Combat,
    /// What it was set up from (for a restart).
    pub setup: BattleSetup,
    /// Why the last command was refused, in words, for the banner (in the player's language:
    /// [`Battle::refuse`] sets it, and a change of language words it again).
    pub last_rejection: Option<String>,
    /// The same refusal as data, to word it again when the language changes.
    refused: Option<Words>,
    /// A set-up error, shown instead of a board.
    pub error: Option<String>,
    /// The openings the GM policy suggests to a person in the GM's seat.
    pub gm: GmDesk,
}

/// The GM's openings in the game. The AI GM opens what the policy (`Ruleset::gm_policy`) calls
/// for; with a person in the GM's seat the policy suggests instead, and the battle waits for the
/// answer. (Where the policy has read the log up to is kept with the combat, `Combat::gm_read`.)
#[derive(Debug, Clone, Default)]
pub struct GmDesk {
    /// The openings suggested to a person in the GM's seat, by the log and journal lengths each
    /// was made at: one lapses as soon as anything else happens, and comes back if an undo
    /// returns to that very point.
    pub suggestions: BTreeMap<(usize, usize), crate::rules::gm_policy::OpeningCall>,
}

impl GmDesk {
    /// A desk for a new battle: the policy starts watching from now.
    pub(crate) fn new(combat: &mut Combat) -> Self {
        ai::gm::watch_from_now(combat);
        GmDesk::default()
    }

    /// This point of the fight: the log's and the journal's lengths.
    fn at(combat: &Combat) -> (usize, usize) {
        (combat.log().events.len(), combat.journal().len())
    }

    /// The suggestion made at this point of the fight, if any.
    pub fn suggestion_now(&self, combat: &Combat) -> Option<&crate::rules::gm_policy::OpeningCall> {
        self.suggestions.get(&Self::at(combat))
    }

    /// Remember a suggestion made now.
    pub(crate) fn suggest(&mut self, combat: &Combat, call: crate::rules::gm_policy::OpeningCall) {
        self.suggestions.insert(Self::at(combat), call);
    }

    /// The person lets the suggestion made at this point go.
    pub(crate) fn dismiss(&mut self, combat: &Combat) {
        self.suggestions.remove(&Self::at(combat));
    }
}

/// Words for the banner kept as data: a message of the language catalogs and its arguments, so
/// that a change of language words them again ([`Words::say`]). Notes, refusals and the
/// Simulate window's errors are kept this way, never only as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Words {
    /// A catalog message and its named arguments.
    Msg(&'static str, Vec<(&'static str, Words)>),
    /// Text put in as it is: a name, a path, an error of another module.
    Text(String),
    /// A number (it chooses plural forms).
    Num(i64),
    /// The engine's refusal of a command, in the player's words.
    Refusal(Rejection),
}

impl Words {
    /// A catalog message, its arguments to add with [`Words::with`].
    pub(crate) fn msg(key: &'static str) -> Words {
        Words::Msg(key, Vec::new())
    }

    /// The message with one more argument (only a [`Words::Msg`] takes arguments).
    pub(crate) fn with(self, name: &'static str, value: impl Into<Words>) -> Words {
        match self {
            Words::Msg(key, mut args) => {
                args.push((name, value.into()));
                Words::Msg(key, args)
            }
            other => other,
        }
    }

    /// The words in the language of `tr`. A refusal names the creatures of `combat` (without
    /// one, the engine's English words).
    pub(crate) fn say(&self, combat: Option<&Combat>, tr: &Tr) -> String {
        match self {
            Words::Msg(key, args) if args.is_empty() => tr.t(key),
            Words::Msg(key, args) => {
                let args: Vec<(&str, Arg)> = args
                    .iter()
                    .map(|(name, v)| {
                        (
                            *name,
                            match v {
                                Words::Num(n) => Arg::Num(*n),
                                other => Arg::Text(other.say(combat, tr)),
                            },
                        )
                    })
                    .collect();
                tr.ta(key, &args)
            }
            Words::Text(s) => s.clone(),
            Words::Num(n) => n.to_string(),
            Words::Refusal(r) => match combat {
                Some(c) => crate::hud_model::rejection_words(c, r, tr),
                None => r.to_string(),
            },
        }
    }
}

impl From<String> for Words {
    fn from(s: String) -> Self {
        Words::Text(s)
    }
}
impl From<&String> for Words {
    fn from(s: &String) -> Self {
        Words::Text(s.clone())
    }
}
impl From<&str> for Words {
    fn from(s: &str) -> Self {
        Words::Text(s.to_string())
    }
}
impl From<Rejection> for Words {
    fn from(r: Rejection) -> Self {
        Words::Refusal(r)
    }
}
macro_rules! words_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Words {
            fn from(n: $t) -> Self {
                Words::Num(n as i64)
            }
        }
    )*};
}
words_from_int!(i32, i64, u8, u32, u64, usize);

impl Battle {
    /// Show a refusal in the banner, in the language of `tr`.
    pub(crate) fn refuse(&mut self, why: Words, tr: &Tr) {
        self.last_rejection = Some(why.say(Some(&self.combat), tr));
        self.refused = Some(why);
    }

    /// No refusal in the banner any more.
    pub(crate) fn clear_refusal(&mut self) {
        self.last_rejection = None;
        self.refused = None;
    }

    /// Word the banner's refusal again, in the language of `tr` (the language changed).
    pub(crate) fn reword(&mut self, tr: &Tr) {
        if let Some(w) = &self.refused {
            self.last_rejection = Some(w.say(Some(&self.combat), tr));
        }
    }

    /// Who plays this creature.
    pub fn control(&self, c: Cid) -> SideControl {
        let side = self.combat.get::<Side>(c).map(|s| s.0.clone()).unwrap_or_default();
        self.setup.sides.get(&side).copied().unwrap_or(SideControl::Ai)
    }

    /// The creature standing on a square, if any (down creatures don't stand).
    pub fn creature_at(&self, p: GridPos) -> Option<Cid> {
        self.combat.world.resource::<crate::rules::state::Roster>().occupied.get(&p).copied()
    }

    /// The human-controlled creature the engine waits on now, for a command or a decision.
    pub(crate) fn human_waiting(&self) -> Option<Cid> {
        match self.combat.status() {
            EngineStatus::AwaitingCommand(c) | EngineStatus::AwaitingDecision(Decider::Creature(c))
                if self.control(c) == SideControl::Human =>
            {
                Some(c)
            }
            _ => None,
        }
    }
}

/// A battle started (or a save was loaded into one): the session ([`super::session`]) starts a new
/// undo history, which never goes below the first `floor` journal entries (the ones that set the
/// battle up: a scenario's steps).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleStarted {
    /// Journal entries undo never takes back.
    pub floor: usize,
}

/// A command from a person: the input system and the prompts write these; `drive` submits them.
#[derive(Message, Debug, Clone)]
pub struct HumanCommand(pub Command);

/// The player's commands not yet submitted: they wait while the view catches up.
#[derive(Resource, Debug, Default)]
pub struct HumanQueue(pub VecDeque<Command>);

/// How fast the view plays events and AI turns.
#[derive(Resource, Debug, Clone)]
pub struct Pacing {
    /// Seconds between two AI commands at speed 1.
    pub ai_delay: f32,
    /// Speed factor for animations and AI turns.
    pub speed: f32,
    /// Fast-forward is held.
    pub fast_forward: bool,
    /// Play everything at once (tests, benchmarks).
    pub instant: bool,
    ai_wait: f32,
}

impl Default for Pacing {
    fn default() -> Self {
        Self { ai_delay: 0.45, speed: 1.0, fast_forward: false, instant: false, ai_wait: 0.0 }
    }
}

impl Pacing {
    /// Everything at once: for tests and benchmarks.
    pub fn instant() -> Self {
        Self { instant: true, ..Self::default() }
    }

    fn factor(&self) -> f32 {
        self.speed.max(0.1) * if self.fast_forward { 8.0 } else { 1.0 }
    }
}

/// What to do with a decision of one kind for the player's creatures, as in well-loved CRPGs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Show a prompt and wait.
    Ask,
    /// Take it, the way the AI would (defend well, take the attack, use the opening).
    Always,
    /// Decline it (no defence roll, no attack of opportunity, pass).
    Never,
}

/// The player's policy per decision kind (`DecisionKind::name`).
#[derive(Resource, Debug, Clone)]
pub struct Policies(pub BTreeMap<&'static str, Policy>);

impl Default for Policies {
    fn default() -> Self {
        Policies(crate::rules::state::DecisionKind::NAMES.iter().map(|k| (*k, Policy::Ask)).collect())
    }
}

/// One thing the view shows before the next happens.
#[derive(Debug, Clone, PartialEq)]
pub enum Beat {
    /// A creature walks from one square to another.
    Walk {
        /// Who.
        who: Cid,
        /// From.
        from: GridPos,
        /// To.
        to: GridPos,
    },
    /// A short pause with a floating text over a creature.
    Float {
        /// Over whom.
        who: Cid,
        /// What (the view words it in the player's language).
        text: FloatText,
        /// Its colour (RGB).
        rgb: [f32; 3],
    },
    /// The camera should look at this creature (a turn starts).
    Focus(Cid),
    /// An attacker lunges at its target (both views move the token by [`Playback::lunge`]).
    Strike {
        /// Who attacks.
        attacker: Cid,
        /// Whom.
        target: Cid,
    },
}

/// What a floating text over a creature says, as data: the view words it
/// ([`FloatText::words`]) in the language of the moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FloatText {
    /// An attack roll's total: `attack 13`.
    Attack(i32),
    /// An attack blocked.
    Blocked,
    /// An attack missed.
    Miss,
    /// Damage taken: `-5`.
    Damage(i32),
    /// Hit points healed: `+5`.
    Heal(i32),
    /// A condition put on (its id).
    Condition(String),
    /// The creature is down.
    Down,
}

impl FloatText {
    /// The text in the language of `tr`; a condition is named by the ruleset `rs` (its id with
    /// spaces without one).
    pub(crate) fn words(&self, rs: Option<&Ruleset>, tr: &Tr) -> String {
        match self {
            FloatText::Attack(total) => tr!(tr, "float-attack", total = *total),
            FloatText::Blocked => tr.t("float-blocked"),
            FloatText::Miss => tr.t("float-miss"),
            FloatText::Damage(n) => format!("-{n}"),
            FloatText::Heal(n) => format!("+{n}"),
            FloatText::Condition(id) => match rs {
                Some(rs) => crate::hud_model::log::condition_name(rs, tr, id),
                None => id.replace('_', " "),
            },
            FloatText::Down => tr.t("float-down"),
        }
    }
}

impl Beat {
    /// How long it takes at speed 1, in seconds.
    pub(crate) fn seconds(&self) -> f32 {
        match self {
            Beat::Walk { from, to, .. } => 0.12 * from.distance(*to).clamp(1, 12) as f32,
            Beat::Float { .. } => 0.35,
            Beat::Focus(_) => 0.1,
            Beat::Strike { .. } => 0.22,
        }
    }
}

/// Events turned into beats, played one after another.
#[derive(Resource, Debug, Default)]
pub struct Playback {
    /// Log events already turned into beats.
    pub shown: usize,
    /// The beat playing now and how far it is (0..1).
    pub current: Option<(Beat, f32)>,
    /// Beats still to play.
    pub queue: VecDeque<Beat>,
    /// Where each token stands on screen, in squares (it lags the rules while a walk plays).
    pub display: BTreeMap<Cid, Vec2>,
    /// Floating texts started this frame, for the view to word and spawn.
    pub floats: Vec<(Cid, FloatText, [f32; 3])>,
    /// The creature the camera follows.
    pub focus: Option<Cid>,
}

impl Playback {
    /// How far (in squares) a token stands off its square this moment because it lunges at its
    /// target: a third of a square towards it and back, over the strike's beat. Both views add it
    /// to [`Playback::display`].
    pub(crate) fn lunge(&self, who: Cid) -> Vec2 {
        let Some((Beat::Strike { attacker, target }, t)) = &self.current else { return Vec2::ZERO };
        if *attacker != who {
            return Vec2::ZERO;
        }
        let (Some(a), Some(b)) = (self.display.get(attacker), self.display.get(target)) else { return Vec2::ZERO };
        let dir = (*b - *a).normalize_or_zero();
        dir * 0.33 * (std::f32::consts::PI * t.clamp(0.0, 1.0)).sin()
    }

    /// Whether something is still playing.
    pub(crate) fn busy(&self) -> bool {
        self.current.is_some() || !self.queue.is_empty()
    }
}

/// What the board highlights: recomputed when the state or the selection changes.
#[derive(Resource, Debug, Default, Clone)]
pub struct Highlights {
    /// The creature whose turn it is.
    pub active: Option<Cid>,
    /// Squares the selected movement can reach, with their cost.
    pub reachable: BTreeMap<GridPos, u32>,
    /// Creatures the selected ability may target now (the engine's own dry run says so).
    pub targets: Vec<Cid>,
    /// Squares where leaving provokes an attack of opportunity.
    pub threatened: BTreeSet<GridPos>,
    key: Option<(usize, String, Option<String>)>,
}

/// Startup: turn the command-line options into a setup, and skip the start screen if asked.
pub(crate) fn apply_options(
    mut commands: Commands,
    options: Res<super::app_state::PlayOptions>,
    library: Res<Library>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(path) = &options.scenario {
        match super::from_scenario::setup(&options, path) {
            Ok(setup) => {
                commands.insert_resource(setup);
                next.set(Screen::Battle);
            }
            Err(e) => error!("{}: {e}", path.display()),
        }
        return;
    }
    let Some(setup) = setup_from(&library, &options) else { return };
    commands.insert_resource(setup);
    if options.start_now {
        next.set(Screen::Battle);
    }
}

/// Entering the battle screen: start the combat the setup describes.
pub(crate) fn start_battle(
    mut commands: Commands,
    setup: Option<Res<BattleSetup>>,
    mut playback: ResMut<Playback>,
    mut selection: ResMut<super::app_state::Selection>,
    mut highlights: ResMut<Highlights>,
    mut queued: ResMut<HumanQueue>,
    mut started: MessageWriter<BattleStarted>,
    (hot, hot_key, pending, battle): (
        Option<ResMut<HotData<CombatData>>>,
        Option<Res<HotKey>>,
        Option<ResMut<PendingCombat>>,
        Option<Res<Battle>>,
    ),
) {
    // Nothing of the last battle's view carries over.
    *playback = Playback::default();
    *selection = super::app_state::Selection::default();
    *highlights = Highlights::default();
    queued.0.clear();
    let pending = pending.map(|mut p| std::mem::replace(&mut *p, PendingCombat::Keep));
    commands.remove_resource::<PendingCombat>();
    let show_all = |playback: &mut Playback, combat: &Combat| {
        // Undone, redone or loaded: the board shows the state as it is, no beats to replay.
        playback.shown = combat.log().events.len();
        playback.focus = combat.turn().active;
        for i in 0..combat.len() as u32 {
            if let Some(p) = combat.get::<GridPos>(Cid(i)) {
                playback.display.insert(Cid(i), Vec2::new(p.x as f32, p.y as f32));
            }
        }
    };
    match pending {
        Some(PendingCombat::Keep) => {
            if let Some(b) = battle {
                show_all(&mut playback, &b.combat);
                return;
            }
        }
        Some(PendingCombat::Loaded(c, setup)) => {
            started.write(BattleStarted { floor: 0 });
            show_all(&mut playback, &c);
            // A restart of this battle loads the save again.
            commands.insert_resource((*setup).clone());
            let mut c = c;
            let gm = GmDesk::new(&mut c);
            commands.insert_resource(Battle {
                combat: *c,
                setup: *setup,
                last_rejection: None,
                refused: None,
                error: None,
                gm,
            });
            return;
        }
        None => {}
    }
    let Some(setup) = setup else { return };
    let started_combat = match (&setup.from_save, &setup.scenario) {
        (Some(path), _) => crate::save::load(path).map(|l| l.combat).map_err(|e| e.to_string()),
        (None, Some(path)) => super::from_scenario::combat(path, &setup.mods),
        (None, None) => start_from_files(&mut commands, &setup, hot, hot_key.as_deref()),
    };
    let (combat, error) = match started_combat {
        Ok(c) => (c, None),
        Err(e) => {
            let fallback = Combat::new(setup.ruleset.clone(), setup.seed, &[]);
            match fallback {
                Ok(c) => (c, Some(e.to_string())),
                Err(_) => {
                    error!("cannot start the encounter: {e}");
                    // No battle, and no undo history of the last one either.
                    started.write(BattleStarted { floor: 0 });
                    return;
                }
            }
        }
    };
    for i in 0..combat.len() as u32 {
        if let Some(p) = combat.get::<GridPos>(Cid(i)) {
            playback.display.insert(Cid(i), Vec2::new(p.x as f32, p.y as f32));
        }
    }
    if setup.from_save.is_some() {
        show_all(&mut playback, &combat);
    }
    // Undo never takes back what set the battle up (a scenario's steps).
    started.write(BattleStarted { floor: if setup.from_save.is_some() { 0 } else { combat.journal().len() } });
    let mut combat = combat;
    let gm = GmDesk::new(&mut combat);
    commands.insert_resource(Battle { combat, setup: setup.clone(), last_rejection: None, refused: None, error, gm });
}

/// The combat an encounter battle starts with: the encounter, ruleset and mods as they are on disk
/// now. They are watched (hot reload): edits made while a battle runs wait for the next start
/// (the banner's "restart with changes"); a broken edit is shown and changes nothing.
fn start_from_files(
    commands: &mut Commands,
    setup: &BattleSetup,
    hot: Option<ResMut<HotData<CombatData>>>,
    hot_key: Option<&HotKey>,
) -> Result<Combat, String> {
    if !std::path::Path::new(&setup.file).is_file() {
        // An encounter made in memory (tests, benchmarks): nothing on disk to watch.
        let mods = crate::modding::load_mods(
            &crate::modding::ModRegistry::current(),
            &crate::modding::mods_dir(),
            &setup.mods,
        )?;
        let mut rs = setup.ruleset.clone();
        mods.data.apply(&mut rs).map_err(|e| e.to_string())?;
        return crate::modding::start_encounter(&setup.encounter, rs, setup.seed, &mods.code)
            .map_err(|e| e.to_string());
    }
    let key = HotKey(setup.file.clone(), setup.ruleset_name.clone(), setup.mods.clone());
    let data = match hot {
        Some(mut h) if hot_key == Some(&key) => h.for_next_combat().clone(),
        _ => {
            let (file, rs, mods) =
                (std::path::PathBuf::from(&setup.file), setup.ruleset_name.clone(), setup.mods.clone());
            let dir = crate::modding::mods_dir();
            let h = HotData::new(move || load_combat_data(&file, &rs, &mods, &dir)).map_err(|e| e.to_string())?;
            let d = h.current().clone();
            commands.insert_resource(h);
            commands.insert_resource(key);
            d
        }
    };
    crate::modding::start_encounter(&data.encounter, data.ruleset, setup.seed, &data.mods.code)
        .map_err(|e| e.to_string())
}

/// Each frame: once the view has caught up, submit the next command: the player's, a policy's
/// answer, or the AI's after its pause.
pub(crate) fn drive(
    battle: Option<ResMut<Battle>>,
    mut human: MessageReader<HumanCommand>,
    mut queued: ResMut<HumanQueue>,
    mut pacing: ResMut<Pacing>,
    policies: Res<Policies>,
    gm: Option<Res<GmSeat>>,
    playback: Res<Playback>,
    time: Res<Time>,
    tr: Res<Tr>,
) {
    queued.0.extend(human.read().map(|h| h.0.clone()));
    let Some(mut battle) = battle else { return };
    if playback.busy() && !pacing.instant {
        return;
    }
    // The player's commands, in order; a refusal is shown, not fatal.
    while let Some(cmd) = queued.0.pop_front() {
        if let Err(r) = battle.combat.submit_as(cmd, Issuer::Player) {
            battle.refuse(Words::Refusal(r), &tr);
        } else {
            battle.clear_refusal();
        }
    }
    let mut budget = if pacing.instant { 10_000 } else { 1 };
    let human_gm = gm.as_ref().is_some_and(|g| g.0);
    while budget > 0 {
        budget -= 1;
        // The GM's openings: a person in the GM's seat is offered the policy's (the battle waits
        // for the answer, unless a player acts); otherwise the AI GM opens it.
        let b = &mut *battle;
        if human_gm {
            if b.gm.suggestion_now(&b.combat).is_some() {
                return;
            }
            if let Some(call) = ai::gm::opening_due(&mut b.combat) {
                b.gm.suggest(&b.combat, call);
                return;
            }
        } else if let Some(open) = ai::gm::opening_command(&mut b.combat) {
            // Refused only if the state moved on; the policy looks again after the next event.
            let _ = b.combat.submit_as(open, Issuer::Gm);
            continue;
        }
        let status = battle.combat.status();
        let scope = AiScope { gm: true, all_creatures: true };
        let (cmd, by) = match status {
            EngineStatus::AwaitingCommand(c) | EngineStatus::AwaitingDecision(Decider::Creature(c))
                if battle.control(c) == SideControl::Ai =>
            {
                if !pacing.instant {
                    pacing.ai_wait += time.delta_secs() * pacing.factor();
                    if pacing.ai_wait < pacing.ai_delay {
                        return;
                    }
                    pacing.ai_wait = 0.0;
                }
                (ai::next_command(&battle.combat, scope), Issuer::Ai)
            }
            EngineStatus::AwaitingDecision(Decider::Creature(_)) => {
                (policy_answer(&battle.combat, &policies), Issuer::Auto)
            }
            // The GM's calls (Assist approval, initiative ties): a person in the GM's seat is asked
            // as policies say; otherwise they are automatic, the AI's defaults.
            EngineStatus::AwaitingDecision(Decider::Gm) if gm.as_ref().is_some_and(|g| g.0) => {
                (policy_answer(&battle.combat, &policies), Issuer::Auto)
            }
            EngineStatus::AwaitingDecision(Decider::Gm) => (ai::next_command(&battle.combat, scope), Issuer::Gm),
            // Nobody is scheduled: an AI creature that is delaying, readying or holding a cast
            // comes back (the player's own come back from the banner's buttons).
            EngineStatus::AwaitingReturn => (
                ai::next_command(&battle.combat, scope)
                    .filter(|c| c.actor().is_some_and(|a| battle.control(a) == SideControl::Ai))
                    .or_else(|| return_someone(&battle)),
                Issuer::Ai,
            ),
            _ => (None, Issuer::Ai),
        };
        let Some(cmd) = cmd else { return };
        // A refused command would come back forever: the basic AI's answer instead, else the turn
        // under way ends; if even that is refused, wait for the next frame.
        let active = battle.combat.turn().active;
        if ai::submit_or_recover(&mut battle.combat, cmd, by, scope, true, active) == ai::Sent::Refused {
            return;
        }
    }
}

/// The answer a player's policy gives without asking, if it is not "ask".
fn policy_answer(combat: &Combat, policies: &Policies) -> Option<Command> {
    let p = combat.world.resource::<Pending>().0.clone()?;
    let policy = policies.0.get(p.kind.name()).copied().unwrap_or(Policy::Ask);
    match policy {
        Policy::Ask => None,
        Policy::Always => ai::next_command(combat, AiScope { gm: true, all_creatures: true }),
        Policy::Never => Some(Command::Decide { by: p.by, choice: decline(&p.kind) }),
    }
}

/// "No" to a decision: no defence roll, no attack, pass, release the cast, keep the order.
pub(crate) fn decline(kind: &DecisionKind) -> crate::rules::command::Choice {
    use crate::rules::command::{ActionLoss, Choice, DefenseMethod};
    match kind {
        DecisionKind::Defense { .. } => Choice::Defend(DefenseMethod::NoDefense),
        DecisionKind::Opportunity { .. } => Choice::Opportunity(None),
        DecisionKind::Opening { .. } => Choice::Opening(None),
        DecisionKind::AssistApproval { .. } => Choice::Approve(false),
        DecisionKind::Triggered { .. } => Choice::Triggered(None),
        DecisionKind::ActionLoss => Choice::LoseFirst(ActionLoss::Restricted),
        DecisionKind::CastComplete { .. } => Choice::HoldCast(false),
        DecisionKind::InitiativeTie { tied } => Choice::Order(tied.clone()),
    }
}

/// Nobody is scheduled: an AI creature that is delaying or readying comes back.
fn return_someone(battle: &Battle) -> Option<Command> {
    let turn = battle.combat.turn();
    let back = turn.delayed.iter().copied().find(|c| battle.control(*c) == SideControl::Ai)?;
    Some(Command::ReturnFromDelay { actor: back })
}

/// Turn new log events into beats and play them.
pub(crate) fn advance_playback(
    battle: Option<Res<Battle>>,
    mut playback: ResMut<Playback>,
    pacing: Res<Pacing>,
    time: Res<Time>,
) {
    let Some(battle) = battle else { return };
    playback.floats.clear();
    let events = &battle.combat.log().events;
    let start = playback.shown.min(events.len());
    let map = battle.combat.map();
    for (_, e, beat) in new_beats(events, start, &battle.combat.ruleset().defeated_condition) {
        match beat {
            // A walk follows the map's cheapest path, square by square, around walls and mud.
            Some(Beat::Walk { who, from, to }) => {
                let path = map.path(from, to, 400, |_| true, |_| true).unwrap_or_else(|| vec![from, to]);
                for w in path.windows(2) {
                    playback.queue.push_back(Beat::Walk { who, from: w[0], to: w[1] });
                }
            }
            Some(b) => {
                // An attack: the lunge, then its roll over the attacker.
                if let CombatEvent::AttackRolled { attacker, target, .. } = e
                    && attacker != target
                {
                    playback.queue.push_back(Beat::Strike { attacker: *attacker, target: *target });
                }
                playback.queue.push_back(b)
            }
            None => {}
        }
    }
    playback.shown = events.len();
    if pacing.instant {
        while let Some(b) = playback.queue.pop_front() {
            finish_beat(&mut playback, &b);
        }
        playback.current = None;
        return;
    }
    let mut dt = time.delta_secs() * pacing.factor();
    loop {
        if playback.current.is_none() {
            let Some(b) = playback.queue.pop_front() else { return };
            start_beat(&mut playback, &b);
            playback.current = Some((b, 0.0));
        }
        let Some((beat, t)) = playback.current.clone() else { return };
        let len = beat.seconds().max(0.01);
        let t2 = t + dt / len;
        if t2 < 1.0 {
            if let Beat::Walk { who, from, to } = &beat {
                let a = Vec2::new(from.x as f32, from.y as f32);
                let b = Vec2::new(to.x as f32, to.y as f32);
                playback.display.insert(*who, a.lerp(b, t2));
            }
            playback.current = Some((beat, t2));
            return;
        }
        dt = (t2 - 1.0) * len;
        finish_beat(&mut playback, &beat);
        playback.current = None;
    }
}

fn start_beat(playback: &mut Playback, b: &Beat) {
    match b {
        Beat::Float { who, text, rgb } => playback.floats.push((*who, text.clone(), *rgb)),
        Beat::Focus(c) => playback.focus = Some(*c),
        Beat::Walk { .. } | Beat::Strike { .. } => {}
    }
}

fn finish_beat(playback: &mut Playback, b: &Beat) {
    match b {
        Beat::Walk { who, to, .. } => {
            playback.display.insert(*who, Vec2::new(to.x as f32, to.y as f32));
        }
        Beat::Focus(c) => playback.focus = Some(*c),
        Beat::Float { .. } | Beat::Strike { .. } => {}
    }
}

/// Whether `e` only repeats what the event before it put over the creature's head: a creature
/// taken out of the fight gets the ruleset's defeated condition ("down", pf2e's "dead"), whose
/// name floats, then `Downed`, which would float "down!" over it (issue 23, fault 4: "down" and
/// "down!" were drawn one over the other).
pub(crate) fn says_again(before: Option<&CombatEvent>, e: &CombatEvent, defeated: &str) -> bool {
    matches!(
        (before, e),
        (Some(CombatEvent::ConditionApplied { who: a, condition, .. }), CombatEvent::Downed { who: b })
            if a == b && condition == defeated
    )
}

/// The log's events from `start` on, each with its index and its beat (if any), less those that
/// [`says_again`] what the event before said.
pub(crate) fn new_beats<'a>(
    events: &'a [CombatEvent],
    start: usize,
    defeated: &'a str,
) -> impl Iterator<Item = (usize, &'a CombatEvent, Option<Beat>)> + 'a {
    events
        .iter()
        .enumerate()
        .skip(start)
        .filter(move |(i, e)| !says_again(events[..*i].last(), e, defeated))
        .map(|(i, e)| (i, e, beat_for(e)))
}

/// What the view shows for one event, if anything.
pub(crate) fn beat_for(e: &CombatEvent) -> Option<Beat> {
    const RED: [f32; 3] = [1.0, 0.35, 0.3];
    const GREEN: [f32; 3] = [0.4, 1.0, 0.5];
    const WHITE: [f32; 3] = [0.95, 0.95, 0.95];
    const GOLD: [f32; 3] = [1.0, 0.85, 0.35];
    Some(match e {
        CombatEvent::Moved { who, from, to, .. } => Beat::Walk { who: *who, from: *from, to: *to },
        CombatEvent::TurnStarted { who, .. } => Beat::Focus(*who),
        CombatEvent::AttackRolled { attacker, total, .. } => {
            Beat::Float { who: *attacker, text: FloatText::Attack(*total), rgb: WHITE }
        }
        CombatEvent::AttackBlocked { target, .. } => Beat::Float { who: *target, text: FloatText::Blocked, rgb: GOLD },
        CombatEvent::AttackMissed { target, .. } => Beat::Float { who: *target, text: FloatText::Miss, rgb: GOLD },
        CombatEvent::Damaged { who, amount, .. } if *amount > 0 => {
            Beat::Float { who: *who, text: FloatText::Damage(*amount), rgb: RED }
        }
        CombatEvent::Healed { who, amount, .. } => {
            Beat::Float { who: *who, text: FloatText::Heal(*amount), rgb: GREEN }
        }
        CombatEvent::ConditionApplied { who, condition, .. } => {
            Beat::Float { who: *who, text: FloatText::Condition(condition.clone()), rgb: GOLD }
        }
        CombatEvent::Downed { who } => Beat::Float { who: *who, text: FloatText::Down, rgb: RED },
        _ => return None,
    })
}

/// Recompute the highlights when the state or the selection changed.
pub(crate) fn update_highlights(
    battle: Option<ResMut<Battle>>,
    selection: Res<super::app_state::Selection>,
    mut hl: ResMut<Highlights>,
) {
    let Some(mut battle) = battle else { return };
    let status = format!("{:?}", battle.combat.status());
    let key = (battle.combat.log().events.len(), status, selection.ability.clone());
    if hl.key.as_ref() == Some(&key) {
        return;
    }
    let active = battle.combat.turn().active;
    let mut out = Highlights { active, key: Some(key), ..default() };
    if let Some(who) = active
        && battle.control(who) == SideControl::Human
    {
        out.threatened = battle.combat.threatened(who);
        if battle.control(who) == SideControl::Human
            && let Some(ability) = selection.ability.clone()
        {
            out.reachable = battle.combat.reachable(who, &ability);
            if out.reachable.is_empty() {
                out.targets = crate::hud_model::valid_targets(&mut battle.combat, who, &ability);
            }
        }
    }
    *hl = out;
}

/// When the combat is over and the view has caught up, go to the end screen.
pub(crate) fn finish_when_over(
    battle: Option<Res<Battle>>,
    playback: Res<Playback>,
    mut next: ResMut<NextState<Screen>>,
    pending: Option<Res<PendingCombat>>,
) {
    let Some(battle) = battle else { return };
    if pending.is_some() {
        // An undo, a redo or a load is about to re-enter the battle: it decides.
        return;
    }
    if battle.combat.status() == EngineStatus::Ended && !playback.busy() {
        next.set(Screen::End);
    }
}

/// A short summary of the finished fight: who won, in which round, who is still standing; in
/// the language of `tr`.
pub(crate) fn summary_in(battle: &Battle, tr: &Tr) -> Vec<String> {
    let c = &battle.combat;
    let mut lines = Vec::new();
    let draw = c.log().events.iter().find_map(|e| match e {
        CombatEvent::CombatDrawn { reason, .. } => Some(*reason),
        _ => None,
    });
    let round = c.turn().round;
    lines.push(match (&c.turn().winner, draw) {
        (Some(w), _) => {
            tr!(tr, "end-summary-won", side = battle.setup.encounter.side_name_in(w, tr.code()), round = round)
        }
        (None, Some(r)) => {
            let why = match r {
                DrawReason::NobodyCanAct => tr.t("end-summary-draw-nobody-can-act"),
                DrawReason::RoundCap(n) => tr!(tr, "end-summary-draw-round-cap", n = n),
                DrawReason::WorkLimit => tr.t("end-summary-draw-work-limit"),
            };
            tr!(tr, "end-summary-draw", round = round, reason = why)
        }
        (None, None) => tr!(tr, "end-summary-nobody-standing", round = round),
    });
    for i in 0..c.len() as u32 {
        let who = Cid(i);
        let hp = c.get::<crate::rules::components::Health>(who).map_or(0, |h| h.hp);
        let dealt: i32 = damage_dealt(c, who);
        lines.push(tr!(tr, "end-summary-creature", who = c.name_in(who, tr.code()), hp = hp.max(0), dealt = dealt));
    }
    lines
}

/// Damage a creature dealt, from the log (the target of each attack it hit).
fn damage_dealt(c: &Combat, who: Cid) -> i32 {
    let mut total = 0;
    let mut last_attacker = None;
    for e in &c.log().events {
        match e {
            CombatEvent::AttackRolled { attacker, .. } | CombatEvent::AbilityUsed { who: attacker, .. } => {
                last_attacker = Some(*attacker);
            }
            CombatEvent::Damaged { amount, .. } if last_attacker == Some(who) => total += amount,
            CombatEvent::TurnStarted { .. } => last_attacker = None,
            _ => {}
        }
    }
    total
}

#[cfg(test)]
mod tests;
