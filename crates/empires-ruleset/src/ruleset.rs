//! Empires behind the [`Ruleset`] interface: the engine, turnsheets, reports and computer
//! players of the `empires-*` crates, through the same turn pipeline every door uses
//! ([`crate::turn::play_sheets`]).

use crate::Loaded;
use crate::check::{Format, check_text};
use crate::error::{Error, Result};
use crate::gamedir::{parse_map, parse_state};
use crate::turn::{Origin, Sent, play_sheets};
use empires_host::gamedir::to_pretty_json;
use empires_host::ruleset::{
    Checked, Finished, Game, GameText, HostedGame, Orders, PageScripts, Player, Readers, Ruleset,
    Seat, Setup, SheetHeader, Standing, Started, Turn, Written,
};
use empires_rules::setup::NewGame as Setting;
use empires_rules::{EmpireCode, GameState, Map, Variant};
use std::collections::BTreeMap;
use std::sync::Arc;

pub struct Empires;

/// The map played when a setup names none: World Empires (12.1).
const DEFAULT_MAP: &str = "world";

fn game(g: GameText) -> Result<(Map, GameState)> {
    let map = parse_map(g.map, "map.toml")?;
    let state = parse_state(g.state, "state.json", &map)?;
    Ok((map, state))
}

fn empire(state: &GameState, seat: &str) -> Result<EmpireCode> {
    match empires_host::store::SeatCode::parse(seat) {
        Some(code) => crate::gamedir::seat_empire(state, code),
        None => Err(Error::new(format!("{seat:?} is not a seat's code"))),
    }
}

pub fn seats_of(state: &GameState) -> Vec<Seat> {
    state
        .empires
        .iter()
        .map(|e| Seat {
            code: e.code.to_string(),
            name: e.name.clone(),
            alive: e.eliminated.is_none(),
            standing: standing(e, state.options.dropout_after),
            player: e.player.as_ref().map(|name| Player {
                name: name.clone(),
                email: e.email.clone(),
            }),
            split_from: None,
        })
        .collect()
}

/// How an empire stands with its player (2.1, 2.5, decision 21): an empire whose player
/// has missed `dropout_after` turns in a row has dropped out, and the computer plays it
/// from then on as a dummy would.
fn standing(e: &empires_rules::state::EmpireState, dropout_after: u32) -> Standing {
    if e.eliminated.is_some() {
        return Standing::Eliminated;
    }
    match (&e.player, e.missed_turns) {
        (None, _) => Standing::Dummy,
        (Some(_), 0) => Standing::Playing,
        (Some(_), n) if n >= dropout_after => Standing::Dropped(n),
        (Some(_), n) => Standing::Missing(n),
    }
}

/// How a won game ended, for people (11.7).
fn won(state: &GameState) -> Option<String> {
    state
        .result
        .as_ref()
        .map(|c| format!("won at turn {}: {}", c.turn, crate::turn::claim_text(c)))
}

/// How a game was won (11.7), and every player's result for the ledgers: a player who
/// dropped out earns nothing.
pub fn finished(state: &GameState) -> Option<Finished> {
    let claim = state.result.as_ref()?;
    let results = empires_rules::results::final_results(state, claim)
        .into_iter()
        .filter(|(_, category)| *category != empires_rules::results::DROPPED_OUT)
        .map(|(code, category)| (code.to_string(), category.to_string()))
        .collect();
    Some(Finished {
        summary: crate::turn::claim_text(claim),
        results,
    })
}

/// A new game's options as the GM wrote them: 2.6, actions a turn; 2.5, missed turns
/// before a player counts as dropped out. One left blank takes its default.
fn options_of(written: &BTreeMap<String, String>) -> Result<empires_rules::variant::Options> {
    let defaults = empires_rules::variant::Options::default();
    let number =
        |id: &str, what: &str, range: std::ops::RangeInclusive<u32>, default: u32| match written
            .get(id)
            .map(|t| t.trim())
            .unwrap_or("")
        {
            "" => Ok(default),
            t => t.parse().ok().filter(|n| range.contains(n)).ok_or_else(|| {
                Error::new(format!(
                    "{what} is a whole number from {} to {}",
                    range.start(),
                    range.end()
                ))
            }),
        };
    if let Some(unknown) = written
        .keys()
        .find(|k| !["actions", "dropout", "victory_from"].contains(&k.as_str()))
    {
        return Err(Error::new(format!("Empires has no option \"{unknown}\"")));
    }
    Ok(empires_rules::variant::Options {
        actions_per_turn: number(
            "actions",
            "actions a turn",
            1..=empires_rules::state::MAX_ACTIONS_PER_TURN,
            defaults.actions_per_turn,
        )?,
        dropout_after: number(
            "dropout",
            "missed turns before dropping out",
            1..=100,
            defaults.dropout_after,
        )?,
        // 11.6 as the rules have it looks at victory from the first turn; a GM may leave
        // the first turns free of it (a runaway warning on turn 1 alarms new players).
        victory_from_turn: number(
            "victory_from",
            "the first turn of victory",
            0..=1000,
            defaults.victory_from_turn,
        )?,
        ..defaults
    })
}

/// A new Empires game to keep: its key in the store, its map, its starting position.
pub struct NewGame<'a> {
    pub name: &'a str,
    pub map_text: &'a str,
    pub map: &'a Map,
    pub state: &'a GameState,
    pub created_at: crate::store::Millis,
}

/// Keeping an Empires game made from a typed position, in any store.
#[async_trait::async_trait]
pub trait EmpiresStore {
    /// Keeps `game` at its starting position, with its reports.
    async fn create(&self, game: &NewGame<'_>) -> Result<()>;
}

#[async_trait::async_trait]
impl<T: crate::store::Store + ?Sized> EmpiresStore for T {
    async fn create(&self, game: &NewGame<'_>) -> Result<()> {
        // The blank sheets at the end of the reports carry the name the store keeps the
        // game by, or in a directory the game's title.
        let named = self
            .sheet_game(game.name)
            .unwrap_or_else(|| game.state.game.clone());
        let started = started(&named, game.map_text, game.map, game.state)?;
        self.create_game(game.name, &Empires, &started, game.created_at)
            .await
    }
}

/// An Empires game of `store`, read and parsed: what the Empires pages of the doors show.
/// A game of another ruleset is refused, naming it.
pub async fn load(store: &dyn crate::store::Store, key: &str) -> Result<Loaded> {
    let game = store.hosted(key).await?;
    if game.ruleset.id() != Empires.id() {
        return Err(Error::new(format!(
            "{} is a game of {}, not of Empires; this command serves Empires games only",
            store.describe(key),
            game.ruleset.title()
        )));
    }
    loaded(game, &store.describe(key))
}

/// An Empires game as texts, parsed; `label` names it in messages (empty: its files are
/// named as a game directory names them, `map.toml`, `turns/0003/state.json`).
fn loaded(game: HostedGame, label: &str) -> Result<Loaded> {
    let corrupt = |e: Error| Error::corrupt(e.to_string());
    let ready = game
        .ready_map
        .as_deref()
        .and_then(|r| crate::mapcache::decode(r, &game.map))
        .and_then(|file| Map::from_file(file, "map.toml").ok());
    let map = match ready {
        Some(map) => map,
        None if label.is_empty() => parse_map(&game.map, "map.toml").map_err(corrupt)?,
        None => parse_map(&game.map, &format!("{label}, map")).map_err(corrupt)?,
    };
    let state_label = if label.is_empty() {
        format!(
            "turns/{}/state.json",
            empires_host::gamedir::turn_name(game.turn)
        )
    } else {
        format!("{label}, turn {}, state.json", game.turn)
    };
    let state = parse_state(&game.state, &state_label, &map).map_err(corrupt)?;
    if state.turn != game.turn {
        return Err(Error::corrupt(format!(
            "{state_label}: field `turn` is {} but the game is after turn {}",
            state.turn, game.turn
        )));
    }
    Ok(Loaded {
        map_text: game.map,
        map_script: game.kept,
        map,
        turn: game.turn,
        state,
        warnings: game.warnings,
    })
}

/// A new Empires game kept under `name`: its map, its starting state and the starting
/// position's reports, with the map's drawing to keep (worked out now, or built in for a
/// standard map).
pub fn started(name: &str, map_text: &str, map: &Map, state: &GameState) -> Result<Started> {
    let (layout, script) = crate::drawing::layout(map, map_text, None);
    let reports =
        crate::render::render_all(map, layout.as_deref(), state, &[], &[], &[], Some(name))?;
    Ok(Started {
        title: Some(state.game.clone()),
        variant: Some(state.variant.title().to_string()),
        map: map_text.to_string(),
        state: to_pretty_json(state, "state.json")?,
        reports: declared(state, reports),
        kept: script.map(|s| s.into_owned()),
    })
}

impl Ruleset for Empires {
    fn id(&self) -> &'static str {
        "empires"
    }

    fn title(&self) -> &'static str {
        "Empires"
    }

    fn missed_turn(&self) -> &'static str {
        "The computer writes the orders of every empire that sent none (2.5)."
    }

    fn create(&self, setup: &Setup) -> Result<Started> {
        let (text, file) = match (&setup.map, &setup.standard_map) {
            (Some(t), _) => (t.clone(), "map.toml".to_string()),
            (None, name) => {
                let name = name.as_deref().unwrap_or(DEFAULT_MAP);
                let standard = empires_maps::standard::find(name)
                    .ok_or_else(|| Error::new(format!("\"{name}\" is not a standard map")))?;
                (standard.text.to_string(), standard.file.to_string())
            }
        };
        let map = parse_map(&text, &file)?;
        let variant = match setup.variant.as_deref().map(str::trim) {
            None | Some("") => map.variant.unwrap_or(Variant::World),
            Some(v) => {
                Variant::parse(v).ok_or_else(|| Error::new(format!("\"{v}\" is not a variant")))?
            }
        };
        let mut players = BTreeMap::new();
        for seat in &setup.seats {
            let code = EmpireCode::parse(seat).map_err(|e| Error::new(e.to_string()))?;
            players.insert(code, seat.clone());
        }
        for (seat, player) in &setup.players {
            let code = EmpireCode::parse(seat)
                .map_err(|_| Error::new(format!("players: \"{seat}\" is not an empire's code")))?;
            players.insert(code, player.clone());
        }
        let new = Setting {
            // The title the reports carry; the host keeps the game by its name.
            name: setup
                .title
                .clone()
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| setup.name.clone()),
            variant,
            seed: setup.seed,
            players,
            options: options_of(&setup.options)?,
        };
        let state = crate::create::start(&map, &file, &new)?;
        started(&setup.name, &text, &map, &state)
    }

    fn new_game_form(&self) -> ruleset_api::NewGameForm {
        let defaults = empires_rules::variant::Options::default();
        let mut maps: Vec<String> = empires_maps::standard::names()
            .into_iter()
            .map(String::from)
            .collect();
        // The default map first.
        maps.sort_by_key(|m| m != DEFAULT_MAP);
        ruleset_api::NewGameForm {
            maps,
            variants: ["world", "medieval", "european", "australian"]
                .map(String::from)
                .to_vec(),
            options: vec![
                ruleset_api::GameOption {
                    id: "actions",
                    label: format!(
                        "Actions each empire may take a turn (2.6; blank: {})",
                        defaults.actions_per_turn
                    ),
                    default: defaults.actions_per_turn.to_string(),
                },
                ruleset_api::GameOption {
                    id: "dropout",
                    label: format!(
                        "Missed turns in a row before a player counts as dropped out and the computer plays to win (2.5; blank: {})",
                        defaults.dropout_after
                    ),
                    default: defaults.dropout_after.to_string(),
                },
                ruleset_api::GameOption {
                    id: "victory_from",
                    label: "The first turn at whose end a victory may be warned of or won (11.6; blank: every turn, as the rules have it)".to_string(),
                    default: "1".to_string(),
                },
            ],
            seats_hint: "an empire's code, EN".to_string(),
        }
    }

    fn seats(&self, g: GameText) -> Result<Vec<Seat>> {
        Ok(seats_of(&game(g)?.1))
    }

    fn next_turn(&self, g: GameText) -> Result<u32> {
        Ok(game(g)?.1.turn + 1)
    }

    fn sheet(&self, g: GameText, seat: &str) -> Result<String> {
        let (_, state) = game(g)?;
        // The empire is the game's: `empire` refuses a seat it does not have.
        let code = empire(&state, seat)?;
        Ok(crate::blank_sheet(g.name, &state, code))
    }

    fn check(&self, g: GameText, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        let (map, state) = game(g)?;
        let code = empire(&state, seat)?;
        checked(&map, &state, code, sheet, file)
    }

    // Empires knows its dummies from its own state (2.5): the computer plays every empire
    // that sent nothing, so `stand_ins` adds nothing.
    fn play(&self, g: GameText, orders: Orders) -> Result<Turn> {
        let (map, state) = game(g)?;
        play_on(g, &map, &state, orders)
    }

    fn rules_version(&self) -> Option<&'static str> {
        Some(crate::turn::RULES_VERSION)
    }

    // The computer's turnsheets are kept with the players' (2.5).
    fn computer_dir(&self) -> &'static str {
        empires_host::gamedir::ORDERS_DIR
    }

    // The report pages load the map's layer by this name (drawing::FROM_REPORTS).
    fn kept_file(&self) -> &'static str {
        crate::drawing::MAP_SCRIPT
    }

    fn game_title(&self, g: GameText) -> Result<String> {
        #[derive(serde::Deserialize)]
        struct Titled {
            game: String,
        }
        serde_json::from_str::<Titled>(g.state)
            .map(|t| t.game)
            .map_err(|e| Error::corrupt(e.to_string()))
    }

    // 11.7: a game won takes no more sheets.
    fn finished(&self, g: GameText) -> Result<Option<String>> {
        let (_, state) = game(g)?;
        Ok(won(&state))
    }

    // 2.10: a game's turns may be charged to its players' ledgers.
    fn paid_turns(&self) -> bool {
        true
    }

    // The empires of a standard map, each with its name.
    fn map_seats(&self, map: Option<&str>) -> Vec<(String, String)> {
        let Some(standard) = empires_maps::standard::find(map.unwrap_or(DEFAULT_MAP)) else {
            return Vec::new();
        };
        parse_map(standard.text, standard.file)
            .map(|m| {
                m.empires
                    .iter()
                    .map(|e| (e.code.to_string(), e.name.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    // 10.3, 10.4, 10.6: the roundup, actions report and messages are kept once a turn in
    // `public.*`; a reader of an empire's text or JSON gets them back in place. (The page
    // links to the turn's page of them, which the web serves beside it.)
    fn shared_part(&self, file: &str, kept: &str) -> Option<String> {
        let ext = file.rsplit_once('.')?.1;
        (matches!(ext, "txt" | "json") && empires_report::public::needs_parts(ext, kept))
            .then(|| empires_report::public::file(ext))
    }

    fn made_whole(&self, file: &str, kept: &str, shared: &str) -> ruleset_api::Result<String> {
        let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
        empires_report::public::whole(ext, kept, Some(shared))
            .map_err(|e| ruleset_api::Error::corrupt(format!("reports/{file}: {e}")))
    }

    // The GM's summary of the turn and the roundup every empire reads (2.8).
    fn gm_reports(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("gm.txt", "the GM's summary"),
            ("public.html", "the turn's roundup and actions report"),
        ]
    }

    // The map's zoom and its layer, in every report page; two earlier versions of them are
    // still in pages kept by earlier versions of the host.
    // The standard maps' drawings are built into the program.
    fn built_kept(&self, map: &str) -> Option<&'static str> {
        crate::drawing::standard_script(map)
    }

    fn page_scripts(&self) -> PageScripts {
        PageScripts {
            current: &empires_report::html::INLINE_SCRIPTS,
            earlier_sha256: &[
                "qUHHOybJe/muBwZmBi3Q0uyUri6c5Cjmz3dyOn0HmfM=",
                "0wY/FszOhNmdpBu9QDWXiGPmUercd2j+LbgiabOSQU8=",
            ],
        }
    }

    // 2.4: orders written for a turn already played are kept, marked late, for the next.
    fn late_orders(&self) -> bool {
        true
    }

    fn ready_map(&self, map_text: &str) -> Option<String> {
        let file = crate::gamedir::parse_map_file(map_text, "map.toml").ok()?;
        crate::mapcache::encode(map_text, &file)
    }

    fn open(&self, game: HostedGame) -> Result<Arc<dyn Game>> {
        let name = game.name.clone();
        let loaded = loaded(game, "")?;
        Ok(Arc::new(EmpiresGame::new(&name, Arc::new(loaded))))
    }

    fn header(&self, sheet: &str) -> SheetHeader {
        let parsed = empires_orders::parse_sheet(sheet);
        let value = |l: Option<empires_orders::sheet::Located<String>>| l.map(|l| l.value);
        SheetHeader {
            game: value(parsed.game),
            seat: value(parsed.empire),
            turn: value(parsed.turn),
        }
    }
}

/// Plays the next turn of the game `g`, whose map and state are `map` and `state` as read,
/// with what was sent for it.
fn play_on(g: GameText, map: &Map, state: &GameState, orders: Orders) -> Result<Turn> {
    let mut sent = Vec::new();
    let mut notes = Vec::new();
    if let Some(gm) = orders.gm {
        // 10.6: the GM's messages, printed in every report.
        sent.push(Sent {
            name: empires_host::gamedir::GM_MESSAGES_FILE.to_string(),
            empire: None,
            text: gm.to_string(),
        });
    }
    for (seat, text) in orders.sheets {
        match empire(state, seat) {
            Ok(code) => sent.push(Sent {
                name: format!("{code}.txt"),
                empire: Some(code),
                text: text.clone(),
            }),
            Err(e) => notes.push(format!("{seat}.txt: {e}")),
        }
    }
    // The map's layer kept with the game, or worked out now and kept from this turn.
    let (layout, fresh) = crate::drawing::layout(map, g.map, g.kept.map(|k| (k, k.len() as u64)));
    // Empires whose players sent nothing are played by the computer (2.5): the host
    // that runs this ruleset has already waited for its deadline.
    let next = state.turn + 1;
    let from = Origin {
        label: "orders",
        game: Some(g.name),
    };
    let played = play_sheets(map, layout.as_deref(), state, next, &sent, from)?;
    notes.extend(played.report.warnings.iter().cloned());
    Ok(Turn {
        fees: Vec::new(),
        turn: next,
        events: played.files.events.unwrap_or_default(),
        reports: declared(&played.state, played.files.reports),
        computer_orders: played.files.computer_orders,
        computer_played: played.report.computer_written,
        events_count: played.report.events,
        failed: played.report.failed,
        ignored: played.report.ignored,
        finished: finished(&played.state),
        seats: seats_of(&played.state),
        news: played.report.news,
        notes,
        kept: fresh.map(|s| s.into_owned()),
        state: played.files.state,
        next: None,
    })
}

/// A sheet checked for `empire`: the text a player reads and, for the API and the web
/// editor, every diagnostic and the forecast as JSON, each made when asked for.
fn checked(
    map: &Map,
    state: &GameState,
    empire: EmpireCode,
    sheet: &str,
    file: &str,
) -> Result<Checked> {
    let report = check_text(map, state, empire, sheet.to_string(), file, Format::Text)?;
    Ok(Checked::new(report.errors, report.warnings, Detail(report)))
}

#[derive(Debug)]
struct Detail(crate::check::CheckReport);

impl ruleset_api::CheckDetail for Detail {
    fn text(&self) -> String {
        self.0.to_string()
    }

    fn json(&self) -> Option<serde_json::Value> {
        serde_json::to_value(&self.0).ok()
    }

    fn diagnostics(&self) -> Vec<ruleset_api::Diagnostic> {
        self.0.diagnostics.iter().map(diagnostic).collect()
    }

    // The forecast of 3.6-3.7: the BPs and the treasury after each action.
    fn forecast(&self) -> Option<ruleset_api::Forecast> {
        let f = &self.0.forecast;
        Some(ruleset_api::Forecast {
            title: "Forecast".to_string(),
            note:
                "What your actions would do if no other empire acted: BPs and treasury after each."
                    .to_string(),
            columns: ["Action", "Order", "Result", "BPs", "Treasury"]
                .map(String::from)
                .to_vec(),
            rows: f
                .steps
                .iter()
                .map(|s| {
                    vec![
                        s.slot.to_string(),
                        s.order.clone(),
                        // Why an action fails is the point of the forecast: the cell says
                        // so, with the caveat the text form prints beneath the step.
                        match &s.caveat {
                            Some(c) => format!("{} (note: {c})", crate::check::outcome_text(s)),
                            None => crate::check::outcome_text(s),
                        },
                        s.bps.to_string(),
                        s.treasury.to_string(),
                    ]
                })
                .collect(),
            text: String::new(),
            end: format!(
                "Start: {} BPs, treasury {}. End: {} BPs left over, {} returned to the treasury, treasury {}.",
                f.start_bps, f.start_treasury, f.leftover_bps, f.cash_returned, f.end_treasury
            ),
        })
    }
}

/// An order checker's diagnostic in the shape every door shows.
fn diagnostic(d: &empires_orders::Diagnostic) -> ruleset_api::Diagnostic {
    ruleset_api::Diagnostic {
        severity: ruleset_api::Severity::of(d.is_error()),
        line: d.line,
        column: d.column,
        code: d.code.as_str().to_string(),
        message: d.message.clone(),
        expected: d.expected.clone(),
        suggestions: d.suggestions.clone(),
        note: None,
    }
}

/// How an Empires turnsheet is written (2.6, 2.9), for the editor.
fn sheet_help(actions: u32) -> ruleset_api::SheetHelp {
    ruleset_api::SheetHelp {
        label: format!("Turnsheet: one action a line, in order ({actions} actions)"),
        help: "One action a line: VERB WHERE WHERE-TO NUMBER, for example 2. ATTACK LON NFK 3; - leaves a box blank. Everything after # is a note."
            .to_string(),
        messages: Some("MESSAGES".to_string()),
    }
}

/// Every report with who may read it, by Empires' naming of its reports: `EN.*` is the
/// empire's, `public.*` everyone's, anything else the GM's
/// ([`crate::store::Reader::of_turn_file`]).
fn declared(state: &GameState, reports: Vec<(String, String)>) -> Vec<Written> {
    use crate::store::{Reader, SeatCode};
    use empires_host::gamedir::REPORTS_DIR;
    let seats: Vec<SeatCode> = state.empires.iter().map(|e| crate::seat(e.code)).collect();
    reports
        .into_iter()
        .map(|(name, text)| {
            let readers = match Reader::of_turn_file(&format!("{REPORTS_DIR}/{name}"), &seats) {
                Reader::All => Readers::Everyone,
                Reader::Seat(s) => Readers::Seats(vec![s.to_string()]),
                Reader::Seats(ss) => Readers::Seats(ss.iter().map(ToString::to_string).collect()),
                Reader::Gm => Readers::Gm,
            };
            Written {
                name,
                text,
                readers,
            }
        })
        .collect()
}

/// An Empires game as the doors keep it between turns: the map and the state parsed once.
pub struct EmpiresGame {
    name: String,
    loaded: Arc<Loaded>,
    /// The map's whole layer, read from the kept `map.js` the first time a report is
    /// mailed.
    layers: std::sync::OnceLock<Option<Arc<empires_maps::draw::Layers>>>,
}

impl EmpiresGame {
    /// The game kept under `name`, as loaded.
    pub fn new(name: &str, loaded: Arc<Loaded>) -> EmpiresGame {
        EmpiresGame {
            name: name.to_string(),
            loaded,
            layers: std::sync::OnceLock::new(),
        }
    }

    pub fn loaded(&self) -> &Arc<Loaded> {
        &self.loaded
    }

    fn layers(&self) -> Option<&empires_maps::draw::Layers> {
        let l = &self.loaded;
        self.layers
            .get_or_init(|| crate::drawing::layers(&l.map, &l.map_text, l.map_script.as_deref()))
            .as_deref()
    }
}

impl Game for EmpiresGame {
    fn ruleset(&self) -> &'static dyn Ruleset {
        &Empires
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn turn(&self) -> u32 {
        self.loaded.turn
    }

    fn title(&self) -> &str {
        &self.loaded.state.game
    }

    fn seats(&self) -> Result<Vec<Seat>> {
        Ok(seats_of(&self.loaded.state))
    }

    // 11.7: a game won takes no more sheets.
    fn finished(&self) -> Result<Option<String>> {
        Ok(won(&self.loaded.state))
    }

    fn sheet(&self, seat: &str) -> Result<String> {
        let code = empire(&self.loaded.state, seat)?;
        Ok(self.loaded.blank_sheet(&self.name, code))
    }

    fn mail_report(
        &self,
        turn: u32,
        files: &ruleset_api::mail::TurnFiles,
        seat: &str,
    ) -> Result<ruleset_api::mail::MailReport> {
        let e = empire(&self.loaded.state, seat)?;
        crate::mail::mail_report(&self.loaded, self.layers(), turn, files, e)
    }

    fn page_script(&self) -> Option<&str> {
        self.loaded.map_script.as_deref()
    }

    fn sheet_help(&self, seat: &str) -> ruleset_api::SheetHelp {
        let state = &self.loaded.state;
        let actions = empire(state, seat).map_or(state.options.actions_per_turn, |e| {
            crate::actions_of(state, e)
        });
        sheet_help(actions)
    }

    fn check(&self, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        let l = &self.loaded;
        checked(&l.map, &l.state, empire(&l.state, seat)?, sheet, file)
    }

    // The engine and the computer players alone: no report is rendered (section 10 changes
    // no state), so replaying a long game stays quick.
    fn replay(&self, orders: Orders) -> Result<String> {
        let l = &self.loaded;
        let mut sheets = BTreeMap::new();
        for (seat, text) in orders.sheets {
            if let Ok(code) = empire(&l.state, seat) {
                sheets.insert(code, empires_orders::parse_turnsheet(text));
            }
        }
        let next = l.state.turn + 1;
        let outcome = crate::turn::adjudicate_sheets(&l.map, &l.state, next, sheets)?.outcome;
        to_pretty_json(&outcome.state, "state.json")
    }

    fn play(&self, orders: Orders) -> Result<Turn> {
        let l = &self.loaded;
        let text = GameText {
            name: &self.name,
            map: &l.map_text,
            state: "",
            kept: l.map_script.as_deref(),
        };
        play_on(text, &l.map, &l.state, orders)
    }

    fn warnings(&self) -> &[String] {
        &self.loaded.warnings
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
