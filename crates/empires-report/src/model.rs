//! The report a player receives after a turn (section 10), as plain data. This is the
//! canonical form: the JSON is this structure, and the text and HTML forms are rendered from
//! it. Codes are plain strings so the JSON schema is simple for other programs.

use crate::cached::Shared;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The version of the report format; bumped whenever a field changes meaning or goes away.
pub const REPORT_VERSION: u32 = 1;

/// One empire's report of one turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    pub version: u32,
    pub game: String,
    /// The name of the map the game is played on.
    #[serde(default)]
    pub map: String,
    pub variant: String,
    /// The game's settings as they apply to this empire (1.3 of the rules document): what
    /// a player's own copy of the checker needs besides the report.
    #[serde(default)]
    pub settings: Settings,
    /// The turn just played (0 for the starting position).
    pub turn: u32,
    /// The turn the attached turnsheet is for (2.7).
    pub next_turn: u32,
    pub empire: EmpireLine,
    /// The computer wrote this empire's orders for the turn (2.5).
    pub computer_written: bool,
    /// 10.1: the empire's own actions, in order, with what became of them.
    pub actions: Vec<ActionLine>,
    /// 10.1: what other empires did that concerns this one (shown in bold).
    pub against_you: Vec<Happening>,
    pub economy: Economy,
    /// Land areas owned at the end of the turn.
    pub areas: Vec<OwnedArea>,
    pub fleets: Vec<FleetLine>,
    /// Where the empire's spy is, and its watchers (9.x).
    pub spy: Option<String>,
    /// The empire whose spy this one lies in wait for (9.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spy_waiting_for: Option<String>,
    pub watchers: Vec<String>,
    /// 10.2: other areas in sight at the end of the turn.
    pub scouting: Vec<ScoutedArea>,
    /// European Empires: supply capacity and capital (S.3, S.10).
    pub supply: Option<SupplyLine>,
    /// Set when the three parts below, the same in every empire's report of the turn, are
    /// left out of this one: the name of the file beside it that holds them
    /// (`public.json`, see [`crate::public`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_in: Option<String>,
    /// The parts every report of a turn shares are held once, however many reports.
    #[serde(default, skip_serializing_if = "Shared::is_omitted")]
    pub roundup: Shared<Roundup>,
    /// 10.4: the key events of the turn, in order.
    #[serde(default, skip_serializing_if = "Shared::is_omitted")]
    pub actions_report: Shared<Vec<PublicEvent>>,
    /// 10.6: player and GM messages.
    #[serde(default, skip_serializing_if = "Shared::is_omitted")]
    pub messages: Shared<Vec<MessageLine>>,
}

impl Report {
    /// Whether the empire has a next turn to write orders for: the game goes on and the
    /// empire is still in it. Otherwise no turnsheet is attached (2.7).
    pub fn plays_on(&self) -> bool {
        self.roundup.game_over.is_none() && self.empire.eliminated.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EmpireLine {
    pub code: String,
    pub name: String,
    /// `None` for a dummy empire run by the computer.
    pub player: Option<String>,
    /// The turn the empire was eliminated, if it was.
    pub eliminated: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ActionLine {
    pub slot: u32,
    pub line: u32,
    pub order: String,
    /// `done`, `cut_down`, `failed` or `ignored`.
    pub status: String,
    pub reason: Option<String>,
    pub result: String,
    pub spent: u32,
    /// Carried out, but it went against the empire: an attack repulsed, a sea battle lost.
    #[serde(default)]
    pub setback: bool,
}

/// Something another empire did that concerns this one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Happening {
    /// The action round (0 before the first action, and at the end of the turn).
    pub round: u32,
    pub by: Option<String>,
    pub text: String,
    /// How it turned out for the reader: `good` (an attack beaten off, a gift), `bad` (an
    /// area lost, an army sabotaged) or empty.
    #[serde(default)]
    pub tone: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Economy {
    /// 3.2: income earned at the end of the turn.
    pub income: u32,
    /// 3.3: supply costs, in total and by area.
    pub supply_cost: u32,
    pub supply_by_area: Vec<AreaCost>,
    pub reserves_supply: u32,
    /// BPs to spend next turn: income less supply.
    pub bps: u32,
    pub treasury: u32,
    pub vps: i32,
    pub army_reserve: u32,
    pub navy_reserve: u32,
    /// World Empires only.
    pub air_force: Option<u32>,
    /// 3.6, 3.7, S.12: what became of unspent BPs.
    pub cash_returned: u32,
    pub leftover_trains: u32,
    pub leftover_armies: u32,
    pub order_bid: u32,
    /// 6.5: dispersals at the end of the turn.
    pub dispersals: Vec<DispersalLine>,
    /// 11.2: VPs scored at a census this turn.
    pub census_vps: Option<u32>,
    /// Where this turn's VPs came from and went (8.14, 11.2-11.5), in order; `vps` less
    /// their sum is the total before the turn.
    #[serde(default)]
    pub vp_changes: Vec<VpChange>,
}

/// The ruleset options of the game (decisions marked "option"), with the actions this
/// empire may take a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Settings {
    pub actions_per_turn: u32,
    /// `distance_plus_half` or `distance_only` (3.3).
    pub sea_supply: String,
    pub blockade_means_not_owned: bool,
    pub dropout_after: u32,
    pub points_target: Option<u32>,
    pub victory_from_turn: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            actions_per_turn: 16,
            sea_supply: "distance_plus_half".into(),
            blockade_means_not_owned: false,
            dropout_after: 3,
            points_target: None,
            victory_from_turn: 0,
        }
    }
}

/// One change to an empire's victory points, with its reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VpChange {
    pub vps: i32,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AreaCost {
    pub area: String,
    pub cost: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DispersalLine {
    pub area: String,
    pub armies: u32,
    pub ships: u32,
    /// The rule and the numbers behind it (6.5, S.8, 7.2).
    #[serde(default)]
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OwnedArea {
    pub code: String,
    pub name: String,
    pub terrain: String,
    pub population: u32,
    pub armies: u32,
    pub forts: u32,
    /// `defend`, `entrench`, `ambush` or `retreat` (7.6).
    pub defence: String,
    /// The area an entrenchment or ambush faces.
    pub against: Option<String>,
    pub retreat_to: Option<String>,
    pub base: Option<BaseLine>,
    pub supply_cost: u32,
    /// European Empires: trains here and the supply centre this area draws on (S.4).
    pub trains: Option<u32>,
    pub supply_source: Option<String>,
    /// The codes of the areas next to it, land and sea (4.1), for players without a map.
    #[serde(default)]
    pub neighbours: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BaseLine {
    pub entrance: String,
    pub ships: u32,
    pub laid_up: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FleetLine {
    pub area: String,
    pub ships: u32,
    pub armies: u32,
    /// The fleet's naval base; `None` when cut off from any base.
    pub base: Option<String>,
    /// Distance from the base (4.5); `None` with no route.
    pub distance: Option<u32>,
}

/// An area seen but not owned, as it stands at the end of the turn (10.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScoutedArea {
    pub code: String,
    pub name: String,
    pub terrain: String,
    pub owner: Option<String>,
    pub population: u32,
    pub armies: u32,
    pub forts: u32,
    /// Ships in commission in the area's naval base.
    pub base_ships: Option<u32>,
    /// The sea area the base is entered from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_entrance: Option<String>,
    /// Ships at sea there: owner, ships, armies aboard.
    pub fleet: Option<FleetSighting>,
    /// European Empires: trains seen there.
    pub trains: Option<u32>,
    /// Why the area is in sight: `border`, `fleet`, `spy`, `watcher`, `action`.
    pub seen_by: Vec<String>,
    /// The codes of the areas next to it (4.1).
    #[serde(default)]
    pub neighbours: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FleetSighting {
    pub owner: String,
    pub ships: u32,
    pub armies: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SupplyLine {
    pub capacity: u32,
    pub capital: Option<String>,
}

/// 10.3: what everyone may know of everyone.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Roundup {
    /// The order of play for the next turn.
    pub order_of_play: Vec<String>,
    pub empires: Vec<RoundupEmpire>,
    /// The current leader's VPs (11.3).
    pub leader_score: i32,
    /// 11.6: a victory condition has been met; the game may end at the next census.
    pub warning: Option<Claim>,
    pub game_over: Option<Claim>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RoundupEmpire {
    pub code: String,
    pub name: String,
    pub player: Option<String>,
    /// Land areas owned. (Whether another empire's areas hold population is not public, so
    /// the roundup gives no count of populated areas.)
    pub areas: Vec<String>,
    pub treasury: u32,
    pub army_reserve: u32,
    pub eliminated: Option<u32>,
    /// 2.9: PHONE and EMAIL lines.
    pub phone: Option<String>,
    pub email: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Claim {
    pub empire: String,
    /// `runaway`, `knockout` or `points`.
    pub condition: String,
    pub vps: i32,
    pub turn: u32,
}

/// 10.4: one entry of the actions report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PublicEvent {
    pub round: u32,
    /// `capture`, `attack` (a failed one), `sea_battle`, `deployed`, `eliminated`.
    pub kind: String,
    pub text: String,
    /// Captures stand out (shown in bold).
    pub capture: bool,
    /// A major battle: double figures on both sides (underlined).
    pub major: bool,
    pub battle: Option<BattleLine>,
}

/// The numbers of a land or sea battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BattleLine {
    pub area: String,
    pub from: String,
    pub attacker: String,
    pub defender: Option<String>,
    pub attackers: u32,
    pub defenders: u32,
    pub attack_strength: u32,
    pub defence_strength: u32,
    pub attacker_lost: u32,
    pub defender_lost: u32,
    /// Phase by phase, in words (air, sea, retreat, land, collateral damage).
    pub phases: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MessageLine {
    /// An empire's code, or `GM`.
    pub from: String,
    pub text: String,
}
