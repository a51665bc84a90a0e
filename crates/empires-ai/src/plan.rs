//! Planning a turn: defence first, then taxes to pay for the rest, then growth, attacks,
//! forts, supply, fleets and spies, within the BPs and the actions the empire has.

use crate::view::{Holdings, View};
use empires_rules::engine::{Entrenched, LandInput, land_battle};
use empires_rules::map::AreaId;
use empires_rules::order::Turnsheet;
use empires_rules::state::GameState;
use empires_rules::{AreaCode, EmpireCode, Map};

/// Which computer routine writes the orders (2.5, decision 21).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// For a player who missed a turn: defends and builds, never attacks.
    Caretaker,
    /// For dummies and dropouts: the caretaker's care, plus attacks and spies.
    Aggressive,
}

/// The most a GROW may cost for the computer to think it worth it.
const GROW_WORTH: u32 = 10;
/// Attacks a turn, at most.
const MAX_ATTACKS: usize = 4;
/// Room for a turnsheet's worth of order lines, so that writing them seldom needs more.
const SHEET: usize = 512;

/// The orders being written, with the BPs and action slots they use.
struct Plan {
    /// Orders to run before the taxes, one a line: they spend only the BPs in hand.
    first: String,
    /// Orders to run after the taxes, one a line.
    then: String,
    /// How many orders are written so far.
    written: u32,
    bps: u32,
    spent_first: u32,
    spent_then: u32,
    slots: u32,
}

impl Plan {
    fn free_slots(&self) -> u32 {
        self.slots.saturating_sub(self.written)
    }

    /// BPs still free for an early order, paid from what is in hand.
    fn hand(&self) -> u32 {
        self.bps.saturating_sub(self.spent_first)
    }

    /// Adds an early order costing `cost`, if a slot and the BPs in hand allow.
    fn early(&mut self, line: &[Word], cost: u32) -> bool {
        if self.free_slots() == 0 || cost > self.hand() {
            return false;
        }
        write_line(&mut self.first, line);
        self.written += 1;
        self.spent_first += cost;
        true
    }

    /// Adds a later order costing `cost`, if a slot is free and the BPs in hand plus the taxes
    /// the remaining slots will raise pay for everything planned so far.
    fn later(&mut self, line: &[Word], cost: u32) -> bool {
        let free = self.free_slots();
        if free == 0 {
            return false;
        }
        let budget = self.bps + 2 * (free - 1);
        if self.spent_first + self.spent_then + cost > budget {
            return false;
        }
        write_line(&mut self.then, line);
        self.written += 1;
        self.spent_then += cost;
        true
    }

    /// The turnsheet: early orders, then TAX in every free slot, then the rest (3.8).
    fn text(self) -> String {
        const TAX: &str = "TAX\n";
        let free = self.free_slots() as usize;
        let mut out = self.first;
        out.reserve(TAX.len() * free + self.then.len());
        for _ in 0..free {
            out.push_str(TAX);
        }
        out.push_str(&self.then);
        out
    }
}

/// One word of an order line.
#[derive(Clone, Copy)]
enum Word {
    /// Written as it stands: an action, a blank (`-`) or a number form such as `AB-1`.
    Is(&'static str),
    Area(AreaCode),
    Count(u32),
}
use Word::{Area, Count, Is};

/// Adds one order to `out`, its words separated by spaces, on a line of its own.
fn write_line(out: &mut String, line: &[Word]) {
    for (i, word) in line.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match *word {
            Is(text) => out.push_str(text),
            Area(code) => out.push_str(code.as_str()),
            Count(n) => out.push_str(itoa::Buffer::new().format(n)),
        }
    }
    out.push('\n');
}

/// The turnsheet text the computer writes for `empire`.
pub fn orders_for(map: &Map, state: &GameState, empire: EmpireCode, style: Style) -> String {
    let held = Holdings::of(map, state, empire);
    write_orders(&View::new(map, state, empire, &held), style)
}

/// The turnsheet text the computer writes for the empire whose view `v` is.
pub(crate) fn write_orders(v: &View, style: Style) -> String {
    let me = v.empire();
    let slots = me.actions_per_turn.unwrap_or(v.options().actions_per_turn);
    let mut p = Plan {
        first: String::with_capacity(SHEET),
        then: String::with_capacity(SHEET),
        written: 0,
        bps: me.bps,
        spent_first: 0,
        spent_then: 0,
        slots,
    };
    // Areas whose armies already have a job this turn.
    let mut busy: Vec<AreaId> = Vec::new();
    defend(v, &mut p, &mut busy);
    if style == Style::Aggressive {
        attack(v, &mut p, &busy);
    }
    grow(v, &mut p);
    fortify(v, &mut p);
    if v.variant().has_supply() {
        supplies(v, &mut p);
    }
    fleets(v, &mut p);
    if style == Style::Aggressive {
        spies(v, &mut p);
        muster(v, &mut p, &busy);
    }
    retreats(v, &mut p);
    p.text()
}

/// The computer's turnsheet, read through the order language and marked as written by the
/// computer (2.5).
pub fn turnsheet_for(map: &Map, state: &GameState, empire: EmpireCode, style: Style) -> Turnsheet {
    read_as_computer(&orders_for(map, state, empire, style))
}

/// Orders the computer wrote, read through the order language like any player's.
pub(crate) fn read_as_computer(text: &str) -> Turnsheet {
    let mut sheet = empires_orders::parse_turnsheet(text);
    sheet.computer = true;
    sheet
}

/// Threatened borders get reserves, and a defence order facing the threat.
fn defend(v: &View, p: &mut Plan, busy: &mut Vec<AreaId>) {
    let mut reserve = v.empire().army_reserve;
    let mut threatened: Vec<(u32, AreaId, AreaId)> = v
        .owned()
        .filter_map(|a| {
            let (armies, from) = v.threat(a);
            let from = from?;
            (armies > 0).then_some((armies, a, from))
        })
        .collect();
    // The worst threats first.
    threatened.sort_by_key(|&(t, a, _)| (std::cmp::Reverse(t), a));
    for (threat, a, from) in threatened {
        let area = v.area(a);
        let code = v.code(a);
        if v.defence(a) <= threat && reserve > 0 {
            let ships = area.base.as_ref().map_or(0, |b| b.ships);
            let room = area.armies + ships + area.population;
            let k = reserve.min(room).min(threat + 1).min(p.hand());
            if k > 0 && p.early(&[Is("RESERVE"), Area(code), Is("-"), Count(k)], k) {
                reserve -= k;
                busy.push(a);
            }
        }
        // 7.8: dig in facing the biggest stack next door.
        if area.armies > 0 && p.free_slots() > 2 {
            p.early(&[Is("ENTRENCH"), Area(code), Area(v.code(from))], 0);
        }
    }
}

/// 8.x: attacks the computer expects to win, best prize first.
fn attack(v: &View, p: &mut Plan, busy: &[AreaId]) {
    let air = if v.variant().has_air() {
        v.empire().air_force
    } else {
        0
    };
    let mut options: Vec<(u32, u32, AreaId, AreaId, u32)> = Vec::new();
    for a in v.owned() {
        let armies = v.area(a).armies;
        if armies < 3 {
            continue;
        }
        let attackers = armies - 1;
        for t in v.land_neighbours(a) {
            let target = v.area(t);
            if target.owner == Some(v.me) {
                continue;
            }
            let r = land_battle(&LandInput {
                attackers,
                attacker_air: air,
                attacker_ships: 0,
                attacker_aboard: 0,
                defenders: target.armies,
                forts: target.forts,
                population: target.population,
                terrain: v.map.area(t).terrain,
                entrenched: Entrenched::No,
                ambush: false,
                defender_air: 0,
                defender_ships: 0,
                may_retreat: false,
                air_rules: v.variant().has_air(),
                from_sea: false,
            });
            if r.captured && r.attacker_lost * 2 <= attackers {
                let prize = target.population + 1;
                options.push((prize, r.attacker_lost, a, t, attackers));
            }
        }
    }
    options.sort_by_key(|&(prize, lost, a, t, _)| (std::cmp::Reverse(prize), lost, a, t));
    let mut used: Vec<AreaId> = Vec::new();
    let mut taken: Vec<AreaId> = Vec::new();
    for (_, _, a, t, attackers) in options {
        if used.len() >= MAX_ATTACKS || used.contains(&a) || taken.contains(&t) || busy.contains(&a)
        {
            continue;
        }
        let (from, to) = (v.code(a), v.code(t));
        let trains = v.area(a).trains;
        let european = v.variant().has_supply();
        // S.6: a land attack needs a train: a supply centre gathers one first, and an area on
        // a supply line has one gathered at its source and sent up the line.
        let cost = if european {
            attackers.saturating_sub(trains.max(1)).max(1)
        } else {
            attackers
        };
        if european && trains == 0 && !bring_train(v, p, a) {
            continue;
        }
        if p.later(&[Is("ATTACK"), Area(from), Area(to), Is("AB-1")], cost) {
            used.push(a);
            taken.push(t);
        }
    }
}

/// S.11, S.13.2: gets one supply train to `a` before an attack from it.
fn bring_train(v: &View, p: &mut Plan, a: AreaId) -> bool {
    let Some(src) = v.supply_source(a) else {
        return false;
    };
    if v.area(src).population == 0 || p.free_slots() < 3 {
        return false;
    }
    let code = v.code(src);
    if src == a {
        return p.later(&[Is("GATHER"), Area(code), Is("-"), Count(1)], 1);
    }
    p.later(&[Is("GATHER"), Area(code), Is("-"), Count(1)], 1)
        && p.later(&[Is("SEND"), Area(code), Area(v.code(a)), Count(1)], 0)
}

/// 5.9: population where it pays back fastest.
fn grow(v: &View, p: &mut Plan) {
    let mut options: Vec<(u32, AreaId)> = v
        .owned()
        .map(|a| (v.area(a).population + v.map.area(a).terrain.grow_extra(), a))
        .filter(|&(cost, _)| cost <= GROW_WORTH)
        .collect();
    options.sort();
    for (cost, a) in options {
        p.later(&[Is("GROW"), Area(v.code(a))], cost);
    }
}

/// 5.7: forts where the borders are threatened and the population allows.
fn fortify(v: &View, p: &mut Plan) {
    for a in v.owned() {
        let area = v.area(a);
        let (threat, _) = v.threat(a);
        if threat > 0 && area.forts < area.armies && area.population > 0 {
            let k = (area.armies - area.forts).min(area.population).min(2);
            p.later(&[Is("FORTIFY"), Area(v.code(a)), Is("-"), Count(k)], k);
        }
    }
}

/// S.11, S.13.2: trains in the capital, sent on to threatened areas on its lines.
fn supplies(v: &View, p: &mut Plan) {
    let me = v.empire();
    let Some(cap) = me.capital.and_then(|c| v.map.id(c)).filter(|c| v.owns(*c)) else {
        return;
    };
    let capacity = me.supply_capacity;
    let have = v.area(cap).trains;
    let want = capacity.min(v.area(cap).population).saturating_sub(have);
    if want > 0
        && p.later(
            &[Is("GATHER"), Area(v.code(cap)), Is("-"), Count(want)],
            want,
        )
    {
        // Send some up the line to the most threatened area it supplies.
        let front = v
            .owned()
            .filter(|&a| a != cap && v.supply_source(a) == Some(cap))
            .max_by_key(|&a| (v.threat(a).0, v.area(a).armies));
        if let Some(f) = front {
            let k = (have + want).min(capacity) / 2;
            if k > 0 {
                p.later(
                    &[Is("SEND"), Area(v.code(cap)), Area(v.code(f)), Count(k)],
                    0,
                );
            }
        }
    }
}

/// 7.2: fleets far from home sail a step back towards their base.
fn fleets(v: &View, p: &mut Plan) {
    for s in v.fleet_areas() {
        let Some(f) = v.area(s).fleet.filter(|f| f.owner == v.me) else {
            continue;
        };
        let Some(entrance) = f
            .base
            .and_then(|b| v.map.id(b))
            .and_then(|b| v.area(b).base)
            .and_then(|b| v.map.id(b.entrance))
        else {
            continue;
        };
        let Some(d) = v.map.sea_steps(entrance, s) else {
            continue;
        };
        if d < 2 || f.armies > 0 {
            continue;
        }
        // The neighbouring sea area nearer the entrance, and free of other fleets.
        let step = v.map.neighbours(s).iter().copied().find(|&n| {
            v.map.sea_steps(entrance, n) == Some(d - 1)
                && v.area(n).fleet.as_ref().is_none_or(|g| g.owner == v.me)
        });
        if let Some(n) = step {
            p.later(&[Is("SEAMOVE"), Area(v.code(s)), Area(v.code(n))], 1 + d);
        }
    }
}

/// 9.2, 9.6: a spy sent to a neighbour's border, and sabotage where it finds armies.
fn spies(v: &View, p: &mut Plan) {
    let me = v.empire();
    match &me.spy {
        Some(s) => {
            let at = v.map.id(s.area);
            let enemy_armies = at.is_some_and(|a| v.foreign(a) && v.area(a).armies > 0);
            if enemy_armies {
                p.later(&[Is("SABOTAGE")], 1);
            }
        }
        None => {
            let target = v
                .owned()
                .find_map(|a| v.land_neighbours(a).find(|&n| v.foreign(n)).map(|n| (a, n)));
            if let Some((a, n)) = target {
                p.later(&[Is("SPY"), Area(v.code(a)), Area(v.code(n))], 2);
            }
        }
    }
}

/// 5.5: reserves placed on a border with a weak neighbour, to attack next turn.
fn muster(v: &View, p: &mut Plan, busy: &[AreaId]) {
    let reserve = v.empire().army_reserve;
    if reserve < 3 {
        return;
    }
    let spot = v
        .owned()
        .filter(|a| !busy.contains(a))
        .filter(|&a| v.land_neighbours(a).any(|n| !v.owns(n)))
        .max_by_key(|&a| (v.area(a).population, std::cmp::Reverse(a)));
    if let Some(a) = spot {
        let area = v.area(a);
        let ships = area.base.as_ref().map_or(0, |b| b.ships);
        let k = reserve.min(area.armies + ships + area.population);
        if k > 0 {
            p.later(&[Is("RESERVE"), Area(v.code(a)), Is("-"), Count(k)], k);
        }
    }
}

/// 7.10, 7.11: every area with armies falls back towards an owned neighbour, the one least
/// threatened.
fn retreats(v: &View, p: &mut Plan) {
    for a in v.owned() {
        let area = v.area(a);
        if area.armies == 0 {
            continue;
        }
        let ok = area
            .retreat_to
            .and_then(|r| v.map.id(r))
            .is_some_and(|r| v.owns(r));
        if ok {
            continue;
        }
        let back = v
            .land_neighbours(a)
            .filter(|&n| v.owns(n))
            .min_by_key(|&n| (v.threat(n).0, n));
        if let Some(b) = back {
            p.later(&[Is("RETREAT"), Area(v.code(a)), Area(v.code(b))], 0);
        }
    }
}
