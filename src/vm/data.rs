//! Typed shapes of the clause `data` the VM interprets.
//!
//! Each shape rejects unknown fields, so a misspelt key in `spec/` is an error with the
//! clause's location rather than a silently ignored rule.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Grid {
    pub files: u8,
    pub ranks: u8,
}

/// A rectangle of points written as Red sees its own side: `{files: [d, f], ranks: [0, 2]}`.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub files: [char; 2],
    pub ranks: [u8; 2],
}

/// Any clause that names regions (`board.river`, `board.palace`).
#[derive(Debug, Deserialize)]
pub struct Regions {
    #[serde(default)]
    pub regions: BTreeMap<String, Region>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kinds {
    pub kinds: Vec<Kind>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kind {
    pub kind: String,
    pub(crate) gloss: String,
    #[serde(default)]
    pub royal: bool,
    pub fen: Vec<char>,
    pub(crate) names: SideNames,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SideNames {
    pub(crate) red: String,
    pub(crate) black: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Setup {
    pub(crate) points: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Turns {
    pub(crate) first_to_move: String,
    pub(crate) moves_per_round: u8,
}

/// A piece's move program (`movement.<piece>`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub piece: String,
    pub program: Vec<Instruction>,
}

/// One primitive of a move program, with its options.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct Instruction {
    #[serde(default)]
    pub step: Option<[i8; 2]>,
    #[serde(default)]
    pub leap: Option<[i8; 2]>,
    #[serde(default)]
    pub slide: Option<[i8; 2]>,
    #[serde(default)]
    pub hop: Option<[i8; 2]>,
    /// Blocking point of a leap, relative to the start, in the same frame as the leap.
    #[serde(default)]
    pub block: Option<[i8; 2]>,
    /// Pieces a hop jumps over (炮打隔子: one).
    #[serde(default)]
    pub screens: Option<u8>,
    /// Longest slide, in points.
    #[serde(default)]
    pub max: Option<u8>,
    #[serde(default)]
    pub symmetry: Symmetry,
    #[serde(default)]
    pub mode: Mode,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
}

#[derive(Debug, Deserialize, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Symmetry {
    #[default]
    None,
    Mirror,
    Rotate,
    All,
}

#[derive(Debug, Deserialize, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Both,
    Quiet,
    Capture,
}

impl Mode {
    pub fn quiet(self) -> bool {
        matches!(self, Mode::Both | Mode::Quiet)
    }
    pub fn capture(self) -> bool {
        matches!(self, Mode::Both | Mode::Capture)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Capture {
    pub capture: String,
    pub(crate) own_pieces: String,
}

/// Two pieces of this kind may not face each other on a line with nothing between.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facing {
    pub piece: String,
    pub line: Line,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    File,
    Rank,
    Both,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckDefinition {
    pub target: String,
    pub status: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckResponse {
    pub(crate) must_answer: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StatusRule {
    pub(crate) when: StatusWhen,
    pub status: String,
}

#[derive(Debug, Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub(crate) struct StatusWhen {
    #[serde(default)]
    pub in_check: Option<bool>,
    #[serde(default)]
    pub(crate) has_legal_move: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfKill {
    pub forbidden_after_move: Vec<Forbidden>,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Forbidden {
    /// The mover's own general can be captured by an opposing move.
    OwnRoyalAttacked,
    /// The generals face each other (see `movement.generals_facing`).
    RoyalsFacing,
}
