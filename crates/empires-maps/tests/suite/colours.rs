//! Empire colours on every standard map: empires whose areas touch can be told apart.

use empires_maps::draw::colours::{difference, empire_colours, empire_distances};
use empires_maps::draw::style;
use empires_maps::standard::{MAPS, load};

/// The least CIEDE2000 difference between the colours of two empires whose start areas
/// touch. About 2.3 is a just-noticeable difference; 30 is plain at a glance, for the
/// colours of areas side by side. (The standard maps' closest touching pair is 32.4 apart,
/// on the Medieval Empires map.)
const NEIGHBOURS: f64 = 30.0;

/// Any two colours of the palette, so that no two empires look alike in the legend.
const ANY: f64 = 9.0;

#[test]
fn neighbouring_empires_have_colours_far_apart() {
    for m in MAPS {
        let map = load(m.name).unwrap().unwrap();
        let colours = empire_colours(&map);
        assert_eq!(colours.len(), map.empires.len());
        let dist = empire_distances(&map);
        let (mut touching, mut near) = (f64::MAX, f64::MAX);
        for i in 0..colours.len() {
            for j in i + 1..colours.len() {
                let d = difference(colours[i], colours[j]);
                let (a, b) = (&map.empires[i].code, &map.empires[j].code);
                if dist[i][j] <= 1 {
                    touching = touching.min(d);
                    assert!(
                        d >= NEIGHBOURS,
                        "{}: {a} {} and {b} {} touch, {d:.1} apart",
                        m.name,
                        colours[i],
                        colours[j]
                    );
                } else if dist[i][j] <= 3 {
                    near = near.min(d);
                }
                assert!(d >= ANY, "{}: {a} and {b} are {d:.1} apart", m.name);
            }
        }
        // For the record (`--nocapture`): the closest pairs that touch and that are near.
        println!("{}: touching {touching:.1}, near {near:.1}", m.name);
    }
}

#[test]
fn each_empire_of_a_standard_map_has_its_own_colour() {
    for m in MAPS {
        let map = load(m.name).unwrap().unwrap();
        let mut colours = empire_colours(&map);
        colours.sort();
        colours.dedup();
        assert_eq!(colours.len(), map.empires.len(), "{}", m.name);
    }
}

#[test]
fn empire_colours_stand_apart_from_the_sea_and_unowned_land() {
    for c in style::EMPIRES {
        for other in style::SEA.iter().chain([&style::UNOWNED]) {
            let d = difference(c, other);
            assert!(d >= 12.0, "{c} and {other}: {d:.1}");
        }
    }
}
