//! How the host sends mail: the address its mail comes from, and the SMTP server it hands
//! mail to (none: mail waits in the outbox until one is given).

use empires_host::{Error, Result};
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Certificate, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use std::time::Duration;

/// How long the SMTP server has to answer.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The address the host's mail comes from unless told.
pub const DEFAULT_FROM: &str = "Empires <empires@localhost>";

/// How many refusals the door answers to one address in an hour unless told: a player
/// who gets a sheet wrong a few times is told each time, and a stranger forging a
/// player's address cannot make the host flood that player with refusals.
pub const DEFAULT_REFUSALS_PER_HOUR: u32 = 5;

/// The mail door's settings.
#[derive(Debug, Clone)]
pub struct MailConfig {
    /// Who the host's mail is from; players send their turnsheets to this address.
    pub from: Mailbox,
    /// Where mail is sent; `None` keeps it in the outbox.
    pub smtp: Option<SmtpConfig>,
    /// The address players reach the web door at, for links in mail.
    pub public_url: Option<String>,
    /// How many refusals are answered to one address on record in any hour; a message
    /// refused beyond it is logged for the GM and not answered. Receipts are never held
    /// back. 0 answers no refusal at all.
    pub refusals_per_hour: u32,
}

impl MailConfig {
    /// Settings from the address mail comes from and an SMTP URL (see [`SmtpConfig::parse`]).
    pub fn new(from: &str, smtp: Option<SmtpConfig>) -> Result<MailConfig> {
        let from: Mailbox = from.parse().map_err(|e| {
            Error::new(format!(
                "\"{from}\" is not an email address to send from ({e}); give one like \"Empires <empires@example.org>\""
            ))
        })?;
        Ok(MailConfig {
            from,
            smtp,
            public_url: None,
            refusals_per_hour: DEFAULT_REFUSALS_PER_HOUR,
        })
    }

    /// The domain of the host's address, for the Message-IDs of its mail.
    pub fn domain(&self) -> &str {
        self.from.email.domain()
    }
}

/// Checks that `text` is one email address (`anne@example.org`), as an account's address on
/// record must be.
pub fn check_address(text: &str) -> Result<()> {
    text.parse::<lettre::Address>()
        .map(|_| ())
        .map_err(|e| Error::new(format!("\"{text}\" is not an email address ({e})")))
}

/// How TLS is used with the SMTP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsMode {
    /// None: a server on the same machine or a trusted network.
    None,
    /// STARTTLS, required: the connection is upgraded or nothing is sent.
    StartTls,
    /// STARTTLS when the server offers it.
    Opportunistic,
    /// TLS from the first byte (`smtps://`, port 465).
    Wrapper,
}

/// An SMTP server to send through.
#[derive(Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub tls: TlsMode,
    pub user: Option<String>,
    password: Option<String>,
    /// A certificate authority to trust besides the usual ones (PEM), for a server with a
    /// private certificate.
    pub ca_pem: Option<Vec<u8>>,
}

impl std::fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

impl SmtpConfig {
    /// Reads an SMTP URL: `smtp://host:port` (no TLS), `smtp://host:587?tls=required`
    /// (STARTTLS), `smtp://host?tls=opportunistic`, `smtps://host:465`, each with
    /// `user:password@` before the host when the server wants a log-in.
    pub fn parse(text: &str) -> Result<SmtpConfig> {
        let bad = |why: &str| {
            Error::new(format!(
                "{}: not an SMTP URL ({why}); give one like smtp://user:password@mail.example.org:587?tls=required",
                shown(text)
            ))
        };
        let url = url::Url::parse(text).map_err(|e| bad(&e.to_string()))?;
        let host = url.host_str().ok_or_else(|| bad("no host"))?.to_string();
        let tls_param = url
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.to_string());
        let tls = match (url.scheme(), tls_param.as_deref()) {
            ("smtp", None | Some("none")) => TlsMode::None,
            ("smtp", Some("required" | "starttls")) => TlsMode::StartTls,
            ("smtp", Some("opportunistic")) => TlsMode::Opportunistic,
            ("smtps", _) => TlsMode::Wrapper,
            ("smtp", Some(other)) => {
                return Err(bad(&format!(
                    "tls={other} is not none, required or opportunistic"
                )));
            }
            (scheme, _) => return Err(bad(&format!("the scheme is {scheme}, not smtp or smtps"))),
        };
        let port = url.port().unwrap_or(match tls {
            TlsMode::None => 25,
            TlsMode::StartTls | TlsMode::Opportunistic => 587,
            TlsMode::Wrapper => 465,
        });
        let decode = |s: &str| {
            url::form_urlencoded::parse(format!("x={s}").as_bytes())
                .next()
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default()
        };
        let user = (!url.username().is_empty()).then(|| decode(url.username()));
        let password = url.password().map(decode);
        Ok(SmtpConfig {
            host,
            port,
            tls,
            user,
            password,
            ca_pem: None,
        })
    }

    /// The TLS settings for the server, with the extra certificate authority if one is set.
    fn tls_parameters(&self) -> Result<TlsParameters> {
        let mut p = TlsParameters::builder(self.host.clone());
        if let Some(pem) = &self.ca_pem {
            let cert = Certificate::from_pem(pem)
                .map_err(|e| Error::new(format!("the SMTP server's certificate authority: {e}")))?;
            p = p.add_root_certificate(cert);
        }
        p.build()
            .map_err(|e| Error::new(format!("cannot set up TLS for {}: {e}", self.host)))
    }

    /// A connection to the server, greeted, upgraded to TLS and logged in as configured.
    ///
    /// The socket is opened here, with Nagle's algorithm off: the SMTP client writes a
    /// message and then, apart, the line that ends it, and with Nagle's algorithm that last
    /// small write waits for the server's delayed acknowledgement, some 40 ms a message.
    /// TLS from the first byte (`smtps://`) is left to lettre's own connection.
    pub async fn connect(&self) -> Result<AsyncSmtpConnection> {
        let fail = |e: &dyn std::fmt::Display| {
            Error::of(
                empires_host::error::Kind::Unavailable,
                format!("SMTP server {}: {e}", self.describe()),
            )
        };
        let hello = ClientId::default();
        let mut conn = if self.tls == TlsMode::Wrapper {
            AsyncSmtpConnection::connect_tokio1(
                (self.host.as_str(), self.port),
                Some(TIMEOUT),
                &hello,
                Some(self.tls_parameters()?),
                None,
            )
            .await
            .map_err(|e| fail(&e))?
        } else {
            let tcp = tokio::time::timeout(
                TIMEOUT,
                tokio::net::TcpStream::connect((self.host.as_str(), self.port)),
            )
            .await
            .map_err(|_| fail(&"no answer"))?
            .map_err(|e| fail(&e))?;
            tcp.set_nodelay(true).map_err(|e| fail(&e))?;
            AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &hello)
                .await
                .map_err(|e| fail(&e))?
        };
        let starttls = match self.tls {
            TlsMode::StartTls => true,
            TlsMode::Opportunistic => conn.can_starttls(),
            _ => false,
        };
        if starttls {
            if !conn.can_starttls() {
                return Err(fail(
                    &"it does not offer STARTTLS, which tls=required asks for",
                ));
            }
            conn.starttls(self.tls_parameters()?, &hello)
                .await
                .map_err(|e| fail(&e))?;
        }
        if let (Some(u), Some(p)) = (&self.user, &self.password) {
            // PLAIN alone: every server that takes a log-in offers it (over TLS).
            conn.auth(&[Mechanism::Plain], &Credentials::new(u.clone(), p.clone()))
                .await
                .map_err(|e| fail(&e))?;
        }
        Ok(conn)
    }

    /// The server as it may be shown: without its password.
    pub fn describe(&self) -> String {
        let user = self
            .user
            .as_deref()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        format!("{user}{}:{}", self.host, self.port)
    }
}

/// A URL as it may be shown: without a password.
fn shown(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let user = url[s + 3..at].split(':').next().unwrap_or("");
            format!("{}{user}@{}", &url[..s + 3], &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_urls_are_read_with_their_tls_and_log_in() {
        let c = SmtpConfig::parse("smtp://gm:p%40ss@mail.example.org:2525?tls=required").unwrap();
        assert_eq!(
            (c.host.as_str(), c.port, c.tls),
            ("mail.example.org", 2525, TlsMode::StartTls)
        );
        assert_eq!(c.user.as_deref(), Some("gm"));
        assert_eq!(c.password.as_deref(), Some("p@ss"));
        assert!(!format!("{c:?}").contains("p@ss"));
        assert!(!c.describe().contains("ss"));
        assert_eq!(SmtpConfig::parse("smtps://m.org").unwrap().port, 465);
        assert_eq!(
            SmtpConfig::parse("smtp://127.0.0.1").unwrap().tls,
            TlsMode::None
        );
        let e = SmtpConfig::parse("http://u:secret@x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not smtp") && !e.contains("secret"), "{e}");
        assert!(SmtpConfig::parse("smtp://x?tls=maybe").is_err());
    }

    #[test]
    fn the_sending_address_must_be_an_address() {
        assert!(MailConfig::new("Empires <gm@example.org>", None).is_ok());
        let e = MailConfig::new("not an address", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not an email address"), "{e}");
    }
}
