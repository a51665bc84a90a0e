//! Whatever the bytes of a turnsheet, `empires check` and `empires turn` read the same
//! actions from it: every line end, every encoding read, sizes up to the limit and past it.

use empires_cli::commands::{check, turn};
use empires_orders::text::MAX_SHEET_BYTES;
use empires_orders::{parse_sheet, parse_turnsheet};
use proptest::prelude::*;
use std::fs;

/// Lines a player might write: actions good and bad, headers, messages, comments, blanks.
const LINES: &[&str] = &[
    "TAX",
    "LEVY LON",
    "1. MOVE LON KEN 3",
    "ATTACK LON NFK AB-1   # keep one",
    "RESERVE LON - 2",
    "GIFT , FR, 10",
    "ATACK DDD EEE 3",
    "GROW D?D",
    "GAME Tutorial",
    "TURN 1",
    "EMPIRE EN",
    "MESSAGE peace in our time",
    "PHONE 555 1234",
    "# only a comment",
    "; another",
    "",
    "   ",
    "\tDEFEND KEN",
    "SPY LON MID",
    "MESSAGES",
    "Dear all, MOVE LON KEN is a joke",
    "Ünïcödé wörds and ＡＢＣ",
];

#[derive(Debug, Clone, Copy)]
enum Encoding {
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
}

fn encode(text: &str, enc: Encoding) -> Vec<u8> {
    match enc {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::Utf8Bom => [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat(),
        Encoding::Utf16Le => [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect(),
        Encoding::Utf16Be => [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect(),
    }
}

fn sheet() -> impl Strategy<Value = (String, String, Encoding)> {
    let line = (0..LINES.len(), 0..3usize);
    let enc = prop_oneof![
        Just(Encoding::Utf8),
        Just(Encoding::Utf8Bom),
        Just(Encoding::Utf16Le),
        Just(Encoding::Utf16Be),
    ];
    // Padding, in comment lines, takes some sheets up to the limit and past it.
    let padding = prop_oneof![3 => Just(0usize), 1 => 0..MAX_SHEET_BYTES / 40];
    (prop::collection::vec(line, 0..40), enc, padding).prop_map(|(lines, enc, pad)| {
        let mut lf = String::new();
        let mut mixed = String::new();
        for _ in 0..pad {
            let l = "# padding padding padding padding pad";
            lf.push_str(l);
            lf.push('\n');
            mixed.push_str(l);
            mixed.push_str("\r\n");
        }
        let mut after_cr = false;
        for (i, mut end) in lines {
            // A lone CR, an empty line and an LF would make one CRLF: one line end, not two.
            if after_cr && LINES[i].is_empty() && end == 0 {
                end = 2;
            }
            after_cr = end == 2;
            lf.push_str(LINES[i]);
            lf.push('\n');
            mixed.push_str(LINES[i]);
            mixed.push_str(["\n", "\r\n", "\r"][end]);
        }
        (lf, mixed, enc)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn check_and_turn_read_the_same_actions((lf, mixed, enc) in sheet()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("EN.txt");
        let bytes = encode(&mixed, enc);
        fs::write(&path, &bytes).unwrap();
        let by_check = check::read_turnsheet(&path);
        let by_turn = turn::read_sent_sheet(&path);
        if bytes.len() > MAX_SHEET_BYTES {
            // Too large: both refuse it, naming the limit.
            prop_assert!(by_check.unwrap_err().to_string().contains("65536"));
            prop_assert!(by_turn.unwrap_err().contains("65536"));
            return Ok(());
        }
        let (by_check, by_turn) = (by_check.unwrap(), by_turn.unwrap());
        prop_assert_eq!(&by_check, &by_turn);
        let checked = parse_sheet(&by_check).into_turnsheet();
        let played = parse_turnsheet(&by_turn);
        prop_assert_eq!(&checked, &played);
        // Whatever the line ends and encoding, the sheet says what it says with LF in UTF-8.
        prop_assert_eq!(&played, &parse_turnsheet(&lf));
    }
}

#[test]
fn bytes_that_are_not_text_are_refused_alike() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("EN.txt");
    for bytes in [
        b"TAX\n\xFF\xFE".as_slice(),
        b"T\0A\0X\0\n\0",
        b"\xFF\xFE\x00\xD8",
        b"\xFE\xFF\xD8\x00",
        b"TAX\r\xC3",
    ] {
        fs::write(&path, bytes).unwrap();
        let by_check = check::read_turnsheet(&path).unwrap_err().to_string();
        let by_turn = turn::read_sent_sheet(&path).unwrap_err();
        assert!(by_check.ends_with(&by_turn), "{by_check} / {by_turn}");
    }
}
