//! The globs of `--run` / `--skip` and [`Harness::only`](crate::conform::harness::Harness::only):
//! a case is picked by its id or its path (`movement/horse-leg`).
//!
//! `*` (and `**`) is any run of characters, `/` included; `?` is one character; `[abc]`,
//! `[a-z]` and `[!a-z]` are classes; `{horse,cannon}` is any of the alternatives (which may
//! hold globs); `\` takes the next character literally. The library's own matcher, so that
//! the harness needs no crate of the command line.

/// A glob, checked and compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    text: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(char),
    /// `?`
    One,
    /// `*` or `**`
    Any,
    /// `[…]`: ranges (a single character is a range of one), negated with `!` or `^`.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    /// `{a,b}`: each alternative compiled.
    Either(Vec<Vec<Part>>),
}

/// A glob that cannot be read: where (0-based character) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobError {
    /// The glob as given.
    pub glob: String,
    /// The character (0-based) where the problem is.
    pub at: usize,
    /// What is wrong.
    pub problem: &'static str,
}

impl std::fmt::Display for GlobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bad glob `{}`: {} (character {})",
            self.glob,
            self.problem,
            self.at + 1
        )
    }
}

impl std::error::Error for GlobError {}

impl Glob {
    /// Reads a glob.
    pub fn new(text: &str) -> Result<Glob, GlobError> {
        let chars: Vec<char> = text.chars().collect();
        let mut at = 0;
        let err = |at: usize, problem| GlobError {
            glob: text.to_string(),
            at,
            problem,
        };
        let parts = parse(&chars, &mut at, false).map_err(|(a, p)| err(a, p))?;
        Ok(Glob {
            text: text.to_string(),
            parts,
        })
    }

    /// Whether the whole of `s` matches.
    pub fn is_match(&self, s: &str) -> bool {
        let chars: Vec<char> = s.chars().collect();
        matches(&self.parts, &chars, &mut Vec::new())
    }
}

type ParseError = (usize, &'static str);

/// Parts up to the end, or (inside braces) up to an unescaped `,` or `}` left unread.
fn parse(chars: &[char], at: &mut usize, in_braces: bool) -> Result<Vec<Part>, ParseError> {
    let mut parts = Vec::new();
    while *at < chars.len() {
        let c = chars[*at];
        match c {
            ',' | '}' if in_braces => return Ok(parts),
            '}' => return Err((*at, "`}` not opened")),
            '\\' => {
                let next = *chars.get(*at + 1).ok_or((*at, "`\\` at the end"))?;
                parts.push(Part::Literal(next));
                *at += 2;
            }
            '?' => {
                parts.push(Part::One);
                *at += 1;
            }
            '*' => {
                if parts.last() != Some(&Part::Any) {
                    parts.push(Part::Any);
                }
                *at += 1;
            }
            '[' => parts.push(class(chars, at)?),
            '{' => {
                let open = *at;
                *at += 1;
                let mut alternatives = Vec::new();
                loop {
                    alternatives.push(parse(chars, at, true)?);
                    match chars.get(*at) {
                        Some(',') => *at += 1,
                        Some('}') => {
                            *at += 1;
                            break;
                        }
                        _ => return Err((open, "`{` not closed")),
                    }
                }
                parts.push(Part::Either(alternatives));
            }
            c => {
                parts.push(Part::Literal(c));
                *at += 1;
            }
        }
    }
    Ok(parts)
}

/// A class `[…]` at `chars[*at]`.
fn class(chars: &[char], at: &mut usize) -> Result<Part, ParseError> {
    let open = *at;
    let mut i = *at + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i).ok_or((open, "`[` not closed"))?;
        if c == ']' && !first {
            break;
        }
        first = false;
        let lo = if c == '\\' {
            i += 1;
            *chars.get(i).ok_or((open, "`[` not closed"))?
        } else {
            c
        };
        i += 1;
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&c| c != ']') {
            let hi = chars[i + 1];
            if hi < lo {
                return Err((i, "range out of order"));
            }
            ranges.push((lo, hi));
            i += 2;
        } else {
            ranges.push((lo, lo));
        }
    }
    *at = i + 1;
    Ok(Part::Class { negated, ranges })
}

/// Whether `parts` then `rest` (the parts that follow an enclosing alternative) match the
/// whole of `s`.
fn matches<'p>(parts: &'p [Part], s: &[char], rest: &mut Vec<&'p [Part]>) -> bool {
    let Some((part, tail)) = parts.split_first() else {
        return match rest.pop() {
            Some(next) => {
                let hit = matches(next, s, rest);
                rest.push(next);
                hit
            }
            None => s.is_empty(),
        };
    };
    match part {
        Part::Literal(c) => s.first() == Some(c) && matches(tail, &s[1..], rest),
        Part::One => !s.is_empty() && matches(tail, &s[1..], rest),
        Part::Class { negated, ranges } => {
            s.first()
                .is_some_and(|c| ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(c)) != *negated)
                && matches(tail, &s[1..], rest)
        }
        Part::Any => (0..=s.len()).any(|skip| matches(tail, &s[skip..], rest)),
        Part::Either(alternatives) => alternatives.iter().any(|alt| {
            rest.push(tail);
            let hit = matches(alt, s, rest);
            rest.pop();
            hit
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(g: &str, s: &str) -> bool {
        Glob::new(g).unwrap().is_match(s)
    }

    #[test]
    fn globs_match_as_the_harness_documents() {
        assert!(m("movement/*", "movement/horse-leg"));
        assert!(m("*horse*", "movement/horse-leg"));
        assert!(m("**/horse-leg", "movement/horse-leg"));
        assert!(m("*", "a/b/c"));
        assert!(!m("movement/*", "check/flying-general"));
        assert!(m("movement.hors?", "movement.horse"));
        assert!(!m("movement.hors?", "movement.hors"));
        assert!(m("[a-c]x", "bx"));
        assert!(!m("[!a-c]x", "bx"));
        assert!(m("[!a-c]x", "dx"));
        assert!(m("{movement,check}/*-leg", "check/horse-leg"));
        assert!(!m("{movement,check}/*-leg", "results/horse-leg"));
        assert!(m("a{b,c*}d", "acxxd"));
        assert!(m("a{b,c{x,y}}d", "acyd"));
        assert!(m(r"a\*", "a*"));
        assert!(!m(r"a\*", "ab"));
        assert!(m("[]]", "]"));
        assert!(m("棋例/*", "棋例/长捉"));
        assert!(m("", ""));
        assert!(!m("", "a"));
    }

    #[test]
    fn bad_globs_say_where() {
        let e = Glob::new("movement/[ab").unwrap_err();
        assert_eq!((e.at, e.problem), (9, "`[` not closed"));
        assert_eq!(
            e.to_string(),
            "bad glob `movement/[ab`: `[` not closed (character 10)"
        );
        assert_eq!(Glob::new("{a,b").unwrap_err().problem, "`{` not closed");
        assert_eq!(Glob::new("a}").unwrap_err().problem, "`}` not opened");
        assert!(m("a,b", "a,b"));
        assert_eq!(Glob::new("a\\").unwrap_err().problem, "`\\` at the end");
        assert_eq!(
            Glob::new("[z-a]").unwrap_err().problem,
            "range out of order"
        );
    }
}
