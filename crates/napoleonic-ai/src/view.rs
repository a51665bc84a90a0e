//! What a computer player reads off the state before it writes orders: who stands where
//! and how strong, who threatens which province, and the routes an army can take this turn.
//!
//! Strength is total combat (attacks × combat, summed over soldiers and leaders, T2): the
//! figure the rules themselves use for conquest and pillage (M13, M14). Ships never fight on
//! land and are left out.

use crate::coalition::{self, Blocs};
use napoleonic_rules::ids::{KingdomCode, LocId, UnitKind};
use napoleonic_rules::map::Map;
use napoleonic_rules::state::{GameState, Relation, Unit};
use napoleonic_rules::tables::Tables;
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A unit's land strength: its soldiers' and leaders' total combat.
pub(crate) fn strength(u: &Unit, tables: &Tables) -> u32 {
    // Saturating: a state with absurd figures gives absurd strengths, never a panic.
    let soldiers = u
        .troops
        .iter()
        .filter_map(|t| tables.troop(&t.code))
        .filter(|t| t.is_soldier())
        .map(|t| t.total_combat())
        .fold(0u32, u32::saturating_add);
    u.leaders
        .iter()
        .map(|l| l.attacks.saturating_mul(l.combat))
        .fold(soldiers, u32::saturating_add)
}

/// Whether a unit defends or attacks on land (as the engine counts land forces, M12): an
/// army ashore with anyone in it, or a garrison holding soldiers or leaders.
fn land_force(u: &Unit, tables: &Tables) -> bool {
    match u.kind() {
        UnitKind::Fleet => false,
        UnitKind::Army => u.aboard.is_none() && (!u.troops.is_empty() || !u.leaders.is_empty()),
        UnitKind::Garrison => u.soldiers(tables) > 0 || !u.leaders.is_empty(),
    }
}

/// Who stands where on land, and how strong: the same for every kingdom looking at one
/// state, so it is worked out once per turn and shared by every computer player.
pub(crate) struct Picture {
    /// Land strength by location, by kingdom.
    land: BTreeMap<LocId, BTreeMap<KingdomCode, u32>>,
    /// The same, armies only: what can march.
    armies: BTreeMap<LocId, BTreeMap<KingdomCode, u32>>,
    /// The conquerors' coalitions for the turn, worked out when first asked for.
    blocs: OnceCell<Blocs>,
}

impl Picture {
    pub fn new(state: &GameState) -> Picture {
        let mut land: BTreeMap<LocId, BTreeMap<KingdomCode, u32>> = BTreeMap::new();
        let mut armies: BTreeMap<LocId, BTreeMap<KingdomCode, u32>> = BTreeMap::new();
        for u in &state.units {
            if !land_force(u, &state.tables) || !state.provinces.contains_key(&u.location) {
                continue;
            }
            let s = strength(u, &state.tables).max(1);
            let e = land
                .entry(u.location)
                .or_default()
                .entry(u.owner.clone())
                .or_default();
            *e = e.saturating_add(s);
            if u.kind() == UnitKind::Army {
                let e = armies
                    .entry(u.location)
                    .or_default()
                    .entry(u.owner.clone())
                    .or_default();
                *e = e.saturating_add(s);
            }
        }
        Picture {
            land,
            armies,
            blocs: OnceCell::new(),
        }
    }

    /// The turn's coalitions (`coalition::plan`): the same for every kingdom.
    pub fn blocs(&self, map: &Map, state: &GameState) -> &Blocs {
        self.blocs.get_or_init(|| {
            coalition::plan(map, state, |k| {
                self.land
                    .values()
                    .filter_map(|m| m.get(k))
                    .copied()
                    .fold(0u32, u32::saturating_add)
            })
        })
    }
}

pub(crate) struct View<'a> {
    pub map: &'a Map,
    pub state: &'a GameState,
    pub me: KingdomCode,
    /// Kingdoms at war with us, the independents aside: at war now, or declared on by this
    /// turn's orders, which makes them enemies from phase 1 on (F1). Kept here because the
    /// state's relation is looked up by name.
    enemies: BTreeSet<KingdomCode>,
    land: &'a BTreeMap<LocId, BTreeMap<KingdomCode, u32>>,
    armies: &'a BTreeMap<LocId, BTreeMap<KingdomCode, u32>>,
}

impl<'a> View<'a> {
    pub fn new(map: &'a Map, state: &'a GameState, pic: &'a Picture, me: &KingdomCode) -> View<'a> {
        View {
            map,
            state,
            me: me.clone(),
            enemies: state
                .kingdoms
                .keys()
                .filter(|k| *k != me && state.relation(me, k) == Relation::War)
                .cloned()
                .collect(),
            land: &pic.land,
            armies: &pic.armies,
        }
    }

    pub fn owner(&self, at: LocId) -> Option<&KingdomCode> {
        self.state.provinces.get(&at).map(|p| &p.owner)
    }

    /// At war with us this turn, the independents included (they are at war with everyone).
    pub fn hostile(&self, k: &KingdomCode) -> bool {
        k != &self.me
            && (k.is_independent() || self.me.is_independent() || self.enemies.contains(k))
    }

    /// A war declared by this turn's orders (F1).
    pub fn declare(&mut self, k: KingdomCode) {
        self.enemies.insert(k);
    }

    /// A province we may march through at 1 move point (3.3, G6): our own, or one whose
    /// owner has given us permission and is not our enemy (war cancels every grant, F1).
    pub fn passable(&self, at: LocId) -> bool {
        match self.owner(at) {
            Some(o) if o == &self.me => true,
            Some(o) => !self.hostile(o) && self.state.has_permission(&self.me, at),
            None => false,
        }
    }

    /// A province held by an enemy (or by the independents): invading it costs 2 (3.3).
    pub fn enemy_land(&self, at: LocId) -> bool {
        self.owner(at).is_some_and(|o| self.hostile(o))
    }

    /// Provinces across open borders: armies never cross mountains (2.1) nor walk into a sea.
    pub fn land_neighbours(&self, at: LocId) -> Vec<LocId> {
        self.map.get(at).map_or_else(Vec::new, |l| {
            l.edges
                .iter()
                .filter(|e| !e.barrier && self.map.get(e.to).is_some_and(|x| !x.is_sea()))
                .map(|e| e.to)
                .collect()
        })
    }

    /// Our own land strength in a province.
    pub fn own_strength(&self, at: LocId) -> u32 {
        self.land
            .get(&at)
            .and_then(|m| m.get(&self.me))
            .copied()
            .unwrap_or(0)
    }

    /// The land strength of our enemies in a province, raised by the fortification its owner
    /// holds if the owner is one of them (the foot bonus of the effective level, 2.6): what
    /// an attack there has to beat.
    pub fn defence(&self, at: LocId) -> u32 {
        let raw: u32 = self.land.get(&at).map_or(0, |m| {
            m.iter()
                .filter(|(k, _)| self.hostile(k))
                .map(|(_, s)| *s)
                .fold(0u32, u32::saturating_add)
        });
        let Some(p) = self.state.provinces.get(&at) else {
            return raw;
        };
        if !self.hostile(&p.owner) {
            return raw;
        }
        let bonus = self
            .state
            .tables
            .fort(p.effective_fort())
            .map_or(0, |f| f.foot_combat);
        raw.saturating_add(raw.saturating_mul(bonus) / 100)
    }

    /// The enemy strength that could fall on a province of ours next turn: enemy armies in
    /// it or next to it. The independents move only against provinces annexed to them (G36):
    /// they threaten such a province with their garrisons and armies alike, and no other.
    pub fn threat(&self, at: LocId) -> u32 {
        let annexed_to_ind = self
            .state
            .provinces
            .get(&at)
            .is_some_and(|p| p.annexed_to.is_independent());
        let mut total: u32 = 0;
        for l in std::iter::once(at).chain(self.land_neighbours(at)) {
            let (Some(land), armies) = (self.land.get(&l), self.armies.get(&l)) else {
                continue;
            };
            for (k, s) in land {
                if !self.hostile(k) {
                    continue;
                }
                if k.is_independent() && !self.me.is_independent() {
                    if annexed_to_ind {
                        total = total.saturating_add(*s);
                    }
                } else {
                    let a = armies.and_then(|m| m.get(k)).copied().unwrap_or(0);
                    total = total.saturating_add(a);
                }
            }
        }
        total
    }

    /// Where an army at `from` can be by the end of its marches through land it may pass,
    /// at 1 move point a province, with no more than `mp` spent: each place with the
    /// provinces entered on the way (none for `from` itself). Breadth first over borders in
    /// id order, so the same state always gives the same routes.
    pub fn routes(&self, from: LocId, mp: u8) -> BTreeMap<LocId, Vec<LocId>> {
        let mut out: BTreeMap<LocId, Vec<LocId>> = BTreeMap::new();
        out.insert(from, Vec::new());
        let mut queue = VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            let path = out[&at].clone();
            if path.len() >= usize::from(mp) {
                continue;
            }
            for n in self.land_neighbours(at) {
                if out.contains_key(&n) || !self.passable(n) {
                    continue;
                }
                let mut p = path.clone();
                p.push(n);
                out.insert(n, p);
                queue.push_back(n);
            }
        }
        out
    }

    /// The shortest way through land we may pass to the nearest province (other than
    /// `from`) for which `goal` holds, however many turns it takes; None if there is none.
    pub fn way_to(&self, from: LocId, goal: impl Fn(LocId) -> bool) -> Option<Vec<LocId>> {
        let mut parent: BTreeMap<LocId, LocId> = BTreeMap::new();
        let mut seen = BTreeSet::from([from]);
        let mut queue = VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            if at != from && goal(at) {
                let mut path = vec![at];
                let mut cur = at;
                while let Some(&p) = parent.get(&cur) {
                    if p == from {
                        break;
                    }
                    path.push(p);
                    cur = p;
                }
                path.reverse();
                return Some(path);
            }
            for n in self.land_neighbours(at) {
                if self.passable(n) && seen.insert(n) {
                    parent.insert(n, at);
                    queue.push_back(n);
                }
            }
        }
        None
    }

    /// Strength of every land unit a kingdom has: how strong it looks to its neighbours.
    pub fn kingdom_strength(&self, k: &KingdomCode) -> u32 {
        self.land
            .values()
            .filter_map(|m| m.get(k))
            .copied()
            .fold(0u32, u32::saturating_add)
    }

    /// Kingdoms (not us, not the independents) owning a province across an open border from
    /// one of ours.
    pub fn neighbours(&self) -> BTreeSet<KingdomCode> {
        let mut out = BTreeSet::new();
        for (id, p) in &self.state.provinces {
            if p.owner != self.me {
                continue;
            }
            for n in self.land_neighbours(*id) {
                if let Some(o) = self.owner(n)
                    && o != &self.me
                    && !o.is_independent()
                {
                    out.insert(o.clone());
                }
            }
        }
        out
    }

    /// Whether we and another kingdom touch: a common border, or armies of one standing in
    /// the other's land.
    pub fn in_contact(&self, k: &KingdomCode) -> bool {
        if self.neighbours().contains(k) {
            return true;
        }
        self.armies.iter().any(|(at, m)| {
            let owner = self.owner(*at);
            (m.contains_key(&self.me) && owner == Some(k))
                || (m.contains_key(k) && owner == Some(&self.me))
        })
    }
}
