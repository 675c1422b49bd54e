//! `codes!`: an enum of error kinds, each with the stable code the protocol, the cases or
//! the messages use (`code()`; `Display` writes the code). The codes are the enum's
//! contract: a variant may be renamed, its code may not.
//!
//! `wraps!`: the `From` conversions of an error enum whose variants each wrap the error of
//! one stage (`FenError::Syntax(FenSyntaxError)`), so that `?` lifts a stage's error.
//!
//! `shapes!`: the shapes a document is read into (a clause's data, an event log, a
//! tournament file, a case file), with the contract of reading stated once.

/// Declares a `Copy` enum whose variants each have a code: `Variant => "code",`.
macro_rules! codes {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident => $code:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every kind, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable code of this kind.
            pub fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)*
                }
            }
        }

        impl From<$name> for String {
            fn from(k: $name) -> String {
                k.code().to_string()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.code())
            }
        }
    };
}

/// `impl From<Inner> for Enum` for each `Variant(Inner)` listed: `wraps!(Enum { Variant(Inner), })`.
macro_rules! wraps {
    ($name:ident { $($variant:ident($inner:ty),)* }) => {
        $(
            impl From<$inner> for $name {
                fn from(e: $inner) -> $name {
                    $name::$variant(e)
                }
            }
        )*
    };
}

/// Declares the shapes a document is read into: structs and enums that derive `Clone`,
/// `Debug` and `Deserialize`, and structs that refuse a key they do not name, so that a
/// misspelt key is an error at its line and column, never a field left at its default.
/// Other derives and serde attributes are written on the item as usual (an enum with
/// struct variants states `deny_unknown_fields` itself). A type read without it is a named
/// exception of `tests/it/shapes.rs`, with its reason (the answers are `wire!`'s; the
/// protocol's messages are read leniently; `vm::data::Regions` reads one key of any clause).
///
/// rustfmt does not format a macro's body: `scripts/fmt_macro_bodies.py` does (CI checks).
macro_rules! shapes {
    ($(
        $(#[$meta:meta])* $vis:vis $kind:ident $name:ident $(<$($t:ident),+>)? { $($body:tt)* }
    )*) => {
        $(shapes!(@$kind $(#[$meta])* $vis $kind $name $(<$($t),+>)? { $($body)* });)*
    };
    (@struct $($item:tt)*) => {
        #[derive(Clone, Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        $($item)*
    };
    (@enum $($item:tt)*) => {
        #[derive(Clone, Debug, serde::Deserialize)]
        $($item)*
    };
}

#[cfg(test)]
mod tests {
    shapes! {
        /// A shape with one field.
        pub(crate) struct Limit {
            pub(crate) rounds: u32,
        }

        /// A shape's vocabulary.
        #[serde(rename_all = "snake_case")]
        pub(crate) enum Claim {
            EitherSide,
        }
    }

    #[test]
    fn a_shape_refuses_a_key_it_does_not_name() {
        let read = |text| serde_yaml::from_str::<Limit>(text);
        assert_eq!(read("rounds: 60").expect("a known key").rounds, 60);
        let e = read("rounds: 60\nround: 50").expect_err("a misspelt key");
        assert!(e.to_string().contains("unknown field `round`"), "{e}");
        assert_eq!(e.location().map(|l| (l.line(), l.column())), Some((2, 1)));
        let claim: Claim = serde_yaml::from_str("either_side").expect("a known name");
        assert_eq!(format!("{:?}", claim.clone()), "EitherSide");
    }
}
