//! A player's calendar of deadlines and feed of reports: their own games and seats alone,
//! at secret addresses shown once, stopped by new addresses and by a new password.

use crate::common::{Session, World, world};
use axum::http::StatusCode;

/// Makes my feeds' addresses on the account page: (deadlines, reports), as paths.
async fn make_feeds(w: &World, s: &Session) -> (String, String) {
    let page = w.post_form("/account/feeds", Some(s), &[], true).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let value = |id: &str| {
        let at = page
            .body
            .find(&format!("id=\"{id}\""))
            .expect("the address shown");
        page.body[at..]
            .split("value=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string()
    };
    (value("ics"), value("atom"))
}

#[tokio::test]
async fn a_players_feeds_list_their_own_deadlines_and_reports_and_stop_with_a_new_password() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let set = w
        .post_form(
            "/games/alpha/console/schedule",
            Some(&gm),
            &[("spec", "daily 18:00 UTC"), ("catch_up", "each")],
            true,
        )
        .await;
    assert_eq!(set.status, StatusCode::SEE_OTHER, "{}", set.body);
    let alice = w.session("alice").await;
    let (ics, atom) = make_feeds(&w, &alice).await;
    assert!(
        ics.ends_with("/deadlines.ics") && atom.ends_with("/reports.atom"),
        "{ics} {atom}"
    );
    // Shown once: the account page afterwards has them no more.
    let page = w.get("/account", Some(&alice)).await.body;
    assert!(!page.contains(&ics), "shown only when made");
    assert!(page.contains("Your feeds are on."));

    // The calendar: alpha's next deadline, needing no log-in.
    let cal = w.get(&ics, None).await;
    assert_eq!(cal.status, StatusCode::OK);
    assert!(
        cal.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/calendar")
    );
    assert!(cal.body.starts_with("BEGIN:VCALENDAR"), "{}", cal.body);
    assert!(
        cal.body.contains("SUMMARY:Orders due: alpha\\, turn 1"),
        "{}",
        cal.body
    );
    assert!(cal.body.contains("DTSTART:"), "{}", cal.body);
    assert!(!cal.body.contains("beta"), "a game she does not play");

    // The news feed: her own seat's reports, by title and link, and nobody else's.
    let news = w.get(&atom, None).await;
    assert_eq!(news.status, StatusCode::OK);
    assert!(news.body.contains("<feed"), "{}", news.body);
    assert!(
        news.body.contains("report of the starting position, alpha"),
        "{}",
        news.body
    );
    assert!(
        news.body.contains("/games/alpha/turns/0/reports/EN.html"),
        "{}",
        news.body
    );
    assert!(
        !news.body.contains("reports/SC.html"),
        "Bob's seat: {}",
        news.body
    );
    assert!(!news.body.contains("ECONOMY"), "no report's content");
    w.host.play_turn("alpha", Some(1), None).await.unwrap();
    let news = w.get(&atom, None).await.body;
    let first = news.find("<entry>").unwrap();
    assert!(
        news[first..].find("report of turn 1").unwrap()
            < news[first..].find("starting position").unwrap(),
        "newest first: {news}"
    );

    // Bob's feed, made by Bob, lists Bob's seat only; a made-up address is no feed.
    let bob = w.session("bob").await;
    let (_, bobs) = make_feeds(&w, &bob).await;
    let his = w.get(&bobs, None).await.body;
    assert!(
        his.contains("reports/SC.html") && !his.contains("reports/EN.html"),
        "{his}"
    );
    assert_eq!(
        w.get(&format!("/feeds/{}/reports.atom", "0".repeat(64)), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // New addresses stop the old ones; so does a new password.
    let (ics2, _) = make_feeds(&w, &alice).await;
    assert_eq!(w.get(&ics, None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(w.get(&ics2, None).await.status, StatusCode::OK);
    let changed = w
        .post_form(
            "/account/password",
            Some(&alice),
            &[
                ("current", "alice-password"),
                ("password", "a-new-password"),
                ("again", "a-new-password"),
            ],
            true,
        )
        .await;
    assert_eq!(changed.status, StatusCode::SEE_OTHER, "{}", changed.body);
    assert_eq!(w.get(&ics2, None).await.status, StatusCode::NOT_FOUND);
}
