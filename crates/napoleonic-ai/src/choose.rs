//! Which troops to raise: the soldier a city builds that gives the most fighting for its
//! price (total combat × hit points, per gold), a price that may count a few turns of
//! upkeep as well.

use crate::sheet::Counts;
use napoleonic_rules::ids::TroopCode;
use napoleonic_rules::tables::{Tables, TroopClass, TroopType};

/// What a troop is raised for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// To hold a fortified city: infantry, which the walls help most (2.6).
    Garrison,
    /// To march: infantry or cavalry; no siege machines, no ships.
    Field,
}

/// The best type on a build list for a use, among those `fits` accepts: the most total
/// combat × hit points per price, where the price is the cost plus `upkeep_turns` turns of
/// upkeep; ties go to the cheaper, then to the code.
pub(crate) fn best_type<'t>(
    tables: &'t Tables,
    builds: &[TroopCode],
    use_: Use,
    upkeep_turns: i64,
    fits: impl Fn(&TroopType) -> bool,
) -> Option<&'t TroopType> {
    let wanted = |t: &TroopType| match use_ {
        Use::Garrison => t.class == TroopClass::Foot,
        Use::Field => matches!(t.class, TroopClass::Foot | TroopClass::Mounted),
    };
    let value = |t: &TroopType| i128::from(t.total_combat()) * i128::from(t.hp.0.max(0));
    let price = |t: &TroopType| i128::from((t.cost + t.upkeep * upkeep_turns).0.max(1));
    builds
        .iter()
        .filter_map(|c| tables.troop(c))
        .filter(|t| wanted(t) && fits(t))
        .max_by(|a, b| {
            (value(a) * price(b))
                .cmp(&(value(b) * price(a)))
                .then(b.cost.cmp(&a.cost))
                .then(b.code.cmp(&a.code))
        })
}

/// The land strength of troops counted by type (soldiers only).
pub(crate) fn count_strength(tables: &Tables, counts: &Counts) -> u32 {
    counts
        .iter()
        .filter_map(|(c, n)| {
            tables
                .troop(c)
                .filter(|t| t.is_soldier())
                .map(|t| t.total_combat().saturating_mul(*n))
        })
        .fold(0u32, u32::saturating_add)
}
