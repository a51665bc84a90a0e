//! European Empires campaigns over several turns: an army advancing along its own trail, a
//! supply line cut by an enemy and restored with WAGONS, and supply landed by sea.
use crate::common;
use common::*;
use empires_rules::supply::source;

const CAMPAIGN: &str = r#"
variant = "european"
next_census = 9
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
bps = 30
treasury = 20
capital = "AAA"
supply_capacity = 5
[[empire]]
code = "BB"
bps = 10
capital = "GGG"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 5
armies = 6
forts = 1
base = { entrance = "NSE", ships = 3 }
[[area]]
code = "DDD"
owner = "AA"
population = 5
armies = 3
[[area]]
code = "BBB"
owner = "AA"
population = 3
armies = 1
[[area]]
code = "EEE"
owner = "BB"
population = 3
armies = 1
[[area]]
code = "FFF"
owner = "BB"
population = 2
armies = 1
[[area]]
code = "GGG"
owner = "BB"
population = 1
base = { entrance = "ESE", ships = 0 }
[[area]]
code = "HHH"
owner = "CC"
population = 2
"#;

fn at(m: &empires_rules::Map, code: &str) -> empires_rules::map::AreaId {
    m.find(code).unwrap()
}

#[test]
fn an_army_advances_along_its_own_trail() {
    let (m, st) = scenario(CAMPAIGN);
    // Turn 1: build trains in the capital, march to DDD (leaving a trail back to AAA),
    // send supplies up the line, and attack EEE from there.
    let t1 = play(
        &m,
        &st,
        &[(
            "AA",
            &[
                "GATHER AAA - 5",
                "MOVE AAA DDD 4",
                "SEND AAA DDD 2",
                "ATTACK DDD EEE 7",
            ],
        )],
    );
    for i in 0..4 {
        done(&t1, "AA", i);
    }
    let s = &t1.state;
    // The captured area draws supply back along the trail: EEE -> DDD -> AAA.
    assert_eq!(area(&m, s, "EEE").owner, Some(e("AA")));
    assert_eq!(area(&m, s, "EEE").retreat_to.unwrap().to_string(), "DDD");
    assert_eq!(area(&m, s, "DDD").retreat_to.unwrap().to_string(), "AAA");
    assert_eq!(source(&m, s, at(&m, "EEE")), Some(at(&m, "AAA")));
    // Turn 2: supplies go straight from the capital to the front, and the army attacks on.
    let t2 = play(&m, s, &[("AA", &["SEND AAA EEE 2", "ATTACK EEE FFF AB-1"])]);
    done(&t2, "AA", 0);
    done(&t2, "AA", 1);
    assert_eq!(area(&m, &t2.state, "FFF").owner, Some(e("AA")));
    assert_eq!(source(&m, &t2.state, at(&m, "FFF")), Some(at(&m, "AAA")));
}

#[test]
fn a_cut_line_is_restored_with_wagons() {
    let (m, mut st) = scenario(CAMPAIGN);
    // AA holds EEE with a line EEE -> BBB -> AAA; DDD, next to both, has trains.
    let i = |c: &str| at(&m, c).index();
    st.areas[i("EEE")].owner = Some(e("AA"));
    st.areas[i("EEE")].retreat_to = Some("BBB".parse().unwrap());
    st.areas[i("BBB")].retreat_to = Some("AAA".parse().unwrap());
    st.areas[i("DDD")].retreat_to = Some("AAA".parse().unwrap());
    st.areas[i("DDD")].trains = 2;
    st.areas[i("AAA")].trains = 4;
    // BB's army in CCC cuts the line by taking BBB.
    st.areas[i("CCC")].owner = Some(e("BB"));
    st.areas[i("CCC")].armies = 12;
    st.areas[i("CCC")].trains = 3;
    let t = play(
        &m,
        &st,
        &[
            ("BB", &["ATTACK CCC BBB 12"]),
            (
                "AA",
                &[
                    "TAX",
                    "SEND AAA EEE 1",
                    "WAGONS DDD EEE 1",
                    "SEND AAA EEE 1",
                ],
            ),
        ],
    );
    // Round 1: BB takes BBB. Round 2: SEND fails, the line being cut.
    assert_eq!(area(&m, &t.state, "BBB").owner, Some(e("BB")));
    assert!(failure(&t, "AA", 1).contains("no supply line back to AAA"));
    // WAGONS from DDD re-points EEE's line through DDD, and SEND works again.
    done(&t, "AA", 2);
    done(&t, "AA", 3);
    assert_eq!(
        area(&m, &t.state, "EEE").retreat_to.unwrap().to_string(),
        "DDD"
    );
    assert_eq!(source(&m, &t.state, at(&m, "EEE")), Some(at(&m, "AAA")));
}

#[test]
fn supply_is_landed_by_sea() {
    let text = format!(
        "{CAMPAIGN}\n[[fleet]]\narea = \"ESE\"\nowner = \"AA\"\nships = 4\narmies = 4\nbase = \"AAA\"\n"
    );
    let (m, mut st) = scenario(&text);
    st.areas[at(&m, "AAA").index()].trains = 3;
    st.areas[at(&m, "HHH").index()].owner = Some(e("BB"));
    st.areas[at(&m, "HHH").index()].population = 1;
    // Attacks from the sea need no trains (S.6); then the fleet fetches supplies from its
    // base and throws them ashore (S.13.3).
    let t1 = play(
        &m,
        &st,
        &[("AA", &["ATTACK ESE GGG 4", "UNLOAD ESE GGG 3"])],
    );
    done(&t1, "AA", 0);
    done(&t1, "AA", 1);
    assert_eq!(area(&m, &t1.state, "GGG").owner, Some(e("AA")));
    let landed = area(&m, &t1.state, "GGG").trains;
    assert!(landed >= 2, "{landed}");
    // Next turn the landed army marches inland, supplied.
    let t2 = play(&m, &t1.state, &[("AA", &["ATTACK GGG HHH"])]);
    done(&t2, "AA", 0);
    assert_eq!(area(&m, &t2.state, "HHH").owner, Some(e("AA")));
}
