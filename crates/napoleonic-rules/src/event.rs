//! What happened in a turn, step by step: the single source every report is drawn from.
//! Each event names the step of the turn sequence (digest 3.1-3.4) it happened in.

use crate::fixed::Gold;
use crate::ids::{KingdomCode, LocId, TroopCode, UnitId};
use crate::orders::TroopCount;
use serde::{Deserialize, Serialize};

/// The steps of movement within a phase (3.2), in their order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveStep {
    Transfers,
    PrepareToBoard,
    Load,
    Sail,
    HomelessDepart,
    SeaBattles,
    StorageChecked,
    Unload,
    March,
    /// G12: "Fleets Load Armies Again", after the march.
    LoadAgain,
    DefendOption,
    BorderBattles,
    LandBattles,
    Ownership,
    Pillage,
}

/// When an event happened: a First Event (F1-F11), a step of a movement phase, or a Final
/// Event (L1-L20).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    First(u8),
    Phase(u8, MoveStep),
    Final(u8),
}

/// A unit of some kingdom.
pub type UnitRef = (KingdomCode, UnitId);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub when: When,
    #[serde(flatten)]
    pub what: What,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum What {
    /// Any order that could not be carried out, with the reason in plain words.
    OrderFailed {
        kingdom: KingdomCode,
        unit: Option<UnitId>,
        order: String,
        reason: String,
    },
    WarDeclared {
        by: KingdomCode,
        on: KingdomCode,
    },
    AcceptanceChanged {
        by: KingdomCode,
        toward: KingdomCode,
        accept: bool,
    },
    PassageChanged {
        by: KingdomCode,
        to: KingdomCode,
        granted: bool,
    },
    PermissionChanged {
        by: KingdomCode,
        province: LocId,
        to: KingdomCode,
        granted: bool,
    },
    UnitFormed {
        unit: UnitRef,
        by: UnitId,
        at: LocId,
        name: String,
    },
    AdminChanged {
        unit: UnitRef,
        what: String,
    },
    Transferred {
        from: UnitRef,
        to: UnitRef,
        troops: Vec<TroopCount>,
        leaders: Vec<String>,
    },
    RanksSet {
        unit: UnitRef,
    },
    Disbanded {
        unit: UnitRef,
        troops: Vec<TroopCount>,
        salvage: Gold,
    },
    BoardingPrepared {
        unit: UnitRef,
        for_kingdom: KingdomCode,
    },
    Loaded {
        fleet: UnitRef,
        army: UnitRef,
        at: LocId,
    },
    Moved {
        unit: UnitRef,
        from: LocId,
        to: LocId,
        cost: u8,
    },
    Held {
        unit: UnitRef,
        at: LocId,
        cost: u8,
    },
    /// An army or fleet that could not enter: it stays, and the phase is used (G30).
    Bounced {
        unit: UnitRef,
        at: LocId,
        toward: LocId,
        reason: String,
    },
    HomelessFled {
        fleet: UnitRef,
        from: LocId,
        to: Option<LocId>,
    },
    Overboard {
        fleet: UnitRef,
        troops: Vec<TroopCount>,
    },
    Unloaded {
        fleet: UnitRef,
        army: UnitRef,
        at: LocId,
        amphibious: bool,
    },
    LandingFailed {
        fleet: UnitRef,
        at: LocId,
        chance: u32,
    },
    /// Enemies meet in a province (M12) or a sea (M6): the battle fought there follows as
    /// a `Battle` event.
    BattleJoined {
        at: LocId,
        kingdoms: Vec<KingdomCode>,
    },
    OwnershipChanged {
        province: LocId,
        from: KingdomCode,
        to: KingdomCode,
    },
    Pillaged {
        province: LocId,
        unit: UnitRef,
        gold: Gold,
    },
    DamageRose {
        province: LocId,
        level: u8,
    },
    GoldSent {
        from: KingdomCode,
        to: KingdomCode,
        amount: Gold,
        fee: Gold,
    },
    UpkeepPaid {
        kingdom: KingdomCode,
        paid: Gold,
        unpaid: u32,
        lost: Vec<(UnitId, TroopCode)>,
    },
    TroopsBuilt {
        unit: UnitRef,
        troops: Vec<TroopCount>,
        cost: Gold,
    },
    LeaderHired {
        unit: UnitRef,
        leader: String,
        cost: Gold,
    },
    Annexed {
        kingdom: KingdomCode,
        province: LocId,
        cost: Gold,
    },
    AnnexationLapsed {
        province: LocId,
        from: KingdomCode,
    },
    FortRepaired {
        province: LocId,
        damage: u8,
    },
    Built {
        unit: UnitRef,
        province: LocId,
        what: String,
        cost: Gold,
    },
    Decay {
        kingdom: KingdomCode,
        amount: Gold,
    },
    Razed {
        unit: UnitRef,
        province: LocId,
        what: String,
        salvage: Gold,
    },
    Revenue {
        kingdom: KingdomCode,
        amount: Gold,
        provinces: u32,
    },
    ProvinceGiven {
        province: LocId,
        from: KingdomCode,
        to: KingdomCode,
    },
    Proclamation {
        kingdom: KingdomCode,
        text: String,
        income: Gold,
    },
    DamageRepaired {
        province: LocId,
        level: u8,
    },
    RelationChanged {
        a: KingdomCode,
        b: KingdomCode,
        relation: crate::state::Relation,
    },
    LimitEnforced {
        kingdom: KingdomCode,
        what: String,
    },
    KingdomDefeated {
        kingdom: KingdomCode,
    },
    /// Send Ambassador (HQ): the sender's ruler introduces themself to the other's, who may
    /// write to them; the host passes the sender's address on where its player allows it.
    AmbassadorSent {
        from: KingdomCode,
        to: KingdomCode,
    },
    /// The GM's ruling (2.10): the ruler's status from this turn on.
    StatusChanged {
        kingdom: KingdomCode,
        status: crate::state::Status,
    },
    /// The GM's ruling (L13, "the GM is reading"): the proclamation was published but earns
    /// nothing.
    ProclamationDenied {
        kingdom: KingdomCode,
    },
    /// The GM's ruling (digest 6): the game is won by these kingdoms and ends with this turn.
    GameDeclared {
        kingdoms: Vec<KingdomCode>,
        reason: String,
        provinces: u32,
        of: u32,
    },
    /// Orders that would leave the kingdom with nothing were not carried out (6, palace coup).
    PalaceCoup {
        kingdom: KingdomCode,
    },
    /// Armies (M11) or fleets (M6) of kingdoms at war crossed one border in opposite
    /// directions: a border battle, which follows as a `Battle` event. Each side waits at
    /// its origin; the winners then cross (4.4).
    BorderBattleJoined {
        between: (LocId, LocId),
        kingdoms: Vec<KingdomCode>,
        units: Vec<UnitRef>,
    },
    /// A captured province lost its harbour (M13, G32).
    HarbourLost {
        province: LocId,
    },
    /// A fleet that could not flee (M5 with no sea, or a conquest, T57) is gone: ships
    /// captured by the conqueror into a new fleet, the rest scuttled; its leaders into a new
    /// army (`leaders_to` is None when it had none, or, with 99 armies, they were lost); the
    /// armies aboard put ashore where it lay.
    FleetLost {
        fleet: UnitRef,
        at: LocId,
        captured: Vec<TroopCount>,
        captured_by: Option<UnitRef>,
        scuttled: Vec<TroopCount>,
        leaders_to: Option<UnitRef>,
    },
    /// A battle fought on land (M12), across a border (M11) or at sea (M6), with everything
    /// its report needs: sides, units, siege rolls, each round's damage and casualties,
    /// retreats, the aftermath and the winners. It names every unit and leader in it: a
    /// report shows each kingdom only what it may know of it (G34).
    Battle(Box<crate::battle::report::BattleReport>),
    /// A leader left his unit: unpaid at L3, or deserting a Commoner at L18 (G28), or with
    /// nowhere to go when a gifted province's garrison was emptied (G29).
    LeaderLost {
        unit: UnitRef,
        leader: String,
        reason: String,
    },
}
