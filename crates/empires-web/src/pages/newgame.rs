//! Starting a game from the GM's console: a standard map, the rules, a seed and the
//! players; every other empire is a dummy the computer plays (2.1).

use super::console::check_account_name;
use super::games::url_part;
use super::layout::{Nav, page};
use crate::auth::{CsrfForm, Me};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use empires_host::store::{NewGame, Store};
use empires_rules::setup::NewGame as Setup;
use empires_rules::variant::Options;
use empires_rules::{EmpireCode, Variant};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "new_game.html")]
struct NewGamePage {
    nav: Option<Nav>,
    csrf: String,
    message: Option<String>,
    maps: Vec<String>,
    variants: Vec<&'static str>,
    name: String,
    map: String,
    seed: String,
    players: String,
    actions: String,
    dropout: String,
}

const VARIANTS: [&str; 4] = ["world", "medieval", "european", "australian"];

fn gm_only(me: &Me) -> Result<(), Failure> {
    if me.is_gm() {
        Ok(())
    } else {
        Err(Failure::forbidden("only a GM may start a game"))
    }
}

fn form_page(me: &Me, f: &NewGameForm, message: Option<String>) -> Result<Response, Failure> {
    let status = if message.is_some() {
        axum::http::StatusCode::UNPROCESSABLE_ENTITY
    } else {
        axum::http::StatusCode::OK
    };
    let body = page(&NewGamePage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        message,
        maps: empires_maps::standard::names()
            .into_iter()
            .map(String::from)
            .collect(),
        variants: VARIANTS.to_vec(),
        name: f.name.clone(),
        map: f.map.clone(),
        seed: f.seed.clone(),
        players: f.players.clone(),
        actions: f.actions.clone(),
        dropout: f.dropout.clone(),
    })?;
    Ok((status, body).into_response())
}

/// `/games/new`.
pub async fn form(me: Me) -> Result<Response, Failure> {
    gm_only(&me)?;
    let blank = NewGameForm {
        name: String::new(),
        map: "world".into(),
        variant: String::new(),
        seed: "1".into(),
        players: String::new(),
        actions: String::new(),
        dropout: String::new(),
    };
    form_page(&me, &blank, None)
}

#[derive(Deserialize)]
pub struct NewGameForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    map: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    seed: String,
    #[serde(default)]
    players: String,
    #[serde(default)]
    actions: String,
    #[serde(default)]
    dropout: String,
}

/// A whole number from the form within `range`, or the default when left blank.
fn number(
    text: &str,
    what: &str,
    range: std::ops::RangeInclusive<u32>,
    default: u32,
) -> Result<u32, String> {
    match text.trim() {
        "" => Ok(default),
        t => t.parse().ok().filter(|n| range.contains(n)).ok_or_else(|| {
            format!(
                "{what} is a whole number from {} to {}",
                range.start(),
                range.end()
            )
        }),
    }
}

/// Players as the form lists them, one `CODE=account` a line.
fn parse_players(text: &str) -> Result<BTreeMap<EmpireCode, String>, String> {
    let mut players = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (code, name) = line
            .split_once('=')
            .ok_or_else(|| format!("players, line {}: write CODE=account name", i + 1))?;
        let code = EmpireCode::parse(code.trim()).map_err(|_| {
            format!(
                "players, line {}: \"{}\" is not an empire's code",
                i + 1,
                code.trim()
            )
        })?;
        check_account_name(name.trim())
            .map_err(|f| format!("players, line {}: {}", i + 1, f.message))?;
        if players.insert(code, name.trim().to_string()).is_some() {
            return Err(format!("players, line {}: {code} is given twice", i + 1));
        }
    }
    Ok(players)
}

/// Starts the game and opens its console; the form again, with what is wrong, otherwise.
pub async fn create(
    State(host): State<Arc<Host>>,
    form: CsrfForm<NewGameForm>,
) -> Result<Response, Failure> {
    let me = &form.me;
    gm_only(me)?;
    let f = &form.form;
    match start(&host, me, f).await {
        Ok(()) => Ok(Redirect::to(&format!(
            "/games/{}/console?notice=created",
            url_part(f.name.trim())
        ))
        .into_response()),
        Err(message) => form_page(me, f, Some(message)),
    }
}

async fn start(host: &Host, me: &Me, f: &NewGameForm) -> Result<(), String> {
    let name = f.name.trim();
    let ok_name = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok_name {
        return Err("a game's short name has 1 to 40 letters, digits, '-' or '_'".into());
    }
    let standard = empires_maps::standard::find(&f.map)
        .ok_or_else(|| format!("\"{}\" is not a standard map", f.map))?;
    let seed: u64 = f
        .seed
        .trim()
        .parse()
        .map_err(|_| "the seed is a whole number, 0 or more".to_string())?;
    let variant = match f.variant.trim() {
        "" => None,
        v => Some(Variant::parse(v).ok_or_else(|| format!("\"{v}\" is not a variant"))?),
    };
    let players = parse_players(&f.players)?;
    let defaults = Options::default();
    let options = Options {
        // 2.6: actions a turn; 2.5: missed turns before a player counts as dropped out.
        actions_per_turn: number(
            &f.actions,
            "actions a turn",
            1..=empires_rules::state::MAX_ACTIONS_PER_TURN,
            defaults.actions_per_turn,
        )?,
        dropout_after: number(
            &f.dropout,
            "missed turns before dropping out",
            1..=100,
            defaults.dropout_after,
        )?,
        ..defaults
    };
    let map = empires_host::gamedir::parse_map(standard.text, standard.file)
        .map_err(|e| e.to_string())?;
    let setup = Setup {
        name: name.to_string(),
        variant: variant.or(map.variant).unwrap_or(Variant::World),
        seed,
        players,
        options,
    };
    let state =
        empires_host::create::start(&map, standard.file, &setup).map_err(|e| e.to_string())?;
    let now = host.now();
    host.store
        .create(&NewGame {
            name,
            map_text: standard.text,
            map: &map,
            state: &state,
            created_at: now,
        })
        .await
        .map_err(|e| e.to_string())?;
    host.store
        .set_game_gm(name, me.account.id)
        .await
        .map_err(|e| e.to_string())?;
    host.store
        .audit_by(
            Some(name),
            me.account.id,
            now,
            "started the game",
            &format!(
                "on the {} map, {} rules, seed {seed}",
                standard.name,
                setup.variant.name()
            ),
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}
