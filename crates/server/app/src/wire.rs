//! How the typed answers keep the bytes the `json!` objects they replaced wrote. `serde_json`'s
//! map is sorted, so those objects wrote their keys in alphabetical order, at every depth: an
//! answer declares its fields in that order, and a field whose type is declared in another
//! order (a shared type also written elsewhere as it is) goes through [`sorted`].

use serde::{Serialize, Serializer};

/// Writes `v` with its keys sorted at every depth, as `json!` did: `#[serde(serialize_with =
/// "crate::wire::sorted")]`.
pub fn sorted<T: Serialize, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    serde_json::to_value(v)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}
