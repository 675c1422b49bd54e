//! Small helpers for the Markdown and terminal tables that reports and commands print.

use tabled::settings::Style;

/// A table built with `tabled`, as Markdown or as a rounded text table (for terminals).
pub fn table_text(b: tabled::builder::Builder, markdown: bool) -> String {
    let mut t = b.build();
    if markdown {
        t.with(Style::markdown());
    } else {
        t.with(Style::rounded());
    }
    t.to_string()
}

/// Text made safe for one Markdown table cell: pipes escaped, line breaks as `<br>`.
pub(crate) fn cell(s: &str) -> String {
    s.replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace('\n', "<br>")
}
