//! 6.4 (decision 18): before any player acts, every unowned land area takes one random
//! action: one more army, fort level or population.

use super::Turn;
use crate::event::{Growth, What};

impl Turn<'_> {
    pub(super) fn unowned_actions(&mut self) {
        for id in self.map.ids() {
            if self.map.area(id).is_sea() || self.st.area(id).owner.is_some() {
                continue;
            }
            let growth = match self.rng.range(0, 2) {
                0 => Growth::Army,
                1 => Growth::Fort,
                _ => Growth::Population,
            };
            let area = self.st.area_mut(id);
            match growth {
                Growth::Army => area.armies += 1,
                Growth::Fort => area.forts += 1,
                Growth::Population => area.population += 1,
            }
            self.push(
                Vec::new(),
                What::Unowned {
                    area: self.map.code(id),
                    growth,
                },
            );
        }
    }
}
