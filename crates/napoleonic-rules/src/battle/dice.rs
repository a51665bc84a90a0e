//! Every random draw of a battle goes through [`Dice`] (digest 10.2): the game plays with its
//! seeded generator, and a test can script the draws it cares about (the hits of the battle
//! report example T35, say) and leave the rest to a seed.

use empires_dice::GameRng;
use std::collections::{BTreeMap, VecDeque};

/// What a draw decides. The engine names each draw, so that a script can answer one kind
/// and leave the others alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draw {
    /// The order of troops within one rank, which decides who absorbs damage first (G19).
    Order,
    /// A siege roll: one per siege troop and battle (2.6, G47).
    Siege,
    /// Which defenders fit the fortification's fighting room (G20, G48).
    FortRoom,
    /// The side a troop attacks when several hostile sides are present (4.5).
    Target,
    /// One attack: one damage or none.
    Hit,
    /// A wounded troop's fate in the aftermath (damage / hit points, T36).
    Wounded,
    /// Whether the victors capture a casualty (7.5: artillery 20 %).
    Capture,
}

/// The source of a battle's chance.
pub trait Dice {
    /// True with `chance` in 10 000 (the chance in hundredths of a percent: 36.9 % is
    /// 3 690). The engine never asks for a chance of 0 or of 10 000 and more.
    fn chance(&mut self, draw: Draw, chance: u32) -> bool;
    /// A number from 0 to `n - 1` (`n` > 0).
    fn pick(&mut self, draw: Draw, n: u32) -> u32;
}

/// The game's generator: a uniform number from 1 to 10 000 for a chance, a uniform index
/// for a pick.
impl Dice for GameRng {
    fn chance(&mut self, _: Draw, chance: u32) -> bool {
        self.range(1, 10_000) <= chance
    }

    fn pick(&mut self, _: Draw, n: u32) -> u32 {
        self.range(0, n.saturating_sub(1))
    }
}

/// Dice with some answers written in advance: for each kind of draw, a queue of outcomes
/// used first, then a seeded generator. Outcomes of chances are booleans, of picks numbers
/// (taken modulo `n`).
pub struct Scripted {
    chances: BTreeMap<Draw, VecDeque<bool>>,
    picks: BTreeMap<Draw, VecDeque<u32>>,
    rest: GameRng,
    /// Every draw made, in order, with the chance or range asked and the answer given.
    pub log: Vec<(Draw, u32, u32)>,
}

impl Scripted {
    /// Nothing scripted yet: every draw comes from a generator seeded with `seed`.
    pub fn new(seed: u64) -> Scripted {
        Scripted {
            chances: BTreeMap::new(),
            picks: BTreeMap::new(),
            rest: GameRng::from_game_seed(seed),
            log: Vec::new(),
        }
    }

    /// The next outcomes of one kind of chance draw (hits, siege rolls, wounds, captures).
    pub fn chances(mut self, draw: Draw, outcomes: impl IntoIterator<Item = bool>) -> Scripted {
        self.chances.entry(draw).or_default().extend(outcomes);
        self
    }

    /// The next outcomes of one kind of pick (orders, fighting room, targets).
    pub fn picks(mut self, draw: Draw, outcomes: impl IntoIterator<Item = u32>) -> Scripted {
        self.picks.entry(draw).or_default().extend(outcomes);
        self
    }

    /// How many scripted outcomes of a kind of chance are still unused.
    pub fn unused(&self, draw: Draw) -> usize {
        self.chances.get(&draw).map_or(0, VecDeque::len)
    }
}

impl Dice for Scripted {
    fn chance(&mut self, draw: Draw, chance: u32) -> bool {
        let out = match self.chances.get_mut(&draw).and_then(VecDeque::pop_front) {
            Some(b) => b,
            None => Dice::chance(&mut self.rest, draw, chance),
        };
        self.log.push((draw, chance, u32::from(out)));
        out
    }

    fn pick(&mut self, draw: Draw, n: u32) -> u32 {
        let out = match self.picks.get_mut(&draw).and_then(VecDeque::pop_front) {
            Some(v) => v % n.max(1),
            None => Dice::pick(&mut self.rest, draw, n),
        };
        self.log.push((draw, n, out));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_answers_come_first_then_the_seed() {
        let mut d = Scripted::new(1).chances(Draw::Hit, [true, false]);
        assert!(d.chance(Draw::Hit, 1));
        assert!(!d.chance(Draw::Hit, 9_999));
        assert_eq!(d.unused(Draw::Hit), 0);
        let _ = d.chance(Draw::Hit, 5_000);
        assert_eq!(d.log.len(), 3);
        let mut p = Scripted::new(1).picks(Draw::Target, [7]);
        assert_eq!(p.pick(Draw::Target, 5), 2, "taken modulo n");
    }

    #[test]
    fn the_generator_draws_a_chance_in_ten_thousand() {
        let mut r = GameRng::from_game_seed(3);
        let hits = (0..20_000).filter(|_| r.chance(Draw::Hit, 2_500)).count();
        assert!((4_500..5_500).contains(&hits), "{hits}");
    }
}
