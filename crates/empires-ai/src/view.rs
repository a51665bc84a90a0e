//! The game as one empire sees it, with the questions a player asks of it.

use empires_rules::knowledge::view_for;
use empires_rules::map::AreaId;
use empires_rules::state::{EmpireState, GameState};
use empires_rules::{EmpireCode, Map};

pub(crate) struct View<'a> {
    pub map: &'a Map,
    /// The state as the empire knows it (10.2): nothing it cannot see.
    pub st: GameState,
    pub me: EmpireCode,
    /// The empire's land areas, in map order: asked for by nearly every part of a plan.
    owned: Vec<AreaId>,
}

impl<'a> View<'a> {
    pub fn new(map: &'a Map, state: &GameState, me: EmpireCode) -> View<'a> {
        let st = view_for(map, state, me);
        let owned = st.owned_by(me).collect();
        View { map, st, me, owned }
    }

    pub fn empire(&self) -> &EmpireState {
        self.st.empire(self.me).expect("the empire is in the game")
    }

    pub fn code(&self, a: AreaId) -> String {
        self.map.code(a).to_string()
    }

    pub fn owns(&self, a: AreaId) -> bool {
        self.st.area(a).owner == Some(self.me)
    }

    /// The empire's land areas, in map order.
    pub fn owned(&self) -> impl Iterator<Item = AreaId> + '_ {
        self.owned.iter().copied()
    }

    /// Land areas next to `a`.
    pub fn land_neighbours(&self, a: AreaId) -> impl Iterator<Item = AreaId> + '_ {
        self.map
            .neighbours(a)
            .iter()
            .copied()
            .filter(|n| self.map.area(*n).is_land())
    }

    /// Armies of other empires next to `a`, the largest single stack and where it stands.
    pub fn threat(&self, a: AreaId) -> (u32, Option<AreaId>) {
        let mut worst = (0, None);
        for n in self.land_neighbours(a) {
            let area = self.st.area(n);
            if area.owner.is_some_and(|o| o != self.me) && area.armies > worst.0 {
                worst = (area.armies, Some(n));
            }
        }
        worst
    }

    /// 8.9: how strongly `a` would defend as it stands.
    pub fn defence(&self, a: AreaId) -> u32 {
        let area = self.st.area(a);
        area.armies + area.armies.min(area.forts) + self.map.area(a).terrain.defence_bonus()
    }
}
