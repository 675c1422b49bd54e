//! Assertions that many test modules share.
#![allow(dead_code)] // shared by two test crates; each uses a part

/// `text` contains `part`; a failure shows the whole text.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}

/// `text` does not contain `part`; a failure shows the whole text.
#[track_caller]
pub fn assert_lacks(text: &str, part: &str) {
    assert!(!text.contains(part), "{text}");
}
