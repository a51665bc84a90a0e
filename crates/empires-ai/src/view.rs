//! The game as one empire sees it, with the questions a player asks of it.

use empires_rules::knowledge::{mask_area, visible_areas, visible_areas_of_all};
use empires_rules::map::AreaId;
use empires_rules::state::{AreaState, EmpireState, GameState};
use empires_rules::{AreaCode, EmpireCode, Map, Options, Variant, supply};

/// Where one empire's land areas and fleets are, each in map order, and which areas it sees.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Holdings {
    owned: Vec<AreaId>,
    fleets: Vec<AreaId>,
    /// For every area of the map, whether the empire sees what is in it (10.2).
    seen: Vec<bool>,
}

impl Holdings {
    /// What `me` holds and sees.
    pub fn of(map: &Map, st: &GameState, me: EmpireCode) -> Holdings {
        let mut h = Holdings {
            seen: visible_areas(map, st, me),
            ..Holdings::default()
        };
        for (i, a) in st.areas.iter().enumerate() {
            let id = AreaId(i as u16);
            if a.owner == Some(me) {
                h.owned.push(id);
            }
            if a.fleet.as_ref().is_some_and(|f| f.owner == me) {
                h.fleets.push(id);
            }
        }
        h
    }
}

/// What every empire in the game holds, found in one pass over the map where planning each
/// empire's turn on its own would go over the whole map once for every empire.
pub(crate) struct Survey {
    /// The empires' codes, sorted, each with its place in `holdings`.
    index: Vec<(EmpireCode, usize)>,
    holdings: Vec<Holdings>,
}

impl Survey {
    pub fn new(map: &Map, st: &GameState) -> Survey {
        let mut index: Vec<(EmpireCode, usize)> = st
            .empires
            .iter()
            .enumerate()
            .map(|(i, e)| (e.code, i))
            .collect();
        index.sort();
        // Like `GameState::empire`, a code listed twice means its first record.
        index.dedup_by_key(|(code, _)| *code);
        // What each empire sees comes in the order of the state's empires, as the holdings.
        let holdings = visible_areas_of_all(map, st)
            .into_iter()
            .map(|seen| Holdings {
                seen,
                ..Holdings::default()
            })
            .collect();
        let mut s = Survey { holdings, index };
        // Neighbouring areas in map order mostly share an owner.
        let mut last = None;
        for (i, a) in st.areas.iter().enumerate() {
            let id = AreaId(i as u16);
            if let Some(o) = a.owner {
                let h = match last {
                    Some((code, h)) if code == o => h,
                    _ => {
                        let h = s.slot(o);
                        last = Some((o, h));
                        h
                    }
                };
                if let Some(h) = h {
                    s.holdings[h].owned.push(id);
                }
            }
            if let Some(h) = a.fleet.as_ref().and_then(|f| s.slot(f.owner)) {
                s.holdings[h].fleets.push(id);
            }
        }
        s
    }

    fn slot(&self, code: EmpireCode) -> Option<usize> {
        self.index
            .binary_search_by_key(&code, |&(c, _)| c)
            .ok()
            .map(|i| self.index[i].1)
    }

    /// What `code` holds; nothing for an empire not in the game.
    pub fn of(&self, code: EmpireCode) -> Option<&Holdings> {
        self.slot(code).map(|h| &self.holdings[h])
    }
}

/// The game as an empire knows it (10.2): exactly what
/// [`empires_rules::knowledge::view_for`] shows it, and nothing it cannot see. The whole state
/// stays private to this module, so a plan can only read it through the methods below, which
/// hide what the empire does not know.
pub(crate) struct View<'a> {
    pub map: &'a Map,
    st: &'a GameState,
    pub me: EmpireCode,
    /// The empire's own record: it knows everything about itself.
    mine: &'a EmpireState,
    /// For every area of the map, whether the empire sees what is in it.
    seen: &'a [bool],
    /// The empire's land areas, in map order: asked for by nearly every part of a plan.
    owned: &'a [AreaId],
    /// The threat next to each of `owned`, in the same order: asked for again and again.
    threats: Vec<(u32, Option<AreaId>)>,
    /// Sea areas holding the empire's own fleets, in map order.
    fleets: &'a [AreaId],
}

impl<'a> View<'a> {
    /// The game as `me` sees it; `held` is what `me` holds in `st`.
    pub fn new(map: &'a Map, st: &'a GameState, me: EmpireCode, held: &'a Holdings) -> View<'a> {
        let mine = st.empire(me).expect("the empire is in the game");
        let mut v = View {
            map,
            st,
            me,
            mine,
            seen: &held.seen,
            owned: &held.owned,
            threats: Vec::new(),
            fleets: &held.fleets,
        };
        v.threats = v.owned.iter().map(|&a| v.threat_to(a)).collect();
        v
    }

    pub fn empire(&self) -> &EmpireState {
        self.mine
    }

    pub fn variant(&self) -> Variant {
        self.st.variant
    }

    /// The game's options, known to every player.
    pub fn options(&self) -> &Options {
        &self.st.options
    }

    pub fn code(&self, a: AreaId) -> AreaCode {
        self.map.code(a)
    }

    /// Area `a` as the empire knows it: what it cannot see shows empty, and other empires'
    /// defence orders and watchers are unknown.
    #[inline]
    pub fn area(&self, a: AreaId) -> AreaState {
        let mut area = self.st.area(a).clone();
        mask_area(&mut area, self.me, self.seen[a.index()]);
        area
    }

    /// The armies the empire sees in `a`: only its owner's, and none where it cannot look.
    fn armies(&self, a: AreaId) -> u32 {
        if self.seen[a.index()] {
            self.st.area(a).armies
        } else {
            0
        }
    }

    /// Who owns `a`: owners are public (10.3).
    fn owner(&self, a: AreaId) -> Option<EmpireCode> {
        self.st.area(a).owner
    }

    pub fn owns(&self, a: AreaId) -> bool {
        self.owner(a) == Some(self.me)
    }

    /// Whether `a` belongs to another empire.
    pub fn foreign(&self, a: AreaId) -> bool {
        self.owner(a).is_some_and(|o| o != self.me)
    }

    /// The empire's land areas, in map order.
    pub fn owned(&self) -> impl Iterator<Item = AreaId> + '_ {
        self.owned.iter().copied()
    }

    /// Sea areas holding the empire's own fleets, in map order.
    pub fn fleet_areas(&self) -> impl Iterator<Item = AreaId> + '_ {
        self.fleets.iter().copied()
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
        match self.owned.binary_search(&a) {
            Ok(i) => self.threats[i],
            Err(_) => self.threat_to(a),
        }
    }

    fn threat_to(&self, a: AreaId) -> (u32, Option<AreaId>) {
        let mut worst = (0, None);
        for n in self.land_neighbours(a) {
            let armies = self.armies(n);
            if self.foreign(n) && armies > worst.0 {
                worst = (armies, Some(n));
            }
        }
        worst
    }

    /// 8.9: how strongly `a` would defend as it stands.
    pub fn defence(&self, a: AreaId) -> u32 {
        let area = self.area(a);
        area.armies + area.armies.min(area.forts) + self.map.area(a).terrain.defence_bonus()
    }

    /// S.4: where land area `a` draws its supply from, as far as the empire can tell.
    pub fn supply_source(&self, a: AreaId) -> Option<AreaId> {
        let owner = self.owner(a)?;
        if owner == self.me {
            // Every link of the empire's own lines is its own area, which it sees whole.
            supply::source(self.map, self.st, a)
        } else {
            // Other empires' retreat locations are unknown, so their lines end where they
            // start: only a centre supplies itself. Capitals and bases are public.
            supply::is_centre(self.map, self.st, owner, a).then_some(a)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Holdings, Survey, View};
    use crate::sim::computer_turn;
    use empires_rules::knowledge::{view_for, visible_areas};
    use empires_rules::map::AreaId;
    use empires_rules::setup::{NewGame, new_game};
    use empires_rules::state::Spy;
    use empires_rules::{GameState, Map, Variant, supply};

    /// Every empire's view of `st` shows each area, threat and supply line exactly as the
    /// knowledge rules give them to it: no more, no less.
    fn check_views(map: &Map, st: &GameState, label: &str) {
        let survey = Survey::new(map, st);
        for e in &st.empires {
            let me = e.code;
            let held = Holdings::of(map, st, me);
            assert_eq!(survey.of(me), Some(&held), "{label} {me}");
            let v = View::new(map, st, me, &held);
            assert_eq!(v.seen, visible_areas(map, st, me), "{label} {me}");
            let known = view_for(map, st, me);
            assert_eq!(v.options(), &known.options);
            assert_eq!(v.empire(), known.empire(me).unwrap());
            assert_eq!(v.variant(), known.variant);
            let owned: Vec<_> = known.owned_by(me).collect();
            assert_eq!(v.owned().collect::<Vec<_>>(), owned, "{label} {me}");
            let fleets: Vec<_> = map
                .ids()
                .filter(|&a| known.area(a).fleet.as_ref().is_some_and(|f| f.owner == me))
                .collect();
            assert_eq!(v.fleet_areas().collect::<Vec<_>>(), fleets, "{label} {me}");
            for a in map.ids() {
                let at = format!("{label} {me} {}", map.code(a));
                let seen = known.area(a);
                assert_eq!(&v.area(a), seen, "{at}");
                assert_eq!(v.owns(a), seen.owner == Some(me), "{at}");
                assert_eq!(v.foreign(a), seen.owner.is_some_and(|o| o != me), "{at}");
                assert_eq!(v.supply_source(a), supply::source(map, &known, a), "{at}");
                let mut worst = (0, None);
                for n in v.land_neighbours(a) {
                    let area = known.area(n);
                    if area.owner.is_some_and(|o| o != me) && area.armies > worst.0 {
                        worst = (area.armies, Some(n));
                    }
                }
                assert_eq!(v.threat(a), worst, "{at}");
            }
        }
    }

    /// The same game with watchers and spies spread about the map, which the computer
    /// players never place themselves.
    fn with_watchers_and_spies(map: &Map, st: &GameState) -> GameState {
        let mut st = st.clone();
        let codes: Vec<_> = st.empires.iter().map(|e| e.code).collect();
        for (i, a) in st.areas.iter_mut().enumerate() {
            if i % 5 == 0 {
                a.watcher = Some(codes[i % codes.len()]);
            }
        }
        let areas = st.areas.len();
        for (i, e) in st.empires.iter_mut().enumerate() {
            e.spy = Some(Spy {
                area: map.code(AreaId((i * 37 % areas) as u16)),
                waiting_for: None,
            });
        }
        st
    }

    #[test]
    fn the_view_shows_what_the_empire_knows() {
        for (name, variant) in [
            ("world", Variant::World),
            ("european", Variant::European),
            ("medieval", Variant::Medieval),
        ] {
            let text = std::fs::read_to_string(format!(
                "{}/../../maps/{name}.toml",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            let map = Map::from_toml(&text, name).unwrap();
            let mut st = new_game(&map, &NewGame::without_players("view", variant, 5)).unwrap();
            for _ in 0..8 {
                let label = format!("{name} turn {}", st.turn);
                check_views(&map, &st, &label);
                check_views(&map, &with_watchers_and_spies(&map, &st), &label);
                st = computer_turn(&map, &st).unwrap().state;
            }
        }
    }
}
