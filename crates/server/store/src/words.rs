//! Status columns as enums: [`status_enum!`] makes one from its words, so a row's `status`
//! is read once in the store ([`std::str::FromStr`], exactly the words the SQL writes and
//! compares) and carried up typed; `as_str`, `Display` and serde write the same words, so the
//! API's bytes are the column's.

/// An enum of a status column's words: `as_str`, `Display`, `FromStr` (exact) and serde, all
/// with the same lowercase words, and an error type naming the word it could not read.
macro_rules! status_enum {
    (
        $(#[$doc:meta])*
        $name:ident, $err:ident, $what:literal {
            $($(#[$vdoc:meta])* $variant:ident = $word:literal,)+
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $word)] $variant,)+
        }

        impl $name {
            /// The column's word, which the API sends too.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        #[doc = concat!("A ", $what, " no version wrote.")]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $err(pub String);

        impl std::fmt::Display for $err {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let known = [$($word),+].join(", ");
                write!(f, "unknown {} {:?}; known: {known}", $what, self.0)
            }
        }

        impl std::error::Error for $err {}

        impl std::str::FromStr for $name {
            type Err = $err;

            /// Reads `as_str`'s words, exactly.
            fn from_str(s: &str) -> Result<$name, $err> {
                match s {
                    $($word => Ok($name::$variant),)+
                    _ => Err($err(s.to_string())),
                }
            }
        }
    };
}
