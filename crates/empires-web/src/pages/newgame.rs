//! Starting a game from the GM's console: the game (Empires or Napoleonic Empires), a
//! standard map, the rules, a seed and the players; in Empires every other empire is a
//! dummy the computer plays (2.1), in Napoleonic Empires every other kingdom is kept by the
//! computer's caretaker (N4).

use super::console::check_account_name;
use super::games::url_part;
use super::layout::{Nav, page};
use crate::auth::{CsrfForm, Me};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use empires_host::ruleset::{GameText, Ruleset, Setup as OtherSetup};
use empires_host::store::{SeatCode, Store};
use empires_rules::setup::NewGame as Setup;
use empires_rules::variant::Options;
use empires_rules::{EmpireCode, Variant};
use empires_ruleset::ruleset::{EmpiresStore, NewGame};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "new_game.html")]
struct NewGamePage {
    nav: Option<Nav>,
    csrf: String,
    message: Option<String>,
    rulesets: Vec<(&'static str, &'static str)>,
    ruleset: String,
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
        rulesets: empires_host::ruleset::all()
            .iter()
            .map(|r| (r.id(), r.title()))
            .collect(),
        ruleset: f.ruleset.clone(),
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
        ruleset: EMPIRES.into(),
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
    #[serde(default = "empires_id")]
    ruleset: String,
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

const EMPIRES: &str = empires_host::store::sql::EMPIRES;

fn empires_id() -> String {
    EMPIRES.into()
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
fn parse_players(text: &str) -> Result<BTreeMap<SeatCode, String>, String> {
    let mut players = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (code, name) = line
            .split_once('=')
            .ok_or_else(|| format!("players, line {}: write CODE=account name", i + 1))?;
        let code = SeatCode::parse(code).ok_or_else(|| {
            format!(
                "players, line {}: \"{}\" is not an empire's or a kingdom's code",
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

/// The empires of an Empires game's players.
fn empires_of(players: BTreeMap<SeatCode, String>) -> Result<BTreeMap<EmpireCode, String>, String> {
    players
        .into_iter()
        .map(|(seat, name)| match empires_ruleset::empire(seat) {
            Some(e) => Ok((e, name)),
            None => Err(format!("players: \"{seat}\" is not an empire's code")),
        })
        .collect()
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
    empires_host::create::check_game_name(name).map_err(|e| e.to_string())?;
    let seed: u64 = f
        .seed
        .trim()
        .parse()
        .map_err(|_| "the seed is a whole number, 0 or more".to_string())?;
    if f.ruleset != EMPIRES {
        let ruleset = empires_host::ruleset::by_id(&f.ruleset).map_err(|e| e.to_string())?;
        return start_other(host, me, ruleset, (name, seed), parse_players(&f.players)?).await;
    }
    let standard = empires_maps::standard::find(&f.map)
        .ok_or_else(|| format!("\"{}\" is not a standard map", f.map))?;
    let variant = match f.variant.trim() {
        "" => None,
        v => Some(Variant::parse(v).ok_or_else(|| format!("\"{v}\" is not a variant"))?),
    };
    let seats = parse_players(&f.players)?;
    let existing = existing_accounts(host, &seats)
        .await
        .map_err(|e| e.to_string())?;
    let players = empires_of(seats.clone())?;
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
    let map = empires_ruleset::gamedir::parse_map(standard.text, standard.file)
        .map_err(|e| e.to_string())?;
    let setup = Setup {
        name: name.to_string(),
        variant: variant.or(map.variant).unwrap_or(Variant::World),
        seed,
        players,
        options,
    };
    let state =
        empires_ruleset::create::start(&map, standard.file, &setup).map_err(|e| e.to_string())?;
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
    seat_players(host, me, name, &seats, &existing)
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

/// Starts a game of another ruleset on its standard map, makes `me` its GM and seats its
/// players as [`seat_players`] does.
async fn start_other(
    host: &Host,
    me: &Me,
    ruleset: &'static dyn Ruleset,
    (name, seed): (&str, u64),
    players: BTreeMap<SeatCode, String>,
) -> Result<(), String> {
    let setup = OtherSetup {
        name: name.to_string(),
        seed,
        map: None,
        seats: Vec::new(),
    };
    let started = ruleset.create(&setup).map_err(|e| e.to_string())?;
    let text = GameText {
        name,
        map: &started.map,
        state: &started.state,
        kept: started.kept.as_deref(),
    };
    let seats = ruleset.seats(text).map_err(|e| e.to_string())?;
    if let Some(seat) = players
        .keys()
        .find(|p| !seats.iter().any(|s| s.code == p.as_str()))
    {
        let codes: Vec<&str> = seats.iter().map(|s| s.code.as_str()).collect();
        return Err(format!(
            "players: {seat} is not a seat of {}; its seats are {}",
            ruleset.title(),
            codes.join(" ")
        ));
    }
    let now = host.now();
    let fail = |e: empires_host::Error| e.to_string();
    host.store
        .create_game(name, ruleset, &started, now)
        .await
        .map_err(fail)?;
    host.store
        .set_game_gm(name, me.account.id)
        .await
        .map_err(fail)?;
    let existing = existing_accounts(host, &players).await.map_err(fail)?;
    seat_players(host, me, name, &players, &existing)
        .await
        .map_err(fail)?;
    host.store
        .audit_by(
            Some(name),
            me.account.id,
            now,
            "started the game",
            &format!("{}, seed {seed}", ruleset.title()),
        )
        .await
        .map_err(fail)
}

/// The accounts that exist already among the players named for a new game's seats.
async fn existing_accounts(
    host: &Host,
    players: &BTreeMap<SeatCode, String>,
) -> empires_host::Result<BTreeMap<SeatCode, i64>> {
    let mut out = BTreeMap::new();
    for (seat, name) in players {
        if let Some(a) = host.store.account_by_name(name).await? {
            out.insert(*seat, a.id);
        }
    }
    Ok(out)
}

/// Seats a new game's players. A name that was new has its account made for this game,
/// held by its GM until the owner sets a password. An account that existed before the
/// game is never given the seat: it is invited to it, and the seat stays empty (the
/// computer's) until its owner accepts.
async fn seat_players(
    host: &Host,
    me: &Me,
    game: &str,
    players: &BTreeMap<SeatCode, String>,
    existing: &BTreeMap<SeatCode, i64>,
) -> empires_host::Result<()> {
    let gm = me.account.id;
    let now = host.now();
    for (seat, player) in players {
        let detail = format!("{seat} of game \"{game}\"");
        if let Some(&account) = existing.get(seat) {
            host.store.assign_seat(game, *seat, None, now).await?;
            host.store
                .invite_to_seat(game, *seat, account, gm, now)
                .await?;
            host.store
                .audit_by(
                    Some(game),
                    gm,
                    now,
                    "invited an account to a seat",
                    &format!("{player} to {seat}"),
                )
                .await?;
            host.store
                .log_account(
                    account,
                    Some(gm),
                    Some(game),
                    now,
                    "invited to a seat",
                    &detail,
                )
                .await?;
            continue;
        }
        // An Empires game made the account with the game; another ruleset's seats are
        // given here.
        let account = match host.store.account_by_name(player).await? {
            Some(a) => {
                host.store.mark_managed(a.id, gm, game).await?;
                a.id
            }
            None => {
                host.store
                    .create_managed_account(player, gm, game, now)
                    .await?
            }
        };
        host.store
            .assign_seat(game, *seat, Some(account), now)
            .await?;
        host.store
            .log_account(
                account,
                Some(gm),
                Some(game),
                now,
                "made for a seat",
                &detail,
            )
            .await?;
    }
    Ok(())
}
