//! The forecast of a turn for one empire, as if no other empire acted: each action played
//! in order on what the empire knows of the game, with the BP balance and treasury after
//! it, then the unused BPs at the end (3.6, 3.7) and the dispersals in the empire's own
//! areas and fleets (6.5). Nothing random happens and no end-of-turn step that could reveal
//! hidden facts (census, dispersals elsewhere) is shown; what the forecast cannot know is
//! listed with it.

use super::{Turn, TurnError};
use crate::codes::EmpireCode;
use crate::event::{Outcome, What};
use crate::knowledge::{view_for, visible_areas};
use crate::map::Map;
use crate::order::{Turnsheet, Verb};
use crate::rng::GameRng;
use crate::state::GameState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One action of the forecast.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForecastStep {
    pub slot: u32,
    pub line: u32,
    pub order: String,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub spent: u32,
    pub result: String,
    /// The balance and treasury right after this action.
    pub bps: u32,
    pub treasury: u32,
    /// Why this step may turn out differently: it depends on what the empire cannot see.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

/// The whole forecast of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forecast {
    pub empire: EmpireCode,
    pub turn: u32,
    pub start_bps: u32,
    pub start_treasury: u32,
    pub steps: Vec<ForecastStep>,
    /// 3.6: unused BPs going back to the treasury.
    pub cash_returned: u32,
    /// 3.7: the BPs left over after the last action, not counting those returned.
    pub leftover_bps: u32,
    /// What the leftover BPs become: supply trains in the capital (European, S.12), reserve
    /// armies and an ORDER bid (3.7).
    #[serde(default)]
    pub leftover_trains: u32,
    pub leftover_armies: u32,
    pub leftover_order_bid: u32,
    pub end_treasury: u32,
    /// 6.5, S.8: the end-of-turn dispersals in the empire's own areas and fleets, as things
    /// would stand after these actions alone.
    #[serde(default)]
    pub dispersals: Vec<ForecastDispersal>,
    /// What the forecast cannot know and so leaves out.
    #[serde(default)]
    pub unknowns: Vec<String>,
}

/// One dispersal the forecast expects at the end of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForecastDispersal {
    pub area: String,
    pub armies: u32,
    pub ships: u32,
    /// The armies present and what holds them (population + forts), and the trains that
    /// cut the dispersal; 0 for a fleet with no route to base.
    pub present: u32,
    pub hold: u32,
    pub trains: u32,
}

/// What no forecast can know, in the order a player would worry about it.
const UNKNOWNS: [&str; 4] = [
    "other empires' actions this turn: attacks on your areas, sea battles, sabotage, gifts",
    "the random growth of unowned areas at the start of the turn (6.4)",
    "whether this turn is a census turn, which is never announced (11.2)",
    "next turn's income and supply costs, which hang on all of the above (3.2, 3.3)",
];

/// Forecasts `empire`'s turnsheet on the current state.
pub fn forecast(
    map: &Map,
    state: &GameState,
    empire: EmpireCode,
    sheet: &Turnsheet,
) -> Result<Forecast, TurnError> {
    state.validate(map).map_err(TurnError::StateMismatch)?;
    let e = state
        .empire_index(empire)
        .ok_or_else(|| TurnError::StateMismatch(format!("{empire} is not in this game")))?;
    let view = view_for(map, state, empire);
    let seen = visible_areas(map, state, empire);
    // The generator is never drawn from: a fixed one keeps the state type whole.
    let mut t = Turn::new(map, view, GameRng::from_game_seed(0));
    let mut orders = BTreeMap::new();
    orders.insert(empire, sheet.clone());
    // The start of turn without the unowned areas' random actions (6.4).
    t.sheets_arrive(&orders);
    let limit = t.action_limit(e);
    let (start_bps, start_treasury) = (t.st.empires[e].bps, t.st.empires[e].treasury);
    let mut steps = Vec::new();
    for (i, line) in sheet.actions.iter().enumerate() {
        let round = i as u32 + 1;
        t.phase = crate::event::Phase::Round(round);
        let from = t.events.len();
        t.process(e, round, line, limit);
        let Some(What::Action {
            order,
            outcome,
            spent,
            result,
            ..
        }) = t.events[from..]
            .iter()
            .map(|ev| &ev.what)
            .find(|w| matches!(w, What::Action { .. }))
            .cloned()
        else {
            continue;
        };
        let caveat = line.order.as_ref().ok().and_then(|o| caveat(map, &seen, o));
        steps.push(ForecastStep {
            slot: round,
            line: line.line,
            order,
            outcome,
            spent,
            result,
            bps: t.st.empires[e].bps,
            treasury: t.st.empires[e].treasury,
            caveat,
        });
    }
    let leftover_before = t.st.empires[e].bps;
    t.phase = crate::event::Phase::End;
    t.return_cash();
    let cash_returned = leftover_before - t.st.empires[e].bps;
    let leftover_bps = t.st.empires[e].bps;
    let from = t.events.len();
    t.spend_leftovers();
    // The same split the turn makes (S.12, decisions 28 and 36, then 3.7).
    let (leftover_trains, leftover_armies, leftover_order_bid) = t.events[from..]
        .iter()
        .find_map(|ev| match ev.what {
            What::Leftover {
                empire: who,
                trains,
                armies,
                order_bps,
            } if who == empire => Some((trains, armies, order_bps)),
            _ => None,
        })
        .unwrap_or((0, 0, 0));
    // 6.5: only the empire's own dispersals; its view of other areas is masked anyway.
    let from = t.events.len();
    t.dispersals();
    let dispersals = t.events[from..]
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Dispersal {
                empire: Some(who),
                area,
                armies,
                ships,
                present,
                hold,
                trains,
            } if *who == empire => Some(ForecastDispersal {
                area: area.to_string(),
                armies: *armies,
                ships: *ships,
                present: *present,
                hold: *hold,
                trains: *trains,
            }),
            _ => None,
        })
        .collect();
    Ok(Forecast {
        empire,
        turn: state.turn + 1,
        start_bps,
        start_treasury,
        steps,
        cash_returned,
        leftover_bps,
        leftover_trains,
        leftover_armies,
        leftover_order_bid,
        end_treasury: t.st.empires[e].treasury,
        dispersals,
        unknowns: UNKNOWNS.iter().map(|u| u.to_string()).collect(),
    })
}

/// Actions whose result hangs on what the empire cannot know.
fn caveat(map: &Map, seen: &[bool], o: &crate::order::Order) -> Option<String> {
    let hidden = |f: &Option<String>| {
        f.as_deref()
            .and_then(|c| map.find(c))
            .is_some_and(|a| !seen[a.index()])
    };
    match o.verb {
        Verb::Attack => Some(
            "the battle assumes the defenders simply stand: their defence orders, air force \
             and any change before your attack are unknown"
                .into(),
        ),
        Verb::Kill | Verb::Find => Some("other empires' spies cannot be seen".into()),
        Verb::Seamove | Verb::Convoy if hidden(&o.to) => {
            Some("you cannot see into that sea area: a fleet there means a battle".into())
        }
        Verb::Spy | Verb::Skip if hidden(&o.to) => {
            Some("a spy lying in wait there would kill yours".into())
        }
        _ => None,
    }
}
