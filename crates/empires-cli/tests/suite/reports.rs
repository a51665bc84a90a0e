//! Reports written by `empires turn` and printed by `empires report`.

use crate::common;

use common::*;
use std::fs;

#[test]
fn every_turn_writes_every_report_and_report_prints_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    ok(&["new", s(&dir), "--map", s(&tutorial_map()), "--seed", "5"]);
    // The starting position has its reports too.
    assert!(dir.join("turns/0000/reports/EN.txt").exists());
    for f in fs::read_dir(tutorial_orders()).unwrap() {
        let f = f.unwrap().path();
        fs::copy(&f, dir.join("orders").join(f.file_name().unwrap())).unwrap();
    }
    ok(&["turn", s(&dir)]);
    let reports = dir.join("turns/0001/reports");
    for code in ["EN", "SC", "IR", "WA"] {
        for ext in ["json", "txt", "html"] {
            assert!(
                reports.join(format!("{code}.{ext}")).exists(),
                "{code}.{ext}"
            );
        }
    }
    assert!(
        fs::read_to_string(reports.join("gm.txt"))
            .unwrap()
            .starts_with("GM SUMMARY")
    );
    let text = stdout(&ok(&["report", s(&dir), "--empire", "WA"]));
    assert!(text.contains("YOUR ACTIONS, TURN 1"), "{text}");
    assert!(text.contains("TURNSHEET FOR TURN 2"), "{text}");
    let json = stdout(&ok(&[
        "report",
        s(&dir),
        "--empire",
        "WA",
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["empire"]["code"], "WA");
    let html = stdout(&ok(&[
        "report",
        s(&dir),
        "--empire",
        "WA",
        "--format",
        "html",
        "--turn",
        "0",
    ]));
    assert!(html.starts_with("<!DOCTYPE html>"));
    let e = fails(&["report", s(&dir), "--empire", "WA", "--turn", "9"]);
    assert!(e.contains("turn 9 has not been played"), "{e}");
}

#[test]
fn rule_10_6_gm_messages_reach_every_report() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    ok(&["new", s(&dir), "--map", s(&tutorial_map()), "--seed", "5"]);
    fs::write(
        dir.join("orders/gm.txt"),
        "Welcome to the game.\nDeadlines are on Fridays.\n\nWales is now played by Carol.\n",
    )
    .unwrap();
    let o = ok(&["turn", s(&dir)]);
    assert!(!stderr(&o).contains("gm.txt"), "{}", stderr(&o));
    for code in ["EN", "WA"] {
        let text = stdout(&ok(&["report", s(&dir), "--empire", code]));
        assert!(
            text.contains("From GM: Welcome to the game. Deadlines are on Fridays."),
            "{text}"
        );
        assert!(
            text.contains("From GM: Wales is now played by Carol."),
            "{text}"
        );
    }
    // The messages are kept with the turn's orders.
    assert!(dir.join("turns/0001/orders/gm.txt").exists());
}

/// The turn keeps the roundup, the actions report and the messages once (`public.*`);
/// `empires report` gives every form whole, from a directory and from a database alike, and
/// the same bytes from both.
#[test]
fn report_prints_the_whole_report_with_the_parts_kept_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    new_tutorial(&dir);
    copy_tutorial_orders(&dir);
    ok(&["turn", s(&dir)]);
    let reports = dir.join("turns/0001/reports");
    for f in ["public.json", "public.txt", "public.html", "public.js"] {
        assert!(reports.join(f).exists(), "{f}");
    }
    let kept = fs::read_to_string(reports.join("EN.txt")).unwrap();
    assert!(kept.contains("see public.txt") && !kept.contains("\nACTIONS REPORT\n"));
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    ok(&["import", s(&dir), "--db", &url, "--name", "g"]);
    for format in ["text", "json", "html"] {
        let from_dir = stdout(&ok(&[
            "report",
            s(&dir),
            "--empire",
            "EN",
            "--format",
            format,
        ]));
        let from_db = stdout(&ok(&[
            "report", "g", "--db", &url, "--empire", "EN", "--format", format,
        ]));
        assert_eq!(from_dir, from_db, "{format}");
        match format {
            "text" => assert!(
                from_dir.contains("\nROUNDUP\n")
                    && from_dir.contains("\nACTIONS REPORT\n")
                    && !from_dir.contains("see public.txt")
            ),
            "json" => {
                assert!(from_dir.contains("\"roundup\":") && !from_dir.contains("\"shared_in\""))
            }
            _ => assert!(
                from_dir.contains("<h2>Actions report</h2>")
                    && !from_dir.contains("href=\"public.html\"")
                    && !from_dir.contains("<script src=")
                    && from_dir.contains("<use id=\"o-LON\"")
            ),
        }
    }
}
