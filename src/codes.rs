//! `codes!`: an enum of error kinds, each with the stable code the protocol, the cases or
//! the messages use (`code()`; `Display` writes the code). The codes are the enum's
//! contract: a variant may be renamed, its code may not.
//!
//! `wraps!`: the `From` conversions of an error enum whose variants each wrap the error of
//! one stage (`FenError::Syntax(FenSyntaxError)`), so that `?` lifts a stage's error.

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
