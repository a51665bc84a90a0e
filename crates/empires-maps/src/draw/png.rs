//! Rendering a drawing to PNG with resvg. The text is set in DejaVu Sans, embedded in the
//! program and the only font loaded, so a PNG comes out the same on every machine.

use std::sync::{Arc, OnceLock};

const FONT: &[u8] = include_bytes!("../../data/DejaVuSans.ttf");

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// Renders an SVG (as written by [`super::svg`]) to PNG bytes, at its own size.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let opts = usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opts).map_err(|e| format!("bad SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("cannot render {}x{} pixels", size.width(), size.height()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode PNG: {e}"))
}
