//! Whole games played by the computer: a new game on a map (`setup::new_game`), every
//! kingdom played by a computer player in the style it is given, the independents by their
//! own routine (G36), turn after turn until someone wins (G5) or the turn limit is reached.
//! The same map and setup always give the same game, down to the bytes of its summary.
//!
//! ```no_run
//! use napoleonic_ai::sim::{Simulation, simulate};
//! let map = napoleonic_rules::standard::europe();
//! let result = simulate(&map, &Simulation::new(1805, 100));
//! print!("{result}");
//! ```

use crate::view::Picture;
use crate::{Style, orders_with, with_independents};
use napoleonic_rules::battle::report::BattleKind;
use napoleonic_rules::event::{Event, What, When};
use napoleonic_rules::fixed::Gold;
use napoleonic_rules::ids::{KingdomCode, LocId};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::KingdomOrders;
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::state::GameState;
use napoleonic_rules::victory::{How, Victory, victory};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Which style plays which kingdom: one for all, and exceptions by kingdom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Styles {
    /// The style of every kingdom not named in `kingdoms`.
    pub default: Style,
    pub kingdoms: BTreeMap<KingdomCode, Style>,
}

impl Styles {
    /// Every kingdom in one style.
    pub fn all(style: Style) -> Styles {
        Styles {
            default: style,
            kingdoms: BTreeMap::new(),
        }
    }

    /// The style a kingdom is played in.
    pub fn of(&self, k: &KingdomCode) -> Style {
        self.kingdoms.get(k).copied().unwrap_or(self.default)
    }
}

impl Default for Styles {
    /// Every kingdom a conqueror: a caretaker never changes a relation nor attacks, so a game
    /// of caretakers alone goes nowhere.
    fn default() -> Styles {
        Styles::all(Style::Conqueror)
    }
}

/// What a simulated game is made of.
#[derive(Debug, Clone)]
pub struct Simulation {
    /// The new game: its seed, the kingdoms in play (all of the map's when empty), the
    /// settings (the victory threshold of G5 among them) and the tables.
    pub game: NewGame,
    /// The most turns played; the game stops sooner if it is won.
    pub turn_limit: u32,
    pub styles: Styles,
}

impl Simulation {
    /// The standard game from a seed, every kingdom a conqueror.
    pub fn new(seed: u64, turn_limit: u32) -> Simulation {
        Simulation {
            game: NewGame::standard(seed),
            turn_limit,
            styles: Styles::default(),
        }
    }
}

/// One kingdom at the end of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingdomTurn {
    /// Provinces it owns.
    pub provinces: u32,
    pub treasury: Gold,
    /// Soldiers and ships in all its units.
    pub troops: u32,
    pub alive: bool,
}

/// The game after one turn (turn 0: as it began).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnSummary {
    pub turn: u32,
    pub kingdoms: BTreeMap<KingdomCode, KingdomTurn>,
    /// Orders that could not be carried out this turn (`OrderFailed` events).
    pub failed_orders: u32,
    /// Battles fought (`Battle` events: on land, across borders and at sea).
    pub battles: u32,
    /// Places where enemies met and no battle was fought (`BattleJoined` or
    /// `BorderBattleJoined` without a `Battle` for the same place and step). None while the
    /// engine fights every battle it joins; kept so the figures stay right if it does not.
    pub unfought: u32,
    /// Provinces that changed hands.
    pub conquests: u32,
    /// Wars declared (F1) and kingdoms defeated (L19).
    pub wars: u32,
    pub defeated: u32,
    /// Battles at sea (M6, in a sea or across a strait).
    #[serde(default)]
    pub sea_battles: u32,
    /// Armies put ashore by amphibious invasion (M8, G33).
    #[serde(default)]
    pub landings: u32,
    /// Leaders hired (L5).
    #[serde(default)]
    pub leaders_hired: u32,
    /// Gold spent by every kingdom: upkeep, troops, leaders, annexations, building and
    /// gold sent with its fee.
    #[serde(default)]
    pub gold_spent: Gold,
}

/// A simulated game: what [`simulate`] answers and prints (`Display`, or [`summary`]).
///
/// [`summary`]: SimulationResult::summary
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulationResult {
    pub map: String,
    pub seed: u64,
    pub turn_limit: u32,
    /// Turns played.
    pub turns: u32,
    /// The share of the provinces a coalition needs to win (G5; 0: only the GM declares a
    /// result), and how many provinces the map has.
    pub victory_percent: u32,
    pub provinces: u32,
    /// The style each kingdom was played in.
    pub styles: BTreeMap<KingdomCode, Style>,
    /// The game as it began, then after each turn played.
    pub history: Vec<TurnSummary>,
    pub winner: Option<Victory>,
    /// Why the game stopped early without a winner: a setup no game can start from, or a
    /// state the engine refused. None when it ran its course.
    pub stopped: Option<String>,
}

/// Plays a new game of computer players: every kingdom in its style, the independents
/// their own routine, until a victory (G5) or the turn limit.
pub fn simulate(map: &Map, setup: &Simulation) -> SimulationResult {
    match new_game(map, &setup.game) {
        Ok(state) => play_on(map, state, setup.turn_limit, &setup.styles),
        Err(e) => {
            let mut r = empty_result(map, setup.game.seed, setup.turn_limit);
            r.victory_percent = setup.game.settings.victory_province_percent;
            r.stopped = Some(format!("the game could not be created: {e}"));
            r
        }
    }
}

/// Plays an existing game on with computer players, from the state between two turns, for
/// at most `turn_limit` turns or until it is won. Its seed is read from the state. A game
/// already won is not played on.
pub fn play_on(map: &Map, state: GameState, turn_limit: u32, styles: &Styles) -> SimulationResult {
    let mut state = state;
    let mut result = empty_result(map, seed_of(&state), turn_limit);
    result.victory_percent = state.settings.victory_province_percent;
    result.styles = state
        .kingdoms
        .values()
        .filter(|k| !k.independent)
        .map(|k| (k.code.clone(), styles.of(&k.code)))
        .collect();
    result.history.push(summary(&state, 0, &[]));
    result.winner = victory(map, &state);
    while result.winner.is_none() && result.turns < turn_limit {
        // One picture of the state serves every kingdom's player and the independents.
        let pic = Picture::new(&state);
        let orders = with_independents(map, &state, &pic, all_orders(map, &state, &pic, styles));
        match napoleonic_rules::play(map, &state, &orders) {
            Ok(out) => {
                result.turns += 1;
                result
                    .history
                    .push(summary(&out.state, result.turns, &out.events));
                state = out.state;
            }
            Err(e) => {
                result.stopped = Some(format!("turn {} could not be played: {e}", state.turn));
                break;
            }
        }
        result.winner = victory(map, &state);
    }
    result
}

fn empty_result(map: &Map, seed: u64, turn_limit: u32) -> SimulationResult {
    SimulationResult {
        map: map.name.clone(),
        seed,
        turn_limit,
        turns: 0,
        victory_percent: 0,
        provinces: u32::try_from(map.provinces().count()).unwrap_or(u32::MAX),
        styles: BTreeMap::new(),
        history: Vec::new(),
        winner: None,
        stopped: None,
    }
}

/// The game's seed as a number: `GameRng::from_game_seed` writes it, little-endian, into
/// the first 8 of the generator's 32 seed bytes, which the state keeps in hexadecimal.
/// 0 if the state's seed cannot be read.
fn seed_of(state: &GameState) -> u64 {
    let mut bytes = [0u8; 8];
    for (i, b) in bytes.iter_mut().enumerate() {
        let Some(Ok(x)) = state
            .rng
            .seed
            .get(2 * i..2 * i + 2)
            .map(|h| u8::from_str_radix(h, 16))
        else {
            return 0;
        };
        *b = x;
    }
    u64::from_le_bytes(bytes)
}

/// Computer orders for every kingdom still in the game, each in its style (the
/// independents' are added when the turn is played).
fn all_orders(
    map: &Map,
    state: &GameState,
    pic: &Picture,
    styles: &Styles,
) -> BTreeMap<KingdomCode, KingdomOrders> {
    state
        .kingdoms
        .values()
        .filter(|k| k.alive && !k.independent)
        .map(|k| {
            let style = styles.of(&k.code);
            (k.code.clone(), orders_with(map, state, pic, &k.code, style))
        })
        .collect()
}

fn summary(state: &GameState, turn: u32, events: &[Event]) -> TurnSummary {
    let mut kingdoms: BTreeMap<KingdomCode, KingdomTurn> = state
        .kingdoms
        .values()
        .map(|k| {
            (
                k.code.clone(),
                KingdomTurn {
                    provinces: 0,
                    treasury: k.treasury,
                    troops: 0,
                    alive: k.alive,
                },
            )
        })
        .collect();
    for p in state.provinces.values() {
        if let Some(k) = kingdoms.get_mut(&p.owner) {
            k.provinces += 1;
        }
    }
    for u in &state.units {
        if let Some(k) = kingdoms.get_mut(&u.owner) {
            k.troops = k
                .troops
                .saturating_add(u32::try_from(u.troops.len()).unwrap_or(u32::MAX));
        }
    }
    let count = |f: fn(&What) -> bool| events.iter().filter(|e| f(&e.what)).count() as u32;
    // A fought battle names its place and step; a meeting at the same place and step was
    // the joining of that battle, not another one.
    let fought: BTreeSet<(When, LocId, Option<LocId>)> = events
        .iter()
        .filter_map(|e| match &e.what {
            What::Battle(r) => Some((e.when, r.at, r.across)),
            _ => None,
        })
        .collect();
    let unfought = events
        .iter()
        .filter(|e| match &e.what {
            What::BattleJoined { at, .. } => !fought.contains(&(e.when, *at, None)),
            What::BorderBattleJoined { between, .. } => {
                !fought.contains(&(e.when, between.0, Some(between.1)))
            }
            _ => false,
        })
        .count() as u32;
    TurnSummary {
        turn,
        kingdoms,
        failed_orders: count(|w| matches!(w, What::OrderFailed { .. })),
        battles: count(|w| matches!(w, What::Battle(_))),
        unfought,
        conquests: count(|w| matches!(w, What::OwnershipChanged { .. })),
        wars: count(|w| matches!(w, What::WarDeclared { .. })),
        defeated: count(|w| matches!(w, What::KingdomDefeated { .. })),
        sea_battles: count(
            |w| matches!(w, What::Battle(b) if matches!(b.kind, BattleKind::Sea | BattleKind::SeaBorder)),
        ),
        landings: count(|w| {
            matches!(
                w,
                What::Unloaded {
                    amphibious: true,
                    ..
                }
            )
        }),
        leaders_hired: count(|w| matches!(w, What::LeaderHired { .. })),
        gold_spent: events
            .iter()
            .map(|e| match &e.what {
                What::UpkeepPaid { paid, .. } => *paid,
                What::TroopsBuilt { cost, .. }
                | What::LeaderHired { cost, .. }
                | What::Annexed { cost, .. }
                | What::Built { cost, .. } => *cost,
                What::GoldSent { amount, fee, .. } => *amount + *fee,
                _ => Gold::ZERO,
            })
            .sum(),
    }
}

/// A game's figures added over its turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub battles: u32,
    pub sea_battles: u32,
    pub landings: u32,
    pub leaders_hired: u32,
    pub gold_spent: Gold,
}

impl std::ops::AddAssign for Totals {
    fn add_assign(&mut self, o: Totals) {
        self.battles += o.battles;
        self.sea_battles += o.sea_battles;
        self.landings += o.landings;
        self.leaders_hired += o.leaders_hired;
        self.gold_spent += o.gold_spent;
    }
}

impl From<&TurnSummary> for Totals {
    fn from(h: &TurnSummary) -> Totals {
        Totals {
            battles: h.battles,
            sea_battles: h.sea_battles,
            landings: h.landings,
            leaders_hired: h.leaders_hired,
            gold_spent: h.gold_spent,
        }
    }
}

impl SimulationResult {
    /// The figures of every turn played, added up.
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for h in self.history.iter().skip(1) {
            t += Totals::from(h);
        }
        t
    }

    /// The summary as text: the outcome; provinces per kingdom at the start, at a few turns
    /// between and at the end, with the last treasury, troops, style and status; and a line
    /// a turn of failed orders, battles, conquests, wars and defeats. No clock enters it, so
    /// the same game always prints the same bytes.
    pub fn summary(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for SimulationResult {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            out,
            "{}, seed {}: {} turn{} played (limit {})",
            self.map,
            self.seed,
            self.turns,
            if self.turns == 1 { "" } else { "s" },
            self.turn_limit
        )?;
        match (&self.winner, &self.stopped) {
            (Some(v), _) => {
                let names: Vec<&str> = v.kingdoms.iter().map(|k| k.as_str()).collect();
                let how = match &v.how {
                    How::Provinces { percent } => format!("victory at {percent} % of them"),
                    How::Revenue { percent } => format!("victory at {percent} % of the revenue"),
                    How::Declared { reason } => format!("declared by the GM: {reason}"),
                };
                writeln!(
                    out,
                    "won after turn {} by {}, holding {} of {} provinces ({how})",
                    v.turn,
                    names.join(" + "),
                    v.provinces,
                    v.of,
                )?;
            }
            (None, Some(why)) => writeln!(out, "stopped: {why}")?,
            (None, None) if self.victory_percent == 0 => {
                writeln!(out, "no winner: victory by provinces is off")?;
            }
            (None, None) => writeln!(
                out,
                "no winner: victory needs {} % of the {} provinces",
                self.victory_percent, self.provinces
            )?,
        }
        let Some(last) = self.history.last() else {
            return Ok(());
        };
        // The turns shown: the start, about six between, and the last.
        let step = (self.turns as usize).div_ceil(6).max(1);
        let mut shown: Vec<usize> = (0..self.history.len()).step_by(step).collect();
        if shown.last() != Some(&(self.history.len() - 1)) {
            shown.push(self.history.len() - 1);
        }
        write!(out, "\n{:<8}", "kingdom")?;
        for &i in &shown {
            write!(out, "{:>6}", format!("t{}", self.history[i].turn))?;
        }
        writeln!(
            out,
            "  {:>9} {:>7}  {:<10} status",
            "treasury", "troops", "style"
        )?;
        let mut rows: Vec<(&KingdomCode, &KingdomTurn)> = last.kingdoms.iter().collect();
        rows.sort_by_key(|(k, x)| (k.is_independent(), std::cmp::Reverse(x.provinces), *k));
        for (k, x) in rows {
            write!(out, "{:<8}", k.as_str())?;
            for &i in &shown {
                let n = self.history[i].kingdoms.get(k).map_or(0, |y| y.provinces);
                write!(out, "{n:>6}")?;
            }
            let style = match self.styles.get(k) {
                Some(Style::Caretaker) => "caretaker",
                Some(Style::Conqueror) => "conqueror",
                // The independents play by their own routine (G36).
                None if k.is_independent() => "own rule",
                None => "none",
            };
            let status = if x.alive { "in play" } else { "defeated" };
            writeln!(
                out,
                "  {:>9} {:>7}  {style:<10} {status}",
                x.treasury.truncated(),
                x.troops
            )?;
        }
        writeln!(
            out,
            "\n turn  failed orders  battles  unfought  conquests  wars  defeated  at sea  \
             landings  leaders  gold spent"
        )?;
        for t in self.history.iter().skip(1) {
            writeln!(
                out,
                "{:>5}  {:>13}  {:>7}  {:>8}  {:>9}  {:>4}  {:>8}  {:>6}  {:>8}  {:>7}  {:>10}",
                t.turn,
                t.failed_orders,
                t.battles,
                t.unfought,
                t.conquests,
                t.wars,
                t.defeated,
                t.sea_battles,
                t.landings,
                t.leaders_hired,
                t.gold_spent.truncated()
            )?;
        }
        let totals = self.totals();
        writeln!(
            out,
            "\nin all: {} sea battles, {} landings, {} leaders hired, {} gold spent",
            totals.sea_battles,
            totals.landings,
            totals.leaders_hired,
            totals.gold_spent.truncated()
        )?;
        Ok(())
    }
}
