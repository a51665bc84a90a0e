//! A game played in steps by mail: Relay (`empires_testkit::relay`), whose steps each expect
//! one runner. A reminder goes only to the runner whose leg it is, and a sheet mailed by the
//! runner out of turn is refused with the leg at which they run next.

use crate::common::{START, outbox, world};

/// The race "race": alice runs RED, bob BLU (both read mail at the addresses the world
/// gives them).
async fn race(w: &crate::common::World) {
    let runners = [("RED", "alice"), ("BLU", "bob")];
    empires_testkit::relay_game(&w.store, "race", &runners, START).await;
}

#[tokio::test]
async fn a_reminder_goes_only_to_the_runner_whose_leg_it_is() {
    let w = world().await;
    race(&w).await;
    let before = outbox(&w.store).await.len();
    let deadline = START + 24 * 3_600_000;
    let queued =
        empires_mail::reports::queue_reminders(&w.store, &w.cfg, "race", deadline, "2h", START)
            .await
            .unwrap();
    assert_eq!(queued, 1);
    let sent = outbox(&w.store).await;
    let to: Vec<&str> = sent[before..].iter().map(|m| m.to.as_str()).collect();
    assert_eq!(
        to,
        ["alice@example.org"],
        "only RED (alice) runs the first leg"
    );
    let reminder = unfolded(&sent[before].raw);
    assert!(
        reminder.contains(
            "Subject: Reminder: orders for turn 1 (game-turn 1, leg 1 of 2: RED runs) of race are due"
        ),
        "{reminder}"
    );
    assert!(reminder.contains("stands still for the leg"), "{reminder}");
}

/// A message as text, its folded header lines and quoted-printable soft line breaks
/// undone.
fn unfolded(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("\r\n ", " ")
        .replace("\n ", " ")
}

fn mail(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: empires@localhost\r\nSubject: orders\r\nMessage-ID: <{id}@x.org>\r\n\r\n{body}")
        .into_bytes()
}

#[tokio::test]
async fn the_runner_out_of_turn_is_refused_by_mail_and_told_when_to_run() {
    let w = world().await;
    race(&w).await;
    let mut r = empires_mail::Receiver::new(&w.store, &w.cfg);
    let before = outbox(&w.store).await.len();
    let bob = mail(
        "bob@example.net",
        "bob1",
        "GAME race\r\nRUNNER BLU\r\nSTEP 1\r\nPASSWORD bob-mail-pass\r\nRUN 3\r\n",
    );
    let outcome = r.receive(&bob, bob.len(), START).await.unwrap();
    assert_eq!(outcome.word(), "refused", "{outcome:?}");
    let answers = outbox(&w.store).await;
    let answer = unfolded(&answers[before..][0].raw);
    assert!(
        answer.contains("game-turn 1, leg 2 of 2: BLU runs"),
        "{answer}"
    );
    let alice = mail(
        "alice@example.org",
        "alice1",
        &format!(
            "GAME race\r\nRUNNER RED\r\nPASSWORD {}\r\nRUN 3\r\n",
            crate::common::ALICE_PW
        ),
    );
    let outcome = r.receive(&alice, alice.len(), START).await.unwrap();
    assert_eq!(outcome.word(), "accepted", "{outcome:?}");
    let answers = outbox(&w.store).await;
    let answer = unfolded(&answers.last().unwrap().raw);
    assert!(
        answer.contains("(game-turn 1, leg 1 of 2: RED runs)"),
        "{answer}"
    );
    // A sheet with no mistakes is answered so, not with an empty list.
    assert!(
        answer.contains("What the checker found:\r\n\r\nNo mistakes found."),
        "{answer}"
    );
}

#[tokio::test]
async fn a_player_holding_two_seats_is_read_as_the_seat_the_sheet_names() {
    let w = world().await;
    // Bob runs BLU and is the crowd, GRN, too.
    let seats = [("RED", "alice"), ("BLU", "bob"), ("GRN", "bob")];
    empires_testkit::relay_game(&w.store, "race", &seats, START).await;
    let mut r = empires_mail::Receiver::new(&w.store, &w.cfg);
    let send = |id: &str, body: &str| {
        mail(
            "bob@example.net",
            id,
            &format!("GAME race\r\n{body}PASSWORD bob-mail-pass\r\n"),
        )
    };
    // The crowd's sheet is its standing orders.
    let cheer = send("b1", "RUNNER GRN\r\nCHEER BLU\r\n");
    let outcome = r.receive(&cheer, cheer.len(), START).await.unwrap();
    assert_eq!(outcome.word(), "accepted", "{outcome:?}");
    let answer = unfolded(&outbox(&w.store).await.last().unwrap().raw);
    assert!(
        answer.contains("standing orders, in force until replaced"),
        "{answer}"
    );
    // BLU's sheet, naming no step, is kept ahead for BLU's own leg.
    let run = send("b2", "RUNNER BLU\r\nRUN 2\r\n");
    let outcome = r.receive(&run, run.len(), START).await.unwrap();
    assert_eq!(outcome.word(), "accepted", "{outcome:?}");
    let answer = unfolded(&outbox(&w.store).await.last().unwrap().raw);
    assert!(
        answer.contains("game-turn 1, leg 2 of 2: BLU runs (sent ahead)"),
        "{answer}"
    );
    // A sheet naming neither seat is not guessed at.
    let which = send("b3", "RUN 2\r\n");
    let outcome = r.receive(&which, which.len(), START).await.unwrap();
    assert_eq!(outcome.word(), "refused", "{outcome:?}");
    let answer = unfolded(&outbox(&w.store).await.last().unwrap().raw);
    assert!(
        answer.contains("you hold several seats in game \"race\" (BLU, GRN)"),
        "{answer}"
    );
    let kept = w.store.games.standing("race").await.unwrap();
    assert_eq!(kept.len(), 1);
}
