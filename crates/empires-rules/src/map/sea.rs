//! Distances between sea areas (4.5), computed once per map by breadth-first search.

use super::{Area, AreaId};
use std::collections::VecDeque;

#[derive(Debug, Clone, Default)]
pub(super) struct SeaDistances {
    /// For each area, its index among the sea areas, or `u16::MAX` for land.
    slot: Vec<u16>,
    count: usize,
    /// `count * count` step counts; `u16::MAX` means unreachable.
    steps: Vec<u16>,
}

impl SeaDistances {
    pub(super) fn new(areas: &[Area]) -> Self {
        let mut slot = vec![u16::MAX; areas.len()];
        let mut seas = Vec::new();
        for (i, a) in areas.iter().enumerate() {
            if a.is_sea() {
                slot[i] = seas.len() as u16;
                seas.push(i);
            }
        }
        let count = seas.len();
        let mut steps = vec![u16::MAX; count * count];
        let mut queue = VecDeque::new();
        for (s, &start) in seas.iter().enumerate() {
            let row = &mut steps[s * count..(s + 1) * count];
            row[s] = 0;
            queue.clear();
            queue.push_back(start);
            while let Some(cur) = queue.pop_front() {
                let d = row[slot[cur] as usize];
                for n in &areas[cur].neighbours {
                    let ns = slot[n.index()];
                    if ns != u16::MAX && row[ns as usize] == u16::MAX {
                        row[ns as usize] = d + 1;
                        queue.push_back(n.index());
                    }
                }
            }
        }
        SeaDistances { slot, count, steps }
    }

    pub(super) fn steps(&self, a: AreaId, b: AreaId) -> Option<u32> {
        let sa = *self.slot.get(a.index())?;
        let sb = *self.slot.get(b.index())?;
        if sa == u16::MAX || sb == u16::MAX {
            return None;
        }
        let d = self.steps[sa as usize * self.count + sb as usize];
        (d != u16::MAX).then_some(d as u32)
    }
}
