//! Starting a game from the GM's console, of any ruleset the host runs: the game, its
//! map, rules and options as its ruleset offers them ([`Ruleset::new_game_form`]), a seed
//! and the players; the computer plays every other seat (Empires: a dummy, 2.1;
//! Napoleonic Empires: the caretaker, N4).

use super::console::check_account_name;
use super::games::url_part;
use super::layout::{Nav, page};
use crate::auth::{CsrfForm, Me};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use empires_host::ruleset::{GameText, Ruleset, Setup};
use empires_host::store::SeatCode;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

#[derive(Template)]
#[template(path = "new_game.html")]
struct NewGamePage {
    nav: Option<Nav>,
    csrf: String,
    message: Option<String>,
    rulesets: Vec<(&'static str, &'static str)>,
    ruleset: String,
    title: String,
    maps: Vec<String>,
    variants: Vec<String>,
    seats_hint: String,
    /// The ruleset's options: (id, label, value written).
    options: Vec<(&'static str, String, String)>,
    name: String,
    title_given: String,
    map: String,
    seed: String,
    players: String,
    /// Each map's seats, for the GM writing who plays which: (map, [(code, name)]).
    seats: Vec<(String, Vec<(String, String)>)>,
}

/// A seed for a new game: drawn at random, so that no two games play alike unless the GM
/// writes the same seed (every game once had seed 1). Kept in the game's state like any
/// other, so the game is as deterministic as ever.
fn random_seed() -> String {
    let mut bytes = [0u8; 4];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u32::from_le_bytes(bytes).to_string(),
        Err(_) => "1".to_string(),
    }
}

/// The seat of `seats` nearest to a mistyped code, if one is near enough to be meant.
fn nearest_seat<'s>(code: &str, seats: &'s [(String, String)]) -> Option<&'s (String, String)> {
    seats
        .iter()
        .map(|s| (strsim::osa_distance(&code.to_ascii_uppercase(), &s.0), s))
        .filter(|(d, _)| *d <= 1)
        .min_by_key(|(d, _)| *d)
        .map(|(_, s)| s)
}

fn gm_only(me: &Me) -> Result<(), Failure> {
    if me.is_gm() {
        Ok(())
    } else {
        Err(Failure::forbidden("only a GM may start a game"))
    }
}

/// The ruleset a form names, or the host's first.
fn ruleset_of(id: Option<&str>) -> Result<&'static dyn Ruleset, Failure> {
    match id.map(str::trim).filter(|i| !i.is_empty()) {
        Some(id) => Ok(empires_host::ruleset::by_id(id)?),
        None => empires_host::ruleset::all()
            .first()
            .copied()
            .ok_or_else(|| Failure::not_found("this host runs no game")),
    }
}

fn form_page(
    me: &Me,
    ruleset: &'static dyn Ruleset,
    f: &HashMap<String, String>,
    message: Option<String>,
) -> Result<Response, Failure> {
    let status = if message.is_some() {
        axum::http::StatusCode::UNPROCESSABLE_ENTITY
    } else {
        axum::http::StatusCode::OK
    };
    let offered = ruleset.new_game_form();
    let field = |k: &str| f.get(k).cloned().unwrap_or_default();
    let seats = if offered.maps.is_empty() {
        vec![(String::new(), ruleset.map_seats(None))]
    } else {
        offered
            .maps
            .iter()
            .map(|m| (m.clone(), ruleset.map_seats(Some(m))))
            .collect()
    };
    let body = page(&NewGamePage {
        seats,
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        message,
        rulesets: empires_host::ruleset::all()
            .iter()
            .map(|r| (r.id(), r.title()))
            .collect(),
        ruleset: ruleset.id().to_string(),
        title: ruleset.title().to_string(),
        map: f
            .get("map")
            .cloned()
            .or_else(|| offered.maps.first().cloned())
            .unwrap_or_default(),
        maps: offered.maps,
        variants: offered.variants,
        seats_hint: offered.seats_hint,
        options: offered
            .options
            .into_iter()
            .map(|o| (o.id, o.label, field(o.id)))
            .collect(),
        name: field("name"),
        title_given: field("title"),
        seed: f.get("seed").cloned().unwrap_or_else(random_seed),
        players: field("players"),
    })?;
    Ok((status, body).into_response())
}

#[derive(Deserialize)]
pub struct Chosen {
    ruleset: Option<String>,
}

/// `/games/new[?ruleset=ID]`: the form for a game of that ruleset (the host's first
/// without one).
pub async fn form(me: Me, Query(chosen): Query<Chosen>) -> Result<Response, Failure> {
    gm_only(&me)?;
    let ruleset = ruleset_of(chosen.ruleset.as_deref())?;
    form_page(&me, ruleset, &HashMap::new(), None)
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

/// Starts the game and opens its console; the form again, with what is wrong, otherwise.
pub async fn create(
    State(host): State<Arc<Host>>,
    form: CsrfForm<HashMap<String, String>>,
) -> Result<Response, Failure> {
    let me = &form.me;
    gm_only(me)?;
    let f = &form.form;
    let ruleset = ruleset_of(f.get("ruleset").map(String::as_str))?;
    match start(&host, me, ruleset, f).await {
        Ok(name) => Ok(Redirect::to(&format!(
            "/games/{}/console?notice=created",
            url_part(&name)
        ))
        .into_response()),
        Err(message) => form_page(me, ruleset, f, Some(message)),
    }
}

/// Starts a game of `ruleset` as the form `f` sets it up, makes `me` its GM and seats its
/// players ([`seat_players`]); the game's name.
async fn start(
    host: &Host,
    me: &Me,
    ruleset: &'static dyn Ruleset,
    f: &HashMap<String, String>,
) -> Result<String, String> {
    let field = |k: &str| f.get(k).map(|v| v.trim()).unwrap_or("");
    let name = field("name");
    empires_host::create::check_game_name(name).map_err(|e| e.to_string())?;
    let seed: u64 = field("seed")
        .parse()
        .map_err(|_| "the seed is a whole number, 0 or more".to_string())?;
    let players = parse_players(f.get("players").map_or("", String::as_str))?;
    let offered = ruleset.new_game_form();
    let title = Some(field("title"))
        .filter(|t| !t.is_empty())
        .map(String::from);
    if let Some(t) = &title
        && (t.chars().count() > 80 || t.chars().any(char::is_control))
    {
        return Err("the title is at most 80 characters, on one line".to_string());
    }
    let setup = Setup {
        name: name.to_string(),
        title: title.clone(),
        seed,
        standard_map: Some(field("map"))
            .filter(|m| !m.is_empty() && !offered.maps.is_empty())
            .map(String::from),
        variant: Some(field("variant"))
            .filter(|v| !v.is_empty())
            .map(String::from),
        options: offered
            .options
            .iter()
            .filter(|o| !field(o.id).is_empty())
            .map(|o| (o.id.to_string(), field(o.id).to_string()))
            .collect(),
        players: players
            .iter()
            .map(|(s, p)| (s.to_string(), p.clone()))
            .collect(),
        ..Setup::default()
    };
    // Accounts that exist before the game are invited to their seats, not given them.
    // A seat mistyped is said before anything is made: no account, no game.
    let map_chosen = setup.standard_map.as_deref();
    let on_map = ruleset.map_seats(map_chosen);
    if !on_map.is_empty()
        && let Some(seat) = players
            .keys()
            .find(|p| !on_map.iter().any(|s| s.0 == p.as_str()))
    {
        let near = match nearest_seat(seat.as_str(), &on_map) {
            Some((code, n)) => format!(" Did you mean {code} ({n})?"),
            None => String::new(),
        };
        return Err(format!(
            "players: {seat} is not a seat of {} on this map.{near} Its seats are listed under the form.",
            ruleset.title()
        ));
    }
    let existing = existing_accounts(host, &players)
        .await
        .map_err(|e| e.to_string())?;
    let mut started = ruleset.start(&setup).map_err(|e| e.to_string())?;
    // A game whose ruleset keeps no title of its own is shown by the one given.
    if started.title.is_none() {
        started.title = title;
    }
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
        .games
        .create_game(name, ruleset, &started, now)
        .await
        .map_err(fail)?;
    host.store
        .accounts
        .set_game_gm(name, me.account.id)
        .await
        .map_err(fail)?;
    seat_players(host, me, name, &players, &existing)
        .await
        .map_err(fail)?;
    let on = match (&started.title, &started.variant) {
        (_, Some(v)) if !offered.maps.is_empty() => format!(
            "{}, {v}, on the {} map, seed {seed}",
            ruleset.title(),
            setup
                .standard_map
                .as_deref()
                .unwrap_or(offered.maps[0].as_str())
        ),
        _ => format!("{}, seed {seed}", ruleset.title()),
    };
    host.store
        .accounts
        .audit_by(Some(name), me.account.id, now, "started the game", &on)
        .await
        .map_err(fail)?;
    Ok(name.to_string())
}

/// The accounts that exist already among the players named for a new game's seats.
async fn existing_accounts(
    host: &Host,
    players: &BTreeMap<SeatCode, String>,
) -> empires_host::Result<BTreeMap<SeatCode, i64>> {
    let mut out = BTreeMap::new();
    for (seat, name) in players {
        if let Some(a) = host.store.accounts.account_by_name(name).await? {
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
            host.store
                .accounts
                .assign_seat(game, *seat, None, now)
                .await?;
            host.store
                .accounts
                .invite_to_seat(game, *seat, account, gm, now)
                .await?;
            host.store
                .accounts
                .audit_by(
                    Some(game),
                    gm,
                    now,
                    "invited an account to a seat",
                    &format!("{player} to {seat}"),
                )
                .await?;
            host.store
                .accounts
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
        // A game whose state names its players made the account with the game; every
        // seat is given here.
        let account = match host.store.accounts.account_by_name(player).await? {
            Some(a) => {
                host.store.accounts.mark_managed(a.id, gm, game).await?;
                a.id
            }
            None => {
                host.store
                    .accounts
                    .create_managed_account(player, gm, game, now)
                    .await?
            }
        };
        host.store
            .accounts
            .assign_seat(game, *seat, Some(account), now)
            .await?;
        host.store
            .accounts
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
