//! For the tests of the host and its doors, and nothing else (no program depends on this
//! crate): the tutorial game every door's tests play
//! ([`tutorial_game`]), and PostgreSQL: a fresh database of its own for each test, on the server that
//! `DATABASE_URL` names. Without `DATABASE_URL` a test that needs PostgreSQL says it was
//! skipped and passes, so that the tests run on a machine without a server; with
//! `EMPIRES_REQUIRE_POSTGRES=1` (as the project's CI sets) a missing or unreachable server
//! fails the test instead.

pub mod relay;

use sqlx::Connection;

/// The URL of a new, empty database named for `tag` on the server `DATABASE_URL` names, or
/// `None` when no server is configured (the test is then skipped, and says so).
pub async fn fresh_postgres(tag: &str) -> Option<String> {
    let required = std::env::var("EMPIRES_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
    let Ok(base) = std::env::var("DATABASE_URL") else {
        assert!(
            !required,
            "EMPIRES_REQUIRE_POSTGRES=1 but DATABASE_URL is not set"
        );
        eprintln!(
            "skipped on PostgreSQL: set DATABASE_URL=postgres://user@host/db to run {tag} there"
        );
        return None;
    };
    let name = format!("empires_test_{tag}_{}", std::process::id());
    let mut admin = match sqlx::PgConnection::connect(&base).await {
        Ok(c) => c,
        Err(e) => panic!("DATABASE_URL is set but PostgreSQL cannot be reached: {e}"),
    };
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .expect("dropping an old test database");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("creating a test database");
    Some(with_database(&base, &name))
}

/// Drops a database [`fresh_postgres`] made.
pub async fn drop_postgres(url: &str) {
    let Ok(base) = std::env::var("DATABASE_URL") else {
        return;
    };
    let name = url
        .rsplit('/')
        .next()
        .unwrap_or("")
        .split('?')
        .next()
        .unwrap_or("");
    if let Ok(mut admin) = sqlx::PgConnection::connect(&base).await {
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut admin)
            .await;
    }
}

/// `url` with its database replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((h, q)) => (h, format!("?{q}")),
        None => (url, String::new()),
    };
    let scheme_end = head.find("://").map_or(0, |i| i + 3);
    let base = match head[scheme_end..].find('/') {
        Some(i) => &head[..scheme_end + i],
        None => head,
    };
    format!("{base}/{name}{query}")
}

/// Creates the tutorial game `name` in `store`, set up from `seed` at time `at`, with a
/// player for each (empire code, account name) given; the other empires are dummies. The
/// game every door's tests play.
pub async fn tutorial_game(
    store: &empires_host::store::Services,
    name: &str,
    players: &[(&str, &str)],
    seed: u64,
    at: empires_host::store::Millis,
) {
    use empires_ruleset::ruleset::EmpiresStore;
    let standard = empires_maps::standard::find("tutorial").expect("the tutorial map");
    let map = empires_ruleset::gamedir::parse_map(standard.text, standard.file)
        .expect("the tutorial map");
    let mut setup = empires_rules::setup::NewGame::without_players(
        name,
        map.variant.unwrap_or(empires_rules::Variant::World),
        seed,
    );
    for (code, player) in players {
        let code = empires_rules::EmpireCode::parse(code).expect("an empire's code");
        setup.players.insert(code, player.to_string());
    }
    let state =
        empires_ruleset::create::start(&map, standard.file, &setup).expect("a tutorial game");
    store
        .games
        .create(&empires_ruleset::ruleset::NewGame {
            name,
            map_text: standard.text,
            map: &map,
            state: &state,
            created_at: at,
        })
        .await
        .expect("the game kept");
}

/// Hands the host every ruleset the program is built with, as the program does when it
/// starts: a test that reads a game of any ruleset but Empires calls this first.
pub fn rulesets() {
    rulesets::install();
}

/// [`rulesets`] and, beside them, Relay ([`relay`]), the game written for the tests of the
/// step model: for a test program's start, before any test runs.
pub fn rulesets_and_relay() {
    let mut all = rulesets::ALL.to_vec();
    all.push(&relay::Relay);
    empires_host::ruleset::install(&all).expect("the tests install one list of rulesets");
}

/// Creates the Napoleonic Empires game `name` on the standard map of Europe in `store`,
/// set up from `seed` at time `at`, and gives each (kingdom code, account name) its seat;
/// the accounts must exist. The game the doors' tests of a second ruleset play.
pub async fn napoleonic_game(
    store: &empires_host::store::Services,
    name: &str,
    players: &[(&str, &str)],
    seed: u64,
    at: empires_host::store::Millis,
) {
    rulesets();
    let napoleonic = empires_host::ruleset::by_id("napoleonic").expect("the Napoleonic ruleset");
    let setup = empires_host::ruleset::Setup {
        name: name.into(),
        seed,
        map: None,
        seats: Vec::new(),
        ..Default::default()
    };
    let started = napoleonic.create(&setup).expect("a Napoleonic game");
    store
        .games
        .create_game(name, napoleonic, &started, at)
        .await
        .expect("the game kept");
    for (seat, player) in players {
        let account = store
            .accounts
            .account_by_name(player)
            .await
            .expect("the accounts")
            .expect("an account for each player");
        let seat = seat.parse().expect("a kingdom's code");
        store
            .accounts
            .assign_seat(name, seat, Some(account.id), 0)
            .await
            .expect("the seat given");
    }
}

/// Creates the Relay race `name` ([`relay`]) in `store` at time `at`, and gives each
/// (seat, account name) its seat; the accounts must exist. The game the tests of turns
/// played in steps play.
pub async fn relay_game(
    store: &empires_host::store::Services,
    name: &str,
    players: &[(&str, &str)],
    at: empires_host::store::Millis,
) {
    relay_game_with(store, name, players, &[], at).await;
}

/// [`relay_game`], started with the game's `options` (`finish`, `open_cheers`).
pub async fn relay_game_with(
    store: &empires_host::store::Services,
    name: &str,
    players: &[(&str, &str)],
    options: &[(&str, &str)],
    at: empires_host::store::Millis,
) {
    use empires_host::ruleset::Ruleset;
    let setup = empires_host::ruleset::Setup {
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    };
    let started = relay::Relay.start(&setup).expect("a race");
    let relay = empires_host::ruleset::by_id("relay").expect("Relay installed beside the rulesets");
    store
        .games
        .create_game(name, relay, &started, at)
        .await
        .expect("the race kept");
    for (seat, player) in players {
        let account = store
            .accounts
            .account_by_name(player)
            .await
            .expect("the accounts")
            .expect("an account for each runner");
        store
            .accounts
            .assign_seat(
                name,
                seat.parse().expect("a seat's code"),
                Some(account.id),
                at,
            )
            .await
            .expect("the seat given");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_database_is_replaced_in_the_url() {
        assert_eq!(
            super::with_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://u@h/test?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
        assert_eq!(
            super::with_database("postgres://u@h", "x"),
            "postgres://u@h/x"
        );
    }
}
