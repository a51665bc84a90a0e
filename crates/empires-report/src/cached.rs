//! A part shared by every report of a turn (the roundup, the actions report, the messages),
//! kept once and serialised to JSON once however many reports carry it.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

/// A shared report part: cheap to clone, and its JSON is produced only once. A copy may be
/// marked [`Shared::omitted`]: it still reads as the part, but a report's JSON leaves it out
/// (the turn's `public.json` holds it once for every report, see [`crate::public`]).
pub struct Shared<T>(Arc<Inner<T>>, bool);

struct Inner<T> {
    value: T,
    json: OnceLock<Option<Box<RawValue>>>,
}

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared(
            Arc::new(Inner {
                value,
                json: OnceLock::new(),
            }),
            false,
        )
    }

    /// The same part, left out of the JSON of the report that holds it.
    pub fn omitted(&self) -> Self {
        Shared(Arc::clone(&self.0), true)
    }

    /// Whether the part is left out of its report's JSON.
    pub fn is_omitted(&self) -> bool {
        self.1
    }
}

impl<T: Default> Default for Shared<T> {
    fn default() -> Self {
        Shared::new(T::default())
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0), self.1)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0.value
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0.value == other.0.value
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.value.fmt(f)
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The JSON text is made the first time and reused; should that fail, serialise the
        // value directly so the error surfaces where it belongs.
        match self
            .0
            .json
            .get_or_init(|| serde_json::value::to_raw_value(&self.0.value).ok())
        {
            Some(raw) if s.is_human_readable() => raw.serialize(s),
            _ => self.0.value.serialize(s),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Shared::new)
    }
}

impl<T: JsonSchema> JsonSchema for Shared<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}
