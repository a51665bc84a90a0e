//! Writes a generated grid map as TOML, for measuring how the program grows with the map:
//!
//!     cargo run --release -p empires-rules --example grid_map -- WIDTH HEIGHT EMPIRES > grid.toml
//!
//! WIDTH x HEIGHT land areas in a ring of sea areas, with EMPIRES home areas spread over them.

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap_or(0))
        .collect();
    let (w, h, e) = match args[..] {
        [w, h, e] if w > 1 && h > 1 && e > 0 => (w, h, e),
        _ => {
            eprintln!("usage: grid_map WIDTH HEIGHT EMPIRES (each at least 2, 2 and 1)");
            std::process::exit(2);
        }
    };
    let map = empires_rules::map::generate::grid(w, h, e);
    match toml::to_string(&map) {
        Ok(text) => print!("{text}"),
        Err(err) => {
            eprintln!("cannot write the map: {err}");
            std::process::exit(1);
        }
    }
}
