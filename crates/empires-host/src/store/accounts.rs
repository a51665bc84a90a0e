//! The host's accounts, as the doors ask for them: players, GMs and the admin; their
//! passwords, sessions, API tokens and one-time links; who plays or runs which game; the
//! invitations to a seat; the limits on logging in; each account's own log.

use super::sql::{
    Account, AccountLogLine, GameEntry, Invitation, LinkPurpose, Role, Seat, TokenEntry,
};
use super::{Millis, SeatCode};
use crate::error::Result;

/// The accounts themselves: players, GMs and the admin, their passwords, sessions, API
/// tokens and one-time links, and who plays or runs which game.
#[async_trait::async_trait]
pub trait AccountRecords: Send + Sync {
    /// A new account; refused as a conflict when the name is taken.
    async fn create_account(
        &self,
        name: &str,
        email: Option<&str>,
        role: Role,
        password_hash: Option<&str>,
        now: Millis,
    ) -> Result<i64>;

    /// A player's account made by the GM `gm` for its game `game`, without a password: until
    /// its owner sets one of their own, that GM may hand it an invitation link or a mail
    /// password ([`SqlStore::manages`]); no other GM ever may.
    async fn create_managed_account(
        &self,
        name: &str,
        gm: i64,
        game: &str,
        now: Millis,
    ) -> Result<i64>;

    /// How many mails of `kind` were queued for `account` since `since`: a limit on mail a
    /// stranger can make the host send to an account's owner.
    async fn mail_count_since(&self, account: i64, kind: &str, since: Millis) -> Result<i64>;

    /// Records whether the owner has shown the account's address to be theirs.
    async fn set_email_verified(&self, account: i64, verified: bool) -> Result<()>;

    /// Marks an account the game's creation just made (without a password) as held by the
    /// GM `gm` for its game `game`, as [`SqlStore::create_managed_account`] would have.
    async fn mark_managed(&self, account: i64, gm: i64, game: &str) -> Result<()>;

    /// Whether the GM `gm` still holds `account` for its game `game`: it made the account
    /// for that game, and the owner has not set a password of their own since.
    async fn manages(&self, gm: i64, account: i64, game: &str) -> Result<bool>;

    /// Makes an account a GM (`Role::Gm`) or a player, and the host administrator or not.
    async fn set_role(&self, account: i64, role: Role, admin: bool) -> Result<()>;

    /// Makes the first GM the host administrator when the host has none (a database from
    /// before there were administrators, or one whose GMs were all made at the command
    /// line); its name, when one was made.
    async fn ensure_admin(&self) -> Result<Option<String>>;

    /// The account of that name, if there is one.
    async fn account_by_name(&self, name: &str) -> Result<Option<Account>>;

    /// Sets the SHA-256 of the account's feed secret (`None`: no feeds); a new password
    /// clears it, which revokes the feeds' URLs.
    async fn set_feed(&self, account: i64, token_sha256: Option<&str>) -> Result<()>;

    /// The account whose feed secret has that SHA-256, if one has.
    async fn account_by_feed(&self, token_sha256: &str) -> Result<Option<i64>>;

    /// Whether the account has feeds.
    async fn has_feed(&self, account: i64) -> Result<bool>;

    /// The account with that id.
    async fn account(&self, id: i64) -> Result<Account>;

    /// Every account, by name: for the GM choosing who takes a seat.
    async fn accounts(&self) -> Result<Vec<Account>>;

    /// How many GM accounts the host has.
    async fn gm_count(&self) -> Result<i64>;

    /// Sets an account's password hash, ends every session it had, revokes its API tokens
    /// and forgets the browsers it logged in from (which the log-in limit lets through), so
    /// that a changed or reset password shuts out whoever knew the old one or holds a token
    /// made with it. A GM's hold on the account ends with it: a password is
    /// set by the account's owner (or, for a GM, by the host administrator).
    async fn set_password(&self, account: i64, hash: &str, now: Millis) -> Result<()>;

    /// Starts a log-in session, known by the SHA-256 of its cookie.
    async fn create_session(
        &self,
        token_sha256: &str,
        account: i64,
        csrf: &str,
        now: Millis,
        expires_at: Millis,
    ) -> Result<()>;

    /// The account and CSRF token of a session that has not expired.
    async fn session(&self, token_sha256: &str, now: Millis) -> Result<Option<(Account, String)>>;

    /// Ends a session (log-out), and drops every expired one.
    async fn end_session(&self, token_sha256: &str, now: Millis) -> Result<()>;

    /// A new API token for an account, known by its SHA-256.
    async fn create_token(
        &self,
        account: i64,
        label: &str,
        token_sha256: &str,
        now: Millis,
    ) -> Result<i64>;

    /// An account's API tokens, newest first.
    async fn tokens(&self, account: i64) -> Result<Vec<TokenEntry>>;

    /// Revokes one of an account's tokens; `false` if it has no such live token.
    async fn revoke_token(&self, account: i64, id: i64, now: Millis) -> Result<bool>;

    /// The account a live API token belongs to.
    async fn token_account(&self, token_sha256: &str) -> Result<Option<Account>>;

    /// Keeps a one-time link for `account`, known by its SHA-256, good until `expires_at`.
    async fn create_link(
        &self,
        token_sha256: &str,
        purpose: LinkPurpose,
        account: i64,
        created_by: i64,
        now: Millis,
        expires_at: Millis,
    ) -> Result<()>;

    /// The account a live, unused link is for, without using it up.
    async fn link_account(
        &self,
        token_sha256: &str,
        purpose: LinkPurpose,
        now: Millis,
    ) -> Result<Option<Account>>;

    /// Uses a link up and sets the password it was for, in one transaction: of two uses of
    /// the same link at once, one sets the password and the other is told the link is
    /// spent. Every session of the account ends and every token is revoked, and the GM that
    /// made the account no longer holds it: its owner has a password of their own.
    async fn redeem_link(
        &self,
        token_sha256: &str,
        purpose: LinkPurpose,
        password_hash: &str,
        now: Millis,
    ) -> Result<Option<i64>>;

    /// The games an account plays, with its empire in each, by name.
    async fn games_played_by(&self, account: i64) -> Result<Vec<GameEntry>>;

    /// The games an account plays, each once however many of its seats it holds: (name,
    /// title), by name.
    async fn games_of(&self, account: i64) -> Result<Vec<(String, String)>> {
        let mut games: Vec<(String, String)> = self
            .games_played_by(account)
            .await?
            .into_iter()
            .map(|g| (g.name, g.title))
            .collect();
        games.sort();
        games.dedup();
        Ok(games)
    }

    /// The games a GM runs, by name.
    async fn games_run_by(&self, account: i64) -> Result<Vec<GameEntry>>;

    /// The GM account that runs a game, if any; not found if there is no such game.
    async fn game_gm(&self, game: &str) -> Result<Option<i64>>;

    /// Gives a game to a GM to run.
    async fn set_game_gm(&self, game: &str, gm: i64) -> Result<()>;

    /// Gives every game no GM runs (made at the command line) to `gm`; their names.
    async fn adopt_games(&self, gm: i64) -> Result<Vec<String>>;

    /// The empire an account plays in a game, if it holds a seat there (the first by code,
    /// where it holds several).
    async fn seat_of(&self, game: &str, account: i64) -> Result<Option<SeatCode>>;

    /// Every seat an account holds in a game, by code: one player may hold several (a
    /// country split in two stays with its player).
    async fn seats_of(&self, game: &str, account: i64) -> Result<Vec<SeatCode>>;

    /// Every seat of a game, in the order of its empires' codes.
    async fn seats(&self, game: &str) -> Result<Vec<Seat>>;

    /// Gives an empire's seat to an account (or to no one, `None`): who may log in and play
    /// it from now on (2.5: a replacement player takes over the empire as it stands).
    ///
    /// Invitations to the seat still waiting are withdrawn: the GM has given it otherwise.
    async fn assign_seat(
        &self,
        game: &str,
        empire: SeatCode,
        account: Option<i64>,
        now: Millis,
    ) -> Result<()>;

    /// Records an action in a game's audit log, with the account that took it.
    async fn audit_by(
        &self,
        game: Option<&str>,
        account: i64,
        at: Millis,
        action: &str,
        detail: &str,
    ) -> Result<()>;

    /// A game's audit log with who did each thing, oldest first: (time, account name,
    /// action, detail).
    async fn audit_entries(
        &self,
        game: &str,
    ) -> Result<Vec<(Millis, Option<String>, String, String)>>;

    /// The latest turnsheet an empire sent for a turn: (bytes, SHA-256, time received).
    async fn latest_sheet(
        &self,
        game: &str,
        empire: SeatCode,
        for_turn: u32,
    ) -> Result<Option<(Vec<u8>, String, Millis)>>;

    /// What a game's stored turn is at: (turn, runs), where runs counts every turn played
    /// and taken back. A door that keeps a game in memory compares it to know when the game
    /// was moved on, or back, by another process.
    async fn version(&self, game: &str) -> Result<(u32, i64)>;

    /// How many turnsheets a game holds, of every turn: to count what a load test sent.
    async fn sheet_count(&self, game: &str) -> Result<i64>;
}

/// Each account's own log: what was done to it and by it.
#[async_trait::async_trait]
pub trait AccountLog: Send + Sync {
    /// Writes a line in `account`'s log.
    async fn log_account(
        &self,
        account: i64,
        actor: Option<i64>,
        game: Option<&str>,
        at: Millis,
        action: &str,
        detail: &str,
    ) -> Result<()>;

    /// `account`'s log, newest first, at most `limit` lines.
    async fn account_log(&self, account: i64, limit: i64) -> Result<Vec<AccountLogLine>>;
}

/// Invitations to a seat, and their answers.
#[async_trait::async_trait]
pub trait Invitations: Send + Sync {
    /// Invites `account` to `seat` of `game` on behalf of the GM `by`.
    async fn invite_to_seat(
        &self,
        game: &str,
        seat: SeatCode,
        account: i64,
        by: i64,
        now: Millis,
    ) -> Result<i64>;

    /// The invitations waiting for `account`'s answer, oldest first.
    async fn invitations_for(&self, account: i64) -> Result<Vec<Invitation>>;

    /// The invitations to a game's seats still waiting for an answer, oldest first.
    async fn invitations_of_game(&self, game: &str) -> Result<Vec<Invitation>>;

    /// `account`'s answer to its invitation `id`: when it accepts, the seat is the
    /// account's from now on, and every other invitation to that seat is withdrawn, in one
    /// transaction. The invitation as it was, or `None` if `account` has no such invitation
    /// waiting.
    async fn answer_invitation(
        &self,
        id: i64,
        account: i64,
        accept: bool,
        now: Millis,
    ) -> Result<Option<Invitation>>;
}

/// Mail addresses and their proof.
#[async_trait::async_trait]
pub trait Addresses: Send + Sync {
    /// Sets an account's address (`None` for none) and whether its reports are mailed. A
    /// changed address is not verified until [`SqlStore::verify_email`] says so, or
    /// `verified` is given (the host's operator vouches for it); an address another account
    /// holds is refused. Whether the address now waits to be verified.
    async fn set_address(
        &self,
        account: i64,
        email: Option<&str>,
        mail_reports: bool,
        verified: bool,
    ) -> Result<bool>;

    /// Keeps a link that proves `email` is `account`'s, known by its SHA-256.
    async fn create_email_link(
        &self,
        token_sha256: &str,
        account: i64,
        email: &str,
        now: Millis,
        expires_at: Millis,
    ) -> Result<()>;

    /// Uses up a link that proves an address, if it is live and the account still holds
    /// the address it was mailed to: the address is verified. The account and address,
    /// or `None`.
    async fn verify_email(&self, token_sha256: &str, now: Millis) -> Result<Option<(i64, String)>>;
}

/// The limits on logging in, and the devices that skip them.
#[async_trait::async_trait]
pub trait LoginLimits: Send + Sync {
    /// Reserves one log-in try on each of `keys` (a key and the tries it may have within
    /// `window`), all or none: `true` when every key had a try left and each has been
    /// counted, `false` when one had none and nothing was counted. The keys are taken in a
    /// fixed order, so that two attempts sharing keys cannot deadlock on PostgreSQL.
    async fn reserve_login_try(
        &self,
        keys: &[(&str, i64)],
        now: Millis,
        window: Millis,
    ) -> Result<bool>;

    /// Gives back a try reserved on each key (the password was right: it was no failure).
    async fn release_login_try(&self, keys: &[&str]) -> Result<()>;

    /// Forgets a key's count.
    async fn clear_login_tries(&self, key: &str) -> Result<()>;

    /// Drops the counts whose window has passed and the devices that have expired. On
    /// PostgreSQL a row another attempt holds locked just now is left for the next time:
    /// waiting for it, while holding the rows already deleted, could deadlock with that
    /// attempt (it is renewing the row anyway).
    async fn prune_login_limits(&self, now: Millis, window: Millis) -> Result<()>;

    /// Every count kept, by key: (key, tries, window start). For the tests and for a host
    /// looking into who is being refused.
    async fn login_limits(&self) -> Result<Vec<(String, i64, Millis)>>;

    /// Remembers a browser that logged in to `account`, by its device cookie's SHA-256,
    /// until `expires_at`; of the account's devices only the `keep` that expire last are
    /// kept, so that a browser throwing its cookies away cannot grow the table.
    async fn add_login_device(
        &self,
        token_sha256: &str,
        account: i64,
        now: Millis,
        expires_at: Millis,
        keep: i64,
    ) -> Result<()>;

    /// The account a live device cookie (by its SHA-256) was given to, if any.
    async fn login_device(&self, token_sha256: &str, now: Millis) -> Result<Option<i64>>;

    /// Keeps a device known until `expires_at` (it has just logged in again).
    async fn renew_login_device(&self, token_sha256: &str, expires_at: Millis) -> Result<()>;

    /// How many devices an account has that have not expired.
    async fn login_device_count(&self, account: i64, now: Millis) -> Result<i64>;
}

/// Everything the host keeps of its accounts, as one trait a door holds
/// (`Arc<dyn Accounts>`, [`super::Services`]): bring the traits it is made of into scope
/// (`use empires_host::store::accounts::*`) to call them.
pub trait Accounts: AccountRecords + AccountLog + Invitations + Addresses + LoginLimits {}

impl<T: AccountRecords + AccountLog + Invitations + Addresses + LoginLimits> Accounts for T {}
