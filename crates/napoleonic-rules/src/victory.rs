//! Victory (digest 6, decision G5). The rulebook's own victory conditions are lost (a dead
//! link); what survives says a coalition may win together ("alliance victories are fine"),
//! that a "swath of territory" must be taken, and that the GM may end a game whose outcome
//! is decided. So a game is won in one of two ways:
//!
//! - **by territory**: a set of surviving kingdoms, every one allied with every other (or
//!   one kingdom alone), holds at least a share of all the provinces of the map
//!   (`settings.victory_province_percent`), or provinces worth at least a share of the
//!   map's revenue (the provinces' maximum revenue, as the map shows it;
//!   `settings.victory_revenue_percent`, off by default) ([`victory`], [`victory_by`]);
//! - **by declaration**: the GM records a result ([`declared`]), for a coalition that claims
//!   its win or for a game dragged out past its outcome.
//!
//! The engine only reports: [`victory`] reads a state and emits nothing, and the host
//! decides what to do with the answer (record it, end the game, ask the GM to confirm it).
//! It is meant to be asked between turns, after L19 has taken defeated kingdoms out.

use crate::fixed::Gold;
use crate::ids::KingdomCode;
use crate::map::Map;
use crate::state::{GameState, Relation};
use crate::tables::Settings;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A game won, as the host records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    /// The last turn played when it was won: the state's turn minus one (0 before any).
    pub turn: u32,
    /// The winners in code order: one kingdom, or kingdoms all allied with one another.
    pub kingdoms: Vec<KingdomCode>,
    /// The provinces the winners hold together, and how many the map has.
    pub provinces: u32,
    pub of: u32,
    /// The maximum revenue of the provinces the winners hold, and of the whole map.
    pub revenue: Gold,
    pub of_revenue: Gold,
    pub how: How,
}

/// How a victory came about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum How {
    /// G5: the winners hold at least this share of the map's provinces, in percent.
    Provinces { percent: u32 },
    /// G5: the winners hold provinces worth at least this share of the map's revenue.
    Revenue { percent: u32 },
    /// The GM declared the result (digest 6: the winning coalition decides when to claim
    /// its victory; the GM may force a conclusion).
    Declared { reason: String },
}

/// The thresholds of a victory by territory (G5), each in percent; 0 turns one off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// The share of all the map's provinces a coalition must hold.
    pub province_percent: u32,
    /// The share of the map's total maximum revenue its provinces must be worth.
    pub revenue_percent: u32,
}

impl Rule {
    /// The game's own rule: `victory_province_percent` of the provinces, or
    /// `victory_revenue_percent` of the revenue (0, off, unless the game sets it).
    pub fn of(settings: &Settings) -> Rule {
        Rule {
            province_percent: settings.victory_province_percent,
            revenue_percent: settings.victory_revenue_percent,
        }
    }
}

/// Whether the game is won by territory under its own settings (G5); see [`victory_by`].
pub fn victory(map: &Map, state: &GameState) -> Option<Victory> {
    victory_by(map, state, &Rule::of(&state.settings))
}

/// Whether the game is won by territory under `rule` (G5): a set of surviving, mutually
/// allied kingdoms holding at least the rule's share of the map's provinces, or provinces
/// worth at least its share of the map's revenue. With several such sets (A allied with B
/// and with C, B and C not allied) the one holding most provinces wins, then the one worth
/// most, then the smaller, then the first in code order. A rule with both thresholds 0
/// finds no winner: only the GM declares a result then. The independents never win.
pub fn victory_by(map: &Map, state: &GameState, rule: &Rule) -> Option<Victory> {
    if rule.province_percent == 0 && rule.revenue_percent == 0 {
        return None;
    }
    let of = u32::try_from(map.provinces().count()).unwrap_or(u32::MAX);
    let of_revenue: Gold = map.provinces().map(|l| l.revenue).sum();
    if of == 0 {
        return None;
    }
    let held = holdings(map, state);
    // G5: integers only; `part / whole ≥ percent / 100`.
    let reaches = |part: i64, whole: i64, percent: u32| {
        percent > 0 && i128::from(part) * 100 >= i128::from(percent) * i128::from(whole)
    };
    let mut best: Option<Victory> = None;
    for set in coalitions(state) {
        let (provinces, revenue) = set
            .iter()
            .filter_map(|k| held.get(k))
            .fold((0u32, Gold::ZERO), |(n, g), (m, h)| (n + m, g + *h));
        let how = if reaches(provinces.into(), of.into(), rule.province_percent) {
            How::Provinces {
                percent: rule.province_percent,
            }
        } else if of_revenue > Gold::ZERO && reaches(revenue.0, of_revenue.0, rule.revenue_percent)
        {
            How::Revenue {
                percent: rule.revenue_percent,
            }
        } else {
            continue;
        };
        let key = |v: &Victory| {
            (
                v.provinces,
                v.revenue,
                std::cmp::Reverse(v.kingdoms.len()),
                std::cmp::Reverse(v.kingdoms.clone()),
            )
        };
        let v = Victory {
            turn: state.turn.saturating_sub(1),
            kingdoms: set,
            provinces,
            of,
            revenue,
            of_revenue,
            how,
        };
        if best.as_ref().is_none_or(|b| key(&v) > key(b)) {
            best = Some(v);
        }
    }
    best
}

/// A result the GM declares for the given kingdoms (digest 6): each must be a kingdom still
/// in the game, and not the independents. Whether they are allied is the GM's judgement,
/// not checked here.
pub fn declared(
    map: &Map,
    state: &GameState,
    kingdoms: &[KingdomCode],
    reason: &str,
) -> Result<Victory, String> {
    if kingdoms.is_empty() {
        return Err("a victory needs at least one kingdom".to_string());
    }
    let mut set: BTreeSet<KingdomCode> = BTreeSet::new();
    for k in kingdoms {
        match state.kingdoms.get(k) {
            None => return Err(format!("there is no kingdom {k} in the game")),
            Some(x) if x.independent => {
                return Err("the independents cannot win".to_string());
            }
            Some(x) if !x.alive => {
                return Err(format!("{k} has been defeated and cannot win"));
            }
            Some(_) => {}
        }
        if !set.insert(k.clone()) {
            return Err(format!("{k} is named twice"));
        }
    }
    let held = holdings(map, state);
    let (provinces, revenue) = set
        .iter()
        .filter_map(|k| held.get(k))
        .fold((0u32, Gold::ZERO), |(n, g), (m, h)| (n + m, g + *h));
    Ok(Victory {
        turn: state.turn.saturating_sub(1),
        provinces,
        kingdoms: set.into_iter().collect(),
        of: u32::try_from(map.provinces().count()).unwrap_or(u32::MAX),
        revenue,
        of_revenue: map.provinces().map(|l| l.revenue).sum(),
        how: How::Declared {
            reason: reason.trim().to_string(),
        },
    })
}

/// Provinces of the map each kingdom owns, and their maximum revenue.
fn holdings(map: &Map, state: &GameState) -> BTreeMap<KingdomCode, (u32, Gold)> {
    let mut held: BTreeMap<KingdomCode, (u32, Gold)> = BTreeMap::new();
    for loc in map.provinces() {
        if let Some(p) = state.provinces.get(&loc.id) {
            let e = held.entry(p.owner.clone()).or_default();
            e.0 += 1;
            e.1 += loc.revenue;
        }
    }
    held
}

/// Every largest set of surviving kingdoms (the independents aside) in which each is
/// allied with each other one: the maximal cliques of the alliance graph, each sorted, in
/// code order. A kingdom without allies is a set of its own.
pub fn coalitions(state: &GameState) -> Vec<Vec<KingdomCode>> {
    let alive: Vec<KingdomCode> = state
        .kingdoms
        .values()
        .filter(|k| k.alive && !k.independent)
        .map(|k| k.code.clone())
        .collect();
    let allies: BTreeMap<&KingdomCode, BTreeSet<&KingdomCode>> = alive
        .iter()
        .map(|a| {
            let set = alive
                .iter()
                .filter(|b| *b != a && state.relation(a, b) == Relation::Ally)
                .collect();
            (a, set)
        })
        .collect();
    let mut out: Vec<Vec<KingdomCode>> = Vec::new();
    cliques(
        &allies,
        Vec::new(),
        alive.iter().collect(),
        BTreeSet::new(),
        &mut out,
    );
    out.sort();
    out
}

/// Bron-Kerbosch with a pivot: every maximal clique extending `r` with members of `p`,
/// none of `x`. Alliances are few, so the search is small.
fn cliques<'a>(
    allies: &BTreeMap<&'a KingdomCode, BTreeSet<&'a KingdomCode>>,
    r: Vec<&'a KingdomCode>,
    mut p: BTreeSet<&'a KingdomCode>,
    mut x: BTreeSet<&'a KingdomCode>,
    out: &mut Vec<Vec<KingdomCode>>,
) {
    if p.is_empty() && x.is_empty() {
        let mut set: Vec<KingdomCode> = r.into_iter().cloned().collect();
        set.sort();
        out.push(set);
        return;
    }
    let empty = BTreeSet::new();
    let pivot = p
        .iter()
        .chain(x.iter())
        .max_by_key(|v| allies.get(*v).map_or(0, |n| n.intersection(&p).count()))
        .copied();
    let pivot_allies = pivot.and_then(|v| allies.get(v)).unwrap_or(&empty);
    let candidates: Vec<&KingdomCode> = p.difference(pivot_allies).copied().collect();
    for v in candidates {
        let n = allies.get(v).unwrap_or(&empty);
        let mut r2 = r.clone();
        r2.push(v);
        cliques(
            allies,
            r2,
            p.intersection(n).copied().collect(),
            x.intersection(n).copied().collect(),
            out,
        );
        p.remove(v);
        x.insert(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{NewGame, new_game};

    /// Ten provinces in a row; FRA starts with 1-3, PRU 4-5, AUS 6, RUS 7; 8-10 independent.
    /// Each is worth 10 gold but the last, JJJ, worth 100: 190 in all.
    fn game() -> (Map, GameState) {
        let mut text = String::from("name = \"Victory test\"\n");
        let codes = [
            "AAA", "BBB", "CCC", "DDD", "EEE", "FFF", "GGG", "HHH", "III", "JJJ",
        ];
        for (i, c) in codes.iter().enumerate() {
            let mut adj = Vec::new();
            if i > 0 {
                adj.push(format!("\"{}\"", codes[i - 1]));
            }
            if i + 1 < codes.len() {
                adj.push(format!("\"{}\"", codes[i + 1]));
            }
            text.push_str(&format!(
                "[[province]]\nid = {}\ncode = \"{c}\"\nname = \"{c}\"\nposition = [{}.0, 45.0]\n\
                 revenue = {}\nadjacent = [{}]\ncity = {{ name = \"{c}\", builds = [\"MIL\"], \
                 max_builds = 1 }}\n",
                i + 1,
                i,
                if *c == "JJJ" { 100 } else { 10 },
                adj.join(", ")
            ));
        }
        for (k, caps, provs) in [
            ("FRA", "AAA", vec!["AAA", "BBB", "CCC"]),
            ("PRU", "DDD", vec!["DDD", "EEE"]),
            ("AUS", "FFF", vec!["FFF"]),
            ("RUS", "GGG", vec!["GGG"]),
        ] {
            let list: Vec<String> = provs.iter().map(|p| format!("\"{p}\"")).collect();
            text.push_str(&format!(
                "[[kingdom]]\ncode = \"{k}\"\nname = \"{k}\"\ncapital = \"{caps}\"\n\
                 provinces = [{}]\n",
                list.join(", ")
            ));
        }
        let map = Map::parse(&text).expect("the test map is valid");
        let state = new_game(&map, &NewGame::standard(7)).expect("a new game");
        (map, state)
    }

    fn k(s: &str) -> KingdomCode {
        KingdomCode::new(s).unwrap()
    }

    #[test]
    fn g5_an_alliance_holding_half_the_map_wins_together() {
        let (map, mut state) = game();
        assert_eq!(
            victory(&map, &state),
            None,
            "nobody holds half at the start"
        );
        // FRA (3) and PRU (2) hold 5 of 10: 50 %, the default threshold.
        state.set_relation(&k("FRA"), &k("PRU"), Relation::Ally);
        state.turn = 6;
        let v = victory(&map, &state).expect("FRA and PRU win");
        assert_eq!(v.kingdoms, vec![k("FRA"), k("PRU")]);
        assert_eq!((v.provinces, v.of, v.turn), (5, 10, 5));
        assert_eq!(v.how, How::Provinces { percent: 50 });
    }

    #[test]
    fn g5_kingdoms_that_are_not_all_allied_do_not_add_up() {
        let (map, mut state) = game();
        // FRA-PRU and PRU-AUS allied, FRA-AUS not: {FRA, PRU} 5, {PRU, AUS} 3.
        state.set_relation(&k("FRA"), &k("PRU"), Relation::Ally);
        state.set_relation(&k("PRU"), &k("AUS"), Relation::Ally);
        state.settings.victory_province_percent = 60;
        assert_eq!(
            victory(&map, &state),
            None,
            "FRA+PRU+AUS hold 6, but are no coalition"
        );
        state.set_relation(&k("FRA"), &k("AUS"), Relation::Ally);
        let v = victory(&map, &state).expect("now all three are allied");
        assert_eq!(v.kingdoms, vec![k("AUS"), k("FRA"), k("PRU")]);
        assert_eq!(v.provinces, 6);
    }

    #[test]
    fn g5_one_kingdom_alone_wins_and_neutrals_or_enemies_never_count() {
        let (map, mut state) = game();
        state.set_relation(&k("FRA"), &k("PRU"), Relation::War);
        state.settings.victory_province_percent = 30;
        let v = victory(&map, &state).expect("FRA holds 3 of 10");
        assert_eq!(v.kingdoms, vec![k("FRA")]);
        state.settings.victory_province_percent = 31;
        assert_eq!(victory(&map, &state), None, "30 % is under 31 %");
    }

    #[test]
    fn g5_the_largest_qualifying_coalition_wins() {
        let (map, mut state) = game();
        state.settings.victory_province_percent = 30;
        // {FRA, AUS} 4 and {FRA, PRU} 5 both qualify; the larger holding wins.
        state.set_relation(&k("FRA"), &k("AUS"), Relation::Ally);
        state.set_relation(&k("FRA"), &k("PRU"), Relation::Ally);
        let v = victory(&map, &state).unwrap();
        assert_eq!(v.kingdoms, vec![k("FRA"), k("PRU")]);
    }

    #[test]
    fn g5_defeated_kingdoms_and_the_independents_never_win() {
        let (map, mut state) = game();
        state.settings.victory_province_percent = 30;
        // The independents hold 3 of 10 but are no kingdom of a player.
        for id in 1..=3 {
            state.provinces.get_mut(&crate::LocId(id)).unwrap().owner = k("RUS");
        }
        if let Some(x) = state.kingdoms.get_mut(&k("RUS")) {
            x.alive = false;
        }
        assert_eq!(victory(&map, &state), None);
    }

    #[test]
    fn g5_a_threshold_of_zero_leaves_the_result_to_the_gm() {
        let (map, mut state) = game();
        state.settings.victory_province_percent = 0;
        assert_eq!(victory(&map, &state), None);
        let v = declared(&map, &state, &[k("PRU"), k("FRA")], " the game is decided ").unwrap();
        assert_eq!(v.kingdoms, vec![k("FRA"), k("PRU")]);
        assert_eq!(v.provinces, 5);
        assert_eq!(
            v.how,
            How::Declared {
                reason: "the game is decided".to_string()
            }
        );
    }

    #[test]
    fn g5_a_coalition_may_win_by_the_revenue_its_provinces_are_worth() {
        let (map, mut state) = game();
        let by_revenue = |percent| Rule {
            province_percent: 0,
            revenue_percent: percent,
        };
        // FRA's 3 provinces are worth 30 of 190 (15.8 %); PRU's 20.
        let v = victory_by(&map, &state, &by_revenue(15)).expect("FRA is worth 15 %");
        assert_eq!(v.kingdoms, vec![k("FRA")]);
        assert_eq!(
            (v.revenue, v.of_revenue),
            (Gold::whole(30), Gold::whole(190))
        );
        assert_eq!(v.how, How::Revenue { percent: 15 });
        assert_eq!(victory_by(&map, &state, &by_revenue(16)), None);
        // RUS takes JJJ: 2 of 10 provinces, but 110 of 190 gold.
        state.provinces.get_mut(&crate::LocId(10)).unwrap().owner = k("RUS");
        let both = Rule {
            province_percent: 50,
            revenue_percent: 50,
        };
        let v = victory_by(&map, &state, &both).expect("RUS holds most of the revenue");
        assert_eq!((v.kingdoms.clone(), v.provinces), (vec![k("RUS")], 2));
        assert_eq!(v.how, How::Revenue { percent: 50 });
        // The game's own rule counts provinces only, unless its settings ask for revenue.
        assert_eq!(victory(&map, &state), None);
        state.settings.victory_revenue_percent = 50;
        let v = victory(&map, &state).expect("the setting turns the revenue victory on");
        assert_eq!(v.kingdoms, vec![k("RUS")]);
        assert_eq!(v.how, How::Revenue { percent: 50 });
        state.settings.victory_revenue_percent = 60;
        assert_eq!(victory(&map, &state), None, "110 of 190 is under 60 %");
        let off = Rule {
            province_percent: 0,
            revenue_percent: 0,
        };
        assert_eq!(victory_by(&map, &state, &off), None);
    }

    #[test]
    fn g5_the_province_threshold_names_the_victory_when_both_are_met() {
        let (map, mut state) = game();
        state.set_relation(&k("FRA"), &k("PRU"), Relation::Ally);
        let both = Rule {
            province_percent: 50,
            revenue_percent: 10,
        };
        let v = victory_by(&map, &state, &both).unwrap();
        assert_eq!(v.kingdoms, vec![k("FRA"), k("PRU")]);
        assert_eq!(v.how, How::Provinces { percent: 50 });
        assert_eq!(v.revenue, Gold::whole(50));
    }

    #[test]
    fn a_declaration_names_kingdoms_still_in_the_game() {
        let (map, mut state) = game();
        assert!(declared(&map, &state, &[], "x").is_err());
        assert!(declared(&map, &state, &[k("XXX")], "x").is_err());
        assert!(declared(&map, &state, &[k("IND")], "x").is_err());
        assert!(declared(&map, &state, &[k("FRA"), k("FRA")], "x").is_err());
        state.kingdoms.get_mut(&k("AUS")).unwrap().alive = false;
        assert!(declared(&map, &state, &[k("AUS")], "x").is_err());
    }

    #[test]
    fn coalitions_are_the_maximal_sets_of_mutual_allies() {
        let (_, mut state) = game();
        state.set_relation(&k("FRA"), &k("PRU"), Relation::Ally);
        state.set_relation(&k("PRU"), &k("AUS"), Relation::Ally);
        assert_eq!(
            coalitions(&state),
            vec![
                vec![k("AUS"), k("PRU")],
                vec![k("FRA"), k("PRU")],
                vec![k("RUS")]
            ]
        );
    }
}
