//! The one reading layer for every input: files, YAML documents and JSON lines.
//!
//! Every reader of the crate goes through here, so that every input is held to the same
//! limits (named below) and every refusal carries a place ([`InputError`]: the origin, a
//! 1-based line and column and, for bytes that are not text, the byte offset).
//!
//! YAML and JSON are read in two passes. A linear pre-scan of YAML text refuses nesting
//! deeper than [`MAX_DEPTH`] before the parser sees it (libyaml takes quadratic time on
//! deep flow nesting). Then a checking pass walks the document once without building it
//! and refuses a key repeated in any mapping at any depth (serde's value maps keep the
//! last silently), nesting deeper than [`MAX_DEPTH`], and documents that expand (through
//! YAML aliases) to more than `MAX_VALUES` values. Only then is the typed value read.
//!
//! The limits are named constants ([`MAX_FILE_BYTES`], `MAX_LINE_BYTES`, [`MAX_DEPTH`],
//! `MAX_VALUES`); a refusal reads `ORIGIN:LINE:COL: what`. The readers: `read_file` and
//! `read_bytes` (the size limit, the path named), `text` (UTF-8), `yaml`,
//! `yaml_file`, `json` and `json_value`; [`FileError`] is a file as a whole that was not
//! read or not written (the record readers, the commands' outputs). This module depends on nothing
//! else in the crate; the spec loader (`SpecError: From<InputError>`), the suite (`Problem:
//! From<InputError>`) and every command read through it.

use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

/// The largest file read (spec files, case files, event lists, tournaments, records).
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The longest protocol line (one JSON request).
pub(crate) const MAX_LINE_BYTES: usize = 16 << 20;
/// The deepest nesting of lists and mappings in a YAML or JSON document.
pub const MAX_DEPTH: usize = 64;
/// The most values one document may hold, counting each expansion of a YAML alias.
pub(crate) const MAX_VALUES: usize = 4_000_000;

/// Where an input came from: a file, a line of a stream, a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The file path, or the stream or request name.
    pub name: String,
    /// The line of `name` the text starts on (1 for a whole file).
    pub(crate) first_line: usize,
}

impl Origin {
    /// A whole file.
    pub fn file(path: impl AsRef<Path>) -> Origin {
        Origin {
            name: path.as_ref().display().to_string(),
            first_line: 1,
        }
    }

    /// A text with a name and no file (`request`, `query input`).
    pub fn named(name: impl Into<String>) -> Origin {
        Origin {
            name: name.into(),
            first_line: 1,
        }
    }

    /// Line `n` (1-based) of the stream `stream` (`stdin`): a protocol request.
    pub fn line_of(stream: impl Into<String>, n: usize) -> Origin {
        Origin {
            name: stream.into(),
            first_line: n.max(1),
        }
    }
}

/// A file as a whole that could not be read (a directory, a missing or unreadable file, one
/// beyond the size limit), or that a command may not or could not write: the file and why,
/// `PATH: what`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The file, as the command was given it.
    pub path: PathBuf,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for FileError {}

/// A refused input and where: `ORIGIN:LINE:COL: what`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file path, or the stream or request name.
    pub origin: String,
    /// 1-based line; 0 only when the error is about the input as a whole (it cannot be
    /// read, it is too large), in which case `column` is 0 too.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The byte offset, for bytes that are not text.
    pub byte: Option<usize>,
    /// What is wrong.
    pub what: String,
}

impl InputError {
    /// An error at a line and column of the text read from `origin` (1-based, counted in
    /// that text).
    pub(crate) fn at(
        origin: &Origin,
        line: usize,
        column: usize,
        what: impl Into<String>,
    ) -> InputError {
        InputError {
            origin: origin.name.clone(),
            line: origin.first_line + line.max(1) - 1,
            column: column.max(1),
            byte: None,
            what: what.into(),
        }
    }

    /// An error about the input as a whole (no line or column).
    pub(crate) fn whole(origin: &Origin, what: impl Into<String>) -> InputError {
        InputError {
            origin: origin.name.clone(),
            line: 0,
            column: 0,
            byte: None,
            what: what.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.origin, self.what)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.origin, self.line, self.column, self.what
            )
        }
    }
}

impl std::error::Error for InputError {}

/// The line and column (1-based, column in characters) of byte `offset` of `text`;
/// `offset` must be a character boundary.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// The bytes as text, or a refusal at the first byte that is not UTF-8.
pub fn text<'a>(bytes: &'a [u8], origin: &Origin) -> Result<&'a str, InputError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        // The prefix up to `at` is valid, so this cannot fail.
        let valid = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let (line, column) = line_column(valid, at);
        let mut err = InputError::at(
            origin,
            line,
            column,
            format!("not UTF-8 at byte {at} (line {line}, column {column})"),
        );
        err.byte = Some(at);
        err
    })
}

/// A file's bytes, at most [`MAX_FILE_BYTES`]; errors name the path.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    let origin = Origin::file(path);
    let file = std::fs::File::open(path)
        .map_err(|e| InputError::whole(&origin, format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::whole(&origin, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(InputError::whole(
            &origin,
            format!("larger than the limit of {} MiB", MAX_FILE_BYTES >> 20),
        ));
    }
    Ok(bytes)
}

/// A file's text: at most [`MAX_FILE_BYTES`], UTF-8; errors name the path.
pub fn read_file(path: &Path) -> Result<String, InputError> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| match text(e.as_bytes(), &Origin::file(path)) {
        Err(err) => err,
        Ok(_) => InputError::whole(&Origin::file(path), "not UTF-8"),
    })
}

/// A YAML document read into `T`, after the checks of this module.
pub(crate) fn yaml<T: DeserializeOwned>(text: &str, origin: &Origin) -> Result<T, InputError> {
    check_yaml(text, origin)?;
    serde_yaml::from_str(text).map_err(|e| yaml_error(&e, text, origin))
}

/// A YAML file read into `T`.
pub fn yaml_file<T: DeserializeOwned>(path: &Path) -> Result<T, InputError> {
    yaml(&read_file(path)?, &Origin::file(path))
}

/// The checks of [`yaml`] alone: nesting, duplicate keys, size after alias expansion.
pub(crate) fn check_yaml(text: &str, origin: &Origin) -> Result<(), InputError> {
    let scan = scan_yaml(text).map_err(|(line, column)| too_deep(origin, line, column))?;
    let budget = Cell::new(MAX_VALUES);
    Check {
        depth: 0,
        budget: &budget,
        key: false,
    }
    .deserialize(serde_yaml::Deserializer::from_str(text))
    .map(|_| ())
    .map_err(|e| {
        let mut err = yaml_error(&e, text, origin);
        if e.location().is_none() {
            // The repetition limit of serde_yaml has no place: the first alias is it.
            if let Some((line, column)) = scan.first_alias {
                err = InputError::at(
                    origin,
                    line,
                    column,
                    format!("{} (aliases expand to too many values)", err.what),
                );
            }
        }
        err
    })
}

/// A serde_yaml error with its place (its own, or the end of the text when it has none).
pub(crate) fn yaml_error(e: &serde_yaml::Error, text: &str, origin: &Origin) -> InputError {
    // serde_yaml appends " at line L column C" to its message; the place is ours to give.
    let msg = e.to_string();
    let msg = msg.find(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
    let (line, column) = match e.location() {
        Some(l) => (l.line(), l.column()),
        None => line_column(text, text.len()),
    };
    if msg.ends_with(DEEP) {
        return too_deep(origin, line, column);
    }
    InputError::at(origin, line, column, msg)
}

/// One JSON value (a protocol line), after the checks of this module.
pub fn json_value(line: &str, origin: &Origin) -> Result<serde_json::Value, InputError> {
    json(line, origin)
}

/// One JSON text read into `T`, after the checks of this module.
pub fn json<T: DeserializeOwned>(line: &str, origin: &Origin) -> Result<T, InputError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(InputError::at(
            origin,
            1,
            1,
            format!("longer than the limit of {} MiB", MAX_LINE_BYTES >> 20),
        ));
    }
    let budget = Cell::new(MAX_VALUES);
    let mut de = serde_json::Deserializer::from_str(line);
    Check {
        depth: 0,
        budget: &budget,
        key: false,
    }
    .deserialize(&mut de)
    .and_then(|_| de.end())
    .map_err(|e| json_error(&e, origin))?;
    serde_json::from_str(line).map_err(|e| json_error(&e, origin))
}

fn json_error(e: &serde_json::Error, origin: &Origin) -> InputError {
    let msg = e.to_string();
    let msg = msg.find(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
    if msg.ends_with(DEEP) {
        return too_deep(origin, e.line(), e.column());
    }
    InputError::at(origin, e.line(), e.column(), msg)
}

const DEEP: &str = "nested too deep";

fn too_deep(origin: &Origin, line: usize, column: usize) -> InputError {
    let e = InputError::at(origin, line, column, "");
    let what = format!(
        "nested deeper than {MAX_DEPTH} levels at line {}, column {}",
        e.line, e.column
    );
    InputError { what, ..e }
}

/// A key of a mapping, for duplicate detection.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Null,
    Bool(bool),
    Int(i128),
    Float(u64),
    Str(String),
    Bytes(Vec<u8>),
    Seq(Vec<Key>),
    Map(Vec<(Key, Key)>),
    Tagged(String, Box<Key>),
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Null => f.write_str("null"),
            Key::Bool(b) => write!(f, "{b}"),
            Key::Int(i) => write!(f, "{i}"),
            Key::Float(x) => write!(f, "{}", f64::from_bits(*x)),
            Key::Str(s) => f.write_str(s),
            Key::Bytes(_) => f.write_str("(bytes)"),
            Key::Seq(_) | Key::Map(_) => f.write_str("(a collection)"),
            Key::Tagged(t, k) => write!(f, "!{t} {k}"),
        }
    }
}

/// The checking pass: a visitor that walks a document once, building only keys.
#[derive(Clone, Copy)]
struct Check<'a> {
    /// Lists and mappings around this value.
    depth: usize,
    /// Values still allowed in the document.
    budget: &'a Cell<usize>,
    /// Whether this value is a mapping key (its content is then kept for comparison).
    key: bool,
}

impl Check<'_> {
    fn count<E: de::Error>(&self) -> Result<(), E> {
        match self.budget.get().checked_sub(1) {
            Some(n) => {
                self.budget.set(n);
                Ok(())
            }
            None => Err(E::custom(format!(
                "more than {MAX_VALUES} values (aliases repeat their anchor's value each time)"
            ))),
        }
    }

    fn inner<E: de::Error>(&self, key: bool) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(DEEP));
        }
        Ok(Check {
            depth: self.depth + 1,
            budget: self.budget,
            key: self.key || key,
        })
    }

    fn keep<E: de::Error>(&self, k: impl FnOnce() -> Key) -> Result<Option<Key>, E> {
        self.count()?;
        Ok(self.key.then(k))
    }
}

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = Option<Key>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Key>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = Option<Key>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Option<Key>, E> {
        self.keep(|| Key::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<Key>, E> {
        self.keep(|| Key::Int(v.into()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Option<Key>, E> {
        self.keep(|| Key::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<Key>, E> {
        self.keep(|| Key::Int(v.into()))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Option<Key>, E> {
        self.keep(|| i128::try_from(v).map_or_else(|_| Key::Str(v.to_string()), Key::Int))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<Key>, E> {
        self.keep(|| Key::Float(if v == 0.0 { 0 } else { v.to_bits() }))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<Key>, E> {
        self.keep(|| Key::Str(v.to_string()))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<Key>, E> {
        self.keep(|| Key::Bytes(v.to_vec()))
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<Key>, E> {
        self.keep(|| Key::Null)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<Key>, E> {
        self.keep(|| Key::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Key>, D::Error> {
        self.deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Option<Key>, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Key>, A::Error> {
        self.count()?;
        let inner = self.inner(false)?;
        let mut items = Vec::new();
        while let Some(k) = seq.next_element_seed(inner)? {
            items.extend(k);
        }
        Ok(self.key.then_some(Key::Seq(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Key>, A::Error> {
        self.count()?;
        let key_seed = self.inner(true)?;
        let value_seed = self.inner(false)?;
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        while let Some(k) = map.next_key_seed(KeySeed {
            check: key_seed,
            seen: &seen,
        })? {
            let v = map.next_value_seed(value_seed)?;
            if self.key {
                entries.push((k.clone(), v.unwrap_or(Key::Null)));
            }
            seen.insert(k);
        }
        Ok(self.key.then_some(Key::Map(entries)))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Option<Key>, A::Error> {
        let (tag, variant): (String, _) = data.variant()?;
        let inner = variant.newtype_variant_seed(self)?;
        Ok(self
            .key
            .then(|| Key::Tagged(tag, Box::new(inner.unwrap_or(Key::Null)))))
    }
}

/// A mapping key: checked against the keys before it while the parser is at the key, so
/// that a duplicate is refused at its own place.
struct KeySeed<'a, 's> {
    check: Check<'a>,
    seen: &'s HashSet<Key>,
}

impl KeySeed<'_, '_> {
    fn fresh<E: de::Error>(&self, k: Option<Key>) -> Result<Key, E> {
        // `check.key` is set, so the key is always kept.
        let k = k.unwrap_or(Key::Null);
        if self.seen.contains(&k) {
            return Err(E::custom(format!("duplicate key `{k}`")));
        }
        Ok(k)
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_, '_> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_any(self)
    }
}

/// `KeySeed`'s visitor methods for scalars: each reads the key as the value check does,
/// then refuses it when it stands before.
macro_rules! fresh_scalars {
    ($($visit:ident($t:ty),)*) => {
        $(
            fn $visit<E: de::Error>(self, v: $t) -> Result<Key, E> {
                self.fresh(self.check.$visit(v)?)
            }
        )*
    };
}

impl<'de> Visitor<'de> for KeySeed<'_, '_> {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    // A scalar key: read as a value, then checked against the keys before it.
    fresh_scalars! {
        visit_bool(bool),
        visit_i64(i64),
        visit_i128(i128),
        visit_u64(u64),
        visit_u128(u128),
        visit_f64(f64),
        visit_str(&str),
        visit_bytes(&[u8]),
    }
    fn visit_none<E: de::Error>(self) -> Result<Key, E> {
        self.fresh(self.check.visit_none()?)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Key, E> {
        self.fresh(self.check.visit_unit()?)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        self.deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Key, A::Error> {
        self.fresh(self.check.visit_seq(seq)?)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Key, A::Error> {
        self.fresh(self.check.visit_map(map)?)
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Key, A::Error> {
        self.fresh(self.check.visit_enum(data)?)
    }
}

/// What the pre-scan found in a YAML text that nests no deeper than [`MAX_DEPTH`].
struct Scan {
    /// The line and column of the first alias (`*name`).
    first_alias: Option<(usize, usize)>,
}

/// A linear pre-scan of YAML text: the line and column (1-based) where nesting first goes
/// deeper than [`MAX_DEPTH`] — block levels (indentation, `- ` and `? ` entries) plus
/// flow levels (`[`, `{`) — outside quotes, comments and block scalars. It errs on the side
/// of counting fewer levels; the checking pass counts exactly.
fn scan_yaml(text: &str) -> Result<Scan, (usize, usize)> {
    let mut scan = YamlScan {
        quote: Quote::None,
        flow: 0,
        block: Vec::new(),
        levels: 0,
        literal: None,
        first_alias: None,
    };
    for (n, line) in text.split('\n').enumerate() {
        let chars: Vec<char> = line.trim_end_matches('\r').chars().collect();
        scan.line(n + 1, &chars)?;
    }
    Ok(Scan {
        first_alias: scan.first_alias,
    })
}

/// The quoted scalar the pre-scan is inside, if any.
#[derive(PartialEq)]
enum Quote {
    None,
    Single,
    Double,
}

/// The pre-scan's state, carried from character to character and line to line; an error
/// is the line and column where nesting goes deeper than [`MAX_DEPTH`].
struct YamlScan {
    quote: Quote,
    /// Open flow collections (`[`, `{`).
    flow: usize,
    /// The columns of the open block levels.
    block: Vec<usize>,
    /// The block levels known to be collections (of the current line, or of the line a
    /// flow collection started on).
    levels: usize,
    /// Inside a block scalar whose parent entry is at this column.
    literal: Option<usize>,
    /// The line and column of the first alias (`*name`).
    first_alias: Option<(usize, usize)>,
}

impl YamlScan {
    /// One line: skipped inside a block scalar, its block levels counted when it starts
    /// outside quotes and flow collections, then its characters.
    fn line(&mut self, line_no: usize, chars: &[char]) -> Result<(), (usize, usize)> {
        let indent = chars.iter().take_while(|&&c| c == ' ').count();
        let blank = chars[indent..].iter().all(|c| c.is_whitespace());
        if let Some(parent) = self.literal {
            if blank || indent > parent {
                return Ok(());
            }
            self.literal = None;
        }
        let mut i = 0;
        let mut node_start = true;
        if self.quote == Quote::None && self.flow == 0 {
            if blank || chars[indent] == '#' {
                return Ok(());
            }
            i = self.block_levels(line_no, chars, indent)?;
        }
        while i < chars.len() {
            if self.quote != Quote::None {
                i = self.quoted(chars, i, &mut node_start);
                continue;
            }
            if self.unquoted(line_no, chars, &mut i, &mut node_start)? {
                break;
            }
            i += 1;
        }
        Ok(())
    }

    /// The block levels of a line indented by `indent`: deeper levels closed, its own
    /// opened, one more per `- ` or `? ` entry; the column after the entries.
    fn block_levels(
        &mut self,
        line_no: usize,
        chars: &[char],
        indent: usize,
    ) -> Result<usize, (usize, usize)> {
        let block = &mut self.block;
        while block.last().is_some_and(|&c| c > indent) {
            block.pop();
        }
        if block.last() != Some(&indent) {
            block.push(indent);
        }
        let mut i = indent;
        // `- ` and `? ` entries open a level each, at the column of what follows.
        while i < chars.len()
            && (chars[i] == '-' || chars[i] == '?')
            && chars.get(i + 1).is_none_or(|c| *c == ' ')
        {
            i += 1;
            while i < chars.len() && chars[i] == ' ' {
                i += 1;
            }
            block.push(i);
        }
        // Every level but the line's last node is a collection; that one is known
        // to be a mapping at its first `key:` below.
        self.levels = block.len() - 1;
        if self.levels > MAX_DEPTH {
            return Err((line_no, block[MAX_DEPTH] + 1));
        }
        Ok(i)
    }

    /// Character `i` inside a quoted scalar: an escape (double quotes) or doubled quote
    /// (single quotes) skipped, the closing quote ends it; the next character's index.
    fn quoted(&mut self, chars: &[char], mut i: usize, node_start: &mut bool) -> usize {
        let c = chars[i];
        match self.quote {
            Quote::Double => {
                if c == '\\' {
                    i += 1;
                } else if c == '"' {
                    self.quote = Quote::None;
                    *node_start = false;
                }
            }
            Quote::Single => {
                if c == '\'' {
                    if chars.get(i + 1) == Some(&'\'') {
                        i += 1;
                    } else {
                        self.quote = Quote::None;
                        *node_start = false;
                    }
                }
            }
            Quote::None => {}
        }
        i + 1
    }

    /// Character `*i` outside quotes: flow collections opened and closed, a `key:` making
    /// its level a collection, quotes opened, anchors, tags and aliases skipped (the first
    /// alias noted), a block scalar's header; `true` when the rest of the line is not YAML
    /// structure (a comment, a block scalar's text).
    fn unquoted(
        &mut self,
        line_no: usize,
        chars: &[char],
        i: &mut usize,
        node_start: &mut bool,
    ) -> Result<bool, (usize, usize)> {
        let c = chars[*i];
        let after_space = *i == 0 || chars[*i - 1].is_whitespace();
        let next_blank = chars.get(*i + 1).is_none_or(|c| c.is_whitespace());
        match c {
            '#' if after_space => return Ok(true),
            ' ' | '\t' => {}
            '[' | '{' if self.flow > 0 || *node_start => {
                self.flow += 1;
                if self.levels + self.flow > MAX_DEPTH {
                    return Err((line_no, *i + 1));
                }
                *node_start = true;
            }
            ']' | '}' if self.flow > 0 => {
                self.flow -= 1;
                *node_start = false;
            }
            ',' if self.flow > 0 => *node_start = true,
            ':' if next_blank
                || (self.flow > 0
                    && matches!(chars.get(*i + 1), Some(',' | '[' | ']' | '{' | '}'))) =>
            {
                if self.flow == 0 && self.levels < self.block.len() {
                    self.levels = self.block.len();
                    if self.levels > MAX_DEPTH {
                        return Err((line_no, self.block[MAX_DEPTH] + 1));
                    }
                }
                *node_start = true
            }
            '"' if *node_start => self.quote = Quote::Double,
            '\'' if *node_start => self.quote = Quote::Single,
            '&' | '!' | '*' if *node_start => {
                if c == '*' && self.first_alias.is_none() {
                    self.first_alias = Some((line_no, *i + 1));
                }
                while *i + 1 < chars.len()
                    && !chars[*i + 1].is_whitespace()
                    && !matches!(chars[*i + 1], ',' | '[' | ']' | '{' | '}')
                {
                    *i += 1;
                }
                *node_start = c != '*';
            }
            '|' | '>' if *node_start && self.flow == 0 => {
                let rest: String = chars[*i + 1..].iter().collect();
                let rest =
                    rest.trim_start_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit());
                let rest = rest.trim_start();
                if rest.is_empty() || rest.starts_with('#') {
                    self.literal = Some(self.block.last().copied().unwrap_or(0));
                    return Ok(true);
                }
                *node_start = false;
            }
            _ => *node_start = false,
        }
        Ok(false)
    }
}

/// One line read by [`read_line_capped`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineRead {
    /// The line's length in bytes, its `\n` not counted (a `\r` before it is counted).
    pub(crate) len: usize,
    /// The bytes consumed: the line and its `\n`, when it has one.
    pub(crate) consumed: usize,
}

impl LineRead {
    /// Whether the line is longer than the `max` it was read with (only its first `max + 1`
    /// bytes were kept).
    pub(crate) fn too_long(self, max: usize) -> bool {
        self.len > max
    }
}

/// Reads one line (up to a `\n`, or the end of input) into `buf`, keeping at most `max + 1`
/// of its bytes, without the `\n`, so memory stays bounded whatever the input. A longer
/// line is read to its end and dropped as it goes when `whole` (the next read starts at the
/// next line), else given up on at once, the rest left unread (`too_long`, as soon as it
/// is). `None` at the end of input. The one line reader of protocol sessions: `serve` reads
/// requests with it, the runner a program's output.
pub(crate) fn read_line_capped(
    input: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
    max: usize,
    whole: bool,
) -> std::io::Result<Option<LineRead>> {
    buf.clear();
    let (mut len, mut consumed) = (0usize, 0usize);
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((consumed > 0).then_some(LineRead { len, consumed }));
        }
        let (n, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (available.len(), false),
        };
        let room = (max + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&available[..n.min(room)]);
        len += n;
        consumed += n + usize::from(done);
        input.consume(n + usize::from(done));
        if done || (!whole && len > max) {
            return Ok(Some(LineRead { len, consumed }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o() -> Origin {
        Origin::file("t.yaml")
    }

    #[test]
    fn quotes_comments_and_block_scalars_are_not_nesting() {
        let deep = "[".repeat(100);
        for text in [
            format!("a: '{deep}'\n"),
            format!("a: \"{deep}\"\n"),
            format!("a: 1 # {deep}\n"),
            format!("a: |\n  {deep}\n  x\nb: 2\n"),
            format!("- k: >-\n    {deep}\n"),
            format!("a: x{deep}\n"),
        ] {
            assert!(scan_yaml(&text).is_ok(), "{text}");
            assert!(yaml::<serde_yaml::Value>(&text, &o()).is_ok(), "{text}");
        }
    }

    #[test]
    fn deep_flow_is_refused_at_its_place() {
        let text = format!("a:\n  b: {}", "[".repeat(70));
        let e = yaml::<serde_yaml::Value>(&text, &o()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 6 + 62), "{e}");
        assert_eq!(
            e.to_string(),
            "t.yaml:2:68: nested deeper than 64 levels at line 2, column 68"
        );
    }

    #[test]
    fn duplicate_keys_anywhere() {
        let e = yaml::<serde_yaml::Value>("a:\n  b:\n    c: 1\n    c: 2\n", &o()).unwrap_err();
        assert!(e.what.contains("duplicate key `c`"), "{e}");
        assert_eq!(e.line, 4, "{e}");
        let e = json_value(
            r#"{"a":[{"b":{"c":1,"c":2}}]}"#,
            &Origin::line_of("stdin", 7),
        )
        .unwrap_err();
        assert!(e.what.contains("duplicate key `c`"), "{e}");
        assert_eq!(e.line, 7, "{e}");
        // Equal values of different types are different keys.
        assert!(yaml::<serde_yaml::Value>("{1: a, '1': b}", &o()).is_ok());
    }

    #[test]
    fn not_utf8_names_the_byte() {
        let e = text(b"ab\ncd\xffe", &o()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.yaml:2:3: not UTF-8 at byte 5 (line 2, column 3)"
        );
        assert_eq!(e.byte, Some(5));
    }
}
