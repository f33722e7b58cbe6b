//! YAML comments across a save. The editor (Decap) reads a YAML file as values and writes the
//! values back, so the comments left in the file (what a setting means, a section's title in a
//! list) would be gone after the first save from the browser. Before a YAML file is written,
//! each comment block of the file as it was is put back above the line it stood above, when the
//! new text still has that line (the same text, counted by occurrence: the second `- en:` of the
//! old file is the second of the new); the file's opening comment goes back at the top, and its
//! closing one at the end. A comment whose line was edited or removed goes with it, as a
//! comment on a deleted line would in a text editor.

/// Where a comment block of the old file stood.
enum Anchor<'a> {
    /// The file's opening comment (followed by a blank line).
    Top,
    /// Above the `n`-th (from 0) line of the old file with this text.
    Above(&'a str, usize),
    /// After the last line.
    End,
}

/// `new`, with the comment blocks of `old` put back where their lines still are.
pub fn keep(old: &str, new: &str) -> String {
    let blocks = blocks(old);
    if blocks.is_empty() {
        return new.to_string();
    }
    let mut top = String::new();
    let mut end = String::new();
    // (line text, occurrence) -> the block to print above it
    let mut above: Vec<((&str, usize), String)> = Vec::new();
    for (anchor, block) in blocks {
        if new.contains(block.trim_end()) {
            continue; // the new text kept it itself
        }
        match anchor {
            Anchor::Top => top = block,
            Anchor::End => end = block,
            Anchor::Above(line, n) => above.push(((line, n), block)),
        }
    }
    let mut out = String::with_capacity(new.len() + top.len() + end.len());
    if !top.is_empty() {
        out.push_str(&top);
        if !new.starts_with('\n') {
            out.push('\n');
        }
    }
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for line in new.split_inclusive('\n') {
        let text = line.trim_end();
        let n = bump(&mut seen, text);
        if let Some((_, block)) = above.iter().find(|(key, _)| *key == (text, n)) {
            out.push_str(block);
        }
        out.push_str(line);
    }
    if !end.is_empty() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&end);
    }
    out
}

/// The comment blocks of `text`, each with where it stands. A block is a run of comment lines
/// (and blank lines between them), ending with a newline.
fn blocks(text: &str) -> Vec<(Anchor<'_>, String)> {
    let mut out = Vec::new();
    let mut pending = String::new();
    let mut at_start = true;
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') {
            pending.push_str(line);
            pending.push('\n');
        } else if trimmed.is_empty() {
            if at_start && !pending.is_empty() {
                // The opening comment: comments from the first line, then a blank line.
                out.push((Anchor::Top, std::mem::take(&mut pending)));
            } else if !pending.is_empty() {
                pending.push('\n'); // a blank line inside or after a block stays with it
            }
        } else {
            at_start = false;
            let text = line.trim_end();
            let n = bump(&mut seen, text);
            if !pending.is_empty() {
                out.push((Anchor::Above(text, n), std::mem::take(&mut pending)));
            }
        }
    }
    if !pending.trim().is_empty() {
        out.push((if at_start { Anchor::Top } else { Anchor::End }, pending));
    }
    out
}

/// Counts one more occurrence of `text`; returns how many came before it.
fn bump<'a>(seen: &mut Vec<(&'a str, usize)>, text: &'a str) -> usize {
    match seen.iter_mut().find(|(t, _)| *t == text) {
        Some((_, n)) => {
            *n += 1;
            *n - 1
        }
        None => {
            seen.push((text, 1));
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::keep;

    #[test]
    fn the_opening_comment_and_a_settings_comment_come_back() {
        let old = "# Site-wide settings.\n# Field names: model.rs\n\nname: Coach\n# The languages: the first is the default.\nlanguages: [en, ar]\n";
        // What the editor writes: the values, no comments, a changed name.
        let new = "name: Nadine\nlanguages: [en, ar]\n";
        assert_eq!(
            keep(old, new),
            "# Site-wide settings.\n# Field names: model.rs\n\nname: Nadine\n# The languages: the first is the default.\nlanguages: [en, ar]\n"
        );
    }

    #[test]
    fn a_section_comment_in_a_list_stays_above_its_item_even_when_items_move() {
        let old = "# FAQs\n\n# --- General ---\n- question: What is coaching?\n  answer: A conversation.\n# --- Payments ---\n- question: How do I pay?\n  answer: Online.\n";
        // The two items swapped and one answer edited.
        let new = "- question: How do I pay?\n  answer: By card.\n- question: What is coaching?\n  answer: A conversation.\n";
        assert_eq!(
            keep(old, new),
            "# FAQs\n\n# --- Payments ---\n- question: How do I pay?\n  answer: By card.\n# --- General ---\n- question: What is coaching?\n  answer: A conversation.\n"
        );
    }

    #[test]
    fn repeated_lines_are_matched_by_occurrence_and_a_removed_line_takes_its_comment() {
        let old = "- en: A\n# second\n- en: A\n# gone\n- en: B\n";
        let new = "- en: A\n- en: A\n";
        assert_eq!(keep(old, new), "- en: A\n# second\n- en: A\n");
    }

    #[test]
    fn a_file_without_comments_or_one_that_kept_them_is_written_as_given() {
        assert_eq!(keep("a: 1\n", "a: 2\n"), "a: 2\n");
        let both = "# note\na: 2\n";
        assert_eq!(keep("# note\na: 1\n", both), both);
    }
}
