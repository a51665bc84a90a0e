//! A kingdom's orders for one turn, as the engine takes them (digest 3.5): headquarters
//! orders, and for each unit its one-off orders and its plan phase by phase (2.12). The
//! written form players mail is read into these by `napoleonic-orders`.

use crate::fixed::Gold;
use crate::ids::{KingdomCode, LocId, TroopCode, UnitId};
use serde::{Deserialize, Serialize};

/// Everything one kingdom orders in a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingdomOrders {
    pub hq: Vec<HqOrder>,
    pub units: Vec<UnitOrders>,
    /// A proclamation to every player (2.11).
    pub proclamation: Option<String>,
}

/// Orders given from the headquarters or a province report (3.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum HqOrder {
    /// F1, on a neutral kingdom only.
    DeclareWar {
        to: KingdomCode,
    },
    /// F2: accept gifts (provinces, transfers, gold) from a kingdom, or refuse them.
    Acceptance {
        from: KingdomCode,
        accept: bool,
    },
    /// F3.
    GrantPassage {
        to: KingdomCode,
    },
    RevokePassage {
        to: KingdomCode,
    },
    /// F4, for a province the kingdom owns.
    GrantPermission {
        province: LocId,
        to: KingdomCode,
    },
    RevokePermission {
        province: LocId,
        to: KingdomCode,
    },
    /// L2.
    SendGold {
        to: KingdomCode,
        amount: Gold,
    },
    /// L6 (G26: an HQ order on a province).
    Annex {
        province: LocId,
    },
    /// L12.
    GiveProvince {
        province: LocId,
        to: KingdomCode,
    },
    /// L15, L16, L17.
    OfferPeace {
        to: KingdomCode,
    },
    CancelAlliance {
        to: KingdomCode,
    },
    OfferAlliance {
        to: KingdomCode,
    },
    /// Outside the engine: the host passes the sender's address on.
    SendAmbassador {
        to: KingdomCode,
    },
}

/// A number of troops of one type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TroopCount {
    pub code: TroopCode,
    pub count: u32,
}

/// Troops and leaders handed to another unit (F9 in the same place, else M1 of a phase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transfer {
    pub troops: Vec<TroopCount>,
    /// Leaders by name.
    pub leaders: Vec<String>,
    /// The receiving unit's kingdom (None: the orderer's own) and id.
    pub to_kingdom: Option<KingdomCode>,
    pub to: UnitId,
}

/// How many troops of a type stand in each rank, 1 to 5 (F10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankOrder {
    pub code: TroopCode,
    pub ranks: [u32; 5],
}

/// Administrative orders, which cost no move points (F8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum Admin {
    RetreatLevel { rank: u8 },
    Follow { unit: Option<UnitId> },
    Marines { board: bool },
    Leader { name: String },
    Rename { name: String },
}

/// A structure to build or raze (L8, L10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Structure {
    Fortification,
    Harbour,
}

/// The one movement a unit makes in a phase (M4 for fleets, M9 for armies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Move(LocId),
    Hold,
}

/// What a unit does in one phase of movement (2.12, G12).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhasePlan {
    /// 1, 2, 3, ...
    pub phase: u8,
    /// M1.
    pub transfers: Vec<Transfer>,
    /// M2: an army lets this kingdom's fleet load it.
    pub prepare_board: Option<KingdomCode>,
    /// M3, fleets: armies (owner, id) to load before this phase's movement.
    pub load: Vec<(Option<KingdomCode>, UnitId)>,
    /// M4 fleets, M9 armies.
    pub step: Option<Step>,
    /// M8, fleets: an army aboard, and the province to put it ashore.
    pub unload: Vec<(Option<KingdomCode>, UnitId, LocId)>,
    /// M9b (G12), fleets: armies to load after this phase's movement.
    pub load_after: Vec<(Option<KingdomCode>, UnitId)>,
    /// M10, armies: enter the fortification and defend it (true) or stay outside.
    pub defend: Option<bool>,
    /// M14.
    pub pillage: bool,
}

/// One unit's orders for the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitOrders {
    pub unit: UnitId,
    /// F6/F7: new armies or fleets this unit forms, with their names; numbered at F6/F7
    /// with the id given here.
    pub form: Vec<(UnitId, String)>,
    /// F8.
    pub admin: Vec<Admin>,
    /// F9: transfers made before movement (the two units share a location).
    pub transfers: Vec<Transfer>,
    /// F10.
    pub ranks: Vec<RankOrder>,
    /// F11: removed troops; `salvage` also gives gold for ships and siege machines.
    pub disband: Vec<TroopCount>,
    pub salvage: Vec<TroopCount>,
    /// Phase by phase.
    pub plan: Vec<PhasePlan>,
    /// L4, garrisons.
    pub recruit: Vec<TroopCount>,
    /// L5, garrisons.
    pub hire_leader: bool,
    /// L8: build one fortification level, or a harbour; `repair` mends one level of damage.
    pub build: Option<Structure>,
    pub repair: bool,
    /// L10.
    pub raze: Option<Structure>,
}

impl UnitOrders {
    pub fn new(unit: UnitId) -> UnitOrders {
        UnitOrders {
            unit,
            form: Vec::new(),
            admin: Vec::new(),
            transfers: Vec::new(),
            ranks: Vec::new(),
            disband: Vec::new(),
            salvage: Vec::new(),
            plan: Vec::new(),
            recruit: Vec::new(),
            hire_leader: false,
            build: None,
            repair: false,
            raze: None,
        }
    }

    /// The plan for a phase, if the unit has one.
    pub fn phase(&self, n: u8) -> Option<&PhasePlan> {
        self.plan.iter().find(|p| p.phase == n)
    }

    /// The last phase with anything in it.
    pub fn last_phase(&self) -> u8 {
        self.plan.iter().map(|p| p.phase).max().unwrap_or(0)
    }
}
