//! FEN
