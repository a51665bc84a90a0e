//! Standard maps by name, and `empires map check`, through the real binary.

use crate::common;

use common::*;
use std::fs;

#[test]
fn a_game_starts_on_a_standard_map_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    ok(&["new", s(&dir), "--map", "australian", "--seed", "4"]);
    let map = fs::read_to_string(dir.join("map.toml")).unwrap();
    assert!(map.contains("name = \"Australian Empires\""));
    let e = fails(&[
        "new",
        s(&tmp.path().join("h")),
        "--map",
        "atlantis",
        "--seed",
        "4",
    ]);
    assert!(e.contains("standard maps: "), "{e}");
}

#[test]
fn map_check_reports_and_exits_by_errors() {
    let o = ok(&["map", "check", "tutorial"]);
    assert!(
        stdout(&o).contains("25 land areas, 6 sea areas, 4 empires"),
        "{}",
        stdout(&o)
    );
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.toml");
    let text = fs::read_to_string(tutorial_map())
        .unwrap()
        .replace("start = [\"CAR\", \"GWY\"]", "start = [\"CAR\", \"LON\"]");
    fs::write(&bad, text).unwrap();
    let o = empires(&["map", "check", s(&bad)]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("error: WA: start area LON is another empire's home"),
        "{out}"
    );
}
