//! Who may see what of a game. Every handler that touches a game asks [`viewer`] first:
//! the GM who runs it sees everything of it; a player sees their own empire's reports,
//! turnsheets and forecasts and what every empire of the game shares; anyone else is told
//! there is no such game, so that asking tells nothing.

use crate::failure::Failure;
use crate::host::{Host, no_such_game};
use empires_host::store::SeatCode;
use empires_host::store::{Account, Role};

/// How an account sees a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The GM who runs the game.
    Gm,
    /// The player of this seat: an empire, a kingdom.
    Player(SeatCode),
}

impl Viewer {
    /// The seat whose files the viewer reads: `None` for the GM, who reads every file
    /// ([`empires_host::store::Reader::allows`]).
    pub fn empire(self) -> Option<SeatCode> {
        match self {
            Viewer::Gm => None,
            Viewer::Player(e) => Some(e),
        }
    }
}

/// Which of an account's seats in a game a page is for (`?seat=YEL`), where it holds
/// several; the first by code when none is named.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct SeatChoice {
    pub seat: Option<String>,
}

impl SeatChoice {
    pub fn code(&self) -> Option<SeatCode> {
        self.seat.as_deref().and_then(SeatCode::parse)
    }
}

/// How `account` sees `game`; refused as not found when it has no part in it.
pub async fn viewer(host: &Host, account: &Account, game: &str) -> Result<Viewer, Failure> {
    viewer_as(host, account, game, None).await
}

/// How `account` sees `game` as the player of `want`, when it holds that seat; else as the
/// player of its first seat. A seat it does not hold is never granted.
pub async fn viewer_as(
    host: &Host,
    account: &Account,
    game: &str,
    want: Option<SeatCode>,
) -> Result<Viewer, Failure> {
    if account.role == Role::Gm {
        match host.store.accounts.game_gm(game).await {
            Ok(Some(gm)) if gm == account.id => return Ok(Viewer::Gm),
            Ok(_) => {}
            Err(e) if e.kind() == empires_host::error::Kind::NotFound => {
                return Err(no_such_game(game).into());
            }
            Err(e) => return Err(e.into()),
        }
    }
    let held = host.store.accounts.seats_of(game, account.id).await?;
    match want.filter(|w| held.contains(w)).or(held.first().copied()) {
        Some(empire) => Ok(Viewer::Player(empire)),
        None => Err(no_such_game(game).into()),
    }
}

/// The GM's way in: refused unless `account` runs `game`.
pub async fn gm_of(host: &Host, account: &Account, game: &str) -> Result<(), Failure> {
    match viewer(host, account, game).await? {
        Viewer::Gm => Ok(()),
        Viewer::Player(_) => Err(Failure::forbidden("only the game's GM may do this")),
    }
}

/// The player's way in: the seat `account` plays in `game`; a GM has none.
pub async fn seat_of(host: &Host, account: &Account, game: &str) -> Result<SeatCode, Failure> {
    seat_as(host, account, game, None).await
}

/// The player's way in to seat `want` of `game`, when `account` holds it (else its first).
pub async fn seat_as(
    host: &Host,
    account: &Account,
    game: &str,
    want: Option<SeatCode>,
) -> Result<SeatCode, Failure> {
    match viewer_as(host, account, game, want).await? {
        Viewer::Player(e) => Ok(e),
        Viewer::Gm => Err(Failure::forbidden(
            "the GM plays no empire: open an empire's turnsheet from the console",
        )),
    }
}
