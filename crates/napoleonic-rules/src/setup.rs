//! A new game from a map: the kingdoms the players take, their starting lands, treasuries
//! and forces, and the independents holding everything else with their garrisons (1.1).

use crate::fixed::Fixed;
use crate::ids::{KingdomCode, LocId, UnitId};
use crate::map::{Map, StartForce};
use crate::state::{GameState, Kingdom, Leader, Province, Status, Troop, Unit};
use crate::tables::{Settings, Tables};
use empires_dice::GameRng;
use std::collections::{BTreeMap, BTreeSet};

/// What a new game is made from.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub seed: u64,
    /// The kingdoms in play, by code; empty means every kingdom on the map. The lands of a
    /// kingdom left out are independent.
    pub kingdoms: Vec<KingdomCode>,
    /// The kingdoms whose rulers start as Royalty (2.10: the GM's fee paid before the game);
    /// the others start as Commoners.
    pub royalty: Vec<KingdomCode>,
    pub settings: Settings,
    pub tables: Tables,
}

impl NewGame {
    pub fn standard(seed: u64) -> NewGame {
        NewGame {
            seed,
            kingdoms: Vec::new(),
            royalty: Vec::new(),
            settings: Settings::default(),
            tables: Tables::standard(),
        }
    }
}

/// Makes the state of turn 1, or says why it cannot.
pub fn new_game(map: &Map, options: &NewGame) -> Result<GameState, String> {
    let playing: Vec<&crate::map::KingdomStart> = if options.kingdoms.is_empty() {
        map.kingdoms.iter().collect()
    } else {
        let mut out = Vec::new();
        for code in &options.kingdoms {
            out.push(
                map.kingdom(code)
                    .ok_or_else(|| format!("the map {} has no kingdom {code}", map.name))?,
            );
        }
        out
    };
    for k in &playing {
        for (code, _) in k.armies.iter().chain(&k.fleets).flat_map(|f| &f.troops) {
            if options.tables.troop(code).is_none() {
                return Err(format!(
                    "kingdom {}: no troop type {code} in the roster",
                    k.code
                ));
            }
        }
    }
    for code in &options.royalty {
        if !playing.iter().any(|k| &k.code == code) {
            return Err(format!(
                "{code} is to start as Royalty, but it is not a kingdom in play"
            ));
        }
    }
    let rng = GameRng::from_game_seed(options.seed);
    let ind = KingdomCode::independents();
    let mut state = GameState {
        turn: 1,
        settings: options.settings.clone(),
        tables: options.tables.clone(),
        rng: rng.save(),
        kingdoms: BTreeMap::new(),
        relations: BTreeMap::new(),
        provinces: BTreeMap::new(),
        units: Vec::new(),
        result: None,
    };
    state.kingdoms.insert(
        ind.clone(),
        Kingdom {
            code: ind.clone(),
            name: "Independents".to_string(),
            independent: true,
            status: Status::Royalty,
            treasury: Fixed::ZERO,
            alive: true,
            starting: BTreeSet::new(),
            annexed: Vec::new(),
            passage_to: BTreeSet::new(),
            refuses: BTreeSet::new(),
            leaders_hired: 0,
        },
    );
    let mut owner: BTreeMap<LocId, KingdomCode> = BTreeMap::new();
    for k in &playing {
        for p in &k.provinces {
            owner.insert(*p, k.code.clone());
        }
        state.kingdoms.insert(
            k.code.clone(),
            Kingdom {
                code: k.code.clone(),
                name: k.name.clone(),
                independent: false,
                // 2.10: the GM's fee may be paid before the game starts.
                status: if options.royalty.contains(&k.code) {
                    Status::Royalty
                } else {
                    Status::Commoner
                },
                treasury: k.treasury,
                alive: true,
                starting: k.provinces.iter().copied().collect(),
                annexed: Vec::new(),
                passage_to: BTreeSet::new(),
                refuses: BTreeSet::new(),
                leaders_hired: 0,
            },
        );
    }
    for loc in map.provinces() {
        let who = owner.get(&loc.id).cloned().unwrap_or_else(|| ind.clone());
        state.provinces.insert(
            loc.id,
            Province {
                owner: who.clone(),
                owner_at_start: who.clone(),
                changed: false,
                // Every province starts annexed to its owner: the kingdoms' own lands pay
                // from the first turn, and the independents' are theirs.
                annexed_to: who.clone(),
                decline: 0,
                annexed_this_turn: false,
                damage: 0,
                fort_level: loc.fortification,
                fort_damage: 0,
                harbour: loc.harbour,
                permissions: BTreeSet::new(),
                battle: false,
                pillaged: false,
            },
        );
        // Every province with a city or a fortification has its owner's garrison (2.3).
        if loc.city.is_some() || loc.fortification > 0 || !loc.garrison.is_empty() {
            let mut g = Unit::new(
                who.clone(),
                UnitId::garrison(loc.id),
                format!("Garrison of {}", loc.name),
                loc.id,
            );
            if who.is_independent() {
                add_troops(&mut g, &loc.garrison, &options.tables);
            }
            state.insert_unit(g);
        }
    }
    for k in &playing {
        let forces = k
            .armies
            .iter()
            .map(|f| (f, crate::ids::UnitKind::Army))
            .chain(k.fleets.iter().map(|f| (f, crate::ids::UnitKind::Fleet)));
        for (force, kind) in forces {
            let number = state
                .free_number(&k.code, kind)
                .ok_or_else(|| format!("kingdom {} starts with more than 99 of a kind", k.code))?;
            let id = UnitId { kind, number };
            let mut u = Unit::new(k.code.clone(), id, format!("{} {}", k.name, id), force.at);
            place(&mut u, force, &options.tables, &k.name);
            state.insert_unit(u);
        }
    }
    Ok(state)
}

fn add_troops(u: &mut Unit, troops: &[(crate::ids::TroopCode, u32)], tables: &Tables) {
    for (code, n) in troops {
        let mp = tables.troop(code).map(|t| t.mp).unwrap_or(0);
        for _ in 0..*n {
            u.troops.push(Troop {
                code: code.clone(),
                rank: 1,
                mp,
                damage: Fixed::ZERO,
            });
        }
    }
}

fn place(u: &mut Unit, force: &StartForce, tables: &Tables, kingdom: &str) {
    add_troops(u, &force.troops, tables);
    for i in 0..force.leaders {
        u.leaders.push(Leader {
            name: format!("General {} of {kingdom}", i + 1),
            hp: Fixed::whole(2),
            combat: 30,
            attacks: 2,
            infantry: 20,
            cavalry: 20,
            siege: 10,
            naval: 0,
            upkeep: Fixed::whole(2),
            damage: Fixed::ZERO,
        });
    }
    if !u.leaders.is_empty() {
        u.unit_leader = Some(0);
    }
}
