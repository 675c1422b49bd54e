//! `xqspec outcome` and `xqspec touch`.
