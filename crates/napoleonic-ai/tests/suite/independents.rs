//! The independents (digest 1.1, decision G36): they recruit in their cities within their
//! gold, keep their garrisons, attack only provinces annexed to them that someone else holds
//! (or their own where intruders stand), and never move otherwise; their orders always
//! replace any given for them.

use napoleonic_ai::{
    ComputerPlayer, Independents, Style, computer_orders, draft_orders, independents_orders,
    orders_with_stand_ins, play_with, play_with_independents,
};
use napoleonic_rules::event::What;
use napoleonic_rules::fixed::Gold;
use napoleonic_rules::ids::{KingdomCode, LocId, UnitId, UnitKind};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::{HqOrder, KingdomOrders, PhasePlan, Step, UnitOrders};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::standard::europe;
use napoleonic_rules::state::{GameState, Troop, Unit};
use napoleonic_rules::tables::TroopClass;
use std::collections::BTreeMap;

fn ind() -> KingdomCode {
    KingdomCode::independents()
}

fn game(seed: u64) -> (Map, GameState) {
    let map = europe();
    let state = new_game(&map, &NewGame::standard(seed)).expect("a new game on the standard map");
    (map, state)
}

fn troops(state: &GameState, code: &str, n: usize) -> Vec<Troop> {
    let code = napoleonic_rules::TroopCode(code.to_string());
    let t = state.tables.troop(&code).expect("in the roster");
    (0..n)
        .map(|_| Troop {
            code: t.code.clone(),
            rank: 1,
            mp: t.mp,
            damage: Gold::ZERO,
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

/// A kingdom's land forces stand in a province of the independents without special
/// permission (G35): an intruder.
fn intruded(state: &GameState, at: LocId) -> bool {
    let p = &state.provinces[&at];
    state.units.iter().any(|u| {
        u.location == at
            && !u.owner.is_independent()
            && u.kind() != UnitKind::Fleet
            && u.aboard.is_none()
            && (!u.troops.is_empty() || !u.leaders.is_empty())
            && !p.permissions.contains(&u.owner)
    })
}

/// A kingdom K, an independent province P next to K's land, and an independent province Q
/// next to P and also next to another province R of K: Q's army could strike P or R.
fn frontier(map: &Map, state: &GameState) -> (KingdomCode, LocId, LocId, LocId) {
    let owner = |at: LocId| state.provinces[&at].owner.clone();
    for k in map.kingdoms.iter().map(|k| &k.code) {
        for &s in &map.kingdom(k).expect("on the map").provinces {
            for p in open_land_neighbours(map, s) {
                if owner(p) != ind() {
                    continue;
                }
                for q in open_land_neighbours(map, p) {
                    if owner(q) != ind() || state.unit(&ind(), UnitId::garrison(q)).is_none() {
                        continue;
                    }
                    let r = open_land_neighbours(map, q)
                        .into_iter()
                        .find(|r| *r != p && &owner(*r) == k);
                    if let Some(r) = r {
                        return (k.clone(), p, q, r);
                    }
                }
            }
        }
    }
    panic!("the standard map has no such frontier");
}

/// Gives a province to a kingdom as a conquest does (M13): its owner changes, the
/// annexation stays, and the old garrison gives way to an empty one of the new owner.
fn conquer(state: &mut GameState, at: LocId, by: &KingdomCode) {
    let old = state.provinces[&at].owner.clone();
    let gid = UnitId::garrison(at);
    if let Some(i) = state.unit_index(&old, gid) {
        state.units.remove(i);
        state.insert_unit(Unit::new(by.clone(), gid, "Garrison".to_string(), at));
    }
    let p = state.provinces.get_mut(&at).expect("a province");
    p.owner = by.clone();
    p.owner_at_start = by.clone();
}

/// An independent army of ten line infantry in a province of theirs.
fn ind_army(state: &mut GameState, at: LocId) -> UnitId {
    let id = UnitId::army(1);
    let mut a = Unit::new(ind(), id, "Independent army".to_string(), at);
    a.troops = troops(state, "LIN", 10);
    assert!(state.insert_unit(a));
    id
}

#[test]
fn in_a_quiet_game_the_independents_only_hold_their_garrisons() {
    let (map, state) = game(1);
    // Nothing annexed to them is held by anyone, and their treasury is empty: no orders.
    assert_eq!(independents_orders(&map, &state), KingdomOrders::default());
}

#[test]
fn they_recruit_in_their_cities_within_their_gold() {
    let (map, mut state) = game(2);
    // Two of their cities lose their garrisons' troops.
    let cities: Vec<LocId> = state
        .units
        .iter()
        .filter(|u| u.owner == ind() && u.kind() == UnitKind::Garrison)
        .map(|u| u.location)
        .filter(|at| map.get(*at).is_some_and(|l| l.city.is_some()))
        .take(2)
        .collect();
    assert_eq!(cities.len(), 2);
    for &at in &cities {
        state
            .unit_mut(&ind(), UnitId::garrison(at))
            .expect("their garrison")
            .troops
            .clear();
    }
    for treasury in [10, 1000] {
        let treasury = Gold::whole(treasury);
        state
            .kingdoms
            .get_mut(&ind())
            .expect("independents")
            .treasury = treasury;
        let o = independents_orders(&map, &state);
        assert!(o.hq.is_empty(), "no diplomacy, ever (1.1)");
        assert!(marches(&o).is_empty(), "nothing to retake: nobody moves");
        let mut cost = Gold::ZERO;
        for u in o.units.iter().filter(|u| !u.recruit.is_empty()) {
            assert_eq!(u.unit.kind, UnitKind::Garrison);
            let g = state.unit(&ind(), u.unit).expect("a garrison of theirs");
            assert_eq!(state.provinces[&g.location].owner, ind());
            let city = map
                .get(g.location)
                .and_then(|l| l.city.as_ref())
                .expect("a city");
            let mut n = 0;
            for r in &u.recruit {
                assert!(
                    city.builds.contains(&r.code),
                    "{} is not built in {}",
                    r.code,
                    city.name
                );
                let t = state.tables.troop(&r.code).expect("a troop type");
                assert_eq!(
                    t.class,
                    TroopClass::Foot,
                    "garrisons are raised from infantry"
                );
                cost += t.cost * i64::from(r.count);
                n += r.count;
            }
            assert!(
                n <= city.max_builds,
                "{} builds at most {}",
                city.name,
                city.max_builds
            );
        }
        assert!(
            cost > Gold::ZERO,
            "with {treasury} gold the emptied cities recruit"
        );
        assert!(
            cost <= treasury,
            "recruits cost {cost}, more than the {treasury} they have"
        );
        // With gold to spare, each emptied city raises troops.
        if treasury == Gold::whole(1000) {
            for &at in &cities {
                let g = o.units.iter().find(|u| u.unit == UnitId::garrison(at));
                assert!(g.is_some_and(|g| !g.recruit.is_empty()), "{at} recruits");
            }
        }
        // And the engine builds exactly what was ordered (L4).
        let out = play_with_independents(&map, &state, &BTreeMap::new()).expect("a turn");
        let failed: Vec<&What> = out
            .events
            .iter()
            .map(|e| &e.what)
            .filter(|w| matches!(w, What::OrderFailed { kingdom, .. } if kingdom.is_independent()))
            .collect();
        assert!(failed.is_empty(), "their orders failed: {failed:?}");
        let built: Gold = out
            .events
            .iter()
            .filter_map(|e| match &e.what {
                What::TroopsBuilt { unit, cost, .. } if unit.0.is_independent() => Some(*cost),
                _ => None,
            })
            .sum();
        assert_eq!(built, cost);
    }
}

#[test]
fn they_keep_their_garrisons_when_nothing_is_theirs_to_retake() {
    let (map, mut state) = game(3);
    let (_, _, q, _) = frontier(&map, &state);
    let army = ind_army(&mut state, q);
    state
        .kingdoms
        .get_mut(&ind())
        .expect("independents")
        .treasury = Gold::whole(500);
    let o = independents_orders(&map, &state);
    // G36: rich kingdoms' provinces lie next to the army; none is annexed to them.
    assert!(marches(&o).is_empty(), "they moved: {:?}", marches(&o));
    assert!(
        o.units.iter().all(|u| u.form.is_empty()),
        "no army is formed"
    );
    // The idle army joins the garrison where it stands; garrisons give nothing away.
    for u in &o.units {
        for t in &u.transfers {
            assert_eq!((u.unit, t.to), (army, UnitId::garrison(q)));
        }
    }
    let into_garrison: u32 = o
        .units
        .iter()
        .filter(|u| u.unit == army)
        .flat_map(|u| &u.transfers)
        .flat_map(|t| &t.troops)
        .map(|t| t.count)
        .sum();
    assert_eq!(into_garrison, 10);
}

#[test]
fn g36_they_retake_a_province_annexed_to_them_and_no_other() {
    let (map, mut state) = game(4);
    let (k, p, q, r) = frontier(&map, &state);
    conquer(&mut state, p, &k);
    assert_eq!(
        state.provinces[&p].annexed_to,
        ind(),
        "still annexed to them"
    );
    let army = ind_army(&mut state, q);
    let o = independents_orders(&map, &state);
    assert!(o.hq.is_empty());
    // The army strikes P at phase 1, and nobody goes to R, which is K's own.
    assert_eq!(marches(&o), vec![(army, 1, p)], "{o:?}");
    assert!(!marches(&o).iter().any(|m| m.2 == r));
    // Played, the province is theirs again.
    let out = play_with_independents(&map, &state, &BTreeMap::new()).expect("a turn");
    assert!(out.events.iter().any(|e| matches!(&e.what,
        What::OwnershipChanged { province, to, .. } if *province == p && to.is_independent())));
    assert_eq!(out.state.provinces[&p].owner, ind());
    // Once the kingdom annexes it, it is no longer theirs to retake.
    state.provinces.get_mut(&p).expect("P").annexed_to = k.clone();
    let o = independents_orders(&map, &state);
    assert!(marches(&o).is_empty(), "{:?}", marches(&o));
}

#[test]
fn their_garrisons_send_only_what_they_can_spare_and_call_for_recruits_otherwise() {
    let (map, mut state) = game(5);
    let (k, p, q, _) = frontier(&map, &state);
    conquer(&mut state, p, &k);
    // Gold enough for every city: defence comes first, then the strike force.
    state
        .kingdoms
        .get_mut(&ind())
        .expect("independents")
        .treasury = Gold::whole(5000);
    // No army: Q's garrison holds what the map gave it, which it keeps.
    let o = independents_orders(&map, &state);
    assert!(
        marches(&o).is_empty(),
        "a garrison marched out below its strength"
    );
    let next_to_p = open_land_neighbours(&map, p);
    let recruits: u32 = o
        .units
        .iter()
        .filter(|u| next_to_p.contains(&state.unit(&ind(), u.unit).expect("theirs").location))
        .flat_map(|u| &u.recruit)
        .map(|t| t.count)
        .sum();
    assert!(
        recruits > 0,
        "a city next to P raises a strike force: {o:?}"
    );
    // With twenty line infantry more, Q forms an army and sends the spare ones.
    let extra = troops(&state, "LIN", 20);
    state
        .unit_mut(&ind(), UnitId::garrison(q))
        .expect("Q's garrison")
        .troops
        .extend(extra);
    let o = independents_orders(&map, &state);
    let g = o
        .units
        .iter()
        .find(|u| u.unit == UnitId::garrison(q))
        .expect("Q's garrison has orders");
    assert_eq!(g.form.len(), 1);
    let formed = g.form[0].0;
    assert_eq!(marches(&o), vec![(formed, 1, p)]);
    let sent: u32 = g
        .transfers
        .iter()
        .flat_map(|t| &t.troops)
        .map(|t| t.count)
        .sum();
    assert!(
        sent > 0 && sent <= 20,
        "sent {sent}: more than the spare troops"
    );
}

#[test]
fn they_attack_intruders_in_their_own_land() {
    let (map, mut state) = game(6);
    let (k, p, q, _) = frontier(&map, &state);
    // A kingdom's militia stands in P; P's own garrison is empty.
    if let Some(g) = state.unit_mut(&ind(), UnitId::garrison(p)) {
        g.troops.clear();
    }
    let id = state
        .free_number(&k, UnitKind::Army)
        .map(UnitId::army)
        .expect("a free army number");
    let mut a = Unit::new(k.clone(), id, "Intruders".to_string(), p);
    a.troops = troops(&state, "MIL", 2);
    assert!(state.insert_unit(a));
    let army = ind_army(&mut state, q);
    assert_eq!(
        marches(&independents_orders(&map, &state)),
        vec![(army, 1, p)]
    );
    // With special permission (G35) the same army is a guest, not an intruder.
    state
        .provinces
        .get_mut(&p)
        .expect("P")
        .permissions
        .insert(k.clone());
    assert!(marches(&independents_orders(&map, &state)).is_empty());
}

/// G36 over whole games: every order the independents give, turn after turn, with every
/// kingdom a conqueror.
#[test]
fn g36_over_whole_games_they_never_step_beyond_their_rule() {
    let mut attacks = 0;
    let mut recruits = 0;
    for seed in [11, 12] {
        let (map, mut state) = game(seed);
        for _ in 0..20 {
            let o = draft_orders(&map, &state, &ind(), Style::Conqueror);
            assert_eq!(
                o,
                independents_orders(&map, &state),
                "the draft passes its check"
            );
            assert!(
                o.hq.is_empty() && o.proclamation.is_none(),
                "no diplomacy, no proclamation"
            );
            let treasury = state.kingdoms[&ind()].treasury;
            let mut cost = Gold::ZERO;
            let formed: Vec<UnitId> = o.units.iter().flat_map(|u| &u.form).map(|f| f.0).collect();
            for u in &o.units {
                let at = state
                    .unit(&ind(), u.unit)
                    .map(|x| x.location)
                    .or_else(|| {
                        // A new army stands with the garrison that formed it.
                        o.units
                            .iter()
                            .find(|g| g.form.iter().any(|f| f.0 == u.unit))
                            .and_then(|g| state.unit(&ind(), g.unit))
                            .map(|g| g.location)
                    })
                    .expect("a unit of theirs, or one formed this turn");
                assert!(u.disband.is_empty() && u.salvage.is_empty() && u.build.is_none());
                check_plan(&map, &state, u, at);
                if !u.plan.is_empty() {
                    attacks += 1;
                }
                for t in &u.transfers {
                    // From a garrison into the army it formed, or from an army into a garrison.
                    let ok = (u.unit.kind == UnitKind::Garrison && formed.contains(&t.to))
                        || (u.unit.kind == UnitKind::Army && t.to == UnitId::garrison(at));
                    assert!(ok, "transfer {t:?} from {}", u.unit);
                }
                for r in &u.recruit {
                    let city = map.get(at).and_then(|l| l.city.as_ref()).expect("a city");
                    assert_eq!(state.provinces[&at].owner, ind());
                    assert!(city.builds.contains(&r.code));
                    cost += state.tables.troop(&r.code).expect("a type").cost * i64::from(r.count);
                    recruits += r.count;
                }
            }
            assert!(
                cost <= treasury,
                "recruits cost {cost} of a treasury of {treasury}"
            );
            let orders: BTreeMap<KingdomCode, KingdomOrders> = state
                .kingdoms
                .values()
                .filter(|k| k.alive && !k.independent)
                .map(|k| {
                    let o = computer_orders(&map, &state, &k.code, Style::Conqueror);
                    (k.code.clone(), o)
                })
                .collect();
            state = play_with_independents(&map, &state, &orders)
                .expect("a turn")
                .state;
        }
    }
    assert!(
        attacks > 0,
        "in 40 turns the independents never struck back"
    );
    assert!(recruits > 0, "in 40 turns the independents never recruited");
}

/// A plan of theirs is one march at phase 1, into a province annexed to them that a kingdom
/// holds or where intruders stand, or, for an army outside their land, a step home.
fn check_plan(map: &Map, state: &GameState, u: &UnitOrders, at: LocId) {
    let steps: Vec<&PhasePlan> = u.plan.iter().collect();
    if steps.is_empty() {
        return;
    }
    assert_eq!(steps.len(), 1, "{} plans more than one phase", u.unit);
    let p = steps[0];
    assert_eq!(p.phase, 1);
    assert!(!p.pillage, "they never pillage");
    let Some(Step::Move(to)) = p.step else {
        panic!("{} holds without need", u.unit);
    };
    assert!(
        open_land_neighbours(map, at).contains(&to),
        "{to} is not next to {at}"
    );
    let dest = &state.provinces[&to];
    let retake = dest.annexed_to == ind() && (dest.owner != ind() || intruded(state, to));
    let home = dest.owner == ind() && state.provinces[&at].owner != ind();
    assert!(
        retake || home,
        "{} marched into {to}, owned by {}",
        u.unit,
        dest.owner
    );
}

#[test]
fn orders_given_for_the_independents_are_replaced_by_their_own() {
    let (map, mut state) = game(7);
    let (k, p, q, r) = frontier(&map, &state);
    conquer(&mut state, p, &k);
    ind_army(&mut state, q);
    // Somebody writes orders for them: war, and a march into R.
    let mut bogus = KingdomOrders::default();
    bogus.hq.push(HqOrder::DeclareWar { to: k.clone() });
    let mut march = UnitOrders::new(UnitId::army(1));
    march.plan.push(PhasePlan {
        phase: 1,
        step: Some(Step::Move(r)),
        ..PhasePlan::default()
    });
    bogus.units.push(march);
    let given = BTreeMap::from([(ind(), bogus)]);
    let theirs = independents_orders(&map, &state);
    assert_ne!(theirs, KingdomOrders::default());
    for style in [Style::Caretaker, Style::Conqueror] {
        let all = orders_with_stand_ins(&map, &state, &given, style);
        assert_eq!(all[&ind()], theirs);
    }
    let played = play_with_independents(&map, &state, &given).expect("a turn");
    let expected =
        napoleonic_rules::play(&map, &state, &BTreeMap::from([(ind(), theirs)])).expect("a turn");
    assert_eq!(played.state, expected.state);
    assert_eq!(played.events, expected.events);
    // Out of the game, they give no orders, and none given for them are played.
    state.kingdoms.get_mut(&ind()).expect("independents").alive = false;
    assert_eq!(independents_orders(&map, &state), KingdomOrders::default());
    let all = orders_with_stand_ins(&map, &state, &given, Style::Caretaker);
    assert!(!all.contains_key(&ind()));
}

/// G36: the routine sits behind a trait, and another can take its place.
#[test]
fn another_routine_can_stand_in_for_the_independents() {
    struct Passive;
    impl ComputerPlayer for Passive {
        fn orders(&self, _: &Map, _: &GameState, _: &KingdomCode) -> KingdomOrders {
            KingdomOrders::default()
        }
    }
    let (map, mut state) = game(8);
    let (k, p, q, _) = frontier(&map, &state);
    conquer(&mut state, p, &k);
    ind_army(&mut state, q);
    let none = BTreeMap::new();
    let passive = play_with(&map, &state, &none, &Passive).expect("a turn");
    assert_eq!(
        passive.state.provinces[&p].owner, k,
        "the passive routine stays home"
    );
    let own = play_with(&map, &state, &none, &Independents).expect("a turn");
    assert_eq!(
        own.state,
        play_with_independents(&map, &state, &none)
            .expect("a turn")
            .state
    );
    assert_eq!(own.state.provinces[&p].owner, ind());
    // The independents' routine writes nothing for a kingdom; a style writes its orders.
    assert_eq!(
        Independents.orders(&map, &state, &k),
        KingdomOrders::default()
    );
    assert_eq!(
        Style::Conqueror.orders(&map, &state, &k),
        computer_orders(&map, &state, &k, Style::Conqueror)
    );
}
