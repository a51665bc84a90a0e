//! Coalitions between conquerors (L17, G5).
//!
//! An alliance is formed only when both kingdoms offer it in the same turn while neutral
//! (L17), and a coalition wins only when every member is allied with every other (G5). So
//! the conquerors reason about whole **blocs**, not single partners. A bloc is a kingdom
//! with everyone joined to it by alliances. Every conqueror reads the same state and works
//! out the same plan for the turn, with no draw of chance in it: which blocs join. The
//! members of both blocs then offer an alliance to every member of the other, so the offers
//! meet and the joined bloc is allied throughout.
//!
//! Two blocs may join when:
//! - no member of one is at war with a member of the other (an enemy is never an ally,
//!   nor an enemy's ally);
//! - they share a border, or they share an enemy kingdom;
//! - neither is more than twice as strong as the other (land strength of every member): a
//!   much weaker bloc is prey rather than a partner, a much stronger one a threat;
//! - together they hold less than four fifths of the share of the provinces that wins the
//!   game: allies are not handed a victory by a signature, they must take the rest.
//!
//! Blocs that share an enemy join first, then the pairs holding fewest provinces together
//! (the weak unite against the strong), then by code. A bloc joins at most one other a
//! turn.

use napoleonic_rules::ids::KingdomCode;
use napoleonic_rules::map::Map;
use napoleonic_rules::state::{GameState, Relation};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// Blocs join only while neither is more than this many times as strong as the other.
const BALANCE: u64 = 2;

/// The turn's plan, as one kingdom sees it.
pub(crate) struct Coalition {
    /// Our bloc, us included.
    pub bloc: BTreeSet<KingdomCode>,
    /// The bloc ours joins this turn, if any.
    pub joining: BTreeSet<KingdomCode>,
    /// Every bloc as the turn begins.
    blocs: Vec<BTreeSet<KingdomCode>>,
}

impl Coalition {
    /// Kingdoms we offer an alliance to this turn: the members of the joining bloc, and any
    /// member of our own bloc we are not allied with yet; neutral ones only (L17).
    pub fn offers(&self, state: &GameState, me: &KingdomCode) -> Vec<KingdomCode> {
        self.bloc
            .iter()
            .chain(&self.joining)
            .filter(|k| *k != me && state.relation(me, k) == Relation::Neutral)
            .cloned()
            .collect()
    }

    /// Whether a kingdom is, or is about to become, one of our partners: never a target.
    pub fn friend(&self, k: &KingdomCode) -> bool {
        self.bloc.contains(k) || self.joining.contains(k)
    }

    /// The bloc a kingdom belongs to (itself alone if it has no ally).
    pub fn bloc_of(&self, k: &KingdomCode) -> BTreeSet<KingdomCode> {
        self.blocs
            .iter()
            .find(|b| b.contains(k))
            .cloned()
            .unwrap_or_else(|| BTreeSet::from([k.clone()]))
    }
}

/// Kingdoms still in the game, the independents aside.
fn playing(state: &GameState) -> Vec<KingdomCode> {
    state
        .kingdoms
        .values()
        .filter(|k| k.alive && !k.independent)
        .map(|k| k.code.clone())
        .collect()
}

/// The blocs: kingdoms joined by alliances, each bloc in code order, blocs by first code.
fn blocs(state: &GameState, kingdoms: &[KingdomCode]) -> Vec<BTreeSet<KingdomCode>> {
    let mut seen: BTreeSet<KingdomCode> = BTreeSet::new();
    let mut out = Vec::new();
    for k in kingdoms {
        if seen.contains(k) {
            continue;
        }
        let mut bloc = BTreeSet::from([k.clone()]);
        let mut todo = vec![k.clone()];
        while let Some(a) = todo.pop() {
            for b in kingdoms {
                if !bloc.contains(b) && state.relation(&a, b) == Relation::Ally {
                    bloc.insert(b.clone());
                    todo.push(b.clone());
                }
            }
        }
        seen.extend(bloc.iter().cloned());
        out.push(bloc);
    }
    out
}

/// Pairs of kingdoms with a common open border, each pair in code order.
pub(crate) fn borders(map: &Map, state: &GameState) -> BTreeSet<(KingdomCode, KingdomCode)> {
    let mut out = BTreeSet::new();
    for (id, p) in &state.provinces {
        if p.owner.is_independent() {
            continue;
        }
        let Some(loc) = map.get(*id) else { continue };
        for e in &loc.edges {
            if e.barrier {
                continue;
            }
            let Some(q) = state.provinces.get(&e.to) else {
                continue;
            };
            if q.owner != p.owner && !q.owner.is_independent() {
                let pair = if p.owner < q.owner {
                    (p.owner.clone(), q.owner.clone())
                } else {
                    (q.owner.clone(), p.owner.clone())
                };
                out.insert(pair);
            }
        }
    }
    out
}

/// The blocs as the turn begins, and which joins which: the same for every kingdom, so it
/// is worked out once a turn.
pub(crate) struct Blocs {
    all: Vec<BTreeSet<KingdomCode>>,
    /// For each bloc, the one it joins this turn.
    partner: Vec<Option<usize>>,
}

impl Blocs {
    /// The plan as `me` sees it.
    pub fn seen_by(&self, me: &KingdomCode) -> Coalition {
        let mine = self.all.iter().position(|b| b.contains(me));
        let joining = mine
            .and_then(|i| self.partner.get(i).copied().flatten())
            .and_then(|j| self.all.get(j).cloned())
            .unwrap_or_default();
        let bloc = mine
            .map(|i| self.all[i].clone())
            .unwrap_or_else(|| BTreeSet::from([me.clone()]));
        Coalition {
            bloc,
            joining,
            blocs: self.all.clone(),
        }
    }
}

/// The turn's plan of alliances: every bloc, and which joins which. `strength` gives a
/// kingdom's land strength.
pub(crate) fn plan(map: &Map, state: &GameState, strength: impl Fn(&KingdomCode) -> u32) -> Blocs {
    let kingdoms = playing(state);
    let all = blocs(state, &kingdoms);
    let mut held: BTreeMap<&KingdomCode, u32> = BTreeMap::new();
    for p in state.provinces.values() {
        *held.entry(&p.owner).or_default() += 1;
    }
    let total = u32::try_from(state.provinces.len()).unwrap_or(u32::MAX);
    let pct = match state.settings.victory_province_percent {
        0 => 50,
        p => p.min(100),
    };
    // Worked out once: each kingdom's enemies and neighbours, each bloc's figures.
    let mut foes: BTreeMap<&KingdomCode, BTreeSet<&KingdomCode>> = BTreeMap::new();
    for (i, a) in kingdoms.iter().enumerate() {
        for b in &kingdoms[i + 1..] {
            if state.relation(a, b) == Relation::War {
                foes.entry(a).or_default().insert(b);
                foes.entry(b).or_default().insert(a);
            }
        }
    }
    let mut next_to: BTreeMap<KingdomCode, BTreeSet<KingdomCode>> = BTreeMap::new();
    for (a, b) in borders(map, state) {
        next_to.entry(a.clone()).or_default().insert(b.clone());
        next_to.entry(b).or_default().insert(a);
    }
    let figures: Vec<(BTreeSet<&KingdomCode>, u32, u64)> = all
        .iter()
        .map(|b| {
            let enemies = b
                .iter()
                .filter_map(|k| foes.get(k))
                .flatten()
                .copied()
                .collect();
            let provinces = b
                .iter()
                .map(|k| held.get(k).copied().unwrap_or(0))
                .fold(0u32, u32::saturating_add);
            let might = b.iter().map(|k| u64::from(strength(k))).sum();
            (enemies, provinces, might)
        })
        .collect();
    // Every pair of blocs that may join, with its rank.
    let mut pairs: Vec<(Reverse<bool>, u32, usize, usize)> = Vec::new();
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            let (x, y) = (&all[i], &all[j]);
            let ((xfoes, xheld, xmight), (yfoes, yheld, ymight)) = (&figures[i], &figures[j]);
            if xfoes.iter().any(|k| y.contains(*k)) {
                continue;
            }
            let border = x.iter().any(|a| {
                next_to
                    .get(a)
                    .is_some_and(|n| n.iter().any(|b| y.contains(b)))
            });
            let shared = xfoes.intersection(yfoes).any(|z| !x.contains(*z));
            if !border && !shared {
                continue;
            }
            let together = xheld.saturating_add(*yheld);
            // Below four fifths of the winning share; in u64, so that nothing overflows.
            if u64::from(together) * 100 * 5 >= u64::from(pct) * u64::from(total) * 4 {
                continue;
            }
            // Neither is prey to the other, nor a threat to it.
            if (*xmight).max(*ymight) > (*xmight).min(*ymight).saturating_mul(BALANCE) {
                continue;
            }
            pairs.push((Reverse(shared), together, i, j));
        }
    }
    pairs.sort();
    let mut partner: Vec<Option<usize>> = vec![None; all.len()];
    for (_, _, i, j) in pairs {
        if partner[i].is_some() || partner[j].is_some() {
            continue;
        }
        partner[i] = Some(j);
        partner[j] = Some(i);
    }
    Blocs { all, partner }
}
