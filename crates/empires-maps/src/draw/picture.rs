//! A report's map as a picture for a mail reader, which shows images but runs no script.
//!
//! The layer a report page zooms ([`super::Layers`]) carries one set of area codes per zoom
//! (`<g class="lodN">`), and the page's script shows the one that reads at the width the map
//! is shown at. A picture has no script, so it keeps one set: the whole map's for the whole
//! drawing, and for a close-up the set that reads at the width of a phone.
//!
//! A close-up frames the viewer's areas and their neighbours: on a phone a whole map of two
//! dozen empires leaves an empire a few pixels across.

use super::layers::Layout;
use empires_rules::map::AreaId;

/// The width, in CSS pixels, a mail program on a phone shows a picture at.
pub const PHONE_WIDTH: f64 = 340.0;

/// The size, in CSS pixels, below which an area's code no longer reads (the report page's
/// script uses the same).
pub const READABLE: f64 = 11.0;

/// The close-up's width in pixels: twice [`PHONE_WIDTH`] and a little, for a phone's
/// screen of two pixels to the CSS pixel.
pub const CLOSE_UP_WIDTH: f64 = 720.0;

/// The most a close-up enlarges the map: a little more than the closest zoom the layer has
/// labels for, whose labels then read on a phone.
const MOST: f64 = 6.0;

/// A box of the drawing, in its own pixels: x, y, width, height.
pub type Frame = [f64; 4];

/// The assembled drawing `svg` with the labels of zoom `lod` alone (1 is the whole map's).
/// A drawing without zooms' labels is returned as it is.
pub fn with_labels_of(svg: &str, lod: usize) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find("<g class=\"lod") {
        let after = &rest[at + "<g class=\"lod".len()..];
        let level: usize = after
            .split('"')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        out.push_str(&rest[..at]);
        let end = at + group_len(&rest[at..]);
        if level == lod {
            out.push_str(&rest[at..end]);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The length of the `<g>` element `s` starts with, to the end of its closing tag (all of
/// `s` if it is cut short).
fn group_len(s: &str) -> usize {
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(lt) = s[i..].find('<') {
        let at = i + lt;
        let tag = &s[at..];
        if tag.starts_with("</g>") {
            depth = depth.saturating_sub(1);
            i = at + 4;
            if depth == 0 {
                return i;
            }
        } else if tag.starts_with("<g ") || tag.starts_with("<g>") {
            let close = tag.find('>').map_or(tag.len(), |c| c + 1);
            // `<g .../>` opens nothing.
            if !tag[..close].ends_with("/>") {
                depth += 1;
            }
            i = at + close;
        } else {
            i = at + 1;
        }
    }
    s.len()
}

/// A close-up: the box of the drawing it shows and the zoom whose labels it keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct CloseUp {
    pub frame: Frame,
    pub lod: usize,
    /// The prefix of the main frame's ids.
    pub prefix: String,
}

/// The close-up of an empire whose areas are `own`, with `around` them (its neighbours),
/// on the main map (whose closer zooms label the crowded part the inset enlarges): the
/// closest labels that read at [`PHONE_WIDTH`] with all of `own` in the picture, then as
/// much of `around` as that leaves room for; no narrower than a sixth of the map and no
/// taller than a little more than it is wide (a phone scrolls down, not across). `None`
/// when no area of `own` is on the main map.
pub fn close_up_of(layout: &Layout, own: &[AreaId], around: &[AreaId]) -> Option<CloseUp> {
    close_up_in(layout, 0, own, around)
}

/// The frame of `layout` to frame a close-up of `own` in: the inset where it draws every one
/// of them (an inset enlarges a crowded part, and labels what the main map cannot), else the
/// main map.
pub fn frame_for(layout: &Layout, own: &[AreaId]) -> usize {
    (1..layout.frames.len())
        .rev()
        .find(|&k| {
            !own.is_empty()
                && own.iter().all(|a| {
                    layout
                        .drawn
                        .get(k)
                        .and_then(|d| d.get(a.index()))
                        .copied()
                        .unwrap_or(false)
                })
        })
        .unwrap_or(0)
}

/// [`close_up_of`] in frame `k` of the layout (0 the main map, then its insets).
pub fn close_up_in(
    layout: &Layout,
    k: usize,
    own: &[AreaId],
    around: &[AreaId],
) -> Option<CloseUp> {
    let frame = layout.frames.get(k)?;
    let anchors = layout.anchors.get(k)?;
    let pad = (layout.unit * 3.0).max(frame.w * 0.03);
    let bounds = |ids: &mut dyn Iterator<Item = &AreaId>| {
        let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        for id in ids {
            if let Some(Some((x, y))) = anchors.get(id.index()) {
                b = [b[0].min(*x), b[1].min(*y), b[2].max(*x), b[3].max(*y)];
            }
        }
        (b[0] <= b[2]).then(|| [b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad])
    };
    let mine = bounds(&mut own.iter())?;
    let all = bounds(&mut own.iter().chain(around)).unwrap_or(mine);
    let (mine_w, mine_h) = (mine[2] - mine[0], mine[3] - mine[1]);
    let wanted = (all[2] - all[0]).max(frame.w / MOST);
    // The widest box in which zoom `k`'s labels still read on a phone.
    let widest = |k: usize| {
        layout
            .zoom_label
            .map(|l| l / super::ZOOMS[k - 1] * PHONE_WIDTH / READABLE)
    };
    let fits = |k: usize| widest(k).is_some_and(|w| mine_w <= w && mine_h <= w * 1.25);
    let lod = (1..=super::ZOOMS.len())
        .rev()
        .find(|k| fits(*k))
        .unwrap_or(1);
    let w = match widest(lod) {
        Some(most) if fits(lod) => wanted.min(most).max(mine_w),
        _ => wanted,
    };
    let h = (all[3] - all[1]).max(w * 0.6).min(w * 1.25).max(mine_h);
    let (w, h) = (w.min(frame.w), h.min(frame.h));
    let centre = ((mine[0] + mine[2]) / 2.0, (mine[1] + mine[3]) / 2.0);
    let x = (centre.0 - w / 2.0).clamp(frame.x, frame.x + frame.w - w);
    let y = (centre.1 - h / 2.0).clamp(frame.y, frame.y + frame.h - h);
    Some(CloseUp {
        frame: [x, y, w, h],
        lod,
        prefix: frame.prefix.clone(),
    })
}

/// The assembled drawing `svg` as the close-up `c`, [`CLOSE_UP_WIDTH`] pixels wide. The
/// close-up lies inside its frame, whose clip is dropped as cutting nothing from it.
pub fn close_up(svg: &str, c: &CloseUp) -> String {
    let svg = with_labels_of(svg, c.lod);
    let [x, y, w, h] = c.frame;
    let height = (CLOSE_UP_WIDTH * h / w).round();
    let Some(open) = svg.find("<svg") else {
        return svg;
    };
    let Some(end) = svg[open..].find('>').map(|e| open + e) else {
        return svg;
    };
    let mut tag = svg[open..end].to_string();
    for (name, value) in [
        ("width", super::svg::num(CLOSE_UP_WIDTH)),
        ("height", super::svg::num(height)),
        (
            "viewBox",
            format!(
                "{} {} {} {}",
                super::svg::num(x),
                super::svg::num(y),
                super::svg::num(w),
                super::svg::num(h)
            ),
        ),
    ] {
        tag = with_attribute(&tag, name, &value);
    }
    // The close-up lies inside the main frame, so the frame's clip cuts nothing from it,
    // and clipping is most of the renderer's work at a close zoom (each clipped group is
    // drawn to a layer of the whole picture first).
    let main_clip = format!(" clip-path=\"url(#{}frame)\"", c.prefix);
    format!("{}{tag}{}", &svg[..open], &svg[end..]).replace(&main_clip, "")
}

/// `tag` (an element's opening tag, without its `>`) with attribute `name` set to `value`.
fn with_attribute(tag: &str, name: &str, value: &str) -> String {
    let key = format!(" {name}=\"");
    match tag.find(&key) {
        Some(at) => {
            let start = at + key.len();
            let stop = tag[start..].find('"').map_or(tag.len(), |q| start + q);
            format!("{}{value}{}", &tag[..start], &tag[stop..])
        }
        None => format!("{tag}{key}{value}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_set_of_labels_is_kept_with_what_it_holds() {
        let svg = r##"<svg><g id="a"><g class="lod1"><g><text>A</text></g><use href="#x"/></g><g class="lod2"><g id="labels"><text>a</text></g></g><g class="lod3"><g/></g></g></svg>"##;
        assert_eq!(
            with_labels_of(svg, 1),
            r##"<svg><g id="a"><g class="lod1"><g><text>A</text></g><use href="#x"/></g></g></svg>"##
        );
        assert_eq!(
            with_labels_of(svg, 2),
            r##"<svg><g id="a"><g class="lod2"><g id="labels"><text>a</text></g></g></g></svg>"##
        );
        assert_eq!(with_labels_of("<svg></svg>", 1), "<svg></svg>");
        // Cut short: nothing after the broken group is kept, and nothing panics.
        assert_eq!(with_labels_of(r#"<g class="lod2"><g>"#, 1), "");
    }

    #[test]
    fn an_attribute_is_replaced_or_added() {
        assert_eq!(
            with_attribute(r#"<svg width="10" height="5""#, "width", "720"),
            r#"<svg width="720" height="5""#
        );
        assert_eq!(
            with_attribute("<svg", "viewBox", "0 0 1 1"),
            r#"<svg viewBox="0 0 1 1""#
        );
    }
}
