//! Replay verification (`empires verify`): every stored turn is played again from the state
//! before it and the turnsheets it kept, and must give the state it stored, byte for byte.
//! The rules engine is deterministic, so a difference means a state changed after it was
//! written, or rules that have changed since the turn was played.

use crate::error::{Error, Result};
use crate::gamedir::{
    GM_MESSAGES_FILE, HASH_FILE, ORDERS_DIR, STANDING_DIR, STATE_FILE, sha256_hex,
};
use crate::pipeline::Taken;
use crate::ruleset::HostedGame;
use crate::staging::{RECORD_FILE, TurnRecord, UNREADABLE_DIR};
use crate::store::{Files, Store, Stranded};
use serde_json::Value;
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

/// Replays every turn of `game` in `store`, whatever its ruleset: each turn is played
/// again through the one pipeline ([`crate::pipeline::replay`]) from the state before it,
/// the sheets its record lists and the seats the computer stood in for (those whose orders
/// it wrote), and must give the state it stored. The starting position is checked against
/// its own hash.
pub async fn verify(store: &dyn Store, game: &str) -> Result<VerifyReport> {
    let hosted = store.hosted(game).await?;
    let label = store.describe(game);
    let mut turns = Vec::new();
    let mut prev: Option<Files> = None;
    for t in 0..=hosted.turn {
        let files = store.turn_files(game, t).await?;
        // A game that starts after turn 0 (a scenario) holds nothing before its start.
        if files.is_empty() && prev.is_none() {
            continue;
        }
        let check = match (&prev, own_hash_problem(&files)) {
            (_, Some(why)) => Some(Check::Differs { why }),
            (None, None) => None,
            (Some(before), None) => Some(replay(&hosted, before, &files, t, &label)?),
        };
        turns.extend(check.map(|c| (t, c)));
        prev = Some(files);
    }
    let stranded = store.stranded_receipts(game).await?;
    Ok(VerifyReport {
        game: label,
        turns,
        stranded,
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

/// Turn `turn` of `game` played again from the files of the turn before it and its own.
fn replay(
    game: &HostedGame,
    before: &[(String, Vec<u8>)],
    files: &[(String, Vec<u8>)],
    turn: u32,
    label: &str,
) -> Result<Check> {
    let at = |t: u32, path: &str| format!("{label}, turn {t}, {path}");
    let bytes = |files: &[(String, Vec<u8>)], t: u32, path: &str| {
        file(files, path)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| Error::corrupt(format!("{}: missing", at(t, path))))
    };
    let record: TurnRecord = match file(files, RECORD_FILE) {
        Some(b) => serde_json::from_slice(b)
            .map_err(|e| Error::corrupt(format!("{}: {e}", at(turn, RECORD_FILE))))?,
        // A turn kept in a directory by an earlier version of a ruleset that keeps the
        // computer's orders apart has no record: what its orders/ holds was sent. Where
        // the computer's orders lie beside the players' (Empires), only the record tells
        // them apart.
        None if game.ruleset.computer_dir() == ORDERS_DIR => {
            return Err(Error::corrupt(format!(
                "{}: missing",
                at(turn, RECORD_FILE)
            )));
        }
        None => TurnRecord {
            sent: files
                .iter()
                .filter_map(|(p, _)| p.strip_prefix(&format!("{ORDERS_DIR}/")))
                .filter(|n| !n.contains('/') && n.ends_with(".txt"))
                .map(str::to_string)
                .collect(),
            ..TurnRecord::default()
        },
    };
    let state = String::from_utf8(bytes(before, turn - 1, STATE_FILE)?).map_err(|_| {
        Error::corrupt(format!(
            "{}: not valid UTF-8 text",
            at(turn - 1, STATE_FILE)
        ))
    })?;
    let seat_of = |name: &str| {
        (!name.eq_ignore_ascii_case(GM_MESSAGES_FILE))
            .then(|| name.split('.').next().unwrap_or(name).to_string())
    };
    let mut sent = Vec::new();
    for name in &record.sent {
        let path = format!("{ORDERS_DIR}/{name}");
        sent.push((seat_of(name), bytes(files, turn, &path)?));
    }
    // A sheet that could not be read was played as sending nothing, and is again.
    for name in &record.unreadable {
        let path = format!("{ORDERS_DIR}/{UNREADABLE_DIR}/{name}");
        let body = bytes(files, turn, &path).unwrap_or_else(|_| vec![0]);
        sent.push((seat_of(name), body));
    }
    let ruleset = game.ruleset;
    let opened = ruleset
        .open(HostedGame {
            turn: turn - 1,
            state,
            warnings: Vec::new(),
            ..game.clone()
        })
        .map_err(|e| Error::of(e.kind(), format!("{}: {e}", at(turn - 1, STATE_FILE))))?;
    // The computer stood in for the seats whose orders it wrote.
    let computer: Vec<String> = record.computer.iter().filter_map(|n| seat_of(n)).collect();
    let held = opened
        .seats()?
        .into_iter()
        .map(|s| s.code)
        .filter(|c| !computer.contains(c))
        .collect();
    // The standing sheets the turn was played with are kept with it.
    let standing = files
        .iter()
        .filter_map(|(p, b)| {
            let name = p.strip_prefix(&format!("{STANDING_DIR}/"))?;
            let seat = name.strip_suffix(".txt").filter(|s| !s.contains('/'))?;
            Some((seat.to_string(), b.to_vec()))
        })
        .collect();
    let taken = Taken {
        standing,
        sent,
        held: Some(held),
        superseded: Vec::new(),
        state_accepted: None,
        label: at(turn, ORDERS_DIR),
        arrived: record.arrived.clone(),
    };
    let replayed = crate::pipeline::replay(opened.as_ref(), &taken)?;
    let stored = bytes(files, turn, STATE_FILE)?;
    if replayed.as_bytes() == stored {
        return Ok(Check::Same);
    }
    let why = first_difference(replayed.as_bytes(), &stored);
    if record.rules_version.as_deref() != ruleset.rules_version() {
        return Ok(Check::OtherRules {
            version: record.rules_version,
            why,
        });
    }
    Ok(Check::Differs { why })
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
