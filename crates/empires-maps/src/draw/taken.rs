//! The boxes already taken by labels, for placing the next label clear of them.
//!
//! Placing each of a map's labels against every label before it is quadratic, and it was
//! most of the work of drawing a game once the outlines were cached. The boxes are kept in a
//! coarse grid, so that only the ones near a candidate spot are looked at.

/// A box: left, top, right, bottom.
pub type Box4 = [f64; 4];

/// The area two boxes share.
pub fn overlap(a: &Box4, b: &Box4) -> f64 {
    let w = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let h = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    w * h
}

/// Cells across and down at most: plenty for any page, small enough to allocate freely.
const MAX_CELLS: usize = 128;

/// Boxes taken so far, bucketed by grid cell.
pub struct Taken {
    boxes: Vec<Box4>,
    /// The page's top left corner and the cells' width.
    origin: (f64, f64),
    cell: f64,
    cols: usize,
    rows: usize,
    /// The boxes touching each cell, row by row. Boxes off the page go in the cells at its
    /// edge: both taking and asking clamp alike, so no touching pair is missed.
    cells: Vec<Vec<u32>>,
    near: Vec<u32>,
}

impl Taken {
    /// An empty `page`, bucketed in square cells about `cell` wide (a label's width, say).
    pub fn new(page: Box4, cell: f64) -> Taken {
        let (w, h) = ((page[2] - page[0]).max(1.0), (page[3] - page[1]).max(1.0));
        let cell = if cell.is_finite() && cell > 0.0 {
            cell.max(w.max(h) / MAX_CELLS as f64)
        } else {
            w.max(h)
        };
        let count = |len: f64| ((len / cell).ceil() as usize).clamp(1, MAX_CELLS);
        let (cols, rows) = (count(w), count(h));
        Taken {
            boxes: Vec::new(),
            origin: (page[0], page[1]),
            cell,
            cols,
            rows,
            cells: vec![Vec::new(); cols * rows],
            near: Vec::new(),
        }
    }

    /// The cells a box covers: first and last column, first and last row.
    fn span(&self, b: &Box4) -> (usize, usize, usize, usize) {
        let at = |v: f64, o: f64, n: usize| {
            let c = ((v - o) / self.cell).floor();
            if c.is_nan() || c < 0.0 {
                0
            } else {
                (c as usize).min(n - 1)
            }
        };
        (
            at(b[0], self.origin.0, self.cols),
            at(b[2], self.origin.0, self.cols),
            at(b[1], self.origin.1, self.rows),
            at(b[3], self.origin.1, self.rows),
        )
    }

    pub fn push(&mut self, b: Box4) {
        let i = self.boxes.len() as u32;
        let (x0, x1, y0, y1) = self.span(&b);
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                self.cells[cy * self.cols + cx].push(i);
            }
        }
        self.boxes.push(b);
    }

    /// Whether any box taken overlaps `b`: quicker than [`Taken::covered`] where any overlap
    /// rules a spot out.
    pub fn any(&self, b: &Box4) -> bool {
        let (x0, x1, y0, y1) = self.span(b);
        (y0..=y1).any(|cy| {
            (x0..=x1).any(|cx| {
                self.cells[cy * self.cols + cx]
                    .iter()
                    .any(|&i| overlap(&self.boxes[i as usize], b) > 0.0)
            })
        })
    }

    /// The area of `b` already covered, summed over the boxes in the order they were taken:
    /// the same number, to the last bit, as summing over every box (the ones that do not
    /// touch `b` add exactly nothing), so that labels land where they always did.
    pub fn covered(&mut self, b: &Box4) -> f64 {
        let (x0, x1, y0, y1) = self.span(b);
        self.near.clear();
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                self.near
                    .extend_from_slice(&self.cells[cy * self.cols + cx]);
            }
        }
        self.near.sort_unstable();
        self.near.dedup();
        self.near
            .iter()
            .map(|&i| overlap(&self.boxes[i as usize], b))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn boxes() -> impl Strategy<Value = Vec<Box4>> {
        prop::collection::vec(
            (0.0..500.0f64, 0.0..500.0f64, 0.5..60.0f64, 0.5..30.0f64)
                .prop_map(|(x, y, w, h)| [x, y, x + w, y + h]),
            1..120,
        )
    }

    proptest! {
        #[test]
        fn covered_is_the_sum_over_every_box(taken in boxes(), probes in boxes(), cell in 5.0..80.0f64) {
            // A page smaller than the boxes' spread, so that some fall off its edges.
            let mut t = Taken::new([50.0, 50.0, 400.0, 300.0], cell);
            for b in &taken {
                t.push(*b);
            }
            for p in &probes {
                let all: f64 = taken.iter().map(|b| overlap(b, p)).sum();
                let near = t.covered(p);
                prop_assert_eq!(t.any(p), all > 0.0);
                // Equal, and bit for bit unless nothing is covered (an empty sum is -0).
                prop_assert_eq!(near, all);
                if all != 0.0 {
                    prop_assert_eq!(near.to_bits(), all.to_bits());
                }
            }
        }
    }

    #[test]
    fn boxes_apart_cover_nothing_and_overlaps_add_up() {
        let mut t = Taken::new([0.0, 0.0, 200.0, 200.0], 10.0);
        t.push([0.0, 0.0, 10.0, 10.0]);
        t.push([5.0, 0.0, 15.0, 10.0]);
        assert_eq!(t.covered(&[100.0, 100.0, 110.0, 110.0]), 0.0);
        assert_eq!(t.covered(&[5.0, 5.0, 10.0, 10.0]), 50.0);
    }
}
