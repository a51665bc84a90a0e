//! How a request fails: one status and one message for a person, as an HTML page for the
//! site ([`Failure`]) or as JSON for the API ([`ApiFailure`]). A failure inside the host
//! (the database cannot be reached, a stored row does not read) is logged in full and
//! answered with a short message: the details are the operator's, not the visitor's.

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use empires_host::error::Kind;

/// A request that cannot be answered as asked.
#[derive(Debug, Clone)]
pub struct Failure {
    pub status: StatusCode,
    pub message: String,
    /// Seconds to wait before asking again, sent as `Retry-After` (a limit was reached).
    pub retry_after: Option<u64>,
}

impl Failure {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// Too many requests: 429, with the seconds to wait.
    pub fn too_many(message: impl Into<String>, retry_after: u64) -> Failure {
        Failure {
            retry_after: Some(retry_after),
            ..Failure::new(StatusCode::TOO_MANY_REQUESTS, message)
        }
    }

    /// The answer's `Retry-After` header, when there is one to send.
    fn with_retry_after(&self, mut response: Response) -> Response {
        if let Some(s) = self.retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(s),
            );
        }
        response
    }

    pub fn bad_request(message: impl Into<String>) -> Failure {
        Failure::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn forbidden(message: impl Into<String>) -> Failure {
        Failure::new(StatusCode::FORBIDDEN, message)
    }

    pub fn not_found(message: impl Into<String>) -> Failure {
        Failure::new(StatusCode::NOT_FOUND, message)
    }

    /// Not logged in (or the token is not valid): the site sends the visitor to log in.
    pub fn unauthorized() -> Failure {
        Failure::new(StatusCode::UNAUTHORIZED, "log in first")
    }
}

impl From<empires_host::Error> for Failure {
    fn from(e: empires_host::Error) -> Failure {
        let status = match e.kind() {
            Kind::NotFound => StatusCode::NOT_FOUND,
            Kind::Conflict => StatusCode::CONFLICT,
            Kind::Other => StatusCode::UNPROCESSABLE_ENTITY,
            Kind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Kind::Corrupt => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status.is_server_error() {
            tracing::error!("{e}");
            return Failure::new(
                status,
                "the host cannot answer this now; the GM has been told in the server's log",
            );
        }
        Failure::new(status, e.to_string())
    }
}

impl From<askama::Error> for Failure {
    fn from(e: askama::Error) -> Failure {
        tracing::error!("cannot render a page: {e}");
        Failure::new(StatusCode::INTERNAL_SERVER_ERROR, "cannot render the page")
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        if self.status == StatusCode::UNAUTHORIZED {
            return Redirect::to("/login").into_response();
        }
        let page = error_page(self.status, &self.message);
        self.with_retry_after((self.status, Html(page)).into_response())
    }
}

/// A [`Failure`] answered as JSON: `{"error": "..."}`.
#[derive(Debug, Clone)]
pub struct ApiFailure(pub Failure);

impl<E: Into<Failure>> From<E> for ApiFailure {
    fn from(e: E) -> ApiFailure {
        ApiFailure(e.into())
    }
}

impl IntoResponse for ApiFailure {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.0.message });
        self.0
            .with_retry_after((self.0.status, axum::Json(body)).into_response())
    }
}

/// The page a failure is shown on: the status and the message, escaped.
pub fn error_page(status: StatusCode, message: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{code} · Empires</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
         <body><header class=\"top\"><a class=\"brand\" href=\"/\">Empires</a></header>\
         <main id=\"main\"><h1>{code} {reason}</h1><p role=\"alert\">{message}</p>\
         <p><a href=\"/games\">My games</a></p></main></body></html>",
        code = status.as_u16(),
        reason = status.canonical_reason().unwrap_or(""),
        message = escape(message),
    )
}

/// Text made safe to put in HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_pages_escape_their_message() {
        let page = error_page(StatusCode::NOT_FOUND, "<script>x</script>");
        assert!(page.contains("&lt;script&gt;"));
        assert!(!page.contains("<script>x"));
    }
}
