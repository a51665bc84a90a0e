//! Replay verification (`empires verify`): every stored turn is played again from the state
//! before it and the turnsheets it kept, and must give the state it stored, byte for byte.
//! The rules engine is deterministic, so a difference means a state changed after it was
//! written, or rules that have changed since the turn was played.

use crate::error::{Error, Result};
use crate::gamedir::{HASH_FILE, ORDERS_DIR, STATE_FILE, parse_state, sha256_hex, to_pretty_json};
use crate::ruleset::GameText;
use crate::ruleset::HostedGame;
use crate::staging::{RECORD_FILE, TurnRecord};
use crate::store::{SeatCode, Store, Stranded};
use crate::turn::{RULES_VERSION, adjudicate_sheets, decode_sheet};
use empires_orders::parse_turnsheet;
use empires_rules::{EmpireCode, GameState, Map};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// How one turn replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The replay gave the stored state.
    Same,
    /// The stored state differs from its own hash, or from the replay: `why` names the
    /// first differing field.
    Differs { why: String },
    /// The replay differs, but the turn was played under other rules (`version`, `None`
    /// before versions were recorded): listed, not failed.
    OtherRules {
        version: Option<String>,
        why: String,
    },
}

/// What `empires verify` found, turn by turn.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    pub game: String,
    pub turns: Vec<(u32, Check)>,
    /// Receipts the store's turns broke: each is a failure.
    pub stranded: Vec<Stranded>,
}

impl VerifyReport {
    /// The turns that failed.
    pub fn failures(&self) -> usize {
        self.turns
            .iter()
            .filter(|(_, c)| matches!(c, Check::Differs { .. }))
            .count()
            + self.stranded.len()
    }
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (turn, check) in &self.turns {
            match check {
                Check::Same => writeln!(f, "turn {turn}: replayed, same state")?,
                Check::Differs { why } => writeln!(f, "turn {turn}: DIFFERS: {why}")?,
                Check::OtherRules { version, why } => writeln!(
                    f,
                    "turn {turn}: played under {}; this program's rules give another state ({why})",
                    match version {
                        Some(v) => format!("rules version {v}"),
                        None => "an earlier rules version".to_string(),
                    }
                )?,
            }
        }
        let other = self
            .turns
            .iter()
            .filter(|(_, c)| matches!(c, Check::OtherRules { .. }))
            .count();
        for s in &self.stranded {
            writeln!(f, "STRANDED: {s}")?;
        }
        write!(
            f,
            "{}: {} turns checked, {} differ, {} played under other rules, {} receipts stranded",
            self.game,
            self.turns.len(),
            self.failures() - self.stranded.len(),
            other,
            self.stranded.len()
        )
    }
}

fn file<'a>(files: &'a [(String, Vec<u8>)], path: &str) -> Option<&'a [u8]> {
    files
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, b)| b.as_slice())
}

/// [`verify`] for a game of any ruleset kept in a directory of its own
/// ([`crate::gamefiles`]): every turn played again from the sheets it took.
pub fn verify_files(game: &crate::gamefiles::GameFiles, label: &str) -> Result<VerifyReport> {
    let turns = game
        .replay()?
        .into_iter()
        .map(|(t, why)| (t, why.map_or(Check::Same, |why| Check::Differs { why })))
        .collect();
    Ok(VerifyReport {
        game: label.to_string(),
        turns,
        stranded: Vec::new(),
    })
}

/// Replays every turn of `game` in `store`.
pub async fn verify(store: &dyn Store, game: &str) -> Result<VerifyReport> {
    if let Some(hosted) = store.hosted_game(game).await? {
        return verify_hosted(store, game, &hosted).await;
    }
    let loaded = crate::ruleset::empires::load(store, game).await?;
    let map = &loaded.map;
    let label = store.describe(game);
    let mut turns = Vec::new();
    let mut prev = store.turn_files(game, 0).await?;
    if let Some(why) = own_hash_problem(&prev) {
        turns.push((0, Check::Differs { why }));
    }
    for t in 1..=loaded.turn {
        let files = store.turn_files(game, t).await?;
        let check = match own_hash_problem(&files) {
            Some(why) => Check::Differs { why },
            None => replay(map, &prev, &files, t, &label)?,
        };
        turns.push((t, check));
        prev = files;
    }
    let stranded = store.stranded_receipts(game).await?;
    Ok(VerifyReport {
        game: label,
        turns,
        stranded,
    })
}

/// [`verify`] for a game of another ruleset: each turn played again through
/// [`crate::ruleset::Ruleset::play`] from the state before it, the sheets it kept and the
/// seats the computer stood in for (its `computer/` files), must give the stored state.
async fn verify_hosted(store: &dyn Store, key: &str, game: &HostedGame) -> Result<VerifyReport> {
    let label = store.describe(key);
    let mut turns = Vec::new();
    let mut prev = store.turn_files(key, 0).await?;
    if let Some(why) = own_hash_problem(&prev) {
        turns.push((0, Check::Differs { why }));
    }
    for t in 1..=game.turn {
        let files = store.turn_files(key, t).await?;
        let check = match own_hash_problem(&files) {
            Some(why) => Check::Differs { why },
            None => replay_hosted(game, &prev, &files, &format!("{label}, turn {t}"))?,
        };
        turns.push((t, check));
        prev = files;
    }
    let stranded = store.stranded_receipts(key).await?;
    Ok(VerifyReport {
        game: label,
        turns,
        stranded,
    })
}

fn replay_hosted(
    game: &HostedGame,
    prev: &[(String, Vec<u8>)],
    files: &[(String, Vec<u8>)],
    label: &str,
) -> Result<Check> {
    let text = |files: &[(String, Vec<u8>)], path: &str| -> Result<String> {
        let bytes =
            file(files, path).ok_or_else(|| Error::corrupt(format!("{label}, {path}: missing")))?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| Error::corrupt(format!("{label}, {path}: not valid UTF-8 text")))
    };
    let record: TurnRecord = serde_json::from_str(&text(files, RECORD_FILE)?)
        .map_err(|e| Error::corrupt(format!("{label}, {RECORD_FILE}: {e}")))?;
    let mut sheets = Vec::new();
    let mut gm = None;
    for name in &record.sent {
        let stem = name.split('.').next().unwrap_or(name);
        if name == crate::gamedir::GM_MESSAGES_FILE {
            gm = Some(text(files, &format!("{ORDERS_DIR}/{name}"))?);
            continue;
        }
        if SeatCode::parse(stem).is_none() {
            continue;
        }
        let path = format!("{ORDERS_DIR}/{name}");
        let bytes = file(files, &path)
            .ok_or_else(|| Error::corrupt(format!("{label}, {path}: missing")))?;
        // A sheet that could not be read was played as sending nothing.
        if let Ok(sheet) = decode_sheet(bytes) {
            sheets.push((stem.to_string(), sheet));
        }
    }
    let stand_ins: Vec<String> = record
        .computer
        .iter()
        .map(|n| n.split('.').next().unwrap_or(n).to_string())
        .collect();
    let before = text(prev, STATE_FILE)?;
    let at = GameText {
        state: &before,
        ..game.text()
    };
    let orders = crate::ruleset::Orders {
        sheets: &sheets,
        stand_ins: &stand_ins,
        gm: gm.as_deref(),
    };
    let played = game.ruleset.play(at, orders)?;
    let stored = text(files, STATE_FILE)?;
    if played.state == stored {
        return Ok(Check::Same);
    }
    Ok(Check::Differs {
        why: first_difference(played.state.as_bytes(), stored.as_bytes()),
    })
}

/// Whether a turn's `state.json` matches its own `state.sha256`.
fn own_hash_problem(files: &[(String, Vec<u8>)]) -> Option<String> {
    let state = file(files, STATE_FILE)?;
    let want = file(files, HASH_FILE).map(|h| String::from_utf8_lossy(h).trim().to_string());
    match want {
        None => Some(format!("{HASH_FILE} is missing")),
        Some(w) if w != sha256_hex(state) => Some(format!(
            "{STATE_FILE} does not match {HASH_FILE}: the state was changed after it was written"
        )),
        Some(_) => None,
    }
}

fn replay(
    map: &Map,
    prev: &[(String, Vec<u8>)],
    files: &[(String, Vec<u8>)],
    turn: u32,
    label: &str,
) -> Result<Check> {
    let at = |path: &str| format!("{label}, turn {turn}, {path}");
    let record: TurnRecord = match file(files, RECORD_FILE) {
        Some(b) => serde_json::from_slice(b)
            .map_err(|e| Error::corrupt(format!("{}: {e}", at(RECORD_FILE))))?,
        None => return Err(Error::corrupt(format!("{}: missing", at(RECORD_FILE)))),
    };
    let before = read_state(prev, map, &format!("{label}, turn {}", turn - 1))?;
    let mut sheets = BTreeMap::new();
    for name in &record.sent {
        let stem = name.split('.').next().unwrap_or(name);
        let Ok(code) = EmpireCode::parse(stem) else {
            // The GM's messages change no state.
            continue;
        };
        let path = format!("{ORDERS_DIR}/{name}");
        let bytes =
            file(files, &path).ok_or_else(|| Error::corrupt(format!("{}: missing", at(&path))))?;
        let text =
            decode_sheet(bytes).map_err(|e| Error::corrupt(format!("{}: {e}", at(&path))))?;
        sheets.insert(code, parse_turnsheet(&text));
    }
    let outcome = adjudicate_sheets(map, &before, turn, sheets)?.outcome;
    let replayed = to_pretty_json(&outcome.state, STATE_FILE)?;
    let stored = file(files, STATE_FILE)
        .ok_or_else(|| Error::corrupt(format!("{}: missing", at(STATE_FILE))))?;
    if replayed.as_bytes() == stored {
        return Ok(Check::Same);
    }
    let why = first_difference(replayed.as_bytes(), stored);
    if record.rules_version.as_deref() != Some(RULES_VERSION) {
        return Ok(Check::OtherRules {
            version: record.rules_version,
            why,
        });
    }
    Ok(Check::Differs { why })
}

fn read_state(files: &[(String, Vec<u8>)], map: &Map, label: &str) -> Result<GameState> {
    let bytes = file(files, STATE_FILE)
        .ok_or_else(|| Error::corrupt(format!("{label}, {STATE_FILE}: missing")))?;
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Error::corrupt(format!("{label}, {STATE_FILE}: not valid UTF-8 text")))?;
    parse_state(text, &format!("{label}, {STATE_FILE}"), map)
}

/// The first field where the replayed state and the stored one differ: `empires[3].bps:
/// replayed 12, stored 14`.
pub fn first_difference(replayed: &[u8], stored: &[u8]) -> String {
    match (
        serde_json::from_slice::<Value>(replayed),
        serde_json::from_slice::<Value>(stored),
    ) {
        (Ok(a), Ok(b)) => match diff(&a, &b, String::new()) {
            Some(d) => d,
            None => "the same fields, written differently".to_string(),
        },
        _ => "the stored state is not valid JSON".to_string(),
    }
}

fn diff(a: &Value, b: &Value, path: String) -> Option<String> {
    let shown = |p: &str| {
        if p.is_empty() {
            "the state".to_string()
        } else {
            p.to_string()
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match y.get(k) {
                    Some(vb) => {
                        if let Some(d) = diff(va, vb, p) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{p}: replayed {va}, not stored")),
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| {
                format!(
                    "{}: stored, not replayed",
                    if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    }
                )
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if let Some(d) = diff(va, vb, format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| {
                format!(
                    "{}: replayed {} entries, stored {}",
                    shown(&path),
                    x.len(),
                    y.len()
                )
            })
        }
        _ if a == b => None,
        _ => Some(format!("{}: replayed {a}, stored {b}", shown(&path))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = br#"{"turn":3,"empires":[{"code":"EN","bps":12},{"code":"FR","bps":9}]}"#;
        let b = br#"{"turn":3,"empires":[{"code":"EN","bps":12},{"code":"FR","bps":11}]}"#;
        assert_eq!(
            first_difference(a, b),
            "empires[1].bps: replayed 9, stored 11"
        );
        assert_eq!(
            first_difference(br#"{"a":[1,2]}"#, br#"{"a":[1]}"#),
            "a: replayed 2 entries, stored 1"
        );
        assert_eq!(
            first_difference(b"{", b"{}"),
            "the stored state is not valid JSON"
        );
    }
}
