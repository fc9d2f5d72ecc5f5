//! F12: bevy-inspector-egui's world inspector on the combat's own world, so that modders can watch
//! the combatants' components (their own included) change live.
//!
//! The rules state lives in the battle's [`Combat`](crate::rules::driver::Combat) world, not in the
//! app's world, so the inspector shows that world. It shares the app's type registry: a mod that
//! registers its component types on the app (`app.register_type::<Regeneration>()`) sees them here.
//! The inspector is read-only: presentation never changes rules state (edits would bypass the
//! engine and its log), so its widgets are drawn disabled.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::battle::Battle;
use super::hud_panels::HudUi;
use crate::i18n::Tr;
use crate::rules::components::*;

/// Register the rules' component types, so the inspector can show them.
pub(crate) fn register_rules_types(app: &mut App) {
    app.register_type::<Cid>()
        .register_type::<CombatantName>()
        .register_type::<Side>()
        .register_type::<Stats>()
        .register_type::<Health>()
        .register_type::<GridPos>()
        .register_type::<Movement>()
        .register_type::<Abilities>()
        .register_type::<Controller>()
        .register_type::<InitiativeSetup>()
        .register_type::<Initiative>()
        .register_type::<ActionPool>()
        .register_type::<ConditionState>()
        .register_type::<Conditions>()
        .register_type::<Activity>()
        .register_type::<Casting>()
        .register_type::<HeldActions>()
        .register_type::<AssistBonuses>()
        .register_type::<DisengagedFrom>()
        .register_type::<Traits>()
        .register_type::<Inventory>()
        .register_type::<Aware>()
        .register_type::<CreatedEffects>();
}

/// The inspector window (F12).
pub(crate) fn inspector_window(
    mut contexts: EguiContexts,
    battle: Option<ResMut<Battle>>,
    registry: Res<AppTypeRegistry>,
    mut hud_ui: ResMut<HudUi>,
    tr: Res<Tr>,
) -> Result {
    if !hud_ui.inspector {
        return Ok(());
    }
    let Some(mut battle) = battle else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    // Not a rules resource: the type registry the inspector reads, shared with the app. A
    // combat with mods has a registry of its own (the mods' types): its entries join the app's.
    let world = &mut battle.bypass_change_detection().combat.world;
    let shared = world
        .get_resource::<AppTypeRegistry>()
        .is_some_and(|r| std::sync::Arc::ptr_eq(&r.internal, &registry.internal));
    if !shared {
        if let Some(own) = world.get_resource::<AppTypeRegistry>() {
            let own = own.read();
            let mut app = registry.write();
            for reg in own.iter() {
                if app.get(reg.type_id()).is_none() {
                    app.add_registration(reg.clone());
                }
            }
        }
        world.insert_resource(registry.clone());
    }
    let mut open = true;
    // Its id does not follow its title: a change of language keeps it where it is.
    egui::Window::new(tr.t("inspector-title"))
        .id(egui::Id::new("world_inspector"))
        .open(&mut open)
        .default_size(egui::vec2(380.0, 460.0))
        .default_pos(egui::pos2(260.0, 90.0))
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(tr.t("inspector-read-only")).small());
            // The creature the card shows (or whose turn it is) first, opened: its components,
            // a mod's own among them; then the whole world.
            let who =
                hud_ui.focus.or_else(|| world.get_resource::<crate::rules::state::TurnState>().and_then(|t| t.active));
            let entity =
                who.and_then(|c| world.resource::<crate::rules::state::Roster>().entities.get(c.0 as usize).copied());
            egui::ScrollArea::both().show(ui, |ui| {
                if let (Some(c), Some(e)) = (who, entity) {
                    let name = world.get::<CombatantName>(e).map(|n| n.0.clone()).unwrap_or_else(|| format!("{c:?}"));
                    ui.label(egui::RichText::new(crate::tr!(tr, "inspector-card-creature", name = name)).strong());
                    let from_mods = mod_components(world, &registry, e);
                    if !from_mods.is_empty() {
                        ui.label(
                            egui::RichText::new(tr.t("inspector-mod-components"))
                                .color(egui::Color32::from_rgb(255, 214, 90)),
                        );
                        for line in from_mods {
                            ui.monospace(line);
                        }
                    }
                    ui.add_enabled_ui(false, |ui| bevy_inspector_egui::bevy_inspector::ui_for_entity(world, e, ui));
                    ui.separator();
                }
                egui::CollapsingHeader::new(tr.t("inspector-whole-world"))
                    .id_salt("inspector_whole_world")
                    .default_open(false)
                    .show(ui, |ui| {
                        ui.add_enabled_ui(false, |ui| bevy_inspector_egui::bevy_inspector::ui_for_world(world, ui));
                    });
            });
        });
    hud_ui.inspector = open;
    Ok(())
}

/// The components on `e` that come from outside the rules core (a mod's), each as
/// `Name: value` through reflection, for the top of the inspector.
pub(crate) fn mod_components(world: &World, registry: &AppTypeRegistry, e: Entity) -> Vec<String> {
    let reg = registry.read();
    let Ok(infos) = world.inspect_entity(e) else { return Vec::new() };
    let mut out = Vec::new();
    for info in infos {
        let Some(tid) = info.type_id() else { continue };
        let Some(r) = reg.get(tid) else { continue };
        let path = r.type_info().type_path_table().path();
        if path.starts_with("skirmish::rules::") || path.starts_with("bevy") {
            continue;
        }
        let Some(rc) = r.data::<ReflectComponent>() else { continue };
        let Ok(entity) = world.get_entity(e) else { continue };
        if let Some(v) = rc.reflect(entity) {
            let short = r.type_info().type_path_table().short_path();
            let value = format!("{v:?}");
            out.push(format!("{short}: {}", value.replace(path, short)));
        }
    }
    out
}
