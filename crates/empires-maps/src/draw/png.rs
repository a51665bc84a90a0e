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
    render(svg)?
        .encode_png()
        .map_err(|e| format!("cannot encode PNG: {e}"))
}

/// Renders an SVG to a PNG of at most 256 colours: about a third of the bytes of [`png`],
/// and to the eye the same map (its colours are few and flat; the palette keeps the edges'
/// shading). For mail, where every report carries its map.
pub fn png_small(svg: &str) -> Result<Vec<u8>, String> {
    let pixmap = render(svg)?;
    let rgba: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    // NeuQuant looks at one pixel in SAMPLE: enough for a map's colours, and quick.
    const SAMPLE: i32 = 20;
    let quant = color_quant::NeuQuant::new(SAMPLE, 256, &rgba);
    let palette = quant.color_map_rgba();
    let indices: Vec<u8> = rgba
        .chunks_exact(4)
        .map(|p| quant.index_of(p) as u8)
        .collect();
    let (rgb, alpha): (Vec<[u8; 3]>, Vec<u8>) = palette
        .chunks_exact(4)
        .map(|c| ([c[0], c[1], c[2]], c[3]))
        .unzip();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(rgb.concat());
    if alpha.iter().any(|&a| a != 255) {
        encoder.set_trns(alpha);
    }
    encoder.set_compression(png::Compression::High);
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder
        .write_header()
        .map_err(|e| format!("cannot encode PNG: {e}"))?;
    writer
        .write_image_data(&indices)
        .map_err(|e| format!("cannot encode PNG: {e}"))?;
    writer
        .finish()
        .map_err(|e| format!("cannot encode PNG: {e}"))?;
    Ok(out)
}

fn render(svg: &str) -> Result<tiny_skia::Pixmap, String> {
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
    Ok(pixmap)
}
