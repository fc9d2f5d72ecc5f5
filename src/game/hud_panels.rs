//! The battle HUD's egui widgets: the initiative tracker (a segment timeline under segments), the
//! creature card (action economy, conditions, casting), the ability bar and the combat log.
//!
//! They draw the view-models of [`crate::hud_model`] and act only by returning [`HudAction`]s, which the
//! calling system turns into `HumanCommand`s: nothing here touches rules state. The view-models are
//! rebuilt only when the combat changed (its log grew, the engine ran, or what the player points
//! at changed), so a frame costs the drawing alone. [`draw_panels_in`] takes a plain `egui::Ui`, so the
//! HUD benchmark runs it on a headless egui context.

use bevy::prelude::*;
use bevy_egui::egui;
use egui::{Color32, RichText};

use crate::hud_model::log::{Category, LogFilter, LogView};
use crate::hud_model::{self, AbilityButton, Budget, Card, MarkKind, Reactions, Tracker, TrackerKind, TrackerRow};
use crate::i18n::Tr;
use crate::rules::components::Cid;
use crate::rules::driver::Combat;
use crate::tr;

/// Gold: the current creature, selections, the what-if preview.
pub const GOLD: Color32 = Color32::from_rgb(236, 196, 92);
/// Warnings and negative conditions.
pub const RED: Color32 = Color32::from_rgb(236, 110, 96);
/// Positive conditions and usable things.
pub const GREEN: Color32 = Color32::from_rgb(132, 200, 120);
/// Dimmed text: creatures that are down, spent pips.
pub const DIM: Color32 = Color32::from_rgb(120, 124, 132);

/// What the player has chosen to see.
#[derive(Resource, Debug, Clone)]
pub struct HudUi {
    /// The tracker (left).
    pub tracker: bool,
    /// The creature card (right, top).
    pub card: bool,
    /// The log (right, bottom).
    pub log: bool,
    /// The F12 world inspector.
    pub inspector: bool,
    /// The log's filter.
    pub filter: LogFilter,
    /// The creature whose card is shown; none: the one acting or deciding.
    pub focus: Option<Cid>,
    /// The ability under the pointer in the ability bar (for the what-if preview).
    pub hovered: Option<String>,
    /// An ability whose what-if preview stays shown, whatever the pointer does (screenshots).
    pub preview: Option<String>,
    /// Where the last log export went, or why it failed (worded when it was made).
    pub export_note: Option<String>,
    /// The HUD's zoom, on top of the OS scale factor.
    pub zoom: f32,
}

impl Default for HudUi {
    fn default() -> Self {
        Self {
            tracker: true,
            card: true,
            log: true,
            inspector: false,
            filter: LogFilter::default(),
            focus: None,
            hovered: None,
            preview: None,
            export_note: None,
            zoom: 1.0,
        }
    }
}

/// The view-models, rebuilt only when something they show changed.
#[derive(Resource, Debug, Default)]
pub struct HudCache {
    /// The combat log as entries.
    pub log: LogView,
    key: Option<(usize, u64, Option<Cid>, Option<String>, Option<Cid>)>,
    /// The tracker.
    pub tracker: Option<Tracker>,
    /// The focused creature's card.
    pub card: Option<Card>,
    /// The acting person's ability bar.
    pub bar: Vec<AbilityButton>,
    /// The creature the bar is for.
    pub bar_for: Option<Cid>,
    /// Combatant names, by id, in the language.
    pub names: Vec<String>,
    /// Side names in the language, by side.
    sides: std::collections::BTreeMap<String, String>,
    /// The language the view-models are in: another one rebuilds them.
    lang: Option<Tr>,
    /// The hotkey labels the ability bar was built with: new ones (another language) rebuild it.
    hotkeys: Vec<String>,
}

impl HudCache {
    /// Bring the view-models up to date, in the language of `tr`. `human` is the person's
    /// creature whose turn it is (its ability bar is built); `focus` the creature whose card to
    /// show; `hovered` the ability under the pointer. A change of language rebuilds them all,
    /// the log's sentences included.
    pub fn refresh_in(
        &mut self,
        combat: &mut Combat,
        human: Option<Cid>,
        focus: Option<Cid>,
        hovered: Option<&str>,
        hotkeys: &[String],
        tr: &Tr,
    ) {
        self.log.set_language(tr);
        let same_language = self
            .lang
            .as_ref()
            .is_some_and(|l| l.code() == tr.code() && std::sync::Arc::ptr_eq(l.catalogs(), tr.catalogs()));
        if !same_language {
            self.lang = Some(tr.clone());
            self.key = None;
        }
        if self.hotkeys != hotkeys {
            self.hotkeys = hotkeys.to_vec();
            self.key = None;
        }
        self.log.update(combat);
        let key = (combat.log().events.len(), combat.runs(), human, hovered.map(str::to_string), focus);
        if self.key.as_ref() == Some(&key) {
            return;
        }
        self.key = Some(key);
        self.names = (0..combat.len() as u32).map(|i| combat.name_in(Cid(i), tr.code())).collect();
        let what_if = human.zip(hovered);
        self.tracker = Some(hud_model::tracker_in(combat, (combat.len() * 2).clamp(4, 24), what_if, tr));
        let shown = focus.or(human).or_else(|| match combat.status() {
            crate::rules::state::EngineStatus::AwaitingCommand(c) => Some(c),
            crate::rules::state::EngineStatus::AwaitingDecision(crate::rules::command::Decider::Creature(c)) => Some(c),
            _ => combat.turn().active,
        });
        self.card = shown.map(|c| hud_model::card_in(combat, c, tr));
        // Sides as the language names them (the view-models carry the encounter's own names).
        let sides = &self.sides;
        let local = |s: &mut String| {
            if let Some(n) = sides.get(s.as_str()) {
                *s = n.clone();
            }
        };
        if let Some(t) = &mut self.tracker {
            t.order.iter_mut().chain(&mut t.delayed).chain(&mut t.readied).for_each(|r| local(&mut r.side));
        }
        if let Some(c) = &mut self.card {
            local(&mut c.side);
        }
        if self.bar_for != human || human.is_some() {
            self.bar = human.map(|h| hud_model::ability_buttons_in(combat, h, hotkeys, tr)).unwrap_or_default();
        }
        self.bar_for = human;
    }

    /// Forget the view-models, so the next [`HudCache::refresh`] rebuilds them (the log entries are
    /// kept: they only ever grow).
    pub fn invalidate(&mut self) {
        self.key = None;
    }

    /// Side names in the language: the log's sentences and the card use them.
    pub(crate) fn set_side_names(&mut self, sides: std::collections::BTreeMap<String, String>) {
        if self.sides != sides {
            self.log.set_side_names(sides.clone());
            self.sides = sides;
            self.key = None;
        }
    }

    fn name(&self, c: Cid) -> &str {
        self.names.get(c.0 as usize).map_or("?", |s| s.as_str())
    }
}

/// What the player did in the HUD.
#[derive(Debug, Clone, PartialEq)]
pub enum HudAction {
    /// Choose (or drop) an ability of the bar.
    Choose(Option<String>),
    /// Show this creature's card (none: the acting one).
    Focus(Option<Cid>),
    /// Write the log as JSON lines.
    ExportLog,
}

/// Set the game's look: a dark theme with gold accents, readable at 1280×800.
pub(crate) fn theme(ctx: &egui::Context) {
    ctx.global_style_mut(|s| {
        // egui's debug builds outline in red a place whose widget changed between two passes of
        // a frame. The log sticks to its bottom, so a row's place holds the next entry once new
        // events arrive: expected, not an id bug, and it covered the log in debug screenshots.
        // (egui's style has its debug options in debug builds only.)
        #[cfg(debug_assertions)]
        {
            s.debug.warn_if_rect_changes_id = false;
        }
        let v = &mut s.visuals;
        *v = egui::Visuals::dark();
        v.window_corner_radius = egui::CornerRadius::same(6);
        v.panel_fill = Color32::from_rgb(22, 24, 30);
        v.window_fill = Color32::from_rgb(28, 30, 38);
        v.extreme_bg_color = Color32::from_rgb(14, 15, 19);
        v.selection.bg_fill = Color32::from_rgb(120, 92, 30);
        v.selection.stroke = egui::Stroke::new(1.0, GOLD);
        v.hyperlink_color = GOLD;
        v.widgets.hovered.bg_stroke = egui::Stroke::new(1.0, GOLD);
        s.spacing.item_spacing = egui::vec2(8.0, 5.0);
        s.spacing.button_padding = egui::vec2(8.0, 4.0);
    });
}

/// Draw the tracker (left), the card and the log (right) and the segment timeline (top) inside
/// `root`, whose remaining space is the board, in the language of `tr`. Returns what the player
/// did and the rectangles the panels cover.
pub fn draw_panels_in(
    root: &mut egui::Ui,
    cache: &HudCache,
    st: &mut HudUi,
    tr: &Tr,
) -> (Vec<HudAction>, Vec<egui::Rect>) {
    let mut out = Vec::new();
    let mut rects = Vec::new();
    let width = root.max_rect().width();
    let side = (width * 0.22).clamp(220.0, 380.0);
    if let Some(t) = cache.tracker.as_ref().filter(|t| matches!(t.kind, TrackerKind::Segments { .. }))
        && st.tracker
    {
        rects.push(egui::Panel::top("timeline").show_inside(root, |ui| timeline(ui, cache, t, tr)).response.rect);
    }
    if st.tracker
        && let Some(t) = &cache.tracker
    {
        let r = egui::Panel::left("tracker").resizable(true).default_size(side * 0.85).show_inside(root, |ui| {
            tracker(ui, cache, t, st, &mut out, tr);
        });
        rects.push(r.response.rect);
    }
    if st.card || st.log {
        let r = egui::Panel::right("details").resizable(true).default_size(side * 1.15).show_inside(root, |ui| {
            if st.card
                && let Some(c) = &cache.card
            {
                card(ui, c, st, &mut out, tr);
                ui.separator();
            }
            if st.log {
                log(ui, cache, st, &mut out, tr);
            }
        });
        rects.push(r.response.rect);
    }
    (out, rects)
}

/// A small filled circle in the text line (egui's default fonts have no "●").
fn dot(ui: &mut egui::Ui, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 14.0), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), 4.0, colour);
}

/// A pip: a filled diamond (still there) or an outlined one (spent).
fn pip(ui: &mut egui::Ui, filled: bool, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
    let c = rect.center();
    let r = 6.0;
    let pts = vec![c + egui::vec2(0.0, -r), c + egui::vec2(r, 0.0), c + egui::vec2(0.0, r), c + egui::vec2(-r, 0.0)];
    let shape = if filled {
        egui::Shape::convex_polygon(pts, colour, egui::Stroke::NONE)
    } else {
        egui::Shape::closed_line(pts, egui::Stroke::new(1.2, DIM))
    };
    ui.painter().add(shape);
}

/// A slot: a filled circle (open) or an outlined one (spent), then its word.
fn slot(ui: &mut egui::Ui, open: bool, word: &str) {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 14.0), egui::Sense::hover());
        if open {
            ui.painter().circle_filled(rect.center(), 4.5, GOLD);
        } else {
            ui.painter().circle_stroke(rect.center(), 4.5, egui::Stroke::new(1.2, DIM));
        }
        ui.label(RichText::new(word).color(if open { GOLD } else { DIM }));
    });
}

/// A side's colour in the HUD: the same as its tokens' on the board ([`crate::hud_model::side_rgb`]).
fn side_colour(index: usize) -> Color32 {
    let [r, g, b] = crate::hud_model::side_rgb(index);
    Color32::from_rgb(r, g, b)
}

fn row_widget(ui: &mut egui::Ui, r: &TrackerRow, counts: bool, st: &mut HudUi, out: &mut Vec<HudAction>, tr: &Tr) {
    ui.horizontal(|ui| {
        dot(ui, side_colour(r.side_index));
        let mut name = RichText::new(&r.name);
        if r.current {
            name = name.strong().color(GOLD);
        } else if r.down {
            name = name.strikethrough().color(DIM);
        } else if r.prevented {
            name = name.color(RED);
        }
        let marker = if r.current { "▶ " } else { "" };
        let resp = ui.add(egui::Button::selectable(st.focus == Some(r.who), name).frame(false));
        if !marker.is_empty() {
            ui.label(RichText::new(tr.t("tracker-row-acting")).small().color(GOLD));
        }
        if counts {
            ui.label(RichText::new(tr!(tr, "tracker-row-count", count = r.count)).small().color(DIM));
        }
        if resp.clicked() {
            let f = if st.focus == Some(r.who) { None } else { Some(r.who) };
            out.push(HudAction::Focus(f));
        }
        let tags = if r.tags.is_empty() { String::new() } else { r.tags.join(", ") };
        if !tags.is_empty() {
            resp.on_hover_text(tr!(tr, "tracker-row-hover", name = &r.name, side = &r.side, tags = tags));
        }
    });
    if !r.tags.is_empty() {
        ui.label(RichText::new(format!("    {}", r.tags.join(" · "))).small().color(DIM));
    }
}

fn tracker(ui: &mut egui::Ui, _cache: &HudCache, t: &Tracker, st: &mut HudUi, out: &mut Vec<HudAction>, tr: &Tr) {
    ui.add_space(4.0);
    let title = match t.kind {
        TrackerKind::Rounds if t.surprise_round => tr.t("tracker-surprise-round"),
        TrackerKind::Rounds => tr!(tr, "tracker-round", round = t.round),
        TrackerKind::Segments { .. } => tr!(tr, "tracker-round-segment", round = t.round, segment = t.segment),
    };
    ui.label(RichText::new(title).strong().size(17.0).color(GOLD));
    if t.surprise_round {
        ui.label(RichText::new(tr.t("tracker-surprise-hint")).small().color(RED));
    }
    ui.label(RichText::new(tr.t("tracker-turn-order")).small().color(DIM));
    egui::ScrollArea::vertical().id_salt("tracker_scroll").max_height(ui.available_height() * 0.7).show(ui, |ui| {
        let mut last_round = None;
        for r in &t.order {
            if !r.current && last_round.is_some_and(|lr| lr != r.round) {
                let label = match r.round {
                    0 => tr.t("tracker-divider-surprise"),
                    round => tr!(tr, "tracker-divider-round", round = round),
                };
                ui.label(RichText::new(label).small().color(DIM));
            }
            last_round = Some(r.round);
            if let TrackerKind::Segments { .. } = t.kind
                && !r.current
            {
                ui.label(
                    RichText::new(tr!(tr, "tracker-seg", segment = r.segment, round = r.round)).small().color(DIM),
                );
            }
            row_widget(ui, r, t.show_counts, st, out, tr);
        }
    });
    if !t.delayed.is_empty() {
        ui.separator();
        ui.label(RichText::new(tr.t("tracker-delayed")).strong());
        for r in &t.delayed {
            row_widget(ui, r, t.show_counts, st, out, tr);
        }
    }
    if !t.readied.is_empty() {
        ui.separator();
        ui.label(RichText::new(tr.t("tracker-readied")).strong());
        for r in &t.readied {
            row_widget(ui, r, t.show_counts, st, out, tr);
        }
    }
}

fn timeline(ui: &mut egui::Ui, cache: &HudCache, t: &Tracker, tr: &Tr) {
    let TrackerKind::Segments { per_round } = t.kind else { return };
    let (first, last) = t.timeline_rounds;
    let cols = ((last - first + 1) * per_round) as usize;
    ui.horizontal(|ui| {
        ui.label(RichText::new(tr.t("tracker-timeline")).strong());
        for h in &t.held {
            let text = tr!(tr, "tracker-held", who = &h.name, ability = &h.ability, owes = h.owes);
            ui.label(RichText::new(text).color(GOLD)).on_hover_text(tr.t("tracker-held-hint"));
        }
    });
    let avail = ui.available_width();
    let w = (avail / cols as f32).max(18.0);
    egui::Grid::new("timeline_grid").spacing([0.0, 2.0]).min_col_width(w).max_col_width(w).show(ui, |ui| {
        for i in 0..cols {
            let r = first + i as u32 / per_round;
            let s = i as u32 % per_round + 1;
            let now = (r, s) == (t.round, t.segment);
            let text = if s == 1 { tr!(tr, "tracker-column-round", round = r) } else { s.to_string() };
            ui.label(RichText::new(text).small().color(if now { GOLD } else { DIM }));
        }
        ui.end_row();
        let rows = (0..cols)
            .map(|i| {
                let r = first + i as u32 / per_round;
                let s = i as u32 % per_round + 1;
                t.marks.iter().filter(move |m| m.round == r && m.segment == s).collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        let depth = rows.iter().map(Vec::len).max().unwrap_or(0).min(4);
        for d in 0..depth.max(1) {
            for marks in &rows {
                match marks.get(d) {
                    Some(m) => {
                        let short: String = m.name.chars().take(4).collect();
                        let (text, colour) = match m.kind {
                            MarkKind::Turn => (short, Color32::WHITE),
                            MarkKind::CastResolves => (format!("*{short}"), Color32::from_rgb(170, 140, 255)),
                            MarkKind::FocusResolves => (format!("~{short}"), Color32::from_rgb(120, 200, 240)),
                            MarkKind::WhatIf => (format!("?{short}"), GOLD),
                            MarkKind::Now => (format!(">{short}"), GOLD),
                        };
                        let mut rt = RichText::new(text).small().color(colour);
                        if m.kind == MarkKind::WhatIf {
                            rt = rt.strong().background_color(Color32::from_rgb(70, 56, 20));
                        }
                        ui.label(rt).on_hover_text(&m.label);
                    }
                    None => {
                        ui.label("");
                    }
                }
            }
            ui.end_row();
        }
    });
    let _ = cache;
}

fn pips(ui: &mut egui::Ui, label: &str, have: u8, of: u8, colour: Color32, tr: &Tr) {
    ui.horizontal(|ui| {
        ui.label(label);
        for i in 0..of {
            pip(ui, i < have, colour);
        }
        ui.label(RichText::new(tr!(tr, "card-pips-of", have = have, of = of)).small().color(DIM));
    });
}

fn card(ui: &mut egui::Ui, c: &Card, st: &mut HudUi, out: &mut Vec<HudAction>, tr: &Tr) {
    ui.horizontal(|ui| {
        dot(ui, side_colour(c.side_index));
        ui.label(RichText::new(&c.name).strong().size(17.0));
        ui.label(RichText::new(&c.side).small().color(DIM));
        if st.focus.is_some() && ui.small_button("×").on_hover_text(tr.t("card-back-to-acting")).clicked() {
            out.push(HudAction::Focus(None));
        }
    });
    let frac = if c.max_hp > 0 { (c.hp.max(0) as f32) / (c.max_hp as f32) } else { 0.0 };
    let hp = tr!(tr, "card-hp", hp = c.hp, max = c.max_hp);
    ui.add(egui::ProgressBar::new(frac).text(hp).fill(if frac > 0.5 {
        Color32::from_rgb(70, 140, 70)
    } else {
        Color32::from_rgb(170, 70, 50)
    }));
    match &c.budget {
        Budget::Pool { max, spent, restricted_left, restricted_to, per_round } => {
            let left = max.saturating_sub(*spent);
            let label = tr.t(if *per_round { "card-actions-this-round" } else { "card-actions-this-turn" });
            pips(ui, &label, left, *max, GOLD, tr);
            if *restricted_left > 0 {
                let extra = if restricted_to.is_empty() {
                    tr!(tr, "card-extra-actions", n = *restricted_left)
                } else {
                    tr!(tr, "card-extra-actions-only", n = *restricted_left, only = restricted_to.join(", "))
                };
                ui.label(RichText::new(extra).color(GREEN));
            }
            if *per_round {
                ui.label(RichText::new(tr.t("card-bonus-actions")).small().color(DIM));
            }
        }
        Budget::Slots { standard, moves, swift, full_round_open, step_open } => {
            egui::Grid::new("slots").num_columns(2).show(ui, |ui| {
                let row = |ui: &mut egui::Ui, name: &str, open: bool, yes: &str, no: &str| {
                    ui.label(name);
                    slot(ui, open, if open { yes } else { no });
                    ui.end_row();
                };
                let (open, spent) = (tr.t("card-slot-open"), tr.t("card-slot-spent"));
                row(ui, &tr.t("card-slot-standard"), *standard > 0, &open, &spent);
                row(ui, &tr.t("card-slot-move"), *moves > 0, &open, &spent);
                row(ui, &tr.t("card-slot-swift"), *swift > 0, &open, &spent);
                row(ui, &tr.t("card-slot-free"), true, &tr.t("card-slot-any-number"), "");
                row(
                    ui,
                    &tr.t("card-slot-full-round"),
                    *full_round_open,
                    &tr.t("card-slot-still-open"),
                    &tr.t("card-slot-closed"),
                );
                row(ui, &tr.t("card-slot-step"), *step_open, &open, &tr.t("card-slot-used-or-moved"));
            });
        }
        Budget::Recovery { acting, owed, next } => {
            if *acting {
                ui.label(RichText::new(tr.t("card-acting-now")).color(GOLD));
            }
            match (owed, next) {
                (Some(o), Some((r, s))) => {
                    ui.label(tr!(tr, "card-next-turn", segment = *s, round = *r, owed = *o));
                }
                _ if *acting => {}
                _ => {
                    ui.label(RichText::new(tr.t("card-no-turn-scheduled")).color(DIM));
                }
            }
        }
    }
    match c.reactions {
        Reactions::Unlimited => ui.label(RichText::new(tr.t("card-reactions-unlimited")).small()),
        Reactions::Left(n) => ui.label(tr!(tr, "card-reactions-left", n = n)),
        Reactions::CannotAct => ui.label(RichText::new(tr.t("card-reactions-none")).small().color(RED)),
    };
    for m in &c.modifiers {
        ui.label(RichText::new(format!("{} {}: {}", m.condition, m.value, m.effect)).color(RED));
    }
    if let Some(a) = &c.activity {
        let frac = if a.total > 0 { a.paid as f32 / a.total as f32 } else { 0.0 };
        let progress =
            tr!(tr, "card-activity-progress", ability = &a.ability, paid = a.paid, total = a.total, unit = a.unit);
        ui.add(egui::ProgressBar::new(frac).text(progress).fill(Color32::from_rgb(110, 90, 190)))
            .on_hover_text(&a.text);
        let mut parts = Vec::new();
        if a.concentrating {
            parts.push(tr.t("card-concentrating"));
        }
        if let Some(o) = a.release_owes {
            parts.push(tr!(tr, "card-release-owes", rt = o));
        }
        let line = parts.join(" · ");
        if !line.is_empty() {
            ui.label(RichText::new(line).small().color(Color32::from_rgb(170, 140, 255)));
        }
    }
    if !c.badges.is_empty() {
        ui.horizontal_wrapped(|ui| {
            for b in &c.badges {
                let colour = if b.negative { RED } else { GREEN };
                let text = match &b.remaining {
                    Some(r) => format!("{} · {r}", b.label),
                    None => b.label.clone(),
                };
                let resp = egui::Frame::new()
                    .stroke(egui::Stroke::new(1.0, colour))
                    .corner_radius(4)
                    .inner_margin(egui::Margin::symmetric(5, 2))
                    .show(ui, |ui| ui.label(RichText::new(text).small().color(colour)))
                    .response;
                resp.on_hover_ui(|ui| badge_tooltip(ui, b, tr));
            }
        });
    }
}

fn badge_tooltip(ui: &mut egui::Ui, b: &hud_model::Badge, tr: &Tr) {
    ui.set_max_width(360.0);
    ui.label(RichText::new(&b.label).strong());
    if let Some(text) = &b.text {
        ui.label(RichText::new(text).small());
    }
    for m in &b.modifiers {
        ui.label(RichText::new(m).strong());
    }
    ui.label(RichText::new(&b.expiry).italics());
    for id in &b.rules {
        ui.separator();
        match hud_model::rules_ref::rule_text_in(tr.code(), id) {
            Some((title, text)) => {
                ui.label(RichText::new(format!("{id} — {title}")).strong().color(GOLD));
                ui.label(RichText::new(text).small());
            }
            None => {
                ui.label(RichText::new(id).strong().color(GOLD));
            }
        }
    }
}

fn rule_tooltip(ui: &mut egui::Ui, id: &str, tr: &Tr) {
    ui.set_max_width(360.0);
    match hud_model::rules_ref::rule_text_in(tr.code(), id) {
        Some((title, text)) => {
            ui.label(RichText::new(format!("{id} — {title}")).strong().color(GOLD));
            ui.label(RichText::new(text).small());
        }
        None => {
            ui.label(id);
        }
    }
}

fn log(ui: &mut egui::Ui, cache: &HudCache, st: &mut HudUi, out: &mut Vec<HudAction>, tr: &Tr) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(tr.t("log-view-title")).strong());
        let everyone = tr.t("log-view-everyone");
        let who = st.filter.who.map_or(everyone.clone(), |c| cache.name(c).to_string());
        egui::ComboBox::from_id_salt("log_who").width(110.0).selected_text(who).show_ui(ui, |ui| {
            ui.selectable_value(&mut st.filter.who, None, everyone);
            for (i, n) in cache.names.iter().enumerate() {
                ui.selectable_value(&mut st.filter.who, Some(Cid(i as u32)), n);
            }
        });
        if ui.small_button(tr.t("log-view-export")).on_hover_text(tr.t("log-view-export-hint")).clicked() {
            out.push(HudAction::ExportLog);
        }
    });
    ui.horizontal_wrapped(|ui| {
        for c in Category::ALL {
            let shown = !st.filter.hidden.contains(&c);
            if ui.add(egui::Button::selectable(shown, RichText::new(c.label_in(tr)).small())).clicked() {
                if shown {
                    st.filter.hidden.push(c);
                } else {
                    st.filter.hidden.retain(|h| *h != c);
                }
            }
        }
    });
    if let Some(n) = &st.export_note {
        ui.label(RichText::new(n).small().color(GOLD));
    }
    let rows: Vec<&crate::hud_model::log::LogEntry> = cache.log.filtered(&st.filter).collect();
    // Rows of three lines of body text (an attack with its defence and damage fits at 1280×800;
    // hover shows any longer one whole), the sentence the readable part and the rule ID small and
    // muted beside it (playtest fault 5, issue 23). Only the rows in view are laid out, so a
    // 10,000-entry log costs what a screenful does.
    let line = ui.text_style_height(&egui::TextStyle::Body);
    let tag_line = ui.text_style_height(&egui::TextStyle::Small);
    // A language whose sentences run longer gives its rows more lines (its catalog's
    // `log-row-lines`: English 3, Spanish 4).
    let lines = tr.t("log-row-lines").trim().parse::<f32>().unwrap_or(3.0).clamp(2.0, 6.0);
    let row_h = lines * line + 4.0;
    egui::ScrollArea::vertical().id_salt("log_scroll").stick_to_bottom(true).auto_shrink([false, false]).show_rows(
        ui,
        row_h,
        rows.len(),
        |ui, range| {
            let width = ui.available_width();
            for e in &rows[range] {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(width, row_h), egui::Sense::hover());
                // Each row's widgets get ids of their own (the entry's first event), so rows that
                // scroll into the same place never share one.
                let mut row = ui.new_child(
                    egui::UiBuilder::new()
                        .id_salt(("log_row", e.first))
                        .max_rect(rect)
                        .layout(egui::Layout::left_to_right(egui::Align::TOP)),
                );
                row.set_clip_rect(rect.intersect(ui.clip_rect()));
                let tag = e.rule.unwrap_or("");
                row.add_sized(
                    egui::vec2(LOG_TAG_WIDTH, tag_line),
                    egui::Label::new(RichText::new(tag).small().monospace().color(MUTED)),
                )
                .on_hover_ui(|ui| rule_tooltip(ui, tag, tr));
                let colour = match e.category {
                    Category::Attack => Color32::from_rgb(236, 200, 180),
                    Category::Turn => Color32::from_rgb(170, 174, 184),
                    Category::Condition => Color32::from_rgb(200, 220, 160),
                    Category::Casting => Color32::from_rgb(190, 170, 250),
                    _ => Color32::from_rgb(220, 222, 228),
                };
                let head = tr!(tr, "log-view-entry-round", round = e.round, kind = e.category.label_in(tr));
                row.add(egui::Label::new(RichText::new(&e.text).color(colour)).wrap())
                    .on_hover_text(format!("{head}\n{}", e.text));
            }
        },
    );
}

/// The log's rule-ID column: wide enough for `G-HB-21` in the small monospace font.
const LOG_TAG_WIDTH: f32 = 46.0;

/// Rule IDs in the log: present but quieter than the sentences.
const MUTED: Color32 = Color32::from_rgb(120, 116, 100);

/// Draw the ability bar of the acting person's creature, in the language of `tr`. Returns what
/// the player did.
pub fn draw_ability_bar_in(
    ui: &mut egui::Ui,
    cache: &HudCache,
    chosen: Option<&str>,
    st: &mut HudUi,
    tr: &Tr,
) -> Vec<HudAction> {
    let mut out = Vec::new();
    let mut hovered = None;
    ui.horizontal_wrapped(|ui| {
        for b in &cache.bar {
            let key = b.hotkey.as_deref().map(|k| format!("{k} ")).unwrap_or_default();
            let selected = chosen == Some(b.id.as_str());
            let mut label = RichText::new(format!("{key}{}\n{}", b.name, b.cost));
            if selected {
                label = label.strong().color(GOLD);
            }
            let resp = ui.add_enabled(b.enabled, egui::Button::selectable(selected, label));
            let resp = if b.enabled {
                let tip = b.what_if.clone().unwrap_or_default();
                let targets = if b.targets.is_empty() {
                    String::new()
                } else {
                    // Each target with its chances to hit and to crit (issue 50), where the
                    // attack rolls against a static AC.
                    let names = b
                        .targets
                        .iter()
                        .map(|t| match b.odds.iter().find(|(c, _)| c == t) {
                            Some((_, odds)) => format!("{} ({odds})", cache.name(*t)),
                            None => cache.name(*t).to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    format!("\n{}", tr!(tr, "bar-targets-now", targets = names))
                };
                resp.on_hover_text(format!("{tip}{targets}"))
            } else {
                let why = b.reason.clone().unwrap_or_default();
                let tip = b.what_if.clone().map(|w| format!("\n{w}")).unwrap_or_default();
                resp.on_disabled_hover_text(format!("{}{tip}", tr!(tr, "bar-cant-use-now", why = why)))
            };
            if resp.hovered() || resp.contains_pointer() {
                hovered = Some(b.id.clone());
            }
            if resp.clicked() {
                out.push(HudAction::Choose(if selected { None } else { Some(b.id.clone()) }));
            }
        }
    });
    if st.hovered != hovered {
        st.hovered = hovered;
    }
    let shown = st.preview.as_ref().or(st.hovered.as_ref());
    if let Some(w) = shown.and_then(|id| cache.bar.iter().find(|b| &b.id == id)).and_then(|b| b.what_if.clone()) {
        ui.label(RichText::new(tr!(tr, "bar-what-if", what = w)).color(GOLD));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use bevy::color::ColorToPacked;

    use crate::encounter::Encounter;
    use crate::rules::components::{Cid, Side};
    use crate::rules::data::installed_rulesets;

    /// Playtest fault 6 (issue 23): the heroes' tokens were blue and their dots in the turn
    /// tracker red. Every creature's dot in the tracker and on its card has its token's colour,
    /// and the sides' colours differ, in every shipped encounter under every ruleset.
    #[test]
    fn a_creatures_dot_in_the_hud_has_its_tokens_colour() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let rulesets = installed_rulesets(root).unwrap();
        for file in ["skirmish-4v4.ron", "bench-4v4.ron", "ambush-3v3.ron"] {
            let enc = Encounter::load(&root.join("assets/encounters").join(file)).unwrap();
            for rs in &rulesets {
                let mut combat = enc.start(rs.clone(), 1).unwrap();
                let token = |combat: &crate::rules::driver::Combat, who: Cid| {
                    let side = combat.get::<Side>(who).unwrap().0.clone();
                    super::super::view::side_color(crate::hud_model::side_index(combat, &side)).to_srgba().to_u8_array()
                };
                let ahead = 2 * combat.len();
                let rows = crate::hud_model::tracker(&mut combat, ahead, None).order;
                assert!(!rows.is_empty(), "{file} {}", rs.name);
                let mut by_side: Vec<(String, [u8; 4])> = Vec::new();
                for r in &rows {
                    let dot = super::side_colour(r.side_index).to_array();
                    assert_eq!(dot, token(&combat, r.who), "{file} {}: {} ({})", rs.name, r.name, r.side);
                    let card = crate::hud_model::card(&mut combat, r.who);
                    assert_eq!(super::side_colour(card.side_index).to_array(), dot, "{file}: {}'s card", r.name);
                    if !by_side.iter().any(|(s, _)| *s == r.side) {
                        by_side.push((r.side.clone(), dot));
                    }
                }
                let mut colours: Vec<[u8; 4]> = by_side.iter().map(|(_, c)| *c).collect();
                colours.sort();
                colours.dedup();
                assert_eq!(colours.len(), enc.sides.len(), "{file} {}: {by_side:?}", rs.name);
            }
        }
    }
}
