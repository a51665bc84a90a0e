//! One whole turn of Napoleonic Empires on the standard map of Europe, every one of its 22
//! kingdoms played by the computer (conquerors) and the independents by their own routine:
//! the computer's orders for all, and the turn played. Also the orders alone, and a whole
//! simulated game.

use criterion::{Criterion, criterion_group, criterion_main};
use napoleonic_ai::{Simulation, Style, orders_with_stand_ins, simulate};
use napoleonic_rules::ids::KingdomCode;
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::KingdomOrders;
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::standard::europe;
use napoleonic_rules::state::GameState;
use std::collections::BTreeMap;
use std::hint::black_box;

// The allocator the `empires` command uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The computer's orders for every kingdom (none gave any, so each gets a stand-in in the
/// conqueror's style) and the independents', as a host completes a turn.
fn orders(map: &Map, state: &GameState) -> BTreeMap<KingdomCode, KingdomOrders> {
    orders_with_stand_ins(map, state, &BTreeMap::new(), Style::Conqueror)
}

/// A whole turn: every kingdom's computer orders, the independents', and the turn played.
fn whole_turn(map: &Map, state: &GameState) -> GameState {
    let o = orders(map, state);
    napoleonic_rules::play(map, state, &o)
        .expect("a turn")
        .state
}

fn bench(c: &mut Criterion) {
    let map = europe();
    let start = new_game(&map, &NewGame::standard(1805)).expect("a new game");
    // A game some turns in: wars declared, armies on the march, provinces changing hands.
    let mut later = start.clone();
    for _ in 0..8 {
        later = whole_turn(&map, &later);
    }
    c.bench_function(
        "napoleonic turn 1: computer orders for 22 kingdoms and the turn",
        |b| b.iter(|| whole_turn(&map, black_box(&start))),
    );
    c.bench_function(
        "napoleonic turn 9: computer orders for 22 kingdoms and the turn",
        |b| b.iter(|| whole_turn(&map, black_box(&later))),
    );
    c.bench_function(
        "napoleonic turn 9: computer orders for 22 kingdoms only",
        |b| b.iter(|| orders(&map, black_box(&later))),
    );
    let mut group = c.benchmark_group("napoleonic whole game");
    group.sample_size(10);
    // With victory left to the GM, the game is played for all its 50 turns: under the
    // default settings a coalition wins it sooner.
    let mut fifty = Simulation::new(1805, 50);
    fifty.game.settings.victory_province_percent = 0;
    group.bench_function("a simulated game of 50 turns", |b| {
        b.iter(|| simulate(&map, black_box(&fifty)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
