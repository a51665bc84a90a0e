//! Checking a kingdom's orders against the game before the turn: units that exist and
//! belong to the kingdom (or are formed by the sheet), orders that fit each kind of unit,
//! locations, neighbours and troop counts, and the preconditions of the order catalogue
//! (digest 3.5, 7.11) that can be known before the turn is played.
//!
//! The unit plans are followed phase by phase on their own terms, assuming no one else
//! moves: where each unit would be, what it would hold and the move points it would have
//! left (3.3). A step that is impossible on those terms (a barrier, too few move points, no
//! permission) is a warning, not an error: the turn may go otherwise. A movement to a place
//! that is not even next to where the plan puts the unit is an error.
//!
//! Every diagnostic carries the line of the order it concerns, from the sheet's
//! [`Spans`]; orders that did not come from a sheet get line 0.

use crate::diag::{Code, Diagnostic, Diags, Span};
use crate::parse::ParsedSheet;
use crate::spans::{OrderSpan, Spans};
use napoleonic_rules::Map;
use napoleonic_rules::fixed::{Fixed, Gold};
use napoleonic_rules::ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use napoleonic_rules::orders::{Admin, HqOrder, KingdomOrders, Step, Structure, Transfer};
use napoleonic_rules::state::{GameState, Relation, Status};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Checks a sheet as read: the reading's own diagnostics, the header against the game,
/// then the orders. Sorted by line and capped at [`crate::diag::MAX_DIAGNOSTICS`].
pub fn check_sheet(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    sheet: &ParsedSheet,
) -> Vec<Diagnostic> {
    let mut all: Vec<Diagnostic> = sheet.diagnostics.clone();
    if let Some(k) = &sheet.header.kingdom
        && &k.value != kingdom
    {
        all.push(
            Diagnostic::new(
                Code::WrongKingdom,
                k.span,
                k.value.as_str(),
                format!("this sheet is for {}, not {kingdom}", k.value),
            )
            .expected(format!("KINGDOM {kingdom}")),
        );
    }
    if let Some(t) = &sheet.header.turn
        && t.value != state.turn
    {
        all.push(
            Diagnostic::new(
                Code::WrongTurn,
                t.span,
                &t.value.to_string(),
                format!(
                    "this sheet is for turn {}, but the turn to be played is {}",
                    t.value, state.turn
                ),
            )
            .expected(format!("TURN {}", state.turn)),
        );
    }
    all.extend(check(map, state, kingdom, &sheet.orders, &sheet.spans));
    crate::diag::sort(&mut all);
    let mut capped = Diags::default();
    capped.extend(all);
    capped.into_vec()
}

/// Checks a kingdom's orders against the game. `spans` says where each order was written
/// (`Spans::default()` for orders that did not come from a sheet).
pub fn check(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    orders: &KingdomOrders,
    spans: &Spans,
) -> Vec<Diagnostic> {
    let mut ck = Ck {
        map,
        st: state,
        me: kingdom,
        orders,
        spans,
        d: Diags::default(),
        declared: BTreeSet::new(),
        formed: BTreeMap::new(),
        sim: BTreeMap::new(),
        owner: BTreeMap::new(),
        changed: BTreeSet::new(),
        gold: Fixed::ZERO,
        failed_loads: BTreeMap::new(),
        passage: BTreeSet::new(),
        permissions: BTreeSet::new(),
        refusing: BTreeSet::new(),
    };
    match state.kingdoms.get(kingdom) {
        Some(k) if k.alive => {
            ck.gold = k.treasury;
            ck.passage = k.passage_to.clone();
            ck.refusing = k.refuses.clone();
            ck.permissions = state
                .provinces
                .iter()
                .filter(|(_, p)| &p.owner == kingdom)
                .flat_map(|(id, p)| p.permissions.iter().map(move |k| (*id, k.clone())))
                .collect();
            ck.run();
        }
        _ => ck.d.push(Diagnostic::new(
            Code::UnknownKingdom,
            Span::new(1, 1, 1),
            kingdom.as_str(),
            format!("{kingdom} is not a kingdom still in this game"),
        )),
    }
    let mut out = ck.d.into_vec();
    crate::diag::sort(&mut out);
    out
}

/// A unit of the kingdom as the plan would have it.
#[derive(Debug, Clone)]
struct Sim {
    id: UnitId,
    /// Where the unit really would be: a step that fails leaves it where it was (G30).
    loc: LocId,
    /// Where the sheet's writer means it to be: every step taken as written.
    want: LocId,
    troops: Force,
    leaders: Vec<String>,
    /// The move points of a unit with no troops (leaders alone move as far as 4, 3.3).
    bare_mp: u8,
    holds: u8,
    aboard: Option<(KingdomCode, UnitId)>,
    /// The line of the first step that fails on the plan's terms.
    failed: Option<u32>,
    /// A battle is expected here this phase: the unit ends it with no move points.
    battle: bool,
}

impl Sim {
    /// The unit's move points: the fewest any of its troops has left (3.3).
    fn mp(&self) -> u8 {
        if self.id.kind == UnitKind::Garrison {
            return 0;
        }
        self.troops.mp().unwrap_or(self.bare_mp)
    }

    /// Every troop spends the same (3.3).
    fn spend(&mut self, cost: u8) {
        self.troops.spend(cost);
        self.bare_mp = self.bare_mp.saturating_sub(cost);
    }

    /// Loading, unloading, a battle in enemy land: no move points left (3.3).
    fn stop(&mut self) {
        self.spend(u8::MAX);
    }
}

/// Troops by type and by the move points each has left: every troop keeps its own, and
/// brings them along when transferred (3.3, T20, T21).
#[derive(Debug, Clone, Default)]
struct Force(BTreeMap<(TroopCode, u8), u32>);

impl Force {
    fn count(&self, code: &TroopCode) -> u32 {
        self.0
            .range((code.clone(), 0)..=(code.clone(), u8::MAX))
            .map(|(_, n)| *n)
            .sum()
    }

    fn add(&mut self, code: TroopCode, mp: u8, n: u32) {
        if n > 0 {
            *self.0.entry((code, mp)).or_insert(0) += n;
        }
    }

    /// Takes `n` troops of a type, those with the fewest move points left first, and
    /// answers what was taken: (move points, count).
    fn take(&mut self, code: &TroopCode, mut n: u32) -> Vec<(u8, u32)> {
        let mut taken = Vec::new();
        let keys: Vec<(TroopCode, u8)> = self
            .0
            .range((code.clone(), 0)..=(code.clone(), u8::MAX))
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            if n == 0 {
                break;
            }
            let have = self.0[&key];
            let t = have.min(n);
            n -= t;
            taken.push((key.1, t));
            if t == have {
                self.0.remove(&key);
            } else if let Some(h) = self.0.get_mut(&key) {
                *h -= t;
            }
        }
        taken
    }

    fn mp(&self) -> Option<u8> {
        self.0.keys().map(|(_, mp)| *mp).min()
    }

    fn spend(&mut self, cost: u8) {
        let old = std::mem::take(&mut self.0);
        for ((c, mp), n) in old {
            *self.0.entry((c, mp.saturating_sub(cost))).or_insert(0) += n;
        }
    }

    /// Troops by type.
    fn by_type(&self) -> BTreeMap<&TroopCode, u32> {
        let mut out = BTreeMap::new();
        for ((c, _), n) in &self.0 {
            *out.entry(c).or_insert(0) += n;
        }
        out
    }

    /// Each type with a count; a type may come more than once, with different move
    /// points.
    fn iter(&self) -> impl Iterator<Item = (&TroopCode, &u32)> {
        self.0.iter().map(|((c, _), n)| (c, n))
    }
}

struct Ck<'a> {
    map: &'a Map,
    st: &'a GameState,
    me: &'a KingdomCode,
    orders: &'a KingdomOrders,
    spans: &'a Spans,
    d: Diags,
    /// Kingdoms this sheet declares war on (valid declarations only).
    declared: BTreeSet<KingdomCode>,
    /// Units formed by the sheet: new id → the creator.
    formed: BTreeMap<UnitId, UnitId>,
    sim: BTreeMap<UnitId, Sim>,
    /// Provinces the plan takes, and who holds them then.
    owner: BTreeMap<LocId, KingdomCode>,
    /// Provinces that change hands during the turn by the plan: 2 MP to enter (3.3).
    changed: BTreeSet<LocId>,
    /// The treasury as the Final Events spend it, on the plan's terms.
    gold: Gold,
    /// Armies whose load by the plan fails, and the line of the load.
    failed_loads: BTreeMap<UnitId, u32>,
    /// Passage rights, special permissions and refusals as the sheet's own HQ orders
    /// leave them, in the order written (F2-F4).
    passage: BTreeSet<KingdomCode>,
    permissions: BTreeSet<(LocId, KingdomCode)>,
    refusing: BTreeSet<KingdomCode>,
}

fn kind_name(k: UnitKind) -> &'static str {
    match k {
        UnitKind::Army => "army",
        UnitKind::Fleet => "fleet",
        UnitKind::Garrison => "garrison",
    }
}

fn a_kind(k: UnitKind) -> &'static str {
    match k {
        UnitKind::Army => "an army",
        UnitKind::Fleet => "a fleet",
        UnitKind::Garrison => "a garrison",
    }
}

fn troops_text(force: &Force) -> String {
    let parts: Vec<String> = force
        .by_type()
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(c, n)| format!("{n} {c}"))
        .collect();
    if parts.is_empty() {
        "no troops".into()
    } else {
        parts.join(", ")
    }
}

impl<'a> Ck<'a> {
    fn err(&mut self, code: Code, at: Span, found: &str, msg: String) -> &mut Diagnostic {
        self.d.push_mut(Diagnostic::new(code, at, found, msg))
    }

    fn place(&self, id: LocId) -> String {
        match self.map.get(id) {
            Some(l) => format!("{} ({})", l.code, l.name),
            None => format!("location {id}"),
        }
    }

    fn code(&self, id: LocId) -> String {
        self.map
            .get(id)
            .map_or_else(|| id.to_string(), |l| l.code.clone())
    }

    fn is_sea(&self, id: LocId) -> bool {
        self.map.get(id).is_some_and(|l| l.is_sea())
    }

    fn neighbours_text(&self, id: LocId) -> String {
        let Some(l) = self.map.get(id) else {
            return String::new();
        };
        l.edges
            .iter()
            .map(|e| {
                let c = self.code(e.to);
                if e.barrier {
                    format!("{c} (barred)")
                } else {
                    c
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The relation with another kingdom once this sheet's declarations of war are made
    /// (F1): what the later steps see.
    fn relation(&self, k: &KingdomCode) -> Relation {
        if self.declared.contains(k) {
            Relation::War
        } else {
            self.st.relation(self.me, k)
        }
    }

    fn owner_of(&self, at: LocId) -> Option<KingdomCode> {
        self.owner
            .get(&at)
            .cloned()
            .or_else(|| self.st.provinces.get(&at).map(|p| p.owner.clone()))
    }

    /// Permission to pass through a province (2.9, G6), on the plan's terms: a province the
    /// plan takes is the kingdom's own; a declaration of war cancels the enemy's grants
    /// (F1).
    fn permitted(&self, at: LocId) -> bool {
        match self.owner_of(at) {
            Some(o) if &o == self.me => true,
            Some(o) => !self.declared.contains(&o) && self.st.has_permission(self.me, at),
            None => false,
        }
    }

    /// A kingdom named in an order: in the game, alive, not the sheet's own. Reports the
    /// problem and answers false otherwise.
    fn kingdom_ok(&mut self, k: &KingdomCode, at: Span, order: &str) -> bool {
        if k == self.me {
            self.err(
                Code::SelfTarget,
                at,
                k.as_str(),
                format!("{order} names your own kingdom"),
            )
            .expected = Some("another kingdom's code".into());
            return false;
        }
        match self.st.kingdoms.get(k) {
            Some(x) if x.alive => true,
            Some(_) => {
                self.err(
                    Code::UnknownKingdom,
                    at,
                    k.as_str(),
                    format!("{k} has been defeated and is no longer in the game"),
                );
                false
            }
            None => {
                let codes: Vec<&str> = self
                    .st
                    .kingdoms
                    .values()
                    .filter(|x| x.alive)
                    .map(|x| x.code.as_str())
                    .collect();
                let options = crate::suggest::closest(k.as_str(), codes.iter().copied());
                let d = self.err(
                    Code::UnknownKingdom,
                    at,
                    k.as_str(),
                    format!("{k} is not a kingdom in this game"),
                );
                d.expected = Some(format!("one of {}", codes.join(", ")));
                d.hint = crate::suggest::did_you_mean(&options);
                false
            }
        }
    }

    /// The kingdom's own units, and those the sheet forms, as a list for hints.
    fn own_units_text(&self, kind: UnitKind) -> String {
        let mut ids: Vec<String> = self
            .st
            .units
            .iter()
            .filter(|u| &u.owner == self.me && u.id.kind == kind)
            .map(|u| match kind {
                UnitKind::Garrison => format!("{} ({})", u.id, self.code(u.location)),
                _ => u.id.to_string(),
            })
            .collect();
        ids.extend(
            self.formed
                .keys()
                .filter(|f| f.kind == kind)
                .map(|f| format!("{f} (formed this turn)")),
        );
        let plural = match kind {
            UnitKind::Army => "armies",
            UnitKind::Fleet => "fleets",
            UnitKind::Garrison => "garrisons",
        };
        if ids.is_empty() {
            format!("you have no {plural}")
        } else {
            format!("your {plural}: {}", ids.join(", "))
        }
    }

    fn run(&mut self) {
        self.hq();
        self.form();
        self.init_sim();
        // The units whose orders are checked: the kingdom's, and those the sheet forms.
        let mut known: Vec<usize> = Vec::new();
        let mut seen = BTreeSet::new();
        for (ui, uo) in self.orders.units.iter().enumerate() {
            let at = self.spans.unit(ui).header;
            if !seen.insert(uo.unit) {
                // Orders built by hand may name a unit twice; the sheet reader merges them.
                continue;
            }
            if self.sim.contains_key(&uo.unit) {
                known.push(ui);
                continue;
            }
            let hint = self.own_units_text(uo.unit.kind);
            let what = kind_name(uo.unit.kind);
            self.err(
                Code::NoSuchUnit,
                at,
                &uo.unit.to_string(),
                format!(
                    "you have no {what} {}, and none is formed by this sheet",
                    uo.unit
                ),
            )
            .hint = Some(format!("{hint}; its orders are not checked further"));
        }
        for &ui in &known {
            self.admin(ui);
        }
        for &ui in &known {
            self.transfers_before(ui);
        }
        for &ui in &known {
            self.ranks_and_disbands(ui);
        }
        self.phases(&known);
        self.finals(&known);
    }

    // ----- Headquarters -----

    fn hq(&mut self) {
        let orders = &self.orders.hq;
        // F1 comes first: a declaration of war changes what the later orders may do.
        for (i, o) in orders.iter().enumerate() {
            if let HqOrder::DeclareWar { to } = o {
                let at = self.spans.hq(i).arg(0);
                if !self.kingdom_ok(to, at, "DECLARE WAR") {
                    continue;
                }
                match self.st.relation(self.me, to) {
                    Relation::Neutral => {
                        self.declared.insert(to.clone());
                    }
                    Relation::Ally => {
                        self.err(
                            Code::Relation,
                            at,
                            to.as_str(),
                            format!("{to} is your ally: war cannot be declared on an ally (F1)"),
                        )
                        .hint = Some(format!(
                            "cancel the alliance this turn (CANCEL ALLIANCE WITH {to}) and \
                             declare war next turn (7.11)"
                        ));
                    }
                    Relation::War if to.is_independent() => {
                        self.err(
                            Code::Relation,
                            at,
                            to.as_str(),
                            "the independents are at war with every kingdom already (1.1)".into(),
                        );
                    }
                    Relation::War => {
                        self.err(
                            Code::Relation,
                            at,
                            to.as_str(),
                            format!("you are at war with {to} already"),
                        );
                    }
                }
            }
        }
        let mut first_seen: BTreeMap<String, (usize, u32)> = BTreeMap::new();
        let mut annexing: Vec<LocId> = Vec::new();
        for (i, o) in orders.iter().enumerate() {
            let s = self.spans.hq(i);
            self.hq_repeats(o, &s, i, &mut first_seen);
            match o {
                HqOrder::DeclareWar { .. } => {}
                HqOrder::OfferPeace { to } => {
                    if self.diplomacy_ok(to, s.arg(0), "OFFER PEACE")
                        && self.relation(to) != Relation::War
                    {
                        let d = self.err(
                            Code::Relation,
                            s.arg(0),
                            to.as_str(),
                            format!("you are not at war with {to}: peace is offered only to an enemy (L15)"),
                        );
                        d.expected = Some("a kingdom you are at war with".into());
                    }
                }
                HqOrder::OfferAlliance { to } => {
                    if self.diplomacy_ok(to, s.arg(0), "OFFER ALLIANCE") {
                        match self.relation(to) {
                            Relation::Neutral => {}
                            Relation::Ally => {
                                self.err(
                                    Code::Relation,
                                    s.arg(0),
                                    to.as_str(),
                                    format!("{to} is your ally already"),
                                );
                            }
                            Relation::War => {
                                let now = if self.declared.contains(to) {
                                    "this sheet declares war on"
                                } else {
                                    "you are at war with"
                                };
                                self.err(
                                    Code::Relation,
                                    s.arg(0),
                                    to.as_str(),
                                    format!(
                                        "{now} {to}: an alliance is offered only to a neutral \
                                         kingdom (L17)"
                                    ),
                                )
                                .hint = Some(
                                    "make peace first (both OFFER PEACE); the alliance can be \
                                     offered the turn after (7.11)"
                                        .into(),
                                );
                            }
                        }
                    }
                }
                HqOrder::CancelAlliance { to } => {
                    if self.diplomacy_ok(to, s.arg(0), "CANCEL ALLIANCE")
                        && self.relation(to) != Relation::Ally
                    {
                        self.err(
                            Code::Relation,
                            s.arg(0),
                            to.as_str(),
                            format!("{to} is not your ally: there is no alliance to cancel (L16)"),
                        );
                    }
                }
                HqOrder::Acceptance { from, accept } => {
                    if self.kingdom_ok(from, s.arg(0), "ACCEPT") {
                        let refuses = self.refusing.contains(from);
                        if *accept {
                            self.refusing.remove(from);
                        } else {
                            self.refusing.insert(from.clone());
                        }
                        if refuses != *accept {
                            let now = if refuses { "refuse" } else { "accept" };
                            self.err(
                                Code::NoEffect,
                                s.arg(0),
                                from.as_str(),
                                format!(
                                    "you {now} gifts from {from} already: this changes nothing"
                                ),
                            );
                        }
                    }
                }
                HqOrder::GrantPassage { to } => {
                    if self.kingdom_ok(to, s.arg(0), "GRANT PASSAGE") {
                        if self.relation(to) == Relation::War {
                            self.enemy_grant(to, s.arg(0), "passage rights");
                        } else if !self.passage.insert(to.clone()) {
                            self.err(
                                Code::NoEffect,
                                s.arg(0),
                                to.as_str(),
                                format!("{to} has passage rights from you already"),
                            );
                        }
                    }
                }
                HqOrder::RevokePassage { to } => {
                    if self.kingdom_ok(to, s.arg(0), "REVOKE PASSAGE") {
                        let msg = if self.declared.contains(to) {
                            Some(format!(
                                "declaring war on {to} cancels its passage rights already (F1)"
                            ))
                        } else if !self.passage.remove(to) {
                            Some(format!("{to} has no passage rights from you to revoke"))
                        } else {
                            None
                        };
                        if let Some(m) = msg {
                            self.err(Code::NoEffect, s.arg(0), to.as_str(), m);
                        }
                    }
                }
                HqOrder::GrantPermission { province, to }
                | HqOrder::RevokePermission { province, to } => {
                    let grant = matches!(o, HqOrder::GrantPermission { .. });
                    let name = if grant {
                        "GRANT PERMISSION"
                    } else {
                        "REVOKE PERMISSION"
                    };
                    let p_ok = self.own_province(*province, s.arg(0), name, "F4");
                    if !self.kingdom_ok(to, s.arg(1), name) || !p_ok {
                        continue;
                    }
                    let key = (*province, to.clone());
                    let has = self.permissions.contains(&key);
                    if grant && self.relation(to) != Relation::War {
                        self.permissions.insert(key);
                    } else if !grant {
                        self.permissions.remove(&key);
                    }
                    if grant && self.relation(to) == Relation::War {
                        self.enemy_grant(to, s.arg(1), "special permission");
                    } else if grant && has {
                        let m = format!("{to} has permission in {} already", self.code(*province));
                        self.err(Code::NoEffect, s.arg(1), to.as_str(), m);
                    } else if !grant && !has {
                        let m = format!(
                            "{to} has no permission in {} to revoke",
                            self.code(*province)
                        );
                        self.err(Code::NoEffect, s.arg(1), to.as_str(), m);
                    }
                }
                // L2: the amount is paid for with the rest of the Final Events (finals).
                HqOrder::SendGold { to, amount } if to == self.me => {
                    // L2: the recipient garrison may be the sender's own. With one
                    // treasury a kingdom (E11) the gold comes straight back: only the fee
                    // is spent.
                    let fee = napoleonic_rules::turn::economy::send_fee(self.st, *amount);
                    let m = format!(
                        "gold sent to your own garrison returns to your treasury: only the \
                         {fee} gold fee is spent (L2)"
                    );
                    self.err(Code::NoEffect, s.arg(0), to.as_str(), m);
                }
                HqOrder::SendGold { to, .. } => {
                    if self.gift_ok(to, s.arg(0), "SEND GOLD") {
                        self.refuses_me(to, s.arg(0), "the gold is not sent");
                        self.route(to, s.arg(0));
                    }
                }
                HqOrder::Annex { province } => {
                    if !self.own_province(*province, s.arg(0), "ANNEX", "L6") {
                        continue;
                    }
                    let p = &self.st.provinces[province];
                    if &p.annexed_to == self.me {
                        let m = format!("{} is annexed to you already", self.code(*province));
                        self.err(Code::NoEffect, s.arg(0), &self.code(*province), m);
                        continue;
                    }
                    if &p.owner_at_start != self.me {
                        let m = format!(
                            "{} changed hands this turn: a province is annexed only when you \
                             owned it at the start of the season too (L6)",
                            self.code(*province)
                        );
                        self.err(Code::NotOwned, s.arg(0), &self.code(*province), m);
                        continue;
                    }
                    let k = &self.st.kingdoms[self.me];
                    if !k.starting.contains(province) && !annexing.contains(province) {
                        let have = self
                            .st
                            .provinces
                            .iter()
                            .filter(|(id, p)| &p.annexed_to == self.me && !k.starting.contains(id))
                            .count()
                            + annexing.iter().filter(|p| !k.starting.contains(p)).count();
                        let (limit, status) = match k.status {
                            Status::Commoner => {
                                (self.st.settings.commoner_annex_limit, "a Commoner")
                            }
                            Status::Royalty => (self.st.settings.royalty_annex_limit, "Royalty"),
                        };
                        if have as u32 >= limit {
                            let m = format!(
                                "you would have {} annexed provinces beyond your starting ones, \
                                 and {status} may have {limit} (2.10)",
                                have + 1
                            );
                            let hint = (k.status == Status::Commoner).then(|| {
                                format!(
                                    "Royalty may annex {} (2.10, L18)",
                                    self.st.settings.royalty_annex_limit
                                )
                            });
                            let code = self.code(*province);
                            self.err(Code::Limit, s.arg(0), &code, m).hint = hint;
                            continue;
                        }
                    }
                    annexing.push(*province);
                }
                // The FAQ: a province ceded to the independents is theirs, without troops.
                HqOrder::GiveProvince { province, to } if to.is_independent() => {
                    self.own_province(*province, s.arg(0), "GIVE", "L12");
                    self.kingdom_ok(to, s.arg(1), "GIVE");
                }
                HqOrder::GiveProvince { province, to } => {
                    let p_ok = self.own_province(*province, s.arg(0), "GIVE", "L12");
                    if self.gift_ok(to, s.arg(1), "GIVE") && p_ok {
                        self.refuses_me(to, s.arg(1), "the province stays yours");
                    }
                }
                HqOrder::SendAmbassador { to } => {
                    if self.kingdom_ok(to, s.arg(0), "SEND AMBASSADOR") && to.is_independent() {
                        self.err(
                            Code::Relation,
                            s.arg(0),
                            to.as_str(),
                            "the independents have no ruler to send an ambassador to".into(),
                        );
                    }
                }
            }
        }
        self.palace_coup();
    }

    fn diplomacy_ok(&mut self, to: &KingdomCode, at: Span, order: &str) -> bool {
        if !self.kingdom_ok(to, at, order) {
            return false;
        }
        if to.is_independent() {
            self.err(
                Code::Relation,
                at,
                to.as_str(),
                "the independents never change their relations (1.1)".into(),
            );
            return false;
        }
        true
    }

    fn gift_ok(&mut self, to: &KingdomCode, at: Span, order: &str) -> bool {
        if !self.kingdom_ok(to, at, order) {
            return false;
        }
        if to.is_independent() {
            self.err(
                Code::Relation,
                at,
                to.as_str(),
                "the independents take no gifts".into(),
            );
            return false;
        }
        true
    }

    fn refuses_me(&mut self, to: &KingdomCode, at: Span, then: &str) {
        if self
            .st
            .kingdoms
            .get(to)
            .is_some_and(|k| k.refuses.contains(self.me))
        {
            self.err(
                Code::Refused,
                at,
                to.as_str(),
                format!(
                    "{to} refuses gifts from you: unless it accepts them again this turn (F2), \
                     {then}"
                ),
            );
        }
    }

    fn enemy_grant(&mut self, to: &KingdomCode, at: Span, what: &str) {
        let d = self.err(
            Code::Relation,
            at,
            to.as_str(),
            format!(
                "{to} is an enemy: {what} cannot be granted to a kingdom you are at war with (2.8)"
            ),
        );
        d.expected = Some("a kingdom you are not at war with".into());
    }

    /// A province the kingdom owns now, for an HQ order.
    fn own_province(&mut self, p: LocId, at: Span, order: &str, step: &str) -> bool {
        let code = self.code(p);
        let Some(l) = self.map.get(p) else {
            self.err(
                Code::WrongPlace,
                at,
                &code,
                format!("there is no location {p} on this map"),
            );
            return false;
        };
        if l.is_sea() {
            self.err(
                Code::WrongPlace,
                at,
                &code,
                format!("{} is a sea, and {order} needs a province", self.place(p)),
            )
            .expected = Some("a province".into());
            return false;
        }
        let owner = self.st.provinces.get(&p).map(|x| x.owner.clone());
        if owner.as_ref() != Some(self.me) {
            let whose = match owner {
                Some(o) if o.is_independent() => "the independents".to_string(),
                Some(o) => o.to_string(),
                None => "no one".into(),
            };
            self.err(
                Code::NotOwned,
                at,
                &code,
                format!(
                    "you do not own {} (it belongs to {whose}): {order} needs a province you own \
                     ({step})",
                    self.place(p)
                ),
            );
            return false;
        }
        true
    }

    /// Orders repeated word for word, and orders that undo an earlier one.
    fn hq_repeats(
        &mut self,
        o: &HqOrder,
        s: &OrderSpan,
        i: usize,
        seen: &mut BTreeMap<String, (usize, u32)>,
    ) {
        let exact = format!("{o:?}");
        // Orders about the same thing, whose later one undoes the earlier.
        let topic = match o {
            HqOrder::Acceptance { from, .. } => Some(format!("acceptance {from}")),
            HqOrder::GrantPassage { to } | HqOrder::RevokePassage { to } => {
                Some(format!("passage {to}"))
            }
            HqOrder::GrantPermission { province, to }
            | HqOrder::RevokePermission { province, to } => {
                Some(format!("permission {province} {to}"))
            }
            HqOrder::GiveProvince { province, .. } => Some(format!("give {province}")),
            HqOrder::Annex { province } => Some(format!("annex {province}")),
            _ => None,
        };
        if let Some((_, line)) = seen.get(&exact) {
            let m = format!("this repeats the order on line {line}");
            self.err(Code::Contradicts, s.at, "", m);
        } else if let Some((_, line)) = topic.as_ref().and_then(|t| seen.get(t)) {
            let m = format!(
                "this contradicts the order on line {line}: both are carried out, the later last"
            );
            self.err(Code::Contradicts, s.at, "", m);
        }
        seen.entry(exact).or_insert((i, s.at.line));
        if let Some(t) = topic {
            seen.entry(t).or_insert((i, s.at.line));
        }
    }

    fn palace_coup(&mut self) {
        let owned: BTreeSet<LocId> = self.st.owned_by(self.me).collect();
        if owned.is_empty() {
            return;
        }
        let given: BTreeSet<LocId> = self
            .orders
            .hq
            .iter()
            .filter_map(|o| match o {
                HqOrder::GiveProvince { province, .. } => Some(*province),
                _ => None,
            })
            .collect();
        if owned.is_subset(&given) {
            let at = self
                .orders
                .hq
                .iter()
                .position(|o| matches!(o, HqOrder::GiveProvince { .. }))
                .map(|i| self.spans.hq(i).at)
                .unwrap_or_default();
            self.err(
                Code::PalaceCoup,
                at,
                "GIVE",
                "these orders give away every province you own: if they leave the kingdom \
                 with no troops either, they are not carried out and the GM replaces its ruler \
                 (the palace coup)"
                    .into(),
            );
        }
    }

    /// L2, G23: a route of at most `send_gold_reach` locations from one of the kingdom's
    /// garrisons to one of the recipient's, through its own provinces, provinces it may
    /// pass, and seas without an enemy fleet.
    fn route(&mut self, to: &KingdomCode, at: Span) {
        let reach = self.st.settings.send_gold_reach;
        let mine: Vec<LocId> = self
            .st
            .units
            .iter()
            .filter(|u| &u.owner == self.me && u.id.kind == UnitKind::Garrison)
            .map(|u| u.location)
            .collect();
        let theirs: BTreeSet<LocId> = self
            .st
            .units
            .iter()
            .filter(|u| &u.owner == to && u.id.kind == UnitKind::Garrison)
            .map(|u| u.location)
            .collect();
        let problem = if mine.is_empty() {
            Some("you have no garrison to send gold from (L2)".to_string())
        } else if theirs.is_empty() {
            Some(format!("{to} has no garrison to receive gold (L2)"))
        } else {
            let enemy_fleet = |l: LocId| {
                self.st.units.iter().any(|u| {
                    u.location == l
                        && u.id.kind == UnitKind::Fleet
                        && self.relation(&u.owner) == Relation::War
                })
            };
            let mut dist: BTreeMap<LocId, u32> = mine.iter().map(|l| (*l, 0)).collect();
            let mut queue: VecDeque<LocId> = mine.iter().copied().collect();
            let mut found = false;
            while let Some(l) = queue.pop_front() {
                if theirs.contains(&l) {
                    found = true;
                    break;
                }
                let d = dist[&l];
                if d >= reach {
                    continue;
                }
                for e in self.map.get(l).map(|x| x.edges.as_slice()).unwrap_or(&[]) {
                    if dist.contains_key(&e.to) {
                        continue;
                    }
                    let pass = if self.is_sea(e.to) {
                        !enemy_fleet(e.to)
                    } else {
                        theirs.contains(&e.to) || self.permitted(e.to)
                    };
                    if pass {
                        dist.insert(e.to, d + 1);
                        queue.push_back(e.to);
                    }
                }
            }
            (!found).then(|| {
                format!(
                    "no route of at most {reach} locations leads from your garrisons to one of \
                     {to}'s through your lands, lands you may pass and seas without enemy fleets \
                     (L2): the gold would not be sent"
                )
            })
        };
        if let Some(m) = problem {
            self.err(Code::NoRoute, at, to.as_str(), m);
        }
    }

    // ----- New units (F6, F7) -----

    fn form(&mut self) {
        let mut taken: BTreeSet<UnitId> = self
            .st
            .units
            .iter()
            .filter(|u| &u.owner == self.me)
            .map(|u| u.id)
            .collect();
        for (ui, uo) in self.orders.units.iter().enumerate() {
            let us = self.spans.unit(ui);
            let creator = self.st.unit(self.me, uo.unit);
            for (fi, (new, _)) in uo.form.iter().enumerate() {
                let s = us.form(fi);
                let ok_kind = match uo.unit.kind {
                    UnitKind::Army => new.kind == UnitKind::Army,
                    UnitKind::Fleet => new.kind == UnitKind::Fleet,
                    UnitKind::Garrison => new.kind != UnitKind::Garrison,
                };
                if !ok_kind || new.kind == UnitKind::Garrison {
                    let m = format!(
                        "{} is {} and cannot form {} {new}: armies form armies, fleets form \
                         fleets, and garrisons either (F6, F7)",
                        uo.unit,
                        a_kind(uo.unit.kind),
                        a_kind(new.kind),
                    );
                    self.err(Code::WrongUnitKind, s.arg(0), &new.to_string(), m);
                    continue;
                }
                if creator.is_none() && !self.formed.contains_key(&uo.unit) {
                    // Reported with the unit itself.
                    continue;
                }
                if !taken.insert(*new) {
                    let free = (1..=99u16)
                        .map(|n| UnitId {
                            kind: new.kind,
                            number: n,
                        })
                        .find(|id| !taken.contains(id));
                    let why = if self.formed.contains_key(new) {
                        "is formed twice by this sheet"
                    } else {
                        "exists already"
                    };
                    let d = self.err(
                        Code::NumberTaken,
                        s.arg(0),
                        &new.to_string(),
                        format!(
                            "{new} {why}: a new {} needs a free number",
                            kind_name(new.kind)
                        ),
                    );
                    d.hint = Some(match free {
                        Some(f) => format!("the lowest free number is {f}"),
                        None => "you have 99 of them, the most a kingdom may have".to_string(),
                    });
                    continue;
                }
                self.formed.insert(*new, uo.unit);
            }
        }
    }

    fn init_sim(&mut self) {
        let tables = &self.st.tables;
        for u in self.st.units.iter().filter(|u| &u.owner == self.me) {
            // A turn begins with every troop at its type's move points (3.3).
            let mut troops = Force::default();
            for t in &u.troops {
                troops.add(t.code.clone(), tables.troop(&t.code).map_or(0, |x| x.mp), 1);
            }
            let s = Sim {
                id: u.id,
                loc: u.location,
                want: u.location,
                troops,
                leaders: u.leaders.iter().map(|l| l.name.clone()).collect(),
                bare_mp: 4,
                holds: 0,
                aboard: u.aboard.clone(),
                failed: None,
                battle: false,
            };
            self.sim.insert(u.id, s);
        }
        // New units stand with their creator and hold nothing yet (F6, F7); an army formed
        // aboard a fleet is aboard it too (the FAQ's way of splitting a cargo).
        let formed: Vec<(UnitId, UnitId)> = self.formed.iter().map(|(a, b)| (*a, *b)).collect();
        for (new, creator) in formed {
            let Some(c) = self.sim.get(&creator).cloned() else {
                continue;
            };
            let s = Sim {
                id: new,
                loc: c.loc,
                want: c.want,
                troops: Force::default(),
                leaders: Vec::new(),
                bare_mp: 4,
                holds: 0,
                aboard: if new.kind == UnitKind::Army {
                    c.aboard.clone()
                } else {
                    None
                },
                failed: None,
                battle: false,
            };
            self.sim.insert(new, s);
        }
    }

    // ----- F8 administration -----

    fn admin(&mut self, ui: usize) {
        let uo = &self.orders.units[ui];
        let us = self.spans.unit(ui);
        let id = uo.unit;
        for (i, a) in uo.admin.iter().enumerate() {
            let s = us.admin(i);
            match a {
                Admin::RetreatLevel { .. } if id.kind == UnitKind::Garrison => {
                    self.err(
                        Code::WrongUnitKind,
                        s.at,
                        "RETREAT",
                        format!("{id} is a garrison, and garrisons never retreat (2.3)"),
                    );
                }
                Admin::Marines { .. } if id.kind != UnitKind::Army => {
                    self.err(
                        Code::WrongUnitKind,
                        s.at,
                        "MARINES",
                        format!(
                            "{id} is {}: only armies board enemy ships as marines (2.3)",
                            a_kind(id.kind)
                        ),
                    );
                }
                Admin::Follow { unit } => {
                    if id.kind == UnitKind::Garrison {
                        self.err(
                            Code::WrongUnitKind,
                            s.at,
                            "FOLLOW",
                            format!("{id} is a garrison, and garrisons never move (2.3)"),
                        );
                        continue;
                    }
                    let Some(t) = unit else { continue };
                    if *t == id {
                        self.err(
                            Code::SelfTarget,
                            s.arg(0),
                            &t.to_string(),
                            format!("{id} cannot follow itself"),
                        );
                    } else if !self.sim.contains_key(t) {
                        let hint = self.own_units_text(t.kind);
                        self.err(
                            Code::NoSuchUnit,
                            s.arg(0),
                            &t.to_string(),
                            format!("you have no {} {t} for {id} to follow", kind_name(t.kind)),
                        )
                        .hint = Some(hint);
                    } else if t.kind != id.kind {
                        self.err(
                            Code::WrongUnitKind,
                            s.arg(0),
                            &t.to_string(),
                            format!(
                                "{id} is {} and {t} {}: a unit can follow only one of its own kind",
                                a_kind(id.kind),
                                a_kind(t.kind)
                            ),
                        );
                    }
                }
                Admin::Leader { name } => {
                    let leaders = self
                        .sim
                        .get(&id)
                        .map(|s| s.leaders.clone())
                        .unwrap_or_default();
                    if !leaders.iter().any(|l| l.eq_ignore_ascii_case(name.trim())) {
                        let known = if leaders.is_empty() {
                            format!("{id} has no leaders at F8, when the unit leader is chosen")
                        } else {
                            format!("{id}'s leaders: {}", leaders.join(", "))
                        };
                        self.err(
                            Code::NoSuchLeader,
                            s.arg(0),
                            name,
                            format!("{id} has no leader called \"{name}\""),
                        )
                        .hint = Some(known);
                    }
                }
                _ => {}
            }
        }
    }

    // ----- F9 transfers, F10 ranks, F11 disbanding -----

    fn transfers_before(&mut self, ui: usize) {
        let uo = &self.orders.units[ui];
        let us = self.spans.unit(ui);
        for (i, t) in uo.transfers.iter().enumerate() {
            let s = us.transfer(i);
            let Some(to_loc) = self.recipient(uo.unit, t, &s) else {
                continue;
            };
            let whole = self.take(uo.unit, t, &s, "F9");
            let from_loc = self.sim[&uo.unit].loc;
            if from_loc != to_loc {
                self.err(
                    Code::NotTogether,
                    s.arg(0),
                    &t.to.to_string(),
                    format!(
                        "{} is in {} and {} in {}: a transfer before movement needs both in the \
                         same place (F9)",
                        uo.unit,
                        self.place(from_loc),
                        t.to,
                        self.place(to_loc)
                    ),
                )
                .hint = Some(format!(
                    "to transfer once they meet, write it in that phase, as 2: TRANSFER … TO {}",
                    t.to
                ));
                continue;
            }
            if whole {
                self.give(uo.unit, t);
            }
        }
    }

    /// Checks a transfer's recipient; answers where it is, if the transfer can be
    /// followed further.
    fn recipient(&mut self, from: UnitId, t: &Transfer, s: &OrderSpan) -> Option<LocId> {
        let foreign = t.to_kingdom.as_ref().filter(|k| *k != self.me).cloned();
        let loc = match &foreign {
            Some(k) => {
                if !self.gift_ok(k, s.arg(0), "TRANSFER") {
                    return None;
                }
                match self.st.unit(k, t.to) {
                    Some(u) => {
                        self.refuses_me(k, s.arg(0), "the troops stay where they are (G40)");
                        u.location
                    }
                    None => {
                        self.err(
                            Code::NoSuchUnit,
                            s.arg(0),
                            &t.to.to_string(),
                            format!("{k} has no {} {}", kind_name(t.to.kind), t.to),
                        );
                        return None;
                    }
                }
            }
            None => {
                if t.to == from {
                    self.err(
                        Code::SelfTarget,
                        s.arg(0),
                        &t.to.to_string(),
                        format!("{from} cannot transfer troops to itself"),
                    );
                    return None;
                }
                match self.sim.get(&t.to) {
                    Some(u) => u.loc,
                    None => {
                        let hint = self.own_units_text(t.to.kind);
                        self.err(
                            Code::NoSuchUnit,
                            s.arg(0),
                            &t.to.to_string(),
                            format!(
                                "you have no {} {} to receive the troops",
                                kind_name(t.to.kind),
                                t.to
                            ),
                        )
                        .hint = Some(hint);
                        return None;
                    }
                }
            }
        };
        // Soldiers go to armies and garrisons, ships to fleets and to a garrison with a
        // harbour (M1, proposal); leaders to any unit.
        for (i, tc) in t.troops.iter().enumerate() {
            let Some(tt) = self.st.tables.troop(&tc.code) else {
                continue;
            };
            let fits = match (tt.is_ship(), t.to.kind) {
                (false, UnitKind::Fleet) => false,
                (true, UnitKind::Army) => false,
                (true, UnitKind::Garrison) => {
                    self.st.provinces.get(&loc).is_some_and(|p| p.harbour)
                        && self.map.get(loc).is_some_and(|l| l.city.is_some())
                }
                _ => true,
            };
            if !fits {
                let what = if tt.is_ship() {
                    "ships go to a fleet, or to the garrison of a city with a harbour"
                } else {
                    "soldiers go to an army or a garrison"
                };
                let at = s.arg(1 + i);
                self.err(
                    Code::WrongUnitKind,
                    at,
                    tc.code.0.as_str(),
                    format!(
                        "{} cannot go to {} {}: {what}",
                        tc.code,
                        kind_name(t.to.kind),
                        t.to
                    ),
                );
            }
        }
        Some(loc)
    }

    /// Takes a transfer's troops and leaders out of the giver, or reports what it does not
    /// hold. Answers whether everything was there.
    fn take(&mut self, from: UnitId, t: &Transfer, s: &OrderSpan, step: &str) -> bool {
        let mut ok = true;
        let mut wanted: BTreeMap<TroopCode, u32> = BTreeMap::new();
        for (i, tc) in t.troops.iter().enumerate() {
            let at = s.arg(1 + i);
            if !self.troop_known(&tc.code, at) {
                ok = false;
                continue;
            }
            let w = wanted.entry(tc.code.clone()).or_insert(0);
            *w += tc.count;
            let held = self.sim[&from].troops.count(&tc.code);
            if *w > held {
                ok = false;
                let have = troops_text(&self.sim[&from].troops);
                self.err(
                    Code::TooManyTroops,
                    at,
                    &format!("{} {}", tc.count, tc.code),
                    format!(
                        "{from} will hold {held} {} at {step}, and this transfers {}",
                        tc.code, *w
                    ),
                )
                .hint = Some(format!("{from} will hold {have} then"));
            }
        }
        for (j, name) in t.leaders.iter().enumerate() {
            let at = s.arg(1 + t.troops.len() + j);
            let leaders = &self.sim[&from].leaders;
            if !leaders.iter().any(|l| l.eq_ignore_ascii_case(name.trim())) {
                ok = false;
                let known = if leaders.is_empty() {
                    format!("{from} has no leaders")
                } else {
                    format!("{from}'s leaders: {}", leaders.join(", "))
                };
                self.err(
                    Code::NoSuchLeader,
                    at,
                    name,
                    format!("{from} has no leader called \"{name}\" at {step}"),
                )
                .hint = Some(known);
            }
        }
        ok
    }

    /// Moves a transfer's troops and leaders from the giver to the recipient (own units),
    /// and spreads the giver's spent move points (3.3: transferred troops keep theirs).
    fn give(&mut self, from: UnitId, t: &Transfer) {
        let giver = self.sim.get_mut(&from).expect("checked");
        let mut moved: Vec<(TroopCode, u8, u32)> = Vec::new();
        for tc in &t.troops {
            for (mp, n) in giver.troops.take(&tc.code, tc.count) {
                moved.push((tc.code.clone(), mp, n));
            }
        }
        giver
            .leaders
            .retain(|l| !t.leaders.iter().any(|n| n.trim().eq_ignore_ascii_case(l)));
        let own = t.to_kingdom.as_ref().is_none_or(|k| k == self.me);
        if !own {
            return;
        }
        if let Some(r) = self.sim.get_mut(&t.to) {
            // 3.3: transferred troops bring the move points they have left.
            for (c, mp, n) in moved {
                r.troops.add(c, mp, n);
            }
            r.leaders.extend(t.leaders.iter().cloned());
        }
    }

    fn troop_known(&mut self, code: &TroopCode, at: Span) -> bool {
        if self.st.tables.troop(code).is_some() {
            return true;
        }
        let codes: Vec<&str> = self.st.tables.troops.keys().map(|c| c.0.as_str()).collect();
        let options = crate::suggest::closest(&code.0, codes.iter().copied());
        let d = self.err(
            Code::UnknownTroop,
            at,
            &code.0,
            format!("{code} is not a troop type of this game"),
        );
        d.expected = Some(format!("one of {}", codes.join(", ")));
        d.hint = crate::suggest::did_you_mean(&options);
        false
    }

    fn ranks_and_disbands(&mut self, ui: usize) {
        let uo = &self.orders.units[ui];
        let us = self.spans.unit(ui);
        let id = uo.unit;
        for (i, r) in uo.ranks.iter().enumerate() {
            let s = us.ranks(i);
            if !self.troop_known(&r.code, s.arg(0)) {
                continue;
            }
            let held = self.sim[&id].troops.count(&r.code);
            let placed: u32 = r.ranks.iter().sum();
            if held == 0 {
                self.err(
                    Code::TooManyTroops,
                    s.arg(0),
                    r.code.0.as_str(),
                    format!("{id} will hold no {} at F10 to place in ranks", r.code),
                );
            } else if placed > held {
                self.err(
                    Code::TooManyTroops,
                    s.at,
                    r.code.0.as_str(),
                    format!(
                        "RANKS places {placed} {}, but {id} will hold {held} at F10",
                        r.code
                    ),
                );
            } else if placed < held {
                self.err(
                    Code::RanksPartial,
                    s.at,
                    r.code.0.as_str(),
                    format!(
                        "RANKS places {placed} of the {held} {} {id} will hold at F10: the other {} \
                         keep their ranks",
                        r.code,
                        held - placed
                    ),
                );
            }
        }
        let at_sea = self.is_sea(self.sim[&id].loc);
        for (list, salvage) in [(&uo.disband, false), (&uo.salvage, true)] {
            let mut taken: BTreeMap<TroopCode, u32> = BTreeMap::new();
            for (i, tc) in list.iter().enumerate() {
                let s = if salvage {
                    us.salvage(i)
                } else {
                    us.disband(i)
                };
                if !self.troop_known(&tc.code, s.arg(1)) {
                    continue;
                }
                let held = self.sim[&id].troops.count(&tc.code);
                let w = taken.entry(tc.code.clone()).or_insert(0);
                *w += tc.count;
                if *w > held {
                    let have = troops_text(&self.sim[&id].troops);
                    let verb = if salvage { "salvages" } else { "disbands" };
                    self.err(
                        Code::TooManyTroops,
                        s.at,
                        &format!("{} {}", tc.count, tc.code),
                        format!(
                            "{id} will hold {held} {} at F11, and this {verb} {}",
                            tc.code, *w
                        ),
                    )
                    .hint = Some(format!("{id} will hold {have} then"));
                    continue;
                }
                if let Some(u) = self.sim.get_mut(&id) {
                    u.troops.take(&tc.code, tc.count);
                }
                if salvage {
                    let tt = self.st.tables.troop(&tc.code).expect("checked");
                    let gold = tt.salvage() * i64::from(tc.count);
                    if gold == Fixed::ZERO {
                        self.err(
                            Code::NoSalvage,
                            s.at,
                            tc.code.0.as_str(),
                            format!(
                                "salvaged {} give no gold: only ships and artillery do (F11); \
                                 they are simply disbanded",
                                tc.code
                            ),
                        );
                    } else if at_sea && tt.is_ship() {
                        self.err(
                            Code::NoSalvage,
                            s.at,
                            tc.code.0.as_str(),
                            format!(
                                "{id} is at sea: ships salvaged there give no gold, only in a \
                                 province (F11)"
                            ),
                        );
                    } else {
                        self.gold += gold;
                    }
                }
            }
        }
    }

    // ----- The movement phases -----

    fn phases(&mut self, known: &[usize]) {
        let units = known;
        let last = units
            .iter()
            .map(|&i| self.orders.units[i].last_phase())
            .max()
            .unwrap_or(0);
        let max = self.st.settings.max_phases;
        for &ui in units {
            let uo = &self.orders.units[ui];
            let us = self.spans.unit(ui);
            for (pi, p) in uo.plan.iter().enumerate() {
                if p.phase == 0 || p.phase > max {
                    let at = us.phase(pi).label;
                    self.err(
                        Code::LatePhase,
                        at,
                        &p.phase.to_string(),
                        format!(
                            "phase {} is never played: a turn has at most {max} phases (G37)",
                            p.phase
                        ),
                    );
                }
            }
        }
        for phase in 1..=last {
            // Each step for every unit, in the order of the phase (3.2).
            let here: Vec<(usize, usize)> = units
                .iter()
                .filter_map(|&ui| {
                    self.orders.units[ui]
                        .plan
                        .iter()
                        .position(|p| p.phase == phase)
                        .map(|pi| (ui, pi))
                })
                .collect();
            for &(ui, pi) in &here {
                self.phase_transfers(ui, pi, phase);
            }
            for &(ui, pi) in &here {
                self.prepare(ui, pi);
            }
            for &(ui, pi) in &here {
                self.load(ui, pi, phase, false);
            }
            for &(ui, pi) in &here {
                if self.orders.units[ui].unit.kind != UnitKind::Army {
                    self.step(ui, pi, phase);
                }
            }
            for &(ui, pi) in &here {
                self.unload(ui, pi, phase);
            }
            for &(ui, pi) in &here {
                if self.orders.units[ui].unit.kind == UnitKind::Army {
                    self.step(ui, pi, phase);
                }
            }
            for &(ui, pi) in &here {
                self.load(ui, pi, phase, true);
            }
            for &(ui, pi) in &here {
                self.defend(ui, pi);
            }
            for &(ui, pi) in &here {
                self.pillage(ui, pi);
            }
            // A battle in enemy land leaves its survivors no move points (3.3, M12).
            for s in self.sim.values_mut() {
                if s.battle {
                    s.stop();
                    s.battle = false;
                }
            }
        }
    }

    fn phase_transfers(&mut self, ui: usize, pi: usize, phase: u8) {
        let uo = &self.orders.units[ui];
        let ps = self.spans.unit(ui).phase(pi);
        for (i, t) in uo.plan[pi].transfers.iter().enumerate() {
            let s = ps.transfer(i);
            let Some(to_loc) = self.recipient(uo.unit, t, &s) else {
                continue;
            };
            if !self.take(uo.unit, t, &s, &format!("the start of phase {phase}")) {
                continue;
            }
            let from_loc = self.sim[&uo.unit].loc;
            if from_loc != to_loc {
                self.err(
                    Code::Apart,
                    s.arg(0),
                    &t.to.to_string(),
                    format!(
                        "by the plan, {} will be in {} and {} in {} at the start of phase {phase}: \
                         the transfer will not happen (M1)",
                        uo.unit,
                        self.place(from_loc),
                        t.to,
                        self.place(to_loc)
                    ),
                );
                continue;
            }
            self.give(uo.unit, t);
        }
    }

    fn wrong_kind(&mut self, id: UnitId, at: Span, word: &str, why: &str) {
        self.err(
            Code::WrongUnitKind,
            at,
            word,
            format!("{id} is {}: {why}", a_kind(id.kind)),
        );
    }

    fn prepare(&mut self, ui: usize, pi: usize) {
        let uo = &self.orders.units[ui];
        let Some(k) = &uo.plan[pi].prepare_board else {
            return;
        };
        let ps = self.spans.unit(ui).phase(pi);
        let s = ps.one(&ps.prepare_board);
        let id = uo.unit;
        if id.kind != UnitKind::Army {
            return self.wrong_kind(id, s.at, "PREPARE", "only armies prepare to board (M2)");
        }
        if k == self.me {
            self.err(
                Code::SelfTarget,
                s.arg(0),
                k.as_str(),
                "your own fleets load your armies without it: PREPARE TO BOARD is for a \
                 foreign fleet (M2)"
                    .into(),
            );
            return;
        }
        if !self.kingdom_ok(k, s.arg(0), "PREPARE TO BOARD") {
            return;
        }
        self.spend_action(id, s.at, "preparing to board");
    }

    /// G8: building, razing, repairing, pillaging and preparing to board each take move
    /// points.
    fn spend_action(&mut self, id: UnitId, at: Span, what: &str) {
        let cost = self.st.settings.action_mp;
        let Some(u) = self.sim.get_mut(&id) else {
            return;
        };
        if id.kind == UnitKind::Garrison {
            return;
        }
        if u.mp() < cost {
            let mp = u.mp();
            self.err(
                Code::StepFails,
                at,
                "",
                format!(
                    "{id} will have {mp} move points left, and {what} needs {cost} (G8): it will \
                     fail"
                ),
            );
        } else {
            u.spend(cost);
        }
    }

    /// The army named in a load or unload: own (followed by the plan) or foreign (where it
    /// stands now). None when it does not exist or is not an army.
    fn army_ref(&mut self, k: &Option<KingdomCode>, a: UnitId, at: Span) -> Option<(bool, LocId)> {
        if a.kind != UnitKind::Army {
            self.err(
                Code::WrongUnitKind,
                at,
                &a.to_string(),
                format!("{a} is not an army: fleets load and unload armies (M3, M8)"),
            );
            return None;
        }
        match k.as_ref().filter(|k| *k != self.me) {
            Some(k) => {
                if !self.kingdom_ok(k, at, "LOAD") {
                    return None;
                }
                match self.st.unit(k, a) {
                    Some(u) => Some((false, u.location)),
                    None => {
                        self.err(
                            Code::NoSuchUnit,
                            at,
                            &a.to_string(),
                            format!("{k} has no army {a}"),
                        );
                        None
                    }
                }
            }
            None => match self.sim.get(&a) {
                Some(s) => Some((true, s.loc)),
                None => {
                    let hint = self.own_units_text(UnitKind::Army);
                    self.err(
                        Code::NoSuchUnit,
                        at,
                        &a.to_string(),
                        format!("you have no army {a}"),
                    )
                    .hint = Some(hint);
                    None
                }
            },
        }
    }

    /// Whether a fleet at `fleet` reaches `land` to load or unload: the same location, or a
    /// sea next to it over a coast without a reef (M3, M8).
    fn reaches(&self, fleet: LocId, land: LocId) -> Result<(), String> {
        if fleet == land {
            return Ok(());
        }
        let Some(edge) = self.map.get(fleet).and_then(|l| l.edge(land)) else {
            return Err(format!(
                "{} is not next to {}",
                self.place(land),
                self.place(fleet)
            ));
        };
        if !self.is_sea(fleet) {
            return Err(format!(
                "the fleet is in the province {}, and reaches only that province",
                self.place(fleet)
            ));
        }
        if edge.barrier {
            return Err(format!(
                "a reef bars the coast between {} and {} (2.1)",
                self.place(fleet),
                self.place(land)
            ));
        }
        Ok(())
    }

    fn load(&mut self, ui: usize, pi: usize, phase: u8, after: bool) {
        let uo = &self.orders.units[ui];
        let list = if after {
            &uo.plan[pi].load_after
        } else {
            &uo.plan[pi].load
        };
        if list.is_empty() {
            return;
        }
        let ps = self.spans.unit(ui).phase(pi);
        let id = uo.unit;
        let step = if after { "M9b" } else { "M3" };
        for (i, (k, a)) in list.iter().enumerate() {
            let s = if after { ps.load_after(i) } else { ps.load(i) };
            if id.kind != UnitKind::Fleet {
                self.wrong_kind(id, s.at, "LOAD", "only fleets load armies (M3)");
                return;
            }
            let Some((own, army_loc)) = self.army_ref(k, *a, s.arg(0)) else {
                continue;
            };
            let fleet_loc = self.sim[&id].loc;
            let line = s.at.line;
            if let Err(why) = self.reaches(fleet_loc, army_loc) {
                self.failed_loads.insert(*a, line);
                self.err(
                    Code::StepFails,
                    s.arg(0),
                    &a.to_string(),
                    format!(
                        "by the plan, {a} will be in {} in phase {phase}, out of {id}'s reach: \
                         {why}; the load will fail ({step})",
                        self.place(army_loc)
                    ),
                );
                continue;
            }
            if !own {
                continue;
            }
            if let Some((_, f)) = &self.sim[a].aboard {
                let f = *f;
                self.failed_loads.insert(*a, line);
                self.err(
                    Code::StepFails,
                    s.arg(0),
                    &a.to_string(),
                    format!("{a} will already be aboard {f} in phase {phase}: the load will fail"),
                );
                continue;
            }
            // G45: refused if the army weighs more than half again the free storage.
            let weight = self.weight(a);
            let storage = self.storage(&id);
            let carried: u32 = self
                .sim
                .values()
                .filter(|s| s.aboard.as_ref().is_some_and(|(_, f)| *f == id))
                .map(|s| self.weight(&s.id))
                .sum();
            let free = storage.saturating_sub(carried);
            let limit = if self.st.settings.strict_load_limit {
                free
            } else {
                free + free / 2
            };
            if weight > limit {
                self.failed_loads.insert(*a, line);
                self.err(
                    Code::StepFails,
                    s.arg(0),
                    &a.to_string(),
                    format!(
                        "{a} weighs {weight} and {id} has {free} storage free: the load will be \
                         refused (M3, G45)"
                    ),
                );
                continue;
            }
            if weight > free {
                // G45 lets it board, and M7 then throws the excess overboard.
                self.err(
                    Code::StepFails,
                    s.arg(0),
                    &a.to_string(),
                    format!(
                        "{a} weighs {weight} and {id} has {free} storage free: it boards, but \
                         troops weighing about {} will be thrown overboard and lost (M7, G45)",
                        weight - free
                    ),
                );
            }
            let u = self.sim.get_mut(a).expect("own");
            u.aboard = Some((self.me.clone(), id));
            u.stop();
            u.loc = fleet_loc;
            u.want = fleet_loc;
        }
    }

    fn weight(&self, id: &UnitId) -> u32 {
        self.sim.get(id).map_or(0, |s| {
            s.troops
                .iter()
                .filter_map(|(c, n)| self.st.tables.troop(c).map(|t| t.weight * n))
                .sum()
        })
    }

    fn storage(&self, id: &UnitId) -> u32 {
        self.sim.get(id).map_or(0, |s| {
            s.troops
                .iter()
                .filter_map(|(c, n)| self.st.tables.troop(c).map(|t| t.storage * n))
                .sum()
        })
    }

    fn unload(&mut self, ui: usize, pi: usize, phase: u8) {
        let uo = &self.orders.units[ui];
        if uo.plan[pi].unload.is_empty() {
            return;
        }
        let ps = self.spans.unit(ui).phase(pi);
        let id = uo.unit;
        for (i, (k, a, to)) in uo.plan[pi].unload.iter().enumerate() {
            let s = ps.unload(i);
            if id.kind != UnitKind::Fleet {
                self.wrong_kind(id, s.at, "UNLOAD", "only fleets unload armies (M8)");
                return;
            }
            if self.map.get(*to).is_none() || self.is_sea(*to) {
                let m = match self.map.get(*to) {
                    Some(_) => format!(
                        "{} is a sea: armies are put ashore in a province",
                        self.place(*to)
                    ),
                    None => format!("there is no location {to} on this map"),
                };
                self.err(Code::WrongPlace, s.arg(1), &self.code(*to), m)
                    .expected = Some("a province".into());
                continue;
            }
            let Some((own, _)) = self.army_ref(k, *a, s.arg(0)) else {
                continue;
            };
            let (want, real) = (self.sim[&id].want, self.sim[&id].loc);
            if let Err(why) = self.reaches(want, *to)
                && (want == real || self.reaches(real, *to).is_err())
            {
                self.err(
                    Code::NotAdjacent,
                    s.arg(1),
                    &self.code(*to),
                    format!(
                        "{id} cannot put an army ashore in {} in phase {phase}: {why}",
                        self.code(*to)
                    ),
                )
                .hint = Some(format!(
                    "{}'s neighbours: {}",
                    self.code(want),
                    self.neighbours_text(want)
                ));
                continue;
            }
            if let Err(why) = self.reaches(real, *to) {
                self.err(
                    Code::StepFails,
                    s.arg(1),
                    &self.code(*to),
                    format!(
                        "after the failed step, {id} will be in {}: {why}; the unload will fail",
                        self.place(real)
                    ),
                );
                continue;
            }
            if !own {
                continue;
            }
            let aboard = self.sim[a].aboard.as_ref().is_some_and(|(_, f)| *f == id);
            if !aboard {
                let hint = match self.failed_loads.get(a) {
                    Some(line) => format!("the load on line {line} fails, so {a} is never aboard"),
                    None => format!("load it first, as 1: LOAD {a}"),
                };
                self.err(
                    Code::StepFails,
                    s.arg(0),
                    &a.to_string(),
                    format!("by the plan, {a} will not be aboard {id} in phase {phase}: the unload will fail (M8)"),
                )
                .hint = Some(hint);
                continue;
            }
            // Landing where the kingdom has no permission and is not at war fails (M8).
            let hostile = self
                .owner_of(*to)
                .is_some_and(|o| self.relation(&o) == Relation::War);
            if !self.permitted(*to) && !hostile {
                let o = self
                    .owner_of(*to)
                    .map(|o| o.to_string())
                    .unwrap_or_default();
                self.err(
                    Code::StepFails,
                    s.arg(1),
                    &self.code(*to),
                    format!(
                        "{} belongs to {o}, which is not at war with you, and you have no \
                         permission there: the unload will fail (M8, 2.9)",
                        self.place(*to)
                    ),
                );
                continue;
            }
            for u in [*a, id] {
                if let Some(x) = self.sim.get_mut(&u) {
                    x.stop();
                }
            }
            let army = self.sim.get_mut(a).expect("own");
            army.aboard = None;
            army.loc = *to;
            army.want = *to;
        }
    }

    fn step(&mut self, ui: usize, pi: usize, phase: u8) {
        let uo = &self.orders.units[ui];
        let Some(step) = uo.plan[pi].step else {
            return;
        };
        let ps = self.spans.unit(ui).phase(pi);
        let s = ps.one(&ps.step);
        let id = uo.unit;
        let dest = match step {
            Step::Hold => return self.hold(id, &s),
            Step::Move(d) => d,
        };
        if id.kind == UnitKind::Garrison {
            self.err(
                Code::WrongUnitKind,
                s.at,
                "MOVE",
                format!("{id} is a garrison, and garrisons never move (2.3)"),
            )
            .hint = Some("to send its troops out, TRANSFER them to an army, or FORM ARMY".into());
            return;
        }
        let Some(dl) = self.map.get(dest) else {
            self.err(
                Code::WrongPlace,
                s.arg(0),
                &dest.to_string(),
                format!("there is no location {dest} on this map"),
            );
            return;
        };
        if id.kind == UnitKind::Army && dl.is_sea() {
            self.err(
                Code::WrongPlace,
                s.arg(0),
                &dl.code,
                format!(
                    "{} is a sea: armies march only into provinces",
                    self.place(dest)
                ),
            )
            .hint =
                Some("to cross the sea, have a fleet LOAD the army and UNLOAD it (M3, M8)".into());
            return;
        }
        let (want, real) = (self.sim[&id].want, self.sim[&id].loc);
        if id.kind == UnitKind::Fleet
            && !dl.is_sea()
            && self.map.get(want).is_some_and(|l| !l.is_sea())
        {
            self.err(
                Code::WrongPlace,
                s.arg(0),
                &dl.code,
                format!(
                    "{id} would be in the province {}, and a fleet sails from a province only to \
                     a sea (M4)",
                    self.place(want)
                ),
            );
            self.relocate(id, dest);
            return;
        }
        // An error when the plan itself is broken: not next to where it puts the unit.
        if want != dest && self.map.get(want).and_then(|l| l.edge(dest)).is_none() {
            self.err(
                Code::NotAdjacent,
                s.arg(0),
                &dl.code,
                format!(
                    "{} is not next to {}, where {id} would be at phase {phase}",
                    self.place(dest),
                    self.place(want)
                ),
            )
            .hint = Some(format!(
                "{}'s neighbours: {}",
                self.code(want),
                self.neighbours_text(want)
            ));
            self.relocate(id, dest);
            return;
        }
        self.set_want(id, dest);
        if let Some((_, f)) = self.sim[&id].aboard.clone()
            && id.kind == UnitKind::Army
        {
            self.fails(
                id,
                &s,
                format!("{id} will be aboard {f} and cannot march (M9)"),
            );
            return;
        }
        if real != want && self.map.get(real).and_then(|l| l.edge(dest)).is_none() {
            let after = match self.sim[&id].failed {
                Some(line) => format!("after the step that fails on line {line}"),
                None => "after an earlier step fails".to_string(),
            };
            self.fails(
                id,
                &s,
                format!(
                    "{after}, {id} will still be in {}, which {} is not next to (G30)",
                    self.place(real),
                    self.code(dest)
                ),
            );
            return;
        }
        let edge = self.map.get(real).and_then(|l| l.edge(dest));
        if edge.is_some_and(|e| e.barrier) {
            let what = if id.kind == UnitKind::Army {
                "mountains bar the way"
            } else {
                "a reef bars the coast"
            };
            self.fails(
                id,
                &s,
                format!(
                    "{what} from {} to {} (2.1): the move will fail",
                    self.code(real),
                    self.code(dest)
                ),
            );
            return;
        }
        let mp = self.sim[&id].mp();
        let (cost, why) = if dl.is_sea() {
            // G7: a fleet spends 1 move point a sail.
            (1, String::new())
        } else {
            let owner = self.owner_of(dest);
            let hostile = owner
                .as_ref()
                .is_some_and(|o| o != self.me && self.relation(o) == Relation::War);
            if id.kind == UnitKind::Fleet {
                let harbour = self.st.provinces.get(&dest).is_some_and(|p| p.harbour);
                let problem = if hostile {
                    Some(format!(
                        "a fleet never sails into an enemy's province (G7): {} is held by {}",
                        self.code(dest),
                        owner.clone().map(|o| o.to_string()).unwrap_or_default()
                    ))
                } else if !harbour {
                    Some(format!(
                        "{} has no harbour for {id} to dock in (M4)",
                        self.place(dest)
                    ))
                } else if !self.permitted(dest) {
                    Some(format!(
                        "you have no permission to dock in {} (G7)",
                        self.place(dest)
                    ))
                } else {
                    None
                };
                if let Some(p) = problem {
                    self.fails(id, &s, format!("{p}: the sail will fail"));
                    return;
                }
                (1, String::new())
            } else if hostile {
                // 3.3: 2 to enter an enemy's or the independents' province.
                (2, format!("{} is enemy land", self.code(dest)))
            } else if !self.permitted(dest) {
                let o = owner.map(|o| o.to_string()).unwrap_or_default();
                let place = self.place(dest);
                self.fails(
                    id,
                    &s,
                    format!(
                        "you have no permission to enter {place}, held by {o}, which is not at \
                         war with you: {id} will bounce (2.9, M9)"
                    ),
                )
                .hint = Some(format!(
                    "{o} can grant you passage rights or special permission, or you can declare war"
                ));
                return;
            } else if self.changed.contains(&dest) {
                (2, format!("{} changes hands this turn", self.code(dest)))
            } else {
                (1, String::new())
            }
        };
        if mp < cost {
            self.fails(
                id,
                &s,
                format!(
                    "{id} will have {mp} move point{} left, and entering {} costs {cost}{} (3.3): \
                     the move will fail",
                    if mp == 1 { "" } else { "s" },
                    self.code(dest),
                    if why.is_empty() {
                        String::new()
                    } else {
                        format!(" ({why})")
                    }
                ),
            );
            return;
        }
        // The move is made: the unit, and any army aboard a fleet, are now there.
        let combat = self.combat(&id);
        let u = self.sim.get_mut(&id).expect("own");
        u.spend(cost);
        u.loc = dest;
        for x in self.sim.values_mut() {
            if x.aboard.as_ref().is_some_and(|(_, f)| *f == id) {
                x.loc = dest;
                x.want = dest;
            }
        }
        if id.kind == UnitKind::Army && cost == 2 && !self.changed.contains(&dest) {
            // Enemy land: a battle with whoever holds it, or an empty province taken (M13),
            // when the army's total combat is enough (G14).
            let defended = self.st.units.iter().any(|u| {
                u.location == dest
                    && !u.troops.is_empty()
                    && u.aboard.is_none()
                    && &u.owner != self.me
                    && self.relation(&u.owner) == Relation::War
            });
            if defended {
                if let Some(x) = self.sim.get_mut(&id) {
                    x.battle = true;
                }
            } else if combat >= self.st.settings.conquest_combat {
                self.owner.insert(dest, self.me.clone());
                self.changed.insert(dest);
            }
        }
    }

    /// After an error in the plan, the rest is judged as if the step were put right: the
    /// unit is where the writer meant it to be, with no move points spent on it.
    fn relocate(&mut self, id: UnitId, to: LocId) {
        let carried: Vec<UnitId> = self
            .sim
            .values()
            .filter(|x| x.aboard.as_ref().is_some_and(|(_, f)| *f == id))
            .map(|x| x.id)
            .collect();
        for u in carried.into_iter().chain([id]) {
            if let Some(x) = self.sim.get_mut(&u) {
                x.want = to;
                x.loc = to;
            }
        }
    }

    fn set_want(&mut self, id: UnitId, to: LocId) {
        if let Some(u) = self.sim.get_mut(&id) {
            u.want = to;
        }
    }

    /// A step that fails on the plan's terms: a warning, and the unit stays (G30).
    fn fails(&mut self, id: UnitId, s: &OrderSpan, msg: String) -> &mut Diagnostic {
        if let Some(u) = self.sim.get_mut(&id) {
            u.failed.get_or_insert(s.at.line);
        }
        self.err(Code::StepFails, s.arg(0), "", msg)
    }

    fn hold(&mut self, id: UnitId, s: &OrderSpan) {
        if id.kind == UnitKind::Garrison {
            self.err(
                Code::NoEffect,
                s.at,
                "HOLD",
                format!("{id} is a garrison: it never moves, so HOLD changes nothing"),
            );
            return;
        }
        let Some(u) = self.sim.get_mut(&id) else {
            return;
        };
        // 3.3: the first hold of a turn is free, each later one costs 1.
        let cost = u8::from(u.holds > 0);
        u.holds += 1;
        if u.mp() < cost {
            let n = u.holds;
            self.err(
                Code::StepFails,
                s.at,
                "HOLD",
                format!(
                    "hold number {n} costs 1 move point (3.3), and {id} will have none left: it \
                     will fail"
                ),
            );
        } else {
            u.spend(cost);
        }
    }

    fn combat(&self, id: &UnitId) -> u32 {
        let Some(s) = self.sim.get(id) else { return 0 };
        let troops: u32 = s
            .troops
            .iter()
            .filter_map(|(c, n)| self.st.tables.troop(c).map(|t| t.total_combat() * n))
            .sum();
        // Leaders fight too; those of the unit now are counted when they stay in it.
        let leaders: u32 = self
            .st
            .unit(self.me, *id)
            .map(|u| {
                u.leaders
                    .iter()
                    .filter(|l| s.leaders.iter().any(|n| n == &l.name))
                    .map(|l| l.attacks * l.combat)
                    .sum()
            })
            .unwrap_or(0);
        troops + leaders
    }

    fn defend(&mut self, ui: usize, pi: usize) {
        let uo = &self.orders.units[ui];
        if uo.plan[pi].defend.is_none() || uo.unit.kind == UnitKind::Army {
            return;
        }
        let ps = self.spans.unit(ui).phase(pi);
        let s = ps.one(&ps.defend);
        let why = if uo.unit.kind == UnitKind::Garrison {
            "a garrison always defends its fortification (2.3); DEFEND is for armies (M10)"
        } else {
            "only armies enter a fortification to defend it (M10)"
        };
        self.wrong_kind(uo.unit, s.at, "DEFEND", why);
    }

    fn pillage(&mut self, ui: usize, pi: usize) {
        let uo = &self.orders.units[ui];
        if !uo.plan[pi].pillage {
            return;
        }
        let ps = self.spans.unit(ui).phase(pi);
        let s = ps.one(&ps.pillage);
        let id = uo.unit;
        if id.kind == UnitKind::Fleet {
            return self.wrong_kind(
                id,
                s.at,
                "PILLAGE",
                "fleets never pillage; armies and garrisons do (M14)",
            );
        }
        if let Some((_, f)) = self.sim[&id].aboard.clone() {
            self.err(
                Code::StepFails,
                s.at,
                "PILLAGE",
                format!("{id} will be aboard {f}: it can pillage only on land"),
            );
            return;
        }
        let combat = self.combat(&id);
        let need = self.st.settings.pillage_combat;
        if combat < need {
            self.err(
                Code::Weak,
                s.at,
                "PILLAGE",
                format!(
                    "{id}'s total combat will be {combat}, and pillaging needs {need} (M14, G9): it \
                     will fail"
                ),
            );
        }
        self.spend_action(id, s.at, "pillaging");
    }

    // ----- Final Events: recruiting, leaders, construction, and the gold for them -----

    fn finals(&mut self, known: &[usize]) {
        let fee = self.st.settings.send_gold_fee_percent;
        // L2: gold sent, with its fee.
        for (i, o) in self.orders.hq.iter().enumerate() {
            if let HqOrder::SendGold { amount, .. } = o {
                let cost = *amount + amount.percent(fee);
                let at = self.spans.hq(i).at;
                self.pay(
                    cost,
                    at,
                    &format!("SEND {amount} GOLD costs {cost} with the {fee}% fee (L2)"),
                );
            }
        }
        // L3: upkeep, leaders first, of what the kingdom will hold.
        let mut upkeep: Gold = self
            .st
            .units
            .iter()
            .filter(|u| &u.owner == self.me)
            .flat_map(|u| u.leaders.iter().map(|l| l.upkeep))
            .sum();
        for s in self.sim.values() {
            for (c, n) in s.troops.iter() {
                if let Some(t) = self.st.tables.troop(c) {
                    upkeep += t.upkeep * i64::from(*n);
                }
            }
        }
        if upkeep > self.gold {
            let gold = self.gold;
            self.err(
                Code::Gold,
                Span::new(1, 1, 1),
                "",
                format!(
                    "upkeep will be {upkeep} and the treasury {gold}: unpaid troops may be lost \
                     (L3)"
                ),
            );
            self.gold = Fixed::ZERO;
        } else {
            self.gold -= upkeep;
        }
        for &ui in known {
            self.recruit(ui);
        }
        for &ui in known {
            self.hire(ui);
        }
        // L6: annexations cost the province's revenue.
        for (i, o) in self.orders.hq.iter().enumerate() {
            if let HqOrder::Annex { province } = o {
                let owned = self
                    .st
                    .provinces
                    .get(province)
                    .is_some_and(|p| &p.owner == self.me && &p.annexed_to != self.me);
                if let (true, Some(l)) = (owned, self.map.get(*province)) {
                    let at = self.spans.hq(i).at;
                    let msg = format!("annexing {} costs {} (L6)", l.code, l.revenue);
                    self.pay(l.revenue, at, &msg);
                }
            }
        }
        for &ui in known {
            self.construction(ui);
        }
    }

    fn pay(&mut self, cost: Gold, at: Span, what: &str) {
        if cost > self.gold {
            let gold = self.gold;
            self.err(
                Code::Gold,
                at,
                "",
                format!("{what}, and the treasury will hold {gold} then: it will fail"),
            );
        } else {
            self.gold -= cost;
        }
    }

    fn recruit(&mut self, ui: usize) {
        let uo = &self.orders.units[ui];
        if uo.recruit.is_empty() {
            return;
        }
        let us = self.spans.unit(ui);
        let id = uo.unit;
        if id.kind != UnitKind::Garrison {
            let at = us.recruit(0).at;
            return self.wrong_kind(id, at, "RECRUIT", "only garrisons recruit troops (L4)");
        }
        let loc = self.sim[&id].loc;
        let Some(city) = self.map.get(loc).and_then(|l| l.city.as_ref()) else {
            let at = us.recruit(0).at;
            self.err(
                Code::CannotBuild,
                at,
                "RECRUIT",
                format!(
                    "{} has no city, and troops are recruited only in a city (L4)",
                    self.place(loc)
                ),
            );
            return;
        };
        let harbour = self.st.provinces.get(&loc).is_some_and(|p| p.harbour);
        let mut total = 0u32;
        for (i, tc) in uo.recruit.iter().enumerate() {
            let s = us.recruit(i);
            if !self.troop_known(&tc.code, s.arg(1)) {
                continue;
            }
            if !city.builds.contains(&tc.code) {
                let list: Vec<&str> = city.builds.iter().map(|c| c.0.as_str()).collect();
                let options = crate::suggest::closest(tc.code.0.as_str(), list.iter().copied());
                let d = self.err(
                    Code::CannotBuild,
                    s.arg(1),
                    tc.code.0.as_str(),
                    format!("{} does not build {} (L4)", city.name, tc.code),
                );
                d.expected = Some(if list.is_empty() {
                    "nothing: this city builds no troops".into()
                } else {
                    format!("one of {}", list.join(", "))
                });
                d.hint = crate::suggest::did_you_mean(&options);
                continue;
            }
            let tt = self.st.tables.troop(&tc.code).expect("checked").clone();
            if tt.is_ship() && !harbour {
                self.err(
                    Code::CannotBuild,
                    s.arg(1),
                    tc.code.0.as_str(),
                    format!(
                        "{} are ships, and {} has no harbour to build them in (L4)",
                        tc.code,
                        self.code(loc)
                    ),
                )
                .hint = Some("BUILD HARBOUR first; it is ready next turn".into());
                continue;
            }
            total += tc.count;
            if total > city.max_builds {
                let max = city.max_builds;
                self.err(
                    Code::CannotBuild,
                    s.at,
                    &format!("{} {}", tc.count, tc.code),
                    format!(
                        "{} builds at most {max} troops a turn, and this sheet asks for {total} \
                         there (L4)",
                        city.name
                    ),
                );
                continue;
            }
            let cost = tt.cost * i64::from(tc.count);
            if cost > self.gold {
                let can = if tt.cost > Fixed::ZERO {
                    (self.gold.0 / tt.cost.0).max(0)
                } else {
                    i64::from(tc.count)
                };
                let gold = self.gold;
                self.err(
                    Code::Gold,
                    s.at,
                    &format!("{} {}", tc.count, tc.code),
                    format!(
                        "{} {} cost {cost}, and the treasury will hold {gold} then: {} (L4)",
                        tc.count,
                        tc.code,
                        match can {
                            0 => "none will be built".to_string(),
                            n => format!("only {n} will be built"),
                        }
                    ),
                );
                self.gold -= tt.cost * can;
            } else {
                self.gold -= cost;
            }
        }
    }

    fn hire(&mut self, ui: usize) {
        let uo = &self.orders.units[ui];
        if !uo.hire_leader {
            return;
        }
        let us = self.spans.unit(ui);
        let s = us.one(&us.hire_leader);
        let id = uo.unit;
        if id.kind != UnitKind::Garrison {
            return self.wrong_kind(id, s.at, "HIRE", "only garrisons hire leaders (L5)");
        }
        if self.st.kingdoms[self.me].status != Status::Royalty {
            self.err(
                Code::Limit,
                s.at,
                "HIRE",
                "no leader will join a Commoner's cause: only Royalty hire leaders (2.10, L5)"
                    .into(),
            );
            return;
        }
        let cost = Fixed::whole(self.st.settings.leader_cost);
        self.pay(cost, s.at, &format!("a leader costs {cost} (L5, G27)"));
    }

    fn construction(&mut self, ui: usize) {
        let uo = &self.orders.units[ui];
        let us = self.spans.unit(ui);
        let id = uo.unit;
        let orders: Vec<(&str, OrderSpan, Option<Structure>)> = [
            ("BUILD", us.build.clone(), uo.build),
            (
                "REPAIR",
                us.repair.clone(),
                uo.repair.then_some(Structure::Fortification),
            ),
            ("RAZE", us.raze.clone(), uo.raze),
        ]
        .into_iter()
        .filter_map(|(w, s, o)| o.map(|o| (w, s.unwrap_or(OrderSpan::new(us.header)), Some(o))))
        .collect();
        for (word, s, what) in orders {
            let Some(what) = what else { continue };
            if id.kind == UnitKind::Fleet {
                self.wrong_kind(
                    id,
                    s.at,
                    word,
                    "fleets neither build nor raze; armies and garrisons do (L8, L10)",
                );
                continue;
            }
            let loc = self.sim[&id].loc;
            let step = if word == "RAZE" { "L10" } else { "L8" };
            if self.is_sea(loc) {
                self.err(
                    Code::WrongPlace,
                    s.at,
                    word,
                    format!("{id} will be at sea, aboard a fleet: it can {} only in a province ({step})", word.to_lowercase()),
                );
                continue;
            }
            if self.owner_of(loc).as_ref() != Some(self.me) {
                self.err(
                    Code::StepFails,
                    s.at,
                    word,
                    format!(
                        "by the plan, {id} will end the turn in {}, which you will not own: it \
                         can {} only in a province of yours ({step})",
                        self.place(loc),
                        word.to_lowercase()
                    ),
                );
                continue;
            }
            let p = self.st.provinces.get(&loc).cloned();
            let level = p.as_ref().map_or(0, |p| p.fort_level);
            let l = self.map.get(loc).expect("on the map");
            match (word, what) {
                ("BUILD", Structure::Fortification) => {
                    let Some(next) = self.st.tables.fort(level + 1).cloned() else {
                        self.err(
                            Code::Structure,
                            s.at,
                            word,
                            format!(
                                "the fortification of {} is at level {level}, the highest there is",
                                l.code
                            ),
                        );
                        continue;
                    };
                    let workers = self.sim[&id]
                        .troops
                        .iter()
                        .filter(|(c, _)| self.st.tables.troop(c).is_some_and(|t| t.is_soldier()))
                        .map(|(_, n)| *n)
                        .sum::<u32>();
                    if workers < next.workers {
                        self.err(
                            Code::Weak,
                            s.at,
                            word,
                            format!(
                                "level {} ({}) needs {} soldiers as workers, and {id} will have \
                                 {workers} (L8)",
                                next.level, next.name, next.workers
                            ),
                        );
                    }
                    self.spend_action(id, s.at, "building");
                    self.pay(
                        next.gold,
                        s.at,
                        &format!("level {} costs {} (L8)", next.level, next.gold),
                    );
                }
                ("BUILD", Structure::Harbour) => {
                    let problem = if p.as_ref().is_some_and(|p| p.harbour) {
                        Some(format!("{} has a harbour already", l.code))
                    } else if l.city.is_none() {
                        Some(format!(
                            "{} has no city, and a harbour needs one (2.6)",
                            l.code
                        ))
                    } else if !self.map.has_open_coast(loc) {
                        Some(format!(
                            "{} has no coast free of reefs, and a harbour needs one (2.6)",
                            l.code
                        ))
                    } else {
                        None
                    };
                    if let Some(m) = problem {
                        self.err(Code::Structure, s.at, word, m);
                        continue;
                    }
                    self.spend_action(id, s.at, "building");
                    let cost = Fixed::whole(self.st.settings.harbour_cost);
                    self.pay(cost, s.at, &format!("a harbour costs {cost} (L8)"));
                }
                ("REPAIR", _) => {
                    let damage = p.as_ref().map_or(0, |p| p.fort_damage);
                    if level == 0 || damage == 0 {
                        self.err(
                            Code::NoEffect,
                            s.at,
                            word,
                            format!("the fortification of {} has no damage to repair", l.code),
                        );
                        continue;
                    }
                    self.spend_action(id, s.at, "repairing");
                }
                (_, Structure::Fortification) => {
                    if level == 0 {
                        self.err(
                            Code::Structure,
                            s.at,
                            word,
                            format!("{} has no fortification to raze", l.code),
                        );
                        continue;
                    }
                    self.spend_action(id, s.at, "razing");
                }
                (_, Structure::Harbour) => {
                    if !p.as_ref().is_some_and(|p| p.harbour) {
                        self.err(
                            Code::Structure,
                            s.at,
                            word,
                            format!("{} has no harbour to raze", l.code),
                        );
                        continue;
                    }
                    self.spend_action(id, s.at, "razing");
                }
            }
        }
    }
}
