//! The computer player of a kingdom, in one of two styles.
//!
//! - **Caretaker**, the GM's stand-in for a ruler who missed a turn (digest 1.1, 6): it
//!   changes no relation, raises troops it can keep, annexes what it may, retakes provinces
//!   annexed to it from those at war with it (Ch8), calls its armies home and sends them
//!   where its provinces are threatened, and keeps a surplus. When the
//!   treasury cannot pay the upkeep it disbands troops rather than let them go unpaid (L3).
//! - **Conqueror**, for simulations and kingdoms nobody plays: the same economy, spending
//!   its savings on troops as well, and it also joins coalitions with neighbours that share
//!   its enemies (`coalition`), declares war on a neighbour its coalition outweighs, gathers
//!   its forces against enemy and independent provinces they can take together, forms new
//!   armies from what its garrisons can spare, and pillages conquests it cannot annex.
//!
//! Both write only orders the order checker accepts (`napoleonic_orders::check`), and both
//! are deterministic: the same state gives the same orders. Ties are broken by a generator
//! of the player's own, seeded from the game's seed, the turn and the kingdom, so the
//! game's own stream of rolls is never touched (or foreseen).

use crate::choose::{Use, best_type, count_strength};
use crate::purse::Purse;
use crate::sheet::{Counts, Sheet};
use crate::view::{Picture, View, strength};
use crate::{Style, ai_rng};
use empires_dice::GameRng;
use napoleonic_rules::fixed::Gold;
use napoleonic_rules::ids::{KingdomCode, LocId, UnitId, UnitKind};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::{HqOrder, KingdomOrders};
use napoleonic_rules::state::{GameState, Relation, Unit};
use napoleonic_rules::tables::{Tables, TroopClass};
use napoleonic_rules::turn::economy;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// A kingdom's orders, before the safety check of `computer_orders`.
pub(crate) fn draft(
    map: &Map,
    state: &GameState,
    pic: &Picture,
    me: &KingdomCode,
    style: Style,
) -> KingdomOrders {
    if me.is_independent() {
        return crate::independents::draft(map, state, pic);
    }
    if !state
        .kingdoms
        .get(me)
        .is_some_and(|k| k.alive && !k.independent)
    {
        return KingdomOrders::default();
    }
    let mut rng = ai_rng(state, me);
    let mut view = View::new(map, state, pic, me);
    let mut sheet = Sheet::new(state, me);
    if style == Style::Conqueror {
        diplomacy(&mut view, pic, &mut sheet, &mut rng);
    }
    // The caretaker keeps a tenth of its upkeep spare on top of the 2 gold (5.4).
    let reserve = match style {
        Style::Caretaker => 10,
        Style::Conqueror => 0,
    };
    let mut purse = Purse::new(map, state, me, reserve);
    disband(&view, &mut sheet, &mut purse);
    let room = annex(&view, &mut sheet, &mut purse);
    if style == Style::Conqueror {
        // Gold kept idle only decays (L9): the conqueror turns its savings into troops.
        purse.spend_savings(SAVINGS_TURNS);
    }
    match style {
        Style::Caretaker => {
            let busy = retake_own(&view, &mut sheet);
            defend(&view, &mut sheet, &busy);
            crate::sea::seek_battle(&view, &mut sheet, &BTreeSet::new(), true);
        }
        Style::Conqueror => {
            let busy = crate::sea::invade(&view, &mut sheet);
            conquer(&view, &mut sheet, room, &busy);
            crate::sea::seek_battle(&view, &mut sheet, &busy, false);
        }
    }
    crate::leaders::lead(&view, &mut sheet, &mut purse);
    recruit(&view, &mut sheet, &mut purse, style);
    sheet.finish()
}

/// How many turns of a shortfall a conqueror's savings must pay before it raises troops
/// its income cannot keep.
const SAVINGS_TURNS: i64 = 10;

/// The move points a unit has when the turn begins: the fewest of its troops' types (3.3);
/// leaders alone move 4.
fn start_mp(u: &Unit, tables: &Tables) -> u8 {
    u.troops
        .iter()
        .map(|t| tables.troop(&t.code).map_or(0, |x| x.mp))
        .min()
        .unwrap_or(4)
}

fn my_armies<'s>(view: &View<'s>) -> Vec<&'s Unit> {
    view.state
        .units
        .iter()
        .filter(|u| {
            u.owner == view.me
                && u.kind() == UnitKind::Army
                && u.aboard.is_none()
                && (!u.troops.is_empty() || !u.leaders.is_empty())
        })
        .collect()
}

/// Garrisons of ours in provinces we hold (a garrison always stands in its province).
fn my_garrisons<'s>(view: &View<'s>) -> Vec<&'s Unit> {
    view.state
        .units
        .iter()
        .filter(|u| {
            u.owner == view.me
                && u.kind() == UnitKind::Garrison
                && view.owner(u.location) == Some(&view.me)
        })
        .collect()
}

/// The conqueror's diplomacy (F1, F3, L15, L17).
///
/// - **Alliances**: it offers an alliance to every member of the bloc its own joins this
///   turn (`coalition::plan`), and grants passage (F3) to every ally that lacks it, so
///   allied armies march through each other's land.
/// - **Peace** is offered to every enemy it no longer touches.
/// - **War**: while it fights no enemy it touches, it declares war on a neighbour outside
///   its coalition whose bloc is weaker than its own, allies counted on both sides. A
///   neighbour already at war with one of its allies comes first, then the weakest; ties
///   by its own lot. One war at a time; never on an ally, nor on a kingdom its bloc joins
///   this turn, nor on the independents (their relations never change, 1.1).
fn diplomacy(view: &mut View, pic: &Picture, sheet: &mut Sheet, rng: &mut GameRng) {
    let state = view.state;
    let me = view.me.clone();
    let plan = pic.blocs(view.map, state).seen_by(&me);
    for k in plan.offers(state, &me) {
        // L17: it takes both; the other side works out the same plan and offers too.
        sheet.hq.push(HqOrder::OfferAlliance { to: k });
    }
    if let Some(mine) = state.kingdoms.get(&me) {
        for k in &plan.bloc {
            if k != &me && state.relation(&me, k) == Relation::Ally && !mine.passage_to.contains(k)
            {
                sheet.hq.push(HqOrder::GrantPassage { to: k.clone() });
            }
        }
    }
    let others: Vec<KingdomCode> = state
        .kingdoms
        .values()
        .filter(|k| k.alive && !k.independent && k.code != me)
        .map(|k| k.code.clone())
        .collect();
    let mut fighting = false;
    for k in &others {
        if state.relation(&me, k) != Relation::War {
            continue;
        }
        if view.in_contact(k) {
            fighting = true;
        } else {
            // L15: it takes both; a conqueror on the other side offers too.
            sheet.hq.push(HqOrder::OfferPeace { to: k.clone() });
        }
    }
    if fighting {
        return;
    }
    let bloc_strength = |b: &BTreeSet<KingdomCode>| {
        b.iter()
            .map(|k| view.kingdom_strength(k))
            .fold(0u32, u32::saturating_add)
    };
    let mine = bloc_strength(&plan.bloc);
    let weaker: Vec<(bool, u32, KingdomCode)> = view
        .neighbours()
        .into_iter()
        .filter(|k| {
            others.contains(k) && !plan.friend(k) && state.relation(&me, k) == Relation::Neutral
        })
        .map(|k| {
            let allies_fight = plan
                .bloc
                .iter()
                .any(|a| state.relation(a, &k) == Relation::War);
            (!allies_fight, bloc_strength(&plan.bloc_of(&k)), k)
        })
        .filter(|(_, s, _)| *s < mine)
        .collect();
    let Some(least) = weaker.iter().map(|(f, s, _)| (*f, *s)).min() else {
        return;
    };
    let ties: Vec<&KingdomCode> = weaker
        .iter()
        .filter(|(f, s, _)| (*f, *s) == least)
        .map(|(_, _, k)| k)
        .collect();
    let pick = ties[rng.index(ties.len())].clone();
    // F1: war declared before movement, so the invasion can start this turn (2.9).
    sheet.hq.insert(0, HqOrder::DeclareWar { to: pick.clone() });
    view.declare(pick);
}

/// No shortfall (5.4, L3): when the treasury cannot pay the upkeep this turn or the next,
/// troops are let go until it can, least useful first: ships (the computer never sails),
/// then siege machines, then the soldiers giving least fighting for their upkeep. Ships and
/// siege machines in a province are salvaged for a third of their cost (F11, T61).
fn disband(view: &View, sheet: &mut Sheet, purse: &mut Purse) {
    if !purse.short() {
        return;
    }
    let tables = &view.state.tables;
    let mut candidates: Vec<(u8, i128, i128, UnitId, napoleonic_rules::TroopCode, bool)> =
        Vec::new();
    for u in view.state.units.iter().filter(|u| u.owner == view.me) {
        let ashore = view.map.get(u.location).is_some_and(|l| !l.is_sea());
        for (code, _) in sheet.left(u.id) {
            let Some(t) = tables.troop(&code) else {
                continue;
            };
            if t.upkeep <= Gold::ZERO {
                continue;
            }
            let rank = match t.class {
                TroopClass::Ship => 0,
                TroopClass::Artillery => 1,
                _ => 2,
            };
            let worth = i128::from(t.total_combat()) * i128::from(t.hp.0);
            let salvage = ashore && t.salvage() > Gold::ZERO;
            candidates.push((rank, worth, i128::from(t.upkeep.0), u.id, code, salvage));
        }
    }
    // Worth per upkeep, lowest first: a × d < c × b compares a/b with c/d exactly.
    candidates.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then((a.1 * b.2).cmp(&(b.1 * a.2)))
            .then(a.3.cmp(&b.3))
            .then(a.4.cmp(&b.4))
    });
    // Digest 6, T78: a ruler who owns no province and lets every troop go is dethroned (the
    // palace coup), so a kingdom without land always keeps its last troop; L3 and L19 take
    // their course with it.
    let landless = view.state.owned_by(&view.me).next().is_none();
    let mut troops: usize = view
        .state
        .units
        .iter()
        .filter(|u| u.owner == view.me)
        .map(|u| {
            sheet
                .left(u.id)
                .values()
                .map(|n| *n as usize)
                .sum::<usize>()
        })
        .sum();
    for (_, _, _, unit, code, salvage) in candidates {
        let upkeep = tables.troop(&code).map_or(Gold::ZERO, |t| t.upkeep);
        while purse.short()
            && sheet.left(unit).get(&code).is_some_and(|n| *n > 0)
            && (!landless || troops > 1)
        {
            troops -= 1;
            // T60: a troop let go at F11 pays no upkeep at L3.
            sheet.remove(unit, &code, 1, salvage);
            purse.relieve(upkeep);
        }
        if !purse.short() {
            return;
        }
    }
}

/// Annexing (L6, G26): provinces held now and when the season began, not yet annexed to
/// us, the richest first, within the status limit (2.10; starting provinces do not count)
/// and the purse. Answers the room left under the limit.
///
/// "When the season began" is read as the state's `owner_at_start`, which between turns
/// still names the owner at the start of the last turn: a province taken last turn waits
/// one turn more, as the order checker asks.
fn annex(view: &View, sheet: &mut Sheet, purse: &mut Purse) -> u32 {
    let state = view.state;
    let me = &view.me;
    let kingdom = &state.kingdoms[me];
    let beyond_start = state
        .provinces
        .iter()
        .filter(|(id, p)| &p.annexed_to == me && !kingdom.starting.contains(id))
        .count() as u32;
    let limit = economy::annex_limit(state, me);
    let mut room = limit.saturating_sub(beyond_start.max(economy::annex_count(state, me)));
    let mut candidates: Vec<(Gold, LocId)> = state
        .provinces
        .iter()
        .filter(|(_, p)| &p.owner == me && &p.owner_at_start == me && &p.annexed_to != me)
        .filter_map(|(id, _)| view.map.get(*id).map(|l| (l.revenue, *id)))
        .collect();
    candidates.sort_by_key(|(g, id)| (Reverse(*g), *id));
    for (cost, p) in candidates {
        let starting = kingdom.starting.contains(&p);
        if !starting && room == 0 {
            continue;
        }
        if !purse.can(cost, Gold::ZERO) {
            continue;
        }
        purse.pay(cost, Gold::ZERO);
        sheet.hq.push(HqOrder::Annex { province: p });
        if !starting {
            room -= 1;
        }
    }
    room
}

/// The caretaker's armies: one standing outside our lands comes home by the shortest way
/// through land it may pass; one at home stays where it is threatened, or else goes to a
/// province of ours within this turn's reach whose threat its defenders do not match.
fn defend(view: &View, sheet: &mut Sheet, busy: &BTreeSet<UnitId>) {
    let tables = &view.state.tables;
    let mut guarded: BTreeSet<LocId> = BTreeSet::new();
    for u in my_armies(view)
        .into_iter()
        .filter(|u| !busy.contains(&u.id))
    {
        let at = u.location;
        let mp = usize::from(start_mp(u, tables));
        if view.owner(at) != Some(&view.me) {
            if let Some(path) = view.way_to(at, |n| view.owner(n) == Some(&view.me)) {
                sheet.march(u.id, &path[..path.len().min(mp)]);
            }
            continue;
        }
        if view.threat(at) > 0 {
            continue;
        }
        let best = view
            .routes(at, start_mp(u, tables))
            .into_iter()
            .filter(|(n, _)| *n != at && view.owner(*n) == Some(&view.me) && !guarded.contains(n))
            .filter_map(|(n, path)| {
                let gap = view.threat(n).saturating_sub(view.own_strength(n));
                (gap > 0).then_some((gap, Reverse(n), path))
            })
            .max_by_key(|(gap, n, _)| (*gap, *n));
        if let Some((_, Reverse(n), path)) = best {
            guarded.insert(n);
            sheet.march(u.id, &path);
        }
    }
}

/// Ch8: a kingdom the computer keeps "will only attack provinces that are annexed to it":
/// it retakes its own annexed provinces held by a kingdom it is at war with (or by the
/// independents), gathering its armies and what its neighbouring garrisons can spare, as
/// the independents retake theirs (G36). It starts no war to do so. Answers the armies sent.
fn retake_own(view: &View, sheet: &mut Sheet) -> BTreeSet<UnitId> {
    let (map, state) = (view.map, view.state);
    let targets: Vec<LocId> = state
        .provinces
        .iter()
        .filter(|(_, p)| p.annexed_to == view.me && p.owner != view.me && view.hostile(&p.owner))
        .map(|(id, _)| *id)
        .collect();
    if targets.is_empty() {
        return BTreeSet::new();
    }
    let garrisons: Vec<(UnitId, LocId)> = my_garrisons(view)
        .into_iter()
        .map(|g| (g.id, g.location))
        .collect();
    // A garrison keeps what its province's threat asks, and never less than a province's
    // usual guard.
    let keep: BTreeMap<UnitId, u32> = garrisons
        .iter()
        .map(|(g, at)| {
            let guard = crate::independents::base_strength(map, state, *at);
            (*g, guard.max(view.threat(*at)))
        })
        .collect();
    crate::independents::retake(view, sheet, targets, &garrisons, &keep).busy
}

/// How a conqueror ranks a target: empty of defenders first, then the weakest defence,
/// then the richest, then the lowest number.
type TargetRank = (bool, Reverse<u32>, Gold, Reverse<LocId>);

/// A force the conqueror can send: an army, or troops a garrison can spare.
struct Force {
    army: Option<UnitId>,
    garrison: Option<(UnitId, Counts)>,
    at: LocId,
    strength: u32,
    mp: u8,
}

/// The conqueror's campaign.
///
/// - An army standing in enemy land stays to fight for it while it is at least a match for
///   the defence there; outweighed, it is free to go elsewhere.
/// - Every garrison keeps its best defender, and more while its province is threatened;
///   the rest of its soldiers may march as a new army (F6, F9).
/// - Forces are **concentrated**: a target is a province held by an enemy or by the
///   independents, entered for 2 move points after marches through land we may pass (3.3).
///   Every force that can reach it this turn counts, and a target is attacked when
///   together they outweigh its defence (strength with its walls) by half again, with at
///   least the 10 a conquest needs (M13). Empty provinces come first, then the weakest,
///   then the richest. The strongest forces go first, and only as many as it takes.
/// - A force with nothing to do marches toward the nearest province bordering one the
///   kingdom's whole field force could take, so that forces gather at the front.
/// - Two armies ending up idle in the same place merge (F9), the smaller into the larger.
/// - An army with nothing to do pillages the province it stands in if it is ours, not
///   annexed to us, and the status limit leaves no room to annex it (5.5).
fn conquer(view: &View, sheet: &mut Sheet, annex_room: u32, at_sea: &BTreeSet<UnitId>) {
    let state = view.state;
    let tables = &state.tables;
    let conquest = state.settings.conquest_combat;
    let mut claimed: BTreeSet<LocId> = BTreeSet::new();
    let mut forces: Vec<Force> = Vec::new();
    // Armies going by sea (`sea::invade`) are not the land campaign's.
    for u in my_armies(view)
        .into_iter()
        .filter(|u| !at_sea.contains(&u.id))
    {
        let s = strength(u, tables);
        if view.enemy_land(u.location) && s >= view.defence(u.location) {
            claimed.insert(u.location);
            continue;
        }
        forces.push(Force {
            army: Some(u.id),
            garrison: None,
            at: u.location,
            strength: s,
            mp: start_mp(u, tables),
        });
    }
    for g in my_garrisons(view) {
        let (spare, s) = garrison_spare(view, sheet, g);
        if s < conquest {
            continue;
        }
        let mp = spare
            .keys()
            .filter_map(|c| tables.troop(c).map(|t| t.mp))
            .min()
            .unwrap_or(0);
        forces.push(Force {
            army: None,
            garrison: Some((g.id, spare)),
            at: g.location,
            strength: s,
            mp,
        });
    }
    forces.sort_by_key(|f| (Reverse(f.strength), f.at, f.army));
    let need = |t: LocId| (view.defence(t).saturating_mul(3) / 2 + 1).max(conquest);
    // Every target each force can reach this turn, with the way there.
    let mut reach: BTreeMap<LocId, Vec<(usize, Vec<LocId>)>> = BTreeMap::new();
    for (i, f) in forces.iter().enumerate() {
        let mut mine: BTreeMap<LocId, Vec<LocId>> = BTreeMap::new();
        for (n, path) in view.routes(f.at, f.mp) {
            if path.len() + 2 > usize::from(f.mp) {
                continue; // 3.3: invading costs 2
            }
            for t in view.land_neighbours(n) {
                if !view.enemy_land(t) || claimed.contains(&t) {
                    continue;
                }
                if mine.get(&t).is_none_or(|p| p.len() > path.len() + 1) {
                    let mut p = path.clone();
                    p.push(t);
                    mine.insert(t, p);
                }
            }
        }
        for (t, p) in mine {
            reach.entry(t).or_default().push((i, p));
        }
    }
    let mut paths: Vec<Option<Vec<LocId>>> = vec![None; forces.len()];
    loop {
        let mut best: Option<(TargetRank, LocId, Vec<usize>)> = None;
        for (t, who) in &reach {
            if claimed.contains(t) {
                continue;
            }
            let needed = need(*t);
            let mut sum: u32 = 0;
            let mut team = Vec::new();
            // Forces are in strength order, strongest first.
            for (i, _) in who.iter().filter(|(i, _)| paths[*i].is_none()) {
                if sum >= needed {
                    break;
                }
                sum = sum.saturating_add(forces[*i].strength);
                team.push(*i);
            }
            if sum < needed {
                continue;
            }
            let revenue = view.map.get(*t).map_or(Gold::ZERO, |l| l.revenue);
            let key = (view.defence(*t) == 0, Reverse(needed), revenue, Reverse(*t));
            if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, *t, team));
            }
        }
        let Some((_, t, team)) = best else { break };
        claimed.insert(t);
        for i in team {
            let p = reach[&t]
                .iter()
                .find(|(j, _)| *j == i)
                .map(|(_, p)| p.clone());
            paths[i] = p;
        }
    }
    let field: u32 = forces
        .iter()
        .map(|f| f.strength)
        .fold(0u32, u32::saturating_add);
    // Provinces next to one the whole field force could take, not taken on this turn.
    let front: BTreeSet<LocId> = state
        .provinces
        .keys()
        .copied()
        .filter(|n| {
            view.land_neighbours(*n)
                .into_iter()
                .any(|t| view.enemy_land(t) && !claimed.contains(&t) && field >= need(t))
        })
        .collect();
    let mut pillaged: BTreeSet<LocId> = BTreeSet::new();
    // Idle armies by where they stand: merged into the strongest there.
    let mut idle: BTreeMap<LocId, Vec<UnitId>> = BTreeMap::new();
    for (i, f) in forces.iter().enumerate() {
        let path = match paths[i].take() {
            Some(p) => p,
            None => {
                let toward = view.way_to(f.at, |n| front.contains(&n));
                match toward {
                    Some(p) => p[..p.len().min(usize::from(f.mp))].to_vec(),
                    None => Vec::new(),
                }
            }
        };
        if path.is_empty() {
            if let Some(id) = f.army {
                idle.entry(f.at).or_default().push(id);
                let p = state.provinces.get(&f.at);
                let starting = state.kingdoms[&view.me].starting.contains(&f.at);
                let wasted = p.is_some_and(|p| p.owner == view.me && p.annexed_to != view.me)
                    && (annex_room == 0 && !starting);
                if wasted && f.strength >= state.settings.pillage_combat && pillaged.insert(f.at) {
                    // M14, G9: the province's revenue, straight into the treasury.
                    sheet.pillage(id, 1);
                }
            }
            continue;
        }
        match (f.army, &f.garrison) {
            (Some(id), _) => sheet.march(id, &path),
            (None, Some((g, troops))) => {
                if let Some(army) = sheet.form_army(*g) {
                    sheet.transfer(*g, army, troops);
                    sheet.march(army, &path);
                }
            }
            (None, None) => {}
        }
    }
    // F9: idle armies in one place become one, the first (strongest) keeping the rest.
    for ids in idle.values() {
        if let Some((&keep, rest)) = ids.split_first() {
            for &other in rest {
                let troops = sheet.left(other);
                sheet.transfer(other, keep, &troops);
            }
        }
    }
}

/// What a conqueror's garrison can send out: every soldier but its best defender, and but
/// those it needs to match the threat to its province. Foot soldiers defend best (2.6), the
/// sturdiest first.
fn garrison_spare(view: &View, sheet: &Sheet, g: &Unit) -> (Counts, u32) {
    let tables = &view.state.tables;
    let threat = view.threat(g.location);
    let mut soldiers: Vec<&napoleonic_rules::tables::TroopType> = Vec::new();
    for (c, n) in sheet.left(g.id) {
        if let Some(t) = tables.troop(&c).filter(|t| t.is_soldier()) {
            soldiers.extend(std::iter::repeat_n(t, n as usize));
        }
    }
    soldiers.sort_by(|a, b| {
        (b.class == TroopClass::Foot)
            .cmp(&(a.class == TroopClass::Foot))
            .then(b.hp.cmp(&a.hp))
            .then(b.total_combat().cmp(&a.total_combat()))
            .then(a.code.cmp(&b.code))
    });
    let mut kept = 0;
    let mut spare = Counts::new();
    for (i, t) in soldiers.into_iter().enumerate() {
        if i == 0 || kept < threat {
            kept = kept.saturating_add(t.total_combat());
        } else {
            *spare.entry(t.code.clone()).or_default() += 1;
        }
    }
    let s = count_strength(tables, &spare);
    (spare, s)
}

/// Recruiting (L4) within the purse: the most threatened cities first, then the capital,
/// then the richest; one troop at a time round the cities, each within its limit. The
/// caretaker raises infantry for its walls; the conqueror raises troops to march, and
/// infantry where a city is threatened.
fn recruit(view: &View, sheet: &mut Sheet, purse: &mut Purse, style: Style) {
    let map = view.map;
    let tables = &view.state.tables;
    let capital = map.kingdom(&view.me).map(|k| k.capital);
    let mut cities: Vec<(u32, bool, Gold, UnitId, LocId)> = my_garrisons(view)
        .into_iter()
        .filter_map(|g| {
            let loc = map.get(g.location)?;
            loc.city.as_ref()?;
            let gap = view
                .threat(g.location)
                .saturating_sub(view.own_strength(g.location));
            Some((
                gap,
                Some(g.location) == capital,
                loc.revenue,
                g.id,
                g.location,
            ))
        })
        .collect();
    cities.sort_by_key(|(gap, cap, rev, id, _)| (Reverse(*gap), Reverse(*cap), Reverse(*rev), *id));
    loop {
        let mut added = false;
        for (gap, _, _, g, at) in &cities {
            let Some(city) = map.get(*at).and_then(|l| l.city.as_ref()) else {
                continue;
            };
            if sheet.recruited(*g) >= city.max_builds {
                continue;
            }
            let use_ = if style == Style::Caretaker || *gap > 0 {
                Use::Garrison
            } else {
                Use::Field
            };
            let Some(t) = best_type(tables, &city.builds, use_, 3, |t| {
                purse.can(t.cost, t.upkeep)
            }) else {
                continue;
            };
            purse.pay(t.cost, t.upkeep);
            sheet.recruit(*g, &t.code, 1);
            added = true;
        }
        if !added {
            break;
        }
    }
}
