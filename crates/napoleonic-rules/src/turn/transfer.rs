//! Transfers of troops and leaders between two units standing in the same place: at F9
//! before movement, and at M1 of the phase the plan names (digest 3.1, 3.2 M1, G40).

use super::Turn;
use super::units::{add_leader, describe_counts, merged, name, place, take_leader, take_troops};
use crate::event::{UnitRef, What, When};
use crate::ids::UnitKind;
use crate::orders::{Transfer, TroopCount};

/// The words an order is reported under: "transfer 2 LIN, leader Ney to A5".
pub(crate) fn describe(giver: &UnitRef, t: &Transfer) -> String {
    let mut parts = Vec::new();
    if !t.troops.is_empty() {
        parts.push(describe_counts(&t.troops));
    }
    for l in &t.leaders {
        parts.push(format!("leader {l}"));
    }
    let to = match &t.to_kingdom {
        Some(k) if k != &giver.0 => format!("{k} {}", t.to),
        _ => t.to.to_string(),
    };
    format!("transfer {} to {to}", parts.join(", "))
}

/// Carries out one transfer, or reports why it cannot be. Nothing moves unless everything
/// named can move (a transfer is all or nothing).
pub(crate) fn run(turn: &mut Turn, when: When, giver: &UnitRef, t: &Transfer) {
    let order = describe(giver, t);
    match check(turn, giver, t) {
        Err(reason) => turn.fail(when, &giver.0, Some(giver.1), order, reason),
        Ok(to) => apply(turn, when, giver, &to, t),
    }
}

fn check(turn: &Turn, giver: &UnitRef, t: &Transfer) -> Result<UnitRef, String> {
    let state = &turn.state;
    let g = state
        .unit(&giver.0, giver.1)
        .ok_or_else(|| format!("{} no longer exists", name(giver)))?;
    // M1: a unit that retreated from a sea battle does nothing more this turn.
    if g.retreated {
        return Err(format!("{} retreated this turn", name(giver)));
    }
    let to: UnitRef = (
        t.to_kingdom.clone().unwrap_or_else(|| giver.0.clone()),
        t.to,
    );
    if &to == giver {
        return Err("a unit cannot transfer to itself".to_string());
    }
    let r = state
        .unit(&to.0, to.1)
        .ok_or_else(|| format!("there is no unit {}", name(&to)))?;
    // 3.1 F9, M1: "troops can only transfer if they're in the same place at the same time".
    if r.location != g.location {
        return Err(format!(
            "{} is in {} and {} in {}: troops only change units in the same place",
            name(giver),
            place(turn.map, g.location),
            name(&to),
            place(turn.map, r.location)
        ));
    }
    // G40: a foreign recipient must accept gifts from the giver (2.8 acceptance).
    if to.0 != giver.0
        && state
            .kingdoms
            .get(&to.0)
            .is_none_or(|k| k.refuses.contains(&giver.0) || !k.alive)
    {
        return Err(format!("{} accepts nothing from {}", to.0, giver.0));
    }
    if t.troops.iter().all(|c| c.count == 0) && t.leaders.is_empty() {
        return Err("nothing to transfer".to_string());
    }
    let tables = &state.tables;
    for (code, count) in merged(&t.troops) {
        if count == 0 {
            continue;
        }
        let Some(kind) = tables.troop(&code) else {
            return Err(format!("there is no troop type {code}"));
        };
        if (g.count(&code) as u64) < u64::from(count) {
            return Err(format!(
                "{} holds {} {code}, not {count}",
                name(giver),
                g.count(&code)
            ));
        }
        // Proposal to M1: soldiers go to armies and garrisons; ships to fleets, or to a
        // garrison whose province has a city and a harbour.
        let fits = if kind.is_ship() {
            match r.kind() {
                UnitKind::Fleet => true,
                UnitKind::Garrison => {
                    turn.map.get(r.location).is_some_and(|l| l.city.is_some())
                        && state.provinces.get(&r.location).is_some_and(|p| p.harbour)
                }
                UnitKind::Army => false,
            }
        } else {
            r.kind() != UnitKind::Fleet
        };
        if !fits {
            return Err(if kind.is_ship() {
                format!(
                    "ships go only to a fleet or to a garrison with a city and a harbour, and {} is not one",
                    name(&to)
                )
            } else {
                format!(
                    "soldiers go only to an army or a garrison, and {} is a fleet",
                    name(&to)
                )
            });
        }
    }
    let mut seen: Vec<String> = Vec::new();
    for l in &t.leaders {
        let key = l.trim().to_ascii_lowercase();
        if seen.contains(&key) {
            return Err(format!("leader {l} is named twice"));
        }
        if !g
            .leaders
            .iter()
            .any(|x| x.name.eq_ignore_ascii_case(l.trim()))
        {
            return Err(format!("{} has no leader named {l}", name(giver)));
        }
        seen.push(key);
    }
    Ok(to)
}

fn apply(turn: &mut Turn, when: When, giver: &UnitRef, to: &UnitRef, t: &Transfer) {
    let mut troops = Vec::new();
    let mut leaders = Vec::new();
    let mut moved_counts: Vec<TroopCount> = Vec::new();
    if let Some(g) = turn.state.unit_mut(&giver.0, giver.1) {
        for (code, count) in merged(&t.troops) {
            if count == 0 {
                continue;
            }
            // 3.3: transferred troops bring their remaining MP, and keep their rank.
            if let Some(mut taken) = take_troops(g, &code, count) {
                troops.append(&mut taken);
                moved_counts.push(TroopCount { code, count });
            }
        }
        for l in &t.leaders {
            if let Some(x) = take_leader(g, l) {
                leaders.push(x);
            }
        }
    }
    let names: Vec<String> = leaders.iter().map(|l| l.name.clone()).collect();
    if let Some(r) = turn.state.unit_mut(&to.0, to.1) {
        r.troops.extend(troops);
        for l in leaders {
            add_leader(r, l);
        }
    }
    turn.emit(
        when,
        What::Transferred {
            from: giver.clone(),
            to: to.clone(),
            troops: moved_counts,
            leaders: names,
        },
    );
}
