//! A kingdom's orders as a computer player writes them: one set of orders per unit, army
//! numbers that are free, and every troop counted once, so that a transfer (F9) and a
//! disband (F11) never name more troops than the unit will hold then.

use napoleonic_rules::ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use napoleonic_rules::orders::{
    HqOrder, KingdomOrders, PhasePlan, Step, Transfer, TroopCount, UnitOrders,
};
use napoleonic_rules::state::GameState;
use std::collections::{BTreeMap, BTreeSet};

/// Troops by type.
pub(crate) type Counts = BTreeMap<TroopCode, u32>;

pub(crate) struct Sheet {
    pub hq: Vec<HqOrder>,
    units: BTreeMap<UnitId, UnitOrders>,
    /// Army and fleet ids in use: the kingdom's own and those this sheet forms (F6).
    taken: BTreeSet<UnitId>,
    /// The troops each unit will hold once the sheet's transfers and disbands are made.
    left: BTreeMap<UnitId, Counts>,
    /// Troops each garrison recruits (L4: at most the city's limit a turn).
    recruited: BTreeMap<UnitId, u32>,
    /// The armies this sheet forms (F6), each with the unit that forms it and stands with it.
    formed: BTreeMap<UnitId, UnitId>,
    /// Leaders the sheet hands on (F9), by name: each goes once.
    leaders_given: BTreeSet<String>,
}

impl Sheet {
    pub fn new(state: &GameState, me: &KingdomCode) -> Sheet {
        let mut taken = BTreeSet::new();
        let mut left: BTreeMap<UnitId, Counts> = BTreeMap::new();
        for u in state.units.iter().filter(|u| &u.owner == me) {
            taken.insert(u.id);
            let c = left.entry(u.id).or_default();
            for t in &u.troops {
                *c.entry(t.code.clone()).or_default() += 1;
            }
        }
        Sheet {
            hq: Vec::new(),
            units: BTreeMap::new(),
            taken,
            left,
            recruited: BTreeMap::new(),
            formed: BTreeMap::new(),
            leaders_given: BTreeSet::new(),
        }
    }

    /// The armies this sheet forms beside `creator` (F6), which stand where it stands.
    pub fn formed_by(&self, creator: UnitId) -> Vec<UnitId> {
        self.formed
            .iter()
            .filter(|(_, c)| **c == creator)
            .map(|(a, _)| *a)
            .collect()
    }

    /// Hands a leader to another unit in the same place before movement (F9); a leader
    /// already handed on stays where the first order sends him.
    pub fn give_leader(&mut self, from: UnitId, to: UnitId, leader: &str) {
        if !self.leaders_given.insert(leader.to_string()) {
            return;
        }
        self.entry(from).transfers.push(Transfer {
            troops: Vec::new(),
            leaders: vec![leader.to_string()],
            to_kingdom: None,
            to,
        });
    }

    /// Whether the sheet hands this leader on.
    pub fn leader_given(&self, leader: &str) -> bool {
        self.leaders_given.contains(leader)
    }

    /// Hires a leader in a garrison (L5).
    pub fn hire_leader(&mut self, garrison: UnitId) {
        if garrison.kind == UnitKind::Garrison {
            self.entry(garrison).hire_leader = true;
        }
    }

    fn entry(&mut self, id: UnitId) -> &mut UnitOrders {
        self.units.entry(id).or_insert_with(|| UnitOrders::new(id))
    }

    fn phase(&mut self, id: UnitId, phase: u8) -> &mut PhasePlan {
        let e = self.entry(id);
        if let Some(i) = e.plan.iter().position(|p| p.phase == phase) {
            return &mut e.plan[i];
        }
        e.plan.push(PhasePlan {
            phase,
            ..PhasePlan::default()
        });
        e.plan.sort_by_key(|p| p.phase);
        let i = e.plan.iter().position(|p| p.phase == phase).expect("added");
        &mut e.plan[i]
    }

    /// The troops a unit will hold after what the sheet has it give away so far.
    pub fn left(&self, id: UnitId) -> Counts {
        self.left.get(&id).cloned().unwrap_or_default()
    }

    /// Forms a new army with the lowest free number (F6), standing with its creator; None
    /// when the kingdom has 99 already.
    pub fn form_army(&mut self, creator: UnitId) -> Option<UnitId> {
        let id = (1..=UnitId::MAX_ARMIES)
            .map(UnitId::army)
            .find(|id| !self.taken.contains(id))?;
        self.taken.insert(id);
        self.left.insert(id, Counts::new());
        self.formed.insert(id, creator);
        // An empty name: the engine names it as it names every army ("France A4").
        self.entry(creator).form.push((id, String::new()));
        Some(id)
    }

    /// A transfer before movement (F9) between two of the kingdom's units in one place.
    /// Only troops the giver still holds move; nothing is written if none do.
    pub fn transfer(&mut self, from: UnitId, to: UnitId, troops: &Counts) {
        let held = self.left(from);
        let mut list = Vec::new();
        for (code, &n) in troops {
            let n = n.min(held.get(code).copied().unwrap_or(0));
            if n == 0 {
                continue;
            }
            self.take(from, code, n);
            *self
                .left
                .entry(to)
                .or_default()
                .entry(code.clone())
                .or_default() += n;
            list.push(TroopCount {
                code: code.clone(),
                count: n,
            });
        }
        if list.is_empty() {
            return;
        }
        self.entry(from).transfers.push(Transfer {
            troops: list,
            leaders: Vec::new(),
            to_kingdom: None,
            to,
        });
    }

    fn take(&mut self, from: UnitId, code: &TroopCode, n: u32) {
        if let Some(c) = self.left.get_mut(&from)
            && let Some(h) = c.get_mut(code)
        {
            *h -= n.min(*h);
            if *h == 0 {
                c.remove(code);
            }
        }
    }

    /// Disbands troops (F11), or salvages them for gold where salvage pays.
    pub fn remove(&mut self, unit: UnitId, code: &TroopCode, n: u32, salvage: bool) {
        let n = n.min(self.left(unit).get(code).copied().unwrap_or(0));
        if n == 0 {
            return;
        }
        self.take(unit, code, n);
        let e = self.entry(unit);
        let list = if salvage {
            &mut e.salvage
        } else {
            &mut e.disband
        };
        match list.iter_mut().find(|t| &t.code == code) {
            Some(t) => t.count += n,
            None => list.push(TroopCount {
                code: code.clone(),
                count: n,
            }),
        }
    }

    /// Troops a garrison has recruited so far on this sheet.
    pub fn recruited(&self, garrison: UnitId) -> u32 {
        self.recruited.get(&garrison).copied().unwrap_or(0)
    }

    /// Recruits troops in a garrison (L4).
    pub fn recruit(&mut self, garrison: UnitId, code: &TroopCode, n: u32) {
        if n == 0 || garrison.kind != UnitKind::Garrison {
            return;
        }
        *self.recruited.entry(garrison).or_default() += n;
        let e = self.entry(garrison);
        match e.recruit.iter_mut().find(|t| &t.code == code) {
            Some(t) => t.count += n,
            None => e.recruit.push(TroopCount {
                code: code.clone(),
                count: n,
            }),
        }
    }

    /// A march, one province a phase from phase 1 (M9, 2.12).
    pub fn march(&mut self, unit: UnitId, path: &[LocId]) {
        for (i, to) in path.iter().enumerate() {
            let phase = u8::try_from(i + 1).unwrap_or(u8::MAX);
            self.phase(unit, phase).step = Some(Step::Move(*to));
        }
    }

    /// A fleet's plan for one phase (M3 load, M4 sail, M8 unload), in place of any it had.
    pub fn sail(&mut self, fleet: UnitId, plan: PhasePlan) {
        let phase = plan.phase;
        *self.phase(fleet, phase) = plan;
    }

    /// Pillage in a phase (M14).
    pub fn pillage(&mut self, unit: UnitId, phase: u8) {
        self.phase(unit, phase).pillage = true;
    }

    /// Orders without the movement: no new armies, no transfers, no plans. What is left
    /// (diplomacy, annexing, recruiting, disbanding) needs nobody to move.
    pub fn without_movement(orders: &KingdomOrders) -> KingdomOrders {
        let mut out = orders.clone();
        for u in &mut out.units {
            u.form.clear();
            u.transfers.clear();
            u.plan.clear();
        }
        out.units.retain(|u| !empty(u));
        out
    }

    pub fn finish(self) -> KingdomOrders {
        KingdomOrders {
            hq: self.hq,
            units: self.units.into_values().filter(|u| !empty(u)).collect(),
            proclamation: None,
        }
    }
}

fn empty(u: &UnitOrders) -> bool {
    u.form.is_empty()
        && u.admin.is_empty()
        && u.transfers.is_empty()
        && u.ranks.is_empty()
        && u.disband.is_empty()
        && u.salvage.is_empty()
        && u.plan.is_empty()
        && u.recruit.is_empty()
        && !u.hire_leader
        && u.build.is_none()
        && !u.repair
        && u.raze.is_none()
}
