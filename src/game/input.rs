//! Input: one leafwing action enum, bindings from `assets/input.ron` (a bad file falls back to the
//! defaults with a message), and the player's actions turned into `Command`s.
//!
//! Mouse flow: with no ability chosen, click an empty square to Move there or an enemy to attack
//! it; choose an ability with 1–9 (or M for movement), then click its target or destination, or
//! cycle targets with Tab and confirm with Enter. Esc or the right button cancels.

use std::collections::BTreeMap;
use std::path::Path;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

use super::app_state::Selection;
use super::battle::{Battle, HumanCommand, Pacing, Words};
use crate::i18n::Tr;
use crate::rules::command::{ActIntent, Command};
use crate::rules::components::{Cid, GridPos};
use crate::rules::driver::Combat;
use crate::rules::ruleset::Effect;

/// The labels of the ability hotkeys, from the bindings (`1`..`9` by default), in the player's
/// language; the bindings they name are kept to label them again when the language changes.
#[derive(Resource, Debug, Default, Clone)]
pub struct HotkeyLabels(pub Vec<String>, Vec<Option<Binding>>);

impl HotkeyLabels {
    /// The labels of these bindings (one per ability key; none: unbound), in the language of `tr`.
    fn new(bindings: Vec<Option<Binding>>, tr: &Tr) -> Self {
        let mut labels = HotkeyLabels(Vec::new(), bindings);
        labels.relabel(tr);
        labels
    }

    /// Label the keys again, in the language of `tr`.
    fn relabel(&mut self, tr: &Tr) {
        self.0 = self.1.iter().map(|b| b.as_ref().map_or(String::new(), |b| binding_label(b, tr))).collect();
    }
}

/// A key's name for the ability bar: the keys with a name of their own in the player's language
/// (the same as in the controls help), otherwise Bevy's name without `Key`/`Digit` (`E`, `1`,
/// `F5`).
fn key_name(k: KeyCode, tr: &Tr) -> String {
    let key = match k {
        KeyCode::Space => "key-space",
        KeyCode::Enter => "key-enter",
        KeyCode::Escape => "key-esc",
        KeyCode::Tab => "key-tab",
        KeyCode::Backspace => "keys-name-backspace",
        KeyCode::ArrowUp => "keys-name-arrow-up",
        KeyCode::ArrowDown => "keys-name-arrow-down",
        KeyCode::ArrowLeft => "keys-name-arrow-left",
        KeyCode::ArrowRight => "keys-name-arrow-right",
        _ => {
            let s = format!("{k:?}");
            return s.strip_prefix("Digit").or_else(|| s.strip_prefix("Key")).unwrap_or(&s).to_string();
        }
    };
    tr.t(key)
}

/// A binding as the ability bar shows it: `1`, `Left click`, `wheel Up`, `Ctrl+Z`.
fn binding_label(b: &Binding, tr: &Tr) -> String {
    match b {
        Binding::Key(k) => key_name(*k, tr),
        Binding::Mouse(MouseButton::Left) => tr.t("keys-mouse-left"),
        Binding::Mouse(MouseButton::Right) => tr.t("keys-mouse-right"),
        Binding::Mouse(MouseButton::Middle) => tr.t("keys-mouse-middle"),
        Binding::Mouse(m) => crate::tr!(tr, "keys-mouse-other", button = format!("{m:?}")),
        Binding::Wheel(WheelDirection::Up) => tr.t("keys-wheel-up"),
        Binding::Wheel(WheelDirection::Down) => tr.t("keys-wheel-down"),
        Binding::Ctrl(k) => crate::tr!(tr, "keys-ctrl", key = key_name(*k, tr)),
    }
}

/// Everything a player can do.
#[derive(Actionlike, PartialEq, Eq, PartialOrd, Ord, Clone, Copy, Hash, Debug, Reflect, Serialize, Deserialize)]
pub enum GameAction {
    /// Click: choose a square, a target or a destination.
    Select,
    /// Choose the movement ability.
    Move,
    /// Use the chosen ability on the chosen target (or on yourself).
    Confirm,
    /// Drop the chosen ability.
    Cancel,
    /// End the turn.
    EndTurn,
    /// Choose ability 1..9.
    Ability1,
    /// Ability 2.
    Ability2,
    /// Ability 3.
    Ability3,
    /// Ability 4.
    Ability4,
    /// Ability 5.
    Ability5,
    /// Ability 6.
    Ability6,
    /// Ability 7.
    Ability7,
    /// Ability 8.
    Ability8,
    /// Ability 9.
    Ability9,
    /// Next valid target.
    CycleTargets,
    /// Pan the camera up.
    PanUp,
    /// Pan down.
    PanDown,
    /// Pan left.
    PanLeft,
    /// Pan right.
    PanRight,
    /// Zoom in.
    ZoomIn,
    /// Zoom out.
    ZoomOut,
    /// Show or hide the combat log.
    ToggleLog,
    /// Show or hide every HUD panel.
    ToggleHud,
    /// Show or hide the world inspector (for modders).
    ToggleInspector,
    /// Hold to play events and AI turns eight times faster.
    FastForward,
    /// Take back your last command (and the AI's answers since): Ctrl+Z.
    Undo,
    /// Give it back, with the same dice: Ctrl+Y.
    Redo,
    /// Save to the quick-save slot: F5.
    QuickSave,
    /// Load the quick-save slot: F9.
    QuickLoad,
    /// Open or close the saves window (save, list, load): F6.
    Saves,
    /// Open or close the Simulate window: F7.
    Simulate,
    /// Switch between the 2D board and the 3D scene: V (issue 23).
    ToggleView,
    /// 3D: turn the camera around the board to the left: Q (right-drag too).
    OrbitLeft,
    /// 3D: to the right: R (E ends the turn).
    OrbitRight,
    /// 3D: look down more steeply: Page Up (right-drag up and down too).
    TiltUp,
    /// 3D: look more from the side: Page Down.
    TiltDown,
    /// Frame the whole board in the space between the panels, and follow turns again: Home.
    FrameBoard,
}

const ABILITY_KEYS: [GameAction; 9] = [
    GameAction::Ability1,
    GameAction::Ability2,
    GameAction::Ability3,
    GameAction::Ability4,
    GameAction::Ability5,
    GameAction::Ability6,
    GameAction::Ability7,
    GameAction::Ability8,
    GameAction::Ability9,
];

/// One binding in `assets/input.ron`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Binding {
    /// A key, by Bevy's `KeyCode` name (`KeyE`, `Digit1`, `Escape`, `ArrowUp`, ...).
    Key(KeyCode),
    /// A mouse button: `Left`, `Right`, `Middle`.
    Mouse(MouseButton),
    /// The mouse wheel: `Up` or `Down`.
    Wheel(WheelDirection),
    /// A key pressed with Control held (either one): `Ctrl(KeyZ)`.
    Ctrl(KeyCode),
}

/// A wheel direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WheelDirection {
    /// Away from you.
    Up,
    /// Towards you.
    Down,
}

/// The bindings: every action and its inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bindings(pub BTreeMap<GameAction, Vec<Binding>>);

impl Default for Bindings {
    fn default() -> Self {
        use Binding::{Key, Mouse, Wheel};
        use GameAction as A;
        let mut m = BTreeMap::new();
        m.insert(A::Select, vec![Mouse(MouseButton::Left)]);
        m.insert(A::Move, vec![Key(KeyCode::KeyM)]);
        m.insert(A::Confirm, vec![Key(KeyCode::Enter)]);
        m.insert(A::Cancel, vec![Key(KeyCode::Escape), Mouse(MouseButton::Right)]);
        m.insert(A::EndTurn, vec![Key(KeyCode::KeyE)]);
        let digits = [
            KeyCode::Digit1,
            KeyCode::Digit2,
            KeyCode::Digit3,
            KeyCode::Digit4,
            KeyCode::Digit5,
            KeyCode::Digit6,
            KeyCode::Digit7,
            KeyCode::Digit8,
            KeyCode::Digit9,
        ];
        for (a, k) in ABILITY_KEYS.iter().zip(digits) {
            m.insert(*a, vec![Key(k)]);
        }
        m.insert(A::CycleTargets, vec![Key(KeyCode::Tab)]);
        m.insert(A::PanUp, vec![Key(KeyCode::KeyW), Key(KeyCode::ArrowUp)]);
        m.insert(A::PanDown, vec![Key(KeyCode::KeyS), Key(KeyCode::ArrowDown)]);
        m.insert(A::PanLeft, vec![Key(KeyCode::KeyA), Key(KeyCode::ArrowLeft)]);
        m.insert(A::PanRight, vec![Key(KeyCode::KeyD), Key(KeyCode::ArrowRight)]);
        m.insert(A::ZoomIn, vec![Wheel(WheelDirection::Up), Key(KeyCode::Equal)]);
        m.insert(A::ZoomOut, vec![Wheel(WheelDirection::Down), Key(KeyCode::Minus)]);
        m.insert(A::ToggleLog, vec![Key(KeyCode::KeyL)]);
        m.insert(A::ToggleHud, vec![Key(KeyCode::KeyH)]);
        m.insert(A::ToggleInspector, vec![Key(KeyCode::F12)]);
        m.insert(A::FastForward, vec![Key(KeyCode::Space)]);
        m.insert(A::Undo, vec![Binding::Ctrl(KeyCode::KeyZ)]);
        m.insert(A::Redo, vec![Binding::Ctrl(KeyCode::KeyY)]);
        m.insert(A::QuickSave, vec![Key(KeyCode::F5)]);
        m.insert(A::QuickLoad, vec![Key(KeyCode::F9)]);
        m.insert(A::Saves, vec![Key(KeyCode::F6)]);
        m.insert(A::Simulate, vec![Key(KeyCode::F7)]);
        m.insert(A::ToggleView, vec![Key(KeyCode::KeyV)]);
        m.insert(A::OrbitLeft, vec![Key(KeyCode::KeyQ)]);
        m.insert(A::OrbitRight, vec![Key(KeyCode::KeyR)]);
        m.insert(A::TiltUp, vec![Key(KeyCode::PageUp)]);
        m.insert(A::TiltDown, vec![Key(KeyCode::PageDown)]);
        m.insert(A::FrameBoard, vec![Key(KeyCode::Home)]);
        Bindings(m)
    }
}

impl Bindings {
    /// Read `path`; a missing file gives the defaults, a bad one the defaults and the reason (in
    /// English, for the terminal).
    pub fn load(path: &Path) -> (Self, Option<String>) {
        let (b, error) = Self::load_raw(path);
        (b, error.map(|e| format!("{e} (using the default bindings)")))
    }

    /// [`Bindings::load`], the reason being the file's error alone.
    fn load_raw(path: &Path) -> (Self, Option<String>) {
        if !path.exists() {
            return (Self::default(), None);
        }
        let text = match crate::rules::data::read_data_file(path) {
            Ok(t) => t,
            Err(e) => return (Self::default(), Some(e.to_string())),
        };
        match crate::rules::data::parse_ron::<Bindings>(&path.display().to_string(), &text) {
            Ok(mut b) => {
                // Actions the file leaves out keep their default inputs.
                for (a, v) in Self::default().0 {
                    b.0.entry(a).or_insert(v);
                }
                (b, None)
            }
            Err(e) => (Self::default(), Some(e.to_string())),
        }
    }

    /// The leafwing input map.
    pub(crate) fn input_map(&self) -> InputMap<GameAction> {
        let mut map = InputMap::default();
        for (a, inputs) in &self.0 {
            for b in inputs {
                match b {
                    Binding::Key(k) => {
                        map.insert(*a, *k);
                    }
                    Binding::Mouse(m) => {
                        map.insert(*a, *m);
                    }
                    Binding::Wheel(WheelDirection::Up) => {
                        map.insert(*a, MouseScrollDirection::UP);
                    }
                    Binding::Wheel(WheelDirection::Down) => {
                        map.insert(*a, MouseScrollDirection::DOWN);
                    }
                    Binding::Ctrl(k) => {
                        map.insert(*a, ButtonlikeChord::modified(ModifierKey::Control, *k));
                    }
                }
            }
        }
        map
    }
}

/// A text field of the HUD has the keyboard: the game's keys wait (set by the egui screens).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct TypingInUi(pub bool);

/// A message about the bindings file, for the start screen: in the language of the game's start
/// ([`BindingsNote::words`] says it in another).
#[derive(Resource, Debug, Default)]
pub struct BindingsNote(pub Option<String>, Option<String>);

impl BindingsNote {
    /// The note for a bindings file that could not be read (`error`), in the language of `tr`.
    fn new(error: Option<String>, tr: &Tr) -> Self {
        let mut note = BindingsNote(None, error);
        note.0 = note.words(tr);
        note
    }

    /// The note in the language of `tr`, if there is one.
    pub(crate) fn words(&self, tr: &Tr) -> Option<String> {
        self.1.as_ref().map(|e| crate::tr!(tr, "keys-bindings-error", error = e))
    }
}

/// The player: the entity carrying the input map and action state.
#[derive(Component)]
pub struct PlayerInput;

/// How far the pointer has moved since the right button went down: a drag turns the 3D camera
/// and does not cancel (set by [`track_drag`]).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct PointerDrag {
    /// Pixels moved with the right button held (kept until the frame after its release).
    pub right_moved: f32,
    /// The right button's press became a drag (more than [`DRAG_PIXELS`]).
    pub right_dragged: bool,
}

/// How far the pointer moves with a button held before the press is a drag, not a click.
pub const DRAG_PIXELS: f32 = 6.0;

/// Measure drags of the right button (before [`handle_input`] reads them).
pub(crate) fn track_drag(
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Option<Res<bevy::input::mouse::AccumulatedMouseMotion>>,
    mut drag: ResMut<PointerDrag>,
) {
    // A new press starts afresh; so does a frame with the button up (the frame of its release
    // keeps the drag, for the release to be read as the end of a drag rather than a click).
    if (mouse.just_pressed(MouseButton::Right)
        || (!mouse.pressed(MouseButton::Right) && !mouse.just_released(MouseButton::Right)))
        && (drag.right_moved != 0.0 || drag.right_dragged)
    {
        *drag = PointerDrag::default();
    }
    if mouse.pressed(MouseButton::Right)
        && let Some(m) = motion
    {
        drag.right_moved += m.delta.length();
        if drag.right_moved > DRAG_PIXELS && !drag.right_dragged {
            drag.right_dragged = true;
        }
    }
}

/// The square under the cursor, set by the view (none over egui or off the board).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct CursorCell(pub Option<GridPos>);

/// Startup: read the bindings and spawn the player's input entity.
pub(crate) fn spawn_input(mut commands: Commands, tr: Option<Res<Tr>>) {
    let tr = tr.as_deref().cloned().unwrap_or_default();
    let (bindings, error) = Bindings::load_raw(&super::library::assets_root().join("input.ron"));
    if let Some(e) = &error {
        warn!("{e} (using the default bindings)");
    }
    commands.insert_resource(BindingsNote::new(error, &tr));
    // The ability bar shows each ability's key as bound (`1`..`9` by default).
    let bound = ABILITY_KEYS.iter().map(|a| bindings.0.get(a).and_then(|v| v.first()).cloned()).collect();
    commands.insert_resource(HotkeyLabels::new(bound, &tr));
    commands.spawn((PlayerInput, bindings.input_map()));
}

/// Movement abilities in the order a click prefers them: plain moves first, then short steps,
/// then Disengage.
fn movements(combat: &Combat, bar: &[String]) -> Vec<String> {
    let rank = |a: &String| match combat.ruleset().ability(a).map(|d| &d.effect) {
        Some(Effect::Move | Effect::MoveAs { .. }) => Some(0),
        Some(Effect::Step) => Some(1),
        Some(Effect::Disengage) => Some(2),
        _ => None,
    };
    let mut v: Vec<(u8, usize, String)> =
        bar.iter().enumerate().filter_map(|(i, a)| rank(a).map(|r| (r, i, a.clone()))).collect();
    v.sort();
    v.into_iter().map(|(_, _, a)| a).collect()
}

fn is_attack(combat: &Combat, ability: &str) -> bool {
    combat.ruleset().ability(ability).is_some_and(|d| matches!(d.effect, Effect::Attack { .. }))
}

fn is_charge(combat: &Combat, ability: &str) -> bool {
    combat.ruleset().ability(ability).is_some_and(|d| matches!(d.effect, Effect::Charge { .. }))
}

/// Turn the player's actions into commands for the creature the engine waits on.
pub(crate) fn handle_input(
    actions: Single<&ActionState<GameAction>, With<PlayerInput>>,
    cursor: Res<CursorCell>,
    battle: Option<ResMut<Battle>>,
    mut selection: ResMut<Selection>,
    mut pacing: ResMut<Pacing>,
    mut out: MessageWriter<HumanCommand>,
    typing: Res<TypingInUi>,
    (tr, labels, drag): (Res<Tr>, Option<ResMut<HotkeyLabels>>, Res<PointerDrag>),
) {
    if tr.is_changed()
        && let Some(mut labels) = labels
    {
        // A new language: the ability bar's key names follow it.
        labels.relabel(&tr);
    }
    if typing.0 {
        // Keys go to the text field (a save's name, a number of runs), not to the game.
        pacing.fast_forward = false;
        return;
    }
    pacing.fast_forward = actions.pressed(&GameAction::FastForward);
    let Some(mut battle) = battle else { return };
    let Some(who) = battle.human_waiting() else {
        selection.ability = None;
        return;
    };
    if battle.combat.turn().active != Some(who) {
        // A decision (defence, opportunity...) is answered in its prompt.
        return;
    }
    let bar = crate::hud_model::abilities_of(&battle.combat, who);
    // On release, so that the right button dragged to turn the 3D camera does not also drop the
    // chosen ability.
    if actions.just_released(&GameAction::Cancel) && !drag.right_dragged {
        *selection = Selection::default();
    }
    for (i, a) in ABILITY_KEYS.iter().enumerate() {
        if actions.just_pressed(a)
            && let Some(ab) = bar.get(i)
        {
            *selection = Selection { ability: Some(ab.clone()), target: None };
        }
    }
    if actions.just_pressed(&GameAction::Move)
        && let Some(m) = movements(&battle.combat, &bar).into_iter().next()
    {
        *selection = Selection { ability: Some(m), target: None };
    }
    if actions.just_pressed(&GameAction::EndTurn) {
        out.write(HumanCommand(Command::EndTurn { actor: who }));
        *selection = Selection::default();
        return;
    }
    if actions.just_pressed(&GameAction::CycleTargets)
        && let Some(ab) = selection.ability.clone()
    {
        let targets = crate::hud_model::valid_targets(&mut battle.combat, who, &ab);
        let next = match selection.target.and_then(|t| targets.iter().position(|x| *x == t)) {
            Some(i) => targets.get((i + 1) % targets.len()).copied(),
            None => targets.first().copied(),
        };
        selection.target = next;
    }
    if actions.just_pressed(&GameAction::Confirm)
        && let Some(ab) = selection.ability.clone()
    {
        let targets: Vec<Cid> = match selection.target {
            Some(t) => crate::hud_model::targets_of_use(&mut battle.combat, who, &ab, t),
            None => vec![],
        };
        let mut intent = ActIntent::new(who, ab.clone(), targets.clone());
        if let [t] = targets[..]
            && is_charge(&battle.combat, &ab)
        {
            intent.to = crate::hud_model::charge_destination(&mut battle.combat, who, &ab, t);
        }
        out.write(HumanCommand(Command::Act(intent)));
        *selection = Selection::default();
        return;
    }
    if !actions.just_pressed(&GameAction::Select) {
        return;
    }
    let Some(cell) = cursor.0 else { return };
    let on_cell = battle.creature_at(cell);
    let ability = match (&selection.ability, on_cell) {
        (Some(a), _) => a.clone(),
        // No ability chosen: an enemy means the first attack that can reach it, an empty
        // square the first movement.
        (None, Some(t)) => {
            match bar.iter().find(|a| {
                is_attack(&battle.combat, a) && battle.combat.check_act(&ActIntent::new(who, *a, vec![t])).is_ok()
            }) {
                Some(a) => a.clone(),
                // Yourself or an ally: nothing to attack, nothing to say.
                None if battle.combat.get::<crate::rules::components::Side>(t)
                    == battle.combat.get::<crate::rules::components::Side>(who) =>
                {
                    return;
                }
                None => {
                    // Say why, in the engine's words: the first attack's refusal (issue 23).
                    let first = bar.iter().find(|a| is_attack(&battle.combat, a)).cloned();
                    let what = battle.combat.name(t);
                    let why = match first {
                        Some(a) => match battle.combat.check_act(&ActIntent::new(who, a.clone(), vec![t])) {
                            Err(r) => Words::msg("note-refused-ability")
                                .with("what", what)
                                .with("ability", a)
                                .with("why", Words::Refusal(r)),
                            Ok(()) => Words::msg("note-refused")
                                .with("what", what)
                                .with("why", Words::msg("note-no-attack-reaches")),
                        },
                        None => Words::msg("note-refused").with("what", what).with("why", Words::msg("note-no-attack")),
                    };
                    battle.refuse(why, &tr);
                    return;
                }
            }
        }
        // An empty square: the first movement that reaches it (a plain move before a step or a
        // Disengage).
        (None, None) => {
            let reaching = movements(&battle.combat, &bar)
                .into_iter()
                .find(|m| battle.combat.reachable(who, m).contains_key(&cell));
            match reaching {
                Some(a) => a,
                None => {
                    let why = match movements(&battle.combat, &bar).into_iter().next() {
                        Some(m) => {
                            let mut i = ActIntent::new(who, m.clone(), vec![]);
                            i.to = Some(cell);
                            match battle.combat.check_act(&i) {
                                Err(r) => Words::Refusal(r),
                                Ok(()) => Words::msg("note-out-of-reach"),
                            }
                        }
                        None => Words::msg("note-no-movement-left"),
                    };
                    battle.refuse(Words::msg("note-refused").with("what", square_words(cell)).with("why", why), &tr);
                    return;
                }
            }
        }
    };
    let intent = click_intent(&mut battle.combat, who, &ability, cell, on_cell);
    // A click the engine would refuse says why, naming what was clicked, and sends nothing
    // (issue 23: "Orc: no line of sight").
    if let Err(why) = refusal(&mut battle.combat, &intent, cell, on_cell) {
        battle.refuse(why, &tr);
        return;
    }
    out.write(HumanCommand(Command::Act(intent)));
    *selection = Selection::default();
}

/// What a click on `cell` (with `on_cell` standing there) asks of `ability`: aimed at the square
/// for a movement, else at the creature (a charge ends on the nearest square next to it).
fn click_intent(combat: &mut Combat, who: Cid, ability: &str, cell: GridPos, on_cell: Option<Cid>) -> ActIntent {
    let mut intent = ActIntent::new(who, ability, vec![]);
    let to_square = combat.ruleset().ability(ability).is_some_and(|d| d.effect.targets_square());
    if to_square || on_cell.is_none() {
        intent.to = Some(cell);
    } else if let Some(t) = on_cell {
        intent.targets = crate::hud_model::targets_of_use(combat, who, ability, t);
        if is_charge(combat, ability) {
            intent.to = crate::hud_model::charge_destination(combat, who, ability, t);
        }
    }
    intent
}

/// A square, for a refusal: `(3, 4)`.
fn square_words(cell: GridPos) -> Words {
    Words::msg("note-square").with("x", cell.x).with("y", cell.y)
}

/// The engine's dry run of a click's intent: `Err` with its refusal (to put in words), naming
/// what was clicked ("Orc: invalid target: no line of sight to Orc").
fn refusal(combat: &mut Combat, intent: &ActIntent, cell: GridPos, on_cell: Option<Cid>) -> Result<(), Words> {
    combat.check_act(intent).map_err(|r| {
        let what = match on_cell {
            Some(t) if intent.targets.contains(&t) => Words::Text(combat.name(t)),
            _ => square_words(cell),
        };
        Words::msg("note-refused").with("what", what).with("why", Words::Refusal(r))
    })
}

/// Why the chosen ability cannot be used on what the cursor is over, in the engine's words, for
/// the banner (issue 23: hovering an invalid target says why); or, for a valid target (hovered, or
/// chosen with Tab), the what-if preview of an attack on it (issue 50). Worked out once per
/// square, target, ability and point of the fight.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct HoverReason {
    /// The refusal, if the hovered target is not valid.
    pub text: Option<String>,
    /// The what-if preview of a valid target of the chosen attack, hovered or chosen with Tab:
    /// its chances to hit and to crit (issue 50), `Orc: hit 55% · critical 5%`; none for other
    /// abilities, or under an active defence (homebrew-d20's defensive rolls).
    pub odds: Option<String>,
    key: Option<(Option<GridPos>, Option<Cid>, String, usize, usize)>,
}

/// The what-if preview of `who`'s `ability` on `target`: its chances to hit and to crit, named
/// (`Orc: hit 55% · critical 5%`); none without an attack roll against a static AC.
fn odds_words(combat: &mut Combat, who: Cid, ability: &str, target: Cid, tr: &Tr) -> Option<String> {
    let odds = crate::hud_model::attack_odds_text_in(combat, who, ability, target, tr)?;
    Some(crate::tr!(tr, "banner-odds", who = combat.name_in(target, tr.code()), odds = odds))
}

pub(crate) fn hover_reason(
    cursor: Res<CursorCell>,
    battle: Option<ResMut<Battle>>,
    selection: Res<Selection>,
    mut out: ResMut<HoverReason>,
    tr: Res<Tr>,
) {
    let clear = |out: &mut ResMut<HoverReason>| {
        if out.text.is_some() || out.odds.is_some() || out.key.is_some() {
            **out = HoverReason::default();
        }
    };
    let (Some(mut battle), Some(ability)) = (battle, selection.ability.clone()) else {
        clear(&mut out);
        return;
    };
    if cursor.0.is_none() && selection.target.is_none() {
        clear(&mut out);
        return;
    }
    let Some(who) = battle.human_waiting().filter(|w| battle.combat.turn().active == Some(*w)) else {
        clear(&mut out);
        return;
    };
    let key =
        (cursor.0, selection.target, ability.clone(), battle.combat.log().events.len(), battle.combat.journal().len());
    let same = out.key.as_ref() == Some(&key);
    // A new language words the reason again.
    if same && !tr.is_changed() {
        return;
    }
    // The pointer moved on (or the fight did): a click's refusal gives way to what is hovered now.
    if !same && out.key.is_some() && battle.last_rejection.is_some() {
        battle.clear_refusal();
    }
    // A dry run changes nothing: the battle is not marked changed.
    let b = battle.bypass_change_detection();
    out.text = None;
    out.odds = None;
    if let Some(cell) = cursor.0 {
        let on_cell = b.creature_at(cell);
        let intent = click_intent(&mut b.combat, who, &ability, cell, on_cell);
        out.text = refusal(&mut b.combat, &intent, cell, on_cell).err().map(|w| w.say(Some(&b.combat), &tr));
        out.odds = match on_cell {
            Some(t) if out.text.is_none() && intent.targets.contains(&t) => {
                odds_words(&mut b.combat, who, &ability, t, &tr)
            }
            _ => None,
        };
    }
    // The target chosen with Tab, while the pointer is on no target of its own (issue 50).
    if out.text.is_none()
        && out.odds.is_none()
        && let Some(t) = selection.target
        && b.combat.check_act(&ActIntent::new(who, ability.clone(), vec![t])).is_ok()
    {
        out.odds = odds_words(&mut b.combat, who, &ability, t, &tr);
    }
    out.key = Some(key);
}

/// A press and its release that arrive in one frame (a quick click on a slow, software-rendered
/// frame) leave Bevy's `ButtonInput` not pressed, and leafwing reads only what is pressed, so the
/// click was lost (issue 23, fault 3). Such a button counts as pressed for that frame; the next
/// frame leafwing sees it released, as after any click.
pub(crate) fn keep_quick_presses(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut store: ResMut<leafwing_input_manager::user_input::updating::CentralInputStore>,
) {
    use leafwing_input_manager::buttonlike::ButtonValue;
    for b in mouse.get_just_pressed().filter(|b| !mouse.pressed(**b)) {
        store.update_buttonlike(*b, ButtonValue::from_pressed(true));
    }
    for k in keys.get_just_pressed().filter(|k| !keys.pressed(**k)) {
        store.update_buttonlike(*k, ButtonValue::from_pressed(true));
    }
}
