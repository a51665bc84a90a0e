//! Napoleonic Empires behind the host's [`Ruleset`] interface: the `napoleonic-*` crates
//! as the host sees them. The program lists [`Napoleonic`] among the rulesets it runs.

use kept::KeptDrawing;
use napoleonic_orders::Code;
use napoleonic_report::draw::MapDrawer;
use napoleonic_report::model::{Message, MessageKind};
use napoleonic_rules::event::What;
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::{GameState, KingdomCode, KingdomOrders, Map};
use ruleset_api::{
    Checked, Error, Game, GameText, HostedGame, Orders, Result, Ruleset, Seat, Setup, SheetHeader,
    Started, Turn, Written, to_pretty_json,
};
use std::collections::BTreeMap;
use std::sync::Arc;

mod kept;

pub struct Napoleonic;

/// The new-game option naming the kingdoms whose rulers start as Royalty (2.10).
pub const ROYALTY_OPTION: &str = "royalty";

/// The standard map of Europe's `kept.json`, drawn when the program was built (by the
/// crate's build script, with [`kept::draw`]): drawing it takes seconds.
const BUILT_EUROPE: &str = include_str!(concat!(env!("OUT_DIR"), "/napoleonic.kept.json"));

/// The drawing of `map_text` built into the program, if it is the standard map's text.
fn built(map_text: &str) -> Option<&'static str> {
    (map_text == napoleonic_rules::standard::EUROPE_TOML).then_some(BUILT_EUROPE)
}

/// The kept drawing of a map: the built one for the standard map, else worked out.
fn kept_drawing(map: &Map, map_text: &str) -> Result<String> {
    match built(map_text) {
        Some(b) => Ok(b.to_string()),
        None => kept::draw(map, map_text).map_err(Error::new),
    }
}

/// The map's drawer from the kept layer, or from the built one or worked out again (and
/// returned to keep) when it is missing, damaged or of another map.
fn drawer(game: GameText, map: &Map) -> Result<(MapDrawer, Option<String>)> {
    let hash = kept::map_hash(game.map);
    let from = |k: &str| {
        serde_json::from_str::<KeptDrawing>(k)
            .ok()
            .filter(|k| k.map == hash)
            .and_then(|k| MapDrawer::with_layers(map, k.layers).ok())
    };
    if let Some(d) = game.kept.and_then(from) {
        return Ok((d, None));
    }
    let kept = kept_drawing(map, game.map)?;
    let d = from(&kept).ok_or_else(|| Error::new("the map's drawing does not fit the map"))?;
    Ok((d, Some(kept)))
}

fn map_of(text: &str) -> Result<Map> {
    Map::parse(text)
        .map_err(|e| Error::new(format!("the map cannot be used:\n  {}", e.join("\n  "))))
}

fn state_of(text: &str) -> Result<GameState> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de)
        .map_err(|e| Error::new(format!("state.json: {}: {}", e.path(), e.inner())))
}

fn kingdom(state: &GameState, seat: &str) -> Result<KingdomCode> {
    let code = KingdomCode::new(&seat.to_ascii_uppercase()).map_err(Error::new)?;
    match state.kingdoms.get(&code) {
        Some(k) if k.alive && !k.independent => Ok(code),
        Some(_) => Err(Error::new(format!("{code} is no longer in the game"))),
        None => Err(Error::new(format!(
            "no kingdom {code} in this game; the kingdoms are {}",
            state
                .kingdoms
                .values()
                .filter(|k| !k.independent)
                .map(|k| k.code.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ))),
    }
}

fn seats_of(state: &GameState) -> Vec<Seat> {
    state
        .kingdoms
        .values()
        .filter(|k| !k.independent)
        .map(|k| Seat::new(k.code.to_string(), k.name.clone(), k.alive))
        .collect()
}

fn sheet_of(name: &str, map: &Map, state: &GameState, seat: &str) -> Result<String> {
    let k = kingdom(state, seat)?;
    Ok(napoleonic_orders::sheet::order_sheet(name, map, state, &k))
}

/// A kingdom's sheet checked: every diagnostic at its line, and the dry run.
fn check_of(map: &Map, state: &GameState, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
    let k = kingdom(state, seat)?;
    let parsed = napoleonic_orders::parse(map, sheet);
    let diagnostics = napoleonic_orders::check::check_sheet(map, state, &k, &parsed);
    let dry_run = napoleonic_orders::dryrun::dry_run(map, state, &k, &parsed.orders)
        .map_err(|e| Error::new(e.to_string()))?;
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let mut text = napoleonic_orders::render(file, sheet, &diagnostics);
    if diagnostics.is_empty() {
        text.push_str(&format!("{file}: no problems found\n"));
    }
    text.push('\n');
    let dry_run = dry_run.text(map);
    text.push_str(&dry_run);
    let shown = diagnostics.iter().map(diagnostic).collect();
    Ok(Checked::new(
        errors,
        diagnostics.len() - errors,
        Detail {
            text,
            diagnostics: shown,
            dry_run,
        },
    ))
}

/// The GM's rulings checked ([`napoleonic_rules::rulings`]): every line that cannot be
/// read, with what was expected, and what the rest will do.
fn check_rulings_of(map: &Map, state: &GameState, file: &str, text: &str) -> Checked {
    let (rulings, problems) = napoleonic_rules::rulings::read(map, state, text);
    let mut out = String::new();
    for p in &problems {
        out.push_str(&format!(
            "{file}: {} (expected {})\n",
            p.message, p.expected
        ));
    }
    out.push_str(&ruled_text(&rulings));
    let diagnostics = problems
        .iter()
        .map(|p| ruleset_api::Diagnostic {
            severity: ruleset_api::Severity::Error,
            line: u32::try_from(p.line).unwrap_or(u32::MAX),
            column: 1,
            code: "E-RULING".to_string(),
            message: p.message.clone(),
            expected: Some(p.expected.to_string()),
            suggestions: Vec::new(),
            note: None,
        })
        .collect();
    Checked::new(
        problems.len(),
        0,
        Detail {
            text: out,
            diagnostics,
            dry_run: String::new(),
        },
    )
}

/// What the rulings will do when the next turn is played, one line each.
fn ruled_text(r: &napoleonic_rules::rulings::Rulings) -> String {
    let mut out = String::new();
    for (k, status) in &r.status {
        let s = match status {
            napoleonic_rules::state::Status::Royalty => "Royalty",
            napoleonic_rules::state::Status::Commoner => "Commoner",
        };
        let fee = r.fees.get(k).map_or(String::new(), |n| {
            format!(", a fee of {n} turn credits where turns are paid")
        });
        out.push_str(&format!(
            "{k}'s ruler is {s} from the next turn played{fee}.\n"
        ));
    }
    for k in &r.deny_proclamation {
        out.push_str(&format!(
            "{k}'s proclamation earns nothing next turn (L13).\n"
        ));
    }
    if let Some(d) = &r.winner {
        let names: Vec<&str> = d.kingdoms.iter().map(|k| k.as_str()).collect();
        out.push_str(&format!(
            "The game ends with the next turn, won by {}: {}.\n",
            names.join(" + "),
            d.reason
        ));
    }
    if r.is_empty() {
        out.push_str("No rulings.\n");
    }
    out
}

/// A kingdom's sheet checked, as every door shows it.
#[derive(Debug)]
struct Detail {
    text: String,
    diagnostics: Vec<ruleset_api::Diagnostic>,
    dry_run: String,
}

impl ruleset_api::CheckDetail for Detail {
    fn text(&self) -> String {
        self.text.clone()
    }

    fn diagnostics(&self) -> Vec<ruleset_api::Diagnostic> {
        self.diagnostics.clone()
    }

    fn forecast(&self) -> Option<ruleset_api::Forecast> {
        Some(ruleset_api::Forecast {
            title: "Dry run".to_string(),
            note: "Where each unit would be in each phase if no other kingdom acted, and which orders would fail.".to_string(),
            text: self.dry_run.clone(),
            ..ruleset_api::Forecast::default()
        })
    }
}

/// An order checker's diagnostic in the shape every door shows.
fn diagnostic(d: &napoleonic_orders::Diagnostic) -> ruleset_api::Diagnostic {
    ruleset_api::Diagnostic {
        severity: ruleset_api::Severity::of(d.is_error()),
        line: d.line,
        column: d.column,
        code: d.code.as_str().to_string(),
        message: d.message.clone(),
        expected: d.expected.clone(),
        suggestions: Vec::new(),
        note: d.hint.as_ref().map(|h| {
            // A sentence of its own, capitalised, after the message.
            let mut c = h.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        }),
    }
}

/// A game kept read between two turns: the map and the state parsed once.
struct Opened {
    game: HostedGame,
    map: Map,
    state: GameState,
    seats: Vec<Seat>,
}

impl Game for Opened {
    fn ruleset(&self) -> &'static dyn Ruleset {
        &Napoleonic
    }

    fn name(&self) -> &str {
        &self.game.name
    }

    fn turn(&self) -> u32 {
        self.game.turn
    }

    fn title(&self) -> &str {
        &self.game.name
    }

    fn seats(&self) -> Result<Vec<Seat>> {
        Ok(self.seats.clone())
    }

    fn sheet(&self, seat: &str) -> Result<String> {
        sheet_of(&self.game.name, &self.map, &self.state, seat)
    }

    // The report as written, its map drawn from the seat's report of the turn; a picture
    // that cannot be made leaves the page's own drawing.
    fn mail_report(
        &self,
        turn: u32,
        files: &ruleset_api::mail::TurnFiles,
        seat: &str,
    ) -> Result<ruleset_api::mail::MailReport> {
        let mut report = ruleset_api::mail::as_written(files, seat)?;
        let json = files.text(&format!("reports/{seat}.json"))?;
        match pictures(self.game.text(), seat, &json, files.whole_map) {
            Ok((png, whole, close_up)) => {
                report.html = ruleset_api::mail::picture_in_page(&report.html);
                report.picture = Some(png);
                report.whole = whole;
                report.close_up = close_up;
            }
            Err(e) => tracing::warn!("turn {turn}, {seat}: no map picture: {e}"),
        }
        Ok(report)
    }

    // Send Ambassador: read from the turn's events, the game's own record of it.
    fn introductions(
        &self,
        _turn: u32,
        files: &ruleset_api::mail::TurnFiles,
    ) -> Result<Vec<(String, String)>> {
        // The starting position (turn 0) has no events, nor introductions.
        let Some(bytes) = files.files.get("events.json") else {
            return Ok(Vec::new());
        };
        let events: Vec<napoleonic_rules::event::Event> = serde_json::from_slice(bytes)
            .map_err(|e| Error::corrupt(format!("{}: events.json: {e}", files.place)))?;
        Ok(events
            .into_iter()
            .filter_map(|e| match e.what {
                What::AmbassadorSent { from, to } => Some((from.to_string(), to.to_string())),
                _ => None,
            })
            .collect())
    }

    fn sheet_help(&self, _seat: &str) -> ruleset_api::SheetHelp {
        ruleset_api::SheetHelp {
            label: "Order sheet: orders under their headings, as the sheet explains".to_string(),
            ..ruleset_api::SheetHelp::default()
        }
    }

    fn check(&self, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        check_of(&self.map, &self.state, seat, file, sheet)
    }

    fn play(&self, orders: Orders) -> Result<Turn> {
        Napoleonic.play(self.game.text(), orders)
    }

    fn check_rulings(&self, file: &str, rulings: &str) -> Result<Checked> {
        Ok(check_rulings_of(&self.map, &self.state, file, rulings))
    }

    fn finished(&self) -> Result<Option<String>> {
        Ok(self
            .state
            .result
            .as_ref()
            .map(|v| finished_by(&self.state, v).summary))
    }

    fn warnings(&self) -> &[String] {
        &self.game.warnings
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Ruleset for Napoleonic {
    fn id(&self) -> &'static str {
        "napoleonic"
    }

    fn title(&self) -> &'static str {
        "Napoleonic Empires"
    }

    fn missed_turn(&self) -> &'static str {
        "A kingdom whose player sent no sheet does nothing this turn but pay its upkeep and collect its revenue; the computer keeps a kingdom with no player as a caretaker (it defends, recruits and annexes, and starts no war); the independents follow their own routine."
    }

    fn map_seats(&self, _map: Option<&str>) -> Vec<(String, String)> {
        napoleonic_rules::standard::europe()
            .kingdoms
            .iter()
            .map(|k| (k.code.to_string(), k.name.clone()))
            .collect()
    }

    fn new_game_form(&self) -> ruleset_api::NewGameForm {
        ruleset_api::NewGameForm {
            seats_hint: "a kingdom's code, FRA".to_string(),
            options: vec![ruleset_api::GameOption {
                id: ROYALTY_OPTION,
                label: "Kingdoms whose rulers start as Royalty, the GM's fee paid (2.10; \
                        codes separated by commas; blank: every ruler a Commoner)"
                    .to_string(),
                default: String::new(),
            }],
            ..ruleset_api::NewGameForm::default()
        }
    }

    fn create(&self, setup: &Setup) -> Result<Started> {
        let text = setup
            .map
            .clone()
            .unwrap_or_else(|| napoleonic_rules::standard::EUROPE_TOML.to_string());
        let map = map_of(&text)?;
        let mut new = NewGame::standard(setup.seed);
        new.kingdoms = setup
            .seats
            .iter()
            .map(|s| KingdomCode::new(&s.to_ascii_uppercase()).map_err(Error::new))
            .collect::<Result<_>>()?;
        self.new_game_form().check_options(&setup.options)?;
        new.royalty = setup
            .options
            .get(ROYALTY_OPTION)
            .map(|list| {
                list.split([',', ' '])
                    .filter(|c| !c.trim().is_empty())
                    .map(|c| KingdomCode::new(&c.trim().to_ascii_uppercase()).map_err(Error::new))
                    .collect::<Result<Vec<_>>>()
            })
            .transpose()?
            .unwrap_or_default();
        let roster = napoleonic_rules::mapcheck::roster_problems(&map, &new.tables);
        if !roster.is_empty() {
            return Err(Error::new(format!(
                "the map's troops are not in the roster:\n  {}",
                roster.join("\n  ")
            )));
        }
        let state = new_game(&map, &new).map_err(Error::new)?;
        // Each kingdom's report of the position before turn 1: its map of Europe and its
        // kingdom, read on the web and mailed with the blank sheet before anyone writes.
        let (drawer, kept) = drawer(
            GameText {
                name: &setup.name,
                map: &text,
                state: "",
                kept: None,
            },
            &map,
        )?;
        let kept = match kept {
            Some(k) => k,
            None => kept_drawing(&map, &text)?,
        };
        Ok(Started {
            reports: kingdom_reports(&map, &state, &[], &drawer, None),
            kept: Some(kept),
            map: text,
            state: to_pretty_json(&state, "state.json")?,
            ..Started::default()
        })
    }

    fn seats(&self, game: GameText) -> Result<Vec<Seat>> {
        Ok(seats_of(&state_of(game.state)?))
    }

    fn next_turn(&self, game: GameText) -> Result<u32> {
        Ok(state_of(game.state)?.turn)
    }

    fn sheet(&self, game: GameText, seat: &str) -> Result<String> {
        let (map, state) = (map_of(game.map)?, state_of(game.state)?);
        sheet_of(game.name, &map, &state, seat)
    }

    fn check(&self, game: GameText, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        let (map, state) = (map_of(game.map)?, state_of(game.state)?);
        check_of(&map, &state, seat, file, sheet)
    }

    fn check_rulings(&self, game: GameText, file: &str, rulings: &str) -> Result<Checked> {
        let (map, state) = (map_of(game.map)?, state_of(game.state)?);
        Ok(check_rulings_of(&map, &state, file, rulings))
    }

    fn rulings_help(&self) -> &'static str {
        "One a line: ROYALTY FRA (FEE 10 charges the GM's fee where the game is paid), \
         COMMONER FRA, DENY PROCLAMATION FRA, WINNER FRA BAV: the reason (ends the game)"
    }

    // The standard map of Europe's drawing is built into the program.
    fn built_kept(&self, map: &str) -> Option<&'static str> {
        built(map)
    }

    // N5: a game the GM declared won takes no more sheets.
    fn finished(&self, game: GameText) -> Result<Option<String>> {
        let state = state_of(game.state)?;
        Ok(state
            .result
            .as_ref()
            .map(|v| finished_by(&state, v).summary))
    }

    // The map of Europe takes a while to read: a door keeps it read between two turns.
    fn open(&self, game: HostedGame) -> Result<Arc<dyn Game>> {
        let (map, state) = (map_of(&game.map)?, state_of(&game.state)?);
        Ok(Arc::new(Opened {
            seats: seats_of(&state),
            game,
            map,
            state,
        }))
    }

    fn play(&self, game: GameText, given: Orders) -> Result<Turn> {
        let (sent, stand_ins) = (given.sheets, given.stand_ins);
        let (map, state) = (map_of(game.map)?, state_of(game.state)?);
        let mut orders: BTreeMap<KingdomCode, KingdomOrders> = BTreeMap::new();
        let mut notes = Vec::new();
        for (seat, text) in sent {
            let k = match kingdom(&state, seat) {
                Ok(k) => k,
                Err(e) => {
                    notes.push(format!("{seat}.txt: {e}"));
                    continue;
                }
            };
            let parsed = napoleonic_orders::parse(&map, text);
            // Only a header naming another kingdom or turn keeps a sheet out: every order
            // that can be read is played, and one that cannot fails in the turn.
            let wrong = napoleonic_orders::check::check_sheet(&map, &state, &k, &parsed)
                .into_iter()
                .find(|d| matches!(d.code, Code::WrongKingdom | Code::WrongTurn));
            if let Some(d) = wrong {
                notes.push(format!("{seat}.txt: {}", d.message));
                continue;
            }
            orders.insert(k, parsed.orders);
        }
        // A kingdom that sent nothing does nothing but pay its upkeep and collect its
        // revenue, its forces still defending (digest 1.2); the independents always follow
        // their own routine (G36), and its orders are kept with the turn for the GM. A
        // kingdom no one plays is kept by the caretaker (N4): it defends, recruits within
        // its means and annexes what it may, and starts no war.
        let mut all = orders.clone();
        let mut computer_orders = Vec::new();
        let mut computer_played = Vec::new();
        for seat in stand_ins {
            let Ok(k) = kingdom(&state, seat) else {
                continue;
            };
            if all.contains_key(&k) {
                continue;
            }
            let o =
                napoleonic_ai::computer_orders(&map, &state, &k, napoleonic_ai::Style::Caretaker);
            computer_orders.push((format!("{k}.json"), to_pretty_json(&o, "computer orders")?));
            computer_played.push(k.to_string());
            all.insert(k, o);
        }
        let ind = KingdomCode::independents();
        if state.kingdoms.get(&ind).is_some_and(|k| k.alive) {
            let o = napoleonic_ai::independents_orders(&map, &state);
            computer_orders.push((
                format!("{ind}.json"),
                to_pretty_json(&o, "computer orders")?,
            ));
            all.insert(ind, o);
        }
        // The GM's rulings (status, denied proclamations, a declared result): what cannot be
        // read is left out, and the GM told; the rest apply.
        let rulings = match given.rulings {
            Some(text) => {
                let (r, problems) = napoleonic_rules::rulings::read(&map, &state, text);
                notes.extend(
                    problems
                        .into_iter()
                        .map(|p| format!("rulings: {}", p.message)),
                );
                r
            }
            None => Default::default(),
        };
        let outcome = napoleonic_rules::play_ruled(&map, &state, &all, &rulings)
            .map_err(|e| Error::new(e.to_string()))?;
        // 2.10: the GM's fee for Royalty, charged where the game's turns are paid for, for a
        // ruler whose status the turn did change.
        let fees = outcome
            .events
            .iter()
            .filter_map(|e| match &e.what {
                What::StatusChanged {
                    kingdom,
                    status: napoleonic_rules::state::Status::Royalty,
                } => rulings.fees.get(kingdom).map(|credits| ruleset_api::Fee {
                    seat: kingdom.to_string(),
                    credits: *credits,
                    reason: format!("Royalty for {kingdom} from turn {} (2.10)", state.turn),
                }),
                _ => None,
            })
            .collect();
        let finished = match &outcome.declared {
            Some(Ok(v)) => Some(finished_by(&outcome.state, v)),
            Some(Err(why)) => {
                notes.push(format!("rulings: the declared result cannot stand: {why}"));
                None
            }
            None => None,
        };
        // G5: the engine only says whether the game is won; ending it is the GM's call.
        if let Some(v) = napoleonic_rules::victory::victory(&map, &outcome.state) {
            let names: Vec<&str> = v.kingdoms.iter().map(|k| k.as_str()).collect();
            notes.push(format!(
                "the game is won by {}, holding {} of the {} provinces: the GM may end it",
                names.join(" + "),
                v.provinces,
                v.of
            ));
        }
        let (drawer, kept) = drawer(game, &map)?;
        let reports = kingdom_reports(&map, &outcome.state, &outcome.events, &drawer, given.gm);
        let failed = outcome
            .events
            .iter()
            .filter(|e| matches!(e.what, What::OrderFailed { .. }))
            .count();
        Ok(Turn {
            turn: state.turn,
            seats: seats_of(&outcome.state),
            state: to_pretty_json(&outcome.state, "state.json")?,
            events: to_pretty_json(&outcome.events, "events.json")?,
            reports,
            computer_orders,
            computer_played,
            events_count: outcome.events.len(),
            failed,
            ignored: 0,
            // G5: a won game goes on until the GM ends it, with a declared result.
            finished,
            news: Vec::new(),
            notes,
            kept,
            next: None,
            fees,
        })
    }

    fn header(&self, sheet: &str) -> SheetHeader {
        // The header names no province, so any map reads it: the standard one, made once.
        static EUROPE: std::sync::OnceLock<Map> = std::sync::OnceLock::new();
        let map = EUROPE.get_or_init(napoleonic_rules::standard::europe);
        let h = napoleonic_orders::parse(map, sheet).header;
        SheetHeader {
            game: h.game.map(|g| g.value),
            seat: h.kingdom.map(|k| k.value.to_string()),
            turn: h.turn.map(|t| t.value.to_string()),
        }
    }
}

/// How a game the GM declared won ended: the winners, and each seat's result for the
/// players' ledgers ("declared-win" for the winners, "survived" for the others still in the
/// game, "knocked-out" for the defeated).
fn finished_by(state: &GameState, v: &napoleonic_rules::victory::Victory) -> ruleset_api::Finished {
    let names: Vec<&str> = v.kingdoms.iter().map(|k| k.as_str()).collect();
    let reason = match &v.how {
        napoleonic_rules::victory::How::Declared { reason } => reason.as_str(),
        _ => "",
    };
    let results = state
        .kingdoms
        .values()
        .filter(|k| !k.independent)
        .map(|k| {
            let category = if v.kingdoms.contains(&k.code) {
                "declared-win"
            } else if k.alive {
                "survived"
            } else {
                "knocked-out"
            };
            (k.code.to_string(), category.to_string())
        })
        .collect();
    ruleset_api::Finished {
        summary: format!(
            "{} won on turn {}, holding {} of the {} provinces: declared by the GM: {reason}",
            names.join(" + "),
            v.turn,
            v.provinces,
            v.of
        ),
        results,
    }
}

/// Every kingdom's report of a turn (`events` of it, leaving `state`), in its three forms,
/// each readable by its kingdom alone; the GM's messages of the turn, if any, open each.
fn kingdom_reports(
    map: &Map,
    state: &GameState,
    events: &[napoleonic_rules::event::Event],
    drawer: &MapDrawer,
    gm: Option<&str>,
) -> Vec<Written> {
    let mut reports = Vec::new();
    for k in state.kingdoms.values().filter(|k| !k.independent) {
        let mut r = napoleonic_report::report(map, state, events, &k.code, None);
        if let Some(gm) = gm.map(str::trim).filter(|m| !m.is_empty()) {
            r.messages.insert(
                0,
                Message {
                    kind: MessageKind::Notice,
                    text: format!("From the GM: {gm}"),
                },
            );
        }
        let svg = drawer.svg(map, &r);
        // Each kingdom reads its own report, and no other.
        let seat = k.code.as_str();
        let own = |ext: &str, text: String| Written::for_seat(seat, format!("{seat}.{ext}"), text);
        reports.push(own("json", napoleonic_report::model::to_json(&r)));
        reports.push(own("txt", napoleonic_report::text::text(&r)));
        reports.push(own("html", napoleonic_report::html::html(&r, Some(&svg))));
    }
    reports
}

/// The kingdom's map for mail, drawn from the seat's report of the turn
/// (`reports/SEAT.json`) as its report page draws it, in small PNGs: a close-up of the
/// kingdom and its neighbours, which reads on a phone, with the whole map beside it (the
/// letter attaches it when `whole_map`, or links it); or the whole map alone where a
/// close-up would show most of it. The last is whether the first is a close-up.
fn pictures(
    game: GameText,
    seat: &str,
    report: &str,
    whole_map: bool,
) -> Result<(Vec<u8>, Option<Vec<u8>>, bool)> {
    let map = map_of(game.map)?;
    let r: napoleonic_report::model::Report = serde_json::from_str(report)
        .map_err(|e| Error::corrupt(format!("reports/{seat}.json: {e}")))?;
    let (drawer, _) = drawer(game, &map)?;
    let svg = drawer.svg(&map, &r);
    let png = |svg: &str| empires_maps::draw::png_small(svg).map_err(Error::new);
    match drawer.close_up(&map, &r, &svg) {
        Some(close) => {
            let whole = if whole_map { Some(png(&svg)?) } else { None };
            Ok((png(&close)?, whole, true))
        }
        None => Ok((png(&svg)?, None, false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drawing built into the program is, byte for byte, what drawing the standard map
    /// now gives, and only the standard map's very text is given it.
    #[test]
    fn the_built_drawing_of_europe_is_what_drawing_it_gives() {
        let text = napoleonic_rules::standard::EUROPE_TOML;
        let map = napoleonic_rules::standard::europe();
        assert!(kept::draw(&map, text).unwrap() == BUILT_EUROPE);
        // A game that has lost its drawing is given the built one again.
        let game = GameText {
            name: "g",
            map: text,
            state: "",
            kept: None,
        };
        let (_, fresh) = drawer(game, &map).unwrap();
        assert!(fresh == Some(BUILT_EUROPE.to_string()));
        // A map changed in any way is the GM's own (drawn by `kept::draw`, as above).
        assert!(built(&format!("{text}\n# the GM's own copy\n")).is_none());
    }

    /// A game read once answers as the ruleset does from the texts: the same seats, the
    /// same blank sheet and the same check, a wrong kingdom refused alike.
    #[test]
    fn a_game_read_once_answers_as_its_texts_do() {
        let started = Napoleonic
            .create(&Setup {
                name: "europe".into(),
                seed: 5,
                map: None,
                seats: vec!["FRA".into(), "PRU".into()],
                ..Default::default()
            })
            .unwrap();
        let hosted = HostedGame {
            name: "europe".into(),
            ruleset: &Napoleonic,
            turn: 0,
            map: started.map.clone(),
            state: started.state.clone(),
            kept: started.kept.clone(),
            ready_map: None,
            warnings: vec![],
        };
        let opened = Napoleonic.open(hosted.clone()).unwrap();
        assert!(opened.as_any().is::<Opened>(), "kept parsed");
        let text = hosted.text();
        assert_eq!(opened.seats().unwrap(), Napoleonic.seats(text).unwrap());
        let sheet = opened.sheet("FRA").unwrap();
        assert_eq!(sheet, Napoleonic.sheet(text, "FRA").unwrap());
        assert!(sheet.contains("europe"), "{sheet}");
        let written = format!("{sheet}\nWAR XYZ\n");
        let a = opened.check("FRA", "f.txt", &written).unwrap();
        let b = Napoleonic.check(text, "FRA", "f.txt", &written).unwrap();
        assert_eq!(
            (a.errors, a.warnings, &a.text()),
            (b.errors, b.warnings, &b.text())
        );
        assert!(a.errors > 0, "{}", a.text());
        assert!(opened.check("EN", "f.txt", &sheet).is_err());
    }
}
