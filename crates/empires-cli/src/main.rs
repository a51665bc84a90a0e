//! The `empires` binary: argument parsing and dispatch only.

use clap::{ArgGroup, Parser, Subcommand};
use empires_cli::commands::hosted::{self, GameAt};
use empires_cli::commands::{self, new::MapStart, new::Source};
use empires_rules::{EmpireCode, Variant};
use std::fmt::Display;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

// A turn makes and drops many small strings (orders, reports); mimalloc does that much faster
// than the system allocator. It is built without transparent huge pages (`no_thp`): they
// made every short run resident in 2 MiB steps, tripling the memory a turn takes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Computer moderator for the Empires play-by-mail game.
#[derive(Debug, Parser)]
#[command(name = "empires", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create a game directory from a map (with --seed) or from a scenario file; with
    /// --ruleset, a game of another ruleset (on its standard map unless --map is given).
    #[command(group(ArgGroup::new("source").args(["map", "scenario"])))]
    New {
        /// The game directory to create (it must not exist or be empty), or with --db the
        /// game's name in the database.
        dir: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// Map file (TOML) to set the game up on.
        #[arg(long)]
        map: Option<PathBuf>,
        /// The game to play: `empires` (the default) or another the program runs
        /// (`napoleonic`).
        #[arg(long, default_value = "empires")]
        ruleset: String,
        /// In a game of another ruleset: a seat in play (a kingdom's code); repeat for each.
        /// Default: every seat of the map.
        #[arg(long = "seat", value_name = "CODE")]
        seats: Vec<String>,
        /// In a game of another ruleset: one of its options, as ID=VALUE; repeat for each.
        /// `empires rulesets` lists each game's options with their defaults.
        #[arg(long = "option", value_name = "ID=VALUE")]
        options: Vec<String>,
        /// GM scenario file (TOML); its map path is relative to the scenario file.
        #[arg(long, conflicts_with_all = ["seed", "variant", "player", "name", "actions_per_turn", "dropout_after", "victory_from_turn"])]
        scenario: Option<PathBuf>,
        /// Seed of the game's random generator.
        #[arg(long)]
        seed: Option<u64>,
        /// world, medieval, european or australian; defaults to the map's variant, else world.
        #[arg(long, value_parser = commands::new::parse_variant)]
        variant: Option<Variant>,
        /// A player for an empire, as CODE=NAME; repeat for each player. Others are dummies.
        #[arg(long, value_parser = commands::new::parse_player)]
        player: Vec<(EmpireCode, String)>,
        /// Name of the game; defaults to the map's name.
        #[arg(long)]
        name: Option<String>,
        /// Actions each empire may take a turn (2.6), 1 to 100; default 16.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=empires_rules::state::MAX_ACTIONS_PER_TURN as i64))]
        actions_per_turn: Option<u32>,
        /// Missed turns in a row after which a player counts as dropped out and the computer
        /// plays the empire to win (2.5); default 3.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
        dropout_after: Option<u32>,
        /// No victory condition warns or ends the game before this turn (11.6); default: from
        /// the first turn, as the rules are written.
        #[arg(long)]
        victory_from_turn: Option<u32>,
    },
    /// Adjudicate the next turn with the turnsheets in <dir>/orders/.
    Turn {
        /// The game directory, or with --db the game's name.
        dir: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// The turn you mean to play: refused if another is next (say, it was just played
        /// by another process).
        #[arg(long, value_name = "N")]
        turn: Option<u32>,
        /// Play even though the current state.json does not match its state.sha256, or the
        /// hash is missing (the state was edited by hand); recorded with the turn.
        #[arg(long)]
        accept_state: bool,
        /// Play an empire whose turnsheet cannot be read (not UTF-8 or UTF-16 text, too
        /// large) as having sent no orders, keeping the sheet with the turn, instead of
        /// stopping.
        #[arg(long)]
        unreadable_as_missed: bool,
        /// Play even though some players have sent no orders: the computer writes theirs
        /// (2.5). Without it, `turn` lists them and plays nothing.
        #[arg(long)]
        yes: bool,
    },
    /// Check a turnsheet and forecast the turn as if no other empire acted.
    ///
    /// `empires check <DIR> --empire <CODE> <ORDERS>` checks against the game directory (the
    /// GM's); `empires check --report <REPORT.json> <ORDERS>` against the player's own report
    /// alone, with the same messages.
    Check {
        /// The game directory and the turnsheet file, or with --report the turnsheet alone.
        #[arg(num_args = 1..=2, value_name = "[DIR] ORDERS", required = true)]
        paths: Vec<PathBuf>,
        /// The empire (or, in a game of another ruleset, the seat) whose orders these are
        /// (with a game).
        #[arg(long, required_unless_present = "report")]
        empire: Option<empires_host::store::SeatCode>,
        /// The player's own report of the last turn (`empires report --format json`).
        #[arg(long, value_name = "REPORT.json", conflicts_with = "empire")]
        report: Option<PathBuf>,
        /// With --report: the map file, when the game is not on a standard map.
        #[arg(long, requires = "report", value_name = "MAP")]
        map: Option<PathBuf>,
        /// text for people and email, json for the web.
        #[arg(long, default_value = "text", value_parser = commands::check::parse_format)]
        format: commands::check::Format,
        /// The game is kept in this database; DIR is then its name.
        #[arg(long, value_name = "URL", conflicts_with = "report")]
        db: Option<String>,
    },
    /// Print a seat's blank sheet for the next turn, in any game: the sheet its report ends
    /// with.
    Sheet {
        /// The game directory, or with --db the game's name.
        game: PathBuf,
        /// The empire's (or kingdom's) code.
        seat: empires_host::store::SeatCode,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Send a turnsheet for the next turn (or, with --gm, the GM's messages): checked as
    /// `check` does, kept, and answered with a receipt.
    #[command(group(ArgGroup::new("who").required(true).args(["empire", "gm", "rulings"])))]
    Submit {
        /// The game directory, or with --db the game's name.
        game: PathBuf,
        /// The turnsheet, or the GM's messages.
        file: PathBuf,
        /// The empire (or, in a Napoleonic game, the kingdom) whose sheet this is.
        #[arg(long)]
        empire: Option<empires_host::store::SeatCode>,
        /// The file holds the GM's messages to every player (10.6).
        #[arg(long)]
        gm: bool,
        /// The file holds the GM's rulings for the next step, in a game whose GM rules
        /// (checked by the game's rules, applied when the step is played).
        #[arg(long)]
        rulings: bool,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Play every stored turn again and check that it gives the state stored.
    Verify {
        /// The game directory, or with --db the game's name.
        game: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Write a game kept in a database as a game directory.
    Export {
        /// The game's name in the database.
        game: String,
        /// The directory to write; it must not exist or be empty.
        dir: PathBuf,
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Load a game directory into a database.
    Import {
        /// The game directory.
        dir: PathBuf,
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
        /// The game's name in the database; default the directory's name.
        #[arg(long)]
        name: Option<String>,
    },
    /// List the games this program runs, each with its maps, rules and options (and their
    /// defaults), as `empires new --ruleset ID --option ID=VALUE` takes them.
    Rulesets,
    /// List the games a database keeps.
    Games {
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Serve the host on the web: players log in to read reports and send orders, the GM
    /// runs games from a console; a JSON API for programs.
    Serve {
        /// The address to listen on; 0.0.0.0:8080 lets in other machines.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: std::net::SocketAddr,
        /// The database (sqlite:<file> or postgres://...); default sqlite:empires-host.db
        /// in the current directory, or sqlite:empires-demo.db with --demo.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// Open with a running demo game of computer players and a player account to try.
        #[arg(long)]
        demo: bool,
        /// With --demo, leave England's turn for the GM to play instead of playing it as
        /// soon as its orders are in.
        #[arg(long, requires = "demo")]
        no_autoplay: bool,
        /// The site is reached through TLS (a reverse proxy in front): mark cookies Secure.
        #[arg(long)]
        secure_cookies: bool,
        /// Trust X-Forwarded-For from the reverse proxy in front for the client's address.
        #[arg(long)]
        trust_forwarded: bool,
        /// The address players reach the site at, for the links the GM hands out.
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
        /// Open the mail door too: send receipts and reports (through --smtp, or keep them
        /// in the outbox) and take turnsheets from --maildir.
        #[arg(long)]
        mail: bool,
        /// With --mail, the Maildir a mail server delivers the host's mail to.
        #[arg(long, value_name = "DIR", requires = "mail")]
        maildir: Option<PathBuf>,
        /// With --mail, the address the host's mail comes from.
        #[arg(long, value_name = "ADDRESS", env = "EMPIRES_MAIL_FROM", default_value = empires_mail::config::DEFAULT_FROM)]
        mail_from: String,
        /// With --mail, the SMTP server to send through (see `empires mail send --help`).
        #[arg(
            long,
            value_name = "URL",
            env = "EMPIRES_SMTP_URL",
            hide_env_values = true
        )]
        smtp: Option<String>,
        /// A certificate authority (PEM) to trust for the SMTP server.
        #[arg(long, value_name = "FILE.pem", env = "EMPIRES_SMTP_CA")]
        smtp_ca: Option<PathBuf>,
        /// With --mail, how many refusals the door answers to one address in an hour (see
        /// `empires mail receive --help`).
        #[arg(
            long,
            value_name = "N",
            env = "EMPIRES_MAIL_REFUSALS_PER_HOUR",
            default_value_t = empires_mail::config::DEFAULT_REFUSALS_PER_HOUR
        )]
        mail_refusals_per_hour: u32,
    },
    /// A host game's deadlines (2.4): set its schedule, pause, resume, extend.
    Schedule {
        #[command(subcommand)]
        command: commands::schedule::ScheduleCommand,
    },
    /// A game of Napoleonic Empires, the second ruleset: new, sheet, check, turn, report.
    Napoleonic {
        #[command(subcommand)]
        command: commands::napoleonic::NapoleonicCommand,
    },
    /// Turn credits and prize discounts (2.10, 11.7): payments, carries, paid games.
    Ledger {
        #[command(subcommand)]
        command: commands::ledger::LedgerCommand,
    },
    /// The host without the web door: `empires host run` plays each game's turn when its
    /// deadline comes.
    Host {
        #[command(subcommand)]
        command: commands::schedule::HostCommand,
    },
    /// Play by email: take turnsheets in from mail, send receipts and reports out.
    Mail {
        #[command(subcommand)]
        command: MailCommand,
    },
    /// The host's accounts: list them, make a GM, give any account a new password (a GM
    /// who lost theirs). Whoever reaches the database acts as the host administrator.
    Accounts {
        #[command(subcommand)]
        command: AccountsCommand,
    },
    /// Copy an SQLite database, consistently, while it is in use.
    Backup {
        /// The database (sqlite:<file>).
        #[arg(long, value_name = "URL")]
        db: String,
        /// The copy to write; it must not exist.
        to: PathBuf,
    },
    /// Print an empire's report of a turn (the last one played unless --turn is given).
    Report {
        /// The game directory, or with --db the game's name.
        dir: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// The empire (or, in a game of another ruleset, the seat) whose report to print.
        #[arg(long)]
        empire: empires_host::store::SeatCode,
        /// The turn; 0 is the starting position.
        #[arg(long)]
        turn: Option<u32>,
        /// json (the canonical form), text (print-ready), html (a web page), or png (a
        /// printable map of what the empire knew, written to a file).
        #[arg(long, value_enum, default_value = "text")]
        format: commands::report::Format,
        /// With --format png: the file to write; default <CODE>-turn<N>.png here.
        #[arg(long, value_name = "FILE.png")]
        out: Option<PathBuf>,
    },
    /// Play a whole game with computer players and print the result.
    Simulate {
        /// A map file, or a standard map: world, medieval, european, australian, tutorial.
        #[arg(long)]
        map: PathBuf,
        /// Seed of the game's random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// world, medieval, european or australian; defaults to the map's variant.
        #[arg(long, value_parser = commands::new::parse_variant)]
        variant: Option<Variant>,
        /// Stop after this many turns if nobody has won.
        #[arg(long, default_value_t = 200)]
        turns: u32,
    },
    /// Play many seeded games on every core and report how each start position fares.
    Balance {
        /// A map file, or a standard map.
        #[arg(long)]
        map: PathBuf,
        /// How many games (seeds 1 to n).
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// world, medieval, european or australian; defaults to the map's variant.
        #[arg(long, value_parser = commands::new::parse_variant)]
        variant: Option<Variant>,
        /// Stop each game after this many turns if nobody has won.
        #[arg(long, default_value_t = 200)]
        turns: u32,
        /// Write a chart of the results here (SVG, and a PNG beside it).
        #[arg(long)]
        chart: Option<PathBuf>,
    },
    /// Create a European Empires game, let the computer play a few turns, and show where to
    /// look: the quickest way to see the whole system at work.
    Demo {
        /// Where to create the game.
        #[arg(default_value = "empires-demo")]
        dir: PathBuf,
        /// Turns to play.
        #[arg(long, default_value_t = 6)]
        turns: u32,
        /// Seed of the game's random generator.
        #[arg(long, default_value_t = 1805)]
        seed: u64,
    },
    /// Tools for map designers.
    Map {
        #[command(subcommand)]
        command: MapCommand,
    },
    /// Show the current turn, the empires and whose orders are waiting.
    Status {
        /// The game directory, or with --db the game's name.
        dir: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Take back the last turn played: the turnsheets the players sent for it are waiting
    /// again, those the computer wrote are gone. Refused while new turnsheets are waiting.
    Undo {
        /// The game directory, or with --db the game's name.
        dir: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
enum MailCommand {
    /// Take in one message from standard input, as a mail server's delivery pipe gives it,
    /// and answer it. Exits 0 whatever the message holds (a sheet refused is answered with
    /// the reason), and 75 (try again later) only when the host could not deal with it: the
    /// database out of reach, the command's settings wrong.
    Receive {
        #[command(flatten)]
        mail: commands::mail::MailArgs,
    },
    /// Take in every new message of a Maildir, and answer them.
    Fetch {
        /// The Maildir (the folder holding new/, cur/ and tmp/).
        #[arg(long, value_name = "DIR")]
        maildir: PathBuf,
        #[command(flatten)]
        mail: commands::mail::MailArgs,
    },
    /// Queue the reports of the turns played since the last run, and send the outbox.
    Send {
        #[command(flatten)]
        mail: commands::mail::MailArgs,
    },
    /// Set up a player's mail: their address, whether their reports are mailed, a new
    /// mail password (printed once).
    Account {
        /// The account's name.
        name: String,
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
        /// The address on record; "" for none.
        #[arg(long)]
        email: Option<String>,
        /// Mail the account's reports after every turn: on or off.
        #[arg(long, value_parser = parse_on_off)]
        reports: Option<bool>,
        /// Issue a new mail password, replacing the old one.
        #[arg(long)]
        new_password: bool,
        /// The address the host's mail comes from, for the report queued once an address
        /// is set (`--from` is read too).
        #[arg(
            long = "mail-from",
            alias = "from",
            value_name = "ADDRESS",
            env = "EMPIRES_MAIL_FROM",
            default_value = empires_mail::config::DEFAULT_FROM
        )]
        from: String,
    },
    /// The report mail a seat gets for a turn, written to a file (.eml) any mail program
    /// opens: what a player receives, with what each part weighs.
    Preview {
        /// The game directory, or with --db the game's name.
        game: PathBuf,
        /// The game's database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// The seat (an empire's code, a kingdom's).
        #[arg(long, alias = "empire")]
        seat: empires_host::store::SeatCode,
        /// The turn; the last one played unless given.
        #[arg(long)]
        turn: Option<u32>,
        /// The file to write (default SEAT-turnN.eml).
        #[arg(long, value_name = "FILE.eml")]
        out: Option<PathBuf>,
        /// The host's public address, as `serve --public-url` gives it: the letter then
        /// links to the whole map rather than attaching it.
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
    },
    /// What the mail door did: messages in and out, for a game or (without --game) for no
    /// game (strangers, mail sent by programs).
    Log {
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
        #[arg(long)]
        game: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
enum AccountsCommand {
    /// Every account: its role, its address, whether it has a password, its seats.
    List {
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Make a GM: a new account, whose password is printed once, or an existing account
    /// raised to GM.
    MakeGm {
        /// The account's name.
        name: String,
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
        /// Make it a host administrator too: it makes GMs and recovers accounts on the web.
        #[arg(long)]
        admin: bool,
    },
    /// Give an account a new password, printed once: every session of the account ends
    /// and its API tokens are revoked.
    Reset {
        /// The account's name.
        name: String,
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
    },
}

fn parse_on_off(s: &str) -> std::result::Result<bool, String> {
    match s {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(format!("\"{s}\": give on or off")),
    }
}

#[derive(Debug, Subcommand)]
enum MapCommand {
    /// List a map's empires and areas, with each area's terrain and neighbours.
    Show {
        /// A map file, or a standard map: world, medieval, european, australian, tutorial.
        map: PathBuf,
    },
    /// Check a map file (or a standard map by name) for everything a designer wants caught.
    Check {
        /// A map file, or a standard map: world, medieval, european, australian, tutorial.
        map: PathBuf,
        /// Check the start areas for this variant instead of the map's own.
        #[arg(long, value_parser = commands::new::parse_variant)]
        variant: Option<Variant>,
    },
    /// Draw a map, or a game on its map, as SVG (and PNG).
    Draw {
        /// A map file or standard map name; left out with --game, which brings its own map.
        #[arg(required_unless_present = "game", conflicts_with = "game")]
        map: Option<PathBuf>,
        /// Draw the current turn of this game directory: owners and forces.
        #[arg(long, value_name = "DIR")]
        game: Option<PathBuf>,
        /// With --game: draw only what this empire knows (fog of war).
        #[arg(long, requires = "game", value_name = "CODE")]
        empire: Option<EmpireCode>,
        /// With --game: the turn to draw; default the current one.
        #[arg(long, requires = "game")]
        turn: Option<u32>,
        /// The SVG file to write; default: named after the map, or the game and turn.
        #[arg(long, value_name = "FILE.svg")]
        out: Option<PathBuf>,
        /// Also write a PNG, to FILE or next to the SVG.
        #[arg(long, value_name = "FILE.png", num_args = 0..=1)]
        png: Option<Option<PathBuf>>,
        /// Width of the picture in pixels.
        #[arg(long, default_value_t = 1600, value_parser = clap::value_parser!(u32).range(200..=8000))]
        width: u32,
        /// List every drawn border that differs from the map's (neighbours whose regions
        /// do not touch), a hint of positions to move.
        #[arg(long, conflicts_with = "game")]
        notes: bool,
    },
}

/// Logs go to standard error: at `info` for the processes that run for long (`serve`,
/// `host`), where they are the GM's record of requests and turns; off for the other
/// commands, which say what they did in their own output. `EMPIRES_LOG` sets the filter
/// (`debug`, `empires_web=debug,info`...).
fn start_logging(long_running: bool) {
    use std::io::IsTerminal;
    let asked = std::env::var("EMPIRES_LOG").ok();
    // A command that logs nothing sets nothing up: it starts as fast as before.
    if asked.is_none() && !long_running {
        return;
    }
    let filter = asked
        .and_then(|f| tracing_subscriber::EnvFilter::try_new(f).ok())
        .unwrap_or_else(|| {
            tracing_subscriber::EnvFilter::new(if long_running { "info" } else { "off" })
        });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    rulesets::install();
    start_logging(matches!(
        cli.command,
        Command::Serve { .. } | Command::Host { .. }
    ));
    let result = match cli.command {
        Command::New {
            dir,
            map,
            ruleset,
            seats,
            options,
            scenario,
            seed,
            variant,
            player,
            name,
            actions_per_turn,
            dropout_after,
            victory_from_turn,
            db,
        } => {
            if ruleset != "empires" {
                let empires_only = scenario.is_some()
                    || variant.is_some()
                    || !player.is_empty()
                    || actions_per_turn.is_some()
                    || dropout_after.is_some()
                    || victory_from_turn.is_some();
                if empires_only {
                    return usage(
                        "--scenario, --variant, --player, --actions-per-turn, --dropout-after and --victory-from-turn are Empires' options",
                    );
                }
                let at = GameAt::new(&dir, db.as_deref());
                let made = commands::new::other_ruleset(
                    &ruleset,
                    &at,
                    (name, seed, map.as_deref()),
                    (seats, options),
                );
                return match made {
                    Ok(text) => {
                        show(&text, &[]);
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(e),
                };
            }
            if !seats.is_empty() {
                return fail(
                    "--seat is for games of other rulesets: an Empires game's players are given with --player",
                );
            }
            // An Empires game's options by the names every door gives them.
            let (mut actions_per_turn, mut dropout_after) = (actions_per_turn, dropout_after);
            for o in &options {
                let number = |v: &str, most: u32| {
                    v.trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|n| (1..=most).contains(n))
                };
                match o.split_once('=') {
                    Some(("actions", v)) if number(v, 100).is_some() => {
                        actions_per_turn = number(v, 100)
                    }
                    Some(("dropout", v)) if number(v, 100).is_some() => {
                        dropout_after = number(v, 100)
                    }
                    _ => {
                        return fail(format!(
                            "--option {o}: an Empires game's options are actions=N (1 to 100) and dropout=N (1 to 100), or --actions-per-turn, --dropout-after and --victory-from-turn"
                        ));
                    }
                }
            }
            let source = match (scenario, map, seed) {
                (Some(path), _, _) => Source::Scenario(path),
                (None, Some(map), Some(seed)) => Source::Map(MapStart {
                    map,
                    seed,
                    variant,
                    players: player,
                    name,
                    actions_per_turn,
                    dropout_after,
                    victory_from_turn,
                }),
                // clap requires one of --map and --scenario, and --seed with --map.
                _ => return usage("give --map <file> --seed <n>, or --scenario <file>"),
            };
            commands::new::run_at(&GameAt::new(&dir, db.as_deref()), &source).map(|r| show(&r, &[]))
        }
        Command::Turn {
            dir,
            db,
            turn,
            accept_state,
            unreadable_as_missed,
            yes,
        } => {
            let options = commands::turn::TurnOptions {
                accept_state,
                unreadable_as_missed,
                yes,
                expect: turn,
                by: None,
            };
            hosted::open(&GameAt::new(&dir, db.as_deref()))
                .and_then(|(store, game)| {
                    hosted::block_on(store.play_turn(&game, options, commands::now()?))
                })
                .map(|r| show(&r, &r.warnings))
        }
        Command::Submit {
            game,
            file,
            empire,
            gm: _,
            rulings,
            db,
        } => hosted::submit(&GameAt::new(&game, db.as_deref()), empire, &file, rulings)
            .map(|r| show(&r, &[])),
        Command::Verify { game, db } => match hosted::verify(&GameAt::new(&game, db.as_deref())) {
            Ok(r) if r.failures() > 0 => {
                show(&r, &[]);
                return ExitCode::FAILURE;
            }
            other => other.map(|r| show(&r, &[])),
        },
        Command::Export { game, dir, db } => {
            hosted::export(&db, &game, &dir).map(|r| show(&r, &[]))
        }
        Command::Import { dir, db, name } => {
            hosted::import(&db, &dir, name.as_deref()).map(|r| show(&r, &[]))
        }
        Command::Games { db } => hosted::games(&db).map(|r| show(&r, &[])),
        Command::Rulesets => {
            show(&commands::new::rulesets(), &[]);
            Ok(())
        }
        Command::Serve {
            listen,
            db,
            demo,
            no_autoplay,
            secure_cookies,
            trust_forwarded,
            public_url,
            mail,
            maildir,
            mail_from,
            smtp,
            smtp_ca,
            mail_refusals_per_hour,
        } => {
            let door = if mail {
                let args = commands::mail::MailArgs {
                    db: String::new(),
                    from: mail_from,
                    smtp,
                    smtp_ca,
                    refusals_per_hour: mail_refusals_per_hour,
                };
                match args.config() {
                    Ok(config) => Some(empires_web::serve::MailDoor { config, maildir }),
                    Err(e) => return fail(e),
                }
            } else {
                None
            };
            let demo_game = match demo.then(commands::serve::demo).transpose() {
                Ok(d) => d,
                Err(e) => return fail(e),
            };
            commands::serve::run(empires_web::serve::ServeOptions {
                listen,
                db: db.unwrap_or_else(|| {
                    if demo {
                        empires_web::serve::DEMO_DB
                    } else {
                        empires_web::serve::DEFAULT_DB
                    }
                    .to_string()
                }),
                demo: demo_game,
                demo_autoplay: !no_autoplay,
                config: empires_web::WebConfig {
                    secure_cookies,
                    trust_forwarded,
                    public_url,
                    mail_address: door.as_ref().map(|d| d.config.from.email.to_string()),
                },
                mail: door,
            })
        }
        Command::Schedule { command } => {
            commands::schedule::run(command).map(|r| show(&r.trim_end(), &[]))
        }
        Command::Ledger { command } => {
            commands::ledger::run(command).map(|r| show(&r.trim_end(), &[]))
        }
        Command::Napoleonic { command } => match commands::napoleonic::run(command) {
            Ok((text, errors)) => {
                show(&text.trim_end(), &[]);
                if errors {
                    return ExitCode::FAILURE;
                }
                Ok(())
            }
            Err(e) => Err(e),
        },
        Command::Host { command } => {
            commands::schedule::host(command).map(|r| show(&r.trim_end(), &[]))
        }
        Command::Mail { command } => match command {
            MailCommand::Receive { mail } => match commands::mail::receive(&mail) {
                Ok(r) => {
                    show(&r.trim_end(), &[]);
                    Ok(())
                }
                Err(e) => {
                    // EX_TEMPFAIL: the mail server keeps the message and delivers it again.
                    let _ = writeln!(std::io::stderr().lock(), "error: {e}");
                    return ExitCode::from(75);
                }
            },
            MailCommand::Fetch { maildir, mail } => {
                commands::mail::fetch(&mail, &maildir).map(|r| show(&r.trim_end(), &[]))
            }
            MailCommand::Send { mail } => {
                commands::mail::send(&mail).map(|r| show(&r.trim_end(), &[]))
            }
            MailCommand::Account {
                name,
                db,
                email,
                reports,
                new_password,
                from,
            } => commands::mail::account(
                &db,
                &name,
                &commands::mail::AccountChange {
                    email,
                    reports,
                    new_password,
                    from,
                },
            )
            .map(|r| show(&r.trim_end(), &[])),
            MailCommand::Preview {
                game,
                db,
                seat,
                turn,
                out,
                public_url,
            } => commands::mail::preview(
                &GameAt::new(&game, db.as_deref()),
                seat,
                (turn, public_url),
                out,
            )
            .map(|r| show(&r.trim_end(), &[])),
            MailCommand::Log { db, game } => {
                commands::mail::log(&db, game.as_deref()).map(|r| show(&r.trim_end(), &[]))
            }
        },
        Command::Accounts { command } => match command {
            AccountsCommand::List { db } => commands::accounts::list(&db),
            AccountsCommand::MakeGm { name, db, admin } => {
                commands::accounts::make_gm(&db, &name, admin)
            }
            AccountsCommand::Reset { name, db } => commands::accounts::reset(&db, &name),
        }
        .map(|r| show(&r.trim_end(), &[])),
        Command::Backup { db, to } => hosted::backup(&db, &to).map(|r| show(&r, &[])),
        Command::Check {
            paths,
            empire,
            report,
            map,
            format,
            db,
        } => {
            let checked = match (&paths[..], empire, report) {
                ([dir, orders], Some(seat), None) => {
                    let at = GameAt::new(dir, db.as_deref());
                    match hosted::ruleset_of(&at) {
                        Ok(r) if r == "empires" => match empires_ruleset::empire(seat) {
                            Some(empire) => commands::check::run_at(&at, empire, orders, format),
                            None => Err(empires_host::Error::new(format!(
                                "{seat} is not an empire's code"
                            ))),
                        },
                        // A game of another ruleset: its own check and dry run.
                        Ok(_) => {
                            return match hosted::check(&at, seat, orders) {
                                Ok((text, errors)) => {
                                    println!("{text}");
                                    if errors {
                                        ExitCode::FAILURE
                                    } else {
                                        ExitCode::SUCCESS
                                    }
                                }
                                Err(e) => fail(e),
                            };
                        }
                        Err(e) => Err(e),
                    }
                }
                ([orders], None, Some(report)) => {
                    commands::check::run_from_report(&report, map.as_deref(), orders, format)
                }
                (_, _, Some(_)) => {
                    return fail(
                        "with --report give only the turnsheet: empires check --report <REPORT.json> <ORDERS>",
                    );
                }
                _ => {
                    return fail(
                        "give the game directory and the turnsheet: empires check <DIR> --empire <CODE> <ORDERS>",
                    );
                }
            };
            match checked {
                // A turnsheet with errors exits with status 1 after its report.
                Ok(r) if r.has_errors() => {
                    show(&r, &[]);
                    return ExitCode::FAILURE;
                }
                other => other.map(|r| show(&r, &[])),
            }
        }
        Command::Map {
            command: MapCommand::Check { map, variant },
        } => match commands::map::check(&map, variant) {
            // A map with errors exits with status 1 after its report.
            Ok(r) if r.errors() > 0 => {
                show(&r, &[]);
                return ExitCode::FAILURE;
            }
            other => other.map(|r| show(&r, &[])),
        },
        Command::Map {
            command: MapCommand::Show { map },
        } => commands::map::show(&map).map(|r| show(&r, &[])),
        Command::Map {
            command:
                MapCommand::Draw {
                    map,
                    game,
                    empire,
                    turn,
                    out,
                    png,
                    width,
                    notes,
                },
        } => commands::map::draw(&commands::map::DrawArgs {
            map,
            game,
            empire,
            turn,
            out,
            png,
            width,
            all_notes: notes,
        })
        .map(|r| show(&r, &[])),
        Command::Report {
            dir,
            db,
            empire,
            turn,
            format,
            out,
        } => {
            let at = GameAt::new(&dir, db.as_deref());
            let wrote = |p: PathBuf| {
                let _ = writeln!(std::io::stdout().lock(), "wrote {}", p.display());
            };
            let printed = |r: String| {
                let _ = write!(std::io::stdout().lock(), "{r}");
            };
            match (
                hosted::ruleset_of(&at),
                empires_ruleset::empire(empire),
                format,
            ) {
                (Err(e), _, _) => Err(e),
                // A game of another ruleset: its report as its turn wrote it.
                (Ok(r), _, commands::report::Format::Png) if r != "empires" => {
                    hosted::picture(&at, empire, turn, out).map(wrote)
                }
                (Ok(r), _, _) if r != "empires" => {
                    hosted::report(&at, empire, turn, format.extension()).map(printed)
                }
                (Ok(_), None, _) => Err(empires_host::Error::new(format!(
                    "{empire} is not an empire's code"
                ))),
                (Ok(_), Some(e), commands::report::Format::Png) => {
                    commands::map::empire_png_at(&at, e, turn, out).map(wrote)
                }
                (Ok(_), Some(e), _) => {
                    commands::report::run_at(&at, e, turn, format).map(|r| printed(r.to_string()))
                }
            }
        }
        Command::Simulate {
            map,
            seed,
            variant,
            turns,
        } => commands::simulate::simulate(&map, seed, variant, turns).map(|r| show(&r, &[])),
        Command::Balance {
            map,
            games,
            variant,
            turns,
            chart,
        } => commands::simulate::balance(&map, games, variant, turns, chart.as_deref())
            .map(|r| show(&r, &[])),
        Command::Demo { dir, turns, seed } => {
            commands::demo::run_showing(&dir, turns, seed, |step| eprintln!("{step}"))
                .map(|r| show(&r, &[]))
        }
        Command::Sheet { game, seat, db } => {
            hosted::sheet(&GameAt::new(&game, db.as_deref()), seat).map(|text| print!("{text}"))
        }
        Command::Status { dir, db } => commands::status::run_at(&GameAt::new(&dir, db.as_deref()))
            .map(|r| show(&r, r.warnings())),
        Command::Undo { dir, db } => {
            hosted::open(&GameAt::new(&dir, db.as_deref())).and_then(|(store, game)| {
                hosted::block_on(store.undo(&game, commands::now()?)).map(|u| {
                    let r = commands::undo::UndoReport {
                        undone: u.turn,
                        pending: u.pending,
                        warnings: u.warnings,
                    };
                    show(&r, &r.warnings)
                })
            })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// Prints warnings to standard error and the report to standard output. Write errors (a
/// closed pipe) are ignored rather than allowed to panic.
fn show(report: &impl Display, warnings: &[String]) {
    let mut err = std::io::stderr().lock();
    for w in warnings {
        let _ = writeln!(err, "warning: {w}");
    }
    let _ = writeln!(std::io::stdout().lock(), "{report}");
}

/// A mistake in the command's arguments that clap cannot see: exit code 2, as clap's own.
fn usage(message: impl Display) -> ExitCode {
    let _ = writeln!(std::io::stderr().lock(), "error: {message}");
    ExitCode::from(2)
}

fn fail(message: impl Display) -> ExitCode {
    let _ = writeln!(std::io::stderr().lock(), "error: {message}");
    ExitCode::FAILURE
}
