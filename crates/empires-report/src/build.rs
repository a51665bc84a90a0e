//! Building one empire's report from the state at the end of a turn and the turn's events,
//! keeping to what the empire may know (10.1-10.6).

use crate::cached;
use crate::describe;
use crate::model::*;
use empires_rules::engine::{area_supply, fleet_distance};
use empires_rules::event::{Event, Outcome, Phase, What};
use empires_rules::knowledge::visible_areas_of_all;
use empires_rules::map::AreaId;
use empires_rules::order::Verb;
use empires_rules::state::{DefenceMode, GameState, VictoryClaim};
use empires_rules::{EmpireCode, Map, supply};
use std::collections::BTreeMap;

/// What a report is made from.
pub struct Turn<'a> {
    pub map: &'a Map,
    /// The state at the end of the turn.
    pub state: &'a GameState,
    /// The turn's events (empty for the starting position).
    pub events: &'a [Event],
    /// Empires whose orders the computer wrote this turn.
    pub computer_written: &'a [EmpireCode],
    /// Messages from the GM for everyone.
    pub gm_messages: &'a [String],
    /// The name the blank turnsheets give on their `GAME` line when the host keeps the game
    /// under another name than its title (`state.game`); `None` for the title.
    pub sheet_game: Option<&'a str>,
}

fn round(p: Phase) -> u32 {
    match p {
        Phase::Round(r) => r,
        _ => 0,
    }
}

fn defence(d: DefenceMode) -> String {
    match d {
        DefenceMode::Defend => "defend",
        DefenceMode::Entrench => "entrench",
        DefenceMode::Ambush => "ambush",
        DefenceMode::Retreat => "retreat",
    }
    .to_string()
}

fn claim(c: &VictoryClaim) -> Claim {
    Claim {
        empire: c.empire.to_string(),
        condition: format!("{:?}", c.condition).to_ascii_lowercase(),
        vps: c.vps,
        turn: c.turn,
    }
}

/// The parts of a turn's reports that are the same for every empire (10.3, 10.4, 10.6).
pub struct Shared {
    pub roundup: cached::Shared<Roundup>,
    pub actions_report: cached::Shared<Vec<PublicEvent>>,
    pub messages: cached::Shared<Vec<MessageLine>>,
    /// For each empire, the events that concern it, in order: each report reads only its
    /// own rather than every event of the turn.
    concerning: BTreeMap<EmpireCode, Vec<usize>>,
    /// What each empire sees (10.2), in the order of the state's empires.
    sight: Vec<Vec<bool>>,
}

/// Works out the shared parts once, for all the reports of a turn.
pub fn shared(t: &Turn) -> Shared {
    let mut messages: Vec<MessageLine> = t
        .events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Message { from, text } => Some(MessageLine {
                from: from.to_string(),
                text: text.clone(),
            }),
            _ => None,
        })
        .collect();
    messages.extend(t.gm_messages.iter().map(|m| MessageLine {
        from: "GM".into(),
        text: m.clone(),
    }));
    let mut concerning: BTreeMap<EmpireCode, Vec<usize>> = BTreeMap::new();
    for (i, ev) in t.events.iter().enumerate() {
        for &e in &ev.concerns {
            concerning.entry(e).or_default().push(i);
        }
    }
    Shared {
        roundup: cached::Shared::new(roundup(t)),
        actions_report: cached::Shared::new(public_events(t)),
        messages: cached::Shared::new(messages),
        concerning,
        sight: visible_areas_of_all(t.map, t.state),
    }
}

/// One empire's report.
pub fn report(t: &Turn, empire: EmpireCode) -> Report {
    report_with(t, &shared(t), empire)
}

/// One empire's report, with the shared parts already worked out.
pub fn report_with(t: &Turn, sh: &Shared, empire: EmpireCode) -> Report {
    let st = t.state;
    let me = st.empire(empire).expect("the empire is in the game");
    let european = st.variant.has_supply();
    let mut actions = Vec::new();
    let mut against_you = Vec::new();
    let mut seen_by_action: Vec<AreaId> = Vec::new();
    let mut econ = EndOfTurn::default();
    // Every event of an empire's own names it among the empires concerned.
    let mine = sh.concerning.get(&empire).map_or(&[][..], Vec::as_slice);
    for ev in mine.iter().map(|&i| &t.events[i]) {
        match &ev.what {
            What::Action {
                empire: who,
                slot,
                line,
                order,
                outcome,
                spent,
                result,
                seen,
                ..
            } if *who == empire => {
                let (status, reason) = match outcome {
                    Outcome::Done => ("done", None),
                    Outcome::CutDown { reason } => ("cut_down", Some(reason.clone())),
                    Outcome::Failed { reason } => ("failed", Some(reason.clone())),
                    Outcome::Ignored { reason } => ("ignored", Some(reason.clone())),
                };
                actions.push(ActionLine {
                    slot: *slot,
                    line: *line,
                    order: order.clone(),
                    status: status.to_string(),
                    reason,
                    result: result.clone(),
                    spent: *spent,
                    setback: false,
                });
                seen_by_action.extend(seen.iter().filter_map(|c| t.map.id(*c)));
            }
            What::CashReturned { empire: e, bps } if *e == empire => econ.cash = *bps,
            What::Leftover {
                empire: e,
                trains,
                armies,
                order_bps,
            } if *e == empire => {
                econ.trains = *trains;
                econ.armies = *armies;
                econ.bid = *order_bps;
            }
            What::Dispersal {
                empire: Some(e),
                area,
                armies,
                ships,
                present,
                hold,
                trains,
            } if *e == empire => econ.dispersals.push(DispersalLine {
                area: area.as_str().to_owned(),
                armies: *armies,
                ships: *ships,
                reason: describe::dispersal(*armies, *ships, *present, *hold, *trains),
            }),
            What::Census { empire: e, vps } if *e == empire => {
                econ.census = Some(*vps);
                econ.vps.push(VpChange {
                    vps: *vps as i32,
                    why: format!("census: {vps} populated areas owned (11.2)"),
                });
            }
            w => {
                // A battle the empire fought: its VPs (8.14, 11.4, 11.5), and, for the
                // attacker, whether its attack went against it.
                match w {
                    What::LandBattle(b) if b.attacker == empire => {
                        econ.vps.push(VpChange {
                            vps: b.attacker_vps,
                            why: if b.captured {
                                format!(
                                    "captured {} with population {} (8.14, 11.4)",
                                    b.area, b.population_left
                                )
                            } else {
                                format!(
                                    "attack on {} failed, {} population destroyed (11.5)",
                                    b.area, b.population_lost
                                )
                            },
                        });
                        if !b.captured
                            && let Some(a) = actions.last_mut()
                        {
                            a.setback = true;
                        }
                    }
                    What::LandBattle(b) if b.defender == Some(empire) && b.defender_vps != 0 => {
                        econ.vps.push(VpChange {
                            vps: b.defender_vps,
                            why: if b.captured {
                                format!("lost {} to {} (8.14, 11.4)", b.area, b.attacker)
                            } else {
                                format!(
                                    "{} population destroyed in {} by {}'s attack (11.5)",
                                    b.population_lost, b.area, b.attacker
                                )
                            },
                        });
                    }
                    What::SeaBattle {
                        attacker,
                        attacker_won: false,
                        ..
                    } if *attacker == empire => {
                        if let Some(a) = actions.last_mut() {
                            a.setback = true;
                        }
                    }
                    _ => {}
                }
                if let Some((text, tone)) = against(w, empire) {
                    let by = ev.concerns.iter().find(|c| **c != empire);
                    against_you.push(Happening {
                        round: round(ev.phase),
                        by: by.map(|c| c.as_str().to_owned()),
                        text,
                        tone: tone.to_owned(),
                    });
                }
            }
        }
    }
    // One pass over the map finds the empire's areas, fleets, supply costs and watchers.
    let mut areas: Vec<OwnedArea> = Vec::new();
    let mut fleets = Vec::new();
    let mut supply_by_area = Vec::new();
    let mut watchers = Vec::new();
    for (id, a) in t.map.ids().zip(&st.areas) {
        let fleet = a.fleet.as_ref().filter(|f| f.owner == empire);
        let cost = if a.owner == Some(empire) {
            let area = owned_area(t, id, european);
            let cost = area.supply_cost;
            areas.push(area);
            Some(cost)
        } else {
            fleet.map(|_| area_supply(t.map, st, id))
        };
        if let Some(f) = fleet {
            fleets.push(FleetLine {
                area: t.map.code(id).as_str().to_owned(),
                ships: f.ships,
                armies: f.armies,
                base: f.base.map(|b| b.as_str().to_owned()),
                distance: fleet_distance(t.map, st, id, f),
            });
        }
        if let Some(cost) = cost.filter(|&c| c > 0) {
            supply_by_area.push(AreaCost {
                area: t.map.code(id).as_str().to_owned(),
                cost,
            });
        }
        if a.watcher == Some(empire) {
            watchers.push(t.map.code(id).as_str().to_owned());
        }
    }
    supply_by_area.sort_by(|a, b| a.area.cmp(&b.area));
    let economy = Economy {
        income: me.income,
        supply_cost: me.supply_cost,
        supply_by_area,
        reserves_supply: me.army_reserve / 4 + me.navy_reserve / 4 + me.air_force / 4,
        bps: me.bps,
        treasury: me.treasury,
        vps: me.vps,
        army_reserve: me.army_reserve,
        navy_reserve: me.navy_reserve,
        air_force: st.variant.has_air().then_some(me.air_force),
        cash_returned: econ.cash,
        leftover_trains: econ.trains,
        leftover_armies: econ.armies,
        order_bid: econ.bid,
        dispersals: econ.dispersals,
        census_vps: econ.census,
        vp_changes: econ.vps,
    };
    let o = &st.options;
    Report {
        version: REPORT_VERSION,
        game: st.game.clone(),
        map: t.map.name.clone(),
        variant: st.variant.to_string(),
        settings: Settings {
            actions_per_turn: me.actions_per_turn.unwrap_or(o.actions_per_turn),
            sea_supply: match o.sea_supply {
                empires_rules::variant::SeaSupply::DistancePlusHalf => "distance_plus_half",
                empires_rules::variant::SeaSupply::DistanceOnly => "distance_only",
            }
            .into(),
            blockade_means_not_owned: o.blockade_means_not_owned,
            dropout_after: o.dropout_after,
            points_target: o.points_target,
            victory_from_turn: o.victory_from_turn,
        },
        turn: st.turn,
        next_turn: st.turn + 1,
        empire: EmpireLine {
            code: empire.as_str().to_owned(),
            name: me.name.clone(),
            player: me.player.clone(),
            eliminated: me.eliminated,
        },
        computer_written: t.computer_written.contains(&empire),
        actions,
        against_you,
        economy,
        areas,
        fleets,
        spy: me.spy.as_ref().map(|s| s.area.as_str().to_owned()),
        spy_waiting_for: me
            .spy
            .as_ref()
            .and_then(|s| s.waiting_for)
            .map(|w| w.as_str().to_owned()),
        watchers,
        scouting: scouting(t, sh, empire, &seen_by_action),
        supply: european.then(|| SupplyLine {
            capacity: me.supply_capacity,
            capital: me.capital.map(|c| c.as_str().to_owned()),
        }),
        shared_in: None,
        roundup: sh.roundup.clone(),
        actions_report: sh.actions_report.clone(),
        messages: sh.messages.clone(),
    }
}

/// What the end of the turn did with an empire's BPs, gathered from its events.
#[derive(Default)]
struct EndOfTurn {
    cash: u32,
    trains: u32,
    armies: u32,
    bid: u32,
    dispersals: Vec<DispersalLine>,
    census: Option<u32>,
    vps: Vec<VpChange>,
}

/// What another empire did to this one, in words, with how it turned out for this one
/// (`good`, `bad` or empty); `None` for anything else. Attacks show as their battles.
fn against(w: &What, empire: EmpireCode) -> Option<(String, &'static str)> {
    match w {
        // Worded for the empire it was done to; battles and spies killed are told by their
        // own events, so an action with nothing to tell adds nothing.
        What::Action {
            empire: who,
            order,
            outcome,
            told: Some(told),
            ..
        } if *who != empire && outcome.succeeded() => {
            let verb = order.split_whitespace().next().and_then(Verb::parse);
            let tone = match verb {
                Some(Verb::Sabotage) => "bad",
                Some(Verb::Gift | Verb::Wagons | Verb::Unload | Verb::Spy | Verb::Skip) => "good",
                _ => "",
            };
            Some((told.clone(), tone))
        }
        What::LandBattle(b) if b.defender == Some(empire) => Some((
            describe::land_battle_defended(b),
            if b.captured { "bad" } else { "good" },
        )),
        What::SeaBattle {
            area,
            attacker,
            defender,
            fight,
            attacker_won,
            ..
        } if *defender == empire => Some((
            format!(
                "{attacker}'s ships attacked yours in {area}: {}; {}",
                describe::sea(fight),
                if *attacker_won {
                    "yours were swept away"
                } else {
                    "yours held"
                }
            ),
            if *attacker_won { "bad" } else { "good" },
        )),
        What::SpyKilled {
            victim, by, area, ..
        } if *victim == empire => Some((format!("your spy was killed in {area} by {by}"), "bad")),
        What::WatcherEliminated { victim, area, .. } if *victim == empire => Some((
            format!("your watcher in {area} was found and eliminated"),
            "bad",
        )),
        _ => None,
    }
}

fn owned_area(t: &Turn, a: AreaId, european: bool) -> OwnedArea {
    let (def, st) = (t.map.area(a), t.state.area(a));
    OwnedArea {
        code: def.code.as_str().to_owned(),
        name: def.name.clone(),
        terrain: def.terrain.name().to_owned(),
        population: st.population,
        armies: st.armies,
        forts: st.forts,
        defence: defence(st.defence),
        against: st.defence_against.map(|c| c.as_str().to_owned()),
        retreat_to: st.retreat_to.map(|c| c.as_str().to_owned()),
        base: st.base.as_ref().map(|b| BaseLine {
            entrance: b.entrance.as_str().to_owned(),
            ships: b.ships,
            laid_up: b.laid_up,
        }),
        supply_cost: area_supply(t.map, t.state, a),
        trains: european.then_some(st.trains),
        supply_source: if european {
            supply::source(t.map, t.state, a).map(|s| t.map.code(s).to_string())
        } else {
            None
        },
        neighbours: neighbours(t.map, a),
    }
}

/// The codes of an area's neighbours, in the map's order (4.1).
fn neighbours(map: &Map, a: AreaId) -> Vec<String> {
    map.neighbours(a)
        .iter()
        .map(|&n| map.code(n).as_str().to_owned())
        .collect()
}

/// 10.2: areas in sight at the end of the turn, besides the empire's own.
fn scouting(t: &Turn, sh: &Shared, empire: EmpireCode, by_action: &[AreaId]) -> Vec<ScoutedArea> {
    let st = t.state;
    let Some(seen) = st.empire_index(empire).and_then(|e| sh.sight.get(e)) else {
        return Vec::new();
    };
    let spy = st
        .empire(empire)
        .and_then(|e| e.spy.as_ref())
        .and_then(|s| t.map.id(s.area));
    let mut by_action_here = vec![false; seen.len()];
    for a in by_action {
        by_action_here[a.index()] = true;
    }
    let mut out = Vec::new();
    for id in t.map.ids() {
        let a = st.area(id);
        let by_action = by_action_here[id.index()];
        if a.owner == Some(empire) || !(seen[id.index()] || by_action) {
            continue;
        }
        let mut why = Vec::new();
        let borders = |pred: &dyn Fn(AreaId) -> bool| t.map.neighbours(id).iter().any(|&n| pred(n));
        if borders(&|n| st.area(n).owner == Some(empire)) {
            why.push("border");
        }
        let own_fleet = |n: AreaId| st.area(n).fleet.as_ref().is_some_and(|f| f.owner == empire);
        if own_fleet(id) || borders(&own_fleet) {
            why.push("fleet");
        }
        if spy == Some(id) {
            why.push("spy");
        }
        if a.watcher == Some(empire) {
            why.push("watcher");
        }
        if by_action {
            why.push("action");
        }
        if why.is_empty() {
            continue;
        }
        let def = t.map.area(id);
        out.push(ScoutedArea {
            code: def.code.as_str().to_owned(),
            name: def.name.clone(),
            terrain: def.terrain.name().to_owned(),
            owner: a.owner.map(|o| o.as_str().to_owned()),
            population: a.population,
            armies: a.armies,
            forts: a.forts,
            base_ships: a.base.as_ref().map(|b| b.ships),
            base_entrance: a.base.as_ref().map(|b| b.entrance.as_str().to_owned()),
            fleet: a.fleet.as_ref().map(|f| FleetSighting {
                owner: f.owner.as_str().to_owned(),
                ships: f.ships,
                armies: f.armies,
            }),
            trains: st.variant.has_supply().then_some(a.trains),
            seen_by: why.into_iter().map(String::from).collect(),
            neighbours: neighbours(t.map, id),
        });
    }
    out
}

/// 10.3: the roundup, the same for everyone.
pub fn roundup(t: &Turn) -> Roundup {
    let st = t.state;
    let mut areas: BTreeMap<EmpireCode, Vec<String>> = BTreeMap::new();
    for (id, a) in t.map.ids().zip(&st.areas) {
        if let Some(o) = a.owner {
            areas.entry(o).or_default().push(t.map.code(id).to_string());
        }
    }
    Roundup {
        order_of_play: st.order_of_play.iter().map(|c| c.to_string()).collect(),
        empires: st
            .empires
            .iter()
            .map(|e| RoundupEmpire {
                code: e.code.to_string(),
                name: e.name.clone(),
                player: e.player.clone(),
                areas: areas.get(&e.code).cloned().unwrap_or_default(),
                treasury: e.treasury,
                army_reserve: e.army_reserve,
                eliminated: e.eliminated,
                phone: e.phone.clone(),
                email: e.email.clone(),
            })
            .collect(),
        leader_score: st
            .empires
            .iter()
            .filter(|e| e.alive())
            .map(|e| e.vps)
            .max()
            .unwrap_or(0),
        warning: st.victory_warning.as_ref().map(claim),
        game_over: st.result.as_ref().map(claim),
    }
}

/// 10.4: captures, failed attacks, sea battles, new armies deployed and eliminations.
pub fn public_events(t: &Turn) -> Vec<PublicEvent> {
    let mut out = Vec::new();
    for ev in t.events {
        let r = round(ev.phase);
        let e = match &ev.what {
            What::LandBattle(b) => PublicEvent {
                round: r,
                kind: if b.captured { "capture" } else { "attack" }.into(),
                text: describe::land_battle(b),
                capture: b.captured,
                major: b.major(),
                battle: Some(BattleLine {
                    area: b.area.to_string(),
                    from: b.from.to_string(),
                    attacker: b.attacker.to_string(),
                    defender: b.defender.map(|d| d.to_string()),
                    attackers: b.attackers,
                    defenders: b.defenders,
                    attack_strength: b.attack_strength,
                    defence_strength: b.defence_strength,
                    attacker_lost: b.attacker_lost,
                    defender_lost: b.defender_lost,
                    phases: describe::phases(b),
                }),
            },
            What::SeaBattle {
                area,
                from,
                attacker,
                defender,
                fight,
                attacker_won,
                ..
            } => PublicEvent {
                round: r,
                kind: "sea_battle".into(),
                text: format!(
                    "{attacker}'s ships from {from} fought {defender}'s in {area} and {}",
                    if *attacker_won {
                        "won"
                    } else {
                        "were beaten off"
                    }
                ),
                capture: false,
                major: fight.attacker_ships >= 10 && fight.defender_ships >= 10,
                battle: Some(BattleLine {
                    area: area.to_string(),
                    from: from.to_string(),
                    attacker: attacker.to_string(),
                    defender: Some(defender.to_string()),
                    attackers: fight.attacker_ships,
                    defenders: fight.defender_ships,
                    attack_strength: fight.attacker_ships,
                    defence_strength: fight.defender_ships,
                    attacker_lost: fight.attacker_lost,
                    defender_lost: fight.defender_lost,
                    phases: vec![describe::sea(fight)],
                }),
            },
            What::Action {
                empire,
                order,
                result,
                outcome,
                ..
            } if outcome.succeeded() && deploys(order) => PublicEvent {
                round: r,
                kind: "deployed".into(),
                text: format!("{empire} {result}"),
                capture: false,
                major: false,
                battle: None,
            },
            What::Eliminated { empire } => PublicEvent {
                round: r,
                kind: "eliminated".into(),
                text: format!("{empire} is out of the game"),
                capture: false,
                major: false,
                battle: None,
            },
            _ => continue,
        };
        out.push(e);
    }
    out
}

/// New armies deployed on the map (10.4): placed from the reserve or levied.
fn deploys(order: &str) -> bool {
    let verb = order.split_whitespace().next().and_then(Verb::parse);
    matches!(verb, Some(Verb::Reserve | Verb::Levy | Verb::Mobilise))
}
