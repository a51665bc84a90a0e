//! Where each order of a sheet was written: a side table beside
//! [`KingdomOrders`](napoleonic_rules::KingdomOrders), in the same shape, so the checker
//! can point at the line and the word an order concerns. Every list here runs parallel to
//! the list of orders it describes.

use crate::diag::Span;
use serde::{Deserialize, Serialize};

/// Where one order was written: the whole of it, and its arguments in the order their
/// fields appear in the order's structure (each list below says which).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderSpan {
    pub at: Span,
    pub args: Vec<Span>,
}

impl OrderSpan {
    pub fn new(at: Span) -> OrderSpan {
        OrderSpan {
            at,
            args: Vec::new(),
        }
    }

    pub fn with(at: Span, args: Vec<Span>) -> OrderSpan {
        OrderSpan { at, args }
    }

    /// Argument `i`, or the whole order when it was not written (orders built by hand).
    pub fn arg(&self, i: usize) -> Span {
        self.args.get(i).copied().unwrap_or(self.at)
    }
}

/// One phase of a unit's plan.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseSpans {
    /// The phase number as first written (`2:`).
    pub label: Span,
    /// Args: the receiving unit, then each troop count or leader.
    pub transfers: Vec<OrderSpan>,
    /// Args: the kingdom.
    pub prepare_board: Option<OrderSpan>,
    /// Args: the army.
    pub load: Vec<OrderSpan>,
    /// Args: the destination (none for HOLD).
    pub step: Option<OrderSpan>,
    /// Args: the army, the province.
    pub unload: Vec<OrderSpan>,
    /// Args: the army.
    pub load_after: Vec<OrderSpan>,
    /// Args: ON or OFF.
    pub defend: Option<OrderSpan>,
    pub pillage: Option<OrderSpan>,
}

/// One unit's orders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSpans {
    /// The unit's heading (`A1`), where first written.
    pub header: Span,
    /// Args: the new unit's id, its name.
    pub form: Vec<OrderSpan>,
    /// Args: the value (the rank, the unit followed, ON/OFF, the name).
    pub admin: Vec<OrderSpan>,
    /// Args: the receiving unit, then each troop count or leader.
    pub transfers: Vec<OrderSpan>,
    /// Args: the troop type, then the five counts.
    pub ranks: Vec<OrderSpan>,
    /// One per troop count. Args: the count, the type.
    pub disband: Vec<OrderSpan>,
    pub salvage: Vec<OrderSpan>,
    /// Parallel to the plan, phase by phase.
    pub phases: Vec<PhaseSpans>,
    /// One per troop count. Args: the count, the type.
    pub recruit: Vec<OrderSpan>,
    pub hire_leader: Option<OrderSpan>,
    /// Args: the structure.
    pub build: Option<OrderSpan>,
    pub repair: Option<OrderSpan>,
    pub raze: Option<OrderSpan>,
}

/// The whole sheet.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spans {
    /// Parallel to the HQ orders. Args: the kingdom for diplomacy and SEND AMBASSADOR;
    /// the kingdom and the amount for SEND GOLD; the province for ANNEX; the province and
    /// the kingdom for GIVE and for permissions.
    pub hq: Vec<OrderSpan>,
    /// Parallel to the units.
    pub units: Vec<UnitSpans>,
    /// The PROCLAMATION line.
    pub proclamation: Option<Span>,
}

impl Spans {
    /// The spans of unit `i`, or an empty table for orders that did not come from a sheet.
    pub fn unit(&self, i: usize) -> UnitSpans {
        self.units.get(i).cloned().unwrap_or_default()
    }

    pub fn hq(&self, i: usize) -> OrderSpan {
        self.hq.get(i).cloned().unwrap_or_default()
    }
}

impl UnitSpans {
    pub fn phase(&self, i: usize) -> PhaseSpans {
        self.phases.get(i).cloned().unwrap_or_else(|| PhaseSpans {
            label: self.header,
            ..PhaseSpans::default()
        })
    }

    fn pick(list: &[OrderSpan], i: usize, or: Span) -> OrderSpan {
        list.get(i).cloned().unwrap_or(OrderSpan::new(or))
    }

    pub fn form(&self, i: usize) -> OrderSpan {
        Self::pick(&self.form, i, self.header)
    }
    pub fn admin(&self, i: usize) -> OrderSpan {
        Self::pick(&self.admin, i, self.header)
    }
    pub fn transfer(&self, i: usize) -> OrderSpan {
        Self::pick(&self.transfers, i, self.header)
    }
    pub fn ranks(&self, i: usize) -> OrderSpan {
        Self::pick(&self.ranks, i, self.header)
    }
    pub fn disband(&self, i: usize) -> OrderSpan {
        Self::pick(&self.disband, i, self.header)
    }
    pub fn salvage(&self, i: usize) -> OrderSpan {
        Self::pick(&self.salvage, i, self.header)
    }
    pub fn recruit(&self, i: usize) -> OrderSpan {
        Self::pick(&self.recruit, i, self.header)
    }
    pub fn one(&self, s: &Option<OrderSpan>) -> OrderSpan {
        s.clone().unwrap_or(OrderSpan::new(self.header))
    }
}

impl PhaseSpans {
    fn pick(list: &[OrderSpan], i: usize, or: Span) -> OrderSpan {
        list.get(i).cloned().unwrap_or(OrderSpan::new(or))
    }
    pub fn transfer(&self, i: usize) -> OrderSpan {
        Self::pick(&self.transfers, i, self.label)
    }
    pub fn load(&self, i: usize) -> OrderSpan {
        Self::pick(&self.load, i, self.label)
    }
    pub fn unload(&self, i: usize) -> OrderSpan {
        Self::pick(&self.unload, i, self.label)
    }
    pub fn load_after(&self, i: usize) -> OrderSpan {
        Self::pick(&self.load_after, i, self.label)
    }
    pub fn one(&self, s: &Option<OrderSpan>) -> OrderSpan {
        s.clone().unwrap_or(OrderSpan::new(self.label))
    }
}
