//! A battle report in words, in the manner of the rulebook's example (digest 4.8): where the
//! battle was, the units involved with their total combat and hit points, each round's
//! damage caused and suffered, the casualties of the even rounds, retreats, the end, the
//! wounded, captures and the winners.
//!
//! What a kingdom is told depends on whether it fought (G34). A kingdom that fought saw the
//! field: every unit's totals and what each kind of troop did, round by round. It is never
//! told another kingdom's unit names, its leaders' names or skills, or its retreat levels:
//! those units appear by kingdom and number ("Prussia Army #1"), their leaders as "a
//! leader". A kingdom that only watched from next door learns who fought, who won and how
//! long it took.

use napoleonic_rules::battle::report::{BattleKind, BattleReport, Losses, Skill, UnitReport, Who};
use napoleonic_rules::event::UnitRef;
use napoleonic_rules::map::Map;
use napoleonic_rules::state::GameState;
use napoleonic_rules::{Fixed, KingdomCode, LocId, UnitKind};

/// The words of one battle for one kingdom.
pub(crate) struct Words<'a> {
    pub map: &'a Map,
    pub state: &'a GameState,
    pub me: &'a KingdomCode,
}

/// A chance in hundredths of a percent, in words: 7 500 is "75%", 3 630 "36.3%".
pub fn percent(hundredths: u32) -> String {
    let (int, frac) = (hundredths / 100, hundredths % 100);
    match frac {
        0 => format!("{int}%"),
        f if f % 10 == 0 => format!("{int}.{}%", f / 10),
        f => format!("{int}.{f:02}%"),
    }
}

impl Words<'_> {
    fn place(&self, id: LocId) -> String {
        self.map
            .get(id)
            .map_or_else(|| id.to_string(), |l| format!("{} {}", l.id, l.name))
    }

    fn kingdom(&self, k: &KingdomCode) -> String {
        if k.is_independent() {
            return "Independent".to_string();
        }
        self.state
            .kingdoms
            .get(k)
            .map_or_else(|| k.to_string(), |x| x.name.clone())
    }

    fn kingdoms(&self, list: &[KingdomCode]) -> String {
        let names: Vec<String> = list
            .iter()
            .map(|k| {
                if k == self.me {
                    "you".to_string()
                } else {
                    self.kingdom(k)
                }
            })
            .collect();
        match names.len() {
            0 => "nobody".to_string(),
            1 => names[0].clone(),
            n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
        }
    }

    /// "Patrol Force 2 (Our Army #2)" for one's own unit, "Prussia Army #1" for another's.
    fn unit(&self, r: &UnitRef, name: Option<&str>) -> String {
        let kind = match r.1.kind {
            UnitKind::Army => "Army",
            UnitKind::Fleet => "Fleet",
            UnitKind::Garrison => "Garrison",
        };
        if &r.0 == self.me {
            match name.filter(|n| !n.is_empty()) {
                Some(n) => format!("{n} (Our {kind} #{})", r.1.number),
                None => format!("Our {kind} #{}", r.1.number),
            }
        } else {
            format!("{} {kind} #{}", self.kingdom(&r.0), r.1.number)
        }
    }

    fn named(&self, rep: &BattleReport, r: &UnitRef) -> String {
        self.unit(r, rep.unit(r).map(|u| u.name.as_str()))
    }

    fn troop(&self, code: &napoleonic_rules::TroopCode) -> String {
        self.state
            .tables
            .troop(code)
            .map_or_else(|| code.to_string(), |t| t.name.clone())
    }

    /// A kind of fighter: a troop type by name, one's own leader by name, another
    /// kingdom's leader unnamed.
    fn who(&self, owner: &KingdomCode, w: &Who, count: u32) -> String {
        match w {
            Who::Troop(code) => format!("{count} {}", self.troop(code)),
            Who::Leader(name) if owner == self.me => name.clone(),
            Who::Leader(_) if count == 1 => "a leader".to_string(),
            Who::Leader(_) => format!("{count} leaders"),
        }
    }

    fn modifiers(&self, rep: &BattleReport, u: &UnitReport) -> String {
        let mut m: Vec<String> = Vec::new();
        if u.defends {
            m.push("defending the fortifications (with the fortification modifier)".into());
        }
        if u.amphibious {
            m.push("landed from the sea (with the amphibious modifier)".into());
        }
        match &u.aboard {
            Some(f) if u.on_enemy_deck => m.push(format!(
                "fighting the crew aboard {} (with the marine modifier)",
                self.named(rep, f)
            )),
            Some(f) if u.below_decks => m.push(format!(
                "below decks aboard {}: transports carry no marines, so they neither fight \
                 nor are hit",
                self.named(rep, f)
            )),
            Some(f) => m.push(format!(
                "fighting as marines from {} (with the marine modifier)",
                self.named(rep, f)
            )),
            None => {}
        }
        if &u.unit.0 == self.me
            && let Some(l) = &u.leader
        {
            m.push(format!("led by {l}"));
        }
        if m.is_empty() {
            "without any modifiers".to_string()
        } else {
            m.join(", ")
        }
    }

    fn losses(&self, rep: &BattleReport, l: &Losses, out: &mut Vec<String>) {
        let who = self.named(rep, &l.unit);
        if l.killed.is_empty() {
            out.push(format!(
                "{who} suffered {} damage, with no losses, {} more Damage remains",
                l.damage, l.remains
            ));
            return;
        }
        out.push(format!(
            "{who} suffered {} damage, with these losses:",
            l.damage
        ));
        let n = l.killed.len();
        for (i, x) in l.killed.iter().enumerate() {
            let mut line = format!(
                "{} (Hit Points: {}) are killed",
                self.who(&l.unit.0, &x.who, x.count),
                x.hp
            );
            if i + 1 == n {
                line.push_str(&format!(", {} more Damage remains", l.remains));
            }
            out.push(format!("   {line}"));
        }
    }

    fn heading(&self, rep: &BattleReport) -> String {
        let across = rep.across.map(|x| self.place(x)).unwrap_or_default();
        match rep.kind {
            BattleKind::Land => format!("A land battle occurred at: {}", self.place(rep.at)),
            // A fight aboard a fleet in port (treachery, 4.6) is a sea battle in a harbour.
            BattleKind::Sea if self.map.get(rep.at).is_some_and(|l| !l.is_sea()) => format!(
                "A battle aboard ship occurred in the harbour of: {}",
                self.place(rep.at)
            ),
            BattleKind::Sea => format!("A sea battle occurred at: {}", self.place(rep.at)),
            BattleKind::Border => format!(
                "A battle occurred across the border of {} and {across}",
                self.place(rep.at)
            ),
            BattleKind::SeaBorder => format!(
                "A sea battle occurred across the border of {} and {across}",
                self.place(rep.at)
            ),
        }
    }

    fn outcome(&self, rep: &BattleReport) -> String {
        let rounds = rep.rounds.len();
        let s = if rounds == 1 { "" } else { "s" };
        if rep.stopped {
            format!("The battle was broken off undecided after {rounds} round{s}.")
        } else if rep.winners.is_empty() {
            format!("Nobody was left standing after {rounds} round{s}.")
        } else {
            let who = self.kingdoms(&rep.winning_kingdoms());
            format!("{} won after {rounds} round{s}.", capital(&who))
        }
    }

    /// What a neighbour learns: the place, who fought, who won, how long.
    pub fn summary(&self, rep: &BattleReport) -> Vec<String> {
        // The three lines are read as one paragraph: each ends its sentence.
        vec![
            format!("{}.", self.heading(rep)),
            format!("Between {}.", self.kingdoms(&rep.kingdoms())),
            self.outcome(rep),
        ]
    }

    /// The whole report, for a kingdom that fought.
    pub fn full(&self, rep: &BattleReport) -> Vec<String> {
        let mut out = vec![self.heading(rep)];
        if let Some(f) = &rep.fortification {
            let state = if f.defended {
                "defended"
            } else if f.damage_after >= f.level {
                "ruined, not defended"
            } else {
                "not defended"
            };
            out.push(format!(
                "The fortification: {} (level {}), damage {} before the siege and {} after: {state}",
                if f.name.is_empty() { "fortification" } else { &f.name },
                f.level,
                f.damage_before,
                f.damage_after
            ));
        }
        for s in &rep.siege {
            out.push(format!(
                "Siege: 1 {} of {} rolled at {}: {}",
                self.troop(&s.troop),
                self.named(rep, &s.unit),
                percent(s.chance),
                if s.success {
                    "the fortification was damaged"
                } else {
                    "no damage"
                }
            ));
        }
        out.push("The following units were involved:".to_string());
        for u in &rep.units {
            let mine = &u.unit.0 == self.me;
            let mut line = format!(
                "{}, {} (Total Combat: {}, Total Hit Points: {})",
                self.unit(&u.unit, Some(&u.name)),
                self.modifiers(rep, u),
                u.total_combat,
                u.total_hp
            );
            if mine {
                let list: Vec<String> = u
                    .fighters
                    .iter()
                    .map(|c| self.who(&u.unit.0, &c.who, c.count))
                    .collect();
                line.push_str(&format!(": {}", list.join(", ")));
            }
            out.push(line);
        }
        for r in &rep.rounds {
            out.push(format!("The events for Round #{}:", r.number));
            let mut last: Option<&UnitRef> = None;
            for c in &r.caused {
                if last != Some(&c.unit) {
                    let who = self.named(rep, &c.unit);
                    out.push(match rep.unit(&c.unit) {
                        Some(u) if u.unit.0 == *self.me => {
                            format!("{who} (Retreat Level {}):", u.retreat_level)
                        }
                        _ => format!("{who}:"),
                    });
                    last = Some(&c.unit);
                }
                out.push(format!(
                    "   {} Caused {} Damage",
                    self.who(&c.unit.0, &c.who, c.count),
                    c.damage
                ));
            }
            out.push(format!(
                "Unit Status for the End of this Round: #{}:",
                r.number
            ));
            for s in &r.status {
                out.push(format!(
                    "{} suffered {} damage (Total Hit Points: {}, Total Damage Taken: {})",
                    self.named(rep, &s.unit),
                    s.suffered,
                    s.total_hp,
                    s.taken
                ));
            }
            match &r.casualties {
                None => out.push("Casualties: None (this is not a casualty round)".to_string()),
                Some(list) => {
                    out.push(format!("Casualties for Round #{}:", r.number));
                    for l in list.iter().filter(|l| l.damage > Fixed::ZERO) {
                        self.losses(rep, l, &mut out);
                    }
                }
            }
            for t in &r.retreats {
                out.push(format!(
                    "{} retreated to {}",
                    self.named(rep, &t.unit),
                    self.place(t.to)
                ));
                if t.losses.damage > Fixed::ZERO {
                    self.losses(rep, &t.losses, &mut out);
                }
            }
        }
        out.push(if rep.stopped {
            "The battle was broken off: neither side could prevail.".to_string()
        } else {
            "The battle has ended.".to_string()
        });
        if rep.final_losses.iter().any(|l| l.damage > Fixed::ZERO) {
            out.push("The damage still carried became casualties:".to_string());
            for l in rep.final_losses.iter().filter(|l| l.damage > Fixed::ZERO) {
                self.losses(rep, l, &mut out);
            }
        }
        for w in &rep.aftermath {
            out.push(format!(
                "Wounded: {} of {} ({} damage of {} hit points, a {} chance of destruction) {}",
                self.who(&w.unit.0, &w.who, 1),
                self.named(rep, &w.unit),
                w.damage,
                w.hp,
                percent(w.chance),
                if w.destroyed {
                    "was destroyed"
                } else {
                    "survived"
                }
            ));
        }
        for c in &rep.captured {
            out.push(format!(
                "{} captured 1 {} from {}",
                self.named(rep, &c.to),
                self.troop(&c.troop),
                self.named(rep, &c.from)
            ));
        }
        for i in rep.improved.iter().filter(|i| &i.unit.0 == self.me) {
            let skill = match i.skill {
                Skill::Infantry => "infantry tactics",
                Skill::Cavalry => "cavalry tactics",
                Skill::Siege => "siegecraft",
                Skill::Naval => "naval tactics",
            };
            out.push(format!("{}'s {skill} rose to {}", i.leader, i.to));
        }
        out.push(self.outcome(rep));
        out
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
