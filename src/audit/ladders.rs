//! Every configuration's ladder in an audit report: held (a report built by hand), or made one
//! at a time as a writer asks for it. A corpus of every configuration distinct has as many
//! ladders as results, each with its levels, intervals, capacity and replication status, about
//! two kilobytes; the three documents of `audit -o` read them several times, and holding them
//! all while they were written cost more than the results themselves.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::ser::{Serialize, SerializeSeq, Serializer};

use super::ConfigLadder;
use crate::text::FileText;

/// Makes the `j`-th ladder of a report; shared by the writers of `audit -o`, which run on
/// threads of their own.
type Make<'a> = Arc<dyn Fn(usize) -> ConfigLadder + Send + Sync + 'a>;

/// The result ids of the `j`-th ladder's runs, without making the ladder.
type RunsOf<'a> = Arc<dyn Fn(usize) -> Vec<FileText> + Send + Sync + 'a>;

/// A report's ladders, in report order.
#[derive(Clone)]
pub struct Ladders<'a>(Source<'a>);

#[derive(Clone)]
enum Source<'a> {
    Held(Vec<ConfigLadder>),
    /// `len` ladders made by `make`, but those `kept` (by index), made once and held.
    Made {
        len: usize,
        make: Make<'a>,
        runs: RunsOf<'a>,
        kept: Arc<std::collections::BTreeMap<usize, ConfigLadder>>,
    },
}

impl<'a> Ladders<'a> {
    /// `len` ladders, the `j`-th made by `make(j)` each time it is asked for: `make` must give
    /// the same ladder for the same `j` every time.
    pub fn made(len: usize, make: impl Fn(usize) -> ConfigLadder + Send + Sync + 'a) -> Self {
        let make = Arc::new(make);
        let runs = {
            let make = Arc::clone(&make);
            move |j| make(j).results
        };
        Self::made_keeping(len, move |j| make(j), runs, |_| false)
    }

    /// [`Ladders::made`], but the ladders `keep` says are made once, here, and held: those
    /// whose making costs more than holding them (a configuration of thousands of runs makes
    /// its ladder from every run, while the ladder holds its levels). `runs(j)` gives what
    /// `make(j).results` would, without the rest of the ladder ([`Ladders::runs_of`]).
    pub fn made_keeping(
        len: usize,
        make: impl Fn(usize) -> ConfigLadder + Send + Sync + 'a,
        runs: impl Fn(usize) -> Vec<FileText> + Send + Sync + 'a,
        keep: impl Fn(usize) -> bool,
    ) -> Self {
        let kept = (0..len)
            .filter(|&j| keep(j))
            .map(|j| (j, make(j)))
            .collect();
        Ladders(Source::Made {
            len,
            make: Arc::new(make),
            runs: Arc::new(runs),
            kept: Arc::new(kept),
        })
    }

    /// How many ladders the report holds.
    pub fn len(&self) -> usize {
        match &self.0 {
            Source::Held(all) => all.len(),
            Source::Made { len, .. } => *len,
        }
    }

    /// Whether the report holds no ladder.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `j`-th ladder, if there is one.
    pub fn get(&self, j: usize) -> Option<Cow<'_, ConfigLadder>> {
        match &self.0 {
            Source::Held(all) => all.get(j).map(Cow::Borrowed),
            Source::Made {
                len, make, kept, ..
            } => match kept.get(&j) {
                Some(ladder) => Some(Cow::Borrowed(ladder)),
                None => (j < *len).then(|| Cow::Owned(make(j))),
            },
        }
    }

    /// The result ids of the `j`-th ladder's runs, if there is one: an index of which ladder
    /// holds a run reads these alone, and making every ladder for them cost a walk of every
    /// configuration's runs per report written.
    pub fn runs_of(&self, j: usize) -> Option<Cow<'_, [FileText]>> {
        match &self.0 {
            Source::Held(all) => all.get(j).map(|l| Cow::Borrowed(&l.results[..])),
            Source::Made {
                len, runs, kept, ..
            } => match kept.get(&j) {
                Some(ladder) => Some(Cow::Borrowed(&ladder.results[..])),
                None => (j < *len).then(|| Cow::Owned(runs(j))),
            },
        }
    }

    /// Every ladder in order, each made as it is reached.
    pub fn iter(&self) -> impl Iterator<Item = Cow<'_, ConfigLadder>> + '_ {
        (0..self.len()).filter_map(|j| self.get(j))
    }

    /// The ladders made once and held, for a report that outlives what they are made from.
    pub fn held(self) -> Ladders<'static> {
        match self.0 {
            Source::Held(all) => Ladders(Source::Held(all)),
            Source::Made { .. } => {
                Ladders(Source::Held(self.iter().map(Cow::into_owned).collect()))
            }
        }
    }
}

impl From<Vec<ConfigLadder>> for Ladders<'_> {
    fn from(all: Vec<ConfigLadder>) -> Self {
        Ladders(Source::Held(all))
    }
}

impl fmt::Debug for Ladders<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Ladders<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl Serialize for Ladders<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for ladder in self.iter() {
            seq.serialize_element(&*ladder)?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{Estimate, LadderPoint};
    use crate::model::LevelKey;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn ladder(j: usize) -> ConfigLadder {
        let c = 1 << (j % 5);
        #[expect(clippy::cast_precision_loss, reason = "small numbers")]
        let value = 100.0 + j as f64 / 3.0;
        ConfigLadder {
            label: format!("config {j}").into(),
            fingerprint: format!("{j:012x}"),
            results: vec![format!("r{j}").into()],
            points: vec![LadderPoint {
                key: LevelKey::Streams(c),
                concurrency: Some(c),
                request_rate: None,
                aggregate_tok_s: Some(Estimate {
                    value,
                    low: value,
                    high: value,
                }),
                per_user_tok_s: None,
                runs: 1,
                launches: 1,
            }],
            capacity: None,
            replication: None,
        }
    }

    /// Made one at a time or held, the ladders read, compare, print and serialise alike, and
    /// a made one is made again each time it is read.
    #[test]
    fn made_ladders_read_as_the_same_ladders_held() {
        let made_count = AtomicUsize::new(0);
        let made = Ladders::made(7, |j| {
            made_count.fetch_add(1, Ordering::Relaxed);
            ladder(j)
        });
        let held: Ladders<'_> = (0..7).map(ladder).collect::<Vec<_>>().into();
        assert_eq!((made.len(), made.is_empty()), (7, false));
        assert!(made.get(7).is_none());
        assert_eq!(made.get(3).as_deref(), Some(&ladder(3)));
        assert_eq!(made, held);
        assert_eq!(format!("{made:?}"), format!("{held:?}"));
        assert_eq!(
            serde_json::to_string(&made).unwrap(),
            serde_json::to_string(&held).unwrap()
        );
        let before = made_count.load(Ordering::Relaxed);
        assert_eq!(made.iter().count(), 7);
        assert_eq!(made_count.load(Ordering::Relaxed), before + 7);
        assert_eq!(made.clone().held(), held);
        assert!(Ladders::made(0, ladder).is_empty());
    }

    /// Seven ladders made by [`ladder`], each making counted in `count`, those `keep` says
    /// made once and held.
    fn counted(count: &AtomicUsize, keep: impl Fn(usize) -> bool) -> Ladders<'_> {
        Ladders::made_keeping(
            7,
            |j| {
                count.fetch_add(1, Ordering::Relaxed);
                ladder(j)
            },
            |j| ladder(j).results,
            keep,
        )
    }

    /// A ladder's run ids read alone are the made ladder's, held, kept or made, and reading
    /// them makes no ladder.
    #[test]
    fn run_ids_read_without_making_the_ladder() {
        let made_count = AtomicUsize::new(0);
        let made = counted(&made_count, |j| j == 2);
        let held: Ladders<'_> = (0..7).map(ladder).collect::<Vec<_>>().into();
        let before = made_count.load(Ordering::Relaxed);
        for j in 0..8 {
            let want = held.get(j).map(|l| l.results.clone());
            assert_eq!(made.runs_of(j).map(Cow::into_owned), want, "ladder {j}");
            assert_eq!(held.runs_of(j).map(Cow::into_owned), want, "ladder {j}");
            let alone = Ladders::made(7, ladder);
            assert_eq!(alone.runs_of(j).map(Cow::into_owned), want, "ladder {j}");
        }
        assert_eq!(made_count.load(Ordering::Relaxed), before);
        assert!(matches!(made.runs_of(2), Some(Cow::Borrowed(_))));
    }

    /// The ladders kept are made once, when the list is made, and read as the others.
    #[test]
    fn kept_ladders_are_made_once() {
        let made_count = AtomicUsize::new(0);
        let made = counted(&made_count, |j| j % 3 == 0);
        assert_eq!(made_count.load(Ordering::Relaxed), 3);
        let held: Ladders<'_> = (0..7).map(ladder).collect::<Vec<_>>().into();
        assert_eq!(made, held);
        let before = made_count.load(Ordering::Relaxed);
        assert!(matches!(made.get(3), Some(Cow::Borrowed(_))));
        assert!(matches!(made.get(4), Some(Cow::Owned(_))));
        assert_eq!(made.iter().count(), 7);
        assert_eq!(made_count.load(Ordering::Relaxed), before + 1 + 4);
    }
}
