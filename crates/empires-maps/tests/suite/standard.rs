//! The standard maps load, pass every check, and start games that follow 12.6-12.8.
use empires_maps::check::check_map;
use empires_maps::standard::{MAPS, load};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Options, Variant};
use std::collections::BTreeMap;

#[test]
fn every_standard_map_passes_the_designer_checks() {
    for m in MAPS {
        let r = check_map(m.text, m.file, None);
        assert_eq!(r.errors(), 0, "{r}");
    }
}

#[test]
fn rules_12_6_to_12_8_on_every_standard_map() {
    for m in MAPS {
        let map = load(m.name).unwrap().unwrap();
        let variant = map.variant.unwrap_or(Variant::World);
        let st = new_game(
            &map,
            &NewGame {
                name: m.name.into(),
                variant,
                seed: 11,
                players: BTreeMap::new(),
                options: Options::default(),
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", m.name));
        for def in &map.empires {
            let e = st.empire(def.code).unwrap();
            let owned: Vec<_> = st.owned_by(def.code).collect();
            let want = if def.start.is_empty() {
                owned.len() - 1
            } else {
                def.start.len()
            };
            assert_eq!(owned.len(), 1 + want, "{}: {}", m.name, def.code);
            assert!(owned.contains(&def.home), "{}: {}", m.name, def.code);
            // 12.7: home 4 armies and 2 forts, the others 3 and 1; coastal: one army less,
            // one ship more.
            for &a in &owned {
                let area = st.area(a);
                let (armies, forts) = if a == def.home { (4, 2) } else { (3, 1) };
                let coastal = map.area(a).coastal;
                assert_eq!(area.forts, forts, "{}: {}", m.name, map.code(a));
                assert_eq!(
                    area.armies,
                    armies - u32::from(coastal),
                    "{}: {}",
                    m.name,
                    map.code(a)
                );
                assert_eq!(area.base.is_some(), coastal, "{}: {}", m.name, map.code(a));
            }
            // 12.8: treasury and reserves.
            assert_eq!(e.treasury, 20);
            // 3 ships, plus the one for areas split by sea when no area is coastal.
            assert!(
                (3..=4).contains(&e.navy_reserve),
                "{}: {}",
                m.name,
                def.code
            );
            let (army, air) = if variant == Variant::World {
                (5, 5)
            } else {
                (10, 0)
            };
            assert_eq!(
                (e.army_reserve, e.air_force),
                (army, air),
                "{}: {}",
                m.name,
                def.code
            );
        }
    }
}
