//! The round trip a player makes: the turnsheet printed at the end of a report (text or web
//! page) comes back filled in on some lines and blank on others, passes `check` with no
//! errors, and is played with each action in the round of its line (2.6).

use crate::common;

use common::*;
use serde_json::Value;
use std::fs;

/// The turnsheet part of a report: from its banner to the end.
fn printed_sheet_from_text(report: &str) -> String {
    let lines: Vec<&str> = report.lines().collect();
    let banner = lines
        .iter()
        .position(|l| l.contains("TURNSHEET FOR TURN"))
        .expect("the text report ends with a turnsheet");
    lines[banner - 1..].join("\n") + "\n"
}

/// The turnsheet of the web page, as a player copies it out of the browser.
fn printed_sheet_from_html(page: &str) -> String {
    let start = page.find("<pre class=\"sheet\">").expect("a turnsheet") + 19;
    let end = start + page[start..].find("</pre>").unwrap();
    page[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Fills action 1 with TAX and action 3 with DEFEND in `area`, leaving the rest blank.
fn fill(sheet: &str, area: &str) -> String {
    sheet
        .lines()
        .map(|l| match l.trim() {
            "1." => "1. TAX".to_string(),
            "3." => format!("3. DEFEND {area}"),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn every_printed_turnsheet_comes_back_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    ok(&[
        "new",
        s(&dir),
        "--map",
        s(&tutorial_map()),
        "--seed",
        "3",
        "--player",
        "EN=Ann",
        "--player",
        "SC=Bo",
        "--player",
        "IR=Cy",
        "--player",
        "WA=Di",
    ]);
    let mut filled_areas = Vec::new();
    for (i, code) in ["EN", "SC", "IR", "WA"].into_iter().enumerate() {
        let json: Value = serde_json::from_str(&stdout(&ok(&[
            "report",
            s(&dir),
            "--empire",
            code,
            "--format",
            "json",
        ])))
        .unwrap();
        let area = json["areas"][0]["code"].as_str().unwrap().to_string();
        // Half the players copy the text report's sheet, half the web page's.
        let printed = if i % 2 == 0 {
            printed_sheet_from_text(&stdout(&ok(&[
                "report",
                s(&dir),
                "--empire",
                code,
                "--format",
                "text",
            ])))
        } else {
            printed_sheet_from_html(&stdout(&ok(&[
                "report",
                s(&dir),
                "--empire",
                code,
                "--format",
                "html",
            ])))
        };
        // Returned untouched, the sheet is a valid turn of no actions.
        let blank = tmp.path().join(format!("{code}-blank.txt"));
        fs::write(&blank, &printed).unwrap();
        let out = stdout(&ok(&["check", s(&dir), "--empire", code, s(&blank)]));
        assert!(out.contains("0 errors, 0 warnings"), "{code} blank:\n{out}");
        let sheet = fill(&printed, &area);
        let path = tmp.path().join(format!("{code}.txt"));
        fs::write(&path, &sheet).unwrap();
        let out = stdout(&ok(&["check", s(&dir), "--empire", code, s(&path)]));
        assert!(
            out.contains("0 errors, 0 warnings"),
            "{code}:\n{sheet}\n{out}"
        );
        fs::copy(&path, dir.join("orders").join(format!("{code}.txt"))).unwrap();
        filled_areas.push((code, area));
    }
    ok(&["turn", s(&dir)]);
    for (code, area) in filled_areas {
        let json: Value = serde_json::from_str(&stdout(&ok(&[
            "report",
            s(&dir),
            "--empire",
            code,
            "--format",
            "json",
        ])))
        .unwrap();
        let played: Vec<(u64, String, String)> = json["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["slot"].as_u64().unwrap(),
                    a["order"].as_str().unwrap().to_string(),
                    a["status"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(
            played,
            vec![
                (1, "TAX - - -".to_string(), "done".to_string()),
                (3, format!("DEFEND {area} - -"), "done".to_string()),
            ],
            "{code}"
        );
        assert_eq!(json["computer_written"], Value::Bool(false), "{code}");
    }
}
