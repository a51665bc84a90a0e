//! Leaders for the computer's armies (2.5, L5, F9). A leader adds his skills to the unit he
//! leads, so the computer puts the leaders it has at the head of its armies, and a Royal
//! ruler (the only one leaders join, 2.10) hires more while some army lacks one.
//!
//! - **Handing on**: a leader in a garrison whose province is not threatened goes to a
//!   leaderless army standing with it (one the sheet forms there, or one already there),
//!   before movement (F9), so the army marches under him this very turn.
//! - **Hiring**: one leader a turn, in the capital's garrison (a city, L5), when some army
//!   is still leaderless and the purse can pay the fee and keep him; the new leader is in
//!   the garrison from the end of the turn, to be handed on to the next army formed there.

use crate::purse::Purse;
use crate::sheet::Sheet;
use crate::view::View;
use napoleonic_rules::fixed::{Fixed, Gold};
use napoleonic_rules::ids::{LocId, UnitId, UnitKind};
use napoleonic_rules::state::{Status, Unit};
use std::collections::BTreeMap;

pub(crate) fn lead(view: &View, sheet: &mut Sheet, purse: &mut Purse) {
    let state = view.state;
    let mine = |u: &&Unit| u.owner == view.me;
    // Leaderless armies by place: those the kingdom has on land, and those the sheet forms.
    let mut leaderless: BTreeMap<LocId, Vec<UnitId>> = BTreeMap::new();
    for u in state.units.iter().filter(mine) {
        match u.kind() {
            UnitKind::Army
                if u.aboard.is_none() && u.leaders.is_empty() && !sheet.left(u.id).is_empty() =>
            {
                leaderless.entry(u.location).or_default().push(u.id);
            }
            UnitKind::Garrison => {
                for a in sheet.formed_by(u.id) {
                    if !sheet.left(a).is_empty() {
                        leaderless.entry(u.location).or_default().push(a);
                    }
                }
            }
            _ => {}
        }
    }
    for g in state
        .units
        .iter()
        .filter(mine)
        .filter(|u| u.kind() == UnitKind::Garrison && !u.leaders.is_empty())
    {
        // A threatened garrison keeps its leaders for the walls.
        if view.threat(g.location) > view.own_strength(g.location) {
            continue;
        }
        let Some(armies) = leaderless.get_mut(&g.location) else {
            continue;
        };
        for leader in &g.leaders {
            if sheet.leader_given(&leader.name) {
                continue;
            }
            let Some(army) = armies.pop() else {
                break;
            };
            sheet.give_leader(g.id, army, &leader.name);
        }
    }
    let royal = state
        .kingdoms
        .get(&view.me)
        .is_some_and(|k| k.status == Status::Royalty);
    let still_leaderless = leaderless.values().any(|a| !a.is_empty());
    if !royal || !still_leaderless {
        return;
    }
    let Some(capital) = view.map.kingdom(&view.me).map(|k| k.capital) else {
        return;
    };
    let Some(g) = state
        .units
        .iter()
        .filter(mine)
        .find(|u| u.kind() == UnitKind::Garrison && u.location == capital)
    else {
        return;
    };
    let Ok(cost) = napoleonic_rules::turn::economy::hire_check(view.map, state, &view.me, g.id)
    else {
        return;
    };
    let upkeep: Gold = Fixed::whole(napoleonic_rules::turn::economy::HIRED_LEADER_UPKEEP);
    if purse.can(cost, upkeep) {
        purse.pay(cost, upkeep);
        sheet.hire_leader(g.id);
    }
}
