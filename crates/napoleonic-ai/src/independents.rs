//! The independents' own behaviour (digest 1.1, decision G36): the Local forces build troops
//! in their cities with their revenue, keep their garrisons, and attack only provinces
//! annexed to them that someone else holds. They never give an order about diplomacy, never
//! set foot in any other land, and never pillage.
//!
//! Each turn, in this order:
//!
//! 1. **Retaking.** Every province annexed to the independents and held by a kingdom, and
//!    every one of their own where a kingdom's forces stand uninvited, is a target, the
//!    richest first. The independents gather what they can spare next to it:
//!    their armies standing in their own land, and the troops of neighbouring garrisons
//!    beyond what those garrisons keep. When that reaches half again the defenders'
//!    strength (and at least the 10 a conquest needs, M13), each garrison forms an army
//!    (F6), hands it the troops (F9), and every force marches in at phase 1. Otherwise the
//!    best neighbouring city is asked to raise the difference.
//! 2. **Armies home.** An army of theirs in their own land that is not needed joins the
//!    garrison there (F9); one stranded in other land steps back into theirs if it can.
//! 3. **Recruiting.** Every garrison with a city raises troops (L4) up to what it keeps,
//!    plus any strike force asked of it, within the city's limit and the treasury. A
//!    garrison keeps the strength the map gave the province at the start, or more while
//!    kingdoms' armies stand in it or next to it.
//!
//! The independents pay no upkeep (L3), so only the treasury and the cities' limits bound
//! them; they earn revenue like anyone from the provinces they own and are annexed to
//! (L11), and their treasury decays like anyone's (L9).

use crate::choose::{Use, best_type, count_strength};
use crate::sheet::{Counts, Sheet};
use crate::view::{Picture, View, strength};
use napoleonic_rules::fixed::Gold;
use napoleonic_rules::ids::{KingdomCode, LocId, UnitId, UnitKind};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::KingdomOrders;
use napoleonic_rules::state::GameState;
use std::collections::{BTreeMap, BTreeSet};

/// The strength a province's garrison keeps when nobody threatens it: the troops the map
/// gives it when it starts independent, or, if the map gives none, three of the cheapest
/// soldiers.
pub(crate) fn base_strength(map: &Map, state: &GameState, at: LocId) -> u32 {
    let tables = &state.tables;
    let listed: u32 = map.get(at).map_or(0, |l| {
        l.garrison
            .iter()
            .filter_map(|(c, n)| tables.troop(c).map(|t| t.total_combat().saturating_mul(*n)))
            .fold(0u32, u32::saturating_add)
    });
    if listed > 0 {
        return listed;
    }
    tables
        .troops
        .values()
        .filter(|t| t.is_soldier())
        .min_by_key(|t| (t.cost, t.code.clone()))
        .map_or(0, |t| 3 * t.total_combat())
}

/// Whether a kingdom's land forces stand in a province without the independents' leave:
/// special permission into their land spares a kingdom (G35); everyone else is an intruder.
fn intruded(state: &GameState, at: LocId) -> bool {
    let Some(p) = state.provinces.get(&at) else {
        return false;
    };
    state.units.iter().any(|u| {
        u.location == at
            && !u.owner.is_independent()
            && u.kind() != UnitKind::Fleet
            && u.aboard.is_none()
            && (!u.troops.is_empty() || !u.leaders.is_empty())
            && !p.permissions.contains(&u.owner)
    })
}

/// A force that can strike a target: an army already out, or troops a garrison can spare.
enum Source {
    Army(UnitId, u32),
    Garrison(UnitId, Counts, u32),
}

impl Source {
    fn strength(&self) -> u32 {
        match self {
            Source::Army(_, s) | Source::Garrison(_, _, s) => *s,
        }
    }
}

/// The independents' orders for the turn (G36); no orders once they are gone.
pub(crate) fn draft(map: &Map, state: &GameState, pic: &Picture) -> KingdomOrders {
    let ind = KingdomCode::independents();
    if !state.kingdoms.get(&ind).is_some_and(|k| k.alive) {
        return KingdomOrders::default();
    }
    let view = View::new(map, state, pic, &ind);
    let tables = &state.tables;
    let mut sheet = Sheet::new(state, &ind);
    let own = |at: LocId| view.owner(at) == Some(&ind);

    // What each garrison in their own land keeps: the map's strength, or the threat.
    let garrisons: Vec<(UnitId, LocId)> = state
        .units
        .iter()
        .filter(|u| u.owner == ind && u.kind() == UnitKind::Garrison && own(u.location))
        .map(|u| (u.id, u.location))
        .collect();
    let keep: BTreeMap<UnitId, u32> = garrisons
        .iter()
        .map(|(g, at)| (*g, base_strength(map, state, *at).max(view.threat(*at))))
        .collect();

    // 1. Retaking (G36): provinces annexed to them that a kingdom holds, and their own
    //    where intruders stand (1.1: they attack every intruder), the richest first. No
    //    other province is ever a target.
    let targets: Vec<LocId> = state
        .provinces
        .iter()
        .filter(|(id, p)| p.annexed_to == ind && (p.owner != ind || intruded(state, **id)))
        .map(|(id, _)| *id)
        .collect();
    let Retaking {
        busy,
        asked,
        targets,
    } = retake(&view, &mut sheet, targets, &garrisons, &keep);

    // 2. Armies home: into the garrison where they stand, or back into their own land.
    for u in state.units.iter().filter(|u| {
        u.owner == ind && u.kind() == UnitKind::Army && u.aboard.is_none() && !busy.contains(&u.id)
    }) {
        if own(u.location) {
            let g = UnitId::garrison(u.location);
            if state.unit(&ind, g).is_some() {
                let all = sheet.left(u.id);
                sheet.transfer(u.id, g, &all);
            }
        } else if !targets.contains(&u.location)
            && let Some(home) = view
                .land_neighbours(u.location)
                .into_iter()
                .find(|n| own(*n))
        {
            sheet.march(u.id, &[home]);
        }
    }

    // 3. Recruiting, the neediest city first.
    let mut cash = state.kingdoms[&ind].treasury;
    let mut wants: Vec<(u32, UnitId, LocId)> = garrisons
        .iter()
        .filter_map(|(g, at)| {
            let have = count_strength(tables, &sheet.left(*g));
            let want = keep[g].saturating_add(asked.get(g).copied().unwrap_or(0));
            (want > have).then(|| (want - have, *g, *at))
        })
        .collect();
    wants.sort_by_key(|(d, g, _)| (std::cmp::Reverse(*d), *g));
    for (deficit, g, at) in wants {
        let Some(city) = map.get(at).and_then(|l| l.city.as_ref()) else {
            continue;
        };
        let mut missing = deficit;
        while missing > 0 && sheet.recruited(g) < city.max_builds {
            let Some(t) = best_type(tables, &city.builds, Use::Garrison, 0, |t| t.cost <= cash)
            else {
                break;
            };
            let per = t.total_combat().max(1);
            let n = missing
                .div_ceil(per)
                .min(city.max_builds - sheet.recruited(g))
                .min(u32::try_from(cash.0 / t.cost.0.max(1)).unwrap_or(u32::MAX));
            if n == 0 {
                break;
            }
            cash -= t.cost * i64::from(n);
            sheet.recruit(g, &t.code, n);
            missing = missing.saturating_sub(n.saturating_mul(per));
        }
    }
    sheet.finish()
}

/// What a retaking leaves: the armies it sent or kept fighting, what it asked each city to
/// raise for next time, and the targets in the order they were taken.
pub(crate) struct Retaking {
    pub busy: BTreeSet<UnitId>,
    pub asked: BTreeMap<UnitId, u32>,
    pub targets: Vec<LocId>,
}

/// Retaking provinces annexed to the viewer (G36 for the independents, Ch8 for a kingdom the
/// computer keeps): the richest target first, the viewer gathers what it can spare next to
/// it, its armies standing in its own land and the troops of neighbouring garrisons beyond
/// what each keeps (`keep`). When that reaches half again the defenders' strength, and at
/// least the 10 a conquest needs (M13), each garrison forms an army (F6), hands it the
/// troops (F9), and every force marches in at phase 1. Otherwise the best neighbouring city
/// is asked to raise the difference. Armies already standing in a target stay to fight.
pub(crate) fn retake(
    view: &View,
    sheet: &mut Sheet,
    mut targets: Vec<LocId>,
    garrisons: &[(UnitId, LocId)],
    keep: &BTreeMap<UnitId, u32>,
) -> Retaking {
    let (map, state, me) = (view.map, view.state, &view.me);
    let tables = &state.tables;
    let own = |at: LocId| view.owner(at) == Some(me);
    targets.sort_by_key(|t| {
        (
            std::cmp::Reverse(map.get(*t).map_or(Gold::ZERO, |l| l.revenue)),
            *t,
        )
    });
    let mut busy: BTreeSet<UnitId> = BTreeSet::new();
    // Armies already in a target province are fighting for it: they stay.
    for u in state.units.iter().filter(|u| {
        &u.owner == me && u.kind() == UnitKind::Army && u.aboard.is_none() && !own(u.location)
    }) {
        if targets.contains(&u.location) {
            busy.insert(u.id);
        }
    }
    let mut asked: BTreeMap<UnitId, u32> = BTreeMap::new();
    for &t in &targets {
        let already = state
            .units
            .iter()
            .any(|u| &u.owner == me && u.location == t && busy.contains(&u.id));
        if already {
            continue;
        }
        let need = (view.defence(t).saturating_mul(3) / 2 + 1).max(state.settings.conquest_combat);
        let next_to: BTreeSet<LocId> = view
            .land_neighbours(t)
            .into_iter()
            .filter(|n| own(*n))
            .collect();
        let mut sources: Vec<Source> = Vec::new();
        for u in state.units.iter().filter(|u| {
            &u.owner == me
                && u.kind() == UnitKind::Army
                && u.aboard.is_none()
                && next_to.contains(&u.location)
                && !busy.contains(&u.id)
                && !u.troops.is_empty()
        }) {
            sources.push(Source::Army(u.id, strength(u, tables)));
        }
        for (g, at) in garrisons {
            if !next_to.contains(at) {
                continue;
            }
            let (spare, s) = spare(state, sheet, *g, keep[g], need);
            if s > 0 {
                sources.push(Source::Garrison(*g, spare, s));
            }
        }
        sources.sort_by_key(|s| {
            let id = match s {
                Source::Army(id, _) | Source::Garrison(id, _, _) => *id,
            };
            (std::cmp::Reverse(s.strength()), id)
        });
        let mut gathered = 0;
        let mut chosen = Vec::new();
        for s in sources {
            if gathered >= need {
                break;
            }
            gathered = gathered.saturating_add(s.strength());
            chosen.push(s);
        }
        if gathered < need {
            // Too weak yet: the best city next to it raises the difference.
            let city = garrisons
                .iter()
                .filter(|(_, at)| next_to.contains(at))
                .filter_map(|(g, at)| {
                    map.get(*at)
                        .and_then(|l| l.city.as_ref())
                        .map(|c| (c.max_builds, *g))
                })
                .max_by_key(|(builds, g)| (*builds, std::cmp::Reverse(*g)));
            if let Some((_, g)) = city {
                let a = asked.entry(g).or_default();
                *a = a.saturating_add(need - gathered);
            }
            continue;
        }
        for s in chosen {
            match s {
                Source::Army(id, _) => {
                    busy.insert(id);
                    sheet.march(id, &[t]);
                }
                Source::Garrison(g, troops, _) => {
                    let Some(army) = sheet.form_army(g) else {
                        continue; // 99 armies already
                    };
                    busy.insert(army);
                    sheet.transfer(g, army, &troops);
                    // The march goes only into a province annexed to the viewer.
                    sheet.march(army, &[t]);
                }
            }
        }
    }
    Retaking {
        busy,
        asked,
        targets,
    }
}

/// What a garrison can send out and still keep `keep`: its best troops first until `need`
/// is met, never its last ones below the keep. Answers the troops and their strength.
fn spare(state: &GameState, sheet: &Sheet, g: UnitId, keep: u32, need: u32) -> (Counts, u32) {
    let tables = &state.tables;
    let held = sheet.left(g);
    let mut total = count_strength(tables, &held);
    let mut by_strength: Vec<(u32, &napoleonic_rules::TroopCode, u32)> = held
        .iter()
        .filter_map(|(c, n)| {
            tables
                .troop(c)
                .filter(|t| t.is_soldier())
                .map(|t| (t.total_combat(), c, *n))
        })
        .collect();
    by_strength.sort_by_key(|(s, c, _)| (std::cmp::Reverse(*s), (*c).clone()));
    let mut out = Counts::new();
    let mut sent = 0;
    for (s, c, n) in by_strength {
        for _ in 0..n {
            if sent >= need || total < keep.saturating_add(s) || s == 0 {
                break;
            }
            total -= s;
            sent += s;
            *out.entry(c.clone()).or_default() += 1;
        }
    }
    (out, sent)
}
