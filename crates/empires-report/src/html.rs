//! The HTML report: one self-contained page (inline CSS, the map as inline SVG, no external
//! assets) that reads well on a phone and prints well, with battle details expandable.

use crate::describe;
use crate::model::*;
use crate::put::{Put, escape_html};
use empires_rules::words::count;
use std::fmt::{self, Write};

/// Escapes text for HTML as it is written, without a copy.
pub fn esc(s: &str) -> Esc<'_> {
    Esc(s)
}

/// Text written with HTML's special characters escaped.
pub struct Esc<'a>(&'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        escape_html(self.0, |piece| f.write_str(piece))
    }
}

/// Items written one after another with a separator between them, escaped.
struct Joined<'a, T>(&'a [T], &'a str);

impl<T: AsRef<str>> fmt::Display for Joined<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (i, item) in self.0.iter().enumerate() {
            if i > 0 {
                esc(self.1).fmt(f)?;
            }
            esc(item.as_ref()).fmt(f)?;
        }
        Ok(())
    }
}

const STYLE: &str = r#"
:root{--ink:#1d232b;--muted:#5b6570;--line:#d8dde3;--accent:#8a2b1d;--bg:#fbfaf6;--card:#fff}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:980px;margin:0 auto;padding:12px}
header{border-bottom:3px double var(--ink);margin-bottom:8px}
header h1{font-size:1.35em;margin:.2em 0}
header p{margin:.1em 0;color:var(--muted)}
section{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:10px 0}
h2{font-size:1.05em;margin:.2em 0 .5em;text-transform:uppercase;letter-spacing:.04em;color:var(--accent)}
table{border-collapse:collapse;width:100%;font-size:.92em}
th,td{text-align:left;padding:3px 6px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted)}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}
.bad{color:#a01818;font-weight:600}
.cut{color:#9a5b00;font-weight:600}
.ok{color:#1e6b2e}
.you{font-weight:700}
.capture{font-weight:700}
.major{text-decoration:underline}
.warn{background:#fff3cd;border:1px solid #e0c060;padding:6px 10px;border-radius:4px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:4px 16px}
.grid div span{color:var(--muted)}
.map .view{overflow:auto;border:1px solid var(--line)}
.map svg{width:100%;height:auto;display:block;min-width:845px;max-width:none}
.map .lod2,.map .lod3,.map[data-lod="0"] .lod1,.map[data-lod="2"] .lod1,.map[data-lod="3"] .lod1{display:none}
.map[data-lod="2"] .lod2,.map[data-lod="3"] .lod3{display:inline}
.map.zoomed .view{max-height:80vh;cursor:grab}
.map path{vector-effect:non-scaling-stroke}
.zoom{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:6px}
.zoom button{font:inherit;min-width:44px;min-height:36px;padding:2px 10px;border:1px solid var(--muted);border-radius:4px;background:var(--bg);color:var(--ink)}
@media (max-width:600px){main{padding:6px}section{padding:6px 8px}table{font-size:.86em}th,td{padding:2px 4px}}
details summary{cursor:pointer}
pre.sheet{background:#f4f1e8;padding:8px;border:1px dashed var(--muted);white-space:pre-wrap}
@media print{body{background:#fff}section{border:none;padding:0;break-inside:avoid}details{display:block}details>*{display:block}.map{break-inside:avoid}.zoom{display:none}.map .view{overflow:visible;max-height:none;border:none}.map svg{width:100%!important;min-width:0}.map .lod1{display:inline!important}.map .lod2,.map .lod3{display:none!important}}
"#;

/// The width the report's map is drawn at, in the drawing's own pixels, and the size of its
/// area codes there (`empires_maps::draw::DrawOptions`). The page is at most 980 pixels wide,
/// leaving the map 930; the codes then read 12 CSS pixels.
pub const MAP_WIDTH: u32 = 960;
pub const MAP_LABEL: f64 = 12.5;

/// The smallest size, in CSS pixels, that the map's area codes are shown at: narrower than
/// `MAP_MIN_WIDTH` the map scrolls in its box rather than shrink (the `min-width` in
/// `STYLE`), and the page's script shows each zoom's own labels only where they read at
/// least this size (`READABLE` in `ZOOM_SCRIPT`).
pub const READABLE_PX: f64 = 11.0;
pub const MAP_MIN_WIDTH: u32 = 845;

/// Buttons for zooming the map, shown by the script (hidden without it).
const ZOOM_BUTTONS: &str = "<div class=\"zoom\" hidden><button type=\"button\" data-zoom=\"in\" aria-label=\"zoom in\">+</button><button type=\"button\" data-zoom=\"out\" aria-label=\"zoom out\">−</button><button type=\"button\" data-zoom=\"you\">your empire</button><button type=\"button\" data-zoom=\"all\">whole map</button></div>";

/// Zoom and pan for the map, with no library: the map is drawn at a width in CSS pixels in
/// a box that scrolls (drag with a mouse, swipe on a phone), and the drawing's labels for
/// the closest zoom that reads at least `READABLE` pixels are shown (`data-lod`). Without
/// the script, the whole map fits the page's width and its labels for the whole map show.
const ZOOM_SCRIPT: &str = r#"(function(){
var s=document.currentScript.previousElementSibling,v=s.querySelector('.view'),g=v&&v.querySelector('svg');
if(!g||!g.dataset.label)return;
var READABLE=11,W=g.viewBox.baseVal.width,L=+g.dataset.label,Z=g.dataset.zooms.split(' ').map(Number),least=W*READABLE/L;
function width(){return g.getBoundingClientRect().width}
function set(w,cx,cy){var o=width(),fx=(v.scrollLeft+cx)/o,fy=(v.scrollTop+cy)/o;
w=Math.max(v.clientWidth,Math.min(W*Z[Z.length-1]*1.5,w));
g.style.width=w+'px';g.style.minWidth='0';s.classList.toggle('zoomed',w>v.clientWidth+1);
var k=0;Z.forEach(function(z,i){if(L/z*w/W>=READABLE-0.01)k=i+1});s.dataset.lod=k;
v.scrollLeft=fx*w-cx;v.scrollTop=fy*w-cy}
function centre(f,k){v.scrollLeft=(f[0]+f[2]/2)*k-v.clientWidth/2;v.scrollTop=(f[1]+f[3]/2)*k-v.clientHeight/2}
var f=(g.dataset.focus||'').split(' ').map(Number);if(f.length<4)f=null;
function you(){if(!f)return set(v.clientWidth,0,0);var m=L*4,w=Math.min(v.clientWidth*W/(f[2]+2*m),innerHeight*0.8*W/(f[3]+2*m));
set(Math.max(w,least),0,0);centre(f,width()/W)}
s.querySelector('.zoom').hidden=false;
s.querySelector('.zoom').addEventListener('click',function(e){var z=e.target.dataset.zoom,c=[v.clientWidth/2,v.clientHeight/2];
if(z=='in')set(width()*1.5,c[0],c[1]);if(z=='out')set(width()/1.5,c[0],c[1]);if(z=='all')set(v.clientWidth,0,0);if(z=='you')you()});
var d=null;
v.addEventListener('pointerdown',function(e){if(e.pointerType=='mouse'&&s.classList.contains('zoomed')){d=[e.clientX,e.clientY,v.scrollLeft,v.scrollTop];e.preventDefault()}});
addEventListener('pointermove',function(e){if(d){v.scrollLeft=d[2]-e.clientX+d[0];v.scrollTop=d[3]-e.clientY+d[1]}});
addEventListener('pointerup',function(){d=null});
v.addEventListener('dblclick',function(e){var r=v.getBoundingClientRect();set(width()*1.5,e.clientX-r.left,e.clientY-r.top)});
addEventListener('resize',function(){set(s.classList.contains('zoomed')?width():Math.max(v.clientWidth,least),0,0)});
set(Math.max(v.clientWidth,least),0,0);if(f&&v.clientWidth<least)centre(f,width()/W);
})();"#;

fn opt(o: &Option<String>) -> Esc<'_> {
    esc(opt_str(o))
}

/// What is there, or a dash.
fn opt_str(o: &Option<String>) -> &str {
    o.as_deref().unwrap_or("–")
}

/// A page's map, drawn beforehand.
#[derive(Debug, Clone, Copy)]
pub enum PageMap<'a> {
    /// The whole drawing, in the page: a page in one file, for mail and archives.
    Whole(&'a str),
    /// The player's overlay, whose map layer the page loads from the game's one copy at
    /// `layer` (a script that sets `EmpiresMap`), so that every report of a game shares it;
    /// with `turn`, the part of the overlay every report of the turn shares is loaded from
    /// there too (a script that sets `EmpiresTurn`).
    Layered {
        overlay: &'a str,
        layer: &'a str,
        turn: Option<&'a str>,
    },
}

/// Every script a report page carries inline, so that a server can allow exactly these (a
/// Content-Security-Policy lists their hashes).
pub const INLINE_SCRIPTS: [&str; 2] = [ZOOM_SCRIPT, LAYER_SCRIPT];

/// Fills the map's placeholders from the layer that `map.js` loaded, and from the turn's
/// shared part of the overlay.
const LAYER_SCRIPT: &str = "(function(){var m=window.EmpiresMap,t=window.EmpiresTurn;if(!m)return;document.querySelectorAll('.map [data-part]').forEach(function(g){var k=g.dataset.part,p=m.parts[k];if(p==null&&t)p=t.parts[k];if(p!=null)g.innerHTML=p})})();";

/// Renders a report as a page, with the player's map if there is one.
pub fn render(r: &Report, actions_per_turn: u32, map: Option<PageMap>) -> String {
    render_with(
        r,
        crate::text::Blank::titled(r, actions_per_turn),
        map,
        &shared_sections(r),
    )
}

/// The roundup, actions report and messages: the same HTML in every report of a turn.
pub fn shared_sections(r: &Report) -> String {
    let mut h = String::with_capacity(32 * 1024);
    roundup(&mut h, r);
    actions_report(&mut h, r);
    messages(&mut h, r);
    h
}

/// What an empire's kept page holds in place of the shared sections, which the turn's
/// `public.html` holds once for every empire ([`crate::public`]).
pub const SHARED_POINTER: &str = "<section id=\"shared\"><h2>Roundup, actions report and messages</h2>\
<p>The same for every empire: <a href=\"public.html\">read them on the turn's page</a>.</p></section>";

/// Where the shared sections begin and end in `public.html`.
const SECTIONS_BEGIN: &str = "<!--shared-->";
const SECTIONS_END: &str = "<!--/shared-->";

/// The turn's page of shared sections (`public.html`): `sections` as [`shared_sections`]
/// renders them from any empire's report `r`.
pub fn public_page(r: &Report, sections: &str) -> String {
    let mut h = String::with_capacity(4 * 1024 + sections.len());
    h.put(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>",
    )
    .esc(&r.game)
    .put(" – turn ")
    .num(r.turn)
    .put(" – roundup</title><style>")
    .put(STYLE)
    .put("</style></head><body><main><header><h1>Turn ")
    .num(r.turn)
    .put(": roundup, actions report and messages</h1><p>")
    .esc(&r.game)
    .put(" · ")
    .esc(describe::variant(&r.variant))
    .put(" Empires · the same for every empire</p></header>")
    .put(SECTIONS_BEGIN)
    .put(sections)
    .put(SECTIONS_END)
    .put("</main></body></html>\n");
    h
}

/// The shared sections in a turn's `public.html`, if it is one.
pub fn public_sections(page: &str) -> Option<&str> {
    let (_, rest) = page.split_once(SECTIONS_BEGIN)?;
    let (sections, _) = rest.rsplit_once(SECTIONS_END)?;
    Some(sections)
}

/// Renders a page with its shared sections already rendered by [`shared_sections`].
pub fn render_with(
    r: &Report,
    blank: crate::text::Blank,
    map: Option<PageMap>,
    shared: &str,
) -> String {
    let svg = match map {
        Some(PageMap::Whole(svg)) | Some(PageMap::Layered { overlay: svg, .. }) => Some(svg),
        None => None,
    };
    let mut h = String::with_capacity(16 * 1024 + shared.len() + svg.map_or(0, str::len));
    h.put(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>",
    )
    .esc(&r.game)
    .put(" – ")
    .esc(&r.empire.name)
    .put(" – turn ")
    .num(r.turn)
    .put("</title><style>")
    .put(STYLE)
    // The actions report is the same for everyone; the reader's wins and losses in it
    // are coloured by this page's own rule.
    .put("li[data-won=\"")
    .esc(&r.empire.code)
    .put("\"]>span{color:#1e6b2e}li[data-lost=\"")
    .esc(&r.empire.code)
    .put("\"]>span{color:#a01818}")
    .put("</style></head><body><main><header><h1>")
    .esc(&r.empire.name)
    .put(" (")
    .esc(&r.empire.code)
    .put(") — turn ")
    .num(r.turn)
    .put(" report</h1><p>")
    .esc(&r.game)
    .put(" · ")
    .esc(describe::variant(&r.variant))
    .put(" Empires · player ")
    .esc(r.empire.player.as_deref().unwrap_or("computer"))
    .put("</p></header>");
    if let Some(t) = r.empire.eliminated {
        let _ = write!(
            h,
            "<p class=\"warn\">{} was eliminated on turn {t}.</p>",
            esc(&r.empire.name)
        );
    }
    if r.computer_written {
        h.push_str("<p class=\"warn\">Your orders for this turn were written by the computer (rule 2.5).</p>");
    }
    if let Some(w) = &r.roundup.warning {
        let _ = write!(
            h,
            "<p class=\"warn\">Warning: {}</p>",
            esc(&describe::victory_warning(w))
        );
    }
    if let Some(g) = &r.roundup.game_over {
        let _ = write!(
            h,
            "<p class=\"warn\">Game over: {} wins a {} victory with {} on turn {}.</p>",
            esc(&g.empire),
            esc(&g.condition),
            count(g.vps, "VP"),
            g.turn
        );
    }
    actions(&mut h, r);
    against(&mut h, r);
    economy(&mut h, r);
    if let Some(svg) = svg {
        h.put("<section class=\"map\" id=\"map\"><h2>Map</h2>")
            .put(ZOOM_BUTTONS)
            .put("<div class=\"view\">")
            .put(svg)
            .put("</div></section><script>")
            .put(ZOOM_SCRIPT)
            .put("</script>");
        // After the zoom's script, which finds the map as the element before it.
        if let Some(PageMap::Layered { layer, turn, .. }) = map {
            h.put("<script src=\"").esc(layer).put("\"></script>");
            if let Some(turn) = turn {
                h.put("<script src=\"").esc(turn).put("\"></script>");
            }
            h.put("<script>").put(LAYER_SCRIPT).put("</script>");
        }
    }
    areas(&mut h, r);
    fleets(&mut h, r);
    scouting(&mut h, r);
    h.push_str(shared);
    if r.plays_on() {
        turnsheet(&mut h, r, blank);
    }
    h.push_str("</main></body></html>\n");
    h
}

fn actions(h: &mut String, r: &Report) {
    h.push_str("<section><h2>Your actions</h2>");
    if r.actions.is_empty() {
        h.push_str("<p>No actions.</p></section>");
        return;
    }
    h.push_str("<div class=\"scroll\"><table><tr><th class=\"n\">#</th><th>Action</th><th>Result</th><th class=\"n\">BPs</th></tr>");
    for a in &r.actions {
        let (class, label) = match a.status.as_str() {
            // Carried out, but it went against the reader: not shown as a success.
            "done" if a.setback => ("bad", ""),
            "done" => ("ok", ""),
            "cut_down" => ("cut", "cut down: "),
            "failed" => ("bad", "failed: "),
            _ => ("bad", "ignored: "),
        };
        h.put("<tr><td class=\"n\">")
            .num(a.slot)
            .put("</td><td><code>")
            .esc(&a.order)
            .put("</code></td><td class=\"")
            .put(class)
            .put("\">")
            .put(label)
            .esc(&a.result);
        if let Some(reason) = &a.reason {
            h.put(" <em>(").esc(reason).put(")</em>");
        }
        h.put("</td><td class=\"n\">")
            .num(a.spent)
            .put("</td></tr>");
    }
    h.push_str("</table></div></section>");
}

fn against(h: &mut String, r: &Report) {
    if r.against_you.is_empty() {
        return;
    }
    h.push_str("<section><h2>Done to you</h2><ul>");
    for x in &r.against_you {
        let class = match x.tone.as_str() {
            "good" => "you ok",
            "bad" => "you bad",
            _ => "you",
        };
        let _ = write!(h, "<li class=\"{class}\">{}</li>", esc(&x.text));
    }
    h.push_str("</ul></section>");
}

fn economy(h: &mut String, r: &Report) {
    let e = &r.economy;
    h.push_str("<section><h2>Economy</h2><div class=\"grid\">");
    let cell = |h: &mut String, k: &str, v: u32| {
        h.put("<div><span>")
            .put(k)
            .put("</span> <b>")
            .num(v)
            .put("</b></div>");
    };
    cell(h, "Income", e.income);
    cell(h, "Supply costs", e.supply_cost);
    h.put("<div><span>BPs for turn ")
        .num(r.next_turn)
        .put("</span> <b>")
        .num(e.bps)
        .put("</b></div>");
    cell(h, "Treasury", e.treasury);
    h.put("<div><span>Victory points</span> <b>")
        .num(e.vps)
        .put("</b></div>");
    cell(h, "Army reserve", e.army_reserve);
    cell(h, "Navy reserve", e.navy_reserve);
    if let Some(a) = e.air_force {
        cell(h, "Air force", a);
    }
    if let Some(s) = &r.supply {
        cell(h, "Supply capacity", s.capacity);
        h.put("<div><span>Capital</span> <b>")
            .esc(s.capital.as_deref().unwrap_or("none"))
            .put("</b></div>");
    }
    h.push_str("</div>");
    let mut notes = Vec::new();
    if e.cash_returned > 0 {
        notes.push(format!(
            "{} went back to the treasury",
            count(e.cash_returned, "BP")
        ));
    }
    if e.leftover_trains > 0 {
        notes.push(format!(
            "{} built in the capital",
            count(e.leftover_trains, "supply train")
        ));
    }
    if e.leftover_armies > 0 {
        notes.push(format!(
            "{} built for the reserve",
            count(e.leftover_armies, "army")
        ));
    }
    if e.order_bid > 0 {
        notes.push(format!(
            "{} bid for the order of play",
            count(e.order_bid, "BP")
        ));
    }
    if !notes.is_empty() {
        let _ = write!(h, "<p>Unspent BPs: {}.</p>", esc(&notes.join("; ")));
    }
    for d in &e.dispersals {
        let _ = write!(
            h,
            "<p class=\"cut\">Dispersal in {}: {} and {} went back to the reserve: {}.</p>",
            esc(&d.area),
            count(d.armies, "army"),
            count(d.ships, "ship"),
            esc(&d.reason)
        );
    }
    if let Some(v) = e.census_vps {
        let _ = write!(
            h,
            "<p class=\"ok\">Census: you scored {}.</p>",
            count(v, "VP")
        );
    }
    if !e.vp_changes.is_empty() {
        let before = e.vps - e.vp_changes.iter().map(|c| c.vps).sum::<i32>();
        let _ = write!(
            h,
            "<details><summary>Victory points: {before} before this turn, {} now</summary><ul>",
            e.vps
        );
        for c in &e.vp_changes {
            let class = if c.vps < 0 { "bad" } else { "ok" };
            let _ = write!(h, "<li class=\"{class}\">{:+} {}</li>", c.vps, esc(&c.why));
        }
        h.push_str("</ul></details>");
    }
    h.push_str("</section>");
}

fn areas(h: &mut String, r: &Report) {
    let euro = r.supply.is_some();
    h.push_str("<section><h2>Areas owned</h2><div class=\"scroll\"><table><tr><th>Area</th><th>Terrain</th><th class=\"n\">Pop</th><th class=\"n\">Armies</th><th class=\"n\">Forts</th><th>Defence</th><th>Retreat</th><th class=\"n\">Supply</th><th>Base</th>");
    if euro {
        h.push_str("<th class=\"n\">Trains</th><th>Supplied from</th>");
    }
    h.push_str("</tr>");
    for a in &r.areas {
        h.put("<tr><td><b>")
            .esc(&a.code)
            .put("</b> ")
            .esc(&a.name)
            .put("</td><td>")
            .esc(&a.terrain)
            .put("</td><td class=\"n\">")
            .num(a.population)
            .put("</td><td class=\"n\">")
            .num(a.armies)
            .put("</td><td class=\"n\">")
            .num(a.forts)
            .put("</td><td>")
            .esc(&a.defence);
        if let Some(t) = &a.against {
            h.put(" ").esc(t);
        }
        h.put("</td><td>")
            .esc(opt_str(&a.retreat_to))
            .put("</td><td class=\"n\">")
            .num(a.supply_cost)
            .put("</td><td>");
        match &a.base {
            Some(b) => h
                .num(b.ships)
                .put(" in, ")
                .num(b.laid_up)
                .put(" laid up (entrance ")
                .esc(&b.entrance)
                .put(")</td>"),
            None => h.put("–</td>"),
        };
        if euro {
            h.put("<td class=\"n\">")
                .num(a.trains.unwrap_or(0))
                .put("</td><td>")
                .esc(opt_str(&a.supply_source))
                .put("</td>");
        }
        h.push_str("</tr>");
    }
    h.push_str("</table></div></section>");
}

fn fleets(h: &mut String, r: &Report) {
    if r.fleets.is_empty() && r.spy.is_none() && r.watchers.is_empty() {
        return;
    }
    h.push_str("<section><h2>Fleets and spies</h2>");
    if !r.fleets.is_empty() {
        h.push_str("<div class=\"scroll\"><table><tr><th>Sea area</th><th class=\"n\">Ships</th><th class=\"n\">Armies</th><th>Base</th><th class=\"n\">Distance</th></tr>");
        for f in &r.fleets {
            let _ = write!(
                h,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">",
                esc(&f.area),
                f.ships,
                f.armies,
                opt(&f.base),
            );
            match f.distance {
                Some(d) => {
                    let _ = write!(h, "{d}</td></tr>");
                }
                None => h.push_str("no route</td></tr>"),
            }
        }
        h.push_str("</table></div>");
    }
    if let Some(s) = &r.spy {
        let _ = write!(h, "<p>Your spy is in {}.</p>", esc(s));
    }
    if !r.watchers.is_empty() {
        let _ = write!(h, "<p>Your watchers: {}.</p>", Joined(&r.watchers, ", "));
    }
    h.push_str("</section>");
}

fn scouting(h: &mut String, r: &Report) {
    if r.scouting.is_empty() {
        return;
    }
    h.push_str("<section><h2>Scouting</h2><div class=\"scroll\"><table><tr><th>Area</th><th>Owner</th><th class=\"n\">Pop</th><th class=\"n\">Armies</th><th class=\"n\">Forts</th><th>Ships</th><th>Seen by</th></tr>");
    for s in &r.scouting {
        h.put("<tr><td><b>")
            .esc(&s.code)
            .put("</b> ")
            .esc(&s.name)
            .put("</td><td>")
            .esc(opt_str(&s.owner))
            .put("</td><td class=\"n\">")
            .num(s.population)
            .put("</td><td class=\"n\">")
            .num(s.armies)
            .put("</td><td class=\"n\">")
            .num(s.forts)
            .put("</td><td>");
        match (&s.fleet, s.base_ships) {
            (Some(f), _) => h
                .esc(&f.owner)
                .put(": ")
                .num(f.ships)
                .put(" ships, ")
                .num(f.armies)
                .put(" armies"),
            (None, Some(b)) => h.num(b).put(" in base"),
            (None, None) => h.put("–"),
        };
        h.put("</td><td>");
        for (i, w) in s.seen_by.iter().enumerate() {
            if i > 0 {
                h.put(", ");
            }
            h.esc(w);
        }
        h.put("</td></tr>");
    }
    h.push_str("</table></div></section>");
}

fn roundup(h: &mut String, r: &Report) {
    let ru = &r.roundup;
    let _ = write!(
        h,
        "<section><h2>Roundup</h2><p>Order of play for turn {}: <b>{}</b>. The leader has <b>{}</b> VPs.</p>",
        r.next_turn,
        esc(&ru.order_of_play.join(" ")),
        ru.leader_score
    );
    h.push_str("<div class=\"scroll\"><table><tr><th>Empire</th><th>Player</th><th class=\"n\">Areas</th><th class=\"n\">Treasury</th><th class=\"n\">Reserve</th><th>Contact</th></tr>");
    for e in &ru.empires {
        let player = match (e.eliminated, &e.player) {
            (Some(t), _) => format!("out (turn {t})"),
            (None, Some(p)) => p.clone(),
            (None, None) => "dummy".into(),
        };
        let contact: Vec<String> = [&e.phone, &e.email]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        let _ = write!(
            h,
            "<tr><td><b>{}</b> {}</td><td>{}</td><td class=\"n\" title=\"{}\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            esc(&e.code),
            esc(&e.name),
            esc(&player),
            esc(&e.areas.join(" ")),
            e.areas.len(),
            e.treasury,
            e.army_reserve,
            esc(&contact.join(", "))
        );
    }
    h.push_str("</table></div><details><summary>Who owns which areas</summary><ul>");
    for e in ru.empires.iter().filter(|e| !e.areas.is_empty()) {
        let _ = write!(
            h,
            "<li><b>{}</b>: {}</li>",
            esc(&e.code),
            esc(&e.areas.join(" "))
        );
    }
    h.push_str("</ul></details></section>");
}

fn actions_report(h: &mut String, r: &Report) {
    h.push_str("<section><h2>Actions report</h2>");
    if r.actions_report.is_empty() {
        h.push_str("<p>A quiet turn.</p></section>");
        return;
    }
    h.push_str("<ul>");
    for e in r.actions_report.iter() {
        let mut class = Vec::new();
        if e.capture {
            class.push("capture");
        }
        if e.major {
            class.push("major");
        }
        // Who came out on top, for each reader's own colouring (see `render_with`).
        let sides = e.battle.as_ref().and_then(|b| {
            let defender = b.defender.as_deref()?;
            let attacker_won = match e.kind.as_str() {
                "capture" => true,
                "sea_battle" => b.defender_lost >= b.defenders,
                _ => false,
            };
            Some(if attacker_won {
                (b.attacker.as_str(), defender)
            } else {
                (defender, b.attacker.as_str())
            })
        });
        h.push_str("<li");
        if let Some((won, lost)) = sides {
            let _ = write!(h, " data-won=\"{}\" data-lost=\"{}\"", esc(won), esc(lost));
        }
        let _ = write!(
            h,
            "><span class=\"{}\">{}</span>",
            class.join(" "),
            esc(&e.text)
        );
        if let Some(b) = &e.battle {
            h.push_str("<details><summary>battle details</summary><ul>");
            for p in &b.phases {
                let _ = write!(h, "<li>{}</li>", esc(p));
            }
            h.push_str("</ul></details>");
        }
        h.push_str("</li>");
    }
    h.push_str("</ul></section>");
}

fn messages(h: &mut String, r: &Report) {
    if r.messages.is_empty() {
        return;
    }
    h.push_str("<section><h2>Messages</h2>");
    for m in r.messages.iter() {
        let _ = write!(h, "<p><b>{}:</b> {}</p>", esc(&m.from), esc(&m.text));
    }
    h.push_str("</section>");
}

fn turnsheet(h: &mut String, r: &Report, blank: crate::text::Blank) {
    let actions = blank.actions;
    h.put("<section><h2>Turnsheet for turn ")
        .num(r.next_turn)
        .put("</h2><pre class=\"sheet\">GAME ")
        .esc(blank.game)
        .put("\nTURN ")
        .num(r.next_turn)
        .put("\nEMPIRE ")
        .esc(&r.empire.code)
        .put("\n\n");
    for i in 1..=actions {
        h.num(i).put(".\n");
    }
    h.put("\nMESSAGES\n</pre></section>");
}
