//! Map projections, fitted to the positions of a map's areas.
//!
//! A map whose areas go most of the way round the globe is drawn in the Equal Earth
//! projection; a regional map in an Albers equal-area conic projection with standard
//! parallels inside its latitudes, or, near the equator where a cone degenerates, in an
//! equirectangular projection scaled by the cosine of the middle latitude.

use std::f64::consts::PI;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    EqualEarth,
    Albers { n: f64, c: f64, rho0: f64 },
    Equirect { cos0: f64 },
}

/// A projection from longitude and latitude (degrees) to pixels of the map frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Projection {
    kind: Kind,
    /// The central meridian; longitudes are wrapped into `lon0 ± 180`.
    pub lon0: f64,
    scale: f64,
    x0: f64,
    y1: f64,
    /// The size of the frame in pixels.
    pub width: u32,
    pub height: u32,
}

const A1: f64 = 1.340264;
const A2: f64 = -0.081106;
const A3: f64 = 0.000893;
const A4: f64 = 0.003796;

/// Longitude wrapped into `[-180, 180)`.
pub fn normalise(lon: f64) -> f64 {
    (lon + 180.0).rem_euclid(360.0) - 180.0
}

impl Projection {
    /// Fits a projection to positions (longitude, latitude), with a margin around them,
    /// in a frame `width` pixels wide. The height follows from the shape of the map, kept
    /// between 0.45 and 1.4 times the width.
    pub fn fit(positions: &[(f64, f64)], width: u32) -> Projection {
        let (lon0, span) = central_meridian(positions);
        let (mut lat_lo, mut lat_hi) =
            positions.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.1), hi.max(p.1))
            });
        if positions.is_empty() {
            (lat_lo, lat_hi) = (-60.0, 80.0);
        }
        let world = span > 200.0;
        let kind = if world {
            Kind::EqualEarth
        } else {
            let d = (lat_hi - lat_lo).max(1.0);
            let p1 = (lat_lo + d / 6.0).to_radians();
            let p2 = (lat_hi - d / 6.0).to_radians();
            let n = (p1.sin() + p2.sin()) / 2.0;
            if n.abs() < 0.15 {
                Kind::Equirect {
                    cos0: ((lat_lo + lat_hi) / 2.0).to_radians().cos(),
                }
            } else {
                let c = p1.cos().powi(2) + 2.0 * n * p1.sin();
                // Any rho0 will do: the frame is fitted afterwards.
                Kind::Albers { n, c, rho0: 0.0 }
            }
        };
        let mut p = Projection {
            kind,
            lon0,
            scale: 1.0,
            x0: 0.0,
            y1: 0.0,
            width,
            height: width,
        };
        // The bounding box of the positions in projected units, y up.
        let (mut x_lo, mut x_hi, mut y_lo, mut y_hi) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        let mut grow = |x: f64, y: f64| {
            x_lo = x_lo.min(x);
            x_hi = x_hi.max(x);
            y_lo = y_lo.min(y);
            y_hi = y_hi.max(y);
        };
        if world {
            let lat_lo = (lat_lo - 12.0).max(-90.0);
            let lat_hi = (lat_hi + 12.0).min(90.0);
            for i in 0..=36 {
                let lat = lat_lo + (lat_hi - lat_lo) * f64::from(i) / 36.0;
                for lon in [lon0 - 180.0, lon0 + 180.0] {
                    let (x, y) = p.raw(lon, lat);
                    grow(x, y);
                }
            }
        } else {
            for &(lon, lat) in positions {
                let (x, y) = p.raw(lon, lat);
                grow(x, y);
            }
            // Areas reach beyond their positions: a little of the map and a degree.
            let m = 0.04 * (x_hi - x_lo).max(y_hi - y_lo) + 1.2f64.to_radians();
            x_lo -= m;
            x_hi += m;
            y_lo -= m;
            y_hi += m;
        }
        let (w, h) = (x_hi - x_lo, y_hi - y_lo);
        // Keep the frame's shape between wide and tall limits.
        let (mut w2, mut h2) = (w, h);
        if h2 > 1.4 * w2 {
            w2 = h2 / 1.4;
        }
        if h2 < 0.45 * w2 {
            h2 = 0.45 * w2;
        }
        let cx = (x_lo + x_hi) / 2.0;
        let cy = (y_lo + y_hi) / 2.0;
        p.scale = f64::from(width) / w2;
        p.x0 = cx - w2 / 2.0;
        p.y1 = cy + h2 / 2.0;
        p.height = (h2 * p.scale).round().max(1.0) as u32;
        p
    }

    /// The same projection on a canvas `pad` pixels larger on every side.
    pub fn padded(&self, pad: u32) -> Projection {
        let d = f64::from(pad) / self.scale;
        Projection {
            x0: self.x0 - d,
            y1: self.y1 + d,
            width: self.width + 2 * pad,
            height: self.height + 2 * pad,
            ..self.clone()
        }
    }

    /// Whether this is the projection of a whole-world map.
    pub fn is_world(&self) -> bool {
        self.kind == Kind::EqualEarth
    }

    /// Longitude wrapped into `lon0 ± 180`.
    pub fn wrap(&self, lon: f64) -> f64 {
        self.lon0 + normalise(lon - self.lon0)
    }

    /// Projected coordinates, y up, in radians of the unit sphere; `lon` is not wrapped.
    fn raw(&self, lon: f64, lat: f64) -> (f64, f64) {
        let l = (lon - self.lon0).to_radians();
        let phi = lat.clamp(-90.0, 90.0).to_radians();
        match self.kind {
            Kind::EqualEarth => {
                let m = 3f64.sqrt() / 2.0;
                let t = (m * phi.sin()).asin();
                let t2 = t * t;
                let t6 = t2 * t2 * t2;
                let x = l * t.cos() / (m * (A1 + 3.0 * A2 * t2 + t6 * (7.0 * A3 + 9.0 * A4 * t2)));
                let y = t * (A1 + A2 * t2 + t6 * (A3 + A4 * t2));
                (x, y)
            }
            Kind::Albers { n, c, rho0 } => {
                let rho = (c - 2.0 * n * phi.sin()).max(0.0).sqrt() / n;
                let a = n * l;
                (rho * a.sin(), rho0 - rho * a.cos())
            }
            Kind::Equirect { cos0 } => (l * cos0, phi),
        }
    }

    /// Pixel coordinates in the frame (y down) of a point; `lon` is not wrapped, so that a
    /// ring copied a turn east or west stays whole.
    pub fn project(&self, lon: f64, lat: f64) -> (f64, f64) {
        let (x, y) = self.raw(lon, lat);
        ((x - self.x0) * self.scale, (self.y1 - y) * self.scale)
    }

    /// The outline of the globe, `lon0 ± 180` by `±90`, as a ring of pixel coordinates.
    pub fn outline(&self) -> Vec<(f64, f64)> {
        let (w, e) = (self.lon0 - 180.0, self.lon0 + 180.0);
        let mut ring = Vec::new();
        for i in 0..=180 {
            ring.push(self.project(w, -90.0 + f64::from(i)));
        }
        for i in 1..360 {
            ring.push(self.project(w + f64::from(i), 90.0));
        }
        for i in 0..=180 {
            ring.push(self.project(e, 90.0 - f64::from(i)));
        }
        for i in 1..360 {
            ring.push(self.project(e - f64::from(i), -90.0));
        }
        ring
    }

    /// Pixels per degree of latitude near the middle of the map, for sizes given in degrees.
    pub fn pixels_per_degree(&self) -> f64 {
        self.scale * PI / 180.0
    }
}

/// The central meridian of a set of longitudes and the span they cover: the middle of the
/// shortest arc holding them all (found opposite the widest gap between them).
fn central_meridian(positions: &[(f64, f64)]) -> (f64, f64) {
    let mut lons: Vec<f64> = positions.iter().map(|p| normalise(p.0)).collect();
    if lons.is_empty() {
        return (0.0, 360.0);
    }
    lons.sort_by(f64::total_cmp);
    let mut gap = lons[0] + 360.0 - lons[lons.len() - 1];
    let mut east_of_gap = lons[0];
    for w in lons.windows(2) {
        if w[1] - w[0] > gap {
            gap = w[1] - w[0];
            east_of_gap = w[1];
        }
    }
    let span = 360.0 - gap;
    if span > 200.0 {
        return (0.0, span);
    }
    (normalise(east_of_gap + span / 2.0), span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn central_meridian_across_the_date_line() {
        let (lon0, span) = central_meridian(&[(170.0, 0.0), (-170.0, 0.0), (175.0, 1.0)]);
        assert!((normalise(lon0 - 180.0)).abs() < 1e-9, "{lon0}");
        assert!((span - 20.0).abs() < 1e-9);
    }

    #[test]
    fn positions_fall_inside_the_frame() {
        let pos = [(-10.0, 50.0), (2.0, 58.0), (-3.0, 54.0)];
        let p = Projection::fit(&pos, 800);
        for (lon, lat) in pos {
            let (x, y) = p.project(p.wrap(lon), lat);
            assert!(
                x > 0.0 && x < 800.0 && y > 0.0 && y < f64::from(p.height),
                "{x} {y}"
            );
        }
        let world = Projection::fit(&[(-120.0, 60.0), (0.0, 0.0), (120.0, -40.0)], 800);
        assert!(world.is_world());
    }
}
