//! `unreadable-file` (E001): a file that could not be read at all.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// A path that benchlint was asked to read but could not: it does not exist, permission
    /// was denied, it is not UTF-8 text, it is larger than the size limit (256 MiB by default,
    /// checked before reading), it is a symlink loop or a symlink leading out of the folder
    /// being checked, or it is not a regular file. Also part of a file that was not read: an
    /// array longer than `max_array_items` (1,000,000 by default; the rest is cut before
    /// parsing) or a result with more levels than `max_levels` (1,000 by default; the rest is
    /// dropped before it is checked).
    ///
    /// ## Why is this bad?
    /// A result that cannot be read cannot be checked, and a corpus audit that silently skips
    /// files is a curated corpus (seed 004: "a corpus with no failures in it has been
    /// curated"). The run goes on with every other file; this finding says which one was lost.
    ///
    /// ## Example
    /// ```text
    /// results/huge.json: file is 402653184 bytes, over the 268435456-byte limit
    /// ```
    ///
    /// ## What to do instead
    /// Fix the permissions or the encoding (UTF-8), split very large files, or raise the limit
    /// in `benchlint.toml` when the file is genuinely that large.
    pub static RULE = {
        code: "E001",
        name: "unreadable-file",
        severity: Error,
        scope: Input,
        source: "DESIGN.md (input errors)",
        summary: "file could not be read",
    }
}
