//! Rooms of a readable size (issue 46), enforced: no file of `src/` over 1,000 lines and no
//! function over 100, counted from the line of its `fn` to the line of its closing brace.

use super::layers::src_files;

const FILE_LINES: usize = 1_000;
const FUNCTION_LINES: usize = 100;

/// The text with comments, strings and character literals blanked out (line breaks kept), so
/// that the braces left are the code's.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blanks `b[i..j]`, keeping its line breaks.
    let blank = |out: &mut String, from: usize, to: usize| {
        for &c in &b[from..to.min(b.len())] {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = b[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if c == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j] == '/' && b.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if b[j] == '*' && b.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if c == 'r' && matches!(next, Some('"') | Some('#')) && !ident_before(&b, i) {
            // A raw string: r"…", r#"…"#, with as many hashes at the end as at the start.
            let hashes = b[i + 1..].iter().take_while(|&&c| c == '#').count();
            if b.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let start = i + 2 + hashes;
            let end = (start..b.len())
                .find(|&j| b[j..].starts_with(&close))
                .map_or(b.len(), |j| j + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{…}'), or a lifetime ('a), which is code.
            let end = if next == Some('\\') {
                // The escaped character itself may be a quote ('\'').
                b.get(i + 3..)
                    .and_then(|r| r.iter().position(|&c| c == '\''))
                    .map(|n| i + 3 + n)
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    blank(&mut out, i, e + 1);
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the character before `i` continues an identifier (`for` in `br"…"` is not, but
/// `r` in `bar"` would be).
fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// Every function with a body: its name, the line of its `fn` (1-based) and its length in
/// lines, up to the line of its closing brace.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let Some(at) = find_fn(line) else { continue };
        let name: String = line[at + 3..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // The body opens at the first `{` after the signature; a `;` first, outside the
        // signature's brackets (`[u8; 2]`): no body.
        let (mut depth, mut brackets) = (0usize, 0i32);
        let mut opened = false;
        'lines: for (m, l) in lines.iter().enumerate().skip(n) {
            let from = if m == n { at } else { 0 };
            for ch in l[from..].chars() {
                match ch {
                    '(' | '[' if !opened => brackets += 1,
                    ')' | ']' if !opened => brackets -= 1,
                    ';' if !opened && brackets == 0 => break 'lines,
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' if opened => {
                        depth -= 1;
                        if depth == 0 {
                            out.push((name.clone(), n + 1, m - n + 1));
                            break 'lines;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Where `fn` stands as a keyword on a line of code.
fn find_fn(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(i) = line[from..].find("fn ").map(|i| from + i) {
        if i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
            return Some(i);
        }
        from = i + 3;
    }
    None
}

#[test]
fn no_file_of_src_is_over_1000_lines_and_no_function_over_100() {
    let mut wrong = Vec::new();
    for (rel, text) in src_files() {
        let lines = text.lines().count();
        if lines > FILE_LINES {
            wrong.push(format!("src/{rel}: {lines} lines (at most {FILE_LINES})"));
        }
        for (name, at, len) in functions(&text) {
            if len > FUNCTION_LINES {
                wrong.push(format!(
                    "src/{rel}:{at}: fn {name} is {len} lines (at most {FUNCTION_LINES})"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_count_sees_functions_past_comments_strings_and_nesting() {
    let text = r##"
/// fn not_a_function() {
fn outer(x: u8) -> &'static str {
    let s = "}{ fn inside_a_string() {";
    let r = r#"}"#;
    let c = '}';
    let q = '\'';
    /* } /* nested */ } */
    fn inner<'a>(y: &'a u8) -> &'a u8 {
        y
    }
    s
}
fn declared(x: [u8; 2]);
fn bracketed(x: [u8; 2]) {
}
"##;
    let found = functions(text);
    assert_eq!(
        found,
        [
            ("outer".to_string(), 3, 11),
            ("inner".to_string(), 9, 3),
            ("bracketed".to_string(), 15, 2)
        ]
    );
    // One line more than the limit is seen.
    let long = format!(
        "fn long() {{\n{}}}\n",
        "    let _ = 1;\n".repeat(FUNCTION_LINES - 1)
    );
    assert_eq!(
        functions(&long),
        [("long".to_string(), 1, FUNCTION_LINES + 1)]
    );
}
