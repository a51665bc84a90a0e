//! The printed order sheet of every kingdom reads back with no errors, stays within 80
//! columns, and says what a player needs to fill it in.
use crate::common;
use common::*;
use napoleonic_orders::sheet::WIDTH;
use napoleonic_orders::{check_sheet, order_sheet, parse};
use napoleonic_rules::GameState;
use napoleonic_rules::ids::{LocId, UnitId};
use napoleonic_rules::state::Status;

fn round_trip(map: &napoleonic_rules::Map, st: &GameState, game: &str) {
    for code in st.kingdoms.keys() {
        let text = order_sheet(game, map, st, code);
        for (i, line) in text.lines().enumerate() {
            assert!(
                line.chars().count() <= WIDTH,
                "{code}, line {}: {} columns: {line}",
                i + 1,
                line.chars().count()
            );
        }
        let sheet = parse(map, &text);
        assert!(
            sheet.diagnostics.is_empty(),
            "{code}:\n{text}\n{:#?}",
            sheet.diagnostics
        );
        assert_eq!(sheet.header.kingdom.as_ref().unwrap().value, *code);
        assert_eq!(sheet.header.turn.as_ref().unwrap().value, st.turn);
        let d = check_sheet(map, st, code, &sheet);
        assert!(d.iter().all(|d| !d.is_error()), "{code}:\n{text}\n{d:#?}");
        // An empty section for every unit of the kingdom, and nothing else.
        let units: Vec<UnitId> = st
            .units
            .iter()
            .filter(|u| &u.owner == code)
            .map(|u| u.id)
            .collect();
        let read: Vec<UnitId> = sheet.orders.units.iter().map(|u| u.unit).collect();
        assert_eq!(read, units, "{code}");
        assert!(
            sheet
                .orders
                .units
                .iter()
                .all(|u| *u == napoleonic_rules::orders::UnitOrders::new(u.unit))
        );
        assert!(sheet.orders.hq.is_empty() && sheet.orders.proclamation.is_none());
    }
}

#[test]
fn the_sheet_of_every_kingdom_reads_back_with_no_errors() {
    let (map, st) = game();
    round_trip(&map, &st, "Tiny Europe");
}

#[test]
fn awkward_names_and_states_still_read_back() {
    let (map, mut st) = game();
    st.turn = 12;
    let fra = k("FRA");
    st.kingdoms.get_mut(&fra).unwrap().status = Status::Royalty;
    st.kingdoms
        .get_mut(&fra)
        .unwrap()
        .passage_to
        .insert(k("BAV"));
    st.kingdoms.get_mut(&fra).unwrap().refuses.insert(k("PRU"));
    st.provinces
        .get_mut(&LocId(2))
        .unwrap()
        .permissions
        .insert(k("BRI"));
    st.provinces.get_mut(&LocId(3)).unwrap().annexed_to = k("IND");
    st.provinces.get_mut(&LocId(1)).unwrap().fort_damage = 1;
    let a1 = st.unit_mut(&fra, UnitId::army(1)).unwrap();
    a1.name = "The \"Grande\" Armée\nEND\n# not a comment".into();
    a1.aboard = Some((fra.clone(), UnitId::fleet(1)));
    a1.follow = Some(UnitId::army(2));
    a1.leaders[0].name = "Michel \"le Rougeaud\" Ney".into();
    round_trip(
        &map,
        &st,
        "A \"very\" long game name\nthat goes on and on and on, far past the edge of any sheet",
    );
    round_trip(&map, &st, "");
}

#[test]
fn the_sheet_shows_the_header_the_standing_and_each_unit() {
    let (map, st) = game();
    let text = order_sheet("Tiny Europe", &map, &st, &k("FRA"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "GAME \"Tiny Europe\"  KINGDOM FRA  TURN 1");
    // Comments wrap at 78 columns; their continuations start with "#  ".
    let flat_text = text.replace("\n#  ", "");
    assert!(
        flat_text.contains("# At war with PRU. Allied with BAV. Neutral with BRI."),
        "{text}"
    );
    assert!(
        flat_text.contains("Treasury 100 gold; upkeep 15.8 a turn. Commoner."),
        "{text}"
    );
    assert!(text.contains("\nHQ\n\nPROCLAMATION\nEND\n"), "{text}");
    // A1's summary: where it is, its troops by type, its move points, its neighbours.
    let a1 = text.find("# Army A1").unwrap();
    let summary = &text[a1..text[a1..].find("\nA1\n").unwrap() + a1];
    let flat = summary.replace("\n#  ", "");
    assert!(flat.contains("in 1 PAR (Paris)"), "{flat}");
    assert!(flat.contains("1 ART, 2 CUI, 4 LIN"), "{flat}");
    assert!(flat.contains("2 move points"), "{flat}");
    assert!(flat.contains("Next to: 2 BUR, 3 PIC, 7 BRE."), "{flat}");
    // Garrisons show what their city recruits.
    assert!(
        flat_text.contains("City Paris: recruits LIN, CUI, GRE, ART, at most 4 a turn."),
        "{text}"
    );
    assert!(lines.contains(&"G7"));
}
