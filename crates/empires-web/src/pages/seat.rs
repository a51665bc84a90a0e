//! Giving a seat from the GM's console (2.5: a replacement player takes the empire over as
//! it stands), so that no typing slip makes an account or hands a seat to a stranger:
//!
//! - an empty box frees the seat (the computer plays it);
//! - an account's name gives the seat to an account this GM made for the game, or invites
//!   any other account, whose owner accepts on their games page (told by mail when the
//!   host sends mail and their address is confirmed);
//! - a name no account has is refused unless "new account" is ticked: then an account of
//!   that name is made, which this GM holds until its owner sets a password (the GM hands
//!   them the invitation link);
//! - a mail address invites the player by mail: the account whose confirmed address it is,
//!   or else a new account held by this GM, to which the host mails the invitation link
//!   (using it confirms the address).

use super::console::{
    LINK_LIFE, announce_player, back, check_account_name, console_error, empire_of,
};
use super::schedule::audit;
use crate::access::gm_of;
use crate::auth::{CsrfForm, Me, new_secret, secret_hash};
use crate::failure::Failure;
use crate::host::Host;
use axum::extract::{Path, State};
use axum::response::Response;
use empires_host::store::{LinkPurpose, SeatCode};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct SeatForm {
    #[serde(default)]
    empire: String,
    #[serde(default)]
    account: String,
    /// Ticked: a name no account has makes one.
    #[serde(default)]
    new: Option<String>,
}

/// `POST /games/{game}/console/seat`.
pub async fn give(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<SeatForm>,
) -> Result<Response, Failure> {
    let me = &form.me;
    gm_of(&host, &me.account, &game).await?;
    let empire = empire_of(&form.form.empire)?;
    let name = form.form.account.trim();
    let now = host.now();
    if name.is_empty() {
        host.store
            .accounts
            .assign_seat(&game, empire, None, now)
            .await?;
        audit(
            &host,
            &game,
            me.account.id,
            "gave a seat",
            &format!("{empire} to no one"),
        )
        .await?;
        return Ok(back(&game, "freed"));
    }
    if name.contains('@') {
        return by_mail(&host, me, &game, empire, name).await;
    }
    check_account_name(name)?;
    match host.store.accounts.account_by_name(name).await? {
        None if form.form.new.is_none() => {
            let why = format!(
                "No account is named \"{name}\", and {empire}'s seat was left as it was. To invite a player by mail, give their address; to make an account of that name for them, tick \"new account\"."
            );
            console_error(&host, me, &game, why, None).await
        }
        None => {
            let account = host
                .store
                .accounts
                .create_managed_account(name, me.account.id, &game, now)
                .await?;
            seat_held(&host, me, &game, (empire, account, name), "made for a seat").await?;
            Ok(back(&game, "seat"))
        }
        Some(a)
            if host
                .store
                .accounts
                .manages(me.account.id, a.id, &game)
                .await? =>
        {
            seat_held(&host, me, &game, (empire, a.id, name), "given a seat").await?;
            Ok(back(&game, "seat"))
        }
        Some(a) => {
            invite(&host, me, &game, empire, (a.id, name)).await?;
            Ok(back(&game, "invited"))
        }
    }
}

/// Gives `empire` to an account this GM holds for the game: the game is told who plays it,
/// and the player gets the report of the turn now waiting by mail.
async fn seat_held(
    host: &Host,
    me: &Me,
    game: &str,
    (empire, account, name): (SeatCode, i64, &str),
    action: &str,
) -> Result<(), Failure> {
    let now = host.now();
    host.store
        .accounts
        .assign_seat(game, empire, Some(account), now)
        .await?;
    announce_player(host, game, empire, name).await?;
    host.mail_current_report(game, account).await?;
    audit(
        host,
        game,
        me.account.id,
        "gave a seat",
        &format!("{empire} to {name}"),
    )
    .await?;
    host.store
        .accounts
        .log_account(
            account,
            Some(me.account.id),
            Some(game),
            now,
            action,
            &format!("{empire} of game \"{game}\""),
        )
        .await?;
    Ok(())
}

/// Invites an account this GM does not hold to `empire`: the seat is its own once its
/// owner accepts. Its owner is told by mail, where the host sends mail and the address is
/// confirmed.
async fn invite(
    host: &Host,
    me: &Me,
    game: &str,
    empire: SeatCode,
    (account, name): (i64, &str),
) -> Result<(), Failure> {
    let now = host.now();
    host.store
        .accounts
        .invite_to_seat(game, empire, account, me.account.id, now)
        .await?;
    audit(
        host,
        game,
        me.account.id,
        "invited an account to a seat",
        &format!("{name} to {empire}"),
    )
    .await?;
    host.store
        .accounts
        .log_account(
            account,
            Some(me.account.id),
            Some(game),
            now,
            "invited to a seat",
            &format!("{empire} of game \"{game}\"; the seat is yours when you accept"),
        )
        .await?;
    let a = host.store.accounts.account(account).await?;
    if let (Some(email), true, Some(_)) = (&a.email, a.email_verified, host.mail_config()?) {
        let (title, seat_name) = names(host, game, empire).await?;
        let text = format!(
            "Hello {name},\n\nThe GM of \"{title}\" invites you to play {seat_name} ({empire}).\n\nAccept or decline on your games page: {}\n\nThe seat is yours once you accept; until then the computer plays it.\n",
            host.link("/games")
        );
        host.queue_text(
            account,
            email,
            "invitation",
            &format!("Invited to play {seat_name} in {title}"),
            &text,
        )
        .await?;
    }
    Ok(())
}

/// Invites the player at `email` to `empire`: the account whose confirmed address it is, or
/// a new account held by this GM, mailed its invitation link.
async fn by_mail(
    host: &Host,
    me: &Me,
    game: &str,
    empire: SeatCode,
    email: &str,
) -> Result<Response, Failure> {
    let refuse = |why: String| async move { console_error(host, me, game, why, None).await };
    if let Err(e) = empires_mail::config::check_address(email) {
        return refuse(format!("{e}: {empire}'s seat was left as it was.")).await;
    }
    if host.mail_config()?.is_none() || host.config.public_url.is_none() {
        return refuse(format!(
            "The host mails no invitations: it {}. Give the player an account name with \"new account\" ticked, and hand them the invitation link.",
            if host.mail_config()?.is_none() {
                "sends no mail (serve --mail)"
            } else {
                "has no public address for links (serve --public-url)"
            }
        ))
        .await;
    }
    if let Some(&a) = host.store.mail.accounts_by_email(email).await?.first() {
        let name = host.store.accounts.account(a).await?.name;
        if host.store.accounts.manages(me.account.id, a, game).await? {
            seat_held(host, me, game, (empire, a, &name), "given a seat").await?;
            return Ok(back(game, "seat"));
        }
        invite(host, me, game, empire, (a, &name)).await?;
        return Ok(back(game, "invited"));
    }
    let name = free_name(host, email).await?;
    let now = host.now();
    let account = host
        .store
        .accounts
        .create_managed_account(&name, me.account.id, game, now)
        .await?;
    // The address waits for its proof, which using the mailed link gives.
    if let Err(e) = host
        .store
        .accounts
        .set_address(account, Some(email), true, false)
        .await
    {
        return refuse(format!("{e}: {empire}'s seat was left as it was.")).await;
    }
    seat_held(host, me, game, (empire, account, &name), "made for a seat").await?;
    let token = new_secret();
    let hash = secret_hash(&token);
    host.store
        .accounts
        .create_link(
            &hash,
            LinkPurpose::Invite,
            account,
            me.account.id,
            now,
            now + LINK_LIFE,
        )
        .await?;
    host.store
        .accounts
        .create_email_link(&hash, account, email, now, now + LINK_LIFE)
        .await?;
    let (title, seat_name) = names(host, game, empire).await?;
    let text = format!(
        "Hello,\n\nThe GM of \"{title}\" invites you to play {seat_name} ({empire}), a game of Empires played by mail and on the web.\n\nYour account is \"{name}\". Choose its password here (the link works once, for {} days):\n\n  {}\n\nThen your report of the turn now waiting comes by mail, with a blank turnsheet: reply to it with your orders, or write them on the web.\n",
        LINK_LIFE / (24 * 3600 * 1000),
        host.link(&format!("/invite/{token}"))
    );
    host.queue_text(
        account,
        email,
        "invitation",
        &format!("Invited to play {seat_name} in {title}"),
        &text,
    )
    .await?;
    audit(
        host,
        game,
        me.account.id,
        "mailed an invitation",
        &format!("{name} to {empire}"),
    )
    .await?;
    Ok(back(game, "mailed"))
}

/// An account name not yet taken, made from the part of `email` before the `@`.
async fn free_name(host: &Host, email: &str) -> Result<String, Failure> {
    let local = email.split('@').next().unwrap_or("");
    let base: String = local
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(30)
        .collect();
    let base = if base.is_empty() {
        "player".to_string()
    } else {
        base
    };
    for n in 1..1000 {
        let name = if n == 1 {
            base.clone()
        } else {
            format!("{base}{n}")
        };
        if host.store.accounts.account_by_name(&name).await?.is_none() {
            return Ok(name);
        }
    }
    Err(Failure::new(
        axum::http::StatusCode::CONFLICT,
        "no free account name could be made from that address",
    ))
}

/// The game's title and the seat's name, for a letter.
async fn names(host: &Host, game: &str, empire: SeatCode) -> Result<(String, String), Failure> {
    let g = host.game(game).await?;
    Ok((
        g.title().to_string(),
        super::games::seat_name(g.as_ref(), empire),
    ))
}
