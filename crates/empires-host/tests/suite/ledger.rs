//! Turn credits and prize discounts kept by the host (2.10, 11.7): a paid game charges every
//! player each turn, the computer's turns for a missing player included; a turn without a
//! credit holds its report back until a payment covers it; dropping out forfeits discounts
//! in every game; a game's end records each player's result from the ruleset.

use empires_host::ledger::{DiscountTable, Entry, Ledger};
use empires_host::store::prelude::*;
use empires_host::store::sql::{SeatBefore, SqlStore, ledger_entries_of_turn};
use empires_host::store::{Store, Submission};
use empires_host::turn::TurnOptions;
use empires_rules::setup::{NewGame as Setup, new_game};
use empires_rules::state::{VictoryClaim, VictoryCondition};
use empires_rules::{EmpireCode, Variant};

fn seat(c: &str) -> empires_host::store::SeatCode {
    empires_host::store::SeatCode::parse(c).unwrap()
}

fn code(c: &str) -> EmpireCode {
    EmpireCode::parse(c).unwrap()
}

const YES: TurnOptions = TurnOptions {
    accept_state: false,
    unreadable_as_missed: false,
    yes: true,
    expect: None,
    by: None,
};

/// The tutorial game `name` with Alice (EN) and Bob (SC); Ireland and Wales are dummies.
async fn game(store: &SqlStore, name: &str) {
    empires_testkit::tutorial_game(
        &empires_host::store::Services::of(store.clone()),
        name,
        &[("EN", "alice"), ("SC", "bob")],
        9,
        0,
    )
    .await;
}

async fn sqlite(dir: &std::path::Path) -> SqlStore {
    SqlStore::open(&format!("sqlite:{}", dir.join("host.db").display()))
        .await
        .unwrap()
}

async fn id(store: &SqlStore, name: &str) -> i64 {
    store.account_by_name(name).await.unwrap().unwrap().id
}

#[tokio::test]
async fn a_paid_game_charges_every_player_and_holds_an_unpaid_report_until_paid() {
    let tmp = tempfile::tempdir().unwrap();
    let store = sqlite(tmp.path()).await;
    game(&store, "g").await;
    store.set_paid_turns("g", true, 0).await.unwrap();
    let (alice, bob) = (id(&store, "alice").await, id(&store, "bob").await);
    store
        .enter(
            alice,
            &Entry::Bought {
                game: "g".into(),
                turns: 2,
            },
            0,
        )
        .await
        .unwrap();
    // Alice sends orders; Bob sends none and the computer writes his (2.5): both are charged.
    store
        .submit(
            "g",
            &Submission {
                empire: Some(seat("EN")),
                body: b"GAME g\n1. TAX\n".to_vec(),
                door: "test".into(),
                received_at: 1,
                for_turn: None,
                late: false,
            },
        )
        .await
        .unwrap();
    let report = store.play_turn("g", YES, 10).await.unwrap();
    assert!(report.computer_written.contains(&"SC".to_string()));
    let a = store.ledger(alice).await.unwrap().standing("g");
    let b = store.ledger(bob).await.unwrap().standing("g");
    assert_eq!((a.credits, a.unpaid_turns.len()), (1, 0));
    assert_eq!(
        (
            b.credits,
            b.unpaid_turns.iter().copied().collect::<Vec<_>>()
        ),
        (-1, vec![1])
    );
    // Dummies have no ledger; their reports are never held.
    assert_eq!(store.report_held("g", seat("IR"), 1).await.unwrap(), None);
    assert_eq!(store.report_held("g", seat("EN"), 1).await.unwrap(), None);
    let held = store.report_held("g", seat("SC"), 1).await.unwrap();
    assert!(
        held.as_deref()
            .is_some_and(|w| w.contains("waits for payment")),
        "{held:?}"
    );
    // The starting position was never charged: never held.
    assert_eq!(store.report_held("g", seat("SC"), 0).await.unwrap(), None);
    // Bob pays for ten: the oldest unpaid turn is paid first and its report is his again.
    store
        .enter(
            bob,
            &Entry::Bought {
                game: "g".into(),
                turns: 10,
            },
            20,
        )
        .await
        .unwrap();
    assert_eq!(store.report_held("g", seat("SC"), 1).await.unwrap(), None);
    assert_eq!(store.ledger(bob).await.unwrap().standing("g").credits, 9);
    // A free game charges nothing.
    game(&store, "free").await;
    store.play_turn("free", YES, 30).await.unwrap();
    assert_eq!(store.ledger(bob).await.unwrap().standing("free").credits, 0);
    assert!(
        store
            .ledger(bob)
            .await
            .unwrap()
            .standing("free")
            .unpaid_turns
            .is_empty()
    );
}

#[tokio::test]
async fn a_player_who_drops_out_forfeits_discounts_in_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    let store = sqlite(tmp.path()).await;
    game(&store, "old").await;
    game(&store, "g").await;
    let bob = id(&store, "bob").await;
    // Bob won a game elsewhere and the GM carried his discount here.
    store
        .enter(
            bob,
            &Entry::Earned {
                game: "old".into(),
                category: "points-win".into(),
            },
            0,
        )
        .await
        .unwrap();
    store
        .enter(
            bob,
            &Entry::Carried {
                from: "old".into(),
                to: "g".into(),
                discount: 1,
            },
            0,
        )
        .await
        .unwrap();
    assert_eq!(store.ledger(bob).await.unwrap().total_discount(), 2);
    // A carry of more than he holds is refused in plain words, and nothing is kept.
    let err = store
        .enter(
            bob,
            &Entry::Carried {
                from: "old".into(),
                to: "g".into(),
                discount: 5,
            },
            0,
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("holds only 1"), "{err}");
    // Three missed turns in a row: dropped out (decision 21), every discount gone (11.7).
    for t in 1..=3 {
        store.play_turn("g", YES, t).await.unwrap();
    }
    let ledger = store.ledger(bob).await.unwrap();
    assert_eq!(ledger.total_discount(), 0);
    let entries = store.ledger_entries(bob).await.unwrap();
    assert_eq!(
        entries
            .iter()
            .filter(|(_, e)| matches!(e, Entry::DroppedOut { .. }))
            .count(),
        1,
        "once, when the seat drops out"
    );
}

#[test]
fn the_end_of_a_game_records_each_players_result_as_the_ruleset_names_it() {
    let map = empires_maps::standard::load("tutorial").unwrap().unwrap();
    let mut state = new_game(
        &map,
        &Setup {
            name: "end".into(),
            variant: Variant::World,
            seed: 9,
            players: [
                (code("EN"), "alice".into()),
                (code("SC"), "bob".into()),
                (code("IR"), "carol".into()),
                (code("WA"), "dave".into()),
            ]
            .into_iter()
            .collect(),
            options: Default::default(),
        },
    )
    .unwrap();
    state.turn = 20;
    for e in &mut state.empires {
        match e.code.as_str() {
            "IR" => e.eliminated = Some(12),
            "WA" => e.missed_turns = 5,
            _ => {}
        }
    }
    let before: Vec<SeatBefore> = [("EN", 1), ("SC", 2), ("IR", 3), ("WA", 4)]
        .iter()
        .map(|(e, a)| (e.to_string(), Some(*a), "playing".to_string()))
        .collect();
    let claim = VictoryClaim {
        turn: 20,
        empire: code("EN"),
        condition: VictoryCondition::Points,
        vps: 40,
    };
    let entries_of = |state: &mut empires_rules::GameState, claim: &VictoryClaim| {
        state.result = Some(claim.clone());
        let seats = empires_ruleset::ruleset::seats_of(state);
        let finished = empires_ruleset::ruleset::finished(state);
        ledger_entries_of_turn(("end", 20), false, &before, &seats, finished.as_ref())
    };
    let entries = entries_of(&mut state, &claim);
    let earned: Vec<(i64, String)> = entries
        .iter()
        .filter_map(|(a, e)| match e {
            Entry::Earned { category, .. } => Some((*a, category.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        earned,
        [
            (1, "points-win".to_string()),
            (2, "survived-points-win".to_string()),
            (3, "knocked-out".to_string()),
        ],
        "the winner, a survivor, a player knocked out while playing; no result for a dropout"
    );
    assert!(
        entries
            .iter()
            .any(|(a, e)| *a == 4 && matches!(e, Entry::DroppedOut { .. })),
        "dave dropped out with this turn"
    );
    // Under the default table (11.7): 2, 1 and 1 turns of discount.
    let table = DiscountTable::default();
    let mut got = Vec::new();
    for (account, _) in &earned {
        let mine: Vec<Entry> = entries
            .iter()
            .filter(|(a, _)| a == account)
            .map(|(_, e)| e.clone())
            .collect();
        got.push(Ledger::replay(&mine, &table).unwrap().total_discount());
    }
    assert_eq!(got, [2, 1, 1]);
    // A runaway win is worth three.
    let runaway = VictoryClaim {
        condition: VictoryCondition::Runaway,
        ..claim
    };
    let entries = entries_of(&mut state, &runaway);
    assert!(entries.iter().any(|(a, e)| *a == 1
        && matches!(e, Entry::Earned { category, .. } if category == "runaway-win")));
    assert!(
        entries.iter().any(|(a, e)| *a == 2
            && matches!(e, Entry::Earned { category, .. } if category == "survived"))
    );
    assert_eq!(
        table.discount_for("survived"),
        0,
        "11.7 gives nothing for surviving a runaway win"
    );
}

/// Napoleonic Empires, 2.10: Royalty is bought with the GM's fee. A GM's ruling
/// `ROYALTY FRA FEE 5` charges France's player 5 credits when the turn makes the ruler
/// Royalty, in a game the GM marked paid (its turns themselves cost nothing: the rulebook
/// charges only the fee); a game played for free charges nothing.
#[tokio::test]
async fn a_royalty_ruling_charges_the_gms_fee_in_a_game_marked_paid() {
    for paid in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        let store = sqlite(tmp.path()).await;
        let services = empires_host::store::Services::of(store.clone());
        store
            .create_account(
                "alice",
                None,
                empires_host::store::sql::Role::Player,
                None,
                0,
            )
            .await
            .unwrap();
        empires_testkit::napoleonic_game(&services, "europe", &[("FRA", "alice")], 3, 0).await;
        store.set_paid_turns("europe", paid, 0).await.unwrap();
        let alice = id(&store, "alice").await;
        store
            .enter(
                alice,
                &Entry::Bought {
                    game: "europe".into(),
                    turns: 10,
                },
                0,
            )
            .await
            .unwrap();
        let opened = empires_host::submit::open(&store, "europe").await.unwrap();
        let rulings = Submission {
            empire: None,
            body: b"ROYALTY FRA FEE 5\n".to_vec(),
            door: "test".into(),
            received_at: 1,
            for_turn: None,
            late: false,
        };
        let accepted = empires_host::submit::accept_rulings(
            &store,
            "europe",
            opened.as_ref(),
            &rulings,
            "rulings.txt",
        )
        .await
        .unwrap();
        assert_eq!(accepted.errors(), 0);
        store.play_turn("europe", YES, 10).await.unwrap();
        let standing = store.ledger(alice).await.unwrap().standing("europe");
        // Ten bought; the turn itself is free; the fee where the game is marked paid.
        let want = if paid { 10 - 5 } else { 10 };
        assert_eq!(standing.credits, want, "paid turns: {paid}");
        let state = store
            .turn_file("europe", 1, "state.json", None)
            .await
            .unwrap();
        let state: serde_json::Value = serde_json::from_slice(&state).unwrap();
        assert_eq!(state["kingdoms"]["FRA"]["status"], "royalty");
    }
}
