//! `xqspec ruling`: the 棋例 ruling on a cycle of moves, as a table or as JSON.

use std::fmt::Write as _;

use tabled::builder::Builder;
use tabled::settings::Style;

use crate::arbiter::LineRuling;
use crate::diagram::sheet::{line_sheet, sheet_fits};
use crate::output::Outputs;
use crate::repetition::ruling::status_name;
use crate::repetition::RepetitionRules;
use crate::ruleset::RuleSet;

use super::Lang;

/// Arguments of `xqspec ruling`.
#[derive(clap::Args, Debug)]
pub struct RulingArgs {
    /// The position the moves start from (FEN, or `startpos`, the default); not with --pgn.
    #[arg(long, allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// The moves played (ICCS, Chinese or WXF; move numbers allowed), the cycle at the end.
    #[arg(long, num_args = 1.., required_unless_present = "pgn")]
    pub moves: Vec<String>,
    /// The moves of a game record instead: judged up to the ply where the game ended by the
    /// rules, when the record goes on after it.
    #[command(flatten)]
    pub record: super::RecordArgs,
    /// Print the answer object of the `ruling` query instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Class every move given, whether or not they repeat (no verdict is meaningful then).
    #[arg(long)]
    pub every_move: bool,
    /// Also draw the judged cycle as one SVG sheet: the position where it starts, then the
    /// board after every move judged, the move framed and each chase drawn as an arrow
    /// (never over the record or another file the command reads).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// The rule set: cxa-1999, cxa-2011, cxa-2020, axf (or EDITION+OVERLAY).
    #[arg(long, default_value = crate::ruleset::DEFAULT)]
    pub edition: String,
}

/// Runs `xqspec ruling`.
pub fn run(rs: &RuleSet, a: &RulingArgs, mut outputs: Outputs, lang: Lang) -> Result<(), String> {
    // The sheet's file is claimed before anything is read or judged.
    if let Some(p) = &a.record.pgn {
        outputs.input(p, "the record (--pgn)");
    }
    let sheet_file = match &a.svg {
        Some(path) => Some(outputs.claim(path, "--svg").map_err(|e| e.to_string())?),
        None => None,
    };
    let (fen, moves) = a.record.or_line(rs, a.fen.as_deref(), &a.moves)?;
    // A sheet beyond its limit is refused before anything is judged or drawn: with
    // `--every-move` every move is judged, so the count is known now.
    if let (Some(path), true) = (&a.svg, a.every_move) {
        sheet_fits(moves.len())
            .map_err(|e| format!("{}: {e}, or leave out --svg", path.display()))?;
    }
    let j = rs.rule_line(fen, moves, a.every_move, a.record.pgn.is_some())?;
    let rep = rs
        .repetition
        .as_ref()
        .expect("judged under a rule set with 棋例 clauses");
    let r = &j.ruling;
    if let Some(path) = &a.svg {
        let sheet = line_sheet(rs, &j)
            .map_err(|e| format!("{}: {e}, or leave out --svg", path.display()))?;
        let file = sheet_file.as_ref().expect("claimed with --svg");
        file.write(sheet.as_bytes()).map_err(|e| e.to_string())?;
        if !a.json {
            println!("wrote {}", path.display());
        }
    }
    if a.json {
        println!("{}", r.to_json(rep));
        return Ok(());
    }
    print!("{}", ruling_text(rs, rep, &j, lang));
    Ok(())
}

/// An article after what it decided: ` (art. 24.9)`, `（第 24.9 条）`.
fn art(lang: Lang, a: Option<&str>) -> String {
    let a = a.unwrap_or("—");
    lang.say(format!(" (art. {a})"), format!("（第 {a} 条）"))
}

/// The table of the judged plies: each move's side, notation, class, targets and reason
/// with the article of its class.
fn plies_table(rs: &RuleSet, rep: &RepetitionRules, j: &LineRuling, lang: Lang) -> String {
    let (r, chinese) = (&j.ruling, &j.chinese);
    let words = rs.edition.words();
    let w = |group: &str, code: &str| lang.word(words, group, code);
    let mut b = Builder::default();
    b.push_record(match lang {
        Lang::En => ["ply", "side", "move", "ICCS", "class", "targets", "reason"],
        Lang::Zh => ["半回合", "方", "着法", "ICCS", "类别", "目标", "理由"],
    });
    for p in &r.plies {
        let c = &rep.classes[p.facts.class];
        b.push_record([
            p.ply.to_string(),
            w("side", p.facts.side.name()),
            chinese[p.ply - 1].clone(),
            p.facts.mv.iccs(),
            lang.say(format!("{} {}", c.zh, c.name), c.zh.clone()),
            p.targets.join(" "),
            format!(
                "{}{}",
                lang.say(p.reason.clone(), p.reason_zh.clone()),
                art(lang, c.rule.article.as_deref())
            ),
        ]);
    }
    b.build().with(Style::markdown()).to_string()
}

/// The table of `xqspec ruling`: where the record was cut, the cycle judged, each move's
/// class, each side's pattern, the verdict with its clauses, and how the arbiter ruled the
/// game when it ended otherwise.
fn ruling_text(rs: &RuleSet, rep: &RepetitionRules, j: &LineRuling, lang: Lang) -> String {
    let (r, status, cut) = (&j.ruling, &j.status, &j.cut);
    let words = rs.edition.words();
    let w = |group: &str, code: &str| lang.word(words, group, code);
    let mut out = String::new();
    if let Some(c) = cut {
        let units = match lang {
            Lang::En => ["ply", "plies"],
            Lang::Zh => ["个半回合", "个半回合"],
        };
        let name = |i: usize| lang.say(format!("ply {}", i + 1), format!("第 {} 个半回合", i + 1));
        writeln!(out, "{}", super::goes_on(lang, c, units, name)).ok();
    }
    let id = rs.id();
    let line = match r.cycle {
        Some((from, to)) => lang.say(
            format!("{id} 棋例: plies {from}–{to} judged ({})", r.judged),
            format!(
                "{id} 棋例：裁决第 {from}–{to} 个半回合（{}）",
                w("judged", r.judged)
            ),
        ),
        None => lang.say(
            format!("{id}: the moves neither repeat a position nor form a repeating pattern"),
            format!("{id}：这些着法既未重复局面，也未形成循环"),
        ),
    };
    writeln!(out, "{line}").ok();
    if !r.plies.is_empty() {
        writeln!(out, "{}", plies_table(rs, rep, j, lang)).ok();
    }
    if let Some(ps) = &r.patterns {
        for (side, p) in ["red", "black"].iter().zip(ps.iter()) {
            // The cycle's English name where the data words it (two idle, perpetual chase),
            // never the pattern's data id.
            let name = p.en.as_ref().map_or(String::new(), |en| format!("{en}, "));
            let zh = format!("{}{}，{}", p.side_zh, p.zh, p.status_zh);
            let line = lang.say(
                format!(
                    "{zh} ({}: {name}{})",
                    w("side", side),
                    status_name(p.status)
                ),
                zh.clone(),
            );
            writeln!(out, "{line}").ok();
        }
    }
    let verdict = w("verdict", r.verdict.name());
    let line = if r.cycle.is_some() {
        let basis = lang.of(&r.basis.said(words));
        lang.say(
            format!("verdict: {verdict} (by {basis})"),
            format!("裁决：{verdict}（依据{basis}）"),
        )
    } else {
        lang.say(format!("verdict: {verdict}"), format!("裁决：{verdict}"))
    };
    writeln!(out, "{line}").ok();
    for c in &r.clauses {
        let none = lang.say("none", "无");
        writeln!(
            out,
            "  {}{}",
            c.clause,
            art(lang, Some(c.article.as_deref().unwrap_or(&none)))
        )
        .ok();
    }
    if let Some(s) = status {
        if let (Some(c), Some(p)) = (&s.end.clause, s.end.ply) {
            let result = w("result", s.end.result.name());
            let at = art(lang, c.article.as_deref());
            writeln!(
                out,
                "{}",
                lang.say(
                    format!(
                        "as the arbiter rules the game: ended after ply {p}, {result} by {}{at}",
                        c.clause
                    ),
                    format!(
                        "按裁判规则：第 {p} 个半回合后终局，{result}，依 {}{at}",
                        c.clause
                    ),
                )
            )
            .ok();
        }
    }
    out
}
