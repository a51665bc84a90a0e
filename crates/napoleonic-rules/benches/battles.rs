//! A turn of Napoleonic Empires in which a battle is fought in every province: the
//! standard map of Europe, every kingdom at war with every other, and in each province an
//! army of two kingdoms at war (with the province's own garrison, where it has soldiers),
//! so that the first phase's M12 fights one land battle per province, M13 settles the
//! owners, and the Final Events follow. No orders are given: the turn is the engine's
//! alone.

use criterion::{Criterion, criterion_group, criterion_main};
use napoleonic_rules::battle::BattleKind;
use napoleonic_rules::event::What;
use napoleonic_rules::ids::{KingdomCode, LocId, TroopCode, UnitId};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::KingdomOrders;
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::standard::europe;
use napoleonic_rules::state::{GameState, Relation, Troop, Unit};
use napoleonic_rules::{Fixed, play};
use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;

// The allocator the `empires` command uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What each army brings: line infantry, cuirassiers and a gun, so that there are foot,
/// mounted and siege troops in every battle.
const ARMY: [(&str, usize); 3] = [("LIN", 6), ("CUI", 2), ("ART", 1)];

/// The game: all kingdoms at war with one another, two kingdoms' armies in every province.
fn battlefield(map: &Map) -> GameState {
    let mut state = new_game(map, &NewGame::standard(1805)).expect("a new game");
    let kingdoms: Vec<KingdomCode> = state
        .kingdoms
        .values()
        .filter(|k| !k.independent)
        .map(|k| k.code.clone())
        .collect();
    for (i, a) in kingdoms.iter().enumerate() {
        for b in &kingdoms[i + 1..] {
            state.set_relation(a, b, Relation::War);
        }
    }
    let provinces: Vec<_> = map.provinces().map(|l| l.id).collect();
    for (i, at) in provinces.into_iter().enumerate() {
        for k in [
            &kingdoms[i % kingdoms.len()],
            &kingdoms[(i + 1) % kingdoms.len()],
        ] {
            let number = state
                .free_number(k, napoleonic_rules::UnitKind::Army)
                .expect("fewer than 99 armies");
            let id = UnitId::army(number);
            let mut u = Unit::new(k.clone(), id, format!("{k} {id}"), at);
            for (code, n) in ARMY {
                let code = TroopCode(code.to_string());
                let mp = state.tables.troop(&code).expect("a troop of the roster").mp;
                for _ in 0..n {
                    u.troops.push(Troop {
                        code: code.clone(),
                        rank: 1,
                        mp,
                        damage: Fixed::ZERO,
                    });
                }
            }
            state.insert_unit(u);
        }
    }
    state
}

fn bench(c: &mut Criterion) {
    let map = europe();
    let state = battlefield(&map);
    let orders: BTreeMap<KingdomCode, KingdomOrders> = BTreeMap::new();
    let kingdoms = state.kingdoms.values().filter(|k| !k.independent).count();
    let provinces = map.provinces().count();
    let out = play(&map, &state, &orders).expect("a turn");
    let battles = out
        .events
        .iter()
        .filter(|e| matches!(e.what, What::Battle(_)))
        .count();
    let rounds: usize = out
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::Battle(b) => Some(b.rounds.len()),
            _ => None,
        })
        .sum();
    let fought_in: BTreeSet<LocId> = out
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::Battle(b) if b.kind == BattleKind::Land => Some(b.at),
            _ => None,
        })
        .collect();
    assert!(kingdoms >= 20, "{kingdoms} kingdoms");
    assert_eq!(
        fought_in.len(),
        provinces,
        "a land battle in every province"
    );
    eprintln!(
        "{kingdoms} kingdoms at war, {provinces} provinces: {battles} battles, {rounds} rounds"
    );
    c.bench_function(
        "napoleonic turn: a battle in every province of Europe, 22 kingdoms at war",
        |b| b.iter(|| play(&map, black_box(&state), &orders).expect("a turn")),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
