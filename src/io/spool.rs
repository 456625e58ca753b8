//! Outputs made now and written later, kept meanwhile in an unnamed temporary file rather than
//! in memory: `sidecar` makes a skeleton per file as the loader hands each file over, and writes
//! them once every file is read, in path order. Held in memory, twenty thousand skeletons were a
//! third of the run's peak. The file is the system's (`TMPDIR`), never the corpus, and is gone
//! when the run ends, however it ends; if it cannot be made or written, the bytes stay in memory.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};

/// An unnamed temporary file: in the system's temporary folder (`TMPDIR`), or in `folder`
/// (tests), removed by the system however the run ends. What a run holds until it can write it
/// goes there: the findings known only at its end, `sidecar`'s skeletons.
pub fn unnamed_file(folder: Option<&std::path::Path>) -> std::io::Result<File> {
    folder.map_or_else(tempfile::tempfile, tempfile::tempfile_in)
}

/// Where a piece of output was put.
#[derive(Debug)]
pub enum Ticket {
    /// In the temporary file: its first byte and its length.
    Spooled { at: u64, len: usize },
    /// In memory, where no temporary file could be had.
    Held(Vec<u8>),
}

/// The temporary file outputs are put in, made when the first one comes.
#[derive(Debug, Default)]
pub struct Spool {
    file: Option<File>,
    end: u64,
    /// No temporary file could be made or written: everything is held in memory.
    in_memory: bool,
    /// The folder of the temporary file, where not the system's (tests).
    folder: Option<std::path::PathBuf>,
}

impl Spool {
    /// A spool whose temporary file is made in `folder` rather than the system's temporary
    /// folder (where none can be made there, what is put away is held in memory).
    pub fn in_folder(folder: &std::path::Path) -> Self {
        Spool {
            folder: Some(folder.to_path_buf()),
            ..Spool::default()
        }
    }

    /// Puts `bytes` away until [`Spool::take`].
    pub fn put(&mut self, bytes: Vec<u8>) -> Ticket {
        if !self.in_memory
            && self.file.is_none()
            && let Ok(file) = unnamed_file(self.folder.as_deref())
        {
            self.file = Some(file);
        }
        let Some(mut file) = self.file.as_ref().filter(|_| !self.in_memory) else {
            self.in_memory = true;
            return Ticket::Held(bytes);
        };
        let at = self.end;
        let written = file
            .seek(SeekFrom::Start(at))
            .and_then(|_| file.write_all(&bytes));
        if written.is_err() {
            self.in_memory = true;
            return Ticket::Held(bytes);
        }
        self.end += bytes.len() as u64;
        Ticket::Spooled {
            at,
            len: bytes.len(),
        }
    }

    /// The bytes put away under `ticket`.
    pub fn take(&self, ticket: &Ticket) -> std::io::Result<Vec<u8>> {
        match *ticket {
            Ticket::Held(ref bytes) => Ok(bytes.clone()),
            Ticket::Spooled { at, len } => {
                let mut file = self.file.as_ref().ok_or_else(|| {
                    std::io::Error::other("the temporary file of the outputs is gone")
                })?;
                let mut bytes = vec![0; len];
                file.seek(SeekFrom::Start(at))?;
                file.read_exact(&mut bytes)?;
                Ok(bytes)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_put_away_is_taken_back_in_any_order() {
        let mut spool = Spool::default();
        let pieces: Vec<Vec<u8>> = (0..200u32)
            .map(|k| {
                let len = usize::try_from(k * 37 % 5_000).expect("small");
                (0..len)
                    .map(|i| u8::try_from((i * 7 + len) % 251).expect("a byte"))
                    .collect()
            })
            .collect();
        let mut tickets: Vec<(usize, Ticket)> = pieces
            .iter()
            .enumerate()
            .map(|(k, p)| (k, spool.put(p.clone())))
            .collect();
        assert!(
            tickets
                .iter()
                .all(|(_, t)| matches!(t, Ticket::Spooled { .. }))
        );
        tickets.reverse();
        for (k, t) in tickets {
            assert_eq!(spool.take(&t).expect("read back"), pieces[k], "piece {k}");
        }
    }

    #[test]
    fn without_a_temporary_folder_what_is_put_away_is_held_and_taken_back() {
        let mut spool = Spool::in_folder(&std::env::temp_dir().join("benchlint-no-such/folder"));
        let ticket = spool.put(b"{\"a\": null}\n".to_vec());
        assert!(matches!(ticket, Ticket::Held(_)));
        assert_eq!(spool.take(&ticket).expect("held"), b"{\"a\": null}\n");
    }
}
