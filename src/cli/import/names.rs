//! The output names of `import`, given a result at a time in path order, each name recorded
//! once: a run of a hundred thousand results held every name three times (the list of names,
//! the names taken, and the names taken lower-cased for case-insensitive file systems).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use super::file_stem;

/// A name compared without ASCII case: two names that differ only in case are one file on a
/// case-insensitive file system. Names are ASCII ([`file_stem`]), so this is all of their case.
#[derive(Debug)]
struct Folded(Box<str>);

impl Ord for Folded {
    fn cmp(&self, other: &Self) -> Ordering {
        fn fold(s: &str) -> impl Iterator<Item = u8> + '_ {
            s.bytes().map(|b| b.to_ascii_lowercase())
        }
        fold(&self.0).cmp(fold(&other.0))
    }
}

impl PartialOrd for Folded {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Folded {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Folded {}

/// The names given that fold to one key: the first is the map's key, `others` the rest as
/// written (rare: `R` after `r`); `owner` is the input whose files bear the name, when one was
/// given it rather than refused.
#[derive(Debug, Default)]
struct Taken<'p> {
    owner: Option<&'p str>,
    others: Box<[Box<str>]>,
}

/// Gives each result of a run its output name ([`Namer::name`]), in path order.
#[derive(Debug)]
pub(super) struct Namer<'p> {
    args: &'p [PathBuf],
    taken: BTreeMap<Folded, Taken<'p>>,
    /// The next suffix to try for each stem that met a name already given: every smaller one
    /// is taken, so trying again from `-2` for each result that meets it would be quadratic.
    next: BTreeMap<String, usize>,
    /// The file of the last result named and how many of its results were named.
    file: Option<(&'p str, usize)>,
}

impl<'p> Namer<'p> {
    /// No name given yet; paths are named relative to the argument among `args` that reached
    /// them.
    pub(super) fn new(args: &'p [PathBuf]) -> Self {
        Namer {
            args,
            taken: BTreeMap::new(),
            next: BTreeMap::new(),
            file: None,
        }
    }

    /// The name of the next result, read from `path`, a file that holds `in_file` results of
    /// the run (the results of one file come one after another).
    ///
    /// The name is the path relative to its argument, its `.json` dropped, each part made a
    /// plain file name (secrets masked: a name is an output too), with `-1`, `-2`, ... in file
    /// order when the file holds several results and `-2`, `-3`, ... again should two names
    /// still meet. `Err` with the other input's path when either of the name's two files
    /// (`.json`, `.provenance.json`) would be one that another result writes, with or without
    /// case.
    pub(super) fn name(&mut self, path: &'p str, in_file: usize) -> Result<String, String> {
        let k = match self.file {
            Some((p, k)) if p == path => k + 1,
            _ => 1,
        };
        self.file = Some((path, k));
        let mut stem = stem_of(path, self.args);
        if in_file > 1 {
            let _ = write!(stem, "-{k}");
        }
        let mut name = stem.clone();
        if !take(&mut self.taken, &name) {
            let n = self.next.entry(stem.clone()).or_insert(2);
            loop {
                name = format!("{stem}-{n}");
                *n += 1;
                if take(&mut self.taken, &name) {
                    break;
                }
            }
        }
        // This name's `.json` is another's `.json` or its `.provenance.json`; then this name's
        // `.provenance.json` is another's `.json`.
        let cut = name.len().checked_sub(".provenance".len());
        let other = self
            .owner(&name)
            .or_else(|| {
                cut.filter(|&at| {
                    name.is_char_boundary(at) && name[at..].eq_ignore_ascii_case(".provenance")
                })
                .and_then(|at| self.owner(&name[..at]))
            })
            .or_else(|| self.owner(&format!("{name}.provenance")));
        if let Some(other) = other {
            return Err(other.to_string());
        }
        if let Some(taken) = self.taken.get_mut(&Folded(name.as_str().into())) {
            taken.owner = Some(path);
        }
        Ok(name)
    }

    /// The input whose files bear `name`, with or without case.
    fn owner(&self, name: &str) -> Option<&'p str> {
        self.taken.get(&Folded(name.into())).and_then(|t| t.owner)
    }
}

/// The name part of the input `path`: its path relative to the argument among `args` that
/// reached it, its `.json` dropped, each folder and file name made a plain file name
/// ([`file_stem`], secrets masked).
pub(super) fn stem_of(path: &str, args: &[PathBuf]) -> String {
    let rel = crate::cli::inputs::relative_to_argument(path, args);
    let rel = rel.strip_suffix(".json").unwrap_or(&rel);
    rel.split('/')
        .map(|part| file_stem(&crate::text::masked(part)))
        .collect::<Vec<_>>()
        .join("/")
}

/// Records `name` in `taken`; false if it was there before, exactly as written.
fn take(taken: &mut BTreeMap<Folded, Taken<'_>>, name: &str) -> bool {
    let key = Folded(name.into());
    match taken.get_key_value(&key) {
        None => {
            taken.insert(key, Taken::default());
            true
        }
        Some((first, t)) => {
            if &*first.0 == name || t.others.iter().any(|o| &**o == name) {
                return false;
            }
            if let Some(t) = taken.get_mut(&key) {
                let mut others = std::mem::take(&mut t.others).into_vec();
                others.push(key.0);
                t.others = others.into_boxed_slice();
            }
            true
        }
    }
}
