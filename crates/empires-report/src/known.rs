//! The game as a player knows it from their own report alone (10.1-10.3): the state a
//! player's own copy of the checker forecasts on, when the game's files (and every other
//! empire's secrets) are on the moderator's machine. It holds exactly what the report
//! shows: the empire's own areas, fleets, spy and economy in full; the areas it saw as they
//! stood; everyone's owners, treasuries and army reserves from the roundup; nothing else.

use crate::model::Report;
use empires_rules::rng::GameRng;
use empires_rules::state::{
    DefenceMode, EmpireState, Fleet, GameState, NavalBase, STATE_FORMAT, Spy,
};
use empires_rules::variant::{Options, SeaSupply};
use empires_rules::{AreaCode, EmpireCode, Map, Variant};

/// Rebuilds what `report`'s empire knows of its game, on `map`. Fails, saying why, when the
/// report does not belong to the map or is not a report this program wrote.
pub fn state_from_report(map: &Map, r: &Report) -> Result<GameState, String> {
    let me = code(&r.empire.code)?;
    let variant = Variant::parse(&r.variant)
        .ok_or_else(|| format!("`{}` is not a variant of Empires", r.variant))?;
    let mut areas = GameState::blank_areas(map);
    let index = |text: &str| -> Result<usize, String> {
        map.find(text)
            .map(|id| id.index())
            .ok_or_else(|| format!("{text} is not an area of the map {}", map.name))
    };
    // 10.3: who owns what is public.
    for e in r.roundup.empires.iter() {
        let owner = code(&e.code)?;
        for a in &e.areas {
            areas[index(a)?].owner = Some(owner);
        }
    }
    for a in &r.areas {
        let area = &mut areas[index(&a.code)?];
        area.owner = Some(me);
        area.population = a.population;
        area.armies = a.armies;
        area.forts = a.forts;
        area.defence = match a.defence.as_str() {
            "defend" => DefenceMode::Defend,
            "entrench" => DefenceMode::Entrench,
            "ambush" => DefenceMode::Ambush,
            _ => DefenceMode::Retreat,
        };
        area.defence_against = a.against.as_deref().map(area_code).transpose()?;
        area.retreat_to = a.retreat_to.as_deref().map(area_code).transpose()?;
        area.trains = a.trains.unwrap_or(0);
        area.base = a
            .base
            .as_ref()
            .map(|b| {
                Ok::<_, String>(NavalBase {
                    entrance: area_code(&b.entrance)?,
                    ships: b.ships,
                    laid_up: b.laid_up,
                    built: 0,
                })
            })
            .transpose()?;
    }
    for s in &r.scouting {
        let area = &mut areas[index(&s.code)?];
        area.owner = s.owner.as_deref().map(code).transpose()?;
        area.population = s.population;
        area.armies = s.armies;
        area.forts = s.forts;
        area.trains = s.trains.unwrap_or(0);
        if let (Some(ships), Some(entrance)) = (s.base_ships, &s.base_entrance) {
            area.base = Some(NavalBase {
                entrance: area_code(entrance)?,
                ships,
                laid_up: 0,
                built: 0,
            });
        }
        area.fleet = s
            .fleet
            .as_ref()
            .map(|f| {
                Ok::<_, String>(Fleet {
                    owner: code(&f.owner)?,
                    ships: f.ships,
                    armies: f.armies,
                    base: None,
                })
            })
            .transpose()?;
    }
    for f in &r.fleets {
        areas[index(&f.area)?].fleet = Some(Fleet {
            owner: me,
            ships: f.ships,
            armies: f.armies,
            base: f.base.as_deref().map(area_code).transpose()?,
        });
    }
    for w in &r.watchers {
        areas[index(w)?].watcher = Some(me);
    }
    let mut empires = Vec::new();
    for e in r.roundup.empires.iter() {
        let mut x = EmpireState::new(code(&e.code)?, &e.name);
        x.player = e.player.clone();
        x.treasury = e.treasury;
        x.army_reserve = e.army_reserve;
        x.eliminated = e.eliminated;
        x.phone = e.phone.clone();
        x.email = e.email.clone();
        if x.code == me {
            let ec = &r.economy;
            x.bps = ec.bps;
            x.vps = ec.vps;
            x.navy_reserve = ec.navy_reserve;
            x.air_force = ec.air_force.unwrap_or(0);
            x.income = ec.income;
            x.supply_cost = ec.supply_cost;
            x.actions_per_turn = Some(r.settings.actions_per_turn);
            x.spy = r
                .spy
                .as_deref()
                .map(|s| {
                    Ok::<_, String>(Spy {
                        area: area_code(s)?,
                        waiting_for: r.spy_waiting_for.as_deref().map(code).transpose()?,
                    })
                })
                .transpose()?;
            if let Some(s) = &r.supply {
                x.supply_capacity = s.capacity;
                x.capital = s.capital.as_deref().map(area_code).transpose()?;
            }
        }
        empires.push(x);
    }
    if !empires.iter().any(|e| e.code == me) {
        return Err(format!("{me} is not in the report's roundup"));
    }
    let settings = &r.settings;
    Ok(GameState {
        format: STATE_FORMAT,
        game: r.game.clone(),
        variant,
        options: Options {
            actions_per_turn: settings.actions_per_turn,
            sea_supply: if settings.sea_supply == "distance_only" {
                SeaSupply::DistanceOnly
            } else {
                SeaSupply::DistancePlusHalf
            },
            blockade_means_not_owned: settings.blockade_means_not_owned,
            dropout_after: settings.dropout_after,
            points_target: settings.points_target,
            victory_from_turn: settings.victory_from_turn,
        },
        turn: r.turn,
        order_of_play: r
            .roundup
            .order_of_play
            .iter()
            .map(|c| code(c))
            .collect::<Result<_, _>>()?,
        // Never announced (11.2): a forecast plays no census anyway.
        next_census: r.turn + 3,
        victory_warning: None,
        result: None,
        empires,
        areas,
        rng: GameRng::from_game_seed(0).save(),
    })
}

fn code(text: &str) -> Result<EmpireCode, String> {
    EmpireCode::parse(text).map_err(|_| format!("`{text}` is not an empire code"))
}

fn area_code(text: &str) -> Result<AreaCode, String> {
    AreaCode::parse(text).map_err(|_| format!("`{text}` is not an area code"))
}
