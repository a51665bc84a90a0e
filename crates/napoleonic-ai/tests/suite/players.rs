//! The computer players of kingdoms (the caretaker and the conqueror), the GM's stand-ins,
//! the order checker over whole games, and simulated games with their victory (G5).

use napoleonic_ai::{
    Simulation, Style, Styles, computer_orders, draft_orders, independents_orders,
    orders_with_stand_ins, play_on, play_with_independents, simulate,
};
use napoleonic_orders::check;
use napoleonic_orders::spans::Spans;
use napoleonic_rules::event::What;
use napoleonic_rules::fixed::Gold;
use napoleonic_rules::hq::money_panel;
use napoleonic_rules::ids::{KingdomCode, LocId, UnitId, UnitKind};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::{HqOrder, KingdomOrders, Step};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::standard::europe;
use napoleonic_rules::state::{GameState, Relation, Troop, Unit};
use napoleonic_rules::victory::How;
use std::collections::{BTreeMap, BTreeSet};

fn code(s: &str) -> KingdomCode {
    KingdomCode::new(s).expect("a kingdom code")
}

fn game(seed: u64) -> (Map, GameState) {
    let map = europe();
    let state = new_game(&map, &NewGame::standard(seed)).expect("a new game on the standard map");
    (map, state)
}

fn open_land_neighbours(map: &Map, at: LocId) -> Vec<LocId> {
    map.get(at)
        .map(|l| {
            l.edges
                .iter()
                .filter(|e| !e.barrier && map.get(e.to).is_some_and(|x| !x.is_sea()))
                .map(|e| e.to)
                .collect()
        })
        .unwrap_or_default()
}

/// Kingdoms owning a province across an open border from one of `k`'s.
fn kingdom_neighbours(map: &Map, state: &GameState, k: &KingdomCode) -> BTreeSet<KingdomCode> {
    state
        .owned_by(k)
        .flat_map(|p| open_land_neighbours(map, p))
        .map(|n| state.provinces[&n].owner.clone())
        .filter(|o| o != k && !o.is_independent())
        .collect()
}

/// Each kingdom's style: caretakers and conquerors in turn, by code order.
fn mixed(state: &GameState, caretaker_first: bool) -> BTreeMap<KingdomCode, Style> {
    state
        .kingdoms
        .values()
        .filter(|k| !k.independent)
        .enumerate()
        .map(|(i, k)| {
            let style = if (i % 2 == 0) == caretaker_first {
                Style::Caretaker
            } else {
                Style::Conqueror
            };
            (k.code.clone(), style)
        })
        .collect()
}

/// Every march in a kingdom's orders: (unit, phase, destination).
fn marches(o: &KingdomOrders) -> Vec<(UnitId, u8, LocId)> {
    o.units
        .iter()
        .flat_map(|u| {
            u.plan.iter().filter_map(move |p| match p.step {
                Some(Step::Move(to)) => Some((u.unit, p.phase, to)),
                _ => None,
            })
        })
        .collect()
}

/// Plays the drafts of every kingdom in its style, turn after turn, handing each turn's
/// state and drafts to `look` first.
fn play_games(
    seeds: &[u64],
    turns: u32,
    mut look: impl FnMut(&Map, &GameState, &BTreeMap<KingdomCode, (Style, KingdomOrders)>),
) {
    for (i, &seed) in seeds.iter().enumerate() {
        let (map, mut state) = game(seed);
        let styles = mixed(&state, i % 2 == 0);
        for _ in 0..turns {
            let drafts: BTreeMap<KingdomCode, (Style, KingdomOrders)> = state
                .kingdoms
                .values()
                .filter(|k| k.alive && !k.independent)
                .map(|k| {
                    let style = styles[&k.code];
                    (
                        k.code.clone(),
                        (style, draft_orders(&map, &state, &k.code, style)),
                    )
                })
                .collect();
            look(&map, &state, &drafts);
            let orders = drafts.into_iter().map(|(k, (_, o))| (k, o)).collect();
            state = play_with_independents(&map, &state, &orders)
                .expect("a turn")
                .state;
        }
    }
}

#[test]
fn every_computer_sheet_passes_the_order_checker_over_many_turns() {
    let mut sheets = 0;
    play_games(&[21, 22, 23], 25, |map, state, drafts| {
        let ind = KingdomCode::independents();
        let theirs = draft_orders(map, state, &ind, Style::Conqueror);
        let all = drafts
            .iter()
            .map(|(k, (_, o))| (k, o))
            .chain(std::iter::once((&ind, &theirs)));
        for (k, o) in all {
            let errors: Vec<String> = check(map, state, k, o, &Spans::default())
                .into_iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{:?}: {}", d.code, d.message))
                .collect();
            assert!(
                errors.is_empty(),
                "turn {}, {k}: {errors:?}\n{o:?}",
                state.turn
            );
            sheets += 1;
        }
        // What the safety net hands out is the draft itself.
        for (k, (style, o)) in drafts {
            assert_eq!(&computer_orders(map, state, k, *style), o);
        }
    });
    assert!(sheets > 1500, "only {sheets} sheets checked");
}

#[test]
fn the_caretaker_never_declares_war_attacks_only_its_own_and_keeps_a_surplus() {
    let (mut at_war, mut spending) = (0, 0);
    play_games(&[31, 32], 25, |map, state, drafts| {
        for (k, (style, o)) in drafts {
            if *style != Style::Caretaker {
                continue;
            }
            // No relation changes (1.1: the GM's stand-in keeps the ruler's policy).
            for h in &o.hq {
                assert!(matches!(h, HqOrder::Annex { .. }), "{k} ordered {h:?}");
            }
            if state
                .kingdoms
                .keys()
                .any(|x| x != k && !x.is_independent() && state.relation(k, x) == Relation::War)
            {
                at_war += 1;
            }
            // Marches only through its own land or land it may pass, never into an enemy's
            // nor the independents' (3.3: that is an invasion), except to retake a
            // province annexed to it (Ch8). Fleets sail (to defend the coast): not marches.
            for u in o.units.iter().filter(|u| u.unit.kind != UnitKind::Fleet) {
                // An army the sheet forms stands with the unit forming it (F6).
                let formed_by = o
                    .units
                    .iter()
                    .find(|c| c.form.iter().any(|(id, _)| *id == u.unit));
                let mut at = state
                    .unit(k, u.unit)
                    .or_else(|| formed_by.and_then(|c| state.unit(k, c.unit)))
                    .map(|x| x.location);
                for p in &u.plan {
                    assert!(!p.pillage, "{k} pillages");
                    let Some(Step::Move(to)) = p.step else {
                        continue;
                    };
                    let from = at.expect("a march from where the unit stands");
                    assert!(open_land_neighbours(map, from).contains(&to));
                    let p = &state.provinces[&to];
                    let owner = &p.owner;
                    let passable = owner == k
                        || &p.annexed_to == k
                        || (state.relation(k, owner) != Relation::War
                            && state.has_permission(k, to));
                    assert!(passable, "turn {}: {k} {} invades {to}", state.turn, u.unit);
                    at = Some(to);
                }
            }
            // Within its gold, with 2 gold and a tenth of its upkeep to spare (5.4).
            let panel = money_panel(map, state, k, o);
            if panel.hq_expenses + panel.garrison_expenses > Gold::ZERO {
                spending += 1;
                let reserve = Gold::whole(2) + panel.upkeep.percent(10);
                assert!(
                    panel.surplus >= reserve,
                    "turn {}: {k} leaves {} with a reserve of {reserve}",
                    state.turn,
                    panel.surplus
                );
            }
        }
    });
    assert!(
        at_war > 0,
        "no caretaker was ever at war: the test proves nothing"
    );
    assert!(spending > 0, "no caretaker ever spent a coin");
}

/// Ch8: a kingdom the computer keeps attacks provinces annexed to it: here a French
/// province an enemy took, next to a French army strong enough to win it back.
#[test]
fn the_caretaker_retakes_a_province_annexed_to_it() {
    let (map, mut state) = game(33);
    let fra = code("FRA");
    let army = state
        .units
        .iter()
        .find(|u| u.owner == fra && u.kind() == UnitKind::Army)
        .map(|u| (u.id, u.location))
        .expect("a French army");
    // A French province next to the army, annexed to France, is taken by Britain.
    let lost = open_land_neighbours(&map, army.1)
        .into_iter()
        .find(|n| {
            state.provinces[n].owner == fra
                && !state
                    .units
                    .iter()
                    .any(|u| u.location == *n && !u.troops.is_empty())
        })
        .expect("France has a province with no troops next to its army");
    let gbr = code("GBR");
    state.set_relation(&fra, &gbr, Relation::War);
    let p = state.provinces.get_mut(&lost).unwrap();
    assert_eq!(p.annexed_to, fra);
    p.owner = gbr.clone();
    p.owner_at_start = gbr.clone();
    state
        .units
        .retain(|u| u.id != UnitId::garrison(lost) || u.location != lost);
    let o = computer_orders(&map, &state, &fra, Style::Caretaker);
    assert!(
        marches(&o).iter().any(|m| m.1 == 1 && m.2 == lost),
        "no French force marches into {lost}: {:?}",
        marches(&o)
    );
    // Land the enemy holds that was never France's is left alone.
    state.provinces.get_mut(&lost).unwrap().annexed_to = gbr;
    let o = computer_orders(&map, &state, &fra, Style::Caretaker);
    assert!(
        !marches(&o).iter().any(|m| m.2 == lost),
        "{:?}",
        marches(&o)
    );
}

/// Britain at war with France, with Picardy (across the Channel from London) left bare:
/// the map, the state, the two kingdoms and London.
fn across_the_channel() -> (Map, GameState, KingdomCode, KingdomCode, LocId) {
    let (map, mut state) = game(5);
    let (gbr, fra) = (code("GBR"), code("FRA"));
    state.set_relation(&gbr, &fra, Relation::War);
    let pic = map.find("PIC").unwrap().id;
    let lon = map.find("LON").unwrap().id;
    state
        .units
        .retain(|u| u.location != pic || u.kind() == UnitKind::Fleet);
    (map, state, gbr, fra, lon)
}

/// The conqueror at sea (M3, M4, M8): Britain, at war with France, whose land it cannot
/// reach on foot, loads its London army onto the fleet docked beside it, sails into the
/// Channel and lands in France in the first phase; the turn plays it as an amphibious
/// invasion.
#[test]
fn the_conqueror_invades_by_sea_what_it_cannot_reach_by_land() {
    let (map, mut state, gbr, fra, lon) = across_the_channel();
    // London's army is four line infantry (total combat 240, weight 8: within the fleet's
    // storage).
    let line = state
        .units
        .iter()
        .flat_map(|u| u.troops.iter())
        .find(|t| t.code.0 == "LIN")
        .cloned()
        .unwrap();
    let army = state
        .units
        .iter_mut()
        .find(|u| u.owner == gbr && u.kind() == UnitKind::Army && u.location == lon)
        .unwrap();
    army.troops = vec![line; 4];
    let o = computer_orders(&map, &state, &gbr, Style::Conqueror);
    let fleet = o
        .units
        .iter()
        .find(|u| u.unit.kind == UnitKind::Fleet && u.plan.iter().any(|p| !p.unload.is_empty()))
        .unwrap_or_else(|| panic!("no British fleet lands an army: {o:?}"));
    let p = &fleet.plan[0];
    assert_eq!(p.phase, 1);
    assert_eq!(p.load.len(), 1, "it boards at M3");
    assert!(matches!(p.step, Some(Step::Move(to)) if map.loc(to).is_sea()));
    let (_, army, target) = p.unload[0];
    assert_eq!(army, p.load[0].1);
    assert_eq!(state.provinces[&target].owner, fra);
    let orders: BTreeMap<KingdomCode, KingdomOrders> = BTreeMap::from([(gbr.clone(), o)]);
    let out = play_with_independents(&map, &state, &orders).unwrap();
    assert!(
        out.events.iter().any(|e| matches!(
            &e.what,
            What::Unloaded { army: (k, id), amphibious: true, .. } if *k == gbr && *id == army
        )),
        "the landing is made"
    );
}

/// Sea battles sought (M6): France's fleet in Boulogne outguns the lone British warship in
/// the Channel by half again, and sails out to fight it; a caretaker does the same off its
/// own coast, and leaves a stronger enemy alone.
#[test]
fn fleets_seek_battle_with_weaker_enemy_fleets() {
    let (map, mut state) = game(5);
    let (gbr, fra) = (code("GBR"), code("FRA"));
    state.set_relation(&gbr, &fra, Relation::War);
    let (pic, lon, enc) = (
        map.find("PIC").unwrap().id,
        map.find("LON").unwrap().id,
        map.find("ENC").unwrap().id,
    );
    // No French army to carry, so the fleet is free; Britain's fleet in the Channel, one
    // warship.
    state
        .units
        .retain(|u| !(u.owner == fra && u.kind() == UnitKind::Army && u.location == pic));
    let british = state
        .units
        .iter_mut()
        .find(|u| u.owner == gbr && u.kind() == UnitKind::Fleet && u.location == lon)
        .unwrap();
    british.location = enc;
    british.troops.retain(|t| t.code.0 == "WAR");
    british.troops.truncate(1);
    for style in [Style::Conqueror, Style::Caretaker] {
        let o = computer_orders(&map, &state, &fra, style);
        let sails = o.units.iter().any(|u| {
            u.unit.kind == UnitKind::Fleet
                && u.plan
                    .iter()
                    .any(|p| p.phase == 1 && p.step == Some(Step::Move(enc)))
        });
        assert!(sails, "{style:?}: the French fleet stays in port: {o:?}");
    }
    // Against three warships France's two stay in port.
    let british = state
        .units
        .iter_mut()
        .find(|u| u.owner == gbr && u.kind() == UnitKind::Fleet)
        .unwrap();
    let warship = british.troops[0].clone();
    british.troops = vec![warship; 3];
    let o = computer_orders(&map, &state, &fra, Style::Conqueror);
    assert!(
        !o.units
            .iter()
            .any(|u| u.unit.kind == UnitKind::Fleet && !u.plan.is_empty()),
        "{o:?}"
    );
}

/// An army too heavy for the fleet beside it sends a detachment (F6, F9): a new army
/// formed by it takes the soldiers the fleet can carry, and that army is loaded and landed.
#[test]
fn an_army_too_heavy_for_its_fleet_sends_a_detachment_by_sea() {
    let (map, state, gbr, _, lon) = across_the_channel();
    let tables = &state.tables;
    let army = state
        .units
        .iter()
        .find(|u| u.owner == gbr && u.kind() == UnitKind::Army && u.location == lon)
        .unwrap();
    let fleet = state
        .units
        .iter()
        .find(|u| u.owner == gbr && u.kind() == UnitKind::Fleet && u.location == lon)
        .unwrap();
    assert!(
        army.weight(tables) > fleet.storage(tables),
        "London's army is too heavy for its fleet"
    );
    let o = computer_orders(&map, &state, &gbr, Style::Conqueror);
    let a1 = o
        .units
        .iter()
        .find(|u| u.unit == army.id)
        .expect("orders for A1");
    let new = a1.form.first().expect("A1 forms a detachment").0;
    assert!(
        a1.transfers
            .iter()
            .any(|t| t.to == new && !t.troops.is_empty())
    );
    let f = o
        .units
        .iter()
        .find(|u| u.unit == fleet.id)
        .expect("the fleet sails");
    assert_eq!(f.plan[0].load, vec![(None, new)]);
    let orders: BTreeMap<KingdomCode, KingdomOrders> = BTreeMap::from([(gbr.clone(), o)]);
    let out = play_with_independents(&map, &state, &orders).unwrap();
    assert!(
        out.events.iter().any(|e| matches!(
            &e.what,
            What::Unloaded { army: (k, id), amphibious: true, .. } if *k == gbr && *id == new
        )),
        "the detachment lands"
    );
    // Nothing is thrown overboard (M7): it carried no more than its storage.
    assert!(
        !out.events
            .iter()
            .any(|e| matches!(e.what, What::Overboard { .. }))
    );
}

/// Simulated games use the sea: over a few seeds, fleets fight and armies land in most.
#[test]
fn simulated_games_fight_at_sea_and_land_armies() {
    let map = europe();
    let (mut at_sea, mut landed) = (0, 0);
    for seed in 1805..1809 {
        let r = simulate(&map, &Simulation::new(seed, 12));
        let t = r.totals();
        at_sea += usize::from(t.sea_battles > 0);
        landed += usize::from(t.landings > 0);
    }
    assert!(
        at_sea >= 3 && landed >= 3,
        "sea battles in {at_sea}, landings in {landed} of 4"
    );
}

/// Royal conquerors hire leaders and put them at the head of their armies (2.5, L5, F9).
#[test]
fn royal_computer_players_hire_leaders_and_lead_with_them() {
    let map = europe();
    let mut setup = Simulation::new(1805, 8);
    setup.game.royalty = map.kingdoms.iter().map(|k| k.code.clone()).collect();
    let r = simulate(&map, &setup);
    assert!(r.totals().leaders_hired > 0, "no leader hired");
    let commoners = simulate(&map, &Simulation::new(1805, 8));
    assert_eq!(
        commoners.totals().leaders_hired,
        0,
        "Commoners hire none (2.10)"
    );
}

#[test]
fn the_caretaker_calls_its_armies_home() {
    let (map, mut state) = game(33);
    let fra = code("FRA");
    // A French army stands in independent land next to France.
    let outside = state
        .owned_by(&fra)
        .flat_map(|p| open_land_neighbours(&map, p))
        .find(|n| state.provinces[n].owner.is_independent())
        .expect("France borders the independents");
    let army = state
        .units
        .iter()
        .find(|u| u.owner == fra && u.kind() == UnitKind::Army)
        .map(|u| u.id)
        .expect("a French army");
    state.unit_mut(&fra, army).expect("the army").location = outside;
    let o = computer_orders(&map, &state, &fra, Style::Caretaker);
    let step = marches(&o)
        .into_iter()
        .find(|m| m.0 == army && m.1 == 1)
        .expect("the army marches at phase 1");
    assert_eq!(state.provinces[&step.2].owner, fra);
}

#[test]
fn the_conqueror_declares_war_on_a_weaker_neighbour_and_marches() {
    let (map, mut state) = game(41);
    // K and N share a border; N loses its armies and is the weakest of K's neighbours.
    let (k, n) = state
        .kingdoms
        .keys()
        .filter(|k| !k.is_independent())
        .find_map(|k| {
            kingdom_neighbours(&map, &state, k)
                .into_iter()
                .next()
                .map(|n| (k.clone(), n))
        })
        .expect("two kingdoms of the map share a border");
    let strong = state.clone();
    state
        .units
        .retain(|u| !(u.owner == n && u.kind() == UnitKind::Army));
    let o = computer_orders(&map, &state, &k, Style::Conqueror);
    assert_eq!(
        o.hq.first(),
        Some(&HqOrder::DeclareWar { to: n.clone() }),
        "{o:?}"
    );
    assert!(
        !o.hq
            .iter()
            .any(|h| matches!(h, HqOrder::DeclareWar { to } if to != &n)),
        "one war at a time"
    );
    let into_n: Vec<LocId> = marches(&o)
        .into_iter()
        .map(|m| m.2)
        .filter(|to| state.provinces[to].owner == n)
        .collect();
    assert!(!into_n.is_empty(), "nobody marches on {n}: {o:?}");
    // Played (F1 before movement, 2.9), the war is declared and a province is taken.
    let out =
        play_with_independents(&map, &state, &BTreeMap::from([(k.clone(), o)])).expect("a turn");
    assert_eq!(out.state.relation(&k, &n), Relation::War);
    assert!(
        out.events.iter().any(|e| matches!(&e.what,
            What::OwnershipChanged { from, to, .. } if from == &n && to == &k)),
        "{k} took nothing from {n}"
    );

    // Nobody weaker next door, or an ally: no war.
    let mut weak_k = strong.clone();
    weak_k
        .units
        .retain(|u| !(u.owner == k && u.kind() == UnitKind::Army));
    let o = computer_orders(&map, &weak_k, &k, Style::Conqueror);
    assert!(
        !o.hq.iter().any(|h| matches!(h, HqOrder::DeclareWar { .. })),
        "{o:?}"
    );
    let mut allied = state.clone();
    allied.set_relation(&k, &n, Relation::Ally);
    let o = computer_orders(&map, &allied, &k, Style::Conqueror);
    assert!(!o.hq.contains(&HqOrder::DeclareWar { to: n.clone() }));
    // A caretaker never declares it, however weak the neighbour.
    let o = computer_orders(&map, &state, &k, Style::Caretaker);
    assert!(!o.hq.iter().any(|h| matches!(h, HqOrder::DeclareWar { .. })));
}

#[test]
fn the_conqueror_offers_peace_to_an_enemy_it_no_longer_touches() {
    let (map, mut state) = game(42);
    let k = code("FRA");
    let far = state
        .kingdoms
        .keys()
        .filter(|x| !x.is_independent() && **x != k)
        .find(|x| !kingdom_neighbours(&map, &state, &k).contains(*x))
        .cloned()
        .expect("a kingdom far from France");
    state.set_relation(&k, &far, Relation::War);
    let o = computer_orders(&map, &state, &k, Style::Conqueror);
    assert!(o.hq.contains(&HqOrder::OfferPeace { to: far }), "{o:?}");
}

#[test]
fn a_landless_kingdom_never_disbands_its_last_troop() {
    // T78: disbanding everything with no province left is a palace coup.
    let (map, mut state) = game(43);
    let k = code("PRU");
    let ind = KingdomCode::independents();
    for p in state.provinces.values_mut().filter(|p| p.owner == k) {
        p.owner = ind.clone();
        p.annexed_to = ind.clone();
    }
    state
        .units
        .retain(|u| u.owner != k || u.kind() == UnitKind::Army);
    let army = state
        .units
        .iter()
        .position(|u| u.owner == k)
        .expect("a Prussian army");
    state.units[army].troops.truncate(2);
    let kept = state.units[army].id;
    state.units.retain(|u| u.owner != k || u.id == kept);
    state.kingdoms.get_mut(&k).expect("Prussia").treasury = Gold::ZERO;
    for style in [Style::Caretaker, Style::Conqueror] {
        let o = computer_orders(&map, &state, &k, style);
        let gone: u32 = o
            .units
            .iter()
            .flat_map(|u| u.disband.iter().chain(&u.salvage))
            .map(|t| t.count)
            .sum();
        assert_eq!(gone, 1, "{style:?}: the last troop must stay: {o:?}");
        let out = play_with_independents(&map, &state, &BTreeMap::from([(k.clone(), o)]))
            .expect("a turn");
        assert!(
            !out.events
                .iter()
                .any(|e| matches!(e.what, What::PalaceCoup { .. })),
            "{style:?}: dethroned"
        );
    }
}

#[test]
fn stand_ins_write_only_for_kingdoms_that_gave_no_orders() {
    let (map, mut state) = game(51);
    let (fra, gbr, pru) = (code("FRA"), code("GBR"), code("PRU"));
    state.kingdoms.get_mut(&pru).expect("Prussia").alive = false;
    let mut mine = KingdomOrders::default();
    mine.hq.push(HqOrder::OfferPeace { to: gbr.clone() });
    // FRA gave orders, GBR gave empty ones: both are kept as they are.
    let given = BTreeMap::from([
        (fra.clone(), mine.clone()),
        (gbr.clone(), KingdomOrders::default()),
    ]);
    for style in [Style::Caretaker, Style::Conqueror] {
        let all = orders_with_stand_ins(&map, &state, &given, style);
        assert_eq!(all[&fra], mine);
        assert_eq!(all[&gbr], KingdomOrders::default());
        assert!(!all.contains_key(&pru), "a defeated kingdom gets no orders");
        assert_eq!(
            all[&KingdomCode::independents()],
            independents_orders(&map, &state)
        );
        for k in state
            .kingdoms
            .values()
            .filter(|k| k.alive && !k.independent)
        {
            if k.code == fra || k.code == gbr {
                continue;
            }
            assert_eq!(
                all[&k.code],
                computer_orders(&map, &state, &k.code, style),
                "{}",
                k.code
            );
        }
        assert_eq!(
            all.len(),
            state.kingdoms.values().filter(|k| k.alive).count()
        );
    }
}

#[test]
fn computer_players_draw_only_from_their_own_generator() {
    let (map, mut state) = game(61);
    let before: Vec<KingdomOrders> = state
        .kingdoms
        .keys()
        .map(|k| computer_orders(&map, &state, k, Style::Conqueror))
        .collect();
    // The game's generator further along its stream: the same orders.
    state.rng.word_pos += 1234;
    let after: Vec<KingdomOrders> = state
        .kingdoms
        .keys()
        .map(|k| computer_orders(&map, &state, k, Style::Conqueror))
        .collect();
    assert_eq!(before, after);
}

#[test]
fn computer_players_never_panic_on_odd_states() {
    let (map, state) = game(71);
    let fra = code("FRA");
    let mut odd = Vec::new();
    // A kingdom with nothing, deep in debt.
    let mut s = state.clone();
    s.units.retain(|u| u.owner != fra);
    for p in s.provinces.values_mut().filter(|p| p.owner == fra) {
        p.owner = KingdomCode::independents();
    }
    s.kingdoms.get_mut(&fra).expect("France").treasury = Gold::whole(-500);
    odd.push(s);
    // Units at sea and nowhere, troops of unknown types, a garrison outside its province.
    let mut s = state.clone();
    let sea = map.seas().next().expect("a sea").id;
    for (i, u) in s.units.iter_mut().enumerate() {
        match i % 4 {
            0 => u.location = sea,
            1 => u.location = LocId(9999),
            2 => u.troops.push(Troop {
                code: napoleonic_rules::TroopCode("XYZ".to_string()),
                rank: 1,
                mp: 9,
                damage: Gold::ZERO,
            }),
            _ => {}
        }
    }
    s.units.push(Unit::new(
        fra.clone(),
        UnitId::garrison(LocId(140)),
        "x".into(),
        LocId(1),
    ));
    odd.push(s);
    // Everyone at war with everyone, rich independents, no provinces left to them.
    let mut s = state.clone();
    let codes: Vec<KingdomCode> = s.kingdoms.keys().cloned().collect();
    for a in &codes {
        for b in &codes {
            s.set_relation(a, b, Relation::War);
        }
    }
    for p in s.provinces.values_mut() {
        if p.owner.is_independent() {
            p.owner = fra.clone();
        }
    }
    s.kingdoms
        .get_mut(&KingdomCode::independents())
        .expect("independents")
        .treasury = Gold::whole(1_000_000_000);
    odd.push(s);
    // No independents at all.
    let mut s = state.clone();
    s.kingdoms.remove(&KingdomCode::independents());
    odd.push(s);
    for s in &odd {
        for k in s.kingdoms.keys().chain(std::iter::once(&code("XXX"))) {
            for style in [Style::Caretaker, Style::Conqueror] {
                let _ = computer_orders(&map, s, k, style);
            }
        }
        let _ = independents_orders(&map, s);
        let _ = orders_with_stand_ins(&map, s, &BTreeMap::new(), Style::Conqueror);
    }
}

#[test]
fn simulate_is_deterministic_and_runs_to_a_victory_or_the_turn_limit() {
    let map = europe();
    let a = simulate(&map, &Simulation::new(5, 30));
    let b = simulate(&map, &Simulation::new(5, 30));
    assert_eq!(a.summary(), b.summary());
    assert_eq!(
        serde_json::to_vec(&a).expect("json"),
        serde_json::to_vec(&b).expect("json")
    );
    let c = simulate(&map, &Simulation::new(6, 30));
    assert_ne!(a.summary(), c.summary());
    for r in [&a, &c] {
        assert_eq!(r.stopped, None);
        assert!(
            r.winner.is_some() || r.turns == 30,
            "stopped at turn {}",
            r.turns
        );
        assert_eq!(r.history.len() as u32, r.turns + 1);
        assert_eq!(r.styles.len(), 22);
        assert!(r.styles.values().all(|s| *s == Style::Conqueror));
        // Battles are fought and provinces change hands.
        let battles: u32 = r.history.iter().map(|t| t.battles + t.unfought).sum();
        let conquests: u32 = r.history.iter().map(|t| t.conquests).sum();
        assert!(battles > 0 && conquests > 0, "{}", r.summary());
    }
    assert!(a.summary().contains(&format!(
        "Napoleonic Europe, seed 5: {} turns played (limit 30)",
        a.turns
    )));
}

#[test]
fn styles_are_played_as_given() {
    let map = europe();
    let mut setup = Simulation::new(8, 6);
    setup.styles = Styles::all(Style::Caretaker);
    setup.styles.kingdoms.insert(code("FRA"), Style::Conqueror);
    let r = simulate(&map, &setup);
    assert_eq!(r.styles[&code("FRA")], Style::Conqueror);
    assert_eq!(r.styles[&code("GBR")], Style::Caretaker);
    // Caretakers declare no war: only France may have.
    let wars: u32 = r.history.iter().map(|t| t.wars).sum();
    assert!(wars <= 1, "{}", r.summary());
    assert!(r.summary().contains("caretaker"));
}

#[test]
fn g5_victory_is_found_through_simulate() {
    let map = europe();
    // 6 % of 146 provinces: 9 of them (8.76 rounded up).
    let mut setup = Simulation::new(9, 60);
    setup.game.settings.victory_province_percent = 6;
    let r = simulate(&map, &setup);
    let v = r.winner.clone().expect("a conqueror reaches 9 provinces");
    assert_eq!(v.how, How::Provinces { percent: 6 });
    assert_eq!(v.turn, r.turns, "the game stops on the turn it is won");
    assert!(r.turns < 60);
    assert!(v.provinces >= 9 && v.of == 146);
    // The winners are one kingdom or a coalition of allies (G5): their holdings add up.
    let last = &r.history[r.turns as usize];
    let held: u32 = v.kingdoms.iter().map(|k| last.kingdoms[k].provinces).sum();
    assert_eq!(held, v.provinces);
    // No kingdom held as many before.
    for t in &r.history[..r.turns as usize] {
        assert!(
            t.kingdoms
                .iter()
                .all(|(k, x)| k.is_independent() || x.provinces < 9),
            "turn {} already won",
            t.turn
        );
    }
    assert!(
        r.summary()
            .contains(&format!("won after turn {} by", v.turn)),
        "{}",
        r.summary()
    );

    // An alliance holding enough at the start wins before a turn is played.
    let (map, mut state) = game(10);
    let (fra, spa) = (code("FRA"), code("SPA"));
    state.set_relation(&fra, &spa, Relation::Ally);
    let held = state
        .provinces
        .values()
        .filter(|p| p.owner == fra || p.owner == spa)
        .count() as u32;
    state.settings.victory_province_percent = held * 100 / 146;
    let r = play_on(&map, state, 10, &Styles::default());
    let v = r.winner.expect("France and Spain win together");
    assert_eq!((r.turns, v.turn), (0, 0));
    assert_eq!(v.kingdoms, vec![fra, spa]);
    assert_eq!(v.provinces, held);
}

#[test]
fn simulate_reports_a_setup_that_cannot_start() {
    let map = europe();
    let mut setup = Simulation::new(1, 5);
    setup.game.kingdoms = vec![code("XXX")];
    let r = simulate(&map, &setup);
    assert_eq!(r.turns, 0);
    assert!(r.stopped.as_deref().is_some_and(|s| s.contains("XXX")));
    assert!(r.summary().contains("stopped:"));
}
