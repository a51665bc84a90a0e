//! Actions as the engine receives them: a verb, up to two place or empire fields, and a
//! number (2.6, 6.3, 13.4). Turning text into these is the order language's job; codes in the
//! fields are resolved by the engine when the action's turn comes, so an unknown code fails
//! that action alone.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! verbs {
    ($($v:ident => $s:literal),* $(,)?) => {
        /// Every action of table 13.4, plus the European supply actions of seed 003.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "UPPERCASE")]
        pub enum Verb { $($v),* }

        impl Verb {
            pub const ALL: &'static [Verb] = &[$(Verb::$v),*];

            pub fn name(self) -> &'static str {
                match self { $(Verb::$v => $s),* }
            }

            /// Parses a verb in any case; `MOBILIZE` is accepted for `MOBILISE`.
            pub fn parse(text: &str) -> Option<Verb> {
                // Every verb is ASCII and at most 8 letters: upper-case it on the stack and
                // compare it as one number, as every line of every turnsheet comes through here.
                // Words read from a line have nothing to trim.
                let text = match text.as_bytes() {
                    [a, .., z] if a.is_ascii_graphic() && z.is_ascii_graphic() => text,
                    _ => text.trim(),
                }
                .as_bytes();
                let mut up = [0u8; 8];
                up.get_mut(..text.len())?.copy_from_slice(text);
                up.make_ascii_uppercase();
                let verb = match u64::from_le_bytes(up) {
                    $(verb_keys::$v => Verb::$v,)*
                    verb_keys::MOBILIZE => Verb::Mobilise,
                    _ => return None,
                };
                // The unused bytes are zero, so a word ending in NUL characters would
                // otherwise read as the verb it starts with.
                (verb.name().len() == text.len()).then_some(verb)
            }

            /// A verb's name as one number: its bytes, padded with zeros to eight.
            const fn key(name: &str) -> u64 {
                let name = name.as_bytes();
                let mut bytes = [0u8; 8];
                let mut i = 0;
                while i < name.len() {
                    bytes[i] = name[i];
                    i += 1;
                }
                u64::from_le_bytes(bytes)
            }
        }

        /// Every verb's name as [`Verb::key`] makes it, for [`Verb::parse`] to match on.
        #[allow(non_upper_case_globals)]
        mod verb_keys {
            $(pub const $v: u64 = super::Verb::key($s);)*
            pub const MOBILIZE: u64 = super::Verb::key("MOBILIZE");
        }
    };
}

verbs! {
    Stash => "STASH", Cash => "CASH", Tax => "TAX", Gift => "GIFT",
    Levy => "LEVY", Mobilise => "MOBILISE", Army => "ARMY", Disarm => "DISARM",
    Reserve => "RESERVE", Disband => "DISBAND", Fortify => "FORTIFY", Raze => "RAZE",
    Grow => "GROW", Build => "BUILD", Navy => "NAVY", Layup => "LAYUP",
    Recover => "RECOVER", Fleet => "FLEET", Scrap => "SCRAP", Base => "BASE",
    Close => "CLOSE", Disown => "DISOWN", Air => "AIR", Order => "ORDER",
    Seamove => "SEAMOVE", Convoy => "CONVOY", Move => "MOVE", Attack => "ATTACK",
    Defend => "DEFEND", Entrench => "ENTRENCH", Ambush => "AMBUSH", Retreat => "RETREAT",
    Spy => "SPY", Skip => "SKIP", Find => "FIND", Kill => "KILL", Wait => "WAIT",
    Sabotage => "SABOTAGE", Watch => "WATCH",
    Capital => "CAPITAL", Gather => "GATHER", Wagons => "WAGONS", Send => "SEND",
    Unload => "UNLOAD",
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The number box (6.3): blank means all, `AB-n` means all but n.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    #[default]
    All,
    AllBut(u32),
    Exactly(u32),
}

impl Quantity {
    /// Resolves against what is available: `None` when nothing would be left to act with.
    pub fn of(self, available: u32) -> u32 {
        match self {
            Quantity::All => available,
            Quantity::AllBut(n) => available.saturating_sub(n),
            Quantity::Exactly(n) => n,
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quantity::All => f.write_str("-"),
            Quantity::AllBut(n) => {
                f.write_str("AB-")?;
                f.write_str(itoa::Buffer::new().format(*n))
            }
            Quantity::Exactly(n) => f.write_str(itoa::Buffer::new().format(*n)),
        }
    }
}

/// One action as written on a turnsheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    pub verb: Verb,
    /// The "where" or "where from" box.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The "where to", "to whom" or "whose" box.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(default)]
    pub number: Quantity,
}

impl Order {
    pub fn new(verb: Verb) -> Order {
        Order {
            verb,
            from: None,
            to: None,
            number: Quantity::All,
        }
    }

    pub fn from(mut self, f: &str) -> Order {
        self.from = Some(f.to_string());
        self
    }

    pub fn to(mut self, t: &str) -> Order {
        self.to = Some(t.to_string());
        self
    }

    pub fn n(mut self, n: u32) -> Order {
        self.number = Quantity::Exactly(n);
        self
    }

    pub fn all_but(mut self, n: u32) -> Order {
        self.number = Quantity::AllBut(n);
        self
    }
}

impl Order {
    /// The canonical turnsheet line: `VERB FROM TO NUMBER`, blanks written as `-`. Every
    /// action of every turn is written out for the reports, so it is built piece by piece
    /// rather than through a format string.
    pub fn line(&self) -> String {
        fn blank(o: &Option<String>) -> &str {
            o.as_deref().unwrap_or("-")
        }
        let mut line = String::with_capacity(24);
        for part in [self.verb.name(), blank(&self.from), blank(&self.to)] {
            line.push_str(part);
            line.push(' ');
        }
        match self.number {
            Quantity::All => line.push('-'),
            Quantity::AllBut(n) => {
                line.push_str("AB-");
                line.push_str(itoa::Buffer::new().format(n));
            }
            Quantity::Exactly(n) => line.push_str(itoa::Buffer::new().format(n)),
        }
        line
    }
}

impl fmt::Display for Order {
    /// The canonical turnsheet line, as [`Order::line`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

/// One line of a turnsheet: the action, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderLine {
    /// Line number in the file the orders came from.
    pub line: u32,
    pub text: String,
    pub order: Result<Order, String>,
    /// A numbered line left empty: an unused action that keeps its round (2.6).
    #[serde(default, skip_serializing_if = "is_false")]
    pub blank: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// An empire's orders for one turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turnsheet {
    pub actions: Vec<OrderLine>,
    /// Messages for every player (2.9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Written by the computer for a missing or absent player (2.5).
    #[serde(default)]
    pub computer: bool,
}

impl Turnsheet {
    /// A turnsheet of already-parsed orders, numbered from line 1.
    pub fn of(orders: Vec<Order>) -> Turnsheet {
        Turnsheet {
            actions: orders
                .into_iter()
                .enumerate()
                .map(|(i, o)| OrderLine {
                    line: i as u32 + 1,
                    text: o.to_string(),
                    order: Ok(o),
                    blank: false,
                })
                .collect(),
            ..Turnsheet::default()
        }
    }
}
