//! The JSON API for third-party clients: log in for a token, list my games, fetch a report
//! (the canonical JSON report), check and send turnsheets. Every call but log-in carries a
//! bearer token ([`crate::auth::ApiUser`]); the same access rules as the pages apply
//! ([`crate::access`]). `GET /api/openapi.json` describes it, generated from the handlers.

use crate::access::{Viewer, gm_of, seat_as, viewer};
use crate::auth::{ApiUser, new_secret, secret_hash};
use crate::failure::{ApiFailure, Failure};
use crate::host::Host;
use crate::pages::login::authenticate;
use crate::pages::orders::keep;
use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use empires_host::store::SeatCode;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::{OpenApi, ToSchema};

/// Every route of the API, under `/api`.
pub fn router() -> Router<Arc<Host>> {
    Router::new()
        .route("/login", post(login))
        .route("/games", get(games))
        .route("/rulesets", get(rulesets))
        .route("/games/{game}/reports/{turn}", get(report))
        .route("/games/{game}/check", post(check_sheet))
        .route("/games/{game}/orders", post(send_sheet))
        .route("/games/{game}/rulings", post(send_rulings))
        .route("/tokens", get(tokens))
        .route("/tokens/{id}", delete(revoke))
        .route("/openapi.json", get(openapi))
        .fallback(|| async { ApiFailure(Failure::not_found("no such API call")) })
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Empires host API",
        description = "Play Empires from a program: log in for a token, read reports, check and send turnsheets."
    ),
    paths(
        login,
        games,
        rulesets,
        report,
        check_sheet,
        send_sheet,
        send_rulings,
        tokens,
        revoke
    ),
    components(schemas(
        LoginRequest,
        LoginAnswer,
        GameItem,
        RulesetItem,
        OptionItem,
        SheetRequest,
        SheetReceipt,
        TokenItem,
        ErrorAnswer
    ))
)]
pub struct ApiDoc;

/// The API's OpenAPI description.
async fn openapi() -> Response {
    Json(ApiDoc::openapi()).into_response()
}

/// A game the host runs, with what a GM chooses when starting one.
#[derive(Serialize, ToSchema)]
pub struct RulesetItem {
    pub id: String,
    pub title: String,
    /// Its standard maps, the first the default.
    pub maps: Vec<String>,
    /// The rules its maps may be played under.
    pub variants: Vec<String>,
    pub options: Vec<OptionItem>,
}

/// An option of a new game, with what a game gets when it is left out.
#[derive(Serialize, ToSchema)]
pub struct OptionItem {
    pub id: String,
    pub label: String,
    pub default: String,
}

/// The games this host runs, each with its maps, rules and options and their defaults.
#[utoipa::path(get, path = "/api/rulesets", responses((status = 200, body = Vec<RulesetItem>)), security(("bearer" = [])))]
async fn rulesets(ApiUser(_me): ApiUser) -> Json<Vec<RulesetItem>> {
    Json(
        empires_host::ruleset::all()
            .iter()
            .map(|r| {
                let form = r.new_game_form();
                RulesetItem {
                    id: r.id().to_string(),
                    title: r.title().to_string(),
                    maps: form.maps,
                    variants: form.variants,
                    options: form
                        .options
                        .into_iter()
                        .map(|o| OptionItem {
                            id: o.id.to_string(),
                            label: o.label,
                            default: o.default,
                        })
                        .collect(),
                }
            })
            .collect(),
    )
}

/// What every refused call answers.
#[derive(Serialize, ToSchema)]
pub struct ErrorAnswer {
    pub error: String,
}

/// An API request's body, read up to the host's limit ([`crate::auth::MAX_BODY`], 256 KiB):
/// a larger one is refused with 413 and a JSON answer before it is read whole, like every
/// other refusal of the API.
pub struct ApiBody(pub Bytes);

impl<S: Send + Sync> axum::extract::FromRequest<S> for ApiBody {
    type Rejection = ApiFailure;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<ApiBody, ApiFailure> {
        Ok(ApiBody(crate::auth::read_body(req, state).await?))
    }
}

/// A JSON body, refused with a clear message when it does not read.
fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiFailure> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiFailure(Failure::bad_request(format!(
            "the JSON body does not read: {e}"
        )))
    })
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub name: String,
    pub password: String,
    /// What the token is for, shown on the account page; default "API".
    #[serde(default)]
    pub label: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct LoginAnswer {
    /// Send it as `Authorization: Bearer <token>`; revoke it on the account page or with
    /// `DELETE /api/tokens/{id}`.
    pub token: String,
    pub token_id: i64,
}

/// Logs in and makes a new API token (the log-in rate limit applies).
#[utoipa::path(post, path = "/api/login", request_body = LoginRequest,
    responses((status = 200, body = LoginAnswer), (status = 401, body = ErrorAnswer), (status = 429, body = ErrorAnswer)))]
async fn login(
    State(host): State<Arc<Host>>,
    parts: Parts,
    ApiBody(bytes): ApiBody,
) -> Result<Json<LoginAnswer>, ApiFailure> {
    let req: LoginRequest = body(&bytes)?;
    let address = crate::auth::client_address(&parts, &host);
    // A client that kept a browser's device cookie is limited as that browser is.
    let device = crate::auth::cookie(&parts, crate::auth::limit::DEVICE_COOKIE);
    let account = authenticate(&host, &req.name, &req.password, &address, device.as_deref())
        .await?
        .account;
    let label = req.label.unwrap_or_else(|| "API".into());
    let label: String = label.trim().chars().take(100).collect();
    let token = new_secret();
    let token_id = host
        .store
        .accounts
        .create_token(account.id, &label, &secret_hash(&token), host.now())
        .await?;
    Ok(Json(LoginAnswer { token, token_id }))
}

#[derive(Serialize, ToSchema)]
pub struct GameItem {
    pub name: String,
    pub title: String,
    /// The last turn played.
    pub turn: u32,
    /// The empire I play; absent on a game I run as GM.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empire: Option<String>,
    /// `player` or `gm`.
    pub role: &'static str,
}

/// The games I play, and those I run as GM.
#[utoipa::path(get, path = "/api/games", responses((status = 200, body = Vec<GameItem>), (status = 401, body = ErrorAnswer)),
    security(("bearer" = [])))]
async fn games(
    State(host): State<Arc<Host>>,
    ApiUser(me): ApiUser,
) -> Result<Json<Vec<GameItem>>, ApiFailure> {
    let item = |g: empires_host::store::GameEntry, role| GameItem {
        name: g.name,
        title: g.title,
        turn: g.turn,
        empire: g.empire.map(|e| e.to_string()),
        role,
    };
    let mut out: Vec<GameItem> = host
        .store
        .accounts
        .games_played_by(me.id)
        .await?
        .into_iter()
        .map(|g| item(g, "player"))
        .collect();
    if me.role == empires_host::store::Role::Gm {
        let run = host.store.accounts.games_run_by(me.id).await?;
        out.extend(run.into_iter().map(|g| item(g, "gm")));
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
struct EmpireQuery {
    empire: Option<String>,
}

/// My empire's report of a turn, as the canonical JSON report; the GM names the empire with
/// `?empire=CODE`.
#[utoipa::path(get, path = "/api/games/{game}/reports/{turn}",
    params(("game" = String, Path), ("turn" = u32, Path), ("empire" = Option<String>, Query, description = "the GM's choice of empire")),
    responses((status = 200, description = "the report (docs/report.schema.json)"), (status = 404, body = ErrorAnswer)),
    security(("bearer" = [])))]
async fn report(
    State(host): State<Arc<Host>>,
    ApiUser(me): ApiUser,
    Path((game, turn)): Path<(String, u32)>,
    Query(q): Query<EmpireQuery>,
) -> Result<Response, ApiFailure> {
    let who = viewer(&host, &me, &game).await?;
    let empire = match (who, q.empire) {
        (Viewer::Player(e), _) => e,
        (Viewer::Gm, Some(code)) => SeatCode::parse(&code).ok_or_else(|| {
            ApiFailure(Failure::bad_request(format!(
                "\"{code}\" is not an empire's code"
            )))
        })?,
        (Viewer::Gm, None) => {
            return Err(ApiFailure(Failure::bad_request(
                "say which empire's report: ?empire=CODE",
            )));
        }
    };
    let file = format!("{empire}.json");
    let bytes = crate::pages::games::report_bytes(&host, &game, turn, &file, who).await?;
    Ok(crate::pages::games::file_response("report.json", bytes))
}

#[derive(Deserialize, ToSchema)]
pub struct SheetRequest {
    /// The turnsheet, as it would be written on paper or in a mail.
    pub text: String,
    /// The turn it was written for: refused if that turn has been played meanwhile.
    #[serde(default)]
    pub for_turn: Option<u32>,
    /// Which of my seats it is for, where I hold several in the game (a country split in
    /// two); my first by code when left out.
    #[serde(default)]
    pub seat: Option<String>,
}

impl SheetRequest {
    fn seat(&self) -> Option<SeatCode> {
        self.seat.as_deref().and_then(SeatCode::parse)
    }
}

/// Checks a turnsheet for my empire without keeping it: the diagnostics (line, column,
/// code, message, suggestions) and the forecast, as `empires check --format json` prints.
#[utoipa::path(post, path = "/api/games/{game}/check", request_body = SheetRequest,
    params(("game" = String, Path)),
    responses((status = 200, description = "the check: errors, warnings, diagnostics, forecast"), (status = 404, body = ErrorAnswer),
        (status = 413, description = "the body is over 256 KiB", body = ErrorAnswer)),
    security(("bearer" = [])))]
async fn check_sheet(
    State(host): State<Arc<Host>>,
    ApiUser(me): ApiUser,
    Path(game): Path<String>,
    ApiBody(bytes): ApiBody,
) -> Result<Response, ApiFailure> {
    let req: SheetRequest = body(&bytes)?;
    let seat = seat_as(&host, &me, &game, req.seat()).await?;
    // The ruleset's own account of the check (Empires: every diagnostic and the forecast).
    let checked = host
        .game(&game)
        .await?
        .check(seat.as_str(), "sheet", &req.text)?;
    Ok(Json(checked.to_json()).into_response())
}

#[derive(Serialize, ToSchema)]
pub struct SheetReceipt {
    pub for_turn: u32,
    /// The step the sheet is for, as people name it, in a game played in steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    pub sha256: String,
    /// The hash of the sheet this one replaces, if I had sent one for the turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    pub received_at: i64,
    pub errors: usize,
    pub warnings: usize,
    #[schema(value_type = Object)]
    pub check: serde_json::Value,
}

/// Sends my turnsheet for the next turn; the last one sent before the turn is played counts.
#[utoipa::path(post, path = "/api/games/{game}/orders", request_body = SheetRequest,
    params(("game" = String, Path)),
    responses((status = 200, body = SheetReceipt), (status = 409, body = ErrorAnswer), (status = 404, body = ErrorAnswer),
        (status = 413, description = "the body is over 256 KiB", body = ErrorAnswer),
        (status = 429, description = "over the host's sheets a minute; Retry-After says how long to wait", body = ErrorAnswer)),
    security(("bearer" = [])))]
async fn send_sheet(
    State(host): State<Arc<Host>>,
    ApiUser(me): ApiUser,
    Path(game): Path<String>,
    ApiBody(bytes): ApiBody,
) -> Result<Json<SheetReceipt>, ApiFailure> {
    let req: SheetRequest = body(&bytes)?;
    let seat = seat_as(&host, &me, &game, req.seat()).await?;
    host.take_sheet(me.id).await?;
    let (accepted, received_at) = keep(&host, &game, seat, req.text, req.for_turn, "api").await?;
    Ok(Json(receipt(accepted, received_at)))
}

/// The GM sends the rulings for the next step, in a game whose GM rules: checked by the
/// game's rules and kept (the last sent counts), applied when the step is played.
#[utoipa::path(post, path = "/api/games/{game}/rulings", request_body = SheetRequest,
    params(("game" = String, Path)),
    responses((status = 200, body = SheetReceipt), (status = 403, body = ErrorAnswer), (status = 409, body = ErrorAnswer),
        (status = 404, body = ErrorAnswer)),
    security(("bearer" = [])))]
async fn send_rulings(
    State(host): State<Arc<Host>>,
    ApiUser(me): ApiUser,
    Path(game): Path<String>,
    ApiBody(bytes): ApiBody,
) -> Result<Json<SheetReceipt>, ApiFailure> {
    let req: SheetRequest = body(&bytes)?;
    gm_of(&host, &me, &game).await?;
    let submission = empires_host::store::Submission {
        empire: None,
        body: req.text.into_bytes(),
        door: "api".into(),
        received_at: host.now(),
        for_turn: None,
        late: false,
    };
    let accepted = host
        .submit_rulings(&game, &submission, "rulings")
        .await
        .map_err(Failure::from)?;
    host.store
        .accounts
        .audit_by(
            Some(&game),
            me.id,
            submission.received_at,
            "sent rulings",
            &format!("for turn {}, by the API", accepted.receipt.for_turn),
        )
        .await
        .map_err(Failure::from)?;
    Ok(Json(receipt(accepted, submission.received_at)))
}

/// What the API answers for a sheet kept.
fn receipt(accepted: empires_host::submit::Accepted, received_at: i64) -> SheetReceipt {
    let (errors, warnings) = accepted
        .checked
        .as_ref()
        .map_or((0, 0), |c| (c.errors, c.warnings));
    let check = accepted
        .checked
        .as_ref()
        .map_or(serde_json::Value::Null, |c| c.to_json());
    let r = accepted.receipt;
    SheetReceipt {
        for_turn: r.for_turn,
        step: accepted.step,
        sha256: r.sha256,
        replaces: r.replaces,
        received_at,
        errors,
        warnings,
        check,
    }
}

#[derive(Serialize, ToSchema)]
pub struct TokenItem {
    pub id: i64,
    pub label: String,
    pub created_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<i64>,
}

/// My API tokens (never the tokens themselves).
#[utoipa::path(get, path = "/api/tokens", responses((status = 200, body = Vec<TokenItem>)), security(("bearer" = [])))]
async fn tokens(
    State(host): State<Arc<Host>>,
    ApiUser(me): ApiUser,
) -> Result<Json<Vec<TokenItem>>, ApiFailure> {
    Ok(Json(
        host.store
            .accounts
            .tokens(me.id)
            .await?
            .into_iter()
            .map(|t| TokenItem {
                id: t.id,
                label: t.label,
                created_at: t.created_at,
                revoked_at: t.revoked_at,
            })
            .collect(),
    ))
}

/// Revokes one of my tokens (the one this call carries, too).
#[utoipa::path(delete, path = "/api/tokens/{id}", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorAnswer)), security(("bearer" = [])))]
async fn revoke(
    State(host): State<Arc<Host>>,
    ApiUser(me): ApiUser,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiFailure> {
    if host
        .store
        .accounts
        .revoke_token(me.id, id, host.now())
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiFailure(Failure::not_found(
            "you have no such live token",
        )))
    }
}
