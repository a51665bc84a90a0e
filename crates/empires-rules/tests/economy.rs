//! Economy: STASH, CASH, TAX, GIFT, ORDER, leftovers, income and supply (3.x, 6.2).
mod common;
use common::*;
use empires_rules::event::What;

#[test]
fn smoke_turn_runs() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["TAX"])]);
    done(&t, "AA", 0);
    assert_eq!(t.state.turn, 1);
}
