//! The log-in rate limit holds against what a guesser can send: padded names, a made-up
//! `X-Forwarded-For`, many attempts at once, megabyte names, several `serve` processes, the
//! API; and it never shuts a player out of a browser they have logged in from before.
//! Each test that counts in the database runs on SQLite and, with `DATABASE_URL`, on
//! PostgreSQL.

use crate::common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::{World, world};
use empires_web::WebConfig;
use empires_web::auth::limit::{
    DEVICE_COOKIE, MAX_FAILURES, MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_DEVICE, WINDOW,
};
use tower::ServiceExt;

/// Runs `test` on a world over SQLite, then over a fresh PostgreSQL database when
/// `DATABASE_URL` names a server.
macro_rules! on_both {
    ($sqlite:ident, $postgres:ident, $tag:literal, $config:expr, $test:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn $sqlite() {
            let w = common::world_with($config).await;
            $test(&w).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn $postgres() {
            let Some(url) = empires_testkit::fresh_postgres($tag).await else {
                return;
            };
            {
                let w = common::build_with(url.clone(), None, $config).await;
                $test(&w).await;
            }
            empires_testkit::drop_postgres(&url).await;
        }
    };
}

/// The CSRF token of a page's forms.
fn csrf_of(page: &str) -> String {
    let at = page
        .find("name=\"csrf\" value=\"")
        .expect("a form with a CSRF token")
        + 19;
    page[at..at + 64].to_string()
}

/// A cookie's `name=value` from an answer's `Set-Cookie` headers, with the whole header.
fn set_cookie(a: &common::Answer, name: &str) -> Option<(String, String)> {
    a.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(|v| (v.split(';').next().unwrap().to_string(), v.to_string()))
}

/// A browser posting the log-in form: it fetches the form first, and sends back the
/// device cookie it was given, if any.
struct Browser {
    device: Option<String>,
    forwarded: Option<String>,
}

impl Browser {
    fn new() -> Browser {
        Browser {
            device: None,
            forwarded: None,
        }
    }

    async fn log_in(&mut self, w: &World, name: &str, password: &str) -> common::Answer {
        let form = w.get("/login", None).await;
        let (login, _) = set_cookie(&form, "empires_login").unwrap();
        let mut cookies = vec![login];
        cookies.extend(self.device.clone());
        let body = serde_urlencoded::to_string([
            ("csrf", csrf_of(&form.body)),
            ("name", name.to_string()),
            ("password", password.to_string()),
        ])
        .unwrap();
        let mut r = Request::builder()
            .method(Method::POST)
            .uri("/login")
            .header("cookie", cookies.join("; "))
            .header("content-type", "application/x-www-form-urlencoded");
        if let Some(f) = &self.forwarded {
            r = r.header("x-forwarded-for", f);
        }
        let a = w.send(r.body(Body::from(body)).unwrap()).await;
        if let Some((device, _)) = set_cookie(&a, DEVICE_COOKIE) {
            self.device = Some(device);
        }
        a
    }
}

/// A log-in through the API, from the address `forwarded` says, if any.
fn api_log_in(name: &str, password: &str, forwarded: Option<&str>) -> Request<Body> {
    let body = serde_json::json!({"name": name, "password": password});
    let mut r = Request::builder()
        .method(Method::POST)
        .uri("/api/login")
        .header("content-type", "application/json");
    if let Some(f) = forwarded {
        r = r.header("x-forwarded-for", f);
    }
    r.body(Body::from(body.to_string())).unwrap()
}

async fn padded_names_share_one_count(w: &World) {
    let padded = ["alice ", " alice", "  alice  ", "\talice", "alice\n"];
    assert_eq!(padded.len(), MAX_FAILURES as usize);
    for name in padded {
        let a = Browser::new().log_in(w, name, "a-wrong-guess").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{name:?}");
    }
    for name in ["alice", " alice ", "ALICE"] {
        let a = Browser::new().log_in(w, name, "alice-password").await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{name:?}");
    }
    // Padding is still taken off to find the account, once the window has passed.
    w.host.clock.advance(WINDOW);
    let a = Browser::new().log_in(w, " alice ", "alice-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
}
on_both!(
    padded_names_share_one_count_sqlite,
    padded_names_share_one_count_postgres,
    "login_padded",
    WebConfig::default(),
    padded_names_share_one_count
);

fn behind_a_proxy() -> WebConfig {
    WebConfig {
        trust_forwarded: true,
        ..Default::default()
    }
}

async fn a_rotated_forwarded_left_entry_does_not_escape_the_limit(w: &World) {
    // The proxy appends the address it saw (192.0.2.7); what stands to its left is whatever
    // the client wrote, a new address each time.
    for i in 0..MAX_FAILURES_PER_ADDRESS {
        let forwarded = format!("10.{}.{}.1, 192.0.2.7", i / 200, i % 200);
        let name = format!("name{i}");
        let a = w
            .send(api_log_in(&name, "wrong-password", Some(&forwarded)))
            .await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);
    }
    let a = w
        .send(api_log_in(
            "alice",
            "alice-password",
            Some("203.0.113.99, 192.0.2.7"),
        ))
        .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    // Two headers: the proxy's is the last.
    let r = Request::builder()
        .method(Method::POST)
        .uri("/api/login")
        .header("x-forwarded-for", "198.51.100.1")
        .header("x-forwarded-for", "192.0.2.7")
        .body(Body::from(
            serde_json::json!({"name": "alice", "password": "alice-password"}).to_string(),
        ))
        .unwrap();
    assert_eq!(w.send(r).await.status, StatusCode::TOO_MANY_REQUESTS);
    // Another client behind the same proxy is not held back.
    let a = w
        .send(api_log_in(
            "alice",
            "alice-password",
            Some("192.0.2.7, 192.0.2.8"),
        ))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    // The counts name the proxy's word, never the client's.
    let keys: Vec<String> = w
        .host
        .store
        .accounts
        .login_limits()
        .await
        .unwrap()
        .into_iter()
        .map(|(k, _, _)| k)
        .filter(|k| k.starts_with("addr:"))
        .collect();
    assert_eq!(keys, ["addr:192.0.2.7", "addr:192.0.2.8"]);
}
on_both!(
    a_rotated_forwarded_left_entry_does_not_escape_the_limit_sqlite,
    a_rotated_forwarded_left_entry_does_not_escape_the_limit_postgres,
    "login_forwarded",
    behind_a_proxy(),
    a_rotated_forwarded_left_entry_does_not_escape_the_limit
);

/// Sends `n` log-ins at once, over as many tasks, to the routers given in turn; their
/// statuses.
async fn at_once(
    worlds: &[&World],
    n: usize,
    make: impl Fn(usize) -> Request<Body>,
) -> Vec<StatusCode> {
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..n {
        let app = worlds[i % worlds.len()].app.clone();
        let req = make(i);
        tasks.spawn(async move { app.oneshot(req).await.unwrap().status() });
    }
    let mut statuses = Vec::new();
    while let Some(s) = tasks.join_next().await {
        statuses.push(s.unwrap());
    }
    statuses
}

fn count(statuses: &[StatusCode], status: StatusCode) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

async fn concurrent_wrong_log_ins_get_at_most_the_limit(w: &World) {
    let statuses = at_once(&[w], 32, |_| api_log_in("alice", "guess-guess", None)).await;
    assert_eq!(
        count(&statuses, StatusCode::UNAUTHORIZED),
        MAX_FAILURES as usize,
        "{statuses:?}"
    );
    assert_eq!(
        count(&statuses, StatusCode::TOO_MANY_REQUESTS),
        32 - MAX_FAILURES as usize,
        "{statuses:?}"
    );
    let a = w.send(api_log_in("alice", "alice-password", None)).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
}
on_both!(
    concurrent_wrong_log_ins_get_at_most_the_limit_sqlite,
    concurrent_wrong_log_ins_get_at_most_the_limit_postgres,
    "login_concurrent",
    WebConfig::default(),
    concurrent_wrong_log_ins_get_at_most_the_limit
);

async fn a_megabyte_name_is_refused_and_nothing_is_kept(w: &World) {
    let huge = "x".repeat(1 << 20);
    // Past the API's 256 KiB the body is not even read.
    let a = w.send(api_log_in(&huge, "whatever-pw", None)).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(a.body.len() < 1000, "the name is not sent back");
    // The form's body is bounded anyway; under that bound, the name is refused too, and
    // the form shown again does not carry it back.
    let a = Browser::new().log_in(w, &huge, "whatever-pw").await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    let big = "y".repeat(100_000);
    let a = Browser::new().log_in(w, &big, "whatever-pw").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.body.len() < 20_000, "{} bytes", a.body.len());
    // One character past the longest account name is already refused.
    let a = w
        .send(api_log_in(&"z".repeat(41), "whatever-pw", None))
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    // Hundreds of such log-ins keep nothing.
    for _ in 0..300 {
        let a = w.send(api_log_in(&"w".repeat(1000), "pw", None)).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST);
    }
    assert!(
        w.host
            .store
            .accounts
            .login_limits()
            .await
            .unwrap()
            .is_empty()
    );
    // Nor were they failures: the right password still works.
    let a = w.send(api_log_in("alice", "alice-password", None)).await;
    assert_eq!(a.status, StatusCode::OK);
}
on_both!(
    a_megabyte_name_is_refused_and_nothing_is_kept_sqlite,
    a_megabyte_name_is_refused_and_nothing_is_kept_postgres,
    "login_huge",
    WebConfig::default(),
    a_megabyte_name_is_refused_and_nothing_is_kept
);

async fn a_known_device_logs_in_while_its_name_is_limited_from_elsewhere(w: &World) {
    // Alice logs in from her browser, which is given a device cookie.
    let mut alice = Browser::new();
    let a = alice.log_in(w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    let (device, header) = set_cookie(&a, DEVICE_COOKIE).expect("a device cookie");
    assert!(
        header.contains("HttpOnly") && header.contains("SameSite=Lax"),
        "{header}"
    );
    assert_eq!(header.contains("Secure"), w.host.config.secure_cookies);
    let token = device.split_once('=').unwrap().1;
    assert_eq!(token.len(), 64);
    let id = w
        .host
        .store
        .accounts
        .account_by_name("alice")
        .await
        .unwrap()
        .unwrap()
        .id;
    assert_eq!(
        w.host
            .store
            .accounts
            .login_device(&empires_web::auth::secret_hash(token), w.host.now())
            .await
            .unwrap(),
        Some(id),
        "kept as its SHA-256"
    );
    assert_eq!(
        w.host
            .store
            .accounts
            .login_device(token, w.host.now())
            .await
            .unwrap(),
        None,
        "never as itself"
    );

    // Someone else guesses her password until her name is shut.
    for _ in 0..MAX_FAILURES + 3 {
        Browser::new().log_in(w, "alice", "a-guess-a-guess").await;
    }
    let a = Browser::new().log_in(w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    // Her own browser still gets in, by the page and by the API.
    let a = alice.log_in(w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    let r = Request::builder()
        .method(Method::POST)
        .uri("/api/login")
        .header("cookie", alice.device.clone().unwrap())
        .body(Body::from(
            serde_json::json!({"name": " alice", "password": "alice-password"}).to_string(),
        ))
        .unwrap();
    assert_eq!(w.send(r).await.status, StatusCode::OK);
    // Its device was kept, not made again.
    assert_eq!(alice.device.as_deref(), Some(device.as_str()));
    assert_eq!(
        w.host
            .store
            .accounts
            .login_device_count(id, w.host.now())
            .await
            .unwrap(),
        1
    );

    // The device has its own small allowance, which does not open the name to others.
    for _ in 0..MAX_FAILURES_PER_DEVICE {
        let a = alice.log_in(w, "alice", "mistyped-it").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    }
    let a = alice.log_in(w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    // It is alice's device, not bob's: for bob it counts as any browser.
    let a = alice.log_in(w, "bob", "bob-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    w.host.clock.advance(WINDOW);
    let a = alice.log_in(w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);

    // A new password forgets the browsers the old one logged in from: whoever held it is
    // limited like anyone else.
    let hash = empires_web::auth::hash_password("a-new-password-42")
        .await
        .unwrap();
    w.host
        .store
        .accounts
        .set_password(id, &hash, w.host.now())
        .await
        .unwrap();
    assert_eq!(
        w.host
            .store
            .accounts
            .login_device_count(id, w.host.now())
            .await
            .unwrap(),
        0
    );
    for _ in 0..MAX_FAILURES + 3 {
        Browser::new().log_in(w, "alice", "a-guess-a-guess").await;
    }
    let a = alice.log_in(w, "alice", "a-new-password-42").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
}
on_both!(
    a_known_device_logs_in_while_its_name_is_limited_from_elsewhere_sqlite,
    a_known_device_logs_in_while_its_name_is_limited_from_elsewhere_postgres,
    "login_device",
    WebConfig::default(),
    a_known_device_logs_in_while_its_name_is_limited_from_elsewhere
);

#[tokio::test]
async fn the_device_cookie_is_secure_with_secure_cookies() {
    let w = common::world_with(WebConfig {
        secure_cookies: true,
        ..Default::default()
    })
    .await;
    a_known_device_logs_in_while_its_name_is_limited_from_elsewhere(&w).await;
}

async fn two_hosts_share_the_count(w: &World) {
    let other = w.another_host().await;
    // Wrong log-ins at once, spread over both hosts.
    let statuses = at_once(&[w, &other], 16, |_| {
        api_log_in("alice", "guess-guess", None)
    })
    .await;
    assert_eq!(
        count(&statuses, StatusCode::UNAUTHORIZED),
        MAX_FAILURES as usize,
        "{statuses:?}"
    );
    for host in [w, &other] {
        let a = Browser::new().log_in(host, "alice", "alice-password").await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    }
    // A host started again finds the count where it was.
    let restarted = w.another_host().await;
    let a = restarted
        .send(api_log_in("alice", "alice-password", None))
        .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    // The window passes for all of them; its rows are dropped at the next log-in.
    for host in [w, &other, &restarted] {
        host.host.clock.advance(WINDOW);
    }
    let a = other.send(api_log_in("bob", "bob-password", None)).await;
    assert_eq!(a.status, StatusCode::OK);
    let kept = w.host.store.accounts.login_limits().await.unwrap();
    assert!(kept.iter().all(|(k, _, _)| k != "name:alice"), "{kept:?}");
    let a = restarted
        .send(api_log_in("alice", "alice-password", None))
        .await;
    assert_eq!(a.status, StatusCode::OK);
}
on_both!(
    two_hosts_share_the_count_sqlite,
    two_hosts_share_the_count_postgres,
    "login_two_hosts",
    WebConfig::default(),
    two_hosts_share_the_count
);

async fn the_api_log_in_shares_the_limit(w: &World) {
    // Failures through the API and the page, with the name padded either way, add up.
    for i in 0..MAX_FAILURES {
        let name = if i % 2 == 0 { " alice" } else { "alice " };
        let a = if i < 3 {
            w.send(api_log_in(name, "guess-guess", None)).await
        } else {
            Browser::new().log_in(w, name, "guess-guess").await
        };
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{i}");
    }
    let a = w.send(api_log_in("alice", "alice-password", None)).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    let a = Browser::new().log_in(w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    // Concurrent API log-ins are held to the address's limit too.
    let statuses = at_once(&[w], 2 * MAX_FAILURES_PER_ADDRESS as usize, |i| {
        api_log_in(&format!("user{i}"), "guess-guess", None)
    })
    .await;
    assert_eq!(
        count(&statuses, StatusCode::UNAUTHORIZED),
        (MAX_FAILURES_PER_ADDRESS - MAX_FAILURES) as usize,
        "{statuses:?}"
    );
}
on_both!(
    the_api_log_in_shares_the_limit_sqlite,
    the_api_log_in_shares_the_limit_postgres,
    "login_api",
    WebConfig::default(),
    the_api_log_in_shares_the_limit
);

#[tokio::test]
async fn a_browser_throwing_its_cookies_away_does_not_grow_the_devices() {
    let w = world().await;
    let n = empires_web::auth::limit::DEVICES_PER_ACCOUNT as usize + 3;
    for _ in 0..n {
        let a = Browser::new().log_in(&w, "carol", "carol-password").await;
        assert_eq!(a.status, StatusCode::SEE_OTHER);
    }
    let id = w
        .host
        .store
        .accounts
        .account_by_name("carol")
        .await
        .unwrap()
        .unwrap()
        .id;
    assert_eq!(
        w.host
            .store
            .accounts
            .login_device_count(id, w.host.now())
            .await
            .unwrap(),
        empires_web::auth::limit::DEVICES_PER_ACCOUNT
    );
    // Its successes were no failures: the name and the address are not held back.
    let a = Browser::new().log_in(&w, "carol", "carol-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
}
