//! `empires serve`: the web door of the host ([`empires_web`]), on a runtime of its own with
//! a thread for each core.

use crate::error::Result;
use empires_web::serve::{ServeOptions, serve};

/// Serves until Ctrl-C.
pub fn run(options: ServeOptions) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| crate::error::Error::new(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(serve(options, std::io::stdout()))?;
    Ok(())
}

/// The game `empires serve --demo` opens with: the tutorial map, every empire but England
/// played by the computer, England the demo player's.
pub fn demo() -> Result<empires_web::serve::Demo> {
    use empires_rules::{EmpireCode, Variant, setup::NewGame};
    use empires_web::serve::{DEMO_GAME, DEMO_PLAYER};
    let standard = empires_maps::standard::find("tutorial")
        .ok_or_else(|| crate::error::Error::new("the tutorial map is not built in"))?;
    let map = empires_ruleset::gamedir::parse_map(standard.text, standard.file)?;
    let england = EmpireCode::parse("EN").map_err(|e| crate::error::Error::new(e.to_string()))?;
    let mut setup = NewGame::without_players("Demo", map.variant.unwrap_or(Variant::World), 1);
    setup.players.insert(england, DEMO_PLAYER.to_string());
    let state = empires_ruleset::create::start(&map, standard.file, &setup)?;
    let started = empires_ruleset::ruleset::started(DEMO_GAME, standard.text, &map, &state)?;
    let seat_name = map
        .empires
        .iter()
        .find(|e| e.code == england)
        .map_or_else(|| england.to_string(), |e| e.name.clone());
    Ok(empires_web::serve::Demo {
        ruleset: &empires_ruleset::Empires,
        started,
        seat: england.to_string(),
        seat_name,
    })
}
