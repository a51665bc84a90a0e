//! What happened during a turn. Every event names the empires it concerns, so each player's
//! report can show what others did to them; reports are views over these events and the
//! state, never computed separately.

use crate::codes::{AreaCode, EmpireCode};
use crate::state::VictoryClaim;
use serde::{Deserialize, Serialize};

/// When in the turn an event happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before the first action: the unowned areas' random actions (6.4).
    Start,
    /// The action round with this number (1.6).
    Round(u32),
    /// After the last round (decision 3).
    End,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub phase: Phase,
    /// Every empire this event concerns: the one acting first, then those affected.
    pub concerns: Vec<EmpireCode>,
    pub what: What,
}

/// How an action turned out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// Done as ordered.
    Done,
    /// Done, but with less than was ordered.
    CutDown { reason: String },
    /// Nothing happened.
    Failed { reason: String },
    /// Not processed at all (beyond the action limit, or an ORDER without a number).
    Ignored { reason: String },
}

impl Outcome {
    pub fn succeeded(&self) -> bool {
        matches!(self, Outcome::Done | Outcome::CutDown { .. })
    }
}

/// The random action of an unowned area (6.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Growth {
    Army,
    Fort,
    Population,
}

/// The numbers of a sea battle (8.1), or of the sea phase of a land battle (8.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeaFight {
    pub attacker_ships: u32,
    pub defender_ships: u32,
    pub attacker_lost: u32,
    pub defender_lost: u32,
}

/// The numbers of an air phase (8.3, 8.4, 8.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirFight {
    pub attacker_air: u32,
    /// What the defender sent up; 0 when too weak to matter (8.4).
    pub defender_air: u32,
    pub attacker_lost: u32,
    pub defender_lost: u32,
    /// Hits carried over to the next phase against the defender and the attacker.
    pub carried_to_defender: u32,
    pub carried_to_attacker: u32,
}

/// Every number of a land battle, phase by phase (8.2-8.14).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LandBattle {
    pub area: AreaCode,
    pub from: AreaCode,
    pub attacker: EmpireCode,
    /// `None` for an unowned area.
    pub defender: Option<EmpireCode>,
    pub attackers: u32,
    pub defenders: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<AirFight>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sea: Option<SeaFight>,
    /// Where the defending armies retreated to before the land phase (8.7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retreated_to: Option<AreaCode>,
    pub attack_strength: u32,
    pub defence_strength: u32,
    pub attacker_lost: u32,
    pub defender_lost: u32,
    pub ambushed: bool,
    /// Attacking armies lost after the sea phase for want of ships (8.1, 8.5), included in
    /// `attacker_lost`; they did not land.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lost_at_sea: u32,
    pub population_lost: u32,
    pub forts_lost: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub trains_lost: u32,
    /// Attacking armies standing after the land phase, and the population left after
    /// collateral damage: what the capture test compares (8.14).
    #[serde(default)]
    pub survivors: u32,
    #[serde(default)]
    pub population_left: u32,
    pub captured: bool,
    /// Attackers that moved into the area (on capture) and that went back.
    pub moved_in: u32,
    pub returned: u32,
    pub attacker_vps: i32,
    pub defender_vps: i32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl LandBattle {
    /// 10.4: a major battle has double figures on both sides.
    pub fn major(&self) -> bool {
        self.attack_strength >= 10 && self.defence_strength >= 10
    }

    /// Defending armies still in the area after the battle.
    pub fn defenders_left(&self) -> u32 {
        if self.retreated_to.is_some() {
            0
        } else {
            self.defenders - self.defender_lost.min(self.defenders)
        }
    }

    /// Why the area fell or held, by the capture test of 8.14.
    pub fn verdict(&self) -> String {
        let armies = |n: u32| if n == 1 { "army" } else { "armies" };
        if self.attackers > 0 && self.lost_at_sea >= self.attackers {
            return "no attacking army reached the shore: all went down with their ships (8.1, 8.5)"
                .into();
        }
        let left = self.defenders_left();
        let (s, p) = (self.survivors, self.population_left);
        if self.captured {
            format!(
                "no defending army was left and {s} surviving attacking {} outnumbered the population of {p} (8.14)",
                armies(s)
            )
        } else if left > 0 {
            format!(
                "{left} defending {} still stood in the area (8.14)",
                armies(left)
            )
        } else {
            format!(
                "no defending army was left, but {s} surviving attacking {} did not outnumber the population of {p} (8.14)",
                armies(s)
            )
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum What {
    /// 6.4: an unowned area's random action.
    Unowned {
        area: AreaCode,
        growth: Growth,
    },
    /// One action of one empire, and what became of it.
    Action {
        empire: EmpireCode,
        /// 1-based position on the turnsheet.
        slot: u32,
        line: u32,
        order: String,
        #[serde(flatten)]
        outcome: Outcome,
        /// BPs spent from the current balance.
        spent: u32,
        /// What happened, in a sentence, as the empire that acted reads it.
        result: String,
        /// What happened as the other empires concerned read it (the owner of the area
        /// sabotaged, the receiver of a gift), when it is theirs to know (10.5).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        told: Option<String>,
        /// The areas this action showed the empire (moved through, attacked, spied on).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        seen: Vec<AreaCode>,
    },
    SeaBattle {
        area: AreaCode,
        from: AreaCode,
        attacker: EmpireCode,
        defender: EmpireCode,
        fight: SeaFight,
        attacker_armies_lost: u32,
        defender_armies_lost: u32,
        attacker_won: bool,
    },
    LandBattle(Box<LandBattle>),
    /// Ships and armies lost because a fleet cannot reach its base (6.5, 7.2).
    NoRouteToBase {
        empire: EmpireCode,
        area: AreaCode,
        ships: u32,
        armies: u32,
    },
    SpyKilled {
        victim: EmpireCode,
        by: EmpireCode,
        area: AreaCode,
        how: String,
    },
    SpyFound {
        finder: EmpireCode,
        spy_of: EmpireCode,
        area: AreaCode,
    },
    WatcherEliminated {
        victim: EmpireCode,
        by: EmpireCode,
        area: AreaCode,
    },
    Message {
        from: EmpireCode,
        text: String,
    },
    /// 3.6: unused BPs going back to the treasury.
    CashReturned {
        empire: EmpireCode,
        bps: u32,
    },
    /// 3.7: leftover BPs becoming reserve armies and an ORDER bid.
    Leftover {
        empire: EmpireCode,
        /// European Empires: trains built in the capital first (S.12).
        #[serde(default, skip_serializing_if = "is_zero")]
        trains: u32,
        armies: u32,
        order_bps: u32,
    },
    /// 6.5: armies (and at sea ships) sent back to the reserve.
    Dispersal {
        empire: Option<EmpireCode>,
        area: AreaCode,
        armies: u32,
        ships: u32,
        /// On land: the armies present and what holds them (population + forts), and the
        /// supply trains that cut the dispersal (6.5, S.8). All 0 for a fleet at sea, which
        /// disperses for want of a route to its base.
        #[serde(default, skip_serializing_if = "is_zero")]
        present: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        hold: u32,
        #[serde(default, skip_serializing_if = "is_zero")]
        trains: u32,
    },
    Census {
        empire: EmpireCode,
        vps: u32,
    },
    /// 3.2, 3.3: the next turn's balance.
    Economy {
        empire: EmpireCode,
        income: u32,
        supply: u32,
        bps: u32,
    },
    Eliminated {
        empire: EmpireCode,
    },
    VictoryWarning {
        claim: VictoryClaim,
    },
    GameOver {
        claim: VictoryClaim,
    },
    OrderOfPlay {
        order: Vec<EmpireCode>,
    },
}
