//! The turn driver: start of turn, the action rounds in order of play, end of turn (1.6, 6.1,
//! decision 3). [`adjudicate`] is a pure function of the map, the state and the orders.

mod battle;
mod economy;
mod end_of_turn;
mod forces;
mod forecast;
mod movement;
mod naval;
mod spies;
mod trains;
mod unowned;

pub use battle::{Entrenched, LandInput, LandResult, land_battle, sea_losses};
pub use economy::{Balance, area_supply, balances, fleet_distance, settle_balances, supply_cost};
pub use forecast::{Forecast, ForecastDispersal, ForecastStep, forecast};

use crate::codes::EmpireCode;
use crate::event::{Event, Outcome, Phase, What};
use crate::map::{AreaId, Map};
use crate::order::{Order, OrderLine, Quantity, Turnsheet, Verb};
use crate::rng::GameRng;
use crate::state::GameState;
use std::collections::BTreeMap;

/// The result of adjudicating one turn.
#[derive(Debug, Clone)]
pub struct TurnOutcome {
    pub state: GameState,
    pub events: Vec<Event>,
}

/// Why a turn could not be adjudicated at all (a single bad order never stops a turn).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error("the state does not fit the map: {0}")]
    StateMismatch(String),
    #[error("the game is over: {0} won on turn {1}")]
    GameOver(EmpireCode, u32),
    #[error("the random generator in the state is unusable: {0}")]
    Rng(String),
}

/// Adjudicates the next turn. Empires without a turnsheet play an empty one.
pub fn adjudicate(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<EmpireCode, Turnsheet>,
) -> Result<TurnOutcome, TurnError> {
    state.validate(map).map_err(TurnError::StateMismatch)?;
    if let Some(r) = &state.result {
        return Err(TurnError::GameOver(r.empire, r.turn));
    }
    let rng = GameRng::restore(&state.rng).map_err(TurnError::Rng)?;
    let mut t = Turn::new(map, state.clone(), rng);
    t.play(orders);
    Ok(t.finish())
}

/// Per-turn facts that do not outlive the turn.
#[derive(Debug, Clone, Default)]
struct EmpireScratch {
    /// 3.6: treasury points cashed this turn.
    cashed: u32,
    /// 6.2: BPs spent on ORDER actions.
    bid: u32,
    /// 5.5: an ARMY or DISBAND was attempted, so no more RESERVE.
    reserve_locked: bool,
    /// 5.13: a NAVY or CLOSE was made, so no more RECOVER.
    navy_locked: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct AreaScratch {
    /// 7.5: armies here cannot move or attack again this turn.
    sticky: bool,
    /// 5.9: this area has grown this turn.
    grown: bool,
    /// 5.10: this base has had its BUILD this turn.
    built: bool,
    /// 5.14: ships were built or recovered in this base, so no FLEET.
    fleet_locked: bool,
}

/// What a successful action reports back to the driver.
pub(crate) struct Done {
    text: String,
    cut: Option<String>,
    affected: Vec<EmpireCode>,
    /// The action in words for the empires it affected (10.5); `None` when what they learn
    /// comes from events of its own (battles, spies killed).
    told: Option<String>,
    seen: Vec<AreaId>,
}

impl Done {
    fn new(text: impl Into<String>) -> Done {
        Done {
            text: text.into(),
            cut: None,
            affected: Vec::new(),
            told: None,
            seen: Vec::new(),
        }
    }
    /// What the affected empires read, worded for them.
    fn telling(mut self, text: impl Into<String>) -> Done {
        self.told = Some(text.into());
        self
    }
    fn cut(mut self, reason: Option<String>) -> Done {
        self.cut = reason;
        self
    }
    fn affecting(mut self, e: Option<EmpireCode>) -> Done {
        if let Some(e) = e
            && !self.affected.contains(&e)
        {
            self.affected.push(e);
        }
        self
    }
    fn seeing(mut self, areas: &[AreaId]) -> Done {
        self.seen.extend_from_slice(areas);
        self
    }
}

/// An action's failure, with the reason the player will read.
pub(crate) type Act = Result<Done, String>;

/// A turn being played: the state moving along action by action.
pub(crate) struct Turn<'m> {
    map: &'m Map,
    st: GameState,
    rng: GameRng,
    /// The number of the turn being played.
    turn: u32,
    emp: Vec<EmpireScratch>,
    area: Vec<AreaScratch>,
    events: Vec<Event>,
    phase: Phase,
    /// BPs spent by the action being processed.
    spent: u32,
    /// Where the action being processed starts its events, so its own event goes first.
    pending_from: Option<usize>,
}

impl<'m> Turn<'m> {
    fn new(map: &'m Map, st: GameState, rng: GameRng) -> Turn<'m> {
        let turn = st.turn + 1;
        let emp = vec![EmpireScratch::default(); st.empires.len()];
        let area = vec![AreaScratch::default(); st.areas.len()];
        // An event for every action, and a few more for each empire at the end of the turn.
        let events =
            Vec::with_capacity(st.empires.len() * (st.options.actions_per_turn as usize + 4));
        Turn {
            map,
            st,
            rng,
            turn,
            emp,
            area,
            events,
            phase: Phase::Start,
            spent: 0,
            pending_from: None,
        }
    }

    fn play(&mut self, orders: &BTreeMap<EmpireCode, Turnsheet>) {
        self.start_of_turn(orders);
        let order: Vec<usize> = self
            .st
            .order_of_play
            .iter()
            .filter_map(|c| self.st.empire_index(*c))
            .collect();
        let limits: Vec<u32> = order.iter().map(|&e| self.action_limit(e)).collect();
        let rounds = order
            .iter()
            .map(|&e| {
                orders
                    .get(&self.st.empires[e].code)
                    .map_or(0, |s| s.actions.len() as u32)
            })
            .max()
            .unwrap_or(0);
        for round in 1..=rounds {
            self.phase = Phase::Round(round);
            for (k, &e) in order.iter().enumerate() {
                if !self.st.empires[e].alive() {
                    continue;
                }
                let code = self.st.empires[e].code;
                if let Some(line) = orders
                    .get(&code)
                    .and_then(|s| s.actions.get(round as usize - 1))
                {
                    self.process(e, round, line, limits[k]);
                }
            }
        }
        self.phase = Phase::End;
        self.end_of_turn();
    }

    /// Processes one turnsheet line of empire `e` in round `round`, recording its event.
    fn process(&mut self, e: usize, round: u32, line: &OrderLine, limit: u32) {
        // 2.6: a slot left empty is an action not used; it takes its round and does nothing.
        if line.blank {
            return;
        }
        if round > limit {
            let reason = format!("beyond the limit of {limit} actions a turn (2.6)");
            let text = line.text.clone();
            self.push_action(
                e,
                round,
                line.line,
                text,
                Outcome::Ignored { reason },
                Done::new(""),
            );
            return;
        }
        let (outcome, done, text) = match &line.order {
            // 6.2: an ORDER with no number is not processed unless it is the last action.
            Ok(order)
                if order.verb == Verb::Order && order.number == Quantity::All && round != limit =>
            {
                let reason = "an ORDER with no number counts only as the last action (6.2)";
                (
                    Outcome::Ignored {
                        reason: reason.into(),
                    },
                    Done::new(""),
                    order.line(),
                )
            }
            Ok(order) => {
                self.spent = 0;
                let outcome = match self.act(e, order) {
                    Ok(done) => {
                        let outcome = match &done.cut {
                            Some(r) => Outcome::CutDown { reason: r.clone() },
                            None => Outcome::Done,
                        };
                        (outcome, done)
                    }
                    Err(reason) => (Outcome::Failed { reason }, Done::new("")),
                };
                (outcome.0, outcome.1, order.line())
            }
            Err(msg) => (
                Outcome::Failed {
                    reason: format!("not understood: {msg}"),
                },
                Done::new(""),
                line.text.clone(),
            ),
        };
        self.push_action(e, round, line.line, text, outcome, done);
    }

    /// Records an action's event before the events it caused (battles and the like).
    fn push_action(
        &mut self,
        e: usize,
        slot: u32,
        line: u32,
        order: String,
        outcome: Outcome,
        done: Done,
    ) {
        let code = self.st.empires[e].code;
        let mut concerns = vec![code];
        for a in done.affected {
            if !concerns.contains(&a) {
                concerns.push(a);
            }
        }
        let spent = if outcome.succeeded() { self.spent } else { 0 };
        let seen = done.seen.iter().map(|&a| self.map.code(a)).collect();
        let ev = Event {
            phase: self.phase,
            concerns,
            what: What::Action {
                empire: code,
                slot,
                line,
                order,
                outcome,
                spent,
                result: done.text,
                told: done.told,
                seen,
            },
        };
        let at = self.pending_from.take().unwrap_or(self.events.len());
        self.events.insert(at.min(self.events.len()), ev);
    }

    fn finish(mut self) -> TurnOutcome {
        self.st.saturate_counts();
        self.st.turn = self.turn;
        self.st.rng = self.rng.save();
        TurnOutcome {
            state: self.st,
            events: self.events,
        }
    }

    fn action_limit(&self, e: usize) -> u32 {
        self.st.empires[e]
            .actions_per_turn
            .unwrap_or(self.st.options.actions_per_turn)
    }

    fn start_of_turn(&mut self, orders: &BTreeMap<EmpireCode, Turnsheet>) {
        self.sheets_arrive(orders);
        self.unowned_actions();
    }

    /// Missed turns, PHONE and EMAIL lines, and player messages (2.5, 2.9).
    fn sheets_arrive(&mut self, orders: &BTreeMap<EmpireCode, Turnsheet>) {
        for e in 0..self.st.empires.len() {
            if !self.st.empires[e].alive() {
                continue;
            }
            let code = self.st.empires[e].code;
            let sheet = orders.get(&code);
            // 2.5: count turns in a row the player sent nothing.
            let missed = sheet.is_none_or(|s| s.computer);
            let emp = &mut self.st.empires[e];
            emp.missed_turns = if missed { emp.missed_turns + 1 } else { 0 };
            if let Some(s) = sheet {
                // 2.9: PHONE and EMAIL lines go into the roundup for good.
                if let Some(p) = &s.phone {
                    emp.phone = Some(p.clone());
                }
                if let Some(m) = &s.email {
                    emp.email = Some(m.clone());
                }
                for text in &s.messages {
                    let concerns = self.st.empires.iter().map(|x| x.code).collect();
                    self.events.push(Event {
                        phase: Phase::Start,
                        concerns,
                        what: What::Message {
                            from: code,
                            text: text.clone(),
                        },
                    });
                }
            }
        }
    }

    /// Dispatches one action to the rule that handles it.
    fn act(&mut self, e: usize, o: &Order) -> Act {
        self.pending_from = Some(self.events.len());
        match o.verb {
            Verb::Stash => self.stash(e, o),
            Verb::Cash => self.cash(e, o),
            Verb::Tax => self.tax(e),
            Verb::Gift => self.gift(e, o),
            Verb::Order => self.order(e, o),
            Verb::Levy => self.levy(e, o),
            Verb::Mobilise => self.mobilise(e),
            Verb::Army => self.army(e, o),
            Verb::Disarm => self.disarm(e, o),
            Verb::Reserve => self.reserve(e, o),
            Verb::Disband => self.disband(e, o),
            Verb::Fortify => self.fortify(e, o),
            Verb::Raze => self.raze(e, o),
            Verb::Grow => self.grow(e, o),
            Verb::Air => self.air(e, o),
            Verb::Disown => self.disown(e, o),
            Verb::Build => self.build(e, o),
            Verb::Navy => self.navy(e, o),
            Verb::Layup => self.layup(e, o),
            Verb::Recover => self.recover(e, o),
            Verb::Fleet => self.fleet(e, o),
            Verb::Scrap => self.scrap(e, o),
            Verb::Base => self.base(e, o),
            Verb::Close => self.close(e, o),
            Verb::Seamove => self.sea_move(e, o, false),
            Verb::Convoy => self.sea_move(e, o, true),
            Verb::Move => self.move_armies(e, o),
            Verb::Attack => self.attack(e, o),
            Verb::Defend | Verb::Entrench | Verb::Ambush | Verb::Retreat => self.defence_mode(e, o),
            Verb::Spy | Verb::Skip => self.spy_move(e, o),
            Verb::Find => self.find(e, o),
            Verb::Kill => self.kill(e, o),
            Verb::Wait => self.wait(e, o),
            Verb::Sabotage => self.sabotage(e),
            Verb::Watch => self.watch(e),
            Verb::Capital | Verb::Gather | Verb::Wagons | Verb::Send | Verb::Unload
                if !self.supply_rules() =>
            {
                Err(format!(
                    "{} is a European Empires supply action, not available in this game",
                    o.verb
                ))
            }
            Verb::Capital => self.capital(e, o),
            Verb::Gather => self.gather(e, o),
            Verb::Wagons => self.wagons(e, o),
            Verb::Send => self.send(e, o),
            Verb::Unload => self.unload(e, o),
        }
    }

    // ----- helpers shared by the rules -----

    fn code(&self, e: usize) -> EmpireCode {
        self.st.empires[e].code
    }

    /// Resolves an area box; `what` names the box in the message.
    fn area_field(&self, field: &Option<String>, what: &str) -> Result<AreaId, String> {
        let text = field
            .as_deref()
            .ok_or_else(|| format!("the {what} box is blank; an area code is needed"))?;
        self.map
            .find(text)
            .ok_or_else(|| format!("{text} is not an area on this map"))
    }

    /// Resolves an area box naming a land area the empire owns.
    fn own_land(&self, e: usize, field: &Option<String>, what: &str) -> Result<AreaId, String> {
        let a = self.area_field(field, what)?;
        if self.map.area(a).is_sea() {
            return Err(format!("{} is a sea area", self.map.code(a)));
        }
        if self.st.area(a).owner != Some(self.code(e)) {
            return Err(format!("you do not own {}", self.map.code(a)));
        }
        Ok(a)
    }

    /// Resolves an empire box.
    fn empire_field(&self, field: &Option<String>, what: &str) -> Result<usize, String> {
        let text = field
            .as_deref()
            .ok_or_else(|| format!("the {what} box is blank; an empire code is needed"))?;
        let code = EmpireCode::parse(text).map_err(|e| e.to_string())?;
        let i = self
            .st
            .empire_index(code)
            .ok_or_else(|| format!("{code} is not an empire in this game"))?;
        if !self.st.empires[i].alive() {
            return Err(format!("{code} has been eliminated"));
        }
        Ok(i)
    }

    /// Takes BPs from the current balance.
    fn pay(&mut self, e: usize, cost: u32) -> Result<(), String> {
        let bps = self.st.empires[e].bps;
        if bps < cost {
            return Err(format!("it costs {} and you have {bps}", count(cost, "BP")));
        }
        self.st.empires[e].bps = bps - cost;
        self.spent += cost;
        Ok(())
    }

    fn bps(&self, e: usize) -> u32 {
        self.st.empires[e].bps
    }

    fn push(&mut self, concerns: Vec<EmpireCode>, what: What) {
        self.events.push(Event {
            phase: self.phase,
            concerns,
            what,
        });
    }

    /// Whether the game has air forces (1.7).
    fn air_rules(&self) -> bool {
        self.st.variant.has_air()
    }
}

/// The number box of an action that takes only a definite number (6.3 note).
fn definite(o: &Order) -> Result<u32, String> {
    match o.number {
        Quantity::Exactly(n) => Ok(n),
        Quantity::All => Err(format!("{} needs a number", o.verb)),
        Quantity::AllBut(_) => Err(format!(
            "{} takes a definite number; ALL BUT is not allowed",
            o.verb
        )),
    }
}

/// Cuts `wanted` down through each limit in turn, remembering the first that bit.
struct Clamp {
    value: u32,
    reason: Option<String>,
}

impl Clamp {
    fn new(wanted: u32) -> Clamp {
        Clamp {
            value: wanted,
            reason: None,
        }
    }
    fn limit(mut self, max: u32, why: impl FnOnce(u32) -> String) -> Clamp {
        if self.value > max {
            self.value = max;
            if self.reason.is_none() {
                self.reason = Some(why(max));
            }
        }
        self
    }
    /// The amount, or the reason it came to nothing.
    fn get(self) -> Result<(u32, Option<String>), String> {
        if self.value == 0 {
            Err(self
                .reason
                .unwrap_or_else(|| "the number given is zero".to_string()))
        } else {
            Ok((self.value, self.reason))
        }
    }
}

pub(crate) use crate::words::count;
