//! Reading turnsheet lines: every format players use, and round trips.
use empires_orders::{parse_order, parse_sheet, parse_turnsheet};
use empires_rules::order::{Order, Quantity, Verb};

fn p(s: &str) -> Order {
    parse_order(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn full_positional_forms() {
    assert_eq!(
        p("MOVE ABC DEF 3"),
        Order::new(Verb::Move).from("ABC").to("DEF").n(3)
    );
    assert_eq!(
        p("move abc def ab-2"),
        Order::new(Verb::Move).from("ABC").to("DEF").all_but(2)
    );
    assert_eq!(
        p("ATTACK ABC DEF"),
        Order::new(Verb::Attack).from("ABC").to("DEF")
    );
    assert_eq!(p("GIFT - FR 10"), Order::new(Verb::Gift).to("FR").n(10));
    assert_eq!(p("ORDER - - 3"), Order::new(Verb::Order).n(3));
    assert_eq!(p("TAX"), Order::new(Verb::Tax));
    assert_eq!(p("TAX - - -"), Order::new(Verb::Tax));
    assert_eq!(
        p("SPY ABC DEF"),
        Order::new(Verb::Spy).from("ABC").to("DEF")
    );
    assert_eq!(
        p("BASE LON NTH"),
        Order::new(Verb::Base).from("LON").to("NTH")
    );
    assert_eq!(p("MOBILIZE"), Order::new(Verb::Mobilise));
}

#[test]
fn blanks_may_be_left_out() {
    assert_eq!(p("ARMY 5"), Order::new(Verb::Army).n(5));
    assert_eq!(p("GIFT FR 10"), Order::new(Verb::Gift).to("FR").n(10));
    assert_eq!(p("SPY PAR"), Order::new(Verb::Spy).to("PAR"));
    assert_eq!(p("SKIP PAR"), Order::new(Verb::Skip).to("PAR"));
    assert_eq!(p("FIND FR"), Order::new(Verb::Find).to("FR"));
    assert_eq!(p("FIND PAR"), Order::new(Verb::Find).from("PAR"));
    assert_eq!(p("WAIT FR"), Order::new(Verb::Wait).to("FR"));
    assert_eq!(p("LEVY PAR"), Order::new(Verb::Levy).from("PAR"));
    assert_eq!(
        p("FORTIFY PAR 2"),
        Order::new(Verb::Fortify).from("PAR").n(2)
    );
    assert_eq!(p("RETREAT PAR"), Order::new(Verb::Retreat).from("PAR"));
}

#[test]
fn all_but_forms_of_rule_6_3() {
    for s in [
        "MOVE A1B C2D AB-2",
        "MOVE A1B C2D AB2",
        "MOVE A1B C2D AB 2",
        "MOVE A1B C2D ALL BUT 2",
        "MOVE A1B C2D all but 2",
    ] {
        assert_eq!(p(s).number, Quantity::AllBut(2), "{s}");
    }
    assert_eq!(p("MOVE ABC DEF ALL").number, Quantity::All);
    assert_eq!(p("MOVE ABC DEF -").number, Quantity::All);
}

#[test]
fn separators_numbering_and_comments() {
    assert_eq!(
        p("MOVE,ABC,DEF,3"),
        Order::new(Verb::Move).from("ABC").to("DEF").n(3)
    );
    assert_eq!(
        p("\tMOVE\tABC  DEF 3 "),
        Order::new(Verb::Move).from("ABC").to("DEF").n(3)
    );
    let s = parse_sheet("1. TAX\n2) GROW PAR ; more\n3: LEVY PAR // note\n# nothing\n");
    let verbs: Vec<_> = s
        .actions
        .iter()
        .map(|a| a.order.clone().unwrap().verb)
        .collect();
    assert_eq!(verbs, vec![Verb::Tax, Verb::Grow, Verb::Levy]);
    assert_eq!(s.actions[1].line, 2);
}

#[test]
fn canonical_text_reads_back_the_same() {
    for o in [
        Order::new(Verb::Move).from("ABC").to("DEF").all_but(2),
        Order::new(Verb::Gift).to("FR").n(10),
        Order::new(Verb::Tax),
        Order::new(Verb::Find).from("PAR"),
        Order::new(Verb::Find).to("FR"),
        Order::new(Verb::Spy).from("PAR").to("BUR"),
        Order::new(Verb::Order),
    ] {
        assert_eq!(p(&o.to_string()), o, "{o}");
    }
}

#[test]
fn header_and_message_lines_of_rule_2_9() {
    let s = parse_sheet(
        "GAME 12\nTURN 4\nEMPIRE fr\nTAX\nMESSAGE Peace to all # not a comment\nPHONE 0123 456\nEMAIL fr@example.org\nMESSAGES\nFirst line\nsecond line\n\nAnother # message\n",
    );
    assert_eq!(s.turn.as_ref().unwrap().value, "4");
    assert_eq!(s.empire.as_ref().unwrap().value, "fr");
    assert_eq!(s.actions.len(), 1);
    assert_eq!(
        s.messages,
        vec![
            "Peace to all # not a comment",
            "First line second line",
            "Another # message"
        ]
    );
    let t = parse_turnsheet("TAX\nPHONE 0123 456\n");
    assert_eq!(t.phone.as_deref(), Some("0123 456"));
}

#[test]
fn unreadable_lines_are_kept_with_their_reason() {
    let t = parse_turnsheet("TAX\nMARCH X Y\nGROW PAR\n");
    assert_eq!(t.actions.len(), 3);
    assert_eq!(t.actions[1].order, Err("`MARCH` is not an action".into()));
    assert_eq!(t.actions[1].line, 2);
}
