//! The parts of a turn's reports that every empire shares — the roundup (10.3), the actions
//! report (10.4) and the messages (10.6) — kept once per turn rather than once in each
//! empire's report.
//!
//! They list every empire and every key event, so a copy in each report would make a turn's
//! output grow with the square of the number of empires. A turn therefore writes them once,
//! as `public.json`, `public.txt` and `public.html` beside the empires' reports, and each
//! empire's report holds a short pointer in their place. A player is always given the whole
//! report: [`whole`] puts the shared parts back where the pointer stands, giving exactly the
//! bytes of a report that carried them itself. A report without the pointer (one written
//! before the parts were shared, or already whole) is whole as it is.

use crate::cached::Shared;
use crate::model::{MessageLine, PublicEvent, Report, Roundup};
use crate::{html, text};
use serde::{Deserialize, Serialize};

/// The shared parts' file name, without its extension (`json`, `txt`, `html`).
pub const STEM: &str = "public";

/// The shared parts as `public.json` holds them: the last three fields of a whole report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Parts {
    pub roundup: Shared<Roundup>,
    pub actions_report: Shared<Vec<PublicEvent>>,
    pub messages: Shared<Vec<MessageLine>>,
}

impl Parts {
    /// The shared parts of a report.
    pub fn of(r: &Report) -> Parts {
        Parts {
            roundup: r.roundup.clone(),
            actions_report: r.actions_report.clone(),
            messages: r.messages.clone(),
        }
    }
}

/// The name of the file with the shared parts in the form with extension `ext`.
pub fn file(ext: &str) -> String {
    format!("{STEM}.{ext}")
}

/// The report with its shared parts marked to be left out of its JSON, which names
/// `public.json` in their place.
pub fn without_parts(mut r: Report) -> Report {
    r.shared_in = Some(file("json"));
    r.roundup = r.roundup.omitted();
    r.actions_report = r.actions_report.omitted();
    r.messages = r.messages.omitted();
    r
}

/// The three files of a turn's shared parts, rendered from any empire's report of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Files {
    pub json: String,
    pub text: String,
    pub html: String,
}

/// Renders the shared parts once for a turn: `sample` is any empire's report of it.
pub fn render(sample: &Report) -> Result<Files, serde_json::Error> {
    let mut json = serde_json::to_string(&Parts::of(sample))?;
    json.push('\n');
    Ok(Files {
        json,
        text: text::shared_sections(sample),
        html: html::public_page(sample, &html::shared_sections(sample)),
    })
}

/// The JSON that ends a report whose shared parts are in `public.json`.
fn json_tail() -> String {
    format!(",\"shared_in\":\"{}\"}}", file("json"))
}

/// An empire's report made whole, in the form with extension `ext` (`json`, `txt` or
/// `html`), from the report as kept (`own`) and the turn's file of shared parts in the same
/// form (`public`, needed only when `own` points to it). The error says what is wrong.
pub fn whole(ext: &str, own: &str, public: Option<&str>) -> Result<String, String> {
    if !needs_parts(ext, own) {
        return Ok(own.to_string());
    }
    let public = public.ok_or_else(|| format!("{} is missing", file(ext)))?;
    let broken = || format!("{} does not hold a turn's shared report parts", file(ext));
    match ext {
        "json" => {
            let body = own.trim_end();
            let head = body.strip_suffix(&json_tail()).ok_or_else(broken)?;
            let parts = public.trim_end().strip_prefix('{').ok_or_else(broken)?;
            Ok(format!("{head},{parts}\n"))
        }
        "txt" => {
            let pointer = text::shared_pointer();
            let at = own.rfind(&pointer).ok_or_else(broken)?;
            let mut w = String::with_capacity(own.len() + public.len());
            w.push_str(&own[..at]);
            w.push_str(public);
            w.push_str(&own[at + pointer.len()..]);
            Ok(w)
        }
        "html" => {
            let sections = html::public_sections(public).ok_or_else(broken)?;
            let pointer = html::SHARED_POINTER;
            let at = own.rfind(pointer).ok_or_else(broken)?;
            let mut w = String::with_capacity(own.len() + sections.len());
            w.push_str(&own[..at]);
            w.push_str(sections);
            w.push_str(&own[at + pointer.len()..]);
            Ok(w)
        }
        _ => Ok(own.to_string()),
    }
}

/// Whether a kept report in the form with extension `ext` leaves its shared parts to the
/// turn's `public` file.
pub fn needs_parts(ext: &str, own: &str) -> bool {
    match ext {
        "json" => own.trim_end().ends_with(&json_tail()),
        "txt" => own.contains(&text::shared_pointer()),
        "html" => own.contains(html::SHARED_POINTER),
        _ => false,
    }
}

/// A report read from JSON made whole: when it left its shared parts to `public.json`,
/// `public` (that file's text) gives them.
pub fn fill(mut r: Report, public: Option<&str>) -> Result<Report, String> {
    if r.shared_in.is_none() {
        return Ok(r);
    }
    let name = r.shared_in.take().unwrap_or_default();
    let text = public
        .ok_or_else(|| format!("the report's shared parts are in {name}, which is missing"))?;
    let parts: Parts = serde_json::from_str(text)
        .map_err(|e| format!("{name}: not the shared parts of a report: {e}"))?;
    r.roundup = parts.roundup;
    r.actions_report = parts.actions_report;
    r.messages = parts.messages;
    Ok(r)
}
