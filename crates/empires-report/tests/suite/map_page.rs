//! The map in the HTML report reads at a readable size: the size of its area codes in CSS
//! pixels, worked out from the drawing's `viewBox`, the size of its labels and the width the
//! page's style gives it, on a desktop and on a phone.
use crate::common;
use common::*;
use empires_maps::draw::{Base, DrawOptions, ZOOMS};
use empires_report::{Turn, html, report};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Options, Variant, adjudicate};
use std::collections::BTreeMap;

/// A page with the map of a World Empires game as Britain knows it.
fn world_page() -> String {
    let map = empires_maps::standard::load("world").unwrap().unwrap();
    let st = new_game(
        &map,
        &NewGame {
            name: "World".into(),
            variant: Variant::World,
            seed: 7,
            players: BTreeMap::new(),
            options: Options::default(),
        },
    )
    .unwrap();
    let out = adjudicate(&map, &st, &BTreeMap::new()).unwrap();
    let opts = DrawOptions {
        width: html::MAP_WIDTH,
        zoom_label: Some(html::MAP_LABEL),
        ..DrawOptions::default()
    };
    let base = Base::new(&map, &opts).unwrap();
    let svg = base.svg(Some((&out.state, Some(code("GB"))))).unwrap();
    let turn = Turn {
        map: &map,
        state: &out.state,
        events: &out.events,
        computer_written: &[],
        gm_messages: &[],
        sheet_game: None,
    };
    html::render(
        &report(&turn, code("GB")),
        16,
        Some(html::PageMap::Whole(&svg)),
    )
}

/// The number after `key` in `s`.
fn number_after(s: &str, key: &str) -> f64 {
    let at = s.find(key).unwrap_or_else(|| panic!("no {key}")) + key.len();
    let digits: String = s[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits.parse().unwrap()
}

/// The font size of the area codes of zoom `k` (1 is the whole map).
fn label_size(page: &str, k: usize) -> f64 {
    let g = &page[page.find(&format!("<g class=\"lod{k}\">")).unwrap()..];
    let labels = &g[..g.find("text-anchor=\"middle\"").unwrap()];
    number_after(
        &labels[labels.rfind("font-size=\"").unwrap()..],
        "font-size=\"",
    )
}

#[test]
fn area_codes_read_at_least_11_css_pixels_on_a_desktop_and_a_phone() {
    let page = world_page();
    let view_box = number_after(&page, "viewBox=\"0 0 ");
    assert_eq!(view_box, f64::from(html::MAP_WIDTH));
    // On a desktop the page is 980 pixels wide at most; the map's box sits inside the page's
    // padding, the section's padding and border, and its own border.
    assert!(page.contains("main{max-width:980px;margin:0 auto;padding:12px}"));
    assert!(page.contains("section{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 12px;"));
    assert!(page.contains(".map .view{overflow:auto;border:1px solid var(--line)}"));
    let desktop = 980.0 - 2.0 * 12.0 - 2.0 * (12.0 + 1.0) - 2.0 * 1.0;
    // On a phone the map keeps its least width and scrolls in its box.
    assert!(page.contains(&format!(
        ".map svg{{width:100%;height:auto;display:block;min-width:{}px;",
        html::MAP_MIN_WIDTH
    )));
    let phone = f64::from(html::MAP_MIN_WIDTH);
    let whole = label_size(&page, 1);
    for (what, width) in [("desktop", desktop), ("phone", phone)] {
        let px = whole * width / view_box;
        assert!(
            px >= html::READABLE_PX,
            "{what}: area codes are {px:.1} CSS pixels"
        );
    }
    // Closer zooms have their own labels, shown by the script only where they read at least
    // as large; without it they stay hidden.
    assert!(page.contains(&format!("var READABLE={},", html::READABLE_PX)));
    assert!(page.contains(".map .lod2,.map .lod3,"));
    for (k, z) in ZOOMS.iter().enumerate().skip(1) {
        let size = label_size(&page, k + 1);
        assert!(size * z * desktop / view_box >= html::READABLE_PX - 0.1 * z);
    }
    // The legend reads as large as the codes.
    let legend = &page[page.find("<g id=\"legend\"").unwrap()..];
    assert!(number_after(legend, "font-size=\"") * desktop / view_box >= html::READABLE_PX);
}

#[test]
fn the_page_with_its_map_stays_one_file() {
    let page = world_page();
    assert!(!page.contains("src="), "nothing loaded from elsewhere");
    assert!(!page.contains("href=\"http"), "no links out");
    assert!(!page.contains("@import"));
    assert!(
        page.contains("<div class=\"zoom\" hidden>"),
        "no buttons without the script"
    );
}
