//! The levels of one result, held whole while they are checked and packed once the result is
//! only kept for the corpus-wide rules.
//!
//! A typed [`Level`] is 464 bytes, almost all of it `Option<f64>`/`Option<u64>` at 16 bytes
//! each, and a kept result has six of them: most of what `check` holds per result at the end of
//! a large corpus. Packed ([`super::packed_level`]), a level is a presence mask and only the
//! numbers it records, each in a few bytes, and every field comes back exactly (the same f64
//! bits). Readers go through [`Levels::iter`], [`Levels::get`] and [`Levels::len`], which lend
//! the whole levels as they are and unpack a packed level on demand, so the same code reads
//! both forms; the per-result rules run before packing and read the whole levels in place.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::packed_level::{PackedLevels, Unpack};
use super::{Level, LevelKey};

/// The levels of a result: whole, or packed for keeping.
#[derive(Clone)]
pub struct Levels(Form);

#[derive(Clone)]
enum Form {
    /// Each level typed, as read.
    Full(Vec<Level>),
    /// Each level packed: read back through [`Levels::iter`].
    Packed(PackedLevels),
}

impl Levels {
    /// Levels read from the given typed levels.
    pub fn new(levels: Vec<Level>) -> Self {
        Levels(Form::Full(levels))
    }

    /// How many levels.
    pub fn len(&self) -> usize {
        match &self.0 {
            Form::Full(v) => v.len(),
            Form::Packed(p) => p.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each level in order: lent as it is when whole, unpacked one at a time when packed.
    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.0 {
            Form::Full(v) => IterForm::Full(v.iter()),
            Form::Packed(p) => IterForm::Packed(p.unpack()),
        })
    }

    /// The load key of each level, in order.
    pub fn keys(&self) -> impl Iterator<Item = LevelKey> + '_ {
        self.iter().map(|l| l.key())
    }

    /// Level `i`, when there is one.
    pub fn get(&self, i: usize) -> Option<Cow<'_, Level>> {
        match &self.0 {
            Form::Full(v) => v.get(i).map(Cow::Borrowed),
            Form::Packed(_) => self.iter().nth(i),
        }
    }

    /// The first level.
    pub fn first(&self) -> Option<Cow<'_, Level>> {
        self.get(0)
    }

    /// Every level as a slice: lent when whole, unpacked into a new list when packed. For
    /// readers that index levels by position many times over.
    pub fn as_slice(&self) -> Cow<'_, [Level]> {
        match &self.0 {
            Form::Full(v) => Cow::Borrowed(v.as_slice()),
            Form::Packed(_) => Cow::Owned(self.iter().map(Cow::into_owned).collect()),
        }
    }

    /// The levels, whole, for changing: a packed form is unpacked first.
    pub fn to_mut(&mut self) -> &mut Vec<Level> {
        if let Form::Packed(p) = &self.0 {
            let whole = p.unpack().collect();
            self.0 = Form::Full(whole);
        }
        match &mut self.0 {
            Form::Full(v) => v,
            Form::Packed(_) => unreachable!("unpacked just above"),
        }
    }

    /// Level `i`, for changing (a packed form is unpacked first).
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Level> {
        self.to_mut().get_mut(i)
    }

    /// The levels, whole, taken out.
    pub fn into_vec(self) -> Vec<Level> {
        match self.0 {
            Form::Full(v) => v,
            Form::Packed(p) => p.unpack().collect(),
        }
    }

    /// Packs the levels for keeping: every field is kept exactly, in a few dozen bytes a level
    /// instead of 464.
    pub fn pack(&mut self) {
        if let Form::Full(v) = &self.0 {
            self.0 = Form::Packed(PackedLevels::pack(v));
        }
    }

    /// Whether the levels are packed (for tests and measurement).
    pub fn is_packed(&self) -> bool {
        matches!(self.0, Form::Packed(_))
    }

    /// Heap bytes held by the levels (for measurement).
    pub fn heap_bytes(&self) -> usize {
        match &self.0 {
            Form::Full(v) => v.capacity() * std::mem::size_of::<Level>(),
            Form::Packed(p) => p.heap_bytes(),
        }
    }
}

impl Default for Levels {
    fn default() -> Self {
        Levels::new(Vec::new())
    }
}

impl From<Vec<Level>> for Levels {
    fn from(levels: Vec<Level>) -> Self {
        Levels::new(levels)
    }
}

impl FromIterator<Level> for Levels {
    fn from_iter<I: IntoIterator<Item = Level>>(iter: I) -> Self {
        Levels::new(iter.into_iter().collect())
    }
}

impl PartialEq for Levels {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Form::Full(a), Form::Full(b)) => a == b,
            _ => self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b),
        }
    }
}

impl fmt::Debug for Levels {
    /// Written as the list of levels, whichever the form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Levels {
    /// Written as the list of levels, whichever the form: byte for byte what the typed list
    /// writes.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Form::Full(v) => v.serialize(s),
            Form::Packed(_) => s.collect_seq(self.iter()),
        }
    }
}

impl<'de> Deserialize<'de> for Levels {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<Level>::deserialize(d).map(Levels::new)
    }
}

impl<'a> IntoIterator for &'a Levels {
    type Item = Cow<'a, Level>;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The levels of a result in order ([`Levels::iter`]).
pub struct Iter<'a>(IterForm<'a>);

enum IterForm<'a> {
    Full(std::slice::Iter<'a, Level>),
    Packed(Unpack<'a>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = Cow<'a, Level>;

    fn next(&mut self) -> Option<Cow<'a, Level>> {
        match &mut self.0 {
            IterForm::Full(it) => it.next().map(Cow::Borrowed),
            IterForm::Packed(it) => it.next().map(Cow::Owned),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IterForm::Full(it) => it.size_hint(),
            IterForm::Packed(it) => it.size_hint(),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}
