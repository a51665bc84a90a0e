//! Drawing maps and games: every area is drawn and labelled, the output is the same every
//! time, the PNG is a PNG, games show owners and forces, and fog of war hides what an
//! empire cannot see. Drawings are small here so that the tests stay fast.

use empires_maps::draw::{self, Base, DrawOptions, style};
use empires_maps::standard::{MAPS, load};
use empires_rules::knowledge::visible_areas;
use empires_rules::setup::{NewGame, new_game};
use empires_rules::state::Fleet;
use empires_rules::{EmpireCode, GameState, Map, Options, Variant};
use std::collections::BTreeMap;

fn small() -> DrawOptions {
    DrawOptions {
        width: 360,
        ..DrawOptions::default()
    }
}

fn tutorial() -> Map {
    load("tutorial").unwrap().unwrap()
}

fn game(map: &Map) -> GameState {
    new_game(
        map,
        &NewGame {
            name: "Test game".into(),
            variant: map.variant.unwrap_or(Variant::World),
            seed: 5,
            players: BTreeMap::new(),
            options: Options::default(),
        },
    )
    .unwrap()
}

/// The `<path>` element of an area's shape on the main map.
fn area_path<'a>(svg: &'a str, code: &str) -> &'a str {
    let start = svg
        .find(&format!("<path id=\"d-{code}\""))
        .unwrap_or_else(|| panic!("no path for {code}"));
    let end = svg[start..].find('>').unwrap();
    &svg[start..start + end]
}

/// The drawing's style sheet, empty when it has none.
fn style_sheet(svg: &str) -> &str {
    match (svg.find("<style>"), svg.find("</style>")) {
        (Some(a), Some(b)) => &svg[a + 7..b],
        _ => "",
    }
}

/// What the style sheet sets `property` to for the element with `id`, if anything.
fn styled<'a>(svg: &'a str, id: &str, property: &str) -> Option<&'a str> {
    for rule in style_sheet(svg).split('}') {
        let Some((selectors, body)) = rule.split_once('{') else {
            continue;
        };
        if selectors.split(',').any(|s| s == format!("#{id}")) {
            for decl in body.split(';') {
                if let Some(v) = decl.strip_prefix(&format!("{property}:")) {
                    return Some(v);
                }
            }
        }
    }
    None
}

/// The colour an area of the main map is filled with: the overlay's by owner, else the
/// layer's.
fn area_fill(svg: &str, code: &str) -> String {
    if let Some(c) = styled(svg, code, "fill") {
        return c.to_string();
    }
    let at = svg
        .find(&format!("id=\"{code}\" class=\""))
        .unwrap_or_else(|| panic!("no area {code}"));
    let element = &svg[at..at + svg[at..].find('>').unwrap()];
    let sheet = style_sheet(svg);
    if element.contains("class=\"ml\"")
        && let Some(f) = sheet.split(".ml{fill:").nth(1)
    {
        return f[..f.find('}').unwrap()].to_string();
    }
    let f = element.split("fill=\"").nth(1).unwrap();
    f[..f.find('"').unwrap()].to_string()
}

/// Whether an area of the main map is drawn hatched, as not seen.
fn hatched(svg: &str, code: &str) -> bool {
    match styled(svg, &format!("u-{code}"), "display") {
        Some(d) => d == "inline",
        None => style_sheet(svg).contains(".uh use{display:inline}"),
    }
}

#[test]
fn every_area_of_every_standard_map_is_drawn_and_labelled() {
    for m in MAPS {
        let map = load(m.name).unwrap().unwrap();
        let svg = draw::svg(&map, None, &small()).unwrap();
        assert!(svg.starts_with("<svg "), "{}", m.name);
        assert!(svg.trim_end().ends_with("</svg>"), "{}", m.name);
        for a in map.areas() {
            let path = area_path(&svg, a.code.as_str());
            assert!(
                path.contains(" d=\"M"),
                "{}: {} has no outline",
                m.name,
                a.code
            );
            assert!(
                svg.contains(&format!(">{}</text>", a.code)),
                "{}: {} has no label",
                m.name,
                a.code
            );
        }
    }
}

#[test]
fn drawings_are_deterministic() {
    let map = tutorial();
    let st = game(&map);
    let a = draw::svg(&map, Some((&st, None)), &small()).unwrap();
    let b = draw::svg(&map, Some((&st, None)), &small()).unwrap();
    assert!(a == b, "two drawings of one game differ");
}

#[test]
fn the_png_is_a_png_of_the_drawing_size() {
    let svg = draw::svg(&tutorial(), None, &small()).unwrap();
    let png = draw::png(&svg).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!(width, 360);
    let h = svg.split("height=\"").nth(1).unwrap();
    let h: u32 = h[..h.find('"').unwrap()].parse().unwrap();
    assert_eq!(height, h);
}

/// The pixels of a PNG as RGBA, decoded by the `png` crate.
fn pixels(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn the_small_png_is_the_same_picture_in_a_third_of_the_bytes() {
    let map = tutorial();
    let svg = draw::svg(&map, Some((&game(&map), None)), &small()).unwrap();
    let full = draw::png(&svg).unwrap();
    let small = draw::png_small(&svg).unwrap();
    assert!(
        small.len() * 2 < full.len(),
        "{} against {}",
        small.len(),
        full.len()
    );
    let (w1, h1, a) = pixels(&full);
    let (w2, h2, b) = pixels(&small);
    assert_eq!((w1, h1), (w2, h2));
    // Every pixel within a few levels of the full picture, on average.
    let diff: u64 = a.iter().zip(&b).map(|(x, y)| x.abs_diff(*y) as u64).sum();
    let mean = diff as f64 / a.len() as f64;
    assert!(mean < 3.0, "mean difference per channel {mean}");
    assert_eq!(draw::png_small(&svg).unwrap(), small, "deterministic");
}

#[test]
fn a_game_shows_owners_and_forces() {
    let map = tutorial();
    let mut st = game(&map);
    let cel = map.find("CEL").unwrap();
    let en = EmpireCode::parse("EN").unwrap();
    st.area_mut(cel).fleet = Some(Fleet {
        owner: en,
        ships: 3,
        armies: 2,
        base: None,
    });
    let svg = draw::svg(&map, Some((&st, None)), &small()).unwrap();
    let colours = draw::colours::empire_colours(&map);
    for e in &st.empires {
        let i = map.empires.iter().position(|d| d.code == e.code).unwrap();
        for id in st.owned_by(e.code) {
            let code = map.code(id);
            assert_eq!(area_fill(&svg, code.as_str()), colours[i], "{code}");
        }
    }
    let unowned = map
        .ids()
        .find(|&id| map.area(id).is_land() && st.area(id).owner.is_none())
        .unwrap();
    assert_eq!(area_fill(&svg, map.code(unowned).as_str()), style::UNOWNED);
    // Home areas start with 4 armies and 2 forts, less one army on the coast (12.7).
    let lon = map.find("LON").unwrap();
    let a = st.area(lon);
    let forces = forces(&svg, "LON").expect("forces in LON");
    assert!(
        forces.contains(&format!(">{}</text>", a.armies)),
        "{forces}"
    );
    assert!(
        forces.contains("#i-army") && forces.contains("#i-fort"),
        "{forces}"
    );
    let fleet = forces_of(&svg, "CEL");
    assert!(
        fleet.contains("#i-ship") && fleet.contains(">3</text>"),
        "{fleet}"
    );
    assert!(fleet.contains(">2</text>"), "{fleet}");
    assert!(svg.contains("England"), "the legend names the empires");
}

/// The force badges drawn for an area, if any.
fn forces<'a>(svg: &'a str, code: &str) -> Option<&'a str> {
    let start = svg.find(&format!("<g id=\"forces-{code}\" "))?;
    let end = svg[start..].find("</g>").unwrap();
    Some(&svg[start..start + end])
}

fn forces_of<'a>(svg: &'a str, code: &str) -> &'a str {
    forces(svg, code).unwrap_or_else(|| panic!("no forces drawn in {code}"))
}

#[test]
fn fog_of_war_hides_forces_an_empire_cannot_see() {
    let map = tutorial();
    let st = game(&map);
    let en = EmpireCode::parse("EN").unwrap();
    let seen = visible_areas(&map, &st, en);
    let full = draw::svg(&map, Some((&st, None)), &small()).unwrap();
    let fog = draw::svg(&map, Some((&st, Some(en))), &small()).unwrap();
    let mut hidden = 0;
    for id in map.ids() {
        let a = st.area(id);
        let code = map.code(id);
        let has_forces = a.armies > 0 || a.forts > 0 || a.base.is_some() || a.fleet.is_some();
        if !has_forces {
            continue;
        }
        assert!(forces(&full, code.as_str()).is_some(), "{code}");
        if seen[id.index()] {
            assert!(forces(&fog, code.as_str()).is_some(), "{code} is seen");
        } else {
            hidden += 1;
            assert!(forces(&fog, code.as_str()).is_none(), "{code} is not seen");
        }
        // Owners are public: the area keeps its colour.
        assert_eq!(
            area_fill(&full, code.as_str()),
            area_fill(&fog, code.as_str()),
            "{code}"
        );
    }
    for id in map.ids() {
        let code = map.code(id);
        assert_eq!(hatched(&fog, code.as_str()), !seen[id.index()], "{code}");
        assert!(!hatched(&full, code.as_str()), "{code}");
    }
    assert!(
        hidden > 3,
        "the tutorial start hides most of the map from England"
    );
    assert!(fog.contains("id=\"unseen\""));
    assert!(fog.contains("as England (EN) sees it"));
    assert!(
        draw::svg(
            &map,
            Some((&st, Some(EmpireCode::parse("ZZ").unwrap()))),
            &small()
        )
        .is_err()
    );
}

#[test]
fn crowded_areas_are_enlarged_in_an_inset_with_their_forces_drawn_once() {
    let map = load("world").unwrap().unwrap();
    let st = game(&map);
    let opts = DrawOptions {
        width: 800,
        ..DrawOptions::default()
    };
    let svg = draw::svg(&map, Some((&st, None)), &opts).unwrap();
    assert!(svg.contains("id=\"inset-frame\""), "Europe is enlarged");
    assert!(svg.contains("<path id=\"inset-d-LON\""));
    for id in map.ids() {
        let a = st.area(id);
        let code = map.code(id);
        let n = svg.matches(&format!("<g id=\"forces-{code}\" ")).count();
        let has_forces = a.armies > 0 || a.forts > 0 || a.base.is_some() || a.fleet.is_some();
        assert_eq!(n, usize::from(has_forces), "{code}");
        assert_eq!(
            svg.matches(&format!("<path id=\"d-{code}\"")).count(),
            1,
            "{code}"
        );
    }
}

#[test]
fn one_base_draws_every_view_as_a_fresh_drawing_would() {
    let map = tutorial();
    let st = game(&map);
    let base = Base::new(&map, &small()).unwrap();
    assert_eq!(
        base.svg(None).unwrap(),
        draw::svg(&map, None, &small()).unwrap()
    );
    for e in &st.empires {
        let view = Some((&st, Some(e.code)));
        assert_eq!(
            base.svg(view).unwrap(),
            draw::svg(&map, view, &small()).unwrap()
        );
    }
}

#[test]
fn the_viewers_empire_is_outlined_and_first_in_the_legend() {
    let map = tutorial();
    let st = game(&map);
    let wa = EmpireCode::parse("WA").unwrap();
    let svg = draw::svg(&map, Some((&st, Some(wa))), &small()).unwrap();
    // The outline runs along the borders the layer keeps hidden until an overlay shows them.
    let outlined = |svg: &str| {
        style_sheet(svg)
            .split('}')
            .any(|r| r.starts_with("#h") && r.ends_with("{display:inline"))
    };
    assert!(outlined(&svg), "Wales is outlined");
    let legend = &svg[svg.find("<g id=\"legend\"").unwrap()..];
    let first = legend.find(">WA Wales (you,").expect("Wales in the legend");
    // The others the legend names are those owning an area Wales sees; the rest are
    // counted, for the roundup names them.
    let sees = empires_rules::knowledge::visible_areas(&map, &st, wa);
    let mut left_out = 0;
    for e in st.empires.iter().filter(|e| e.code != wa) {
        let in_sight = st.owned_by(e.code).any(|a| sees[a.index()]);
        match legend.find(&format!(">{} {}", e.code, e.name)) {
            Some(at) => {
                assert!(in_sight, "{} is named though Wales sees none of it", e.code);
                assert!(first < at, "{} comes before Wales", e.code);
            }
            None => {
                assert!(!in_sight, "{} is in sight but not named", e.code);
                left_out += 1;
            }
        }
    }
    // On the tutorial map at the start, Wales sees none of the other three.
    assert_eq!(left_out, 3);
    assert!(legend.contains(">3 other empires (roundup)<"));
    // Without a viewer, nobody is outlined.
    let all = draw::svg(&map, Some((&st, None)), &small()).unwrap();
    assert!(!outlined(&all));
}

#[test]
fn owned_areas_carry_their_owners_code_not_only_their_colour() {
    let map = tutorial();
    let st = game(&map);
    let svg = draw::svg(&map, Some((&st, None)), &small()).unwrap();
    for e in &st.empires {
        for id in st.owned_by(e.code) {
            let code = map.code(id);
            assert!(
                svg.contains(&format!("<use id=\"o-{code}\" href=\"#e-{}\"/>", e.code))
                    && svg.contains(&format!("<use href=\"#o-{code}\" transform=")),
                "{code} is labelled with {}",
                e.code
            );
        }
    }
}

/// The `font-size` of the group of labels of zoom `k` in a drawing for a zooming page.
fn lod_label_size(svg: &str, k: usize) -> f64 {
    let g = &svg[svg.find(&format!("<g class=\"lod{k}\">")).unwrap()..];
    let labels = &g[g.find("text-anchor=\"middle\"").unwrap()..];
    let labels = &g[..g.len() - labels.len()];
    let size = labels.rsplit("font-size=\"").next().unwrap();
    size[..size.find('"').unwrap()].parse().unwrap()
}

#[test]
fn a_zooming_page_gets_a_set_of_labels_per_zoom_that_read_the_same_size() {
    let map = load("world").unwrap().unwrap();
    let st = game(&map);
    let opts = DrawOptions {
        width: 960,
        zoom_label: Some(12.5),
        ..DrawOptions::default()
    };
    let base = Base::new(&map, &opts).unwrap();
    let gb = EmpireCode::parse("GB").unwrap();
    let svg = base.svg(Some((&st, Some(gb)))).unwrap();
    assert!(svg.contains("data-label=\"12.5\" data-zooms=\"1 2 4\" data-focus=\""));
    for (k, z) in draw::ZOOMS.iter().enumerate() {
        let size = lod_label_size(&svg, k + 1);
        // Sizes are written to a tenth.
        assert!(
            (size * z - 12.5).abs() <= 0.051 * z,
            "zoom {z}: labels {size}"
        );
    }
    // The closest zoom labels every area once in the main map or the inset, with the ids.
    for a in map.areas() {
        let n = svg.matches(&format!(">{}</text>", a.code)).count();
        assert!(n >= 1, "{} is labelled", a.code);
    }
    assert_eq!(svg.matches("<g id=\"labels\"").count(), 1);
    // A picture seen as it is has one set.
    let plain = draw::svg(
        &map,
        Some((&st, Some(gb))),
        &DrawOptions {
            width: 960,
            ..DrawOptions::default()
        },
    )
    .unwrap();
    assert!(!plain.contains("class=\"lod") && !plain.contains("data-label"));
}

/// The map's own layer is drawn once and shared by every view: it holds the map and no
/// game, and each empire's overlay holds no shapes, only what that empire sees.
#[test]
fn every_view_shares_one_layer_that_holds_no_game() {
    let map = load("world").unwrap().unwrap();
    let st = game(&map);
    let opts = DrawOptions {
        width: 960,
        zoom_label: Some(12.5),
        ..DrawOptions::default()
    };
    let base = Base::new(&map, &opts).unwrap();
    let layer: String = base.layers.parts.values().cloned().collect();
    for e in &st.empires {
        assert!(
            !layer.contains(&format!(">{}</text>", e.code)),
            "{}",
            e.code
        );
    }
    assert!(!layer.contains("<g id=\"forces-"));
    for e in &st.empires {
        let overlay =
            draw::overlay(&base.layers.layout, &map, Some((&st, Some(e.code))), None).unwrap();
        assert!(
            !overlay.contains(" d=\""),
            "{}: the overlay draws no shapes",
            e.code
        );
        assert!(
            overlay.len() < 24_000,
            "{}: {} bytes",
            e.code,
            overlay.len()
        );
        assert!(overlay.contains("<g data-part=\"map\"></g>"));
        assert_eq!(
            base.layers.assemble(&overlay),
            base.svg(Some((&st, Some(e.code)))).unwrap()
        );
    }
    // A layout from another map is refused, not drawn wrong.
    let tutorial = tutorial();
    assert!(draw::overlay(&base.layers.layout, &tutorial, None, None).is_err());
}
