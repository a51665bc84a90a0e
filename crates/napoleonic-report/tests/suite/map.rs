//! The map drawing: the proxy's codes, an SVG that parses with one filled region per
//! province in its owner's colour, the miniatures, the barriers, and the same bytes for
//! the same inputs.

use crate::common;

use common::*;
use empires_maps::draw::DrawOptions;
use napoleonic_report::draw::{
    FOREIGN_BASE, INDEPENDENT, MapDrawer, OWN_BASE, options, proxy, proxy_codes,
};
use napoleonic_report::{Report, html, report};
use napoleonic_rules::map::Map;
use std::collections::{BTreeMap, BTreeSet};

fn small() -> DrawOptions {
    DrawOptions {
        width: 640,
        ..options()
    }
}

/// The fill each id gets from the SVG's style sheets (`#A,#B{fill:...}` rules).
fn fills(doc: &roxmltree::Document) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for style in doc.descendants().filter(|n| n.has_tag_name("style")) {
        let css = style.text().unwrap_or("");
        for rule in css.split('}') {
            let Some((selectors, body)) = rule.split_once('{') else {
                continue;
            };
            let Some(fill) = body.split(';').find_map(|d| d.trim().strip_prefix("fill:")) else {
                continue;
            };
            for sel in selectors.split(',') {
                out.insert(sel.trim().to_string(), fill.trim().to_string());
            }
        }
    }
    out
}

fn draw(map: &Map, r: &Report, opts: &DrawOptions) -> (MapDrawer, String) {
    let d = MapDrawer::new(map, opts).expect("the map draws");
    let svg = d.svg(map, r);
    (d, svg)
}

/// Checks a drawn report: it parses, each province is one filled region in its owner's
/// colour (grey for the independents), and each location with troops has its tags.
fn check(map: &Map, r: &Report, d: &MapDrawer, svg: &str) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses as XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // The main frame's regions: `use` elements with the land class, ids without a prefix.
    let land: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("ml"))
        .filter_map(|n| n.attribute("id"))
        .filter(|id| !id.starts_with("inset-"))
        .collect();
    let provinces: Vec<&str> = map
        .provinces()
        .map(|l| d.code(l.id).expect("every location has a drawing code"))
        .collect();
    let mut sorted = land.clone();
    sorted.sort();
    let mut expected = provinces.clone();
    expected.sort();
    assert_eq!(sorted, expected, "one region per province, and no more");
    let fill = fills(&doc);
    assert_eq!(fill.get(".ml").map(String::as_str), Some(INDEPENDENT));
    let colours = d.colours_of(r);
    for o in &r.owners {
        let code = d.code(o.id).unwrap();
        let got = fill.get(&format!("#{code}")).map(String::as_str);
        if o.owner.is_independent() {
            assert_eq!(got, None, "{code}: independents keep the grey");
        } else {
            assert_eq!(got, Some(colours[&o.owner]), "{code}: its owner's colour");
        }
    }
    // Owners differ in colour.
    let distinct: BTreeSet<&str> = colours.values().copied().collect();
    assert_eq!(distinct.len(), colours.len());
    // Miniatures: blue for own, red for foreign, with the count.
    for (forces, base) in [(&r.own_forces, OWN_BASE), (&r.foreign_forces, FOREIGN_BASE)] {
        for f in forces {
            let code = d.code(f.location.id).unwrap();
            let group = doc
                .descendants()
                .find(|n| n.attribute("id") == Some(&format!("forces-{code}")))
                .unwrap_or_else(|| panic!("tags of {code}"));
            let tagged = group
                .children()
                .filter(|n| n.has_tag_name("rect"))
                .any(|rect| rect.attribute("fill") == Some(base));
            assert!(tagged, "{code}: a tag on a {base} base");
            let count = f.count.to_string();
            assert!(
                group
                    .children()
                    .any(|n| n.has_tag_name("text") && n.text() == Some(count.as_str())),
                "{code}: the count {count}"
            );
        }
    }
    // Every placeholder was filled.
    assert!(!svg.contains("data-part=\"map\"></g>"));
}

#[test]
fn drawing_codes_keep_three_letter_codes_and_rename_the_others_uniquely() {
    let map = map();
    let codes = proxy_codes(&map);
    let by: BTreeMap<&str, &str> = map
        .locations
        .iter()
        .zip(&codes)
        .map(|(l, c)| (l.code.as_str(), c.as_str()))
        .collect();
    assert_eq!(by["PAR"], "PAR");
    assert_eq!(by["FL"], "FLX");
    assert_eq!(by["BRLN"], "BRL");
    let unique: BTreeSet<&String> = codes.iter().collect();
    assert_eq!(unique.len(), codes.len());
    // A code starting with a digit, and one whose first choice is taken.
    let text = r#"
name = "codes"
[[province]]
id = 1
code = "1AB"
name = "One"
position = [2.0, 48.0]
revenue = 1
adjacent = ["P1A", "BRLA"]
[[province]]
id = 2
code = "P1A"
name = "Two"
position = [3.0, 48.0]
revenue = 1
adjacent = ["1AB", "BRLA"]
[[province]]
id = 3
code = "BRLA"
name = "Three"
position = [4.0, 48.0]
revenue = 1
adjacent = ["1AB", "P1A", "BRLB"]
[[province]]
id = 4
code = "BRLB"
name = "Four"
position = [5.0, 48.0]
revenue = 1
adjacent = ["BRLA"]
"#;
    let m = Map::parse(text).unwrap();
    assert_eq!(proxy_codes(&m), ["P1B", "P1A", "BRL", "BRA"]);
    let p = proxy(&m).unwrap();
    assert_eq!(p.areas().len(), 4);
    assert!(
        p.areas()
            .iter()
            .all(|a| a.is_land() && a.position.is_some())
    );
    // Neighbours carry over.
    let three = p.area(p.find("BRL").unwrap());
    assert_eq!(three.neighbours.len(), 3);
}

#[test]
fn the_proxy_has_every_location_as_an_area_with_its_kind_and_neighbours() {
    let map = map();
    let p = proxy(&map).unwrap();
    assert_eq!(p.areas().len(), map.locations.len());
    assert!(p.empires.is_empty());
    for (l, a) in map.locations.iter().zip(p.areas()) {
        assert_eq!(a.is_sea(), l.is_sea(), "{}", l.code);
        assert_eq!(a.neighbours.len(), l.edges.len(), "{}", l.code);
        assert_eq!(a.position, Some((l.position[0], l.position[1])));
    }
}

#[test]
fn the_svg_parses_with_one_filled_region_per_province_and_the_miniatures() {
    let (map, after, events) = played();
    for who in ["FRA", "PRU"] {
        let r = report(&map, &after, &events, &k(who), None);
        let (d, svg) = draw(&map, &r, &small());
        check(&map, &r, &d, &svg);
    }
}

#[test]
fn barriers_are_drawn_along_the_borders_they_bar() {
    let (map, after, events) = played();
    let r = report(&map, &after, &events, &k("FRA"), None);
    let (d, svg) = draw(&map, &r, &small());
    let codes = proxy_codes(&map);
    let index = |code: &str| map.locations.iter().position(|l| l.code == code).unwrap() as u16;
    let lay = &d.layers.layout;
    // The layer's traced borders between Rhineland and Saxony (mountains) and between
    // Flanders and the North Sea (a reef), where the drawing has them.
    for ((a, b), class) in [(("RHI", "SAX"), "mtn"), (("FL", "NTH"), "reef")] {
        let (a, b) = (index(a), index(b));
        for (f, edges) in lay.frames.iter().zip(&lay.edges) {
            for (i, &(l, r)) in edges.iter().enumerate() {
                let line = format!(r##"<use href="#{}c{i}" class="{class}"/>"##, f.prefix);
                if (l, r) == (a, b) || (l, r) == (b, a) {
                    assert!(
                        svg.contains(&line),
                        "{class} {}-{}",
                        codes[a as usize],
                        codes[b as usize]
                    );
                }
            }
        }
    }
    // And nothing else is marked: as many lines as barrier borders drawn.
    let barrier = |l: u16, r: u16| {
        let (l, r) = (usize::from(l), usize::from(r));
        l < map.locations.len()
            && r < map.locations.len()
            && map.locations[l]
                .edge(map.locations[r].id)
                .is_some_and(|e| e.barrier)
    };
    let drawn: usize = lay
        .edges
        .iter()
        .map(|e| e.iter().filter(|(l, r)| barrier(*l, *r)).count())
        .sum();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("use"))
        .filter(|n| matches!(n.attribute("class"), Some("mtn" | "reef")))
        .count();
    assert_eq!(lines, drawn);
    assert!(
        drawn > 0,
        "the little map draws at least one of its barriers"
    );
}

#[test]
fn the_map_renders_to_png() {
    let (map, after, events) = played();
    let r = report(&map, &after, &events, &k("FRA"), None);
    let (_, svg) = draw(&map, &r, &small());
    let png = empires_maps::draw::png(&svg).expect("resvg reads the SVG");
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn the_same_inputs_draw_the_same_bytes() {
    let (map, after, events) = played();
    let r = report(&map, &after, &events, &k("PRU"), None);
    let (_, a) = draw(&map, &r, &small());
    let (_, b) = draw(&map, &r, &small());
    assert_eq!(a, b);
    let page_a = html::html(&r, Some(&a));
    assert_eq!(page_a, html::html(&r, Some(&b)));
    balanced(&page_a).expect("the page with its map is balanced");
}

#[test]
fn the_test_map_of_europe_draws_with_three_kingdoms() {
    let map = europe_test_map();
    let state = start_europe(&map);
    let r = report(&map, &state, &[], &k("AUS"), None);
    let (d, svg) = draw(&map, &r, &small());
    check(&map, &r, &d, &svg);
}

fn start_europe(map: &Map) -> napoleonic_rules::GameState {
    napoleonic_rules::setup::new_game(map, &napoleonic_rules::setup::NewGame::standard(3)).unwrap()
}

#[test]
fn the_standard_map_draws_each_kingdoms_report() {
    let map = napoleonic_rules::standard::europe();
    let state = start_europe(&map);
    let out = napoleonic_rules::play(&map, &state, &BTreeMap::new()).unwrap();
    let d = MapDrawer::new(&map, &options()).expect("the standard map draws");
    for code in ["FRA", "PRU"] {
        let Some(kingdom) = map.kingdoms.iter().find(|x| x.code.as_str() == code) else {
            continue;
        };
        let r = report(&map, &out.state, &out.events, &kingdom.code, None);
        let svg = d.svg(&map, &r);
        check(&map, &r, &d, &svg);
        let page = html::html(&r, Some(&svg));
        balanced(&page).unwrap();
    }
}
