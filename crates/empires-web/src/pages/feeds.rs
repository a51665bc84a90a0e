//! A player's deadlines as a calendar (iCalendar) and their new reports as a news feed
//! (Atom), at addresses a calendar app or a feed reader fetches without logging in: each
//! holds a secret of the account's (kept as its SHA-256), made on the account page, stopped
//! there, and revoked by every new password or reset.
//!
//! What a feed lists is the account's own: the next deadline of each game it plays, and its
//! own seats' reports, by title and link only; reading a report still takes logging in.

use super::account::account_page_with;
use crate::auth::{CsrfForm, Empty, new_secret, secret_hash};
use crate::failure::Failure;
use crate::host::Host;
use atom_syndication::{EntryBuilder, FeedBuilder, LinkBuilder};
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use empires_host::store::Millis;
use icalendar::{Calendar, Component, Event, EventLike};
use std::sync::Arc;

/// The addresses of an account's two feeds.
pub struct FeedLinks {
    pub deadlines: String,
    pub reports: String,
}

/// How many of the latest turns of each game the news feed lists.
const TURNS_LISTED: i64 = 10;

/// `POST /account/feeds`: new addresses for my feeds, shown once; the old ones stop.
pub async fn make(
    State(host): State<Arc<Host>>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    let token = new_secret();
    let me = &form.me;
    host.store
        .accounts
        .set_feed(me.account.id, Some(&secret_hash(&token)))
        .await?;
    host.store
        .accounts
        .log_account(
            me.account.id,
            Some(me.account.id),
            None,
            host.now(),
            "feeds made",
            "new addresses for the calendar and news feeds; the old ones stopped",
        )
        .await?;
    let links = FeedLinks {
        deadlines: host.link(&format!("/feeds/{token}/deadlines.ics")),
        reports: host.link(&format!("/feeds/{token}/reports.atom")),
    };
    account_page_with(&host, me, None, None, Some(links)).await
}

/// `POST /account/feeds/stop`: my feeds' addresses stop working.
pub async fn stop(
    State(host): State<Arc<Host>>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    let me = &form.me;
    host.store.accounts.set_feed(me.account.id, None).await?;
    host.store
        .accounts
        .log_account(
            me.account.id,
            Some(me.account.id),
            None,
            host.now(),
            "feeds stopped",
            "",
        )
        .await?;
    account_page_with(
        &host,
        me,
        Some("Your feeds' addresses no longer work.".to_string()),
        None,
        None,
    )
    .await
}

/// The account a feed's secret is for; an unknown or revoked one is not found.
async fn owner(host: &Host, token: &str) -> Result<i64, Failure> {
    let unknown = || Failure::not_found("no such feed: make new addresses on your account page");
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(unknown());
    }
    host.store
        .accounts
        .account_by_feed(&secret_hash(token))
        .await?
        .ok_or_else(unknown)
}

fn utc(at: Millis) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(at).unwrap_or_default()
}

fn feed_response(kind: &'static str, body: String) -> Response {
    (
        [
            (CONTENT_TYPE, kind),
            (CACHE_CONTROL, "private, max-age=300"),
        ],
        body,
    )
        .into_response()
}

/// `/feeds/{token}/deadlines.ics`: the next deadline of each game I play, one event each.
pub async fn deadlines(
    State(host): State<Arc<Host>>,
    Path(token): Path<String>,
) -> Result<Response, Failure> {
    let account = owner(&host, &token).await?;
    let mut cal = Calendar::new();
    cal.name("Empires: my deadlines");
    let stamp = utc(host.now());
    for (game, title) in host.store.accounts.games_of(account).await? {
        let Some(s) = host.store.schedules.schedule_of(&game).await? else {
            continue;
        };
        let (Some(at), None) = (s.deadline, s.paused_at) else {
            continue;
        };
        let turn = s.for_turn;
        cal.push(
            Event::new()
                // One event a game and turn: a deadline moved is the same event, changed.
                .uid(&format!("{game}-turn-{turn}@empires"))
                .timestamp(stamp)
                .summary(&format!("Orders due: {title}, turn {turn}"))
                .description(&format!(
                    "Your orders for turn {turn} of {title} are due ({}). Write them on the web, or reply to your report mail.",
                    s.schedule.describe(at)
                ))
                .url(&host.link(&format!("/games/{}/orders", super::games::url_part(&game))))
                .starts(utc(at))
                .ends(utc(at))
                .done(),
        );
    }
    Ok(feed_response(
        "text/calendar; charset=utf-8",
        cal.done().to_string(),
    ))
}

/// `/feeds/{token}/reports.atom`: my seats' reports of the latest turns of each game I
/// play, newest first, each linking to its page.
pub async fn reports(
    State(host): State<Arc<Host>>,
    Path(token): Path<String>,
) -> Result<Response, Failure> {
    let account = owner(&host, &token).await?;
    let mut entries = Vec::new();
    let mut newest: Millis = 0;
    for (game, title) in host.store.accounts.games_of(account).await? {
        let seats = host.store.mail.seats_of(&game, account).await?;
        let g = host.game(&game).await?;
        for (turn, at) in host.store.games.turn_times(&game, TURNS_LISTED).await? {
            newest = newest.max(at);
            for seat in &seats {
                let path = format!(
                    "/games/{}/turns/{turn}/reports/{seat}.html",
                    super::games::url_part(&game)
                );
                let name = super::games::seat_name(g.as_ref(), *seat);
                let what = if turn == 0 {
                    "the starting position".to_string()
                } else {
                    format!("turn {turn}")
                };
                entries.push((
                    (at, turn),
                    EntryBuilder::default()
                        .id(format!("urn:empires:report:{game}:{turn}:{seat}"))
                        .title(format!("{name}: report of {what}, {title}"))
                        .updated(utc(at).fixed_offset())
                        .links(vec![
                            LinkBuilder::default()
                                .href(host.link(&path))
                                .rel("alternate")
                                .mime_type(Some("text/html".to_string()))
                                .build(),
                        ])
                        .build(),
                ));
            }
        }
    }
    // Newest first: by the time played, then by turn (turns played in the same instant).
    entries.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.id.cmp(&b.1.id)));
    let feed = FeedBuilder::default()
        .id(format!("urn:empires:reports:{account}"))
        .title("Empires: my reports")
        .updated(utc(newest).fixed_offset())
        .entries(entries.into_iter().map(|(_, e)| e).collect::<Vec<_>>())
        .build();
    Ok(feed_response(
        "application/atom+xml; charset=utf-8",
        feed.to_string(),
    ))
}
