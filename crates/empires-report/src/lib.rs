//! Game reports (section 10): what each player learns after a turn. The JSON form (the
//! [`model::Report`] type, with a published JSON Schema) is canonical; the text and HTML
//! forms are rendered from it, never computed separately.

pub mod build;
pub mod cached;
pub mod describe;
pub mod every;
pub mod gm;
pub mod html;
pub mod known;
pub mod model;
pub mod public;
mod put;
pub mod text;

pub use build::{Shared, Turn, report, report_with, shared};
pub use every::{Common, Rendered, TurnReports, render_each, render_every};
pub use model::{REPORT_VERSION, Report};

/// The JSON Schema of the report, for other programs.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Report);
    serde_json::to_string_pretty(&schema).expect("a schema serialises") + "\n"
}
