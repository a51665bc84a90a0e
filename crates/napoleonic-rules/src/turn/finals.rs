//! The Final Events of a turn (digest 3.4, 7.10), run once after the last movement phase,
//! in the rulebook's order L1-L20. Gold steps live in `economy`, structures in
//! `construction`, gifts and relations in `diplomacy`; the province and kingdom checks
//! that open and close the list are here.

use super::Turn;
use super::{construction, diplomacy, economy};
use crate::event::{What, When};
use crate::ids::{KingdomCode, LocId};
use crate::state::Status;
use std::collections::BTreeSet;

pub fn run(turn: &mut Turn) {
    let troubled = damage_increases(turn); // L1
    economy::gold_sent(turn); // L2
    economy::upkeep(turn); // L3
    economy::troops_built(turn); // L4
    economy::leaders_hired(turn); // L5
    economy::annexations(turn); // L6
    economy::annexation_declines(turn); // L7
    construction::construction(turn); // L8
    economy::decay(turn); // L9
    construction::razing(turn); // L10
    economy::revenue(turn); // L11
    diplomacy::gifts(turn); // L12
    economy::proclamations(turn); // L13
    damage_repaired(turn, &troubled); // L14
    let alliance_offers = diplomacy::alliance_offers_at_start(turn);
    diplomacy::peace(turn); // L15
    diplomacy::alliances_cancelled(turn); // L16
    diplomacy::alliances_formed(turn, &alliance_offers); // L17
    limits(turn); // L18
    defeated(turn); // L19
    // L20: the turn is complete. The per-turn marks (battle, pillaged, changed, annexed
    // this turn, owner at start) stay as they are for the reports, and are cleared when
    // the next turn begins.
    diplomacy::ambassadors(turn);
    declared(turn);
}

/// L20, digest 6: a result the GM declared with this turn's rulings, checked against the
/// state the turn leaves (a winner defeated in this very turn cannot win: the GM is told
/// why and the game goes on).
fn declared(turn: &mut Turn) {
    let Some(d) = turn.rulings.winner.clone() else {
        return;
    };
    let mut state = turn.state.clone();
    // The state's turn is raised when the turn finishes; the victory is of this turn.
    state.turn += 1;
    match crate::victory::declared(turn.map, &state, &d.kingdoms, &d.reason) {
        Ok(v) => {
            turn.emit(
                When::Final(20),
                What::GameDeclared {
                    kingdoms: v.kingdoms.clone(),
                    reason: d.reason.clone(),
                    provinces: v.provinces,
                    of: v.of,
                },
            );
            turn.state.result = Some(v.clone());
            turn.declared = Some(Ok(v));
        }
        Err(why) => turn.declared = Some(Err(why)),
    }
}

/// L1, G10: a province that had a land battle, was pillaged or changed owner this turn
/// takes one more level of damage, at most one a turn (T71) and never above 3. Returns
/// those provinces: L14 repairs none of them, whether their damage rose or was at 3 already.
fn damage_increases(turn: &mut Turn) -> BTreeSet<LocId> {
    const WHEN: When = When::Final(1);
    let mut troubled = BTreeSet::new();
    let ids: Vec<LocId> = turn.state.provinces.keys().copied().collect();
    for id in ids {
        let p = turn.state.provinces.get_mut(&id).expect("listed");
        if !(p.battle || p.pillaged || p.changed) {
            continue;
        }
        troubled.insert(id);
        if p.damage < 3 {
            p.damage += 1;
            let level = p.damage;
            turn.emit(
                WHEN,
                What::DamageRose {
                    province: id,
                    level,
                },
            );
        }
    }
    troubled
}

/// L14, G10: one level of damage mended in every province that was peaceful this turn,
/// after revenue was counted at the higher level (T72).
fn damage_repaired(turn: &mut Turn, troubled: &BTreeSet<LocId>) {
    const WHEN: When = When::Final(14);
    let ids: Vec<LocId> = turn.state.provinces.keys().copied().collect();
    for id in ids {
        if troubled.contains(&id) {
            continue;
        }
        let p = turn.state.provinces.get_mut(&id).expect("listed");
        if p.damage > 0 {
            p.damage -= 1;
            let level = p.damage;
            turn.emit(
                WHEN,
                What::DamageRepaired {
                    province: id,
                    level,
                },
            );
        }
    }
}

fn playing_kingdoms(turn: &Turn) -> Vec<KingdomCode> {
    turn.state
        .kingdoms
        .values()
        .filter(|k| k.alive && !k.independent)
        .map(|k| k.code.clone())
        .collect()
}

/// L18, G28: the status limits. Annexations over the limit (after a fall from Royalty, or
/// received with a gift) go back to the independents, the latest first; a Commoner's
/// leaders desert ("None Will Join His Cause", 7.4).
fn limits(turn: &mut Turn) {
    const WHEN: When = When::Final(18);
    for k in playing_kingdoms(turn) {
        let limit = economy::annex_limit(&turn.state, &k);
        let mut count = economy::annex_count(&turn.state, &k);
        let kingdom = &turn.state.kingdoms[&k];
        let status = kingdom.status;
        let starting = kingdom.starting.clone();
        let latest_first: Vec<LocId> = kingdom.annexed.iter().rev().copied().collect();
        for p in latest_first {
            if count <= limit {
                break;
            }
            if starting.contains(&p)
                || turn
                    .state
                    .provinces
                    .get(&p)
                    .is_none_or(|q| q.annexed_to != k)
            {
                continue;
            }
            economy::set_annexer(&mut turn.state, p, &KingdomCode::independents());
            count -= 1;
            let name = turn.map.get(p).map_or(String::new(), |l| l.name.clone());
            turn.emit(
                WHEN,
                What::LimitEnforced {
                    kingdom: k.clone(),
                    what: format!(
                        "the annexation of {p} {name} reverts to the independents: \
                         at most {limit} annexed provinces beyond the starting ones"
                    ),
                },
            );
        }
        if status != Status::Commoner {
            continue;
        }
        let mut deserted = Vec::new();
        for u in turn.state.units.iter_mut().filter(|u| u.owner == k) {
            for l in u.leaders.drain(..) {
                deserted.push(What::LeaderLost {
                    unit: (u.owner.clone(), u.id),
                    leader: l.name,
                    reason: "no leader serves a Commoner: he deserts (G28)".to_string(),
                });
            }
            u.unit_leader = None;
        }
        for e in deserted {
            turn.emit(WHEN, e);
        }
    }
}

/// L19, G39: a kingdom with no province and no troop left is out of the game; what
/// remains of it (leaders, empty units) is removed.
fn defeated(turn: &mut Turn) {
    const WHEN: When = When::Final(19);
    for k in playing_kingdoms(turn) {
        let has_land = turn.state.provinces.values().any(|p| p.owner == k);
        let has_troops = turn
            .state
            .units
            .iter()
            .any(|u| u.owner == k && !u.troops.is_empty());
        if has_land || has_troops {
            continue;
        }
        if let Some(x) = turn.state.kingdoms.get_mut(&k) {
            x.alive = false;
        }
        turn.state.units.retain(|u| u.owner != k);
        turn.emit(WHEN, What::KingdomDefeated { kingdom: k });
    }
}
