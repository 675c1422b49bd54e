//! Text encodings of game records: UTF-8, GBK/GB18030, Big5, and UTF-16 with
//! a byte-order mark, detected or named.
//!
//! A decoded text keeps where each line's bytes start (`Decoded::byte_offset`) and its faults:
//! a UTF-8 character cut short by the end of the file is a fault at its byte offset, and the
//! file stays UTF-8.

use std::fmt;

use encoding_rs::{Encoding, BIG5, GB18030, UTF_16BE, UTF_16LE, UTF_8};

/// An encoding name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEncoding(pub String);

impl fmt::Display for UnknownEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown encoding {:?} (try utf-8, gbk, gb18030, big5, utf-16le, utf-16be)",
            self.0
        )
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
        let base = spec
            .as_ref()
            .and_then(|s| s.editions().iter().find(|e| e.derives_from.is_none()));
        let rules = base.and_then(|e| crate::vm::Rules::of_edition(e).ok());
        let mut chars = rules
            .and_then(|r| r.record().map(|t| t.characters()))
            .unwrap_or_default();
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
    text.chars()
        .filter(|c| chars.binary_search(c).is_ok())
        .count()
}

/// Decode a record. With `encoding`, use it (a byte-order mark still wins,
/// as the WHATWG decoders do); without, detect: a byte-order mark, else UTF-8 when the
/// bytes are valid UTF-8 up to, at most, a character the end of the file cuts short (that
/// character is then a fault at its byte offset, never a reason to read the file in
/// another encoding), else UTF-16 by its zero bytes, else section by section
/// (`decode_by_section`: UTF-8 lines stay UTF-8, the others are read as GB18030 or
/// Big5). Returns the text and the encoding used (the first legacy one for a mixed file).
pub fn decode(bytes: &[u8], encoding: Option<&'static Encoding>) -> (String, &'static Encoding) {
    let (d, used) = decode_detailed(bytes, encoding);
    (d.text, used)
}

/// [`decode`], with the runs of lines read in a legacy encoding when detected.
pub(crate) fn decode_detailed(
    bytes: &[u8],
    encoding: Option<&'static Encoding>,
) -> (Decoded, &'static Encoding) {
    // A byte-order mark wins over a named encoding, as the WHATWG decoders do.
    let (enc, from) = match (Encoding::for_bom(bytes), encoding) {
        (Some((enc, bom_len)), _) => (Some(enc), bom_len),
        (None, named) => (named, 0),
    };
    if enc.is_none_or(|e| e == UTF_8) {
        if let Some(d) = utf8(bytes, from) {
            return (d, UTF_8);
        }
    }
    let enc = enc.or_else(|| guess_utf16(bytes));
    if let Some(enc) = enc {
        return (decode_lines(bytes, from, enc), enc);
    }
    let d = decode_by_section(bytes);
    let main = d.legacy.first().map_or(GB18030, |s| s.encoding);
    (d, main)
}

/// `bytes[from..]` as UTF-8 when they are valid UTF-8 up to, at most, a character cut
/// short by the end of the file: that character is read as U+FFFD and is a [`Fault`].
fn utf8(bytes: &[u8], from: usize) -> Option<Decoded> {
    let rest = &bytes[from..];
    let (text, faults) = match std::str::from_utf8(rest) {
        Ok(s) => (s.to_string(), Vec::new()),
        Err(e) if e.error_len().is_none() => {
            let valid = e.valid_up_to();
            let mut text = String::with_capacity(valid + 3);
            text.push_str(std::str::from_utf8(&rest[..valid]).ok()?);
            text.push('\u{FFFD}');
            (text, vec![cut_fault(&rest[valid..], valid, from + valid)])
        }
        Err(_) => return None,
    };
    Some(Decoded {
        text,
        legacy: Vec::new(),
        mixed: false,
        faults,
        map: ByteMap::Shift(from),
    })
}

/// The fault of a UTF-8 character cut short by the end of the file: `tail` are its bytes,
/// at `offset` in the text and `byte` in the file.
fn cut_fault(tail: &[u8], offset: usize, byte: usize) -> Fault {
    let full = match tail.first() {
        Some(0xF0..) => 4,
        Some(0xE0..) => 3,
        _ => 2,
    };
    Fault {
        offset,
        byte,
        width: full,
        have: tail.len(),
    }
}

impl Fault {
    /// What is wrong, in words, with its byte offset `before` bytes further on (a piece cut
    /// from a longer file).
    pub(crate) fn message(&self, before: usize) -> String {
        format!(
            "the file ends inside a UTF-8 character: byte {} starts a {}-byte character of which only {} {} there",
            self.byte + before,
            self.width,
            self.have,
            if self.have == 1 { "is" } else { "are" }
        )
    }
}

/// Whether a line is valid UTF-8 up to, at most, a character cut short by the end of the
/// file (`last`: it is the file's last line); the length of its valid part.
fn utf8_line(line: &[u8], last: bool) -> Option<usize> {
    match std::str::from_utf8(line) {
        Ok(_) => Some(line.len()),
        Err(e) if last && e.error_len().is_none() => Some(e.valid_up_to()),
        Err(_) => None,
    }
}

/// The lines of `bytes`, each with its line break: split at `\n` (never part of a
/// character in the ASCII-compatible encodings read here), or at the 16-bit unit U+000A in
/// UTF-16.
fn lines_of<'b>(bytes: &'b [u8], enc: &'static Encoding) -> Vec<&'b [u8]> {
    if enc != UTF_16LE && enc != UTF_16BE {
        return bytes.split_inclusive(|&b| b == b'\n').collect();
    }
    let unit: [u8; 2] = if enc == UTF_16LE {
        [b'\n', 0]
    } else {
        [0, b'\n']
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i..i + 2] == unit {
            out.push(&bytes[start..i + 2]);
            start = i + 2;
        }
        i += 2;
    }
    if start < bytes.len() {
        out.push(&bytes[start..]);
    }
    out
}

/// `bytes[from..]` in one encoding, line by line (the same text as a whole decode), with
/// the byte offset of each line kept.
fn decode_lines(bytes: &[u8], from: usize, enc: &'static Encoding) -> Decoded {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
    let mut spans = Vec::new();
    let mut byte = from;
    for l in lines_of(&bytes[from..], enc) {
        spans.push(Span {
            text: text.len(),
            byte,
            encoding: enc,
        });
        text.push_str(&enc.decode_without_bom_handling(l).0);
        byte += l.len();
    }
    Decoded {
        text,
        legacy: Vec::new(),
        mixed: false,
        faults: Vec::new(),
        map: ByteMap::Lines(spans),
    }
}

/// A run of lines read in a legacy encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LegacyLines {
    /// 1-based first and last line.
    pub(crate) lines: (usize, usize),
    pub encoding: &'static Encoding,
}

/// Bytes that do not decode as text of their encoding: a character cut short by the end of
/// the file (read as U+FFFD).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    /// Where it stands in the decoded text.
    pub(crate) offset: usize,
    /// Its byte offset in the file.
    pub(crate) byte: usize,
    /// The bytes of the character cut short, and how many are there.
    width: usize,
    have: usize,
}

/// A line of the decoded text: where it starts in the text and in the file, and the
/// encoding it was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    text: usize,
    byte: usize,
    encoding: &'static Encoding,
}

/// How offsets in the decoded text map to bytes of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ByteMap {
    /// UTF-8: the text is the file's bytes after a byte-order mark of this length.
    Shift(usize),
    /// Line by line, each in its encoding.
    Lines(Vec<Span>),
}

/// A decoded record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    pub text: String,
    /// The lines that are not UTF-8 and the legacy encoding each run was read in, in
    /// file order; empty when the whole text is UTF-8.
    pub(crate) legacy: Vec<LegacyLines>,
    /// Whether lines other than ASCII ones were read as UTF-8 besides them (a mixed file).
    pub(crate) mixed: bool,
    /// Bytes that are no text of their encoding, in file order.
    pub(crate) faults: Vec<Fault>,
    map: ByteMap,
}

impl Decoded {
    /// The byte offset in the file (`bytes`, the bytes decoded) of the character at
    /// `offset` in the text. A line read in a legacy encoding is decoded again byte by byte
    /// up to the character (only when a place is reported).
    pub(crate) fn byte_offset(&self, bytes: &[u8], offset: usize) -> usize {
        let spans = match &self.map {
            ByteMap::Shift(n) => return (offset + n).min(bytes.len()),
            ByteMap::Lines(spans) => spans,
        };
        let i = spans
            .partition_point(|s| s.text <= offset)
            .saturating_sub(1);
        let Some(span) = spans.get(i) else { return 0 };
        let end = spans.get(i + 1).map_or(bytes.len(), |s| s.byte);
        let target = offset - span.text;
        if span.encoding == UTF_8 {
            return (span.byte + target).min(end);
        }
        let line = &bytes[span.byte..end];
        let mut decoder = span.encoding.new_decoder_without_bom_handling();
        let mut produced = 0;
        let mut out = String::with_capacity(decoder.max_utf8_buffer_length(1).unwrap_or(16));
        for (i, b) in line.iter().enumerate() {
            if produced >= target {
                return span.byte + i;
            }
            out.clear();
            let _ = decoder.decode_to_string(std::slice::from_ref(b), &mut out, false);
            produced += out.len();
        }
        end
    }
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
    let mut faults = Vec::new();
    let mut spans = Vec::new();
    let mut byte = 0;
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    // A line that is UTF-8 (the last may end in a character the end of the file cuts).
    let utf8_at = |i: usize| utf8_line(lines[i], i + 1 == lines.len());
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
        let bad: Vec<u8> = (w[0]..w[1])
            .filter(|&i| utf8_at(i).is_none())
            .flat_map(|i| lines[i].iter().copied())
            .collect();
        let enc = if bad.is_empty() {
            GB18030
        } else {
            best_legacy(&bad)
        };
        for (k, l) in section.iter().enumerate() {
            let start = byte;
            byte += l.len();
            match utf8_at(w[0] + k) {
                Some(valid) => {
                    spans.push(Span {
                        text: text.len(),
                        byte: start,
                        encoding: UTF_8,
                    });
                    let s = std::str::from_utf8(&l[..valid]).unwrap_or_default();
                    mixed |= !s.is_ascii();
                    text.push_str(s);
                    if valid < l.len() {
                        faults.push(cut_fault(&l[valid..], text.len(), start + valid));
                        text.push('\u{FFFD}');
                    }
                }
                None => {
                    spans.push(Span {
                        text: text.len(),
                        byte: start,
                        encoding: enc,
                    });
                    let number = w[0] + k + 1;
                    match legacy.last_mut() {
                        Some(run) if run.encoding == enc && run.lines.1 + 1 == number => {
                            run.lines.1 = number
                        }
                        _ => legacy.push(LegacyLines {
                            lines: (number, number),
                            encoding: enc,
                        }),
                    }
                    text.push_str(&enc.decode_without_bom_handling(l).0);
                }
            }
        }
    }
    Decoded {
        text,
        legacy,
        mixed,
        faults,
        map: ByteMap::Lines(spans),
    }
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
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) {
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
        let mut out = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
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
        assert_eq!(
            d.legacy,
            [LegacyLines {
                lines: (4, 5),
                encoding: GB18030
            }]
        );
        assert!(d.mixed);
        let (d, _) = decode_detailed(&GB18030.encode(gbk_game).0, None);
        assert!(!d.mixed && d.text == gbk_game);
    }

    #[test]
    fn a_utf8_file_cut_inside_its_last_character_stays_utf8() {
        let text = "[Event \"测试\"]\n1. 炮二平五 马８进７ {好}";
        let cut = &text.as_bytes()[..text.len() - 2]; // `}` and the last byte of 好
        let (d, used) = decode_detailed(cut, None);
        assert_eq!(used, UTF_8);
        assert!(d.legacy.is_empty());
        let at = text.len() - 4;
        assert_eq!(d.text, format!("{}\u{FFFD}", &text[..at]));
        assert_eq!(d.faults.len(), 1);
        assert_eq!((d.faults[0].offset, d.faults[0].byte), (at, at));
        assert_eq!(d.faults[0].message(0), format!("the file ends inside a UTF-8 character: byte {at} starts a 3-byte character of which only 2 are there"));
        // A byte-order mark moves every byte offset by its length.
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(cut);
        let (d, _) = decode_detailed(&bom, None);
        assert_eq!((d.faults[0].offset, d.faults[0].byte), (at, at + 3));
        // In a file mixing UTF-8 and GBK games, a last line cut the same way stays UTF-8.
        let mut mixed = GB18030
            .encode("[Event \"测试\"]\n1. 炮二平五 *\n\n")
            .0
            .into_owned();
        let gbk_len = mixed.len();
        mixed.extend_from_slice(cut);
        let (d, _) = decode_detailed(&mixed, None);
        assert_eq!(
            d.legacy,
            [LegacyLines {
                lines: (1, 2),
                encoding: GB18030
            }]
        );
        assert_eq!(d.faults.len(), 1);
        assert_eq!(d.faults[0].byte, gbk_len + at);
        assert_eq!(d.byte_offset(&mixed, d.faults[0].offset), gbk_len + at);
        // Bytes that are not UTF-8 before the end are still read as a legacy encoding.
        let (_, used) = decode_detailed(&GB18030.encode(SAMPLE).0, None);
        assert_eq!(used, GB18030);
    }

    #[test]
    fn text_offsets_map_to_the_bytes_of_the_file() {
        let text = "[Event \"编码\"]\n1. 炮二平五 马８进７\n";
        let at = text.find('马').unwrap();
        let gbk = GB18030.encode(text).0.into_owned();
        let (d, _) = decode_detailed(&gbk, None);
        // `[Event "编码"]\n` is 15 bytes in GBK, `1. 炮二平五 ` 12 more.
        assert_eq!(d.byte_offset(&gbk, at), 27);
        assert_eq!(gbk[27..29], GB18030.encode("马").0[..]);
        for enc in [UTF_16LE, UTF_16BE] {
            let bytes = encode(text, enc);
            let (d, used) = decode_detailed(&bytes, None);
            assert_eq!((used, d.text.as_str()), (enc, text));
            // After the byte-order mark, two bytes a character.
            assert_eq!(
                d.byte_offset(&bytes, at),
                2 + 2 * text[..at].chars().count()
            );
        }
        let (d, _) = decode_detailed(text.as_bytes(), None);
        assert_eq!(d.byte_offset(text.as_bytes(), at), at);
        let named = by_name("gbk").unwrap();
        let (d, _) = decode_detailed(&gbk, Some(named));
        assert_eq!((d.text.as_str(), d.byte_offset(&gbk, at)), (text, 27));
    }

    #[test]
    fn named_encoding_is_used() {
        let gbk = GB18030.encode(SAMPLE).0.into_owned();
        assert_eq!(decode(&gbk, Some(by_name("gbk").unwrap())).0, SAMPLE);
        assert!(by_name("klingon").is_err());
    }
}
