//! What each action expects in its three boxes: table 13.4 with the number formats of 6.3
//! and the notes of each rule (3.9, 5.3, 5.11, 5.19, 6.2), and the European actions of
//! seed 003.

use empires_rules::order::Verb;

/// What a place box may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Land,
    Sea,
    /// A land or a sea area.
    Any,
}

/// What a box expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Unused,
    Area { place: Place, required: bool },
    Empire { required: bool },
}

/// What the number box accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Number {
    /// Nothing: the box is left blank.
    Unused,
    /// A definite number only (6.3 note).
    Definite,
    /// A definite number, or blank for all that can be paid for (5.3, 5.11, 5.19).
    DefiniteOrAll,
    /// A number, blank for all, or ALL BUT (6.3, 7.2, S.11, S.13).
    Any,
    /// ORDER: a number, or blank only as the last action (6.2).
    Order,
}

/// The shape of one action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    pub from: Field,
    pub to: Field,
    pub number: Number,
    /// The rule that describes the action.
    pub rule: &'static str,
}

const fn area(place: Place) -> Field {
    Field::Area {
        place,
        required: true,
    }
}

const fn maybe_area(place: Place) -> Field {
    Field::Area {
        place,
        required: false,
    }
}

const NONE: Field = Field::Unused;
const EMPIRE: Field = Field::Empire { required: true };

/// Table 13.4.
pub fn spec(verb: Verb) -> Spec {
    use Number as N;
    use Place::{Any, Land, Sea};
    let s = |from, to, number, rule| Spec {
        from,
        to,
        number,
        rule,
    };
    match verb {
        Verb::Stash => s(NONE, NONE, N::Definite, "3.5"),
        Verb::Cash => s(NONE, NONE, N::Definite, "3.6"),
        Verb::Tax => s(NONE, NONE, N::Unused, "3.8"),
        Verb::Gift => s(NONE, EMPIRE, N::Definite, "3.9"),
        Verb::Levy => s(area(Land), NONE, N::Unused, "5.1"),
        Verb::Mobilise => s(NONE, NONE, N::Unused, "5.2"),
        Verb::Army => s(NONE, NONE, N::DefiniteOrAll, "5.3"),
        Verb::Disarm => s(NONE, NONE, N::Definite, "5.4"),
        Verb::Reserve => s(area(Land), NONE, N::Definite, "5.5"),
        Verb::Disband => s(area(Land), NONE, N::Unused, "5.6"),
        Verb::Fortify => s(area(Land), NONE, N::Definite, "5.7"),
        Verb::Raze => s(area(Land), NONE, N::Definite, "5.8"),
        Verb::Grow => s(area(Land), NONE, N::Unused, "5.9"),
        Verb::Build => s(area(Land), NONE, N::Definite, "5.10"),
        Verb::Navy => s(NONE, NONE, N::DefiniteOrAll, "5.11"),
        Verb::Layup => s(area(Land), NONE, N::Definite, "5.12"),
        Verb::Recover => s(area(Land), NONE, N::Definite, "5.13"),
        Verb::Fleet => s(area(Land), NONE, N::Definite, "5.14"),
        Verb::Scrap => s(area(Land), NONE, N::Definite, "5.15"),
        Verb::Base => s(area(Land), area(Sea), N::Unused, "5.16"),
        Verb::Close => s(area(Land), NONE, N::Unused, "5.17"),
        Verb::Disown => s(area(Land), NONE, N::Unused, "5.18"),
        Verb::Air => s(NONE, NONE, N::DefiniteOrAll, "5.19"),
        Verb::Order => s(NONE, NONE, N::Order, "6.2"),
        Verb::Seamove => s(area(Any), area(Any), N::Any, "7.2"),
        Verb::Convoy => s(area(Any), area(Any), N::Any, "7.2"),
        Verb::Move => s(area(Any), area(Any), N::Any, "7.3"),
        Verb::Attack => s(area(Any), area(Land), N::Any, "7.4"),
        Verb::Defend => s(area(Land), NONE, N::Unused, "7.7"),
        Verb::Entrench => s(area(Land), area(Any), N::Unused, "7.8"),
        Verb::Ambush => s(area(Land), area(Any), N::Unused, "7.9"),
        Verb::Retreat => s(area(Land), maybe_area(Land), N::Unused, "7.10"),
        Verb::Spy => s(maybe_area(Land), area(Land), N::Unused, "9.2"),
        Verb::Skip => s(maybe_area(Land), area(Land), N::Unused, "9.2"),
        // FIND takes an area or an empire, exactly one of them (checked separately).
        Verb::Find => s(
            maybe_area(Any),
            Field::Empire { required: false },
            N::Unused,
            "9.3",
        ),
        Verb::Kill => s(area(Land), EMPIRE, N::Unused, "9.4"),
        Verb::Wait => s(NONE, EMPIRE, N::Unused, "9.5"),
        Verb::Sabotage => s(NONE, NONE, N::Unused, "9.6"),
        Verb::Watch => s(NONE, NONE, N::Unused, "9.7"),
        Verb::Capital => s(area(Land), NONE, N::Unused, "S.3"),
        Verb::Gather => s(area(Land), NONE, N::Any, "S.11"),
        Verb::Wagons => s(area(Land), area(Land), N::Any, "S.13.1"),
        Verb::Send => s(area(Land), area(Land), N::Any, "S.13.2"),
        Verb::Unload => s(area(Sea), area(Land), N::Any, "S.13.3"),
    }
}

/// The turnsheet line an action is written as, for messages: `MOVE WHERE-FROM WHERE-TO N`.
pub fn shape(verb: Verb) -> String {
    let sp = spec(verb);
    let field = |f: Field, from: bool| match f {
        Field::Unused => "-".to_string(),
        Field::Area { required, .. } => {
            let name = if from { "WHERE" } else { "WHERE-TO" };
            if required {
                name.to_string()
            } else {
                format!("[{name}]")
            }
        }
        Field::Empire { required } => {
            if required {
                "EMPIRE".to_string()
            } else {
                "[EMPIRE]".to_string()
            }
        }
    };
    let number = match sp.number {
        Number::Unused => "-",
        Number::Definite => "N",
        Number::DefiniteOrAll => "[N]",
        Number::Any => "[N | AB-N]",
        Number::Order => "[N]",
    };
    format!(
        "{verb} {} {} {number}",
        field(sp.from, true),
        field(sp.to, false)
    )
}

/// Whether the action exists in a game of this variant (1.7, seed 003).
pub fn in_variant(verb: Verb, variant: empires_rules::Variant) -> Result<(), String> {
    match verb {
        Verb::Air if !variant.has_air() => Err(format!(
            "there are no air forces in {} Empires; AIR is an action of World and Australian Empires (1.7, decision 39)",
            variant.title()
        )),
        Verb::Capital | Verb::Gather | Verb::Wagons | Verb::Send | Verb::Unload
            if !variant.has_supply() =>
        {
            Err(format!(
                "{verb} is a European Empires supply action, not used in {} Empires",
                variant.title()
            ))
        }
        _ => Ok(()),
    }
}
