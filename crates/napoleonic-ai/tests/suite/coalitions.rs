//! The conqueror's coalitions (L17, G5): alliances offered to neighbours that share an
//! enemy, never to an enemy nor an enemy's ally, and whole games that reach a victory under
//! the default settings.

use napoleonic_ai::{Simulation, Style, computer_orders, play_with_independents, simulate};
use napoleonic_orders::check;
use napoleonic_orders::spans::Spans;
use napoleonic_rules::ids::{KingdomCode, LocId};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::{HqOrder, KingdomOrders};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::standard::europe;
use napoleonic_rules::state::{GameState, Relation};
use napoleonic_rules::victory::How;
use std::collections::{BTreeMap, BTreeSet};

fn game(seed: u64) -> (Map, GameState) {
    let map = europe();
    let state = new_game(&map, &NewGame::standard(seed)).expect("a new game on the standard map");
    (map, state)
}

fn kingdoms(state: &GameState) -> Vec<KingdomCode> {
    state
        .kingdoms
        .values()
        .filter(|k| k.alive && !k.independent)
        .map(|k| k.code.clone())
        .collect()
}

/// Kingdoms owning a province across an open border from one of `k`'s.
fn neighbours(map: &Map, state: &GameState, k: &KingdomCode) -> BTreeSet<KingdomCode> {
    let open = |at: LocId| -> Vec<LocId> {
        map.get(at).map_or_else(Vec::new, |l| {
            l.edges
                .iter()
                .filter(|e| !e.barrier && map.get(e.to).is_some_and(|x| !x.is_sea()))
                .map(|e| e.to)
                .collect()
        })
    };
    state
        .owned_by(k)
        .flat_map(open)
        .map(|n| state.provinces[&n].owner.clone())
        .filter(|o| o != k && !o.is_independent())
        .collect()
}

/// A kingdom's land strength: its soldiers' and leaders' total combat.
fn might(state: &GameState, k: &KingdomCode) -> u32 {
    state
        .units
        .iter()
        .filter(|u| &u.owner == k)
        .map(|u| {
            let soldiers: u32 = u
                .troops
                .iter()
                .filter_map(|t| state.tables.troop(&t.code))
                .filter(|t| t.is_soldier())
                .map(|t| t.total_combat())
                .sum();
            soldiers + u.leaders.iter().map(|l| l.attacks * l.combat).sum::<u32>()
        })
        .sum()
}

fn offers_alliance(o: &KingdomOrders, to: &KingdomCode) -> bool {
    o.hq.contains(&HqOrder::OfferAlliance { to: to.clone() })
}

/// Two neighbours of much the same strength, and a third kingdom.
fn two_neighbours_and_a_third(
    map: &Map,
    state: &GameState,
) -> (KingdomCode, KingdomCode, KingdomCode) {
    let all = kingdoms(state);
    for k in &all {
        for n in neighbours(map, state, k) {
            let (a, b) = (might(state, k), might(state, &n));
            if a.max(b) * 2 > a.min(b) * 3 {
                continue;
            }
            if let Some(z) = all.iter().find(|z| *z != k && **z != n) {
                return (k.clone(), n, z.clone());
            }
        }
    }
    panic!("no two neighbours of much the same strength");
}

#[test]
fn a_conqueror_offers_an_alliance_to_a_neighbour_sharing_its_enemy() {
    let (map, mut state) = game(31);
    let (k, n, z) = two_neighbours_and_a_third(&map, &state);
    state.set_relation(&k, &z, Relation::War);
    state.set_relation(&n, &z, Relation::War);
    let ko = computer_orders(&map, &state, &k, Style::Conqueror);
    let no = computer_orders(&map, &state, &n, Style::Conqueror);
    assert!(
        offers_alliance(&ko, &n),
        "{k} offers nothing to {n}: {ko:?}"
    );
    assert!(
        offers_alliance(&no, &k),
        "{n} offers nothing to {k}: {no:?}"
    );
    // Both offered while neutral (L17): played, they are allied.
    let orders = BTreeMap::from([(k.clone(), ko), (n.clone(), no)]);
    let out = play_with_independents(&map, &state, &orders).expect("a turn");
    assert_eq!(out.state.relation(&k, &n), Relation::Ally);
    // Allies grant each other passage (F3), so their armies march through each other's land.
    let ko = computer_orders(&map, &out.state, &k, Style::Conqueror);
    assert!(
        ko.hq.contains(&HqOrder::GrantPassage { to: n.clone() }),
        "{ko:?}"
    );
    assert!(!offers_alliance(&ko, &n), "allied already: {ko:?}");
    // The caretaker offers nothing.
    let o = computer_orders(&map, &state, &k, Style::Caretaker);
    assert!(
        !o.hq
            .iter()
            .any(|h| matches!(h, HqOrder::OfferAlliance { .. })),
        "{o:?}"
    );
}

#[test]
fn a_conqueror_never_allies_with_an_enemy_nor_an_enemys_ally() {
    let (map, mut state) = game(31);
    let (k, n, m) = two_neighbours_and_a_third(&map, &state);
    state.set_relation(&k, &n, Relation::War);
    state.set_relation(&n, &m, Relation::Ally);
    let o = computer_orders(&map, &state, &k, Style::Conqueror);
    assert!(!offers_alliance(&o, &n), "{o:?}");
    assert!(
        !offers_alliance(&o, &m),
        "{m} is allied with {k}'s enemy: {o:?}"
    );
    // Nor does a conqueror ever declare war on an ally.
    let o = computer_orders(&map, &state, &n, Style::Conqueror);
    assert!(
        !o.hq.contains(&HqOrder::DeclareWar { to: m.clone() }),
        "{o:?}"
    );
}

#[test]
fn conquerors_form_coalitions_of_allies_throughout_and_write_clean_sheets() {
    let (map, mut state) = game(24);
    let mut offered = 0;
    for _ in 0..10 {
        let all = kingdoms(&state);
        let mut orders = BTreeMap::new();
        for k in &all {
            let o = computer_orders(&map, &state, k, Style::Conqueror);
            let errors: Vec<String> = check(&map, &state, k, &o, &Spans::default())
                .into_iter()
                .filter(|d| d.is_error())
                .map(|d| d.message)
                .collect();
            assert!(errors.is_empty(), "turn {}, {k}: {errors:?}", state.turn);
            for h in &o.hq {
                if let HqOrder::OfferAlliance { to } = h {
                    offered += 1;
                    assert_eq!(state.relation(k, to), Relation::Neutral);
                    // Never an ally of an enemy.
                    for x in &all {
                        if state.relation(to, x) == Relation::Ally {
                            assert_ne!(state.relation(k, x), Relation::War, "{k} {to} {x}");
                        }
                    }
                }
            }
            orders.insert(k.clone(), o);
        }
        state = play_with_independents(&map, &state, &orders)
            .expect("a turn")
            .state;
        // Every bloc the conquerors form is allied throughout, as G5 asks of a coalition.
        let all = kingdoms(&state);
        for a in &all {
            for b in &all {
                for c in &all {
                    if a != c
                        && state.relation(a, b) == Relation::Ally
                        && state.relation(b, c) == Relation::Ally
                    {
                        assert_eq!(state.relation(a, c), Relation::Ally, "{a} {b} {c}");
                    }
                }
            }
        }
    }
    assert!(offered > 0, "no alliance offered in 10 turns");
}

#[test]
fn a_simulated_game_under_the_default_settings_reaches_a_victory() {
    let map = europe();
    let setup = Simulation::new(22, 20);
    assert_eq!(setup.game.settings.victory_province_percent, 50);
    let r = simulate(&map, &setup);
    let v = r.winner.clone().expect("a coalition wins within 20 turns");
    assert_eq!(v.how, How::Provinces { percent: 50 });
    assert_eq!(v.turn, r.turns);
    assert!(v.kingdoms.len() > 1, "a coalition: {:?}", v.kingdoms);
    assert!(v.provinces * 2 >= v.of && v.of == 146);
    let last = &r.history[r.turns as usize];
    let held: u32 = v.kingdoms.iter().map(|k| last.kingdoms[k].provinces).sum();
    assert_eq!(held, v.provinces);
    // The coalition could not hold half the map by alliances alone: it took provinces.
    let conquests: u32 = r.history.iter().map(|t| t.conquests).sum();
    assert!(conquests > 0);
}
