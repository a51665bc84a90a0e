//! Every example in the players' guide (docs/orders.md) reads as the action it shows.
use empires_orders::parse_order;
use empires_rules::order::Verb;

#[test]
fn every_example_in_the_guide_reads() {
    let guide = include_str!("../../../../docs/orders.md");
    let mut seen = std::collections::BTreeSet::new();
    for row in guide
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains('`'))
    {
        let cells: Vec<&str> = row.split('|').collect();
        let Some(name) = cells.get(1).and_then(|c| c.split_whitespace().next()) else {
            continue;
        };
        let Some(verb) = Verb::parse(name) else {
            continue;
        };
        for example in cells[2].split('`').skip(1).step_by(2) {
            let order = parse_order(example).unwrap_or_else(|e| panic!("{example}: {e}"));
            assert_eq!(order.verb, verb, "{example}");
        }
        seen.insert(verb);
    }
    // Every core action of table 13.4 has an example.
    for v in Verb::ALL.iter().take(39) {
        assert!(seen.contains(v), "no example of {v}");
    }
}
