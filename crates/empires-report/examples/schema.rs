//! Prints the report's JSON Schema: `cargo run -p empires-report --example schema >
//! docs/report.schema.json`.
fn main() {
    print!("{}", empires_report::schema());
}
