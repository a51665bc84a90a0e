//! Reading one email message (RFC 5322, MIME) with `mail-parser`: who sent it, whether a
//! program sent it on its own (an auto-reply, a bounce), and every text in it that may hold
//! a turnsheet, decoded whatever its transfer encoding and character set.

use empires_host::gamedir::sha256_hex;
use mail_parser::{MessageParser, MimeHeaders};

/// The largest message the door reads: a turnsheet is a few hundred bytes, and a message
/// with a photo or two of one attached is well under this.
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

/// The most MIME parts a message may have.
pub const MAX_PARTS: usize = 64;

/// How much of a message too large to read is read to learn who sent it.
const HEAD_BYTES: usize = 64 << 10;

/// A text of the message that may hold the turnsheet, and where it was found.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// "the message body", "attachment orders.txt": for the answer to the player.
    pub origin: String,
    pub text: String,
}

/// What the door needs of a message.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// Names the message for recognising a second delivery of it: a hash of its sender,
    /// its Message-ID and its content (the bytes after its header, which a second delivery
    /// leaves as they were while the mail servers on the way add their own header lines),
    /// or the SHA-256 of its bytes when it has no Message-ID. Another message reusing a
    /// Message-ID (another sender, or other content) has another key.
    pub key: String,
    pub message_id: Option<String>,
    /// The Message-IDs of the messages this one answers (`In-Reply-To`, then `References`),
    /// without their angle brackets: a reply to a report mail is tied to its game and seat
    /// by them.
    pub replies_to: Vec<String>,
    /// The sender's address (`From`), as written.
    pub from: Option<String>,
    pub subject: String,
    /// Why the message was sent by a program rather than a person, if it was: such
    /// messages are never answered, so that two programs never answer each other forever.
    pub automatic: Option<String>,
    /// Why the message cannot be read, if it cannot: too large, too many parts, not MIME.
    pub unreadable: Option<String>,
    /// The texts that may hold a turnsheet, in the order they are tried.
    pub candidates: Vec<Candidate>,
}

impl Incoming {
    /// Reads a message. `size` is its whole size in bytes, which may be more than `raw`
    /// holds when the message was too large to keep whole.
    pub fn read(raw: &[u8], size: usize) -> Incoming {
        let too_large = size > MAX_MESSAGE_BYTES;
        let bytes = if too_large {
            &raw[..raw.len().min(HEAD_BYTES)]
        } else {
            raw
        };
        let key_of_bytes = || format!("sha256:{}", sha256_hex(raw));
        let Some(message) = MessageParser::default().parse(bytes) else {
            return Incoming {
                key: key_of_bytes(),
                message_id: None,
                replies_to: Vec::new(),
                from: None,
                subject: String::new(),
                automatic: None,
                unreadable: Some("it is not an email message (no headers could be read)".into()),
                candidates: Vec::new(),
            };
        };
        let message_id = message.message_id().map(str::to_string);
        let mut replies_to: Vec<String> = Vec::new();
        for value in [message.in_reply_to(), message.references()] {
            for id in value.as_text_list().unwrap_or_default() {
                let id = id.trim().trim_matches(['<', '>']).to_string();
                if !id.is_empty() && !replies_to.contains(&id) && replies_to.len() < 32 {
                    replies_to.push(id);
                }
            }
        }
        let from = message
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(|a| a.trim().to_string())
            .filter(|a| a.contains('@'));
        let subject = message.subject().unwrap_or("").to_string();
        let automatic = automatic(&message, from.as_deref());
        let key = match &message_id {
            Some(id) => {
                let body = (message.root_part().offset_body as usize).min(raw.len());
                let sender = from.as_deref().unwrap_or("").to_lowercase();
                let content = sha256_hex(&raw[body..]);
                format!(
                    "msg:{}",
                    sha256_hex(format!("{sender}\n{id}\n{content}").as_bytes())
                )
            }
            None => key_of_bytes(),
        };
        let parts = message.parts.len();
        let unreadable = if too_large {
            Some(format!(
                "it is {} long, more than the {} a message to the host may be",
                megabytes(size),
                megabytes(MAX_MESSAGE_BYTES)
            ))
        } else if parts > MAX_PARTS {
            Some(format!(
                "it has {parts} parts, more than the {MAX_PARTS} a message to the host may have"
            ))
        } else {
            None
        };
        let candidates = if unreadable.is_some() {
            Vec::new()
        } else {
            candidates(&message)
        };
        Incoming {
            key,
            message_id,
            replies_to,
            from,
            subject,
            automatic,
            unreadable,
            candidates,
        }
    }
}

fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// Why a message was sent by a program, if it was (RFC 3834 and the usual signs).
fn automatic(m: &mail_parser::Message<'_>, from: Option<&str>) -> Option<String> {
    let raw = |name: &str| m.header_raw(name).map(|v| v.trim().to_ascii_lowercase());
    if let Some(v) = raw("Auto-Submitted")
        && v != "no"
    {
        return Some(format!(
            "it says it was sent automatically (Auto-Submitted: {v})"
        ));
    }
    if let Some(v) = raw("Precedence")
        && ["bulk", "junk", "list", "auto_reply"].contains(&v.as_str())
    {
        return Some(format!("it is bulk mail (Precedence: {v})"));
    }
    for h in ["X-Autoreply", "X-Autorespond"] {
        if m.header_raw(h).is_some() {
            return Some(format!("it is an automatic reply ({h})"));
        }
    }
    if m.header_raw("List-Id").is_some() {
        return Some("it came through a mailing list (List-Id)".into());
    }
    if m.header_raw("Return-Path").map(str::trim) == Some("<>") {
        return Some("it is a delivery report (empty Return-Path)".into());
    }
    if m.content_type().is_some_and(|c| {
        c.ctype().eq_ignore_ascii_case("multipart")
            && c.subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    }) {
        return Some("it is a delivery report (multipart/report)".into());
    }
    if let Some(f) = from {
        let local = f.split('@').next().unwrap_or("").to_ascii_lowercase();
        if ["mailer-daemon", "postmaster", "noreply", "no-reply"].contains(&local.as_str()) {
            return Some(format!("it comes from {f}, which no one reads"));
        }
    }
    None
}

/// Every text of the message that may hold a turnsheet: the text bodies (an HTML-only body
/// made text), then the text attachments (`.txt`, or any `text/plain` part).
fn candidates(m: &mail_parser::Message<'_>) -> Vec<Candidate> {
    let mut out = Vec::new();
    for i in 0..m.text_body_count() {
        let part = m.text_part(i as u32);
        if let Some(html) = part
            .filter(|p| p.is_text_html())
            .and_then(|p| p.text_contents())
        {
            out.push(Candidate {
                origin: "the message's HTML body".into(),
                text: text_of_html(html),
            });
        } else if let Some(text) = m.body_text(i) {
            out.push(Candidate {
                origin: "the message body".into(),
                text: text.into_owned(),
            });
        }
    }
    for part in m.attachments() {
        let name = part.attachment_name().unwrap_or("").to_string();
        let is_txt = name.to_ascii_lowercase().ends_with(".txt");
        let is_plain = part.content_type().is_some_and(|c| {
            c.ctype().eq_ignore_ascii_case("text")
                && c.subtype().is_none_or(|s| s.eq_ignore_ascii_case("plain"))
        });
        if !(is_txt || is_plain) || part.is_message() {
            continue;
        }
        let text = match part.text_contents() {
            Some(t) => t.to_string(),
            None => String::from_utf8_lossy(part.contents()).into_owned(),
        };
        let origin = if name.is_empty() {
            "a text attachment".to_string()
        } else {
            format!("the attachment {name}")
        };
        out.push(Candidate { origin, text });
    }
    out
}

/// An HTML body as lines of text: each block (`<div>`, `<p>`, `<br>`) a line, as phone
/// mail apps write one line of the sheet per `<div>`, and a quoted message (`<blockquote>`)
/// as `> ` lines, which the sheet leaves out. Lines are never wrapped: a line of orders stays
/// one line.
fn text_of_html(html: &str) -> String {
    const NO_WRAP: usize = 4096;
    html2text::config::plain_no_decorate()
        .raw_mode(true)
        .allow_width_overflow()
        .string_from_read(html.as_bytes(), NO_WRAP)
        .unwrap_or_else(|_| html.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(from: &str, id: &str, extra: &str, body: &str) -> Vec<u8> {
        format!("{extra}From: {from}\r\nMessage-ID: <{id}>\r\n\r\n{body}").into_bytes()
    }

    #[test]
    fn html_bodies_read_a_line_per_block_and_quotes_as_quoted_lines() {
        let html = "<html><body><div dir=\"auto\">GAME alpha</div><div dir=\"auto\">1.&nbsp;TAX</div>\
            <div><br></div><div>2. GROW LON<br>3. TAX</div><p>Thanks</p>\
            <blockquote>England, turn 0<br>4. TAX</blockquote></body></html>";
        let text = text_of_html(html);
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert!(
            lines.starts_with(&["GAME alpha", "1.\u{a0}TAX"]),
            "{lines:?}"
        );
        for l in [
            "2. GROW LON",
            "3. TAX",
            "Thanks",
            "> England, turn 0",
            "> 4. TAX",
        ] {
            assert!(lines.contains(&l), "{l}: {lines:?}");
        }
    }

    #[test]
    fn only_the_same_message_has_the_same_key() {
        let key = |raw: Vec<u8>| Incoming::read(&raw, raw.len()).key;
        let first = key(message("a@x.org", "1@x", "", "GAME g\r\n"));
        // Delivered again through another server, which added its own header line.
        let again = key(message(
            "A@x.org",
            "1@x",
            "Received: from mx2.example.net\r\n",
            "GAME g\r\n",
        ));
        assert_eq!(first, again);
        // The same Message-ID from another sender, or with other content: another message.
        assert_ne!(first, key(message("b@y.org", "1@x", "", "GAME g\r\n")));
        assert_ne!(first, key(message("a@x.org", "1@x", "", "GAME h\r\n")));
        assert_ne!(first, key(message("a@x.org", "2@x", "", "GAME g\r\n")));
    }
}
