//! The map's drawing is worked out once per game and kept with it (`map.js`): turns use the
//! kept one and do not write it again; a missing or stale one is drawn again; every report
//! page loads it, and a page made whole needs nothing else. The same on SQLite.

use empires_host::store::Store;
use empires_host::store::sql::SqlStore;
use empires_host::turn::{TurnOptions, run_with};
use empires_rules::setup::{NewGame as Setup, new_game};
use empires_ruleset::drawing::{self, FROM_REPORTS, MAP_SCRIPT};
use empires_ruleset::gamedir::{Access, EmpiresDir, Game, parse_map};
use empires_ruleset::ruleset::{EmpiresStore, NewGame};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Opens the game as a turn would, which makes its map cache again when it is missing or spoilt.
fn open_to_play(dir: &Path) {
    drop(
        Game::open(
            dir,
            Access::Play {
                accept_state: false,
            },
        )
        .unwrap(),
    );
}

const YES: TurnOptions = TurnOptions {
    accept_state: false,
    unreadable_as_missed: false,
    yes: true,
    expect: None,
    by: None,
};

fn tutorial() -> (String, empires_rules::Map, empires_rules::GameState) {
    let text = std::fs::read_to_string(repo().join("maps/tutorial.toml")).unwrap();
    let map = parse_map(&text, "tutorial.toml").unwrap();
    let state = new_game(
        &map,
        &Setup::without_players("Drawn", map.variant.unwrap(), 4),
    )
    .unwrap();
    (text, map, state)
}

fn page(dir: &Path, turn: &str, empire: &str) -> String {
    std::fs::read_to_string(
        dir.join("turns")
            .join(turn)
            .join("reports")
            .join(format!("{empire}.html")),
    )
    .unwrap()
}

#[test]
fn a_game_directory_keeps_its_map_drawing_and_every_page_loads_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let (text, map, state) = tutorial();
    empires_ruleset::create::create_dir(&dir, &text, &map, &state).unwrap();
    let script = dir.join(MAP_SCRIPT);
    let kept = std::fs::read_to_string(&script).unwrap();
    let layers = drawing::read(&kept, &text).expect("a layer drawn from this map");
    // Each page carries its overlay and loads the layer; made whole, it loads nothing.
    let start = page(&dir, "0000", "EN");
    assert!(start.contains(&format!("<script src=\"{FROM_REPORTS}\"></script>")));
    assert!(start.contains("<g data-part=\"map\"></g>"));
    assert!(!start.contains(" d=\"M"), "no shapes in the page itself");
    let turn_script =
        std::fs::read_to_string(dir.join("turns/0000/reports").join(drawing::TURN_SCRIPT)).unwrap();
    let whole = drawing::whole_page(&start, &layers, Some(&turn_script));
    assert!(!whole.contains("<script src="));
    assert!(whole.contains("<path id=\"d-LON\""));
    // A turn uses the kept layer and leaves it as it was.
    run_with(&dir, YES).unwrap();
    assert_eq!(std::fs::read_to_string(&script).unwrap(), kept);
    assert!(page(&dir, "0001", "EN").contains("<g data-part=\"map\"></g>"));
    // A layer drawn from another map is not trusted: the next turn draws it again.
    let stale = drawing::script(&layers, "another map").unwrap();
    std::fs::write(&script, &stale).unwrap();
    run_with(&dir, YES).unwrap();
    assert_eq!(std::fs::read_to_string(&script).unwrap(), kept);
    // So is a missing one.
    std::fs::remove_file(&script).unwrap();
    run_with(&dir, YES).unwrap();
    assert_eq!(std::fs::read_to_string(&script).unwrap(), kept);
    // A damaged one too.
    std::fs::write(&script, &kept[..kept.len() / 2]).unwrap();
    let game = Game::load(&dir).unwrap();
    assert!(game.layout(false).unwrap().is_some());
    drop(game);
    run_with(&dir, YES).unwrap();
    assert_eq!(std::fs::read_to_string(&script).unwrap(), kept);
}

/// The standard maps are drawn when the program is built: each built drawing is, byte for
/// byte, what drawing the map now gives, and a game on a standard map is given it. A map
/// changed in any way, even by a comment, is drawn for its own game.
#[test]
fn the_standard_maps_drawings_are_built_in_and_a_changed_map_is_drawn_for_its_game() {
    for m in empires_maps::standard::MAPS {
        let map = parse_map(m.text, m.file).unwrap();
        let drawn = drawing::script(&drawing::draw(&map).unwrap(), m.text).unwrap();
        assert!(
            drawing::standard_script(m.text) == Some(drawn.as_str()),
            "the built drawing of {} is not what drawing it gives",
            m.name
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let (text, map, state) = tutorial();
    let standard = tmp.path().join("standard");
    empires_ruleset::create::create_dir(&standard, &text, &map, &state).unwrap();
    let built = drawing::standard_script(&text).expect("the tutorial map is standard");
    assert!(std::fs::read_to_string(standard.join(MAP_SCRIPT)).unwrap() == built);

    let changed = format!("{text}\n# the GM's own copy\n");
    assert!(drawing::standard_script(&changed).is_none());
    let own = tmp.path().join("own");
    empires_ruleset::create::create_dir(&own, &changed, &map, &state).unwrap();
    let kept = std::fs::read_to_string(own.join(MAP_SCRIPT)).unwrap();
    assert!(
        drawing::read(&kept, &changed).is_some(),
        "drawn for its text"
    );
    assert!(drawing::read(&kept, &text).is_none());
    assert!(
        kept == drawing::script(&drawing::draw(&map).unwrap(), &changed).unwrap(),
        "the same drawing, keyed to its own text"
    );
}

#[test]
fn a_database_game_keeps_its_map_drawing_and_exports_it() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", tmp.path().join("host.db").display());
    let (text, map, state) = tutorial();
    rt.block_on(async {
        let store = SqlStore::open(&url).await.unwrap();
        store
            .create(&NewGame {
                name: "g",
                map_text: &text,
                map: &map,
                state: &state,
                created_at: 1,
            })
            .await
            .unwrap();
        let loaded = empires_ruleset::ruleset::load(&store, "g").await.unwrap();
        let kept = loaded.map_script.expect("kept with the game");
        assert!(drawing::read(&kept, &text).is_some());
        store.play_turn("g", YES, 2).await.unwrap();
        assert_eq!(
            empires_ruleset::ruleset::load(&store, "g")
                .await
                .unwrap()
                .map_script,
            Some(kept.clone())
        );
        let out = tmp.path().join("out");
        empires_host::transfer::export(&store, "g", &out)
            .await
            .unwrap();
        assert_eq!(std::fs::read_to_string(out.join(MAP_SCRIPT)).unwrap(), kept);
    });
}

#[test]
fn a_game_directory_keeps_its_map_ready_to_load_and_never_trusts_a_stale_copy() {
    use empires_host::gamedir::GameDir;
    use empires_ruleset::mapcache::MAP_CACHE;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let (text, map, state) = tutorial();
    empires_ruleset::create::create_dir(&dir, &text, &map, &state).unwrap();
    let cache = dir.join(MAP_CACHE);
    let made = std::fs::read_to_string(&cache).expect("made by new");
    // The copy gives the map the TOML gives.
    let (_, loaded) = GameDir::at(&dir).load_map(false).unwrap();
    assert_eq!(format!("{loaded:?}"), format!("{map:?}"));
    // A copy of another text is passed over: an edit of map.toml counts at once.
    let renamed = text.replacen("name = \"", "name = \"Renamed ", 1);
    assert_ne!(renamed, text);
    std::fs::write(dir.join("map.toml"), &renamed).unwrap();
    let (_, edited) = GameDir::at(&dir).load_map(false).unwrap();
    assert!(edited.name.starts_with("Renamed "), "{}", edited.name);
    assert_eq!(
        std::fs::read_to_string(&cache).unwrap(),
        made,
        "looking writes nothing"
    );
    // Playing makes it again; a spoilt or missing copy is made again too.
    std::fs::write(dir.join("map.toml"), &text).unwrap();
    std::fs::write(&cache, "{\"format\":1,\"map_key\":\"x\"}\n{\"areas\":").unwrap();
    let (_, spoilt) = GameDir::at(&dir).load_map(false).unwrap();
    assert_eq!(format!("{spoilt:?}"), format!("{map:?}"));
    open_to_play(&dir);
    assert_eq!(std::fs::read_to_string(&cache).unwrap(), made);
    std::fs::remove_file(&cache).unwrap();
    open_to_play(&dir);
    assert_eq!(std::fs::read_to_string(&cache).unwrap(), made);
}

#[test]
fn who_owns_what_is_drawn_once_a_turn_and_every_page_made_whole_has_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let (text, map, state) = tutorial();
    empires_ruleset::create::create_dir(&dir, &text, &map, &state).unwrap();
    run_with(&dir, YES).unwrap();
    let reports = dir.join("turns/0001/reports");
    let turn_script = std::fs::read_to_string(reports.join(drawing::TURN_SCRIPT)).unwrap();
    let part = drawing::read_turn_script(&turn_script).expect("the turn's shared part");
    let kept = Game::load(&dir).unwrap();
    let layers = drawing::read(
        &std::fs::read_to_string(dir.join(MAP_SCRIPT)).unwrap(),
        &text,
    )
    .unwrap();
    for e in &kept.state.empires {
        let page = page(&dir, "0001", e.code.as_str());
        // The page loads the turn's part and carries none of it itself.
        assert!(page.contains("<script src=\"public.js\"></script>"));
        assert!(page.contains("<g data-part=\"turn\"></g>"));
        assert!(!page.contains("<use id=\"o-"), "{}", e.code);
        assert!(!page.contains(&format!("<text id=\"e-{}\"", e.code)));
        // Made whole, it has every owner's code beside every owned area (10.5).
        let whole = drawing::whole_page(&page, &layers, Some(&turn_script));
        assert!(!whole.contains("<script src="));
        assert!(whole.contains(&format!("<g data-part=\"turn\">{part}</g>")));
        for other in &kept.state.empires {
            assert!(whole.contains(&format!("<text id=\"e-{}\"", other.code)));
            for a in kept.state.owned_by(other.code) {
                let code = kept.map.area(a).code;
                assert!(
                    whole.contains(&format!(
                        "<use id=\"o-{code}\" href=\"#e-{}\"/>",
                        other.code
                    )),
                    "{code} of {} on {}'s map",
                    other.code,
                    e.code
                );
            }
        }
    }
    // Without the turn's script a page made whole still has the layer, and no owners.
    let page = page(&dir, "0001", "EN");
    let bare = drawing::whole_page(&page, &layers, None);
    assert!(bare.contains("<path id=\"d-LON\"") && !bare.contains("<use id=\"o-"));
}
