//! The turnsheet language (2.6, 2.9, 6.3, 13.4): reading the orders players write into the
//! [`Turnsheet`] the engine adjudicates.
//!
//! One action per line: `VERB WHERE WHERE-TO NUMBER`. Blank boxes may be written `-` or
//! left out when the meaning is clear: `ARMY 5`, `GIFT FR 10` and `SPY PAR` are read as
//! `ARMY - - 5`, `GIFT - FR 10` and `SPY - PAR -`. The number is a count, blank or `ALL` for
//! all, or all-but in the forms `AB-2`, `AB2`, `AB 2` and `ALL BUT 2`. Everything after `#`
//! is a comment. `MESSAGE text`, `PHONE text` and `EMAIL text` lines carry player messages.

use empires_rules::order::{Order, OrderLine, Quantity, Turnsheet, Verb};

/// Which box a verb uses for a lone code, by the kind of code (13.4).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    From,
    To,
}

/// Where a single code goes when only one is written.
fn lone_code_slot(verb: Verb, code: &str) -> Slot {
    match verb {
        Verb::Gift | Verb::Wait | Verb::Spy | Verb::Skip => Slot::To,
        // FIND takes an area (3 characters) or an empire (2 letters).
        Verb::Find if code.len() == 2 => Slot::To,
        _ => Slot::From,
    }
}

/// Reads a number box; `None` when the text is not a number form.
pub fn parse_quantity(words: &[&str]) -> Option<Quantity> {
    let up: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let up: Vec<&str> = up.iter().map(String::as_str).collect();
    let number = |s: &str| s.parse::<u32>().ok();
    match up.as_slice() {
        [] | ["-"] | ["ALL"] => Some(Quantity::All),
        [n] if number(n).is_some() => number(n).map(Quantity::Exactly),
        [w] if w.starts_with("AB") => {
            let rest = w[2..].trim_start_matches('-');
            number(rest).map(Quantity::AllBut)
        }
        ["AB", n] | ["ALL", "BUT", n] | ["ALLBUT", n] => number(n).map(Quantity::AllBut),
        _ => None,
    }
}

/// Reads one order line (without comment). `Err` says what could not be understood.
pub fn parse_order(text: &str) -> Result<Order, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((&verb_word, rest)) = words.split_first() else {
        return Err("empty line".into());
    };
    let verb = Verb::parse(verb_word).ok_or_else(|| format!("unknown action `{verb_word}`"))?;
    // The number is at the end: try the longest number form first.
    let mut fields = rest;
    let mut number = Quantity::All;
    for take in [3usize, 2, 1] {
        if fields.len() >= take {
            let tail = &fields[fields.len() - take..];
            // A lone "-" in the last place is the blank number only if all boxes are there.
            if tail == ["-"] && fields.len() < 3 {
                continue;
            }
            if let Some(q) = parse_quantity(tail) {
                let blank_number = tail[0] == "-" && fields.len() == 3;
                if take == 1 && !blank_number && !looks_numeric(tail[0]) {
                    continue;
                }
                number = q;
                fields = &fields[..fields.len() - take];
                break;
            }
        }
    }
    let blank = |s: &str| if s == "-" { None } else { Some(s.to_string()) };
    let (from, to) = match fields {
        [] => (None, None),
        [one] => match (blank(one), lone_code_slot(verb, one)) {
            (None, _) => (None, None),
            (Some(c), Slot::From) => (Some(c), None),
            (Some(c), Slot::To) => (None, Some(c)),
        },
        [a, b] => (blank(a), blank(b)),
        _ => {
            return Err(format!(
                "too many boxes: expected `{} WHERE WHERE-TO NUMBER`, found `{}`",
                verb,
                text.trim()
            ));
        }
    };
    for code in [&from, &to].into_iter().flatten() {
        if !code.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("`{code}` is not an area or empire code"));
        }
    }
    Ok(Order {
        verb,
        from: from.map(|s| s.to_ascii_uppercase()),
        to: to.map(|s| s.to_ascii_uppercase()),
        number,
    })
}

fn looks_numeric(word: &str) -> bool {
    let up = word.to_ascii_uppercase();
    up == "ALL" || up.chars().all(|c| c.is_ascii_digit()) || up.starts_with("AB")
}

/// Reads a whole turnsheet. Lines that cannot be understood are kept, with the reason, so
/// that the engine reports them in their place and the rest of the turn goes on.
pub fn parse_turnsheet(text: &str) -> Turnsheet {
    let mut sheet = Turnsheet::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (head, tail) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match head.to_ascii_uppercase().as_str() {
            "MESSAGE" => sheet.messages.push(tail.trim().to_string()),
            "PHONE" => sheet.phone = Some(tail.trim().to_string()),
            "EMAIL" => sheet.email = Some(tail.trim().to_string()),
            _ => sheet.actions.push(OrderLine {
                line: i as u32 + 1,
                text: line.to_string(),
                order: parse_order(line),
            }),
        }
    }
    sheet
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            p("SPY ABC DEF"),
            Order::new(Verb::Spy).from("ABC").to("DEF")
        );
        assert_eq!(
            p("BASE LON NTH"),
            Order::new(Verb::Base).from("LON").to("NTH")
        );
    }

    #[test]
    fn blanks_may_be_left_out() {
        assert_eq!(p("ARMY 5"), Order::new(Verb::Army).n(5));
        assert_eq!(p("GIFT FR 10"), Order::new(Verb::Gift).to("FR").n(10));
        assert_eq!(p("SPY PAR"), Order::new(Verb::Spy).to("PAR"));
        assert_eq!(p("FIND FR"), Order::new(Verb::Find).to("FR"));
        assert_eq!(p("FIND PAR"), Order::new(Verb::Find).from("PAR"));
        assert_eq!(p("LEVY PAR"), Order::new(Verb::Levy).from("PAR"));
        assert_eq!(
            p("FORTIFY PAR 2"),
            Order::new(Verb::Fortify).from("PAR").n(2)
        );
    }

    #[test]
    fn all_but_forms() {
        for s in [
            "MOVE A1B C2D AB-2",
            "MOVE A1B C2D AB2",
            "MOVE A1B C2D AB 2",
            "MOVE A1B C2D ALL BUT 2",
        ] {
            assert_eq!(p(s).number, Quantity::AllBut(2), "{s}");
        }
        assert_eq!(p("MOVE ABC DEF ALL").number, Quantity::All);
        assert_eq!(p("MOVE ABC DEF -").number, Quantity::All);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(
            parse_order("MARCH ABC DEF")
                .unwrap_err()
                .contains("unknown action `MARCH`")
        );
        assert!(
            parse_order("MOVE ABC DEF GHI 3")
                .unwrap_err()
                .contains("too many boxes")
        );
        assert!(
            parse_order("MOVE A?C DEF")
                .unwrap_err()
                .contains("not an area or empire code")
        );
    }

    #[test]
    fn canonical_text_reads_back_the_same() {
        for o in [
            Order::new(Verb::Move).from("ABC").to("DEF").all_but(2),
            Order::new(Verb::Gift).to("FR").n(10),
            Order::new(Verb::Tax),
            Order::new(Verb::Find).from("PAR"),
        ] {
            assert_eq!(p(&o.to_string()), o);
        }
    }

    #[test]
    fn turnsheets_keep_bad_lines_and_messages() {
        let s = parse_turnsheet(
            "# my turn\nTAX\n\nMARCH X Y\nMESSAGE Hello all\nPHONE 0123\nGROW PAR # grow\n",
        );
        assert_eq!(s.actions.len(), 3);
        assert_eq!(s.actions[0].line, 2);
        assert!(s.actions[1].order.is_err());
        assert_eq!(s.actions[1].line, 4);
        assert_eq!(s.actions[2].order, Ok(Order::new(Verb::Grow).from("PAR")));
        assert_eq!(s.messages, vec!["Hello all".to_string()]);
        assert_eq!(s.phone.as_deref(), Some("0123"));
    }
}
