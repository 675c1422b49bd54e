//! Assertions that many test modules share.

/// `text` contains `part`; a failure shows the whole text.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}
