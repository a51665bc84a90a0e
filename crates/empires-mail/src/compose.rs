//! The host's mail, made whole before it is queued: answers to turnsheets and the reports of
//! a turn. Every message says it was sent by a program (`Auto-Submitted`, RFC 3834), so
//! that an auto-responder never answers it, and carries a Message-ID and a date of the
//! host's own making, so that the same message is the same bytes every time.

use crate::config::MailConfig;
use empires_host::gamedir::sha256_hex;
use empires_host::store::Millis;
use empires_host::store::OutMail;
use empires_host::{Error, Result};
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, Message, MultiPart, SinglePart};
use std::time::{Duration, UNIX_EPOCH};

/// `Auto-Submitted`: how a message was sent by a program (RFC 3834).
#[derive(Clone)]
struct AutoSubmitted(&'static str);

impl lettre::message::header::Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(s: &str) -> std::result::Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted(if s.trim() == "auto-replied" {
            "auto-replied"
        } else {
            "auto-generated"
        }))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.to_string())
    }
}

/// What an answer or a report is about, for its headers.
pub struct Envelope<'a> {
    pub to: &'a str,
    pub subject: String,
    /// The Message-ID of the message answered, for mail programs to thread the answer.
    pub in_reply_to: Option<&'a str>,
    /// Names the message uniquely: its Message-ID is made from it.
    pub key: String,
    pub now: Millis,
}

fn recipient(to: &str) -> Result<Mailbox> {
    to.parse()
        .map_err(|e| Error::new(format!("\"{to}\" is not an email address to send to ({e})")))
}

/// The part of a message's Message-ID made from its key (before the time it was made):
/// a reply's `In-Reply-To` names the message it answers by it.
pub fn id_of(key: &str) -> String {
    sha256_hex(key.as_bytes())[..32].to_string()
}

fn headers(
    cfg: &MailConfig,
    env: &Envelope<'_>,
    auto: &'static str,
) -> Result<lettre::message::MessageBuilder> {
    let id = format!("<{}.{}@{}>", id_of(&env.key), env.now, cfg.domain());
    let mut b = Message::builder()
        .from(cfg.from.clone())
        .to(recipient(env.to)?)
        .subject(env.subject.clone())
        .date(UNIX_EPOCH + Duration::from_millis(env.now.max(0) as u64))
        .message_id(Some(id))
        .header(AutoSubmitted(auto));
    if let Some(r) = env.in_reply_to {
        let r = if r.starts_with('<') {
            r.to_string()
        } else {
            format!("<{r}>")
        };
        b = b.in_reply_to(r.clone()).references(r);
    }
    Ok(b)
}

fn built(m: std::result::Result<Message, lettre::error::Error>) -> Result<Vec<u8>> {
    m.map(|m| m.formatted())
        .map_err(|e| Error::new(format!("cannot make the message: {e}")))
}

/// A plain-text answer to a message (a receipt, a refusal).
pub fn answer(cfg: &MailConfig, env: &Envelope<'_>, body: &str) -> Result<Vec<u8>> {
    built(
        headers(cfg, env, "auto-replied")?.singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .body(body.to_string()),
        ),
    )
}

/// A turn's report: the text report as the body (printable as it is), the HTML report as
/// its alternative, the map as a PNG and the next turnsheet as a text file.
pub struct ReportParts {
    pub text: String,
    pub html: String,
    pub png: Option<(String, Vec<u8>)>,
    /// The whole map, attached when `png` shows a part of it.
    pub whole: Option<(String, Vec<u8>)>,
    pub sheet: (String, String),
}

/// The Content-ID the HTML report's map is shown by.
pub use empires_host::ruleset::mail::PICTURE_CID as MAP_CID;

/// A report message: `multipart/mixed` of the report (`multipart/alternative` of the text
/// and of the HTML with its map, `multipart/related`) and the turnsheet. The map is the PNG,
/// shown in the HTML page and kept as an attachment with its file name; the page carries no
/// drawing of its own, which mail programs would not show anyway.
pub fn report(cfg: &MailConfig, env: &Envelope<'_>, parts: ReportParts) -> Result<Vec<u8>> {
    let html = SinglePart::builder()
        .header(ContentType::TEXT_HTML)
        .body(parts.html);
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(parts.text);
    let alternative = match parts.png {
        Some((name, png)) => {
            let png_type =
                ContentType::parse("image/png").map_err(|e| Error::new(e.to_string()))?;
            let map =
                Attachment::new_inline_with_name(MAP_CID.to_string(), name).body(png, png_type);
            MultiPart::alternative()
                .singlepart(text)
                .multipart(MultiPart::related().singlepart(html).singlepart(map))
        }
        None => MultiPart::alternative().singlepart(text).singlepart(html),
    };
    let mut mixed = MultiPart::mixed().multipart(alternative);
    if let Some((name, png)) = parts.whole {
        let png_type = ContentType::parse("image/png").map_err(|e| Error::new(e.to_string()))?;
        mixed = mixed.singlepart(Attachment::new(name).body(png, png_type));
    }
    let (sheet_name, sheet) = parts.sheet;
    mixed = mixed.singlepart(Attachment::new(sheet_name).body(sheet, ContentType::TEXT_PLAIN));
    built(headers(cfg, env, "auto-generated")?.multipart(mixed))
}

/// A message ready for the outbox.
pub fn queued(
    game: Option<&str>,
    account: Option<i64>,
    kind: &str,
    dedupe: Option<String>,
    env: &Envelope<'_>,
    message: Vec<u8>,
) -> OutMail {
    OutMail {
        game: game.map(str::to_string),
        account,
        kind: kind.to_string(),
        dedupe,
        recipient: env.to.to_string(),
        subject: env.subject.clone(),
        message,
    }
}

/// Each leaf part of a composed message, as its type (and file name, if it has one) with
/// its size decoded: what a report mail is made of.
pub fn part_sizes(message: &[u8]) -> Vec<(String, usize)> {
    use mail_parser::{MessageParser, MimeHeaders, PartType};
    let Some(m) = MessageParser::default().parse(message) else {
        return Vec::new();
    };
    m.parts
        .iter()
        .filter(|p| !matches!(p.body, PartType::Multipart(_)))
        .map(|p| {
            let kind = p.content_type().map_or_else(
                || "text/plain".to_string(),
                |c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")),
            );
            let name = p
                .attachment_name()
                .map(|n| format!(" {n}"))
                .unwrap_or_default();
            (format!("{kind}{name}"), p.contents().len())
        })
        .collect()
}
