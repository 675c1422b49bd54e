//! The reading layer (`src/input.rs`, moved from tests/it: its readers are the crate's own):
//! every class of bad input is refused with its place, in linear time, and no input panics.

use proptest::prelude::*;

use crate::input::{self, InputError, Origin, MAX_DEPTH};

fn origin() -> Origin {
    Origin::file("t.yaml")
}

fn has_place(e: &InputError) {
    assert!(e.line >= 1 && e.column >= 1, "no place: {e:?}");
    assert!(
        e.to_string()
            .starts_with(&format!("{}:{}:{}: ", e.origin, e.line, e.column)),
        "{e}"
    );
}

#[test]
fn deep_flow_nesting_is_refused_fast_with_its_place() {
    // 200 KB of nested flow lists: refused before the parser sees it.
    let text = format!("a: {}{}", "[".repeat(100_000), "]".repeat(100_000));
    let t = super::load::Stopwatch::start();
    let e = input::yaml::<serde_yaml::Value>(&text, &origin()).unwrap_err();
    assert!(t.seconds() < 0.5, "{} s", t.seconds());
    assert_eq!(
        e.to_string(),
        "t.yaml:1:67: nested deeper than 64 levels at line 1, column 67"
    );
    let e = input::yaml::<serde_yaml::Value>(&format!("[{}", "{a: [".repeat(40)), &origin())
        .unwrap_err();
    assert!(
        e.what
            .starts_with("nested deeper than 64 levels at line 1, column "),
        "{e}"
    );
    // 64 levels are fine.
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(input::yaml::<serde_yaml::Value>(&ok, &origin()).is_ok());
}

#[test]
fn deep_block_nesting_is_refused_with_its_place() {
    let mut text = String::new();
    for i in 0..70 {
        text.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
    }
    let e = input::yaml::<serde_yaml::Value>(&text, &origin()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.yaml:65:65: nested deeper than 64 levels at line 65, column 65"
    );
    let dashes = format!("{}x\n", "- ".repeat(80));
    let e = input::yaml::<serde_yaml::Value>(&dashes, &origin()).unwrap_err();
    assert_eq!((e.line, e.column), (1, 129), "{e}");
}

#[test]
fn deep_json_is_refused_with_its_place() {
    let line = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let e = input::json_value(&line, &Origin::line_of("stdin", 4)).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("stdin:4:65: nested deeper than 64 levels at line 4, column 65"),
        "{e}"
    );
}

#[test]
fn duplicate_keys_are_refused_at_depth_3() {
    let text = "a:\n  b:\n    c: 1\n    d: 2\n    c: 3\n";
    let e = input::yaml::<serde_yaml::Value>(text, &origin()).unwrap_err();
    assert_eq!(e.to_string(), "t.yaml:5:5: a.b: duplicate key `c`");
    let e = input::json_value(
        r#"{"a": {"b": {"c": 1, "c": 2}}}"#,
        &Origin::line_of("stdin", 2),
    )
    .unwrap_err();
    assert_eq!((e.line, e.what.as_str()), (2, "duplicate key `c`"), "{e}");
    has_place(&e);
    // Inside a list, in flow style, with complex keys.
    let e =
        input::yaml::<serde_yaml::Value>("events:\n  - {resign: red, resign: black}\n", &origin())
            .unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.yaml:2:19: events[0]: duplicate key `resign`"
    );
    assert!(input::yaml::<serde_yaml::Value>("? [1, 2]\n: a\n? [1, 2]\n: b\n", &origin()).is_err());
    assert!(input::yaml::<serde_yaml::Value>("? [1, 2]\n: a\n? [2, 1]\n: b\n", &origin()).is_ok());
}

#[test]
fn bytes_that_are_not_utf8_are_refused_with_their_offset() {
    let mut bytes = b"a: 1\nb: caf".to_vec();
    bytes.push(0xe9);
    bytes.extend_from_slice(b"\n");
    let e = input::text(&bytes, &origin()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.yaml:2:7: not UTF-8 at byte 11 (line 2, column 7)"
    );
    assert_eq!(e.byte, Some(11));
    let dir = tempdir("utf8");
    let p = dir.join("bad.yaml");
    std::fs::write(&p, &bytes).unwrap();
    let e = input::read_file(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2:7: not UTF-8 at byte 11 (line 2, column 7)",
            p.display()
        )
    );
}

#[test]
fn alias_bombs_are_refused_with_a_place() {
    let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    let names: Vec<char> = "abcdefghij".chars().collect();
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 10].join(", ");
        text.push_str(&format!("{}: &{} [{refs}]\n", w[1], w[1]));
    }
    let t = super::load::Stopwatch::start();
    let e = input::yaml::<serde_yaml::Value>(&text, &origin()).unwrap_err();
    assert!(t.seconds() < 1.0, "{} s", t.seconds());
    has_place(&e);
    assert!(
        e.what.contains("repetition limit") || e.what.contains("values"),
        "{e}"
    );
}

#[test]
fn files_too_large_are_refused_naming_the_path() {
    let dir = tempdir("large");
    let p = dir.join("big.yaml");
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(input::MAX_FILE_BYTES + 1).unwrap();
    let e = input::read_file(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: larger than the limit of 64 MiB", p.display())
    );
    let e = input::read_file(&dir.join("missing.yaml")).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!(
            "{}: cannot read: ",
            dir.join("missing.yaml").display()
        )),
        "{e}"
    );
}

fn hostile() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"[".to_vec()),
        Just(b"]".to_vec()),
        Just(b"{".to_vec()),
        Just(b"}".to_vec()),
        Just(b"a: ".to_vec()),
        Just(b"a: 1, a: 2".to_vec()),
        Just(b"\n  - ".to_vec()),
        Just(b"\n".to_vec()),
        Just(b", ".to_vec()),
        Just(b"'".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"# ".to_vec()),
        Just(b"&x ".to_vec()),
        Just(b"*x".to_vec()),
        Just(b"|\n".to_vec()),
        Just(b"99999999999999999999999999999999999999999".to_vec()),
        Just(b"1e999".to_vec()),
        Just(vec![0xff]),
        Just(vec![0xe4, 0xb8]),
        "[a-z:]{1,4}".prop_map(String::into_bytes),
    ];
    prop::collection::vec(piece, 0..200).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    #[test]
    fn readers_never_panic_and_always_place_their_errors(bytes in hostile()) {
        let o = origin();
        match input::text(&bytes, &o) {
            Err(e) => {
                has_place(&e);
                prop_assert!(e.byte.is_some());
            }
            Ok(t) => {
                if let Err(e) = input::yaml::<serde_yaml::Value>(t, &o) {
                    has_place(&e);
                }
                if let Err(e) = input::json_value(t, &o) {
                    has_place(&e);
                }
            }
        }
    }
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("xqspec-input-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
