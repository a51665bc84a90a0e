//! `empires map draw`, through the real binary: a map by name, a game, and one empire's
//! view of a game, to SVG and PNG.

use crate::common;

use common::*;
use std::fs;
use std::process::Command;

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

#[test]
fn draws_a_standard_map_to_svg_and_png() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("t.svg");
    let png = tmp.path().join("t.png");
    let o = ok(&[
        "map",
        "draw",
        "tutorial",
        "--out",
        s(&svg),
        "--png",
        s(&png),
        "--width",
        "300",
    ]);
    let out = stdout(&o);
    assert!(out.contains(&format!("wrote {}", svg.display())), "{out}");
    assert!(out.contains(&format!("wrote {}", png.display())), "{out}");
    let text = fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<path id=\"d-LON\"") && text.contains(">LON</text>"));
    assert!(is_png(&fs::read(&png).unwrap()));

    // Notes for the designer: Norfolk Island is too small for the coastline data.
    let out = stdout(&ok(&[
        "map",
        "draw",
        "australian",
        "--out",
        s(&svg),
        "--width",
        "300",
    ]));
    assert!(
        out.contains("note: NFK (Norfolk Island): no land at its position"),
        "{out}"
    );
}

#[test]
fn draws_a_game_and_one_empires_view_with_default_names() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    new_tutorial(&dir);
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_empires"))
            .current_dir(tmp.path())
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = run(&["map", "draw", "--game", "g", "--width", "300", "--png"]);
    assert!(
        out.contains("wrote g-turn0.svg") && out.contains("wrote g-turn0.png"),
        "{out}"
    );
    let all = fs::read_to_string(tmp.path().join("g-turn0.svg")).unwrap();
    assert!(
        all.contains("id=\"forces-HIG\""),
        "Scotland's forces are drawn"
    );
    assert!(is_png(&fs::read(tmp.path().join("g-turn0.png")).unwrap()));

    let out = run(&[
        "map", "draw", "--game", "g", "--empire", "EN", "--width", "300",
    ]);
    assert!(out.contains("wrote g-turn0-EN.svg"), "{out}");
    let fog = fs::read_to_string(tmp.path().join("g-turn0-EN.svg")).unwrap();
    assert!(
        fog.contains("id=\"forces-LON\""),
        "England sees its own forces"
    );
    assert!(
        !fog.contains("id=\"forces-HIG\""),
        "England cannot see the Highlands"
    );
}

#[test]
fn bad_arguments_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let e = fails(&[
        "map",
        "draw",
        "atlantis",
        "--out",
        s(&tmp.path().join("a.svg")),
    ]);
    assert!(e.contains("standard maps: "), "{e}");
    // --empire only means something for a game; a map and --game together are ambiguous.
    let o = empires(&["map", "draw", "tutorial", "--empire", "EN"]);
    assert!(!o.status.success());
    let dir = tmp.path().join("g");
    new_tutorial(&dir);
    let o = empires(&["map", "draw", "tutorial", "--game", s(&dir)]);
    assert!(!o.status.success());
    let e = fails(&[
        "map",
        "draw",
        "--game",
        s(&dir),
        "--empire",
        "ZZ",
        "--out",
        s(&tmp.path().join("z.svg")),
    ]);
    assert!(
        e.contains("ZZ is not an empire of this game; its empires are"),
        "{e}"
    );
}
