//! Who is asking: passwords (Argon2id), log-in sessions kept in the store and named by an
//! `HttpOnly` cookie, the CSRF token every form of a session carries, and the bearer tokens
//! of the API.

pub mod limit;

use crate::failure::{ApiFailure, Failure};
use crate::host::Host;
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request};
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use empires_host::gamedir::sha256_hex;
use empires_host::store::Millis;
use empires_host::store::{Account, Role};
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "empires_session";
/// The cookie the log-in form's CSRF token is doubled in, before there is a session.
pub const LOGIN_COOKIE: &str = "empires_login";
/// How long a session lasts: 30 days.
pub const SESSION_LIFE: Millis = 30 * 24 * 3600 * 1000;
/// The shortest password taken.
pub const MIN_PASSWORD: usize = 8;
/// The longest password taken: hashing a megabyte would be a cheap way to load the host.
pub const MAX_PASSWORD: usize = 1024;
/// The largest form or API body read, in bytes: a turnsheet is a few kilobytes.
pub const MAX_BODY: usize = 256 * 1024;

/// A password's hash: Argon2id with a random salt, as a PHC string. It costs tens of
/// milliseconds on purpose, so it runs off the request threads.
pub async fn hash_password(password: &str) -> Result<String, Failure> {
    let password = password.to_string();
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(&random_bytes::<16>())
            .map_err(|e| internal(format!("cannot make a salt: {e}")))?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| internal(format!("cannot hash a password: {e}")))
    })
    .await
    .map_err(|e| internal(format!("the hashing task failed: {e}")))?
}

/// Whether `password` is the one `hash` was made from.
pub async fn verify_password(hash: &str, password: &str) -> bool {
    let (hash, password) = (hash.to_string(), password.to_string());
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false)
}

/// A password the host takes: long enough to resist guessing, short enough to hash.
pub fn check_new_password(password: &str, again: &str) -> Result<(), Failure> {
    if password != again {
        return Err(Failure::bad_request("the two passwords differ"));
    }
    let n = password.chars().count();
    if n < MIN_PASSWORD {
        return Err(Failure::bad_request(format!(
            "a password needs at least {MIN_PASSWORD} characters"
        )));
    }
    if password.len() > MAX_PASSWORD {
        return Err(Failure::bad_request(format!(
            "a password may have at most {MAX_PASSWORD} bytes"
        )));
    }
    Ok(())
}

fn internal(message: String) -> Failure {
    tracing::error!("{message}");
    Failure::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "the host cannot answer this now",
    )
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    // The operating system's generator: failing it, nothing secret can be made.
    getrandom::fill(&mut b).expect("the operating system's random generator");
    b
}

/// A new secret: 32 random bytes in hex (a session, an API token, a one-time link).
pub fn new_secret() -> String {
    random_bytes::<32>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How a secret is kept: its SHA-256.
pub fn secret_hash(secret: &str) -> String {
    sha256_hex(secret.as_bytes())
}

/// Whether two tokens are equal, in time that does not tell how much of them matched.
pub fn same_token(a: &str, b: &str) -> bool {
    !a.is_empty() && a.as_bytes().ct_eq(b.as_bytes()).into()
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie(parts: &Parts, name: &str) -> Option<String> {
    parts
        .headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// A `Set-Cookie` value: `HttpOnly` always, `SameSite=Lax` (a link in a mail arrives
/// logged in; forms carry a CSRF token besides), `Secure` behind TLS.
pub fn set_cookie(name: &str, value: &str, max_age_secs: i64, secure: bool) -> String {
    format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_secs}{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The address a request came from, as the log-in limit counts it ([`limit::address_of`]):
/// the peer's, or, when the host is configured to trust the reverse proxy in front
/// (`--trust-forwarded`), the right-most `X-Forwarded-For` entry.
///
/// That option assumes one reverse proxy in front, which appends the address it saw to the
/// header (nginx's `$proxy_add_x_forwarded_for`, Caddy's and Apache's default). The entries
/// to its left are whatever the client wrote and are never believed; the right-most is the
/// hop the proxy itself saw, the right-most that is not a trusted proxy. A right-most entry
/// that is not an IP address (a proxy that does not append) counts as the peer's address,
/// which is the proxy's: such requests share one count rather than choosing their own.
pub fn client_address(parts: &Parts, host: &Host) -> String {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let forwarded = if host.config.trust_forwarded {
        forwarded_client(&parts.headers)
    } else {
        None
    };
    match forwarded.or(peer) {
        Some(ip) => limit::address_of(ip),
        None => "local".to_string(),
    }
}

/// The right-most entry of the `X-Forwarded-For` headers (the last header if there are
/// several, its last entry), if it is an IP address (with or without a port).
pub fn forwarded_client(headers: &axum::http::HeaderMap) -> Option<std::net::IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let entry = last.to_str().ok()?.rsplit(',').next()?.trim();
    entry
        .parse::<std::net::IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// The logged-in account of a page request, with its session's CSRF token.
#[derive(Debug, Clone)]
pub struct Me {
    pub account: Account,
    pub csrf: String,
    /// The SHA-256 of the session's cookie, to end it.
    pub session: String,
}

impl Me {
    pub fn is_gm(&self) -> bool {
        self.account.role == Role::Gm
    }
}

async fn session_of(parts: &Parts, host: &Host) -> Result<Option<Me>, Failure> {
    let Some(token) = cookie(parts, SESSION_COOKIE) else {
        return Ok(None);
    };
    let sha = secret_hash(&token);
    Ok(host
        .store
        .accounts
        .session(&sha, host.now())
        .await?
        .map(|(account, csrf)| Me {
            account,
            csrf,
            session: sha,
        }))
}

impl<S> FromRequestParts<S> for Me
where
    S: Send + Sync,
    Arc<Host>: FromRef<S>,
{
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Me, Failure> {
        let host = Arc::<Host>::from_ref(state);
        session_of(parts, &host)
            .await?
            .ok_or_else(Failure::unauthorized)
    }
}

/// The logged-in account, if any.
pub struct MaybeMe(pub Option<Me>);

impl<S> FromRequestParts<S> for MaybeMe
where
    S: Send + Sync,
    Arc<Host>: FromRef<S>,
{
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MaybeMe, Failure> {
        let host = Arc::<Host>::from_ref(state);
        Ok(MaybeMe(session_of(parts, &host).await?))
    }
}

#[derive(serde::Deserialize)]
struct CsrfField {
    #[serde(default)]
    csrf: String,
}

/// The form of a POST that carries nothing but its CSRF token.
#[derive(serde::Deserialize)]
pub struct Empty {}

/// A form posted by a logged-in account, refused unless it carries the session's CSRF
/// token: a page of another site cannot make a player's browser submit orders.
pub struct CsrfForm<T> {
    pub me: Me,
    pub form: T,
}

impl<S, T> FromRequest<S> for CsrfForm<T>
where
    S: Send + Sync,
    Arc<Host>: FromRef<S>,
    T: DeserializeOwned,
{
    type Rejection = Failure;

    async fn from_request(req: Request, state: &S) -> Result<CsrfForm<T>, Failure> {
        let (mut parts, body) = req.into_parts();
        let me = Me::from_request_parts(&mut parts, state).await?;
        let bytes = read_body(Request::from_parts(parts, body), state).await?;
        let field: CsrfField = serde_urlencoded::from_bytes(&bytes)
            .map_err(|e| Failure::bad_request(format!("the form cannot be read: {e}")))?;
        if !same_token(&field.csrf, &me.csrf) {
            return Err(Failure::forbidden(
                "the form's security token is missing or out of date: reload the page and send it again",
            ));
        }
        let form = serde_urlencoded::from_bytes(&bytes)
            .map_err(|e| Failure::bad_request(format!("the form cannot be read: {e}")))?;
        Ok(CsrfForm { me, form })
    }
}

/// A request's body, refused beyond [`MAX_BODY`].
pub async fn read_body<S: Send + Sync>(req: Request, _state: &S) -> Result<Bytes, Failure> {
    axum::body::to_bytes(req.into_body(), MAX_BODY)
        .await
        .map_err(|_| {
            Failure::new(
                axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request is larger than the {} KiB taken",
                    MAX_BODY / 1024
                ),
            )
        })
}

/// The account an API request's bearer token belongs to.
pub struct ApiUser(pub Account);

impl<S> FromRequestParts<S> for ApiUser
where
    S: Send + Sync,
    Arc<Host>: FromRef<S>,
{
    type Rejection = ApiFailure;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ApiUser, ApiFailure> {
        let host = Arc::<Host>::from_ref(state);
        let token = parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let unauthorized = || {
            ApiFailure(Failure::new(
                axum::http::StatusCode::UNAUTHORIZED,
                "send a live API token as `Authorization: Bearer <token>` (POST /api/login makes one)",
            ))
        };
        let Some(token) = token else {
            return Err(unauthorized());
        };
        match host
            .store
            .accounts
            .token_account(&secret_hash(token))
            .await?
        {
            Some(a) => Ok(ApiUser(a)),
            None => Err(unauthorized()),
        }
    }
}
