//! A host with two games for the web door's tests: "alpha" run by gm1 with alice (EN) and
//! bob (SC), "beta" run by gm2 with carol (EN); each account's password is its name
//! followed by "-password". Requests go to the router itself, no socket needed.
#![allow(dead_code)]

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use empires_host::store::sql::SqlStore;
use empires_host::store::{Role, Services};
use empires_rules::EmpireCode;
use empires_web::{Clock, Host, WebConfig, auth};
use http_body_util::BodyExt;
use std::sync::Arc;
use tower::ServiceExt;

pub const START: i64 = 1_795_000_000_000;

pub struct World {
    pub host: Arc<Host>,
    /// The database the host keeps, for what only it can tell (its log, what it holds).
    pub sql: SqlStore,
    pub app: Router,
    _dir: Option<tempfile::TempDir>,
    pub url: String,
}

/// A logged-in browser: its session cookie and the CSRF token of its forms.
#[derive(Clone)]
pub struct Session {
    pub cookie: String,
    pub csrf: String,
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Answer {
    pub fn location(&self) -> &str {
        self.headers
            .get("location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

pub fn code(c: &str) -> EmpireCode {
    EmpireCode::parse(c).unwrap()
}

/// The world on an SQLite file of its own.
pub async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("host.db").display());
    build(url, Some(dir)).await
}

/// The world on the database at `url`.
pub async fn build(url: String, dir: Option<tempfile::TempDir>) -> World {
    build_with(url, dir, WebConfig::default()).await
}

/// The world on an SQLite file of its own, the server configured by `config`.
pub async fn world_with(config: WebConfig) -> World {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("host.db").display());
    build_with(url, Some(dir), config).await
}

/// The world on the database at `url`, the server configured by `config`.
pub async fn build_with(url: String, dir: Option<tempfile::TempDir>, config: WebConfig) -> World {
    // The host runs every game the program is built with, as `empires serve` does.
    empires_testkit::rulesets();
    let sql = SqlStore::open(&url).await.unwrap();
    let host = Arc::new(Host::new(
        Services::of(sql.clone()),
        Clock::manual(START),
        config,
    ));
    for (name, role) in [
        ("gm1", Role::Gm),
        ("gm2", Role::Gm),
        ("alice", Role::Player),
        ("bob", Role::Player),
        ("carol", Role::Player),
    ] {
        let hash = auth::hash_password(&format!("{name}-password"))
            .await
            .unwrap();
        host.store
            .accounts
            .create_account(name, None, role, Some(&hash), START)
            .await
            .unwrap();
    }
    new_game(&host, "alpha", "gm1", &[("EN", "alice"), ("SC", "bob")]).await;
    new_game(&host, "beta", "gm2", &[("EN", "carol")]).await;
    let app = empires_web::app(host.clone());
    World {
        host,
        sql,
        app,
        _dir: dir,
        url,
    }
}

async fn new_game(host: &Host, name: &str, gm: &str, players: &[(&str, &str)]) {
    empires_testkit::tutorial_game(&host.store, name, players, 3, START).await;
    let gm = host
        .store
        .accounts
        .account_by_name(gm)
        .await
        .unwrap()
        .unwrap();
    host.store.accounts.set_game_gm(name, gm.id).await.unwrap();
}

impl World {
    /// Another host over the same database, as a second `serve` process (or this one
    /// started again) would be: a store and a router of its own, nothing shared in memory.
    pub async fn another_host(&self) -> World {
        let sql = SqlStore::open(&self.url).await.unwrap();
        let host = Arc::new(Host::new(
            Services::of(sql.clone()),
            Clock::manual(self.host.now()),
            self.host.config.clone(),
        ));
        let app = empires_web::app(host.clone());
        World {
            host,
            sql,
            app,
            _dir: None,
            url: self.url.clone(),
        }
    }

    /// A session for `name`, as logging in makes one.
    pub async fn session(&self, name: &str) -> Session {
        let account = self
            .host
            .store
            .accounts
            .account_by_name(name)
            .await
            .unwrap()
            .unwrap();
        let set = empires_web::pages::login::start_session(&self.host, account.id)
            .await
            .unwrap();
        let cookie = set.split(';').next().unwrap().to_string();
        let token = cookie.split_once('=').unwrap().1;
        let (_, csrf) = self
            .host
            .store
            .accounts
            .session(&auth::secret_hash(token), self.host.now())
            .await
            .unwrap()
            .unwrap();
        Session { cookie, csrf }
    }

    /// Accepts, as `name`, every invitation to a seat waiting for them (on their account
    /// page, as they would).
    pub async fn accept_invitations(&self, name: &str) {
        let account = self
            .host
            .store
            .accounts
            .account_by_name(name)
            .await
            .unwrap()
            .unwrap();
        let s = self.session(name).await;
        for i in self
            .host
            .store
            .accounts
            .invitations_for(account.id)
            .await
            .unwrap()
        {
            let a = self
                .post_form(
                    &format!("/account/invitations/{}/accept", i.id),
                    Some(&s),
                    &[],
                    true,
                )
                .await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        }
    }

    /// An API token for `name`.
    pub async fn token(&self, name: &str) -> String {
        let account = self
            .host
            .store
            .accounts
            .account_by_name(name)
            .await
            .unwrap()
            .unwrap();
        let token = auth::new_secret();
        self.host
            .store
            .accounts
            .create_token(account.id, "test", &auth::secret_hash(&token), START)
            .await
            .unwrap();
        token
    }

    pub async fn send(&self, req: Request<Body>) -> Answer {
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// A page as its bytes come, asked for with `headers` (an `accept-encoding`).
    pub async fn get_bytes(
        &self,
        path: &str,
        s: Option<&Session>,
        headers: &[(&str, &str)],
    ) -> (StatusCode, HeaderMap, Vec<u8>) {
        let mut r = Request::builder().method(Method::GET).uri(path);
        if let Some(s) = s {
            r = r.header("cookie", &s.cookie);
        }
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        let res = self
            .app
            .clone()
            .oneshot(r.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let (status, headers) = (res.status(), res.headers().clone());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (status, headers, bytes.to_vec())
    }

    pub async fn get(&self, path: &str, s: Option<&Session>) -> Answer {
        let mut r = Request::builder().method(Method::GET).uri(path);
        if let Some(s) = s {
            r = r.header("cookie", &s.cookie);
        }
        self.send(r.body(Body::empty()).unwrap()).await
    }

    /// Posts a form; the session's CSRF token is added unless `csrf` is false.
    pub async fn post_form(
        &self,
        path: &str,
        s: Option<&Session>,
        fields: &[(&str, &str)],
        csrf: bool,
    ) -> Answer {
        let mut pairs: Vec<(String, String)> = fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if csrf && let Some(s) = s {
            pairs.push(("csrf".into(), s.csrf.clone()));
        }
        let body = serde_urlencoded::to_string(&pairs).unwrap();
        let mut r = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header("content-type", "application/x-www-form-urlencoded");
        if let Some(s) = s {
            r = r.header("cookie", &s.cookie);
        }
        self.send(r.body(Body::from(body)).unwrap()).await
    }

    /// Sends a turnsheet from the order page, written for `for_turn`.
    pub async fn send_sheet(&self, game: &str, s: &Session, text: &str, for_turn: u32) -> Answer {
        let turn = for_turn.to_string();
        let path = format!("/games/{game}/orders");
        self.post_form(&path, Some(s), &[("text", text), ("for_turn", &turn)], true)
            .await
    }

    /// The editor's live check: the sheet as the body, the token in a header.
    pub async fn live_check(&self, game: &str, s: &Session, text: &str) -> Answer {
        let r = Request::builder()
            .method(Method::POST)
            .uri(format!("/games/{game}/check"))
            .header("cookie", &s.cookie)
            .header("x-csrf-token", &s.csrf)
            .body(Body::from(text.to_string()))
            .unwrap();
        self.send(r).await
    }

    /// Posts a sheet to game alpha's orders through the API with `token`, for `for_turn`
    /// when given.
    pub async fn post_orders(&self, token: &str, text: &str, for_turn: Option<u32>) -> Answer {
        let body = match for_turn {
            Some(t) => serde_json::json!({ "text": text, "for_turn": t }),
            None => serde_json::json!({ "text": text }),
        };
        self.api(
            Method::POST,
            "/api/games/alpha/orders",
            Some(token),
            Some(body),
        )
        .await
    }

    pub async fn api(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        json: Option<serde_json::Value>,
    ) -> Answer {
        let mut r = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            r = r.header("authorization", format!("Bearer {t}"));
        }
        let body = match json {
            Some(j) => {
                r = r.header("content-type", "application/json");
                Body::from(j.to_string())
            }
            None => Body::empty(),
        };
        self.send(r.body(body).unwrap()).await
    }
}
