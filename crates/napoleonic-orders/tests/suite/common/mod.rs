//! A tiny map of western Europe and a game on it, for every test of the order language.
#![allow(dead_code)]

use napoleonic_orders::{Diagnostic, ParsedSheet, check_sheet, parse};
use napoleonic_rules::Map;
use napoleonic_rules::ids::KingdomCode;
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::state::{GameState, Relation};

/// Paris, Burgundy, Picardy and Brest are French; Baden Bavarian; Brandenburg Prussian;
/// Kent British. Alsace, Swabia and Holland are independent. The Channel and the North Sea
/// join the coasts; mountains part Alsace and Baden, a reef Holland and the Channel.
pub const MAP: &str = r#"
name = "Tiny Europe"

[[province]]
id = 1
code = "PAR"
name = "Paris"
position = [2.3, 48.8]
revenue = 20
adjacent = ["BUR", "PIC", "BRE"]
city = { name = "Paris", builds = ["LIN", "CUI", "GRE", "ART"], max_builds = 4 }
fort = 2

[[province]]
id = 2
code = "BUR"
name = "Burgundy"
position = [4.8, 47.3]
revenue = 10
adjacent = ["PAR", "ALS", "SWA"]

[[province]]
id = 3
code = "PIC"
name = "Picardy"
position = [2.3, 49.9]
revenue = 8
adjacent = ["PAR", "ENC"]

[[province]]
id = 4
code = "ALS"
name = "Alsace"
position = [7.7, 48.6]
revenue = 12
adjacent = ["BUR", "SWA"]
barriers = ["BAD"]
city = { name = "Strasbourg", builds = ["LIN"], max_builds = 2 }
fort = 1
garrison = [["MIL", 2]]

[[province]]
id = 5
code = "SWA"
name = "Swabia"
position = [9.2, 48.8]
revenue = 9
adjacent = ["BUR", "ALS", "BAD", "BRA"]

[[province]]
id = 6
code = "BAD"
name = "Baden"
position = [8.4, 49.0]
revenue = 10
adjacent = ["SWA", "BRA"]
barriers = ["ALS"]
city = { name = "Karlsruhe", builds = ["LIN"], max_builds = 2 }

[[province]]
id = 7
code = "BRE"
name = "Brest"
position = [-4.5, 48.4]
revenue = 6
adjacent = ["PAR", "ENC"]
city = { name = "Brest", builds = ["LIN", "WAR", "TRN"], max_builds = 3 }
harbour = true

[[province]]
id = 8
code = "KEN"
name = "Kent"
position = [1.0, 51.3]
revenue = 10
adjacent = ["ENC", "NTH"]
city = { name = "London", builds = ["LIN", "MAR", "WAR", "TRN"], max_builds = 4 }
harbour = true

[[province]]
id = 9
code = "HOL"
name = "Holland"
position = [4.9, 52.4]
revenue = 7
adjacent = ["NTH"]
barriers = ["ENC"]

[[province]]
id = 10
code = "BRA"
name = "Brandenburg"
position = [13.4, 52.5]
revenue = 10
adjacent = ["SWA", "BAD"]
city = { name = "Berlin", builds = ["LIN"], max_builds = 3 }

[[sea]]
id = 50
code = "ENC"
name = "English Channel"
position = [-1.0, 50.0]
adjacent = ["PIC", "BRE", "KEN", "NTH"]
barriers = ["HOL"]

[[sea]]
id = 51
code = "NTH"
name = "North Sea"
position = [3.0, 54.0]
adjacent = ["KEN", "ENC", "HOL"]

[[kingdom]]
code = "FRA"
name = "France"
capital = "PAR"
provinces = ["PAR", "BUR", "PIC", "BRE"]
treasury = 100
army = [
  { at = "PAR", troops = [["LIN", 4], ["CUI", 2], ["ART", 1]], leaders = 1 },
  { at = "BUR", troops = [["LIN", 2]] },
]
fleet = [{ at = "BRE", troops = [["WAR", 1], ["TRN", 2]] }]

[[kingdom]]
code = "BAV"
name = "Bavaria"
capital = "BAD"
provinces = ["BAD"]
treasury = 50
army = [{ at = "BAD", troops = [["LIN", 3]] }]

[[kingdom]]
code = "PRU"
name = "Prussia"
capital = "BRA"
provinces = ["BRA"]
treasury = 60
army = [{ at = "BRA", troops = [["LIN", 3], ["LCV", 2]] }]

[[kingdom]]
code = "BRI"
name = "Britain"
capital = "KEN"
provinces = ["KEN"]
treasury = 80
army = [{ at = "KEN", troops = [["LIN", 2]] }]
fleet = [{ at = "KEN", troops = [["WAR", 2]] }]
"#;

pub fn map() -> Map {
    Map::parse(MAP).unwrap_or_else(|e| panic!("the test map is valid: {e:?}"))
}

pub fn k(code: &str) -> KingdomCode {
    KingdomCode::new(code).unwrap()
}

/// Turn 1 of a game on the map, with France at war with Prussia and allied with Bavaria.
pub fn game() -> (Map, GameState) {
    let map = map();
    let mut st = new_game(&map, &NewGame::standard(7)).unwrap();
    st.set_relation(&k("FRA"), &k("PRU"), Relation::War);
    st.set_relation(&k("FRA"), &k("BAV"), Relation::Ally);
    (map, st)
}

pub fn read(text: &str) -> ParsedSheet {
    parse(&map(), text)
}

/// Every diagnostic of a French sheet, read and checked.
pub fn diagnose(text: &str) -> Vec<Diagnostic> {
    let (map, st) = game();
    diagnose_in(&map, &st, text)
}

pub fn diagnose_in(map: &Map, st: &GameState, text: &str) -> Vec<Diagnostic> {
    let sheet = parse(map, text);
    check_sheet(map, st, &k("FRA"), &sheet)
}

/// One diagnostic, as "CODE line:column message".
pub fn short(d: &Diagnostic) -> String {
    format!("{} {}:{} {}", d.code, d.line, d.column, d.message)
}

/// The only diagnostic of a French sheet, as "CODE line:column message".
pub fn only(text: &str) -> String {
    let d = diagnose(text);
    assert_eq!(
        d.len(),
        1,
        "expected one diagnostic for {text:?}, got {d:#?}"
    );
    short(&d[0])
}

/// The diagnostics of a French sheet, each as "CODE line:column message".
pub fn all(text: &str) -> Vec<String> {
    diagnose(text).iter().map(short).collect()
}
