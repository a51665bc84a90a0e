//! The site in a real browser: headless Chromium driven through WebDriver (Debian's
//! `chromium` and `chromium-driver`, which `.ci/run` installs). A player logs in, types a
//! turnsheet with a mistake, sees the message appear at its line as they type, fixes it,
//! sends it and reads the receipt; the GM plays the turn from the console; the player reads
//! the new report and is refused another empire's.
//!
//! Without the browser the test says it was skipped; with `EMPIRES_REQUIRE_BROWSER=1` (as
//! `.ci/run` sets) a missing browser fails it. With `EMPIRES_SCREENSHOTS=<dir>` it saves
//! screenshots of the order page, the console and the game page at desktop and phone widths
//! there.

use crate::common;

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// The driver process, stopped when the test ends however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start_driver() -> Option<(Driver, String)> {
    let required = std::env::var("EMPIRES_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    if !std::path::Path::new(CHROMEDRIVER).exists() || !std::path::Path::new(CHROMIUM).exists() {
        assert!(
            !required,
            "EMPIRES_REQUIRE_BROWSER=1 but {CHROMIUM} or {CHROMEDRIVER} is missing"
        );
        eprintln!(
            "skipped: the browser test needs {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)"
        );
        return None;
    }
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting chromedriver");
    let driver = Driver(child);
    // The driver is ready when it takes connections.
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return Some((driver, format!("http://127.0.0.1:{port}")));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("chromedriver did not start on port {port}");
}

async fn browser(driver: &str) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"]
        }),
    );
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(driver)
        .await
        .expect("connecting to chromedriver")
}

fn shots() -> Option<PathBuf> {
    std::env::var_os("EMPIRES_SCREENSHOTS").map(PathBuf::from)
}

/// Screenshots at desktop and phone widths; on the phone, scrolled to `phone_at` if given.
async fn shoot(c: &Client, name: &str, phone_at: Option<&str>) {
    if let Some(dir) = shots() {
        std::fs::create_dir_all(&dir).unwrap();
        for (width, height, suffix) in [(1280, 1000, "desktop"), (390, 844, "phone")] {
            c.set_window_size(width, height).await.unwrap();
            if let (Some(id), "phone") = (phone_at, suffix) {
                let script = format!("document.getElementById('{id}').scrollIntoView()");
                c.execute(&script, vec![]).await.unwrap();
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
            let png = c.screenshot().await.unwrap();
            std::fs::write(dir.join(format!("{name}-{suffix}.png")), png).unwrap();
        }
        c.set_window_size(1280, 1000).await.unwrap();
    }
}

async fn log_in(c: &Client, base: &str, name: &str) {
    c.goto(&format!("{base}/login")).await.unwrap();
    c.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys(&format!("{name}-password"))
        .await
        .unwrap();
    c.find(Locator::Css("main form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_url(&url::Url::parse(&format!("{base}/games")).unwrap())
        .await
        .unwrap();
}

async fn log_out(c: &Client) {
    c.find(Locator::Css("header form button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The text of the element `css` once it contains `want`, within ten seconds.
async fn wait_text(c: &Client, css: &str, want: &str) -> String {
    let mut last = String::new();
    for _ in 0..100 {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            last = e.text().await.unwrap_or_default();
            if last.contains(want) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{css} never showed {want:?}; it showed {last:?}");
}

/// The site served on a free port of this machine, as `empires serve` serves it.
struct Site {
    base: String,
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<empires_host::Result<()>>,
}

impl Site {
    async fn start(w: &common::World) -> Site {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(empires_web::serve::run(listener, w.host.clone(), async {
            let _ = stopped.await;
        }));
        Site { base, stop, server }
    }

    /// The site served on `listener`, already bound (so that the host could be told its
    /// address for the links it mails).
    async fn on(listener: tokio::net::TcpListener, w: &common::World) -> Site {
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(empires_web::serve::run(listener, w.host.clone(), async {
            let _ = stopped.await;
        }));
        Site { base, stop, server }
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        self.server.await.unwrap().unwrap();
    }
}

/// On the console: plays the turn now, and waits for the page to say it was played.
async fn play_now(c: &Client) {
    c.find(Locator::Css("#play + form button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(c, ".notice", "The turn was played").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_and_the_gm_play_a_turn_in_a_real_browser() {
    let Some((_driver, driver_url)) = start_driver().await else {
        return;
    };
    let w = common::world().await;
    let site = Site::start(&w).await;
    let base = site.base.clone();
    let c = browser(&driver_url).await;

    log_in(&c, &base, "alice").await;
    c.goto(&format!("{base}/games/alpha/orders")).await.unwrap();
    let sheet = c.find(Locator::Id("sheet")).await.unwrap();
    sheet.clear().await.unwrap();
    sheet
        .send_keys("GAME alpha\nTURN 1\nEMPIRE EN\n\n1. TAX\n2. LEVY LOM\n")
        .await
        .unwrap();
    // Checked as it is typed: the message appears in the list and at line 6 of the listing.
    let listed = wait_text(&c, "#diagnostics", "line 6").await;
    assert!(listed.contains("Did you mean LON"), "{listed}");
    let at_line = wait_text(&c, "#listing .marked", "LEVY LOM").await;
    assert!(at_line.contains("E0") || at_line.contains("W"), "{at_line}");
    shoot(&c, "orders", Some("check")).await;

    // Fixed, sent: the receipt.
    sheet.clear().await.unwrap();
    sheet
        .send_keys("GAME alpha\nTURN 1\nEMPIRE EN\n\n1. TAX\n2. LEVY LON\n")
        .await
        .unwrap();
    wait_text(&c, "#check-summary", "No mistakes found").await;
    c.find(Locator::Css("#sheet-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let receipt = wait_text(&c, "#receipt", "SHA-256").await;
    assert!(receipt.contains("turn 1"), "{receipt}");

    // She asks for her reports by mail and takes a mail password, shown once.
    c.goto(&format!("{base}/account/mail")).await.unwrap();
    let email = c.find(Locator::Id("email")).await.unwrap();
    email.clear().await.unwrap();
    email.send_keys("alice@example.org").await.unwrap();
    c.find(Locator::Css("input[name=reports]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.find(Locator::Css("form[action='/account/mail'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, ".notice", "Saved").await;
    c.find(Locator::Css("form[action='/account/mail-password'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, ".notice", "shown only now").await;
    let shown = c
        .find(Locator::Css("input.copy"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(shown.len(), 14, "a password in three groups: {shown:?}");
    shoot(&c, "mail-settings", None).await;
    c.goto(&format!("{base}/account/mail")).await.unwrap();
    wait_text(&c, "main", "You have a mail password").await;
    assert!(
        !c.source().await.unwrap().contains(&shown),
        "the password is not shown again"
    );
    log_out(&c).await;

    // The GM sees the sheet arrived and plays the turn.
    log_in(&c, &base, "gm1").await;
    c.goto(&format!("{base}/games/alpha/console"))
        .await
        .unwrap();
    wait_text(&c, "main", "Sheets in: 1 of 4 seats").await;
    shoot(&c, "console", None).await;
    play_now(&c).await;
    // The GM puts the game on a weekly deadline in Paris time.
    let spec = c.find(Locator::Id("spec")).await.unwrap();
    spec.clear().await.unwrap();
    spec.send_keys("fridays 18:00 Europe/Paris early")
        .await
        .unwrap();
    c.find(Locator::Id("remind"))
        .await
        .unwrap()
        .send_keys("24h,2h")
        .await
        .unwrap();
    c.find(Locator::Css("form[action$='/console/schedule'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, ".notice", "The schedule was set").await;
    let deadlines = wait_text(&c, "#deadlines + p", "Friday").await;
    assert!(deadlines.contains("18:00 CET"), "{deadlines}");
    c.execute(
        "document.getElementById('deadlines').scrollIntoView()",
        vec![],
    )
    .await
    .unwrap();
    shoot(&c, "console-deadlines", Some("deadlines")).await;
    // The GM's mail page: mail passwords by seat, the outbox and the mail log.
    c.goto(&format!("{base}/games/alpha/console/mail"))
        .await
        .unwrap();
    wait_text(&c, "main", "Mail passwords").await;
    shoot(&c, "console-mail", None).await;
    log_out(&c).await;

    // The player reads the new report, and is refused another empire's.
    log_in(&c, &base, "alice").await;
    c.goto(&format!("{base}/games/alpha")).await.unwrap();
    wait_text(&c, "main", "Turn 1 has been played").await;
    shoot(&c, "game", Some("report")).await;
    c.goto(&format!("{base}/games/alpha/turns/1/reports/EN.html"))
        .await
        .unwrap();
    wait_text(&c, "body", "England").await;
    // Under the page's Content-Security-Policy the report's own scripts ran (the map's
    // layer is filled in, the zoom buttons shown), and any other inline script is refused.
    let csp = c
        .execute(
            "var parts=document.querySelectorAll('.map [data-part]');\
             var filled=Array.prototype.every.call(parts,function(g){return g.childElementCount>0});\
             var zoom=document.querySelector('.zoom');\
             var seen=[];document.addEventListener('securitypolicyviolation',function(e){seen.push(e.violatedDirective)});\
             var s=document.createElement('script');s.textContent='window.injected=1';document.body.appendChild(s);\
             return new Promise(function(done){setTimeout(function(){done([parts.length,filled,!!zoom&&!zoom.hidden,window.injected===undefined,seen.join(' ')])},200)});",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        csp[0].as_u64().unwrap_or(0) > 0
            && csp[1] == true
            && csp[2] == true
            && csp[3] == true
            && csp[4].as_str().unwrap_or("").contains("script-src"),
        "parts, filled, zoom shown, injected script refused, violations: {csp}"
    );
    c.goto(&format!("{base}/games/alpha/turns/1/reports/SC.html"))
        .await
        .unwrap();
    wait_text(&c, "main", "404").await;

    c.close().await.unwrap();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kingdom_sends_orders_and_reads_its_report_in_a_real_browser() {
    let Some((_driver, driver_url)) = start_driver().await else {
        return;
    };
    let w = common::world().await;
    crate::napoleonic::europe(&w).await;
    let site = Site::start(&w).await;
    let base = site.base.clone();
    let c = browser(&driver_url).await;

    // France's player finds her blank sheet with its dry run, adds an order and sends it.
    log_in(&c, &base, "alice").await;
    c.goto(&format!("{base}/games/europe")).await.unwrap();
    wait_text(&c, "main", "You play France").await;
    shoot(&c, "napoleonic-game-start", None).await;
    c.goto(&format!("{base}/games/europe/orders"))
        .await
        .unwrap();
    let check = wait_text(&c, "#check", "Dry run").await;
    assert!(check.contains("No order fails"), "{check}");
    let sheet = c.find(Locator::Id("sheet")).await.unwrap();
    sheet.send_keys("\nMARCH NOWHERE\n").await.unwrap();
    // Checked as it is written: the mistake is named at its line before the sheet is sent.
    let live = wait_text(&c, "#listing .marked", "MARCH NOWHERE").await;
    assert!(live.contains("E"), "{live}");
    wait_text(&c, "#check-summary", "1 error").await;
    c.find(Locator::Css("#sheet-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let receipt = wait_text(&c, "#receipt", "was kept").await;
    assert!(receipt.contains("1 error"), "{receipt}");
    c.goto(&format!("{base}/games/europe/orders"))
        .await
        .unwrap();
    wait_text(&c, "#check-summary", "1 error").await;
    shoot(&c, "napoleonic-orders", Some("check")).await;
    log_out(&c).await;

    // The GM plays the turn from the console.
    log_in(&c, &base, "gm1").await;
    c.goto(&format!("{base}/games/europe/console"))
        .await
        .unwrap();
    wait_text(&c, "main", "Sheets in: 1 of 22 seats").await;
    shoot(&c, "napoleonic-console", None).await;
    play_now(&c).await;
    log_out(&c).await;

    // She reads France's report of turn 1, and is refused Prussia's.
    log_in(&c, &base, "alice").await;
    c.goto(&format!("{base}/games/europe")).await.unwrap();
    wait_text(&c, "main", "Turn 1 has been played").await;
    shoot(&c, "napoleonic-game", Some("report")).await;
    c.goto(&format!("{base}/games/europe/turns/1/reports/FRA.html"))
        .await
        .unwrap();
    wait_text(&c, "body", "HEADQUARTERS").await;
    shoot(&c, "napoleonic-report", None).await;
    c.goto(&format!("{base}/games/europe/turns/1/reports/PRU.html"))
        .await
        .unwrap();
    wait_text(&c, "main", "404").await;

    c.close().await.unwrap();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_race_in_steps_is_ruled_by_the_gm_and_a_split_crowd_switches_seats_in_a_real_browser() {
    let Some((_driver, driver_url)) = start_driver().await else {
        return;
    };
    let w = common::world().await;
    let seats = [("RED", "alice"), ("BLU", "bob"), ("GRN", "carol")];
    empires_testkit::relay_game(&w.host.store, "race", &seats, common::START).await;
    let gm = w
        .host
        .store
        .accounts
        .account_by_name("gm1")
        .await
        .unwrap()
        .unwrap();
    w.host
        .store
        .accounts
        .set_game_gm("race", gm.id)
        .await
        .unwrap();
    // RED runs and asks the GM for something the rules do not cover.
    let alice = w.session("alice").await;
    let red = w
        .send_sheet("race", &alice, "RUNNER RED\nRUN 4\nASK a second baton\n", 1)
        .await;
    assert_eq!(red.status, axum::http::StatusCode::OK, "{}", red.body);
    w.host.play_turn("race", Some(1), None).await.unwrap();
    let site = Site::start(&w).await;
    let base = site.base.clone();
    let c = browser(&driver_url).await;

    // The GM's console says BLU's leg waits for the rulings; the GM sends them.
    log_in(&c, &base, "gm1").await;
    c.goto(&format!("{base}/games/race/console")).await.unwrap();
    wait_text(&c, "main", "waits for your rulings").await;
    c.find(Locator::Id("gm-rulings"))
        .await
        .unwrap()
        .send_keys("DENY RED")
        .await
        .unwrap();
    c.find(Locator::Css("#gm-rulings + button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, ".notice", "Your rulings are kept").await;
    shoot(&c, "steps-console", Some("rulings")).await;
    play_now(&c).await;
    log_out(&c).await;

    // The crowd has split: carol holds both halves, and writes the far stand's orders.
    log_in(&c, &base, "carol").await;
    c.goto(&format!("{base}/games/race")).await.unwrap();
    wait_text(&c, "main", "You hold 2 seats").await;
    shoot(&c, "steps-game", None).await;
    c.find(Locator::LinkText("The far stand (YEL)"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, "main", "You play The far stand").await;
    c.goto(&format!("{base}/games/race/orders?seat=YEL"))
        .await
        .unwrap();
    let sheet = c.find(Locator::Id("sheet")).await.unwrap();
    sheet.clear().await.unwrap();
    sheet.send_keys("RUNNER YEL\nCHEER BLU\n").await.unwrap();
    c.find(Locator::Css("#sheet-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, "main", "standing orders").await;
    c.goto(&format!("{base}/games/race?seat=YEL"))
        .await
        .unwrap();
    let page = wait_text(&c, "main", "My standing orders").await;
    assert!(page.contains("CHEER BLU"), "{page}");
    shoot(&c, "steps-standing", None).await;
    let report = c
        .goto(&format!("{base}/games/race/turns/2/reports/BLU.txt"))
        .await;
    assert!(report.is_ok());
    wait_text(&c, "body", "404").await;

    c.close().await.unwrap();
    site.stop().await;
}

/// The text part of a queued message, its soft line breaks undone.
fn mail_text(raw: &[u8]) -> String {
    let m = mail_parser::MessageParser::default().parse(raw).unwrap();
    m.body_text(0).map(|t| t.into_owned()).unwrap_or_default()
}

/// A player who has only a phone: invited by mail by the GM, she sets her password from the
/// mailed link at phone width, is mailed her first report, answers two turns by replying to
/// her report mails with her password and her actions, and in the web editor sees why an
/// action of hers would fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_player_invited_by_mail_plays_two_turns_by_reply_and_reads_reasons_on_the_web() {
    let Some((_driver, driver_url)) = start_driver().await else {
        return;
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let w = common::world_with(empires_web::WebConfig {
        mail_address: Some("Empires <empires@localhost>".into()),
        public_url: Some(base.clone()),
        ..empires_web::WebConfig::default()
    })
    .await;
    let store = w.host.store.clone();
    let cfg = w.host.mail_config().unwrap().unwrap();
    // Turn 0 was mailed before the seat had a player.
    store.mail.turn_mailed("alpha", 0, 1).await.unwrap();
    let site = Site::on(listener, &w).await;
    let c = browser(&driver_url).await;

    // The GM, on a phone, invites her by her address.
    c.set_window_size(390, 844).await.unwrap();
    log_in(&c, &base, "gm1").await;
    c.goto(&format!("{base}/games/alpha/console"))
        .await
        .unwrap();
    let seat = c.find(Locator::Id("seat-IR")).await.unwrap();
    seat.clear().await.unwrap();
    seat.send_keys("dora@example.org").await.unwrap();
    c.find(Locator::Css(
        "form[action$='/console/seat']:has(#seat-IR) button",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    wait_text(&c, ".notice", "An invitation was mailed").await;
    shoot(&c, "console-invited", None).await;
    log_out(&c).await;

    // The invitation's link, opened on her phone: she chooses her password.
    let due = store.mail.due_mail(i64::MAX, 100).await.unwrap();
    let invitation = due
        .iter()
        .find(|m| m.recipient == "dora@example.org")
        .expect("the invitation");
    let text = mail_text(&invitation.message);
    let at = text.find(&format!("{base}/invite/")).expect("the link");
    let link = text[at..].split_whitespace().next().unwrap().to_string();
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&link).await.unwrap();
    wait_text(&c, "main", "dora").await;
    shoot(&c, "invitation", None).await;
    c.set_window_size(390, 844).await.unwrap();
    for id in ["password", "again"] {
        c.find(Locator::Id(id))
            .await
            .unwrap()
            .send_keys("doras-password")
            .await
            .unwrap();
    }
    c.find(Locator::Css("main form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, "main", "alpha").await;
    // Her mail password, shown once on her mail page.
    c.goto(&format!("{base}/account/mail")).await.unwrap();
    c.find(Locator::Css("form[action='/account/mail-password'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_text(&c, ".notice", "shown only now").await;
    let password = c
        .find(Locator::Css("input.copy"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();

    // Her first report is in her mail: she answers it, and the next, by reply.
    let dora = store
        .accounts
        .account_by_name("dora")
        .await
        .unwrap()
        .unwrap();
    let ir = empires_host::store::SeatCode::parse("IR").unwrap();
    let mut r = empires_mail::Receiver::new(&store, &cfg);
    for turn in 0..2u32 {
        let due = store.mail.due_mail(i64::MAX, 200).await.unwrap();
        let subject = format!(": report of turn {turn}, alpha");
        let report = due
            .iter()
            .rev()
            .find(|m| m.recipient == "dora@example.org" && m.subject.contains(&subject))
            .unwrap_or_else(|| panic!("the report of turn {turn} mailed to her"));
        let parsed = mail_parser::MessageParser::default()
            .parse(&report.message)
            .unwrap();
        let id = parsed.message_id().unwrap().to_string();
        let reply = format!(
            "From: dora@example.org\r\nTo: empires@localhost\r\nSubject: Re: {}\r\n\
             Message-ID: <reply{turn}@phone.example>\r\nIn-Reply-To: <{id}>\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
             PASSWORD {password}\r\n1. TAX\r\n\r\nSent from my iPhone\r\n",
            report.subject
        );
        let got = r
            .receive(reply.as_bytes(), reply.len(), w.host.now())
            .await
            .unwrap();
        assert_eq!(got.word(), "accepted", "turn {}: {got:?}", turn + 1);
        let kept = store
            .accounts
            .latest_sheet("alpha", ir, turn + 1)
            .await
            .unwrap()
            .expect("her sheet kept");
        assert_eq!(String::from_utf8(kept.0).unwrap(), "1. TAX\n");
        w.host
            .play_turn("alpha", Some(turn + 1), None)
            .await
            .unwrap();
        empires_mail::reports::queue_reports(&store, &cfg, "alpha", w.host.now())
            .await
            .unwrap();
    }
    assert_eq!(w.host.turn("alpha").await.unwrap(), 2);
    let _ = dora;

    // On the web, at phone width, the editor says why an action would fail.
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&format!("{base}/games/alpha/orders")).await.unwrap();
    let sheet = c.find(Locator::Id("sheet")).await.unwrap();
    sheet.clear().await.unwrap();
    sheet
        .send_keys("GAME alpha\nTURN 3\nEMPIRE IR\n\n1. TAX\n2. LEVY LON\n")
        .await
        .unwrap();
    let forecast = wait_text(&c, "#forecast", "FAILS").await;
    assert!(forecast.contains("LON"), "{forecast}");
    shoot(&c, "orders-forecast", Some("forecast-title")).await;
    site.stop().await;
}
