//! The game commands on a game kept in a database, as a GM types them: the same answers as
//! for a directory, and one clear error line when something is wrong.

use crate::common;
use empires_host::store::prelude::*;

use common::*;
use std::fs;

#[test]
fn a_game_in_sqlite_from_new_to_backup() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    let o = ok(&[
        "new", "britain", "--db", db, "--map", "tutorial", "--seed", "1", "--player", "EN=Alice",
    ]);
    assert!(
        stdout(&o).contains("empires submit britain --db"),
        "{}",
        stdout(&o)
    );
    let orders = tutorial_orders();
    let o = ok(&[
        "submit",
        "britain",
        s(&orders.join("EN.txt")),
        "--empire",
        "EN",
        "--db",
        db,
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("forecast") || out.contains("BPs"),
        "the check is shown: {out}"
    );
    assert!(out.contains("kept EN's turnsheet for turn 1"), "{out}");
    let again = stdout(&ok(&[
        "submit",
        "britain",
        s(&orders.join("EN.txt")),
        "--empire",
        "EN",
        "--db",
        db,
    ]));
    assert!(
        again.contains("the same as the turnsheet sent before"),
        "{again}"
    );
    assert!(stdout(&ok(&["status", "britain", "--db", db])).contains("EN England"));
    // A player has sent: without --yes the dummies' turns are still the computer's.
    let played = stdout(&ok(&["turn", "britain", "--db", db]));
    assert!(played.contains("orders from: EN;"), "{played}");
    for format in ["text", "json", "html"] {
        let r = stdout(&ok(&[
            "report", "britain", "--db", db, "--empire", "EN", "--format", format,
        ]));
        assert!(r.contains("England"), "{format}");
    }
    let png = tmp.path().join("en.png");
    ok(&[
        "report",
        "britain",
        "--db",
        db,
        "--empire",
        "EN",
        "--turn",
        "0",
        "--format",
        "png",
        "--out",
        s(&png),
    ]);
    assert!(fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    assert!(stdout(&ok(&["verify", "britain", "--db", db])).contains("0 differ"));
    // A consistent copy while the database is open elsewhere, and its games are whole.
    let copy = tmp.path().join("copy.db");
    ok(&["backup", "--db", db, s(&copy)]);
    let copy_url = format!("sqlite:{}", copy.display());
    assert!(stdout(&ok(&["games", "--db", &copy_url])).contains("britain: after turn 1"));
    assert!(
        stdout(&ok(&["verify", "britain", "--db", &copy_url]))
            .contains("1 turns checked, 0 differ")
    );
    let e = fails(&["backup", "--db", db, s(&copy)]);
    assert!(e.contains("already exists"), "{e}");
    // Out to a directory and back in: the directory plays on like any other.
    let dir = tmp.path().join("britain");
    ok(&["export", "britain", s(&dir), "--db", db]);
    ok(&["turn", s(&dir), "--yes"]);
    let e = fails(&["import", s(&dir), "--db", db]);
    assert!(
        e.contains("a game named \"britain\" is already kept here"),
        "{e}"
    );
    ok(&["import", s(&dir), "--db", db, "--name", "later"]);
    assert!(stdout(&ok(&["games", "--db", db])).contains("later: after turn 2"));
    let undone = stdout(&ok(&["undo", "britain", "--db", db]));
    assert!(undone.contains("turn 1 undone"), "{undone}");
}

#[test]
fn database_mistakes_are_one_clear_line() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    ok(&["new", "g", "--db", db, "--map", "tutorial", "--seed", "1"]);
    let e = fails(&["turn", "nope", "--db", db]);
    assert!(e.contains("no game named \"nope\""), "{e}");
    let e = fails(&["new", "g", "--db", db, "--map", "tutorial", "--seed", "2"]);
    assert!(e.contains("a game named \"g\" is already kept here"), "{e}");
    let e = fails(&[
        "submit",
        "g",
        s(&tutorial_orders().join("EN.txt")),
        "--empire",
        "FR",
        "--db",
        db,
    ]);
    assert!(e.contains("FR is not an empire of this game"), "{e}");
    let bad = tmp.path().join("bad.txt");
    fs::write(&bad, [0xff, 0xfe, 0x00]).unwrap();
    let e = fails(&["submit", "g", s(&bad), "--empire", "EN", "--db", db]);
    assert!(e.contains("bad.txt"), "{e}");
    let e = fails(&["turn", "g", "--db", db, "--yes", "--turn", "3"]);
    assert!(e.contains("the next turn is 1"), "{e}");
    let e = fails(&["report", "g", "--db", db, "--empire", "EN", "--turn", "4"]);
    assert!(e.contains("turn 4 has not been played"), "{e}");
    let e = fails(&[
        "status",
        "g",
        "--db",
        "postgres://someone:hunter2@127.0.0.1:1/x",
    ]);
    assert!(
        e.contains("cannot connect") && !e.contains("hunter2"),
        "{e}"
    );
    let e = fails(&["games", "--db", "redis://x"]);
    assert!(e.contains("not a database URL"), "{e}");
    let e = fails(&["export", "g", s(tmp.path()), "--db", db]);
    assert!(e.contains("not empty"), "{e}");
    // A name that would be a path (an export's folder) is refused, for every ruleset.
    for name in ["../escape", "a/b", "two words"] {
        let e = fails(&["new", name, "--db", db, "--map", "tutorial", "--seed", "1"]);
        assert!(e.contains("cannot name a game"), "{name}: {e}");
        let e = fails(&["napoleonic", "new", name, "--db", db, "--seed", "1"]);
        assert!(e.contains("cannot name a game"), "{name}: {e}");
    }
    assert!(!tmp.path().join("escape").exists());
    let listed = stdout(&ok(&["games", "--db", db]));
    assert!(!listed.contains("escape"), "{listed}");
}

/// The administrator's commands: a GM made with a password printed once, every account
/// listed, a lost password given back, each written in the account's log; the host's
/// limits shown and set.
#[test]
fn accounts_are_made_listed_and_recovered_from_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    ok(&[
        "new", "britain", "--db", db, "--map", "tutorial", "--seed", "1", "--player", "EN=Alice",
    ]);
    let made = stdout(&ok(&["accounts", "make-gm", "boss", "--db", db, "--admin"]));
    let password = |out: &str, after: &str| -> String {
        let at = out.find(after).unwrap_or_else(|| panic!("{out}")) + after.len();
        out[at..].chars().take(20).collect()
    };
    let first = password(&made, "password ");
    let list = stdout(&ok(&["accounts", "list", "--db", db]));
    assert!(list.contains("boss: GM, administrator"), "{list}");
    assert!(list.contains("Alice: player"), "{list}");
    let again = stdout(&ok(&["accounts", "reset", "boss", "--db", db]));
    let second = password(&again, "shown only now: ");
    assert_ne!(first, second);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = empires_host::store::sql::SqlStore::open(db).await.unwrap();
        let boss = store.account_by_name("boss").await.unwrap().unwrap();
        let hash = boss.password_hash.clone().unwrap();
        assert!(empires_web::auth::verify_password(&hash, &second).await);
        assert!(!empires_web::auth::verify_password(&hash, &first).await);
        assert!(boss.admin);
        let log = store.account_log(boss.id, 10).await.unwrap();
        assert!(log.iter().any(|l| l.action == "password reset"), "{log:?}");
    });
    let e = empires(&["accounts", "reset", "nobody", "--db", db]);
    assert!(!e.status.success());
    assert!(
        stderr(&e).contains("no account named \"nobody\""),
        "{}",
        stderr(&e)
    );
    // The host's limits.
    let shown = stdout(&ok(&["host", "limits", "--db", db]));
    assert!(
        shown.contains("sheets a minute from one account: 30"),
        "{shown}"
    );
    let set = stdout(&ok(&[
        "host",
        "limits",
        "--db",
        db,
        "--sheets-per-minute",
        "10",
        "--sheets-kept",
        "5",
    ]));
    assert!(
        set.contains("one account: 10") && set.contains("seat and turn: 5"),
        "{set}"
    );
    let e = empires(&["host", "limits", "--db", db, "--sheets-kept", "0"]);
    assert!(!e.status.success(), "a limit of 0 is refused");
}

/// A mistyped SQLite path is an error naming the path, and makes no empty database: only
/// the commands that start a host (`new`, `import`, `accounts make-gm`) make one.
#[test]
fn a_mistyped_database_path_makes_no_empty_host() {
    let tmp = tempfile::tempdir().unwrap();
    let typo = tmp.path().join("hsot.db");
    let url = format!("sqlite:{}", typo.display());
    for args in [
        vec!["games", "--db", url.as_str()],
        vec!["status", "britain", "--db", url.as_str()],
        vec!["schedule", "show", "britain", "--db", url.as_str()],
        vec!["mail", "log", "--db", url.as_str()],
    ] {
        let err = fails(&args);
        assert!(err.contains("there is no database at"), "{args:?}: {err}");
        assert!(err.contains("hsot.db"), "{err}");
        assert!(!typo.exists(), "{args:?} made {}", typo.display());
    }
    ok(&["accounts", "make-gm", "gm", "--db", url.as_str()]);
    assert!(typo.exists());
    ok(&["games", "--db", url.as_str()]);
}
