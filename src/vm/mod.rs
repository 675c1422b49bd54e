//! vm
