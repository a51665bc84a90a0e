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

/// How `account` sees `game`; refused as not found when it has no part in it.
pub async fn viewer(host: &Host, account: &Account, game: &str) -> Result<Viewer, Failure> {
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
    match host.store.accounts.seat_of(game, account.id).await? {
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
    match viewer(host, account, game).await? {
        Viewer::Player(e) => Ok(e),
        Viewer::Gm => Err(Failure::forbidden(
            "the GM plays no empire: open an empire's turnsheet from the console",
        )),
    }
}
