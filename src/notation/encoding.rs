//! Text encodings of game records: UTF-8, GBK/GB18030, Big5, and UTF-16 with
//! a byte-order mark, detected or named.

use std::fmt;

use encoding_rs::{Encoding, BIG5, GB18030, UTF_16BE, UTF_16LE, UTF_8};

/// An encoding name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEncoding(pub String);

impl fmt::Display for UnknownEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown encoding {:?} (try utf-8, gbk, gb18030, big5, utf-16le, utf-16be)", self.0)
    }
}

impl std::error::Error for UnknownEncoding {}

/// Look up an encoding by its WHATWG label (`utf-8`, `gbk`, `gb18030`,
/// `big5`, `utf-16le`, `utf-16be`, ...).
pub fn by_name(name: &str) -> Result<&'static Encoding, UnknownEncoding> {
    Encoding::for_label(name.trim().as_bytes()).ok_or_else(|| UnknownEncoding(name.to_string()))
}

/// Words of game headers and results (red, black, win, loss, draw, game, event) that
/// xiangqi records are full of, besides the move characters.
const HEADER_CHARS: &str = "红黑胜负和棋局赛";

/// The characters a record's moves are written with: every character of the built-in
/// spec's record table (`notation.*`, `pieces.kinds`, `board.file_numbering` of the base
/// edition), computed once.
fn record_chars() -> &'static [char] {
    static CHARS: std::sync::OnceLock<Vec<char>> = std::sync::OnceLock::new();
    CHARS.get_or_init(|| {
        let spec = crate::spec::Spec::builtin().ok();
        let base = spec.as_ref().and_then(|s| s.editions().iter().find(|e| e.derives_from.is_none()));
        let rules = base.and_then(|e| crate::vm::Rules::of_edition(e).ok());
        let mut chars = rules.and_then(|r| r.record().map(|t| t.characters())).unwrap_or_default();
        chars.extend(HEADER_CHARS.chars());
        chars.sort_unstable();
        chars.dedup();
        chars
    })
}

/// How much `text` reads like a xiangqi record: used to choose between legacy
/// encodings that both decode the bytes without error.
fn score(text: &str) -> usize {
    let chars = record_chars();
    text.chars().filter(|c| chars.binary_search(c).is_ok()).count()
}

/// Decode a record. With `encoding`, use it (a byte-order mark still wins,
/// as the WHATWG decoders do); without, detect: a byte-order mark, else valid
/// UTF-8, else UTF-16 by its zero bytes, else section by section
/// (`decode_by_section`: UTF-8 lines stay UTF-8, the others are read as GB18030 or
/// Big5). Returns the text and the encoding used (the first legacy one for a mixed file).
pub fn decode(bytes: &[u8], encoding: Option<&'static Encoding>) -> (String, &'static Encoding) {
    let (d, used) = decode_detailed(bytes, encoding);
    (d.text, used)
}

/// [`decode`], with the runs of lines read in a legacy encoding when detected.
pub(crate) fn decode_detailed(bytes: &[u8], encoding: Option<&'static Encoding>) -> (Decoded, &'static Encoding) {
    let whole = |text: std::borrow::Cow<'_, str>, enc| (Decoded { text: text.into_owned(), legacy: Vec::new(), mixed: false }, enc);
    if let Some(enc) = encoding {
        let (text, used, _) = enc.decode(bytes);
        return whole(text, used);
    }
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return whole(text, enc);
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return whole(s.into(), UTF_8);
    }
    if let Some(enc) = guess_utf16(bytes) {
        let (text, _) = enc.decode_without_bom_handling(bytes);
        return whole(text, enc);
    }
    let d = decode_by_section(bytes);
    let main = d.legacy.first().map_or(GB18030, |s| s.encoding);
    (d, main)
}

/// A run of lines read in a legacy encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LegacyLines {
    /// 1-based first and last line.
    pub(crate) lines: (usize, usize),
    pub encoding: &'static Encoding,
}

/// A record decoded section by section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    pub text: String,
    /// The lines that are not UTF-8 and the legacy encoding each run was read in, in
    /// file order; empty when the whole text is UTF-8.
    pub(crate) legacy: Vec<LegacyLines>,
    /// Whether lines other than ASCII ones were read as UTF-8 besides them (a mixed file).
    pub(crate) mixed: bool,
}

/// Decode a record that is not UTF-8 as a whole, so that files mixing UTF-8 and GBK (or
/// Big5) games read right: each line that is valid UTF-8 is kept as such; the other lines
/// of a game section (from a tag line after movetext to the next) are read in whichever
/// of GB18030 and Big5 decodes them without error and reads more like a xiangqi record,
/// chosen for the section. Line breaks are kept, so line numbers are the file's.
pub(crate) fn decode_by_section(bytes: &[u8]) -> Decoded {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
    let mut legacy: Vec<LegacyLines> = Vec::new();
    let mut mixed = false;
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    // Sections: a tag line (`[` first) that follows a line that is not one starts one.
    let mut starts = vec![0];
    for i in 1..lines.len() {
        let tag = |l: &[u8]| l.iter().find(|b| !b" \t\r".contains(b)) == Some(&b'[');
        if tag(lines[i]) && !tag(lines[i - 1]) {
            starts.push(i);
        }
    }
    starts.push(lines.len());
    for w in starts.windows(2) {
        let section = &lines[w[0]..w[1]];
        let bad: Vec<u8> = section.iter().filter(|l| std::str::from_utf8(l).is_err()).flat_map(|l| l.iter().copied()).collect();
        let enc = if bad.is_empty() { GB18030 } else { best_legacy(&bad) };
        for (k, l) in section.iter().enumerate() {
            match std::str::from_utf8(l) {
                Ok(s) => {
                    mixed |= !s.is_ascii();
                    text.push_str(s);
                }
                Err(_) => {
                    let number = w[0] + k + 1;
                    match legacy.last_mut() {
                        Some(run) if run.encoding == enc && run.lines.1 + 1 == number => run.lines.1 = number,
                        _ => legacy.push(LegacyLines { lines: (number, number), encoding: enc }),
                    }
                    text.push_str(&enc.decode_without_bom_handling(l).0);
                }
            }
        }
    }
    Decoded { text, legacy, mixed }
}

/// GB18030 or Big5, whichever decodes `bytes` without error and scores higher (GB18030
/// when neither decodes cleanly).
fn best_legacy(bytes: &[u8]) -> &'static Encoding {
    let mut best: Option<(usize, &'static Encoding)> = None;
    for enc in [GB18030, BIG5] {
        if let Some(text) = enc.decode_without_bom_handling_and_without_replacement(bytes) {
            let sc = score(&text);
            if best.as_ref().is_none_or(|(b, _)| sc > *b) {
                best = Some((sc, enc));
            }
        }
    }
    best.map_or(GB18030, |(_, e)| e)
}

/// UTF-16 without a byte-order mark: ASCII-heavy text has a zero in every
/// other byte.
fn guess_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    if bytes.len() < 4 || bytes.len() % 2 != 0 {
        return None;
    }
    let pairs = bytes.len() / 2;
    let even_zero = bytes.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_zero = bytes.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    if odd_zero * 10 >= pairs * 3 && even_zero == 0 {
        Some(UTF_16LE)
    } else if even_zero * 10 >= pairs * 3 && odd_zero == 0 {
        Some(UTF_16BE)
    } else {
        None
    }
}


/// Encode text for writing converted records.
#[cfg(test)]
fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let le = encoding == UTF_16LE;
        let mut out = if le { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for u in text.encode_utf16() {
            let b = if le { u.to_le_bytes() } else { u.to_be_bytes() };
            out.extend_from_slice(&b);
        }
        return out;
    }
    let (bytes, _, _) = encoding.encode(text);
    bytes.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "[Event \"测试\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８\n";

    #[test]
    fn detects_each_encoding() {
        let gbk = GB18030.encode(SAMPLE).0.into_owned();
        assert_eq!(decode(&gbk, None), (SAMPLE.to_string(), GB18030));
        let trad = "1. 炮二平五 馬８進７ 2. 傌二進三 車９平８";
        let big5 = BIG5.encode(trad).0.into_owned();
        assert_eq!(decode(&big5, None), (trad.to_string(), BIG5));
        for enc in [UTF_16LE, UTF_16BE] {
            let bytes = encode(SAMPLE, enc);
            assert_eq!(decode(&bytes, None), (SAMPLE.to_string(), enc));
        }
        let mut bom8 = vec![0xEF, 0xBB, 0xBF];
        bom8.extend_from_slice(SAMPLE.as_bytes());
        assert_eq!(decode(&bom8, None).0, SAMPLE);
        assert_eq!(decode(SAMPLE.as_bytes(), None), (SAMPLE.to_string(), UTF_8));
    }

    #[test]
    fn a_file_mixing_utf8_and_gbk_games_reads_each_in_its_own() {
        let utf8 = "[Event \"一\"]\n1. 炮二平五 马８进７ *\n\n";
        let gbk_game = "[Event \"二\"]\n1. 马二进三 车９平８ *\n\n";
        let mut bytes = utf8.as_bytes().to_vec();
        bytes.extend_from_slice(&GB18030.encode(gbk_game).0);
        bytes.extend_from_slice(utf8.as_bytes());
        let (d, used) = decode_detailed(&bytes, None);
        assert_eq!(d.text, format!("{utf8}{gbk_game}{utf8}"));
        assert_eq!(used, GB18030);
        assert_eq!(d.legacy, [LegacyLines { lines: (4, 5), encoding: GB18030 }]);
        assert!(d.mixed);
        let (d, _) = decode_detailed(&GB18030.encode(gbk_game).0, None);
        assert!(!d.mixed && d.text == gbk_game);
    }

    #[test]
    fn named_encoding_is_used() {
        let gbk = GB18030.encode(SAMPLE).0.into_owned();
        assert_eq!(decode(&gbk, Some(by_name("gbk").unwrap())).0, SAMPLE);
        assert!(by_name("klingon").is_err());
    }
}
