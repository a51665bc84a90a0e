//! The canonical report of one kingdom after a turn: plain data, serialised as JSON with a
//! `schema_version`. The text, HTML and map renderings are all made from it.
//!
//! What goes in is decided here and nowhere else (G34): the kingdom's own treasury, units
//! (in full), provinces, relations and events; every province's owner; every location's
//! troop count and most valuable type; events in or next to the kingdom's places; ownership
//! changes anywhere; everyone's proclamations. Never another kingdom's treasury, orders,
//! failed orders, transfers or plans.

use crate::battle::Words;
use napoleonic_rules::battle::BattleKind;
use napoleonic_rules::event::{Event, MoveStep, UnitRef, What, When};
use napoleonic_rules::hq::money_panel;
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::{KingdomOrders, TroopCount};
use napoleonic_rules::state::{GameState, Kingdom, Relation, Status, Unit};
use napoleonic_rules::tables::{Tables, TroopClass};
use napoleonic_rules::{Fixed, Gold, KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The version of the report's JSON. Raise it when a field changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 1;

/// A sum of gold, exact and as the Headquarters panel shows it: whole gold, truncated
/// toward zero, as the original client did ("4.4 is shown as 4", G41, G42).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Amount {
    /// Exact, in decimal: "4.4", "-0.5".
    pub exact: String,
    /// Whole gold, truncated.
    pub shown: i64,
}

impl Amount {
    pub fn of(g: Gold) -> Amount {
        Amount {
            exact: g.to_string(),
            shown: g.truncated(),
        }
    }

    /// The exact value again; zero if the text was tampered with.
    pub fn gold(&self) -> Gold {
        Fixed::parse(&self.exact).unwrap_or(Fixed::ZERO)
    }

    /// Whether the exact value is below zero (a shortfall).
    pub fn is_negative(&self) -> bool {
        self.gold().is_negative()
    }
}

impl Headquarters {
    /// The parts of the HQ expenses and of the garrison expenses that are not zero, in
    /// words: "annexations 20, gold sent 10, fee 1".
    pub fn breakdown(&self) -> (String, String) {
        let parts = |list: &[(&str, &Amount)]| {
            list.iter()
                .filter(|(_, a)| a.gold() != Gold::ZERO)
                .map(|(what, a)| format!("{what} {}", a.exact))
                .collect::<Vec<_>>()
                .join(", ")
        };
        (
            parts(&[
                ("annexations", &self.annexations),
                ("gold sent", &self.gold_sent),
                ("fee", &self.send_fees),
            ]),
            parts(&[
                ("recruits", &self.recruits),
                ("leaders", &self.leaders),
                ("construction", &self.construction),
            ]),
        )
    }
}

/// A location by number, code and name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LocRef {
    pub id: LocId,
    pub code: String,
    pub name: String,
}

/// A troop type by code, with its name and class (which picks the miniature's figure).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeRef {
    pub code: TroopCode,
    pub name: String,
    pub class: TroopClass,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub schema_version: u32,
    /// The map's name.
    pub game: String,
    /// The turn just played, and the one orders are now written for.
    pub turn: u32,
    pub next_turn: u32,
    pub kingdom: KingdomCode,
    pub name: String,
    /// Commoner or Royalty (2.10), shown under Messages → Player Info.
    pub status: Status,
    pub alive: bool,
    /// Provinces annexed beyond the starting ones, and the status's limit (2.10).
    pub annexed: u32,
    pub annex_limit: u32,
    pub headquarters: Headquarters,
    /// Every other kingdom still in the game or once in it, by code.
    pub relations: Vec<RelationRow>,
    /// Provinces the kingdom owns or that are annexed to it.
    pub provinces: Vec<ProvinceRow>,
    /// The kingdom's units, in full.
    pub units: Vec<UnitRow>,
    /// The kingdom's own troops per location (the blue miniatures).
    pub own_forces: Vec<Force>,
    /// Everyone else's troops per location: count and most valuable type only (the red
    /// miniatures, G34).
    pub foreign_forces: Vec<Force>,
    /// Who owns each province (public).
    pub owners: Vec<Owner>,
    /// The kingdoms of the game (public): code, name, provinces owned.
    pub kingdoms: Vec<KingdomRow>,
    /// The events of the turn this kingdom may know, in the order they happened.
    pub events: Vec<SeenEvent>,
    pub battles: Vec<BattleReport>,
    pub proclamations: Vec<ProclamationRow>,
    /// Notices addressed to the kingdom: failed orders, losses, warnings.
    pub messages: Vec<Message>,
}

/// The Headquarters money panel (1.3, 5.4, 7.12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Headquarters {
    /// Gold in the coffers now.
    pub treasury: Amount,
    /// What all troops and leaders cost a turn.
    pub upkeep: Amount,
    /// Planned HQ orders: annexations, gold sent with its fee.
    pub hq_expenses: Amount,
    pub annexations: Amount,
    pub gold_sent: Amount,
    pub send_fees: Amount,
    /// Planned garrison and unit orders: recruits, ships, leaders, construction.
    pub garrison_expenses: Amount,
    pub recruits: Amount,
    pub leaders: Amount,
    pub construction: Amount,
    /// Treasury less all of the above: carried over, or below zero a shortfall (some
    /// orders will fail).
    pub expected_surplus: Amount,
    /// Revenue due at the end of the coming turn; it cannot be spent before.
    pub expected_revenue: Amount,
    /// Whether the coming turn's orders were known when the panel was made (without them
    /// both expenses are zero).
    pub with_orders: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelationRow {
    pub kingdom: KingdomCode,
    pub name: String,
    pub alive: bool,
    /// Neutral, ally or war (2.8).
    pub relation: Relation,
    /// Passage rights this kingdom granted them, and they granted this kingdom.
    pub passage_to_them: bool,
    pub passage_from_them: bool,
    /// Whether this kingdom accepts their gifts, and they accept this kingdom's.
    pub we_accept_gifts: bool,
    pub they_accept_gifts: bool,
    /// Provinces with special permission, either way.
    pub permission_to_them: Vec<LocRef>,
    pub permission_from_them: Vec<LocRef>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProvinceRow {
    pub location: LocRef,
    pub owner: KingdomCode,
    pub annexed_to: KingdomCode,
    pub capital: bool,
    /// One of the kingdom's starting provinces (they never count toward the limit).
    pub starting: bool,
    /// The maximum revenue, which is also the annexation cost.
    pub revenue: Amount,
    /// What it yields at its damage, if owned and annexed by the kingdom; else nothing.
    pub revenue_now: Amount,
    /// 0 (none) to 3 (heavy).
    pub damage: u8,
    /// Turns in a row its owner has not been its annexer (L7, G25).
    pub decline: u32,
    pub fortification: Option<FortRow>,
    pub harbour: bool,
    pub city: Option<CityRow>,
    /// Kingdoms with special permission here.
    pub permissions: Vec<KingdomCode>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FortRow {
    pub level: u8,
    pub damage: u8,
    pub effective: u8,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CityRow {
    pub name: String,
    pub builds: Vec<TroopCode>,
    pub max_builds: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitRow {
    pub id: UnitId,
    pub kind: UnitKind,
    pub name: String,
    pub location: LocRef,
    /// An army aboard a fleet: "FRA F1".
    pub aboard: Option<String>,
    /// Move points left: the fewest of any troop (3.3).
    pub mp: u8,
    pub retreat_level: u8,
    pub follow: Option<UnitId>,
    pub marines: bool,
    pub defend_forts: bool,
    /// Troops by type and rank.
    pub troops: Vec<TroopRow>,
    pub leaders: Vec<LeaderRow>,
    pub troop_count: u32,
    pub upkeep: Amount,
    /// Attacks × combat over troops and leaders (T2).
    pub total_combat: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TroopRow {
    pub code: TroopCode,
    pub name: String,
    pub rank: u8,
    pub count: u32,
    /// How many carry wounds, and the wounds in all.
    pub wounded: u32,
    pub damage: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderRow {
    pub name: String,
    pub unit_leader: bool,
    pub hp: String,
    pub damage: String,
    pub combat: u32,
    pub attacks: u32,
    pub infantry: u32,
    pub cavalry: u32,
    pub siege: u32,
    pub naval: u32,
    pub upkeep: Amount,
}

/// Troops in one location: a miniature on the map (1.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Force {
    pub location: LocRef,
    /// Troops and leaders (G14 counts leaders as troops).
    pub count: u32,
    /// The most valuable troop type there (by cost); none where only leaders stand.
    pub top: Option<TypeRef>,
    /// Whose troops they are (the click-box lists owners).
    pub kingdoms: Vec<KingdomCode>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owner {
    pub id: LocId,
    pub code: String,
    pub owner: KingdomCode,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingdomRow {
    pub code: KingdomCode,
    pub name: String,
    pub independent: bool,
    pub alive: bool,
    pub provinces: u32,
}

/// Why an event is in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seen {
    /// The kingdom's own orders, units, provinces and gold.
    Own,
    /// Happened in or next to a place where the kingdom has units or provinces.
    Nearby,
    /// Diplomacy the kingdom is a party to.
    Diplomacy,
    /// Known to all: ownership changes, defeats, proclamations.
    Public,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenEvent {
    pub when: When,
    /// The step in words: "F1 War declared", "Phase 2, M9 armies march".
    pub step: String,
    pub seen: Seen,
    pub text: String,
    /// The engine's event as it is, when nothing in it is another kingdom's secret.
    pub detail: Option<What>,
}

/// A battle the kingdom fought or saw nearby (4.8, G34).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleReport {
    pub when: When,
    /// On land, across a border, at sea, or across a border at sea.
    pub kind: BattleKind,
    /// The province or sea; for a border battle, one side of the border.
    pub at: LocRef,
    /// A border battle: the other side.
    pub across: Option<LocRef>,
    pub kingdoms: Vec<KingdomCode>,
    /// The kingdoms of the winning sides (none: broken off, or nobody left).
    pub winners: Vec<KingdomCode>,
    /// The kingdom fought in it, and its lines are the whole report; otherwise it watched
    /// from next door and learns who fought and who won.
    pub took_part: bool,
    /// The report in words, line by line (`battle::Words`).
    pub lines: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProclamationRow {
    pub kingdom: KingdomCode,
    pub name: String,
    pub text: String,
    /// The kingdom's own proclamation only: what it earned (L13).
    pub income: Option<Amount>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    Failure,
    Warning,
    Notice,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub kind: MessageKind,
    pub text: String,
}

/// The report as JSON, pretty-printed: the same report gives the same bytes.
pub fn to_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Builds `kingdom`'s report from the map, the state after the turn, the turn's events and,
/// if known, the orders it has written for the coming turn (for the money panel's
/// expenses). A kingdom not in the game gets an empty report that says so.
pub fn report(
    map: &Map,
    state_after: &GameState,
    events: &[Event],
    kingdom: &KingdomCode,
    next_orders: Option<&KingdomOrders>,
) -> Report {
    let cx = Cx::new(map, state_after, kingdom);
    let me = state_after.kingdoms.get(kingdom);
    let (events_seen, battles, proclamations) = cx.events(events);
    let mut messages = cx.messages(events);
    let headquarters = headquarters(map, state_after, kingdom, next_orders);
    if headquarters.expected_surplus.is_negative() {
        // 1.3: a negative surplus means some orders will fail.
        messages.push(Message {
            kind: MessageKind::Warning,
            text: format!(
                "Your orders cost more than the treasury holds: a shortfall of {} gold. \
                 Some of them will fail during the turn (keep 2 gold spare: the panel \
                 shows whole gold).",
                -headquarters.expected_surplus.shown
            ),
        });
    }
    if me.is_none() {
        messages.push(Message {
            kind: MessageKind::Notice,
            text: format!("There is no kingdom {kingdom} in this game."),
        });
    }
    let status = me.map_or(Status::Commoner, |k| k.status);
    let settings = &state_after.settings;
    Report {
        schema_version: SCHEMA_VERSION,
        game: map.name.clone(),
        turn: state_after.turn.saturating_sub(1),
        next_turn: state_after.turn,
        kingdom: kingdom.clone(),
        name: me.map_or_else(|| kingdom.to_string(), |k| k.name.clone()),
        status,
        alive: me.is_some_and(|k| k.alive),
        annexed: me.map_or(0, |k| k.annexed.len() as u32),
        annex_limit: match status {
            Status::Commoner => settings.commoner_annex_limit,
            Status::Royalty => settings.royalty_annex_limit,
        },
        headquarters,
        relations: cx.relations(),
        provinces: cx.provinces(),
        units: cx.units(),
        own_forces: cx.forces(true),
        foreign_forces: cx.forces(false),
        owners: state_after
            .provinces
            .iter()
            .map(|(id, p)| Owner {
                id: *id,
                code: cx.loc(*id).code,
                owner: p.owner.clone(),
            })
            .collect(),
        kingdoms: state_after
            .kingdoms
            .values()
            .map(|k| KingdomRow {
                code: k.code.clone(),
                name: k.name.clone(),
                independent: k.independent,
                alive: k.alive,
                provinces: state_after.owned_by(&k.code).count() as u32,
            })
            .collect(),
        events: events_seen,
        battles,
        proclamations,
        messages,
    }
}

/// The money panel, as the engine works it out (`napoleonic_rules::hq::money_panel`, the
/// same checks as the Final Events): treasury and upkeep from the state, the expenses from
/// the orders written for the coming turn. Without orders both expenses are zero.
pub fn headquarters(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    orders: Option<&KingdomOrders>,
) -> Headquarters {
    let none = KingdomOrders::default();
    let p = money_panel(map, state, kingdom, orders.unwrap_or(&none));
    Headquarters {
        treasury: Amount::of(p.treasury),
        upkeep: Amount::of(p.upkeep),
        hq_expenses: Amount::of(p.hq_expenses),
        annexations: Amount::of(p.annexations),
        gold_sent: Amount::of(p.gold_sent),
        send_fees: Amount::of(p.send_fees),
        garrison_expenses: Amount::of(p.garrison_expenses),
        recruits: Amount::of(p.recruits),
        leaders: Amount::of(p.leaders),
        construction: Amount::of(p.construction),
        // 5.4: treasury − upkeep − HQ expenses − garrison expenses.
        expected_surplus: Amount::of(p.surplus),
        expected_revenue: Amount::of(p.expected_revenue),
        with_orders: orders.is_some(),
    }
}

/// The most valuable troop type among some troops: the dearest, then the lowest code.
pub fn most_valuable<'t>(
    tables: &'t Tables,
    codes: impl Iterator<Item = &'t TroopCode>,
) -> Option<TypeRef> {
    codes
        .filter_map(|c| tables.troop(c))
        .max_by(|a, b| a.cost.cmp(&b.cost).then(b.code.cmp(&a.code)))
        .map(|t| TypeRef {
            code: t.code.clone(),
            name: t.name.clone(),
            class: t.class,
        })
}

/// The step of the turn in words.
pub fn step_name(when: When) -> String {
    match when {
        When::First(n) => {
            let what = match n {
                0 => "the GM's rulings",
                1 => "war declared",
                2 => "acceptance changed",
                3 => "passage rights changed",
                4 => "special permission changed",
                5 => "henchmen compelled",
                6 => "new armies formed",
                7 => "new fleets formed",
                8 => "administrative actions",
                9 => "same-location transfers",
                10 => "troops reassigned to ranks",
                11 => "disbanding and salvage",
                _ => "first events",
            };
            format!("F{n} {what}")
        }
        When::Phase(p, step) => {
            let (m, what) = match step {
                MoveStep::Transfers => ("M1", "transfers"),
                MoveStep::PrepareToBoard => ("M2", "armies prepare to board"),
                MoveStep::Load => ("M3", "fleets load armies"),
                MoveStep::Sail => ("M4", "fleets set sail"),
                MoveStep::HomelessDepart => ("M5", "homeless fleets depart"),
                MoveStep::SeaBattles => ("M6", "sea battles"),
                MoveStep::StorageChecked => ("M7", "fleet storage checked"),
                MoveStep::Unload => ("M8", "armies unloaded"),
                MoveStep::March => ("M9", "armies march"),
                MoveStep::LoadAgain => ("M9b", "fleets load armies again"),
                MoveStep::DefendOption => ("M10", "defend option changed"),
                MoveStep::BorderBattles => ("M11", "cross-border battles"),
                MoveStep::LandBattles => ("M12", "land battles"),
                MoveStep::Ownership => ("M13", "ownership changes"),
                MoveStep::Pillage => ("M14", "pillage"),
            };
            format!("Phase {p}, {m} {what}")
        }
        When::Final(n) => {
            let what = match n {
                1 => "province damage increases",
                2 => "gold sent",
                3 => "upkeep paid",
                4 => "troops built",
                5 => "leaders hired",
                6 => "provinces annexed",
                7 => "annexation declines",
                8 => "construction",
                9 => "gold decay",
                10 => "structures razed",
                11 => "province revenue",
                12 => "provinces gifted",
                13 => "proclamation income",
                14 => "province damage repaired",
                15 => "peace established",
                16 => "alliances cancelled",
                17 => "alliances formed",
                18 => "kingdom limits checked",
                19 => "defeated kingdoms removed",
                _ => "final events",
            };
            format!("L{n} {what}")
        }
    }
}

/// What the report is made from, and the kingdom's places.
struct Cx<'a> {
    map: &'a Map,
    state: &'a GameState,
    me: &'a KingdomCode,
}

impl<'a> Cx<'a> {
    fn new(map: &'a Map, state: &'a GameState, me: &'a KingdomCode) -> Cx<'a> {
        Cx { map, state, me }
    }

    fn kingdom(&self, k: &KingdomCode) -> Option<&'a Kingdom> {
        self.state.kingdoms.get(k)
    }

    fn loc(&self, id: LocId) -> LocRef {
        match self.map.get(id) {
            Some(l) => LocRef {
                id,
                code: l.code.clone(),
                name: l.name.clone(),
            },
            None => LocRef {
                id,
                code: id.to_string(),
                name: format!("location {id}"),
            },
        }
    }

    /// "Paris (PAR)".
    fn place(&self, id: LocId) -> String {
        let l = self.loc(id);
        format!("{} ({})", l.name, l.code)
    }

    fn mine(&self, k: &KingdomCode) -> bool {
        k == self.me
    }

    /// "your A1 Grande Armée" or "PRU A2".
    fn unit_name(&self, u: &UnitRef) -> String {
        if self.mine(&u.0) {
            match self.state.unit(&u.0, u.1) {
                Some(x) if !x.name.is_empty() => format!("your {} ({})", u.1, x.name),
                _ => format!("your {}", u.1),
            }
        } else {
            format!("{} {}", u.0, u.1)
        }
    }

    fn kingdom_name(&self, k: &KingdomCode) -> String {
        if self.mine(k) {
            return "you".to_string();
        }
        match self.kingdom(k) {
            Some(x) => format!("{} ({k})", x.name),
            None => k.to_string(),
        }
    }

    fn relations(&self) -> Vec<RelationRow> {
        let Some(me) = self.kingdom(self.me) else {
            return Vec::new();
        };
        self.state
            .kingdoms
            .values()
            .filter(|k| &k.code != self.me && !k.independent)
            .map(|k| {
                let permitted = |by: &KingdomCode, to: &KingdomCode| -> Vec<LocRef> {
                    self.state
                        .provinces
                        .iter()
                        .filter(|(_, p)| &p.owner == by && p.permissions.contains(to))
                        .map(|(id, _)| self.loc(*id))
                        .collect()
                };
                RelationRow {
                    kingdom: k.code.clone(),
                    name: k.name.clone(),
                    alive: k.alive,
                    relation: self.state.relation(self.me, &k.code),
                    passage_to_them: me.passage_to.contains(&k.code),
                    passage_from_them: k.passage_to.contains(self.me),
                    we_accept_gifts: !me.refuses.contains(&k.code),
                    they_accept_gifts: !k.refuses.contains(self.me),
                    permission_to_them: permitted(self.me, &k.code),
                    permission_from_them: permitted(&k.code, self.me),
                }
            })
            .collect()
    }

    fn provinces(&self) -> Vec<ProvinceRow> {
        let me = self.kingdom(self.me);
        let capital = self.map.kingdom(self.me).map(|k| k.capital);
        let settings = &self.state.settings;
        self.state
            .provinces
            .iter()
            .filter(|(_, p)| self.mine(&p.owner) || self.mine(&p.annexed_to))
            .map(|(id, p)| {
                let loc = self.map.get(*id);
                let revenue = loc.map_or(Gold::ZERO, |l| l.revenue);
                let paying = self.mine(&p.owner) && self.mine(&p.annexed_to);
                ProvinceRow {
                    location: self.loc(*id),
                    owner: p.owner.clone(),
                    annexed_to: p.annexed_to.clone(),
                    capital: capital == Some(*id),
                    starting: me.is_some_and(|k| k.starting.contains(id)),
                    revenue: Amount::of(revenue),
                    revenue_now: Amount::of(if paying {
                        revenue.percent(settings.revenue_percent(p.damage))
                    } else {
                        Gold::ZERO
                    }),
                    damage: p.damage,
                    decline: p.decline,
                    fortification: (p.fort_level > 0).then(|| FortRow {
                        level: p.fort_level,
                        damage: p.fort_damage,
                        effective: p.effective_fort(),
                        name: self
                            .state
                            .tables
                            .fort(p.fort_level)
                            .map_or_else(|| format!("level {}", p.fort_level), |f| f.name.clone()),
                    }),
                    harbour: p.harbour,
                    city: loc.and_then(|l| l.city.as_ref()).map(|c| CityRow {
                        name: c.name.clone(),
                        builds: c.builds.clone(),
                        max_builds: c.max_builds,
                    }),
                    permissions: p.permissions.iter().cloned().collect(),
                }
            })
            .collect()
    }

    fn units(&self) -> Vec<UnitRow> {
        let tables = &self.state.tables;
        self.state
            .units
            .iter()
            .filter(|u| self.mine(&u.owner))
            .map(|u| {
                let mut by: BTreeMap<(TroopCode, u8), (u32, u32, Fixed)> = BTreeMap::new();
                for t in &u.troops {
                    let e = by
                        .entry((t.code.clone(), t.rank))
                        .or_insert((0, 0, Fixed::ZERO));
                    e.0 += 1;
                    if t.damage > Fixed::ZERO {
                        e.1 += 1;
                        e.2 += t.damage;
                    }
                }
                UnitRow {
                    id: u.id,
                    kind: u.kind(),
                    name: u.name.clone(),
                    location: self.loc(u.location),
                    aboard: u.aboard.as_ref().map(|(k, f)| format!("{k} {f}")),
                    mp: u.mp(),
                    retreat_level: u.retreat_level,
                    follow: u.follow,
                    marines: u.marines,
                    defend_forts: u.defend_forts,
                    troops: by
                        .into_iter()
                        .map(|((code, rank), (count, wounded, damage))| TroopRow {
                            name: tables
                                .troop(&code)
                                .map_or_else(|| code.to_string(), |t| t.name.clone()),
                            code,
                            rank,
                            count,
                            wounded,
                            damage: damage.to_string(),
                        })
                        .collect(),
                    leaders: u
                        .leaders
                        .iter()
                        .enumerate()
                        .map(|(i, l)| LeaderRow {
                            name: l.name.clone(),
                            unit_leader: u.unit_leader == Some(i),
                            hp: l.hp.to_string(),
                            damage: l.damage.to_string(),
                            combat: l.combat,
                            attacks: l.attacks,
                            infantry: l.infantry,
                            cavalry: l.cavalry,
                            siege: l.siege,
                            naval: l.naval,
                            upkeep: Amount::of(l.upkeep),
                        })
                        .collect(),
                    troop_count: u.troops.len() as u32,
                    upkeep: Amount::of(u.upkeep(tables)),
                    total_combat: u.total_combat(tables),
                }
            })
            .collect()
    }

    /// The miniatures: per location, the kingdom's own troops (`own`) or everyone else's.
    /// Only the count, the dearest type and the owners (G34).
    fn forces(&self, own: bool) -> Vec<Force> {
        let mut at: BTreeMap<LocId, Vec<&Unit>> = BTreeMap::new();
        for u in &self.state.units {
            if self.mine(&u.owner) == own {
                at.entry(u.location).or_default().push(u);
            }
        }
        at.into_iter()
            .filter_map(|(id, units)| {
                // G14: leaders count as troops.
                let count: usize = units.iter().map(|u| u.troops.len() + u.leaders.len()).sum();
                if count == 0 {
                    return None;
                }
                let kingdoms: BTreeSet<KingdomCode> =
                    units.iter().map(|u| u.owner.clone()).collect();
                Some(Force {
                    location: self.loc(id),
                    count: count as u32,
                    top: most_valuable(
                        &self.state.tables,
                        units.iter().flat_map(|u| u.troops.iter().map(|t| &t.code)),
                    ),
                    kingdoms: kingdoms.into_iter().collect(),
                })
            })
            .collect()
    }

    /// The kingdom's places during the turn: where its units stand now and where they went
    /// during the turn, its provinces now and those it lost. Events here or next door are
    /// in its report.
    fn near(&self, events: &[Event]) -> BTreeSet<LocId> {
        let mut mine: BTreeSet<LocId> = BTreeSet::new();
        for u in self.state.units.iter().filter(|u| self.mine(&u.owner)) {
            mine.insert(u.location);
        }
        for (id, p) in &self.state.provinces {
            if self.mine(&p.owner) || self.mine(&p.annexed_to) {
                mine.insert(*id);
            }
        }
        for e in events {
            match &e.what {
                What::Moved { unit, from, to, .. } if self.mine(&unit.0) => {
                    mine.extend([*from, *to]);
                }
                What::Held { unit, at, .. } | What::UnitFormed { unit, at, .. }
                    if self.mine(&unit.0) =>
                {
                    mine.insert(*at);
                }
                What::Bounced { unit, at, .. } if self.mine(&unit.0) => {
                    mine.insert(*at);
                }
                What::Loaded { fleet, army, at }
                | What::Unloaded {
                    fleet, army, at, ..
                } if self.mine(&fleet.0) || self.mine(&army.0) => {
                    mine.insert(*at);
                }
                What::HomelessFled { fleet, from, to } if self.mine(&fleet.0) => {
                    mine.insert(*from);
                    mine.extend(*to);
                }
                What::BattleJoined { at, kingdoms } if kingdoms.contains(self.me) => {
                    mine.insert(*at);
                }
                What::Battle(b) if b.kingdoms().contains(self.me) => {
                    mine.insert(b.at);
                    mine.extend(b.across);
                }
                What::OwnershipChanged { province, from, .. }
                | What::ProvinceGiven { province, from, .. }
                    if self.mine(from) =>
                {
                    mine.insert(*province);
                }
                _ => {}
            }
        }
        let mut near = mine.clone();
        for id in &mine {
            if let Some(l) = self.map.get(*id) {
                near.extend(l.edges.iter().map(|e| e.to));
            }
        }
        near
    }

    /// The events this kingdom may know, each with why and in words; the battles among
    /// them; everyone's proclamations.
    fn events(
        &self,
        events: &[Event],
    ) -> (Vec<SeenEvent>, Vec<BattleReport>, Vec<ProclamationRow>) {
        let near = self.near(events);
        let close = |id: &LocId| near.contains(id);
        let mut seen = Vec::new();
        let mut battles = Vec::new();
        let mut proclamations = Vec::new();
        for e in events {
            let Some((why, text, open)) = self.see(&e.what, &close) else {
                continue;
            };
            if let What::Battle(b) = &e.what {
                let took_part = b.kingdoms().contains(self.me);
                let words = Words {
                    map: self.map,
                    state: self.state,
                    me: self.me,
                };
                battles.push(BattleReport {
                    when: e.when,
                    kind: b.kind,
                    at: self.loc(b.at),
                    across: b.across.map(|x| self.loc(x)),
                    kingdoms: b.kingdoms(),
                    winners: b.winning_kingdoms(),
                    took_part,
                    lines: if took_part {
                        words.full(b)
                    } else {
                        words.summary(b)
                    },
                });
            }
            if let What::Proclamation {
                kingdom,
                text,
                income,
            } = &e.what
            {
                proclamations.push(ProclamationRow {
                    kingdom: kingdom.clone(),
                    name: self
                        .kingdom(kingdom)
                        .map_or_else(|| kingdom.to_string(), |k| k.name.clone()),
                    text: text.clone(),
                    income: self.mine(kingdom).then(|| Amount::of(*income)),
                });
            }
            seen.push(SeenEvent {
                when: e.when,
                step: step_name(e.when),
                seen: why,
                text,
                detail: open.then(|| e.what.clone()),
            });
        }
        (seen, battles, proclamations)
    }

    /// Whether the kingdom sees an event, why, in what words, and whether the event may be
    /// passed on as it is (nothing in it is another kingdom's secret). `None`: not seen.
    fn see(&self, w: &What, close: &dyn Fn(&LocId) -> bool) -> Option<(Seen, String, bool)> {
        let me = |k: &KingdomCode| self.mine(k);
        let own = |text: String| Some((Seen::Own, text, true));
        let nearby = |text: String, open: bool| Some((Seen::Nearby, text, open));
        let diplomacy = |text: String| Some((Seen::Diplomacy, text, true));
        let public = |text: String, open: bool| Some((Seen::Public, text, open));
        let place = |id: &LocId| self.place(*id);
        let unit = |u: &UnitRef| self.unit_name(u);
        let who = |k: &KingdomCode| self.kingdom_name(k);
        let troops = |t: &[TroopCount]| troop_list(t);
        match w {
            // Never another kingdom's failed orders.
            What::OrderFailed {
                kingdom,
                unit: u,
                order,
                reason,
            } => me(kingdom).then(|| {
                let by = u.map_or(String::new(), |id| format!("{id}: "));
                (
                    Seen::Own,
                    format!("{by}the order \"{order}\" failed: {reason}"),
                    true,
                )
            }),
            What::WarDeclared { by, on } => (me(by) || me(on)).and_then(|| {
                diplomacy(if me(by) {
                    format!("You declared war on {}.", who(on))
                } else {
                    format!("{} declared war on you.", who(by))
                })
            }),
            What::AcceptanceChanged { by, toward, accept } => {
                (me(by) || me(toward)).and_then(|| {
                    let verb = if *accept { "accepts" } else { "refuses" };
                    diplomacy(if me(by) {
                        format!(
                            "You now {} gifts from {}.",
                            if *accept { "accept" } else { "refuse" },
                            who(toward)
                        )
                    } else {
                        format!("{} now {verb} your gifts.", who(by))
                    })
                })
            }
            What::PassageChanged { by, to, granted } => (me(by) || me(to)).and_then(|| {
                let verb = if *granted { "granted" } else { "revoked" };
                diplomacy(if me(by) {
                    format!("You {verb} passage rights to {}.", who(to))
                } else {
                    format!("{} {verb} your passage rights.", who(by))
                })
            }),
            What::PermissionChanged {
                by,
                province,
                to,
                granted,
            } => (me(by) || me(to)).and_then(|| {
                let verb = if *granted { "granted" } else { "revoked" };
                diplomacy(if me(by) {
                    format!(
                        "You {verb} special permission in {} to {}.",
                        place(province),
                        who(to)
                    )
                } else {
                    format!(
                        "{} {verb} your special permission in {}.",
                        who(by),
                        place(province)
                    )
                })
            }),
            What::UnitFormed {
                unit: u,
                by,
                at,
                name,
            } => me(&u.0).then(|| {
                (
                    Seen::Own,
                    format!("{by} formed {} \"{name}\" in {}.", u.1, place(at)),
                    true,
                )
            }),
            What::AdminChanged { unit: u, what } => {
                me(&u.0).then(|| (Seen::Own, format!("{}: {what}.", unit(u)), true))
            }
            // Never another kingdom's transfers; a gift of troops to this kingdom is its own.
            What::Transferred {
                from,
                to,
                troops: t,
                leaders,
            } => (me(&from.0) || me(&to.0)).and_then(|| {
                let mut what = troops(t);
                if !leaders.is_empty() {
                    if !what.is_empty() {
                        what.push_str(" and ");
                    }
                    what.push_str(&format!("leaders {}", leaders.join(", ")));
                }
                own(format!("{} handed {what} to {}.", unit(from), unit(to)))
            }),
            What::RanksSet { unit: u } => {
                me(&u.0).then(|| (Seen::Own, format!("{}: ranks set.", unit(u)), true))
            }
            What::Disbanded {
                unit: u,
                troops: t,
                salvage,
            } => me(&u.0).and_then(|| {
                let gold = if *salvage > Gold::ZERO {
                    format!(", salvage {salvage} gold")
                } else {
                    String::new()
                };
                own(format!("{} disbanded {}{gold}.", unit(u), troops(t)))
            }),
            What::BoardingPrepared {
                unit: u,
                for_kingdom,
            } => (me(&u.0) || me(for_kingdom)).and_then(|| {
                own(format!(
                    "{} is ready to board the fleets of {}.",
                    unit(u),
                    who(for_kingdom)
                ))
            }),
            What::Loaded { fleet, army, at } => {
                let text = format!(
                    "{} took {} aboard in {}.",
                    unit(fleet),
                    unit(army),
                    place(at)
                );
                if me(&fleet.0) || me(&army.0) {
                    own(text)
                } else if close(at) {
                    nearby(text, true)
                } else {
                    None
                }
            }
            What::Moved {
                unit: u,
                from,
                to,
                cost,
            } => {
                if me(&u.0) {
                    own(format!(
                        "{} moved from {} to {} ({cost} MP).",
                        unit(u),
                        place(from),
                        place(to)
                    ))
                } else if close(from) || close(to) {
                    nearby(
                        format!("{} moved from {} to {}.", unit(u), place(from), place(to)),
                        true,
                    )
                } else {
                    None
                }
            }
            What::Held { unit: u, at, cost } => {
                if me(&u.0) {
                    own(format!("{} held in {} ({cost} MP).", unit(u), place(at)))
                } else if close(at) {
                    nearby(format!("{} held in {}.", unit(u), place(at)), true)
                } else {
                    None
                }
            }
            // A bounce is a failed march: only the marcher's own report has it.
            What::Bounced {
                unit: u,
                at,
                toward,
                reason,
            } => me(&u.0).and_then(|| {
                own(format!(
                    "{} could not enter {} and stays in {}: {reason}",
                    unit(u),
                    place(toward),
                    place(at)
                ))
            }),
            What::HomelessFled { fleet, from, to } => {
                let text = match to {
                    Some(t) => format!(
                        "{} had no harbour and fled from {} to {}.",
                        unit(fleet),
                        place(from),
                        place(t)
                    ),
                    None => format!(
                        "{} had no harbour in {} and nowhere to flee.",
                        unit(fleet),
                        place(from)
                    ),
                };
                if me(&fleet.0) {
                    own(text)
                } else if close(from) || to.as_ref().is_some_and(close) {
                    nearby(text, true)
                } else {
                    None
                }
            }
            What::Overboard { fleet, troops: t } => me(&fleet.0).and_then(|| {
                own(format!(
                    "{} was overloaded: {} went overboard.",
                    unit(fleet),
                    troops(t)
                ))
            }),
            What::Unloaded {
                fleet,
                army,
                at,
                amphibious,
            } => {
                let how = if *amphibious { " in a landing" } else { "" };
                let text = format!(
                    "{} put {} ashore in {}{how}.",
                    unit(fleet),
                    unit(army),
                    place(at)
                );
                if me(&fleet.0) || me(&army.0) {
                    own(text)
                } else if close(at) {
                    nearby(text, true)
                } else {
                    None
                }
            }
            // A failed landing is a failed order of the fleet's owner.
            What::LandingFailed { fleet, at, chance } => me(&fleet.0).and_then(|| {
                own(format!(
                    "{} failed to land in {} (chance {chance}%).",
                    unit(fleet),
                    place(at)
                ))
            }),
            What::BattleJoined { at, kingdoms } => {
                let names: Vec<String> = kingdoms.iter().map(who).collect();
                let text = format!(
                    "A battle was joined in {}: {}.",
                    place(at),
                    names.join(", ")
                );
                if kingdoms.contains(self.me) {
                    own(text)
                } else if close(at) {
                    nearby(text, true)
                } else {
                    None
                }
            }
            // A battle fought: its outcome in a line. The engine's record names every
            // unit and leader in it, so it is never passed on as it is (G34); the battle
            // reports say what the kingdom may know.
            What::Battle(b) => {
                let words = Words {
                    map: self.map,
                    state: self.state,
                    me: self.me,
                };
                let text = words.summary(b).join(" ");
                if b.kingdoms().contains(self.me) {
                    Some((Seen::Own, text, false))
                } else if close(&b.at) || b.across.as_ref().is_some_and(close) {
                    nearby(text, false)
                } else {
                    None
                }
            }
            // Ownership is public everywhere (G34: the map shows every owner).
            What::OwnershipChanged { province, from, to } => public(
                format!(
                    "{} passed from {} to {}.",
                    place(province),
                    who(from),
                    who(to)
                ),
                true,
            ),
            What::Pillaged {
                province,
                unit: u,
                gold,
            } => {
                if me(&u.0) {
                    own(format!(
                        "{} pillaged {} for {gold} gold.",
                        unit(u),
                        place(province)
                    ))
                } else if close(province) {
                    // Their takings are their treasury's business.
                    nearby(format!("{} pillaged {}.", unit(u), place(province)), false)
                } else {
                    None
                }
            }
            What::DamageRose { province, level } => close(province).then(|| {
                (
                    Seen::Nearby,
                    format!("Damage in {} rose to {}.", place(province), damage(*level)),
                    true,
                )
            }),
            What::GoldSent {
                from,
                to,
                amount,
                fee,
            } => (me(from) || me(to)).and_then(|| {
                own(if me(from) {
                    format!("You sent {amount} gold to {} (fee {fee}).", who(to))
                } else {
                    format!("{} sent you {amount} gold.", who(from))
                })
            }),
            What::UpkeepPaid {
                kingdom,
                paid,
                unpaid,
                lost,
            } => me(kingdom).and_then(|| {
                let mut t = format!("Upkeep paid: {paid} gold.");
                if *unpaid > 0 {
                    t.push_str(&format!(" {unpaid} troops went unpaid"));
                    if lost.is_empty() {
                        t.push_str(", none deserted.");
                    } else {
                        let l: Vec<String> =
                            lost.iter().map(|(u, c)| format!("{c} of {u}")).collect();
                        t.push_str(&format!("; deserted: {}.", l.join(", ")));
                    }
                }
                own(t)
            }),
            What::TroopsBuilt {
                unit: u,
                troops: t,
                cost,
            } => me(&u.0)
                .and_then(|| own(format!("{} raised {} for {cost} gold.", unit(u), troops(t)))),
            What::LeaderHired {
                unit: u,
                leader,
                cost,
            } => me(&u.0).and_then(|| own(format!("{} hired {leader} for {cost} gold.", unit(u)))),
            What::Annexed {
                kingdom,
                province,
                cost,
            } => {
                if me(kingdom) {
                    own(format!("You annexed {} for {cost} gold.", place(province)))
                } else if close(province) {
                    nearby(
                        format!("{} annexed {}.", who(kingdom), place(province)),
                        false,
                    )
                } else {
                    None
                }
            }
            What::AnnexationLapsed { province, from } => {
                if me(from) {
                    own(format!(
                        "{} was held by others too long and is no longer annexed to you.",
                        place(province)
                    ))
                } else if close(province) {
                    nearby(
                        format!("{} is no longer annexed to {}.", place(province), who(from)),
                        true,
                    )
                } else {
                    None
                }
            }
            What::FortRepaired {
                province,
                damage: d,
            } => close(province).then(|| {
                (
                    Seen::Nearby,
                    format!(
                        "The fortification of {} was repaired (damage {d}).",
                        place(province)
                    ),
                    true,
                )
            }),
            What::Built {
                unit: u,
                province,
                what,
                cost,
            } => {
                if me(&u.0) {
                    own(format!(
                        "{} built {what} in {} for {cost} gold.",
                        unit(u),
                        place(province)
                    ))
                } else if close(province) {
                    nearby(
                        format!("{} built {what} in {}.", unit(u), place(province)),
                        false,
                    )
                } else {
                    None
                }
            }
            What::Decay { kingdom, amount } => {
                me(kingdom).and_then(|| own(format!("{amount} gold of the treasury decayed (7%).")))
            }
            What::Razed {
                unit: u,
                province,
                what,
                salvage,
            } => {
                if me(&u.0) {
                    own(format!(
                        "{} razed {what} in {} for {salvage} gold.",
                        unit(u),
                        place(province)
                    ))
                } else if close(province) {
                    nearby(
                        format!("{} razed {what} in {}.", unit(u), place(province)),
                        false,
                    )
                } else {
                    None
                }
            }
            What::Revenue {
                kingdom,
                amount,
                provinces,
            } => me(kingdom).and_then(|| {
                own(format!(
                    "Revenue: {amount} gold from {provinces} province{}.",
                    if *provinces == 1 { "" } else { "s" }
                ))
            }),
            What::ProvinceGiven { province, from, to } => public(
                format!(
                    "{} gave {} to {}.",
                    capital_first(&who(from)),
                    place(province),
                    who(to)
                ),
                true,
            ),
            // Everyone's proclamations; only the kingdom's own shows what it earned.
            What::Proclamation {
                kingdom,
                text,
                income,
            } => {
                if me(kingdom) {
                    own(format!(
                        "Your proclamation earned {income} gold: \"{text}\""
                    ))
                } else {
                    public(format!("{} proclaims: \"{text}\"", who(kingdom)), false)
                }
            }
            What::DamageRepaired { province, level } => close(province).then(|| {
                (
                    Seen::Nearby,
                    format!(
                        "Damage in {} was repaired to {}.",
                        place(province),
                        damage(*level)
                    ),
                    true,
                )
            }),
            What::RelationChanged { a, b, relation } => (me(a) || me(b)).and_then(|| {
                let other = if me(a) { b } else { a };
                diplomacy(match relation {
                    Relation::Neutral => format!("You and {} are now at peace.", who(other)),
                    Relation::Ally => format!("You and {} are now allies.", who(other)),
                    Relation::War => format!("You and {} are now at war.", who(other)),
                })
            }),
            What::LimitEnforced { kingdom, what } => {
                me(kingdom).and_then(|| own(format!("Kingdom limits: {what}")))
            }
            What::KingdomDefeated { kingdom } => public(
                if me(kingdom) {
                    "Your kingdom has fallen.".to_string()
                } else {
                    format!("{} has been defeated.", who(kingdom))
                },
                true,
            ),
            What::AmbassadorSent { from, to } => (me(from) || me(to)).and_then(|| {
                diplomacy(if me(from) {
                    format!(
                        "Your ambassador reached {}: your address goes with the report, if \
                         your account shares it.",
                        who(to)
                    )
                } else {
                    format!(
                        "{} sent you an ambassador: its ruler's address comes with this \
                         report, if they share it.",
                        who(from)
                    )
                })
            }),
            What::StatusChanged { kingdom, status } => me(kingdom).and_then(|| {
                let limits = &self.state.settings;
                own(match status {
                    Status::Royalty => format!(
                        "The GM ruled: from this turn your ruler is Royalty (2.10): up to {} \
                         annexed provinces beyond the starting ones, and garrisons may hire \
                         leaders.",
                        limits.royalty_annex_limit
                    ),
                    Status::Commoner => format!(
                        "The GM ruled: from this turn your ruler is a Commoner (2.10): at most \
                         {} annexed provinces beyond the starting ones, and no leaders.",
                        limits.commoner_annex_limit
                    ),
                })
            }),
            What::ProclamationDenied { kingdom } => me(kingdom).and_then(|| {
                own(
                    "The GM found your proclamation unsuitable: it is published, but earns \
                     nothing (L13)."
                        .to_string(),
                )
            }),
            What::GameDeclared {
                kingdoms,
                reason,
                provinces,
                of,
            } => {
                let names: Vec<String> = kingdoms.iter().map(&who).collect();
                public(
                    format!(
                        "The GM declares the game won by {}, holding {provinces} of the {of} \
                         provinces: {reason}. The game ends with this turn.",
                        names.join(" and ")
                    ),
                    true,
                )
            }
            What::PalaceCoup { kingdom } => me(kingdom).and_then(|| {
                own(
                    "Orders that would have given away everything were not carried out \
                     (palace coup); the game master has been told."
                        .to_string(),
                )
            }),
            What::BorderBattleJoined {
                between: (a, b),
                kingdoms,
                ..
            } => {
                let names: Vec<String> = kingdoms.iter().map(who).collect();
                let text = format!(
                    "A battle was joined on the border of {} and {}: {}.",
                    place(a),
                    place(b),
                    names.join(", ")
                );
                if kingdoms.contains(self.me) {
                    own(text)
                } else if close(a) || close(b) {
                    nearby(text, true)
                } else {
                    None
                }
            }
            What::HarbourLost { province } => close(province).then(|| {
                (
                    Seen::Nearby,
                    format!("The harbour of {} was destroyed.", place(province)),
                    true,
                )
            }),
            What::FleetLost {
                fleet,
                at,
                captured,
                captured_by,
                scuttled,
                ..
            } => {
                let took = captured_by.as_ref().is_some_and(|u| me(&u.0));
                if me(&fleet.0) || took {
                    let mut t = format!("{} was lost in {}", unit(fleet), place(at));
                    if !captured.is_empty() {
                        let by = captured_by
                            .as_ref()
                            .map_or(String::new(), |u| format!(" by {}", unit(u)));
                        t.push_str(&format!("; {} captured{by}", troops(captured)));
                    }
                    if !scuttled.is_empty() {
                        t.push_str(&format!("; {} scuttled", troops(scuttled)));
                    }
                    t.push('.');
                    own(t)
                } else if close(at) {
                    // What the lost fleet held is its owner's business.
                    nearby(format!("{} was lost in {}.", unit(fleet), place(at)), false)
                } else {
                    None
                }
            }
            What::LeaderLost {
                unit: u,
                leader,
                reason,
            } => me(&u.0).and_then(|| own(format!("{leader} left {}: {reason}", unit(u)))),
            // An event this report does not know yet is left out: it may be another
            // kingdom's secret. (Unreachable while every kind is listed above.)
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// Notices for the kingdom: its failed orders, troops lost for want of pay, limits
    /// enforced, a palace coup, defeat.
    fn messages(&self, events: &[Event]) -> Vec<Message> {
        let mut out = Vec::new();
        let close = |_: &LocId| false;
        for e in events {
            let kind = match &e.what {
                What::OrderFailed { kingdom, .. } if self.mine(kingdom) => MessageKind::Failure,
                What::Bounced { unit, .. } | What::LandingFailed { fleet: unit, .. }
                    if self.mine(&unit.0) =>
                {
                    MessageKind::Failure
                }
                What::UpkeepPaid { kingdom, lost, .. }
                    if self.mine(kingdom) && !lost.is_empty() =>
                {
                    MessageKind::Warning
                }
                What::LimitEnforced { kingdom, .. } | What::PalaceCoup { kingdom }
                    if self.mine(kingdom) =>
                {
                    MessageKind::Warning
                }
                What::KingdomDefeated { kingdom } | What::StatusChanged { kingdom, .. }
                    if self.mine(kingdom) =>
                {
                    MessageKind::Notice
                }
                What::ProclamationDenied { kingdom } if self.mine(kingdom) => MessageKind::Warning,
                What::GameDeclared { .. } => MessageKind::Notice,
                What::LeaderLost { unit, .. } if self.mine(&unit.0) => MessageKind::Warning,
                What::FleetLost { fleet, .. } if self.mine(&fleet.0) => MessageKind::Warning,
                _ => continue,
            };
            if let Some((_, text, _)) = self.see(&e.what, &close) {
                out.push(Message {
                    kind,
                    text: format!("{}: {text}", step_name(e.when)),
                });
            }
        }
        out
    }
}

/// "3 LIN, 1 GRE".
fn troop_list(t: &[TroopCount]) -> String {
    let parts: Vec<String> = t
        .iter()
        .map(|c| format!("{} {}", c.count, c.code))
        .collect();
    if parts.is_empty() {
        "no troops".to_string()
    } else {
        parts.join(", ")
    }
}

/// Damage levels in words (2.1: 0 none to 3 heavy).
pub fn damage(level: u8) -> &'static str {
    match level {
        0 => "none",
        1 => "light",
        2 => "medium",
        _ => "heavy",
    }
}

fn capital_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `bool::then` for a closure that itself may decline.
trait AndThen {
    fn and_then<T>(self, f: impl FnOnce() -> Option<T>) -> Option<T>;
}

impl AndThen for bool {
    fn and_then<T>(self, f: impl FnOnce() -> Option<T>) -> Option<T> {
        if self { f() } else { None }
    }
}

/// What a report tells of, in its heading: "results of turn 3", or, before the first turn,
/// "the starting position".
pub fn what_of(r: &Report) -> String {
    match r.turn {
        0 => "the starting position".to_string(),
        t => format!("results of turn {t}"),
    }
}
