//! Events in words, for the report sections that list them.

use crate::model::Claim;
use empires_rules::event::{LandBattle, SeaFight};
use empires_rules::words::count;

/// Any event not told by the functions above, in words, for the GM's summary: nothing is
/// left as raw data.
pub fn other_event(w: &empires_rules::event::What) -> String {
    use empires_rules::event::What;
    match w {
        What::NoRouteToBase {
            empire,
            area,
            ships,
            armies,
        } => format!(
            "{empire}'s fleet in {area} has no route to base: {} and {} dispersed (7.2)",
            count(*ships, "ship"),
            count(*armies, "army")
        ),
        What::SpyKilled {
            victim,
            by,
            area,
            how,
        } => format!("{victim}'s spy killed in {area} by {by}: {how}"),
        What::SpyFound {
            finder,
            spy_of,
            area,
        } => format!("{finder} found {spy_of}'s spy in {area}"),
        What::WatcherEliminated { victim, by, area } => {
            format!("{victim}'s watcher in {area} eliminated by {by}")
        }
        What::Message { from, text } => format!("message from {from}: {text}"),
        What::CashReturned { empire, bps } => {
            format!("{empire}: {} back to the treasury (3.6)", count(*bps, "BP"))
        }
        What::Leftover {
            empire,
            trains,
            armies,
            order_bps,
        } => {
            let mut parts = Vec::new();
            if *trains > 0 {
                parts.push(format!("{} in the capital", count(*trains, "supply train")));
            }
            parts.push(format!("{} for the reserve", count(*armies, "army")));
            parts.push(format!("a bid of {}", count(*order_bps, "BP")));
            format!("{empire}: leftover BPs built {} (3.7)", parts.join(", "))
        }
        What::Dispersal {
            empire,
            area,
            armies,
            ships,
            present,
            hold,
            trains,
        } => format!(
            "dispersal in {area} ({}): {}",
            empire.map_or("unowned".to_string(), |e| e.to_string()),
            dispersal(*armies, *ships, *present, *hold, *trains)
        ),
        What::Census { empire, vps } => format!("census: {empire} scores {}", count(*vps, "VP")),
        What::Economy {
            empire,
            income,
            supply,
            bps,
        } => format!(
            "{empire}: income {income}, supply costs {supply}, {} for next turn",
            count(*bps, "BP")
        ),
        What::Eliminated { empire } => format!("{empire} is eliminated (11.1)"),
        What::VictoryWarning { claim } => format!(
            "victory warning: {} meets the {} condition with {}",
            claim.empire,
            format!("{:?}", claim.condition).to_lowercase(),
            count(claim.vps, "VP")
        ),
        What::GameOver { claim } => format!(
            "game over: {} wins a {} victory with {}",
            claim.empire,
            format!("{:?}", claim.condition).to_lowercase(),
            count(claim.vps, "VP")
        ),
        What::OrderOfPlay { order } => format!(
            "order of play for the next turn: {}",
            order
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        What::Unowned { area, growth } => format!("unowned {area}: +1 {growth:?}").to_lowercase(),
        What::Action { .. } | What::SeaBattle { .. } | What::LandBattle(_) => {
            "an action or battle".into()
        }
    }
}

/// A report's variant ("medieval") as prose writes it ("Medieval").
pub fn variant(name: &str) -> &str {
    empires_rules::Variant::parse(name).map_or(name, |v| v.title())
}

/// A victory warning a player can act on: who, which condition and what it means, and when
/// the game could end (11.6, decision 19).
pub fn victory_warning(w: &Claim) -> String {
    let meaning = match w.condition.as_str() {
        "runaway" => "at least twice the VPs of the next best empire",
        "knockout" => "at least 40% of all the VPs of the surviving empires",
        "points" => "more VPs than the game's points target",
        _ => "a victory condition",
    };
    format!(
        "{} has {}, {meaning}: the {} victory condition (11.6). Census turns are never \
         announced; if any empire meets a victory condition at the end of the next one, the \
         game ends there. Until then, and if none does, play goes on.",
        w.empire,
        count(w.vps, "VP"),
        w.condition
    )
}

/// A land battle in one sentence.
pub fn land_battle(b: &LandBattle) -> String {
    let defender = b
        .defender
        .map_or("the neutrals".to_string(), |d| d.to_string());
    if b.captured {
        format!(
            "{} captured {} from {} with {} against {} of {defender} ({} v {})",
            b.attacker,
            b.area,
            b.from,
            count(b.attackers, "army"),
            b.defenders,
            b.attack_strength,
            b.defence_strength
        )
    } else {
        format!(
            "{} attacked {} from {} with {} and was repulsed by {} of {defender} ({} v {})",
            b.attacker,
            b.area,
            b.from,
            count(b.attackers, "army"),
            b.defenders,
            b.attack_strength,
            b.defence_strength
        )
    }
}

/// A land battle in one sentence for the empire whose area was attacked: the numbers, the
/// losses, the damage and why the area fell or held (8.8-8.14).
pub fn land_battle_defended(b: &LandBattle) -> String {
    let damage = if b.population_lost + b.forts_lost > 0 {
        format!(
            "; collateral damage {} population, {} fort levels",
            b.population_lost, b.forts_lost
        )
    } else {
        String::new()
    };
    let retreat = match &b.retreated_to {
        Some(r) => format!("; your armies retreated to {r}"),
        None => String::new(),
    };
    format!(
        "{} attacked your {} from {} with {} armies against your {} ({} v {}); they lost {}, you lost {}{retreat}{damage}; {}: {}",
        b.attacker,
        b.area,
        b.from,
        b.attackers,
        b.defenders,
        b.attack_strength,
        b.defence_strength,
        b.attacker_lost,
        b.defender_lost,
        if b.captured {
            "the area fell"
        } else {
            "the area held"
        },
        b.verdict()
    )
}

/// An end-of-turn dispersal with its rule and numbers (6.5, S.8, 7.2).
pub fn dispersal(armies: u32, ships: u32, present: u32, hold: u32, trains: u32) -> String {
    if ships > 0 {
        return format!(
            "the fleet has no route to its base: {ships} ship{} and {armies} arm{} dispersed (6.5, 7.2)",
            if ships == 1 { "" } else { "s" },
            if armies == 1 { "y" } else { "ies" }
        );
    }
    let rule = if hold < 2 {
        format!(
            "{} with population + forts of {hold}, under 2: half of them, {}",
            count(present, "army"),
            present / 2
        )
    } else {
        format!(
            "{} against population + forts of {hold}: {present} / {hold} = {}",
            count(present, "army"),
            present / hold
        )
    };
    let cut = if trains > 0 {
        format!(", less {trains} for the supply trains there (S.8)")
    } else {
        String::new()
    };
    format!("{rule}{cut}; {armies} went back to the reserve (6.5)")
}

/// The phases of a land battle, one line each (8.2-8.14).
pub fn phases(b: &LandBattle) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(a) = &b.air {
        out.push(format!(
            "air: {} aircraft against {}; losses {} and {}; {} hits carried against the defender, {} against the attacker",
            a.attacker_air, a.defender_air, a.attacker_lost, a.defender_lost, a.carried_to_defender, a.carried_to_attacker
        ));
    }
    if let Some(s) = &b.sea {
        let stranded = match b.lost_at_sea {
            0 => String::new(),
            n => format!(
                "; {n} attacking {} lost with the sunken ships, before the land phase",
                if n == 1 { "army" } else { "armies" }
            ),
        };
        out.push(format!("sea: {}{stranded}", sea(s)));
    }
    if let Some(r) = &b.retreated_to {
        out.push(format!(
            "the defenders retreated to {r} before the land phase"
        ));
    }
    out.push(format!(
        "land: strength {} against {}; losses {} and {}{}",
        b.attack_strength,
        b.defence_strength,
        b.attacker_lost,
        b.defender_lost,
        if b.ambushed {
            " (ambushed: one more attacker lost)"
        } else {
            ""
        }
    ));
    out.push(format!(
        "collateral damage: {} population, {} fort levels{}",
        b.population_lost,
        b.forts_lost,
        if b.trains_lost > 0 {
            format!(", {} supply trains", b.trains_lost)
        } else {
            String::new()
        }
    ));
    out.push(if b.captured {
        format!(
            "captured: {}; {} moved in, {} went back",
            b.verdict(),
            b.moved_in,
            b.returned
        )
    } else {
        format!("repulsed: {}; {} went back", b.verdict(), b.returned)
    });
    out
}

/// The numbers of a fight between ships.
pub fn sea(s: &SeaFight) -> String {
    format!(
        "{} ships against {}; losses {} and {}",
        s.attacker_ships, s.defender_ships, s.attacker_lost, s.defender_lost
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use empires_rules::EmpireCode;

    fn battle(lost_at_sea: u32) -> LandBattle {
        LandBattle {
            area: "AAA".parse().unwrap(),
            from: "NSE".parse().unwrap(),
            attacker: EmpireCode::parse("BB").unwrap(),
            defender: EmpireCode::parse("AA").ok(),
            attackers: 6,
            defenders: 4,
            air: None,
            sea: Some(SeaFight {
                attacker_ships: 6,
                defender_ships: 6,
                attacker_lost: 2,
                defender_lost: 2,
            }),
            retreated_to: None,
            attack_strength: 4,
            defence_strength: 4,
            attacker_lost: 3,
            defender_lost: 1,
            ambushed: false,
            lost_at_sea,
            population_lost: 1,
            forts_lost: 0,
            trains_lost: 0,
            survivors: 3,
            population_left: 1,
            captured: false,
            moved_in: 0,
            returned: 3,
            attacker_vps: -2,
            defender_vps: -1,
        }
    }

    #[test]
    fn the_sea_phase_says_how_many_attackers_went_down_with_their_ships() {
        // 8.1, 8.5 (decision 31): the reader learns why fewer armies fought on land.
        let p = phases(&battle(2));
        assert_eq!(
            p[0],
            "sea: 6 ships against 6; losses 2 and 2; 2 attacking armies lost with the sunken ships, before the land phase"
        );
        assert_eq!(
            phases(&battle(0))[0],
            "sea: 6 ships against 6; losses 2 and 2"
        );
    }
}
