//! Where the masking walk stands after a text fed to it a piece at a time: for a reader that
//! keeps only some of a long text, the places where the walk over what follows reads it as a
//! walk over that text alone does.

/// Whether the walk of [`super::mask_within`] stands where it started, fed a text a piece at a
/// time: outside any string and with no object or array open. There the walk over the text
/// that follows reads it as a walk over that text alone does, its keys and flags included:
/// every frame it keeps is on its stack, and the stack is empty. It follows the walk's own
/// steps (`super::string_end` for a string): a string runs to its closing quote across line
/// feeds, `\\` takes the byte after it, and a closing bracket pops whatever is open (nothing,
/// when nothing is).
#[derive(Debug, Clone, Default)]
pub struct WalkRest {
    depth: usize,
    in_string: bool,
    /// Bytes of the next piece the last one's escape takes (a `\\` at a piece's end).
    skip: usize,
}

impl WalkRest {
    /// Steps the walk over `piece`, the text that follows what it was fed before.
    pub fn feed(&mut self, piece: &[u8]) {
        let mut i = self.skip;
        while i < piece.len() {
            let b = piece[i];
            if self.in_string {
                match b {
                    b'\\' => i += 2,
                    b'"' => {
                        self.in_string = false;
                        i += 1;
                    }
                    _ => i += 1,
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
        self.skip = i.saturating_sub(piece.len());
    }

    /// Whether the walk stands where it started.
    pub fn at_rest(&self) -> bool {
        self.depth == 0 && !self.in_string && self.skip == 0
    }
}
