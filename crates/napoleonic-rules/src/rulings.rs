//! The GM's rulings for the next turn: what the rulebook leaves to the game master rather
//! than to the orders (N5 in `docs/napoleonic/rules.md`). One ruling a line; `#` starts a
//! comment.
//!
//! ```text
//! ROYALTY FRA FEE 10          the ruler of FRA is Royalty from this turn (2.10); FEE, where
//!                             turns are paid, charges the GM's fee in turn credits
//! COMMONER FRA                and back to Commoner
//! DENY PROCLAMATION FRA       FRA's proclamation this turn earns nothing (L13)
//! WINNER FRA BAV: a fair peace   the game ends with this turn, won by FRA and BAV (digest 6)
//! ```

use crate::ids::KingdomCode;
use crate::map::Map;
use crate::state::{GameState, Status};
use crate::victory;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The rulings read from the GM's sheet, applied when the next turn is played.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rulings {
    /// 2.10: a ruler's status from this turn on (the GM has taken the fee, or returns it).
    pub status: BTreeMap<KingdomCode, Status>,
    /// The GM's fee for a ruler made Royalty, in turn credits, charged in the player's
    /// ledger where the game's turns are paid for.
    #[serde(default)]
    pub fees: BTreeMap<KingdomCode, u32>,
    /// L13: proclamations the GM found unsuitable ("the GM is reading"): published, paid
    /// nothing.
    pub deny_proclamation: BTreeSet<KingdomCode>,
    /// Digest 6: the GM declares the winners (one kingdom, or allies together), with the
    /// reason; the game ends with this turn.
    pub winner: Option<Declared>,
}

/// A result the GM declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declared {
    pub kingdoms: Vec<KingdomCode>,
    pub reason: String,
}

impl Rulings {
    pub fn is_empty(&self) -> bool {
        self.status.is_empty() && self.deny_proclamation.is_empty() && self.winner.is_none()
    }
}

/// A line of the rulings that could not be read, with what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based.
    pub line: usize,
    pub message: String,
    pub expected: &'static str,
}

const EXPECTED: &str = "ROYALTY K [FEE n], COMMONER K, DENY PROCLAMATION K or WINNER K [K ...]: \
     reason, K a kingdom's code";

/// Reads the GM's rulings against the game as it stands before the turn. Every line that
/// can be read counts; each that cannot is a problem naming its line.
pub fn read(map: &Map, state: &GameState, text: &str) -> (Rulings, Vec<Problem>) {
    let mut out = Rulings::default();
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let problem = |message: String, expected: &'static str| Problem {
            line: i + 1,
            message: format!("line {}: {message}", i + 1),
            expected,
        };
        let (head, reason) = match line.split_once(':') {
            Some((h, r)) => (h, r.trim()),
            None => (line, ""),
        };
        let words: Vec<String> = head
            .split_whitespace()
            .map(|w| w.to_ascii_uppercase())
            .collect();
        let verb: Vec<&str> = words.iter().map(String::as_str).collect();
        // ROYALTY K FEE n: the fee follows the code.
        let (verb, fee) = match verb.as_slice() {
            ["ROYALTY", k, "FEE", n] => match n.parse::<u32>() {
                Ok(n) => (vec!["ROYALTY", *k], Some(n)),
                Err(_) => {
                    problems.push(problem(
                        format!("`{n}` is not a fee in turn credits"),
                        "ROYALTY FRA FEE 10",
                    ));
                    continue;
                }
            },
            _ => (verb, None),
        };
        let (codes, what) = match verb.as_slice() {
            ["ROYALTY", rest @ ..] => (rest, "ROYALTY"),
            ["COMMONER", rest @ ..] => (rest, "COMMONER"),
            ["DENY", "PROCLAMATION", rest @ ..] => (rest, "DENY PROCLAMATION"),
            ["WINNER", rest @ ..] => (rest, "WINNER"),
            _ => {
                problems.push(problem(
                    format!("\"{}\" is not a ruling of Napoleonic Empires", raw.trim()),
                    EXPECTED,
                ));
                continue;
            }
        };
        let mut kingdoms = Vec::new();
        let mut bad = false;
        for c in codes {
            match in_game(state, c) {
                Ok(k) => kingdoms.push(k),
                Err(e) => {
                    problems.push(problem(e, "the code of a kingdom still in the game"));
                    bad = true;
                }
            }
        }
        if bad {
            continue;
        }
        let one = |kingdoms: &[KingdomCode]| match kingdoms {
            [k] => Ok(k.clone()),
            _ => Err(format!("{what} names one kingdom")),
        };
        match what {
            "ROYALTY" | "COMMONER" => match one(&kingdoms) {
                Ok(k) => {
                    let status = if what == "ROYALTY" {
                        Status::Royalty
                    } else {
                        Status::Commoner
                    };
                    if let Some(fee) = fee {
                        out.fees.insert(k.clone(), fee);
                    }
                    out.status.insert(k, status);
                }
                Err(e) => problems.push(problem(e, "ROYALTY FRA or COMMONER FRA")),
            },
            "DENY PROCLAMATION" => match one(&kingdoms) {
                Ok(k) => {
                    out.deny_proclamation.insert(k);
                }
                Err(e) => problems.push(problem(e, "DENY PROCLAMATION FRA")),
            },
            _ => {
                if let Err(e) = victory::declared(map, state, &kingdoms, reason) {
                    problems.push(problem(e, "WINNER FRA: the reason, or WINNER FRA BAV: ..."));
                } else if reason.is_empty() {
                    problems.push(problem(
                        "a declared result gives its reason after a colon".to_string(),
                        "WINNER FRA BAV: a peace that leaves them masters of Europe",
                    ));
                } else {
                    out.winner = Some(Declared {
                        kingdoms,
                        reason: reason.to_string(),
                    });
                }
            }
        }
    }
    (out, problems)
}

fn in_game(state: &GameState, code: &str) -> Result<KingdomCode, String> {
    let k = KingdomCode::new(code).map_err(|_| format!("`{code}` is not a kingdom's code"))?;
    match state.kingdoms.get(&k) {
        Some(x) if x.independent => Err("the independents have no ruler to rule on".to_string()),
        Some(x) if x.alive => Ok(k),
        Some(_) => Err(format!(
            "{k} has been defeated and is no longer in the game"
        )),
        None => Err(format!("there is no kingdom {k} in the game")),
    }
}
