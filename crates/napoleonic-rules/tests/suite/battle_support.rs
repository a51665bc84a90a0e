//! What the battle tests share: the tables with a file's extra troop types, units built by
//! hand, a two-sided battle and scripted hits.

use crate::moves_support::{k, tc, u};
use napoleonic_rules::Fixed;
use napoleonic_rules::battle::BattleKind;
use napoleonic_rules::battle::engine::Battle;
use napoleonic_rules::ids::LocId;
use napoleonic_rules::state::{Troop, Unit};
use napoleonic_rules::tables::Tables;

/// The game's tables with `extra` troop types added.
pub fn tables_with(extra: &str) -> Tables {
    Tables::parse(&format!(
        "{}\n{extra}",
        include_str!("../../data/tables.toml")
    ))
    .unwrap()
}

/// A unit at `at` with troops given as (type, count, rank), each with `mp` move points.
pub fn unit_at(owner: &str, id: &str, troops: &[(&str, u32, u8)], at: LocId, mp: u8) -> Unit {
    let mut x = Unit::new(k(owner), u(id), format!("{owner} {id}"), at);
    for (code, n, rank) in troops {
        for _ in 0..*n {
            x.troops.push(Troop {
                code: tc(code),
                rank: *rank,
                mp,
                damage: Fixed::ZERO,
            });
        }
    }
    x
}

/// A battle of `kind` between France (side 0) and Austria (side 1), at war.
pub fn duel(kind: BattleKind) -> Battle {
    let mut b = Battle::new(kind, LocId(5), None);
    b.add_side(vec![k("FRA")]);
    b.add_side(vec![k("AUS")]);
    b.set_enemies(&k("FRA"), &k("AUS"));
    b
}

/// Hits as scripted outcomes: `n` successes, then `m` misses.
pub fn hits(n: usize, m: usize) -> Vec<bool> {
    let mut v = vec![true; n];
    v.extend(vec![false; m]);
    v
}
