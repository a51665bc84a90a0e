//! What every page shares: the navigation bar, rendering a template, times as people read them.

use crate::auth::Me;
use crate::failure::Failure;
use askama::Template;
use axum::response::Html;
use empires_host::store::Millis;

/// The navigation bar of a logged-in page.
pub struct Nav {
    pub name: String,
    pub csrf: String,
    /// The host administrator sees the way to the accounts page.
    pub admin: bool,
}

impl Nav {
    pub fn of(me: &Me) -> Option<Nav> {
        Some(Nav {
            name: me.account.name.clone(),
            csrf: me.csrf.clone(),
            admin: me.account.admin,
        })
    }
}

#[derive(Template)]
#[template(path = "notice.html")]
struct NoticePage<'a> {
    nav: Option<Nav>,
    heading: &'a str,
    text: &'a str,
}

/// A page that says one thing, for a visitor who may not be logged in.
pub fn notice_page(heading: &str, text: &str) -> Result<String, Failure> {
    Ok(NoticePage {
        nav: None,
        heading,
        text,
    }
    .render()?)
}

/// A page rendered from its template.
pub fn page<T: Template>(t: &T) -> Result<Html<String>, Failure> {
    Ok(Html(t.render()?))
}

/// A time as players read it: `2026-11-25 14:03 UTC`.
pub fn time(at: Millis) -> String {
    empires_host::calendar::utc_minute(at)
}

/// What the pages say of the next turn's deadline (2.4): the schedule's, in its own time
/// zone, or that the game is paused or run by hand.
pub async fn deadline_text(host: &crate::host::Host, game: &str) -> Result<String, Failure> {
    let Some(s) = host.store.schedules.schedule_of(game).await? else {
        return Ok("none set: the GM plays the turn when the players are ready".into());
    };
    Ok(match (s.paused_at, s.deadline) {
        (Some(_), _) => "none while the GM has paused the game".into(),
        (None, Some(d)) => {
            let mut t = s.schedule.describe(d);
            if s.schedule.early {
                t.push_str(", or as soon as every player has sent orders");
            }
            t
        }
        (None, None) => "none set: the GM plays the turn when the players are ready".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_dates() {
        assert_eq!(time(0), "1970-01-01 00:00 UTC");
        assert_eq!(time(1_795_000_000_000), "2026-11-18 11:06 UTC");
        assert_eq!(time(951_782_400_000), "2000-02-29 00:00 UTC");
    }
}
