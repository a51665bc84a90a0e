//! Spies: SPY, SKIP, FIND, KILL, WAIT, SABOTAGE and WATCH (section 9).

use super::{Act, Done, Turn};
use crate::codes::EmpireCode;
use crate::event::What;
use crate::order::{Order, Verb};
use crate::state::Spy;

/// 9.2: the cost of recruiting a new spy.
const RECRUIT_COST: u32 = 2;

impl Turn<'_> {
    /// 9.2 SPY and SKIP: the spy moves to an adjacent land area (free) or across the sea
    /// (1 BP a sea area crossed). With no spy, one is recruited for 2 BPs in the "from" area,
    /// which must be owned or hold one of the empire's watchers.
    pub(super) fn spy_move(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let to = self.area_field(&o.to, "where to")?;
        let tc = self.map.code(to);
        if self.map.area(to).is_sea() {
            return Err(format!("{tc} is a sea area; spies work on land"));
        }
        let (start, recruit, mut note) = match &self.st.empires[e].spy {
            Some(s) => {
                let at = self.map.id(s.area).expect("validated state");
                // 9.2 note: the computer knows where the spy is; a different "from" is ignored.
                let note = match &o.from {
                    Some(f) if self.map.find(f) != Some(at) => {
                        format!(" (your spy was in {}, not {f})", s.area)
                    }
                    _ => String::new(),
                };
                (at, false, note)
            }
            None => {
                let f = self.area_field(&o.from, "where from").map_err(|_| {
                    "you have no spy: give the area to recruit one in as \"where from\" (9.2)"
                        .to_string()
                })?;
                let fa = self.st.area(f);
                if fa.owner != Some(me) && fa.watcher != Some(me) {
                    return Err(format!(
                        "a new spy is recruited only where you own the area or have a watcher, not in {}",
                        self.map.code(f)
                    ));
                }
                (f, true, String::new())
            }
        };
        let crossing = if start == to || self.map.adjacent(start, to) {
            if o.verb == Verb::Skip && start != to {
                note.push_str(" (the areas are adjacent, so it went by land at no cost)");
            }
            0
        } else if o.verb == Verb::Spy {
            return Err(format!(
                "{tc} is not next to {}; use SKIP to go by sea (9.2)",
                self.map.code(start)
            ));
        } else {
            self.map.sea_crossing(start, to).ok_or_else(|| {
                format!(
                    "{tc} cannot be reached by sea from {}",
                    self.map.code(start)
                )
            })?
        };
        let cost = crossing + if recruit { RECRUIT_COST } else { 0 };
        self.pay(e, cost)?;
        self.st.empires[e].spy = Some(Spy {
            area: tc,
            waiting_for: None,
        });
        let mut done = Done::new(format!(
            "{} spy {} {tc}{note}",
            if recruit { "a new" } else { "your" },
            if start == to {
                "is now in".to_string()
            } else {
                format!("moved from {} to", self.map.code(start))
            }
        ))
        .seeing(&[start, to]);
        // 9.5: a spy lying in wait for this one kills it on arrival.
        let waiting = self.st.empires.iter().find(|x| {
            x.code != me
                && x.spy
                    .as_ref()
                    .is_some_and(|s| s.area == tc && s.waiting_for == Some(me))
        });
        if let Some(killer) = waiting.map(|x| x.code) {
            self.st.empires[e].spy = None;
            self.push(
                vec![me, killer],
                What::SpyKilled {
                    victim: me,
                    by: killer,
                    area: tc,
                    how: "caught by a spy lying in wait".into(),
                },
            );
            done.text.push_str(&format!(
                ", where a spy of {killer} lay in wait and killed it"
            ));
            done = done.affecting(Some(killer)).telling(format!(
                "the spy of {me} came into {tc}, where your spy lay in wait, and was killed (9.5)"
            ));
        }
        Ok(done)
    }

    /// 9.3 FIND: where a named empire's spy is, or whose spies are in a named area, at the
    /// moment of the action.
    pub(super) fn find(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        match (&o.from, &o.to) {
            (Some(_), None) => {
                let a = self.area_field(&o.from, "where")?;
                let code = self.map.code(a);
                let found: Vec<EmpireCode> = self
                    .st
                    .empires
                    .iter()
                    .filter(|x| x.code != me && x.spy.as_ref().is_some_and(|s| s.area == code))
                    .map(|x| x.code)
                    .collect();
                for &f in &found {
                    self.push(
                        vec![me],
                        What::SpyFound {
                            finder: me,
                            spy_of: f,
                            area: code,
                        },
                    );
                }
                let text = if found.is_empty() {
                    format!("no other spy found in {code}")
                } else {
                    let names: Vec<&str> = found.iter().map(|c| c.as_str()).collect();
                    format!("found spies of {} in {code}", names.join(", "))
                };
                Ok(Done::new(text).seeing(&[a]))
            }
            (None, Some(_)) => {
                let t = self.empire_field(&o.to, "whose spy")?;
                let whose = self.code(t);
                match self.st.empires[t].spy.clone() {
                    Some(s) => {
                        self.push(
                            vec![me],
                            What::SpyFound {
                                finder: me,
                                spy_of: whose,
                                area: s.area,
                            },
                        );
                        Ok(Done::new(format!("the spy of {whose} is in {}", s.area)))
                    }
                    None => Ok(Done::new(format!("{whose} has no spy at present"))),
                }
            }
            (None, None) => Err("FIND needs either an area or an empire (9.3)".into()),
            (Some(_), Some(_)) => Err("FIND takes an area or an empire, not both (9.3)".into()),
        }
    }

    /// 9.4 KILL: remove a named empire's spy from an area the killer owns.
    pub(super) fn kill(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let a = self.own_land(e, &o.from, "where")?;
        let t = self.empire_field(&o.to, "whose spy")?;
        let (code, whose) = (self.map.code(a), self.code(t));
        if self.st.empires[t]
            .spy
            .as_ref()
            .is_none_or(|s| s.area != code)
        {
            return Err(format!("there is no spy of {whose} in {code}"));
        }
        self.st.empires[t].spy = None;
        self.push(
            vec![me, whose],
            What::SpyKilled {
                victim: whose,
                by: me,
                area: code,
                how: "killed by order of the area's owner".into(),
            },
        );
        Ok(Done::new(format!("killed the spy of {whose} in {code}")).affecting(Some(whose)))
    }

    /// 9.5 WAIT: the spy lies in wait, in an area its empire owns, for another's spy.
    pub(super) fn wait(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let t = self.empire_field(&o.to, "whose spy")?;
        let whose = self.code(t);
        if whose == me {
            return Err("a spy cannot wait for itself".into());
        }
        let spy = self.st.empires[e].spy.clone().ok_or("you have no spy")?;
        let at = self.map.id(spy.area).expect("validated state");
        if self.st.area(at).owner != Some(me) {
            return Err(format!(
                "your spy is in {}, which you do not own; it can wait only in your own areas (9.5)",
                spy.area
            ));
        }
        if let Some(s) = self.st.empires[e].spy.as_mut() {
            s.waiting_for = Some(whose);
        }
        Ok(Done::new(format!(
            "your spy lies in wait for the spy of {whose} in {}",
            spy.area
        )))
    }

    /// 9.6 SABOTAGE: one army in the spy's area is destroyed, and the spy is caught.
    /// 9.1 and 9.6 both say, without condition, that sabotage costs 1 BP and the spy
    /// (decision 30): in an area with no armies the spy is still caught and nothing else
    /// happens. Only sabotage of one's own area fails without cost, as an order that makes
    /// no sense; with no BP to pay, it fails like any action that cannot be paid for.
    pub(super) fn sabotage(&mut self, e: usize) -> Act {
        let me = self.code(e);
        let spy = self.st.empires[e].spy.clone().ok_or("you have no spy")?;
        let at = self.map.id(spy.area).expect("validated state");
        let owner = self.st.area(at).owner;
        if owner == Some(me) {
            return Err(format!("{} is your own area", spy.area));
        }
        self.pay(e, 1)?;
        self.st.empires[e].spy = None;
        let (text, told) = if self.st.area(at).armies == 0 {
            (
                format!(
                    "there were no armies in {} to sabotage; your spy was caught all the same (9.6)",
                    spy.area
                ),
                format!(
                    "a spy of {me} was caught in {} before it could do any harm, and eliminated (9.6)",
                    spy.area
                ),
            )
        } else {
            self.st.area_mut(at).armies -= 1;
            (
                format!(
                    "sabotage destroyed 1 army in {}; your spy was caught",
                    spy.area
                ),
                format!(
                    "a spy of {me} destroyed 1 of your armies in {} and was caught and eliminated (9.6)",
                    spy.area
                ),
            )
        };
        Ok(Done::new(text).affecting(owner).telling(told).seeing(&[at]))
    }

    /// 9.7 WATCH: the spy goes underground as a watcher in its area, eliminating any other
    /// empire's watcher there.
    pub(super) fn watch(&mut self, e: usize) -> Act {
        let me = self.code(e);
        let spy = self.st.empires[e].spy.clone().ok_or("you have no spy")?;
        let at = self.map.id(spy.area).expect("validated state");
        let mut done =
            Done::new(format!("your spy became a watcher in {}", spy.area)).seeing(&[at]);
        if let Some(other) = self.st.area(at).watcher.filter(|w| *w != me) {
            self.push(
                vec![me, other],
                What::WatcherEliminated {
                    victim: other,
                    by: me,
                    area: spy.area,
                },
            );
            done.text
                .push_str(&format!("; the watcher of {other} there was eliminated"));
            done = done.affecting(Some(other));
        }
        self.st.area_mut(at).watcher = Some(me);
        self.st.empires[e].spy = None;
        Ok(done)
    }
}
