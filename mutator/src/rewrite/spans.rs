//! Positions: proc-macro2's (line, character column) spans of the parsed source, turned into
//! the catalog's 1-based positions and into byte offsets of the source text.

use proc_macro2::LineColumn;
use quote::ToTokens;

use crate::catalog::Pos;

/// Byte offsets of line starts, to turn (line, column) positions into text slices.
pub(super) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(super) fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// Byte offset of a proc-macro2 position (1-based line, 0-based column in characters).
    pub(super) fn offset(&self, text: &str, at: LineColumn) -> usize {
        let Some(&start) = self.starts.get(at.line.saturating_sub(1)) else {
            return text.len();
        };
        text[start..]
            .char_indices()
            .nth(at.column)
            .map_or(text.len(), |(i, _)| start + i)
    }
}

/// Byte offset of a catalog position in `text`.
pub fn offset_of(text: &str, at: Pos) -> usize {
    LineIndex::new(text).offset(
        text,
        LineColumn {
            line: at.line,
            column: at.column - 1,
        },
    )
}

/// First and last position of the tokens of a syntax node.
pub fn extent(node: &impl ToTokens) -> Option<(LineColumn, LineColumn)> {
    let mut tokens = node.to_token_stream().into_iter();
    let first = tokens.next()?;
    let last = tokens.last().unwrap_or_else(|| first.clone());
    Some((first.span().start(), last.span().end()))
}

pub(super) fn pos(lc: LineColumn) -> Pos {
    Pos {
        line: lc.line,
        column: lc.column + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_character_columns() {
        let text = "// é\nlet é = a;\n";
        let at = offset_of(text, Pos { line: 2, column: 9 });
        assert_eq!(&text[at..at + 1], "a");
    }
}
