//! The map designer's checks, on crafted maps.
use empires_maps::check::check_map;
use empires_rules::Variant;

const BASE: &str = r#"
name = "Check"
[[area]]
code = "AAA"
name = "Alpha"
terrain = "plains"
adjacent = ["BBB", "CCC", "SEA"]
position = [0.0, 0.0]
[[area]]
code = "BBB"
name = "Beta"
terrain = "plains"
adjacent = ["AAA", "CCC"]
position = [1.0, 0.0]
[[area]]
code = "CCC"
name = "Gamma"
terrain = "forest"
adjacent = ["AAA", "BBB"]
position = [0.0, 1.0]
[[area]]
code = "SEA"
name = "The Sea"
terrain = "sea"
adjacent = ["AAA"]
position = [-1.0, 0.0]
[[empire]]
code = "AA"
name = "A"
home = "AAA"
start = ["BBB", "CCC"]
"#;

fn messages(text: &str, v: Option<Variant>) -> Vec<String> {
    check_map(text, "m.toml", v)
        .findings
        .iter()
        .map(|f| f.message.clone())
        .collect()
}

#[test]
fn a_sound_map_passes() {
    let r = check_map(BASE, "m.toml", Some(Variant::Medieval));
    assert_eq!(r.errors(), 0, "{r}");
    assert_eq!((r.land, r.sea, r.empires), (3, 1, 1));
    // Only the unusual number of empires and the trapped sea are worth a word.
    assert_eq!(
        messages(BASE, Some(Variant::Medieval)),
        vec![
            "1 empire, where Medieval Empires usually has 30 (section 12)",
            "sea area SEA touches no other sea area: ships there are trapped",
        ]
    );
}

#[test]
fn one_sided_borders_are_named() {
    let text = BASE.replace(
        "adjacent = [\"AAA\", \"CCC\"]\nposition = [1.0, 0.0]",
        "adjacent = [\"CCC\"]\nposition = [1.0, 0.0]",
    );
    assert!(
        messages(&text, None)
            .contains(&"AAA lists BBB as a neighbour but BBB does not list AAA".to_string())
    );
}

#[test]
fn unreachable_areas_are_errors() {
    let text =
        format!("{BASE}\n[[area]]\ncode = \"DDD\"\nname = \"Delta\"\nterrain = \"plains\"\n");
    let r = check_map(&text, "m.toml", None);
    assert!(
        r.findings
            .iter()
            .any(|f| f.error && f.message == "DDD has no neighbours"),
        "{r}"
    );
    assert!(
        r.findings
            .iter()
            .any(|f| f.error && f.message == "this area cannot be reached from AAA: DDD"),
        "{r}"
    );
}

#[test]
fn rule_12_6_start_areas_must_fit_the_variant() {
    // World Empires wants four areas besides home.
    let r = check_map(BASE, "m.toml", Some(Variant::World));
    assert!(
        r.findings.iter().any(|f| f.error
            && f.message == "AA starts with 2 areas besides AAA, but World Empires gives 4 (12.6)"),
        "{r}"
    );
    // A start area that is not next to home.
    let text = BASE.replace("start = [\"BBB\", \"CCC\"]", "start = [\"BBB\", \"SEA\"]");
    let r = check_map(&text, "m.toml", Some(Variant::Medieval));
    assert!(r.errors() > 0, "{r}");
    let far = BASE
        .replace(
            "adjacent = [\"BBB\", \"CCC\", \"SEA\"]",
            "adjacent = [\"BBB\", \"SEA\"]",
        )
        .replace(
            "adjacent = [\"AAA\", \"BBB\"]\nposition = [0.0, 1.0]",
            "adjacent = [\"BBB\"]\nposition = [0.0, 1.0]",
        );
    let r = check_map(&far, "m.toml", Some(Variant::Medieval));
    assert!(
        r.findings
            .iter()
            .any(|f| f.message == "AA: start area CCC is not next to the home area (12.6)"),
        "{r}"
    );
}

#[test]
fn shared_start_areas_and_homes_are_errors() {
    let text = format!(
        "{BASE}\n[[empire]]\ncode = \"BB\"\nname = \"B\"\nhome = \"CCC\"\nstart = [\"BBB\"]\n"
    );
    let m = messages(&text, Some(Variant::European));
    assert!(
        m.contains(&"AA: start area CCC is another empire's home".to_string()),
        "{m:?}"
    );
    assert!(
        m.contains(&"BBB is a start area of both AA and BB".to_string()),
        "{m:?}"
    );
}

#[test]
fn load_errors_are_reported_as_findings() {
    let text = BASE.replace("terrain = \"forest\"", "terrain = \"swamp\"");
    let r = check_map(&text, "m.toml", None);
    assert_eq!(r.errors(), 1);
    assert!(r.findings[0].message.contains("swamp"), "{r}");
}

/// Land areas in a ring, `AAA`, `BBB`, ..., each next to the areas `links` names.
fn land(areas: &[(&str, &[&str])], empires: &[(&str, &str)]) -> String {
    let mut t = String::from("name = \"Land\"\n");
    for (i, (code, links)) in areas.iter().enumerate() {
        let adj: Vec<String> = links.iter().map(|l| format!("\"{l}\"")).collect();
        t.push_str(&format!(
            "[[area]]\ncode = \"{code}\"\nname = \"{code}\"\nterrain = \"plains\"\nadjacent = [{}]\nposition = [{i}.0, 0.0]\n",
            adj.join(", ")
        ));
    }
    for (code, home) in empires {
        t.push_str(&format!(
            "[[empire]]\ncode = \"{code}\"\nname = \"{code}\"\nhome = \"{home}\"\n"
        ));
    }
    t
}

/// 12.6: two empires whose homes share the same two free neighbours each pass the check of
/// their own home, but one of them always starts short; and a map with too little land for
/// everyone's initial areas says so.
#[test]
fn empires_that_must_share_too_little_land_are_named() {
    let text = land(
        &[
            ("HMA", &["XXX", "YYY"]),
            ("HMB", &["XXX", "YYY"]),
            ("XXX", &["HMA", "HMB", "PPP"]),
            ("YYY", &["HMA", "HMB"]),
            ("PPP", &["XXX", "QQQ"]),
            ("QQQ", &["PPP"]),
        ],
        &[("AA", "HMA"), ("BB", "HMB")],
    );
    let r = check_map(&text, "m.toml", Some(Variant::Medieval));
    let short: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.message.contains("left short of land"))
        .collect();
    assert_eq!(short.len(), 1, "{r}");
    assert!(short[0].error);
    assert!(
        short[0].message.contains("in 32 of 32 starting draws"),
        "{}",
        short[0].message
    );
    // In European Empires, "up to two": the same map only warns.
    let r = check_map(&text, "m.toml", Some(Variant::European));
    assert!(
        r.findings
            .iter()
            .any(|f| !f.error && f.message.contains("left short of land")),
        "{r}"
    );
    // World Empires gives 4 areas each: 8 wanted, 4 to be had.
    let r = check_map(&text, "m.toml", Some(Variant::World));
    assert!(
        r.findings.iter().any(|f| f.error
            && f.message
                == "4 land areas besides the homes, for the 8 initial areas of 2 empires (12.6)"),
        "{r}"
    );
}

/// Every standard map has land enough for all its empires in every draw the check makes.
#[test]
fn the_standard_maps_have_land_for_everyone() {
    for m in empires_maps::standard::MAPS {
        let r = check_map(m.text, m.name, None);
        assert!(
            !r.findings
                .iter()
                .any(|f| f.message.contains("short of land")
                    || f.message.contains("land areas besides the homes")),
            "{}: {r}",
            m.name
        );
    }
}
