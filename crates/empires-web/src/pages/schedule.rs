//! The GM's deadline controls on the console (2.4): set the schedule, pause and resume the
//! game, extend the next deadline. The store records each in the audit log and announces it
//! to the players with the next reports; the console's own audit line says which GM did it.

use super::games::url_part;
use crate::access::gm_of;
use crate::auth::{CsrfForm, Empty};
use crate::failure::Failure;
use crate::host::Host;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use empires_host::schedule::{Schedule, parse_duration};
use empires_host::store::Millis;
use empires_host::store::{CatchUp, GameSchedule, reminders_text};
use serde::Deserialize;
use std::sync::Arc;

/// The schedule as the console's form shows it.
pub struct ScheduleForm {
    pub spec: String,
    pub catch_up_skip: bool,
    pub remind: String,
    pub paused: bool,
    pub has_deadline: bool,
}

impl ScheduleForm {
    pub fn of(s: Option<&GameSchedule>) -> ScheduleForm {
        match s {
            Some(s) => ScheduleForm {
                spec: s.schedule.to_string(),
                catch_up_skip: s.catch_up == CatchUp::Skip,
                remind: reminders_text(&s.reminders),
                paused: s.paused_at.is_some(),
                has_deadline: s.deadline.is_some(),
            },
            None => ScheduleForm {
                spec: String::new(),
                catch_up_skip: false,
                remind: String::new(),
                paused: false,
                has_deadline: false,
            },
        }
    }
}

fn back(game: &str, notice: &str) -> Response {
    back_to(game, notice, "deadlines")
}

#[derive(Deserialize)]
pub struct SetForm {
    #[serde(default)]
    spec: String,
    #[serde(default)]
    catch_up: String,
    #[serde(default)]
    remind: String,
}

fn reminders(text: &str) -> Result<Vec<Millis>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| parse_duration(p).map_err(|e| e.to_string()))
        .collect()
}

/// `POST /games/{game}/console/schedule`: sets the schedule; the next deadline is its first
/// after now.
pub async fn set(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<SetForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let catch_up = CatchUp::parse(&form.form.catch_up).unwrap_or(CatchUp::Each);
    let parsed = Schedule::parse(&form.form.spec)
        .map_err(|e| {
            format!(
                "The schedule \"{}\" was not set: {e}",
                form.form.spec.trim()
            )
        })
        .and_then(|s| {
            reminders(&form.form.remind).map(|r| (s, r)).map_err(|e| {
                format!(
                    "The reminders \"{}\" were not set: {e}",
                    form.form.remind.trim()
                )
            })
        });
    let (schedule, remind) = match parsed {
        Ok(p) => p,
        Err(why) => {
            // The console again, saying why, with what was typed still in the form.
            let typed = ScheduleForm {
                spec: form.form.spec.clone(),
                catch_up_skip: catch_up == CatchUp::Skip,
                remind: form.form.remind.clone(),
                ..ScheduleForm::of(host.store.schedules.schedule_of(&game).await?.as_ref())
            };
            return super::console::console_error(&host, &form.me, &game, why, Some(typed)).await;
        }
    };
    host.store
        .schedules
        .set_schedule(&game, &schedule, catch_up, &remind, host.now())
        .await?;
    audit(
        &host,
        &game,
        form.me.account.id,
        "set the schedule",
        &schedule.to_string(),
    )
    .await?;
    Ok(back(&game, "schedule"))
}

/// `POST /games/{game}/console/pause`.
pub async fn pause(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    host.store.schedules.pause(&game, host.now()).await?;
    audit(&host, &game, form.me.account.id, "paused the game", "").await?;
    Ok(back(&game, "paused"))
}

/// `POST /games/{game}/console/resume`.
pub async fn resume(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    host.store.schedules.resume(&game, host.now()).await?;
    audit(&host, &game, form.me.account.id, "resumed the game", "").await?;
    Ok(back(&game, "resumed"))
}

#[derive(Deserialize)]
pub struct ExtendForm {
    #[serde(default)]
    by: String,
}

/// `POST /games/{game}/console/extend`: puts the next deadline back by a time ("48h").
pub async fn extend(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<ExtendForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let by = match parse_duration(&form.form.by) {
        Ok(by) => by,
        Err(e) => {
            let why = format!(
                "The deadline was not extended by \"{}\": {e}",
                form.form.by.trim()
            );
            return super::console::console_error(&host, &form.me, &game, why, None).await;
        }
    };
    let current = host
        .store
        .schedules
        .schedule_of(&game)
        .await?
        .and_then(|s| s.deadline)
        .ok_or_else(|| Failure::bad_request("the game has no deadline to extend"))?;
    host.store
        .schedules
        .extend(&game, current + by, host.now())
        .await?;
    audit(
        &host,
        &game,
        form.me.account.id,
        "extended the deadline",
        &form.form.by,
    )
    .await?;
    Ok(back(&game, "extended"))
}

/// Records a GM's console action in the game's audit log, under the GM's name.
pub async fn audit(
    host: &Host,
    game: &str,
    gm: i64,
    what: &str,
    detail: &str,
) -> Result<(), Failure> {
    host.store
        .accounts
        .audit_by(Some(game), gm, host.now(), what, detail)
        .await?;
    Ok(())
}

/// Back to the console's `section`, saying `notice`.
pub fn back_to(game: &str, notice: &str, section: &str) -> Response {
    Redirect::to(&format!(
        "/games/{}/console?notice={notice}#{section}",
        url_part(game)
    ))
    .into_response()
}
